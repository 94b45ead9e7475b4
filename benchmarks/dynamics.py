"""Benchmark: Chrono dynamics -- energy balance and constraint drift against dt for each integrator, with the cost.

Prints tables; it is not a test (tests/test_chrono_dynamics.py asserts the numbers at fixed steps).

1. The Miura-ori deployment of scenes/miura_deploy.py (8 panels, one motor, gravity; 2 s): for each
   integrator (hht, euler, euler-linearized) and dt, the largest energy balance error relative to the
   energy scale, the largest constraint violation, Newton iterations, wall time and time per step.
2. The free-flying pair of panels on a sliding hinge (no gravity, 2 s, HHT): linear and angular momentum
   drift and energy drift against dt, at two tumbling rates.
3. Size: Miura-ori strips of growing length, the first 0.2 s of their deployment (HHT, dt 1e-3): time per
   step against the number of panels, with and without the singularity check, LU against QR.

    python3 benchmarks/dynamics.py                  # everything (a few minutes on one core)
    python3 benchmarks/dynamics.py --quick          # fewer steps sizes
"""
import argparse
import time

import numpy as np

from chrono_origami.inputs.dynamics import InitialState
from chrono_origami.analysis.dynamics import dynamics
from chrono_origami.inputs.dynamics_examples import miura_deploy
from chrono_origami.crease.pattern import CreasePattern
from chrono_origami.structure.structure import Structure

from common import program_threads  # noqa: E402  (benchmarks/)

program_threads()   # the program's own choice of BLAS threads (--blas all: one per core)

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("--quick", action="store_true", help="two step sizes per integrator, smaller size study")
args = ap.parse_args()


def timed(**kw):
    t0 = time.perf_counter()
    H = dynamics(**kw)
    return H, time.perf_counter() - t0


# ---------------------------------------------------------------------------- 1. energy and drift vs dt
print("1. Miura-ori deployment (scenes/miura_deploy.py defaults: 8 panels, 170 -> 60 deg in 2 s, gravity)")
print(f"{'integrator':>17} {'dt (s)':>8} {'balance/scale':>14} {'violation':>10} {'Newton it.':>10} "
      f"{'wall (s)':>9} {'ms/step':>8}")
s, motor, target = miura_deploy()
dts = (4e-3, 1e-3) if args.quick else (4e-3, 2e-3, 1e-3, 5e-4)
for integrator in ("hht", "euler", "euler-linearized"):
    for dt in dts:
        try:
            H, wall = timed(structure=s, engine="chrono", time=2.0, dt=dt, integrator=integrator, motors=[motor],
                            output_interval=0.02, progress=False)
        except Exception as e:   # a benchmark reports every outcome, the stop included
            print(f"{integrator:>17} {dt:8.0e}  stopped: {str(e)[:90]}")
            continue
        bal = np.abs(H.balance_error).max() / H.energy_scale
        print(f"{integrator:>17} {dt:8.0e} {bal:14.3e} {H.constraint_violation.max():10.2e} "
              f"{H.info['newton_iterations']:10d} {wall:9.2f} {1e3 * wall / H.info['steps']:8.3f}")

# ---------------------------------------------------------------------------- 2. free flight
print("\n2. free pair on a sliding hinge, no gravity, 2 s, HHT (alpha = -0.2): drift relative to the start")
print(f"{'rates (rad/s)':>14} {'dt (s)':>8} {'|dp|/|p|':>10} {'|dL|/|L|':>10} {'|dE|/E':>10} {'wall (s)':>9}")
X = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [-0.8, 1, 0], [-0.6, 0, 0]]
pair = Structure(CreasePattern(X, [[0, 1, 2, 3], [0, 3, 4, 5]]), hinge_kinds=("sliding",), thickness=0.05,
                 density=100.0, name="free pair")
base = np.array([[0.3, -0.8, 0.5, 0.2, 0.1, -0.3], [-0.6, 0.4, 0.9, -0.1, 0.3, 0.2]])
for scale in (0.2, 1.0):
    for dt in ((1e-3, 2.5e-4) if args.quick else (2e-3, 1e-3, 5e-4, 2.5e-4)):
        H, wall = timed(structure=pair, engine="chrono", time=2.0, dt=dt, initial=InitialState(velocities=scale * base),
                        output_interval=0.05, progress=False)
        p, L, E = H.linear_momentum, H.angular_momentum, H.total_energy
        rates = "/".join(f"{x:.2f}" for x in np.linalg.norm(H.velocities[0][:, :3], axis=1))
        print(f"{rates:>14} {dt:8.1e} {np.abs(p - p[0]).max() / np.linalg.norm(p[0]):10.2e} "
              f"{np.abs(L - L[0]).max() / np.linalg.norm(L[0]):10.2e} {np.abs(E - E[0]).max() / E[0]:10.2e} "
              f"{wall:9.2f}")

# ---------------------------------------------------------------------------- 3. cost against size
print("\n3. cost against size: Miura-ori strips opened from 150 deg, the first 0.2 s of 2 s (HHT, dt = 1e-3 s)")
print(f"{'panels':>7} {'hinges':>7} {'ms/step (LU, auto)':>19} {'no singularity check':>21} {'sparse QR':>10}")
for steps in ((2, 8) if args.quick else (2, 8, 23, 48)):
    s, motor, _ = miura_deploy(steps, start_deg=150.0, duration=2.0)
    costs = []
    for kw in (dict(), dict(singular_check=False), dict(singular_check=False, solver="sparse_qr")):
        H, wall = timed(structure=s, engine="chrono", time=0.2, dt=1e-3, motors=[motor], output_interval=0.1,
                        progress=False, **kw)
        costs.append(1e3 * wall / H.info["steps"])
    print(f"{s.pattern.n_panels:7d} {len(s.pattern.hinges):7d} {costs[0]:19.2f} {costs[1]:21.2f} {costs[2]:10.2f}")
