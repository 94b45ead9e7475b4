"""How hinge kinds are drawn: one :class:`HingeStyle` per kind name, in :data:`STYLES`.

Figures (:mod:`.figures`: line colour and style, named in the title) and
Chrono's Irrlicht view (:mod:`.viewer`: the glyph on each hinge link, in a
colour named in the window title) look a kind's style up here; a kind
without an entry (e.g. one a user registers) is drawn in :data:`DEFAULT`.
Give a new kind its own style with ``STYLES["name"] = HingeStyle(...)``.
"""
from dataclasses import dataclass

from ..tools.errors import StructureError

#: hinge glyphs that ``engines.chrono.system`` can draw on a hinge link
GLYPHS = ("barrel", "rod", "ball")


@dataclass(frozen=True)
class HingeStyle:
    """How a kind is drawn.

    line_color, line, line_name: matplotlib colour, line style and its name
    in the figure title ("dashed"); color, color_name: RGB (0-1) of the
    Chrono glyph and its name in the viewer's title; glyph: one of
    :data:`GLYPHS` ("barrel": a cylinder along the edge, "rod": a thin rod
    with a sleeve, "ball": a sphere at the midpoint).
    """

    line_color: str
    line: object
    line_name: str
    color: tuple
    color_name: str
    glyph: str

    def __post_init__(self):
        if self.glyph not in GLYPHS:
            raise StructureError(f"hinge glyph {self.glyph!r}; expected one of {GLYPHS}")
        c = tuple(float(x) for x in self.color)
        if len(c) != 3 or not all(0.0 <= x <= 1.0 for x in c):
            raise StructureError(f"hinge colour must be 3 numbers in [0, 1], got {self.color!r}")
        object.__setattr__(self, "color", c)


#: the style of each kind, by name
STYLES = {
    "door": HingeStyle("0.95", "--", "dashed", (0.15, 0.35, 0.85), "blue", "barrel"),
    "sliding": HingeStyle("0.1", "-", "solid", (0.85, 0.20, 0.15), "red", "rod"),
    "joined": HingeStyle("0.35", ":", "dotted", (0.35, 0.35, 0.35), "grey", "barrel"),
    "spherical": HingeStyle("tab:green", ":", "dotted", (0.1, 0.7, 0.3), "green", "ball"),
}
#: the style of a kind without an entry in STYLES
DEFAULT = HingeStyle("tab:orange", "-.", "dash-dotted", (0.95, 0.55, 0.1), "orange", "barrel")


def style(kind):
    """The :class:`HingeStyle` of ``kind`` (a ``HingeKind`` or its name)."""
    return STYLES.get(getattr(kind, "name", kind), DEFAULT)


def chrono_glyph(kind):
    """(glyph, RGB) of ``kind``: what ``engines.chrono.system.build_system(hinge_glyph=...)`` draws on its links."""
    st = style(kind)
    return st.glyph, st.color
