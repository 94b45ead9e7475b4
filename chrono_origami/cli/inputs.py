"""The input file of every command (one option, one reader) and the argparse types the commands and scenes share.

A command that reads a structure adds :func:`add_input` to its parser and
calls :func:`read_input` on the parsed arguments: new input formats and
input options (which frame, which faces) belong here, so that every command
takes them.
"""
import argparse
import math
import os

from ..structure.foldfile import FACETS, read_structure
from ..tools.errors import UsageError


def frame_choice(text):
    """argparse type of ``--frame``: a frame index (0: the top level) or a frame class such as foldedForm."""
    try:
        k = int(text)
    except ValueError:
        return text
    if k < 0:
        raise argparse.ArgumentTypeError(f"a frame index must be 0 or more, got {k}")
    return k


def add_input(ap):
    """Add the input file (FOLD or SVG) and its options --frame, --facets, --merge-tol to ``ap``; returns ``ap``."""
    ap.add_argument("file", metavar="FILE.fold|FILE.svg",
                    help="structure as a FOLD file (see chrono_origami/structure/foldfile.py) or an SVG crease pattern "
                         "(Origami Simulator's colours, see chrono_origami/crease/svg.py)")
    ap.add_argument("--frame", type=frame_choice, default=0,
                    help="which frame of the FOLD file: an index (default 0, the top level) or a frame class "
                         "(creasePattern, foldedForm: the first frame that has it)")
    ap.add_argument("--facets", choices=FACETS, default=None,
                    help="what 'F' edges are: crease (the FOLD spec: a flat crease, a hinge; default for FOLD "
                         "files) or facet (Origami Simulator: a line inside a rigid face; default for SVG)")
    ap.add_argument("--merge-tol", type=positive_float, default=None,
                    help="SVG: merge line ends closer than this fraction of the sheet size (default 1e-3)")
    return ap


def check_exists(path):
    """A missing input file is a usage error (exit 2)."""
    if not os.path.isfile(path):
        raise UsageError(f"{path}: no such {'SVG' if path.lower().endswith('.svg') else 'FOLD'} file")


def read_input(args):
    """The :class:`~chrono_origami.structure.structure.Structure` of ``args.file`` (FOLD or SVG, with ``--frame``,
    ``--facets``, ``--merge-tol``); a missing file is a usage error (exit 2)."""
    check_exists(args.file)
    return read_structure(args.file, frame=args.frame, facets=args.facets, merge_tol=args.merge_tol)


def positive_int(text):
    """argparse type: an integer >= 1."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {n}")
    return n


def _float(text, ok, expected, out_of_range):
    """``float(text)`` when finite and ``ok``; else argparse's error: ``expected`` (not a number) or ``out_of_range``."""
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}") from None
    if not (math.isfinite(x) and ok(x)):
        raise argparse.ArgumentTypeError(out_of_range)
    return x


def positive_float(text):
    """argparse type: a finite number > 0."""
    return _float(text, lambda x: x > 0, "a positive number", f"expected a positive number, got {text!r}")


def twist_deg(text):
    """argparse type: a finite angle in degrees in (-180, 180]."""
    return _float(text, lambda x: -180 < x <= 180, "an angle in degrees", f"must be in (-180, 180] degrees, got {text}")


def numbers(text):
    """argparse type: a 1-based list ``3,1,2`` (order kept) as 0-based integers."""
    try:
        out = [int(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected 1-based numbers like 3,1,2, got {text!r}") from None
    if min(out) < 1:
        raise argparse.ArgumentTypeError(f"numbers are 1-based, got {text!r}")
    return [n - 1 for n in out]
