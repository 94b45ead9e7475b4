"""The numerical examples of Betsch & Leyendecker, Part II, sec. 5, with the paper's data (SI units).

* :func:`gyro_top` (5.1): a cone (H = 0.1, R = 0.05, density 2700) on a
  spherical pair at its apex, under gravity g = 9.81 along -e_3, started in
  steady precession: nutation theta = pi/3, precession rate omega_p = 10,
  spin omega_s from eq. (165).
* :func:`cylindrical_pair` (5.2) and :func:`planar_pair` (5.3): two bodies
  in free flight, no forces; initial generalised velocities eqs. (175), (177).
* The six-body linkage (5.4.2) is built from the project's pattern and
  structure objects: :mod:`chrono_origami.patterns.linkage` and
  ``chrono_origami.engines.reference.dns.structure``.

Each returns an :class:`Example`: the :class:`~.multibody.Multibody`, the
initial generalised velocities ``nu0`` (open-loop coordinates) and
coordinate velocities ``v0``, and the example's constants.

Convention (eq. 171 read with 169): the top's directors are
d_I = exp(theta [e_1]) e_I; the apex is at the origin and phi = L d_3, so
d_3 points from the apex to the centre of mass; omega = omega_p e_3 +
omega_s d_3. Steady precession: phi(t) = L exp(omega_p t [e_3]) d_3(0),
i.e. (L sin(theta) sin(omega_p t), -L sin(theta) cos(omega_p t), L cos(theta)).
"""
from dataclasses import dataclass, field

import numpy as np

from .body import Body, axis_rotation
from .multibody import Multibody
from .pairs import Cylindrical, Planar, Spherical

G = 9.81


@dataclass
class Example:
    name: str
    mb: Multibody
    nu0: np.ndarray
    v0: np.ndarray
    data: dict = field(default_factory=dict)


def gyro_top(theta=np.pi / 3, omega_p=10.0):
    """The symmetrical top of sec. 5.1 (Fig. 7); ``data``: L, mass, spin omega_s, precession period."""
    H, R, rho = 0.1, 0.05, 2700.0
    M = rho * np.pi * R ** 2 * H / 3.0
    L = 0.75 * H
    J1 = 3.0 * M / 80.0 * (4.0 * R ** 2 + H ** 2)
    J3 = 3.0 * M / 10.0 * R ** 2
    Rot = axis_rotation(np.array([1.0, 0, 0]), theta)
    D = Rot.T                                   # rows d_I = Rot e_I
    top = Body.from_principal(M, [J1, J1, J3], L * D[2], D, name="top")
    mb = Multibody([top], [Spherical(None, 0, np.zeros(3), [0.0, 0.0, -L], label="apex")],
                   gravity=(0.0, 0.0, -G), length=L)
    M1, M3 = J1 + M * L ** 2, J3                # eq. (168)
    omega_s = M * G * L / (M3 * omega_p) + (M1 - M3) / M3 * omega_p * np.cos(theta)   # eq. (165)
    omega = omega_p * np.array([0.0, 0, 1]) + omega_s * D[2]                           # eq. (171)
    v0 = mb.velocities(mb.q0, omega)
    data = dict(L=L, mass=M, J1=J1, J3=J3, theta=theta, omega_p=omega_p, omega_s=omega_s,
                period=2 * np.pi / omega_p)
    return Example("gyro_top", mb, omega, v0, data)


def gyro_top_com(t, data):
    """Steady precession of the centre of mass (module doc): (K, 3) at times t."""
    t = np.asarray(t, float)
    L, th, wp = data["L"], data["theta"], data["omega_p"]
    return np.column_stack([L * np.sin(th) * np.sin(wp * t), -L * np.sin(th) * np.cos(wp * t),
                            np.full_like(t, L * np.cos(th))])


def cylindrical_pair():
    """Free flight of the C pair of sec. 5.2 (Fig. 11): a cylinder and a sliding hollow cylinder."""
    b1 = Body.from_principal(4.0, [304.0, 304.0, 8.0], [0, 0, 0], name="cylinder")
    b2 = Body.from_principal(3.0, [18.75, 18.75, 19.5], [0, 0, -11.0], name="hollow cylinder")
    pair = Cylindrical(0, 1, np.zeros(3), np.zeros(3), [0, 0, 1.0], m1=[[1.0, 0, 0], [0, 1.0, 0]], label="C")
    mb = Multibody([b1, b2], [pair], length=30.0)
    nu0 = np.array([0, 50, 0, 1, 1.5, 0, 35.5, -100.0])          # eq. (175)
    return Example("cylindrical_pair", mb, nu0, mb.velocities(mb.q0, nu0), dict(u0=-11.0))


def planar_pair():
    """Free flight of the E pair of sec. 5.3 (Fig. 15): a pyramid sliding on a parallelepiped."""
    b1 = Body.from_principal(5.0, [5125 / 48, 5125 / 48, 640 / 3], [5, 5, 5.0], name="parallelepiped")
    b2 = Body.from_principal(2.0, [43 / 40, 43 / 40, 4 / 5], [-2, -2, 6.25], name="pyramid")
    pair = Planar(0, 1, [0, 0, 0.25], [0, 0, -1.0], [0, 0, 1.0], m1=[[1.0, 0, 0], [0, 1.0, 0]], label="E")
    mb = Multibody([b1, b2], [pair], length=16.0)
    nu0 = np.array([0, 0, 0, -20, -20, 10, 150, -120, 60.0])     # eq. (177)
    return Example("planar_pair", mb, nu0, mb.velocities(mb.q0, nu0), dict(u0=(-7.0, -7.0)))
