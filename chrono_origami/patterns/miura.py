"""Miura-ori structures of the paper (sec. 4.2.1; Figs. 5 and 6; Tables 1-3).

Builders: :func:`miura_cantilever` (Fig. 6, Tables 1-3) and
:func:`miura_cantilever_from_vertices` (same structure at given coordinates,
e.g. :data:`TABLE1_VERTICES`); :func:`miura_single_vertex` (Fig. 5 left);
:func:`miura_strip` (Fig. 5 right); :func:`miura_patch` (any size, for
counting and benchmarks). Lengths in any consistent unit, angles in degrees.

Layout and numbering (every builder; 0-based here, +1 in print)
---------------------------------------------------------------
A grid of ``rows`` x ``cols`` quadrilateral panels. Column line i = 0..cols
runs along y (a straight crease of the Miura-ori); row line j = 0..rows runs
along x (a zigzag crease). Vertex (i, j) is number ``i (rows + 1) + j``:
column line by column line, bottom to top. Panel (k, j) (column k, row j) is
number ``k rows + j`` with loop (k, j) -> (k+1, j) -> (k+1, j+1) -> (k, j+1):
counter-clockwise in the flat pattern, normal +z there. Hinges are numbered
column by column: for k = 0..cols-1, first the zigzag creases inside panel
column k (edges (k, j)-(k+1, j), j = 1..rows-1), then the straight creases on
column line k+1 (edges (k+1, j)-(k+1, j+1), j = 0..rows-1) unless it is the
last line. Boundary edges follow.

The cantilever's numbering, inferred from Tables 1-3
----------------------------------------------------
* Vertices (Table 1): 21 points in 7 groups of 3 with (nearly) equal x --
  the column lines, from the loaded tip (x = 0.114) to the clamped end
  (x = 11.772) -- each group by increasing y: bottom edge, zigzag crease, top
  edge. That is the layout above with rows = 2, cols = 6.
* Panels (Table 3): the supports at vertices 19 and 20 act on panel 11, the
  one at vertex 21 on panel 12, so the panels of column k are 2k+1 (lower,
  vertices 3k+1, 3k+4, 3k+5, 3k+2) and 2k+2 (upper). Table 2 confirms it:
  its rows come three per column, (3k+1, 2k+1), (3k+2, 2k+1), (3k+3, 2k+2),
  each on the lower-numbered panel of its hinge.
* Hinges (Table 2): hinge 3k+1 is the zigzag crease of column k (between
  panels 2k+1 and 2k+2), 3k+2 and 3k+3 the lower and upper straight creases
  on column line k+1; the last column adds only its zigzag crease, hinge 16.
  Which of the two hinges on panel 2k+1 is the zigzag one is settled by the
  values: with the straight crease first the rows no longer match. The door
  hinge is hinge 16, the only row with a non-zero parallel shear TP
  (12.588); it is the zigzag crease of the clamped column.
* Loops start at (k, j), (k+1, j), (k+1, j+1): panel 1 is (1, 4, 5, 2).
  Table 1's configuration is the end of the paper's numerical folding run and
  is not an exact rigid fold: its edge lengths differ from the flat ones by up
  to 3.9e-4 and its quadrilaterals are out of plane by up to 6e-4 rad. On
  such data the panel normal, hence every hinge frame, depends on how it is
  computed. Table 2's rows are reproduced (to 0.2 of the tolerance) when the
  normal of each panel is that of the plane of its loop's first three
  vertices, e.g. vertices 1, 4, 5 for panel 1 -- the paper's body frames --
  and not with Newell's mean normal (row (12, 8) misses by 1.07 x the
  tolerance). The cantilever patterns therefore use
  ``normal_rule="first-three"``; on exact geometry both rules agree.

Folded Miura-ori (closed form)
------------------------------
Sector angle ``alpha``: the acute angle, in the flat pattern, between a
straight-crease segment (along +y) and a zigzag segment. The fold angle
``theta`` is the angle between the normals of two panels on either side of a
straight crease (all such pairs agree). In the folded state the zigzag lines
stay horizontal (zigzag segments at angle ``psi`` from y in the plane z =
const) and the straight lines lie in the planes x = const (segments at
elevation ``beta`` from y, alternating up and down). Every panel keeps its
shape when ``cos psi cos beta = cos alpha`` (the sector angle), and then

    tan beta = sin(theta / 2) tan alpha,    cos psi = cos alpha / cos beta.

The column lines are ``a sin psi`` apart along x and alternate columns are
shifted by ``a cos psi`` along y, where ``a`` is the zigzag segment length.
theta = 0 is the flat pattern.

The paper's fold: "the angle between the normals to panels 2 and 3 equal to
27.4 degrees". In the Tables' numbering panels 2 and 3 share only vertex 5
and their normals are 49.2 degrees apart in Table 1, while the pairs across
a straight crease, (1, 3), (2, 4), ..., are 27.41-27.46 degrees apart; the
exact fold closest to Table 1 (least squares after the best rigid alignment)
has theta = 27.43 degrees. So ``fold_angle_deg`` is theta as defined above.

What the exact fold does not reproduce: Table 1 itself (it is 1.1e-3 from
the exact fold at 27.4 degrees, more than its printed digits) and Table 2
(15 of its 16 rows differ by 1.6-7.1 x the tolerance; at best, 27.415
degrees, by 4.95 x). The structure amplifies the geometric drift of Table 1
-- its reactions reach 20 times the load -- so the paper's internal actions
belong to its drifted configuration, which Table 1 gives (Table 2 from Table
1's coordinates matches every row). Table 3 matches from both geometries.
"""
import numpy as np

