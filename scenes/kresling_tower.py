"""Kresling tower of alternating handedness (paper Fig. 9, Table 12 for two modules).

Simply supported at the bottom base, a unit downward force at each top
vertex, on the panel --load-panels chooses (see --help for the default rule,
the paper's for up to two modules). The six hinges of one module are door hinges, all others sliding:
isostatic. --door-module 0 makes every hinge a door hinge (S = 9 per junction).

    python3 scenes/kresling_tower.py --modules 2 --engine reference --out out/kresling_tower
"""
import math

from chrono_origami.cli import static
from chrono_origami.cli.inputs import numbers, twist_deg
from chrono_origami.patterns.kresling import kresling_tower


def build(args):
    if args.modules < 1:
        raise ValueError(f"--modules must be an integer >= 1, got {args.modules}")
    if not 0 <= args.door_module <= args.modules:
        raise ValueError(f"--door-module must be 0 (all door) or a module from 1 to {args.modules}, "
                         f"got {args.door_module}")
    return kresling_tower(args.modules, args.door_module or None, args.height, args.diameter,
                          math.radians(args.twist_deg), args.handedness, load_panels=args.load_panels)


ap = static.parser(__doc__)
ap.add_argument("--modules", type=int, default=2, help="number of modules (default 2)")
ap.add_argument("--door-module", type=int, default=1,
                help="module whose hinges are door hinges, 1..N (default 1); 0: all hinges door")
ap.add_argument("--twist-deg", type=twist_deg, default=20.0, metavar="DEG",
                help="twist of module 1, degrees (default 20)")
ap.add_argument("--handedness", choices=["right", "left"], default="right", help="handedness of module 1")
ap.add_argument("--height", type=float, default=20.0, help="module height (default 20)")
ap.add_argument("--diameter", type=float, default=20.0, help="diameter of the base circle (default 20)")
ap.add_argument("--load-panels", type=numbers, metavar="P,P,P",
                help="the panels (1-based) on which the loads of the top vertices 3N+1, 3N+2, 3N+3 act, in that "
                     "order; each must hold its vertex. Default: at each top vertex the panel that holds the "
                     "top-ring edge and the twist crease ending there, the paper's choice for one and two modules "
                     "(Tables 10 and 12: panels 2,4,6 and 11,7,9); beyond two modules the paper has no table and "
                     "the same rule is this project's own extension")

if __name__ == "__main__":
    static.scene(ap, build)
