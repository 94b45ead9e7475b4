"""Inexact flat crease patterns: diagnosis (Kawasaki, Maekawa, rigid foldability) and a least-squares correction.

Real crease patterns are drawn with rounded coordinates (Origami Simulator's
``miura-ori.svg`` misses Kawasaki's condition by up to 2e-5 rad at most of
its vertices). A rigid fold of a flat pattern exists only for exact
geometry: a Miura-ori whose vertices miss Kawasaki by 1e-5 is rigid, and the
fold would look for a branch out of the flat state in vain.

Conditions, per interior vertex of a flat pattern (1-based in messages):

* Kawasaki (flat-foldability of the vertex): the alternating sum of the
  sector angles around it, sum_i (-1)^i theta_i = 0 (even degree; rad);
* Maekawa (with the file's assignment): |#M - #V| = 2 at a vertex whose
  creases are all M or V.

A flat crease "F" of the file's assignment (read with ``facets="crease"``:
a hinge whose fold angle is 0 at every state) is not a crease of either
condition: the sectors on its two sides are one, as with ``facets="facet"``,
and a vertex where only flat creases meet is not counted.

A vertex is *inexact* when its Kawasaki miss lies between :data:`EXACT` and
:data:`NEAR` rad: drawn to be flat-foldable, rounded on the way. A miss above
:data:`NEAR` is a vertex that is not meant to be flat-foldable (a generic
degree-4 vertex is rigidly foldable without it) and is left alone.

Kawasaki is not enough for a rigid fold: a quadrilateral mesh of
flat-foldable degree-4 vertices (a Miura-ori) folds rigidly only when, on
every panel whose four corners are such interior vertices, the fold-angle
multipliers close up (Tachi 2009, "Generalization of rigid-foldable
quadrilateral-mesh origami"): at a flat-foldable degree-4 vertex the
tan(rho/2) of its creases keep fixed ratios along the fold, the ratios of
its first-order folding rates on the branch of the assignment; around the
panel, the product of the four ratios between consecutive sides must be 1
(``face`` rows, log |product| = 0). The rates at a vertex with unit crease
directions c_i (in angular order) span the rates r with sum r_i c_i = 0 (two
dimensions) on which the second-order closure sum_{i<j} r_i r_j (c_i x c_j) .
n = 0 (the loop of rotations around the vertex) holds: two lines, the one
whose signs are the assignment's is taken.

Correction (:func:`correct`): the flat pattern's vertex positions X (in its
plane) move by the least-squares (minimum-norm) change that makes every
inexact vertex, and every vertex already exact, satisfy Kawasaki to
:data:`KAWASAKI_TOL`, and every such panel its multiplier closure (when the
file has an M/V assignment): Gauss-Newton, each step the minimum-norm
solution of the linearised conditions (LSMR on the sparse Jacobian; the
Kawasaki rows analytic, the face rows by central differences of each
vertex's rates).
The pattern stays flat (the out-of-plane coordinate is kept). The largest
vertex move is reported, and a correction moving a vertex farther than
``max_move`` (default :data:`MAX_MOVE_RTOL` x the pattern size) is refused.
The user's file is never changed: the fold (``analysis.fold.fold_to_targets(...,
fix_geometry=True)``, on the
command line ``--fix-geometry``) folds the corrected pattern in memory with a
note, or ``check FILE --fix -o NEW.fold`` writes a new file.

Before a flat pattern folds (``analysis.fold.fold_to_targets``), :func:`prepare` refuses
inexact geometry at once when a panel of a quadrilateral mesh depends on it
(the fold would search for a branch out of the flat state in vain), and
names the worst vertex.
"""
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from ..crease.pattern import hinge_rotations
from ..tools.errors import GeometryError, StructureError
from ..tools.linalg import min_norm_lstsq

#: Kawasaki misses (rad) at most this large count as exact
EXACT = 1e-9
#: misses (rad) above this are vertices not meant to be flat-foldable
NEAR = 1e-3
#: the correction restores Kawasaki to this (rad)
KAWASAKI_TOL = 1e-12
#: default largest accepted vertex move, relative to the pattern size
MAX_MOVE_RTOL = 1e-3
#: a pattern is flat when every vertex lies within this x its size of one plane
FLAT_RTOL = 1e-9


