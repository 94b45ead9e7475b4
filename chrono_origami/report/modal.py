"""Reports of a modal analysis: mode tables, ``modes.csv``, mode animations (FOLD frames, PNG frames).

Works on :class:`~chrono_origami.analysis.modal.ModalResult` and
:class:`~chrono_origami.analysis.modal.KcComparison`; the animations also on the built
structure the modes were taken from (any object with ``pattern``, ``structure``,
``com`` and ``material_point(p, x_ref)``, like
:class:`~chrono_origami.engines.chrono.system.ChronoStructure`), so nothing here needs
PyChrono. Numbering is 1-based; lambda in rad/s, f in Hz (``|Im lambda| / 2 pi``).
"""
import os

import numpy as np

from ..results.modal import MODE_HEADER
from ..structure.foldfile import write_fold
from .write import DEFAULT_FORMAT, write_table

#: columns of ``modes.csv``
CSV_HEADER = MODE_HEADER


def row_count(n):
    """A table's row count ``n``: an integer >= 0 (a negative one would silently drop rows from the end)."""
    if not (isinstance(n, (int, np.integer)) and not isinstance(n, bool) and n >= 0):
        raise ValueError(f"the number of modes to show must be an integer >= 0 or None, got {n!r}")
    return int(n)


def mode_rows(result, modes=None):
    """CSV rows (mode, eig_real, eig_imag, freq_hz, stable), 1-based, sorted by frequency (``result.modes``)."""
    modes = result.modes if modes is None else modes
    return [(k + 1, m.eigenvalue.real, m.eigenvalue.imag, m.freq_hz, bool(m.stable)) for k, m in enumerate(modes)]


def modes_table(result, n=None, title=None):
    """Text table of the first ``n`` modes (all when None; and a line on zero, spurious and infinite ones)."""
    modes = result.modes if n is None else result.modes[:row_count(n)]
    head = f"{'mode':>4}  {'Re lambda':>12}  {'Im lambda':>12}  {'f [Hz]':>10}  {'|lambda| [rad/s]':>16}  kind"
    lines = [title] if title else []
    lines += [head, "-" * len(head)]
    for k, m in enumerate(modes):
        lines.append(f"{k + 1:>4}  {m.eigenvalue.real:>12.5g}  {m.eigenvalue.imag:>12.5g}  {m.freq_hz:>10.5g}  "
                     f"{m.natural_rad_s:>16.5g}  {m.kind}")
    if not modes:
        lines.append("(no oscillatory or unstable modes)")
    lines.append(f"zero modes (rigid-body motions, mechanisms without stiffness): {len(result.zero_modes)}; "
                 f"spurious: {len(result.spurious)}; infinite: {result.n_infinite}; "
                 f"redundant constraints: {'not counted' if result.n_redundant is None else result.n_redundant}; "
                 f"method: {result.method}; "
                 f"Kc {'on' if result.use_tangent_stiffness else 'off'}")
    return "\n".join(lines)


def comparison_table(comparison, n=None):
    """Side-by-side text table: lambda (rad/s) and f (Hz) of each mode with and without Kc."""
    a, b = comparison.with_kc.modes, comparison.without_kc.modes
    rows = max(len(a), len(b)) if n is None else min(row_count(n), max(len(a), len(b)))

    def cell(modes, k):
        if k >= len(modes):
            return f"{'-':>24}  {'':>10}"
        lam = modes[k].eigenvalue
        return f"{lam.real:>11.5g} {lam.imag:>+11.5g}i  {modes[k].freq_hz:>10.5g}"

    head = f"{'mode':>4}  {'lambda with Kc [rad/s]':>24}  {'f [Hz]':>10}  {'lambda without Kc':>24}  {'f [Hz]':>10}"
    lines = [head, "-" * len(head)]
    lines += [f"{k + 1:>4}  {cell(a, k)}  {cell(b, k)}" for k in range(rows)]
    w, wo = comparison.with_kc, comparison.without_kc
    lines.append(f"zero modes: {len(w.zero_modes)} with Kc, {len(wo.zero_modes)} without; "
                 f"unstable: {len(w.unstable)} with Kc, {len(wo.unstable)} without")
    return "\n".join(lines)


