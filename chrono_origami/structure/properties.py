"""Mass properties of thick panels.

A panel is a right prism of thickness ``h`` whose mid-surface is the panel
polygon (so the hinge axes lie on the mid-surfaces' edges), or where a
structure's placement puts it (``structure.solids``: offset, tapered;
:func:`structure_mass_properties`). Units follow the inputs: length L,
density mass/L^3.
"""
import numpy as np

from ..tools.geometry import panel_frame


def polygon_moments(xy):
    """Area, centroid and second moments (about the centroid) of a simple 2-D polygon.

    Returns (A, (cx, cy), (Ixx, Iyy, Ixy)) with Ixx = int y^2 dA, Iyy = int x^2 dA,
    Ixy = int x y dA, coordinates taken from the centroid. Positive for a
    counter-clockwise loop. ``xy``: (k, 2), or (..., k, 2) for a stack of polygons.
    """
    xy = np.asarray(xy, float)
    x, y = xy[..., 0], xy[..., 1]
    xn, yn = np.roll(x, -1, axis=-1), np.roll(y, -1, axis=-1)
    c = x * yn - xn * y
    A = 0.5 * c.sum(axis=-1)
    cx = ((x + xn) * c).sum(axis=-1) / (6 * A)
    cy = ((y + yn) * c).sum(axis=-1) / (6 * A)
    Ixx = ((y * y + y * yn + yn * yn) * c).sum(axis=-1) / 12
    Iyy = ((x * x + x * xn + xn * xn) * c).sum(axis=-1) / 12
    Ixy = ((x * yn + 2 * x * y + 2 * xn * yn + xn * y) * c).sum(axis=-1) / 24
    Ixx = Ixx - A * cy * cy
    Iyy = Iyy - A * cx * cx
    Ixy = Ixy - A * cx * cy
    return A, np.stack([cx, cy], axis=-1), (Ixx, Iyy, Ixy)


def prism_mass_properties(points, thickness, density):
    """(mass, centre of mass, inertia tensor about the centre of mass, global frame).

    ``points``: the polygon (mid-surface), ``thickness``: prism height along
    the panel normal. A stack of polygons (..., k, 3) with thicknesses (...)
    gives stacked results.
    """
    P = np.asarray(points, float)
    F = panel_frame(P)
    P0 = P[..., :1, :]
    local = (P - P0) @ F
    A, c2, (Ixx, Iyy, Ixy) = polygon_moments(local[..., :2])
    h, rho = np.asarray(thickness, float), float(density)
    mass = rho * h * A
    com = P0[..., 0, :] + (F[..., :, :2] @ c2[..., None])[..., 0] + F[..., :, 2] * local[..., 2].mean(axis=-1)[..., None]
    bend = A * h * h / 12
    z = np.zeros_like(A * h)
    J = (rho * h)[..., None, None] * np.stack([np.stack([Ixx + bend, -Ixy + z, z], -1),
                                               np.stack([-Ixy + z, Iyy + bend, z], -1),
                                               np.stack([z, z, Ixx + Iyy + z], -1)], -2)
    J = F @ J @ np.swapaxes(F, -1, -2)
    if mass.ndim == 0:
        return float(mass), com, J
    return mass, com, J


def panel_mass_properties(pattern, p, thickness, density):
    """Mass properties of panel ``p`` of a crease pattern (see :func:`prism_mass_properties`)."""
    return prism_mass_properties(pattern.panel_points(p), thickness, density)


def panels_mass_properties(pattern, thickness, density):
    """(mass (P,), centre of mass (P, 3), inertia (P, 3, 3)) of every panel, polygons of a size at a time."""
    P = pattern.n_panels
    mass, com, J = np.zeros(P), np.zeros((P, 3)), np.zeros((P, 3, 3))
    h = np.broadcast_to(np.asarray(thickness, float), (P,))
    sizes = np.array([len(loop) for loop in pattern.panels])
    for k in np.unique(sizes):
        idx = np.flatnonzero(sizes == k)
        loops = np.array([pattern.panels[p] for p in idx])
        mass[idx], com[idx], J[idx] = prism_mass_properties(pattern.vertices[loops], h[idx], density)
    return mass, com, J


def tetrahedron_moments(X):
    """(volume, second moments int x x^T dV about the origin) of solid tetrahedra ``X`` (..., 4, 3):
    int x_a x_b dV = V/20 (sum_i x_ia x_ib + sum_i x_ia sum_j x_jb)."""
    X = np.asarray(X, float)
    V = np.abs(np.linalg.det(X[..., 1:, :] - X[..., :1, :])) / 6.0
    s = X.sum(axis=-2)
    S = (V / 20.0)[..., None, None] * (np.einsum("...ia,...ib->...ab", X, X) + s[..., :, None] * s[..., None, :])
    return V, S


def tetrahedron_mass_properties(points, density):
    """(mass, centre of mass, inertia tensor about the centre of mass, global frame) of a solid tetrahedron.

    ``points``: its four vertices (4, 3) (second moments: :func:`tetrahedron_moments`, about the centre).
    """
    X = np.asarray(points, float).reshape(4, 3)
    c = X.mean(axis=0)
    V, S = tetrahedron_moments(X - c)
    S = density * S
    return density * V, c, np.trace(S) * np.eye(3) - S


