"""Statics with elastic hinges (``static --elastic``, ``co.static(structure, elastic=True, stiffness=...)``): hand
checks, the force method, isostatic structures, mechanisms on springs, equilibrium of every panel, the command line's
labelling and bad input."""
import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import chrono_origami as co
from chrono_origami.analysis.support import mechanism_stops, propose_support
from chrono_origami.crease.pattern import CreasePattern
from chrono_origami.engines.compatibility import multiplier_actions
from chrono_origami.engines.reference import elastic
from chrono_origami.engines.reference import tolerance as tol
from chrono_origami.engines.reference.count import count
from chrono_origami.patterns.miura import miura_patch, miura_strip
from chrono_origami.structure.foldfile import write_fold
from chrono_origami.structure.tolerance import HingeStiffness, ToleranceError, parse_stiffness
from chrono_origami.structure.structure import Load, Structure, Support
from chrono_origami.tools.errors import UsageError
from cli_inprocess import run_cli
from equilibrium import panel_balance
from readme_blocks import assert_quoted_lines_printed, code_block

ROOT = Path(__file__).resolve().parents[1]
#: equilibrium of every panel, relative to the largest hinge force or load (the acceptance's 1e-9)
BALANCE_RTOL = 1e-9


# ------------------------------------------------------------------ structures
def door_pair(load=(0.0, -1.0, 0.0), overrides=None, name="door pair"):
    """Two flat panels along y = 0 joined by two collinear door hinges: hinge 1 from (0,0) to (1,0) (length 1,
    midpoint x_1 = 0.5), hinge 2 from (1,0) to (3,0) (length 2, x_2 = 2). Panel 1 (y in [0, 1]) is held by a 3-2-1
    support; panel 2 (y in [-1, 0]) carries ``load`` at vertex 6, (3, -1, 0)."""
    V = [(0, 0, 0), (1, 0, 0), (3, 0, 0), (3, 1, 0), (0, 1, 0), (3, -1, 0), (0, -1, 0)]
    pat = CreasePattern(V, [(0, 1, 2, 3, 4), (0, 6, 5, 2, 1)])
    return Structure(pat, supports=(Support(0, 0, "xyz"), Support(2, 0, "yz"), Support(4, 0, "z")),
                     loads=(Load(5, tuple(load), 1),), name=name)


def strip3():
    """Three 1 m panels in a row on two door hinges, panels 1 and 3 clamped (3-2-1 supports each): S = 4, M = 0
    (the hand example of the tolerance tests), loaded on panel 2."""
    X = [(x, y, 0.0) for y in (0, 1) for x in (0, 1, 2, 3)]
    pat = CreasePattern(X, [(0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6)])
    sup = (Support(0, 0, "xyz"), Support(4, 0, "xz"), Support(1, 0, "z"),
           Support(3, 2, "xyz"), Support(7, 2, "xz"), Support(2, 2, "z"))
    return Structure(pat, supports=sup, loads=(Load(5, (0.3, 0.2, -1.0), 1), Load(6, (0.0, 0.5, 0.0), 1)),
                     name="clamped strip")


def miura_sheet(rows=2, cols=3, stop=True):
    """An all-door Miura sheet on the proposed 3-2-1 support and a point load; with ``stop`` one more held
    direction stops its mechanism (``mechanism_stops``): M = 0, S > 0; without it, M = 1."""
    s = propose_support(miura_patch(rows, cols)).structure
    pat = s.pattern
    if stop:
        s = s.with_supports(*mechanism_stops(s, count(s, linalg="dense")))
    mid = int(np.argmin(np.linalg.norm(pat.vertices - pat.vertices.mean(axis=0), axis=1)))
    return replace(s, loads=(Load(mid, (0.1, 0.2, -1.0), pat.vertex_panels[mid][0]),),
                   name=f"Miura sheet {rows} x {cols}" + ("" if stop else " (mechanism)"))


def largest_force(structure, result):
    forces = [np.abs(a.force).max() for a in result.hinge_actions] + [np.abs(f).max() for _, _, f in
                                                                       structure.panel_loads()]
    return max(forces)


def assert_balanced(structure, result):
    big = largest_force(structure, result)
    f, m = panel_balance(structure, result)
    L = structure.pattern.size
    assert f <= BALANCE_RTOL * big and m <= BALANCE_RTOL * big * L, (f, m, big)


# ------------------------------------------------------------------ the hand check
@pytest.mark.parametrize("k1, k2", [(1.0, 1.0), (1.0, 4.0), (3.0, 0.5)])
def test_two_collinear_door_hinges_share_the_force_in_closed_form(k1, k2):
    """Two collinear door hinges between a held panel and a panel loaded in its plane, off-centre.

    Hinge i (midpoint at x_i on the hinge line, the x-axis; length l_i) has translational springs
    K_i = k_t,i l_i on every locked translation and rotational springs R_i = k_r,i l_i about the locked
    rotations (about n and about m). The load F along y (in the plane, across the hinge line) at x_F moves
    panel 2 in its plane only (the in-plane and out-of-plane problems of a flat structure decouple; the
    crease springs of the free rotation about the line see nothing): translation v along y and rotation
    theta about z. Hinge i's springs stretch by v + theta x_i across the line and turn by theta, so it
    carries f_i = K_i (v + theta x_i) across the line and the moment R_i theta about m, and acts on panel 2 with
    -f_i along y and -R_i theta about z (springs pull back). Equilibrium of panel 2 (forces along y, moments
    about z at the origin):

        sum K_i (v + theta x_i) = F,
        sum K_i x_i (v + theta x_i) + (sum R_i) theta = F x_F,

    i.e. [s a; a b + c] [v; theta] = [F; F x_F] with s = sum K_i, a = sum K_i x_i, b = sum K_i x_i^2,
    c = sum R_i. With equal stiffness per metre (1e8, 1e7) here x_1 = 0.5, x_2 = 2, l_1 = 1, l_2 = 2,
    x_F = 3: f_1 = -F / 2, f_2 = 3 F / 2 (the far hinge carries more than the load, the near one pulls back).
    """
    kt, kr = 1e8, 1e7
    st = door_pair()
    stiffness = HingeStiffness(kt, kr, overrides={0: (k1 * kt, k1 * kr), 1: (k2 * kt, k2 * kr)})
    r = co.static(st, engine="reference", elastic=True, stiffness=stiffness)
    F, xF = -1.0, 3.0
    x = np.array([0.5, 2.0])
    K = np.array([k1, k2]) * kt * np.array([1.0, 2.0])
    R = np.array([k1, k2]) * kr * np.array([1.0, 2.0])
    A = np.array([[K.sum(), (K * x).sum()], [(K * x).sum(), (K * x * x).sum() + R.sum()]])
    v, theta = np.linalg.solve(A, [F, F * xF])
    f = K * (v + theta * x)                                   # on panel 2, along y
    m = R * theta                                             # on panel 2, about z
    if k1 == k2:
        np.testing.assert_allclose(f, [-F / 2, 3 * F / 2], rtol=1e-12)
    for h in range(2):
        a = r.action(h, 1)                                   # the action on panel 2 (0-based 1)
        np.testing.assert_allclose(a.force, [0.0, -f[h], 0.0], atol=1e-9 * abs(F))
        np.testing.assert_allclose(a.moment, [0.0, 0.0, -m[h]], atol=1e-9 * abs(F))
    # the ratio f_2 / f_1 follows the stiffness: doubling both changes nothing; the crease springs carry nothing
    assert r.M == 1 and r.S == 5 and r.status == "elastic" and r.info["springs"]
    assert max(r.info["sensitivity"]["crease"].values()) < 1e-9
    assert_balanced(st, r)


