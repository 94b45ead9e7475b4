"""Benchmark (not a test): a sweep of 100-panel structures, serial against a local Dask cluster.

The sweep: Miura-ori sheets of 2 x 50 panels (the paper's cantilever supports,
its tip load), a grid of sector angles (45 to 70 deg) and fold angles (20 to
70 deg), each with all door hinges and with the best isostatic design of the
design search (``max_ranked = 1``), tolerance 0.1 mm: ``--cases`` cases
(1,000 by default).

The machine is shared, and its load changes by the minute, so the two ways
are timed in alternation: the cases are split into ``--rounds`` blocks (10),
and each block runs first in this process (``scheduler = "serial"``), then on
a local cluster of ``--workers`` processes (one thread, one BLAS thread each)
started once. Printed: the wall time of each way and the speed-up, the
cluster's start, the load average of every round, the mean wall and CPU
time of a case in each way, and how many cores each way had on average (the
sum of the cases' CPU time over the wall time); last, whether both tables
are the same but for the timing columns. The output folder's writes (parts,
table) are the same in both ways and are not timed here.

    python3 benchmarks/sweep.py                    # 1,000 cases, 2 workers
    python3 benchmarks/sweep.py --cases 100 --rounds 2
"""
import argparse
import os
import time


def spec(cases):
    """The benchmark's spec with ``cases`` cases (rounded to a whole grid: 2 designs x 10 sector angles x n)."""
    folds = max(1, round(cases / 20))
    return {"sweep": {"seed": 0},
            "pattern": {"family": "miura", "rows": 2, "columns": 50,
                        "sector_angle": {"min": 45.0, "max": 70.0, "steps": 10},
                        "fold_angle": {"min": 20.0, "max": 70.0, "steps": folds} if folds > 1 else 45.0},
            "design": {"designs": ["door", "isostatic"], "max_ranked": 1},
            "tolerance": {"tol": 1e-4}}


def timed(cases, ex):
    """(wall time, rows) of ``cases`` on the executor ``ex``."""
    from chrono_origami.analysis import sweep as sw

    t0 = time.perf_counter()
    rows = {}
    for case, row, failure in sw.run(cases, ex):
        if failure is not None:
            raise failure
        rows[case.id] = row
    return time.perf_counter() - t0, [rows[c.id] for c in cases]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=1000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=10)
    args = ap.parse_args()

    from chrono_origami.analysis import sweep as sw
    from chrono_origami.inputs.sweep import make_spec
    from chrono_origami.tools import cluster

    cases = make_spec(spec(args.cases)).cases
    n = len(cases)
    print(f"{n} cases of 100-panel Miura-ori sheets (door and isostatic designs, 0.1 mm tolerance), "
          f"{args.rounds} rounds; {os.cpu_count()} cores")
    wall = {"serial": 0.0, "cluster": 0.0}
    rows = {"serial": [], "cluster": []}
    loads = []
    t0 = time.perf_counter()
    with cluster.executor("serial") as serial, cluster.executor("local", args.workers) as local:
        start = time.perf_counter() - t0
        for r in range(args.rounds):
            block = cases[r * n // args.rounds:(r + 1) * n // args.rounds]
            loads.append(os.getloadavg()[0])
            for name, ex in (("serial", serial), ("cluster", local)):
                w, out = timed(block, ex)
                wall[name] += w
                rows[name] += out
            print(f"  round {r + 1}: load average {loads[-1]:.2f}; so far serial {wall['serial']:.1f} s, "
                  f"cluster {wall['cluster']:.1f} s", flush=True)
    loads.append(os.getloadavg()[0])
    for name in ("serial", "cluster"):
        cpu = sum(r["cpu_s"] for r in rows[name])
        print(f"{name}: {wall[name]:.1f} s ({wall[name] / n:.3f} s a case); a case: wall "
              f"{sum(r['wall_s'] for r in rows[name]) / n:.3f} s, CPU {cpu / n:.3f} s; cores used {cpu / wall[name]:.2f}")
    print(f"local cluster of {args.workers} workers started in {start:.1f} s (not in its time above)")
    print(f"speed-up: {wall['serial'] / wall['cluster']:.2f} ({wall['serial'] / (wall['cluster'] + start):.2f} with "
          f"the cluster's start); load average (1 min) {min(loads):.2f} to {max(loads):.2f} over the rounds")
    strip = [[{k: v for k, v in r.items() if k not in sw.TIMING_COLUMNS} for r in rows[k]]
             for k in ("serial", "cluster")]
    failed = sum(1 for r in rows["serial"] if r["error"])
    print(f"tables equal but for the timing columns: {strip[0] == strip[1]}; failed cases: {failed}")
    return 0 if strip[0] == strip[1] else 1


if __name__ == "__main__":
    raise SystemExit(main())
