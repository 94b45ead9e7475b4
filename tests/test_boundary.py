"""Supports and loads as users write them (chrono_origami/boundary.py): the selector language, the text forms, the
Structure methods, and Hypothesis property tests of the selector and option parsing.

Hand-checkable pattern: a 3 x 3 grid of unit squares in z = 0, lifted to z = 0.5 along its top row of vertices
(the top row of panels is tilted), vertex numbers (1-based) row by row from (0, 0):

    13 14 15 16      y = 3   (z = 0.5)
     9 10 11 12      y = 2
     5  6  7  8      y = 1
     1  2  3  4      y = 0

panel k (1-based) is the square whose lower-left corner is vertex k + (k - 1) // 3.
"""
import argparse
import string

import numpy as np
import pytest

from chrono_origami.structure.boundary import (BoundaryError, load_text, loads_from_text, parse_dofs, select, selection,
                                     support_text, supports_from_text)
from chrono_origami.cli import app, inputs
from chrono_origami.tools.errors import StructureError
from chrono_origami.crease.pattern import CreasePattern
from chrono_origami.structure.structure import Load, Structure, Support

hypothesis = pytest.importorskip("hypothesis", reason="hypothesis is not installed (pip install -e '.[test]')")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


def grid():
    X = [(i, j, 0.5 if j == 3 else 0.0) for j in range(4) for i in range(4)]
    panels = [[4 * j + i, 4 * j + i + 1, 4 * (j + 1) + i + 1, 4 * (j + 1) + i] for j in range(3) for i in range(3)]
    return Structure(CreasePattern(X, panels), name="grid")


G = grid()


def one(text):
    """1-based vertex numbers of a selector on the grid."""
    return (select(G.pattern, text) + 1).tolist()


@pytest.mark.parametrize("text, expected", [
    ("7", [7]), ("1,4,7-9", [1, 4, 7, 8, 9]), (" 3 - 5 ", [3, 4, 5]), ("all", list(range(1, 17))),
    ("boundary", [1, 2, 3, 4, 5, 8, 9, 12, 13, 14, 15, 16]), ("interior", [6, 7, 10, 11]),
    ("min-z", list(range(1, 13))), ("lowest", list(range(1, 13))), ("max-z", [13, 14, 15, 16]),
    ("highest", [13, 14, 15, 16]), ("min-x", [1, 5, 9, 13]), ("max-y", [13, 14, 15, 16]),
    ("min-x&min-y", [1]), ("max-x&max-y", [16]), ("min-x&min-y,max-x&min-y", [1, 4]),
    ("x=1", [2, 6, 10, 14]), ("x=1..2", [2, 3, 6, 7, 10, 11, 14, 15]), ("y=..0.5", [1, 2, 3, 4]),
    ("y=2.5..", [13, 14, 15, 16]), ("x=-1..0.2&y=1..2", [5, 9]),
    ("box(0,0,0,1,1,0)", [1, 2, 5, 6]), ("box(1,1,0,0,0,0)", [1, 2, 5, 6]), ("near(2.9,0.2,0)", [4]),
    ("near(-5,-5,-5)", [1]), ("corner(-x-y)", [1]), ("corner(+x+y)", [16]), ("corner(+x-y)", [4]),
    ("corner(+z-x)", [13]), ("panel(5)", [6, 7, 10, 11]), ("panel(1),panel(9)", [1, 2, 5, 6, 11, 12, 15, 16]),
    ("z=0.499~0.01", [13, 14, 15, 16]), ("x=0.9~0.2", [2, 6, 10, 14]), ("MIN-Z&X=0", [1, 5, 9]),
])
def test_selectors_pick_the_vertices_by_hand(text, expected):
    assert one(text) == expected


def test_the_default_tolerance_is_a_thousandth_of_the_size():
    """Rounded coordinates (1e-4 off) still make a row; a vertex 1 % of the size (4.3) off does not."""
    X = G.pattern.vertices.copy()
    X[4, 0] = 1e-4                               # vertex 5 slightly off x = 0: still in the first column
    X[8, 0] = 0.05                               # vertex 9 clearly off
    pat = G.pattern.with_vertices(X)
    assert (select(pat, "min-x") + 1).tolist() == [1, 5, 13]
    assert (select(pat, "min-x~0.1") + 1).tolist() == [1, 5, 9, 13]


