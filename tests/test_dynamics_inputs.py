"""Engine-neutral parts of dynamics: expressions, motors, springs, initial states, velocity projection,
the time grid, TimeHistory and its CSV/FOLD writers. No PyChrono needed."""
import csv
import math

import numpy as np
import pytest

from chrono_origami.structure import foldfile
from chrono_origami.inputs.dynamics import INTEGRATORS, check_integrator
from chrono_origami.report.dynamics import FILES, write_history
from chrono_origami.results.dynamics import ENERGY_HEADER, HINGE_T_HEADER, MOMENTUM_HEADER, SUPPORT_T_HEADER
from chrono_origami.results.dynamics import TimeHistory
from chrono_origami.inputs.expression import Expression, derivative
from chrono_origami.tools.errors import ExpressionError
from chrono_origami.inputs.dynamics import (CreaseSpring, InitialState, Motor, check_inputs, consistent_velocities,
                                          parse_motor, parse_spring, schedule)
from chrono_origami.tools.errors import OrigamiError, StructureError
from chrono_origami.tools.geometry import rotation_about
from chrono_origami.patterns import simple
from chrono_origami.results.static import SupportReaction, hinge_actions
from chrono_origami.structure.structure import Structure, Support


# ---------------------------------------------------------------- expressions
@pytest.mark.parametrize("text, f, df", [
    ("0.5*(1 - cos(pi*t))", lambda t: 0.5 * (1 - math.cos(math.pi * t)), lambda t: 0.5 * math.pi * math.sin(math.pi * t)),
    ("t**3 - 2/t", lambda t: t ** 3 - 2 / t, lambda t: 3 * t ** 2 + 2 / t ** 2),
    ("exp(-t)*sin(3*t)", lambda t: math.exp(-t) * math.sin(3 * t),
     lambda t: math.exp(-t) * (3 * math.cos(3 * t) - math.sin(3 * t))),
    ("sqrt(1 + t**2) + log(t) + tanh(t)", lambda t: math.sqrt(1 + t * t) + math.log(t) + math.tanh(t),
     lambda t: t / math.sqrt(1 + t * t) + 1 / t + 1 - math.tanh(t) ** 2),
    ("t**t", lambda t: t ** t, lambda t: t ** t * (math.log(t) + 1)),
    ("min(2*t, 1) + max(t, 0.5) - clip(t, 0.2, 0.4)", lambda t: min(2 * t, 1) + max(t, 0.5) - min(max(t, 0.2), 0.4),
     lambda t: (2 if 2 * t <= 1 else 0) + (1 if t >= 0.5 else 0) - (1 if 0.2 < t < 0.4 else 0)),
    ("-atan(t) + asin(t/2) + acos(t/3) + abs(t - 1)", lambda t: -math.atan(t) + math.asin(t / 2) + math.acos(t / 3) + abs(t - 1),
     lambda t: -1 / (1 + t * t) + 0.5 / math.sqrt(1 - t * t / 4) - (1 / 3) / math.sqrt(1 - t * t / 9) + math.copysign(1, t - 1)),
])
def test_expression_values_and_exact_derivatives(text, f, df):
    e = Expression(text)
    for t in (0.3, 0.45, 0.7, 1.3):
        assert e(t) == pytest.approx(f(t), rel=1e-14, abs=1e-14)
        assert e.derivative()(t) == pytest.approx(df(t), rel=1e-13, abs=1e-13)


def test_expression_second_derivative_and_arrays():
    e = Expression("0.2*t**2 + sin(2*t)")
    d2 = e.derivative().derivative()
    t = np.linspace(0, 2, 7)
    np.testing.assert_allclose(d2(t), 0.4 - 4 * np.sin(2 * t), rtol=0, atol=1e-14)
    assert Expression("3").derivative()(1.0) == 0.0


@pytest.mark.parametrize("text, words", [
    ("__import__('os').system('x')", "not allowed"),
    ("x + 1", "unknown name 'x'"),
    ("foo(t)", "unknown function 'foo'"),
    ("sin(t, 2)", "takes 1 argument"),
    ("t +", "not a valid expression"),
    ("t if t else 0", "not allowed"),
    ("t.real", "not allowed"),
    ("[t]", "not allowed"),
])
def test_expression_refuses_with_a_clear_message(text, words):
    with pytest.raises(ExpressionError, match=words.replace("(", r"\(")):
        Expression(text)