from ..crease.pattern import CreasePattern
from ..structure import hinges
from ..structure.structure import Load, Structure, Support
from ..structure.hinges import DOOR, SLIDING
from ..tools.errors import PatternError, StructureError, positive

#: Internal mechanisms of a folded Miura-ori of any size (sec. 4.2.1: "regular
#: Miura-ori origami structures always possess just one internal mechanism");
#: the counting rules take M from here (see reference.count).
MIURA_MECHANISMS = 1

#: The paper's cantilever (sec. 4.2.1): right trapezoids of height 2 and bases 1 and 2, 6 columns, fold 27.4 deg.
HEIGHT, SHORT_BASE, LONG_BASE = 2.0, 1.0, 2.0
COLUMNS = 6
FOLD_ANGLE_DEG = 27.4

#: Table 1 of the paper: vertex coordinates of the folded cantilever of Fig. 6(b)
#: (row i is vertex i + 1). Checked against tests/data/table01_miura_cantilever_vertices.csv.
TABLE1_VERTICES = np.array([
    [1.1407e-01, 1.9321e-01, -8.576664e-01],
    [1.1405e-01, 2.0000e+00, 1.298076e-04],
    [1.1406e-01, 2.9037e+00, -4.283182e-01],
    [2.0570e+00, -1.0121e-02, -4.291978e-01],
    [2.0570e+00, 8.9329e-01, 4.229811e-04],
    [2.0571e+00, 2.7007e+00, -8.567885e-01],
    [4.0000e+00, 1.9317e-01, -8.575398e-01],
    [4.0000e+00, 2.0000e+00, 2.918110e-12],
    [4.0000e+00, 2.9037e+00, -4.281852e-01],
    [5.9430e+00, -1.0162e-02, -4.290680e-01],
    [5.9430e+00, 8.9325e-01, 2.931740e-04],
    [5.9430e+00, 2.7006e+00, -8.566587e-01],
    [7.8860e+00, 1.9313e-01, -8.574100e-01],
    [7.8860e+00, 2.0000e+00, -1.298071e-04],
    [7.8860e+00, 2.9036e+00, -4.280554e-01],
    [9.8289e+00, -1.0203e-02, -4.289382e-01],
    [9.8289e+00, 8.9321e-01, 1.633668e-04],
    [9.8290e+00, 2.7006e+00, -8.565289e-01],
    [1.1772e+01, 1.9309e-01, -8.572739e-01],
    [1.1772e+01, 1.9999e+00, -2.596132e-04],
    [1.1772e+01, 2.9036e+00, -4.279319e-01],
])


# ----------------------------------------------------------------- numbering
def grid_vertex(i, j, rows):
    """0-based number of vertex (column line i, row line j)."""
    return i * (rows + 1) + j


