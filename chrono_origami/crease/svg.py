"""SVG crease patterns (Origami Simulator's colour convention) as FOLD dictionaries.

Colours (the stroke; any CSS spelling of these RGB values):

=========  =========  ====================================================
black      #000000    boundary "B"
red        #ff0000    mountain "M"
blue       #0000ff    valley "V"
green      #00ff00    cut "C" (also CSS "green", #008000, as Origami Simulator reads the name)
yellow     #ffff00    facet: a line inside a rigid face (``facets="facet"``, the faces
                      on its two sides are one face) or a flat crease "F" (``facets="crease"``)
magenta    #ff00ff    undriven hinge "U"
orange     #ffa500    undriven hinge "U" (the CSS name: ORIPA's SVG export of an unassigned line)
=========  =========  ====================================================

ORIPA's SVG export writes cut lines black, mountains red, valleys blue,
unassigned lines orange and aux (construction) lines gray, which is left
out, as ORIPA folds without it.

Editors write these colours loosely (#EE1032 for a mountain, #4379FF or
Inkscape's sky blue #33a1fd for a valley, #231F20 for black), so a stroke is
classified by its nearest reference colour (:func:`colour_reading`): a dark
stroke (no channel above :data:`MAX_BLACK`) is black; a coloured one (its
largest and smallest channel at least :data:`MIN_CHROMA` apart) is the
reference colour nearest in hue (red 0, yellow 60, green 120, blue 240,
magenta 300 degrees), unless two are about equally near (within
:data:`HUE_MARGIN` degrees of each other: orange #ff8000, cyan, violet): such
a colour is refused by name, as a coloured line left out would change the
structure (exit 1 on the command line). Greys and pale colours (construction
lines) are left out with one warning line naming them. ``colors`` maps stroke
colours to line types first (``"#0000FF=B,#00FF00=V,#FF0000=M"``, an
Illustrator convention whose boundary is blue; :func:`parse_colors`); where
every line of one colour lies on the sheet's outline, a warning says they look
like a boundary and names ``colors=``. An element's own
``class`` (:data:`CLASSES`: ``mountain``, ``valley``, ``boundary``, ``flat``,
``unassigned``, ``cut``) or FOLD-style ``data-assignment`` ("M", "V", "B",
"F", "U", "C", or FOLD 1.2's "J": faces joined rigidly, a "joined" hinge; either
case, as Rabbit Ear writes them) gives its type whatever its colour: its own
``data-assignment`` first, then its own ``class``, then a
``data-assignment`` of a group around it (a layer of valleys).

Dashes (``dashes``, :data:`DASHES`): "valley" reads a dashed stroke
(``stroke-dasharray`` in an attribute, a style or CSS, dashes of one length)
as a valley and a solid or dash-dot one (dashes of two lengths) as a mountain,
whatever its colour (lines on the sheet's outline stay boundary), "mountain" a
dashed or dash-dot stroke as a mountain and a solid one as a valley, "none" by
colour only. The default (None) is "valley" when every unmarked stroke has the
same colour and some are dashed (the monochrome convention of diagrams and
script generators), said in one note line, else "none".

A file whose lines give no crease (M, V, F or U), or in which more than
:data:`LOST_SHARE` of the stroked shapes are not read, is refused naming the
colours and elements left out (exit 1 on the command line): a reader that
silently loses creases would analyse another structure. Fewer losses are one
warning line.

Target fold angle: opacity x stroke-opacity x 180 degrees, negative for
mountains (FOLD sign), 0 on every other line (as Origami Simulator reads it;
the opacity of a group counts too, as it does on screen).

Elements: ``path`` (straight segments; a Bezier whose control points lie on
its chord is straight), ``line``, ``rect``, ``polygon`` and ``polyline``, with
their transforms, styles and CSS classes (``svgelements`` resolves them).
Curved segments in these colours are refused (panels are rigid); shapes in
other colours, and circles and ellipses, are left out with a warning.

Coordinates: the SVG's user units (before its viewBox scaling), with
FOLD (x, y) = SVG (x, -y): seen from +z the pattern looks as drawn, and the
face normals (+z) point to the viewer, so a valley folds toward the viewer.

Geometry: the planar graph of :mod:`chrono_origami.crease.lines` (merge
tolerance, crossings, faces, holes, cuts, dangling lines, pieces), shared
with the ORIPA reader.
"""
import colorsys
import os
import re
import warnings
import xml.etree.ElementTree as ET

