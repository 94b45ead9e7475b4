"""The one table writer: any :class:`~chrono_origami.results.table.Table` in any format, atomically.

:func:`write_tables` writes a list of tables into a folder, one file each,
``<name>.<suffix>``; :func:`write_table` one table to a path. Every file is
written to a hidden temporary file in the same folder, flushed and renamed
over the target (``os.replace``): a reader never sees half a file.

Formats (:data:`FORMATS`; ``--format`` of every command that writes tables):

* ``csv`` (default): the project's CSV (:func:`csv_text`): an optional first
  line ``# <meta["comment"]>``, the header, then the rows: integers as
  integers, text as it is, booleans ``true``/``false``, every other number as
  the shortest text that reads back to the very float computed (Python's
  ``repr``: ``nan``, ``inf``), a missing value (None) as an empty cell.
* ``json``: one object ``{"name", "schema", "data", "meta"}`` in pandas'
  ``table`` orient: ``schema`` is ``{"fields": [{"name", "type"}, ...]}``
  (types: ``results.table.TYPES``; an integer column with a missing cell
  is ``number``), ``data`` a list of records
  ``{column: value}``; floats with every digit (``repr``), NaN and None as
  ``null``, infinities as ``Infinity`` / ``-Infinity``. Reads back with
  ``json.load`` and with ``pandas.read_json(path, orient="table",
  precise_float=True)`` to the same floats (pandas' default fast float
  parser, ``precise_float=False``, may be off by one unit in the last place).
* ``parquet``: one Parquet file (pyarrow), columns typed as the table's
  (``any``: the CSV cell text); the name and ``meta`` as JSON under the key
  ``chrono_origami`` of the schema's key-value metadata. Reads back with
  ``pandas.read_parquet``.

A new format is one function ``write(table, path)`` registered with
:func:`register_format` (name, file suffix) and its tests; every command's
``--format`` offers it (``cli.inputs.add_out``).
"""
import csv
import io
import json
import math
import os
from typing import Callable, NamedTuple

import numpy as np



class Format(NamedTuple):
    """An output format: the file suffix and ``write(table, path)`` (writes the whole file at ``path``)."""

    suffix: str
    write: Callable


#: name -> :class:`Format` (the choices of every command's ``--format``); DEFAULT_FORMAT is csv
FORMATS = {}
DEFAULT_FORMAT = "csv"


def register_format(name, suffix, write):
    """Add the format ``name`` (files ``<table>.<suffix>``, written by ``write(table, path)``); returns ``write``."""
    FORMATS[name] = Format(suffix, write)
    return write


def filename(table, fmt=DEFAULT_FORMAT):
    """The file name of ``table`` in format ``fmt``: ``<name>.<suffix>``."""
    return f"{table.name}.{FORMATS[fmt].suffix}"


def write_tables(tables, out_dir, fmt=DEFAULT_FORMAT):
    """Write every table of ``tables`` into ``out_dir`` (made) in format ``fmt``; returns the paths."""
    os.makedirs(out_dir, exist_ok=True)
    return [write_table(t, os.path.join(out_dir, filename(t, fmt)), fmt) for t in tables]


def write_table(table, path, fmt=DEFAULT_FORMAT):
    """Write ``table`` to ``path`` in format ``fmt`` atomically (:func:`atomic_write`; folders made); returns
    ``path``."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown table format {fmt!r}; known: {', '.join(FORMATS)}")
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    atomic_write(path, lambda tmp: FORMATS[fmt].write(table, tmp))
    return path


def atomic_write(path, write):
    """``write(tmp)`` to a hidden temporary file beside ``path``, flushed to disk, then renamed to ``path``."""
    folder, name = os.path.split(path)
    tmp = os.path.join(folder, f".{name}.{os.getpid()}.tmp")
    try:
        write(tmp)
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
    try:                                    # the rename itself, on disk
        fd = os.open(folder or ".", os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError:
        pass


# ------------------------------------------------------------------ csv
def cell(x):
    """A CSV cell (module doc): None as empty, text as it is, a boolean as true/false, an integer as such, any
    other number as the shortest text that reads back to the same float."""
    if x is None:
        return ""
    if isinstance(x, str):
        return x
    if isinstance(x, (bool, np.bool_)):
        return "true" if x else "false"
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    return repr(float(x))


def csv_text(header, rows, comment=None):
    """CSV with every digit of the floats (module doc); ``comment``: a first line ``# ...``."""
    buf = io.StringIO()
    if comment:
        buf.write("# " + " ".join(comment.split()) + "\n")
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    for r in rows:
        w.writerow([cell(x) for x in r])
    return buf.getvalue()


