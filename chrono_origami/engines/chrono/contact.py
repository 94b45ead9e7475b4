"""The panels' contact by Chrono's collision detection: the solids of ``structure.solids`` as Bullet convex shapes.

Each panel's solid is given to Bullet as a convex triangle mesh (``ChCollisionShapeTriangleMesh``, convex, not
static: Bullet's ``cbtConvexTriangleMeshShape``, whose support points are the solid's vertices). Not as
``ChCollisionShapeConvexHull``: Chrono rebuilds that hull with Bullet's hull library, whose tolerance is 1e-3 of
the points' diagonal, so the hull of a panel thinner than about 1e-3 of its size comes out empty and its contact
silently vanishes (two unit squares of thickness 0.001 never met). Every face of the solid is moved in by an
inset :data:`INSET_TRTOL` x the panel's own thickness (the erosion of the convex solid by a ball of that radius),
so that solids that touch by construction (two panels on a crease, panels around a vertex) are apart, where
Bullet's GJK measures their distance well; the shape's margin (Chrono's envelope) is :data:`ENVELOPE_INSETS`
insets, so pairs closer than that are reported. The depth of a pair is then the sum of the two insets minus the
distance Bullet reports (GJK while the eroded solids are apart, EPA once they overlap); a pair interpenetrates
when its depth exceeds :data:`DEPTH_SQRT_EPS` x sqrt(eps) x L: Bullet's GJK distance comes from a squared
distance, exact to about sqrt(eps) x the size (measured 1e-8 L to 2e-8 L, L scaled to :data:`SIZE`, on touching
unit squares of thickness 1e-3 to 0.1, L = 2).

Thin panels are refused in one line (:func:`too_thin`; the automatic engine choice then checks by the reference
engine): below :func:`thinnest_resolved` (1.5e-5 L: the tolerance would be a tenth of the thickness), and below
:data:`THIN_PANEL_RTOL` of the largest panel's size where two panels share only a vertex (Bullet's EPA then
misplaces their depth by up to 1e-4 of the panel size: Origami Simulator's flat miura-ori.svg, t = 0.002 px on
panels 128.7 px across, was reported with crease pairs 0.0128 deep).

:class:`ChronoPanelSolids` (the contact check, ``analysis.contact.fold_contacts(..., engine="chrono")``) puts one
``ChBody`` per panel in a system of its own, lengths scaled so that the pattern size L is :data:`SIZE`; each frame
of a fold moves the bodies to the panels' poses and runs the collision detection (``ChSystem.ComputeCollisions``).
It finds the contacts deeper than that tolerance, the reference engine's separating axes
(``structure.solids.PanelSolids``) those deeper than its 1e-9 L: the same first frame unless that frame's depth
lies between them (a frame of fold angle d rho moves a crease's solids by about t d rho / 2, 1.6e-5 L for
t = 1e-3 L and frames of 1.8 deg). :class:`PanelContact` gives such shapes to the bodies of a dynamics (in its
own lengths, with the larger insets the hinges' drift needs: its doc).
"""
import numpy as np
import pychrono as chrono

from ...structure.solids import PanelSolids, face_loops, halfspaces, polytope
from ...tools.errors import OrigamiError, ThinPanelError
from .links import arr, chframe, rotation, vec

#: the pattern's size in Chrono's contact check (its lengths scaled): Bullet's tolerances are absolute, set for
#: sizes of metres
SIZE = 1000.0
#: every face of a panel's solid moved in by this fraction of the panel's thickness (module doc)
INSET_TRTOL = 1e-3
#: the shapes' margin (Chrono's envelope) in insets: pairs whose eroded solids are closer than the sum of theirs
#: are reported, so every pair deeper than the tolerance is
ENVELOPE_INSETS = 2.0
#: dynamics: a solid at least this fraction of its diagonal wide is given as Chrono's convex hull (its hull
#: library's tolerance is 1e-3 of the diagonal: ten times that), a thinner one as the convex mesh
HULL_WIDTH = 1e-2
#: dynamics: a convex hull's edges and corners are rounded by this fraction of its panel's inset (Chrono's safe
#: margin; Bullet's GJK and EPA on sharp hulls, safe margin 0, left a seventh of a Miura-ori strip's impact
#: energy out of the contact's work)
SAFE_INSETS = 0.1
#: a pair interpenetrates when its depth exceeds this x sqrt(eps) x L (module doc: Bullet's GJK distance)
DEPTH_SQRT_EPS = 100.0
#: the contact check refuses panels thinner than this fraction of the largest panel's diameter where two panels
#: share only a vertex: Bullet's EPA (the eroded solids overlapping) then misplaces such a corner pair's depth by
#: up to 1e-4 of the panel's size (Origami Simulator's miura-ori.svg, panels 128.7 across, first fold frame: pairs
#: 0.0015 deep reported 0.0129 deep for t = 0.8, t/a = 6.2e-3; none above the tolerance from t/a = 9.3e-3 to 0.16)
THIN_PANEL_RTOL = 1e-2
#: the contact check refuses panels thinner than this many depth tolerances (:func:`depth_tolerance`): a
#: contact shallower than the tolerance is not seen, so thinner panels would meet frames late or not at all
MIN_THICKNESS_TOLS = 10.0
#: the contact check: Bullet keeps a contact point of an earlier call while the bodies have moved less than this
#: (fraction of L) from it: the frames of a fold jump, so keep none
BREAKING_RTOL = 1e-9


