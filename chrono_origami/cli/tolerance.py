"""The ``tolerance`` command: locked-in hinge actions of fabrication tolerances (``chrono_origami.analysis.tolerance``).

    python -m chrono_origami tolerance FILE.fold --tol 1e-4 --out DIR [--samples N] [--engine chrono|reference]
    python -m chrono_origami tolerance FILE.fold --measured errors.csv --out DIR

With ``--tol`` (and the per-component ``--offset``, ``--tilt``,
``--position``, ``--vertex``; ``--distribution normal|uniform``; ``--seed``):
the closed-form statistics (the linear theory, sparse: no engine), printed
as the largest p95 / p99 per component and, per hinge side, the p95 table;
with ``--samples N`` also a Monte Carlo run of N samples (``--engine``:
chrono or reference, by default chrono where PyChrono imports) and, with ``--histogram F.png``, the distribution of the largest
locked-in |N| over hinges. The samples run on Dask (``chrono_origami.tools.cluster``):
``--scheduler local`` (default: a local cluster of ``--workers`` processes,
one BLAS thread each), ``serial`` (this process) or a scheduler's address
``tcp://HOST:PORT``. ``--plot-tolerance F.png`` draws the largest
locked-in action against the tolerance (1e-3 to 1e2 times ``--tol``) for
the reference engine and, where PyChrono imports, Chrono's assembly.

With ``--measured FILE.csv`` (``hinge,panel,offset_m,offset_n,tilt_m,tilt_n,position``;
``--measured-vertices FILE.csv``: ``panel,vertex,dx,dy,dz``; see
``chrono_origami.imperfections``): the hinge actions of those errors
(``--engine``, as above), ``--loads`` with the structure's loads too.

Supports and loads: the options of ``static`` (``--support SEL:DOFS``, ``--support auto``, ``--load``,
``--replace-supports``, ...; ``cli.inputs``), applied to the file's structure.

Stiffness: ``--stiffness KT,KR`` per unit hinge length (N/m per m, N m/rad
per m; default 1e8, 1e7), and per kind or per hinge ``--hinge-stiffness``
(``static --elastic``'s option, ``structure.tolerance.parse_stiffness``). Outputs (``--out DIR``, in ``--format``: csv, json, parquet): ``locked_in.csv``
(hinge, panel, sd/p95/p99 of each component), ``summary.csv`` (the flat
summary of ``analysis.tolerance.summary``: a row for the closed form and,
with ``--samples``, one for the Monte Carlo run with the percentiles of the
largest over hinges, ``locked_max_*``, printed beside the closed form too),
``monte_carlo.csv`` (the same from the
samples), ``hinges.csv`` (measured errors: the hinge actions). A tolerance
that is negative or NaN, a bad stiffness, an unknown key or a non-number in
a measured-errors file, a row naming a hinge, panel or vertex the structure
does not have (or a panel not of its hinge, a vertex not on its panel), a
tolerance or errors whose locked-in actions overflow, ``--samples`` or
``--probes`` below 2, a negative ``--seed``: one line, exit code 2. With ``--loads``, loads that work on a mechanism: exit
code 3; on the rigid motions of a structure without supports: exit code 2.
"""
import os

import numpy as np

from .. import engines
from ..analysis import tolerance as tl
from ..structure import tolerance as imp
from ..report import tables
from ..report import tolerance as rep
from ..results.table import Table
from ..tools import cluster
from . import app, inputs


