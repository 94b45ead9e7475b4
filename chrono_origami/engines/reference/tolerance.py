"""Locked-in forces by the linear theory of elastic hinges with misfit (``docs/tolerances.md``).

In the scaled variables of ``model`` (rows: rotations in rad, translations
/ L; multipliers mu in moment units), with

* e (m,): the misfit of every constraint row, minus the row's constraint value
  at the nominal pose of the imperfect panels (:func:`misfit_operator`),
* F (m,): the hinge flexibility of every row (diagonal; supports rigid, 0)
  (:func:`flexibility`),
* f: the generalised loads (``model.generalized_forces``),

the multipliers solve compatibility and equilibrium

    F mu + Cs u = e,      Cs^T mu = -f,

i.e. mu = mu_0 + S (S^T F S)^-1 S^T (e - F mu_0) for any particular mu_0
(Cs^T mu_0 = -f) and S a basis of the self-stress states. :class:`Solver`
solves the saddle-point system [F Cs; Cs^T 0] [mu; u] = [e; -f] with one
sparse LU (SuperLU), without forming S; the columns of a basis of null(Cs)
(mechanisms, and rigid motions of an unsupported structure) are held fixed
first, which changes neither mu nor the equations (``docs/tolerances.md``).
:func:`formula` evaluates the closed form with a dense S (small structures;
the tests check that both agree).

Only the "hinge" form of the operators (eqs. 4, 6) is used here.
"""
import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp

from ...structure import tolerance as imp
from ...tools.errors import StructureError
from ...tools.geometry import skew
from .. import compliance
from ..compatibility import _reactions, check_loads_carried, held_dofs, multiplier_actions, null_basis
from .count import count

#: a component variance below this fraction of its family's largest (on the same hinge side, or anywhere) is
#: round-off (zero)
VARIANCE_RTOL = 1e-14
#: relative residual of the probes of the randomized statistics
PROBE_RTOL = 1e-6
#: right-hand sides per block of the multi-RHS solves of the closed-form statistics
BLOCK = 64


def _hinge_arrays(structure):
    pat = structure.pattern
    ab = np.array([h.vertices for h in pat.hinges], dtype=np.int64).reshape(-1, 2)
    pq = np.array([h.panels for h in pat.hinges], dtype=np.int64).reshape(-1, 2)
    mid = 0.5 * (pat.vertices[ab[:, 0]] + pat.vertices[ab[:, 1]])
    return ab, pq, mid


def row_hinges(model):
    """Hinge (0-based) of every hinge row of ``model`` (the hinge rows come first, hinge by hinge)."""
    H = len(model.hinge_rows)
    if H == 0:
        return np.zeros(0, dtype=np.int64)
    counts = np.array([r.stop - r.start for r in model.hinge_rows])
    return np.repeat(np.arange(H), counts)


def misfit_operator(structure, model, J=None):
    """Sparse G (m x n_raw): e = G xi for the error components xi (``structure.tolerance.sample`` order).

    Side s of hinge h moves its hinge frame by the small rigid motion (alpha,
    d) (``structure.tolerance.frame_error_operator``); as a motion of that side's
    panel it is (omega, w / L) = (alpha, d / L + [P'] alpha), P' = (P - x0) / L
    the scaled midpoint. The constraint value of the hinge's rows at the
    nominal pose is then c_0 = C_h^p delta_p + C_h^q delta_q (the rows of
    the reference operator on each panel's columns), and e = -c_0. Support
    rows have no misfit.
    """
    pat = structure.pattern
    H = len(pat.hinges)
    J = imp.frame_error_operator(pat) if J is None else J
    _, pq, mid = _hinge_arrays(structure)
    # T: (alpha, d) per side -> scaled motion (omega, w / L)
    P = (mid - model.x0) / model.L
    blocks = np.zeros((H, 2, 6, 6))
    blocks[:, :, :3, :3] = np.eye(3)
    blocks[:, :, 3:, :3] = skew(P)[:, None]
    blocks[:, :, 3:, 3:] = np.eye(3) / model.L
    bi = (6 * np.arange(2 * H)[:, None, None] + np.arange(6)[None, :, None]).repeat(6, axis=2)
    bj = (6 * np.arange(2 * H)[:, None, None] + np.arange(6)[None, None, :]).repeat(6, axis=1)
    T = sp.csr_matrix((blocks.ravel(), (bi.ravel(), bj.ravel())), shape=(12 * H, 12 * H))
    # B: hinge rows on the (panel, dof) columns re-indexed by (hinge, side, dof)
    C = model.Cs.tocoo()
    nh = model.hinge_rows[-1].stop if H else 0
    keep = C.row < nh
    r, c, v = C.row[keep], C.col[keep], C.data[keep]
    h = row_hinges(model)[r]
    body = c // 6
    side = np.where(body == pq[h, 0], 0, 1)
    if np.any((side == 1) & (body != pq[h, 1])):
        raise StructureError("a hinge row acts on a panel that is not one of the hinge's two")
    B = sp.csr_matrix((v, (r, 12 * h + 6 * side + c % 6)), shape=(model.Cs.shape[0], 12 * H))
    return -(B @ T @ J)


