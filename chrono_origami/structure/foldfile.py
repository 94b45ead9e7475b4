"""FOLD 1.2 files <-> structures (https://github.com/edemaine/fold, doc/spec.md).

A FOLD file is a JSON object. Indices in it are 0-based, like Python's:
face k of the file is panel k, vertex i is vertex i (printed 1-based elsewhere),
unless facets merge faces, cuts split vertices or vertices of no face are
dropped (then ``structure.notes["fold"]`` maps the structure back to the file:
``file_vertices``, ``file_faces``, ``file_edges``). Errors always name the
file's own keys and indices. :func:`read_structure` reads FOLD and SVG files.

Standard keys
-------------
``vertices_coords`` (required): [x, y, z] per vertex (length units, global
frame). 2-D entries [x, y] are accepted and get z = 0, as FOLD says.
Topology is by index: vertices at one point join nothing unless they are one
index (folded forms, cut nets, touching flaps).
``faces_vertices``: vertex loop of each face; the face normal follows the
right-hand rule (FOLD's "counterclockwise seen from the top"). Without it (a
crease-pattern editor's file) the faces of a flat pattern are computed from
``edges_vertices`` (:func:`chrono_origami.crease.faces.planar_faces`, in the plane of
the pattern, counterclockwise about its normal, +z for a pattern in z = 0);
faces bounded only by shared "B" edges are holes and left out.
``edges_vertices`` (optional): the edge order. Hinge k is the k-th *interior*
edge (two faces) in this order. Without it, edges are derived from the faces
(in the order they first appear walking the loops), and no other ``edges_``
key may be given.
``edges_assignment``: "B" on boundary edges (one face) and only there;
"M", "V", "U" on interior edges (hinges); "F": a flat crease, a hinge (the
FOLD spec, ``facets="crease"``) or a facet line inside a rigid face
(Origami Simulator, ``facets="facet"``: the faces on its two sides merge into
one panel); "C": a cut, the faces there are not connected (each vertex gets a
copy per fan of faces that hinges connect around it; the cut edges become
boundary edges, "B" in the notes); "J": the faces are joined rigidly, hinge
kind :data:`JOINED` ("joined": all six relative motions locked, ``hinges``).
``edges_foldAngle`` (degrees in [-180, 180] or null, FOLD sign: positive
valley, negative mountain, 0 or null on boundary edges; must agree with M/V
when both are given, except within :data:`FLAT_DEG` of 0, the round-off of a
flat crease, read as 0; null, as Origami Simulator writes on boundary and
undriven edges, is "no target angle"). The folded state is the one of
``vertices_coords``; the assignment and fold angles read from a file are kept
in ``structure.notes["fold"]`` per structure edge (they may be targets of a
folding process) and are not checked against the geometry.
``file_title``: the structure's name. ``file_frames``: more frames (below).
Any number above :data:`MAX_MAGNITUDE` in magnitude is refused.

Written files compute ``edges_foldAngle`` from the geometry: the signed angle
between the two face normals about the hinge, positive when the normals point
into each other (valley). ``edges_assignment`` is then "V" or "M" from its
sign (an angle within :data:`FLAT_DEG` of 0 is written as 0), "U" for a hinge
that is flat (|angle| <= :data:`FLAT_DEG`: the
configuration does not tell its direction; "F" would tell FOLD tools that the
crease stays flat) and "B" on boundary edges.

Custom keys (namespace ``origami``)
-----------------------------------
``faces_origami:thickness``: thickness per face (length, >= 0; default 0).
``edges_origami:hinge``: per edge, a hinge kind's name ("door", "sliding",
"joined" or any kind registered in ``chrono_origami.structure.hinges``) on interior
edges, null on boundary, cut and (merged) facet edges, "joined" or null on
"J" edges (default: every hinge "door", "joined" on "J" edges).
``vertices_origami:support``: per vertex, null, or {"dofs": "xyz" | "yz" |
..., "panel": face index} -- the vertex *of that face* is held in the listed
global directions -- or a list of such objects (several panels at a vertex). A
vertex is held once a direction on a piece (faces joined by hinges); pieces
that meet at a vertex are held there apart, each on one of its faces.
``vertices_origami:load``: per vertex, null, or {"force": [fx, fy, fz],
"panel": face index or null} (force units, global frame; null shares the
force equally among the faces at the vertex: at a vertex split by a cut, each
copy takes its faces' share), or a list of such objects.
``origami:density`` (mass per volume, default 1) and ``origami:gravity``
([gx, gy, gz] acceleration, or null) at the top level.
``origami:placement``: where each panel's volume sits (``structure.solids``), {"technique": "mid" | "offset" |
"tapered", "side": "below" | "above" (offset; default below), "taper_deg": a fold angle in (0, 180] or null
(tapered; null: each crease's target)}; default mid.
Supports and loads come back ordered by vertex.

Frames
------
Frame 0 is the top level; ``file_frames[i]`` is frame i + 1; -1 (or
"last") is the last frame, -2 the one before; a frame may be chosen by a
class of its ``frame_classes`` too: "foldedForm" is the last frame that has
it (the final state of a fold history), any other class ("creasePattern")
the first. A frame with
``"frame_inherit": true`` takes every key it does not set from its
``frame_parent`` (a frame ID, required then), recursively; without it the
frame stands alone. :func:`write_fold` writes a history as frames that set
``vertices_coords`` (with their fold angles) and inherit the rest from frame 0.

Every missing or malformed key raises :class:`FoldFileError` naming the key
and the index of the bad entry, e.g. ``faces_vertices[3]`` or
``file_frames[1].vertices_coords[7]``.
"""
import json
import math
import os
import warnings

import numpy as np

from ..crease import faces as facelib
from ..crease import DRAWINGS, is_drawing, read_drawing
from ..crease.pattern import COINCIDENCE_RTOL, CreasePattern
from ..crease.pattern import fold_angles as crease_fold_angles
from ..tools.errors import MAX_MAGNITUDE, FoldFileError, PatternError, StructureError
from . import hinges
from .hinges import DOOR
from .structure import Load, Structure, Support

SPEC = 1.2
#: Fold angles (degrees) at most this large are written as flat hinges ("U").
FLAT_DEG = 1e-6
ASSIGNMENTS = ("B", "M", "V", "F", "U", "C", "J")
#: What "F" edges are: "crease" (FOLD spec: a flat crease, a hinge) or "facet"
#: (Origami Simulator: a line inside a rigid face; the faces on both sides merge).
FACETS = ("crease", "facet")
#: Hinge kind of "J" (join) edges: faces joined rigidly (all six directions locked).
JOINED = hinges.JOINED
THICKNESS = "faces_origami:thickness"
HINGE = "edges_origami:hinge"
SUPPORT = "vertices_origami:support"
LOAD = "vertices_origami:load"
DENSITY = "origami:density"
GRAVITY = "origami:gravity"
PLACEMENT = "origami:placement"
#: every key of the ``origami:`` namespace (``origami:time`` and ``origami:drives``: a fold history's frames and
#: drives); another key of the namespace is a misspelling, refused naming it (other namespaces are left alone)
STIFFNESS = "origami:stiffness"
EDGE_STIFFNESS = "edges_origami:stiffness"
ORIGAMI_KEYS = (THICKNESS, HINGE, SUPPORT, LOAD, DENSITY, GRAVITY, PLACEMENT, "origami:time", "origami:drives",
                STIFFNESS, EDGE_STIFFNESS)
_EDGE_KEYS = ("edges_assignment", "edges_foldAngle", "edges_foldAngles", HINGE)
_NOT_INHERITED = ("frame_parent", "frame_inherit")


