"""Isostatic design: which door hinges to make sliding so that S = 0 with M unchanged.

Conventions: hinges are 0-based here (``Design.sliding``), 1-based in
printed text and in :meth:`DesignResult.as_dict` (like the paper). The
starting point is the structure with every hinge a door hinge, its supports
as given; "before" counts are those of that structure.

Why a sliding hinge helps
-------------------------
A sliding hinge's constraint rows are a door hinge's rows less one: the
relative translation along the axis t (``model``: the door block's
translation rows projected on t). Dropping one row either removes one
self-stress state (the row is a combination of the others) or adds one
mechanism. So a design is a set F of hinges whose axial rows can be dropped
without lowering the rank of the operator C, and the best reachable is
S_min = the self-stress of the rows that no choice drops, i.e. of the
all-sliding structure (required door hinges kept): those states have a zero
axial component on every hinge and no sliding hinge can remove them.

Method (kinematic dual, so no large self-stress basis is ever formed)
---------------------------------------------------------------------
Let B be the rows kept in every design and N an orthonormal basis of
null(C_B), the velocities of the all-sliding structure (k columns, rigid
motions included). The free hinges' axial rows restricted to N form
G (|free| x k). Then null(C) = N null(G), so M and S before follow from
rank(G); a door set D is valid (S = S_min, M unchanged) exactly when the
rows of G on D are a basis of G's row space, and F = free \\ D. The greedy
search takes door hinges in reverse order of the sliding preference,
keeping a hinge (or a whole symmetry orbit) when its rows are independent of
those kept -- a rank-one (rank-|orbit|) update of an orthonormal basis in
R^k. For singletons this is the matroid dual of choosing sliding hinges in
preference order while each removes a self-stress state, so the sliding set
is the preference-best minimal one. Small problems are enumerated
exhaustively (every minimal assignment, or every union of orbits); larger
ones add the greedy design of random orders and, on request, an exchange
search (swap one sliding and one door hinge while the condition number
drops; on the Yoshimura wedge it ends on the paper's Fig. 7 design).

N comes from :func:`chrono_origami.tools.linalg.null_space`: a dense SVD of C_B up
to ``dense_limit`` columns (6P; default :data:`DENSE_LIMIT`), else
shift-invert Lanczos on C_B^T C_B with a sparse LU (no dense matrix of the
size of C is formed). Rank decisions: singular values below
``rtol * sigma_max(C_B)`` are zero (``linalg.RANK_RTOL``).

Ranking (distance from singularity)
-----------------------------------
Every design found is re-counted from its own operator (the rank rule of
the linear theory's ``count``, ``engines.linear()``) and ranked by the condition number
sigma_max / sigma_min of its equilibrium matrix Cs^T (nonzero singular values
of the scaled operator, see ``engines.compatibility``), then by the largest
internal action under a reference load: the structure's loads, or by default
a generic load -- a unit force at each panel centroid, in a direction drawn
from ``numpy.random.default_rng(0)`` -- with the components that work on the
design's mechanisms and rigid motions removed (so every design can carry
it). A near-singular design shows a small sigma_min and large internal
actions. Values within ``TIE_RTOL`` (1e-9, relative) tie, and ties fall
to the hinge numbers. Designs of up to ``linalg.DENSE_LIMIT`` columns are ranked from
the dense SVD; larger ones on the sparse path of that ``count``
(sigma_min from its gap estimate, the load by a sparse LU or LSMR), so no
6P x 6P matrix is formed (``linalg`` forces either; ``rank_limit`` skips the
ranking above that many columns). The exchange search takes dense
eigenvalues and runs up to ``dense_limit`` columns only.
"""
import itertools
from dataclasses import dataclass

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
import scipy.sparse.linalg as spla
from scipy.spatial import cKDTree

from .. import engines
from ..engines import compatibility as operator
from ..structure.hinges import get as get_kind, hinge_geometry
from ..structure.hinges import DOOR, design_kinds, fixed_kinds
from ..results.count import counted, number_ranges
from ..results.design import Design, DesignResult, hinge_numbers  # noqa: F401  (analysis.design.DesignResult)
from ..tools import memory
from ..tools.errors import DesignError, OrigamiError
from ..tools.linalg import RANK_RTOL, choose_method, min_norm_lstsq, null_space
from ..tools.progress import Stages
from ..tools.threads import with_blas_threads

#: Largest number of candidate sliding sets (or orbit unions) checked by the exhaustive enumeration.
MAX_SUBSETS = 20000
#: Random greedy orders tried besides the preference order when enumeration is too large.
SAMPLES = 32
#: Largest number of designs re-counted and ranked (the others are listed, unranked, after them).
MAX_RANKED = 100
#: Self-stress states analysed one by one to explain what remains after design (:func:`explain`); beyond, one
#: generic member of their span (which hinges and components, without the counts of what could remove them).
EXPLAIN_STATES = 200
#: Relative difference within which two condition numbers (or largest forces) tie in the ranking (:func:`_ranked`).
TIE_RTOL = 1e-9

