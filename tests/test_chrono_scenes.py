"""Every static scene, run with --engine chrono and --engine reference: same counts, hinge tables within 1e-6 relative.

Needs PyChrono (marked ``chrono``; skipped with the reason when it is missing).
"""
import csv
import glob
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from chrono_origami import engines

pytest.importorskip("pychrono", exc_type=ImportError, reason=engines.chrono_unavailable_reason())

pytestmark = pytest.mark.chrono

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# the static scenes: those built on chrono_origami.cli.static (the output contract, --engine)
SCENES = sorted(p for p in glob.glob(os.path.join(ROOT, "scenes", "*.py")) if "static.parser(" in open(p).read())


def run(scene, engine, out):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""), MPLBACKEND="Agg")
    p = subprocess.run([sys.executable, scene, "--engine", engine, "--out", out], capture_output=True, text=True,
                       env=env, cwd=ROOT)
    # exit code 3: the statics is not determined (M > 0 or S > 0), so no hinges.csv
    determined = os.path.exists(os.path.join(out, "hinges.csv"))
    assert p.returncode == (0 if determined else 3), \
        f"{os.path.basename(scene)} --engine {engine} failed:\n{p.stdout}\n{p.stderr}"
    return p.stdout


def read_csv(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    return rows[0], np.array([[float(x) for x in r] for r in rows[1:] if r])


def test_there_are_scenes():
    assert len(SCENES) >= 5


@pytest.mark.parametrize("scene", SCENES, ids=[os.path.basename(s)[:-3] for s in SCENES])
def test_scene_chrono_equals_reference(scene, tmp_path):
    out = {e: str(tmp_path / e) for e in ("chrono", "reference")}
    text = {e: run(scene, e, out[e]) for e in out}
    assert "engine: chrono" in text["chrono"] and "engine: reference" in text["reference"]
    counts = {e: json.load(open(os.path.join(out[e], "counts.json"))) for e in out}
    assert (counts["chrono"]["M"], counts["chrono"]["S"]) == (counts["reference"]["M"], counts["reference"]["S"])
    for name in ("hinges.csv", "supports.csv", "self_stress.csv"):
        present = {e: os.path.exists(os.path.join(out[e], name)) for e in out}
        assert present["chrono"] == present["reference"], name
    for name in ("hinges.csv", "supports.csv"):
        if not os.path.exists(os.path.join(out["reference"], name)):
            continue
        hc, c = read_csv(os.path.join(out["chrono"], name))
        hr, r = read_csv(os.path.join(out["reference"], name))
        assert hc == hr and c.shape == r.shape
        np.testing.assert_array_equal(c[:, :2], r[:, :2])                 # same (hinge, panel) / (panel, vertex) rows
        scale = np.abs(r[:, 2:]).max()
        np.testing.assert_allclose(c[:, 2:], r[:, 2:], rtol=0, atol=1e-6 * scale, err_msg=name)
