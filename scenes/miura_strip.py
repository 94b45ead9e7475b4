"""Sequential isostatic Miura-ori strip (sec. 4.2.1, Fig. 5 right): one door hinge, all others sliding.

The single-vertex Miura-ori grown by --steps steps of two panels and three
sliding hinges. Unsupported and unloaded: prints M and S (M = 1, S = 0; with
--all-door S = 3 (steps + 1) and the self-stress states).

    python3 scenes/miura_strip.py --steps 4 --engine reference --out out/miura_strip
"""
from chrono_origami.cli import static
from chrono_origami.patterns import miura

ap = static.parser(__doc__)
ap.add_argument("--steps", type=int, default=3, help="number of growth steps (default 3)")
ap.add_argument("--sector", type=float, default=60.0, help="sector angle in degrees (default 60)")
ap.add_argument("--angle", type=float, default=60.0, help="fold angle in degrees (default 60)")

if __name__ == "__main__":
    static.scene(ap, lambda args: miura.miura_strip(args.steps, args.sector, args.angle))
