"""Kresling modules and towers against the paper's Tables 7-12 (sec. 4.2.3)."""
import os
from dataclasses import replace

import numpy as np
import pytest

from chrono_origami.tools.errors import OrigamiError
from chrono_origami.patterns.kresling import (SINGULAR_TWISTS, kresling_module, kresling_pattern, kresling_tower,
                                              mirror_row)
from chrono_origami.engines.reference.count import count, counting_rules
from chrono_origami.engines.reference.static import paper_self_stress, solve
from chrono_origami.structure.structure import Load

from equilibrium import panel_balance
from paper_compare import read_paper_table, row_distance, row_match, table_tolerance

DATA = os.path.join(os.path.dirname(__file__), "data")
HINGE_COLS = list(range(2, 8))


def table(name):
    return read_paper_table(os.path.join(DATA, name))[1]


def printed_vertices(name):
    """Coordinates of a vertex table and the half-unit of their last printed digit."""
    with open(os.path.join(DATA, name)) as f:
        lines = [ln.strip() for ln in f if ln.strip() and not ln.startswith("#")][1:]
    X, tol = [], []
    for ln in lines:
        cells = ln.split(",")[1:]
        X.append([float(c) for c in cells])
        # "8.6603e+00": 4 decimals of mantissa; "20": an integer
        tol.append([0.5 * 10.0 ** (int(c.split("e")[1]) - 4) if "e" in c else 0.5 for c in cells])
    return np.array(X), np.array(tol)


def assert_rows_match(ours_by_side, paper_rows, tol):
    """Each paper row matches our row for its (hinge, panel) under the per-axis sign freedom only."""
    for r in paper_rows:
        side = (int(r[0]), int(r[1]))
        ours = np.asarray(ours_by_side[side])
        assert row_match(ours, r[2:], tol) is not None, \
            f"row {side}: ours {np.round(ours, 5)} vs paper {r[2:]} (distance {row_distance(ours, r[2:]):.3g} > {tol:.3g})"


def sides(rows):
    return {(int(r[0]), int(r[1])): np.array(r[2:]) for r in rows}


def liebmann_determinant(pattern):
    """det of the planes of the even panels and of the bottom base (4 x 4, unit normals).

    Zero exactly when the four planes meet in a point: the octahedron is
    infinitesimally flexible (Liebmann-Blaschke), see kresling.py.
    """
    X = pattern.vertices
    planes = []
    for loop in [pattern.panels[p] for p in (1, 3, 5)] + [(0, 1, 2)]:
        P = X[list(loop)]
        n = np.cross(P[1] - P[0], P[2] - P[0])
        n /= np.linalg.norm(n)
        planes.append(np.r_[n, -n @ P[0]] / np.r_[1, 1, 1, pattern.size])
    return np.linalg.det(np.array(planes))


# ------------------------------------------------------------------ numbering and geometry
def test_module_numbering():
    s = kresling_module()
    pat = s.pattern
    assert [tuple(v + 1 for v in loop) for loop in pat.panels] == [(1, 2, 4), (2, 5, 4), (2, 3, 5), (3, 6, 5),
                                                                     (3, 1, 6), (1, 4, 6)]
    assert [tuple(sorted(v + 1 for v in h.vertices)) for h in pat.hinges] == [(2, 4), (2, 5), (3, 5), (3, 6),
                                                                               (1, 6), (1, 4)]
    assert [tuple(sorted(p + 1 for p in h.panels)) for h in pat.hinges] == [(1, 2), (2, 3), (3, 4), (4, 5),
                                                                             (5, 6), (1, 6)]
    assert [(x.vertex + 1, x.panel + 1, x.dofs) for x in s.supports] == [(1, 1, "xyz"), (2, 3, "xz"), (3, 5, "z")]
    assert [(x.vertex + 1, x.panel + 1) for x in s.loads] == [(4, 2), (5, 4), (6, 6)]
    assert all(np.allclose(x.force, (0, 0, -1)) for x in s.loads)
    # every normal points out of the module (away from the axis)
    for p in range(6):
        c = pat.panel_centroid(p)
        assert pat.panel_normal(p)[:2] @ c[:2] > 0