import numpy as np
import svgelements as se

from ..tools.errors import MAX_MAGNITUDE, SvgFileError
from . import lines

#: Stroke colour (hex RGB) -> line type.
COLOURS = {"#000000": "B", "#ff0000": "M", "#0000ff": "V", "#00ff00": "C", "#008000": "C",
           "#ffff00": "F", "#ff00ff": "U", "#ffa500": "U"}
#: A coloured stroke whose hue is nearer one reference hue than the next by less than this (degrees) is refused:
#: about equally near two line types (orange #ff8000 between red and yellow, cyan, violet).
HUE_MARGIN = 10.0
#: A coloured stroke: its largest and smallest RGB channel at least this far apart (0 to 1).
MIN_CHROMA = 0.3
#: A black stroke: no RGB channel above this (0 to 1).
MAX_BLACK = 0.25
#: Hue (degrees) of each coloured line type's reference colour.
HUES = {"M": 0.0, "F": 60.0, "C": 120.0, "V": 240.0, "U": 300.0}
#: The reference colours by name, for the messages.
HUE_NAMES = {"M": "red (mountain)", "F": "yellow (facet)", "C": "green (cut)", "V": "blue (valley)",
             "U": "magenta (undriven)"}
#: ``class`` names that give an element's line type (FOLD letters), whatever its colour.
CLASSES = {"mountain": "M", "valley": "V", "boundary": "B", "flat": "F", "unassigned": "U", "cut": "C"}
#: The line types ``colors`` may give a stroke colour (FOLD letters).
LETTERS = "MVBFUCJ"
#: How dashed strokes are read (module doc); None: "valley" for a drawing of one colour with dashes, else "none".
DASHES = ("valley", "mountain", "none")
#: A file in which more than this share of the stroked shapes are not crease-pattern lines is refused.
LOST_SHARE = 0.5
#: Element types read (as svgelements names them).
ELEMENTS = {"Path": "path", "SimpleLine": "line", "Rect": "rect", "Polygon": "polygon", "Polyline": "polyline"}


def read_svg(path, merge_tol=None, facets="facet", colors=None, dashes=None, notes=None):
    """The FOLD dictionary (a flat crease pattern, frame class "creasePattern") of an SVG crease pattern.

    ``merge_tol``: endpoint merge tolerance as a fraction of the sheet size
    (default :data:`~chrono_origami.crease.lines.MERGE_RTOL`). ``facets``: "facet" (yellow lines lie
    inside rigid faces and are left out) or "crease" (yellow lines are flat
    creases "F"). ``colors``: stroke colour -> line type, a dict ``{"#0000ff": "B"}`` or the command line's
    text ``"#0000FF=B,#00FF00=V"`` (:func:`parse_colors`), read before the reference colours. ``dashes``: one of
    :data:`DASHES` or None (module doc). ``notes``: a list the reader's note lines are appended to.
    """
    path = os.fspath(path)
    lines.check_options(path, merge_tol, facets)
    colors = parse_colors(colors, path)
    if dashes not in DASHES + (None,):
        raise SvgFileError(f"{path}: dashes must be one of {', '.join(DASHES)} or None, got {dashes!r}")
    segs, lost, groups = _segments(path, colors, dashes, notes)
    return lines.fold_of_lines(path, segs, merge_tol, facets, y_down=True, left_out=_left_out(lost), read=READ,
                               cut_lines="a black or green line", groups=groups)


#: What the reader reads, for its messages.
READ = (f"read: path, line, rect, polygon, polyline stroked black, red, blue, green, yellow or magenta (the nearest "
        f"in hue), or with class {'|'.join(CLASSES)} or data-assignment M|V|B|F|U|C|J, or colors=")


