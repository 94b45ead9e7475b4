"""The engines, their common interface, and the one rule that chooses one.

``"reference"`` (:mod:`.reference`: the paper's own operators, NumPy/SciPy)
and ``"chrono"`` (:mod:`.chrono`: PyChrono) are each one object, ``ENGINE``
of its package, with the interface of :class:`.protocol.Engine` (the same
functions with the same signatures: ``count``, ``static``,
``static_elastic``, ``fold``, ``modal``, ``dynamics``, ``locked_in``,
``panel_solids``), a ``name`` and its ``capabilities`` (:mod:`.protocol`:
what only some engines do, e.g. ``FOLD_TO_TARGETS``, ``LINEAR_THEORY``,
``FOLDS_SINGULAR_STARTS``; an engine has the functions a capability brings,
``protocol.CAPABILITY_PROTOCOLS``, exactly when it declares it).

The analyses (:mod:`chrono_origami.analysis`) reach an engine only through
this module (:func:`get`, :func:`linear`, :mod:`.protocol`) and the engine
object; they never import :mod:`.reference` or :mod:`.chrono`
(``tests/test_layers.py``). An analysis takes ``engine``: an engine object
or a name (``None``/``"auto"``, ``"reference"``, ``"chrono"``), turned into
the object by :func:`get` once at its entry. The command line resolves
``--engine`` once (``cli.inputs.add_engine_option``, ``engine_of``) and hands the object on.
A new engine is a package with an ``ENGINE`` object satisfying the
protocol and its name in :data:`ENGINES`; a new analysis is a method of
each engine (its engine-specific part, in the protocol) and a module of
``analysis/`` (what is common).

Which engine (every analysis, in Python and on the command line): the one
asked for by name; ``None`` or ``"auto"`` (the default) is ``"chrono"`` where
PyChrono imports (:func:`chrono_available`) and ``"reference"`` otherwise,
saying so in one line on stderr; for an analysis only the reference engine
has (a capability the chosen engine lacks, ``get(needs=...)``), ``"reference"``.

Whether PyChrono can be used is decided once per process by
:func:`chrono_available`: ``import pychrono`` is first tried in a child
interpreter, because a PyChrono built for another processor kills the
interpreter at import ("Illegal instruction") instead of raising. When the
child dies, this process never imports PyChrono: ``import pychrono`` here then
raises :class:`~chrono_origami.tools.errors.ChronoUnavailable` with the reason,
the Chrono tests skip with it, and the automatic engine choice falls back to
the reference engine with one line on stderr. The probe costs one child
interpreter (about 0.4 s) per process; its answer is cached in the process
and, keyed on the interpreter and PyChrono's files, in the environment
variable :data:`PROBE_ENV`, so that child processes (the scenes and commands
a script runs) do not probe again.
"""
import functools
import hashlib
import importlib
import importlib.abc
import importlib.util
import os
import signal
import subprocess
import sys

from ..tools.errors import ChronoUnavailable, UsageError

ENGINES = ("reference", "chrono")

#: environment variable caching the probe's answer for child processes ("<key>:ok" or "<key>:<reason>")
PROBE_ENV = "CHRONO_ORIGAMI_PYCHRONO_PROBE"
#: seconds the child interpreter may take to import PyChrono before it counts as failed
PROBE_TIMEOUT = 120
NOT_INSTALLED = "PyChrono is not installed"
INSTALL = "conda install -c projectchrono pychrono"


def chrono_available():
    """True when PyChrono imports here (probed in a child interpreter first; cached, see the module doc)."""
    return _probe()[0]


def chrono_unavailable_reason():
    """Why the Chrono engine cannot run here (one line), or None when PyChrono imports."""
    return _probe()[1]


def chrono_unavailable_advice():
    """:func:`chrono_unavailable_reason` with how to install PyChrono (:data:`INSTALL`) said once, or None."""
    reason = chrono_unavailable_reason()
    return None if reason is None else reason if INSTALL in reason else f"{reason} ({INSTALL})"


@functools.lru_cache(maxsize=None)
def _probe():
    """(available, reason): the one place that decides whether PyChrono imports."""
    if "pychrono" in sys.modules:
        if sys.modules["pychrono"] is not None:
            return True, None
        return False, f"{NOT_INSTALLED} (its import is blocked in this process)"
    try:
        spec = importlib.util.find_spec("pychrono")
    except (ImportError, ValueError) as e:
        return False, f"PyChrono does not import here ({type(e).__name__}: {e})"
    if spec is None:
        return False, NOT_INSTALLED
    key = _key(spec)
    cached = os.environ.get(PROBE_ENV, "")
    if cached.startswith(key + ":"):
        status = cached[len(key) + 1:]
    else:
        status = _probe_child(spec)
        os.environ[PROBE_ENV] = f"{key}:{status}"
    if status == "ok":
        return True, None
    sys.meta_path.insert(0, _Refuse(status))    # never let this process import what killed the child
    return False, status


