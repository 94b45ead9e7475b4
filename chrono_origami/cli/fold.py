"""Folding: ``python -m chrono_origami fold FILE.fold --drive HINGES --rate R --time T ...`` and ``play``.

Hinges and vertices are 1-based lists like ``1,3,5-9``. ``--rate`` (rad/s,
signed: rotation of a hinge's second panel about the axis run by its first)
or ``--angle-deg`` (reached at ``--time``). Holds: ``--hold`` (fixed),
``--along V:AXIS``, ``--in-plane V:NORMAL``, ``--block V:DOFS`` (AXIS/NORMAL
x, y, z or ``a,b,c``); without any hold, panel 1 is held. A start that is
singular (a flat pattern) is left with ``--from-singular`` on the branch of the
file's ``edges_assignment`` (M/V), when it has one; with ``--engine chrono``
the reference engine takes that first step (to ``--time``/200) and Chrono
folds on from there (``chrono_fold.regular_start``). Writes, with ``--out
DIR``, ``DIR/vertices.csv`` (final), ``DIR/fold.fold`` (history as
file_frames) and ``DIR/steps.csv`` (residual of every step). ``--viz`` plays
the fold in Chrono's Irrlicht viewer; ``--png-frames DIR`` writes one PNG per
frame, drawn by matplotlib or, with ``--png-renderer irrlicht``, by Irrlicht
(headless under xvfb-run). ``scenes/yoshimura_folding.py`` takes the same
output options (:func:`output_options`).

``play FILE.fold --viz | --png-frames DIR`` plays a fold history (frame 0 and
``file_frames``, e.g. the ``fold.fold`` that ``fold --out`` writes) in
Chrono's Irrlicht viewer, or writes one PNG per frame.
"""
import os
import sys

import numpy as np

from .. import engines
from ..inputs.fold import (Drive, FoldProblem, along, assignment_from_fold, blocked, fixed, in_plane, parse_hinges,
                           parse_vertices)
from ..tools.errors import OrigamiError
from . import app, inputs
from .static import linalg_option


def output_options(ap):
    """Engine, outputs and views of a fold (the ``fold`` command and the folding scenes); returns ``ap``."""
    ap.add_argument("--engine", choices=engines.ENGINES, default="reference", help="folding engine (default reference)")
    ap.add_argument("--out", metavar="DIR", help="write vertices.csv, fold.fold, steps.csv here")
    ap.add_argument("--figure", metavar="FILE", help="snapshots of the fold (png/pdf)")
    ap.add_argument("--png-frames", metavar="DIR", help="one PNG per stored frame")
    ap.add_argument("--png-renderer", choices=("matplotlib", "irrlicht"), default="matplotlib",
                    help="renderer of --png-frames (default matplotlib; irrlicht needs PyChrono and a display)")
    ap.add_argument("--viz", action="store_true", help="play the fold in Chrono's Irrlicht viewer (loops until closed)")
    ap.add_argument("--quiet", action="store_true", help="no progress bar (it is drawn only on a terminal anyway)")
    linalg_option(ap)
    return ap


def options(description):
    """The ``fold`` command's parser: the input file, drives and holds, :func:`output_options`."""
    ap = inputs.add_input(app.parser(description))
    ap.add_argument("--drive", required=True, metavar="HINGES", help="driven hinges, 1-based, e.g. 1-15")
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--rate", type=float, help="relative angular velocity of the driven hinges (rad/s, signed)")
    g.add_argument("--angle-deg", type=float, help="relative rotation reached at --time (deg, signed)")
    ap.add_argument("--time", type=float, default=1.0, help="fold duration (s), default 1")
    ap.add_argument("--hold", metavar="VERTICES", help="vertices held fixed, e.g. 6")
    ap.add_argument("--along", action="append", default=[], metavar="V:AXIS", help="vertices moving only along an axis")
    ap.add_argument("--in-plane", action="append", default=[], metavar="V:NORMAL", help="vertices moving in a plane")
    ap.add_argument("--block", action="append", default=[], metavar="V:DOFS", help="vertices held in directions, e.g. 14:xy")
    ap.add_argument("--frames", type=int, default=20, help="stored frames (default 20)")
    ap.add_argument("--from-singular", action="store_true", help="leave a singular (e.g. flat) start")
    return output_options(ap)


def _axis(text, what):
    t = text.strip().lower()
    if t in ("x", "y", "z"):
        return t
    try:
        v = [float(x) for x in t.split(",")]
    except ValueError:
        v = []
    if len(v) != 3:
        raise OrigamiError(f"{what}: expected x, y, z or three numbers a,b,c, got {text!r}")
    return v


def _pairs(items, n_vertices, what):
    out = []
    for item in items:
        if ":" not in item:
            raise OrigamiError(f"--{what} {item!r}: expected VERTICES:VALUE, e.g. 2,4:x")
        vs, val = item.rsplit(":", 1)
        out += [(v, val) for v in parse_vertices(vs, n_vertices)]
    return out