def test_a_load_on_the_mechanism_is_carried_by_the_crease_springs():
    """The same pair loaded across its plane, F_z at (3, -1, 0): the moment about the hinge line, F_z * 1, turns
    panel 2 about it, which only the crease springs resist (the midpoints lie on the line: the locked rows see
    no rotation about it). theta = M / (k_c (l_1 + l_2)), the springs share M in proportion to their lengths
    (MP on each hinge), and the far corner moves by theta * 1: a large displacement, reported relative to the
    structure's size (the diagonal sqrt(13))."""
    st = door_pair(load=(0.0, 0.0, -2.0))
    kc = 5.0
    r = co.static(st, engine="reference", elastic=True, stiffness=HingeStiffness(crease=kc))
    Mline = (-1.0) * (-2.0)          # the load's moment about the x-axis: (r x F)_x = y F_z
    theta = Mline / (kc * 3.0)
    spring = [r.action(h, 1).moment @ np.array([1.0, 0, 0]) for h in range(2)]
    np.testing.assert_allclose(spring, [-Mline * 1 / 3, -Mline * 2 / 3], rtol=1e-6)
    np.testing.assert_allclose(r.info["displacement"], abs(theta), rtol=1e-6)
    np.testing.assert_allclose(r.info["displacement_relative"], abs(theta) / np.sqrt(13.0), rtol=1e-6)
    assert_balanced(st, r)


# ------------------------------------------------------------------ the force method, isostatic structures
@pytest.mark.parametrize("build", [strip3, lambda: miura_sheet(2, 3)])
def test_the_stiffness_form_is_the_force_method(build):
    """lambda = lambda_0 - S (S^T F S)^-1 S^T F lambda_0 (``tolerance.formula``, a dense self-stress basis) and the
    sparse stiffness form give the same hinge actions, with unequal stiffness per kind and per hinge."""
    st = build()
    c = count(st, linalg="dense")
    assert c.M == 0 and c.S > 0
    k = HingeStiffness(2e8, 3e6, overrides={0: (5e7, 4e7)})
    r = elastic.solve(st, k, counts=c)
    f = c.model.generalized_forces(st.panel_loads())
    mu = tol.formula(st, np.zeros(c.model.Cs.shape[0]), k, f, counts=c)
    ref = multiplier_actions(st, c.model, mu)
    big = max(np.abs(a.values).max() for a in ref)
    for a, b in zip(r.hinge_actions, ref):
        np.testing.assert_allclose(a.values, b.values, atol=1e-9 * big)
    assert_balanced(st, r)
    # and the answer depends on the stiffness: doubling the door hinges' of a hyperstatic structure with one
    # hinge of its own moves the forces
    assert r.info.get("sensitivity") is None
    full = co.static(st, engine="reference", elastic=True, stiffness=k)
    assert full.info["sensitivity"]["door k_t"]["F"] > 1e-6 and full.info["sensitivity"]["door k_r"]["F"] > 1e-6


def isostatic_strip():
    s = miura_strip(2)
    s = propose_support(s).structure
    s = s.with_supports(*mechanism_stops(s, count(s, linalg="dense")))      # the Miura mechanism stopped
    pat = s.pattern
    mid = int(np.argmin(np.linalg.norm(pat.vertices - pat.vertices.mean(axis=0), axis=1)))
    return replace(s, loads=(Load(mid, (0.2, -0.1, -1.0), pat.vertex_panels[mid][-1]),))


@pytest.mark.parametrize("stiffness", [HingeStiffness(), HingeStiffness(3e5, 2e9),
                                       HingeStiffness(1e8, 1e7, per_kind={"sliding": (1e3, 1e9)},
                                                      overrides={2: (7e9, 1.0)})])
def test_isostatic_elastic_is_the_determined_answer_whatever_the_stiffness(stiffness):
    st = isostatic_strip()
    plain = co.static(st, engine="reference")
    assert plain.status == "determined"
    r = co.static(st, engine="reference", elastic=True, stiffness=stiffness)
    assert r.status == "elastic" and (r.M, r.S) == (0, 0)
    big = max(np.abs(a.values).max() for a in plain.hinge_actions)
    assert big > 0.1
    for a, b in zip(r.hinge_actions, plain.hinge_actions):
        np.testing.assert_allclose(a.values, b.values, atol=1e-9 * big)
    assert {x for v in r.info["sensitivity"].values() for x in v.values()} == {0.0}
    assert r.info["hinge_sensitivity"]["F"] == r.info["hinge_sensitivity"]["M"] == 0.0
    # the 0 is the theory's: solving again with a kind's stiffness doubled gives the same numbers
    again = elastic.solve(st, stiffness.doubled(st, "sliding", "k_r"))
    for a, b in zip(again.hinge_actions, r.hinge_actions):
        np.testing.assert_allclose(a.values, b.values, atol=1e-9 * big)
    assert_balanced(st, r)


def test_mechanism_sheet_on_springs_is_in_equilibrium_and_reports_its_displacement():
    st = miura_sheet(2, 3, stop=False)
    r = co.static(st, engine="reference", elastic=True)
    assert r.M == 1 and r.info["springs"]
    assert_balanced(st, r)
    # the load works on the mechanism: the crease springs (1 N m/rad per m) let it move far more than the hinges
    assert r.info["displacement_relative"] > 1e-3
    assert set(r.info["sensitivity"]) == {"door k_t", "door k_r", "crease"}
    # stiffer crease springs: smaller displacement, in proportion where the mechanism dominates
    stiff = co.static(st, engine="reference", elastic=True, stiffness=HingeStiffness(crease=10.0),
                      sensitivity=False)
    np.testing.assert_allclose(stiff.info["displacement"] * 10.0, r.info["displacement"], rtol=1e-3)