def grid_panel(k, j, rows):
    """0-based number of panel (column k, row j)."""
    return k * rows + j


def grid_topology(rows, cols):
    """(panels, edges) of a rows x cols grid in the module's numbering (hinges first, then boundary)."""
    _check_count("rows", rows)
    _check_count("cols", cols)
    v = lambda i, j: grid_vertex(i, j, rows)  # noqa: E731
    panels = [(v(k, j), v(k + 1, j), v(k + 1, j + 1), v(k, j + 1)) for k in range(cols) for j in range(rows)]
    edges = []
    for k in range(cols):
        edges += [(v(k, j), v(k + 1, j)) for j in range(1, rows)]
        if k + 1 < cols:
            edges += [(v(k + 1, j), v(k + 1, j + 1)) for j in range(rows)]
    edges += [(v(0, j), v(0, j + 1)) for j in range(rows)]
    edges += [(v(cols, j), v(cols, j + 1)) for j in range(rows)]
    edges += [(v(k, 0), v(k + 1, 0)) for k in range(cols)]
    edges += [(v(k, rows), v(k + 1, rows)) for k in range(cols)]
    return panels, edges


def _check_count(what, n, minimum=1):
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < minimum:
        raise PatternError(f"{what} must be an integer >= {minimum}, got {n!r}")


# ----------------------------------------------------------------- folding
def fold_parameters(sector_angle_deg, fold_angle_deg):
    """(beta, psi) in radians of the folded Miura-ori (closed form, see module docstring).

    ``sector_angle_deg`` alpha in (0, 90); ``fold_angle_deg`` theta in [0, 180).
    """
    alpha = float(sector_angle_deg)
    theta = float(fold_angle_deg)
    if not (np.isfinite(alpha) and 0 < alpha < 90):
        raise PatternError(f"the sector angle must be in (0, 90) degrees, got {sector_angle_deg!r}")
    if not (np.isfinite(theta) and 0 <= theta < 180):
        raise PatternError(f"the fold angle must be in [0, 180) degrees, got {fold_angle_deg!r}")
    alpha, theta = np.radians(alpha), np.radians(theta)
    beta = np.arctan(np.sin(theta / 2) * np.tan(alpha))
    psi = np.arccos(np.clip(np.cos(alpha) / np.cos(beta), -1.0, 1.0))
    return float(beta), float(psi)


def fold_angle_between(normal_1, normal_2):
    """Angle (deg) between two panel normals."""
    c = np.dot(normal_1, normal_2) / (np.linalg.norm(normal_1) * np.linalg.norm(normal_2))
    return float(np.degrees(np.arccos(np.clip(c, -1.0, 1.0))))


# ----------------------------------------------------------------- cantilever
def cantilever_vertices(columns=COLUMNS, fold_angle_deg=FOLD_ANGLE_DEG, height=HEIGHT,
                        short_base=SHORT_BASE, long_base=LONG_BASE):
    """Vertex coordinates (3 (columns + 1) x 3) of the folded trapezoid cantilever of Fig. 6.

    Flat pattern (fold 0): column line i at x = i height, bottom edge y = 0,
    top edge y = short + long, zigzag vertex at y = long (i even) or short
    (i odd), z = 0. Folded: zigzag crease in the plane z = 0, column lines in
    the planes x = const, boundary edges below (z < 0); the zigzag vertex of
    column line 2 stays at (2 height, long, 0), as vertex 8 does in Table 1.
    """
    _check_count("columns", columns)
    for name, x in (("height", height), ("short_base", short_base), ("long_base", long_base)):
        positive(f"the trapezoid {name}", x, PatternError, noun="length")
    if not long_base > short_base:
        raise PatternError(f"long_base ({long_base}) must exceed short_base ({short_base}): the panels are right "
                           "trapezoids with a slanted zigzag side")
    a = np.hypot(height, long_base - short_base)          # zigzag segment
    alpha = np.degrees(np.arctan2(height, long_base - short_base))
    beta, psi = fold_parameters(alpha, fold_angle_deg)
    d, shift = a * np.sin(psi), a * np.cos(psi)
    down = np.array([0.0, -np.cos(beta), -np.sin(beta)])   # from the zigzag vertex to the bottom edge
    up = np.array([0.0, np.cos(beta), -np.sin(beta)])      # from the zigzag vertex to the top edge
    X = []
    for i in range(columns + 1):
        mid = np.array([2 * height + (i - 2) * d, long_base - (i % 2) * shift, 0.0])
        lo, hi = (long_base, short_base) if i % 2 == 0 else (short_base, long_base)
        X += [mid + lo * down, mid, mid + hi * up]
    return np.array(X)


