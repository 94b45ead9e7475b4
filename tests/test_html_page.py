"""The results page (``--html FILE``, ``co.report.html``) in a real browser: a headless system Chromium driven by
Playwright (``tests/browser.py``; skipped with the reason where no browser can be had).

Each page is written the way a user writes it (the command line, run in this process through ``cli.main`` as
``python -m chrono_origami`` runs it, the README's scene script in a child process; or ``co.report.html``) and
checked as a user
sees it: it loads from its file with no console error and no request for anything else, its 3-D view is drawn
(pixels of a screenshot), hovering over a hinge shows the rows of hinges.csv for it, character for character,
the fold slider moves the drawn structure to the frame the fold wrote, and a failed analysis's NaN shows as
``nan`` in a colour on neither map.
"""
import contextlib
import csv
import io
import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import browser as br

ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
#: a folder to keep the static page's screenshot in (the README's picture: docs/figures)
SCREENSHOT_DIR = os.environ.get("CHRONO_ORIGAMI_SCREENSHOTS")

REASON = br.unavailable()
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")


def run(*args, cwd=ROOT):
    """A script run in a child process (the README's scene): its completed process; exit 0 asserted."""
    p = subprocess.run([sys.executable, *map(str, args)], cwd=cwd, env=ENV, capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr
    return p


def cli(*args, cwd):
    """``python -m chrono_origami ARGS`` run in ``cwd`` in this process (``cli.main``, what ``__main__`` calls: the
    same parser, command and page, without a child interpreter's start-up); its stdout. Exit 0 asserted."""
    from chrono_origami.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(cwd), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in args])
    assert code == 0, out.getvalue()[-3000:] + err.getvalue()
    return out.getvalue()


def read_csv(path):
    with open(path) as f:
        rows = [r for r in csv.reader(line for line in f if not line.startswith("#"))]
    return rows[0], rows[1:]


@pytest.fixture(scope="module")
def chromium():
    try:
        with br.chromium() as b:
            yield b
    except Exception as e:            # a browser that cannot start here: the reason, not a failure
        if "Executable doesn't exist" in str(e) or "Failed to launch" in str(e):
            pytest.skip(f"Chromium does not start: {str(e).splitlines()[0]}")
        raise


@pytest.fixture(scope="module")
def cantilever(tmp_path_factory):
    """The Miura-ori cantilever scene with --out and --html, as the README runs it."""
    here = tmp_path_factory.mktemp("cantilever")
    (here / "scenes").symlink_to(ROOT / "scenes")
    p = run("scenes/miura_cantilever.py", "--out", "out/miura_cantilever", "--html", "out/miura_cantilever/page.html",
            cwd=here)
    assert "results page written to out/miura_cantilever/page.html" in p.stdout
    return here / "out" / "miura_cantilever"


@pytest.fixture(scope="module")
def cantilever_visit(chromium, cantilever):
    """The cantilever's page, opened once for the tests that only read it (no click, no hover, no switch)."""
    return br.open_page(chromium, cantilever / "page.html")


def shown(visit):
    """What the page drew: its canvas as an RGB array."""
    from PIL import Image

    png = visit.page.locator("#gl").screenshot()
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)


def click_and_draw(visit, box):
    """Click ``box`` (a switch that changes the drawing) and wait until the page has drawn the change: its draw count
    (``renders``) went up, and two animation frames later that draw is on the screen."""
    n = visit.api("a => a.renders")
    box.click()
    visit.page.wait_for_function(f"window.chronoOrigami.renders > {n}")
    visit.page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def loaded_cleanly(visit):
    assert visit.errors == [], visit.errors
    assert visit.requests == [], visit.requests


def test_static_page_offline_drawn_and_counted(cantilever_visit, cantilever):
    page = cantilever / "page.html"
    size = page.stat().st_size
    assert size < 2_000_000                                      # the 660 KB library, a 12-panel structure
    text = page.read_text()
    assert not re.search(r"<(script|link|img|iframe)\b[^>]*\b(src|href)\s*=", text)   # every script inlined
    visit = cantilever_visit
    loaded_cleanly(visit)
    pixels = shown(visit)
    white = (pixels == 255).all(axis=2)
    assert 0.03 < 1 - white.mean() < 0.9, 1 - white.mean()       # something drawn, not the whole canvas
    colours = {tuple(c) for c in pixels[~white][::7]}
    assert len(colours) > 50                                     # shaded panels, coloured hinges, marks
    if SCREENSHOT_DIR:
        os.makedirs(SCREENSHOT_DIR, exist_ok=True)
        visit.page.screenshot(path=os.path.join(SCREENSHOT_DIR, "results_page.png"))
    counts = {e.get_attribute("data-key"): e.inner_text() for e in visit.page.locator("#counts .count").all()}
    summary = json.loads((cantilever / "counts.json").read_text())
    assert counts["M"].split()[-1] == str(summary["M"]) == "0"
    assert counts["S"].split()[-1] == str(summary["S"]) == "0"
    assert counts["status"].split()[-1] == "determined"
    assert visit.page.locator("#command").inner_text() == (
        "python3 scenes/miura_cantilever.py --out out/miura_cantilever --html out/miura_cantilever/page.html")
    kinds = visit.page.locator("#kinds").inner_text()
    assert "sliding hinges solid (15)" in kinds and "door hinges dashed (1)" in kinds
    assert "supports: 3" in visit.page.locator("#marks").inner_text()
    # the supports (red) at their vertices, the tip load's arrow (orange) at its vertex
    box = visit.page.locator("#gl").bounding_box()

    def near(vertex, colour, dy=0):
        where = visit.api("(a, v) => a.vertexScreen(v)", vertex)
        x, y = int(where["x"] - box["x"]), int(where["y"] - box["y"]) + dy
        patch = pixels[max(y - 6, 0):y + 7, max(x - 6, 0):x + 7].reshape(-1, 3)
        return (np.abs(patch - colour).max(axis=1) < 60).any()

    for vertex in (19, 20, 21):                                      # Table 3's supports
        assert near(vertex, (214, 39, 40), dy=4), vertex
    assert near(2, (255, 127, 14), dy=-8)                           # the unit tip load at vertex 2, downward
    assert not near(1, (214, 39, 40), dy=4) and not near(20, (255, 127, 14), dy=-8)   # not everywhere


