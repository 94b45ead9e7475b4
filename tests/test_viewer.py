"""Chrono's Irrlicht view (--screenshot, --viz) under xvfb-run: real pictures, checked pixel by pixel.

Needs PyChrono with its Irrlicht module and xvfb-run (marked ``chrono``;
skipped with the reason when either is missing). Each picture is made in a
subprocess, as a user runs a scene or the command line, and is checked against
the camera of :mod:`chrono_origami.report.viewer`: panel, hinge, support and
load colours where the structure projects, nothing outside the frame.
"""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from chrono_origami import engines

pytest.importorskip("pychrono", exc_type=ImportError, reason=engines.chrono_unavailable_reason())
pytest.importorskip("pychrono.irrlicht", exc_type=ImportError, reason="this PyChrono has no Irrlicht module: the viewer needs it")

import matplotlib.image as mpimg  # noqa: E402
from matplotlib.colors import rgb_to_hsv  # noqa: E402

from chrono_origami.report import viewer  # noqa: E402
from chrono_origami.structure.foldfile import write_fold  # noqa: E402
from chrono_origami.patterns import kresling, miura  # noqa: E402

pytestmark = pytest.mark.chrono
XVFB = shutil.which("xvfb-run")
needs_xvfb = pytest.mark.skipif(XVFB is None, reason="xvfb-run is not installed (apt-get install xvfb xauth)")
ROOT = Path(__file__).resolve().parents[1]
W, H = viewer.WINDOW_SIZE
#: rows of the title and logo, left out of the colour counts (the Chrono logo is orange)
BAND = 80


def env(**extra):
    e = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    e.pop("CHRONO_DATA_PATH", None)
    e.update(extra)
    return e


def xvfb_run():
    """xvfb-run with a free display number (-a), searched from a number of this pytest-xdist worker's own (-n: 99
    without xdist, 200, 300, ... for gw0, gw1, ...): two workers starting an X server at once never take the same."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    first = 200 + 100 * int(worker[2:]) if worker.startswith("gw") and worker[2:].isdigit() else 99
    return [XVFB, "-a", "-n", str(first)]


def xvfb(args, server="-screen 0 1280x1024x24", **extra):
    """Run ``args`` under xvfb-run (:func:`xvfb_run`)."""
    return subprocess.run(xvfb_run() + ["-s", server] + [str(a) for a in args], capture_output=True, text=True,
                          timeout=300, cwd=ROOT, env=env(**extra))


def load_png(path):
    img = np.asarray(mpimg.imread(path))[..., :3]
    return np.round(img * 255).astype(np.uint8) if img.dtype != np.uint8 else img


def classes(img):
    """Boolean masks of the view's colours (hue in degrees, saturation, value)."""
    hsv = rgb_to_hsv(img / 255.0)
    h, s, v = hsv[..., 0] * 360, hsv[..., 1], hsv[..., 2]
    bg = np.all(np.abs(img.astype(int) - np.round(np.array(viewer.BACKGROUND) * 255)) <= 2, axis=-1)
    return {
        "background": bg,
        "panel": (h >= 25) & (h <= 55) & (s >= 0.12) & (s <= 0.55) & (v >= 0.15),  # (0.80, 0.72, 0.55) shaded
        "load": (h >= 15) & (h <= 40) & (s >= 0.7) & (v >= 0.3),
        "door": (h >= 205) & (h <= 240) & (s >= 0.45) & (v >= 0.2),
        "sliding": ((h <= 15) | (h >= 345)) & (s >= 0.45) & (v >= 0.2),
        "support": (h >= 110) & (h <= 160) & (s >= 0.4) & (v >= 0.15),
    }


def near(mask, px, radius=14):
    """True if ``mask`` has a pixel within ``radius`` of pixel (column, row) ``px``."""
    c, r = int(round(px[0])), int(round(px[1]))
    return bool(mask[max(r - radius, 0):r + radius + 1, max(c - radius, 0):c + radius + 1].any())


def count(mask, px, radius=14):
    """Pixels of ``mask`` within ``radius`` of pixel (column, row) ``px``."""
    c, r = int(round(px[0])), int(round(px[1]))
    return int(mask[max(r - radius, 0):r + radius + 1, max(c - radius, 0):c + radius + 1].sum())


