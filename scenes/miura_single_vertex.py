"""Single-vertex Miura-ori (sec. 4.2.1, Fig. 5 left): three sliding hinges and one door hinge.

Unsupported and unloaded: prints M and S (M = 1, S = 0; with --all-door
M = 1, S = 3 and the three self-stress states).

    python3 scenes/miura_single_vertex.py --engine reference --out out/miura_single_vertex
"""
from chrono_origami.cli import static
from chrono_origami.patterns import miura

ap = static.parser(__doc__)
ap.add_argument("--sector", type=float, default=60.0, help="sector angle in degrees (default 60)")
ap.add_argument("--angle", type=float, default=60.0, help="fold angle in degrees (default 60)")
ap.add_argument("--door-hinge", type=int, default=1, help="the door hinge, 1-4 (default 1)")

if __name__ == "__main__":
    static.scene(ap, lambda args: miura.miura_single_vertex(args.sector, args.angle, door_hinge=args.door_hinge))