def hover(visit, hinge):
    """Move the pointer over ``hinge`` (1-based) where the page draws it; the tooltip's rows (cells as text)."""
    where = visit.api("(a, h) => a.hingeScreen(h)", hinge)
    visit.page.mouse.move(where["x"] + 40, where["y"] + 40)
    visit.page.mouse.move(where["x"], where["y"], steps=4)
    tip = visit.page.locator("#tooltip")
    tip.wait_for(state="visible")
    visit.page.wait_for_function(f"document.getElementById('tooltip').dataset.hinge === '{hinge}'")
    # the cells' innerText (what Locator.inner_text reads), every cell of a table read in one call
    if tip.locator("table.transposed").count():     # a wide table: one row per column, one column per side
        lines = tip.locator("table.transposed tr").evaluate_all(
            "rows => rows.map(r => [[...r.querySelectorAll('th')].map(c => c.innerText),"
            " [...r.querySelectorAll('td:not(.unit)')].map(c => c.innerText)])")
        assert all(len(th) == 1 for th, _ in lines), lines          # one name a row
        header = [th[0] for th, _ in lines]
        return header, [list(side) for side in zip(*(cols for _, cols in lines))]
    rows = tip.locator("tr.side").evaluate_all(
        "rows => rows.map(r => [...r.querySelectorAll('td')].map(c => c.innerText))")
    header = tip.locator("tr.names th").all_inner_texts()
    return header, rows


def engineering(x, top):
    """The page's default text of ``x`` in a table whose largest |value| is ``top`` (``eng`` in page.js)."""
    if not math.isfinite(x):
        return repr(x)
    if x == 0 or abs(x) < 1e-12 * top:
        return "0"
    if 1e-3 <= abs(x) < 1e4:
        return repr(float(f"{x:.4g}")).removesuffix(".0")
    mant, exp = f"{x:.3e}".split("e")
    return mant.rstrip("0").rstrip(".") + "e" + ("-" if exp[0] == "-" else "+") + str(int(exp[1:]))


def significant_digits(text):
    """The significant digits of a number's text ("0.001230" -> 3, "1.235e+5" -> 4, "nan" -> 0)."""
    mant = text.split("e")[0].lstrip("-").replace(".", "").lstrip("0").rstrip("0")
    return sum(ch.isdigit() for ch in mant)


def every_digit(visit, on=True):
    """Tick (or clear) the switch that shows every digit, the CSV's text."""
    box = visit.page.locator("#alldigits")
    if box.is_checked() != on:
        box.click()


def test_hover_the_largest_force_hinge_shows_its_hinges_csv_rows(chromium, cantilever):
    header, rows = read_csv(cantilever / "hinges.csv")
    force = {}
    for r in rows:
        h, f = int(r[0]), math.hypot(*(float(x) for x in r[5:8]))
        force[h] = max(force.get(h, 0.0), f)
    largest = max(force, key=force.get)
    visit = br.open_page(chromium, cantilever / "page.html")
    every_digit(visit)
    shown_header, sides = hover(visit, largest)
    assert shown_header == header
    assert sides == [r for r in rows if int(r[0]) == largest]    # both sides, the very text of hinges.csv
    assert len(sides) == 2
    value = float(visit.page.locator("#tipvalue").inner_text())
    assert value == pytest.approx(force[largest], rel=1e-14)
    # the largest hinge has the end colour of the figures' map (viridis), the colour bar says so
    import matplotlib

    end = matplotlib.colormaps["viridis"](1.0)[:3]
    assert visit.api("(a, h) => a.hingeColor(h)", largest) == pytest.approx(end, abs=1 / 255)
    assert f"at hinge {largest}" in visit.page.locator("#caption").inner_text()
    loaded_cleanly(visit)


def test_tables_sort_by_a_column(chromium, cantilever):
    _, rows = read_csv(cantilever / "hinges.csv")
    visit = br.open_page(chromium, cantilever / "page.html")
    every_digit(visit)
    table = visit.page.locator("#state-table-0")
    table.locator("th", has_text=re.compile(r"^N( [▲▼])?$")).click()
    first = [c.inner_text() for c in table.locator("tbody tr").first.locator("td").all()]
    assert first == min(rows, key=lambda r: (float(r[5]), rows.index(r)))
    table.locator("th", has_text=re.compile(r"^N( [▲▼])?$")).click()                  # again: descending
    first = [c.inner_text() for c in table.locator("tbody tr").first.locator("td").all()]
    assert first == max(rows, key=lambda r: (float(r[5]), -rows.index(r)))
    loaded_cleanly(visit)


def test_numbers_are_written_as_the_csv_files_write_them(cantilever_visit):
    """The page's number text (``pyRepr``) is Python's repr, the CSV cell, for every magnitude."""
    rng = np.random.default_rng(3)
    xs = [float(x) for x in rng.standard_normal(300) * 10.0 ** rng.integers(-30, 30, 300)]
    xs += [0.1, 1e16, 1e-5, 1e-4, 123456789012345.6, 5e-324, 1.7976931348623157e308, 2.0, -0.5, 1e22, 1e21]
    assert cantilever_visit.api("(a, xs) => xs.map(a.pyRepr)", xs) == [repr(x) for x in xs]
    loaded_cleanly(cantilever_visit)


