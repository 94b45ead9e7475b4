"""Bad input on the command line, as a user types it: one line ``error: ...`` naming the flag, the key or the
1-based item, and the documented exit code (2 for a bad option value or a file the command cannot take, 1 for a
malformed file); the counts in agreement (``M = 1 mechanism``); the fold's note on targets that miss a rigid
fold by the file's rounding only, against a real miss.

Files: the hinged pair of ``tests/test_cli.py`` (2 panels, 1 hinge, 6 vertices), a strip of 8 square panels in a
row with 7 door hinges, clamped at panel 1 and held in z at one far corner of every other panel (48 velocities,
7 x 5 + 6 + 7 = 48 rows: isostatic, so no hinge can slide without adding a mechanism), and the Origami
Simulator-style Miura-ori SVG of ``tests/journey_files.py`` (coordinates to 3 decimals, opacities to 4).
"""
import csv
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import journey_files as jf
from chrono_origami.cli import app
from cli_output import run
from test_cli import hand_fold

ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))


def one_line(code, err, expected_code, *parts):
    """The run ended with ``expected_code`` and one line ``error: ...`` containing every one of ``parts``."""
    assert code == expected_code, (code, err)
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for p in parts:
        assert p in err, (p, err)
    return err


@pytest.fixture
def pair(tmp_path):
    path = tmp_path / "pair.fold"
    path.write_text(json.dumps(hand_fold()))
    return path


def strip_fold(n=8):
    """A row of ``n`` unit squares (vertex 2i+1 at (i, 0), 2i+2 at (i, 1), 1-based), door hinges between them,
    panel 1 clamped (vertex 1 xyz, 2 xz, 3 z) and vertex 2i+1 held in z for i = 2 .. n (one per further panel)."""
    X = [[float(i), float(j), 0.0] for i in range(n + 1) for j in (0, 1)]
    faces = [[2 * i, 2 * i + 2, 2 * i + 3, 2 * i + 1] for i in range(n)]
    edges, letters = [], []
    for i in range(n):
        edges += [[2 * i, 2 * i + 2], [2 * i + 1, 2 * i + 3]]
        letters += ["B", "B"]
    for i in range(n + 1):
        edges.append([2 * i, 2 * i + 1])
        letters.append("B" if i in (0, n) else "F")
    support = [None] * len(X)
    support[0], support[1], support[2] = ({"dofs": "xyz", "panel": 0}, {"dofs": "xz", "panel": 0},
                                          {"dofs": "z", "panel": 0})
    for i in range(2, n + 1):
        support[2 * i] = {"dofs": "z", "panel": i - 1}
    return {"file_spec": 1.2, "file_title": "strip", "vertices_coords": X, "faces_vertices": faces,
            "edges_vertices": edges, "edges_assignment": letters, "vertices_origami:support": support}


# ------------------------------------------------------------------ a. flags, not Python keywords
def test_merge_tol_on_a_folded_fold_file_names_the_flag(capsys, tmp_path):
    """--merge-tol merges the vertices of flat FOLD patterns only: on a folded one (face 2 turned up 90 deg) one
    warning line says so in the command line's words."""
    d = hand_fold()
    d["vertices_coords"][4:6] = [[1, 0, 1], [1, 1, 1]]
    path = tmp_path / "folded.fold"
    path.write_text(json.dumps(d))
    code, out, err = run(capsys, "count", path, "--merge-tol", "0.01")
    warned = [x for x in err.splitlines() if x.startswith("warning: ")]
    assert code == 0 and warned == [f"warning: {path}: --merge-tol is for flat crease patterns (faces in one plane "
                                    f"z = const, not overlapping); this one is folded: its vertices are read by index, "
                                    f"none merged"], err


def test_self_weight_without_thickness_names_the_flags(capsys, pair):
    err = one_line(*run(capsys, "count", pair, "--self-weight", "--thickness", "0")[::2], 2, "--self-weight: every panel has zero "
                   "thickness (give a thickness: faces_origami:thickness in the file, or --thickness)")
    assert "thickness=" not in err
    err = one_line(*run(capsys, "count", pair, "--self-weight", "--density", "0", "--thickness", "0.1")[::2], 2,
                   "the density is 0 (give a density: origami:density in the file, or --density)")
    assert "density=" not in err


