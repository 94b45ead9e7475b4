"""Dynamics in Chrono against closed forms, conservation laws, statics and the kinematic fold.

Needs PyChrono (marked ``chrono``; skipped with the reason when it is missing).
Longer runs and the dt studies are in benchmarks/dynamics.py.
"""
import math
import os
import subprocess
import sys

import numpy as np
import pytest

from chrono_origami import engines

pytest.importorskip("pychrono", exc_type=ImportError, reason=engines.chrono_unavailable_reason())

from scipy.special import ellipk  # noqa: E402

from chrono_origami.analysis import static as analysis  # noqa: E402
from chrono_origami.inputs.dynamics import CreaseSpring, InitialState, Motor
from chrono_origami.analysis.dynamics import dynamics  # noqa: E402
from chrono_origami.inputs.dynamics_examples import kresling_drop, miura_deploy  # noqa: E402
from chrono_origami.tools.errors import DynamicsError, StructureError  # noqa: E402
from chrono_origami.inputs.fold import Drive, FoldProblem  # noqa: E402
from chrono_origami.engines.reference.fold.newton import fold  # noqa: E402
from chrono_origami.tools.geometry import rotation_about  # noqa: E402
from chrono_origami.crease.pattern import CreasePattern  # noqa: E402
from chrono_origami.patterns import simple  # noqa: E402
from chrono_origami.structure.structure import Structure, Support  # noqa: E402
from cli_output import run  # noqa: E402

pytestmark = pytest.mark.chrono

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
G = 9.81


# ------------------------------------------------------------------ compound pendulum
W, HGT, TH, RHO = 0.4, 0.3, 0.02, 1000.0


def pendulum():
    """One thick panel hanging from a door hinge to the ground (supports xyz and yz on its top edge, along x)."""
    X = np.array([[0, 0, 0], [W, 0, 0], [W, 0, -HGT], [0, 0, -HGT]], float)
    pat = CreasePattern(X, [[0, 3, 2, 1]])
    return Structure(pat, thickness=TH, density=RHO, supports=(Support(0, 0, "xyz"), Support(1, 0, "yz")),
                     gravity=(0.0, 0.0, -G), name="compound pendulum")


def swing_period(theta0_deg, periods=1.0):
    """Period measured between the first two downward zero crossings of the swing angle (linear interpolation)."""
    st = pendulum()
    theta0 = math.radians(theta0_deg)
    X0 = st.pattern.vertices @ rotation_about([1, 0, 0], theta0).T
    I = RHO * TH * W * HGT * (HGT ** 2 / 3 + TH ** 2 / 12)          # about the hinge axis (mid-surface edge)
    m, d = RHO * TH * W * HGT, HGT / 2
    T_small = 2 * math.pi * math.sqrt(I / (m * G * d))
    H = dynamics(st, "chrono", time=(periods + 0.3) * T_small * 1.1, dt=1e-3, initial=InitialState(X0))
    ang = np.arctan2(H.vertices[:, 3, 1], -H.vertices[:, 3, 2])
    assert ang[0] == pytest.approx(theta0, abs=1e-12)
    crossings = [H.t[i] - ang[i] * (H.t[i + 1] - H.t[i]) / (ang[i + 1] - ang[i])
                 for i in range(len(ang) - 1) if ang[i] > 0 >= ang[i + 1]]
    return np.diff(crossings), I, m, d, H


def test_pendulum_small_amplitude_period():
    """0.5 deg: the period is 2 pi sqrt(I / (m g d)) (amplitude correction theta0^2 / 16 = 5e-6)."""
    per, I, m, d, H = swing_period(0.5)
    T0 = 2 * math.pi * math.sqrt(I / (m * G * d))
    assert len(per) >= 1
    assert abs(per[0] - T0) / T0 < 1e-4
    assert H.constraint_violation.max() < 1e-12


def test_pendulum_large_amplitude_period_is_the_elliptic_integral():
    """60 deg: T = 4 sqrt(I / (m g d)) K(sin(theta0 / 2)) (K of modulus k, scipy's ellipk takes m = k^2)."""
    per, I, m, d, H = swing_period(60.0)
    T = 4 * math.sqrt(I / (m * G * d)) * ellipk(math.sin(math.radians(30.0)) ** 2)
    assert abs(per[0] - T) / T < 1e-4
    T0 = 2 * math.pi * math.sqrt(I / (m * G * d))
    assert per[0] / T0 > 1.07                                   # the large swing is measurably slower
    assert np.abs(H.balance_error).max() < 1e-4 * H.energy_scale


