"""Benchmark (not a test): each export format written for a large structure (``report.export``).

The panels: a flat n x n grid of unit squares whose creases alternate valley and mountain in both directions
(targets +-180 deg), 0.05 thick, tapered to 120 deg (every crease edge bevelled; 10^4 panels by default), as
``export FILE --dxf --stl --3mf --glb`` writes them; the results: the supported isostatic Miura-ori strip
(``patterns.miura.miura_cantilever``, as many panels) solved by the reference engine, as ``static --vtk``
writes it. Printed per format: the seconds to write it (wall clock, and this process's CPU time: the two differ on a
busy machine; the solids' construction included in each format, the packages' first import too) and the file's
size. Acceptance: every format under 30 s at 10^4 panels.

    python3 benchmarks/export_formats.py                  # 10,000 panels
    python3 benchmarks/export_formats.py --panels 2500 10000
"""
import argparse
import math
import os
import sys
import tempfile
import time

from common import program_threads


def grid_fold(n):
    """FOLD dict of the n x n grid (module doc)."""
    X = [[float(i), float(j), 0.0] for j in range(n + 1) for i in range(n + 1)]
    v = lambda i, j: j * (n + 1) + i
    faces = [[v(i, j), v(i + 1, j), v(i + 1, j + 1), v(i, j + 1)] for j in range(n) for i in range(n)]
    edges, assign, angle = [], [], []
    for j in range(n + 1):
        for i in range(n + 1):
            for (a, b), interior, k in ((((i, j), (i + 1, j)), 0 < j < n, j), (((i, j), (i, j + 1)), 0 < i < n, i)):
                if b[0] > n or b[1] > n:
                    continue
                edges.append([v(*a), v(*b)])
                letter = ("V" if k % 2 else "M") if interior else "B"
                assign.append(letter)
                angle.append({"V": 180.0, "M": -180.0, "B": 0.0}[letter])
    return {"file_spec": 1.2, "file_title": f"grid {n} x {n}", "vertices_coords": X, "faces_vertices": faces,
            "edges_vertices": edges, "edges_assignment": assign, "edges_foldAngle": angle}


def one(panels, folder):
    import json
    from dataclasses import replace

    import chrono_origami as co
    from chrono_origami.report import export
    from chrono_origami.structure.solids import Placement

    n = int(round(math.sqrt(panels)))
    src = os.path.join(folder, f"grid_{n}.fold")
    with open(src, "w") as f:
        json.dump(grid_fold(n), f)
    structure = co.read_structure(src)
    structure = replace(structure, thickness=0.05, placement=Placement("tapered", taper_deg=120.0))
    rows = []
    for fmt in ("dxf", "stl", "3mf", "glb"):
        path = os.path.join(folder, f"grid.{fmt}")
        t, c = time.perf_counter(), time.process_time()
        co.export(structure, **{{"3mf": "threemf"}.get(fmt, fmt): path})
        rows.append((fmt, structure.pattern.n_panels, time.perf_counter() - t, time.process_time() - c,
                     os.path.getsize(path) / 1e6))
    result = co.static(co.miura.miura_cantilever(columns=panels // 2), engine="reference")
    t, c = time.perf_counter(), time.process_time()
    paths = export.write_vtk(result, os.path.join(folder, "vtk"))
    rows.append(("vtu", result.structure.pattern.n_panels, time.perf_counter() - t, time.process_time() - c,
                 sum(os.path.getsize(p) for p in paths) / 1e6))
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--panels", type=int, nargs="+", default=[10000], help="panels (a square grid: rounded)")
    args = ap.parse_args(argv)
    program_threads()
    print(f"{'format':>6} {'panels':>7} {'write s':>8} {'CPU s':>7} {'MB':>7}")
    for panels in args.panels:
        with tempfile.TemporaryDirectory() as folder:
            for fmt, p, s, cpu, mb in one(panels, folder):
                print(f"{fmt:>6} {p:>7} {s:>8.2f} {cpu:>7.2f} {mb:>7.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
