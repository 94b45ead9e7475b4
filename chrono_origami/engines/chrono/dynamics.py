"""Dynamics in Chrono: a structure integrated in time by Chrono's implicit integrators.

The structure is built by :func:`.system.build_system` *in its initial
configuration* (the pattern posed at ``InitialState.vertices``): one body per
panel, mate hinges and supports with Kc on, gravity and dead loads. Then:

Integrators
-----------
``"hht"``: ``ChTimestepperHHT`` (index 3: the constraints are met at position
level each step; ``alpha`` in [-1/3, 0], default Chrono's -0.2, gamma = 1/2 -
alpha, beta = (1 - alpha)^2 / 4; alpha = 0 is the trapezoidal Newmark rule).
``"euler"``: ``ChTimestepperEulerImplicit`` (Newton on the implicit Euler
step). ``"euler-linearized"``: ``ChTimestepperEulerImplicitLinearized`` (one
linear solve per step, constraints stabilised at velocity level: they drift
by O(dt^2) per step). Fixed steps (no step-size control), a direct sparse
solver: ``solver="auto"`` takes ``ChSolverSparseLU`` when the constraints are
independent at the start (full row rank of Cq, from the dense check below)
and ``ChSolverSparseQR`` (redundant constraints allowed, several times slower)
otherwise or when the check is too large. The Newton Jacobian holds Kc and
the springs' K and R blocks; it is updated at every step (``jacobian="step"``,
Chrono's default, and again whenever Newton stalls) or at every iteration
(``"iteration"``). Newton tolerances are scaled by the problem: accelerations
by a = max(|g|, L / time^2), multipliers by the weight and loads.

Motors (``ChLinkMotorRotation*``, spindle free, body 1 = the hinge's second
panel q, body 2 = its first panel p, Z on the hinge axis t as run by p): an
"angle" motor is a ``ChLinkMotorRotationAngle`` on the function; a "speed"
motor is the same link on the angle psi(t) = integral of the speed from 0
(adaptive quadrature, so the angle is exact and no auxiliary variable of
``ChLinkMotorRotationSpeed`` enters the dynamics); a "torque" motor is a
``ChLinkMotorRotationTorque``.

Crease springs: ``ChLoadBodyBodyBushingGeneric`` (via
:func:`.springs.add_crease_springs`), a stiff ``ChLoad`` with stiffness k and
damping c about the hinge axis only, whose K and R blocks (finite
differences of the exact load) enter Newton's Jacobian. A rest angle other
than the initial one is a neutral torque k (phi_0 - rest). Why not
``ChLinkRSDA``: it has no K or R block, so its torque enters only the
residual; Newton then converges slowly for stiff creases, and the linearised
Euler step (one iteration) treats the spring and damper explicitly, which is
unstable for stiff creases and breaks the energy accounting. The bushing
measures the relative rotation from the initial configuration in (-pi, pi]:
a crease turned by more than pi from its initial state stops the run.

Initial state
-------------
Velocities (``InitialState.velocities``, or zero) are projected onto the
constraints, Cq v + Ct = 0 with the angle motors' speeds in Ct, in the
kinetic-energy metric (:func:`~chrono_origami.inputs.dynamics.consistent_velocities`
on Chrono's Cq). Consistent accelerations and reactions at t = 0 then come from
Chrono's acceleration-level assembly (``DoAssembly(ACCELERATION)``: a
semi-implicit step of 1e-6 s), after which the projected velocities are set
back; HHT starts from these accelerations and multipliers.

Energy accounting (``TimeHistory``)
-----------------------------------
Kinetic, gravitational and spring energies are evaluated from the state.
The work of dead loads is exact: a constant force F at a material point
does F . (x(t) - x(0)). The work of motors and the dissipation of dampers
are integrated step by step *as the integrator applies them*: for a
generalised force F_n (motor torque on q about t, from the motor's reaction
or its torque function; damper moment c phi_dot) and its coordinate
increment dq (d psi; d phi), the impulse per unit time the integrator applies
over the step is

    Fbar = (1 - gamma) Ft_n + gamma Ft_{n+1},   Ft_{n+1} = (1 + alpha) F_{n+1} - alpha F_n,

(HHT: its gamma and alpha; implicit Euler: gamma = 1, alpha = 0, so Fbar =
F_{n+1}), and the work of the step is Fbar dq. For alpha = 0 this is the
trapezoidal rule, which makes the discrete energy balance of the Newmark
step exact for forces linear in the state; otherwise the balance error
measures the integrator's own dissipation and error (O(dt^2)).

Contact
-------
``contact`` (an ``inputs.dynamics.ContactMaterial``): the system is a ``ChSystemNSC`` or ``ChSystemSMC`` with
Bullet collision, each panel carrying its solid as a convex shape (:class:`.contact.PanelContact`). NSC runs the
linearised Euler step with ``ChSolverADMM`` around the direct solver (complementarity and stiffness blocks
together); SMC adds the contact forces' Jacobians to Newton's matrix (``SetContactStiff``). The contacts'
work is integrated like the motors' (Fbar from the generalised contact forces on the panels, force and moment
about the centre of mass), over dq = dt (u_n + u_{n+1}) / 2, u the panels' velocities: an impulse's exact
work. The TimeHistory's ``contact`` is minus its total, ``contact_forces`` the rows per panel pair.

Limits
------
A step whose Newton iteration does not converge (Chrono's "terminated"
steps), a constraint violation above ``constraint_tol`` after a step, a
non-finite state or a singular configuration (the scaled constraint
Jacobian, rows in translation / L, losing the row rank it had at the start:
sigma ratio below ``singular_rtol``, or a V-shaped dip of the ratio between
checks, which is a singular configuration crossed; checked every
``check_every`` steps by a dense SVD, off beyond :data:`DENSE_CHECK_LIMIT`)
stop the run with
:class:`~chrono_origami.tools.errors.DynamicsError`, naming the time, the culprit
hinge (the link with the largest violation, or the largest entry of the
singular direction) and carrying the history recorded so far.
"""
import bisect
import math
import time as wallclock
from dataclasses import replace

