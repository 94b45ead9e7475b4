"""The ``tolerance`` command and ``scenes/tolerance_study.py`` as a user runs them: a FOLD file written by hand (another
tool's style), measured errors from a CSV file, the printed table and the CSV files, and bad input (one line, exit 2).
The command runs in this process (:func:`run`; its warnings reach its stderr), the scene script's study and the run on
the default local Dask cluster in child processes (the scene's refusals in this process).
"""
import contextlib
import csv
import io
import json
import os
import subprocess
import sys
import types
import warnings
from pathlib import Path

import numpy as np
import pytest

from cli_inprocess import run_scene
from cli_output import without_engine_note

ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
#: default stiffness (imperfections): K_t = 1e8 N/m and K_r = 1e7 N m/rad for the 1 m hinges of the strip
K_T, K_R = 1e8, 1e7


def strip_fold():
    """Three flat 1 m square panels in a row, door hinges at x = 1 and x = 2 (FOLD "F" creases), panels 1 and 3
    clamped by 3-2-1 vertex supports: the hand example of tests/test_tolerances.py, as another tool writes it
    (rounded integer coordinates, no hinge kinds on boundary edges)."""
    support = [None] * 8
    support[0] = {"dofs": "xyz", "panel": 0}
    support[4] = {"dofs": "xz", "panel": 0}
    support[1] = {"dofs": "z", "panel": 0}
    support[3] = {"dofs": "xyz", "panel": 2}
    support[7] = {"dofs": "xz", "panel": 2}
    support[2] = {"dofs": "z", "panel": 2}
    edges = [[0, 1], [1, 2], [2, 3], [4, 5], [5, 6], [6, 7], [0, 4], [1, 5], [2, 6], [3, 7]]
    assign = ["B"] * 7 + ["F", "F", "B"]
    assign[6] = "B"
    hinge = [None] * 10
    hinge[7] = hinge[8] = "door"
    return {"file_spec": 1.2, "file_title": "two door hinges in series",
            "vertices_coords": [[x, y, 0] for y in (0, 1) for x in (0, 1, 2, 3)],
            "faces_vertices": [[0, 1, 5, 4], [1, 2, 6, 5], [2, 3, 7, 6]],
            "edges_vertices": edges, "edges_assignment": assign, "edges_origami:hinge": hinge,
            "vertices_origami:support": support}


@pytest.fixture
def strip(tmp_path):
    path = tmp_path / "strip.fold"
    path.write_text(json.dumps(strip_fold()))
    return path


def run(*args):
    """The tolerance command (returncode, stdout, stderr); its stderr without the engine rule's note (printed only
    where PyChrono is missing).

    It runs in this process (``cli.main``, a child process's start-up is most of a run's cost here), with every
    warning it raises written to stderr as an interpreter would print it, so that "no warning" stays checked;
    ``--samples`` on the default scheduler (a local Dask cluster) runs in a child process, as a user runs it."""
    args = [str(a) for a in args]
    if "--samples" in args and "--scheduler" not in args:
        p = subprocess.run([sys.executable, "-m", "chrono_origami", "tolerance", *args], cwd=ROOT, env=ENV,
                           capture_output=True, text=True, timeout=300)
        return types.SimpleNamespace(returncode=p.returncode, stdout=p.stdout,
                                     stderr=without_engine_note(p.stderr))
    from chrono_origami.cli import main

    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
                warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                code = main(["tolerance", *args])
            except SystemExit as e:                     # argparse's refusals
                code = e.code
    finally:
        os.chdir(here)
    text = err.getvalue() + "".join(warnings.formatwarning(w.message, w.category, w.filename, w.lineno, w.line)
                                    for w in caught)
    return types.SimpleNamespace(returncode=code or 0, stdout=out.getvalue(), stderr=without_engine_note(text))