@dataclass
class Report:
    """Per interior vertex (0-based ``vertices``): degree, Kawasaki miss (rad, NaN for odd degree), Maekawa
    miss (|#M - #V| - 2, None without a full M/V assignment there)."""

    flat: bool
    vertices: list = field(default_factory=list)
    degree: list = field(default_factory=list)
    kawasaki: list = field(default_factory=list)
    maekawa: list = field(default_factory=list)
    #: panels (0-based) of the multiplier closure, their vertex loops (0-based) and the miss |log product|
    faces: list = field(default_factory=list)
    closure: list = field(default_factory=list)
    loops: list = field(default_factory=list)
    #: flat-foldable degree-4 vertices (0-based) whose M/V signs fit neither of their two folding branches
    misfits: list = field(default_factory=list)
    #: hinges folded over (|fold angle| > 90 deg) in a plane: a flat-folded form, not a crease pattern (not flat)
    folded_over: int = 0

    @property
    def constrained(self):
        """Whether some panel has its four corners at interior degree-4 vertices (a quad mesh: rigid unless exact)."""
        return bool(self.faces)

    @property
    def open_faces(self):
        """0-based panels whose multiplier closure misses by more than EXACT, worst first."""
        out = [(c, p) for p, c in zip(self.faces, self.closure) if not c <= EXACT]
        return [p for _, p in sorted(out, key=lambda x: -x[0] if np.isfinite(x[0]) else -np.inf)]

    @property
    def unfoldable_faces(self):
        """0-based panels whose multiplier closure misses by more than :data:`NEAR` (or whose vertices have no
        folding branch with the assignment's signs), worst first: not a rounding; with this mountain-valley
        assignment the quadrilateral mesh has no rigid fold from the flat state that turns all its creases (one that
        keeps some flat may remain: ``keep_geometry`` tries it)."""
        return [p for p in self.open_faces if not self.closure[self.faces.index(p)] <= NEAR]

    def unfoldable(self, name, worst=3):
        """One line naming the panels of :attr:`unfoldable_faces` and their vertices (1-based), or None."""
        bad = self.unfoldable_faces
        if not bad:
            return None

        def one(p):
            c = self.closure[self.faces.index(p)]
            loop = self.loops[self.faces.index(p)] if self.loops else []
            miss = f"by {c:.2g}" if np.isfinite(c) else f"({self._closure_text(p)})"
            return f"panel {p + 1} (vertices {', '.join(str(v + 1) for v in loop)}) {miss}"

        more = f" and {len(bad) - worst} more panels" if len(bad) > worst else ""
        return (f"{name}: not rigidly foldable: the fold-angle multipliers of its flat-foldable degree-4 vertices do "
                f"not close around {'; '.join(one(p) for p in bad[:worst])}{more} (|log product|; a rounding "
                f"misses by less than {NEAR:g}): with this mountain-valley assignment the quadrilateral mesh has no "
                f"rigid fold from the flat state that turns all its creases")

    @property
    def flat_foldable(self):
        """0-based vertices of even degree whose Kawasaki miss is at most :data:`NEAR` (exact or rounded)."""
        return {v for v, k in zip(self.vertices, self.kawasaki) if np.isfinite(k) and k <= NEAR}

    @property
    def inexact(self):
        """0-based vertices whose Kawasaki miss lies in (EXACT, NEAR], worst first."""
        out = [(k, v) for v, k in zip(self.vertices, self.kawasaki) if np.isfinite(k) and EXACT < k <= NEAR]
        return [v for _, v in sorted(out, key=lambda x: -x[0])]

    def miss(self, v):
        return self.kawasaki[self.vertices.index(v)]

    def summary(self, worst=5):
        """Lines: the counts, then the worst vertices (1-based)."""
        if self.folded_over:
            return [f"the pattern is folded flat ({_count(self.folded_over, 'crease', 'creases')} folded over, up to "
                    f"+-180 deg): Kawasaki's and Maekawa's conditions are for its unfolded crease pattern"]
        if not self.flat:
            return ["the pattern is not flat: Kawasaki's and Maekawa's conditions are for flat patterns"]
        n = len(self.vertices)
        k = np.array([x for x in self.kawasaki if np.isfinite(x)])
        bad = self.inexact
        lines = [f"{_count(n, 'interior vertex', 'interior vertices')}; Kawasaki (alternating sum of sector angles): "
                 f"{int(np.sum(k <= EXACT))} exact (<= {EXACT:g} rad), {len(bad)} inexact "
                 f"({EXACT:g} to {NEAR:g} rad: rounded coordinates), {int(np.sum(k > NEAR))} not flat-foldable "
                 f"(> {NEAR:g} rad), {n - len(k)} of odd degree"]
        far = sorted((v for v, x in zip(self.vertices, self.kawasaki) if np.isfinite(x) and x > NEAR),
                     key=lambda v: -self.miss(v))
        if far:
            lines.append("worst vertices not flat-foldable: " + ", ".join(f"{v + 1} ({self.miss(v):.2g} rad)"
                                                                        for v in far[:worst]))
        if bad:
            lines.append(f"worst {'inexact ' if far else ''}vertices: "
                         + ", ".join(f"{v + 1} ({self.miss(v):.2g} rad)" for v in bad[:worst]))
        if self.faces:
            bad_f = self.open_faces
            lines.append(f"rigid foldability of the quadrilateral mesh (fold-angle multipliers closing around "
                         f"{len(self.faces)} panel{'s' if len(self.faces) != 1 else ''}"
                         f"{', telling once Kawasaki holds' if bad else ''}): "
                         f"{len(self.faces) - len(bad_f)} close (<= {EXACT:g}), "
                         f"{len(bad_f)} do not"
                         + (": worst panels " + ", ".join(f"{p + 1} ({self._closure_text(p)})"
                                                          for p in bad_f[:worst]) if bad_f else ""))
        mk = self.maekawa_misses
        if mk:
            lines.append(f"Maekawa (|#M - #V| = 2) missed at {_count(len(mk), 'vertex', 'vertices')}: "
                         + ", ".join(f"{v + 1} (|#M - #V| = {m + 2})" for v, m in mk[:worst]))
        if self.misfits:
            lines.append(self.misfit_text())
        return lines

    def misfit_text(self, worst=5):
        """One line naming the :attr:`misfits` (1-based): their creases cannot all fold at once from the flat state."""
        v = self.misfits
        more = f" and {len(v) - worst} more" if len(v) > worst else ""
        return (f"mountain-valley signs that fit neither folding branch of a flat-foldable degree-4 vertex: "
                f"{_count(len(v), 'vertex', 'vertices')} ({', '.join(str(x + 1) for x in v[:worst])}{more}): "
                f"their four creases cannot all fold at once from the flat state")

    def _closure_text(self, p):
        """Panel p's closure miss as printed: the number, or why there is none."""
        c = self.closure[self.faces.index(p)]
        return f"{c:.2g}" if np.isfinite(c) else "a corner has no folding branch with its mountain-valley signs"

    @property
    def maekawa_misses(self):
        """(0-based vertex, |#M - #V| - 2) where the file's M/V assignment misses Maekawa's condition."""
        return [(v, m) for v, m in zip(self.vertices, self.maekawa) if m is not None and m != 0]

    def unflat(self, name, worst=3):
        """One line on :attr:`maekawa_misses` (1-based vertices) and what they mean for folding, or None."""
        mk = self.maekawa_misses
        if not mk:
            return None
        more = f" and {len(mk) - worst} more" if len(mk) > worst else ""
        return (f"{name}: the mountain-valley assignment cannot fold flat at "
                f"{'vertex' if len(mk) == 1 else 'vertices'} {', '.join(str(v + 1) for v, _ in mk[:worst])}{more} "
                f"(a vertex folded flat has |#M - #V| = 2): moving vertices cannot change that; change the "
                f"assignment there, or fold part of the way (fold --percent below 100), which a rigid fold may "
                f"still allow")


