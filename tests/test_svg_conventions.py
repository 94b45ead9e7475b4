"""SVG crease patterns in other drawing conventions: colours near a reference hue, another program's colour
convention (``--colors``), monochrome drawings with dashed valleys (``--dashes``) and hand-drawn line ends that miss.

Every file is checked against the same Miura-ori drawn in Origami Simulator's colours (tests/journey_files.py):
the same vertices, panels and edges, and the same assignment and target angle on every edge.
"""
import warnings

import numpy as np
import pytest

import journey_files as jf
from cli_output import run
from chrono_origami.crease.svg import parse_colors, read_svg
from chrono_origami.structure.foldfile import read_structure
from chrono_origami.tools.errors import FoldFileError, SvgFileError


def same_structure(a, b):
    """``b`` is ``a``: vertices (to rounding of the drawing, 1e-12 of its size), panels, edges, targets."""
    np.testing.assert_allclose(b.pattern.vertices, a.pattern.vertices, rtol=0, atol=1e-12 * a.pattern.size)
    assert b.pattern.panels == a.pattern.panels and b.pattern.edges == a.pattern.edges
    for key in ("edges_assignment", "edges_foldAngle"):
        assert b.notes["fold"][key] == a.notes["fold"][key], key


def plain_miura(tmp_path):
    path, _, _, letters, _ = jf.miura_svg(tmp_path / "plain.svg")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        st = read_structure(path)
    assert sorted(st.notes["fold"]["edges_assignment"]) == sorted(letters)   # every drawn line, none lost
    return path, st