def write_modes_csv(result, path, fmt=DEFAULT_FORMAT):
    """``mode,eig_real,eig_imag,freq_hz,stable`` sorted by frequency; zero and spurious modes left out
    (``ModalResult.table``, in format ``fmt``). The path."""
    return write_table(result.table(), path, fmt)


def panel_vertices(built):
    """Current vertex positions (V x 3) of a built structure (``material_point``), averaged over the panels sharing each vertex."""
    pat = built.pattern
    acc = np.zeros((pat.n_vertices, 3))
    cnt = np.zeros(pat.n_vertices)
    for p, loop in enumerate(pat.panels):
        for v in loop:
            acc[v] += built.material_point(p, pat.vertices[v])
            cnt[v] += 1
    return acc / np.maximum(cnt, 1)[:, None]


def mode_vertices(built, result, mode, phase=0.0, amplitude=0.1):
    """Vertex positions (V x 3) of the structure displaced along ``mode`` at ``phase`` (rad).

    Each point r of a panel moves by Re((u + theta x (r - c)) exp(i phase)),
    (u, theta) the panel's translation and rotation in the mode, c its centre of
    mass, scaled so that the largest vertex displacement is ``amplitude`` x the
    pattern size. This linear map keeps panels planar and vertices shared
    across door hinges together; a vertex shared by panels that slide apart
    (sliding hinges) is put at the mean of its panels' images.
    """
    pat = built.pattern
    size = pat.size or 1.0
    base, disp, peak = [], [], 0.0
    for p, loop in enumerate(pat.panels):
        u, th = result.body_shape(mode, p)
        com = built.material_point(p, built.com[p])   # the body's reference point: its centre of mass
        pts = np.array([built.material_point(p, pat.vertices[v]) for v in loop])
        for x in pts:
            peak = max(peak, float(np.linalg.norm(np.abs(u) + np.abs(np.cross(th, x - com)))))
        u, th = (u * np.exp(1j * phase)).real, (th * np.exp(1j * phase)).real
        base.append(pts)
        disp.append((u, th, com))
    s = amplitude * size / peak if peak > 0 else 0.0
    acc = np.zeros((pat.n_vertices, 3))
    cnt = np.zeros(pat.n_vertices)
    for p, loop in enumerate(pat.panels):
        u, th, com = disp[p]
        for v, x in zip(loop, base[p]):
            acc[v] += x + s * (u + np.cross(th, x - com))
            cnt[v] += 1
    return acc / np.maximum(cnt, 1)[:, None]


def mode_frames(built, result, mode, n_frames=24, amplitude=0.1):
    """``n_frames`` vertex arrays over one period of ``mode`` (phases 2 pi k / n_frames)."""
    if not (isinstance(n_frames, (int, np.integer)) and n_frames >= 1):
        raise ValueError(f"n_frames must be a positive integer, got {n_frames!r}")
    return [mode_vertices(built, result, mode, 2 * np.pi * k / n_frames, amplitude) for k in range(n_frames)]


def write_mode_fold(path, built, result, mode, n_frames=24, amplitude=0.1):
    """FOLD file of the structure with the mode's animation in ``file_frames`` (:func:`~chrono_origami.structure.foldfile.write_fold`)."""
    frames = mode_frames(built, result, mode, n_frames, amplitude)
    write_fold(built.structure, path, frames=frames)
    return path


def write_mode_pngs(directory, built, result, mode, n_frames=12, amplitude=0.1, prefix="mode", title=None):
    """PNG frames of the mode (matplotlib, :func:`~chrono_origami.report.figures.draw_structure`); their paths."""
    from .figures import draw_structure

    os.makedirs(directory, exist_ok=True)
    paths = []
    for k, V in enumerate(mode_frames(built, result, mode, n_frames, amplitude)):
        path = os.path.join(directory, f"{prefix}_{k:03d}.png")
        draw_structure(built.structure, path, vertices=V,
                       title=title or f"{built.structure.name}: {mode.freq_hz:.4g} Hz ({mode.kind})")
        paths.append(path)
    return paths


