"""The paper's isostatic Miura-ori cantilever (sec. 4.2.1, Fig. 6, Tables 1-3).

Right-trapezoid panels (height 2, bases 1 and 2) folded to --angle degrees
between the normals of panels on either side of a straight crease; 15
sliding hinges and one door hinge (16); vertices 19, 21 pinned, 20 held along
x; unit downward load at the tip vertex 2. Prints Tables 2 and 3.

    python3 scenes/miura_cantilever.py --engine reference --out out/miura_cantilever
    python3 scenes/miura_cantilever.py --table1        # at the paper's Table 1 coordinates
"""
from chrono_origami.cli import static
from chrono_origami.patterns import miura


def build(args):
    if args.table1:
        return miura.miura_cantilever_from_vertices(miura.TABLE1_VERTICES, load=args.load,
                                                    name="Miura-ori cantilever (Table 1 coordinates)")
    return miura.miura_cantilever(args.columns, args.angle, load=args.load)


ap = static.parser(__doc__)
ap.add_argument("--columns", type=int, default=miura.COLUMNS, help="number of panel columns (default 6)")
ap.add_argument("--angle", type=float, default=miura.FOLD_ANGLE_DEG, help="fold angle in degrees (default 27.4)")
ap.add_argument("--load", type=float, default=1.0, help="downward tip load (default 1)")
ap.add_argument("--table1", action="store_true", help="use the paper's Table 1 coordinates (6 columns)")

if __name__ == "__main__":
    static.scene(ap, build)
