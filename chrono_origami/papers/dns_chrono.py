"""The discrete null space paper's examples in Chrono (Betsch & Leyendecker, Part II, sec. 5), for comparison.

:func:`build` turns a reference-engine :class:`~chrono_origami.engines.reference.dns.multibody.Multibody`
(the gyro top, the cylindrical and planar pairs of ``engines.reference.dns.examples``,
or the six-body linkage of ``engines.reference.dns.structure``) into a Chrono system
with the same data: one ``ChBody`` per body (mass, principal inertia about
its directors, centre of mass, orientation: the directors as the body frame's
axes; fixed bodies fixed), the world as a fixed body at the origin, and the
pairs as links: a spherical pair as the project's ``SphericalHinge``, a
revolute pair as ``DoorHinge``, a cylindrical pair as ``SlidingHinge`` (link
frame Z on the axis n^1), a planar pair as a ``ChLinkMateGeneric`` with z,
rx, ry locked (Z on the plane's normal n^1). A revolute pair whose
translation row the reference engine drops as redundant (the linkage's loop
closure, its e_3 row) is a ``ChLinkMateGeneric`` without that row, so that
Chrono's constraints are independent too. Initial velocities: the
centres' velocities and omega = (1/2) sum d_I x v_I of the reference state.

:func:`simulate` integrates with Chrono's HHT (``alpha``, default Chrono's
-0.2; gamma = 1/2 - alpha) or implicit Euler (Newton), fixed steps, a direct
sparse QR solver (the linkage's constraints are redundant), and records the
total energy E = sum m |v|^2 / 2 + omega . J omega / 2 - sum m g . x and the
angular momentum about the origin L = sum x x m v + R J omega_local.
"""
import math
import time as wallclock
from dataclasses import dataclass, field

import numpy as np

from ..engines.chrono import links as lk   # first: PyChrono is probed before it is imported
from ..engines.reference.dns.body import angular_velocity, point, vec

import pychrono as chrono  # noqa: E402,I001

INTEGRATORS = ("hht", "euler")
ALPHA = -0.2


@dataclass
class ChronoRun:
    t: np.ndarray
    E: np.ndarray
    L: np.ndarray                 # (K, 3)
    com: np.ndarray               # (K, B, 3)
    R: np.ndarray = None          # (K, B, 3, 3) body rotations (columns: the body axes)
    wall: float = 0.0
    info: dict = field(default_factory=dict)


def _frame_from_axis(origin, axis):
    o, R = lk.line_frame(origin, axis)
    return lk.chframe(o, R)


def build(mb, v0):
    """(system, bodies (one per Multibody body), links) of the Multibody ``mb`` at q0 with velocities v0."""
    s = chrono.ChSystemNSC()
    g = mb.forces.g
    s.SetGravitationalAcceleration(lk.vec(g))
    ground = chrono.ChBody()
    ground.SetFixed(True)
    ground.SetName("world")
    s.AddBody(ground)
    q0 = mb.q0
    omega = angular_velocity(q0, v0)
    bodies = []
    for b, body in enumerate(mb.bodies):
        cb = chrono.ChBody()
        cb.SetName(body.name)
        cb.SetMass(float(body.mass))
        cb.SetInertiaXX(lk.vec(body.inertia))
        cb.SetPos(lk.vec(q0[b, 0]))
        cb.SetRot(lk.mat33(q0[b, 1:].T).GetQuaternion())
        cb.EnableCollision(False)
        if body.fixed:
            cb.SetFixed(True)
        else:
            cb.SetPosDt(lk.vec(v0[b, 0]))
            cb.SetAngVelParent(lk.vec(omega[b]))
        s.AddBody(cb)
        bodies.append(cb)
    links = []
    for k, pr in enumerate(mb.pairs):
        Q1 = mb.qb(q0[None], pr.b1)[0]
        c1 = ground if pr.b1 is None else bodies[pr.b1]
        c2 = bodies[pr.b2]
        x = point(Q1, pr.rho1)
        name = f"{pr.kind} pair {k + 1}"
        if pr.kind == "S":
            link = lk.SphericalHinge(name=name)
            link.Initialize(c2, c1, lk.chframe(x))
        elif pr.kind in ("R", "C", "E"):
            n = vec(Q1, pr.n1)
            dropped = [pr.rows.index(r) for r in mb.dropped_rows if r in pr.rows]
            if pr.kind == "R" and dropped:
                e = np.eye(3)[dropped[0]] if len(dropped) == 1 and dropped[0] < 3 else None
                if e is None or abs(e @ n) > 1e-12:
                    raise ValueError(f"{name}: redundant rows {dropped} have no link frame here")
                # the loop's redundant translation row left out: X of the link frame along it
                R = np.column_stack([e, np.cross(n, e), n])
                link = chrono.ChLinkMateGeneric(False, True, True, True, True, False)
                link.SetName(name + " (redundant row left out)")
                link.Initialize(c2, c1, lk.chframe(x, R))
                s.Add(link)
                links.append(link)
                continue
            if pr.kind == "R":
                link = lk.DoorHinge(name=name)
            elif pr.kind == "C":
                link = lk.SlidingHinge(name=name)
            else:
                link = chrono.ChLinkMateGeneric(False, False, True, True, True, False)
                link.SetName(name)
                x = point(mb.q0[pr.b2], pr.rho2)        # the plane through the point of body 2
            link.Initialize(c2, c1, _frame_from_axis(x, n))
        else:
            raise ValueError(f"{name}: no Chrono link for a {pr.kind} pair here")
        s.Add(link)
        links.append(link)
    s.Setup()
    return s, bodies, links