def check_picture(img, structure):
    """Checks common to every screenshot; returns the colour masks and the projected vertices."""
    assert img.shape == (H, W, 3)
    assert not viewer.is_blank(img)
    assert len(np.unique(img.reshape(-1, 3), axis=0)) > 500           # shading, not flat fills
    assert img.std() > 15
    m = classes(img)
    body = np.zeros_like(m["background"])
    body[BAND:] = True
    # the background is the most common colour, and the structure covers a fair part of the frame
    assert 0.35 < m["background"].mean() < 0.95
    # nothing is cut off: the structure stays inside the frame, and inside its projected extent
    target, eye = viewer.frame_camera(viewer.view_points(structure), (W, H))
    P = viewer.project(viewer.view_points(structure), eye, (W, H))
    assert P[:, 0].min() > 0 and P[:, 0].max() < W and P[:, 1].min() > 0 and P[:, 1].max() < H
    rows, cols = np.nonzero(~m["background"] & body)
    assert cols.min() >= P[:, 0].min() - 6 and cols.max() <= P[:, 0].max() + 6
    assert rows.min() >= P[:, 1].min() - 6 and rows.max() <= P[:, 1].max() + 6
    assert cols.min() > 5 and cols.max() < W - 6 and rows.max() < H - 6
    # framed, not lost in the middle: the drawing spans most of the frame in one direction
    assert max((cols.max() - cols.min()) / W, (rows.max() - rows.min()) / H) > 0.55
    # every panel is drawn where the camera puts it (its centroid is covered by the structure)
    pat = structure.pattern
    X = pat.vertices
    for p in range(pat.n_panels):
        c = viewer.project(X[list(pat.panels[p])].mean(0)[None], eye, (W, H))[0]
        assert not m["background"][int(round(c[1])), int(round(c[0]))], f"panel {p + 1} centroid shows background"
    assert (m["panel"] & body).mean() > 0.02
    # loads: orange at each loaded vertex (arrow tips); supports: green at each supported vertex
    for ld in structure.loads:
        assert near(m["load"], viewer.project(X[ld.vertex][None], eye, (W, H))[0]), f"no arrow at {ld}"
    seen = [near(m["support"], viewer.project(X[s.vertex][None], eye, (W, H))[0]) for s in structure.supports]
    assert sum(seen) >= len(seen) - 1            # one may hide behind the structure
    return m, body, X, eye


@needs_xvfb
def test_scene_screenshot_kresling_module(tmp_path):
    png = tmp_path / "kresling.png"
    r = xvfb([sys.executable, "scenes/kresling_module.py", "--engine", "reference", "--screenshot", png,
              "--color-by", "kind"])
    assert r.returncode == 0, r.stderr
    assert f"screenshot written to {png}" in r.stdout
    assert "Traceback" not in r.stderr and "fall back to OpenGL" not in r.stderr
    structure = kresling.kresling_module()
    img = load_png(png)
    m, body, X, eye = check_picture(img, structure)
    # six door hinges drawn (blue), no sliding hinge (red)
    assert (m["door"] & body).mean() > 0.01
    assert (m["sliding"] & body).mean() < 1e-4
    # the Chrono logo is in the corner when Chrono's data is found (beside this PyChrono, or in its prefix)
    if viewer.chrono_data_path() is not None:
        assert m["load"][10:74, 10:133].mean() > 0.05


#: the Miura-ori cantilever's screenshots of ``static --screenshot``: by force (--color-by F), the default, by kind
MIURA_SHOTS = {"F": ["--color-by", "F"], "default": [], "kind": ["--color-by", "kind"]}


