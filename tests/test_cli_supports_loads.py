"""Supports and loads through the command line (--support, --load, --self-weight), on other tools' files.

Files made here as other tools write them, none by our writer: an Origami Simulator FOLD export of the flat square
twist (sheet in the y = 0 plane, coordinates rounded to 3 decimals, null fold angles, reversed face loops), a
crease-pattern editor's faceless flat Miura sheet (2-D coordinates rounded to 4 decimals, edges only), a folded
Kresling tower as the FOLD examples write a folded form (vertices and faces only, coordinates rounded to 1e-4),
and the hand-checked hinged pair of test_cli.py with its supports and loads removed.

Numbers: the hinged pair's hand statics (test_cli.py) reproduced from --support/--load; its self-weight
(2 panels of area 1, thickness 0.01, density 1000, g = 9.81: 196.2 carried by the supports); the square twist's
M = 4, S = 16 at flat and the Kresling tower's M = 0, S = 9 with all door hinges under the proposed support, then
isostatic after design, its reactions balancing the loads.
"""
import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from chrono_origami import cli
from chrono_origami.patterns import kresling, miura, simple

from cli_inprocess import run_cli
from test_cli import HINGES, SUPPORTS, check_outputs, close, hand_fold, read_csv

ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
OS_CREATOR = "Origami Simulator: http://git.amandaghassaei.com/OrigamiSimulator/"


def run(*args, cwd=None, typed=False):
    """``python -m chrono_origami ARGS`` in ``cwd`` (default the repository): ``cli.main`` in this process, or a
    subprocess as a user types it when ``typed`` (``cli_inprocess.run_cli``: the manual's block; the
    ``design && static`` chain is a shell line)."""
    return run_cli(cwd or ROOT, *args, typed=typed, timeout=600)


def write(path, d):
    path.write_text(json.dumps(d))
    return path


def edges_of(panels):
    out = []
    for loop in panels:
        for a, b in zip(loop, list(loop[1:]) + [loop[0]]):
            e = [min(a, b), max(a, b)]
            if e not in out:
                out.append(e)
    return out


def simulator_square_twist(tmp_path):
    """Origami Simulator's export of the flat square twist (js/saveFOLD.js style)."""
    pat = simple.square_twist()
    X = pat.vertices
    edges = edges_of(pat.panels)
    border = [len(pat.edge_panels[tuple(e)]) == 1 for e in edges]
    return write(tmp_path / "squareTwist.fold", {
        "file_spec": 1.1, "file_creator": OS_CREATOR, "file_classes": ["singleModel"],
        "frame_title": "squareTwist", "frame_classes": ["foldedForm"], "frame_attributes": ["3D"],
        "vertices_coords": [[round(float(x), 3), 0.0, round(float(y), 3)] for x, y, _ in X],
        "edges_vertices": edges, "edges_assignment": ["B" if b else "V" for b in border],
        "edges_foldAngle": [None if b else 90.0 for b in border],
        "faces_vertices": [list(reversed(loop)) for loop in pat.panels]})


def editor_flat_miura(tmp_path, n=4):
    """A crease-pattern editor's flat n x n Miura sheet: 2-D coordinates, edges and assignments, no faces."""
    pat = miura.miura_pattern(n, n, 60.0, 0.0)
    edges = [list(e) for e in pat.edges]
    return write(tmp_path / "miura.fold", {
        "file_spec": 1.2, "file_creator": "a crease-pattern editor",
        "vertices_coords": [[round(float(x), 4), round(float(y), 4)] for x, y, _ in pat.vertices],
        "edges_vertices": edges,
        "edges_assignment": ["B" if len(pat.edge_panels[tuple(e)]) == 1 else "M" for e in edges]})


def folded_kresling_tower(tmp_path):
    """A folded form as the FOLD examples write one: vertices (rounded) and faces only."""
    pat = kresling.kresling_tower(2, door_module=None).pattern
    return write(tmp_path / "tower.fold", {
        "file_spec": 1.2, "frame_classes": ["foldedForm"],
        "vertices_coords": [[round(float(c), 4) for c in x] for x in pat.vertices],
        "faces_vertices": [list(loop) for loop in pat.panels]})


