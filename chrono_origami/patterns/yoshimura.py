"""The Yoshimura wedge: a triangular portion of the Yoshimura pattern (paper secs. 3.4.3, 4.2.2; Figs. 2, 7; Table 4).

Flat pattern (:func:`wedge_pattern`), in the x-z plane (y = 0), lengths in the
units of ``long_side``. The panels are isosceles triangles with a vertical
long side ``a`` (1.8 in the paper) and two base angles ``alpha`` (22.5 deg):
their apex lies ``h = (a/2) tan(alpha)`` beside the long side, at its
mid-height. With ``n`` base elements (5 in the paper):

Vertices (0-based here, 1-based in print, as in the paper's Table 4), row by
row from the base up and left to right in a row:

* row 0 (the base, z = 0): ``2n + 1`` vertices at x = j h, j = 0..2n
  (paper: vertices 1-11);
* row r = 1..n (z = r a/2): ``n + 1 - r`` vertices at x = (2k + r) h,
  k = 0..n-r (paper: 12-16, 17-20, 21-23, 24-25 and the tip 26).

Panels (``n (n + 1)``; 30 in the paper), tier by tier from the base up and
left to right in a tier:

* tier 0: the ``2n`` bottom-row right triangles (legs h and a/2): the halves
  above the base line z = 0 of the triangles whose long side lies on an odd
  column j. They come in pairs, (j-1, j, top) and (j, j+1, top), with top the
  row-1 vertex above j, split by the short vertical hinge j -> top (length
  a/2, the upper half of that long side);
* tier t = 1..n-1: ``2 (n - t)`` full triangles whose long side runs from
  row t-1 to row t+1 (centroid at z = t a/2); each long side carries its left
  triangle, then its right one.

Orientation: every loop runs counter-clockwise in the (x, z) plane seen with x
to the right and z up, so the flat normal is m = -y (right-hand rule).

Hinges (``n (3n - 1) / 2``; 35 in the paper): first the ``n (n + 1) / 2``
vertical hinges (15 in the paper: the ``n`` short ones of tier 0, then the
long sides), then the ``n (n - 1)`` inclined ones (20); each group sorted by
the height of its midpoint, then by x. Boundary edges (``4n``; 20) come last
in the edge list. Interior vertices: ``(n - 1)(n - 2) / 2`` (6 in the paper).

Folded wedge (:func:`table4_structure`): the same topology at the paper's
Table 4 coordinates, with the supports of sec. 4.2.2 and the tip load.
"""
import numpy as np

from ..crease.pattern import CreasePattern
from ..structure.structure import Load, Structure, Support
from ..structure.hinges import DOOR, SLIDING
from ..tools.errors import PatternError, StructureError, positive

#: Paper values (sec. 3.4.3): long side of the isosceles triangles and their base angle (deg).
LONG_SIDE = 1.8
BASE_ANGLE_DEG = 22.5
#: Number of base elements of the paper's wedge (11 base vertices, 26 vertices).
N_BASE = 5

#: Table 4 of the paper: vertex coordinates of the folded wedge of Fig. 7
#: (1-based vertex i is row i-1). Checked against tests/data/table04_yoshimura_wedge_vertices.csv.
TABLE4_VERTICES = np.array([
    [2.2806e-01, -1.7867e-01, 8.760393e-05],
    [5.5537e-01, -2.2498e-04, 5.584535e-08],
    [8.8252e-01, -1.7896e-01, 8.795992e-05],
    [1.2096e+00, -1.1246e-04, -2.770419e-09],
    [1.5368e+00, -1.7874e-01, 3.583811e-07],
    [1.8640e+00, -1.2845e-13, 9.233695e-15],
    [2.1911e+00, -1.7874e-01, 3.584869e-07],
    [2.5182e+00, 1.1253e-04, 4.181614e-10],
    [2.8454e+00, -1.7853e-01, -1.375840e-06],
    [3.1725e+00, 2.2495e-04, 7.539000e-10],
    [3.4996e+00, -1.7872e-01, -1.750372e-06],
    [5.5537e-01, 2.1689e-04, 8.999997e-01],
    [1.2097e+00, 1.0814e-04, 9.000000e-01],
    [1.8640e+00, 7.0238e-13, 9.000000e-01],
    [2.5182e+00, 1.0816e-04, 9.000000e-01],
    [3.1725e+00, 2.1686e-04, 8.999997e-01],
    [8.8263e-01, 5.0949e-01, 1.663227e+00],
    [1.5369e+00, 5.0929e-01, 1.663310e+00],
    [2.1910e+00, 5.0929e-01, 1.663314e+00],
    [2.8453e+00, 5.0915e-01, 1.663456e+00],
    [1.2099e+00, 1.2717e+00, 2.173996e+00],
    [1.8640e+00, 1.2718e+00, 2.173735e+00],
    [2.5182e+00, 1.2714e+00, 2.174276e+00],
    [1.5368e+00, 2.1716e+00, 2.353834e+00],
    [2.1915e+00, 2.1713e+00, 2.354493e+00],
    [1.8647e+00, 3.0718e+00, 2.177855e+00],
])


