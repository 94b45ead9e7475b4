"""FOLD import and export: round trips, fold angles, frames, and one named error per malformed key."""
import json
import re

import numpy as np
import pytest

from chrono_origami.tools.errors import FoldFileError
from chrono_origami.structure.foldfile import fold_angles, fold_dict, read_fold, read_frames, write_fold
from chrono_origami.tools.geometry import rotation_about
from chrono_origami.crease.pattern import CreasePattern
from chrono_origami.structure.structure import Load, Structure, Support
from chrono_origami.structure.hinges import DOOR, SLIDING


def two_squares(phi=0.0):
    """Squares 0 (x in [0, 1]) and 1 (x in [1, 2]) joined along x = 1; face 1 turned up by phi (rad)."""
    c, s = np.cos(phi), np.sin(phi)
    X = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [1 + c, 0, s], [1 + c, 1, s]]
    return CreasePattern(X, [(0, 1, 2, 3), (1, 4, 5, 2)])


def pair(phi=0.0, **kw):
    args = dict(hinge_kinds=(DOOR,), thickness=(0.1, 0.2), density=3.0,
                supports=(Support(0, 0, "xyz"), Support(3, 0, "xz"), Support(1, 0, "z"), Support(5, 1, "z")),
                loads=(Load(4, (1.0, 2.0, -4.0), 1),), name="pair")
    args.update(kw)
    return Structure(two_squares(phi), **args)


def strip():
    """Three folded panels with a door and a sliding hinge, shared and panel loads, gravity."""
    ca, sa = np.cos(0.7), np.sin(0.7)
    v = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [1 + ca, -0.2, sa], [1 + 1.2 * ca, 1.3, 1.2 * sa]]
    h2 = np.subtract(v[5], v[4])
    f = np.array([0.8, 0.1, -0.5])
    v += [list(np.add(v[4], f)), list(np.add(v[5], f + 0.1 * h2))]
    pat = CreasePattern(v, [(0, 1, 2, 3), (1, 4, 5, 2), (4, 6, 7, 5)],
                        edges=[(4, 5), (0, 1), (1, 2), (2, 3), (3, 0), (1, 4), (2, 5), (4, 6), (6, 7), (7, 5)])
    sup = (Support(7, 2, "y"), Support(0, 0, "xyz"), Support(3, 0, "xz"), Support(1, 0, "z"),
           Support(4, 1, "z"), Support(6, 2, "z"), Support(4, 2, "x"))
    loads = (Load(7, (1.0, -2.0, 3.0), 2), Load(5, (0.5, 0.0, -1.0), None), Load(5, (0.0, 1.0, 0.0), 1))
    return Structure(pat, (SLIDING, DOOR), (0.05, 0.04, 0.03), 100.0, sup, loads, (0, 0, -9.81), "folded strip")


def by_vertex(items):
    """Supports and loads come back ordered by vertex, in their original order at each vertex."""
    return sorted(items, key=lambda x: x.vertex)


def assert_same_structure(a, b, vertices=None):
    pa, pb = a.pattern, b.pattern
    np.testing.assert_array_equal(pb.vertices, pa.vertices if vertices is None else vertices)
    assert pb.panels == pa.panels
    assert pb.edges == pa.edges
    assert pb.hinges == pa.hinges
    assert b.hinge_kinds == a.hinge_kinds
    assert b.thickness == a.thickness
    assert b.density == a.density
    assert b.gravity == (None if a.gravity is None else tuple(float(x) for x in a.gravity))
    assert list(b.supports) == by_vertex(a.supports)
    assert list(b.loads) == by_vertex(a.loads)


# ------------------------------------------------------------------- round trips
@pytest.mark.parametrize("make", [pair, strip])
def test_round_trip_through_a_file(make, tmp_path):
    s = make()
    path = tmp_path / "s.fold"
    write_fold(s, path)
    r = read_fold(path)
    assert_same_structure(s, r)
    assert r.name == s.name
    assert read_fold(json.loads(path.read_text())).hinge_kinds == s.hinge_kinds


