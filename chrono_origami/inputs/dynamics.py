"""Inputs of a dynamic analysis, engine-neutral: hinge motors, crease springs, the initial state.

All indices are 0-based in Python and 1-based in every message.

Hinge angle convention
----------------------
For hinge h with vertices (a, b) as run by its first panel p and second
panel q (``pattern.hinges[h]``), t = (x_b - x_a) / |x_b - x_a| is the hinge
axis as run by p.

* A :class:`Motor` drives the *relative rotation* psi of q with respect to p
  about t, right-hand rule, measured from the initial configuration (psi = 0
  at t = 0), rad; its speed psi_dot is rad/s; its torque (N m, moment units)
  acts on q about +t and on p about -t. This is the convention of the folding
  module's ``Drive`` (``inputs.fold.hinge_angle``).
* A :class:`CreaseSpring` acts on the *fold angle* phi of
  ``chrono_origami.structure.foldfile.fold_angles`` (in rad): the signed angle between
  the panels' normals, positive valley. Then d phi = -d psi: a positive motor
  rotation closes a valley. The spring-damper moment about the axis, in the
  phi direction, is ``-stiffness (phi - rest) - damping phi_dot``; it stores
  ``stiffness (phi - rest)^2 / 2`` and dissipates ``damping phi_dot^2`` (power).

Functions of time
-----------------
A motor's function is a Python callable t -> value, a number, or a text
parsed by :class:`~.expression.Expression` (the CLI's ``--motor H:FUNC``),
whose derivatives are exact; a callable's derivatives are central
differences (:func:`~.expression.derivative`) unless it has a
``derivative()`` method.
"""
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from ..tools.errors import OrigamiError, StructureError, positive
from ..tools.geometry import best_rigid_alignment
from ..tools.linalg import min_norm_lstsq
from .expression import as_function

MOTOR_MODES = ("angle", "speed", "torque")
#: largest rigid misfit of a panel's vertices in an initial configuration, fraction of the pattern size
CONFIGURATION_RTOL = 1e-9
#: the integrators of each engine, its default first (``analysis.dynamics``'s module doc)
INTEGRATORS = {"chrono": ("hht", "euler", "euler-linearized"), "reference": ("reduced", "constrained")}


def check_integrator(engine, integrator):
    """The integrator name for ``engine`` (its default for None); a one-line OrigamiError naming both otherwise."""
    names = INTEGRATORS[engine]
    if integrator is None:
        return names[0]
    if integrator not in names:
        raise OrigamiError(f"the {engine} engine has no integrator {integrator!r}; its integrators are "
                           f"{', '.join(names)}")
    return integrator


# ======================================================================= motors and springs
def _check_hinge(hinge, what):
    if not (isinstance(hinge, (int, np.integer)) and not isinstance(hinge, bool) and hinge >= 0):
        shown = hinge + 1 if isinstance(hinge, (int, np.integer)) and not isinstance(hinge, bool) else repr(hinge)
        raise StructureError(f"{what}: hinge {shown} is not a hinge number (hinges are numbered from 1)")
    return int(hinge)


def _nonnegative(value, what):
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise StructureError(f"{what} must be a finite non-negative number, got {value!r}") from None
    if not (np.isfinite(x) and x >= 0):
        raise StructureError(f"{what} must be a finite non-negative number, got {value!r}")
    return x


@dataclass(frozen=True)
class Motor:
    """Hinge motor on hinge ``hinge`` (0-based): ``mode`` "angle" (rad), "speed" (rad/s) or "torque" (N m).

    ``function``: a callable t -> value, a number, or an expression text in t
    (stored as an :class:`Expression`). Angle and speed are the relative
    rotation psi of the hinge's second panel about its first panel's axis t
    (module doc), from the initial configuration; the angle function should
    start at 0 (the engine says so otherwise). A torque acts on the second
    panel about +t.
    """

    hinge: int
    mode: str
    function: object

    def __post_init__(self):
        h = _check_hinge(self.hinge, "motor")
        object.__setattr__(self, "hinge", h)
        if self.mode not in MOTOR_MODES:
            raise StructureError(f"motor on hinge {h + 1}: mode {self.mode!r}; expected one of {MOTOR_MODES}")
        object.__setattr__(self, "function", as_function(self.function, f"motor on hinge {h + 1}"))

    def value(self, t):
        """The prescribed angle (rad), speed (rad/s) or torque (N m) at time t (s)."""
        return float(self.function(t))

    @property
    def units(self):
        return {"angle": "rad", "speed": "rad/s", "torque": "N m"}[self.mode]

    def describe(self):
        text = getattr(self.function, "text", None) or getattr(self.function, "__name__", repr(self.function))
        return f"hinge {self.hinge + 1} {self.mode} = {text} ({self.units})"