def bare_pair(tmp_path):
    d = hand_fold()
    del d["vertices_origami:support"], d["vertices_origami:load"]
    return write(tmp_path / "pair.fold", d)


# ------------------------------------------------------------------ the hand-checked pair
PAIR_SUPPORTS = ["--support", "1:xyz", "--support", "2:z", "--support", "4:xz", "--support", "6:z:p2"]


def test_supports_and_loads_from_the_command_line_give_the_hand_statics(tmp_path, capsys):
    out = tmp_path / "out"
    code = cli.main(["static", str(bare_pair(tmp_path)), "--engine", "reference", "--out", str(out), *PAIR_SUPPORTS,
                     "--load", "5:1,2,-4:p2"])
    assert code == 0
    check_outputs(out)            # test_cli's hand values: hinge actions and the four reactions, to 1e-12
    text = capsys.readouterr().out
    assert ("supports: 4 (7 held directions; 4 from --support), 1-based as in supports.csv:\n"
            "  panel  vertex  held  from\n"
            "      1       1  xyz   --support\n"
            "      1       2  z     --support\n"
            "      1       4  xz    --support\n"
            "      2       6  z     --support\n") in text
    assert "loads: 1 point force (1 from --load), global frame:" in text
    assert "      2       5   1   2  -4  --load" in text


def test_the_command_line_adds_to_the_file_or_replaces_it(tmp_path, capsys):
    path = write(tmp_path / "pair.fold", hand_fold())
    # the file's supports and load, and the same again from the command line: vertex 1 held twice in x
    assert cli.main(["count", str(path), "--engine", "reference", "--support", "1:x"]) == 2
    assert capsys.readouterr().err == ("error: --support '1:x': vertex 1 is supported twice in direction x\n")
    # --replace-supports: the command line's instead of the file's (the same ones: the same answer)
    out = tmp_path / "out"
    assert cli.main(["static", str(path), "--engine", "reference", "--out", str(out), "--replace-supports",
                     *PAIR_SUPPORTS]) == 0
    check_outputs(out)
    assert "--replace-supports: the structure's 4 supports dropped\n" in capsys.readouterr().out
    # an added load doubles the file's: every action doubles (linear statics)
    out2 = tmp_path / "out2"
    assert cli.main(["static", str(path), "--engine", "reference", "--out", str(out2), "--load", "5:1,2,-4:p2"]) == 0
    text = capsys.readouterr().out
    assert "loads: 2 point forces (1 from file, 1 from --load)" in text
    assert "--load adds to the structure's 1 load (--replace-loads drops it)\n" in text
    _, rows = read_csv(out2 / "hinges.csv")
    for r in rows:
        assert all(close(x, 2 * e) for x, e in zip(r[2:], HINGES[(int(r[0]), int(r[1]))]))
    # --replace-loads with nothing: no load, zero actions
    assert cli.main(["static", str(path), "--engine", "reference", "--out", str(out2), "--replace-loads"]) == 0
    assert "loads: none" in capsys.readouterr().out
    _, rows = read_csv(out2 / "supports.csv")
    assert np.abs(np.array(rows)[:, 2:]).max() == 0.0


def test_self_weight_is_carried_by_the_supports(tmp_path, capsys):
    """2 unit squares, thickness 0.01, density 1000, g = 9.81 along -z: the supports carry 196.2 upwards."""
    out = tmp_path / "out"
    assert cli.main(["static", str(bare_pair(tmp_path)), "--engine", "reference", "--out", str(out),
                     *PAIR_SUPPORTS, "--self-weight", "--thickness", "0.01", "--density", "1000"]) == 0
    text = capsys.readouterr().out
    assert ("self-weight: gravity (0, 0, -9.81), density 1000, thickness 0.01: total mass 20, weight 196.2 at the "
            "panel centroids") in text
    _, rows = read_csv(out / "supports.csv")
    R = np.array(rows)[:, 2:].sum(axis=0)
    np.testing.assert_allclose(R, [0.0, 0.0, 2 * 0.01 * 1000 * 9.81], atol=1e-9)
    # the pair's reactions by hand: panel 2 (weight 98.1 at x = 1.5) hangs on the hinge (x = 1) and vertex 6
    # (x = 2): 49.05 each; panel 1 carries its own 98.1 and the hinge's 49.05
    by_vertex = {int(r[1]): r[2:] for r in rows}
    assert close(by_vertex[6][2], 49.05)