# ------------------------------------------------------------------ a failed analysis written anyway
def test_nan_and_inf_shown_as_such_never_on_the_map(chromium, tmp_path):
    import chrono_origami as co
    from chrono_origami.report import tables

    result = co.static(co.miura.miura_cantilever(), engine="reference")
    bad = [a for a in result.hinge_actions if a.hinge == 0]           # hinge 1 (sliding: a solid line)
    bad[0].force = np.array([np.nan, 0.0, 0.0])
    worse = [a for a in result.hinge_actions if a.hinge == 4]
    worse[1].force = np.array([np.inf, 0.0, 0.0])
    path = co.report.html(result, tmp_path / "failed.html", command="a failed analysis")
    visit = br.open_page(chromium, path)
    loaded_cleanly(visit)
    assert "2 hinges NaN or infinite" in visit.page.locator("#nonfinite").inner_text()
    assert visit.api("(a, h) => a.hingeColor(h)", 1) == [1, 0, 1]
    assert visit.api("(a, h) => a.hingeColor(h)", 5) == [1, 0, 1]
    finite = [h for h in range(1, 17) if h not in (1, 5)]
    assert all(visit.api("(a, h) => a.hingeColor(h)", h) != [1, 0, 1] for h in finite)
    # the scale is the finite values': the largest finite |F| at its hinge, as the figures say
    caption = visit.page.locator("#caption").inner_text()
    from chrono_origami.report import hinge_colors

    with np.errstate(invalid="ignore"):
        assert hinge_colors.coloring(result).caption() == caption
    assert "at hinge 16" in caption and "2 hinges NaN or infinite" in caption
    header, sides = hover(visit, 1)
    with np.errstate(invalid="ignore"):                              # inf times the frame's zeros
        expected = tables.csv_text(tables.HINGE_HEADER, result.hinge_rows()).splitlines()
        values = np.array(result.hinge_rows(), float)[:, 2:]
    top = np.abs(values[np.isfinite(values)]).max()
    # by default 4 significant digits, round-off (below 1e-12 of the table's largest) as 0
    assert sides == [[c if k < 2 else engineering(float(c), top) for k, c in enumerate(line.split(","))]
                     for line in expected[1:] if line.startswith("1,")]
    assert "0" in sides[0][2:] and max(significant_digits(c) for r in sides for c in r[2:]) <= 4
    every_digit(visit)                                              # the switch: the CSV's text
    header, sides = hover(visit, 1)
    assert sides == [line.split(",") for line in expected[1:] if line.startswith("1,")]
    assert "nan" in sides[0]
    assert visit.page.locator("#tipvalue").inner_text() == "nan"
    _, sides = hover(visit, 5)
    assert sides == [line.split(",") for line in expected[1:] if line.startswith("5,")]
    assert "-inf" in sides[1]
    # where hinge 1 is drawn, the pixels are magenta (a colour of neither map)
    visit.page.mouse.move(1, 1)
    visit.page.wait_for_function("document.getElementById('tooltip').hidden")
    visit.page.evaluate("window.chronoOrigami.setColorBy('|F|')")
    pixels = shown(visit)
    box = visit.page.locator("#gl").bounding_box()
    where = visit.api("(a, h) => a.hingeScreen(h)", 1)
    x, y = int(where["x"] - box["x"]), int(where["y"] - box["y"])
    patch = pixels[y - 3:y + 4, x - 3:x + 4].reshape(-1, 3)
    assert ((patch[:, 0] > 180) & (patch[:, 1] < 90) & (patch[:, 2] > 180)).any(), patch
    # the colour scale's range and log controls: values above the range at its end, NaN still magenta and counted
    import matplotlib

    values = np.array([visit.api("(a, h) => a.hingeValue(h)", h) for h in range(1, 17)])
    finite = values[np.isfinite(values)]
    half = float(finite.max()) / 2
    rmin, rmax = visit.page.locator("#rangemin"), visit.page.locator("#rangemax")
    rmin.fill("0")
    rmin.press("Enter")
    rmax.fill(repr(half))
    rmax.press("Enter")
    above = [h for h in range(1, 17) if np.isfinite(values[h - 1]) and values[h - 1] >= half]
    end = matplotlib.colormaps["viridis"](1.0)[:3]
    assert len(above) >= 1 and all(visit.api("(a, h) => a.hingeColor(h)", h) == pytest.approx(end, abs=1 / 255)
                                   for h in above)
    assert visit.page.locator("#barmax").inner_text() == engineering(half, 0)
    visit.page.locator("#logscale").check()
    assert "log scale" in visit.page.locator("#caption").inner_text()
    assert visit.api("a => a.hingeColor(1)") == pytest.approx([1, 0, 1])            # NaN: magenta, on no map
    assert "2 hinges NaN or infinite" in visit.page.locator("#nonfinite").inner_text()


# ------------------------------------------------------------------ a fold: the slider over its frames
def pair_fold():
    """Two unit squares and one valley crease (x = 1) with its target fold angle 90 deg, as an editor writes it."""
    return {"file_spec": 1.2, "file_title": "a valley fold",
            "vertices_coords": [[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0], [1, 1, 0], [2, 1, 0]],
            "faces_vertices": [[0, 1, 4, 3], [1, 2, 5, 4]],
            "edges_vertices": [[0, 1], [1, 2], [2, 5], [5, 4], [4, 3], [3, 0], [1, 4]],
            "edges_assignment": ["B"] * 6 + ["V"], "edges_foldAngle": [0] * 6 + [90]}


def test_fold_slider_draws_the_frames_of_the_fold(chromium, tmp_path):
    (tmp_path / "pair.fold").write_text(json.dumps(pair_fold()))
    cli("fold", "pair.fold", "--frames", "4", "--quiet", "--out", "F", "--html", "fold.html",
        cwd=tmp_path)
    visit = br.open_page(chromium, tmp_path / "fold.html")
    loaded_cleanly(visit)
    assert visit.api("a => [a.nStates, a.state]") == [5, 0]
    start = shown(visit)
    drawn = np.array(visit.api("a => Array.from(a.drawnVertices())")).reshape(-1, 3)
    assert drawn == pytest.approx(np.array(pair_fold()["vertices_coords"], float), abs=1e-7)
    slider = visit.page.locator("#frames")
    slider.focus()
    visit.page.keyboard.press("End")                                 # the last frame, as a user moves it
    assert visit.api("a => a.state") == 4
    # labelled by the percent of the targets the frame reached (FoldHistory.frame_percents), not of the frames
    assert visit.page.locator("#statelabel").inner_text().startswith("frame 4 of 4 (100 % of the targets): t = 1 s")
    hover(visit, 1)                                                  # the hinge's fold angle (deg) at this frame
    assert float(visit.page.locator("#tipangle").inner_text()) == pytest.approx(90, abs=0.05)
    _, last = read_csv(tmp_path / "F" / "vertices.csv")              # the folded state the fold wrote
    folded = np.array([[float(x) for x in r[1:]] for r in last])
    drawn = np.array(visit.api("a => Array.from(a.drawnVertices())")).reshape(-1, 3)
    assert drawn == pytest.approx(folded, abs=1e-6)                  # float32 positions of a 2 m sheet
    assert np.ptp(folded[:, 2]) > 0.5                                # it did fold out of the plane
    end = shown(visit)
    assert (np.abs(end - start).sum(axis=2) > 30).mean() > 0.01       # and the drawing changed
    visit.page.keyboard.press("Home")
    visit.page.locator("#play").click()
    visit.page.wait_for_function("window.chronoOrigami.state === 4", timeout=10000)
    loaded_cleanly(visit)