def _tolerance_options(description):
    ap = inputs.add_input(app.parser(description))
    ap.add_argument("--tol", default=None, metavar="T",
                    help="tolerance of every error component (length; normal: 3 standard deviations, uniform: the "
                         "half-width)")
    for name, what in (("offset", "hinge axis offset across itself"), ("tilt", "axis end displacement (tilt)"),
                       ("position", "hinge point along the axis"), ("vertex", "vertex position per coordinate")):
        ap.add_argument(f"--{name}", default=None, metavar="T", help=f"tolerance of the {what} (default --tol)")
    ap.add_argument("--distribution", choices=imp.DISTRIBUTIONS, default="normal", help="error distribution")
    ap.add_argument("--seed", type=inputs.nonnegative_int, default=0,
                    help="random seed, an integer >= 0 (Monte Carlo sample k uses seed + k)")
    ap.add_argument("--stiffness", default=None, metavar="KT,KR",
                    help="hinge stiffness per unit length: translational (N/m per m), rotational (N m/rad per m); "
                         f"default {imp.DEFAULT_TRANSLATIONAL:g},{imp.DEFAULT_ROTATIONAL:g}")
    inputs.add_stiffness_option(ap)
    ap.add_argument("--measured", metavar="FILE.csv", help="measured errors per hinge side (instead of --tol)")
    ap.add_argument("--measured-vertices", metavar="FILE.csv", help="measured vertex errors per panel")
    ap.add_argument("--loads", action="store_true", help="--measured: with the structure's loads (total actions)")
    ap.add_argument("--samples", type=inputs.at_least_two, default=None, help="Monte Carlo samples (at least 2)")
    inputs.add_engine_option(ap, "engine of --measured and of the Monte Carlo samples (the closed form is the "
                                 "linear theory, no engine's)")
    ap.add_argument("--method", choices=tl.METHODS, default="auto", help="closed-form statistics method")
    ap.add_argument("--probes", type=inputs.at_least_two, default=tl.PROBES,
                    help="probes of --method randomized (at least 2)")
    ap.add_argument("--scheduler", default=None, metavar="local|serial|ADDRESS",
                    help="where the Monte Carlo samples run: a local Dask cluster (default, or "
                         "$CHRONO_ORIGAMI_SCHEDULER), this process, or a Dask scheduler, e.g. tcp://HOST:8786")
    ap.add_argument("--workers", type=inputs.positive_int, default=None,
                    help="local cluster: worker processes (default one per core)")
    ap.add_argument("--connect-timeout", type=inputs.positive_float, default=cluster.CONNECT_TIMEOUT, metavar="S",
                    help=f"seconds to wait for the scheduler (default {cluster.CONNECT_TIMEOUT:g})")
    inputs.add_out(ap, "the tables locked_in, summary (and monte_carlo; --measured: hinges)")
    ap.add_argument("--histogram", metavar="FILE.png", type=inputs.figure_file, help="--samples: histogram of the largest locked-in |N|")
    ap.add_argument("--plot-tolerance", metavar="FILE.png", type=inputs.figure_file,
                    help="largest locked-in action against the tolerance")
    inputs.add_html(ap, "the locked-in force distribution (or the measured errors' hinge actions)")
    inputs.add_vtk(ap, "the locked-in statistics per hinge side (or the measured errors' hinge actions)")
    ap.add_argument("--top", type=inputs.positive_int, default=40,
                    help="print the p95 table of this many hinge sides with the largest |N| (default 40)")
    inputs.add_structure_options(ap)
    return ap


def spec_of(args):
    """The ``ToleranceSpec`` of the options; a bad value is a usage error (one line, exit code 2)."""
    return imp.ToleranceSpec(args.tol if args.tol is not None else 0.0, args.offset, args.tilt, args.position,
                             args.vertex, args.distribution, args.seed)


def stiffness_of(args, structure):
    """The hinge stiffness: the file's, ``--stiffness KT,KR`` (every hinge), then ``--hinge-stiffness``
    (``inputs.stiffness_of``: the one parser of ``static --elastic`` too)."""
    if args.stiffness is not None and len(args.stiffness.split(",")) != 2:
        raise app.UsageError(f"--stiffness must be KT,KR (two numbers), got {args.stiffness!r}")
    return inputs.stiffness_of(args, structure, [("--stiffness", args.stiffness)] if args.stiffness is not None else [])


def summary_table(named, extra):
    """The table summary: one row per statistics (the closed form first, then the Monte Carlo run), the columns
    of ``analysis.tolerance.summary`` (``locked_max_*``: Monte Carlo only, missing on the closed form's row)."""
    rows = [dict(extra, **how, **tl.summary(stats)) for stats, how in named]
    keys = list(rows[-1])
    return Table("summary", tuple(keys), [tuple(r.get(k) for k in keys) for r in rows])


@app.command("tolerance", "locked-in hinge actions of fabrication tolerances: closed form, Monte Carlo, measured",
             _tolerance_options)
