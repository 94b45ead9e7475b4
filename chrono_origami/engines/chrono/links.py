"""Chrono links of thick origami: hinges of every kind, point constraints, supports.

All are ``ChLinkMateGeneric`` subclasses with the constrained-DOF mask set in
the constructor, except the hinges in the lock formulation (``ChLinkLock``
classes, e.g. ``ChLinkLockRevolute`` / ``ChLinkLockCylindrical``: x, y, z, e1,
e2 and x, y, e1, e2 locked). The hinge classes come from the hinge kinds
(``chrono_origami.structure.hinges``): :func:`mate_class` (mask = the kind's
locked motions) and :func:`lock_class` (the ``ChLinkLock`` class of the kind's
free motions, :data:`LOCK_CLASSES`), made once per kind; :class:`DoorHinge`,
:class:`SlidingHinge`, :class:`DoorHingeLock` and :class:`SlidingHingeLock`
are those of the built-in kinds.

Hinge link frame (how the reactions map onto the paper's tables)
----------------------------------------------------------------
For hinge h with vertices (a, b) as run by its first panel p and second
panel q (``pattern.hinges[h]``): body 1 is panel p, body 2 is panel q, and
frame 1 (on p) and frame 2 (on q) coincide in the reference configuration,
with origin at the hinge midpoint and axes

    (X, Y, Z) = (m_q, n_q, t_q),

the {n, t, m} frame of the *reporting* panel q (``results/static.py``: t_q runs from
b to a, m_q the normal of q, n_q = t_q x m_q pointing out of q), cyclically
permuted so that Z is the hinge axis. ``GetReaction2()`` is the action applied
to q by p, about the frame origin, in frame 2; so, with no sign change,

    force  (X, Y, Z) = (TO, N, TP),    torque (X, Y, Z) = (MO, MT, MP),

which is row (h, q) of the paper's tables. ``GetReaction1()`` is the opposite
action, on p, in frame 1 (the same axes while the hinge is undeformed).

Kc, the constraint tangent stiffness (``SetUseTangentStiffness``), is on by
default for every ``ChLinkMateGeneric`` link here; it can be switched per
link (constructor argument or :meth:`SetUseTangentStiffness`, before or after
``Initialize``). ``ChLinkLock`` has no Kc.

Units: lengths and forces as in the structure; reactions are forces and
moments (force x length).
"""
import re
import weakref

import numpy as np
import pychrono as chrono

from ...structure import hinges
from ...tools.errors import StructureError
from ...tools.geometry import edge_frame


# ------------------------------------------------------------------ conversions
def vec(v):
    """NumPy 3-vector -> ``ChVector3d``."""
    return chrono.ChVector3d(float(v[0]), float(v[1]), float(v[2]))


def arr(v):
    """``ChVector3d`` (or ``ChVectorDynamicd``) -> NumPy array."""
    if isinstance(v, chrono.ChVectorDynamicd):
        return np.array(v.GetVectorData(v.Size()), float)
    return np.array([v.x, v.y, v.z])


def vecd(x):
    """NumPy 1-D array -> ``ChVectorDynamicd`` (system-sized vectors: multipliers, residuals)."""
    v = chrono.ChVectorDynamicd(len(x))
    v.SetVect([float(a) for a in x])
    return v


def mat33(R):
    """3x3 NumPy rotation (columns = axes) -> ``ChMatrix33d``."""
    R = np.asarray(R, float)
    return chrono.ChMatrix33d(vec(R[:, 0]), vec(R[:, 1]), vec(R[:, 2]))


def rotation(frame):
    """Rotation matrix (columns = axes, global frame) of a ``ChFramed`` or body."""
    return np.array(frame.GetRotMat().GetMatr())


def chframe(origin, R=None):
    """``ChFramed`` at ``origin`` with axes the columns of ``R`` (identity by default)."""
    if R is None:
        return chrono.ChFramed(vec(origin), chrono.QUNIT)
    return chrono.ChFramed(vec(origin), mat33(R))