def test_a_fold_page_colours_mountains_and_valleys_apart(chromium, tmp_path):
    """Three squares, a valley (x = 1) and a mountain (x = 2) folded to 60 deg: on the fold page (coloured by
    mountain / valley) the two hinges differ in colour once folded, and the tooltip gives each one's fold angle."""
    strip = {"file_spec": 1.2, "file_title": "a valley and a mountain",
             "vertices_coords": [[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0], [0, 1, 0], [1, 1, 0], [2, 1, 0],
                                 [3, 1, 0]],
             "faces_vertices": [[0, 1, 5, 4], [1, 2, 6, 5], [2, 3, 7, 6]],
             "edges_vertices": [[0, 1], [1, 2], [2, 3], [3, 7], [7, 6], [6, 5], [5, 4], [4, 0], [1, 5], [2, 6]],
             "edges_assignment": ["B"] * 8 + ["V", "M"], "edges_foldAngle": [0] * 8 + [60, -60]}
    (tmp_path / "strip.fold").write_text(json.dumps(strip))
    cli("fold", "strip.fold", "--frames", "2", "--quiet", "--html", "fold.html", cwd=tmp_path)
    visit = br.open_page(chromium, tmp_path / "fold.html")
    loaded_cleanly(visit)
    assert visit.page.locator("#colorby").input_value() == "mv"
    visit.api("a => a.setState(2)")
    angles = [visit.api("(a, h) => a.foldAngle(h)", h) for h in (1, 2)]
    assert angles == pytest.approx([60, -60], abs=0.05)
    valley, mountain = (visit.api("(a, h) => a.hingeColor(h)", h) for h in (1, 2))
    assert max(abs(x - y) for x, y in zip(valley, mountain)) > 0.5
    assert "mountain red, valley blue" in visit.page.locator("#caption").inner_text()
    hover(visit, 2)
    assert float(visit.page.locator("#tipangle").inner_text()) == pytest.approx(-60, abs=0.05)
    if SCREENSHOT_DIR:
        visit.page.screenshot(path=os.path.join(SCREENSHOT_DIR, "results_page_fold.png"))


def reds(img):
    """Fraction of the canvas in the page's contact red (0xd62728, shaded: red well above green and blue)."""
    r, g, b = img[..., 0], img[..., 1], img[..., 2]
    return float(((r > 120) & (r > 2 * g) & (r > 2 * b)).mean())


def test_a_thick_fold_page_marks_its_first_contact(chromium, tmp_path):
    """The pair with the tapered placement to 60 deg, thickness 0.1 (closed form, tests/test_thickness.py: its
    bevels meet at 60 deg, 66.67 % of the 90 deg target): the fold stops at its first contact, frame 7 of 10
    (70 %); the page names the pair, percent and depth in the counts and on that frame, and draws the two
    panels red there and only there.

    The page draws the panels' solids, as the figures do. Each square [0, 1]^2 x [-t/2, t/2] loses the wedge
    between its top face and the bevel plane through the crease at beta = (180 - 60) / 2 = 60 deg from the panel:
    7 faces, 5 quadrilaterals (top, bottom, the bevel, the crease side below the mid-surface, the free side) and
    the two ends, pentagons (the rectangle with its corner cut), so 5 x 2 + 2 x 3 = 16 triangles a panel, 32
    drawn (4 for the flat squares), all 32 red on the contact frame. Flat (frame 0) the solids' vertices span
    x in [0, 2], y in [0, 1], z in [-t/2, t/2], and the top faces stop t / (2 tan 60 deg) short of the crease
    x = 1."""
    (tmp_path / "pair.fold").write_text(json.dumps(pair_fold()))
    stdout = cli("fold", "pair.fold", "--frames", "10", "--quiet", "--thickness", "0.1",
            "--placement", "tapered", "--taper-deg", "60", "--engine", "reference", "--html", "fold.html",
            cwd=tmp_path)
    assert "first at frame 7 (70 % of the targets): panels 1 and 2" in stdout
    visit = br.open_page(chromium, tmp_path / "fold.html")
    loaded_cleanly(visit)
    assert visit.api("a => [a.nStates, a.state, a.contact]") == [8, 0, None]
    assert visit.api("a => [a.drawnTriangles(), a.contactTriangles()]") == [32, 0]
    drawn = np.array(visit.api("a => Array.from(a.drawnVertices())")).reshape(-1, 3)
    np.testing.assert_allclose(drawn[:6], np.array(pair_fold()["vertices_coords"], float), atol=1e-7)
    solid = drawn[6:]
    t, cut = 0.1, 0.05 / np.tan(np.radians(60.0))
    np.testing.assert_allclose([solid[:, 0].min(), solid[:, 0].max(), solid[:, 1].min(), solid[:, 1].max(),
                                solid[:, 2].min(), solid[:, 2].max()], [0, 2, 0, 1, -t / 2, t / 2], atol=1e-7)
    top = np.unique(np.round(solid[np.abs(solid[:, 2] - t / 2) < 1e-6, 0], 6))
    np.testing.assert_allclose(top, [0, 1 - cut, 1 + cut, 2], atol=1e-6)
    counts = visit.page.locator("#counts").inner_text()
    assert "first contact" in counts and "panels 1 and 2 at 70 % of the targets, depth" in counts
    free = reds(shown(visit))
    slider = visit.page.locator("#frames")
    slider.focus()
    visit.page.keyboard.press("End")
    assert visit.api("a => [a.state, a.contact]") == [7, [1, 2]]
    assert visit.api("a => [a.drawnTriangles(), a.contactTriangles()]") == [32, 32]
    assert visit.page.locator("#statenote").inner_text().startswith("first contact: panels 1 and 2 at 70 %")
    hit = reds(shown(visit))
    assert free < 0.005 < 0.05 < hit                                 # the two panels fill a good part of the view
    loaded_cleanly(visit)


# ------------------------------------------------------------------ design, tolerance, dynamics
def kinds_shown(visit):
    return {e.get_attribute("data-kind"): e.inner_text() for e in visit.page.locator("#kinds .kind").all()}


