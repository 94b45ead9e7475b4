"""Miura-ori structures of the paper (sec. 4.2.1): geometry, counts, Tables 1-3, scenes."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest
from scipy.optimize import minimize_scalar

from chrono_origami.tools.errors import PatternError, StructureError
from chrono_origami.tools.geometry import best_rigid_alignment, skew
from chrono_origami.patterns import miura as mi
from chrono_origami.engines.reference.count import count, counting_rules
from chrono_origami.engines.reference.model import assemble
from chrono_origami.engines.compatibility import self_stress_actions
from chrono_origami.engines.reference.static import solve
from chrono_origami.structure.hinges import DOOR, SLIDING

from hinge_frames import wrench
from paper_compare import read_paper_table, row_distance, row_match, table_tolerance

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data")
_, TABLE1 = read_paper_table(os.path.join(DATA, "table01_miura_cantilever_vertices.csv"))
_, TABLE2 = read_paper_table(os.path.join(DATA, "table02_miura_cantilever_hinge_actions.csv"))
_, TABLE3 = read_paper_table(os.path.join(DATA, "table03_miura_cantilever_supports.csv"))
TOL2 = table_tolerance(TABLE2, slice(2, 8))   # 2e-4 x 12.588
TOL3 = table_tolerance(TABLE3, slice(2, 5))   # 2e-4 x 20.423
PAIRS2 = [(int(r[0]), int(r[1])) for r in TABLE2]


def half_ulps(path):
    """Half a unit in the last printed digit of every coordinate of a vertex table."""
    out = []
    with open(path) as f:
        for line in f:
            if line[0].isdigit():
                cells = line.strip().split(",")[1:]
                out.append([0.5 * 10.0 ** (int(c.split("e")[1]) - len(c.split("e")[0].split(".")[1])) for c in cells])
    return np.array(out)


@pytest.fixture(scope="module")
def from_table1():
    s = mi.miura_cantilever_from_vertices(mi.TABLE1_VERTICES)
    return s, solve(s)


@pytest.fixture(scope="module")
def from_builder():
    s = mi.miura_cantilever()
    return s, solve(s)


# ----------------------------------------------------------------- numbering and geometry
def test_table1_constant_is_the_paper_table():
    np.testing.assert_array_equal(mi.TABLE1_VERTICES, np.array([r[1:] for r in TABLE1]))
    assert [int(r[0]) for r in TABLE1] == list(range(1, 22))


def test_cantilever_numbering_follows_tables_2_and_3():
    s = mi.miura_cantilever()
    pat = s.pattern
    assert (pat.n_vertices, pat.n_panels, len(pat.hinges)) == (21, 12, 16)
    one_based = [(tuple(sorted(v + 1 for v in h.vertices)), tuple(sorted(p + 1 for p in h.panels))) for h in pat.hinges]
    assert one_based[:6] == [((2, 5), (1, 2)), ((4, 5), (1, 3)), ((5, 6), (2, 4)),
                             ((5, 8), (3, 4)), ((7, 8), (3, 5)), ((8, 9), (4, 6))]
    assert one_based[15] == ((17, 20), (11, 12))
    assert [h + 1 for h, k in enumerate(s.hinge_kinds) if k == DOOR] == [16]
    # every Table 2 row (hinge, panel) is a side of that hinge
    for h, p in PAIRS2:
        assert p - 1 in pat.hinges[h - 1].panels
    assert [(x.panel + 1, x.vertex + 1, x.dofs) for x in s.supports] == [(11, 19, "xyz"), (11, 20, "x"), (12, 21, "xyz")]
    assert [(p + 1, tuple(f)) for p, _, f in s.panel_loads()] == [(1, (0, 0, -0.5)), (2, (0, 0, -0.5))]
    assert pat.panels[0] == (0, 3, 4, 1)   # panel 1 = (1, 4, 5, 2): its frame is the plane of 1, 4, 5


def test_flat_pattern_is_figure_6a():
    X = mi.cantilever_vertices(fold_angle_deg=0.0)
    mid = [2.0 if i % 2 == 0 else 1.0 for i in range(7)]
    expect = np.array([[2.0 * i, y, 0.0] for i in range(7) for y in (0.0, mid[i], 3.0)])
    np.testing.assert_allclose(X, expect, atol=1e-14)


@pytest.mark.parametrize("columns", [1, 6, 9])
@pytest.mark.parametrize("theta", [5.0, 27.4, 120.0])
def test_builder_is_an_exact_rigid_fold(columns, theta):
    pat = mi.cantilever_pattern(mi.cantilever_vertices(columns, theta))
    flat = mi.cantilever_vertices(columns, 0.0)
    X = pat.vertices
    # every panel congruent to its flat right trapezoid: four sides and both diagonals
    for loop in pat.panels:
        for i in range(4):
            for j in range(i + 1, 4):
                a, b = loop[i], loop[j]
                assert np.isclose(np.linalg.norm(X[a] - X[b]), np.linalg.norm(flat[a] - flat[b]), rtol=0, atol=1e-12)
    for p in range(pat.n_panels):
        P = pat.panel_points(p)
        m = pat.panel_normal(p)
        np.testing.assert_allclose((P - P[0]) @ m, 0.0, atol=1e-12)   # planar
    # the fold angle: normals of the panels on either side of every straight crease
    for k in range(columns - 1):
        for j in (0, 1):
            n1, n2 = pat.panel_normal(2 * k + j), pat.panel_normal(2 * k + 2 + j)
            assert np.isclose(mi.fold_angle_between(n1, n2), theta, rtol=0, atol=1e-9)
    # the zigzag vertex of column line 2 stays at (4, 2, 0), as vertex 8 in Table 1
    if columns >= 2:
        np.testing.assert_allclose(X[7], [4.0, 2.0, 0.0], atol=1e-14)


def test_table1_is_not_an_exact_rigid_fold():
    """Why the builder cannot match Table 1 to its printed digits: the table itself is not rigid.

    Edge 4-5 of Table 1 is 3.6e-4 longer than its flat length 1, about 70
    times what rounding to the printed digits can change it by.
    """
    T = mi.TABLE1_VERTICES
    H = half_ulps(os.path.join(DATA, "table01_miura_cantilever_vertices.csv"))
    flat = mi.cantilever_vertices(fold_angle_deg=0.0)
    pat = mi.cantilever_pattern(T)
    worst = 0.0
    for a, b in pat.edges:
        u = (T[b] - T[a]) / np.linalg.norm(T[b] - T[a])
        rounding = np.abs(u) @ (H[a] + H[b])        # largest length change from rounding the two ends
        err = abs(np.linalg.norm(T[b] - T[a]) - np.linalg.norm(flat[b] - flat[a]))
        worst = max(worst, err / rounding)
    assert worst > 50


def test_fold_angle_fitted_to_table1_is_the_papers():
    """The exact fold closest to Table 1 (least squares after rigid alignment) has theta = 27.4 to the text's digits."""
    def rms(theta):
        X = mi.cantilever_vertices(fold_angle_deg=theta)
        R, d = best_rigid_alignment(X, mi.TABLE1_VERTICES)
        return np.sqrt(np.mean(np.sum((X @ R.T + d - mi.TABLE1_VERTICES) ** 2, axis=1)))

    fit = minimize_scalar(rms, bounds=(26.0, 29.0), method="bounded", options={"xatol": 1e-6})
    assert abs(fit.x - 27.4) <= 0.05