#: The search's null space (a dense SVD of C_B) and its exchange search (dense eigenvalues of 6P x 6P matrices)
#: run up to this many columns 6P; the sparse null space above, without the exchange search. The design's own
#: switch, not the rank and solve crossover ``linalg.DENSE_LIMIT`` (200), which its re-counts follow.
DENSE_LIMIT = 1500


def assemble(structure):
    """The compatibility operator of ``structure`` (hinge form) by the linear theory (``engines.linear()``)."""
    return engines.linear().model(structure)


def count(structure, **options):
    """M and S of ``structure`` by the linear theory (``engines.linear()``: ``rtol``, ``model``, ``linalg``)."""
    return engines.linear().count(structure, **options)


# ------------------------------------------------------------------ input checks
def _hinge_list(what, hinges, H):
    out = []
    for h in hinges:
        if isinstance(h, bool) or not isinstance(h, (int, np.integer)) or not 0 <= h < H:
            shown = h + 1 if isinstance(h, (int, np.integer)) and not isinstance(h, bool) else repr(h)
            raise DesignError(f"{what}: hinge {shown} does not exist (the pattern has hinges 1..{H})")
        if h in out:
            raise DesignError(f"{what}: hinge {h + 1} is listed twice")
        out.append(int(h))
    return out


def orbits(n_hinges, symmetry=()):
    """Orbits (sorted tuples, by smallest member) of the hinge permutations ``symmetry``.

    Each permutation is a sequence p of length H with p[h] the image of hinge h
    (0-based). The orbits are those of the group the permutations generate.
    """
    parent = list(range(n_hinges))

    def root(h):
        while parent[h] != h:
            parent[h] = parent[parent[h]]
            h = parent[h]
        return h

    for k, perm in enumerate(symmetry):
        perm = list(perm)
        if len(perm) != n_hinges:
            raise DesignError(f"symmetry {k + 1} has {len(perm)} entries, the pattern has {n_hinges} hinges")
        img = _hinge_list(f"symmetry {k + 1}", perm, n_hinges)
        for h, g in enumerate(img):
            parent[root(h)] = root(g)
    groups = {}
    for h in range(n_hinges):
        groups.setdefault(root(h), []).append(h)
    return tuple(sorted(tuple(g) for g in groups.values()))


def hinge_permutation(pattern, matrix, center=(0.0, 0.0, 0.0), rtol=1e-6):
    """Hinge permutation of the isometry x -> matrix (x - center) + center (rotation or mirror).

    A hinge end's image must lie within ``rtol`` x the pattern size of a vertex. Raises :class:`DesignError`
    naming the vertex whose image misses most (and its hinge), or the first hinge whose image is not a hinge.
    """
    R = np.asarray(matrix, float)
    c = np.asarray(center, float)
    X = (pattern.vertices - c) @ R.T + c
    tol = rtol * pattern.size
    where = {tuple(sorted(h.vertices)): h.index for h in pattern.hinges}
    tree = cKDTree(pattern.vertices)
    ends = sorted({v for h in pattern.hinges for v in h.vertices})
    d, j = tree.query(X[ends]) if ends else (np.zeros(0), np.zeros(0, int))
    image = dict(zip(ends, j))
    if len(ends) and d.max() > tol:                      # name the vertex whose image misses most
        k = int(np.argmax(d))
        v = ends[k]
        h = next(h for h in pattern.hinges if v in h.vertices)
        raise DesignError(f"the symmetry does not map hinge {h.index + 1} (vertices {h.vertices[0] + 1}-"
                          f"{h.vertices[1] + 1}) onto a hinge: the image of vertex {v + 1} is {d[k]:.3g} from the "
                          f"nearest vertex ({j[k] + 1}), more than {rtol:g} x the pattern size ({tol:.3g})")
    perm = []
    for h in pattern.hinges:
        key = tuple(sorted(int(image[v]) for v in h.vertices))
        if key not in where:
            raise DesignError(f"the symmetry does not map hinge {h.index + 1} (vertices "
                              f"{h.vertices[0] + 1}-{h.vertices[1] + 1}) onto a hinge")
        perm.append(where[key])
    return perm


def _check_symmetry_lengths(pattern, symmetry):
    """Each permutation must map every hinge onto one of the same length (a cheap geometric check)."""
    X = pattern.vertices
    length = [np.linalg.norm(X[h.vertices[0]] - X[h.vertices[1]]) for h in pattern.hinges]
    for k, perm in enumerate(symmetry):
        for h, g in enumerate(perm):
            if abs(length[h] - length[g]) > 1e-6 * max(length[h], length[g]):
                raise DesignError(f"symmetry {k + 1} maps hinge {h + 1} (length {length[h]:.6g}) onto hinge "
                                  f"{g + 1} (length {length[g]:.6g}): not a symmetry of the pattern")


