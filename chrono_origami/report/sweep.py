"""A sweep's output folder: rows written as they arrive, the table, its CSV and its figures (``docs/sweeps.md``).

Folder layout (:class:`Store`):

* ``parts/part-<run>-<n>.parquet``: the rows, one Parquet file per batch of
  finished cases (``<run>``: the run's start in ns and process id, so names
  sort in the order written; the latest row of a case wins), each written
  to a hidden temporary name, flushed to disk
  and renamed (``os.replace``, atomic): a process killed at any moment leaves
  whole part files and at most a hidden temporary one, which is ignored and
  removed by the next run. Part files are never rewritten.
* ``results.parquet`` and ``results.csv``: the table, rebuilt after a batch
  (the same write-then-rename; ``cli.sweep`` spaces the rebuilds of a large
  table out, and always writes it at the end), one row per case of the
  spec, **in the spec's case order** (column ``case``), whatever order the
  cases finished in: a serial and a distributed run of a seeded spec write
  the same table but for ``wall_s`` and ``cpu_s``. The CSV goes through the project's CSV
  writer (``report.tables``: every float reads back to the float computed;
  an empty cell is a value not computed).
* ``.lock``: held (``flock``) while a sweep writes the folder: a second sweep on
  the same folder stops with a one-line error. A run that stops before its
  first row (an unreachable scheduler) removes the folder it created.

A case already in the parts is not run again (its ``case_id``); with
``retry_failed`` a case whose row has an ``error`` runs again and its new row
replaces the old one in the table (the latest part wins).

Figures (matplotlib, headless): :func:`distribution_plot` (the distribution
of the largest locked-in force over cases, one histogram per design: door
against isostatic) and :func:`xy_plot` (any column against any other).
"""
import glob
import math
import os
import time

from ..tools.errors import StoreError
from ..results.table import Table
from .figures import _backend, save_figure
from .write import DEFAULT_FORMAT, FORMATS, atomic_write, csv_text

#: the table's files in the output folder (the table's name: TABLE; TABLE_CSV: the default format's file)
TABLE, TABLE_PARQUET, TABLE_CSV, PARTS, LOCK = "results", "results.parquet", "results.csv", "parts", ".lock"
#: the sweep's column kinds -> ``results.table`` column types
TABLE_TYPES = {"int": "integer", "float": "number", "text": "string"}


def arrow_schema(columns):
    import pyarrow as pa

    types = {"int": pa.int64(), "float": pa.float64(), "text": pa.string()}
    return pa.schema([(name, types[kind]) for name, kind in columns])


def _clean(value, kind):
    if value is None:
        return None
    if kind == "int":
        return int(value)
    if kind == "float":
        return float(value)
    return str(value)


def _written(path, write):
    """``report.write.atomic_write``; a failure (a full disk, a read-only folder) is a one-line ``StoreError`` naming
    ``path`` (the rows already written stay)."""
    try:
        atomic_write(path, write)
    except OSError as e:
        why = e.strerror or (str(e).splitlines()[0] if str(e) else type(e).__name__)
        raise StoreError(f"cannot write {path}: {why}") from None


