"""What the ``dynamics`` command and the dynamics scenes do with a finished (or stopped) motion.

:func:`finish`: print the summary and the peak hinge actions, write the files
of :func:`~.history.write_history`, write Irrlicht PNG frames and/or play the
motion in a window at its own pace (one output frame per output interval).
"""
import sys

from .history import write_history


def finish(history, out_dir=None, png_dir=None, viz=False, stream=None, peaks=("MO", "N")):
    """Report ``history`` on ``stream`` (default stdout), write ``out_dir``, PNG frames to ``png_dir``, ``viz``."""
    stream = stream or sys.stdout
    print(history.summary(), file=stream)
    if history.hinge_actions and history.hinge_actions[0]:
        print(history.peaks_text(peaks), file=stream)
    if out_dir:
        paths = write_history(history, out_dir)
        print(f"wrote {', '.join(p.split('/')[-1] for p in paths)} to {out_dir}", file=stream)
    if png_dir or viz:
        from ..chrono import viewer

        t = history.t
        fps = (len(t) - 1) / (t[-1] - t[0]) if len(t) > 1 and t[-1] > t[0] else 10.0
        viewer.play(history.structure, history.vertices, list(t), png_dir=png_dir, interactive=viz, fps=fps)


def partial(error, out_dir=None, stream=None):
    """After a stopped run (``DynamicsError``): write the history recorded up to the stop, if any, to ``out_dir``."""
    history = getattr(error, "history", None)
    if out_dir and history is not None and len(history.t):
        write_history(history, out_dir)
        print(f"wrote the motion up to t = {history.t[-1]:.6g} s to {out_dir}", file=stream or sys.stderr)