@pytest.mark.xfail(strict=True, reason="Table 1 is the end of the paper's folding run, not an exact rigid fold "
                   "(test_table1_is_not_an_exact_rigid_fold): the exact fold at 27.4 deg is 1.1e-3 from it after "
                   "the best rigid alignment, more than the printed digits (<= 5e-4)")
def test_builder_matches_table1_to_printed_precision():
    X = mi.cantilever_vertices()
    R, d = best_rigid_alignment(X, mi.TABLE1_VERTICES)
    H = half_ulps(os.path.join(DATA, "table01_miura_cantilever_vertices.csv"))
    assert np.all(np.abs(X @ R.T + d - mi.TABLE1_VERTICES) <= H)


# ----------------------------------------------------------------- the cantilever: counts and Tables 2-3
@pytest.mark.parametrize("which", ["table1", "builder"])
def test_cantilever_is_isostatic(which, from_table1, from_builder):
    s = (from_table1 if which == "table1" else from_builder)[0]
    c = count(s)
    assert (c.M, c.S) == (0, 0)
    assert c.gap[0] > 1e-3   # well away from a singular configuration


@pytest.mark.parametrize("columns", [1, 2, 3, 8])
def test_cantilever_with_any_number_of_columns_is_isostatic(columns):
    s = mi.miura_cantilever(columns)
    c = count(s)
    assert (c.M, c.S) == (0, 0)
    assert [h + 1 for h, k in enumerate(s.hinge_kinds) if k == DOOR] == [3 * columns - 2]


