"""Where each thick panel's volume sits: the thickness-accommodation techniques, the panels as convex solids.

The hinge axes stay on the zero-thickness pattern in every technique, so the
kinematics, the counts (M, S) and the hinge forces under vertex loads do not
change; only the panels' volumes, masses and inertias move.

Panel frame: ``m`` the panel's loop normal (Newell's, right-hand rule), ``z``
the height along ``m`` from the pattern, ``t`` the panel's thickness. A valley
fold (FOLD sign: positive) closes the ``+m`` faces of the two panels toward
each other, a mountain fold the ``-m`` faces (``crease.pattern.hinge_rotations``).

``mid``
    the prism ``-t/2 <= z <= t/2`` (the pattern is every panel's mid-surface):
    two panels on a crease that folds either way meet at the crease at once.
``offset`` (Edmondson et al. 2014, the offset-panel technique), side ``below``
    ``-t <= z <= 0`` (or ``above``: ``0 <= z <= t``): below, a valley fold closes
    free up to 180 deg and the two panels meet there face to face; a mountain fold
    meets at once (above: the other way round).
``tapered`` (Tachi 2011, rigid-foldable thick origami)
    the mid prism, each edge on a crease bevelled by the plane through the crease
    at the angle ``beta = (180 deg - |rho|) / 2`` from the panel, on the side the crease
    closes (the ``+m`` side for a valley taper angle ``rho > 0``, ``-m`` for a mountain
    one; both sides for a crease with no sign): the two bevels of a crease meet
    face to face at the fold angle ``rho`` and not before. ``rho`` is the
    placement's ``taper_deg`` with the sign of the crease's target, or by default
    the crease's target fold angle (``inputs.fold.file_targets``; a crease with no
    target gets no bevel).

Every solid is convex when its panel is (a tapered panel, or a contact check,
needs convex panels). Stored in a FOLD file as ``origami:placement``
(``foldfile``).

Contact (:class:`PanelSolids`): each solid is carried rigidly with its panel
(the rotation that takes its pattern frame, ``tools.geometry.panel_frame``, to
its frame at other vertex positions). Two solids interpenetrate when their
penetration depth is above :data:`DEPTH_RTOL` x the pattern size (a touch
below it: faces that meet, as two panels do on a crease or face to face at
180 deg). Penetration depth (length units): the least translation that
separates two convex polytopes A and B, the distance from the origin to the
boundary of the Minkowski difference B - A, is the least overlap of their
projections over the directions normal to that difference's faces: the face
normals of A, of B, and the cross products of an edge of A with an edge of B
(the separating-axis theorem). Over any other direction the overlap is not
smaller, so the minimum over all of them is the depth, exact; a negative
value is a gap. Broad phase: only the pairs whose bounding boxes overlap (a
k-d tree on their centres), so a sheet of P panels costs O(P) pairs.
"""
from dataclasses import dataclass

import numpy as np

from ..tools.errors import StructureError
from ..tools.geometry import newell_normal, panel_frame
from .targets import file_targets

#: overlaps up to this fraction of the pattern size are touches, not contacts (the fold's vertices are exact to
#: its Newton tolerance, 1e-12 of the pattern size)
DEPTH_RTOL = 1e-9
TECHNIQUES = ("mid", "offset", "tapered")
SIDES = ("below", "above")


@dataclass(frozen=True)
class Placement:
    """A thickness-accommodation technique (module doc): ``technique`` in :data:`TECHNIQUES`, ``side`` (offset:
    "below" or "above"), ``taper_deg`` (tapered: the fold angle magnitude, deg, in (0, 180], to which every crease
    folds freely; None: each crease's target)."""

    technique: str = "mid"
    side: str = "below"
    taper_deg: float = None

    def __post_init__(self):
        if self.technique not in TECHNIQUES:
            raise StructureError(f"unknown thickness placement {self.technique!r}; expected one of "
                                 f"{', '.join(TECHNIQUES)}")
        if self.side not in SIDES:
            raise StructureError(f"unknown offset side {self.side!r}; expected below or above")
        if self.taper_deg is not None:
            x = float(self.taper_deg)
            if not (np.isfinite(x) and 0 < x <= 180):
                raise StructureError(f"the taper angle must be a fold angle in (0, 180] deg, got {self.taper_deg!r}")
            object.__setattr__(self, "taper_deg", x)

    def z_range(self, t):
        """(z_lo, z_hi) of a panel of thickness ``t`` along its normal (length units)."""
        if self.technique == "offset":
            return (-t, 0.0) if self.side == "below" else (0.0, t)
        return (-0.5 * t, 0.5 * t)

    def describe(self):
        if self.technique == "offset":
            return f"offset {self.side}"
        if self.technique == "tapered":
            return "tapered to " + ("each crease's target" if self.taper_deg is None else f"{self.taper_deg:g} deg")
        return "mid"


