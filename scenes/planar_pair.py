"""Free flight of a planar pair (Betsch & Leyendecker, Part II, sec. 5.3): the discrete null space method.

A pyramid (mass 2) sliding and turning on the top face of a parallelepiped
(mass 5), no forces, initial generalised velocities eq. (177). Energy and the
whole angular momentum are first integrals. Prints their drift. With --out
DIR writes invariants.csv (t,E,L1,L2,L3) and conditioning.csv
(dt,scheme,condition: Table IV's time steps and --dt).

    python3 scenes/planar_pair.py --dt 0.001 --time 0.1 --out out/planar_pair
"""
from chrono_origami.cli import app
from chrono_origami.cli import dynamics as cli_dynamics
from chrono_origami.papers import dns_paper as paper


def run(args):
    cli_dynamics.paper_finish("planar_pair", args, paper.run("planar_pair", args.scheme, args.dt, args.time, args.stride))


def main(argv=None):
    ap = cli_dynamics.paper_options(app.parser(__doc__), 1e-3, 0.1)
    cli_dynamics.scene(ap, run, argv)


if __name__ == "__main__":
    main()
