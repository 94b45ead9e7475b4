"""The Yoshimura wedge (paper secs. 3.4.3, 4.2.2; Figs. 2, 7; Table 4): pattern, counts, isostatic statics."""
import os

import numpy as np
import pytest

from chrono_origami.analysis import static as analysis
from chrono_origami.tools.errors import IndeterminateError, PatternError
from chrono_origami.patterns import yoshimura as Y
from chrono_origami.engines.reference.count import count, counting_rules
from chrono_origami.engines.reference.static import solve
from chrono_origami.structure.structure import Structure
from chrono_origami.structure.hinges import SLIDING

DATA = os.path.join(os.path.dirname(__file__), "data")
A, ALPHA = 1.8, np.radians(22.5)
H_APEX = 0.9 * np.tan(ALPHA)          # apex distance from the long side
SLANT = 0.9 / np.cos(ALPHA)           # equal sides of the isosceles triangles


def table4():
    T = np.loadtxt(os.path.join(DATA, "table04_yoshimura_wedge_vertices.csv"), delimiter=",", comments="#", skiprows=2)
    assert T[:, 0].tolist() == list(range(1, 27))
    return T[:, 1:]


# --------------------------------------------------------------- flat pattern
def test_flat_pattern_counts_of_sec_3_4_3():
    pat = Y.wedge_pattern()
    assert pat.n_panels == 30 and len(pat.hinges) == 35 and len(pat.boundary_edges) == 20
    assert pat.n_vertices == 26
    assert [v + 1 for v in pat.interior_vertices] == [13, 14, 15, 18, 19, 22]
    assert counting_rules(Structure(pat)).M_BF == 20 - 3      # M = E_b - 3 = 17 (sec. 3.4.3)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 7])
def test_flat_pattern_counts_for_n_base_elements(n):
    pat = Y.wedge_pattern(n)
    assert pat.n_vertices == 2 * n + 1 + n * (n + 1) // 2
    assert pat.n_panels == n * (n + 1)
    assert len(pat.hinges) == n * (3 * n - 1) // 2
    vertical = [h for h in pat.hinges if pat.vertices[h.vertices[0]][0] == pytest.approx(pat.vertices[h.vertices[1]][0])]
    assert len(vertical) == n * (n + 1) // 2 and vertical == pat.hinges[:len(vertical)]
    assert len(pat.boundary_edges) == 4 * n
    assert len(pat.interior_vertices) == (n - 1) * (n - 2) // 2


def test_flat_geometry_isosceles_triangles_in_the_xz_plane():
    pat = Y.wedge_pattern()
    X = pat.vertices
    assert np.all(X[:, 1] == 0)
    for p in range(pat.n_panels):
        np.testing.assert_allclose(pat.panel_normal(p), [0, -1, 0], atol=1e-15)   # m = -y, documented
    lengths = sorted({round(float(np.linalg.norm(X[a] - X[b])), 12) for a, b in pat.edges})
    np.testing.assert_allclose(lengths, sorted([H_APEX, 0.9, SLANT, A]), rtol=1e-12)
    # the 20 full triangles: sides (1.8, slant, slant), apex angle 180 - 2 x 22.5 degrees
    for p in range(10, 30):
        P = pat.panel_points(p)
        sides = sorted(np.linalg.norm(P - np.roll(P, 1, axis=0), axis=1))
        np.testing.assert_allclose(sides, [SLANT, SLANT, A], rtol=1e-12)
    # the 10 bottom-row halves: right triangles with legs h and 0.9
    for p in range(10):
        P = pat.panel_points(p)
        sides = sorted(np.linalg.norm(P - np.roll(P, 1, axis=0), axis=1))
        np.testing.assert_allclose(sides, [H_APEX, 0.9, SLANT], rtol=1e-12)


def test_numbering_matches_the_papers_vertices():
    pat = Y.wedge_pattern()
    assert Y.base_vertices() == list(range(11)) and Y.tip_vertex() + 1 == 26
    # the 15 vertical hinges (sec. 3.4.3) come first, short ones (split bottom row) before long ones
    X = pat.vertices
    for h in pat.hinges[:15]:
        a, b = h.vertices
        assert X[a][0] == pytest.approx(X[b][0], abs=1e-15)
    assert [sorted(v + 1 for v in h.vertices) for h in pat.hinges[:5]] == [[2, 12], [4, 13], [6, 14], [8, 15], [10, 16]]
    assert [sorted(v + 1 for v in h.vertices) for h in pat.hinges[5:15]] == [
        [3, 17], [5, 18], [7, 19], [9, 20], [13, 21], [14, 22], [15, 23], [18, 24], [19, 25], [22, 26]]
    assert all(abs(X[h.vertices[0]][0] - X[h.vertices[1]][0]) > 0.3 for h in pat.hinges[15:])