def tolerance_command(args):
    """A tolerance or errors refused (``imp.ToleranceError``, non-finite actions too) is a usage error: exit 2
    (``app.exit_code``)."""
    if args.measured is None and args.measured_vertices is None and args.tol is None:
        raise app.UsageError("give --tol T (statistics of random errors) or --measured FILE.csv (measured errors)")
    if args.measured is not None and args.tol is not None:
        raise app.UsageError("--tol and --measured exclude each other")
    for path in (args.measured, args.measured_vertices):
        if path is not None and not os.path.isfile(path):
            raise app.UsageError(f"{path}: no such measured-errors file")
    spec = spec_of(args) if args.tol is not None else None
    structure = inputs.with_structure_options(inputs.read_input(args), args)
    stiffness = stiffness_of(args, structure)
    if spec is None:        # a bad measured-errors file is refused before the engine is chosen (and its note)
        errors = imp.read_measured(structure, args.measured, args.measured_vertices)
    engine = inputs.engine_of(args) if spec is None or args.samples else None   # only what samples or measures
    if spec is None:
        result = tl.locked_in(structure, errors=errors, stiffness=stiffness, engine=engine, loads=args.loads)
        what = "total hinge actions (loads and measured errors)" if args.loads else "locked-in hinge actions"
        print(f"{structure.name}: {what} of the measured errors, {engine.name} engine, elastic hinges")
        print(tables.text_table(tables.HINGE_HEADER, result.hinge_rows()))
        if args.out:
            inputs.write_tables(result.tables(labelled=False)[:1], args)
        inputs.write_html(result, args)
        inputs.write_vtk(result, args)
        return app.EXIT_OK
    stats = tl.locked_in_statistics(structure, spec, stiffness, method=args.method, probes=args.probes,
                                    seed=args.seed)
    how = {"exact": "closed form", "randomized": f"closed form, randomized ({args.probes} probes, sd to "
                                                 f"{100 * stats.info['sd_relative_se']:.1f} %)"}[stats.method]
    print(f"{structure.name}: M = {stats.info['M']}, S = {stats.info['S']}; errors {spec.distribution}, "
          f"tol {spec.tol:g} (offset {spec.offset:g}, tilt {spec.tilt:g}, position {spec.position:g}, "
          f"vertex {spec.vertex:g}); {how}")
    named = {"closed form": stats}
    if stats.info["S"] == 0:
        print("isostatic (S = 0): fabrication errors lock in no force")
    samples = None
    if args.samples:
        with cluster.executor(args.scheduler, args.workers, args.connect_timeout) as ex:
            mc = tl.monte_carlo(structure, spec, args.samples, stiffness, engine, seed=args.seed, map=ex.map,
                                keep=bool(args.histogram))
        samples = mc.info.pop("X", None)
        named[f"Monte Carlo ({args.samples}, {engine.name})"] = mc
    print(rep.summary_table(named, "largest locked-in |action| over hinges: 95th and 99th percentiles "
                                   "(each component's marginal)"))
    if args.samples:
        print(rep.MAXIMUM_BIAS_NOTE)
        print(rep.largest_table(stats, mc))
    if spec.distribution == "normal":
        print(rep.side_table(stats, "p95", top=args.top))
    else:
        print(rep.side_table(stats, "sd", top=args.top))
    if args.out:
        rows = [(stats, {"method": stats.method, "samples": None})]
        if args.samples:
            rows.append((mc, {"method": f"monte carlo ({engine.name})", "samples": args.samples}))
        out = [stats.table("locked_in"),
               summary_table(rows, {"structure": structure.name, "M": stats.info["M"], "S": stats.info["S"]})]
        if args.samples:
            out.append(mc.table("monte_carlo", engine=engine.name))
        inputs.write_tables(out, args)
    inputs.write_html(stats, args)
    inputs.write_vtk(stats, args)
    if args.histogram:
        if not args.samples:
            raise app.UsageError("--histogram needs --samples N")
        with app.output(args.histogram):
            rep.histogram([(structure.name, {structure.name: samples})], args.histogram)
        print(f"histogram written to {args.histogram}")
    if args.plot_tolerance:
        tols = spec.tol * np.logspace(-3, 2, 11)
        engs = ("reference", "chrono") if engines.chrono_available() else ("reference",)
        curves, _ = tl.force_against_tolerance(structure, spec, tols, stiffness, engs)
        with app.output(args.plot_tolerance):
            rep.force_tolerance_plot(tols, curves, args.plot_tolerance, title=structure.name)
        print(f"force against tolerance written to {args.plot_tolerance}")
    return app.EXIT_OK
