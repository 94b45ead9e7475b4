"""The folding branches of a flat crease pattern, vertex by vertex: first-order fold-angle rates that meet every
interior vertex's first- and second-order closure in the signs of a mountain-valley assignment.

At a flat state every crease lies in the pattern's plane. Around an interior
vertex with unit crease directions c_i (in the plane, pointing away from the
vertex, in angular order) the panels' rotations must close up,
exp(rho_1 C_1) ... exp(rho_n C_n) = I (C_i the cross-product matrix of c_i,
rho_i the fold angles, FOLD's sign: valley positive). Along a motion
rho(t) = r t + s t^2 / 2 + ... this gives, order by order:

* first order (two rows a vertex, linear in r): sum_i r_i c_i = 0;
* second order, normal to the plane (one row a vertex, quadratic in r and free
  of s): q(r) = sum_{i<j} r_i r_j (c_i x c_j) . n = 0.

(The in-plane part of the second order involves s and is met by choosing it.)
A cyclic shift of the order, or its reversal, changes q by a multiple of the
first-order rows or by its sign only, so q = 0 does not depend on where the
loop starts. Both conditions are necessary for any rigid fold leaving the
flat state (the leading term of a fold that starts at a higher order meets
them too); on a pattern that is a disk (no holes) the vertices' loops are all
the loops of panels, and a rate vector r meeting them all starts a folding
branch wherever the second-order solution is regular.

:func:`branch_rates` solves them in the closed orthant of the assignment's
signs (a mountain's rate <= 0, a valley's >= 0; unassigned creases free) by
bounded least squares (``scipy.optimize.least_squares``, trust region, the
sparse exact Jacobian), polished by Gauss-Newton on the creases that turn.
The unknowns are one rate a crease (hundreds to thousands), the equations
three a vertex: nothing of size bodies x bodies is formed.
"""
import numpy as np
import scipy.sparse as sp
from scipy.optimize import least_squares

from ..tools.jacobian import Jacobian
from .pattern_check import EXACT, _plane

#: a branch is accepted when every vertex row is within this of 0, relative to the largest rate (squared for q):
#: the threshold of the fold's own check on the panels (``engines.reference.fold.start``); rounded coordinates
#: at vertices that no correction moves (not flat-foldable) leave rows of 1e-7 (flappingBird), and those of foldable
#: tessellations drawn with rounded coordinates 1e-9 to 1e-7 (at 1e-8 the waterbomb, whirlpool and
#: reschTriTessellation examples find no branch, at 1e-10 19 of the 27 Origami Simulator examples that fold)
ACCEPT = 1e-6
#: least-squares starts (the wished rates, then random ones in the assignment's signs)
STARTS = 2
#: function evaluations of one bounded least-squares search
MAX_EVALUATIONS = 60
#: weight of the rows r - wish in the search from the wished rates (then polished away): among a family of branches
#: (vertices of degree 6 or more) the one nearest the wish, as the panels' search takes it
PULL = 1e-2
#: rounds of ``_polish``'s trial of the slowest creases at 0
SLOW_ROUNDS = 4


