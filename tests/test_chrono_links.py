"""The plugin's Chrono links: masks, frames, reactions in the paper's {n, t, m} frame, Kc, point and lock forms.

Needs PyChrono (marked ``chrono``; skipped with the reason when it is missing).
"""
import os
import tempfile

import numpy as np
import pytest

from chrono_origami import engines

chrono = pytest.importorskip("pychrono", exc_type=ImportError, reason=engines.chrono_unavailable_reason())

from chrono_origami.engines.chrono import static as ca  # noqa: E402
from chrono_origami.engines.chrono import links as lk  # noqa: E402
from chrono_origami.engines.chrono import system as cs  # noqa: E402
from chrono_origami.tools.errors import SolverError  # noqa: E402
from chrono_origami.tools.geometry import edge_frame  # noqa: E402
from chrono_origami.crease.pattern import CreasePattern  # noqa: E402
from chrono_origami.engines.reference.static import solve  # noqa: E402
from chrono_origami.structure.structure import Load, Structure, Support  # noqa: E402
from chrono_origami.structure.hinges import DOOR, SLIDING  # noqa: E402

pytestmark = pytest.mark.chrono


# ------------------------------------------------------------------ structures
def flat_pair(kind=DOOR, F=2.0, G=0.7):
    """Two unit squares in z = 0 hinged along x = 1 (hinge 1: vertices 2 -> 3, panels 1, 2).

    Panel 1 held 3-2-1 (vertex 1 xyz, vertex 4 xz, vertex 2 z); panel 2 held
    in z at vertex 5 (and in y at vertex 6 when the hinge slides). Load
    (G, 0, -F) at vertex 6 on panel 2.
    """
    X = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [2, 0, 0], [2, 1, 0]]
    pat = CreasePattern(X, [(0, 1, 2, 3), (1, 4, 5, 2)])
    sups = [Support(0, 0, "xyz"), Support(3, 0, "xz"), Support(1, 0, "z"), Support(4, 1, "z")]
    if kind == SLIDING:
        sups.append(Support(5, 1, "y"))
    return Structure(pat, (kind,), supports=tuple(sups), loads=(Load(5, (G, 0.0, -F), 1),), name=f"flat pair ({kind})")


def bent_pair(kind=DOOR, gravity=(0, 0, -9.81)):
    """Two squares at an angle (panel 2 rises to z = 0.3), thick and heavy, with point and shared loads."""
    X = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [2, 0, 0.3], [2, 1, 0.3]]
    pat = CreasePattern(X, [(0, 1, 2, 3), (1, 4, 5, 2)])
    sups = [Support(0, 0, "xyz"), Support(3, 0, "xz"), Support(1, 0, "z"), Support(4, 1, "z")]
    if kind == SLIDING:
        sups.append(Support(5, 1, "y"))
    return Structure(pat, (kind,), thickness=0.05, density=100.0, supports=tuple(sups),
                     loads=(Load(5, (0.3, -0.2, -1.0), 1), Load(2, (0.1, 0.5, -2.0), None)), gravity=gravity,
                     name=f"bent pair ({kind})")


def rows(result):
    return np.array([r[2:] for r in result.hinge_rows()])


# ------------------------------------------------------------------ masks and frames
@pytest.mark.parametrize("cls, n, free", [(lk.DoorHinge, 5, ("rz",)), (lk.SlidingHinge, 4, ("z", "rz")),
                                          (lk.PointSlider, 2, ("z", "rx", "ry", "rz")),
                                          (lk.SphericalHinge, 3, ("rx", "ry", "rz"))])
def test_mate_masks(cls, n, free):
    link = cls()
    assert isinstance(link, chrono.ChLinkMateGeneric)
    assert link.GetNumConstraints() == n
    flags = dict(zip(("x", "y", "z", "rx", "ry", "rz"),
                     (link.IsConstrainedX(), link.IsConstrainedY(), link.IsConstrainedZ(),
                      link.IsConstrainedRx(), link.IsConstrainedRy(), link.IsConstrainedRz())))
    assert tuple(k for k, on in flags.items() if not on) == free
    assert link.GetUseTangentStiffness() is True