def test_design_page_before_and_after(chromium, tmp_path):
    import chrono_origami as co

    co.write_fold(co.miura.miura_cantilever().with_hinge_kinds((co.DOOR,) * 16), tmp_path / "cantilever.fold")
    cli("design", "cantilever.fold", "-o", "designed.fold", "--html", "design.html",
        cwd=tmp_path)
    designed = co.read_structure(tmp_path / "designed.fold")
    sliding = designed.n_sliding
    visit = br.open_page(chromium, tmp_path / "design.html")
    loaded_cleanly(visit)
    assert visit.page.locator("#state-1").is_checked()                # after, at first
    assert kinds_shown(visit) == {"sliding": f"sliding hinges solid ({sliding})",
                                  "door": f"door hinges dashed ({16 - sliding})"}
    # after: the designed structure's hinge actions, those static writes for the design file
    cli("static", "designed.fold", "--out", "R", cwd=tmp_path)
    header, rows = read_csv(tmp_path / "R" / "hinges.csv")
    assert visit.page.locator("#colorby").input_value() == "|F|"
    every_digit(visit)
    assert hover(visit, 16) == (header, [r for r in rows if r[0] == "16"])
    visit.page.mouse.move(1, 1)
    visit.page.locator("#colorby").select_option("kind")
    after = [visit.api("(a, h) => a.hingeColor(h)", h) for h in range(1, 17)]
    visit.page.locator("#state-0").check()
    assert kinds_shown(visit) == {"door": "door hinges dashed (16)"}
    assert visit.page.locator("#statelabel").inner_text().startswith("before: all door hinges (M = 0, S = 15)")
    counts = {e.get_attribute("data-key"): e.inner_text().split()[-1] for e in visit.page.locator("#counts .count").all()}
    assert (counts["M before"], counts["S before"], counts["M"], counts["S"]) == ("0", "15", "0", "0")
    door, slide = (visit.api("(a, h) => a.hingeColor(h)", 1), after)
    assert all(c == door for c in (visit.api("(a, h) => a.hingeColor(h)", h) for h in range(1, 17)))
    assert sum(c != door for c in slide) == sliding                   # the sliding hinges in their own colour
    assert [h + 1 for h in range(16) if slide[h] != door] == [
        h + 1 for h, k in enumerate(designed.hinge_kinds) if getattr(k, "name", k) == "sliding"]


def test_tolerance_page_shows_the_locked_in_distribution(chromium, tmp_path):
    from test_cli_tolerance import strip_fold

    (tmp_path / "strip.fold").write_text(json.dumps(strip_fold()))
    cli("tolerance", "strip.fold", "--tol", "1e-4", "--out", "T", "--html", "tol.html",
        cwd=tmp_path)
    header, rows = read_csv(tmp_path / "T" / "locked_in.csv")
    visit = br.open_page(chromium, tmp_path / "tol.html")
    loaded_cleanly(visit)
    every_digit(visit)
    options = visit.page.locator("#colorby option").all_inner_texts()
    assert options == ["p95 N", "p95 TP", "p95 TO", "p95 MT", "p95 MP", "p95 MO", "hinge kind"]
    col = header.index("p95_N")
    largest = int(max(rows, key=lambda r: float(r[col]))[0])
    shown_header, sides = hover(visit, largest)
    assert shown_header == header and sides == [r for r in rows if int(r[0]) == largest]
    assert float(visit.page.locator("#tipvalue").inner_text()) == max(float(r[col]) for r in rows
                                                                       if int(r[0]) == largest)
    status = visit.page.locator("#counts .count[data-key=status]").inner_text()
    assert status.split()[-1] == "elastic"
    top_header, top = read_csv(tmp_path / "T" / "summary.csv")
    largest = visit.page.locator("#page-table-0")
    shown_header = largest.locator("tr.names th").all_inner_texts()
    k = top_header.index("locked_sd_N")                             # after structure, M, S, method, samples
    assert shown_header == top_header[k:]
    assert largest.locator("tbody td").all_inner_texts() == top[0][k:]


def test_dynamics_page_frames_and_hinge_actions(chromium, tmp_path):
    (tmp_path / "pair.fold").write_text(json.dumps(pair_fold()))
    cli("dynamics", "pair.fold", "--engine", "reference", "--thickness", "0.01", "--density",
        "1000", "--time", "0.2", "--dt", "0.01", "--output-interval", "0.05", "--motor", "1:torque:0.5", "--out",
        "D", "--html", "motion.html", cwd=tmp_path)
    header, rows = read_csv(tmp_path / "D" / "hinges_t.csv")
    visit = br.open_page(chromium, tmp_path / "motion.html")
    loaded_cleanly(visit)
    K = visit.api("a => a.nStates")
    times = sorted({r[0] for r in rows}, key=float)
    assert K == len(times) == 5
    visit.page.locator("#frames").focus()
    visit.page.keyboard.press("End")
    every_digit(visit)
    _, sides = hover(visit, 1)
    last = [r[1:] for r in rows if r[0] == times[-1]]                # the last frame's rows of hinges_t.csv
    assert sides == last, (header, sides, last)


@pytest.mark.parametrize("component", ["|F|", "N", "MO"])
def test_every_hinge_has_the_figures_colour(chromium, tmp_path, component):
    """The page's colour of every hinge is the PNG figure's (``HingeColoring.colors``): one map, one scale."""
    import chrono_origami as co
    from chrono_origami.report import hinge_colors

    result = co.static(co.miura.miura_cantilever(), engine="reference")
    visit = br.open_page(chromium, co.report.html(result, tmp_path / "page.html", color_by=component))
    loaded_cleanly(visit)
    assert visit.page.locator("#colorby").input_value() == component
    c = hinge_colors.coloring(result, component)
    assert visit.page.locator("#caption").inner_text() == c.caption()
    shown_colours = np.array([visit.api("(a, h) => a.hingeColor(h)", h) for h in range(1, 17)])
    assert shown_colours == pytest.approx(c.colors(), abs=0.5 / 255)    # the same 256-entry map, 8-bit


def test_a_minimum_norm_answer_says_so(chromium, tmp_path):
    import chrono_origami as co

    structure = co.miura.miura_cantilever().with_hinge_kinds((co.DOOR,) * 16)      # S = 15
    result = co.static(structure, engine="reference", allow_indeterminate=True)
    visit = br.open_page(chromium, co.report.html(result, tmp_path / "page.html"))
    loaded_cleanly(visit)
    counts = {e.get_attribute("data-key"): e.inner_text().split()[-1] for e in visit.page.locator("#counts .count").all()}
    assert (counts["M"], counts["S"], counts["status"]) == ("0", "15", "minimum-norm")
    title = visit.page.locator("#state-table-0 h3").inner_text()
    assert title.startswith("hinge actions (hinges.csv): minimum-norm answer, NOT determined (M = 0, S = 15)")
    assert "NOT determined" in visit.page.locator("#statenote").inner_text()