BAD = [
    (["--support", "1:xyz:p2"], "error: --support '1:xyz:p2': vertex 1 is not a vertex of panel 2 (its panels: 1)\n"),
    (["--load", "5:nan,0,-1"], "error: --load '5:nan,0,-1': the force must be three finite numbers, got 'nan' in "
                               "'nan,0,-1'\n"),
    (["--support", "lowst:z"], "error: --support 'lowst:z': unknown selector 'lowst': expected vertex numbers "),
    (["--support", "x=7:z"], "error: --support 'x=7:z': selector 'x=7' selects no vertex (the vertices span x 0 .. 2, "
                             "y 0 .. 1, z 0 .. 0)\n"),
    (["--support", "9:z"], "error: --support '9:z': vertex 9 does not exist: vertex numbers are 1-based, 1..6\n"),
    (["--load", "2:1,2"], "error: --load '2:1,2': the force must be three numbers FX,FY,FZ, got '1,2'\n"),
    (["--self-weight"], "error: --self-weight: every panel has zero thickness (give a thickness: "
                        "faces_origami:thickness in the file, or --thickness)\n"),
]


@pytest.mark.parametrize("argv, message", BAD, ids=["not-on-panel", "nan", "selector", "empty", "vertex", "force",
                                                    "weightless"])
def test_bad_values_are_one_line_and_exit_2(tmp_path, argv, message):
    path = bare_pair(tmp_path)
    d = json.loads(path.read_text())
    if argv == ["--self-weight"]:
        del d["faces_origami:thickness"]
        write(path, d)
    r = run("static", path, "--engine", "reference", *argv)
    assert r.returncode == 2, r.stderr
    assert r.stderr.startswith(message) and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


def test_the_manuals_bad_values_print_what_it_quotes(tmp_path):
    """The manual's "Supports and loads" block, run as written on the bare pair (pair.fold: vertex 1 on panel 1
    only): each command is one line naming the value, exit 2."""
    from readme_blocks import assert_quoted_lines_printed, code_block

    bare_pair(tmp_path)
    steps = code_block("Supports and loads")
    assert len(steps) == 2
    for command, quoted in steps:
        assert command.startswith("chrono-origami static pair.fold ")
        r = run(*command.split()[1:], cwd=tmp_path, typed=True)
        assert r.returncode == 2, (command, r.stderr)
        assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
        assert_quoted_lines_printed(command, quoted, r.stdout + r.stderr)


def test_bad_option_syntax_is_argparse_exit_2(tmp_path):
    r = run("count", bare_pair(tmp_path), "--gravity", "0,nan,1")
    assert r.returncode == 2 and "--gravity: expected three finite numbers a,b,c, got '0,nan,1'" in r.stderr


# ------------------------------------------------------------------ other tools' files
def test_origami_simulator_square_twist_support_proposal(tmp_path):
    path = simulator_square_twist(tmp_path)
    r = run("support", path, "--engine", "reference")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "supports: none (free structure" in out
    assert "held directions, the fewest that stop the six rigid-body motions" in out
    assert "with it: M = 4 mechanisms, S = 16 self-stress states" in out
    assert "it does not stop the 4 mechanisms" in out
    assert sum(line.startswith("  mechanism ") and "move most" in line for line in out.splitlines()) == 4
    # accepted with one flag on count: the same counts, the proposal printed with its origin
    r = run("count", path, "--engine", "reference", "--support", "auto")
    assert r.returncode == 0, r.stderr
    assert "--support auto: " in r.stdout and "3 proposed" in r.stdout
    assert "M = 4 mechanisms, S = 16 self-stress states" in r.stdout
    # static stops there: not determined, the mechanisms named, exit 3
    r = run("static", path, "--engine", "reference", "--support", "auto", "--load", "max-z:0,0,-1")
    assert r.returncode == 3, r.stderr
    assert "the static problem is not determined (M = 4, S = 16)" in r.stdout


