"""The records of a modal analysis, common to the engines: the linearised system and its modes.

:class:`SystemMatrices` (M, R, K, Cq at an equilibrium), :class:`Mode`,
:class:`ModalResult`, :class:`KcComparison`, :class:`Linearised`, :class:`ModalAnalysis` (``co.modal``). The equations, coordinates and
how modes are classified are in :mod:`chrono_origami.analysis.modal` (the
solvers); tables, CSV and mode animations in :mod:`chrono_origami.report.modal`.
"""
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from .table import Table

#: columns of the modes table (:meth:`ModalResult.table`)
MODE_HEADER = ("mode", "eig_real", "eig_imag", "freq_hz", "stable")


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

    def table(self):
        """``modes``: mode (1-based), eig_real, eig_imag (rad/s), freq_hz, stable of :attr:`modes` (sorted by
        frequency; zero and spurious modes left out), labelled by the method and Kc."""
        rows = [(k + 1, m.eigenvalue.real, m.eigenvalue.imag, m.freq_hz, bool(m.stable))
                for k, m in enumerate(self.modes)]
        return Table("modes", MODE_HEADER, rows,
                     {"method": self.method, "tangent_stiffness": bool(self.use_tangent_stiffness),
                      "units": {"eig_real": "rad/s", "eig_imag": "rad/s", "freq_hz": "Hz"}})

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


@dataclass
class Linearised:
    """A structure's linearised equations at a static equilibrium, as an engine's ``modal`` gives them.

    ``matrices`` (with Kc unless it was switched off) and ``equilibrium`` (the
    engine's record of the static state); ``matrices_without_kc`` and
    ``equilibrium_without_kc``: the same state without Kc, when asked;
    ``built``: the engine's model (Chrono: the ``ChronoStructure``, for mode
    animations), ``springs``: its crease springs (or None).
    """

    matrices: SystemMatrices
    equilibrium: object = None
    matrices_without_kc: SystemMatrices = None
    equilibrium_without_kc: object = None
    built: object = None
    springs: object = None


@dataclass
class StructureModes:
    """A structure's modal analysis: the engine's model (Chrono: the ``ChronoStructure``), its crease springs and
    the modes with and without Kc."""

    built: object
    springs: object
    with_kc: ModalResult
    without_kc: ModalResult = None

    @property
    def comparison(self):
        return KcComparison(self.with_kc, self.without_kc) if self.without_kc is not None else None


#: columns of the ``modes`` table of :class:`ModalAnalysis` (and with a comparison, ``frequency_hz_without_kc``)
ANALYSIS_HEADER = ("mode", "frequency_hz", "eigenvalue", "stable")
#: how many panels name a zero mode (those that move most)
ZERO_MODE_PANELS = 3


