"""The common command line of every scene and of ``python -m chrono_origami static``.

A scene builds a :class:`~chrono_origami.structure.Structure` and calls
:func:`run_static`, which prints the counts and tables and, with ``--out DIR``,
writes the output contract:

* ``DIR/counts.json``: numeric M and S beside the counting-rule values;
* ``DIR/hinges.csv`` (hinge,panel,MT,MP,MO,N,TP,TO; both sides of every hinge)
  and ``DIR/supports.csv`` (panel,vertex,Fx,Fy,Fz) when the statics is
  determined;
* ``DIR/self_stress.csv`` (state,hinge,panel,MT,...,TO) when S > 0.
"""
import argparse
import os
import sys

from . import analysis, engines
from .errors import ChronoUnavailable, OrigamiError
from .report import tables


def parser(description):
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--engine", choices=["chrono", "reference"], default=None,
                    help="analysis engine (default: chrono where PyChrono imports, else reference)")
    ap.add_argument("--out", metavar="DIR", help="write counts.json, hinges.csv, supports.csv here")
    ap.add_argument("--min-norm", action="store_true",
                    help="for a structure that is not isostatic, print the labelled minimum-norm solution")
    ap.add_argument("--figure", metavar="FILE", help="draw the structure with matplotlib (png or pdf)")
    ap.add_argument("--labels", action="store_true", help="number panels and hinges in --figure")
    ap.add_argument("--viz", action="store_true", help="open the structure in Chrono's Irrlicht viewer")
    ap.add_argument("--screenshot", metavar="FILE", help="render one frame of the Irrlicht view to a PNG")
    return ap


def run_static(structure, args, out=None):
    """Count, solve, print and write what ``args`` asks for; returns the process exit code."""
    out = out or sys.stdout   # resolved at call time: sys.stdout may have been replaced
    try:
        engine = engines.resolve(args.engine)
    except ChronoUnavailable as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    try:
        counts = analysis.count(structure, engine)
        summary = analysis.counts_summary(structure, counts)
        print(f"{structure.name}: {structure.pattern!r}", file=out)
        print(f"engine: {engine}; M = {counts.M} mechanisms, S = {counts.S} self-stress states "
              f"(counting rules: P={summary['P']}, H={summary['H']}, E_b={summary['E_b']}, V_i={summary['V_i']}, "
              f"S_BF={summary['S_BF']}, S_PH={summary['S_PH']}, M_BF={summary['M_BF']}, "
              f"Maxwell M-S={summary['maxwell_M_minus_S']})", file=out)
        if summary.get("singular"):
            print("this configuration is singular: more mechanisms and self-stress states than the generic counts",
                  file=out)
        if args.out:
            tables.write_counts(summary, args.out)
        result = None
        if counts.isostatic or args.min_norm:
            result = analysis.static(structure, engine, allow_indeterminate=args.min_norm)
            print(tables.format_result(result), file=out)
            if args.out and result.status == "determined":
                tables.write_results(result, args.out)
        else:
            from .reference.statics import describe_indeterminacy

            print(f"the static problem is not determined (M = {counts.M}, S = {counts.S}):", file=out)
            print(describe_indeterminacy(structure, counts), file=out)
        if counts.S:
            write_self_stress(structure, counts, args.out, out)
    except OrigamiError as e:
        print(f"error: {e}", file=sys.stderr)
        return e.exit_code
    except OSError as e:
        print(f"error: cannot write {e.filename or ''}: {e.strerror or e}", file=sys.stderr)
        return 2
    _views(structure, args, result)
    return 0


def write_self_stress(structure, counts, out_dir, out=None):
    """Print the self-stress states and write self_stress.csv (state, hinge, panel, MT..TO)."""
    out = out or sys.stdout   # resolved at call time: sys.stdout may have been replaced
    from .reference import statics

    rows = []
    for k, acts in enumerate(statics.self_stress_actions(structure, counts)):
        for a in acts:
            rows.append((k + 1, a.hinge + 1, a.panel + 1, *a.values))
        print(tables.text_table(tables.HINGE_HEADER, [r[1:] for r in rows if r[0] == k + 1],
                                f"self-stress state {k + 1} (arbitrary scale)"), file=out)
    if out_dir:
        import csv

        os.makedirs(out_dir, exist_ok=True)
        with open(os.path.join(out_dir, "self_stress.csv"), "w") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(("state",) + tables.HINGE_HEADER)
            for r in rows:
                w.writerow([r[0], r[1], r[2]] + [f"{x:.6e}" for x in r[3:]])


def _views(structure, args, result):
    if getattr(args, "figure", None):
        from .report import figures

        figures.draw_structure(structure, args.figure, labels=args.labels)
        print(f"figure written to {args.figure}")
    if getattr(args, "viz", False) or getattr(args, "screenshot", None):
        try:
            from .chrono import viewer
        except ChronoUnavailable as e:
            print(f"error: {e}", file=sys.stderr)
            return
        viewer.show(structure, screenshot=args.screenshot, interactive=args.viz)
