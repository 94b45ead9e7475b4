"""ORIPA's own files (.cp line files, .opx documents) read as crease patterns, through the command line.

Real files: flat-folder's ORIPA documents (``tests/data/flat_folder``). Our own in ORIPA's style: a Miura-ori
sheet cut by its border, saved as ORIPA's FOLD export, its .cp export and its .opx document (with an aux
construction line): the three read as one structure.
"""
import json
import os
import re

import numpy as np
import pytest

from chrono_origami.crease.oripa import read_oripa
from chrono_origami.structure.foldfile import read_structure
from chrono_origami.tools.errors import SvgFileError

import styles
from cli_output import run

DATA = os.path.join(os.path.dirname(__file__), "data", "flat_folder")


def edges_by_position(structure):
    """{(rounded endpoint, rounded endpoint): FOLD letter} of a structure's edges (the pattern's edge order, as
    ``notes["fold"]`` keeps the letters)."""
    pat = structure.pattern
    X = np.round(pat.vertices[:, :2], 6) + 0.0
    letters = structure.notes["fold"]["edges_assignment"]
    key = [tuple(sorted((tuple(X[a]), tuple(X[b])))) for a, b in pat.edges]
    assert len(key) == len(letters) == len(set(key))
    return dict(zip(key, letters))


@pytest.fixture
def miura(tmp_path):
    fold, _ = styles.oripa_miura(tmp_path / "miura.fold", columns=4, rows=4)
    cp, opx = styles.oripa_files(fold, tmp_path / "miura.cp", tmp_path / "miura.opx")
    return fold, cp, opx


def test_the_cp_and_opx_of_a_sheet_are_the_structure_of_its_fold_export(miura):
    """Same vertices, panels, hinges and mountain-valley letters (by position) from ORIPA's three files; the .opx's
    aux line is left out (facets="facet") or is a flat crease through the sheet (facets="crease")."""
    fold, cp, opx = miura
    ref = read_structure(str(fold))
    for path in (cp, opx):
        st = read_structure(str(path))
        assert (st.pattern.n_vertices, st.pattern.n_panels, len(st.pattern.hinges)) == \
               (ref.pattern.n_vertices, ref.pattern.n_panels, len(ref.pattern.hinges)), path
        assert edges_by_position(st) == edges_by_position(ref), path
    d = read_oripa(cp)
    angles = {a: set() for a in "MVB"}
    for a, t in zip(d["edges_assignment"], d["edges_foldAngle"]):
        angles[a].add(t)
    assert angles == {"M": {-180.0}, "V": {180.0}, "B": {0.0}}            # ORIPA folds flat: full targets
    d = read_oripa(opx, facets="crease")
    assert d["edges_assignment"].count("F") > 0
    assert len(d["faces_vertices"]) > ref.pattern.n_panels


def test_an_oripa_sheet_folds_from_its_cp_file_on_the_command_line(miura, tmp_path, capsys):
    """``check``, then ``fold --percent 60``: the Miura sheet's one mechanism folds (exit 0) toward ORIPA's full
    targets (+-180 deg on every crease, not a rigid fold: the first line says the percent reached), as its FOLD
    export does, to the same fold angles (1e-9 rad: one problem, read from two files)."""
    fold, cp, _ = miura
    code, out, err = run(capsys, "check", cp)
    assert code == 0 and "Kawasaki" in out, out + err
    got = {}
    for name, path in (("cp", cp), ("fold", fold)):
        code, out, err = run(capsys, "fold", path, "--percent", 60, "--quiet", "--out", tmp_path / name)
        assert code == 0, err
        assert re.match(r"miura: folded to [\d.]+ % of its target angles, asked 60 % ", out), out
        with open(tmp_path / name / "fold.fold") as f:
            last = json.load(f)["file_frames"][-1]
        got[name] = np.array(last["edges_foldAngle"], float)
    np.testing.assert_allclose(np.sort(got["cp"]), np.sort(got["fold"]), rtol=0, atol=np.degrees(1e-9))


def test_flat_folders_oripa_documents(capsys):
    """Real ORIPA documents: the pinwheel base is refused as Origami Simulator's pinwheelBase.svg is, by the
    same |log product| 3.5 around its centre square (the same pattern drawn in two editors); the 4 x 4 map grid
    and the tiger piece are read whole (25 vertices, 16 panels, 24 hinges; 93, 84, 129)."""
    code, out, err = run(capsys, "check", os.path.join(DATA, "pinwheel.opx"))
    assert code == 1
    assert ("pinwheel: not rigidly foldable: the fold-angle multipliers of its flat-foldable degree-4 vertices do not "
            "close around panel 9 (vertices 7, 6, 8, 5) by 3.5 (|log product|") in out, out + err
    for name, sizes in (("grid_assigned.opx", (25, 16, 24)), ("tiger_piece1.opx", (93, 84, 129))):
        st = read_structure(os.path.join(DATA, name))
        assert (st.pattern.n_vertices, st.pattern.n_panels, len(st.pattern.hinges)) == sizes, name
    code, out, err = run(capsys, "convert", os.path.join(DATA, "grid_assigned.opx"), "-o", os.devnull)
    assert code == 0 and "16 faces" in out, out + err


