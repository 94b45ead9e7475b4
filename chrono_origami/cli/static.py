"""Counts and statics: the ``static`` and ``count`` commands and the common command line of the static scenes.

A scene builds a :class:`~chrono_origami.structure.structure.Structure` from its
options and calls :func:`scene` (``python -m chrono_origami static FILE.fold``
reads it from a file); :func:`run_static` prints the counts and tables and,
with ``--out DIR``, writes the output contract:

* ``DIR/counts.json``: numeric M and S beside the counting-rule values, and
  ``"status"``: "determined", "not determined" or "minimum-norm";
* ``DIR/hinges.csv`` (hinge,panel,MT,MP,MO,N,TP,TO; both sides of every hinge)
  and ``DIR/supports.csv`` (panel,vertex,Fx,Fy,Fz) when the statics is
  determined, or with ``--min-norm`` the minimum-norm answer, its first line
  a comment ``# minimum-norm answer, NOT determined ...``;
* ``DIR/self_stress.csv`` (state,hinge,panel,MT,...,TO) when S > 0: a basis
  of the states (arbitrary scale); more than ``operator.LIST_LIMIT`` states are
  in the file only, not on the screen (it lists the hinges they involve), and
  states whose tables would pass ``report.tables.SCREEN_ROWS`` rows get one
  line each on screen (its largest entry).

``--format json|parquet`` writes the same tables as ``hinges.json``, ... or
``hinges.parquet``, ... (``report.write``: the first line's label and the
status in the table's metadata); counts.json is JSON in every format.

``--html FILE`` writes the results page (``report.page``: one self-contained
interactive HTML file) of the answer hinges.csv holds.

A structure whose statics is not determined (M > 0 or S > 0) gets its counts,
mechanisms and self-stress states printed (and written) and exit code 3
(:data:`.app.EXIT_INDETERMINATE`), unless ``--min-norm`` asks for the
labelled minimum-norm answer (exit code 0) or ``--elastic`` for the forces
that elastic hinges carry (any structure; ``--hinge-stiffness``; status
"elastic" in the tables, the CSV files' first line and counts.json, with the
stiffness, its sensitivity and the largest displacement; the table
``displacements`` (panel,vertex,ux,uy,uz) of every panel vertex, and the
displaced shape, scaled, in ``--figure``;
``analysis.static.static(elastic=True)``). ``--elastic`` with ``--min-norm``
is a usage error (exit 2).
"""
import argparse
import os
import sys
from dataclasses import replace
from typing import NamedTuple

from ..analysis import static as analysis
from ..report import hinge_colors, tables
from ..report.hinge_colors import COMPONENTS
from ..results.count import counts_text
from ..results.static import ACTION_UNITS
from ..structure import hinges
from ..structure.hinges import design_kinds
from ..tools.errors import IndeterminateError, OrigamiError
from ..tools.linalg import RANK_RTOL
from . import app, inputs


def options(ap):
    """Add the options of every static scene and of the ``static`` command to ``ap``; returns ``ap``."""
    inputs.add_engine_option(ap)
    inputs.add_out(ap, "counts.json and the tables hinges, supports (and self_stress)")
    linalg_option(ap)
    ap.add_argument("--all-door", action="store_true",
                    help="make every hinge a door hinge (the structure before any hinge was made sliding)")
    ap.add_argument("--min-norm", action="store_true",
                    help="for a structure that is not isostatic, print the labelled minimum-norm solution")
    ap.add_argument("--elastic", action="store_true",
                    help="hinge forces with elastic hinges, for any structure (status elastic: the answer depends "
                         "on the stiffness, --hinge-stiffness; springs about the free directions where M > 0)")
    ap.add_argument("--nonlinear", action="store_true",
                    help="--elastic: geometrically nonlinear (large displacements; the Chrono engine)")
    inputs.add_stiffness_option(ap)
    ap.add_argument("--figure", metavar="FILE", type=inputs.figure_file, help="draw the structure with matplotlib (png or pdf)")
    ap.add_argument("--labels", action="store_true", help="number panels and hinges in --figure")
    ap.add_argument("--color-by", type=_color_by, default=None,
                    metavar="|".join(("F", "M") + COMPONENTS[2:]) + "|kind",
                    help="colour each hinge in --figure, --viz and --screenshot by this internal action of the "
                         "result (one colour map and scale in all three): F (force resultant |F|), M (moment "
                         "resultant |M|), or a signed component N, TP, TO, MT, MP, MO; 'kind': door and sliding "
                         "colours. Default: F when the statics is determined (or --min-norm), else kind")
    ap.add_argument("--viz", action="store_true", help="open the structure in Chrono's Irrlicht viewer")
    ap.add_argument("--screenshot", metavar="FILE", type=inputs.png_file, help="render one frame of the Irrlicht view to a PNG")
    inputs.add_html(ap, "the structure, its hinge actions (coloured by --color-by) and reactions")
    inputs.add_vtk(ap, "the panels, the hinges with their actions and the supports with their reactions")
    inputs.add_structure_options(ap)
    return ap