def test_panel_selector_implies_the_panel():
    assert selection(G.pattern, "panel(5)").panel == 4
    assert selection(G.pattern, "6,7").panel is None
    sups = supports_from_text(G.pattern, "panel(5):z")
    assert {(s.vertex + 1, s.panel + 1, s.dofs) for s in sups} == {(6, 5, "z"), (7, 5, "z"), (10, 5, "z"),
                                                                   (11, 5, "z")}
    loads = loads_from_text(G.pattern, "panel(5):0,0,-1")
    assert all(ld.panel == 4 for ld in loads)


def test_support_and_load_text_forms():
    # default panel: the lowest-numbered panel at the vertex (vertex 6 is on panels 1, 2, 4, 5)
    assert supports_from_text(G.pattern, "6:zx") == (Support(5, 0, "xz"),)
    assert supports_from_text(G.pattern, "6:xyz:p5") == (Support(5, 4, "xyz"),)
    assert loads_from_text(G.pattern, "6:1,-2,3e-1") == (Load(5, (1.0, -2.0, 0.3), None),)
    assert loads_from_text(G.pattern, "6:1,2,3:p4") == (Load(5, (1.0, 2.0, 3.0), 3),)
    assert [s.vertex + 1 for s in supports_from_text(G.pattern, "min-z&min-y:z")] == [1, 2, 3, 4]
    for s in (Support(5, 4, "xz"), Support(0, 0, "y")):
        assert supports_from_text(G.pattern, support_text(s)) == (s,)
    for ld in (Load(5, (1.5, -2.0, 1e-7), 3), Load(15, (0.0, 0.0, -9.81), None)):
        assert loads_from_text(G.pattern, load_text(ld)) == (ld,)


BAD = [
    ("support", "lowst:xyz", "support 'lowst:xyz': unknown selector 'lowst': expected vertex numbers"),
    ("support", "x=9:xyz", "support 'x=9:xyz': selector 'x=9' selects no vertex (the vertices span x 0 .. 3"),
    ("support", "min-x&max-x:z", "selector 'min-x&max-x' selects no vertex"),
    ("support", "0:xyz", "support '0:xyz': vertex 0 does not exist: vertex numbers are 1-based, 1..16"),
    ("support", "17:xyz", "vertex 17 does not exist: vertex numbers are 1-based, 1..16"),
    ("support", "9-3:x", "vertex range '9-3' runs backwards (write 3-9)"),
    ("support", "6:xw", "the held directions must be a non-empty subset of xyz such as xyz or xz, got 'xw'"),
    ("support", "6:xx", "non-empty subset of xyz"),
    ("support", "6:xyz:p9", "support '6:xyz:p9': vertex 6 is not a vertex of panel 9 (its panels: 1, 2, 4, 5)"),
    ("support", "6:xyz:p10", "panel 10 does not exist (panels 1..9)"),
    ("support", "6:xyz:panel", "the third part must be pP, a panel number such as p3, got 'panel'"),
    ("support", "6", "support '6': expected SELECTOR:DOFS or SELECTOR:DOFS:pP"),
    ("support", "box(1,2):x", "box(x0,y0,z0,x1,y1,z1) takes 6 numbers, got 2"),
    ("support", "near(1,2,3:x", "a '(' without its ')'"),
    ("support", "1,,2:x", "an empty item between commas"),
    ("support", "panel(12):x", "panel 12 does not exist: panel numbers are 1-based, 1..9"),
    ("support", "corner(xy):x", "corner() takes signed axes such as -x-y"),
    ("support", "min-z~-1:x", "the tolerance after '~' must be 0 or more"),
    ("load", "6:nan,0,0", "load '6:nan,0,0': the force must be three finite numbers, got 'nan'"),
    ("load", "6:1,inf,0", "the force must be three finite numbers, got 'inf'"),
    ("load", "6:1,2", "the force must be three numbers FX,FY,FZ, got '1,2'"),
    ("load", "6:1,2,3e60", "3e60 is beyond the largest accepted magnitude 1e+50"),
    ("load", "6:1,2,3:p9", "load '6:1,2,3:p9': vertex 6 is not a vertex of panel 9 (its panels: 1, 2, 4, 5)"),
]


