"""Command line: ``python -m chrono_origami COMMAND FILE.fold [options]``, also the ``chrono-origami`` script.

Commands
--------
``static FILE.fold``
    counts, hinge internal actions and support reactions, with the options of
    every scene (``--engine``, ``--out DIR``, ``--min-norm``, ``--figure``,
    ``--labels``, ``--viz``, ``--screenshot``; see :mod:`chrono_origami.scene`).
``count FILE.fold``
    numeric M and S beside the paper's counting rules (``--out DIR`` writes
    counts.json).
``design FILE.fold -o DESIGNED.fold``
    which door hinges to make sliding for S = 0 with M unchanged, ranked by
    distance from singularity (see :mod:`chrono_origami.design`).
``fold FILE.fold --drive ...``
    kinematic folding (see :mod:`chrono_origami.folding.cli`).
``play FILE.fold --viz | --png-frames DIR``
    a fold history (frame 0 and ``file_frames``, e.g. the ``fold.fold`` that
    ``fold --out`` writes) played in Chrono's Irrlicht viewer, or one PNG per
    frame (headless under xvfb-run).

The FOLD keys that hold hinge kinds, supports, loads and thickness are in
:mod:`chrono_origami.foldfile`.

Adding a command: one function ``name(args) -> exit code`` decorated with
``@command("name", "one-line help", options)``, where ``options(description)``
returns an :class:`argparse.ArgumentParser` holding the command's arguments
(for instance :func:`file_options`).

Exit codes: 0 done; 1 a malformed FOLD file, a hinge/vertex/panel number the
structure does not have, or an analysis error; 2 bad arguments (argparse), a
missing file, an output that cannot be written, or an engine that is not
installed. Errors are one line on stderr, ``error: ...``, without a traceback.
"""
import argparse
import os
import sys

from . import analysis, design, engines, scene
from .errors import ChronoUnavailable, OrigamiError
from . import foldfile
from .report import tables

_COMMANDS = {}


def command(name, help, options):
    """Register ``fn(args) -> int`` as the subcommand ``name``; ``options(description)`` gives its parser."""
    def register(fn):
        _COMMANDS[name] = (help, options, fn)
        return fn
    return register


class _Usage(Exception):
    """A usage problem (missing file): exit code 2."""


def file_options(description, base=None):
    """``base`` (default: a new parser) with the positional FOLD file argument added."""
    ap = base or argparse.ArgumentParser(description=description)
    ap.add_argument("file", metavar="FILE.fold", help="structure as a FOLD file (see chrono_origami/foldfile.py)")
    return ap


def read_structure(path):
    """The structure of a FOLD file or SVG crease pattern; a missing file is a usage error (exit 2)."""
    if not os.path.isfile(path):
        raise _Usage(f"{path}: no such FOLD file")
    return foldfile.read_structure(path)


# ---------------------------------------------------------------------- commands
@command("static", "hinge internal actions and support reactions of a FOLD structure",
         lambda d: file_options(d, scene.parser(d)))
def static(args):
    return scene.run_static(read_structure(args.file), args, out=sys.stdout)


def _count_options(description):
    ap = file_options(description)
    ap.add_argument("--engine", choices=engines.ENGINES, default=None,
                    help="engine whose constraint Jacobian is counted (default: chrono where PyChrono imports)")
    ap.add_argument("--out", metavar="DIR", help="write counts.json here")
    return ap