# ------------------------------------------------------------------ free flight
def free_pair():
    X = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [-0.8, 1, 0], [-0.6, 0, 0]]
    return Structure(CreasePattern(X, [[0, 1, 2, 3], [0, 3, 4, 5]]), hinge_kinds=("sliding",), thickness=0.05,
                     density=100.0, name="free pair")


def test_free_flight_keeps_momentum():
    """Two panels on a sliding hinge, no gravity, tumbling at 0.14 and 0.29 rad/s (a slow deployment's rates).

    HHT keeps linear momentum to round-off (internal forces are equal and opposite) and angular momentum to
    O(dt^2): Chrono's rotational update is not momentum-conserving (a single free panel drifts too), so the
    drift falls 4 times when dt halves (checked here) and grows with the rates (about 5e-8 at 0.36 and
    0.72 rad/s; benchmarks/dynamics.py prints it against dt). The energy drift is of the same order.
    """
    st = free_pair()
    v0 = 0.2 * np.array([[0.3, -0.8, 0.5, 0.2, 0.1, -0.3], [-0.6, 0.4, 0.9, -0.1, 0.3, 0.2]])
    drift = {}
    for dt in (1e-3, 5e-4):
        H = dynamics(st, "chrono", time=2.0, dt=dt, initial=InitialState(velocities=v0), output_interval=0.05)
        p, L = H.linear_momentum, H.angular_momentum
        assert np.linalg.norm(p[0]) > 0.1 and np.linalg.norm(L[0]) > 0.1
        assert np.abs(p - p[0]).max() / np.linalg.norm(p[0]) < 1e-12
        drift[dt] = np.abs(L - L[0]).max() / np.linalg.norm(L[0])
        energy = np.abs(H.total_energy - H.total_energy[0]).max() / H.total_energy[0]
        assert H.work.max() == 0 and H.potential.max() == 0
        assert H.info["initial_velocity_change"] > 0.1            # v0 was not consistent: it was projected
        if dt == 1e-3:
            assert drift[dt] < 1e-8
            assert energy < 1e-8                                 # the energy drift (printed by the benchmark)
    assert drift[5e-4] / drift[1e-3] == pytest.approx(0.25, rel=0.1)


# ------------------------------------------------------------------ spring-damper, motor modes
def oscillator(w=0.3, hgt=0.2, th=0.01, rho=1000.0):
    """Panel 2 clamped by supports, panel 1 on a door hinge along y (hinge 1: p = panel 1, q = panel 2)."""
    X = np.array([[0, 0, 0], [w, 0, 0], [w, hgt, 0], [0, hgt, 0], [-w, hgt, 0], [-w, 0, 0]], float)
    st = Structure(CreasePattern(X, [[0, 1, 2, 3], [0, 3, 4, 5]]), thickness=th, density=rho,
                   supports=(Support(0, 1, "xyz"), Support(3, 1, "xz"), Support(5, 1, "z")), name="oscillator")
    m = rho * th * w * hgt
    return st, X, m * (w * w / 3 + th * th / 12)


