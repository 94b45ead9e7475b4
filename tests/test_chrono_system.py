"""Chrono systems built from structures: bodies (mass, centre of mass, inertia), names, shapes, loads, composition.

Needs PyChrono (marked ``chrono``; skipped with the reason when it is missing).
"""
import numpy as np
import pytest

from chrono_origami import engines

chrono = pytest.importorskip("pychrono", exc_type=ImportError, reason=engines.chrono_unavailable_reason())

from chrono_origami.report import styles  # noqa: E402
from chrono_origami.engines.chrono import static as ca  # noqa: E402
from chrono_origami.engines.chrono import links as lk  # noqa: E402
from chrono_origami.engines.chrono import system as cs  # noqa: E402
from chrono_origami.tools.errors import StructureError  # noqa: E402
from chrono_origami.crease.pattern import CreasePattern  # noqa: E402
from chrono_origami.engines.reference.static import solve  # noqa: E402
from chrono_origami.structure.structure import Load, Structure, Support  # noqa: E402
from chrono_origami.structure.hinges import DOOR, SLIDING  # noqa: E402

pytestmark = pytest.mark.chrono

A, B, C, H, RHO = 3.0, 2.0, 1.5, 0.1, 7.0   # rectangle A x B, right triangle with legs C (x) and B (y), thickness, density


def rect_and_triangle(kind=SLIDING, gravity=None, thickness=H):
    """Rectangle [0, A] x [0, B] and right triangle (A, 0), (A + C, 0), (A, B), hinged along x = A (z = 0)."""
    X = [[0, 0, 0], [A, 0, 0], [A, B, 0], [0, B, 0], [A + C, 0, 0]]
    pat = CreasePattern(X, [(0, 1, 2, 3), (1, 4, 2)])
    sups = (Support(0, 0, "xyz"), Support(3, 0, "xz"), Support(1, 0, "z"), Support(4, 1, "yz")) if kind == SLIDING \
        else (Support(0, 0, "xyz"), Support(3, 0, "xz"), Support(1, 0, "z"), Support(4, 1, "z"))
    return Structure(pat, (kind,), thickness=thickness, density=RHO, supports=sups,
                     loads=(Load(4, (0.2, 0.0, -1.0), 1), Load(2, (0.0, 0.3, -0.5), None)), gravity=gravity,
                     name="rectangle and triangle")


def inertia(body):
    return np.array(body.GetInertia().GetMatr())


def test_bodies_have_the_closed_form_mass_properties():
    b = cs.build_system(rect_and_triangle(), visual=False)
    rect, tri = b.bodies
    # rectangle: m = rho A B h, centre (A/2, B/2, 0), J = diag(m (B^2 + h^2)/12, m (A^2 + h^2)/12, m (A^2 + B^2)/12)
    m = RHO * A * B * H
    assert np.isclose(rect.GetMass(), m, rtol=1e-14)
    np.testing.assert_allclose(lk.arr(rect.GetPos()), [A / 2, B / 2, 0], atol=1e-14)
    np.testing.assert_allclose(inertia(rect), np.diag([m * (B * B + H * H) / 12, m * (A * A + H * H) / 12,
                                                       m * (A * A + B * B) / 12]), rtol=0, atol=1e-12)
    # right triangle, legs C and B: about the centroid Ixx = C B^3/36, Iyy = B C^3/36, int xy dA = -C^2 B^2/72
    area = C * B / 2
    m = RHO * H * area
    Ixx, Iyy, Ixy = C * B ** 3 / 36, B * C ** 3 / 36, -C * C * B * B / 72
    assert np.isclose(tri.GetMass(), m, rtol=1e-14)
    np.testing.assert_allclose(lk.arr(tri.GetPos()), [A + C / 3, B / 3, 0], atol=1e-14)
    expect = RHO * H * np.array([[Ixx + area * H * H / 12, -Ixy, 0], [-Ixy, Iyy + area * H * H / 12, 0],
                                 [0, 0, Ixx + Iyy]])
    np.testing.assert_allclose(inertia(tri), expect, rtol=0, atol=1e-12)
    for body in b.bodies:
        np.testing.assert_allclose(lk.rotation(body), np.eye(3), atol=0)
        assert not body.IsCollisionEnabled() and not body.IsFixed()
    assert b.ground.IsFixed()
    assert b.nominal_mass == [False, False]