class Store:
    """The output folder ``out`` of a sweep whose table has ``columns`` ((name, kind), first ``case``, then
    ``case_id``); see the module doc. Use as a context manager (it holds the folder's lock)."""

    def __init__(self, out, columns, fmt=DEFAULT_FORMAT):
        self.out = out
        self.format = fmt
        self.columns = tuple(columns)
        self.names = tuple(n for n, _ in self.columns)
        self.kinds = dict(self.columns)
        self.schema = arrow_schema(self.columns)
        self.run = f"{time.time_ns():020d}-{os.getpid()}"    # part names sort in the order written
        self.count = 0
        self.tables = 0
        self._lock = None
        self.ignored = []

    # -------------------------------------------------------------- folder and lock
    def __enter__(self):
        import fcntl

        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise StoreError("writing a sweep's table needs pyarrow, which is not installed (pip install pyarrow, "
                             "or the extra chrono-origami[sweep])") from None

        parts = os.path.join(self.out, PARTS)
        self._created = [d for d in (self.out, parts) if not os.path.isdir(d)]
        try:
            os.makedirs(parts, exist_ok=True)
            fd = os.open(os.path.join(self.out, LOCK), os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as e:
            raise StoreError(f"cannot write the sweep's output folder {self.out}: {e.strerror or e}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise StoreError(f"{self.out} is in use by another sweep (its lock {os.path.join(self.out, LOCK)} is "
                             "held); wait for it or choose another --out") from None
        self._lock = fd
        for tmp in glob.glob(os.path.join(self.out, PARTS, ".*.tmp")) + glob.glob(os.path.join(self.out, ".*.tmp")):
            os.remove(tmp)                  # torn writes of a run that was killed
        return self

    def __exit__(self, exc_type, *exc):
        if self._lock is None:
            return
        if exc_type is not None and self.count == 0 and not self.tables and self._created:
            # a run that stopped before writing anything (an unreachable scheduler) leaves no folder it made
            for path in (os.path.join(self.out, LOCK), *reversed(self._created)):
                try:
                    os.rmdir(path) if os.path.isdir(path) else os.remove(path)
                except OSError:
                    pass
        os.close(self._lock)            # releases the flock
        self._lock = None

    # -------------------------------------------------------------- rows
    def part_paths(self):
        """The part files in the order they were written (their names sort by run start, then batch)."""
        return sorted(glob.glob(os.path.join(self.out, PARTS, "part-*.parquet")))

    def stored_rows(self):
        """Every stored row (dicts), parts in the order written; unreadable parts are listed in ``ignored``."""
        import pyarrow.parquet as pq

        rows = []
        self.ignored = []
        for path in self.part_paths():
            try:
                t = pq.read_table(path)
            except Exception as e:       # a part damaged outside this program: its cases run again
                self.ignored.append(f"{path}: {str(e).splitlines()[0] if str(e) else type(e).__name__}")
                continue
            rows.extend(t.to_pylist())
        return rows

    def latest(self, rows=None):
        """{case_id: row}: the latest stored row of each case."""
        out = {}
        for r in self.stored_rows() if rows is None else rows:
            out[r["case_id"]] = r
        return out

    def append(self, rows):
        """Write ``rows`` (dicts) as one new part file, atomically."""
        if not rows:
            return None
        import pyarrow as pa
        import pyarrow.parquet as pq

        data = {n: [_clean(r.get(n), self.kinds[n]) for r in rows] for n in self.names}
        table = pa.table(data, schema=self.schema)
        self.count += 1
        path = os.path.join(self.out, PARTS, f"part-{self.run}-{self.count:06d}.parquet")
        _written(path, lambda tmp: pq.write_table(table, tmp))
        return path

    # -------------------------------------------------------------- the table
    def table_rows(self, cases, latest=None):
        """The table's rows: the latest stored row of each of ``cases`` (``inputs.sweep.Case``), in case order,
        numbered by the case; cases without a row are left out."""
        latest = self.latest() if latest is None else latest
        out = []
        for c in cases:
            r = latest.get(c.id)
            if r is not None:
                r = dict(r)
                r["case"] = c.number
                out.append(r)
        return out

    def table(self, rows):
        """The table ``rows`` (dicts) as a ``results.table.Table`` named ``results``, typed by the columns' kinds."""
        return Table(TABLE, self.names, [tuple(_clean(r.get(n), self.kinds[n]) for n in self.names) for r in rows],
                     {}, tuple(TABLE_TYPES[self.kinds[n]] for n in self.names))

    def table_paths(self):
        """The table's files: ``results.parquet`` (the table :func:`read_table` reads) and, in another
        ``format``, the table in it too."""
        return [os.path.join(self.out, TABLE_PARQUET)] + (
            [os.path.join(self.out, f"{TABLE}.{FORMATS[self.format].suffix}")] if self.format != "parquet" else [])

    def write_table(self, rows):
        """Write the table ``rows`` by the one writer (``report.write``): ``results.parquet`` always and, in
        another ``format`` (default csv), the table in it too, each atomically."""
        table = self.table(rows)
        self.tables += 1
        for path, fmt in zip(self.table_paths(), ("parquet", self.format)):
            _written(path, lambda tmp, fmt=fmt: FORMATS[fmt].write(table, tmp))
        return table


def table_csv(rows, names):
    """CSV text of the table (``report.write.csv_text``: every digit; None as an empty cell)."""
    return csv_text(names, [[r.get(n) for n in names] for r in rows])


def read_table(out):
    """The table of a sweep's output folder as a list of dicts (from ``results.parquet``)."""
    import pyarrow.parquet as pq

    return pq.read_table(os.path.join(out, TABLE_PARQUET)).to_pylist()


# ------------------------------------------------------------------ figures
_PERCENTILE = {"p95": "95th", "p99": "99th"}


def describe(column):
    """An axis label of a table column: what it is, with its unit ("N" or "N m") for actions."""
    parts = column.split("_")
    comp = parts[-1]
    unit = " [N m]" if comp in ("MT", "MP", "MO") else " [N]"
    if column.startswith("locked_max_p"):
        return f"{_PERCENTILE[parts[2]]} percentile of the largest locked-in |{comp}| over hinges{unit}"
    if column.startswith("locked_sd_"):
        return f"largest standard deviation of locked-in {comp} over hinges{unit}"
    if column.startswith("locked_p"):
        return f"largest {_PERCENTILE[parts[1]]} percentile of locked-in |{comp}| over hinges{unit}"
    if column.startswith("max_"):
        return f"largest |{comp}| under the load case{unit}"
    units = {"wall_s": " [s]", "cpu_s": " [s]", "sector_angle": " [deg]", "fold_angle": " [deg]", "twist": " [deg]",
             "k_t": " [N/m per m]", "k_r": " [N m/rad per m]"}
    return column + units.get(column, "")


def _numeric(rows, column):
    return all(isinstance(r.get(column), (int, float)) or r.get(column) is None for r in rows)


def distribution_plot(rows, path, column="locked_p99_N", by="design", title=None):
    """Histograms of ``column`` over the cases that ran, one per value of ``by`` (designs: door against
    isostatic). A group whose values are all below 1e-9 of the largest (an isostatic design: nothing locked
    in) is drawn as a bar at zero, labelled so. Values spread over more than two decades get logarithmic bins
    (a group of zeros then stands at the left edge)."""
    import numpy as np

    plt = _backend()
    groups = {}
    for r in rows:
        v = r.get(column)
        if r.get("error") is None and v is not None and math.isfinite(v):
            groups.setdefault(str(r.get(by)), []).append(abs(float(v)))
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    top = max((max(v) for v in groups.values() if v), default=1.0) or 1.0
    pos = np.array([x for v in groups.values() for x in v if x > 1e-9 * top])
    log = pos.size > 1 and pos.max() > 100 * pos.min()
    if log:
        bins = np.geomspace(pos.min() / 1.1, pos.max() * 1.1, 40)
        ax.set_xscale("log")
    else:
        bins = np.linspace(0.0, 1.05 * top, 40)
    colors = ("tab:red", "tab:blue", "tab:green", "tab:orange", "tab:purple", "tab:brown")
    for (name, v), color in zip(sorted(groups.items()), colors * 10):
        v = np.asarray(v)
        zero = v <= 1e-9 * top
        if zero.all():
            ax.axvline(bins[0], color=color, lw=3, label=f"{name}: 0 in all {len(v)} cases (max {v.max():.1e})"
                                                         + (", drawn at the left edge" if log else ""))
        else:
            note = f", {zero.sum()} at 0" if zero.any() else ""
            ax.hist(v[~zero] if log else v, bins=bins, color=color, alpha=0.6,
                    label=f"{name}: {len(v)} cases, median {np.median(v):.3g}{note}")
    ax.set_xlabel(describe(column), fontsize=8)
    ax.set_ylabel("cases")
    ax.set_title(title or f"{column} over the sweep's cases, by {by}", fontsize=9)
    if groups:
        ax.legend(fontsize=7)
    else:
        ax.text(0.5, 0.5, "no case with a value", transform=ax.transAxes, ha="center")
    fig.tight_layout()
    save_figure(fig, path)
    return path


def xy_plot(rows, x, y, path, by="design", log="", title=None):
    """``y`` against ``x`` over the cases that ran, one series (colour) per value of ``by``; ``log``: "x", "y"
    or "xy" for logarithmic axes. A text ``x`` is drawn as categories."""
    plt = _backend()
    ok = [r for r in rows if r.get("error") is None and r.get(y) is not None and r.get(x) is not None]
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    categorical = not _numeric(ok, x)
    cats = sorted({str(r[x]) for r in ok}) if categorical else []
    colors = ("tab:red", "tab:blue", "tab:green", "tab:orange", "tab:purple", "tab:brown")
    groups = {}
    for r in ok:
        groups.setdefault(str(r.get(by)), []).append(r)
    for (name, rs), color in zip(sorted(groups.items()), colors * 10):
        xs = [cats.index(str(r[x])) for r in rs] if categorical else [r[x] for r in rs]
        hidden = sum(1 for r in rs if "y" in log and not r[y] > 0) + sum(
            1 for r in rs if "x" in log and not categorical and not r[x] > 0)
        note = f", {hidden} at or below 0: not on a log axis" if hidden else ""
        ax.plot(xs, [r[y] for r in rs], "o", color=color, alpha=0.7, mfc="none", label=f"{name} ({len(rs)}{note})")
    if categorical:
        ax.set_xticks(range(len(cats)))
        ax.set_xticklabels(cats, rotation=30, ha="right", fontsize=7)
    if "x" in log and not categorical:
        ax.set_xscale("log")
    if "y" in log:
        ax.set_yscale("log")
    ax.set_xlabel(describe(x), fontsize=8)
    ax.set_ylabel(describe(y), fontsize=8)
    ax.grid(True, lw=0.3)
    ax.set_title(title or f"{y} against {x}, by {by}", fontsize=9)
    if groups:
        ax.legend(fontsize=7)
    fig.tight_layout()
    save_figure(fig, path)
    return path
