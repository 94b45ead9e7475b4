"""Elastic hinges as compliant rows of the scaled operator (engine-neutral): the saddle-point solve both engines'
elastic statics and the tolerance analysis use.

In the scaled variables of ``engines.compatibility`` (rows: rotations in rad,
translations / L; multipliers mu in moment units), with F (m,) the
flexibility of every row (diagonal; supports rigid, 0), e (m,) a misfit and f
the generalised loads, the multipliers and the scaled displacements u of the
bodies solve compatibility and equilibrium

    F mu + Cs u = e,      Cs^T mu = -f

(``docs/tolerances.md``). :class:`Solver` factors and solves it for a given
:class:`~.operator.Model` -- the reference engine's (``reference.tolerance``,
``reference.elastic``) or one made from Chrono's constraint Jacobian
(``chrono.elastic``). The rows of a hinge may be its kind's locked rows
followed by the rows of the directions it frees (:func:`spring_kind`), which
then carry the springs of those directions (:func:`row_flexibility`).
"""
import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from ..results.static import resultant_changes
from ..structure import tolerance as imp
from ..structure.hinges import HingeKind
from ..tools.errors import SolverError

#: relative residual of every solve of the saddle-point system (after refinement)
RESIDUAL_RTOL = 1e-10
#: flexibility of the rigid support rows in the factor of the stiffness form (relative to the mean hinge's)
SUPPORT_FLEXIBILITY = 1e-8
#: most refinement steps of a solve
REFINEMENT_STEPS = 6


def spring_kind(kind):
    """The (unregistered) kind that locks exactly what ``kind`` frees: its rows are the spring rows of ``kind``'s
    free directions (None when ``kind`` frees nothing)."""
    if not kind.free:
        return None
    return HingeKind(f"{kind.name} (free directions)", kind.locked)


def row_flexibility(structure, model, kind_of, spring, stiffness):
    """F (m,) of ``model``'s rows in scaled units: 1 / K_r, 1 / (K_t L^2) on a hinge's locked rows, 1 / C_r,
    1 / (C_s L^2) on its free rows (``spring`` True), 0 on support rows (rigid). ``kind_of``: "r" (rotation) or
    "t" (translation) per row (others: supports); ``stiffness``: a ``HingeStiffness``."""
    K = stiffness.hinge_values(structure)
    C = stiffness.spring_values(structure)
    hinge = np.full(len(kind_of), -1, dtype=np.int64)
    for h, rows in enumerate(model.hinge_rows):
        hinge[rows] = h
    F = np.zeros(len(kind_of))
    on = hinge >= 0
    h = hinge[on]
    rot = np.asarray(kind_of)[on] == "r"
    sp_ = np.asarray(spring, bool)[on]
    k_r = np.where(sp_, C[h, 1], K[h, 1])
    k_t = np.where(sp_, C[h, 0], K[h, 0]) * model.L ** 2
    F[on] = np.where(rot, 1.0 / k_r, 1.0 / k_t)
    return F


def slot_displacements(structure, model, u):
    """(n, 3): the displacement of every panel-vertex slot (``structure.tolerance.vertex_slots``: each panel's loop
    in order; a vertex of several panels once per panel, the hinges' compliance opens them), global frame, length
    units, for scaled u (6P,) (omega, w / L per panel, ``engines.compatibility``): w + omega x (x - x0)."""
    slots = imp.vertex_slots(structure.pattern)
    if not len(slots):
        return np.zeros((0, 3))
    U = np.asarray(u, float).reshape(-1, 6)
    p = slots[:, 0]
    x = structure.pattern.vertices[slots[:, 1]] - model.x0
    return model.L * U[p, 3:] + np.cross(U[p, :3], x)


def largest_displacement(d, L):
    """(largest |displacement| of the rows of ``d`` (n, 3), its ratio to the structure's size ``L``)."""
    big = float(np.linalg.norm(d, axis=1).max()) if len(d) else 0.0
    return big, big / (L or 1.0)


