"""Rigid bodies in director form (Betsch & Leyendecker, Part II, sec. 3).

Coordinates
-----------
A body's configuration is q = (phi, d1, d2, d3) in R^12 (eq. 21), stored as a
(4, 3) array whose rows are phi (centre of mass) and the directors d_I (the
body's principal axes), all in the global frame; a system's is (B, 4, 3) and
a batch of systems (N, B, 4, 3). Points and vectors fixed in a body are given
by their body components X_i: x = phi + X_i d_i (eq. 16, 79), a = a_i d_i.

Mass matrix (eq. 23): diag(M_phi I, E_1 I, E_2 I, E_3 I), stored per body as
the row (M_phi, E_1, E_2, E_3); E_I are the principal values of the Euler
tensor E = tr(J)/2 I - J (eq. 158), J the inertia tensor about the centre of
mass. A moving body needs M_phi > 0 and every E_I > 0 (a panel of zero
thickness has E_3 = 0).

Twists and wrenches
-------------------
Twist t = (v, omega) (eq. 26): v the velocity of the centre of mass, omega the
angular velocity, global frame. P_int (eq. 29) maps a twist to coordinate
velocities (v, omega x d_1, omega x d_2, omega x d_3); its transpose maps a
generalised force g (4, 3) on the coordinates to the wrench (g_phi,
sum_I d_I x g_I): (force, moment about the centre of mass) (eq. 36).
"""
from dataclasses import dataclass

import numpy as np

from ....tools.errors import StructureError

#: The world frame as a body configuration: origin, directors e_1, e_2, e_3.
WORLD = np.vstack([np.zeros(3), np.eye(3)])
WORLD.setflags(write=False)


def cross(a, b):
    """a x b along the last axis (broadcasting; faster than numpy.cross on small arrays)."""
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    out = np.empty(np.broadcast_shapes(a.shape, b.shape))
    out[..., 0] = a1 * b2 - a2 * b1
    out[..., 1] = a2 * b0 - a0 * b2
    out[..., 2] = a0 * b1 - a1 * b0
    return out


def skew(a):
    """Skew matrices [a] with [a] b = a x b, for a (..., 3) -> (..., 3, 3) (eq. 28)."""
    a = np.asarray(a, float)
    S = np.zeros(a.shape[:-1] + (3, 3))
    S[..., 0, 1], S[..., 0, 2] = -a[..., 2], a[..., 1]
    S[..., 1, 0], S[..., 1, 2] = a[..., 2], -a[..., 0]
    S[..., 2, 0], S[..., 2, 1] = -a[..., 1], a[..., 0]
    return S


def expm(theta):
    """Rotation exp([theta]) by the Rodrigues formula (eq. 43), theta (..., 3) -> (..., 3, 3).

    Written as cos(a) I + sin(a)/a [theta] + (1 - cos(a))/a^2 theta theta^T (a = |theta|), with the
    series for a^2 < 1e-8.
    """
    th = np.asarray(theta, float)
    x, y, z = th[..., 0], th[..., 1], th[..., 2]
    a2 = x * x + y * y + z * z
    if np.all(a2 >= 1e-8):
        a = np.sqrt(a2)
        s1 = np.sin(a) / a
        s2 = (1.0 - np.cos(a)) / a2
    else:
        small = a2 < 1e-8
        safe = np.where(small, 1.0, np.sqrt(a2))
        s1 = np.where(small, 1.0 - a2 / 6.0 + a2 * a2 / 120.0, np.sin(safe) / safe)
        s2 = np.where(small, 0.5 - a2 / 24.0 + a2 * a2 / 720.0, (1.0 - np.cos(safe)) / (safe * safe))
    c = 1.0 - s2 * a2
    R = np.empty(th.shape[:-1] + (3, 3))
    sx, sy, sz = s1 * x, s1 * y, s1 * z
    R[..., 0, 0] = c + s2 * x * x
    R[..., 1, 1] = c + s2 * y * y
    R[..., 2, 2] = c + s2 * z * z
    xy, xz, yz = s2 * x * y, s2 * x * z, s2 * y * z
    R[..., 0, 1], R[..., 1, 0] = xy - sz, xy + sz
    R[..., 0, 2], R[..., 2, 0] = xz + sy, xz - sy
    R[..., 1, 2], R[..., 2, 1] = yz - sx, yz + sx
    return R


def expm1(theta):
    """exp([theta]) - I, computed without cancellation (increments of directors: d_{n+1} - d_n = (R - I) d_n)."""
    th = np.asarray(theta, float)
    x, y, z = th[..., 0], th[..., 1], th[..., 2]
    a2 = x * x + y * y + z * z
    small = a2 < 1e-8
    a = np.sqrt(np.where(small, 1.0, a2))
    s1 = np.sin(a) / a
    h = np.sin(0.5 * a) / a
    s2 = 2.0 * h * h                                  # (1 - cos a) / a^2, without cancellation
    if small.any():
        s1 = np.where(small, 1.0 - a2 / 6.0 + a2 * a2 / 120.0, s1)
        s2 = np.where(small, 0.5 - a2 / 24.0 + a2 * a2 / 720.0, s2)
    W = np.empty(th.shape[:-1] + (3, 3))
    sx, sy, sz = s1 * x, s1 * y, s1 * z
    W[..., 0, 0] = -s2 * (y * y + z * z)
    W[..., 1, 1] = -s2 * (x * x + z * z)
    W[..., 2, 2] = -s2 * (x * x + y * y)
    xy, xz, yz = s2 * x * y, s2 * x * z, s2 * y * z
    W[..., 0, 1], W[..., 1, 0] = xy - sz, xy + sz
    W[..., 0, 2], W[..., 2, 0] = xz + sy, xz - sy
    W[..., 1, 2], W[..., 2, 1] = yz - sx, yz + sx
    return W