def test_the_command_line_translates_every_keyword_and_leaves_file_keys_alone():
    """app.FLAGS is the one translation: each keyword becomes its flag; a key of the file that contains one
    (faces_origami:thickness) or a longer name (max_thickness=) stays as it is."""
    for keyword, flag in app.FLAGS.items():
        assert app.flags(f"give {keyword} here") == f"give {flag} here"
    text = "faces_origami:thickness in the file, or thickness=; max_thickness= stays; atol= stays"
    assert app.flags(text) == "faces_origami:thickness in the file, or --thickness; max_thickness= stays; atol= stays"
    assert app.flags("pass allow_singular_start=True, or use engine='chrono'") == \
        "pass --from-singular, or use --engine chrono"


# ------------------------------------------------------------------ b. design --slide: out of range, cannot slide
def test_design_slide_names_the_one_based_hinge(capsys, tmp_path):
    path = tmp_path / "strip.fold"
    path.write_text(json.dumps(strip_fold()))
    code, out, err = run(capsys, "count", path, "--engine", "reference")
    assert code == 0 and "M = 0 mechanisms, S = 0 self-stress states" in out
    # hinge 7 exists but cannot slide: the strip is isostatic with door hinges, a sliding one frees a motion
    one_line(*run(capsys, "design", path, "--slide", "7")[::2], 2,
             "--slide 7: the required sliding hinge [7] adds 1 mechanism (M = 0 with door hinges, 1 with it "
             "sliding): hinge 7 cannot slide")
    # out of range, 1-based: 8 and 0 do not exist, the structure has 1..7
    one_line(*run(capsys, "design", path, "--slide", "8")[::2], 2,
             "--slide 8: hinge 8 does not exist (the structure has hinges 1..7)")
    one_line(*run(capsys, "design", path, "--slide", "0")[::2], 2, "--slide 0: hinge 0 does not exist")
    one_line(*run(capsys, "design", path, "--door", "3,9")[::2], 2, "--door 3,9: hinge 9 does not exist")
    one_line(*run(capsys, "design", path, "--slide", "2,2")[::2], 2, "--slide 2,2: hinge 2 is listed twice")
    one_line(*run(capsys, "design", path, "--slide", "2", "--door", "2")[::2], 2,
             "hinge 2 cannot both stay a door hinge and slide")
    one_line(*run(capsys, "design", path, "--rotation", "3")[::2], 2, "--rotation 3: the symmetry does not map")


def test_design_slide_as_a_subprocess(tmp_path):
    """The same line and exit code from ``python -m chrono_origami``, as a user's shell sees them."""
    path = tmp_path / "strip.fold"
    path.write_text(json.dumps(strip_fold()))
    r = subprocess.run([sys.executable, "-m", "chrono_origami", "design", str(path), "--slide", "7"],
                       capture_output=True, text=True, env=ENV, timeout=300)
    one_line(r.returncode, r.stderr, 2, "--slide 7:", "hinge 7 cannot slide")


# ------------------------------------------------------------------ c. --frame on an SVG
def test_frame_class_on_an_svg_is_a_usage_error(capsys, tmp_path):
    path = jf.miura_svg(tmp_path / "miura.svg")[0]
    for frame in ("foldedForm", "3", "-2"):
        one_line(*run(capsys, "count", path, "--frame", frame, "--engine", "reference")[::2], 2,
                 f"--frame {frame}: ", "an SVG crease pattern, has one frame")
    for frame in ("0", "-1", "last", "creasePattern"):
        assert run(capsys, "count", path, "--frame", frame, "--engine", "reference")[0] == 0