def hinge_link_frame(pattern, h):
    """(origin, R) of hinge ``h``'s link frame: midpoint, columns (m_q, n_q, t_q) of the second panel q."""
    mid, R = hinge_link_frames(pattern, [h])
    return mid[0], R[0]


def hinge_link_frames(pattern, hs=None):
    """(origins (k x 3), R (k x 3 x 3)) of the link frames (:func:`hinge_link_frame`) of the hinges ``hs``
    (default: all), computed at once."""
    hs = range(len(pattern.hinges)) if hs is None else hs
    ab = np.array([pattern.hinges[h].vertices for h in hs], dtype=np.int64).reshape(-1, 2)
    q = np.array([pattern.hinges[h].panels[1] for h in hs], dtype=np.int64)
    X = pattern.vertices
    a, b = X[ab[:, 0]], X[ab[:, 1]]
    F = edge_frame(b, a, pattern.panel_normals[q])         # columns n, t, m of q
    return 0.5 * (a + b), F[:, :, [2, 0, 1]]               # columns m, n, t


def line_frame(origin, direction):
    """(origin, R) with Z along ``direction`` (X, Y any orthonormal completion): a joint frame on a line."""
    z = np.asarray(direction, float)
    z = z / np.linalg.norm(z)
    helper = np.eye(3)[int(np.argmin(np.abs(z)))]
    x = np.cross(helper, z)
    x /= np.linalg.norm(x)
    return np.asarray(origin, float), np.column_stack([x, np.cross(z, x), z])


# ------------------------------------------------------------------ mate links
#: the Python link objects by Chrono identifier: ``system.GetLinks()`` hands out plain proxies, which bypass
#: the Python methods; :func:`python_link` finds the object that keeps the Kc setting and the row kinds
_LINKS = weakref.WeakValueDictionary()


def python_link(link):
    """The chrono-origami link object behind ``link`` (a proxy from ``system.GetLinks()``), or None."""
    return _LINKS.get(link.GetIdentifier())


def set_tangent_stiffness(links, use_kc):
    """Switch the constraint tangent stiffness Kc on or off: the one Kc switch of the plugin.

    ``links``: a ``ChSystem`` (every link in it), an iterable of links, or one
    link. A chrono-origami link, also as a plain proxy from
    ``system.GetLinks()``, is switched through its Python object, so its
    ``GetUseTangentStiffness`` stays truthful; any other ``ChLinkMateGeneric``
    directly; links without Kc (``ChLinkLock``, springs) are left as they are.
    Returns the number of links switched.
    """
    if hasattr(links, "GetLinks"):
        links = links.GetLinks()
    elif hasattr(links, "GetIdentifier"):
        links = [links]
    switched = 0
    for link in links:
        py = link if isinstance(link, (_MateLink, _LockLink)) else python_link(link)
        if isinstance(py, _LockLink):
            continue
        if py is not None:
            py.SetUseTangentStiffness(use_kc)
        else:
            mate = chrono.CastToChLinkMateGeneric(link)
            if mate is None:
                continue
            mate.SetUseTangentStiffness(bool(use_kc))
        switched += 1
    return switched


class _MateLink(chrono.ChLinkMateGeneric):
    """``ChLinkMateGeneric`` with a fixed mask, a name, and Kc on by default."""

    #: constrained (x, y, z, rx, ry, rz) of frame 1 relative to frame 2
    MASK = (True,) * 6
    KIND = "mate"

    def __init__(self, use_tangent_stiffness=True, name=None):
        chrono.ChLinkMateGeneric.__init__(self, *self.MASK)
        self._use_kc = bool(use_tangent_stiffness)
        self._initialized = False
        _LINKS[self.GetIdentifier()] = self
        if name:
            self.SetName(name)

    def Initialize(self, *args):
        """As ``ChLinkMateGeneric.Initialize``; then applies the Kc setting (it needs the bodies)."""
        chrono.ChLinkMateGeneric.Initialize(self, *args)
        self._initialized = True
        chrono.ChLinkMateGeneric.SetUseTangentStiffness(self, self._use_kc)

    def SetUseTangentStiffness(self, use_kc):
        """Switch the constraint tangent stiffness Kc on or off (before or after ``Initialize``)."""
        self._use_kc = bool(use_kc)
        if self._initialized:
            chrono.ChLinkMateGeneric.SetUseTangentStiffness(self, self._use_kc)

    def GetUseTangentStiffness(self):
        """Kc on or off (Chrono has no getter: the setting made through this object or
        :func:`set_tangent_stiffness`, which finds it from a proxy)."""
        return self._use_kc

    @property
    def constrained(self):
        """Names of the constrained coordinates, in row order ("x", ..., "rz")."""
        return tuple(c for c, on in zip(("x", "y", "z", "rx", "ry", "rz"), self.MASK) if on)


