"""Kresling modules and towers with triangular base (paper sec. 4.2.3, Figs. 8-9, Tables 7-12).

Geometry (lengths in the caller's units, angles in radians)
------------------------------------------------------------
A module is the lateral surface of a twisted triangular antiprism: 6
triangular panels, 6 door hinges, three-fold cyclic symmetry about the z axis.
Its vertices lie on two horizontal *rings* of three vertices, both inscribed
in the circle of diameter ``diameter``; ring r is at z = r * height. A tower
of n modules has rings 0..n; consecutive modules share a ring and have
opposite handedness (module 2 is the mirror image of module 1 in the plane
of ring 1, module 3 a copy of module 1 shifted by 2 * height, ...).

Vertex numbering (Tables 7 and 9): ring r holds vertices 3r+1, 3r+2, 3r+3.
Even rings sit at polar angles 0, 120, 240 deg; odd rings at 120 + twist,
240 + twist, twist. So vertex 4 is vertex 2 turned by the twist and raised:
in Table 9 (twist 20 deg) vertices 4, 5, 6 are at 140, 260, 20 deg.

Panels and hinges, for a module with lower ring L = (L1, L2, L3) and upper
ring U = (U1, U2, U3), U_k above L_{k+1} turned by the twist (indices mod 3):

* panel 2k-1 = (L_k, L_{k+1}, U_k): it holds the lower ring edge;
* panel 2k   = (L_{k+1}, U_{k+1}, U_k): it holds the upper ring edge;
* hinge 2k-1 = L_{k+1}-U_k joins panels 2k-1 and 2k ("twist crease", its
  ends differ in polar angle by the twist);
* hinge 2k   = L_{k+1}-U_{k+1} joins panels 2k and 2k+1 (panel 7 = panel 1).

So the six panels and hinges are numbered consecutively around the module,
hinge k between panels k and k+1, counter-clockwise seen from +z. Module 1:
panel 1 = (1, 2, 4), panel 2 = (2, 5, 4), hinge 1 = 2-4, hinge 2 = 2-5.
Loops run counter-clockwise seen from outside, so every normal m points out of
the tower.

How this was inferred from the paper:

* diagonal: with the lateral creases L_{k+1}-U_k and L_{k+1}-U_{k+1} (offsets
  twist and twist + 120 deg) a module is singular (M = S = 1) exactly at the
  twists pi/6 and -5 pi/6, as the paper states; the other diagonal would be
  singular at -pi/6 and 5 pi/6;
* panels: Table 11 puts the supports of vertices 1, 2, 3 on panels 1, 3, 5,
  so the odd panels carry the bottom ring edges; Table 12 has junction hinge 7
  on panel 2, so the even panels carry the upper ring edges;
* hinges and sides: the rows (hinge 1, panel 1) and (hinge 2, panel 2) of
  Tables 8 and 10 match, among all 12 (edge, panel) sides, only the side of
  the twist crease 2-4 on panel (1, 2, 4) and the side of crease 2-5 on panel
  (2, 5, 4); numbering around the ring then fixes the rest. Rotating by 120
  deg maps panel p to p + 2 and hinge h to h + 2 (mod 6).

Towers (Table 12): module j has panels 6(j-1)+1..6j and hinges
9(j-1)+1..9(j-1)+6 in the module's order; the three hinges of the ring
between modules j and j+1 follow, numbered by the lower module's panel (hinge
7 joins panels 2 and 8, hinge 8 panels 4 and 10, hinge 9 panels 6 and 12).
Module 2 is numbered as the mirror image of module 1: panel 6+p is the image
of panel p, hinge 9+h the image of hinge h, vertex 6+k of vertex k (so
vertices 7, 8, 9 are above 1, 2, 3). Table 12's rows (10, 7) and (11, 8)
match exactly these sides (crease 4-8 on panel (4, 8, 7), crease 5-8 on panel
(4, 5, 8)). The numbering of modules beyond the second (Table 13 is
withheld) continues the same rule; it is ours, not the paper's.

Supports and loads
------------------
"Simply supported at the bottom base": vertex 1 (on panel 1) held in x, y, z,
vertex 2 (on panel 3) in x, z, vertex 3 (on panel 5) in z (Table 11 gives the
panels). These six constraints block the six rigid motions (z at three
non-collinear points, x and y at vertex 1, and x at vertex 2, which spin
about vertex 1 would move along a line that is not the y axis), so the
supports add no self-stress. Under vertical loads the horizontal reactions
vanish: sum Fx = sum Fy = 0 and the z-moment about vertex 1 give Fx1 = Fy1 =
Fx2 = 0.

Loads: a downward force ``load`` at each top-ring vertex, on one panel. At a
top vertex the load acts on the panel that holds the top ring edge and the
twist crease ending at that vertex: in a module, vertex 4 on panel 2, 5 on
4, 6 on 6; in a two-module tower, vertex 8 on panel 7, 9 on 9, 7 on 11.
This is the only choice, of the three panels at a top vertex taken the same
way at all three, for which Tables 10 and 12 are reproduced. For more than
two modules (Table 13 is withheld) the same rule is our extension, not the
paper's; ``kresling_tower(..., load_panels=...)`` chooses the panels.

Handedness
----------
"right": the upper ring of module 1 is turned by +twist (counter-clockwise
seen from +z), a right-handed helix for twist > 0 (Tables 7 and 9). "left":
the mirror image of the right-handed structure in the xz plane (y -> -y),
same numbering, loops reversed so that normals still point outwards. Under
this mirror a hinge row (MT, MP, MO, N, TP, TO) becomes (-MT, MP, -MO, N,
-TP, TO): forces are vectors, moments axial vectors.

Singular twists
---------------
A module is a bar-framework octahedron (its 12 edges), which is
infinitesimally flexible exactly when the planes of four alternate faces meet
in a point (Liebmann, Blaschke): here the bottom base and the three even
panels. By symmetry the even panels' planes meet on the axis, at z = 0 iff
each even panel's trace on z = 0 (the line through L_{k+1} parallel to the upper
edge U_{k+1} U_k) passes through the axis, i.e. twist + 60 deg = +-90 deg:
twist = pi/6 or -5 pi/6, for every height and diameter. Table 7's rounded
coordinates keep the condition to round-off (the determinant of the four
planes is 1e-16): counting them gives M = S = 1 with a dropped singular value
of 1e-17 (``Counts.gap``), exactly singular, not just near-singular.
"""
from dataclasses import dataclass

