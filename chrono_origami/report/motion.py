"""The files of a motion (a ``results.motion.TimeHistory``), and what the ``dynamics`` command and the
dynamics scenes do with a finished (or stopped) motion.

Files (:func:`write_history`), written by ``tables.write_csv`` (every float as the shortest text that
reads back to it), hinges, panels and vertices 1-based:
``energy.csv`` (t,kinetic,potential,spring,work,dissipated,balance_error),
``momentum.csv`` (t,px,py,pz,Lx,Ly,Lz), ``constraints.csv`` (t,violation),
``hinges_t.csv`` (t,hinge,panel,MT,MP,MO,N,TP,TO), ``supports_t.csv``
(t,panel,vertex,Fx,Fy,Fz) and ``motion.fold`` (the output frames as FOLD
``file_frames`` with ``origami:time``; ``python -m chrono_origami play`` plays it). With contact
(``dynamics --contact``): energy.csv has a ``contact`` column before balance_error (the energy the contacts
took, ``results.motion``), and ``contacts.csv`` (t,panel_i,panel_j,N,T,Fx,Fy,Fz,x,y,z,points,Mx,My,Mz) one row per
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

from ..results.statics import HINGE_COLUMNS, SUPPORT_COLUMNS
from .tables import write_csv


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
        from . import viewer

        t = history.t
        fps = (len(t) - 1) / (t[-1] - t[0]) if len(t) > 1 and t[-1] > t[0] else 10.0
        viewer.play(history.structure, history.vertices, list(t), png_dir=png_dir, interactive=viz, fps=fps)


def partial(error, out_dir=None, stream=None):
    """After a stopped run (``DynamicsError``): write the history recorded up to the stop, if any, to ``out_dir``."""
    history = getattr(error, "history", None)
    if out_dir and history is not None and len(history.t):
        write_history(history, out_dir)
        print(f"wrote the motion up to t = {history.t[-1]:.6g} s to {out_dir}", file=stream or sys.stderr)


ENERGY_HEADER = ("t", "kinetic", "potential", "spring", "work", "dissipated", "balance_error")


MOMENTUM_HEADER = ("t", "px", "py", "pz", "Lx", "Ly", "Lz")


CONSTRAINT_HEADER = ("t", "violation")


HINGE_T_HEADER = ("t", "hinge", "panel") + HINGE_COLUMNS


SUPPORT_T_HEADER = ("t", "panel", "vertex") + SUPPORT_COLUMNS


FILES = ("energy.csv", "momentum.csv", "constraints.csv", "hinges_t.csv", "supports_t.csv", "motion.fold")


# ======================================================================= writers
def write_energy_csv(history, path):
    """``t,kinetic,potential,spring,work,dissipated,balance_error`` (with contact: ``contact`` before balance_error)."""
    h = history
    cols = [h.t, h.kinetic, h.potential, h.spring, h.work, h.dissipated, h.balance_error]
    header = list(ENERGY_HEADER)
    if h.contact is not None:
        cols.insert(-1, h.contact)
        header.insert(-1, "contact")
    write_csv(path, header, zip(*cols))


CONTACTS_HEADER = ("t", "panel_i", "panel_j", "N", "T", "Fx", "Fy", "Fz", "x", "y", "z", "points", "Mx", "My", "Mz")


def write_contacts_csv(history, path):
    """``t,panel_i,panel_j,N,T,Fx,Fy,Fz,x,y,z,points,Mx,My,Mz`` (module doc), 1-based panels."""
    rows = ((t, i + 1, j + 1, N, T, *F, *x, n, *M) for t, frame in zip(history.t, history.contact_forces)
            for i, j, N, T, F, x, n, M in frame)
    write_csv(path, CONTACTS_HEADER, rows)


def write_momentum_csv(history, path):
    """``t,px,py,pz,Lx,Ly,Lz`` (global frame; L about the origin)."""
    h = history
    write_csv(path, MOMENTUM_HEADER, ((t, *p, *L) for t, p, L in zip(h.t, h.linear_momentum, h.angular_momentum)))


def write_constraints_csv(history, path):
    """``t,violation`` (largest scaled constraint violation)."""
    write_csv(path, CONSTRAINT_HEADER, zip(history.t, history.constraint_violation))


def write_hinges_csv(history, path):
    """``t,hinge,panel,MT,MP,MO,N,TP,TO``: every hinge row of every output frame."""
    rows = ((t, *r) for k, t in enumerate(history.t) for r in history.hinge_rows(k))
    write_csv(path, HINGE_T_HEADER, rows)


def write_supports_csv(history, path):
    """``t,panel,vertex,Fx,Fy,Fz``: every support reaction of every output frame (force on the panel)."""
    rows = ((t, *r) for k, t in enumerate(history.t) for r in history.support_rows(k))
    write_csv(path, SUPPORT_T_HEADER, rows)


def write_motion_fold(history, path):
    """The output frames as a FOLD file: frame 0 the first frame, ``file_frames`` the others with their times."""
    from ..structure import foldfile

    st = history.structure
    start = st.with_pattern(st.pattern.with_vertices(history.vertices[0]))
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    foldfile.write_fold(start, path, frames=list(history.vertices[1:]), times=list(history.t[1:]),
                        title=f"{st.name}: motion ({history.engine} engine, {history.integrator}, dt = {history.dt:g} s)")


def write_history(history, out_dir):
    """Write every file of the module doc into ``out_dir`` (created); returns their paths."""
    os.makedirs(out_dir, exist_ok=True)
    writers = (write_energy_csv, write_momentum_csv, write_constraints_csv, write_hinges_csv, write_supports_csv,
               write_motion_fold)
    paths = []
    if history.contact is not None:
        writers += (write_contacts_csv,)
    for name, writer in zip(FILES + ("contacts.csv",), writers):
        path = os.path.join(out_dir, name)
        writer(history, path)
        paths.append(path)
    return paths
