"""What the command line prints, read the same way with and without PyChrono.

Without PyChrono an analysis that chooses its engine (no ``--engine``) first prints one note on stderr,
``note: <why PyChrono cannot be used>; using the reference engine (conda install ... for the Chrono engine)``
(``engines.resolve``); with PyChrono it prints none. A test that compares stderr line by line reads it through
:func:`without_engine_note`, so that it holds on both machines (CI runs the suite both ways).
"""
from chrono_origami.engines import INSTALL

ENGINE_NOTE_END = f"; using the reference engine ({INSTALL} for the Chrono engine)"


def is_engine_note(line):
    return line.startswith("note: ") and line.rstrip().endswith(ENGINE_NOTE_END)


def without_engine_note(text):
    """``text`` (a command's stderr or stdout) without the engine rule's note line."""
    return "".join(line for line in text.splitlines(keepends=True) if not is_engine_note(line))


def run(capsys, *argv):
    """(exit code, stdout, stderr) of the command line run in this process on ``argv`` (str() of each; argparse's
    refusals exit, their code is returned)."""
    from chrono_origami.cli import main

    try:
        code = main([str(a) for a in argv])
    except SystemExit as e:
        code = e.code
    out = capsys.readouterr()
    return code or 0, out.out, out.err
