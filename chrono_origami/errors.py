"""Exceptions raised by chrono-origami.

Messages name what is wrong with 1-based numbers (panel 3, vertex 12,
hinge 7), the numbering of the paper's tables and of every CSV we write.
"""


class OrigamiError(ValueError):
    """Base class of the errors raised for bad input or undetermined problems.

    ``exit_code``: the command line's exit code for it (1; 2 for usage problems).
    """

    exit_code = 1


class PatternError(OrigamiError):
    """A crease pattern is malformed (names the panel, vertex or edge)."""


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

    A usage problem: the command line exits with code 2.
    """

    exit_code = 2


class SolverError(OrigamiError):
    """A numerical solve failed its residual or constraint checks."""


class ChronoUnavailable(ImportError):
    """PyChrono is not installed: the Chrono engine cannot run."""
