"""Export to the workshop and to post-processors: DXF panels for cutting, STL/3MF/GLB solids, VTK XML results.

``co.export(structure, dxf=..., stl=..., threemf=..., glb=..., vertices=...)`` and the ``export`` command
(``cli.export``); ``write_vtk(result, folder)``: the ``--vtk DIR`` of ``static``, ``fold`` and ``dynamics``.

DXF (ezdxf; length units of the pattern, the flat pattern's x, y)
    layer ``PANELS``: each panel's outline, a closed polyline: the face of its solid (``structure.solids``) that
    lies on the cutting bed, the larger of its two faces parallel to the pattern (for mid and offset panels, and
    tapered panels bevelled on one side, the panel itself; bevelled on both sides, the face shrunk by
    t / (2 tan beta) at each crease); ``BEVELS``: where each bevel meets the other face (and the pattern's
    crease line of a bevel on the bed side), with its angle beta from the panel's faces as text (``bevel 30 deg``
    under the panel's number when its bevels share one angle, else at each line; the cutter's tilt from the
    vertical is 90 - beta); ``CREASES_M``, ``CREASES_V`` and ``CREASES`` (no target sign): one
    line per hinge; ``LABELS``: ``P<n>`` at each panel's centroid and ``H<n> door`` (or ``sliding``) at each
    hinge's midpoint, 1-based as in the tables.
STL, 3MF, GLB (trimesh)
    one closed solid per panel, its triangles counter-clockwise seen from outside (outward normals), at the
    given vertices (a frame); named ``panel <n>`` in 3MF and GLB (STL has one unnamed mesh). Beside each, the
    hinge axes as a table ``<stem>_hinge_axes.csv``: hinge, kind, the two ends of its axis (x1..z2) and length.
FOLD (``--fold FILE``)
    the placed solids' reference surfaces (their mid-surfaces, ``mid`` placement: the same solids), which differ
    from the pattern for offset panels (:func:`reference_surfaces`).
VTK XML (meshio, ``.vtu``)
    one file per state: points the pattern's vertices; cells the panels (polygons: cell data ``panel``,
    ``thickness``), the hinges (lines: ``hinge``, ``kind`` 1 door, 2 sliding, 0 another kind, ``fold_angle``
    in deg, FOLD sign; with actions, ``side1_panel``, ``side1_MT`` .. ``side1_TO`` and the same of side 2, the
    rows of hinges.csv in its order, and ``|F|``, the larger side's) and the supports (vertices: ``support_panel``,
    ``reaction`` Fx, Fy, Fz); cell data a cell does not have is NaN (0 for the numbers). A fold or a
    dynamics run: ``frame_0000.vtu`` ... and ``<name>.pvd``, the collection with each frame's time, for
    ParaView's time slider.
"""
import os
import sys
from xml.etree import ElementTree

import numpy as np

from ..tools.errors import UsageError

#: the mesh formats (file extension) and the trimesh file type of each
MESHES = {"stl": "stl", "3mf": "3mf", "glb": "glb"}
#: Python packages of each output (``pip install 'chrono-origami[export]'`` installs them)
PACKAGES = {"dxf": ("ezdxf",), "stl": ("trimesh",), "3mf": ("trimesh", "networkx", "lxml"), "glb": ("trimesh",),
            "vtk": ("meshio",)}
INSTALL = "pip install 'chrono-origami[export]'"
KIND_CODES = {"door": 1, "sliding": 2}
ACTIONS = ("MT", "MP", "MO", "N", "TP", "TO")


def need(what):
    """Import the packages of output ``what`` (a key of :data:`PACKAGES`); a missing one is a
    :class:`UsageError` naming it and the pip command (exit 2)."""
    import importlib

    for name in PACKAGES[what]:
        try:
            importlib.import_module(name)
        except ImportError:
            raise UsageError(f"{what} export needs the Python package {name}, which is not installed: "
                             f"pip install {name} (or {INSTALL})") from None


