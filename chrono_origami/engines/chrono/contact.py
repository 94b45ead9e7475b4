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
from .links import chframe, vec

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
