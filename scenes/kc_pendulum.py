"""Pendulum of the Kc paper (Peng, Tasora, Fusai, Mangoni 2024, sec. 4.1): static and eigen analysis with Kc.

A 15 kg point mass on a 4 m rigid link, revolute to the ground at the origin
(axis y), g = 9.81 m/s^2 along -z, started --start-angle degrees off the
downward vertical, built as in Chrono's demo_MBS_link_mate.cpp. With Kc the
static analysis finds the lower equilibrium (modes 0 +/- 1.566i rad/s) or,
started well past 90 degrees (e.g. 120), the upper one (+/- 1.566, unstable);
without Kc (--no-kc) it fails.

    python3 scenes/kc_pendulum.py --out out/kc_pendulum
    python3 scenes/kc_pendulum.py --start-angle 120
    python3 scenes/kc_pendulum.py --no-kc
"""
import math
import os
import sys

try:
    import chrono_origami  # noqa: F401
except ImportError:  # run from a checkout without `pip install -e .`
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))

from chrono_origami.modal_scene import parser, run_system

ap = parser(__doc__.splitlines()[0])
ap.add_argument("--start-angle", type=float, default=30.0, metavar="DEG",
                help="initial angle of the link from the downward vertical, degrees (default 30)")
args = ap.parse_args()
if not math.isfinite(args.start_angle):
    ap.error("--start-angle must be a finite number of degrees")

from chrono_origami.chrono import kc_examples  # noqa: E402

e = kc_examples.pendulum(args.start_angle, use_tangent_stiffness=not args.no_kc)
print(f"pendulum: 15 kg on a 4 m link, started {args.start_angle:g} deg off the downward vertical; "
      f"theory sqrt(g/L) = {math.sqrt(kc_examples.G / 4.0):.6f} rad/s")


def where():
    p = e.bodies["mass"].GetPos()
    return f"mass at ({p.x:.6g}, {p.y:.6g}, {p.z:.6g}) m"


sys.exit(run_system(e.system, args, where))
