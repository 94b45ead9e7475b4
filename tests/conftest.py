"""Tests that need PyChrono: skipped with the reason when it is missing, and counted at the end of the run.

A test needs PyChrono when it is marked ``chrono`` (``pytestmark`` of a module,
``pytest.mark.chrono`` on a test, or ``pytest.param(..., marks=pytest.mark.chrono)``);
every test in ``tests/test_chrono_*.py`` is marked here too. Whether PyChrono
can be used is ``engines.chrono_available()``, probed in a child interpreter
so that a build that kills the interpreter at import cannot take the run
down. Without it the marked tests are skipped with one reason
(``engines.chrono_unavailable_reason()``), and modules that import it at the
top skip themselves at collection (``pytest.importorskip``, with the same
reason), so their tests are not collected: the summary then counts those
modules.

The run's last lines (before pytest's own totals) say how many of these tests
ran, e.g. ``chrono: 170 tests that need PyChrono ran (170 passed, 0 failed),
2 skipped``, so a CI log shows at a glance whether the Chrono side was tested.
"""
import collections

import pytest

from chrono_origami.engines import NOT_INSTALLED, chrono_available, chrono_unavailable_reason

# probed in a child interpreter: a PyChrono that kills the interpreter at import skips the Chrono tests with the
# reason (and ``import pychrono`` in this process then raises it) instead of taking the whole run down
HAVE_CHRONO = chrono_available()
NO_CHRONO_REASON = f"{chrono_unavailable_reason()}: this test needs PyChrono" + (
    " (conda install -c projectchrono pychrono; on the project's machines .ci/run installs ../shared/pychrono)"
    if chrono_unavailable_reason() == NOT_INSTALLED else "")

_outcome = {}
_chrono_ids = set()
_modules_not_collected = []


def _needs_chrono(item):
    return item.get_closest_marker("chrono") is not None


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.path.name.startswith("test_chrono_") and not _needs_chrono(item):
            item.add_marker(pytest.mark.chrono)
        if _needs_chrono(item):
            _chrono_ids.add(item.nodeid)
            if not HAVE_CHRONO:
                item.add_marker(pytest.mark.skip(reason=NO_CHRONO_REASON))


def pytest_collectreport(report):
    # a module that skips itself at import (pytest.importorskip("pychrono", ...))
    if report.skipped and report.nodeid.endswith(".py"):
        reason = str(report.longrepr[-1]) if isinstance(report.longrepr, tuple) else str(report.longrepr)
        if "pychrono" in reason.lower():
            _modules_not_collected.append(report.nodeid)


def pytest_runtest_logreport(report):
    if report.nodeid not in _chrono_ids:
        return
    if hasattr(report, "wasxfail"):
        outcome = "xfailed" if report.skipped else "xpassed"
    elif report.failed:
        outcome = "failed"             # in setup, call or teardown
    elif report.skipped:
        outcome = "skipped"
    elif report.when == "call":
        outcome = "passed"
    else:
        return
    if _outcome.get(report.nodeid) != "failed":
        _outcome[report.nodeid] = outcome


def chrono_summary():
    """One line: how many tests that need PyChrono ran, passed, failed, were skipped or not collected."""
    t = collections.Counter(_outcome.values())
    ran = t["passed"] + t["failed"] + t["xfailed"] + t["xpassed"]
    parts = [f"{t['passed']} passed", f"{t['failed']} failed"]
    parts += [f"{t[k]} {k}" for k in ("xfailed", "xpassed") if t[k]]
    line = f"chrono: {ran} tests that need PyChrono ran ({', '.join(parts)}), {t['skipped']} skipped"
    if _modules_not_collected:
        line += (f"; {len(_modules_not_collected)} test module(s) not collected ({chrono_unavailable_reason()}): "
                 + ", ".join(sorted(_modules_not_collected)))
    return line


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_terminal_summary(terminalreporter):
    yield                                   # after pytest's own summaries (failures, -rs reasons)
    terminalreporter.write_sep("-", "tests that need PyChrono")
    terminalreporter.write_line(chrono_summary())
