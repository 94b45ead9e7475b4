"""Fabrication tolerances: how much force they lock into door-hinge designs and into the paper's isostatic ones.

The paper's Miura-ori cantilever (Fig. 6, 6 columns at 27.4 deg: all door
hinges, S = 15, against its isostatic design), the Yoshimura wedge (Table 4:
all door, S = 18, against isostatic) and a two-module Kresling tower (Fig.
9a: all door, S = 9, against door module 1). Each is scaled so that its
largest panel edge is 1 m, and every error component gets the tolerance 0.1
mm (normal errors, 3 sd = 0.1 mm: hinge-axis offset and tilt, hinge position
along the axis, vertex positions per panel). Hinges: the default stiffness
(1e8 N/m and 1e7 N m/rad per metre of hinge; ``chrono_origami.imperfections``).

Prints the table of the largest locked-in 95th and 99th percentiles per
component (closed form: the linear theory) and writes, with --out DIR,
``summary.csv`` (one row per design: M, S and the flat summary of
``analysis.tolerance.summary``, Monte Carlo percentiles of the largest over hinges
included), ``<design>/locked_in.csv`` per design, and ``histogram.png``: the
distribution of the largest locked-in |N| over hinges in --samples Monte
Carlo samples per design (--engine chrono or reference, by default chrono
where PyChrono imports; they run on Dask,
--scheduler local|serial|tcp://HOST:PORT, a local cluster by default). --plot-tolerance
FILE.png draws the largest locked-in action of the all-door cantilever
against the tolerance, linear theory against Chrono's assembly.

    python3 scenes/tolerance_study.py --out out/tolerance_study
"""
import math
import os
import re
from functools import partial

import numpy as np

from chrono_origami import engines
from chrono_origami.analysis import tolerance as tl
from chrono_origami.cli import app
from chrono_origami.cli.inputs import add_engine_option, at_least_two, engine_of, nonnegative_int, positive_int
from chrono_origami.patterns import kresling, miura, yoshimura
from chrono_origami.cli import inputs
from chrono_origami.results.table import Table
from chrono_origami.report import tolerance as rep
from chrono_origami.structure import tolerance as imp
from chrono_origami.structure.hinges import DOOR
from chrono_origami.tools import cluster

#: the scene's tolerance (m) and panel size (m): 0.1 mm on a 1 m panel
TOLERANCE = 1e-4
PANEL = 1.0


def scaled(structure, panel=PANEL):
    """``structure`` scaled so that its longest panel edge is ``panel`` (m); loads dropped (locked-in forces only)."""
    pat = structure.pattern
    X = pat.vertices
    longest = max(np.linalg.norm(X[b] - X[a]) for loop in pat.panels for a, b in zip(loop, loop[1:] + loop[:1]))
    return structure.__class__(pat.with_vertices(X * (panel / longest)), structure.hinge_kinds, structure.thickness,
                               structure.density, structure.supports, (), None, structure.name)


def designs():
    """[(family, {design name: structure})], each structure scaled to 1 m panels."""
    cant = miura.miura_cantilever()
    tower = kresling.kresling_tower(2, door_module=1, twist=math.radians(20))
    pairs = [
        ("Miura-ori cantilever (Fig. 6)", {"all door": cant.with_hinge_kinds([DOOR] * len(cant.hinge_kinds)),
                                           "isostatic (paper)": cant}),
        ("Yoshimura wedge (Table 4)", {"all door": yoshimura.table4_structure("door"),
                                       "isostatic (paper)": yoshimura.table4_structure()}),
        ("Kresling tower, 2 modules (Fig. 9a)", {"all door": tower.with_hinge_kinds([DOOR] * len(tower.hinge_kinds)),
                                                 "isostatic (paper)": tower}),
    ]
    return [(family, {d: scaled(s) for d, s in group.items()}) for family, group in pairs]


def slug(text):
    return re.sub(r"[^0-9A-Za-z]+", "_", text).strip("_").lower()


def analyse(args):
    """The scene; its Monte Carlo samples run on ``--scheduler`` (``tools.cluster``: a local Dask cluster by
    default)."""
    if not args.samples:
        return _analyse(args, map)
    with cluster.executor(args.scheduler, args.workers) as ex:
        return _analyse(args, ex.map)