def _count(n, one, many):
    return f"{n} {one if n == 1 else many}"


def _plane(X):
    """(origin, 3 x 2 in-plane basis, normal, flat?) of the points X."""
    c = X.mean(axis=0)
    size = float(np.linalg.norm(X.max(0) - X.min(0))) or 1.0
    if np.ptp(X[:, 2]) <= FLAT_RTOL * size:
        return c, np.eye(3)[:, :2], np.array([0.0, 0.0, 1.0]), True
    _, _, Vt = np.linalg.svd(X - c)
    n = Vt[2]
    flat = bool(np.abs((X - c) @ n).max() <= FLAT_RTOL * size)
    return c, Vt[:2].T, n, flat


class _Sectors:
    """Sector angles between the creases of every interior vertex of a flat pattern and their derivatives.

    ``flat``: edges (sorted vertex pairs) of flat creases "F" (fold angle 0 at every state): not creases of
    Kawasaki's alternating sum, so the panel corners on their two sides are one sector. A vertex where only flat
    creases meet has no sector and is left out."""

    def __init__(self, pattern, flat=()):
        pat = pattern
        self.pattern = pat
        flat = set(flat)
        self.interior, self.corners = [], []   # corners: (panel, prev, next) of each sector, grouped per vertex
        for v in sorted(pat.interior_vertices):
            group = []
            for p in pat.vertex_panels[v]:
                loop = list(pat.panels[p])
                i = loop.index(v)
                group.append((p, loop[i - 1], loop[(i + 1) % len(loop)]))
            group = _merged(v, group, flat)
            if group:
                self.interior.append(v)
                self.corners.append(group)

    def angles(self, P, orient):
        """Per interior vertex: (sector angles in angular order, their (prev, next) vertices)."""
        out = []
        for v, group in zip(self.interior, self.corners):
            rows = []
            for p, a, b in group:
                va, vb = P[a] - P[v], P[b] - P[v]
                th = np.mod(orient * (np.arctan2(va[1], va[0]) - np.arctan2(vb[1], vb[0])), 2 * np.pi)
                mid = np.arctan2(vb[1], vb[0]) + orient * th / 2
                rows.append((np.mod(mid, 2 * np.pi), th, a, b))
            rows.sort()
            out.append(rows)
        return out

    def kawasaki(self, P, orient, which):
        """(K over ``which`` (indices into interior), sparse Jacobian d K / d P (len x 2V))."""
        data, ri, ci = [], [], []
        K = np.zeros(len(which))
        allrows = self.angles(P, orient)
        for r, i in enumerate(which):
            v = self.interior[i]
            for j, (_, th, a, b) in enumerate(allrows[i]):
                sgn = 1.0 if j % 2 == 0 else -1.0
                K[r] += sgn * th
                va, vb = P[a] - P[v], P[b] - P[v]
                ga = orient * np.array([-va[1], va[0]]) / (va @ va)
                gb = -orient * np.array([-vb[1], vb[0]]) / (vb @ vb)
                for w, g in ((a, ga), (b, gb), (v, -ga - gb)):
                    ri += [r, r]
                    ci += [2 * w, 2 * w + 1]
                    data += list(sgn * g)
        J = sp.csr_matrix((data, (ri, ci)), shape=(len(which), 2 * len(P)))
        return K, J


