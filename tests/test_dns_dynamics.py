"""dynamics(structure, engine="reference"): panel-hinge structures by the discrete null space method."""
import numpy as np
import pytest

from chrono_origami.analysis import static as analysis
from chrono_origami.inputs.dynamics import CreaseSpring, InitialState, Motor
from chrono_origami.analysis.dynamics import dynamics
from chrono_origami.report.dynamics import write_history
from chrono_origami.tools.errors import OrigamiError, StructureError
from chrono_origami.crease.pattern import CreasePattern
from chrono_origami.structure.structure import Load, Structure, Support
from chrono_origami.structure.hinges import DOOR, SLIDING

X = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [2, 0, 0], [2, 1, 0]]
PANELS = [(0, 1, 2, 3), (1, 4, 5, 2)]
SUPPORTS = (Support(0, 0, "xyz"), Support(3, 0, "xz"), Support(1, 0, "z"))


def two_panels(kind=DOOR, supports=(), gravity=None, loads=(), thickness=0.05, density=100.0):
    return Structure(CreasePattern(X, PANELS), (kind,), thickness=thickness, density=density, supports=supports,
                     loads=loads, gravity=gravity)


@pytest.mark.parametrize("kind", [DOOR, SLIDING])
def test_hinge_actions_and_reactions_match_statics_at_rest(kind):
    """An isostatic structure under gravity and a dead load stays at rest; the multipliers give analysis.static's
    hinge actions and support reactions, in the same {n, t, m} convention."""
    extra = (Support(4, 1, "z"),) + ((Support(5, 1, "y"),) if kind == SLIDING else ())
    s = two_panels(kind, SUPPORTS + extra, (0, 0, -9.81), (Load(5, (0.3, 0, -1.0), 1),))
    st = analysis.static(s, "reference")
    assert st.status == "determined"
    for integrator in ("reduced", "constrained"):
        h = dynamics(s, "reference", integrator=integrator, time=0.05, dt=0.01)
        assert h.info["mobility"] == 0
        assert np.abs(h.vertices - h.vertices[0]).max() < 1e-14
        scale = np.abs(np.array(st.hinge_rows())[:, 2:]).max()
        for k in (0, -1):
            np.testing.assert_allclose(np.array(h.hinge_rows(k))[:, 2:], np.array(st.hinge_rows())[:, 2:],
                                       atol=1e-12 * scale)
            np.testing.assert_allclose(np.array(h.support_rows(k))[:, 2:], np.array(st.support_rows())[:, 2:],
                                       atol=1e-12 * scale)


def test_free_flight_keeps_momenta_and_balances_spring_and_damper():
    """No supports, no gravity: a sliding hinge with a crease spring and a damper. Linear and angular momentum
    are kept; kinetic + spring + dissipated is constant (the discrete gradient); the damper dissipates."""
    s = two_panels(SLIDING)
    rng = np.random.default_rng(0)
    vel = rng.normal(size=(2, 6))                       # inconsistent: projected on the constraints
    h = dynamics(s, "reference", time=0.5, dt=0.01, initial=InitialState(velocities=vel),
                 springs=[CreaseSpring(0, stiffness=2.0, damping=0.05, rest=0.3)])
    assert np.abs(h.balance_error).max() < 1e-10 * h.energy_scale
    assert h.dissipated[-1] > 1e-3 * h.energy_scale
    assert np.all(np.diff(h.dissipated) >= 0)
    np.testing.assert_allclose(h.linear_momentum, h.linear_momentum[[0]] * np.ones((len(h.t), 1)),
                               atol=1e-12 * np.abs(h.linear_momentum).max())
    np.testing.assert_allclose(h.angular_momentum, h.angular_momentum[[0]] * np.ones((len(h.t), 1)),
                               atol=1e-11 * np.abs(h.angular_momentum).max())
    assert h.constraint_violation.max() < 1e-12
    assert h.spring.max() > 0 and h.hinge_moments.shape == (len(h.t), 1)