class VertexRows:
    """The first- and second-order rows of every interior vertex of a flat pattern (module doc).

    ``stars``: per interior vertex (0-based, ``vertex``), the hinges (0-based) at it in angular order;
    ``directions``: their unit directions away from it, in the pattern's plane (2D, the plane's basis of
    ``pattern_check._plane``). ``L``: the first-order rows (sparse, 2 a vertex x hinges)."""

    def __init__(self, pattern):
        X = pattern.vertices
        c, B, _, self.flat = _plane(X)
        P = (X - c) @ B
        self.n_hinges = len(pattern.hinges)
        around = {}
        for h in pattern.hinges:
            a, b = h.vertices
            around.setdefault(a, []).append((b, h.index))
            around.setdefault(b, []).append((a, h.index))
        self.vertex, self.stars, self.directions, self.Q = [], [], [], []
        rows, cols, vals = [], [], []
        for v in sorted(pattern.interior_vertices):
            nb = around.get(v, [])
            if len(nb) < 2:
                continue
            d = np.array([P[w] - P[v] for w, _ in nb])
            d = d / np.linalg.norm(d, axis=1)[:, None]
            order = np.argsort(np.arctan2(d[:, 1], d[:, 0]))
            hs, d = np.array([nb[i][1] for i in order]), d[order]
            cross = np.outer(d[:, 0], d[:, 1]) - np.outer(d[:, 1], d[:, 0])       # (c_i x c_j) . n
            Q = 0.5 * np.triu(cross, 1)
            for k in range(2):
                rows += [2 * len(self.vertex) + k] * len(hs)
                cols += list(hs)
                vals += list(d[:, k])
            self.vertex.append(v)
            self.stars.append(hs)
            self.directions.append(d)
            self.Q.append(Q + Q.T)
        self.L = sp.csr_matrix((vals, (rows, cols)), shape=(2 * len(self.vertex), self.n_hinges))
        used = {v for loop in pattern.panels for v in loop}
        edges = {tuple(sorted((loop[i - 1], loop[i]))) for loop in pattern.panels for i in range(len(loop))}
        #: the panels make a disk (Euler characteristic 1): the vertices' loops are all the loops of panels, so the
        #: rows are the whole first- and second-order condition (else only a necessary part: kirigami's holes)
        self.disk = len(used) - len(edges) + pattern.n_panels == 1

    def q(self, r):
        """The second-order rows q_v(r) = r^T Q_v r (one a vertex; rad^2/s^2 for rates in rad/s)."""
        return np.array([r[h] @ Q @ r[h] for h, Q in zip(self.stars, self.Q)])

    def q_jacobian(self, r):
        """d q / d r (sparse, vertices x hinges)."""
        rows = np.concatenate([np.full(len(h), k) for k, h in enumerate(self.stars)]) if self.stars else []
        cols = np.concatenate(self.stars) if self.stars else []
        vals = np.concatenate([2 * Q @ r[h] for h, Q in zip(self.stars, self.Q)]) if self.stars else []
        return sp.csr_matrix((vals, (rows, cols)), shape=(len(self.stars), self.n_hinges))

    def misses(self, r):
        """(largest |first-order row| / max |r|, largest |q| / max |r|^2, the vertex (0-based) of the larger)."""
        size = float(np.abs(r).max(initial=0.0)) or 1.0
        lin = np.abs(self.L @ r).reshape(-1, 2).max(axis=1) / size if len(self.vertex) else np.zeros(0)
        quad = np.abs(self.q(r)) / size ** 2
        worst = np.maximum(lin, quad)
        k = int(np.argmax(worst)) if len(worst) else None
        return (float(lin.max(initial=0.0)), float(quad.max(initial=0.0)),
                self.vertex[k] if k is not None else None)


def branch_rates(rows, signs, wish=None, drive=None, seed=0, flat=None):
    """First-order FOLD fold-angle rates (one a hinge, largest |rate| 1) meeting every interior vertex's first- and
    second-order rows to :data:`ACCEPT` with sign(rate) = ``signs`` or 0 (module doc), or None (none found: not a
    proof that none exists).

    signs : array over hinges of +1 (valley), -1 (mountain) or 0 (free). wish : optional rates (FOLD sign) to start
    from, pulled toward them (:data:`PULL`) so that among a family of branches the nearest is found, then
    :data:`STARTS` - 1 random starts in the signs. drive : optional hinge
    (0-based) whose rate is held at its sign (the other rates are measured against it, and a branch on which it
    turns slower than sqrt(:data:`ACCEPT`) of the fastest crease, as fast as ``_polish``'s slow creases that the
    rows let stop, is not taken: it is another branch, which a drive of that crease cannot follow). flat : optional
    bool over hinges, creases held at 0 (a flat "F" crease, target 0). Also returns the nearest rates found and their
    misses (``VertexRows.misses``): (rates or None, nearest, misses). ``rows``: the pattern's :class:`VertexRows`."""
    signs = np.asarray(signs, float)
    H = rows.n_hinges
    if not rows.flat or H == 0 or not np.any(signs):
        return None, None, None
    free = np.ones(H) if flat is None else 1.0 - np.asarray(flat, bool)
    lower = np.where(signs > 0, 0.0, -np.inf)
    upper = np.where(signs < 0, 0.0, np.inf)
    rng = np.random.default_rng(seed)
    starts = [] if wish is None else [np.asarray(wish, float)]
    while len(starts) < STARTS:
        starts.append(signs * rng.uniform(0.5, 1.5, H) + (signs == 0) * rng.standard_normal(H))
    nearest = (np.inf, None, None)
    for i, x0 in enumerate(starts):
        x0 = np.where(signs != 0, signs * np.maximum(signs * x0, 1e-3 * np.abs(x0).max(initial=1.0)), x0)
        x0 = x0 / ((np.mean(np.abs(x0)) if drive is None else abs(x0[drive])) or 1.0)
        pull = PULL if wish is not None and i == 0 else 0.0      # the wished rates' start: stay near them
        if flat is not None:
            x0 = free * x0
        r = _least_squares(rows, x0, (lower, upper), signs, drive, pull, None if flat is None else free)
        r = _polish(rows, signs, r if flat is None else free * r, drive, free=None if flat is None else free)
        miss = rows.misses(r)
        wrong = bool(np.any(signs * r < -ACCEPT))
        if drive is not None and abs(r[drive]) <= np.sqrt(ACCEPT):      # the drive barely turns: another branch
            wrong = True
        if not wrong and max(miss[:2]) < nearest[0]:
            nearest = (max(miss[:2]), r, miss)
        if not wrong and max(miss[:2]) <= ACCEPT:
            return r, r, miss
    return None, nearest[1], nearest[2]


