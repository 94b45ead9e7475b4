"""Progress on stderr: drawn on a terminal only, after a delay, and cleared; silent otherwise."""
import io

from chrono_origami.patterns import miura
from chrono_origami.tools.progress import Stages
from chrono_origami.engines.reference import count as counting, static as statics


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_stages_draw_on_a_terminal_and_clear_the_line():
    out = Terminal()
    with Stages("counting", stream=out, delay=0.0) as stage:
        stage("sparse QR of the 10 x 6 operator")
        stage("Lanczos")
    text = out.getvalue()
    assert "counting: sparse QR of the 10 x 6 operator (" in text and "counting: Lanczos (" in text
    assert text.endswith("\r") and text.rstrip("\r").endswith(" ")      # the line is blanked at the end


def test_stages_are_silent_off_a_terminal_and_before_the_delay():
    out = io.StringIO()
    with Stages("counting", stream=out, delay=0.0) as stage:
        stage("anything")
    assert out.getvalue() == ""
    tty = Terminal()
    with Stages("counting", stream=tty, delay=60.0) as stage:
        stage("a short step")
    assert tty.getvalue() == ""


def test_count_and_solve_print_nothing_when_stderr_is_not_a_terminal(capsys):
    s = miura.miura_cantilever(columns=300)          # sparse path: 3,600 columns
    c = counting.count(s)
    statics.solve(s, counts=c)
    assert c.linalg == "sparse"
    assert capsys.readouterr().err == ""


def test_design_search_reports_its_stages_on_a_terminal(monkeypatch):
    """The design search draws its stages (null space, re-counts) on a terminal stderr, and clears the line."""
    import sys

    from chrono_origami.tools import progress
    from chrono_origami.analysis.design import design

    tty = Terminal()
    monkeypatch.setattr(sys, "stderr", tty)
    monkeypatch.setattr(progress.Stages.__init__, "__defaults__", (None, None, 0.0))   # no delay
    design(miura.miura_patch(3, 3), max_ranked=2, max_subsets=0, samples=1)
    text = tty.getvalue()
    assert "design search: null space of the all-sliding operator (" in text
    assert "design search: re-counting design 1 of 2 (" in text
    assert text.endswith("\r")


def test_design_search_is_silent_off_a_terminal(capsys):
    from chrono_origami.analysis.design import design

    design(miura.miura_patch(3, 3), max_ranked=2, max_subsets=0, samples=1)
    assert capsys.readouterr().err == ""
