"""Free flight of a planar pair (Betsch & Leyendecker, Part II, sec. 5.3): the discrete null space method.

A pyramid (mass 2) sliding and turning on the top face of a parallelepiped
(mass 5), no forces, initial generalised velocities eq. (177). Energy and the
whole angular momentum are first integrals. Prints their drift. With --out
DIR writes invariants.csv (t,E,L1,L2,L3) and conditioning.csv
(dt,scheme,condition: Table IV's time steps and --dt).

    python3 scenes/planar_pair.py --dt 0.001 --time 0.1 --out out/planar_pair
"""
import argparse
import sys

from chrono_origami.dynamics import report
from chrono_origami.reference.dns import paper


def main(argv=None):
    ap = paper.add_options(argparse.ArgumentParser(description=__doc__.splitlines()[0]), 1e-3, 0.1)
    args = ap.parse_args(argv)
    paper.check_options(ap, args)
    return report.guarded(lambda: paper.finish("planar_pair", args,
                                               paper.run("planar_pair", args.scheme, args.dt, args.time,
                                                         args.stride)), args.out)


if __name__ == "__main__":
    sys.exit(main())
