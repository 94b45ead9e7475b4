"""Kinematic folding of thick origami driven at hinges (paper sec. 3.4): what users call.

:func:`fold` folds a :class:`~chrono_origami.inputs.fold.FoldProblem` (drives,
vertex paths) with either engine (``engines.get``): the paper's Newton-Raphson
method on SE(3)^N (the reference engine) or Chrono's assembly, which starts a
singular fold from :func:`regular_start` (the reference engine's first step)
when the engine cannot leave one (no ``FOLDS_SINGULAR_STARTS``).
:func:`fold_to_targets` folds a structure to the target angles of its file at
a percent (an engine with ``FOLD_TO_TARGETS``: the reference engine), after
checking a flat pattern's geometry
(``structure.pattern_check``).
"""
import math

from .. import engines
from ..engines.protocol import FOLD_TO_TARGETS, FOLDS_SINGULAR_STARTS
from ..tools import memory
from ..tools.errors import SolverError
from ..tools.threads import with_blas_threads


@with_blas_threads
def fold(problem, engine=None, *, from_singular=False, assignment=None, start_time=None, **options):
    """The fold history (:class:`~chrono_origami.results.fold.FoldHistory`) of ``problem`` by ``engine``.

    ``from_singular``: leave a singular start (a flat pattern), on the branch
    of ``assignment`` (``{hinge: sign}``) when given, else along the
    minimum-norm tangent. An engine that cannot (no ``FOLDS_SINGULAR_STARTS``:
    Chrono) starts from :func:`regular_start` at ``start_time`` (s;
    default a 200th of the fold). ``options`` go to the engine's fold
    (``frame_interval``, ``progress``, ``linalg``, and its own).
    """
    eng = engines.get(engine)
    if from_singular and FOLDS_SINGULAR_STARTS not in eng.capabilities:
        t0 = problem.duration / 200 if start_time is None else start_time
        options["start"] = regular_start(problem, t0, assignment, options.get("linalg", "auto"))
        return eng.fold(problem, **options)
    return eng.fold(problem, from_singular=from_singular, assignment=assignment, **options)


def regular_start(problem, time, assignment=None, linalg="auto"):
    """(time, vertices): the reference engine's configuration at ``time`` (s), one step from a singular start.

    ``assignment`` and ``linalg`` as in :func:`fold` (the branch to leave the
    start on; without it the minimum-norm tangent). :func:`fold` gives it to an
    engine that cannot leave a singular start as ``start``.
    """
    from dataclasses import replace

    time = float(time)
    if not 0 < time < problem.duration:
        raise SolverError(f"{problem.name}: the Chrono start time must lie inside the fold "
                          f"(0, {problem.duration:g}) s, got {time:g}")
    # one step to ``time`` (halved only if Newton needs it), as the reference engine's first step of the fold
    eng = engines.get(None, notice=False, needs=FOLDS_SINGULAR_STARTS)
    hist = eng.fold(replace(problem, duration=time), from_singular=True, assignment=assignment,
                    frame_interval=time, dt=time, dt_max=time, linalg=linalg)
    return time, hist.final


@memory.guarded(lambda structure, *a, **k: f"folding {memory.about(structure)} to its target angles")
@with_blas_threads
def fold_to_targets(structure, targets=None, percent=100.0, paths=(), fix_geometry=False, keep_geometry=False,
                    max_move=None, engine=None, **options):
    """The fold history of ``structure`` from its configuration to ``percent`` % (0-100) of its target fold angles.

    targets : {hinge (0-based): fold angle (rad, FOLD sign: valley positive)}; default the file's
    (``inputs.fold.file_targets``). paths : vertex holds (``inputs.fold.VertexPath``); none holds panel 1.
    A flat start with inexact geometry (``structure.pattern_check.prepare``) is refused
    (:class:`~chrono_origami.tools.errors.GeometryError`, naming the worst vertex), corrected in memory with
    ``fix_geometry=True`` (vertex moves up to ``max_move``, length units) or folded as it is with
    ``keep_geometry=True``; the history's notes say which. ``engine``: one with ``FOLD_TO_TARGETS``,
    the reference engine's alone (``engines.get`` with ``needs``). ``options``: as its
    ``fold_to_targets`` takes them (duration,
    frame_interval, dt, linalg, progress, log, ...).

    When the file's targets (given or by default) miss a rigid fold by no more than its rounding can explain
    (:func:`rounding_level`), the history's last note says so calmly rather than that the targets are not a
    rigid fold.
    """
    from ..structure.targets import file_targets
    from ..structure.pattern_check import prepare

    from ..structure.pattern_check import diagnose

    in_file = file_targets(structure)
    targets = in_file if targets is None else targets
    report = diagnose(structure)                  # once: the rounding level and the geometry's preparation read it
    level = rounding_level(structure, percent, report) if targets == in_file else None
    structure, note = prepare(structure, fix_geometry, keep_geometry, max_move, report)
    eng = engines.get(engine, needs=FOLD_TO_TARGETS)
    hist = eng.fold_to_targets(structure, targets, percent, paths, **options)
    if note:
        hist.notes.insert(0, note)
    miss, hinge = getattr(hist, "target_miss", (0.0, None))
    if level and hinge is not None and hist.notes and hist.notes[-1].startswith(NOT_RIGID) and miss <= level[0]:
        hist.notes[-1] = (f"the targets miss a rigid fold by {miss:.3g} deg ({math.radians(miss):.2g} rad) at hinge "
                          f"{hinge + 1}, within the file's rounding ({level[1]}: up to {level[0]:.2g} deg): folded "
                          f"to the nearest rigid state")
    return hist


#: the start of the fold's note when the targets miss a rigid fold (the engine's ``fold_to_targets``)
NOT_RIGID = "the targets are not a rigid fold"


def rounding_level(structure, percent=100.0, report=None):
    """(deg, what) or None: how far the file's rounding alone can take its targets from a rigid fold.

    Twice the sum of the targets' step (``inputs.fold.target_rounding``, times percent / 100), the coordinates'
    step over the shortest crease (``coordinate_rounding``, rad) and the largest Kawasaki miss of a flat
    pattern (``structure.pattern_check``, rad), in degrees; ``what`` names them as the file wrote them. None when
    the file is not rounded. ``report``: the structure's ``pattern_check.diagnose`` when the caller has it.
    """
    import numpy as np

    from ..inputs.fold import coordinate_rounding, target_rounding
    from ..structure.pattern_check import NEAR, diagnose

    pat = structure.pattern
    written = target_rounding(structure)
    step = written * float(percent) / 100.0
    coord = coordinate_rounding(structure)
    lengths = [float(np.linalg.norm(pat.vertices[a] - pat.vertices[b])) for a, b in (h.vertices for h in pat.hinges)]
    shortest = min((x for x in lengths if x > 0), default=0.0)
    rep = diagnose(structure) if report is None else report
    kawasaki = max((x for x in rep.kawasaki if np.isfinite(x) and x <= NEAR), default=0.0) if rep.flat else 0.0
    level = 2.0 * (step + (np.degrees(coord / shortest) if shortest else 0.0) + np.degrees(kawasaki))
    what = [f"target angles to {written:.2g} deg" if step else "",
            f"coordinates to {coord:g}" if coord else "",
            f"Kawasaki missed by {kawasaki:.1g} rad" if kawasaki > 1e-12 else ""]
    what = ", ".join(w for w in what if w)
    return (float(level), what) if level > 0 and what else None