def test_a_sliding_pair_on_crease_and_slide_springs_in_closed_form():
    """Two unit squares on one sliding hinge along the x-axis from (0,0) to (1,0) (length 1, midpoint (0.5, 0, 0)),
    panel 1 held 3-2-1, F = (0.5, 0, -2) at (1, -1, 0) on panel 2. The hinge frees the rotation about its line
    and the translation along it: M = 2, so the crease spring (C_r = k_c l) and the slide spring (C_s = k_s l)
    resist them. The hinge carries the whole load: on panel 2 the force -F and the moment -(r x F), r = (0.5, -1, 0)
    from the midpoint: -(2, 1, 0.5). Panel 2 turns about the line by theta = 2 / k_c and slides by 0.5 / k_s; the
    loaded corner, 1 from the line, moves by sqrt(theta^2 + (0.5 / k_s)^2) (the stiff locked rows aside)."""
    V = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0), (1, -1, 0), (0, -1, 0)]
    pat = CreasePattern(V, [(0, 1, 2, 3), (0, 5, 4, 1)])
    st = Structure(pat, hinge_kinds=("sliding",), supports=(Support(2, 0, "xyz"), Support(3, 0, "yz"),
                                                            Support(0, 0, "z")),
                   loads=(Load(4, (0.5, 0.0, -2.0), 1),), name="sliding pair")
    kc, ks = 5.0, 7.0
    r = co.static(st, engine="reference", elastic=True, stiffness=HingeStiffness(crease=kc, slide=ks),
                  sensitivity=False)
    assert (r.status, r.M, r.S, r.info["springs"]) == ("elastic", 2, 0, True)
    a = r.action(0, 1)
    np.testing.assert_allclose(a.force, [-0.5, 0.0, 2.0], atol=1e-12)
    np.testing.assert_allclose(a.moment, [-2.0, -1.0, -0.5], atol=1e-12)
    # the locked rows' springs (default k_r = 1e7 N m/rad per m) add motions of order |M| / k_r = 1e-7
    np.testing.assert_allclose(r.info["displacement"], np.hypot(2.0 / kc, 0.5 / ks), rtol=1e-6)
    assert r.info["equilibrium_residual"] < 1e-12
    assert_balanced(st, r)


def test_an_unsupported_sheet_balanced_is_the_sheet_on_a_321_support():
    """The Miura mechanism sheet without supports under two opposite forces along the line of their vertices:
    its rigid motions are held and the hinge actions are those of the same sheet on its 3-2-1 support (a
    determinate support carries nothing of balanced loads: reactions 0), to 1e-9 of the load, every panel
    balanced. Unbalanced loads on the free sheet are refused (``FreeBodyError``, no answer with a residual)."""
    from chrono_origami.tools.errors import FreeBodyError

    st = miura_sheet(2, 3, stop=False)
    pat = st.pattern
    d = pat.vertices[0] - pat.vertices[5]
    loads = (Load(0, tuple(d), pat.vertex_panels[0][0]), Load(5, tuple(-d), pat.vertex_panels[5][0]))
    free = replace(st, supports=(), loads=loads)
    held = replace(st, loads=loads)
    rf = co.static(free, engine="reference", elastic=True, sensitivity=False)
    rh = co.static(held, engine="reference", elastic=True, sensitivity=False)
    assert rf.status == rh.status == "elastic" and rf.info["springs"]
    big = np.linalg.norm(d)
    for r in rh.support_reactions:
        np.testing.assert_allclose(r.force, 0.0, atol=1e-9 * big)
    assert len(rf.hinge_actions) == len(rh.hinge_actions)
    for a, b in zip(rf.hinge_actions, rh.hinge_actions):
        np.testing.assert_allclose(a.force, b.force, atol=1e-9 * big)
        np.testing.assert_allclose(a.moment, b.moment, atol=1e-9 * big * pat.size)
    assert rf.info["equilibrium_residual"] < 1e-9
    assert_balanced(free, rf)
    with pytest.raises(FreeBodyError, match=r"no supports.*loads do not balance \(relative resultant"):
        co.static(replace(free, loads=loads[:1]), engine="reference", elastic=True, sensitivity=False)


# ------------------------------------------------------------------ the stiffness parser
def test_parse_stiffness_per_kind_per_hinge_and_springs():
    st = miura_strip(1)
    k = parse_stiffness(["2e8,3e7", "sliding:1e6,1e5", "1,3-4:5,6", "crease:2", "slide:7"], st)
    assert (k.translational, k.rotational, k.crease, k.slide) == (2e8, 3e7, 2.0, 7.0)
    assert k.of_hinge(st, 0) == (5.0, 6.0) and k.of_hinge(st, 3) == (5.0, 6.0)
    assert k.of_hinge(st, 1) == (1e6, 1e5)                # sliding (hinge 2)
    assert st.hinge_kinds[0] == "door"
    H = len(st.pattern.hinges)
    with pytest.raises(ToleranceError, match=f"--hinge-stiffness {H + 1}:1,1: hinge {H + 1} does not exist"):
        parse_stiffness([f"{H + 1}:1,1"], st)
    for bad, msg in (("1e8,-1", "rotational stiffness must be a finite number > 0, got '-1'"),
                     ("nan,1", "translational stiffness must be a finite number > 0, got 'nan'"),
                     ("hinge:1,2", "'hinge' is not a hinge kind"), ("crease:1,2", "takes one stiffness"),
                     ("1,2,3", "expected KT,KR")):
        with pytest.raises(ToleranceError, match=msg):
            parse_stiffness([bad], st)


def test_elastic_and_min_norm_exclude_each_other_in_python():
    with pytest.raises(UsageError, match="exclude each other"):
        co.static(strip3(), engine="reference", elastic=True, allow_indeterminate=True)


# ------------------------------------------------------------------ the command line
def run(*args, cwd=ROOT, typed=False):
    """``python -m chrono_origami ARGS`` in ``cwd``: ``cli.main`` in this process, or a subprocess as a user types
    it when ``typed`` (``cli_inprocess.run_cli``: the one-line refusal below, and the README walk's first step)."""
    return run_cli(cwd, *args, typed=typed, timeout=300)


@pytest.fixture
def strip_file(tmp_path):
    path = tmp_path / "strip.fold"
    write_fold(strip3(), str(path))
    return path