# ------------------------------------------------------------------ linear algebra
def axial_rows(structure, hinges, model=None):
    """Sparse rows (len(hinges) x 6P): each hinge's relative translation along its axis t, scaled like ``model``.

    ``model`` must be the all-door model of the structure (default: assembled here).
    """
    pat = structure.pattern
    if model is None:
        model = assemble(structure.with_hinge_kinds(_doors(structure)))
    # door rows of the "hinge" form: the rotation rows, then p_2 - p_1 in global x, y, z (hinges.py)
    first_translation = get_kind(DOOR).hinge_row_kinds.index("t")
    I, J, V = [], [], []
    for i, h in enumerate(hinges):
        t = hinge_geometry(pat, h)[0]
        r0 = model.hinge_rows[h].start + first_translation
        for a in range(3):
            I.append(i)
            J.append(r0 + a)
            V.append(t[a])
    T = sp.csr_matrix((V, (I, J)), shape=(len(hinges), model.Cs.shape[0]))
    return (T @ model.Cs).tocsr()


@dataclass
class _Axial:
    free: list           # hinges whose kind is chosen (0-based)
    G: np.ndarray        # their axial rows on N (len(free) x k)
    rank_G: int
    tol: float
    M_before: int
    S_before: int
    M_start: int         # with the required sliding hinges only
    S_min: int
    left: np.ndarray     # self-stress of C_B (dense path; sparse up to EXPLAIN_STATES states) or None
    model_B: object
    X: sp.csr_matrix     # axial rows of the free hinges (len(free) x 6P)
    k: int               # dim null(C_B)


def _doors(structure, door=None):
    """The kinds of the all-door structure (``door`` None) or of the all-sliding one but ``door``
    (``structure.hinges.design_kinds``: joined "J" edges and other kinds kept)."""
    kinds = structure.hinge_kinds
    return design_kinds(kinds, () if door is None else [h for h in range(len(kinds)) if h not in door])


def _rank(A, tol):
    if A.size == 0:
        return 0
    return int(np.sum(np.linalg.svd(A, compute_uv=False) > tol))


def _analyse(structure, door, sliding, rtol, dense_limit, linalg="auto"):
    H = len(structure.pattern.hinges)
    model_B = assemble(structure.with_hinge_kinds(_doors(structure, door)))
    door_model = assemble(structure.with_hinge_kinds(_doors(structure)))
    kept = set(fixed_kinds(structure.hinge_kinds))
    free = [h for h in range(H) if h not in door and h not in sliding and h not in kept]
    method = linalg if linalg != "auto" else "dense" if model_B.Cs.shape[1] <= dense_limit else "sparse"
    # the self-stress states of C_B are listed one by one (DesignResult.irremovable) up to EXPLAIN_STATES of them:
    # beyond, the sparse path does not form their basis (1,800 states of a 1,024-panel sheet: 29 s and 0.8 GB)
    ns = null_space(model_B.Cs, rtol, method, left=True, left_limit=EXPLAIN_STATES)
    N, smax, left = ns.basis, ns.sigma_max, ns.left
    tol = rtol * smax
    X = axial_rows(structure, free, door_model)
    G = np.asarray(X @ N) if free else np.zeros((0, N.shape[1]))
    Gs = np.asarray(axial_rows(structure, sorted(sliding), door_model) @ N) if sliding else np.zeros((0, N.shape[1]))
    rigid = 0 if structure.supports else 6
    m_B, n = model_B.Cs.shape
    k = N.shape[1]
    r_all = _rank(np.vstack([G, Gs]), tol)
    r_G = _rank(G, tol)
    M_before = k - r_all - rigid
    S_before = m_B + len(free) + len(sliding) - (n - k + r_all)
    return _Axial(free, G, r_G, tol, M_before, S_before, k - r_G - rigid, m_B - (n - k), left, model_B, X, k)


# ------------------------------------------------------------------ search
def _predicted(ax, slide):
    """(M, S) that the axial analysis predicts when the free hinges ``slide`` slide."""
    pos = {h: i for i, h in enumerate(ax.free)}
    rows = [pos[h] for h in ax.free if h not in slide]
    r = _rank(ax.G[rows], ax.tol)
    return ax.M_start + ax.rank_G - r, ax.S_min + len(rows) - r


def _extend(Q, rows, tol):
    """(rank increase, new Q) when the rows are appended to the orthonormal rows Q."""
    R = rows - (rows @ Q.T) @ Q
    R = R - (R @ Q.T) @ Q                           # re-orthogonalise once
    if R.size == 0:
        return 0, Q
    _, s, Vt = np.linalg.svd(R, full_matrices=False)
    inc = int(np.sum(s > tol))
    return inc, np.vstack([Q, Vt[:inc]])


