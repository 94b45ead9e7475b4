"""Bad FOLD input never crashes: a structure-aware fuzz of the documents of every pattern builder.

Each example takes the FOLD document of a structure built by
``chrono_origami.patterns.*`` and applies 1 to 4 mutations anywhere in its
JSON tree: delete a key or entry, swap two entries, put in a value of the
wrong type, a huge or tiny or non-finite number, a negative or out-of-range
index, duplicate or truncate a list. The contract:

* ``read_fold`` returns a structure or raises ``OrigamiError`` with a one-line
  message that names a FOLD key;
* a structure read is counted (reference engine) and, when determined
  (M = S = 0), solved: each ends in a result or an ``OrigamiError`` in one
  line; never another exception, never a hang (30 s per example at most).

Examples: ``CHRONO_ORIGAMI_FUZZ_EXAMPLES`` (default 1000, derandomised so CI
is reproducible); ``CHRONO_ORIGAMI_FUZZ_SEED=<int>`` draws a new random set,
e.g. ``CHRONO_ORIGAMI_FUZZ_EXAMPLES=20000 CHRONO_ORIGAMI_FUZZ_SEED=7 python3
-m pytest -q tests/test_fuzz_fold.py`` for a long run.
"""
import copy
import math
import os
import re
from datetime import timedelta

import pytest

hypothesis = pytest.importorskip("hypothesis", reason="hypothesis is not installed (pip install -e '.[test]')")
from hypothesis import HealthCheck, given, seed, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from chrono_origami.analysis import static as analysis  # noqa: E402
from chrono_origami.tools.errors import OrigamiError  # noqa: E402
from chrono_origami.structure.foldfile import fold_dict, read_fold  # noqa: E402
from chrono_origami.patterns import kresling, miura, simple, yoshimura  # noqa: E402
from chrono_origami.structure.structure import Load, Structure, Support  # noqa: E402

EXAMPLES = int(os.environ.get("CHRONO_ORIGAMI_FUZZ_EXAMPLES", "1000"))
SEED = os.environ.get("CHRONO_ORIGAMI_FUZZ_SEED")


def _simple(pattern, name):
    """A structure on a pattern of ``patterns.simple``: panel 1 held 3-2-1, a load on the last vertex."""
    loop = pattern.panels[0]
    sup = (Support(loop[0], 0, "xyz"), Support(loop[1], 0, "yz"), Support(loop[2], 0, "z"))
    return Structure(pattern, supports=sup, loads=(Load(pattern.n_vertices - 1, (0.0, 0.0, -1.0), None),),
                     name=name)


def _documents():
    """One or more FOLD documents per pattern module, small enough to count in milliseconds."""
    structures = [
        miura.miura_cantilever(), miura.miura_single_vertex(), miura.miura_strip(3),
        yoshimura.table4_structure(), yoshimura.table4_structure(kind="door", supported=False),
        kresling.kresling_module(), kresling.kresling_tower(2),
        _simple(simple.rectangular_ring(), "ring"), _simple(simple.square_twist(), "twist"),
        _simple(simple.square_twist_folded(30.0), "folded twist"),
    ]
    docs = [fold_dict(s) for s in structures]
    docs.append(fold_dict(kresling.kresling_module(), frames=[kresling.kresling_module().pattern.vertices * 1.1]))
    return docs


DOCUMENTS = _documents()
#: Every FOLD key the documents use, and the custom keys: a reader error must name one.
KEYS = sorted({k for d in DOCUMENTS for k in d} | {"frame_parent", "frame_inherit", "frame_title", "frame_classes",
                                                   "edges_foldAngles"}, key=len, reverse=True)
KEY_RE = re.compile("|".join(re.escape(k) for k in KEYS))

ODD_NUMBERS = [0, -1, 1, 2 ** 31, -(2 ** 31), 2 ** 70, 1e-310, -0.0, 0.5, 1e300, -1e300, 1e308, -1e308, 1.7e308,
               math.inf, -math.inf, math.nan, 181.0, -181.0, 1e51]
values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.sampled_from(ODD_NUMBERS), st.integers(-10, 40),
              st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=6),
              st.sampled_from(["B", "M", "V", "F", "U", "C", "J", "door", "sliding", "joined", "xyz", "xx", "q"])),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=3)),
    max_leaves=6)


def _containers(node, path=()):
    """(path, container) of every dict and list in the tree."""
    yield path, node
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for k, v in items:
        if isinstance(v, (dict, list)):
            yield from _containers(v, path + (k,))


@st.composite
def mutants(draw):
    doc = copy.deepcopy(draw(st.sampled_from(DOCUMENTS)))
    for _ in range(draw(st.integers(1, 4))):
        places = list(_containers(doc))
        _, node = places[draw(st.integers(0, len(places) - 1))]
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        op = draw(st.sampled_from(["delete", "swap", "value", "number", "scale", "index", "duplicate", "truncate"]))
        if not keys:
            continue
        k = draw(st.sampled_from(keys))
        if op == "delete":
            del node[k]
        elif op == "swap":
            j = draw(st.sampled_from(keys))
            node[k], node[j] = node[j], node[k]
        elif op == "value":
            node[k] = draw(values)
        elif op == "number":
            node[k] = draw(st.sampled_from(ODD_NUMBERS))
        elif op == "scale":   # huge or tiny numbers throughout one branch
            f = draw(st.sampled_from([1e300, 1e-300, -1e200, 1e49]))
            node[k] = _scaled(node[k], f)
        elif op == "index":   # an index off by a little or a lot
            node[k] = _shift(node[k], draw(st.sampled_from([-1, 1, -1000, 10 ** 6])))
        elif op == "duplicate" and isinstance(node, list):
            node.insert(draw(st.integers(0, len(node))), copy.deepcopy(node[k]))
        elif op == "truncate" and isinstance(node, list):
            del node[k:]
    return doc


def _scaled(v, f):
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return v
    if isinstance(v, (int, float)):
        return v * f
    if isinstance(v, list):
        return [_scaled(x, f) for x in v]
    return {k: _scaled(x, f) for k, x in v.items()} if isinstance(v, dict) else v


def _shift(v, d):
    if isinstance(v, int) and not isinstance(v, bool):
        return v + d
    if isinstance(v, list):
        return [_shift(x, d) for x in v]
    return v


def _one_line(e):
    text = str(e)
    assert text and "\n" not in text, f"{type(e).__name__} message is not one line: {text!r}"
    return text


def check_contract(doc):
    try:
        s = read_fold(doc)
    except OrigamiError as e:
        text = _one_line(e)
        assert KEY_RE.search(text), f"reader error names no FOLD key: {text!r}"
        return
    try:
        c = analysis.count(s, "reference")
        if c.isostatic:
            analysis.static(s, "reference")
    except OrigamiError as e:
        _one_line(e)


_settings = settings(max_examples=EXAMPLES, deadline=timedelta(seconds=30), derandomize=SEED is None,
                     database=None, suppress_health_check=list(HealthCheck))


@_settings
@given(mutants())
def _fuzz(doc):
    check_contract(doc)


def test_mutated_fold_documents_never_crash():
    fuzz = _fuzz if SEED is None else seed(int(SEED))(_fuzz)
    fuzz()


def test_every_unmutated_document_reads_counts_and_solves():
    for d in DOCUMENTS:
        s = read_fold(d)
        c = analysis.count(s, "reference")
        if c.isostatic:
            assert analysis.static(s, "reference").status == "determined"
