"""The "joined" (welded) and "spherical" hinge kinds against rigid-body answers, in both engines.

Every structure here has a closed-form answer written out in the test, not
taken from either engine: the free-body equilibrium of one panel (statics),
the Miura-ori closed-form fold (folding: a joined diagonal splits a panel that
must move as one; a spherical crease adds freedoms the other creases take
away), and for dynamics a welded panel that stays put under gravity (its
joint carrying the weight) and a panel swinging on a ball joint, whose angle
is the pendulum's elliptic-function solution.
"""
import numpy as np
import pytest
from scipy.special import ellipj

from chrono_origami.analysis.dynamics import dynamics
from chrono_origami.analysis.fold import fold
from chrono_origami.analysis.static import count, static
from chrono_origami.crease.pattern import CreasePattern
from chrono_origami.inputs.fold import Drive, FoldProblem
from chrono_origami.inputs.dynamics import InitialState
from chrono_origami.patterns import miura
from chrono_origami.structure.hinges import JOINED, SPHERICAL
from chrono_origami.structure.structure import Load, Structure, Support
from chrono_origami.tools.geometry import best_rigid_alignment

ENGINES = [pytest.param("reference"), pytest.param("chrono", marks=pytest.mark.chrono)]
KINDS = (JOINED, SPHERICAL)
G = 9.81


# ------------------------------------------------------------------ statics
def two_squares(kind, loads):
    """Panel 1 = [0, 1]^2 held (6 support rows), panel 2 = [1, 2] x [0, 1] on hinge x = 1 of ``kind``.

    The spherical hinge frees panel 2's rotations about its ball at (1, 0.5, 0): supports at vertex 3 (y, z)
    and vertex 6 (z) take them (the joined panel needs none).
    """
    X = [[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0], [1, 1, 0], [2, 1, 0]]
    pat = CreasePattern(X, [(0, 1, 4, 3), (1, 2, 5, 4)])
    sups = [Support(0, 0, "xyz"), Support(3, 0, "xz"), Support(1, 0, "z")]
    if kind == SPHERICAL:
        sups += [Support(2, 1, "yz"), Support(5, 1, "z")]
    return Structure(pat, (kind,), supports=tuple(sups), loads=tuple(loads), name=f"two squares ({kind})")


#: loads on panel 2: (vertex, force)
LOADS = ((5, (0.4, -0.3, -1.0)), (4, (0.1, 0.2, -0.7)), (2, (-0.2, 0.5, 0.3)))
MID = np.array([1.0, 0.5, 0.0])
#: frames {n, t, m} of the two panels at the hinge (x = 1): p runs it from (1,0) to (1,1), q from (1,1) to (1,0)
FRAME_P = np.array([[1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0]])       # rows n, t, m
FRAME_Q = np.array([[-1.0, 0, 0], [0, -1.0, 0], [0, 0, 1.0]])


def panel_2_free_body(kind):
    """The action (force, moment about MID) on panel 2 from panel 1, and the reactions on panel 2, by hand.

    Joined: the joint takes everything, F = -sum f, M = -sum (x - MID) x f. Spherical: the ball takes a force
    B and no moment; the supports at (2, 0, 0) take (0, R1, R2) and at (2, 1, 0) (0, 0, R3); the six
    equations of panel 2's equilibrium are solved for (B, R1, R2, R3).
    """
    X = np.array([[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0], [1, 1, 0], [2, 1, 0]], float)
    f_sum = sum(np.array(f) for _, f in LOADS)
    m_sum = sum(np.cross(X[v] - MID, f) for v, f in LOADS)
    if kind == JOINED:
        return -f_sum, -m_sum, []
    # unknowns z = (B, R1, R2, R3); forces: B + (0,R1,R2) + (0,0,R3) = -f_sum; moments about MID
    A = np.zeros((6, 6))
    A[:3, :3] = np.eye(3)
    A[1, 3] = A[2, 4] = A[2, 5] = 1.0
    r2, r5 = X[2] - MID, X[5] - MID
    A[3:, 3] = np.cross(r2, [0, 1.0, 0])
    A[3:, 4] = np.cross(r2, [0, 0, 1.0])
    A[3:, 5] = np.cross(r5, [0, 0, 1.0])
    z = np.linalg.solve(A, -np.r_[f_sum, m_sum])
    return z[:3], np.zeros(3), [(2, (0, z[3], z[4])), (5, (0, 0, z[5]))]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("kind", KINDS)
def test_statics_is_the_free_body_of_the_second_panel(kind, engine):
    st = two_squares(kind, [Load(v, f, 1) for v, f in LOADS])
    c = count(st, engine)
    assert (c.M, c.S) == (0, 0)
    r = static(st, engine)
    F, M, reactions = panel_2_free_body(kind)
    by_side = {a.panel: a.values for a in r.hinge_actions}
    # row (h, P): (MT, MP, MO, N, TP, TO), the action on P in P's frame {n, t, m}; panel 1 gets the opposite
    np.testing.assert_allclose(by_side[1], np.r_[FRAME_Q @ M, FRAME_Q @ F], atol=1e-9)
    np.testing.assert_allclose(by_side[0], np.r_[FRAME_P @ -M, FRAME_P @ -F], atol=1e-9)
    got = {s.vertex: s.force for s in r.support_reactions if s.panel == 1}
    for v, force in reactions:
        np.testing.assert_allclose(got[v], force, atol=1e-9)
    if kind == SPHERICAL:
        assert np.abs(by_side[1][:3]).max() < 1e-9          # a ball carries no moment


# ------------------------------------------------------------------ folding
def aligned_distance(X, T):
    R, d = best_rigid_alignment(X, T)
    return float(np.linalg.norm(X @ R.T + d - T, axis=1).max())


