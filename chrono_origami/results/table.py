"""The one table record every result gives its output tables as (``report.write`` writes it in any format).

A :class:`Table` is a name (the file's stem: ``hinges`` -> ``hinges.csv``,
``hinges.json``, ``hinges.parquet``), its columns, its rows (tuples, one cell
per column; ``None`` is a value not computed) and ``meta``, the labels that
say what the numbers are. Keys of ``meta`` used across the project:

* ``comment``: the line a CSV file starts with (``# ...``), e.g. the label of
  a minimum-norm or elastic answer; None: no such line;
* ``status``: ``determined``, ``minimum-norm`` or ``elastic`` (static answers);
* ``engine``: the engine that computed the rows;
* ``stiffness``: the hinge stiffness an elastic answer used;
* ``units``: {column: unit} where a column has one.

Column types (:func:`column_types`): ``integer``, ``number`` (float),
``string``, ``boolean``, or ``any`` (mixed), from the cells unless given.
"""
from dataclasses import dataclass, field

import numpy as np

#: the column types of :func:`column_types`
TYPES = ("integer", "number", "string", "boolean", "any")


@dataclass(frozen=True)
class Table:
    """A named table: ``columns`` (names), ``rows`` (tuples), ``meta`` (labels, module doc), ``types`` (one of
    :data:`TYPES` per column; None: inferred from the cells)."""

    name: str
    columns: tuple
    rows: list
    meta: dict = field(default_factory=dict)
    types: tuple = None

    def __post_init__(self):
        object.__setattr__(self, "columns", tuple(self.columns))
        object.__setattr__(self, "rows", [tuple(r) for r in self.rows])
        bad = [k + 1 for k, r in enumerate(self.rows) if len(r) != len(self.columns)]
        if bad:
            raise ValueError(f"table {self.name}: row {bad[0]} has a cell count other than its "
                             f"{len(self.columns)} columns")
        if self.types is None:
            object.__setattr__(self, "types", column_types(self.columns, self.rows))
        elif len(self.types) != len(self.columns) or not set(self.types) <= set(TYPES):
            raise ValueError(f"table {self.name}: types must be one of {TYPES} per column, got {self.types}")

    @property
    def comment(self):
        """The CSV file's first line (without ``# ``), or None."""
        return self.meta.get("comment")

    def column(self, name):
        """The cells of column ``name`` (a list)."""
        k = self.columns.index(name)
        return [r[k] for r in self.rows]


def _kind(x):
    if x is None:
        return None
    if isinstance(x, str):
        return "string"
    if isinstance(x, (bool, np.bool_)):
        return "boolean"
    if isinstance(x, (int, np.integer)):
        return "integer"
    return "number"


def column_types(columns, rows):
    """The type of each column from its cells: one kind throughout (None cells aside); integers and floats
    together are ``number``; an integer column with a missing cell is ``number`` (NaN there), a boolean one
    ``any``; anything else mixed, ``any``."""
    out = []
    for k in range(len(columns)):
        kinds = {_kind(r[k]) for r in rows}
        missing = None in kinds
        kinds.discard(None)
        if not kinds:
            out.append("number")
        elif len(kinds) == 1:
            (t,) = kinds
            out.append({"integer": "number", "boolean": "any"}.get(t, t) if missing else t)
        elif kinds == {"integer", "number"}:
            out.append("number")
        else:
            out.append("any")
    return tuple(out)