def _measure(mb, bodies):
    g = mb.forces.g
    E = 0.0
    L = np.zeros(3)
    com = []
    for body, cb in zip(mb.bodies, bodies):
        x = lk.arr(cb.GetPos())
        com.append(x)
        if body.fixed:
            continue
        v = lk.arr(cb.GetPosDt())
        wl = lk.arr(cb.GetAngVelLocal())
        R = lk.rotation(cb)
        J = body.inertia
        E += 0.5 * body.mass * (v @ v) + 0.5 * float(wl @ (J * wl)) - body.mass * float(g @ x)
        L += np.cross(x, body.mass * v) + R @ (J * wl)
    return E, L, np.array(com)


def simulate(mb, v0, dt, n_steps, integrator="hht", alpha=ALPHA, stride=1, max_iterations=30, reltol=1e-10,
             abstol=1e-10):
    """Integrate ``n_steps`` of ``dt`` in Chrono; record every ``stride`` steps (and the last): a :class:`ChronoRun`."""
    if integrator not in INTEGRATORS:
        raise ValueError(f"unknown Chrono integrator {integrator!r}; expected one of {INTEGRATORS}")
    s, bodies, links = build(mb, v0)
    s.SetSolver(chrono.ChSolverSparseQR())
    if integrator == "hht":
        ts = chrono.ChTimestepperHHT(s)
        ts.SetAlpha(alpha)
    else:
        ts = chrono.ChTimestepperEulerImplicit(s)
    # Newton tolerances scaled by the problem (as engines.chrono.dynamics): accelerations a_s = max(|g|, v^2 / L)
    L = mb.length
    speed = max(float(np.abs(v0[:, 0]).max()), float(np.abs(v0[:, 1:]).max()) * L)
    a_s = max(float(np.linalg.norm(mb.forces.g)), speed ** 2 / L, 1e-300)
    f_s = sum(b.mass for b in mb.bodies if not b.fixed) * a_s
    eps = np.finfo(float).eps
    beta = (1 - alpha) ** 2 / 4 if integrator == "hht" else 1.0
    tol_a = max(abstol * a_s, 1e3 * eps * L / (beta * dt * dt))
    ts.SetMaxIters(max_iterations)
    ts.SetRelTolerance(reltol)
    ts.SetAbsTolerances(tol_a, tol_a * f_s / a_s)
    ts.SetStepControl(False)
    s.SetTimestepper(ts)
    t, E, L, com, R = [], [], [], [], []

    def record(time):
        e, l, c = _measure(mb, bodies)
        t.append(time)
        E.append(e)
        L.append(l)
        com.append(c)
        R.append([lk.rotation(b) for b in bodies])

    record(0.0)
    clock = wallclock.perf_counter()
    for k in range(1, n_steps + 1):
        s.DoStepDynamics(dt)
        if k % stride == 0 or k == n_steps:
            record(k * dt)
    wall = wallclock.perf_counter() - clock
    info = {"integrator": integrator, "alpha": alpha if integrator == "hht" else None,
            "terminated_steps": ts.GetNumTerminated() if hasattr(ts, "GetNumTerminated") else None}
    if not all(math.isfinite(e) for e in E):
        raise FloatingPointError(f"the Chrono {integrator} run diverged")
    return ChronoRun(np.array(t), np.array(E), np.array(L), np.array(com), np.array(R), wall, info)
