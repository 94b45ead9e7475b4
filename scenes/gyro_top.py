"""Steady precession of a gyro top (Betsch & Leyendecker, Part II, sec. 5.1): the discrete null space method.

A cone (H = 0.1, R = 0.05, density 2700) on a spherical pair at its apex under
gravity, started in steady precession (nutation pi/3, precession 10 rad/s,
spin from eq. 165). Prints the drift of the energy and of e3 . L and the
largest deviation of the centre of mass from the steady precession (over the
run, in units of L = 3H/4). With --out DIR writes

* invariants.csv: t,E,L1,L2,L3 (L about the apex, the origin);
* com.csv: t,x,y,z,x_exact,y_exact,z_exact;
* conditioning.csv: dt,scheme,condition (Table II's time steps and --dt).

    python3 scenes/gyro_top.py --dt 1e-3 --out out/gyro_top
    python3 scenes/gyro_top.py --dt 0.05 --time 500 --stride 100     # Fig. 10: 10^4 steps
"""
import numpy as np

from chrono_origami.cli import app
from chrono_origami.cli import dynamics as cli_dynamics
from chrono_origami.engines.reference.dns import examples
from chrono_origami.papers import dns_paper as paper
from chrono_origami.cli import inputs
from chrono_origami.results.table import Table


def run(args):
    data = examples.gyro_top().data
    s = paper.run("gyro_top", args.scheme, args.dt, args.time, args.stride)
    exact = examples.gyro_top_com(s.t, data)
    com = s.com[:, 0]
    L3 = s.L[:, 2]
    print(f"e3 . L drift: {np.abs(L3 - L3[0]).max() / abs(L3[0]):.3e}; largest |com - steady precession| = "
          f"{np.abs(com - exact).max() / data['L']:.3e} L")

    def extra(out):
        inputs.write_tables([Table("com", ("t", "x", "y", "z", "x_exact", "y_exact", "z_exact"),
                                   (np.r_[t, c, e] for t, c, e in zip(s.t, com, exact)))], args, out)

    cli_dynamics.paper_finish("gyro_top", args, s, extra)


def main(argv=None):
    ap = cli_dynamics.paper_options(app.parser(__doc__), 1e-3, examples.gyro_top().data["period"])
    cli_dynamics.scene(ap, run, argv)


if __name__ == "__main__":
    main()