def _merged(v, corners, flat):
    """The corners (panel, prev, next) around interior vertex ``v``, those on the two sides of a flat crease (v, w)
    in ``flat`` joined into one (panel, prev, next) sector; [] when every crease at ``v`` is flat."""
    if not flat or not any(tuple(sorted((v, w))) in flat for _, a, b in corners for w in (a, b)):
        return corners
    is_flat = lambda w: tuple(sorted((v, w))) in flat   # noqa: E731
    starts = [c for c in corners if not is_flat(c[1])]
    out, used = [], set()
    for p, a, b in starts:
        k = corners.index((p, a, b))
        used.add(k)
        while is_flat(b):               # walk on across the flat crease (v, b) into the corner on its other side
            k = next(j for j, (_, x, y) in enumerate(corners) if j not in used and b in (x, y))
            used.add(k)
            _, x, y = corners[k]
            b = y if x == b else x
        out.append((p, a, b))
    return out


def _vertex_rates(P, v, nbrs, signs):
    """First-order folding rates (one per neighbour in ``nbrs``, angular order) of the degree-4 vertex ``v`` on
    the branch whose signs best match ``signs`` (+-1, FOLD's), scaled so that the first is 1 (module doc)."""
    c = P[nbrs] - P[v]
    c = c / np.linalg.norm(c, axis=1)[:, None]
    Z = np.linalg.svd(c.T)[2][2:].T                  # 4 x 2: sum r_i c_i = 0
    S = np.zeros((4, 4))
    for i in range(4):
        for j in range(i + 1, 4):
            S[i, j] = S[j, i] = 0.5 * (c[i, 0] * c[j, 1] - c[i, 1] * c[j, 0])
    w, U = np.linalg.eigh(Z.T @ S @ Z)
    if w[0] * w[1] > 0:
        return None
    best, score = None, -1
    for y in ((np.sqrt(abs(w[1])), np.sqrt(abs(w[0]))), (np.sqrt(abs(w[1])), -np.sqrt(abs(w[0])))):
        r = Z @ (U @ np.array(y))
        for sgn in (1.0, -1.0):
            agree = int(np.sum(np.sign(sgn * r) == signs))
            if agree > score:
                best, score = sgn * r, agree
    if score < 4 or np.min(np.abs(best)) < 1e-9 * np.max(np.abs(best)):
        return None
    return best / best[0]


