"""Kresling tower of alternating handedness (paper Fig. 9, Table 12 for two modules).

Simply supported at the bottom base, a unit downward force at each top
vertex. The six hinges of one module are door hinges, all others sliding:
isostatic. --door-module 0 makes every hinge a door hinge (S = 9 per junction).

    python3 scenes/kresling_tower.py --modules 2 --engine reference --out out/kresling_tower
"""
import math
import sys

from chrono_origami.patterns.kresling import kresling_tower
from chrono_origami.scene import parser, run_static

ap = parser(__doc__.splitlines()[0])
ap.add_argument("--modules", type=int, default=2, help="number of modules (default 2)")
ap.add_argument("--door-module", type=int, default=1,
                help="module whose hinges are door hinges, 1..N (default 1); 0: all hinges door")
ap.add_argument("--twist-deg", type=float, default=20.0, help="twist of module 1, degrees (default 20)")
ap.add_argument("--handedness", choices=["right", "left"], default="right", help="handedness of module 1")
ap.add_argument("--height", type=float, default=20.0, help="module height (default 20)")
ap.add_argument("--diameter", type=float, default=20.0, help="diameter of the base circle (default 20)")
args = ap.parse_args()
if not -180 < args.twist_deg <= 180:
    ap.error(f"--twist-deg must be in (-180, 180], got {args.twist_deg}")
if args.modules < 1:
    ap.error(f"--modules must be an integer >= 1, got {args.modules}")
if args.door_module < 0 or args.door_module > args.modules:
    ap.error(f"--door-module must be 0 (all door) or a module from 1 to {args.modules}, got {args.door_module}")

try:
    structure = kresling_tower(args.modules, args.door_module or None, args.height, args.diameter,
                               math.radians(args.twist_deg), args.handedness)
except ValueError as e:
    ap.error(str(e))
sys.exit(run_static(structure, args))
