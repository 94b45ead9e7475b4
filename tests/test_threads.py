"""The program chooses its BLAS threads (threadpoolctl): one by default, CHRONO_ORIGAMI_BLAS_THREADS overrides.

The choice holds inside every command and scene (``cli.app.run``) and every
public analysis (``co.count``, ``co.static``, ``co.fold``,
``co.fold_to_targets``, ``co.design``, ``co.propose_support``,
``co.dynamics``, ``co.modal``, ``solve_modes``, ``co.tolerances.*``),
and is lifted afterwards, whatever OPENBLAS_NUM_THREADS says.
"""
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from threadpoolctl import threadpool_info, threadpool_limits

import chrono_origami as co
from chrono_origami import cli
from chrono_origami.structure.foldfile import write_fold
from chrono_origami.tools import threads
from chrono_origami.tools.errors import SettingError

from catalogue import chain_matrices  # noqa: E402  (tests/)
from chrono_origami.patterns import miura

ROOT = Path(__file__).resolve().parents[1]


def blas():
    """Threads of each loaded BLAS library that can run more than one (pyspqr's own OpenBLAS cannot)."""
    return {i["filepath"]: i["num_threads"] for i in threadpool_info()
            if i["user_api"] == "blas" and i.get("threading_layer") != "disabled"}


def seen_inside(run, module, name):
    """The BLAS threads seen by ``module.name`` (patched to record them) while ``run()`` runs, 2 set outside."""
    seen = []
    real = getattr(module, name)

    def watched(*a, **k):
        seen.append(set(blas().values()))
        return real(*a, **k)

    with threadpool_limits(2, user_api="blas"):
        setattr(module, name, watched)
        try:
            run()
        finally:
            setattr(module, name, real)
        assert set(blas().values()) == {2}               # lifted afterwards
    return seen


@pytest.mark.parametrize("setting, expected", [(None, threads.DEFAULT), ("2", 2), (" 3 ", 3), ("all", os.cpu_count()),
                                                ("ALL", os.cpu_count())])
def test_the_number_of_threads_and_its_override(monkeypatch, setting, expected):
    if setting is None:
        monkeypatch.delenv(threads.ENV, raising=False)
    else:
        monkeypatch.setenv(threads.ENV, setting)
    assert threads.blas_threads() == expected
    assert threads.DEFAULT == 1
    with threadpool_limits(2 if expected != 2 else 1, user_api="blas"):
        before = blas()
        with threads.chosen_blas_threads():
            assert set(blas().values()) == {expected}
            with threads.chosen_blas_threads():          # an inner choice leaves the outer one
                assert set(blas().values()) == {expected}
        assert blas() == before


def test_a_given_number_of_threads_overrides_an_outer_choice_and_says_so(monkeypatch):
    """``chosen_blas_threads(n)`` (each task of ``tools.cluster``): n threads even inside an outer choice, with
    CHRONO_ORIGAMI_BLAS_THREADS = n inside, so an analysis in it keeps n; the outer choice and the variable are
    restored after it, and after an exception."""
    monkeypatch.setenv(threads.ENV, "2")
    with threadpool_limits(1, user_api="blas"):
        before = blas()
        with threads.chosen_blas_threads():
            assert set(blas().values()) == {2}
            with threads.chosen_blas_threads(1):
                assert set(blas().values()) == {1} and os.environ[threads.ENV] == "1"
                with threads.chosen_blas_threads():      # an analysis inside keeps the given number
                    assert set(blas().values()) == {1}
            assert set(blas().values()) == {2} and os.environ[threads.ENV] == "2"
            with pytest.raises(RuntimeError):
                with threads.chosen_blas_threads(1):
                    raise RuntimeError
            assert set(blas().values()) == {2} and os.environ[threads.ENV] == "2"
        assert blas() == before
    monkeypatch.delenv(threads.ENV)
    with threads.chosen_blas_threads(2):
        assert os.environ[threads.ENV] == "2"
    assert threads.ENV not in os.environ


