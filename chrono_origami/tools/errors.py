"""Exceptions raised by chrono-origami.

Messages name what is wrong with 1-based numbers (panel 3, vertex 12,
hinge 7), the numbering of the paper's tables and of every CSV we write.
Every exception class of the package is here, with :func:`number`, the one
parse of a finite number, and :func:`positive`, the one check of a positive
number.
"""
import math

#: Largest accepted magnitude of any number a user gives (coordinates, forces, thickness, density, gravity; in
#: files and on the command line): products of up to six of them stay finite in double precision (1e300).
MAX_MAGNITUDE = 1e50


def number(value, message, error=None, ok=None):
    """``value`` as a finite float (and ``ok(x)`` when given), else ``error`` (default :class:`OrigamiError`) of
    ``message``: the one parse of a finite number."""
    error = error or OrigamiError
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise error(message) from None
    if not (math.isfinite(x) and (ok is None or ok(x))):
        raise error(message)
    return x


def positive(name, value, error=None, unit=None, noun="number"):
    """``value`` as a finite float > 0, else ``error`` (default :class:`OrigamiError`) saying
    "NAME must be a positive NOUN[ of UNIT], got VALUE" (without a name: "must be ...")."""
    what = f"must be a positive {noun}{f' of {unit}' if unit else ''}, got {value!r}"
    return number(value, f"{name} {what}" if name else what, error, lambda x: x > 0)


class OrigamiError(ValueError):
    """Base class of the errors raised for bad input or undetermined problems.

    The command line's exit code of each is in ``chrono_origami.cli.app.exit_code``.
    """


class PatternError(OrigamiError):
    """A crease pattern is malformed (names the panel, vertex or edge)."""


class GeometryError(OrigamiError):
    """A flat crease pattern's geometry is inexact: rounded coordinates that miss Kawasaki's condition
    (``structure.pattern_check``; ``report``: its :class:`~chrono_origami.structure.pattern_check.Report`)."""

    def __init__(self, message, report=None):
        super().__init__(message)
        self.report = report


class ThinPanelError(OrigamiError):
    """Chrono's contact check refuses panels too thin for it to resolve (``engines.chrono.contact.too_thin``).

    ``reason``: why, without the advice to use the reference engine that ends the message; ``solids``: the
    panels' reference solids (``structure.solids.PanelSolids``) already built, which the automatic engine choice
    checks with instead."""

    def __init__(self, message, reason, solids=None):
        super().__init__(message)
        self.reason = reason
        self.solids = solids


class StructureError(OrigamiError):
    """A structure (hinge kinds, supports, loads) is malformed."""


class FoldFileError(OrigamiError):
    """A FOLD file has a missing or malformed key (names the key)."""


class SvgFileError(OrigamiError):
    """An SVG crease pattern cannot be read (names the element or the line)."""


class IndeterminateError(OrigamiError):
    """The static problem has no unique answer (M > 0 or S > 0).

    Attributes ``M`` and ``S`` hold the counts, ``detail`` the hinges and
    vertices involved.
    """

    def __init__(self, message, M, S, detail=""):
        super().__init__(message + (("\n" + detail) if detail else ""))
        self.M = M
        self.S = S
        self.detail = detail


class FreeBodyError(OrigamiError):
    """A structure without supports is free to move as a rigid body under loads that do not balance.

    A usage problem: the command line exits with code 2 (the structure needs the FOLD key
    ``vertices_origami:support``).
    """

    @classmethod
    def unbalanced(cls, name, rel):
        """The error of both engines for the structure ``name`` whose loads have the relative resultant ``rel``."""
        return cls(f"{name}: the structure has no supports, so it is free to move as a rigid body, and its loads "
                   f"do not balance (relative resultant {rel:.3g}); add supports (--support auto proposes the "
                   f"fewest, --support SELECTOR:DOFS holds vertices; FOLD key vertices_origami:support)")


class SolverError(OrigamiError):
    """A numerical solve failed its residual or constraint checks."""


class InsufficientMemoryError(SolverError):
    """An analysis needs more memory than is available: the message names the operator or system (its size) and
    the memory needed (an estimate) or available; the command line prints it as one line and exits with code 1."""


class ViewerError(OrigamiError):
    """Chrono's Irrlicht view cannot be opened or rendered (no display, no OpenGL, blank frame, bad file name).

    The command line prints it as one line and exits with code 1.
    """


class SettingError(OrigamiError):
    """An environment setting of the program (e.g. ``CHRONO_ORIGAMI_BLAS_THREADS``) is not understood.

    A usage problem: the command line exits with code 2.
    """


class ChronoUnavailable(ImportError):
    """PyChrono is not installed: the Chrono engine cannot run."""


class DynamicsError(SolverError):
    """A time integration stopped: Newton did not converge, the constraints drifted, or a mechanism jammed.

    ``time`` (s) where it stopped, ``hinge`` (0-based, or None) the culprit,
    ``history`` the motion recorded up to the last good output frame (or None);
    ``sigma_ratio``: for a singular configuration, the smallest relative
    singular value of the constraint Jacobian there.
    """

    def __init__(self, message, time=None, hinge=None, history=None, sigma_ratio=None):
        super().__init__(message)
        self.time = time
        self.hinge = hinge
        self.history = history
        self.sigma_ratio = sigma_ratio


class DesignError(OrigamiError):
    """Bad design input (hinge numbers, symmetry) or contradictory requirements."""


class ExpressionError(OrigamiError):
    """A function of time given as text cannot be read (names what is wrong)."""


class SparseBackendUnavailable(ImportError):
    """pyspqr (SuiteSparseQR) is not installed."""


class SingularConfigurationError(SolverError):
    """The fold reached (or started at) a singular configuration.

    ``time`` (s), ``vertices`` (V x 3, global frame) and ``history`` (the
    :class:`~chrono_origami.results.fold.FoldHistory` up to the last
    regular state) tell where; ``sigma_ratio`` is the smallest relative
    singular value of the constraint Jacobian there.
    """

    def __init__(self, message, time=None, vertices=None, history=None, sigma_ratio=None):
        super().__init__(message)
        self.time = time
        self.vertices = vertices
        self.history = history
        self.sigma_ratio = sigma_ratio


class UsageError(Exception):
    """The command was called wrongly (a missing file, contradictory options): exit code 2."""


class SpecError(OrigamiError):
    """A sweep spec has an unknown key or a bad value; the message names the key, its table and, from a file,
    its line (a usage error: the command line exits with code 2)."""


class SchedulerError(OrigamiError):
    """The Dask scheduler cannot be reached, the local cluster cannot start, or Dask is not installed (a usage
    error: exit code 2)."""


class StoreError(OrigamiError):
    """A sweep's output folder cannot be used: in use by another sweep, or not writable (a usage error: exit
    code 2)."""
