"""The files of a fold history (``results.fold.FoldHistory``): its tables by the one writer (``report.write``)
and the history as FOLD.

``vertices.csv`` (vertex,x,y,z of one frame, 1-based vertices),
``steps.csv`` (time,step,iterations,residual,sigma_ratio of every accepted
step) -- or ``.json``, ``.parquet`` in another format -- and ``fold.fold``
(the history as FOLD ``file_frames``, ``FoldHistory.to_fold``).
"""
import json
import os

from .write import DEFAULT_FORMAT, write_table


def write_vertices_csv(history, path, frame=-1, fmt=DEFAULT_FORMAT):
    """``vertex,x,y,z`` (1-based vertices) of one frame (default: the last); returns ``path``."""
    return write_table(history.vertex_table(frame), path, fmt)


def write_steps_csv(history, path, fmt=DEFAULT_FORMAT):
    """``time,step,iterations,residual,sigma_ratio`` for every accepted step; returns ``path``."""
    return write_table(history.step_table(), path, fmt)


def write_fold(history, path):
    """The history as a FOLD file (frame 0 the start, ``file_frames`` the later frames); returns ``path``."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        json.dump(history.to_fold(), f, indent=1)
    return path
