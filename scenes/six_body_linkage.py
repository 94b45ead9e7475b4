"""The six-body linkage (Betsch & Leyendecker, Part II, sec. 5.4.2) as a ring of six door-hinged panels.

Six tetrahedral bodies on six edges of a cube (L = 0.1, gamma = 0.16 pi,
density 1000), built from the project's pattern and structure objects
(``patterns.linkage``), body 0 (panel 1) fixed, gravity 9.81 along -z,
started at the cube with theta_dot^1 = 30 rad/s. The counting rules give
M = 0 (a generic ring of six door hinges is rigid); the numeric rank gives
M = 1 with S = 1 (only four of the five loop-closure conditions are
independent). Prints M, M_rules, S, the energy drift and the largest
|sin theta^2 - sin theta^1 / (1 - sin theta^1)|. With --out DIR writes

* counts.json: {"M": ..., "M_rules": ..., "S": ..., ...};
* angles.csv: t,theta1,theta2 (rad, unwrapped);
* invariants.csv: t,E,L1,L2,L3; conditioning.csv: dt,scheme,condition (Table V, t = 0.04);
* with the reference schemes also the dynamics files (energy.csv, momentum.csv, hinges_t.csv, ...).

    python3 scenes/six_body_linkage.py --dt 0.001 --time 0.3 --out out/six_body_linkage
"""
import json
import os

import numpy as np

from chrono_origami.analysis import static as analysis
from chrono_origami.cli import app
from chrono_origami.cli import dynamics as cli_dynamics
from chrono_origami.report.dynamics import write_history
from chrono_origami.patterns import linkage
from chrono_origami.papers import dns_paper as paper
from chrono_origami.cli import inputs
from chrono_origami.results.table import Table


def counts():
    """counts.json: numeric M and S of the ring (no supports: internal mechanisms), the rules' M beside them."""
    st = linkage.six_body_structure()
    c = analysis.count(st, "reference")
    d = analysis.counts_summary(st, c)
    d["M_rules"] = max(int(d["maxwell_M_minus_S"]), 0)
    model = paper.linkage_model(st)
    d["M_dns"] = int(model.mb.mobility)
    return {"M": d.pop("M"), "M_rules": d.pop("M_rules"), "S": d.pop("S"), **d}


def run(args):
    c = counts()
    print(f"six-body linkage: M = {c['M']} (numeric rank), M_rules = {c['M_rules']} (counting rules), "
          f"S = {c['S']}; the discrete null space method's closed loop: {c['M_dns']} degree of freedom")
    s = paper.run("six_body_linkage", args.scheme, args.dt, args.time, args.stride)
    th1, th2 = s.angles[:, 0], s.angles[:, 1]
    rel = np.abs(np.sin(th2) - np.sin(th1) / (1 - np.sin(th1))).max()
    print(f"largest |sin theta2 - sin theta1 / (1 - sin theta1)| = {rel:.3e}")

    def extra(out):
        with open(os.path.join(out, "counts.json"), "w") as f:
            json.dump(c, f, indent=1)
        inputs.write_tables([Table("angles", ("t", "theta1", "theta2"), zip(s.t, th1, th2))], args, out)
        if s.history is not None:
            write_history(s.history, out, args.format)

    cli_dynamics.paper_finish("six_body_linkage", args, s, extra)


def main(argv=None):
    ap = cli_dynamics.paper_options(app.parser(__doc__), 1e-3, 0.3)
    cli_dynamics.scene(ap, run, argv)


if __name__ == "__main__":
    main()