# ======================================================================= reading
def read_structure(source, frame=0, facets=None, merge_tol=None, colors=None, dashes=None):
    """Structure of a FOLD file (.fold, JSON), an SVG crease pattern (.svg) or an ORIPA file (.cp, .opx), a path
    or a FOLD dict.

    The one entry point of the commands. ``frame``: a frame index (0: the top
    level; negative from the end, -1 the last), "last", or a frame class:
    "foldedForm" is the last frame that has it (the final state of a fold
    history), any other class (e.g. "creasePattern") the first. ``facets``: what "F" edges are, "crease" (the
    FOLD spec: a flat crease, a hinge; the default for FOLD files) or "facet"
    (Origami Simulator: a line inside a rigid face; the default for drawn
    patterns, whose yellow (SVG) and aux (ORIPA) lines are facets). ``merge_tol``: drawn patterns, see
    :func:`chrono_origami.crease.lines.fold_of_lines`, and flat FOLD patterns, see :func:`read_fold`. ``colors``,
    ``dashes``: SVG drawings only, see :func:`chrono_origami.crease.svg.read_svg`. The readers' note lines are in ``notes["fold"]["reader_notes"]``.
    """
    if is_drawing(source):
        if not (frame in (0, -1, "last", "creasePattern")):
            kind = DRAWINGS[os.path.splitext(os.fspath(source))[1].lower()]
            raise FoldFileError(f"{os.fspath(source)}: {kind} has one frame (0, "
                                f"\"creasePattern\"), not {frame!r} (-1 and \"last\" name it too)")
        facets = "facet" if facets is None else facets
        notes = []
        data = read_drawing(source, merge_tol=merge_tol, facets=facets, colors=colors, dashes=dashes, notes=notes)
        st = _Reader(data, 0, os.fspath(source), "crease").structure()
        if notes:
            st.notes["fold"]["reader_notes"] = notes
        return st
    for name, value in (("colors", colors), ("dashes", dashes)):
        if value is not None:
            raise FoldFileError(f"{os.fspath(source) if not isinstance(source, dict) else 'FOLD data'}: {name}= is "
                                f"for SVG drawings (stroke colours and dashes); a FOLD file gives each edge's "
                                f"assignment")
    note = None
    if facets is None:
        data, src = _load(source)
        facets = "crease"
        if written_by_origami_simulator(data) and "F" in _all_letters(data):
            facets = "facet"
            note = (f"{src} was written by Origami Simulator (file_creator): its \"F\" lines are read as facet "
                    f"lines inside rigid faces (facets='facet'; facets='crease' reads them as flat creases)")
        source = data if isinstance(source, dict) else source
    st = read_fold(source, frame, facets, merge_tol=merge_tol)
    if note:
        st.notes["fold"]["facets_note"] = note
    return st


def written_by_origami_simulator(data):
    """Whether a FOLD dictionary's ``file_creator`` names Origami Simulator."""
    creator = data.get("file_creator")
    return isinstance(creator, str) and "origami simulator" in creator.lower().replace("origamisimulator",
                                                                                        "origami simulator")


def _all_letters(data):
    """Every edges_assignment letter of the file's frames (top level and file_frames)."""
    out = set()
    for d in [data] + [f for f in data.get("file_frames", []) if isinstance(f, dict)]:
        a = d.get("edges_assignment")
        if isinstance(a, list):
            out.update(x for x in a if isinstance(x, str))
    return out


def read_fold(source, frame=0, facets="crease", merge_tol=None):
    """Structure of frame ``frame`` of a FOLD file path or already-parsed dict.

    ``frame``: index (0: the top level) or frame class (see :func:`read_structure`);
    ``facets``: "crease" or "facet" (see :data:`FACETS`). A flat crease pattern (faces in the plane z = const,
    not overlapping) has its vertices closer than ``merge_tol`` x its size merged (default
    :data:`~chrono_origami.crease.pattern.COINCIDENCE_RTOL`: coincident points), its degenerate faces and edges
    dropped (one warning line) and faces wound against the others reoriented (one note line, in
    ``notes["fold"]["reader_notes"]``); a folded one is read strictly by index.
    """
    data, src = _load(source)
    return _Reader(data, _frame_index(data, frame, src), src, facets, merge_tol).structure()


def read_frames(source, facets="crease"):
    """Structures of frames 1, 2, ... (``file_frames``), in order; [] when there are none."""
    data, src = _load(source)
    n = len(_file_frames(data, src))
    return [_Reader(data, k, src, facets).structure() for k in range(1, n + 1)]


