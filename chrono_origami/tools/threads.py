"""BLAS threads: the program chooses them (threadpoolctl), users need not discover OPENBLAS_NUM_THREADS.

Rule: one BLAS thread (:data:`DEFAULT`), for every analysis. They run many
small dense operations (per-hinge blocks, SVDs of a few hundred columns,
Newton steps of small systems) and sparse factorisations whose dense fronts
are small. Measured on this project's 2-core machine with the other core
not idle, as users' laptops are not (``benchmarks/threads.py``, figures in
the manual's "Scale and benchmarks", docs/scale.md, "Threads"): no analysis gains from a second thread; dense
counts, statics, folds, design searches and modal analyses lose 7 to 16
times, sparse ones 1.2 to 2.8 times (a waiting OpenBLAS thread spins on the
core others need); the reference dynamics is even.

Override: the environment variable :data:`ENV` (``CHRONO_ORIGAMI_BLAS_THREADS``),
a positive number of threads or ``all`` (one per core). Anything else is a
one-line :class:`~chrono_origami.tools.errors.SettingError`.

Where it applies: :func:`chosen_blas_threads` (a context manager; the one place
that sets BLAS threads, also for the tasks of ``tools.cluster``) around every
command and scene (``cli.app.run``) and, as the decorator
:func:`with_blas_threads`, around the public analyses of ``analysis/``
(``co.count``, ``co.static``, ``co.fold``, ``co.fold_to_targets``,
``co.design``, ``co.propose_support``, ``co.dynamics``, ``co.modal``,
``analysis.modal.solve_modes``, ``structure_modes``, and ``co.tolerances``'
``locked_in``, ``locked_in_statistics``, ``monte_carlo_sample``,
``monte_carlo``, ``force_against_tolerance``): a new public analysis takes
the decorator too. Only the outermost one sets
the limit: an analysis that calls another keeps the choice, and the limit is
lifted when the outermost returns. OpenMP (Chrono's own solver threads) is
left alone.
"""
import functools
import os
import sys
from contextlib import contextmanager

from .errors import SettingError

#: environment variable overriding the number of BLAS threads (a positive integer, or "all")
ENV = "CHRONO_ORIGAMI_BLAS_THREADS"
#: BLAS threads used when ENV is not set (see the module doc for the measurement behind it)
DEFAULT = 1

_depth = 0
_controller = (None, -1)   # threadpoolctl's view of the loaded libraries, and len(sys.modules) when it was taken


def blas_threads():
    """The number of BLAS threads the analyses use: ``$CHRONO_ORIGAMI_BLAS_THREADS`` or :data:`DEFAULT`."""
    text = os.environ.get(ENV, "").strip()
    if not text:
        return DEFAULT
    if text.lower() == "all":
        return os.cpu_count() or 1
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise SettingError(f"{ENV}={text!r}: expected a positive number of BLAS threads or 'all' (one per core)")
    return n


@contextmanager
def chosen_blas_threads(n=None):
    """Inside the block, BLAS runs with :func:`blas_threads` threads (unless an outer block already chose).

    ``n`` (a positive integer): BLAS runs with ``n`` threads whatever an outer
    block chose, and :data:`ENV` says ``n`` inside the block, so that the
    analyses in it, and processes it starts, keep that choice; both are
    restored after it (``tools.cluster``: each task of a sweep or Monte Carlo
    run, one thread by default).
    """
    global _depth
    if n is None and _depth:
        _depth += 1
        try:
            yield
        finally:
            _depth -= 1
        return
    old_env = os.environ.get(ENV)
    if n is None:
        n = blas_threads()
    else:
        os.environ[ENV] = str(n)
    outer = _depth
    try:
        import scipy.linalg  # noqa: F401  (loads NumPy's and SciPy's BLAS before they are limited)

        with _libraries().limit(limits=n, user_api="blas"):
            _depth = outer + 1
            try:
                yield
            finally:
                _depth = outer
    finally:
        if old_env is None:
            os.environ.pop(ENV, None)
        else:
            os.environ[ENV] = old_env


def _libraries():
    """threadpoolctl's controller of the loaded BLAS libraries, scanned again when modules were imported since.

    (A scan takes about 2 ms; a BLAS library comes with an extension module, so an unchanged module count
    means no new library.)
    """
    global _controller
    controller, n_modules = _controller
    if controller is None or n_modules != len(sys.modules):
        from threadpoolctl import ThreadpoolController

        controller = ThreadpoolController()
        _controller = (controller, len(sys.modules))
    return controller
_controller = (None, -1)   # threadpoolctl's view of the loaded libraries, and len(sys.modules) when it was taken


def with_blas_threads(fn):
    """Decorator: ``fn`` runs inside :func:`chosen_blas_threads`."""
    @functools.wraps(fn)
    def run(*args, **kw):
        with chosen_blas_threads():
            return fn(*args, **kw)
    return run
