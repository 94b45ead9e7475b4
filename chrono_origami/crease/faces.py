"""Faces of a crease pattern: found in a flat planar graph, merged across facet edges, split along cuts.

Topology on 0-based index lists, shared by the FOLD reader (``foldfile``) and
the SVG reader (``svg``). Faces are vertex loops; an edge is a sorted vertex
pair. Error messages name vertices, edges and faces through the ``name_*``
callables the caller passes (the FOLD reader names file keys, e.g.
``edges_vertices[3]``); the defaults print 1-based numbers.

* :func:`planar_faces`: the bounded faces of a flat straight-line graph, as
  FOLD's own tools compute them for a crease pattern without
  ``faces_vertices`` (noding and polygonizing by shapely/GEOS). Loops run
  counterclockwise in the given 2-D coordinates (normal +z of that plane).
* :func:`merge_faces`: faces joined across facet edges become one face (one
  rigid panel); the facet edges disappear.
* :func:`split_cuts`: along cut edges the faces are not connected: each vertex
  gets one copy per fan of faces that non-cut edges connect around it (FOLD:
  "C" edges are boundary edges, one per face, meeting again in slits).
"""
import numpy as np
import shapely
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components
from scipy.spatial import cKDTree

from ..tools.errors import PatternError

#: Points closer than this fraction of the graph size are one point (as ``pattern.COINCIDENCE_RTOL``).
POINT_RTOL = 1e-9


def components(n, pairs):
    """Component label of each of n nodes joined by ``pairs`` (scipy's connected components)."""
    pairs = np.asarray(pairs, int).reshape(-1, 2)
    g = coo_matrix((np.ones(len(pairs)), (pairs[:, 0], pairs[:, 1])), shape=(n, n))
    return connected_components(g, directed=False)[1]


def _one_based(what):
    return lambda i: f"{what} {i + 1}"


def loop_edges(loop):
    """Directed sides (a, b) of a vertex loop."""
    return list(zip(loop, loop[1:] + loop[:1]))


def edge_faces(faces):
    """dict: sorted vertex pair -> faces that have it as a side (face order)."""
    out = {}
    for f, loop in enumerate(faces):
        for a, b in loop_edges(loop):
            out.setdefault((a, b) if a < b else (b, a), []).append(f)
    return out


# ---------------------------------------------------------------------------------- planar faces
def planar_faces(points, edges, boundary=None, name_edge=None, name_vertex=None):
    """Bounded faces (counterclockwise vertex loops) of a flat straight-line graph.

    points : (V, 2) coordinates; edges : (E, 2) vertex indices; boundary :
    optional E booleans (boundary edges). A face whose sides are all boundary
    edges, each also a side of another face, is a hole in the sheet and is
    left out. Edges that bound no face (dangling lines) are in no loop.

    Raises :class:`PatternError` for two vertices at one point, an edge of zero
    length or listed twice, edges that cross or touch away from a shared
    vertex, and a face with a hole (panels are simple polygons).
    """
    P = np.asarray(points, float)
    E = np.asarray(edges, int).reshape(-1, 2)
    name_edge = name_edge or _one_based("edge")
    name_vertex = name_vertex or _one_based("vertex")
    if len(E) == 0:
        raise PatternError("the graph has no edges")
    used = np.unique(E)
    size = float(np.linalg.norm(P[used].max(0) - P[used].min(0))) or 1.0
    tol = POINT_RTOL * size
    pairs = cKDTree(P[used]).query_pairs(tol, output_type="ndarray")
    if len(pairs):
        i, j = sorted(int(x) for x in used[pairs[0]])
        raise PatternError(f"{name_vertex(i)} and {name_vertex(j)} are at one point {P[i].tolist()}: in a flat "
                           f"crease pattern each point is one vertex")
    seen = {}
    for k, (a, b) in enumerate(E):
        if a == b:
            raise PatternError(f"{name_edge(k)} joins {name_vertex(a)} to itself")
        key = (min(a, b), max(a, b))
        if key in seen:
            raise PatternError(f"{name_edge(k)} repeats {name_edge(seen[key])}")
        seen[key] = k
    lines = shapely.linestrings(P[E])
    _check_noded(P, E, lines, tol, name_edge, name_vertex)

    polygons = shapely.get_parts(shapely.polygonize_full(lines)[0])
    tree = cKDTree(P)
    rings = shapely.get_exterior_ring(polygons)
    loops = _ring_vertices(rings, tree, tol)
    holed = np.flatnonzero(shapely.get_num_interior_rings(polygons))
    if len(holed):
        p = holed[0]
        (hole,) = _ring_vertices(shapely.get_interior_ring(polygons[p:p + 1], 0), tree, tol)
        raise PatternError(f"the face with {name_vertex(loops[p][0])} has a hole bounded by {name_vertex(hole[0])} "
                           f"and the edges from it: a panel must be a simple polygon, and faces with holes "
                           f"are not supported")
    faces = [loop if ccw else loop[::-1] for loop, ccw in zip(loops, shapely.is_ccw(rings))]
    if boundary is not None:
        faces = _drop_holes(faces, E, np.asarray(boundary, bool))
    return faces


