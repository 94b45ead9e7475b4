"""Hinge kinds as data: one :class:`HingeKind` record per kind, in one registry.

A structure names the kind of each hinge (``Structure.hinge_kinds``: "door",
"sliding", ...; FOLD files store the same names in ``edges_origami:hinge``).
Every engine, analysis and drawing looks the name up here (:func:`get`)
instead of branching on it; an unknown name is refused when the
``Structure`` is made.

Built-in kinds (paper sec. 3):

* ``"door"`` (:data:`DOOR`): revolute joint, only the rotation about the hinge
  axis is free; 5 rows; eq. (6), or eq. (15) in the point form;
* ``"sliding"`` (:data:`SLIDING`): cylindrical joint, rotation about and
  translation along the axis are free; 4 rows; eq. (4), or eq. (13);
* ``"joined"`` (:data:`JOINED`): the FOLD format's "J" edge, the two panels
  welded together; 6 rows (``engines.reference.operators.joined_hinge``); no point
  form (points on the axis cannot lock the rotation about it).

Conventions
-----------
Hinge frame. Hinge h joins its first panel p and its second panel q
(``pattern.hinges[h].panels``) along the edge (a, b) as run by p; P is the
edge midpoint. t is the hinge axis, m a panel normal made orthogonal to t,
n = t x m (:func:`hinge_geometry` takes p's frame, with t from a
to b; the Chrono link frame, ``engines.chrono.links.hinge_link_frame``, takes q's, with
(X, Y, Z) = (m, n, t)). The relative motions of q with respect to p are named
by the link-frame coordinates: ``x``, ``y``, ``z`` the translations of P along
m, n, t; ``rx``, ``ry``, ``rz`` the rotations about m, n, t.

``free``: the relative motions the kind leaves free; the others are locked,
one constraint row each (``n_rows = 6 - len(free)``). On a folded pattern
p's and q's m (and n) differ, so a kind frees x and y together and rx and ry
together: ``free`` is a union of {"z"}, {"rz"}, {"x", "y"}, {"rx", "ry"}
(empty for a joint that locks all six, 6 rows).

Row order, by engine:

* Chrono links (mate and lock): Chrono's order x, y, z, rx, ry, rz of the
  locked coordinates (:attr:`HingeKind.locked`, :attr:`HingeKind.mask`);
* reference "hinge" form (``hinge_operator``) and the exact fold constraints
  (:meth:`HingeKind.residual`): the rotation rows first -- relative rotation
  about n, about m, about t, those locked (eq. 4's c_1, c_2) -- then the
  translation rows: p_2 - p_1 in global components when x, y and z are all
  locked (eq. 6's c_3), else its components along m, n, t that are locked
  (eq. 4) (:attr:`HingeKind.hinge_row_kinds`);
* reference and Chrono "points" form: the :class:`PointConstraint` of
  ``points`` in order, two rows per point slider (eq. 8: along m and n of the
  line's panel), three per spherical hinge (eq. 14: global x, y, z).

Row kinds: "r" for a rotation row (its multiplier is a couple), "t" for a
translation row (a force).

Entries of a record
-------------------
``name``; ``free``; ``hinge_operator``, the reference "hinge" form: a
callable ``(t1, m1, n1, p1, t2, m2, n2, p2) -> (n_rows x 12)`` with the
signature and velocity convention of ``engines.reference.operators``, or its
``"module:function"`` path (imported on first use); ``points``, the point
form (``None``: the kind has none); ``lock``, the name of the PyChrono
``ChLinkLock`` class whose mask is the kind's (``None``: none), looked up only
when a Chrono system is built with ``hinge_form="lock"``; ``style``, how
figures and the viewer draw it (:class:`HingeStyle`); ``description``.
Derived from ``free`` and used by the consumers: the Chrono mate mask, the
exact fold constraints and their Jacobian, row kinds, which drives a hinge
takes (rotation needs rz free, slide needs z free), the crease-spring axes,
the counting rules' constraint count. Nothing here imports PyChrono or an
engine module.

How to add a kind (two files)
-----------------------------
1. ``reference/operators.py``: its "hinge"-form operator (the row order
   above), unless one there fits;
2. this file: ``register(HingeKind(name, free, "chrono_origami.engines.reference.operators:function",
   HingeStyle(...), points=..., lock=...))`` below the built-in kinds, with
   one of the :data:`GLYPHS` (a new glyph is a third file, ``chrono/system.py``).

The engines, folding, counting, FOLD files, figures and the viewer then take
the new name. ``tests/test_hinges.py`` registers test kinds (a spherical and a
prismatic hinge, a welded 6-row joint) and runs them end to end.
"""
import importlib
from dataclasses import dataclass

import numpy as np

