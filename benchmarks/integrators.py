"""Benchmark: energy drift and cost against dt, the discrete null space method against Chrono's HHT and implicit Euler.

Prints tables; it is not a test (tests/test_dns_paper.py asserts the paper's numbers).

1. The four examples of Betsch & Leyendecker, Part II (gyro top, cylindrical pair, planar pair, six-body
   linkage) over a fixed span each, for each scheme (reduced = the discrete null space method; chrono-hht:
   HHT with alpha = -0.2; chrono-euler: implicit Euler) and time step: the largest relative change of the
   energy and of the conserved angular momentum (e3 . L for the top under gravity, the whole L for the free
   pairs; the linkage's L is not conserved: body 0 is held), Newton iterations per step (reduced), wall time
   and time per step (for Chrono "k NC": k steps whose Newton iteration did not converge within 30
   iterations; Chrono goes on with the last iterate). --constrained adds the n + m unknowns scheme.
2. Tables II-V: the iteration matrix's condition number, constrained and reduced, against the paper's.
3. --long: the 10^4-step runs (top at dt = 0.05, Fig. 10; cylindrical pair at dt = 0.01; planar pair at
   dt = 1e-4 and 1e-3: there the pyramid slides 2300 lengths away and L keeps ~1e-9 in double precision).

    python3 benchmarks/integrators.py            # a few minutes on one core
    python3 benchmarks/integrators.py --long
"""
import argparse
import math

import numpy as np

from chrono_origami import engines
from chrono_origami.papers import dns_paper as paper

from common import program_threads  # noqa: E402  (benchmarks/)

program_threads()   # the program's own choice of BLAS threads (--blas all: one per core)

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("--constrained", action="store_true", help="also the constrained scheme (n + m unknowns)")
ap.add_argument("--long", action="store_true", help="the 10^4-step runs of part 3")
args = ap.parse_args()

SPAN = {"gyro_top": 0.6283185307179586, "cylindrical_pair": 1.0, "planar_pair": 0.1, "six_body_linkage": 0.3}
DTS = {"gyro_top": (5e-2, 1e-2, 1e-3), "cylindrical_pair": (1e-2, 1e-3), "planar_pair": (1e-3, 1e-4),
       "six_body_linkage": (1e-2, 1e-3, 1e-4)}
schemes = ["reduced"] + (["constrained"] if args.constrained else [])
if engines.chrono_available():
    schemes += ["chrono-hht", "chrono-euler"]
else:
    print("note: PyChrono is not installed: Chrono's integrators are left out")


def momentum_drift(name, s):
    L = s.L[:, 2] if name == "gyro_top" else s.L
    if name == "six_body_linkage":
        return float("nan")
    ref = np.abs(L[0]).max() if L.ndim == 1 else np.linalg.norm(L[0])
    return float(np.abs(L - L[0]).max() / ref)


print("1. energy and momentum drift against dt (max over the span of |X - X0| / |X0|)")
print(f"{'example':>17} {'span (s)':>8} {'scheme':>13} {'dt (s)':>8} {'energy':>10} {'momentum':>10} "
      f"{'Newton/step':>11} {'wall (s)':>9} {'ms/step':>8}")
for name in paper.EXAMPLES:
    for scheme in schemes:
        for dt in DTS[name]:
            try:
                s = paper.run(name, scheme, dt, SPAN[name], stride=max(1, int(round(SPAN[name] / dt / 200))))
            except Exception as e:           # Chrono may diverge at the largest steps: say so
                print(f"{name:>17} {SPAN[name]:>8.3g} {scheme:>13} {dt:>8.0e}   failed: {str(e).splitlines()[0][:60]}")
                continue
            dE, _ = paper.drift(s)
            dL = momentum_drift(name, s)
            term = s.info.get("terminated_steps")
            its = (f"{s.iterations:>11.3g}" if math.isfinite(s.iterations) else
                   f"{(f'{term} NC' if term else '-'):>11}")
            print(f"{name:>17} {SPAN[name]:>8.3g} {scheme:>13} {dt:>8.0e} {dE:>10.2e} "
                  f"{(f'{dL:.2e}' if math.isfinite(dL) else '-'):>10} {its} {s.wall:>9.3g} "
                  f"{1e3 * s.wall / s.steps:>8.3g}")

print("\n2. condition number of the iteration matrix (Tables II-V: constrained, reduced; paper in brackets)")
print(f"{'example':>17} {'dt (s)':>8} {'constrained':>24} {'reduced':>20}")
for name in paper.EXAMPLES:
    for dt in paper.TABLE_DT[name]:
        c, r = paper.conditioning(name, "constrained", dt), paper.conditioning(name, "reduced", dt)
        cp, rp = paper.TABLES[name][dt]
        print(f"{name:>17} {dt:>8.0e} {c:>11.3g} ({cp:>9.2g}) {r:>9.3g} ({rp:>7.3g})")

if args.long:
    print("\n3. 10^4 steps (reduced scheme)")
    for name, dt in (("gyro_top", 0.05), ("cylindrical_pair", 0.01), ("planar_pair", 1e-4), ("planar_pair", 1e-3)):
        s = paper.run(name, "reduced", dt, 1e4 * dt, stride=100)
        dE, _ = paper.drift(s)
        print(f"{name:>17} dt = {dt:g}: energy {dE:.2e}, momentum {momentum_drift(name, s):.2e}, "
              f"{s.iterations:.3g} Newton iterations per step, {s.wall:.3g} s")
