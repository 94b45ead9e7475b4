"""The panels' contact by Chrono's collision detection: the solids of ``structure.solids`` as Bullet convex hulls.

One ``ChBody`` per panel in a system of its own with ``ChCollisionSystemBullet``: its collision shape is the
convex hull (``ChCollisionShapeConvexHull``, in the panel's frame: origin its first vertex, axes
``tools.geometry.panel_frame``) of the panel's solid inset by :data:`INSET_RTOL` x the pattern size L (every face
moved in by that), with an envelope of :data:`ENVELOPE_RTOL` x L, in lengths scaled so that L is :data:`SIZE`
(Bullet's tolerances are absolute: on a pattern of size 1 its depths of touching hulls came out wrong by about
1e-4, on one of size 1000 by far less than the inset). Each frame of a fold moves the bodies to the
panels' poses and runs the collision detection (``ChSystem.ComputeCollisions``); a contact Bullet reports with
a negative distance is an interpenetration of the inset hulls, of depth that distance's opposite plus twice the
inset (the solids' own).

Why the inset: solids that touch by construction (two panels on a crease, panels around a vertex) are then
2 x INSET_RTOL x L apart, where Bullet's GJK measures a distance; touching, they go to its EPA, whose
depths of exactly touching hulls are not reliable. So Chrono finds the
contacts deeper than 2 INSET_RTOL L, the reference engine's separating axes (``structure.solids.PanelSolids``) those deeper
than its 1e-9 L: the same first frame unless that frame's depth lies between them. Called as
``analysis.contact.fold_contacts(..., engine="chrono")``.
"""
import numpy as np
import pychrono as chrono

from ...structure.solids import PanelSolids, halfspaces, polytope
from ...tools.errors import OrigamiError
from .links import arr, chframe, vec

#: the pattern's size in Chrono (its lengths scaled): Bullet's tolerances are absolute, set for sizes of metres
SIZE = 1000.0
#: every face of a panel's hull moved in by this fraction of the pattern size (module doc)
INSET_RTOL = 1e-5
#: Bullet keeps a contact point of an earlier call while the bodies have moved less than this (fraction of L)
#: from it: the frames of a fold jump, so keep none
BREAKING_RTOL = 1e-9
#: envelope of the hulls (fraction of the pattern size), below the 2 INSET_RTOL between touching solids; the safe
#: margin a tenth of it
ENVELOPE_RTOL = 1e-6


class _Report(chrono.ReportContactCallback):
    """Collects (identifier A, identifier B, distance) of every contact Chrono reports."""

    def __init__(self):
        super().__init__()
        self.found = []

    def OnReportContact(self, pA, pB, plane, distance, radius, force, torque, modA, modB, *rest):
        self.found.append((modA.GetPhysicsItem().GetIdentifier(), modB.GetPhysicsItem().GetIdentifier(),
                           float(distance)))
        return True


class ChronoPanelSolids:
    """The panels' solids of ``structure`` as Bullet convex hulls in a Chrono system (module doc)."""

    def __init__(self, structure):
        self.solids = S = PanelSolids(structure)
        self.L = S.L
        self.system = sys_ = chrono.ChSystemNSC()
        sys_.SetCollisionSystemType(chrono.ChCollisionSystem.Type_BULLET)
        material = chrono.ChContactMaterialNSC()
        O0, F0 = S.frames0
        self.inset = INSET_RTOL * self.L
        self.unit = SIZE / self.L         # Chrono's lengths are the pattern's times this
        self.bodies, self.panel_of = [], {}
        for p, (A, b) in enumerate(halfspaces(structure)):
            body = chrono.ChBody()
            body.SetFixed(False)      # Chrono skips pairs of fixed bodies; the system is never stepped
            hull = polytope(A, b - self.inset, self.L) if S.live[p] else None
            if hull is not None:
                pts = chrono.vector_ChVector3d()
                for x in (hull[0] - O0[p]) @ F0[p]:
                    pts.push_back(vec(self.unit * x))
                body.AddCollisionShape(chrono.ChCollisionShapeConvexHull(material, pts))
                body.GetCollisionModel().SetEnvelope(ENVELOPE_RTOL * SIZE)
                body.GetCollisionModel().SetSafeMargin(0.1 * ENVELOPE_RTOL * SIZE)
                body.EnableCollision(True)
            else:
                body.EnableCollision(False)
            sys_.AddBody(body)
            self.panel_of[body.GetIdentifier()] = p
            self.bodies.append(body)
        collision = chrono.CastToChCollisionSystemBullet(sys_.GetCollisionSystem())
        collision.SetContactBreakingThreshold(BREAKING_RTOL * SIZE)
        collision.BindAll()
        sys_.Setup()

    def contacts(self, X):
        """[(p, q, depth)] of the interpenetrating pairs at vertices ``X`` (V x 3), deepest first."""
        O, F = self.solids._frames(np.asarray(X, float))
        for p, body in enumerate(self.bodies):
            frame = chframe(self.unit * O[p], F[p])
            body.SetPos(frame.GetPos())
            body.SetRot(frame.GetRot())
        self.system.ComputeCollisions()
        report = _Report()
        self.system.GetContactContainer().ReportAllContacts(report)
        deepest = {}
        for a, b, dist in report.found:
            p, q = sorted((self.panel_of[a], self.panel_of[b]))
            depth = 2 * self.inset - dist / self.unit
            if dist < 0 and depth > deepest.get((p, q), 0.0):
                deepest[(p, q)] = depth
        return sorted(((p, q, d) for (p, q), d in deepest.items()), key=lambda c: (-c[2], c[0], c[1]))


