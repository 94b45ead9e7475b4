"""Crease patterns: vertices, panels, and the edges and hinges they imply.

Numbering
---------
Inside Python everything is 0-based: ``vertices[i]``, ``panels[p]``,
``hinges[h]``. Everything a person reads (tables, CSV, error messages) is
1-based, like the paper: vertex ``i`` is printed as ``i + 1``.

Orientation
-----------
A panel is a loop of vertex indices. Its normal m follows the right-hand rule
on the loop. Neighbouring panels must be oriented consistently: a shared edge
is run in opposite directions by the two panels.

``normal_rule`` says how m is computed: ``"newell"`` (default), Newell's mean
normal of the loop; ``"first-three"``, the normal of the plane through the
loop's first three vertices. They agree on planar panels; on slightly
non-planar data (within ``planarity_rtol``) they differ, and with them the
hinge frames {n, t, m} in which hinge actions are reported.

Vertices are identified by index, as in FOLD: two vertices at the same point
are distinct and join nothing (a folded form has them where faces or flaps
touch, a cut net where its cut edges meet again). Only shared indices make
hinges.

Hinges
------
Edges shared by exactly two panels are hinges; edges of one panel are boundary
edges. The hinge order is the order of ``edges`` when given (as in a FOLD
file's ``edges_vertices``), otherwise the order in which edges first appear
when walking the panels' loops in panel order. ``Hinge.panels`` lists the
panel that runs the edge as ``(a, b)`` first.
"""
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..tools.errors import PatternError
from ..tools.geometry import rotation_angle

#: Default planarity tolerance: largest distance of a panel vertex from the
#: panel's mean plane, as a fraction of the panel's largest vertex distance.
PLANARITY_RTOL = 1e-3
#: How panel normals are computed (see the module docstring).
NORMAL_RULES = ("newell", "first-three")
#: Edges shorter than this fraction of the pattern size have zero length.
COINCIDENCE_RTOL = 1e-9


@dataclass(frozen=True)
class Hinge:
    """An interior edge. ``vertices = (a, b)`` as run by ``panels[0]``."""

    index: int
    vertices: tuple
    panels: tuple