@dataclass(frozen=True)
class CreaseSpring:
    """Torsional spring-damper on hinge ``hinge`` (0-based), acting on its fold angle phi (module doc).

    stiffness: moment per rad (>= 0); damping: moment x time per rad (>= 0);
    rest: rest fold angle (rad), None = the initial fold angle.
    """

    hinge: int
    stiffness: float
    damping: float = 0.0
    rest: float = None

    def __post_init__(self):
        h = _check_hinge(self.hinge, "crease spring")
        object.__setattr__(self, "hinge", h)
        object.__setattr__(self, "stiffness", _nonnegative(self.stiffness, f"crease spring on hinge {h + 1}: stiffness"))
        object.__setattr__(self, "damping", _nonnegative(self.damping, f"crease spring on hinge {h + 1}: damping"))
        if self.rest is not None:
            try:
                r = float(self.rest)
            except (TypeError, ValueError):
                r = float("nan")
            if not np.isfinite(r):
                raise StructureError(f"crease spring on hinge {h + 1}: rest angle must be a finite number of "
                                     f"radians or None, got {self.rest!r}")
            object.__setattr__(self, "rest", r)

    def moment(self, phi, phi_dot, rest):
        """Moment in the phi direction (moment units) at fold angle phi (rad) and rate phi_dot (rad/s)."""
        return -self.stiffness * (phi - rest) - self.damping * phi_dot

    def energy(self, phi, rest):
        """Stored energy k (phi - rest)^2 / 2."""
        return 0.5 * self.stiffness * (phi - rest) ** 2


#: contact models of ``dynamics(..., contact=...)``: Chrono's non-smooth (complementarity) and smooth (penalty)
CONTACT_METHODS = ("nsc", "smc")
#: the Chrono integrators each contact method takes, its default first. NSC: the linearised Euler step, Chrono's
#: time stepping of complementarity (one linear complementarity problem per step). SMC: implicit Euler by default:
#: its numerical dissipation damps the penalty's stiff vibration (a panel driven shut rests after one bounce) and
#: its balance error is that dissipation, first order in dt, never a gain. HHT also: Chrono measures the
#: penetration once per step (at its start), so the penalty is explicit within a step; with alpha = 0 the balance
#: closes to second order away from impacts and at least first order through them, but the motion through an
#: impact converges slowly (at dt = 5 ms the panel bounced off with 13 J of the motor's 31 J, at 0.625 ms with
#: 0.03 J); Chrono's alpha = -0.2 damps and loses 8.8 J of 31 J at 5 ms. Neither gained energy on these tests
#: (tests/test_chrono_contact_dynamics.py).
CONTACT_INTEGRATORS = {"nsc": ("euler-linearized",), "smc": ("euler", "hht", "euler-linearized")}


