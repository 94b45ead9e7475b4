"""The folding problems of the paper (sec. 3.4.3) and of this project's tests and scenes, ready to run.

yoshimura_problem: sec. 3.4.3 (Fig. 2). The flat wedge of
``patterns.yoshimura`` (x-z plane, the paper's numbering), all door hinges,
the 15 vertical hinges (1-15) driven at 0.005 rad/s for 200 s, vertex 6
fixed, vertices 2, 4, 8, 10, 12, 13, 14, 15, 16 moving only along x and vertex
14 also blocked in x and y.

Reconstruction of the vertex conditions. The text gives them as printed
above; read literally, vertex 14 ("only along x", then "blocked in x and y")
is fixed, as Table 4 has it (1.8640, 7e-13, 0.9: its flat position). The
conditions are redundant (22 scalar conditions where 8 suffice once the 15
drives are set) but compatible, since they respect the wedge's mirror
symmetry about the plane x = x_6: the Newton steps use minimum-norm
least-squares solutions. Sign: the paper gives the rate's magnitude; in this
package's convention (rotation of a hinge's second panel about the axis run
by its first panel) the fold of Fig. 2 and Table 4 -- base vertices 1, 3, ...
at y < 0, the tip at y > 0 -- is rate -0.005 rad/s (Table 4's vertical
hinges measure -1.000 rad after 200 s).

miura_problem: the cantilever of Fig. 6 from flat to the fold angle 27.4 deg
between the normals across a straight crease (hinge 2, panels 1 and 3; see
``patterns.miura``), panel 1 held (no vertex path given).

square_twist_problem: Fig. 1 from flat, hinge 1 (central square - parallelogram
1) driven, the central square (panel 1) held.

kresling_problem: the Kresling module of Table 9 (twist pi/9) with hinge 1
made sliding, which turns the isostatic module into a one-degree-of-freedom
mechanism; the slide of hinge 1 is driven. Along this motion the twist of
the top ring grows from 20 deg, and the fold reaches a turning point -- a
singular configuration of the module with its offset hinge -- at a twist of
about 30 deg (the door module's singular twist pi/6 of Table 7).
"""
import numpy as np

from ..structure.structure import Structure

from ..structure.hinges import DOOR, SLIDING
from .fold import Drive, FoldProblem, along, blocked, fixed, hinge_angle

#: paper sec. 3.4.3
YOSHIMURA_RATE = 0.005
YOSHIMURA_TIME = 200.0
YOSHIMURA_ALONG_X = (2, 4, 8, 10, 12, 13, 14, 15, 16)   # 1-based, as printed
YOSHIMURA_FIXED = 6
YOSHIMURA_BLOCKED_XY = 14


def yoshimura_problem(rate=-YOSHIMURA_RATE, duration=YOSHIMURA_TIME):
    """The paper's Yoshimura folding (sec. 3.4.3), see the module docstring."""
    from ..patterns import yoshimura

    pat = yoshimura.wedge_pattern()
    vertical = range(15)   # hinges 1-15 are the vertical ones (patterns.yoshimura numbering)
    paths = [fixed(YOSHIMURA_FIXED - 1)] + [along(v - 1, "x") for v in YOSHIMURA_ALONG_X] \
        + [blocked(YOSHIMURA_BLOCKED_XY - 1, "xy")]
    st = Structure(pat, name="Yoshimura wedge folding (sec. 3.4.3)")
    return FoldProblem(st, [Drive(h, rate=rate) for h in vertical], paths, duration)


def miura_problem(fold_angle_deg=27.4, duration=1.0):
    """(problem, assignment): the Miura-ori cantilever from flat to ``fold_angle_deg``."""
    from ..patterns import miura
    from .fold import assignment_from_vertices

    flat = miura.cantilever_pattern(miura.cantilever_vertices(fold_angle_deg=0.0))
    target = miura.cantilever_vertices(fold_angle_deg=fold_angle_deg)
    angle = hinge_angle(flat, target, 1)
    st = Structure(flat, name=f"Miura-ori cantilever folding to {fold_angle_deg:g} deg")
    return (FoldProblem(st, [Drive(1, angle=angle)], (), duration),
            assignment_from_vertices(flat, target))


def square_twist_problem(fold_deg=10.0, duration=1.0):
    """(problem, assignment): the square twist of Fig. 1 folded by ``fold_deg`` at hinge 1."""
    from ..patterns import simple
    from .fold import assignment_from_vertices

    flat = simple.square_twist()
    st = Structure(flat, name=f"square twist folding to {fold_deg:g} deg")
    return (FoldProblem(st, [Drive(0, angle=np.radians(fold_deg))], (), duration),
            assignment_from_vertices(flat, simple.square_twist_folded(fold_deg).vertices))


def kresling_problem(slide_rate=1.0, duration=2.0, twist=np.pi / 9):
    """The Kresling module with hinge 1 sliding, its slide driven (see the module docstring)."""
    from ..patterns import kresling

    m = kresling.kresling_module(twist=twist)
    kinds = (SLIDING,) + (DOOR,) * (len(m.pattern.hinges) - 1)
    st = Structure(m.pattern, kinds, name=f"Kresling module (twist {np.degrees(twist):.4g} deg), hinge 1 sliding")
    paths = [fixed(0), blocked(1, "xz"), blocked(2, "z")]
    return FoldProblem(st, [Drive(0, slide_rate=slide_rate)], paths, duration)


def top_twist_deg(vertices):
    """Mean twist (deg) of a Kresling module's top ring (vertices 4-6) against the bottom ring (1-3)."""
    X = np.asarray(vertices, float)
    out = []
    for k in range(3):
        b = np.arctan2(X[k, 1], X[k, 0])
        tp = np.arctan2(X[3 + (k + 2) % 3, 1], X[3 + (k + 2) % 3, 0])
        out.append((tp - b + np.pi) % (2 * np.pi) - np.pi)
    return float(np.degrees(np.mean(out)))
