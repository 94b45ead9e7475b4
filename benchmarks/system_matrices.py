"""Benchmark: what reading Chrono's matrices costs on a large system (WriteSystemMatrices and its text round trip).

Prints wall times; it is not a test. PyChrono wraps no ``ChSparseMatrix``, so
:func:`chrono_origami.engines.chrono.matrices.raw_matrices` (the one reader: the
counting's Cq, the modal analysis's M, K, Cq) asks
``ChSystem.WriteSystemMatrices`` for COO text files (13 significant digits)
and parses them. For each matrix, alone: the ``WriteSystemMatrices`` call
(Chrono assembles the matrix, then formats and writes the text; PyChrono
cannot call the assembly alone), the file's size and entries, and the parse
(``np.loadtxt``, what the reader uses, and ``np.fromfile`` for comparison). Model: a Miura-ori patch with every
panel split along its diagonal (as ``benchmarks/modal_miura.py``), door hinges
with Kc, crease springs (so K has the springs' blocks too), free, at rest.

    python3 benchmarks/system_matrices.py                 # 25 x 40 panels -> 2,000 bodies
    python3 benchmarks/system_matrices.py --rows 10 --cols 10
"""
import argparse
import os
import tempfile
import time

import numpy as np

from chrono_origami.crease.pattern import CreasePattern
from chrono_origami.patterns import miura
from chrono_origami.structure.structure import Structure
from chrono_origami.structure.hinges import DOOR

from common import program_threads  # noqa: E402  (benchmarks/)

program_threads()   # the program's own choice of BLAS threads (--blas all: one per core)

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("--rows", type=int, default=25)
ap.add_argument("--cols", type=int, default=40)
args = ap.parse_args()
if args.rows < 1 or args.cols < 1:
    ap.error("--rows and --cols must be positive")

from chrono_origami.engines.chrono import static as analysis, matrices, springs  # noqa: E402
from chrono_origami.engines.chrono.system import build_system  # noqa: E402


def clock(f, *a, **kw):
    t0 = time.perf_counter()
    out = f(*a, **kw)
    return out, time.perf_counter() - t0


patch = miura.miura_patch(args.rows, args.cols)
pat = patch.pattern
tp = CreasePattern(pat.vertices, [t for a, b, c, d in pat.panels for t in ((a, b, c), (a, c, d))])
s = Structure(tp, (DOOR,) * len(tp.hinges), thickness=0.01, density=1000.0, name="triangulated Miura-ori patch")
built = build_system(s, visual=False)
springs.add_crease_springs(built, 1.0)
system = built.system
system.Setup()
system.Update()
n, m = system.GetNumCoordsVelLevel(), system.GetNumConstraints()
print(f"{s.name} {args.rows} x {args.cols}: {tp.n_panels} bodies, {len(tp.hinges)} door hinges with Kc and crease "
      f"springs; n = {n} coordinates, m = {m} constraints")
print()
head = f"{'matrix':>6} {'entries':>9} {'file MB':>8} {'Write s':>8} {'loadtxt s':>9} {'fromfile s':>10} {'parse share':>11}"
print(head)
print("-" * len(head))
flags = {"M": (True, False, False, False), "K": (False, True, False, False), "Cq": (False, False, False, True)}
with tempfile.TemporaryDirectory() as d:
    system.WriteSystemMatrices(False, False, False, False, os.path.join(d, "warm"), False)   # descriptor set up
    for name, f in flags.items():
        prefix = os.path.join(d, name)
        _, t_write = clock(system.WriteSystemMatrices, *f, prefix, False)
        path = f"{prefix}_{name}.dat"
        size = os.path.getsize(path)
        D, t_load = clock(np.loadtxt, path, ndmin=2)
        _, t_from = clock(np.fromfile, path, sep=" ")
        share = t_load / (t_write + t_load) if t_write + t_load > 0 else 0.0
        print(f"{name:>6} {len(D):>9} {size / 2**20:>8.1f} {t_write:>8.3f} {t_load:>9.3f} {t_from:>10.3f} {share:>11.0%}")
print()
print("Write: Chrono's assembly of the matrix and its C++ text output (not separable from Python);\n"
      "parse share: loadtxt / (Write + loadtxt), the Python side of the round trip")
print()
_, t_cq = clock(analysis.constraint_jacobian, system)
_, t_mats = clock(matrices.system_matrices, system, True, damping=False, mass="bodies")
_, t_raw = clock(matrices.raw_matrices, system)
print(f"{'analysis.constraint_jacobian (Cq: counting)':<62} {t_cq:8.3f} s")
print(f"{'matrices.system_matrices (K, Cq; M from the bodies; no R)':<62} {t_mats:8.3f} s")
print(f"{'matrices.raw_matrices (M, R, K, Cq)':<62} {t_raw:8.3f} s")
