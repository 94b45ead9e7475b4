"""Paper-style tables and the comparison rule for the paper's rows."""
import csv
import io

import numpy as np

from chrono_origami.cli import static
from chrono_origami.patterns import miura, simple
from chrono_origami.engines.reference.count import count
from chrono_origami.engines.compatibility import self_stress_actions
from chrono_origami.engines.reference.static import solve
from chrono_origami.report import tables
from chrono_origami.structure.structure import Structure

import paper_compare as compare

ROWS = [(1, 2, 1.1261, -7.3184e-18, 2.0638, 0.24004, 7.2964e-05, -0.13053),
        (16, 11, -4.182, -1.2295e-16, -7.6601, -4.9841, 12.588, 2.7246)]


def test_csv_has_the_contract_header_and_every_digit():
    text = tables.csv_text(tables.HINGE_HEADER, ROWS)
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["hinge", "panel", "MT", "MP", "MO", "N", "TP", "TO"]
    assert rows[1] == ["1", "2", "1.1261", "-7.3184e-18", "2.0638", "0.24004", "7.2964e-05", "-0.13053"]
    np.testing.assert_allclose([float(x) for x in rows[2][2:]], ROWS[1][2:], rtol=5e-5)


def read_numbers(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    return rows[0], [[float(x) for x in r] for r in rows[1:]]


def test_csv_files_keep_full_precision(tmp_path):
    """hinges.csv, supports.csv and self_stress.csv read back to the very floats computed (not 5 or 7 digits)."""
    rows = [(1, 2, 1 / 3, -2.0 ** -40, 12.588000000000001, np.pi, -7.0432e-17, np.float64(1e300) / 7)]
    back = [float(x) for x in list(csv.reader(io.StringIO(tables.csv_text(tables.HINGE_HEADER, rows))))[1][2:]]
    assert back == [float(x) for x in rows[0][2:]]
    s = miura.miura_cantilever_from_vertices(miura.TABLE1_VERTICES)
    result = solve(s)
    tables.write_results(result, tmp_path)
    header, hinges = read_numbers(tmp_path / "hinges.csv")
    assert hinges == [[float(x) for x in r] for r in result.hinge_rows()]
    header, supports = read_numbers(tmp_path / "supports.csv")
    assert supports == [[float(x) for x in r] for r in result.support_rows()]
    ring = Structure(simple.rectangular_ring(), name="four-panel ring")
    counts = count(ring)
    static.write_self_stress(ring, counts, str(tmp_path), out=io.StringIO())
    header, states = read_numbers(tmp_path / "self_stress.csv")
    assert header == ["state"] + list(tables.HINGE_HEADER) and counts.S == 3
    expect = [[k + 1, a.hinge + 1, a.panel + 1, *a.values]
              for k, acts in enumerate(self_stress_actions(ring, counts)) for a in acts]
    assert states == [[float(x) for x in r] for r in expect]


def test_text_markdown_and_latex_tables():
    txt = tables.text_table(tables.HINGE_HEADER, ROWS, "Table 2")
    lines = txt.splitlines()
    assert lines[0] == "Table 2" and lines[1].split() == list(tables.HINGE_HEADER)
    assert lines[3].split() == ["1", "2", "1.1261e+00", "0.0000e+00", "2.0638e+00", "2.4004e-01", "7.2964e-05",
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


def test_printed_tables_show_round_off_as_zero():
    """Entries below 1e-12 of the table's largest magnitude print as 0 (no sign); larger ones and the CSV are kept."""
    rows = [(1, 1, 12.5, 7.0432e-17, -1.5407e-33, -0.0, 1.3e-11, -2.0e-12),
            (2, 1, -3.0, 2.0e-11, 0.0, 1.2e-13, -1.24e-11, 4.0)]          # 1e-12 of 12.5: 1.25e-11
    clean = ["1.2500e+01", "0.0000e+00", "0.0000e+00", "0.0000e+00", "1.3000e-11", "0.0000e+00"]
    txt = tables.text_table(tables.HINGE_HEADER, rows).splitlines()
    assert txt[2].split()[2:] == clean
    assert txt[3].split()[2:] == ["-3.0000e+00", "2.0000e-11", "0.0000e+00", "0.0000e+00", "0.0000e+00", "4.0000e+00"]
    md = tables.markdown_table(tables.HINGE_HEADER, rows).splitlines()
    assert md[2] == "| 1 | 1 | " + " | ".join(clean) + " |"
    tex = tables.latex_table(tables.HINGE_HEADER, rows)
    assert "1 & 1 & " + " & ".join(f"${c}$" for c in clean) + r" \\" in tex
    back = list(csv.reader(io.StringIO(tables.csv_text(tables.HINGE_HEADER, rows))))
    assert [float(x) for x in back[1][2:]] == list(rows[0][2:])                # the CSV keeps the raw values
    # the scale is the table's: alone, a row of round-off is printed as it is
    assert tables.text_table(tables.HINGE_HEADER, [(1, 1, 7.0432e-17, 0, 0, 0, 0, 0)]).split()[-6] == "7.0432e-17"