def test_crease_spring_damper_is_a_damped_oscillator():
    """Panel 1 on a door hinge with a crease spring k, damper c, rest 0, released at 0.3 rad."""
    st, X, I = oscillator()
    k, c = 2.0, 0.01
    X0 = X.copy()
    X0[[1, 2]] = X[[1, 2]] @ rotation_about([0, 1, 0], 0.3).T
    H = dynamics(st, "chrono", time=0.8, dt=1e-3, springs=[CreaseSpring(0, k, c, rest=0.0)], initial=InitialState(X0))
    ang = np.arctan2(-H.vertices[:, 1, 2], H.vertices[:, 1, 0])
    wn, zeta = math.sqrt(k / I), c / (2 * math.sqrt(k * I))
    Td = 2 * math.pi / (wn * math.sqrt(1 - zeta ** 2))
    up = [H.t[i] - ang[i] * (H.t[i + 1] - H.t[i]) / (ang[i + 1] - ang[i]) for i in range(len(ang) - 1)
          if ang[i] > 0 >= ang[i + 1]]
    assert abs(np.diff(up)[0] - Td) / Td < 1e-4
    # the fold angle phi = -(rotation about the hinge axis): FOLD sign; the spring energy at the start
    assert H.spring[0] == pytest.approx(0.5 * k * 0.3 ** 2, rel=1e-12)
    assert np.all(np.diff(H.dissipated) >= -1e-15) and H.dissipated[-1] > 0.3 * H.spring[0]
    assert np.abs(H.balance_error).max() < 1e-4 * H.energy_scale
    # amplitude decay over one period: exp(-zeta wn Td)
    peaks = [ang[i] for i in range(1, len(ang) - 1) if ang[i - 1] < ang[i] >= ang[i + 1]]
    assert peaks[0] / 0.3 == pytest.approx(math.exp(-zeta * wn * Td), rel=2e-3)


def test_motor_modes_agree_and_do_the_work():
    """A speed motor follows the integral of its speed (the angle motor on sin gives the same motion); a torque
    motor against a damped crease spring comes to rest at the static angle tau / k, its work stored and dissipated.
    The motor turns panel 2 (q, clamped) by psi about hinge 1's axis t relative to panel 1 (p); t runs from
    vertex 4 to vertex 1, along -y, so panel 1 turns by psi about +y and its tip dips: z = -w sin(psi)."""
    st, X, I = oscillator()
    Ha = dynamics(st, "chrono", time=0.5, dt=1e-3, motors=[Motor(0, "angle", "0.3*sin(2*t)")], output_interval=0.05)
    Hs = dynamics(st, "chrono", time=0.5, dt=1e-3, motors=[Motor(0, "speed", "0.6*cos(2*t)")], output_interval=0.05)
    assert np.abs(Ha.vertices - Hs.vertices).max() < 1e-10
    psi = np.arctan2(-Ha.vertices[:, 1, 2], Ha.vertices[:, 1, 0])
    np.testing.assert_allclose(psi, 0.3 * np.sin(2 * Ha.t), atol=1e-10)
    np.testing.assert_allclose(Ha.hinge_moments[:, 0], Hs.hinge_moments[:, 0], rtol=1e-6, atol=1e-9)
    assert np.abs(Ha.balance_error).max() < 1e-5 * Ha.energy_scale
    k, c, tau = 2.0, 0.2, 0.05
    H = dynamics(st, "chrono", time=3.0, dt=2e-3, motors=[Motor(0, "torque", tau)], springs=[CreaseSpring(0, k, c)],
                 output_interval=0.1)
    # torque tau on q about t: psi -> tau / k, so the fold angle phi = -psi: the spring holds k phi = -tau
    assert H.hinge_moments[-1, 0] == pytest.approx(0.0, abs=1e-6)            # motor and spring balance on q
    assert H.spring[-1] == pytest.approx(0.5 * tau ** 2 / k, rel=1e-4)
    assert H.work[-1] == pytest.approx(tau * tau / k, rel=1e-4)              # tau x psi_end
    assert H.dissipated[-1] == pytest.approx(H.work[-1] - H.spring[-1], rel=1e-3)
    assert np.abs(H.balance_error).max() < 1e-4 * H.energy_scale


# ------------------------------------------------------------------ miura deployment
def test_miura_deploy_energy_balance_at_the_default_step():
    """The scene's deployment (default dt = 1e-3 s): the balance closes to 1e-3 of the energy scale."""
    s, motor, target = miura_deploy()
    H = dynamics(s, "chrono", time=2.0, dt=1e-3, motors=[motor], output_interval=0.02)
    assert np.abs(H.balance_error).max() < 1e-3 * H.energy_scale
    assert np.abs(H.vertices[-1] - target).max() < 1e-9             # opened to the closed-form fold
    assert H.constraint_violation.max() < 1e-12
    assert H.work[-1] > 0 and H.kinetic[-1] < 1e-6 * H.energy_scale  # the motor lifted it and stopped it
    # the motor's torque is the moment on hinge 1's second panel about its axis (hinge_moments)
    assert np.abs(H.hinge_moments[:, 1:]).max() == 0 and np.abs(H.hinge_moments[:, 0]).max() > 10