def _load(source):
    if isinstance(source, dict):
        return source, "FOLD data"
    path = os.fspath(source)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        raise FoldFileError(f"{path}: no such FOLD file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise FoldFileError(f"{path}: cannot read the FOLD file ({e})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise FoldFileError(f"{path}: not valid JSON ({e.msg} at line {e.lineno}, column {e.colno})") from None
    except RecursionError:
        raise FoldFileError(f"{path}: not valid JSON (nested too deeply)") from None
    if not isinstance(data, dict):
        raise FoldFileError(f"{path}: a FOLD file is a JSON object (dictionary), got {type(data).__name__}")
    return data, path


def _file_frames(data, src):
    frames = data.get("file_frames", [])
    if not isinstance(frames, list):
        raise FoldFileError(f"{src}: file_frames must be a list of frame dictionaries")
    for i, f in enumerate(frames):
        if not isinstance(f, dict):
            raise FoldFileError(f"{src}: file_frames[{i}] must be a dictionary, got {_show(f)}")
    return frames


def _frame_index(data, frame, src):
    """Frame index of ``frame``: an index (negative from the end, -1 the last), "last", or a frame class:
    "foldedForm" the last frame that has it (the final state of a history), any other class the first."""
    n = len(_file_frames(data, src))
    if _is_int(frame):
        if -(n + 1) <= frame < 0:
            return n + 1 + frame
        return frame
    if not isinstance(frame, str):
        raise FoldFileError(f"{src}: frame must be a frame index (0 is the top level, -1 the last), \"last\" or a "
                            f"frame class such as \"foldedForm\", got {_show(frame)}")
    if frame == "last":
        return n
    seen, found = [], []
    for k in range(n + 1):
        keys, origin = _resolve_frame(data, k, src)
        classes = keys.get("frame_classes", [])
        if not (isinstance(classes, list) and all(isinstance(c, str) for c in classes)):
            where = origin.get("frame_classes", "")
            raise FoldFileError(f"{src}: {where}frame_classes must be a list of strings, got {_show(classes)}")
        if frame in classes:
            found.append(k)
        seen.append(f"{k}: {classes}")
    if found:
        return found[-1] if frame == "foldedForm" else found[0]
    raise FoldFileError(f"{src}: no frame has the class {frame!r} in frame_classes (frames "
                        f"{_show('; '.join(seen), 120)[1:-1]})")


def frame_index(source, frame):
    """The frame number (0 the top level) that ``frame`` (an index, "last" or a class) names in a FOLD file."""
    data, src = _load(source)
    return _frame_index(data, frame, src)


def frame_count(source):
    """Number of frames of a FOLD file (1 + len(file_frames)); 1 for a drawn crease pattern (SVG, ORIPA)."""
    if is_drawing(source):
        return 1
    data, src = _load(source)
    return 1 + len(_file_frames(data, src))


def describe_frames(source):
    """The frames of a FOLD file in one line: runs of frames with the same classes, with their titles' ends,
    e.g. ``0 (creasePattern), 1-20 (foldedForm; t = 0.05 s ... t = 1 s)``."""
    data, src = _load(source)
    n = len(_file_frames(data, src))
    rows = []
    for k in range(n + 1):
        keys, _ = _resolve_frame(data, k, src)
        classes = keys.get("frame_classes", [])
        title = keys.get("frame_title") if k else None
        rows.append((k, ", ".join(c for c in classes if isinstance(c, str)) if isinstance(classes, list) else "",
                     title if isinstance(title, str) else None))
    runs = []
    for k, cls, title in rows:
        if runs and runs[-1][2] == cls:
            runs[-1][1], runs[-1][4] = k, title
        else:
            runs.append([k, k, cls, title, title])
    out = []
    for a, b, cls, t0, t1 in runs:
        span = f"{a}" if a == b else f"{a}-{b}"
        titles = "" if not t0 else f"; {t0}" if a == b or t0 == t1 else f"; {t0} ... {t1}"
        out.append(f"{span} ({cls or 'no class'}{titles})")
    return ", ".join(out)


def frame_summary(source, frame):
    """(frame number k, number of frames, one line saying which frame ``frame`` names and what it is, the file's
    title) of a FOLD file, e.g. ``(20, 21, "frame 20 of 0-20, the last (foldedForm; t = 1 s)", "miura")``."""
    data, src = _load(source)
    k = _frame_index(data, frame, src)
    n = 1 + len(_file_frames(data, src))
    keys, _ = _resolve_frame(data, k, src)
    classes = keys.get("frame_classes", [])
    classes = ", ".join(c for c in classes if isinstance(c, str)) if isinstance(classes, list) else ""
    title = keys.get("frame_title") if k else None
    what = "; ".join(x for x in (classes, title if isinstance(title, str) else "") if x)
    place = ", the last" if k == n - 1 and n > 1 else ""
    top = data.get("file_title")
    if not isinstance(top, str) or not top:
        top = os.path.splitext(os.path.basename(src))[0] if src != "FOLD data" else "structure"
    return k, n, f"frame {k} of 0-{n - 1}{place}" + (f" ({what})" if what else ""), top


def _resolve_frame(data, k, src):
    """(keys of frame k with inheritance applied, key -> prefix naming where it came from)."""
    frames = _file_frames(data, src)
    if not (_is_int(k) and 0 <= k <= len(frames)):
        raise FoldFileError(f"{src}: there is no frame {k} (frames 0 to {len(frames)})")

    def own(j):
        if j == 0:
            return {key: v for key, v in data.items() if not key.startswith("file_")}, ""
        return frames[j - 1], f"file_frames[{j - 1}]."

    keys, prefix = own(k)
    keys = dict(keys)
    origin = {key: prefix for key in keys}
    seen = [k]
    j = k
    while j != 0:
        fr, pre = own(j)
        inherit = fr.get("frame_inherit", False)
        if not isinstance(inherit, bool):
            raise FoldFileError(f"{src}: {pre}frame_inherit must be true or false, got {_show(inherit)}")
        if not inherit:
            break
        parent = fr.get("frame_parent")
        if parent is None:
            raise FoldFileError(f"{src}: {pre}frame_inherit is true but {pre}frame_parent is missing "
                                f"(0 is the top-level frame)")
        if not (_is_int(parent) and 0 <= parent <= len(frames)):
            raise FoldFileError(f"{src}: {pre}frame_parent must be a frame ID from 0 to {len(frames)}, "
                                f"got {_show(parent)}")
        if parent in seen:
            raise FoldFileError(f"{src}: {pre}frame_parent = {parent} closes a loop of inheriting frames {seen}")
        seen.append(parent)
        pkeys, ppre = own(parent)
        for key, v in pkeys.items():
            if key not in keys and key not in _NOT_INHERITED:
                keys[key] = v
                origin[key] = ppre
        j = parent
    return keys, origin


class _Reader:
    """Validates the keys of one frame and builds its Structure.

    File indices (vertex v, face f, edge k) name every error. The structure
    may number differently: faces merged across facet edges, vertices split
    along cuts, vertices of no face dropped (``notes["fold"]`` keeps the maps).
    """

    def __init__(self, data, frame, src, facets="crease", merge_tol=None):
        if facets not in FACETS:
            raise FoldFileError(f"{src}: facets must be one of {list(FACETS)}, got {facets!r}")
        if merge_tol is not None and not (isinstance(merge_tol, (int, float)) and 0 <= merge_tol < 0.1):
            raise FoldFileError(f"{src}: merge_tol must be a fraction of the pattern's size in [0, 0.1), got "
                                f"{merge_tol!r}")
        self.keys, self.origin = _resolve_frame(data, frame, src)
        self.data, self.src, self.frame, self.facets, self.merge_tol = data, src, frame, facets, merge_tol
        self.reader_notes, self.vertex_rep, self.face_renumber = [], None, None

    # ---------------------------------------------------------------- messages
    def name(self, key, index=None):
        """``key`` as written in the file, with its frame prefix and an index path (ints and sub-keys)."""
        s = self.origin.get(key, "" if self.frame == 0 else f"file_frames[{self.frame - 1}].") + key
        path = () if index is None else index if isinstance(index, tuple) else (index,)
        return s + "".join(f"[{i}]" if isinstance(i, (int, np.integer)) else f".{i}" for i in path)

    def fail(self, key, index, message, numbered=False):
        """Raise the one-line error ``key[index] message``, with the 1-based numbers unless ``numbered`` (the message
        gives them already)."""
        raise FoldFileError(f"{self.src}: {self.name(key, index)} {message}"
                            f"{'' if numbered else one_based(key, index)}")

    def list_of(self, key, n=None, what="entries", required=False):
        if key not in self.keys:
            if required:
                raise FoldFileError(f"{self.src}: {self.name(key)} is missing (required)")
            return None
        v = self.keys[key]
        if not isinstance(v, list):
            self.fail(key, None, f"must be a list, got {_show(v)}")
        if n is not None and len(v) != n:
            self.fail(key, None, f"has {len(v)} entries, expected {n} ({what})")
        return v

    def check_vertex_index(self, key, index, v, nv):
        """A vertex index ``v`` at ``key[index]`` must be in 0 .. nv - 1."""
        if v < 0:
            self.fail(key, index, f"= {v} is negative; vertex indices are 0-based, from 0 to {nv - 1}")
        if v >= nv:
            self.fail(key, index, f"= {v} refers to a vertex beyond the {nv} of vertices_coords "
                                  f"(indices are 0-based, from 0 to {nv - 1})")

    def number(self, key, index, x, what, low=-math.inf):
        """``x`` must be a finite number >= low of magnitude at most :data:`MAX_MAGNITUDE`."""
        if not (_is_number(x) and math.isfinite(x) and x >= low):
            self.fail(key, index, f"must be {what}, got {_show(x)}")
        if abs(x) > MAX_MAGNITUDE:
            self.fail(key, index, f"= {x:.3g} is beyond the largest accepted magnitude {MAX_MAGNITUDE:g} "
                                  f"(results would overflow)")
        return float(x)

    def vector(self, key, index, v, what):
        """``v`` must be 3 finite numbers of magnitude at most :data:`MAX_MAGNITUDE` (``what`` says which)."""
        if not (isinstance(v, list) and len(v) == 3 and all(_is_number(c) and math.isfinite(c) for c in v)):
            self.fail(key, index, f"must be {what}, got {_show(v)}")
        for c in v:
            if abs(c) > MAX_MAGNITUDE:
                self.fail(key, index, f"has a component of magnitude {abs(c):.3g}, beyond the largest accepted "
                                      f"{MAX_MAGNITUDE:g} (results would overflow)")
        return tuple(float(c) for c in v)

    # ---------------------------------------------------------------- geometry
    def vertices(self):
        coords = self.list_of("vertices_coords", required=True)
        if not coords:
            self.fail("vertices_coords", None, "is empty")
        X = np.zeros((len(coords), 3))
        for i, c in enumerate(coords):
            if not (isinstance(c, list) and len(c) in (2, 3) and all(_is_number(x) and math.isfinite(x) for x in c)):
                self.fail("vertices_coords", i, f"must be 2 or 3 finite numbers [x, y(, z)], got {_show(c)}")
            big = max(abs(x) for x in c)
            if big > MAX_MAGNITUDE:
                self.fail("vertices_coords", i, f"has a coordinate of magnitude {big:.3g}, beyond the largest "
                                                f"accepted {MAX_MAGNITUDE:g} (results would overflow)")
            X[i, :len(c)] = c
        return X

    def faces(self, nv):
        faces = self.list_of("faces_vertices")
        if faces is None:
            return None
        if not faces:
            self.fail("faces_vertices", None, "is empty")
        for f, loop in enumerate(faces):
            if not (isinstance(loop, list) and all(_is_int(v) for v in loop)):
                self.fail("faces_vertices", f, f"must be a list of vertex indices, got {_show(loop)}")
            if len(loop) < 3:
                self.fail("faces_vertices", f, f"must list at least 3 vertices, got {loop}")
            for j, v in enumerate(loop):
                self.check_vertex_index("faces_vertices", (f, j), v, nv)
            if len(set(loop)) != len(loop):
                rep = next(v for v in loop if loop.count(v) > 1)
                self.fail("faces_vertices", f, f"lists vertex {rep} twice (faces with slits are not supported)")
        return [list(loop) for loop in faces]

    def edge_list(self, nv):
        """edges_vertices validated on its own (pairs of vertex indices, none twice), or None."""
        edges = self.list_of("edges_vertices")
        if edges is None:
            for key in _EDGE_KEYS:
                if key in self.keys:
                    self.fail(key, None, "needs edges_vertices (it is indexed by edge), which is missing")
            return None
        first = {}
        for k, e in enumerate(edges):
            if not (isinstance(e, list) and len(e) == 2 and all(_is_int(v) for v in e)):
                self.fail("edges_vertices", k, f"must be two vertex indices [u, v], got {_show(e)}")
            for j, v in enumerate(e):
                self.check_vertex_index("edges_vertices", (k, j), v, nv)
            if e[0] == e[1]:
                self.fail("edges_vertices", k, f"= {e} joins vertex {e[0]} to itself")
            s = (min(e), max(e))
            if s in first:
                self.fail("edges_vertices", k, f"= {e} repeats edges_vertices[{first[s]}]")
            first[s] = k
        return [list(e) for e in edges]

    def edge_faces(self, edges, faces, loose=False):
        """Faces of each edge (file indices); every face side must be an edge. ``loose`` (faces computed from the
        edges): an edge that is no face's side (a line inside a face, or ending in it: an editor's auxiliary line)
        has no faces, [], and is left out (:meth:`pattern`)."""
        sides = facelib.edge_faces(faces)
        for s, fs in sides.items():
            if len(fs) > 2:
                self.fail("faces_vertices", None, f"has the side {list(s)} in more than two faces: {fs}")
        out = []
        listed = set()
        for k, e in enumerate(edges):
            s = (min(e), max(e))
            if s not in sides and loose:
                out.append([])
                continue
            if s not in sides:
                self.fail("edges_vertices", k, f"= {e} is not a side of any face")
            out.append(sides[s])
            listed.add(s)
        for s, fs in sides.items():
            if s not in listed:
                self.fail("edges_vertices", None, f"lacks the side [{s[0]}, {s[1]}] of faces_vertices[{fs[0]}]")
        return out

    def computed_faces(self, X, edges, assign):
        """Faces of a flat crease pattern given without faces_vertices (counterclockwise seen from the normal)."""
        if edges is None:
            raise FoldFileError(f"{self.src}: {self.name('faces_vertices')} is missing (required, unless "
                                f"edges_vertices gives a flat crease pattern whose faces can be computed)")
        used = sorted({v for e in edges for v in e})
        try:
            P = facelib.plane_coordinates(X, used, name_vertex=lambda i: self.name("vertices_coords", i))
        except PatternError as e:
            raise FoldFileError(f"{self.src}: {self.name('faces_vertices')} is missing, and its faces can be "
                                f"computed only for a flat crease pattern: {e}") from None
        boundary = None if assign is None else [a == "B" for a in assign]
        try:
            return facelib.planar_faces(P, edges, boundary, name_edge=lambda k: self.name("edges_vertices", k),
                                        name_vertex=lambda i: self.name("vertices_coords", i))
        except PatternError as e:
            raise FoldFileError(f"{self.src}: cannot compute the faces (faces_vertices is missing) of the "
                                f"crease pattern of edges_vertices: {e}") from None

    # ------------------------------------------------------------ edge properties
    def assignment(self, E):
        assign = self.list_of("edges_assignment", E, "one per edge of edges_vertices")
        if assign is not None:
            for k, a in enumerate(assign):
                if a not in ASSIGNMENTS:
                    self.fail("edges_assignment", k, f"is {_show(a)}; expected one of {list(ASSIGNMENTS)}")
        return assign

    def check_assignment(self, assign, edges, faces_of):
        for k, a in enumerate(assign):
            fs = faces_of[k]
            if a == "C":
                continue   # a cut: boundary edges, one per face
            if len(fs) == 1 and a != "B":
                self.fail("edges_assignment", k, f"is {a!r}, but edge {edges[k]} is a boundary edge (only in "
                                                 f"face {fs[0]}); expected 'B'")
            if len(fs) == 2 and a == "B":
                self.fail("edges_assignment", k, f"is 'B', but edge {edges[k]} is a hinge between faces {fs[0]} "
                                                 f"and {fs[1]} (a cut between them is 'C')")

    def fold_angles(self, assign, edges, faces_of):
        """Fold angles (degrees or None) per file edge, or None without the key."""
        key = "edges_foldAngle" if "edges_foldAngle" in self.keys or "edges_foldAngles" not in self.keys \
            else "edges_foldAngles"   # the FOLD 1.0 spelling
        angles = self.list_of(key, len(edges), "one per edge of edges_vertices")
        if angles is None:
            return None
        out = []
        for k, x in enumerate(angles):
            if x is None:   # Origami Simulator: no target angle (boundary, cut and undriven edges)
                out.append(None)
                continue
            if not (_is_number(x) and -180 <= x <= 180):
                self.fail(key, k, f"must be a number of degrees in [-180, 180] or null, got {_show(x)}")
            if len(faces_of[k]) == 1 and x != 0:
                self.fail(key, k, f"is {x} on the boundary edge {edges[k]}; expected 0 or null")
            a = assign[k] if assign is not None else None
            if abs(x) <= FLAT_DEG:
                x = 0.0   # flat within round-off: no direction, whatever the assignment
            if (a == "M" and x > 0) or (a == "V" and x < 0):
                self.fail(key, k, f"is {x}, but edges_assignment[{k}] is {a!r} "
                                  f"(FOLD: positive valley, negative mountain)")
            out.append(float(x))
        return out

    def hinge_key(self, E):
        kinds = self.list_of(HINGE, E, "one per edge of edges_vertices")
        if kinds is None:
            return None
        for k, kind in enumerate(kinds):
            if kind is not None and not (isinstance(kind, str) and kind in hinges.names()):
                self.fail(HINGE, k, f"is {_show(kind)}; expected {hinges.expected(['null'])}")
        return kinds

    def check_hinge_key(self, kinds, assign, edges, faces_of, role):
        for k, kind in enumerate(kinds):
            fs = faces_of[k]
            if role[k] == "loose":
                continue                                   # left out: no hinge
            if len(fs) == 1:
                if kind is not None:
                    self.fail(HINGE, k, f"is {_show(kind)}, but edge {edges[k]} is a boundary edge (only in face "
                                        f"{fs[0]}); expected null")
            elif role[k] in ("cut", "facet"):
                if kind is not None:
                    what = "a cut" if role[k] == "cut" else "a facet line inside a rigid face (facets='facet')"
                    self.fail(HINGE, k, f"is {_show(kind)}, but edges_assignment[{k}] is {assign[k]!r}: {what}, "
                                        f"no hinge; expected null")
            elif assign is not None and assign[k] == "J":
                if kind not in (None, JOINED):
                    self.fail(HINGE, k, f"is {_show(kind)}, but edges_assignment[{k}] is 'J' (faces joined "
                                        f"rigidly); expected {JOINED!r} or null")
            elif kind is None:
                self.fail(HINGE, k, f"is null, but edge {edges[k]} is a hinge between faces {fs[0]} and {fs[1]}")

    # ------------------------------------------------------------ the pattern
    def pattern(self):
        """(CreasePattern, per-hinge kinds or None, fold notes, face map, vertex map)."""
        X = self.vertices()
        nv = len(X)
        faces = self.faces(nv)
        edges = self.edge_list(nv)
        E = None if edges is None else len(edges)
        assign = None if edges is None else self.assignment(E)
        computed = faces is None
        if not computed:
            faces, edges, assign = self.flat_repair(X, faces, edges, assign)
            E = None if edges is None else len(edges)
        if computed:
            faces = self.computed_faces(X, edges, assign)
            if not faces:
                raise FoldFileError(f"{self.src}: the lines of edges_vertices enclose no face (faces_vertices is "
                                    f"missing; is the sheet's outline drawn, as 'B' edges?)")
        self.file_faces = faces
        if edges is None:   # the sides of the faces, in the order they first appear
            edges = [list(e) for e in dict.fromkeys((min(a, b), max(a, b)) for loop in faces
                                                    for a, b in facelib.loop_edges(loop))]
            E = len(edges)
        faces_of = self.edge_faces(edges, faces, loose=computed)
        role = ["hinge" if len(fs) == 2 else "boundary" if fs else "loose" for fs in faces_of]
        loose = [k for k, r in enumerate(role) if r == "loose"]
        if loose:
            k = loose[0]
            what = f" ({assign[k]!r})" if assign is not None else ""
            warnings.warn(f"{self.src}: left out {len(loose)} edge(s) that bound no face (lines inside a face or ending "
                          f"in it, as editors' auxiliary lines; the faces were computed from the edges), e.g. "
                          f"{self.name('edges_vertices', k)} = {edges[k]}{what}{one_based('edges_vertices', k)}",
                          stacklevel=4)
        if assign is not None:
            self.check_assignment(assign, edges, faces_of)
            for k, a in enumerate(assign):
                if len(faces_of[k]) == 2 and (a == "C" or (a == "F" and self.facets == "facet")):
                    role[k] = "cut" if a == "C" else "facet"
        angles = self.fold_angles(assign, edges, faces_of)
        kinds = self.hinge_key(E)
        if kinds is not None:
            self.check_hinge_key(kinds, assign, edges, faces_of, role)

        def edge_name(e):
            return self.name("edges_vertices", index_of[tuple(sorted(e))])

        index_of = {(min(e), max(e)): k for k, e in enumerate(edges)}
        face_name = lambda f: self.name("faces_vertices", f)   # noqa: E731
        try:
            merged = [tuple(sorted(edges[k])) for k in range(E) if role[k] == "facet"]
            loops, face_map = facelib.merge_faces(faces, merged, face_name, edge_name) if merged else \
                (faces, list(range(len(faces))))
            cuts = [tuple(sorted(edges[k])) for k in range(E) if role[k] == "cut"]
            loops, origin, copy = facelib.split_cuts(loops, nv, cuts, edge_name) if cuts else (loops, None, {})
        except PatternError as e:
            raise FoldFileError(f"{self.src}: {e}") from None
        # drop vertices of no face; vertex (v of file face f) -> structure vertex
        n_all = nv if origin is None else len(origin)
        used = np.zeros(n_all, bool)
        for loop in loops:
            used[loop] = True
        renumber = np.cumsum(used) - 1
        base = np.arange(nv) if origin is None else np.asarray(origin)
        file_vertex = base[used]
        X = X[file_vertex]
        loops = [[int(renumber[v]) for v in loop] for loop in loops]

        def vmap(v, f):
            u = copy.get((v, face_map[f]), v)
            return int(renumber[u]) if used[u] else None

        identity = not merged and not cuts and used.all() and not loose
        pedges, file_edges, seen = [], [], set()
        if identity:
            pedges, file_edges = [(min(e), max(e)) for e in edges], range(E)
        for k, (a, b) in enumerate(() if identity else edges):
            if role[k] in ("facet", "loose"):
                continue
            for f in faces_of[k]:
                s = tuple(sorted((vmap(a, f), vmap(b, f))))
                if s not in seen:
                    seen.add(s)
                    pedges.append(s)
                    file_edges.append(k)
        pat = self.crease_pattern(X, loops, pedges, identity)
        notes = {}
        if assign is not None:
            notes["edges_assignment"] = ["B" if assign[k] == "C" else assign[k] for k in file_edges]
        if angles is not None:
            notes["edges_foldAngle"] = [angles[k] for k in file_edges]
        if not identity:
            file_faces = [[] for _ in loops]
            for f, p in enumerate(face_map):
                file_faces[p].append(f)
            notes.update(file_edges=list(file_edges), file_vertices=[int(v) for v in file_vertex],
                         file_faces=file_faces)
        # hinge kinds, in hinge order
        kind = None
        where = dict(zip(pat.edges, file_edges))
        self.hinge_file_edges = [where[tuple(sorted(h.vertices))] for h in pat.hinges]
        if kinds is not None or (assign is not None and "J" in assign):
            kind = []
            for h in pat.hinges:
                k = where[tuple(sorted(h.vertices))]
                x = kinds[k] if kinds is not None and kinds[k] is not None else \
                    (JOINED if assign is not None and assign[k] == "J" else DOOR)
                kind.append(x)
            kind = tuple(kind)
        return pat, kind, notes, face_map, vmap

    def is_flat_pattern(self, X, faces):
        """Whether the faces lie in one plane z = const and tile it without overlap (a crease pattern, not a
        flat-folded form): the plane then gives every face's orientation."""
        size = float(np.linalg.norm(X.max(0) - X.min(0))) or 1.0
        if np.ptp(X[:, 2]) > COINCIDENCE_RTOL * size:
            return False
        classes = self.keys.get("frame_classes")
        if isinstance(classes, list) and "foldedForm" in classes:
            return False
        import shapely

        polys = shapely.make_valid(np.array([shapely.Polygon(X[loop, :2]) for loop in faces], dtype=object))
        total = float(shapely.area(polys).sum())
        union = float(shapely.area(shapely.union_all(polys)))
        return total <= union * (1 + 1e-6) + 1e-12 * size * size

    def flat_repair(self, X, faces, edges, assign):
        """(faces, edges, assignment) of a flat crease pattern (:meth:`is_flat_pattern`) with vertices closer
        than ``merge_tol`` x its size (default :data:`~chrono_origami.crease.pattern.COINCIDENCE_RTOL`) merged
        into the first of them, degenerate faces (fewer than 3 vertices left, or no area) and zero-length edges
        dropped (one warning line naming the first, 1-based), and faces wound against the others reoriented
        counter-clockwise seen from +z (one note line). Per-face and per-edge keys follow; the file's other
        patterns (folded, or already consistent without coincident vertices) are returned as they are."""
        size = float(np.linalg.norm(X.max(0) - X.min(0))) or 1.0
        tol = (COINCIDENCE_RTOL if self.merge_tol is None else max(self.merge_tol, COINCIDENCE_RTOL)) * size
        used = sorted({v for loop in faces for v in loop} | {v for e in edges or () for v in e})
        from scipy.spatial import cKDTree

        pairs = cKDTree(X[used]).query_pairs(tol, output_type="ndarray")
        consistent = _one_winding(faces, len(X))
        if not len(pairs) and consistent and self.merge_tol is None:
            return faces, edges, assign
        rep = np.arange(len(X))
        if len(pairs):
            label = facelib.components(len(used), pairs)
            first = {}
            for i, c in enumerate(label):
                first.setdefault(int(c), used[i])
            for i, c in enumerate(label):
                rep[used[i]] = first[int(c)]
        if not self.is_flat_pattern(X, [[int(rep[v]) for v in loop] for loop in faces]):
            if self.merge_tol is not None:
                warnings.warn(f"{self.src}: merge_tol= is for flat crease patterns (faces in one plane z = const, "
                              f"not overlapping); this one is folded: its vertices are read by index, none merged",
                              stacklevel=5)
            return faces, edges, assign
        if not len(pairs) and consistent:
            return faces, edges, assign
        merged = [v for v in range(len(X)) if rep[v] != v]
        # faces: merged vertices, repeats in a row dropped; degenerate ones dropped
        new_faces, renumber, bad_faces = [], [], []
        for f, loop in enumerate(faces):
            m = [int(rep[v]) for v in loop]
            m = [v for i, v in enumerate(m) if v != m[i - 1]] if len(set(m)) > 1 else m[:1]
            P = X[m, :2]
            twice_area = float(P[:, 0] @ np.roll(P[:, 1], -1) - P[:, 1] @ np.roll(P[:, 0], -1)) if len(m) > 2 else 0
            if len(m) < 3 or abs(twice_area) <= 1e-9 * size * size:
                renumber.append(None)
                bad_faces.append(f)
                continue
            renumber.append(len(new_faces))
            new_faces.append(m)
        if not new_faces:
            self.fail("faces_vertices", None, f"has no face left with an area once vertices closer than {tol:.3g} "
                                              f"(merge_tol= x the pattern's size) are merged")
        # edges: merged vertices; zero-length ones dropped; two copies of one edge become one ('B' twice: a cut)
        keep_edges, bad_edges, new_edges, new_assign, at = [], [], [], [] if assign is not None else None, {}
        for k, e in enumerate(edges or ()):
            a, b = int(rep[e[0]]), int(rep[e[1]])
            if a == b:
                bad_edges.append(k)
                continue
            key = (min(a, b), max(a, b))
            if key in at:
                j = at[key]
                if assign is not None:
                    x, y = new_assign[j], assign[k]
                    if {x, y} <= {"B", "C"}:
                        new_assign[j] = "C"
                    elif x in "BC" or y in "BC" or x == y:
                        new_assign[j] = y if x in "BC" else x
                    else:
                        self.fail("edges_assignment", k, f"is {y!r}, but the edge lies on "
                                                         f"edges_vertices[{keep_edges[j]}], whose assignment is {x!r}, "
                                                         f"once vertices closer than {tol:.3g} are merged")
                continue
            at[key] = len(new_edges)
            keep_edges.append(k)
            new_edges.append([a, b])
            if assign is not None:
                new_assign.append(assign[k])
        dropped_edges = len(edges or ()) - len(new_edges)
        if merged or bad_faces or dropped_edges:
            parts = []
            if merged:
                parts.append(f"merged {len(merged)} vertices into others closer than {tol:.3g} (merge_tol= x the "
                             f"pattern's size), first {self.name('vertices_coords', merged[0])} into "
                             f"{self.name('vertices_coords', int(rep[merged[0]]))} (vertex {merged[0] + 1} into "
                             f"{int(rep[merged[0]]) + 1}, 1-based)")
            if bad_faces:
                parts.append(f"dropped {len(bad_faces)} degenerate face(s), first "
                             f"{self.name('faces_vertices', bad_faces[0])} = {faces[bad_faces[0]]} (face "
                             f"{bad_faces[0] + 1})")
            if bad_edges:
                parts.append(f"dropped {len(bad_edges)} zero-length edge(s), first "
                             f"{self.name('edges_vertices', bad_edges[0])} = {edges[bad_edges[0]]} (edge "
                             f"{bad_edges[0] + 1})")
            if dropped_edges > len(bad_edges):
                parts.append(f"joined {dropped_edges - len(bad_edges)} edge(s) lying on others")
            warnings.warn(f"{self.src}: flat pattern: " + "; ".join(parts), stacklevel=5)
        # one winding: counter-clockwise seen from +z, where the faces disagree
        if not _one_winding(new_faces, len(X)):
            flipped = []
            for f, loop in enumerate(new_faces):
                P = X[loop, :2]
                if float(P[:, 0] @ np.roll(P[:, 1], -1) - P[:, 1] @ np.roll(P[:, 0], -1)) < 0:
                    new_faces[f] = loop[::-1]
                    flipped.append(f)
            old = renumber.index(flipped[0]) if flipped else 0
            self.reader_notes.append(f"{self.src}: {len(flipped)} of its {len(new_faces)} faces run clockwise seen "
                                     f"from +z, against the others (first {self.name('faces_vertices', old)}, face "
                                     f"{old + 1}): reoriented counter-clockwise, as a flat pattern's faces are")
        # per-face and per-edge keys follow the faces and edges kept
        keep_faces = [f for f, r in enumerate(renumber) if r is not None]
        for key, v in list(self.keys.items()):
            if not isinstance(v, list) or key in ("faces_vertices", "edges_vertices", "edges_assignment"):
                continue
            if key.startswith("faces_") and len(v) == len(faces):
                self.keys[key] = [v[f] for f in keep_faces]
            elif key.startswith("edges_") and edges is not None and len(v) == len(edges):
                self.keys[key] = [v[k] for k in keep_edges]
        for key in ("faces_edges", "faces_faces", "edges_faces", "vertices_vertices", "vertices_faces",
                    "vertices_edges"):
            self.keys.pop(key, None)   # topology derived by index: stale once vertices are merged
        self.keys["faces_vertices"] = new_faces
        if edges is not None:
            self.keys["edges_vertices"] = new_edges
        if assign is not None:
            self.keys["edges_assignment"] = new_assign
        self.vertex_rep, self.face_renumber, self.n_file_faces = rep, renumber, len(faces)
        return new_faces, (None if edges is None else new_edges), new_assign

    def crease_pattern(self, X, loops, edges, identity):
        try:
            return CreasePattern(X, loops, edges)
        except PatternError as e:
            numbering = ("1-based: panel k is faces_vertices[k-1], vertex i is vertices_coords[i-1]" if identity
                         else "1-based numbers of the structure, whose faces are merged across facet edges, "
                              "vertices split along cuts or unused vertices dropped: see notes['fold']")
            raise FoldFileError(f"{self.src}: vertices_coords and faces_vertices do not make a valid crease "
                                f"pattern: {e} ({numbering})") from None

    # ------------------------------------------------------------ the structure
    def thickness(self, nf, face_map, n_panels):
        th = self.list_of(THICKNESS, nf, "one per face of faces_vertices")
        if th is None:
            return None
        out = [None] * n_panels
        first = [None] * n_panels
        for f, x in enumerate(th):
            x = self.number(THICKNESS, f, x, "a non-negative number", low=0)
            p = face_map[f]
            if out[p] is not None and out[p] != x:
                self.fail(THICKNESS, f, f"= {x:g} differs from {self.name(THICKNESS, first[p])} = {out[p]:g}, "
                                        f"but faces {first[p]} and {f} are one rigid face (merged across facet "
                                        f"edges)")
            if out[p] is None:
                out[p], first[p] = x, f
        return tuple(out)

    def scalar(self, key, default):
        if key not in self.keys:
            return default
        return self.number(key, None, self.keys[key], "a non-negative number", low=0)

    def gravity(self):
        g = self.keys.get(GRAVITY)
        if g is None:
            return None
        return self.vector(GRAVITY, None, g, "3 finite numbers [gx, gy, gz] or null")

    def placement(self):
        from .solids import Placement

        d = self.keys.get(PLACEMENT)
        if d is None:
            return None
        if not isinstance(d, dict) or set(d) - {"technique", "side", "taper_deg"}:
            self.fail(PLACEMENT, None, f"must be an object with keys technique, side, taper_deg, got {_show(d)}")
        try:
            return Placement(d.get("technique", "mid"), d.get("side") or "below", d.get("taper_deg"))
        except (StructureError, TypeError, ValueError) as e:
            self.fail(PLACEMENT, None, f"is not a placement: {e}")

    def _entries(self, key, nv):
        """(vertex, index path, dict) of every non-null entry of a per-vertex key."""
        lst = self.list_of(key, nv, "one per vertex of vertices_coords")
        for v, entry in enumerate(lst or []):
            if entry is None:
                continue
            items = [((v,), entry)] if isinstance(entry, dict) else \
                [((v, j), e) for j, e in enumerate(entry)] if isinstance(entry, list) else None
            if items is None or not all(isinstance(e, dict) for _, e in items):
                self.fail(key, v, f"must be null, an object or a list of objects, got {_show(entry)}")
            for idx, e in items:
                yield v, idx, e

    def rep(self, v):
        """File vertex v, or the vertex it was merged into (:meth:`flat_repair`)."""
        return v if self.vertex_rep is None else int(self.vertex_rep[v])

    def _panel(self, key, idx, v, e, faces, allow_none):
        """The file face of an entry at file vertex v (checked to contain v), or None."""
        if "panel" not in e and not allow_none:
            self.fail(key, idx + ("panel",), "is missing (the face whose vertex is held)")
        p = e.get("panel")
        if p is None and allow_none:
            return None
        n = len(faces) if self.face_renumber is None else self.n_file_faces
        if not (_is_int(p) and 0 <= p < n):
            self.fail(key, idx + ("panel",), f"must be a face index from 0 to {n - 1}"
                                             f"{' or null' if allow_none else ''}, got {_show(p)}")
        if self.face_renumber is not None:
            if self.face_renumber[p] is None:
                self.fail(key, idx + ("panel",), f"= {p}: face {p} is degenerate and was dropped (face {p + 1})",
                          numbered=True)
            p, v = self.face_renumber[p], self.rep(v)
        if v not in faces[p]:
            at = [f for f, loop in enumerate(faces) if v in loop]
            self.fail(key, idx + ("panel",), f"= {p}: face {p} does not contain vertex {v} (faces at vertex {v}: "
                                             f"{at}); counted from 1: face {p + 1} does not contain vertex {v + 1} "
                                             f"(its faces: {', '.join(str(f + 1) for f in at)})", numbered=True)
        return p

    def _corner(self, key, idx, v, f, vmap):
        u = vmap(self.rep(v), f)
        if u is None:
            self.fail(key, idx, f"is at vertex {v}, which lies inside the rigid face merged from faces across "
                                f"facet edges (no corner of a panel)")
        return u

    def supports(self, nv, faces, face_map, vmap, pat):
        out, held = [], {}
        for v, idx, e in self._entries(SUPPORT, nv):
            extra = set(e) - {"dofs", "panel"}
            if extra:
                self.fail(SUPPORT, idx, f"has unknown key {sorted(extra)[0]!r} (expected 'dofs' and 'panel')")
            if "dofs" not in e:
                self.fail(SUPPORT, idx + ("dofs",), "is missing (the held directions, e.g. \"xyz\")")
            dofs = e["dofs"]
            if not (isinstance(dofs, str) and dofs and set(dofs) <= set("xyz") and len(set(dofs)) == len(dofs)):
                self.fail(SUPPORT, idx + ("dofs",), f"must be a non-empty subset of \"xyz\", got {_show(dofs)}")
            f = self._panel(SUPPORT, idx, v, e, faces, allow_none=False)
            u = self._corner(SUPPORT, idx, v, f, vmap)
            piece = int(pat.piece_of[face_map[f]])    # pieces meeting at a vertex are held there apart
            for d in dofs:
                if d in held.setdefault((u, piece), set()):
                    self.fail(SUPPORT, (v,), f"holds vertex {v} twice in direction {d}")
                held[u, piece].add(d)
            out.append(Support(u, face_map[f], dofs))
        return tuple(sorted(out, key=lambda s: s.vertex))

    def loads(self, nv, faces, face_map, vmap, pat):
        out = []
        for v, idx, e in self._entries(LOAD, nv):
            extra = set(e) - {"force", "panel"}
            if extra:
                self.fail(LOAD, idx, f"has unknown key {sorted(extra)[0]!r} (expected 'force' and 'panel')")
            if "force" not in e:
                self.fail(LOAD, idx + ("force",), "is missing")
            force = self.vector(LOAD, idx + ("force",), e["force"], "3 finite numbers [fx, fy, fz]")
            f = self._panel(LOAD, idx, v, e, faces, allow_none=True)
            if f is not None:
                out.append(Load(self._corner(LOAD, idx, v, f, vmap), force, face_map[f]))
                continue
            # shared by the faces at v: split among the vertex's copies by their number of panels
            copies = {}
            for g, loop in enumerate(faces):
                if self.rep(v) in loop:
                    u = self._corner(LOAD, idx, v, g, vmap)
                    copies[u] = len(pat.vertex_panels[u])
            total = sum(copies.values())
            for u, n in copies.items():
                out.append(Load(u, force if len(copies) == 1 else tuple(x * n / total for x in force), None))
        return tuple(sorted(out, key=lambda ld: ld.vertex))

    def title(self):
        """file_title for frame 0; frame_title (own or inherited), else "<file title> (frame k)" for frame k."""
        for key in ("file_title", "frame_title"):
            keys = self.data if key == "file_title" else self.keys
            if key in keys and not isinstance(keys[key], str):
                self.fail(key, None, f"must be a string, got {_show(keys[key])}")
        if self.frame != 0 and "frame_title" in self.keys:
            return self.keys["frame_title"]
        top = self.data.get("file_title") or (
            os.path.splitext(os.path.basename(self.src))[0] if self.src != "FOLD data" else "structure")
        return top if self.frame == 0 else f"{top} (frame {self.frame})"

    def check_namespace(self):
        """A key of the ``origami:`` namespace that is not one of :data:`ORIGAMI_KEYS` is an error naming it and the
        nearest known key (a misspelt ``vertices_origami:supports`` would otherwise be left out silently)."""
        import difflib

        for key in self.keys:
            if isinstance(key, str) and key.split(":", 1)[0] in ("origami", "vertices_origami", "edges_origami",
                                                                  "faces_origami") and key not in ORIGAMI_KEYS:
                near = difflib.get_close_matches(key, ORIGAMI_KEYS, 1, 0.6)
                raise FoldFileError(f"{self.src}: {self.name(key)} is not a key of chrono-origami's origami: "
                                    f"namespace" + (f" (did you mean {near[0]}?)" if near else "") +
                                    f"; its keys: {', '.join(ORIGAMI_KEYS[:6])} (docs/file-formats.md)")

    def stiffness(self, E):
        """The hinge stiffness of ``origami:stiffness`` and ``edges_origami:stiffness`` as the specs of
        ``imperfections.parse_stiffness`` (1-based hinges of the structure), or None when the file has neither."""
        specs = []
        top = self.keys.get(STIFFNESS)
        if top is not None:
            if not isinstance(top, dict):
                self.fail(STIFFNESS, None, f"must be an object such as {{\"translational\": 1e8, \"rotational\": "
                                           f"1e7, \"door\": [1e8, 1e7], \"crease\": 1, \"slide\": 1000}}, got "
                                           f"{_show(top)}")
            for key in top:
                if key not in ("translational", "rotational", "crease", "slide") and key not in hinges.names():
                    self.fail(STIFFNESS, key, f"is not a stiffness: expected translational, rotational, crease, "
                                              f"slide or a hinge kind ({hinges.expected()})", numbered=True)
            if "translational" in top or "rotational" in top:
                from .tolerance import DEFAULT_ROTATIONAL, DEFAULT_TRANSLATIONAL

                kt = self.stiffness_value(STIFFNESS, "translational", top.get("translational", DEFAULT_TRANSLATIONAL))
                kr = self.stiffness_value(STIFFNESS, "rotational", top.get("rotational", DEFAULT_ROTATIONAL))
                specs.append(f"{kt!r},{kr!r}")
            for key, v in top.items():
                if key in hinges.names():
                    kt, kr = self.stiffness_pair(STIFFNESS, key, v)
                    specs.append(f"{key}:{kt!r},{kr!r}")
                elif key in ("crease", "slide"):
                    specs.append(f"{key}:{self.stiffness_value(STIFFNESS, key, v)!r}")
        per_edge = self.list_of(EDGE_STIFFNESS, E, "one per edge of edges_vertices")
        if per_edge is not None:
            hinge_of = {k: h for h, k in enumerate(self.hinge_file_edges)}
            for k, v in enumerate(per_edge):
                if v is None:
                    continue
                if k not in hinge_of:
                    self.fail(EDGE_STIFFNESS, k, f"is {_show(v)}, but edge {k} is no hinge; expected null")
                kt, kr = self.stiffness_pair(EDGE_STIFFNESS, k, v)
                specs.append(f"{hinge_of[k] + 1}:{kt!r},{kr!r}")
        if top is None and per_edge is None:
            return None
        return tuple(specs)

    def stiffness_value(self, key, index, x):
        """A stiffness: a finite number > 0 (``index``: the sub-key or edge index for the message)."""
        numbered = not isinstance(index, (int, np.integer))
        if not (_is_number(x) and math.isfinite(x) and x > 0):
            self.fail(key, index, f"must be a stiffness > 0 (SI per metre of hinge), got {_show(x)}", numbered)
        return self.number(key, index, x, "a number > 0", low=0)

    def stiffness_pair(self, key, index, v):
        if not (isinstance(v, list) and len(v) == 2):
            self.fail(key, index, f"must be [k_t, k_r] (N/m and N m/rad per metre of hinge), got {_show(v)}",
                      not isinstance(index, (int, np.integer)))
        return tuple(self.stiffness_value(key, index, x) for x in v)

    def structure(self):
        self.check_namespace()
        pat, kinds, notes, face_map, vmap = self.pattern()
        notes.update(source=self.src, frame=self.frame)
        if isinstance(self.keys.get("frame_unit"), str):          # FOLD's length unit ("m": SI, N and N m)
            notes["frame_unit"] = self.keys["frame_unit"]
        if self.reader_notes:
            notes["reader_notes"] = list(self.reader_notes)
        nv = len(self.keys["vertices_coords"])
        faces = self.file_faces
        supports, loads = self.supports(nv, faces, face_map, vmap, pat), self.loads(nv, faces, face_map, vmap, pat)
        edges = self.keys.get("edges_vertices")
        stiffness = self.stiffness(len(edges) if isinstance(edges, list) else None)
        extra = {"stiffness": stiffness} if stiffness is not None else {}
        try:
            return Structure(pat, kinds, self.thickness(len(face_map), face_map, pat.n_panels),
                             self.scalar(DENSITY, 1.0), supports, loads, self.gravity(), self.title(),
                             {"fold": notes, "origins": {"supports": ("file",) * len(supports),
                                                         "loads": ("file",) * len(loads)}, **extra},
                             self.placement())
        except StructureError as e:
            raise FoldFileError(f"{self.src}: {e}") from None

# ======================================================================= writing
def fold_angles(pattern, vertices=None, file_letters=None):
    """Fold angle (degrees) of every edge, in ``pattern.edges`` order; 0 on boundary edges.

    FOLD sign: positive valley (the two face normals point into each other),
    negative mountain; the magnitude is the angle between the normals: ``crease.pattern.fold_angles``
    (minus the hinge's relative rotation) in degrees.
    A crease folded flat onto itself (within :data:`FLAT_DEG` of +-180 deg, where the normals cannot tell a
    valley from a mountain) takes the sign of its "M" or "V" in ``file_letters`` (per edge), when given.
    """
    fold = dict(zip((tuple(sorted(h.vertices)) for h in pattern.hinges), crease_fold_angles(pattern, vertices)))
    out = [math.degrees(fold[e]) if e in fold else 0.0 for e in pattern.edges]
    if file_letters is not None:
        out = [(180.0 if f == "V" else -180.0) if f in ("M", "V") and abs(abs(x) - 180.0) <= FLAT_DEG else x
               for x, f in zip(out, file_letters)]
    return out


def against_letters(structure):
    """One line on the hinges that ``structure``'s state folds against its file's "M" or "V" (more than
    :data:`FLAT_DEG` the other way: a valley at a negative angle), or None: a fold to the file's targets turns
    them through flat (hand-written folded forms, faces listed against the FOLD orientation)."""
    letters = file_notes(structure)[0]
    if letters is None:
        return None
    pat = structure.pattern
    angle = dict(zip(pat.edges, fold_angles(pat, file_letters=letters)))
    letter = dict(zip(pat.edges, letters))
    bad = []
    for h in pat.hinges:
        e = tuple(sorted(h.vertices))
        x, f = angle[e], letter[e]
        if f in ("M", "V") and abs(x) > FLAT_DEG and (x > 0) != (f == "V"):
            bad.append((h, f, x))
    if not bad:
        return None
    h, f, x = bad[0]
    return (f"{len(bad)} of the {len(pat.hinges)} hinges fold against their file's M or V letter (hinge "
            f"{h.index + 1}, panels {h.panels[0] + 1} and {h.panels[1] + 1}: {f} in the file, {x:.4g} deg in the "
            f"geometry, FOLD sign): a fold to the file's targets turns them through flat")


def written_angles(angles):
    """Fold angles as files get them: within :data:`FLAT_DEG` of 0 (round-off of a flat crease, whose sign says
    nothing), exactly 0, so that no written angle contradicts the M/V letter kept beside it."""
    return [0.0 if x is not None and abs(x) <= FLAT_DEG else x for x in angles]


def assignments(pattern, angles):
    """FOLD edges_assignment from fold angles: B on boundary edges, V/M by sign, U when flat."""
    out = []
    for e, x in zip(pattern.edges, angles):
        if len(pattern.edge_panels[e]) == 1:
            out.append("B")
        else:
            out.append("U" if abs(x) <= FLAT_DEG else ("V" if x > 0 else "M"))
    return out


def kept_assignment(geometric, file_letters):
    """Edge letters of a written frame: the file's M/V where the frame's crease is flat or folds that way, its
    F where the crease is flat, its B, C, J; elsewhere (and for U) the letter of the geometry (``assignments``)."""
    if file_letters is None:
        return list(geometric)
    out = []
    for g, f in zip(geometric, file_letters):
        if f in ("M", "V"):
            out.append(f if g in ("U", f) else g)
        elif f == "F":
            out.append("F" if g == "U" else g)
        elif f in ("B", "C", "J"):
            out.append(f if g in ("B", "U") or f == "J" else g)
        else:
            out.append(g)
    return out


def file_notes(structure):
    """(letters, target fold angles) per pattern edge that the structure's file gave (``notes["fold"]``), each
    None when not given for every edge."""
    notes = (structure.notes or {}).get("fold", {})
    n = len(structure.pattern.edges)
    letters = notes.get("edges_assignment")
    targets = notes.get("edges_foldAngle")
    return (letters if letters is not None and len(letters) == n else None,
            targets if targets is not None and len(targets) == n else None)


def fold_dict(structure, frames=None, times=None):
    """The FOLD 1.2 dictionary of ``structure``; ``frames``: vertex arrays (V x 3) or structures of a history.

    ``times``: one time (s) per frame of ``frames``; each frame then gets ``frame_title`` "t = ... s" and the
    custom key ``origami:time`` (read back by the viewer's playback).

    A structure read from a file keeps that file's assignment (:func:`kept_assignment`, in every frame) and,
    on the creases that are flat in frame 0, the file's target fold angles (so the written crease pattern
    folds to the same targets).
    """
    pat = structure.pattern
    hinge_of = {tuple(sorted(h.vertices)): h.index for h in pat.hinges}
    file_letters, file_targets = file_notes(structure)
    geometric = fold_angles(pat, file_letters=file_letters)
    angles = geometric
    if file_targets is not None:
        angles = [float(t) if abs(a) <= FLAT_DEG and t is not None and (letter is None or letter != "U")
                  else a for a, t, letter in zip(angles, file_targets, file_letters or [None] * len(angles))]
    d = {
        "file_spec": SPEC,
        "file_creator": "chrono-origami",
        "file_title": structure.name,
        "file_classes": ["singleModel"] + (["animation"] if frames else []),
        "frame_classes": ["foldedForm" if any(abs(x) > FLAT_DEG for x in geometric) else "creasePattern"],
        "frame_attributes": ["2D" if not pat.vertices[:, 2].any() else "3D", "manifold", "orientable"],
        "vertices_coords": pat.vertices.tolist(),
        "faces_vertices": [list(loop) for loop in pat.panels],
        "edges_vertices": [list(e) for e in pat.edges],
        "edges_assignment": kept_assignment(assignments(pat, geometric), file_letters),
        "edges_foldAngle": written_angles(angles),
        HINGE: [structure.hinge_kinds[hinge_of[e]] if e in hinge_of else None for e in pat.edges],
        THICKNESS: list(structure.thickness),
        SUPPORT: _per_vertex(pat.n_vertices, [(s.vertex, {"dofs": s.dofs, "panel": s.panel})
                                              for s in structure.supports]),
        LOAD: _per_vertex(pat.n_vertices, [(ld.vertex, {"force": [float(x) for x in ld.force], "panel": ld.panel})
                                           for ld in structure.loads]),
        DENSITY: float(structure.density),
    }
    if structure.gravity is not None:
        d[GRAVITY] = [float(x) for x in structure.gravity]
    if structure.placement is not None:
        pl = structure.placement
        d[PLACEMENT] = {"technique": pl.technique, "side": pl.side, "taper_deg": pl.taper_deg}
    if structure.notes.get("stiffness"):
        d.update(_stiffness_keys(structure, hinge_of))
    if frames:
        d["file_frames"] = [_history_frame(pat, fr, i, file_letters) for i, fr in enumerate(frames)]
        if times is not None:
            if len(times) != len(frames):
                raise FoldFileError(f"{len(times)} frame times for {len(frames)} frames")
            for fr, t in zip(d["file_frames"], times):
                fr["frame_title"] = f"t = {float(t):.6g} s"
                fr["origami:time"] = float(t)
    return d


def write_fold(structure, path, frames=None, times=None, title=None):
    """Write ``structure`` (and an optional history ``frames`` with ``times``, see :func:`fold_dict`) to a FOLD file.

    ``title``: the file's ``file_title`` (default: the structure's name).
    """
    d = fold_dict(structure, frames, times)
    if title is not None:
        d["file_title"] = str(title)
    write_fold_dict(d, path)


def write_fold_dict(d, path):
    """Write a FOLD dictionary as JSON: one key a line, one frame a line."""
    lines = []
    for key, v in d.items():
        if key == "file_frames":
            body = ",\n".join("    " + json.dumps(f) for f in v)
            lines.append(f"  {json.dumps(key)}: [\n{body}\n  ]")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(v)}")
    with open(path, "w", encoding="utf-8") as f:
        f.write("{\n" + ",\n".join(lines) + "\n}\n")