def cantilever_pattern(vertices):
    """The cantilever's crease pattern (rows = 2) at the given vertices, paper numbering, paper panel frames."""
    X = np.asarray(vertices, float)
    if X.ndim != 2 or X.shape[1] != 3:
        raise PatternError(f"vertices must be an array of shape (V, 3), got shape {X.shape}")
    n = len(X) // 3 - 1
    if len(X) % 3 or n < 1:
        raise PatternError(f"a Miura-ori cantilever has 3 vertices per column line, 3 x (columns + 1) >= 6 "
                           f"in all; got {len(X)} vertices")
    panels, edges = grid_topology(2, n)
    return CreasePattern(X, panels, edges=edges, normal_rule="first-three", generic_mechanisms=MIURA_MECHANISMS)


def miura_cantilever_from_vertices(vertices, load=1.0, thickness=0.0, density=1.0, name="Miura-ori cantilever"):
    """The cantilever of Fig. 6 (any number of columns) at given coordinates, e.g. :data:`TABLE1_VERTICES`.

    Hinges: all sliding but the last, the zigzag crease of the clamped column
    (door; hinge 16 for 6 columns). Supports (Table 3) on the last column
    line: its bottom and top vertices pinned (xyz) on the lower and upper
    panel, its zigzag vertex held along x on the lower panel (19, 20, 21 on
    panels 11, 11, 12 for 6 columns). Load: ``load`` downward (-z) at vertex 2,
    shared equally by panels 1 and 2.
    """
    pat = cantilever_pattern(vertices)
    n = pat.n_panels // 2
    if not np.isfinite(load):
        raise StructureError(f"load must be a finite number, got {load!r}")
    kinds = [SLIDING] * (len(pat.hinges) - 1) + [DOOR]
    last = 3 * n   # bottom vertex of the last column line (0-based)
    lower, upper = 2 * (n - 1), 2 * (n - 1) + 1
    supports = (Support(last, lower, "xyz"), Support(last + 1, lower, "x"), Support(last + 2, upper, "xyz"))
    loads = (Load(1, (0.0, 0.0, -float(load)), None),)
    return Structure(pat, tuple(kinds), thickness, density, supports, loads, name=name,
                     notes={"columns": n})


def miura_cantilever(columns=COLUMNS, fold_angle_deg=FOLD_ANGLE_DEG, height=HEIGHT, short_base=SHORT_BASE,
                     long_base=LONG_BASE, load=1.0, thickness=0.0, density=1.0, name=None):
    """The isostatic Miura-ori cantilever of Fig. 6, folded exactly to ``fold_angle_deg`` (closed form).

    Defaults are the paper's (6 columns, 27.4 deg, trapezoids 2 x (1, 2), unit
    tip load). See :func:`cantilever_vertices` for the geometry and
    :func:`miura_cantilever_from_vertices` for hinges, supports and load.
    """
    X = cantilever_vertices(columns, fold_angle_deg, height, short_base, long_base)
    s = miura_cantilever_from_vertices(X, load, thickness, density,
                                       name or f"Miura-ori cantilever ({columns} columns, {fold_angle_deg:g} deg)")
    s.notes.update(fold_angle_deg=float(fold_angle_deg), height=height, short_base=short_base, long_base=long_base)
    return s


