"""Benchmark (not a test): time and memory of the isostatic design search on growing Miura-ori patches.

Each size runs in its own process (so its peak memory is its own) on an
all-door, unsupported ``patterns.miura.miura_patch(rows, cols)``: the search
proper (null space of the all-sliding operator, axial rows, greedy door
basis; no enumeration, no random orders, no ranking), as
``design.design(..., max_subsets=0, samples=0, rank_limit=0)``. Prints a table: the path ("dense" SVD up to
``design.DENSE_LIMIT`` columns 6P, else "sparse" shift-invert Lanczos with a
sparse LU), counts before and after, the number of sliding hinges, wall time,
and peak resident memory of the process (ru_maxrss) beside its value after
the imports.

    python3 benchmarks/design_search.py            # up to 2,047 hinges
    python3 benchmarks/design_search.py --max-hinges 4000
"""
import argparse
import json
import resource
import subprocess
import sys
import time

from common import program_threads  # noqa: E402  (benchmarks/)

program_threads()   # the program's own choice of BLAS threads (--blas all: one per core)

SIZES = [(2, 2), (4, 4), (6, 6), (8, 8), (10, 10), (12, 12), (16, 16), (20, 20), (24, 24), (28, 28), (32, 33),
         (40, 40), (45, 45)]


def one(rows, cols):
    """Run one size in this process; print a JSON line."""
    from chrono_origami.analysis import design
    from chrono_origami.patterns import miura

    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    st = miura.miura_patch(rows, cols)
    t0 = time.perf_counter()
    r = design.design(st, max_subsets=0, samples=0, rank_limit=0)
    dt = time.perf_counter() - t0
    n = 6 * st.pattern.n_panels
    print(json.dumps(dict(rows=rows, cols=cols, P=st.pattern.n_panels, H=len(st.hinge_kinds), n=n,
                          path="dense" if n <= design.DENSE_LIMIT else "sparse",
                          M_before=r.M_before, S_before=r.S_before, M_after=r.M_after, S_after=r.S_after,
                          sliding=len(r.greedy.sliding), seconds=dt,
                          base_MB=base / 1024, peak_MB=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-hinges", type=int, default=2100, help="largest patch, in hinges (default 2100)")
    ap.add_argument("--one", nargs=2, type=int, metavar=("ROWS", "COLS"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one:
        one(*args.one)
        return 0
    head = (f"{'patch':>7} {'P':>5} {'H':>5} {'6P':>5} {'path':>6} {'M,S before':>11} {'M,S after':>10} "
            f"{'sliding':>7} {'time s':>8} {'peak MB':>8} {'base MB':>8}")
    print(head)
    print("-" * len(head))
    for rows, cols in SIZES:
        if rows * (cols - 1) + cols * (rows - 1) > args.max_hinges:
            break
        out = subprocess.run([sys.executable, __file__, "--one", str(rows), str(cols)], capture_output=True,
                             text=True, check=True).stdout
        d = json.loads(out.strip().splitlines()[-1])
        print(f"{rows:>3}x{cols:<3} {d['P']:>5} {d['H']:>5} {d['n']:>5} {d['path']:>6} "
              f"{d['M_before']:>4},{d['S_before']:<6} {d['M_after']:>4},{d['S_after']:<5} {d['sliding']:>7} "
              f"{d['seconds']:>8.2f} {d['peak_MB']:>8.0f} {d['base_MB']:>8.0f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
