"""Statics with elastic hinges in Chrono (bushing hinges, Chrono's static solver, residuals checked) against the
reference engine's linear theory; Chrono's geometrically nonlinear solve against the linear one."""
import json
from dataclasses import replace

import numpy as np
import pytest

import chrono_origami as co
from chrono_origami.structure.foldfile import write_fold
from chrono_origami.structure.tolerance import HingeStiffness
from chrono_origami.structure.structure import Load
from chrono_origami.tools.errors import FreeBodyError
from test_elastic import CREASE_PANEL, assert_balanced, assert_crease_panel_displacements, crease_panel, door_pair, \
    miura_sheet, read_table, run, strip3, strip_file  # noqa: F401

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


# the default stiffness everywhere (hinges of 1e8 N/m and 1e7 N m/rad per m; on the mechanism sheet crease springs of
# 1 N m/rad per m, a ratio of 1e8), and stiffer hinges of one value for every kind on the Miura sheet
CASES = [(strip3, HingeStiffness()), (lambda: miura_sheet(2, 3), HingeStiffness()),
         (lambda: miura_sheet(2, 3), HingeStiffness(2e8, 5e6, per_kind={})),
         (lambda: miura_sheet(2, 3, stop=False), HingeStiffness()),
         (lambda: miura_sheet(2, 3, stop=False), HingeStiffness(crease=1e5))]


@pytest.mark.parametrize("build, stiffness", CASES, ids=["hyperstatic strip", "Miura sheet", "Miura sheet, stiffer",
                                                          "mechanism sheet", "mechanism sheet, stiff creases"])
def test_chrono_agrees_with_the_reference_engine(build, stiffness):
    """Chrono's linear answer (its Jacobian of the compliant links, written with 13 significant digits) is the
    reference engine's to 1e-6 of the largest force (1e-7 measured on the mechanism sheet, where the crease springs
    are 1e-8 of the hinges: a difference of the two Jacobians of 1e-13 moves the stiff rows' forces by that ratio
    times the soft displacement; 2e-13 elsewhere), and every panel of its table balances to 1e-9 of the largest
    force (the multipliers satisfy Cs^T mu = -f to round-off: 1e-14 measured)."""
    st = build()
    ref = co.static(st, engine="reference", elastic=True, stiffness=stiffness, sensitivity=False)
    ch = co.static(st, engine="chrono", elastic=True, stiffness=stiffness, sensitivity=False)
    assert ch.status == "elastic" and (ch.M, ch.S) == (ref.M, ref.S)
    assert ch.info["springs"] == ref.info["springs"] == (ref.M > 0)
    assert largest_difference(ref, ch) < AGREE_RTOL
    np.testing.assert_allclose(ch.info["displacement"], ref.info["displacement"], rtol=1e-5)
    assert ch.info["equilibrium_residual"] <= ch.info["residual_tolerance"]
    assert_balanced(st, ch)


def test_chrono_agrees_unsupported_and_under_gravity():
    """The mechanism sheet without supports under two opposite forces along the line of their vertices (its rigid
    motions held; 5e-7 measured) and, supported, under its own weight: Chrono's answer is the reference engine's to
    1e-6 of the largest force, every panel balanced to 1e-9; unbalanced loads on a free sheet are refused."""
    st = miura_sheet(2, 3, stop=False)
    pat = st.pattern
    d = pat.vertices[0] - pat.vertices[5]
    free = replace(st, supports=(), loads=(Load(0, tuple(d), pat.vertex_panels[0][0]),
                                           Load(5, tuple(-d), pat.vertex_panels[5][0])))
    for case in (free, replace(st, gravity=(0.0, 0.0, -9.81))):
        ref = co.static(case, engine="reference", elastic=True, sensitivity=False)
        ch = co.static(case, engine="chrono", elastic=True, sensitivity=False)
        assert ch.info["springs"] and largest_difference(ref, ch) < AGREE_RTOL
        assert_balanced(case, ch)
    with pytest.raises(FreeBodyError, match="loads do not balance"):
        co.static(replace(free, loads=free.loads[:1]), engine="chrono", elastic=True, sensitivity=False)


