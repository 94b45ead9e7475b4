"""Supports and loads as a user writes them: the vertex selector language and the text forms of supports and loads.

The command line (``--support``, ``--load``) and Python
(``Structure.with_supports``, ``.with_loads``) read the same forms. Numbers
in them are 1-based, as in the tables (vertex 1 is ``pattern.vertices[0]``,
panel 1 is ``pattern.panels[0]``); the records they make
(:class:`~chrono_origami.structure.Support`, :class:`~chrono_origami.structure.Load`)
are 0-based, like everything inside Python.

Vertex selectors
----------------
A selector names a set of vertices::

    SELECTOR := TERM ("," TERM)*          union
    TERM     := FACTOR ("&" FACTOR)*      intersection (quote it in a shell: 'min-z&min-x')
    FACTOR   := one of the forms below, optionally followed by ~TOL

=====================  ==========================================================================
``7``, ``3-9``          vertex numbers (1-based); ``1,4,7-9`` is a union of them
``all``                 every vertex of a panel
``boundary``            the vertices on boundary edges; ``interior`` the others
``min-x`` ... ``max-z``  the vertices at the smallest (largest) coordinate: ``min-z`` is the lowest
                        row, ``min-x&min-y`` a corner of a flat sheet; ``lowest`` = ``min-z``,
                        ``highest`` = ``max-z``
``x=A``                 the vertices on the plane x = A (also ``y=``, ``z=``)
``x=A..B``              the vertices with A <= x <= B; ``x=..B`` and ``x=A..`` leave one end open
``box(x0,y0,z0,x1,y1,z1)``  the vertices in the box with these opposite corners
``near(x,y,z)``         the one vertex nearest the point (ties: the lowest number)
``corner(-x-y)``        the one vertex farthest in the direction of the signed axes, here (-1, -1, 0)
                        (ties: the lowest number): a corner of the sheet
``panel(P)``            the vertices of panel P (1-based); supports and loads then go on panel P
=====================  ==========================================================================

Positions are compared within a tolerance: :data:`SELECT_RTOL` (1e-3) times
the structure's size (its bounding-box diagonal), or the absolute ``~TOL``
(length units) after a factor, e.g. ``min-z~0.01``. A selector that selects
no vertex is an error (it names the selector and the range of the
coordinates), never an empty support.

Text forms
----------
``SELECTOR:DOFS[:pP]``
    a support at every selected vertex, holding it in the global directions
    DOFS (a non-empty subset of ``xyz``), on panel P. Without ``:pP`` the
    panel is P of a ``panel(P)`` selector, else the lowest-numbered panel at
    each vertex (a support holds a vertex *of one panel*; which one changes
    the hinge actions at that vertex).
``SELECTOR:FX,FY,FZ[:pP]``
    a point load (force units, global frame) at every selected vertex, each
    taking the whole force, on panel P; without ``:pP`` it is shared equally
    by the panels at the vertex (``panel(P)``: on P).

Errors are :class:`BoundaryError` (a :class:`~chrono_origami.tools.errors.StructureError`),
one line naming the form and the 1-based vertex or panel.
"""
import math
import re
from dataclasses import dataclass

import numpy as np

from ..tools.errors import MAX_MAGNITUDE, StructureError, number

#: tolerance of position comparisons, as a fraction of the structure's size (bounding-box diagonal)
SELECT_RTOL = 1e-3
#: the selector words (for messages and ``--help``)
WORDS = ("all", "boundary", "interior", "lowest", "highest") + tuple(f"{e}-{a}" for e in ("min", "max") for a in "xyz")
#: one line of the selector language for ``--help`` and messages
SYNTAX = ("vertex numbers (1,4,7-9), all, boundary, interior, min-x .. max-z, lowest, highest, x=A, x=A..B, "
          "box(x0,y0,z0,x1,y1,z1), near(x,y,z), corner(-x-y), panel(P); ',' union, '&' intersection, ~TOL")

_RANGE = re.compile(r"^(\d+)\s*-\s*(\d+)$")
_EXTREME = re.compile(r"^(min|max)-([xyz])$")
_PLANE = re.compile(r"^([xyz])\s*=\s*(.*)$")
_CALL = re.compile(r"^([a-z]+)\((.*)\)$")
_CORNER = re.compile(r"^([+-][xyz])+$")
_PANEL = re.compile(r"^p(\d+)$")