def test_torque_motor_work_and_fixed_panel():
    """Panel 1 held fixed, a torque motor and a crease spring on the door hinge, gravity: the energy balance
    kinetic + potential + spring - work closes; the motor's work is tau times the turned angle."""
    s = two_panels(DOOR, gravity=(0, 0, -9.81))
    tau = 0.4
    h = dynamics(s, "reference", time=0.3, dt=0.005, motors=[Motor(0, "torque", tau)],
                 springs=[CreaseSpring(0, stiffness=1.0)], fixed_panels=(0,))
    assert np.abs(h.balance_error).max() < 1e-10 * h.energy_scale
    psi = h.info["joint"][:, 0]                          # the hinge's relative rotation psi
    np.testing.assert_allclose(h.work, tau * psi, atol=1e-12 * np.abs(h.work).max())
    assert np.abs(h.work[-1]) > 1e-3 and np.all(h.kinetic[1:] > 0)
    np.testing.assert_allclose(h.hinge_moments[:, 0] - tau, -psi, atol=1e-9)   # k (phi - rest), phi = -psi


def test_dead_load_work_on_a_hinged_panel_balances_to_round_off():
    """Panel 1 held fixed, no gravity: a dead load F on the free corner (vertex 5) of panel 2 swings it about the
    door hinge from rest. The load's work is F . (displacement of vertex 5), computed here from the vertex
    history, independently of the engine's load potential; the kinetic energy equals it to round-off, in both
    schemes; and the corner starts moving along F (a flipped sign would move it against F)."""
    F = np.array([2.0, 3.0, -10.0])
    s = two_panels(DOOR, loads=(Load(4, tuple(F), 1),))
    for integrator in ("reduced", "constrained"):
        h = dynamics(s, "reference", integrator=integrator, time=0.2, dt=0.005, fixed_panels=(0,))
        d = h.vertices[:, 4] - h.vertices[0, 4]
        assert d[1] @ F > 0 and np.abs(d[-1]).max() > 0.1                      # it swings, along F
        np.testing.assert_allclose(h.work, d @ F, rtol=0, atol=1e-12 * np.abs(h.work).max())
        np.testing.assert_allclose(h.kinetic, h.work, rtol=0, atol=1e-12 * np.abs(h.work).max())
        assert np.abs(h.balance_error).max() < 1e-12 * h.energy_scale
        assert h.potential.max() == h.potential.min() == 0.0 and h.work[-1] > 0.01


def test_both_schemes_and_the_history_files(tmp_path):
    s = two_panels(DOOR, SUPPORTS, (0, 0, -9.81))
    a = dynamics(s, "reference", time=0.1, dt=0.01)
    b = dynamics(s, "reference", integrator="constrained", time=0.1, dt=0.01)
    np.testing.assert_allclose(a.vertices, b.vertices, atol=1e-10)
    assert np.abs(a.balance_error).max() < 1e-10 * a.energy_scale
    paths = write_history(a, tmp_path)
    assert len(paths) == 6 and all(p.exists() if hasattr(p, "exists") else True for p in paths)
    header = "t,kinetic,potential,spring,work,dissipated,balance_error"
    assert open(tmp_path / "energy.csv").readline().strip() == header


def test_refused_inputs_are_one_line_errors():
    s = two_panels(DOOR, SUPPORTS)
    with pytest.raises(OrigamiError, match="torque motors only: the motor on hinge 1 is an angle motor"):
        dynamics(s, "reference", time=0.1, dt=0.01, motors=[Motor(0, "angle", "0.1*t")])
    with pytest.raises(StructureError, match="panel 1 has no mass"):
        dynamics(two_panels(DOOR, SUPPORTS, thickness=0.0), "reference", time=0.1, dt=0.01)
    with pytest.raises(OrigamiError, match="no option 'alpha'"):
        dynamics(s, "reference", time=0.1, dt=0.01, alpha=-0.1)
    with pytest.raises(OrigamiError, match="reference engine has no integrator 'hht'"):
        dynamics(s, "reference", integrator="hht", time=0.1, dt=0.01)
    with pytest.raises(StructureError, match="at most 1 panels"):
        dynamics(s, "reference", time=0.1, dt=0.01, max_bodies=1)
    for err in (s, ):
        assert "\n" not in str(pytest.raises(OrigamiError, dynamics, err, "reference", time=0.1, dt=0.01,
                                             motors=[Motor(0, "speed", 1.0)]).value)


