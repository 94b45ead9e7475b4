"""Closed-form statistics of locked-in forces on all-door Miura-ori patches, 100 to 10,000 panels: time and memory.

Each case in its own process (peak memory of that case alone), with the
program's own choice of BLAS threads (one; ``--blas all``: one per core).
Per case: the count (M, S; sparse QR beyond the dense limit), the factor of
the elastic-hinge system (``reference.tolerance.Solver``: the hinge
stiffness matrix Cr^T W Cr, SuperLU in symmetric mode), then the statistics:
``exact`` (K's columns for every constraint row, m solves in blocks of 64)
up to ``--exact-max`` panels, and ``randomized`` (``--probes`` probes, each
standard deviation to 1 / sqrt(2 probes)) at every size; the largest relative
difference of the randomized standard deviations from the exact ones where
both ran (entries above 5 % of their component's largest).

    python3 benchmarks/tolerance_scale.py                      # 100 to 10,000 panels
    python3 benchmarks/tolerance_scale.py --max-panels 1000 --exact-max 1000
"""
import argparse
import json
import subprocess
import sys
import time

from common import fit_exponent, peak_MB, program_threads

program_threads()   # the program's own choice of BLAS threads (--blas all: one per core)

SIZES = (100, 289, 1024, 3025, 10000)


def one(panels, probes, exact):
    from chrono_origami.analysis import tolerance as tl
    from chrono_origami.engines.reference import tolerance as rt
    from chrono_origami.patterns import miura
    from chrono_origami.structure import tolerance as imp

    n = int(round(panels ** 0.5))
    row = {"P": n * n}
    st = miura.miura_patch(n, n)
    spec = imp.ToleranceSpec(1e-4)
    t0 = time.perf_counter()
    solver = rt.Solver(st)
    row["factor"] = time.perf_counter() - t0          # count (M, S) and factor
    row.update(M=solver.counts.M, S=solver.counts.S, rows=solver.m, method=solver.method)
    t0 = time.perf_counter()
    cov = rt.randomized_covariance(st, spec, solver, probes, seed=1)
    rn = rt.side_sd(st, cov)
    row["randomized"] = time.perf_counter() - t0
    row["probes"] = probes
    row["sd_N_max"] = float(rn[..., 3].max())
    if exact:
        t0 = time.perf_counter()
        ex = rt.side_sd(st, rt.covariance_blocks(st, spec, solver))
        row["exact"] = time.perf_counter() - t0
        big = ex > 0.05 * ex.max(axis=(0, 1), keepdims=True)
        row["rand_vs_exact"] = float((abs(rn - ex)[big] / ex[big]).max())
    row["summary_p95_N"] = tl.summary(tl.LockedInStatistics(st, spec, None, "randomized", rn, 1.96 * rn,
                                                             2.576 * rn))["locked_p95_N"]
    row["peak_MB"] = peak_MB()
    print(json.dumps(row))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-panels", type=int, default=10000)
    ap.add_argument("--exact-max", type=int, default=1024, help="largest patch with the exact closed form too")
    ap.add_argument("--probes", type=int, default=1000)
    ap.add_argument("--one", nargs=3, type=int, metavar=("PANELS", "PROBES", "EXACT"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one:
        one(*args.one)
        return 0
    cols = ("P", "M", "S", "rows", "factor", "randomized", "exact", "rand_vs_exact", "summary_p95_N", "peak_MB")
    print(" ".join(f"{c:>13}" for c in cols))
    rows = []
    for size in SIZES:
        if size > args.max_panels:
            continue
        exact = int(size <= args.exact_max)
        r = subprocess.run([sys.executable, __file__, "--one", str(size), str(args.probes), str(exact)],
                           capture_output=True, text=True)
        if r.returncode:
            print(f"{size}: failed: {r.stderr.strip().splitlines()[-1:]}")
            continue
        row = json.loads(r.stdout.strip().splitlines()[-1])
        rows.append(row)
        print(" ".join(f"{row.get(c, ''):>13.4g}" if isinstance(row.get(c), float) else f"{row.get(c, '')!s:>13}"
                       for c in cols), flush=True)
    for key in ("factor", "randomized", "exact"):
        b = fit_exponent([(r["P"], r.get(key)) for r in rows if r["P"] >= 1000])
        if b is not None:
            print(f"exponent of {key} time ~ P^b from 1,000 panels: {b:.2f}")
    print(f"randomized: {args.probes} probes, each standard deviation to 1 / sqrt(2 probes) = "
          f"{100 / (2 * args.probes) ** 0.5:.1f} % (relative standard error)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
