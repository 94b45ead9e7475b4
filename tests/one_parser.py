"""The command line's parser built once per test process, for tests that run ``cli.main`` hundreds of times.

``cli.main`` builds its whole parser (every command's options, each help's exit-code epilogue) on each call:
about 40 to 70 ms on this project's 2-core machine, most of a fuzz example's cost (``count`` of a small file takes
a few ms). Inside :func:`one_parser` ``main`` runs unchanged but ``app.build_parser`` returns one parser per
``prog`` built on first use; argparse makes a new namespace on every ``parse_args``, so nothing of one call reaches
the next.
"""
import contextlib
from unittest import mock

from chrono_origami.cli import app

_BUILD = app.build_parser
_PARSERS = {}


def _built(prog=None):
    if prog not in _PARSERS:
        _PARSERS[prog] = _BUILD(prog)
    return _PARSERS[prog]


@contextlib.contextmanager
def one_parser():
    """Inside the block, ``cli.main`` reuses one parser (module doc)."""
    with mock.patch.object(app, "build_parser", _built):
        yield