@dataclass(frozen=True)
class Support:
    """Vertex ``vertex`` of panel ``panel`` held in the global directions ``dofs`` (subset of "xyz")."""

    vertex: int
    panel: int
    dofs: str = "xyz"


@dataclass(frozen=True)
class Load:
    """Point force (global frame, force units) at ``vertex``, on ``panel`` or shared (None)."""

    vertex: int
    force: tuple
    panel: int = None



class BoundaryError(StructureError):
    """A selector, support or load text form that cannot be read, or that selects no vertex (names it)."""


def split_top(text, sep):
    """``text`` split at ``sep`` outside parentheses (the items are stripped)."""
    out, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth < 0:
                raise BoundaryError(f"selector {text!r}: a ')' without its '('")
        elif c == sep and depth == 0:
            out.append(text[start:i].strip())
            start = i + 1
    if depth:
        raise BoundaryError(f"selector {text!r}: a '(' without its ')'")
    out.append(text[start:].strip())
    return out


def _number(text, what):
    return number(text, f"{what}: {text.strip()!r} is not a finite number", BoundaryError)


def _numbers(text, n, what):
    items = [s for s in text.split(",")]
    if len(items) != n:
        raise BoundaryError(f"{what} takes {n} numbers, got {len(items)}")
    return np.array([_number(s, what) for s in items])


class Selection:
    """The vertices one selector names (0-based, sorted) and the panel it implies (``panel(P)``), or None."""

    def __init__(self, vertices, panel=None):
        self.vertices = np.asarray(sorted(set(int(v) for v in vertices)), dtype=int)
        self.panel = panel


def select(pattern, text, rtol=SELECT_RTOL):
    """The 0-based vertex indices (sorted array) that selector ``text`` names on ``pattern`` (module doc)."""
    return selection(pattern, text, rtol).vertices


def selection(pattern, text, rtol=SELECT_RTOL):
    """The :class:`Selection` of ``text``: vertices and the panel a ``panel(P)`` factor implies.

    Raises :class:`BoundaryError` for a selector that cannot be read or that selects no vertex.
    """
    if not isinstance(text, str) or not text.strip():
        raise BoundaryError(f"empty selector {text!r}: expected {SYNTAX}")
    text = text.strip()
    chosen, panels = set(), set()
    for term in split_top(text, ","):
        if not term:
            raise BoundaryError(f"selector {text!r}: an empty item between commas")
        verts, panel = None, None
        for factor in split_top(term, "&"):
            if not factor:
                raise BoundaryError(f"selector {text!r}: an empty item beside '&'")
            v, p = _factor(pattern, factor, rtol)
            verts = v if verts is None else verts & v
            panel = p if panel is None else panel
        if not verts:
            raise BoundaryError(f"selector {term!r} selects no vertex{_extent(pattern)}")
        chosen |= verts
        panels.add(panel)
    return Selection(chosen, panels.pop() if len(panels) == 1 else None)


def _extent(pattern):
    lo, hi = pattern.vertices.min(0), pattern.vertices.max(0)
    return " (the vertices span " + ", ".join(f"{a} {lo[i]:.6g} .. {hi[i]:.6g}" for i, a in enumerate("xyz")) + ")"