def test_rotate_pan_zoom_and_click_to_keep_a_hinge(chromium, cantilever):
    visit = br.open_page(chromium, cantilever / "page.html")
    mouse, box = visit.page.mouse, visit.page.locator("#gl").bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    def changed(before):
        visit.page.wait_for_timeout(100)
        after = shown(visit)
        return (np.abs(after - before).sum(axis=2) > 30).mean(), after

    view = shown(visit)
    mouse.move(cx, cy)
    mouse.down()
    mouse.move(cx + 120, cy + 40, steps=6)                           # left drag: rotate
    mouse.up()
    moved, view = changed(view)
    assert moved > 0.005
    mouse.move(cx, cy)
    mouse.down(button="right")
    mouse.move(cx + 80, cy, steps=6)                                 # right drag: pan
    mouse.up(button="right")
    moved, view = changed(view)
    assert moved > 0.005
    mouse.move(cx, cy)
    mouse.wheel(0, -400)                                             # wheel: zoom in
    moved, view = changed(view)
    assert moved > 0.005
    where = visit.api("(a, h) => a.hingeScreen(h)", 16)               # still found where it is drawn now
    mouse.click(where["x"], where["y"])
    mouse.move(1, 1)
    visit.page.wait_for_timeout(100)
    assert visit.page.locator("#tooltip").is_visible()                # a click keeps it
    assert visit.page.locator("#tiphinge").inner_text() == "16"
    loaded_cleanly(visit)


def test_modal_page_animates_the_mode_chosen_from_its_list(chromium, tmp_path):
    """A free 2 x 2 Miura patch split along the diagonals, crease springs: several modes; the list gives each with
    its frequency (modes.csv's), choosing one puts its cycle on the slider, and play goes round it."""
    from chrono_origami.crease.pattern import CreasePattern
    from chrono_origami.patterns import miura
    from chrono_origami.structure.foldfile import write_fold
    from chrono_origami.structure.hinges import DOOR
    from chrono_origami.structure.structure import Structure

    pat = miura.miura_patch(2, 2).pattern
    tp = CreasePattern(pat.vertices, [t for a, b, c, d in pat.panels for t in ((a, b, c), (a, c, d))])
    write_fold(Structure(tp, (DOOR,) * len(tp.hinges), 0.01, 1000.0, name="patch"), tmp_path / "patch.fold")
    cli("modal", "patch.fold", "--engine", "reference", "--crease-stiffness", "1",
        "--modes", "3", "--frames", "6", "--out", "M", "--html", "modes.html", cwd=tmp_path)
    _, rows = read_csv(tmp_path / "M" / "modes.csv")
    visit = br.open_page(chromium, tmp_path / "modes.html")
    loaded_cleanly(visit)
    assert visit.api("a => [a.nModes, a.nStates, a.state, a.mode]") == [3, 18, 0, 1]
    options = visit.page.locator("#modeselect option").all_inner_texts()
    assert options == [f"mode {k + 1}: {float(r[1]):.6g} Hz" for k, r in enumerate(rows)]
    start = shown(visit)
    visit.page.locator("#modeselect").select_option("2")             # the third mode, as a user picks it
    assert visit.api("a => [a.state, a.mode]") == [12, 3]
    assert visit.page.locator("#statelabel").inner_text() == f"{options[2]}, frame 1 of 6"
    assert (np.abs(shown(visit) - start).sum(axis=2) > 30).mean() > 0.001    # another mode's shape is drawn
    slider = visit.page.locator("#frames")
    slider.focus()
    visit.page.keyboard.press("End")
    assert visit.api("a => a.state") == 17
    visit.page.locator("#play").click()                                # round the cycle: back to its first frame
    visit.page.wait_for_function("window.chronoOrigami.state === 12", timeout=10000)
    visit.page.wait_for_function("window.chronoOrigami.state === 13", timeout=10000)
    loaded_cleanly(visit)


# ------------------------------------------------------------------ the engineer's display
def si_cantilever(tmp_path, kinds=None):
    """The Miura-ori cantilever as a FOLD file in metres (``frame_unit`` m: forces in N, moments in N m)."""
    import chrono_origami as co

    st = co.miura.miura_cantilever()
    co.write_fold(st if kinds is None else st.with_hinge_kinds(kinds), tmp_path / "c.fold")
    data = json.loads((tmp_path / "c.fold").read_text())
    data["frame_unit"] = "m"
    (tmp_path / "c.fold").write_text(json.dumps(data))
    return "c.fold"


def test_units_on_the_colour_bar_headers_and_tooltip_and_the_tooltip_inside_the_view(chromium, tmp_path):
    cli("static", si_cantilever(tmp_path), "--engine", "reference", "--html", "si.html",
        cwd=tmp_path)
    visit = br.open_page(chromium, tmp_path / "si.html", width=1100, height=700)
    loaded_cleanly(visit)
    assert visit.page.locator("#barunit").inner_text() == "[N]"                 # coloured by |F|
    table = visit.page.locator("#state-table-0")
    names = table.locator("tr.names th").all_inner_texts()
    units = dict(zip(names, table.locator("tr.units th").all_inner_texts()))
    assert [units[c] for c in ("hinge", "MT", "MO", "N", "TO")] == ["", "[N m]", "[N m]", "[N]", "[N]"]
    assert visit.page.locator("#state-table-1 tr.units th").all_inner_texts()[2:] == ["[N]"] * 3   # reactions
    # no cell with more than 4 significant digits, by default
    cells = visit.page.locator("#tables td").all_inner_texts()
    assert cells and max(significant_digits(c) for c in cells) <= 4
    # every hinge's tooltip inside the view, whichever corner of it the hinge is drawn in
    page_box = {"width": 1100, "height": 700}
    view = visit.page.locator("#view").bounding_box()
    seen = [h for h in range(1, 17) if visit.api("(a, h) => a.seen(h)", h)]
    assert len(seen) >= 8
    for h in seen:
        hover(visit, h)
        box = visit.page.locator("#tooltip").bounding_box()
        assert view["x"] <= box["x"] and box["x"] + box["width"] <= min(view["x"] + view["width"], page_box["width"])
        assert view["y"] <= box["y"] and box["y"] + box["height"] <= view["y"] + view["height"], (h, box, view)
    assert visit.page.locator("#tipunit").inner_text() == "N"
    assert visit.page.locator("#tooltip tr.units th").all_inner_texts()[2:] == ["[N m]"] * 3 + ["[N]"] * 3
    # the tables fit the page: nothing wider than the 1,100 px view
    assert visit.page.evaluate("document.documentElement.scrollWidth") <= 1100