def write_csv(table, path):
    """``table`` as :func:`csv_text` at ``path``."""
    with open(path, "w", newline="") as f:
        f.write(csv_text(table.columns, table.rows, table.comment))


# ------------------------------------------------------------------ json
def _plain(x):
    """A JSON value of a cell or a meta entry: numpy scalars and arrays as Python's, NaN as None."""
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple, np.ndarray)):
        return [_plain(v) for v in x]
    if x is None or isinstance(x, str):
        return x
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        x = float(x)
        return None if math.isnan(x) else x
    return str(x)


#: the JSON schema's type of an integer or boolean column with a missing cell (pandas reads it as NaN, or None)
_WITHOUT_MISSING = {"integer": "number", "boolean": "any"}


def json_document(table):
    """The JSON object of ``table`` (module doc: pandas' ``table`` orient with ``name`` and ``meta``)."""
    types = [t if t not in _WITHOUT_MISSING or all(r[k] is not None for r in table.rows) else _WITHOUT_MISSING[t]
             for k, t in enumerate(table.types)]
    return {"name": table.name,
            "schema": {"fields": [{"name": c, "type": t} for c, t in zip(table.columns, types)]},
            "data": [dict(zip(table.columns, (_plain(x) for x in r))) for r in table.rows],
            "meta": _plain(table.meta)}


def write_json(table, path):
    """``table`` as :func:`json_document` at ``path`` (floats by ``repr``: every digit)."""
    with open(path, "w") as f:
        json.dump(json_document(table), f, separators=(",", ":"))
        f.write("\n")


# ------------------------------------------------------------------ parquet
#: the schema's key-value metadata key that holds a table's name and meta (JSON)
PARQUET_KEY = b"chrono_origami"


def arrow_table(table):
    """``table`` as a ``pyarrow.Table`` (module doc)."""
    import pyarrow as pa

    arrow = {"integer": pa.int64(), "number": pa.float64(), "string": pa.string(), "boolean": pa.bool_(),
             "any": pa.string()}
    convert = {"integer": int, "number": float, "string": str, "boolean": bool, "any": cell}
    data = {}
    for k, (c, t) in enumerate(zip(table.columns, table.types)):
        data[c] = pa.array([None if r[k] is None else convert[t](r[k]) for r in table.rows], type=arrow[t])
    meta = {PARQUET_KEY: json.dumps({"name": table.name, "meta": _plain(table.meta)})}
    schema = pa.schema([(c, arrow[t]) for c, t in zip(table.columns, table.types)], metadata=meta)
    return pa.table(data, schema=schema)


def write_parquet(table, path):
    """``table`` as one Parquet file at ``path`` (pyarrow; see the module doc)."""
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise OSError("Parquet needs pyarrow, which is not installed (pip install pyarrow, or the extra "
                      "chrono-origami[sweep])") from None
    pq.write_table(arrow_table(table), path)


def parquet_meta(path):
    """The ``{"name", "meta"}`` a Parquet file of :func:`write_parquet` carries."""
    import pyarrow.parquet as pq

    return json.loads(pq.read_schema(path).metadata[PARQUET_KEY])


register_format("csv", "csv", write_csv)
register_format("json", "json", write_json)
register_format("parquet", "parquet", write_parquet)