def _check_noded(P, E, lines, tol, name_edge, name_vertex):
    """Edges may meet only at shared end vertices."""
    i, j = shapely.STRtree(lines).query(lines, predicate="intersects")
    keep = i < j
    i, j = i[keep], j[keep]
    if not len(i):
        return
    a, b = E[i], E[j]
    shared = (a[:, :1] == b).any(1) | (a[:, 1:] == b).any(1)
    # sharing a vertex: they must meet only there, not overlap along a line (parallel, the same way)
    s = np.nonzero(shared)[0]
    if len(s):
        a, b = a[s], b[s]
        common = np.where((a[:, :1] == b).any(1), a[:, 0], a[:, 1])
        u = P[np.where(a[:, 0] == common, a[:, 1], a[:, 0])] - P[common]
        w = P[np.where(b[:, 0] == common, b[:, 1], b[:, 0])] - P[common]
        cross = u[:, 0] * w[:, 1] - u[:, 1] * w[:, 0]
        scale = np.linalg.norm(u, axis=1) * np.linalg.norm(w, axis=1)
        over = s[(np.abs(cross) <= 1e-12 * scale) & ((u * w).sum(1) > 0)]
        if len(over):
            k, m = sorted((int(i[over[0]]), int(j[over[0]])))
            raise PatternError(f"{name_edge(k)} and {name_edge(m)} overlap along a line")
    bad = np.nonzero(~shared)[0]
    if len(bad):
        k, m = sorted((int(i[bad[0]]), int(j[bad[0]])))
        x = shapely.get_coordinates(shapely.intersection(lines[k], lines[m]))[0]
        for e, other in ((k, m), (m, k)):
            for v in E[e].tolist():
                if np.linalg.norm(P[v] - x) <= tol:
                    raise PatternError(f"{name_edge(e)} ends on {name_edge(other)} at {name_vertex(v)}, which "
                                       f"is not an end of {name_edge(other)} (split that edge there)")
        raise PatternError(f"{name_edge(k)} and {name_edge(m)} cross at {[float(c) for c in x]} without a vertex "
                           f"there (split both edges at a shared vertex)")


def _ring_vertices(rings, tree, tol):
    """Vertex loops (closing point dropped) of an array of rings, by their coordinates."""
    xy, which = shapely.get_coordinates(rings, return_index=True)
    d, idx = tree.query(xy)
    if np.any(d > tol):   # polygonize returns the input points; anything else is a bug
        raise PatternError(f"internal error: polygonize returned a point {xy[np.argmax(d)].tolist()} "
                           f"that is no vertex")
    ends = np.cumsum(np.bincount(which, minlength=len(rings)))
    idx = idx.tolist()
    return [idx[b - n:b - 1] for b, n in zip(ends.tolist(), np.diff(np.r_[0, ends]).tolist())]