@command("count", "mechanisms M and self-stress states S beside the counting rules", _count_options)
def count(args):
    structure = read_structure(args.file)
    engine = engines.resolve(args.engine)
    counts = analysis.count(structure, engine)
    s = analysis.counts_summary(structure, counts)
    n_door = len(structure.hinge_kinds) - structure.n_sliding
    n_sup = sum(len(x.dofs) for x in structure.supports)
    print(f"{structure.name}: {structure.pattern!r}")
    print(f"M = {s['M']} mechanisms, S = {s['S']} self-stress states ({engine} engine: rank {s['rank']} of "
          f"{s['n_constraints']} constraints on {s['n_dof']} velocities)"
          + (": isostatic" if counts.isostatic else ""))
    if s.get("singular"):
        print("this configuration is singular: more mechanisms than the generic bar-framework count")
    print("counting rules (paper sec. 2):")
    print(f"  P = {s['P']} panels, H = {s['H']} hinges ({structure.n_sliding} sliding), "
          f"E_b = {s['E_b']} boundary edges, V_i = {s['V_i']} interior vertices")
    print(f"  bar framework: M_BF - S_BF = (E_b - 3) - sum_p (V_p - 3) = {s['E_b'] - 3} - {s['sum_V_minus_3']}"
          f" = {s['E_b'] - 3 - s['sum_V_minus_3']}; M_BF = {s['M_BF']}, S_BF = {s['S_BF']}")
    print(f"  panel-hinge, all door hinges, no supports: S_PH = S_BF + 3 V_i = {s['S_PH']}")
    print(f"  Maxwell for this structure: M - S = 6P{'' if structure.supports else ' - 6'} - 5 H_door - "
          f"4 H_sliding - supports = {6 * s['P']}{'' if structure.supports else ' - 6'} - {5 * n_door} - "
          f"{4 * structure.n_sliding} - {n_sup} = {s['maxwell_M_minus_S']}")
    if args.out:
        tables.write_counts(s, args.out)
    return 0


@command("design", "choose the sliding hinges that make a FOLD structure isostatic (all door at the start)",
         lambda d: design.cli_options(file_options(d)))
def design_command(args):
    return design.run_cli(read_structure(args.file), args)


def _fold_options(description):
    from .folding import cli as fold_cli

    return fold_cli.options(description, file_options(description))


@command("fold", "fold a FOLD structure by driving hinges (paper sec. 3.4); history as FOLD file_frames",
         _fold_options)
def fold_command(args):
    from .folding import cli as fold_cli

    return fold_cli.run(read_structure(args.file), args)


def _play_options(description):
    ap = file_options(description)
    ap.add_argument("--viz", action="store_true", help="play the frames in a window, looping until it is closed")
    ap.add_argument("--png-frames", metavar="DIR", help="one PNG per frame, drawn by Irrlicht (headless: xvfb-run)")
    ap.add_argument("--fps", type=float, default=10.0, help="frames per second of --viz (default 10)")
    return ap


@command("play", "play a FOLD file's fold history (file_frames) in Chrono's Irrlicht viewer", _play_options)
def play_command(args):
    if not (args.viz or args.png_frames):
        raise _Usage("play: give --viz and/or --png-frames DIR")
    if not args.fps > 0:
        raise _Usage(f"play: --fps must be positive, got {args.fps:g}")
    read_structure(args.file)
    from .chrono import viewer

    structure, frames, times = viewer.fold_file_frames(args.file)
    viewer.play(structure, frames, times, png_dir=args.png_frames, interactive=args.viz, fps=args.fps)
    return 0


# -------------------------------------------------------------------------- main
def build_parser():
    prog = "python -m chrono_origami" if os.path.basename(sys.argv[0]) == "__main__.py" else "chrono-origami"
    ap = argparse.ArgumentParser(prog=prog, description="Isostatic thick-origami structures from FOLD files.")
    sub = ap.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (help, options, fn) in _COMMANDS.items():
        p = sub.add_parser(name, help=help, description=help, parents=[options(help)], add_help=False)
        p.set_defaults(func=fn)
    return ap


def main(argv=None):
    """Run the command line on ``argv`` (default: sys.argv[1:]); returns the exit code."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except (_Usage, ChronoUnavailable) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except OrigamiError as e:
        print(f"error: {e}", file=sys.stderr)
        return e.exit_code
    except OSError as e:
        print(f"error: cannot write or read {e.filename or ''}: {e.strerror or e}", file=sys.stderr)
        return 2
