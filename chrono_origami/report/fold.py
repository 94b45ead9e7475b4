"""The files of a fold history (``results.fold.FoldHistory``), written by ``tables.write_csv`` and as FOLD.

``vertices.csv`` (vertex,x,y,z of one frame, 1-based vertices),
``steps.csv`` (time,step,iterations,residual,sigma_ratio of every accepted
step) and ``fold.fold`` (the history as FOLD ``file_frames``,
``FoldHistory.to_fold``).
"""
import json
import os

from .tables import write_csv


def write_vertices_csv(history, path, frame=-1):
    """``vertex,x,y,z`` (1-based vertices) of one frame (default: the last); returns ``path``."""
    X = history.vertices[frame]
    return write_csv(path, ("vertex", "x", "y", "z"), ((i + 1, *x) for i, x in enumerate(X)))


def write_steps_csv(history, path):
    """``time,step,iterations,residual,sigma_ratio`` for every accepted step; returns ``path``."""
    return write_csv(path, ("time", "step", "iterations", "residual", "sigma_ratio"), history.steps)


def write_fold(history, path):
    """The history as a FOLD file (frame 0 the start, ``file_frames`` the later frames); returns ``path``."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        json.dump(history.to_fold(), f, indent=1)
    return path