def test_slow_motor_deployment_follows_the_kinematic_fold():
    """Same driven hinge, same rate: Chrono's dynamics and the folding module's kinematic fold agree to 1e-4."""
    s, _, _ = miura_deploy(start_deg=160.0)
    rate, T = -0.2, 1.0
    H = dynamics(s, "chrono", time=T, dt=1e-3, motors=[Motor(0, "angle", f"{rate} * t")], output_interval=0.25)
    prob = FoldProblem(s, [Drive(0, rate=rate)], (), T)     # no vertex path: panel 1 held, as the supports do
    K = fold(prob, frame_interval=0.25)
    assert np.allclose(K.times, H.t)
    L = s.pattern.size
    for Xk, Xd in zip(K.vertices, H.vertices):
        assert np.abs(Xk - Xd).max() < 1e-4 * L
    assert np.abs(K.vertices[-1] - H.vertices[-1]).max() < 1e-8 * L   # in fact to the solvers' tolerances
    # the fold history's last frame as the start of a motion (the motor off: the strip falls open under gravity)
    H2 = dynamics(s, "chrono", time=0.02, dt=1e-3, initial=InitialState.from_history(K), output_interval=0.01)
    assert np.abs(H2.vertices[0] - K.vertices[-1]).max() < 1e-12 * L
    assert H2.kinetic[0] == 0 and H2.kinetic[-1] > 0 and H2.potential[-1] < H2.potential[0]
    # and a TimeHistory's frame, with its velocities
    s3 = InitialState.from_history(H, time=0.5)
    np.testing.assert_allclose(s3.vertices, H.vertices[2])
    np.testing.assert_allclose(s3.velocities, H.velocities[2])


# ------------------------------------------------------------------ static limit
def test_kresling_drop_paper_hinges_equal_statics():
    """The paper's isostatic tower (M = 0) under gravity and loads: the hinge actions are analysis.static's."""
    s, springs = kresling_drop(hinges="paper")
    H = dynamics(s, "chrono", time=5e-3, dt=1e-4, springs=springs, output_interval=1e-3)
    for engine in ("chrono", "reference"):
        ref = np.array(analysis.static(s, engine).hinge_rows())
        scale = np.abs(ref[:, 2:]).max()
        for k in range(len(H.t)):
            rows = np.array(H.hinge_rows(k))
            np.testing.assert_array_equal(rows[:, :2], ref[:, :2])
            assert np.abs(rows[:, 2:] - ref[:, 2:]).max() < 1e-4 * scale
        sup = np.array(analysis.static(s, engine).support_rows())
        assert np.abs(np.array(H.support_rows(-1))[:, 2:] - sup[:, 2:]).max() < 1e-4 * np.abs(sup[:, 2:]).max()


def test_kresling_drop_mechanism_settles_to_a_static_state():
    """Hinge 1 sliding (M = 1): the tower twists down onto the springs and settles at a static equilibrium."""
    s, springs = kresling_drop(hinges="mechanism")
    H = dynamics(s, "chrono", time=0.06, dt=1e-4, springs=springs, output_interval=2e-3)
    assert H.vertices[0, :, 2].max() - H.vertices[-1, :, 2].max() > 1e-2      # it sank
    assert H.kinetic[-1] < 1e-9 * H.kinetic.max()
    assert H.info["static_residual"] < 1e-6
    assert np.abs(H.balance_error).max() < 1e-3 * H.energy_scale
    assert H.dissipated[-1] > 0.5 * H.work[-1] > 0


# ------------------------------------------------------------------ limits
def test_incompatible_motors_jam_with_the_time_and_hinge():
    """Two angle motors on a one-mechanism twist, at rest at t = 0, then turning at rates its kinematics does not
    allow: the run stops at the first step with the time and the culprit hinge; at t = 0 incompatible speeds
    are refused at once."""
    st = Structure(simple.square_twist_folded(10.0), thickness=0.01, density=1000.0)
    with pytest.raises(DynamicsError, match=r"at t = [0-9.e-]+ s .*hinge \d+") as e:
        dynamics(st, "chrono", time=0.5, dt=1e-3,
                 motors=[Motor(0, "angle", "0.5*t**2"), Motor(1, "angle", "0.5*t**2")])
    err = e.value
    assert err.hinge is not None and 0 <= err.hinge < len(st.pattern.hinges)
    assert 0 < err.time < 0.5 and err.history is not None and err.history.t[-1] < err.time
    with pytest.raises(DynamicsError, match=r"t = 0 s.*motors on hinges 1, 2"):
        dynamics(st, "chrono", time=0.5, dt=1e-3, motors=[Motor(0, "angle", "0.5*t"), Motor(1, "angle", "0.5*t")])