def test_faceless_editor_miura_sheet_min_norm_csv_is_labelled(tmp_path):
    """The flat sheet under the proposed support and a load in its plane: --min-norm --out writes both CSV files
    with the label line first, and counts.json says minimum-norm."""
    path = editor_flat_miura(tmp_path)
    out = tmp_path / "out"
    r = run("static", path, "--engine", "reference", "--support", "auto", "--load", "max-x:1,0,0", "--out", out)
    assert r.returncode == 3 and not (out / "hinges.csv").exists()
    assert json.loads((out / "counts.json").read_text())["status"] == "not determined"
    r = run("static", path, "--engine", "reference", "--support", "auto", "--load", "max-x:1,0,0", "--min-norm",
            "--out", out)
    assert r.returncode == 0, r.stderr
    counts = json.loads((out / "counts.json").read_text())
    assert counts["status"] == "minimum-norm" and (counts["M"], counts["S"]) == (6, 36)
    for name in ("hinges.csv", "supports.csv"):
        lines = (out / name).read_text().splitlines()
        assert lines[0] == ("# minimum-norm answer, NOT determined (M = 6, S = 36): one particular solution of "
                            "equilibrium; any combination of the 36 self-stress states (self_stress.csv) may be "
                            "added. counts.json: status minimum-norm")
        with open(out / name) as f:             # a plain CSV reader cannot take it for numbers
            first = next(csv.reader(f))
        with pytest.raises(ValueError):
            [float(x) for x in first]
    assert "hold the minimum-norm answer" in r.stdout


def test_design_exit_3_summary_and_full_report(tmp_path):
    """A flat 10 x 10 Miura sheet: design prints a summary (no 30 KB of hinge lists), writes the full report, says
    why (flat and, all its creases mountains, not rigidly foldable; no axial component) and exits 3, so
    design && static stops."""
    path = editor_flat_miura(tmp_path, 10)
    r = subprocess.run(f"{sys.executable} -m chrono_origami design {path} -o designed.fold && "
                       f"{sys.executable} -m chrono_origami static designed.fold > static.txt",
                       shell=True, cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=600)
    assert r.returncode == 3
    assert not (tmp_path / "static.txt").exists()          # the chain stopped at design
    assert (tmp_path / "designed.fold").exists()           # the best it could do is written all the same
    assert len(r.stdout) < 8000
    assert r.stderr.count("\n") == 1 and r.stderr.startswith(
        "error: miura: not isostatic after design: S = 162 remain after design: no axial component on hinges 1-180 "
        "(180 in all)")
    assert "M = 18 mechanisms remain" in r.stderr    # every crease a mountain: no rigid fold, said as check says it
    assert "the configuration is flat (singular), and the pattern does not fold rigidly (miura: not rigidly " \
           "foldable: " in r.stderr and "fold it first" not in r.stderr
    report = (tmp_path / "designed-design.txt").read_text()
    assert len(report) > 3 * len(r.stdout)
    assert f"the full report ({report.count(chr(10))} lines" in r.stdout
    assert "irremovable states 1-162: hinges [1, 2, 3," in report          # every hinge number, in full
    assert "what could help: 162 of them load only components that no sliding hinge frees" in r.stdout