# ------------------------------------------------------------------ a structure's modal analysis (co.modal)
#: zero modes listed one by one (the panels that move most); more are counted only
ZERO_MODES_LISTED = 10
#: modes drawn by :func:`draw_modes`
MODES_DRAWN = 4


def relative_change(with_kc, without_kc):
    """(f with Kc - f without) / f without, or None when the analysis without Kc has no such mode (or f = 0)."""
    if without_kc is None or not without_kc > 0:
        return None
    return (with_kc - without_kc) / without_kc


def analysis_text(analysis):
    """The lowest modes of a :class:`~chrono_origami.results.modal.ModalAnalysis` as text: frequency (Hz) and
    eigenvalue omega^2 (rad^2/s^2), with ``kc="compare"`` beside the frequency without Kc and the relative
    change; then the zero modes counted and named by the panels that move most (1-based)."""
    r, modes = analysis.result, analysis.modes
    kc = "with Kc" if r.use_tangent_stiffness else "without Kc (the equilibrium found with Kc)"
    total = len(r.modes)
    title = ((f"the {len(modes)} lowest modes {kc}" if len(modes) > 1 else f"the lowest mode {kc}") + (f" (of {total} found)" if total > len(modes) else "")
             + ":") if modes else f"no oscillatory or unstable mode {kc}"
    lines = []
    if modes:
        table = analysis.table()
        if analysis.without_kc is not None:
            header = ("mode", "f with Kc [Hz]", "f without Kc [Hz]", "change", "omega^2 with Kc [rad^2/s^2]",
                      "stable")
            rows = []
            for k, m, lam2, stable, f0 in table.rows:
                ch = relative_change(m, f0) if stable else None       # a divergence has no frequency to compare
                rows.append((k, f"{m:.6g}", "-" if f0 is None else f"{f0:.6g}",
                             "unstable" if not stable else "-" if ch is None else f"{100 * ch:+.3g} %",
                             f"{lam2:.6g}", "yes" if stable else "NO"))
        else:
            header = ("mode", "f [Hz]", "omega^2 [rad^2/s^2]", "stable")
            rows = [(k, f"{f:.6g}", f"{lam2:.6g}", "yes" if stable else "NO") for k, f, lam2, stable in table.rows]
        lines.append(_text_cells(header, rows, title))
    else:
        lines.append(title)
    if analysis.without_kc is not None and len(analysis.without_kc.modes) > len(modes):
        lines.append(f"without Kc: {len(analysis.without_kc.modes)} modes")
    zero = analysis.zero_modes
    if zero:
        named = analysis.zero_mode_panels()
        lines.append(f"{len(zero)} zero mode{'s' if len(zero) != 1 else ''} (rigid-body motions and mechanisms that "
                     f"nothing stiffens: no frequency; crease springs or supports stiffen them), by the panels that "
                     f"move most:")
        for k, panels in enumerate(named[:ZERO_MODES_LISTED]):
            lines.append(f"  zero mode {k + 1}: panel{'s' if len(panels) != 1 else ''} "
                         f"{', '.join(str(p + 1) for p in panels)}")
        if len(zero) > ZERO_MODES_LISTED:
            lines.append(f"  and {len(zero) - ZERO_MODES_LISTED} more")
    if analysis.without_kc is not None:
        w, wo = analysis.result, analysis.without_kc
        lines.append(f"zero modes: {len(w.zero_modes)} with Kc, {len(wo.zero_modes)} without; unstable: "
                     f"{len(w.unstable)} with Kc, {len(wo.unstable)} without")
    if r.spurious:
        lines.append(f"{len(r.spurious)} spurious eigenpairs left out (they fail the residual check)")
    return "\n".join(lines)


def _text_cells(header, rows, title):
    """A fixed-width table of text cells, right-aligned, under ``title``."""
    cells = [list(header)] + [[str(c) for c in r] for r in rows]
    widths = [max(len(c[i]) for c in cells) for i in range(len(header))]
    lines = [title] + ["  ".join(c.rjust(w) for c, w in zip(row, widths)) for row in cells]
    lines.insert(2, "-" * len(lines[1]))
    return "\n".join(lines)


