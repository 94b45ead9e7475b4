"""Headless matplotlib figures: what is drawn and where (panels, edges, hinge styles, supports, loads, labels)
against the structure's vertices; the files are written."""
import numpy as np
import pytest
from matplotlib.markers import MarkerStyle
from mpl_toolkits.mplot3d import art3d, proj3d

from chrono_origami.tools.geometry import rotation_about
from chrono_origami.crease.pattern import CreasePattern
from chrono_origami.report.figures import LIGHT, draw_structure
from chrono_origami.structure.structure import Load, Structure, Support
from chrono_origami.structure.hinges import DOOR, SLIDING

from hinge_frames import loop_normal

# three panels in a row: hinge 1 (vertices 2-3) a door hinge, hinge 2 (vertices 5-6) a sliding hinge
X = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [2, 0, 0.3], [2, 1, 0.3], [3, 0, 0], [3, 1, 0]], float)
PANELS = [(0, 1, 2, 3), (1, 4, 5, 2), (4, 6, 7, 5)]


def small_structure():
    pat = CreasePattern(X, PANELS)
    assert [h.vertices for h in pat.hinges] == [(1, 2), (4, 5)]
    return Structure(pat, hinge_kinds=(DOOR, SLIDING), supports=(Support(0, 0, "xyz"), Support(3, 0, "z")),
                     loads=(Load(4, (0, 0, -2.0), 1), Load(7, (1.0, 0, 0), 2)))


def drawn(structure, **kw):
    """The open figure, drawn once (so the 3-D artists hold their projected 2-D geometry), and its axes."""
    fig = draw_structure(structure, None, **kw)
    fig.canvas.draw()
    return fig, fig.axes[0]


def projected(ax, points):
    """2-D coordinates that the axes' projection gives the global ``points`` (N x 3)."""
    x, y, _ = proj3d.proj_transform(*np.asarray(points, float).T, ax.get_proj())
    return np.column_stack([x, y])


