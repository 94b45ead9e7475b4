"""Four-panel ring of the paper (sec. 4.2, Fig. 4): four rectangular panels closed by four hinges.

A box tube of section 2 x 1 with hinges of length 3 (``--width``, ``--depth``,
``--length``). With four door hinges M = 1, S = 3; ``--sliding N`` makes hinges
1..N sliding: one removes the parallel-shear self-stress state (M = 1, S = 2),
more only add mechanisms (M = N, S = 2). No loads: the scene prints and writes
the counts and the self-stress states.

    python3 scenes/four_panel_ring.py --sliding 1 --engine reference --out out/four_panel_ring
"""
from chrono_origami.cli import static
from chrono_origami.patterns import simple
from chrono_origami.structure.structure import Structure
from chrono_origami.structure.hinges import DOOR, SLIDING


def build(args):
    if not 0 <= args.sliding <= 4:
        raise ValueError(f"--sliding must be between 0 and 4 (the ring has 4 hinges), got {args.sliding}")
    pattern = simple.rectangular_ring(args.width, args.depth, args.length)
    kinds = (SLIDING,) * args.sliding + (DOOR,) * (4 - args.sliding)
    return Structure(pattern, hinge_kinds=kinds, name=f"four-panel ring ({args.sliding} sliding)")


ap = static.parser(__doc__)
ap.add_argument("--sliding", type=int, default=0, metavar="N", help="number of sliding hinges, 0-4 (default 0)")
ap.add_argument("--width", type=float, default=2.0)
ap.add_argument("--depth", type=float, default=1.0)
ap.add_argument("--length", type=float, default=3.0)

if __name__ == "__main__":
    static.scene(ap, build)