@pytest.fixture(scope="module")
def miura_screenshots(tmp_path_factory):
    """``static FILE --engine reference --screenshot`` of the Miura-ori cantilever with each of :data:`MIURA_SHOTS`,
    under one xvfb-run: the command line's main run once per picture in one interpreter (as ``python -m
    chrono_origami`` runs it). Returns {name: (exit code, what that run printed, the PNG)}, read-only, checked by
    the three tests that use it."""
    if XVFB is None:
        pytest.skip("xvfb-run is not installed (apt-get install xvfb xauth)")
    tmp = tmp_path_factory.mktemp("miura_shots")
    fold = tmp / "miura.fold"
    write_fold(miura.miura_cantilever(), fold)
    script = "import sys\nfrom chrono_origami.cli import main\n"
    for name, extra in MIURA_SHOTS.items():
        argv = ["static", str(fold), "--engine", "reference", "--screenshot", str(tmp / f"{name}.png"), *extra]
        script += f"print('== {name}', flush=True)\nprint('exit {name}', main({argv!r}), flush=True)\n"
    r = xvfb([sys.executable, "-c", script])
    assert r.returncode == 0, r.stderr
    shots = {}
    for name in MIURA_SHOTS:
        out = r.stdout.split(f"== {name}\n", 1)[1].split(f"exit {name} ", 1)
        shots[name] = (int(out[1].split("\n", 1)[0]), out[0], tmp / f"{name}.png")
    return shots


@needs_xvfb
def test_cli_screenshot_miura_cantilever(miura_screenshots):
    structure = miura.miura_cantilever()
    code, out, png = miura_screenshots["kind"]
    assert code == 0, out
    img = load_png(png)
    m, body, X, eye = check_picture(img, structure)
    # 15 sliding hinges (red) and 1 door hinge (blue), each drawn at its own hinge
    pat = structure.pattern
    mids = {kind: [viewer.project(X[list(h.vertices)].mean(0)[None], eye, (W, H))[0]
                   for h in pat.hinges if structure.hinge_kinds[h.index] == kind] for kind in ("door", "sliding")}
    assert len(mids["door"]) == 1 and len(mids["sliding"]) == 15
    assert count(m["door"], mids["door"][0]) > 3 * count(m["sliding"], mids["door"][0])
    assert sum(count(m["sliding"], c) > 3 * count(m["door"], c) for c in mids["sliding"]) >= 13
    assert (m["sliding"] & body).mean() > 0.01 and (m["door"] & body).mean() > 0.002


def viz_script(result):
    """A window opened, drawn, closed by the user and freed; its numbers written to the JSON file ``result``."""
    return (
        "import json, numpy as np\n"
        "from chrono_origami.patterns.kresling import kresling_module\n"
        "from chrono_origami.report import viewer\n"
        "v = viewer.StructureView(kresling_module(), size=(640, 480))\n"
        "n = v.run(max_frames=5)\n"
        "a = v.grab(); b = v.grab()\n"
        "v.vis.Quit()\n"                      # as when the user closes the window
        "after = v.run(max_frames=5)\n"
        "v.close()\n"
        f"open({str(result)!r}, 'w').write(json.dumps({{'n': n, 'after': after, 'frames': v.frames, "
        "'shape': a.shape, 'same': bool((a == b).all()), 'colours': len(np.unique(a.reshape(-1, 3), axis=0))}))\n"
        "viewer.show(kresling_module(), interactive=True, max_frames=3)\n")


def check_viz_run(r, result):
    assert r.returncode == 0, r.stderr
    out = json.loads(result.read_text())
    assert out["n"] == 5 and out["after"] == 0 and out["frames"] == 7
    assert out["shape"] == [480, 640, 3] and out["colours"] > 200
    assert out["same"]                              # a still view: the camera does not drift between frames
    assert "viewer closed after 3 frames" in r.stdout.splitlines()


@pytest.fixture(scope="module")
def viz_run(tmp_path_factory):
    """One run of :func:`viz_script` under xvfb-run, checked two ways by the two tests below: on a Chrono data folder
    with fonts only when Chrono's own is found (the fonts copied from it), else on the default. Returns (the
    CompletedProcess, the JSON file, the data folder or None)."""
    if XVFB is None:
        pytest.skip("xvfb-run is not installed (apt-get install xvfb xauth)")
    tmp = tmp_path_factory.mktemp("viz")
    found = viewer.chrono_data_path()
    data = None if found is None else tmp / "data"
    extra = {}
    if data is not None:
        shutil.copytree(os.path.join(found, "fonts"), data / "fonts")
        extra["CHRONO_DATA_PATH"] = str(data)
    result = tmp / "viz.json"
    return xvfb([sys.executable, "-c", viz_script(result)], **extra), result, data


