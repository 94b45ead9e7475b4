"""SVG crease patterns in Origami Simulator's colours become valid FOLD crease patterns.

The files are written here in the styles of the tools people draw with:
Origami Simulator's own examples (Adobe Illustrator export: path data with
absolute and relative commands, several subpaths in one path, a filled
outline path, coordinates rounded so that endpoints miss by ~1e-3 px) and
hand or Inkscape style (groups with transforms, CSS classes, style
attributes, stroke-opacity, polylines, viewBox with physical units).

Every pattern is checked against geometry computed here independently of
the reader: Euler's formula V - E + F = 1 (one disk), the face areas add up
to the sheet's area, and every red or blue line, mapped by its transforms,
is covered by interior edges (two faces) with its assignment and target
angle (-180 x opacity for mountains, +180 x opacity for valleys).
"""
import json
import os
import warnings
from pathlib import Path

import numpy as np
import pytest

from chrono_origami.analysis import static as analysis
from chrono_origami.tools.errors import FoldFileError, SvgFileError
from chrono_origami.structure.foldfile import convert, read_fold, read_structure
from chrono_origami.crease.svg import read_svg

ROOT = Path(__file__).resolve().parents[1]
HEAD = '<?xml version="1.0" encoding="utf-8"?>\n'


def write(tmp_path, text, name="cp.svg"):
    path = tmp_path / name
    path.write_text(text)
    return path


def area(points):
    x, y = np.asarray(points, float).T
    return 0.5 * (x @ np.roll(y, -1) - y @ np.roll(x, -1))


def edge_faces(d):
    out = {}
    for f, loop in enumerate(d["faces_vertices"]):
        for a, b in zip(loop, loop[1:] + loop[:1]):
            out.setdefault((min(a, b), max(a, b)), []).append(f)
    return out


def check_fold(d, sheet_area, lines, rtol=1e-12):
    """Euler, areas, and each drawn line ((x1, y1), (x2, y2), assignment, angle) in FOLD coordinates covered."""
    X = np.array(d["vertices_coords"], float)
    V, E, F = len(X), len(d["edges_vertices"]), len(d["faces_vertices"])
    assert V - E + F == 1
    areas = [area(X[loop]) for loop in d["faces_vertices"]]
    assert min(areas) > 0                                      # counterclockwise: normals +z
    assert sum(areas) == pytest.approx(sheet_area, rel=rtol)
    sides = edge_faces(d)
    size = np.linalg.norm(X.max(0) - X.min(0))
    for p, q, assignment, angle in lines:
        p, q = np.array(p, float), np.array(q, float)
        t = (q - p) / np.linalg.norm(q - p)
        covered = 0.0
        for k, (a, b) in enumerate(d["edges_vertices"]):
            ends = X[[a, b]] - p
            off = np.abs(ends @ np.array([-t[1], t[0]]))
            along = ends @ t
            if off.max() <= 1e-3 * size and along.min() >= -1e-3 * size and \
                    along.max() <= np.linalg.norm(q - p) + 1e-3 * size:
                assert len(sides[(min(a, b), max(a, b))]) == 2, (p, q)
                assert d["edges_assignment"][k] == assignment
                assert d["edges_foldAngle"][k] == pytest.approx(angle, abs=1e-9)
                covered += abs(along[1] - along[0])
        assert covered == pytest.approx(np.linalg.norm(q - p), rel=1e-4), (p, q)


# ------------------------------------------------------------------ every colour, transforms, crossings
# Drawn in the group's own units on a 100 x 100 sheet; the group maps (x, y) to (10 + 2x, 20 + 2y).
EVERY_COLOUR = HEAD + """<svg xmlns="http://www.w3.org/2000/svg" width="120mm" height="120mm" viewBox="0 0 240 240">
  <style>.v { stroke: #0000ff; stroke-opacity: 0.25; fill: none }</style>
  <rect x="0" y="0" width="240" height="240" fill="#eeeeee"/>
  <g transform="translate(10,20) scale(2)">
    <rect x="0" y="0" width="100" height="100" stroke="#000" fill="none"/>
    <line x1="0" y1="0" x2="100" y2="100" stroke="red" stroke-opacity="0.5"/>
    <path d="M100,0 L0,100" style="stroke:#f00;opacity:0.5;fill:none"/>
    <polyline points="0.0004,0.0007 99.9996,-0.0007" stroke="rgb(0,0,255)" fill="none" transform="translate(0,50)"/>
    <line x1="50" y1="0" x2="50" y2="50" stroke="#ff00ff"/>
    <line class="v" x1="50" y1="50.0009" x2="50" y2="100"/>
    <path d="m 100,75 h -25" stroke="#00ff00" fill="none"/>
    <line x1="50" y1="0" x2="25" y2="25" stroke="yellow"/>
    <line x1="0" y1="90" x2="100" y2="90" stroke="#808080"/>
  </g>
</svg>
"""