def _factor(pattern, text, rtol):
    """(set of 0-based vertices, implied 0-based panel or None) of one factor."""
    X = pattern.vertices
    nv = pattern.n_vertices
    body, tol = text, rtol * max(pattern.size, 1e-300)
    if "~" in text:
        body, t = text.rsplit("~", 1)
        body = body.strip()
        tol = _number(t, f"selector {text!r}: the tolerance after '~'")
        if tol < 0:
            raise BoundaryError(f"selector {text!r}: the tolerance after '~' must be 0 or more")
    word = body.lower()
    in_panels = {v for loop in pattern.panels for v in loop}
    if word.isdigit() or _RANGE.match(word):
        m = _RANGE.match(word)
        lo, hi = (int(m.group(1)), int(m.group(2))) if m else (int(word), int(word))
        if lo > hi:
            raise BoundaryError(f"vertex range {body!r} runs backwards (write {hi}-{lo})")
        for k in (lo, hi):
            if not 1 <= k <= nv:
                raise BoundaryError(f"vertex {k} does not exist: vertex numbers are 1-based, 1..{nv}")
        return set(range(lo - 1, hi)), None
    if word == "all":
        return set(in_panels), None
    if word in ("boundary", "interior"):
        on = {v for e in pattern.boundary_edges for v in e}
        return (on if word == "boundary" else in_panels - on), None
    if word in ("lowest", "highest"):
        word = "min-z" if word == "lowest" else "max-z"
    m = _EXTREME.match(word)
    if m:
        a = "xyz".index(m.group(2))
        c = X[:, a]
        ref = c.min() if m.group(1) == "min" else c.max()
        return {int(v) for v in np.nonzero(np.abs(c - ref) <= tol)[0]}, None
    m = _PLANE.match(word)
    if m:
        a = "xyz".index(m.group(1))
        value = m.group(2)
        if ".." in value:
            lo_t, hi_t = value.split("..", 1)
            lo = _number(lo_t, f"selector {text!r}") if lo_t.strip() else -math.inf
            hi = _number(hi_t, f"selector {text!r}") if hi_t.strip() else math.inf
            if lo > hi:
                raise BoundaryError(f"selector {text!r}: the range {lo:g}..{hi:g} runs backwards")
        else:
            lo = hi = _number(value, f"selector {text!r}")
        c = X[:, a]
        return {int(v) for v in np.nonzero((c >= lo - tol) & (c <= hi + tol))[0]}, None
    m = _CALL.match(word)
    if m:
        name, args = m.group(1), m.group(2)
        if name == "box":
            b = _numbers(args, 6, f"selector {text!r}: box(x0,y0,z0,x1,y1,z1)")
            lo, hi = np.minimum(b[:3], b[3:]) - tol, np.maximum(b[:3], b[3:]) + tol
            return {int(v) for v in np.nonzero(np.all((X >= lo) & (X <= hi), axis=1))[0]}, None
        if name == "near":
            p = _numbers(args, 3, f"selector {text!r}: near(x,y,z)")
            cand = sorted(in_panels)
            d = np.linalg.norm(X[cand] - p, axis=1)
            return {cand[int(np.argmin(d))]}, None
        if name == "corner":
            spec = args.replace(" ", "").replace(",", "")
            if not _CORNER.match(spec):
                raise BoundaryError(f"selector {text!r}: corner() takes signed axes such as -x-y or +x-y+z")
            u = np.zeros(3)
            for sign, axis in re.findall(r"([+-])([xyz])", spec):
                u["xyz".index(axis)] = 1.0 if sign == "+" else -1.0
            cand = np.array(sorted(in_panels))
            s = X[cand] @ u
            best = s.max()
            tied = cand[s >= best - tol * np.linalg.norm(u)]
            return {int(tied.min())}, None
        if name == "panel":
            try:
                p = int(args.strip())
            except ValueError:
                raise BoundaryError(f"selector {text!r}: panel() takes one panel number") from None
            if not 1 <= p <= pattern.n_panels:
                raise BoundaryError(f"panel {p} does not exist: panel numbers are 1-based, 1..{pattern.n_panels}")
            return set(int(v) for v in pattern.panels[p - 1]), p - 1
        raise BoundaryError(f"unknown selector {body!r}: expected {SYNTAX}")
    raise BoundaryError(f"unknown selector {body!r}: expected {SYNTAX}")


# ------------------------------------------------------------------ text forms
def _parts(text, what, form):
    if not isinstance(text, str):
        raise BoundaryError(f"{what} {text!r}: expected a text {form}")
    parts = [p.strip() for p in text.split(":")]
    if len(parts) not in (2, 3) or not all(parts):
        raise BoundaryError(f"{what} {text!r}: expected {form}")
    panel = None
    if len(parts) == 3:
        m = _PANEL.match(parts[2].lower())
        if not m:
            raise BoundaryError(f"{what} {text!r}: the third part must be pP, a panel number such as p3, "
                                f"got {parts[2]!r}")
        panel = int(m.group(1))
    return parts[0], parts[1], panel


