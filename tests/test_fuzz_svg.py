"""Bad SVG input never crashes the command line: a fuzz of SVG crease patterns in the styles of real tools.

Each example takes one of a few SVG documents written as Adobe Illustrator
(Origami Simulator's examples), Inkscape and scripts write them, and applies 1
to 4 mutations to its text or bytes: a number replaced by an odd one
(huge, tiny, non-finite, malformed), a colour by another spelling or a
malformed one, a transform added or replaced (degenerate, huge, malformed), a
stroke opacity or an attribute changed or deleted, an element duplicated, the
document truncated, the XML declaration's encoding changed or the bytes
written in another encoding (with or without a byte-order mark). The
document then goes through the command line's reading path: ``count FILE.svg
--engine reference`` in this process. The contract: an exit code of
:data:`~chrono_origami.cli.app.EXIT_CODES` and, on failure, one line
``error: ...``; never a traceback, never a hang (30 s per example at most).

Examples: ``CHRONO_ORIGAMI_FUZZ_EXAMPLES`` (default 1000, derandomised so CI
is reproducible), ``CHRONO_ORIGAMI_FUZZ_SEED=<int>`` for a new random set
(``tests/fuzzing.py``). The 1000 examples of CI take 12 s of CPU on
this project's 2-core machine (37 s wall while others worked); 315 of them
are read and counted, 685 end in a one-line error.
"""
import os
import re
import tempfile

import pytest

hypothesis = pytest.importorskip("hypothesis", reason="hypothesis is not installed (pip install -e '.[test]')")
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from fuzzing import SETTINGS, count_contract, seeded  # noqa: E402

ILLUSTRATOR = """<?xml version="1.0" encoding="utf-8"?>
<!-- Generator: Adobe Illustrator 19.0.0, SVG Export Plug-In . SVG Version: 6.00 Build 0)  -->
<svg version="1.1" id="Layer_1" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" x="0px"
\t y="0px" viewBox="0 0 200 200" style="enable-background:new 0 0 200 200;" xml:space="preserve">
<style type="text/css">
\t.st0{fill:none;stroke:#000000;stroke-miterlimit:10;}
\t.st1{fill:none;stroke:#FF0000;stroke-miterlimit:10;}
\t.st2{fill:none;stroke:#0000FF;stroke-opacity:0.5;stroke-miterlimit:10;}
</style>
<rect x="0.5" y="0.5" class="st0" width="199" height="199"/>
<path class="st1" d="M0.5,0.5l199,199 M199.5,0.5L100,100"/>
<line class="st2" x1="0.5" y1="100" x2="199.5" y2="100.001"/>
<polyline class="st1" points="100,100 0.501,199.5 "/>
</svg>
"""

INKSCAPE = """<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"
   width="100mm" height="100mm" viewBox="0 0 100 100" version="1.1">
  <g inkscape:label="Layer 1" inkscape:groupmode="layer" transform="translate(10,10) rotate(30 40 40)">
    <path d="m 0,0 h 80 v 80 h -80 z" style="fill:none;stroke:#000000;stroke-width:0.3"/>
    <path d="M 0,0 L 80,80 M 80,0 40,40" style="fill:none;stroke:#ff0000;stroke-opacity:0.8"/>
    <line x1="0" y1="40" x2="80" y2="40" stroke="rgb(0,0,255)" opacity="0.5"/>
    <polygon points="40,0 40,40" stroke="#ff00ff" fill="none"/>
    <path d="M 0,80 C 10,70 30,50 40,40" style="fill:none;stroke:yellow"/>
  </g>
</svg>
"""