@pytest.mark.parametrize("what, text, message", BAD, ids=[b[1] for b in BAD])
def test_bad_forms_are_one_line_naming_them(what, text, message):
    parse = supports_from_text if what == "support" else loads_from_text
    with pytest.raises(BoundaryError) as info:
        parse(G.pattern, text)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_structure_methods_return_new_structures():
    s = G.with_supports("min-y:z", "1:xy", "4:y").with_loads("max-z:0,0,-1").with_self_weight(thickness=0.1,
                                                                                             density=2.0)
    assert G.supports == () and G.loads == () and G.gravity is None          # the original is unchanged
    assert [(x.vertex + 1, x.panel + 1, x.dofs) for x in s.supports] == [(1, 1, "z"), (2, 1, "z"), (3, 2, "z"),
                                                                         (4, 3, "z"), (1, 1, "xy"), (4, 3, "y")]
    assert s.origins("supports") == ("added",) * 6
    assert [ld.vertex + 1 for ld in s.loads] == [13, 14, 15, 16] and s.gravity == (0.0, 0.0, -9.81)
    assert s.thickness == (0.1,) * 9 and s.density == 2.0
    t = s.with_supports("2:x", replace=True, origin="--support")
    assert t.supports == (Support(1, 0, "x"),) and t.origins("supports") == ("--support",)
    assert s.with_loads(replace=True).loads == ()
    assert (G.select("max-x&max-y") == [15]).all()
    with pytest.raises(StructureError, match="vertex 1 is supported twice in direction z"):
        s.with_supports("1:z")
    with pytest.raises(StructureError, match="self-weight: every panel has zero thickness"):
        G.with_self_weight()
    with pytest.raises(StructureError, match="self-weight: the density is 0"):
        G.with_self_weight(thickness=0.1, density=0)


# ------------------------------------------------------------------ Hypothesis: the selector language
FACTORS = ["all", "boundary", "interior", "lowest", "highest"] + [f"{e}-{a}" for e in ("min", "max") for a in "xyz"]
coordinate = st.floats(-1.0, 4.0, allow_nan=False).map(lambda x: round(x, 3))


@st.composite
def factor(draw):
    kind = draw(st.sampled_from(["number", "range", "word", "plane", "slab", "box", "near", "corner", "panel"]))
    if kind == "number":
        return str(draw(st.integers(1, 16)))
    if kind == "range":
        a = draw(st.integers(1, 16))
        return f"{a}-{draw(st.integers(a, 16))}"
    if kind == "word":
        return draw(st.sampled_from(FACTORS))
    if kind == "plane":
        return f"{draw(st.sampled_from('xyz'))}={draw(st.sampled_from([0, 1, 2, 3, 0.5]))}"
    if kind == "slab":
        a = draw(coordinate)
        return f"{draw(st.sampled_from('xyz'))}={a}..{a + draw(st.floats(0, 3).map(lambda x: round(x, 3)))}"
    if kind == "box":
        return "box(" + ",".join(str(draw(coordinate)) for _ in range(6)) + ")"
    if kind == "near":
        return "near(" + ",".join(str(draw(coordinate)) for _ in range(3)) + ")"
    if kind == "corner":
        axes = draw(st.lists(st.sampled_from("xyz"), min_size=1, max_size=3, unique=True))
        return "corner(" + "".join(draw(st.sampled_from("+-")) + a for a in axes) + ")"
    return f"panel({draw(st.integers(1, 9))})"


def evaluate(text):
    """The selector's vertex set, or None when it selects nothing or raises."""
    try:
        return set(select(G.pattern, text).tolist())
    except BoundaryError:
        return None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(factor(), min_size=1, max_size=3), min_size=1, max_size=3))
def test_union_of_intersections(terms):
    """',' is the union of the terms, '&' the intersection of the factors; a term that selects nothing is an error."""
    sets = []
    for term in terms:
        s = None
        for f in term:
            v = evaluate(f)
            assert v is None or (v and all(0 <= i < 16 for i in v))
            s = (v or set()) if s is None else s & (v or set())
        sets.append(s)
    text = ",".join("&".join(t) for t in terms)
    got = evaluate(text)
    if any(not s for s in sets):
        assert got is None
    else:
        assert got == set().union(*sets)
        assert (select(G.pattern, text) == sorted(got)).all()      # sorted, unique, 0-based


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=string.printable, max_size=30))
def test_any_text_selects_vertices_or_is_a_one_line_error(text):
    try:
        v = select(G.pattern, text)
    except BoundaryError as e:
        assert "\n" not in str(e)
        return
    assert len(v) and v.min() >= 0 and v.max() < 16 and (np.diff(v) > 0).all()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from("xyz"), min_size=1, max_size=3, unique=True), st.integers(1, 16))