from ..tools.errors import StructureError
from ..tools.geometry import newell_normal, skew

#: relative motions of q with respect to p, in Chrono's order: translations along and rotations about (m, n, t)
MOTIONS = ("x", "y", "z", "rx", "ry", "rz")
#: order of the rotation rows in the "hinge" form and the fold constraints: about n, m, t
ROTATION_ORDER = ("ry", "rx", "rz")
#: hinge glyphs that ``engines.chrono.system`` can draw
GLYPHS = ("barrel", "rod", "ball")
#: point constraints of the "points" form and their number of rows
POINT_ROWS = {"spherical": 3, "slider": 2}
#: where a point constraint sits: a vertex of the edge (as run by p) or the midpoint
POINT_PLACES = ("a", "b", "mid")

# exact fold constraints (see HingeKind.residual): a locked rotation is a dot product of one axis of q
# with one of p that stays zero; a locked translation the component of p_2 - p_1 along an axis of p
_ROTATION_DOTS = {"ry": ("t", "m"), "rx": ("t", "n"), "rz": ("n", "m")}   # t_2.m_1, t_2.n_1, n_2.m_1
_TRANSLATION_AXES = {"x": "m", "y": "n", "z": "t"}


@dataclass(frozen=True)
class PointConstraint:
    """One constraint of the "points" form (paper sec. 3.3).

    type: "spherical" (eq. 14: the point is common to both panels) or
    "slider" (eq. 8: the point of panel ``body`` stays on the hinge axis of
    the other panel). at: "a", "b" (vertices of the edge as run by p) or
    "mid". body: "p" or "q" (Chrono's body 1 of the link).
    """

    type: str
    at: str
    body: str = "p"

    def __post_init__(self):
        if self.type not in POINT_ROWS:
            raise StructureError(f"point constraint type {self.type!r}; expected one of {tuple(POINT_ROWS)}")
        if self.at not in POINT_PLACES:
            raise StructureError(f"point constraint place {self.at!r}; expected one of {POINT_PLACES}")
        if self.body not in ("p", "q"):
            raise StructureError(f"point constraint body {self.body!r}; expected 'p' or 'q'")

    @property
    def n_rows(self):
        return POINT_ROWS[self.type]


@dataclass(frozen=True)
class HingeStyle:
    """How a kind is drawn.

    line_color, line, line_name: matplotlib colour, line style and its name
    in the figure title ("dashed"); color, color_name: RGB (0-1) of the
    Chrono glyph and its name in the viewer's title; glyph: one of
    :data:`GLYPHS` ("barrel": a cylinder along the edge, "rod": a thin rod
    with a sleeve, "ball": a sphere at the midpoint).
    """

    line_color: str
    line: str
    line_name: str
    color: tuple
    color_name: str
    glyph: str

    def __post_init__(self):
        if self.glyph not in GLYPHS:
            raise StructureError(f"hinge glyph {self.glyph!r}; expected one of {GLYPHS}")
        c = tuple(float(x) for x in self.color)
        if len(c) != 3 or not all(0.0 <= x <= 1.0 for x in c):
            raise StructureError(f"hinge colour must be 3 numbers in [0, 1], got {self.color!r}")
        object.__setattr__(self, "color", c)