import numpy as np
import pychrono as chrono
from scipy import integrate

from ...inputs.expression import derivative
from ...inputs.dynamics import (CONTACT_INTEGRATORS, ContactMaterial, InitialState, check_inputs, check_integrator, consistent_velocities,
                              schedule)
from ...results.dynamics import TimeHistory
from ...results.static import hinge_actions
from ...structure import foldfile
from ...structure.hinges import hinge_geometry
from ...structure.properties import panel_mass_properties
from ...structure.structure import Structure
from ...tools.errors import DynamicsError, OrigamiError, StructureError
from ...tools.geometry import rotation_angle
from ...tools.progress import Progress
from . import links as lk, static as chan
from .matrices import body_mass_matrix
from .contact import PanelContact
from .springs import add_crease_springs
from .system import build_system

#: Chrono's default HHT alpha (numerical damping of high frequencies)
ALPHA = -0.2
MAX_ITERATIONS = 20
#: Newton: relative tolerance on the acceleration and multiplier updates
RELTOL = 1e-8
#: Newton: absolute tolerances, fractions of the acceleration and force scales
ABSTOL = 1e-12
#: largest scaled constraint violation (translations / L, rotations) accepted after a step, by integrator:
#: Newton meets the constraints to round-off; the linearised Euler step lets them drift by O(dt^2)
CONSTRAINT_TOL = {"hht": 1e-8, "euler": 1e-8, "euler-linearized": 1e-3}
#: sigma_min / sigma_max of the scaled constraint Jacobian below which a configuration is singular
SINGULAR_RTOL = 1e-7
#: largest rows x columns of the constraint Jacobian for the dense singularity check
DENSE_CHECK_LIMIT = 1_000_000
#: steps between singularity checks (each a dense SVD of the scaled Cq)
CHECK_EVERY = 10
#: a local minimum of the sigma ratio below this, V-shaped, is a singular configuration crossed between checks
NEAR_SINGULAR = 1e-2
SOLVERS = chan.SOLVERS
#: contact rows whose normal and friction forces are both below this fraction of the force scale (total mass x
#: acceleration scale + dead loads, :meth:`ChronoDynamics._timestepper`) are not kept: pairs within the envelope
#: that do not push, and ADMM's round-off
CONTACT_FORCE_RTOL = 1e-6
#: NSC contact: ADMM's iterations and its primal and dual tolerances (fraction of the pattern size)
ADMM_ITERATIONS = 500
ADMM_TOL = 1e-10
JACOBIAN_UPDATES = {"iteration": "JacobianUpdate_EVERY_ITERATION", "step": "JacobianUpdate_EVERY_STEP"}


class _TimeFunction(chrono.ChFunction):
    """A Python function of time as a ``ChFunction``, with its first two derivatives."""

    def __init__(self, f):
        chrono.ChFunction.__init__(self)
        self.f = f
        self.d1 = derivative(f)
        self.d2 = derivative(self.d1)

    def GetVal(self, t):
        return float(self.f(t))

    def GetDer(self, t):
        return float(self.d1(t))

    def GetDer2(self, t):
        return float(self.d2(t))


class _Integral:
    """t -> integral of f from 0 to t (adaptive quadrature from the nearest earlier time already computed)."""

    def __init__(self, f):
        self.f = f
        self.ts, self.vals = [0.0], [0.0]

    def __call__(self, t):
        t = float(t)
        k = max(bisect.bisect_right(self.ts, t) - 1, 0)
        t0, v0 = self.ts[k], self.vals[k]
        if t == t0:
            return v0
        v = v0 + integrate.quad(lambda s: float(self.f(s)), t0, t, epsabs=1e-15, epsrel=1e-13, limit=200)[0]
        if t > t0:
            self.ts.insert(k + 1, t)
            self.vals.insert(k + 1, v)
        return v

    def derivative(self):
        return self.f


def _rotation(body):
    """Rotation matrix of a body from its quaternion (faster than reading ``GetRotMat`` item by item)."""
    q = body.GetRot()
    w, x, y, z = q.e0, q.e1, q.e2, q.e3
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


class _Axis:
    """Relative rotation psi of a hinge's second panel q about its first panel p's axis t (rad, unwrapped)."""

    def __init__(self, built, h):
        pat = built.pattern
        self.hinge = h
        self.p, self.q = pat.hinges[h].panels
        t, m, _, mid, _, _ = hinge_geometry(pat, h)
        self.t_ref, self.m_ref, self.mid = t, m, mid
        self.bp, self.bq = built.bodies[self.p], built.bodies[self.q]
        self.psi = 0.0

    def measure(self):
        """(psi, psi_dot, t_now): unwrapped angle from the initial configuration, its rate, the current axis."""
        Rp = _rotation(self.bp)
        rel = Rp.T @ _rotation(self.bq)               # q relative to p, in p's reference axes
        a = float(rotation_angle(self.t_ref, self.m_ref, rel @ self.m_ref))
        a += 2 * math.pi * round((self.psi - a) / (2 * math.pi))
        self.psi = a
        t_now = Rp @ self.t_ref
        rate = float((lk.arr(self.bq.GetAngVelParent()) - lk.arr(self.bp.GetAngVelParent())) @ t_now)
        return a, rate, t_now


