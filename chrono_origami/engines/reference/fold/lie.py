"""The Euclidean group E = SE(3) and its exponential map (paper eqs. 16-19).

A rigid motion g = (R, u) maps a point X of the reference configuration to
x = R X + u. Composition (eq. 16): (R, u) o (R', u') = (R R', R u' + u).

An element of the Lie algebra is written as the 6-vector (omega, w) with
W = skew(omega); exp((omega, w)) = (R, A w) with R from eq. (17) and A from
eq. (19). The Newton update of eq. (33), g <- exp(delta) g, moves a point x of
the body by omega x x + w to first order: w is the velocity of the body point
at the origin, the convention of ``engines.reference.operators``.
"""
import numpy as np

from ....tools.geometry import skew

#: below this rotation angle (rad) the series expansions of eqs. (17), (19) are used
_SMALL = 1e-6


def exp_se3(omega, w):
    """(R, u) = exp((omega, w)), eqs. (17)-(19); omega in rad, w in length units."""
    R, u = exp_se3_many(np.asarray(omega, float)[None], np.asarray(w, float)[None])
    return R[0], u[0]


def exp_se3_many(omega, w):
    """:func:`exp_se3` of N algebra elements at once: omega, w (N, 3) -> R (N, 3, 3), u (N, 3)."""
    omega = np.asarray(omega, float)
    w = np.asarray(w, float)
    th = np.linalg.norm(omega, axis=1)
    W = skew(omega)
    W2 = W @ W
    small = th < _SMALL
    ts = np.where(small, 1.0, th)
    a = np.where(small, 1.0 - th * th / 6.0, np.sin(ts) / ts)
    b = np.where(small, 0.5 - th * th / 24.0, (1.0 - np.cos(ts)) / ts ** 2)
    c = np.where(small, 1.0 / 6.0 - th * th / 120.0, (1.0 - np.sin(ts) / ts) / ts ** 2)
    eye = np.eye(3)
    R = eye + a[:, None, None] * W + b[:, None, None] * W2          # eq. (17), with W of unit axis times theta
    A = eye + b[:, None, None] * W + c[:, None, None] * W2          # eq. (19)
    return R, np.einsum("nij,nj->ni", A, w)                          # eq. (18)


def exp_update(R, u, delta):
    """Left update g_i <- exp(delta_i) g_i for every body (eq. 33); delta is (N, 6) = (omega_i, w_i)."""
    d = np.asarray(delta, float).reshape(-1, 6)
    E, v = exp_se3_many(d[:, :3], d[:, 3:])
    return E @ R, np.einsum("nij,nj->ni", E, u) + v


def reorthonormalize(R):
    """Nearest rotation matrices (polar decomposition), to remove round-off drift."""
    U, _, Vt = np.linalg.svd(R)
    D = np.ones((len(R), 3))
    D[:, 2] = np.sign(np.linalg.det(U @ Vt))
    return (U * D[:, None, :]) @ Vt
