"""The command line run in this process, read as a subprocess's run reads (the tests' processor time).

``python -m chrono_origami ARGS`` costs 0.7 s of processor time in interpreter start-up and imports before the
command starts (1.5 s where PyChrono is imported). Tests that check what a command prints and writes, rather than
how the interpreter starts, call :func:`run_cli`: ``cli.main(ARGS)`` in ``cwd`` with stdout and stderr captured,
returned as ``subprocess.run(..., capture_output=True, text=True)`` returns them (argparse's refusals exit: their
code is the return code). An exception that the command line would print as a traceback propagates and fails the
test. Each module that uses it keeps some commands as subprocesses, as a user types them (the exit code the shell
sees, stderr without a traceback); ``CHRONO_ORIGAMI_CLI_SUBPROCESS=1`` runs every command as a subprocess.
:func:`run_scene` does the same for the scripts of ``scenes/``.
"""
import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
#: every command as a subprocess (module doc)
ALL_TYPED = bool(os.environ.get("CHRONO_ORIGAMI_CLI_SUBPROCESS"))


@contextlib.contextmanager
def _chdir(path):
    """``contextlib.chdir`` (Python 3.11) for Python 3.10."""
    old = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(old)


def run_cli(cwd, *args, typed=False, timeout=900):
    """(returncode, stdout, stderr) of ``python -m chrono_origami ARGS`` in ``cwd``, as ``subprocess.run`` gives
    them: a subprocess when ``typed`` (or :data:`ALL_TYPED`), else ``cli.main`` in this process (module doc)."""
    argv = [str(a) for a in args]
    if typed or ALL_TYPED:
        return subprocess.run([sys.executable, "-m", "chrono_origami", *argv], cwd=cwd, env=ENV,
                              capture_output=True, text=True, timeout=timeout)
    from chrono_origami.cli import main

    out, err = io.StringIO(), io.StringIO()
    with _chdir(cwd), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as e:
            code = e.code
    return subprocess.CompletedProcess(["chrono_origami", *argv], code or 0, out.getvalue(), err.getvalue())


def run_scene(path, *args, typed=False, env=None, timeout=300):
    """(returncode, stdout, stderr) of ``python SCENE.py ARGS`` (``path``: a script of ``scenes/``), as
    ``subprocess.run`` gives them: a subprocess when ``typed`` (or :data:`ALL_TYPED`; ``env`` its environment, default
    :data:`ENV`), else the script run as ``__main__`` in this process with ``sys.argv`` set, its exit code the return
    code (module doc)."""
    import runpy

    argv = [str(a) for a in args]
    if typed or ALL_TYPED:
        return subprocess.run([sys.executable, str(path), *argv], env=env or ENV, capture_output=True, text=True,
                              timeout=timeout)
    out, err, saved = io.StringIO(), io.StringIO(), sys.argv
    sys.argv = [str(path), *argv]
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                runpy.run_path(str(path), run_name="__main__")
                code = 0
            except SystemExit as e:
                code = e.code
                if isinstance(code, str):            # sys.exit("message"): the message on stderr, exit 1
                    print(code, file=sys.stderr)
                    code = 1
    finally:
        sys.argv = saved
    return subprocess.CompletedProcess([str(path), *argv], code or 0, out.getvalue(), err.getvalue())
