"""Mass properties of thick panels against closed forms."""
import numpy as np

from chrono_origami.tools.geometry import rotation_about
from chrono_origami.structure.properties import prism_mass_properties


def test_rectangular_plate_closed_form():
    a, b, h, rho = 3.0, 2.0, 0.1, 7.0
    m, c, J = prism_mass_properties([[0, 0, 0], [a, 0, 0], [a, b, 0], [0, b, 0]], h, rho)
    M = rho * a * b * h
    assert np.isclose(m, M)
    np.testing.assert_allclose(c, [a / 2, b / 2, 0], atol=1e-14)
    np.testing.assert_allclose(J, np.diag([M * (b * b + h * h) / 12, M * (a * a + h * h) / 12, M * (a * a + b * b) / 12]),
                               atol=1e-12)


def test_right_triangle_closed_form():
    # legs a (x) and b (y): about the centroid Ixx = a b^3/36, Iyy = b a^3/36, Ixy = -a^2 b^2/72
    a, b, h, rho = 2.0, 3.0, 0.2, 5.0
    m, c, J = prism_mass_properties([[0, 0, 0], [a, 0, 0], [0, b, 0]], h, rho)
    A = a * b / 2
    assert np.isclose(m, rho * h * A)
    np.testing.assert_allclose(c, [a / 3, b / 3, 0], atol=1e-14)
    Ixx, Iyy, Ixy = a * b**3 / 36, b * a**3 / 36, -a * a * b * b / 72
    expect = rho * h * np.array([[Ixx + A * h * h / 12, -Ixy, 0], [-Ixy, Iyy + A * h * h / 12, 0], [0, 0, Ixx + Iyy]])
    np.testing.assert_allclose(J, expect, atol=1e-12)


def test_inertia_rotates_with_the_panel():
    P = np.array([[0, 0, 0], [2, 0, 0], [2, 1, 0], [0, 1, 0.0]])
    R = rotation_about([1, 2, 3], 0.7)
    m0, c0, J0 = prism_mass_properties(P, 0.05, 2.0)
    m1, c1, J1 = prism_mass_properties(P @ R.T + [1, -2, 3], 0.05, 2.0)
    assert np.isclose(m0, m1)
    np.testing.assert_allclose(c1, R @ c0 + [1, -2, 3], atol=1e-12)
    np.testing.assert_allclose(J1, R @ J0 @ R.T, atol=1e-12)
