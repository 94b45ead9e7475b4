"""The result of a dynamic analysis, engine-neutral: :class:`TimeHistory` (its files: ``report.dynamics``).

Frames and signs
----------------
Everything is in the global frame and the structure's units (length, mass,
time s, force, energy = force x length). Momenta: linear p = sum m v_com;
angular L = sum (J omega + x_com x m v_com), about the global origin. Hinge
actions and support reactions follow the static convention of
:mod:`chrono_origami.results.static` (row (h, P): the action on panel P from its
neighbour across hinge h, in P's {n, t, m} frame *as moved by P*, about the
hinge midpoint; support reactions: force on the panel, global frame).

Energies (all cumulative from the first output time t0):

* kinetic: sum of (m |v_com|^2 + omega . J omega) / 2;
* potential: gravitational, -sum m g . x_com (zero datum at the origin);
* spring: crease springs, sum k (phi - rest)^2 / 2;
* work: done on the structure by the motors and the dead loads (point loads
  of ``structure.loads``), integral of their power from t0;
* dissipated: by the springs' dampers, integral of c phi_dot^2 from t0 (>= 0);
* contact (with contact only, else None): the energy the panels' contacts took, minus the work of the contact
  forces on the panels from t0 (NSC: what impacts and friction dissipated; SMC: also what the penalty
  springs hold). Each step's work is the contact impulse the integrator applied times the mean of the
  velocities before and after it (an impulse's exact work).

The energy balance ``kinetic + potential + spring - work + dissipated + contact`` is
constant for the exact motion; :attr:`TimeHistory.balance_error` is its change
from t0, :attr:`TimeHistory.energy_scale` the scale to judge it by.
"""
from dataclasses import dataclass, field

import numpy as np

from .static import ACTION_UNITS, HINGE_COLUMNS, SUPPORT_COLUMNS
from .table import Table

#: the columns of the motion's tables (:meth:`TimeHistory.tables`); hinges, panels and vertices 1-based
ENERGY_HEADER = ("t", "kinetic", "potential", "spring", "work", "dissipated", "balance_error")
MOMENTUM_HEADER = ("t", "px", "py", "pz", "Lx", "Ly", "Lz")
CONSTRAINT_HEADER = ("t", "violation")
HINGE_T_HEADER = ("t", "hinge", "panel") + HINGE_COLUMNS
SUPPORT_T_HEADER = ("t", "panel", "vertex") + SUPPORT_COLUMNS
#: contacts.csv: one row per panel pair in contact at an output time: normal and tangential force, the force on
#: panel i (global frame), the mean contact point, the number of points, the moment about the origin
CONTACTS_HEADER = ("t", "panel_i", "panel_j", "N", "T", "Fx", "Fy", "Fz", "x", "y", "z", "points", "Mx", "My", "Mz")


