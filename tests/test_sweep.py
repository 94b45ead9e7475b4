"""Parametric sweeps in this process: the spec (keys, lines, grid and random cases, ids), each case's numbers
against the analyses they come from (and the paper's Table 12), the output folder (parts written whole, the
table in case order, CSV digits, resume, retry), the figures, the progress bar and bad input through the
command line (one line, exit 2). The Dask runs (a real scheduler and workers, faults) are in test_sweep_dask.py.
"""
import csv
import io
import math
import os
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import chrono_origami as co
from chrono_origami.analysis import sweep as sweeps
from chrono_origami.analysis import tolerance as tl
from chrono_origami.inputs import sweep as sweepspec
from chrono_origami.structure import tolerance as imp
from chrono_origami.tools import cluster
from chrono_origami.tools.errors import SchedulerError, SpecError
from chrono_origami.cli import app, main
from chrono_origami.analysis.design import _evaluate
from chrono_origami.tools.linalg import RANK_RTOL
from chrono_origami.report import sweep as rep
from cli_output import run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data")

SMALL = """\
# a small sweep: door against isostatic Miura-ori sheets, and a Kresling tower
[sweep]
seed = 3

[[pattern]]
family = "miura"
rows = 2
columns = [2, 3]
fold_angle = {min = 30.0, max = 60.0, steps = 2}

[[pattern]]
family = "kresling"
modules = 2

[design]
designs = ["door", "isostatic"]
max_ranked = 2

[tolerance]
tol = 1e-4
samples = 4
"""


def write(tmp_path, text, name="spec.toml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return str(path)


def cli(*args, timeout=120, env=None):
    """Run the command line in a child process: (exit code, stdout, stderr)."""
    e = dict(os.environ, PYTHONPATH=ROOT, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    e.update(env or {})
    p = subprocess.run([sys.executable, "-m", "chrono_origami", *args], capture_output=True, text=True,
                       timeout=timeout, env=e)
    return p.returncode, p.stdout, p.stderr


def same(a, b):
    return a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b))


def without_time(rows):
    return [{k: v for k, v in r.items() if k not in sweeps.TIMING_COLUMNS} for r in rows]


# ------------------------------------------------------------------ the spec
def test_grid_cases_their_order_and_values(tmp_path):
    spec = sweepspec.read_spec(write(tmp_path, SMALL))
    # miura: 2 columns x 2 fold angles, kresling: 1 geometry; one load case (the family's); designs innermost
    assert len(spec.cases) == (2 * 2 + 1) * 2
    got = [(c.params["family"], c.params["columns"], c.params["fold_angle"], c.params["design"]) for c in spec.cases]
    assert got[:4] == [("miura", 2, 30.0, "door"), ("miura", 2, 30.0, "isostatic"), ("miura", 2, 60.0, "door"),
                       ("miura", 2, 60.0, "isostatic")]
    assert got[-2:] == [("kresling", None, None, "door"), ("kresling", None, None, "isostatic")]
    assert [c.number for c in spec.cases] == list(range(1, 11))
    c = spec.cases[0]
    # defaults filled in and the tolerances in effect written out
    assert (c.params["rows"], c.params["sector_angle"], c.params["supports"]) == (2, 60.0, "cantilever")
    assert c.params["offset"] == c.params["tilt"] == c.params["vertex"] == c.params["position"] == 1e-4
    assert (c.params["seed"], c.params["engine"], c.params["load_case"]) == (3, "reference", "family")
    assert len({c.id for c in spec.cases}) == len(spec.cases)


def test_ranges_of_integers_and_logarithmic_steps():
    spec = sweepspec.make_spec({"pattern": {"family": "miura", "columns": {"min": 2, "max": 4}},
                                "design": {"designs": ["door"]},
                                "tolerance": {"tol": {"min": 1e-5, "max": 1e-3, "steps": 3, "log": True}}})
    assert [c.params["columns"] for c in spec.cases] == [2, 2, 2, 3, 3, 3, 4, 4, 4]
    np.testing.assert_allclose([c.params["tol"] for c in spec.cases[:3]], [1e-5, 1e-4, 1e-3], rtol=1e-14)


def test_case_ids_are_stable_and_follow_what_changes_the_numbers():
    base = {"pattern": {"family": "miura", "columns": 3}, "design": {"designs": ["door"]}}
    a = sweepspec.make_spec(base).cases[0]
    # the identity of this case is pinned: a change here makes every user's finished sweep run again (version 2:
    # the crease stiffness k_c, and loads on mechanisms carried by crease springs, changed the numbers)
    assert a.id == sweepspec.case_id(a.params, a.options)
    assert a.id == "15ec43a4f181a816"
    assert sweepspec.make_spec(base).cases[0].id == a.id
    # an explicit default, or offset given equal to tol, is the same case
    same_case = {"pattern": {"family": "miura", "columns": 3, "rows": 2}, "design": {"designs": ["door"]},
                 "tolerance": {"tol": 1e-4, "offset": 1e-4}}
    assert sweepspec.make_spec(same_case).cases[0].id == a.id
    for change in ({"sweep": {"seed": 1}}, {"tolerance": {"samples": 2}}, {"stiffness": {"rotational": 2e7}},
                   {"loads": {"heavy": {"kind": "family", "scale": 2.0}}}):
        assert sweepspec.make_spec({**base, **change}).cases[0].id != a.id, change
    iso = sweepspec.make_spec({**base, "design": {"designs": ["isostatic"]}}).cases[0]
    iso2 = sweepspec.make_spec({**base, "design": {"designs": ["isostatic"], "max_ranked": 3}}).cases[0]
    assert len({a.id, iso.id, iso2.id}) == 3


