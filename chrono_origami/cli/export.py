"""The ``export`` command: ``python -m chrono_origami export FILE [--thickness T --placement P] --dxf F --stl F ...``.

Writes the panels of a FOLD, SVG or ORIPA input for the workshop (``report.export``): ``--dxf FILE`` the flat
panels for cutting (outlines on the bed, bevels with their angle, creases M and V apart, 1-based labels),
``--stl``, ``--3mf``, ``--glb FILE`` one closed solid per panel at the chosen ``--frame`` with the hinge axes
beside as ``FILE_hinge_axes.csv``; ``--fold FILE`` the FOLD file of the solids' reference surfaces (offset panels'
mid-surfaces). The panels' thickness and placement come from the file or from
``--thickness``, ``--placement``, ``--side``, ``--taper-deg`` (``structure.solids``); the solids need a thickness
and a placement. Every output path is checked before the work; a missing package is one line with its pip
command (exit 2).
"""
import argparse
import os

from ..report import export
from ..tools.errors import StructureError
from . import app, inputs

#: option -> (extension, what)
OUTPUTS = {"dxf": (".dxf", "the flat panels for cutting (DXF)"),
           "stl": (".stl", "the panels' solids (STL)"),
           "3mf": (".3mf", "the panels' solids, one object per panel (3MF)"),
           "glb": (".glb", "the panels' solids, one node per panel (binary glTF)"),
           "fold": (".fold", "the FOLD file of the solids' reference surfaces (their mid-surfaces; mid placement)")}


def _file_of(fmt):
    ext = OUTPUTS[fmt][0]

    def check(text):
        if not text.lower().endswith(ext):
            got = os.path.splitext(text)[1] or "no extension"
            raise argparse.ArgumentTypeError(f"{text!r}: --{fmt} writes a {ext} file, not {got} (the formats: "
                                             f"{', '.join('--' + k for k in OUTPUTS)})")
        return text
    return check


def _options(description):
    ap = inputs.add_input(app.parser(description))
    g = ap.add_argument_group("thick panels (chrono_origami/structure/solids.py)")
    g.add_argument("--thickness", type=inputs.nonnegative_float, metavar="T",
                   help="every panel's thickness (replaces faces_origami:thickness)")
    inputs._placement_arguments(g)
    for fmt, (ext, what) in OUTPUTS.items():
        ap.add_argument(f"--{fmt}", dest=f"out_{fmt}", metavar=f"FILE{ext}", type=_file_of(fmt),
                        help=f"write {what}")
    return ap


def check_writable(path, option):
    """A path that cannot be written (its folder is a file, or not writable; the path is a folder) is a
    usage error naming the option, before any work."""
    folder = os.path.dirname(os.path.abspath(path))
    probe = folder
    while not os.path.exists(probe):
        probe = os.path.dirname(probe)
    if os.path.isdir(path):
        raise app.UsageError(f"{option} {path}: is a folder; name a file")
    if not os.path.isdir(probe) or not os.access(probe, os.W_OK | os.X_OK):
        raise app.UsageError(f"{option} {path}: cannot write there ({probe} is not a writable folder)")


@app.command("export", "write the panels for the workshop: DXF for cutting, STL/3MF/GLB solids (with the hinge axes)",
             _options)
def export_command(args):
    wanted = {fmt: getattr(args, f"out_{fmt}") for fmt in OUTPUTS if getattr(args, f"out_{fmt}")}
    if not wanted:
        raise app.UsageError(f"nothing to export: give one or more of {', '.join('--' + k + ' FILE' for k in OUTPUTS)}")
    for fmt, path in wanted.items():
        check_writable(path, f"--{fmt}")
        if os.path.abspath(path) == os.path.abspath(args.file):
            raise app.UsageError(f"--{fmt} {path}: the input file is never overwritten; name a new file")
        if fmt != "fold":
            export.need(fmt)
    structure = inputs.read_input(args)
    solids = [fmt for fmt in wanted if fmt not in ("dxf", "fold")]
    placed = args.placement is not None or structure.placement is not None
    if solids and not placed:
        raise app.UsageError(f"--{solids[0]}: where each panel's volume sits is not given (no origami:placement in "
                             f"{args.file}): give --placement mid, offset or tapered with the thickness")
    structure = inputs.with_placement(structure, args)
    tapered = structure.placement is not None and structure.placement.technique == "tapered"
    if (solids or tapered) and not any(structure.thickness):
        raise app.UsageError("the panels have no thickness: give --thickness T (> 0) for their solids")
    print(f"{structure.name}: {structure.pattern!r}")
    if structure.placement is not None and any(structure.thickness):
        from ..structure.solids import placement_of

        print(f"panels: thickness {_thickness(structure)}, {placement_of(structure).describe()}")
    try:
        if "dxf" in wanted:
            with app.output(wanted["dxf"]):
                export.write_dxf(structure, wanted["dxf"])
            print(f"wrote {wanted['dxf']} (layers PANELS, CREASES_M, CREASES_V, CREASES, BEVELS, LABELS)")
        if "fold" in wanted:
            with app.output(wanted["fold"]):
                export.export(structure, fold=wanted["fold"])
            print(f"wrote {wanted['fold']} (the solids' reference surfaces, mid placement)")
        for fmt in solids:
            with app.output(wanted[fmt]):
                path, axes = export.write_mesh(structure, wanted[fmt], fmt)
            print(f"wrote {path} ({structure.pattern.n_panels} panel solids) and {axes} (hinge axes)")
    except StructureError as e:     # the solids refuse the thickness or placement: a usage error naming the option
        raise app.UsageError(f"{'--thickness' if 'inradius' in str(e) else '--placement'}: {e}") from None
    return app.EXIT_OK


def _thickness(structure):
    import numpy as np

    t = np.asarray(structure.thickness, float)
    return f"{t[0]:g}" if np.all(t == t[0]) else f"{t.min():g} to {t.max():g}"