@needs_xvfb
def test_viz_window_opens_renders_and_closes(viz_run):
    r, result, _ = viz_run
    check_viz_run(r, result)


@needs_xvfb
def test_data_folder_without_colormaps_and_logo_is_one_notice_and_keeps_stdout_clean(viz_run):
    """A Chrono data folder with fonts only: one notice names what is missing; stdout holds only our lines."""
    r, result, data = viz_run
    if data is None:
        pytest.skip("no Chrono data folder with fonts/ to copy the fonts from")
    check_viz_run(r, result)
    # Chrono's own "Cannot open colormap data file ..." went to neither stream; our notice, once per view
    assert r.stdout.splitlines() == ["viewer closed after 3 frames"]
    assert "Cannot open colormap" not in r.stderr
    notice = (f"notice: Chrono data folder {os.path.join(str(data), '')!r} lacks logo_chrono_alpha.png (the logo), "
              "colormaps/jet-table-float-0512.csv (Chrono's default colour map, unused by this view); "
              "drawing without them")
    assert r.stderr.splitlines().count(notice) == 2, r.stderr
    # nothing missing: no notice
    assert viewer.missing_data_files(viewer.chrono_data_path()) == []


@needs_xvfb
def test_without_chrono_data_the_view_still_renders(tmp_path):
    png = tmp_path / "nodata.png"
    script = ("import sys\nfrom chrono_origami.patterns.kresling import kresling_module\n"
              "from chrono_origami.report import viewer\n"
              "viewer._data_candidates = lambda path: []\n"
              f"viewer.show(kresling_module(), screenshot={str(png)!r})\n")
    r = xvfb([sys.executable, "-c", script])
    assert r.returncode == 0, r.stderr
    assert "notice: Chrono data (fonts/) not found; set $CHRONO_DATA_PATH" in r.stderr
    img = load_png(png)
    m, body, X, eye = check_picture(img, kresling.kresling_module())
    assert not m["load"][10:74, 10:133].any()            # no logo


def one_line_error(r, text):
    assert r.returncode == 1, (r.returncode, r.stderr)
    err = r.stderr.strip().splitlines()
    assert err[-1].startswith("error: ") and text in err[-1], r.stderr
    assert "Traceback" not in r.stderr


def test_no_display_is_a_one_line_error(tmp_path):
    e = env()
    e.pop("DISPLAY", None)
    r = subprocess.run([sys.executable, "scenes/kresling_module.py", "--engine", "reference", "--screenshot",
                        str(tmp_path / "x.png")], capture_output=True, text=True, timeout=300, cwd=ROOT, env=e)
    one_line_error(r, "no X display ($DISPLAY is not set): run under xvfb-run")
    assert not (tmp_path / "x.png").exists()


def test_bad_screenshot_name_and_data_path_are_one_line_errors(tmp_path):
    scene = [sys.executable, "scenes/kresling_module.py", "--engine", "reference", "--screenshot"]
    r = subprocess.run(scene + [str(tmp_path / "x.jpg")], capture_output=True, text=True, timeout=300, cwd=ROOT,
                       env=env(DISPLAY=":0"))
    assert r.returncode == 2 and r.stderr.count("\n") == 1, (r.returncode, r.stderr)    # a bad option value
    assert r.stderr.startswith("error: argument --screenshot: expected a .png file name, got ")
    r = subprocess.run(scene + [str(tmp_path / "x.png")], capture_output=True, text=True, timeout=300, cwd=ROOT,
                       env=env(DISPLAY=":0", CHRONO_DATA_PATH=str(tmp_path)))
    one_line_error(r, f"Chrono data folder {str(tmp_path)!r} (from $CHRONO_DATA_PATH) has no fonts/ folder")