@pytest.mark.parametrize("name, twist", [("table07_kresling_singular_vertices.csv", np.pi / 6),
                                         ("table09_kresling_module_vertices.csv", np.pi / 9)])
def test_builder_reproduces_vertex_tables(name, twist):
    X, tol = printed_vertices(name)
    pat, _ = kresling_pattern(1, height=20, diameter=20, twist=twist)
    assert np.all(np.abs(pat.vertices - X) <= tol + 1e-12), np.abs(pat.vertices - X) / tol


# ------------------------------------------------------------------ counts and singularity
def test_generic_module_is_isostatic():
    s = kresling_module(twist=np.pi / 9)
    c = count(s)
    assert (c.M, c.S) == (0, 0)
    assert counting_rules(s).maxwell == 0
    assert c.gap[0] > 1e-3    # well conditioned: smallest kept singular value


@pytest.mark.parametrize("twist", SINGULAR_TWISTS)
@pytest.mark.parametrize("height, diameter", [(20, 20), (5, 30), (50, 8)])
def test_singular_twists(twist, height, diameter):
    c = count(kresling_module(height, diameter, twist))
    assert (c.M, c.S) == (1, 1)
    assert c.gap[1] < 1e-12 and c.gap[0] > 1e-3
    pat, _ = kresling_pattern(1, height, diameter, twist)
    assert abs(liebmann_determinant(pat)) < 1e-12
    # one degree away: isostatic, Liebmann determinant clearly nonzero
    for d in (-1, 1):
        s = kresling_module(height, diameter, twist + np.radians(d))
        c = count(s)
        assert (c.M, c.S) == (0, 0)
        assert abs(liebmann_determinant(s.pattern)) > 1e-6


def test_singularity_follows_the_diagonal():
    # the left-handed module (top turned by -pi/6, mirrored diagonals) is singular, the right-handed
    # one with the top turned by -pi/6 is not
    assert (count(kresling_module(twist=np.pi / 6, handedness="left")).S) == 1
    assert (count(kresling_module(twist=-np.pi / 6)).S) == 0


def test_table7_rounded_coordinates_are_singular():
    """Table 7's 5-digit coordinates keep the Liebmann condition exactly: M = S = 1 with a dropped
    singular value at round-off (1e-17), not just a small one; moving one coordinate by one unit
    of its last printed digit leaves a near-singular module: M = S = 0 by the rank tolerance, but a
    smallest kept singular value 1e-7, far below the generic 1e-2."""
    X, _ = printed_vertices("table07_kresling_singular_vertices.csv")
    s = kresling_module(twist=np.pi / 6)
    rounded = s.with_pattern(s.pattern.with_vertices(X))
    c = count(rounded)
    assert (c.M, c.S) == (1, 1)
    kept, dropped = c.gap
    assert dropped < 1e-14 and kept > 1e-2
    assert abs(liebmann_determinant(rounded.pattern)) < 1e-14
    Y = X.copy()
    Y[3, 0] += 1e-4
    c = count(s.with_pattern(s.pattern.with_vertices(Y)))
    assert (c.M, c.S) == (0, 0)
    assert 1e-9 < c.gap[0] < 1e-5
    assert c.gap[0] < 1e-4 * count(kresling_module()).gap[0]