class _Quadrature:
    """Work of generalised forces as the integrator applies them (module doc): W += Fbar dq."""

    def __init__(self, n, alpha, gamma):
        self.alpha, self.gamma = alpha, gamma
        self.F = np.zeros(n)
        self.Ft = np.zeros(n)
        self.total = 0.0

    def start(self, F):
        self.F = np.asarray(F, float).copy()
        self.Ft = self.F.copy()

    def step(self, F, dq):
        F = np.asarray(F, float)
        Ft = (1 + self.alpha) * F - self.alpha * self.F
        Fbar = (1 - self.gamma) * self.Ft + self.gamma * Ft
        self.total += float(Fbar @ np.asarray(dq, float))
        self.F, self.Ft = F, Ft
        return self.total


def check_contact(structure, contact, integrator):
    """The :class:`ContactMaterial` of ``contact`` (None or False: no contact; True: the default, NSC; "nsc" or
    "smc": that method's defaults; a ``ContactMaterial``), checked against ``structure`` (thick panels) and the
    ``integrator`` (``inputs.dynamics.CONTACT_INTEGRATORS``)."""
    if contact is None or contact is False:
        return None
    if contact is True:
        contact = ContactMaterial()
    elif isinstance(contact, str):
        contact = ContactMaterial(contact)
    elif not isinstance(contact, ContactMaterial):
        raise StructureError(f"contact must be a ContactMaterial, 'nsc', 'smc', True or None, got {contact!r}")
    thin = [p + 1 for p, t in enumerate(structure.thickness) if not t > 0]
    if thin:
        raise StructureError(f"{structure.name}: contact needs thick panels, panel {thin[0]} has thickness "
                             f"{structure.thickness[thin[0] - 1]:g}: give --thickness T (> 0)")
    if integrator not in CONTACT_INTEGRATORS[contact.method]:
        raise StructureError(f"{contact.method.upper()} contact needs the integrator "
                             f"{' or '.join(CONTACT_INTEGRATORS[contact.method])}, not {integrator} "
                             f"(inputs.dynamics.CONTACT_INTEGRATORS says why)")
    return contact