@pytest.mark.parametrize("row", range(len(TABLE2)), ids=[f"hinge{h}-panel{p}" for h, p in PAIRS2])
def test_table2_from_table1_coordinates(row, from_table1):
    _, result = from_table1
    ours = result.hinge_rows([PAIRS2[row]])[0][2:]
    paper = TABLE2[row][2:]
    assert row_match(ours, paper, TOL2) is not None, f"distance {row_distance(ours, paper):.3g} > {TOL2:.3g}"


def test_table2_needs_the_papers_panel_frames():
    """With Newell's mean normals on Table 1's slightly warped panels, row (12, 8) misses; the rest match.

    This is how the paper's frames (plane of each loop's first three vertices) were identified.
    """
    s = mi.miura_cantilever_from_vertices(mi.TABLE1_VERTICES)
    pat = s.pattern
    newell = s.with_pattern(type(pat)(pat.vertices, pat.panels, pat.edges, normal_rule="newell"))
    rows = solve(newell).hinge_rows(PAIRS2)
    missed = [PAIRS2[k] for k, (o, p) in enumerate(zip(rows, TABLE2)) if row_match(o[2:], p[2:], TOL2) is None]
    assert missed == [(12, 8)]


@pytest.mark.parametrize("which", ["table1", "builder"])
def test_table3_supports(which, from_table1, from_builder):
    _, result = from_table1 if which == "table1" else from_builder
    rows = result.support_rows()
    assert [(r[0], r[1]) for r in rows] == [(int(r[0]), int(r[1])) for r in TABLE3]
    for ours, paper in zip(rows, TABLE3):
        np.testing.assert_allclose(ours[2:], paper[2:], rtol=0, atol=TOL3)


@pytest.mark.xfail(strict=True, reason="the paper's internal actions belong to its drifted Table 1 configuration: "
                   "on the exact fold at 27.4 deg 15 of the 16 rows differ by 1.6-7.1 x the tolerance (the best exact "
                   "fold angle, 27.415 deg, still misses by 4.95 x); reactions up to 20x the load amplify the "
                   "5e-4-1e-3 difference between Table 1 and any exact fold")
def test_table2_from_builder_geometry(from_builder):
    _, result = from_builder
    rows = result.hinge_rows(PAIRS2)
    assert all(row_match(o[2:], p[2:], TOL2) is not None for o, p in zip(rows, TABLE2))


def test_equilibrium_of_the_cantilever(from_builder):
    s, result = from_builder
    F = sum(np.asarray(r[2:]) for r in result.support_rows())
    np.testing.assert_allclose(F, [0.0, 0.0, 1.0], atol=1e-12)   # the reactions carry the unit load
    assert result.equilibrium_residual < 1e-12


