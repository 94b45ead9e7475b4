"""The energy-momentum time step (Part II, eq. 10) and its two solvers.

The step from (q_n, v_n) to (q_{n+1}, v_{n+1}) is the midpoint rule with a
discrete gradient (``forces``):

    q_{n+1} - q_n = dt (v_n + v_{n+1}) / 2
    M (v_{n+1} - v_n) = dt F_bar(q_n, q_{n+1}) - dt G(q_{n+1/2})^T lambda_bar
    Phi(q_{n+1}) = 0

Eliminating v_{n+1} = 2 (q_{n+1} - q_n) / dt - v_n leaves the residual

    r(q_{n+1}) = 2/dt M (q_{n+1} - q_n) - 2 M v_n - dt F_bar,   r + dt G_mid^T lambda = 0.

* ``constrained``: Newton on (q_{n+1}, lambda_bar), n + m unknowns (the
  moving bodies' coordinates, as increments q_{n+1} - q_n, and the
  independent constraints); iteration matrix
  [[2/dt M + dt/2 sum lambda_k H_k - dt dF_bar/dq, dt G_mid^T], [G(q_{n+1}), 0]].
* ``reduced`` (the discrete null space method): q_{n+1} = F_{q_n}(u) satisfies
  the open-loop constraints for any u (``Multibody.reparam``); Newton on u
  solves [P(q_n, q_{n+1})^T r; Phi_c(F(u))] = 0, P the discrete null space
  matrix (without closures: P^T r = 0 alone, n - m unknowns). Its iteration
  matrix is the derivative of that residual, by central differences evaluated
  as one batch (step 1e-6 rad or 1e-6 L per unknown).

Both solve the same equations, so they give the same motion; energy is kept
exactly (to the Newton tolerance) for conservative forces: the constraints
are quadratic, so G_mid (q_{n+1} - q_n) = Phi(q_{n+1}) - Phi(q_n) = 0, and
F_bar . (q_{n+1} - q_n) is the exact change of the potential.

Newton stops when the scaled update (angles in rad, translations / L,
multipliers / their scale) is below ``tol``; ``max_iterations`` without that
raise :class:`~chrono_origami.tools.errors.DynamicsError`.

Predictor: the linear extrapolation 2 u_n - u_{n-1} of the last increments
when they change little (scaled change <= ``SMOOTH``; then the last increments
are tried next), else the last increments; at the first step, from the initial generalised velocities
nu0: angle increments 2 atan(dt rate / 2) (exact for a steady rotation under
the midpoint rule) and translations dt rate. When Newton fails from these
(large steps: the gyro top at dt = 0.05 turns 2.6 rad per step), the step is
solved by continuation in the step size, dt k / K for k = 1..K, from the
velocity predictor. Rotation increments are kept to |theta| <= pi, and a
root with a half turn is rejected (``Integrator._half_turn``).
"""
import time as wallclock
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from ....tools.errors import DynamicsError
from .body import pint, pint_t

SCHEMES = ("reduced", "constrained")
TOL = 1e-10
MAX_ITERATIONS = 15
FD_STEP = 1e-6
#: largest scaled change between the last two increments for which the predictor extrapolates linearly
SMOOTH = 0.05


@dataclass
class StepResult:
    q: np.ndarray
    v: np.ndarray
    u: np.ndarray                 # open-loop increments (reduced) or those of the converged q (constrained: None)
    lam: np.ndarray = None        # step multipliers (constrained only)
    iterations: int = 0
    jacobian: np.ndarray = None   # the last iteration matrix
    info: list = field(default_factory=list)   # per hinge term (dphi, s)


