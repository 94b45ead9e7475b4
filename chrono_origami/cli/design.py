"""``python -m chrono_origami design FILE.fold -o DESIGNED.fold``: the sliding hinges that make a structure isostatic.

Every hinge starts as a door hinge; the search (:func:`chrono_origami.analysis.design.design`)
ranks the designs by distance from singularity. Hinges are 1-based lists
``H,H,...``; ``--rotation N`` and ``--mirror x|y|z`` restrict the search to
symmetric designs (symmetry about the vertices' centroid).
"""
import sys
from dataclasses import replace

import numpy as np

from ..analysis.design import MAX_SUBSETS, SAMPLES, design, hinge_permutation
from ..tools.errors import DesignError
from . import app, inputs
from .static import linalg_option


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
    parser.add_argument("--rotation", metavar="N", type=int, default=None,
                        help="respect N-fold rotational symmetry about the z axis through the vertices' centroid")
    parser.add_argument("--mirror", choices=("x", "y", "z"), action="append", default=[],
                        help="respect mirror symmetry in the plane normal to this axis through the centroid "
                             "(repeatable)")
    parser.add_argument("--max-subsets", type=int, default=MAX_SUBSETS,
                        help=f"enumerate every minimal assignment up to this many candidates (default {MAX_SUBSETS})")
    parser.add_argument("--improve", type=int, default=0, metavar="PASSES",
                        help="exchange-search passes on the condition number when enumeration is too large")
    parser.add_argument("--samples", type=int, default=SAMPLES,
                        help=f"random greedy orders when enumeration is too large (default {SAMPLES})")
    linalg_option(parser)
    return parser


def hinge_list(option, text, H):
    """0-based hinges of a 1-based list ``H,H,...`` (order kept: ``--prefer`` is an order)."""
    if not text.strip():
        return []
    out = []
    for item in text.split(","):
        try:
            out.append(int(item) - 1)
        except ValueError:
            raise DesignError(f"{option}: {item.strip()!r} is not a hinge number (1..{H})") from None
    return out


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
    structure = inputs.read_input(args)
    H = len(structure.pattern.hinges)
    prefer = hinge_list("--prefer", args.prefer, H)
    result = design(structure, door=hinge_list("--door", args.door, H), sliding=hinge_list("--slide", args.slide, H),
                    symmetry=symmetry(structure.pattern, args.rotation, args.mirror), prefer=prefer,
                    max_subsets=args.max_subsets, samples=args.samples, improve=args.improve,
                    linalg=args.linalg)
    print(result.report(), file=out)
    chosen = result.greedy if prefer else result.best
    if args.output:
        from ..structure.foldfile import write_fold

        designed = result.structure(structure, chosen)
        with app.output(args.output):
            write_fold(replace(designed, name=f"{structure.name} (designed: {len(chosen.sliding)} sliding hinges)"),
                       args.output)
        print(f"design [{', '.join(str(h + 1) for h in chosen.sliding)}] (M = {chosen.M}, S = {chosen.S}) written "
              f"to {args.output}", file=out)
    return app.EXIT_OK