import numpy as np

from ..crease.pattern import CreasePattern
from ..structure.structure import Load, Structure, Support
from ..structure.hinges import DOOR, SLIDING
from ..tools.errors import PatternError, StructureError, positive

#: Twists (rad) at which a module is singular: M = 1, S = 1 (see module docstring).
SINGULAR_TWISTS = (np.pi / 6, -5 * np.pi / 6)
#: Support directions of bottom vertices 1, 2, 3 (on panels 1, 3, 5).
SUPPORT_DOFS = ("xyz", "xz", "z")
HANDEDNESS = ("right", "left")


@dataclass(frozen=True)
class KreslingLayout:
    """Numbering of a Kresling tower, 0-based indices.

    rings[r]: the 3 vertices of ring r (z = r * height); module_panels[j],
    module_hinges[j]: the 6 panels and hinges of module j in the module's
    order; junction_hinges[j]: the 3 hinges of ring j+1 (between modules j and
    j+1); supports: (vertex, panel) at the bottom ring; loads: (vertex, panel)
    at the top ring.
    """

    modules: int
    rings: tuple
    module_panels: tuple
    module_hinges: tuple
    junction_hinges: tuple
    supports: tuple
    loads: tuple


def _check_geometry(modules, height, diameter, twist, handedness):
    if isinstance(modules, bool) or not isinstance(modules, (int, np.integer)) or modules < 1:
        raise PatternError(f"modules must be a whole number >= 1, got {modules!r}")
    for name, x in (("height", height), ("diameter", diameter)):
        positive(name, x, PatternError, noun="length")
    if not (np.isscalar(twist) and np.isfinite(twist)):
        raise PatternError(f"twist must be a finite angle in radians, got {twist!r}")
    if not -np.pi < twist <= np.pi:
        raise PatternError(f"twist must be in radians, in (-pi, pi]; got {twist!r} "
                           f"(for degrees use math.radians)")
    if handedness not in HANDEDNESS:
        raise PatternError(f"handedness must be 'right' or 'left', got {handedness!r}")


