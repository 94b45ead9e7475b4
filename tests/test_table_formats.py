"""One table record, one writer (``report.write``): every command that writes tables takes ``--out DIR --format
csv|json|parquet``, and its JSON (``json.load``; ``pandas.read_json(orient="table", precise_float=True)``) and
Parquet (``pandas.read_parquet``) tables read back to the CSV's numbers exactly (floats compared with ==, NaN
where the CSV has nan or an empty cell), with the CSV's first line (a minimum-norm or elastic answer's label) as
``meta["comment"]``. The CSV itself is parsed here by the standard library (``csv``, ``float``), not by pandas."""
import csv
import glob
import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest

from chrono_origami import cli
from chrono_origami.cli import app
from chrono_origami.report import write
from chrono_origami.results.table import Table

pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from test_cli import hand_fold  # noqa: E402
from test_cli_tolerance import strip_fold  # noqa: E402

SWEEP = """\
[sweep]
seed = 3

[[pattern]]
family = "miura"
rows = 2
columns = 2
fold_angle = 45.0

[design]
designs = ["door"]

[tolerance]
tol = 1e-4
samples = 2
"""


# ------------------------------------------------------------------ reading back
def csv_value(text):
    """A CSV cell as the standard library reads it: empty -> None, true/false, an integer, a float, else text."""
    if text == "":
        return None
    if text in ("true", "false"):
        return text == "true"
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


def read_csv(path):
    """(comment line without '# ' or None, header, rows of values)."""
    with open(path, newline="") as f:
        lines = f.read().splitlines()
    comment = lines[0][2:] if lines and lines[0].startswith("# ") else None
    body = list(csv.reader(lines[1:] if comment is not None else lines))
    return comment, tuple(body[0]), [[csv_value(c) for c in r] for r in body[1:]]


def missing(x):
    return x is None or (isinstance(x, float) and math.isnan(x))


def same(expected, got):
    """``got`` (a value read back) is the CSV's ``expected`` exactly: == for numbers, NaN/None where missing (an
    empty CSV cell is also an empty text: the sweep's ``sliding_hinges`` of a design without any)."""
    if expected is None and got == "":
        return True
    if missing(expected):
        return missing(got)
    if isinstance(got, np.generic):
        got = got.item()
    if isinstance(expected, bool) or isinstance(got, bool):
        return expected is got or (isinstance(got, str) and got == str(expected).lower())
    if isinstance(expected, str) or isinstance(got, str):
        return str(expected) == str(got)
    if isinstance(expected, int) and isinstance(got, int):
        return expected == got
    return float(expected) == float(got)


def check_table(csv_path, other, fmt):
    """``other`` (the JSON or Parquet file of the table ``csv_path``) holds the CSV's columns, rows and label."""
    comment, header, rows = read_csv(csv_path)
    if fmt == "json":
        with open(other) as f:
            doc = json.load(f)
        assert doc["name"] == os.path.basename(csv_path)[:-4]
        assert tuple(fd["name"] for fd in doc["schema"]["fields"]) == header
        assert doc["meta"].get("comment") == comment
        assert len(doc["data"]) == len(rows)
        for r, d in zip(rows, doc["data"]):
            assert all(same(x, d[c]) for x, c in zip(r, header)), (other, r, d)
        frame = pd.read_json(other, orient="table", precise_float=True)
    else:
        meta = write.parquet_meta(other)
        assert meta["name"] == os.path.basename(csv_path)[:-4] and meta["meta"].get("comment") == comment
        frame = pd.read_parquet(other)
    assert tuple(frame.columns) == header and len(frame) == len(rows), other
    for k, c in enumerate(header):
        got = frame[c].tolist()
        bad = [(i, r[k], g) for i, (r, g) in enumerate(zip(rows, got)) if not same(r[k], g)]
        assert bad == [], (other, c, bad[:3])


# ------------------------------------------------------------------ the writer itself
def crafted():
    floats = [0.1, 1 / 3, -2.5e-300, 1.7976931348623157e308, 2.2250738585072014e-308, math.pi * 1e17, -0.0,
              float("nan"), float("inf"), -float("inf"), 6.02214076e23]
    rows = [(k + 1, x, f"s{k}", k % 2 == 0, None if k == 3 else k) for k, x in enumerate(floats)]
    return Table("crafted", ("n", "x", "text", "flag", "maybe"), rows, {"comment": "a label", "units": {"x": "m"}})


@pytest.mark.parametrize("fmt", ["json", "parquet"])
def test_every_float_reads_back_exactly(tmp_path, fmt):
    """Digits the shortest repr needs all 17 of, extremes, -0.0, NaN and infinities; a missing integer."""
    t = crafted()
    (c,) = write.write_tables([t], tmp_path / "csv")
    (o,) = write.write_tables([t], tmp_path / fmt, fmt)
    assert os.path.basename(o) == f"crafted.{fmt}"
    check_table(c, o, fmt)
    assert t.types == ("integer", "number", "string", "boolean", "number")


