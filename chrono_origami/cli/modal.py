"""The ``modal`` command and the common command line of the modal scenes (``scenes/kc_*.py``, ``scenes/*_modes.py``).

``python -m chrono_origami modal FILE.fold [--crease-stiffness K] [--modes N] [--no-kc | --compare-kc] --out DIR``
gives the lowest modes of the user's structure at its static equilibrium (``co.modal``,
:func:`chrono_origami.analysis.modal.modal`), with the supports and loads ``static`` takes (:mod:`.inputs`) and
the engine rule of ``static`` (Chrono where PyChrono imports: its static equilibrium with Kc and its
linearisation; else the reference engine, at the pattern configuration). Zero modes (rigid-body motions,
mechanisms that nothing stiffens) are counted and named by the panels that move most, never given a frequency.
``--out DIR`` writes the table ``modes`` (mode, frequency_hz, eigenvalue omega^2, stable; with ``--compare-kc``
frequency_hz_without_kc) in ``--format`` and ``modes.fold`` (one animated cycle per mode in ``file_frames``);
``--figure FILE`` draws the lowest modes; ``--html FILE`` writes the results page, every mode animated and chosen
from a list with its frequency (``report.page.modal_data``). The command is :func:`modal_command`.

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
import os
import sys

from ..report import modal as report_modal
from ..results.modal import KcComparison
from .. import engines
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


# ---------------------------------------------------------------------- the modal command
def _modal_options(description):
    ap = inputs.add_input(app.parser(description))
    inputs.add_engine_option(ap, "engine of the static equilibrium and its linearisation")
    inputs.add_out(ap, "the table modes and modes.fold (one animated cycle per mode)")
    ap.add_argument("--modes", type=positive_int, default=10, metavar="K",
                    help="the K lowest modes (default 10)")
    kc = ap.add_mutually_exclusive_group()
    kc.add_argument("--no-kc", action="store_true",
                    help="the modes without the constraint tangent stiffness Kc (at the equilibrium found with it)")
    kc.add_argument("--compare-kc", action="store_true",
                    help="the modes with and without Kc side by side, with each mode's relative frequency change")
    ap.add_argument("--crease-stiffness", type=nonnegative_float, default=0.0, metavar="K",
                    help="rotational spring on every hinge's fold, at rest in the file's configuration (N m/rad; "
                         "default 0)")
    ap.add_argument("--slide-stiffness", type=nonnegative_float, default=0.0, metavar="KS",
                    help="axial spring on every sliding hinge, at rest (N/m; default 0)")
    ap.add_argument("--actuate", metavar="HINGES",
                    help="hinges held at their angle by motors (1-based, door or sliding): their torques carry the "
                         "loads there, their servo stiffness is --actuator-stiffness (reference engine; as fold "
                         "--modes holds its actuators)")
    ap.add_argument("--actuator-stiffness", type=nonnegative_float, default=None, metavar="K",
                    help="--actuate: the motors' servo stiffness (N m/rad; default the --crease-stiffness)")
    ap.add_argument("--method", choices=["auto", "nullspace", "augmented", "sparse"], default="auto",
                    help="eigen solver (default auto: null-space reduction, sparse shift-invert for large systems)")
    ap.add_argument("--frames", type=positive_int, default=24, metavar="N",
                    help="frames per cycle of each mode in modes.fold (default 24)")
    ap.add_argument("--figure", metavar="FILE", type=inputs.figure_file,
                    help=f"draw the {report_modal.MODES_DRAWN} lowest modes (png or pdf)")
    inputs.add_html(ap, "every mode animated, chosen from a list with its frequency (--frames a cycle)")
    inputs.add_structure_options(ap)
    return ap


def check_mass(structure):
    """A structure without panel mass is a usage error naming the option to give (exit 2)."""
    from ..results.count import number_ranges

    thin = [p + 1 for p, h in enumerate(structure.thickness) if not h > 0]
    give = []
    if thin:
        which = "no panel has" if len(thin) == structure.pattern.n_panels else \
            f"panel{'s' if len(thin) > 1 else ''} {number_ranges(thin).strip('[]')} ha{'ve' if len(thin) > 1 else 's'}"
        give.append(("--thickness T", f"{which} a thickness"))
    if not structure.density > 0:
        give.append(("--density RHO", f"the density is {structure.density:g}"))
    if give:
        raise app.UsageError(f"{structure.name}: the panels have no mass ({'; '.join(w for _, w in give)}): give "
                             f"{' and '.join(o for o, _ in give)} (a modal analysis needs thickness x density x area)")


def modal_report(structure, args, out=None):
    """The modal analysis of ``structure`` (supports and loads applied) as ``args`` asks: printed, written; the
    :class:`~chrono_origami.results.modal.ModalAnalysis`."""
    from ..analysis.modal import modal
    from ..tools.errors import IndeterminateError

    out = out or sys.stdout
    check_mass(structure)
    held, crease = held_hinges(structure, args)
    engine = inputs.engine_of(args) if not held else engines.get("reference", notice=False)
    kc = "off" if args.no_kc else "compare" if args.compare_kc else "on"
    try:
        a = modal(structure, engine, modes=args.modes, crease_stiffness=crease,
                  slide_stiffness=args.slide_stiffness, kc=kc, method=args.method, held=held)
    except IndeterminateError as e:
        raise IndeterminateError(f"{structure.name}: {e.S} redundant constraints (self-stress states) carry the "
                                 "loads, so their multipliers, and Kc, are not determined by them; design FILE makes "
                                 "hinges sliding for S = 0", e.M, e.S) from None
    eq = a.result.equilibrium
    springs = []
    if args.crease_stiffness:
        springs.append(f"crease springs {args.crease_stiffness:g} N m/rad")
    if held:
        tau = a.result.matrices.info.get("held_torques", [])
        springs.append(f"hinge{'s' if len(held) > 1 else ''} {', '.join(str(h + 1) for h in held)} held by motors "
                       f"of {crease[held[0]]:g} N m/rad (torques " + ", ".join(f"{-t:.6g}" for t in tau) +
                       " N m, FOLD sign)")
    if args.slide_stiffness:
        springs.append(f"slide springs {args.slide_stiffness:g} N/m")
    where = "the pattern's configuration" if engine.name == "reference" else "Chrono's static analysis with Kc"
    print(f"engine: {engine.name}; static equilibrium ({where}): relative residual {eq.residual:.2e}, constraint "
          f"violation {eq.violation:.2e}; " + (", ".join(springs) or "no crease springs"), file=out)
    print(report_modal.analysis_text(a), file=out)
    if args.out:
        (path,) = inputs.write_tables([a.table()], args)
        with app.output(args.out):
            fold = report_modal.write_modes_fold(os.path.join(args.out, "modes.fold"), a, args.frames)
        n = len(a.modes)
        print(f"modes written to {path}; " + (f"{n} mode{'s' if n != 1 else ''} animated in {fold} ({args.frames} "
                                                f"frames a cycle)" if n else f"{fold}: the structure (no mode)"),
              file=out)
    if args.figure:
        with app.output(args.figure):
            report_modal.draw_modes(a, args.figure)
        print(f"figure written to {args.figure}", file=out)
    inputs.write_html(a, args, out, n_frames=args.frames)
    return a


def held_hinges(structure, args):
    """(0-based hinges of ``--actuate``, per-hinge crease stiffness: ``--actuator-stiffness`` on them, else
    ``--crease-stiffness``); a bad hinge list, ``--actuate`` with ``--engine chrono`` or ``--actuator-stiffness``
    without ``--actuate`` is one line, exit 2."""
    import numpy as np

    from ..inputs.fold import parse_hinges
    from ..tools.errors import OrigamiError

    H = len(structure.pattern.hinges)
    if getattr(args, "actuate", None) is None:
        if getattr(args, "actuator_stiffness", None) is not None:
            raise app.UsageError("--actuator-stiffness is the stiffness of the motors of --actuate: give --actuate "
                                 "HINGES, or leave it out")
        return [], args.crease_stiffness
    if getattr(args, "engine", None) == "chrono":
        raise app.UsageError("--actuate holds hinges by preloaded motors, the reference engine's: --engine reference "
                             "(Chrono's crease springs are at rest and sag under the loads)")
    held = inputs.option_value("--actuate", args.actuate, lambda: parse_hinges(args.actuate, H), OrigamiError)
    bad = [h for h in held if not structure.kinds[h].frees("rz")]
    if bad:
        raise app.UsageError(f"--actuate {args.actuate}: hinge {bad[0] + 1} is a {structure.hinge_kinds[bad[0]]} "
                             f"hinge: a motor holds the fold angle of a door or sliding hinge")
    k = np.full(H, float(args.crease_stiffness))
    k[held] = args.crease_stiffness if args.actuator_stiffness is None else args.actuator_stiffness
    return list(held), k


@app.command("modal", "the lowest modes of a structure at its static equilibrium, with and without Kc",
             _modal_options)
def modal_command(args):
    structure = inputs.prepare(inputs.read_input(args), args)
    modal_report(structure, args)
    return app.EXIT_OK