def convert(source, destination, merge_tol=None, facets=None, colors=None, dashes=None, notes=None):
    """Write the FOLD file of a drawn crease pattern (SVG or ORIPA: ``convert FILE.svg -o FILE.fold``); returns
    its dictionary.

    The FOLD file is the flat crease pattern with the SVG's assignment and
    target fold angles (frame class "creasePattern"); yellow facet lines are
    left out, their faces merged (``facets="facet"``, the default) or written
    as flat creases "F" (``facets="crease"``). It is read back as a structure
    before it is written, so a file that would not open is not written. ``colors``, ``dashes`` (SVG) and
    ``notes``: as :func:`chrono_origami.crease.read_drawing`.
    """
    d = read_drawing(source, merge_tol=merge_tol, facets="facet" if facets is None else facets, colors=colors,
                     dashes=dashes, notes=notes)
    _Reader(d, 0, os.fspath(source), "crease").structure()
    write_fold_dict(d, destination)
    return d


def _one_winding(faces, nv):
    """Whether no two loops of ``faces`` run one side in the same direction (consistent orientation)."""
    sizes = np.array([len(loop) for loop in faces])
    flat = np.fromiter((v for loop in faces for v in loop), dtype=np.int64, count=int(sizes.sum()))
    start = np.r_[0, np.cumsum(sizes)[:-1]]
    nxt = np.arange(len(flat)) + 1
    nxt[np.cumsum(sizes) - 1] = start                 # each loop closes on its first vertex
    code = flat * nv + flat[nxt]
    return len(np.unique(code)) == len(code)