def test_random_draws_are_seeded_bounded_and_independent_of_the_sample_count():
    def spec(samples):
        return sweepspec.make_spec({"sweep": {"mode": "random", "samples": samples, "seed": 7},
                                    "pattern": {"family": "miura", "columns": {"min": 2, "max": 9},
                                                "sector_angle": {"min": 40.0, "max": 70.0},
                                                "fold_angle": [20.0, 50.0, 80.0]},
                                    "tolerance": {"tol": {"min": 1e-5, "max": 1e-3, "log": True}}})
    five, eight = spec(5), spec(8)
    assert len(eight.cases) == 8 * 2                                   # every draw runs door and isostatic
    assert [c.id for c in eight.cases[:10]] == [c.id for c in five.cases]
    draws = eight.cases[::2]
    assert [c.params["seed"] for c in draws] == [7 + k for k in range(8)]
    assert all(2 <= c.params["columns"] <= 9 and isinstance(c.params["columns"], int) for c in draws)
    assert all(40.0 <= c.params["sector_angle"] <= 70.0 for c in draws)
    assert {c.params["fold_angle"] for c in draws} <= {20.0, 50.0, 80.0}
    assert all(1e-5 <= c.params["tol"] <= 1e-3 for c in draws)
    assert len({c.params["sector_angle"] for c in draws}) == 8
    assert eight.cases[0].params["design"] == "door" and eight.cases[1].params["design"] == "isostatic"
    assert eight.cases[0].params["sector_angle"] == eight.cases[1].params["sector_angle"]


def test_key_line_finds_keys_in_array_tables_sub_tables_and_inline_tables():
    text = textwrap.dedent("""\
        [sweep]
        seed = 1
        [[pattern]]
        family = "miura"
        rows = 2
        [[pattern]]
        family = "kresling"
        modules = 3
        [loads]
        tip = { kind = "family", scale = 2.0 }
        [loads.heavy]
        kind = "gravity"
        [design.sliding]
        mine = [1, 2]
        """)
    assert sweepspec.key_line(text, ("sweep",), "seed") == 2
    assert sweepspec.key_line(text, ("pattern", 1), "modules") == 8
    assert sweepspec.key_line(text, ("pattern", 0), "rows") == 5
    assert sweepspec.key_line(text, ("pattern", 1), "rows") is None
    assert sweepspec.key_line(text, ("loads", "tip"), "scale") == 10
    assert sweepspec.key_line(text, ("loads", "heavy"), "kind") == 12
    assert sweepspec.key_line(text, ("design", "sliding"), "mine") == 14
    assert sweepspec.key_line(text, ("loads", "heavy")) == 11