def placement_of(structure):
    """The structure's :class:`Placement` (``mid`` when it has none)."""
    return getattr(structure, "placement", None) or Placement()


def taper_angles(structure):
    """Signed taper angle (rad, FOLD sign; nan: both sides; None: no bevel) of every hinge of a tapered structure."""
    pl = placement_of(structure)
    targets = file_targets(structure)
    out = []
    for h in range(len(structure.pattern.hinges)):
        target = targets.get(h)
        if pl.taper_deg is None:
            out.append(None if target is None or target == 0 else float(target))
        else:
            a = np.radians(pl.taper_deg)
            out.append(float(np.sign(target) * a) if target else float("nan"))
    return out


def panel_convex(points, rtol=1e-9):
    """True when the planar polygon ``points`` (k, 3) is convex (every turn the same way as its normal)."""
    P = np.asarray(points, float)
    m = newell_normal(P)
    e = np.roll(P, -1, axis=0) - P
    turns = np.cross(e, np.roll(e, -1, axis=0)) @ m
    scale = np.linalg.norm(m) * (np.abs(e).max() ** 2)
    return bool(np.all(turns >= -rtol * scale))


def halfspaces(structure, vertices=None):
    """Per panel (A (f, 3) unit rows, b (f,)): the panel's solid {x : A x <= b} (global frame) at ``vertices``
    (V x 3, default the pattern's). A panel that is not convex is a :class:`StructureError` naming it."""
    pat = structure.pattern
    X = pat.vertices if vertices is None else np.asarray(vertices, float)
    pl = placement_of(structure)
    bevel = {}
    if pl.technique == "tapered":
        for h, rho in zip(pat.hinges, taper_angles(structure)):
            if rho is not None:
                for p in h.panels:
                    bevel[(p, frozenset(h.vertices))] = rho
    out = []
    for p, loop in enumerate(pat.panels):
        P = X[list(loop)]
        if not panel_convex(P):
            raise StructureError(f"panel {p + 1} is not convex: a thick panel's solid (its contact and taper) "
                                 f"needs convex panels")
        m = newell_normal(P)
        m /= np.linalg.norm(m)
        z_lo, z_hi = pl.z_range(structure.thickness[p])
        rows, rhs = [m, -m], [m @ P[0] + z_hi, -(m @ P[0] + z_lo)]
        for i in range(len(loop)):
            a, b = P[i], P[(i + 1) % len(loop)]
            t = (b - a) / np.linalg.norm(b - a)
            inward = np.cross(m, t)
            rows.append(-inward)
            rhs.append(-inward @ a)
            rho = bevel.get((p, frozenset((loop[i], loop[(i + 1) % len(loop)]))))
            if rho is None:
                continue
            beta = 0.5 * (np.pi - abs(rho)) if np.isfinite(rho) else 0.5 * (np.pi - np.radians(pl.taper_deg))
            for s in ((1.0, -1.0) if not np.isfinite(rho) else (np.sign(rho),)):
                u = s * np.cos(beta) * m - np.sin(beta) * inward     # keep s z <= y tan(beta), y from the crease
                rows.append(u)
                rhs.append(u @ a)
        out.append((np.array(rows), np.array(rhs)))
    return out


def polytope(A, b, scale):
    """(vertices (n, 3), face normals (f, 3), edge directions (e, 3)) of the bounded polytope {A x <= b}, or None
    when it has no volume. Vertices: every feasible intersection of three planes (to ``1e-9 scale``, ``scale``
    its size); a face: a plane holding three vertices not on a line; an edge: two faces sharing two vertices."""
    A, b = np.asarray(A, float), np.asarray(b, float)
    f = len(A)
    idx = np.array([(i, j, k) for i in range(f) for j in range(i + 1, f) for k in range(j + 1, f)])
    M = A[idx]
    det = np.linalg.det(M)
    ok = np.abs(det) > 1e-12
    pts = np.linalg.solve(M[ok], b[idx[ok]][..., None])[..., 0]
    tol = 1e-9 * scale
    pts = pts[np.all(pts @ A.T <= b + tol, axis=1)]
    if len(pts) < 4:
        return None
    keep = []
    for x in pts:                                   # one vertex per point (three planes or more meet there)
        if not any(np.linalg.norm(x - y) <= tol for y in keep):
            keep.append(x)
    V = np.array(keep)
    on = np.abs(V @ A.T - b) <= tol                 # (n, f): vertex n on plane f
    faces = []
    for j in range(f):
        Vj = V[on[:, j]]
        if len(Vj) >= 3 and np.linalg.matrix_rank(Vj[1:] - Vj[0], tol) == 2 and \
                not any(np.allclose(A[j], A[k]) for k in faces):
            faces.append(j)
    if len(faces) < 4:
        return None
    edges = []
    for i, j in ((i, j) for n, i in enumerate(faces) for j in faces[n + 1:]):
        if np.count_nonzero(on[:, i] & on[:, j]) >= 2:
            d = np.cross(A[i], A[j])
            d /= np.linalg.norm(d)
            if not any(abs(d @ e) > 1 - 1e-12 for e in edges):
                edges.append(d)
    return V, A[faces], np.array(edges)