def depth_tolerance(L):
    """The depth (length units) above which Chrono's contact is an interpenetration, for a pattern of size ``L``
    (module doc)."""
    return DEPTH_SQRT_EPS * np.sqrt(np.finfo(float).eps) * L


def thinnest_resolved(L):
    """The least panel thickness (length units) Chrono's contact check resolves on a pattern of size ``L``:
    :data:`MIN_THICKNESS_TOLS` depth tolerances, 1000 sqrt(eps) L = 1.5e-5 L."""
    return MIN_THICKNESS_TOLS * depth_tolerance(L)


def too_thin(structure, L, live):
    """None, or the one line refusing Chrono's contact check of ``structure`` (pattern size ``L``; ``live``: per
    panel whether it has a solid) because its thinnest panel is below :func:`thinnest_resolved`, or below
    :data:`THIN_PANEL_RTOL` of the largest panel's diameter while two panels share only a vertex, as ``(reason,
    advice)``: the line is ``f"{reason}: {advice}"``, raised as ``ThinPanelError`` (the automatic engine choice then
    takes the reference engine and says the reason)."""
    th = np.asarray(structure.thickness, float)
    live = np.asarray(live, bool) & (th > 0)
    if not live.any():
        return None
    p = int(np.flatnonzero(live)[np.argmin(th[live])])
    use = "use --contact-engine reference (separating axes: depths above 1e-9 L)"
    if th[p] < thinnest_resolved(L):
        return (f"{structure.name}: panel {p + 1}'s thickness {th[p]:.4g} is {th[p] / L:.2g} of the pattern's size "
                f"{L:.4g}: Chrono's contact check resolves depths of {depth_tolerance(L):.2g} ({DEPTH_SQRT_EPS:g} "
                f"sqrt(eps) L) and needs panels at least {thinnest_resolved(L) / L:.2g} L = "
                f"{thinnest_resolved(L):.3g} thick", use)
    pat = structure.pattern
    X = np.asarray(pat.vertices, float)
    a = max(float(np.max(np.linalg.norm(X[list(P)][:, None] - X[list(P)][None], axis=2))) for P in pat.panels)
    if th[p] >= THIN_PANEL_RTOL * a:
        return None
    corner = _corner_pair(pat, live)
    if corner is None:
        return None
    return (f"{structure.name}: panel {p + 1}'s thickness {th[p]:.4g} is {th[p] / a:.2g} of the largest panel's "
            f"size {a:.4g}, and panels {corner[0] + 1} and {corner[1] + 1} share only a vertex: Chrono's contact "
            f"check (Bullet's EPA) misplaces such a pair's depth by up to 1e-4 of the panel's size below "
            f"{THIN_PANEL_RTOL:g} of it ({THIN_PANEL_RTOL * a:.3g} thick)", use)


def _corner_pair(pattern, live):
    """The first pair (p, q) of live panels that share exactly one vertex, or None."""
    for ps in pattern.vertex_panels:
        ps = [p for p in ps if live[p]]
        for i, p in enumerate(ps):
            for q in ps[i + 1:]:
                if len(set(pattern.panels[p]) & set(pattern.panels[q])) == 1:
                    return tuple(sorted((p, q)))
    return None


def insets(structure):
    """Per panel the inset (length units) of its collision shape: :data:`INSET_TRTOL` x its thickness."""
    return INSET_TRTOL * np.asarray(structure.thickness, float)