# ======================================================================= contact in dynamics
#: dynamics: every face of a panel's hull moved in by this fraction of the pattern size L, so that the two panels
#: of a crease, which touch along it, are apart (module doc of :class:`PanelContact`)
DYNAMICS_INSET_RTOL = 1e-3
#: dynamics: the hulls' collision envelope (fraction of L): Bullet reports pairs closer than it, so it must exceed
#: what a panel moves in a step (or an impact is found late, already deep, and the recovery throws the panel
#: back); a contact within it that is not closing costs nothing (NSC keeps its gap as slack, SMC pushes only on
#: penetration)
DYNAMICS_ENVELOPE_RTOL = 1e-2
#: fold angle (rad) by which a crease's two solids are turned either way to see whether they meet at once
CREASE_PROBE = np.radians(1.0)


class _Exclude(chrono.NarrowphaseCallback):
    """Drops Bullet's contacts between the panel pairs of ``pairs`` (body identifiers, both orders)."""

    def __init__(self, pairs):
        super().__init__()
        self.pairs = pairs

    def OnNarrowphase(self, cinfo):
        a = cinfo.modelA.GetContactable().GetPhysicsItem().GetIdentifier()
        b = cinfo.modelB.GetContactable().GetPhysicsItem().GetIdentifier()
        return (a, b) not in self.pairs


class _Forces(chrono.ReportContactCallback):
    """Every contact of the last step: (identifier A, identifier B, point on A, point on B, force on B (global))."""

    def __init__(self):
        super().__init__()
        self.found = []

    def OnReportContact(self, pA, pB, plane, distance, radius, force, torque, modA, modB, *rest):
        R = np.array(plane.GetMatr())          # columns: the contact normal (from A to B), two tangents
        self.found.append((modA.GetPhysicsItem().GetIdentifier(), modB.GetPhysicsItem().GetIdentifier(),
                           np.array([pA.x, pA.y, pA.z]), np.array([pB.x, pB.y, pB.z]),
                           R @ np.array([force.x, force.y, force.z]), R[:, 0].copy(), float(distance)))
        return True


def crease_pairs_that_meet_at_once(structure, vertices=None):
    """Set of the hinges (0-based) whose two panels' solids interpenetrate when the crease is turned by
    :data:`CREASE_PROBE` either way from ``vertices`` (default the pattern's): every crease of the ``mid``
    placement, a tapered crease without a bevel. Their contact stands for the hinge (module doc of
    :class:`PanelContact`)."""
    from ...structure.solids import DEPTH_RTOL, penetration

    pat = structure.pattern
    X = pat.vertices if vertices is None else np.asarray(vertices, float)
    S = PanelSolids(structure)
    V, N, E = S.at(X)
    out = set()
    for h, hinge in enumerate(pat.hinges):
        p, q = hinge.panels
        if not (S.live[p] and S.live[q]):
            continue
        a, b = X[hinge.vertices[0]], X[hinge.vertices[1]]
        t = (b - a) / np.linalg.norm(b - a)
        meets = []
        for s in (1.0, -1.0):
            c, w = np.cos(s * CREASE_PROBE), np.sin(s * CREASE_PROBE)
            K = np.array([[0, -t[2], t[1]], [t[2], 0, -t[0]], [-t[1], t[0], 0]])
            R = np.eye(3) + w * K + (1 - c) * K @ K
            d = penetration(V[p][None], N[p][None], E[p][None], ((V[q] - a) @ R.T + a)[None],
                            (N[q] @ R.T)[None], (E[q] @ R.T)[None])[0]
            meets.append(d > DEPTH_RTOL * S.L)
        if all(meets):
            out.add(h)
    return out