# ------------------------------------------------------------------ Table 8: self-stress
def test_table8_self_stress_up_to_scale():
    paper = table("table08_kresling_singular_self_stress.csv")
    tol = table_tolerance(paper, HINGE_COLS)
    s = kresling_module(twist=np.pi / 6)
    c = count(s)
    from chrono_origami.engines.compatibility import multiplier_actions

    acts = multiplier_actions(s, c.model, c.self_stresses[:, 0])
    ours = {(a.hinge + 1, a.panel + 1): a.values for a in acts}
    O = np.array([ours[(int(r[0]), int(r[1]))] for r in paper])
    Pp = np.array([r[2:] for r in paper])
    scale = np.sum(np.abs(O) * np.abs(Pp)) / np.sum(O * O)    # least squares on magnitudes
    assert_rows_match({k: scale * v for k, v in ours.items()}, paper, tol)
    # the other hinges by the cyclic symmetry: hinge h on panel h repeats every two hinges
    for h in (3, 5):
        assert_rows_match({(h, h): scale * ours[(h, h)]}, [np.r_[h, h, paper[0][2:]]], tol)
    for h in (4, 6):
        assert_rows_match({(h, h): scale * ours[(h, h)]}, [np.r_[h, h, paper[1][2:]]], tol)


def test_table8_normalisation_is_unit_multipliers():
    paper = table("table08_kresling_singular_self_stress.csv")
    tol = table_tolerance(paper, HINGE_COLS)
    counts, acts = paper_self_stress(kresling_module(twist=np.pi / 6))
    assert (counts.M, counts.S) == (1, 1)
    assert_rows_match({(a.hinge + 1, a.panel + 1): a.values for a in acts}, paper, tol)
    with pytest.raises(OrigamiError, match="no self-stress state"):
        paper_self_stress(kresling_module())


# ------------------------------------------------------------------ Tables 10, 11
def module_result():
    return solve(kresling_module(height=20, diameter=20, twist=np.pi / 9))


def test_table10_hinge_actions():
    paper = table("table10_kresling_module_hinge_actions.csv")
    tol = table_tolerance(paper, HINGE_COLS)
    r = module_result()
    ours = sides(r.hinge_rows())
    assert_rows_match(ours, paper, tol)
    # hinges not printed: images under the 120 deg rotation (hinge h -> h + 2, panel p -> p + 2)
    images = [np.r_[h, h, paper[0][2:]] for h in (3, 5)] + [np.r_[h, h, paper[1][2:]] for h in (4, 6)]
    assert_rows_match(ours, images, tol)
    # and our own rows are exactly cyclic: every side equals its rotated image
    scale = max(np.abs(v).max() for v in ours.values())
    for (h, p), v in ours.items():
        img = ((h + 1) % 6 + 1, (p + 1) % 6 + 1)
        np.testing.assert_allclose(ours[img], v, atol=1e-10 * scale)
    assert r.equilibrium_residual < 1e-10


def test_table11_support_reactions():
    paper = table("table11_kresling_module_supports.csv")
    tol = table_tolerance(paper, [2, 3, 4])
    rows = module_result().support_rows()
    assert [(int(p), int(v)) for p, v, *_ in rows] == [(int(r[0]), int(r[1])) for r in paper]
    for ours, r in zip(rows, paper):
        np.testing.assert_allclose(ours[2:], r[2:], atol=tol)


def test_load_panel_is_what_reproduces_table10():
    """Loading each top vertex on another of its panels (the same way at all three) breaks Table 10."""
    paper = table("table10_kresling_module_hinge_actions.csv")
    tol = table_tolerance(paper, HINGE_COLS)
    s = kresling_module()
    assert_rows_match(sides(solve(s).hinge_rows()), paper, tol)
    for p0 in (0, 5):       # vertex 4 on panel 1 or on panel 6 (not 2), vertex 5 and 6 rotated alike
        loads = tuple(Load(3 + k, (0, 0, -1.0), (p0 + 2 * k) % 6) for k in range(3))
        ours = sides(solve(replace(s, loads=loads)).hinge_rows())
        assert any(row_match(ours[(int(r[0]), int(r[1]))], r[2:], tol) is None for r in paper)


