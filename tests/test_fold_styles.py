"""FOLD files as other tools write them open and count.

Each file is written here in its tool's style (keys, value conventions, JSON
layout), after the tools' own code and examples:
* Origami Simulator's export (js/saveFOLD.js, js/pattern.js): file_spec 1.1,
  3-D coordinates [x, 0, y_svg] (the sheet in the y = 0 plane), edges listed
  B, M, V, F, U, edges_foldAngle null on B and U edges, -180 x opacity on
  mountains, 0 on F (facet) edges, face loops reversed;
* the FOLD format's folded-form examples (edemaine/fold examples/): a box
  folded from a cut net and flaps whose tips touch (distinct indices at one
  point), a flat-folded state (fold-convert --flat-fold), frames with
  frame_classes, an animation;
* crease-pattern editors: vertices_coords, edges_vertices, edges_assignment
  only (no faces);
* cut ("C") edges.

Counts are checked against closed forms: a single vertex of n door hinges is a
loop of n revolute joints with concurrent axes; flat, the axes lie in one
plane and the rotations close with 2 equations, so M = n - 2 and (Maxwell,
M - S = 6P - 6 - 5H = n - 6) S = 4. A tree of P panels and P - 1 door hinges
has M = P - 1, S = 0.
"""
import json

import numpy as np
import pytest

from chrono_origami.analysis import static as analysis
from chrono_origami.tools.errors import FoldFileError
from chrono_origami.structure.foldfile import fold_angles, read_fold, read_frames, read_structure
from chrono_origami.structure.structure import Load
from chrono_origami.structure.hinges import DOOR

OS_CREATOR = "Origami Simulator: http://git.amandaghassaei.com/OrigamiSimulator/"


def counts(structure):
    c = analysis.count(structure, "reference")
    return c.M, c.S


def write(tmp_path, name, d, indent=None):
    path = tmp_path / name
    path.write_text(json.dumps(d, indent=indent))
    return path


# ------------------------------------------------------------------ Origami Simulator
# A 200 px square drawn in Origami Simulator's colours: mountains to the left and right
# edge midpoints (opacity 0.5), a valley down (opacity 1), an undriven (magenta) hinge up,
# and a yellow facet line across the lower right quarter.
SVG_POINTS = [(0, 0), (100, 0), (200, 0), (200, 100), (200, 200), (100, 200), (0, 200), (0, 100), (100, 100)]
OS_EDGES = {   # as pattern.js lists them: borders, mountains, valleys, facets ("triangulations"), hinges
    "B": [[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 6], [6, 7], [7, 0]],
    "M": [[8, 7], [8, 3]],
    "V": [[8, 5]],
    "F": [[8, 4]],
    "U": [[8, 1]],
}
OS_ANGLE = {"B": None, "M": -90.0, "V": 180.0, "F": 0, "U": None}
# faces counterclockwise in (x, y_svg), then reversed, as reverseFaceOrder does
OS_FACES = [list(reversed(f)) for f in ([0, 1, 8, 7], [1, 2, 3, 8], [8, 3, 4], [8, 4, 5], [7, 8, 5, 6])]


def simulator_export():
    d = {
        "file_spec": 1.1,
        "file_creator": OS_CREATOR,
        "file_author": "",
        "file_classes": ["singleModel"],
        "frame_title": "simpleVertex",
        "frame_classes": ["foldedForm"],
        "frame_attributes": ["3D"],
        "frame_unit": "unit",
        "vertices_coords": [[float(x), 0.0, float(y)] for x, y in SVG_POINTS],
        "edges_vertices": [],
        "edges_assignment": [],
        "faces_vertices": OS_FACES,
    }
    angles = []
    for a, es in OS_EDGES.items():
        d["edges_vertices"] += es
        d["edges_assignment"] += [a] * len(es)
        angles += [OS_ANGLE[a]] * len(es)
    d["edges_foldAngle"] = angles
    return d


def test_origami_simulator_export_opens_with_null_angles(tmp_path):
    path = write(tmp_path, "simpleVertex.fold", simulator_export(), indent=4)
    s = read_fold(path)
    pat = s.pattern
    assert (pat.n_vertices, pat.n_panels, len(pat.hinges)) == (9, 5, 5)
    assert np.all(pat.vertices[:, 1] == 0)                   # the sheet in the y = 0 plane
    assert s.hinge_kinds == (DOOR,) * 5
    notes = s.notes["fold"]
    d = simulator_export()
    assert notes["edges_assignment"] == d["edges_assignment"]
    assert notes["edges_foldAngle"] == [None] * 8 + [-90.0, -90.0, 180.0, 0.0, None]
    # "F" is a flat crease by default (FOLD spec): a flat centre vertex of 5 hinges
    assert counts(s) == (3, 4)