def _greedy(ax, groups):
    """Door groups chosen in reverse order of ``groups`` (the sliding preference); returns the door set."""
    pos = {h: i for i, h in enumerate(ax.free)}
    Q = np.zeros((0, ax.G.shape[1]))
    door = set()
    for g in reversed(groups):
        inc, Q2 = _extend(Q, ax.G[[pos[h] for h in g]], ax.tol)
        if inc == len(g):
            door.update(g)
            Q = Q2
    if Q.shape[0] < ax.rank_G:   # no union of orbits spans: keep M by accepting self-stress
        for g in reversed(groups):
            if door.isdisjoint(g):
                inc, Q2 = _extend(Q, ax.G[[pos[h] for h in g]], ax.tol)
                if inc:
                    door.update(g)
                    Q = Q2
    return door


def _subset_count(sizes, target, limit):
    """Number of sub-multisets of ``sizes`` (by position) summing to ``target``, capped at limit + 1."""
    ways = [1] + [0] * target
    for s in sizes:
        for t in range(target, s - 1, -1):
            ways[t] = min(ways[t] + ways[t - s], limit + 1)
    return ways[target]


def _enumerate(ax, groups, n_slide):
    """Every union of groups with n_slide hinges whose complement is a door basis (sliding sets, in order)."""
    pos = {h: i for i, h in enumerate(ax.free)}
    sizes = [len(g) for g in groups]
    out = []
    for combo in _combinations_with_sum(sizes, n_slide):
        slide = set(h for i in combo for h in groups[i])
        rows = [pos[h] for h in ax.free if h not in slide]
        if _rank(ax.G[rows], ax.tol) == ax.rank_G:
            out.append(slide)
    return out


def _combinations_with_sum(sizes, target):
    if all(s == 1 for s in sizes):
        yield from itertools.combinations(range(len(sizes)), target)
        return

    def rec(i, left, chosen):
        if left == 0:
            yield tuple(chosen)
            return
        for j in range(i, len(sizes)):
            if sizes[j] <= left:
                chosen.append(j)
                yield from rec(j + 1, left - sizes[j], chosen)
                chosen.pop()

    yield from rec(0, target, [])


def _improve(ax, groups, slide, passes):
    """Steepest descent on the condition number by exchanging a sliding group with a door group of its size.

    Only exchanges that keep the design minimal (door rows of G a basis) are
    tried, at most ``passes`` times. A design's operator is C_B plus the door
    hinges' axial rows, so its squared singular values are the eigenvalues of
    C_B^T C_B + X_D^T X_D; the top n - k + rank(G) of them are nonzero.
    """
    pos = {h: i for i, h in enumerate(ax.free)}
    K_B = (ax.model_B.Cs.T @ ax.model_B.Cs).toarray()
    r = K_B.shape[0] - ax.k + ax.rank_G

    def condition(sl):
        XD = ax.X[[pos[h] for h in ax.free if h not in sl]].toarray()
        lam = np.linalg.eigvalsh(K_B + XD.T @ XD)[-r:]
        return np.sqrt(lam[-1] / max(lam[0], 1e-300))

    slide = set(slide)
    best = condition(slide)
    for _ in range(passes):
        step = None
        for a, b in itertools.product(groups, groups):
            if len(a) != len(b) or not set(a) <= slide or set(b) & slide:
                continue
            new = (slide - set(a)) | set(b)
            if _rank(ax.G[[pos[h] for h in ax.free if h not in new]], ax.tol) < ax.rank_G:
                continue
            c = condition(new)
            if c < best * (1 - 1e-9) and (step is None or c < step[0]):
                step = (c, new)
        if step is None:
            break
        best, slide = step
    return slide


# ------------------------------------------------------------------ ranking
def _has_loads(structure):
    return bool(structure.loads) or structure.gravity is not None


def _load_label(structure):
    if _has_loads(structure):
        return "the structure's loads"
    return ("unit force at each panel centroid, direction from a fixed-seed generator (mechanism and rigid "
            "components removed)")


def _reference_forces(structure, model):
    """Scaled generalised forces of the structure's loads, or of the default load (see module docstring)."""
    if _has_loads(structure):
        return model.generalized_forces(structure.panel_loads())
    pat = structure.pattern
    u = np.random.default_rng(0).standard_normal((pat.n_panels, 3))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    return model.generalized_forces([(p, pat.panel_centroid(p), u[p]) for p in range(pat.n_panels)])