@dataclass(frozen=True)
class HingeKind:
    """A hinge kind (see the module docstring for every entry and convention)."""

    name: str
    free: tuple
    hinge_operator: object
    style: HingeStyle
    points: tuple = None
    lock: str = None
    description: str = ""

    def __post_init__(self):
        if not (isinstance(self.name, str) and self.name.strip()):
            raise StructureError(f"a hinge kind needs a name, got {self.name!r}")
        bad = set(self.free) - set(MOTIONS)
        if bad:
            raise StructureError(f"hinge kind {self.name!r}: unknown free motions {sorted(bad)}; "
                                 f"expected some of {MOTIONS}")
        free = tuple(c for c in MOTIONS if c in self.free)
        for pair in (("x", "y"), ("rx", "ry")):
            if (pair[0] in free) != (pair[1] in free):
                raise StructureError(f"hinge kind {self.name!r} frees one of {pair} but not the other; "
                                     "m and n differ between the two panels, so they go together")
        object.__setattr__(self, "free", free)
        if not (callable(self.hinge_operator) or (isinstance(self.hinge_operator, str) and ":" in self.hinge_operator)):
            raise StructureError(f"hinge kind {self.name!r}: hinge_operator must be a callable or 'module:function'")
        if self.points is not None:
            pts = tuple(self.points)
            rows = sum(c.n_rows for c in pts)
            if rows != self.n_rows:
                raise StructureError(f"hinge kind {self.name!r}: its point form has {rows} rows, "
                                     f"the kind {self.n_rows}")
            object.__setattr__(self, "points", pts)

    # ------------------------------------------------------------ derived from free
    @property
    def locked(self):
        """Locked relative motions, in Chrono's order (x, y, z, rx, ry, rz)."""
        return tuple(c for c in MOTIONS if c not in self.free)

    @property
    def n_rows(self):
        """Number of constraint rows (scalar constraints) of one hinge."""
        return 6 - len(self.free)

    @property
    def mask(self):
        """``ChLinkMateGeneric`` mask (x, y, z, rx, ry, rz): True where locked."""
        return tuple(c not in self.free for c in MOTIONS)

    @property
    def rotation_rows(self):
        """Locked rotations in the order of the "hinge" form and the fold constraints (about n, m, t)."""
        return tuple(c for c in ROTATION_ORDER if c not in self.free)

    @property
    def translation_rows(self):
        """Locked translations (along m, n, t)."""
        return tuple(c for c in ("x", "y", "z") if c not in self.free)

    @property
    def hinge_row_kinds(self):
        """'r' or 't' per row of the "hinge" form and of the fold constraints."""
        return ("r",) * len(self.rotation_rows) + ("t",) * len(self.translation_rows)

    def frees(self, motion):
        """True when ``motion`` (one of :data:`MOTIONS`) is free."""
        return motion in self.free

    @property
    def operator(self):
        """The reference "hinge"-form operator (imported on first use when given as 'module:function')."""
        op = self.hinge_operator
        if callable(op):
            return op
        module, _, attr = op.partition(":")
        return getattr(importlib.import_module(module), attr)

    # ------------------------------------------------------------ exact constraints (folding)
    def residual(self, Rp, up, Rq, uq, frame, P, jacobian=True):
        """Exact constraint values of one hinge and their Jacobian (rows in the "hinge"-form order).

        Rp, up, Rq, uq: poses g = (R, u) of panels p and q from the reference
        configuration; frame = (t, m, n) and P: the hinge frame and midpoint
        there (scaled positions, see ``engines.reference.folding.constraints``). Returns
        (F, J): F (n_rows), J (n_rows x 12) on the increments
        (omega_p, w_p, omega_q, w_q) of g <- exp(delta) g, a point x moving by
        omega x x + w; J is None when ``jacobian`` is false. One hinge of
        :meth:`residuals`.
        """
        t, m, n = frame
        F, J = self.residuals(np.asarray(Rp)[None], np.asarray(up)[None], np.asarray(Rq)[None],
                              np.asarray(uq)[None], (np.asarray(t)[None], np.asarray(m)[None], np.asarray(n)[None]),
                              np.asarray(P)[None], jacobian)
        return F[0], (J[0] if jacobian else None)

    def residuals(self, Rp, up, Rq, uq, frame, P, jacobian=True):
        """:meth:`residual` of H hinges of this kind at once: F (H x n_rows), J (H x n_rows x 12) or None.

        Rp, Rq: (H, 3, 3); up, uq, P and each of frame = (t, m, n): (H, 3).
        """
        t, m, n = frame
        ax = {"t": t, "m": m, "n": n}
        H = len(P)
        p1 = np.einsum("hij,hj->hi", Rp, P) + up
        p2 = np.einsum("hij,hj->hi", Rq, P) + uq
        d = p2 - p1
        F = np.zeros((H, self.n_rows))
        J = np.zeros((H, self.n_rows, 12)) if jacobian else None
        r = 0
        for c in self.rotation_rows:
            a, b = _ROTATION_DOTS[c]
            a2, b1 = np.einsum("hij,hj->hi", Rq, ax[a]), np.einsum("hij,hj->hi", Rp, ax[b])
            F[:, r] = np.einsum("hi,hi->h", a2, b1)
            if jacobian:
                g = np.cross(a2, b1)              # d(a2.b1) = (omega_q - omega_p).(a2 x b1)
                J[:, r, 0:3], J[:, r, 6:9] = -g, g
            r += 1
        locked = self.translation_rows
        if len(locked) == 3:
            F[:, r:r + 3] = d
            if jacobian:
                J[:, r:r + 3, 0:3], J[:, r:r + 3, 3:6] = skew(p1), -np.eye(3)
                J[:, r:r + 3, 6:9], J[:, r:r + 3, 9:12] = -skew(p2), np.eye(3)
            return F, J
        for c in locked:
            e = np.einsum("hij,hj->hi", Rp, ax[_TRANSLATION_AXES[c]])
            F[:, r] = np.einsum("hi,hi->h", d, e)
            if jacobian:
                # d(d.e) = (w_q + om_q x p2 - w_p - om_p x p1).e + d.(om_p x e)
                J[:, r, 0:3], J[:, r, 3:6] = -np.cross(p1, e) + np.cross(e, d), -e
                J[:, r, 6:9], J[:, r, 9:12] = np.cross(p2, e), e
            r += 1
        return F, J