def test_the_check_fails_on_a_float_one_unit_off(tmp_path):
    """The comparison above can fail: one float moved by one unit in the last place is found."""
    t = crafted()
    (c,) = write.write_tables([t], tmp_path / "csv")
    rows = list(t.rows)
    rows[0] = (1, np.nextafter(0.1, 1.0), *rows[0][2:])
    (o,) = write.write_tables([Table(t.name, t.columns, rows, t.meta)], tmp_path / "json", "json")
    with pytest.raises(AssertionError):
        check_table(c, o, "json")


def test_csv_is_the_projects_csv(tmp_path):
    """The csv format: the comment line, integers as integers, repr floats, true/false, an empty missing cell."""
    (c,) = write.write_tables([Table("t", ("a", "b", "c", "d"), [(1, 0.1, True, None), (2, float("nan"), False, 3)],
                                     {"comment": "two  words"})], tmp_path)
    assert open(c).read() == "# two words\na,b,c,d\n1,0.1,true,\n2,nan,false,3\n"


def test_a_write_is_atomic(tmp_path, monkeypatch):
    """A format that fails half-way leaves the old file as it was and no temporary file."""
    path = write.write_table(Table("t", ("a",), [(1,)]), str(tmp_path / "t.csv"))
    before = open(path).read()

    def broken(table, tmp):
        with open(tmp, "w") as f:
            f.write("a\n")
        raise OSError("disk full")

    monkeypatch.setitem(write.FORMATS, "broken", write.Format("csv", broken))
    with pytest.raises(OSError, match="disk full"):
        write.write_table(Table("t", ("a",), [(2,)]), path, "broken")
    assert open(path).read() == before and os.listdir(tmp_path) == ["t.csv"]


def test_a_row_of_the_wrong_width_is_refused():
    with pytest.raises(ValueError, match="row 2"):
        Table("t", ("a", "b"), [(1, 2), (3,)])


def strict_json(path):
    """``path`` parsed as JSON that holds no NaN (RFC 8259 has none; ``json.load`` and pandas accept it): the
    documented infinities (``Infinity``) pass, a ``NaN`` raises."""
    def constant(name):
        if name == "NaN":
            raise ValueError(f"{path}: NaN is not JSON")
        return float(name)

    with open(path) as f:
        return json.load(f, parse_constant=constant)


def test_json_writes_nan_as_null(tmp_path):
    """NaN in a cell and in meta is written ``null`` (a file with ``NaN`` is not JSON, though ``json.load`` and
    pandas read it); infinities as the documented ``Infinity``."""
    t = Table("t", ("x",), [(float("nan"),), (np.float64("nan"),), (float("inf"),), (1.5,)],
              {"comment": "c", "worst": float("nan")})
    (o,) = write.write_tables([t], tmp_path, "json")
    doc = strict_json(o)
    assert [d["x"] for d in doc["data"]] == [None, None, float("inf"), 1.5] and doc["meta"]["worst"] is None
    assert "NaN" not in open(o).read()


def test_parquet_any_column_holds_the_csv_cells(tmp_path):
    """An ``any`` column (mixed cells, or booleans with a missing one) is written as the CSV's cell text: ``true``,
    ``false``, integers and repr floats as in the CSV, a missing cell as null."""
    t = Table("t", ("mixed", "flag"), [(True, False), ("door", None), (3, True), (0.1, True)])
    assert t.types == ("any", "any")
    (o,) = write.write_tables([t], tmp_path, "parquet")
    frame = pd.read_parquet(o)
    assert frame["mixed"].tolist() == ["true", "door", "3", "0.1"]
    flag = frame["flag"].tolist()
    assert flag[0] == "false" and missing(flag[1]) and flag[2:] == ["true", "true"]
    (c,) = write.write_tables([t], tmp_path, "csv")
    check_table(c, o, "parquet")


@pytest.mark.parametrize("types, read", [(("integer",), [1.0, None]), (("boolean",), [True, None])])
def test_explicit_types_with_a_missing_cell_read_back_in_json(tmp_path, types, read):
    """``Table(..., types=...)`` given explicitly: an integer column with a missing cell is a ``number`` in the JSON
    schema (``pandas.read_json`` refuses an integer field holding null), a boolean one ``any``; the rows read back
    (NaN or None where missing)."""
    t = Table("t", ("a",), [(1 if types == ("integer",) else True,), (None,)], types=types)
    assert t.types == types
    (o,) = write.write_tables([t], tmp_path, "json")
    doc = strict_json(o)
    assert doc["schema"]["fields"][0]["type"] == {"integer": "number", "boolean": "any"}[types[0]]
    got = pd.read_json(o, orient="table", precise_float=True)["a"].tolist()
    assert got[0] == read[0] and missing(got[1])
    (c,) = write.write_tables([t], tmp_path, "csv")
    check_table(c, o, "json")