def test_crossing_a_singular_configuration_stops_there():
    """The four-panel ring (a parallelogram linkage, M = 1, S = 3) driven through its flat state (hinge 1 at
    180 deg, t = pi / 2 / 1.2 s), where the constraints lose rank and the motion may switch branch."""
    ring = Structure(simple.rectangular_ring(2.0, 1.0, 1.0), thickness=0.02, density=500.0,
                     supports=(Support(0, 0, "xyz"), Support(1, 0, "yz"), Support(4, 0, "y")), name="ring")
    with pytest.raises(DynamicsError, match="crossed a singular configuration at t = 1.309") as e:
        dynamics(ring, "chrono", time=2.0, dt=1e-3, motors=[Motor(0, "angle", "1.2*t")], output_interval=0.05)
    err = e.value
    assert err.time == pytest.approx(math.pi / 2 / 1.2, abs=2e-3)
    assert err.hinge in (1, 2, 3) and err.sigma_ratio < 1e-3
    assert err.history.t[-1] < err.time + 0.02
    # short of the flat state it runs, and says the structure has S = 3 redundant constraints
    H = dynamics(ring, "chrono", time=1.0, dt=1e-3, motors=[Motor(0, "angle", "1.2*t")], output_interval=0.05)
    assert H.info["redundant_constraints"] == 3


def test_diverging_newton_stops_with_the_time():
    """A motor that drives a stiff crease through half a turn in one huge step: Newton fails, the run stops."""
    s, motor, _ = miura_deploy(duration=0.01)
    with pytest.raises(DynamicsError, match=r"(Newton did not converge|constraint violation|singular).* at t = "):
        dynamics(s, "chrono", time=0.5, dt=0.25, motors=[motor], max_iterations=3)


def test_bad_inputs_name_what_is_wrong():
    s, motor, _ = miura_deploy()
    with pytest.raises(StructureError, match="motor on hinge 99"):
        dynamics(s, "chrono", time=0.1, dt=0.01, motors=[Motor(98, "angle", "t")])
    with pytest.raises(StructureError, match="must start at 0"):
        dynamics(s, "chrono", time=0.1, dt=0.01, motors=[Motor(0, "angle", "1 + t")])
    with pytest.raises(StructureError, match="panel 1 has no mass"):
        dynamics(Structure(s.pattern, s.hinge_kinds, 0.0, supports=s.supports), "chrono", time=0.1, dt=0.01)
    from chrono_origami.tools.errors import OrigamiError

    with pytest.raises(OrigamiError, match="has no integrator 'reduced'"):
        dynamics(s, "chrono", time=0.1, dt=0.01, integrator="reduced")


# ------------------------------------------------------------------ command line and scenes
def _run(args):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable] + args, capture_output=True, text=True, env=env, cwd=ROOT)