def _panel_for(pattern, v, panel, implied, what, text):
    """The 0-based panel of a support or load at vertex v (``panel``: 1-based, given; ``implied``: 0-based)."""
    at = pattern.vertex_panels[v]
    if not at:
        raise BoundaryError(f"{what} {text!r}: vertex {v + 1} is on no panel")
    if panel is not None:
        if not 1 <= panel <= pattern.n_panels:
            raise BoundaryError(f"{what} {text!r}: panel {panel} does not exist (panels 1..{pattern.n_panels})")
        if panel - 1 not in at:
            raise BoundaryError(f"{what} {text!r}: vertex {v + 1} is not a vertex of panel {panel} (its panels: "
                                f"{', '.join(str(p + 1) for p in at)})")
        return panel - 1
    return implied if implied is not None else None


def parse_dofs(text, what="support"):
    """A non-empty subset of "xyz" (order kept), e.g. "xz"."""
    d = text.strip().lower()
    if not d or set(d) - set("xyz") or len(set(d)) != len(d):
        raise BoundaryError(f"{what}: the held directions must be a non-empty subset of xyz such as xyz or xz, "
                            f"got {text!r}")
    return "".join(a for a in "xyz" if a in d)


def parse_force(text, what="load"):
    """Three finite numbers ``FX,FY,FZ`` (force units, global frame)."""
    items = text.split(",")
    if len(items) != 3:
        raise BoundaryError(f"{what}: the force must be three numbers FX,FY,FZ, got {text!r}")
    out = []
    for s in items:
        x = number(s, f"{what}: the force must be three finite numbers, got {s.strip()!r} in {text!r}", BoundaryError)
        if abs(x) > MAX_MAGNITUDE:
            raise BoundaryError(f"{what}: {s.strip()} is beyond the largest accepted magnitude {MAX_MAGNITUDE:g} "
                                f"(results would overflow)")
        out.append(x)
    return tuple(out)


def supports_from_text(pattern, text, rtol=SELECT_RTOL):
    """The supports (tuple of :class:`~chrono_origami.structure.Support`) of one ``SELECTOR:DOFS[:pP]`` form."""
    return tuple(Support(v, pattern.vertex_panels[v][0] if p is None else p, dofs) for v, dofs, p in
                 _items(pattern, text, rtol, "support", "SELECTOR:DOFS or SELECTOR:DOFS:pP, e.g. 4:xyz or min-z:z:p2",
                        parse_dofs))


def loads_from_text(pattern, text, rtol=SELECT_RTOL):
    """The loads (tuple of :class:`~chrono_origami.structure.Load`) of one ``SELECTOR:FX,FY,FZ[:pP]`` form."""
    return tuple(Load(v, force, p) for v, force, p in
                 _items(pattern, text, rtol, "load", "SELECTOR:FX,FY,FZ or SELECTOR:FX,FY,FZ:pP, e.g. 5:0,0,-10",
                        parse_force))


def _items(pattern, text, rtol, what, form, parse_value):
    """(0-based vertex, value, 0-based panel or None) of every vertex a ``SELECTOR:VALUE[:pP]`` form selects."""
    sel_text, value_text, panel = _parts(text, what, form)
    value = parse_value(value_text, f"{what} {text!r}")
    sel = _selection(pattern, sel_text, rtol, what, text)
    return [(int(v), value, _panel_for(pattern, int(v), panel, sel.panel, what, text)) for v in sel.vertices]


def _selection(pattern, sel_text, rtol, what, text):
    try:
        return selection(pattern, sel_text, rtol)
    except BoundaryError as e:
        raise BoundaryError(f"{what} {text!r}: {e}") from None


def support_text(s):
    """The text form of one :class:`~chrono_origami.structure.Support` (1-based): ``VERTEX:DOFS:pPANEL``."""
    return f"{s.vertex + 1}:{s.dofs}:p{s.panel + 1}"


def load_text(ld):
    """The text form of one :class:`~chrono_origami.structure.Load` (1-based): ``VERTEX:FX,FY,FZ[:pPANEL]``."""
    f = ",".join(f"{float(x):.10g}" for x in ld.force)
    return f"{ld.vertex + 1}:{f}" + ("" if ld.panel is None else f":p{ld.panel + 1}")