def parse_colors(colors, path="colors"):
    """{"#rrggbb": FOLD letter} of ``colors``: None, a dict, or text ``"#0000FF=B,#00FF00=V,#FF0000=M"`` (any CSS
    spelling of a colour; letters :data:`LETTERS`, either case). A bad entry: :class:`SvgFileError` naming it."""
    if colors is None:
        return {}
    if isinstance(colors, str):
        items = []
        for entry in colors.split(","):
            if not entry.strip():
                continue
            if entry.count("=") != 1:
                raise SvgFileError(f"{path}: colors= entry {entry.strip()!r} must be COLOUR=LETTER, e.g. "
                                   f"'#0000FF=B,#00FF00=V,#FF0000=M'")
            items.append(tuple(x.strip() for x in entry.split("=")))
        if not items:
            raise SvgFileError(f"{path}: colors= is empty; expected COLOUR=LETTER entries, e.g. '#0000FF=B,#FF0000=M'")
    elif isinstance(colors, dict):
        items = list(colors.items())
    else:
        raise SvgFileError(f"{path}: colors= must be a dict or text '#0000FF=B,...', got {type(colors).__name__}")
    out = {}
    for colour, letter in items:
        text = colour.strip().lower() if isinstance(colour, str) else ""
        value = se.Color(text).value if text else None
        if value is None or (se.Color(text).hexrgb == "#000000" and text != "black" and
                             not re.fullmatch(r"#[0-9a-f]{3,8}|(rgba?|hsla?)\(.*\)", text)):   # unknown names: black
            raise SvgFileError(f"{path}: colors= names {colour!r}, not a colour (#rrggbb, rgb(r,g,b) or a CSS name)")
        if not (isinstance(letter, str) and len(letter) == 1 and letter.upper() in LETTERS):
            raise SvgFileError(f"{path}: colors= gives {colour} the line type {letter!r}; expected one of "
                               f"{', '.join(LETTERS)} (FOLD's letters)")
        hexrgb = se.Color(str(colour)).hexrgb.lower()
        if out.get(hexrgb, letter.upper()) != letter.upper():
            raise SvgFileError(f"{path}: colors= gives {colour} two line types ({out[hexrgb]}, {letter.upper()})")
        out[hexrgb] = letter.upper()
    return out


def colour_reading(colour):
    """(FOLD letter or None, why not) of a stroke colour ("#rrggbb"): its reference colour's (the table above),
    black for a dark stroke, the coloured line type nearest in hue; None with the reason for an unsaturated (grey,
    pale) colour ("unsaturated") and for one about equally near two reference hues (:data:`HUE_MARGIN`)."""
    colour = colour.lower()
    if colour in COLOURS:
        return COLOURS[colour], ""
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    hi, lo = max(r, g, b), min(r, g, b)
    if hi <= MAX_BLACK:
        return "B", ""
    if hi - lo < MIN_CHROMA:
        return None, "unsaturated"
    hue = 360.0 * colorsys.rgb_to_hsv(r, g, b)[0]
    (d1, k1), (d2, k2) = sorted((abs((hue - h + 180.0) % 360.0 - 180.0), k) for k, h in HUES.items())[:2]
    if d2 - d1 < HUE_MARGIN:
        return None, f"hue {hue:.0f} deg, about equally near {HUE_NAMES[k1]} and {HUE_NAMES[k2]}"
    return k1, ""


def line_type(colour):
    """FOLD letter of a stroke colour ("#rrggbb") by :func:`colour_reading`, or None."""
    return colour_reading(colour)[0]


def _dash_style(value):
    """"solid", "dashed" (dashes of one length) or "dash-dot" (dashes of two lengths or more) of a
    ``stroke-dasharray`` value (None, "none", all zeros or invalid: solid, as SVG draws it)."""
    if value is None:
        return "solid"
    x = []
    for t in str(value).replace(",", " ").split():
        m = re.fullmatch(r"([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)(?:px|mm|cm|in|pt|pc|%|em|ex)?", t)
        if m is None:
            return "solid"   # an invalid dash array is ignored (SVG: the stroke is solid)
        x.append(float(m.group(1)))
    if not x or not all(np.isfinite(v) and v >= 0 for v in x) or sum(x) <= 0:
        return "solid"
    dashes = (x * 2 if len(x) % 2 else x)[0::2]
    return "dash-dot" if max(dashes) > 1.5 * min(dashes) else "dashed"