def test_table4_is_a_rigid_folding_of_the_flat_pattern():
    T = table4()
    np.testing.assert_array_equal(Y.TABLE4_VERTICES, T)      # the embedded copy is the paper's table
    flat = Y.wedge_pattern()
    folded = Y.table4_pattern()
    # Table 4 prints x and y with 5 significant digits (rounding <= 5e-5 per coordinate of size ~1):
    # an edge length moves by at most 2 * sqrt(2) * 5e-5 = 1.42e-4
    for a, b in flat.edges:
        assert np.linalg.norm(T[a] - T[b]) == pytest.approx(np.linalg.norm(flat.vertices[a] - flat.vertices[b]),
                                                            abs=1.42e-4)
    # the base vertices lie on z = 0 up to the folding simulation's error (largest: 8.8e-5 at vertices 1 and 3)
    assert np.all(np.abs(T[:11, 2]) < 1e-4) and np.all(T[11:, 2] > 0.8)
    assert folded.panels == flat.panels and folded.edges == flat.edges


def test_bad_sizes_are_named():
    with pytest.raises(PatternError, match="n >= 1"):
        Y.wedge_pattern(0)
    with pytest.raises(PatternError, match="base_angle_deg must lie strictly between 0 and 90"):
        Y.wedge_pattern(5, 1.8, 90)
    with pytest.raises(PatternError, match="long_side must be a positive length"):
        Y.wedge_pattern(5, -1.0)


@pytest.mark.parametrize("n", [2, 5, 12])
def test_strip_is_the_wedges_triangles_two_wide(n):
    """``strip_pattern(n)``: 2n of the wedge's isosceles triangles (long side a vertical, the other two a / (2 cos
    alpha)), loops counter-clockwise in (x, z) (normal -y), in the band 0 <= x <= 2h (h the apex distance),
    0 <= z <= (n + 1) a/2; a disk (V - E + F = 1); its interior vertices are x = h on the odd rows 3..n - 1,
    each of degree 6 with two vertical hinges (the wedge's vertex). n = 12: 21 vertices, 28 hinges, 16 boundary
    edges."""
    pat = Y.strip_pattern(n)
    X = pat.vertices
    assert pat.n_panels == 2 * n and pat.n_vertices - len(pat.edges) + pat.n_panels == 1
    for loop in pat.panels:
        P = X[list(loop)]
        sides = sorted(np.linalg.norm(P - np.roll(P, -1, axis=0), axis=1))
        np.testing.assert_allclose(sides, [SLANT, SLANT, A], rtol=1e-14)
        n_ = np.cross(P[1] - P[0], P[2] - P[0])
        assert n_[1] < 0 and abs(n_[0]) + abs(n_[2]) < 1e-14
    np.testing.assert_allclose([X[:, 0].min(), X[:, 0].max(), X[:, 1].max(), X[:, 2].min(), X[:, 2].max()],
                               [0, 2 * H_APEX, 0, 0, (n + 1) * A / 2], atol=1e-14)
    inner = sorted(pat.interior_vertices)
    assert [round(X[v, 2] / (A / 2)) for v in inner] == list(range(3, n, 2))
    for v in inner:
        assert abs(X[v, 0] - H_APEX) < 1e-14
        at = [h for h in pat.hinges if v in h.vertices]
        assert len(at) == 6 and sum(abs(np.subtract(*X[list(h.vertices)])[0]) < 1e-14 for h in at) == 2
    if n == 12:
        assert (pat.n_vertices, len(pat.hinges), len(pat.boundary_edges)) == (21, 28, 16)
    with pytest.raises(PatternError, match="tiers >= 1"):
        Y.strip_pattern(0)


# ----------------------------------------------------------------- Table 4 counts
def test_supports_of_sec_4_2_2():
    s = Y.table4_structure()
    assert [(sp.vertex + 1, sp.dofs) for sp in s.supports] == [(j, "xyz" if j == 6 else "yz") for j in range(1, 12)]
    # each support acts on a bottom-row half triangle containing its vertex
    assert all(sp.panel < 10 and sp.vertex in s.pattern.panels[sp.panel] for sp in s.supports)
    assert s.loads[0].vertex + 1 == 26 and s.loads[0].force == (0.0, 0.0, -1.0)