@dataclass(frozen=True)
class ContactMaterial:
    """The panels' contact in dynamics (the Chrono engine: ``engines.chrono.contact``), one material for all.

    method: "nsc" (default: non-smooth, impulses by complementarity; rigid, no penetration but the envelope)
    or "smc" (smooth: a Hertz penalty force on the penetration, with damping from the restitution);
    friction: Coulomb coefficient (static = sliding), >= 0, default 0.3; restitution: in [0, 1], default 0
    (NSC: the normal speed after an impact is restitution x the speed before; SMC: sets the damping);
    young (SMC): Young's modulus, force / length^2 (Pa in SI), default 1e7; poisson (SMC): Poisson's ratio in
    [0, 0.5), default 0.3. Units: the structure's (SI on the command line).
    """

    method: str = "nsc"
    friction: float = 0.3
    restitution: float = 0.0
    young: float = 1e7
    poisson: float = 0.3

    def __post_init__(self):
        if self.method not in CONTACT_METHODS:
            raise StructureError(f"unknown contact method {self.method!r}; expected one of {', '.join(CONTACT_METHODS)}")
        checks = (("friction", lambda x: x >= 0, ">= 0"), ("restitution", lambda x: 0 <= x <= 1, "in [0, 1]"),
                  ("young", lambda x: x > 0, "> 0"), ("poisson", lambda x: 0 <= x < 0.5, "in [0, 0.5)"))
        for name, ok, what in checks:
            try:
                x = float(getattr(self, name))
            except (TypeError, ValueError):
                x = float("nan")
            if not (np.isfinite(x) and ok(x)):
                raise StructureError(f"contact {name} must be a finite number {what}, got {getattr(self, name)!r}")
            object.__setattr__(self, name, x)

    def describe(self):
        text = f"{self.method.upper()}, friction {self.friction:g}, restitution {self.restitution:g}"
        return text + (f", Young's modulus {self.young:g}, Poisson's ratio {self.poisson:g}" if self.method == "smc"
                       else "")


def parse_motor(text, n_hinges):
    """``H:FUNC`` or ``H:MODE:FUNC`` (CLI) -> :class:`Motor`; H 1-based, MODE angle (default), speed, torque."""
    parts = str(text).split(":", 2)
    if len(parts) < 2:
        raise OrigamiError(f"--motor {text!r}: expected H:FUNC or H:MODE:FUNC, e.g. 3:angle:0.5*t")
    mode = "angle"
    if len(parts) == 3 and parts[1].strip() in MOTOR_MODES:
        mode = parts[1].strip()
        func = parts[2]
    else:
        func = text.split(":", 1)[1]
    h = _hinge_number(parts[0], n_hinges, f"--motor {text!r}")
    return Motor(h, mode, func)


def parse_spring(text, n_hinges):
    """``H:K[,C[,REST]]`` (CLI) -> list of :class:`CreaseSpring`: stiffness K, damping C, rest fold angle REST (rad).

    H is a 1-based hinge number, a list ``1,3,5-9`` or ``all`` (every hinge of the structure).
    """
    if ":" not in str(text):
        raise OrigamiError(f"--spring {text!r}: expected H:K[,C[,REST]], e.g. 2:1.5,0.01 (REST in rad)")
    hs, vals = str(text).rsplit(":", 1)
    items = [v.strip() for v in vals.split(",")]
    if not 1 <= len(items) <= 3 or not items[0]:
        raise OrigamiError(f"--spring {text!r}: expected K[,C[,REST]] after the colon")
    try:
        nums = [float(v) if v else None for v in items]
    except ValueError:
        raise OrigamiError(f"--spring {text!r}: K, C and REST must be numbers") from None
    k = nums[0]
    c = nums[1] if len(nums) > 1 and nums[1] is not None else 0.0
    rest = nums[2] if len(nums) > 2 and nums[2] is not None else None
    if hs.strip().lower() == "all":
        hinges = range(n_hinges)
    else:
        hinges = _hinge_list(hs, n_hinges, f"--spring {text!r}")
    return [CreaseSpring(h, k, c, rest) for h in hinges]


def _hinge_number(text, n_hinges, what):
    hinges = _hinge_list(text, n_hinges, what)
    if len(hinges) != 1:
        raise OrigamiError(f"{what}: give one hinge number, got {text!r}")
    return hinges[0]


def _hinge_list(text, n_hinges, what):
    from .fold import parse_hinges

    try:
        return parse_hinges(text, n_hinges)
    except OrigamiError as e:
        raise OrigamiError(f"{what}: {e}") from None