def test_hinge_numbering_follows_edges_vertices():
    s = strip()
    d = fold_dict(s)
    # the explicit edge order puts 4-5 first: it is hinge 1 (sliding), then 1-2 (door)
    assert d["edges_vertices"][0] == [4, 5]
    assert d["edges_origami:hinge"][:3] == ["sliding", None, "door"]
    r = read_fold(d)
    assert [tuple(sorted(h.vertices)) for h in r.pattern.hinges] == [(4, 5), (1, 2)]
    assert r.hinge_kinds == (SLIDING, DOOR)


def test_several_supports_and_loads_at_one_vertex_are_lists():
    d = fold_dict(strip())
    assert d["vertices_origami:support"][4] == [{"dofs": "z", "panel": 1}, {"dofs": "x", "panel": 2}]
    assert d["vertices_origami:load"][5] == [{"force": [0.5, 0.0, -1.0], "panel": None},
                                             {"force": [0.0, 1.0, 0.0], "panel": 1}]


@pytest.mark.parametrize("phi_deg", [25.0, -60.0, 135.0, 0.0])
def test_fold_angle_sign_and_assignment(phi_deg):
    """Face 1 turned up (phi > 0) brings the two top sides together: a valley of +phi degrees."""
    d = fold_dict(pair(np.radians(phi_deg)))
    h = d["edges_vertices"].index([1, 2])
    assert d["edges_foldAngle"][h] == pytest.approx(phi_deg, abs=1e-12)
    assert d["edges_assignment"][h] == ("U" if phi_deg == 0 else "V" if phi_deg > 0 else "M")
    others = [k for k in range(len(d["edges_vertices"])) if k != h]
    assert all(d["edges_assignment"][k] == "B" and d["edges_foldAngle"][k] == 0 for k in others)
    assert d["frame_attributes"][0] == ("2D" if phi_deg == 0 else "3D")


def test_fold_angle_does_not_depend_on_which_face_comes_first_or_on_rigid_motions():
    X = two_squares(0.9).vertices
    R = rotation_about([1, -2, 0.5], 2.1)
    Y = X @ R.T + [3, 1, -2]
    swapped = CreasePattern(Y, [(1, 4, 5, 2), (0, 1, 2, 3)])
    assert max(fold_angles(swapped)) == pytest.approx(np.degrees(0.9), abs=1e-12)


def test_fold_angle_against_the_angle_between_normals():
    """Independent check on the strip: |angle| = angle between the normals; valley iff m_q.n_p < 0."""
    s = strip()
    pat = s.pattern
    angles = dict(zip(pat.edges, fold_angles(pat)))
    for h in pat.hinges:
        p, q = h.panels
        mp, mq = pat.panel_normal(p), pat.panel_normal(q)
        a, b = h.vertices
        n_p = np.cross(pat.vertices[b] - pat.vertices[a], mp)  # in p's plane, pointing out of p
        expect = np.degrees(np.arccos(np.clip(mp @ mq, -1, 1))) * (1 if mq @ n_p < 0 else -1)
        assert angles[tuple(sorted(h.vertices))] == pytest.approx(expect, abs=1e-9)


def test_read_keeps_assignment_and_fold_angles_in_notes():
    d = fold_dict(pair(0.5))
    r = read_fold(d)
    assert r.notes["fold"]["edges_assignment"] == d["edges_assignment"]
    assert r.notes["fold"]["edges_foldAngle"] == d["edges_foldAngle"]


def test_edges_are_derived_without_edges_vertices():
    d = {"vertices_coords": [[0, 0], [1, 0], [1, 1], [0, 1], [2, 0], [2, 1]],
         "faces_vertices": [[0, 1, 2, 3], [1, 4, 5, 2]]}
    r = read_fold(d)
    assert [h.vertices for h in r.pattern.hinges] == [(1, 2)]
    assert r.hinge_kinds == (DOOR,) and r.thickness == (0.0, 0.0) and r.density == 1.0
    assert r.supports == () and r.loads == () and r.gravity is None


def test_two_dimensional_coordinates_get_z_zero():
    d = fold_dict(pair())
    d["vertices_coords"] = [c[:2] for c in d["vertices_coords"]]
    r = read_fold(d)
    np.testing.assert_array_equal(r.pattern.vertices, pair().pattern.vertices)