def _analyse(args, mc_map):
    spec = imp.ToleranceSpec(args.tol, distribution="normal", seed=args.seed)
    engine = engine_of(args) if args.samples else None    # the samples' engine, decided once
    stiffness = imp.HingeStiffness()
    named, groups, rows = {}, [], []
    for family, group in designs():
        samples = {}
        for design, st in group.items():
            label = f"{family.split(' (')[0]}, {design}"
            stats = tl.locked_in_statistics(st, spec, stiffness)
            named[label] = stats
            row = {"structure": label, "M": stats.info["M"], "S": stats.info["S"]}
            if args.samples:
                one = partial(tl.monte_carlo_sample, st, spec, stiffness=stiffness, engine=engine)
                X = np.array(mc_map(one, [args.seed + k for k in range(args.samples)]))
                samples[design] = X
                mc = tl.reduce_samples(st, spec, stiffness, X)
                row.update({k: v for k, v in tl.summary(mc).items() if k.startswith("locked_max")})
            row.update(tl.summary(stats))
            rows.append(row)
            if args.out:
                inputs.write_tables([stats.table("locked_in")], args, os.path.join(args.out, slug(label)))
        groups.append((family, samples))
    print(f"locked-in hinge actions of fabrication errors: tolerance {args.tol * 1e3:g} mm (normal, 3 sd) on 1 m "
          f"panels; hinges {stiffness.translational:g} N/m and {stiffness.rotational:g} N m/rad per metre")
    print(rep.summary_table(named, "largest over hinges of the 95th and 99th percentiles of |action| (N, N m), "
                                   "closed form"))
    if args.samples:
        print(f"\nMonte Carlo ({args.samples} samples per design, {engine.name} engine): percentiles of the largest "
              "|N| over hinges")
        width = max(len(r["structure"]) for r in rows)
        for r in rows:
            print(f"  {r['structure']:<{width}s} p95 {r['locked_max_p95_N']:.4e}  p99 {r['locked_max_p99_N']:.4e}")
    if args.out:
        keys = list(dict.fromkeys(k for r in rows for k in r))
        inputs.write_tables([Table("summary", tuple(keys), [tuple(r.get(k, float("nan")) for k in keys) for r in rows])],
                            args)
        with app.output(args.out):
            if args.samples:
                path = os.path.join(args.out, "histogram.png")
                rep.histogram(groups, path, "N", "N", f"largest locked-in |N| over hinges, tolerance "
                                                      f"{args.tol * 1e3:g} mm on 1 m panels, {args.samples} samples")
                print(f"histogram written to {path}")
    if args.plot_tolerance:
        st = designs()[0][1]["all door"]
        tols = args.tol * np.logspace(-2, 3, 11)
        engs = ("reference", "chrono") if engines.chrono_available() else ("reference",)
        curves, _ = tl.force_against_tolerance(st, spec, tols, stiffness, engs)
        with app.output(args.plot_tolerance):
            rep.force_tolerance_plot(tols, curves, args.plot_tolerance,
                                     title="Miura-ori cantilever, all door hinges, 1 m panels")
        print(f"force against tolerance written to {args.plot_tolerance}")
    return app.EXIT_OK


ap = app.parser(__doc__)
ap._negative_number_matcher = app.NEGATIVE_NUMBER   # "--tol -1e-4" is a (bad) value, not an option
ap.add_argument("--tol", type=float, default=TOLERANCE, help="tolerance in metres (default 1e-4: 0.1 mm)")
ap.add_argument("--samples", type=at_least_two, default=300, help="Monte Carlo samples per design (default 300)")
ap.add_argument("--seed", type=nonnegative_int, default=0, help="random seed, an integer >= 0 (default 0)")
add_engine_option(ap, "engine of the Monte Carlo samples (the closed form is the linear theory, no engine's)")
ap.add_argument("--scheduler", default=None, metavar="local|serial|ADDRESS",
                help="where the Monte Carlo samples run: a local Dask cluster (default, or $CHRONO_ORIGAMI_SCHEDULER), "
                     "this process, or a Dask scheduler, e.g. tcp://HOST:8786")
ap.add_argument("--workers", type=positive_int, default=None, help="local cluster: worker processes (default one per "
                                                                   "core)")
inputs.add_out(ap, "the tables summary and <design>/locked_in, and histogram.png")
ap.add_argument("--plot-tolerance", metavar="FILE.png", help="force against tolerance, both engines")

if __name__ == "__main__":
    def build(args):
        if not (math.isfinite(args.tol) and args.tol > 0):
            raise ValueError(f"--tol must be a positive number of metres, got {args.tol!r}")
        return args

    app.scene(ap, build, lambda a, _args: analyse(a))
