"""Figures of structures and folds with matplotlib, in the style of the paper's figures.

Panels are shaded by the angle of their normal to a fixed light direction;
hinges are drawn in their kind's style (:mod:`.styles`: door hinges dashed,
sliding hinges solid), boundary edges thin black.
With a static result, hinges are coloured by an internal action instead
(:mod:`.hinge_colors`: ``|F|`` by default, or N, TP, TO, MT, MP, MO, ``|M|``),
with a colour bar and the largest value labelled at its hinge.
Supports are drawn as triangles (pinned: all three directions held) or
circles (partly held) at the vertex; loads as arrows scaled to the largest
force. Folds (a ``FoldHistory``): :func:`draw_snapshots` overlays frames
like the paper's Fig. 2(c), :func:`write_png_frames` writes one PNG per frame.
An elastic answer's displaced shape (``displacements``) is drawn over the
structure: each panel's outline moved by its vertices' displacements times a
scale (:func:`displacement_scale`), red and dotted, the scale written
under the title.
Works headless (Agg backend).
"""
import os

import numpy as np

from ..structure import hinges
from .styles import style

LIGHT = np.array([0.3, -0.5, 0.8])


def _backend():
    import matplotlib

    if matplotlib.get_backend().lower() not in ("agg", "pdf", "svg"):
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def draw_structure(structure, path=None, labels=False, ax=None, view=(25, -60), vertices=None,
                   title=None, arrow_scale=None, coloring=None, displacements=None, displacement_scale=None):
    """Draw ``structure`` (optionally with other ``vertices``) and save it to ``path`` (png/pdf).

    ``coloring``: a :class:`~chrono_origami.report.hinge_colors.HingeColoring` (hinges coloured by an internal
    action, with a colour bar and the largest value labelled at its hinge); each hinge's line has the gid
    ``"hinge H"`` (1-based). ``displacements``: (n, 3) per panel vertex (``results.static.StaticResult``'s), the
    displaced shape drawn at ``displacement_scale`` (default :func:`displacement_scale`; module doc), each panel's
    outline with the gid ``"displaced panel P"``. Returns the matplotlib Figure.
    """
    plt = _backend()
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection

    pat = structure.pattern
    X = pat.vertices if vertices is None else np.asarray(vertices, float)
    if ax is None:
        fig = plt.figure(figsize=(7, 6))
        ax = fig.add_subplot(projection="3d")
    else:
        fig = ax.figure
    ax.computed_zorder = False  # draw panels, then edges, then marks and labels on top
    light = LIGHT / np.linalg.norm(LIGHT)
    polys, colors = [], []
    for p, P in panel_polygons(structure, X):
        nrm = np.cross(P[1] - P[0], P[2] - P[0])
        nrm /= np.linalg.norm(nrm) or 1.0
        shade = 0.45 + 0.45 * abs(nrm @ light)
        polys.append(P)
        colors.append((0.55 * shade, 0.7 * shade, 0.9 * shade, 0.75))
    ax.add_collection3d(Poly3DCollection(polys, facecolors=colors, edgecolors="none", zorder=1))
    for e in pat.boundary_edges:
        ax.plot(*X[list(e)].T, color="black", lw=1.0, zorder=2)
    colors = None if coloring is None else coloring.colors()
    for h, kind in zip(pat.hinges, structure.kinds):
        st = style(kind)
        color, lw = (st.line_color, 1.6) if colors is None else (tuple(colors[h.index]), 3.2)
        ax.plot(*X[list(h.vertices)].T, color=color, lw=lw, ls=st.line, zorder=3, gid=f"hinge {h.index + 1}")
    if coloring is not None:
        _color_bar(fig, ax, coloring, X, pat)
    for s in structure.supports:
        x = X[s.vertex]
        ax.scatter(*x, marker="^" if len(s.dofs) == 3 else "o", s=60, color="tab:red", depthshade=False, zorder=4)
    loads = structure.loads
    if loads:
        fmax = max(np.linalg.norm(ld.force) for ld in loads) or 1.0
        scale = arrow_scale or 0.15 * pat.size / fmax
        for ld in loads:
            x = X[ld.vertex]
            f = np.asarray(ld.force, float) * scale
            ax.quiver(*(x - f), *f, color="tab:orange", lw=2, arrow_length_ratio=0.25, zorder=5)
    if labels:
        for p in range(pat.n_panels):
            ax.text(*X[list(pat.panels[p])].mean(0), str(p + 1), color="navy", fontsize=9, ha="center", zorder=6)
        for h in pat.hinges:
            ax.text(*X[list(h.vertices)].mean(0), str(h.index + 1), color="darkred", fontsize=8, ha="center", zorder=6)
    shown = X
    if displacements is not None:
        shown = _draw_displaced(ax, structure, X, displacements, displacement_scale)
    frame_axes(ax, shown, view)
    legend = ", ".join(f"{k.name} hinges {style(k).line_name}" for k, _ in hinges.census(structure.hinge_kinds))
    ax.set_title(title or f"{structure.name}: {legend}", fontsize=10 if coloring is not None else None)
    return save_figure(fig, path)


