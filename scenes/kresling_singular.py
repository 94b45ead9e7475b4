"""Kresling module in its singular configuration (paper Fig. 8 a, Tables 7-8).

At the twist pi/6 the module has one infinitesimal mechanism and one
self-stress state (M = S = 1). Prints the self-stress state, then the rows of
Table 8 scaled like the paper (unit norm of the multipliers lambda). Its
statics is not determined: exit code 3 (as every static scene), or 0 with
--min-norm.

    python3 scenes/kresling_singular.py --engine reference --out out/kresling_singular
"""
import math

from chrono_origami.cli import app, static
from chrono_origami.patterns.kresling import kresling_module
from chrono_origami.engines.reference.static import paper_self_stress
from chrono_origami.report.tables import HINGE_HEADER, text_table


def analyse(structure, args):
    statics = static.report(structure, args)
    _, actions = paper_self_stress(structure)
    rows = [(a.hinge + 1, a.panel + 1, *a.values) for a in actions if a.hinge == a.panel]
    print(text_table(HINGE_HEADER, rows, "self-stress state, sides (h, h) as in Table 8, scaled to |lambda| = 1"))
    static.check_determined(statics, args)   # M = S = 1: exit code 3 unless --min-norm


ap = static.parser(__doc__)
ap.add_argument("--height", type=float, default=20.0, help="module height (default 20)")
ap.add_argument("--diameter", type=float, default=20.0, help="diameter of the base circle (default 20)")

if __name__ == "__main__":
    app.scene(ap, lambda a: kresling_module(a.height, a.diameter, math.pi / 6), analyse)