# ------------------------------------------------------------------ d. counts in agreement
def test_counts_agree_with_their_numbers(capsys, tmp_path, pair):
    loose = tmp_path / "loose.fold"
    loose.write_text(json.dumps(hand_fold(with_panel2_support=False)))
    code, out, _ = run(capsys, "count", loose, "--engine", "reference")
    assert code == 0 and "M = 1 mechanism, S = 0 self-stress states (" in out
    # a second z support on panel 2 (vertex 5, beside vertex 6's) is redundant: one self-stress state
    code, out, _ = run(capsys, "count", pair, "--engine", "reference", "--support", "5:z:p2")
    assert code == 0 and "M = 0 mechanisms, S = 1 self-stress state (" in out
    code, out, err = run(capsys, "static", pair, "--engine", "reference", "--support", "5:z:p2")
    assert code == 3 and "M = 0 mechanisms, S = 1 self-stress state " in out + err
    assert "1 self-stress states" not in out + err and "1 mechanisms" not in out + err


# ------------------------------------------------------------------ e. --fix-geometry with --keep-geometry
def test_fix_and_keep_geometry_exclude_each_other(capsys, tmp_path):
    path = jf.miura_svg(tmp_path / "miura.svg")[0]
    one_line(*run(capsys, "fold", path, "--fix-geometry", "--keep-geometry", "--out", tmp_path / "F")[::2], 2,
             "--fix-geometry and --keep-geometry exclude each other")
    assert not (tmp_path / "F").exists()


# ------------------------------------------------------------------ f. the target miss: rounding or real
def test_a_miss_at_the_files_rounding_is_said_calmly_and_a_real_miss_is_not(capsys, tmp_path):
    """Origami Simulator's style: opacities to 4 decimals (target angles on a 180 x 1e-4 = 0.018 deg grid),
    coordinates to 3: at 100 % the targets miss the rigid fold by a few thousandths of a degree, which the
    rounding explains (the note says so, and by how much it can); at 50 % of the targets (a Miura-ori's creases do
    not fold in proportion) the miss is degrees, and the note keeps saying the targets are not a rigid fold."""
    import re

    path = jf.miura_svg(tmp_path / "miura.svg")[0]
    code, out, err = run(capsys, "fold", path, "--quiet", "--out", tmp_path / "F")
    assert code == 0, err
    note = next(line for line in out.splitlines() if "rigid fold" in line)
    m = re.fullmatch(r"note: the targets miss a rigid fold by (\S+) deg \((\S+) rad\) at hinge (\d+), within the "
                     r"file's rounding \(target angles to 0.018 deg, coordinates to 0.001: up to (\S+) deg\): folded "
                     r"to the nearest rigid state", note)
    assert m, note
    miss, level = float(m.group(1)), float(m.group(4))
    assert 1e-4 < miss < 0.018 and miss < level < 0.1
    assert "not a rigid fold" not in out
    code, out, err = run(capsys, "fold", path, "--quiet", "--percent", "50", "--out", tmp_path / "H")
    assert code == 0, err
    note = next(line for line in out.splitlines() if "rigid fold" in line)
    assert note.startswith("note: the targets are not a rigid fold on this branch: the fold follows its mechanism "
                           "until the projected rate vanishes")
    assert float(re.search(r"largest misses (\S+) deg", note).group(1)) > 1.0
    assert "within the file's rounding" not in out


# ------------------------------------------------------------------ g. every command, a few bad inputs each
@pytest.fixture
def files(tmp_path):
    (tmp_path / "pair.fold").write_text(json.dumps(hand_fold()))
    (tmp_path / "pair.txt").write_text(json.dumps(hand_fold()))
    (tmp_path / "sub.html").mkdir()
    typo = hand_fold()
    typo["vertices_origami:supports"] = typo.pop("vertices_origami:support")
    (tmp_path / "typo.fold").write_text(json.dumps(typo))
    (tmp_path / "square.fold").write_text(json.dumps({      # one panel, as flat-folder's 2x2 grid A1 is written
        "file_spec": 1.1, "file_title": "square", "vertices_coords": [[0, 0], [0, 1], [1, 0], [1, 1]],
        "edges_vertices": [[0, 2], [2, 3], [1, 3], [0, 1]], "edges_assignment": ["B"] * 4,
        "faces_vertices": [[0, 2, 3, 1]]}))
    return tmp_path