@pytest.mark.parametrize("dofs, n", [("xyz", 3), ("xz", 2), ("y", 1)])
def test_support_mask(dofs, n):
    link = lk.VertexSupport(dofs)
    assert link.GetNumConstraints() == n
    assert [link.IsConstrainedX(), link.IsConstrainedY(), link.IsConstrainedZ()] == [c in dofs for c in "xyz"]
    assert not (link.IsConstrainedRx() or link.IsConstrainedRy() or link.IsConstrainedRz())
    with pytest.raises(ValueError, match="subset of 'xyz'"):
        lk.VertexSupport("xw")


def test_lock_hinges_are_revolute_and_cylindrical_masks():
    d, s = lk.DoorHingeLock(), lk.SlidingHingeLock()
    assert isinstance(d, chrono.ChLinkLockRevolute) and isinstance(s, chrono.ChLinkLockCylindrical)
    b = cs.build_system(bent_pair(DOOR), hinge_form="lock", visual=False)
    assert b.hinges[0].link.GetNumConstraints() == 5
    b = cs.build_system(bent_pair(SLIDING), hinge_form="lock", visual=False)
    assert b.hinges[0].link.GetNumConstraints() == 4
    with pytest.raises(ValueError, match="no constraint tangent stiffness"):
        lk.DoorHingeLock().SetUseTangentStiffness(True)


def test_hinge_link_frame_is_the_reporting_panels_frame():
    s = bent_pair(DOOR)
    pat = s.pattern
    b = cs.build_system(s, visual=False)
    link = b.hinges[0].link
    a, v = pat.hinges[0].vertices
    q = pat.hinges[0].panels[1]
    n, t, m = edge_frame(pat.vertices[v], pat.vertices[a], pat.panel_normal(q)).T   # q runs the edge v -> a
    for fr in (link.GetFrame1Abs(), link.GetFrame2Abs()):
        np.testing.assert_allclose(lk.rotation(fr), np.column_stack([m, n, t]), atol=1e-15)
        np.testing.assert_allclose(lk.arr(fr.GetPos()), 0.5 * (pat.vertices[a] + pat.vertices[v]), atol=1e-15)
    assert np.isclose(np.linalg.det(lk.rotation(link.GetFrame2Abs())), 1.0)


@pytest.mark.parametrize("kind", [DOOR, SLIDING])
def test_reaction2_is_row_h_q_without_sign_changes(kind):
    """GetReaction2 = (TO, N, TP) and (MO, MT, MP) of row (hinge, q), q the hinge's second panel."""
    s = bent_pair(kind)
    b = cs.build_system(s, visual=False)
    ca.static(s, built=b)
    w = b.hinges[0].link.GetReaction2()
    q = s.pattern.hinges[0].panels[1]
    MT, MP, MO, N, TP, TO = solve(s).action(0, q).values
    np.testing.assert_allclose(lk.arr(w.force), [TO, N, TP], rtol=0, atol=1e-12)
    np.testing.assert_allclose(lk.arr(w.torque), [MO, MT, MP], rtol=0, atol=1e-12)


# ------------------------------------------------------------------ closed forms
@pytest.mark.parametrize("kind", [DOOR, SLIDING])
@pytest.mark.parametrize("form", ["mate", "lock", "points"])
def test_flat_pair_closed_form(kind, form):
    """Panel 2: the support at vertex 5 carries F (moments about the hinge axis); the hinge carries the rest.

    On panel 2 (frame n = -x, t = -y, m = +z) the hinge acts with the moment
    (F, 0, 0.5 G) and the force (-G, 0, 0) about the midpoint (1, 0.5, 0):
    MT = -F, MP = 0, MO = 0.5 G, N = G, TP = 0, TO = 0, and on panel 1 the
    opposite action in its frame (n = +x, t = +y): the same six numbers but MO.
    """
    F, G = 2.0, 0.7
    s = flat_pair(kind, F, G)
    r = ca.static(s, hinge_form=form)
    np.testing.assert_allclose(r.action(0, 1).values, [-F, 0, 0.5 * G, G, 0, 0], rtol=0, atol=1e-12)
    np.testing.assert_allclose(r.action(0, 0).values, [-F, 0, -0.5 * G, G, 0, 0], rtol=0, atol=1e-12)
    reactions = {(x.vertex + 1, x.dofs): x.force for x in r.support_reactions}
    np.testing.assert_allclose(reactions[(5, "z")], [0, 0, F], atol=1e-12)
    np.testing.assert_allclose(sum(reactions.values()), [-G, 0, F], atol=1e-12)


