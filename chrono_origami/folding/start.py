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

from .. import linalg
from ..errors import SolverError
from ..sparseqr import NULLITY_LIMIT
from .jacobian import Jacobian
from .lie import exp_update

#: relative singular value below which a direction of J counts as free
NULL_RTOL = 1e-9


def hinge_rates(C, R, v):
    """Relative angular rate (rad/s) of every hinge for the body velocities v (6N)."""
    return C.hinge_rate_operator(R) @ v


def branch_tangent(C, R, u, signs, time=0.0, method="auto"):
    """Body velocity (6N) starting the folding branch whose hinge rates have the given ``signs``.

    signs : array over hinges of +1, -1 (the driven-angle convention of
    ``problem``) or 0 (no preference). method : ``linalg.choose_method``'s;
    both null spaces of J come from ``linalg.null_space`` (dense SVD, or the
    sparse QR path, which resolves null spaces of up to
    ``sparseqr.NULLITY_LIMIT`` dimensions).
    """
    F, J, Ft = C.evaluate(R, u, time)
    b = -Ft
    ns = linalg.null_space(J, NULL_RTOL, method, left=True)
    N, U0 = ns.basis, ns.left
    if U0 is None:
        raise SolverError(f"the singular start has more than {NULLITY_LIMIT} self-stress states; choosing its folding "
                          "branch on the sparse path resolves at most that many (use a smaller pattern or "
                          "linalg='dense')")
    v0 = Jacobian(J, method).solve(b)
    v0 = v0 - N @ (N.T @ v0)          # the minimum-norm solution: nothing along the null space
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
    Rv = C.hinge_rate_operator(R)
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
