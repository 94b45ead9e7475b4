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

from chrono_origami.cli import modal as modal


def build(args):
    if not math.isfinite(args.start_angle):
        raise ValueError("--start-angle must be a finite number of degrees")
    from chrono_origami.engines.chrono import kc_examples

    e = kc_examples.pendulum(args.start_angle, use_tangent_stiffness=not args.no_kc)
    print(f"pendulum: 15 kg on a 4 m link, started {args.start_angle:g} deg off the downward vertical; "
          f"theory sqrt(g/L) = {math.sqrt(kc_examples.G / 4.0):.6f} rad/s")

    def where():
        p = e.bodies["mass"].GetPos()
        return f"mass at ({p.x:.6g}, {p.y:.6g}, {p.z:.6g}) m"

    return e.system, where


ap = modal.parser(__doc__)
ap.add_argument("--start-angle", type=float, default=30.0, metavar="DEG",
                help="initial angle of the link from the downward vertical, degrees (default 30)")

if __name__ == "__main__":
    modal.system_scene(ap, build)
