"""Flat FOLD crease patterns as pattern generators write them: faces in either winding, vertices stored twice,
degenerate faces and zero-length edges.

The reference is a Miura-ori sheet written by ``convert`` (faces counter-clockwise, one vertex per point); each
variant is an edit of its JSON, and must read as the same structure (vertices, panels, edges, assignment, target
angles) and fold to the same configuration, with one note or warning line saying what was changed.
"""
import json
import warnings

import numpy as np
import pytest

import journey_files as jf
from cli_output import run
from chrono_origami.structure.foldfile import convert, read_structure
from chrono_origami.tools.errors import FoldFileError


@pytest.fixture
def sheet(tmp_path):
    """(path, FOLD dict) of the 4 x 2 Miura-ori sheet."""
    svg = jf.miura_svg(tmp_path / "miura.svg")[0]
    path = tmp_path / "miura.fold"
    d = convert(svg, path)
    return path, d


def write(tmp_path, name, d):
    path = tmp_path / name
    path.write_text(json.dumps(d))
    return path


def same_structure(a, b):
    np.testing.assert_array_equal(b.pattern.vertices, a.pattern.vertices)
    assert b.pattern.panels == a.pattern.panels and b.pattern.edges == a.pattern.edges
    for key in ("edges_assignment", "edges_foldAngle"):
        assert b.notes["fold"][key] == a.notes["fold"][key], key


def folded(capsys, path, out, *options):
    """The vertices of the last frame of ``fold --percent 60`` of ``path``."""
    code, text, err = run(capsys, "fold", path, "--percent", 60, "--quiet", "--out", out, *options)
    assert code == 0, err
    with open(out / "fold.fold") as f:
        return np.array(json.load(f)["file_frames"][-1]["vertices_coords"], float)