BAD = [
    # missing file, wrong extension
    (["count", "missing.fold"], 2, ["missing.fold: no such FOLD file"]),
    (["static", "pair.txt"], 2, ["pair.txt: expected a FOLD file (.fold or .json), an SVG crease pattern (.svg) or "
                                 "an ORIPA file (.cp, .opx), got .txt"]),
    (["check", "missing.cp"], 2, ["missing.cp: no such ORIPA file"]),
    (["check", "missing.svg"], 2, ["missing.svg: no such SVG file"]),
    # a misspelt key of the origami: namespace (a malformed file: exit 1), named with the nearest known key
    (["count", "typo.fold"], 1, ["typo.fold: vertices_origami:supports is not a key of chrono-origami's origami: "
                                 "namespace (did you mean vertices_origami:support?)"]),
    # NaN, negative
    (["static", "pair.fold", "--load", "5:nan,0,0"], 2, ["--load '5:nan,0,0': the force must be three finite"]),
    (["support", "pair.fold", "--thickness", "-1"], 2, ["argument --thickness: expected a number >= 0, got '-1'"]),
    (["dynamics", "pair.fold", "--time", "0.1", "--dt", "nan"], 2,
     ["argument --dt: must be a positive number, got 'nan'"]),
    (["dynamics", "pair.fold", "--time", "-1", "--dt", "0.01"], 2,
     ["argument --time: must be a positive number, got '-1'"]),
    (["dynamics", "pair.fold", "--time", "0.1", "--dt", "0.01", "--output-interval", "0"], 2,
     ["argument --output-interval: must be a positive number, got '0'"]),
    (["dynamics", "pair.fold", "--time", "0.1", "--dt", "0.01", "--spring", "1:-1,0"], 2,
     ["--spring '1:-1,0': crease spring on hinge 1: stiffness must be a finite non-negative number"]),
    (["tolerance", "pair.fold", "--tol", "nan"], 2, ["--tol must be a finite number >= 0, got 'nan'"]),
    # nothing to fold: said, not advice to drive a hinge it lacks
    *[(["fold", "square.fold", *more], 1, ["square: 1 panel and no hinge: nothing folds"])
      for more in ((), ("--drive", "1", "--angle-deg", "30"))],
    (["fold", "pair.fold", "--drive", "1", "--angle-deg", "nan"], 2, ["argument --angle-deg: expected a finite number, got nan"]),
    # 1-based numbers out of range
    (["count", "pair.fold", "--support", "7:xyz"], 2, ["--support '7:xyz': vertex 7 does not exist"]),
    (["fold", "pair.fold", "--drive", "2", "--angle-deg", "10"], 2, ["--drive '2': hinge 2 does not exist"]),
    (["fold", "pair.fold", "--drive", "1", "--angle-deg", "10", "--hold", "0"], 2,
     ["--hold '0': vertex 0 does not exist"]),
    (["fold", "pair.fold", "--drive", "1", "--angle-deg", "10", "--along", "9:x"], 2,
     ["--along '9:x': vertex 9 does not exist"]),
    (["fold", "pair.fold", "--drive", "1", "--angle-deg", "10", "--block", "1:q"], 2,
     ["--block '1:q': vertex 1: blocked directions must be a non-empty subset of 'xyz'"]),
    (["dynamics", "pair.fold", "--time", "0.1", "--dt", "0.01", "--motor", "2:t"], 2,
     ["--motor '2:t': hinge 2 does not exist"]),
    (["dynamics", "pair.fold", "--time", "0.1", "--dt", "0.01", "--motor", "1:t", "--motor", "1:2*t"], 2,
     ["--motor: hinge 1 has two motors"]),
    (["dynamics", "pair.fold", "--time", "0.1", "--dt", "0.01", "--motor", "1:tt"], 2,
     ["--motor '1:tt': function of time 'tt': unknown name 'tt'"]),
    (["dynamics", "pair.fold", "--time", "0.1", "--dt", "0.01", "--engine", "reference", "--integrator", "hht"], 2,
     ["--integrator 'hht': the reference engine has no integrator 'hht'"]),
    (["count", "pair.fold", "--frame", "1"], 2, ["--frame 1: pair.fold has no frame 1"]),
    # outputs the command cannot write, said before any work
    (["static", "pair.fold", "--figure", "forces.xyz"], 2, ["argument --figure: 'forces.xyz': a figure is written "
                                                            "as", "png", "not xyz"]),
    (["fold", "pair.fold", "--drive", "1", "--angle-deg", "10", "--figure", "fold"], 2,
     ["argument --figure: 'fold': a figure is written as", "not a name without extension"]),
    (["tolerance", "pair.fold", "--tol", "1e-4", "--histogram", "h.txt"], 2, ["argument --histogram"]),
    (["static", "pair.fold", "--screenshot", "view.jpg"], 2, ["argument --screenshot: expected a .png file name"]),
    *[([cmd, "pair.fold", *more, "--html", "page.png"], 2, ["argument --html: expected an .html file name, got "
                                                            "'page.png'"])
      for cmd, more in (("static", ()), ("fold", ()), ("design", ()), ("tolerance", ("--tol", "1e-4")),
                        ("dynamics", ("--time", "1", "--dt", "0.1")))],
    # --html checked before the analysis on every command that takes it (argparse's one line, exit 2)
    *[([cmd, "pair.fold", *more, "--html", html], 2, [f"argument --html: cannot write {html}: {why}"])
      for cmd, more in (("static", ("--engine", "reference")), ("fold", ("--drive", "1", "--angle-deg", "10")),
                        ("design", ()), ("tolerance", ("--tol", "1e-4")), ("modal", ()),
                        ("dynamics", ("--time", "1", "--dt", "0.1")))
      for html, why in (("pair.fold/page.html", "pair.fold is a file, not a folder"),
                        ("pair.fold/new/page.html", "pair.fold is a file, not a folder"),
                        ("sub.html", "it is a folder"))],
    (["play", "pair.fold", "--png-frames", "P", "--fps", "0"], 2, ["play: --fps must be positive"]),
    (["convert", "pair.fold", "-o", "x.fold"], 2, ["pair.fold: convert reads a drawn crease pattern (FILE.svg, "
                                                   "FILE.cp, FILE.opx)"]),
]