@pytest.mark.parametrize("setting", ["0", "-1", "two", "1.5", "all cores"])
def test_a_bad_setting_is_one_line_naming_the_variable(monkeypatch, capsys, tmp_path, setting):
    monkeypatch.setenv(threads.ENV, setting)
    with pytest.raises(SettingError, match=f"CHRONO_ORIGAMI_BLAS_THREADS='{setting}': expected a positive number"):
        threads.blas_threads()
    path = tmp_path / "cantilever.fold"
    write_fold(miura.miura_cantilever(), path)
    assert cli.main(["count", str(path), "--engine", "reference"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {threads.ENV}='{setting}'") and len(err.splitlines()) == 1


def test_every_public_analysis_runs_with_the_chosen_threads(monkeypatch):
    """Each public analysis runs with the program's choice (one thread, or the override), whatever was set
    outside; the counting SVD inside each is watched."""
    from chrono_origami.analysis import design as design_module
    from chrono_origami.analysis import modal as modal_module
    from chrono_origami.analysis import support as support_module
    from chrono_origami.engines.reference import count as counting_module
    from chrono_origami.engines.reference import static as statics_module
    from chrono_origami.engines.reference.dns import structure as dns_module
    from chrono_origami.engines.reference.fold import newton as newton_module
    from chrono_origami.inputs import fold_examples as examples
    from chrono_origami.inputs.dynamics import CreaseSpring

    st = miura.miura_cantilever()
    problem, assignment = examples.miura_problem(duration=0.1)
    swinging = co.Structure(st.pattern, st.hinge_kinds, thickness=0.05, density=100.0, supports=st.supports,
                            gravity=(0, 0, -9.81))
    runs = {   # the analysis (the reference engine), and a function it runs inside (watched)
        "co.count": (lambda: co.count(st, "reference"), counting_module, "count"),
        "co.static": (lambda: co.static(st, "reference"), statics_module, "solve"),
        "co.fold": (lambda: co.fold(problem, "reference", from_singular=True, assignment=assignment), newton_module,
                    "newton"),
        "co.design": (lambda: co.design(miura.miura_single_vertex()), design_module, "null_space"),
        "co.propose_support": (lambda: co.propose_support(co.Structure(st.pattern, st.hinge_kinds)), support_module,
                               "_orthonormal"),
        "co.dynamics": (lambda: co.dynamics(swinging, "reference", time=0.002, dt=0.001,
                                                              springs=[CreaseSpring(0, 1.0)]), dns_module, "history"),
        "solve_modes": (lambda: modal_module.solve_modes(chain_matrices(4), "nullspace"), modal_module,
                        "solve_nullspace"),
    }
    for setting, expected in ((None, 1), ("3", 3)):
        if setting is None:
            monkeypatch.delenv(threads.ENV, raising=False)
        else:
            monkeypatch.setenv(threads.ENV, setting)
        for name, (run, module, inner) in runs.items():
            seen = seen_inside(run, module, inner)
            assert seen and all(s == {expected} for s in seen), (name, setting, seen)
    for fn in (co.count, co.static, co.fold, co.fold_to_targets, co.design, co.propose_support, co.dynamics,
               co.modal, modal_module.solve_modes, co.tolerance, co.tolerances.locked_in, co.tolerances.locked_in_statistics,
               co.tolerances.monte_carlo_sample, co.tolerances.monte_carlo, co.tolerances.force_against_tolerance):
        assert fn.__wrapped__                            # the same decorator on each (threads.with_blas_threads)


def test_the_command_line_runs_with_one_thread_whatever_openblas_num_threads_says(tmp_path):
    """In a child process started with OPENBLAS_NUM_THREADS=2, a command's analyses run with one BLAS thread."""
    path = tmp_path / "cantilever.fold"
    write_fold(miura.miura_cantilever(), path)
    code = ("import sys\nfrom threadpoolctl import threadpool_info\nfrom chrono_origami import cli\n"
            "from chrono_origami.tools import linalg\n"
            "real = linalg.singular_values\nseen = set()\n"
            "def svd(*a, **k):\n"
            "    seen.update(i['num_threads'] for i in threadpool_info() if i['user_api'] == 'blas' and "
            "i.get('threading_layer') != 'disabled')\n"
            "    return real(*a, **k)\n"
            "linalg.singular_values = svd\n"
            f"code = cli.main(['count', {str(path)!r}, '--engine', 'reference'])\n"
            "print('threads', sorted(seen), 'after', sorted({i['num_threads'] for i in threadpool_info() "
            "if i['user_api'] == 'blas' and i.get('threading_layer') != 'disabled'}), file=sys.stderr)\n"
            "sys.exit(code)\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT), OPENBLAS_NUM_THREADS="2")
    env.pop(threads.ENV, None)
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stderr.strip().splitlines()[-1] == "threads [1] after [2]"