def _kind(k):
    return getattr(k, "name", str(k))


def _length_scale(structure):
    return float(np.ptp(structure.pattern.vertices, axis=0).max()) or 1.0


# ------------------------------------------------------------------ DXF
def _flat_xy(structure):
    """The pattern's vertices as (V, 2) x, y; a pattern not in a plane z = const is a :class:`UsageError`."""
    X = structure.pattern.vertices
    L = _length_scale(structure)
    if np.ptp(X[:, 2]) > 1e-9 * L:
        raise UsageError(f"{structure.name}: the DXF lays the panels flat on the cutting bed and this state is not "
                         f"flat (z spans {np.ptp(X[:, 2]):.3g}): give the flat frame (--frame 0)")
    return X[:, :2]


def _frames(pattern, X):
    """(origin (P, 3), frame (P, 3, 3)) of every panel at vertices ``X`` (``tools.geometry.panel_frame``)."""
    from ..tools.geometry import panel_frame

    P = pattern.n_panels
    O, F = np.zeros((P, 3)), np.zeros((P, 3, 3))
    sizes = np.array([len(loop) for loop in pattern.panels])
    for k in np.unique(sizes):
        idx = np.flatnonzero(sizes == k)
        pts = X[np.array([pattern.panels[p] for p in idx])]
        O[idx], F[idx] = pts[:, 0], panel_frame(pts)
    return O, F


def _shapes(structure):
    """(shapes, shape of each panel (-1: no thickness), origins (P, 3), frames (P, 3, 3)) of the panels' solids at
    the pattern: each shape (vertices, outward face normals, face loops) in its panel's frame (x = O + F x_l),
    computed once for the panels equal up to a rigid motion (the same polygon, thickness and bevels: a repeating
    pattern's few). A panel thicker than its inradius, not convex, or bevelled to nothing is a ``StructureError``
    naming it (as ``solids.check_thickness``)."""
    from ..structure.solids import face_loops, halfspaces, inradius, placement_of, polytope
    from ..tools.errors import StructureError

    pat = structure.pattern
    X = pat.vertices
    L = _length_scale(structure)
    O, F = _frames(pat, X)
    index, shapes, of = {}, [], np.full(pat.n_panels, -1)
    for p, (A, b) in enumerate(halfspaces(structure, X)):
        t = float(structure.thickness[p])
        if t <= 0:
            continue
        Al, bl = A @ F[p], b - A @ O[p]                 # {x_l : Al x_l <= bl}
        loop_l = (X[list(pat.panels[p])] - O[p]) @ F[p]
        key = (np.round(Al, 12).tobytes(), np.round(bl / L, 12).tobytes(), np.round(loop_l / L, 12).tobytes())
        if key not in index:
            r = inradius(loop_l)
            if t > r:
                raise StructureError(f"panel {p + 1}: thickness {t:g} is larger than its inradius {r:.6g} (the "
                                     f"largest circle inside it)")
            solid = polytope(Al, bl, float(np.ptp(loop_l, axis=0).max()) + t)
            if solid is None:
                raise StructureError(f"panel {p + 1}: its bevels ({placement_of(structure).describe()}) leave no "
                                     f"panel (no volume between them); choose a smaller taper angle")
            V, N, _ = solid
            index[key] = len(shapes)
            shapes.append((V, N, face_loops(V, N, L)))
        of[p] = index[key]
    return shapes, of, O, F


def panel_solids(structure):
    """Per panel (vertices (n, 3), outward face normals (f, 3), face loops) of its solid at the pattern
    (``structure.solids``' half-spaces and polytope; :func:`_shapes`), or None for a panel of no thickness."""
    shapes, of, O, F = _shapes(structure)
    return [None if k < 0 else (O[p] + shapes[k][0] @ F[p].T, shapes[k][1] @ F[p].T, shapes[k][2])
            for p, k in enumerate(of)]