def test_name_is_the_file_title_else_the_file_name(tmp_path):
    d = fold_dict(pair())
    del d["file_title"]
    path = tmp_path / "my_pair.fold"
    path.write_text(json.dumps(d))
    assert read_fold(path).name == "my_pair"


# ------------------------------------------------------------------------- frames
def test_frames_round_trip(tmp_path):
    s = strip()
    X = s.pattern.vertices
    R = rotation_about([0.3, 1, -0.2], 0.8)
    history = [X @ R.T + [1, 2, 3], X + [0, 0, 5]]
    path = tmp_path / "h.fold"
    write_fold(s, path, frames=history)
    frames = read_frames(path)
    assert len(frames) == 2
    for Y, f in zip(history, frames):
        assert_same_structure(s, f, vertices=Y)
    assert frames[1].name == "folded strip (frame 2)"
    assert_same_structure(s, read_fold(path))   # frame 0 is untouched
    assert_same_structure(s, read_fold(path, frame=1), vertices=history[0])


def test_frames_carry_their_own_fold_angles():
    phis = [10.0, 40.0, -30.0]
    s = pair()
    d = fold_dict(s, frames=[two_squares(np.radians(p)).vertices for p in phis])
    h = d["edges_vertices"].index([1, 2])
    assert [f["edges_foldAngle"][h] for f in d["file_frames"]] == pytest.approx(phis, abs=1e-12)
    assert [f["edges_assignment"][h] for f in d["file_frames"]] == ["V", "V", "M"]
    assert all(f["frame_parent"] == 0 and f["frame_inherit"] is True for f in d["file_frames"])
    assert [read_fold(d, k).pattern.vertices[4, 2] for k in (1, 2, 3)] == \
        pytest.approx([np.sin(np.radians(p)) for p in phis], abs=1e-15)


def test_inheritance_is_recursive_and_per_key():
    s = pair()
    d = fold_dict(s)
    up = two_squares(0.4).vertices.tolist()
    d["file_frames"] = [
        {"frame_parent": 0, "frame_inherit": True, "vertices_coords": up},
        {"frame_parent": 1, "frame_inherit": True, "vertices_origami:load": [None] * 5 + [{"force": [0, 0, 1]}],
         "frame_title": "pushed"},
        {"frame_parent": 0, "vertices_coords": up, "faces_vertices": d["faces_vertices"]},  # no inheritance
    ]
    f1, f2, f3 = read_frames(d)
    np.testing.assert_array_equal(f2.pattern.vertices, up)
    assert list(f2.supports) == list(f1.supports) == by_vertex(s.supports)
    assert f2.loads == (Load(5, (0.0, 0.0, 1.0), None),) and f1.loads == s.loads
    assert f2.name == "pushed"
    assert f3.supports == () and f3.loads == () and f3.thickness == (0.0, 0.0) and f3.density == 1.0


# ------------------------------------------------------------ malformed keys, named
def base():
    return fold_dict(pair())


def edit(path_value):
    """Apply {"a.b[2]": value or DELETE} edits to a fresh base dict."""
    d = base()
    for path, value in path_value.items():
        keys = [int(k) if k.isdigit() else k for k in re.findall(r"[^.\[\]]+", path)]
        target = d
        for k in keys[:-1]:
            target = target[k]
        if value is DELETE:
            del target[keys[-1]]
        else:
            target[keys[-1]] = value
    return d


DELETE = object()
HINGE = 1   # edges_vertices index of the hinge [1, 2] in base()
BOUNDARY = 0


def test_base_layout():
    d = base()
    assert d["edges_vertices"][HINGE] == [1, 2] and d["edges_assignment"][BOUNDARY] == "B"