def read_csv(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def test_measured_errors_hand_value(strip, tmp_path):
    """Hinge point of hinge 1 on panel 1 made 0.1 mm too far along its axis: Fy = s / (2 / K_t + 1 / (2 K_r))."""
    m = tmp_path / "measured.csv"
    m.write_text("hinge,panel,position\n1,1,1e-4\n")
    out = tmp_path / "out"
    p = run(strip, "--measured", m, "--engine", "reference", "--out", out)
    assert p.returncode == 0, p.stderr
    Fy = 1e-4 / (2 / K_T + 1 / (2 * K_R))
    rows = {(int(r["hinge"]), int(r["panel"])): r for r in read_csv(out / "hinges.csv")}
    assert float(rows[(1, 2)]["TP"]) == pytest.approx(-Fy, rel=1e-9)
    assert float(rows[(1, 2)]["MO"]) == pytest.approx(Fy / 2, rel=1e-9)
    assert abs(float(rows[(2, 2)]["TP"])) == pytest.approx(Fy, rel=1e-9)
    assert f"{-Fy:.4e}" in p.stdout


def test_engine_defaults_to_the_one_rule(strip, tmp_path):
    """Without --engine, measured errors and Monte Carlo samples use Chrono where PyChrono imports, else the
    reference engine (``engines.resolve``); the closed-form statistics are the same either way."""
    from chrono_origami import engines

    expected = engines.resolve(None, notice=False)
    m = tmp_path / "measured.csv"
    m.write_text("hinge,panel,position\n1,1,1e-4\n")
    p = run(strip, "--measured", m)
    assert p.returncode == 0, p.stderr
    assert f"of the measured errors, {expected} engine" in p.stdout
    p = run(strip, "--tol", "1e-4", "--samples", "3", "--scheduler", "serial", "--out", tmp_path / "a")
    assert p.returncode == 0, p.stderr
    assert f"Monte Carlo (3, {expected})" in p.stdout
    q = run(strip, "--tol", "1e-4", "--samples", "3", "--scheduler", "serial", "--engine", "reference", "--out",
            tmp_path / "b")
    assert q.returncode == 0, q.stderr
    assert (tmp_path / "a" / "locked_in.csv").read_text() == (tmp_path / "b" / "locked_in.csv").read_text()


def pair_fold():
    """Two flat 1 m square panels side by side, one door hinge at x = 1 (vertices 2 and 5), each panel clamped by
    3-2-1 vertex supports: the hinge is the only compliance between two rigid, fixed panels (S = 5)."""
    support = [None] * 6
    support[0], support[3], support[1] = {"dofs": "xyz", "panel": 0}, {"dofs": "xz", "panel": 0}, {"dofs": "z",
                                                                                                    "panel": 0}
    support[2], support[5], support[4] = {"dofs": "xyz", "panel": 1}, {"dofs": "xz", "panel": 1}, {"dofs": "z",
                                                                                                    "panel": 1}
    return {"file_spec": 1.2, "file_title": "two clamped panels, one door hinge",
            "vertices_coords": [[x, y, 0] for y in (0, 1) for x in (0, 1, 2)],
            "faces_vertices": [[0, 1, 4, 3], [1, 2, 5, 4]],
            "edges_vertices": [[0, 1], [1, 2], [3, 4], [4, 5], [0, 3], [1, 4], [2, 5]],
            "edges_assignment": ["B", "B", "B", "B", "B", "F", "B"],
            "edges_origami:hinge": [None] * 5 + ["door", None], "vertices_origami:support": support}


@pytest.fixture
def pair(tmp_path):
    path = tmp_path / "pair.fold"
    path.write_text(json.dumps(pair_fold()))
    return path


@pytest.mark.parametrize("engine, rel", [("reference", 1e-9), (None, 1e-3)])
def test_measured_vertex_errors_hand_value(pair, tmp_path, engine, rel):
    """Vertex 2 (an end of the hinge) made dz = 0.1 mm too high on panel 1: the hinge frame as made on panel 1 is
    moved by dz / 2 along the normal and turned by dz / l about the in-plane normal to the hinge; the two panels
    are rigid and fixed, so the hinge springs take it all: |TO| = K_t dz / 2 = 5,000 N and |MT| = K_r dz / l =
    1,000 N m on both sides, nothing else (reference engine to 1e-9; the default engine, Chrono where it imports,
    to 1e-3: its nonlinearity)."""
    m = tmp_path / "vertices.csv"
    m.write_text("panel,vertex,dx,dy,dz\n1,2,0,0,1e-4\n")
    out = tmp_path / "out"
    p = run(pair, "--measured-vertices", m, *(("--engine", engine) if engine else ()), "--out", out)
    assert p.returncode == 0, p.stderr
    rows = read_csv(out / "hinges.csv")
    assert [(r["hinge"], r["panel"]) for r in rows] == [("1", "1"), ("1", "2")]
    for r in rows:
        assert abs(float(r["TO"])) == pytest.approx(K_T * 1e-4 / 2, rel=rel)
        assert abs(float(r["MT"])) == pytest.approx(K_R * 1e-4 / 1.0, rel=rel)
        assert all(abs(float(r[k])) <= rel * K_T * 1e-4 for k in ("N", "TP", "MP", "MO"))
    assert float(rows[0]["TO"]) == pytest.approx(-float(rows[1]["TO"]), rel=rel)   # action and reaction


@pytest.mark.parametrize("row, message", [
    ("1,2,0,nan,1e-4", "line 2: dy must be finite, got 'nan'"),
    ("1,2,0,,x", "line 2: dz must be a number, got 'x'"),
    ("1,3,0,0,1e-4", "line 2: vertex 3 is not a vertex of panel 1 (its panels: 2)"),
    ("3,1,0,0,1e-4", "line 2: panel 3 does not exist (2 panels)"),
    ("2,7,0,0,1e-4", "line 2: vertex 7 does not exist (6 vertices)"),
])
def test_measured_vertex_errors_bad_row_one_line_exit_2(pair, tmp_path, row, message):
    m = tmp_path / "vertices.csv"
    m.write_text(f"panel,vertex,dx,dy,dz\n{row}\n")
    p = run(pair, "--measured-vertices", m)
    assert p.returncode == 2, p.stderr
    assert p.stderr.strip() == f"error: {m}, {message}"


def test_statistics_outputs(strip, tmp_path):
    out = tmp_path / "out"
    p = run(strip, "--tol", "1e-4", "--samples", "50", "--engine", "reference", "--out", out, "--histogram",
            tmp_path / "h.png")
    assert p.returncode == 0, p.stderr
    assert "S = 4" in p.stdout and "p95_N" in p.stdout
    rows = read_csv(out / "locked_in.csv")
    assert len(rows) == 4 and set(rows[0]) >= {"hinge", "panel", "sd_N", "p95_N", "p99_TO"}
    summary = read_csv(out / "summary.csv")[0]
    assert float(summary["locked_p95_TP"]) == pytest.approx(1.959964 * float(summary["locked_sd_TP"]), rel=1e-6)
    assert max(float(r["p95_TP"]) for r in rows) == pytest.approx(float(summary["locked_p95_TP"]), rel=1e-12)
    assert len(read_csv(out / "monte_carlo.csv")) == 4
    assert (tmp_path / "h.png").stat().st_size > 1000


def test_plot_tolerance(strip, tmp_path, monkeypatch):
    """--plot-tolerance: the figure is written, and the data it draws (``analysis.tolerance.force_against_tolerance``
    for the command's tolerances, 1e-3 to 1e2 times --tol, the same seeded errors scaled; taken from the command's
    call of ``report.tolerance.force_tolerance_plot``): the linear theory's largest locked-in actions are linear in
    the tolerance (to 1e-9), Chrono's assembly (where PyChrono imports) equals it to 1e-4 at the smallest tolerance
    and departs from it with the tolerance."""
    from chrono_origami import engines
    from chrono_origami.report import tolerance as rep
    from chrono_origami.structure.foldfile import read_structure

    drawn, plot = [], rep.force_tolerance_plot

    def spy(tols, curves, path, **kw):
        drawn.append((np.array(tols), {k: np.array(v) for k, v in curves.items()}, kw))
        return plot(tols, curves, path, **kw)

    monkeypatch.setattr(rep, "force_tolerance_plot", spy)
    png = tmp_path / "force.png"
    p = run(strip, "--tol", "1e-4", "--plot-tolerance", png, "--top", "1")
    assert p.returncode == 0, p.stderr
    assert f"force against tolerance written to {png}" in p.stdout
    assert png.stat().st_size > 1000
    st = read_structure(str(strip))
    (tols, curves, kw), = drawn
    assert kw == {"title": st.name}                  # the public function, called as a user would call it
    np.testing.assert_allclose(tols, 1e-4 * np.logspace(-3, 2, 11), rtol=1e-15)
    assert set(curves) == ({"reference", "chrono"} if engines.chrono_available() else {"reference"})
    ref = curves["reference"]
    live = ref[0] > 1e-9 * ref[0].max()
    assert live.sum() >= 3 and np.all(np.isfinite(ref))
    assert np.allclose(ref[:, live] / ref[0, live], (tols / tols[0])[:, None], rtol=1e-9, atol=0)
    if "chrono" in curves:
        dev = np.abs(curves["chrono"] - ref)[:, live] / ref[:, live]
        assert dev[0].max() < 1e-4 and np.nanmax(dev[-1]) > 100 * dev[0].max()


@pytest.mark.parametrize("args, message", [
    (("--tol", "-1e-4"), "error: --tol must be a finite number >= 0, got '-1e-4'"),
    (("--tol", "nan"), "error: --tol must be a finite number >= 0, got 'nan'"),
    (("--tol", "1e-4", "--tilt", "-0.5"), "error: --tilt must be a finite number >= 0, got '-0.5'"),
    (("--tol", "1e-4", "--stiffness", "1e8,-1"), "error: --stiffness 1e8,-1: rotational stiffness must be a finite "
                                                 "number > 0"),
])
def test_bad_tolerance_one_line_exit_2(strip, args, message):
    p = run(strip, *args)
    assert p.returncode == 2
    assert p.stderr.strip().splitlines() == [p.stderr.strip()] and p.stderr.startswith(message)


def test_unknown_key_in_measured_errors_one_line_exit_2(strip, tmp_path):
    m = tmp_path / "measured.csv"
    m.write_text("hinge,panel,offset_x\n1,1,1e-4\n")
    p = run(strip, "--measured", m)
    assert p.returncode == 2
    assert p.stderr.strip() == (f"error: {m}: unknown key 'offset_x' in the measured-errors file; expected some of "
                                "hinge, panel, offset_m, offset_n, tilt_m, tilt_n, position")


def _table(path):
    return np.array([[float(v) for k, v in r.items() if k not in ("hinge", "panel")] for r in read_csv(path)])


def test_tolerance_takes_the_structure_options(tmp_path):
    """The journey fold -> support auto -> tolerance: a flat Miura sheet from a faceless editor (no supports in the
    file) takes ``static``'s --support/--load options. --support auto adds the proposed statically determinate
    support, which adds no self-stress: the locked-in statistics equal the free structure's (M = 6, S = 36); one
    more support (vertex 13 held in xyz) adds 2 self-stress states and raises the largest p95 of |N|; measured errors
    on the supported sheet in the default engine equal the reference's; a bad --support is one line, exit 2."""
    from test_cli_supports_loads import editor_flat_miura

    path = editor_flat_miura(tmp_path)
    p = run(path, "--support", "auto", "--tol", "1e-4", "--top", "1", "--out", tmp_path / "auto")
    assert p.returncode == 0, p.stderr
    assert "--support auto: 1:xyz:p1 25:xz:p16 5:z:p4 (6 held directions" in p.stdout
    assert "M = 6, S = 36" in p.stdout
    q = run(path, "--tol", "1e-4", "--top", "1", "--out", tmp_path / "free")
    assert q.returncode == 0, q.stderr
    a, b = _table(tmp_path / "auto" / "locked_in.csv"), _table(tmp_path / "free" / "locked_in.csv")
    assert np.abs(a - b).max() <= 1e-9 * np.abs(a).max()
    r = run(path, "--support", "auto", "--support", "13:xyz", "--tol", "1e-4", "--top", "1", "--out", tmp_path / "x")
    assert r.returncode == 0, r.stderr
    assert "M = 5, S = 38" in r.stdout
    more = read_csv(tmp_path / "x" / "summary.csv")[0]
    assert float(more["locked_p95_N"]) > 1.2 * float(read_csv(tmp_path / "auto" / "summary.csv")[0]["locked_p95_N"])
    m = tmp_path / "measured.csv"
    m.write_text("hinge,panel,position\n9,6,1e-4\n")
    outs = {}
    for engine in ("reference", None):
        e = run(path, "--support", "auto", "--measured", m, *(("--engine", engine) if engine else ()), "--out",
                tmp_path / f"m_{engine}")
        assert e.returncode == 0, e.stderr
        outs[engine] = _table(tmp_path / f"m_{engine}" / "hinges.csv")
    assert np.abs(outs[None] - outs["reference"]).max() <= 1e-3 * np.abs(outs["reference"]).max()
    bad = run(path, "--support", "99:xyz", "--tol", "1e-4")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
    assert bad.stderr.startswith("error: --support '99:xyz': ")


#: the README's closed-form table: largest p95 of |N| over hinges (N), 4 significant digits
SCENE_P95_N = {"Miura-ori cantilever, all door": "4.0049e+03", "Yoshimura wedge, all door": "2.6113e+03",
               "Kresling tower, 2 modules, all door": "3.1037e+03"}


def test_scene_tolerance_study(tmp_path):
    """The scene as a user runs it, default engine (Chrono where PyChrono imports: all six designs, the all-door
    wedge included), a few samples: all door against the paper's isostatic designs; the closed-form p95 of the
    README's table; isostatic designs lock in nothing."""
    from chrono_origami import engines

    out = tmp_path / "ts"
    p = subprocess.run([sys.executable, str(ROOT / "scenes" / "tolerance_study.py"), "--samples", "4", "--scheduler",
                        "serial", "--out", out], cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    assert f"(4 samples per design, {engines.resolve(None, notice=False)} engine)" in p.stdout
    rows = read_csv(out / "summary.csv")
    assert [r["structure"].split(", ")[-1] for r in rows] == ["all door", "isostatic (paper)"] * 3
    for r in rows:
        if "isostatic" in r["structure"]:
            assert r["S"] == "0" and float(r["locked_p95_N"]) == 0.0 and float(r["locked_max_p95_N"]) < 1e-6
        else:
            assert f"{float(r['locked_p95_N']):.4e}" == SCENE_P95_N[r["structure"]]
            assert 0.5 < float(r["locked_max_p95_N"]) / float(r["locked_p95_N"]) < 3   # the samples' largest
    assert (out / "histogram.png").stat().st_size > 1000
    assert "Miura-ori cantilever, all door" in p.stdout


def test_measured_errors_of_a_hinge_or_side_the_structure_does_not_have_exit_2(strip, tmp_path):
    m = tmp_path / "measured.csv"
    m.write_text("hinge,panel,position\n7,1,1e-4\n")
    p = run(strip, "--measured", m)
    assert p.returncode == 2
    assert p.stderr.strip() == f"error: {m}, line 2: hinge 7 does not exist (2 hinges)"
    m.write_text("hinge,panel,position\n1,3,1e-4\n")
    p = run(strip, "--measured", m)
    assert p.returncode == 2
    assert p.stderr.strip() == f"error: {m}, line 2: panel 3 is not a panel of hinge 1 (its panels are 1 and 2)"


@pytest.mark.parametrize("value", ["-1e-4", "nan"])
def test_scene_bad_tolerance_one_line_exit_2(value):
    """The scene run in this process (``run_scene``; test_scene_tolerance_study runs it as a user types it)."""
    p = run_scene(ROOT / "scenes" / "tolerance_study.py", "--tol", value)
    assert p.returncode == 2
    assert p.stderr.strip().startswith("error: --tol must be a positive number of metres") and \
        len(p.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("engine", ["reference", pytest.param("chrono", marks=pytest.mark.chrono)])
def test_loads_on_a_mechanism_or_a_free_structure_are_refused_not_carried_by_the_holds(tmp_path, engine):
    """With --loads the tolerance analysis refuses loads that work on what it holds fixed: on the strip hanging
    from panel 1 (panels 2 and 3 swing about their door hinges: M = 2) a vertical load at vertex 4 is refused
    (exit 3, one line); without supports an unbalanced load is refused (exit 2); a load along the hinge axes does
    no work on the mechanisms and is carried by the hinges: the strip's hinges take it to panel 1, all of it
    (TP at hinge 1 = 1 N, the shear along the hinge axis)."""
    d = strip_fold()
    d["vertices_origami:support"] = [s if s is not None and s["panel"] == 0 else None
                                     for s in d["vertices_origami:support"]]
    hanging = tmp_path / "hanging.fold"
    hanging.write_text(json.dumps(d))
    m = tmp_path / "measured.csv"
    m.write_text("hinge,panel,position\n1,1,1e-5\n")
    p = run(hanging, "--measured", m, "--loads", "--load", "4:0,0,-1", "--engine", engine)
    assert p.returncode == 3, p.stderr
    err = p.stderr.strip()
    assert err.startswith("error: two door hinges in series: the loads cannot be equilibrated (relative work on "
                          "the mechanisms") and "M = 2 mechanisms that the loads excite" in err
    assert len(err.splitlines()) == 1 and "Traceback" not in p.stderr
    d.pop("vertices_origami:support")
    free = tmp_path / "free.fold"
    free.write_text(json.dumps(d))
    p = run(free, "--measured", m, "--loads", "--load", "4:0,0,-1", "--engine", engine)
    assert p.returncode == 2, p.stderr
    assert p.stderr.strip().startswith("error: two door hinges in series: the structure has no supports, so it is "
                                       "free to move as a rigid body, and its loads do not balance")
    out = tmp_path / "along"
    p = run(hanging, "--measured", m, "--loads", "--load", "4,8:0,0.5,0", "--engine", engine, "--out", out)
    assert p.returncode == 0, p.stderr
    rows = [r for r in read_csv(out / "hinges.csv") if r["hinge"] == "1"]
    assert max(abs(float(r["TP"])) for r in rows) == pytest.approx(1.0, rel=1e-6)


def test_monte_carlo_percentiles_of_the_largest_are_beside_the_closed_form(strip, tmp_path):
    """``--samples 40``: summary.csv holds the closed form's row and the Monte Carlo row; the latter's
    ``locked_max_p95_N`` is the 0.95 quantile of the 40 samples' largest |N| over hinges and sides, by hand
    (sorted, linear interpolation between the 38th and 39th: position 0.95 x 39 = 37.05), and ``_p99`` the 0.99
    one (position 38.61); the printed report says why a Monte Carlo maximum runs above the closed form and shows
    the percentiles of the largest beside it."""
    from chrono_origami.analysis import tolerance as tl
    from chrono_origami.structure import tolerance as imp
    from chrono_origami.structure.foldfile import read_structure

    out = tmp_path / "out"
    p = run(strip, "--tol", "1e-4", "--samples", "40", "--seed", "3", "--engine", "reference", "--scheduler",
            "serial", "--out", out)
    assert p.returncode == 0, p.stderr
    closed, mc = read_csv(out / "summary.csv")
    assert closed["method"] == "exact" and closed["locked_max_p95_N"] == "" and closed["samples"] == ""
    assert mc["method"] == "monte carlo (reference)" and mc["samples"] == "40"
    st = read_structure(str(strip))
    spec = imp.ToleranceSpec(1e-4)
    k = tl.COMPONENTS.index("N")
    largest = sorted(float(np.abs(tl.monte_carlo_sample(st, spec, 3 + j, engine="reference")[..., k]).max())
                     for j in range(40))
    p95 = largest[37] + 0.05 * (largest[38] - largest[37])
    p99 = largest[38] + 0.61 * (largest[39] - largest[38])
    assert float(mc["locked_max_p95_N"]) == pytest.approx(p95, rel=1e-12)
    assert float(mc["locked_max_p99_N"]) == pytest.approx(p99, rel=1e-12)
    assert float(closed["locked_p95_N"]) == pytest.approx(1.959964 * float(closed["locked_sd_N"]), rel=1e-6)
    assert "the bias of a maximum" in p.stdout
    table = p.stdout.split("percentiles of the largest (locked_max_*, 40 Monte Carlo samples)\n")[1].splitlines()
    row = dict(zip(("component", "cf95", "mc95", "cf99", "mc99"), table[2].split()))
    assert row["component"] == "N" and float(row["mc95"]) == pytest.approx(p95, rel=1e-4)
    assert float(row["cf95"]) == pytest.approx(float(closed["locked_p95_N"]), rel=1e-4)


@pytest.mark.parametrize("args, message", [
    (("--seed", "-1", "--samples", "4"), "argument --seed: must be at least 0, got -1"),
    (("--samples", "1"), "argument --samples: must be at least 2, got 1"),
    (("--samples", "0"), "argument --samples: must be at least 2, got 0"),
    (("--probes", "1", "--method", "randomized"), "argument --probes: must be at least 2, got 1"),
])
def test_samples_probes_and_seed_are_option_values_checked_before_any_work(strip, args, message):
    p = run(strip, "--tol", "1e-4", "--engine", "reference", "--scheduler", "serial", *args)
    assert p.returncode == 2
    assert p.stderr.splitlines()[-1].startswith(f"error: {message}")
    assert p.stdout == ""                                   # nothing computed, nothing printed


def test_a_tolerance_that_overflows_the_actions_is_one_line_exit_2(strip, tmp_path):
    """``--tol 1e300``: the variances (tol^2 ~ 1e600) overflow; no NaN table, no RuntimeWarning: one line, exit 2;
    the same from the Monte Carlo samples. Measured errors of 1e308 too."""
    for extra in ((), ("--samples", "3", "--scheduler", "serial")):
        p = run(strip, "--tol", "1e300", "--engine", "reference", *extra)
        assert p.returncode == 2, p.stderr
        last = p.stderr.splitlines()[-1]
        assert last.startswith("error: the tolerance 1e+300 (offset 1e+300") and "not finite numbers" in last
        assert "Warning" not in p.stderr and "nan" not in p.stdout
    m = tmp_path / "measured.csv"
    m.write_text("hinge,panel,position\n1,1,1e308\n")
    p = run(strip, "--measured", m, "--engine", "reference")
    assert p.returncode == 2 and "are not finite numbers" in p.stderr.splitlines()[-1]
    assert "Warning" not in p.stderr


def test_the_largest_table_shows_the_percentiles_of_the_largest_not_the_largest_percentile(tmp_path):
    """On a Miura-ori cantilever whose hinges carry different forces, the Monte Carlo column of the printed
    table is the p95 of the largest |N| over hinges (summary.csv's ``locked_max_p95_N``), which there differs
    from the largest per-hinge p95 (``locked_p95_N``) by more than the printed digits."""
    import chrono_origami as co
    from chrono_origami.patterns import miura

    fold = str(tmp_path / "c.fold")
    co.write_fold(miura.miura_cantilever(columns=2).with_hinge_kinds(["door"] * 4), fold)
    out = tmp_path / "out"
    p = run(fold, "--tol", "1e-4", "--samples", "20", "--seed", "1", "--engine", "reference", "--scheduler",
            "serial", "--out", out)
    assert p.returncode == 0, p.stderr
    _, mc = read_csv(out / "summary.csv")
    p95_of_max, max_of_p95 = float(mc["locked_max_p95_N"]), float(mc["locked_p95_N"])
    assert abs(p95_of_max - max_of_p95) > 1e-3 * max_of_p95        # the two are told apart
    table = p.stdout.split("percentiles of the largest (locked_max_*, 20 Monte Carlo samples)\n")[1].splitlines()
    row = dict(zip(("component", "cf95", "mc95", "cf99", "mc99"), table[2].split()))
    assert row["component"] == "N" and float(row["mc95"]) == pytest.approx(p95_of_max, rel=1e-4)
    assert float(row["mc99"]) == pytest.approx(float(mc["locked_max_p99_N"]), rel=1e-4)
