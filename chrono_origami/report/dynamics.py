"""The files of a motion (a ``results.dynamics.TimeHistory``), and what the ``dynamics`` command and the
dynamics scenes do with a finished (or stopped) motion.

Files (:func:`write_history`): the tables of ``TimeHistory.tables()`` by the one writer (``report.write``; in
the default csv format every float as the shortest text that reads back to it; ``--format``: json, parquet),
hinges, panels and vertices 1-based:
``energy.csv`` (t,kinetic,potential,spring,work,dissipated,balance_error),
``momentum.csv`` (t,px,py,pz,Lx,Ly,Lz), ``constraints.csv`` (t,violation),
``hinges_t.csv`` (t,hinge,panel,MT,MP,MO,N,TP,TO), ``supports_t.csv``
(t,panel,vertex,Fx,Fy,Fz) and ``motion.fold`` (the output frames as FOLD
``file_frames`` with ``origami:time``; ``python -m chrono_origami play`` plays it). With contact
(``dynamics --contact``): energy.csv has a ``contact`` column before balance_error (the energy the contacts
took, ``results.dynamics``), and ``contacts.csv`` (t,panel_i,panel_j,N,T,Fx,Fy,Fz,x,y,z,points,Mx,My,Mz) one row per
frame and panel pair i < j in contact with a force: N the sum of the normal forces, T the magnitude of the
summed friction forces, F the resultant force on panel j from panel i, (x, y, z) the centre of the normal
forces, points the number of contact points, M the moment of the forces on j from i about the global
origin (global frame, the structure's units).

:func:`finish`: print the summary and the peak hinge actions, write the files
of :func:`write_history`, write Irrlicht PNG frames and/or play the
motion in a window at its own pace (one output frame per output interval).
"""
import os
import sys

from .write import DEFAULT_FORMAT, write_tables


def finish(history, out_dir=None, png_dir=None, viz=False, stream=None, peaks=("MO", "N"), fmt=DEFAULT_FORMAT):
    """Report ``history`` on ``stream`` (default stdout), write ``out_dir`` (tables in format ``fmt``), PNG frames
    to ``png_dir``, ``viz``."""
    stream = stream or sys.stdout
    print(history.summary(), file=stream)
    if history.hinge_actions and history.hinge_actions[0]:
        print(history.peaks_text(peaks), file=stream)
    if out_dir:
        paths = write_history(history, out_dir, fmt)
        print(f"wrote {', '.join(p.split('/')[-1] for p in paths)} to {out_dir}", file=stream)
    if png_dir or viz:
        from . import viewer

        t = history.t
        fps = (len(t) - 1) / (t[-1] - t[0]) if len(t) > 1 and t[-1] > t[0] else 10.0
        viewer.play(history.structure, history.vertices, list(t), png_dir=png_dir, interactive=viz, fps=fps)


def partial(error, out_dir=None, stream=None, fmt=DEFAULT_FORMAT):
    """After a stopped run (``DynamicsError``): write the history recorded up to the stop, if any, to ``out_dir``
    (tables in format ``fmt``)."""
    history = getattr(error, "history", None)
    if out_dir and history is not None and len(history.t):
        write_history(history, out_dir, fmt)
        print(f"wrote the motion up to t = {history.t[-1]:.6g} s to {out_dir}", file=stream or sys.stderr)


#: the files of :func:`write_history` in the default format (csv)
FILES = ("energy.csv", "momentum.csv", "constraints.csv", "hinges_t.csv", "supports_t.csv", "motion.fold")


# ======================================================================= writers
def write_motion_fold(history, path):
    """The output frames as a FOLD file: frame 0 the first frame, ``file_frames`` the others with their times."""
    from ..structure import foldfile

    st = history.structure
    start = st.with_pattern(st.pattern.with_vertices(history.vertices[0]))
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    foldfile.write_fold(start, path, frames=list(history.vertices[1:]), times=list(history.t[1:]),
                        title=f"{st.name}: motion ({history.engine} engine, {history.integrator}, dt = {history.dt:g} s)")


def write_history(history, out_dir, fmt=DEFAULT_FORMAT):
    """Write every file of the module doc into ``out_dir`` (created): the tables of ``history.tables()`` in
    format ``fmt`` (``report.write``), then motion.fold; returns their paths."""
    paths = write_tables(history.tables(), out_dir, fmt)
    path = os.path.join(out_dir, FILES[-1])
    write_motion_fold(history, path)
    return paths + [path]
