"""Engine selection: ``"reference"`` (the paper's own operators, NumPy/SciPy) or ``"chrono"`` (PyChrono)."""
import sys

from ..tools.errors import ChronoUnavailable

ENGINES = ("reference", "chrono")


def chrono_available():
    """True when PyChrono imports."""
    try:
        import pychrono  # noqa: F401
    except ImportError:
        return False
    return True


def resolve(engine=None, notice=True):
    """Engine name to use: ``None``/``"auto"`` gives ``chrono`` where PyChrono imports, else ``reference``.

    Asking for ``chrono`` without PyChrono raises :class:`ChronoUnavailable`.
    """
    if engine in (None, "auto"):
        if chrono_available():
            return "chrono"
        if notice:
            print("note: PyChrono is not installed; using the reference engine "
                  "(conda install -c projectchrono pychrono for the Chrono engine)", file=sys.stderr)
        return "reference"
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; expected one of {ENGINES}")
    if engine == "chrono" and not chrono_available():
        raise ChronoUnavailable("the chrono engine needs PyChrono, which is not installed here "
                                "(conda install -c projectchrono pychrono); use --engine reference")
    return engine
