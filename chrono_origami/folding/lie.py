"""The Euclidean group E = SE(3) and its exponential map (paper eqs. 16-19).

A rigid motion g = (R, u) maps a point X of the reference configuration to
x = R X + u. Composition (eq. 16): (R, u) o (R', u') = (R R', R u' + u).

An element of the Lie algebra is written as the 6-vector (omega, w) with
W = skew(omega); exp((omega, w)) = (R, A w) with R from eq. (17) and A from
eq. (19). The Newton update of eq. (33), g <- exp(delta) g, moves a point x of
the body by omega x x + w to first order: w is the velocity of the body point
at the origin, the convention of ``reference.operators``.
"""
import numpy as np

from ..geometry import skew

#: below this rotation angle (rad) the series expansions of eqs. (17), (19) are used
_SMALL = 1e-6


def exp_se3(omega, w):
    """(R, u) = exp((omega, w)), eqs. (17)-(19); omega in rad, w in length units."""
    omega = np.asarray(omega, float)
    w = np.asarray(w, float)
    th = float(np.linalg.norm(omega))
    W = skew(omega)
    W2 = W @ W
    if th < _SMALL:
        a, b, c = 1.0 - th * th / 6.0, 0.5 - th * th / 24.0, 1.0 / 6.0 - th * th / 120.0
    else:
        a, b, c = np.sin(th) / th, (1.0 - np.cos(th)) / th ** 2, (1.0 - np.sin(th) / th) / th ** 2
    R = np.eye(3) + a * W + b * W2          # eq. (17), with W of unit axis times theta
    A = np.eye(3) + b * W + c * W2          # eq. (19)
    return R, A @ w                          # eq. (18)


def exp_update(R, u, delta):
    """Left update g_i <- exp(delta_i) g_i for every body (eq. 33); delta is (N, 6) = (omega_i, w_i)."""
    R_new = np.empty_like(R)
    u_new = np.empty_like(u)
    for i, d in enumerate(np.asarray(delta, float).reshape(-1, 6)):
        E, v = exp_se3(d[:3], d[3:])
        R_new[i] = E @ R[i]
        u_new[i] = E @ u[i] + v
    return R_new, u_new


def reorthonormalize(R):
    """Nearest rotation matrices (polar decomposition), to remove round-off drift."""
    U, _, Vt = np.linalg.svd(R)
    D = np.ones((len(R), 3))
    D[:, 2] = np.sign(np.linalg.det(U @ Vt))
    return (U * D[:, None, :]) @ Vt
