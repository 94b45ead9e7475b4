"""The command line on a hand-checkable FOLD structure, in-process and as a subprocess.

Structure: squares 1 (x in [0, 1]) and 2 (x in [1, 2]) in z = 0 joined by a door
hinge along x = 1. Panel 1 is clamped by 6 support constraints (vertex 1 xyz,
vertex 4 xz, vertex 2 z), panel 2 is held at vertex 6 = (2, 1, 0) in z, and
vertex 5 = (2, 0, 0) of panel 2 carries F = (1, 2, -4). 12 velocities, 12
constraints: isostatic.

Hand statics of panel 2 (moments about the hinge midpoint c = (1, 0.5, 0)):
moment about the hinge axis gives the support reaction R = -Fz = 4; the hinge
then applies to panel 2 the force (-Fx, -Fy, 0) and the moment
(Fz, 0, -Fy - Fx/2). In panel 2's frame (t = -y as its loop runs the edge,
m = +z, n = t x m = -x): MT = -Fz = 4, MP = 0, MO = -(Fy + Fx/2) = -2.5,
N = Fx = 1, TP = Fy = 2, TO = 0. Panel 1 (t = +y, n = +x) receives the
opposite action: MT = 4, MP = 0, MO = 2.5, N = 1, TP = 2, TO = 0.
Panel 1's supports balance that action: vertex 1 (-Fx - 2Fy, -Fy, -Fz),
vertex 4 (2Fy, 0, Fz), vertex 2 (0, 0, 0).
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from chrono_origami import cli
from chrono_origami.structure.foldfile import write_fold
from cli_output import without_engine_note

ROOT = Path(__file__).resolve().parents[1]
#: subprocesses import this checkout's code, installed or not
ENV = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
F = (1.0, 2.0, -4.0)
HINGES = {(1, 1): (4.0, 0.0, 2.5, 1.0, 2.0, 0.0), (1, 2): (4.0, 0.0, -2.5, 1.0, 2.0, 0.0)}
SUPPORTS = [(1, 1, -5.0, -2.0, 4.0), (1, 2, 0.0, 0.0, 0.0), (1, 4, 4.0, 0.0, -4.0), (2, 6, 0.0, 0.0, 4.0)]
#: the CSV files keep every digit: the hand values are met to round-off
CSV_RTOL = 1e-12
CSV_ATOL = 1e-12


def hand_fold(with_panel2_support=True):
    support = [None] * 6
    support[0] = {"dofs": "xyz", "panel": 0}
    support[3] = {"dofs": "xz", "panel": 0}
    support[1] = {"dofs": "z", "panel": 0}
    if with_panel2_support:
        support[5] = {"dofs": "z", "panel": 1}
    load = [None] * 6
    load[4] = {"force": list(F), "panel": 1}
    return {
        "file_spec": 1.2,
        "file_title": "hinged pair",
        "vertices_coords": [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [2, 0, 0], [2, 1, 0]],
        "faces_vertices": [[0, 1, 2, 3], [1, 4, 5, 2]],
        "edges_vertices": [[0, 1], [1, 2], [2, 3], [3, 0], [1, 4], [4, 5], [5, 2]],
        "edges_assignment": ["B", "F", "B", "B", "B", "B", "B"],
        "edges_origami:hinge": [None, "door", None, None, None, None, None],
        "faces_origami:thickness": [0.01, 0.01],
        "vertices_origami:support": support,
        "vertices_origami:load": load,
    }


@pytest.fixture
def fold_file(tmp_path):
    path = tmp_path / "pair.fold"
    path.write_text(json.dumps(hand_fold(), indent=1))
    return path


def read_csv(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    return rows[0], [[float(x) for x in r] for r in rows[1:]]


def close(a, b):
    return abs(a - b) <= CSV_ATOL + CSV_RTOL * abs(b)


def check_outputs(out):
    header, rows = read_csv(out / "hinges.csv")
    assert header == ["hinge", "panel", "MT", "MP", "MO", "N", "TP", "TO"]
    assert {(int(r[0]), int(r[1])) for r in rows} == set(HINGES)
    for r in rows:
        expect = HINGES[(int(r[0]), int(r[1]))]
        assert all(close(x, e) for x, e in zip(r[2:], expect)), (r, expect)
    header, rows = read_csv(out / "supports.csv")
    assert header == ["panel", "vertex", "Fx", "Fy", "Fz"]
    assert len(rows) == len(SUPPORTS)
    for r, e in zip(rows, SUPPORTS):
        assert r[:2] == list(e[:2]) and all(close(x, y) for x, y in zip(r[2:], e[2:])), (r, e)
    counts = json.loads((out / "counts.json").read_text())
    expect = dict(M=0, S=0, P=2, H=1, E_b=6, V_i=0, M_BF=1, S_BF=0, S_PH=0, maxwell_M_minus_S=0)
    assert {k: counts[k] for k in expect} == expect


# -------------------------------------------------------------------- in-process
def test_static_in_process(fold_file, tmp_path, capsys):
    out = tmp_path / "out"
    assert cli.main(["static", str(fold_file), "--engine", "reference", "--out", str(out)]) == 0
    check_outputs(out)
    text = capsys.readouterr().out
    assert "hinged pair" in text and "M = 0 mechanisms, S = 0 self-stress states" in text


@pytest.mark.parametrize("engine", ["reference", pytest.param("chrono", marks=pytest.mark.chrono)])
def test_static_counts_once(fold_file, tmp_path, capsys, monkeypatch, engine):
    """The static command's count (printed) is the one its solve uses: the operator is ranked once, not again
    inside the solve (15 s of the 10^5-panel strip's command). Same answer as before: check_outputs."""
    from chrono_origami.engines import compatibility as operator

    calls = []
    real = operator.count
    monkeypatch.setattr(operator, "count", lambda *a, **k: calls.append(1) or real(*a, **k))
    out = tmp_path / "out"
    assert cli.main(["static", str(fold_file), "--engine", engine, "--out", str(out)]) == 0
    check_outputs(out)
    assert len(calls) == 1


def test_count_in_process(fold_file, tmp_path, capsys):
    assert cli.main(["count", str(fold_file), "--engine", "reference", "--out", str(tmp_path / "c")]) == 0
    text = capsys.readouterr().out
    assert "M = 0 mechanisms, S = 0 self-stress states" in text and ": isostatic" in text
    assert "M_BF = 1, S_BF = 0" in text
    assert "  Maxwell: 6P - sum(rows) = M - S: 6 x 2 - (5 x 1 door + 7 support) = 0 = 0 - 0\n" in text
    assert json.loads((tmp_path / "c" / "counts.json").read_text())["M"] == 0


def test_count_finds_the_hinge_mechanism(tmp_path, capsys):
    """Without the support of panel 2 it turns about the hinge: M = 1, Maxwell 12 - 5 - 6 = 1."""
    path = tmp_path / "loose.fold"
    path.write_text(json.dumps(hand_fold(with_panel2_support=False)))
    assert cli.main(["count", str(path), "--engine", "reference"]) == 0
    text = capsys.readouterr().out
    assert "M = 1 mechanism, S = 0 self-stress states" in text and "isostatic" not in text
    assert "  Maxwell: 6P - sum(rows) = M - S: 6 x 2 - (5 x 1 door + 6 support) = 1 = 1 - 0\n" in text


def test_count_prints_maxwell_with_every_hinge_kind(tmp_path, capsys):
    """The Maxwell line sums the rows of each kind present (hinges.census): joined 6, door 5, sliding 4."""
    from chrono_origami.patterns import miura
    from test_joined import three_panels

    write_fold(three_panels(), tmp_path / "joined.fold")
    assert cli.main(["count", str(tmp_path / "joined.fold"), "--engine", "reference"]) == 0
    assert "  Maxwell: 6P - sum(rows) = M - S: 6 x 3 - (5 x 1 door + 6 x 1 joined + 7 support) = 0 = 0 - 0\n" \
        in capsys.readouterr().out
    strip = miura.miura_strip(5)      # 14 panels, 1 door and 18 sliding hinges, no supports: M = 1 (paper Fig. 5)
    write_fold(strip, tmp_path / "strip.fold")
    assert cli.main(["count", str(tmp_path / "strip.fold"), "--engine", "reference"]) == 0
    assert 6 * 14 - 6 - 5 - 4 * 18 == 1
    assert ("  Maxwell: 6P - 6 - sum(rows) = M - S: 6 x 14 - 6 - (5 x 1 door + 4 x 18 sliding) = 1 = 1 - 0\n"
            in capsys.readouterr().out)


def test_malformed_file_in_process(tmp_path, capsys):
    d = hand_fold()
    d["vertices_origami:support"][0]["dofs"] = "xw"
    path = tmp_path / "bad.fold"
    path.write_text(json.dumps(d))
    assert cli.main(["static", str(path), "--engine", "reference"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1
    assert "vertices_origami:support[0].dofs must be a non-empty subset of" in err


def test_missing_file_and_bad_arguments(tmp_path, capsys):
    assert cli.main(["count", str(tmp_path / "none.fold")]) == 2
    assert "no such FOLD file" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        cli.main(["static"])
    assert e.value.code == 2
    with pytest.raises(SystemExit) as e:
        cli.main(["unknown-command", "x.fold"])
    assert e.value.code == 2


# -------------------------------------------------------------------- subprocess
def run(*args):
    return subprocess.run([sys.executable, "-m", "chrono_origami", *args], cwd=ROOT, env=ENV,
                          capture_output=True, text=True)


def test_static_subprocess(fold_file, tmp_path):
    out = tmp_path / "sub"
    p = run("static", str(fold_file), "--engine", "reference", "--out", str(out))
    assert p.returncode == 0, p.stderr
    check_outputs(out)
    assert "hinge internal actions" in p.stdout


@pytest.mark.parametrize("text, code, message", [
    (json.dumps({**hand_fold(), "edges_origami:hinge": [None, "hinge", None, None, None, None, None]}), 1,
     "edges_origami:hinge[1] is \"hinge\"; expected 'door', 'sliding', 'joined', 'spherical' or null"),
    ('{"vertices_coords": [[0, 0, 0]],,}', 1, "not valid JSON"),
    (None, 2, "no such FOLD file"),
])
def test_bad_file_subprocess(tmp_path, text, code, message):
    path = tmp_path / "bad.fold"
    if text is not None:
        path.write_text(text)
    for cmd in ("static", "count"):
        p = run(cmd, str(path), "--engine", "reference")
        assert p.returncode == code
        assert "Traceback" not in p.stderr
        assert p.stderr.startswith("error: ") and p.stderr.count("\n") == 1, p.stderr
        assert message in p.stderr
        assert p.stdout == ""


def test_console_script_points_at_main():
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    module, func = scripts["chrono-origami"].split(":")
    assert (module, func) == ("chrono_origami.cli", "main") and callable(cli.main)


# -------------------------------------------------------------------- outputs that cannot be written
@pytest.mark.parametrize("argv", [["static", "{f}", "--engine", "reference", "--out", "{bad}"],
                                  ["count", "{f}", "--engine", "reference", "--out", "{bad}"],
                                  ["design", "{f}", "-o", "{bad}/designed.fold"]])
def test_unwritable_output_is_a_one_line_error(fold_file, tmp_path, capsys, argv):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    bad = str(blocker / "out")          # a folder inside a regular file cannot be made
    code = cli.main([a.format(f=fold_file, bad=bad) for a in argv])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("error: cannot write") and "a_file" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_tower_scene_names_a_bad_module_count():
    p = subprocess.run([sys.executable, str(ROOT / "scenes" / "kresling_tower.py"), "--modules", "0",
                        "--engine", "reference"], capture_output=True, text=True, cwd=ROOT, env=ENV)
    assert p.returncode == 2
    assert "--modules must be an integer >= 1, got 0" in p.stderr and "Traceback" not in p.stderr


# -------------------------------------------------------------------- statics that is not determined
def test_indeterminate_static_has_its_own_exit_code(tmp_path, capsys):
    """M = 1 (panel 2 turns about the hinge): counts printed and written, no hinges.csv, exit 3; --min-norm exits 0."""
    path = tmp_path / "loose.fold"
    path.write_text(json.dumps(hand_fold(with_panel2_support=False)))
    out = tmp_path / "out"
    assert cli.main(["static", str(path), "--engine", "reference", "--out", str(out)]) == cli.EXIT_INDETERMINATE == 3
    std = capsys.readouterr()
    assert "M = 1 mechanism, S = 0 self-stress states" in std.out and "mechanism 1: panels [2]" in std.out
    assert std.err.count("\n") == 1 and std.err.startswith("error: ") and "not determined (M = 1, S = 0)" in std.err
    assert "--min-norm" in std.err
    assert json.loads((out / "counts.json").read_text())["M"] == 1
    assert not (out / "hinges.csv").exists() and not (out / "supports.csv").exists()
    # the load (1, 2, -4) at vertex 5 works on the mechanism: no minimum-norm answer either
    assert cli.main(["static", str(path), "--engine", "reference", "--min-norm"]) == 3
    assert "the loads cannot be equilibrated" in capsys.readouterr().err
    d = hand_fold(with_panel2_support=False)
    d["vertices_origami:load"][4] = {"force": [1.0, 2.0, 0.0], "panel": 1}   # in-plane: no work on the mechanism
    path.write_text(json.dumps(d))
    assert cli.main(["static", str(path), "--engine", "reference", "--min-norm"]) == 0
    assert "WARNING: not determined (M = 1, S = 0): minimum-norm" in capsys.readouterr().out


def test_indeterminate_scene_exits_3_with_its_self_stress_written(tmp_path):
    """The four-panel ring (M = 1, S = 3): a static scene exits like the static command."""
    p = subprocess.run([sys.executable, str(ROOT / "scenes" / "four_panel_ring.py"), "--engine", "reference",
                        "--out", str(tmp_path)], capture_output=True, text=True, cwd=ROOT, env=ENV)
    assert p.returncode == 3, p.stderr
    assert "self-stress state 3" in p.stdout and (tmp_path / "self_stress.csv").exists()
    assert not (tmp_path / "hinges.csv").exists()
    (line,) = p.stderr.strip().splitlines()
    assert line.startswith("error: ") and "not determined (M = 1, S = 3)" in line


def test_tower_scene_load_panels(tmp_path):
    """--load-panels: the default rule is stated in --help; the default given explicitly changes nothing, another
    choice (1-based, top vertices 7, 8, 9 of two modules) changes the hinge actions, not the reactions."""
    def scene(*args):
        return subprocess.run([sys.executable, str(ROOT / "scenes" / "kresling_tower.py"), "--engine", "reference",
                               *args], capture_output=True, text=True, cwd=ROOT, env=ENV)

    text = " ".join(scene("--help").stdout.split())
    assert "--load-panels P,P,P" in text
    assert "Default: at each top vertex the panel that holds the top-ring edge and the twist crease ending there" \
        in text and "beyond two modules" in text
    out = {}
    for name, args in (("default", []), ("explicit", ["--load-panels", "11,7,9"]), ("other", ["--load-panels", "12,8,10"])):
        p = scene("--out", str(tmp_path / name), *args)
        assert p.returncode == 0, p.stderr
        out[name] = {f: read_csv(tmp_path / name / f)[1] for f in ("hinges.csv", "supports.csv")}
    assert out["explicit"] == out["default"]
    assert out["other"]["hinges.csv"] != out["default"]["hinges.csv"]
    for r, e in zip(out["other"]["supports.csv"], out["default"]["supports.csv"]):
        assert all(close(x, y) or abs(x - y) < 1e-9 for x, y in zip(r, e))
    p = scene("--load-panels", "1,7,9")
    assert p.returncode == 2 and "panel 1 does not hold top vertex 7 (panels 7, 11, 12 do)" in p.stderr


def test_the_manual_lists_the_exit_codes():
    """The manual's exit-code table (docs/reference/exit-codes.md) is the one of the command line (app.EXIT_CODES),
    code for code."""
    rows = [line.split("|")[1:3] for line in (ROOT / "docs" / "reference" / "exit-codes.md").read_text().splitlines()
            if line.startswith("| ") and line.split("|")[1].strip().isdigit()]
    assert [int(code) for code, _ in rows] == sorted(cli.EXIT_CODES)
    assert "not determined" in dict((int(c), t) for c, t in rows)[cli.EXIT_INDETERMINATE]
    assert all(f"  {code}  " in cli.app.exit_codes_text() for code in cli.EXIT_CODES)


def test_scenes_run_on_the_command_line_layer():
    """Every scene runs through chrono_origami.cli (one error wrapper) and none edits sys.path: the package is
    installed (pip install -e .) or on PYTHONPATH."""
    scripts = sorted((ROOT / "scenes").glob("*.py"))
    assert len(scripts) >= 15
    for path in scripts + sorted((ROOT / "benchmarks").glob("*.py")):
        assert "sys.path" not in path.read_text(), path.name
    for path in scripts:
        text = path.read_text()
        assert "from chrono_origami.cli import" in text and "scene(ap, " in text, path.name


def test_every_command_written_in_cli_is_found_without_a_list():
    """Commands are discovered from the cli package (app.discover): every ``@app.command("NAME", ...)`` written
    in a module of chrono_origami/cli is a subcommand of a freshly built parser, and nothing else is."""
    import glob
    import re

    from chrono_origami.cli import app

    folder = os.path.join(os.path.dirname(app.__file__))
    written = set()
    for path in glob.glob(os.path.join(folder, "*.py")):
        if os.path.basename(path) == "__init__.py":      # its doc shows the decorator
            continue
        written |= set(re.findall(r'@app\.command\(\s*"([a-z-]+)"', open(path).read()))
    parser = app.build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    assert set(sub.choices) == written and len(written) >= 11


def test_engine_is_one_option_defined_once():
    """Every command and scene that takes --engine takes the one option of ``cli.inputs.add_engine_option``
    (same choices, same default: the one rule), and no other module defines it."""
    from chrono_origami import engines
    from chrono_origami.cli import app

    parser = app.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    with_engine = {}
    for name, p in sub.choices.items():
        for a in p._actions:
            if "--engine" in a.option_strings:
                with_engine[name] = (tuple(a.choices), a.default)
    assert {"static", "count", "support", "fold", "dynamics", "tolerance"} <= set(with_engine)
    assert set(with_engine.values()) == {(engines.ENGINES, None)}
    defining = sorted(str(p.relative_to(ROOT)) for d in ("chrono_origami", "scenes") for p in (ROOT / d).rglob("*.py")
                      if '"--engine"' in p.read_text() and "add_argument" in p.read_text())
    assert defining == ["chrono_origami/cli/inputs.py"]


def test_contact_engine_follows_the_one_rule(capsys):
    """--contact-engine (fold and check) has the engines' choices and no default of its own: without it the
    contact check is ``engines.get(None)``'s, Chrono where PyChrono imports, else the reference engine with the
    one note on stderr; given, it is the engine named."""
    from chrono_origami import engines
    from chrono_origami.cli import app, inputs

    parser = app.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    having = {name: (tuple(a.choices), a.default) for name, p in sub.choices.items() for a in p._actions
              if "--contact-engine" in a.option_strings}
    assert set(having) == {"fold", "check"} and set(having.values()) == {(engines.ENGINES, None)}
    args = sub.choices["fold"].parse_args(["pair.fold"])
    capsys.readouterr()
    expect = "chrono" if engines.chrono_available() else "reference"
    assert inputs.engine_of(args, option="contact_engine").name == expect
    err = capsys.readouterr().err
    assert (err == "") == engines.chrono_available() and without_engine_note(err) == ""
    for name in engines.ENGINES[:1] + (("chrono",) if engines.chrono_available() else ()):
        args = sub.choices["check"].parse_args(["pair.fold", "--contact-engine", name])
        assert inputs.engine_of(args, option="contact_engine").name == name