def _bed(V, N, loops, L):
    """(bed face (k, 3), [(bevel line (2, 3), beta deg)]) of one solid in its panel's frame (normal z)."""
    cos = N[:, 2]
    flat = [i for i in range(len(N)) if abs(abs(cos[i]) - 1) <= 1e-12]
    area = np.array([_area(V[loops[i]]) for i in flat])
    big = np.round(area / area.max(), 12) == 1.0
    bed = min((i for i, b in zip(flat, big) if b), key=lambda i: cos[i])     # equal faces: the -m one
    B = V[loops[bed]]
    h_bed = B[0, 2]
    m = np.array([0.0, 0.0, 1.0])
    bevels = []
    for i in range(len(N)):
        if abs(cos[i]) <= 1e-12 or i in flat:
            continue
        beta = float(np.degrees(np.arccos(min(1.0, abs(cos[i])))))     # the bevel's angle from the faces
        lp = loops[i]
        for a, b in zip(lp, np.roll(lp, -1)):
            ha, hb = V[a, 2], V[b, 2]
            if abs(ha - hb) <= 1e-9 * L and abs(ha - h_bed) > 1e-9 * L and \
                    not all(_on_outline(x, B, m, L) for x in (V[a], V[b], 0.5 * (V[a] + V[b]))):
                bevels.append((np.array([V[a], V[b]]), beta))
    return B, bevels


def bed_faces(structure):
    """Per panel (bed face loop (k, 3), [(bevel line (2, 3), beta deg)]) of its solid at the pattern (module doc);
    a panel of no thickness: its polygon and no bevels."""
    pat = structure.pattern
    shapes, of, O, F = _shapes(structure)
    beds = [_bed(V, N, loops, _length_scale(structure)) for V, N, loops in shapes]
    out = []
    for p, k in enumerate(of):
        if k < 0:
            out.append((pat.vertices[list(pat.panels[p])], []))
            continue
        B, bevels = beds[k]
        out.append((O[p] + B @ F[p].T, [(O[p] + line @ F[p].T, beta) for line, beta in bevels]))
    return out


def _on_outline(x, B, m, L):
    """Whether ``x`` projected along ``m`` lies on the boundary of the face loop ``B`` (to 1e-9 ``L``)."""
    y = x - ((x - B[0]) @ m) * m
    for a, b in zip(B, np.roll(B, -1, axis=0)):
        d = b - a
        s = np.clip((y - a) @ d / (d @ d), 0.0, 1.0)
        if np.linalg.norm(a + s * d - y) <= 1e-9 * L:
            return True
    return False


def _area(P):
    from ..tools.geometry import newell_normal

    return 0.5 * float(np.linalg.norm(newell_normal(np.asarray(P, float))))


