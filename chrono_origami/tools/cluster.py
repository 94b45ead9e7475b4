"""Many-case runs (sweeps, Monte Carlo samples) on Dask distributed, or in this process.

:func:`executor` (a context manager) gives an :class:`Executor` for a *scheduler*:

* ``"local"`` (the default): a ``dask.distributed.LocalCluster`` on 127.0.0.1
  of ``workers`` processes (default: one per core), one thread each, no
  dashboard (its HTTP server on a free port: :data:`QUIET_HTTP`); it is started for the run and stopped after it;
* an address such as ``tcp://HOST:PORT`` (any address Dask reaches:
  ``tls://``, ``ws://``, or ``HOST:PORT``): a scheduler the user already
  runs (``dask scheduler`` and ``dask worker``, dask-jobqueue on SLURM,
  Kubernetes, ...). Its workers must import the same chrono_origami. One
  that does not answer within ``timeout`` seconds (default
  :data:`CONNECT_TIMEOUT`) is a one-line :class:`SchedulerError` naming the
  address; so is a program that accepts the connection but does not open
  Dask's handshake within that time (a silent listener, a web server): "not a
  Dask scheduler" (:func:`check_handshake`, TCP addresses);
* ``"serial"``: every case in this process, one after the other, without Dask.

Without an explicit choice the environment variable :data:`ENV`
(``CHRONO_ORIGAMI_SCHEDULER``) gives it, else ``"local"``.

Memory: Dask's nanny starts workers with ``MALLOC_TRIM_THRESHOLD_=65536``,
which costs these cases about 40 % more CPU (glibc then maps and unmaps
every array above 128 kB); the local cluster's workers start without it
(:data:`KEEP_MALLOC`). On your own cluster, start the workers with
``--no-nanny`` or set that Dask key to null.

BLAS threads: every task runs inside a BLAS thread limit of ``blas_threads``
(default :data:`WORKER_BLAS_THREADS`, one), set by threadpoolctl in the
process that runs it (``tools.threads.chosen_blas_threads(n)``), whatever
the cluster and whatever an outer block chose, with the program's own setting
``CHRONO_ORIGAMI_BLAS_THREADS`` set to the same number while it runs: a
worker with one thread runs one case at a time on one core. Dask's worker processes also start with
OMP/MKL/OPENBLAS_NUM_THREADS = 1 (Dask's own ``distributed.nanny.pre-spawn-environ``).

Failures: :meth:`Executor.run` yields each item's outcome as it completes;
an item whose task raised is yielded with its exception, the others go on.
A worker that dies (killed, out of memory) loses nothing: the scheduler runs
its tasks again on the other workers (up to Dask's
``distributed.scheduler.allowed-failures`` times, then the item fails with
``KilledWorker``).
"""
import math
import os
import socket
import struct
import sys
import time
from contextlib import contextmanager

from .errors import OrigamiError, SchedulerError
from .threads import ENV as BLAS_ENV, chosen_blas_threads

#: environment variable giving the default scheduler ("local", "serial" or an address)
ENV = "CHRONO_ORIGAMI_SCHEDULER"
#: seconds to wait for a user's scheduler to answer
CONNECT_TIMEOUT = 5.0
#: BLAS threads of each task on the workers
WORKER_BLAS_THREADS = 1
SCHEDULERS = ("local", "serial")
#: a Dask client's states while its scheduler is there
RUNNING = ("running", "connecting", "newly-created")
#: the local scheduler's HTTP server (health and metrics routes; no dashboard) on a free port of 127.0.0.1: Dask's
#: default port 8787 in use would print a warning block
QUIET_HTTP = {"dashboard": False, "dashboard_address": "127.0.0.1:0"}
#: the largest first message of a Dask scheduler's handshake (bytes; Dask's is a few hundred)
HANDSHAKE_LIMIT = 1 << 20
#: Dask's nanny starts its workers with MALLOC_TRIM_THRESHOLD_=65536 (less memory held), which makes glibc map and
#: unmap every array above 128 kB: the cases of a sweep then take about 40 % more CPU. The local cluster unsets it.
KEEP_MALLOC = "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_"


def resolve(scheduler=None):
    """The scheduler to use: ``scheduler``, else ``$CHRONO_ORIGAMI_SCHEDULER``, else ``"local"`` (checked)."""
    if scheduler is None:
        scheduler = os.environ.get(ENV, "").strip() or "local"
    if not isinstance(scheduler, str) or not scheduler.strip():
        raise SchedulerError(f"scheduler must be 'local', 'serial' or an address tcp://HOST:PORT, got {scheduler!r}")
    scheduler = scheduler.strip()
    if scheduler in SCHEDULERS:
        return scheduler
    host_port = scheduler.split("://", 1)[-1]
    host, _, port = host_port.rpartition(":")
    if not host or not port.isdigit():
        raise SchedulerError(f"scheduler {scheduler!r}: expected 'local', 'serial' or an address tcp://HOST:PORT")
    return scheduler