# ------------------------------------------------------------------ all forms, same resultant
@pytest.mark.parametrize("kind", [DOOR, SLIDING])
def test_point_and_lock_forms_give_the_mate_resultant(kind):
    s = bent_pair(kind)
    mate = rows(ca.static(s, hinge_form="mate"))
    scale = np.abs(mate).max()
    for form in ("points", "lock"):
        np.testing.assert_allclose(rows(ca.static(s, hinge_form=form)), mate, rtol=0, atol=1e-6 * scale)
    # and the point links' own reactions add up to it: sum of wrenches on q about the midpoint
    b = cs.build_system(s, hinge_form="points", visual=False)
    ca.static(s, built=b)
    hl = b.hinges[0]
    assert len(hl.links) == 2
    assert [type(x) for x in hl.links] == ([lk.PointSlider, lk.PointSlider] if kind == SLIDING
                                           else [lk.SphericalHinge, lk.PointSlider])
    pat = s.pattern
    a, v = pat.hinges[0].vertices
    mid = 0.5 * (pat.vertices[a] + pat.vertices[v])
    total = sum(np.concatenate(lk.wrench_about(link, side, mid)[::-1]) for link, side in zip(hl.links, hl.q_sides))
    q = pat.hinges[0].panels[1]
    act = solve(s).action(0, q)
    np.testing.assert_allclose(total, np.concatenate([act.moment, act.force]), rtol=0, atol=1e-6 * scale)


def test_sliding_hinge_carries_no_parallel_shear_door_hinge_does():
    for kind in (DOOR, SLIDING):
        r = ca.static(bent_pair(kind))
        TP = np.array([a.as_dict()["TP"] for a in r.hinge_actions])
        MP = np.array([a.as_dict()["MP"] for a in r.hinge_actions])
        assert np.abs(MP).max() < 1e-12
        assert (np.abs(TP).max() < 1e-12) == (kind == SLIDING)


# ------------------------------------------------------------------ Kc
def _stiffness_and_multipliers(b):
    sys_ = b.system
    n = sys_.GetNumConstraints()
    L = chrono.ChVectorDynamicd(n)
    sys_.StateGatherReactions(L)
    lam = np.array([L.GetItem(i) for i in range(n)])
    nv = sys_.GetNumCoordsVelLevel()
    with tempfile.TemporaryDirectory() as d:
        sys_.WriteSystemMatrices(False, True, False, False, os.path.join(d, "s"), False)
        path = os.path.join(d, "s_K.dat")
        D = np.loadtxt(path, ndmin=2) if os.path.getsize(path) else np.zeros((0, 3))
    K = np.zeros((nv, nv))
    for i, j, v in D:
        K[int(i), int(j)] += v
    return K, lam


@pytest.mark.parametrize("form", ["mate", "points"])
def test_kc_is_minus_the_derivative_of_the_constraint_forces(form):
    """Finite differences: Chrono's K (WriteSystemMatrices) = -d(Cq^T lambda)/dq at fixed lambda, Chrono's coordinates.

    Coordinates: translations of the centre of mass (global) and rotations about the body axes.
    """
    s = bent_pair(DOOR)
    b = cs.build_system(s, hinge_form=form, visual=False)
    ca.static(s, built=b)
    K, lam = _stiffness_and_multipliers(b)
    assert np.abs(K).max() > 1.0    # the hinge force is about 26: Kc is there

    def forces():
        return ca.constraint_jacobian(b.system).toarray().T @ lam

    eps = 1e-4
    J = np.zeros_like(K)
    for body in b.bodies:
        off = body.GetOffset_w()
        p0, q0 = chrono.ChVector3d(body.GetPos()), chrono.ChQuaterniond(body.GetRot())   # copies, not references
        for k in range(6):
            out = []
            for sgn in (1.0, -1.0):
                e = np.zeros(3)
                e[k % 3] = 1.0
                if k < 3:
                    body.SetPos(p0 + lk.vec(sgn * eps * e))
                    body.SetRot(q0)
                else:
                    body.SetPos(p0)
                    body.SetRot(q0 * chrono.QuatFromAngleAxis(sgn * eps, lk.vec(e)))
                out.append(forces())
            body.SetPos(p0)
            body.SetRot(q0)
            J[:, off + k] = (out[0] - out[1]) / (2 * eps)
    np.testing.assert_allclose(K, -J, rtol=0, atol=1e-6 * np.abs(K).max())