def flexibility(structure, model, stiffness):
    """F (m,): the flexibility of every row in scaled units (1 / K_r for rotation rows, 1 / (K_t L^2) for
    translation rows; 0 for support rows, which are rigid). ``stiffness``: ``structure.tolerance.HingeStiffness``."""
    K = stiffness.hinge_values(structure)
    F = np.zeros(model.Cs.shape[0])
    for h, (kind, rows) in enumerate(zip(structure.kinds, model.hinge_rows)):
        kinds = kind.hinge_row_kinds
        if len(kinds) != rows.stop - rows.start:
            raise StructureError(f"hinge {h + 1}: the tolerance analysis uses the 'hinge' form of the operators")
        F[rows] = [1.0 / K[h, 1] if k == "r" else 1.0 / (K[h, 0] * model.L ** 2) for k in kinds]
    return F


class Solver(compliance.Solver):
    """The factored linear theory for one structure and stiffness (module doc; ``engines.compliance.Solver``):
    by default the structure's own operator (the reference engine's count), its hinges' flexibility
    (:func:`flexibility`) and its mechanisms and rigid motions held; or a given ``model``, ``flex`` and ``held``
    columns (springs added: ``elastic``). ``counts``, ``stiffness``, ``structure`` are kept."""

    def __init__(self, structure, stiffness=None, counts=None, linalg="auto", model=None, flex=None, held=None):
        self.structure = structure
        self.stiffness = stiffness or imp.HingeStiffness()
        if model is None:       # the structure's own operator, its mechanisms and rigid motions held
            self.counts = counts or count(structure, "hinge", linalg=linalg)
            model = self.counts.model
            flex = flexibility(structure, model, self.stiffness)
            held = held_dofs(null_basis(self.counts))
        else:
            self.counts = counts
        compliance.Solver.__init__(self, model, flex, held, structure.name)


def formula(structure, e, stiffness=None, f=None, counts=None):
    """mu = mu_0 + S (S^T F S)^-1 S^T (e - F mu_0) with a dense self-stress basis S (small structures only).

    mu_0: the minimum-norm particular solution of Cs^T mu_0 = -f.
    """
    counts = counts or count(structure, "hinge", linalg="dense")
    model = counts.model
    F = flexibility(structure, model, stiffness or imp.HingeStiffness())
    m, n = model.Cs.shape
    f = np.zeros(n) if f is None else np.asarray(f, float)
    mu0 = sla.lstsq(model.Cs.T.toarray(), -f)[0]
    S = counts.self_stresses
    if S.shape[1] == 0:
        return mu0
    y = np.linalg.solve(S.T @ (F[:, None] * S), S.T @ (np.asarray(e, float) - F * mu0))
    return mu0 + S @ y


def wrench_maps(structure, model):
    """(H, 6, m_h) per hinge: its rows' multipliers -> (force, moment about the midpoint) on its second panel q.

    Global frame; ``model.hinge_wrenches`` for one hinge as a matrix (forces = (Cs_q^T mu)[3:] / L, moment about
    x0 = (Cs_q^T mu)[:3], moved to the midpoint). Returns a list of arrays (m_h varies with the kind).
    """
    _, pq, mid = _hinge_arrays(structure)
    Cs = model.Cs.tocsr()
    out = []
    for h, rows in enumerate(model.hinge_rows):
        q = pq[h, 1]
        Cq = Cs[rows, 6 * q:6 * q + 6].toarray().T           # (6, m_h): (moment about x0, L force)
        Fm = Cq[3:] / model.L
        Mm = Cq[:3] - skew(mid[h] - model.x0) @ Fm
        out.append(np.vstack([Fm, Mm]))
    return out


