"""Kresling tower under its paper load (sec. 4.2.3): modes at the static equilibrium, with and without Kc.

The tower of scenes/kresling_tower.py (simply supported base, a downward
--load at each top vertex), with thick panels (--thickness, --density) and
crease springs on every hinge (--crease-stiffness about the axis,
--slide-stiffness along sliding hinges). With --hinges paper (door module 1,
all other hinges sliding) the tower is isostatic with no mechanism (M = 0):
rigid panels on ideal hinges cannot move, so it has no modes. By default every
hinge slides (--hinges sliding: M = 6, S = 0, the hinge forces still follow from
the loads): its six mechanisms get their stiffness from the springs and, through
Kc, from the load.

Consistent units; the defaults read as mm, N, t (tonne), s: 1 mm PLA-like
panels (1.2e-9 t/mm^3), springs 100 N mm/rad and 100 N/mm, the paper's unit load.

    python3 scenes/kresling_modes.py --out out/kresling_modes --fold out/kresling_modes/mode1.fold
"""
import math
from dataclasses import replace

from chrono_origami.cli import modal as modal
from chrono_origami.cli.inputs import twist_deg
from chrono_origami.patterns.kresling import kresling_tower
from chrono_origami.structure.hinges import SLIDING


def build(args):
    s = kresling_tower(args.modules, 1, twist=math.radians(args.twist_deg), load=args.load)
    if args.hinges == "sliding":
        s = s.with_hinge_kinds([SLIDING] * len(s.hinge_kinds))
    return replace(s, thickness=args.thickness, density=args.density,
                   name=f"{s.name.split(' (')[0]} ({args.modules} modules, {args.hinges} hinges, load {args.load:g})")


ap = modal.parser(__doc__, structure=True, thickness=1.0, density=1.2e-9, crease_stiffness=100.0,
                  slide_stiffness=100.0)
ap.add_argument("--modules", type=int, default=2, help="number of modules (default 2)")
ap.add_argument("--hinges", choices=["sliding", "paper"], default="sliding",
                help="sliding: every hinge sliding (default); paper: door module 1, the rest sliding (M = 0)")
ap.add_argument("--twist-deg", type=twist_deg, default=20.0, metavar="DEG",
                help="twist of module 1, degrees (default 20)")
ap.add_argument("--load", type=float, default=1.0, help="downward force at each top vertex (default 1)")

if __name__ == "__main__":
    modal.structure_scene(ap, build)