def _per_vertex(nv, items):
    out = [None] * nv
    for v, e in items:
        out[v] = e if out[v] is None else (out[v] if isinstance(out[v], list) else [out[v]]) + [e]
    return out


def _history_frame(pat, fr, i, file_letters=None):
    X = getattr(getattr(fr, "pattern", fr), "vertices", fr)
    X = np.asarray(X, float)
    if X.shape != pat.vertices.shape:
        raise FoldFileError(f"frames[{i}] has shape {X.shape}; the structure has {pat.n_vertices} vertices (V x 3)")
    angles = fold_angles(pat, X, file_letters)
    return {"frame_classes": ["foldedForm"], "frame_parent": 0, "frame_inherit": True,
            "vertices_coords": X.tolist(), "edges_foldAngle": written_angles(angles),
            "edges_assignment": kept_assignment(assignments(pat, angles), file_letters)}


# ======================================================================= helpers
#: the 1-based name of the first index of a per-vertex, per-face or per-edge key
_ONE_BASED = {"vertices": "vertex", "faces": "face", "edges": "edge"}


def one_based(key, index):
    """" (1-based: vertex 5)" for ``key[index]`` of a per-vertex (face, edge) key, "" otherwise: file indices are
    0-based like Python's, the tables' numbers 1-based, and every message about a file index gives both."""
    first = index[0] if isinstance(index, tuple) and index else index
    what = _ONE_BASED.get(key.split(":")[0].split("_")[0])
    if what is None or not isinstance(first, (int, np.integer)) or isinstance(first, bool):
        return ""
    return f" (1-based: {what} {first + 1})"


def _is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


def _is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _is_vector(x):
    return isinstance(x, list) and len(x) == 3 and all(_is_number(c) and math.isfinite(c) for c in x)


def _show(x, limit=60):
    """Short JSON text of a value for messages."""
    s = json.dumps(x, default=repr)
    return s if len(s) <= limit else s[:limit - 3] + "..."


def _stiffness_keys(structure, hinge_of):
    """``origami:stiffness`` and ``edges_origami:stiffness`` of the stiffness a structure read from a file carries
    (``structure.notes["stiffness"]``)."""
    from .tolerance import parse_stiffness

    k = parse_stiffness(structure.notes["stiffness"], structure)
    top = {"translational": k.translational, "rotational": k.rotational, "crease": k.crease, "slide": k.slide}
    top.update({name: [float(x) for x in v] for name, v in k.per_kind.items()})
    pat = structure.pattern
    edges = [k.overrides.get(hinge_of[e]) if e in hinge_of else None for e in pat.edges]
    out = {STIFFNESS: top}
    if any(v is not None for v in edges):
        out[EDGE_STIFFNESS] = [None if v is None else [float(x) for x in v] for v in edges]
    return out