def test_kc_off_gives_no_stiffness():
    s = bent_pair(DOOR)
    b = cs.build_system(s, visual=False, use_tangent_stiffness=False)
    assert all(not x.GetUseTangentStiffness() for x in b.structure_links())
    ca.static(s, built=b, use_tangent_stiffness=False)
    K, _ = _stiffness_and_multipliers(b)
    assert np.abs(K).max() == 0.0
    b.set_tangent_stiffness(True)   # switched per system, after Initialize
    assert all(x.GetUseTangentStiffness() for x in b.structure_links())
    K_on, _ = _stiffness_and_multipliers(b)
    assert np.abs(K_on).max() > 1.0    # the structure is stressed (hinge force about 26): Chrono's K is there
    hinge = b.hinges[0].link
    hinge.SetUseTangentStiffness(False)   # and per link
    assert not hinge.GetUseTangentStiffness()
    K_without_hinge, _ = _stiffness_and_multipliers(b)
    assert np.abs(K_on - K_without_hinge).max() > 1.0   # the hinge's Kc is gone from Chrono's K ...
    b.set_tangent_stiffness(False)
    hinge.SetUseTangentStiffness(True)
    K_hinge, _ = _stiffness_and_multipliers(b)
    # ... and only it: K is the sum of the links' Kc, the switched-off hinge contributed nothing
    np.testing.assert_allclose(K_hinge + K_without_hinge, K_on, rtol=0, atol=1e-12 * np.abs(K_on).max())
    assert np.abs(K_hinge).max() > 1.0


def test_kc_switch_by_system_keeps_the_link_getters_truthful():
    """lk.set_tangent_stiffness(system) without ``built`` switches the links' Python objects: getter == Chrono's K."""
    s = bent_pair(DOOR)
    b = cs.build_system(s, visual=False)
    ca.static(s, built=b)
    assert np.abs(_stiffness_and_multipliers(b)[0]).max() > 1.0
    lk.set_tangent_stiffness(b.system, False)
    assert not any(x.GetUseTangentStiffness() for x in b.structure_links())
    assert np.abs(_stiffness_and_multipliers(b)[0]).max() == 0.0
    lk.set_tangent_stiffness(b.system, True)
    assert all(x.GetUseTangentStiffness() for x in b.structure_links())
    assert np.abs(_stiffness_and_multipliers(b)[0]).max() > 1.0
    for proxy in b.system.GetLinks():   # every proxy leads back to its Python object
        assert lk.python_link(proxy) in b.structure_links()


def _moved(s, use_kc):
    b = cs.build_system(s, visual=False, use_tangent_stiffness=use_kc)
    for body, d, ang in zip(b.bodies, ([0.01, -0.02, 0.015], [-0.01, 0.02, 0.01]), (0.02, -0.015)):
        body.SetPos(body.GetPos() + lk.vec(d))
        body.SetRot(chrono.QuatFromAngleAxis(ang, lk.vec(np.array([1.0, 2.0, 3.0]) / np.sqrt(14))))
    return b


def test_newton_with_kc_needs_fewer_iterations():
    """From a configuration off the constraints, Newton with Kc reaches the tolerances in fewer iterations."""
    s = bent_pair(DOOR)

    def iterations(use_kc):
        for n in range(1, 15):
            b = _moved(s, use_kc)
            eq = ca.static_analysis(b.system, "nonlinear", max_iterations=n, use_tangent_stiffness=use_kc,
                               links=ca.structure_links(b), length=b.pattern.size)
            if eq.violation <= ca.CONSTRAINT_TOL and eq.residual <= ca.EQUILIBRIUM_RTOL:
                return n
        return np.inf

    with_kc, without = iterations(True), iterations(False)
    assert with_kc < without < np.inf
    assert with_kc <= 3


def test_failed_newton_raises_and_converged_newton_matches_reference():
    s = bent_pair(DOOR)
    with pytest.raises(SolverError, match="did not converge: constraint violation"):
        ca.static(s, method="nonlinear", built=_moved(s, True), max_iterations=1)
    r = ca.static(s, method="nonlinear", built=_moved(s, True), max_iterations=30)
    ref = rows(solve(s))
    np.testing.assert_allclose(rows(r), ref, rtol=0, atol=1e-9 * np.abs(ref).max())
    assert r.info["constraint_violation"] <= ca.CONSTRAINT_TOL
    # the linear analysis cannot repair the violation: refused, not a silent number
    with pytest.raises(SolverError, match="did not converge"):
        ca.static(s, method="linear", built=_moved(s, True))
