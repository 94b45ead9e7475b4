"""The one error wrapper, the exit codes and the command registry of the command line and the scenes.

Every command (``python -m chrono_origami COMMAND``) and every scene
(``scenes/*.py``) runs through :func:`run`: an exception it knows becomes one
line ``error: ...`` on stderr, without a traceback, and the exit code of
:data:`EXIT_CODES`. Bad options are argparse's, in one line too (:class:`ArgumentParser`, exit 2).
"""
import argparse
import os
import re
import sys
import textwrap
import warnings
from contextlib import contextmanager

from ..structure.tolerance import ToleranceError
from ..tools.errors import (ChronoUnavailable, FreeBodyError, IndeterminateError, OrigamiError, SchedulerError,
                            SettingError, SpecError, StoreError, UsageError)
from ..tools.threads import chosen_blas_threads

EXIT_OK = 0
EXIT_INPUT = 1
EXIT_USAGE = 2
EXIT_INDETERMINATE = 3
#: Ctrl-C (SIGINT): the shell's code, 128 + 2 (not a result: not in :data:`EXIT_CODES`)
EXIT_INTERRUPTED = 130

#: exit code -> what it means (printed by ``--help`` and listed in the manual, docs/reference/exit-codes.md)
EXIT_CODES = {
    EXIT_OK: "done (static: the structure is isostatic, or --min-norm was given)",
    EXIT_INPUT: "bad input or failed analysis: a malformed FOLD file (a hinge, vertex or panel number in the file "
                "that the structure does not have, a NaN, a misspelt key), a solver that did not converge, an "
                "analysis that does not fit in the memory, a view (--viz, --screenshot) that cannot be opened",
    EXIT_USAGE: "bad usage: bad arguments, a missing input file, an output that cannot be written, "
                "an input that is neither FOLD nor SVG, an engine that is not installed, an option value the "
                "structure refuses (a hinge, vertex or panel number it does not have, a vertex not on the panel, a "
                "NaN force, an unknown selector, an empty selection, a hinge that cannot slide, a symmetry it lacks), "
                "a tolerance, hinge stiffness or measured-errors file the analysis refuses (or too large for its "
                "arithmetic), "
                "loads on a structure without supports that do not balance, an environment setting that is not "
                "understood (CHRONO_ORIGAMI_BLAS_THREADS), a sweep spec with an unknown key or a bad value, a Dask "
                "scheduler that cannot be reached",
    EXIT_INDETERMINATE: "static: the problem is not determined (M > 0 or S > 0): counts and self-stress "
                        "states printed and written, no hinges.csv or supports.csv (--min-norm: the "
                        "labelled minimum-norm answer and exit 0, unless the loads work on a mechanism; "
                        "--elastic: the forces elastic hinges carry and exit 0, a large displacement flagged); "
                        "design: M > 0 or S > 0 remain after design (the design is written all the same); "
                        "modal: loads carried by redundant constraints (S > 0), whose multipliers, and so Kc, are "
                        "not determined",
}


@contextmanager
def output(path):
    """Writes to ``path`` (a file or folder) inside the block: a failure is a one-line error naming it (exit 2)."""
    try:
        yield path
    except OSError as e:
        raise UsageError(f"cannot write {path}: {e.strerror or e}") from None


class _ReaderGone:
    """``sys.stdout`` or ``sys.stderr`` whose reader may go away (``| head``): writes after EPIPE are dropped.

    Unix tools stop writing when the reader of a pipe has gone; here the
    command still writes its files and figures, and exits with its own code.
    On the first EPIPE the stream's file descriptor is pointed at the null
    device, so that the final flush at exit finds nowhere to fail either.
    """

    def __init__(self, stream):
        self._stream = stream
        self.reader_gone = False

    def write(self, text):
        if not self.reader_gone:
            try:
                return self._stream.write(text)
            except BrokenPipeError:
                self._drop()
        return len(text)

    def flush(self):
        if not self.reader_gone:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._drop()

    def _drop(self):
        self.reader_gone = True
        try:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, self._stream.fileno())
            os.close(null)
        except (OSError, ValueError, AttributeError):   # no file descriptor (a test's capture): nothing to flush
            pass

    def __getattr__(self, name):
        return getattr(self._stream, name)