@pytest.mark.parametrize("text, message", [
    ("[[pattern]]\nfamily = 'miura'\ncolums = 3\n",
     r"spec.toml line 3: unknown key 'colums' in \[\[pattern\]\] table 1 \(family miura\) \(did you mean 'columns'\?\)"),
    ("[[pattern]]\nfamily = 'miura'\n[[pattern]]\nfamily = 'kresling'\ntwist = 10.0\nrows = 3\n",
     r"spec.toml line 6: unknown key 'rows' in \[\[pattern\]\] table 2 \(family kresling\)"),
    ("[pattern]\nfamily = 'miura'\n[tolerance]\ntol = 1e-4\ndistrbution = 'normal'\n",
     r"spec.toml line 5: unknown key 'distrbution' in \[tolerance\] \(did you mean 'distribution'\?\)"),
    ("[pattern]\nfamily = 'miura'\n[tolerances]\ntol = 1e-4\n",
     r"spec.toml line 3: unknown key 'tolerances' in the top level \(did you mean 'tolerance'\?\)"),
    ("[pattern]\nfamily = 'miura'\n[loads.tip]\nkind = 'family'\nfactor = 2\n",
     r"spec.toml line 5: unknown key 'factor' in \[loads.tip\]"),
    ("[pattern]\nfamily = 'miura'\n[design]\nmax_rank = 3\n",
     r"spec.toml line 4: unknown key 'max_rank' in \[design\] \(did you mean 'max_ranked'\?\)"),
    ("[pattern]\nfamily = 'miura'\n[tolerance]\ntol = -1e-4\n",
     r"spec.toml line 4: \[tolerance\] tol must be a finite number >= 0, got -0.0001"),
    ("[pattern]\nfamily = 'miura'\n[tolerance]\ntol = nan\n",
     r"spec.toml line 4: \[tolerance\] tol must be a finite number >= 0, got nan"),
    ("[pattern]\nfamily = 'miura'\n[tolerance]\ntol = [1e-4, -2e-3]\n",
     r"spec.toml line 4: \[tolerance\] tol must be a finite number >= 0, got -0.002"),
    ("[pattern]\nfamily = 'miura'\n[tolerance]\nvertex = {min = 0.0, max = nan, steps = 2}\n",
     r"spec.toml line 4: \[tolerance\] vertex must be a finite number >= 0, got nan"),
    ("[pattern]\nfamily = 'miura'\nsector_angle = 95.0\n",
     r"spec.toml line 3: \[pattern\] sector_angle must be a finite number > 0 and < 90, got 95.0"),
    ("[pattern]\nfamily = 'miura'\nrows = 1\n",
     r"spec.toml line 3: \[pattern\] \(family miura\): the cantilever supports need rows >= 2"),
    ("[pattern]\nfamily = 'origami'\n", r"spec.toml line 2: \[pattern\]: unknown family 'origami'"),
    ("[pattern]\nfamily = 'miura'\n[design]\ndesigns = ['door', 'best']\n",
     r"spec.toml line 4: \[design\] designs: unknown design 'best'"),
    ("[sweep]\nmode = 'random'\n[pattern]\nfamily = 'miura'\n",
     r"spec.toml line 2: \[sweep\] mode = 'random' needs samples"),
    ("[pattern]\nfamily = 'miura'\ncolumns = 3 4\n", r"spec.toml: not valid TOML: .*\(at line 3, column 13\)"),
    ("[sweep]\nseed = 0\n", r"spec.toml: no \[\[pattern\]\] table"),
])
def test_bad_specs_are_one_line_naming_the_key_its_table_and_line(tmp_path, capsys, text, message):
    path = write(tmp_path, text)
    with pytest.raises(SpecError, match=message.replace("spec.toml", ".*spec.toml")):
        sweepspec.read_spec(path)
    code = main(["sweep", path, "--out", str(tmp_path / "out"), "--scheduler", "serial"])
    err = capsys.readouterr().err
    assert code == app.EXIT_USAGE, err
    assert len(err.strip().splitlines()) == 1 and err.startswith("error: ") and "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_bad_tolerances_and_unknown_keys_through_the_command_line(tmp_path, capsys):
    """The first in a child process, as a user runs it, the others in this process (the same ``main``): one line on
    stderr, exit code 2."""
    for k, (text, message) in enumerate((("[pattern]\nfamily = 'miura'\n[tolerance]\ntol = -1e-4\n",
                           "spec.toml line 4: [tolerance] tol must be a finite number >= 0, got -0.0001"),
                          ("[pattern]\nfamily = 'miura'\n[tolerance]\ntol = nan\n",
                           "spec.toml line 4: [tolerance] tol must be a finite number >= 0, got nan"),
                          ("[[pattern]]\nfamily = 'miura'\ncolums = 3\n",
                           "spec.toml line 3: unknown key 'colums' in [[pattern]] table 1 (family miura)"))):
        argv = ("sweep", write(tmp_path, text), "--out", str(tmp_path / "out"))
        code, _, err = cli(*argv) if k == 0 else run(capsys, *argv)
        assert code == app.EXIT_USAGE and message in err and len(err.splitlines()) == 1, err


def test_a_spec_as_a_dict_names_keys_without_lines():
    with pytest.raises(SpecError, match=r"^spec: unknown key 'colour' in \[\[pattern\]\] table 1"):
        sweepspec.make_spec({"pattern": [{"family": "miura", "colour": "red"}]})


# ------------------------------------------------------------------ what a case computes
def _case(**pattern):
    design = pattern.pop("design", "door")
    tol = pattern.pop("tolerance", {"tol": 1e-4})
    loads = pattern.pop("loads", None)
    stiffness = pattern.pop("stiffness", None)
    data = {"pattern": pattern, "design": {"designs": [design], "max_ranked": 2}, "tolerance": tol}
    if loads:
        data["loads"] = loads
    if stiffness:
        data["stiffness"] = stiffness
    return sweepspec.make_spec(data).cases[0]


def test_a_door_case_equals_the_analyses_it_comes_from():
    case = _case(family="miura", rows=2, columns=3, fold_angle=40.0, tolerance={"tol": 2e-4, "samples": 6})
    row = sweeps.run_case(case)
    assert row["error"] is None
    st = sweepspec.case_structure(case)
    counts = co.count(st)
    assert (row["M"], row["S"], row["panels"], row["hinges"], row["sliding"]) == (counts.M, counts.S, 6, 7, 0)
    assert row["S"] == 6 and row["statics"] == "elastic"
    # the condition number is the design ranking's metric
    assert row["condition"] == pytest.approx(_evaluate(st, (), RANK_RTOL).condition, rel=1e-12)
    # the locked-in columns are the tolerance analysis's summary
    spec = imp.ToleranceSpec(2e-4, seed=case.params["seed"])
    expected = tl.summary(tl.locked_in_statistics(st, spec, imp.HingeStiffness()))
    for k, v in expected.items():
        assert row[k] == pytest.approx(v, rel=1e-12, abs=1e-300), k
    mc = tl.summary(tl.monte_carlo(st, spec, 6, engine="reference", seed=case.params["seed"]))
    assert row["locked_max_p99_N"] == pytest.approx(mc["locked_max_p99_N"], rel=1e-12)
    assert row["mc_samples"] == 6 and row["locked_p99_N"] > 1e3       # a 0.2 mm misfit on 1 m panels
    # forces under the tip load, elastic hinges: the total answer with no misfit, in equilibrium
    zero = imp.Errors(np.zeros((7, 2, 5)), np.zeros((len(imp.vertex_slots(st.pattern)), 3)))
    res = tl.locked_in(st, errors=zero, engine="reference", loads=True)
    vals = np.abs(tl.side_values(st, res)).reshape(-1, 6)
    assert row["max_N"] == pytest.approx(vals[:, tl.COMPONENTS.index("N")].max(), rel=1e-12)
    assert row["max_MO"] == pytest.approx(vals[:, tl.COMPONENTS.index("MO")].max(), rel=1e-12)
    assert res.info["equilibrium_residual"] < 1e-10


