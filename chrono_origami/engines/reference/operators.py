"""The paper's linearised constraint operators C (Micheletti, Tiero, Tomassetti, sec. 3).

Velocity convention: body i has the 6-vector delta_i = (omega_i, w_i), its
angular velocity and the velocity of its point at the origin of the global
frame; a point x of the body moves with omega_i x x + w_i. A two-body operator
acts on (omega_1, w_1, omega_2, w_2) and is returned as a (rows x 12) array.

Batches: every operator also takes arrays of shape (k, 3) for its vectors
(k hinges at once) and returns (k, rows, 12); the assembly calls them so.

Dually, a generalised force on body i is (moment about the origin, force), and
the constraint reactions are r = C^T lambda (paper eq. 34): the 6-blocks of
C^T lambda are the wrenches the constraint applies to each body.

Arguments follow the paper: t_i hinge axis, m_i and n_i two unit vectors
orthogonal to t_i, p_i (q_i) the image of a point P (Q) of the axis under the
motion of body i. At a consistent configuration t_1 = t_2, p_1 = p_2, etc.

Note: the paper's scalar constraint c_1 = (t_1.m_2 + t_2.m_1)/2 has zero
derivative at t_1 = t_2, m_1 = m_2, so it cannot be what the printed operator
differentiates. The printed rows of eq. (4) are, at any configuration, the
exact derivative of the *difference* c_1 = (t_2.m_1 - t_1.m_2)/2 (likewise c_2
with n): they block the relative rotation about t x m (and t x n) as intended.
We implement the operator as printed (tests/test_operators.py checks it
against finite differences of that difference).
"""
import numpy as np

from ...tools.geometry import skew


def _row(a1, b1, a2, b2):
    """One row (..., 12) from four (..., 3) blocks."""
    return np.concatenate(np.broadcast_arrays(a1, b1, a2, b2), axis=-1)


def _rows(*rows):
    """Stack rows (..., 12) into (..., k, 12)."""
    return np.stack(rows, axis=-2)


def _eye(like):
    """The 3 x 3 identity, broadcast to the batch shape of ``like`` (..., 3)."""
    return np.broadcast_to(np.eye(3), np.shape(like)[:-1] + (3, 3))


def sliding_hinge(t1, m1, n1, p1, t2, m2, n2, p2):
    """Sliding hinge, eq. (4): 4 rows; rotation and translation along t are free."""
    tm = np.cross(t1, m2) + np.cross(t2, m1)
    tn = np.cross(t1, n2) + np.cross(t2, n1)
    pm = np.cross(p2, m1) + np.cross(p1, m2)
    pn = np.cross(p2, n1) + np.cross(p1, n2)
    z = np.zeros_like(tm)
    return 0.5 * _rows(
        _row(-tm, z, tm, z),
        _row(-tn, z, tn, z),
        _row(-pm, -(m1 + m2), pm, m1 + m2),
        _row(-pn, -(n1 + n2), pn, n1 + n2),
    )


def door_hinge(t1, m1, n1, p1, t2, m2, n2, p2):
    """Door hinge, eq. (6): 5 rows; only the rotation about t is free."""
    tm = np.cross(t1, m2) + np.cross(t2, m1)
    tn = np.cross(t1, n2) + np.cross(t2, n1)
    z = np.zeros_like(tm)
    rot = 0.5 * _rows(_row(-tm, z, tm, z), _row(-tn, z, tn, z))
    # c_3 = p_2 - p_1: rows ([p_1], -I, -[p_2], I)
    I = _eye(p1)
    trans = np.concatenate([skew(p1), -I, -skew(p2), I], axis=-1)
    return np.concatenate([rot, trans], axis=-2)


def point_slider(m1, n1, p2):
    """Point slider, eq. (8): point P of body 2 slides on the line of body 1 (normals m_1, n_1)."""
    return _rows(
        _row(-np.cross(p2, m1), -m1, np.cross(p2, m1), m1),
        _row(-np.cross(p2, n1), -n1, np.cross(p2, n1), n1),
    )


def double_point_slider(m1, n1, p2, m2, n2, q1):
    """Sliding hinge as two point sliders, eq. (13): P of body 2 on line 1, Q of body 1 on line 2."""
    return np.concatenate([point_slider(m1, n1, p2), point_slider(m2, n2, q1)], axis=-2)


def spherical_hinge(p1, p2):
    """Spherical hinge, eq. (14): c = (R_1 - R_2) p + u_1 - u_2; rows (-[p_1], I, [p_2], -I)."""
    I = _eye(p1)
    return np.concatenate([-skew(p1), I, skew(p2), -I], axis=-1)


def slider_and_spherical(m2, n2, q1, p1, p2):
    """Door hinge as a point slider (Q of body 1 on line 2) and a spherical hinge at P, eq. (15)."""
    return np.concatenate([point_slider(m2, n2, q1), spherical_hinge(p1, p2)], axis=-2)


def support(x, directions):
    """Vertex x of a body held in the given unit directions (rows x 6): rows ((x x e)^T, e^T).

    Batched: x (k, 3) and directions (k, 3) give one row each, (k, 6).
    """
    x, e = np.asarray(x, float), np.asarray(directions, float)
    if x.ndim == 1:
        return np.array([np.concatenate([np.cross(x, d), d]) for d in e])
    return np.concatenate([np.cross(x, e), e], axis=-1)
