"""The input file of every command (one option, one reader), the supports and loads given on the command line,
and the argparse types the commands and scenes share.

A command that reads a structure adds :func:`add_input` to its parser and
calls :func:`read_input` on the parsed arguments: new input formats and
input options (which frame, which faces) belong here, so that every command
takes them. A command that analyses the structure under supports and loads
(``static``, ``count``, ``design``, ``dynamics``, ``tolerance``, the static scenes) also
adds :func:`add_structure_options` and calls :func:`with_structure_options`:

``--support SELECTOR:DOFS[:pP]`` (repeatable), ``--support auto``
    supports in the text form of :mod:`chrono_origami.boundary` (1-based),
    e.g. ``--support 4:xyz``, ``--support min-z:z``; ``auto`` adds the minimal
    support that stops the six rigid-body motions
    (:mod:`chrono_origami.analysis.support`) to the supports before it (the
    options apply in the order given);
``--load SELECTOR:FX,FY,FZ[:pP]`` (repeatable)
    point loads, each selected vertex taking the force;
``--replace-supports``, ``--replace-loads``
    drop the file's (or scene's) supports or loads first: by default the
    command line *adds* to them;
``--self-weight``, ``--gravity GX,GY,GZ``, ``--thickness T``, ``--density RHO``
    self-weight (gravity 9.81 along -z, or the given acceleration) of panels of
    the file's or the given thickness and density (these replace the file's).
``--placement mid|offset|tapered``, ``--side below|above``, ``--taper-deg A``
    where each panel's volume sits (``structure.solids``; replaces the file's
    ``origami:placement``): :func:`add_placement_options`, :func:`with_placement`.

``--engine reference|chrono`` (every command and scene that runs an engine: :func:`add_engine_option`)
    the engine, resolved once per run by :func:`engine_of` (``engines.get``, the one rule: without it Chrono
    where PyChrono imports, else the reference engine with one line on stderr); the commands hand the engine
    object to the analyses.

A bad value is one line naming the option and the 1-based vertex or panel,
exit code 2 (:class:`.app.UsageError`).
"""
import argparse
import math
import os
import sys
from dataclasses import replace

from .. import engines
from ..crease import DRAWINGS, is_drawing
from ..structure.boundary import SYNTAX
from ..structure.foldfile import FACETS, describe_frames, frame_count, frame_index, frame_summary, read_structure
from ..tools.errors import FoldFileError, StructureError, UsageError, positive
from . import app


def frame_choice(text):
    """argparse type of ``--frame``: a frame index (0: the top level, -1 the last), ``last`` or a frame class."""
    try:
        return int(text)
    except ValueError:
        pass
    if not text.strip():
        raise argparse.ArgumentTypeError("expected a frame index, 'last' or a frame class such as foldedForm")
    return text.strip()


def add_input(ap):
    """Add the input file (FOLD or SVG) and its options --frame, --facets, --merge-tol to ``ap``; returns ``ap``."""
    ap.add_argument("file", metavar="FILE.fold|FILE.svg",
                    help="structure as a FOLD file (see chrono_origami/structure/foldfile.py), an SVG crease pattern "
                         "(Origami Simulator's colours, see chrono_origami/crease/svg.py) or an ORIPA file (.cp, "
                         ".opx; chrono_origami/crease/oripa.py)")
    ap.add_argument("--frame", type=frame_choice, default=None,
                    help="which frame of the FOLD file: an index (0 the top level; -1 the last, -2 the one before), "
                         "last, or a frame class (foldedForm: the final folded state, the last frame that has it; "
                         "creasePattern: the first); required when the file has several frames")
    ap.add_argument("--facets", choices=FACETS, default=None,
                    help="what 'F' edges are: crease (the FOLD spec: a flat crease, a hinge; default for FOLD "
                         "files) or facet (Origami Simulator: a line inside a rigid face; default for SVG and "
                         "ORIPA, whose aux lines are 'F')")
    ap.add_argument("--merge-tol", type=merge_fraction, default=None,
                    help="SVG, ORIPA: merge line ends closer than this fraction of the sheet size (default 1e-3); "
                         "a flat FOLD pattern: merge vertices this close (default 1e-9, coincident points)")
    add_drawing_options(ap)
    return ap