def test_names_and_handles():
    s = rect_and_triangle()
    b = cs.build_system(s, visual=False)
    names = b.by_name()
    assert names["panel 1"] is b.bodies[0] and names["panel 2"] is b.bodies[1]
    assert b.hinges[0].link.GetName() == "hinge 1 (sliding)"
    assert isinstance(b.hinges[0].link, lk.SlidingHinge)
    assert [x.GetName() for x in b.supports] == [
        "support 1 at vertex 1 of panel 1 (xyz)", "support 2 at vertex 4 of panel 1 (xz)",
        "support 3 at vertex 2 of panel 1 (z)", "support 4 at vertex 5 of panel 2 (yz)"]
    assert names["ground"] is b.ground
    # the shared load at vertex 3 is split between panels 1 and 2, as Structure.panel_loads does
    assert [p for p, _ in b.loads] == [1, 0, 1]
    forces = {(p, f.GetName()): lk.arr(f.GetForce()) for p, f in b.loads}
    np.testing.assert_allclose(sum(forces.values()), [0.2, 0.3, -1.5], atol=1e-15)
    d = cs.build_system(s.with_hinge_kinds([DOOR]), visual=False, hinge_form="points")
    assert [x.GetName() for x in d.hinges[0].links] == ["hinge 1 (door) spherical at vertex 2",
                                                        "hinge 1 (door) slider: vertex 3 of panel 1 on panel 2"]


def test_visual_shapes():
    s = rect_and_triangle()
    b = cs.build_system(s, hinge_glyph=styles.chrono_glyph)
    for p, body in enumerate(b.bodies):
        vm = body.GetVisualModel()
        assert vm.GetNumShapes() == 1
        mesh = chrono.CastToChVisualShapeTriangleMesh(vm.GetShape(0)).GetMesh()
        assert b.panel_shapes[p].GetMesh().GetNumTriangles() == mesh.GetNumTriangles()
        n = len(s.pattern.panels[p])
        assert mesh.GetNumTriangles() == 2 * (n - 2) + 2 * n     # two faces and the sides
        V = np.array([lk.arr(v) for v in mesh.GetCoordsVertices()]) + lk.arr(body.GetPos())
        np.testing.assert_allclose(np.sort(np.unique(np.round(V[:, 2], 12))), [-H / 2, H / 2], atol=1e-12)
    slide = b.hinges[0].link.GetVisualModel()
    door = cs.build_system(s.with_hinge_kinds([DOOR]), hinge_glyph=styles.chrono_glyph).hinges[0].link.GetVisualModel()
    colors = [tuple(round(c, 6) for c in (x.R, x.G, x.B)) for x in
              (slide.GetShape(0).GetColor(), door.GetShape(0).GetColor())]
    assert colors[0] != colors[1]                                   # sliding and door hinges drawn distinctly
    assert (slide.GetNumShapes(), door.GetNumShapes()) == (2, 1)     # a rod with a sleeve / one barrel
    assert np.isclose(chrono.CastToChVisualShapeCylinder(door.GetShape(0)).GetHeight(), 0.9 * B)   # hinge length


def test_build_into_an_existing_system_composes():
    """A user's system with its own bodies first: offsets shift, answers do not."""
    s = rect_and_triangle(gravity=(0, 0, -9.81))
    sys_ = chrono.ChSystemNSC()
    sys_.SetGravitationalAcceleration(chrono.ChVector3d(0, 0, -9.81))
    sys_.SetSolver(chrono.ChSolverSparseQR())
    ground = chrono.ChBody()
    ground.SetFixed(True)
    sys_.AddBody(ground)
    other = chrono.ChBody()
    other.SetMass(3.0)
    other.SetPos(chrono.ChVector3d(5, 5, 5))
    sys_.AddBody(other)
    weld = chrono.ChLinkMateFix()
    weld.Initialize(other, ground, chrono.ChFramed(chrono.ChVector3d(5, 5, 5), chrono.QUNIT))
    sys_.AddLink(weld)
    b = cs.build_system(s, system=sys_, ground=ground)
    assert b.system is sys_ and b.ground is ground
    c = ca.count(s, built=b)
    assert [body.GetOffset_w() for body in b.bodies] == [6, 12]   # after the user's body (ChSystem.Setup)
    assert (c.M, c.S) == (0, 0)
    r = ca.static(s, built=b)
    ref = solve(s)
    O, R = np.array([x[2:] for x in r.hinge_rows()]), np.array([x[2:] for x in ref.hinge_rows()])
    np.testing.assert_allclose(O, R, rtol=0, atol=1e-9 * np.abs(R).max())
    w = weld.GetReaction1()   # keep the wrench: .force of a temporary would dangle
    np.testing.assert_allclose(lk.arr(w.force), [0, 0, 3.0 * 9.81], atol=1e-9)   # holds the user's body up


