"""Results of the analyses, common to the reference and Chrono engines: statics, and the modal records.

The records of a modal analysis (:class:`SystemMatrices`, :class:`Mode`,
:class:`ModalResult`, :class:`KcComparison`) are at the end; their solvers are
in :mod:`chrono_origami.modal`, their tables and exports in
:mod:`chrono_origami.report.modal`.

Hinge internal actions (paper sec. 4.2, Fig. 3)
-----------------------------------------------
For hinge h and an adjacent panel P with neighbour Q, the row (h, P) is the
action applied *to P by Q*, reduced to the hinge-edge midpoint and projected on
P's right-handed frame {n, t, m}:

* m: normal of P (right-hand rule on P's vertex loop);
* t: edge tangent, in the direction P's loop runs the edge;
* n = t x m: in P's plane, normal to the edge, pointing out of P.

Force components (N, TP, TO) = F.(n, t, m): normal force (N > 0 tension: the
neighbour pulls P across the edge; N < 0 compression), parallel shear,
orthogonal shear. Moment components (MT, MP, MO) = M.(n, t, m): twisting,
parallel and orthogonal moment. The components along the motions the hinge's
kind leaves free vanish (``chrono_origami.hinges``): MP (rotation about t)
for door and sliding hinges, TP (translation along t) for sliding hinges.
Rows (h, P) and (h, Q) describe the same hinge from its two sides (action
and reaction).

Support reactions: force applied to the panel by the support, global frame.
"""
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from .geometry import edge_frame

HINGE_COLUMNS = ("MT", "MP", "MO", "N", "TP", "TO")
SUPPORT_COLUMNS = ("Fx", "Fy", "Fz")


@dataclass
class HingeAction:
    """Action on ``panel`` from ``neighbour`` across ``hinge`` (0-based indices)."""

    hinge: int
    panel: int
    neighbour: int
    kind: str
    midpoint: np.ndarray
    frame: np.ndarray      # columns n, t, m of ``panel``
    force: np.ndarray      # global frame
    moment: np.ndarray     # global frame, about the midpoint

    @property
    def values(self):
        """(MT, MP, MO, N, TP, TO)."""
        return np.concatenate([self.frame.T @ self.moment, self.frame.T @ self.force])

    def as_dict(self):
        return dict(zip(HINGE_COLUMNS, self.values))


@dataclass
class SupportReaction:
    support: int
    vertex: int
    panel: int
    dofs: str
    force: np.ndarray


@dataclass
class StaticResult:
    """Internal actions and reactions of a static analysis.

    ``status`` is "determined" (M = 0, S = 0: the unique answer) or
    "minimum-norm" (M > 0 or S > 0: one particular solution among many; the
    self-stress states in ``self_stress_actions`` may be added in any amount).
    """

    structure: object
    engine: str
    status: str
    M: int
    S: int
    hinge_actions: list
    support_reactions: list
    equilibrium_residual: float
    self_stress_actions: list = field(default_factory=list)   # one list of HingeAction per state
    info: dict = field(default_factory=dict)

    def hinge_rows(self, pairs=None):
        """Rows (hinge, panel, MT..TO) with 1-based numbers; ``pairs`` selects (hinge, panel), 1-based."""
        rows = [(a.hinge + 1, a.panel + 1, *a.values) for a in self.hinge_actions]
        if pairs is not None:
            index = {(r[0], r[1]): r for r in rows}
            missing = [p for p in pairs if tuple(p) not in index]
            if missing:
                raise KeyError(f"no hinge action for (hinge, panel) {missing[0]}")
            rows = [index[tuple(p)] for p in pairs]
        return rows

    def support_rows(self):
        """Rows (panel, vertex, Fx, Fy, Fz), 1-based."""
        return [(r.panel + 1, r.vertex + 1, *r.force) for r in self.support_reactions]

    def action(self, hinge, panel):
        """HingeAction for 0-based hinge and panel."""
        for a in self.hinge_actions:
            if a.hinge == hinge and a.panel == panel:
                return a
        raise KeyError(f"hinge {hinge + 1} has no side on panel {panel + 1}")


def hinge_actions(pattern, kinds, wrenches, rotations=None, midpoints=None):
    """Both sides of every hinge from the action on each hinge's *second* panel.

    ``wrenches[h] = (force, moment about the midpoint)`` applied to panel q by
    panel p, where (p, q) = pattern.hinges[h].panels. Returns rows ordered by
    hinge, then panel number.

    Without ``rotations`` (statics) the wrenches and the frames are those of
    the reference configuration ``pattern.vertices``. With ``rotations`` (one
    3x3 rotation per panel, from the reference to the current configuration,
    e.g. during a motion) the wrenches are global and about the current
    midpoints ``midpoints[h]``; each row's frame is its panel's {n, t, m}
    rotated with the panel, so the row's values are the components of the
    action in the moving panel frame (p's row: the opposite wrench).
    """
    X = pattern.vertices
    H = len(pattern.hinges)
    if H == 0:
        return []
    ab = np.array([h.vertices for h in pattern.hinges])
    pq = np.array([h.panels for h in pattern.hinges])
    F = np.array([np.asarray(w[0], float) for w in wrenches]).reshape(H, 3)
    Mm = np.array([np.asarray(w[1], float) for w in wrenches]).reshape(H, 3)
    mids = 0.5 * (X[ab[:, 0]] + X[ab[:, 1]]) if midpoints is None else np.asarray(midpoints, float)
    normals = pattern.panel_normals
    fp = edge_frame(X[ab[:, 0]], X[ab[:, 1]], normals[pq[:, 0]])
    fq = edge_frame(X[ab[:, 1]], X[ab[:, 0]], normals[pq[:, 1]])
    if rotations is not None:
        R = np.asarray(rotations, float)
        fp, fq = R[pq[:, 0]] @ fp, R[pq[:, 1]] @ fq
    out = []
    for h in range(H):
        p, q = int(pq[h, 0]), int(pq[h, 1])
        sides = [(p, q, fp[h], -F[h], -Mm[h]), (q, p, fq[h], F[h], Mm[h])]
        for panel, nb, frame, f, mm in sorted(sides, key=lambda s: s[0]):
            out.append(HingeAction(h, panel, nb, kinds[h], mids[h], frame, f, mm))
    return out