class PointSlider(_MateLink):
    """Point slider (paper eq. 8): the origin of frame 1 (a point of body 1) stays on the Z axis of frame 2 (a line of body 2). 2 rows."""

    MASK = (True, True, False, False, False, False)
    KIND = "point slider"


class SphericalHinge(_MateLink):
    """Spherical hinge (paper eq. 14): the origins of frames 1 and 2 coincide. 3 rows."""

    MASK = (True, True, True, False, False, False)
    KIND = "spherical"


class VertexSupport(_MateLink):
    """Support: vertex of a panel (body 1) held to the ground (body 2) in the global directions ``dofs``.

    Frame at the vertex with the global axes, so ``GetReaction1()`` is the
    support force on the panel in global components (while the panel has not
    rotated).
    """

    KIND = "support"

    def __init__(self, dofs="xyz", use_tangent_stiffness=True, name=None):
        if not dofs or set(dofs) - set("xyz") or len(set(dofs)) != len(dofs):
            raise ValueError(f"support dofs must be a non-empty subset of 'xyz', got {dofs!r}")
        self.MASK = tuple(c in dofs for c in "xyz") + (False, False, False)
        self.dofs = dofs
        _MateLink.__init__(self, use_tangent_stiffness, name)


class HeldCoordinates(_MateLink):
    """Scaled coordinates of one panel (body 1) held to the ground (body 2): frame at a fixed point x0 with the
    global axes, ``coords`` a subset of ("x", "y", "z", "rx", "ry", "rz"): the displacement of the panel's material
    point at x0 along the global axes and its rotation about them -- the columns (w / L, omega) of the scaled
    operator of ``engines.compatibility`` (Chrono's rows: the position of that point and the vector part of the
    relative rotation quaternion, in global axes). Removes mechanisms and rigid motions where holding them
    changes no force (``engines.compatibility.held_dofs``; the tolerance analysis).
    """

    KIND = "held"
    COORDS = ("x", "y", "z", "rx", "ry", "rz")

    def __init__(self, coords, use_tangent_stiffness=True, name=None):
        if not coords or set(coords) - set(self.COORDS) or len(set(coords)) != len(coords):
            raise ValueError(f"held coordinates must be a non-empty subset of {self.COORDS}, got {coords!r}")
        self.MASK = tuple(c in coords for c in self.COORDS)
        _MateLink.__init__(self, use_tangent_stiffness, name)


class AnchorLink(_MateLink):
    """Weld of one panel to the ground, used only to remove the rigid-body motions of an unsupported structure.

    For self-equilibrated loads its reaction is zero (checked by the analysis).
    """

    KIND = "anchor"


# ------------------------------------------------------------------ lock links
class _LockLink:
    """Common part of the ``ChLinkLock`` hinges (no Kc in the lock formulation); ``BASE`` is the Chrono class."""

    BASE = None
    KIND = None
    #: constrained coordinates in row order (the kind's locked motions)
    constrained = ()

    def __init__(self, name=None):
        self.BASE.__init__(self)
        _LINKS[self.GetIdentifier()] = self   # found from the proxies of system.GetLinks() (python_link)
        if name:
            self.SetName(name)

    def GetUseTangentStiffness(self):
        return False

    def SetUseTangentStiffness(self, use_kc):
        if use_kc:
            raise ValueError(f"{type(self).__name__}: ChLinkLock links have no constraint tangent stiffness (Kc); "
                             "use the mate hinges (hinge_form 'mate') for Kc")


