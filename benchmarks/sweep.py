"""Benchmark (not a test): a sweep of 100-panel structures, serial against a local Dask cluster.

The sweep: Miura-ori sheets of 2 x 50 panels (the paper's cantilever supports,
its tip load), a grid of sector angles (45 to 70 deg) and fold angles (20 to
70 deg), each with all door hinges and with the best isostatic design of the
design search (``max_ranked = 1``), tolerance 0.1 mm: ``--cases`` cases
(1,000 by default). It runs twice into fresh folders, in this process
(``scheduler = "serial"``) and on a local cluster of ``--workers`` processes
(one thread and one BLAS thread each), and prints the wall times, the
speed-up (with and without the cluster's start) and the load of the machine
before and after, then checks that both tables are the same but for
``wall_s``.

    python3 benchmarks/sweep.py                    # 1,000 cases, 2 workers: about 15 minutes on 2 idle cores
    python3 benchmarks/sweep.py --cases 100
"""
import argparse
import os
import tempfile
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


def load():
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min)"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=1000)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()

    import chrono_origami as co
    from chrono_origami.inputs.sweep import make_spec
    from chrono_origami.tools import cluster

    s = spec(args.cases)
    n = len(make_spec(s).cases)
    print(f"{n} cases of 100-panel Miura-ori sheets (door and isostatic, 0.1 mm tolerance); "
          f"{os.cpu_count()} cores; {load()}")
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        serial = co.sweep(s, out=os.path.join(tmp, "serial"), scheduler="serial")
        t_serial = time.perf_counter() - t0
        print(f"serial: {t_serial:.1f} s ({t_serial / n:.3f} s a case; mean case wall time "
              f"{sum(r['wall_s'] for r in serial.rows) / n:.3f} s); {load()}")
        t0 = time.perf_counter()
        with cluster.executor("local", args.workers):
            pass
        t_start = time.perf_counter() - t0
        t0 = time.perf_counter()
        local = co.sweep(s, out=os.path.join(tmp, "local"), scheduler="local", workers=args.workers)
        t_local = time.perf_counter() - t0
        print(f"local cluster of {args.workers} workers: {t_local:.1f} s, of which about {t_start:.1f} s starting "
              f"and stopping the cluster (mean case wall time {sum(r['wall_s'] for r in local.rows) / n:.3f} s); "
              f"{load()}")
        print(f"speed-up: {t_serial / t_local:.2f} (with the cluster's start), "
              f"{t_serial / max(t_local - t_start, 1e-9):.2f} (without)")
        strip = [[{k: v for k, v in r.items() if k != "wall_s"} for r in res.rows] for res in (serial, local)]
        same = strip[0] == strip[1]
        print(f"tables equal but for wall_s: {same}; failed cases: {serial.failed} serial, {local.failed} local")
        return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