MALFORMED = [
    ({"faces_vertices": DELETE, "vertices_coords[5]": [2, 1, 0.5]},
     "faces_vertices is missing, and its faces can be computed only for a flat crease pattern: vertices_coords["),
    ({"vertices_coords": DELETE}, "vertices_coords is missing (required)"),
    ({"vertices_coords": {"0": [0, 0, 0]}}, "vertices_coords must be a list"),
    ({"vertices_coords": []}, "vertices_coords is empty"),
    ({"vertices_coords[2]": [1, "a", 0]}, "vertices_coords[2] must be 2 or 3 finite numbers"),
    ({"vertices_coords[3]": [0, 1, 0, 0]}, "vertices_coords[3] must be 2 or 3 finite numbers"),
    ({"vertices_coords[1]": [1, float("nan"), 0]}, "vertices_coords[1] must be 2 or 3 finite numbers"),
    ({"faces_vertices[1]": [1, 4]}, "faces_vertices[1] must list at least 3 vertices"),
    ({"faces_vertices[1]": [1, 4, 9, 2]}, "faces_vertices[1][2] = 9 refers to a vertex beyond the 6 of vertices_coords"),
    ({"faces_vertices[1]": [1, 4, 5, -1]}, "faces_vertices[1][3] = -1 is negative; vertex indices are 0-based, "
                                           "from 0 to 5"),
    ({"faces_vertices[0]": [0, 1, 2.0, 3]}, "faces_vertices[0] must be a list of vertex indices"),
    ({"faces_vertices[0]": [0, 1, 2, 1]}, "faces_vertices[0] lists vertex 1 twice"),
    # folded (face 2 turned up by 90 deg): the plane gives no orientation, the strict check holds
    ({"faces_vertices[1]": [1, 2, 5, 4], "vertices_coords[4]": [1, 0, 1], "vertices_coords[5]": [1, 1, 1]},
     "do not make a valid crease pattern: panels 1 and 2 have inconsistent"),
    ({"vertices_coords[5]": [2, 1, 0.5]}, "do not make a valid crease pattern: panel 2 is not planar"),
    ({"edges_vertices[2]": [2]}, "edges_vertices[2] must be two vertex indices"),
    ({"edges_vertices[2]": [0, 2]}, "edges_vertices[2] = [0, 2] is not a side of any face"),
    ({"edges_vertices[2]": [0, 1]}, "edges_vertices[2] = [0, 1] repeats edges_vertices[0]"),
    ({"edges_vertices[2]": [0, 7]}, "edges_vertices[2][1] = 7 refers to a vertex beyond the 6 of vertices_coords"),
    ({"edges_vertices[2]": [-2, 3]}, "edges_vertices[2][0] = -2 is negative; vertex indices are 0-based, from 0 to 5"),
    ({"edges_vertices": DELETE}, "edges_assignment needs edges_vertices"),
    ({"edges_assignment": ["B"] * 6}, "edges_assignment has 6 entries, expected 7"),
    ({f"edges_assignment[{HINGE}]": "B"}, f"edges_assignment[{HINGE}] is 'B', but edge [1, 2] is a hinge between "
                                          f"faces 0 and 1"),
    ({f"edges_assignment[{BOUNDARY}]": "M"}, f"edges_assignment[{BOUNDARY}] is 'M', but edge [0, 1] is a boundary "
                                             f"edge (only in face 0)"),
    ({f"edges_assignment[{HINGE}]": "X"}, f"edges_assignment[{HINGE}] is \"X\"; expected one of"),
    ({f"edges_assignment[{HINGE}]": "C"}, f"edges_origami:hinge[{HINGE}] is \"door\", but edges_assignment[{HINGE}] "
                                          f"is 'C': a cut, no hinge; expected null"),
    ({f"edges_assignment[{HINGE}]": "J", f"edges_origami:hinge[{HINGE}]": "sliding"},
     f"edges_origami:hinge[{HINGE}] is \"sliding\", but edges_assignment[{HINGE}] is 'J' (faces joined rigidly); "
     f"expected 'joined' or null"),
    ({f"edges_foldAngle[{HINGE}]": "90"}, f"edges_foldAngle[{HINGE}] must be a number of degrees in [-180, 180] or "
                                          f"null"),
    ({"vertices_coords[4]": [2, 0, 1e51]}, "vertices_coords[4] has a coordinate of magnitude 1e+51, beyond the "
                                           "largest accepted 1e+50"),
    ({"vertices_origami:load[4].force": [1, 2e300, 0]}, "vertices_origami:load[4].force has a component of "
                                                        "magnitude 2e+300, beyond the largest accepted 1e+50"),
    ({"origami:gravity": [0, 0, -1e308]}, "origami:gravity has a component of magnitude 1e+308"),
    ({"origami:density": 1e60}, "origami:density = 1e+60 is beyond the largest accepted magnitude 1e+50"),
    ({"faces_origami:thickness[0]": 1e60}, "faces_origami:thickness[0] = 1e+60 is beyond the largest accepted"),
    ({f"edges_foldAngle[{HINGE}]": 200}, f"edges_foldAngle[{HINGE}] must be a number of degrees in [-180, 180]"),
    ({f"edges_foldAngle[{HINGE}]": 30, f"edges_assignment[{HINGE}]": "M"},
     f"edges_foldAngle[{HINGE}] is 30, but edges_assignment[{HINGE}] is 'M'"),
    ({f"edges_foldAngle[{BOUNDARY}]": 10}, f"edges_foldAngle[{BOUNDARY}] is 10 on the boundary edge [0, 1]"),
    ({f"edges_origami:hinge[{HINGE}]": "hinge"},
     f"edges_origami:hinge[{HINGE}] is \"hinge\"; expected 'door', 'sliding', 'joined', 'spherical' or null"),
    ({f"edges_origami:hinge[{BOUNDARY}]": "door"},
     f"edges_origami:hinge[{BOUNDARY}] is \"door\", but edge [0, 1] is a boundary edge"),
    ({f"edges_origami:hinge[{HINGE}]": None},
     f"edges_origami:hinge[{HINGE}] is null, but edge [1, 2] is a hinge between faces 0 and 1"),
    ({"edges_origami:hinge": ["door"]}, "edges_origami:hinge has 1 entries, expected 7"),
    ({"faces_origami:thickness": [0.1]}, "faces_origami:thickness has 1 entries, expected 2"),
    ({"faces_origami:thickness[1]": -0.2}, "faces_origami:thickness[1] must be a non-negative number"),
    ({"origami:density": "heavy"}, "origami:density must be a non-negative number"),
    ({"origami:gravity": [0, -9.81]}, "origami:gravity must be 3 finite numbers"),
    ({"vertices_origami:support": [None] * 5}, "vertices_origami:support has 5 entries, expected 6"),
    ({"vertices_origami:support[0].dofs": "xw"}, "vertices_origami:support[0].dofs must be a non-empty subset of"),
    ({"vertices_origami:support[0].dofs": ""}, "vertices_origami:support[0].dofs must be a non-empty subset of"),
    ({"vertices_origami:support[0].dofs": "xx"}, "vertices_origami:support[0].dofs must be a non-empty subset of"),
    ({"vertices_origami:support[0].dofs": DELETE}, "vertices_origami:support[0].dofs is missing"),
    ({"vertices_origami:support[0].panel": DELETE}, "vertices_origami:support[0].panel is missing"),
    ({"vertices_origami:support[0].panel": 1},
     "vertices_origami:support[0].panel = 1: face 1 does not contain vertex 0 (faces at vertex 0: [0])"),
    ({"vertices_origami:support[0].panel": 2}, "vertices_origami:support[0].panel must be a face index from 0 to 1"),
    ({"vertices_origami:support[0].dof": "x"}, "vertices_origami:support[0] has unknown key 'dof'"),
    ({"vertices_origami:support[2]": "xyz"}, "vertices_origami:support[2] must be null, an object or a list"),
    ({"vertices_origami:support[1]": [{"dofs": "z", "panel": 0}, {"dofs": "yz", "panel": 1}]},
     "vertices_origami:support[1] holds vertex 1 twice in direction z"),
    ({"vertices_origami:support[1]": [{"dofs": "z", "panel": 0}, {"dofs": "y", "panel": 3}]},
     "vertices_origami:support[1][1].panel must be a face index"),
    ({"vertices_origami:load[4].force": [1, 2]}, "vertices_origami:load[4].force must be 3 finite numbers"),
    ({"vertices_origami:load[4].force": DELETE}, "vertices_origami:load[4].force is missing"),
    ({"vertices_origami:load[4].panel": 0}, "vertices_origami:load[4].panel = 0: face 0 does not contain vertex 4"),
    ({"vertices_origami:load[4].panel": -1}, "vertices_origami:load[4].panel must be a face index from 0 to 1 "
                                             "or null"),
    ({"file_title": 7}, "file_title must be a string"),
    ({"file_frames": {}}, "file_frames must be a list of frame dictionaries"),
    ({"file_frames": [[1, 2]]}, "file_frames[0] must be a dictionary"),
]