def vertex_displacements(structure, model, u):
    """(largest |displacement| of a panel vertex, its ratio to the structure's size L) for scaled u (6P,)."""
    return largest_displacement(slot_displacements(structure, model, u), model.L)


#: a hinge's stiffness changes of :func:`hinge_doubling`: (name, factor on k_t, factor on k_r)
DOUBLINGS = (("k_t", 2.0, 1.0), ("k_r", 1.0, 2.0), ("both", 2.0, 2.0))
#: :func:`hinge_sensitivity` tries every hinge up to this many, else :data:`HINGE_SAMPLE` of them (the most loaded
#: half, the rest drawn at random): one load-response solve of about 5 right-hand sides per hinge tried, each the
#: cost of one solve with the factor (16 hinges, 80 right-hand sides: 1.7 s beside the 1.1 s of the 2,500-panel Miura
#: sheet's solve, 9 s beside 6.7 s at 10,000 panels, measured on the loaded 2-core machine)
EVERY_HINGE = 64
HINGE_SAMPLE = 16

class HingeResultants:
    """|F| and |M| of every hinge for multipliers of ``model`` (either side: action and reaction; the moment about the
    hinge's midpoint): the linear map from the multipliers to each hinge's wrench on its panel q
    (``model.hinge_wrenches``) as one sparse matrix, made once. ``of(mu)`` -> (|F| (H,), |M| (H,)); ``of(X)`` for
    X (m, k) -> (H, k) each."""

    def __init__(self, structure, model):
        pat = structure.pattern
        H = len(pat.hinges)
        self.L = model.L
        ab = np.array([h.vertices for h in pat.hinges], dtype=np.int64).reshape(-1, 2)
        q = np.array([h.panels[1] for h in pat.hinges], dtype=np.int64)
        self.r = 0.5 * (pat.vertices[ab[:, 0]] + pat.vertices[ab[:, 1]]) - model.x0 if H else np.zeros((0, 3))
        C = model.Cs.tocoo()
        starts = np.array([r.start for r in model.hinge_rows] + [model.hinge_rows[-1].stop if H else 0])
        hinge = np.searchsorted(starts, C.row, side="right") - 1
        keep = (C.row < starts[-1]) & (hinge >= 0)
        hinge, row, col, val = hinge[keep], C.row[keep], C.col[keep], C.data[keep]
        mine = col // 6 == q[hinge]
        self.B = sp.csr_matrix((val[mine], (6 * hinge[mine] + col[mine] % 6, row[mine])), shape=(6 * H, C.shape[0]))

    def of(self, mu):
        W = self.B @ mu
        W = W.reshape((-1, 6) + W.shape[1:])                      # (H, 6[, k])
        F = W[:, 3:] / self.L
        r = self.r if W.ndim == 2 else self.r[:, :, None]
        M = W[:, :3] - np.cross(r, F, axis=1)
        return np.linalg.norm(F, axis=1), np.linalg.norm(M, axis=1)


def hinge_resultants(structure, model, mu):
    """(|F| (H,), |M| (H,)) of every hinge for scaled multipliers ``mu`` (:class:`HingeResultants`)."""
    return HingeResultants(structure, model).of(mu)


