"""The input file of every command (one option, one reader) and the argparse types the commands and scenes share.

A command that reads a structure adds :func:`add_input` to its parser and
calls :func:`read_input` on the parsed arguments: new input formats and
input options (which frame, which faces) belong here, so that every command
takes them.
"""
import argparse
import math
import os

from ..foldfile import read_fold
from .app import UsageError


def add_input(ap):
    """Add the positional input file to ``ap``; returns ``ap``."""
    ap.add_argument("file", metavar="FILE.fold", help="structure as a FOLD file (see chrono_origami/foldfile.py)")
    return ap


def read_input(args):
    """The :class:`~chrono_origami.structure.Structure` of ``args.file``; a missing file is a usage error (exit 2)."""
    if not os.path.isfile(args.file):
        raise UsageError(f"{args.file}: no such FOLD file")
    return read_fold(args.file)


def positive_int(text):
    """argparse type: an integer >= 1."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {n}")
    return n


def positive_float(text):
    """argparse type: a finite number > 0."""
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}") from None
    if not (math.isfinite(x) and x > 0):
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}")
    return x


def twist_deg(text):
    """argparse type: a finite angle in degrees in (-180, 180]."""
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an angle in degrees, got {text!r}") from None
    if not (math.isfinite(x) and -180 < x <= 180):
        raise argparse.ArgumentTypeError(f"must be in (-180, 180] degrees, got {text}")
    return x


def numbers(text):
    """argparse type: a 1-based list ``3,1,2`` (order kept) as 0-based integers."""
    try:
        out = [int(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected 1-based numbers like 3,1,2, got {text!r}") from None
    if min(out) < 1:
        raise argparse.ArgumentTypeError(f"numbers are 1-based, got {text!r}")
    return [n - 1 for n in out]