def _script_miura(n=3, a=10.0, b=7.0, shift=3.0):
    """A script's Miura-ori sheet: zig-zag rows, many digits, no XML declaration, presentation attributes."""
    lines = []
    for i in range(n + 1):           # zig-zag horizontal creases
        y = i * b
        for j in range(n):
            x0, x1 = j * a, (j + 1) * a
            s0, s1 = (shift if j % 2 else 0.0), (0.0 if j % 2 else shift)
            colour = "#000000" if i in (0, n) else ("#ff0000" if i % 2 else "#0000ff")
            lines.append((x0 + s0 * 0, y + s0, x1, y + s1, colour))
    for j in range(n + 1):           # vertical creases, alternating
        for i in range(n):
            s = shift if j % 2 else 0.0
            colour = "#000000" if j in (0, n) else ("#0000ff" if (i + j) % 2 else "#ff0000")
            lines.append((j * a, i * b + s, j * a, (i + 1) * b + s, colour))
    body = "\n".join(f'<line x1="{x1:.12f}" y1="{y1:.12f}" x2="{x2:.12f}" y2="{y2:.12f}" stroke="{c}" '
                     f'stroke-opacity="0.{k % 9 + 1}" stroke-width="0.1"/>' for k, (x1, y1, x2, y2, c) in
                     enumerate(lines))
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="{n * a}" height="{n * b + shift}">\n{body}\n</svg>\n'


DOCUMENTS = [ILLUSTRATOR, INKSCAPE, _script_miura()]

NUMBER = re.compile(r"-?\d*\.?\d+(?:[eE][-+]?\d+)?")
COLOUR = re.compile(r"#[0-9a-fA-F]{6}\b|#[0-9a-fA-F]{3}\b|rgb\([^)]*\)|\b(?:red|blue|black|yellow|green)\b")
TAG = re.compile(r"<(path|line|rect|polyline|polygon|g|svg|circle)\b")
ATTRIBUTE = re.compile(r'\s[\w:-]+="[^"]*"')
ELEMENT = re.compile(r"<(?:path|line|rect|polyline|polygon)\b[^>]*/>")
DECLARATION = re.compile(r"<\?xml[^>]*\?>")
ODD_NUMBERS = ["0", "-0", "1e400", "-1e400", "1e-320", "1e50", "1e51", "nan", "NaN", "inf", "-inf", "", "-", ".",
               "1e", "1.2.3", "0x10", "9" * 400, "1e308", "-1e308", "2147483648", "1,5", "+.5e-3", "1 2", "١٢"]
ODD_COLOURS = ["#fff", "#F00", "#12", "#ff000080", "#00f0", "rgb(300,0,0)", "rgb(0%,0%,100%)", "rgb(-1,0,0)",
               "rgb(nan,0,0)", "rgb(255,0", "hsl(0,100%,50%)", "hsla(240,100%,50%,0.5)", "currentColor", "none",
               "url(#g)", "url(", "transparent", "inherit", "magenta", "fuchsia", "lime", "MAGENTA", "", "#",
               "rgba(255,0,0,0.5)", "red !important", "var(--x)", "#0000ff;stroke:#ff0000"]
TRANSFORMS = ["rotate(45)", "rotate(1e308)", "rotate(nan)", "scale(0)", "scale(0,1)", "scale(-1,1)", "scale(1e300)",
              "scale(1e-300)", "matrix(1,2,3,4,5,6)", "matrix(0,0,0,0,0,0)", "matrix(1,0,0,1)", "skewX(90)",
              "skewY(89.9999)", "translate(1e51,0)", "translate(inf)", "translate(10", "matrix(1 0 0 1 nan 0)",
              "rotate(30 1e400 0)", "translate()", "scale(1,1) rotate(90) translate(-5,5)", "bogus(1)", ""]
OPACITIES = ["0", "1", "-1", "2", "50%", "150%", "nan", "NaN", "inf", "1e999", "", "0.5.5", "%", "1e-400", ".5"]
ENCODINGS = ["utf-8", "UTF-8", "utf-16", "utf-16-le", "utf-32", "latin-1", "iso-8859-1", "cp1252", "ascii", "us-ascii",
             "shift_jis", "koi8-r", "bogus-8", "rot13", "rot_13", "base64", "hex", "zlib", "utf-7", "idna", "mbcs", "",
             "x" * 300, "UTF-8'", "utf8\x00", "undefined", "unicode-escape", "punycode", "utf-8-sig", "cp65001"]