def test_left_handed_module_is_the_mirror_image():
    right = kresling_module(twist=np.pi / 9)
    left = kresling_module(twist=np.pi / 9, handedness="left")
    np.testing.assert_allclose(left.pattern.vertices, right.pattern.vertices * [1, -1, 1], atol=1e-12)
    c = count(left)
    assert (c.M, c.S) == (0, 0)
    R, L = sides(solve(right).hinge_rows()), sides(solve(left).hinge_rows())
    assert R.keys() == L.keys()
    for k in R:
        np.testing.assert_allclose(L[k], mirror_row(R[k]), atol=1e-9)


# ------------------------------------------------------------------ towers
def test_two_module_tower_counts():
    s = kresling_tower(2, door_module=None)
    pat = s.pattern
    assert (pat.n_panels, len(pat.hinges), len(pat.interior_vertices)) == (12, 15, 3)
    c = count(s)
    assert (c.M, c.S) == (0, 9)
    assert counting_rules(s).S_PH == 9
    for door in (1, 2):
        s = kresling_tower(2, door_module=door)
        assert s.n_sliding == 9
        c = count(s)
        assert (c.M, c.S) == (0, 0)


def test_two_module_numbering():
    s = kresling_tower(2)
    pat = s.pattern
    hp = [tuple(sorted(p + 1 for p in h.panels)) for h in pat.hinges]
    assert hp[6:9] == [(2, 8), (4, 10), (6, 12)]
    assert hp[9:] == [(7, 8), (8, 9), (9, 10), (10, 11), (11, 12), (7, 12)]
    assert s.hinge_kinds == ("door",) * 6 + ("sliding",) * 9
    assert [(x.vertex + 1, x.panel + 1) for x in s.loads] == [(8, 7), (9, 9), (7, 11)]
    np.testing.assert_allclose(pat.vertices[6:, :2], pat.vertices[:3, :2], atol=1e-12)
    np.testing.assert_allclose(pat.vertices[6:, 2], 40)


def test_table12_two_module_tower():
    paper = table("table12_kresling_two_module_hinge_actions.csv")
    tol = table_tolerance(paper, HINGE_COLS)
    r = solve(kresling_tower(2, door_module=1, height=20, diameter=20, twist=np.pi / 9))
    ours = sides(r.hinge_rows())
    assert_rows_match(ours, paper, tol)
    # images under the 120 deg rotation: module hinges h -> h + 2, junction 7 -> 8 -> 9, panels p -> p + 2
    def rot(h, p, k):
        if h <= 6:
            h = (h - 1 + 2 * k) % 6 + 1
        elif h <= 9:
            h = 7 + (h - 7 + k) % 3
        else:
            h = 10 + (h - 10 + 2 * k) % 6
        base = 0 if p <= 6 else 6
        return h, base + (p - base - 1 + 2 * k) % 6 + 1
    images = [np.r_[rot(int(x[0]), int(x[1]), k), x[2:]] for x in paper for k in (1, 2)]
    assert_rows_match(ours, images, tol)
    # sliding hinges carry no parallel shear; door hinges do
    scale = max(np.abs(v).max() for v in ours.values())
    for (h, p), v in ours.items():
        if h > 6:
            assert abs(v[4]) < 1e-10 * scale
        assert abs(v[1]) < 1e-10 * scale      # MP is always zero
    assert min(abs(ours[(h, h)][4]) for h in range(1, 7)) > 1e-2


def test_tower_normals_point_outwards():
    for hand in ("right", "left"):
        pat = kresling_tower(3, handedness=hand).pattern
        for p in range(pat.n_panels):
            assert pat.panel_normal(p)[:2] @ pat.panel_centroid(p)[:2] > 0, (hand, p + 1)