def face_loops(V, normals, scale):
    """Per face normal (unit, outward) the indices of the vertices ``V`` on that face, counter-clockwise about it
    (a convex polytope's faces, to draw it)."""
    loops = []
    for n in normals:
        h = V @ n
        on = np.flatnonzero(h >= h.max() - 1e-9 * scale)
        c = V[on].mean(axis=0)
        e1 = V[on[0]] - c
        e1 /= np.linalg.norm(e1) or 1.0
        e2 = np.cross(n, e1)
        loops.append(on[np.argsort(np.arctan2((V[on] - c) @ e2, (V[on] - c) @ e1))])
    return loops


def panel_solids(structure, vertices=None):
    """Per panel (vertices, face normals, edge directions) of its solid (:func:`polytope`) at ``vertices``; a panel
    of positive thickness whose bevels leave no volume is a :class:`StructureError` naming it."""
    pat = structure.pattern
    X = pat.vertices if vertices is None else np.asarray(vertices, float)
    out = []
    for p, (A, b) in enumerate(halfspaces(structure, X)):
        P = X[list(pat.panels[p])]
        scale = float(np.ptp(P, axis=0).max()) + structure.thickness[p]
        solid = polytope(A, b, scale) if structure.thickness[p] > 0 else None
        if solid is None and structure.thickness[p] > 0:
            raise StructureError(f"panel {p + 1}: its bevels ({placement_of(structure).describe()}) leave no panel "
                                 f"(no volume between them); choose a smaller taper angle (--taper-deg A, A < 180; a crease "
                                 f"folded flat needs a panel on one side: --placement offset)")
        out.append(solid)
    return out


def inradius(points):
    """Radius of the largest circle inside the convex polygon ``points`` (k, 3): the largest r with a centre at
    distance >= r from every edge line (a linear program whose optimum is where three edge constraints are
    tight: every triple tried)."""
    P = np.asarray(points, float)
    m = newell_normal(P)
    m /= np.linalg.norm(m)
    e1 = (P[1] - P[0]) / np.linalg.norm(P[1] - P[0])
    e2 = np.cross(m, e1)
    xy = np.stack([(P - P[0]) @ e1, (P - P[0]) @ e2], axis=1)
    d = np.roll(xy, -1, axis=0) - xy
    n = np.stack([d[:, 1], -d[:, 0]], axis=1) / np.linalg.norm(d, axis=1)[:, None]   # outward for a CCW loop
    c = (n * xy).sum(axis=1)                                                          # n . x <= c - r
    k = len(xy)
    best = 0.0
    for i in range(k):
        for j in range(i + 1, k):
            for l in range(j + 1, k):
                M = np.array([[*n[i], 1.0], [*n[j], 1.0], [*n[l], 1.0]])
                if abs(np.linalg.det(M)) < 1e-12:
                    continue
                x, y, r = np.linalg.solve(M, c[[i, j, l]])
                if np.all(n @ [x, y] + r <= c + 1e-12 * (1 + np.abs(c))):
                    best = max(best, r)
    return best


def check_thickness(structure):
    """Refuse (:class:`StructureError`, naming the panel) a panel thicker than its polygon's inradius
    (:func:`check_inradius`), a panel that is not convex, and bevels that leave no panel; returns the solids
    (:func:`panel_solids`)."""
    check_inradius(structure)
    return panel_solids(structure)


def check_inradius(structure):
    """Refuse (:class:`StructureError`, naming the panel) a panel thicker than its polygon's inradius."""
    pat = structure.pattern
    for p, loop in enumerate(pat.panels):
        t = structure.thickness[p]
        if t > 0:
            P = pat.vertices[list(loop)]
            if panel_convex(P):
                r = inradius(P)
                if t > r:
                    raise StructureError(f"panel {p + 1}: thickness {t:g} is larger than its inradius {r:.6g} "
                                         f"(the largest circle inside it)")


