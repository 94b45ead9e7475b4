"""Crease springs: rotational springs about the hinge axes whose stiffness enters Chrono's K.

Chrono's ``ChLinkRSDA`` (rotational spring-damper) adds its torque to the
forces but has no ``ChKRMBlock`` (no ``LoadKRMMatrices``), so the K that
``WriteSystemMatrices`` gives (and that Newton's static analysis uses) misses
it: a modal analysis would see no crease stiffness. A crease spring here is a
``ChLoadBodyBodyBushingGeneric``: a *stiff* ``ChLoad`` that Chrono
differentiates by finite differences (step 1e-8) into its K (and R) blocks,
held in a ``ChLoadContainer`` added to the system.

Spring of hinge h (panels p, q): body A = panel p, body B = panel q, frame at
the hinge midpoint with Z along the hinge axis (the hinge link frame,
:func:`.links.hinge_link_frame`), taken at the configuration where the spring is
added, which is its rest state. Its 6 x 6 stiffness in that frame is
diag(0, 0, k_s, 0, 0, k), each term only where the hinge's kind leaves that
motion free (``HingeKind.free``: "z", "rz"): a torque k * theta about the axis
for a fold change theta (rad, from the rest state), and a force k_s * s along
the axis for a slide s (sliding hinges; door hinges do not slide). Units: k
in moment per radian, k_s in force per length, damping c in moment x time
per radian. The reaction torque on B is
``GetTorque()`` (frame B components).
"""
from dataclasses import dataclass, field

import numpy as np
import pychrono as chrono

from ...tools.errors import StructureError
from . import links as lk


@dataclass
class CreaseSprings:
    """The springs added to a :class:`~.system.ChronoStructure`: ``loads[k]`` is the spring of hinge ``hinges[k]``."""

    container: object
    hinges: list
    loads: list
    stiffness: np.ndarray
    slide_stiffness: np.ndarray
    damping: np.ndarray = field(default=None)

    def torques(self):
        """Spring torque about each hinge axis (on panel q, moment units)."""
        return np.array([load.GetTorque().z for load in self.loads])


def _per_hinge(name, value, hinges, H, allow_zero=True):
    vals = np.full(len(hinges), float(value)) if np.isscalar(value) else np.asarray(value, float)
    if vals.shape == (H,) and len(hinges) != H:
        vals = vals[list(hinges)]
    if vals.shape != (len(hinges),):
        raise StructureError(f"{name} must be a number or one value per hinge ({H}), got shape {np.shape(value)}")
    for h, v in zip(hinges, vals):
        if not np.isfinite(v) or v < 0 or (v == 0 and not allow_zero):
            raise StructureError(f"hinge {h + 1}: {name} must be a finite non-negative number, got {v}")
    return vals


def add_crease_springs(built, stiffness, hinges=None, slide_stiffness=0.0, damping=0.0):
    """Add a crease spring to each hinge of ``built`` (all by default) at its current configuration (rest state).

    stiffness: k (moment/rad), a number or one per hinge; slide_stiffness: k_s
    (force/length) on hinges that slide (door hinges have no slide); damping:
    rotational damping c. A term acts only on a motion the hinge's kind leaves
    free. Returns :class:`CreaseSprings`.
    """
    pat = built.pattern
    H = len(pat.hinges)
    hinges = list(range(H)) if hinges is None else [int(h) for h in hinges]
    for h in hinges:
        if not 0 <= h < H:
            raise StructureError(f"hinge {h + 1} does not exist (the pattern has {H} hinges)")
    k = _per_hinge("crease stiffness", stiffness, hinges, H)
    ks = _per_hinge("slide stiffness", slide_stiffness, hinges, H)
    c = _per_hinge("damping", damping, hinges, H)
    container = chrono.ChLoadContainer()
    built.system.Add(container)
    loads = []
    for h, kh, ksh, ch in zip(hinges, k, ks, c):
        p, q = pat.hinges[h].panels
        mid, R = lk.hinge_link_frame(pat, h)
        origin = built.material_point(q, mid)
        Rabs = built.panel_rotation(q) @ R
        kind = built.structure.kinds[h]
        K6, C6 = chrono.ChMatrix66d(), chrono.ChMatrix66d()
        K6.SetZero()
        C6.SetZero()
        if kind.frees("rz"):
            K6.SetItem(5, 5, float(kh))
            C6.SetItem(5, 5, float(ch))
        if kind.frees("z"):
            K6.SetItem(2, 2, float(ksh))
        load = chrono.ChLoadBodyBodyBushingGeneric(built.bodies[p], built.bodies[q], lk.chframe(origin, Rabs), K6, C6)
        container.Add(load)
        loads.append(load)
    return CreaseSprings(container, hinges, loads, k, ks, c)
