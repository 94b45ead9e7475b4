"""Fold history: stored frames, per-step residuals, and their export.

Frames hold vertex positions (V x 3, global frame, the pattern's length
units) at the frame times (s), and the driven values (rad or length). Steps
hold (time, step, Newton iterations, max |F| in scaled units, sigma ratio of
the constraint Jacobian) for every accepted step.
"""
import csv
import json
import os
from dataclasses import dataclass, field

import numpy as np


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

    def record(self, t, vertices, drive_values, residual, ratio, iterations=0, step=0.0):
        self.times.append(float(t))
        self.vertices.append(np.array(vertices, float))
        self.drive_values.append(np.array(drive_values, float))
        self.residuals.append(float(residual))
        self.sigma_ratios.append(float(ratio))

    @property
    def final(self):
        """Vertex positions (V x 3) of the last stored frame."""
        return self.vertices[-1]

    @property
    def max_residual(self):
        """Largest constraint residual over all accepted steps (scaled units)."""
        vals = [s[3] for s in self.steps] + self.residuals
        return max(vals) if vals else 0.0

    # ---------------------------------------------------------------- export
    def write_vertices_csv(self, path, frame=-1):
        """``vertex,x,y,z`` (1-based vertices) of one frame (default: the last)."""
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        X = self.vertices[frame]
        with open(path, "w") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(("vertex", "x", "y", "z"))
            for i, x in enumerate(X):
                w.writerow([i + 1] + [f"{c:.9e}" for c in x])

    def write_steps_csv(self, path):
        """``time,step,iterations,residual,sigma_ratio`` for every accepted step."""
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "w") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(("time", "step", "iterations", "residual", "sigma_ratio"))
            for t, h, it, res, ratio in self.steps:
                w.writerow([f"{t:.9g}", f"{h:.6g}", it, f"{res:.3e}", f"{ratio:.3e}"])

    def to_fold(self):
        """FOLD dict (``foldfile.fold_dict``): the start as frame 0, every later stored frame in ``file_frames``.

        Each frame inherits the topology from frame 0 and sets its
        ``vertices_coords`` and fold angles; ``frame_title`` and the custom key
        ``origami:time`` give its fold time (s).
        """
        from ..structure import foldfile

        st = self.problem.structure
        start = st.with_pattern(st.pattern.with_vertices(self.vertices[0]))
        d = foldfile.fold_dict(start, frames=[np.asarray(X) for X in self.vertices[1:]], times=self.times[1:])
        d["file_title"] = f"{self.problem.name}: fold history ({self.engine} engine)"
        # rates as a person reads them: a rotation in FOLD's sign (rad/s of fold angle, valley positive)
        d["origami:drives"] = [{"hinge": dr.hinge + 1, "kind": dr.kind,
                                "rate": (-1 if dr.kind == "rotation" else 1) * dr.speed(self.problem.duration)}
                               for dr in self.problem.drives]
        return d

    def write_fold(self, path):
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "w") as f:
            json.dump(self.to_fold(), f, indent=1)