def write_dxf(structure, path):
    """Write the flat panels for cutting to ``path`` (DXF R2010; layers of the module doc); returns ``path``."""
    need("dxf")
    import ezdxf
    from ezdxf.enums import TextEntityAlignment

    from ..structure.targets import file_targets

    xy = _flat_xy(structure)
    pat = structure.pattern
    doc = ezdxf.new("R2010", setup=True)
    for name, color in (("PANELS", 7), ("CREASES_M", 1), ("CREASES_V", 5), ("CREASES", 8), ("BEVELS", 3),
                        ("LABELS", 2)):
        doc.layers.add(name, color=color)
    msp = doc.modelspace()
    lengths = [np.linalg.norm(xy[h.vertices[0]] - xy[h.vertices[1]]) for h in pat.hinges]
    height = 0.06 * float(np.median(lengths)) if lengths else 0.02 * _length_scale(structure)
    for p, (loop, bevels) in enumerate(bed_faces(structure)):
        msp.add_lwpolyline([(float(x), float(y)) for x, y in loop[:, :2]], close=True,
                           dxfattribs={"layer": "PANELS"})
        done = set()
        for line, beta in bevels:
            key = tuple(np.round(np.sort(line[:, :2], axis=0).ravel() / (height or 1.0), 9))
            if key not in done:
                done.add(key)
                (x1, y1), (x2, y2) = line[:, :2]
                msp.add_line((float(x1), float(y1)), (float(x2), float(y2)), dxfattribs={"layer": "BEVELS"})
        c = xy[list(pat.panels[p])].mean(axis=0)
        msp.add_text(f"P{p + 1}", height=height, dxfattribs={"layer": "LABELS"}).set_placement(
            (float(c[0]), float(c[1])), align=TextEntityAlignment.MIDDLE_CENTER)
        angles = sorted({round(beta, 6) for _, beta in bevels})
        if len(angles) == 1:        # one text under the panel's number: its bevels' angle
            msp.add_text(f"bevel {angles[0]:.6g} deg", height=0.6 * height, dxfattribs={"layer": "BEVELS"}) \
                .set_placement((float(c[0]), float(c[1] - 1.2 * height)), align=TextEntityAlignment.MIDDLE_CENTER)
        elif angles:                # angles that differ: each at its line's midpoint
            for line, beta in bevels:
                (x1, y1), (x2, y2) = line[:, :2]
                msp.add_text(f"{beta:.6g} deg", height=0.6 * height, dxfattribs={"layer": "BEVELS"}).set_placement(
                    (0.5 * (x1 + x2), 0.5 * (y1 + y2)), align=TextEntityAlignment.MIDDLE_CENTER)
    targets = file_targets(structure)
    for h, kind in zip(pat.hinges, structure.hinge_kinds):
        a, b = xy[h.vertices[0]], xy[h.vertices[1]]
        rho = targets.get(h.index)
        layer = "CREASES_V" if rho and rho > 0 else "CREASES_M" if rho and rho < 0 else "CREASES"
        msp.add_line((float(a[0]), float(a[1])), (float(b[0]), float(b[1])), dxfattribs={"layer": layer})
        mid = 0.5 * (a + b)
        msp.add_text(f"H{h.index + 1} {_kind(kind)}", height=0.6 * height,
                     dxfattribs={"layer": "LABELS",
                                 "rotation": float(np.degrees(np.arctan2(b[1] - a[1], b[0] - a[0])))}).set_placement(
            (float(mid[0]), float(mid[1])), align=TextEntityAlignment.BOTTOM_CENTER)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    doc.saveas(path)
    return path


# ------------------------------------------------------------------ solids
def solid_meshes(structure, vertices=None):
    """Per panel of positive thickness (panel, vertices (n, 3), triangles (f, 3)) of its solid at ``vertices``
    (V x 3, default the pattern's): triangle fans of the solid's convex faces, counter-clockwise from outside."""
    if not any(structure.thickness):
        raise UsageError(f"{structure.name}: the panels have no thickness: give --thickness T (> 0) for their solids")
    pat = structure.pattern
    X = pat.vertices if vertices is None else np.asarray(vertices, float)
    O0, F0 = _frames(pat, pat.vertices)
    O, F = _frames(pat, X)
    out = []
    for p, solid in enumerate(panel_solids(structure)):
        if solid is None:
            continue
        V, _, loops = solid
        V = O[p] + (V - O0[p]) @ (F[p] @ F0[p].T).T         # carried rigidly with the panel
        tri = [(loop[0], loop[k], loop[k + 1]) for loop in loops for k in range(1, len(loop) - 1)]
        out.append((p, V, np.asarray(tri, np.int64)))
    return out


def hinge_axes_table(structure, vertices=None):
    """``results.table.Table`` ``hinge_axes``: hinge (1-based), kind, x1, y1, z1, x2, y2, z2 (the axis's two ends,
    the hinge's vertices at ``vertices``), length."""
    from ..results.table import Table

    pat = structure.pattern
    X = pat.vertices if vertices is None else np.asarray(vertices, float)
    rows = []
    for h, kind in zip(pat.hinges, structure.hinge_kinds):
        a, b = X[h.vertices[0]], X[h.vertices[1]]
        rows.append((h.index + 1, _kind(kind), *map(float, a), *map(float, b), float(np.linalg.norm(b - a))))
    return Table("hinge_axes", ("hinge", "kind", "x1", "y1", "z1", "x2", "y2", "z2", "length"), rows,
                 {"units": {c: "length" for c in ("x1", "y1", "z1", "x2", "y2", "z2", "length")}})