def g(x, y):
    """FOLD coordinates of a point of the group: the group's transform, then y flipped."""
    return 10 + 2 * x, -(20 + 2 * y)


RED_BLUE = [(g(0, 0), g(100, 100), "M", -90.0), (g(100, 0), g(0, 100), "M", -90.0),
            (g(0, 50), g(100, 50), "V", 180.0), (g(50, 50), g(50, 100), "V", 45.0)]


def test_every_colour_with_opacity_transforms_and_crossings(tmp_path):
    path = write(tmp_path, EVERY_COLOUR)
    with pytest.warns(UserWarning, match=r"left out shapes that are not crease-pattern lines: #808080 \(1\)"):
        d = read_svg(path)
    check_fold(d, 200.0 ** 2, RED_BLUE + [(g(50, 0), g(50, 50), "U", 0.0)], rtol=1e-6)   # drawn 1e-3 apart
    assert len(d["vertices_coords"]) == 11 and len(d["faces_vertices"]) == 9   # 8 triangles, one cut in two
    assert d["edges_assignment"].count("C") == 1 and "F" not in d["edges_assignment"]
    assert d["frame_classes"] == ["creasePattern"] and "cuts" in d["frame_attributes"]
    (k,) = [k for k, a in enumerate(d["edges_assignment"]) if a == "C"]
    X = np.array(d["vertices_coords"])
    np.testing.assert_allclose(sorted(map(tuple, X[d["edges_vertices"][k]])), sorted([g(75, 75), g(100, 75)]),
                               rtol=1e-14)
    # as a structure: the cut splits its boundary end; the flat square base counts as a flat vertex would
    with pytest.warns(UserWarning, match="#808080"):
        s = read_structure(path)
    assert (s.pattern.n_panels, len(s.pattern.hinges), s.pattern.n_vertices) == (9, 9, 12)
    assert s.notes["fold"]["edges_foldAngle"].count(-90.0) == 5


def test_yellow_lines_as_flat_creases(tmp_path):
    path = write(tmp_path, EVERY_COLOUR)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        d = read_svg(path, facets="crease")
        s = read_structure(path, facets="crease")
    check_fold(d, 200.0 ** 2, RED_BLUE, rtol=1e-6)
    assert len(d["faces_vertices"]) == 10 and d["edges_assignment"].count("F") == 1
    assert len(s.pattern.hinges) == 11     # the facet line and the diagonal it splits at (25, 25)


# ------------------------------------------------------------------ Origami Simulator's own style
SIMPLE_VERTEX = HEAD + """<!-- Generator: Adobe Illustrator 16.0.3, SVG Export Plug-In . SVG Version: 6.00 Build 0)  -->
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<svg version="1.1" id="Layer_1" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" x="0px" y="0px"
\t width="3456px" height="6912px" viewBox="0 0 3456 6912" enable-background="new 0 0 3456 6912" xml:space="preserve">
<path fill="#FFFFFF" stroke="#000000" stroke-miterlimit="10" d="M2545.941,2362.354H493V309.412h2052.941V2362.354z"/>
<path fill="none" stroke="#FF0000" stroke-miterlimit="10" d="M493.001,1335.882h2052.941 M1519.471,309.413v1026.471"/>
<path fill="none" stroke="#0000FF" stroke-miterlimit="10" opacity="0.5" d="M1519.471,1335.882v1026.472"/>
</svg>
"""


