"""Benchmark (not a test): the results page of a large static result, its file size and its first render in Chromium.

The supported isostatic Miura-ori strip (``patterns.miura.miura_cantilever``, 2 x columns panels; 10,000 panels
by default) is solved by the reference engine, its page written (``co.report.html``: one merged mesh for the
panels, one line set per hinge style) and opened from its file in a headless system Chromium
(``tests/browser.py``: Playwright, software WebGL). Printed per size: panels, hinges, the statics and the page's
writing (s), the page's size (MB, of which the inlined library is 0.66), and two times in the browser, best
of ``--repeat`` fresh pages: from navigation to the first rendered frame (``load``, as Playwright measures it) and
the page's own ``performance.now()`` at its first frame (``first frame``: parsing, decoding, building the scene,
drawing), then the time to pick the hinge under the pointer (``hover``, the page's nearest-hinge search).
Then the n x n Miura sheet with a load at each interior vertex (``--sheet``, 100: 9,801 loads): its first frame
and the frames per second of a rotation (``spin`` in page.js: the controls' events of a drag, one step a frame,
for 3 s; a large structure is drawn at half resolution while it moves). Acceptance: a 10^4-panel page under
10 MB, drawn in under 5 s on a 2-core machine; the loaded 100 x 100 sheet's first frame under 3 s, its rotation
above 10 frames per second.

    python3 benchmarks/html_page.py                     # 10,000 panels
    python3 benchmarks/html_page.py --panels 100 1000 10000 --repeat 3
"""
import argparse
import importlib.util
import os
import sys
import tempfile
import time
from pathlib import Path

from common import program_threads


def browser():
    """The browser tests' launcher, ``tests/browser.py`` (a headless system Chromium through Playwright)."""
    spec = importlib.util.spec_from_file_location("browser", Path(__file__).resolve().parents[1] / "tests" / "browser.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def one(panels, repeat, chromium, keep=None):
    import chrono_origami as co

    br = browser()
    t = time.perf_counter()
    structure = co.miura.miura_cantilever(columns=panels // 2)
    result = co.static(structure, engine="reference")
    statics = time.perf_counter() - t
    folder = keep or tempfile.mkdtemp()
    path = os.path.join(folder, f"strip_{panels}.html")
    t = time.perf_counter()
    co.report.html(result, path, command=f"benchmarks/html_page.py --panels {panels}")
    write = time.perf_counter() - t
    loads, firsts, hovers, errors = [], [], [], []
    for _ in range(repeat):
        visit = br.open_page(chromium, path)
        loads.append(visit.load_s)
        firsts.append(visit.first_render_ms / 1000)
        h = len(structure.pattern.hinges)
        where = visit.api("(a, h) => a.hingeScreen(h)", h)
        t = time.perf_counter()
        visit.page.mouse.move(where["x"], where["y"])
        visit.page.wait_for_function("document.getElementById('tooltip').dataset.hinge !== ''", timeout=60000)
        hovers.append(time.perf_counter() - t)
        errors += visit.errors + visit.requests
        visit.page.close()
    return {"panels": structure.pattern.n_panels, "hinges": len(structure.pattern.hinges), "statics": statics,
            "write": write, "MB": os.path.getsize(path) / 1e6, "load": min(loads), "first": min(firsts),
            "hover": min(hovers), "errors": errors}


def miura_sheet(n):
    """The n x n Miura-ori sheet (``miura_patch``, door hinges) held by its first and last panels' first three
    vertices, with a unit downward load at each interior vertex ((n - 1)^2 loads): the page of its minimum-norm
    answer draws the loads over the hinge colours."""
    import dataclasses

    import numpy as np

    import chrono_origami as co
    from chrono_origami.structure.boundary import Load, Support

    st = co.miura.miura_patch(n, n)
    pat = st.pattern
    deg = np.zeros(pat.n_vertices, int)
    for loop in pat.panels:
        deg[list(loop)] += 1
    held = [Support(v, 0, "xyz") for v in pat.panels[0][:3]] + [Support(v, pat.n_panels - 1, "xyz")
                                                                 for v in pat.panels[-1][:3]]
    loads = [Load(int(v), (0.0, 0.0, -1.0)) for v in np.flatnonzero(deg == 4)]
    return dataclasses.replace(st, supports=tuple(held), loads=tuple(loads))


def sheet(n, repeat, chromium, keep=None):
    """First frame (s) and rotation frames per second of the loaded n x n Miura sheet's page."""
    import chrono_origami as co

    br = browser()
    structure = miura_sheet(n)
    result = co.static(structure, engine="reference", allow_indeterminate=True)
    folder = keep or tempfile.mkdtemp()
    path = os.path.join(folder, f"sheet_{n}.html")
    co.report.html(result, path, command=f"benchmarks/html_page.py --sheet {n}")
    firsts, fps, errors = [], [], []
    for _ in range(repeat):
        visit = br.open_page(chromium, path)
        firsts.append(visit.first_render_ms / 1000)
        # a rotation as a drag makes it (the controls' start, a change a frame, end), timed by the page: draws/s
        fps.append(visit.page.evaluate("window.chronoOrigami.spin(3000)"))
        errors += visit.errors + visit.requests
        visit.page.close()
    return {"panels": structure.pattern.n_panels, "loads": len(structure.loads), "MB": os.path.getsize(path) / 1e6,
            "first": min(firsts), "fps": max(fps), "errors": errors}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--panels", type=int, nargs="+", default=[10000], help="panels of each strip (even)")
    ap.add_argument("--repeat", type=int, default=2, help="fresh pages per size; the best time is printed")
    ap.add_argument("--keep", metavar="DIR", help="keep the pages here")
    ap.add_argument("--sheet", type=int, default=100, help="the loaded n x n Miura sheet (0: none; default 100)")
    args = ap.parse_args(argv)
    program_threads()
    br = browser()

    reason = br.unavailable()
    if reason:
        print(f"no browser: {reason}")
        return 1
    print(f"{'panels':>7} {'hinges':>7} {'statics s':>9} {'write s':>8} {'page MB':>8} {'load s':>7} "
          f"{'first frame s':>13} {'hover s':>8}")
    with br.chromium() as chromium:
        for n in args.panels:
            r = one(n, args.repeat, chromium, args.keep)
            print(f"{r['panels']:>7} {r['hinges']:>7} {r['statics']:>9.2f} {r['write']:>8.2f} {r['MB']:>8.2f} "
                  f"{r['load']:>7.2f} {r['first']:>13.2f} {r['hover']:>8.3f}", flush=True)
            for e in r["errors"]:
                print(f"  page error or request: {e}")
        if args.sheet:
            r = sheet(args.sheet, args.repeat, chromium, args.keep)
            print(f"Miura sheet {args.sheet} x {args.sheet}, {r['panels']} panels, {r['loads']} loads: page "
                  f"{r['MB']:.2f} MB, first frame {r['first']:.2f} s, rotation {r['fps']:.1f} frames per second",
                  flush=True)
            for e in r["errors"]:
                print(f"  page error or request: {e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