def test_viewer_errors_are_raised_and_the_command_line_maps_them(monkeypatch, tmp_path, capsys):
    # the viewer raises the project's ViewerError (no SystemExit of its own); cli.app.run prints one line, exit 1
    from chrono_origami.cli import app
    from chrono_origami.tools.errors import ViewerError

    monkeypatch.delenv("DISPLAY", raising=False)
    with pytest.raises(ViewerError, match=r"no X display \(\$DISPLAY is not set\)"):
        viewer.show(kresling.kresling_module(), screenshot=str(tmp_path / "x.png"))
    with pytest.raises(ViewerError, match="expected a .png file name"):
        viewer.show(kresling.kresling_module(), screenshot=str(tmp_path / "x.jpg"))
    st = kresling.kresling_module()
    with pytest.raises(ViewerError, match=r"frame 1 has shape \(3, 3\); the pattern needs 6 x 3 vertex coordinates"):
        viewer.play(st, [st.pattern.vertices, st.pattern.vertices[:3]], png_dir=str(tmp_path / "frames"))
    assert not (tmp_path / "frames").exists()
    assert app.exit_code(ViewerError("x")) == app.EXIT_INPUT
    assert app.run(viewer.show, st, screenshot=str(tmp_path / "x.png")) == app.EXIT_INPUT
    assert capsys.readouterr().err == ("error: no X display ($DISPLAY is not set): run under xvfb-run, e.g. xvfb-run -a "
                                       "python -m chrono_origami static FILE.fold --screenshot view.png\n")
    assert not (tmp_path / "x.png").exists()


@needs_xvfb
def test_screen_without_glx_visual_is_a_one_line_error(tmp_path):
    # an 8-bit X screen has no GLX visual: Irrlicht cannot create its OpenGL device
    r = xvfb([sys.executable, "scenes/kresling_module.py", "--engine", "reference", "--screenshot",
              tmp_path / "x.png"], server="-screen 0 640x480x8")
    one_line_error(r, "Irrlicht could not open an OpenGL window")
    assert not (tmp_path / "x.png").exists()


def test_camera_frames_every_structure_tightly():
    for structure in (kresling.kresling_module(), miura.miura_cantilever(), kresling.kresling_module(height=2.0)):
        pts = viewer.view_points(structure)
        for size in ((1024, 768), (400, 800)):
            w, h = size
            target, eye = viewer.frame_camera(pts, size)
            P = viewer.project(pts, eye, size)
            x = np.abs(P[:, 0] - w / 2) / (w / 2)
            y = np.abs(P[:, 1] - h / 2) / (h / 2)
            assert x.max() <= viewer.FILL[0] + 1e-9 and y.max() <= viewer.FILL[1] + 1e-9
            # tight: the fill limit is reached in one direction
            assert max(x.max() - viewer.FILL[0], y.max() - viewer.FILL[1]) > -1e-6
            assert np.allclose(viewer.project(target[None], eye, size)[0], (w / 2, h / 2))


# ------------------------------------------------------------------ fold playback
def _wedge_fold(tmp_path):
    from chrono_origami.patterns import yoshimura
    from chrono_origami.structure.structure import Structure

    path = tmp_path / "wedge.fold"
    write_fold(Structure(yoshimura.wedge_pattern()), path)
    return path


#: the wedge folded by 1 rad in 3 frames, by the reference engine (the viewer draws what any engine folded; Chrono's
#: fold of the command line: tests/test_fold_targets.py, of this fold: tests/test_folding.py)
FOLD_ARGS = ["--drive", "1-15", "--rate", "0.05", "--time", "20", "--hold", "6", "--along", "2,4,8,10,12-16:x",
             "--block", "14:xy", "--from-singular", "--frames", "2", "--quiet", "--engine", "reference"]


