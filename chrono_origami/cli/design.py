"""``python -m chrono_origami design FILE.fold -o DESIGNED.fold``: the sliding hinges that make a structure isostatic.

Every hinge starts as a door hinge; the search (:func:`chrono_origami.analysis.design.design`)
ranks the designs by distance from singularity. Hinges are 1-based lists
``H,H,...``; ``--rotation N`` and ``--mirror x|y|z`` restrict the search to
symmetric designs (symmetry about the vertices' centroid).

The screen shows a summary (the first designs and states, hinge lists as
runs such as ``1-24``); when it is shortened the full report goes to a file
(``--report``, else beside ``-o``). When the best design leaves M > 0 or
S > 0 the command says why, derived from the counts (which hinges and
components carry the remaining self-stress, which panels the mechanisms move,
a flat or singular configuration) and what could help, writes ``-o`` all the
same and exits with code 3, as ``static`` does, so ``design && static``
stops there.
"""
import os
import sys
from dataclasses import replace

import numpy as np

from ..analysis.design import MAX_SUBSETS, SAMPLES, design, hinge_permutation
from ..tools.errors import DesignError, IndeterminateError, UsageError
from . import app, inputs
from .static import linalg_option, rank_options

#: designs and self-stress states shown on screen (the full report lists them all)
SCREEN_ROWS = 10
#: runs of hinge numbers shown per list on screen (e.g. "1-24, 30")
SCREEN_ITEMS = 12


def options(description):
    """The ``design`` command's parser."""
    parser = inputs.add_input(app.parser(description))
    parser.add_argument("-o", "--output", metavar="DESIGNED.fold",
                        help="write the chosen design here (edges_origami:hinge)")
    parser.add_argument("--door", metavar="H,H,...", default="", help="hinges (1-based) that must stay door hinges")
    parser.add_argument("--slide", metavar="H,H,...", default="", help="hinges (1-based) that must slide")
    parser.add_argument("--prefer", metavar="H,H,...", default="",
                        help="hinges (1-based) in decreasing preference for sliding; the design written is then "
                             "the greedy one in this order, not the best-ranked")
    parser.add_argument("--rotation", metavar="N", type=_rotation, default=None,
                        help="respect N-fold rotational symmetry about the z axis through the vertices' centroid")
    parser.add_argument("--mirror", choices=("x", "y", "z"), action="append", default=[],
                        help="respect mirror symmetry in the plane normal to this axis through the centroid "
                             "(repeatable)")
    parser.add_argument("--max-subsets", type=inputs.nonnegative_int, default=MAX_SUBSETS,
                        help=f"enumerate every minimal assignment up to this many candidates (default {MAX_SUBSETS})")
    parser.add_argument("--improve", type=inputs.nonnegative_int, default=0, metavar="PASSES",
                        help="exchange-search passes on the condition number when enumeration is too large")
    parser.add_argument("--samples", type=inputs.nonnegative_int, default=SAMPLES,
                        help=f"random greedy orders when enumeration is too large (default {SAMPLES})")
    inputs.add_html(parser, "the structure before and after design")
    inputs.add_vtk(parser, "the designed structure (hinge kinds; with supports and loads its hinge actions)")
    parser.add_argument("--report", metavar="FILE.txt",
                        help="write the full report here (default when the screen shows a summary: beside -o, "
                             "or <input name>-design.txt)")
    linalg_option(parser)
    inputs.add_structure_options(parser)
    return parser


def _rotation(text):
    """argparse type of ``--rotation``: an integer N >= 2 (N-fold symmetry)."""
    return inputs.integer(text, 2, "an integer N >= 2 (N-fold symmetry)")


def hinge_list(option, text, H):
    """0-based hinges of a 1-based list ``H,H,...`` (order kept: ``--prefer`` is an order); a hinge the structure
    does not have, or one listed twice, is a usage error naming ``option`` and the 1-based hinge (exit 2)."""
    if not text.strip():
        return []
    out = []
    for item in text.split(","):
        try:
            h = int(item)
        except ValueError:
            raise UsageError(f"{option} {text}: {item.strip()!r} is not a hinge number (1..{H})") from None
        if not 1 <= h <= H:
            raise UsageError(f"{option} {text}: hinge {h} does not exist (the structure has hinges 1..{H})")
        if h - 1 in out:
            raise UsageError(f"{option} {text}: hinge {h} is listed twice")
        out.append(h - 1)
    return out


def _symmetry_options(args):
    """The options that give the symmetry, as typed (for messages)."""
    return " ".join(([f"--rotation {args.rotation}"] if args.rotation is not None else []) +
                    [f"--mirror {m}" for m in args.mirror])