def miura_with(kind):
    """A 2 x 2 Miura-ori patch at 40 deg with a ``kind`` hinge, folding by one mechanism (M = 1) as the all-door
    patch does: spherical, the zigzag crease 1 made spherical; joined, panel 1 split along its diagonal into
    two triangles joined there. Returns the fold problem that drives the straight crease (vertices 4-5) by
    +10 deg, to the closed-form 50 deg fold."""
    st = miura.miura_patch(2, 2, fold_angle_deg=40.0)
    pat = st.pattern
    if kind == SPHERICAL:
        kinds = list(st.hinge_kinds)
        kinds[0] = SPHERICAL
        st = st.with_hinge_kinds(kinds)
    else:
        a, b, c, d = pat.panels[0]
        pat = CreasePattern(pat.vertices, [(a, b, c), (a, c, d)] + [tuple(p) for p in pat.panels[1:]])
        st = Structure(pat, tuple(JOINED if set(h.vertices) == {a, c} else "door" for h in pat.hinges))
    drive = next(i for i, h in enumerate(st.pattern.hinges) if set(h.vertices) == {3, 4})
    return FoldProblem(st, [Drive(drive, angle=np.radians(10.0))], (), 1.0)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("kind", KINDS)
def test_fold_reaches_the_closed_form_miura_fold(kind, engine):
    prob = miura_with(kind)
    c = count(prob.structure, "reference")
    assert c.M == 1
    h = fold(prob, engine, frame_interval=0.5)
    assert h.engine == engine
    assert aligned_distance(h.final, miura.miura_vertices(2, 2, fold_angle_deg=50.0)) < 1e-10


# ------------------------------------------------------------------ dynamics
THICK, RHO = 0.01, 1000.0


def welded_cantilever():
    """Panel 1 held, panel 2 joined to it, both under gravity -z."""
    X = [[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0], [1, 1, 0], [2, 1, 0]]
    pat = CreasePattern(X, [(0, 1, 4, 3), (1, 2, 5, 4)])
    sups = (Support(0, 0, "xyz"), Support(3, 0, "xz"), Support(1, 0, "z"))
    return Structure(pat, (JOINED,), THICK, RHO, sups, gravity=(0, 0, -G), name="welded cantilever")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_welded_panel_stays_put_and_its_joint_carries_its_weight(engine):
    """The defect: the reference engine made the joint a revolute pair, and the far vertices fell to z = -0.018
    after 0.05 s. A welded panel does not move; its joint takes the weight m g at the centroid, 0.5 from it."""
    st = welded_cantilever()
    h = dynamics(st, engine, time=0.05, dt=1e-3)
    np.testing.assert_allclose(h.vertices[-1], st.pattern.vertices, atol=1e-9)
    m = RHO * THICK * 1.0
    F = np.array([0, 0, m * G])                      # on panel 2 from panel 1: up
    M = -np.cross([0.5, 0.0, 0.0], [0, 0, -m * G])    # about the midpoint (1, 0.5, 0): the weight's moment undone
    for k in (0, -1):
        acts = {a.panel: a.values for a in h.hinge_actions[k]}
        np.testing.assert_allclose(acts[1], np.r_[FRAME_Q @ M, FRAME_Q @ F], atol=1e-6 * m * G)


def ball_pendulum():
    """Panel 1 = [0, 1]^2 held; panel 2 = [0, 1] x [-1, 0] hangs from it on a ball at (0.5, 0, 0), gravity -y
    in the panels' plane: a compound pendulum in the plane, pivot-centroid distance d = 0.5, moment of
    inertia about the pivot I = m (1/6 + 1/4)."""
    X = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [1, -1, 0], [0, -1, 0]]
    pat = CreasePattern(X, [(0, 1, 2, 3), (0, 5, 4, 1)])
    sups = (Support(2, 0, "xyz"), Support(3, 0, "xyz"), Support(1, 0, "z"))
    return Structure(pat, (SPHERICAL,), THICK, RHO, sups, gravity=(0, -G, 0), name="ball pendulum")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_panel_on_a_ball_swings_as_the_elliptic_pendulum(engine):
    """Started hanging with angular velocity w0 about the normal: theta(t) = 2 asin(k sn(w_n t, k^2)),
    w_n^2 = m g d / I = 1.2 g, k = w0 / (2 w_n); the panel turns rigidly about the ball."""
    st = ball_pendulum()
    wn = np.sqrt(1.2 * G)
    w0 = 1.2 * wn                                      # amplitude 2 asin(0.6): 73.7 deg
    pivot = np.array([0.5, 0.0, 0.0])
    v = np.zeros((2, 6))
    v[1, :3] = (0, 0, w0)
    v[1, 3:] = np.cross([0, 0, w0], np.array([0.5, -0.5, 0]) - pivot)
    h = dynamics(st, engine, time=0.6, dt=5e-4, output_interval=0.05, initial=InitialState(velocities=v))
    k = w0 / (2 * wn)
    sn = ellipj(wn * h.t, k * k)[0]
    theta = 2 * np.arcsin(k * sn)
    X0 = st.pattern.vertices
    for th, X in zip(theta, h.vertices):
        c, s = np.cos(th), np.sin(th)
        R = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])
        np.testing.assert_allclose(X[[4, 5]], (X0[[4, 5]] - pivot) @ R.T + pivot, atol=1e-5)
        np.testing.assert_allclose(X[[2, 3]], X0[[2, 3]], atol=1e-9)   # panel 1's own (the edge's are shared)
    moments = np.array([[a.values[:3] for a in acts if a.panel == 1][0] for acts in h.hinge_actions])
    assert np.abs(moments).max() < 1e-6                # a ball carries no moment