# ----------------------------------------------------------------- single vertex, strips, patches
def test_single_vertex_all_door():
    s = mi.miura_single_vertex()
    door = s.with_hinge_kinds([DOOR] * 4)
    c = count(door)
    assert (c.M, c.S) == (1, 3)
    assert counting_rules(door).S_PH == 3


@pytest.mark.parametrize("door_hinge", [1, 2, 3, 4])
@pytest.mark.parametrize("sector, theta", [(60.0, 60.0), (63.43, 27.4), (45.0, 150.0)])
def test_single_vertex_any_three_sliding_hinges_are_isostatic(door_hinge, sector, theta):
    s = mi.miura_single_vertex(sector, theta, door_hinge=door_hinge)
    assert s.hinge_kinds.count(SLIDING) == 3 and s.hinge_kinds[door_hinge - 1] == DOOR
    c = count(s)
    assert (c.M, c.S) == (1, 0)


@pytest.mark.parametrize("steps", [0, 1, 2, 3, 5])
def test_sequential_strip_is_isostatic(steps):
    s = mi.miura_strip(steps, 55.0, 40.0)
    assert s.pattern.n_panels == 2 * (steps + 2) and len(s.hinge_kinds) == 4 + 3 * steps
    assert s.hinge_kinds.count(DOOR) == 1
    c = count(s)
    assert (c.M, c.S) == (1, 0)


def test_strip_with_door_hinges_gains_self_stress_with_size():
    S = []
    for steps in range(5):
        s = mi.miura_strip(steps, 55.0, 40.0)
        door = s.with_hinge_kinds([DOOR] * len(s.hinge_kinds))
        c = count(door)
        assert c.M == 1
        assert c.S == counting_rules(door).S_PH
        S.append(c.S)
    assert S == [3, 6, 9, 12, 15]   # 3 V_i: the bar framework of a two-row strip has no self-stress


@pytest.mark.parametrize("rows, cols", [(2, 2), (2, 5)])
def test_two_row_patch_counts_match_the_rules(rows, cols):
    s = mi.miura_patch(rows, cols)
    c = count(s)
    rules = counting_rules(s)
    assert c.M == 1
    assert c.S == rules.S_PH == rules.S_BF + 3 * rules.V_i


@pytest.mark.parametrize("rows, cols", [(3, 4), (4, 5), (5, 3)])
def test_larger_patch_has_one_mechanism_and_its_self_stress(rows, cols):
    """One mechanism at any size (sec. 4.2.1), and S = S_PH from the counting rules with that M.

    With three rows or more the Miura-ori is not generic: its graph at random
    vertex positions has no mechanism, the folded Miura-ori has one. The rules
    take M = 1 from the builder (``MIURA_MECHANISMS``), so
    S_BF = 1 - [(E_b - 3) - sum (V_p - 3)] and S = S_BF + 3 V_i.
    """
    s = mi.miura_patch(rows, cols, 58.0, 35.0)
    c = count(s)
    rules = counting_rules(s)
    assert rules.M_source == "builder"
    assert c.M == rules.M_BF == 1
    assert rules.S_BF == 1 - (rules.E_b - 3) + rules.sum_V_minus_3
    assert c.S == rules.S_PH == rules.S_BF + 3 * rules.V_i
    assert c.gap[0] > 1e-3


