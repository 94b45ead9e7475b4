"""The discrete null space paper's examples (Betsch & Leyendecker, Part II, sec. 5) and Tables II-V.

Long runs (10^4 steps of the gyro top at dt = 0.05, ~30 s) run with CHRONO_ORIGAMI_LONG_TESTS=1; the
default runs the same checks over fewer steps. benchmarks/integrators.py prints them all.
"""
import json
import os

import numpy as np
import pytest

from chrono_origami.analysis import static as analysis
from chrono_origami.patterns import linkage
from chrono_origami.structure.properties import tetrahedron_mass_properties
from chrono_origami.engines.reference.dns import examples
from chrono_origami.papers import dns_paper as paper
from chrono_origami.engines.reference.dns.schemes import integrate

from cli_inprocess import run_scene

LONG = os.environ.get("CHRONO_ORIGAMI_LONG_TESTS") == "1"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_gyro_top_follows_steady_precession_to_second_order():
    """Sec. 5.1.4: dt = 1e-3, one precession period: the centre of mass within 1e-3 L of eq. (165)'s motion."""
    e = examples.gyro_top()
    L, T = e.data["L"], e.data["period"]
    devs = []
    for dt in (2e-3, 1e-3):
        s = paper.run("gyro_top", "reduced", dt, T)
        assert s.t[-1] >= T
        devs.append(np.abs(s.com[:, 0] - examples.gyro_top_com(s.t, e.data)).max() / L)
    assert devs[1] < 1e-3
    assert 3.5 < devs[0] / devs[1] < 4.5          # second order: the deviation is the scheme's error


@pytest.mark.parametrize("name,dt,steps", [
    ("gyro_top", 0.05, 10_000 if LONG else 500),          # Fig. 10; 25 s: 40 precession periods
    ("cylindrical_pair", 0.01, 10_000 if LONG else 1_000),  # Fig. 13; 10 s
    ("planar_pair", 1e-4, 10_000 if LONG else 1_000),     # Fig. 17 (see the docstring); 0.1 s, the benchmark's span
])
def test_energy_and_momentum_are_kept(name, dt, steps):
    """E and e3 . L (top, under gravity about its fixed apex) or the whole L (free pairs) to 1e-10 relative.

    The scheme keeps E and L exactly at each step, to its Newton tolerance and round-off (``dns.schemes``): no
    error of the method accumulates with the steps, so the bound is the same for any span; the default spans are
    shorter than the paper's 10^4 steps (the long runs, module doc, and benchmarks/integrators.py --long).

    The planar pair's pyramid slides away from the plate (u ~ 150 t): at dt = 1e-3 over 10^4 steps it ends
    2300 lengths away and L (a small difference of terms x x p a thousand times larger) keeps only ~1e-9
    in double precision; dt = 1e-4 (1 s) keeps 1e-11.
    """
    s = paper.run(name, "reduced", dt, dt * steps, stride=50)
    assert s.steps == steps
    dE, dL = paper.drift(s)
    assert dE < 1e-10
    if name == "gyro_top":
        L3 = s.L[:, 2]
        assert np.abs(L3 - L3[0]).max() / abs(L3[0]) < 1e-10
        assert dL > 1e-2            # L1, L2 are not integrals: gravity's torque turns them
    else:
        assert dL < 1e-10


def test_both_schemes_solve_the_same_step_equations():
    mb, nu0, v0, _ = paper.example("cylindrical_pair")
    a = integrate(mb, 1e-2, 20, v0, "reduced", nu0=nu0)
    b = integrate(mb, 1e-2, 20, v0, "constrained", nu0=nu0)
    assert np.abs(a.q - b.q).max() < 1e-9 * 30
    assert np.abs(a.v - b.v).max() < 1e-7 * np.abs(a.v).max()