def same_points(a, b):
    """True when the point sets a and b (rows) are equal up to order, to 1e-12 of their spread."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    tol = 1e-12 * max(np.ptp(a), np.ptp(b), 1e-300)
    return a.shape == b.shape and all(np.abs(b - p).max(axis=1).min() <= tol for p in a)


def marker_path(symbol):
    m = MarkerStyle(symbol)
    return m.get_path().transformed(m.get_transform()).vertices


@pytest.mark.parametrize("moved", [False, True])
def test_panels_edges_and_hinges_are_drawn_at_the_vertices_in_their_styles(moved):
    s = small_structure()
    V = X @ rotation_about([1, 2, 2], 0.7).T + [0.5, -1, 2] if moved else X     # the panels elsewhere
    fig, ax = drawn(s, vertices=V if moved else None)
    pat = s.pattern
    # panels: one filled polygon per panel on its vertices, shaded by its normal's angle to the light
    polys = [c for c in ax.collections if isinstance(c, art3d.Poly3DCollection)]
    assert len(polys) == 1 and len(polys[0].get_paths()) == 3
    light = LIGHT / np.linalg.norm(LIGHT)
    for path, colour in zip(polys[0].get_paths(), polys[0].get_facecolor()):
        match = [p for p, loop in enumerate(PANELS)
                 if same_points(path.vertices[:len(loop)], projected(ax, V[list(loop)]))]
        assert len(match) == 1
        shade = 0.45 + 0.45 * abs(loop_normal(V[list(PANELS[match[0]])]) @ light)
        assert colour == pytest.approx([0.55 * shade, 0.7 * shade, 0.9 * shade, 0.75], abs=1e-12)
    # lines: each boundary edge thin, black and solid; the door hinge dashed, the sliding hinge solid
    lines = {}
    for line in ax.lines:
        ends = np.column_stack(line.get_data_3d())
        key = frozenset(int(np.argmin(np.abs(V - e).max(axis=1))) for e in ends)
        assert all(np.abs(V - e).max(axis=1).min() < 1e-15 for e in ends)
        lines[key] = (line.get_linestyle(), line.get_color(), line.get_linewidth())
    boundary = {frozenset(e) for e in pat.boundary_edges}
    assert set(lines) == boundary | {frozenset((1, 2)), frozenset((4, 5))}
    assert all(lines[e] == ("-", "black", 1.0) for e in boundary)
    assert lines[frozenset((1, 2))] == ("--", "0.95", 1.6)          # door: dashed
    assert lines[frozenset((4, 5))] == ("-", "0.1", 1.6)            # sliding: solid
    assert ax.get_title() == "structure: door hinges dashed, sliding hinges solid"
    fig.clf()


def test_supports_and_loads_are_drawn_at_their_vertices():
    s = small_structure()
    fig, ax = drawn(s)
    scatters = [c for c in ax.collections if isinstance(c, art3d.Path3DCollection)]
    assert len(scatters) == 2
    for sup, sc in zip(s.supports, scatters):
        # a triangle where all three directions are held, a circle where some are; at the vertex
        assert np.allclose(sc.get_offsets(), projected(ax, X[[sup.vertex]]), rtol=0, atol=1e-12)
        assert np.allclose(sc.get_paths()[0].vertices, marker_path("^" if sup.dofs == "xyz" else "o"))
    # loads: an arrow ending at the loaded vertex, its length 0.15 of the structure's size for the largest force
    quivers = [c for c in ax.collections if isinstance(c, art3d.Line3DCollection)]
    assert len(quivers) == len(s.loads)
    segments = [sg for q in quivers for sg in q.get_segments()]
    assert len(segments) == 3 * len(s.loads)                        # shaft and two head strokes each
    scale = 0.15 * s.pattern.size / 2.0
    for ld in s.loads:
        tip = projected(ax, X[[ld.vertex]])[0]
        tail = projected(ax, (X[ld.vertex] - scale * np.asarray(ld.force))[None])[0]
        at_tip = [sg for sg in segments if np.allclose(sg[0], tip, rtol=0, atol=1e-12)]
        assert len(at_tip) == 3
        assert any(np.allclose(sg[1], tail, rtol=0, atol=1e-12) for sg in at_tip)
    fig.clf()


def test_labels_are_one_based_at_panel_centroids_and_hinge_midpoints():
    s = small_structure()
    fig, ax = drawn(s, labels=True)
    where = {t.get_text(): np.array(t.get_position_3d()) for t in ax.texts if t.get_color() == "navy"}
    assert set(where) == {"1", "2", "3"}
    for p, loop in enumerate(PANELS):
        assert where[str(p + 1)] == pytest.approx(X[list(loop)].mean(axis=0), abs=1e-15)
    hinges = {t.get_text(): np.array(t.get_position_3d()) for t in ax.texts if t.get_color() == "darkred"}
    assert hinges["1"] == pytest.approx(X[[1, 2]].mean(axis=0)) and hinges["2"] == pytest.approx(X[[4, 5]].mean(axis=0))
    fig.clf()


@pytest.mark.parametrize("ext", ["png", "pdf"])
def test_figure_is_written(tmp_path, ext):
    path = tmp_path / "sub" / f"s.{ext}"
    draw_structure(small_structure(), str(path), labels=True)
    assert path.read_bytes()[:4] == (b"\x89PNG" if ext == "png" else b"%PDF")


def test_png_figure_is_not_blank(tmp_path):
    import matplotlib.image as mpimg

    path = tmp_path / "s.png"
    draw_structure(small_structure(), str(path))
    img = mpimg.imread(str(path))[..., :3]
    # panels, edges and marks give many distinct colours and a spread of intensities
    assert img.std() > 0.05
    assert len(np.unique((img * 255).astype(int).reshape(-1, 3), axis=0)) > 50


def test_fold_snapshots_and_png_frames_from_the_report_layer(tmp_path):
    """A fold history (its frames, times, problem) drawn by report.figures: one panel collection per frame,
    later frames more opaque, labelled with their times; one PNG per frame with the same axes."""
    from types import SimpleNamespace

    import matplotlib.image as mpimg

    from chrono_origami.report import figures

    st = small_structure()
    R = rotation_about((0.0, 1.0, 0.0), np.radians(30))
    frames = [X, X @ R.T, X @ (R @ R).T]
    hist = SimpleNamespace(problem=SimpleNamespace(structure=st, name="three panels"), vertices=frames,
                           times=[0.0, 1.0, 2.0])
    fig = figures.draw_snapshots(hist, None, times=[0.0, 2.0, 2.1])      # 2.1 s: the nearest frame, 2 s, once
    ax = fig.axes[0]
    polys = [c for c in ax.collections if isinstance(c, art3d.Poly3DCollection)]
    assert [round(float(c.get_facecolor()[0][3]), 6) for c in polys] == [0.25, 0.75]
    assert [t.get_text() for t in ax.texts] == [" t = 0 s", " t = 2 s"]
    assert ax.get_title() == "three panels: snapshots"
    paths = figures.write_png_frames(hist, tmp_path / "png")
    assert [p.rsplit("/", 1)[1] for p in paths] == ["frame_0000.png", "frame_0001.png", "frame_0002.png"]
    shapes = {mpimg.imread(p).shape for p in paths}
    assert len(shapes) == 1
    assert figures.draw_snapshots(hist, str(tmp_path / "snap.png")) is not None and (tmp_path / "snap.png").stat().st_size
