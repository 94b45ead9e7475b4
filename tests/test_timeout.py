"""A test that hangs fails fast, with its name, and the run goes on (pytest-timeout, configured in pyproject.toml)."""
import os
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_suite_has_a_per_test_time_limit(request):
    options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert request.config.pluginmanager.hasplugin("timeout"), "pytest-timeout is not installed (pip install -e '.[test]')"
    assert float(request.config.getini("timeout")) == options["timeout"] == 65
    assert options["timeout_method"] == "signal"


def test_a_hanging_test_fails_with_its_name_and_the_run_goes_on(tmp_path):
    """The project's pytest configuration (xdist), its limit lowered to 1 s and one worker: a test looping for ever
    fails after 1 s, named, and the next test still runs on the same worker (with two, it could run on the other)."""
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_hang.py").write_text(
        "def test_deflation_loops_for_ever():\n    while True:\n        pass\n\n\n"
        "def test_after_it():\n    pass\n")
    start = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "timeout=1", "-n", "1"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)))
    elapsed = time.monotonic() - start
    assert r.returncode == 1 and elapsed < 60, r.stdout[-2000:]
    assert "FAILED tests/test_hang.py::test_deflation_loops_for_ever - Failed: Timeout" in r.stdout
    assert "1 failed, 1 passed" in r.stdout