def _vertex_rates_many(P, vs, nbrs, signs):
    """:func:`_vertex_rates` of many degree-4 vertices at once (``vs``; ``nbrs``, ``signs``: their rows, V x 4), the
    same operations on stacked arrays (LAPACK and BLAS called matrix by matrix, as one vertex calls them): a list of
    rate arrays or None, in the order of ``vs``."""
    vs = np.asarray(vs, dtype=int)
    if len(vs) == 0:
        return []
    nb = np.asarray(nbrs, dtype=int)
    sg = np.asarray(signs, float)
    c = P[nb] - P[vs][:, None, :]
    c = c / np.linalg.norm(c, axis=2)[:, :, None]
    Z = np.linalg.svd(c.transpose(0, 2, 1))[2][:, 2:].transpose(0, 2, 1)      # V x 4 x 2
    S = np.zeros((len(vs), 4, 4))
    for i in range(4):
        for j in range(i + 1, 4):
            S[:, i, j] = S[:, j, i] = 0.5 * (c[:, i, 0] * c[:, j, 1] - c[:, i, 1] * c[:, j, 0])
    w, U = np.linalg.eigh(Z.transpose(0, 2, 1) @ S @ Z)
    a, b = np.sqrt(np.abs(w[:, 1])), np.sqrt(np.abs(w[:, 0]))
    cands = []
    for y in (np.stack([a, b], axis=1), np.stack([a, -b], axis=1)):
        r = (Z @ (U @ y[:, :, None]))[:, :, 0]
        cands += [r, -r]
    R = np.stack(cands, axis=1)                                                 # V x 4 candidates x 4
    score = np.sum(np.sign(R) == sg[:, None, :], axis=2)
    k = np.argmax(score, axis=1)                                                # the first of the most agreeing
    out = []
    for i in range(len(vs)):
        best = R[i, k[i]]
        if w[i, 0] * w[i, 1] > 0 or score[i, k[i]] < 4 or np.min(np.abs(best)) < 1e-9 * np.max(np.abs(best)):
            out.append(None)
        else:
            out.append(best / best[0])
    return out


