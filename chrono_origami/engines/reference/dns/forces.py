"""Applied forces of the energy-momentum step: the discrete gradient of the potential and hinge terms.

Gravity and dead loads are linear in the coordinates (V = -f . q), so their
discrete gradient is exact: the generalised force f. Gravity on body b:
f_phi = M_phi g; a dead load F at the body point X: f_phi = F, f_I = X_I F.

Hinge terms act on a hinge's fold angle phi (``chrono_origami.structure.foldfile.fold_angles``
convention: phi = atan2(-t . (m_p x m_q), m_p . m_q), t the axis as run by the
first panel p, m_p, m_q the panels' normals; positive valley). Over a step
they apply the generalised force -s grad_bar phi with

    s = k ((phi_n + phi_{n+1}) / 2 - rest) + c (phi_{n+1} - phi_n) / dt + tau(t_{n+1/2})

(crease spring k, damper c, torque motor tau about the axis t on the second
panel, which turns phi by -psi), where grad_bar phi is Gonzalez's discrete
gradient of phi in the kinetic-energy metric M:

    grad_bar phi = grad phi(q_mid) + (dphi - grad phi(q_mid) . dq) / (dq^T M dq) M dq,

so grad_bar phi . dq = dphi exactly: the spring stores exactly
k [(phi_{n+1} - rest)^2 - (phi_n - rest)^2] / 2, the damper dissipates
c dphi^2 / dt >= 0 and the motor works tau dpsi. grad_bar phi is equivariant
under rotations (M commutes with them), so angular momentum is kept when no
external torque acts.
"""
from dataclasses import dataclass

import numpy as np

from ....tools.geometry import rotation_angle
from .body import cross, vec


def _wrap(a):
    return (a + np.pi) % (2 * np.pi) - np.pi


@dataclass
class HingeTerm:
    """Spring, damper and/or torque motor on the fold angle of bodies ``bp`` (first panel) and ``bq``.

    t, mp: hinge axis and normal in bp's components; mq: normal in bq's components; k, c, rest: spring
    and damper (rest: rad); torque: None or a callable t -> moment about t on bq (N m); hinge: label.
    """

    bp: int
    bq: int
    t: np.ndarray
    mp: np.ndarray
    mq: np.ndarray
    k: float = 0.0
    c: float = 0.0
    rest: float = 0.0
    torque: object = None
    hinge: int = None

    def angle(self, q):
        """phi (rad, in (-pi, pi]) and its gradient g_p, g_q (..., 4, 3) for configurations q (..., B, 4, 3)."""
        qp, qq = q[..., self.bp, :, :], q[..., self.bq, :, :]
        t, mp, mq = vec(qp, self.t), vec(qp, self.mp), vec(qq, self.mq)
        x = np.sum(mp * mq, axis=-1)
        c = cross(mp, mq)
        y = -np.sum(t * c, axis=-1)
        phi = -rotation_angle(t, mp, mq)
        den = x * x + y * y
        ax, ay = (-y / den)[..., None], (x / den)[..., None]
        d_t = ay * (-c)
        d_mp = ay * (-cross(mq, t)) + ax * mq
        d_mq = ay * (-cross(t, mp)) + ax * mp
        gp = np.zeros(qp.shape)
        gq = np.zeros(qq.shape)
        gp[..., 1:, :] = self.t[:, None] * d_t[..., None, :] + self.mp[:, None] * d_mp[..., None, :]
        gq[..., 1:, :] = self.mq[:, None] * d_mq[..., None, :]
        return phi, gp, gq


class Forces:
    """Gravity, dead loads and hinge terms of a system of B bodies with mass rows ``mrow`` (B, 4)."""

    def __init__(self, mrow, moving, gravity=None, loads=(), hinge_terms=()):
        B = len(mrow)
        self.mrow = np.asarray(mrow, float)
        self.g = np.zeros(3) if gravity is None else np.asarray(gravity, float)
        self.f_grav = np.zeros((B, 4, 3))
        self.f_grav[:, 0] = (self.mrow[:, 0] * moving)[:, None] * self.g
        self.f_load = np.zeros((B, 4, 3))
        for b, X, F in loads:        # body, body components of the point, force (global)
            self.f_load[b, 0] += F
            self.f_load[b, 1:] += np.outer(X, F)
        self.f_load[~np.asarray(moving)] = 0.0
        self.f_lin = self.f_grav + self.f_load
        self.terms = list(hinge_terms)

    @property
    def linear_only(self):
        return not self.terms

    def gravity_potential(self, q):
        return -float(np.sum(self.f_grav * q))

    def load_potential(self, q):
        return -float(np.sum(self.f_load * q))

    def spring_energy(self, q, phi_unwrapped):
        return sum(0.5 * h.k * (phi - h.rest) ** 2 for h, phi in zip(self.terms, phi_unwrapped))

    def angles(self, q, previous=None):
        """Fold angles of the hinge terms, unwrapped next to ``previous`` (rad)."""
        out = []
        for i, h in enumerate(self.terms):
            phi = float(h.angle(q)[0])
            if previous is not None:
                phi = previous[i] + _wrap(phi - previous[i])
            out.append(phi)
        return np.array(out)

    def step(self, qn, qnew, tn, dt, phi_n):
        """Generalised force of the step (N, B, 4, 3) for a batch qnew (N, B, 4, 3), and per term
        (dphi (N,), s (N,))."""
        F = np.broadcast_to(self.f_lin, qnew.shape).copy()
        info = []
        if not self.terms:
            return F, info
        qm = 0.5 * (qn + qnew)
        dq = qnew - qn
        for h, p0 in zip(self.terms, phi_n):
            phi1, _, _ = h.angle(qnew)
            dphi = _wrap(phi1 - p0)
            _, gp, gq = h.angle(qm)
            dqp, dqq = dq[:, h.bp], dq[:, h.bq]
            mp, mq = self.mrow[h.bp][:, None], self.mrow[h.bq][:, None]
            lin = np.sum(gp * dqp, axis=(-2, -1)) + np.sum(gq * dqq, axis=(-2, -1))
            den = np.sum(mp * dqp * dqp, axis=(-2, -1)) + np.sum(mq * dqq * dqq, axis=(-2, -1))
            ok = den > 1e-300
            coef = np.where(ok, (dphi - lin) / np.where(ok, den, 1.0), 0.0)[:, None, None]
            gbar_p = gp + coef * mp * dqp
            gbar_q = gq + coef * mq * dqq
            s = h.k * (p0 + 0.5 * dphi - h.rest) + h.c * dphi / dt
            if h.torque is not None:
                s = s + float(h.torque(tn + 0.5 * dt))
            F[:, h.bp] -= s[:, None, None] * gbar_p
            F[:, h.bq] -= s[:, None, None] * gbar_q
            info.append((dphi, s))
        return F, info