def _tcp_host_port(address):
    """(host, port) of a TCP address (``tcp://HOST:PORT``, ``HOST:PORT``, ``[::1]:PORT``), else None."""
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    if scheme != "tcp":
        return None
    host, _, port = rest.rpartition(":")
    host = host.strip("[]")
    return (host, int(port)) if host and port.isdigit() else None


def _read_exactly(sock, n, deadline):
    data = b""
    while len(data) < n:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("no answer")
        sock.settimeout(left)
        chunk = sock.recv(min(n - len(data), 65536))
        if not chunk:
            raise ConnectionError("connection closed")
        data += chunk
    return data


def check_handshake(address, timeout=CONNECT_TIMEOUT):
    """Check, within ``timeout`` seconds, that a Dask scheduler listens at the TCP ``address``.

    A Dask scheduler opens every connection with its handshake: an 8-byte
    little-endian length, then that many bytes of frames. Returns False
    when nothing accepts the connection in time (Dask's own connect then
    retries and names it); raises a one-line :class:`SchedulerError` "not a
    Dask scheduler" naming the address when something accepts it and then
    stays silent, closes it, or sends anything else (an HTTP server's
    answer). True when the handshake arrived. Other schemes (tls, ws, ...):
    None, not checked.
    """
    hp = _tcp_host_port(address)
    if hp is None:
        return None
    deadline = time.monotonic() + timeout
    try:
        sock = socket.create_connection(hp, timeout=timeout)
    except OSError:
        return False
    what = None
    try:
        head = _read_exactly(sock, 8, deadline)
        (n,) = struct.unpack("<Q", head)
        if not 0 < n <= HANDSHAKE_LIMIT:
            what = f"its first bytes {head!r} are not a Dask message"
        else:
            _read_exactly(sock, n, deadline)
    except TimeoutError:
        what = f"it accepted the connection but sent nothing within {timeout:g} s"
    except OSError as e:
        what = f"it accepted the connection, then {e.strerror or e}"
    finally:
        sock.close()
    if what:
        raise SchedulerError(f"{address} is not a Dask scheduler: {what}")
    return True


def _task(item, fn, blas_threads):
    """Run ``fn(item)`` with ``blas_threads`` BLAS threads (on a worker or here)."""
    with chosen_blas_threads(blas_threads):
        return fn(item)


def _chunk(items, fn, blas_threads):
    with chosen_blas_threads(blas_threads):
        return [fn(x) for x in items]


