"""Memory: how much is available, what an analysis needs, and one-line errors instead of an exhausted machine.

:func:`check` refuses a step whose estimated need exceeds :data:`FRACTION` of
the available memory (MemAvailable of /proc/meminfo), naming the step (the
operator and its size) and both amounts. :func:`guard` is the backstop for
needs that cannot be estimated beforehand (a sparse factor's fill, SuperLU's
LU, ARPACK's work): inside it the process's address space may grow by the
available memory only (``RLIMIT_AS``, Linux), so an allocation beyond it
fails as a MemoryError -- instead of the kernel's out-of-memory killer ending
the process without a word -- and the guard turns that into one line.
"""
import contextlib
import os

from .errors import InsufficientMemoryError

#: A step is refused when its estimated need exceeds this fraction of the available memory.
FRACTION = 0.8

_guards = 0    # nesting depth of guard(): only the outermost sets the limit


def available():
    """Available physical memory in bytes (MemAvailable of /proc/meminfo), or None where unknown."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def gigabytes(nbytes):
    """'1.7 GB' or '350 MB'."""
    return f"{nbytes / 2 ** 30:.1f} GB" if nbytes >= 2 ** 30 else f"{nbytes / 2 ** 20:.0f} MB"


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
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


@contextlib.contextmanager
def guard(what):
    """Inside: allocations beyond the available memory fail, and a MemoryError ends as one line naming ``what``.

    The address-space limit (``RLIMIT_AS``: the current size plus the
    available memory) is set by the outermost guard and restored on leaving;
    where it cannot be set (not Linux), a MemoryError is still turned into
    the one-line error.
    """
    global _guards
    limit = None
    avail = available()
    if _guards == 0 and avail is not None:
        try:
            import resource

            size = _address_space()
            soft, hard = resource.getrlimit(resource.RLIMIT_AS)
            if size is not None:
                new = size + avail
                if hard != resource.RLIM_INFINITY:
                    new = min(new, hard)
                if soft == resource.RLIM_INFINITY or new < soft:
                    resource.setrlimit(resource.RLIMIT_AS, (new, hard))
                    limit = (resource, soft, hard)
        except (ImportError, ValueError, OSError):
            limit = None
    _guards += 1
    try:
        yield
    except MemoryError as e:
        raise InsufficientMemoryError(f"{what} ran out of memory ({gigabytes(avail) if avail else 'unknown'} was "
                                      f"available){': ' + str(e) if str(e) else ''}") from None
    finally:
        _guards -= 1
        if limit is not None:
            res, soft, hard = limit
            res.setrlimit(res.RLIMIT_AS, (soft, hard))
