"""Kresling module with triangular base (paper Fig. 8 b, Tables 9-11).

Six triangular panels, six door hinges, simply supported at the bottom base
and loaded by a unit downward force at each top vertex. Isostatic except at the
twists 30 and -150 deg (see kresling_singular.py).

    python3 scenes/kresling_module.py --engine reference --out out/kresling_module
"""
import math

from chrono_origami.cli import static
from chrono_origami.cli.inputs import twist_deg
from chrono_origami.patterns.kresling import kresling_module

ap = static.parser(__doc__)
ap.add_argument("--twist-deg", type=twist_deg, default=20.0, metavar="DEG",
                help="twist of the top base, degrees (default 20)")
ap.add_argument("--handedness", choices=["right", "left"], default="right")
ap.add_argument("--height", type=float, default=20.0, help="module height (default 20)")
ap.add_argument("--diameter", type=float, default=20.0, help="diameter of the base circle (default 20)")

if __name__ == "__main__":
    static.scene(ap, lambda a: kresling_module(a.height, a.diameter, math.radians(a.twist_deg), a.handedness))