class PanelContact:
    """Chrono's contact between the panels of a structure built for dynamics (``built``: a
    :class:`.system.ChronoStructure` in a system of ``material.method``'s kind), by Bullet on convex hulls.

    Each panel body carries the convex hull (``ChCollisionShapeConvexHull``) of its solid
    (``structure.solids``: the placement, the bevels) with every face moved in by :data:`DYNAMICS_INSET_RTOL` x L
    (L the pattern size), envelope :data:`DYNAMICS_ENVELOPE_RTOL` x L (choose dt so that the panels move less than
    that in a step), safe margin (Bullet's rounding of the hull's corners) a tenth of the inset. Panels at rest
    on each other therefore overlap by up to twice the inset (plus, with SMC, the penalty's penetration).

    The two panels of a crease touch along it: with the inset, their hulls are apart there, and they collide
    where the placement makes them meet (offset panels face to face at 180 deg, tapered bevels at the taper
    angle, and at once on the side a placement leaves no room: an offset crease folded toward its panels). A
    crease whose solids meet as soon as it turns either way (:func:`crease_pairs_that_meet_at_once`: every
    crease with ``mid``, a tapered crease without bevel) has its pair's contact off: the hinge stands for it
    (``fold`` and ``check --thickness`` tell where such panels meet). Any other pair interpenetrating at the
    start is an error. The pairs off are dropped by a narrow-phase callback.
    """

    def __init__(self, built, material):
        st = built.structure
        pat = st.pattern
        self.built, self.material = built, material
        S = PanelSolids(st)
        self.L = S.L
        self.inset = DYNAMICS_INSET_RTOL * self.L
        self.excluded_hinges = sorted(crease_pairs_that_meet_at_once(st))
        self.excluded = {tuple(sorted(pat.hinges[h].panels)) for h in self.excluded_hinges}
        for p, q, d in S.contacts(pat.vertices):
            if (p, q) not in self.excluded:
                raise OrigamiError(f"{st.name}: panels {p + 1} and {q + 1} interpenetrate at the start (depth "
                                   f"{d:.4g}): their contact cannot start there; check the thickness, the placement "
                                   f"and the initial configuration (python -m chrono_origami check --thickness)")
        if material.method == "smc":
            mat = chrono.ChContactMaterialSMC()
            mat.SetYoungModulus(material.young)
            mat.SetPoissonRatio(material.poisson)
        else:
            mat = chrono.ChContactMaterialNSC()
        mat.SetFriction(material.friction)
        mat.SetRestitution(material.restitution)
        self.chrono_material = mat
        system = built.system
        system.SetCollisionSystemType(chrono.ChCollisionSystem.Type_BULLET)
        self.panel_of = {}
        for p, (A, b) in enumerate(halfspaces(st)):
            body = built.bodies[p]
            self.panel_of[body.GetIdentifier()] = p
            hull = polytope(A, b - self.inset, self.L) if S.live[p] else None
            if hull is None:
                continue
            pts = chrono.vector_ChVector3d()
            for x in hull[0] - built.com[p]:       # body frame: the centre of mass, global axes at the start
                pts.push_back(vec(x))
            body.AddCollisionShape(chrono.ChCollisionShapeConvexHull(mat, pts))
            model = body.GetCollisionModel()
            model.SetEnvelope(DYNAMICS_ENVELOPE_RTOL * self.L)
            model.SetSafeMargin(0.1 * self.inset)
            body.EnableCollision(True)
        ids = {p: built.bodies[p].GetIdentifier() for p in range(pat.n_panels)}
        self._callback = _Exclude({x for p, q in self.excluded for x in ((ids[p], ids[q]), (ids[q], ids[p]))})
        system.GetCollisionSystem().RegisterNarrowphaseCallback(self._callback)
        if material.method == "smc":
            system.SetContactStiff(True)       # the contact forces' Jacobians in Newton's matrix

    def contacts(self):
        """The contacts of the current state: per panel pair p < q (0-based) a row (p, q, N, T, F (3,), point
        (3,), n): the sum N of the normal forces (>= 0), the magnitude T of the summed tangential (friction)
        forces, the resultant force F on q from p (global frame), the centre of the normal forces (the mean of
        the contact points weighted by their normal forces; their mean if all are zero), n the number of contact
        points, M (3,) the moment of the forces on q from p about the global origin (each at the midpoint of its
        contact's two points); and the generalised contact force on every panel, (P, 6): force and moment about its centre of
        mass, global frame."""
        report = _Forces()
        self.built.system.GetContactContainer().ReportAllContacts(report)
        P = len(self.built.bodies)
        gen = np.zeros((P, 6))
        pairs = {}
        for a, b, pa, pb, f, n, _ in report.found:
            i, j = self.panel_of.get(a), self.panel_of.get(b)
            if i is None or j is None:
                continue
            for body, point, force in ((j, pb, f), (i, pa, -f)):
                x = arr(self.built.bodies[body].GetPos())
                gen[body, :3] += force
                gen[body, 3:] += np.cross(point - x, force)
            if i > j:
                i, j, f, n = j, i, -f, -n
            fn = float(f @ n)
            acc = pairs.setdefault((i, j), [0.0, np.zeros(3), np.zeros(3), np.zeros(3), 0, np.zeros(3)])
            acc[0] += fn
            acc[1] += f - fn * n
            acc[2] += f
            acc[3] += fn * 0.5 * (pa + pb) if fn != 0 else 0.0
            acc[4] += 1
            acc[5] += np.cross(0.5 * (pa + pb), f)
        rows = []
        for (i, j), (N, T, F, M, k, Mo) in sorted(pairs.items()):
            pts = [0.5 * (pa + pb) for a, b, pa, pb, *_ in report.found
                   if {self.panel_of.get(a), self.panel_of.get(b)} == {i, j}]
            point = M / N if N > 0 else np.mean(pts, axis=0)
            rows.append((i, j, N, float(np.linalg.norm(T)), F, point, k, Mo))
        return rows, gen