def test_an_elastic_page_states_its_stiffness_sensitivity_and_displacement(chromium, tmp_path):
    import chrono_origami as co

    stdout = cli("static", si_cantilever(tmp_path, (co.DOOR,) * 16), "--engine", "reference",
            "--elastic", "--html", "el.html", cwd=tmp_path)
    said = [line for line in stdout.splitlines() if line.startswith(("elastic hinges", "largest vertex displ"))]
    assert len(said) == 2
    visit = br.open_page(chromium, tmp_path / "el.html")
    loaded_cleanly(visit)
    caveats = visit.page.locator("#caveats div").all_inner_texts()
    assert [c.rstrip(".") for c in caveats] == [s.rstrip(".") for s in said]    # as the command line says them
    assert "stiffness k_t 1e+08 N/m, k_r 1e+07 N m/rad" in caveats[0] and "doubling" in caveats[0]
    counts = {e.get_attribute("data-key"): e.inner_text() for e in visit.page.locator("#counts .count").all()}
    assert counts["status"].split()[-1] == "elastic" and counts["displacement warning"].split()[-1] == "none"


def test_an_elastic_mechanism_on_soft_springs_warns_large_and_draws_its_displaced_shape(chromium, tmp_path):
    """All-sliding hinges leave the cantilever a mechanism (M = 1) that carries its tip load on the crease and
    slide springs; soft ones (20 per metre) move it 0.02 of its size, more than ``LARGE_DISPLACEMENT``: the page
    says "large" in the command line's words, and draws the displaced shape at the scale the figure states."""
    import chrono_origami as co
    from chrono_origami.report.tables import LARGE_DISPLACEMENT

    stdout = cli("static", si_cantilever(tmp_path, (co.SLIDING,) * 16), "--engine", "reference",
            "--elastic", "--hinge-stiffness", "crease:20", "--hinge-stiffness", "slide:20", "--figure", "el.png",
            "--html", "el.html", cwd=tmp_path)
    said = [line for line in stdout.splitlines() if line.startswith(("elastic hinges", "largest vertex displ"))]
    assert len(said) == 2 and "; large: the linear theory is not accurate there" in said[1]
    rel = float(re.search(r"= (\S+) of the structure's size", said[1]).group(1))
    assert LARGE_DISPLACEMENT < rel < 0.1                        # large, yet drawn magnified (scale > 1)
    caption = [line for line in stdout.splitlines() if line.startswith("displaced shape")]
    assert len(caption) == 1 and "true scale" not in caption[0]  # the figure's, printed with it
    visit = br.open_page(chromium, tmp_path / "el.html")
    loaded_cleanly(visit)
    caveats = visit.page.locator("#caveats div").all_inner_texts()
    assert [c.rstrip(".") for c in caveats] == [s.rstrip(".") for s in said]    # the same warning, word for word
    counts = {e.get_attribute("data-key"): e.inner_text() for e in visit.page.locator("#counts .count").all()}
    assert counts["displacement warning"].split()[-1] == "large"
    # the displaced shape: its scale stated as the figure states it, 1, 2 or 5 x 10^k
    assert visit.page.locator("#displacedscale").inner_text() == caption[0]
    scale = visit.api("a => a.displacedScale")
    assert f"displacements x {scale:g};" in caption[0]
    assert scale / 10 ** math.floor(math.log10(scale)) in (1, 2, 5)
    # a layer: hiding it changes the drawn pixels, showing it restores them
    assert "displaced" in visit.api("a => a.layers()")
    box = visit.page.locator('#layers input[data-layer="displaced"]')
    assert box.is_checked()
    before = shown(visit)
    click_and_draw(visit, box)
    without = shown(visit)
    assert (np.abs(without - before).sum(axis=2) > 30).sum() > 50
    click_and_draw(visit, box)
    assert (np.abs(shown(visit) - before).sum(axis=2) > 30).mean() < 1e-4
    loaded_cleanly(visit)


# ------------------------------------------------------------------ layers and navigation
def test_hiding_each_layer_changes_the_drawing_and_showing_it_restores_it(chromium, cantilever):
    visit = br.open_page(chromium, cantilever / "page.html")
    layers = visit.api("a => a.layers()")
    assert sorted(layers) == sorted(["panels", "kind:door", "kind:sliding", "supports", "loads", "labels"])

    def drawn():
        return visit.page.locator("#view").screenshot()

    from PIL import Image

    def pixels(png):
        return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)

    base = pixels(drawn())
    for layer in layers:
        box = visit.page.locator(f'#layers input[data-layer="{layer}"]')
        was = box.is_checked()
        click_and_draw(visit, box)                                   # hidden (labels: shown)
        other = pixels(drawn())
        assert (np.abs(other - base).sum(axis=2) > 30).sum() > 20, layer
        click_and_draw(visit, box)
        assert box.is_checked() == was
        back = pixels(drawn())
        assert (np.abs(back - base).sum(axis=2) > 30).mean() < 1e-4, layer       # restored
    loaded_cleanly(visit)


def flap_page(tmp_path):
    """Three panels: a flap folded 150 deg over the flat hinge 1 (x = 1.5) from hinge 2 (x = 1); seen from above,
    hinge 1 lies under the flap; from below it is in sight. The page of its minimum-norm answer."""
    import chrono_origami as co

    c, s = math.cos(math.radians(30)), math.sin(math.radians(30))
    fold = {"file_spec": 1.2, "file_title": "a flap over a hinge", "frame_unit": "m",
            "vertices_coords": [[1, 0, 0], [1.5, 0, 0], [3, 0, 0], [1, 1, 0], [1.5, 1, 0], [3, 1, 0], [1 + c, 0, s],
                                [1 + c, 1, s]],
            "faces_vertices": [[0, 1, 4, 3], [1, 2, 5, 4], [0, 3, 7, 6]],
            "edges_vertices": [[0, 1], [1, 2], [2, 5], [5, 4], [4, 3], [3, 7], [7, 6], [6, 0], [1, 4], [0, 3]],
            "edges_assignment": ["B"] * 8 + ["V", "V"]}
    (tmp_path / "flap.fold").write_text(json.dumps(fold))
    st = co.read_structure(tmp_path / "flap.fold")
    assert [tuple(h.vertices) for h in st.pattern.hinges] == [(1, 4), (3, 0)]
    result = co.static(st, engine="reference", allow_indeterminate=True)
    return co.report.html(result, tmp_path / "flap.html")


