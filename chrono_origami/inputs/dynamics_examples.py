"""The dynamics scenes' structures and inputs (scenes/miura_deploy.py, scenes/kresling_drop.py).

Engine-neutral: structures, motors and springs only.
"""
import math
from dataclasses import replace

from ..patterns import kresling, miura
from ..structure.structure import Support
from ..structure.hinges import SLIDING
from ..tools.errors import StructureError
from ..tools.geometry import best_rigid_alignment
from .fold import hinge_angle
from .dynamics import CreaseSpring, Motor

#: miura_deploy: fold angle (deg, between the normals across a straight crease) at the start and the end
MIURA_START_DEG, MIURA_END_DEG = 170.0, 60.0


def miura_deploy(steps=2, sector_deg=60.0, start_deg=MIURA_START_DEG, end_deg=MIURA_END_DEG, duration=2.0,
                 thickness=0.02, density=500.0, gravity=9.81, a=1.0, b=1.0):
    """(structure, motor, target vertices): a Miura-ori strip opened by one hinge motor (SI units by default).

    The isostatic strip of ``patterns.miura.miura_strip`` (2 x (steps + 2)
    panels, hinge 1 a door hinge, the others sliding: M = 1, S = 0) folded to
    ``start_deg`` (170: nearly flat-folded), panel 1 clamped to the ground by
    supports at three of its vertices (xyz, xz, z), gravity ``gravity`` along
    -z. The motor on hinge 1 turns it by the angle that opens the strip to
    ``end_deg`` in ``duration`` s along psi(t) = dpsi (1 - cos(pi t / T)) / 2
    (zero speed at both ends). The target vertices are the closed-form fold
    at ``end_deg`` with panel 1 in place.
    """
    s = miura.miura_strip(steps, sector_deg, start_deg, a, b, thickness=thickness, density=density)
    pat = s.pattern
    v1, v2, v3, _ = pat.panels[0]
    s = replace(s, supports=(Support(v1, 0, "xyz"), Support(v2, 0, "xz"), Support(v3, 0, "z")),
                gravity=(0.0, 0.0, -float(gravity)),
                name=f"Miura-ori strip deployment ({2 * (steps + 2)} panels, {start_deg:g} to {end_deg:g} deg)")
    target = miura.miura_vertices(2, steps + 2, sector_deg, end_deg, a, b)
    loop = list(pat.panels[0])
    R, d = best_rigid_alignment(target[loop], pat.vertices[loop])
    target = target @ R.T + d
    dpsi = hinge_angle(pat, target, 0) - hinge_angle(pat, pat.vertices, 0)
    motor = Motor(0, "angle", f"{dpsi!r} * 0.5 * (1 - cos(pi * t / {float(duration)!r}))")
    return s, motor, target


KRESLING_HINGES = ("mechanism", "paper")


def kresling_drop(modules=2, hinges="mechanism", stiffness=100.0, damping=0.2, thickness=1.0, density=1.2e-9,
                  gravity=9810.0, load=1.0, twist_deg=20.0):
    """(structure, springs): a Kresling tower released under gravity and its top loads onto damped crease springs.

    Units mm, N, t, s by default: 1 mm panels of density 1.2e-9 t/mm^3,
    gravity 9810 mm/s^2 along -z, the paper's simple supports and loads
    (``load`` N down at each top vertex), a crease spring of ``stiffness``
    N mm/rad and ``damping`` N mm s/rad on every hinge, resting at the initial
    fold angles. ``hinges``: "paper", the paper's (door module 1, the others
    sliding): isostatic (M = 0, S = 0), the tower cannot move and its hinge
    actions are those of the static analysis at once; "mechanism": hinge 1
    made sliding too, which frees module 1's twist-and-fold mechanism (M = 1,
    S = 0): the tower twists down until the springs hold it, and settles there.
    """
    if hinges not in KRESLING_HINGES:
        raise StructureError(f"hinges must be one of {KRESLING_HINGES}, got {hinges!r}")
    s = kresling.kresling_tower(modules, 1, twist=math.radians(twist_deg), load=load)
    kinds = list(s.hinge_kinds)
    if hinges == "mechanism":
        kinds[0] = SLIDING
    what = "hinge 1 sliding: M = 1" if hinges == "mechanism" else "the paper's hinges: M = 0"
    s = replace(s, hinge_kinds=tuple(kinds), thickness=float(thickness), density=float(density),
                gravity=(0.0, 0.0, -float(gravity)),
                name=f"Kresling tower drop ({modules} module{'s' if modules > 1 else ''}, {what})")
    springs = tuple(CreaseSpring(h, stiffness, damping) for h in range(len(s.pattern.hinges)))
    return s, springs
