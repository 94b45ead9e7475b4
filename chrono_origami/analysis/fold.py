"""Kinematic folding of thick origami driven at hinges (paper sec. 3.4): what users call.

:func:`fold` folds a :class:`~chrono_origami.inputs.fold.FoldProblem` (drives,
vertex paths) with the paper's Newton-Raphson method on SE(3)^N (the
reference engine, :mod:`chrono_origami.engines.reference.folding.newton`);
:mod:`chrono_origami.engines.chrono.folding` folds the same problem in a Chrono
system, from the pattern or from :func:`regular_start` (a singular start
left by the reference engine's first step). :func:`fold_to_targets` folds a
structure to the target angles of its file at a percent (the reference
engine's ``engines.reference.folding.targets``), after checking a flat
pattern's geometry (``structure.pattern_check``).
"""
from ..tools import memory
from ..tools.errors import SolverError


def fold(problem, **options):
    """The fold history (:class:`~chrono_origami.results.fold.FoldHistory`) of ``problem``; ``options`` as
    :func:`chrono_origami.engines.reference.folding.newton.fold` takes them."""
    from ..engines.reference.folding.newton import fold as reference_fold

    return reference_fold(problem, **options)


def regular_start(problem, time, assignment=None, linalg="auto"):
    """(time, vertices): the reference engine's configuration at ``time`` (s), one step from a singular start.

    ``assignment`` and ``linalg`` as in ``engines.reference.folding.newton.fold`` (the branch to
    leave the start on; without it the minimum-norm tangent). Give it to ``engines.chrono.folding.fold`` as ``start``.
    """
    from dataclasses import replace

    from ..engines.reference.folding.newton import fold as reference_fold

    time = float(time)
    if not 0 < time < problem.duration:
        raise SolverError(f"{problem.name}: the Chrono start time must lie inside the fold "
                          f"(0, {problem.duration:g}) s, got {time:g}")
    # one step to ``time`` (halved only if Newton needs it), as the reference engine's first step of the fold
    hist = reference_fold(replace(problem, duration=time), frame_interval=time, dt=time, dt_max=time,
                          allow_singular_start=True, assignment=assignment,
                          linalg=linalg)
    return time, hist.final


@memory.guarded(lambda structure, *a, **k: f"folding {memory.about(structure)} to its target angles")
def fold_to_targets(structure, targets=None, percent=100.0, paths=(), fix_geometry=False, keep_geometry=False,
                    max_move=None, **options):
    """The fold history of ``structure`` from its configuration to ``percent`` % (0-100) of its target fold angles.

    targets : {hinge (0-based): fold angle (rad, FOLD sign: valley positive)}; default the file's
    (``inputs.fold.file_targets``). paths : vertex holds (``inputs.fold.VertexPath``); none holds panel 1.
    A flat start with inexact geometry (``structure.pattern_check.prepare``) is refused
    (:class:`~chrono_origami.tools.errors.GeometryError`, naming the worst vertex), corrected in memory with
    ``fix_geometry=True`` (vertex moves up to ``max_move``, length units) or folded as it is with
    ``keep_geometry=True``; the history's notes say which. ``options``: as
    :func:`chrono_origami.engines.reference.folding.targets.fold_to_targets` takes them (duration,
    frame_interval, dt, linalg, progress, log, ...).
    """
    from ..engines.reference.folding.targets import fold_to_targets as reference_fold
    from ..inputs.fold import file_targets
    from ..structure.pattern_check import prepare

    if targets is None:
        targets = file_targets(structure)
    structure, note = prepare(structure, fix_geometry, keep_geometry, max_move)
    hist = reference_fold(structure, targets, percent, paths, **options)
    if note:
        hist.notes.insert(0, note)
    return hist
