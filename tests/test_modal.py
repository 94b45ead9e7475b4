"""Modal analysis with the constraint tangent stiffness Kc, through Chrono.

Kc paper (Peng, Tasora, Fusai, Mangoni 2024): the pendulum of sec. 4.1 and the
anchor chain of sec. 4.2 (built as Chrono's demo_MBS_link_mate.cpp); Kc of the
plugin's door and sliding hinges against finite differences of Cq^T L; the
load stiffness of point loads; crease springs in K; closed forms of a hinged
panel; agreement of the three eigen methods on Chrono's matrices; scenes and
exports. The solvers alone, on closed forms and without PyChrono:
tests/test_modal_solvers.py.

Needs PyChrono (marked ``chrono``; skipped with the reason when it is missing).
"""
import csv
import os
import subprocess
import sys
from dataclasses import replace

import numpy as np
import pytest
import scipy.sparse as sps

from chrono_origami import engines

chrono = pytest.importorskip("pychrono", exc_type=ImportError, reason=engines.chrono_unavailable_reason())

from scipy.optimize import brentq  # noqa: E402

from chrono_origami.engines.chrono import kc_examples as ex  # noqa: E402
from chrono_origami.engines.chrono import links as lk  # noqa: E402
from chrono_origami.engines.chrono import matrices  # noqa: E402
from chrono_origami.engines.chrono import static as chrono_statics  # noqa: E402
from chrono_origami.analysis import modal  # noqa: E402
from chrono_origami.engines.chrono import springs  # noqa: E402
from chrono_origami.engines.chrono import system as cs  # noqa: E402
from chrono_origami.tools.errors import IndeterminateError, SolverError, StructureError  # noqa: E402
from chrono_origami.crease.pattern import CreasePattern  # noqa: E402
from chrono_origami.patterns import miura  # noqa: E402
from chrono_origami.structure.properties import panel_mass_properties  # noqa: E402
from chrono_origami.engines.reference import count as counting  # noqa: E402
from chrono_origami.report import modal as report_modal  # noqa: E402
from chrono_origami.structure.structure import Load, Structure, Support  # noqa: E402
from chrono_origami.structure.hinges import DOOR, SLIDING  # noqa: E402

pytestmark = pytest.mark.chrono

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
G = 9.81