def _evaluate(structure, sliding, rtol, linalg="auto"):
    """Design with its own counts (``counting.count``'s rank rule and path) and ranking metrics.

    Dense path: the SVD of Cs gives sigma_min and the projected solve. Sparse
    path: sigma_min from the sparse count's gap estimate, and the load's
    least-squares multipliers by a sparse LU (determined) or LSMR (with
    mechanisms): the same mu = -pinv(Cs^T) f, never a dense matrix.
    """
    H = len(structure.pattern.hinges)
    d = Design(tuple(sorted(sliding)), 0, 0)
    st = structure.with_hinge_kinds(d.hinge_kinds(H, structure.hinge_kinds))
    model = assemble(st)
    m, n = model.Cs.shape
    if choose_method((m, n), linalg) == "sparse":
        return _evaluate_sparse(st, model, d, rtol)
    U, s, Vt = sla.svd(model.Cs.toarray(), full_matrices=False)
    r = int(np.sum(s > rtol * s[0])) if len(s) and s[0] > 0 else 0
    d.M, d.S, d.verified = n - r - (0 if st.supports else 6), m - r, True
    if r:
        d.sigma_min, d.condition = float(s[r - 1]), float(s[0] / s[r - 1])
    if d.S == 0:
        f = _reference_forces(st, model)
        g = Vt[:r] @ f                                   # f's part in the range of Cs^T
        if _has_loads(st) and np.linalg.norm(f - Vt[:r].T @ g) > 1e-9 * max(np.linalg.norm(f), 1e-300):
            d.max_force = d.max_moment = float("inf")    # the loads work on a mechanism: not carried
            return d
        _set_forces(d, st, model, -U[:, :r] @ (g / s[:r]))   # Cs^T mu = -f (projected)
    return d


def _evaluate_sparse(st, model, d, rtol):
    c = count(st, rtol=rtol, model=model, linalg="sparse")
    d.M, d.S, d.verified = c.M, c.S, True
    kept = c.gap[0]
    if c.rank and np.isfinite(kept) and kept > 0:
        d.sigma_min, d.condition = float(kept * c.sigma_max), float(1.0 / kept)
    if d.S == 0 and c.rank:
        f = _reference_forces(st, model)
        A = model.Cs.T.tocsc()
        if A.shape[0] == A.shape[1]:
            mu = spla.splu(A).solve(-f)
        else:                                            # mechanisms or rigid motions: least squares
            mu = min_norm_lstsq(A, -f, f"design {hinge_numbers(d.sliding)}: the reference load")
        if _has_loads(st) and np.linalg.norm(A @ mu + f) > 1e-9 * max(np.linalg.norm(f), 1e-300):
            d.max_force = d.max_moment = float("inf")    # the loads work on a mechanism: not carried
            return d
        _set_forces(d, st, model, mu)
    return d


def _set_forces(d, st, model, mu):
    """Largest moment and force of the hinge actions of the multipliers ``mu``."""
    vals = np.array([a.values for a in operator.multiplier_actions(st, model, mu)])
    d.max_moment = float(np.abs(vals[:, :3]).max(initial=0.0))
    d.max_force = float(np.abs(vals[:, 3:]).max(initial=0.0))


def _ranked(designs):
    """``designs`` in ranking order: verified (re-counted) first; then S; then the condition number; then the
    largest force; then the hinge numbers. Two values tie when the later is within :data:`TIE_RTOL` (relative)
    of the first value of its run in ascending order, so round-off (1e-15 on the dense path, about 1e-11 on
    the sparse one) never decides between mirror-image designs."""
    def value(x):
        return float("inf") if x is None else float(x)

    def runs(items, key):
        groups, anchor = [], None
        for d in sorted(items, key=lambda d: (value(key(d)), d.sliding)):
            v = value(key(d))
            if groups and (v == anchor or v - anchor <= TIE_RTOL * abs(anchor)):
                groups[-1].append(d)
            else:
                groups.append([d])
                anchor = v
        return groups

    out = []
    for _, bucket in itertools.groupby(sorted(designs, key=lambda d: (not d.verified, d.S)),
                                       key=lambda d: (not d.verified, d.S)):
        for same_condition in runs(list(bucket), lambda d: d.condition):
            for same_force in runs(same_condition, lambda d: d.max_force):
                out.extend(sorted(same_force, key=lambda d: d.sliding))
    return out


# ------------------------------------------------------------------ entry point
@memory.guarded(lambda structure, *a, **k: f"the design search of {memory.about(structure)}")
@with_blas_threads
def design(structure, door=(), sliding=(), symmetry=(), prefer=(), max_subsets=MAX_SUBSETS, samples=SAMPLES,
           improve=0, max_ranked=MAX_RANKED, rtol=RANK_RTOL, dense_limit=DENSE_LIMIT, rank_limit=None,
           linalg="auto"):
    """Choose the sliding hinges of ``structure`` (all hinges start as door hinges). Its arguments::

        door, sliding : hinges (0-based) that must stay door / must slide.
        symmetry : hinge permutations (see :func:`orbits`, :func:`hinge_permutation`);
            whole orbits change together, and required hinges extend to their orbits.
        prefer : hinges in decreasing preference for sliding; the others follow
            in hinge order. Only the greedy design depends on it.
        max_subsets : enumerate every minimal assignment when there are at most
            this many candidate sets; otherwise the greedy design in preference
            order and in ``samples`` random orders (seed 0) are ranked.
        improve : when not enumerating, up to this many passes of steepest descent on
            the condition number from the best candidate, exchanging one sliding
            hinge (orbit) with one door hinge (orbit) at a time.
        max_ranked : at most this many designs are re-counted and ranked.
        rank_limit : no re-count nor ranking above this many columns 6P (None: always).
        linalg : "auto", "dense" or "sparse": the path of the null space and of the re-counts ("auto":
            ``dense_limit`` and ``linalg.choose_method``).

    Returns a :class:`DesignResult`. Raises :class:`DesignError` for bad input
    or when the required sliding hinges alone add mechanisms.
    """
    with Stages("design search") as stage:
        return _search(structure, door, sliding, symmetry, prefer, max_subsets, samples, improve, max_ranked, rtol,
                       dense_limit, rank_limit, linalg, stage)