@needs_xvfb
def test_fold_played_as_irrlicht_png_frames_and_from_its_fold_file(tmp_path):
    """The Yoshimura wedge folded by 1 rad: 3 Irrlicht frames, the wedge's tip moved where the camera puts it.

    ``play`` of the written fold.fold draws the same pictures below the title.
    """
    wedge = _wedge_fold(tmp_path)
    r = xvfb([sys.executable, "-m", "chrono_origami", "fold", wedge, *FOLD_ARGS, "--out", tmp_path / "out",
              "--png-frames", tmp_path / "irr", "--png-renderer", "irrlicht"])
    assert r.returncode == 0, r.stderr
    assert f"wrote 3 Irrlicht PNG frames to {tmp_path / 'irr'}" in r.stdout
    names = sorted(os.listdir(tmp_path / "irr"))
    assert names == [f"frame_{k:04d}.png" for k in range(3)]
    imgs = [load_png(tmp_path / "irr" / n) for n in names]
    structure, frames, times = viewer.fold_file_frames(tmp_path / "out" / "fold.fold")
    assert times == pytest.approx([0, 10, 20]) and len(frames) == 3
    for img in imgs:
        assert img.shape == (H, W, 3) and not viewer.is_blank(img)
        assert len(np.unique(img.reshape(-1, 3), axis=0)) > 200
    # the camera frames every configuration of the fold
    pts = np.vstack([viewer.view_points(structure.with_pattern(structure.pattern.with_vertices(X))) for X in frames])
    target, eye = viewer.frame_camera(pts, (W, H))
    first, last = classes(imgs[0]), classes(imgs[-1])
    X0, X1 = frames[0], frames[-1]
    tip = int(np.argmax(np.linalg.norm(X1 - X0, axis=1)))
    assert tip == 25 and np.linalg.norm(X1[tip] - X0[tip]) > 0.5        # vertex 26, the wedge's tip
    p0, p1 = viewer.project(np.array([X0[tip], X1[tip]]), eye, (W, H))
    assert np.linalg.norm(p1 - p0) > 60
    # the tip is drawn where it is in each frame, and the place it left is background
    assert count(~first["background"], p0, 6) > 20 and count(~first["background"], p1, 6) == 0
    assert count(~last["background"], p1, 6) > 20 and count(~last["background"], p0, 6) == 0
    # the held vertex 6 stays drawn in both
    p6 = viewer.project(X0[5][None], eye, (W, H))[0]
    assert count(~first["background"], p6, 6) > 20 and count(~last["background"], p6, 6) > 20
    changed = np.any(imgs[0][BAND:] != imgs[-1][BAND:], axis=-1)
    assert changed.mean() > 0.02
    # every frame differs from the one before: the panels moved frame by frame
    for a, b in zip(imgs, imgs[1:]):
        assert np.any(a[BAND:] != b[BAND:], axis=-1).mean() > 0.005
    r = xvfb([sys.executable, "-m", "chrono_origami", "play", tmp_path / "out" / "fold.fold", "--png-frames",
              tmp_path / "play"])
    assert r.returncode == 0, r.stderr
    assert sorted(os.listdir(tmp_path / "play")) == names
    for n, img in zip(names, imgs):
        assert np.array_equal(load_png(tmp_path / "play" / n)[BAND:], img[BAND:]), n


@needs_xvfb
def test_fold_viz_window_plays_the_frames(tmp_path):
    wedge = _wedge_fold(tmp_path)
    script = (
        "import sys\n"
        "from chrono_origami.cli import main\n"
        "from chrono_origami.report import viewer\n"
        "played = []\n"
        "def play(*a, **k):\n"
        "    played.append(len(a[1]))\n"
        "    return real(*a, **dict(k, max_frames=6))\n"
        "real, viewer.play = viewer.play, play\n"
        f"rc = main(['fold', {str(wedge)!r}] + {FOLD_ARGS!r} + ['--viz'])\n"
        "print('rc', rc, 'frames', played)\n")
    r = xvfb([sys.executable, "-c", script])
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    assert "viewer closed after 6 frames" in lines and lines.index("viewer closed after 6 frames") < \
        lines.index("rc 0 frames [3]")


def test_play_errors_are_one_line(tmp_path, capsys):
    from cli_output import run

    code, _, err = run(capsys, "play", _wedge_fold(tmp_path))          # the command line's main, in this process
    assert code == 2 and err.strip() == "error: play: give --viz and/or --png-frames DIR"