# ------------------------------------------------------------------ every command
@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    d = tmp_path_factory.mktemp("inputs")
    (d / "pair.fold").write_text(json.dumps(hand_fold()))
    (d / "strip.fold").write_text(json.dumps(strip_fold()))
    (d / "measured.csv").write_text("hinge,panel,position\n1,1,1e-4\n")
    (d / "spec.toml").write_text(SWEEP)
    return d


#: (id, argv with {d} the inputs' folder, the tables the command writes)
COMMANDS = [
    ("static", "static {d}/pair.fold --engine reference", {"hinges", "supports"}),
    ("static-min-norm", "static {d}/strip.fold --engine reference --min-norm", {"hinges", "supports", "self_stress"}),
    ("static-elastic", "static {d}/strip.fold --engine reference --elastic",
     {"hinges", "supports", "self_stress", "displacements"}),
    ("tolerance", "tolerance {d}/strip.fold --tol 1e-4 --samples 3 --scheduler serial --engine reference",
     {"locked_in", "summary", "monte_carlo"}),
    ("tolerance-measured", "tolerance {d}/strip.fold --measured {d}/measured.csv --engine reference", {"hinges"}),
    ("dynamics", "dynamics {d}/pair.fold --engine reference --time 0.02 --dt 0.01 --quiet",
     {"energy", "momentum", "constraints", "hinges_t", "supports_t"}),
    ("fold", "fold {d}/strip.fold --engine reference --angle-deg 30 --drive 1-2 --time 0.1 --frames 3 --quiet",
     {"vertices", "steps"}),
    ("sweep", "sweep {d}/spec.toml --scheduler serial", {"results"}),
]


def run(argv, out, fmt, capsys):
    code = cli.main(argv + ["--out", str(out), "--format", fmt])
    capsys.readouterr()
    return code


@pytest.mark.parametrize("name, argv, names", COMMANDS, ids=[c[0] for c in COMMANDS])
def test_every_command_writes_its_tables_in_every_format(inputs, tmp_path, capsys, name, argv, names):
    argv = argv.format(d=inputs).split()
    assert run(argv, tmp_path / "csv", "csv", capsys) == 0
    csvs = {os.path.basename(p)[:-4]: p for p in glob.glob(str(tmp_path / "csv" / "*.csv"))}
    assert set(csvs) == names
    for fmt in ("json", "parquet"):
        # the sweep runs again in its folder: every case is there, the table is rebuilt from the stored rows (a
        # new run would time the cases anew: wall_s, cpu_s)
        out = tmp_path / ("csv" if name == "sweep" else fmt)
        assert run(argv, out, fmt, capsys) == 0
        written = {os.path.basename(p).rsplit(".", 1)[0] for p in glob.glob(str(out / f"*.{fmt}"))} - {"counts"}
        assert written == names
        if name != "sweep":
            assert not glob.glob(str(out / "*.csv")), f"{fmt}: a CSV file written too"
        for n, path in csvs.items():
            check_table(path, str(out / f"{n}.{fmt}"), fmt)


def test_the_label_of_an_answer_not_determined_is_in_every_format(inputs, tmp_path, capsys):
    """The minimum-norm answer's CSV first line is the JSON's and Parquet's ``meta["comment"]``, with its status."""
    argv = f"static {inputs}/strip.fold --engine reference --min-norm".split()
    for fmt in ("csv", "json"):
        assert run(argv, tmp_path / fmt, fmt, capsys) == 0
    first = open(tmp_path / "csv" / "hinges.csv").readline()
    assert first.startswith("# minimum-norm answer, NOT determined")
    meta = json.load(open(tmp_path / "json" / "hinges.json"))["meta"]
    assert "# " + meta["comment"] + "\n" == first and meta["status"] == "minimum-norm" and meta["engine"] == "reference"


def test_count_writes_counts_json_in_every_format(inputs, tmp_path, capsys):
    """counts.json (a summary, not a table) is JSON whatever --format; nothing else."""
    argv = f"count {inputs}/pair.fold --engine reference".split()
    for fmt in ("csv", "parquet"):
        assert run(argv, tmp_path / fmt, fmt, capsys) == 0
        assert os.listdir(tmp_path / fmt) == ["counts.json"]
    assert open(tmp_path / "csv" / "counts.json").read() == open(tmp_path / "parquet" / "counts.json").read()


