"""Panel rings (Fig. 4, sec. 4.2) and the square twist (Fig. 1, sec. 2)."""
import numpy as np
import pytest

from chrono_origami.analysis import static as analysis
from chrono_origami.tools.errors import PatternError
from chrono_origami.patterns import simple
from chrono_origami.engines.reference.count import count, counting_rules
from chrono_origami.engines.compatibility import multiplier_actions
from chrono_origami.structure.structure import Structure
from chrono_origami.structure.hinges import DOOR, SLIDING

TP = 4   # column of TP in HingeAction.values = (MT, MP, MO, N, TP, TO)


def ring(n_sliding=0, pattern=None):
    pat = pattern or simple.rectangular_ring(2.0, 1.0, 3.0)
    H = len(pat.hinges)
    return Structure(pat, hinge_kinds=(SLIDING,) * n_sliding + (DOOR,) * (H - n_sliding))


def state_actions(structure, c):
    """(S, 6 x 2H) matrix: every self-stress state's hinge actions, both sides of every hinge."""
    return np.array([np.concatenate([a.values for a in multiplier_actions(structure, c.model, c.self_stresses[:, k])])
                     for k in range(c.S)])


def same_span(A, B, tol=1e-9):
    """True when the rows of A and B span the same subspace."""
    ra, rb = np.linalg.matrix_rank(A, tol), np.linalg.matrix_rank(B, tol)
    return ra == rb == np.linalg.matrix_rank(np.vstack([A, B]), tol)


# ------------------------------------------------------------------ four-panel ring
def test_ring_numbering():
    pat = simple.rectangular_ring()
    assert (pat.n_panels, len(pat.hinges), len(pat.boundary_edges)) == (4, 4, 8)
    assert pat.interior_vertices == []
    assert [sorted(q + 1 for q in h.panels) for h in pat.hinges] == [[1, 2], [2, 3], [3, 4], [1, 4]]
    np.testing.assert_allclose([pat.panel_normal(p) for p in range(4)], [[0, -1, 0], [1, 0, 0], [0, 1, 0], [-1, 0, 0]],
                               atol=1e-15)   # out of the prism
    for h in pat.hinges:
        a, b = h.vertices
        np.testing.assert_allclose(np.abs(pat.vertices[b] - pat.vertices[a]), [0, 0, 3.0])


def test_four_door_ring_one_mechanism_three_self_stresses():
    s = ring(0)
    c = count(s)
    assert (c.M, c.S) == (1, 3)
    rules = counting_rules(s)
    # no interior vertex; the four parallel hinge axes make a planar four-bar linkage (M = 1), so the rules
    # give S_BF = S_PH = 3 (sec. 4.2); M - S is Maxwell's count
    assert rules.V_i == 0 and (rules.M_BF, rules.S_BF, rules.S_PH) == (1, 3, 3)
    assert c.M - c.S == rules.maxwell == 6 * 4 - 6 - 5 * 4
    A = state_actions(s, c).reshape(3, 8, 6)
    # N and TO vanish at every hinge in every state (sec. 4.2); some state carries a parallel shear TP
    assert np.abs(A[:, :, 3]).max() < 1e-12 and np.abs(A[:, :, 5]).max() < 1e-12
    assert np.abs(A[:, :, TP]).max() > 0.1 * np.abs(A).max()


def test_one_sliding_hinge_removes_the_parallel_shear_state():
    door = ring(0)
    cd = count(door)
    s = ring(1)
    c = count(s)
    assert (c.M, c.S) == (1, 2)
    A = state_actions(s, c)
    assert np.abs(A.reshape(2, 8, 6)[:, :, TP]).max() < 1e-12      # TP = 0 at every hinge, not only the sliding one
    # the remaining states are exactly the all-door states without parallel shear
    Ad = state_actions(door, cd)
    T = Ad.reshape(3, 8, 6)[:, :, TP]                                # (state, hinge side)
    _, sv, Vt = np.linalg.svd(T.T)
    assert int(np.sum(sv > 1e-9 * sv[0])) == 1                       # one combination carries all of TP
    no_shear = Vt[1:] @ Ad
    assert same_span(no_shear, A)


@pytest.mark.parametrize("n_sliding", [2, 3, 4])
def test_more_sliding_hinges_only_add_mechanisms(n_sliding):
    s = ring(n_sliding)
    c = count(s)
    assert (c.M, c.S) == (n_sliding, 2)
    assert same_span(state_actions(s, c), state_actions(ring(1), count(ring(1))))


@pytest.mark.parametrize("n_panels", [5, 6])
def test_larger_rings(n_panels):
    c = count(ring(0, simple.regular_ring(n_panels, radius=1.5, length=2.0)))
    assert (c.S, c.M) == (3, n_panels - 3)


