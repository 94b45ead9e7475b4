"""The modal analysis of a user's own structure: ``co.modal`` in Python and the ``modal`` command, both engines.

Closed forms: one square panel (side 1, thickness H, density RHO) on a door hinge along the x axis, its neighbour
held, with a crease spring k on the hinge. Without gravity it is a torsion oscillator about the hinge line,
w^2 = k / I_axis; hanging under gravity (its centre of mass a distance d = 1/2 below the hinge) it is a compound
pendulum with a spring, w^2 = (k + m g d) / I_axis with Kc; without Kc the gravity term is missing (gravity acts
at the centre of mass: only the constraint tangent stiffness carries it), w^2 = k / I_axis.
I_axis = m ((1 + H^2) / 12 + d^2) about the hinge line (parallel axes).
"""
import numpy as np
import pytest

import chrono_origami as co
from chrono_origami.crease.pattern import CreasePattern
from chrono_origami.structure.hinges import DOOR
from chrono_origami.structure.structure import Structure, Support
from chrono_origami.tools.errors import StructureError

ENGINES = [pytest.param("reference"), pytest.param("chrono", marks=pytest.mark.chrono)]
G, H, RHO, K = 9.81, 0.01, 1000.0, 2.0
MASS, D = RHO * H, 0.5
I_AXIS = MASS * ((1 + H * H) / 12 + D * D)
#: relative tolerance of a closed form by engine: the reference engine's operators are exact but Kc (central
#: differences, step 1e-6: about 1e-10); Chrono differentiates a crease spring by forward differences of step 1e-8
#: (engines/chrono/springs.py), an error of about eps / 1e-8 = 2e-8 on k
RTOL = {"reference": 1e-9, "chrono": 1e-7}


def door_panel(gravity=True, thickness=H, density=RHO):
    """Panel 1 = [0, 1]^2 held 3-2-1, panel 2 = [0, 1] x [-1, 0] on the door hinge y = 0; gravity -y (hanging)."""
    X = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [1, -1, 0], [0, -1, 0]]
    pat = CreasePattern(X, [(0, 1, 2, 3), (0, 5, 4, 1)])
    sups = (Support(2, 0, "xyz"), Support(3, 0, "yz"), Support(1, 0, "z"))
    return Structure(pat, (DOOR,), thickness, density, sups, gravity=(0, -G, 0) if gravity else None,
                     name="door panel")


def hz(omega_squared):
    return np.sqrt(omega_squared) / (2 * np.pi)


@pytest.mark.parametrize("engine", ENGINES)
def test_co_modal_gives_the_closed_forms_with_and_without_kc(engine):
    r = co.modal(door_panel(), engine, crease_stiffness=K, kc="compare")
    np.testing.assert_allclose(r.frequencies_hz, [hz((K + MASS * G * D) / I_AXIS)], rtol=1e-9)
    np.testing.assert_allclose(r.without_kc.frequencies_hz, [hz(K / I_AXIS)], rtol=1e-9)
    (row,) = r.table().rows
    assert row[0] == 1 and row[3] is True
    np.testing.assert_allclose(row[2], (K + MASS * G * D) / I_AXIS, rtol=1e-9)     # eigenvalue: omega^2
    assert r.engine == engine and r.zero_modes == []
    # no spring and no Kc: nothing stiffens the panel, a zero mode named by the panel that moves (panel 2)
    free = co.modal(door_panel(), engine, kc="off")
    assert free.modes == [] and free.zero_mode_panels() == [[1]]


def test_co_tolerance_is_the_verb_of_the_three_tolerance_analyses():
    from chrono_origami.analysis import tolerance as tl
    from chrono_origami.patterns import miura

    s = miura.miura_patch(2, 2).with_supports("min-x:xyz")
    spec = co.ToleranceSpec(1e-4)
    a, b = co.tolerance(s, spec), tl.locked_in_statistics(s, spec)
    np.testing.assert_array_equal(a.sd, b.sd)
    mc = co.tolerance(s, spec, samples=3, engine="reference")
    assert mc.method == "monte carlo"
    with pytest.raises(StructureError, match="tolerance spec"):
        co.tolerance(s)


