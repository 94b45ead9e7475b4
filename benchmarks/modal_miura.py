"""Benchmark: the 20 lowest modes of a Miura-ori patch of at least 1,000 panels (sparse shift-and-invert).

Prints wall times and memory; it is not a test. Model: ``miura_patch(rows,
cols)`` (default 25 x 40 = 1,000 panels), thick panels (10 mm, 1000 kg/m^3),
door hinges with Kc, free (unsupported, unloaded). A rigid-panel Miura-ori
patch has a single mechanism (the fold, M = 1), so it has only one
non-zero mode; to have many, each panel is split along its diagonal into two
rigid triangles joined by a stiff "bending" crease (the usual way to let
Miura-ori panels bend): the fold creases get --k-fold, the diagonals --k-bend
(N m/rad). The triangulated sheet has (boundary vertices - 3) mechanisms,
all stiffened by the springs; its door hinges are massively redundant (which
the sparse solver's regularised factorisation tolerates, module doc of
chrono_origami.analysis.modal).

    python3 benchmarks/modal_miura.py                 # 25 x 40 panels, 20 modes
    python3 benchmarks/modal_miura.py --rows 10 --cols 10 --check   # also the dense null-space answer
"""
import argparse
import resource
import sys
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
ap.add_argument("--modes", type=int, default=20)
ap.add_argument("--k-fold", type=float, default=1.0, help="fold crease springs, N m/rad (default 1)")
ap.add_argument("--k-bend", type=float, default=50.0, help="diagonal (bending) crease springs, N m/rad (default 50)")
ap.add_argument("--check", action="store_true", help="also solve densely (null-space) and compare (small patches)")
args = ap.parse_args()
if args.rows < 1 or args.cols < 1 or args.modes < 1:
    ap.error("--rows, --cols and --modes must be positive")

from chrono_origami.analysis import modal
from chrono_origami.engines.chrono import springs  # noqa: E402
from chrono_origami.engines.chrono import matrices  # noqa: E402
from chrono_origami.engines.chrono import static as chrono_statics  # noqa: E402
from chrono_origami.engines.chrono.system import build_system  # noqa: E402
from chrono_origami.report.modal import modes_table  # noqa: E402


def rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


t = {}
t0 = time.perf_counter()
patch = miura.miura_patch(args.rows, args.cols)
pat = patch.pattern
tris = [tri for a, b, c, d in pat.panels for tri in ((a, b, c), (a, c, d))]
diagonals = {tuple(sorted((loop[0], loop[2]))) for loop in pat.panels}
tp = CreasePattern(pat.vertices, tris)
k = np.array([args.k_bend if tuple(sorted(h.vertices)) in diagonals else args.k_fold for h in tp.hinges])
s = Structure(tp, (DOOR,) * len(tp.hinges), thickness=0.01, density=1000.0,
              name=f"Miura-ori patch {args.rows} x {args.cols}, panels split along a diagonal")
t["pattern"] = time.perf_counter() - t0

t0 = time.perf_counter()
built = build_system(s, visual=False)
sp = springs.add_crease_springs(built, k)
t["Chrono build (bodies, door hinges, crease springs)"] = time.perf_counter() - t0

t0 = time.perf_counter()
eq = chrono_statics.check_equilibrium(built.system)
t["equilibrium check"] = time.perf_counter() - t0
if not eq.converged:
    sys.exit(f"error: the free patch is not at rest (residual {eq.residual:.3g})")

t0 = time.perf_counter()
mats = matrices.system_matrices(built.system, True, damping=False, mass="bodies")
t["matrices: K and Cq from Chrono (WriteSystemMatrices), M from the bodies"] = time.perf_counter() - t0

t0 = time.perf_counter()
r = modal.solve_modes(mats, "sparse", n_modes=args.modes)
t["eigen: sparse shift-and-invert (factorisation + Arnoldi + checks)"] = time.perf_counter() - t0

print(f"{s.name}: {pat.n_panels} Miura-ori panels -> {tp.n_panels} rigid bodies, {len(tp.hinges)} door hinges "
      f"with crease springs")
print(f"coordinates n = {mats.n}, constraints m = {mats.m}, saddle-point matrix {r.info['kkt_size']} x "
      f"{r.info['kkt_size']}; nnz: M {mats.M.nnz}, K {mats.K.nnz}, Cq {mats.Cq.nnz}, LU factors {r.info['lu_nnz']}")
print()
print(modes_table(r, args.modes, f"{len(r.modes)} lowest modes (and the zero modes met on the way):"))
print(f"largest residual {max(m.residual for m in r.modes):.2e}, largest constraint residual "
      f"{max(m.constraint for m in r.modes):.2e}")
print()
for name, sec in t.items():
    print(f"{name:<70} {sec:8.2f} s")
print(f"{'  of which the LU factorisation':<70} {r.info['factor_seconds']:8.2f} s")
print(f"{'total':<70} {sum(t.values()):8.2f} s")
lu_mb = r.info["lu_nnz"] * 12 / 2**20
print(f"memory: peak resident set {rss_mb():.0f} MB; LU factors about {lu_mb:.0f} MB "
      f"(8-byte values + 4-byte indices)")

if args.check:
    if mats.n > 3000:
        sys.exit("--check solves densely: use a patch of at most 250 panels")
    t0 = time.perf_counter()
    d = modal.solve_modes(mats, "nullspace")
    f_sparse, f_dense = r.frequencies_hz, d.frequencies_hz[:len(r.modes)]
    print(f"dense null-space check ({time.perf_counter() - t0:.2f} s): largest relative difference "
          f"{np.max(np.abs(f_sparse - f_dense) / f_dense):.2e}; zero modes {len(d.zero_modes)} (6 rigid-body motions)")