def test_origami_simulator_example_with_rounding_misses(tmp_path):
    path = write(tmp_path, SIMPLE_VERTEX, "simpleVertex.svg")
    d = read_svg(path)
    x0, x1, y0, y1 = 493.0, 2545.941, 309.412, 2362.354
    mid_x, mid_y = 1519.471, 1335.882
    check_fold(d, (x1 - x0) * (y1 - y0), [((x0, -mid_y), (x1, -mid_y), "M", -180.0),
                                          ((mid_x, -y0), (mid_x, -mid_y), "M", -180.0),
                                          ((mid_x, -mid_y), (mid_x, -y1), "V", 90.0)], rtol=1e-6)
    assert len(d["vertices_coords"]) == 9 and len(d["faces_vertices"]) == 4
    s = read_structure(path)
    c = analysis.count(s, "reference")
    assert (s.pattern.n_panels, len(s.pattern.hinges)) == (4, 4)
    assert (c.M, c.S) == (2, 4)       # a flat vertex of 4 door hinges: M = n - 2, S = 4


def test_the_merge_tolerance_is_an_option(tmp_path):
    """A crease that stops 0.5 % of the sheet short of the boundary."""
    text = HEAD + """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
      <rect x="0" y="0" width="100" height="100" stroke="black" fill="none"/>
      <line x1="50" y1="0" x2="50" y2="99.3" stroke="blue"/>
    </svg>"""
    path = write(tmp_path, text)
    with pytest.raises(SvgFileError, match=r"no crease \(a mountain, valley, flat or undriven line between two "
                                           r"faces\); left out 1 line\(s\) that bound no face, e.g. the line \(50, 0\)-"
                                           r"\(50, 99.3\) of .*<line> 1 \(a larger merge_tol= joins line ends more "
                                           r"than 0.141 drawing units apart\)"):
        read_svg(path)
    d = read_svg(path, merge_tol=1e-2)
    check_fold(d, 100.0 ** 2, [((50, 0), (50, -100), "V", 180.0)])


# ------------------------------------------------------------------ convert and errors
def test_convert_writes_a_fold_file_that_reads_as_the_svg(tmp_path):
    src = write(tmp_path, SIMPLE_VERTEX, "simpleVertex.svg")
    out = tmp_path / "simpleVertex.fold"
    d = convert(src, out)
    assert json.loads(out.read_text()) == json.loads(json.dumps(d))
    a, b = read_structure(src), read_fold(out)
    np.testing.assert_array_equal(b.pattern.vertices, a.pattern.vertices)
    assert b.pattern.panels == a.pattern.panels and b.pattern.edges == a.pattern.edges
    assert b.notes["fold"]["edges_foldAngle"] == a.notes["fold"]["edges_foldAngle"]


def svg(body):
    return HEAD + f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">\n' \
                  f'<rect x="0" y="0" width="100" height="100" stroke="black" fill="none"/>\n{body}\n</svg>'


SVG_ERRORS = [
    (svg('<path id="arc" d="M0,0 C30,10 60,10 100,100" stroke="red" fill="none"/>'),
     r"<path> 1 \(id 'arc'\): has a curved segment \(a Bezier from \(0, 0\) to \(100, 100\)\)"),
    (svg('<path d="M0,0 A50,50 0 0 1 100,100" stroke="red" fill="none"/>'), r"<path> 1: has a curved segment \(Arc\)"),
    (svg('<line x1="0" y1="50" x2="100" y2="50" stroke="red"/><line x1="0" y1="50" x2="100" y2="50" stroke="blue"/>'),
     r"<line> 1 and <line> 2 overlap along \(0, 50\)-\(100, 50\) with different line types or angles"),
    (svg('<rect x="30" y="30" width="40" height="40" stroke="red" fill="none"/>'),
     r"has a hole bounded by the point .* faces with holes are not supported"),
    (svg('<line x1="0" y1="50" x2="100" y2="50" stroke="red" stroke-opacity="half"/>'),
     r"<line> 1: stroke-opacity must be a number, got 'half'"),
    (HEAD + '<svg xmlns="http://www.w3.org/2000/svg"><line x1="0" y1="0" x2="1" y2="1" stroke="gray"/></svg>',
     r"no crease-pattern lines"),
    ("<svg><line", r"not valid SVG \(XML: "),
    # found by tests/test_fuzz_svg.py
    ('<?xml version="1.0" encoding="bogus-8"?>\n' + svg("")[len(HEAD):],
     r"cannot read the SVG file \(unknown encoding: bogus-8\)"),
    (svg("").replace("http://www.w3.org/2000/svg", "http://www.w0.org/2000/svg"),
     r"not an SVG drawing: the root element is not <svg> in the SVG namespace"),
    (svg("").replace('viewBox="0 0 100 100"', 'viewBox="0 0 0 100"'),
     r"the <svg> element's viewBox '0 0 0 100' .* maps the drawing onto a line or a point"),
    (HEAD + '<svg xmlns="http://www.w3.org/2000/svg"><line x1="0" y1="0" x2="1" y2="0" stroke="red"/>'
            '<line x1="1e6" y1="1e6" x2="1e6" y2="1000001" stroke="red"/></svg>',
     r"every line is shorter than the merge tolerance \(1.41e\+03 drawing units"),
]


