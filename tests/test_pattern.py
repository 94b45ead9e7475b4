"""Crease-pattern topology and validation messages."""
import numpy as np
import pytest

from chrono_origami.tools.errors import PatternError
from chrono_origami.crease.pattern import CreasePattern

SQ = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [2, 0, 0], [2, 1, 0]]


def two_squares():
    return CreasePattern(SQ, [(0, 1, 2, 3), (1, 4, 5, 2)])


def test_topology_of_two_squares():
    pat = two_squares()
    assert len(pat.hinges) == 1
    h = pat.hinges[0]
    assert h.vertices == (1, 2) and h.panels == (0, 1)
    assert len(pat.boundary_edges) == 6
    assert pat.interior_vertices == []
    np.testing.assert_allclose(pat.panel_normal(0), [0, 0, 1])


def test_interior_vertex_of_a_fan():
    X = [[0, 0, 0]] + [[np.cos(a), np.sin(a), 0] for a in np.arange(4) * np.pi / 2]
    pat = CreasePattern(X, [(0, 1, 2), (0, 2, 3), (0, 3, 4), (0, 4, 1)])
    assert pat.interior_vertices == [0]
    assert len(pat.hinges) == 4 and len(pat.boundary_edges) == 4


def test_vertices_at_one_point_are_distinct_by_index():
    """FOLD's rule: topology by index. Squares touching along x = 1 with their own vertices share no hinge."""
    X = SQ[:4] + [[1, 0, 0], [2, 0, 0], [2, 1, 0], [1, 1, 0]]
    apart = CreasePattern(X, [(0, 1, 2, 3), (4, 5, 6, 7)])
    assert apart.hinges == [] and len(apart.boundary_edges) == 8
    assert apart.vertex_panels[1] == [0] and apart.vertex_panels[4] == [1]


def test_explicit_edge_order_sets_hinge_numbers():
    X = [[0, 0, 0]] + [[np.cos(a), np.sin(a), 0] for a in np.arange(4) * np.pi / 2]
    panels = [(0, 1, 2), (0, 2, 3), (0, 3, 4), (0, 4, 1)]
    edges = [(0, 4), (0, 3), (0, 2), (0, 1), (1, 2), (2, 3), (3, 4), (4, 1)]
    pat = CreasePattern(X, panels, edges=edges)
    assert [tuple(sorted(h.vertices)) for h in pat.hinges] == [(0, 4), (0, 3), (0, 2), (0, 1)]


@pytest.mark.parametrize("vertices, panels, edges, message", [
    (SQ + [[5, 5, 5]], [(0, 1, 2, 3), (1, 4, 5, 2)], None, "vertex 7 is not used by any panel"),
    ([[0, 0, 0], [1, 0, 0], [1, 1, 0.3], [0, 1, 0]], [(0, 1, 2, 3)], None, "panel 1 is not planar"),
    (SQ + [[1, 0.5, 1], [1, 0.5, -1]], [(0, 1, 2, 3), (1, 4, 5, 2), (2, 6, 1), (1, 7, 2)], None,
     "shared by more than two panels"),
    (SQ, [(0, 1, 2, 3), (2, 5, 4, 1)], None, "inconsistent orientation"),
    (SQ, [(0, 1, 2, 3), (1, 4)], None, "panel 2 is degenerate"),
    (SQ, [(0, 1, 2, 3), (1, 4, 1, 2)], None, "panel 2 is degenerate: vertex 2 appears twice"),
    ([[0, 0, 0], [1, 0, 0], [2, 0, 0]], [(0, 1, 2)], None, "panel 1 is degenerate: zero area"),
    (SQ, [(0, 1, 2, 3), (1, 4, 5, 9)], None, "panel 2 refers to vertex 10"),
    (SQ, [(0, 1, 2, 3), (1, 4, 5, -1)], None, "panel 2 has a negative vertex index -1 (0-based indices, from 0 to 5)"),
    (SQ, [(0, 1, 2, 3), (1, 4, 5, 2)], [(0, 1), (-1, 2)], "edge 2 has a negative vertex index -1"),
    (SQ, [(0, 1, 2, 3), (1, 4, 5, 2)], [(0, 1), (1, 2)], "is missing from the edge list"),
    (SQ, [(0, 1, 2, 3), (1, 4, 5, 2)], [(0, 2)], "edge 1 (1-3) is not a side of any panel"),
    ([[0, 0, 0], [1, 0, 0], [np.nan, 1, 0]], [(0, 1, 2)], None, "vertex 3 has a non-finite coordinate"),
])
def test_bad_patterns_are_named(vertices, panels, edges, message):
    with pytest.raises(PatternError, match=message.replace("(", r"\(").replace(")", r"\)")):
        CreasePattern(vertices, panels, edges=edges)