class CreasePattern:
    """Vertices (V x 3 array) and panels (vertex loops), validated on creation.

    Parameters
    ----------
    vertices : (V, 3) array_like
        Vertex coordinates in the global frame.
    panels : sequence of sequences of int
        0-based vertex loops, any polygon with at least three vertices.
    edges : sequence of (int, int), optional
        Explicit edge order (sets the hinge numbering). Must be exactly the
        set of panel edges.
    planarity_rtol : float
        See :data:`PLANARITY_RTOL`.
    normal_rule : str
        See :data:`NORMAL_RULES`.
    generic_mechanisms : int, optional
        Internal mechanisms of the pattern family at a generic (non-singular)
        folded state, when known from its kinematics (1 for Miura-ori, the
        square twist, the four-panel ring). Used by the counting rules; None
        means "the generic count of the pattern's graph".
    """

    def __init__(self, vertices, panels, edges=None, planarity_rtol=PLANARITY_RTOL, normal_rule="newell",
                 generic_mechanisms=None):
        V = np.asarray(vertices, dtype=float)
        if V.ndim != 2 or V.shape[1] != 3:
            raise PatternError(f"vertices must be an array of shape (V, 3), got shape {V.shape}")
        if not np.all(np.isfinite(V)):
            bad = int(np.argwhere(~np.isfinite(V))[0, 0])
            raise PatternError(f"vertex {bad + 1} has a non-finite coordinate: {V[bad].tolist()}")
        self.vertices = V
        self.vertices.setflags(write=False)
        self.panels = tuple(tuple(int(i) for i in loop) for loop in panels)
        self.planarity_rtol = float(planarity_rtol)
        if normal_rule not in NORMAL_RULES:
            raise PatternError(f"normal_rule must be one of {NORMAL_RULES}, got {normal_rule!r}")
        self.normal_rule = normal_rule
        if generic_mechanisms is not None and (int(generic_mechanisms) != generic_mechanisms or generic_mechanisms < 0):
            raise PatternError(f"generic_mechanisms must be a non-negative integer, got {generic_mechanisms!r}")
        self.generic_mechanisms = None if generic_mechanisms is None else int(generic_mechanisms)
        self._explicit_edges = None if edges is None else [tuple(int(i) for i in e) for e in edges]
        self._validate()

    # ------------------------------------------------------------------ derived
    @property
    def n_vertices(self):
        return len(self.vertices)

    @property
    def n_panels(self):
        return len(self.panels)

    @cached_property
    def edges(self):
        """All edges as sorted vertex pairs, in hinge-numbering order."""
        return [tuple(sorted(e)) for e in self._edge_order]

    @cached_property
    def edge_panels(self):
        """dict: sorted edge -> list of panels containing it."""
        d = {}
        for p, loop in enumerate(self.panels):
            for a, b in _loop_edges(loop):
                d.setdefault(tuple(sorted((a, b))), []).append(p)
        return d

    @cached_property
    def hinges(self):
        """Interior edges (shared by two panels), in numbering order."""
        out = []
        for e in self.edges:
            ps = self.edge_panels[e]
            if len(ps) == 2:
                p, q = ps
                a, b = e
                # orient (a, b) as run by the first panel, p
                if not _runs(self.panels[p], a, b):
                    a, b = b, a
                out.append(Hinge(len(out), (a, b), (p, q)))
        return out

    @cached_property
    def boundary_edges(self):
        return [e for e in self.edges if len(self.edge_panels[e]) == 1]

    @cached_property
    def interior_vertices(self):
        """Vertices not on any boundary edge."""
        on_boundary = {v for e in self.boundary_edges for v in e}
        return [v for v in range(self.n_vertices) if v not in on_boundary]

    @cached_property
    def piece_of(self):
        """array: panel -> its piece (0-based index into :attr:`pieces`)."""
        from .faces import components

        label = components(self.n_panels, [h.panels for h in self.hinges])
        first = np.full(label.max() + 1 if len(label) else 0, len(label))
        np.minimum.at(first, label, np.arange(len(label)))
        rank = np.empty_like(first)
        rank[np.argsort(first, kind="stable")] = np.arange(len(first))   # pieces in the order of their first panel
        return rank[label]

    @cached_property
    def pieces(self):
        """list: the pieces, panels joined by hinges, each a sorted array of panels (0-based), in the order of
        their first panel (one piece for a connected sheet)."""
        label = self.piece_of
        order = np.argsort(label, kind="stable")                    # panels by piece, each piece's in order
        return np.split(order, np.flatnonzero(np.diff(label[order])) + 1)

    @cached_property
    def vertex_panels(self):
        """list: vertex -> panels that contain it (panel order)."""
        out = [[] for _ in range(self.n_vertices)]
        for p, loop in enumerate(self.panels):
            for v in loop:
                out[v].append(p)
        return out

    def panel_points(self, p):
        return self.vertices[list(self.panels[p])]

    def panel_normal(self, p):
        """Unit normal of panel p (right-hand rule on its loop; Newell's method or the first three vertices)."""
        return self.panel_normals[p]

    @cached_property
    def panel_normals(self):
        """(P x 3) unit normals of every panel (see :meth:`panel_normal`), computed at once."""
        return panel_normals(self.vertices, self.panels, self.normal_rule)

    def panel_centroid(self, p):
        return self.panel_points(p).mean(axis=0)

    @cached_property
    def size(self):
        """Characteristic length: diagonal of the bounding box."""
        return float(np.linalg.norm(self.vertices.max(0) - self.vertices.min(0)))

    def with_vertices(self, vertices):
        """Same topology and hinge numbering, new coordinates."""
        return CreasePattern(vertices, self.panels, self.edges, self.planarity_rtol, self.normal_rule,
                             self.generic_mechanisms)

    # --------------------------------------------------------------- validation
    def _validate(self):
        V = self.vertices
        nv = len(V)
        if nv == 0:
            raise PatternError("the pattern has no vertices")
        if len(self.panels) == 0:
            raise PatternError("the pattern has no panels")
        for p, loop in enumerate(self.panels):
            if len(loop) < 3:
                raise PatternError(f"panel {p + 1} is degenerate: it has {len(loop)} vertices, needs at least 3")
            for v in loop:
                if v < 0:
                    raise PatternError(f"panel {p + 1} has a negative vertex index {v} (0-based indices, "
                                       f"from 0 to {nv - 1})")
                if v >= nv:
                    raise PatternError(f"panel {p + 1} refers to vertex {v + 1}, but there are {nv} vertices")
            if len(set(loop)) != len(loop):
                rep = [v + 1 for v in loop if loop.count(v) > 1][0]
                raise PatternError(f"panel {p + 1} is degenerate: vertex {rep} appears twice in its loop")
        scale = float(np.linalg.norm(V.max(0) - V.min(0))) or 1.0
        tol = COINCIDENCE_RTOL * scale
        used = {v for loop in self.panels for v in loop}
        unused = [v + 1 for v in range(nv) if v not in used]
        if unused:
            raise PatternError(f"vertex {unused[0]} is not used by any panel" + (f" (unused vertices: {unused})" if len(unused) > 1 else ""))
        # edges: more than two panels, zero length, orientation
        for e, ps in self.edge_panels.items():
            if len(ps) > 2:
                raise PatternError(
                    f"edge {e[0] + 1}-{e[1] + 1} is shared by more than two panels: {[q + 1 for q in ps]}")
        sides = np.array([ab for loop in self.panels for ab in _loop_edges(loop)])
        short = np.nonzero(np.linalg.norm(V[sides[:, 0]] - V[sides[:, 1]], axis=1) <= tol)[0]
        first_short = short[0] if len(short) else len(sides)
        owner = np.repeat(np.arange(len(self.panels)), [len(loop) for loop in self.panels]).tolist()
        directed = {}
        for (a, b), p in zip(sides[:first_short].tolist(), owner):
            if (a, b) in directed:
                q = directed[(a, b)]
                raise PatternError(
                    f"panels {q + 1} and {p + 1} have inconsistent orientation: both run edge "
                    f"{a + 1}->{b + 1} in the same direction (reverse one of the two loops)")
            directed[(a, b)] = p
        if len(short):
            a, b = sides[first_short]
            raise PatternError(f"edge {a + 1}-{b + 1} of panel {owner[first_short] + 1} has zero length")
        self._check_panels(V, tol)
        # explicit edge order
        implied = {tuple(sorted(e)) for e in self.edge_panels}
        if self._explicit_edges is None:
            order, seen = [], set()
            for loop in self.panels:
                for a, b in _loop_edges(loop):
                    e = tuple(sorted((a, b)))
                    if e not in seen:
                        seen.add(e)
                        order.append(e)
            self._edge_order = order
        else:
            order = []
            seen = set()
            for k, e in enumerate(self._explicit_edges):
                if len(e) != 2:
                    raise PatternError(f"edge {k + 1} must have two vertices, got {list(e)}")
                if min(e) < 0:
                    raise PatternError(f"edge {k + 1} has a negative vertex index {min(e)} (0-based indices, "
                                       f"from 0 to {nv - 1})")
                s = tuple(sorted(e))
                if s not in implied:
                    raise PatternError(f"edge {k + 1} ({e[0] + 1}-{e[1] + 1}) is not a side of any panel")
                if s in seen:
                    raise PatternError(f"edge {k + 1} ({e[0] + 1}-{e[1] + 1}) is listed twice")
                seen.add(s)
                order.append(s)
            missing = implied - seen
            if missing:
                a, b = sorted(missing)[0]
                raise PatternError(f"panel side {a + 1}-{b + 1} is missing from the edge list")
            self._edge_order = order

    def _check_panels(self, V, tol):
        """Area, first-three rule and planarity of every panel (vectorised by loop length); names the first bad one."""
        by_len = {}
        for p, loop in enumerate(self.panels):
            by_len.setdefault(len(loop), []).append(p)
        errors = []
        for k, ps in by_len.items():
            ps = np.array(ps)
            L = np.array([self.panels[p] for p in ps])
            P = V[L]                                                # (n, k, 3)
            nrm = np.cross(P, np.roll(P, -1, axis=1)).sum(axis=1)   # Newell, twice the area
            size = np.linalg.norm(nrm, axis=1)
            diam = np.maximum(np.linalg.norm(P - P[:, :1], axis=2).max(axis=1), tol)
            flat = size <= 1e-9 * diam * diam
            if flat.any():
                errors.append((ps[flat][0], f"panel {ps[flat][0] + 1} is degenerate: zero area (its vertices are "
                                            f"collinear)"))
            if self.normal_rule == "first-three":
                c = np.cross(P[:, 1] - P[:, 0], P[:, 2] - P[:, 1])
                bad = ~flat & ((c * nrm).sum(axis=1) <= 1e-9 * diam * diam * size)
                if bad.any():
                    j = np.nonzero(bad)[0][0]
                    first = [int(v) + 1 for v in L[j, :3]]
                    errors.append((ps[j], f"panel {ps[j] + 1}: its first three vertices {first} "
                                          f"are collinear or turn against the loop, so normal_rule='first-three' "
                                          f"cannot give its normal (start the loop at a convex corner)"))
            m = nrm / np.where(flat, 1.0, size)[:, None]
            dist = np.abs(((P - P.mean(axis=1, keepdims=True)) * m[:, None, :]).sum(axis=2))
            worst = dist.argmax(axis=1)
            dmax = dist[np.arange(len(ps)), worst]
            bad = ~flat & (dmax > self.planarity_rtol * diam)
            if bad.any():
                j = np.nonzero(bad)[0][0]
                errors.append((ps[j], f"panel {ps[j] + 1} is not planar: vertex {L[j, worst[j]] + 1} is "
                                      f"{dmax[j]:.3g} from the panel's mean plane, more than "
                                      f"{self.planarity_rtol:g} x panel size ({diam[j]:.3g})"))
        if errors:
            raise PatternError(min(errors, key=lambda e: e[0])[1])

    def __repr__(self):
        return (f"CreasePattern({self.n_vertices} vertices, {self.n_panels} panels, "
                f"{len(self.hinges)} hinges, {len(self.boundary_edges)} boundary edges)")