def polytope_mass_properties(V, density):
    """(mass, centre of mass, inertia about it (global frame)) of the convex hull of ``V`` (n, 3), uniform
    ``density``: the sum over the tetrahedra (centre, hull triangle) of :func:`tetrahedron_moments`."""
    from scipy.spatial import ConvexHull

    hull = ConvexHull(V)
    o = V.mean(axis=0)
    T = np.concatenate([np.broadcast_to(o, (len(hull.simplices), 1, 3)), V[hull.simplices]], axis=1)   # (s, 4, 3)
    vol, _ = tetrahedron_moments(T)
    c = (vol[:, None] * T.mean(axis=1)).sum(axis=0) / vol.sum()
    _, S = tetrahedron_moments(T - c)
    S = density * S.sum(axis=0)
    return float(density * vol.sum()), c, np.trace(S) * np.eye(3) - S


def structure_mass_properties(structure):
    """(mass (P,), centre of mass (P, 3), inertia about it (P, 3, 3), global frame) of every panel of ``structure``
    where its placement puts the volume (``structure.solids``): mid, the prism on the mid-surface
    (:func:`panels_mass_properties`); offset, that prism moved by (z_lo + z_hi) / 2 along the panel normal (the
    same mass and inertia about the centre of mass); tapered, the bevelled solid (:func:`polytope_mass_properties`).
    Computed once per structure (a frozen record: its loads, potential and statics at one fold frame ask for them
    several times) and returned as copies.
    """
    cached = structure.__dict__.get("_mass_properties")
    if cached is None:
        cached = _mass_properties(structure)
        object.__setattr__(structure, "_mass_properties", cached)
    return tuple(a.copy() for a in cached)


def panel_motions(pattern, X):
    """Per panel the rotation R (P, 3, 3) and translation t (P, 3) that take its vertices from ``pattern``'s to
    ``X`` (V x 3), x -> R x + t: the least-squares rigid motion of the panel's vertices (Kabsch; exact where the
    panel moved rigidly, as in a rigid fold)."""
    X0, X1 = np.asarray(pattern.vertices, float), np.asarray(X, float)
    loops = pattern.panels
    counts = np.array([len(loop) for loop in loops])
    owner = np.repeat(np.arange(len(loops)), counts)
    idx = np.concatenate([np.asarray(loop) for loop in loops])
    c0 = np.zeros((len(loops), 3))
    c1 = np.zeros((len(loops), 3))
    np.add.at(c0, owner, X0[idx])
    np.add.at(c1, owner, X1[idx])
    c0 /= counts[:, None]
    c1 /= counts[:, None]
    a, b = X0[idx] - c0[owner], X1[idx] - c1[owner]
    H = np.zeros((len(loops), 3, 3))
    np.add.at(H, owner, a[:, :, None] * b[:, None, :])
    U, _, Vt = np.linalg.svd(H)
    d = np.sign(np.linalg.det(np.matmul(np.swapaxes(Vt, 1, 2), np.swapaxes(U, 1, 2))))
    D = np.broadcast_to(np.eye(3), H.shape).copy()
    D[:, 2, 2] = d
    R = np.swapaxes(Vt, 1, 2) @ D @ np.swapaxes(U, 1, 2)
    return R, c1 - np.einsum("pij,pj->pi", R, c0)


def moved_mass_properties(structure, X):
    """:func:`structure_mass_properties` of ``structure`` with its vertices at ``X`` (V x 3), each panel moved
    rigidly (:func:`panel_motions`): mass unchanged, centre R c + t, inertia R J R^T. A panel's solid is rigid (its
    bevels come from the structure's taper angles, not from the frame), so a fold's frames need not rebuild it."""
    mass, com, J = structure_mass_properties(structure)
    R, t = panel_motions(structure.pattern, X)
    return mass, np.einsum("pij,pj->pi", R, com) + t, R @ J @ np.swapaxes(R, 1, 2)


def with_mass_properties(structure, props):
    """``structure`` (a frozen record) given its mass properties ``props`` (as :func:`structure_mass_properties`
    returns them), so that they are not computed again; returns it."""
    object.__setattr__(structure, "_mass_properties", tuple(np.asarray(a, float) for a in props))
    return structure


def _mass_properties(structure):
    """:func:`structure_mass_properties`, computed."""
    from .solids import placement_of, panel_solids

    pat, pl = structure.pattern, placement_of(structure)
    mass, com, J = panels_mass_properties(pat, structure.thickness, structure.density)
    if pl.technique == "offset":
        h = np.asarray(structure.thickness, float)
        lo, hi = pl.z_range(1.0)
        com = com + (0.5 * (lo + hi) * h)[:, None] * pat.panel_normals
    elif pl.technique == "tapered":
        for p, solid in enumerate(panel_solids(structure)):
            if solid is not None:
                mass[p], com[p], J[p] = polytope_mass_properties(solid[0], structure.density)
    return mass, com, J