def axes_path(path):
    """The hinge-axes table written beside a mesh file ``path``."""
    return os.path.splitext(path)[0] + "_hinge_axes.csv"


def write_mesh(structure, path, fmt, vertices=None):
    """Write the panels' solids (``fmt``: stl, 3mf or glb) to ``path`` and the hinge axes beside it
    (:func:`axes_path`); returns (mesh path, axes path)."""
    need(fmt)
    import trimesh

    from .write import write_table

    parts = solid_meshes(structure, vertices)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    if fmt == "stl":
        offsets = np.cumsum([0] + [len(v) for _, v, _ in parts])
        mesh = trimesh.Trimesh(np.concatenate([v for _, v, _ in parts]),
                               np.concatenate([f + o for (_, _, f), o in zip(parts, offsets)]), process=False)
        mesh.export(path, file_type="stl")
    else:
        scene = trimesh.Scene()
        for p, v, f in parts:
            name = f"panel {p + 1}"
            scene.add_geometry(trimesh.Trimesh(v, f, process=False), geom_name=name, node_name=name)
        scene.export(path, file_type=fmt)
    axes = write_table(hinge_axes_table(structure, vertices), axes_path(path))
    return path, axes


def reference_surfaces(structure, vertices=None):
    """The structure whose pattern is the placed solids' mid-surfaces at ``vertices`` (default the pattern's),
    with ``mid`` placement: the same solids (``structure.solids``). Offset panels move by -+t/2 along their
    normals; where the panels at a vertex move alike (a flat sheet of one thickness) the vertex stays shared and
    the hinges, kinds and the file's creases stay, else each panel gets its own vertices there (folded offset
    panels no longer meet at their creases). Mid and tapered panels: the pattern itself."""
    from dataclasses import replace

    from ..crease.pattern import CreasePattern
    from ..structure.solids import Placement, placement_of
    from ..structure.structure import Structure
    from ..tools.geometry import newell_normal

    pat = structure.pattern
    X = pat.vertices if vertices is None else np.asarray(vertices, float)
    pl = placement_of(structure)
    L = _length_scale(structure)
    shift = {}
    for p, loop in enumerate(pat.panels):
        m = newell_normal(X[list(loop)])
        m = m / np.linalg.norm(m)
        z = 0.5 * sum(pl.z_range(float(structure.thickness[p])))
        for v in loop:
            shift.setdefault(v, []).append((p, z * m))
    points, index = [], {}
    for v in range(pat.n_vertices):
        moves = shift.get(v, [(None, np.zeros(3))])
        if all(np.linalg.norm(d - moves[0][1]) <= 1e-12 * L for _, d in moves):
            index[v] = len(points)
            points.append(X[v] + moves[0][1])
        else:
            for p, d in moves:
                index[(v, p)] = len(points)
                points.append(X[v] + d)
    panels = [[index.get(v, index.get((v, p))) for v in loop] for p, loop in enumerate(pat.panels)]
    name = f"{structure.name} (reference surfaces, {pl.describe()})"
    if len(points) == pat.n_vertices:
        moved = CreasePattern(np.array(points), panels, edges=pat.edges, normal_rule=pat.normal_rule,
                              generic_mechanisms=pat.generic_mechanisms)
        return replace(structure, pattern=moved, placement=Placement("mid"), name=name)
    return Structure(CreasePattern(np.array(points), panels), thickness=structure.thickness,
                     density=structure.density, name=name, placement=Placement("mid"))


