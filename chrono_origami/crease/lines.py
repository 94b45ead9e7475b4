"""Drawn crease-pattern lines (an SVG's strokes, an ORIPA file's lines) as a FOLD dictionary: the planar graph.

Each reader gives its straight segments with a line type (FOLD letters: "M",
"V", "B" outline or cut, "C" cut, "F" flat crease, "U" undriven hinge) and a
target fold angle; :func:`fold_of_lines` merges, nodes and closes them into
faces the same way for every format.

Coordinates: FOLD (x, y) with the pattern seen from +z as in the editor (the
SVG reader flips y, whose axis points down). Messages name points in the
file's own coordinates.

Geometry (shapely/GEOS): endpoints closer than ``merge_tol`` x the sheet size
(the diagonal of the drawing's bounding box) merge, as Origami Simulator's
vertex merge tolerance does (real files miss by ~1e-3 px after rounding); an
endpoint that close to another line splits that line there; crossing lines
are split at their intersections; a straight run of one line through
vertices of no other line is one edge; the faces are the bounded faces of
the planar graph (:func:`chrono_origami.crease.faces.planar_faces`), less holes
drawn as outline. An outline ("B") or cut ("C") line between two faces is a
cut "C"; any line on the outline of the sheet is boundary "B". Lines that
bound no face (dangling creases) are left out with a warning (naming the
``merge_tol`` that would join their ends where they miss another line by less
than :data:`NEAR_MISS` of the sheet's size, as hand-drawn ends do), and faces
that fall into several pieces joined by no crease are one warning line.
"""
import os
import warnings

import numpy as np
import shapely
from scipy.spatial import cKDTree

from ..tools.errors import PatternError, SvgFileError
from . import faces as facelib

#: Default endpoint merge tolerance, as a fraction of the sheet size.
MERGE_RTOL = 1e-3
#: Dangling lines whose free ends lie within this fraction of the sheet size of another line: the warning names the
#: merge tolerance that joins them.
NEAR_MISS = 0.01


def check_options(path, merge_tol, facets):
    """``merge_tol`` (None: :data:`MERGE_RTOL`), checked with ``facets`` before a file is parsed."""
    merge_tol = MERGE_RTOL if merge_tol is None else merge_tol
    if not (isinstance(merge_tol, (int, float)) and 0 <= merge_tol < 0.1):
        raise SvgFileError(f"{path}: merge_tol must be a fraction of the sheet size in [0, 0.1), got {merge_tol!r}")
    if facets not in ("facet", "crease"):
        raise SvgFileError(f"{path}: facets must be 'facet' or 'crease', got {facets!r}")
    return merge_tol


def fold_of_lines(path, segments, merge_tol=None, facets="facet", y_down=False, left_out="", read="",
                  cut_lines="an outline or cut line", groups=None):
    """The FOLD dictionary (a flat crease pattern, frame class "creasePattern") of drawn ``segments``: a list of
    (start (x, y), end, FOLD letter, target fold angle's fraction of 180 degrees (0 to 1), label naming the line
    in its file, Bezier control points of a segment drawn as a curve (empty for a line)).

    ``merge_tol``: endpoint merge tolerance as a fraction of the sheet size (default :data:`MERGE_RTOL`).
    ``facets``: "facet" ("F" lines lie inside rigid faces and are left out) or "crease" (flat creases "F").
    ``y_down``: the file's y axis points down (its coordinates in messages are (x, -y)). ``left_out``, ``read``:
    what the reader left out of the file and what it reads, for the messages; ``cut_lines``: the file's outline and
    cut lines in its own words ("a black or green line"). ``groups``: the stroke colour of each segment (None where
    its colour does not give its type), for a warning when every line of a crease colour lies on the sheet's outline
    (it looks like a boundary: ``colors=``).
    """
    path = str(path)
    merge_tol = check_options(path, merge_tol, facets)
    groups = [None] * len(segments) if groups is None else list(groups)
    if facets == "facet":
        groups = [g for g, s in zip(groups, segments) if s[2] != "F"]
        segments = [s for s in segments if s[2] != "F"]
    if not segments:
        raise SvgFileError(f"{path}: no crease-pattern lines{left_out}; {read}")
    A = np.array([s[0] for s in segments], float)
    B = np.array([s[1] for s in segments], float)
    size = float(np.linalg.norm(np.vstack([A, B]).max(0) - np.vstack([A, B]).min(0)))
    if not np.isfinite(size) or size == 0:
        raise SvgFileError(f"{path}: the drawing has no extent (size {size})")
    graph = _Graph(path, A, B, [s[2] for s in segments], [s[3] for s in segments], [s[4] for s in segments],
                   [s[5] for s in segments], merge_tol * size, y_down)
    graph.size, graph.groups = size, groups
    return graph.fold(os.path.splitext(os.path.basename(path))[0], left_out, read, cut_lines)