class _Faces:
    """The multiplier closure of the panels whose four corners are interior degree-4 vertices (module doc)."""

    def __init__(self, pattern, letters, P, foldable=None):
        """``foldable``: the vertices that may be corners (flat-foldable, Kawasaki within :data:`NEAR`; None: all):
        the multipliers' fixed ratios hold at flat-foldable vertices only."""
        pat = pattern
        around = {}
        for a, b in pat.edges:
            around.setdefault(a, []).append(b)
            around.setdefault(b, []).append(a)
        sign = {"M": -1.0, "V": 1.0}
        self.nbrs, self.signs = {}, {}
        for v in pat.interior_vertices:
            nb = around.get(v, [])
            ls = [letters.get(tuple(sorted((v, w)))) for w in nb]
            if len(nb) != 4 or not all(x in sign for x in ls) or (foldable is not None and v not in foldable):
                continue
            order = np.argsort([np.arctan2(*(P[w] - P[v])[::-1]) for w in nb])
            self.nbrs[v] = [nb[i] for i in order]
            self.signs[v] = np.array([sign[ls[i]] for i in order])
        self.faces = [p for p, loop in enumerate(pat.panels) if len(loop) == 4 and all(v in self.nbrs for v in loop)]
        self.loops = [list(pat.panels[p]) for p in self.faces]
        self.vertices = sorted({v for loop in self.loops for v in loop})

    def _logs(self, P, v):
        r = _vertex_rates(P, v, self.nbrs[v], self.signs[v])
        if r is None:
            return None
        return dict(zip(self.nbrs[v], np.log(np.abs(r))))

    def rates(self, P, vs):
        """{vertex: :func:`_vertex_rates` or None} of the vertices ``vs`` (keys of :attr:`nbrs`), computed at once."""
        return dict(zip(vs, _vertex_rates_many(P, vs, [self.nbrs[v] for v in vs], [self.signs[v] for v in vs])))

    def values(self, P):
        rates = self.rates(P, self.vertices)
        logs = {v: None if r is None else dict(zip(self.nbrs[v], np.log(np.abs(r)))) for v, r in rates.items()}
        out = np.zeros(len(self.faces))
        for k, loop in enumerate(self.loops):
            for i, v in enumerate(loop):
                if logs[v] is None:
                    out[k] = np.nan
                    break
                out[k] += logs[v][loop[(i + 1) % 4]] - logs[v][loop[i - 1]]
        return out

    def jacobian(self, P, step):
        """d values / d P (sparse, faces x 2V) by central differences of each vertex's log rates."""
        grads = {}
        for v in self.vertices:
            coords = [v] + self.nbrs[v]
            g = {}
            for w in coords:
                for d in range(2):
                    Pp, Pm = P.copy(), P.copy()
                    Pp[w, d] += step
                    Pm[w, d] -= step
                    lp, lm = self._logs(Pp, v), self._logs(Pm, v)
                    if lp is None or lm is None:
                        continue
                    g[2 * w + d] = {u: (lp[u] - lm[u]) / (2 * step) for u in lp}
            grads[v] = g
        data, ri, ci = [], [], []
        for k, loop in enumerate(self.loops):
            for i, v in enumerate(loop):
                nxt, prv = loop[(i + 1) % 4], loop[i - 1]
                for col, d in grads[v].items():
                    ri.append(k)
                    ci.append(col)
                    data.append(d[nxt] - d[prv])
        return sp.csr_matrix((data, (ri, ci)), shape=(len(self.faces), 2 * len(P)))


def _orientation(pattern, P):
    loop = list(pattern.panels[0])
    Q = P[loop]
    area = 0.5 * np.sum(Q[:, 0] * np.roll(Q[:, 1], -1) - np.roll(Q[:, 0], -1) * Q[:, 1])
    return 1.0 if area > 0 else -1.0


def _letters(structure):
    """{sorted edge: FOLD letter} of the file's assignment, or {}."""
    notes = (structure.notes or {}).get("fold", {})
    a = notes.get("edges_assignment")
    pat = structure.pattern
    if not a or len(a) != len(pat.edges):
        return {}
    return dict(zip(pat.edges, a))


def _flat_creases(letters):
    """The edges of the flat creases "F" of a file's assignment ({edge: letter})."""
    return {e for e, x in letters.items() if x == "F"}


def diagnose(structure):
    """The :class:`Report` of ``structure``'s pattern (module doc)."""
    pat = structure.pattern
    X = pat.vertices
    c, B, n, flat = _plane(X)
    over = int(np.sum(np.abs(hinge_rotations(pat)) > np.pi / 2)) if flat and pat.hinges else 0
    rep = Report(flat and not over, folded_over=over)      # a flat-folded form lies in a plane too
    if not rep.flat:
        return rep
    P = (X - c) @ B
    orient = _orientation(pat, P)
    letters = _letters(structure)
    sec = _Sectors(pat, _flat_creases(letters))
    rows = sec.angles(P, orient)
    around = {}
    for a, b in pat.edges:
        around.setdefault(a, []).append(b)
        around.setdefault(b, []).append(a)
    for v, r in zip(sec.interior, rows):
        d = len(r)
        th = np.array([x[1] for x in r])
        k = abs(float(np.sum(th[0::2]) - np.sum(th[1::2]))) if d % 2 == 0 else np.nan
        creases = [letters.get(tuple(sorted((v, w)))) for w in around.get(v, [])] if letters else []
        creases = [x for x in creases if x != "F"]
        mk = None
        if creases and all(x in ("M", "V") for x in creases):
            mk = abs(creases.count("M") - creases.count("V")) - 2
        rep.vertices.append(v)
        rep.degree.append(d)
        rep.kawasaki.append(k)
        rep.maekawa.append(mk)
    if letters:
        faces = _Faces(pat, letters, P, rep.flat_foldable)
        rep.faces = faces.faces
        rep.closure = [abs(x) for x in faces.values(P)]
        rep.loops = [list(loop) for loop in faces.loops]
        rep.misfits = sorted(v for v, r in faces.rates(P, list(faces.nbrs)).items() if r is None)
    return rep