def export(structure, dxf=None, stl=None, threemf=None, glb=None, fold=None, vertices=None):
    """Write ``structure`` (its thickness and placement) to the files given: ``dxf`` the flat panels for cutting,
    ``stl``, ``threemf``, ``glb`` the solids at ``vertices`` (V x 3, default the pattern's) with the hinge axes
    beside each, ``fold`` the FOLD file of the solids' reference surfaces (:func:`reference_surfaces`; module
    doc). Returns the paths written."""
    written = []
    if fold:
        from ..structure.foldfile import write_fold

        os.makedirs(os.path.dirname(os.path.abspath(fold)), exist_ok=True)
        write_fold(reference_surfaces(structure, vertices), fold)
        written.append(fold)
    if dxf:
        written.append(write_dxf(structure, dxf))
    for fmt, path in (("stl", stl), ("3mf", threemf), ("glb", glb)):
        if path:
            written.extend(write_mesh(structure, path, fmt, vertices))
    return written


# ------------------------------------------------------------------ VTK
def _state_mesh(structure, X, actions=None, reactions=None, stats=None):
    """meshio.Mesh of one state (module doc): vertices ``X``, ``actions`` the hinge actions (HingeAction list,
    or None), ``reactions`` (SupportReaction list or None)."""
    import meshio

    from ..crease.pattern import fold_angles

    pat = structure.pattern
    H, P = len(pat.hinges), pat.n_panels
    sizes = np.array([len(loop) for loop in pat.panels])
    blocks, panel_of = [], []
    for k in np.unique(sizes):
        idx = np.flatnonzero(sizes == k)
        name = "triangle" if k == 3 else "quad" if k == 4 else "polygon"
        blocks.append((name, np.array([pat.panels[p] for p in idx], np.int64)))
        panel_of.append(idx)
    lines = np.array([h.vertices for h in pat.hinges], np.int64).reshape(-1, 2)
    supports = list(reactions or ())
    cells = blocks + ([("line", lines)] if H else []) + \
        ([("vertex", np.array([[r.vertex] for r in supports], np.int64))] if supports else [])
    nb = len(blocks)

    def data(panel_values=None, hinge_values=None, support_values=None, width=None):
        shape = lambda n: (n,) if width is None else (n, width)
        fill = lambda n, v: v if v is not None else np.full(shape(n), np.nan)
        out = [fill(len(i), None if panel_values is None else panel_values[i]) for i in panel_of]
        if H:
            out.append(fill(H, hinge_values))
        if supports:
            out.append(fill(len(supports), support_values))
        return out

    cd = {"panel": data(np.arange(1, P + 1, dtype=float)),
          "thickness": data(np.asarray(structure.thickness, float)),
          "hinge": data(hinge_values=np.arange(1, H + 1, dtype=float)),
          "kind": data(hinge_values=np.array([KIND_CODES.get(_kind(k), 0) for k in structure.hinge_kinds], float)),
          "fold_angle": data(hinge_values=np.degrees(fold_angles(pat, X)) if H else None)}
    if actions is not None:
        side = np.zeros((2, H), int)
        vals = np.full((2, H, 6), np.nan)
        seen = np.zeros(H, int)
        for a in actions:
            s = seen[a.hinge]
            if s < 2:
                side[s, a.hinge], vals[s, a.hinge] = a.panel + 1, a.values
                seen[a.hinge] += 1
        for s in range(2):
            cd[f"side{s + 1}_panel"] = data(hinge_values=side[s].astype(float))
            for j, c in enumerate(ACTIONS):
                cd[f"side{s + 1}_{c}"] = data(hinge_values=vals[s, :, j])
        cd["|F|"] = data(hinge_values=np.max(np.linalg.norm(vals[:, :, 3:], axis=2), axis=0))
    if stats is not None:           # locked-in statistics (H, 2, 6) per side: side 1 the hinge's lower panel
        for s in range(2):
            first = np.array([min(h.panels) if s == 0 else max(h.panels) for h in pat.hinges])
            side = np.array([list(h.panels).index(q) for h, q in zip(pat.hinges, first)])
            cd[f"side{s + 1}_panel"] = data(hinge_values=first + 1.0)
            for name in ("sd", "p95", "p99"):
                arr = np.asarray(getattr(stats, name), float)
                for j, c in enumerate(ACTIONS):
                    cd[f"side{s + 1}_{name}_{c}"] = data(hinge_values=arr[np.arange(H), side, j])
    if supports:
        cd["support_panel"] = data(support_values=np.array([r.panel + 1 for r in supports], float))
        cd["reaction"] = data(support_values=np.array([r.force for r in supports], float), width=3)
    assert all(len(v) == len(cells) for v in cd.values()) and nb == len(panel_of)
    return meshio.Mesh(np.asarray(X, float), cells, cell_data=cd,
                       field_data={"kind_door": np.array([1, 0]), "kind_sliding": np.array([2, 0])})