@pytest.mark.parametrize("argv, code, parts", BAD, ids=[" ".join(a) for a, _, _ in BAD])
def test_bad_input_is_one_line_with_its_exit_code(capsys, files, monkeypatch, argv, code, parts):
    monkeypatch.chdir(files)
    one_line(*run(capsys, *argv)[::2], code, *parts)


def test_an_existing_page_is_replaced_and_said_so(capsys, files, monkeypatch):
    monkeypatch.chdir(files)
    (files / "page.html").write_text("old")
    code, out, err = run(capsys, "static", "pair.fold", "--engine", "reference", "--html", "page.html")
    assert code == 0, err
    assert "results page written to page.html (the file that was there replaced)" in out
    assert (files / "page.html").read_text().startswith("<!DOCTYPE html>")
    code, out, err = run(capsys, "static", "pair.fold", "--engine", "reference", "--html", "new/page.html")
    assert code == 0 and "results page written to new/page.html\n" in out, err      # a missing folder is made


def test_a_modal_scene_refuses_a_negative_stiffness_and_a_mode_it_lacks(tmp_path):
    """scenes/miura_modes.py: a negative crease stiffness is refused by its option (it used to run the static
    analysis into a 'did not converge', exit 1); a mode the analysis lacks is named with the modes it has."""
    scene = [sys.executable, str(ROOT / "scenes" / "miura_modes.py")]
    r = subprocess.run(scene + ["--crease-stiffness", "-5"], capture_output=True, text=True, env=ENV, timeout=300)
    one_line(r.returncode, r.stderr, 2, "argument --crease-stiffness: expected a number >= 0, got '-5'")
    r = subprocess.run(scene + ["--thickness", "nan"], capture_output=True, text=True, env=ENV, timeout=300)
    one_line(r.returncode, r.stderr, 2, "argument --thickness: expected a number >= 0, got 'nan'")


@pytest.mark.chrono
def test_a_modal_scene_names_the_modes_it_has(tmp_path):
    pytest.importorskip("pychrono", exc_type=ImportError, reason="the modal scenes run on Chrono")
    r = subprocess.run([sys.executable, str(ROOT / "scenes" / "miura_modes.py"), "--mode", "9", "--fold",
                        str(tmp_path / "m.fold")], capture_output=True, text=True, env=ENV, timeout=300)
    one_line(r.returncode, r.stderr, 2, "--mode 9: the analysis has 1 mode (1..1)")
    assert not (tmp_path / "m.fold").exists()