def add_drawing_options(ap):
    """Add the SVG reader's --colors and --dashes to ``ap``."""
    ap.add_argument("--colors", type=colour_map, default=None, metavar="'#0000FF=B,#00FF00=V,...'",
                    help="SVG: stroke colours' line types (FOLD letters M V B F U C J), read before Origami "
                         "Simulator's colours (e.g. an Illustrator convention with a blue boundary)")
    ap.add_argument("--dashes", choices=("valley", "mountain", "none"), default=None,
                    help="SVG: a dashed stroke is a valley and a solid one a mountain (valley), the other way "
                         "round (mountain) or read by colour (none); default valley when every stroke has one "
                         "colour and some are dashed")
    return ap


def colour_map(text):
    """argparse type of ``--colors``: ``'#0000FF=B,#00FF00=V'`` as {"#0000ff": "B", ...}."""
    from ..crease.svg import parse_colors
    from ..tools.errors import SvgFileError

    try:
        return parse_colors(text, "--colors")
    except SvgFileError as e:   # "--colors: colors= entry ..." -> "entry ..." (argparse names the option)
        raise argparse.ArgumentTypeError(app.flags(str(e).replace("--colors: colors= ", "", 1))) from None


#: the input files' extensions: FOLD (JSON) and the drawn crease patterns (SVG, ORIPA)
EXTENSIONS = (".fold", ".json") + tuple(DRAWINGS)


def check_exists(path, extensions=EXTENSIONS):
    """A missing input file, or one whose extension is not in ``extensions``, is a usage error (exit 2)."""
    if not os.path.isfile(path):
        kind = "SVG" if path.lower().endswith(".svg") else "ORIPA" if is_drawing(path) else "FOLD"
        raise UsageError(f"{path}: no such {kind} file")
    if not path.lower().endswith(tuple(extensions)):
        raise UsageError(f"{path}: expected a FOLD file (.fold or .json), an SVG crease pattern (.svg) or an ORIPA "
                         f"file (.cp, .opx), got "
                         f"{os.path.splitext(path)[1] or 'no extension'}")


def check_input_options(args):
    """Options that do not apply to the input file's kind: a usage error naming the option (exit 2)."""
    drawn = is_drawing(args.file)
    for option in ("colors", "dashes"):
        if getattr(args, option, None) is not None and not args.file.lower().endswith(".svg"):
            raise UsageError(f"--{option}: --{option} is for SVG drawings (stroke colours and dashes); {args.file} "
                             f"gives each line's type")
    frame = getattr(args, "frame", None)
    if drawn and frame not in (None, 0, -1, "last", "creasePattern"):
        raise UsageError(f"--frame {frame}: {args.file}, {DRAWINGS[os.path.splitext(args.file)[1].lower()]}, has "
                         f"one frame (0, creasePattern; -1 and last name it too)")


def choose_frame(args, default=None):
    """The frame ``args.frame`` names, checked against the file (a usage error naming the frames, exit 2):
    without ``--frame`` a file of one frame gives 0, a file of several frames is an error listing them unless
    ``default`` is given."""
    frame = args.frame
    path = args.file
    if is_drawing(path):
        return 0 if frame is None else frame
    try:
        n = frame_count(path)
    except FoldFileError:
        return 0 if frame is None else frame      # the reader names what is wrong with the file
    if frame is None:
        if n == 1 or default is not None:
            return 0 if default is None else default
        raise UsageError(f"{path} has {n} frames: {describe_frames(path)}; choose one with --frame N (-1 the "
                         f"last), --frame last or --frame foldedForm")
    if isinstance(frame, int) and not -n <= frame < n:
        raise UsageError(f"--frame {frame}: {path} has no frame {frame} (frames 0 to {n - 1}, or -1 to -{n}: "
                         f"{describe_frames(path)})")
    if isinstance(frame, str) and frame != "last":
        try:
            frame_index(path, frame)
        except FoldFileError as e:
            if "no frame has the class" in str(e):
                raise UsageError(f"--frame {frame}: no frame of {path} has that class (frames "
                                 f"{describe_frames(path)})") from None
    return frame