def test_origami_simulator_facets_merge_into_one_rigid_face(tmp_path):
    path = write(tmp_path, "simpleVertex.fold", simulator_export(), indent=4)
    s = read_structure(path, facets="facet")
    pat = s.pattern
    assert (pat.n_vertices, pat.n_panels, len(pat.hinges)) == (9, 4, 4)
    merged = [p for p, f in enumerate(s.notes["fold"]["file_faces"]) if len(f) > 1]
    assert s.notes["fold"]["file_faces"][merged[0]] == [2, 3]
    assert sorted(pat.panels[merged[0]]) == [3, 4, 5, 8]
    np.testing.assert_allclose(pat.panel_normal(merged[0]), pat.panel_normal(0), atol=1e-15)
    assert "F" not in s.notes["fold"]["edges_assignment"]
    assert counts(s) == (2, 4)                                 # 4 hinges at the flat vertex


def test_facet_merge_keeps_supports_and_refuses_conflicts(tmp_path):
    d = simulator_export()
    d["vertices_origami:support"] = [None] * 9
    d["vertices_origami:support"][4] = {"dofs": "xyz", "panel": 2}
    s = read_fold(d, facets="facet")
    (sup,) = s.supports
    assert sup.vertex == 4 and 4 in s.pattern.panels[sup.panel] and s.notes["fold"]["file_faces"][sup.panel] == [2, 3]
    d["faces_origami:thickness"] = [1, 1, 1, 2, 1]
    with pytest.raises(FoldFileError, match=r"faces_origami:thickness\[3\] = 2 differs from "
                                            r"faces_origami:thickness\[2\] = 1, but faces 2 and 3 are one rigid face"):
        read_fold(d, facets="facet")
    d["faces_origami:thickness"] = [1] * 5
    d["edges_origami:hinge"] = [None] * 8 + ["door"] * 5
    with pytest.raises(FoldFileError, match=r"edges_origami:hinge\[11\] is \"door\", but edges_assignment\[11\] is "
                                            r"'F': a facet line inside a rigid face"):
        read_fold(d, facets="facet")


# ------------------------------------------------------------------ folded forms
def cube_net():
    """A cross-shaped net folded into a closed box: bottom, front, back, left, right, and a lid on the back.

    Net vertices (x, y): 0-3 the bottom square, then two per flap. Folded
    positions put up to three vertices of different indices at one corner.
    """
    net = [(0, 0), (1, 0), (1, 1), (0, 1), (0, -1), (1, -1), (1, 2), (0, 2), (-1, 1), (-1, 0), (2, 0), (2, 1),
           (1, 3), (0, 3)]
    folded = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0), (0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1), (0, 1, 1),
              (0, 0, 1), (1, 0, 1), (1, 1, 1), (1, 0, 1), (0, 0, 1)]
    faces = [[0, 1, 2, 3], [4, 5, 1, 0], [3, 2, 6, 7], [9, 0, 3, 8], [1, 10, 11, 2], [7, 6, 12, 13]]
    creases = [[0, 1], [2, 3], [0, 3], [1, 2], [6, 7]]
    return net, folded, faces, creases


def box_fold():
    net, folded, faces, creases = cube_net()
    sides = []
    for loop in faces:
        for a, b in zip(loop, loop[1:] + loop[:1]):
            if sorted((a, b)) not in [sorted(e) for e in sides]:
                sides.append([a, b])
    assign = ["V" if sorted(e) in [sorted(c) for c in creases] else "B" for e in sides]
    return {
        "file_spec": 1,
        "file_creator": "A text editor",
        "file_author": "chrono-origami tests",
        "file_classes": ["singleModel"],
        "frame_title": "3D box folded from a cross-shaped net",
        "frame_classes": ["foldedForm"],
        "frame_attributes": ["3D"],
        "vertices_coords": [list(map(float, p)) for p in folded],
        "faces_vertices": faces,
        "edges_vertices": sides,
        "edges_assignment": assign,
        "edges_foldAngle": [90 if a == "V" else 0 for a in assign],
    }