def _marked_type(e, label):
    """The line type an element's marks give, or None: its own ``data-assignment``, else its own ``class``, else a
    ``data-assignment`` of a group around it."""
    own = e.values.get("attributes") or {}
    found = {CLASSES[c] for c in str(e.values.get("class") or "").lower().split() if c in CLASSES}
    if len(found) > 1:
        raise SvgFileError(f"{label}: class {e.values.get('class')!r} names two line types "
                           f"({', '.join(sorted(found))})")
    letter = e.values.get("data-assignment")
    if found and "data-assignment" not in own:
        return found.pop()
    if letter is not None:
        letter = str(letter).strip()
        if letter.upper() not in "MVBFUCJ" or len(letter) != 1:
            raise SvgFileError(f"{label}: data-assignment must be one of M, V, B, F, U, C, J (FOLD's letters), "
                               f"got {letter!r}")
        return letter.upper()
    return None


def _shapes(lost):
    """"#808080 (2), <circle> (1)": the shapes left out, by colour or element, with their numbers."""
    return ", ".join(f"{k} ({n})" for k, n in sorted(lost.items()))


def _left_out(lost):
    """", left out: #808080 (2), <circle> (1)" of the shapes left out, or ""."""
    return f", left out: {_shapes(lost)}" if lost else ""


# ------------------------------------------------------------------------------ parsing
def _fraction(value, label, what):
    if value is None:
        return 1.0
    s = str(value).strip()
    try:
        x = float(s[:-1]) / 100 if s.endswith("%") else float(s)
    except ValueError:
        raise SvgFileError(f"{label}: {what} must be a number, got {s!r}") from None
    if not np.isfinite(x):
        raise SvgFileError(f"{label}: {what} must be a finite number, got {s!r}")
    return min(max(x, 0.0), 1.0)


