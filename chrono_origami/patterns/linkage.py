"""The six-body linkage of Betsch & Leyendecker (Part II, sec. 5.4.2, Fig. 22) as a ring of six door-hinged panels.

Geometry (a cube of side L, global frame, z up)
-----------------------------------------------
The hinge axes are six edges of the cube [0, L] x [0, L] x [-L, 0]. Their
feet H_1..H_6 form the closed skew hexagon of cube edges
H_6 = (0, 0, 0), H_1 = (0, L, 0), H_2 = (L, L, 0), H_3 = (L, L, -L),
H_4 = (L, 0, -L), H_5 = (0, 0, -L); at H_k the axis u_k is the third cube edge
there, pointing to X_1 = (L, 0, 0) (k even) or X_2 = (0, L, -L) (k odd).
Consecutive axes are skew, at right angles, a distance L apart along the
hexagon's edges. Body j (0..5) is the solid tetrahedron spanned by its two
hinge segments, H_j to H_j + a L u_j and H_{j+1} to H_{j+1} + a L u_{j+1}
(H_0 = H_6, a = tan(gamma)): body 0 has vertices (aL, 0, 0), (0, 0, 0),
(0, L, 0), (0, L, -aL), mass rho a^2 L^3 / 6, centre of mass
(aL/4, L/2, -aL/4) and the inertia tensor printed in the paper; bodies 0, 2,
4 are congruent and 1, 3, 5 their mirror images.

As a crease pattern
-------------------
Vertex 2 (k - 1) is H_k, vertex 2 (k - 1) + 1 is H_k + a L u_k (k = 1..6).
Panel j is the tetrahedron's skew quadrilateral loop (H_j + aLu_j, H_j,
H_{j+1}, H_{j+1} + aLu_{j+1}): the panels are not planar (built with the
planarity check off); only the hinge edges matter to the hinges. Hinge k - 1
(0-based) is joint k (the paper's numbering), on the axis through H_k;
hinge k - 1 joins panels k - 1 and k (hinge 6 joins panels 6 and 1,
1-based). The axis t of hinge k - 1 as run by its first panel is u_k, except
for joint 6 (t = -u_6, run by panel 1), so the relative rotation psi_k of
hinge k - 1 (``inputs.dynamics``) is the paper's joint angle theta^k
(rotation of body k about u_k relative to body k - 1; theta^6 of body 0
relative to body 5). Then theta^1 = theta^3 = theta^5,
theta^2 = theta^4 = theta^6 and sin(theta^2) = sin(theta^1) / (1 - sin(theta^1)).

A generic ring of six door-hinged bodies is rigid (Gruebler: 6 x 5 - 5 x 6 =
0); this one has one mechanism and one self-stress state by its geometry
(only four of the five loop-closure conditions are independent), so the
pattern's ``generic_mechanisms`` is 0: the counting rules say M = 0.
"""
import numpy as np

from ..crease.pattern import CreasePattern
from ..structure.properties import tetrahedron_mass_properties
from ..structure.structure import Structure
from ..tools.errors import PatternError, positive

#: The paper's data: side L (m), angle gamma (rad), density (kg/m^3).
SIDE, GAMMA, DENSITY = 0.1, 0.16 * np.pi, 1000.0


def _frame(side, gamma):
    L = positive("side", side, PatternError, noun="length")
    if not (np.isfinite(gamma) and 0 < gamma < np.pi / 2):
        raise PatternError(f"gamma must lie strictly between 0 and pi/2, got {gamma!r}")
    H = np.array([[0, L, 0], [L, L, 0], [L, L, -L], [L, 0, -L], [0, 0, -L], [0, 0, 0]], float)
    X1, X2 = np.array([L, 0, 0.0]), np.array([0, L, -L])
    U = np.array([(X1 if (k + 1) % 2 == 0 else X2) - H[k] for k in range(6)]) / L
    return L, H, U


def six_body_linkage(side=SIDE, gamma=GAMMA):
    """The crease pattern of the six-body linkage (module doc): 12 vertices, 6 panels, 6 hinges."""
    L, H, U = _frame(side, gamma)
    a = np.tan(gamma)
    X = np.zeros((12, 3))
    for k in range(6):                                # joint k + 1 at H[k]
        X[2 * k] = H[k]
        X[2 * k + 1] = H[k] + a * L * U[k]
    panels = []
    for j in range(6):                                # body j between joints j (6 for j = 0) and j + 1
        first, second = (j - 1) % 6, j
        panels.append((2 * first + 1, 2 * first, 2 * second, 2 * second + 1))
    hinges = [(2 * k, 2 * k + 1) for k in range(6)]
    boundary = [(panels[j][1], panels[j][2]) for j in range(6)] + [(panels[j][3], panels[j][0]) for j in range(6)]
    return CreasePattern(X, panels, edges=hinges + boundary, planarity_rtol=1.0, generic_mechanisms=0)


def mass_properties(pattern, density=DENSITY):
    """Per panel (mass, centre of mass, inertia tensor) of the solid tetrahedra on the panels' four vertices."""
    return [tetrahedron_mass_properties(pattern.panel_points(p), density) for p in range(pattern.n_panels)]


def six_body_structure(side=SIDE, gamma=GAMMA, density=DENSITY, gravity=(0.0, 0.0, -9.81)):
    """The linkage as a :class:`Structure` of six door hinges (panels massless as prisms: give the
    tetrahedra's :func:`mass_properties` to the dynamics)."""
    return Structure(six_body_linkage(side, gamma), density=density, gravity=gravity, name="six-body linkage",
                     notes={"source": "Betsch & Leyendecker, Part II, sec. 5.4.2"})


def theta2_of_theta1(theta1):
    """The paper's closed form theta^2(theta^1) = arcsin(sin(theta^1) / (1 - sin(theta^1)))."""
    s = np.sin(np.asarray(theta1, float))
    return np.arcsin(s / (1.0 - s))