# ------------------------------------------------------------------ colours
def test_inkscape_sky_blue_valleys_and_coral_mountains_read_every_crease(tmp_path, capsys):
    """#33a1fd (hue 207 deg, 33 deg from blue) valleys and #eb5160 mountains: the structure of Origami Simulator's
    red and blue, with no warning, and the same check report."""
    plain, a = plain_miura(tmp_path)
    path = jf.miura_svg(tmp_path / "sky.svg", colours={"B": "#000000", "M": "#eb5160", "V": "#33a1fd"})[0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        same_structure(a, read_structure(path))
    reports = []
    for p in (plain, path):
        code, out, err = run(capsys, "check", p)
        assert code == 0 and "warning" not in err, err
        reports.append(out.replace(str(p), "FILE").replace(p.stem, "NAME"))
    assert reports[1] == reports[0] and "3 interior vertices" in reports[0]


def test_a_cyan_line_is_refused_naming_its_colour_and_colors(tmp_path, capsys):
    """Cyan (180 deg, as near green as blue) valleys: exit 1, one line naming the colour, how many lines, why, and
    --colors; with --colors '#00FFFF=V' the file reads as Origami Simulator's."""
    plain, a = plain_miura(tmp_path)
    path = jf.miura_svg(tmp_path / "cyan.svg", colours={"B": "#000000", "M": "#FF0000", "V": "#00FFFF"})[0]
    n_valleys = a.notes["fold"]["edges_assignment"].count("V")
    for argv in (["check", path], ["static", path, "--support", "auto", "--load", "all:0,0,-1"]):
        code, out, err = run(capsys, *argv)
        assert code == 1 and err.count("\n") == 1, err
        # every valley is one line segment of a cyan <path>
        assert err == (f"error: {path}: {n_valleys} coloured line(s) are not crease-pattern lines of any line type: "
                       f"#00ffff ({n_valleys}: hue 180 deg, about equally near green (cut) and blue (valley)); left out "
                       f"they would change the structure: give each colour its line type with --colors "
                       f"'#00ffff=?' (? one of M, V, B, F, U, C, J)\n")
        assert "hinge" not in out
    with pytest.raises(SvgFileError, match="colors= '#00ffff=.'"):
        read_svg(path)
    st = read_structure(path, colors={"cyan": "V"})
    same_structure(a, st)
    assert st.notes["fold"]["edges_assignment"].count("V") == n_valleys
    code, out, err = run(capsys, "check", path, "--colors", "#00FFFF=V")
    assert code == 0 and "warning" not in err


ILLUSTRATOR = {"B": "#0000FF", "M": "#FF0000", "V": "#00FF00"}


def test_a_miura_in_illustrators_convention_reads_with_colors(tmp_path, capsys):
    """Blue boundary, red mountains, green valleys. Read by Origami Simulator's colours the green valleys are cuts
    (the sheet falls into pieces) and a warning says the blue lines, all on the outline, look like a boundary and
    names --colors; with --colors '#0000FF=B,#00FF00=V,#FF0000=M' it is the Miura-ori (3 interior vertices, not
    6 pieces with none), and convert writes it."""
    plain, a = plain_miura(tmp_path)
    path = jf.miura_svg(tmp_path / "illustrator.svg", colours=ILLUSTRATOR)[0]
    n_boundary = a.notes["fold"]["edges_assignment"].count("B")
    code, out, err = run(capsys, "check", path)
    warned = [x for x in err.splitlines() if x.startswith("warning: ")]
    assert f"warning: {path}: all {n_boundary} lines drawn #0000ff (read as V) lie on the sheet's outline: they look " \
           f"like a boundary; if the file draws its boundary in #0000ff, give its colours with --colors " \
           f"'#0000ff=B,...'" in warned, err
    assert any("pieces joined by no crease" in x for x in warned), err
    colors = "#0000FF=B,#00FF00=V,#FF0000=M"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        same_structure(a, read_structure(path, colors=colors))
        same_structure(a, read_structure(path, colors=parse_colors(colors)))
    reports = []
    for p, extra in ((plain, ()), (path, ("--colors", colors))):
        code, out, err = run(capsys, "check", p, *extra)
        assert code == 0 and "warning" not in err, err
        reports.append(out.replace(str(p), "FILE").replace(p.stem, "NAME"))
    assert reports[1] == reports[0] and "3 interior vertices" in reports[0]
    code, out, err = run(capsys, "convert", path, "--colors", colors, "-o", tmp_path / "out.fold")
    assert code == 0, err
    same_structure(a, read_structure(tmp_path / "out.fold"))


@pytest.mark.parametrize("text, message", [
    ("#0000FF=B,#00FF00", "entry '#00FF00' must be COLOUR=LETTER"),
    ("#0000FF=X", "gives #0000FF the line type 'X'; expected one of M, V, B, F, U, C, J"),
    ("nocolour=M", "names 'nocolour', not a colour"),
    ("#00f=M,#0000ff=V", "gives #0000ff two line types (M, V)"),
])
def test_a_bad_colors_option_is_one_usage_line(tmp_path, capsys, text, message):
    path = jf.miura_svg(tmp_path / "cp.svg")[0]
    code, out, err = run(capsys, "check", path, "--colors", text)
    assert code == 2 and err.count("\n") == 1 and err.startswith("error: argument --colors: ") and message in err, err
    with pytest.raises(SvgFileError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_svg(path, colors=text)


def test_colors_and_dashes_are_for_svg_only(tmp_path, capsys):
    import styles

    fold = styles.two_squares_fold(tmp_path / "two.fold")
    for option, value in (("--colors", "#0000FF=B"), ("--dashes", "valley")):
        code, out, err = run(capsys, "check", fold, option, value)
        assert code == 2 and f"{option} is for SVG drawings" in err, err
    with pytest.raises(FoldFileError, match="colors= is for SVG drawings"):
        read_structure(fold, colors={"#0000ff": "B"})


# ------------------------------------------------------------------ monochrome drawings: dashed valleys
def miura_lines(path, dashes=None, colours=jf.COLOURS, miss=0.0, dash_dot=False):
    """A 4 x 2 Miura-ori as <line> elements, y down, the target angle as the opacity (|angle| / 180).

    ``dashes``: None (coloured, Origami Simulator's colours) or the monochrome convention: every line black,
    valleys dashed (``stroke-dasharray`` in an attribute, a style or a CSS class, in turn), mountains solid or
    with ``dash_dot``, dash-dot. ``miss``: the creases that end on the top and bottom edges stop this fraction
    of the sheet's size (its diagonal) short of them, as hand-drawn ends miss. Returns (path, number of lines
    shortened)."""
    X, edges, letters, angles = jf._miura(4, 2, 80.0, 92.0, 92.0 / np.tan(np.radians(65.0)), 90.0)
    P = np.column_stack([X[:, 0] + 10.875, X[:, 1].max() - X[:, 1] + 8.643])
    size = float(np.linalg.norm(P.max(0) - P.min(0)))
    top, bottom = P[:, 1].min(), P[:, 1].max()
    out = ['<?xml version="1.0" encoding="utf-8"?>',
           '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="220">',
           '<style>.dash { stroke-dasharray: 6 3 }</style>']
    short = 0
    for k, ((a, b), letter, angle) in enumerate(zip(edges, letters, angles)):
        p, q = P[a].copy(), P[b].copy()
        if miss and letter != "B":
            for end, other in ((p, q), (q, p)):
                if end[1] in (top, bottom) and other[1] != end[1]:
                    end += miss * size * (other - end) / np.linalg.norm(other - end)
                    short += 1
        opacity = "" if angle is None else f' opacity="{abs(angle) / 180:.6f}"'
        if dashes is None:
            paint = f'stroke="{colours[letter]}"'
        elif letter == "V":
            paint = ['stroke="black" stroke-dasharray="6,3"', 'style="stroke:#000000;stroke-dasharray:6px 3px"',
                     'stroke="black" class="dash"'][k % 3]
        elif letter == "M" and dash_dot:
            paint = 'stroke="black" stroke-dasharray="9 3 1 3"'
        else:
            paint = 'stroke="black"'
        out.append(f'<line {paint}{opacity} x1="{p[0]:.6f}" y1="{p[1]:.6f}" x2="{q[0]:.6f}" y2="{q[1]:.6f}"/>')
    path.write_text("\n".join(out + ["</svg>"]) + "\n")
    return path, short


@pytest.mark.parametrize("dash_dot", [False, True], ids=["solid mountains", "dash-dot mountains"])
def test_a_monochrome_miura_with_dashed_valleys_reads_as_its_coloured_twin(tmp_path, capsys, dash_dot):
    """Every line black, valleys dashed: by default (one colour, some dashed) the M/V and targets of the same sheet
    in Origami Simulator's colours, said in one note line; --dashes mountain reads M and V the other way round;
    --dashes none reads no crease (every line black: boundary), as before."""
    twin, _ = miura_lines(tmp_path / "coloured.svg")
    mono, _ = miura_lines(tmp_path / "mono.svg", dashes="valley", dash_dot=dash_dot)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        a = read_structure(twin)
        notes = []
        same_structure(a, read_svg_structure(mono, notes))
    assert sorted(set(a.notes["fold"]["edges_assignment"])) == ["B", "M", "V"]
    n = sum(k == "V" for k in a.notes["fold"]["edges_assignment"])
    total = len(a.notes["fold"]["edges_assignment"])
    letters = a.notes["fold"]["edges_assignment"]
    dashed = letters.count("V") + (letters.count("M") if dash_dot else 0)   # one line per edge
    assert notes == [f"{mono}: every line is drawn #000000 and {dashed} of {len(letters)} are dashed: dashed lines "
                     f"are read as valleys, solid and dash-dot ones as mountains, the sheet's outline as its boundary "
                     f"(dashes= 'mountain' the other way round, dashes= 'none' by colour)"]
    code, out, err = run(capsys, "check", mono)
    assert code == 0 and "warning" not in err, err
    note = [x for x in err.splitlines() + out.splitlines() if x.startswith("note: ")]
    assert len(note) == 1 and "dashed lines are read as valleys" in note[0] and "--dashes 'mountain'" in note[0]
    flipped = read_structure(mono, dashes="mountain")
    swap = {"M": "V", "V": "M", "B": "B"}
    if not dash_dot:
        assert flipped.notes["fold"]["edges_assignment"] == [swap[x] for x in a.notes["fold"]["edges_assignment"]]
    else:   # dash-dot lines are mountains either way
        assert set(flipped.notes["fold"]["edges_assignment"]) == {"M", "B"}
    code, out, err = run(capsys, "check", mono, "--dashes", "none")
    assert code == 1 and "no crease" in err, err


def read_svg_structure(path, notes):
    """The structure of an SVG through the library's reader with its note lines collected in ``notes``."""
    st = read_structure(path)
    notes += st.notes["fold"].get("reader_notes", [])
    return st


# ------------------------------------------------------------------ hand-drawn ends that miss
def test_hand_drawn_ends_that_miss_name_the_merge_tol_that_joins_them(tmp_path, capsys):
    """The creases meeting the top and bottom edges stop 0.4 % of the sheet short of them: the warning leaves
    out the 6 dangling lines and names --merge-tol 0.005; with it the sheet reads as the drawing shows (the
    Miura-ori whose ends meet)."""
    exact, _ = miura_lines(tmp_path / "exact.svg")
    drawn, short = miura_lines(tmp_path / "drawn.svg", miss=0.004)
    assert short == 6
    code, out, err = run(capsys, "check", drawn)
    warned = [x for x in err.splitlines() if "bound no face" in x]
    assert len(warned) == 1 and f"left out {short} line(s) that bound no face" in warned[0], err
    # the ends lie 0.004 x size along creases at 65 deg to the edge: 0.004 sin 65 deg = 0.0036 from it
    assert warned[0].endswith(f"; {short} of their ends miss another line by at most "
                              f"{0.004 * np.sin(np.radians(65.0)):.2g} of the sheet's size (within 1%): --merge-tol "
                              f"0.005 joins them"), warned[0]
    a = read_structure(exact)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        b = read_structure(drawn, merge_tol=0.005)
    assert b.pattern.panels == a.pattern.panels and b.pattern.edges == a.pattern.edges
    for key in ("edges_assignment", "edges_foldAngle"):
        assert b.notes["fold"][key] == a.notes["fold"][key], key
    # each end snapped onto its edge: within the miss of where the exact one meets it
    assert np.abs(b.pattern.vertices - a.pattern.vertices).max() <= 0.004 * a.pattern.size
    code, out, err = run(capsys, "check", drawn, "--merge-tol", "0.005")
    assert code == 0 and "warning" not in err, err