def test_fold_tangent_is_the_mechanism():
    """Finite differences of the closed-form fold lie in the null space of the paper's operator (all door)."""
    rows, cols, alpha, theta, h = 3, 4, 58.0, 35.0, 1e-4
    s = mi.miura_patch(rows, cols, alpha, theta)
    model = assemble(s)
    flat = mi.miura_vertices(rows, cols, alpha, 0.0)
    X0, Xp, Xm = (mi.miura_vertices(rows, cols, alpha, theta + e) for e in (0.0, h, -h))
    delta = np.zeros(6 * s.pattern.n_panels)
    for p, loop in enumerate(s.pattern.panels):
        loop = list(loop)
        R0, Rp, Rm = (best_rigid_alignment(flat[loop], X[loop])[0] for X in (X0, Xp, Xm))
        W = (Rp - Rm) / (2 * h) @ R0.T
        omega = 0.5 * np.array([W[2, 1] - W[1, 2], W[0, 2] - W[2, 0], W[1, 0] - W[0, 1]])
        v = loop[0]
        xdot = (Xp[v] - Xm[v]) / (2 * h)
        w = xdot - skew(omega) @ (X0[v] - model.x0)
        delta[6 * p:6 * p + 6] = np.concatenate([omega, w / model.L])
    residual = np.linalg.norm(model.Cs @ delta) / np.linalg.norm(delta)
    assert residual < 1e-7
    # and it is not a rigid motion: the panels turn relative to each other
    d = delta.reshape(-1, 6)
    assert np.linalg.norm(d[:, :3] - d[0, :3], axis=1).max() > 0.1 * np.linalg.norm(d[0, :3])


# ----------------------------------------------------------------- bad input
@pytest.mark.parametrize("call, error, message", [
    (lambda: mi.miura_cantilever(0), PatternError, "columns must be an integer >= 1, got 0"),
    (lambda: mi.miura_cantilever(2.5), PatternError, "columns must be an integer >= 1, got 2.5"),
    (lambda: mi.miura_cantilever(6, 180.0), PatternError, r"fold angle must be in \[0, 180\) degrees, got 180"),
    (lambda: mi.miura_cantilever(6, float("nan")), PatternError, "fold angle must be in"),
    (lambda: mi.miura_cantilever(6, short_base=2.0, long_base=1.0), PatternError, "long_base .* must exceed short_base"),
    (lambda: mi.miura_cantilever(6, height=-1.0), PatternError, "trapezoid height must be a positive length"),
    (lambda: mi.miura_cantilever_from_vertices(mi.TABLE1_VERTICES[:20]), PatternError, "got 20 vertices"),
    (lambda: mi.miura_cantilever_from_vertices(mi.TABLE1_VERTICES, load=np.inf), StructureError, "load must be"),
    (lambda: mi.miura_strip(-1), PatternError, "steps must be an integer >= 0"),
    (lambda: mi.miura_single_vertex(door_hinge=5), StructureError, "door_hinge must be one of .* 1-4, got 5"),
    (lambda: mi.miura_patch(3, 0), PatternError, "cols must be an integer >= 1"),
    (lambda: mi.miura_patch(3, 3, sector_angle_deg=90.0), PatternError, r"sector angle must be in \(0, 90\)"),
    (lambda: mi.miura_patch(3, 3, hinge_kind="hinge"), StructureError, "hinge_kind must be 'door', 'sliding', 'joined' or 'spherical'"),
    (lambda: mi.miura_patch(3, 3, b=0.0), PatternError, "segment length b must be a positive length"),
])
def test_bad_input_is_named(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_scrambled_table1_is_caught_as_a_pattern_error():
    X = mi.TABLE1_VERTICES.copy()
    X[[4, 5]] = X[[5, 4]]   # swap vertices 5 and 6
    with pytest.raises(PatternError, match="panel 1 is not planar|panel 2 is not planar"):
        mi.miura_cantilever_from_vertices(X)


# ----------------------------------------------------------------- scenes
def _scene(name, *args, tmp_path, code=0):
    """Run a scene; ``code``: its exit code (3: the statics is not determined, M > 0 or S > 0)."""
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = tmp_path / name
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "scenes", name + ".py"), "--engine", "reference",
                           "--out", str(out), *args], capture_output=True, text=True, env=env, cwd=ROOT)
    assert proc.returncode == code, proc.stderr
    return proc.stdout, out