def wrench_operator(structure, model):
    """Sparse A (6H x m): the multipliers -> every hinge's (force, moment about its midpoint) on its second panel q,
    global frame, stacked hinge by hinge (the rows of :func:`wrench_maps`, all hinges at once)."""
    _, pq, mid = _hinge_arrays(structure)
    C = model.Cs.tocoo()
    H = len(model.hinge_rows)
    nh = model.hinge_rows[-1].stop if H else 0
    keep = C.row < nh
    r, c, v = C.row[keep], C.col[keep], C.data[keep]
    h = row_hinges(model)[r]
    on_q = c // 6 == pq[h, 1]
    r, c, v, h = r[on_q], c[on_q], v[on_q], h[on_q]
    i = c % 6
    rows, cols, vals = [], [], []
    force = i >= 3
    # force component j = i - 3: v / L; moment about x0, component i < 3: v
    rows.append(6 * h[force] + (i[force] - 3))
    cols.append(r[force])
    vals.append(v[force] / model.L)
    rows.append(6 * h[~force] + 3 + i[~force])
    cols.append(r[~force])
    vals.append(v[~force])
    # moment about the midpoint: - (mid - x0) x F
    S = skew(mid - model.x0)                           # (H, 3, 3)
    hf, rf, vf, l = h[force], r[force], v[force] / model.L, i[force] - 3
    for j in range(3):
        rows.append(6 * hf + 3 + j)
        cols.append(rf)
        vals.append(-S[hf, j, l] * vf)
    return sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                         shape=(6 * H, model.Cs.shape[0]))


def hinge_side_maps(structure):
    """(H, 2, 6, 6): (force, moment) on q -> (MT, MP, MO, N, TP, TO) of side p (0) and side q (1).

    Side q: the action on q in q's frame {n, t, m}; side p: the opposite action in p's frame
    (``results.hinge_actions``).
    """
    frames = imp.side_frames(structure.pattern)          # (H, 2, 3, 3) columns n, t, m
    H = frames.shape[0]
    R = np.zeros((H, 2, 6, 6))
    for s, sign in ((0, -1.0), (1, 1.0)):
        FT = np.transpose(frames[:, s], (0, 2, 1))
        R[:, s, :3, 3:] = sign * FT     # moments
        R[:, s, 3:, :3] = sign * FT     # forces
    return R


def locked_in_result(structure, mu, model, info=None):
    """A ``results.StaticResult`` (engine "reference", status "elastic") of the multipliers ``mu``."""
    from ...results.static import StaticResult

    return StaticResult(structure, "reference", "elastic", None, None, multiplier_actions(structure, model, mu),
                        _reactions(structure, model, mu), 0.0, info=dict(info or {}))


def locked_in(structure, errors, stiffness=None, loads=False, solver=None, linalg="auto"):
    """Hinge actions (``results.StaticResult``, engine "reference", status "elastic") of ``structure`` with elastic
    hinges and the fabrication ``errors`` (``structure.tolerance.Errors``): the reference engine's tolerance analysis.

    ``loads``: also the structure's loads (the total answer), else the misfit alone (the locked-in forces).
    ``solver``: a :class:`Solver` of this structure and stiffness to reuse (its factorisation). The result's
    ``info`` holds the relative equilibrium residual, |e| and M, S.
    """
    solver = solver or Solver(structure, stiffness, linalg=linalg)
    if loads:
        check_loads_carried(structure, solver.counts)      # else the held coordinates would carry them
    model = solver.model
    G = misfit_operator(structure, model)
    e = G @ imp.raw_vector(errors)
    f = model.generalized_forces(structure.panel_loads()) if loads else None
    mu = solver.solve(e, f)
    # equilibrium residual, measured against the multipliers' own size
    Cs = model.Cs
    eq = np.linalg.norm(Cs.T @ mu + (0 if f is None else f))
    scale = max(np.linalg.norm(Cs.T @ np.abs(mu)), np.linalg.norm(f) if f is not None else 0.0, 1e-300)
    info = {"equilibrium_residual": float(eq / scale), "misfit_norm": float(np.linalg.norm(e)),
            "S": solver.counts.S, "M": solver.counts.M, "loads": bool(loads), "solver": solver.method}
    res = locked_in_result(structure, mu, model, info)
    res.M, res.S = solver.counts.M, solver.counts.S
    res.equilibrium_residual = info["equilibrium_residual"]
    return res


