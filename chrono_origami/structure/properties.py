"""Mass properties of thick panels.

A panel is a right prism of thickness ``h`` whose mid-surface is the panel
polygon (so the hinge axes lie on the mid-surfaces' edges). Units follow the
inputs: length L, density mass/L^3.
"""
import numpy as np

from ..tools.geometry import newell_normal


def panel_frame(points):
    """Orthonormal panel frame (e1, e2, m) as columns: e1 along the first edge, m the loop normal."""
    P = np.asarray(points, float)
    m = newell_normal(P)
    m = m / np.linalg.norm(m)
    e1 = P[1] - P[0]
    e1 = e1 - (e1 @ m) * m
    e1 /= np.linalg.norm(e1)
    return np.column_stack([e1, np.cross(m, e1), m])


def polygon_moments(xy):
    """Area, centroid and second moments (about the centroid) of a simple 2-D polygon.

    Returns (A, (cx, cy), (Ixx, Iyy, Ixy)) with Ixx = int y^2 dA, Iyy = int x^2 dA,
    Ixy = int x y dA, coordinates taken from the centroid. Positive for a
    counter-clockwise loop.
    """
    x, y = np.asarray(xy, float).T
    xn, yn = np.roll(x, -1), np.roll(y, -1)
    c = x * yn - xn * y
    A = 0.5 * c.sum()
    cx = ((x + xn) * c).sum() / (6 * A)
    cy = ((y + yn) * c).sum() / (6 * A)
    Ixx = ((y * y + y * yn + yn * yn) * c).sum() / 12
    Iyy = ((x * x + x * xn + xn * xn) * c).sum() / 12
    Ixy = ((x * yn + 2 * x * y + 2 * xn * yn + xn * y) * c).sum() / 24
    Ixx -= A * cy * cy
    Iyy -= A * cx * cx
    Ixy -= A * cx * cy
    return A, np.array([cx, cy]), (Ixx, Iyy, Ixy)


def prism_mass_properties(points, thickness, density):
    """(mass, centre of mass, inertia tensor about the centre of mass, global frame).

    ``points``: the polygon (mid-surface), ``thickness``: prism height along
    the panel normal.
    """
    P = np.asarray(points, float)
    F = panel_frame(P)
    local = (P - P[0]) @ F
    A, c2, (Ixx, Iyy, Ixy) = polygon_moments(local[:, :2])
    h, rho = float(thickness), float(density)
    mass = rho * h * A
    com = P[0] + F[:, :2] @ c2 + F[:, 2] * local[:, 2].mean()
    J = rho * h * np.array([
        [Ixx + A * h * h / 12, -Ixy, 0.0],
        [-Ixy, Iyy + A * h * h / 12, 0.0],
        [0.0, 0.0, Ixx + Iyy],
    ])
    return mass, com, F @ J @ F.T


def panel_mass_properties(pattern, p, thickness, density):
    """Mass properties of panel ``p`` of a crease pattern (see :func:`prism_mass_properties`)."""
    return prism_mass_properties(pattern.panel_points(p), thickness, density)


def tetrahedron_mass_properties(points, density):
    """(mass, centre of mass, inertia tensor about the centre of mass, global frame) of a solid tetrahedron.

    ``points``: its four vertices (4, 3). Second moments from
    int x_a x_b dV = V/20 (sum_i x_ia x_ib + sum_i x_ia sum_j x_jb).
    """
    X = np.asarray(points, float).reshape(4, 3)
    V = abs(np.linalg.det((X[1:] - X[0]).T)) / 6.0
    c = X.mean(axis=0)
    S = density * (V / 20.0 * (X.T @ X + np.outer(X.sum(0), X.sum(0))) - V * np.outer(c, c))
    return density * V, c, np.trace(S) * np.eye(3) - S
