"""SVG crease patterns (Origami Simulator's colour convention) as FOLD dictionaries.

Colours (the stroke; any CSS spelling of these RGB values):

=========  =========  ====================================================
black      #000000    boundary "B"
red        #ff0000    mountain "M"
blue       #0000ff    valley "V"
green      #00ff00    cut "C" (also CSS "green", #008000, as Origami Simulator reads the name)
yellow     #ffff00    facet: a line inside a rigid face (``facets="facet"``, the faces
                      on its two sides are one face) or a flat crease "F" (``facets="crease"``)
magenta    #ff00ff    undriven hinge "U"
=========  =========  ====================================================

Editors write these colours loosely (#EE1032 for a mountain, #4379FF for a
valley, #231F20 for black), so a stroke is classified by its nearest
reference colour (:func:`line_type`): a dark stroke (no channel above
:data:`MAX_BLACK`) is black; a coloured one (its largest and smallest channel
at least :data:`MIN_CHROMA` apart) is the reference colour whose hue is
within :data:`HUE_TOL` degrees of its own (red 0, yellow 60, green 120, blue
240, magenta 300; orange, cyan and violet lie between and are not read);
greys, pale and other colours are left out and named. An element's own
``class`` (:data:`CLASSES`: ``mountain``, ``valley``, ``boundary``, ``flat``,
``unassigned``, ``cut``) or FOLD-style ``data-assignment`` ("M", "V", "B",
"F", "U", "C") gives its type whatever its colour: its own
``data-assignment`` first, then its own ``class``, then a
``data-assignment`` of a group around it (a layer of valleys).

A file whose lines give no crease (M, V, F or U), or in which more than
:data:`LOST_SHARE` of the stroked shapes are not read, is refused naming the
colours and elements left out (exit 1 on the command line): a reader that
silently loses creases would analyse another structure. Fewer losses are one
warning line.

Target fold angle: opacity x stroke-opacity x 180 degrees, negative for
mountains (FOLD sign), 0 on every other line (as Origami Simulator reads it;
the opacity of a group counts too, as it does on screen).

Elements: ``path`` (straight segments; a Bezier whose control points lie on
its chord is straight), ``line``, ``rect``, ``polygon`` and ``polyline``, with
their transforms, styles and CSS classes (``svgelements`` resolves them).
Curved segments in these colours are refused (panels are rigid); shapes in
other colours, and circles and ellipses, are left out with a warning.

Coordinates: the SVG's user units (before its viewBox scaling), with
FOLD (x, y) = SVG (x, -y): seen from +z the pattern looks as drawn, and the
face normals (+z) point to the viewer, so a valley folds toward the viewer.

Geometry (shapely/GEOS): endpoints closer than ``merge_tol`` x the sheet size
(the diagonal of the drawing's bounding box) merge, as Origami Simulator's
vertex merge tolerance does (real files miss by ~1e-3 px after rounding); an
endpoint that close to another line splits that line there; crossing lines
are split at their intersections; a straight run of one line through
vertices of no other line is one edge; the faces are the bounded faces of
the planar graph (:func:`chrono_origami.crease.faces.planar_faces`), less holes
drawn in black. A black or green line between two faces is a cut "C"; any
line on the outline of the sheet is boundary "B". Lines that bound no face
(dangling creases) are left out with a warning, and faces that fall into
several pieces joined by no crease are one warning line.
"""
import colorsys
import os
import warnings
import xml.etree.ElementTree as ET

import numpy as np
import shapely
import svgelements as se
from scipy.spatial import cKDTree

from ..tools.errors import MAX_MAGNITUDE, PatternError, SvgFileError
from . import faces as facelib

#: Default endpoint merge tolerance, as a fraction of the sheet size.
MERGE_RTOL = 1e-3
#: Stroke colour (hex RGB) -> line type.
COLOURS = {"#000000": "B", "#ff0000": "M", "#0000ff": "V", "#00ff00": "C", "#008000": "C",
           "#ffff00": "F", "#ff00ff": "U"}