def correct(structure, max_move=None, report=None):
    """(corrected structure, largest move (length units), its vertex (0-based), report after): module doc.

    Raises :class:`GeometryError` when the correction moves a vertex farther than ``max_move`` (default
    :data:`MAX_MOVE_RTOL` x the pattern size) or does not converge.
    """
    pat = structure.pattern
    rep = report or diagnose(structure)
    if not rep.flat:
        raise GeometryError(f"{structure.name}: the pattern is not flat; the geometry correction is for flat "
                            f"patterns", rep)
    X = pat.vertices
    size = pat.size or 1.0
    max_move = MAX_MOVE_RTOL * size if max_move is None else float(max_move)
    c, B, n, _ = _plane(X)
    P0 = (X - c) @ B
    P = P0.copy()
    orient = _orientation(pat, P)
    letters = _letters(structure)
    sec = _Sectors(pat, _flat_creases(letters))
    which = [i for i, k in enumerate(rep.kawasaki) if np.isfinite(k) and k <= NEAR]
    if not which:
        return structure, 0.0, None, rep
    faces = _Faces(pat, letters, P, rep.flat_foldable) if letters else None
    if faces is not None and not faces.faces:
        faces = None
    step = 1e-6 * size
    for _ in range(30):
        K, J = sec.kawasaki(P, orient, which)
        if faces is not None:
            Fc = faces.values(P)
            if not np.all(np.isfinite(Fc)):
                raise GeometryError(f"{structure.name}: a vertex of the quadrilateral mesh has no folding branch with "
                                    f"its mountain-valley signs", rep)
            K, J = np.concatenate([K, Fc]), sp.vstack([J, faces.jacobian(P, step)]).tocsr()
        if np.abs(K).max() <= KAWASAKI_TOL:
            break
        d = min_norm_lstsq(J, -K, "the geometry correction", tol=1e-15)
        P = P + d.reshape(-1, 2)
    else:
        raise GeometryError(f"{structure.name}: the least-squares correction of the vertex positions did not "
                            f"restore Kawasaki's condition and the multiplier closure (largest miss "
                            f"{np.abs(K).max():.2g})", rep)
    Xn = X + (P - P0) @ B.T
    move = np.linalg.norm(Xn - X, axis=1)
    k = int(np.argmax(move))
    if move[k] > max_move:
        raise GeometryError(f"{structure.name}: the geometry correction would move vertex {k + 1} by "
                            f"{move[k]:.3g} (more than the accepted {max_move:.3g}; the pattern size is "
                            f"{size:.3g}): the pattern is not a rounded flat-foldable pattern", rep)
    fixed = structure.with_pattern(pat.with_vertices(Xn))
    return fixed, float(move[k]), k, diagnose(fixed)


def message(structure, rep):
    """The one-line refusal of a fold on inexact geometry (module doc); Python keywords, which the command line
    turns into its options."""
    bad = rep.inexact
    v = bad[0]
    more = f" ({len(bad) - 1} more vertices miss it by more than {EXACT:g} rad)" if len(bad) > 1 else ""
    return (f"{structure.name}: not rigidly foldable as drawn: vertex {v + 1} misses Kawasaki's condition by "
            f"{rep.miss(v):.2g} rad{more}, rounded coordinates; see pattern_check.diagnose, or fold with "
            f"fix_geometry=True (a least-squares correction of the vertex positions) or keep_geometry=True "
            f"(as it is)")