def test_chrono_rows_are_unit_relative_motions():
    """The compliant rows made from Chrono's Jacobian measure the relative rotation in rad (Chrono writes the
    quaternion's vector part, half the angle) and the relative translation over L: on its panel q each hinge row
    has a unit vector, the hinge link frame's axis, in the rotation or the translation columns."""
    from chrono_origami.engines.chrono.elastic import compliant_model
    from chrono_origami.engines.chrono.links import hinge_link_frames

    st = miura_sheet(2, 3, stop=False)
    model, kind_of, spring = compliant_model(st)
    _, R = hinge_link_frames(st.pattern)
    C = model.Cs.toarray()
    for h, rows in enumerate(model.hinge_rows):
        q = st.pattern.hinges[h].panels[1]
        assert list(kind_of[rows]) == ["t", "t", "t", "r", "r", "r"] and list(spring[rows]) == [False] * 5 + [True]
        block = np.array([C[r, 6 * q + (0 if kind_of[r] == "r" else 3):][:3] for r in range(rows.start, rows.stop)])
        # the rows' axes: the link frame's x, y, z (translations), x, y (locked rotations), z (the free one)
        np.testing.assert_allclose(np.abs(block), np.abs(R[h].T[[0, 1, 2, 0, 1, 2]]), atol=1e-12)


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
        for c in ("F", "M"):
            assert abs(value[c] - sens[key][c]) < 2 * AGREE_RTOL
    hinge = co.static(strip3(), engine="reference", elastic=True).info["hinge_sensitivity"]
    for c in ("F", "M"):
        assert abs(counts["stiffness_sensitivity_hinge"][c] - hinge[c]) < 2 * AGREE_RTOL


def test_nonlinear_needs_chrono_one_line_exit_2(strip_file):  # noqa: F811
    p = run("static", strip_file, "--elastic", "--nonlinear", "--engine", "reference")
    assert p.returncode == 2
    assert p.stderr.strip().splitlines()[-1].startswith("error: the geometrically nonlinear elastic statics is the "
                                                        "Chrono engine's")


def test_displacements_of_a_panel_on_a_crease_spring_in_chrono(tmp_path):
    """The crease panel of ``test_elastic`` through ``static --elastic`` in Chrono: the linear answer's
    displacements.json is the closed form (``test_elastic.crease_panel_displacement``) to round-off, and the
    nonlinear one's (bushings, Newton; ``--nonlinear``) is the large rotation's closed form: the load keeps its
    direction while its arm shrinks, k_c L theta = F d cos(theta), and the corner (L, -d, 0) moves by
    (0, d (1 - cos theta), -d sin theta) (theta = 0.0748 rad here, 0.3 % short of the linear answer), within the
    stiff hinge's own deflection, F / (k_t L) + F L / (4 k_r) = 1.65e-8 (1.5e-7 of it)."""
    from scipy.optimize import brentq

    g = CREASE_PANEL
    L, d, F, kc = g["L"], g["d"], g["F"], g["kc"]
    path = tmp_path / "panel.fold"
    write_fold(crease_panel(L, d, F), str(path))
    p = run("static", path, "--elastic", "--engine", "chrono", "--hinge-stiffness", f"crease:{kc:g}",
            "--out", tmp_path / "linear", "--format", "json")
    assert p.returncode == 0, p.stderr
    assert_crease_panel_displacements(read_table(tmp_path / "linear" / "displacements.json", "json"), L, d, F, kc)
    p = run("static", path, "--elastic", "--engine", "chrono", "--nonlinear", "--hinge-stiffness", f"crease:{kc:g}",
            "--out", tmp_path / "nonlinear")
    assert p.returncode == 0, p.stderr
    u = {(int(r[0]), int(r[1])): r[2:] for r in read_table(tmp_path / "nonlinear" / "displacements.csv", "csv")}
    theta = brentq(lambda t: kc * L * t - F * d * np.cos(t), 0.0, 1.0)
    stiff = F / (1e8 * L) + F * L / (4 * 1e7)
    assert np.linalg.norm(u[2, 5] - [0.0, d * (1 - np.cos(theta)), -d * np.sin(theta)]) < 2 * stiff
    assert np.linalg.norm(u[2, 6] - [0.0, d * (1 - np.cos(theta)), -d * np.sin(theta)]) < 2 * stiff
    assert max(np.linalg.norm(u[1, v]) for v in (1, 2, 3, 4)) < 2 * stiff