def sample_hinges(F, M, n=None, every=None, seed=0):
    """(hinges, exhaustive): every hinge when there are at most ``every`` (default :data:`EVERY_HINGE`), else the
    ``n // 2`` most loaded (largest |F| / largest |F| + |M| / largest |M|) and ``n - n // 2`` of the others drawn at
    random (``seed``; ``n`` default :data:`HINGE_SAMPLE`)."""
    n = HINGE_SAMPLE if n is None else n
    every = EVERY_HINGE if every is None else every
    H = len(F)
    if H <= max(n, every):
        return np.arange(H), True
    load = F / (F.max() or 1.0) + M / (M.max() or 1.0)
    top = np.argsort(-load, kind="stable")[:n // 2]
    rest = np.setdiff1d(np.arange(H), top)
    drawn = np.random.default_rng(seed).choice(rest, n - n // 2, replace=False)
    return np.sort(np.concatenate([top, drawn])), False


def hinge_doubling(structure, solver, mu, kind_of, spring, hinges):
    """How much each of ``hinges`` changes the answer when its own stiffness alone is doubled: {name: (dF, dM)}
    for the names of :data:`DOUBLINGS` (its locked translations' K_t, rotations' K_r, both), dF and dM (len(hinges),)
    the largest changes of any hinge's |F| and |M| over the largest (:func:`resultant_changes`).

    Exact, not a derivative. Stiffening the hinge's locked rows R by factors s (1 or 2) adds a parallel spring
    whose force p = (s - 1) a_R, a the multipliers of the old law F a + Cs u' = 0; equilibrium Cs^T a = -(f + Cs_R^T
    p) makes a = mu + G p with G (m x |R|) the multipliers' response to the loads Cs_R^T (a unit multiplier's
    generalised forces: ``Solver.load_response``), so (I - (s - 1) G_RR) p = (s - 1) mu_R and the new multipliers
    are mu + G p, plus p on R. One multi-right-hand-side solve for all the hinges' rows, no refactorisation (its
    responses are forces of the order of one: well scaled, where unit misfits on stiff rows are not). ``solver``:
    the factored answer ``mu`` came from; ``kind_of``, ``spring``: its model's row kinds and spring mask."""
    model = solver.model
    kind_of, spring = np.asarray(kind_of), np.asarray(spring, bool)
    res = HingeResultants(structure, model)
    F0, M0 = res.of(mu)
    W0 = res.B @ mu
    rows = [np.arange(r.start, r.stop)[~spring[r]] for r in (model.hinge_rows[h] for h in hinges)]
    cols = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)
    G = solver.load_response(model.Cs[cols].T.toarray()) if len(cols) else np.zeros((solver.m, 0))
    BG = res.B @ G                           # the wrenches of the responses (6H x |cols|)
    out = {name: (np.zeros(len(hinges)), np.zeros(len(hinges))) for name, _, _ in DOUBLINGS}
    at = 0
    for k, R in enumerate(rows):
        block = slice(at, at + len(R))
        at += len(R)
        GRR = G[R, block]
        rot = kind_of[R] == "r"
        P = []
        for name, ft, fr in DOUBLINGS:
            c = np.where(rot, fr, ft) - 1.0
            P.append(np.linalg.solve(np.eye(len(R)) - c[:, None] * GRR, c * mu[R]))
        P = np.array(P).T                                          # (|R|, len(DOUBLINGS))
        W = W0[:, None] + BG[:, block] @ P + res.B[:, R] @ P       # mu + G p, plus p on R
        W = W.reshape(-1, 6, P.shape[1])
        F1 = np.linalg.norm(W[:, 3:] / res.L, axis=1)
        M1 = np.linalg.norm(W[:, :3] - np.cross(res.r[:, :, None], W[:, 3:] / res.L, axis=1), axis=1)
        dF, dM = resultant_changes(F0, M0, F1.T, M1.T, model.L)
        for j, (name, _, _) in enumerate(DOUBLINGS):
            out[name][0][k], out[name][1][k] = dF[j], dM[j]
    return out


def hinge_sensitivity(structure, solver, mu, kind_of, spring, isostatic=False):
    """The largest change of the answer ``mu`` (of ``solver``) when one hinge's stiffness alone is doubled
    (:func:`hinge_doubling` on every hinge up to :data:`EVERY_HINGE`, else on :data:`HINGE_SAMPLE` of them,
    :func:`sample_hinges`): {"F", "M": the largest changes of |F| and |M| over their largest, "at_F", "at_M": the
    doubling that gives each ({"hinge": 1-based, "which": "k_t", "k_r" or "both"}), "tried": hinges tried, "of": all
    hinges, "method": "exact, every hinge" or what was sampled}. ``isostatic``: the answer does not depend on the
    stiffness: all 0, none tried. Both engines' linear elastic solves use it."""
    H = len(structure.pattern.hinges)
    out = {"F": 0.0, "M": 0.0, "at_F": None, "at_M": None, "tried": 0, "of": H,
           "method": "isostatic: the answer does not depend on the stiffness"}
    if isostatic or H == 0:
        return out
    F0, M0 = hinge_resultants(structure, solver.model, mu)
    hinges, every = sample_hinges(F0, M0)
    changes = hinge_doubling(structure, solver, mu, kind_of, spring, hinges)
    for c, key in ((0, "F"), (1, "M")):
        name, k = max(((n, int(np.argmax(v[c]))) for n, v in changes.items()), key=lambda t: changes[t[0]][c][t[1]])
        out[key] = float(changes[name][c][k])
        out[f"at_{key}"] = {"hinge": int(hinges[k]) + 1, "which": name}
    out["tried"] = len(hinges)
    out["method"] = ("exact, every hinge" if every else
                     f"sampled: exact for {len(hinges)} of the {H} hinges (the {len(hinges) // 2} most loaded, the "
                     f"others drawn at random); a hinge not tried may change it more")
    return out


class Solver:
    """The factored saddle-point system of one operator and flexibility (module doc).

    ``solve(e, f)`` -> mu (scaled multipliers); ``K_columns(rows)`` -> K[:, rows]
    with K = S (S^T F S)^-1 S^T, the map from misfit to locked-in multipliers.

    Factorisation: the saddle-point system [F Cr; Cr^T 0] (Cr = Cs without the
    held columns) is solved by eliminating mu = W (e - Cr u), W = F^-1: the
    hinge stiffness matrix Kh = Cr^T W Cr (6P x 6P, symmetric positive
    definite) is factored once (SuperLU, symmetric mode, minimum-degree
    ordering on Kh's pattern, no pivoting: a sparse Cholesky), and every
    solve is refined on the saddle-point system itself until its relative
    residual is below :data:`RESIDUAL_RTOL` (Kh squares the condition number
    of Cr; the refinement recovers the accuracy of the saddle-point form).
    Where that does not converge in :data:`REFINEMENT_STEPS` steps, the
    saddle-point system is factored directly (SuperLU with partial pivoting).
    """

    def __init__(self, model, flex, held=None, name="the structure"):
        """``model``: a :class:`~.operator.Model`; ``flex``: F (m,) (0 on rigid rows); ``held``: columns of Cs
        held fixed (none by default); ``name``: the structure's, for messages."""
        self.name = name
        self.model, self.F = model, np.asarray(flex, float)
        self.held = np.zeros(0, dtype=np.int64) if held is None else np.asarray(held, dtype=np.int64)
        m, n = model.Cs.shape
        pos = self.F > 0
        self.phi = float(self.F[pos].mean()) if np.any(pos) else 1.0
        self.free = np.setdiff1d(np.arange(n), self.held)
        self.Cr = model.Cs.tocsc()[:, self.free]
        Fs = self.F / self.phi
        self._A = sp.bmat([[sp.diags(Fs), self.Cr], [self.Cr.T, None]], format="csr")
        self.method = "stiffness"
        self._saddle = None
        # rigid rows (supports) get the flexibility SUPPORT_FLEXIBILITY in the factor only; the refinement on the
        # saddle-point system, where they are rigid, removes its effect
        self.W = 1.0 / np.where(pos, Fs, SUPPORT_FLEXIBILITY)
        Kh = (self.Cr.T @ sp.diags(self.W) @ self.Cr).tocsc()
        try:
            self.lu = spla.splu(Kh, permc_spec="MMD_AT_PLUS_A", diag_pivot_thresh=0.0,
                                options=dict(SymmetricMode=True))
        except RuntimeError:
            self._factor_saddle()

    def _factor_saddle(self):
        self.method = "saddle"
        try:
            self._saddle = spla.splu(self._A.tocsc(), permc_spec="COLAMD")
        except RuntimeError as exc:   # SuperLU: "Factor is exactly singular"
            raise SolverError(f"{self.name}: the elastic-hinge system is singular ({exc}); a self-stress "
                              "state that loads only rigid supports cannot be resolved by hinge flexibility") from None

    @property
    def m(self):
        return self.model.Cs.shape[0]

    def _apply(self, rhs):
        """One approximate solve of the saddle-point system (scaled) for ``rhs`` (n_total x k or n_total)."""
        if self._saddle is not None:
            return self._saddle.solve(rhs)
        m = self.m
        e, g = rhs[:m], rhs[m:]
        W = self.W if rhs.ndim == 1 else self.W[:, None]
        u = self.lu.solve(self.Cr.T @ (W * e) - g)
        return np.concatenate([W * (e - self.Cr @ u), u], axis=0)

    def _solve(self, rhs_top, rhs_bottom, rtol=None):
        """Solve the (scaled) saddle-point system, refined to relative residual ``rtol`` (:data:`RESIDUAL_RTOL`)."""
        rtol = RESIDUAL_RTOL if rtol is None else rtol
        rhs = np.concatenate([rhs_top, rhs_bottom], axis=0)
        with np.errstate(over="ignore", invalid="ignore"):
            norm = max(float(np.linalg.norm(rhs)), 1e-300)
            x = self._apply(rhs)
        if not (np.isfinite(norm) and np.all(np.isfinite(x))):
            raise imp.ToleranceError(f"{self.name}: the misfit or the loads overflow (the locked-in "
                                     f"actions are not finite numbers); give tolerances and errors small against "
                                     f"the panels")
        for _ in range(REFINEMENT_STEPS):
            r = rhs - self._A @ x
            if np.linalg.norm(r) <= rtol * norm:
                return x
            x += self._apply(r)
        if np.linalg.norm(rhs - self._A @ x) <= rtol * norm:
            return x
        if self._saddle is None:      # the stiffness form is too ill-conditioned: factor the saddle point
            self._factor_saddle()
            return self._solve(rhs_top, rhs_bottom, rtol)
        raise SolverError(f"{self.name}: the elastic-hinge solve did not reach a relative residual of "
                          f"{rtol:g} (got {np.linalg.norm(rhs - self._A @ x) / norm:.3g})")

    def solve(self, e=None, f=None, displacements=False):
        """mu (m,) for misfit ``e`` (m,) and generalised loads ``f`` (6P,) (zeros when None); with
        ``displacements`` also u (6P,): the scaled displacements (omega, w / L) of the bodies, 0 on the held
        columns (F mu + Cs u = e)."""
        m = self.m
        e = np.zeros(m) if e is None else np.asarray(e, float)
        f = np.zeros(self.model.Cs.shape[1]) if f is None else np.asarray(f, float)
        x = self._solve(e, -self.phi * f[self.free])
        if not displacements:
            return x[:m] / self.phi
        u = np.zeros(self.model.Cs.shape[1])
        u[self.free] = x[m:]
        return x[:m] / self.phi, u

    def load_response(self, G, rtol=None):
        """The multipliers (m x k) of generalised loads G (6P x k) without misfit, one multi-RHS solve (relative
        residual ``rtol``)."""
        G = np.asarray(G, float)
        x = self._solve(np.zeros((self.m, G.shape[1])), -self.phi * G[self.free], rtol)
        return x[:self.m] / self.phi

    def K_columns(self, rows, rtol=None):
        """K[:, rows] (m x len(rows)), one multi-RHS solve (relative residual ``rtol``)."""
        rows = np.asarray(rows, dtype=np.int64)
        E = np.zeros((self.m, len(rows)))
        E[rows, np.arange(len(rows))] = 1.0
        return self.K_apply(E, rtol)

    def K_apply(self, E, rtol=None):
        """K E for misfits E (m x k) (relative residual ``rtol``, default :data:`RESIDUAL_RTOL`)."""
        x = self._solve(E, np.zeros((len(self.free), E.shape[1])), rtol)
        return x[:self.m] / self.phi
