"""``static --elastic`` on all-door n x n Miura-ori sheets from the command line: time and memory, both engines.

Each case is the command a user runs, in its own process (its peak memory alone):

    python -m chrono_origami static miuraN.fold --elastic --engine E --support auto --load interior:0,0,-1 --out DIR

on a sheet written by ``patterns.miura.miura_patch`` (all door hinges: M = 1 under the proposed support, S about
4 P), so the crease springs carry the load on the mechanism; the time includes reading the file, the support
proposal, the count (M, S), the solve and the stiffness sensitivity (one more solve per door k_t, door k_r and
crease), and writing the CSV files. Printed per case: panels, M, S, wall and CPU seconds of the command, its peak
resident memory (MB), the largest relative displacement and the sensitivity from counts.json.

    python3 benchmarks/elastic_scale.py                                 # 1,024 and 10,000 panels, both engines
    python3 benchmarks/elastic_scale.py --sizes 1024 --engines reference
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

from common import program_threads

program_threads()

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


WRAP = """
import json, resource, subprocess, sys
r = subprocess.run(sys.argv[1:])
u = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"returncode": r.returncode, "cpu_s": round(u.ru_utime + u.ru_stime, 2),
                  "peak_MB": round(u.ru_maxrss / 1024, 1)}), file=sys.stderr)
"""


def run_case(n, engine, folder, timeout):
    from chrono_origami.patterns import miura
    from chrono_origami.structure.foldfile import write_fold

    path = os.path.join(folder, f"miura{n}.fold")
    if not os.path.exists(path):
        write_fold(miura.miura_patch(n, n), path)
    out = os.path.join(folder, f"out-{engine}-{n}")
    argv = [sys.executable, "-m", "chrono_origami", "static", path, "--elastic", "--engine", engine, "--support",
            "auto", "--load", "interior:0,0,-1", "--out", out]
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    t0 = time.perf_counter()
    # a wrapper process runs the command and reports its resource use alone (its only child)
    proc = subprocess.Popen([sys.executable, "-c", WRAP, *argv], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env=env, text=True, start_new_session=True)
    try:
        _, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)      # the wrapper and the command it runs
        proc.communicate()
        return {"P": n * n, "engine": engine, "error": f"not done in {timeout:g} s"}
    wall = time.perf_counter() - t0
    lines = err.strip().splitlines()
    usage = json.loads(lines[-1]) if lines and lines[-1].startswith("{") else {}
    row = {"P": n * n, "engine": engine, "wall_s": round(wall, 2), **usage}
    if usage.get("returncode", 1):
        row["error"] = next((x for x in reversed(lines[:-1]) if x.strip()), "failed")
        return row
    with open(os.path.join(out, "counts.json")) as f:
        c = json.load(f)
    row.update(M=c["M"], S=c["S"], displacement_rel=c["displacement_relative"],
               sensitivity_max=c["stiffness_sensitivity_max"])
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1024, 10000], help="panels (squares n x n)")
    ap.add_argument("--engines", nargs="+", default=["reference", "chrono"], choices=("reference", "chrono"))
    ap.add_argument("--timeout", type=float, default=1800.0, help="seconds per case")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for P in args.sizes:
            n = int(round(P ** 0.5))
            for engine in args.engines:
                print(json.dumps(run_case(n, engine, folder, args.timeout)), flush=True)


if __name__ == "__main__":
    main()