def _drop_holes(faces, E, boundary):
    """Leave out faces bounded only by boundary edges that are also sides of another face (holes)."""
    is_boundary = {(min(a, b), max(a, b)): bool(x) for (a, b), x in zip(E, boundary)}
    sides = edge_faces(faces)
    keep = []
    for f, loop in enumerate(faces):
        es = [(min(a, b), max(a, b)) for a, b in loop_edges(loop)]
        hole = all(is_boundary.get(e, False) and len(sides[e]) == 2 for e in es)
        if not hole:
            keep.append(loop)
    return keep


# ---------------------------------------------------------------------------------- facets
def merge_faces(faces, joined, name_face=None, name_edge=None):
    """Faces joined across the edges ``joined`` (sorted pairs) merged into single loops.

    Returns (loops, face_map): ``face_map[f]`` is the new index of old face f.
    New faces are ordered by their lowest old face; a merged loop starts where
    its lowest old face's loop does (or at the next vertex on the outline).
    Raises :class:`PatternError` when a joined edge is not between two faces,
    when an edge that is not joined lies inside a merged face, or when the
    merged outline is not one simple loop.
    """
    name_face = name_face or _one_based("face")
    name_edge = name_edge or (lambda e: f"edge {e[0] + 1}-{e[1] + 1}")
    joined = {tuple(sorted(e)) for e in joined}
    n = len(faces)
    sides = edge_faces(faces)
    pairs = []
    for e in sorted(joined):
        fs = sides.get(e, [])
        if len(fs) != 2:
            raise PatternError(f"{name_edge(e)} joins faces into one, but it is a side of "
                               f"{'no face' if not fs else 'only ' + name_face(fs[0])}")
        pairs.append(fs)
    groups = {}
    for f, g in enumerate(components(n, pairs)):
        groups.setdefault(g, []).append(f)
    order = sorted(groups.values(), key=min)
    face_map = [0] * n
    loops = []
    for g, members in enumerate(order):
        for f in members:
            face_map[f] = g
        if len(members) == 1:
            loops.append(list(faces[members[0]]))
            continue
        directed = [(a, b) for f in members for a, b in loop_edges(faces[f])]
        dset = set(directed)
        outline = []
        for a, b in directed:
            if (b, a) in dset:
                e = (min(a, b), max(a, b))
                if e not in joined:
                    raise PatternError(f"{name_edge(e)} lies inside the face merged from "
                                       f"{_names(members, name_face)} across facet edges: it cannot be a crease")
            else:
                outline.append((a, b))
        loops.append(_one_loop(outline, members, name_face))
    return loops, face_map


def _names(fs, name):
    return ", ".join(name(f) for f in fs)


def _one_loop(outline, members, name_face):
    nxt = {}
    for a, b in outline:
        if a in nxt:
            raise PatternError(f"the face merged from {_names(members, name_face)} across facet edges touches "
                               f"itself at one vertex: it is not a simple polygon")
        nxt[a] = b
    start = outline[0][0]
    loop = [start]
    v = nxt[start]
    while v != start:
        loop.append(v)
        v = nxt[v]
    if len(loop) != len(outline):
        raise PatternError(f"the face merged from {_names(members, name_face)} across facet edges has a hole: "
                           f"it is not a simple polygon")
    return loop