class ChronoDynamics:
    """A structure built in Chrono for time integration (see the module doc); :meth:`run` integrates it."""

    def __init__(self, structure, motors=(), springs=(), initial=None, integrator="hht", alpha=ALPHA,
                 max_iterations=MAX_ITERATIONS, reltol=RELTOL, abstol=ABSTOL, solver="auto",
                 jacobian="step", constraint_tol=None, singular_rtol=SINGULAR_RTOL,
                 singular_check=True, check_every=CHECK_EVERY, contact=None):
        if not isinstance(structure, Structure):
            raise StructureError(f"dynamics expects a chrono_origami Structure, got {type(structure).__name__}")
        self.integrator = check_integrator("chrono", integrator)
        chan.choose_solver(solver, True)      # validates the name
        if jacobian not in JACOBIAN_UPDATES:
            raise ValueError(f"unknown jacobian update {jacobian!r}; expected one of {tuple(JACOBIAN_UPDATES)}")
        if not -1.0 / 3.0 <= float(alpha) <= 0.0:
            raise ValueError(f"HHT alpha must lie in [-1/3, 0], got {alpha!r}")
        if not (isinstance(max_iterations, (int, np.integer)) and max_iterations >= 1):
            raise ValueError(f"max_iterations must be a positive integer, got {max_iterations!r}")
        pat0 = structure.pattern
        for p in range(pat0.n_panels):
            if not panel_mass_properties(pat0, p, structure.thickness[p], structure.density)[0] > 0:
                raise StructureError(f"{structure.name}: panel {p + 1} has no mass (thickness "
                                     f"{structure.thickness[p]:g}, density {structure.density:g}); dynamics needs "
                                     f"every panel thick with a positive density")
        motors, springs = check_inputs(structure, motors, springs)
        initial = InitialState() if initial is None else initial
        if not isinstance(initial, InitialState):
            raise StructureError(f"initial must be an InitialState, got {type(initial).__name__}")
        initial.poses(structure)                       # checks the configuration (rigid panels)
        v0 = initial.panel_velocities(structure)
        if initial.vertices is not None:
            structure = structure.with_pattern(pat0.with_vertices(initial.vertices))
        self.structure = structure
        self.motors, self.springs = motors, springs
        self.contact_material = check_contact(structure, contact, self.integrator)
        system = None
        if self.contact_material is not None:
            system = chrono.ChSystemSMC() if self.contact_material.method == "smc" else chrono.ChSystemNSC()
            g0 = np.zeros(3) if structure.gravity is None else np.asarray(structure.gravity, float)
            system.SetGravitationalAcceleration(lk.vec(g0))
            system.SetSolver(chrono.ChSolverSparseQR())
        self.built = b = build_system(structure, system=system, visual=False, use_tangent_stiffness=True)
        self.contact = PanelContact(b, self.contact_material) if self.contact_material is not None else None
        self.system = b.system
        pat = structure.pattern
        self.L = pat.size or 1.0
        self.alpha = float(alpha) if self.integrator == "hht" else 0.0
        self.gamma = 0.5 - self.alpha if self.integrator == "hht" else 1.0
        self.constraint_tol = CONSTRAINT_TOL[self.integrator] if constraint_tol is None else float(constraint_tol)
        self.singular_rtol = float(singular_rtol)
        self._names = {}                                # link name -> hinge (0-based) or None
        for hl in b.hinges:
            for link in hl.links:
                self._names[link.GetName()] = hl.hinge

        # motors
        self.motor_links, self.motor_axes, self._functions = [], [], []
        for m in motors:
            ax = _Axis(b, m.hinge)
            R = np.column_stack([ax.m_ref, np.cross(ax.t_ref, ax.m_ref), ax.t_ref])   # Z = t
            if m.mode == "torque":
                link = chrono.ChLinkMotorRotationTorque()
                fun = m.function
            else:
                fun = m.function if m.mode == "angle" else _Integral(m.function)
                a0 = float(fun(0.0))
                if m.mode == "angle" and abs(a0) > 1e-12 * max(1.0, abs(float(fun(1.0)))):
                    raise StructureError(f"motor on hinge {m.hinge + 1}: the angle at t = 0 is {a0:.6g} rad; "
                                         f"motor angles are measured from the initial configuration and must "
                                         f"start at 0")
                link = chrono.ChLinkMotorRotationAngle()
            link.SetSpindleConstraint(chrono.ChLinkMotorRotation.SpindleConstraint_FREE)
            cf = _TimeFunction(fun)
            link.SetMotorFunction(cf)
            link.SetName(f"motor on hinge {m.hinge + 1} ({m.mode})")
            link.Initialize(b.bodies[ax.q], b.bodies[ax.p], lk.chframe(ax.mid, R))
            self.system.AddLink(link)
            self._names[link.GetName()] = m.hinge
            self.motor_links.append(link)
            self.motor_axes.append(ax)
            self._functions.append((cf, fun))

        # crease springs: bushings at the initial configuration, rest angle through a neutral torque
        self.spring_axes, self.spring_loads = [], []
        angles = dict(zip(pat.edges, np.radians(foldfile.fold_angles(pat))))
        self.phi0 = np.array([angles[tuple(sorted(pat.hinges[s.hinge].vertices))] for s in springs])
        self.rest = np.array([p0 if s.rest is None else s.rest for s, p0 in zip(springs, self.phi0)])
        self.k = np.array([s.stiffness for s in springs])
        self.c = np.array([s.damping for s in springs])
        if springs:
            cs = add_crease_springs(b, self.k, hinges=[s.hinge for s in springs], damping=self.c)
            self.spring_container = cs.container
            for s, load, k, p0, r in zip(springs, cs.loads, self.k, self.phi0, self.rest):
                load.SetNeutralTorque(chrono.ChVector3d(0.0, 0.0, float(k * (p0 - r))))
                self.spring_axes.append(_Axis(b, s.hinge))
                self.spring_loads.append(load)

        # mass data (body frames are the global axes at the start)
        self.mass = np.array([body.GetMass() for body in b.bodies])
        self.inertia = [np.array(body.GetInertia().GetMatr()) for body in b.bodies]
        g = np.zeros(3) if structure.gravity is None else np.asarray(structure.gravity, float)
        self.g = g
        self.dead_loads = [(p, np.asarray(x, float), np.asarray(F, float))
                           for p, x, F in replace(structure, gravity=None).panel_loads() if np.any(F)]
        self.vertex_panels = [list(ps) for ps in pat.vertex_panels]
        self._velocities0 = v0
        self._settings = dict(max_iterations=int(max_iterations), reltol=float(reltol), abstol=float(abstol),
                              solver=solver, jacobian=jacobian)
        self.system.SetSolver(chan._make_solver("sparse_qr"))
        self.singular_check = bool(singular_check)
        if not (isinstance(check_every, (int, np.integer)) and check_every >= 1):
            raise ValueError(f"check_every must be a positive integer (steps), got {check_every!r}")
        self.check_every = int(check_every)
        self._ratios = []
        self.info = {"integrator": self.integrator, "alpha": self.alpha, "gamma": self.gamma, "solver": solver,
                     "jacobian_update": jacobian, "springs": "ChLoadBodyBodyBushingGeneric (stiff ChLoad)"}

    # ------------------------------------------------------------------ set-up
    def _timestepper(self, time, dt):
        """Chrono's timestepper with fixed steps and Newton tolerances scaled by the problem.

        a_s = max(|g|, L / time^2), f_s = total mass x a_s + |dead loads|. HHT (Newton on the
        accelerations): relative tolerance ``reltol`` on the updates, absolute ``abstol`` a_s on the
        accelerations but not below the round-off of the constraint term C / (beta dt^2), 1e3 eps L /
        (beta dt^2); the multipliers' absolute tolerance follows (x f_s / a_s). Implicit Euler (Newton
        stops on the residuals): |R| < abstol f_s dt (impulses), |C / dt| < 1e3 eps L / dt.
        """
        s = self._settings
        eps = np.finfo(float).eps
        a_scale = max(float(np.linalg.norm(self.g)), self.L / time ** 2)
        f_scale = float(self.mass.sum()) * a_scale + sum(float(np.linalg.norm(F)) for _, _, F in self.dead_loads)
        if self.integrator == "hht":
            ts = chrono.ChTimestepperHHT(self.system)
            ts.SetAlpha(self.alpha)
            beta = (1 - self.alpha) ** 2 / 4
            tol_a = max(s["abstol"] * a_scale, 1e3 * eps * self.L / (beta * dt * dt))
            tols = (tol_a, tol_a * f_scale / a_scale)
        elif self.integrator == "euler":
            ts = chrono.ChTimestepperEulerImplicit(self.system)
            tols = (s["abstol"] * 100 * f_scale * dt, 1e3 * eps * self.L / dt)
        else:
            ts = chrono.ChTimestepperEulerImplicitLinearized(self.system)
            tols = None
        if tols is not None:
            ts.SetMaxIters(s["max_iterations"])
            ts.SetRelTolerance(s["reltol"])
            ts.SetAbsTolerances(*tols)
            ts.SetStepControl(False)
            ts.SetJacobianUpdateMethod(getattr(chrono.ChTimestepperImplicit, JACOBIAN_UPDATES[s["jacobian"]]))
            self.info["newton_abstol"] = tols
        self.system.SetTimestepper(ts)
        self.info.update({"acceleration_scale": a_scale, "force_scale": f_scale})
        return ts

    def _bodies_in_columns(self):
        return sorted(self.built.bodies, key=lambda body: body.GetOffset_w())

    def _start(self):
        """Initial velocities projected on the constraints, consistent accelerations and reactions."""
        b, sys_ = self.built, self.system
        sys_.SetChTime(0.0)
        sys_.Setup()
        sys_.Update()
        rep = chan.assemble(b, abstol_residual=1e-15, solver="sparse_qr")
        sys_.SetSolver(chan._make_solver("sparse_qr"))
        res, name = self.violation()
        if res > 1e-9:
            raise DynamicsError(f"{self.structure.name}: the initial configuration does not satisfy the "
                                f"constraints (violation {res:.3g} at {name}; Chrono's assembly: {rep.exit_flag})",
                                0.0, self._names.get(name))
        for body, (w, v) in zip(b.bodies, self._velocities0.reshape(-1, 2, 3)):
            body.SetPosDt(lk.vec(v))
            body.SetAngVelParent(lk.vec(w))
        sys_.Update()
        # velocity projection: Chrono's columns (v_com global, omega local), row by row Ct of the angle motors
        Cq = chan.constraint_jacobian(sys_)
        cols = self._bodies_in_columns()
        v = np.concatenate([np.concatenate([lk.arr(body.GetPosDt()), lk.arr(body.GetAngVelLocal())]) for body in cols])
        ct = np.zeros(Cq.shape[0])
        for link, (cf, _), m in zip(self.motor_links, self._functions, self.motors):
            if m.mode != "torque":
                ct[link.GetOffset_L() + link.GetNumConstraints() - 1] = -0.5 * cf.GetDer(0.0)
        try:
            vnew, change = consistent_velocities(Cq, v, body_mass_matrix(cols), ct=ct)
        except OrigamiError as e:
            driven = [m.hinge + 1 for m in self.motors if m.mode != "torque"]
            raise DynamicsError(f"{self.structure.name}: at t = 0 s the motors on hinges "
                                f"{', '.join(map(str, driven))} ask for speeds the mechanism cannot take ({e}); "
                                f"the motion is jammed from the start", 0.0,
                                self.motors[0].hinge if self.motors else None) from None
        self.info["initial_velocity_change"] = change
        self._set_velocities(cols, vnew)
        # consistent accelerations and reactions (Chrono's acceleration-level assembly), velocities kept
        sys_.DoAssembly(chrono.ACCELERATION)
        self._set_velocities(cols, vnew)
        for (cf, _), m, ax in zip(self._functions, self.motors, self.motor_axes):
            if m.mode != "torque":
                rate = ax.measure()[1]
                if abs(rate - cf.GetDer(0.0)) > 1e-8 * max(1.0, abs(cf.GetDer(0.0))):
                    raise DynamicsError(f"motor on hinge {m.hinge + 1}: the initial speed {rate:.6g} rad/s cannot "
                                        f"follow the motor's {cf.GetDer(0.0):.6g} rad/s (other constraints hold the "
                                        f"hinge)", 0.0, m.hinge)

    def _set_velocities(self, cols, v):
        for body, vb in zip(cols, np.asarray(v).reshape(-1, 6)):
            body.SetPosDt(lk.vec(vb[:3]))
            body.SetAngVelLocal(lk.vec(vb[3:]))
        self.system.Update()

    @property
    def _nsc(self):
        return self.contact_material is not None and self.contact_material.method == "nsc"

    def _solver(self, solver):
        """The direct sparse solver ``solver``; with NSC contact, Chrono's ADMM around it (the one solver that takes
        both the contacts' complementarity and the stiffness blocks of Kc and the springs)."""
        direct = chan._make_solver(solver)
        if not self._nsc:
            return direct
        admm = chrono.ChSolverADMM(direct)
        admm.SetMaxIterations(ADMM_ITERATIONS)
        admm.SetTolerancePrimal(ADMM_TOL * self.L)
        admm.SetToleranceDual(ADMM_TOL * self.L)
        admm.EnableWarmStart(True)
        self.admm = admm
        return admm

    def _velocities(self):
        """(P x 6,) every panel's (v_com, omega), global frame."""
        return np.concatenate([np.concatenate([lk.arr(body.GetPosDt()), lk.arr(body.GetAngVelParent())])
                               for body in self.built.bodies])

    def _contact_forces(self, rec_rows):
        """(rows per panel pair, generalised contact forces (P, 6)) of the last step (:class:`.contact.PanelContact`);
        zero without contact. ``rec_rows``: a recorder that keeps the rows for the output frame."""
        if self.contact is None:
            return [], np.zeros((len(self.built.bodies), 6))
        rows, gen = self.contact.contacts()
        floor = CONTACT_FORCE_RTOL * self.info["force_scale"]
        rows = [r for r in rows if max(r[2], r[3]) > floor]
        if rec_rows is not None:
            rec_rows.contact_rows = rows
        return rows, gen

    # ------------------------------------------------------------------ measures
    def links(self):
        """Every constraint link in the system: the structure's hinges and supports, then the motors."""
        return self.built.structure_links() + list(self.motor_links)

    def violation(self):
        """(largest scaled constraint violation over every link, that link's name)."""
        worst, name = 0.0, None
        for link in self.links():
            v = chan.link_violation(link, self.L)
            if not v <= worst:
                worst, name = v, link.GetName()
        return worst, name

    def _finite(self):
        """True when every body's position, orientation and velocities are finite."""
        for body in self.built.bodies:
            p, q, v, w = body.GetPos(), body.GetRot(), body.GetPosDt(), body.GetAngVelParent()
            if not math.isfinite(p.x + p.y + p.z + q.e0 + q.e1 + q.e2 + q.e3 + v.x + v.y + v.z + w.x + w.y + w.z):
                return False
        return True

    def panel_state(self):
        """(x_com (P,3), R (P,3,3), v_com (P,3), omega global (P,3), omega local (P,3))."""
        x, R, v, w, wl = [], [], [], [], []
        for body in self.built.bodies:
            x.append(lk.arr(body.GetPos()))
            R.append(_rotation(body))
            v.append(lk.arr(body.GetPosDt()))
            w.append(lk.arr(body.GetAngVelParent()))
            wl.append(lk.arr(body.GetAngVelLocal()))
        return np.array(x), np.array(R), np.array(v), np.array(w), np.array(wl)

    def vertices(self, x, R):
        """Current vertices (V, 3): each panel's vertices moved rigidly, averaged over the panels at a vertex."""
        pat = self.structure.pattern
        com = self.built.com
        X = np.zeros((pat.n_vertices, 3))
        for v, ps in enumerate(self.vertex_panels):
            X[v] = np.mean([x[p] + R[p] @ (pat.vertices[v] - com[p]) for p in ps], axis=0)
        return X

    def _generalised(self, t):
        """Motor torques on q about t, motor angles; damper moments c phi_dot, fold angles (springs)."""
        tau, psi = [], []
        for m, link, ax, (cf, _) in zip(self.motors, self.motor_links, self.motor_axes, self._functions):
            a, _, t_now = ax.measure()
            if m.mode == "torque":
                tau.append(cf.GetVal(t))
            else:
                _, T, _ = lk.reaction_on(link, 1)
                tau.append(float(T @ t_now))
            psi.append(a)
        phi, phidot = [], []
        for ax, p0 in zip(self.spring_axes, self.phi0):
            a, rate, _ = ax.measure()
            if abs(a) >= math.pi:
                raise DynamicsError(f"crease spring on hinge {ax.hinge + 1} turned by {a:.6g} rad from its initial "
                                    f"state at t = {t:.6g} s: the bushing spring is valid within (-pi, pi)",
                                    t, ax.hinge)
            phi.append(p0 - a)
            phidot.append(-rate)
        return np.array(tau), np.array(psi), np.array(phi), np.array(phidot)

    def _axial(self, tau, phi, phidot):
        """(H,) moment on each hinge's second panel about its axis t by its motor, spring and damper."""
        out = np.zeros(len(self.structure.pattern.hinges))
        for m, x in zip(self.motors, tau):
            out[m.hinge] += x
        for s, k, c, f, fd, r in zip(self.springs, self.k, self.c, phi, phidot, self.rest):
            out[s.hinge] += k * (f - r) + c * fd        # d phi = -d psi: minus the moment in the phi direction
        return out

    def static_residual(self):
        """Relative residual of the current state as a static equilibrium (inertia left out): the one
        equilibrium residual, :class:`.statics.Equilibrium` (loads, springs, dampers, motors and link
        reactions, all as Chrono applies them); small once a motion has settled."""
        return chan.check_equilibrium(self.system, self.L, links=self.links()).residual

    def scaled_jacobian(self):
        """(Cs, row links): Chrono's Cq with translational rows / L and velocity columns x L; link of each row."""
        Cq = chan.constraint_jacobian(self.system).toarray()
        row_scale = np.ones(Cq.shape[0])
        row_link = [None] * Cq.shape[0]
        for link in self.links():
            kinds = chan._row_kinds(link)
            off = link.GetOffset_L()
            for i, k in enumerate(kinds):
                row_scale[off + i] = 1.0 / self.L if k == "t" else 1.0
                row_link[off + i] = link.GetName()
        col_scale = np.ones(Cq.shape[1])
        for body in self.built.bodies:
            col_scale[body.GetOffset_w():body.GetOffset_w() + 3] = self.L
        return Cq * row_scale[:, None] * col_scale[None, :], row_link

    def row_rank(self):
        """(singular values of the scaled Cq, row link names, left singular vectors) or None when too large."""
        m = self.system.GetNumConstraints()
        n = self.system.GetNumCoordsVelLevel()
        if m == 0 or m * n > DENSE_CHECK_LIMIT:
            return None
        Cs, rows = self.scaled_jacobian()
        U, s, _ = np.linalg.svd(Cs, full_matrices=False)
        return s, rows, U

    # ------------------------------------------------------------------ run
    def run(self, time, dt, output_interval=None, progress=None):
        """Integrate from 0 to ``time`` (s) with fixed steps ``dt`` (s); returns a :class:`TimeHistory`."""
        n_steps, stride = schedule(time, dt, output_interval)
        dt = float(dt)
        ts = self._timestepper(n_steps * dt, dt)
        clock = wallclock.perf_counter()
        self._start()
        rr = self.row_rank()
        rank0 = None
        if rr is not None:
            s = rr[0]
            rank0 = int(np.sum(s > self.singular_rtol * s[0])) if s[0] > 0 else 0
            self.info["redundant_constraints"] = self.system.GetNumConstraints() - rank0
        else:
            self.info["singular_check"] = "off: the constraint Jacobian is too large for the dense check"
        solver = self._settings["solver"]
        solver = chan.choose_solver(solver, rr is not None and rank0 == self.system.GetNumConstraints())
        self.system.SetSolver(self._solver(solver))
        self.info["solver"] = solver if not self._nsc else f"ADMM ({solver} inside)"
        if not self.singular_check:
            rank0 = None
        self._rank0 = rank0
        motor_work = _Quadrature(len(self.motors), self.alpha, self.gamma)
        contact_work = _Quadrature(6 * len(self.built.bodies), self.alpha, self.gamma)
        contact_work.start(self._contact_forces(rec_rows=None)[1].ravel())
        u = self._velocities()
        damper = _Quadrature(len(self.springs), self.alpha, self.gamma)
        tau, psi, phi, phidot = self._generalised(0.0)
        motor_work.start(tau)
        damper.start(self.c * phidot)
        rec = _Recorder(self)
        rec.record(0.0, motor_work.total, damper.total, phi, self._axial(tau, phi, phidot), -contact_work.total)
        bar = Progress(n_steps * dt, progress, label="dynamics")
        terminated = ts.GetNumTerminated() if hasattr(ts, "GetNumTerminated") else 0
        iterations = 0
        t = 0.0
        try:
            for k in range(1, n_steps + 1):
                self.system.DoStepDynamics(dt)
                t = k * dt
                if hasattr(ts, "GetNumStepIterations"):
                    iterations += ts.GetNumStepIterations()
                failed = None
                n_max = self._settings["max_iterations"]
                if self.integrator == "hht" and ts.GetNumTerminated() > terminated:
                    failed = f"Newton did not converge in {n_max} iterations"
                elif self.integrator == "euler" and ts.GetNumStepIterations() >= n_max:
                    failed = f"Newton did not converge in {n_max} iterations"
                if not self._finite():
                    failed = "the state is not finite (the integration diverged)"
                viol, vname = self.violation()
                if failed is None and not viol <= self.constraint_tol:
                    failed = f"the constraint violation {viol:.3g} exceeds {self.constraint_tol:g}"
                if failed:
                    self._fail(failed, t, viol, vname, rec)
                tau, psi_new, phi_new, phidot = self._generalised(t)
                motor_work.step(tau, psi_new - psi)
                damper.step(self.c * phidot, phi_new - phi)
                psi, phi = psi_new, phi_new
                u_new = self._velocities()
                frame = k % stride == 0 or k == n_steps
                if self.contact is not None:
                    rows, gen = self._contact_forces(rec if frame else None)
                    contact_work.step(gen.ravel(), 0.5 * dt * (u + u_new))
                u = u_new
                if frame:
                    rec.record(t, motor_work.total, damper.total, phi, self._axial(tau, phi, phidot),
                               -contact_work.total)
                if rank0 is not None and (k % self.check_every == 0 or k == n_steps):
                    self._check_singular(t, rec)
                bar.update(t)
        finally:
            bar.close()
        self.info["static_residual"] = self.static_residual()
        self.info.update({"steps": n_steps, "newton_iterations": iterations, "wall_time": wallclock.perf_counter() - clock,
                          "terminated_steps": (ts.GetNumTerminated() - terminated) if hasattr(ts, "GetNumTerminated") else None})
        return rec.history(self.integrator, dt, self.info)

    def _check_singular(self, t, rec, raise_it=True):
        """Sigma ratio of the scaled Cq's row rank at ``t``; raises at a singular configuration or after crossing one.

        Singular: sigma_r / sigma_1 < ``singular_rtol`` (r the row rank at the start). Crossed between
        checks: the ratio has a local minimum below :data:`NEAR_SINGULAR` whose three samples lie on a V
        (the smallest singular value of a path through a singular configuration is |a (t - t*)| near
        it: the middle sample is half the difference of the outer ones, to within a quarter).
        Returns (ratio, row link names, left singular vectors) when it does not raise.
        """
        rr = self.row_rank()
        if rr is None or self._rank0 is None or self._rank0 == 0:
            return None
        s, rows, U = rr
        ratio = float(s[self._rank0 - 1] / s[0])
        if not raise_it:
            return ratio, rows, U
        lead = rows[int(np.argmax(np.abs(U[:, self._rank0 - 1])))]
        hist = self._ratios
        hist.append((t, ratio, lead))
        del hist[:-3]
        crossed = None
        if len(hist) == 3:
            (t0, s0, _), (t1, s1, l1), (t2, s2, _) = hist
            if s1 < NEAR_SINGULAR and s1 < s0 and s1 < s2 and s1 - abs(s0 - s2) / 2 < 0.25 * s1:
                a = (max(s0, s2) - s1) / (t2 - t1)
                crossed = (t1 + (s1 / a if s2 < s0 else -s1 / a), s1, l1)
        if ratio >= self.singular_rtol and crossed is None:
            return ratio, rows, U
        if crossed is None:
            when, what, name = t, f"singular configuration at t = {t:.6g} s", lead
            why = f"the constraint Jacobian lost rank (sigma ratio {ratio:.2e} < {self.singular_rtol:g})"
        else:
            when, smin, name = crossed
            what = f"crossed a singular configuration at t = {when:.6g} s (between checks at {hist[0][0]:.6g} and {t:.6g} s)"
            why = (f"the constraint Jacobian's sigma ratio fell to {smin:.2e} at t = {hist[1][0]:.6g} s along a V whose "
                   f"zero is at t = {when:.6g} s: the motion there is not determined (it may switch branch)")
            ratio = smin
        raise DynamicsError(f"{self.structure.name}: {what}: {why}; the dependent constraints are led by {name}; "
                            f"stopping instead of integrating through it", when, self._names.get(name),
                            rec.history(self.integrator, self.system.GetStep(), self.info), ratio)

    def _fail(self, what, t, viol, vname, rec):
        h = self._names.get(vname)
        where = f"largest constraint violation {viol:.3g} at {vname}" if vname else "no constraint violated"
        extra = ""
        if self._rank0:
            try:
                rr = self._check_singular(t, rec, raise_it=False)
            except Exception:   # the failed state may not even give a Jacobian
                rr = None
            if rr is not None:
                ratio, rows, U = rr
                u = np.abs(U[:, self._rank0 - 1])
                lead = rows[int(np.argmax(u))]
                if ratio < 1e-3:
                    extra = (f"; the configuration is singular or nearly (constraint Jacobian sigma ratio "
                             f"{ratio:.2e}, dependent constraints led by {lead}): the mechanism jams or crosses a "
                             f"singular configuration")
                    if h is None:
                        h = self._names.get(lead)
        dt = self.system.GetStep()
        raise DynamicsError(f"{self.structure.name}: {what} at t = {t:.6g} s ({self.integrator}, dt = {dt:g} s); "
                            f"{where}{extra}. Try a smaller dt, or check the motors against the mechanism",
                            t, h, rec.history(self.integrator, dt, self.info))


