"""Figures of a fold, headless (matplotlib Agg): snapshots like the paper's Fig. 2(c) and PNG frames."""
import os

import numpy as np

from ..report.figures import _backend, draw_structure, frame_axes, save_figure


def draw_snapshots(history, path=None, times=None, view=(20, -70), title=None):
    """Overlay the stored frames at ``times`` (s; default all stored frames) in one 3-D view, like Fig. 2(c).

    Later frames are drawn more opaque; returns the matplotlib Figure.
    """
    plt = _backend()
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection

    st = history.problem.structure
    pat = st.pattern
    ks = range(len(history.times)) if times is None else [int(np.argmin(np.abs(np.asarray(history.times) - t)))
                                                         for t in times]
    ks = list(dict.fromkeys(ks))
    fig = plt.figure(figsize=(7, 6))
    ax = fig.add_subplot(projection="3d")
    allX = np.concatenate([history.vertices[k] for k in ks])
    cmap = plt.get_cmap("viridis")
    for i, k in enumerate(ks):
        X = history.vertices[k]
        f = i / max(len(ks) - 1, 1)
        color = cmap(0.15 + 0.7 * f)
        polys = [X[list(loop)] for loop in pat.panels]
        ax.add_collection3d(Poly3DCollection(polys, facecolors=[(*color[:3], 0.25 + 0.5 * f)],
                                             edgecolors=[(0.1, 0.1, 0.1, 0.5 + 0.5 * f)], linewidths=0.6))
        ax.text(*X[np.argmax(X[:, 2] + X[:, 1])], f" t = {history.times[k]:g} s", fontsize=8, color=color)
    frame_axes(ax, allX, view)
    ax.set_title(title or f"{history.problem.name}: snapshots")
    return save_figure(fig, path)


def write_png_frames(history, directory, view=(20, -70)):
    """One PNG per stored frame, ``frame_0000.png``..., with fixed axes; returns the paths."""
    plt = _backend()
    os.makedirs(directory, exist_ok=True)
    st = history.problem.structure
    allX = np.concatenate(history.vertices)
    paths = []
    for k, (t, X) in enumerate(zip(history.times, history.vertices)):
        fig = draw_structure(st, None, vertices=X, view=view, title=f"{history.problem.name}: t = {t:g} s")
        frame_axes(fig.axes[0], allX, view)   # the same axes for every frame
        p = os.path.join(directory, f"frame_{k:04d}.png")
        fig.savefig(p, dpi=100)
        plt.close(fig)
        paths.append(p)
    return paths