def panel_normals(vertices, panels, normal_rule="newell"):
    """(P x 3) unit normals of the vertex loops ``panels`` at ``vertices``: Newell's mean normal, or with
    ``normal_rule="first-three"`` the normal of the plane through each loop's first three vertices."""
    X = np.asarray(vertices, float)
    sizes = np.array([len(loop) for loop in panels])
    flat = np.fromiter((v for loop in panels for v in loop), dtype=np.int64, count=int(sizes.sum()))
    start = np.r_[0, np.cumsum(sizes)[:-1]]
    if normal_rule == "newell":
        nxt = np.arange(len(flat)) + 1
        nxt[np.cumsum(sizes) - 1] = start                 # each loop closes on its first vertex
        n = np.add.reduceat(np.cross(X[flat], X[flat[nxt]]), start, axis=0)
    else:
        a, b, c = X[flat[start]], X[flat[start + 1]], X[flat[start + 2]]
        n = np.cross(b - a, c - b)
    return n / np.linalg.norm(n, axis=1, keepdims=True)


def hinge_rotations(pattern, vertices=None, hinges=None):
    """Relative rotation (rad, in (-pi, pi]) of each hinge (0-based ``hinges``, default all, in hinge order) at
    ``vertices`` (default the pattern's): the angle turning the normal of its first panel p into that of its
    second q about t = (x_b - x_a) / |x_b - x_a|, (a, b) as run by p (right-hand rule; normals by the pattern's
    ``normal_rule``): ``tools.geometry.rotation_angle(t, m_p, m_q)``, 0 when flat.

    The one computation of a fold angle from coordinates. It is the driven angle of ``inputs.fold`` (from a flat
    start) as it is; the FOLD fold angle (``edges_foldAngle``: valley positive, degrees) is minus it in degrees.
    """
    X = pattern.vertices if vertices is None else np.asarray(vertices, float)
    H = [pattern.hinges[h] for h in (range(len(pattern.hinges)) if hinges is None else hinges)]
    if not H:
        return np.zeros(0)
    used = sorted({p for hg in H for p in hg.panels})
    row = {p: i for i, p in enumerate(used)}
    N = panel_normals(X, [pattern.panels[p] for p in used], pattern.normal_rule)
    a, b = (np.array([hg.vertices[k] for hg in H]) for k in (0, 1))
    t = X[b] - X[a]
    t /= np.linalg.norm(t, axis=1, keepdims=True)
    return rotation_angle(t, N[[row[hg.panels[0]] for hg in H]], N[[row[hg.panels[1]] for hg in H]])


def fold_angles(pattern, vertices=None, hinges=None):
    """FOLD fold angle (rad, ``edges_foldAngle``'s sign: valley positive, mountain negative) of each hinge
    (0-based ``hinges``, default all) at ``vertices`` (default the pattern's): minus :func:`hinge_rotations`."""
    return -hinge_rotations(pattern, vertices, hinges)


def _loop_edges(loop):
    n = len(loop)
    return [(loop[i], loop[(i + 1) % n]) for i in range(n)]


def _runs(loop, a, b):
    """True when the loop runs the edge a -> b."""
    return (a, b) in _loop_edges(loop)