def read_input(args, default_frame=None):
    """The :class:`~chrono_origami.structure.Structure` of ``args.file`` (FOLD or SVG, with ``--frame``,
    ``--facets``, ``--merge-tol``); a missing file or a frame it does not have is a usage error (exit 2),
    and so is a file of several frames without ``--frame`` (unless ``default_frame`` is given). A file of
    several frames gets one line saying which frame is read (``fold.fold: frame 20 of 0-20, the last
    (foldedForm; t = 1 s)``), and the structure is named by the file's title and the frame
    (``miura, frame 20 (t = 1 s)``)."""
    from .app import flags

    check_exists(args.file)
    check_input_options(args)
    frame = choose_frame(args, default_frame)
    structure = read_structure(args.file, frame=frame, facets=args.facets, merge_tol=args.merge_tol,
                               colors=getattr(args, "colors", None), dashes=getattr(args, "dashes", None))
    fold_notes = (structure.notes or {}).get("fold", {})
    for note in [fold_notes.get("facets_note")] + list(fold_notes.get("reader_notes", ())):
        if note:
            print(f"note: {flags(note)}")
    if not is_drawing(args.file) and frame_count(args.file) > 1:
        # a history (fold --out's fold.fold) or a file of several frames: say which frame is analysed, and name
        # the structure by the file and the frame (a frame's own title, "t = 1 s", says too little)
        k, n, line, top = frame_summary(args.file, frame)
        print(f"{args.file}: {line}")
        name = structure.name
        structure = replace(structure, name=f"{top}, frame {k}" + (f" ({name})" if name not in (top, "") and
                                                                     name != f"{top} (frame {k})" else ""))
    return structure


def integer(text, low, expected):
    """``int(text)`` when at least ``low``; else argparse's error: ``expected`` (not an integer) or the bound."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}") from None
    if n < low:
        raise argparse.ArgumentTypeError(f"must be at least {low}, got {n}")
    return n


def positive_int(text):
    """argparse type: an integer >= 1."""
    return integer(text, 1, "a positive integer")


def at_least_two(text):
    """argparse type: an integer >= 2 (samples of a statistic)."""
    return integer(text, 2, "an integer >= 2")


def nonnegative_int(text):
    """argparse type: an integer >= 0."""
    return integer(text, 0, "an integer >= 0")


def _float(text, ok, expected, out_of_range):
    """``float(text)`` when finite and ``ok``; else argparse's error: ``expected`` (not a number) or ``out_of_range``."""
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}") from None
    if not (math.isfinite(x) and ok(x)):
        raise argparse.ArgumentTypeError(out_of_range)
    return x


def merge_fraction(text):
    """argparse type of ``--merge-tol``: a fraction of the sheet size in [0, 0.1)."""
    return _float(text, lambda x: 0 <= x < 0.1, "a fraction of the sheet size",
                  f"must be a fraction of the sheet size in [0, 0.1), got {text}")


def figure_file(text):
    """argparse type of a figure's file name: one whose extension matplotlib writes (png, pdf, svg, ...)."""
    from matplotlib.backend_bases import FigureCanvasBase

    kinds = FigureCanvasBase.get_supported_filetypes()
    ext = os.path.splitext(text)[1].lstrip(".").lower()
    if ext not in kinds:
        raise argparse.ArgumentTypeError(f"{text!r}: a figure is written as {', '.join(sorted(kinds))} (the file "
                                         f"name's extension), not {ext or 'a name without extension'}")
    return text


def png_file(text):
    """argparse type of ``--screenshot``: a .png file name (Irrlicht writes PNG)."""
    if not text.lower().endswith(".png"):
        raise argparse.ArgumentTypeError(f"expected a .png file name, got {text!r}")
    return text