def branch_search(rows, signs, tries=12, seed=0):
    """Branches of the vertex rows in any signs, for the one line of a start that has none in the assignment's:
    (branches found (rates, largest |rate| 1), on how many of them each hinge turns against ``signs`` (beyond
    :data:`ACCEPT`), the vertex (0-based) where the nearest search misses the rows most, or None once one is found).

    Unbounded least squares (as :func:`branch_rates`, without the orthant) from ``tries`` starts: the signs at
    random magnitudes; found directions within 1e-4 of one already found (largest rate 1) count once. ``rows``: the
    pattern's :class:`VertexRows`."""
    signs = np.asarray(signs, float)
    H = rows.n_hinges
    against = np.zeros(H, int)
    if not rows.flat or H == 0:
        return [], against, None

    rng = np.random.default_rng(seed)
    found, nearest = [], (np.inf, None)
    for _ in range(tries):
        x0 = np.where(signs != 0, signs, rng.standard_normal(H)) * rng.uniform(0.5, 1.5, H)
        r = _polish(rows, np.zeros(H), _least_squares(rows, x0 / np.mean(np.abs(x0))))
        miss = rows.misses(r)
        if max(miss[:2]) > ACCEPT:
            if max(miss[:2]) < nearest[0]:
                nearest = (max(miss[:2]), miss[2])
            continue
        r = r * (1.0 if r @ signs >= 0 else -1.0)           # a direction and its opposite: the one nearer the signs
        if any(min(np.abs(r - f).max(), np.abs(r + f).max()) <= 1e-4 for f in found):
            continue
        found.append(r)
        against += (signs * r < -ACCEPT).astype(int)
    return found, against, (nearest[1] if not found else None)


def straight_lines(rows, pattern):
    """The straight crease lines that run from boundary to boundary (chords) of a flat pattern whose panels make a
    disk: lists of hinges (0-based), each a chain of creases that continue one another straight through interior
    vertices (unit directions opposite within ``pattern_check.EXACT``, 1e-9: straight to rounding) and end at two
    boundary vertices. Folding one chord
    alone is a rigid fold (it cuts the disk in two); so is folding chords that share no vertex together (module
    doc: at each vertex only one line's two creases turn, r (c - c) = 0 and q = r^2 (c x -c) . n = 0). [] where the
    panels do not make a disk (a line between holes need not cut the sheet). ``rows``: the pattern's
    :class:`VertexRows`."""
    if not rows.flat or not rows.disk:
        return []
    through = {}                                   # (vertex, hinge) -> the hinge continuing it straight at vertex
    for v, hs, d in zip(rows.vertex, rows.stars, rows.directions):
        for i in range(len(hs)):
            opposite = np.nonzero(np.linalg.norm(d + d[i], axis=1) <= EXACT)[0]
            if len(opposite) == 1:
                through[(v, int(hs[i]))] = int(hs[opposite[0]])
    interior = set(rows.vertex)
    seen, lines = set(), []
    for h0 in range(rows.n_hinges):
        if h0 in seen:
            continue
        chain, ends = [h0], []
        for v in pattern.hinges[h0].vertices:      # walk both ways from h0
            h, w = h0, v
            while w in interior and (w, h) in through:
                h = through[(w, h)]
                if h in chain:                     # a closed loop: not a chord
                    break
                chain.append(h)
                a, b = pattern.hinges[h].vertices
                w = b if a == w else a
            ends.append(w)
        seen.update(chain)
        if not any(e in interior for e in ends):
            lines.append(np.array(sorted(chain)))
    return lines