def linalg_option(ap, rank=True):
    """``--linalg auto|dense|sparse``: the rank and solve path (``chrono_origami.tools.linalg.choose_method``);
    with ``rank``, ``--rank-rtol R``: the rank rule (singular values at most R sigma_max are zero;
    ``tools.linalg.RANK_RTOL``) of the counts (:func:`rank_options`)."""
    ap.add_argument("--linalg", choices=("auto", "dense", "sparse"), default="auto",
                    help="rank, null spaces and solves: dense SVD, sparse QR, or chosen by size (default)")
    if not rank:
        return
    ap.add_argument("--rank-rtol", type=rank_rtol, default=RANK_RTOL, metavar="R",
                    help=f"the rank rule: singular values at most R x the largest count as zero (default {RANK_RTOL:g}; "
                         f"a very slender structure, nearly singular, may need a smaller R)")


def rank_rtol(text):
    """argparse type of ``--rank-rtol``: a number in (0, 1)."""
    r = inputs.positive_float(text)
    if not r < 1:
        raise argparse.ArgumentTypeError(f"must be a number between 0 and 1, got {text!r}")
    return r


def rank_options(args):
    """The count's and solve's keyword options from ``--linalg`` and ``--rank-rtol``."""
    return {"linalg": args.linalg, "rtol": args.rank_rtol}


def parser(description):
    """A static scene's parser (``description``: its docstring, of which the first line is shown)."""
    return options(app.parser(description))


def scene(ap, build, argv=None):
    """Parse, ``build(args)`` the structure, :func:`run_static` it and exit with its code (see :func:`.app.scene`)."""
    app.scene(ap, build, run_static, argv)


class Statics(NamedTuple):
    """What :func:`report` analysed (``--all-door`` applied), its counts and its result (None: not determined)."""

    structure: object
    counts: object
    result: object


def run_static(structure, args, out=None):
    """:func:`report` and :func:`check_determined`: the exit code (0), or IndeterminateError (exit code 3)."""
    check_determined(report(structure, args, out), args)
    return app.EXIT_OK