# ------------------------------------------------------------------------------ the planar graph
class _Graph:
    """Segments -> merged, noded planar graph -> faces -> FOLD dictionary."""

    def __init__(self, path, A, B, kinds, opacity, labels, controls, tol, y_down):
        self.path, self.tol, self.y_down = path, tol, y_down
        for p, q, ctl, label in zip(A, B, controls, labels):
            for c in ctl:   # a Bezier is straight when its control points lie on its chord
                if _distance_to_segment(np.array(c), p, q) > tol:
                    raise SvgFileError(f"{label}: has a curved segment (a Bezier from {self.xy(p)} to "
                                       f"{self.xy(q)}); the lines of a crease pattern of rigid panels are straight")
        self.kinds = list(kinds)
        self.angles = [(-1 if k == "M" else 1) * 180.0 * o if k in "MV" else 0.0 for k, o in zip(kinds, opacity)]
        self.labels = list(labels)
        self.drawn = shapely.linestrings(np.stack([A, B], axis=1))
        V, idx = _merge(np.vstack([A, B]), tol)
        n = len(A)
        src = [(int(a), int(b), s) for s, (a, b) in enumerate(zip(idx[:n], idx[n:])) if a != b]
        if not src:
            raise SvgFileError(f"{path}: every line is shorter than the merge tolerance ({tol:.3g} drawing units, "
                               f"merge_tol x the drawing's size): the lines enclose no face")
        V, src = self._split_at_vertices(V, src)
        V, edges = self._node(V, src)
        self.V, self.edges = V, edges
        self._join_straight_runs()

    # ---- steps
    def _split_at_vertices(self, V, src):
        """An endpoint within tol of another segment's interior splits that segment there (and moves onto it)."""
        E = np.array([(a, b) for a, b, _ in src])
        lines = shapely.linestrings(V[E])
        vi, si = shapely.STRtree(lines).query(shapely.points(V), predicate="dwithin", distance=self.tol)
        inner = (vi != E[si, 0]) & (vi != E[si, 1])
        cuts = {}
        V = V.copy()
        for v, s in zip(vi[inner], si[inner]):
            cuts.setdefault(int(s), []).append(int(v))
            p, q = V[E[s, 0]], V[E[s, 1]]   # onto the line: a straight line stays straight
            V[v] = p + np.clip((V[v] - p) @ (q - p) / ((q - p) @ (q - p)), 0.0, 1.0) * (q - p)
        out = []
        for s, (a, b, origin) in enumerate(src):
            if s not in cuts:
                out.append((a, b, origin))
                continue
            along = shapely.line_locate_point(lines[s], shapely.points(V[cuts[s]]))
            chain = [a] + [cuts[s][i] for i in np.argsort(along)] + [b]
            out += [(u, w, origin) for u, w in zip(chain, chain[1:]) if u != w]
        return V, out

    def _node(self, V, src):
        """Split crossing segments at their intersections (GEOS noding); edges carry their source segments."""
        E = np.array([(a, b) for a, b, _ in src])
        noded = shapely.get_parts(shapely.node(shapely.multilinestrings(shapely.linestrings(V[E]))))
        coords = [shapely.get_coordinates(g) for g in noded]
        pts = np.vstack([c for c in coords])
        tree = cKDTree(V)
        d, near = tree.query(pts)
        new = d > self.tol
        if new.any():   # intersection points: merge them among themselves and number them after V
            W, widx = _merge(pts[new], self.tol)
            near = near.copy()
            near[new] = len(V) + widx
            V = np.vstack([V, W])
        pieces, k = [], 0
        for c in coords:
            ids = near[k:k + len(c)]
            k += len(c)
            pieces += [(int(u), int(w)) for u, w in zip(ids, ids[1:]) if u != w]
        pieces = list(dict.fromkeys((min(u, w), max(u, w)) for u, w in pieces))
        # each piece lies along its source segments (both ends within tol of them)
        P = np.array(pieces)
        mid = shapely.points(0.5 * (V[P[:, 0]] + V[P[:, 1]]))
        src_lines = shapely.linestrings(V[E])
        pi, si = shapely.STRtree(src_lines).query(mid, predicate="dwithin", distance=self.tol)
        drawn = self.drawn[[src[s][2] for s in si]]   # the lines as drawn, before merging and splitting
        fit = np.maximum(shapely.distance(shapely.points(V[P[pi, 0]]), drawn),
                         shapely.distance(shapely.points(V[P[pi, 1]]), drawn))
        owner = {}
        for p, s, f in zip(pi, si, fit):
            if f <= self.tol:
                owner.setdefault(int(p), []).append((float(f), src[s][2]))
        edges, near = [], []
        for p, (u, w) in enumerate(pieces):
            origins = sorted(owner.get(p, ()))
            if not origins:
                continue   # cannot happen for noded input; a stray piece is left out
            (f0, first) = origins[0]
            for f, o in origins[1:]:
                # lines that run within tol of each other: the closer one wins, unless both lie on the piece
                if (self.kinds[o], self.angles[o]) == (self.kinds[first], self.angles[first]):
                    continue
                if f <= 1e-6 * self.tol:
                    raise SvgFileError(f"{self.labels[first]} and {self.element(o)} overlap along "
                                       f"{self.xy(V[u])}-{self.xy(V[w])} with different line types or angles "
                                       f"({self.kinds[first]} {self.angles[first]:g} deg, {self.kinds[o]} "
                                       f"{self.angles[o]:g} deg)")
                near.append((first, o))
            edges.append([u, w, first])
        if near:
            a, b = near[0]
            warnings.warn(f"{self.path}: {len(near)} piece(s) of line lie within the merge tolerance "
                          f"({self.tol:.3g} drawing units, merge_tol= x the sheet size) of a line of another type or "
                          f"angle; the closer line was kept, e.g. {self.element(a)} over {self.element(b)}",
                          stacklevel=4)
        return V, edges

    def _join_straight_runs(self):
        """A vertex of two edges of one line (same type and angle, in a straight line) is dropped."""
        V = self.V
        edges = {i: e for i, e in enumerate(self.edges)}
        at = {}
        for i, (u, w, _) in edges.items():
            at.setdefault(u, set()).add(i)
            at.setdefault(w, set()).add(i)
        for v in list(at):
            es = at.get(v, ())
            if len(es) != 2:
                continue
            i, j = es
            (a1, b1, s1), (a2, b2, s2) = edges[i], edges[j]
            if (self.kinds[s1], self.angles[s1]) != (self.kinds[s2], self.angles[s2]):
                continue
            p = a1 if b1 == v else b1
            q = a2 if b2 == v else b2
            if p == q or _distance_to_segment(V[v], V[p], V[q]) > self.tol or \
                    np.dot(V[p] - V[v], V[q] - V[v]) >= 0:
                continue
            del edges[i], edges[j]
            k = max(edges, default=-1) + 1 + len(self.edges)
            edges[k] = [p, q, s1]
            at[p] = (at[p] - {i}) | {k}
            at[q] = (at[q] - {j}) | {k}
            del at[v]
        used = sorted(at)
        renumber = {v: n for n, v in enumerate(used)}
        self.V = V[used]
        self.edges = [[renumber[u], renumber[w], s] for u, w, s in edges.values()]

    # ---- faces and the FOLD dictionary
    def xy(self, p):
        """A point in the file's own coordinates (y down in an SVG), as a user finds it there."""
        return f"({p[0] + 0.0:.6g}, {(-p[1] if self.y_down else p[1]) + 0.0:.6g})"

    def element(self, s):
        """The label of line ``s`` without the file's name (a message that names the file once)."""
        head = f"{self.path}: "
        return self.labels[s][len(head):] if self.labels[s].startswith(head) else self.labels[s]

    def name_edge(self, k):
        u, w, s = self.edges[k]
        return f"the line {self.xy(self.V[u])}-{self.xy(self.V[w])} of {self.labels[s]}"

    def fold(self, title, left_out="", read="", cut_lines="an outline or cut line"):
        """The FOLD dictionary; ``left_out``, ``read``, ``cut_lines``: what was left out of the file, what the
        reader reads and what its outline and cut lines are, for the messages."""
        V, edges = self.V, self.edges
        E = np.array([(u, w) for u, w, _ in edges])
        boundary = [self.kinds[s] in ("B", "C") for _, _, s in edges]   # holes: cut out or drawn as outline
        try:
            loops = facelib.planar_faces(V, E, boundary, name_edge=self.name_edge,
                                         name_vertex=lambda i: f"the point {self.xy(V[i])}")
        except PatternError as e:
            raise SvgFileError(f"{self.path}: {e}") from None
        if not loops:
            raise SvgFileError(f"{self.path}: the lines enclose no face (is the sheet's outline closed? "
                               f"merge_tol = {self.tol:.3g} drawing units)")
        sides = facelib.edge_faces(loops)
        kept, dangling = [], []
        for k, (u, w, s) in enumerate(edges):
            n = len(sides.get((min(u, w), max(u, w)), ()))
            (kept if n else dangling).append((k, n))
        creases = [k for k, n in kept if n == 2 and self.kinds[edges[k][2]] in "MVFUJ"]
        misses = self._near_misses([k for k, _ in dangling])
        if not creases:
            gone = "" if not dangling else \
                f"; left out {len(dangling)} line(s) that bound no face, e.g. {self.name_edge(dangling[0][0])} " \
                f"(a larger merge_tol= joins line ends more than {self.tol:.3g} drawing units apart){misses}"
            raise SvgFileError(f"{self.path}: no crease (a mountain, valley, flat or undriven line between two faces)"
                               f"{left_out}{gone}; {read}")
        n_pieces = facelib.components(len(loops), [sides[min(u, w), max(u, w)] for u, w, s in
                                                   (edges[k] for k in creases)]).max() + 1
        if n_pieces > 1:
            warnings.warn(f"{self.path}: the faces fall into {n_pieces} pieces joined by no crease ({cut_lines} "
                          f"between two faces is a cut); each piece is held and folds on its own", stacklevel=3)
        if dangling:
            k = dangling[0][0]
            warnings.warn(f"{self.path}: left out {len(dangling)} line(s) that bound no face (dangling creases), "
                          f"e.g. {self.name_edge(k)}{misses}", stacklevel=3)
        self._outline_colours(kept)
        used = sorted({v for loop in loops for v in loop})
        renumber = {v: i for i, v in enumerate(used)}
        ev, ea, ef = [], [], []
        for k, n in kept:
            u, w, s = edges[k]
            kind = self.kinds[s]
            ev.append([renumber[u], renumber[w]])
            if n == 1:
                ea.append("B")
                ef.append(0.0)
            else:
                ea.append("C" if kind in ("B", "C") else kind)
                ef.append(self.angles[s] + 0.0)
        d = {
            "file_spec": 1.2,
            "file_creator": f"chrono-origami (from {os.path.splitext(self.path)[1][1:].upper() or 'a drawing'})",
            "file_title": title,
            "file_classes": ["singleModel"],
            "frame_classes": ["creasePattern"],
            "frame_attributes": ["2D"] + (["cuts"] if "C" in ea else []),
            "vertices_coords": [[float(x), float(y)] for x, y in V[used]],
            "edges_vertices": ev,
            "edges_assignment": ea,
            "edges_foldAngle": ef,
            "faces_vertices": [[renumber[v] for v in loop] for loop in loops],
        }
        return d


    def _near_misses(self, dangling):
        """"; 3 of their ends miss another line by at most 0.0028 of the sheet's size: merge_tol= 0.004 joins them"
        for the free ends of the ``dangling`` edges within :data:`NEAR_MISS` of the sheet's size of another line, or
        ""."""
        if not dangling:
            return ""
        degree = np.bincount(np.array([(u, w) for u, w, _ in self.edges]).ravel(), minlength=len(self.V))
        ends = sorted({v for k in dangling for v in self.edges[k][:2] if degree[v] == 1})
        if not ends:
            return ""
        lines_ = shapely.linestrings(self.V[np.array([(u, w) for u, w, _ in self.edges])])
        vi, ei = shapely.STRtree(lines_).query(shapely.points(self.V[ends]), predicate="dwithin",
                                               distance=NEAR_MISS * self.size)
        gap = {}
        for i, k in zip(vi, ei):
            v = ends[i]
            if v in self.edges[k][:2]:
                continue
            d = float(shapely.distance(shapely.points(self.V[v]), lines_[k]))
            gap[v] = min(gap.get(v, np.inf), d)
        if not gap:
            return ""
        need = max(gap.values()) / self.size
        step = 10.0 ** np.floor(np.log10(1.2 * need))
        suggest = min(float(np.ceil(1.2 * need / step) * step), 0.099)
        return (f"; {len(gap)} of their ends miss another line by at most {need:.2g} of the sheet's size (within "
                f"{NEAR_MISS:.0%}): merge_tol= {suggest:g} joins them")

    def _outline_colours(self, kept):
        """One warning for each colour read as a crease (M, V, F, U, J) whose every line lies on the sheet's
        outline: it looks like the file's boundary colour."""
        groups = getattr(self, "groups", None)
        if not groups:
            return
        on = {}
        for k, n in kept:
            s = self.edges[k][2]
            if groups[s] is not None and self.kinds[s] not in ("B", "C"):   # an outline or cut: boundary there
                on.setdefault(groups[s], []).append((n, self.kinds[s]))
        for colour, sides in sorted(on.items()):
            if all(n == 1 for n, _ in sides):
                letters = "".join(sorted({kind for _, kind in sides}))
                warnings.warn(f"{self.path}: all {len(sides)} lines drawn {colour} (read as {letters}) lie on the "
                              f"sheet's outline: they look like a boundary; if the file draws its boundary in "
                              f"{colour}, give its colours with colors= '{colour}=B,...'", stacklevel=4)


def _merge(P, tol):
    """(points, index): points closer than tol (chains of them) become their mean."""
    pairs = cKDTree(P).query_pairs(tol, output_type="ndarray") if tol > 0 else np.zeros((0, 2), int)
    if len(pairs) == 0:
        uniq, idx = np.unique(P, axis=0, return_inverse=True)
        return uniq, idx.ravel()
    label = facelib.components(len(P), pairs)
    m = label.max() + 1
    W = np.zeros((m, 2))
    np.add.at(W, label, P)
    W /= np.bincount(label, minlength=m)[:, None]
    return W, label


def _distance_to_segment(x, p, q):
    d = q - p
    L2 = float(d @ d)
    t = 0.0 if L2 == 0 else min(max(float((x - p) @ d) / L2, 0.0), 1.0)
    return float(np.linalg.norm(x - (p + t * d)))
