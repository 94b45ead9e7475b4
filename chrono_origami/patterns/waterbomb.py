"""Waterbomb bases: a square with creases from its centre, flat and rigidly folded in closed form.

``creases=8`` (Origami Simulator's ``waterbombBase.svg``): both diagonals and
both midlines, eight 45-degree triangles. ``creases=6`` (the rigid-origami
literature's waterbomb base, e.g. Chen et al. 2016): one midline (along x)
and both diagonals, sectors 45, 90, 45, 45, 90, 45 degrees.

Numbering (0-based here, 1-based in print): vertex 0 the centre, then the
ends of the creases on the boundary counter-clockwise from +x; panel k runs
(0, k + 1, k + 2) counter-clockwise (normal +z when flat); the square's side
is ``side``, centred at the origin, in the plane z = 0.

Symmetric rigid folds (closed form, :func:`waterbomb_base_folded`), with
``eps`` the angle of the midline creases below the flat plane (the centre
rises); the diagonals fold as mountains, the midlines as valleys seen from
+z (Origami Simulator's assignment):

* 8 creases, fourfold symmetric: midline k along (cos eps cos(k 90), cos eps
  sin(k 90), -sin eps), diagonal k along (cos eta cos(k 90 + 45), ...,
  -sin eta) with cos eps cos eta cos 45 + sin eps sin eta = cos 45 (the
  45-degree sectors keep their angle): eta = atan2(sin eps, cos eps / sqrt 2)
  - acos(cos 45 / r), r = sqrt(cos^2 eps / 2 + sin^2 eps). The diagonals'
  fold angle is then exactly -2 eps; at eps = 90 deg the diagonals are at
  -180 and the midlines at +90 deg (Origami Simulator's targets).
* 6 creases (and any degree-6 vertex whose collinear pair is at angle beta
  from the four others, e.g. the Yoshimura pattern's beta = 67.5), mirror
  symmetric about x = 0 and y = 0: midline (+-cos eps, 0, -sin eps), the
  others (+-cos beta, +-b, -cos beta tan(eps / 2)), b = sqrt(sin^2 beta -
  cos^2 beta tan^2(eps / 2)) (:func:`degree6_directions`).
"""
import numpy as np

from ..crease.pattern import CreasePattern
from ..tools.errors import PatternError

CREASES = (6, 8)


def _boundary_angles(creases):
    if creases == 8:
        return np.radians(np.arange(8) * 45.0)
    if creases == 6:
        return np.radians([0.0, 45.0, 135.0, 180.0, 225.0, 315.0])
    raise PatternError(f"a waterbomb base has 6 or 8 creases, got {creases!r}")


def _lengths(creases, side):
    a = _boundary_angles(creases)
    # midline ends at multiples of 90 deg (length side/2), corners at 45 + k 90 (side/sqrt 2)
    return np.where(np.isclose(np.mod(np.degrees(a), 90.0), 0.0), side / 2, side / np.sqrt(2))


def _pattern(directions, lengths, creases):
    X = np.vstack([np.zeros(3), directions * lengths[:, None]])
    n = creases
    panels = [(0, k + 1, (k + 1) % n + 1) for k in range(n)]
    return CreasePattern(X, panels)


def waterbomb_base(creases=8, side=1.0):
    """The flat square (z = 0) with ``creases`` creases from its centre (module doc)."""
    a = _boundary_angles(creases)
    d = np.column_stack([np.cos(a), np.sin(a), np.zeros_like(a)])
    return _pattern(d, _lengths(creases, side), creases)


def degree6_directions(beta_deg, eps):
    """Unit crease directions (6 x 3) of the mirror-symmetric fold of a degree-6 vertex (module doc), counter-
    clockwise from the +x midline: the collinear pair at 0 and 180 deg, the others at +-beta from them."""
    beta = np.radians(beta_deg)
    c = np.cos(beta) * np.tan(eps / 2)
    b2 = np.sin(beta) ** 2 - c ** 2
    if b2 < 0:
        raise PatternError(f"no symmetric fold of the degree-6 vertex at elevation {np.degrees(eps):.4g} deg")
    a, b = np.cos(beta), np.sqrt(b2)
    m = (np.cos(eps), 0.0, -np.sin(eps))
    return np.array([m, (a, b, -c), (-a, b, -c), (-m[0], 0.0, m[2]), (-a, -b, -c), (a, -b, -c)])


def waterbomb_base_folded(elevation_deg, creases=8, side=1.0):
    """The symmetric rigid fold with the midlines ``elevation_deg`` below the plane (degrees; module doc), same
    numbering."""
    eps = np.radians(elevation_deg)
    if creases == 6:
        return _pattern(degree6_directions(45.0, eps), _lengths(6, side), 6)
    a = _boundary_angles(creases)
    r = np.sqrt(np.cos(eps) ** 2 / 2 + np.sin(eps) ** 2)
    eta = np.arctan2(np.sin(eps), np.cos(eps) / np.sqrt(2)) - np.arccos(min(np.cos(np.pi / 4) / r, 1.0))
    elev = np.where(np.isclose(np.mod(np.degrees(a), 90.0), 0.0), eps, eta)
    d = np.column_stack([np.cos(elev) * np.cos(a), np.cos(elev) * np.sin(a), -np.sin(elev)])
    return _pattern(d, _lengths(creases, side), creases)


def degree6_fold_angles(beta_deg, eps):
    """(collinear pair's, the four others') fold angles (rad, FOLD sign) of :func:`degree6_directions`' fold.

    The collinear pair folds as valleys, the others as mountains (faces counter-clockwise, normal +z when flat).
    """
    from ..structure.foldfile import fold_angles

    beta = float(beta_deg)
    a = np.radians([0.0, beta, 180.0 - beta, 180.0, 180.0 + beta, 360.0 - beta])
    flat = np.column_stack([np.cos(a), np.sin(a), np.zeros(6)])
    pat = _pattern(flat, np.ones(6), 6)
    X = np.vstack([np.zeros(3), degree6_directions(beta, eps)])
    by_edge = dict(zip(pat.edges, np.radians(fold_angles(pat, X))))
    return by_edge[(0, 1)], by_edge[(0, 2)]