@pytest.mark.parametrize("edits, message", MALFORMED, ids=[m[:40] for _, m in MALFORMED])
def test_malformed_key_is_named(edits, message):
    d = edit(edits)
    with pytest.raises(FoldFileError) as info:
        read_fold(d)
    text = str(info.value)
    assert message in text
    assert "\n" not in text


def test_a_nan_load_is_named_by_its_key_and_index(tmp_path, capsys):
    """A script's NaN load (json.dump writes the literal NaN): the command line names the key and the index in one
    line, exit 1, not a quantity derived from the load later on."""
    from chrono_origami import cli

    path = tmp_path / "nan_load.fold"
    path.write_text(json.dumps(edit({"vertices_origami:load[4].force": [1.0, float("nan"), 0.0]})))
    assert "NaN" in path.read_text()
    for command in ("static", "count"):
        assert cli.main([command, str(path), "--engine", "reference"]) == 1
        err = capsys.readouterr().err
        assert err == (f"error: {path}: vertices_origami:load[4].force must be 3 finite numbers [fx, fy, fz], "
                       f"got [1.0, NaN, 0.0] (1-based: vertex 5)\n")


def test_a_load_may_omit_its_panel():
    d = edit({"vertices_origami:load[4].panel": DELETE})
    assert read_fold(d).loads == (Load(4, (1.0, 2.0, -4.0), None),)


