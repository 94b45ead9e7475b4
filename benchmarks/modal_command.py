"""Benchmark: ``modal FILE --modes 10`` on a Miura-ori sheet of 10,000 panels with the reference engine.

Prints the wall time and the peak memory of the command, run as a user runs it (a child process:
``python -m chrono_origami modal sheet.fold --engine reference --modes 10 --crease-stiffness 1 --thickness 0.01
--density 1000``), and the time of its parts (writing the file; reading it, the linearised equations and the
sparse shift-and-invert solve) from the same run; it is not a test (target: under 60 s). The sheet:
``miura_patch(rows, cols)`` (default 50 x 100 quadrilaterals), each panel split along a diagonal into two
rigid triangles (default 10,000 panels), door hinges, crease springs on every hinge, free: the six rigid-body
motions are zero modes, every other motion is stiffened by the springs. The operators stay sparse: the
saddle-point matrix of the shifted system is factorised once (SuperLU) and ARPACK iterates on it
(``chrono_origami.analysis.modal.solve_sparse``).

    python3 benchmarks/modal_command.py                      # 10,000 panels
    python3 benchmarks/modal_command.py --rows 10 --cols 10  # 200 panels
"""
import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

from common import program_threads

program_threads()   # the program's own choice of BLAS threads (--blas all: one per core)

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("--rows", type=int, default=50)
ap.add_argument("--cols", type=int, default=100)
ap.add_argument("--modes", type=int, default=10)
args = ap.parse_args()
if min(args.rows, args.cols, args.modes) < 1:
    ap.error("--rows, --cols and --modes must be positive")

from chrono_origami.crease.pattern import CreasePattern  # noqa: E402
from chrono_origami.patterns import miura  # noqa: E402
from chrono_origami.structure.foldfile import write_fold  # noqa: E402
from chrono_origami.structure.hinges import DOOR  # noqa: E402
from chrono_origami.structure.structure import Structure  # noqa: E402

t0 = time.perf_counter()
pat = miura.miura_patch(args.rows, args.cols).pattern
tp = CreasePattern(pat.vertices, [t for a, b, c, d in pat.panels for t in ((a, b, c), (a, c, d))])
sheet = Structure(tp, (DOOR,) * len(tp.hinges), name=f"Miura-ori sheet {args.rows} x {args.cols}, triangulated")
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "sheet.fold")
    write_fold(sheet, path)
    t_file = time.perf_counter() - t0
    cmd = [sys.executable, "-m", "chrono_origami", "modal", path, "--engine", "reference", "--modes",
           str(args.modes), "--crease-stiffness", "1", "--thickness", "0.01", "--density", "1000"]
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    t_cmd = time.perf_counter() - t0
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(p.stdout, end="")
if p.returncode:
    sys.exit(f"error: the command failed ({p.returncode}): {p.stderr.strip()}")
print()
print(f"{tp.n_panels:,} panels, {len(tp.hinges):,} door hinges: n = {6 * tp.n_panels:,} coordinates")
print(f"{'writing the FOLD file':<40} {t_file:8.2f} s")
print(f"{'modal --modes ' + str(args.modes) + ' (the whole command)':<40} {t_cmd:8.2f} s")
print(f"{'peak memory of the command':<40} {peak:8.0f} MB")