def _check_n(n):
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool) or n < 1:
        raise PatternError(f"a Yoshimura wedge needs a whole number n >= 1 of base elements, got {n!r}")
    return int(n)


def vertex_index(n, row, k):
    """0-based index of vertex ``k`` (from the left) of ``row`` (0 = base) in a wedge with ``n`` base elements."""
    n = _check_n(n)
    if not 0 <= row <= n:
        raise PatternError(f"row {row} does not exist: a wedge with n = {n} has rows 0..{n}")
    size = 2 * n + 1 if row == 0 else n + 1 - row
    if not 0 <= k < size:
        raise PatternError(f"row {row} has {size} vertices (k = 0..{size - 1}), got k = {k}")
    if row == 0:
        return k
    start = 2 * n + 1 + sum(n + 1 - r for r in range(1, row))
    return start + k


def row_sizes(n):
    """Number of vertices in rows 0..n."""
    n = _check_n(n)
    return [2 * n + 1] + [n + 1 - r for r in range(1, n + 1)]


def base_vertices(n=N_BASE):
    """0-based indices of the base vertices (row 0, z = 0), left to right."""
    return list(range(2 * _check_n(n) + 1))


def tip_vertex(n=N_BASE):
    """0-based index of the tip (the single vertex of row n; paper: vertex 26)."""
    return vertex_index(n, n, 0)


def _grid(n):
    """(row, c) of each vertex, with x = c h: c = j in row 0, c = 2k + r in row r."""
    out = [(0, j) for j in range(2 * n + 1)]
    for r in range(1, n + 1):
        out += [(r, 2 * k + r) for k in range(n + 1 - r)]
    return out


def _panels(n):
    """Panel loops (counter-clockwise in (x, z)), tier by tier, left to right."""
    V = {rc: i for i, rc in enumerate(_grid(n))}
    loops = []
    # tier 0: bottom-row half triangles, split by the short vertical hinge at odd j
    for j in range(1, 2 * n, 2):
        top = V[(1, j)]
        loops.append((V[(0, j - 1)], V[(0, j)], top))
        loops.append((V[(0, j)], V[(0, j + 1)], top))
    # tier t: long side from row t-1 to row t+1 at column c, apexes at columns c -/+ 1 in row t
    for t in range(1, n):
        lo = t - 1
        cols = [c for (r, c) in V if r == lo and (t + 1, c) in V]
        for c in sorted(cols):
            a, b = V[(lo, c)], V[(t + 1, c)]
            loops.append((a, b, V[(t, c - 1)]))   # left triangle: up the long side, then to the left apex
            loops.append((a, V[(t, c + 1)], b))   # right triangle
    return loops


def _sizes(long_side, base_angle_deg):
    """(a, h): the triangles' long side and height h = (a/2) tan(alpha), checked (length units)."""
    a = positive("long_side", long_side, PatternError, noun="length")
    alpha = float(base_angle_deg)
    if not (np.isfinite(alpha) and 0 < alpha < 90):
        raise PatternError(f"base_angle_deg must lie strictly between 0 and 90 degrees, got {base_angle_deg!r}")
    return a, 0.5 * a * np.tan(np.radians(alpha))


