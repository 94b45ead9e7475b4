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
import os
import sys
from dataclasses import replace

try:
    import chrono_origami  # noqa: F401
except ImportError:  # run from a checkout without `pip install -e .`
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))

from chrono_origami.errors import OrigamiError
from chrono_origami.modal_scene import parser, run_structure
from chrono_origami.patterns.kresling import kresling_tower
from chrono_origami.structure import SLIDING

ap = parser(__doc__.splitlines()[0], structure=True)
ap.add_argument("--modules", type=int, default=2, help="number of modules (default 2)")
ap.add_argument("--hinges", choices=["sliding", "paper"], default="sliding",
                help="sliding: every hinge sliding (default); paper: door module 1, the rest sliding (M = 0)")
ap.add_argument("--twist-deg", type=float, default=20.0, help="twist of module 1, degrees (default 20)")
ap.add_argument("--load", type=float, default=1.0, help="downward force at each top vertex (default 1)")
ap.add_argument("--thickness", type=float, default=1.0, help="panel thickness (default 1)")
ap.add_argument("--density", type=float, default=1.2e-9, help="panel density (default 1.2e-9)")
ap.add_argument("--crease-stiffness", type=float, default=100.0, help="rotational spring per hinge (default 100)")
ap.add_argument("--slide-stiffness", type=float, default=100.0, help="axial spring per sliding hinge (default 100)")
args = ap.parse_args()
if not -180 < args.twist_deg <= 180:
    ap.error(f"--twist-deg must be in (-180, 180], got {args.twist_deg}")

try:
    s = kresling_tower(args.modules, 1, twist=math.radians(args.twist_deg), load=args.load)
    if args.hinges == "sliding":
        s = s.with_hinge_kinds([SLIDING] * len(s.hinge_kinds))
    s = replace(s, thickness=args.thickness, density=args.density,
                name=f"{s.name.split(' (')[0]} ({args.modules} modules, {args.hinges} hinges, load {args.load:g})")
except (OrigamiError, ValueError) as e:
    ap.error(str(e))
sys.exit(run_structure(s, args, crease_stiffness=args.crease_stiffness, slide_stiffness=args.slide_stiffness))
