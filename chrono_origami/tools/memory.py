"""Memory: how much is available, what an analysis needs, and one-line errors instead of an exhausted machine.

:func:`check` refuses a step whose estimated need exceeds :data:`FRACTION` of
the available memory (MemAvailable of /proc/meminfo), naming the step (the
operator and its size) and both amounts. :func:`guard` is the backstop for
needs that cannot be estimated beforehand (a sparse factor's fill, SuperLU's
LU, ARPACK's work): inside it the process's address space may grow by the
available memory only (``RLIMIT_AS``, Linux), so an allocation beyond it
fails as a MemoryError (in Chrono: a C++ ``std::bad_alloc``, which PyChrono
raises as a RuntimeError) -- instead of the kernel's out-of-memory killer
ending the process without a word -- and the guard turns that into one line.
"""
import contextlib
import functools
import os
import threading

from .errors import InsufficientMemoryError

#: A step is refused when its estimated need exceeds this fraction of the available memory.
FRACTION = 0.8
#: The guard lets the address space grow by at least this much (bytes), whatever is available: below it the
#: machine is out of memory anyway, and the interpreter and its libraries need room to report it.
GUARD_MARGIN = 512 * 2 ** 20

#: a C++ allocation failure as SWIG wrappers (PyChrono) raise it: ``RuntimeError("std::bad_alloc")``
CXX_BAD_ALLOC = "std::bad_alloc"

_guards = 0    # guards running (nested, or in several threads): only the first sets the limit, the last lifts it
_lock = threading.Lock()
_limit = None  # (resource module, soft, hard) to restore


def _proc_kb(path, key):
    """The value in bytes of the line ``key: N kB`` of a /proc file, or None."""
    try:
        with open(path) as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def available():
    """Available physical memory in bytes (MemAvailable of /proc/meminfo), or None where unknown."""
    avail = _proc_kb("/proc/meminfo", "MemAvailable")
    if avail is not None:
        return avail
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def gigabytes(nbytes):
    """'1.7 GB' or '350 MB'."""
    return f"{nbytes / 2 ** 30:.1f} GB" if nbytes >= 2 ** 30 else f"{nbytes / 2 ** 20:.0f} MB"



def about(subject):
    """What an analysis works on, for the guards' messages: "NAME (N panels)" of a structure, of a fold problem
    (its structure's panels) or of a crease pattern; never raises (the name alone, or "the structure")."""
    structure = getattr(subject, "structure", subject)
    pattern = getattr(structure, "pattern", structure)
    name = getattr(subject, "name", None) or getattr(structure, "name", None) or "the structure"
    n = getattr(pattern, "n_panels", None)
    return f"{name} ({n:,} panels)" if isinstance(n, int) else str(name)

def check(what, need, avail=None):
    """Raise :class:`InsufficientMemoryError` when ``need`` bytes exceed :data:`FRACTION` of the available memory.

    ``what`` names the step and its size ("the sparse QR of the 995,000 x 599,136 operator").
    """
    avail = available() if avail is None else avail
    if avail is not None and need > FRACTION * avail:
        raise InsufficientMemoryError(f"{what} needs about {gigabytes(need)} of memory; {gigabytes(avail)} is "
                                      f"available")


def _address_space():
    """Current virtual memory size of this process in bytes (VmSize), or None."""
    return _proc_kb("/proc/self/status", "VmSize")


def _warm_up():
    """Let the BLAS libraries (NumPy's, and the one SuiteSparse brings) allocate their work buffers now: OpenBLAS
    allocates them on first use and ends the process, without a word, when that fails."""
    import numpy as np

    a = np.ones((64, 64))
    a @ a
    try:
        from .suitesparse import suitesparse

        suitesparse()
    except ImportError:      # pragma: no cover
        pass


@contextlib.contextmanager
def guard(what):
    """Inside: allocations beyond the available memory fail, and a MemoryError ends as one line naming ``what``.

    The address-space limit (``RLIMIT_AS``: the current size plus the
    available memory, at least :data:`GUARD_MARGIN`) is set by the outermost guard and restored on leaving;
    where it cannot be set (not Linux), a MemoryError is still turned into
    the one-line error.
    """
    global _guards, _limit
    avail = available()
    with _lock:
        if _guards == 0 and avail is not None:
            _warm_up()
            _limit = _set_limit(avail)
        _guards += 1
    try:
        yield
    except (MemoryError, RuntimeError) as e:
        if not isinstance(e, MemoryError) and str(e).strip() != CXX_BAD_ALLOC:
            raise
        detail = str(e).strip().split("\n")[0]
        raise InsufficientMemoryError(f"{what} needs more memory than the {gigabytes(avail) if avail else 'unknown'} "
                                      f"available{' (' + detail + ')' if detail else ''}") from None
    finally:
        with _lock:
            _guards -= 1
            if _guards == 0 and _limit is not None:
                res, soft, hard = _limit
                res.setrlimit(res.RLIMIT_AS, (soft, hard))
                _limit = None


def _set_limit(avail):
    """Limit the address space to its current size plus ``avail`` (at least GUARD_MARGIN); the old limits, or None."""
    try:
        import resource

        size = _address_space()
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if size is None:
            return None
        new = size + max(avail, GUARD_MARGIN)
        if hard != resource.RLIM_INFINITY:
            new = min(new, hard)
        if soft != resource.RLIM_INFINITY and new >= soft:
            return None
        resource.setrlimit(resource.RLIMIT_AS, (new, hard))
        return resource, soft, hard
    except (ImportError, ValueError, OSError):
        return None


def guarded(what):
    """Decorator: each call runs inside :func:`guard`; ``what`` names it (a string, or a function of the call's
    arguments giving one, e.g. ``lambda structure, *a, **k: f"counting {structure.name}"``)."""
    def decorate(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kw):
            try:
                name = what(*args, **kw) if callable(what) else what
            except Exception:      # a malformed argument: the function itself says what is wrong
                name = fn.__name__
            with guard(name):
                return fn(*args, **kw)
        return wrapper
    return decorate