@pytest.mark.parametrize("name", paper.EXAMPLES)
def test_condition_numbers_reproduce_tables_II_to_V(name):
    """Each entry within a factor of 2; the constrained scheme's grows as dt^-3, the reduced one's does not
    (the linkage's reduced matrix mixes dynamics and loop-closure rows: it grows as 1/dt below dt ~ 1e-3, as
    the paper's Table V, 10 -> 58)."""
    red, con = [], []
    for dt in paper.TABLE_DT[name]:
        c_paper, r_paper = paper.TABLES[name][dt]
        r, c = paper.conditioning(name, "reduced", dt), paper.conditioning(name, "constrained", dt)
        assert 0.5 < r / r_paper < 2.0, (dt, r, r_paper)
        assert 0.5 < c / c_paper < 2.0, (dt, c, c_paper)
        red.append(r)
        con.append(c)
    slopes = np.diff(np.log(con)) / np.diff(np.log(paper.TABLE_DT[name]))
    assert np.allclose(slopes, -3.0, atol=0.05)
    if name != "six_body_linkage":
        assert max(red) / min(red) < 1.5


def test_linkage_bodies_are_the_papers_tetrahedra():
    pat = linkage.six_body_linkage()
    L, a, rho = 0.1, np.tan(0.16 * np.pi), 1000.0
    m, c, J = tetrahedron_mass_properties(pat.panel_points(0), rho)
    assert m == pytest.approx(rho * a * a * L ** 3 / 6, rel=1e-14)
    np.testing.assert_allclose(c, [a * L / 4, L / 2, -a * L / 4], atol=1e-16)
    Jp = rho * L ** 5 * a * a / 40 * np.array([[1 / 3 + a * a / 4, a / 6, -a * a / 12], [a / 6, a * a / 2, a / 6],
                                              [-a * a / 12, a / 6, 1 / 3 + a * a / 4]])
    np.testing.assert_allclose(J, Jp, rtol=1e-12, atol=1e-20)
    for p in range(1, 6):          # every body congruent to body 0 (1, 3, 5 mirror images)
        mp, _, Jq = tetrahedron_mass_properties(pat.panel_points(p), rho)
        assert mp == pytest.approx(m, rel=1e-13)
        np.testing.assert_allclose(np.linalg.eigvalsh(Jq), np.linalg.eigvalsh(J), rtol=1e-12)


def test_six_body_linkage_counts_motion_and_energy():
    """Sec. 5.4.2: M = 1 by the numeric rank, 0 by the counting rules, S = 1; the motion keeps
    theta2 = arcsin(sin theta1 / (1 - sin theta1)) (sin theta2 = ... past theta2 = pi/2) and the energy."""
    st = linkage.six_body_structure()
    c = analysis.count(st, "reference")
    rules = analysis.counts_summary(st, c)
    assert (c.M, c.S) == (1, 1)
    assert rules["maxwell_M_minus_S"] == 0 and rules["M_BF"] == 0
    model = paper.linkage_model(st)
    assert model.mb.mobility == 1 and model.mb.closure_rank == 4 and len(model.mb.dropped_rows) == 1
    s = paper.run("six_body_linkage", "reduced", 1e-3, 0.3, stride=5)
    th = s.history.info["joint"]
    t1, t2 = th[:, 0], th[:, 1]
    assert np.abs(np.sin(t2) - np.sin(t1) / (1 - np.sin(t1))).max() < 1e-8
    branch = t2 < np.pi / 2 - 0.05
    assert branch.sum() > 5 and (~branch).sum() > 5          # the motion passes theta2 = pi/2
    assert np.abs(t2[branch] - linkage.theta2_of_theta1(t1[branch])).max() < 1e-8
    assert np.abs(th[:, 2] - t1).max() < 1e-10 and np.abs(th[:, 4] - t1).max() < 1e-10
    assert np.abs(th[:, 3] - t2).max() < 1e-10
    h = s.history
    E = h.kinetic + h.potential
    assert np.abs(E - E[0]).max() / abs(E[0]) < 1e-10
    assert np.ptp(h.potential) > 1e-3 * abs(E[0])           # gravity does work on the way
    assert h.constraint_violation.max() < 1e-10          # every row, the redundant one too


