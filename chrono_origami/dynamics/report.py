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


def guarded(run, out_dir=None):
    """Exit code of ``run()`` for a scene: errors become one ``error:`` line on stderr, as the CLI does.

    A stopped motion (``DynamicsError``) first writes what it recorded to ``out_dir``; exit 1 for bad input
    and analysis errors, 2 for a missing engine or an output that cannot be written.
    """
    from ..errors import ChronoUnavailable, DynamicsError, OrigamiError

    try:
        return int(run() or 0)
    except DynamicsError as e:
        partial(e, out_dir)
        print(f"error: {e}", file=sys.stderr)
        return 1
    except ChronoUnavailable as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except OrigamiError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"error: cannot write {e.filename or ''}: {e.strerror or e}", file=sys.stderr)
        return 2


def add_run_options(ap, time=None, dt=None, output_interval=None, integrators=None):
    """The options every dynamics run takes, on the argparse parser ``ap``: --time, --dt (required when no default
    is given), --integrator (``integrators``: the choices), --output-interval, --out, --viz, --png-frames, --quiet."""
    for name, value, what in (("--time", time, "duration of the motion"), ("--dt", dt, "time step")):
        if value is None:
            ap.add_argument(name, type=float, required=True, help=f"{what} (s)")
        else:
            ap.add_argument(name, type=float, default=value, help=f"{what} (s, default {value:g})")
    ap.add_argument("--integrator", choices=integrators, help="integrator (default: the engine's first: hht for chrono)")
    ap.add_argument("--output-interval", type=float, default=output_interval,
                    help="s between recorded frames (default: " + (f"{output_interval:g})" if output_interval else
                                                                      "every step)"))
    ap.add_argument("--out", metavar="DIR", help="write energy.csv, momentum.csv, constraints.csv, hinges_t.csv, "
                                                 "supports_t.csv and motion.fold here")
    ap.add_argument("--viz", action="store_true", help="play the motion in Chrono's Irrlicht viewer (until closed)")
    ap.add_argument("--png-frames", metavar="DIR", help="one Irrlicht PNG per recorded frame (headless: xvfb-run)")
    ap.add_argument("--quiet", action="store_true", help="no progress bar (it is drawn only on a terminal anyway)")
    return ap
