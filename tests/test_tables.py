"""Paper-style tables and the comparison rule for the paper's rows."""
import csv
import io

import numpy as np

from chrono_origami.report import tables

import paper_compare as compare

ROWS = [(1, 2, 1.1261, -7.3184e-18, 2.0638, 0.24004, 7.2964e-05, -0.13053),
        (16, 11, -4.182, -1.2295e-16, -7.6601, -4.9841, 12.588, 2.7246)]


def test_csv_has_the_contract_header_and_paper_format():
    text = tables.csv_text(tables.HINGE_HEADER, ROWS)
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["hinge", "panel", "MT", "MP", "MO", "N", "TP", "TO"]
    assert rows[1] == ["1", "2", "1.1261e+00", "-7.3184e-18", "2.0638e+00", "2.4004e-01", "7.2964e-05", "-1.3053e-01"]
    np.testing.assert_allclose([float(x) for x in rows[2][2:]], ROWS[1][2:], rtol=5e-5)


def test_text_markdown_and_latex_tables():
    txt = tables.text_table(tables.HINGE_HEADER, ROWS, "Table 2")
    lines = txt.splitlines()
    assert lines[0] == "Table 2" and lines[1].split() == list(tables.HINGE_HEADER)
    assert lines[3].split() == ["1", "2", "1.1261e+00", "-7.3184e-18", "2.0638e+00", "2.4004e-01", "7.2964e-05",
                                "-1.3053e-01"]
    md = tables.markdown_table(tables.SUPPORT_HEADER, [(11, 19, -6.8092, 1.0571, 0.50081)]).splitlines()
    assert md[0] == "| panel | vertex | Fx | Fy | Fz |" and md[2] == "| 11 | 19 | -6.8092e+00 | 1.0571e+00 | 5.0081e-01 |"
    tex = tables.latex_table(tables.HINGE_HEADER, ROWS, caption="Internal actions")
    assert r"\begin{tabular}{rrrrrrrr}" in tex and r"$M_T$ & $M_P$" in tex
    assert r"16 & 11 & $-4.1820e+00$" in tex and tex.count(r"\\") == 3


def test_row_match_allows_one_sign_per_axis_and_nothing_else():
    ours = np.array(ROWS[1][2:])
    s = np.array([-1.0, 1.0, -1.0])   # rotation by pi about t: n and m reversed, moment and force alike
    paper = np.concatenate([s, s]) * ours
    assert np.array_equal(compare.row_match(ours, paper, 1e-12), s)
    assert compare.row_match(ours, -ours, 1e-12) is not None           # whole row reversed
    wrong = paper.copy()
    wrong[0] *= -1                                                      # moment and force disagree on n
    assert compare.row_match(ours, wrong, 1e-6) is None
    swapped = paper[[1, 0, 2, 3, 4, 5]]                                 # components swapped
    assert compare.row_match(ours, swapped, 1e-6) is None
    assert compare.row_distance(ours, paper * 1.001) > 1e-3


def test_table_tolerance_is_relative_to_the_largest_entry():
    rows = [np.array(r, float) for r in ROWS]
    assert compare.table_tolerance(rows, slice(2, 8)) == 2e-4 * 12.588