def test_existing_system_mismatches_are_refused():
    s = rect_and_triangle(gravity=(0, 0, -9.81))
    sys_ = chrono.ChSystemNSC()
    with pytest.raises(StructureError, match="differs from the system's gravitational acceleration"):
        cs.build_system(s, system=sys_, use_tangent_stiffness=False)
    sys_.SetGravitationalAcceleration(chrono.ChVector3d(0, 0, -9.81))
    with pytest.raises(StructureError, match="cannot handle the constraint tangent stiffness Kc"):
        cs.build_system(s, system=sys_)
    cs.build_system(s, system=sys_, use_tangent_stiffness=False)   # fine without Kc
    loose = chrono.ChBody()
    with pytest.raises(StructureError, match="must be fixed"):
        cs.build_system(s, ground=loose)
    with pytest.raises(StructureError, match="unknown hinge_form 'hinges'"):
        cs.build_system(s, hinge_form="hinges")


def test_massive_structure_without_gravity_is_refused_in_a_system_with_gravity():
    s = rect_and_triangle(gravity=None, thickness=H)
    sys_ = chrono.ChSystemNSC()
    sys_.SetGravitationalAcceleration(chrono.ChVector3d(0, 0, -9.81))
    n_links = sys_.GetLinks().size() if hasattr(sys_.GetLinks(), "size") else len(sys_.GetLinks())
    with pytest.raises(StructureError) as e:
        cs.build_system(s, system=sys_, use_tangent_stiffness=False)
    msg = str(e.value)
    assert "\n" not in msg
    assert "gravity is None" in msg and "(0.0, 0.0, -9.81)" in msg and "2 of 2 panels have mass" in msg
    assert len(list(sys_.GetBodies())) == 0 and len(list(sys_.GetLinks())) == n_links == 0   # nothing added
    light = rect_and_triangle(gravity=None, thickness=0.0)   # massless panels: gravity does not act, accepted
    b = cs.build_system(light, system=sys_, use_tangent_stiffness=False)
    assert len(b.bodies) == 2
    sys_.SetGravitationalAcceleration(chrono.ChVector3d(0, 0, 0))   # no gravity in the system: accepted
    cs.build_system(s, system=sys_, use_tangent_stiffness=False)


def test_gravity_and_massless_panels():
    """Chrono's gravity gives the panel weights; massless panels (thickness 0) get a nominal mass and no weight."""
    heavy = rect_and_triangle(gravity=(0, 0, -9.81))
    r = ca.static(heavy)
    ref = solve(heavy)
    R = np.array([x[2:] for x in ref.hinge_rows()])
    np.testing.assert_allclose(np.array([x[2:] for x in r.hinge_rows()]), R, rtol=0, atol=1e-9 * np.abs(R).max())
    F = sum(x.force for x in r.support_reactions)
    weight = RHO * H * (A * B + C * B / 2) * 9.81
    np.testing.assert_allclose(F, [-0.2, -0.3, 1.5 + weight], atol=1e-9)
    light = rect_and_triangle(gravity=(0, 0, -9.81), thickness=0.0)
    b = cs.build_system(light, visual=False)
    assert b.nominal_mass == [True, True] and all(body.GetMass() > 0 for body in b.bodies)
    r = ca.static(light, built=b)
    np.testing.assert_allclose(sum(x.force for x in r.support_reactions), [-0.2, -0.3, 1.5], atol=1e-12)


def test_hinge_glyphs_sit_at_the_hinge_midpoints():
    """Each hinge's visual shape is placed at its midpoint (regression: a freed temporary frame once gave garbage)."""
    import pychrono as chrono

    from chrono_origami.engines.chrono import links as lk
    from chrono_origami.engines.chrono import system as S
    from chrono_origami.patterns import kresling, miura

    for st in (miura.miura_cantilever(), kresling.kresling_module()):
        built = S.build_system(st, hinge_glyph=styles.chrono_glyph)
        for h in range(len(st.pattern.hinges)):
            link = built.hinges[h].links[0]
            frame = chrono.ChFramed(link.GetVisualModelFrame())
            shape = chrono.ChFramed(link.GetVisualModel().GetShapeFrame(0))
            where = lk.arr(frame.GetPos()) + lk.rotation(frame) @ lk.arr(shape.GetPos())
            mid, R = lk.hinge_link_frame(st.pattern, h)
            np.testing.assert_allclose(where, mid, atol=1e-12)
            # the glyph's axis is the hinge axis
            axis = lk.rotation(frame) @ lk.rotation(shape)[:, 2]
            assert abs(abs(axis @ R[:, 2]) - 1) < 1e-12