# ------------------------------------------------------------------ modal analysis
@dataclass
class SystemMatrices:
    """M, R, K, Cq (SciPy CSR) in the coordinates of the module doc and what they were taken from.

    ``bodies``: names of the active bodies (6 coordinates each, in order);
    ``rotations``: their rotation matrices (body axes in the global frame), to
    turn the body-frame rotations of a mode into global ones; ``positions``:
    their reference points (global); ``length``: the length scale used to
    balance translations and rotations (x L); ``multipliers``: the constraint
    multipliers L at the equilibrium (Kc depends on them), when known.
    """

    M: sp.csr_matrix
    R: sp.csr_matrix
    K: sp.csr_matrix
    Cq: sp.csr_matrix
    bodies: list
    rotations: np.ndarray
    positions: np.ndarray
    length: float
    use_tangent_stiffness: bool
    multipliers: np.ndarray = None
    info: dict = field(default_factory=dict)

    @property
    def n(self):
        return self.M.shape[0]

    @property
    def m(self):
        return self.Cq.shape[0]

    def scaling(self):
        """Diagonal D (translations 1, rotations 1/length): coordinates D^-1 x have length units throughout."""
        return np.tile([1.0, 1.0, 1.0, 1.0 / self.length, 1.0 / self.length, 1.0 / self.length], self.n // 6)


@dataclass
class Mode:
    """One eigenpair. ``eigenvalue``: lambda (rad/s, complex); ``shape``: x (complex, Chrono's coordinates).

    ``kind``: oscillatory, unstable, zero or spurious; ``residual``: relative
    residual of the linearised equations, ``constraint``: |Cq x| / (|Cq| |x|).
    """

    eigenvalue: complex
    kind: str
    shape: np.ndarray
    residual: float = 0.0
    constraint: float = 0.0

    @property
    def omega(self):
        """Damped circular frequency |Im lambda| (rad/s); 0 for a non-oscillatory mode."""
        return abs(self.eigenvalue.imag)

    @property
    def freq_hz(self):
        return self.omega / (2 * np.pi)

    @property
    def natural_rad_s(self):
        """|lambda| (rad/s): the undamped natural circular frequency, or the growth rate of a divergence."""
        return abs(self.eigenvalue)

    @property
    def stable(self):
        return self.kind != "unstable"


@dataclass
class ModalResult:
    """Modes at an equilibrium; ``modes`` are the oscillatory and unstable ones sorted by frequency.

    ``zero_modes``/``spurious``: the others (see the module doc);
    ``n_infinite``: eigenvalues at infinity dropped; ``matrices``: the
    :class:`SystemMatrices` used. Frames: mode shapes in the matrices' coordinates;
    :meth:`body_shape` gives them per body in the global frame.
    """

    all_modes: list
    matrices: SystemMatrices
    method: str
    n_infinite: int = 0
    n_redundant: int = 0
    equilibrium: object = None     # the static analysis it was taken at (chrono.analysis.Equilibrium)
    info: dict = field(default_factory=dict)

    @property
    def use_tangent_stiffness(self):
        return self.matrices.use_tangent_stiffness

    @property
    def modes(self):
        good = [m for m in self.all_modes if m.kind in ("oscillatory", "unstable")]
        return sorted(good, key=lambda m: (m.freq_hz, m.natural_rad_s))

    @property
    def zero_modes(self):
        return [m for m in self.all_modes if m.kind == "zero"]

    @property
    def spurious(self):
        return [m for m in self.all_modes if m.kind == "spurious"]

    @property
    def unstable(self):
        return [m for m in self.modes if m.kind == "unstable"]

    @property
    def frequencies_hz(self):
        return np.array([m.freq_hz for m in self.modes])

    @property
    def eigenvalues(self):
        return np.array([m.eigenvalue for m in self.modes])

    def body_shape(self, mode, body):
        """(translation, rotation) of ``body`` (index or name) in ``mode`` (a :class:`Mode`): complex 3-vectors, global frame.

        Translation of the centre of mass; rotation vector (small rotation) of the body.
        """
        if isinstance(body, str):
            body = self.matrices.bodies.index(body)
        x = mode.shape[6 * body:6 * body + 6]
        return x[:3], self.matrices.rotations[body] @ x[3:]

    def shapes_by_body(self, mode):
        """(n_bodies x 6) complex: translation then rotation of each body, global frame."""
        return np.array([np.concatenate(self.body_shape(mode, i)) for i in range(len(self.matrices.bodies))])


@dataclass
class KcComparison:
    """Modes at the same equilibrium with and without Kc."""

    with_kc: ModalResult
    without_kc: ModalResult
