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


def vertex_displacements(structure, model, u):
    """(largest |displacement| of a panel vertex, its ratio to the structure's size L) for scaled u (6P,)."""
    slots = imp.vertex_slots(structure.pattern)
    if not len(slots):
        return 0.0, 0.0
    U = u.reshape(-1, 6)
    p = slots[:, 0]
    x = structure.pattern.vertices[slots[:, 1]] - model.x0
    d = model.L * U[p, 3:] + np.cross(U[p, :3], x)
    big = float(np.linalg.norm(d, axis=1).max())
    return big, big / model.L


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
