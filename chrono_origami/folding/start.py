"""Leaving a singular start (e.g. a flat state) on the branch a mountain-valley assignment asks for.

At a singular configuration the first-order equations J v = b (b: the drive
rates) leave a family v = v0 + N c of velocities (N: null space of J). The
velocities that start a real folding branch also satisfy the second-order
condition: the acceleration of the constraints along the motion must lie in
the range of J, i.e. mu . d2F/dh2 (exp(h v) g, time h) = 0 at h = 0 for every
left null vector mu of J (a self-stress state of the start). These quadratic
equations in c are solved by Gauss-Newton from the velocity closest to the
assignment's signs; the result must fold every assigned hinge in its sign.
"""
import numpy as np

from ..errors import SolverError
from .lie import exp_update

#: relative singular value below which a direction of J counts as free
NULL_RTOL = 1e-9


def hinge_rates(C, R, v):
    """Relative angular rate (rad/s) of every hinge for the body velocities v (6N)."""
    V = v.reshape(-1, 6)
    out = np.zeros(len(C.hinges))
    for k, (h, p, q, t, m, n, P, sl) in enumerate(C.hinges):
        out[k] = (V[q, :3] - V[p, :3]) @ (R[p] @ t)
    return out


def branch_tangent(C, R, u, signs, time=0.0):
    """Body velocity (6N) starting the folding branch whose hinge rates have the given ``signs``.

    signs : array over hinges of +1, -1 (the driven-angle convention of
    ``problem``) or 0 (no preference).
    """
    F, J, Ft = C.evaluate(R, u, time)
    b = -Ft
    U, s, Vt = np.linalg.svd(J)
    rank = int(np.sum(s > NULL_RTOL * s[0]))
    N = Vt[rank:].T
    U0 = U[:, rank:]
    v0 = np.linalg.lstsq(J, b, rcond=NULL_RTOL)[0]
    signs = np.asarray(signs, float)
    if N.shape[1] == 0:
        return v0
    scale = np.linalg.norm(v0) or 1.0
    h = 1e-4 / scale

    def q(c):
        v = v0 + N @ c
        Fp = C.evaluate(*exp_update(R, u, (h * v).reshape(-1, 6)), time + h, False)[0]
        Fm = C.evaluate(*exp_update(R, u, (-h * v).reshape(-1, 6)), time - h, False)[0]
        return U0.T @ ((Fp + Fm - 2 * F) / h ** 2)

    # start: the velocity whose hinge rates best follow the signs, at the drives' magnitude
    Rv = np.zeros((len(C.hinges), C.n_cols))
    for k, (hh, p, qq, t, m, n, P, sl) in enumerate(C.hinges):
        tt = R[p] @ t
        Rv[k, 6 * qq:6 * qq + 3] = tt
        Rv[k, 6 * p:6 * p + 3] = -tt
    rate = np.abs(Rv @ v0).max() or 1.0
    sel = signs != 0
    A = (Rv @ N)[sel]
    c = np.linalg.lstsq(A, signs[sel] * rate - (Rv @ v0)[sel], rcond=None)[0] if sel.any() else np.zeros(N.shape[1])
    def gauss_newton(c):
        qc = q(c)
        for _ in range(40):
            Jq = np.empty((len(qc), len(c)))
            eps = 1e-6 * max(1.0, np.linalg.norm(c))
            for j in range(len(c)):
                e = np.zeros(len(c))
                e[j] = eps
                Jq[:, j] = (q(c + e) - q(c - e)) / (2 * eps)
            dc = np.linalg.lstsq(Jq, -qc, rcond=1e-12)[0]
            c = c + dc
            qc = q(c)
            if np.linalg.norm(dc) < 1e-11 * max(1.0, np.linalg.norm(c)):
                break
        return c, float(np.abs(qc).max())

    # several starts: the sign guess at three magnitudes, then random ones; keep the
    # branch velocities (second-order residual ~ 0) that fold every assigned hinge in its sign
    rng = np.random.default_rng(0)
    starts = [c * f for f in (1.0, 0.3, 3.0)] + [rng.standard_normal(len(c)) * (np.linalg.norm(c) + 1.0)
                                                  for _ in range(40)]
    best, found = None, 0
    for c_start in starts:
        c1, res = gauss_newton(c_start)
        v = v0 + N @ c1
        if res > 1e-6 * max(rate, np.abs(Rv @ v).max()) ** 2:
            continue
        found += 1
        rates = Rv @ v
        bad = np.nonzero(sel & (np.sign(rates) != signs) & (np.abs(rates) > 1e-6 * rate))[0]
        if len(bad) == 0:
            dist = np.linalg.norm(c1 - c)
            if best is None or dist < best[1]:
                best = (v, dist)
        if best is not None and found > 4:
            break
    if best is None:
        raise SolverError("no folding branch leaves this start with the hinge signs of the mountain-valley "
                          f"assignment ({found} branch directions tried): the assignment is not rigidly foldable "
                          "from this state")
    v = best[0]
    return v