def _search(structure, door, sliding, symmetry, prefer, max_subsets, samples, improve, max_ranked, rtol, dense_limit,
            rank_limit, linalg, stage):
    pat = structure.pattern
    H = len(pat.hinges)
    door = _hinge_list("door hinges", door, H)
    sliding = _hinge_list("sliding hinges", sliding, H)
    prefer = _hinge_list("preference", prefer, H)
    both = sorted(set(door) & set(sliding))
    if both:
        raise DesignError(f"hinge {both[0] + 1} is required both to stay door and to slide")
    kept = set(fixed_kinds(structure.hinge_kinds))
    asked = sorted(kept & set(sliding))
    if asked:
        raise DesignError(f"hinge {asked[0] + 1} is {structure.hinge_kinds[asked[0]]!r} (not a door hinge): it cannot "
                          f"slide, and design keeps its kind")
    symmetry = [list(p) for p in symmetry]
    orb = orbits(H, symmetry)
    _check_symmetry_lengths(pat, symmetry)
    of = {h: o for o in orb for h in o}
    door = sorted(set(h for d in door for h in of[d]))
    sliding = sorted(set(h for s in sliding for h in of[s]))
    both = sorted(set(door) & set(sliding))
    if both:
        raise DesignError(f"hinge {both[0] + 1} is in the symmetry orbit {hinge_numbers(of[both[0]])} of both a required "
                          f"door hinge and a required sliding hinge")
    stage("null space of the all-sliding operator")
    ax = _analyse(structure, set(door), set(sliding), rtol, dense_limit, linalg)
    if ax.M_start > ax.M_before:
        added = ax.M_start - ax.M_before
        one = len(sliding) == 1
        raise DesignError(f"the required sliding hinge{'' if one else 's'} {hinge_numbers(sliding)} add{'s' if one else ''} "
                          f"{counted(added, 'mechanism')} (M = {ax.M_before} with door hinges, {ax.M_start} with "
                          f"{'it' if one else 'them'} sliding): "
                          + (f"hinge {sliding[0] + 1} cannot slide" if one else "they cannot all slide"))
    rank_of = {h: i for i, h in enumerate(prefer)}
    groups = sorted({of[h] for h in ax.free}, key=lambda g: (min(rank_of.get(h, H + h) for h in g), g))
    n_slide = len(ax.free) - ax.rank_G
    notes = []
    greedy_slide = set(ax.free) - _greedy(ax, groups)
    candidates = [greedy_slide]
    exhaustive = _subset_count([len(g) for g in groups], n_slide, max_subsets) <= max_subsets
    if exhaustive:
        found = _enumerate(ax, groups, n_slide)
        if found:
            candidates = found
        else:
            notes.append("no union of symmetry orbits is a minimal assignment; the greedy design keeps M and "
                         "accepts self-stress")
    else:
        notes.append(f"more than {max_subsets} candidate sets: greedy search in {samples} random orders besides "
                     f"the preference order")
        rng = np.random.default_rng(0)
        for i in range(samples):
            stage(f"greedy search in random order {i + 1} of {samples}")
            slide = set(ax.free) - _greedy(ax, [groups[i] for i in rng.permutation(len(groups))])
            if slide not in candidates:
                candidates.append(slide)
    n = 6 * pat.n_panels
    ranked = rank_limit is None or n <= rank_limit
    if greedy_slide in candidates:                     # rank the greedy design first of all
        candidates.remove(greedy_slide)
    candidates.insert(0, greedy_slide)

    def make(slide, evaluate):
        M, S = _predicted(ax, slide)
        if not evaluate:
            return Design(tuple(sorted(set(sliding) | slide)), M, S)
        d = _evaluate(structure, set(sliding) | slide, rtol, linalg)
        if (d.M, d.S) != (M, S):
            notes.append(f"check: design {hinge_numbers(d.sliding)} counts M = {d.M}, S = {d.S}, the search predicted "
                         f"M = {M}, S = {S} (near-singular configuration?)")
        return d

    designs = []
    for i, c in enumerate(candidates):
        if ranked and i < max_ranked:
            stage(f"re-counting design {i + 1} of {min(len(candidates), max_ranked)}")
        designs.append(make(c, ranked and i < max_ranked))
    greedy = designs[0]
    designs = _ranked(designs)
    start = set(designs[0].sliding) - set(sliding)
    can_improve = n <= dense_limit
    if improve and not can_improve:
        notes.append(f"6P = {n} > {dense_limit}: no exchange search (it takes dense eigenvalues of 6P x 6P "
                     f"matrices)")
    if improve and can_improve and ranked and not exhaustive and _predicted(ax, start) == (ax.M_start, ax.S_min):
        better = _improve(ax, groups, start, improve)
        if better not in candidates:
            candidates.append(better)
            designs = _ranked(designs + [make(better, True)])
            notes.append(f"exchange search from {hinge_numbers(sorted(set(sliding) | start))} found "
                         f"{hinge_numbers(sorted(set(sliding) | better))}")
    if not ranked:
        notes.append(f"6P = {n} > rank_limit = {rank_limit}: designs not re-counted nor ranked")
    elif len(candidates) > max_ranked:
        notes.append(f"{len(candidates)} designs found: the first {max_ranked} (greedy first) are re-counted "
                     f"and ranked, the others listed after them")
    irremovable = []
    if ax.left is not None:
        for k in range(ax.left.shape[1]):
            y = ax.left[:, k]
            irremovable.append(tuple(h for h, rows in enumerate(ax.model_B.hinge_rows)
                                     if np.abs(y[rows]).max(initial=0) > 1e-6))
    best = designs[0]
    result = DesignResult(structure.name, H, ax.M_before, ax.S_before, best.M, best.S, designs, greedy, exhaustive,
                          orb, tuple(door), tuple(sliding), irremovable, _load_label(structure), notes,
                          explain_states=EXPLAIN_STATES)
    if not result.isostatic:
        stage("what remains: the designed structure's mechanisms and self-stress states")
        result.reason, result.advice = explain(structure, result, rtol, linalg)
    return result