@pytest.mark.parametrize("text, message", SVG_ERRORS, ids=[m[:30] for _, m in SVG_ERRORS])
def test_bad_svg_is_named_in_one_line(tmp_path, text, message):
    path = write(tmp_path, text)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(SvgFileError, match=message) as info:
            read_structure(path)
    assert "\n" not in str(info.value) and str(info.value).startswith(str(path))


@pytest.mark.parametrize("attribute", ['stroke-opacity="nan"', 'opacity="NaN"', 'style="stroke-opacity:nan"'])
def test_a_nan_opacity_is_named_by_its_element_and_attribute(tmp_path, capsys, attribute):
    """A NaN opacity (the target fold angle's factor): the command line names the element and the attribute in one
    line, exit 1, not the fold angle or a face derived from it."""
    from chrono_origami import cli

    path = write(tmp_path, svg(f'<line id="crease" x1="0" y1="50" x2="100" y2="50" stroke="red" {attribute}/>'))
    name = attribute.split("=")[0] if "style" not in attribute else "stroke-opacity"
    for command in (["count", str(path)], ["convert", str(path), "-o", str(tmp_path / "cp.fold")]):
        assert cli.main(command) == 1
        err = capsys.readouterr().err
        assert err == (f"error: {path}: <line> 1 (id 'crease'): {name} must be a finite number, "
                       f"got '{'NaN' if 'NaN' in attribute else 'nan'}'\n")
    assert not (tmp_path / "cp.fold").exists()


def test_straight_beziers_are_lines_and_other_options_are_checked(tmp_path):
    path = write(tmp_path, svg('<path d="M0,50 C25,50 75,50 100,50" stroke="red" fill="none"/>'))
    check_fold(read_svg(path), 100.0 ** 2, [((0, -50), (100, -50), "M", -180.0)])
    with pytest.raises(SvgFileError, match="merge_tol must be a fraction of the sheet size in"):
        read_svg(path, merge_tol=0.5)
    with pytest.raises(FoldFileError, match=r"an SVG crease pattern has one frame \(0, \"creasePattern\"\), not "
                                            r"'foldedForm'"):
        read_structure(path, frame="foldedForm")
    with pytest.raises(SvgFileError, match="no such SVG file"):
        read_structure(tmp_path / "missing.svg")


def test_the_command_line_counts_an_svg(tmp_path, capsys):
    from chrono_origami import cli

    path = write(tmp_path, SIMPLE_VERTEX, "simpleVertex.svg")
    assert cli.main(["count", str(path), "--engine", "reference"]) == 0
    out = capsys.readouterr().out
    assert "M = 2 mechanisms, S = 4 self-stress states" in out and "simpleVertex" in out


def test_near_lines_of_two_types_keep_the_closer_and_say_so(tmp_path):
    body = ('<line x1="0" y1="50" x2="100" y2="50" stroke="red"/>'
            '<line x1="0" y1="50.00001" x2="100" y2="50.00001" stroke="blue"/>'
            '<line x1="50" y1="0" x2="50" y2="50" stroke="url(#gradient)"/>')
    path = write(tmp_path, svg(body))
    with pytest.warns(UserWarning) as record:
        d = read_svg(path)
    text = " | ".join(str(w.message) for w in record)
    assert "left out shapes that are not crease-pattern lines: a paint server (url) (1)" in text
    assert "1 piece(s) of line lie within the merge tolerance (0.141 drawing units, merge_tol= x the sheet size) of " \
           "a line of another type or angle; the closer line was kept, e.g." in text and "<line> 1 over" in text
    check_fold(d, 100.0 ** 2, [((0, -50), (100, -50), "M", -180.0)])