BAD = [
    ("bad.cp", "1 0 0 1 0\n2 0 0 x 1\n", r"bad.cp, line 2: expected TYPE X0 Y0 X1 Y1 \(an integer and 4 numbers\)"),
    ("short.cp", "1 0 0 1 0\n\n1 0 0 0\n", r"short.cp, line 3: expected TYPE X0 Y0 X1 Y1 \(5 numbers\), got 4"),
    ("type.cp", "1 0 0 1 0\n7 0 0 1 1\n", r"type.cp, line 2: line type 7 is not an ORIPA line type"),
    ("inf.cp", "1 0 0 1 0\n2 0 0 inf 1\n", r"inf.cp, line 2: coordinate inf is not a finite number"),
    ("empty.cp", "\n\n", r"empty.cp: no lines"),
    ("notxml.opx", "<java><object", r"notxml.opx: not valid XML"),
    ("nolines.opx", "<java><object class='oripa.DataSet'/></java>", r"nolines.opx: no ORIPA lines"),
    ("prop.opx", "<java><object class='oripa.OriLineProxy'><void property='x0'><double>a</double></void></object>"
                 "</java>", r"prop.opx: line 1: property x0 must be a number, got 'a'"),
    ("open.cp", "1 0 0 1 0\n2 0 0 1 1\n", r"open.cp: the lines enclose no face \(is the sheet's outline closed"),
]


@pytest.mark.parametrize("name, text, message", BAD, ids=[b[0] for b in BAD])
def test_a_bad_oripa_file_is_one_line(name, text, message, tmp_path, capsys):
    """Each bad file: exit 1 and one error line naming the file and its line (1-based), never a traceback."""
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(SvgFileError, match=message):
        read_oripa(path)
    code, out, err = run(capsys, "check", path)
    lines = [x for x in err.splitlines() if not x.startswith("note: PyChrono")]
    assert code == 1 and len(lines) == 1 and lines[0].startswith("error: "), err


def test_an_oripa_sheet_cut_in_two_is_one_warning_in_oripas_words(tmp_path):
    """A square whose type-1 (cut) line runs across it, with a mountain on each side: two pieces, said in one
    warning naming ORIPA's cut lines; the FOLD dictionary says which reader wrote it."""
    path = tmp_path / "cut.cp"
    path.write_text("1 0 0 2 0\n1 2 0 2 2\n1 2 2 0 2\n1 0 2 0 0\n1 1 0 1 2\n2 0 1 1 1\n2 1 1 2 1\n")
    with pytest.warns(UserWarning, match=r"the faces fall into 2 pieces joined by no crease \(a line of type 1 or 9 "
                                         r"between two faces is a cut\)"):
        d = read_oripa(path)
    assert d["file_creator"] == "chrono-origami (from CP)"
    assert sorted(d["edges_assignment"]).count("C") == 2 and len(d["faces_vertices"]) == 4


def test_a_zero_length_line_far_from_the_sheet_is_left_out(tmp_path, capsys):
    """ORIPA saves points drawn by a slip as zero-length lines; one far from the sheet (at 1e5, the sheet 2 wide) is
    left out, so it neither scales the merge tolerance nor adds a vertex: the file reads as the same square with
    its valley diagonal, and ``check`` reads it (exit 0)."""
    square = "1 0 0 2 0\n1 2 0 2 2\n1 2 2 0 2\n1 0 2 0 0\n3 0 0 2 2\n"
    clean, slip = tmp_path / "square.cp", tmp_path / "slip.cp"
    clean.write_text(square)
    slip.write_text(square + "2 100000 100000 100000 100000\n")
    ref, d = read_oripa(clean), read_oripa(slip)
    assert len(d["vertices_coords"]) == len(ref["vertices_coords"]) == 4
    assert d["vertices_coords"] == ref["vertices_coords"] and d["edges_vertices"] == ref["edges_vertices"]
    assert sorted(d["edges_assignment"]) == ["B", "B", "B", "B", "V"] and len(d["faces_vertices"]) == 2
    code, out, err = run(capsys, "check", slip)
    assert code == 0, out + err
