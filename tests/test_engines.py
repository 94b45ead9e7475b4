"""Which engine runs: PyChrono is probed in a child interpreter, so a build that kills the interpreter cannot.

A PyChrono built for another processor dies at ``import pychrono`` with
"Illegal instruction", and took a whole test run down with it. A stand-in ``pychrono`` package that calls
``os.abort()`` on import plays it here: put first on PYTHONPATH of a child
process, it must leave a pytest run green with every Chrono test skipped for
that reason, and the automatic engine choice must fall back to the reference
engine with one line.
"""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from chrono_origami import engines
from chrono_origami.structure.foldfile import write_fold
from chrono_origami.patterns import miura

ROOT = Path(__file__).resolve().parents[1]
CRASH = "kills the interpreter at import (Aborted, SIGABRT)"


@pytest.fixture
def crashing_pychrono(tmp_path):
    """Environment whose ``import pychrono`` aborts the interpreter (a stand-in package first on PYTHONPATH)."""
    pkg = tmp_path / "standin" / "pychrono"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("import os\nos.abort()\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(pkg.parent), str(ROOT)]))
    r = subprocess.run([sys.executable, "-c", "import pychrono"], env=env, capture_output=True, timeout=60)
    assert r.returncode < 0, "the stand-in must kill the interpreter"
    return env


SMALL_TESTS = {
    "test_small.py": '''
import pytest
from chrono_origami import engines


@pytest.mark.chrono
def test_marked():
    import pychrono  # noqa: F401


def test_the_engine_choice_falls_back_with_one_line(capsys):
    assert engines.resolve() == "reference"
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "kills the interpreter at import" in err[0] and "reference engine" in err[0]


def test_import_here_raises_instead_of_killing():
    with pytest.raises(ImportError, match="kills the interpreter at import"):
        import pychrono  # noqa: F401
''',
    # a Chrono test module by its name (marked by conftest) and one that skips itself at import
    "test_chrono_by_name.py": '''
def test_by_name():
    import pychrono  # noqa: F401
''',
    "test_chrono_module.py": '''
import pytest
from chrono_origami import engines

chrono = pytest.importorskip("pychrono", exc_type=ImportError, reason=engines.chrono_unavailable_reason())


def test_never_collected():
    pass
''',
}


def test_a_pychrono_that_kills_the_interpreter_leaves_the_test_run_green(tmp_path, crashing_pychrono):
    run = tmp_path / "run"
    run.mkdir()
    shutil.copy(ROOT / "tests" / "conftest.py", run / "conftest.py")   # the project's own test configuration
    (run / "pytest.ini").write_text("[pytest]\nmarkers =\n    chrono: needs PyChrono\n")
    for name, text in SMALL_TESTS.items():
        (run / name).write_text(text)
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", str(run)], cwd=run,
                       env=crashing_pychrono, capture_output=True, text=True, timeout=300)
    out = r.stdout
    assert r.returncode == 0, out + r.stderr
    assert "2 passed, 3 skipped" in out
    skipped = [line for line in out.splitlines() if line.startswith("SKIPPED")]
    assert len(skipped) == 3 and all(CRASH in line for line in skipped), skipped
    assert ("chrono: 0 tests that need PyChrono ran (0 passed, 0 failed), 2 skipped; 1 test module(s) not collected "
            "(PyChrono (") in out and "test_chrono_module.py" in out.split("tests that need PyChrono")[-1]


