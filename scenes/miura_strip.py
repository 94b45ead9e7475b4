"""Sequential isostatic Miura-ori strip (sec. 4.2.1, Fig. 5 right): one door hinge, all others sliding.

The single-vertex Miura-ori grown by --steps steps of two panels and three
sliding hinges. Unsupported and unloaded: prints M and S (M = 1, S = 0; with
--all-door S = 3 (steps + 1) and the self-stress states).

    python3 scenes/miura_strip.py --steps 4 --engine reference --out out/miura_strip
"""
import os
import sys

try:
    import chrono_origami  # noqa: F401
except ImportError:  # run from a checkout without `pip install -e .`
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))

from chrono_origami.patterns import miura
from chrono_origami.scene import parser, run_static
from chrono_origami.structure import DOOR

ap = parser(__doc__.splitlines()[0])
ap.add_argument("--steps", type=int, default=3, help="number of growth steps (default 3)")
ap.add_argument("--sector", type=float, default=60.0, help="sector angle in degrees (default 60)")
ap.add_argument("--angle", type=float, default=60.0, help="fold angle in degrees (default 60)")
ap.add_argument("--all-door", action="store_true", help="make every hinge a door hinge")
args = ap.parse_args()

try:
    structure = miura.miura_strip(args.steps, args.sector, args.angle)
except ValueError as e:
    ap.error(str(e))
if args.all_door:
    structure = structure.with_hinge_kinds([DOOR] * len(structure.hinge_kinds))
sys.exit(run_static(structure, args))