class _Poses:
    """The panels' corner points of a built structure at its equilibrium, once, for vectorised mode frames."""

    def __init__(self, built):
        pat = built.pattern
        lens = [len(loop) for loop in pat.panels]
        self.panel = np.repeat(np.arange(pat.n_panels), lens)
        self.vertex = np.concatenate([np.asarray(loop, int) for loop in pat.panels])
        self.points = np.array([built.material_point(p, pat.vertices[v]) for p, v in zip(self.panel, self.vertex)])
        com = np.array([built.material_point(p, built.com[p]) for p in range(pat.n_panels)])
        self.arm = self.points - com[self.panel]
        self.count = np.bincount(self.vertex, minlength=pat.n_vertices).astype(float)
        self.size = pat.size or 1.0
        self.n_vertices = pat.n_vertices

    def mean(self, values):
        out = np.zeros((self.n_vertices, 3))
        np.add.at(out, self.vertex, values)
        return out / np.maximum(self.count, 1)[:, None]

    def frames(self, result, mode, n_frames, amplitude):
        """:func:`mode_frames`, vectorised: ``n_frames`` vertex arrays over one period."""
        S = result.shapes_by_body(mode)[self.panel]
        u, th = S[:, :3], S[:, 3:]
        peak = float(np.max(np.linalg.norm(np.abs(u) + np.abs(np.cross(th, self.arm)), axis=1), initial=0.0))
        s = amplitude * self.size / peak if peak > 0 else 0.0
        d = u + np.cross(th, self.arm)
        return [self.mean(self.points + s * (d * np.exp(2j * np.pi * k / n_frames)).real) for k in range(n_frames)]


def write_modes_fold(path, analysis, n_frames=24, amplitude=0.1):
    """One FOLD file of every reported mode of ``analysis`` (a ``ModalAnalysis``) in ``file_frames``: one cycle
    of ``n_frames`` frames per mode, mode after mode, each frame titled "mode K: F Hz, frame J of N" (about
    the equilibrium); the top level is the structure as given. Returns the path."""
    from ..structure.foldfile import fold_dict, write_fold_dict

    if not (isinstance(n_frames, (int, np.integer)) and n_frames >= 1):
        raise ValueError(f"n_frames must be a positive integer, got {n_frames!r}")
    poses = _Poses(analysis.built)
    frames, titles = [], []
    for k, m in enumerate(analysis.modes):
        for j, X in enumerate(poses.frames(analysis.result, m, n_frames, amplitude)):
            frames.append(X)
            titles.append(f"mode {k + 1}: {m.freq_hz:.6g} Hz, frame {j + 1} of {n_frames}")
    d = fold_dict(analysis.structure, frames or None)
    for fr, t in zip(d.get("file_frames", []), titles):
        fr["frame_title"] = t
    write_fold_dict(d, path)
    return path


def draw_modes(analysis, path, n=MODES_DRAWN, amplitude=0.1):
    """The lowest ``n`` modes of ``analysis`` drawn at their largest displacement (phase 0) beside each other,
    titled with their frequency; the structure alone when it has none. Returns ``path``."""
    from .figures import _backend, draw_structure, save_figure

    plt = _backend()
    modes = analysis.modes[:n]
    poses = _Poses(analysis.built)
    k = max(len(modes), 1)
    fig = plt.figure(figsize=(5 * k, 4.6))
    if not modes:
        ax = fig.add_subplot(1, 1, 1, projection="3d")
        draw_structure(analysis.structure, ax=ax, vertices=poses.mean(poses.points),
                       title=f"{analysis.structure.name}: no oscillatory mode")
    for i, m in enumerate(modes):
        ax = fig.add_subplot(1, k, i + 1, projection="3d")
        X = poses.frames(analysis.result, m, 1, amplitude)[0]
        draw_structure(analysis.structure, ax=ax, vertices=X,
                       title=f"mode {i + 1}: {m.freq_hz:.4g} Hz" + ("" if m.stable else " (unstable)"))
    return save_figure(fig, path) and path
