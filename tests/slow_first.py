"""Measurement plugin (not loaded by default): the slowest modules first, each module's tests kept together.

``python3 -m pytest -p slow_first ...`` (``tests/`` on PYTHONPATH) runs the modules named in :data:`SLOW` first, in
that order, then the rest in their collected order; a module's tests stay consecutive, so its module-scoped
fixtures are built once per worker. Written to measure whether a long test started last (the run's tail) costs
wall time under ``-n 2 --dist worksteal``; the order comes from the whole suite's durations (2 workers, loaded).
"""
#: modules by their total time in the whole suite (durations of 2026-11-29, the machine loaded), slowest first
SLOW = ["test_fuzz_svg.py", "test_fuzz_oripa.py", "test_sweep_faults.py", "test_html_page.py", "test_cli_tolerance.py",
        "test_viewer.py", "test_sweep_dask.py", "test_chrono_tolerances.py", "test_sweep.py", "test_dns_paper.py",
        "test_sparse.py", "test_flat_patterns.py"]


def pytest_collection_modifyitems(config, items):
    rank = {name: i for i, name in enumerate(SLOW)}
    items.sort(key=lambda item: rank.get(item.path.name, len(SLOW)))      # stable: the collected order within