@dataclass
class ModalAnalysis:
    """What ``co.modal(structure)`` returns: the lowest modes of a structure at its static equilibrium.

    ``result``: the :class:`ModalResult` asked for (with Kc unless ``kc`` was off: ``result.use_tangent_stiffness``);
    ``without_kc``: the modes without Kc at the same equilibrium, when compared (else None); ``n_modes``: how many
    of the lowest modes are reported; ``structure``: the structure analysed; ``engine``: its name; ``built``: the
    engine's model at the equilibrium (``material_point``, ``com``: for mode animations), ``springs``: the engine's
    crease springs (or None). Zero modes (rigid-body motions and mechanisms that nothing stiffens) are counted and
    named by their panels (:meth:`zero_mode_panels`), never given a frequency.
    """

    structure: object
    engine: str
    result: ModalResult
    without_kc: ModalResult = None
    n_modes: int = 10
    built: object = None
    springs: object = None

    @property
    def modes(self):
        """The lowest ``n_modes`` oscillatory and unstable modes, by frequency (:attr:`ModalResult.modes`)."""
        return self.result.modes[:self.n_modes]

    @property
    def frequencies_hz(self):
        return np.array([m.freq_hz for m in self.modes])

    @property
    def zero_modes(self):
        return self.result.zero_modes

    @property
    def comparison(self):
        """:class:`KcComparison` (with Kc, without) when compared, else None."""
        return KcComparison(self.result, self.without_kc) if self.without_kc is not None else None

    def zero_mode_panels(self, top=ZERO_MODE_PANELS):
        """Per zero mode: the 0-based panels that move most (largest |u| + L |theta| of a panel, L the matrices'
        length scale), at most ``top`` of them, largest first."""
        L = self.result.matrices.length
        out = []
        for m in self.zero_modes:
            x = self.result.shapes_by_body(m)
            size = np.linalg.norm(np.abs(x[:, :3]), axis=1) + L * np.linalg.norm(np.abs(x[:, 3:]), axis=1)
            order = np.argsort(-size, kind="stable")
            big = size[order[0]] if len(order) else 0.0
            out.append([int(p) for p in order[:top] if size[p] > 1e-3 * big])
        return out

    def table(self):
        """``modes``: mode (1-based), frequency_hz (Hz; 0 for a divergence), eigenvalue (omega^2 = -Re lambda^2,
        rad^2/s^2: negative for a divergence), stable; with a comparison also frequency_hz_without_kc (empty where
        the analysis without Kc has fewer modes)."""
        rows = [(k + 1, m.freq_hz, -float((m.eigenvalue ** 2).real), bool(m.stable)) for k, m in enumerate(self.modes)]
        header, types = ANALYSIS_HEADER, ("integer", "number", "number", "boolean")
        if self.without_kc is not None:
            other = self.without_kc.modes
            rows = [r + (other[k].freq_hz if k < len(other) else None,) for k, r in enumerate(rows)]
            header, types = header + ("frequency_hz_without_kc",), types + ("number",)
        return Table("modes", header, rows,
                     {"engine": self.engine, "method": self.result.method,
                      "tangent_stiffness": bool(self.result.use_tangent_stiffness),
                      "zero_modes": len(self.zero_modes),
                      "units": {"frequency_hz": "Hz", "eigenvalue": "rad^2/s^2",
                                **({"frequency_hz_without_kc": "Hz"} if self.without_kc is not None else {})}},
                     types)


#: columns of the table ``path_modes`` (:meth:`PathModes.table`)
PATH_MODES_HEADER = ("frame", "percent", "mode", "frequency_hz")


@dataclass
class PathModes:
    """The lowest modes at every stored frame of a fold (``fold --modes``): ``frames`` (frame numbers),
    ``percents`` (fold percent), ``analyses`` (one :class:`ModalAnalysis` a frame), ``actuators`` (0-based hinges
    held by their motors), ``stiffness`` (N m/rad a hinge: the motors' servo stiffness on the actuators, the crease
    springs elsewhere), ``engine``."""

    structure: object
    actuators: list
    stiffness: np.ndarray
    engine: str
    frames: list = field(default_factory=list)
    percents: list = field(default_factory=list)
    analyses: list = field(default_factory=list)

    def frequencies(self, mode=1):
        """The ``mode``-th frequency (Hz, 1-based) at every frame (nan where the frame has fewer modes)."""
        return np.array([a.frequencies_hz[mode - 1] if len(a.modes) >= mode else np.nan for a in self.analyses])

    def lowest(self):
        """(frequency Hz, index into ``frames``, stable) of the lowest first frequency over the path; None without
        modes. A divergence (unstable, frequency 0) is the lowest."""
        f = self.frequencies(1)
        if not np.any(np.isfinite(f)):
            return None
        k = int(np.nanargmin(f))
        return float(f[k]), k, bool(self.analyses[k].modes[0].stable)

    def table(self):
        """``path_modes``: frame, percent, mode (1-based), frequency_hz (Hz; 0 for a divergence)."""
        rows = [(f, float(p), j + 1, m.freq_hz) for f, p, a in zip(self.frames, self.percents, self.analyses)
                for j, m in enumerate(a.modes)]
        return Table("path_modes", PATH_MODES_HEADER, rows,
                     {"engine": self.engine, "actuators": [h + 1 for h in self.actuators],
                      "tangent_stiffness": True, "units": {"percent": "%", "frequency_hz": "Hz"}},
                     ("integer", "number", "integer", "number"))