# ---------------------------------------------------------------------------------- cuts
def split_cuts(faces, n_vertices, cuts, name_edge=None):
    """Faces with their vertices split along the cut edges ``cuts`` (sorted pairs).

    At each vertex the faces that non-cut edges connect around it form a fan;
    the fan with the lowest face keeps the vertex, each other fan gets a new
    vertex (appended, in vertex order). Returns (loops, origin, copy):
    ``origin[i]`` is the original vertex of vertex i, ``copy[(v, f)]`` the
    vertex that face f uses for original vertex v (only where v was split).
    Raises :class:`PatternError` when a cut edge still joins its two faces (a
    slit with both ends inside the sheet: it must end on the boundary or on
    another cut).
    """
    name_edge = name_edge or (lambda e: f"edge {e[0] + 1}-{e[1] + 1}")
    cuts = {tuple(sorted(e)) for e in cuts}
    sides = edge_faces(faces)
    ends = {v for e in cuts for v in e}
    # corners (v, f) at the cuts' ends; corners of one vertex are joined across its non-cut hinges
    corner = {}
    for f, loop in enumerate(faces):
        for v in loop:
            if v in ends:
                corner[(v, f)] = len(corner)
    pairs = [(corner[(v, fs[0])], corner[(v, fs[1])]) for e, fs in sides.items()
             if len(fs) == 2 and e not in cuts for v in e if v in ends]
    fan = components(len(corner), pairs)
    keeper = {}   # (v, fan) -> vertex: the fan with the lowest face keeps v
    loops = [list(loop) for loop in faces]
    origin = list(range(n_vertices))
    copy = {}
    kept = set()
    for (v, f), c in sorted(corner.items()):   # by vertex, then face
        key = (v, fan[c])
        if key not in keeper:
            if v in kept:
                keeper[key] = len(origin)
                origin.append(v)
            else:
                keeper[key] = v
                kept.add(v)
        u = keeper[key]
        if u != v:
            copy[(v, f)] = u
            loops[f] = [u if w == v else w for w in loops[f]]
    for e in sorted(cuts):
        fs = sides.get(e, [])
        if len(fs) == 2:
            a, b = [tuple(sorted(copy.get((u, f), u) for u in e)) for f in fs]
            if a == b:
                raise PatternError(f"{name_edge(e)} is a cut, but neither of its ends reaches the boundary or "
                                   f"another cut: its two faces stay joined around both ends (a slit inside the "
                                   f"sheet needs at least two cut edges)")
    return loops, origin, copy


# ---------------------------------------------------------------------------------- flatness
def plane_coordinates(points, which=None, rtol=POINT_RTOL, name_vertex=None):
    """2-D coordinates of 3-D points that lie in one plane (``which``: the indices that must; default all).

    z = 0 (or constant z) gives (x, y). Any other plane gives coordinates in a
    right-handed basis (u, v, n) whose normal n has its largest component
    positive (e.g. +y for Origami Simulator's y = 0 sheets): counterclockwise
    loops in (u, v) have normal n. Raises :class:`PatternError` naming the
    point farthest from the plane when it is more than ``rtol`` times the size
    away.
    """
    X = np.asarray(points, float)
    idx = np.arange(len(X)) if which is None else np.asarray(which, int)
    Y = X[idx]
    size = float(np.linalg.norm(Y.max(0) - Y.min(0))) or 1.0
    if np.ptp(Y[:, 2]) <= rtol * size:
        return X[:, :2].copy()
    c = Y.mean(0)
    n = np.linalg.svd(Y - c)[2][-1]
    n = n if n[np.argmax(np.abs(n))] > 0 else -n
    d = np.abs((Y - c) @ n)
    k = int(np.argmax(d))
    if d[k] > rtol * size:
        name_vertex = name_vertex or _one_based("vertex")
        raise PatternError(f"{name_vertex(int(idx[k]))} is {d[k]:.3g} away from the best-fit plane of the others "
                           f"(size {size:.3g})")
    axis = np.eye(3)[int(np.argmin(np.abs(n)))]
    u = axis - (axis @ n) * n
    u /= np.linalg.norm(u)
    v = np.cross(n, u)
    return np.column_stack([(X - c) @ u, (X - c) @ v])
