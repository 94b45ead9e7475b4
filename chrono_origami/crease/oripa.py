"""ORIPA crease patterns (``.cp`` line files and ``.opx`` documents) as FOLD dictionaries.

ORIPA's line types (``oripa.value.OriLine``), as its own FOLD export names them:

====  ===========  =============================================================
type  ORIPA        read as
====  ===========  =============================================================
0     aux          a construction line: left out (``facets="facet"``, the default;
                   ORIPA folds without it and exports it as "F"), or a flat
                   crease "F" (``facets="crease"``)
1     cut          the outline of the paper "B" (a cut "C" between two faces)
2     mountain     "M", target fold angle -180 degrees (FOLD sign)
3     valley       "V", target +180 degrees
4     unassigned   "U" (undriven)
9     cut (model)  "C"
====  ===========  =============================================================

A line of another type is refused naming it. ``.cp``: one line per row,
``TYPE X0 Y0 X1 Y1`` separated by blanks (ORIPA's export leaves out aux
lines); ``.opx``: the XML of Java's ``XMLDecoder`` that ORIPA saves, each
``oripa.OriLineProxy`` with its ``type``, ``x0``, ``y0``, ``x1``, ``y1``
(a property left out is 0, as Java's encoder leaves out defaults).

Coordinates: the file's, unchanged (FOLD (x, y) = ORIPA (x, y), as ORIPA's FOLD
export writes them). The lines become faces as every drawn pattern does
(:mod:`chrono_origami.crease.lines`). Rows and lines are numbered from 1 in
messages.
"""
import math
import os
import xml.etree.ElementTree as ET

from ..tools.errors import MAX_MAGNITUDE, SvgFileError
from . import lines

#: ORIPA line type -> FOLD letter (aux lines are "F": facets="facet" leaves them out)
TYPES = {0: "F", 1: "B", 2: "M", 3: "V", 4: "U", 9: "C"}
#: what the reader reads, for its messages
READ = "read: ORIPA lines of type 1 (cut/outline), 2 (mountain), 3 (valley), 4 (unassigned), 9 (cut), 0 (aux)"
#: the file extensions read here
EXTENSIONS = (".cp", ".opx")


def read_oripa(path, merge_tol=None, facets="facet"):
    """The FOLD dictionary (a flat crease pattern, frame class "creasePattern") of an ORIPA ``.cp`` or ``.opx``
    file. ``merge_tol``, ``facets``: as :func:`chrono_origami.crease.lines.fold_of_lines` (aux lines are "F")."""
    path = os.fspath(path)
    lines.check_options(path, merge_tol, facets)
    try:
        with open(path, encoding="utf-8-sig") as f:
            text = f.read()
    except FileNotFoundError:
        raise SvgFileError(f"{path}: no such ORIPA file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise SvgFileError(f"{path}: cannot read the ORIPA file ({e})") from None
    rows = _opx_rows(path, text) if path.lower().endswith(".opx") else _cp_rows(path, text)
    segments = []
    for label, kind, x0, y0, x1, y1 in rows:
        for v in (x0, y0, x1, y1):
            if not math.isfinite(v) or abs(v) > MAX_MAGNITUDE:
                raise SvgFileError(f"{label}: coordinate {v!r} is not a finite number of magnitude at most "
                                   f"{MAX_MAGNITUDE:g}")
        if kind not in TYPES:
            raise SvgFileError(f"{label}: line type {kind} is not an ORIPA line type ({READ})")
        letter = TYPES[kind]
        if (x0, y0) != (x1, y1):
            segments.append(((x0, y0), (x1, y1), letter, 1.0 if letter in "MV" else 0.0, label, ()))
    return lines.fold_of_lines(path, segments, merge_tol, facets, y_down=False, read=READ,
                               cut_lines="a line of type 1 or 9")


def _cp_rows(path, text):
    out = []
    for i, row in enumerate(text.splitlines(), 1):
        parts = row.split()
        if not parts:
            continue
        label = f"{path}, line {i}"
        if len(parts) != 5:
            raise SvgFileError(f"{label}: expected TYPE X0 Y0 X1 Y1 (5 numbers), got {len(parts)} field(s): "
                               f"{row.strip()[:60]!r}")
        try:
            kind = int(parts[0])
            x0, y0, x1, y1 = (float(p) for p in parts[1:])
        except ValueError:
            raise SvgFileError(f"{label}: expected TYPE X0 Y0 X1 Y1 (an integer and 4 numbers), got "
                               f"{row.strip()[:60]!r}") from None
        out.append((label, kind, x0, y0, x1, y1))
    if not out:
        raise SvgFileError(f"{path}: no lines (an ORIPA .cp file has one line TYPE X0 Y0 X1 Y1 per row)")
    return out


def _opx_rows(path, text):
    try:
        root = ET.fromstring(text)
    except ET.ParseError as e:
        raise SvgFileError(f"{path}: not valid XML ({e})") from None
    proxies = [o for o in root.iter("object") if o.get("class") == "oripa.OriLineProxy"]
    if not proxies:
        raise SvgFileError(f"{path}: no ORIPA lines (no oripa.OriLineProxy object): not an ORIPA .opx document")
    out = []
    for k, o in enumerate(proxies, 1):
        label = f"{path}: line {k}"
        values = {"type": 0, "x0": 0.0, "y0": 0.0, "x1": 0.0, "y1": 0.0}
        for prop in o.findall("void"):
            name = prop.get("property")
            if name not in values:
                continue
            child = next(iter(prop), None)
            try:
                values[name] = (int if name == "type" else float)((child.text or "").strip())
            except (ValueError, AttributeError):
                raise SvgFileError(f"{label}: property {name} must be a number, got "
                                   f"{None if child is None else child.text!r}") from None
        out.append((label, values["type"], values["x0"], values["y0"], values["x1"], values["y1"]))
    return out