def solid_shape(structure, p, A, b, inset, L, origin, axes, scale, material, hull=False):
    """Chrono's collision shape of panel ``p``'s solid {A x <= b} (global frame) moved in by ``inset`` (one for
    every face, or per row of A): a convex triangle mesh (module doc) in the body frame of ``origin`` and ``axes`` (columns), lengths times ``scale``.
    With ``hull``, a solid at least :data:`HULL_WIDTH` of its diagonal wide is given as Chrono's convex hull
    (Bullet then finds up to four points of a face resting on a face; on the convex mesh one, and such a panel
    rocked). A solid the inset leaves no volume is an :class:`OrigamiError` naming the panel (its contact cannot be
    modelled); never a shape silently dropped."""
    solid = polytope(A, b - inset, L)
    if solid is None:
        raise OrigamiError(f"{structure.name}: panel {p + 1}'s solid (thickness {structure.thickness[p]:g}) is too "
                           f"thin for Chrono's contact: moved in by {np.max(inset):.3g} it has no volume")
    V, N, _ = solid
    local = scale * (V - origin) @ axes
    width = min(float(np.ptp(V @ n)) for n in N)
    if hull and width >= HULL_WIDTH * float(np.linalg.norm(np.ptp(V, axis=0))):
        pts = chrono.vector_ChVector3d()
        for x in local:
            pts.push_back(vec(x))
        return chrono.ChCollisionShapeConvexHull(material, pts)
    mesh = chrono.ChTriangleMeshSoup()
    for loop in face_loops(V, N, L):
        for i in range(1, len(loop) - 1):
            mesh.AddTriangle(vec(local[loop[0]]), vec(local[loop[i]]), vec(local[loop[i + 1]]))
    return chrono.ChCollisionShapeTriangleMesh(material, mesh, False, True, 0.0)


def add_shape(body, shape, envelope, safe_margin=0.0):
    """Give ``body`` the collision ``shape`` with margin (Chrono's envelope) ``envelope`` and turn its collision
    on. ``safe_margin``: the radius by which Chrono rounds a convex hull's edges and corners (its faces stay); the
    convex mesh takes none."""
    body.AddCollisionShape(shape)
    model = body.GetCollisionModel()
    model.SetEnvelope(envelope)
    model.SetSafeMargin(safe_margin)
    body.EnableCollision(True)


class _Report(chrono.ReportContactCallback):
    """Collects (identifier A, identifier B, distance) of every contact Chrono reports."""

    def __init__(self):
        super().__init__()
        self.found = []

    def OnReportContact(self, pA, pB, plane, distance, radius, force, torque, modA, modB, *rest):
        self.found.append((modA.GetPhysicsItem().GetIdentifier(), modB.GetPhysicsItem().GetIdentifier(),
                           float(distance)))
        return True


def refuse_thin(structure):
    """The panels' reference solids (``structure.solids.PanelSolids``), or a ``ThinPanelError`` (one line,
    :func:`too_thin`) when Chrono's contact check cannot resolve them."""
    S = PanelSolids(structure)
    refusal = too_thin(structure, S.L, S.live)
    if refusal:
        raise ThinPanelError(": ".join(refusal), refusal[0], S)
    return S