def html_file(text):
    """argparse type of ``--html``: an .html or .htm file name that can be written, checked before any analysis
    (a missing folder is made when the page is written; a folder in its place, a file in the way of its folder or a
    folder that cannot be written is refused). An existing file is replaced: ``write_html`` says so."""
    if not text.lower().endswith((".html", ".htm")):
        raise argparse.ArgumentTypeError(f"expected an .html file name, got {text!r}")
    if os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"cannot write {text}: it is a folder")
    if os.path.exists(text) and not os.access(text, os.W_OK):
        raise argparse.ArgumentTypeError(f"cannot write {text}: permission denied")
    folder = os.path.dirname(os.path.abspath(text))
    while not os.path.exists(folder) and os.path.dirname(folder) != folder:
        folder = os.path.dirname(folder)
    shown = os.path.relpath(folder) if not os.path.isabs(text) else folder
    if not os.path.isdir(folder):
        raise argparse.ArgumentTypeError(f"cannot write {text}: {shown} is a file, not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise argparse.ArgumentTypeError(f"cannot write {text}: the folder {shown} is not writable")
    return text


def add_out(ap, what, required=False):
    """The one ``--out DIR`` and ``--format`` of every command that writes tables: ``what``, the files (their
    names without the suffix of the format: ``report.write``); ``--format`` one of ``report.write.FORMATS``
    (csv by default; a registered format is a choice of every command)."""
    from ..report import write

    ap.add_argument("--out", metavar="DIR", required=required, help=f"write {what} here")
    ap.add_argument("--format", choices=write.FORMATS, default=write.DEFAULT_FORMAT,
                    help=f"format of the tables --out writes (default {write.DEFAULT_FORMAT}; report.write)")
    return ap


def write_tables(tables, args, out_dir=None):
    """Write ``tables`` (``results.table.Table``) to ``out_dir`` (default ``--out``) in ``--format``; a failure
    is one line naming the folder (exit 2). Returns the paths."""
    from ..report import write

    out_dir = out_dir or args.out
    with app.output(out_dir):
        return write.write_tables(tables, out_dir, getattr(args, "format", write.DEFAULT_FORMAT))


def add_html(ap, what="the result"):
    """``--html FILE``: the self-contained interactive results page (``report.page``); returns ``ap``."""
    ap.add_argument("--html", metavar="FILE.html", type=html_file,
                    help=f"write {what} as one self-contained interactive page (3-D view, hinge actions on hover, "
                         f"tables; opens offline in any browser)")
    return ap


def write_html(result, args, out=None, **options):
    """Write ``--html`` (when given) of ``result`` with the command line that produced it; prints where."""
    if not getattr(args, "html", None):
        return
    from ..report.page import command_line, html

    by = getattr(args, "color_by", None)
    if by is not None and "color_by" not in options:
        options["color_by"] = by
    replaced = os.path.exists(args.html)
    with app.output(args.html):
        html(result, args.html, command=command_line(getattr(args, "argv", None),
                                                     prog=getattr(args, "prog", None)), **options)
    print(f"results page written to {args.html}" + (" (the file that was there replaced)" if replaced else ""),
          file=out or sys.stdout)


def add_vtk(ap, what="the result"):
    """``--vtk DIR``: ``what`` as VTK XML for ParaView (``report.export.write_vtk``); returns ``ap``."""
    ap.add_argument("--vtk", metavar="DIR", type=vtk_folder,
                    help=f"write {what} as VTK XML (.vtu; a run's frames with a .pvd of their times) for ParaView")
    return ap


def vtk_folder(text):
    """argparse type of ``--vtk``: a folder that is not an existing file, and meshio installed (both checked
    before the work)."""
    from ..report.export import need

    if os.path.exists(text) and not os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"{text!r} is a file: --vtk names a folder")
    try:
        need("vtk")
    except UsageError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text


def write_vtk(result, args, out=None):
    """Write ``--vtk`` (when given) of ``result``; prints where."""
    if not getattr(args, "vtk", None):
        return
    from ..report.export import write_vtk as write

    with app.output(args.vtk):
        paths = write(result, args.vtk)
    print(f"VTK written to {args.vtk}: {os.path.basename(paths[-1])}"
          + (f" ({len(paths) - 1} frames)" if len(paths) > 1 else ""), file=out or sys.stdout)


def positive_float(text):
    """argparse type: a finite number > 0."""
    return positive(None, text, argparse.ArgumentTypeError)


def twist_deg(text):
    """argparse type: a finite angle in degrees in (-180, 180]."""
    return _float(text, lambda x: -180 < x <= 180, "an angle in degrees", f"must be in (-180, 180] degrees, got {text}")


