"""Imperfect panels on elastic hinges, assembled and solved in Chrono (the Chrono engine's tolerance analysis).

Each hinge is a ``ChLoadBodyBodyBushingGeneric`` between its first panel p
(body A) and its second panel q (body B), in a ``ChLoadContainer``, instead of
a constraint link. Why a bushing load and not constraint compliance: in
Chrono 10 a ``ChLinkMateGeneric`` (the hinges of ``links``) has no compliance
of its own that the static analyses use (PyChrono exposes none), and
``ChLinkBushing`` (a ``ChLinkLock``) puts its springs on Euler-angle-like
coordinates with one mask type for the whole link. The generic bushing gives
what the theory needs: a 6 x 6 stiffness in the frame on B, zero in the
directions the hinge's kind leaves free (rotation about t; for sliding hinges
also translation along t), and, through ``SetApplicationFrameA`` /
``SetApplicationFrameB``, a frame on each body of its own: the imperfect hinge
frame as made on that panel. Its force is K times the pose of frame A in frame
B (translation; rotation vector), so it is exactly the elastic hinge of the
linear theory for small misfits and stays a nonlinear, large-rotation model
for large ones. Chrono differentiates the load numerically for Newton's
matrix (``ChLoadCustomMultiple``).

Frames. The nominal frame of hinge h is its link frame (``links.hinge_link_frame``:
midpoint, axes (m_q, n_q, t_q)); side s's imperfect frame is the nominal one
turned by the side's rotation vector alpha about the midpoint and moved by
its d (``structure.tolerance.frame_errors``, exact rotation). The stiffness is
diagonal in frame B: K_t on the locked translations, K_r on the locked
rotations (``structure.tolerance.HingeStiffness``).

Mechanisms and rigid motions. A mechanism (M > 0) or an unsupported
structure leaves Newton's matrix singular (no bushing resists the motion).
As the reference engine does (``engines.compatibility.held_dofs``), a few scaled
coordinates -- chosen by pivoted QR of a basis of null(Cs), here Chrono's own
count (``statics.count``) -- are held to the ground by
:class:`~.links.HeldCoordinates` links; they stop those motions and, the
locked-in forces being self-equilibrated, carry no force to first order.

Force unit. Chrono solves with every force multiplied by c = 1 / K_t,max
(:func:`force_scale`: bushing stiffness, loads, gravity), so that the largest
bushing stiffness is 1; the answer is divided by c. The nonlinear statics is
homogeneous in the forces (the same poses, forces times c), so this changes
no result, but it keeps Newton's matrix [K Cq^T; Cq 0] balanced: in SI units
K reaches 1e8 to 1e9 next to the O(1) rows of the supports, and Chrono's
``ChSolverSparseQR`` (Eigen's SparseQR, rank-revealing with a threshold
relative to the largest column norm) then returned corrections wrong in the
soft directions and the supports: the door Yoshimura wedge on 1 m panels (a
near-mechanism: smallest singular value of C 2.6e-4 of the largest) did not
converge at 0.1 mm even in 64 misfit steps, nor did structures with dependent
support rows; with c both converge at once.

Supports stay rigid (``links.VertexSupport``), loads are the structure's;
the static equilibrium is Chrono's ``ChStaticNonLinearAnalysis`` with a
direct sparse solver, checked by :func:`equilibrium` (the
residual includes the bushing loads). The hinge actions are the bushing's
force and torque on q, reduced to the current position of q's nominal
hinge midpoint and rotated back to q's reference orientation, as the
statics does for links.
"""
import dataclasses

import numpy as np
import pychrono as chrono

from ...results.static import StaticResult, hinge_actions
from ...structure import tolerance as imp
from ...tools.errors import SolverError
from ...tools.geometry import rotation_about
from ..compatibility import check_loads_carried, held_dofs, null_basis
from . import links as lk
from .static import CONSTRAINT_TOL, EQUILIBRIUM_RTOL, count, largest_violation, static_analysis, support_reactions
from .matrices import generalized_forces
from .system import build_system