class ChronoPanelSolids:
    """The panels' solids of ``structure`` as Bullet convex shapes in a Chrono system (module doc)."""

    def __init__(self, structure):
        self.solids = S = refuse_thin(structure)
        self.L = S.L
        self.system = sys_ = chrono.ChSystemNSC()
        sys_.SetCollisionSystemType(chrono.ChCollisionSystem.Type_BULLET)
        material = chrono.ChContactMaterialNSC()
        O0, F0 = S.frames0
        self.insets = insets(structure)
        self.tol = depth_tolerance(self.L)
        self.unit = SIZE / self.L         # Chrono's lengths are the pattern's times this
        self.bodies, self.panel_of = [], {}
        for p, (A, b) in enumerate(halfspaces(structure)):
            body = chrono.ChBody()
            body.SetFixed(False)      # Chrono skips pairs of fixed bodies; the system is never stepped
            if S.live[p]:
                add_shape(body, solid_shape(structure, p, A, b, self.insets[p], self.L, O0[p], F0[p], self.unit,
                                            material), ENVELOPE_INSETS * self.insets[p] * self.unit)
            else:
                body.EnableCollision(False)
            sys_.AddBody(body)
            self.panel_of[body.GetIdentifier()] = p
            self.bodies.append(body)
        self.collision = chrono.CastToChCollisionSystemBullet(sys_.GetCollisionSystem())
        self.collision.BindAll()
        sys_.Setup()

    def contacts(self, X):
        """[(p, q, depth)] of the interpenetrating pairs at vertices ``X`` (V x 3), deepest first."""
        O, F = self.solids._frames(np.asarray(X, float))
        for p, body in enumerate(self.bodies):
            frame = chframe(self.unit * O[p], F[p])
            body.SetPos(frame.GetPos())
            body.SetRot(frame.GetRot())
        # a process-wide setting of Bullet's: set before every detection (a dynamics may have changed it)
        self.collision.SetContactBreakingThreshold(BREAKING_RTOL * SIZE)
        self.system.ComputeCollisions()
        report = _Report()
        self.system.GetContactContainer().ReportAllContacts(report)
        deepest = {}
        for a, b, dist in report.found:
            p, q = sorted((self.panel_of[a], self.panel_of[b]))
            depth = self.insets[p] + self.insets[q] - dist / self.unit
            if depth > self.tol and depth > deepest.get((p, q), 0.0):
                deepest[(p, q)] = depth
        return sorted(((p, q, d) for (p, q), d in deepest.items()), key=lambda c: (-c[2], c[0], c[1]))


# ======================================================================= contact in dynamics
#: dynamics: the shapes' collision envelope (fraction of L): Bullet reports pairs closer than it, so it must exceed
#: what a panel moves in a step (or an impact is found late, already deep, and the recovery throws the panel
#: back); a contact within it that is not closing costs nothing (NSC keeps its gap as slack, SMC pushes only on
#: penetration)
DYNAMICS_ENVELOPE_RTOL = 1e-2
#: dynamics: every face of a panel's solid moved in by this fraction of the pattern size L (its bevels turned, at
#: the crease: :func:`inset_tilting_bevels`), at most
#: :data:`DYNAMICS_INSET_TFRAC` of the panel's thickness: the linearised Euler step lets a hinge drift by O(dt^2)
#: (``dynamics.CONSTRAINT_TOL``: measured 5e-5 L on a Miura-ori strip), and the two panels of a crease, whose
#: solids touch along it, must stay apart by more than that (or their contact fights the hinge)
DYNAMICS_INSET_RTOL = 1e-3
#: dynamics: the inset is at most this fraction of the panel's thickness (a panel
#: 1e-3 L thin keeps half its thickness)
DYNAMICS_INSET_TFRAC = 0.25
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


def inset_tilting_bevels(A, b, inset, L):
    """The solid {A x <= b} (a panel's, ``structure.solids.halfspaces``: rows 0 and 1 its two faces, then each
    edge's row followed by its bevels' rows) with every face moved in by ``inset`` but its bevels, which are
    turned about their outer edge (the edge farthest from the crease, where the face moved in cuts the bevel)
    until they are ``inset`` in at the crease: two bevels of a crease meet at their outer edges at the taper
    angle itself, and are apart by twice the inset along the crease, where the hinge drifts. A bevel without
    width is moved in like a face. Returns (A', b') with unit rows (the solid may be empty: ``solid_shape``
    says so)."""
    A, b = np.array(A, float), np.array(b, float)
    edge = np.abs(A @ A[0]) <= 1e-9
    edge[:2] = False
    bevel = ~edge
    bevel[:2] = False
    A2, b2 = A.copy(), np.where(bevel, b, b - inset)
    solid = polytope(A2, b2, L)           # the faces moved in, the bevels not: their outer edges the pivots
    if solid is None:
        return A2, b2 - inset * bevel
    V = solid[0]
    last = None
    for r in range(2, len(A)):
        if edge[r]:
            last = r
            continue
        inward = -A[last]                  # into the panel from its crease (module doc of structure.solids)
        on = np.abs(V @ A[r] - b[r]) <= 1e-9 * L
        y = V[on] @ inward
        w = float(y.max() - y.min()) if on.any() else 0.0
        if w <= 1e-9 * L:
            b2[r] = b[r] - inset
            continue
        u = A[r] - (inset / w) * inward
        c = b[r] - inset - (inset / w) * float(y.min())
        n = np.linalg.norm(u)
        A2[r], b2[r] = u / n, c / n
    return A2, b2