def _key(spec):
    """Hash of the interpreter and PyChrono's files (path, size, time): a changed installation is probed again."""
    parts = [sys.executable, str(spec.origin)]
    for where in spec.submodule_search_locations or [os.path.dirname(str(spec.origin))]:
        try:
            entries = sorted(os.scandir(where), key=lambda e: e.name)
        except OSError:
            continue
        for e in entries:
            if e.is_file() and e.name.endswith((".py", ".so", ".pyd", ".dylib")):
                st = e.stat()
                parts.append(f"{e.name}:{st.st_size}:{st.st_mtime_ns}")
    return hashlib.sha1("\n".join(parts).encode()).hexdigest()[:16]


def _probe_child(spec):
    """"ok", or one line saying how ``import pychrono`` failed in a child interpreter."""
    where = os.path.dirname(str(spec.origin))
    try:
        r = subprocess.run([sys.executable, "-c", "import pychrono"], stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=PROBE_TIMEOUT,
                           preexec_fn=_no_core_file if os.name == "posix" else None)
    except subprocess.TimeoutExpired:
        return f"PyChrono ({where}) did not finish importing within {PROBE_TIMEOUT} s in a test interpreter"
    except OSError as e:
        return f"PyChrono could not be probed: cannot start {sys.executable} ({e.strerror or e})"
    if r.returncode == 0:
        return "ok"
    if r.returncode < 0:
        sig = -r.returncode
        try:
            name = f"{signal.strsignal(sig)}, {signal.Signals(sig).name}"
        except ValueError:
            name = f"signal {sig}"
        return (f"PyChrono ({where}) kills the interpreter at import ({name}): probably a build for another "
                f"processor; reinstall it ({INSTALL})")
    lines = [ln for ln in r.stderr.decode(errors="replace").splitlines() if ln.strip()]
    last = lines[-1].strip() if lines else f"exit code {r.returncode}"
    return f"PyChrono ({where}) does not import ({last})"


def _no_core_file():
    """In the child: a crash leaves no core file in the user's folder."""
    import resource

    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


class _Refuse(importlib.abc.MetaPathFinder):
    """Import hook: ``import pychrono`` raises ChronoUnavailable with the probe's reason."""

    def __init__(self, reason):
        self.reason = reason

    def find_spec(self, name, path=None, target=None):
        if name == "pychrono" or name.startswith("pychrono."):
            raise ChronoUnavailable(self.reason)
        return None


def resolve(engine=None, notice=True):
    """Engine name to use: ``None``/``"auto"`` gives ``chrono`` where PyChrono imports, else ``reference``.

    The fallback to ``reference`` says why in one line on stderr (``notice``).
    Asking for ``chrono`` without PyChrono raises :class:`ChronoUnavailable`.
    """
    if engine in (None, "auto"):
        if chrono_available():
            return "chrono"
        if notice:
            print(f"note: {chrono_unavailable_reason()}; using the reference engine "
                  f"({INSTALL} for the Chrono engine)", file=sys.stderr)
        return "reference"
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; expected one of {ENGINES}")
    if engine == "chrono" and not chrono_available():
        reason = chrono_unavailable_reason()
        if reason == NOT_INSTALLED:
            raise ChronoUnavailable(f"the chrono engine needs PyChrono, which is not installed here ({INSTALL}); "
                                    f"use --engine reference")
        raise ChronoUnavailable(f"the chrono engine needs PyChrono, which cannot be used here: {reason}; "
                                f"use --engine reference")
    return engine


def get(engine=None, notice=True, needs=None):
    """The engine object (``protocol.Engine``) that :func:`resolve` chooses for ``engine``; an engine object is
    returned as it is.

    ``needs``: a capability (``protocol.CAPABILITIES``) the analysis needs; ``None``/``"auto"`` takes the reference
    engine when the chosen one lacks it, a named engine (or object) that lacks it is a :class:`UsageError` (one
    line).
    """
    from .protocol import Engine

    if isinstance(engine, Engine):
        eng, named = engine, True
    else:
        named = engine not in (None, "auto")
        # an automatic choice for an analysis that needs a capability says nothing: the engine that has it runs
        eng = importlib.import_module(f"{__name__}.{resolve(engine, notice and (named or needs is None))}").ENGINE
    if needs is not None and needs not in eng.capabilities:
        if named:
            raise UsageError(f"the {eng.name} engine has no {needs}; it is the reference "
                             "engine's (engine='reference')")
        eng = importlib.import_module(f"{__name__}.reference").ENGINE
    return eng


def linear():
    """The engine of the linear theory (``protocol.LINEAR_THEORY``: the paper's sparse operators), which the
    design search, the closed-form tolerance statistics and a sweep's counts use whichever engine runs the rest:
    the reference engine, always importable."""
    return get("reference", notice=False, needs="linear_theory")