@needs_xvfb
def test_screenshot_colours_hinges_by_force_with_the_figures_map(miura_screenshots):
    """static --screenshot --color-by F: each hinge glyph in the viridis colour of its |F| (the figure's map and
    scale): the largest (hinge 16 of the Miura cantilever, 13.81) in the map's end colour, yellow, the others
    (0 .. 0.041 of it) dark purple; the colour bar at the right edge runs from the end colour (top) to the start
    colour (bottom), pixel for pixel (drawn in 2-D, unlit)."""
    from chrono_origami.analysis import static as analysis
    from chrono_origami.report import hinge_colors

    structure = miura.miura_cantilever()
    code, out, png = miura_screenshots["F"]
    assert code == 0, out
    coloring = hinge_colors.coloring(analysis.static(structure, "reference"), "|F|")
    top, value = coloring.largest()
    assert top == 15 and abs(value - 13.81) < 0.01
    assert coloring.caption() in out
    img = load_png(png)
    cmap = hinge_colors.colormap(hinge_colors.SEQUENTIAL)
    left, bar_top, right, bottom = viewer.bar_box((W, H))
    mid = (left + right) // 2
    assert np.abs(img[bar_top + 1, mid].astype(int) - np.round(np.array(cmap(1.0)[:3]) * 255)).max() <= 2
    assert np.abs(img[bottom - 2, mid].astype(int) - np.round(np.array(cmap(0.0)[:3]) * 255)).max() <= 2
    # the rest of the picture as every screenshot (the bar blanked out: it lies beside the structure)
    rest = img.copy()
    rest[:, left - 70:] = np.round(np.array(viewer.BACKGROUND) * 255).astype(np.uint8)
    m, body, X, eye = check_picture(rest, structure)
    hsv = rgb_to_hsv(img / 255.0)
    h, s, v = hsv[..., 0] * 360, hsv[..., 1], hsv[..., 2]
    yellow = (h >= 45) & (h <= 65) & (s >= 0.5) & (v >= 0.3)          # viridis near 1 (lit)
    purple = (h >= 260) & (h <= 300) & (s >= 0.35)                       # viridis near 0 (lit)
    mids = [viewer.project(X[list(hh.vertices)].mean(0)[None], eye, (W, H))[0] for hh in structure.pattern.hinges]
    assert count(yellow, mids[top]) > 40 and count(yellow, mids[top]) > 3 * count(purple, mids[top])
    others = [k for k in range(len(mids)) if k != top]
    assert sum(count(purple, mids[k]) > 3 * count(yellow, mids[k]) for k in others) >= 13   # one may hide behind 16
    # no door-blue or sliding-red glyph is left: every hinge is coloured by its force
    assert (m["door"] & body).mean() < 1e-4 and (m["sliding"] & body).mean() < 1e-4


@needs_xvfb
def test_screenshot_default_is_the_figures_colouring(tmp_path, miura_screenshots):
    """Without --color-by the viewer colours hinges as --figure does: by |F| when the statics is determined (the
    same picture as --color-by F, and the same caption), by kind when it is not (the Kresling tower with door
    hinges under the proposed support: M = 0, S = 9, exit 3, door blue glyphs and the one-line notice)."""
    from chrono_origami.structure.structure import Structure

    for name in ("default", "F"):
        code, out, _ = miura_screenshots[name]
        assert code == 0, out
        assert ("hinges coloured by force resultant |F|, viridis from 0 to 13.81; largest |F| = 13.81 at hinge 16"
                in out)
    a, b = load_png(miura_screenshots["default"][2]), load_png(miura_screenshots["F"][2])
    assert a.shape == b.shape and np.abs(a.astype(int) - b.astype(int)).max() <= 2
    tower = tmp_path / "tower.fold"
    write_fold(Structure(kresling.kresling_tower(2, door_module=None).pattern), tower)
    png = tmp_path / "tower.png"
    r = xvfb([sys.executable, "-m", "chrono_origami", "static", tower, "--engine", "reference", "--screenshot", png,
              "--support", "auto", "--load", "max-z:0,0,-1"])
    assert r.returncode == 3, r.stderr
    assert "hinges drawn by kind, not coloured by |F|: the statics is not determined" in r.stdout
    m = classes(load_png(png))
    assert (m["door"][BAND:]).mean() > 0.005 and (m["sliding"][BAND:]).mean() < 1e-4