class Executor:
    """Runs a function on many items: here (``"serial"``) or on a Dask cluster (``client`` given).

    ``name``: what it is, for messages ("serial", "local cluster of 2 workers", the address);
    ``workers``: how many workers it had when it started (1 when serial).
    """

    def __init__(self, name, client=None, blas_threads=WORKER_BLAS_THREADS):
        self.name = name
        self.client = client
        self.blas_threads = blas_threads

    @property
    def workers(self):
        """Workers connected now (1 when serial; 0 when the scheduler has none yet: tasks wait for them)."""
        if self.client is None:
            return 1
        return len(self.client.scheduler_info().get("workers", {}))

    def run(self, fn, items, keys=None):
        """Yield ``(index, ok, value)`` for every item as it completes: ``value`` is ``fn(items[index])`` when
        ``ok``, else the exception it raised. ``keys``: one unique text per item (Dask task names)."""
        items = list(items)
        if self.client is None:
            for i, x in enumerate(items):
                try:
                    yield i, True, _task(x, fn, self.blas_threads)
                except Exception as exc:          # the caller records it and goes on
                    yield i, False, exc
            return
        from distributed import as_completed

        import asyncio

        futures = self.client.map(_task, items, fn=fn, blas_threads=self.blas_threads, key=keys, pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        for f in as_completed(futures):
            i = index[f.key]
            try:
                ok = f.status == "finished"
                value = f.result() if ok else f.exception()
            except (Exception, asyncio.CancelledError) as exc:   # the connection or the scheduler went away
                ok, value = False, exc
            if not ok and not isinstance(value, BaseException):
                value = SchedulerError(f"its task was {f.status} (the scheduler at {self.name} lost it)")
            if self.client.status not in RUNNING:
                why = str(value).splitlines()[0] if not ok and str(value) else ""
                ok, value = False, SchedulerError(f"the Dask scheduler at {self.name} went away"
                                                  f"{f' ({why})' if why else ''}")
            yield i, ok, value
            try:
                f.release()
            except Exception:
                pass

    def map(self, fn, items):
        """``[fn(x) for x in items]``, in order, in chunks of about four per worker; the first failure is
        raised. Usable as ``tolerances.monte_carlo(..., map=executor.map)``."""
        items = list(items)
        if self.client is None:
            return _chunk(items, fn, self.blas_threads)
        size = max(1, math.ceil(len(items) / (4 * max(1, self.workers))))
        chunks = [items[k:k + size] for k in range(0, len(items), size)]
        futures = self.client.map(_chunk, chunks, fn=fn, blas_threads=self.blas_threads, pure=False)
        import asyncio
        import concurrent.futures

        try:
            done = self.client.gather(futures)
        except (Exception, asyncio.CancelledError) as exc:
            # Dask's FutureCancelledError (a cancelled task: the scheduler lost it) is concurrent.futures'
            lost = (isinstance(exc, (OSError, asyncio.CancelledError, concurrent.futures.CancelledError))
                    or self.client.status not in RUNNING)
            if isinstance(exc, OrigamiError) or not lost:      # a task's own error: the caller's to report
                raise
            why = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise SchedulerError(f"the Dask scheduler at {self.name} went away before the run ended ({why}); "
                                 f"run it again") from None
        return [y for part in done for y in part]


def _dask():
    try:
        import distributed
    except ImportError:
        raise SchedulerError("running on Dask needs dask.distributed, which is not installed "
                             "(pip install 'dask[distributed]', or the extra chrono-origami[sweep]); "
                             "use the scheduler 'serial' to run in this process") from None
    return distributed


@contextmanager
def _workers_leave_ctrl_c_to_us():
    """Worker processes started inside the block ignore SIGINT (they inherit it: Python and asyncio then install
    no handler): Ctrl-C in a terminal reaches the whole process group, and this process alone answers it (it
    keeps what finished and stops the cluster), without a traceback from every worker."""
    import signal

    try:
        old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:                 # not the main thread: signals are not ours to set
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


def _quiet_logs():
    """Dask's client logs a scheduler that went away as an ERROR with its traceback: the command line says it
    in one line instead. Quiets the ``distributed`` loggers; returns the function that restores them."""
    import logging

    loggers = [logging.getLogger(n) for n in ("distributed", "distributed.client", "distributed.core",
                                              "distributed.comm", "distributed.utils")]
    saved = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL + 1)

    def restore():
        for lg, level in zip(loggers, saved):
            lg.setLevel(level)
    return restore


def default_workers():
    """Local workers when not given: one per core (``os.sched_getaffinity`` where it exists)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


@contextmanager
def executor(scheduler=None, workers=None, timeout=CONNECT_TIMEOUT, blas_threads=WORKER_BLAS_THREADS):
    """An :class:`Executor` for ``scheduler`` (module doc), closed (and a local cluster stopped) at the end."""
    scheduler = resolve(scheduler)
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise SchedulerError(f"workers must be an integer >= 1, got {workers!r}")
    if not (isinstance(blas_threads, int) and blas_threads >= 1):
        raise SchedulerError(f"blas_threads must be an integer >= 1, got {blas_threads!r}")
    if scheduler == "serial":
        yield Executor("this process (serial)", None, blas_threads)
        return
    distributed = _dask()
    import logging

    cluster = quiet = None
    if scheduler == "local":
        n = workers or default_workers()
        import dask

        try:
            with dask.config.set({KEEP_MALLOC: None}), _workers_leave_ctrl_c_to_us():
                cluster = distributed.LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                                   host="127.0.0.1", dashboard_address=None,
                                                   scheduler_kwargs=QUIET_HTTP, silence_logs=logging.CRITICAL)
            client = distributed.Client(cluster, timeout=max(timeout, 30.0))
        except (OSError, TimeoutError) as exc:
            if cluster is not None:
                cluster.close()
            raise SchedulerError(f"cannot start a local Dask cluster of {n} workers: {exc}") from None
        name = f"local cluster of {n} worker{'s' if n > 1 else ''}"
    else:
        if workers is not None:
            print(f"note: --workers is for the local cluster; the scheduler at {scheduler} has its own workers",
                  file=sys.stderr)
        check_handshake(scheduler, timeout)
        quiet = _quiet_logs()
        try:
            client = distributed.Client(scheduler, timeout=timeout)
        except (OSError, TimeoutError) as exc:
            quiet()
            raise SchedulerError(f"cannot reach the Dask scheduler at {scheduler} within {timeout:g} s "
                                 f"({str(exc).splitlines()[0] if str(exc) else type(exc).__name__})") from None
        name = scheduler
    try:
        yield Executor(name, client, blas_threads)
    finally:
        try:
            client.close()
        except Exception:            # a scheduler that went away: nothing to close
            pass
        if cluster is not None:
            cluster.close()
        if quiet is not None:
            quiet()