# ------------------------------------------------------------------ hinge classes by kind
#: the ``ChLinkLock`` class whose mask frees exactly these motions of the hinge link frame (Z the hinge axis):
#: a kind's lock form, looked up by its ``free``; a kind whose free motions are not here has none
LOCK_CLASSES = {
    (): "ChLinkLockLock",
    ("rz",): "ChLinkLockRevolute",
    ("z", "rz"): "ChLinkLockCylindrical",
    ("z",): "ChLinkLockPrismatic",
    ("rx", "ry", "rz"): "ChLinkLockSpherical",
    ("x", "y", "rz"): "ChLinkLockPlanar",
}
_MATE_CLASSES = {}
_LOCK_CLASSES = {}


def _class_name(kind, suffix):
    return "".join(w.capitalize() for w in re.split(r"[^0-9A-Za-z]+", kind.name) if w) + suffix


def mate_class(kind):
    """The ``ChLinkMateGeneric`` hinge class of ``kind`` (a ``hinges.HingeKind``): mask = its locked motions."""
    cls = _MATE_CLASSES.get(kind)
    if cls is None:
        cls = type(_class_name(kind, "Hinge"), (_MateLink,), {
            "MASK": kind.mask, "KIND": kind.name, "__module__": __name__,
            "__doc__": f"{kind.description or kind.name}, as a ``ChLinkMateGeneric``: "
                       f"{', '.join(kind.locked) or 'nothing'} locked in the hinge link frame (Z the hinge axis). "
                       f"{kind.n_rows} rows."})
        _MATE_CLASSES[kind] = cls
    return cls


def lock_class(kind):
    """The ``ChLinkLock`` hinge class of ``kind`` (:data:`LOCK_CLASSES` of its free motions), same frame as the
    mate hinge."""
    cls = _LOCK_CLASSES.get(kind)
    if cls is None:
        lock = LOCK_CLASSES.get(kind.free)
        if lock is None:
            raise StructureError(f"{kind.name} hinges have no lock form (no ChLinkLock class frees exactly "
                                 f"{', '.join(kind.free) or 'nothing'}); use hinge_form 'mate' or 'points'")
        base = getattr(chrono, lock, None)
        if base is None:
            raise StructureError(f"{kind.name} hinges: this PyChrono has no class {lock!r} (their lock form)")
        cls = type(_class_name(kind, "HingeLock"), (_LockLink, base), {
            "BASE": base, "KIND": kind.name, "constrained": kind.locked, "__module__": __name__,
            "__doc__": f"{kind.description or kind.name} in the lock formulation (``{lock}``), same frame "
                       f"as the mate hinge."})
        _LOCK_CLASSES[kind] = cls
    return cls


#: the built-in hinge kinds' links
DoorHinge = mate_class(hinges.get(hinges.DOOR))
SlidingHinge = mate_class(hinges.get(hinges.SLIDING))
DoorHingeLock = lock_class(hinges.get(hinges.DOOR))
SlidingHingeLock = lock_class(hinges.get(hinges.SLIDING))


# ------------------------------------------------------------------ reactions
def reaction_on(link, side):
    """(force, torque) applied by ``link`` to its body ``side`` (1 or 2), global frame, torque about that side's frame origin.

    From ``GetReaction1``/``GetReaction2`` (ChLink.h: the reaction on body 1
    in link frame 1, on body 2 in link frame 2, about the frame origin),
    rotated by ``GetFrame1Abs``/``GetFrame2Abs``. Also returns the origin.
    """
    if side == 1:
        w, fr = link.GetReaction1(), link.GetFrame1Abs()
    elif side == 2:
        w, fr = link.GetReaction2(), link.GetFrame2Abs()
    else:
        raise ValueError(f"side must be 1 or 2, got {side!r}")
    R = rotation(fr)
    return R @ arr(w.force), R @ arr(w.torque), arr(fr.GetPos())


def wrench_about(link, side, point):
    """(force, moment about ``point``) applied by ``link`` to its body ``side``, global frame."""
    F, T, o = reaction_on(link, side)
    return F, T + np.cross(o - np.asarray(point, float), F)