# ------------------------------------------------------------------ h. Kawasaki without the flat creases
def bird_base_svg(path, flat_lines=True):
    """A crane's bird base on a 100-unit square (Origami Simulator's colours: valley diagonals but one mountain
    half, which Maekawa's condition asks at the centre, mountain centre lines and kite creases, valley flaps; the
    kite points at 50 tan(22.5 deg) from the edges, so every interior vertex is flat-foldable by symmetry) with,
    when ``flat_lines``, yellow flat lines joining the edge midpoints: they cross the diagonals and the kite
    creases, and each crossing is a vertex where a crease runs straight through (Kawasaki holds) between flat
    lines at another angle (it would not, counted)."""
    t = float(50.0 * (np.sqrt(2.0) - 1.0))
    P = {"c0": (0, 100), "c1": (100, 100), "c2": (100, 0), "c3": (0, 0), "k4": (t, 50), "k5": (50, 100 - t),
         "k6": (100 - t, 50), "k7": (50, t), "m8": (0, 50), "m9": (100, 50), "m10": (50, 100), "m11": (50, 0),
         "o": (50, 50)}
    lines = [("c0", "o", "V"), ("c2", "o", "V"), ("c1", "o", "V"), ("c3", "o", "M")]
    lines += [(k, "o", "M") for k in ("k4", "k5", "k6", "k7")]
    lines += [("c0", "k5", "M"), ("c1", "k5", "M"), ("c1", "k6", "M"), ("c2", "k6", "M"), ("c2", "k7", "M"),
              ("c3", "k7", "M"), ("c3", "k4", "M"), ("c0", "k4", "M")]
    lines += [("k4", "m8", "V"), ("k6", "m9", "V"), ("k5", "m10", "V"), ("k7", "m11", "V")]
    if flat_lines:
        lines += [("m8", "m10", "F"), ("m10", "m9", "F"), ("m9", "m11", "F"), ("m11", "m8", "F")]
    colour = {"M": "#ff0000", "V": "#0000ff", "F": "#ffff00"}
    body = ['<rect x="0" y="0" width="100" height="100" fill="none" stroke="#000000"/>']
    for a, b, letter in lines:
        (x1, y1), (x2, y2) = P[a], P[b]
        body.append(f'<line x1="{x1!r}" y1="{y1!r}" x2="{x2!r}" y2="{y2!r}" stroke="{colour[letter]}"'
                    + ('' if letter == "F" else ' opacity="0.5"') + '/>')
    path.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">\n' + "\n".join(body)
                    + "\n</svg>\n")
    return path


def kawasaki_counts(out):
    m = re.search(r"(\d+) interior vertices; Kawasaki \(alternating sum of sector angles\): (\d+) exact .*, "
                  r"(\d+) inexact .*, (\d+) not flat-foldable .*, (\d+) of odd degree", out)
    return tuple(int(x) for x in m.groups())


def test_kawasaki_leaves_out_flat_creases(capsys, tmp_path):
    """The bird base with flat "F" lines, as a faceless FOLD file read with the default --facets crease: the F
    creases are hinges (fold angle 0 at every state) but no part of Kawasaki's alternating sum, so every vertex
    is exact, as with --facets facet (where the F lines lie inside rigid faces) and as without them."""
    svg = bird_base_svg(tmp_path / "bird.svg")
    fold = tmp_path / "bird.fold"
    run(capsys, "convert", svg, "--facets", "crease", "-o", fold)
    data = json.loads(fold.read_text())                 # as a crease-pattern editor writes it: no faces
    del data["faces_vertices"]
    data.update(file_creator="a crease-pattern editor", vertices_coords=[[round(x, 9), round(y, 9)] for x, y in
                                                                          data["vertices_coords"]])
    fold.write_text(json.dumps(data))
    plain = bird_base_svg(tmp_path / "plain.svg", flat_lines=False)
    code, out, _ = run(capsys, "check", plain)
    assert code == 0 and kawasaki_counts(out) == (5, 5, 0, 0, 0)
    code, out, err = run(capsys, "check", fold)                       # FOLD: F creases are hinges (default)
    assert code == 0, err
    n = kawasaki_counts(out)[0]
    assert n == 5 + 12 and kawasaki_counts(out) == (n, n, 0, 0, 0)    # and 12 crossings, a crease straight through
    assert "Maekawa" not in out                                       # |#M - #V| = 2 without the F creases
    code, out, _ = run(capsys, "check", svg, "--facets", "facet")
    assert code == 0 and kawasaki_counts(out) == (5, 5, 0, 0, 0)
    # the F creases are hinges all the same: 12 more vertices, 16 more panels
    from chrono_origami.structure.foldfile import read_structure
    s = read_structure(fold)
    assert s.notes["fold"]["edges_assignment"].count("F") == 16 and s.pattern.n_panels == 16 + 16