def covariance_blocks(structure, spec, solver, hinges=None, block=BLOCK, stage=None):
    """(len(hinges), 6, 6): covariance of (force, moment about the midpoint) on q of each hinge, normal errors.

    Cov(mu) = K G D G^T K (D the error variances, K symmetric); for hinge h,
    Cov(w_h) = A_h K[:, rows_h]^T G D G^T K[:, rows_h] A_h^T, from one multi-RHS
    solve per block of rows (``block`` right-hand sides at a time).
    """
    model = solver.model
    G = misfit_operator(structure, model)
    d = imp.raw_sd(structure, spec)
    GtD = (G.T.tocsr()).multiply(d[:, None]).tocsr() if G.shape[1] else G.T
    maps = wrench_maps(structure, model)
    H = len(model.hinge_rows)
    hinges = np.arange(H) if hinges is None else np.asarray(hinges, dtype=np.int64)
    out = np.zeros((len(hinges), 6, 6))
    # group hinges into blocks of about ``block`` rows
    k = 0
    done = 0
    while k < len(hinges):
        group, nrows = [], 0
        while k < len(hinges) and (nrows == 0 or nrows + (model.hinge_rows[hinges[k]].stop -
                                                        model.hinge_rows[hinges[k]].start) <= block):
            rows = model.hinge_rows[hinges[k]]
            group.append((k, hinges[k], rows))
            nrows += rows.stop - rows.start
            k += 1
        rows_all = np.concatenate([np.arange(r.start, r.stop) for _, _, r in group])
        X = solver.K_columns(rows_all)                      # (m, nrows)
        Y = GtD @ X                                         # (n_raw, nrows): D^1/2 G^T K e_r
        Gram = Y.T @ Y
        j = 0
        for i, h, rows in group:
            n_h = rows.stop - rows.start
            A = maps[h]
            out[i] = A @ Gram[j:j + n_h, j:j + n_h] @ A.T
            j += n_h
        done += len(group)
        if stage is not None:
            stage(f"closed-form covariance: hinge {done} of {len(hinges)}")
    return out


def side_sd(structure, cov):
    """(H, 2, 6) standard deviations of (MT, MP, MO, N, TP, TO) on each hinge side from the wrench covariances."""
    R = hinge_side_maps(structure)
    var = np.einsum("hsij,hjk,hsik->hsi", R, cov, R)
    # round-off: a component whose variance is below VARIANCE_RTOL of its family's largest (moments MT, MP, MO;
    # forces N, TP, TO) on that side or anywhere is zero (MP of door and sliding hinges, TP of sliding hinges,
    # hinges that no self-stress state involves)
    for fam in (slice(0, 3), slice(3, 6)):
        v = var[..., fam]
        big = v.max(axis=-1, keepdims=True)
        v[v <= VARIANCE_RTOL * big] = 0.0
        v[v <= VARIANCE_RTOL * (v.max() if v.size else 0.0)] = 0.0
    return np.sqrt(np.maximum(var, 0.0))


def randomized_covariance(structure, spec, solver, probes, seed=0, stage=None):
    """(H, 6, 6) estimated wrench covariances from ``probes`` Gaussian probes z: mu = K G D^1/2 z.

    Each probe is one solve; the estimate of a variance has relative standard
    error sqrt(2 / probes) (of a standard deviation, 1 / sqrt(2 probes)).
    """
    model = solver.model
    G = misfit_operator(structure, model)
    d = imp.raw_sd(structure, spec)
    A = wrench_operator(structure, model)
    H = len(model.hinge_rows)
    acc = np.zeros((H, 6, 6))
    rng = np.random.default_rng(seed)
    for start in range(0, probes, BLOCK):
        k = min(BLOCK, probes - start)
        Z = rng.standard_normal((G.shape[1], k)) * d[:, None]
        E = G @ Z
        X = solver.K_apply(E, PROBE_RTOL)   # a probe's error is statistical: a residual of 1e-6 is plenty
        W = (A @ X).reshape(H, 6, k)
        acc += np.einsum("hik,hjk->hij", W, W)
        if stage is not None:
            stage(f"randomized covariance: probe {start + k} of {probes}")
    return acc / probes


#: the last few factored solvers of this process, by the identity of (structure, stiffness): Monte Carlo samples
#: of one structure share one factorisation
_SOLVERS = []
_SOLVER_CACHE = 4


def cached_solver(structure, stiffness):
    """The :class:`Solver` of ``structure`` with ``stiffness``, the one made last time for the same two objects."""
    for s, k, solver in _SOLVERS:
        if s is structure and k is stiffness:
            return solver
    solver = Solver(structure, stiffness)
    _SOLVERS.insert(0, (structure, stiffness, solver))
    del _SOLVERS[_SOLVER_CACHE:]
    return solver