#: the displaced shape's largest displacement is drawn as about this fraction of the structure's size
DISPLACED_FRACTION = 0.1


def displacement_scale(displacements, size):
    """The factor the displaced shape is drawn at: 1, 2 or 5 x 10^k, the largest that draws the largest
    displacement at most :data:`DISPLACED_FRACTION` of ``size``; 1 (true scale) when it is that large already, or
    there is none."""
    big = float(np.linalg.norm(np.asarray(displacements, float).reshape(-1, 3), axis=1).max(initial=0.0))
    want = DISPLACED_FRACTION * (size or 1.0) / big if big > 0 else 1.0
    if not want > 1.0 or not np.isfinite(want):
        return 1.0
    k = np.floor(np.log10(want))
    return float(max(m * 10.0 ** k for m in (1.0, 2.0, 5.0) if m * 10.0 ** k <= want))


def displacement_caption(scale, displacements):
    """The words the figure (and the command line) give the displaced shape: its colour, scale and largest
    displacement."""
    big = float(np.linalg.norm(np.asarray(displacements, float).reshape(-1, 3), axis=1).max(initial=0.0))
    times = "true scale" if scale == 1.0 else f"displacements x {scale:g}"
    return f"displaced shape (red, dotted): {times}; largest displacement {big:.3g} (length units)"


def displaced_outlines(structure, X, displacements, scale):
    """The displaced shape: each panel's outline (a (k, 3) array of its k vertices, in order) at its vertices
    ``X`` (global frame, length units) plus ``scale`` x their ``displacements`` (per panel-vertex slot,
    ``structure.tolerance.vertex_slots``)."""
    from ..structure.tolerance import vertex_slots

    pat = structure.pattern
    d = np.asarray(displacements, float).reshape(-1, 3)
    moved = np.asarray(X, float)[vertex_slots(pat)[:, 1]] + float(scale) * d
    ends = np.cumsum([len(loop) for loop in pat.panels])
    return np.split(moved, ends[:-1])


def _draw_displaced(ax, structure, X, displacements, scale=None):
    """Each panel's outline at its vertices plus ``scale`` x their displacements (module doc); the caption under
    the title; returns the points drawn (the structure's and the displaced ones) for the axes' frame."""
    pat = structure.pattern
    d = np.asarray(displacements, float).reshape(-1, 3)
    scale = displacement_scale(d, pat.size) if scale is None else float(scale)
    loops = displaced_outlines(structure, X, d, scale)
    for p, P in enumerate(loops):
        ax.plot(*np.vstack([P, P[:1]]).T, color="firebrick", lw=1.2, ls=":", zorder=4, gid=f"displaced panel {p + 1}")
    ax.text2D(0.5, 0.98, displacement_caption(scale, d), transform=ax.transAxes, ha="center", va="top",
              fontsize=8, color="firebrick", gid="displacement scale")
    return np.vstack([X, *loops])


def solids_of(structure):
    """The panels' solids (``structure.solids.PanelSolids``) when the structure places thick panels
    (``origami:placement``, ``--placement``), else None: the panels are then drawn as their polygons."""
    if getattr(structure, "placement", None) is None or not any(structure.thickness):
        return None
    from ..structure.solids import PanelSolids

    return PanelSolids(structure)


def panel_polygons(structure, X, solids=None):
    """(panel, polygon) to draw at vertices ``X``: every face of each panel's solid when the structure places thick
    panels (:func:`solids_of`), else each panel's polygon."""
    solids = solids_of(structure) if solids is None else solids
    if solids is None:
        return [(p, X[list(loop)]) for p, loop in enumerate(structure.pattern.panels)]
    return solids.polygons(X)