def report(structure, args, out=None):
    """Count, solve, print and write what ``args`` asks for; returns the :class:`Statics`.

    The result is None when the statics is not determined and ``--min-norm``
    was not given: the counts, the mechanisms and self-stress states are
    printed (and written), no hinges.csv or supports.csv.
    """
    out = out or sys.stdout   # resolved at call time: sys.stdout may have been replaced
    if args.all_door and structure.n_sliding:
        structure = replace(structure, hinge_kinds=design_kinds(structure.hinge_kinds),
                            name=f"{structure.name}, all door hinges")
    elastic = getattr(args, "elastic", False)
    if elastic and args.min_norm:
        raise app.UsageError("--elastic and --min-norm exclude each other: elastic hinges give the one answer the "
                             "structure carries, the minimum-norm answer is one of many")
    if getattr(args, "nonlinear", False) and not elastic:
        raise app.UsageError("--nonlinear is a setting of --elastic")
    if getattr(args, "hinge_stiffness", None) and not elastic:
        raise app.UsageError("--hinge-stiffness is a setting of --elastic")
    structure = inputs.prepare(structure, args, out)
    stiffness = inputs.stiffness_of(args, structure) if elastic else None
    engine = inputs.engine_of(args)     # the engine that counts solves too: one operator
    counts = analysis.count(structure, engine, **rank_options(args))
    summary = analysis.counts_summary(structure, counts)
    print(f"engine: {engine.name}; {counts_text(counts.M, counts.S)} "
          f"(counting rules: P={summary['P']}, H={summary['H']}, E_b={summary['E_b']}, V_i={summary['V_i']}, "
          + (f"S_BF={summary['S_BF']}, S_PH={summary['S_PH']}, M_BF={summary['M_BF']}, " if summary["M_BF"] is not None
             else "S_BF, S_PH, M_BF not computed, ") +
          f"Maxwell M-S={summary['maxwell_M_minus_S']})", file=out)
    if summary.get("singular"):
        print("this configuration is singular: more mechanisms and self-stress states than the generic counts",
              file=out)
    summary["status"] = "determined" if counts.isostatic else "not determined"
    if args.out:
        with app.output(args.out):
            tables.write_counts(summary, args.out)
    result = None
    if elastic:
        result = analysis.static(structure, engine, elastic=True, stiffness=stiffness, nonlinear=args.nonlinear,
                                 counts=counts, **rank_options(args))
        where = f"all in {os.path.join(args.out, _file(args, 'hinges'))}" if args.out else "--out DIR writes them all"
        print(tables.format_result(result, max_rows=tables.SCREEN_ROWS, where=where), file=out)
        summary.update(tables.elastic_summary(result))
        if args.out:
            with app.output(args.out):
                tables.write_results(result, args.out, summary, args.format)
            print(f"{_file(args, 'hinges')}, {_file(args, 'supports')} and {_file(args, 'displacements')} (every panel "
                  f"vertex's) in {args.out} hold the elastic answer ({_says(args)}; counts.json: \"status\": "
                  f"\"elastic\", with the stiffness)", file=out)
    elif counts.isostatic or args.min_norm:
        result = analysis.static(structure, engine, allow_indeterminate=args.min_norm, counts=counts,
                                 **rank_options(args))
        where = f"all in {os.path.join(args.out, _file(args, 'hinges'))}" if args.out else "--out DIR writes them all"
        print(tables.format_result(result, max_rows=tables.SCREEN_ROWS, where=where), file=out)
        if args.out:
            summary["status"] = result.status
            with app.output(args.out):
                tables.write_results(result, args.out, summary, args.format)
            if result.status != "determined":
                print(f"{_file(args, 'hinges')} and {_file(args, 'supports')} in {args.out} hold the minimum-norm "
                      f"answer ({_says(args)}; counts.json: \"status\": \"minimum-norm\")", file=out)
    else:
        from ..engines.compatibility import describe_indeterminacy

        print(f"the static problem is not determined (M = {counts.M}, S = {counts.S}):", file=out)
        print(app.flags(describe_indeterminacy(structure, counts)), file=out)
    from ..engines.compatibility import LIST_LIMIT

    if counts.S and elastic and counts.S > LIST_LIMIT:     # the elastic hinges resolve them: no basis to write
        print(f"the {counts.S} self-stress states are resolved by the elastic hinges and not listed (more than "
              f"{LIST_LIMIT}; static without --elastic writes a basis of them to self_stress.csv)", file=out)
    elif counts.S:
        write_self_stress(structure, counts, args.out, out, getattr(args, "format", "csv"))
    _views(structure, args, result, out)
    if result is not None:
        inputs.write_html(result, args, out)
        inputs.write_vtk(result, args, out)
    elif getattr(args, "html", None):
        print("note: no results page: the static problem is not determined (--min-norm writes the page of the "
              "minimum-norm answer)", file=sys.stderr)
    return Statics(structure, counts, result)


def _file(args, stem):
    """The file name of the table ``stem`` in ``--format`` (``args``: the parsed options, or the format's name)."""
    from ..report import write

    fmt = args if isinstance(args, str) else getattr(args, "format", write.DEFAULT_FORMAT)
    return f"{stem}.{write.FORMATS[fmt].suffix}"


def _says(args):
    """Where a table's file says what its answer is: a CSV's first line, else its metadata."""
    return "their first line says so" if getattr(args, "format", "csv") == "csv" else 'their meta: "status", "comment"'


def check_determined(statics, args):
    """Raise :class:`~chrono_origami.tools.errors.IndeterminateError` (exit code 3) when :func:`report` gave no result."""
    if statics.result is None:
        c = statics.counts
        wrote = f"; no {_file(args, 'hinges')} or {_file(args, 'supports')} in {args.out}" if args.out else ""
        raise IndeterminateError(f"{statics.structure.name}: the static problem is not determined (M = {c.M}, "
                                 f"S = {c.S}){wrote}; --elastic gives the hinge forces of elastic hinges, --min-norm the "
                                 f"labelled minimum-norm answer", c.M, c.S)


