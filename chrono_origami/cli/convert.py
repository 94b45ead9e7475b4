"""The ``convert`` command: ``python -m chrono_origami convert FILE.svg -o FILE.fold`` (also ORIPA's .cp, .opx).

Writes the FOLD file of a drawn crease pattern (:func:`chrono_origami.structure.foldfile.convert`):
the flat pattern with the drawing's mountain/valley assignment and target fold
angles, read back as a structure before it is written.
"""
from ..crease import is_drawing
from ..structure import foldfile
from . import app, inputs


def _options(description):
    ap = app.parser(description)
    ap.add_argument("file", metavar="FILE.svg", help="SVG crease pattern (Origami Simulator's colours) or ORIPA "
                                                      "file (.cp, .opx)")
    ap.add_argument("-o", "--output", metavar="FILE.fold", required=True, help="the FOLD file to write")
    ap.add_argument("--facets", choices=foldfile.FACETS, default=None,
                    help="yellow (SVG) and aux (ORIPA) lines: facet (merged into rigid faces, default) or crease "
                         "(written as 'F')")
    ap.add_argument("--merge-tol", type=inputs.merge_fraction, default=None,
                    help="merge line ends closer than this fraction of the sheet size (default 1e-3)")
    inputs.add_drawing_options(ap)
    return ap


@app.command("convert", "write the FOLD file of an SVG or ORIPA crease pattern", _options)
def convert_command(args):
    if not is_drawing(args.file):
        raise app.UsageError(f"{args.file}: convert reads a drawn crease pattern (FILE.svg, FILE.cp, FILE.opx)")
    inputs.check_exists(args.file)
    inputs.check_input_options(args)
    notes = []
    with app.output(args.output):
        d = foldfile.convert(args.file, args.output, merge_tol=args.merge_tol, facets=args.facets, colors=args.colors,
                             dashes=args.dashes, notes=notes)
    for note in notes:
        print(f"note: {app.flags(note)}")
    n = len(d.get("faces_vertices", ()))
    print(f"wrote {args.output}: {len(d['vertices_coords'])} vertices, {len(d['edges_vertices'])} edges, {n} faces")
    return app.EXIT_OK