# ======================================================================= initial state
@dataclass(frozen=True)
class InitialState:
    """Initial configuration and velocities; None = the structure's pattern, at rest.

    vertices: (V, 3) vertex positions of a configuration of the pattern
    (global frame; each panel a rigid motion of its reference shape).
    velocities: (P, 6) per panel (omega, v_com), angular velocity (rad/s) and
    velocity of the centre of mass (length/s), global frame. The engines make
    them consistent with the constraints (:func:`consistent_velocities`).
    """

    vertices: object = None
    velocities: object = None

    def __post_init__(self):
        for name, cols in (("vertices", 3), ("velocities", 6)):
            v = getattr(self, name)
            if v is None:
                continue
            a = np.array(v, dtype=float)
            if a.ndim != 2 or a.shape[1] != cols:
                raise StructureError(f"initial {name} must be an array of shape (n, {cols}), got shape {a.shape}")
            if not np.all(np.isfinite(a)):
                row = int(np.argwhere(~np.isfinite(a))[0, 0])
                what = "vertex" if name == "vertices" else "panel"
                raise StructureError(f"initial {name}: {what} {row + 1} has a non-finite value")
            a.setflags(write=False)
            object.__setattr__(self, name, a)

    @classmethod
    def from_fold_frame(cls, source, frame=0, velocities=None):
        """The vertices of frame ``frame`` (0: top level) of a FOLD file path or dict."""
        from ..structure import foldfile

        return cls(foldfile.read_fold(source, frame).pattern.vertices, velocities)

    @classmethod
    def from_history(cls, history, index=-1, time=None):
        """Frame ``index`` (or the one nearest ``time``, s) of a fold history or a :class:`~chrono_origami.results.dynamics.TimeHistory`.

        Velocities come along when the history has them (a TimeHistory with ``velocities``).
        """
        times = np.asarray(getattr(history, "times", None) if hasattr(history, "times") else history.t, float)
        if time is not None:
            index = int(np.argmin(np.abs(times - float(time))))
        n = len(history.vertices)
        if not -n <= index < n:
            raise StructureError(f"the history has {n} frames; there is no frame {index}")
        vel = getattr(history, "velocities", None)
        return cls(np.asarray(history.vertices[index], float), None if vel is None else vel[index])

    def poses(self, structure):
        """(R, d) per panel: the rigid motion x -> R x + d of each panel from the pattern onto ``vertices``.

        Identity motions when ``vertices`` is None. Raises :class:`StructureError` when the
        shape is wrong or a panel is not moved rigidly (misfit > CONFIGURATION_RTOL x size).
        """
        pat = structure.pattern
        if self.vertices is None:
            return [(np.eye(3), np.zeros(3)) for _ in range(pat.n_panels)]
        X = self.vertices
        if X.shape != pat.vertices.shape:
            raise StructureError(f"{structure.name}: the initial configuration has {X.shape[0]} vertices, the "
                                 f"pattern {pat.n_vertices}")
        tol = CONFIGURATION_RTOL * (pat.size or 1.0)
        out = []
        for p, loop in enumerate(pat.panels):
            loop = list(loop)
            R, d = best_rigid_alignment(pat.vertices[loop], X[loop])
            misfit = float(np.abs(pat.vertices[loop] @ R.T + d - X[loop]).max())
            if misfit > tol:
                raise StructureError(f"{structure.name}: the initial configuration moves panel {p + 1} non-rigidly "
                                     f"(vertices off a rigid motion by {misfit:.3g} > {tol:.3g})")
            out.append((R, d))
        return out

    def panel_velocities(self, structure):
        """(P, 6) velocities (omega, v_com), zeros when None; checks the shape."""
        P = structure.pattern.n_panels
        if self.velocities is None:
            return np.zeros((P, 6))
        if self.velocities.shape != (P, 6):
            raise StructureError(f"{structure.name}: initial velocities need one row (omega, v_com) per panel, "
                                 f"{P} x 6, got shape {self.velocities.shape}")
        return np.array(self.velocities)


