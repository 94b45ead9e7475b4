"""Benchmark: reading crease-pattern files of a 75 x 75 Miura-ori patch (5,625 quads).

Prints wall times (best of --repeat runs); it is not a test. Three files of
the same patch, written to a temporary folder:

* FOLD with faces, folded (``write_fold`` of ``miura_patch(75, 75)``): the
  reader's common path, target under 1 s (0.36 s on an idle machine before the
  reader checked magnitudes, faces and frames);
* FOLD without faces, flat (vertices, edges, assignment: a crease-pattern
  editor's file): faces computed by polygonizing;
* SVG in Origami Simulator's colours, flat (one <line> per crease).

Last, the structure read from the FOLD file is counted (M and S, the sparse
path of ``reference.count.count``: a dense SVD would hold 15 GB; target
under 10 s).

    python3 benchmarks/read_files.py                 # 75 x 75
    python3 benchmarks/read_files.py --rows 30 --cols 30 --repeat 5
"""
import argparse
import json
import os
import tempfile
import time
import warnings

from chrono_origami.structure.foldfile import read_fold, read_structure, write_fold
from chrono_origami.patterns import miura

from common import program_threads  # noqa: E402  (benchmarks/)

program_threads()   # the program's own choice of BLAS threads (--blas all: one per core)

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("--rows", type=int, default=75)
ap.add_argument("--cols", type=int, default=75)
ap.add_argument("--repeat", type=int, default=3)
args = ap.parse_args()


def best(fn):
    times = []
    for _ in range(args.repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


folded = miura.miura_patch(args.rows, args.cols)
flat = miura.miura_pattern(args.rows, args.cols, fold_angle_deg=0.0)
with tempfile.TemporaryDirectory() as tmp:
    fold_path = os.path.join(tmp, "miura.fold")
    write_fold(folded, fold_path)
    # faceless editor file: the flat pattern's vertices and edges, M/V by the folded state's zig-zag
    fold_ref = read_fold(fold_path)
    assign = fold_ref.notes["fold"]["edges_assignment"]
    faceless = {"file_spec": 1.2, "file_creator": "benchmark", "frame_classes": ["creasePattern"],
                "vertices_coords": flat.vertices[:, :2].tolist(), "edges_vertices": [list(e) for e in flat.edges],
                "edges_assignment": assign}
    faceless_path = os.path.join(tmp, "miura-cp.fold")
    with open(faceless_path, "w") as f:
        json.dump(faceless, f)
    colour = {"B": "#000000", "M": "#ff0000", "V": "#0000ff", "U": "#ff00ff"}
    svg_path = os.path.join(tmp, "miura.svg")
    X = flat.vertices * 100.0
    with open(svg_path, "w") as f:
        f.write('<svg xmlns="http://www.w3.org/2000/svg">\n')
        for (a, b), x in zip(flat.edges, assign):
            f.write(f'<line x1="{X[a, 0]:.3f}" y1="{-X[a, 1]:.3f}" x2="{X[b, 0]:.3f}" y2="{-X[b, 1]:.3f}" '
                    f'stroke="{colour[x]}"/>\n')
        f.write("</svg>\n")

    n = folded.pattern.n_panels
    print(f"Miura-ori patch {args.rows} x {args.cols}: {n} panels, {len(folded.pattern.hinges)} hinges "
          f"(best of {args.repeat})")
    t, s = best(lambda: read_fold(fold_path))
    print(f"  FOLD with faces (folded)      {t:7.3f} s   {s.pattern!r}")
    t, s = best(lambda: read_fold(faceless_path))
    print(f"  FOLD without faces (flat)     {t:7.3f} s   {s.pattern!r}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t, s = best(lambda: read_structure(svg_path))
    print(f"  SVG (flat)                    {t:7.3f} s   {s.pattern!r}")
    from chrono_origami.engines.reference.count import count

    st = read_structure(fold_path)
    t, c = best(lambda: count(st))
    print(f"  counting the file read        {t:7.3f} s   M = {c.M}, S = {c.S} ({c.linalg} path, "
          f"{c.n_constraints:,} x {c.n_dof:,} operator; target under 10 s)")
