"""Kresling module with triangular base (paper Fig. 8 b, Tables 9-11).

Six triangular panels, six door hinges, simply supported at the bottom base
and loaded by a unit downward force at each top vertex. Isostatic except at the
twists 30 and -150 deg (see kresling_singular.py).

    python3 scenes/kresling_module.py --engine reference --out out/kresling_module
"""
import math
import sys

from chrono_origami.patterns.kresling import kresling_module
from chrono_origami.scene import parser, run_static

ap = parser(__doc__.splitlines()[0])
ap.add_argument("--twist-deg", type=float, default=20.0, help="twist of the top base, degrees (default 20)")
ap.add_argument("--handedness", choices=["right", "left"], default="right")
ap.add_argument("--height", type=float, default=20.0, help="module height (default 20)")
ap.add_argument("--diameter", type=float, default=20.0, help="diameter of the base circle (default 20)")
args = ap.parse_args()
if not -180 < args.twist_deg <= 180:
    ap.error(f"--twist-deg must be in (-180, 180], got {args.twist_deg}")

try:
    structure = kresling_module(args.height, args.diameter, math.radians(args.twist_deg), args.handedness)
except ValueError as e:
    ap.error(str(e))
sys.exit(run_static(structure, args))
