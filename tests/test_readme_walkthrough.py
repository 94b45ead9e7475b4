"""The README's "Your own pattern" walk-through, run as written: every command of its code block, in a copy of
the repository's docs/miura-strip.svg (an Origami Simulator-style SVG written by tests/journey_files.py), every
output line it quotes found in what the command printed (a line ending in " ..." by its beginning; "..." stands
for lines left out), the exit codes the text states, and the figure the last command draws the same as
docs/figures/miura-strip-forces.png. The static step runs on Chrono's engine, the default when PyChrono imports,
as the quoted "engine: chrono" line says. The first command runs as a subprocess, as typed; the others through
``cli.main`` in this process (``tests/cli_inprocess.py``; all as subprocesses with ``CHRONO_ORIGAMI_CLI_SUBPROCESS=1``).
"""
import os
import re
import shutil
from pathlib import Path

import numpy as np
import pytest
from cli_inprocess import run_cli
from readme_blocks import assert_quoted_lines_printed, code_block

ROOT = Path(__file__).resolve().parents[1]
#: exit codes the walk-through states: check exits 1 on rounded geometry, the others 0
EXIT = {"check": 1}


def walkthrough():
    """[(command, [quoted lines])] of the first code block after the README's "### Your own pattern"."""
    return code_block("### Your own pattern")


@pytest.mark.chrono
def test_the_readme_walkthrough_prints_what_it_quotes(tmp_path):
    pytest.importorskip("pychrono", exc_type=ImportError, reason="the walk-through's static step runs on Chrono")
    (tmp_path / "docs" / "figures").mkdir(parents=True)
    shutil.copy(ROOT / "docs" / "miura-strip.svg", tmp_path / "docs")
    steps = walkthrough()
    assert [c.split()[3] for c, _ in steps] == ["check", "fold", "support", "design", "static"]
    for command, quoted in steps:
        assert command.startswith("python3 -m chrono_origami ")
        argv = command.split()[3:]
        # the first command as typed (a subprocess); the others through cli.main in this process (cli_inprocess)
        r = run_cli(tmp_path, *argv, typed=command == steps[0][0], timeout=600)
        assert r.returncode == EXIT.get(argv[0], 0), (command, r.stdout[-2000:], r.stderr)
        assert_quoted_lines_printed(command, quoted, r.stdout + r.stderr)
    # the figure the README shows is the one the last command draws
    import matplotlib.image as mpimg

    made = mpimg.imread(tmp_path / "docs" / "figures" / "miura-strip-forces.png")
    shown = mpimg.imread(ROOT / "docs" / "figures" / "miura-strip-forces.png")
    assert made.shape == shown.shape and np.abs(made - shown).mean() < 0.01
    # the reactions balance the loads: 5 units up against 5 down
    rows = np.loadtxt(tmp_path / "forces" / "supports.csv", delimiter=",", skiprows=1)
    np.testing.assert_allclose(rows[:, 2:].sum(0), [0.0, 0.0, 5.0], atol=1e-9)


def test_the_walkthrough_file_is_in_origami_simulators_style():
    """docs/miura-strip.svg is what tests/journey_files.py writes (Illustrator's paths, 3 decimals, opacities)."""
    import journey_files as jf

    tmp = ROOT / "docs" / "miura-strip.svg"
    text = tmp.read_text()
    assert "Generator: Adobe Illustrator" in text and 'opacity="0.3333"' in text and 'opacity="0.1524"' in text
    assert re.search(r"M\d+\.\d{3},\d+\.\d{1,3}l", text)
    again = Path(os.environ.get("TMPDIR", "/tmp")) / f"miura-strip-{os.getpid()}.svg"
    try:
        jf.miura_svg(again, 6, 2, zigzag_deg=60, width=600 / 7, height=460 / 6)
        assert again.read_text() == text
    finally:
        again.unlink(missing_ok=True)
