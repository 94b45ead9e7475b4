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
Under pytest-xdist (``-n``, pyproject's addopts) the workers collect and run
the tests and the controller prints the line: a test that needs PyChrono says
so in its reports (``user_properties``), which the workers send to the
controller, and so do the modules not collected (their skipped collect
reports).

Hypothesis runs under one fixed profile, ``ci`` (derandomised, no example
database, no deadline; each test keeps its own example count); another is
chosen with ``HYPOTHESIS_PROFILE``.
"""
import collections
import os

import pytest
from hypothesis import HealthCheck, settings

from chrono_origami.engines import NOT_INSTALLED, chrono_available, chrono_unavailable_reason

# probed in a child interpreter: a PyChrono that kills the interpreter at import skips the Chrono tests with the
# reason (and ``import pychrono`` in this process then raises it) instead of taking the whole run down
HAVE_CHRONO = chrono_available()
NO_CHRONO_REASON = f"{chrono_unavailable_reason()}: this test needs PyChrono" + (
    " (conda install -c projectchrono pychrono; on the project's machines .ci/run installs ../shared/pychrono)"
    if chrono_unavailable_reason() == NOT_INSTALLED else "")

#: CI's Hypothesis settings (module doc): the same examples every run, none stored, no per-example deadline (a
#: loaded machine would fail a healthy example); the tests' own ``@settings`` keep their ``max_examples``
settings.register_profile("ci", derandomize=True, database=None, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

#: the user property that marks a test report as one of a test that needs PyChrono (sent by xdist's workers)
NEEDS_CHRONO = "needs PyChrono"

_outcome = {}
_modules_not_collected = set()


def _needs_chrono(item):
    return item.get_closest_marker("chrono") is not None


def pytest_xdist_auto_num_workers(config):
    """``-n auto``: one worker per core this process may run on, logical cores counted (xdist's own count takes
    physical cores when psutil is installed: one on a 2-vCPU machine); ``PYTEST_XDIST_AUTO_NUM_WORKERS`` wins."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.path.name.startswith("test_chrono_") and not _needs_chrono(item):
            item.add_marker(pytest.mark.chrono)
        if _needs_chrono(item):
            item.user_properties.append((NEEDS_CHRONO, True))
            if not HAVE_CHRONO:
                item.add_marker(pytest.mark.skip(reason=NO_CHRONO_REASON))


def pytest_collectreport(report):
    # a module that skips itself at import (pytest.importorskip("pychrono", ...)); under xdist each worker sends it
    if report.skipped and report.nodeid.endswith(".py"):
        reason = str(report.longrepr[-1]) if isinstance(report.longrepr, tuple) else str(report.longrepr)
        if "pychrono" in reason.lower():
            _modules_not_collected.add(report.nodeid)


def pytest_runtest_logreport(report):
    if (NEEDS_CHRONO, True) not in [tuple(p) for p in report.user_properties]:
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