class Integrator:
    """Energy-momentum steps of a :class:`~.multibody.Multibody` by the ``scheme`` solver."""

    def __init__(self, mb, dt, scheme="reduced", tol=TOL, max_iterations=MAX_ITERATIONS, fd_step=FD_STEP):
        if scheme not in SCHEMES:
            raise ValueError(f"unknown scheme {scheme!r}; expected one of {SCHEMES}")
        self.mb, self.dt, self.scheme = mb, float(dt), scheme
        self.tol, self.max_iterations, self.fd_step = tol, max_iterations, fd_step
        mb_ = mb
        self.u_scale = np.where(mb_.units == "t", mb_.length, 1.0)
        C = mb_.C
        self.rows = [r for r in range(C.m) if r not in set(mb_.dropped_rows)]
        self.free = np.flatnonzero(np.repeat(mb_.moving, 12))
        self.Mfree = mb_.M.ravel()[self.free]
        self.lam = np.zeros(len(self.rows))
        self._rotvecs = [slice(sl.start + 3, sl.stop) if k is None else slice(sl.start, sl.start + 3)
                         for (b, k), sl in zip(mb_.order, mb_.slices)
                         if k is None or mb_.pairs[k].kind in ("S", "support")]
        vec_idx = {i for sl in self._rotvecs for i in range(sl.start, sl.stop)}
        self._angles = np.array([i for i in range(mb_.d_open) if mb_.units[i] == "a" and i not in vec_idx], int)
        self._h = self.fd_step * self.u_scale
        self._shifts = np.vstack([np.zeros(mb_.d_open), np.diag(self._h), -np.diag(self._h)])

    # ------------------------------------------------------------------ reduced
    def residual(self, U, qn, vn, state, tn, phi_n, dt=None):
        """Reduced residual (N, d_open) and q_{n+1} (N, B, 4, 3) for a batch of increments U (N, d_open)."""
        mb = self.mb
        dt = self.dt if dt is None else dt
        dq = mb.reparam(U, qn, state)
        q = qn + dq
        qm = qn + 0.5 * dq
        F, info = mb.forces.step(qn, q, tn, dt, phi_n)
        r = (2.0 / dt) * mb.M * dq - 2.0 * mb.M * vn - dt * F
        w = _pint_t_moving(qm, r, mb.moving)
        edges = mb.edges(qm)
        R = mb.backward(edges, w)
        if mb.closure_rows:
            A = mb.closure_matrix(qm, edges, mb.closure_rows)
            P = mb.null_oc(A)
            R = np.concatenate([np.einsum("nji,nj->ni", P, R), mb.C.phi(q, mb.closure_rows)], axis=1)
        return R, q, info

    def jacobian(self, u, qn, vn, state, tn, phi_n, dt=None):
        """(R(u), dR/du by central differences, q(u), info) in one batched evaluation."""
        d = len(u)
        U = u + self._shifts
        R, q, info = self.residual(U, qn, vn, state, tn, phi_n, dt)
        J = ((R[1:d + 1] - R[d + 1:]) / (2.0 * self._h)[:, None]).T
        return R[0], J, q[0], [(dp[0], s[0]) for dp, s in info]

    def _newton(self, u, args, dt, max_iterations):
        """Newton with backtracking on the merit |R w| (R is dual to u, so R w has one unit) for large steps.

        Returns (u, iterations, last matrix) or (None, iterations, None) without convergence."""
        w = self.u_scale
        u = np.array(u, float)
        for it in range(1, max_iterations + 1):
            R, J, _, _ = self.jacobian(u, *args, dt)
            try:
                du = np.linalg.solve(J, -R)
            except np.linalg.LinAlgError:
                return None, it, None
            if np.max(np.abs(du) / w) > 0.1:
                merit = np.linalg.norm(R * w)
                lam = 1.0
                for _ in range(8):
                    Rt, _, _ = self.residual((u + lam * du)[None], *args, dt)
                    if np.all(np.isfinite(Rt)) and np.linalg.norm(Rt[0] * w) < merit:
                        break
                    lam *= 0.5
                du = lam * du
            u, wrapped = self._wrap(u + du)
            if not np.all(np.isfinite(u)):
                return None, it, None
            if not wrapped and np.max(np.abs(du) / w) <= self.tol:
                if self._half_turn(u):
                    return None, it, None
                return u, it, J
        return None, max_iterations, None

    def _continuation(self, args, qn, vn):
        """Newton along dt' = dt k / K, k = 1..K, from the velocity predictor (a fallback for large steps)."""
        nu = generalised_velocities(self.mb, qn, vn)
        total = 0
        for K in (8, 32, 128):
            u_prev = u = None
            for k in range(1, K + 1):
                dt_k = self.dt * k / K
                guess = self.predictor(nu, dt_k) if u is None else (u if u_prev is None else 2 * u - u_prev)
                new, it, J = self._newton(guess, args, dt_k, self.max_iterations)
                total += it
                if new is None:
                    break
                u_prev, u = u, new
            else:
                return u, total, J
        return None, total, None

    def step_reduced(self, qn, vn, state, tn, phi_n, guesses):
        args = (qn, vn, state, tn, phi_n)
        it = 0
        for g in guesses:
            u, k, J = self._newton(g, args, self.dt, self.max_iterations)
            it += k
            if u is not None:
                break
        if u is None:
            u, it2, J = self._continuation(args, qn, vn)
            it += it2
            if u is None:
                raise DynamicsError(f"t = {tn:.6g} s: Newton did not converge (reduced scheme, dt = {self.dt:g} s, "
                                    f"{it} iterations, with continuation in the step size)", time=tn)
        dq = self.mb.reparam(u[None], qn, state)[0]
        _, info = self.mb.forces.step(qn, (qn + dq)[None], tn, self.dt, phi_n)
        v1 = (2.0 / self.dt) * dq - vn
        return StepResult(qn + dq, v1 * self.mb.moving[:, None, None], u, iterations=it, jacobian=J,
                          info=[(dp[0], s[0]) for dp, s in info])

    def _wrap(self, u):
        """The same rotations with every rotation vector of norm <= pi (exp is 2 pi-periodic along its axis);
        (u, whether any was changed). A changed iterate is not accepted as converged."""
        wrapped = False
        for sl in self._rotvecs:
            th = u[sl]
            a = np.sqrt(th @ th)
            if a > np.pi:
                u[sl] = th * (1.0 - 2.0 * np.pi * np.round(a / (2.0 * np.pi)) / a)
                wrapped = True
        if len(self._angles):
            a = u[self._angles]
            big = np.abs(a) > np.pi
            if big.any():
                u[self._angles] = a - 2.0 * np.pi * np.round(a / (2.0 * np.pi))
                wrapped = True
        return u, wrapped

    def _half_turn(self, u):
        """True when a rotation increment is within 1e-3 rad of pi: there the midpoint directors are singular
        (for a half turn about a, (d_n + d_{n+1}) / 2 = (a . d_n) a), the discrete null space matrix loses
        rank and P^T r = 0 has spurious roots; such a root is not a solution of the step."""
        lim = np.pi - 1e-3
        if any(np.sqrt(u[sl] @ u[sl]) > lim for sl in self._rotvecs):
            return True
        return bool(len(self._angles) and np.any(np.abs(u[self._angles]) > lim))

    # ------------------------------------------------------------------ constrained
    def _constrained_parts(self, x, qn, vn, tn, phi_n):
        mb, dt, C = self.mb, self.dt, self.mb.C
        nf = len(self.free)
        dq = np.zeros_like(qn)
        dq.reshape(-1)[self.free] = x[:nf]
        q = qn + dq
        lam = x[nf:]
        qm = qn + 0.5 * dq
        F, info = mb.forces.step(qn, q[None], tn, dt, phi_n)
        Gm = C.jacobian(qm, self.rows)[:, self.free]
        Gq = C.jacobian(q, self.rows)[:, self.free]
        r = ((2.0 / dt) * mb.M * dq - 2.0 * mb.M * vn - dt * F[0]).ravel()[self.free]
        R = np.concatenate([r + dt * (Gm.T @ lam), C.phi(q, self.rows)])
        return R, q, Gm, Gq, info

    def constrained_matrix(self, x, qn, vn, tn, phi_n):
        """The constrained scheme's residual and iteration matrix (sparse) at x = (q_free, lambda)."""
        mb, dt, C = self.mb, self.dt, self.mb.C
        R, q, Gm, Gq, info = self._constrained_parts(x, qn, vn, tn, phi_n)
        nf = len(self.free)
        lam_full = np.zeros(C.m)
        lam_full[self.rows] = x[nf:]
        K = sp.diags((2.0 / dt) * self.Mfree) + (0.5 * dt) * C.hessian(lam_full)[self.free][:, self.free]
        if not mb.forces.linear_only:
            K = K + sp.csr_matrix(self._force_jacobian(q, qn, tn, phi_n))
        J = sp.bmat([[K, dt * Gm.T], [Gq, None]], format="csc")
        return R, J, q, info

    def _force_jacobian(self, q, qn, tn, phi_n):
        """-dt dF_bar/dq_{n+1} on the free coordinates by central differences (hinge terms only)."""
        nf = len(self.free)
        h = self.fd_step * self.mb.length
        Q = np.repeat(q[None], 2 * nf, axis=0)
        flat = Q.reshape(2 * nf, -1)
        flat[np.arange(nf), self.free] += h
        flat[nf + np.arange(nf), self.free] -= h
        F, _ = self.mb.forces.step(qn, Q, tn, self.dt, phi_n)
        Ff = F.reshape(2 * nf, -1)[:, self.free]
        return -self.dt * ((Ff[:nf] - Ff[nf:]) / (2 * h)).T

    def step_constrained(self, qn, vn, tn, phi_n, dq_guess, lam_guess):
        nf = len(self.free)
        x = np.concatenate([dq_guess.reshape(-1)[self.free], lam_guess])
        lam_scale = None
        for it in range(1, self.max_iterations + 1):
            R, J, q, info = self.constrained_matrix(x, qn, vn, tn, phi_n)
            try:
                dx = spla.splu(J).solve(-R)
            except RuntimeError:
                raise DynamicsError(f"t = {tn:.6g} s: the constrained iteration matrix is singular", time=tn) from None
            x = x + dx
            if not np.all(np.isfinite(x)):
                break
            if lam_scale is None:
                lam_scale = max(np.max(np.abs(x[nf:]), initial=0.0), 1e-300)
            lam_scale = max(lam_scale, np.max(np.abs(x[nf:]), initial=0.0))
            err_q = np.max(np.abs(dx[:nf])) / self.mb.length
            err_l = np.max(np.abs(dx[nf:]), initial=0.0) / lam_scale if lam_scale > 1e-300 else 0.0
            if err_q <= self.tol and err_l <= max(self.tol, 1e-8):
                dq = np.zeros_like(qn)
                dq.reshape(-1)[self.free] = x[:nf]
                q = qn + dq
                F, info = self.mb.forces.step(qn, q[None], tn, self.dt, phi_n)
                v1 = (2.0 / self.dt) * dq - vn
                return StepResult(q, v1 * self.mb.moving[:, None, None], None, lam=x[nf:], iterations=it,
                                  jacobian=J, info=[(dp[0], s[0]) for dp, s in info])
        raise DynamicsError(f"t = {tn:.6g} s: Newton did not converge in {self.max_iterations} iterations "
                            f"(constrained scheme, dt = {self.dt:g} s)", time=tn)

    # ------------------------------------------------------------------ driver
    def predictor(self, nu, dt=None):
        """First-step increments from generalised velocities nu (module doc)."""
        mb = self.mb
        dt = self.dt if dt is None else dt
        u = np.array(nu, float) * dt
        for (b, k), sl in zip(mb.order, mb.slices):
            if k is None:
                w = np.asarray(nu[sl][3:], float)
                a = np.linalg.norm(w)
                u[sl.start + 3:sl.stop] = (2.0 * np.arctan(0.5 * dt * a) / a) * w if a > 0 else 0.0
            else:
                ang = mb.units[sl] == "a"
                idx = np.arange(sl.start, sl.stop)[ang]
                if mb.pairs[k].kind in ("S", "support"):
                    w = np.asarray(nu[idx], float)
                    a = np.linalg.norm(w)
                    u[idx] = (2.0 * np.arctan(0.5 * dt * a) / a) * w if a > 0 else 0.0
                else:
                    u[idx] = 2.0 * np.arctan(0.5 * dt * np.asarray(nu[idx], float))
        return u

    def step(self, qn, vn, state, tn, phi_n, guesses):
        """One step from the predicted increments ``guesses`` (tried in turn; then continuation in dt):
        a :class:`StepResult` (the constrained scheme keeps its multipliers for the next guess)."""
        if self.scheme == "reduced":
            return self.step_reduced(qn, vn, state, tn, phi_n, guesses)
        u_guess = guesses[0]
        dq_guess = self.mb.reparam(u_guess[None], qn, state)[0]
        res = self.step_constrained(qn, vn, tn, phi_n, dq_guess, self.lam)
        self.lam = res.lam
        res.u = self.increments(qn, res.q, u_guess, state)
        return res

    def increments(self, qn, q1, u_guess, state):
        """The open-loop increments u with F_{q_n}(u) = q1 (Newton on the reparametrisation, least squares)."""
        u = np.array(u_guess, float)
        d = len(u)
        h = self.fd_step * self.u_scale
        for _ in range(20):
            U = np.repeat(u[None], 2 * d + 1, axis=0)
            U[1:d + 1] += np.diag(h)
            U[d + 1:] -= np.diag(h)
            Q = self.mb.reparam(U, qn, state).reshape(2 * d + 1, -1)
            J = ((Q[1:d + 1] - Q[d + 1:]) / (2 * h)[:, None]).T
            du = np.linalg.lstsq(J, (q1 - qn).ravel() - Q[0], rcond=None)[0]
            u += du
            if np.max(np.abs(du) / self.u_scale) <= 1e-13:
                break
        return u


