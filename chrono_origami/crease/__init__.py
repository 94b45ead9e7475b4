"""Crease patterns: drawn files (SVG, ORIPA) read into FOLD dictionaries, faces, and the flat pattern.

:func:`read_drawing` reads a drawn crease pattern by its extension (:data:`DRAWINGS`).
"""
import os

#: drawn crease-pattern files (lines, no topology by index): extension -> what it is
DRAWINGS = {".svg": "an SVG crease pattern", ".cp": "an ORIPA line file", ".opx": "an ORIPA document"}


def is_drawing(path):
    """Whether ``path`` names a drawn crease pattern (:data:`DRAWINGS`), not a FOLD file."""
    return not isinstance(path, dict) and os.path.splitext(os.fspath(path))[1].lower() in DRAWINGS


def read_drawing(path, merge_tol=None, facets="facet", colors=None, dashes=None, notes=None):
    """The FOLD dictionary of a drawn crease pattern: :func:`.svg.read_svg` or :func:`.oripa.read_oripa`
    (``colors``, ``dashes``: SVG only; ``notes``: a list the reader's note lines are appended to)."""
    if os.fspath(path).lower().endswith(".svg"):
        from .svg import read_svg

        return read_svg(path, merge_tol=merge_tol, facets=facets, colors=colors, dashes=dashes, notes=notes)
    from ..tools.errors import SvgFileError
    from .oripa import read_oripa

    for name, value in (("colors", colors), ("dashes", dashes)):
        if value is not None:
            raise SvgFileError(f"{os.fspath(path)}: {name}= is for SVG drawings (stroke colours and dashes); an "
                               f"ORIPA file gives each line's type")
    return read_oripa(path, merge_tol=merge_tol, facets=facets)