def test_cantilever_scene_writes_table_2_and_3(tmp_path):
    stdout, out = _scene("miura_cantilever", tmp_path=tmp_path)
    assert "M = 0 mechanisms, S = 0 self-stress states" in stdout
    counts = json.load(open(out / "counts.json"))
    assert (counts["M"], counts["S"], counts["P"], counts["H"]) == (0, 0, 12, 16)
    _, hinges = read_paper_table(out / "hinges.csv")
    assert len(hinges) == 32
    _, supports = read_paper_table(out / "supports.csv")
    for ours, paper in zip(supports, TABLE3):
        np.testing.assert_allclose(ours[2:], paper[2:], rtol=0, atol=TOL3)


def test_cantilever_scene_by_default_reproduces_table_2(tmp_path):
    """The main job runs at the paper's Table 1 coordinates and says so first: its hinges.csv is Table 2."""
    stdout, out = _scene("miura_cantilever", tmp_path=tmp_path)
    assert stdout.splitlines()[0].startswith("Miura-ori cantilever at the paper's Table 1 coordinates")
    _, hinges = read_paper_table(out / "hinges.csv")
    index = {(int(r[0]), int(r[1])): r for r in hinges}
    for h, p in PAIRS2:   # the CSV keeps every digit
        assert row_match(index[(h, p)][2:], TABLE2[PAIRS2.index((h, p))][2:], TOL2) is not None
    # the scene's docstring: within 4.2e-5 (Table 2) and 1.2e-5 (Table 3) of the tables' largest entries
    gap = max(row_distance(index[pair][2:], paper[2:]) for pair, paper in zip(PAIRS2, TABLE2))
    assert f"{gap / max(np.abs(r[2:]).max() for r in TABLE2):.1e}" == "4.2e-05"
    _, supports = read_paper_table(out / "supports.csv")
    gap = max(np.abs(ours[2:] - paper[2:]).max() for ours, paper in zip(supports, TABLE3))
    assert f"{gap / max(np.abs(r[2:]).max() for r in TABLE3):.1e}" == "1.2e-05"


def test_cantilever_scene_exact_fold_says_how_far_it_is_from_table_2(tmp_path):
    """--exact: the closed-form fold; its first line gives the distance from Table 2, which is true (1.4e-3)."""
    stdout, out = _scene("miura_cantilever", "--exact", tmp_path=tmp_path)
    first = stdout.splitlines()[0]
    assert first.startswith("Miura-ori cantilever, exact rigid fold (6 columns, 27.4 deg)")
    assert "differ from Table 2 by 1.4e-3 of its largest entry" in first
    _, hinges = read_paper_table(out / "hinges.csv")
    index = {(int(r[0]), int(r[1])): r for r in hinges}
    scale = max(np.abs(r[2:]).max() for r in TABLE2)
    gap = max(row_distance(index[pair][2:], paper[2:]) for pair, paper in zip(PAIRS2, TABLE2)) / scale
    assert f"{gap:.1e}" == "1.4e-03"
    stdout, out = _scene("miura_cantilever", "--exact", "--angle", "40", tmp_path=tmp_path)
    assert "not the paper's case" in stdout.splitlines()[0]
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.run([sys.executable, os.path.join(ROOT, "scenes", "miura_cantilever.py"), "--columns", "4"],
                       capture_output=True, text=True, env=env, cwd=ROOT)
    assert p.returncode == 2 and p.stderr.strip() == "error: --columns and --angle shape the exact fold: add --exact"


