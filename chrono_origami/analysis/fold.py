"""Kinematic folding of thick origami driven at hinges (paper sec. 3.4): what users call.

:func:`fold` folds a :class:`~chrono_origami.inputs.fold.FoldProblem` (drives,
vertex paths) with the paper's Newton-Raphson method on SE(3)^N (the
reference engine, :mod:`chrono_origami.engines.reference.folding.newton`);
:mod:`chrono_origami.engines.chrono.folding` folds the same problem in a Chrono
system, from the pattern or from :func:`regular_start` (a singular start
left by the reference engine's first step).
"""
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