def _segments(path, colors=None, dashes=None, notes=None):
    """([(start, end, type, opacity, label, curve control points)] of the lines read (user units), {colour or
    element left out with a warning: count}, [stroke colour of each line, or None where its marks give its type])."""
    try:
        svg = se.SVG.parse(path, reify=True)
    except FileNotFoundError:
        raise SvgFileError(f"{path}: no such SVG file") from None
    except ET.ParseError as e:
        raise SvgFileError(f"{path}: not valid SVG (XML: {e})") from None
    except (OSError, UnicodeDecodeError) as e:
        raise SvgFileError(f"{path}: cannot read the SVG file ({e})") from None
    except (ValueError, TypeError, IndexError, KeyError, AttributeError, ZeroDivisionError, OverflowError) as e:
        raise SvgFileError(f"{path}: not a readable SVG drawing ({type(e).__name__}: {e})") from None
    except LookupError as e:   # the XML declaration names an encoding Python does not know
        raise SvgFileError(f"{path}: cannot read the SVG file ({e})") from None
    if not isinstance(svg, se.SVG):
        raise SvgFileError(f"{path}: not an SVG drawing: the root element is not <svg> in the SVG namespace "
                           f"(xmlns=\"http://www.w3.org/2000/svg\")")
    try:
        inv = ~se.Matrix(svg.viewbox_transform) if getattr(svg, "viewbox_transform", None) else se.Matrix()
    except ZeroDivisionError:
        raise SvgFileError(f"{path}: the <svg> element's viewBox {svg.values.get('viewBox')!r} (width "
                           f"{svg.values.get('width')!r}, height {svg.values.get('height')!r}) maps the drawing "
                           f"onto a line or a point") from None
    colors = colors or {}
    shapes, ignored, count, stroked = [], {}, {}, 0
    for e in svg.elements():
        if not isinstance(e, se.Shape):
            continue
        kind_name = type(e).__name__
        tag = ELEMENTS.get(kind_name, kind_name.lower())
        count[tag] = count.get(tag, 0) + 1
        label = f"{path}: <{tag}> {count[tag]}" + (f" (id {e.id!r})" if e.id else "")
        marked = _marked_type(e, label)
        stroke = e.stroke
        if marked is None and (stroke is None or stroke.value is None):
            continue   # no stroke: a fill, not a line
        stroked += 1
        if marked is None and str(e.values.get("stroke", "")).strip().lower().startswith("url("):
            ignored["a paint server (url)"] = ignored.get("a paint server (url)", 0) + 1
            continue
        colour = None if marked is not None else se.Color(stroke).hexrgb.lower()
        shapes.append((e, kind_name, tag, label, marked, colour, _dash_style(e.values.get("stroke-dasharray"))))
    mode = dashes
    plain = [sh for sh in shapes if sh[4] is None and sh[5] not in colors]
    if mode is None:
        mode = "none"
        dashed = sum(sh[6] != "solid" for sh in plain)
        if dashed and len({sh[5] for sh in plain}) == 1:
            mode = "valley"
            if notes is not None:
                notes.append(f"{path}: every line is drawn {plain[0][5]} and {dashed} of {len(plain)} are dashed: "
                             f"dashed lines are read as valleys, solid and dash-dot ones as mountains, the sheet's "
                             f"outline as its boundary (dashes= 'mountain' the other way round, dashes= 'none' by "
                             f"colour)")
    out, groups, refused = [], [], {}
    for e, kind_name, tag, label, marked, colour, dashed in shapes:
        if marked is not None:
            kind = marked
        elif colour in colors:
            kind = colors[colour]
        elif mode != "none":   # a dash-dot line is a mountain either way
            kind = "V" if (dashed == "dashed") == (mode == "valley") and dashed != "dash-dot" else "M"
        else:
            kind, why = colour_reading(colour)
            if kind is None and why != "unsaturated":
                try:   # the element's straight or curved segments: its lines as drawn
                    n = sum(not isinstance(g, se.Move) for g in se.Path(e).segments()) if kind_name in ELEMENTS else 1
                except (ValueError, TypeError, ZeroDivisionError, OverflowError):
                    n = 1
                refused.setdefault(colour, [0, why])[0] += max(n, 1)
                continue
        if kind is None or kind_name not in ELEMENTS:
            ignored.setdefault(colour if kind is None else f"<{tag}>", 0)
            ignored[colour if kind is None else f"<{tag}>"] += 1
            continue
        opacity = _fraction(e.values.get("opacity"), label, "opacity") * \
            _fraction(e.values.get("stroke-opacity"), label, "stroke-opacity")
        try:
            segments = list((se.Path(e) * inv).segments())
        except (ValueError, TypeError, ZeroDivisionError, OverflowError) as ex:
            raise SvgFileError(f"{label}: cannot read its geometry ({ex})") from None
        for g in segments:
            if isinstance(g, se.Move) or g.start is None or g.end is None:
                continue
            p, q = (float(g.start.x), -float(g.start.y)), (float(g.end.x), -float(g.end.y))
            if not all(np.isfinite(p + q)):
                raise SvgFileError(f"{label}: has a non-finite coordinate")
            big = max(abs(c) for c in p + q)
            if big > MAX_MAGNITUDE:
                raise SvgFileError(f"{label}: has a coordinate of magnitude {big:.3g}, beyond the largest accepted "
                                   f"{MAX_MAGNITUDE:g}")
            if isinstance(g, (se.Line, se.Close)):
                controls = ()
            elif isinstance(g, (se.QuadraticBezier, se.CubicBezier)):
                ctl = [g.control] if isinstance(g, se.QuadraticBezier) else [g.control1, g.control2]
                controls = tuple((float(c.x), -float(c.y)) for c in ctl)
            else:
                raise SvgFileError(f"{label}: has a curved segment ({type(g).__name__}); the lines of a crease "
                                   f"pattern of rigid panels are straight")
            if p != q:
                out.append((p, q, kind, opacity, label, controls))
                groups.append(colour)
    if refused:
        n = sum(c for c, _ in refused.values())
        raise SvgFileError(f"{path}: {n} coloured line(s) are not crease-pattern lines of any line type: "
                           + ", ".join(f"{c} ({k}: {why})" for c, (k, why) in sorted(refused.items()))
                           + "; left out they would change the structure: give each colour its line type with "
                             "colors= '" + ",".join(f"{c}=?" for c in sorted(refused))
                           + f"' (? one of {', '.join(LETTERS)})")
    if ignored and out:   # (no line at all: read_svg names what was left out)
        lost = sum(ignored.values())
        if lost > LOST_SHARE * stroked:
            raise SvgFileError(f"{path}: {lost} of its {stroked} stroked shapes are not crease-pattern lines (more "
                               f"than {LOST_SHARE:.0%}){_left_out(ignored)}; {READ}")
        warnings.warn(f"{path}: left out shapes that are not crease-pattern lines: {_shapes(ignored)} "
                      f"({READ})", stacklevel=3)
    return out, ignored, groups