class _Recorder:
    """Output frames of a run, turned into a :class:`TimeHistory`."""

    def __init__(self, sim):
        self.sim = sim
        self.rows = {k: [] for k in ("t", "kinetic", "potential", "spring", "work", "dissipated", "p", "L",
                                     "violation", "hinges", "supports", "vertices", "velocities", "axial", "contact",
                                     "contacts")}
        self.contact_rows = []
        b = sim.built
        self.load_points0 = [b.material_point(p, x) for p, x, _ in sim.dead_loads]

    def record(self, t, motor_work, dissipated, phi, axial, contact=0.0):
        sim, b = self.sim, self.sim.built
        x, R, v, w, wl = sim.panel_state()
        m = sim.mass
        kin = 0.5 * float(np.sum(m * np.sum(v * v, axis=1)))
        kin += 0.5 * sum(float(o @ J @ o) for o, J in zip(wl, sim.inertia))
        pot = -float(np.sum(m * (x @ sim.g)))
        spring = 0.5 * float(np.sum(sim.k * (phi - sim.rest) ** 2)) if len(sim.k) else 0.0
        load_work = sum(float(F @ (b.material_point(p, xp) - x0))
                        for (p, xp, F), x0 in zip(sim.dead_loads, self.load_points0))
        p_lin = (m[:, None] * v).sum(axis=0)
        L_ang = sum(Rb @ J @ o + np.cross(xb, mb * vb) for Rb, J, o, xb, mb, vb in zip(R, sim.inertia, wl, x, m, v))
        viol, _ = sim.violation()
        wr = chan.hinge_wrenches(b)
        acts = hinge_actions(sim.structure.pattern, sim.structure.hinge_kinds, [(F, M) for _, F, M in wr],
                             rotations=R, midpoints=[mid for mid, _, _ in wr])
        r = self.rows
        r["t"].append(t)
        r["kinetic"].append(kin)
        r["potential"].append(pot)
        r["spring"].append(spring)
        r["work"].append(motor_work + load_work)
        r["dissipated"].append(dissipated)
        r["p"].append(p_lin)
        r["L"].append(np.asarray(L_ang, float) if len(m) else np.zeros(3))
        r["violation"].append(viol)
        r["hinges"].append(acts)
        r["supports"].append(chan.support_reactions(b))
        r["vertices"].append(sim.vertices(x, R))
        r["velocities"].append(np.hstack([w, v]))
        r["axial"].append(axial)
        r["contact"].append(contact)
        r["contacts"].append(self.contact_rows)
        self.contact_rows = []

    def history(self, integrator, dt, info):
        r = self.rows
        return TimeHistory(self.sim.structure, "chrono", integrator, dt if dt is not None else float("nan"),
                           np.array(r["t"]), r["kinetic"], r["potential"], r["spring"], r["work"], r["dissipated"],
                           np.array(r["p"]).reshape(-1, 3), np.array(r["L"]).reshape(-1, 3), r["violation"],
                           list(r["hinges"]), list(r["supports"]), np.array(r["vertices"]), dict(info),
                           np.array(r["velocities"]), np.array(r["axial"]).reshape(len(r["t"]), -1),
                           *((r["contact"], list(r["contacts"])) if self.sim.contact is not None else ()))


def run(structure, *, time, dt, integrator=None, motors=(), springs=(), initial=None, output_interval=None,
        progress=None, **options):
    """The Chrono engine behind ``chrono_origami.analysis.dynamics.dynamics`` (same arguments); a :class:`TimeHistory`.

    ``options``: alpha (HHT, in [-1/3, 0]), max_iterations, reltol, abstol (Newton), solver
    ("sparse_qr", "sparse_lu"), jacobian ("iteration", "step"), constraint_tol, singular_rtol,
    singular_check (False: off), check_every (steps between singularity checks); the module constants
    give the defaults; contact (:func:`check_contact`: the panels' contact, ``.contact.PanelContact``).
    """
    sim = ChronoDynamics(structure, motors, springs, initial, check_integrator("chrono", integrator), **options)
    return sim.run(time, dt, output_interval, progress)