def test_an_isostatic_case_locks_in_nothing_and_carries_its_loads_by_equilibrium():
    case = _case(family="miura", rows=2, columns=3, fold_angle=40.0, design="isostatic")
    row = sweeps.run_case(case)
    assert (row["M"], row["S"], row["statics"]) == (0, 0, "rigid")
    assert row["sliding"] == 6 and row["sliding_hinges"] == "1 2 3 4 5 6"
    assert all(row[f"locked_{s}_{c}"] == 0.0 for s in ("sd", "p95", "p99") for c in sweeps.COMPONENTS)
    st = sweepspec.case_structure(case).with_hinge_kinds(["sliding"] * 6 + ["door"])
    res = co.static(st)
    vals = np.abs(tl.side_values(st, res)).reshape(-1, 6)
    for c in ("N", "TP", "TO", "MT", "MO"):
        assert row[f"max_{c}"] == pytest.approx(vals[:, tl.COMPONENTS.index(c)].max(), rel=1e-12), c


def test_the_kresling_tower_own_design_gives_the_paper_table12_extremes():
    """The paper's two-module tower (door module 1, Fig. 9a) under its top loads: the largest |N|, |TP|, |TO|,
    |MO| of the row are Table 12's (its five hinges stand for all by the three-fold symmetry, each on one side;
    MT is larger on the sides the table does not print)."""
    row = sweeps.run_case(_case(family="kresling", modules=2, twist=20.0, design="own", tolerance={"tol": 0.0}))
    with open(os.path.join(DATA, "table12_kresling_two_module_hinge_actions.csv")) as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    for c in ("N", "TP", "TO", "MO"):
        paper = max(abs(float(r[c])) for r in rows)
        assert row[f"max_{c}"] == pytest.approx(paper, rel=1e-4), c
    assert row["max_MT"] >= max(abs(float(r["MT"])) for r in rows)
    assert (row["M"], row["S"], row["statics"], row["sliding"]) == (0, 0, "rigid", 9)


def test_load_cases_none_gravity_points_and_a_mechanism():
    base = dict(family="miura", rows=2, columns=2, fold_angle=45.0, thickness=0.01, density=1000.0)
    none = sweeps.run_case(_case(**base, loads={"empty": {"kind": "none"}}))
    assert none["statics"] == "none" and none["max_N"] == 0.0
    weight = sweeps.run_case(_case(**base, design="isostatic", loads={"w": {"kind": "gravity"}}))
    assert weight["statics"] == "rigid" and weight["max_N"] > 0
    heavier = sweeps.run_case(_case(**dict(base, thickness=0.02), design="isostatic",
                                    loads={"w": {"kind": "gravity"}}))
    assert heavier["max_N"] == pytest.approx(2 * weight["max_N"], rel=1e-12)       # weight ~ thickness
    pts = sweeps.run_case(_case(**base, design="isostatic", loads={"p": {"kind": "points", "points": [
        {"vertex": 2, "force": [0.0, 0.0, -1.0]}]}}))
    tip = sweeps.run_case(_case(**base, design="isostatic"))
    for c in sweeps.COMPONENTS:         # the family load is that unit force at vertex 2 (0-based 1), shared
        assert pts[f"max_{c}"] == pytest.approx(tip[f"max_{c}"], rel=1e-12)
    # a free sheet has a mechanism: a balanced load that works on it is carried by the crease springs (k_c), with
    # a displacement inversely proportional to them; unbalanced loads on it are not carried
    from chrono_origami.patterns.miura import miura_vertices

    X = miura_vertices(2, 2)                            # the family's default angles; vertices 1 and 9 (1-based)
    d = (X[8] - X[0]).tolist()
    pair = {"p": {"kind": "points", "points": [{"vertex": 1, "force": [-x for x in d]},   # pulled apart: balanced
                                               {"vertex": 9, "force": d}]}}
    free = sweeps.run_case(_case(family="miura", rows=2, columns=2, supports="none", design="own", loads=pair))
    assert free["M"] == 1 and free["statics"] == "elastic" and free["max_N"] > 0
    assert free["error"] is None and free["locked_p99_N"] > 0 and free["k_c"] == 1.0
    assert free["displacement_rel"] > 1e-3 and free["stiffness_sensitivity"] > 0
    stiff = sweeps.run_case(_case(family="miura", rows=2, columns=2, supports="none", design="own", loads=pair,
                                  stiffness={"crease": 10.0}))
    assert stiff["displacement_rel"] == pytest.approx(free["displacement_rel"] / 10, rel=1e-3)
    one = {"p": {"kind": "points", "points": [{"vertex": 1, "force": [0, 0, 1.0]}]}}
    pushed = sweeps.run_case(_case(family="miura", rows=2, columns=2, supports="none", design="own", loads=one))
    assert pushed["statics"] == "not carried" and math.isnan(pushed["max_N"])