def _scene(name, out, *args, typed=False):
    """The scene run as a user types it (``typed``: a subprocess) or as ``__main__`` in this process (``run_scene``)."""
    env = dict(os.environ, PYTHONPATH=ROOT, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    return run_scene(os.path.join(ROOT, "scenes", f"{name}.py"), "--out", out, *args, typed=typed, env=env)


def test_scenes_write_their_files(tmp_path):
    """Each paper scene writes its files; the first as a user types it (a subprocess: the exit code the shell sees),
    the others as ``__main__`` in this process; a bad value is one line, exit 2."""
    r = _scene("gyro_top", tmp_path / "g", "--dt", "0.01", "--time", "0.1", typed=True)
    assert r.returncode == 0, r.stderr
    com = np.loadtxt(tmp_path / "g" / "com.csv", delimiter=",", skiprows=1)
    assert open(tmp_path / "g" / "com.csv").readline().strip() == "t,x,y,z,x_exact,y_exact,z_exact"
    assert com.shape == (11, 7) and np.abs(com[:, 1:4] - com[:, 4:]).max() < 0.1 * 0.075
    cond = open(tmp_path / "g" / "conditioning.csv").read().splitlines()
    assert cond[0] == "dt,scheme,condition" and len(cond) == 1 + 2 * 4
    inv = np.loadtxt(tmp_path / "g" / "invariants.csv", delimiter=",", skiprows=1)
    assert open(tmp_path / "g" / "invariants.csv").readline().strip() == "t,E,L1,L2,L3"
    assert np.ptp(inv[:, 1]) < 1e-12 * abs(inv[0, 1])
    for name in ("cylindrical_pair", "planar_pair"):
        r = _scene(name, tmp_path / name, "--dt", "0.001", "--time", "0.01", "--no-conditioning",
                   "--scheme", "constrained")
        assert r.returncode == 0, r.stderr
        assert (tmp_path / name / "invariants.csv").exists()
    r = _scene("six_body_linkage", tmp_path / "s", "--dt", "0.005", "--time", "0.05", "--no-conditioning")
    assert r.returncode == 0, r.stderr
    counts = json.load(open(tmp_path / "s" / "counts.json"))
    assert (counts["M"], counts["M_rules"], counts["S"]) == (1, 0, 1)
    ang = np.loadtxt(tmp_path / "s" / "angles.csv", delimiter=",", skiprows=1)
    assert open(tmp_path / "s" / "angles.csv").readline().strip() == "t,theta1,theta2"
    assert ang.shape == (11, 3)
    for f in ("energy.csv", "momentum.csv", "hinges_t.csv", "motion.fold"):
        assert (tmp_path / "s" / f).exists()
    r = _scene("planar_pair", tmp_path / "bad", "--dt", "-1")
    assert r.returncode == 2 and "positive" in r.stderr
    assert r.stderr.startswith("error: ") and r.stderr.count("\n") == 1, r.stderr      # one line, no traceback


@pytest.mark.chrono
def test_chrono_runs_the_same_examples():
    from chrono_origami.papers import dns_chrono as cx

    e = examples.gyro_top()
    c = cx.simulate(e.mb, e.v0, 1e-4, 2000, "hht", stride=500)
    E0 = e.mb.kinetic(e.v0) + e.mb.forces.gravity_potential(e.mb.q0)
    assert c.E[0] == pytest.approx(E0, rel=1e-14)
    np.testing.assert_allclose(c.L[0], e.mb.angular_momentum(e.mb.q0, e.v0), rtol=1e-14, atol=1e-16)
    dev = np.abs(c.com[:, 0] - examples.gyro_top_com(c.t, e.data)).max() / e.data["L"]
    assert dev < 1e-3
    # Chrono's integrators dissipate; the reduced scheme keeps the energy on the same runs
    for name in ("cylindrical_pair", "six_body_linkage"):
        ref = paper.run(name, "reduced", 1e-3, 0.05)
        for scheme in ("chrono-hht", "chrono-euler"):
            ch = paper.run(name, scheme, 1e-3, 0.05)
            assert ch.E[0] == pytest.approx(ref.E[0], rel=1e-12)
            assert paper.drift(ch)[0] > 1e3 * max(paper.drift(ref)[0], 1e-15)
    s = paper.run("six_body_linkage", "chrono-hht", 1e-4, 0.02)
    t1, t2 = s.angles[:, 0], s.angles[:, 1]
    assert np.abs(np.sin(t2) - np.sin(t1) / (1 - np.sin(t1))).max() < 1e-8
