"""The common command line of the modal scenes (``scenes/kc_*.py``, ``scenes/*_modes.py``).

Each scene finds a static equilibrium with Chrono (with Kc), prints its lowest
modes with and without Kc at that equilibrium, and with ``--out DIR`` writes

* ``DIR/modes.csv``: ``mode,eig_real,eig_imag,freq_hz,stable``, the modes of the
  analysis with Kc (``--no-kc``: without Kc, the static analysis included) sorted
  by frequency (Hz, ``|Im lambda| / 2 pi``; 0 for a divergence), zero (rigid-body,
  mechanism) and spurious modes left out. lambda in rad/s.

``--no-kc`` runs everything without Kc, so a loaded mechanism's static
analysis fails: the error is printed and the exit code is 1 (no CSV).
Errors and exit codes are those of the command line (:mod:`.app`).
Structures also take ``--fold FILE`` (mode ``--mode`` animated in FOLD
``file_frames``) and ``--png DIR`` (PNG frames).
"""
import sys

from ..report import modal as report_modal
from ..results.modal import KcComparison
from . import app, inputs
from .inputs import nonnegative_float, positive_int


#: the float options an origami modal scene may take (``parser(..., name=default)``)
STRUCTURE_OPTIONS = {
    "thickness": "panel thickness",
    "density": "panel density",
    "crease_stiffness": "rotational spring per hinge",
    "slide_stiffness": "axial spring per sliding hinge",
}


def parser(description, structure=False, **defaults):
    """A modal scene's parser; ``structure``: an origami structure (exports), not a bare ChSystem.

    ``defaults``: default values of options of :data:`STRUCTURE_OPTIONS`
    (``thickness=1.0`` adds ``--thickness``, default 1); the springs
    (``--crease-stiffness``, ``--slide-stiffness``) go to :func:`run_structure`.
    """
    ap = app.parser(description)
    inputs.add_out(ap, "the table modes")
    ap.add_argument("--no-kc", action="store_true",
                    help="no constraint tangent stiffness anywhere (static analysis and modes)")
    ap.add_argument("--modes", type=positive_int, default=10, metavar="N", help="modes to print (default 10)")
    ap.add_argument("--method", choices=["auto", "nullspace", "augmented", "sparse"], default="auto",
                    help="eigen solver (default auto: null-space reduction, sparse shift-invert for large systems)")
    if structure:
        ap.add_argument("--fold", metavar="FILE", help="write mode --mode animated in a FOLD file (file_frames)")
        ap.add_argument("--png", metavar="DIR", help="write PNG frames of mode --mode")
        ap.add_argument("--mode", type=positive_int, default=1, help="mode to export (1-based, default 1)")
        ap.add_argument("--frames", type=positive_int, default=24, help="frames per period in the exports (default 24)")
    for name, default in defaults.items():
        ap.add_argument("--" + name.replace("_", "-"), type=nonnegative_float, default=default,
                        help=f"{STRUCTURE_OPTIONS[name]} (default {default:g})")
    return ap


def system_scene(ap, build, argv=None):
    """A bare-system scene: ``build(args)`` gives (ChSystem, equilibrium note function or None); exits."""
    app.scene(ap, build, lambda built, args: run_system(built[0], args, built[1]), argv)


def structure_scene(ap, build, argv=None):
    """An origami scene: ``build(args)`` gives the structure; :func:`run_structure`; exits."""
    app.scene(ap, build, run_structure, argv)


def report(with_kc, without_kc, args, out=None):
    """Print the modes (both analyses when there are two) and write modes.csv; returns the exit code."""
    out = out or sys.stdout   # resolved at call time: sys.stdout may have been replaced
    if without_kc is not None:
        print(report_modal.modes_table(with_kc, args.modes, "modes with Kc (constraint tangent stiffness):"),
              file=out)
        print(file=out)
        print(report_modal.modes_table(without_kc, args.modes, "modes without Kc, same equilibrium:"), file=out)
        print(file=out)
        print(report_modal.comparison_table(KcComparison(with_kc, without_kc), args.modes), file=out)
    else:
        print(report_modal.modes_table(with_kc, args.modes, "modes without Kc (static analysis without Kc too):"
                                       if args.no_kc else "modes with Kc:"), file=out)
    if args.out:
        (path,) = inputs.write_tables([with_kc.table()], args)
        print(f"modes written to {path}", file=out)
    return app.EXIT_OK


def run_system(system, args, equilibrium_note=None, out=None):
    """Modal analysis of a bare ChSystem (pendulum, anchor chain) as the scene options ask."""
    out = out or sys.stdout
    from ..analysis import modal

    if args.no_kc:
        r = modal.modal_analysis(system, False, args.method, None, "no-kc")
        second = None
    else:
        c = modal.compare_tangent_stiffness(system, args.method)
        r, second = c.with_kc, c.without_kc
    print(f"static equilibrium: relative residual {r.equilibrium.residual:.2e}, constraint violation "
          f"{r.equilibrium.violation:.2e}", file=out)
    if equilibrium_note:
        print(equilibrium_note(), file=out)
    return report(r, second, args, out)


def run_structure(structure, args, out=None, **kw):
    """Modal analysis of an origami structure (:func:`~chrono_origami.analysis.modal.structure_modes`) with exports.

    The springs of ``--crease-stiffness`` and ``--slide-stiffness``, where
    the parser has them, are passed on unless ``kw`` gives them.
    """
    out = out or sys.stdout
    from ..analysis import modal

    for name in ("crease_stiffness", "slide_stiffness"):
        if hasattr(args, name):
            kw.setdefault(name, getattr(args, name))
    res = modal.structure_modes(structure, use_tangent_stiffness=not args.no_kc, method=args.method, **kw)
    r = res.with_kc
    print(f"{structure.name}: {structure.pattern!r}", file=out)
    eq = r.equilibrium
    print(f"static equilibrium: relative residual {eq.residual:.2e}, constraint violation {eq.violation:.2e}"
          + (f"; crease spring torques up to {abs(res.springs.torques()).max():.4g}" if res.springs else ""),
          file=out)
    if r.info.get("dof") == 0:
        print("no modes: Cq has full column rank (no mechanism), so rigid panels on ideal hinges cannot move",
              file=out)
    code = report(r, res.without_kc, args, out)
    modes = r.modes
    if getattr(args, "fold", None) or getattr(args, "png", None):
        if not 1 <= args.mode <= len(modes):
            raise app.UsageError(f"--mode {args.mode}: the analysis has {len(modes)} mode{'' if len(modes) == 1 else 's'} "
                                 f"(1..{len(modes)})")
        mode = modes[args.mode - 1]
        if args.fold:
            with app.output(args.fold):
                report_modal.write_mode_fold(args.fold, res.built, r, mode, args.frames)
            print(f"mode {args.mode} ({mode.freq_hz:.5g} Hz) written to {args.fold}", file=out)
        if args.png:
            with app.output(args.png):
                paths = report_modal.write_mode_pngs(args.png, res.built, r, mode, args.frames)
            print(f"{len(paths)} frames of mode {args.mode} written to {args.png}", file=out)
    return code