def kresling_pattern(modules=1, height=20.0, diameter=20.0, twist=np.pi / 9, handedness="right"):
    """(CreasePattern, KreslingLayout) of an n-module tower; numbering in the module docstring."""
    _check_geometry(modules, height, diameter, twist, handedness)
    n = int(modules)
    R = 0.5 * float(diameter)
    X = []
    for r in range(n + 1):
        for k in range(3):
            a = 2 * np.pi * k / 3 if r % 2 == 0 else 2 * np.pi * (k + 1) / 3 + twist
            X.append((R * np.cos(a), R * np.sin(a), r * float(height)))
    X = np.array(X)
    left = handedness == "left"
    if left:
        X[:, 1] *= -1.0
    rings = tuple(tuple(range(3 * r, 3 * r + 3)) for r in range(n + 1))
    panels, module_hinge_edges, junction_edges = [], [], []
    for j in range(n):
        mirrored = j % 2 == 1   # even modules (1-based) are mirror images in the plane of ring j
        L, U = (rings[j + 1], rings[j]) if mirrored else (rings[j], rings[j + 1])
        loops, creases = [], []
        for k in range(3):
            k1 = (k + 1) % 3
            loops += [(L[k], L[k1], U[k]), (L[k1], U[k1], U[k])]
            creases += [(L[k1], U[k]), (L[k1], U[k1])]
        if mirrored != left:
            loops = [loop[::-1] for loop in loops]
        panels += loops
        module_hinge_edges.append(creases)
        if j + 1 < n:
            # ring j+1 edges: upper edges (panels 2k) of an odd module, lower edges (panels 2k-1) of an even one
            ring = rings[j + 1]
            junction_edges.append([(ring[(k + 1) % 3], ring[k]) for k in range(3)] if not mirrored
                                  else [(ring[k], ring[(k + 1) % 3]) for k in range(3)])
    edges = []
    for j in range(n):
        edges += module_hinge_edges[j]
        if j + 1 < n:
            edges += junction_edges[j]
    for r in (0, n):
        edges += [(rings[r][k], rings[r][(k + 1) % 3]) for k in range(3)]
    pattern = CreasePattern(X, panels, edges=edges)
    module_panels = tuple(tuple(range(6 * j, 6 * j + 6)) for j in range(n))
    module_hinges = tuple(tuple(range(9 * j, 9 * j + 6)) for j in range(n))
    junction_hinges = tuple(tuple(range(9 * j + 6, 9 * j + 9)) for j in range(n - 1))
    supports = tuple((rings[0][k], module_panels[0][2 * k]) for k in range(3))
    top = module_panels[n - 1]
    if n % 2 == 1:   # top ring = upper ring U of an odd module: U_k on panel 2k
        loads = tuple((rings[n][k], top[2 * k + 1]) for k in range(3))
    else:            # top ring = ring L of a mirrored module: L_{k+1} on panel 2k-1
        loads = tuple((rings[n][(k + 1) % 3], top[2 * k]) for k in range(3))
    layout = KreslingLayout(n, rings, module_panels, module_hinges, junction_hinges, supports, loads)
    return pattern, layout