# ---------------------------------------------------------------------- the modal command
import csv  # noqa: E402
import importlib.util  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402

from chrono_origami.structure.foldfile import frame_count, write_fold  # noqa: E402
from cli_output import run  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: panel 1 (above the hinge, in the xz plane) held 3-2-1; panel 2 hangs below it on the door hinge z = 0
SUPPORTS = ("--support", "3:xyz", "--support", "4:yz", "--support", "2:y")


def door_file(tmp_path, thickness=H, density=RHO, name="door.fold"):
    """The door panel in the xz plane (gravity along -z hangs panel 2), without supports (they are options)."""
    X = [[0, 0, 0], [1, 0, 0], [1, 0, 1], [0, 0, 1], [1, 0, -1], [0, 0, -1]]
    pat = CreasePattern(X, [(0, 1, 2, 3), (0, 5, 4, 1)])
    path = tmp_path / name
    write_fold(Structure(pat, (DOOR,), thickness, density, name="door panel"), path)
    return path


def read_rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


@pytest.mark.parametrize("engine", ENGINES)
def test_a_panel_on_a_door_hinge_with_a_crease_spring_swings_at_sqrt_k_over_i(engine, tmp_path, capsys):
    code, out, err = run(capsys, "modal", door_file(tmp_path), "--engine", engine, *SUPPORTS, "--crease-stiffness",
                         K, "--out", tmp_path / "out")
    assert code == 0, err
    (row,) = read_rows(tmp_path / "out" / "modes.csv")
    np.testing.assert_allclose(float(row["frequency_hz"]), hz(K / I_AXIS), rtol=RTOL[engine])
    np.testing.assert_allclose(float(row["eigenvalue"]), K / I_AXIS, rtol=RTOL[engine])
    assert row["mode"] == "1" and row["stable"] == "true"
    assert f"engine: {engine}" in out and "zero mode" not in out


@pytest.mark.parametrize("engine", ENGINES)
def test_the_hanging_panel_gains_m_g_d_with_kc_and_compare_kc_shows_the_missing_term(engine, tmp_path, capsys):
    with_kc, without = hz((K + MASS * G * D) / I_AXIS), hz(K / I_AXIS)
    path = door_file(tmp_path)
    code, out, err = run(capsys, "modal", path, "--engine", engine, *SUPPORTS, "--self-weight", "--crease-stiffness",
                         K, "--compare-kc", "--out", tmp_path / "both")
    assert code == 0, err
    (row,) = read_rows(tmp_path / "both" / "modes.csv")
    np.testing.assert_allclose(float(row["frequency_hz"]), with_kc, rtol=RTOL[engine])
    np.testing.assert_allclose(float(row["frequency_hz_without_kc"]), without, rtol=RTOL[engine])
    np.testing.assert_allclose(float(row["eigenvalue"]), (K + MASS * G * D) / I_AXIS, rtol=RTOL[engine])
    # the printed side-by-side row: both frequencies and the relative change
    line = next(ln for ln in out.splitlines() if ln.endswith(" yes") and "%" in ln)
    assert line.split()[1:4] == [f"{with_kc:.6g}", f"{without:.6g}", f"{100 * (with_kc - without) / without:+.3g}"]
    code, out, err = run(capsys, "modal", path, "--engine", engine, *SUPPORTS, "--self-weight", "--crease-stiffness",
                         K, "--no-kc", "--out", tmp_path / "no_kc")
    assert code == 0, err
    (row,) = read_rows(tmp_path / "no_kc" / "modes.csv")
    np.testing.assert_allclose(float(row["frequency_hz"]), without, rtol=RTOL[engine])
    assert "frequency_hz_without_kc" not in row


def _scene():
    spec = importlib.util.spec_from_file_location("miura_modes_scene", os.path.join(ROOT, "scenes", "miura_modes.py"))
    scene = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(scene)
    return scene