def test_the_convert_command_and_the_input_options(tmp_path, capsys):
    from chrono_origami import cli

    src = write(tmp_path, SIMPLE_VERTEX, "simpleVertex.svg")
    out = tmp_path / "simpleVertex.fold"
    assert cli.main(["convert", str(src), "-o", str(out)]) == 0
    assert f"wrote {out}" in capsys.readouterr().out
    assert read_fold(out).pattern.n_panels == read_structure(src).pattern.n_panels
    # the written FOLD file counts as the SVG does; options reach the reader
    assert cli.main(["count", str(out), "--engine", "reference", "--frame", "0"]) == 0
    assert "M = 2 mechanisms, S = 4 self-stress states" in capsys.readouterr().out
    assert cli.main(["count", str(src), "--engine", "reference", "--merge-tol", "1e-2"]) == 0
    assert cli.main(["count", str(out), "--engine", "reference", "--merge-tol", "1e-2"]) == 0   # a flat FOLD file
    assert "M = 2 mechanisms, S = 4 self-stress states" in capsys.readouterr().out
    assert cli.main(["count", str(src), "--frame", "foldedForm"]) == 2
    assert "an SVG crease pattern, has one frame" in capsys.readouterr().err
    # convert reads drawn patterns only (SVG, ORIPA), and a missing file is a usage error
    assert cli.main(["convert", str(out), "-o", str(tmp_path / "x.fold")]) == 2
    assert cli.main(["convert", str(tmp_path / "missing.svg"), "-o", str(tmp_path / "x.fold")]) == 2
    assert "no such SVG file" in capsys.readouterr().err


# ------------------------------------------------------------------ other editors' colours and marks
def hue_colour(hue_deg, value=1.0, saturation=1.0):
    """"#rrggbb" of an HSV colour (hue in degrees)."""
    import colorsys

    r, g, b = colorsys.hsv_to_rgb((hue_deg % 360.0) / 360.0, saturation, value)
    return "#" + "".join(f"{round(255 * c):02x}" for c in (r, g, b))


def test_a_stroke_is_the_line_type_of_the_nearest_reference_hue():
    from chrono_origami.crease.svg import HUE_MARGIN, HUES, colour_reading, line_type

    exact = {"#000000": "B", "#FF0000": "M", "#0000ff": "V", "#00ff00": "C", "#008000": "C", "#ffff00": "F",
             "#ff00ff": "U"}
    near = {"#EE1032": "M", "#4379FF": "V", "#231F20": "B", "#333333": "B", "#000080": "V", "#C00000": "M",
            "#F2E20D": "F", "#E62EDC": "U", "#22B14C": "C", "#33a1fd": "V", "#eb5160": "M"}   # Inkscape's sky blue
    unread = ["#808080", "#FFFFFF", "#FFC0C0", "#FF8000", "#00FFFF", "#8000FF"]   # grey, white, pale, orange, ...
    for colour, letter in {**exact, **near}.items():
        assert line_type(colour) == letter, colour
    for colour in unread:
        assert line_type(colour) is None, colour
    assert colour_reading("#00ffff")[1] == "hue 180 deg, about equally near green (cut) and blue (valley)"
    assert colour_reading("#808080")[1] == "unsaturated"
    # between two neighbouring reference hues: the nearer one, refused only within HUE_MARGIN / 2 of the midpoint
    # (hex rounding moves a hue by < 0.2 deg)
    refs = sorted((h, k) for k, h in HUES.items())
    for (a, ka), (b, kb) in zip(refs, refs[1:] + [(refs[0][0] + 360.0, refs[0][1])]):
        mid, half = 0.5 * (a + b), 0.5 * HUE_MARGIN
        assert line_type(hue_colour(a + 1)) == ka and line_type(hue_colour(b - 1)) == kb
        assert line_type(hue_colour(mid - half - 1)) == ka and line_type(hue_colour(mid + half + 1)) == kb
        for x in (mid - half + 1, mid, mid + half - 1):
            assert line_type(hue_colour(x)) is None, (a, b, x)