def test_static_elastic_labels_its_answer(strip_file, tmp_path):
    out = tmp_path / "out"
    p = run("static", strip_file, "--elastic", "--engine", "reference", "--hinge-stiffness", "door:2e8,1e7",
            "--hinge-stiffness", "2:1e8,5e6", "--out", out)
    assert p.returncode == 0, p.stderr
    assert "clamped strip (reference engine, elastic): hinge internal actions" in p.stdout
    assert "elastic hinges (M = 0, S = 4): the forces elastic hinges carry; they depend on the stiffness" in p.stdout
    assert "door: 2e+08, 1e+07; 1 hinge of its own" in p.stdout
    counts = json.loads((out / "counts.json").read_text())
    assert counts["status"] == "elastic" and counts["S"] == 4
    assert counts["stiffness"]["per_kind"] == {"door": [2e8, 1e7]}
    assert counts["stiffness"]["per_hinge"] == {"2": [1e8, 5e6]}
    sens = counts["stiffness_sensitivity"]
    hinge = counts["stiffness_sensitivity_hinge"]
    assert set(sens) == {"door k_t", "door k_r"} and hinge["method"] == "exact, every hinge" and hinge["tried"] == 2
    assert 0 < max(max(v.values()) for v in sens.values()) <= counts["stiffness_sensitivity_max"]
    every = [hinge["F"], hinge["M"]] + [x for v in sens.values() for x in v.values()]
    assert counts["stiffness_sensitivity_max"] == max(every)
    first = (out / "hinges.csv").read_text().splitlines()[0]
    assert first.startswith("# elastic hinges (M = 0, S = 4)") and "counts.json: status elastic" in first
    assert (out / "supports.csv").read_text().startswith("# elastic hinges")
    # the table is the Python answer
    st = strip3()
    r = co.static(st, engine="reference", elastic=True,
                  stiffness=HingeStiffness(per_kind={"door": (2e8, 1e7)}, overrides={1: (1e8, 5e6)}))
    rows = np.loadtxt(out / "hinges.csv", delimiter=",", skiprows=2)
    np.testing.assert_allclose(rows[:, 2:], np.array(r.hinge_rows())[:, 2:], rtol=1e-12, atol=1e-12)


def test_static_elastic_writes_no_long_self_stress_basis(tmp_path):
    """With --elastic the hinges resolve the self-stress states: a basis of more than 20 (here a 4 x 4 Miura sheet,
    S = 40) is neither listed nor written (one line says so), a short one still is (the strip's 4)."""
    path, out = tmp_path / "sheet.fold", tmp_path / "out"
    write_fold(miura_sheet(4, 4, stop=False), str(path))
    p = run("static", path, "--elastic", "--engine", "reference", "--out", out)
    assert p.returncode == 0, p.stderr
    S = json.loads((out / "counts.json").read_text())["S"]
    assert S > 20
    assert (f"the {S} self-stress states are resolved by the elastic hinges and not listed (more than 20; static "
            "without --elastic writes a basis of them to self_stress.csv)") in p.stdout
    assert not (out / "self_stress.csv").exists() and (out / "hinges.csv").exists()
    strip = tmp_path / "strip.fold"
    write_fold(strip3(), str(strip))
    p = run("static", strip, "--elastic", "--engine", "reference", "--out", tmp_path / "strip")
    assert p.returncode == 0 and "self-stress state 4" in p.stdout and (tmp_path / "strip" / "self_stress.csv").exists()


@pytest.mark.parametrize("args, message", [
    (("--hinge-stiffness", "1e8,-1"), "error: --hinge-stiffness 1e8,-1: rotational stiffness must be a finite "
                                      "number > 0, got '-1'"),
    (("--hinge-stiffness", "nan,1e7"), "error: --hinge-stiffness nan,1e7: translational stiffness must be a "
                                       "finite number > 0, got 'nan'"),
    (("--hinge-stiffness", "9:1e8,1e7"), "error: --hinge-stiffness 9:1e8,1e7: hinge 9 does not exist (2 hinges)"),
    (("--min-norm",), "error: --elastic and --min-norm exclude each other"),
])
def test_bad_elastic_input_one_line_exit_2(strip_file, args, message):
    p = run("static", strip_file, "--elastic", "--engine", "reference", *args)
    assert p.returncode == 2
    err = p.stderr.strip().splitlines()
    assert len([ln for ln in err if not ln.startswith("note:")]) == 1 and err[-1].startswith(message), p.stderr


@pytest.mark.parametrize("args, message", [
    (("--nonlinear",), "error: --nonlinear is a setting of --elastic"),
    (("--hinge-stiffness", "1e8,1e7"), "error: --hinge-stiffness is a setting of --elastic"),
])
def test_elastic_settings_without_elastic_one_line_exit_2(strip_file, args, message):
    p = run("static", strip_file, "--engine", "reference", *args)
    assert p.returncode == 2 and p.stderr.strip().splitlines()[-1] == message


def test_not_determined_names_elastic(strip_file):
    p = run("static", strip_file, "--engine", "reference")
    assert p.returncode == 3
    assert "--elastic gives the hinge forces of elastic hinges" in p.stderr.strip().splitlines()[-1]