def test_three_module_tower():
    s = kresling_tower(3, door_module=1)
    pat = s.pattern
    assert (pat.n_panels, len(pat.hinges), len(pat.interior_vertices)) == (18, 24, 6)
    c = count(s)
    assert (c.M, c.S) == (0, 0)
    assert (count(kresling_tower(3, door_module=None)).S) == 18
    r = solve(s)
    # top ring 10-12 turned like ring 1, loaded on module 3's even panels
    assert [(x.vertex + 1, x.panel + 1) for x in s.loads] == [(10, 14), (11, 16), (12, 18)]
    np.testing.assert_allclose([x[4] for x in r.support_rows()], [1, 1, 1], atol=1e-10)
    np.testing.assert_allclose(np.array([x[2:4] for x in r.support_rows()]), 0, atol=1e-10)


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize("kwargs, message", [
    (dict(twist=20), "radians"),
    (dict(height=-1), "height must be a positive length"),
    (dict(diameter=0), "diameter must be a positive length"),
    (dict(handedness="clockwise"), "handedness must be 'right' or 'left'"),
    (dict(twist=float("nan")), "twist must be a finite angle"),
])
def test_bad_module_input(kwargs, message):
    with pytest.raises(OrigamiError, match=message):
        kresling_module(**kwargs)


@pytest.mark.parametrize("args, message", [
    ((0,), "modules must be a whole number"),
    ((2.5,), "modules must be a whole number"),
    ((2, 3), "door_module must be a module number from 1 to 2"),
    ((2, 0), "door_module must be a module number from 1 to 2"),
])
def test_bad_tower_input(args, message):
    with pytest.raises(OrigamiError, match=message):
        kresling_tower(*args)


# ----------------------------------------------------------------- the panel of each top load
@pytest.mark.parametrize("modules, default", [(1, (1, 3, 5)), (2, (10, 6, 8)), (3, (13, 15, 17))])
def test_load_panels_default_rule(modules, default):
    """The default panels (0-based; 1-based 2, 4, 6 and 11, 7, 9 as in Tables 10 and 12), given explicitly: same tables."""
    s = kresling_tower(modules, 1)
    top = [3 * modules + k for k in range(3)]
    assert sorted((ld.vertex, ld.panel) for ld in s.loads) == list(zip(top, default))
    explicit = kresling_tower(modules, 1, load_panels=default)
    a, b = solve(s), solve(explicit)
    assert a.hinge_rows() == b.hinge_rows() and a.support_rows() == b.support_rows()


def test_other_load_panels_change_the_tables_and_stay_in_equilibrium():
    s = kresling_tower(3, 1)
    pat = s.pattern
    # each top vertex's load on the next panel (in panel order) that holds it
    other = []
    for v, p in sorted((ld.vertex, ld.panel) for ld in s.loads):
        holding = [q for q in range(pat.n_panels) if v in pat.panels[q]]
        assert len(holding) == 3 and p in holding
        other.append(holding[(holding.index(p) + 1) % 3])
    moved = kresling_tower(3, 1, load_panels=other)
    assert sorted((ld.vertex, ld.panel) for ld in moved.loads) == list(zip(range(9, 12), other))
    a, b = solve(s), solve(moved)
    scale = max(abs(x) for r in a.hinge_rows() for x in r[2:])
    changed = max(abs(x - y) for ra, rb in zip(a.hinge_rows(), b.hinge_rows()) for x, y in zip(ra[2:], rb[2:]))
    assert changed > 1e-3 * scale                                  # the choice matters
    np.testing.assert_allclose(a.support_rows(), b.support_rows(), atol=1e-9 * scale)   # same resultant load
    for result, structure in ((a, s), (b, moved)):
        f, m = panel_balance(structure, result)
        assert f < 1e-10 * scale and m < 1e-10 * scale * 20.0


@pytest.mark.parametrize("panels, message", [
    ((1, 3), "load_panels: expected 3 panels"),
    ((1, 3, 0), r"load_panels: panel 1 does not hold top vertex 6"),
    ((1, 3, 99), r"load_panels: panel 100 does not exist \(the tower has panels 1..6\)"),
])
def test_bad_load_panels(panels, message):
    with pytest.raises(OrigamiError, match=message):
        kresling_tower(1, 1, load_panels=panels)