# ------------------------------------------------------------------ what remains, and what could help
def explain(structure, result, rtol=RANK_RTOL, linalg="auto"):
    """(one-line reason, advice lines) for a design that leaves M > 0 or S > 0, derived from the counts.

    The designed structure is re-counted (``counting.count``); its self-stress states (a basis, or one generic
    member beyond ``operator.LIST_LIMIT`` on the sparse path) give, per hinge, the components of the hinge actions
    they load (MT, MP, MO, N, TP, TO, paper's frame). A state with an axial component TP on a hinge could be
    removed by letting that hinge slide; a state in the rows of a support by releasing that held direction; the
    others load only components that no sliding hinge frees. A flat pattern, or one whose all-door counts exceed
    the counting rules' generic values, is singular: folding it changes the counts. Mechanisms are named by the
    panels that move most; design never changes M, supports can.
    """
    from .support import mechanism_lines, stop_line

    st = result.structure(structure)
    reason, advice = [], []
    try:
        c = count(st, rtol=rtol, linalg=linalg)
    except OrigamiError as e:
        return (f"M = {result.best.M}, S = {result.best.S} remain after design", [f"  (not analysed further: {e})"])
    if c.S:
        reason.append(_explain_states(st, c, result, advice))
    if c.M:
        free = " (the structure has no supports: M counts its internal mechanisms)" if not st.supports else ""
        reason.append(f"M = {c.M} mechanism{'s' if c.M != 1 else ''} remain{'s' if c.M == 1 else ''}: design "
                      f"keeps M (a sliding hinge frees a motion, never stops one){free}")
        advice.append(f"mechanisms of the design{free}:")
        advice += mechanism_lines(c)
        stop = stop_line(st, c)
        advice.append(f"  what could help: supports that stop them, e.g. {stop}" if stop else
                      "  what could help: supports that hold the moving panels (--support SELECTOR:DOFS; the "
                      "support command names what a minimal support leaves free), then design again")
    if _flat(st.pattern):
        why, help_ = _flat_advice(st)
        reason.append(why)
        advice.append(f"  the configuration is flat (every hinge axis in one plane; with all door hinges M = "
                      f"{result.M_before}, S = {result.S_before} here): a flat configuration is singular, with more "
                      f"mechanisms and self-stress states than a folded one; {help_}")
    return "; ".join(reason), advice


