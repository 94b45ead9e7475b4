"""The manual's reference pages generated from the code at build time, so that they cannot drift from it.

``.. co-commands::`` renders the command line's ``--help`` and every command's, from the argparse parsers
(``chrono_origami.cli.app.build_parser``), at :data:`HELP_COLUMNS` columns: ``tests/test_docs.py`` checks the
built pages against ``COLUMNS=100 python3 -m chrono_origami COMMAND --help``.
``.. co-api::`` documents every public name of ``chrono_origami`` (its ``__all__`` and the names that need
PyChrono) with autodoc, from their docstrings. Nothing is written into the source folder.
"""
import importlib
import inspect
import os
from contextlib import contextmanager

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

#: the width of the rendered help (argparse reads it from COLUMNS)
HELP_COLUMNS = 100
#: the program name the help shows, as the manual runs it
PROG = "python -m chrono_origami"


@contextmanager
def columns(n):
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(n)
    try:
        yield
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old


def command_helps():
    """[(command or None for the program, its --help text)], commands in alphabetical order."""
    import argparse

    from chrono_origami.cli.app import build_parser

    with columns(HELP_COLUMNS):
        ap = build_parser(prog=PROG)
        sub = next(a for a in ap._actions if isinstance(a, argparse._SubParsersAction))
        helps = [(None, ap.format_help())]
        helps += [(name, sub.choices[name].format_help()) for name in sorted(sub.choices)]
    return helps


def _literal(text):
    return ["::", ""] + ["   " + line if line else "" for line in text.rstrip("\n").splitlines()] + [""]


class _Generated(SphinxDirective):
    def rst(self):
        raise NotImplementedError

    def run(self):
        node = nodes.section()
        node.document = self.state.document
        nested_parse_with_titles(self.state, StringList(self.rst(), source="<generated>"), node)
        return node.children


class Commands(_Generated):
    """Every command's ``--help``, one section each."""

    def rst(self):
        lines = []
        for name, text in command_helps():
            title = f"``{PROG}``" if name is None else f"``{name}``"
            lines += [title, "-" * len(title), ""]
            if name is None:
                lines += ["The program: its commands and exit codes.", ""]
            lines += _literal(text)
        return lines


def public_names():
    """[(name, kind)] of ``chrono_origami``'s public names in the order of its ``_EXPORTS``; kind is module,
    class, function or data; the names that need PyChrono last, where PyChrono imports."""
    import chrono_origami as co

    names = list(co._EXPORTS) + list(co._CHRONO_EXPORTS)
    out = []
    for name in names:
        try:
            value = getattr(co, name)
        except ImportError:
            out.append((name, "unavailable"))
            continue
        kind = ("module" if inspect.ismodule(value) else "class" if inspect.isclass(value)
                else "function" if callable(value) else "data")
        out.append((name, kind))
    return out


class Api(_Generated):
    """``chrono_origami``'s public names by autodoc."""

    def rst(self):
        import chrono_origami as co

        lines = []
        for name, kind in public_names():
            title = f"``co.{name}``"
            lines += [title, "-" * len(title), ""]
            if kind == "unavailable":
                lines += [f"Needs PyChrono, which does not import where this manual was built.", ""]
            elif kind == "module":
                module = getattr(co, name).__name__
                lines += [f".. automodule:: {module}", "   :members:", ""]
            elif kind == "class":
                lines += [f".. autoclass:: chrono_origami.{name}", "   :members:", ""]
            elif kind == "function":
                lines += [f".. autofunction:: chrono_origami.{name}", ""]
            else:
                lines += [f".. autodata:: chrono_origami.{name}", "   :annotation:", ""]
        return lines


def setup(app):
    app.add_directive("co-commands", Commands)
    app.add_directive("co-api", Api)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