BYTE_CODECS = ["utf-8", "utf-8-sig", "utf-16", "utf-16-be", "utf-32", "latin-1", "cp1252"]


def _replace_match(draw, text, pattern, choices):
    found = list(pattern.finditer(text))
    if not found:
        return text
    m = found[draw(st.integers(0, len(found) - 1))]
    return text[:m.start()] + draw(st.sampled_from(choices)) + text[m.end():]


@st.composite
def documents(draw):
    """(bytes of the mutated document, a description)."""
    text = draw(st.sampled_from(DOCUMENTS))
    codec = "utf-8"
    ops = []
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["number", "number", "colour", "transform", "opacity", "attribute", "duplicate",
                                   "truncate", "declaration", "codec", "text"]))
        ops.append(op)
        if op == "number":
            text = _replace_match(draw, text, NUMBER, ODD_NUMBERS + [draw(st.from_regex(r"-?\d{0,3}\.?\d{0,3}(e-?\d{1,3})?",
                                                                                         fullmatch=True))])
        elif op == "colour":
            text = _replace_match(draw, text, COLOUR, ODD_COLOURS)
        elif op == "transform":
            found = list(TAG.finditer(text))
            m = found[draw(st.integers(0, len(found) - 1))] if found else None
            if m:
                value = draw(st.sampled_from(TRANSFORMS))
                text = text[:m.end()] + f' transform="{value}"' + text[m.end():]
        elif op == "opacity":
            found = list(TAG.finditer(text))
            m = found[draw(st.integers(0, len(found) - 1))] if found else None
            if m:
                name = draw(st.sampled_from(["stroke-opacity", "opacity"]))
                text = text[:m.end()] + f' {name}="{draw(st.sampled_from(OPACITIES))}"' + text[m.end():]
        elif op == "attribute":   # delete one, or empty its value
            found = list(ATTRIBUTE.finditer(text))
            if found:
                m = found[draw(st.integers(0, len(found) - 1))]
                keep = draw(st.booleans())
                text = text[:m.start()] + (m.group().split("=")[0] + '=""' if keep else "") + text[m.end():]
        elif op == "duplicate":
            found = list(ELEMENT.finditer(text))
            if found:
                m = found[draw(st.integers(0, len(found) - 1))]
                text = text[:m.end()] + "\n" + m.group() + text[m.end():]
        elif op == "truncate":
            text = text[:draw(st.integers(0, len(text)))]
        elif op == "declaration":
            decl = f'<?xml version="1.0" encoding="{draw(st.sampled_from(ENCODINGS))}"?>'
            text = DECLARATION.sub(decl, text, count=1) if DECLARATION.search(text) else decl + "\n" + text
        elif op == "codec":
            codec = draw(st.sampled_from(BYTE_CODECS))
        elif op == "text":        # stray characters anywhere (non-ASCII, control characters, markup)
            k = draw(st.integers(0, len(text)))
            text = text[:k] + draw(st.sampled_from(["é", "\u2212", "\x00", "\x1b", "<", "&", "&nbsp;", "]]>", "\ufeff",
                                                    "<!DOCTYPE svg [<!ENTITY a 'aa'>]>", "&a;", "\U0001F600"])) \
                + text[k:]
    data = text.encode(codec, errors="replace")
    return data, f"{'+'.join(ops)} ({codec})"


def check_contract(data, folder):
    """``count FILE.svg`` on the bytes (``fuzzing.count_contract``): its exit code."""
    return count_contract(os.path.join(folder, "fuzz.svg"), data)


@SETTINGS
@given(documents())
def _fuzz(folder, case):
    data, _ = case
    check_contract(data, folder)


def test_mutated_svg_documents_never_crash():
    with tempfile.TemporaryDirectory() as folder:
        seeded(_fuzz)(folder)


def test_every_unmutated_document_reads_and_counts():
    with tempfile.TemporaryDirectory() as folder:
        for d in DOCUMENTS:
            assert check_contract(d.encode(), folder) in (0, 3)
