"""Bad ORIPA input never crashes the command line: a fuzz of ``.cp`` line files and ``.opx`` documents.

Each example takes a Miura sheet cut by its border saved as ORIPA saves it (``tests/styles.oripa_files``: its
``.cp`` export, its ``.opx`` document with an aux line) and applies 1 to 4 mutations to its text: a number
replaced by an odd one (huge, tiny, non-finite, malformed, empty), a line type by another (an unknown one, a
word), a row or an XML element duplicated or deleted, a row's fields cut short, the text truncated or its bytes
written in another encoding. The file then goes through the command line's reading path, ``count FILE
--engine reference`` in this process. The contract, as for SVG (``tests/test_fuzz_svg.py``): an exit code of
:data:`~chrono_origami.cli.app.EXIT_CODES` and, on failure, one line ``error: ...``; never a traceback.

Examples: ``CHRONO_ORIGAMI_FUZZ_EXAMPLES`` (default 1000, derandomised), ``CHRONO_ORIGAMI_FUZZ_SEED=<int>`` for a
new random set (``tests/fuzzing.py``).
"""
import os
import re
import tempfile

import pytest

hypothesis = pytest.importorskip("hypothesis", reason="hypothesis is not installed (pip install -e '.[test]')")
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import styles  # noqa: E402
from fuzzing import SETTINGS, count_contract, seeded  # noqa: E402


def _documents():
    with tempfile.TemporaryDirectory() as d:
        fold, _ = styles.oripa_miura(os.path.join(d, "m.fold"), columns=3, rows=2)
        cp, opx = styles.oripa_files(fold, os.path.join(d, "m.cp"), os.path.join(d, "m.opx"))
        with open(cp) as f, open(opx) as g:
            return {".cp": f.read(), ".opx": g.read()}


DOCUMENTS = _documents()
NUMBER = re.compile(r"-?\d+\.\d+(E-?\d+)?")
ODD = ["1e400", "-1e400", "nan", "inf", "1.0E-320", "1e49", "1e51", "", "1.2.3", "0x10", "--1", "1,5", "२"]


@st.composite
def documents(draw):
    ext = draw(st.sampled_from(sorted(DOCUMENTS)))
    text = DOCUMENTS[ext]
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["number", "type", "duplicate", "delete", "cut", "truncate"]))
        if kind == "number":
            spans = [m.span() for m in NUMBER.finditer(text)]
            if spans:
                a, b = draw(st.sampled_from(spans))
                text = text[:a] + draw(st.sampled_from(ODD)) + text[b:]
        elif kind == "type":
            if ext == ".cp" and text.strip():
                rows = text.splitlines()
                i = draw(st.integers(0, len(rows) - 1))
                parts = rows[i].split(" ", 1)
                rows[i] = draw(st.sampled_from(["5", "-1", "9", "0", "4", "x", "2.5", "99999999999999999999"])) + \
                    (" " + parts[1] if len(parts) > 1 else "")
                text = "\n".join(rows) + "\n"
            else:
                text = re.sub(r"<int>\d+</int>", "<int>" + draw(st.sampled_from(["7", "-3", "x", ""])) + "</int>",
                              text, count=1)
        elif kind in ("duplicate", "delete"):
            unit = r"[^\n]*\n" if ext == ".cp" else r'     <void index="\d+">.*?     </void>\n'
            spans = [m.span() for m in re.finditer(unit, text, flags=re.S)]
            if spans:
                a, b = draw(st.sampled_from(spans))
                text = text[:b] + text[a:b] + text[b:] if kind == "duplicate" else text[:a] + text[b:]
        elif kind == "cut" and text.strip():
            rows = text.splitlines()
            i = draw(st.integers(0, len(rows) - 1))
            rows[i] = rows[i][:draw(st.integers(0, max(len(rows[i]) - 1, 0)))]
            text = "\n".join(rows) + "\n"
        elif kind == "truncate":
            text = text[:draw(st.integers(0, len(text)))]
    encoding = draw(st.sampled_from(["utf-8", "utf-8", "utf-16", "latin-1"]))
    return ext, text.encode(encoding, errors="replace")


@SETTINGS
@given(documents())
def _fuzz(folder, case):
    ext, data = case
    count_contract(os.path.join(folder, "fuzz" + ext), data)


def test_mutated_oripa_files_never_crash():
    with tempfile.TemporaryDirectory() as folder:
        seeded(_fuzz)(folder)


def test_every_unmutated_document_reads_and_counts():
    with tempfile.TemporaryDirectory() as folder:
        for ext, text in DOCUMENTS.items():
            assert count_contract(os.path.join(folder, "fuzz" + ext), text.encode()) in (0, 3)