def test_bad_ring_sections_are_named():
    with pytest.raises(PatternError, match="convex polygon listed counter-clockwise"):
        simple.panel_ring([(0, 0), (0, 1), (1, 1), (1, 0)])
    with pytest.raises(PatternError, match="P >= 3 corners"):
        simple.panel_ring([(0, 0), (1, 0)])
    with pytest.raises(PatternError, match="length must be a positive number"):
        simple.rectangular_ring(1, 1, 0)


# ------------------------------------------------------------------ square twist
def test_square_twist_counting_rules_of_fig_1():
    pat = simple.square_twist(30.0)
    assert sum(len(loop) == 4 for loop in pat.panels) == 5 and sum(len(loop) == 3 for loop in pat.panels) == 4
    rules = counting_rules(Structure(pat))
    assert [v + 1 for v in pat.interior_vertices] == [1, 2, 3, 4]
    # Fig. 1: P = 9, H = 12, E_b = 8, V_i = 4, S_BF = 1, S_PH = 13, M = 1
    assert (rules.P, rules.H, rules.E_b, rules.V_i) == (9, 12, 8, 4)
    assert (rules.M_BF, rules.S_BF, rules.S_PH) == (1, 1, 13)
    # sec. 2: M_BF - S_BF = (E_b - 3) - sum_p (V_p - 3) = 5 - 5, and S_PH = S_BF + 3 V_i
    assert rules.sum_V_minus_3 == 5 and rules.index_BF == (rules.E_b - 3) - rules.sum_V_minus_3 == 0
    assert rules.maxwell == 6 * 9 - 6 - 5 * 12 == rules.M_BF - rules.S_PH


@pytest.mark.parametrize("twist", [22.5, 30.0, 45.0, 60.0])
def test_flat_square_twist_geometry_is_flat_foldable(twist):
    pat = simple.square_twist(twist, side=1.0, pleat=0.8)
    X = pat.vertices
    np.testing.assert_allclose([pat.panel_normal(p) for p in range(9)], [[0, 0, 1]] * 9, atol=1e-15)
    for v in range(4):   # Kawasaki: alternate sector angles sum to 180 degrees
        ang = []
        for p in pat.vertex_panels[v]:
            loop = pat.panels[p]
            i = loop.index(v)
            u, w = X[loop[i - 1]] - X[v], X[loop[(i + 1) % len(loop)]] - X[v]
            ang.append(np.degrees(np.arccos(u @ w / np.linalg.norm(u) / np.linalg.norm(w))))
        assert sorted(ang) == pytest.approx(sorted([90.0, 90.0 - twist, 90.0, 90.0 + twist]), abs=1e-12)
        assert sum(ang) == pytest.approx(360.0, abs=1e-12)


def test_flat_square_twist_is_singular():
    s = Structure(simple.square_twist(30.0))
    c = count(s)
    rules = counting_rules(s)
    # flat: in-plane the panels are glued (3 V_i self-stresses); out of plane the 2 V_i closure
    # conditions sum_h rho_h t_h = 0 on the H fold rates are independent: M = H - 2 V_i, S = M - Maxwell
    assert (c.M, c.S) == (12 - 2 * 4, 4 * 4) == (4, 16)
    assert c.M > 1 and c.S > 13 and c.M - c.S == rules.maxwell
    assert analysis.counts_summary(s, c)["singular"] is True


@pytest.mark.parametrize("twist, fold", [(30.0, 20.0), (22.5, 35.0), (45.0, -15.0)])
def test_folded_square_twist_has_the_counts_of_fig_1(twist, fold):
    flat = simple.square_twist(twist)
    pat = simple.square_twist_folded(fold, twist)
    for loop in pat.panels:                       # every panel keeps its shape (all pairwise distances)
        for a in loop:
            for b in loop:
                assert np.linalg.norm(pat.vertices[a] - pat.vertices[b]) == pytest.approx(
                    np.linalg.norm(flat.vertices[a] - flat.vertices[b]), abs=1e-14)
    assert np.ptp(pat.vertices[:, 2]) > 0.1       # really folded
    c = count(Structure(pat))
    # Fig. 1: M = 1 and S_PH = 13, hence S_BF = S_PH - 3 V_i = 1
    assert (c.M, c.S) == (1, 13)
    assert c.S - 3 * 4 == 1


def test_bad_twist_is_named():
    with pytest.raises(PatternError, match="twist_deg must lie strictly between 0 and 90"):
        simple.square_twist(90)
    with pytest.raises(PatternError, match="pleat must be a positive number"):
        simple.square_twist(30, pleat=0)