#: Stroke colours within this many degrees of hue of a reference colour's hue are that colour's line type.
HUE_TOL = 25.0
#: A coloured stroke: its largest and smallest RGB channel at least this far apart (0 to 1).
MIN_CHROMA = 0.3
#: A black stroke: no RGB channel above this (0 to 1).
MAX_BLACK = 0.25
#: Hue (degrees) of each coloured line type's reference colour.
HUES = {"M": 0.0, "F": 60.0, "C": 120.0, "V": 240.0, "U": 300.0}
#: ``class`` names that give an element's line type (FOLD letters), whatever its colour.
CLASSES = {"mountain": "M", "valley": "V", "boundary": "B", "flat": "F", "unassigned": "U", "cut": "C"}
#: A file in which more than this share of the stroked shapes are not crease-pattern lines is refused.
LOST_SHARE = 0.5
#: Element types read (as svgelements names them).
ELEMENTS = {"Path": "path", "SimpleLine": "line", "Rect": "rect", "Polygon": "polygon", "Polyline": "polyline"}


def read_svg(path, merge_tol=None, facets="facet"):
    """The FOLD dictionary (a flat crease pattern, frame class "creasePattern") of an SVG crease pattern.

    ``merge_tol``: endpoint merge tolerance as a fraction of the sheet size
    (default :data:`MERGE_RTOL`). ``facets``: "facet" (yellow lines lie
    inside rigid faces and are left out) or "crease" (yellow lines are flat
    creases "F").
    """
    path = os.fspath(path)
    merge_tol = MERGE_RTOL if merge_tol is None else merge_tol
    if not (isinstance(merge_tol, (int, float)) and 0 <= merge_tol < 0.1):
        raise SvgFileError(f"{path}: merge_tol must be a fraction of the sheet size in [0, 0.1), got {merge_tol!r}")
    if facets not in ("facet", "crease"):
        raise SvgFileError(f"{path}: facets must be 'facet' or 'crease', got {facets!r}")
    segs, lost = _segments(path)
    if facets == "facet":
        segs = [s for s in segs if s[2] != "F"]
    if not segs:
        raise SvgFileError(f"{path}: no crease-pattern lines{_left_out(lost)}; {READ}")
    A = np.array([s[0] for s in segs])
    B = np.array([s[1] for s in segs])
    size = float(np.linalg.norm(np.vstack([A, B]).max(0) - np.vstack([A, B]).min(0)))
    if not np.isfinite(size) or size == 0:
        raise SvgFileError(f"{path}: the drawing has no extent (size {size})")
    tol = merge_tol * size
    graph = _Graph(path, A, B, [s[2] for s in segs], [s[3] for s in segs], [s[4] for s in segs],
                   [s[5] for s in segs], tol)
    return graph.fold(os.path.splitext(os.path.basename(path))[0], lost)


#: What the reader reads, for its messages.
READ = (f"read: path, line, rect, polygon, polyline stroked black, red, blue, green, yellow or magenta (within "
        f"{HUE_TOL:g} deg of their hue), or with class {'|'.join(CLASSES)} or data-assignment M|V|B|F|U|C")


def line_type(colour):
    """FOLD letter of a stroke colour ("#rrggbb"): its reference colour's (the table above), black for a dark
    stroke, the coloured line type within :data:`HUE_TOL` degrees of hue; None for a colour no line type has."""
    colour = colour.lower()
    if colour in COLOURS:
        return COLOURS[colour]
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    hi, lo = max(r, g, b), min(r, g, b)
    if hi <= MAX_BLACK:
        return "B"
    if hi - lo < MIN_CHROMA:
        return None
    hue = 360.0 * colorsys.rgb_to_hsv(r, g, b)[0]
    gap, kind = min((abs((hue - h + 180.0) % 360.0 - 180.0), k) for k, h in HUES.items())
    return kind if gap <= HUE_TOL else None


def _marked_type(e, label):
    """The line type an element's marks give, or None: its own ``data-assignment``, else its own ``class``, else a
    ``data-assignment`` of a group around it."""
    own = e.values.get("attributes") or {}
    found = {CLASSES[c] for c in str(e.values.get("class") or "").lower().split() if c in CLASSES}
    if len(found) > 1:
        raise SvgFileError(f"{label}: class {e.values.get('class')!r} names two line types "
                           f"({', '.join(sorted(found))})")
    letter = e.values.get("data-assignment")
    if found and "data-assignment" not in own:
        return found.pop()
    if letter is not None:
        letter = str(letter).strip()
        if letter.upper() not in "MVBFUC" or len(letter) != 1:
            raise SvgFileError(f"{label}: data-assignment must be one of M, V, B, F, U, C (FOLD's letters), "
                               f"got {letter!r}")
        return letter.upper()
    return None


def _shapes(lost):
    """"#808080 (2), <circle> (1)": the shapes left out, by colour or element, with their numbers."""
    return ", ".join(f"{k} ({n})" for k, n in sorted(lost.items()))