def prepare(structure, fix=False, keep=False, max_move=None, report=None):
    """(structure to fold from a flat start, note or None), module doc: as it is when exact or when no panel is
    constrained (a single vertex folds anyway) or with ``keep``; corrected when ``fix``; else
    :class:`GeometryError` naming the worst vertex. A quadrilateral mesh whose multipliers miss closing by more
    than a rounding (:attr:`Report.unfoldable_faces`) is refused at once, naming the panel and its vertices,
    unless ``keep``. ``report``: ``structure``'s :func:`diagnose` when the caller has it."""
    if fix and keep:
        raise StructureError("fix_geometry=True and keep_geometry=True exclude each other")
    rep = diagnose(structure) if report is None else report
    if not rep.flat:
        return structure, None
    if rep.unfoldable_faces and not keep:
        raise GeometryError(rep.unfoldable(structure.name) + "; see pattern_check.diagnose, or fold with "
                            "keep_geometry=True to try a fold that keeps some creases flat", rep)
    if not rep.inexact:
        return structure, None
    worst = rep.inexact[0]
    if keep or not (rep.constrained or fix):
        why = "keep_geometry=True" if keep else "no panel of a quadrilateral mesh depends on it"
        return structure, (f"vertex {worst + 1} misses Kawasaki's condition by {rep.miss(worst):.2g} rad "
                           f"({len(rep.inexact)} inexact vertices); folded as drawn ({why})")
    if not fix:
        raise GeometryError(message(structure, rep), rep)
    fixed, move, k, after = correct(structure, max_move, rep)
    left = max((x for x in after.kawasaki if np.isfinite(x) and x <= NEAR), default=0.0)
    closure = max(after.closure, default=0.0)
    return fixed, (f"fix_geometry=True: corrected {len(rep.inexact)} inexact vertices in memory (the file is "
                   f"unchanged): largest vertex move {move:.3g} (vertex {k + 1}); Kawasaki now within {left:.1e} "
                   f"rad" + (f", multiplier closure within {closure:.1e}" if after.faces else ""))


def multiplier_rates(structure):
    """{hinge (0-based): first-order FOLD fold-angle rate} of a flat pattern's folding branch as its fold-angle
    multipliers give it, and {hinge: component}: from each interior degree-4 vertex whose creases are all M or V,
    the rates of its branch with the assignment's signs (``_vertex_rates``; none when no branch has them), carried from crease to crease across such vertices, +1 on the first crease of each
    connected component if a valley, -1 if a mountain (so every rate has its crease's assignment sign; the components
    keep their own scales). Hinges at no such vertex are left out. A
    triangle, a boundary vertex, a vertex of odd degree or an unassigned crease only stops the carrying there.
    Empty for a pattern that is not flat or has no assignment."""
    pat = structure.pattern
    X = pat.vertices
    c, B, n, flat = _plane(X)
    letters = _letters(structure)
    if not flat or not letters:
        return {}, {}
    P = (X - c) @ B
    faces = _Faces(pat, letters, P)
    hinge_of = {tuple(sorted(h.vertices)): h.index for h in pat.hinges}
    ratios = {}                                   # vertex: {hinge: rate on its branch, the first crease's 1}
    for v, r in faces.rates(P, list(faces.nbrs)).items():
        nb = faces.nbrs[v]
        if r is None:
            continue
        hs = [hinge_of.get(tuple(sorted((v, w)))) for w in nb]
        if any(h is None for h in hs):
            continue
        ratios[v] = dict(zip(hs, r))
    at = {}                                       # hinge: vertices with ratios
    for v, rs in ratios.items():
        for h in rs:
            at.setdefault(h, []).append(v)
    rates, component = {}, {}
    for seed in sorted(at):
        if seed in rates:
            continue
        k = len(set(component.values()))
        rates[seed], component[seed] = (-1.0 if letters[tuple(sorted(pat.hinges[seed].vertices))] == "M" else 1.0), k
        queue = [seed]
        while queue:
            h = queue.pop()
            for v in at.get(h, ()):
                rs = ratios[v]
                for g, x in rs.items():
                    if g not in rates:
                        rates[g], component[g] = rates[h] * x / rs[h], k
                        queue.append(g)
    return rates, component
