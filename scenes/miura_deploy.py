"""Miura-ori strip deployed by one hinge motor, from nearly flat-folded to open, under gravity.

The isostatic strip of patterns.miura.miura_strip (2 x (steps + 2) panels,
hinge 1 a door hinge, the others sliding: M = 1, S = 0), panel 1 clamped by
three vertex supports, folded to --start-deg (170: nearly flat-folded; the
angle between the normals across a straight crease). A motor on hinge 1 opens
it to --end-deg in --time s with zero speed at both ends (psi(t) = dpsi (1 -
cos(pi t / T)) / 2). Prints the energy balance and the peak |MO| and |N| over
time and the hinge where each occurs. SI units by default: 1 m segments,
20 mm panels of density 500 kg/m^3, g = 9.81 m/s^2.

    python3 scenes/miura_deploy.py --out out/miura_deploy --png-frames out/miura_deploy/png
"""

from chrono_origami.cli import app
from chrono_origami.cli import dynamics as cli_dynamics
from chrono_origami.inputs.dynamics import INTEGRATORS
from chrono_origami.inputs.dynamics_examples import MIURA_END_DEG, MIURA_START_DEG, miura_deploy


def parser():
    ap = app.parser(__doc__)
    ap.add_argument("--steps", type=int, default=2, help="growth steps of the strip (default 2: 8 panels)")
    ap.add_argument("--start-deg", type=float, default=MIURA_START_DEG, help="fold angle at the start (default 170)")
    ap.add_argument("--end-deg", type=float, default=MIURA_END_DEG, help="fold angle at the end (default 60)")
    return cli_dynamics.run_options(ap, time=2.0, dt=1e-3, output_interval=0.02, integrators=INTEGRATORS["chrono"])


def run(args):
    structure, motor, target = miura_deploy(args.steps, start_deg=args.start_deg, end_deg=args.end_deg,
                                            duration=args.time)
    print(f"{structure.name}: motor on {motor.describe()}")
    hist = cli_dynamics.integrate(structure, args, motors=[motor])
    misfit = abs(hist.vertices[-1] - target).max()
    print(f"end configuration: {misfit:.3g} from the closed-form fold at {args.end_deg:g} deg "
          f"(largest vertex offset)")


def main(argv=None):
    ap = parser()
    cli_dynamics.scene(ap, run, argv)


if __name__ == "__main__":
    main()
