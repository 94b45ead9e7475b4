"""An analysis that would not fit in the memory ends in one line naming it and the memory, never a traceback.

Two ways: a step whose need is estimated beforehand (a sparse factor, from
SuiteSparseQR's symbolic analysis; a dense block) is refused before it starts
(``memory.check``: "needs about X; Y is available"); any other allocation
beyond the available memory fails inside the analyses' guard (``RLIMIT_AS``)
and ends the same way ("needs more memory than the Y available"). The
available memory is made small here by replacing ``memory.available``.
"""
import resource

import numpy as np
import pytest

from chrono_origami.cli import app
from chrono_origami.patterns import miura
from chrono_origami.tools import memory
from chrono_origami.tools.errors import InsufficientMemoryError

pytest.importorskip("pyspqr", reason="the sparse path needs pyspqr (pip install pyspqr)")


def one_line(err):
    msg = app.message(err.value)
    assert app.exit_code(err.value) == app.EXIT_INPUT
    assert "\n" not in str(err.value) and msg == str(err.value)
    return msg


def test_the_guard_turns_an_allocation_beyond_the_memory_into_one_line(monkeypatch):
    before = resource.getrlimit(resource.RLIMIT_AS)
    monkeypatch.setattr(memory, "available", lambda: 100 * 2 ** 20)
    with pytest.raises(InsufficientMemoryError) as err:
        with memory.guard("the test step on a 10,000 x 10,000 block"):
            np.ones((10_000, 10_000)).sum()                     # 800 MB
    msg = one_line(err)
    assert msg.startswith("the test step on a 10,000 x 10,000 block needs more memory than the 100 MB available")
    assert resource.getrlimit(resource.RLIMIT_AS) == before       # the limit is lifted on leaving
    np.ones((10_000, 10_000)).sum()                               # and the allocation works again



def test_a_cxx_allocation_failure_in_chrono_is_one_line_too(monkeypatch):
    """PyChrono raises C++'s std::bad_alloc as RuntimeError("std::bad_alloc"): inside a guard it is one line like a
    MemoryError (the Chrono fold's first assembly under a small limit); any other RuntimeError passes unchanged."""
    monkeypatch.setattr(memory, "available", lambda: 100 * 2 ** 20)
    with pytest.raises(InsufficientMemoryError) as err:
        with memory.guard("folding a 400-panel pattern in Chrono"):
            raise RuntimeError("std::bad_alloc")
    assert one_line(err) == ("folding a 400-panel pattern in Chrono needs more memory than the 100 MB available "
                             "(std::bad_alloc)")
    with pytest.raises(RuntimeError, match="^something else$"):
        with memory.guard("a step"):
            raise RuntimeError("something else")


def test_the_guards_name_what_they_fold_count_or_solve():
    """``memory.about``, which the analyses' guards use in their one line: the name and the panels of a structure, a
    fold problem or a pattern."""
    from chrono_origami.inputs.fold import Drive, FoldProblem

    s = miura.miura_patch(20, 20)
    assert memory.about(s) == "Miura-ori patch 20 x 20 (400 panels)"
    assert memory.about(FoldProblem(s, [Drive(19, angle=0.1)], (), 1.0)) == "Miura-ori patch 20 x 20 (400 panels)"
    assert memory.about(s.pattern).endswith("(400 panels)") and memory.about(None) == "the structure"

def test_check_names_the_step_and_both_amounts(monkeypatch):
    monkeypatch.setattr(memory, "available", lambda: 2 ** 30)
    memory.check("a small step", 2 ** 20)
    with pytest.raises(InsufficientMemoryError) as err:
        memory.check("the sparse QR of the 995,000 x 599,136 operator", 3 * 2 ** 30)
    assert one_line(err) == ("the sparse QR of the 995,000 x 599,136 operator needs about 3.0 GB of memory; "
                             "1.0 GB is available")


def big():
    return miura.miura_patch(20, 20)        # 2,400 columns: the sparse path under "auto"


def run_count(s):
    from chrono_origami.engines.reference import count as counting

    return counting.count(s)


def run_static(s):
    from chrono_origami.engines.reference import static as statics

    return statics.solve(s, allow_indeterminate=True)


def run_design(s):
    from chrono_origami.analysis import design

    return design.design(s, max_ranked=2)


def run_fold(s):
    from chrono_origami.analysis.fold import fold
    from chrono_origami.inputs.fold import Drive, FoldProblem

    return fold(FoldProblem(s, [Drive(19, angle=0.1)], (), 1.0), linalg="sparse")


@pytest.mark.parametrize("analysis", [run_count, run_static, run_design, run_fold],
                         ids=["count", "static", "design", "fold"])
def test_every_analysis_beyond_the_memory_ends_in_one_line(monkeypatch, analysis):
    monkeypatch.setattr(memory, "available", lambda: 2 ** 20)
    with pytest.raises(InsufficientMemoryError) as err:
        analysis(big())
    msg = one_line(err)
    assert "1 MB" in msg and ("needs about" in msg or "needs more memory than" in msg)
    assert "operator" in msg or "panels" in msg


@pytest.mark.chrono
def test_a_modal_analysis_beyond_the_memory_ends_in_one_line(monkeypatch):
    from chrono_origami.analysis.modal import structure_modes

    s = miura.miura_patch(12, 12, thickness=0.05)
    monkeypatch.setattr(memory, "available", lambda: 2 ** 20)
    for method in ("sparse", "nullspace"):
        with pytest.raises(InsufficientMemoryError) as err:
            structure_modes(s, crease_stiffness=1.0, method=method, n_modes=4, compare=False)
        msg = one_line(err)
        assert "modal" in msg and "needs about" in msg and "1 MB is available" in msg


def test_the_command_line_prints_a_memory_error_in_one_line(tmp_path, monkeypatch, capsys):
    from chrono_origami.structure.foldfile import write_fold

    path = tmp_path / "patch.fold"
    write_fold(big(), str(path))
    monkeypatch.setattr(memory, "available", lambda: 2 ** 20)
    code = app.main(["count", str(path), "--engine", "reference"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == app.EXIT_INPUT and len(err) == 1 and err[0].startswith("error: ") and "1 MB" in err[0]
