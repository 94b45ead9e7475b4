"""A pytest plugin, not a test: the processor time of each test's call phase, its own and its children's (the
command lines and scenes it runs as subprocesses), printed at the end of the run, largest first (on a
machine that others load, the wall durations of ``--durations`` double while processor time stays).

    PYTHONPATH=.:benchmarks python3 -m pytest -q -n 0 -p cpu_per_test tests/test_journeys.py

Children's time counts once they are waited for (``subprocess.run`` waits). With ``-n`` the workers measure and
the lines are printed by each worker's session only: use ``-n 0``.
"""
import os
import time

import pytest

_rows = []


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    t0, w0 = os.times(), time.perf_counter()
    yield
    t1 = os.times()
    cpu = (t1.user - t0.user) + (t1.system - t0.system) + (t1.children_user - t0.children_user) \
        + (t1.children_system - t0.children_system)
    _rows.append((cpu, time.perf_counter() - w0, item.nodeid))


def pytest_terminal_summary(terminalreporter):
    if not _rows:
        return
    terminalreporter.write_sep("-", "processor time per test call (s, own + children's), over 0.3 s")
    for cpu, wall, nodeid in sorted(_rows, reverse=True):
        if cpu > 0.3:
            terminalreporter.write_line(f"{cpu:7.2f} cpu {wall:7.2f} wall  {nodeid}")
    terminalreporter.write_line(f"{sum(r[0] for r in _rows):7.2f} cpu in all ({len(_rows)} tests)")