def test_numeric_derivative_of_a_callable():
    d = derivative(lambda t: math.sin(3 * t))
    assert d(0.4) == pytest.approx(3 * math.cos(1.2), abs=1e-9)


# ---------------------------------------------------------------- motors, springs
def test_motor_and_spring_validation():
    m = Motor(2, "angle", "0.1*t")
    assert m.value(2.0) == pytest.approx(0.2) and m.describe().startswith("hinge 3 angle")
    assert Motor(0, "torque", 1.5).value(7.0) == 1.5
    assert Motor(0, "speed", lambda t: 2 * t).value(0.5) == 1.0
    with pytest.raises(StructureError, match="mode 'force'"):
        Motor(0, "force", "t")
    with pytest.raises(StructureError, match="hinge 0 is not"):
        Motor(-1, "angle", "t")
    with pytest.raises(OrigamiError, match="expected a function of time"):
        Motor(0, "angle", [1, 2])
    s = CreaseSpring(1, 2.0, 0.5, 0.3)
    assert s.moment(0.5, 2.0, 0.3) == pytest.approx(-2.0 * 0.2 - 0.5 * 2.0)
    assert s.energy(0.5, 0.3) == pytest.approx(0.04)
    with pytest.raises(StructureError, match="hinge 2: stiffness"):
        CreaseSpring(1, -1.0)
    with pytest.raises(StructureError, match="hinge 2: damping"):
        CreaseSpring(1, 1.0, float("nan"))
    with pytest.raises(StructureError, match="rest angle"):
        CreaseSpring(1, 1.0, 0.0, "flat")


def test_check_inputs_names_the_hinge():
    st = Structure(simple.rectangular_ring())
    H = len(st.pattern.hinges)
    with pytest.raises(StructureError, match=f"hinge {H + 1}: the structure has hinges 1..{H}"):
        check_inputs(st, [Motor(H, "angle", "t")])
    with pytest.raises(StructureError, match="hinge 1 has two motors"):
        check_inputs(st, [Motor(0, "angle", "t"), Motor(0, "torque", "1")])
    with pytest.raises(StructureError, match="hinge 1 has two crease springs"):
        check_inputs(st, springs=[CreaseSpring(0, 1.0), CreaseSpring(0, 2.0)])


def test_cli_parsers():
    m = parse_motor("3:0.5*(1-cos(t))", 5)
    assert (m.hinge, m.mode) == (2, "angle") and m.value(0.0) == 0.0
    assert parse_motor("1:torque:2", 5).mode == "torque"
    assert parse_motor("1:speed:0.3*t", 5).value(1.0) == pytest.approx(0.3)
    with pytest.raises(OrigamiError, match="hinge 6 does not exist"):
        parse_motor("6:t", 5)
    with pytest.raises(OrigamiError, match="expected H:FUNC"):
        parse_motor("t", 5)
    springs = parse_spring("1,3-4:2.5,0.1,0.2", 5)
    assert [s.hinge for s in springs] == [0, 2, 3]
    assert (springs[0].stiffness, springs[0].damping, springs[0].rest) == (2.5, 0.1, 0.2)
    assert [s.hinge for s in parse_spring("all:1", 3)] == [0, 1, 2]
    assert parse_spring("2:1", 3)[0].rest is None
    with pytest.raises(OrigamiError, match="must be numbers"):
        parse_spring("2:a,b", 3)


# ---------------------------------------------------------------- initial state
def _two_panels():
    X = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [-1, 1, 0], [-1, 0, 0]]
    from chrono_origami.crease.pattern import CreasePattern

    return Structure(CreasePattern(X, [[0, 1, 2, 3], [0, 3, 4, 5]]), thickness=0.1, name="two panels")


def test_initial_state_poses_and_refusals():
    st = _two_panels()
    R = rotation_about([0, 1, 0], 0.4)
    X = st.pattern.vertices.copy()
    X[[1, 2]] = X[[1, 2]] @ R.T            # fold panel 1 about the hinge (x = 0)
    poses = InitialState(X).poses(st)
    np.testing.assert_allclose(poses[0][0], R, atol=1e-12)
    np.testing.assert_allclose(poses[1][0], np.eye(3), atol=1e-12)
    bad = X.copy()
    bad[2, 2] += 1e-3
    with pytest.raises(StructureError, match="moves panel 1 non-rigidly"):
        InitialState(bad).poses(st)
    with pytest.raises(StructureError, match="vertex 2 has a non-finite"):
        InitialState([[0, 0, 0], [np.nan, 0, 0]])
    with pytest.raises(StructureError, match="2 x 6"):
        InitialState(velocities=np.zeros((3, 6))).panel_velocities(st)