def axis_rotation(axis, angle):
    """exp(angle [axis]) for unit axes (..., 3) and angles (...) -> (..., 3, 3)."""
    return expm(np.asarray(axis, float) * np.asarray(angle, float)[..., None])


def axis_rotation1(axis, angle):
    """exp(angle [axis]) - I (see :func:`expm1`)."""
    return expm1(np.asarray(axis, float) * np.asarray(angle, float)[..., None])


def vec(q, a):
    """Global vector a_i d_i of body components ``a`` (3,) or (k, 3) in configurations q (..., 4, 3)."""
    return np.asarray(a, float) @ q[..., 1:4, :]


def point(q, X):
    """Global point phi + X_i d_i of body components ``X`` (3,) in configurations q (..., 4, 3)."""
    return q[..., 0, :] + np.asarray(X, float) @ q[..., 1:4, :]


def local(q, x, is_point=True):
    """Body components of a global point (or vector) ``x`` in a configuration q (4, 3) with orthonormal directors."""
    x = np.asarray(x, float)
    return q[1:4] @ (x - q[0] if is_point else x)


def pint(q, t):
    """P_int t: coordinate velocities (..., B, 4, 3) of twists t (..., B, 6) at configurations q (..., B, 4, 3)."""
    v = np.empty(np.broadcast_shapes(q.shape, t.shape[:-1] + (4, 3)))
    v[..., 0, :] = t[..., :3]
    v[..., 1:4, :] = cross(t[..., None, 3:], q[..., 1:4, :])
    return v


def pint_t(q, g):
    """P_int^T g: wrenches (force, moment about the centre of mass) (..., B, 6) of generalised forces g
    (..., B, 4, 3)."""
    w = np.empty(g.shape[:-2] + (6,))
    w[..., :3] = g[..., 0, :]
    w[..., 3:] = np.sum(cross(q[..., 1:4, :], g[..., 1:4, :]), axis=-2)
    return w


def angular_velocity(q, v):
    """omega = (1/2) sum_I d_I x v_I, exact for consistent velocities v_I = omega x d_I and orthonormal d_I."""
    return 0.5 * np.sum(cross(q[..., 1:4, :], v[..., 1:4, :]), axis=-2)


@dataclass
class Body:
    """A rigid body: mass (M_phi), Euler principal values ``E`` (3,), configuration ``q0`` (4, 3) at t = 0.

    ``fixed``: held in space (no unknowns; a ground body). ``name`` for messages.
    """

    mass: float
    E: np.ndarray
    q0: np.ndarray
    name: str = "body"
    fixed: bool = False

    def __post_init__(self):
        self.E = np.asarray(self.E, float).reshape(3)
        self.q0 = np.array(self.q0, float).reshape(4, 3)
        D = self.q0[1:4]
        if not np.allclose(D @ D.T, np.eye(3), atol=1e-10) or np.linalg.det(D) < 0:
            raise StructureError(f"{self.name}: the directors must be a right-handed orthonormal frame")
        if not self.fixed and not (self.mass > 0 and np.all(self.E > 0)):
            raise StructureError(f"{self.name} has no mass or no rotational inertia about an axis (mass "
                                 f"{self.mass:.6g}, Euler values {np.round(self.E, 12).tolist()}): every moving body "
                                 f"needs both (a panel needs density and thickness > 0)")

    @property
    def mass_row(self):
        """(M_phi, E_1, E_2, E_3): the diagonal of the mass matrix (eq. 23), per 3-vector row."""
        return np.concatenate([[self.mass], self.E])

    @property
    def inertia(self):
        """Principal moments of inertia J_I = tr(E) - E_I (eq. 20)."""
        return self.E.sum() - self.E

    @classmethod
    def from_principal(cls, mass, J, com, directors=np.eye(3), name="body", fixed=False):
        """Body with principal moments ``J`` (3,) about the directors (rows of ``directors``), at ``com``."""
        J = np.asarray(J, float)
        E = 0.5 * J.sum() - J                          # eq. (158)
        return cls(float(mass), E, np.vstack([np.asarray(com, float), np.asarray(directors, float)]), name, fixed)

    @classmethod
    def from_inertia(cls, mass, com, J, name="body", fixed=False):
        """Body from an inertia tensor ``J`` (3, 3, global frame, about the centre of mass).

        The directors are J's principal axes in ascending order of the principal moments
        (``numpy.linalg.eigh``), d_3 = d_1 x d_2 (right-handed).
        """
        J = np.asarray(J, float)
        w, V = np.linalg.eigh(0.5 * (J + J.T))
        D = V.T.copy()
        D[2] = np.cross(D[0], D[1])
        return cls.from_principal(mass, w, com, D, name, fixed)