def _left_out(lost):
    """", left out: #808080 (2), <circle> (1)" of the shapes left out, or ""."""
    return f", left out: {_shapes(lost)}" if lost else ""


# ------------------------------------------------------------------------------ parsing
def _fraction(value, label, what):
    if value is None:
        return 1.0
    s = str(value).strip()
    try:
        x = float(s[:-1]) / 100 if s.endswith("%") else float(s)
    except ValueError:
        raise SvgFileError(f"{label}: {what} must be a number, got {s!r}") from None
    if not np.isfinite(x):
        raise SvgFileError(f"{label}: {what} must be a finite number, got {s!r}")
    return min(max(x, 0.0), 1.0)


def _segments(path):
    """[(start, end, type, opacity, label, curve control points)] of the lines in our colours (user units)."""
    try:
        svg = se.SVG.parse(path, reify=True)
    except FileNotFoundError:
        raise SvgFileError(f"{path}: no such SVG file") from None
    except ET.ParseError as e:
        raise SvgFileError(f"{path}: not valid SVG (XML: {e})") from None
    except (OSError, UnicodeDecodeError) as e:
        raise SvgFileError(f"{path}: cannot read the SVG file ({e})") from None
    except (ValueError, TypeError, IndexError, KeyError, AttributeError, ZeroDivisionError, OverflowError) as e:
        raise SvgFileError(f"{path}: not a readable SVG drawing ({type(e).__name__}: {e})") from None
    except LookupError as e:   # the XML declaration names an encoding Python does not know
        raise SvgFileError(f"{path}: cannot read the SVG file ({e})") from None
    if not isinstance(svg, se.SVG):
        raise SvgFileError(f"{path}: not an SVG drawing: the root element is not <svg> in the SVG namespace "
                           f"(xmlns=\"http://www.w3.org/2000/svg\")")
    try:
        inv = ~se.Matrix(svg.viewbox_transform) if getattr(svg, "viewbox_transform", None) else se.Matrix()
    except ZeroDivisionError:
        raise SvgFileError(f"{path}: the <svg> element's viewBox {svg.values.get('viewBox')!r} (width "
                           f"{svg.values.get('width')!r}, height {svg.values.get('height')!r}) maps the drawing "
                           f"onto a line or a point") from None
    out, ignored, count, stroked = [], {}, {}, 0
    for e in svg.elements():
        if not isinstance(e, se.Shape):
            continue
        kind_name = type(e).__name__
        tag = ELEMENTS.get(kind_name, kind_name.lower())
        count[tag] = count.get(tag, 0) + 1
        label = f"{path}: <{tag}> {count[tag]}" + (f" (id {e.id!r})" if e.id else "")
        marked = _marked_type(e, label)
        stroke = e.stroke
        if marked is None and (stroke is None or stroke.value is None):
            continue   # no stroke: a fill, not a line
        stroked += 1
        if marked is None and str(e.values.get("stroke", "")).strip().lower().startswith("url("):
            ignored["a paint server (url)"] = ignored.get("a paint server (url)", 0) + 1
            continue
        colour = None if marked is not None else se.Color(stroke).hexrgb.lower()
        kind = marked if marked is not None else line_type(colour)
        if kind is None or kind_name not in ELEMENTS:
            ignored.setdefault(colour if kind is None else f"<{tag}>", 0)
            ignored[colour if kind is None else f"<{tag}>"] += 1
            continue
        opacity = _fraction(e.values.get("opacity"), label, "opacity") * \
            _fraction(e.values.get("stroke-opacity"), label, "stroke-opacity")
        try:
            segments = list((se.Path(e) * inv).segments())
        except (ValueError, TypeError, ZeroDivisionError, OverflowError) as ex:
            raise SvgFileError(f"{label}: cannot read its geometry ({ex})") from None
        for g in segments:
            if isinstance(g, se.Move) or g.start is None or g.end is None:
                continue
            p, q = (float(g.start.x), -float(g.start.y)), (float(g.end.x), -float(g.end.y))
            if not all(np.isfinite(p + q)):
                raise SvgFileError(f"{label}: has a non-finite coordinate")
            big = max(abs(c) for c in p + q)
            if big > MAX_MAGNITUDE:
                raise SvgFileError(f"{label}: has a coordinate of magnitude {big:.3g}, beyond the largest accepted "
                                   f"{MAX_MAGNITUDE:g}")
            if isinstance(g, (se.Line, se.Close)):
                controls = ()
            elif isinstance(g, (se.QuadraticBezier, se.CubicBezier)):
                ctl = [g.control] if isinstance(g, se.QuadraticBezier) else [g.control1, g.control2]
                controls = tuple((float(c.x), -float(c.y)) for c in ctl)
            else:
                raise SvgFileError(f"{label}: has a curved segment ({type(g).__name__}); the lines of a crease "
                                   f"pattern of rigid panels are straight")
            if p != q:
                out.append((p, q, kind, opacity, label, controls))
    if ignored and out:   # (no line at all: read_svg names what was left out)
        lost = sum(ignored.values())
        if lost > LOST_SHARE * stroked:
            raise SvgFileError(f"{path}: {lost} of its {stroked} stroked shapes are not crease-pattern lines (more "
                               f"than {LOST_SHARE:.0%}){_left_out(ignored)}; {READ}")
        warnings.warn(f"{path}: left out shapes that are not crease-pattern lines: {_shapes(ignored)} "
                      f"({READ})", stacklevel=3)
    return out, ignored