@pytest.mark.parametrize("style", [dict(colours="near"), dict(mark="class"), dict(mark="data-assignment")],
                         ids=["near colours", "class", "data-assignment"])
def test_other_editors_styles_read_as_origami_simulators_colours(tmp_path, capsys, style):
    """A Miura-ori drawn with #EE1032 mountains, #4379FF valleys and #231F20 boundary, or with class="mountain"
    ("valley", "boundary") or data-assignment="M" on grey strokes: the same structure and targets as Origami
    Simulator's red and blue, and the same check report, without a warning."""
    import journey_files as jf
    from chrono_origami import cli

    kw = dict(style, colours=jf.NEAR_COLOURS) if style.get("colours") else style
    plain, _, _, letters, angles = jf.miura_svg(tmp_path / "plain.svg")
    other = jf.miura_svg(tmp_path / "other.svg", **kw)[0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        a, b = read_structure(plain), read_structure(other)
    np.testing.assert_array_equal(b.pattern.vertices, a.pattern.vertices)
    assert b.pattern.panels == a.pattern.panels and b.pattern.edges == a.pattern.edges
    for key in ("edges_assignment", "edges_foldAngle"):
        assert b.notes["fold"][key] == a.notes["fold"][key]
    assert sorted(b.notes["fold"]["edges_assignment"]) == sorted(letters)   # every drawn line, none lost
    reports = []
    for path in (plain, other):
        assert cli.main(["check", str(path)]) == 0
        out, err = capsys.readouterr()
        assert "warning" not in err
        reports.append(out.replace(str(path), "FILE").replace(path.stem, "NAME"))
    assert reports[1] == reports[0] and "3 interior vertices" in reports[0]


def test_a_file_that_loses_its_creases_is_an_error_naming_the_colours(tmp_path, capsys):
    """Orange mountains and cyan valleys (no reference colour within the hue tolerance): check and static stop
    in one line naming both colours, exit 1, instead of one panel and no hinge."""
    import journey_files as jf
    from chrono_origami import cli

    path = jf.miura_svg(tmp_path / "cp.svg", colours={"B": "#000000", "M": "#FF8000", "V": "#00FFFF"})[0]
    for argv in (["check", path], ["static", path, "--support", "auto", "--load", "all:0,0,-1"],
                 ["count", path]):
        assert cli.main([str(a) for a in argv]) == 1
        out, err = capsys.readouterr()
        assert err.startswith(f"error: {path}: ") and err.count("\n") == 1, err
        assert "#ff8000 (" in err and "#00ffff (" in err and "not crease-pattern lines" in err
        assert "hinge" not in out
    # only the boundary read, and the creases all near-white: no crease at all
    path = jf.miura_svg(tmp_path / "pale.svg", colours={"B": "#000000", "M": "#FFE0E0", "V": "#E0E0FF"})[0]
    assert cli.main(["check", str(path)]) == 1
    err = capsys.readouterr().err
    assert "#ffe0e0 (" in err and "#e0e0ff (" in err


def test_a_bad_data_assignment_is_named(tmp_path):
    path = write(tmp_path, svg('<line x1="0" y1="50" x2="100" y2="50" data-assignment="X" stroke="red"/>'))
    with pytest.raises(SvgFileError, match=r"<line> 1: data-assignment must be one of M, V, B, F, U, C, J \(FOLD's "
                                           r"letters\), got 'X'"):
        read_svg(path)
    path = write(tmp_path, svg('<line x1="0" y1="50" x2="100" y2="50" class="crease mountain valley"/>'))
    with pytest.raises(SvgFileError, match=r"<line> 1: class 'crease mountain valley' names two line types"):
        read_svg(path)


def test_a_join_line_is_a_joined_hinge(tmp_path, capsys):
    """FOLD 1.2's "J" (faces joined rigidly), as Rabbit Ear writes it in SVG (``data-assignment="j"``): the two
    halves of the square are joined by a "joined" hinge, which locks all six relative motions: with the other line a
    valley ending on it (which splits the join line in two), the sheet is three panels, two of the hinges joined."""
    from chrono_origami.structure.foldfile import read_structure
    from chrono_origami.structure.hinges import DOOR, JOINED

    path = write(tmp_path, svg('<line x1="50" y1="0" x2="50" y2="100" data-assignment="j" stroke="black"/>\n'
                               '<line x1="0" y1="50" x2="50" y2="50" stroke="blue"/>'))
    d = read_svg(path)
    assert sorted(d["edges_assignment"]).count("J") == 2
    s = read_structure(str(path))
    assert sorted(s.hinge_kinds) == sorted((JOINED, JOINED, DOOR))
    from cli_output import run

    code, out, err = run(capsys, "check", path)
    assert code == 0 and "3 panels, 3 hinges" in out, out + err


def test_every_warning_is_one_line_on_the_command_line(tmp_path):
    """Left-out shapes, dangling lines and overlapping lines of two types, through a real interpreter (Python's
    own warning filters and output): each is one line ``warning: ...`` on stderr, never the source path and code
    line of Python's warnings module."""
    import subprocess
    import sys

    body = ('<line x1="0" y1="50" x2="100" y2="50" stroke="red"/>'
            '<line x1="0" y1="50.00001" x2="100" y2="50.00001" stroke="blue"/>'
            '<line x1="50" y1="0" x2="50" y2="50" stroke="#EE1032"/>'
            '<line x1="50" y1="50" x2="50" y2="100" stroke="#4379FF"/>'
            '<line x1="10" y1="10" x2="20" y2="20" stroke="#4379FF"/>'
            '<line x1="0" y1="0" x2="10" y2="30" stroke="#808080"/>')
    path = write(tmp_path, svg(body))
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    r = subprocess.run([sys.executable, "-m", "chrono_origami", "count", str(path), "--engine", "reference"],
                       env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    lines = r.stderr.splitlines()
    assert all(x.startswith(("warning: ", "note: ")) for x in lines), r.stderr
    warned = [x for x in lines if x.startswith("warning: ")]
    assert len(warned) == 3, r.stderr
    assert "left out shapes that are not crease-pattern lines: #808080 (1)" in warned[0]
    assert "2 piece(s) of line lie within the merge tolerance (0.141 drawing units, --merge-tol x the sheet size) " \
           "of a line of another type" in warned[1]
    assert "left out 1 line(s) that bound no face" in warned[2]
    assert "UserWarning" not in r.stderr and ".py:" not in r.stderr
    assert "M = " in r.stdout


def test_a_sheet_cut_in_pieces_is_one_warning_and_each_piece_is_held(tmp_path):
    """A black line across the sheet (x = 50) between faces is a cut: with a mountain in the left half and a valley
    in the right, the four faces fall into two pieces of two panels and one hinge. Through a real interpreter:
    one warning line names the two pieces; ``support`` holds each with its own 3-2-1 support (12 directions) and the
    supported structure keeps each crease's rotation (M = 2)."""
    import subprocess
    import sys

    body = ('<line x1="50" y1="0" x2="50" y2="100" stroke="black"/>'
            '<line x1="0" y1="50" x2="50" y2="50" stroke="red"/>'
            '<line x1="50" y1="50" x2="100" y2="50" stroke="blue"/>')
    path = write(tmp_path, svg(body))
    with pytest.warns(UserWarning, match="the faces fall into 2 pieces joined by no crease"):
        d = read_svg(path)
    assert sorted(d["edges_assignment"]) == ["B"] * 8 + ["C", "C", "M", "V"]   # the outline split at 4 points
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    r = subprocess.run([sys.executable, "-m", "chrono_origami", "support", str(path), "--engine", "reference"],
                       env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stderr.splitlines() == [f"warning: {path}: the faces fall into 2 pieces joined by no crease (a black or "
                                     f"green line between two faces is a cut); each piece is held and folds on its "
                                     f"own"], r.stderr
    assert "12 held directions, the fewest that stop the six rigid-body motions of each of its 2 pieces" in r.stdout
    assert "M = 2" in r.stdout, r.stdout


def test_a_groups_data_assignment_marks_its_lines(tmp_path):
    """``data-assignment`` on a group (an editor's layer of valleys) reaches its lines; a line's own class wins."""
    body = ('<g data-assignment="V"><line x1="0" y1="50" x2="100" y2="50" stroke="#7f7f7f" opacity="0.5"/>'
            '<line class="mountain" x1="50" y1="0" x2="50" y2="50" stroke="#7f7f7f" opacity="0.5"/></g>')
    path = write(tmp_path, svg(body))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        d = read_svg(path)
    check_fold(d, 100.0 ** 2, [((0, -50), (100, -50), "V", 90.0), ((50, 0), (50, -50), "M", -90.0)])


def test_an_elements_own_data_assignment_wins_over_its_class(tmp_path):
    """The documented order: an element's own ``data-assignment`` first, then its own ``class``: a line with
    ``class="mountain" data-assignment="V"`` is a valley (+90 deg at opacity 0.5), its class alone a mountain."""
    body = ('<line class="mountain" data-assignment="V" x1="0" y1="50" x2="100" y2="50" stroke="#7f7f7f" '
            'opacity="0.5"/><line class="mountain" x1="50" y1="0" x2="50" y2="50" stroke="#7f7f7f" opacity="0.5"/>')
    path = write(tmp_path, svg(body))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        d = read_svg(path)
    check_fold(d, 100.0 ** 2, [((0, -50), (100, -50), "V", 90.0), ((50, 0), (50, -50), "M", -90.0)])


@pytest.mark.parametrize("attribute", ['stroke-opacity="50%"', 'opacity="50%"', 'style="stroke-opacity:50%"'])
def test_an_opacity_in_percent_is_a_fraction(tmp_path, attribute):
    """SVG 2 / CSS opacity in percent: ``50%`` is 0.5, a target of 90 deg (not 50 clamped to 1, 180 deg); a
    mountain at -90, a valley at 25 % of 180 = +45."""
    body = (f'<line x1="0" y1="50" x2="100" y2="50" stroke="red" {attribute}/>'
            f'<line x1="50" y1="0" x2="50" y2="50" stroke="blue" {attribute.replace("50%", "25%")}/>')
    path = write(tmp_path, svg(body))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        d = read_svg(path)
    check_fold(d, 100.0 ** 2, [((0, -50), (100, -50), "M", -90.0), ((50, 0), (50, -50), "V", 45.0)])


def test_oripas_svg_export(tmp_path):
    """An SVG as ORIPA exports a crease pattern (``CreasePatternToSvgConverter``: one ``<path d="M x y L x y">``
    per line, the colour a CSS name in a ``style`` attribute: black cut, red mountain, blue valley, orange
    unassigned, gray aux): the square with a mountain and an unassigned line across it, and an aux diagonal,
    reads as 4 panels, 4 hinges (2 "M", 2 "U"), the aux line left out (one warning line naming gray)."""
    def path(x0, y0, x1, y1, colour, width=2):
        return (f' <path d="M {x0:f} {y0:f} L {x1:f} {y1:f}" style="fill:none;stroke:{colour};'
                f'stroke-width:{width:f}px;stroke-linecap:round;stroke-linejoin:round;stroke-opacity:1;'
                f'fill-opacity:1.000000"\n />\n')
    body = "".join([path(0, 0, 400, 0, "black", 4), path(400, 0, 400, 400, "black", 4),
                    path(400, 400, 0, 400, "black", 4), path(0, 400, 0, 0, "black", 4),
                    path(0, 200, 400, 200, "red"), path(200, 0, 200, 400, "orange"),
                    path(0, 0, 400, 400, "gray", 1)])
    text = ('<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" '
            'xmlns:xlink="http://www.w3.org/1999/xlink" width="400" height="400">\n' + body + '</svg>\n')
    p = tmp_path / "oripa.svg"
    p.write_text(text)
    with pytest.warns(UserWarning, match=r"left out shapes that are not crease-pattern lines: #808080 \(1\)"):
        d = read_svg(p)
    assert len(d["faces_vertices"]) == 4
    assert sorted(a for a in d["edges_assignment"] if a != "B") == ["M", "M", "U", "U"]
    assert sorted(set(t for a, t in zip(d["edges_assignment"], d["edges_foldAngle"]) if a == "M")) == [-180.0]