@contextmanager
def reader_may_go():
    """Inside the block, a closed stdout or stderr pipe (``| head``) stops the output, not the command."""
    if isinstance(sys.stdout, _ReaderGone):
        yield
        return
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _ReaderGone(sys.stdout), _ReaderGone(sys.stderr)
    try:
        yield
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        sys.stdout, sys.stderr = saved


def exit_codes_text():
    """The exit codes as lines for ``--help``."""
    return "exit codes:\n" + "\n".join(textwrap.fill(text, 79, initial_indent=f"  {code}  ", subsequent_indent="     ",
                                                     break_on_hyphens=False)
                                       for code, text in EXIT_CODES.items())


def exit_code(exc):
    """The exit code of an exception, or None for one the command line does not expect (a bug: traceback)."""
    if isinstance(exc, IndeterminateError):
        return EXIT_INDETERMINATE
    if isinstance(exc, (UsageError, ChronoUnavailable, FreeBodyError, SettingError, SpecError, SchedulerError,
                        StoreError, ToleranceError)):
        return EXIT_USAGE
    if isinstance(exc, OrigamiError):
        return EXIT_INPUT
    if isinstance(exc, OSError):      # reading errors are FoldFileError: an OSError is an output
        return EXIT_USAGE
    if isinstance(exc, MemoryError):  # outside the analyses' memory guards (which raise InsufficientMemoryError)
        return EXIT_INPUT
    return None


#: Python keyword arguments named in the library's messages -> the command line's options that do the same.
#: The one rule: the library's messages name the Python keyword (``merge_tol=``, ``thickness=``), and the command
#: line translates them here (:func:`message`, :func:`flags`), so each audience reads its own words.
FLAGS = {
    "allow_singular_start=True": "--from-singular",
    "from_singular=True": "--from-singular",
    "allow_indeterminate=True": "--min-norm",
    "linalg='dense'": "--linalg dense",
    "linalg='sparse'": "--linalg sparse",
    "facets='facet'": "--facets facet",
    "facets='crease'": "--facets crease",
    "fix_geometry=True": "--fix-geometry",
    "keep_geometry=True": "--keep-geometry",
    "engine='chrono' or max_bodies": "--engine chrono",
    "then Chrono: fold(problem, start=regular_start(problem, t0))": "then Chrono",
    "engine='chrono'": "--engine chrono",
    "engine='reference'": "--engine reference",
    "use_tangent_stiffness=False": "--no-kc",
    "merge_tol=": "--merge-tol",
    "colors=": "--colors",
    "dashes=": "--dashes",
    "thickness=": "--thickness",
    "density=": "--density",
    "max_move=": "--max-move",
    "percent=": "--percent",
    "rtol=": "--rank-rtol",
    **{f"tolerance {name}=": f"--{name}" for name in ("tol", "offset", "tilt", "position", "vertex")},
    "pattern_check.diagnose": "the check command (check FILE)",
    "support_proposal.mechanism_stops": "the support command (support FILE)",
}


_KEYWORDS = re.compile("|".join(r"(?<![\w:.-])" + re.escape(k) for k in sorted(FLAGS, key=len, reverse=True)))


def flags(text):
    """``text`` with the Python keywords of :data:`FLAGS` replaced by the command line's options (a keyword
    inside a longer name, such as ``faces_origami:thickness``, is left alone)."""
    return _KEYWORDS.sub(lambda m: FLAGS[m.group(0)], text)


def message(exc):
    """One line naming what went wrong, in the command line's words (:func:`flags`)."""
    if isinstance(exc, OSError) and not isinstance(exc, ChronoUnavailable):
        return f"cannot write{' ' + str(exc.filename) if exc.filename else ''}: {exc.strerror or exc}"
    if isinstance(exc, MemoryError):
        return f"out of memory{': ' + str(exc).splitlines()[0] if str(exc).strip() else ''}"
    return flags(str(exc).split("\n", 1)[0])


def _show_warning(message, category, filename, lineno, file=None, line=None):
    """``warnings.showwarning`` of the command line: one line ``warning: ...`` on stderr, in its words."""
    text = " ".join(str(message).split("\n")).strip()
    print(f"warning: {flags(text)}", file=sys.stderr if file is None else file)


@contextmanager
def one_line_warnings():
    """Inside the block, every warning (the library's ``warnings.warn``, numpy's) reaches the user as one line
    ``warning: ...`` on stderr, like the notes and errors, without Python's source path and code line."""
    with warnings.catch_warnings():
        warnings.showwarning = _show_warning
        yield


