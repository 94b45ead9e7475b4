"""Fold history: stored frames and per-step residuals (their files: ``report.fold``).

Frames hold vertex positions (V x 3, global frame, the pattern's length
units) at the frame times (s), and the driven values (rad or length). Steps
hold (time, step, Newton iterations, max |F| in scaled units, sigma ratio of
the constraint Jacobian) for every accepted step.
"""
from dataclasses import dataclass, field

import numpy as np

from .table import Table

#: the columns of the fold's tables (:meth:`FoldHistory.tables`)
VERTEX_HEADER = ("vertex", "x", "y", "z")
STEP_HEADER = ("time", "step", "iterations", "residual", "sigma_ratio")


#: a fold to targets: a target is reached when the fold angle is within this of it (deg)
REACHED_DEG = 1e-6


@dataclass
class FoldHistory:
    problem: object
    L: float
    times: list = field(default_factory=list)
    vertices: list = field(default_factory=list)
    drive_values: list = field(default_factory=list)
    residuals: list = field(default_factory=list)
    sigma_ratios: list = field(default_factory=list)
    steps: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    singular_start: bool = False
    final_poses: tuple = None
    vertex_spread: float = None
    engine: str = "reference"
    #: the panels' contacts of the frames (``analysis.contact.Contacts``) when they were checked
    contacts: object = None
    #: a fold to targets: (largest |fold angle - aim| in deg, its hinge, 0-based or None) at the end
    target_miss: tuple = (0.0, None)
    #: a fold to targets: the percent of the targets reached (least squares on the targets' direction)
    percent_reached: float = None
    #: a fold to targets: the percent of the targets each stored frame reached (as ``percent_reached``: its drive
    #: values projected on the targets' change), not the percent it aimed at (the fold lags its aim)
    frame_percents: list = None

    @property
    def targets_reached(self):
        """Whether a fold to targets reached every target (within :data:`REACHED_DEG`)."""
        return self.target_miss[1] is None or self.target_miss[0] <= REACHED_DEG

    def record(self, t, vertices, drive_values, residual, ratio, iterations=0, step=0.0):
        self.times.append(float(t))
        self.vertices.append(np.array(vertices, float))
        self.drive_values.append(np.array(drive_values, float))
        self.residuals.append(float(residual))
        self.sigma_ratios.append(float(ratio))

    def vertex_table(self, frame=-1):
        """``vertices``: vertex (1-based), x, y, z of one frame (default the last; global frame, the pattern's
        length units)."""
        X = self.vertices[frame]
        k = frame % len(self.vertices)
        return Table("vertices", VERTEX_HEADER, ((i + 1, *x) for i, x in enumerate(X)),
                     {"frame": k, "time": float(self.times[k]), "engine": self.engine})

    def step_table(self):
        """``steps``: time (s), step (s), Newton iterations, residual (scaled), sigma ratio of every accepted step."""
        return Table("steps", STEP_HEADER, self.steps, {"engine": self.engine, "units": {"time": "s", "step": "s"}})

    def tables(self, frame=-1):
        """The fold's tables: :meth:`vertex_table` of ``frame`` and :meth:`step_table`."""
        return [self.vertex_table(frame), self.step_table()]

    @property
    def final(self):
        """Vertex positions (V x 3) of the last stored frame."""
        return self.vertices[-1]

    @property
    def max_residual(self):
        """Largest constraint residual over all accepted steps (scaled units)."""
        vals = [s[3] for s in self.steps] + self.residuals
        return max(vals) if vals else 0.0

    # ---------------------------------------------------------------- as a FOLD dict (files: report.fold)
    def to_fold(self):
        """FOLD dict (``foldfile.fold_dict``): the start as frame 0, every later stored frame in ``file_frames``.

        Each frame inherits the topology from frame 0 and sets its
        ``vertices_coords`` and fold angles; ``frame_title`` and the custom key
        ``origami:time`` give its fold time (s). ``file_title`` is the structure's name,
        ``file_description`` says which fold made the history.
        """
        from ..structure import foldfile

        st = self.problem.structure
        start = st.with_pattern(st.pattern.with_vertices(self.vertices[0]))
        d = foldfile.fold_dict(start, frames=[np.asarray(X) for X in self.vertices[1:]], times=self.times[1:])
        d["file_title"] = st.name            # the structure's name: a frame read back is "<name>, frame k (t = ...)"
        d["file_description"] = f"{self.problem.name}: fold history ({self.engine} engine)"
        # rates as a person reads them: a rotation in FOLD's sign (rad/s of fold angle, valley positive)
        d["origami:drives"] = [{"hinge": dr.hinge + 1, "kind": dr.kind,
                                "rate": (-1 if dr.kind == "rotation" else 1) * dr.speed(self.problem.duration)}
                               for dr in self.problem.drives]
        return d
