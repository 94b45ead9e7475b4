"""The panels' contact by Chrono's collision detection: the solids of ``structure.solids`` as Bullet convex hulls.

One ``ChBody`` per panel in a system of its own with ``ChCollisionSystemBullet``: its collision shape is the
convex hull of the panel's solid (``ChCollisionShapeConvexHull``, in the panel's frame: origin its first
vertex, axes ``properties.panel_frame``), with an envelope and a safe margin of :data:`ENVELOPE_RTOL` x the
pattern size. Each frame of a fold moves the bodies to the panels' poses and runs the collision detection
(``ChSystem.ComputeCollisions``); the contacts Bullet reports with a signed distance below minus
:data:`DEPTH_RTOL` x the pattern size are interpenetrations, the depth that distance's opposite (Bullet's
GJK/EPA on the hulls, about 1e-4 of the size less than the exact depth: its margins). The same :class:`~chrono_origami.analysis.contact.Contacts`
as the reference engine's separating-axis test (``analysis.contact.fold_contacts`` with ``engine="chrono"``).
"""
import numpy as np
import pychrono as chrono

from ...analysis.contact import Contacts, PanelSolids
from .links import chframe, vec

#: envelope and safe margin of the hulls (fraction of the pattern size): Bullet finds contacts this far apart
ENVELOPE_RTOL = 1e-4
#: a reported distance below minus this fraction of the pattern size is an interpenetration (Bullet's margins
#: round a hull's corners by about ENVELOPE_RTOL / 10: touches stay above it)
DEPTH_RTOL = 1e-4


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
        self.bodies, self.panel_of = [], {}
        for p in range(S.P):
            body = chrono.ChBody()
            body.SetFixed(False)      # Chrono skips pairs of fixed bodies; the system is never stepped
            if S.live[p]:
                pts = chrono.vector_ChVector3d()
                for x in np.unique(np.round((S.V[p] - O0[p]) @ F0[p], 15), axis=0):
                    pts.push_back(vec(x))
                body.AddCollisionShape(chrono.ChCollisionShapeConvexHull(material, pts))
                body.GetCollisionModel().SetEnvelope(ENVELOPE_RTOL * self.L)
                body.GetCollisionModel().SetSafeMargin(0.1 * ENVELOPE_RTOL * self.L)
                body.EnableCollision(True)
            else:
                body.EnableCollision(False)
            sys_.AddBody(body)
            self.panel_of[body.GetIdentifier()] = p
            self.bodies.append(body)
        sys_.GetCollisionSystem().BindAll()
        sys_.Setup()

    def contacts(self, X):
        """[(p, q, depth)] of the interpenetrating pairs at vertices ``X`` (V x 3), deepest first."""
        O, F = self.solids._frames(np.asarray(X, float))
        for p, body in enumerate(self.bodies):
            frame = chframe(O[p], F[p])
            body.SetPos(frame.GetPos())
            body.SetRot(frame.GetRot())
        self.system.ComputeCollisions()
        report = _Report()
        self.system.GetContactContainer().ReportAllContacts(report)
        deepest = {}
        for a, b, dist in report.found:
            p, q = sorted((self.panel_of[a], self.panel_of[b]))
            if -dist > DEPTH_RTOL * self.L and -dist > deepest.get((p, q), 0.0):
                deepest[(p, q)] = -dist
        return sorted(((p, q, d) for (p, q), d in deepest.items()), key=lambda c: (-c[2], c[0], c[1]))
