"""Flat tessellations as users draw them: the box pleat and the square-twist tessellation.

Both are flat (in the x-y plane, z = 0, every loop counter-clockwise seen
from +z, normals +z), all door hinges, unsupported and unloaded: a crease
pattern as it leaves an editor, to be counted (flat, they are singular
configurations with many mechanisms) or folded. Lengths in any consistent
unit. Counts of the flat state, with every hinge a door hinge (checked
against the dense SVD in ``tests/test_flat_patterns.py``):

========================  =============================  =================  ==================
pattern                   panels                         M                  S
========================  =============================  =================  ==================
box pleat n x n           n^2                            2 (n - 1)          4 (n - 1)^2
square twists n x n       n^2 + 2 n (n - 1) + (n - 1)^2  see below          see below
========================  =============================  =================  ==================

Box pleat (:func:`box_pleat`)
-----------------------------
Origami Simulator's ``BoxPleatTessellation.fold`` (Goran Konjevod): a square
sheet of side ``size`` (sqrt 2, centred on the origin, there) cut by the
grid lines into n x n squares (n = 75 there: 5,625 panels). Vertex (i, j),
i = column line 0..n along x, j = row line 0..n along y, is number
i (n + 1) + j; panel (k, j) is number k n + j with loop (k, j), (k+1, j),
(k+1, j+1), (k, j+1). Every grid line is a crease: flat, each of the 2 (n - 1)
interior lines folds on its own to first order (the mechanisms), and the
in-plane motions are those of one rigid sheet. The file marks the lines
1, 4, 7, ... and the last (0-based) as facet lines "F" and alternates
mountain and valley on the others in its pyramid pattern;
:func:`box_pleat_assignment` gives the F lines.

Square-twist tessellation (:func:`square_twist_tessellation`)
-------------------------------------------------------------
n x n square twists on a square grid of spacing ``spacing``: at each grid
point a square of side ``side``, turned by ``twist_deg`` about its centre
(the same way at every grid point); neighbouring twists are joined by a
pleat, the parallelogram between the facing sides of their squares; between
four twists lies a square (the corners of the four twist squares). Every
vertex is a corner of a twist square, where a twist square, a parallelogram,
a dual square and a parallelogram meet at 90, b, 90 and 180 - b degrees
(Kawasaki's condition holds: flat-foldable). Numbering: the twist squares
first (twist (i, j), i along x, is panel i n + j), then the horizontal
pleats (between twists (i, j) and (i+1, j)), the vertical pleats, and the dual
squares; twist (i, j)'s corners are vertices 4 (i n + j) + c, c = 0..3
counter-clockwise from its lower left corner (before the turn).
"""
import numpy as np

from ..crease.pattern import CreasePattern
from ..structure.structure import DOOR, Structure
from ..tools.errors import PatternError, positive


def _count(name, n, minimum=1):
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool) or n < minimum:
        raise PatternError(f"{name} must be a whole number >= {minimum}, got {n!r}")
    return int(n)


def _length(name, x):
    return positive(name, x, PatternError, "length units")


# ------------------------------------------------------------------ box pleat
def box_pleat_pattern(n=75, size=np.sqrt(2.0)):
    """Flat n x n box-pleat grid (module doc): (n + 1)^2 vertices, n^2 square panels, 2 n (n - 1) hinges."""
    n = _count("n", n)
    size = _length("size", size)
    h = size / n
    i, j = np.meshgrid(np.arange(n + 1), np.arange(n + 1), indexing="ij")
    X = np.column_stack([i.ravel() * h - size / 2, j.ravel() * h - size / 2, np.zeros((n + 1) ** 2)])
    v = lambda a, b: a * (n + 1) + b  # noqa: E731
    panels = [(v(k, j), v(k + 1, j), v(k + 1, j + 1), v(k, j + 1)) for k in range(n) for j in range(n)]
    # the panels are squares on grid lines: each interior line folds on its own (flat state)
    return CreasePattern(X, panels, generic_mechanisms=None)


