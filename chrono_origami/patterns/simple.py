"""Small patterns of the paper: the panel ring (Fig. 4, sec. 4.2) and the square twist (Fig. 1, sec. 2).

Panel ring (:func:`panel_ring`, :func:`rectangular_ring`)
---------------------------------------------------------
P rectangular panels round a prism: the cross-section is a convex polygon
(corners c_0..c_{P-1} counter-clockwise in the x-y plane), the hinge axes are
parallel to z and have length ``length``. Vertex k (0-based) is corner c_k at
z = 0, vertex P + k the same corner at z = length. Panel k is the side from
c_k to c_{k+1}, loop (k, k+1, P+k+1, P+k): its normal m points out of the
prism. Hinge k (0-based) is the edge at corner c_{k+1}, between panels k and
k+1 (mod P): 1-based, hinge i joins panels i and i+1, hinge P joins P and 1.
Boundary edges (the two end polygons) follow the hinges in the edge list.

Square twist (:func:`square_twist`)
-----------------------------------
Flat in the x-y plane (z = 0), normals m = +z (every loop counter-clockwise
seen from +z). A central square of side ``side`` centred at the origin with
sides parallel to x and y, corners c_0..c_3 counter-clockwise from
(-s/2, -s/2). Side k runs from c_k to c_{k+1}; its pleat is a pair of parallel
creases of length ``pleat`` leaving c_k and c_{k+1} in the direction d_k, the
outward normal of side k turned counter-clockwise by the twist angle
``twist_deg`` (0 < twist < 90 deg; in the frame of the pleats the central
square is turned by that angle). At each corner the angles are 90 (square),
90 - twist and 90 + twist (the two parallelograms) and 90 (the triangle):
Kawasaki's condition holds, so the pattern is flat-foldable.

Vertices: 0..3 the corners c_k (the V_i = 4 interior vertices), then for
k = 0..3 the pleat ends c_k + l d_k (4 + 2k) and c_{k+1} + l d_k (5 + 2k).
Panels: 0 the square, 1..4 the parallelograms on sides 0..3, 5..8 the
triangles at corners c_0..c_3 (between the pleats d_{k-1} and d_k).
Hinges: 0..3 the sides of the square, then for k = 0..3 the creases of pleat
k from c_k (4 + 2k) and from c_{k+1} (5 + 2k). Boundary edges (the octagon
through the pleat ends) come last.
"""
import numpy as np

from ..crease.pattern import CreasePattern
from ..tools.errors import PatternError, positive
from ..tools.geometry import rotation_about


# ------------------------------------------------------------------ panel ring
def panel_ring(section, length=1.0):
    """Ring of rectangular panels round a prism with convex cross-section ``section`` ((P, 2), x-y, counter-clockwise)."""
    C = np.asarray(section, dtype=float)
    if C.ndim != 2 or C.shape[1] != 2 or len(C) < 3:
        raise PatternError(f"section must be an array of shape (P, 2) with P >= 3 corners, got shape {C.shape}")
    L = positive("length", length, PatternError)
    P = len(C)
    d = np.roll(C, -1, axis=0) - C
    cross = d[:, 0] * np.roll(d, -1, axis=0)[:, 1] - d[:, 1] * np.roll(d, -1, axis=0)[:, 0]
    if not np.all(cross > 0):
        k = int(np.argmin(cross))
        raise PatternError(f"section must be a convex polygon listed counter-clockwise; the turn at corner "
                           f"{(k + 1) % P + 1} is not a left turn")
    X = np.vstack([np.column_stack([C, np.zeros(P)]), np.column_stack([C, np.full(P, L)])])
    panels = [(k, (k + 1) % P, P + (k + 1) % P, P + k) for k in range(P)]
    edges = [((k + 1) % P, P + (k + 1) % P) for k in range(P)]
    edges += [(k, (k + 1) % P) for k in range(P)] + [(P + k, P + (k + 1) % P) for k in range(P)]
    # a ring of P panels on parallel hinge axes is a planar P-bar linkage: M = P - 3 (sec. 4.2)
    return CreasePattern(X, panels, edges=edges, generic_mechanisms=P - 3)


def rectangular_ring(width=2.0, depth=1.0, length=3.0):
    """The four-panel ring of Fig. 4: a box tube with a ``width`` x ``depth`` section, hinges of ``length``."""
    w, d = positive("width", width, PatternError), positive("depth", depth, PatternError)
    return panel_ring([(0, 0), (w, 0), (w, d), (0, d)], length)