def write_self_stress(structure, counts, out_dir, out=None, fmt="csv"):
    """Print the self-stress states and write the table self_stress (state, hinge, panel, MT..TO; ``fmt``: its
    format, ``report.write``)."""
    out = out or sys.stdout   # resolved at call time: sys.stdout may have been replaced
    from ..engines import compatibility as operator

    long = counts.S > operator.LIST_LIMIT   # a long basis goes to the file only; the hinges involved are listed
    if long:
        if not out_dir:
            print(f"the {counts.S} self-stress states are not listed one by one (more than {operator.LIST_LIMIT}): "
                  f"--out DIR writes a basis of them to self_stress.csv", file=out)
            return
        try:
            states = operator.self_stress_actions(structure, counts)
        except OrigamiError as e:           # a basis too large to form (its size, or the memory)
            print(f"the {counts.S} self-stress states are not written to self_stress.csv: {app.message(e)}",
                  file=out)
            return
    else:
        states = operator.self_stress_actions(structure, counts)
    rows = []
    where = f"all in {os.path.join(out_dir, _file(fmt, 'self_stress'))}" if out_dir else "--out DIR writes them all"
    largest = lambda r: max(abs(v) for v in r[2:])         # noqa: E731  (the largest |entry| of a hinge row)
    shown = sum(min(len(a), tables.SCREEN_TOP) if len(a) > tables.SCREEN_ROWS else len(a) for a in states)
    brief = not long and shown > tables.SCREEN_ROWS     # the states' tables would not fit a screen: a line each
    if brief:
        print(f"the {counts.S} self-stress states (a basis, arbitrary scale), a line each ({where}):", file=out)
    for k, acts in enumerate(states):
        state = [(a.hinge + 1, a.panel + 1, *a.values) for a in acts]
        rows += [(k + 1, *r) for r in state]
        if long:
            continue
        if brief:
            top = max(state, key=largest)           # brief: the states have rows (more than a screen of them)
            j = max(range(len(top) - 2), key=lambda i: abs(top[2 + i]))
            print(f"  state {k + 1}: largest |entry| {tables.HINGE_HEADER[2 + j]} = {top[2 + j]:.4g} at hinge "
                  f"{top[0]} (panel {top[1]})", file=out)
            continue
        title = f"self-stress state {k + 1} (arbitrary scale)"
        if len(state) > tables.SCREEN_ROWS:      # a long state: its largest rows on screen, all of them in the file
            state = tables.largest_rows(state, tables.SCREEN_TOP, key=largest)
            title += f": the {tables.SCREEN_TOP} largest |entries| of {len(acts):,} rows ({where})"
        print(tables.text_table(tables.HINGE_HEADER, state, title), file=out)
    if out_dir:
        from ..report import write
        from ..results.table import Table

        table = Table("self_stress", ("state",) + tables.HINGE_HEADER, rows,
                      {"units": ACTION_UNITS, "scale": "arbitrary: a basis of the self-stress states"})
        with app.output(os.path.join(out_dir, write.filename(table, fmt))) as path:
            write.write_table(table, path, fmt)
        if long:
            print(f"the {counts.S} self-stress states (a basis, arbitrary scale; more than {operator.LIST_LIMIT}, not "
                  f"listed one by one): all {len(rows):,} rows in {path}", file=out)