def test_initial_state_from_fold_frame_and_history(tmp_path):
    st = _two_panels()
    X = st.pattern.vertices.copy()
    X[[1, 2]] = X[[1, 2]] @ rotation_about([0, 1, 0], 0.4).T
    path = str(tmp_path / "h.fold")
    foldfile.write_fold(st, path, frames=[X], times=[0.5])
    np.testing.assert_allclose(InitialState.from_fold_frame(path, 1).vertices, X)
    h = _history(st)
    s = InitialState.from_history(h, time=0.1)
    np.testing.assert_allclose(s.vertices, h.vertices[1])
    np.testing.assert_allclose(s.velocities, h.velocities[1])


def test_consistent_velocities_is_the_mass_weighted_projection():
    rng = np.random.default_rng(3)
    n, m = 12, 5
    Cq = rng.normal(size=(m, n))
    Cq = np.vstack([Cq, Cq[0] + Cq[1]])     # a redundant row
    blocks = []
    for _ in range(2):
        A = rng.normal(size=(6, 6))
        blocks.append(A @ A.T + 6 * np.eye(6))
    M = np.zeros((n, n))
    M[:6, :6], M[6:, 6:] = blocks
    v = rng.normal(size=n)
    ct = Cq @ rng.normal(size=n)
    w, change = consistent_velocities(Cq, v, blocks, ct=-ct)
    np.testing.assert_allclose(Cq @ w, ct, atol=1e-11)
    # KKT of min (w - v)^T M (w - v) s.t. Cq w = ct: M (w - v) in the row space of Cq
    lam = np.linalg.lstsq(Cq.T, M @ (w - v), rcond=None)[0]
    np.testing.assert_allclose(Cq.T @ lam, M @ (w - v), atol=1e-10)
    assert change > 0
    same, zero = consistent_velocities(Cq, w, blocks, ct=-ct)
    np.testing.assert_allclose(same, w, atol=1e-13)
    as_matrix, _ = consistent_velocities(Cq, v, M, ct=-ct)         # M as a matrix: the same projection
    np.testing.assert_allclose(as_matrix, w, atol=1e-12)


def test_schedule():
    assert schedule(1.0, 0.1) == (10, 1)
    assert schedule(1.0, 0.3) == (4, 1)
    assert schedule(2.0, 1e-3, 0.01) == (2000, 10)
    assert schedule(1.0, 0.1, 0.01) == (10, 1)
    with pytest.raises(OrigamiError, match="dt must be a positive"):
        schedule(1.0, 0.0)
    with pytest.raises(OrigamiError, match="output_interval must be"):
        schedule(1.0, 0.1, -1)


def test_integrator_names():
    assert check_integrator("chrono", None) == "hht"
    assert check_integrator("reference", None) == "reduced"
    assert set(INTEGRATORS) == {"chrono", "reference"}
    with pytest.raises(OrigamiError, match="the chrono engine has no integrator 'reduced'"):
        check_integrator("chrono", "reduced")


# ---------------------------------------------------------------- history and writers
def _history(st):
    pat = st.pattern
    K = 3
    t = np.array([0.0, 0.1, 0.2])
    kin = np.array([0.0, 1.0, 2.0])
    pot = np.array([5.0, 4.0, 2.5])
    spring = np.array([0.0, 0.25, 0.5])
    work = np.array([0.0, 0.25, 0.5])
    diss = np.array([0.0, 0.0, 0.5])
    frames, sups = [], []
    for k in range(K):
        w = [(np.array([1.0 + k, 2.0, 3.0]), np.array([0.5, -0.25, 0.125 * k]))]
        frames.append(hinge_actions(pat, st.hinge_kinds, w))
        sups.append([SupportReaction(0, 1, 0, "xyz", np.array([0.0, 0.0, 9.5 + k]))])
    V = np.repeat(pat.vertices[None], K, axis=0)
    return TimeHistory(st, "test", "none", 0.1, t, kin, pot, spring, work, diss, np.ones((K, 3)) * [[1], [2], [3]],
                       np.zeros((K, 3)), np.array([0.0, 1e-12, 2e-12]), frames, sups, V,
                       velocities=np.arange(K * 2 * 6, dtype=float).reshape(K, 2, 6))