#: Newton iterations of the static analysis of the imperfect assembly
MAX_ITERATIONS = 60
#: round-off allowance of the residual check, in ulps of the structure's size (:func:`residual_tolerance`)
ROUNDOFF_ULPS = 100
#: most misfit steps of the continuation when the full misfit does not converge at once (1, 4, 16, 64)
MAX_STEPS = 64
#: the scaled coordinates of ``engines.compatibility`` (omega, w / L) as the held links' coordinates
_COORDS = ("rx", "ry", "rz", "x", "y", "z")
#: the last few structures' held coordinates, by identity (Monte Carlo samples of one structure count it once)
_HELD = []
_HELD_CACHE = 4


def _rotation(alpha):
    th = float(np.linalg.norm(alpha))
    return np.eye(3) if th == 0 else rotation_about(alpha / th, th)


def _matrix(K):
    M = chrono.ChMatrix66d()
    M.SetMatr([[float(K[i][j]) for j in range(6)] for i in range(6)])
    return M


class Bushing:
    """The bushing of one hinge and its data (the Chrono object is ``load``)."""

    def __init__(self, hinge, load, mid_ref):
        self.hinge = hinge
        self.load = load
        self.mid_ref = mid_ref


def held_coordinates(structure):
    """(x0, {panel: coordinates}): the scaled coordinates to hold (module doc), from Chrono's count of
    ``structure`` (``engines.compatibility.held_dofs`` of its null basis); {} when M = 0 and it is supported.
    The last few structures' answers are kept (by identity)."""
    return _held_and_counts(structure)[0]