def build_problem(structure, args):
    pat = structure.pattern
    hinges = parse_hinges(args.drive, len(pat.hinges))
    if args.rate is not None:
        drives = [Drive(h, rate=args.rate) for h in hinges]
    else:
        drives = [Drive(h, angle=np.radians(args.angle_deg)) for h in hinges]
    paths = [fixed(v) for v in (parse_vertices(args.hold, pat.n_vertices) if args.hold else [])]
    paths += [along(v, _axis(a, f"--along vertex {v + 1}")) for v, a in _pairs(args.along, pat.n_vertices, "along")]
    paths += [in_plane(v, _axis(a, f"--in-plane vertex {v + 1}"))
              for v, a in _pairs(args.in_plane, pat.n_vertices, "in-plane")]
    paths += [blocked(v, d) for v, d in _pairs(args.block, pat.n_vertices, "block")]
    return FoldProblem(structure, drives, paths, args.time)


def fold(problem, engine, frame_interval, from_singular=False, chrono_start=None, assignment=None, progress=None,
         linalg="auto"):
    """The fold history of ``problem`` with the chosen engine (a :class:`~chrono_origami.results.fold.FoldHistory`).

    ``from_singular``: leave a singular start, on the branch of ``assignment``
    when given; with the chrono engine the reference engine takes the fold to
    ``chrono_start`` (s) and Chrono folds on from there. ``progress``: True,
    False or None (only on a terminal); ``linalg``: "auto", "dense" or
    "sparse" (``engines.reference.folding.newton.fold``).
    """
    if engine == "chrono":
        from ..engines.chrono.folding import fold as chrono_fold
        from ..analysis.fold import regular_start

        start = regular_start(problem, chrono_start, assignment, linalg) if from_singular else None
        return chrono_fold(problem, frame_interval=frame_interval, progress=progress, start=start, linalg=linalg)
    from ..engines.reference.folding.newton import fold as reference_fold

    return reference_fold(problem, frame_interval=frame_interval, allow_singular_start=from_singular,
                          assignment=assignment, progress=progress, linalg=linalg)


def write(hist, args, out=None):
    """``--out``: vertices.csv, fold.fold, steps.csv; then the views (:func:`views`)."""
    out = out or sys.stdout   # resolved at call time: sys.stdout may have been replaced
    if args.out:
        with app.output(args.out):
            hist.write_vertices_csv(os.path.join(args.out, "vertices.csv"))
            hist.write_fold(os.path.join(args.out, "fold.fold"))
            hist.write_steps_csv(os.path.join(args.out, "steps.csv"))
        print(f"wrote {args.out}/vertices.csv, fold.fold, steps.csv", file=out)
    views(hist, args, out)


def views(hist, args, out=None):
    """--figure, --png-frames (matplotlib or Irrlicht) and --viz of a fold history."""
    from ..report import figures

    if getattr(args, "figure", None):
        figures.draw_snapshots(hist, args.figure)
        print(f"wrote {args.figure}", file=out or sys.stdout)
    irrlicht_frames = args.png_frames if args.png_renderer == "irrlicht" else None
    if args.png_frames and not irrlicht_frames:
        n = len(figures.write_png_frames(hist, args.png_frames))
        print(f"wrote {n} PNG frames to {args.png_frames}", file=out or sys.stdout)
    if irrlicht_frames or args.viz:
        from ..report import viewer

        viewer.play(hist.problem.structure, hist.vertices, hist.times, png_dir=irrlicht_frames, interactive=args.viz)


def run(structure, args, out=None):
    """Fold, print a summary, write what ``args`` asks for; returns the exit code."""
    out = out or sys.stdout   # resolved at call time: sys.stdout may have been replaced
    prob = build_problem(structure, args)
    assignment = None
    notes = structure.notes.get("fold", {}) if structure.notes else {}
    if args.from_singular and notes.get("edges_assignment"):
        assignment = assignment_from_fold(structure.pattern, notes["edges_assignment"])
    engine = engines.resolve(args.engine)
    hist = fold(prob, engine, args.time / max(args.frames, 1), args.from_singular, args.time / 200, assignment,
                progress=False if args.quiet else None, linalg=args.linalg)
    print(f"{prob.name}: folded for {args.time:g} s ({engine} engine), {len(hist.steps)} steps, largest constraint "
          f"residual {hist.max_residual:.2e} (scaled), smallest sigma ratio {min(hist.sigma_ratios):.2e}", file=out)
    for note in hist.notes:
        print(f"note: {note}", file=out)
    write(hist, args, out)
    return app.EXIT_OK


@app.command("fold", "fold a FOLD structure by driving hinges (paper sec. 3.4); history as FOLD file_frames", options)
def fold_command(args):
    return run(inputs.read_input(args), args)


def _play_options(description):
    ap = inputs.add_input(app.parser(description))
    ap.add_argument("--viz", action="store_true", help="play the frames in a window, looping until it is closed")
    ap.add_argument("--png-frames", metavar="DIR", help="one PNG per frame, drawn by Irrlicht (headless: xvfb-run)")
    ap.add_argument("--fps", type=float, default=10.0, help="frames per second of --viz (default 10)")
    return ap


@app.command("play", "play a FOLD file's fold history (file_frames) in Chrono's Irrlicht viewer", _play_options)
def play_command(args):
    if not (args.viz or args.png_frames):
        raise app.UsageError("play: give --viz and/or --png-frames DIR")
    if not args.fps > 0:
        raise app.UsageError(f"play: --fps must be positive, got {args.fps:g}")
    inputs.read_input(args)
    from ..report import viewer

    structure, frames, times = viewer.fold_file_frames(args.file)
    viewer.play(structure, frames, times, png_dir=args.png_frames, interactive=args.viz, fps=args.fps)
    return app.EXIT_OK