def regular_ring(n_panels, radius=1.0, length=1.0):
    """Ring of ``n_panels`` equal panels round a regular prism (section inscribed in a circle of ``radius``)."""
    if not isinstance(n_panels, (int, np.integer)) or n_panels < 3:
        raise PatternError(f"a panel ring needs a whole number of at least 3 panels, got {n_panels!r}")
    r = positive("radius", radius, PatternError)
    a = 2 * np.pi * np.arange(n_panels) / n_panels
    return panel_ring(np.column_stack([r * np.cos(a), r * np.sin(a)]), length)


# ---------------------------------------------------------------- square twist
def square_twist(twist_deg=30.0, side=1.0, pleat=1.0):
    """Flat square twist of Fig. 1 (P = 9, H = 12, E_b = 8, V_i = 4); see the module docstring."""
    s, l = positive("side", side, PatternError), positive("pleat", pleat, PatternError)
    try:
        phi = float(twist_deg)
    except (TypeError, ValueError):
        raise PatternError(f"twist_deg must be an angle in degrees, got {twist_deg!r}") from None
    if not (np.isfinite(phi) and 0 < phi < 90):
        raise PatternError(f"twist_deg must lie strictly between 0 and 90 degrees, got {twist_deg!r}")
    c = 0.5 * s * np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], float)
    ang = np.radians(-90 + 90 * np.arange(4) + phi)        # d_k: outward normal of side k, turned by phi
    D = np.column_stack([np.cos(ang), np.sin(ang)])
    pts = list(c)
    for k in range(4):
        pts += [c[k] + l * D[k], c[(k + 1) % 4] + l * D[k]]
    X = np.column_stack([np.array(pts), np.zeros(12)])

    def a(k):   # pleat end of side k at c_k
        return 4 + 2 * (k % 4)

    def b(k):   # pleat end of side k at c_{k+1}
        return 5 + 2 * (k % 4)

    panels = [(0, 1, 2, 3)]
    panels += [(k, a(k), b(k), (k + 1) % 4) for k in range(4)]           # parallelograms, outside side k
    panels += [(k, b(k - 1), a(k)) for k in range(4)]                     # triangle at c_k
    edges = [(k, (k + 1) % 4) for k in range(4)]
    for k in range(4):
        edges += [(k, a(k)), ((k + 1) % 4, b(k))]
    for k in range(4):
        edges += [(a(k), b(k)), (b(k), a(k + 1))]
    # one internal mechanism at a generic folded state (Fig. 1: M = 1 in both models)
    return CreasePattern(X, panels, edges=edges, generic_mechanisms=1)


def square_twist_folded(fold_deg, twist_deg=30.0, side=1.0, pleat=1.0):
    """Rigidly folded square twist, in closed form; same numbering as :func:`square_twist`.

    The central square stays in the plane z = 0. Parallelogram k turns about
    side k (axis e_k, from c_k to c_{k+1}, right-hand rule) by s_k, with
    s_0 = ``fold_deg``. The triangle at c_k keeps its right angle when
    sin(phi) (cos s_k - cos s_{k-1}) + cos(phi) sin s_{k-1} sin s_k = 0, i.e.
    tan(s_k/2) = K tan(s_{k-1}/2) with K = cot(phi/2) or K = -tan(phi/2)
    (phi = ``twist_deg``). Taking K = cot(phi/2) at c_1 and c_3 and
    K = -tan(phi/2) at c_2 and c_0 closes the loop (the product of the four K
    is 1): s_1 = 2 atan(cot(phi/2) tan(s_0/2)), s_2 = -s_0, s_3 = -s_1.
    Every panel is congruent to its flat shape, so this is a rigid folding of
    the flat pattern; it is the configuration at which the paper's Fig. 1
    counts (M = 1, S_PH = 13) hold.
    """
    flat = square_twist(twist_deg, side, pleat)
    try:
        s0 = float(fold_deg)
    except (TypeError, ValueError):
        raise PatternError(f"fold_deg must be an angle in degrees, got {fold_deg!r}") from None
    if not (np.isfinite(s0) and abs(s0) < 180):
        raise PatternError(f"fold_deg must lie strictly between -180 and 180 degrees, got {fold_deg!r}")
    s0 = np.radians(s0)
    phi = np.radians(float(twist_deg))
    s1 = 2 * np.arctan(np.tan(s0 / 2) / np.tan(phi / 2))
    s = [s0, s1, -s0, -s1]
    X = flat.vertices.copy()
    c = X[:4]
    for k in range(4):
        e = c[(k + 1) % 4] - c[k]
        R = rotation_about(e, s[k])
        for v, base in ((4 + 2 * k, c[k]), (5 + 2 * k, c[(k + 1) % 4])):
            X[v] = base + R @ (flat.vertices[v] - base)
    return flat.with_vertices(X)