def run(fn, *args, **kw):
    """``fn(*args, **kw)``'s exit code (None counts as 0); a known exception is printed as one line ``error: ...``.

    The detail of an :class:`~chrono_origami.tools.errors.IndeterminateError`
    (hinges carrying self-stress, panels that move) goes to stdout, with the
    rest of the report. A reader of stdout that goes away (``| head``) stops
    the output, not the command (:func:`reader_may_go`). A warning is one line ``warning: ...`` on stderr
    (:func:`one_line_warnings`). BLAS runs with the
    program's number of threads (:mod:`chrono_origami.tools.threads`).
    """
    with reader_may_go(), one_line_warnings():
        try:
            with chosen_blas_threads():
                return int(fn(*args, **kw) or 0)
        except KeyboardInterrupt:         # Ctrl-C: one line, the shell's code of SIGINT
            print("error: interrupted", file=sys.stderr)
            return EXIT_INTERRUPTED
        except Exception as e:
            code = exit_code(e)
            if code is None:
                raise
            if isinstance(e, IndeterminateError) and e.detail:
                print(flags(e.detail))
            print(f"error: {message(e)}", file=sys.stderr)
            return code


class ArgumentParser(argparse.ArgumentParser):
    """argparse's parser, whose errors (a bad option or value: exit 2) are one line ``error: ...`` naming the
    option, like every other error of the command line, rather than the whole usage before it."""

    def error(self, message):
        self.exit(EXIT_USAGE, f"error: {message} ({self.prog} --help lists the options)\n")


def parser(description):
    """A new parser whose help ends with the exit codes; ``description`` may be a docstring (its first line is used)."""
    return ArgumentParser(description=description.strip().splitlines()[0], epilog=exit_codes_text(),
                          formatter_class=argparse.RawDescriptionHelpFormatter)


def scene(ap, build, analyse, argv=None):
    """Run a scene script and exit: parse ``argv``, ``subject = build(args)``, ``analyse(subject, args)``.

    A ``ValueError`` from ``build`` (an ``OrigamiError`` included) means the
    options describe nothing that can be built: a usage error, exit code 2.
    """
    with reader_may_go():
        args = ap.parse_args(argv)

    def go():
        try:
            subject = build(args)
        except ValueError as e:
            raise UsageError(str(e)) from None
        return analyse(subject, args)

    sys.exit(run(go))


# ------------------------------------------------------------------ commands
_COMMANDS = {}
#: what argparse reads as a negative number rather than an option (its own pattern misses exponents: -1e-4)
NEGATIVE_NUMBER = re.compile(r"^-(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")


def command(name, help, options):
    """Register ``fn(args) -> exit code`` as the subcommand ``name``; ``options(description)`` gives its parser."""
    def register(fn):
        _COMMANDS[name] = (help, options, fn)
        return fn
    return register


def discover():
    """Import every module of this package, so that each registers its commands (:func:`command`)."""
    import importlib
    import pkgutil

    for info in pkgutil.iter_modules([os.path.dirname(os.path.abspath(__file__))]):
        importlib.import_module(f"{__package__}.{info.name}")


def build_parser(prog=None):
    """The command line's parser, every command a subparser; ``prog``: the name its help shows (default: how it was
    run, ``python -m chrono_origami`` or ``chrono-origami``; the manual's command reference gives its own)."""
    discover()
    if prog is None:
        prog = "python -m chrono_origami" if os.path.basename(sys.argv[0]) == "__main__.py" else "chrono-origami"
    ap = ArgumentParser(prog=prog, description="Isostatic thick-origami structures from FOLD files.",
                        epilog=exit_codes_text(), formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (help, options, fn) in sorted(_COMMANDS.items()):
        p = sub.add_parser(name, help=help, description=help, parents=[options(help)], add_help=False,
                           epilog=exit_codes_text(), formatter_class=argparse.RawDescriptionHelpFormatter)
        p.set_defaults(func=fn)
        p._negative_number_matcher = NEGATIVE_NUMBER   # "--tol -1e-4" is a value, not an option
    return ap


def main(argv=None):
    """Run the command line on ``argv`` (default: sys.argv[1:]); returns the exit code."""
    with reader_may_go():             # --help | head
        ap = build_parser()
        args = ap.parse_args(argv)
    args.prog, args.argv = ap.prog, list(sys.argv[1:] if argv is None else argv)   # for the results page
    return run(args.func, args)