# ------------------------------------------------------------------ helpers
def fd_jacobian(system, f, h=1e-6):
    """Central differences of f() over Chrono's coordinates (translations global, rotations in the body frame)."""
    bodies = matrices.active_bodies(system)
    saved = [(chrono.ChVector3d(b.GetPos()), chrono.ChQuaterniond(b.GetRot())) for b in bodies]   # copies

    def move(i, step):
        for b, (p, q) in zip(bodies, saved):
            b.SetPos(p)
            b.SetRot(q)
        b = bodies[i // 6]
        e = np.zeros(3)
        e[i % 3] = step
        if i % 6 < 3:
            b.SetPos(saved[i // 6][0] + lk.vec(e))
        else:
            b.SetRot(saved[i // 6][1] * chrono.QuatFromRotVec(lk.vec(e)))
        system.Update()

    n = 6 * len(bodies)
    J = None
    for i in range(n):
        move(i, h)
        fp = f()
        move(i, -h)
        fm = f()
        if J is None:
            J = np.zeros((len(fp), n))
        J[:, i] = (fp - fm) / (2 * h)
    for b, (p, q) in zip(bodies, saved):
        b.SetPos(p)
        b.SetRot(q)
    system.Update()
    return J


def rel(A, B):
    return np.linalg.norm(A - B) / np.linalg.norm(B)


def pair(kind=DOOR, gravity=(0.0, 0.0, -G), load=None, extra_supports=()):
    """Panel 1 (unit square) held 3-2-1, panel 2 hinged to it along x = 1; thick and heavy (10 kg each).

    Sliding hinge: the slide along the hinge (y) is free (held by the slide spring when there is one).
    """
    X = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [2, 0, 0], [2, 1, 0]]
    pat = CreasePattern(X, [(0, 1, 2, 3), (1, 4, 5, 2)])
    sups = (Support(0, 0, "xyz"), Support(3, 0, "xz"), Support(1, 0, "z")) + tuple(extra_supports)
    loads = () if load is None else (Load(5, tuple(load), 1),)
    return Structure(pat, (kind,), thickness=0.02, density=500.0, supports=sups, loads=loads, gravity=gravity,
                     name=f"hinged pair ({kind})")


def hinged_pair(kind=DOOR, k=200.0, k_slide=1000.0, damping=0.0, **kw):
    s = pair(kind, **kw)
    b = cs.build_system(s, visual=False)
    sp_ = springs.add_crease_springs(b, k, slide_stiffness=k_slide, damping=damping)
    return s, b, sp_


def axis_inertia(s):
    """Mass, distance of the centre of mass from the hinge axis (x = 1, z = 0), inertia about that axis, of panel 2."""
    m, com, J = panel_mass_properties(s.pattern, 1, s.thickness[1], s.density)
    d = np.hypot(com[0] - 1.0, com[2])
    return m, d, J[1, 1] + m * d * d


# ------------------------------------------------------------------ pendulum (sec. 4.1)
@pytest.mark.parametrize("method", ["nullspace", "augmented", "sparse"])
def test_pendulum_lower_equilibrium_oscillates_at_1566(method):
    e = ex.pendulum(30.0)
    r = modal.modal_analysis(e.system, method=method, n_modes=1)
    assert r.equilibrium.converged
    np.testing.assert_allclose(lk.arr(e.bodies["mass"].GetPos()), [0, 0, -4], atol=1e-9)
    (mode,) = r.modes
    assert mode.kind == "oscillatory" and mode.stable
    assert abs(mode.eigenvalue.real) < 1e-9
    assert round(mode.eigenvalue.imag, 3) == 1.566
    assert mode.eigenvalue.imag == pytest.approx(np.sqrt(G / 4.0), rel=1e-9)
    assert r.spurious == [] and r.zero_modes == []


@pytest.mark.parametrize("angle", [120.0, 150.0, -135.0])
@pytest.mark.parametrize("method", ["nullspace", "augmented"])
def test_pendulum_started_past_90_degrees_finds_the_upper_unstable_equilibrium(angle, method):
    """Newton's basin of the upper equilibrium: from 120 deg the first step (theta - tan theta) lands near 180 deg.

    (Just past 90 deg, e.g. 100 deg, tan theta is large and the first step jumps into the lower basin.)
    """
    e = ex.pendulum(angle)
    r = modal.modal_analysis(e.system, method=method)
    np.testing.assert_allclose(lk.arr(e.bodies["mass"].GetPos()), [0, 0, 4], atol=1e-9)
    (mode,) = r.modes
    assert mode.kind == "unstable" and not mode.stable
    assert abs(mode.eigenvalue.imag) < 1e-9 and mode.freq_hz == 0.0
    assert round(mode.eigenvalue.real, 3) == 1.566
    assert mode.eigenvalue.real == pytest.approx(np.sqrt(G / 4.0), rel=1e-9)


def test_pendulum_without_kc_reports_failure_instead_of_a_number():
    e = ex.pendulum(30.0, use_tangent_stiffness=False)
    with pytest.raises(SolverError, match="did not converge: relative equilibrium residual"):
        modal.modal_analysis(e.system, use_tangent_stiffness=False, equilibrium="no-kc")
    # DoStaticAnalysis "succeeded" and left the mass where it started, out of equilibrium
    np.testing.assert_allclose(lk.arr(e.bodies["mass"].GetPos()), [2.0, 0.0, -2 * np.sqrt(3)], atol=1e-9)
    eq = chrono_statics.check_equilibrium(e.system)
    assert not eq.converged and eq.residual > 0.1


def test_pendulum_without_kc_at_the_kc_equilibrium_has_only_a_zero_mode():
    e = ex.pendulum(30.0)
    c = modal.compare_tangent_stiffness(e.system)
    assert len(c.with_kc.modes) == 1 and c.without_kc.modes == []
    assert len(c.without_kc.zero_modes) == 1


# ------------------------------------------------------------------ anchor chain (sec. 4.2)
@pytest.fixture(scope="module")
def chain():
    e = ex.anchor_chain()
    c = modal.compare_tangent_stiffness(e.system)
    return e, c


def test_anchor_chain_is_the_demo_setup(chain):
    e, _ = chain
    s = e.system
    bodies = matrices.active_bodies(s)
    assert len(bodies) == 43
    assert all(b.GetMass() == 10.0 for b in bodies)
    assert all(np.allclose(np.array(b.GetInertia().GetMatr()), 10.0 * np.eye(3)) for b in bodies)
    assert s.GetNumConstraints() == 2 * 5 + 42 * 4


def test_anchor_chain_four_lowest_frequencies(chain):
    _, c = chain
    f = c.with_kc.frequencies_hz[:4]
    assert [round(x, 3) for x in f] == [0.240, 0.309, 0.504, 0.551]
    assert all(m.kind == "oscillatory" for m in c.with_kc.modes)
    assert len(c.with_kc.modes) == 80 and c.with_kc.zero_modes == []


def test_anchor_chain_without_kc_has_no_oscillatory_modes(chain):
    _, c = chain
    assert c.without_kc.modes == []
    assert len(c.without_kc.zero_modes) == 80


def test_anchor_chain_equilibrium_is_a_catenary(chain):
    """Sec. 4.2.1: the horizontal component of every joint force is the same."""
    e, c = chain
    assert c.with_kc.equilibrium.converged
    fx = []
    for link in e.links[2:]:
        F, _, _ = lk.reaction_on(link, 2)
        fx.append(F[0])
    fx = np.abs(fx)
    assert fx.std() / fx.mean() < 1e-9


def test_mass_matrix_from_the_bodies_equals_chronos(chain):
    e, c = chain
    M = matrices.body_mass_matrix(matrices.active_bodies(e.system))
    assert abs(M - c.with_kc.matrices.M).max() == 0.0
    s, b, _ = hinged_pair(SLIDING)
    bodies = matrices.active_bodies(b.system)
    M_chrono = matrices.raw_matrices(b.system)[0]
    assert abs(matrices.body_mass_matrix(bodies) - M_chrono).max() <= 1e-12 * abs(M_chrono).max()


def test_anchor_chain_methods_agree(chain):
    _, c = chain
    mats = c.with_kc.matrices
    dense = c.with_kc.frequencies_hz[:10]
    aug = modal.solve_modes(mats, "augmented")
    sparse = modal.solve_modes(mats, "sparse", n_modes=10)
    np.testing.assert_allclose(aug.frequencies_hz[:10], dense, rtol=1e-8)
    np.testing.assert_allclose(sparse.frequencies_hz, dense, rtol=1e-8)
    assert aug.spurious == [] and aug.n_infinite == 2 * mats.m
    assert max(m.residual for m in aug.modes + sparse.modes) < 1e-9


def test_anchor_chain_without_kc_static_analysis_fails():
    e = ex.anchor_chain(use_tangent_stiffness=False)
    with pytest.raises(SolverError, match="did not converge"):
        chrono_statics.static_equilibrium(e.system, use_tangent_stiffness=False)


# ------------------------------------------------------------------ Kc against finite differences
def _kc_and_fd(b):
    """(Chrono's raw Kc, Kc of matrices.system_matrices, -d(Cq^T L)/dq by finite differences) at the current state."""
    s = b.system
    lk.set_tangent_stiffness(s, True)
    on = matrices.raw_matrices(s)[2]
    lk.set_tangent_stiffness(s, False)
    off = matrices.raw_matrices(s)[2]
    raw = (on - off).toarray()
    Kc = (matrices.system_matrices(s, True, load_stiffness=False).K
          - matrices.system_matrices(s, False, load_stiffness=False).K).toarray()
    J = fd_jacobian(s, lambda: matrices.generalized_forces(s)[1])
    return raw, Kc, -J


@pytest.mark.parametrize("kind", [DOOR, SLIDING])
def test_chrono_kc_of_the_hinges_equals_finite_differences_when_panel_q_is_unrotated(kind):
    """Stressed reference configuration (gravity and a load, reactions from a full assembly): bodies unrotated."""
    s = pair(kind, load=(0.3, -0.2, -5.0), extra_supports=((Support(5, 1, "y"),) if kind == SLIDING else ()))
    b = cs.build_system(s, visual=False)
    b.system.DoAssembly(chrono.FULL)
    assert isinstance(b.hinges[0].link, lk.DoorHinge if kind == DOOR else lk.SlidingHinge)
    raw, Kc, fd = _kc_and_fd(b)
    assert np.abs(fd).max() > 1.0
    assert rel(raw, fd) < 1e-6
    assert rel(Kc, fd) < 1e-6


@pytest.mark.parametrize("kind", [DOOR, SLIDING])
def test_kc_of_the_hinges_equals_finite_differences_at_a_rotated_equilibrium(kind):
    """Panel q (the links' body 2) turned 0.24 rad by gravity against a crease spring: modal's Kc is exact.

    Chrono 10's own Kc differs in the rows of body 2's rotations (module doc of
    modal: R_F2 [gf] R_F2^T R_B2 instead of R_B2^T R_F2 [gf] R_F2^T).
    """
    s, b, sp_ = hinged_pair(kind)
    chrono_statics.static_equilibrium(b.system)
    assert 0.2 < abs(sp_.torques()[0]) / 200.0 < 0.3
    raw, Kc, fd = _kc_and_fd(b)
    assert rel(Kc, fd) < 1e-6
    if matrices.kc_defect():
        assert rel(raw, fd) > 1e-2
        rows = np.abs(raw - fd).max(axis=1) > 1e-6 * np.abs(fd).max()
        q_rot = b.bodies[1].GetOffset_w() + 3
        assert set(np.flatnonzero(rows)) <= set(range(q_rot, q_rot + 3))
    else:
        assert rel(raw, fd) < 1e-6


@pytest.mark.parametrize("kind", [DOOR, SLIDING])
def test_stiffness_matrix_is_the_derivative_of_all_forces(kind):
    """K (Kc, crease springs, point-load stiffness, correction) = -d(F + Cq^T L)/dq, at a rotated loaded equilibrium."""
    s, b, _ = hinged_pair(kind, load=(0.5, 0.0, -20.0))
    chrono_statics.static_equilibrium(b.system)
    mats = matrices.system_matrices(b.system, True)
    assert mats.info["load_stiffness_norm"] > 1.0

    def forces():
        F, CL = matrices.generalized_forces(b.system)
        return F + CL

    J = fd_jacobian(b.system, forces)
    assert rel(mats.K.toarray(), -J) < 1e-6
    without_loads = matrices.system_matrices(b.system, True, load_stiffness=False).K.toarray()
    assert rel(without_loads, -J) > 1e-3   # the point load's stiffness is not in Chrono's K


# ------------------------------------------------------------------ crease springs
def test_rsda_has_no_stiffness_block_but_the_crease_spring_has():
    """Why crease springs are stiff ChLoads: ChLinkRSDA's torque never reaches K."""
    s = pair(DOOR, gravity=None)
    b = cs.build_system(s, visual=False)
    rsda = chrono.ChLinkRSDA()
    mid, R = lk.hinge_link_frame(s.pattern, 0)
    rsda.Initialize(b.bodies[0], b.bodies[1], lk.chframe(mid, R))
    rsda.SetSpringCoefficient(7.0)
    b.system.AddLink(rsda)
    assert np.abs(matrices.raw_matrices(b.system)[2].toarray()).max() == 0.0
    rsda.SetDisabled(True)
    springs.add_crease_springs(b, 7.0)
    K = matrices.raw_matrices(b.system)[2].toarray()
    a = np.array([0.0, 1.0, 0.0])   # hinge axis; both bodies unrotated, so body frame = global
    A = np.outer(a, a)
    expected = np.zeros((12, 12))
    expected[3:6, 3:6], expected[3:6, 9:12], expected[9:12, 3:6], expected[9:12, 9:12] = 7 * A, -7 * A, -7 * A, 7 * A
    np.testing.assert_allclose(K, expected, rtol=0, atol=1e-6 * 7)


def test_crease_spring_validation():
    s = pair(DOOR)
    b = cs.build_system(s, visual=False)
    with pytest.raises(StructureError, match="hinge 1: crease stiffness"):
        springs.add_crease_springs(b, -1.0)
    with pytest.raises(StructureError, match="hinge 3 does not exist"):
        springs.add_crease_springs(b, 1.0, hinges=[2])
    with pytest.raises(StructureError, match="one value per hinge"):
        springs.add_crease_springs(b, [1.0, 2.0])


def test_hinged_panel_closed_forms():
    """omega^2 = k / I without gravity; with gravity and Kc, (k + m g d sin t0) / I at k t0 = m g d cos t0."""
    s, b, _ = hinged_pair(DOOR, k=200.0, gravity=None)
    m, d, I = axis_inertia(s)
    r = modal.modal_analysis(b.system)
    (mode,) = r.modes
    assert mode.eigenvalue.imag == pytest.approx(np.sqrt(200.0 / I), rel=1e-7)
    s, b, sp_ = hinged_pair(DOOR, k=200.0)
    c = modal.compare_tangent_stiffness(b.system)
    t0 = brentq(lambda t: 200.0 * t - m * G * d * np.cos(t), 0.0, 1.0)
    assert abs(sp_.torques()[0]) == pytest.approx(200.0 * t0, rel=1e-8)
    (w_kc,) = c.with_kc.modes
    (w_no,) = c.without_kc.modes
    assert w_kc.eigenvalue.imag == pytest.approx(np.sqrt((200.0 + m * G * d * np.sin(t0)) / I), rel=1e-7)
    # without Kc the gravity's geometric stiffness is lost: the spring alone
    assert w_no.eigenvalue.imag == pytest.approx(np.sqrt(200.0 / I), rel=1e-7)


@pytest.mark.parametrize("method", ["nullspace", "augmented", "sparse"])
def test_damped_hinged_panel(method):
    """I t'' + c t' + k t = 0: lambda = (-c + i sqrt(4 I k - c^2)) / (2 I)."""
    s, b, _ = hinged_pair(DOOR, k=200.0, damping=3.0, gravity=None)
    m, d, I = axis_inertia(s)
    r = modal.modal_analysis(b.system, method=method, n_modes=1)
    assert r.matrices.R.nnz > 0
    (mode,) = r.modes
    expected = (-3.0 + 1j * np.sqrt(4 * I * 200.0 - 9.0)) / (2 * I)
    assert abs(mode.eigenvalue - expected) < 1e-6 * abs(expected)
    assert mode.stable


# ------------------------------------------------------------------ origami structures
def triangulated_miura(rows, cols, k_fold=1.0, k_bend=50.0):
    """Miura-ori patch with every panel split along a diagonal (panel bending), door hinges, thick panels."""
    pat = miura.miura_pattern(rows, cols)
    tris = [t for a, b_, c, d in pat.panels for t in ((a, b_, c), (a, c, d))]
    diag = {tuple(sorted((l[0], l[2]))) for l in pat.panels}
    tp = CreasePattern(pat.vertices, tris)
    k = np.array([k_bend if tuple(sorted(h.vertices)) in diag else k_fold for h in tp.hinges])
    return Structure(tp, (DOOR,) * len(tp.hinges), thickness=0.01, density=1000.0, name="triangulated Miura"), k


def test_free_triangulated_miura_methods_agree_and_count_mechanisms():
    s, k = triangulated_miura(3, 4)
    out = modal.structure_modes(s, crease_stiffness=k, method="nullspace", compare=False)
    r = out.with_kc
    assert len(r.zero_modes) == 6                       # rigid-body motions of a free structure
    boundary = len({v for e in s.pattern.boundary_edges for v in e})
    assert len(r.modes) == boundary - 3                  # rigid-origami mechanisms of a triangulated disk
    assert r.info["rank"] < r.matrices.m                 # door hinges: redundant constraints
    mats = r.matrices
    sparse = modal.solve_modes(mats, "sparse", n_modes=10)
    aug = modal.solve_modes(mats, "augmented")
    np.testing.assert_allclose(sparse.frequencies_hz, r.frequencies_hz[:10], rtol=1e-7)
    np.testing.assert_allclose(aug.frequencies_hz, r.frequencies_hz, rtol=1e-7)
    assert aug.n_redundant == mats.m - r.info["rank"] and aug.spurious == []


def test_rigid_miura_patch_has_one_fold_mode():
    """Door-hinged Miura-ori patch (M = 1 by counting): one finite mode with crease springs, six zero modes."""
    s = miura.miura_patch(3, 3, thickness=0.01, density=1000.0)
    assert counting.count(s).M == 1
    r = modal.structure_modes(s, crease_stiffness=1.0, compare=False).with_kc
    assert len(r.modes) == 1 and len(r.zero_modes) == 6
    no_springs = modal.structure_modes(s, compare=False).with_kc
    assert no_springs.modes == [] and len(no_springs.zero_modes) == 7


def clamped_miura(k=500.0):
    """The paper's cantilever (geometry, hinges, tip load) clamped on panel 11 (3-2-1), so its fold is free; gravity."""
    c = miura.miura_cantilever(thickness=0.01, density=1000.0)
    s = replace(c, supports=(Support(18, 10, "xyz"), Support(19, 10, "xz"), Support(15, 10, "z")), gravity=(0, 0, -G))
    return s


def test_clamped_miura_cantilever_fold_mode_with_and_without_kc():
    s = clamped_miura()
    counts = counting.count(s)
    assert (counts.M, counts.S) == (1, 0)
    out = modal.structure_modes(s, crease_stiffness=500.0)
    (a,), (b,) = out.with_kc.modes, out.without_kc.modes
    assert a.kind == b.kind == "oscillatory"
    assert a.freq_hz > 1.2 * b.freq_hz    # the loads' geometric stiffness (Kc) stiffens the fold
    # the frequency from finite differences of all forces at the equilibrium
    sysm = out.built.system

    def forces():
        F, CL = matrices.generalized_forces(sysm)
        return F + CL

    mats = out.with_kc.matrices
    J = fd_jacobian(sysm, forces)
    fd_mats = replace(mats, K=sps.csr_matrix(-J))
    (f_fd,) = modal.solve_modes(fd_mats, "nullspace").modes
    assert a.freq_hz == pytest.approx(f_fd.freq_hz, rel=1e-6)


def test_hyperstatic_loaded_structure_is_refused_unless_allowed():
    s = pair(DOOR, extra_supports=(Support(4, 1, "z"), Support(5, 1, "z")))
    assert counting.count(s).S == 1
    b = cs.build_system(s, visual=False)
    with pytest.raises(IndeterminateError, match="not determined by the loads"):
        modal.modal_analysis(b.system, method="nullspace")
    r = modal.modal_analysis(b.system, method="nullspace", allow_indeterminate=True)
    assert r.modes == []
    # every method checks the rank (the sparse one too, as chosen by "auto" for large systems)
    for method in ("augmented", "sparse"):
        with pytest.raises(IndeterminateError, match="has 1 redundant constraints"):
            modal.modal_analysis(b.system, method=method, n_modes=2)
    r = modal.modal_analysis(b.system, method="sparse", n_modes=2, allow_indeterminate=True)
    assert r.method == "sparse"


def test_lock_hinges_without_kc_give_the_mate_hinges_modes():
    """ChLinkLock hinges have no Kc, but an analysis without Kc runs on them (the equilibrium check finds their
    Python objects from the system's proxies): the same fold mode as the mate hinges."""
    s = miura.miura_patch(3, 3, thickness=0.01, density=1000.0)
    kw = dict(crease_stiffness=1.0, use_tangent_stiffness=False, compare=False)
    lock = modal.structure_modes(s, hinge_form="lock", **kw).with_kc
    mate = modal.structure_modes(s, hinge_form="mate", **kw).with_kc
    assert lock.equilibrium.converged and len(lock.modes) == 1 and len(lock.zero_modes) == 6
    np.testing.assert_allclose(lock.frequencies_hz, mate.frequencies_hz, rtol=1e-9)


def test_modal_analysis_needs_panel_masses():
    s = miura.miura_patch(2, 2)
    with pytest.raises(StructureError, match=r"panels \[1, 2, 3, 4\] have zero thickness"):
        modal.structure_modes(s, crease_stiffness=1.0)


def test_mode_shapes_per_panel_and_exports(tmp_path):
    s = miura.miura_patch(3, 3, thickness=0.01, density=1000.0)
    out = modal.structure_modes(s, crease_stiffness=1.0, compare=False)
    (mode,) = out.with_kc.modes
    shapes = out.with_kc.shapes_by_body(mode)
    assert shapes.shape == (9, 6)
    # a fold mode: the panels' velocities are compatible with the door hinges (vertex velocities agree)
    pat = s.pattern
    for h in pat.hinges:
        p, q = h.panels
        for v in h.vertices:
            x = pat.vertices[v]
            vel = [shapes[i, :3] + np.cross(shapes[i, 3:], x - lk.arr(out.built.bodies[i].GetPos())) for i in (p, q)]
            assert np.abs(vel[0] - vel[1]).max() < 1e-8 * np.abs(shapes).max()
    from chrono_origami.structure.foldfile import read_frames

    path = report_modal.write_mode_fold(str(tmp_path / "mode.fold"), out.built, out.with_kc, mode, n_frames=8)
    frames = read_frames(path)
    assert len(frames) == 8
    X0 = report_modal.panel_vertices(out.built)
    np.testing.assert_allclose(frames[0].pattern.vertices, report_modal.mode_vertices(out.built, out.with_kc, mode, 0.0))
    amp = max(np.abs(f.pattern.vertices - X0).max() for f in frames)
    assert 0.05 * pat.size < amp <= 0.1 * pat.size * (1 + 1e-9)
    pngs = report_modal.write_mode_pngs(str(tmp_path / "png"), out.built, out.with_kc, mode, n_frames=2)
    assert len(pngs) == 2 and all(os.path.getsize(p) > 1000 for p in pngs)


# ------------------------------------------------------------------ scenes
def run_scene(name, *args):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""), MPLBACKEND="Agg")
    return subprocess.run([sys.executable, os.path.join(ROOT, "scenes", name + ".py"), *args], capture_output=True,
                          text=True, env=env, cwd=ROOT)


def read_modes(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["mode", "eig_real", "eig_imag", "freq_hz", "stable"]
    return [(int(r[0]), float(r[1]), float(r[2]), float(r[3]), r[4]) for r in rows[1:]]


def test_pendulum_scene(tmp_path):
    p = run_scene("kc_pendulum", "--out", str(tmp_path / "low"))
    assert p.returncode == 0, p.stderr
    assert "with Kc" in p.stdout and "without Kc" in p.stdout
    (row,) = read_modes(tmp_path / "low" / "modes.csv")
    assert row[0] == 1 and abs(row[1]) < 1e-9 and round(row[2], 3) == 1.566 and row[4] == "true"
    assert row[3] == pytest.approx(np.sqrt(G / 4) / (2 * np.pi), rel=1e-9)
    p = run_scene("kc_pendulum", "--start-angle", "120", "--out", str(tmp_path / "up"))
    assert p.returncode == 0, p.stderr
    (row,) = read_modes(tmp_path / "up" / "modes.csv")
    assert round(row[1], 3) == 1.566 and abs(row[2]) < 1e-9 and row[3] == 0.0 and row[4] == "false"
    p = run_scene("kc_pendulum", "--no-kc", "--out", str(tmp_path / "nokc"))
    assert p.returncode == 1
    assert "did not converge" in p.stderr
    assert not os.path.exists(tmp_path / "nokc" / "modes.csv")


def test_anchor_chain_scene(tmp_path):
    p = run_scene("kc_anchor_chain", "--out", str(tmp_path))
    assert p.returncode == 0, p.stderr
    rows = read_modes(tmp_path / "modes.csv")
    assert len(rows) == 80
    assert [round(r[3], 3) for r in rows[:4]] == [0.240, 0.309, 0.504, 0.551]
    assert [r[3] for r in rows] == sorted(r[3] for r in rows)


@pytest.mark.parametrize("scene", ["miura_modes", "kresling_modes"])
def test_origami_mode_scenes(scene, tmp_path):
    p = run_scene(scene, "--out", str(tmp_path), "--fold", str(tmp_path / "mode1.fold"))
    assert p.returncode == 0, p.stderr
    assert "with Kc" in p.stdout and "without Kc" in p.stdout
    rows = read_modes(tmp_path / "modes.csv")
    assert rows and all(r[4] == "true" for r in rows)
    assert [r[3] for r in rows] == sorted(r[3] for r in rows)
    assert os.path.getsize(tmp_path / "mode1.fold") > 0


@pytest.mark.parametrize("option, value", [("--modes", "0"), ("--modes", "-1"), ("--frames", "0"), ("--mode", "0"),
                                           ("--frames", "x")])
def test_mode_scene_options_are_validated(option, value, capsys):
    from chrono_origami.cli.modal import parser

    ap = parser("test", structure=True)
    with pytest.raises(SystemExit) as e:
        ap.parse_args([option, value])
    assert e.value.code == 2
    assert f"argument {option}:" in capsys.readouterr().err
    args = ap.parse_args(["--modes", "3", "--frames", "1", "--mode", "2"])
    assert (args.modes, args.frames, args.mode) == (3, 1, 2)


def test_mode_tables_show_exactly_n_modes():
    s, b, _ = hinged_pair(DOOR, k=200.0, gravity=None)
    c = modal.compare_tangent_stiffness(b.system)
    assert len(c.with_kc.modes) >= 1
    for table in (lambda n: report_modal.modes_table(c.with_kc, n), lambda n: report_modal.comparison_table(c, n)):
        assert "   1  " not in table(0)            # n = 0: no mode rows (it used to print all of them)
        assert "   1  " in table(1) and "   2  " not in table(1)
        with pytest.raises(ValueError, match="integer >= 0 or None, got -1"):
            table(-1)                            # it used to drop the last mode silently


@pytest.mark.parametrize("scene, args", [("kc_pendulum", ["--out", "/proc/no/such/dir"]),
                                         ("miura_modes", ["--fold", "/proc/no/such/mode.fold"])])
def test_mode_scene_export_errors_are_one_line(scene, args):
    p = run_scene(scene, *args)
    assert p.returncode == 2
    assert "Traceback" not in p.stderr
    (line,) = p.stderr.strip().splitlines()
    assert line.startswith("error: cannot write /proc/no/such/")