# ------------------------------------------------------------------ registry
#: the registered kinds by name, in registration order
KINDS = {}


def register(kind):
    """Add ``kind`` (a :class:`HingeKind`) to the registry and return it; its name must be new."""
    if not isinstance(kind, HingeKind):
        raise StructureError(f"register expects a HingeKind, got {type(kind).__name__}")
    if kind.name in KINDS:
        raise StructureError(f"hinge kind {kind.name!r} is already registered")
    KINDS[kind.name] = kind
    return kind


def unregister(name):
    """Remove the kind ``name`` (for kinds registered by a test or a script for a while)."""
    if name not in KINDS:
        raise StructureError(f"hinge kind {name!r} is not registered")
    del KINDS[name]


def names():
    """Names of the registered kinds, in registration order."""
    return tuple(KINDS)


def expected(extra=()):
    """The registered names for a message: "'door' or 'sliding'" (``extra``: more choices, e.g. "null")."""
    items = [repr(k) for k in KINDS] + list(extra)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def get(name):
    """The :class:`HingeKind` called ``name``; :class:`StructureError` naming the known kinds if there is none."""
    try:
        return KINDS[name]
    except (KeyError, TypeError):
        raise StructureError(f"unknown hinge kind {name!r}; expected {expected()}") from None


def census(kind_names):
    """[(HingeKind, count)] of the kinds present in ``kind_names``, in registration order."""
    out = []
    for kind in KINDS.values():
        k = sum(1 for x in kind_names if x == kind.name)
        if k:
            out.append((kind, k))
    return out


# ------------------------------------------------------------------ built-in kinds
DOOR = register(HingeKind(
    "door", ("rz",), "chrono_origami.engines.reference.operators:door_hinge",
    HingeStyle("0.95", "--", "dashed", (0.15, 0.35, 0.85), "blue", "barrel"),
    points=(PointConstraint("spherical", "a"), PointConstraint("slider", "b", "p")),
    lock="ChLinkLockRevolute",
    description="door hinge (revolute joint): only the rotation about the hinge axis is free")).name
SLIDING = register(HingeKind(
    "sliding", ("z", "rz"), "chrono_origami.engines.reference.operators:sliding_hinge",
    HingeStyle("0.1", "-", "solid", (0.85, 0.20, 0.15), "red", "rod"),
    points=(PointConstraint("slider", "a", "q"), PointConstraint("slider", "b", "p")),
    lock="ChLinkLockCylindrical",
    description="sliding hinge (cylindrical joint): rotation about and translation along the hinge axis are free")).name
JOINED = register(HingeKind(
    "joined", (), "chrono_origami.engines.reference.operators:joined_hinge",
    HingeStyle("0.35", ":", "dotted", (0.35, 0.35, 0.35), "grey", "barrel"),
    lock="ChLinkLockLock",
    description="joined edge (FOLD 'J'): the two panels are welded together, nothing is free")).name


def hinge_geometry(pattern, h, vertices=None):
    """(t, m, n, midpoint, a, b) of hinge h in the frame of its first panel."""
    X = pattern.vertices if vertices is None else vertices
    hinge = pattern.hinges[h]
    a, b = hinge.vertices
    xa, xb = X[a], X[b]
    t = (xb - xa) / np.linalg.norm(xb - xa)
    p = hinge.panels[0]
    if vertices is None:
        m = pattern.panel_normal(p)
    else:
        m = newell_normal(X[list(pattern.panels[p])])
    m = m - (m @ t) * t
    m /= np.linalg.norm(m)
    n = np.cross(t, m)
    return t, m, n, 0.5 * (xa + xb), xa, xb


def hinge_frames(pattern):
    """Arrays of every hinge's frame: (t, m, n, midpoint, a, b), each H x 3, as :func:`hinge_geometry` gives them."""
    X = pattern.vertices
    H = len(pattern.hinges)
    if H == 0:
        z = np.zeros((0, 3))
        return z, z, z, z, z, z
    ab = np.array([h.vertices for h in pattern.hinges])
    first = np.array([h.panels[0] for h in pattern.hinges])
    xa, xb = X[ab[:, 0]], X[ab[:, 1]]
    t = (xb - xa) / np.linalg.norm(xb - xa, axis=1, keepdims=True)
    m = pattern.panel_normals[first]
    m = m - (m * t).sum(axis=1, keepdims=True) * t
    m /= np.linalg.norm(m, axis=1, keepdims=True)
    return t, m, np.cross(t, m), 0.5 * (xa + xb), xa, xb