def numbers(text):
    """argparse type: a 1-based list ``3,1,2`` (order kept) as 0-based integers."""
    try:
        out = [int(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected 1-based numbers like 3,1,2, got {text!r}") from None
    if min(out) < 1:
        raise argparse.ArgumentTypeError(f"numbers are 1-based, got {text!r}")
    return [n - 1 for n in out]


# ------------------------------------------------------------------ supports and loads on the command line
#: the gravity of ``--self-weight`` (SI units: m/s^2 along -z)
STANDARD_GRAVITY = (0.0, 0.0, -9.81)


def vector3(text):
    """argparse type: three finite numbers ``a,b,c``."""
    items = text.split(",")
    try:
        v = tuple(float(x) for x in items)
    except ValueError:
        v = ()
    if len(v) != 3 or not all(math.isfinite(x) for x in v):
        raise argparse.ArgumentTypeError(f"expected three finite numbers a,b,c, got {text!r}")
    return v


def nonnegative_float(text):
    """argparse type: a finite number >= 0."""
    return _float(text, lambda x: x >= 0, "a number", f"expected a number >= 0, got {text!r}")


def add_structure_options(ap):
    """Add ``--support``, ``--load``, ``--replace-supports``, ``--replace-loads``, ``--self-weight``,
    ``--gravity``, ``--thickness``, ``--density`` (module doc) to ``ap``; returns ``ap``."""
    g = _support_load_group(ap)
    _support_load_arguments(g)
    g.add_argument("--thickness", type=nonnegative_float, metavar="T",
                   help="every panel's thickness (replaces faces_origami:thickness)")
    g.add_argument("--density", type=nonnegative_float, metavar="RHO",
                   help="the panels' density, mass per volume (replaces origami:density)")
    _placement_arguments(g)
    return ap


def _support_load_group(ap):
    return ap.add_argument_group("supports and loads (1-based numbers, as in the tables; added to the file's unless "
                                 "--replace-supports / --replace-loads)",
                                 f"SELECTOR: {SYNTAX} (chrono_origami/boundary.py, docs/file-formats.md)")


def add_load_options(ap):
    """The supports and loads of :func:`add_structure_options` and ``--density``, for a command that has the
    thick panels' options already (:func:`add_placement_options`: ``fold``); returns ``ap``."""
    g = _support_load_group(ap)
    _support_load_arguments(g)
    g.add_argument("--density", type=nonnegative_float, metavar="RHO",
                   help="the panels' density, mass per volume (replaces origami:density)")
    return ap


def _support_load_arguments(g):
    g.add_argument("--support", action="append", default=[], metavar="SEL:DOFS[:pP]|auto",
                   help="hold the selected vertices in the global directions DOFS (a subset of xyz), on panel P "
                        "(default: the lowest-numbered panel at each vertex); repeatable, applied in the order given; "
                        "'auto': the proposed minimal support that stops the six rigid-body motions, completing the "
                        "supports before it (see the support command)")
    g.add_argument("--load", action="append", default=[], metavar="SEL:FX,FY,FZ[:pP]",
                   help="point force (global frame) at each selected vertex, on panel P (default: shared by the "
                        "panels at the vertex); repeatable")
    g.add_argument("--replace-supports", action="store_true",
                   help="drop the file's supports (by default --support adds to them)")
    g.add_argument("--replace-loads", action="store_true",
                   help="drop the file's loads (by default --load adds to them)")
    g.add_argument("--self-weight", action="store_true",
                   help=f"the panels' weight under gravity {STANDARD_GRAVITY[2]:g} along z (SI units), from their "
                        f"thickness and density")
    g.add_argument("--gravity", type=vector3, metavar="GX,GY,GZ",
                   help="the panels' weight under this acceleration (replaces the file's origami:gravity)")


def _placement_arguments(g):
    from ..structure.solids import SIDES, TECHNIQUES

    g.add_argument("--placement", choices=TECHNIQUES, default=None,
                   help="where each panel's volume sits (replaces origami:placement): mid (the pattern is the "
                        "mid-surface; default), offset (every panel on one side, --side), tapered (crease edges "
                        "bevelled so each crease folds freely up to --taper-deg or its target); "
                        "chrono_origami/structure/solids.py")
    g.add_argument("--side", choices=SIDES, default=None,
                   help="--placement offset: the panels below the pattern (default: valley folds close face to "
                        "face at 180 deg) or above")
    g.add_argument("--taper-deg", type=taper_deg, default=None, metavar="A",
                   help="--placement tapered: every crease folds freely up to A deg (0 < A <= 180; default each "
                        "crease's target)")


def taper_deg(text):
    """argparse type of ``--taper-deg``: a fold angle magnitude in (0, 180] degrees."""
    return _float(text, lambda x: 0 < x <= 180, "an angle in degrees", f"must be in (0, 180] degrees, got {text}")


def add_engine_option(ap, what="analysis engine"):
    """Add the one ``--engine`` option to ``ap`` (``what`` the engine does, for ``--help``); returns ``ap``."""
    ap.add_argument("--engine", choices=engines.ENGINES, default=None,
                    help=f"{what} (default: chrono where PyChrono imports, else reference)")
    return ap


def engine_of(args, needs=None, option="engine"):
    """The engine object of ``--engine`` (``option``: the attribute, ``contact_engine`` for
    ``--contact-engine``) by ``engines.get``: the one rule, its note on stderr; ``needs`` a capability
    (``engines.protocol``) the command needs. A command calls it once, where it needs the engine."""
    return engines.get(getattr(args, option, None), needs=needs)


def add_placement_options(ap):
    """Add ``--thickness``, ``--placement``, ``--side``, ``--taper-deg`` (thick panels and their contact) to a command
    that has no :func:`add_structure_options`; returns ``ap``."""
    g = ap.add_argument_group("thick panels (chrono_origami/structure/solids.py)")
    g.add_argument("--thickness", type=nonnegative_float, metavar="T",
                   help="every panel's thickness (replaces faces_origami:thickness); with it the panels' contact "
                        "is checked")
    _placement_arguments(g)
    g.add_argument("--contact-engine", choices=engines.ENGINES, default=None,
                   help="the contact check: chrono (Chrono's Bullet collision detection on the panels' solids as "
                        "convex shapes) or reference (separating axes on the solids, exact); default: chrono where "
                        "PyChrono imports, else reference")
    return ap


def wants_contact(structure, args, from_file=True):
    """True when the panels' solids matter: ``--thickness``, ``--placement``, ``--side`` or ``--taper-deg`` given,
    or (``from_file``) the file's ``origami:placement`` (a file's thickness alone sets only the mass)."""
    given = any(getattr(args, k, None) is not None for k in ("thickness", "placement", "side", "taper_deg"))
    return given or (from_file and structure.placement is not None)


def with_placement(structure, args, check=False):
    """``structure`` with the ``--thickness``, ``--placement``, ``--side``, ``--taper-deg`` of ``args``; ``check``:
    refuse (one line, exit 2, naming the panel) a thickness above a panel's inradius, a non-convex panel and bevels
    that leave no panel (``structure.solids.check_thickness``)."""
    from ..structure.solids import Placement, check_inradius, panel_solids

    technique = args.placement or (structure.placement.technique if structure.placement is not None else "mid")
    if getattr(args, "side", None) is not None and technique != "offset":
        raise UsageError(f"--side places an offset panel: give it with --placement offset, not {technique}")
    if getattr(args, "taper_deg", None) is not None and technique != "tapered":
        raise UsageError(f"--taper-deg bevels tapered panels: give it with --placement tapered, not {technique}")
    if args.thickness is not None:
        structure = option_value("--thickness", None, lambda: replace(structure, thickness=args.thickness))
    given = (args.placement, args.side, args.taper_deg)
    if any(x is not None for x in given):
        old = structure.placement or Placement()
        technique = args.placement or old.technique
        pl = option_value("--placement", None, lambda: Placement(
            technique, args.side or (old.side if technique == "offset" else "below"),
            args.taper_deg if args.taper_deg is not None else (old.taper_deg if technique == "tapered" else None)))
        structure = replace(structure, placement=pl)
    if check:
        if not any(structure.thickness):
            raise UsageError("the panels have no thickness: give --thickness T (> 0) for their solids and contact")
        option_value("--thickness", None, lambda: check_inradius(structure))
        option_value("--placement", None, lambda: panel_solids(structure))
    return structure


def with_structure_options(structure, args, out=None):
    """``structure`` with the supports, loads and self-weight of ``args`` (module doc).

    The ``--support`` options apply in the order given: ``--support auto`` completes the supports of the file and
    of the ``--support`` options before it (its proposal printed to ``out``), so ``--support X --support auto``
    completes X, and ``--support auto --support Y`` adds Y to the proposal (as the support command's "to stop"
    line gives Y).
    A value the structure refuses is a :class:`.app.UsageError` (exit code 2) naming the option.
    """
    from dataclasses import replace

    out = out or sys.stdout
    if getattr(args, "support", None) is None:
        return structure
    if args.thickness is not None or args.density is not None:
        structure = option_value("--thickness" if args.thickness is not None else "--density", None, lambda: replace(
            structure, thickness=structure.thickness if args.thickness is None else args.thickness,
            density=structure.density if args.density is None else args.density))
    structure = with_placement(structure, args, check=args.placement is not None or args.taper_deg is not None)
    for what, option, replace_it, given in (("supports", "--support", args.replace_supports, args.support),
                                            ("loads", "--load", args.replace_loads, args.load)):
        had = len(getattr(structure, what))
        items = what if had != 1 else what[:-1]
        if replace_it:
            print(f"--replace-{what}: the structure's {had} {items} dropped", file=out)
            structure = structure.with_supports(replace=True) if what == "supports" else \
                structure.with_loads(replace=True)
        elif had and given:
            them = "them" if had != 1 else "it"
            print(f"{option} adds to the structure's {had} {items} (--replace-{what} drops {them})", file=out)
    for text in args.support:
        if text.strip().lower() == "auto":
            from ..analysis.support import propose_support

            proposal = propose_support(structure)
            print(proposal.accepted(), file=out)
            structure = proposal.structure
            continue
        structure = option_value("--support", text, lambda: structure.with_supports(text, origin="--support"))
    for text in args.load:
        structure = option_value("--load", text, lambda: structure.with_loads(text, origin="--load"))
    if args.self_weight or args.gravity is not None:
        g = args.gravity if args.gravity is not None else STANDARD_GRAVITY
        structure = option_value("--self-weight" if args.gravity is None else "--gravity", None,
                            lambda: structure.with_self_weight(g))
    return structure


def prepare(structure, args, out=None):
    """Print the structure's name, apply the supports and loads of ``args`` (:func:`with_structure_options`) and
    print those it then carries (1-based, with their origin); returns it. The first step of ``static``, ``count``,
    ``design``, ``support`` and the static scenes."""
    from ..report.tables import inputs_text

    out = out or sys.stdout
    print(f"{structure.name}: {structure.pattern!r}", file=out)
    structure = with_structure_options(structure, args, out)
    print(inputs_text(structure), file=out)
    return structure


def option_value(option, text, make, errors=StructureError):
    """``make()``; a value it refuses (``errors``) becomes a one-line UsageError (exit 2) naming ``option`` (and its
    ``text``): the one way a command turns the library's refusal of an option's value into a usage error."""
    try:
        return make()
    except errors as e:
        msg = str(e)
        what = option.lstrip("-")
        for prefix in (f"{option} {text!r}: ", f"{option}: ", f"{what} {text!r}: ", f"{what}: "):
            if msg.startswith(prefix):
                msg = msg[len(prefix):]
        raise UsageError(f"{option}{'' if text is None else ' ' + repr(text)}: {msg}") from None


# ------------------------------------------------------------------ hinge stiffness
STIFFNESS_SYNTAX = "KT,KR | KIND:KT,KR | H:KT,KR | crease:KC | slide:KS"


def add_stiffness_option(ap):
    """``--hinge-stiffness SPEC`` (repeatable; ``structure.tolerance.parse_stiffness``): the stiffness of elastic
    hinges per metre of hinge, over the file's (``origami:stiffness``, ``edges_origami:stiffness``)."""
    from ..structure import tolerance as imp

    ap.add_argument("--hinge-stiffness", action="append", default=[], metavar=STIFFNESS_SYNTAX,
                    help="stiffness of elastic hinges per metre of hinge, SI: translational KT (N/m per m) and "
                         "rotational KR (N m/rad per m) of every hinge, of a kind (door:KT,KR) or of hinges "
                         "(1-based: 3,7-9:KT,KR); crease:KC (N m/rad per m) and slide:KS (N/m per m) the springs "
                         "of the free directions where M > 0; repeatable, later ones win "
                         f"(default {imp.DEFAULT_TRANSLATIONAL:g},{imp.DEFAULT_ROTATIONAL:g}, crease:"
                         f"{imp.DEFAULT_CREASE:g}, slide:{imp.DEFAULT_SLIDE:g})")
    return ap


def stiffness_of(args, structure, first=()):
    """The ``HingeStiffness`` of ``structure``: the file's keys (``structure.notes["stiffness"]``), then ``first``
    ((option, spec) pairs), then ``--hinge-stiffness``; a bad spec or a hinge the structure does not have is one
    line naming the option (``ToleranceError``: exit code 2)."""
    from ..structure import tolerance as imp

    k = imp.parse_stiffness(structure.notes.get("stiffness", ()), structure, what="the file's stiffness")
    for what, spec in first:
        k = imp.parse_stiffness([spec], structure, k, what)
    return imp.parse_stiffness(getattr(args, "hinge_stiffness", []), structure, k)