@pytest.mark.parametrize("engine", ENGINES)
def test_a_miura_sheet_has_the_frequencies_of_the_miura_modes_scene(engine, tmp_path, capsys):
    """Two routes, same numbers: the scene's own analysis of its structure, and ``modal`` on that structure's file.
    The reference engine linearises at the pattern configuration only: unloaded there (its loads are balanced by
    the supports only when the fold is at equilibrium, which needs Chrono's static analysis)."""
    from chrono_origami.cli import modal as cli_modal

    scene = _scene()
    loads = [] if engine == "chrono" else ["--load", "0", "--gravity", "0"]
    args = scene.ap.parse_args(["--columns", "4", "--out", str(tmp_path / "scene"), *loads])
    structure = scene.build(args)
    assert cli_modal.run_structure(structure, args, engine=engine) == 0
    capsys.readouterr()
    path = tmp_path / "miura.fold"
    write_fold(structure, path)
    code, out, err = run(capsys, "modal", path, "--engine", engine, "--crease-stiffness", args.crease_stiffness,
                         "--out", tmp_path / "command")
    assert code == 0, err
    scene_f = [float(r["freq_hz"]) for r in read_rows(tmp_path / "scene" / "modes.csv")]
    command_f = [float(r["frequency_hz"]) for r in read_rows(tmp_path / "command" / "modes.csv")]
    assert len(command_f) == len(scene_f) == 1          # the clamped cantilever keeps one mechanism: the fold
    # the file lists the supports by vertex, the scene in its own order: Chrono's constraints come in another order,
    # its static analysis ends a round-off away, where its finite-difference spring stiffness differs (RTOL)
    np.testing.assert_allclose(command_f, scene_f, rtol=RTOL[engine])


def test_modes_that_nothing_stiffens_are_counted_and_named_never_given_a_frequency(tmp_path, capsys):
    code, out, err = run(capsys, "modal", door_file(tmp_path), "--engine", "reference", *SUPPORTS,
                         "--out", tmp_path / "out")
    assert code == 0, err
    assert "no oscillatory or unstable mode with Kc" in out
    assert "1 zero mode (rigid-body motions and mechanisms that nothing stiffens" in out
    assert "  zero mode 1: panel 2\n" in out and "Hz" not in out
    assert read_rows(tmp_path / "out" / "modes.csv") == []
    # no support at all: six rigid-body motions and the fold, seven zero modes
    code, out, err = run(capsys, "modal", door_file(tmp_path), "--engine", "reference")
    assert code == 0, err
    assert "7 zero modes" in out


@pytest.mark.parametrize("fmt", ["csv", "json", "parquet"])
def test_the_outputs_in_every_format_and_the_mode_animation(fmt, tmp_path, capsys):
    out_dir = tmp_path / "out"
    code, out, err = run(capsys, "modal", door_file(tmp_path), "--engine", "reference", *SUPPORTS, "--self-weight",
                         "--crease-stiffness", K, "--compare-kc", "--format", fmt, "--frames", 6, "--out", out_dir,
                         "--figure", tmp_path / "modes.png")
    assert code == 0, err
    if fmt == "json":
        d = json.loads((out_dir / "modes.json").read_text())
        assert [f["name"] for f in d["schema"]["fields"]] == ["mode", "frequency_hz", "eigenvalue", "stable",
                                                             "frequency_hz_without_kc"]
        np.testing.assert_allclose(d["data"][0]["frequency_hz"], hz((K + MASS * G * D) / I_AXIS), rtol=1e-9)
    elif fmt == "parquet":
        import pandas as pd

        df = pd.read_parquet(out_dir / "modes.parquet")
        np.testing.assert_allclose(df["frequency_hz_without_kc"], [hz(K / I_AXIS)], rtol=1e-9)
    fold = out_dir / "modes.fold"
    assert frame_count(fold) == 1 + 6                       # the structure, then one cycle of 6 frames
    frames = json.loads(fold.read_text())["file_frames"]
    assert frames[0]["frame_title"] == f"mode 1: {hz((K + MASS * G * D) / I_AXIS):.6g} Hz, frame 1 of 6"
    X = np.array([f["vertices_coords"] for f in frames])
    # the hinge line and panel 1 stay; panel 2's free edge swings along y and back (one cycle)
    np.testing.assert_allclose(X[:, :4], np.broadcast_to(X[0, :4], X[:, :4].shape), atol=1e-12)
    y = X[:, 4, 1]
    assert y[0] > 0 and y[3] == pytest.approx(-y[0], rel=1e-12) and abs(y[0]) == pytest.approx(0.1 * np.sqrt(5))
    assert (tmp_path / "modes.png").stat().st_size > 0