class PanelContact:
    """Chrono's contact between the panels of a structure built for dynamics (``built``: a
    :class:`.system.ChronoStructure` in a system of ``material.method``'s kind), by Bullet on convex hulls.

    Each panel body carries its solid (``structure.solids``: the placement, the bevels) as a convex shape (module
    doc; Chrono's convex hull where the solid is at least :data:`HULL_WIDTH` of its diagonal thick, else the
    convex mesh, never a hull that vanishes), every face moved in by :data:`DYNAMICS_INSET_RTOL` x L (L the
    pattern size) or :data:`DYNAMICS_INSET_TFRAC` of the panel's thickness if less, its bevels turned about
    their outer edges instead (:func:`inset_tilting_bevels`: a tapered crease stops at its taper angle, 90.02
    deg for 90 on a pair of unit squares, 90.12 deg on a 2 x 4 strip, t = 0.05), envelope
    :data:`DYNAMICS_ENVELOPE_RTOL` x L (choose dt so that the panels move less than that in a step). Panels at
    rest face to face overlap by up to the sum of their insets (plus, with SMC, the penalty's penetration).
    Bullet's contact breaking threshold (a setting of the whole process, which the contact check lowers) is the
    envelope: Bullet keeps the points of earlier steps while they stay within it, the up to four points that hold
    a panel resting face to face on another.

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
        self.insets = np.minimum(DYNAMICS_INSET_RTOL * self.L, DYNAMICS_INSET_TFRAC * np.asarray(st.thickness, float))
        #: per panel its solid's vertices in its body frame (the centre of mass, global axes at the start)
        V0 = S.at(pat.vertices)[0]
        self.local = [V0[p] - built.com[p] for p in range(pat.n_panels)]
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
            if S.live[p]:       # body frame: the centre of mass, global axes at the start
                A, b = inset_tilting_bevels(A, b, self.insets[p], self.L)
                add_shape(body, solid_shape(st, p, A, b, 0.0, self.L, built.com[p], np.eye(3), 1.0, mat, hull=True),
                          DYNAMICS_ENVELOPE_RTOL * self.L, SAFE_INSETS * self.insets[p])
        chrono.CastToChCollisionSystemBullet(system.GetCollisionSystem()).SetContactBreakingThreshold(
            DYNAMICS_ENVELOPE_RTOL * self.L)
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
        points, M (3,) the moment of the forces on q from p about the global origin (each at the middle of
        Chrono's two points, where its constraint applies it);
        and the generalised contact force on every panel, (P, 6): force and moment about its centre of mass,
        global frame. A contact point is on the contact: Chrono's point (the middle of its two points, which Bullet
        may shift along the normal by an envelope) is moved along the normal n onto the plane midway between the
        two solids' faces across n (the middle of their overlap, or of the gap within the envelope); the distance
        from it to either solid's surface is half the depth there."""
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
            c = self._on_contact(i, j, 0.5 * (pa + pb), n)
            if i > j:
                i, j, f, n = j, i, -f, -n
            fn = float(f @ n)
            acc = pairs.setdefault((i, j), [0.0, np.zeros(3), np.zeros(3), np.zeros(3), 0, np.zeros(3), []])
            acc[0] += fn
            acc[1] += f - fn * n
            acc[2] += f
            acc[3] += fn * c
            acc[4] += 1
            acc[5] += np.cross(0.5 * (pa + pb), f)       # where Chrono applies it
            acc[6].append(c)
        rows = []
        for (i, j), (N, T, F, M, k, Mo, pts) in sorted(pairs.items()):
            point = M / N if N > 0 else np.mean(pts, axis=0)
            rows.append((i, j, N, float(np.linalg.norm(T)), F, point, k, Mo))
        return rows, gen

    def solid(self, p):
        """Panel ``p``'s solid's vertices (n, 3) where its body is now (global frame)."""
        body = self.built.bodies[p]
        return self.local[p] @ rotation(body).T + arr(body.GetPos())

    def _on_contact(self, i, j, c, n):
        """The point ``c`` moved along the unit normal ``n`` (from panel i to j) onto the plane midway between
        i's face across n (its farthest point along n) and j's (its nearest)."""
        h = 0.5 * ((self.solid(i) @ n).max() + (self.solid(j) @ n).min())
        return c + (h - c @ n) * n