# ------------------------------------------------------------------ i. design's advice and report, check's numbers
def folded_flat_miura(path):
    """A 3 x 3 Miura-ori folded flat (every crease at +-180 deg: 100 % of a flat-folding target), as the FOLD
    examples write a folded form: 3-D vertices, faces, edges, assignment, angles (journey_files' closed form)."""
    X, edges, letters, angles = jf._miura(3, 3, 80.0, 92.0, 92.0 / np.tan(np.radians(65.0)), 180.0)
    faces = jf.faces_of(X, edges)
    P, miss = jf.fold_by_angles(X, edges, angles, faces)
    assert miss < 1e-9 * 240
    path.write_text(json.dumps({"file_spec": 1.2, "frame_classes": ["foldedForm"], "vertices_coords": P.tolist(),
                                "faces_vertices": faces, "edges_vertices": [list(e) for e in edges],
                                "edges_assignment": letters,
                                "edges_foldAngle": [0.0 if a is None else a for a in angles]}))
    return path


def test_design_on_a_flat_state_says_what_could_help(capsys, tmp_path, monkeypatch):
    """Folded flat at 100 %: fold to a smaller percent, not "fold it first". A square twist that fold refuses: the
    pattern does not fold rigidly, said as check says it. A flat pattern that folds: fold it first. Without -o, the
    report's file is named with its folder; the hinge kinds' module is one that exists."""
    monkeypatch.chdir(tmp_path)
    flat = folded_flat_miura(tmp_path / "flat.fold")
    code, out, err = run(capsys, "design", flat, "--support", "auto")
    err = one_line(code, err.splitlines()[-1] + "\n", 3, "the configuration is folded flat (singular): design a "
                   "state folded part of the way (fold --percent below 100)")
    assert "fold it first" not in out + err and "folding to a smaller percent (fold --percent P, P below 100)" in out
    assert f"written to flat-design.txt in the current folder ({tmp_path})" in out
    assert (tmp_path / "flat-design.txt").exists()
    twist = jf.square_twist_svg(tmp_path / "twist.svg")[0]
    _, check_out, _ = run(capsys, "check", twist)
    refusal = next(x for x in check_out.splitlines() if ": not rigidly foldable: " in x)
    code, out, err = run(capsys, "design", twist, "--support", "auto")
    one_line(code, err.splitlines()[-1] + "\n", 3, f"the pattern does not fold rigidly ({refusal})")
    assert "fold it first" not in out + err and "registered in chrono_origami/structure/hinges.py" in out
    assert (ROOT / "chrono_origami" / "structure" / "hinges.py").exists()
    strip = jf.miura_svg(tmp_path / "strip.svg", digits=6)[0]
    code, out, err = run(capsys, "design", strip, "--support", "auto")
    one_line(code, err.splitlines()[-1] + "\n", 3, "the configuration is flat (singular): fold it first (fold "
             "--percent P), then design the folded state")