def test_single_vertex_and_strip_scenes(tmp_path):
    stdout, out = _scene("miura_single_vertex", tmp_path=tmp_path, code=3)     # M = 1
    assert json.load(open(out / "counts.json"))["S"] == 0
    stdout, out = _scene("miura_strip", "--steps", "3", "--all-door", tmp_path=tmp_path, code=3)
    assert json.load(open(out / "counts.json"))["S"] == 12
    # self_stress.csv: 12 states, each both sides of the 13 door hinges, each self-equilibrated
    header, rows = read_paper_table(out / "self_stress.csv")
    assert header == ["state", "hinge", "panel", "MT", "MP", "MO", "N", "TP", "TO"]
    strip = mi.miura_strip(3)
    pat = strip.pattern
    sides = sorted((h.index + 1, p + 1) for h in pat.hinges for p in h.panels)
    assert len(rows) == 12 * len(sides) == 12 * 26
    states = np.zeros((12, len(sides), 6))
    for r in rows:
        states[int(r[0]) - 1, sides.index((int(r[1]), int(r[2])))] = r[3:]
    for k, state in enumerate(states):
        scale = np.abs(state).max()
        tol = 1e-5 * scale * pat.size                # the CSV's digits
        assert np.abs(state[:, 1]).max() <= tol      # MP = 0: a hinge turns freely about its axis
        # every panel is in equilibrium under its hinges' rows alone (no load, no support), rebuilt on the
        # documented frame; so are the two sides of every hinge (action and reaction)
        total = np.zeros((pat.n_panels, 6))
        for (h, p), values in zip(sides, state):
            f, m = wrench(pat, h - 1, p - 1, values)
            total[p - 1] += np.concatenate([f, m])
        assert np.abs(total).max() <= tol, k + 1
    # the 12 states span the self-stress space that the count finds (to the CSV's digits)
    c = count(strip.with_hinge_kinds((DOOR,) * len(pat.hinges)))
    assert c.S == 12
    ours = np.array([np.concatenate([a.values for a in sorted(acts, key=lambda a: (a.hinge, a.panel))])
                     for acts in self_stress_actions(strip.with_hinge_kinds((DOOR,) * len(pat.hinges)), c)])
    csv = states.reshape(12, -1) / np.abs(states).max()
    s_csv = np.linalg.svd(csv, compute_uv=False)
    s_both = np.linalg.svd(np.vstack([ours / np.abs(ours).max(), csv]), compute_uv=False)
    assert s_csv[11] > 1e-2 * s_csv[0]                          # 12 independent states
    assert s_both[12] < 1e-4 * s_both[0]                        # in the counted space


# ----------------------------------------------------------------- pattern.normal_rule (shared change)
def test_normal_rules_agree_on_planar_panels_and_differ_on_table1():
    exact = mi.cantilever_pattern(mi.cantilever_vertices())
    newell = type(exact)(exact.vertices, exact.panels, exact.edges)
    for p in range(exact.n_panels):
        np.testing.assert_allclose(exact.panel_normal(p), newell.panel_normal(p), atol=1e-14)
    t1 = mi.cantilever_pattern(mi.TABLE1_VERTICES)
    assert t1.normal_rule == "first-three" and t1.with_vertices(t1.vertices).normal_rule == "first-three"
    gaps = [mi.fold_angle_between(t1.panel_normal(p), newell.with_vertices(mi.TABLE1_VERTICES).panel_normal(p))
            for p in range(12)]
    assert 0.02 < max(gaps) < 0.04   # degrees: Table 1's panels are warped by up to 6e-4 rad


def test_normal_rule_errors_are_named():
    from chrono_origami.crease.pattern import CreasePattern

    sq = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]]
    with pytest.raises(PatternError, match="normal_rule must be one of"):
        CreasePattern(sq, [(0, 1, 2, 3)], normal_rule="mean")
    dart = [[0, 0, 0], [2, 0, 0], [1, 0.5, 0], [1, 2, 0]]   # reflex corner at vertex 3
    CreasePattern(dart, [(1, 2, 3, 0)])
    CreasePattern(dart, [(0, 1, 2, 3)], normal_rule="first-three")
    with pytest.raises(PatternError, match=r"panel 1: its first three vertices \[2, 3, 4\] are collinear or turn"):
        CreasePattern(dart, [(1, 2, 3, 0)], normal_rule="first-three")
