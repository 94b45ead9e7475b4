"""Hinges coloured by their internal actions: one colour map and one scale for the figures and the Irrlicht viewer.

``static --figure`` (:func:`chrono_origami.report.figures.draw_structure`)
and ``--viz`` / ``--screenshot`` (:mod:`chrono_origami.chrono.viewer`) take
the same :class:`HingeColoring`, so a hinge has the same colour in both.

What is coloured (``component``, :data:`COMPONENTS`)
----------------------------------------------------
* ``|F|`` (the default), the force resultant sqrt(N^2 + TP^2 + TO^2), and
  ``|M|``, the moment resultant sqrt(MT^2 + MP^2 + MO^2): magnitudes, on the
  sequential map :data:`SEQUENTIAL` (viridis) from 0 (its start, dark purple)
  to the largest value (its end, yellow);
* ``N``, ``TP``, ``TO``, ``MT``, ``MP``, ``MO``: the signed components of the
  paper's {n, t, m} frame (``chrono_origami.results``: N > 0 tension), on the
  diverging map :data:`DIVERGING` (coolwarm) from -v (its start, blue) through
  0 (grey) to +v (its end, red), v the largest magnitude.

A hinge has two rows, one per side (the action on each panel from the other,
in each panel's own frame): its value is that of the side with the larger
magnitude (for ``|F|`` and ``|M|`` both sides agree). The scale's end is the
largest magnitude over all hinges, so the hinge that carries it gets the
map's end colour (or its start, for a negative component); the colour bar
labels that value and its hinge.

Not finite: a hinge whose value is NaN or infinite (a failed analysis written
anyway) keeps that value, is drawn in :data:`NOT_FINITE_COLOR` (on neither
map) and is left out of the scale and of the largest value; the caption
counts such hinges.

Round-off: when every hinge's value is below :data:`ROUND_OFF` of the loads'
scale (the largest applied force or support reaction; times the structure's
size for moments), e.g. a load applied at a vertex held in its direction,
the hinges carry nothing: the values are set to 0 (every hinge the colour of
0), the caption says so, and no hinge is named as the largest.
"""
from dataclasses import dataclass

import numpy as np

from ..results.static import HINGE_COLUMNS

#: what a hinge can be coloured by (command line: ``--color-by``; F and M stand for |F| and |M|)
COMPONENTS = ("|F|", "|M|", "N", "TP", "TO", "MT", "MP", "MO")
#: colour map of the magnitudes |F| and |M| (0 .. largest)
SEQUENTIAL = "viridis"
#: colour map of the signed components (-largest .. +largest)
DIVERGING = "coolwarm"
#: values below this fraction of the loads' scale (module doc) are round-off: the hinges carry nothing
ROUND_OFF = 1e-10
#: RGB (0-1) of a hinge whose value is NaN or infinite: magenta, on neither map
NOT_FINITE_COLOR = (1.0, 0.0, 1.0)
NAMES = {"|F|": "force resultant |F|", "|M|": "moment resultant |M|", "N": "normal force N (> 0 tension)",
         "TP": "parallel shear TP", "TO": "orthogonal shear TO", "MT": "twisting moment MT",
         "MP": "parallel moment MP", "MO": "orthogonal moment MO"}


def component(text):
    """The canonical name of a component (``F`` -> ``|F|``, ``m`` -> ``|M|``, ``n`` -> ``N``); ValueError otherwise."""
    t = str(text).strip()
    key = {"F": "|F|", "M": "|M|"}.get(t.upper().strip("|"), t.upper())
    if key not in COMPONENTS:
        raise ValueError(f"cannot colour hinges by {text!r}: expected one of {', '.join(COMPONENTS)} (F, M for "
                         f"|F|, |M|)")
    return key


def hinge_values(result, name="|F|"):
    """One value per hinge (hinge order) of a static result's ``name`` component (module doc)."""
    name = component(name)
    H = len(result.structure.pattern.hinges)
    best = np.zeros(H)
    for a in result.hinge_actions:
        v = np.asarray(a.values, float)            # MT, MP, MO, N, TP, TO
        if name == "|F|":
            x = float(np.linalg.norm(v[3:]))
        elif name == "|M|":
            x = float(np.linalg.norm(v[:3]))
        else:
            x = float(v[HINGE_COLUMNS.index(name)])
        if not np.isfinite(x) or (np.isfinite(best[a.hinge]) and abs(x) > abs(best[a.hinge])):
            best[a.hinge] = x                      # a value that is not finite is kept (module doc)
    return best