def _color_by(text):
    if text.strip().lower() == "kind":
        return "kind"
    try:
        return hinge_colors.component(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _views(structure, args, result=None, out=None):
    """--figure, --viz, --screenshot; hinges coloured by ``--color-by`` when there is a ``result``."""
    out = out or sys.stdout
    wanted = getattr(args, "figure", None) or getattr(args, "viz", False) or getattr(args, "screenshot", None)
    if not wanted:
        return
    by = getattr(args, "color_by", None)
    fig_by = view_by = "|F|" if by is None else by         # the default: |F| (by kind when not determined)
    view = getattr(args, "viz", False) or getattr(args, "screenshot", None)
    needed = ({fig_by} if getattr(args, "figure", None) else set()) | ({view_by} if view else set())
    colorings = {}
    for which in sorted(needed - {"kind"}):
        if result is None:
            print(f"hinges drawn by kind, not coloured by {which}: the statics is not determined (--min-norm "
                  f"colours the minimum-norm answer)", file=out)
            continue
        colorings[which] = hinge_colors.coloring(result, which)
        print(colorings[which].caption() + {"minimum-norm": " (the minimum-norm answer)",
                                             "elastic": " (elastic hinges)"}.get(result.status, ""), file=out)
    if getattr(args, "figure", None):
        from ..report import figures

        disp = getattr(result, "displacements", None)
        scale = None if disp is None else figures.displacement_scale(disp, structure.pattern.size)
        figures.draw_structure(structure, args.figure, labels=args.labels, coloring=colorings.get(fig_by),
                               displacements=disp, displacement_scale=scale)
        if disp is not None:
            print(figures.displacement_caption(scale, disp), file=out)
        print(f"figure written to {args.figure}", file=out)
    if view:
        from ..report import viewer

        viewer.show(structure, screenshot=args.screenshot, interactive=args.viz, coloring=colorings.get(view_by))


# ---------------------------------------------------------------------- commands
@app.command("static", "hinge internal actions and support reactions of a FOLD structure",
             lambda d: options(inputs.add_input(app.parser(d))))
def static_command(args):
    return run_static(inputs.read_input(args), args)


def _count_options(description):
    ap = inputs.add_input(app.parser(description))
    inputs.add_engine_option(ap, "engine whose constraint Jacobian is counted")
    inputs.add_out(ap, "counts.json")
    linalg_option(ap)
    inputs.add_structure_options(ap)
    return ap


def maxwell_line(structure, counts, summary):
    """Maxwell's rule with the numbers: 6P [- 6 without supports] - sum(rows) = M - S.

    The rows are those of each registered hinge kind present (``hinges.census``)
    and one per held direction of a support; the value is the counting rules'
    (``summary["maxwell_M_minus_S"]``), M and S the numeric counts.
    """
    terms = [f"{kind.n_rows} x {k} {kind.name}" for kind, k in hinges.census(structure.hinge_kinds)]
    n_sup = sum(len(x.dofs) for x in structure.supports)
    if n_sup:
        terms.append(f"{n_sup} support")
    free = "" if structure.supports else " - 6"
    return (f"Maxwell: 6P{free} - sum(rows) = M - S: 6 x {structure.pattern.n_panels}{free} - "
            f"({' + '.join(terms) or '0'}) = {summary['maxwell_M_minus_S']} = {counts.M} - {counts.S}")


@app.command("count", "mechanisms M and self-stress states S beside the counting rules", _count_options)
def count_command(args):
    structure = inputs.prepare(inputs.read_input(args), args)
    engine = inputs.engine_of(args)
    counts = analysis.count(structure, engine, **rank_options(args))
    s = analysis.counts_summary(structure, counts)
    print(f"{counts_text(s['M'], s['S'])} ({engine.name} engine: rank {s['rank']} of "
          f"{s['n_constraints']} constraints on {s['n_dof']} velocities)"
          + (": isostatic" if counts.isostatic else ""))
    if s.get("singular"):
        print("this configuration is singular: more mechanisms than the generic bar-framework count")
    print("counting rules (paper sec. 2):")
    print(f"  P = {s['P']} panels, H = {s['H']} hinges ({structure.n_sliding} sliding), "
          f"E_b = {s['E_b']} boundary edges, V_i = {s['V_i']} interior vertices")
    known = s["M_BF"] is not None
    print(f"  bar framework: M_BF - S_BF = (E_b - 3) - sum_p (V_p - 3) = {s['E_b'] - 3} - {s['sum_V_minus_3']}"
          f" = {s['E_b'] - 3 - s['sum_V_minus_3']}; "
          + (f"M_BF = {s['M_BF']}, S_BF = {s['S_BF']}" if known else f"M_BF and S_BF {s['M_source']}"))
    print("  panel-hinge, all door hinges, no supports: S_PH = S_BF + 3 V_i = "
          + (f"{s['S_PH']}" if known else "not computed"))
    print("  " + maxwell_line(structure, counts, s))
    if args.out:
        with app.output(args.out):
            tables.write_counts(s, args.out)
    return app.EXIT_OK