# ------------------------------------------------------------------------------ the planar graph
class _Graph:
    """Segments -> merged, noded planar graph -> faces -> FOLD dictionary."""

    def __init__(self, path, A, B, kinds, opacity, labels, controls, tol):
        self.path, self.tol = path, tol
        for p, q, ctl, label in zip(A, B, controls, labels):
            for c in ctl:   # a Bezier is straight when its control points lie on its chord
                if _distance_to_segment(np.array(c), p, q) > tol:
                    raise SvgFileError(f"{label}: has a curved segment (a Bezier from {_xy(p)} to {_xy(q)}); "
                                       f"the lines of a crease pattern of rigid panels are straight")
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
                    raise SvgFileError(f"{self.labels[first]} and {self.labels[o]} overlap along "
                                       f"{_xy(V[u])}-{_xy(V[w])} with different line types or angles "
                                       f"({self.kinds[first]} {self.angles[first]:g} deg, {self.kinds[o]} "
                                       f"{self.angles[o]:g} deg)")
                near.append((first, o))
            edges.append([u, w, first])
        if near:
            a, b = near[0]
            warnings.warn(f"{self.path}: {len(near)} piece(s) of line lie within the merge tolerance "
                          f"({self.tol:.3g} drawing units, merge_tol= x the sheet size) of a line of another type or "
                          f"angle; the closer line was kept, e.g. {self.labels[a]} over {self.labels[b]}",
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
    def name_edge(self, k):
        u, w, s = self.edges[k]
        return f"the line {_xy(self.V[u])}-{_xy(self.V[w])} of {self.labels[s]}"

    def fold(self, title, lost=None):
        """The FOLD dictionary; ``lost``: the shapes left out by colour or element, for the messages."""
        V, edges = self.V, self.edges
        E = np.array([(u, w) for u, w, _ in edges])
        boundary = [self.kinds[s] in ("B", "C") for _, _, s in edges]   # holes: cut out or drawn as outline
        try:
            loops = facelib.planar_faces(V, E, boundary, name_edge=self.name_edge,
                                         name_vertex=lambda i: f"the point {_xy(V[i])}")
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
        creases = [k for k, n in kept if n == 2 and self.kinds[edges[k][2]] in "MVFU"]
        if not creases:
            gone = "" if not dangling else \
                f"; left out {len(dangling)} line(s) that bound no face, e.g. {self.name_edge(dangling[0][0])} " \
                f"(a larger merge_tol= joins line ends more than {self.tol:.3g} drawing units apart)"
            raise SvgFileError(f"{self.path}: no crease (a mountain, valley, flat or undriven line between two faces)"
                               f"{_left_out(lost)}{gone}; {READ}")
        n_pieces = facelib.components(len(loops), [sides[min(u, w), max(u, w)] for u, w, s in
                                                   (edges[k] for k in creases)]).max() + 1
        if n_pieces > 1:
            warnings.warn(f"{self.path}: the faces fall into {n_pieces} pieces joined by no crease (a black or green "
                          f"line between two faces is a cut); each piece is held and folds on its own", stacklevel=3)
        if dangling:
            k = dangling[0][0]
            warnings.warn(f"{self.path}: left out {len(dangling)} line(s) that bound no face (dangling creases), "
                          f"e.g. {self.name_edge(k)}", stacklevel=3)
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
            "file_creator": "chrono-origami (from SVG)",
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


def _xy(p):
    return f"({p[0] + 0.0:.6g}, {-p[1] + 0.0:.6g})"   # SVG coordinates (user units), as in the file