def _color_bar(fig, ax, coloring, X, pat):
    """The colour bar of a hinge colouring, its largest value written on the bar and at its hinge."""
    import matplotlib.cm as cm
    import matplotlib.colors as mcolors

    from .hinge_colors import colormap

    sm = cm.ScalarMappable(norm=mcolors.Normalize(coloring.vmin, coloring.vmax), cmap=colormap(coloring.cmap))
    sm.set_array([])
    h, v = coloring.largest()
    bar = fig.colorbar(sm, ax=ax, shrink=0.6, pad=0.08)
    bar.set_label(f"{coloring.label}; {coloring.largest_text()}")
    if coloring.round_off is not None:           # every hinge 0: no hinge is the largest
        return
    bar.ax.axhline(v, color="black", lw=1.5)
    mid = X[list(pat.hinges[h].vertices)].mean(0)
    ax.text(*mid, f" {coloring.component} = {v:.4g} (hinge {h + 1})", color="black", fontsize=8, zorder=7,
            gid="largest")


def frame_axes(ax, points, view):
    """Equal-scale 3-D axes (global x, y, z) framing ``points``, seen from ``view`` = (elevation, azimuth) deg."""
    P = np.asarray(points, float)
    lo, hi = P.min(0), P.max(0)
    c, r = 0.5 * (lo + hi), 0.5 * (hi - lo).max()
    ax.set_xlim(c[0] - r, c[0] + r)
    ax.set_ylim(c[1] - r, c[1] + r)
    ax.set_zlim(c[2] - r, c[2] + r)
    ax.set_box_aspect((1, 1, 1))
    ax.view_init(*view)
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    ax.set_zlabel("z")


#: the resolution of every figure the project saves (dots per inch; :func:`save_figure`)
FIGURE_DPI = 120


def save_figure(fig, path, tight=True):
    """The one figure saver: ``fig`` to ``path`` (png/pdf; folders made) at :data:`FIGURE_DPI`, then closed; no
    path: returned open. ``tight``: cropped to the drawing (``bbox_inches="tight"``); False keeps the figure's
    own size (the frames of an animation, all of one size). ``path`` may also be a binary file object (the
    results page's embedded PNG): the figure is written to it as PNG."""
    if path:
        if hasattr(path, "write"):
            fmt = {"format": "png"}
        else:
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
            fmt = {}
        fig.savefig(path, dpi=FIGURE_DPI, bbox_inches="tight" if tight else None, **fmt)
        _backend().close(fig)
    return fig


# ------------------------------------------------------------------ folds
def draw_snapshots(history, path=None, times=None, view=(20, -70), title=None):
    """Overlay the stored frames at ``times`` (s; default all stored frames) in one 3-D view, like Fig. 2(c).

    Later frames are drawn more opaque; thick panels with a placement as their solids. A history whose contacts
    were checked (``history.contacts``, ``analysis.contact``) shows its first contact: that frame drawn, the two
    panels red, and a line that names them. Returns the matplotlib Figure.
    """
    plt = _backend()
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection

    st = history.problem.structure
    pat = st.pattern
    ks = list(range(len(history.times))) if times is None else [int(np.argmin(np.abs(np.asarray(history.times) - t)))
                                                         for t in times]
    contacts = getattr(history, "contacts", None)
    first = None if contacts is None else contacts.first
    if first is not None and first < len(history.times):
        ks.append(first)
    ks = sorted(dict.fromkeys(ks))
    fig = plt.figure(figsize=(7, 6))
    ax = fig.add_subplot(projection="3d")
    allX = np.concatenate([history.vertices[k] for k in ks])
    cmap = plt.get_cmap("viridis")
    solids = solids_of(st)
    hit = set(contacts.pairs[first][0][:2]) if first is not None else set()
    for i, k in enumerate(ks):
        X = history.vertices[k]
        f = i / max(len(ks) - 1, 1)
        color = cmap(0.15 + 0.7 * f)
        drawn = panel_polygons(st, X, solids)
        red = [k == first and p in hit for p, _ in drawn]
        ax.add_collection3d(Poly3DCollection([P for _, P in drawn],
                                             facecolors=[(0.85, 0.1, 0.1, 0.9) if r else (*color[:3], 0.25 + 0.5 * f)
                                                         for r in red],
                                             edgecolors=[(0.1, 0.1, 0.1, 0.5 + 0.5 * f)], linewidths=0.6,
                                             gid="first contact" if k == first else None))
        ax.text(*X[np.argmax(X[:, 2] + X[:, 1])], f" t = {history.times[k]:g} s", fontsize=8, color=color)
    frame_axes(ax, allX, view)
    heading = title or f"{history.problem.name}: snapshots"
    if first is not None:
        p, q, d = contacts.pairs[first][0]
        heading += f"\nfirst contact (red): panels {p + 1} and {q + 1}, {contacts.where(first)}, depth {d:.3g}"
    ax.set_title(heading, fontsize=9 if first is not None else None)
    return save_figure(fig, path)