def test_time_history_balance_and_scale():
    h = _history(_two_panels())
    # balance = K + V + S - W + D = 5, 5, 5: no error
    np.testing.assert_allclose(h.balance_error, 0.0)
    assert h.energy_scale == 2.5       # |V - V0| at the end
    # the moment about the panels' normal m grows with k: its peak is at the last frame, 0.125 * 2
    absval, val, t, hinge, panel = h.peak("MO")
    assert (absval, t, hinge) == (0.25, 0.2, 1) and abs(val) == 0.25
    assert absval == np.abs(h.hinge_series()[:, :, 2]).max()
    with pytest.raises(ValueError, match="unknown hinge column"):
        h.peak("Q")
    with pytest.raises(ValueError, match="kinetic has shape"):
        TimeHistory(h.structure, "x", "y", 0.1, h.t, h.kinetic[:2], h.potential, h.spring, h.work, h.dissipated,
                    h.linear_momentum, h.angular_momentum, h.constraint_violation, h.hinge_actions,
                    h.support_reactions, h.vertices)


def _read(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    return tuple(rows[0]), rows[1:]


def test_writers_full_precision_one_based(tmp_path):
    st = _two_panels()
    st = Structure(st.pattern, thickness=0.1, supports=(Support(1, 0),), name="two panels")
    h = _history(st)
    h.kinetic[1] = 1.0 / 3.0
    paths = write_history(h, str(tmp_path / "out"))
    assert [p.split("/")[-1] for p in paths] == list(FILES)
    head, rows = _read(paths[0])
    assert head == ENERGY_HEADER and len(rows) == 3
    assert float(rows[1][1]) == 1.0 / 3.0                  # the shortest text that round-trips
    assert float(rows[1][-1]) == pytest.approx(h.balance_error[1], abs=0)
    head, rows = _read(paths[1])
    assert head == MOMENTUM_HEADER and [float(r[1]) for r in rows] == [1.0, 2.0, 3.0]
    head, rows = _read(paths[3])
    assert head == HINGE_T_HEADER and len(rows) == 3 * 2
    assert rows[0][1:3] == ["1", "1"] and rows[1][1:3] == ["1", "2"]
    a = h.hinge_actions[2][1]
    np.testing.assert_array_equal([float(x) for x in rows[5][3:]], a.values)
    head, rows = _read(paths[4])
    assert head == SUPPORT_T_HEADER and rows[2] == ["0.2", "1", "2", "0.0", "0.0", "11.5"]
    frames = foldfile.read_frames(paths[5])
    assert len(frames) == 2
    import json

    data = json.load(open(paths[5]))
    assert [f["origami:time"] for f in data["file_frames"]] == [0.1, 0.2]


def test_hinge_actions_in_moving_frames():
    """results.hinge_actions with panel rotations: the rows are the wrench's components in each panel's frame as
    moved; a rigid rotation of everything leaves every row unchanged, and a fold turns only the first panel's."""
    st = _two_panels()
    pat = st.pattern
    F, M = np.array([0.3, -1.2, 2.5]), np.array([0.7, 0.1, -0.4])
    ref = hinge_actions(pat, st.hinge_kinds, [(F, M)])
    R = rotation_about([0.3, -0.5, 0.8], 1.1)
    moved = hinge_actions(pat, st.hinge_kinds, [(R @ F, R @ M)], rotations=[R, R], midpoints=[R @ ref[0].midpoint])
    for a, b in zip(ref, moved):
        np.testing.assert_allclose(b.values, a.values, atol=1e-14)
        np.testing.assert_allclose(b.frame, R @ a.frame, atol=1e-15)
    # hinge 1 joins panel 1 (p, first) and panel 2 (q): fold p by 0.4 about the hinge axis (x = 0, along y)
    Rp = rotation_about([0, 1, 0], 0.4)
    folded = hinge_actions(pat, st.hinge_kinds, [(F, M)], rotations=[Rp, np.eye(3)], midpoints=[ref[0].midpoint])
    side_p = next(a for a in folded if a.panel == 0)
    np.testing.assert_allclose(side_p.values, np.concatenate([(Rp @ ref[0].frame).T @ -M, (Rp @ ref[0].frame).T @ -F]),
                               atol=1e-14)
    np.testing.assert_allclose(next(a for a in folded if a.panel == 1).values, ref[1].values, atol=1e-14)