def test_zero_length_edge_is_named():
    X = [[0, 0, 0], [1, 0, 0], [1, 1e-13, 0], [0, 1, 0]]
    with pytest.raises(PatternError, match="edge 2-3 of panel 1 has zero length"):
        CreasePattern(X, [(0, 1, 2, 3)])


def test_planarity_tolerance_is_a_parameter():
    X = [[0, 0, 0], [1, 0, 0], [1, 1, 1e-4], [0, 1, 0]]
    CreasePattern(X, [(0, 1, 2, 3)])  # within the default 1e-3 of the panel size
    with pytest.raises(PatternError, match="panel 1 is not planar: vertex"):
        CreasePattern(X, [(0, 1, 2, 3)], planarity_rtol=1e-6)


@pytest.mark.parametrize("alpha, theta", [(60.0, 50.0), (45.0, 120.0), (75.0, 10.0)])
def test_fold_angles_of_a_miura_vertex_from_coordinates_match_the_closed_form(alpha, theta):
    """The one fold angle from coordinates (``hinge_rotations``) and its two readings, FOLD's (valley positive:
    ``crease.pattern.fold_angles`` in rad by hinge, ``foldfile.fold_angles`` in degrees by edge) and the drive's (rad, minus FOLD's: ``inputs.fold.hinge_angle``), at the
    interior vertex of a folded 2 x 2 Miura-ori: the straight creases fold by theta with opposite signs (the
    module's closed form, tan beta = sin(theta / 2) tan alpha), the zigzag creases by pi - C with one sign, C the
    dihedral of the spherical triangle with sides alpha, pi - alpha and the angle gamma between the straight
    segments (cos gamma = -cos 2 beta): cos C = (cos^2 alpha - cos 2 beta) / sin^2 alpha."""
    from chrono_origami.crease.pattern import fold_angles as crease_fold_angles
    from chrono_origami.crease.pattern import hinge_rotations
    from chrono_origami.inputs.fold import hinge_angle
    from chrono_origami.patterns import miura
    from chrono_origami.structure import foldfile

    flat = miura.miura_pattern(2, 2, sector_angle_deg=alpha, fold_angle_deg=0.0)
    X = miura.miura_vertices(2, 2, sector_angle_deg=alpha, fold_angle_deg=theta)
    a = np.radians(alpha)
    beta, _ = miura.fold_parameters(alpha, theta)
    C = np.arccos((np.cos(a) ** 2 - np.cos(2 * beta)) / np.sin(a) ** 2)
    v = 1 * 3 + 1                                                      # vertex (1, 1): the interior one
    fold = dict(zip(flat.edges, foldfile.fold_angles(flat, X)))
    straight = [h for h in flat.hinges if v in h.vertices and abs(np.diff(X[list(h.vertices), 0])[0]) < 1e-12]
    zigzag = [h for h in flat.hinges if v in h.vertices and h not in straight]
    assert len(straight) == len(zigzag) == 2
    s = [fold[tuple(sorted(h.vertices))] for h in straight]
    z = [fold[tuple(sorted(h.vertices))] for h in zigzag]
    np.testing.assert_allclose(np.abs(s), theta, atol=1e-12)
    np.testing.assert_allclose(np.abs(z), np.degrees(np.pi - C), atol=1e-10)
    assert s[0] * s[1] < 0 and z[0] * z[1] > 0                         # Maekawa: 3 of one sign, 1 of the other
    rot = hinge_rotations(flat, X)
    for h in flat.hinges:
        e = tuple(sorted(h.vertices))
        assert hinge_angle(flat, X, h.index) == rot[h.index] == pytest.approx(-np.radians(fold[e]), abs=1e-15)
    np.testing.assert_array_equal(hinge_rotations(flat), 0.0)
    np.testing.assert_array_equal(crease_fold_angles(flat, X), -rot)             # the FOLD sign, in radians
    np.testing.assert_array_equal(crease_fold_angles(flat, X, [3, 1]), -rot[[3, 1]])
    assert foldfile.fold_angles(flat, X)[flat.edges.index(flat.boundary_edges[0])] == 0.0