def _held_and_counts(structure):
    """(held_coordinates(structure), Chrono's counts of it), kept for the last few structures (by identity)."""
    for st, held in _HELD:
        if st is structure:
            return held
    counts = count(structure)
    cols = held_dofs(null_basis(counts))
    by_panel = {}
    for c in cols:
        by_panel.setdefault(int(c) // 6, []).append(_COORDS[int(c) % 6])
    held = ((counts.model.x0, {p: tuple(cs) for p, cs in sorted(by_panel.items())}), counts)
    _HELD.insert(0, (structure, held))
    del _HELD[_HELD_CACHE:]
    return held


def force_scale(structure, stiffness=None):
    """The factor c by which :func:`locked_in` multiplies every force in Chrono: 1 / the largest translational
    hinge stiffness K_t (module doc, "Force unit")."""
    K = (stiffness or imp.HingeStiffness()).hinge_values(structure)
    kmax = float(K[:, 0].max()) if len(K) else 0.0
    return 1.0 / kmax if kmax > 0 else 1.0


def build(structure, errors, stiffness=None, loads=False, scale=1.0, springs=False, held=None):
    """The Chrono system of ``structure`` with imperfect panels on elastic hinges (module doc).

    ``scale``: the force unit's factor c (:func:`force_scale`): the bushings' stiffness and the loads (and
    gravity) are multiplied by c. Returns (built, bushings): ``built`` a :class:`.system.ChronoStructure`
    without hinge links (its ``hinges`` list is empty; ``held``: the
    :class:`~.links.HeldCoordinates` links of :func:`held_coordinates`),
    ``bushings`` one :class:`Bushing` per hinge. ``springs``: the bushings also carry the springs of the free
    directions (``HingeStiffness.spring_values``: C_s on free translations, C_r on free rotations; the elastic
    statics of a structure with mechanisms). ``held``: (x0, {panel: coordinates}) to hold instead of
    :func:`held_coordinates`.
    """
    stiffness = stiffness or imp.HingeStiffness()
    scaled_loads = tuple(dataclasses.replace(ld, force=tuple(scale * np.asarray(ld.force, float)))
                         for ld in structure.loads) if loads else ()
    gravity = None if not loads or structure.gravity is None else tuple(scale * np.asarray(structure.gravity, float))
    bare = dataclasses.replace(structure, loads=scaled_loads, gravity=gravity)
    pat = structure.pattern
    built = build_system(bare, visual=False, hinges=False)   # bodies, supports, loads
    system = built.system
    x0, held = held_coordinates(structure) if held is None else held
    built.held = []
    for p, coords in held.items():
        link = lk.HeldCoordinates(coords, name=f"panel {p + 1} held ({', '.join(coords)} at the centroid)")
        link.Initialize(built.bodies[p], built.ground, lk.chframe(x0))
        system.AddLink(link)
        built.held.append(link)
    container = chrono.ChLoadContainer()
    system.Add(container)
    K = scale * stiffness.hinge_values(structure)
    C = scale * stiffness.spring_values(structure) if springs else np.zeros_like(K)
    alpha_d = imp.frame_errors(pat, errors)
    bushings = []
    mids, Rs = lk.hinge_link_frames(pat)
    for h, kind in enumerate(structure.kinds):
        p, q = pat.hinges[h].panels
        mid, R = mids[h], Rs[h]
        diag = np.zeros(6)
        for i, c in enumerate(("x", "y", "z", "rx", "ry", "rz")):
            if c in kind.locked:
                diag[i] = K[h, 0] if i < 3 else K[h, 1]
            else:
                diag[i] = C[h, 0] if i < 3 else C[h, 1]
        load = chrono.ChLoadBodyBodyBushingGeneric(built.bodies[p], built.bodies[q], lk.chframe(mid, R),
                                                   _matrix(np.diag(diag)), _matrix(np.zeros((6, 6))))
        container.Add(load)
        b = Bushing(h, load, mid)
        b.axes, b.coms = R, (built.com[p], built.com[q])
        bushings.append(b)
    set_misfit(bushings, alpha_d, 1.0)
    built.bushing_container = container
    return built, bushings


def set_misfit(bushings, alpha_d, scale):
    """Put each bushing's frames on its two bodies at ``scale`` times the errors' frame motions (alpha, d)."""
    for b in bushings:
        frames = []
        for s in (0, 1):
            a, d = scale * alpha_d[b.hinge, s, :3], scale * alpha_d[b.hinge, s, 3:]
            origin, axes = b.mid_ref + d, _rotation(a) @ b.axes
            frames.append(lk.chframe(origin - b.coms[s], axes))   # body frames: at the COM, global axes
        b.load.SetApplicationFrameA(frames[0])
        b.load.SetApplicationFrameB(frames[1])


def hinge_wrenches(built, bushings):
    """Per hinge: (F, M), the bushing's action on q about the current position of q's nominal midpoint, rotated
    back to q's reference orientation (global frame of the reference configuration)."""
    pat = built.pattern
    out = []
    for b in bushings:
        q = pat.hinges[b.hinge].panels[1]
        load = b.load
        frame_B = chrono.ChFrameMovingd(load.GetAbsoluteFrameB())
        RB = lk.rotation(frame_B)
        F = RB @ lk.arr(load.GetForce())
        T = RB @ lk.arr(load.GetTorque())
        o = lk.arr(frame_B.GetPos())
        mid_now = built.material_point(q, b.mid_ref)
        M = T + np.cross(o - mid_now, F)
        Rq = built.panel_rotation(q)
        out.append((Rq.T @ F, Rq.T @ M))
    return out


def equilibrium(built, wrenches, links):
    """(relative residual, support violation) of the current state.

    Residual: |F + Cq^T L| per body (forces x L, moments), Chrono's own
    generalised forces (the bushings included), relative to the largest of
    that vector's parts and of the hinge actions themselves (force x L,
    moment): a self-equilibrated locked-in state has small net forces on
    every body, so the bushings' own size is the scale.
    """
    system = built.system
    system.Setup()
    system.Update()
    L = built.pattern.size or 1.0
    F, CL = generalized_forces(system)
    scale = np.tile([L, L, L, 1.0, 1.0, 1.0], len(F) // 6)
    r = np.linalg.norm((F + CL) * scale)
    hinge_scale = np.sqrt(sum(L * L * (Fh @ Fh) + Mh @ Mh for Fh, Mh in wrenches))
    ref = max(np.linalg.norm(F * scale), np.linalg.norm(CL * scale), hinge_scale)
    rel = float(r / ref) if ref > 0 else float(r)
    viol = largest_violation(links, L)[0] if links else 0.0
    return rel, viol, ref


def residual_tolerance(built, stiffness, ref):
    """The accepted relative residual: :data:`.statics.EQUILIBRIUM_RTOL`, or the round-off floor of stiff
    bushings when larger -- a residual that moving the bodies by ``ROUNDOFF_ULPS`` ulps of the structure's
    size explains: ROUNDOFF_ULPS eps L^2 K_max / ref (K_max the largest translational hinge stiffness)."""
    L = built.pattern.size or 1.0
    K = stiffness.hinge_values(built.structure)
    kmax = float(K[:, 0].max()) if len(K) else 0.0
    floor = ROUNDOFF_ULPS * np.finfo(float).eps * L * L * kmax / ref if ref > 0 else 0.0
    return max(EQUILIBRIUM_RTOL, floor)


def locked_in(structure, errors, stiffness=None, loads=False, max_iterations=MAX_ITERATIONS):
    """Hinge actions of the imperfect assembly on elastic hinges, solved in Chrono (``results.StaticResult``,
    engine "chrono", status "elastic"); ``loads``: with the structure's loads, else the misfit alone.

    Mechanisms and rigid motions are held (module doc). Chrono solves in the force unit of :func:`force_scale`
    (module doc); the answer is in the structure's. The residual and the violation of the supports and holds
    are checked (``SolverError`` otherwise).
    """
    stiffness = stiffness or imp.HingeStiffness()
    if loads:
        check_loads_carried(structure, _held_and_counts(structure)[1])   # else the holds would carry them
    c = force_scale(structure, stiffness)
    built, bushings = build(structure, errors, stiffness, loads, c)
    system = built.system
    links = list(built.supports) + built.held
    L = structure.pattern.size or 1.0
    alpha_d = imp.frame_errors(structure.pattern, errors)
    steps = 1
    while True:
        for k in range(1, steps + 1):
            set_misfit(bushings, alpha_d, k / steps)
            static_analysis(system, "nonlinear", "sparse_qr", max_iterations, True, links or None, length=L)
        for again in range(2):       # Newton's correction test can stop short of the residual test: once more
            wrenches = hinge_wrenches(built, bushings)
            rel, viol, ref = equilibrium(built, wrenches, links)
            tol = residual_tolerance(built, stiffness, ref / c)
            if (np.isfinite(rel) and rel <= tol and viol <= CONSTRAINT_TOL) or again or rel > 1e-3:
                break
            static_analysis(system, "nonlinear", "sparse_qr", max_iterations, True, links or None, length=L)
        if np.isfinite(rel) and rel <= tol and viol <= CONSTRAINT_TOL:
            break
        if steps >= MAX_STEPS:
            raise SolverError(f"{structure.name}: the Chrono assembly of the imperfect panels on elastic hinges did "
                              f"not converge in {steps} misfit steps: relative equilibrium residual {rel:.3g} "
                              f"(tolerance {tol:.3g}), support violation {viol:.3g} (tolerance {CONSTRAINT_TOL:g})")
        # continuation: start again from the nominal pose and bring the misfit in by steps
        built, bushings = build(structure, errors, stiffness, loads, c)
        system = built.system
        links = list(built.supports) + built.held
        steps *= 4
    wrenches = [(F / c, M / c) for F, M in wrenches]                 # back to the structure's force unit
    actions = hinge_actions(structure.pattern, structure.hinge_kinds, wrenches)
    held = [lk.reaction_on(link, 1) for link in built.held]    # (force, torque, origin) on the held panel
    held = [(F / c, T / c, o) for F, T, o in held]
    supports = [dataclasses.replace(r, force=np.asarray(r.force) / c) for r in support_reactions(built)]
    info = {"equilibrium_residual": rel, "constraint_violation": viol, "loads": bool(loads),
            "hinge_model": "ChLoadBodyBodyBushingGeneric", "misfit_steps": steps, "residual_tolerance": tol,
            "force_scale": c,
            "held_coordinates": sum(len(link.constrained) for link in built.held),
            "held_force": max((float(np.linalg.norm(F)) for F, _, _ in held), default=0.0),
            "held_moment": max((float(np.linalg.norm(T)) for _, T, _ in held), default=0.0)}
    res = StaticResult(structure, "chrono", "elastic", None, None, actions, supports, rel, info=info)
    if not np.all(np.isfinite([a.values for a in actions])):
        raise SolverError(f"{structure.name}: the Chrono assembly gave non-finite hinge actions")
    return res