def wedge_pattern(n=N_BASE, long_side=LONG_SIDE, base_angle_deg=BASE_ANGLE_DEG):
    """Flat wedge in the x-z plane (y = 0); numbering and orientation as in the module docstring."""
    n = _check_n(n)
    a, h = _sizes(long_side, base_angle_deg)
    X = np.array([[c * h, 0.0, r * 0.5 * a] for r, c in _grid(n)])
    loops = _panels(n)
    return CreasePattern(X, loops, edges=_edge_order(X, loops))


def _edge_order(X, loops):
    """Vertical hinges, inclined hinges, boundary edges; each by midpoint height, then x."""
    count = {}
    for loop in loops:
        for i in range(3):
            e = tuple(sorted((loop[i], loop[(i + 1) % 3])))
            count[e] = count.get(e, 0) + 1

    def key(e):
        a, b = X[e[0]], X[e[1]]
        mid = 0.5 * (a + b)
        vertical = abs(a[0] - b[0]) < 1e-12 * (1 + abs(a[0]))
        group = 2 if count[e] == 1 else (0 if vertical else 1)
        return (group, round(mid[2], 9), round(mid[0], 9))

    return sorted(count, key=key)


# --------------------------------------------------------------- hinge choices
def _check_pattern(pattern, n):
    n = _check_n(n)
    nv = 2 * n + 1 + n * (n + 1) // 2
    if pattern.n_vertices != nv or pattern.n_panels != n * (n + 1):
        raise StructureError(f"the pattern ({pattern.n_vertices} vertices, {pattern.n_panels} panels) is not a "
                             f"Yoshimura wedge with n = {n} ({nv} vertices, {n * (n + 1)} panels)")
    return n


def isostatic_sliding_hinges(pattern, n=N_BASE):
    """0-based hinges made sliding for the isostatic wedge: three per interior vertex.

    At each interior vertex the three hinges that leave it *upwards* (to the
    vertex above it and the two inclined ones up to the next row) are sliding.
    Each hinge leaves exactly one vertex upwards, so the 3 V_i choices are
    distinct (18 for n = 5). The six hinges at an interior vertex close a ring
    of panels with three independent self-stress states (S_PH - S_BF = 3 per
    vertex); three sliding hinges there, with axes not coplanar (true in the
    folded state, not in the flat one), release them: at Table 4's
    configuration S = 0 (and M = 0 with the supports), while the flat wedge
    with the same choice is singular. The choice is not unique (the three
    downward hinges work too); this one is simple and defined for any n.
    """
    n = _check_pattern(pattern, n)
    grid = _grid(n)
    interior = set(pattern.interior_vertices)
    out = []
    for h in pattern.hinges:
        a, b = h.vertices
        lower = a if grid[a][0] < grid[b][0] else b
        if lower in interior:
            out.append(h.index)
    return sorted(out)


def hinge_kinds(pattern, kind="isostatic", n=N_BASE):
    """Hinge kinds: ``"isostatic"`` (see :func:`isostatic_sliding_hinges`) or ``"door"`` (all door)."""
    if kind == "door":
        return (DOOR,) * len(pattern.hinges)
    if kind == "isostatic":
        sl = set(isostatic_sliding_hinges(pattern, n))
        return tuple(SLIDING if h in sl else DOOR for h in range(len(pattern.hinges)))
    raise StructureError(f"unknown Yoshimura hinge choice {kind!r}; expected 'isostatic' or 'door'")


def wedge_supports(pattern, n=N_BASE, fixed_x=None):
    """Supports of sec. 4.2.2: every base vertex held in y and z, the middle one (paper: vertex 6) also in x.

    Each support acts on a bottom-row half triangle (tier 0, the panels whose
    base edge rests on z = 0): base vertex j on the half triangle to its right,
    (j, j+1, top), and the last base vertex (j = 2n) on the one to its left.
    ``fixed_x`` (0-based) overrides the vertex also held in x (default j = n).
    """
    n = _check_pattern(pattern, n)
    fixed_x = n if fixed_x is None else fixed_x
    if fixed_x not in range(2 * n + 1):
        raise StructureError(f"fixed_x must be a base vertex (1..{2 * n + 1} in print), got {fixed_x!r} (0-based)")
    out = []
    for j in range(2 * n + 1):
        panel = min(j, 2 * n - 1)   # tier-0 panel k spans base vertices k, k+1
        if j not in pattern.panels[panel]:
            raise StructureError(f"base vertex {j + 1} is not on bottom-row panel {panel + 1}: not a wedge pattern")
        out.append(Support(j, panel, "xyz" if j == fixed_x else "yz"))
    return tuple(out)


