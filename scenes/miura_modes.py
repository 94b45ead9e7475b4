"""Miura-ori cantilever with crease springs (paper sec. 4.2.1 geometry and load): fold mode with and without Kc.

The paper's cantilever (Fig. 6: --columns columns of right trapezoids, height
2, bases 1 and 2, folded to --angle degrees; 15 sliding hinges and door hinge
16; downward --load at tip vertex 2), with thick panels (--thickness,
--density), gravity (--gravity, along -z) and crease springs on every hinge
(--crease-stiffness). The paper's supports (Table 3: vertices 19, 21 pinned,
20 held along x) leave no mechanism (M = 0), hence no modes; here panel 11
(lower panel of the last column) is clamped instead, 3-2-1 at its vertices
19 (xyz), 20 (xz), 16 (z), so the structure keeps the Miura fold (M = 1,
S = 0): the crease springs and, through Kc, the loads give it its stiffness.

Consistent units; the defaults read as m, kg, N, s (10 mm panels of density
1000 kg/m^3, 1000 N m/rad springs, g = 9.81 m/s^2, the paper's unit tip load).

    python3 scenes/miura_modes.py --out out/miura_modes --png out/miura_modes/png
"""
from dataclasses import replace

from chrono_origami.cli import modal as modal
from chrono_origami.patterns import miura
from chrono_origami.structure.structure import Support


def build(args):
    c = miura.miura_cantilever(args.columns, args.angle, load=args.load, thickness=args.thickness,
                               density=args.density)
    n = c.notes["columns"]
    last, lower = 3 * n, 2 * (n - 1)          # bottom vertex of the last column line, its lower panel (0-based)
    clamp = (Support(last, lower, "xyz"), Support(last + 1, lower, "xz"), Support(last - 3, lower, "z"))
    return replace(c, supports=clamp, gravity=(0.0, 0.0, -args.gravity) if args.gravity else None,
                   name=f"{c.name}, panel {lower + 1} clamped")


ap = modal.parser(__doc__, structure=True, thickness=0.01, density=1000.0, crease_stiffness=1000.0)
ap.add_argument("--columns", type=int, default=miura.COLUMNS, help="number of panel columns (default 6)")
ap.add_argument("--angle", type=float, default=miura.FOLD_ANGLE_DEG, help="fold angle in degrees (default 27.4)")
ap.add_argument("--load", type=float, default=1.0, help="downward tip load (default 1)")
ap.add_argument("--gravity", type=float, default=9.81, help="gravitational acceleration along -z (default 9.81)")

if __name__ == "__main__":
    modal.structure_scene(ap, build)