@pytest.mark.parametrize("argv, says", [
    (["--modes", "0"], "argument --modes: must be at least 1, got 0"),
    (["--crease-stiffness", "-1"], "argument --crease-stiffness: expected a number >= 0, got '-1'"),
    (["--slide-stiffness", "-1e-3"], "argument --slide-stiffness: expected a number >= 0, got '-1e-3'"),
    (["--no-kc", "--compare-kc"], "argument --compare-kc: not allowed with argument --no-kc"),
    (["--thickness", "0"], "error: door panel: the panels have no mass (no panel has a thickness): give --thickness T"),
    (["--density", "0"], "error: door panel: the panels have no mass (the density is 0): give --density RHO"),
])
def test_bad_input_is_one_line_and_exit_2(argv, says, tmp_path, capsys):
    code, out, err = run(capsys, "modal", door_file(tmp_path), "--engine", "reference", *SUPPORTS, *argv)
    assert code == 2 and len(err.splitlines()) == 1 and says in err, err


def test_a_file_without_thickness_says_to_give_it(tmp_path, capsys):
    code, out, err = run(capsys, "modal", door_file(tmp_path, thickness=0.0, density=0.0), "--engine", "reference")
    assert code == 2
    assert err == ("error: door panel: the panels have no mass (no panel has a thickness; the density is 0): give "
                   "--thickness T and --density RHO (a modal analysis needs thickness x density x area)\n")


def test_the_results_page_has_every_mode_cycle_and_a_list_with_the_frequencies(tmp_path, capsys):
    import base64
    import re

    page = tmp_path / "modes.html"
    code, out, err = run(capsys, "modal", door_file(tmp_path), "--engine", "reference", *SUPPORTS, "--self-weight",
                         "--crease-stiffness", K, "--compare-kc", "--frames", 6, "--out", tmp_path / "out",
                         "--html", page)
    assert code == 0, err
    assert f"results page written to {page}" in out
    m = re.search(r'<script type="application/json" id="data">(.*?)</script>', page.read_text(), re.S)
    data = json.loads(m.group(1))
    f, f0 = hz((K + MASS * G * D) / I_AXIS), hz(K / I_AXIS)
    assert data["kind"] == "modal" and data["modes"] == [
        {"label": f"mode 1: {f:.6g} Hz ({f0:.6g} Hz without Kc)", "start": 0, "n": 6}]
    assert len(data["states"]) == 6 and data["states"][2]["label"].endswith("frame 3 of 6")
    # each state's vertices are the frames of modes.fold (float32, as drawn)
    frames = json.loads((tmp_path / "out" / "modes.fold").read_text())["file_frames"]
    for state, frame in zip(data["states"], frames):
        X = np.frombuffer(base64.b64decode(state["vertices"]), "<f4").reshape(-1, 3)
        np.testing.assert_array_equal(X, np.asarray(frame["vertices_coords"], np.float32))
    (table,) = data["tables"]
    assert table["header"] == ["mode", "frequency_hz", "eigenvalue", "stable", "frequency_hz_without_kc"]
    row = np.frombuffer(base64.b64decode(table["data"]), "<f8")
    np.testing.assert_allclose(row[[1, 4]], [f, f0], rtol=1e-9)
    assert data["counts"]["Kc"] == "compared" and data["counts"]["zero modes"] == 0