def test_journey_folded_tower_proposal_design_static(tmp_path):
    """A folded Kresling tower (FOLD example style, all door hinges): count with the proposed support (M = 0,
    S = 9), design it isostatic (exit 0), then static: hinge forces, the reactions balance the loads."""
    path = folded_kresling_tower(tmp_path)
    r = run("count", path, "--engine", "reference", "--support", "auto")
    assert r.returncode == 0 and "M = 0 mechanisms, S = 9 self-stress states" in r.stdout
    designed = tmp_path / "designed.fold"
    r = run("design", path, "--support", "auto", "-o", designed)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "after: M = 0, S = 0" in r.stdout
    out = tmp_path / "out"
    r = run("static", designed, "--engine", "reference", "--load", "max-z:0,0,-1", "--out", out, "--figure",
            tmp_path / "f.png")
    assert r.returncode == 0, r.stderr
    assert "3 from file" in r.stdout and "3 from --load" in r.stdout     # the proposal kept in the designed file
    assert json.loads((out / "counts.json").read_text())["status"] == "determined"
    _, rows = read_csv(out / "supports.csv")
    rows = np.array(rows)
    np.testing.assert_allclose(rows[:, 2:].sum(axis=0), [0.0, 0.0, 3.0], atol=1e-9)
    # moments about the origin balance too: reactions at their vertices, -1 along z at the three top vertices
    from chrono_origami.structure.foldfile import read_structure

    X = read_structure(designed).pattern.vertices
    top = np.nonzero(X[:, 2] > X[:, 2].max() - 1e-6)[0]
    moment = sum(np.cross(X[int(v) - 1], f) for v, f in zip(rows[:, 1], rows[:, 2:]))
    moment += sum(np.cross(X[v], [0.0, 0.0, -1.0]) for v in top)
    assert len(top) == 3 and np.abs(moment).max() < 1e-8 * np.abs(X).max()
    header, _ = read_csv(out / "hinges.csv")
    assert header[0] == "hinge"                                           # a determined answer: no label line
    assert "hinges coloured by force resultant |F|, viridis from 0 to" in r.stdout
    assert (tmp_path / "f.png").stat().st_size > 10000


def test_count_and_design_print_what_they_use(tmp_path, capsys):
    path = write(tmp_path / "pair.fold", hand_fold())
    for argv in (["count", str(path), "--engine", "reference"], ["design", str(path)]):
        cli.main(argv)
        text = capsys.readouterr().out
        assert "supports: 4 (7 held directions; 4 from file), 1-based as in supports.csv:" in text
        assert "      2       6  z     file" in text
        assert "loads: 1 point force (1 from file), global frame:" in text


def test_support_writes_the_supported_file(tmp_path):
    """support -o: the structure with the proposal, read back with the proposal as the file's supports."""
    from chrono_origami.structure.foldfile import read_structure

    path = simulator_square_twist(tmp_path)
    out = tmp_path / "supported.fold"
    r = run("support", path, "--engine", "reference", "-o", out)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines.index(f"written to {out}") < lines.index("with it: M = 4 mechanisms, S = 16 self-stress states")
    st = read_structure(out)
    assert sum(len(s.dofs) for s in st.supports) == 6 and st.origins("supports") == ("file",) * 3
    r = run("count", out, "--engine", "reference", "--support", "auto")
    assert "its supports already stop the six rigid-body motions: no support proposed" in r.stdout


@pytest.mark.chrono
def test_chrono_engine_takes_the_command_line_supports_and_loads(tmp_path):
    """The hand statics of the pair from --support/--load in a Chrono system (its residual checks: 1e-9)."""
    out = tmp_path / "out"
    r = run("static", bare_pair(tmp_path), "--engine", "chrono", "--out", out, *PAIR_SUPPORTS, "--load", "5:1,2,-4:p2")
    assert r.returncode == 0, r.stderr
    _, rows = read_csv(out / "hinges.csv")
    for row in rows:
        np.testing.assert_allclose(row[2:], HINGES[(int(row[0]), int(row[1]))], atol=1e-8)
    _, rows = read_csv(out / "supports.csv")
    for row, expect in zip(rows, SUPPORTS):
        assert row[:2] == list(expect[:2])
        np.testing.assert_allclose(row[2:], expect[2:], atol=1e-8)