def test_a_failed_case_is_one_line_in_its_row():
    spec = sweepspec.make_spec({"pattern": {"family": "miura", "columns": [2, 4]},
                                "design": {"sliding": {"mine": [9]}, "designs": ["mine"]}})
    rows = [sweeps.run_case(c) for c in spec.cases]
    assert rows[0]["error"] == "design 'mine': hinge 9 does not exist (4 hinges)"
    assert rows[0]["M"] is None and rows[0]["columns"] == 2 and rows[0]["wall_s"] >= 0
    assert rows[1]["error"] is None and rows[1]["sliding_hinges"] == "9"


# ------------------------------------------------------------------ the output folder
def test_sweep_writes_the_table_in_case_order_with_every_digit(tmp_path):
    out = tmp_path / "out"
    res = co.sweep(write(tmp_path, SMALL), out=str(out), scheduler="serial",
                   plots=["x=fold_angle,y=locked_p99_N", "x=design,y=condition,log=y"])
    assert res.complete and res.ran == 10 and res.failed == 0
    table = rep.read_table(str(out))
    assert [r["case"] for r in table] == list(range(1, 11))
    assert without_time(table) == without_time(res.rows)
    assert [r["case_id"] for r in table] == [c.id for c in res.spec.cases]
    # the CSV reads back to the Parquet values (every digit); an empty cell is a value not computed
    with open(out / "results.csv") as f:
        csv_rows = list(csv.DictReader(f))
    kinds = dict(sweeps.COLUMNS)
    for r, c in zip(table, csv_rows):
        for k, v in r.items():
            text = c[k]
            if v is None:
                assert text == "", k
            elif kinds[k] == "float":
                assert same(float(text), v), k
            elif kinds[k] == "int":
                assert int(text) == v, k
            else:
                assert text == v, k
    assert {r["design"]: r["locked_p99_N"] == 0.0 for r in table} == {"door": False, "isostatic": True}
    for name in ("locked_distribution.png", "plot_locked_p99_N_vs_fold_angle.png", "plot_condition_vs_design.png"):
        assert (out / name).stat().st_size > 5000
    assert res.table.num_rows == 10 and res.table.schema.field("M").type == "int64"


def test_a_sweep_run_again_skips_finished_cases_and_retries_failed_ones_on_request(tmp_path):
    out = str(tmp_path / "out")
    first = {"pattern": {"family": "miura", "columns": [2, 3]},
             "design": {"designs": ["door", "mine"], "sliding": {"mine": [1, 2, 3, 4, 5, 6]}}}
    r1 = co.sweep(first, out=out, scheduler="serial")
    assert (r1.ran, r1.failed) == (4, 1)                   # the 2-column sheet has 4 hinges: 'mine' fails there
    def parts():
        folder = os.path.join(out, "parts")
        return {name: open(os.path.join(folder, name), "rb").read() for name in sorted(os.listdir(folder))}

    before = parts()
    bigger = dict(first, pattern={"family": "miura", "columns": [2, 3, 4]})
    r2 = co.sweep(bigger, out=out, scheduler="serial")
    assert (r2.ran, r2.skipped) == (2, 4)
    after = parts()
    assert {k: after[k] for k in before} == before and len(after) > len(before)   # parts are never rewritten
    assert list(after)[:len(before)] == list(before)                                # and sort in the order written
    assert [r["columns"] for r in rep.read_table(out)] == [2, 2, 3, 3, 4, 4]
    old = {r["case_id"]: r for r in r1.rows}
    for r in r2.rows[:4]:
        assert without_time([r]) == without_time([old[r["case_id"]]])
        assert r["wall_s"] == old[r["case_id"]]["wall_s"]                  # not recomputed
    r3 = co.sweep(bigger, out=out, scheduler="serial", retry_failed=True)
    assert (r3.ran, r3.skipped, r3.failed) == (1, 5, 1)
    # the smaller spec again: its table holds its own cases only; the others stay in parts/
    r4 = co.sweep(first, out=out, scheduler="serial")
    assert r4.ran == 0 and len(rep.read_table(out)) == 4


def test_torn_and_damaged_part_files_are_ignored_and_their_cases_run_again(tmp_path, capsys):
    out = tmp_path / "out"
    spec = {"pattern": {"family": "miura", "columns": [2, 3]}, "design": {"designs": ["door"]}}
    co.sweep(spec, out=str(out), scheduler="serial", flush=0)
    parts = sorted((out / "parts").glob("part-*.parquet"))
    assert len(parts) == 2                             # flush=0: one part per finished case
    # a write that was killed half-way leaves a hidden temporary file; a damaged part has garbage
    torn = out / "parts" / ".part-x-000009.parquet.123.tmp"
    torn.write_bytes(parts[0].read_bytes()[:100])
    parts[1].write_bytes(b"PAR1 not really parquet")
    messages = []
    res = co.sweep(spec, out=str(out), scheduler="serial", echo=lambda *a, **k: messages.append(" ".join(a)))
    assert not torn.exists()
    assert res.ran == 1 and res.skipped == 1 and res.complete
    assert any("unreadable part file ignored" in m and parts[1].name in m for m in messages)


