"""Small geometric helpers (global frame, SI or any consistent units)."""
import numpy as np


def rotation_angle(axis, a, b):
    """Signed angle (rad, in (-pi, pi]) turning ``a`` into ``b`` about ``axis`` (right-hand rule), for vectors
    normal to the axis: atan2(axis . (a x b), a . b). Arrays (..., 3) give (...).

    Hinges: the relative rotation of panel q about t (as run by p), from p's normal to q's, is
    rotation_angle(t, m_p, m_q); the FOLD fold angle (positive valley) is its negative.
    """
    a, b, axis = np.asarray(a, float), np.asarray(b, float), np.asarray(axis, float)
    return np.arctan2(np.sum(axis * np.cross(a, b), axis=-1), np.sum(a * b, axis=-1))


def skew(v):
    """Skew matrix [v] with [v] @ w = v x w; for v of shape (..., 3), one per vector: (..., 3, 3)."""
    v = np.asarray(v, float)
    x, y, z = v[..., 0], v[..., 1], v[..., 2]
    o = np.zeros_like(x)
    return np.stack([np.stack([o, -z, y], -1), np.stack([z, o, -x], -1), np.stack([-y, x, o], -1)], -2)


def unit(v):
    v = np.asarray(v, dtype=float)
    return v / np.linalg.norm(v)


def newell_normal(points):
    """Unnormalised Newell normal of a closed polygon (right-hand rule on the loop).

    Its length is twice the polygon area. ``points``: (k, 3), or a stack of polygons (..., k, 3).
    """
    p = np.asarray(points, dtype=float)
    q = np.roll(p, -1, axis=-2)
    return np.cross(p, q).sum(axis=-2)


def panel_frame(points):
    """Orthonormal panel frame (e1, e2, m) as columns: e1 along the first edge, m the loop normal.

    ``points``: one polygon (k, 3), or a stack of polygons (..., k, 3): frames (..., 3, 3).
    """
    P = np.asarray(points, float)
    m = newell_normal(P)                                           # one per polygon
    m = m / np.linalg.norm(m, axis=-1, keepdims=True)
    e1 = P[..., 1, :] - P[..., 0, :]
    e1 = e1 - (e1 * m).sum(axis=-1, keepdims=True) * m
    e1 = e1 / np.linalg.norm(e1, axis=-1, keepdims=True)
    return np.stack([e1, np.cross(m, e1), m], axis=-1)


def edge_frame(a, b, panel_normal):
    """Frame {n, t, m} of the edge a->b of a panel, as the columns of a 3x3 matrix.

    t: unit tangent from a to b (the panel's loop direction);
    m: panel normal (right-hand rule on the loop), made orthogonal to t;
    n = t x m: in the panel plane, normal to the edge, pointing out of the
    panel when the loop runs counter-clockwise seen from m.
    The frame is right-handed: n x t = m. For arrays of shape (k, 3), the k
    frames (k, 3, 3).
    """
    t = np.asarray(b, float) - np.asarray(a, float)
    t = t / np.linalg.norm(t, axis=-1, keepdims=True)
    m = np.asarray(panel_normal, float)
    m = m - (m * t).sum(axis=-1, keepdims=True) * t
    m = m / np.linalg.norm(m, axis=-1, keepdims=True)
    return np.stack([np.cross(t, m), t, m], axis=-1)


def rotation_about(axis, angle):
    """Rotation matrix of ``angle`` (rad) about the unit ``axis`` (Rodrigues)."""
    k = unit(axis)
    K = skew(k)
    return np.eye(3) + np.sin(angle) * K + (1 - np.cos(angle)) * K @ K


def best_rigid_alignment(A, B):
    """R, d minimising sum |R a_i + d - b_i|^2 (Kabsch); rows are points."""
    A = np.asarray(A, float)
    B = np.asarray(B, float)
    ca, cb = A.mean(0), B.mean(0)
    H = (A - ca).T @ (B - cb)
    U, _, Vt = np.linalg.svd(H)
    D = np.diag([1.0, 1.0, np.sign(np.linalg.det(Vt.T @ U.T))])
    R = Vt.T @ D @ U.T
    return R, cb - R @ ca
