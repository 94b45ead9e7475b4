"""FOLD 1.2 files <-> structures (https://github.com/edemaine/fold, doc/spec.md).

A FOLD file is a JSON object. Indices in it are 0-based, like Python's:
face k of the file is panel k, vertex i is vertex i (printed 1-based elsewhere).

Standard keys
-------------
``vertices_coords`` (required): [x, y, z] per vertex (length units, global
frame). 2-D entries [x, y] are accepted and get z = 0, as FOLD says.
``faces_vertices`` (required): vertex loop of each face; the face normal
follows the right-hand rule (FOLD's "counterclockwise seen from the top").
``edges_vertices`` (optional): the edge order. Hinge k is the k-th *interior*
edge (two faces) in this order. Without it, edges are derived from the faces
(in the order they first appear walking the loops), and no other ``edges_``
key may be given.
``edges_assignment``: "B" on boundary edges (one face) and only there;
"M", "V", "F", "U" on interior edges (all of them are hinges: "F" does not
glue the faces); "C" and "J" are not supported.
``edges_foldAngle`` (degrees in [-180, 180], FOLD sign: positive valley,
negative mountain, 0 on boundary edges; must agree with M/V when both are
given). The folded state is the one of ``vertices_coords``; the assignment and
fold angles read from a file are kept in ``structure.notes["fold"]`` (they may
be targets of a folding process) and are not checked against the geometry.
``file_title``: the structure's name. ``file_frames``: more frames (below).

Written files compute ``edges_foldAngle`` from the geometry: the signed angle
between the two face normals about the hinge, positive when the normals point
into each other (valley). ``edges_assignment`` is then "V" or "M" from its
sign, "U" for a hinge that is flat (|angle| <= :data:`FLAT_DEG`: the
configuration does not tell its direction; "F" would tell FOLD tools that the
crease stays flat) and "B" on boundary edges.

Custom keys (namespace ``origami``)
-----------------------------------
``faces_origami:thickness``: thickness per face (length, >= 0; default 0).
``edges_origami:hinge``: per edge, "door" or "sliding" on interior edges,
null on boundary edges (default: every hinge "door").
``vertices_origami:support``: per vertex, null, or {"dofs": "xyz" | "yz" |
..., "panel": face index} -- the vertex *of that face* is held in the listed
global directions -- or a list of such objects (several panels at a vertex).
``vertices_origami:load``: per vertex, null, or {"force": [fx, fy, fz],
"panel": face index or null} (force units, global frame; null shares the
force equally among the faces at the vertex), or a list of such objects.
``origami:density`` (mass per volume, default 1) and ``origami:gravity``
([gx, gy, gz] acceleration, or null) at the top level.
Supports and loads come back ordered by vertex.

Frames
------
Frame 0 is the top level; ``file_frames[i]`` is frame i + 1. A frame with
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

import numpy as np

from .errors import FoldFileError, PatternError, StructureError
from .pattern import CreasePattern
from .structure import HINGE_KINDS, Load, Structure, Support

SPEC = 1.2
#: Fold angles (degrees) at most this large are written as flat hinges ("U").
FLAT_DEG = 1e-6
ASSIGNMENTS = ("B", "M", "V", "F", "U", "C", "J")
THICKNESS = "faces_origami:thickness"
HINGE = "edges_origami:hinge"
SUPPORT = "vertices_origami:support"
LOAD = "vertices_origami:load"
DENSITY = "origami:density"
GRAVITY = "origami:gravity"
_EDGE_KEYS = ("edges_assignment", "edges_foldAngle", "edges_foldAngles", HINGE)
_NOT_INHERITED = ("frame_parent", "frame_inherit")


# ======================================================================= reading
def read_fold(source, frame=0):
    """Structure of frame ``frame`` (0: the top level) of a FOLD file path or already-parsed dict."""
    data, src = _load(source)
    return _Reader(data, frame, src).structure()


def read_frames(source):
    """Structures of frames 1, 2, ... (``file_frames``), in order; [] when there are none."""
    data, src = _load(source)
    n = len(_file_frames(data, src))
    return [_Reader(data, k, src).structure() for k in range(1, n + 1)]


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


def _resolve_frame(data, k, src):
    """(keys of frame k with inheritance applied, key -> prefix naming where it came from)."""
    frames = _file_frames(data, src)
    if not (isinstance(k, int) and 0 <= k <= len(frames)):
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
    """Validates the keys of one frame and builds its Structure."""

    def __init__(self, data, frame, src):
        self.keys, self.origin = _resolve_frame(data, frame, src)
        self.data, self.src, self.frame = data, src, frame

    # ---------------------------------------------------------------- messages
    def name(self, key, index=None):
        """``key`` as written in the file, with its frame prefix and an index path (ints and sub-keys)."""
        s = self.origin.get(key, "" if self.frame == 0 else f"file_frames[{self.frame - 1}].") + key
        path = () if index is None else index if isinstance(index, tuple) else (index,)
        return s + "".join(f"[{i}]" if isinstance(i, int) else f".{i}" for i in path)

    def fail(self, key, index, message):
        raise FoldFileError(f"{self.src}: {self.name(key, index)} {message}")

    def check_vertex_index(self, key, index, v, nv):
        """A vertex index ``v`` at ``key[index]`` must be in 0 .. nv - 1."""
        if v < 0:
            self.fail(key, index, f"= {v} is negative; vertex indices are 0-based, from 0 to {nv - 1}")
        if v >= nv:
            self.fail(key, index, f"= {v} refers to a vertex beyond the {nv} of vertices_coords "
                                  f"(indices are 0-based, from 0 to {nv - 1})")

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

    # ---------------------------------------------------------------- geometry
    def vertices(self):
        coords = self.list_of("vertices_coords", required=True)
        if not coords:
            self.fail("vertices_coords", None, "is empty")
        X = np.zeros((len(coords), 3))
        for i, c in enumerate(coords):
            if not (isinstance(c, list) and len(c) in (2, 3) and all(_is_number(x) and math.isfinite(x) for x in c)):
                self.fail("vertices_coords", i, f"must be 2 or 3 finite numbers [x, y(, z)], got {_show(c)}")
            X[i, :len(c)] = c
        return X

    def faces(self, nv):
        faces = self.list_of("faces_vertices", required=True)
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

    def edges(self, nv, faces):
        edges = self.list_of("edges_vertices")
        if edges is None:
            for key in _EDGE_KEYS:
                if key in self.keys:
                    self.fail(key, None, "needs edges_vertices (it is indexed by edge), which is missing")
            return None
        sides = {}
        for f, loop in enumerate(faces):
            for a, b in zip(loop, loop[1:] + loop[:1]):
                sides.setdefault(frozenset((a, b)), f)
        first = {}
        for k, e in enumerate(edges):
            if not (isinstance(e, list) and len(e) == 2 and all(_is_int(v) for v in e)):
                self.fail("edges_vertices", k, f"must be two vertex indices [u, v], got {_show(e)}")
            for j, v in enumerate(e):
                self.check_vertex_index("edges_vertices", (k, j), v, nv)
            s = frozenset(e)
            if s not in sides:
                self.fail("edges_vertices", k, f"= {e} is not a side of any face")
            if s in first:
                self.fail("edges_vertices", k, f"= {e} repeats edges_vertices[{first[s]}]")
            first[s] = k
        for s, f in sides.items():
            if s not in first:
                a, b = sorted(s)
                self.fail("edges_vertices", None, f"lacks the side [{a}, {b}] of faces_vertices[{f}]")
        return [list(e) for e in edges]

    def pattern(self):
        X = self.vertices()
        faces = self.faces(len(X))
        edges = self.edges(len(X), faces)
        try:
            pat = CreasePattern(X, faces, edges)
        except PatternError as e:
            raise FoldFileError(f"{self.src}: vertices_coords and faces_vertices do not make a valid crease "
                                f"pattern: {e} (1-based: panel k is faces_vertices[k-1], vertex i is "
                                f"vertices_coords[i-1])") from None
        return pat, edges

    # ------------------------------------------------------------ edge properties
    def edge_properties(self, pat, edges):
        """(hinge kinds in hinge order, notes dict with assignment and fold angles)."""
        notes = {}
        if edges is None:
            return None, notes
        E = len(edges)
        faces_of = [pat.edge_panels[tuple(sorted(e))] for e in edges]
        assign = self.list_of("edges_assignment", E, "one per edge of edges_vertices")
        if assign is not None:
            for k, a in enumerate(assign):
                if a not in ASSIGNMENTS:
                    self.fail("edges_assignment", k, f"is {_show(a)}; expected one of {list(ASSIGNMENTS)}")
                if a in ("C", "J"):
                    self.fail("edges_assignment", k, f"is {a!r} (cut/join), which is not supported")
                self._check_boundary("edges_assignment", k, edges[k], faces_of[k], a == "B", repr(a), "'B'")
            notes["edges_assignment"] = list(assign)
        key = "edges_foldAngle" if "edges_foldAngle" in self.keys or "edges_foldAngles" not in self.keys \
            else "edges_foldAngles"   # the FOLD 1.0 spelling
        angles = self.list_of(key, E, "one per edge of edges_vertices")
        if angles is not None:
            for k, x in enumerate(angles):
                if not (_is_number(x) and -180 <= x <= 180):
                    self.fail(key, k, f"must be a number of degrees in [-180, 180], got {_show(x)}")
                if len(faces_of[k]) == 1 and x != 0:
                    self.fail(key, k, f"is {x} on the boundary edge {edges[k]}; expected 0")
                a = assign[k] if assign is not None else None
                if (a == "M" and x > 0) or (a == "V" and x < 0):
                    self.fail(key, k, f"is {x}, but edges_assignment[{k}] is {a!r} "
                                      f"(FOLD: positive valley, negative mountain)")
            notes["edges_foldAngle"] = [float(x) for x in angles]
        kinds = self.list_of(HINGE, E, "one per edge of edges_vertices")
        if kinds is None:
            return None, notes
        out = []
        for k, kind in enumerate(kinds):
            if kind is not None and kind not in HINGE_KINDS:
                self.fail(HINGE, k, f"is {_show(kind)}; expected 'door', 'sliding' or null")
            self._check_boundary(HINGE, k, edges[k], faces_of[k], kind is None, _show(kind),
                                 "null")
            if kind is not None:
                out.append(kind)
        return tuple(out), notes

    def _check_boundary(self, key, k, edge, faces, says_boundary, value, boundary_value):
        if len(faces) == 1 and not says_boundary:
            self.fail(key, k, f"is {value}, but edge {edge} is a boundary edge (only in face {faces[0]}); "
                              f"expected {boundary_value}")
        if len(faces) == 2 and says_boundary:
            self.fail(key, k, f"is {value}, but edge {edge} is a hinge between faces {faces[0]} and {faces[1]}")

    # ------------------------------------------------------------ the structure
    def thickness(self, nf):
        th = self.list_of(THICKNESS, nf, "one per face of faces_vertices")
        if th is None:
            return None
        for f, x in enumerate(th):
            if not (_is_number(x) and math.isfinite(x) and x >= 0):
                self.fail(THICKNESS, f, f"must be a non-negative number, got {_show(x)}")
        return tuple(float(x) for x in th)

    def scalar(self, key, default):
        if key not in self.keys:
            return default
        x = self.keys[key]
        if not (_is_number(x) and math.isfinite(x) and x >= 0):
            self.fail(key, None, f"must be a non-negative number, got {_show(x)}")
        return float(x)

    def gravity(self):
        g = self.keys.get(GRAVITY)
        if g is None:
            return None
        if not _is_vector(g):
            self.fail(GRAVITY, None, f"must be 3 finite numbers [gx, gy, gz] or null, got {_show(g)}")
        return tuple(float(x) for x in g)

    def _entries(self, key, pat):
        """(vertex, index path, dict) of every non-null entry of a per-vertex key."""
        lst = self.list_of(key, pat.n_vertices, "one per vertex of vertices_coords")
        for v, entry in enumerate(lst or []):
            if entry is None:
                continue
            items = [((v,), entry)] if isinstance(entry, dict) else \
                [((v, j), e) for j, e in enumerate(entry)] if isinstance(entry, list) else None
            if items is None or not all(isinstance(e, dict) for _, e in items):
                self.fail(key, v, f"must be null, an object or a list of objects, got {_show(entry)}")
            for idx, e in items:
                yield v, idx, e

    def _panel(self, key, idx, v, e, pat, allow_none):
        if "panel" not in e and not allow_none:
            self.fail(key, idx + ("panel",), "is missing (the face whose vertex is held)")
        p = e.get("panel")
        if p is None and allow_none:
            return None
        if not (_is_int(p) and 0 <= p < pat.n_panels):
            self.fail(key, idx + ("panel",), f"must be a face index from 0 to {pat.n_panels - 1}"
                                             f"{' or null' if allow_none else ''}, got {_show(p)}")
        if v not in pat.panels[p]:
            self.fail(key, idx + ("panel",), f"= {p}: face {p} does not contain vertex {v} "
                                             f"(faces at vertex {v}: {pat.vertex_panels[v]})")
        return p

    def supports(self, pat):
        out, held = [], {}
        for v, idx, e in self._entries(SUPPORT, pat):
            extra = set(e) - {"dofs", "panel"}
            if extra:
                self.fail(SUPPORT, idx, f"has unknown key {sorted(extra)[0]!r} (expected 'dofs' and 'panel')")
            if "dofs" not in e:
                self.fail(SUPPORT, idx + ("dofs",), "is missing (the held directions, e.g. \"xyz\")")
            dofs = e["dofs"]
            if not (isinstance(dofs, str) and dofs and set(dofs) <= set("xyz") and len(set(dofs)) == len(dofs)):
                self.fail(SUPPORT, idx + ("dofs",), f"must be a non-empty subset of \"xyz\", got {_show(dofs)}")
            p = self._panel(SUPPORT, idx, v, e, pat, allow_none=False)
            for d in dofs:
                if d in held.setdefault(v, set()):
                    self.fail(SUPPORT, (v,), f"holds vertex {v} twice in direction {d}")
                held[v].add(d)
            out.append(Support(v, p, dofs))
        return tuple(out)

    def loads(self, pat):
        out = []
        for v, idx, e in self._entries(LOAD, pat):
            extra = set(e) - {"force", "panel"}
            if extra:
                self.fail(LOAD, idx, f"has unknown key {sorted(extra)[0]!r} (expected 'force' and 'panel')")
            if "force" not in e:
                self.fail(LOAD, idx + ("force",), "is missing")
            if not _is_vector(e["force"]):
                self.fail(LOAD, idx + ("force",), f"must be 3 finite numbers [fx, fy, fz], got {_show(e['force'])}")
            p = self._panel(LOAD, idx, v, e, pat, allow_none=True)
            out.append(Load(v, tuple(float(x) for x in e["force"]), p))
        return tuple(out)

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

    def structure(self):
        pat, edges = self.pattern()
        kinds, notes = self.edge_properties(pat, edges)
        notes.update(source=self.src, frame=self.frame)
        try:
            return Structure(pat, kinds, self.thickness(pat.n_panels), self.scalar(DENSITY, 1.0),
                             self.supports(pat), self.loads(pat), self.gravity(), self.title(), {"fold": notes})
        except StructureError as e:
            raise FoldFileError(f"{self.src}: {e}") from None


# ======================================================================= writing
def fold_angles(pattern, vertices=None):
    """Fold angle (degrees) of every edge, in ``pattern.edges`` order; 0 on boundary edges.

    FOLD sign: positive valley (the two face normals point into each other),
    negative mountain; the magnitude is the angle between the normals.
    """
    X = pattern.vertices if vertices is None else np.asarray(vertices, float)
    pat = pattern if vertices is None else pattern.with_vertices(X)
    by_edge = {tuple(sorted(h.vertices)): h for h in pat.hinges}
    out = []
    for e in pat.edges:
        h = by_edge.get(e)
        if h is None:
            out.append(0.0)
            continue
        a, b = h.vertices
        p, q = h.panels
        t = (X[b] - X[a]) / np.linalg.norm(X[b] - X[a])   # as run by face p
        mp, mq = pat.panel_normal(p), pat.panel_normal(q)
        out.append(math.degrees(math.atan2(-t @ np.cross(mp, mq), mp @ mq)))
    return out


def assignments(pattern, angles):
    """FOLD edges_assignment from fold angles: B on boundary edges, V/M by sign, U when flat."""
    out = []
    for e, x in zip(pattern.edges, angles):
        if len(pattern.edge_panels[e]) == 1:
            out.append("B")
        else:
            out.append("U" if abs(x) <= FLAT_DEG else ("V" if x > 0 else "M"))
    return out


def fold_dict(structure, frames=None):
    """The FOLD 1.2 dictionary of ``structure``; ``frames``: vertex arrays (V x 3) or structures of a history."""
    pat = structure.pattern
    hinge_of = {tuple(sorted(h.vertices)): h.index for h in pat.hinges}
    angles = fold_angles(pat)
    d = {
        "file_spec": SPEC,
        "file_creator": "chrono-origami",
        "file_title": structure.name,
        "file_classes": ["singleModel"] + (["animation"] if frames else []),
        "frame_classes": ["foldedForm" if any(abs(x) > FLAT_DEG for x in angles) else "creasePattern"],
        "frame_attributes": ["2D" if not pat.vertices[:, 2].any() else "3D", "manifold", "orientable"],
        "vertices_coords": pat.vertices.tolist(),
        "faces_vertices": [list(loop) for loop in pat.panels],
        "edges_vertices": [list(e) for e in pat.edges],
        "edges_assignment": assignments(pat, angles),
        "edges_foldAngle": angles,
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
    if frames:
        d["file_frames"] = [_history_frame(pat, fr, i) for i, fr in enumerate(frames)]
    return d


def write_fold(structure, path, frames=None):
    """Write ``structure`` (and an optional history ``frames``, see :func:`fold_dict`) to a FOLD file."""
    d = fold_dict(structure, frames)
    lines = []
    for key, v in d.items():
        if key == "file_frames":
            body = ",\n".join("    " + json.dumps(f) for f in v)
            lines.append(f"  {json.dumps(key)}: [\n{body}\n  ]")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(v)}")
    with open(path, "w", encoding="utf-8") as f:
        f.write("{\n" + ",\n".join(lines) + "\n}\n")


def _per_vertex(nv, items):
    out = [None] * nv
    for v, e in items:
        out[v] = e if out[v] is None else (out[v] if isinstance(out[v], list) else [out[v]]) + [e]
    return out


def _history_frame(pat, fr, i):
    X = getattr(getattr(fr, "pattern", fr), "vertices", fr)
    X = np.asarray(X, float)
    if X.shape != pat.vertices.shape:
        raise FoldFileError(f"frames[{i}] has shape {X.shape}; the structure has {pat.n_vertices} vertices (V x 3)")
    angles = fold_angles(pat, X)
    return {"frame_classes": ["foldedForm"], "frame_parent": 0, "frame_inherit": True,
            "vertices_coords": X.tolist(), "edges_foldAngle": angles,
            "edges_assignment": assignments(pat, angles)}


# ======================================================================= helpers
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