# ----------------------------------------------------------------- parallelogram Miura-ori
def miura_vertices(rows, cols, sector_angle_deg=60.0, fold_angle_deg=60.0, a=1.0, b=1.0):
    """Vertices ((cols + 1)(rows + 1) x 3) of a folded parallelogram Miura-ori, in the module's numbering.

    ``a``: zigzag segment length; ``b``: straight segment length;
    ``sector_angle_deg``: the acute angle between them. Vertex (i, j) is at
    (i a sin psi, j b cos beta - (i mod 2) a cos psi, (j mod 2) b sin beta).
    """
    _check_count("rows", rows)
    _check_count("cols", cols)
    for name, x in (("a", a), ("b", b)):
        positive(f"the segment length {name}", x, PatternError, noun="length")
    beta, psi = fold_parameters(sector_angle_deg, fold_angle_deg)
    i, j = np.meshgrid(np.arange(cols + 1), np.arange(rows + 1), indexing="ij")
    i, j = i.ravel(), j.ravel()
    return np.column_stack([i * a * np.sin(psi), j * b * np.cos(beta) - (i % 2) * a * np.cos(psi),
                            (j % 2) * b * np.sin(beta)])


def miura_pattern(rows, cols, sector_angle_deg=60.0, fold_angle_deg=60.0, a=1.0, b=1.0):
    """Crease pattern of a folded rows x cols parallelogram Miura-ori (module numbering)."""
    panels, edges = grid_topology(rows, cols)
    return CreasePattern(miura_vertices(rows, cols, sector_angle_deg, fold_angle_deg, a, b), panels, edges=edges,
                         generic_mechanisms=MIURA_MECHANISMS)


def miura_patch(rows, cols, sector_angle_deg=60.0, fold_angle_deg=60.0, a=1.0, b=1.0, hinge_kind=DOOR,
                thickness=0.0, density=1.0, name=None):
    """Unsupported, unloaded rows x cols Miura-ori patch with every hinge of kind ``hinge_kind``."""
    if not (isinstance(hinge_kind, str) and hinge_kind in hinges.names()):
        raise StructureError(f"hinge_kind must be {hinges.expected()}, got {hinge_kind!r}")
    pat = miura_pattern(rows, cols, sector_angle_deg, fold_angle_deg, a, b)
    return Structure(pat, (hinge_kind,) * len(pat.hinges), thickness, density,
                     name=name or f"Miura-ori patch {rows} x {cols}",
                     notes=dict(rows=rows, cols=cols, sector_angle_deg=sector_angle_deg, fold_angle_deg=fold_angle_deg))


def miura_strip(steps, sector_angle_deg=60.0, fold_angle_deg=60.0, a=1.0, b=1.0, door_hinge=1,
                thickness=0.0, density=1.0, name=None):
    """Sequential isostatic Miura-ori strip of Fig. 5 (right): one door hinge, all others sliding.

    The single-vertex Miura (2 x 2 panels, interior vertex (1, 1), hinges 1-4)
    grown by ``steps`` columns: each step adds two panels and three sliding
    hinges (two straight creases and the new column's zigzag crease), so the
    strip has 2 x (steps + 2) panels. ``door_hinge`` (1-based, one of the
    first vertex's hinges 1-4) is the door hinge; the default, hinge 1, is the
    zigzag crease of the end column, as hinge 16 is in the cantilever.
    Unsupported and unloaded.
    """
    _check_count("steps", steps, minimum=0)
    if door_hinge not in (1, 2, 3, 4):
        raise StructureError(f"door_hinge must be one of the first vertex's hinges 1-4, got {door_hinge!r}")
    pat = miura_pattern(2, steps + 2, sector_angle_deg, fold_angle_deg, a, b)
    kinds = [SLIDING] * len(pat.hinges)
    kinds[door_hinge - 1] = DOOR
    return Structure(pat, tuple(kinds), thickness, density,
                     name=name or f"Miura-ori strip ({steps} step{'' if steps == 1 else 's'})",
                     notes=dict(steps=steps, sector_angle_deg=sector_angle_deg, fold_angle_deg=fold_angle_deg))


def miura_single_vertex(sector_angle_deg=60.0, fold_angle_deg=60.0, a=1.0, b=1.0, door_hinge=1,
                        thickness=0.0, density=1.0, name="single-vertex Miura-ori"):
    """Single-vertex Miura-ori of Fig. 5 (left): four panels around vertex 5, one door hinge, three sliding.

    Hinges: 1 = 2-5 (zigzag, panels 1-2), 2 = 4-5 (straight, panels 1-3),
    3 = 5-6 (straight, panels 2-4), 4 = 5-8 (zigzag, panels 3-4).
    """
    return miura_strip(0, sector_angle_deg, fold_angle_deg, a, b, door_hinge, thickness, density, name)
