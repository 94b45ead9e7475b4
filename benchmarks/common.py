"""What the benchmark scripts share: the BLAS threads, peak memory, the fitted exponent of time against size."""
import contextlib
import os
import resource
import sys

_process = contextlib.ExitStack()


def program_threads():
    """Run this benchmark process with the program's own choice of BLAS threads, and say so on stderr.

    The choice is ``chrono_origami.tools.threads``' (one thread, or CHRONO_ORIGAMI_BLAS_THREADS), the one every
    command and public analysis makes, held for the whole process (the benchmarks also time internal
    functions). ``--blas all`` on the command line (taken out of sys.argv here) runs with one thread per core
    instead, for a comparison; child processes inherit the choice. Call it first thing in a benchmark.
    """
    from chrono_origami.tools import threads

    if "--blas" in sys.argv[:-1]:
        i = sys.argv.index("--blas")
        value = sys.argv[i + 1]
        del sys.argv[i:i + 2]
        if value not in ("all", "program"):
            raise SystemExit(f"--blas: expected 'all' or 'program', got {value!r}")
        if value == "all":
            os.environ[threads.ENV] = "all"
    _process.enter_context(threads.chosen_blas_threads())
    if "--one" not in sys.argv:
        setting = os.environ.get(threads.ENV)
        print(f"BLAS threads: {threads.blas_threads()} ("
              + (f"{threads.ENV}={setting}" if setting else "the program's choice; --blas all: one per core")
              + ")", file=sys.stderr)


def peak_MB():
    """Peak resident set size of this process (MB; ru_maxrss is in kB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def fit_exponent(points):
    """Least-squares slope b of log(time) on log(P) (time ~ P^b) for (P, time) pairs, or None with fewer than two."""
    import numpy as np

    pts = [(p, t) for p, t in points if t and t > 0]
    if len(pts) < 2:
        return None
    x, y = np.log([p for p, _ in pts]), np.log([t for _, t in pts])
    return float(np.polyfit(x, y, 1)[0])