def _states(result):
    """(name, [(time or None, vertices, actions, reactions, statistics)], structure) of a result ``--vtk``
    writes: a static result, a fold or dynamics history, locked-in statistics or a structure (a design's)."""
    from ..results.dynamics import TimeHistory
    from ..results.fold import FoldHistory
    from ..results.static import StaticResult
    from ..results.tolerance import LockedInStatistics
    from ..structure.structure import Structure

    if isinstance(result, Structure):
        return "structure", [(None, result.pattern.vertices, None, None, None)], result
    if isinstance(result, LockedInStatistics):
        st = result.structure
        return "locked_in", [(None, st.pattern.vertices, None, None, result)], st
    if isinstance(result, StaticResult):
        st = result.structure
        return "static", [(None, st.pattern.vertices, result.hinge_actions, result.support_reactions, None)], st
    if isinstance(result, FoldHistory):
        st = result.problem.structure
        return "fold", [(t, X, None, None, None) for t, X in zip(result.times, result.vertices)], st
    if isinstance(result, TimeHistory):
        st = result.structure
        return "dynamics", [(t, result.vertices[k], result.hinge_actions[k], result.support_reactions[k], None)
                            for k, t in enumerate(result.t)], st
    raise UsageError(f"--vtk writes static, fold, dynamics and tolerance results and structures, not a "
                     f"{type(result).__name__}")


def write_vtk(result, folder):
    """Write ``result`` (a static result, a fold or dynamics history, locked-in statistics, a structure) as VTK
    XML into ``folder`` (made): one ``<name>.vtu`` (static, locked_in, structure) for one state;
    ``<name>_0000.vtu`` ... and ``<name>.pvd`` (each frame's time) for a history. Returns the paths written (the
    .pvd last)."""
    need("vtk")
    import meshio

    name, states, structure = _states(result)
    os.makedirs(folder, exist_ok=True)
    if len(states) == 1 and states[0][0] is None:
        path = os.path.join(folder, f"{name}.vtu")
        meshio.write(path, _state_mesh(structure, *states[0][1:]), file_format="vtu", binary=True)
        return [path]
    paths = []
    width = max(4, len(str(len(states) - 1)))
    for k, state in enumerate(states):
        path = os.path.join(folder, f"{name}_{k:0{width}d}.vtu")
        meshio.write(path, _state_mesh(structure, *state[1:]), file_format="vtu", binary=True)
        paths.append(path)
    pvd = os.path.join(folder, f"{name}.pvd")
    write_pvd(pvd, [state[0] for state in states], [os.path.basename(p) for p in paths])
    return paths + [pvd]


def write_pvd(path, times, files):
    """ParaView's collection file ``path``: one DataSet per (time, file name relative to ``path``'s folder)."""
    root = ElementTree.Element("VTKFile", type="Collection", version="0.1", byte_order="LittleEndian")
    col = ElementTree.SubElement(root, "Collection")
    for t, f in zip(times, files):
        ElementTree.SubElement(col, "DataSet", timestep=repr(float(t)), group="", part="0", file=f)
    ElementTree.indent(root)
    ElementTree.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)
    return path


def print_written(paths, out=None):
    out = out or sys.stdout
    for p in paths:
        print(f"wrote {p}", file=out)