FRAME_ERRORS = [
    ([{"frame_inherit": True}], 1, "file_frames[0].frame_inherit is true but file_frames[0].frame_parent is missing"),
    ([{"frame_inherit": True, "frame_parent": 5}], 1, "file_frames[0].frame_parent must be a frame ID from 0 to 1"),
    ([{"frame_inherit": "yes", "frame_parent": 0}], 1, "file_frames[0].frame_inherit must be true or false"),
    ([{"frame_inherit": True, "frame_parent": 2}, {"frame_inherit": True, "frame_parent": 1}], 1,
     "file_frames[1].frame_parent = 1 closes a loop of inheriting frames [1, 2]"),
    ([{"frame_parent": 0, "vertices_coords": [[0, 0, 0]]}], 1, "file_frames[0].faces_vertices is missing"),
    ([{"frame_parent": 0, "frame_inherit": True, "vertices_coords": [[0, 0, 0]] * 5 + [[0, "1", 0]]}], 1,
     "file_frames[0].vertices_coords[5] must be 2 or 3 finite numbers"),
    ([{"frame_parent": 0, "frame_inherit": True, "faces_origami:thickness": [1, -1]}], 1,
     "file_frames[0].faces_origami:thickness[1] must be a non-negative number"),
    ([{"frame_parent": 0, "frame_inherit": True}], 2, "there is no frame 2 (frames 0 to 1)"),
]


@pytest.mark.parametrize("frames, k, message", FRAME_ERRORS, ids=[m[:40] for _, _, m in FRAME_ERRORS])
def test_malformed_frame_is_named(frames, k, message):
    d = base()
    d["file_frames"] = frames
    with pytest.raises(FoldFileError, match=re.escape(message)):
        read_fold(d, frame=k)


def test_an_inherited_bad_key_is_named_where_it_is_written():
    d = edit({"faces_origami:thickness[0]": "thin"})
    up = two_squares(0.3).vertices.tolist()
    d["file_frames"] = [{"frame_parent": 0, "frame_inherit": True, "vertices_coords": up}]
    with pytest.raises(FoldFileError, match=re.escape(": faces_origami:thickness[0] must be")):
        read_frames(d)


def test_files_that_are_not_fold_json(tmp_path):
    bad = tmp_path / "bad.fold"
    bad.write_text('{"vertices_coords": [[0, 0, 0],]}')
    with pytest.raises(FoldFileError, match=re.escape(f"{bad}: not valid JSON (")):
        read_fold(bad)
    bad.write_text("[1, 2, 3]")
    with pytest.raises(FoldFileError, match="a FOLD file is a JSON object"):
        read_fold(bad)
    with pytest.raises(FoldFileError, match="no such FOLD file"):
        read_fold(tmp_path / "missing.fold")


