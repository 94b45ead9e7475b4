"""Contact between thick panels along a fold: the range of motion.

Each panel is the convex solid its placement makes, carried rigidly with the
panel from frame to frame; two solids interpenetrate when their penetration
depth is above ``structure.solids.DEPTH_RTOL`` x the pattern size
(``structure.solids.PanelSolids``: the separating-axis theorem after a broad
phase on bounding boxes), or by Chrono's Bullet collision detection on the
same solids (the Chrono engine's ``panel_solids``). :func:`fold_contacts` checks every
frame of a fold history; :class:`Contacts` says what it found.
"""
import sys
from dataclasses import dataclass, field

from .. import engines
from ..structure.solids import placement_of
from ..tools.errors import ThinPanelError



@dataclass
class Contacts:
    """The contacts of a fold's frames: ``pairs[k]`` the (p, q, depth) of frame k (0-based panels p < q, depth in
    length units, largest first); ``first`` the first frame with one (None: none)."""

    structure: object
    times: list
    percents: list = None
    pairs: list = field(default_factory=list)

    @property
    def first(self):
        return next((k for k, c in enumerate(self.pairs) if c), None)

    def where(self, k):
        """Frame ``k`` as a person reads it: "62.5 % of the targets" or "t = 0.625 s"."""
        if self.percents is not None:
            return f"{self.percents[k]:.4g} % of the targets"
        return f"t = {self.times[k]:.6g} s"

    def summary(self):
        """Lines: the first contact (frame, where, panel pair 1-based, depth) and the last frame free of contact,
        or that no two panels touch."""
        pl = placement_of(self.structure).describe()
        k = self.first
        if k is None:
            return [f"contact ({pl}): no two panels interpenetrate in frames 0-{len(self.pairs) - 1} (to "
                    f"{self.where(len(self.pairs) - 1)})"]
        p, q, d = self.pairs[k][0]
        free = f"; the last frame free of contact is {k - 1} ({self.where(k - 1)})" if k > 0 else \
            "; already in the first frame"
        more = f" (and {len(self.pairs[k]) - 1} more pairs)" if len(self.pairs[k]) > 1 else ""
        lines = [f"contact ({pl}): first at frame {k} ({self.where(k)}): panels {p + 1} and {q + 1} interpenetrate "
                 f"by {d:.4g}{more}{free}"]
        on_crease = any({p, q} == set(h.panels) for h in self.structure.pattern.hinges)
        if on_crease and placement_of(self.structure).technique == "mid":
            lines.append("note: with mid placement two panels on a crease meet as soon as it folds (the pattern is "
                         "their mid-surface): --placement offset or tapered leaves them room")
        return lines

    def listing(self):
        """One line per frame with contacts: every pair (1-based) and its depth."""
        return [f"frame {k} ({self.where(k)}): " + ", ".join(f"panels {p + 1}-{q + 1} depth {d:.4g}" for p, q, d in c)
                for k, c in enumerate(self.pairs) if c]


def check_engine(structure, engine):
    """Refuse at once, before a fold is spent on it, a contact check by the engine named "chrono" that
    :func:`fold_contacts` would refuse: PyChrono missing (``ChronoUnavailable``) or panels too thin for Chrono's
    check (``ThinPanelError``, one line). Other engines and the automatic choice: nothing to check."""
    if engine == "chrono":
        engines.get("chrono").check_panel_solids(structure)


def fold_contacts(history, percent=None, engine=None, structure=None):
    """:class:`Contacts` of every stored frame of a fold history (``results.fold.FoldHistory``); ``percent``: the
    fold percent of its last frame when it folds to target angles: frame k is labelled by the percent it reached
    (``history.frame_percents``), else by the one it aimed at, percent x t_k / T. ``engine``:
    an engine object or name (``engines.get``: None/"auto", the default, is "chrono" where PyChrono imports, else
    "reference" with one line on stderr) whose ``panel_solids`` find the contacts: "reference"
    (``structure.solids.PanelSolids``, separating axes) or "chrono" (Bullet's convex shapes). Panels thinner than
    Chrono's check resolves (``engines.chrono.contact.thinnest_resolved``, 1.5e-5 x the pattern size): the
    automatic choice takes the reference engine, saying why in one line on stderr; "chrono" named is refused in
    that line (an ``OrigamiError``). ``structure``: the panels' thickness and placement, when not the history's
    (the same pattern)."""
    st = history.problem.structure if structure is None else structure
    st = st.with_pattern(st.pattern.with_vertices(history.vertices[0]))
    try:
        solids = engines.get(engine).panel_solids(st)
    except ThinPanelError as e:
        if engine not in (None, "auto"):
            raise
        print(f"note: {e.reason}: the contact check runs on the reference engine", file=sys.stderr)
        solids = e.solids if e.solids is not None else engines.get("reference").panel_solids(st)
    T = float(history.problem.duration)
    percents = None if percent is None else (
        list(history.frame_percents) if getattr(history, "frame_percents", None) is not None
        else [float(percent) * t / T for t in history.times])
    return Contacts(st, list(history.times), percents, [solids.contacts(X) for X in history.vertices])