def box_pleat_assignment(pattern, n=75):
    """FOLD assignment of each hinge of :func:`box_pleat_pattern`: "F" on Origami Simulator's facet lines
    (grid lines 1, 4, 7, ... and n - 1, 0-based), "M"/"V" alternating on the others (by line)."""
    n = _count("n", n)
    X = pattern.vertices
    h = (X[:, 0].max() - X[:, 0].min()) / n
    facet = set(range(1, n, 3)) | {n - 1}
    out = []
    for hinge in pattern.hinges:
        a, b = hinge.vertices
        vertical = abs(X[a, 0] - X[b, 0]) < 0.5 * h        # a line of constant x
        line = int(round((X[a, 0 if vertical else 1] - X[:, 0 if vertical else 1].min()) / h))
        out.append("F" if line in facet else ("M" if line % 2 else "V"))
    return out


def box_pleat(n=75, size=np.sqrt(2.0), name=None):
    """The flat n x n box pleat, every hinge a door hinge, unsupported (module doc); M = 2 (n - 1), S = 4 (n - 1)^2."""
    pat = box_pleat_pattern(n, size)
    return Structure(pat, (DOOR,) * len(pat.hinges), name=name or f"box pleat {n} x {n} (flat)",
                     notes=dict(n=n, size=size))


# ------------------------------------------------------------------ square-twist tessellation
def square_twist_tessellation_pattern(n=3, twist_deg=30.0, side=1.0, spacing=2.0):
    """Flat n x n square-twist tessellation (module doc)."""
    n = _count("n", n)
    s, D = _length("side", side), _length("spacing", spacing)
    try:
        a = float(twist_deg)
    except (TypeError, ValueError):
        raise PatternError(f"twist_deg must be an angle in degrees, got {twist_deg!r}") from None
    if not (np.isfinite(a) and 0 < a < 90):
        raise PatternError(f"twist_deg must lie strictly between 0 and 90 degrees, got {twist_deg!r}")
    c, sn = np.cos(np.radians(a)), np.sin(np.radians(a))
    corners = 0.5 * s * np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], float) @ np.array([[c, sn], [-sn, c]])
    if D <= s * (c + sn):
        raise PatternError(f"the twist squares overlap: spacing must exceed side (cos a + sin a) = "
                           f"{s * (c + sn):.6g}, got {D!r}")
    i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    centres = D * np.column_stack([i.ravel(), j.ravel()]).astype(float)
    X = (centres[:, None, :] + corners[None, :, :]).reshape(-1, 2)
    X = np.column_stack([X, np.zeros(len(X))])

    def v(i, j, corner):
        return 4 * (i * n + j) + corner

    panels = [(v(i, j, 0), v(i, j, 1), v(i, j, 2), v(i, j, 3)) for i in range(n) for j in range(n)]
    # pleats: right side (corners 1, 2) of (i, j) to left side (corners 0, 3) of (i+1, j); top side (2, 3) of (i, j)
    # to bottom side (1, 0) of (i, j+1)
    panels += [(v(i, j, 1), v(i + 1, j, 0), v(i + 1, j, 3), v(i, j, 2)) for i in range(n - 1) for j in range(n)]
    panels += [(v(i, j, 3), v(i, j, 2), v(i, j + 1, 1), v(i, j + 1, 0)) for i in range(n) for j in range(n - 1)]
    # dual squares: corner 2 of (i, j), 3 of (i+1, j), 0 of (i+1, j+1), 1 of (i, j+1)
    panels += [(v(i, j, 2), v(i + 1, j, 3), v(i + 1, j + 1, 0), v(i, j + 1, 1))
               for i in range(n - 1) for j in range(n - 1)]
    return CreasePattern(X, panels, generic_mechanisms=None)


def square_twist_tessellation(n=3, twist_deg=30.0, side=1.0, spacing=2.0, name=None):
    """The flat n x n square-twist tessellation, every hinge a door hinge, unsupported (module doc)."""
    pat = square_twist_tessellation_pattern(n, twist_deg, side, spacing)
    return Structure(pat, (DOOR,) * len(pat.hinges), name=name or f"square-twist tessellation {n} x {n} (flat)",
                     notes=dict(n=n, twist_deg=twist_deg, side=side, spacing=spacing))