def test_box_folded_from_a_cut_net(tmp_path):
    d = box_fold()
    s = read_fold(write(tmp_path, "box.fold", d, indent=2))
    pat = s.pattern
    assert (pat.n_vertices, pat.n_panels, len(pat.hinges)) == (14, 6, 5)
    # corners where the cut edges meet again: distinct indices at one point, no hinge between them
    corner = np.all(pat.vertices == [0, 0, 1], axis=1)
    assert np.flatnonzero(corner).tolist() == [4, 9, 13]
    # the file's fold angles are the geometry's: all five creases are 90-degree valleys
    angles = dict(zip(pat.edges, fold_angles(pat)))
    assert [angles[tuple(sorted(h.vertices))] for h in pat.hinges] == pytest.approx([90.0] * 5, abs=1e-12)
    assert counts(s) == (5, 0)                 # a tree of 6 panels


def pyramid(h=1.0):
    """Four triangular flaps on a square base, folded up until their tips (vertices 4-7) touch at (0.5, 0.5, h)."""
    base = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)]
    tips = [(0.5, 0.5, h)] * 4
    faces = [[0, 1, 2, 3], [1, 0, 4], [2, 1, 5], [3, 2, 6], [0, 3, 7]]
    return base + tips, faces


def test_flaps_that_touch_in_three_dimensions():
    X, faces = pyramid()
    d = {"file_spec": 1, "file_creator": "A text editor", "frame_classes": ["foldedForm"],
         "frame_attributes": ["3D"], "vertices_coords": [list(p) for p in X], "faces_vertices": faces}
    s = read_fold(d)
    assert (s.pattern.n_panels, len(s.pattern.hinges)) == (5, 4)
    assert counts(s) == (4, 0)


def test_flat_folded_state():
    """A strip of three squares folded flat in a zig-zag (fold-convert --flat-fold style: 2-D coordinates, +-180)."""
    d = {
        "file_spec": 1.1,
        "file_creator": "fold-convert --flat-fold",
        "file_classes": ["singleModel"],
        "frame_classes": ["foldedForm"],
        "vertices_coords": [[0, 0], [1, 0], [1, 1], [0, 1], [0, 0], [0, 1], [1, 0], [1, 1]],
        "faces_vertices": [[0, 1, 2, 3], [1, 4, 5, 2], [4, 6, 7, 5]],
        "edges_vertices": [[0, 1], [1, 2], [2, 3], [3, 0], [1, 4], [4, 5], [5, 2], [4, 6], [6, 7], [7, 5]],
        "edges_assignment": ["B", "V", "B", "B", "B", "M", "B", "B", "B", "B"],
        "edges_foldAngle": [0, 180, 0, 0, 0, -180, 0, 0, 0, 0],
        "vertices_flatUnfoldCoords": [[0, 0], [1, 0], [1, 1], [0, 1], [2, 0], [2, 1], [3, 0], [3, 1]],
    }
    s = read_fold(d)
    pat = s.pattern
    assert (pat.n_panels, len(pat.hinges)) == (3, 2)
    np.testing.assert_array_equal(pat.vertices[4], pat.vertices[0])
    assert [pat.panel_normal(p)[2] for p in range(3)] == [1.0, -1.0, 1.0]
    assert counts(s) == (2, 0)


# ------------------------------------------------------------------ frames
def test_frames_by_class_and_index(tmp_path):
    net, folded, faces, creases = cube_net()
    d = box_fold()
    d.update(file_spec=1.2, frame_classes=["creasePattern"], frame_attributes=["2D"],
             vertices_coords=[list(map(float, p)) for p in net], edges_foldAngle=[0] * len(d["edges_vertices"]))
    d["file_frames"] = [{"frame_classes": ["foldedForm"], "frame_attributes": ["3D"], "frame_parent": 0,
                         "frame_inherit": True, "vertices_coords": box_fold()["vertices_coords"],
                         "edges_foldAngle": box_fold()["edges_foldAngle"]}]
    path = write(tmp_path, "box-cp-and-folded.fold", d)
    flat = read_structure(path, frame="creasePattern")
    box = read_structure(path, frame="foldedForm")
    np.testing.assert_array_equal(flat.pattern.vertices[:, :2], net)
    np.testing.assert_array_equal(box.pattern.vertices, read_fold(path, frame=1).pattern.vertices)
    assert box.pattern.vertices[13].tolist() == [0, 0, 1]
    assert box.notes["fold"]["edges_foldAngle"][0] == 90
    assert counts(box) == (5, 0)
    with pytest.raises(FoldFileError, match=r"no frame has the class 'graph' in frame_classes \(frames 0: "
                                            r"\['creasePattern'\]; 1: \['foldedForm'\]\)"):
        read_fold(path, frame="graph")
    with pytest.raises(FoldFileError, match="there is no frame 2"):
        read_fold(path, frame=2)