def test_the_command_line_falls_back_to_the_reference_engine(tmp_path, crashing_pychrono):
    path = tmp_path / "cantilever.fold"
    write_fold(miura.miura_cantilever(), path)

    def run(*args):
        return subprocess.run([sys.executable, "-m", "chrono_origami", "static", str(path), *args], cwd=tmp_path,
                              env=crashing_pychrono, capture_output=True, text=True, timeout=300)

    r = run()
    assert r.returncode == 0, r.stderr
    assert r.stderr.splitlines() == [line for line in r.stderr.splitlines() if line.startswith("note: ")]
    assert len(r.stderr.splitlines()) == 1 and CRASH in r.stderr and "using the reference engine" in r.stderr
    assert "Table" in r.stdout or "MT" in r.stdout
    # the Chrono engine named, and the viewer of a reference run: one line each, the usage exit code (the command
    # line's main twice in one interpreter, each run's exit code on a line "exit N" and its stderr ended by "--")
    script = ("import sys\nfrom chrono_origami.cli import main\n"
              f"for more in ({['--engine', 'chrono']!r}, {['--engine', 'reference', '--viz']!r}):\n"
              "    try:\n"
              f"        code = main([{'static'!r}, {str(path)!r}, *more])\n"
              "    except SystemExit as e:\n"
              "        code = e.code\n"
              "    print('exit', code, flush=True)\n"
              "    print('--', file=sys.stderr, flush=True)\n")
    r = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=crashing_pychrono, capture_output=True,
                       text=True, timeout=300)
    codes = [line for line in r.stdout.splitlines() if line.startswith("exit ")]
    assert r.returncode == 0 and codes == ["exit 2", "exit 2"], r.stdout + r.stderr
    engine, viewer, rest = r.stderr.split("--\n")
    assert rest == "" and len(engine.splitlines()) == 1, r.stderr
    assert engine.startswith("error: the chrono engine needs PyChrono, which cannot be used here")
    assert CRASH in engine
    # nor does the viewer of a reference run
    assert len(viewer.splitlines()) == 1 and CRASH in viewer, viewer
    assert viewer.startswith("error: Chrono's Irrlicht viewer (--viz, --screenshot, play) needs PyChrono")
    assert "--figure" in viewer and "--engine" not in viewer         # what to do instead, not another engine
    assert engine.count(engines.INSTALL) == viewer.count(engines.INSTALL) == 1        # how to install, once
    # the Chrono names of the public API raise instead of killing the interpreter
    r = subprocess.run([sys.executable, "-c", "import chrono_origami as co\ntry:\n    co.build_system\n"
                        "except ImportError as e:\n    print(type(e).__name__, e)\n"],
                       env=crashing_pychrono, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and r.stdout.startswith("ChronoUnavailable") and CRASH in r.stdout, r.stdout + r.stderr


def test_a_probe_answer_is_inherited_by_child_processes_and_keyed_on_the_installation(tmp_path):
    """A child of a probed process does not probe again; another PyChrono (another key) is probed afresh."""
    code = "from chrono_origami import engines\nprint(engines.chrono_available(), engines.chrono_unavailable_reason())"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop(engines.PROBE_ENV, None)
    r = subprocess.run([sys.executable, "-c", code + "\nimport os\nprint(os.environ.get(engines.PROBE_ENV, ''))"],
                       env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    first, cached = r.stdout.splitlines()
    if not cached:                       # no PyChrono installation at all: nothing probed, nothing cached
        assert first == f"False {engines.NOT_INSTALLED}"
        return
    key, status = cached.split(":", 1)
    assert first == ("True None" if status == "ok" else f"False {status}")
    # a made-up answer under the same key is believed (no second probe)...
    env[engines.PROBE_ENV] = f"{key}:made-up reason"
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert r.stdout.strip() == "False made-up reason"
    # ...but not under another installation's key
    env[engines.PROBE_ENV] = "0123456789abcdef:made-up reason"
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert r.stdout.strip() == first


@pytest.mark.chrono
def test_the_installed_pychrono_is_detected_and_used():
    """Where PyChrono works (this project's machines), the probe finds it and the automatic choice is Chrono."""
    assert engines.chrono_available() and engines.chrono_unavailable_reason() is None
    assert engines.resolve() == "chrono" and engines.resolve("chrono") == "chrono"


# ------------------------------------------------------------------ the choice rule in this process
@pytest.fixture
def probed(monkeypatch):
    """``probed(reason)``: this process's probe answers as if PyChrono imported (reason None) or not (the reason);
    where it "imports", the chrono engine module is a stand-in with the chrono engine's name and capabilities, so
    that the rule is tested whether or not PyChrono is installed here."""
    import types

    from chrono_origami.engines import protocol

    def answer(reason):
        monkeypatch.setattr(engines, "_probe", lambda: (reason is None, reason))
        if reason is None:
            fake = types.ModuleType(f"{engines.__name__}.chrono")
            fake.ENGINE = types.SimpleNamespace(name="chrono", capabilities=frozenset(
                {protocol.NONLINEAR_ELASTIC, protocol.CHRONO_SYSTEMS}))
            monkeypatch.setitem(sys.modules, fake.__name__, fake)

    return answer


@pytest.mark.parametrize("reason", [None, engines.NOT_INSTALLED,
                                    f"PyChrono (/x) {CRASH}: probably a build for another processor; reinstall it "
                                    f"({engines.INSTALL})"])
def test_the_advice_names_the_install_command_once(probed, reason):
    """``chrono_unavailable_advice``: the probe's reason with the install command, once, also when the reason
    (a build that kills the interpreter) already says it; None where PyChrono imports."""
    probed(reason)
    advice = engines.chrono_unavailable_advice()
    assert advice is None if reason is None else (advice.startswith(reason) and advice.count(engines.INSTALL) == 1)


@pytest.mark.parametrize("reason", [None, engines.NOT_INSTALLED, "PyChrono (/x) " + CRASH])
def test_auto_is_the_default_by_name(probed, capsys, reason):
    """``"auto"`` (documented as None) resolves and gets as None does: chrono where PyChrono imports, else the
    reference engine with one note on stderr naming why."""
    probed(reason)
    want = "chrono" if reason is None else "reference"
    assert engines.resolve("auto") == engines.resolve(None) == want
    assert engines.get("auto").name == want
    err = capsys.readouterr().err.splitlines()
    assert len(err) == (0 if reason is None else 3), err
    assert all(line.startswith(f"note: {reason}; using the reference engine") for line in err)


@pytest.mark.parametrize("reason", [None, engines.NOT_INSTALLED, "PyChrono (/x) " + CRASH])
def test_auto_for_a_capability_takes_the_engine_that_has_it_silently(probed, capsys, reason):
    """``get(None or "auto", needs=...)``: the reference engine for what only it has (fold to targets, the linear
    theory), whether or not PyChrono imports, and not a word on stderr (the engine that can runs); a named engine
    that lacks the capability is refused in one line."""
    from chrono_origami.engines import protocol
    from chrono_origami.tools.errors import UsageError

    probed(reason)
    for engine in (None, "auto"):
        for needs in (protocol.FOLD_TO_TARGETS, protocol.LINEAR_THEORY):
            assert engines.get(engine, needs=needs).name == "reference"
    assert capsys.readouterr().err == ""
    if reason is None:
        with pytest.raises(UsageError, match="the chrono engine has no fold_to_targets; it is the reference engine's"):
            engines.get("chrono", needs=protocol.FOLD_TO_TARGETS)


@pytest.mark.parametrize("reason, says", [(engines.NOT_INSTALLED, "which is not installed here"),
                                          ("PyChrono (/x) " + CRASH, "which cannot be used here: PyChrono (/x) "
                                                                     + CRASH)])
def test_chrono_by_name_without_a_usable_pychrono_is_refused_at_once(probed, reason, says):
    """``resolve("chrono")`` where PyChrono is missing or kills the interpreter at import raises
    ``ChronoUnavailable`` with the probe's reason (it must not answer "chrono" and leave ``get`` to fail later for
    another reason); ``get("chrono")`` the same."""
    from chrono_origami.tools.errors import ChronoUnavailable

    probed(reason)
    for call in (engines.resolve, engines.get):
        with pytest.raises(ChronoUnavailable, match="^the chrono engine needs PyChrono, " + re.escape(says)):
            call("chrono")
