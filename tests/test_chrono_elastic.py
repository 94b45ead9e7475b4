"""Statics with elastic hinges in Chrono (bushing hinges, Chrono's static solver, residuals checked) against the
reference engine's linear theory; Chrono's geometrically nonlinear solve against the linear one."""
import json
from dataclasses import replace

import numpy as np
import pytest

import chrono_origami as co
from chrono_origami.structure.tolerance import HingeStiffness
from test_elastic import door_pair, miura_sheet, panel_balance, run, strip3, strip_file  # noqa: F401

#: the agreement asked of the two engines, relative to the largest hinge force
AGREE_RTOL = 1e-6


def largest_difference(a, b):
    """Largest difference of the hinge forces and moments (moments over the structure's size) of two results,
    relative to the largest hinge force of ``a``."""
    L = a.structure.pattern.size
    big = max(np.abs(x.force).max() for x in a.hinge_actions)
    dF = max(np.abs(x.force - y.force).max() for x, y in zip(a.hinge_actions, b.hinge_actions))
    dM = max(np.abs(x.moment - y.moment).max() for x, y in zip(a.hinge_actions, b.hinge_actions)) / L
    return max(dF, dM) / big


# crease springs of 1e5 N m/rad per m on the mechanism sheet: Chrono's bushings resolve its soft direction next
# to the 1e8 N/m hinges to 2e-7 (with the default 1 N m/rad per m, the ratio 1e8 leaves 5e-4: the round-off
# floor of tolerance.residual_tolerance)
CASES = [(strip3, HingeStiffness()), (lambda: miura_sheet(2, 3), HingeStiffness(2e8, 5e6, per_kind={})),
         (lambda: miura_sheet(2, 3, stop=False), HingeStiffness(crease=1e5))]


@pytest.mark.parametrize("build, stiffness", CASES, ids=["hyperstatic strip", "Miura sheet", "mechanism sheet"])
def test_chrono_agrees_with_the_reference_engine(build, stiffness):
    st = build()
    ref = co.static(st, engine="reference", elastic=True, stiffness=stiffness, sensitivity=False)
    ch = co.static(st, engine="chrono", elastic=True, stiffness=stiffness, sensitivity=False)
    assert ch.status == "elastic" and (ch.M, ch.S) == (ref.M, ref.S)
    assert ch.info["springs"] == ref.info["springs"] == (ref.M > 0)
    assert largest_difference(ref, ch) < AGREE_RTOL
    np.testing.assert_allclose(ch.info["displacement"], ref.info["displacement"], rtol=1e-5)
    # Chrono's table balances every panel to the agreement (3e-8 to 1.4e-7 measured: stiff bushings on absolute
    # positions, round-off of 1e-16 m against displacements of 1e-8 m), the reference engine's to 1e-9 (test_elastic)
    assert ch.info["equilibrium_residual"] <= ch.info["residual_tolerance"]
    f, m = panel_balance(st, ch)
    big = max(np.abs(a.force).max() for a in ch.hinge_actions)
    assert f <= AGREE_RTOL * big and m <= AGREE_RTOL * big * st.pattern.size


def test_nonlinear_agrees_with_linear_at_small_loads_and_departs_at_large():
    """The mechanism sheet on crease springs of 1e3 N m/rad per m: the loads turn the sheet about its mechanism;
    the nonlinear solve (the loads keep their direction while the panels turn) departs from the linear one in
    proportion to the load: under 1e-4 at a hundredth of the load, over 1e-2 at a thousand times it (a largest
    displacement of about 0.6 % of the size)."""
    base = miura_sheet(2, 3, stop=False)
    k = HingeStiffness(crease=1e3)
    dev = {}
    for factor in (1e-2, 1e3):
        st = replace(base, loads=tuple(replace(ld, force=tuple(factor * np.asarray(ld.force))) for ld in base.loads))
        lin = co.static(st, engine="chrono", elastic=True, stiffness=k, sensitivity=False)
        non = co.static(st, engine="chrono", elastic=True, stiffness=k, sensitivity=False, nonlinear=True)
        assert non.info["nonlinear"] and not lin.info["nonlinear"]
        assert non.info["equilibrium_residual"] <= non.info["residual_tolerance"]
        dev[factor] = largest_difference(lin, non)
    assert dev[1e-2] < 1e-4 and dev[1e3] > 1e-2, dev


def test_static_elastic_on_chrono_from_the_command_line(strip_file, tmp_path):  # noqa: F811
    out = tmp_path / "out"
    p = run("static", strip_file, "--elastic", "--out", out)       # the default engine: Chrono here
    assert p.returncode == 0, p.stderr
    assert "clamped strip (chrono engine, elastic): hinge internal actions" in p.stdout
    counts = json.loads((out / "counts.json").read_text())
    assert counts["status"] == "elastic" and counts["engine"] == "chrono" and counts["S"] == 4
    ref = co.static(strip3(), engine="reference", elastic=True, sensitivity=False)
    rows = np.loadtxt(out / "hinges.csv", delimiter=",", skiprows=2)
    big = np.abs(np.array(ref.hinge_rows())[:, 5:]).max()
    assert np.abs(rows[:, 2:] - np.array(ref.hinge_rows())[:, 2:]).max() < AGREE_RTOL * big
    # the sensitivity is Chrono's too: the reference engine's, to the agreement of the two (a change of |F| over
    # the largest |F|, each from two solves)
    sens = co.static(strip3(), engine="reference", elastic=True).info["sensitivity"]
    assert set(counts["stiffness_sensitivity"]) == set(sens)
    for key, value in counts["stiffness_sensitivity"].items():
        assert abs(value - sens[key]) < 2 * AGREE_RTOL


def test_nonlinear_needs_chrono_one_line_exit_2(strip_file):  # noqa: F811
    p = run("static", strip_file, "--elastic", "--nonlinear", "--engine", "reference")
    assert p.returncode == 2
    assert p.stderr.strip().splitlines()[-1].startswith("error: the geometrically nonlinear elastic statics is the "
                                                        "Chrono engine's")
