"""Benchmark (not a test): which analyses gain and which lose from a second BLAS thread, idle or busy machine.

Each operation runs in its own process, once to warm up and then ``--repeat``
times (the best is kept), with the program's own choice of BLAS threads
(``chrono_origami.tools.threads``: one, unless CHRONO_ORIGAMI_BLAS_THREADS says
otherwise) and with one thread per core (``CHRONO_ORIGAMI_BLAS_THREADS=all``);
first with the other cores as they are, then with one busy process (a Python
loop) per other core, as on a user's busy laptop. Prints the times and the
ratio all-threads / one thread (above 1: threads lose).

    python3 benchmarks/threads.py                 # every operation, idle and busy
    python3 benchmarks/threads.py --only count --repeat 5
    python3 benchmarks/threads.py --conditions busy
"""
import argparse
import json
import os
import subprocess
import sys
import time


def _patch(n, m=None):
    from chrono_origami.patterns import miura

    return miura.miura_patch(n, m or n)


def _fold(n, steps=4):
    import numpy as np

    from chrono_origami.inputs.fold import Drive, FoldProblem
    from chrono_origami.patterns import miura

    st = miura.miura_patch(n, n, fold_angle_deg=40.0)
    prob = FoldProblem(st, [Drive(n - 1, angle=np.radians(10.0))], (), 1.0)
    return lambda: __import__("chrono_origami").fold(prob, frame_interval=1.0, dt=1.0 / steps, dt_max=1.0 / steps,
                                                     progress=False)


def _chain(N):
    import importlib.util

    from chrono_origami.analysis import modal

    # the tests' spring chain (tests/catalogue.py, loaded from its file)
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests", "catalogue.py")
    spec = importlib.util.spec_from_file_location("catalogue", path)
    catalogue = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(catalogue)
    mats = catalogue.chain_matrices(N)
    return lambda: modal.solve_modes(mats, "nullspace", n_modes=20)


def _dynamics():
    import chrono_origami as co
    from chrono_origami.inputs.dynamics import CreaseSpring, Motor
    from chrono_origami.inputs.dynamics_examples import miura_deploy

    st, _, _ = miura_deploy(2)
    return lambda: co.dynamics(st, "reference", time=0.1, dt=2e-3, progress=False,
                               motors=[Motor(0, "torque", "0.5*sin(10*t)")],
                                        springs=[CreaseSpring(3, 5.0, 0.1)])


def _design(st, **kw):
    import chrono_origami as co

    return lambda: co.design.design(st, **kw)


#: name -> (what it is, a function building the operation: a callable timed)
OPERATIONS = {
    "count-dense-100": ("count, dense SVD: 10 x 10 Miura patch, 600 columns",
                        lambda: (lambda s: lambda: __import__("chrono_origami").count(s))(_patch(10))),
    "count-dense-240": ("count, dense SVD: 15 x 16 Miura patch, 1,440 columns",
                        lambda: (lambda s: lambda: __import__("chrono_origami").count(s))(_patch(15, 16))),
    "count-sparse-1600": ("count, sparse QR: 40 x 40 Miura patch, 9,600 columns",
                          lambda: (lambda s: lambda: __import__("chrono_origami").count(s))(_patch(40))),
    "static-1000": ("static, sparse LU: isostatic Miura strip, 1,000 panels",
                    lambda: (lambda s: lambda: __import__("chrono_origami").static(s))(
                        __import__("chrono_origami").miura.miura_cantilever(columns=500))),
    "static-small": ("static x 50, dense: the paper's Miura cantilever, 12 panels",
                     lambda: (lambda s: lambda: [__import__("chrono_origami").static(s) for _ in range(50)])(
                         __import__("chrono_origami").miura.miura_cantilever())),
    "fold-dense-144": ("fold, dense: 12 x 12 Miura patch 40 -> 50 deg, 4 steps", lambda: _fold(12)),
    "fold-sparse-1024": ("fold, sparse QR: 32 x 32 Miura patch 40 -> 50 deg, 4 steps", lambda: _fold(32)),
    "design-yoshimura": ("design: the Yoshimura wedge, every minimal design ranked",
                         lambda: _design(__import__("chrono_origami").yoshimura.table4_structure(kind="door"))),
    "design-patch-144": ("design search: 12 x 12 Miura patch (dense null space), no ranking",
                         lambda: _design(_patch(12), max_subsets=0, samples=0, rank_limit=0)),
    "modal-150": ("modal, null space: 150-body chain, 900 coordinates", lambda: _chain(150)),
    "dynamics-strip": ("dynamics, reference engine: 8-panel Miura strip, 50 steps", _dynamics),
}


def one(name, repeat):
    """Time one operation in this process (best of ``repeat`` after a warm-up); print one JSON line."""
    from threadpoolctl import threadpool_info

    from chrono_origami.tools import threads

    op = OPERATIONS[name][1]()
    op()
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        op()
        best = min(best, time.perf_counter() - t0)
    with threads.chosen_blas_threads():
        used = sorted({i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"
                       and i.get("threading_layer") != "disabled"})
    print(json.dumps(dict(name=name, seconds=best, threads=used)))


def run(name, setting, repeat):
    env = dict(os.environ)
    env.pop("OPENBLAS_NUM_THREADS", None)      # the program's choice, not the shell's, decides
    env.pop("OMP_NUM_THREADS", None)
    if setting is None:
        env.pop("CHRONO_ORIGAMI_BLAS_THREADS", None)
    else:
        env["CHRONO_ORIGAMI_BLAS_THREADS"] = setting
    r = subprocess.run([sys.executable, __file__, "--one", name, "--repeat", str(repeat)], env=env,
                       capture_output=True, text=True)
    if r.returncode:
        raise SystemExit(f"{name}: {r.stderr.strip().splitlines()[-1] if r.stderr.strip() else r.returncode}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="", help="run the operations whose names contain this text")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs per operation (the best is kept; default 3)")
    ap.add_argument("--conditions", default="idle,busy", help="idle, busy or both (default idle,busy)")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one:
        return one(args.one, args.repeat)
    names = [n for n in OPERATIONS if args.only in n]
    cores = os.cpu_count() or 1
    print(f"{cores} cores; program's choice: CHRONO_ORIGAMI_BLAS_THREADS unset; all: one thread per core; "
          f"best of {args.repeat} runs, each operation in its own process")
    print(f"{'condition':<9} {'operation':<18} {'program (s)':>11} {'threads':>7} {'all (s)':>9} {'threads':>7} "
          f"{'all/program':>11}  what")
    for condition in args.conditions.split(","):
        busy = []
        if condition == "busy":
            busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(cores - 1)]
            time.sleep(0.5)
        try:
            for name in names:
                a = run(name, None, args.repeat)
                b = run(name, "all", args.repeat)
                print(f"{condition:<9} {name:<18} {a['seconds']:11.3f} {','.join(map(str, a['threads'])):>7} "
                      f"{b['seconds']:9.3f} {','.join(map(str, b['threads'])):>7} {b['seconds'] / a['seconds']:11.2f}"
                      f"  {OPERATIONS[name][0]}", flush=True)
        finally:
            for p in busy:
                p.kill()
                p.wait()


if __name__ == "__main__":
    sys.exit(main())
