"""Free flight of a cylindrical pair (Betsch & Leyendecker, Part II, sec. 5.2): the discrete null space method.

A cylinder (l = 30, r = 2, mass 4) and a hollow cylinder (mass 3) sliding and
turning on it, no forces, initial generalised velocities eq. (175). Energy
and the whole angular momentum are first integrals. Prints their drift and
the relative coordinates (slide u, angle theta) at the end. With --out DIR
writes invariants.csv (t,E,L1,L2,L3) and conditioning.csv (dt,scheme,condition:
Table III's time steps and --dt).

    python3 scenes/cylindrical_pair.py --dt 0.01 --time 1 --out out/cylindrical_pair
"""
from chrono_origami.cli import app
from chrono_origami.cli import dynamics as cli_dynamics
from chrono_origami.papers import dns_paper as paper


def run(args):
    cli_dynamics.paper_finish("cylindrical_pair", args, paper.run("cylindrical_pair", args.scheme, args.dt, args.time, args.stride))


def main(argv=None):
    ap = cli_dynamics.paper_options(app.parser(__doc__), 0.01, 1.0)
    cli_dynamics.scene(ap, run, argv)


if __name__ == "__main__":
    main()