def test_a_folding_sequence_in_frames():
    """An animation: the pyramid's flaps rising, one frame per step, each inheriting the faces."""
    heights = [0.0, 0.2, 0.45]
    X0, faces = pyramid()
    flat = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0.5, -0.5, 0], [1.5, 0.5, 0], [0.5, 1.5, 0], [-0.5, 0.5, 0]]
    d = {"file_spec": 1.2, "file_classes": ["singleModel", "animation"], "frame_classes": ["creasePattern"],
         "vertices_coords": flat, "faces_vertices": faces, "file_frames": []}
    for k, h in enumerate(heights[1:]):
        c = np.sqrt(0.25 - h * h)   # a flap's tip: 0.5 from its base edge's midpoint, at height h
        tips = [[0.5, -c, h], [1 + c, 0.5, h], [0.5, 1 + c, h], [-c, 0.5, h]]
        d["file_frames"].append({"frame_classes": ["foldedForm"], "frame_parent": 0, "frame_inherit": True,
                                 "vertices_coords": flat[:4] + tips})
    frames = read_frames(d)
    assert len(frames) == 2
    for f in [read_fold(d)] + frames:
        assert counts(f) == (4, 0)


# ------------------------------------------------------------------ crease patterns without faces
def editor_pattern():
    """The Origami Simulator pattern as a crease-pattern editor writes it: 2-D, no faces (y up: (x, -y_svg))."""
    d = simulator_export()
    return {"file_spec": 1.1, "file_creator": "Crease Pattern Editor", "file_classes": ["singleModel"],
            "frame_classes": ["creasePattern"], "vertices_coords": [[x, -y] for x, y in SVG_POINTS],
            "edges_vertices": d["edges_vertices"], "edges_assignment": d["edges_assignment"]}


def face_sets(faces):
    return sorted(sorted(f) for f in faces)


def test_faces_are_computed_for_a_faceless_crease_pattern():
    s = read_fold(editor_pattern())
    pat = s.pattern
    assert face_sets(pat.panels) == face_sets(OS_FACES)
    assert all(pat.panel_normal(p)[2] == pytest.approx(1.0) for p in range(pat.n_panels))   # counterclockwise
    assert pat.n_vertices - len(pat.edges) + pat.n_panels == 1                               # Euler, one disk
    area = sum(0.5 * np.linalg.norm(np.cross(pat.vertices[loop], np.roll(pat.vertices[loop], -1, 0)).sum(0))
               for loop in (list(p) for p in pat.panels))
    assert area == pytest.approx(200.0 ** 2, rel=1e-14)
    assert counts(s) == (3, 4)


def test_faces_of_a_faceless_pattern_in_the_y0_plane():
    d = editor_pattern()
    d["vertices_coords"] = [[float(x), 0.0, float(y)] for x, y in SVG_POINTS]   # Origami Simulator's plane
    s = read_fold(d, facets="facet")
    assert face_sets(s.pattern.panels) == face_sets([[0, 1, 8, 7], [1, 2, 3, 8], [8, 3, 4, 5], [7, 8, 5, 6]])
    assert all(s.pattern.panel_normal(p)[1] == pytest.approx(1.0) for p in range(4))     # normal +y


def test_faceless_pattern_errors_name_the_edges():
    base = {"vertices_coords": [[0, 0], [2, 0], [2, 2], [0, 2], [1, 1]],
            "edges_vertices": [[0, 1], [1, 2], [2, 3], [3, 0], [0, 2], [1, 3]]}
    with pytest.raises(FoldFileError, match=r"edges_vertices\[4\] and edges_vertices\[5\] cross at \[1.0, 1.0\] "
                                            r"without a vertex there"):
        read_fold(base)
    d = dict(base, edges_vertices=[[0, 1], [1, 2], [2, 3], [3, 0], [0, 4], [4, 2], [1, 3]])
    with pytest.raises(FoldFileError, match=r"edges_vertices\[4\] ends on edges_vertices\[6\] at vertices_coords\[4\]"):
        read_fold(d)
    d = dict(base, vertices_coords=base["vertices_coords"][:4] + [[2, 0]],
             edges_vertices=[[0, 1], [1, 2], [2, 3], [3, 0], [4, 3]])
    with pytest.raises(FoldFileError, match=r"vertices_coords\[1\] and vertices_coords\[4\] are at one point"):
        read_fold(d)
    d = dict(base, edges_vertices=[[0, 1], [1, 2], [2, 3], [3, 0], [0, 4], [0, 2]])
    with pytest.raises(FoldFileError, match=r"edges_vertices\[4\] and edges_vertices\[5\] overlap along a line"):
        read_fold(d)
    with pytest.raises(FoldFileError, match=r"faces_vertices is missing \(required, unless edges_vertices gives"):
        read_fold({"vertices_coords": base["vertices_coords"]})