@pytest.mark.chrono
def test_swinging_panel_agrees_with_chrono():
    """The same structure in both engines: a door-hinged panel swinging under gravity from a supported one."""
    s = two_panels(DOOR, SUPPORTS, (0, 0, -9.81))
    r = dynamics(s, "reference", time=0.3, dt=1e-3, output_interval=0.1)
    c = dynamics(s, "chrono", time=0.3, dt=1e-4, output_interval=0.1)
    assert np.abs(r.vertices[-1] - c.vertices[-1]).max() < 2e-3
    assert np.abs(r.vertices[-1] - r.vertices[0]).max() > 0.1             # it did swing
    A, B = np.array(r.hinge_rows(-1))[:, 2:], np.array(c.hinge_rows(-1))[:, 2:]
    assert np.abs(A - B).max() < 1e-2 * np.abs(B).max()
    R, C = np.array(r.support_rows(-1))[:, 2:], np.array(c.support_rows(-1))[:, 2:]
    assert np.abs(R - C).max() < 1e-2 * np.abs(C).max()


@pytest.fixture(scope="module")
def miura_strip_motion():
    """The Miura-ori strip of scenes/miura_deploy.py (8 panels, closed loops, 9 sliding hinges, 3 supports) under
    gravity, a torque motor and a damped crease spring, by the reference engine: (structure, the dynamics keywords,
    the history), shared read-only by the two tests below."""
    from chrono_origami.inputs.dynamics_examples import miura_deploy

    st, _, _ = miura_deploy(2)
    kw = dict(time=0.2, output_interval=0.05, motors=[Motor(0, "torque", "0.5*sin(10*t)")],
              springs=[CreaseSpring(3, 5.0, 0.1)])
    return st, kw, dynamics(st, "reference", dt=2e-3, **kw)


def test_closed_loops_of_sliding_hinges_balance(miura_strip_motion):
    """The strip's energy balance closes, its constraints hold, and it moves."""
    st, _, h = miura_strip_motion
    assert h.info["mobility"] == 1
    assert np.abs(h.balance_error).max() < 1e-10 * h.energy_scale
    assert h.constraint_violation.max() < 1e-12
    assert np.abs(h.vertices[-1] - h.vertices[0]).max() > 1e-2


@pytest.mark.chrono
def test_closed_loops_of_sliding_hinges_agree_with_chrono(miura_strip_motion):
    """Chrono's HHT at a tenth of the step gives the strip's motion and hinge actions."""
    st, kw, h = miura_strip_motion
    c = dynamics(st, "chrono", dt=2e-4, **kw)
    assert np.abs(h.vertices[-1] - c.vertices[-1]).max() < 1e-6 * st.pattern.size
    A, B = np.array(h.hinge_rows(-1))[:, 2:], np.array(c.hinge_rows(-1))[:, 2:]
    assert np.abs(A - B).max() < 1e-5 * np.abs(B).max()


def test_a_failed_step_stops_with_the_motion_so_far():
    from chrono_origami.tools.errors import DynamicsError

    s = two_panels(DOOR, SUPPORTS, (0, 0, -9.81))
    with pytest.raises(DynamicsError) as info:
        dynamics(s, "reference", time=0.1, dt=0.01, max_iterations=1, tol=1e-30)
    assert "Newton did not converge" in str(info.value) and info.value.time == 0.0
    assert info.value.history is not None and len(info.value.history.t) == 1