def straighten(rows, pattern, rates):
    """(vertices, largest move) of a flat pattern with the lines of creases that ``rates`` turn (one a hinge) made
    straight: a chain of turning creases through interior vertices where exactly two turn, nearly opposite (unit
    directions within ``pattern_check.EXACT``, 1e-9 rad: straight to rounding; a larger kink is the drawing's, and
    straightening it would change the pattern), has its inner vertices put on the line through its two ends (which
    stay). On a
    fold that holds the other creases flat, such a vertex joins two rigid flat regions along its two creases: a kink
    of rounding (1e-11 rad) there locks the fold once its angle grows (the constraints then miss by kink x angle);
    straightened, the line folds as one crease. The moves are of the kinks' size (length units)."""
    X = np.array(pattern.vertices, float)
    turning = np.abs(np.asarray(rates, float)) > 0
    inner = {}                                     # vertex -> its two turning creases, nearly opposite
    for v, hs, d in zip(rows.vertex, rows.stars, rows.directions):
        t = np.nonzero(turning[hs])[0]
        if len(t) == 2 and np.linalg.norm(d[t[0]] + d[t[1]]) <= EXACT:
            inner[v] = (int(hs[t[0]]), int(hs[t[1]]))
    seen = set()
    for v0 in inner:
        if v0 in seen:
            continue
        chain, ends = [v0], []
        for h0 in inner[v0]:                       # walk both ways from v0 to the chain's ends
            v, h = v0, h0
            while True:
                a, b = pattern.hinges[h].vertices
                w = b if a == v else a
                if w not in inner or w == v0:
                    ends.append(w)
                    break
                chain.append(w)
                h = inner[w][1] if inner[w][0] == h else inner[w][0]
                v = w
        seen.update(chain)
        if ends[0] == ends[1] or ends[0] == v0:    # a closed loop of turning creases: no ends to hold
            continue
        p, q = X[ends[0]], X[ends[1]]
        e = (q - p) / np.linalg.norm(q - p)
        X[chain] = p + np.outer((X[chain] - p) @ e, e)
    return X, float(np.linalg.norm(X - pattern.vertices, axis=1).max(initial=0.0))


def chord_rates(rows, pattern, wish, signs, lines=None, flat=None):
    """First-order FOLD fold-angle rates (one a hinge, largest |rate| 1) that fold straight chords of the pattern
    (:func:`straight_lines`) toward ``wish`` (FOLD sign, one a hinge), or None: each chord whose creases the
    assignment ``signs`` (+1 valley, -1 mountain, 0 free) lets turn one way turns at the mean of its wished rates;
    chords are taken by that mean times their creases (the wish's projection on them), largest first, each sharing no
    vertex with one taken. The rates meet every interior vertex's rows (exactly, for exactly straight chords): a
    rigid fold of part of the pattern, the one a flat start's nearest branch falls back to where the panels cannot
    follow that branch (``engines.reference.fold.targets``). ``lines``: the pattern's :func:`straight_lines`, where
    the caller has them; ``flat``: optional bool over hinges, creases to keep flat (no chord through them folds)."""
    wish, signs = np.asarray(wish, float), np.asarray(signs, float)
    scored = []
    for chain in straight_lines(rows, pattern) if lines is None else lines:
        mean = float(np.mean(wish[chain]))
        s = np.sign(mean)
        if s != 0 and np.all(signs[chain] * s >= 0) and (flat is None or not np.any(np.asarray(flat)[chain])):
            scored.append((abs(mean) * len(chain), mean, chain))
    r, used = np.zeros(rows.n_hinges), set()
    for _, mean, chain in sorted(scored, key=lambda x: -x[0]):
        verts = {v for h in chain for v in pattern.hinges[int(h)].vertices}
        if verts & used:
            continue
        used |= verts
        r[chain] = mean
    if not r.any():
        return None
    r = r / np.abs(r).max()
    return r if max(rows.misses(r)[:2]) <= ACCEPT else None