@dataclass
class TimeHistory:
    """Output frames of a dynamic analysis (K frames; module doc for units and conventions).

    t (K,) output times (s); kinetic, potential, spring, work, dissipated (K,) energies;
    linear_momentum, angular_momentum (K, 3); constraint_violation (K,): largest scaled violation
    over the links (translations / L, L the pattern size; rotations as they are, as
    ``engines.chrono.static.link_violation``); hinge_actions, support_reactions: K lists of
    ``results.static.HingeAction`` / ``results.static.SupportReaction``; vertices (K, V, 3).
    Optional: velocities (K, P, 6) per panel (omega, v_com), global frame, to restart from a frame
    (``InitialState.from_history``); hinge_moments (K, H): the moment about each hinge's axis t (as
    run by its first panel p) applied to its second panel q by the hinge's motor, crease spring and
    damper (not by the hinge's links, whose actions are in hinge_actions; zero where there are none);
    info: engine details (steps, Newton iterations, timings...). With contact: contact (K,) (module doc)
    and contact_forces: K lists of rows (i, j, N, T, F (3,), point (3,), n, M (3,)) per panel pair i < j (0-based) in contact
    (``engines.chrono.contact.PanelContact.contacts``: N the summed normal forces, T the magnitude of the summed
    friction forces, F the resultant force on j from i, point the centre of the normal forces, n the number of
    contact points, M the moment of the forces on j from i about the global origin; global frame).
    """

    structure: object
    engine: str
    integrator: str
    dt: float
    t: np.ndarray
    kinetic: np.ndarray
    potential: np.ndarray
    spring: np.ndarray
    work: np.ndarray
    dissipated: np.ndarray
    linear_momentum: np.ndarray
    angular_momentum: np.ndarray
    constraint_violation: np.ndarray
    hinge_actions: list
    support_reactions: list
    vertices: np.ndarray
    info: dict = field(default_factory=dict)
    velocities: np.ndarray = None
    hinge_moments: np.ndarray = None
    contact: np.ndarray = None
    contact_forces: list = None

    def __post_init__(self):
        self.t = np.asarray(self.t, float)
        K = len(self.t)
        for name in ("kinetic", "potential", "spring", "work", "dissipated", "constraint_violation"):
            a = np.asarray(getattr(self, name), float)
            if a.shape != (K,):
                raise ValueError(f"TimeHistory.{name} has shape {a.shape}, expected ({K},) (one per output time)")
            setattr(self, name, a)
        for name in ("linear_momentum", "angular_momentum"):
            a = np.asarray(getattr(self, name), float)
            if a.shape != (K, 3):
                raise ValueError(f"TimeHistory.{name} has shape {a.shape}, expected ({K}, 3)")
            setattr(self, name, a)
        V = self.structure.pattern.n_vertices
        self.vertices = np.asarray(self.vertices, float)
        if self.vertices.shape != (K, V, 3):
            raise ValueError(f"TimeHistory.vertices has shape {self.vertices.shape}, expected ({K}, {V}, 3)")
        for name in ("hinge_actions", "support_reactions"):
            if len(getattr(self, name)) != K:
                raise ValueError(f"TimeHistory.{name} has {len(getattr(self, name))} frames, expected {K}")
        if self.velocities is not None:
            self.velocities = np.asarray(self.velocities, float)
            P = self.structure.pattern.n_panels
            if self.velocities.shape != (K, P, 6):
                raise ValueError(f"TimeHistory.velocities has shape {self.velocities.shape}, expected ({K}, {P}, 6)")
        if self.contact is not None:
            self.contact = np.asarray(self.contact, float)
            if self.contact.shape != (K,):
                raise ValueError(f"TimeHistory.contact has shape {self.contact.shape}, expected ({K},)")
            if self.contact_forces is None or len(self.contact_forces) != K:
                raise ValueError(f"TimeHistory.contact_forces needs {K} frames of contact rows with the contact energy")
        if self.hinge_moments is not None:
            self.hinge_moments = np.asarray(self.hinge_moments, float)
            H = len(self.structure.pattern.hinges)
            if self.hinge_moments.shape != (K, H):
                raise ValueError(f"TimeHistory.hinge_moments has shape {self.hinge_moments.shape}, expected ({K}, {H})")

    def tables(self):
        """The motion's tables (``results.table``): energy (ENERGY_HEADER), momentum (global frame, L about the
        origin), constraints (the largest scaled violation), hinges_t and supports_t (every row of every output
        frame), labelled by the engine, the integrator and dt."""
        h = self
        meta = {"engine": self.engine, "integrator": self.integrator, "dt": float(self.dt), "units": {"t": "s"}}
        cols = [h.t, h.kinetic, h.potential, h.spring, h.work, h.dissipated, h.balance_error]
        header = list(ENERGY_HEADER)
        if h.contact is not None:            # the energy the contacts took, before balance_error
            cols.insert(-1, h.contact)
            header.insert(-1, "contact")
        energy = zip(*cols)
        momentum = ((t, *p, *L) for t, p, L in zip(h.t, h.linear_momentum, h.angular_momentum))
        hinges = ((t, *r) for k, t in enumerate(h.t) for r in h.hinge_rows(k))
        supports = ((t, *r) for k, t in enumerate(h.t) for r in h.support_rows(k))
        contacts = []
        if h.contact is not None:            # one row per panel pair in contact per output time, 1-based panels
            rows = ((t, i + 1, j + 1, N, T, *F, *x, n, *M) for t, frame in zip(h.t, h.contact_forces)
                    for i, j, N, T, F, x, n, M in frame)
            contacts = [Table("contacts", CONTACTS_HEADER, rows,
                              dict(meta, units={"t": "s", "N": "force", "T": "force", "M": "force x length"}))]
        return [Table("energy", header, energy, meta),
                Table("momentum", MOMENTUM_HEADER, momentum, meta),
                Table("constraints", CONSTRAINT_HEADER, zip(h.t, h.constraint_violation), meta),
                Table("hinges_t", HINGE_T_HEADER, hinges, dict(meta, units={"t": "s", **ACTION_UNITS})),
                Table("supports_t", SUPPORT_T_HEADER, supports, dict(meta, units={"t": "s", **ACTION_UNITS}))] + contacts

    def __len__(self):
        return len(self.t)

    # ---------------------------------------------------------------- energy
    @property
    def balance(self):
        """kinetic + potential + spring - work + dissipated + contact (K,)."""
        b = self.kinetic + self.potential + self.spring - self.work + self.dissipated
        return b if self.contact is None else b + self.contact

    @property
    def balance_error(self):
        """The energy balance minus its value at the first output time (K,); zero for the exact motion."""
        b = self.balance
        return b - b[0]

    @property
    def energy_scale(self):
        """The largest energy any term holds or exchanges over the run: max over time of |kinetic|,
        |spring|, and the changes from t0 of potential, spring, work and dissipated; at least 1e-9 of
        (total load x pattern size), the loads being the weights and dead loads (so that a structure
        that does not move does not measure round-off by round-off); 1 when all are 0.

        Relative balance checks divide :attr:`balance_error` by it.
        """
        terms = [np.abs(self.kinetic), np.abs(self.spring)]
        terms += [np.abs(a - a[0]) for a in (self.potential, self.spring, self.work, self.dissipated)
                  + ((self.contact,) if self.contact is not None else ())]
        s = float(max(a.max() for a in terms)) if len(self.t) else 0.0
        st = self.structure
        load = sum(float(np.linalg.norm(F)) for _, _, F in st.panel_loads())
        s = max(s, 1e-9 * load * (st.pattern.size or 1.0))
        return s if s > 0 else 1.0

    @property
    def total_energy(self):
        """kinetic + potential + spring (K,): constant for a conservative system with no motor or load work."""
        return self.kinetic + self.potential + self.spring

    # ---------------------------------------------------------------- tables
    def index(self, time):
        """Index of the output frame nearest to ``time`` (s)."""
        return int(np.argmin(np.abs(self.t - float(time))))

    def hinge_rows(self, k=-1):
        """Rows (hinge, panel, MT, MP, MO, N, TP, TO) of frame ``k``, 1-based numbers."""
        return [(a.hinge + 1, a.panel + 1, *a.values) for a in self.hinge_actions[k]]

    def support_rows(self, k=-1):
        """Rows (panel, vertex, Fx, Fy, Fz) of frame ``k``, 1-based numbers."""
        return [(r.panel + 1, r.vertex + 1, *r.force) for r in self.support_reactions[k]]

    def hinge_series(self):
        """(K, R, 6) array of the hinge rows' (MT, MP, MO, N, TP, TO) over time, R rows per frame."""
        return np.array([[a.values for a in frame] for frame in self.hinge_actions]).reshape(len(self.t), -1, 6)

    def peak(self, column):
        """(|value|, signed value, time, hinge, panel) of the largest |``column``| over all frames and hinge rows.

        ``column``: one of MT, MP, MO, N, TP, TO. Hinge and panel are 1-based.
        """
        if column not in HINGE_COLUMNS:
            raise ValueError(f"unknown hinge column {column!r}; expected one of {HINGE_COLUMNS}")
        c = HINGE_COLUMNS.index(column)
        best = (-1.0, 0.0, 0.0, 0, 0)
        for k, frame in enumerate(self.hinge_actions):
            for a in frame:
                v = float(a.values[c])
                if abs(v) > best[0]:
                    best = (abs(v), v, float(self.t[k]), a.hinge + 1, a.panel + 1)
        return best

    def peaks_text(self, columns=("MO", "N")):
        """One line per column: the largest |value| over time and hinge rows, where and when (1-based)."""
        lines = []
        for c in columns:
            a, v, t, h, p = self.peak(c)
            lines.append(f"peak |{c}| = {a:.6g} ({c} = {v:.6g}) at t = {t:.6g} s, hinge {h}, panel {p}")
        return "\n".join(lines)

    def summary(self):
        """A few lines: the run, the energy balance, momentum and constraint drift."""
        st = self.structure
        err = np.abs(self.balance_error).max()
        p0 = np.linalg.norm(self.linear_momentum, axis=1)
        lines = [f"{st.name}: {self.engine} engine, {self.integrator}, dt = {self.dt:g} s, "
                 f"t = {self.t[0]:g} .. {self.t[-1]:g} s, {len(self.t)} output frames",
                 f"energy balance error: max {err:.3e} (relative to the energy scale {self.energy_scale:.3e}: "
                 f"{err / self.energy_scale:.3e})",
                 f"largest constraint violation {self.constraint_violation.max():.3e} (translations / L, rotations)",
                 f"linear momentum |p|: {p0[0]:.6g} at t0, {p0[-1]:.6g} at the end"]
        if self.contact is not None:
            best = max(((N, t, i, j) for t, frame in zip(self.t, self.contact_forces) for i, j, N, *_ in frame),
                       default=None)
            lines.append(f"contact: energy taken {self.contact[-1] - self.contact[0]:.6g}; "
                         + (f"largest normal force {best[0]:.6g} at t = {best[1]:.6g} s, panels {best[2] + 1} and "
                            f"{best[3] + 1}" if best is not None and best[0] > 0 else "no contact force"))
        return "\n".join(lines)