def test_a_hole_drawn_as_boundary_is_left_out():
    """A square sheet with a square hole (its outline "B") and two creases from the hole to the corners."""
    outer = [[0, 0], [3, 0], [3, 3], [0, 3]]
    inner = [[1, 1], [2, 1], [2, 2], [1, 2]]
    ring = lambda o: [[o + i, o + (i + 1) % 4] for i in range(4)]   # noqa: E731
    d = {"vertices_coords": outer + inner, "edges_vertices": ring(0) + ring(4) + [[0, 4], [2, 6]],
         "edges_assignment": ["B"] * 8 + ["M", "V"]}
    s = read_fold(d)
    assert s.pattern.n_panels == 2 and len(s.pattern.hinges) == 2
    assert len(s.pattern.boundary_edges) == 8


# ------------------------------------------------------------------ cuts
def grid(n):
    """n x n unit squares: vertex (i, j) is i + (n + 1) j; faces counterclockwise."""
    X = [[i, j] for j in range(n + 1) for i in range(n + 1)]
    v = lambda i, j: i + (n + 1) * j   # noqa: E731
    faces = [[v(i, j), v(i + 1, j), v(i + 1, j + 1), v(i, j + 1)] for j in range(n) for i in range(n)]
    edges, assign = [], []
    for loop in faces:
        for a, b in zip(loop, loop[1:] + loop[:1]):
            if [min(a, b), max(a, b)] not in edges:
                edges.append([min(a, b), max(a, b)])
    for a, b in edges:
        (xa, ya), (xb, yb) = X[a], X[b]
        on_side = (xa == xb and xa in (0, n)) or (ya == yb and ya in (0, n))
        assign.append("B" if on_side else "M")
    return {"vertices_coords": X, "faces_vertices": faces, "edges_vertices": edges, "edges_assignment": assign}, v


def test_a_cut_from_the_boundary_splits_the_sheet_there():
    d, v = grid(2)
    k = d["edges_vertices"].index([v(1, 0), v(1, 1)])    # from the bottom edge's midpoint to the centre
    d["edges_assignment"][k] = "C"
    s = read_fold(d)
    pat = s.pattern
    assert (pat.n_vertices, pat.n_panels, len(pat.hinges), len(pat.boundary_edges)) == (10, 4, 3, 10)
    assert s.notes["fold"]["file_vertices"][9] == v(1, 0)       # the copy of the cut's boundary end
    np.testing.assert_array_equal(pat.vertices[9], pat.vertices[v(1, 0)])
    assert s.notes["fold"]["edges_assignment"].count("C") == 0
    assert counts(s) == (3, 0)                                  # 4 panels in a chain around the centre


def test_a_slit_inside_the_sheet():
    d, v = grid(4)
    for a, b in ([v(1, 2), v(2, 2)], [v(2, 2), v(3, 2)]):
        d["edges_assignment"][d["edges_vertices"].index([a, b])] = "C"
    d["vertices_origami:load"] = [None] * 25
    d["vertices_origami:load"][v(2, 2)] = {"force": [0, 0, -8.0]}   # shared by the 4 faces at the slit's middle
    s = read_fold(d)
    pat = s.pattern
    assert (pat.n_vertices, pat.n_panels, len(pat.hinges), len(pat.boundary_edges)) == (26, 16, 22, 20)
    # the slit's middle vertex is split in two, each with two faces: the load is shared 2 + 2
    assert s.loads == (Load(v(2, 2), (0.0, 0.0, -4.0), None), Load(25, (0.0, 0.0, -4.0), None))
    assert sorted(len(pat.vertex_panels[u]) for u in (v(2, 2), 25)) == [2, 2]


def test_a_cut_whose_ends_are_both_inside_is_named():
    d, v = grid(4)
    k = d["edges_vertices"].index([v(1, 2), v(2, 2)])
    d["edges_assignment"][k] = "C"
    with pytest.raises(FoldFileError, match=rf"edges_vertices\[{k}\] is a cut, but neither of its ends reaches the "
                                            r"boundary or another cut"):
        read_fold(d)


def test_simulator_export_of_a_cut_pattern_with_spare_vertices():
    """Origami Simulator's export of a cut pattern has the split copies of vertices appended, in no face: dropped."""
    d, v = grid(2)
    d["vertices_coords"] = [[x, 0.0, y] for x, y in d["vertices_coords"]] + [[1.0, 0.0, 0.0]]
    s = read_fold(d)
    assert s.pattern.n_vertices == 9 and s.notes["fold"]["file_vertices"] == list(range(9))