def _least_squares(rows, x0, bounds=(-np.inf, np.inf), signs=None, drive=None, pull=0.0, free=None):
    """The rows' least squares from x0 (``scipy.optimize.least_squares``, trust region, sparse exact Jacobian): the
    first- and second-order rows, a size row (mean |r| = 1, or signs[drive] r[drive] = 1), and ``pull`` (r - x0)
    when ``pull`` > 0; within ``bounds``; the rates where ``free`` is 0 held at 0 (their columns left out). Returns
    the rates reached."""
    H = rows.n_hinges
    mask = None if free is None or np.all(free) else sp.diags(np.asarray(free, float))

    def residual(r):
        r = r if mask is None else mask @ r
        s = np.mean(np.abs(r)) if drive is None else signs[drive] * r[drive]
        f = np.concatenate([rows.L @ r, rows.q(r), [s - 1.0]])
        return np.concatenate([f, pull * (r - x0)]) if pull > 0 else f

    def jacobian(r):
        if drive is None:
            last = np.sign(r) / H
        else:
            last = np.zeros(H)
            last[drive] = signs[drive]
        A = sp.vstack([rows.L, rows.q_jacobian(r if mask is None else mask @ r), sp.csr_matrix(last[None, :])]
                      + ([pull * sp.eye(H)] if pull > 0 else []))
        return (A if mask is None else A @ mask).tocsr()

    return least_squares(residual, x0, jac=jacobian, bounds=bounds, method="trf", xtol=1e-12, ftol=1e-12,
                         gtol=1e-12, max_nfev=MAX_EVALUATIONS, tr_solver="lsmr").x


def _polish(rows, signs, r, drive=None, iterations=30, free=None):
    """Gauss-Newton (minimum-norm steps, ``tools.jacobian.Jacobian``: SVD or sparse QR) on the first- and second-order rows, the creases the least squares
    left at 0 in a signed orthant kept at 0 (and any that a step turns against its sign set to 0 and kept there),
    the rate of ``drive`` (or else the largest) kept; returns r / max |r|.

    Where these rates meet the rows to ACCEPT (a branch), creases left turning slower than sqrt(:data:`ACCEPT`) of
    the fastest are then tried at 0: such a rate adds
    less than ACCEPT to its vertex's second-order row, and where that row forces it to 0 (a crease that only a
    first-order motion turns) Gauss-Newton halves it a step without reaching 0 (a singular root), and its iterations
    run out with the rows met only to about that rate. Where the rates polished again with them (and the creases
    the first polish stopped) at 0 meet the rows to ACCEPT, those are taken, and the creases that polish leaves
    that slow are tried at 0 in turn (at most :data:`SLOW_ROUNDS` times). Rates with neither are left as they are."""
    r = r / (np.abs(r).max() or 1.0)
    turns = ~((signs != 0) & (np.abs(r) < 1e-8)) & (True if free is None else np.asarray(free, bool))
    keep = np.zeros(len(r))
    keep[int(np.argmax(np.abs(r))) if drive is None else drive] = 1.0
    r = _gauss_newton(rows, signs, r, turns, keep, iterations)
    stopped = turns & (r == 0)                  # set to 0 by the polish (turned against their signs)
    for _ in range(SLOW_ROUNDS if max(rows.misses(r)[:2]) <= ACCEPT else 0):
        slow = (r != 0) & (np.abs(r) <= np.sqrt(ACCEPT) * np.abs(r).max()) & (keep == 0)
        if not (slow.any() or stopped.any()):   # a regular branch: left as it is
            break
        still = _gauss_newton(rows, signs, np.where(slow, 0.0, r), (r != 0) & ~slow | (keep != 0), keep, iterations)
        if max(rows.misses(still)[:2]) > ACCEPT:
            break
        r, stopped = still, (r != 0) & ~slow & (still == 0)
    return r / (np.abs(r).max() or 1.0)


