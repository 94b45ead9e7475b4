"""The fuzz tests' shared parts: how many Hypothesis examples, their settings, and the command line's contract.

``CHRONO_ORIGAMI_FUZZ_EXAMPLES`` (default 1000, derandomised so CI is reproducible) and
``CHRONO_ORIGAMI_FUZZ_SEED=<int>`` (a new random set). The contract of a file read on the command line
(:func:`count_contract`): an exit code of :data:`~chrono_origami.cli.app.EXIT_CODES` and, on failure, one line
``error: ...``; never a traceback. The command line's parser is built once per process (``tests/one_parser.py``):
building it is most of an example's cost, and the fuzz is of the files, not of the (same) options.
"""
import contextlib
import io
import os
import warnings
from datetime import timedelta

from hypothesis import HealthCheck, seed, settings

from chrono_origami import cli
from chrono_origami.cli.app import EXIT_CODES
from one_parser import one_parser

EXAMPLES = int(os.environ.get("CHRONO_ORIGAMI_FUZZ_EXAMPLES", "1000"))
SEED = os.environ.get("CHRONO_ORIGAMI_FUZZ_SEED")
#: 30 s per example at most, no example database (CI's runs are alike)
SETTINGS = settings(max_examples=EXAMPLES, deadline=timedelta(seconds=30), derandomize=SEED is None,
                    database=None, suppress_health_check=list(HealthCheck))


def seeded(fuzz):
    """``fuzz`` with ``CHRONO_ORIGAMI_FUZZ_SEED``'s seed when it is set."""
    return fuzz if SEED is None else seed(int(SEED))(fuzz)


def count_contract(path, data):
    """Write ``data`` (bytes) to ``path`` and run ``count PATH --engine reference`` in this process: returns the exit
    code after checking the contract (module doc)."""
    with open(path, "wb") as f:
        f.write(data)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), warnings.catch_warnings(), \
            one_parser():
        warnings.simplefilter("ignore")
        code = cli.main(["count", str(path), "--engine", "reference"])
    assert code in EXIT_CODES
    assert "Traceback" not in err.getvalue()
    if code in (1, 2):
        assert len([x for x in err.getvalue().splitlines() if x.startswith("error: ")]) == 1, err.getvalue()
    return code