def test_all_door_wedge_has_no_mechanism_and_18_self_stresses():
    c = count(Y.table4_structure("door"))
    assert (c.M, c.S) == (0, 18)
    with pytest.raises(IndeterminateError, match="S = 18 self-stress states"):
        solve(Y.table4_structure("door"))


def test_counting_rules_cross_check():
    free = Y.table4_structure("door", supported=False, loaded=False)
    rules = counting_rules(free)
    assert (rules.P, rules.H, rules.E_b, rules.V_i) == (30, 35, 20, 6)
    assert rules.S_BF == 0 and rules.S_PH == 3 * rules.V_i == 18
    c = count(free)
    assert c.S == rules.S_PH == 18
    assert c.M == rules.M_BF == 17
    assert c.M - c.S == rules.maxwell


def test_isostatic_choice_three_sliding_hinges_per_interior_vertex():
    s = Y.table4_structure()
    pat = s.pattern
    sliding = [h for h, k in enumerate(s.hinge_kinds) if k == SLIDING]
    assert [h + 1 for h in sliding] == list(range(10, 16)) + list(range(24, 36))
    Z = pat.vertices[:, 2]
    # each sliding hinge leaves an interior vertex upwards; three per interior vertex
    lower = [min(pat.hinges[h].vertices, key=lambda v: Z[v]) for h in sliding]
    assert sorted(lower) == sorted(pat.interior_vertices * 3)
    c = count(s)
    assert (c.M, c.S) == (0, 0)


def test_isostatic_choice_is_not_unique_downward_hinges_work_too():
    pat = Y.table4_pattern()
    Z = pat.vertices[:, 2]
    interior = set(pat.interior_vertices)
    down = [h.index for h in pat.hinges if max(h.vertices, key=lambda v: Z[v]) in interior]
    assert len(down) == 18
    s = Structure(pat, hinge_kinds=[SLIDING if h in down else "door" for h in range(35)], supports=Y.wedge_supports(pat))
    assert (count(s).M, count(s).S) == (0, 0)


@pytest.mark.parametrize("engine", [pytest.param("reference"), pytest.param("chrono", marks=pytest.mark.chrono)])
def test_isostatic_choice_is_singular_in_the_flat_state(engine):
    # all hinge axes coplanar: the three sliding hinges at a vertex no longer release its self-stresses.
    # M = S = 21 from the paper's operators and from Chrono's own constraint Jacobian alike (folded: 0, 0);
    # M - S = 0 is Maxwell's count for the structure as given.
    flat = Y.wedge_pattern()
    s = Structure(flat, hinge_kinds=Y.hinge_kinds(flat), supports=Y.wedge_supports(flat))
    c = analysis.count(s, engine)
    assert (c.M, c.S) == (21, 21)
    assert c.M - c.S == counting_rules(s).maxwell == 0
    kept, dropped = c.gap                         # a clear rank decision, not a near-singular one
    assert kept > 1e-3 and dropped < 1e-12


# ------------------------------------------------------------------ statics
def test_tip_load_statics_is_determined_and_in_global_equilibrium():
    s = Y.table4_structure()
    r = solve(s)
    assert r.status == "determined" and (r.M, r.S) == (0, 0)
    X = s.pattern.vertices
    F = np.array([0.0, 0.0, -1.0])
    x_tip = X[25]
    R = np.array([sr.force for sr in r.support_reactions])
    x_sup = X[[sr.vertex for sr in r.support_reactions]]
    force = R.sum(0) + F
    moment = np.cross(x_sup, R).sum(0) + np.cross(x_tip, F)
    scale = np.linalg.norm(F) * np.linalg.norm(x_tip)
    assert np.linalg.norm(force) <= 1e-10 * np.linalg.norm(F)
    assert np.linalg.norm(moment) <= 1e-10 * scale
    # supports react only in their held directions
    for sr in r.support_reactions:
        free = [i for i, d in enumerate("xyz") if d not in sr.dofs]
        assert np.all(np.abs(sr.force[free]) <= 1e-12)
    # MP vanishes at every hinge, TP at every sliding hinge (results.py convention)
    for a in r.hinge_actions:
        v = a.as_dict()
        assert abs(v["MP"]) <= 1e-9
        if a.kind == SLIDING:
            assert abs(v["TP"]) <= 1e-9


def test_wrong_pattern_or_choice_is_named():
    from chrono_origami.tools.errors import StructureError

    with pytest.raises(StructureError, match="is not a Yoshimura wedge with n = 5"):
        Y.wedge_supports(Y.wedge_pattern(4))
    with pytest.raises(StructureError, match="unknown Yoshimura hinge choice 'sliding'"):
        Y.hinge_kinds(Y.wedge_pattern(), "sliding")