def write_png_frames(history, directory, view=(20, -70)):
    """One PNG per stored frame, ``frame_0000.png``..., with fixed axes; returns the paths."""
    _backend()
    os.makedirs(directory, exist_ok=True)
    st = history.problem.structure
    allX = np.concatenate(history.vertices)
    paths = []
    for k, (t, X) in enumerate(zip(history.times, history.vertices)):
        fig = draw_structure(st, None, vertices=X, view=view, title=f"{history.problem.name}: t = {t:g} s")
        frame_axes(fig.axes[0], allX, view)   # the same axes for every frame
        p = os.path.join(directory, f"frame_{k:04d}.png")
        save_figure(fig, p, tight=False)
        paths.append(p)
    return paths


# ------------------------------------------------------------------ deployments
def draw_deployment(deployment, path=None, title=None):
    """The forces along a fold (``results.deploy.Deployment``): above, each actuator's torque (N m, FOLD sign)
    against the fold percent; below, the largest hinge |F| against the percent. Near-singular frames are ringed in
    red (their forces grow as 1/sigma_min). Returns the matplotlib Figure."""
    plt = _backend()
    dep = deployment
    fig, (a1, a2) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    pc = np.asarray(dep.percents, float)
    tau = np.asarray(dep.torques, float).reshape(len(pc), -1)
    for j, h in enumerate(dep.actuators):
        a1.plot(pc, tau[:, j], marker="o", ms=3, label=f"hinge {h + 1}", gid=f"torque {h + 1}")
    big = np.asarray(dep.largest_force(), float)
    a2.plot(pc, big, marker="o", ms=3, color="0.2", gid="largest |F|")
    near = dep.near_singular
    if near:
        for ax, y in ((a1, tau), (a2, big[:, None])):
            ax.plot(np.repeat(pc[near], y.shape[1]), y[near].ravel(), "o", mfc="none", mec="red", ms=8,
                    label="near-singular" if ax is a1 else None, gid="near-singular")
    a1.axhline(0.0, color="0.6", lw=0.6)
    a1.set_ylabel("actuator torque (N m)")
    a1.legend(fontsize=8)
    a2.set_ylabel("largest hinge |F| (N)")
    a2.set_xlabel("fold percent (%)")
    wc = dep.work_check()
    head = title or f"{dep.structure.name}: forces along the fold ({dep.engine} engine)"
    if wc is not None:
        head += f"\nwork {wc.work:.4g}, rise of the potential energy {wc.potential_change:.4g} (mismatch {wc.relative:.1g})"
    a1.set_title(head, fontsize=9)
    for ax in (a1, a2):
        ax.grid(True, lw=0.3)
    return save_figure(fig, path)


def draw_path_modes(path_modes, path=None, title=None):
    """The lowest frequencies along a fold (``results.modal.PathModes``): each mode's frequency (Hz) against the
    fold percent, the path's lowest ringed. Returns the matplotlib Figure."""
    plt = _backend()
    pm = path_modes
    fig, ax = plt.subplots(figsize=(7, 4))
    pc = np.asarray(pm.percents, float)
    n = max((len(a.modes) for a in pm.analyses), default=0)
    for j in range(n):
        ax.plot(pc, pm.frequencies(j + 1), marker="o", ms=3, label=f"mode {j + 1}", gid=f"mode {j + 1}")
    low = pm.lowest()
    if low is not None:
        ax.plot([pc[low[1]]], [low[0]], "o", mfc="none", mec="red", ms=9, label="lowest", gid="lowest")
    ax.set_xlabel("fold percent (%)")
    ax.set_ylabel("frequency (Hz)")
    ax.grid(True, lw=0.3)
    if n:
        ax.legend(fontsize=8)
    held = ", ".join(str(h + 1) for h in pm.actuators) or "none"
    ax.set_title(title or f"{pm.structure.name}: lowest frequencies along the fold, with Kc ({pm.engine} engine; "
                          f"hinges held: {held})", fontsize=9)
    return save_figure(fig, path)