def test_loads_on_redundant_constraints_leave_kc_undetermined_exit_3(tmp_path, capsys):
    """An all-door Miura patch has self-stress states (S > 0): the multipliers that carry its weight, and so Kc,
    are one choice of many; the command refuses in one line, exit 3 (not determined), as static does."""
    from chrono_origami.patterns import miura

    path = tmp_path / "patch.fold"
    write_fold(miura.miura_patch(2, 2), path)
    code, out, err = run(capsys, "modal", path, "--engine", "reference", "--support", "min-x:xyz", "--self-weight",
                         "--thickness", H, "--density", RHO, "--crease-stiffness", K)
    assert code == 3
    assert err == ("error: Miura-ori patch 2 x 2: 5 redundant constraints (self-stress states) carry the loads, so "
                   "their multipliers, and Kc, are not determined by them; design FILE makes hinges sliding for "
                   "S = 0\n")


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("k", [2.0, 60.0])
def test_a_standing_panel_is_an_inverted_pendulum_unstable_below_m_g_d(engine, k, tmp_path, capsys):
    """Panel 2 held, panel 1 standing on the hinge above it: w^2 = (k - m g d) / I_axis with Kc, a divergence
    (eigenvalue w^2 < 0, frequency 0, not stable) when the spring is weaker than m g d = 49.05 N m/rad."""
    code, out, err = run(capsys, "modal", door_file(tmp_path), "--engine", engine, "--support", "5:xyz",
                         "--support", "6:yz", "--support", "2:y:p2", "--self-weight", "--crease-stiffness", k,
                         "--compare-kc", "--out", tmp_path / "out")
    assert code == 0, err
    (row,) = read_rows(tmp_path / "out" / "modes.csv")
    w2 = (k - MASS * G * D) / I_AXIS
    np.testing.assert_allclose(float(row["eigenvalue"]), w2, rtol=RTOL[engine])
    np.testing.assert_allclose(float(row["frequency_hz"]), hz(w2) if w2 > 0 else 0.0, rtol=RTOL[engine])
    np.testing.assert_allclose(float(row["frequency_hz_without_kc"]), hz(k / I_AXIS), rtol=RTOL[engine])
    assert row["stable"] == ("true" if w2 > 0 else "false")
    assert ("unstable: 1 with Kc, 0 without" in out) == (w2 < 0)


def test_the_hanging_panel_closed_form_holds_for_any_spring_thickness_density_and_gravity():
    """Hypothesis: over springs, thicknesses, densities and gravities spanning decades, the reference engine's
    frequency with Kc is sqrt((k + m g d) / I_axis) / 2 pi and without Kc sqrt(k / I_axis) / 2 pi, m = rho h,
    I_axis = m ((1 + h^2) / 12 + d^2)."""
    hypothesis = pytest.importorskip("hypothesis", reason="hypothesis is not installed (pip install -e '.[test]')")
    from hypothesis import given, settings, strategies as st

    decades = st.floats(-3, 3).map(lambda e: 10.0 ** e)

    @settings(max_examples=25, deadline=None)
    @given(k=decades, h=st.floats(1e-3, 0.2), rho=decades, g=st.floats(0.0, 30.0))
    def check(k, h, rho, g):
        s = door_panel(thickness=h, density=rho)
        s = Structure(s.pattern, s.hinge_kinds, h, rho, s.supports, gravity=(0, -g, 0) if g else None)
        r = co.modal(s, "reference", crease_stiffness=k, kc="compare")
        m = rho * h
        I_axis = m * ((1 + h * h) / 12 + D * D)
        np.testing.assert_allclose(r.frequencies_hz, [hz((k + m * g * D) / I_axis)], rtol=1e-9)
        np.testing.assert_allclose(r.without_kc.frequencies_hz, [hz(k / I_axis)], rtol=1e-9)

    assert hypothesis
    check()


@pytest.mark.chrono
def test_the_manuals_modes_walk_prints_what_it_quotes(tmp_path):
    """The manual's "Modes of your structure" block, run as written in a fresh folder: the scene writes its
    cantilever's mode to m.fold, and ``modal`` on that file's frame 0 prints the quoted Kc comparison."""
    import shlex
    import subprocess
    import sys

    from readme_blocks import assert_quoted_lines_printed, code_block

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    steps = code_block("Modes of your structure")
    assert [c.split()[1] for c, _ in steps] == ["scenes/miura_modes.py", "-m"]
    for command, quoted in steps:
        argv = shlex.split(command)
        argv = [sys.executable] + [os.path.join(root, a) if a.startswith("scenes/") else a for a in argv[1:]]
        done = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, (command, done.stderr)
        assert_quoted_lines_printed(command, quoted, done.stdout + done.stderr)
    assert (tmp_path / "m" / "modes.csv").exists()