def kresling_tower(modules, door_module=1, height=20.0, diameter=20.0, twist=np.pi / 9, handedness="right",
                   load=1.0, name=None, load_panels=None):
    """Simply supported n-module tower under a downward force ``load`` at each top vertex.

    door_module: the module (1-based) whose 6 hinges are door hinges; every
    other hinge is sliding. ``None`` makes every hinge a door hinge.
    ``handedness`` is that of module 1; modules alternate.

    load_panels: the panel (0-based) on which the load of each top vertex
    acts, for the top vertices in their order (1-based 3n+1, 3n+2, 3n+3);
    each must hold its vertex. The panel changes the hinge actions (not the
    reactions). Default (None): at each top vertex, the panel that holds the
    top-ring edge and the twist crease ending at the vertex -- the paper's
    choice for one and two modules (Tables 10 and 12 fix it: 1-based panels
    2, 4, 6 and 11, 7, 9); for more modules the paper gives no table and this
    rule is the project's own extension (see the module docstring).
    """
    pattern, layout = kresling_pattern(modules, height, diameter, twist, handedness)
    n = layout.modules
    if door_module is None:
        kinds = (DOOR,) * len(pattern.hinges)
    else:
        if isinstance(door_module, bool) or not isinstance(door_module, (int, np.integer)) \
                or not 1 <= door_module <= n:
            raise StructureError(f"door_module must be a module number from 1 to {n} (or None for all door "
                                 f"hinges), got {door_module!r}")
        doors = set(layout.module_hinges[door_module - 1])
        kinds = tuple(DOOR if h in doors else SLIDING for h in range(len(pattern.hinges)))
    if not (np.isscalar(load) and np.isfinite(load)):
        raise StructureError(f"load must be a finite force, got {load!r}")
    supports = tuple(Support(v, p, d) for (v, p), d in zip(layout.supports, SUPPORT_DOFS))
    at = layout.loads if load_panels is None else _load_sides(pattern, layout, load_panels)
    loads = tuple(Load(v, (0.0, 0.0, -float(load)), p) for v, p in at)
    if name is None:
        doors_txt = "all door hinges" if door_module is None else f"door module {door_module}"
        name = (f"kresling tower ({n} module{'s' if n > 1 else ''}, {doors_txt}, twist "
                f"{np.degrees(twist):.6g} deg, {handedness}-handed)")
    return Structure(pattern, kinds, supports=supports, loads=loads, name=name, notes={"kresling": layout})


def _load_sides(pattern, layout, load_panels):
    """(vertex, panel) of each top load from the user's panels (0-based, in top-vertex order), checked."""
    top = layout.rings[layout.modules]
    panels = list(load_panels)
    if len(panels) != len(top):
        raise StructureError(f"load_panels: expected {len(top)} panels, one for each top vertex "
                             f"{', '.join(str(v + 1) for v in top)}; got {len(panels)}")
    P = pattern.n_panels
    out = []
    for v, p in zip(top, panels):
        if isinstance(p, bool) or not isinstance(p, (int, np.integer)) or not 0 <= p < P:
            shown = p + 1 if isinstance(p, (int, np.integer)) and not isinstance(p, bool) else repr(p)
            raise StructureError(f"load_panels: panel {shown} does not exist (the tower has panels 1..{P})")
        if v not in pattern.panels[p]:
            holding = [q + 1 for q in range(P) if v in pattern.panels[q]]
            raise StructureError(f"load_panels: panel {p + 1} does not hold top vertex {v + 1} "
                                 f"(panels {', '.join(map(str, holding))} do)")
        out.append((v, int(p)))
    return tuple(out)


def kresling_module(height=20.0, diameter=20.0, twist=np.pi / 9, handedness="right", load=1.0, load_panels=None):
    """One simply supported module (6 panels, 6 door hinges), Fig. 8: Tables 7-11 (``load_panels``: see the tower)."""
    _check_geometry(1, height, diameter, twist, handedness)
    name = f"kresling module (twist {np.degrees(twist):.6g} deg, {handedness}-handed)"
    return kresling_tower(1, 1, height, diameter, twist, handedness, load, name=name, load_panels=load_panels)


def mirror_row(values):
    """A hinge row (MT, MP, MO, N, TP, TO) of the mirror-image structure (see Handedness)."""
    return np.asarray(values, float) * np.array([-1, 1, -1, 1, -1, 1])
