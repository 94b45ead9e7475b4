"""What the sweep's process tests share (test_sweep_dask.py, test_sweep_faults.py): the child environment, the
command line as a child process, stopping a process group, and the rows of a sweep's part files."""
import os
import signal
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: children import this checkout, with one BLAS thread, and never a user's scheduler
ENV = dict(os.environ, PYTHONPATH=ROOT, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
ENV.pop("CHRONO_ORIGAMI_SCHEDULER", None)


def cli(*args, timeout=180, **kw):
    """(exit code, stdout, stderr) of ``python -m chrono_origami ARGS`` in a child process."""
    p = subprocess.run([sys.executable, "-m", "chrono_origami", *map(str, args)], capture_output=True, text=True,
                       timeout=timeout, env=ENV, **kw)
    return p.returncode, p.stdout, p.stderr


def stop(proc, wait=10):
    """SIGTERM the process group, then SIGKILL after ``wait`` seconds."""
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(wait)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(wait)
    except ProcessLookupError:
        pass


def part_rows(out):
    """The rows of every part file of the sweep folder ``out`` (none when it has no parts/ yet)."""
    import pyarrow.parquet as pq

    rows = []
    parts = os.path.join(out, "parts")
    if not os.path.isdir(parts):
        return rows
    for name in sorted(os.listdir(parts)):
        if name.startswith("part-"):
            rows.extend(pq.read_table(os.path.join(parts, name)).to_pylist())
    return rows


def wait_for_parts(out, n, proc, timeout=120):
    """Wait (at most ``timeout`` s) until the sweep folder ``out`` holds ``n`` part files or ``proc`` ends; assert
    that ``proc`` still runs, so that the caller can interrupt it in the middle."""
    import time

    parts = os.path.join(out, "parts")
    end = time.monotonic() + timeout
    while time.monotonic() < end and proc.poll() is None:
        if os.path.isdir(parts) and len([x for x in os.listdir(parts) if x.startswith("part-")]) >= n:
            break
        time.sleep(0.01)
    assert proc.poll() is None, "the sweep finished before it could be interrupted"
