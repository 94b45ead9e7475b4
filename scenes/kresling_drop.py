"""Kresling tower released under gravity and its top loads onto damped crease springs, settling to rest.

Two modules (--modules), simply supported at the base as in the paper
(sec. 4.2.3), thick panels under gravity plus a downward --load at each top
vertex, a crease spring-damper on every hinge resting at the initial fold
angles. --hinges mechanism (default): the paper's hinges with hinge 1 made
sliding too, which frees module 1's twist-and-fold mechanism (M = 1): the
tower twists down until the springs hold it, and settles; the scene prints
how far it sank and how static the end state is (residual of loads, hinge
and support reactions and spring moments on every panel). --hinges paper:
the paper's isostatic tower (M = 0) cannot move; its hinge actions must be
those of analysis.static at every instant, which the scene checks.
Units mm, N, t, s by default (1 mm panels, 1.2e-9 t/mm^3, g = 9810 mm/s^2).

    python3 scenes/kresling_drop.py --out out/kresling_drop
"""

import numpy as np

from chrono_origami.analysis import static as analysis
from chrono_origami.cli import app
from chrono_origami.cli import dynamics as cli_dynamics
from chrono_origami.inputs.dynamics import INTEGRATORS
from chrono_origami.inputs.dynamics_examples import KRESLING_HINGES, kresling_drop


def parser():
    ap = app.parser(__doc__)
    ap.add_argument("--modules", type=int, default=2, help="number of modules (default 2)")
    ap.add_argument("--hinges", choices=KRESLING_HINGES, default="mechanism", help="default mechanism (M = 1)")
    ap.add_argument("--stiffness", type=float, default=100.0, help="crease spring stiffness (N mm/rad, default 100)")
    ap.add_argument("--damping", type=float, default=0.2, help="crease damping (N mm s/rad, default 0.2)")
    ap.add_argument("--load", type=float, default=1.0, help="downward force at each top vertex (N, default 1)")
    return cli_dynamics.run_options(ap, time=0.1, dt=1e-4, output_interval=1e-3, integrators=INTEGRATORS["chrono"])


def run(args):
    if args.modules < 1:
        raise app.UsageError(f"--modules must be at least 1, got {args.modules}")
    structure, springs = kresling_drop(args.modules, args.hinges, args.stiffness, args.damping, load=args.load)
    hist = cli_dynamics.integrate(structure, args, springs=springs)
    sink = hist.vertices[0, :, 2].max() - hist.vertices[-1, :, 2].max()
    print(f"the top sank by {sink:.6g}; kinetic energy at the end {hist.kinetic[-1]:.3g} "
          f"(largest {hist.kinetic.max():.3g}); static residual of the end state {hist.info['static_residual']:.3g}")
    if args.hinges == "paper":
        ref = np.array(analysis.static(structure, "chrono").hinge_rows())[:, 2:]
        worst = max(np.abs(np.array(hist.hinge_rows(k))[:, 2:] - ref).max() for k in range(len(hist.t)))
        print(f"hinge actions against analysis.static: largest difference over the motion {worst:.3g} "
              f"({worst / np.abs(ref).max():.3g} of the table maximum {np.abs(ref).max():.6g})")


def main(argv=None):
    ap = parser()
    cli_dynamics.scene(ap, run, argv)


if __name__ == "__main__":
    main()