def tip_load(n=N_BASE, magnitude=1.0, panel=None):
    """Vertical downward load (0, 0, -magnitude) at the tip, shared by its panels unless ``panel`` is given."""
    return Load(tip_vertex(n), (0.0, 0.0, -float(magnitude)), panel)


def table4_pattern():
    """The paper's folded wedge (Table 4 coordinates), same numbering as ``wedge_pattern(5)``."""
    return wedge_pattern(N_BASE).with_vertices(TABLE4_VERTICES)


def wedge_structure(pattern, n=N_BASE, kind="isostatic", supported=True, loaded=True, name=None):
    """A folded wedge with ``n`` base elements (``pattern`` numbered as :func:`wedge_pattern`).

    kind: ``"isostatic"`` (three sliding hinges per interior vertex) or
    ``"door"``. supported: the supports of :func:`wedge_supports`. loaded: unit
    downward load at the tip, shared equally by its two panels (the paper does
    not say which panel carries it).
    """
    n = _check_pattern(pattern, n)
    return Structure(
        pattern, hinge_kinds=hinge_kinds(pattern, kind, n),
        supports=wedge_supports(pattern, n) if supported else (),
        loads=(tip_load(n),) if loaded else (),
        name=name or f"Yoshimura wedge (n = {n}, {kind})")


def table4_structure(kind="isostatic", supported=True, loaded=True, name=None):
    """The Yoshimura wedge of Fig. 7 at Table 4's coordinates (see :func:`wedge_structure`).

    ``"isostatic"``: 18 sliding hinges, M = 0, S = 0; ``"door"``: S = 18.
    """
    return wedge_structure(table4_pattern(), N_BASE, kind, supported, loaded,
                           name or f"Yoshimura wedge (Table 4, {kind})")


def strip_pattern(tiers, long_side=LONG_SIDE, base_angle_deg=BASE_ANGLE_DEG):
    """A flat Yoshimura strip two triangles wide (x in [0, 2h], h = (a/2) tan(alpha)) of ``tiers`` tiers of the
    wedge's full triangles (two a tier, centroids at z = t a/2, t = 1..tiers), in the x-z plane (y = 0) like
    :func:`wedge_pattern`, loops counter-clockwise in (x, z) (normal -y).

    Rows r = 0..tiers + 1 at z = r a/2: an even row holds x = 0 and 2h, an odd row x = h. Tier t has the two
    triangles on the long sides from row t - 1 to row t + 1: for odd t the right one on x = 0 and the left one on
    x = 2h (the strip's boundary), which share only their apex (t, h); for even t both on x = h. The ends are
    zigzags (the two triangles of tier 1, and of the last tier when it is odd, meet only at their apex). Every
    vertex at x = h of an odd row 3..tiers - 1 is the wedge's degree-6 vertex: two vertical hinges, collinear,
    and four inclined ones. Folded symmetrically (vertical valleys, inclined mountains) the strip curls about x
    and, long enough, closes on itself: its ends pass through each other."""
    if not isinstance(tiers, (int, np.integer)) or isinstance(tiers, bool) or tiers < 1:
        raise PatternError(f"a Yoshimura strip needs a whole number of tiers >= 1, got {tiers!r}")
    n = int(tiers)
    a, h = _sizes(long_side, base_angle_deg)
    V, X = {}, []
    for r in range(n + 2):
        for c in ((0, 2) if r % 2 == 0 else (1,)):
            V[(r, c)] = len(X)
            X.append([c * h, 0.0, r * 0.5 * a])
    loops = []
    for t in range(1, n + 1):
        for c in (0, 1, 2):
            if (t - 1, c) in V and (t + 1, c) in V:
                lo, hi = V[(t - 1, c)], V[(t + 1, c)]
                if (t, c - 1) in V:
                    loops.append((lo, hi, V[(t, c - 1)]))
                if (t, c + 1) in V:
                    loops.append((lo, V[(t, c + 1)], hi))
    return CreasePattern(np.array(X), loops)
