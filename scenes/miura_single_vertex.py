"""Single-vertex Miura-ori (sec. 4.2.1, Fig. 5 left): three sliding hinges and one door hinge.

Unsupported and unloaded: prints M and S (M = 1, S = 0; with --all-door
M = 1, S = 3 and the three self-stress states).

    python3 scenes/miura_single_vertex.py --engine reference --out out/miura_single_vertex
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
ap.add_argument("--sector", type=float, default=60.0, help="sector angle in degrees (default 60)")
ap.add_argument("--angle", type=float, default=60.0, help="fold angle in degrees (default 60)")
ap.add_argument("--door-hinge", type=int, default=1, help="the door hinge, 1-4 (default 1)")
ap.add_argument("--all-door", action="store_true", help="make all four hinges door hinges")
args = ap.parse_args()

try:
    structure = miura.miura_single_vertex(args.sector, args.angle, door_hinge=args.door_hinge)
except ValueError as e:
    ap.error(str(e))
if args.all_door:
    structure = structure.with_hinge_kinds([DOOR] * len(structure.hinge_kinds))
sys.exit(run_static(structure, args))