def symmetry(pattern, rotation=None, mirrors=()):
    """Hinge permutations of an N-fold rotation about z and of mirrors (planes normal to x, y or z) through the centroid."""
    from ..tools.geometry import rotation_about

    c = pattern.vertices.mean(axis=0)
    perms = []
    if rotation is not None:
        if rotation < 2:
            raise DesignError(f"--rotation must be at least 2, got {rotation}")
        perms.append(hinge_permutation(pattern, rotation_about([0, 0, 1], 2 * np.pi / rotation), c))
    for axis in mirrors:
        R = np.eye(3)
        R["xyz".index(axis), "xyz".index(axis)] = -1.0
        perms.append(hinge_permutation(pattern, R, c))
    return perms


@app.command("design", "choose the sliding hinges that make a FOLD structure isostatic (all door at the start)",
             options)
def design_command(args, out=None):
    """The ``design`` command; returns the exit code."""
    out = out or sys.stdout
    structure = inputs.prepare(inputs.read_input(args), args, out)
    H = len(structure.pattern.hinges)
    prefer = hinge_list("--prefer", args.prefer, H)
    door, sliding = hinge_list("--door", args.door, H), hinge_list("--slide", args.slide, H)
    both = sorted(set(door) & set(sliding))
    if both:
        raise UsageError(f"--door {args.door} --slide {args.slide}: hinge {both[0] + 1} cannot both stay a door "
                         f"hinge and slide")
    perms = inputs.option_value(_symmetry_options(args), None,
                                lambda: symmetry(structure.pattern, args.rotation, args.mirror), DesignError)
    given = " ".join(f"{o} {t}" for o, t in (("--door", args.door), ("--slide", args.slide)) if t.strip())
    result = inputs.option_value(given or _symmetry_options(args), None, lambda: design(
        structure, door=door, sliding=sliding, symmetry=perms, prefer=prefer, max_subsets=args.max_subsets,
        samples=args.samples, improve=args.improve, **rank_options(args)), DesignError)
    _print_report(result, args, out)
    chosen = result.greedy if prefer else result.best
    if args.output:
        from ..structure.foldfile import write_fold

        designed = result.structure(structure, chosen)
        with app.output(args.output):
            write_fold(replace(designed, name=f"{structure.name} (designed: {len(chosen.sliding)} sliding hinges)"),
                       args.output)
        print(f"design {_list(chosen.sliding)} (M = {chosen.M}, S = {chosen.S}) written to {args.output}", file=out)
    if getattr(args, "html", None) or getattr(args, "vtk", None):
        after = None
        if not (chosen.M or chosen.S) and structure.supports and structure.loads:   # the design's hinge actions
            from ..analysis.static import static

            after = static(result.structure(structure, chosen), **rank_options(args))
        inputs.write_html(result, args, out, structure=structure, chosen=chosen, after=after)
        inputs.write_vtk(after if after is not None else result.structure(structure, chosen), args, out)
    if chosen.M or chosen.S:
        why = result.reason or f"M = {chosen.M}, S = {chosen.S}"
        on = f" {args.output}" if args.output else ""
        raise IndeterminateError(f"{structure.name}: not isostatic after design: {why}; the way on: static{on} "
                                 f"--elastic (the hinge forces of elastic hinges)", chosen.M, chosen.S)
    return app.EXIT_OK


def _list(hinges):
    from ..engines.compatibility import number_ranges

    return number_ranges([h + 1 for h in hinges], SCREEN_ITEMS)


def report_path(args):
    """Where the full report goes: ``--report``, else beside ``-o`` (``designed-design.txt``), else
    ``<input name>-design.txt`` in the current folder."""
    if args.report:
        return args.report
    base = args.output or os.path.basename(args.file)
    return os.path.splitext(base)[0] + "-design.txt"


def _print_report(result, args, out):
    """The report on screen, shortened to :data:`SCREEN_ROWS` designs and states and :data:`SCREEN_ITEMS` runs of
    hinge numbers; when shortened (or with ``--report``), the full report in a file."""
    full = result.report(max_rows=None, max_items=None)
    short = result.report(max_rows=SCREEN_ROWS, max_items=SCREEN_ITEMS)
    print(short, file=out)
    if short != full or args.report:
        path = report_path(args)
        with app.output(path):
            with open(path, "w") as f:
                f.write(full + "\n")
        where = f" in the current folder ({os.getcwd()})" if not os.path.dirname(path) else ""
        print(f"{'the full report' if short != full else 'the report'} ({full.count(chr(10)) + 1} lines, "
              f"{len(full) // 1024 + 1} KB) written to {path}{where}", file=out)