def _pint_t_moving(q, g, moving):
    return pint_t(q, g) * moving[:, None]


def generalised_velocities(mb, q, v):
    """Least-squares nu with P(q) nu = v (open-loop coordinates), v consistent velocities (B, 4, 3)."""
    qq = q[None]
    edges = mb.edges(qq)
    eye = np.eye(mb.d_open)
    cols = [pint(qq, mb.forward(edges, eye[None, j]))[0].ravel() for j in range(mb.d_open)]
    P = np.array(cols).T * np.repeat(mb.moving, 12)[:, None]
    return np.linalg.lstsq(P, v.ravel(), rcond=None)[0]


@dataclass
class Run:
    """Output of :func:`integrate`: times, configurations, velocities and what the steps reported."""

    t: np.ndarray
    q: np.ndarray                  # (K, B, 4, 3)
    v: np.ndarray                  # (K, B, 4, 3)
    angles: np.ndarray             # (K, number of hinge terms) unwrapped fold angles
    joint: np.ndarray              # (K, d_open) accumulated open-loop coordinates (angles, slides) from t = 0
    work: np.ndarray               # (K,) motor work from t0
    dissipated: np.ndarray         # (K,)
    iterations: np.ndarray         # per step
    conditions: dict               # step index -> condition number of the iteration matrix
    wall: float = 0.0


