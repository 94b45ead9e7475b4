"""Structures: a crease pattern plus hinge kinds, panel properties, supports and loads.

Engine-neutral: the reference engine (``chrono_origami.engines.reference``) and the
Chrono engine (``chrono_origami.engines.chrono``) both consume a :class:`Structure`.

Hinge kinds
-----------
``hinge_kinds`` names a registered kind per hinge (``chrono_origami.structure.hinges``):
``"door"`` (:data:`DOOR`), revolute joint, relative rotation about the hinge
axis only (5 constraints); ``"sliding"`` (:data:`SLIDING`), cylindrical joint,
rotation about and translation along the hinge axis (4 constraints); or any
kind registered there. :attr:`Structure.kinds` gives the records.

Supports and loads act at a vertex *on a named panel*: the vertex belongs to
several panels, and which one carries the support or load changes the
internal actions of the hinges at that vertex. A load with ``panel=None`` is
shared equally by all panels at the vertex.
"""
from dataclasses import dataclass, field, replace

import numpy as np

from ..crease.pattern import CreasePattern
from ..tools.errors import StructureError
from . import hinges
from .boundary import Load, Support, loads_from_text, select, supports_from_text
from .hinges import DOOR, SLIDING

@dataclass(frozen=True)
class Structure:
    """A thick-origami structure (0-based indices throughout).

    thickness : per-panel thickness (length); density : mass per volume.
    placement : where each panel's volume sits (:class:`~chrono_origami.structure.solids.Placement`; None: mid).
    gravity : optional acceleration vector (global frame) giving panel weights.
    """

    pattern: CreasePattern
    hinge_kinds: tuple = None
    thickness: tuple = None
    density: float = 1.0
    supports: tuple = ()
    loads: tuple = ()
    gravity: tuple = None
    name: str = "structure"
    notes: dict = field(default_factory=dict, compare=False)
    placement: object = None

    def __post_init__(self):
        pat = self.pattern
        if not isinstance(pat, CreasePattern):
            raise StructureError("pattern must be a CreasePattern")
        H = len(pat.hinges)
        kinds = (DOOR,) * H if self.hinge_kinds is None else tuple(self.hinge_kinds)
        if len(kinds) != H:
            raise StructureError(f"hinge_kinds has {len(kinds)} entries, the pattern has {H} hinges")
        for h, k in enumerate(kinds):
            if not (isinstance(k, str) and k in hinges.names()):
                raise StructureError(f"hinge {h + 1} has kind {k!r}; expected {hinges.expected()}")
        object.__setattr__(self, "hinge_kinds", kinds)
        object.__setattr__(self, "_kinds", tuple(hinges.get(k) for k in kinds))
        th = self.thickness
        if th is None:
            th = (0.0,) * pat.n_panels
        elif np.isscalar(th):
            th = (float(th),) * pat.n_panels
        th = tuple(float(x) for x in th)
        if len(th) != pat.n_panels:
            raise StructureError(f"thickness has {len(th)} entries, the pattern has {pat.n_panels} panels")
        for p, x in enumerate(th):
            if not np.isfinite(x) or x < 0:
                raise StructureError(f"panel {p + 1} has invalid thickness {x}")
        object.__setattr__(self, "thickness", th)
        from .solids import Placement

        if self.placement is not None and not isinstance(self.placement, Placement):
            raise StructureError(f"placement must be a Placement, got {self.placement!r}")
        if not (np.isfinite(self.density) and self.density >= 0):
            raise StructureError(f"density must be a non-negative number, got {self.density}")
        sups = tuple(self.supports)
        seen = set()
        for k, s in enumerate(sups):
            self._check_vertex_panel("support", k, s.vertex, s.panel)
            if not s.dofs or set(s.dofs) - set("xyz") or len(set(s.dofs)) != len(s.dofs):
                raise StructureError(f"support {k + 1} at vertex {s.vertex + 1}: dofs must be a non-empty subset of 'xyz', got {s.dofs!r}")
            piece = int(self.pattern.piece_of[s.panel])     # pieces meeting at a vertex are held there apart
            for d in s.dofs:
                if (s.vertex, d, piece) in seen:
                    raise StructureError(f"vertex {s.vertex + 1} is supported twice in direction {d}")
                seen.add((s.vertex, d, piece))
        object.__setattr__(self, "supports", sups)
        loads = tuple(self.loads)
        for k, ld in enumerate(loads):
            self._check_vertex_panel("load", k, ld.vertex, ld.panel, allow_none=True)
            f = np.asarray(ld.force, dtype=float)
            if f.shape != (3,) or not np.all(np.isfinite(f)):
                raise StructureError(f"load {k + 1} at vertex {ld.vertex + 1}: force must be 3 finite numbers, got {ld.force!r}")
        object.__setattr__(self, "loads", loads)
        if self.gravity is not None:
            g = np.asarray(self.gravity, float)
            if g.shape != (3,) or not np.all(np.isfinite(g)):
                raise StructureError(f"gravity must be 3 finite numbers, got {self.gravity!r}")

    def _check_vertex_panel(self, what, k, v, p, allow_none=False):
        pat = self.pattern
        if not (isinstance(v, (int, np.integer)) and 0 <= v < pat.n_vertices):
            raise StructureError(f"{what} {k + 1}: vertex {v if not isinstance(v, (int, np.integer)) else v + 1} does not exist ({pat.n_vertices} vertices)")
        if p is None and allow_none:
            return
        if not (isinstance(p, (int, np.integer)) and 0 <= p < pat.n_panels):
            raise StructureError(f"{what} {k + 1} at vertex {v + 1}: panel {p if not isinstance(p, (int, np.integer)) else p + 1} does not exist ({pat.n_panels} panels)")
        if v not in pat.panels[p]:
            raise StructureError(
                f"{what} {k + 1}: vertex {v + 1} is not a vertex of panel {p + 1} "
                f"(its panels are {[q + 1 for q in pat.vertex_panels[v]]})")

    # ------------------------------------------------------------------ helpers
    @property
    def kinds(self):
        """The :class:`~chrono_origami.structure.hinges.HingeKind` record of every hinge, in hinge order (as registered
        when the structure was made)."""
        return self._kinds

    @property
    def n_sliding(self):
        """Number of sliding hinges."""
        return sum(k == SLIDING for k in self.hinge_kinds)

    def with_hinge_kinds(self, kinds):
        return self._same_solids(replace(self, hinge_kinds=tuple(kinds)))

    def _same_solids(self, other):
        """``other``, a copy of this structure with the same panels, thickness, density, placement and target
        angles (its solids), given this one's mass properties if they were computed
        (``properties.structure_mass_properties``), so that they are not computed again."""
        cached = self.__dict__.get("_mass_properties")
        if cached is not None:
            object.__setattr__(other, "_mass_properties", cached)
        return other

    def with_pattern(self, pattern):
        return replace(self, pattern=pattern)

    # ------------------------------------------------------- supports and loads (1-based text forms)
    def select(self, selector):
        """0-based indices (sorted array) of the vertices a selector names, e.g. ``"min-z"`` or ``"1,4,7-9"``
        (the selector language of :mod:`chrono_origami.boundary`)."""
        return select(self.pattern, selector)

    def origins(self, what):
        """Where each support (``what="supports"``) or load (``"loads"``) came from: "file", "--support",
        "proposed", ... ("given" when not recorded)."""
        items = getattr(self, what)
        known = list(self.notes.get("origins", {}).get(what, ()))
        return tuple(known[:len(items)] + ["given"] * (len(items) - len(known)))

    def with_supports(self, *supports, replace=False, origin="added"):
        """A new structure with more supports (``replace=True``: these instead of the present ones).

        Each item is a :class:`Support` (0-based) or a text form ``"SELECTOR:DOFS[:pP]"`` (1-based, as on the
        command line; :mod:`chrono_origami.boundary`), e.g. ``"min-z:xyz"``, ``"4:xz:p2"``. ``origin`` labels
        them in printed lists. A vertex held twice in one direction on one piece (panels joined by hinges) is
        an error; pieces that meet at a vertex are held there each on its own.
        """
        return self._added("supports", Support, supports_from_text, supports, replace, origin)

    def with_loads(self, *loads, replace=False, origin="added"):
        """A new structure with more point loads (``replace=True``: these instead of the present ones).

        Each item is a :class:`Load` (0-based) or a text form ``"SELECTOR:FX,FY,FZ[:pP]"`` (1-based; every
        selected vertex takes the whole force; without ``:pP`` it is shared by the panels at the vertex).
        """
        return self._added("loads", Load, loads_from_text, loads, replace, origin)

    def _added(self, what, record, from_text, items, replace_them, origin):
        """The structure with ``items`` (records or text forms) added to (or replacing) its supports or loads."""
        new = []
        for item in items:
            new += [item] if isinstance(item, record) else list(from_text(self.pattern, item))
        notes = dict(self.notes)
        origins = dict(notes.get("origins", {}))
        origins[what] = (() if replace_them else self.origins(what)) + (origin,) * len(new)
        notes["origins"] = origins
        kept = () if replace_them else getattr(self, what)
        return self._same_solids(replace(self, **{what: tuple(kept) + tuple(new)}, notes=notes))

    def with_self_weight(self, gravity=(0.0, 0.0, -9.81), thickness=None, density=None):
        """A new structure whose panels weigh density x thickness x area under ``gravity`` (acceleration, global
        frame; the default is 9.81 along -z, SI units). ``thickness`` (a number or one per panel) and
        ``density`` replace the structure's when given. Panels of zero thickness weigh nothing: an error when all
        of them have none (a self-weight of zero is not what was asked for)."""
        st = replace(self, gravity=tuple(float(g) for g in gravity),
                     thickness=self.thickness if thickness is None else thickness,
                     density=self.density if density is None else float(density), notes=dict(self.notes))
        if not any(st.thickness):
            raise StructureError("self-weight: every panel has zero thickness (give a thickness: "
                                 "faces_origami:thickness in the file, or thickness=)")
        if st.density == 0:
            raise StructureError("self-weight: the density is 0 (give a density: origami:density in the file, "
                                 "or density=)")
        return st

    def panel_loads(self):
        """Point forces per panel: list of (panel, point, force) in the global frame.

        Shared loads are split equally among the vertex's panels; gravity gives
        each panel its weight (density x its solid's volume) at its centre of mass.
        """
        pat = self.pattern
        out = []
        for ld in self.loads:
            f = np.asarray(ld.force, float)
            x = pat.vertices[ld.vertex]
            if ld.panel is None:
                ps = pat.vertex_panels[ld.vertex]
                for p in ps:
                    out.append((p, x, f / len(ps)))
            else:
                out.append((ld.panel, x, f))
        if self.gravity is not None:
            from .properties import structure_mass_properties

            g = np.asarray(self.gravity, float)
            masses, coms, _ = structure_mass_properties(self)
            for p in range(pat.n_panels):
                if masses[p] > 0:
                    out.append((p, coms[p], masses[p] * g))
        return out

    def __repr__(self):
        kinds = ", ".join(f"{n} {k.name}" for k, n in hinges.census(self.hinge_kinds))
        return (f"Structure({self.name!r}: {self.pattern.n_panels} panels, {len(self.hinge_kinds)} hinges "
                f"({kinds}), {len(self.supports)} supports, {len(self.loads)} loads)")