def consistent_velocities(Cq, v, mass, ct=None, rtol=1e-10, block=6):
    """Velocities ``v`` projected onto the constraints ``Cq v + ct = 0`` in the kinetic-energy metric.

    Returns (v_new, |v_new - v|_M / max(|v|_M, tiny)). ``Cq``: constraint Jacobian (sparse or dense,
    rows x n); ``mass``: the block-diagonal mass matrix M (sparse or dense, ``block`` x ``block``
    blocks along ``v``: one per body), or the list of its blocks; ``ct``: the rheonomic term (default 0). ``v_new`` is the M-orthogonal
    projection, the smallest change of kinetic energy: with M = L L^T and u = L^T v, u_new is the
    minimum-norm correction of u solving (Cq L^-T) u = -ct (LSMR, sparse; redundant rows are fine).
    Raises :class:`~chrono_origami.tools.errors.OrigamiError` when the projected velocities do not satisfy the
    constraints to ``rtol`` (relative to |Cq| |v|).
    """
    v = np.asarray(v, float)
    Cq = sp.csr_matrix(Cq)
    ct = np.zeros(Cq.shape[0]) if ct is None else np.asarray(ct, float)
    if isinstance(mass, (list, tuple)):
        blocks = mass
    else:
        M = sp.csr_matrix(mass)
        blocks = [M[i:i + block, i:i + block].toarray() for i in range(0, M.shape[0], block)]
    chol = [np.linalg.cholesky(np.asarray(B, float)) for B in blocks]
    Linv_T = sp.block_diag([np.linalg.inv(Lb).T for Lb in chol], format="csr")
    Lt = sp.block_diag([Lb.T for Lb in chol], format="csr")
    if Lt.shape[0] != len(v) or Cq.shape[1] != len(v):
        raise ValueError(f"consistent_velocities: v has {len(v)} entries, M is {Lt.shape[0]}, Cq has "
                         f"{Cq.shape[1]} columns")
    if Cq.shape[0] == 0:
        return v.copy(), 0.0
    u = Lt @ v
    W = (Cq @ Linv_T).tocsr()
    r = -ct - Cq @ v
    scale = spla.norm(W) * max(np.linalg.norm(u), 1e-300) + np.linalg.norm(ct)
    if np.linalg.norm(r) <= 1e-15 * scale:
        return v.copy(), 0.0
    du = min_norm_lstsq(W, r, "consistent initial velocities", tol=1e-15, conlim=1e8)
    v_new = Linv_T @ (u + du)
    res = np.linalg.norm(Cq @ v_new + ct)
    if not res <= rtol * max(scale, 1e-300):
        raise OrigamiError(f"the initial velocities cannot be made consistent with the constraints (residual "
                           f"{res:.3g} after projection, relative {res / max(scale, 1e-300):.3g})")
    return v_new, float(np.linalg.norm(du) / max(np.linalg.norm(u), 1e-300))


def check_inputs(structure, motors=(), springs=()):
    """Check motors and springs against ``structure``: existing hinges, one motor per hinge, one spring per hinge.

    Returns (motors, springs) as tuples. Errors name the hinge (1-based).
    """
    H = len(structure.pattern.hinges)
    motors, springs = tuple(motors), tuple(springs)
    for items, cls, what in ((motors, Motor, "motor"), (springs, CreaseSpring, "crease spring")):
        seen = set()
        for x in items:
            if not isinstance(x, cls):
                raise StructureError(f"{what}s must be {cls.__name__} objects, got {x!r}")
            if x.hinge >= H:
                raise StructureError(f"{what} on hinge {x.hinge + 1}: the structure has hinges 1..{H}")
            if x.hinge in seen:
                raise StructureError(f"hinge {x.hinge + 1} has two {what}s")
            seen.add(x.hinge)
    return motors, springs


# ======================================================================= time grid
def schedule(time, dt, output_interval=None):
    """(n_steps, stride): fixed steps of ``dt`` (s) up to ``time`` (s); a frame every ``stride`` steps.

    n_steps = time / dt rounded to the nearest whole number when within 1e-9 of it, else rounded up
    (the run ends at n_steps dt >= time). ``output_interval`` (s, default dt) is rounded to a whole
    number of steps (at least 1). The first (t = 0) and the last step are always output frames.
    Errors name the argument.
    """
    vals = {}
    for name, v in (("time", time), ("dt", dt), ("output_interval", output_interval)):
        if v is None and name == "output_interval":
            continue
        vals[name] = positive(name, v, unit="seconds")
    ratio = vals["time"] / vals["dt"]
    n = int(round(ratio)) if abs(ratio - round(ratio)) <= 1e-9 * max(ratio, 1.0) else int(np.ceil(ratio))
    n = max(n, 1)
    stride = 1 if output_interval is None else max(1, int(round(vals["output_interval"] / vals["dt"])))
    return n, stride
