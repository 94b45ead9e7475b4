"""The results page as a file (no browser needed): one self-contained HTML file whose data are the result's exact
numbers, and the browser tests' skip where no browser can be had (``tests/test_html_page.py`` drives Chromium)."""
import base64
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np

import chrono_origami as co
from chrono_origami.report import page

ROOT = Path(__file__).resolve().parents[1]


def data_of(path):
    text = Path(path).read_text()
    m = re.search(r'<script type="application/json" id="data">(.*?)</script>', text, re.S)
    return text, json.loads(m.group(1))


def f64(text):
    return np.frombuffer(base64.b64decode(text), dtype="<f8")


def test_one_file_every_script_inlined_numbers_exact(tmp_path):
    result = co.static(co.miura.miura_cantilever(), engine="reference")
    [a for a in result.hinge_actions if a.hinge == 2][0].force = np.array([np.nan, 0.0, 0.0])
    path = co.report.html(result, tmp_path / "page.html", command="python3 -m chrono_origami static x.fold")
    text, data = data_of(path)
    assert not re.search(r"<(script|link|img|iframe)\b[^>]*\b(src|href)\s*=", text)
    assert text.count("<script") == len(page.VENDOR) + 2                  # the library, the data, the page
    assert "Copyright 2010-2022 Three.js Authors" in text and "SPDX-License-Identifier: MIT" in text
    assert data["command"] == "python3 -m chrono_origami static x.fold"
    table = data["states"][0]["tables"][0]
    assert table["header"] == ["hinge", "panel", "MT", "MP", "MO", "N", "TP", "TO"]
    with np.errstate(invalid="ignore"):
        rows = np.array(result.hinge_rows(), float)
    np.testing.assert_array_equal(f64(table["data"]).reshape(rows.shape), rows)   # bit for bit, NaN included
    values = f64(data["states"][0]["colorings"]["|F|"]["values"])
    assert np.isnan(values[2]) and np.isfinite(np.delete(values, 2)).all()
    assert data["counts"] == {"M": 0, "S": 0, "status": "determined", "engine": "reference",
                              "equilibrium residual": result.equilibrium_residual}


def test_command_line_is_the_one_typed():
    assert page.command_line(["static", "my file.fold", "--html", "p.html"], prog="python3 -m chrono_origami") == \
        "python3 -m chrono_origami static 'my file.fold' --html p.html"


def test_browser_tests_skip_with_the_reason_without_a_browser(tmp_path):
    env = dict(os.environ, CHROMIUM=str(tmp_path / "no-such-chromium"),
               PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    # one process (-n 0): the module's skips are the same under xdist, without starting its workers
    p = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-n", "0", "-p", "no:cacheprovider",
                        str(ROOT / "tests" / "test_html_page.py")], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 0, p.stdout[-2000:]
    try:
        import playwright  # noqa: F401
        reason = "no system Chromium (apt-get install chromium, or CHROMIUM=/path/to/chromium)"
    except ImportError:
        reason = "Playwright for Python is not installed (pip install playwright; the test extra)"
    assert reason in p.stdout
    assert re.search(r"^\d+ skipped in ", p.stdout, re.M), p.stdout[-500:]    # every browser test skipped, none run
