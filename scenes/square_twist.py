"""Square twist of the paper (sec. 2, Fig. 1): P = 9, H = 12, E_b = 8, V_i = 4, all door hinges.

Flat by default: a singular configuration (M = 4, S = 16 instead of Fig. 1's
M = 1, S_PH = 13). ``--fold DEG`` folds it rigidly in closed form (see
``simple.square_twist_folded``), where M = 1 and S = 13 as in Fig. 1.
``--twist`` sets the twist angle of the central square (degrees).

    python3 scenes/square_twist.py --engine reference --out out/square_twist
"""
from chrono_origami.cli import static
from chrono_origami.patterns import simple
from chrono_origami.structure.structure import Structure


def build(args):
    if args.fold is None:
        pattern, state = simple.square_twist(args.twist), "flat"
    else:
        pattern, state = simple.square_twist_folded(args.fold, args.twist), f"folded {args.fold:g} deg"
    return Structure(pattern, name=f"square twist (twist {args.twist:g} deg, {state})")


ap = static.parser(__doc__)
ap.add_argument("--twist", type=float, default=30.0, help="twist angle of the central square, degrees (0-90)")
ap.add_argument("--fold", type=float, default=None, metavar="DEG",
                help="fold angle of the first parallelogram about the square, degrees (default: flat)")

if __name__ == "__main__":
    static.scene(ap, build)
