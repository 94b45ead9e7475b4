"""Hinge kinds as data: one :class:`HingeKind` record per kind, in one registry.

A structure names the kind of each hinge (``Structure.hinge_kinds``: "door",
"sliding", ...; FOLD files store the same names in ``edges_origami:hinge``).
Every engine, analysis and drawing looks the name up here (:func:`get`)
instead of branching on it; an unknown name is refused when the
``Structure`` is made.

Built-in kinds:

* ``"door"`` (:data:`DOOR`): revolute joint, only the rotation about the hinge
  axis is free; 5 rows; the paper's eq. (6), or eq. (15) in the point form;
* ``"sliding"`` (:data:`SLIDING`): cylindrical joint, rotation about and
  translation along the axis are free; 4 rows; eq. (4), or eq. (13);
* ``"joined"`` (:data:`JOINED`): the FOLD format's "J" edge, the two panels
  welded together; 6 rows; no point form (points on the axis cannot lock the
  rotation about it);
* ``"spherical"`` (:data:`SPHERICAL`): a ball joint at the edge midpoint, the
  three rotations free, 3 rows (eq. 14 at the midpoint, also its point form).
  It is the pinned connection of space frames: it carries forces and no
  moments, so it releases the moments a door hinge would lock in (and a
  structure needs other constraints for the rotations it frees).

Everything an engine needs follows from ``free``: the reference engine's
rows (:meth:`HingeKind.rows`, the linearisation of the exact constraints
:meth:`HingeKind.residuals`; for door and sliding hinges they are the paper's
printed operators, which ``tests/test_operators.py`` keeps as a cross-check),
the fold constraints, the Chrono mate mask and lock class
(``engines.chrono.links``), the discrete null space pair
(``engines.reference.dns.structure``), the counting rules' constraint count,
which drives a hinge takes and the crease-spring axes. How a kind is drawn is
the report's (``report.styles``).

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
* reference "hinge" form (:meth:`HingeKind.rows`) and the exact fold
  constraints (:meth:`HingeKind.residual`): the rotation rows first --
  relative rotation about n, about m, about t, those locked (eq. 4's c_1,
  c_2) -- then the translation rows: p_2 - p_1 in global components when x,
  y and z are all locked (eq. 6's c_3), else its components along m, n, t
  that are locked (eq. 4) (:attr:`HingeKind.hinge_row_kinds`);
* reference and Chrono "points" form: the :class:`PointConstraint` of
  ``points`` in order, two rows per point slider (eq. 8: along m and n of the
  line's panel), three per spherical hinge (eq. 14: global x, y, z).

Row kinds: "r" for a rotation row (its multiplier is a couple), "t" for a
translation row (a force).

Entries of a record
-------------------
``name``; ``free``; ``points``, the point form (``None``: the kind has
none); ``description``. Nothing here imports PyChrono or an engine module.

How to add a kind
-----------------
One ``register(HingeKind(name, free, points=..., description=...))`` call,
here below the built-in kinds or in a user's script (``unregister`` takes it
out again). Its drawing style is optional: without an entry in
``report.styles.STYLES`` it is drawn in the default style. A set of free
motions that Chrono's ``ChLinkLock`` family or the discrete null space
integrator lacks makes those two (and only those) refuse the kind with one
line. ``tests/test_hinges.py`` registers test kinds (a prismatic hinge, a
welded 6-row joint) and runs them end to end.
"""
from dataclasses import dataclass

import numpy as np

from ..tools.errors import StructureError
from ..tools.geometry import newell_normal, skew

#: relative motions of q with respect to p, in Chrono's order: translations along and rotations about (m, n, t)
MOTIONS = ("x", "y", "z", "rx", "ry", "rz")
#: order of the rotation rows in the "hinge" form and the fold constraints: about n, m, t
ROTATION_ORDER = ("ry", "rx", "rz")
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
class HingeKind:
    """A hinge kind (see the module docstring for every entry and convention)."""

    name: str
    free: tuple
    points: tuple = None
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

    # ------------------------------------------------------------ exact constraints (folding)
    def residual(self, Rp, up, Rq, uq, frame, P, jacobian=True):
        """Exact constraint values of one hinge and their Jacobian (rows in the "hinge"-form order).

        Rp, up, Rq, uq: poses g = (R, u) of panels p and q from the reference
        configuration; frame = (t, m, n) and P: the hinge frame and midpoint
        there (scaled positions, see ``engines.reference.fold.constraints``). Returns
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


    def rows(self, t, m, n, P):
        """The "hinge"-form rows at a consistent configuration: (n_rows x 12), or (H x n_rows x 12) for arrays.

        t, m, n: the hinge frame, P: the midpoint (scaled positions in the
        reference engine), each (3,) or (H, 3). The rows act on the velocities
        (omega_p, w_p, omega_q, w_q) of ``engines.reference.operators`` (a
        point x moves with omega x x + w): the Jacobian of :meth:`residuals`
        with both panels at rest (g = identity), in the same row order. For
        door and sliding hinges these are the paper's eqs. (6) and (4).
        """
        one = np.ndim(P) == 1
        t, m, n, P = (np.atleast_2d(np.asarray(x, float)) for x in (t, m, n, P))
        R = np.broadcast_to(np.eye(3), (len(P), 3, 3))
        u = np.zeros_like(P)
        _, J = self.residuals(R, u, R, u, (t, m, n), P)
        return J[0] if one else J


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
    "door", ("rz",), points=(PointConstraint("spherical", "a"), PointConstraint("slider", "b", "p")),
    description="door hinge (revolute joint): only the rotation about the hinge axis is free")).name
SLIDING = register(HingeKind(
    "sliding", ("z", "rz"), points=(PointConstraint("slider", "a", "q"), PointConstraint("slider", "b", "p")),
    description="sliding hinge (cylindrical joint): rotation about and translation along the hinge axis are free")).name
JOINED = register(HingeKind(
    "joined", (), description="joined edge (FOLD 'J'): the two panels are welded together, nothing is free")).name
SPHERICAL = register(HingeKind(
    "spherical", ("rx", "ry", "rz"), points=(PointConstraint("spherical", "mid"),),
    description="spherical hinge (ball joint) at the edge midpoint: the three rotations are free")).name


def design_kinds(kinds, sliding=()):
    """The hinge kinds of a design: hinges ``sliding`` (0-based) sliding, the other door or sliding hinges door,
    and every other kind (a joined "J" edge, ...) kept, as design never changes it. ``kinds``: one name a hinge."""
    sl = set(sliding)
    return tuple(k if k not in (DOOR, SLIDING) else SLIDING if h in sl else DOOR for h, k in enumerate(kinds))


def fixed_kinds(kinds):
    """The hinges (0-based) whose kind design keeps (:func:`design_kinds`): neither door nor sliding."""
    return [h for h, k in enumerate(kinds) if k not in (DOOR, SLIDING)]


# ------------------------------------------------------------------ hinge frames
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