class PanelSolids:
    """The panels' solids of ``structure`` (placement, thickness), placed at any configuration of its vertices."""

    def __init__(self, structure):
        pat = structure.pattern
        solids = check_thickness(structure)
        self.structure, self.P = structure, pat.n_panels
        self.L = float(pat.size) if np.isscalar(pat.size) else float(np.ptp(pat.vertices, axis=0).max())
        self.live = np.array([s is not None for s in solids])
        pad = lambda arrays: np.array([np.concatenate([a, np.repeat(a[:1], max(len(b) for b in arrays) - len(a), 0)])
                                       for a in arrays])
        dummy = (np.zeros((1, 3)), np.array([[0.0, 0.0, 1.0]]), np.array([[1.0, 0.0, 0.0]]))
        solids = [s if s is not None else dummy for s in solids]
        #: per panel, its faces as loops of indices into its vertices (to draw it)
        self.faces = [face_loops(s[0], s[1], self.L) if live else [] for s, live in zip(solids, self.live)]
        self.V, self.N, self.E = (pad([s[i] for s in solids]) for i in range(3))
        self.frames0 = self._frames(pat.vertices)

    def _frames(self, X):
        """(origin (P, 3), frame (P, 3, 3)) of every panel at vertices ``X``."""
        pat = self.structure.pattern
        O, F = np.zeros((self.P, 3)), np.zeros((self.P, 3, 3))
        sizes = np.array([len(loop) for loop in pat.panels])
        for k in np.unique(sizes):
            idx = np.flatnonzero(sizes == k)
            pts = X[np.array([pat.panels[p] for p in idx])]
            O[idx], F[idx] = pts[:, 0], panel_frame(pts)
        return O, F

    def at(self, X):
        """(vertices, face normals, edge directions) of every panel's solid at vertices ``X`` (V x 3)."""
        O0, F0 = self.frames0
        O, F = self._frames(np.asarray(X, float))
        R = F @ np.swapaxes(F0, 1, 2)
        V = np.einsum("pij,pnj->pni", R, self.V - O0[:, None]) + O[:, None]
        return V, np.einsum("pij,pnj->pni", R, self.N), np.einsum("pij,pnj->pni", R, self.E)

    def polygons(self, X):
        """Every face of every panel's solid at vertices ``X``, as (panel, (k, 3) polygon), to draw them."""
        V = self.at(X)[0]
        return [(p, V[p][loop]) for p in range(self.P) for loop in self.faces[p]]

    def contacts(self, X):
        """[(p, q, depth)] of the interpenetrating pairs at vertices ``X``, deepest first."""
        V, N, E = self.at(X)
        lo, hi = V.min(axis=1), V.max(axis=1)
        pairs = candidate_pairs(lo, hi, np.flatnonzero(self.live))
        if not len(pairs):
            return []
        depth = np.concatenate([penetration(V[c[:, 0]], N[c[:, 0]], E[c[:, 0]], V[c[:, 1]], N[c[:, 1]], E[c[:, 1]])
                                for c in np.array_split(pairs, max(1, len(pairs) // 4000))])
        hit = np.flatnonzero(depth > DEPTH_RTOL * self.L)
        order = hit[np.argsort(-depth[hit], kind="stable")]
        return [(int(pairs[i, 0]), int(pairs[i, 1]), float(depth[i])) for i in order]


def candidate_pairs(lo, hi, live):
    """(n, 2) panel pairs p < q among ``live`` whose bounding boxes (``lo``, ``hi``: (P, 3)) overlap."""
    from scipy.spatial import cKDTree

    c, h = 0.5 * (lo + hi)[live], 0.5 * (hi - lo)[live]
    if len(live) < 2:
        return np.zeros((0, 2), int)
    pairs = cKDTree(c).query_pairs(2 * float(h.max()) * (1 + 1e-12) + 1e-300, p=np.inf, output_type="ndarray")
    if not len(pairs):
        return np.zeros((0, 2), int)
    i, j = pairs[:, 0], pairs[:, 1]
    ok = np.all(np.abs(c[i] - c[j]) <= h[i] + h[j], axis=1)
    out = np.sort(live[pairs[ok]], axis=1)
    return out[np.lexsort((out[:, 1], out[:, 0]))]


def penetration(VA, NA, EA, VB, NB, EB):
    """Penetration depth (K,) of K pairs of convex polytopes (module doc): vertices (K, n, 3), unit face normals
    (K, f, 3), unit edge directions (K, e, 3) of each; negative: the largest gap found along those axes."""
    K = len(VA)
    X = np.cross(EA[:, :, None, :], EB[:, None, :, :]).reshape(K, -1, 3)
    n = np.linalg.norm(X, axis=2, keepdims=True)
    X = np.where(n > 1e-9, X / np.where(n > 0, n, 1), NA[:, :1])     # parallel edges: no axis (a repeat of one)
    axes = np.concatenate([NA, NB, X], axis=1)
    pa = np.einsum("kxi,kni->kxn", axes, VA)
    pb = np.einsum("kxi,kni->kxn", axes, VB)
    overlap = np.minimum(pa.max(axis=2) - pb.min(axis=2), pb.max(axis=2) - pa.min(axis=2))
    return overlap.min(axis=1)