# ------------------------------------------------------------------ the FOLD file's own keys
def test_fold_file_stiffness_keys_are_read_written_and_overridden(tmp_path):
    """``origami:stiffness`` (defaults, per kind, springs) and ``edges_origami:stiffness`` (per hinge) set the
    stiffness of ``static --elastic``; ``--hinge-stiffness`` overrides them; write_fold keeps them."""
    from chrono_origami.cli.inputs import stiffness_of
    from chrono_origami.structure.foldfile import read_structure

    path = tmp_path / "strip.fold"
    write_fold(strip3(), str(path))
    d = json.loads(path.read_text())
    d["origami:stiffness"] = {"translational": 3e8, "rotational": 2e7, "door": [4e8, 5e7], "crease": 2.5}
    hinge_edges = [k for k, kind in enumerate(d["edges_origami:hinge"]) if kind is not None]
    d["edges_origami:stiffness"] = [None] * len(d["edges_vertices"])
    d["edges_origami:stiffness"][hinge_edges[1]] = [1e6, 1e5]
    path.write_text(json.dumps(d))
    st = read_structure(str(path))
    h2 = next(h.index for h in st.pattern.hinges if tuple(sorted(h.vertices)) ==
              tuple(sorted(d["edges_vertices"][hinge_edges[1]])))

    class Args:
        hinge_stiffness = []

    k = stiffness_of(Args, st)
    assert (k.translational, k.rotational, k.crease) == (3e8, 2e7, 2.5)
    assert k.of_hinge(st, h2) == (1e6, 1e5) and k.of_hinge(st, 1 - h2) == (4e8, 5e7)
    Args.hinge_stiffness = [f"{h2 + 1}:7e7,7e6"]
    assert stiffness_of(Args, st).of_hinge(st, h2) == (7e7, 7e6)
    again = tmp_path / "again.fold"
    write_fold(st, str(again))
    st2 = read_structure(str(again))
    Args.hinge_stiffness = []
    assert stiffness_of(Args, st2) == k
    # the command reads them: its table is that stiffness's
    out = tmp_path / "out"
    p = run("static", path, "--elastic", "--engine", "reference", "--out", out)
    assert p.returncode == 0, p.stderr
    counts = json.loads((out / "counts.json").read_text())
    assert counts["stiffness"]["per_kind"] == {"door": [4e8, 5e7]}
    assert counts["stiffness"]["per_hinge"] == {str(h2 + 1): [1e6, 1e5]}
    r = co.static(st, engine="reference", elastic=True, stiffness=k, sensitivity=False)
    rows = np.loadtxt(out / "hinges.csv", delimiter=",", skiprows=2)
    np.testing.assert_allclose(rows[:, 2:], np.array(r.hinge_rows())[:, 2:], rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("key, value, message", [
    ("origami:stiffness", {"door": [1e8, -1]}, "origami:stiffness.door must be a stiffness > 0 (SI per metre of "
                                               "hinge), got -1"),
    ("origami:stiffness", {"rotational": "stiff"}, "origami:stiffness.rotational must be a stiffness > 0"),
    ("origami:stiffness", {"hinges": 1}, "origami:stiffness.hinges is not a stiffness"),
])
def test_bad_stiffness_in_a_fold_file_is_one_line_exit_1(tmp_path, key, value, message):
    path = tmp_path / "strip.fold"
    write_fold(strip3(), str(path))
    d = json.loads(path.read_text())
    d[key] = value
    path.write_text(json.dumps(d))
    p = run("static", path, "--elastic", "--engine", "reference")
    assert p.returncode == 1
    assert message in p.stderr.strip().splitlines()[-1]


# ------------------------------------------------------------------ the README's walk-through
def test_the_readme_elastic_walkthrough_prints_what_it_quotes(tmp_path):
    """The README's "Where no design is isostatic" commands, run as written on a copy of docs/miura-sheet.svg:
    every quoted line found in what the command printed (" ..." a line's beginning, "..." lines left out), design's
    exit 3 naming static --elastic, the figure the same as the README's, and the elastic answer's balance."""
    import shutil

    import matplotlib.image as mpimg

    steps = code_block("#### Where no design is isostatic")
    assert [c.split()[3] for c, _ in steps] == ["fold", "design", "static"]
    (tmp_path / "docs" / "figures").mkdir(parents=True)
    shutil.copy(ROOT / "docs" / "miura-sheet.svg", tmp_path / "docs")
    for command, quoted in steps:
        r = run(*command.split()[3:], cwd=tmp_path, typed=command == steps[0][0])
        assert r.returncode == (3 if command.split()[3] == "design" else 0), (command, r.stderr)
        assert_quoted_lines_printed(command, quoted, r.stdout + r.stderr)
    made = mpimg.imread(tmp_path / "docs" / "figures" / "miura-sheet-elastic.png")
    shown = mpimg.imread(ROOT / "docs" / "figures" / "miura-sheet-elastic.png")
    assert made.shape == shown.shape and np.abs(made - shown).mean() < 0.01
    counts = json.loads((tmp_path / "elastic" / "counts.json").read_text())
    assert counts["status"] == "elastic" and (counts["M"], counts["S"]) == (0, 8)
    rows = np.loadtxt(tmp_path / "elastic" / "supports.csv", delimiter=",", skiprows=2)
    np.testing.assert_allclose(rows[:, 2:].sum(0), [0.0, 0.0, 9.0], atol=1e-9)    # 9 interior unit loads


def test_supports_that_leave_a_piece_free_are_refused_in_one_line(tmp_path):
    """Elastic hinges resist only relative motions of hinged panels, so a piece (panels joined by hinges) whose
    supports stop fewer than its six rigid motions has no elastic answer: ``static --elastic`` refuses it in one line
    naming the piece's panels and how many motions are free (exit 2, as an unsupported structure whose loads do not
    balance), in every engine (the check is the analysis layer's). Two folded squares with a 3-2-1 support on the
    first only: the second (panels 3 and 4) has 6; one square held only along z at one corner: 5."""
    import styles

    path = styles.two_squares_fold(tmp_path / "two.fold")
    out = run("static", str(path), "--support", "1:xyz", "--support", "3:yz", "--support", "4:z", "--elastic",
              "--engine", "reference", "--load", "all:0,0,-1", cwd=tmp_path, typed=True)
    lines = [x for x in out.stderr.splitlines() if x.startswith("error")]
    assert out.returncode == 2 and len(lines) == 1 and "Traceback" not in out.stderr, out.stderr
    assert ("the supports leave 1 of the structure's 2 pieces (panels joined by hinges) free to move as a rigid "
            "body") in lines[0] and "panels 3, 4 (6 free motions)" in lines[0]
    from chrono_origami.tools.errors import FreeBodyError

    s = co.read_structure(str(path)).with_supports("1:z")
    with pytest.raises(FreeBodyError, match=r"leave 2 of the structure's 2 pieces .*: panels 1, 2 \(5 free motions\); "
                                               r"panels 3, 4 \(6 free motions\)"):
        co.static(s, engine="reference", elastic=True)
    one = replace(door_pair(), supports=(Support(0, 0, "z"),))
    with pytest.raises(FreeBodyError, match=r"leave the structure free to move .*: panels 1, 2 \(5 free motions\)"):
        co.static(one, engine="reference", elastic=True)


def test_states_that_would_fill_the_screen_get_a_line_each(tmp_path):
    """A 3 x 4 Miura sheet on door hinges: S = 20 states of 34 hinge rows each, 680 rows, more than a screen
    (``report.tables.SCREEN_ROWS``). ``static`` lists them a line each, its largest |entry| (column, hinge and
    panel as in self_stress.csv), and self_stress.csv holds all rows; the strip's 4 states of 4 rows keep their
    tables."""
    path, out = tmp_path / "sheet.fold", tmp_path / "out"
    write_fold(miura_sheet(3, 4), str(path))
    p = run("static", path, "--engine", "reference", "--out", out)
    assert p.returncode == 3, p.stderr
    csv = out / "self_stress.csv"
    assert f"the 20 self-stress states (a basis, arbitrary scale), a line each (all in {csv}):" in p.stdout
    assert "self-stress state 1 (arbitrary scale)" not in p.stdout and len(p.stdout.splitlines()) < 80
    header = ["state", "hinge", "panel", "MT", "MP", "MO", "N", "TP", "TO"]
    with open(csv) as f:
        lines = [x for x in f.read().splitlines() if x and not x.startswith("#")]
    assert lines[0].split(",") == header
    rows = np.array([[float(v) for v in x.split(",")] for x in lines[1:]])
    assert sorted(set(rows[:, 0].astype(int))) == list(range(1, 21)) and len(rows) == 20 * 34
    for k in range(1, 21):
        state = rows[rows[:, 0] == k]
        i, j = np.unravel_index(np.argmax(np.abs(state[:, 3:])), state[:, 3:].shape)
        line = next(x for x in p.stdout.splitlines() if x.startswith(f"  state {k}: "))
        assert line == (f"  state {k}: largest |entry| {header[3 + j]} = {state[i, 3 + j]:.4g} at hinge "
                        f"{int(state[i, 1])} (panel {int(state[i, 2])})"), line
    strip = tmp_path / "strip.fold"
    write_fold(strip3(), str(strip))
    p = run("static", strip, "--engine", "reference")
    assert p.returncode == 3 and "self-stress state 4 (arbitrary scale)" in p.stdout


# ------------------------------------------------------------------ sensitivity: forces and moments, one hinge
def door_pair_resultants(kt, kr):
    """(|F| (2,), |M| (2,)) of the door pair's two hinges in closed form (the system of
    ``test_two_collinear_door_hinges_share_the_force_in_closed_form``): ``kt``, ``kr`` (2,) per metre of each hinge."""
    x, length, F, xF = np.array([0.5, 2.0]), np.array([1.0, 2.0]), -1.0, 3.0
    K, R = np.asarray(kt, float) * length, np.asarray(kr, float) * length
    A = np.array([[K.sum(), (K * x).sum()], [(K * x).sum(), (K * x * x).sum() + R.sum()]])
    v, theta = np.linalg.solve(A, [F, F * xF])
    return np.abs(K * (v + theta * x)), np.abs(R * theta)


def relative_change(before, after):
    """Largest change of a resultant over its largest before (the sensitivity's measure)."""
    return np.abs(after - before).max() / before.max()


def test_doubling_a_kind_or_one_hinge_reports_forces_and_moments_apart():
    """The door pair (default stiffness, 1e8 N/m and 1e7 N m/rad per m), loaded in its plane: doubling the door
    hinges' k_r moves the hinge moments by 5/7 of the largest moment and the forces by only 5/63 of the largest force
    (a report of |F| alone would say the answer hardly depends on k_r); doubling hinge 2's k_r alone moves the
    moments by 4/5 of the largest. Each number is checked three ways: the closed form (the 2 x 2 system of the pair),
    a re-solve with the doubled stiffness, and the report (its one-hinge numbers exact for every hinge here: the
    rank-6 update of the factored solve, ``compliance.hinge_doubling``)."""
    from chrono_origami.results.static import elastic_label

    st = door_pair()
    kt, kr = np.array([1e8, 1e8]), np.array([1e7, 1e7])
    r = co.static(st, engine="reference", elastic=True)
    F0, M0 = door_pair_resultants(kt, kr)
    sens, hinge = r.info["sensitivity"], r.info["hinge_sensitivity"]
    # the kinds: closed form, the exact fractions, and the report
    F1, M1 = door_pair_resultants(kt, 2 * kr)
    assert relative_change(M0, M1) == pytest.approx(5 / 7, rel=1e-12)
    assert relative_change(F0, F1) == pytest.approx(5 / 63, rel=1e-12)
    np.testing.assert_allclose([sens["door k_r"]["F"], sens["door k_r"]["M"]], [5 / 63, 5 / 7], rtol=1e-9)
    F1, M1 = door_pair_resultants(2 * kt, kr)
    np.testing.assert_allclose([sens["door k_t"]["F"], sens["door k_t"]["M"]],
                               [relative_change(F0, F1), relative_change(M0, M1)], rtol=1e-9)
    # one hinge: every hinge and each of k_t, k_r, both, in closed form and by re-solving
    closed, solved = {}, {}
    for h in range(2):
        for which, (ft, fr) in (("k_t", (2, 1)), ("k_r", (1, 2)), ("both", (2, 2))):
            t, q = kt.copy(), kr.copy()
            t[h], q[h] = ft * t[h], fr * q[h]
            F1, M1 = door_pair_resultants(t, q)
            closed[h + 1, which] = (relative_change(F0, F1), relative_change(M0, M1))
            again = elastic.solve(st, HingeStiffness(overrides={h: (t[h], q[h])}))
            Fs = np.array([np.linalg.norm(again.action(i, 1).force) for i in range(2)])
            Ms = np.array([np.linalg.norm(again.action(i, 1).moment) for i in range(2)])
            solved[h + 1, which] = (relative_change(F0, Fs), relative_change(M0, Ms))
    for key in closed:
        np.testing.assert_allclose(solved[key], closed[key], rtol=1e-9)
    for c, key in ((0, "F"), (1, "M")):
        at = max(closed, key=lambda k: closed[k][c])
        assert hinge[f"at_{key}"] == {"hinge": at[0], "which": at[1]}
        assert hinge[key] == pytest.approx(closed[at][c], rel=1e-9)
    assert hinge["at_M"] == {"hinge": 2, "which": "k_r"} and hinge["M"] == pytest.approx(0.8, rel=1e-9)
    assert (hinge["tried"], hinge["of"], hinge["method"]) == (2, 2, "exact, every hinge")
    # and the words say so
    text = elastic_label(r)
    assert ("changes |F| by at most 0.0794 of the largest |F| and |M| by at most 0.714 of the largest |M|" in text
            and "door k_r 0.0794, 0.714" in text)
    assert "doubling one hinge's stiffness (k_t, k_r or both) changes |F| by up to 0.0556 (hinge 2 k_r) and |M| by " \
           "up to 0.8 (hinge 2 k_r): exact, every hinge" in text


@pytest.mark.parametrize("stop", [True, False], ids=["hyperstatic sheet", "mechanism sheet on springs"])
def test_one_hinge_doubled_is_the_resolve_on_every_hinge_and_sampled_when_many(stop, monkeypatch):
    """On a Miura sheet (M = 0, S > 0; and M = 1, its crease springs in the rows), the report's change of one hinge's
    stiffness doubled is the largest over re-solves with that hinge's k_t, k_r or both doubled (an independent
    computation: a new factorisation), to 1e-9; with fewer hinges tried than there are (``EVERY_HINGE``,
    ``HINGE_SAMPLE``), the report says it is sampled and its numbers are the largest over the hinges it tried, the
    most loaded among them."""
    from chrono_origami.engines import compliance
    from chrono_origami.analysis.static import force_resultants, moment_resultants

    st = miura_sheet(2, 3, stop=stop)
    H = len(st.pattern.hinges)
    r = co.static(st, engine="reference", elastic=True, sensitivity=False)
    F0, M0, L = force_resultants(r), moment_resultants(r), st.pattern.size
    base = HingeStiffness()
    change = {}
    for h in range(H):
        for which, f in (("k_t", (2, 1)), ("k_r", (1, 2)), ("both", (2, 2))):
            again = elastic.solve(st, replace(base, overrides={h: (f[0] * 1e8, f[1] * 1e7)}))
            change[h + 1, which] = compliance.resultant_changes(F0, M0, force_resultants(again),
                                                                moment_resultants(again), L)
    full = co.static(st, engine="reference", elastic=True).info["hinge_sensitivity"]
    assert full["method"] == "exact, every hinge" and full["tried"] == H
    for c, key in ((0, "F"), (1, "M")):
        assert full[key] == pytest.approx(max(v[c] for v in change.values()), rel=1e-9)
        a = full[f"at_{key}"]
        assert change[a["hinge"], a["which"]][c] == pytest.approx(full[key], rel=1e-9)
    monkeypatch.setattr(compliance, "HINGE_SAMPLE", 4)
    monkeypatch.setattr(compliance, "EVERY_HINGE", 4)
    part = co.static(st, engine="reference", elastic=True).info["hinge_sensitivity"]
    assert part["tried"] == 4 and part["of"] == H
    assert part["method"].startswith(f"sampled: exact for 4 of the {H} hinges (the 2 most loaded")
    load = F0.reshape(H, 2)[:, 0] / F0.max() + M0.reshape(H, 2)[:, 0] / M0.max()
    top = set(int(h) + 1 for h in np.argsort(-load)[:2])
    for c, key in ((0, "F"), (1, "M")):
        a = part[f"at_{key}"]
        assert change[a["hinge"], a["which"]][c] == pytest.approx(part[key], rel=1e-9)
        assert part[key] <= full[key] * (1 + 1e-12)
        assert part[key] >= max(change[h, w][c] for h in top for w in ("k_t", "k_r", "both")) * (1 - 1e-9)


# ------------------------------------------------------------------ displacements
#: the crease panel's geometry and load: hinge length L, the loaded corner's distance d from the hinge line, the
#: load F (down, at that corner), the crease stiffness k_c (N m/rad per metre of hinge)
CREASE_PANEL = dict(L=2.0, d=1.5, F=0.3, kc=3.0)


def crease_panel(L=2.0, d=1.5, F=0.3):
    """Panel 1 (x in [0, L], y in [0, 1]) held by a 3-2-1 support; panel 2 (x in [0, L], y in [-d, 0]) hinged to it
    along the x-axis by one door hinge (hinge 1, from (0,0) to (L,0)), loaded by F down (-z) at its corner
    (L, -d, 0), vertex 5. M = 1: the crease spring alone resists the turn about the hinge line."""
    V = [(0, 0, 0), (L, 0, 0), (L, 1, 0), (0, 1, 0), (L, -d, 0), (0, -d, 0)]
    pat = CreasePattern(V, [(0, 1, 2, 3), (0, 5, 4, 1)])
    return Structure(pat, supports=(Support(0, 0, "xyz"), Support(1, 0, "yz"), Support(3, 0, "z")),
                     loads=(Load(4, (0.0, 0.0, -F), 1),), name="panel on a crease")


def crease_panel_displacement(L, d, F, kc, kt=1e8, kr=1e7):
    """The closed form of u_z at panel 2's corners (L, -d) (the loaded one) and (0, -d), linear theory.

    The load's moment about the hinge's midpoint (L/2, 0, 0) is r x F with r = (L/2, -d, 0), F = (0, 0, -F):
    (F d, F L/2, 0). About the hinge line (x) only the crease spring resists, C_r = k_c L (k_c per metre of hinge,
    ``HingeStiffness.spring_values``): theta_x = F d / (k_c L); about y the hinge's locked rotation, K_r = k_r L:
    theta_y = F / (2 k_r); along z its locked translation, K_t = k_t L: w = F / (k_t L). A corner at distance d from
    the line and L/2 either side of the midpoint along it moves down by w + theta_x d +- theta_y L / 2:

        |u| = F d^2 / (k_c L) + F / (k_t L) +- F L / (4 k_r),

    the issue's F d^2 / (k_c L) plus the stiff hinge's own deflection (1.5e-7 of it here)."""
    main, stiff = F * d * d / (kc * L) + F / (kt * L), F * L / (4 * kr)
    return main + stiff, main - stiff


def read_table(path, fmt):
    """A written table's rows as an array (numbers), whatever the format."""
    if fmt == "csv":
        return np.loadtxt(path, delimiter=",", skiprows=2)
    if fmt == "json":
        doc = json.loads(Path(path).read_text())
        return np.array([[row[f["name"]] for f in doc["schema"]["fields"]] for row in doc["data"]], float)
    import pandas as pd

    return pd.read_parquet(path).to_numpy(float)


def assert_crease_panel_displacements(rows, L, d, F, kc):
    """``rows`` (panel, vertex, ux, uy, uz) of the crease panel: panel 2's far corners move down by the closed form
    (to round-off: 1e-9 of it, where the stiff hinge's part is 1.5e-7), its hinge-line vertices by the stiff hinge's
    deflection only, panel 1 (held) by nothing (1e-12 of the corner's)."""
    assert [tuple(map(int, r[:2])) for r in rows] == [(1, 1), (1, 2), (1, 3), (1, 4), (2, 1), (2, 6), (2, 5), (2, 2)]
    u = {(int(r[0]), int(r[1])): r[2:] for r in rows}
    far, near = crease_panel_displacement(L, d, F, kc)
    np.testing.assert_allclose(u[2, 5], [0.0, 0.0, -far], rtol=1e-9, atol=1e-12 * far)
    np.testing.assert_allclose(u[2, 6], [0.0, 0.0, -near], rtol=1e-9, atol=1e-12 * far)
    assert abs(-u[2, 5][2] - F * d * d / (kc * L)) < 2e-7 * far     # the formula, the stiff hinge aside
    for v in (1, 2):
        assert np.linalg.norm(u[2, v]) < 2 * (F / (1e8 * L) + F * L / (4 * 1e7))
    for v in (1, 2, 3, 4):
        assert np.linalg.norm(u[1, v]) < 1e-12 * far


def test_displacements_of_a_panel_on_a_crease_spring_in_closed_form_in_every_format(tmp_path):
    """``static --elastic`` writes every panel vertex's displacement (displacements.csv, .json, .parquet: the same
    numbers) and ``co.static``'s result carries them: the crease panel's corners against the closed form
    (:func:`crease_panel_displacement`), with the crease spring k_c = 3 N m/rad per metre on a hinge of L = 2 m and
    the corner d = 1.5 m from it (so that a convention per hinge rather than per metre would be off by 2)."""
    g = CREASE_PANEL
    path = tmp_path / "panel.fold"
    write_fold(crease_panel(g["L"], g["d"], g["F"]), str(path))
    tables = {}
    for fmt in ("csv", "json", "parquet"):
        out = tmp_path / fmt
        p = run("static", path, "--elastic", "--engine", "reference", "--hinge-stiffness", f"crease:{g['kc']:g}",
                "--out", out, "--format", fmt)
        assert p.returncode == 0, p.stderr
        assert f"displacements.{fmt} (every panel vertex's) in {out} hold the elastic answer" in p.stdout
        tables[fmt] = read_table(out / f"displacements.{fmt}", fmt)
    assert_crease_panel_displacements(tables["csv"], g["L"], g["d"], g["F"], g["kc"])
    for fmt in ("json", "parquet"):
        assert np.array_equal(tables[fmt], tables["csv"]), fmt
    assert (tmp_path / "csv" / "displacements.csv").read_text().startswith("# elastic hinges (M = 1, S = 0)")
    r = co.static(crease_panel(g["L"], g["d"], g["F"]), engine="reference", elastic=True,
                  stiffness=HingeStiffness(crease=g["kc"]))
    assert r.displacements.shape == (8, 3) and np.array_equal(np.array(r.displacement_rows()), tables["csv"])
    assert r.info["displacement"] == pytest.approx(crease_panel_displacement(g["L"], g["d"], g["F"], g["kc"])[0],
                                                   rel=1e-9)


def test_the_figure_draws_the_displaced_shape_scaled_and_says_its_scale(tmp_path):
    """``--figure`` of an elastic answer draws each panel's outline displaced by its vertices' displacements times
    a round scale (1, 2, 5 x 10^k: the largest displacement drawn at most a tenth of the size), and says the scale
    on the figure and on the screen: on the crease panel (largest 0.1125 on a size of 3.2) x 2."""
    from chrono_origami.report import figures

    g = CREASE_PANEL
    st = crease_panel(g["L"], g["d"], g["F"])
    path = tmp_path / "panel.fold"
    write_fold(st, str(path))
    p = run("static", path, "--elastic", "--engine", "reference", "--hinge-stiffness", "crease:3",
            "--figure", tmp_path / "panel.png")
    assert p.returncode == 0, p.stderr
    assert "displaced shape (red, dotted): displacements x 2; largest displacement 0.113 (length units)" in p.stdout
    assert (tmp_path / "panel.png").stat().st_size > 0
    r = co.static(st, engine="reference", elastic=True, stiffness=HingeStiffness(crease=3.0), sensitivity=False)
    assert figures.displacement_scale(r.displacements, st.pattern.size) == 2.0
    assert figures.displacement_scale(r.displacements * 1e-6, st.pattern.size) == 2e6
    assert figures.displacement_scale(r.displacements * 10, st.pattern.size) == 1.0       # large: true scale
    fig = figures.draw_structure(st, displacements=r.displacements)
    ax = fig.axes[0]
    lines = {ln.get_gid(): np.array(ln.get_data_3d()).T for ln in ax.lines if ln.get_gid()}
    X = st.pattern.vertices
    for p_, loop in enumerate(st.pattern.panels):
        moved = X[list(loop)] + 2.0 * r.displacements[4 * p_:4 * p_ + 4]
        np.testing.assert_allclose(lines[f"displaced panel {p_ + 1}"], np.vstack([moved, moved[:1]]), atol=1e-12)
    assert [t.get_text() for t in ax.texts if t.get_gid() == "displacement scale"] == [
        "displaced shape (red, dotted): displacements x 2; largest displacement 0.113 (length units)"]


def test_one_hinge_doubled_is_the_resolve_whatever_the_stiffness(monkeypatch):
    """Hypothesis: on the clamped strip with each hinge's k_t and k_r drawn over four decades, the exact update of
    ``compliance.hinge_doubling`` gives, for every hinge and each of k_t, k_r, both, the change of |F| and |M| a
    re-solve with that stiffness gives.

    Tolerance: every solve is refined to a relative residual rho on a scaled saddle-point system of 2-norm condition
    kappa (computed here, dense, per system: up to ~1e5 over these decades), so its multipliers are off by at most
    kappa rho of their norm, and a change of |F| or |M| over the largest (two such answers' hinge wrenches, linear
    in them, m multipliers) by at most 2 kappa rho sqrt(m) of the largest. At the engine's ``RESIDUAL_RTOL`` (1e-10)
    both are off by ~2e-9 of the largest for logs [(0, -2), (1, 1)] (against 50-digit dense solves): the re-solve of
    hinge 1's k_r by 1.8e-9 (3e-5 of that change), the updates of hinge 2's k_r and both by 1.5e-9 and 1.9e-9. So
    the re-solves and a second update are made at rho = 1e-14 (they agree to 4e-13 of the largest) and compared at 2
    kappa rho sqrt(m); the engine's update at rho = 1e-10 is compared with those at its own bound."""
    from hypothesis import example, given, settings, strategies as hs

    from chrono_origami.analysis.static import force_resultants, moment_resultants
    from chrono_origami.engines import compliance

    st = strip3()
    c = count(st, linalg="dense")
    m = c.model.Cs.shape[0]
    decades = hs.floats(-2.0, 2.0)
    kind_of = np.array(["s"] * m)
    for kind, rows in zip(st.kinds, c.model.hinge_rows):
        kind_of[rows] = kind.hinge_row_kinds
    coarse, fine = compliance.RESIDUAL_RTOL, 1e-14

    def solver_of(k):
        return tol.Solver(st, k, c, model=c.model, flex=tol.flexibility(st, c.model, k))

    def doubling(k):
        solver = solver_of(k)
        mu = solver.solve(None, c.model.generalized_forces(st.panel_loads()))
        return compliance.hinge_doubling(st, solver, mu, kind_of, np.zeros(m, bool), [0, 1])

    def bound(kappa, rho):
        return 2 * kappa * rho * np.sqrt(m)

    @settings(max_examples=12, deadline=None, derandomize=True, database=None)
    @given(hs.lists(hs.tuples(decades, decades), min_size=2, max_size=2))
    @example([(0.0, -2.0), (1.0, 1.0)])     # a spread of 1e3-1e4: a re-solve at 1e-10 off by 1.8e-9 of the largest
    def check(logs):
        over = {h: (1e8 * 10 ** a, 1e7 * 10 ** b) for h, (a, b) in enumerate(logs)}
        k = HingeStiffness(overrides=over)
        monkeypatch.setattr(compliance, "RESIDUAL_RTOL", coarse)
        engine = doubling(k)
        monkeypatch.setattr(compliance, "RESIDUAL_RTOL", fine)
        changes = doubling(k)
        r = elastic.solve(st, k, counts=c)
        kappa0 = np.linalg.cond(solver_of(k)._A.toarray())
        for h in range(2):
            for which, (ft, fr) in (("k_t", (2, 1)), ("k_r", (1, 2)), ("both", (2, 2))):
                k2 = replace(k, overrides={**over, h: (ft * over[h][0], fr * over[h][1])})
                again = elastic.solve(st, k2, counts=c)
                kappa = max(kappa0, np.linalg.cond(solver_of(k2)._A.toarray()))
                want = compliance.resultant_changes(force_resultants(r), moment_resultants(r),
                                                    force_resultants(again), moment_resultants(again), st.pattern.size)
                got = (changes[which][0][h], changes[which][1][h])
                np.testing.assert_allclose(got, want, rtol=0, atol=bound(kappa, fine))
                got = (engine[which][0][h], engine[which][1][h])
                np.testing.assert_allclose(got, want, rtol=0, atol=bound(kappa, coarse))

    check()
