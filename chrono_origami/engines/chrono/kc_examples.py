"""The Kc paper's examples, built as in Chrono's ``demo_MBS_link_mate.cpp`` (SI units, z up, g along -z).

* :func:`pendulum` (sec. 4.1): a 15 kg point mass (no rotational inertia) on a
  4 m rigid link, a ``ChLinkMateGeneric`` revolute joint about the global y
  axis at the origin (x, y, z, rx, rz locked), body 1 the mass, body 2 the
  fixed root; started ``start_angle_deg`` off the downward vertical (towards +x).
* :func:`anchor_chain` (sec. 4.2): 43 bodies of 10 kg, inertia diag(10, 10, 10)
  (kg m^2): anchors A (0, 0, 0) and B (10, 0, 0) revolute to fixed walls (rotation
  about y free), anchor C at (5, 0, -6) and 20 bodies on each straight segment
  A-C, C-B ('V' shape); consecutive bodies joined by ``ChLinkMateGeneric``
  with x, y, z and rx locked, frames at +-half the body spacing along body x.

Both return a :class:`KcExample` holding the system and the named bodies and
links; the analyses are :mod:`chrono_origami.analysis.modal`'s.
"""
from dataclasses import dataclass, field
import math

import pychrono as chrono

from ...tools.errors import OrigamiError
from .links import vec

G = 9.81


@dataclass
class KcExample:
    system: object
    bodies: dict
    links: list = field(default_factory=list)


def _new_system():
    s = chrono.ChSystemNSC()
    s.SetGravitationalAcceleration(vec((0, 0, -G)))
    s.SetSolver(chrono.ChSolverSparseQR())   # Kc blocks need a direct solver (the demo uses Pardiso)
    return s


def pendulum(start_angle_deg=30.0, use_tangent_stiffness=True, length=4.0, mass=15.0):
    """Sec. 4.1 pendulum; ``start_angle_deg`` from the downward vertical (|angle| > 90: above the hinge)."""
    if not (math.isfinite(start_angle_deg) and math.isfinite(length) and length > 0 and mass > 0):
        raise OrigamiError(f"pendulum: need a finite start angle and positive length and mass, got "
                           f"{start_angle_deg!r}, {length!r}, {mass!r}")
    th = math.radians(start_angle_deg)
    if abs(math.cos(th)) < 1e-12 and abs(math.sin(th)) < 1e-12:
        raise OrigamiError("pendulum: degenerate start angle")
    s = _new_system()
    root = chrono.ChBody()
    root.SetName("base")
    root.SetMass(1e6)
    root.SetInertiaXX(vec((1, 1, 1)))
    root.SetFixed(True)
    root.EnableCollision(False)
    s.AddBody(root)
    body = chrono.ChBody()
    pos = vec((length * math.sin(th), 0, -length * math.cos(th)))
    zdir = (chrono.ChVector3d(root.GetPos()) - pos).GetNormalized()
    ydir = chrono.ChVector3d(root.GetRot().GetAxisY()).GetNormalized()
    xdir = ydir.Cross(zdir).GetNormalized()
    mx, my, mz = vec((0, 0, 0)), vec((0, 0, 0)), vec((0, 0, 0))
    xdir.GetDirectionAxesAsX(mx, my, mz, ydir)
    body.SetCoordsys(chrono.ChCoordsysd(pos, chrono.ChMatrix33d(mx, my, mz).GetQuaternion()))
    body.SetMass(mass)
    body.SetInertiaXX(vec((0, 0, 0)))
    body.SetName("mass")
    body.EnableCollision(False)
    s.AddBody(body)
    joint = chrono.ChLinkMateGeneric()
    joint.SetConstrainedCoords(True, True, True, True, False, True)   # rotation about y free
    joint.SetName("revolute_joint")
    joint.Initialize(body, root, root.GetFrameCOMToAbs())
    joint.SetUseTangentStiffness(use_tangent_stiffness)
    s.Add(joint)
    s.Setup()
    return KcExample(s, {"base": root, "mass": body}, [joint])


def anchor_chain(use_tangent_stiffness=True, n_rigid=20, mass=10.0, inertia=10.0, xB=10.0, zC=-6.0):
    """Sec. 4.2 anchor chain, set up line by line as ``test_anchorchain`` in ``demo_MBS_link_mate.cpp``."""
    s = _new_system()
    xA, xC = 0.0, xB / 2.0
    J = vec((inertia, inertia, inertia))
    bodies = {}

    def body(name, pos, rot=None, fixed=False):
        b = chrono.ChBody()
        b.SetName(name)
        b.SetPos(pos)
        if rot is not None:
            b.SetRot(rot)
        if fixed:
            b.SetFixed(True)
        else:
            b.SetMass(mass)
            b.SetInertiaXX(J)
        s.AddBody(b)
        bodies[name] = b
        return b

    links = []

    def end_joint(anchor, wall):
        j = chrono.ChLinkMateGeneric(True, True, True, True, False, True)
        j.Initialize(anchor, wall, wall.GetFrameCOMToAbs())
        j.SetUseTangentStiffness(use_tangent_stiffness)
        s.AddLink(j)
        links.append(j)

    wallA = body("wallA", vec((xA, 0, 0)), fixed=True)
    anchorA = body("anchorA", vec((xA, 0, 0)), chrono.QuatFromAngleY(chrono.CH_PI_4))
    end_joint(anchorA, wallA)
    wallB = body("wallB", vec((xB, 0, 0)), fixed=True)
    anchorB = body("anchorB", vec((xB, 0, 0)), chrono.QuatFromAngleY(-chrono.CH_PI_4))
    end_joint(anchorB, wallB)
    anchorC = body("anchorC", vec((xC, 0.0, zC)))
    knots = []

    def segment(pA, pB, N, tag):
        a, b = chrono.ChVector3d(pA.GetPos()), chrono.ChVector3d(pB.GetPos())
        xdir = (b - a).GetNormalized()
        ydir = vec((0, 1, 0))
        mx, my, mz = vec((0, 0, 0)), vec((0, 0, 0)), vec((0, 0, 0))
        xdir.GetDirectionAxesAsX(mx, my, mz, ydir)
        rot = chrono.ChMatrix33d(mx, my, mz).GetQuaternion()
        dP = (b - a) * (1.0 / (N + 1))
        for i in range(N):
            knots.append(body(f"{tag} {i + 1}", a + dP * (i + 1), rot))

    knots.append(anchorA)
    segment(anchorA, anchorC, n_rigid, "knot AC")
    knots.append(anchorC)
    segment(anchorC, anchorB, n_rigid, "knot CB")
    knots.append(anchorB)
    for i in range(len(knots) - 1):
        j = chrono.ChLinkMateGeneric(True, True, True, True, False, False)
        half = 0.5 * (chrono.ChVector3d(knots[i + 1].GetPos()) - chrono.ChVector3d(knots[i].GetPos())).Length()
        j.Initialize(knots[i], knots[i + 1], True, chrono.ChFramed(vec((half, 0, 0)), chrono.QUNIT),
                     chrono.ChFramed(vec((-half, 0, 0)), chrono.QUNIT))
        j.SetUseTangentStiffness(use_tangent_stiffness)
        s.AddLink(j)
        links.append(j)
    s.Setup()
    return KcExample(s, bodies, links)