# ------------------------------------------------------------------ a new format is one file
def command_parsers():
    """{name: parser} of every command, and of the scenes' shared parsers (static, dynamics, modal)."""
    from chrono_origami.cli import dynamics, modal as modes, static

    out = {name: options(help) for name, (help, options, _) in app._COMMANDS.items()}
    out["static scene"] = static.parser("scene")
    out["dynamics scene"] = dynamics.run_options(app.parser("scene"), 1.0, 0.1)
    out["paper scene"] = dynamics.paper_options(app.parser("scene"), 1e-3, 1.0)
    out["modal scene"] = modes.parser("scene")
    return out


def test_a_toy_format_registered_in_one_file_is_on_every_command(inputs, tmp_path, capsys, monkeypatch):
    """A format is one function registered in one place (tests/toy_format.py): every command that writes
    tables (every parser with --out) offers it, and static writes its tables in it."""
    monkeypatch.setattr(write, "FORMATS", dict(write.FORMATS))
    import toy_format

    toy_format.register()
    with_out = {n: p for n, p in command_parsers().items()
                if any("--out" in a.option_strings for a in p._actions)}
    assert set(with_out) >= {"static", "count", "tolerance", "dynamics", "fold", "sweep", "static scene",
                             "dynamics scene", "paper scene", "modal scene"}
    for name, p in with_out.items():
        (fmt,) = [a for a in p._actions if "--format" in a.option_strings]
        assert "toy" in fmt.choices and fmt.default == "csv", name
    argv = f"static {inputs}/pair.fold --engine reference".split()
    assert run(argv, tmp_path, "toy", capsys) == 0
    assert sorted(os.listdir(tmp_path)) == ["counts.json", "hinges.toy", "supports.toy"]
    assert open(tmp_path / "supports.toy").read().splitlines()[0] == "supports: panel vertex Fx Fy Fz"


def test_an_unknown_format_is_a_usage_error(inputs, capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(f"static {inputs}/pair.fold --out x --format xlsx".split())
    assert e.value.code == 2 and "--format: invalid choice: 'xlsx'" in capsys.readouterr().err


# ------------------------------------------------------------------ one figure saver
def test_every_figure_goes_through_the_one_saver():
    """``report.figures.save_figure`` (one dpi, ``FIGURE_DPI``) is the only place that calls ``savefig``."""
    calls = subprocess.run(["grep", "-rn", "savefig(", os.path.join(ROOT, "chrono_origami")],
                           capture_output=True, text=True).stdout.splitlines()
    assert [c for c in calls if "report/figures.py" not in c] == []
    assert sum("savefig(" in line for line in open(os.path.join(ROOT, "chrono_origami", "report", "figures.py"))) == 1


def test_the_modes_table_in_every_format(tmp_path):
    """modes (the modal scenes' --out; ``ModalResult.table``): sorted by frequency, zero modes left out, a
    boolean column; JSON and Parquet read back to its CSV."""
    from types import SimpleNamespace

    from chrono_origami.report import modal as report_modes
    from chrono_origami.results.modal import ModalResult, Mode

    lams = [complex(-0.01, 2 * math.pi * 3.1), complex(0.0, 0.0), complex(0.2, 0.0), complex(-1e-3, 1 / 3)]
    kinds = ["oscillatory", "zero", "unstable", "oscillatory"]
    r = ModalResult([Mode(lam, k, np.zeros(6)) for lam, k in zip(lams, kinds)],
                    SimpleNamespace(use_tangent_stiffness=True), "nullspace")
    c = report_modes.write_modes_csv(r, str(tmp_path / "modes.csv"))
    assert open(c).read().splitlines()[:2] == ["mode,eig_real,eig_imag,freq_hz,stable", "1,0.2,0.0,0.0,false"]
    for fmt in ("json", "parquet"):
        (o,) = write.write_tables([r.table()], tmp_path / fmt, fmt)
        check_table(c, o, fmt)


def test_a_paper_scene_writes_its_tables_in_every_format(tmp_path):
    """The dynamics paper scenes' --out (``cli.dynamics.paper_options``): invariants and conditioning."""
    def scene(out, *more):
        env = dict(os.environ, PYTHONPATH=ROOT, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
        argv = [sys.executable, os.path.join(ROOT, "scenes", "planar_pair.py"), "--dt", "0.001", "--time", "0.01",
                "--scheme", "constrained", "--out", str(out), *more]
        p = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=300)
        assert p.returncode == 0, p.stderr

    scene(tmp_path / "csv")
    assert sorted(os.listdir(tmp_path / "csv")) == ["conditioning.csv", "invariants.csv"]
    for fmt in ("json", "parquet"):
        scene(tmp_path / fmt, "--format", fmt)
        for n in ("conditioning", "invariants"):
            check_table(str(tmp_path / "csv" / f"{n}.csv"), str(tmp_path / fmt / f"{n}.{fmt}"), fmt)