@dataclass
class HingeColoring:
    """Hinge colours of one component: ``values`` (one per hinge), the map ``cmap`` and its range [vmin, vmax]."""

    component: str
    values: np.ndarray
    vmin: float
    vmax: float
    cmap: str
    label: str
    #: the largest |value| before it was found to be round-off (module doc), else None
    round_off: float = None

    @property
    def signed(self):
        return self.cmap == DIVERGING

    def fraction(self, x):
        """Position of the value ``x`` on the map, 0 (start) .. 1 (end)."""
        span = self.vmax - self.vmin
        if span > 0:
            return np.clip((np.asarray(x, float) - self.vmin) / span, 0.0, 1.0)
        return np.full(np.shape(x), 0.5 if self.signed else 0.0)     # every value 0: the colour of 0

    def colors(self):
        """RGB (H x 3, 0..1) of every hinge; :data:`NOT_FINITE_COLOR` where the value is NaN or infinite."""
        rgb = colormap(self.cmap)(self.fraction(self.values))[..., :3]
        rgb[~np.isfinite(self.values)] = NOT_FINITE_COLOR
        return rgb

    @property
    def not_finite(self):
        """How many hinges have a NaN or infinite value."""
        return int(np.count_nonzero(~np.isfinite(self.values)))

    def largest(self):
        """(0-based hinge, value) of the largest finite magnitude (NaN when no value is finite)."""
        finite = np.isfinite(self.values)
        if len(self.values) and not finite.any():
            return 0, float("nan")
        h = int(np.argmax(np.where(finite, np.abs(self.values), -1.0))) if len(self.values) else 0
        return h, float(self.values[h]) if len(self.values) else 0.0

    def largest_text(self):
        """"largest 13.81 at hinge 16" (1-based), or that every hinge carries nothing (round-off)."""
        if self.round_off is not None:
            return f"every hinge 0 to round-off (at most {self.round_off:.2g})"
        h, v = self.largest()
        if not np.isfinite(v):
            return "no hinge has a finite value"
        return f"largest {abs(v):.4g} at hinge {h + 1}"

    def caption(self):
        """One line: what the colours show and the largest value, 1-based hinge (and the hinges not finite)."""
        bad = self.not_finite
        if bad:
            return self._caption() + (f"; {bad} hinge{'s' if bad > 1 else ''} NaN or infinite, drawn magenta (on "
                                      f"neither map)")
        return self._caption()

    def _caption(self):
        if self.round_off is not None:
            return (f"hinges coloured by {self.label}: every hinge carries 0 to round-off (at most "
                    f"{self.round_off:.2g}, against loads and reactions up to {self.scale_text}), all in the "
                    f"colour of 0")
        h, v = self.largest()
        return (f"hinges coloured by {self.label}, {self.cmap} from {self.vmin:.4g} to {self.vmax:.4g}; largest "
                f"|{self.component.strip('|')}| = {abs(v):.4g} at hinge {h + 1}")

    scale_text = ""


def coloring(result, name="|F|"):
    """The :class:`HingeColoring` of a static result by ``name`` (module doc)."""
    name = component(name)
    values = hinge_values(result, name)
    top = float(np.abs(values[np.isfinite(values)]).max(initial=0.0))   # the scale of the finite values
    force = load_scale(result)
    moment = name in ("|M|", "MT", "MP", "MO")
    scale = force * (result.structure.pattern.size if moment else 1.0)
    raw = None
    if top <= ROUND_OFF * scale:            # nothing but round-off (module doc)
        raw, values, top = top, np.where(np.isfinite(values), 0.0, values), 0.0
    if name in ("|F|", "|M|"):
        c = HingeColoring(name, values, 0.0, top, SEQUENTIAL, NAMES[name], raw)
    else:
        c = HingeColoring(name, values, -top, top, DIVERGING, NAMES[name], raw)
    c.scale_text = f"{force:.4g}" + (" (times the size)" if moment else "")
    return c


def load_scale(result):
    """The loads' scale of a static result: the largest applied point force, support reaction or panel weight."""
    forces = [float(np.linalg.norm(f)) for _, _, f in result.structure.panel_loads()]
    forces += [float(np.linalg.norm(r.force)) for r in result.support_reactions]
    return max((f for f in forces if np.isfinite(f)), default=0.0)


def colormap(name):
    """The matplotlib colour map ``name``."""
    import matplotlib

    return matplotlib.colormaps[name]