def test_cli_dynamics_writes_the_history(tmp_path, capsys):
    from chrono_origami.structure import foldfile

    s, _, _ = miura_deploy()
    path = str(tmp_path / "miura.fold")
    foldfile.write_fold(s, path)
    out = str(tmp_path / "out")
    p = _run(["-m", "chrono_origami", "dynamics", path, "--time", "0.2", "--dt", "1e-3", "--motor",
              "1:0.5*(1-cos(pi*t/0.2))", "--spring", "2-3:5,0.1", "--output-interval", "0.05", "--out", out])
    # (--motor is FOLD-signed, valley positive: the motor's relative rotation is -0.5*(1-cos(pi*t/0.2)))
    assert p.returncode == 0, p.stderr
    assert "energy balance error" in p.stdout and "peak |MO|" in p.stdout and "hinge" in p.stdout
    assert p.stderr == ""                                        # no progress bar when stderr is not a terminal
    for name in ("energy.csv", "momentum.csv", "constraints.csv", "hinges_t.csv", "supports_t.csv", "motion.fold"):
        assert os.path.getsize(os.path.join(out, name)) > 0
    rows = open(os.path.join(out, "hinges_t.csv")).read().splitlines()
    assert rows[0] == "t,hinge,panel,MT,MP,MO,N,TP,TO" and len(rows) == 1 + 5 * 2 * len(s.pattern.hinges)
    # refused options: one line, exit 2 (argument checks, run in this process)
    code, _, err = run(capsys, "dynamics", path, "--time", "0.2", "--dt", "1e-3", "--motor", "99:t")
    assert code == 2 and err.startswith("error: --motor '99:t':") and "hinge 99" in err
    code, _, err = run(capsys, "dynamics", path, "--time", "0.2", "--dt", "1e-3", "--motor", "1:x*t")
    assert code == 2 and "--motor '1:x*t'" in err and "unknown name 'x'" in err


XVFB = __import__("shutil").which("xvfb-run")


def _xvfb(args):
    """``python args`` under xvfb-run (``test_viewer.xvfb_run``: a display of this pytest-xdist worker's own)."""
    from test_viewer import xvfb_run

    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run(xvfb_run() + ["-s", "-screen 0 1280x1024x24", sys.executable] + args,
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)


def _irrlicht():
    try:
        import pychrono.irrlicht  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.fixture(scope="module")
def miura_deploy_scene(tmp_path_factory):
    """One run of ``scenes/miura_deploy.py`` (0.3 s at dt 2e-3, frames every 0.1 s), shared read-only by
    :func:`test_scenes_run` (what it prints) and :func:`test_motion_written_as_irrlicht_png_frames` (its frames):
    with ``--png-frames`` under xvfb-run where xvfb-run and Irrlicht are there, else plain. Returns (the
    CompletedProcess, its --out folder, its --png-frames folder or None)."""
    tmp = tmp_path_factory.mktemp("miura_deploy")
    out, png = tmp / "out", tmp / "png"
    args = [os.path.join("scenes", "miura_deploy.py"), "--time", "0.3", "--dt", "2e-3", "--output-interval", "0.1",
            "--quiet", "--out", str(out)]
    if XVFB is not None and _irrlicht():
        return _xvfb(args + ["--png-frames", str(png)]), out, png
    return _run(args), out, None


def test_scenes_run(miura_deploy_scene):
    p = miura_deploy_scene[0]
    assert p.returncode == 0, p.stderr
    assert "peak |MO|" in p.stdout and "peak |N|" in p.stdout
    p = _run([os.path.join("scenes", "kresling_drop.py"), "--time", "0.01", "--quiet"])
    assert p.returncode == 0, p.stderr
    assert "static residual" in p.stdout


@pytest.mark.skipif(XVFB is None, reason="xvfb-run is not installed (apt-get install xvfb xauth)")
def test_motion_written_as_irrlicht_png_frames(tmp_path, miura_deploy_scene):
    """The deployment's recorded frames drawn headless by Irrlicht; ``play motion.fold`` draws the same pictures."""
    pytest.importorskip("pychrono.irrlicht", exc_type=ImportError, reason="this PyChrono has no Irrlicht module")
    import matplotlib.image as mpimg

    r, out, png = miura_deploy_scene
    assert r.returncode == 0, r.stderr
    names = sorted(os.listdir(png))
    assert names == [f"frame_{k:04d}.png" for k in range(4)]
    imgs = [np.asarray(mpimg.imread(png / n))[..., :3] for n in names]
    for a, b in zip(imgs, imgs[1:]):
        assert a.std() > 0.01 and np.any(a[80:] != b[80:], axis=-1).mean() > 0.002    # drawn, and moving
    r = _xvfb(["-m", "chrono_origami", "play", str(out / "motion.fold"), "--png-frames", str(tmp_path / "play")])
    assert r.returncode == 0, r.stderr
    for n, img in zip(names, imgs):
        assert np.array_equal(np.asarray(mpimg.imread(tmp_path / "play" / n))[80:, :, :3], img[80:]), n
