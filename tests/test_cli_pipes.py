"""Output piped into a reader that goes away (``| head``) stops the output, not the command.

A command whose stdout reader has gone (EPIPE) still writes its files and
figures and exits with its own code, without a message: the conventional
behaviour of Unix tools, which stop writing when the reader has gone. Tested
through real pipes in subprocesses: a reader that closes the pipe before the
first line (every write meets EPIPE), and ``| head -n 1``.
"""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from chrono_origami.structure.foldfile import write_fold
from chrono_origami.patterns import miura

ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))


def closed_stdout(args, cwd):
    """(exit code, stderr) of ``args`` run with a stdout pipe whose reader has gone before the first line."""
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd, env=ENV, text=True)
    p.stdout.close()
    err = p.stderr.read()
    return p.wait(timeout=300), err


@pytest.fixture
def cantilever(tmp_path):
    path = tmp_path / "cantilever.fold"
    write_fold(miura.miura_cantilever(), path)
    return path


def test_static_with_a_closed_stdout_writes_its_files_and_figure(tmp_path, cantilever):
    code, err = closed_stdout([sys.executable, "-m", "chrono_origami", "static", str(cantilever), "--engine",
                               "reference", "--out", "out", "--figure", "fig.png"], tmp_path)
    assert (code, err) == (0, "")
    assert sorted(os.listdir(tmp_path / "out")) == ["counts.json", "hinges.csv", "supports.csv"]
    assert (tmp_path / "fig.png").stat().st_size > 10000
    assert len((tmp_path / "out" / "hinges.csv").read_text().splitlines()) == 33   # header + 16 hinges x 2 sides


def test_the_exit_code_and_the_error_line_survive_a_closed_stdout(tmp_path):
    """The single vertex is not determined (M = 2, S = 4... exit 3): its code and its stderr line are kept."""
    path = tmp_path / "vertex.fold"
    write_fold(miura.miura_single_vertex(), path)
    code, err = closed_stdout([sys.executable, "-m", "chrono_origami", "static", str(path), "--engine", "reference",
                               "--out", "out"], tmp_path)
    assert code == 3
    assert err.startswith("error: ") and len(err.splitlines()) == 1 and "not determined" in err
    assert (tmp_path / "out" / "counts.json").exists()


def test_piped_into_head(tmp_path, cantilever):
    """``| head -n 1`` (pipefail: the command's own exit code) for a command, a scene and --help."""
    py = sys.executable
    for line, files in [
        (f"{py} -m chrono_origami static {cantilever} --engine reference --out a --figure a.png", ["a/hinges.csv",
                                                                                                  "a.png"]),
        (f"{py} {ROOT / 'scenes' / 'miura_cantilever.py'} --engine reference --out b --figure b.png",
         ["b/hinges.csv", "b.png"]),
        (f"{py} -m chrono_origami static --help", []),
    ]:
        r = subprocess.run(["bash", "-c", f"set -o pipefail; {line} | head -n 1"], cwd=tmp_path, env=ENV,
                           capture_output=True, text=True, timeout=300)
        assert r.returncode == 0 and r.stderr == "", (line, r.stderr)
        assert len(r.stdout.splitlines()) == 1
        for f in files:
            assert (tmp_path / f).stat().st_size > 0, (line, f)