def _flat_advice(st):
    """(reason, what could help) for a flat configuration: folded flat (a crease at +-180 deg: fold part of the
    way), a flat crease pattern that does not fold rigidly (said as the check command says it), or one to fold."""
    from ..structure import foldfile, pattern_check

    angles = np.abs(foldfile.fold_angles(st.pattern))
    if angles.max(initial=0.0) > 90.0:
        return ("the configuration is folded flat (singular): design a state folded part of the way (fold "
                "--percent below 100)",
                "folded flat, its creases at up to {:.4g} deg; folding to a smaller percent (fold --percent P, P "
                "below 100) and designing that state could help".format(angles.max()))
    unfoldable = pattern_check.diagnose(st).unfoldable(st.name)
    if unfoldable:
        return (f"the configuration is flat (singular), and the pattern does not fold rigidly ({unfoldable})",
                "the pattern has no rigid fold from the flat state, so no folded state to design: change the "
                "pattern or its mountain-valley assignment")
    return ("the configuration is flat (singular): fold it first (fold --percent P), then design the folded state",
            "folding it (fold FILE --percent P --out DIR) and designing the folded state (--frame last) could "
            "help; a pattern that fold refuses has no rigid fold from the flat state")


def _explain_states(st, c, result, advice):
    model = c.model
    H = result.n_hinges
    try:
        whole = c.S <= max(EXPLAIN_STATES, operator.LIST_LIMIT)    # either path forms a basis this small
        Y = c.self_stresses if whole else c.self_stress_sample()[:, None]
    except OrigamiError:
        Y = c.self_stress_sample()[:, None]
    basis = Y.shape[1] == c.S
    E = np.zeros((H, 6))              # sum over states and sides of each component squared
    T = np.zeros((H, Y.shape[1]))     # axial component TP of each hinge in each state (first panel's side)
    for k in range(Y.shape[1]):
        for a in operator.multiplier_actions(st, model, Y[:, k]):
            v = np.asarray(a.values)
            E[a.hinge] += v * v
            if a.panel == st.pattern.hinges[a.hinge].panels[0]:
                T[a.hinge, k] = v[4]
    per_hinge = np.sqrt(E.sum(axis=1))
    scale = per_hinge.max(initial=0.0) or 1.0
    carrying = [h for h in range(H) if per_hinge[h] > 1e-6 * scale]
    axial = [h for h in carrying if np.sqrt(E[h, 4]) > 1e-6 * scale]
    no_axial = [h for h in carrying if h not in axial]
    share = E[carrying].sum(axis=0) / max(E[carrying].sum(), 1e-300)
    names = ("MT", "MP", "MO", "N", "TP", "TO")
    loads = ", ".join(f"{names[j]} {100 * share[j]:.0f}%" for j in np.argsort(-share) if share[j] > 0.005)
    sups = [s for s, rows in enumerate(model.support_rows) if np.linalg.norm(Y[rows]) > 1e-6 * np.linalg.norm(Y)]
    rows_s = [r for s in sups for r in range(model.support_rows[s].start, model.support_rows[s].stop)]

    def rank(A):
        return _rank(A, 1e-6 * max(np.abs(A).max(initial=0.0), 1e-300)) if A.size else 0

    by_axial = rank(T[axial]) if basis else None
    by_support = rank(Y[rows_s]) if basis else None
    S = c.S
    text = f"S = {S} remain{'s' if S == 1 else ''} after design"
    if no_axial:
        text += f": no axial component on hinges {_short(no_axial)} (they load {loads} there)"
    advice.append(f"self-stress states of the design ({'a basis' if basis else 'one generic member'}): they load "
                  f"hinges {_short(carrying)} ({loads})" + (f" and supports at vertices "
                                                            f"{_short([st.supports[s].vertex for s in sups])}"
                                                            if sups else ""))
    helps = []
    if axial:
        req = [h for h in axial if h in result.required_door]
        who = f"hinges {_short(axial)}" + (" (required door hinges)" if len(req) == len(axial) else "")
        helps.append(f"{who} carry an axial force TP in them: letting them slide would remove "
                     f"{'up to ' + str(by_axial) if basis else 'some'}")
    if sups:
        helps.append(f"the supports at vertices {_short([st.supports[s].vertex for s in sups])} carry them: "
                     f"releasing held directions there would remove {'up to ' + str(by_support) if basis else 'some'}"
                     f" (each redundant direction one state, no mechanism added)")
    rest = S - (by_axial or 0) - (by_support or 0) if basis else None
    if rest is None or rest > 0:
        n = f"{rest} of them" if rest is not None else "the others"
        helps.append(f"{n} load only components that no sliding hinge frees (a sliding hinge frees only the axial "
                     f"force TP; these load {loads}): more sliding-capable hinges would remove them, a kind that "
                     f"also frees a rotation about n or m (MT, MO = 0) or a transverse slide (N, TO = 0), registered "
                     f"in chrono_origami/structure/hinges.py")
    advice += [f"  what could help: {h}" for h in helps]
    return text


def _short(hinges_or_vertices):
    """'1-24' style 1-based list of 0-based numbers."""
    return number_ranges([h + 1 for h in hinges_or_vertices]).strip("[]")


def _flat(pattern):
    n = pattern.panel_normals
    return bool(np.all(np.linalg.norm(np.cross(n, n[0]), axis=1) < 1e-9))