def test_write_rejects_a_frame_of_the_wrong_shape(tmp_path):
    with pytest.raises(FoldFileError, match=re.escape("frames[1] has shape (5, 3); the structure has 6 vertices")):
        write_fold(pair(), tmp_path / "x.fold", frames=[two_squares().vertices, np.zeros((5, 3))])


def test_the_written_file_is_plain_fold_json(tmp_path):
    path = tmp_path / "p.fold"
    write_fold(pair(0.3), path, frames=[two_squares(0.4).vertices])
    d = json.loads(path.read_text())
    assert d["file_spec"] == 1.2 and d["file_creator"] == "chrono-origami"
    assert d == json.loads(json.dumps(fold_dict(pair(0.3), frames=[two_squares(0.4).vertices])))
    assert d["faces_vertices"] == [[0, 1, 2, 3], [1, 4, 5, 2]]


def oriedita_style(tmp_path, name="aux.fold", outline=True):
    """A FOLD file as Oriedita writes one: no faces_vertices, integer coordinates, the sheet's outline as 'B', a
    straight mountain line across it at y = 100 (three edges), and two auxiliary lines ('F', Oriedita's construction
    lines) inside the lower face, joined end to end."""
    X = [[-200, -200], [-200, 100], [200, -200], [200, 200], [-200, 200], [200, 100], [150, 100], [-150, 100],
         [-100, 50], [0, 50], [0, 0]]
    E = [[0, 1], [0, 2], [3, 4], [3, 5], [6, 7], [7, 1], [1, 4], [5, 6], [5, 2], [8, 9], [10, 9]]
    A = ["B", "B", "B", "B", "M", "M", "B", "M", "B", "F", "F"]
    if not outline:
        A = ["M" if a == "B" else a for a in A]
    doc = {"file_spec": 1.1, "file_creator": "oriedita", "vertices_coords": X, "edges_vertices": E,
           "edges_assignment": A, "edges_foldAngle": [-180 if a == "M" else 0 for a in A]}
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return path


def test_auxiliary_lines_inside_computed_faces_are_left_out_in_one_warning(tmp_path, capsys):
    """Edges that bound no face of the faces computed from a file without faces_vertices (an editor's auxiliary
    lines) are left out with one warning line naming the first (1-based), and the rest reads as the sheet it is:
    two panels across the mountain line (three hinges, two interior vertices on the line), folding to its target at
    60 % (-108 deg) on every one of the three creases. The same file, its outline drawn as mountains, is refused in
    one line naming the edge."""
    from cli_output import run
    from chrono_origami.analysis.fold import fold_to_targets

    path = oriedita_style(tmp_path)
    code, out, err = run(capsys, "check", path)
    assert code == 0, err
    assert err.strip() == (f"warning: {path}: left out 2 edge(s) that bound no face (lines inside a face or ending in "
                           f"it, as editors' auxiliary lines; the faces were computed from the edges), e.g. "
                           f"edges_vertices[9] = [8, 9] ('F') (1-based: edge 10)")
    assert "CreasePattern(8 vertices, 2 panels, 3 hinges, 6 boundary edges)" in out
    with pytest.warns(UserWarning, match="left out 2 edge"):
        s = read_fold(str(path))
    H = fold_to_targets(s, percent=60.0, engine="reference")
    a = np.array(fold_angles(s.pattern, H.final))
    letters = s.notes["fold"]["edges_assignment"]
    assert sorted(letters) == ["B"] * 6 + ["M"] * 3
    assert np.abs(a[[k for k, c in enumerate(letters) if c == "M"]] + 108.0).max() < 1e-9
    bad = oriedita_style(tmp_path, "no-outline.fold", outline=False)
    code, out, err = run(capsys, "check", bad)
    assert code == 1 and err.strip().splitlines()[-1].startswith(f"error: {bad}: edges_assignment[") \
        and "is a boundary edge" in err and len(err.strip().splitlines()) <= 2, err