def test_faces_in_alternate_windings_are_reoriented_and_fold_the_same(tmp_path, capsys, sheet):
    """Every other face listed clockwise: one note line with how many; the same structure, and fold moves every
    vertex as it moves the consistent sheet's, to 1e-12 of the sheet's size."""
    path, d = sheet
    faces = d["faces_vertices"]
    d["faces_vertices"] = [loop[::-1] if f % 2 else loop for f, loop in enumerate(faces)]
    mixed = write(tmp_path, "mixed.fold", d)
    a = read_structure(path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        b = read_structure(mixed)
    same_structure(a, b)
    n = len(faces) // 2
    assert b.notes["fold"]["reader_notes"] == [
        f"{mixed}: {n} of its {len(faces)} faces run clockwise seen from +z, against the others (first "
        f"faces_vertices[1], face 2): reoriented counter-clockwise, as a flat pattern's faces are"]
    code, out, err = run(capsys, "check", mixed)
    assert code == 0 and "warning" not in err, err
    assert [x for x in out.splitlines() if x.startswith("note: ")] == ["note: " + b.notes["fold"]["reader_notes"][0]]
    X0, X1 = folded(capsys, path, tmp_path / "a"), folded(capsys, mixed, tmp_path / "b")
    assert np.abs(X1 - X0).max() <= 1e-12 * a.pattern.size


def test_a_folded_file_in_inconsistent_winding_keeps_the_strict_check(tmp_path, sheet):
    """The same sheet tilted out of the plane z = 0 (z = 0.3 x: not flat in FOLD's sense): the plane gives no
    orientation, and the reversed face is refused as before."""
    path, d = sheet
    X = np.array(d["vertices_coords"], float)
    d["vertices_coords"] = [[x, y, 0.3 * x] for x, y in X]   # tilted: planar panels, one plane, z not constant
    d["faces_vertices"][1] = d["faces_vertices"][1][::-1]
    with pytest.raises(FoldFileError, match=r"panels \d+ and 2 have inconsistent orientation"):
        read_structure(write(tmp_path, "tilted.fold", d))


def duplicated(d, shift=0.0):
    """``d`` with every other face given its own copies of its vertices (appended, ``shift`` away in x), and its
    sides listed again between the copies with the original edges' assignment and target angle."""
    X = [list(v) for v in d["vertices_coords"]]
    index = {tuple(sorted(e)): k for k, e in enumerate(d["edges_vertices"])}
    edges, letters, angles = list(d["edges_vertices"]), list(d["edges_assignment"]), list(d["edges_foldAngle"])
    faces = []
    for f, loop in enumerate(d["faces_vertices"]):
        if f % 2 == 0:
            faces.append(loop)
            continue
        copy = {}
        for v in loop:
            copy[v] = len(X)
            X.append([X[v][0] + shift, X[v][1]])
        faces.append([copy[v] for v in loop])
        for a, b in zip(loop, loop[1:] + loop[:1]):
            k = index[tuple(sorted((a, b)))]
            edges.append([copy[a], copy[b]])
            letters.append(letters[k])
            angles.append(angles[k])
    return dict(d, vertices_coords=X, faces_vertices=faces, edges_vertices=edges, edges_assignment=letters,
                edges_foldAngle=angles)


def test_duplicated_vertices_read_as_the_merged_file(tmp_path, capsys, sheet):
    """Every other face with its own vertices at the same points: merged into the first of each point, one
    warning line naming the first merge (1-based) and the edges listed twice, the same structure; 1e-5 of the
    size apart they are not merged by default (an error names an edge) and are merged with --merge-tol 1e-4."""
    path, d = sheet
    a = read_structure(path)
    soup = write(tmp_path, "soup.fold", duplicated(d))
    with pytest.warns(UserWarning) as record:
        b = read_structure(soup)
    same_structure(a, b)
    nv = len(d["vertices_coords"])
    first = d["faces_vertices"][1][0]
    n_copies = sum(len(loop) for loop in d["faces_vertices"][1::2])
    n_twice = len(duplicated(d)["edges_vertices"]) - len(d["edges_vertices"])
    assert [str(w.message) for w in record] == [
        f"{soup}: flat pattern: merged {n_copies} vertices into others closer than "
        f"{1e-9 * a.pattern.size:.3g} (merge_tol= x the pattern's size), first vertices_coords[{nv}] into "
        f"vertices_coords[{first}] (vertex {nv + 1} into {first + 1}, 1-based); joined {n_twice} edge(s) lying on "
        f"others"]
    apart = write(tmp_path, "apart.fold", duplicated(d, shift=1e-5 * a.pattern.size))
    code, out, err = run(capsys, "check", apart)   # not merged: the edges listed twice are apart, one no side
    assert code == 1 and err.startswith(f"error: {apart}: edges_vertices[") and "is not a side of any face" in err
    with pytest.warns(UserWarning, match=r"merged \d+ vertices into others closer than .*--merge-tol|merge_tol="):
        c = read_structure(apart, merge_tol=1e-4)
    assert c.pattern.panels == a.pattern.panels and c.pattern.edges == a.pattern.edges
    np.testing.assert_allclose(c.pattern.vertices, a.pattern.vertices, rtol=0, atol=1e-12 * a.pattern.size)
    code, out, err = run(capsys, "check", apart, "--merge-tol", "1e-4")
    assert code == 0 and err.count("warning: ") == 1 and "--merge-tol x the pattern's size" in err, err


def test_degenerate_faces_and_zero_length_edges_are_dropped(tmp_path, sheet):
    """A folded-tube generator's degenerate quad (a face whose two corners are one point, and the zero-length edge
    between them) and a face of one point: dropped with one warning line naming the first of each (1-based); the
    same structure. A support on the dropped face is named."""
    path, d = sheet
    a = read_structure(path)
    X = [list(v) for v in d["vertices_coords"]]
    loop = d["faces_vertices"][0]
    v = loop[1]
    X.append(list(X[v]))                                     # vertex nv at the point of loop[1]
    nv = len(X) - 1
    d = dict(d, vertices_coords=X)
    d["faces_vertices"] = [[loop[0], v, nv] + loop[2:]] + d["faces_vertices"][1:] + [[v, nv, loop[0]]]
    k = next(k for k, e in enumerate(d["edges_vertices"]) if sorted(e) == sorted((v, loop[2])))
    d["edges_vertices"] = d["edges_vertices"] + [[v, nv], [nv, loop[0]]]
    d["edges_assignment"] = d["edges_assignment"] + ["B", "B"]
    d["edges_foldAngle"] = d["edges_foldAngle"] + [0.0, 0.0]
    d["edges_vertices"][k] = [nv, loop[2]]                   # the side after the repeated corner runs from nv
    ne, nf = len(d["edges_vertices"]), len(d["faces_vertices"])
    bad = write(tmp_path, "degenerate.fold", d)
    with pytest.warns(UserWarning) as record:
        b = read_structure(bad)
    same_structure(a, b)
    assert len(record) == 1
    text = str(record[0].message)
    assert text.startswith(f"{bad}: flat pattern: merged 1 vertices into others closer than ")
    assert f"first vertices_coords[{nv}] into vertices_coords[{v}] (vertex {nv + 1} into {v + 1}, 1-based)" in text
    assert (f"dropped 1 degenerate face(s), first faces_vertices[{nf - 1}] = {[v, nv, loop[0]]} (face {nf}); "
            f"dropped 1 zero-length edge(s), first edges_vertices[{ne - 2}] = {[v, nv]} (edge {ne - 1}); joined 1 "
            f"edge(s) lying on others") in text
    support = [None] * len(X)
    support[loop[0]] = {"dofs": "xyz", "panel": nf - 1}
    d["vertices_origami:support"] = support
    with pytest.raises(FoldFileError, match=rf"panel = {nf - 1}: face {nf - 1} is degenerate and was dropped "
                                            rf"\(face {nf}\)"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            read_structure(write(tmp_path, "held.fold", d))


@pytest.mark.parametrize("letters, hinges", [(("B", "B"), 0), (("M", "M"), 1), (("B", "V"), 1)],
                         ids=["a slit: B twice", "a crease listed twice", "outline and crease"])
def test_an_edge_stored_twice_joins_as_a_cut_or_a_crease(tmp_path, letters, hinges):
    """Two unit squares whose common side is stored twice (the second square's own copies of (1, 0) and (1, 1)):
    drawn "B" on both copies it is a slit, a cut, and the squares stay two pieces; a crease on either copy makes
    it one hinge of that letter."""
    d = {"file_spec": 1.2, "frame_classes": ["creasePattern"],
         "vertices_coords": [[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [2, 1], [1, 0], [1, 1]],
         "faces_vertices": [[0, 1, 4, 3], [6, 2, 5, 7]],
         "edges_vertices": [[0, 1], [1, 4], [4, 3], [3, 0], [6, 2], [2, 5], [5, 7], [7, 6]],
         "edges_assignment": ["B", letters[0], "B", "B", "B", "B", "B", letters[1]]}
    with pytest.warns(UserWarning, match="merged 2 vertices into others .*; joined 1 edge"):
        st = read_structure(write(tmp_path, "two.fold", d))
    assert len(st.pattern.hinges) == hinges and len(st.pattern.pieces) == 2 - hinges
    crease = [x for x in letters if x != "B"]
    assert sorted(set(st.notes["fold"]["edges_assignment"])) == sorted({"B"} | set(crease))   # a cut is written B
    d["edges_assignment"][1], d["edges_assignment"][7] = "M", "V"
    with pytest.raises(FoldFileError, match=r"edges_assignment\[7\] is 'V', but the edge lies on edges_vertices\[1\], "
                                            r"whose assignment is 'M'"):
        read_structure(write(tmp_path, "conflict.fold", d))


def test_any_choice_of_reversed_faces_reads_as_the_consistent_sheet(tmp_path, sheet):
    """Hypothesis: whichever faces are listed clockwise (and from whichever vertex), the structure is the
    consistent sheet's, and the note counts the faces reversed."""
    from hypothesis import HealthCheck, given, settings, strategies as st

    path, d = sheet
    a = read_structure(path)
    n = len(d["faces_vertices"])

    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(st.lists(st.booleans(), min_size=n, max_size=n), st.lists(st.integers(0, 3), min_size=n, max_size=n))
    def check(flip, start):
        faces = [loop[::-1] if f else loop for loop, f in zip(d["faces_vertices"], flip)]
        faces = [loop[s % len(loop):] + loop[:s % len(loop)] for loop, s in zip(faces, start)]
        p = write(tmp_path, "mixed.fold", dict(d, faces_vertices=faces))
        b = read_structure(p)
        assert b.pattern.edges == a.pattern.edges
        assert sorted(map(frozenset, b.pattern.panels)) == sorted(map(frozenset, a.pattern.panels))
        normals = b.pattern.panel_normals
        if 0 < sum(flip) < n:
            assert np.allclose(normals[:, 2], 1.0)   # reoriented: every normal +z
            assert b.notes["fold"]["reader_notes"][0].startswith(f"{p}: {sum(flip)} of its {n} faces run clockwise")
        else:   # one winding already: read as written
            assert np.allclose(normals[:, 2], -1.0 if flip[0] else 1.0) and "reader_notes" not in b.notes["fold"]

    check()