def _gauss_newton(rows, signs, r, turns, keep, iterations):
    """``_polish``'s Gauss-Newton from r, the creases not in ``turns`` kept at 0 (and any that a step turns against
    its sign set to 0 and kept there), the rate where ``keep`` is 1 kept."""
    P = sp.diags(turns.astype(float))
    last = np.inf
    for _ in range(iterations):
        f = np.concatenate([rows.L @ r, rows.q(r), [0.0]])
        A = sp.vstack([rows.L, rows.q_jacobian(r), sp.csr_matrix(keep[None, :])]).tocsr() @ P
        dr = P @ Jacobian(A).solve(-f)
        r = r + dr
        flips = (signs * r < 0) & turns
        if flips.any():                 # a crease that would turn against its sign stays flat from here on
            r[flips], turns = 0.0, turns & ~flips
            P = sp.diags(turns.astype(float))
        step = float(np.abs(dr).max(initial=0.0))
        if step <= 1e-15 or step > 0.5 * last and step < 1e-10:
            break
        last = step
    return r


def crossing_lines(rows):
    """The interior vertices where exactly two straight crease lines cross (degree 4, each crease opposite another
    within ``pattern_check.EXACT``): {vertex (0-based): (line, line)}, each line two hinges (0-based).

    With directions c, d, -c, -d (c x d = sin(angle) != 0) the first-order rows read (r_1 - r_3) c + (r_2 - r_4) d
    = 0, so each line turns as one crease (r_1 = r_3, r_2 = r_4), and the second-order row is 2 sin(angle) r_1 r_2
    = 0: a line whose two creases are assigned opposite signs cannot turn at all, and the two lines cannot both
    leave the flat state (the vertex is a spherical four-bar whose opposite sides sum to 180 degrees: each line
    folds alone, the other flat)."""
    out = {}
    for v, hs, d in zip(rows.vertex, rows.stars, rows.directions):
        if len(hs) != 4 or np.linalg.norm(d[0] + d[2]) > EXACT or np.linalg.norm(d[1] + d[3]) > EXACT:
            continue
        out[v] = tuple(tuple(sorted((int(hs[i]), int(hs[i + 2])))) for i in (0, 1))
    return out


def flat_reasons(rows, signs, rates, hinges, name=lambda h: f"crease {h + 1}"):
    """Why creases ``hinges`` (0-based) stay flat on a branch of ``rates`` (one a hinge) where a vertex of two crossing
    straight lines (:func:`crossing_lines`) says so: one clause a vertex and reason, '' where none does. ``signs``:
    the assignment's (+1 valley, -1 mountain, 0 free), FOLD's sign; ``name``: a hinge's name (0-based in)."""
    rates, signs = np.asarray(rates, float), np.asarray(signs, float)
    left = {int(h) for h in hinges}
    clauses = []
    for v, lines in crossing_lines(rows).items():
        for i, line in enumerate(lines):
            here = [h for h in line if h in left]
            if not here:
                continue
            both = f"{name(line[0])} and {name(line[1])}"
            if signs[line[0]] * signs[line[1]] < 0:
                why = (f"at vertex {v + 1}, where two straight crease lines cross, {both} make a line assigned "
                       f"opposite signs, and such a line turns as one crease (its first-order rows)")
            elif np.any(rates[list(lines[1 - i])] != 0):
                why = (f"at vertex {v + 1}, where two straight crease lines cross, {both} stay flat while the "
                       f"crossing line folds: the two cannot both leave the flat state (its second-order row)")
            else:
                continue
            left -= set(here)
            clauses.append(why)
    return "; ".join(clauses)


def locked_vertices(rows, signs, driven):
    """Vertices (0-based) of two crossing straight lines (:func:`crossing_lines`) where no crease with a target turns
    in the assignment's ``signs`` (FOLD's: +1 valley, -1 mountain, 0 free) on any branch: each line is assigned
    opposite signs or has no crease to fold (``driven``: bool a hinge, a target angle other than the start's), and not both lines fold freely. {vertex: text}."""
    signs, driven = np.asarray(signs, float), np.asarray(driven, bool)
    out = {}
    for v, lines in crossing_lines(rows).items():
        opposite = [signs[a] * signs[b] < 0 for a, b in lines]
        idle = [not (driven[a] or driven[b]) for a, b in lines]
        if all(o or i for o, i in zip(opposite, idle)) and any(opposite):
            parts = [f"creases {a + 1} and {b + 1} {'are assigned opposite signs' if o else 'are not to fold (no target angle, or 0)'}"
                     for (a, b), o in zip(lines, opposite)]
            out[v] = (f"at vertex {v + 1}, where two straight crease lines cross, each line turns as one crease, in "
                      f"one sign (its first-order rows), and {' and '.join(parts)}: no crease with a target turns "
                      f"there")
    return out