def test_a_hinge_under_a_panel_is_picked_only_when_seen_and_go_to_finds_it(chromium, tmp_path):
    visit = br.open_page(chromium, flap_page(tmp_path))
    loaded_cleanly(visit)
    visit.api("a => a.setView('top')")
    assert not visit.api("a => a.seen(1)") and visit.api("a => a.seen(2)")
    where = visit.api("(a, h) => a.hingeScreen(h)", 1)
    assert visit.api("(a, x, y) => a.pick(x, y)", where["x"], where["y"]) != 1   # the flap is in front
    visit.page.locator('#views button[data-view="bottom"]').click()
    assert visit.api("a => a.seen(1)")
    hover(visit, 1)                                                  # from below: in sight, picked
    visit.page.locator('#views button[data-view="top"]').click()
    goto = visit.page.locator("#gotohinge")
    goto.fill("1")
    goto.press("Enter")
    assert visit.api("a => a.selected") == 1
    assert visit.page.locator("#tooltip").get_attribute("data-hinge") == "1"
    rows = visit.page.locator("#state-table-0 tbody tr.sel")
    assert rows.count() == 2 and set(rows.locator("td:first-child").all_inner_texts()) == {"1"}


def test_the_readme_strips_door_hinge_behind_another_is_picked_only_when_seen_and_go_to_finds_it(chromium, tmp_path):
    """The README's walk-through (docs/miura-strip.svg folded, designed, loaded): the design's one door hinge
    (16) lies, in the page's first (reset) view, behind hinge 14 along its whole length. There a pointer anywhere
    along it picks 14, the one in front; from the back it picks 16; "go to hinge 16" finds it from any view."""
    import chrono_origami as co

    cli("fold", ROOT / "docs" / "miura-strip.svg", "--fix-geometry", "--out", "fold",
        cwd=tmp_path)
    cli("design", "fold/fold.fold", "--frame", "last", "--support", "auto", "--support",
        "21:x:p12", "-o", "designed.fold", cwd=tmp_path)
    cli("static", "designed.fold", "--load", "interior:0,0,-1", "--engine", "reference",
        "--html", "strip.html", cwd=tmp_path)
    st = co.read_structure(tmp_path / "designed.fold")
    assert [h + 1 for h, k in enumerate(st.hinge_kinds) if k == co.DOOR] == [16]
    ends = [v + 1 for v in st.pattern.hinges[15].vertices]
    visit = br.open_page(chromium, tmp_path / "strip.html")
    loaded_cleanly(visit)

    def along():
        """The hinges picked at 9 points along hinge 16 as it is drawn now."""
        p, q = (visit.api("(a, v) => a.vertexScreen(v)", v) for v in ends)
        return [visit.api("(a, x, y) => a.pick(x, y)", p["x"] + t * (q["x"] - p["x"]), p["y"] + t * (q["y"] - p["y"]))
                for t in np.linspace(0.1, 0.9, 9)]

    visit.page.locator('#views button[data-view="iso"]').click()         # reset: the page's first view
    assert along() == [14] * 9                                           # behind 14 along its whole length
    mid = visit.api("(a, h) => a.hingeScreen(h)", 16)
    visit.page.mouse.move(mid["x"] + 40, mid["y"] + 40)
    visit.page.mouse.move(mid["x"], mid["y"], steps=4)
    visit.page.wait_for_function("document.getElementById('tooltip').dataset.hinge === '14'")   # the one seen
    visit.page.locator('#views button[data-view="back"]').click()
    assert along() == [16] * 9                                           # from the back: in sight everywhere
    assert hover(visit, 16)[1]                                           # its rows in the tooltip
    visit.page.locator('#views button[data-view="iso"]').click()
    visit.page.mouse.move(1, 1)
    goto = visit.page.locator("#gotohinge")
    goto.fill("16")
    goto.press("Enter")
    assert visit.api("a => a.selected") == 16
    assert visit.page.locator("#tooltip").get_attribute("data-hinge") == "16"
    assert set(visit.page.locator("#state-table-0 tbody tr.sel td:first-child").all_inner_texts()) == {"16"}
    loaded_cleanly(visit)


def test_a_row_click_selects_its_hinge_and_a_pick_selects_its_row(chromium, cantilever):
    visit = br.open_page(chromium, cantilever / "page.html")
    table = visit.page.locator("#state-table-0")
    table.locator("tbody tr", has=visit.page.locator("td:first-child", has_text=re.compile(r"^7$"))).first.click()
    assert visit.api("a => a.selected") == 7
    assert visit.page.locator("#tooltip").get_attribute("data-hinge") == "7"
    assert set(table.locator("tbody tr.sel td:first-child").all_inner_texts()) == {"7"}
    # the view framed on it: hinge 7's midpoint at the centre of the view (where the view is on the page)
    where, box = visit.api("(a, h) => a.hingeScreen(h)", 7), visit.page.locator("#gl").bounding_box()
    assert where["x"] == pytest.approx(box["x"] + box["width"] / 2, abs=2)
    assert where["y"] == pytest.approx(box["y"] + box["height"] / 2, abs=2)
    visit.page.evaluate("window.scrollTo(0, 0)")                   # back up to the view
    seen = next(h for h in range(16, 0, -1) if h != 7 and visit.api("(a, h) => a.seen(h)", h))
    where = visit.api("(a, h) => a.hingeScreen(h)", seen)
    assert visit.page.evaluate("([x, y]) => document.elementFromPoint(x, y).id", [where["x"], where["y"]]) == "gl"
    visit.page.mouse.click(where["x"], where["y"])                  # a pick: its rows selected
    assert visit.api("a => a.selected") == seen
    assert set(table.locator("tbody tr.sel td:first-child").all_inner_texts()) == {str(seen)}
    loaded_cleanly(visit)


def test_fold_frames_are_labelled_by_the_percent_of_the_targets_they_reached(tmp_path):
    """A fold to 50 % in 4 frames: the page's frames read 0, 12.5, 25, 37.5 and 50 % of the targets (one crease,
    turned at a constant rate), not the share of the frames (the last one read 100 %)."""
    (tmp_path / "pair.fold").write_text(json.dumps(pair_fold()))
    cli("fold", "pair.fold", "--percent", "50", "--frames", "4", "--quiet", "--out", "F",
        "--html", "fold.html", cwd=tmp_path)
    labels = re.findall(r"frame \d of 4 \(([\d.]+) % of the targets\)", (tmp_path / "fold.html").read_text())
    assert [float(x) for x in labels] == [0.0, 12.5, 25.0, 37.5, 50.0]