def test_dofs_in_any_order_read_as_xyz_order(dofs, v):
    d = "".join(dofs)
    assert parse_dofs(d.upper() if v % 2 else d) == "".join(a for a in "xyz" if a in dofs)
    (s,) = supports_from_text(G.pattern, f"{v}:{d}")
    assert s.vertex == v - 1 and set(s.dofs) == set(dofs) and s.panel == G.pattern.vertex_panels[v - 1][0]


finite = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)


@settings(max_examples=200, deadline=None)
@given(st.tuples(finite, finite, finite), st.integers(1, 16), st.booleans())
def test_a_load_reads_back_from_its_text(force, v, on_panel):
    p = G.pattern.vertex_panels[v - 1][-1] if on_panel else None
    ld = Load(v - 1, force, p)
    (back,) = loads_from_text(G.pattern, load_text(ld))
    assert back.vertex == ld.vertex and back.panel == ld.panel
    np.testing.assert_allclose(back.force, force, rtol=1e-9, atol=0)


# ------------------------------------------------------------------ Hypothesis: the command-line options
def parse(argv):
    ap = inputs.add_structure_options(argparse.ArgumentParser(exit_on_error=False))
    return ap.parse_args(argv)


option_value = st.one_of(st.text(alphabet=string.ascii_letters + string.digits + ",.:-=&()~+ ", max_size=24),
                         st.builds(lambda f, d: f"{f}:{d}", factor(), st.sampled_from(["xyz", "z", "xq", ""])),
                         st.builds(lambda f, x: f"{f}:{x}", factor(), st.sampled_from(["0,0,-1", "1,nan,0", "1,2"])))


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(["--support", "--load"]), option_value), max_size=4),
       st.booleans(), st.booleans())
def test_options_apply_or_fail_with_one_usage_line(pairs, replace_supports, self_weight):
    """Any --support/--load values: the structure gets exactly what they select, or one UsageError line (exit 2)."""
    argv = [f"{o}={v}" for o, v in pairs] + (["--replace-supports"] if replace_supports else [])
    argv += ["--self-weight", "--thickness", "0.01"] if self_weight else []
    args = parse(argv)
    base = G.with_supports("1:xyz")
    try:
        s = inputs.with_structure_options(base, args, out=open("/dev/null", "w"))
    except app.UsageError as e:
        assert "\n" not in str(e) and str(e).startswith("--")
        assert app.exit_code(e) == app.EXIT_USAGE
        return
    n_sup = sum(len(supports_from_text(G.pattern, v)) for o, v in pairs if o == "--support" and v.strip() != "auto")
    assert len(s.supports) >= n_sup + (0 if replace_supports else 1)
    assert len(s.loads) == sum(len(loads_from_text(G.pattern, v)) for o, v in pairs if o == "--load")
    assert (s.gravity is not None) == self_weight


def test_one_axis_corners_break_ties_by_the_lowest_vertex_number_on_the_command_line(tmp_path, capsys):
    """``corner(-x)`` on the grid: vertices 1, 5, 9 and 13 all lie at x = 0, so the tie goes to the lowest number,
    1 (on panel 1); ``corner(+y)``: 13 to 16 at y = 3, so 13 (on panel 7); ``corner(-z)``: 1 to 12 at z = 0, so 1.
    Read from the ``supports:`` table that ``count`` prints, as a user does."""
    import json

    from chrono_origami import cli

    X = G.pattern.vertices.tolist()
    path = tmp_path / "grid.fold"
    path.write_text(json.dumps({"file_spec": 1.1, "file_creator": "a text editor", "vertices_coords": X,
                                "faces_vertices": [list(map(int, p)) for p in G.pattern.panels]}))
    for selector, panel, vertex in (("corner(-x)", 1, 1), ("corner(+y)", 7, 13), ("corner(-z)", 1, 1),
                                    ("corner(+z)", 7, 13)):
        code = cli.main(["count", str(path), "--engine", "reference", "--support", f"{selector}:xyz"])
        out = capsys.readouterr().out
        assert code == 0
        rows = out.split("1-based as in supports.csv:\n", 1)[1].splitlines()
        assert rows[0].split() == ["panel", "vertex", "held", "from"]
        assert rows[1].split() == [str(panel), str(vertex), "xyz", "--support"], (selector, rows[:3])