def integrate(mb, dt, n_steps, v0, scheme="reduced", stride=1, nu0=None, condition_at=(), progress=None,
              **options):
    """Integrate n_steps of ``dt`` from (q0, v0); record every ``stride`` steps (and the last).

    ``condition_at``: step indices (0-based: the step from t_k) at which the condition number of the
    iteration matrix at the converged solution is recorded. Returns a :class:`Run`.
    """
    integ = Integrator(mb, dt, scheme, **options)
    q, v = mb.q0.copy(), np.array(v0, float)
    state = mb.initial_state()
    if nu0 is None:
        nu0 = generalised_velocities(mb, q, v)
    u = integ.predictor(nu0)
    u_prev = None
    phi = mb.forces.angles(q)
    joint = np.zeros(mb.d_open)
    rec = {k: [] for k in ("t", "q", "v", "angles", "joint", "work", "dissipated")}
    work = diss = 0.0
    its = []
    conds = {}
    want = set(condition_at)

    def record(t):
        rec["t"].append(t)
        rec["q"].append(q.copy())
        rec["v"].append(v.copy())
        rec["angles"].append(phi.copy())
        rec["joint"].append(joint.copy())
        rec["work"].append(work)
        rec["dissipated"].append(diss)

    record(0.0)
    start = wallclock.perf_counter()
    for n in range(n_steps):
        tn = n * dt
        if mb.closure_rows:
            mb.repartition(q, force=False)
        if u_prev is not None and np.max(np.abs(u - u_prev) / integ.u_scale) <= SMOOTH:
            guesses = [2.0 * u - u_prev, u]
        else:
            guesses = [u]
        try:
            res = integ.step(q, v, state, tn, phi, guesses)
        except DynamicsError as e:
            e.run = _run(rec, its, conds, wallclock.perf_counter() - start)     # the motion up to the stop
            raise
        for h, (dphi, s) in zip(mb.forces.terms, res.info):
            if h.torque is not None:
                work += float(h.torque(tn + 0.5 * dt)) * (-dphi)
            diss += h.c * dphi * dphi / dt
        if n in want:
            J = res.jacobian.toarray() if sp.issparse(res.jacobian) else res.jacobian
            conds[n] = float(np.linalg.cond(J))
        phi = phi + np.array([dp for dp, _ in res.info]) if res.info else phi
        state = mb.advance(state, res.u)
        joint = joint + res.u
        u_prev, u = u, res.u
        q, v = res.q, res.v
        its.append(res.iterations)
        if (n + 1) % stride == 0 or n + 1 == n_steps:
            record((n + 1) * dt)
        if progress is not None:
            progress(n + 1, n_steps)
    return _run(rec, its, conds, wallclock.perf_counter() - start)


def _run(rec, its, conds, wall):
    K = len(rec["t"])
    return Run(np.array(rec["t"]), np.array(rec["q"]), np.array(rec["v"]), np.array(rec["angles"]).reshape(K, -1),
               np.array(rec["joint"]), np.array(rec["work"]), np.array(rec["dissipated"]), np.array(its), conds, wall)
