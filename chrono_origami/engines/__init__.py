"""The engines, their common interface, and the one rule that chooses one.

``"reference"`` (:mod:`.reference`: the paper's own operators, NumPy/SciPy)
and ``"chrono"`` (:mod:`.chrono`: PyChrono) are packages with the same
functions, the engine interface:

* ``count(structure, **options)``: M and S (``results.counts.Counts``);
* ``static(structure, allow_indeterminate=False, **options)``: hinge actions
  and reactions (``results.statics.StaticResult``);
* ``fold(problem, *, from_singular=False, assignment=None, start=None,
  **options)``: a fold history (``results.fold.FoldHistory``); an engine
  whose ``FOLDS_SINGULAR_STARTS`` is False needs ``start`` (a regular
  configuration) to leave a singular one, which ``analysis.fold`` gives it;
* ``modal(structure, **options)``: the linearised equations at the static
  equilibrium (``results.modes.SystemMatrices``, with ``info["equilibrium"]``),
  which ``analysis.modal`` solves;
* ``dynamics(structure, *, time, dt, integrator, motors, springs, initial,
  output_interval, progress, **options)``: a motion
  (``results.motion.TimeHistory``);
* ``locked_in(structure, errors, stiffness=None, loads=False)``: the hinge
  actions of elastic hinges with fabrication errors (``analysis.tolerances``).

Some analyses are one engine's alone (the reference engine's fold to target
angles, ``fold_to_targets``); an engine lacks the function then.

The analyses (:mod:`chrono_origami.analysis`) reach an engine only through
:func:`get` and these functions. A new analysis is one function in each
engine package (its engine-specific part) and one in ``analysis/`` (the
dispatch and what is common).

Which engine (every analysis, in Python and on the command line): the one
asked for by name; ``None`` or ``"auto"`` (the default) is ``"chrono"`` where
PyChrono imports (:func:`chrono_available`) and ``"reference"`` otherwise,
saying so in one line on stderr; for an analysis only the reference engine
has, ``"reference"``.
"""
import importlib
import sys

from ..tools.errors import ChronoUnavailable, UsageError

ENGINES = ("reference", "chrono")


def chrono_available():
    """True when PyChrono imports (the one place that asks)."""
    try:
        import pychrono  # noqa: F401
    except ImportError:
        return False
    return True


def resolve(engine=None, notice=True):
    """Engine name to use: ``None``/``"auto"`` gives ``chrono`` where PyChrono imports, else ``reference``.

    Asking for ``chrono`` without PyChrono raises :class:`ChronoUnavailable`.
    """
    if engine in (None, "auto"):
        if chrono_available():
            return "chrono"
        if notice:
            print("note: PyChrono is not installed; using the reference engine "
                  "(conda install -c projectchrono pychrono for the Chrono engine)", file=sys.stderr)
        return "reference"
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; expected one of {ENGINES}")
    if engine == "chrono" and not chrono_available():
        raise ChronoUnavailable("the chrono engine needs PyChrono, which is not installed here "
                                "(conda install -c projectchrono pychrono); use --engine reference")
    return engine


def get(engine=None, notice=True, analysis=None):
    """The engine package (:mod:`.reference` or :mod:`.chrono`) that :func:`resolve` chooses for ``engine``.

    ``analysis``: the interface function wanted; ``None``/``"auto"`` takes the reference engine when the
    chosen one lacks it, a named engine that lacks it is a :class:`UsageError` (one line).
    """
    name = resolve(engine, notice)
    eng = importlib.import_module(f"{__name__}.{name}")
    if analysis is not None and not hasattr(eng, analysis):
        if engine not in (None, "auto"):
            raise UsageError(f"the {name} engine has no {analysis}; it is the reference engine's "
                             "(engine='reference')")
        eng = importlib.import_module(f"{__name__}.reference")
    return eng