def test_check_names_no_nan_and_claims_no_closure_without_flat_foldable_vertices(capsys, tmp_path):
    """A quadrilateral mesh of degree-4 vertices none of which is flat-foldable (a Miura-ori's interior vertices
    moved by up to 4 %): no multiplier closure is claimed, closing or not (it is a property of flat-foldable
    vertices). A Miura-ori whose one vertex has four mountains (no folding branch with these signs): its panels
    are named with the reason, never "nan"."""
    X, edges, letters, angles = jf.miura_flat(5, 4)
    degree = np.bincount(np.ravel(edges))
    inner = [v for v in range(len(X)) if degree[v] == 4]
    assert len(inner) == 12
    Y = X.copy()
    Y[inner] += np.random.default_rng(1).uniform(-4.0, 4.0, (len(inner), 2))
    base = {"file_spec": 1.2, "file_creator": "a crease-pattern editor", "edges_vertices": [list(e) for e in edges]}
    generic = tmp_path / "generic.fold"
    generic.write_text(json.dumps({**base, "vertices_coords": Y.tolist(), "edges_assignment": letters}))
    code, out, err = run(capsys, "check", generic)
    assert code == 0, err
    assert kawasaki_counts(out) == (12, 0, 0, 12, 0)
    assert "multipliers" not in out and "close" not in out and "rigidly foldable" not in out
    four = list(letters)
    for k, (a, b) in enumerate(edges):
        if inner[0] in (a, b):
            four[k] = "M"
    mountains = tmp_path / "mountains.fold"
    mountains.write_text(json.dumps({**base, "vertices_coords": X.tolist(), "edges_assignment": four}))
    code, out, err = run(capsys, "check", mountains)
    assert code == 1 and "nan" not in out.lower()
    line = next(x for x in out.splitlines() if x.startswith("rigid foldability"))
    assert re.search(r"worst panels \d+ \(a corner has no folding branch with its mountain-valley signs\)", line)
    assert "a corner has no folding branch with its mountain-valley signs" in \
        next(x for x in out.splitlines() if ": not rigidly foldable: " in x)


# ------------------------------------------------------------------ j. the output contract: self_stress.csv
def test_static_writes_a_long_self_stress_basis_to_the_file_on_either_path(capsys, tmp_path):
    """A folded 4 x 4 Miura-ori, all door hinges, under the proposed support: S = 31 > 20. On the sparse path as on
    the dense one, self_stress.csv holds a basis (31 states, both sides of every hinge), the screen one line; the
    two files span the same space (each state of one is a combination of the other's to round-off)."""
    from chrono_origami.patterns import miura
    from chrono_origami.structure.foldfile import write_fold
    from chrono_origami.structure.structure import Structure

    path = tmp_path / "sheet.fold"
    write_fold(Structure(miura.miura_pattern(4, 4, 60.0, 30.0), name="sheet"), path)
    bases = {}
    for linalg in ("sparse", "dense"):
        out_dir = tmp_path / linalg
        code, out, err = run(capsys, "static", path, "--support", "auto", "--linalg", linalg, "--engine",
                             "reference", "--out", out_dir)
        assert code == 3 and json.loads((out_dir / "counts.json").read_text())["S"] == 31
        assert f"the 31 self-stress states (a basis, arbitrary scale; more than 20, not listed one by one): all " \
               f"1,488 rows in {out_dir / 'self_stress.csv'}" in out
        assert "self-stress state 1 (" not in out
        with open(out_dir / "self_stress.csv") as f:
            rows = [r for r in csv.reader(f)][1:]
        states = sorted({int(r[0]) for r in rows})
        assert states == list(range(1, 32)) and len(rows) == 31 * 2 * 24
        B = np.array([[float(x) for x in r[3:]] for r in rows]).reshape(31, -1)
        bases[linalg] = B
        s = np.linalg.svd(B, compute_uv=False)
        assert s[-1] > 1e-8 * s[0]                      # 31 independent states
    A, B = bases["sparse"], bases["dense"]
    Q = np.linalg.qr(B.T)[0]
    residual = A.T - Q @ (Q.T @ A.T)
    assert np.linalg.norm(residual) <= 1e-9 * np.linalg.norm(A)
    code, out, err = run(capsys, "static", path, "--support", "auto", "--linalg", "sparse", "--engine", "reference")
    assert "the 31 self-stress states are not listed one by one (more than 20): --out DIR writes a basis of them " \
           "to self_stress.csv" in out