def test_a_second_sweep_on_the_same_folder_is_refused(tmp_path, capsys):
    """The lock held through another open file (flock: another open file description, refused in this process too)."""
    import fcntl

    out = tmp_path / "out"
    out.mkdir()
    fd = os.open(out / ".lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        code, _, err = run(capsys, "sweep", write(tmp_path, SMALL), "--out", str(out), "--scheduler", "serial")
    finally:
        os.close(fd)
    assert code == app.EXIT_USAGE and "is in use by another sweep" in err and len(err.splitlines()) == 1


def test_progress_bar_on_a_terminal_only(tmp_path, monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    spec = {"pattern": {"family": "miura", "columns": 2}, "design": {"designs": ["door", "isostatic"]}}
    tty, pipe = Terminal(), io.StringIO()
    monkeypatch.setattr(sys, "stderr", pipe)
    co.sweep(spec, scheduler="serial")
    assert pipe.getvalue() == ""
    monkeypatch.setattr(sys, "stderr", tty)
    co.sweep(spec, scheduler="serial")
    assert "sweep [" in tty.getvalue() and "2 / 2 cases" in tty.getvalue()


# ------------------------------------------------------------------ the command line
def test_sweep_command_end_to_end_and_again(tmp_path, capsys):
    """The first run in a child process, as a user runs it; run again and dry, in this process (the same ``main``)."""
    spec = write(tmp_path, SMALL)
    out = str(tmp_path / "out")
    code, stdout, err = cli("sweep", spec, "--out", out, "--scheduler", "serial", "--plot", "x=columns,y=max_N")
    assert code == 0, err
    assert "10 cases (grid); 0 already in" in stdout and "10 of 10 cases in the table" in stdout
    code, stdout, err = run(capsys, "sweep", spec, "--out", out, "--scheduler", "serial")
    assert code == 0 and "10 already in" in stdout and "0 to run" in stdout and "(0 run now, 10 already done)" in stdout
    code, stdout, _ = run(capsys, "sweep", spec, "--out", out, "--dry-run")
    assert code == 0 and "10 cases (grid); designs: door, isostatic; load cases: family" in stdout


@pytest.mark.parametrize("args, message", [
    (["--plot", "x=fold,y=locked_p99_N"], "--plot: x='fold' is not a column of the table (did you mean 'fold_angle'?)"),
    (["--plot", "x=fold_angle,y=design"], "y='design' is a text column"),
    (["--scheduler", "udp"], "scheduler 'udp': expected 'local', 'serial' or an address"),
])
def test_bad_options_are_one_line(tmp_path, capsys, args, message):
    code, _, err = run(capsys, "sweep", write(tmp_path, SMALL), "--out", str(tmp_path / "o"), *args)
    assert code == app.EXIT_USAGE and message in err and len(err.splitlines()) == 1


def test_an_unreachable_scheduler_is_named_after_a_bounded_wait(tmp_path):
    import socket

    with socket.socket() as s:                       # a free port on 127.0.0.1: nothing listens there
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    t0 = time.monotonic()
    code, _, err = cli("sweep", write(tmp_path, SMALL), "--out", str(tmp_path / "o"), "--scheduler", address,
                       "--connect-timeout", "1")                # the option's, not the default's 5 s
    took = time.monotonic() - t0
    assert code == app.EXIT_USAGE, err
    assert err.startswith(f"error: cannot reach the Dask scheduler at {address} within 1 s")
    assert len(err.splitlines()) == 1 and took < 30
    with pytest.raises(SchedulerError, match=f"at {address} within 1 s"):
        co.sweep({"pattern": {"family": "miura"}}, scheduler=address, timeout=1)


def test_missing_spec_file(tmp_path, capsys):
    code, _, err = run(capsys, "sweep", str(tmp_path / "nope.toml"), "--out", str(tmp_path / "o"))
    assert code == app.EXIT_USAGE and "nope.toml: no such sweep spec" in err


def test_the_file_family_reads_its_file_once_and_hashes_its_content(tmp_path):
    from chrono_origami.patterns import kresling

    fold = tmp_path / "tower.fold"
    co.write_fold(kresling.kresling_tower(2, door_module=1), str(fold))
    path = write(tmp_path, """\
        [pattern]
        family = "file"
        path = "tower.fold"
        [design]
        designs = ["own", "door"]
        [tolerance]
        tol = 1e-3
        """)
    spec = sweepspec.read_spec(path)
    rows = [sweeps.run_case(c) for c in spec.cases]
    assert [(r["S"], r["sliding"], r["statics"]) for r in rows] == [(0, 9, "rigid"), (9, 0, "elastic")]
    assert rows[0]["max_N"] == pytest.approx(4.5028829289, rel=1e-9) and rows[1]["locked_p99_N"] > 0
    ids = [c.id for c in spec.cases]
    co.write_fold(kresling.kresling_tower(2, door_module=1, load=2.0), str(fold))
    assert [c.id for c in sweepspec.read_spec(path).cases] != ids          # another file: other cases
    fold.unlink()
    with pytest.raises(SpecError, match=r"line 3: \[pattern\] \(family file\): tower.fold: no such file"):
        sweepspec.read_spec(path)


# ------------------------------------------------------------------ Monte Carlo through an executor
def test_monte_carlo_through_the_executor_map_equals_the_builtin_map():
    from chrono_origami.patterns import miura

    st = miura.miura_cantilever(columns=2).with_hinge_kinds(["door"] * 4)
    spec = imp.ToleranceSpec(1e-4)
    with cluster.executor("serial") as ex:
        a = tl.monte_carlo(st, spec, 8, engine="reference", seed=5, map=ex.map)
    b = tl.monte_carlo(st, spec, 8, engine="reference", seed=5)
    np.testing.assert_array_equal(a.sd, b.sd)
    np.testing.assert_array_equal(a.max_p99, b.max_p99)


def test_tolerance_command_monte_carlo_on_a_scheduler(tmp_path, capsys):
    """In a child process, as a user runs it; the unreachable scheduler in this process (the same ``main``)."""
    from chrono_origami.patterns import miura

    fold = str(tmp_path / "c.fold")
    co.write_fold(miura.miura_cantilever(columns=2).with_hinge_kinds(["door"] * 4), fold)
    code, out, err = cli("tolerance", fold, "--tol", "1e-4", "--samples", "20", "--scheduler", "serial",
                         "--engine", "reference", "--out", str(tmp_path / "t"))
    assert code == 0, err
    assert "Monte Carlo (20, reference)" in out
    code, _, err = run(capsys, "tolerance", fold, "--tol", "1e-4", "--samples", "20", "--scheduler",
                       "tcp://127.0.0.1:1", "--connect-timeout", "1")
    assert code == app.EXIT_USAGE and "cannot reach the Dask scheduler at tcp://127.0.0.1:1 within 1 s" in err


def test_every_spec_key_and_every_column_is_documented():
    text = open(os.path.join(ROOT, "docs", "sweeps.md")).read()
    keys = [p.name for p in sweepspec.SWEEP_KEYS + sweepspec.DESIGN_KEYS + sweepspec.TOLERANCE_PARAMS
            + sweepspec.TOLERANCE_OPTIONS + sweepspec.STIFFNESS_PARAMS]
    keys += [p.name for f in sweepspec.FAMILIES.values() for p in f.params] + list(sweepspec.FAMILIES)
    keys += ["family", "sliding", "kind", "scale", "g", "points"] + list(sweepspec.LOAD_KINDS)
    keys += list(sweepspec.BUILTIN_DESIGNS)
    missing = [k for k in keys if f"`{k}`" not in text and f'`"{k}"`' not in text and f'"{k}"' not in text]
    assert not missing, f"spec keys not in docs/sweeps.md: {missing}"
    columns = [c for c in sweeps.COLUMN_NAMES if f"`{c}`" not in text]
    generic = {f"locked_{s}_{c}" for s in ("sd", "p95", "p99", "max_p95", "max_p99") for c in sweeps.COMPONENTS}
    assert set(columns) <= generic, f"columns not in docs/sweeps.md: {sorted(set(columns) - generic)}"
    assert "`locked_sd_C`, `locked_p95_C`, `locked_p99_C`" in text and "`locked_max_p95_C`" in text


@pytest.mark.parametrize("page, cases", [(os.path.join("docs", "howto", "sweeps.md"), 108), (os.path.join("docs", "sweeps.md"), 120)])
def test_the_example_specs_of_the_readme_and_the_docs_read_and_count_as_they_say(page, cases):
    import re
    import tomllib

    blocks = re.findall(r"^```toml\n(.*?)^```", open(os.path.join(ROOT, page)).read(), re.S | re.M)
    for b in blocks:
        tomllib.loads(b)                              # every block is TOML
    spec = sweepspec.make_spec(tomllib.loads(blocks[0]), source=page, text=blocks[0])
    assert len(spec.cases) == cases


def test_a_family_list_is_refused_with_its_line(tmp_path):
    path = write(tmp_path, "[[pattern]]\nfamily = ['miura', 'kresling']\n")
    with pytest.raises(SpecError, match=r"line 2: \[\[pattern\]\] table 1: family is one name; give each family"):
        sweepspec.read_spec(path)


def test_each_task_runs_with_one_blas_thread_and_says_so_to_the_program():
    """In a process whose BLAS would use every core (no *_NUM_THREADS set), a task sees one BLAS thread and
    CHRONO_ORIGAMI_BLAS_THREADS=1; outside it, both are as they were."""
    code = textwrap.dedent("""\
        import os
        import numpy  # loads BLAS
        from threadpoolctl import threadpool_info
        from chrono_origami.tools import cluster

        def probe(_):
            return max(i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"), \\
                os.environ.get(cluster.BLAS_ENV)

        before = probe(0)
        with cluster.executor("serial") as ex:
            (_, ok, inside), = list(ex.run(probe, [0]))
        print(before[0], before[1], ok, inside[0], inside[1], probe(0)[0], probe(0)[1])
        """)
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS") and k != cluster.BLAS_ENV}
    env["PYTHONPATH"] = ROOT
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert p.returncode == 0, p.stderr
    before, before_env, ok, inside, inside_env, after, after_env = p.stdout.split()
    cores = len(os.sched_getaffinity(0))
    assert int(before) == int(after) >= min(cores, 2) and before_env == after_env == "None"
    assert ok == "True" and int(inside) == 1 and inside_env == "1"


def test_figure_labels_say_what_a_column_is():
    assert rep.describe("locked_p99_N") == "largest 99th percentile of locked-in |N| over hinges [N]"
    assert rep.describe("locked_max_p95_MO") == "95th percentile of the largest locked-in |MO| over hinges [N m]"
    assert rep.describe("max_TP") == "largest |TP| under the load case [N]"
    assert rep.describe("fold_angle") == "fold_angle [deg]" and rep.describe("S") == "S"


# ---------------------------------------------------------- faults of the command (also test_sweep_faults.py)
def test_the_free_sheet_isostatic_design_with_a_mechanism_is_elastic_not_an_error():
    """A free 2 x 2 Miura-ori sheet (supports "none") has one mechanism (its folding motion); its isostatic design
    (3 sliding hinges) has M = 1, S = 0: under gravity the elastic hinges carry the loads (uniform gravity on a
    free sheet strains no hinge: every largest action is 0), not the rigid branch of M = S = 0, and no error."""
    spec = sweepspec.make_spec({"pattern": {"family": "miura", "rows": 2, "columns": 2, "supports": "none"},
                                "design": {"designs": ["isostatic"], "max_ranked": 1},
                                "loads": {"g": {"kind": "gravity"}}})
    (row,) = [sweeps.run_case(c) for c in spec.cases]
    assert row["error"] is None
    assert (row["M"], row["S"], row["sliding"], row["statics"]) == (1, 0, 3, "elastic")
    assert all(row[f"max_{c}"] == 0.0 for c in sweeps.COMPONENTS)
    assert row["locked_p99_N"] == 0.0 and row["method"] == "exact"


@pytest.mark.parametrize("columns, hinge, code, line", [
    ("[2, 3]", 40, app.EXIT_INPUT, "error: all 2 cases failed (case 1: design 'mine': hinge 40 does not exist "
                                   "(4 hinges))"),
    ("[2, 4]", 9, app.EXIT_OK, "warning: 1 of 2 cases failed (case 1: design 'mine': hinge 9 does not exist "
                               "(4 hinges)); --retry-failed runs them again"),
], ids=["all-failed", "some-failed"])
def test_a_sweep_whose_cases_all_fail_exits_1_and_some_failed_is_a_warning(columns, hinge, code, line, tmp_path,
                                                                            capsys):
    """Every case failed (a design hinge that no structure has): one line naming the count and the first error,
    exit 1. Some cases failed (the hinge exists in the larger sheet only): exit 0, a warning line counts them.
    The rows are written all the same."""
    spec = write(tmp_path, f"""\
        [pattern]
        family = "miura"
        columns = {columns}
        [design]
        sliding.mine = [{hinge}]
        designs = ["mine"]
        """, "spec.toml")
    assert main(["sweep", spec, "--out", str(tmp_path / "out"), "--scheduler", "serial"]) == code
    assert capsys.readouterr().err.splitlines()[-1] == line
    assert len(rep.read_table(str(tmp_path / "out"))) == 2


def test_seeds_are_checked_where_they_are_read(tmp_path, capsys):
    """A negative seed is a bad value of the spec (NumPy's generators take seeds >= 0): one line with its line,
    exit 2, before any case runs."""
    path = write(tmp_path, "[sweep]\nseed = -1\n[pattern]\nfamily = 'miura'\n")
    code = main(["sweep", path, "--out", str(tmp_path / "out"), "--scheduler", "serial"])
    err = capsys.readouterr().err
    assert code == app.EXIT_USAGE
    assert err.splitlines()[-1].endswith("spec.toml line 2: [sweep] seed must be an integer >= 0, got -1")
    assert not (tmp_path / "out").exists()
    with pytest.raises(imp.ToleranceError, match="seed must be an integer >= 0, got -1"):
        imp.ToleranceSpec(1e-4, seed=-1)


def test_a_spec_path_that_is_a_folder_is_named_so(tmp_path, capsys):
    code = main(["sweep", str(tmp_path), "--out", str(tmp_path / "out"), "--scheduler", "serial"])
    err = capsys.readouterr().err
    assert code == app.EXIT_USAGE
    assert err.splitlines()[-1] == f"error: {tmp_path} is a directory, not a sweep spec (a TOML file)"


def test_an_unreachable_scheduler_leaves_no_output_folder(tmp_path, capsys):
    """The folder made for the run is removed when the run stops before its first row; a folder that was there
    keeps what it held."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    path = write(tmp_path, SMALL)
    out = tmp_path / "new"
    code = main(["sweep", path, "--out", str(out), "--scheduler", f"tcp://127.0.0.1:{port}", "--connect-timeout",
                 "1"])
    assert code == app.EXIT_USAGE and "cannot reach the Dask scheduler" in capsys.readouterr().err
    assert not out.exists()
    kept = tmp_path / "kept"
    kept.mkdir()
    (kept / "notes.txt").write_text("mine")
    code = main(["sweep", path, "--out", str(kept), "--scheduler", f"tcp://127.0.0.1:{port}", "--connect-timeout",
                 "1"])
    assert code == app.EXIT_USAGE
    assert sorted(os.listdir(kept)) == ["notes.txt"]


def test_a_task_s_own_error_on_a_running_cluster_is_that_error_not_a_lost_scheduler():
    """``Executor.map`` on a local cluster that stays up: a task that raises (``math.sqrt(-1)``: ValueError)
    gives that error to the caller; only a scheduler that went away becomes a SchedulerError."""
    with cluster.executor("local", workers=1) as ex:
        assert ex.map(math.sqrt, [4.0, 9.0]) == [2.0, 3.0]
        with pytest.raises(ValueError, match="math domain error") as got:
            ex.map(math.sqrt, [4.0, -1.0])
    assert type(got.value) is ValueError                # not a SchedulerError (an OrigamiError is a ValueError)
