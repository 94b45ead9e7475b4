"""Folding: ``python -m chrono_origami fold FILE [--percent P]`` (to the file's target angles) or with
``--drive HINGES --angle-deg A | --rate R``, and ``play``.

Angles are FOLD's everywhere on the command line: a fold angle is positive
for a valley, negative for a mountain (degrees in files, ``--angle-deg``;
rad/s for ``--rate``), and a drive gives the change of the fold angle from
the start.

Without ``--drive`` the fold goes to the file's target angles (FOLD
``edges_foldAngle`` with its M/V assignment, an SVG's stroke opacity; see
``engines.reference.fold.targets``) at ``--percent`` (0-100, default 100, Origami
Simulator's fold percent): the fold follows the mechanism, the targets' rates
projected onto the free motions of the hinge constraints (exact), from a flat
start on the branch of the M/V assignment and the fold-angle multipliers, so
no holds are needed; where the projected rate vanishes before the targets it
stops and says how far it got. Before a flat
pattern is folded its geometry is checked (``structure.pattern_check``):
rounded coordinates that miss Kawasaki's condition stop the fold at once
with the worst vertices named; ``--fix-geometry`` folds a least-squares
correction of the vertex positions instead (the largest move printed,
refused beyond ``--max-move``), ``--keep-geometry`` folds the file as it is.

With ``--drive``: hinges and vertices are 1-based lists like ``1,3,5-9``;
``--rate`` (rad/s) or ``--angle-deg`` (reached at ``--time``). Holds:
``--hold`` (fixed), ``--along V:AXIS``, ``--in-plane V:NORMAL``, ``--block
V:DOFS`` (AXIS/NORMAL x, y, z or ``a,b,c``); without any hold, panel 1 is
held. A start that is singular (a flat pattern) is left with
``--from-singular`` on the branch of the file's ``edges_assignment`` (M/V),
when it has one; with the Chrono engine the reference engine takes that
first step (to ``--time``/200) and Chrono folds on from there
(``analysis.fold.regular_start``). The engine: ``--engine``, by default the
one rule of ``engines`` (Chrono where PyChrono imports); the fold to target
angles is the reference engine's alone.

Writes, with ``--out DIR``, ``DIR/vertices.csv`` (final), ``DIR/fold.fold``
(history as file_frames: frame 0 the start with the file's assignment and
targets, the last frame the folded state; the frame numbers are printed) and
``DIR/steps.csv`` (residual of every step); ``--html FILE`` the results page
(``report.page``: the frames with a slider and a play button). ``--viz`` plays the fold in
Chrono's Irrlicht viewer; ``--png-frames DIR`` writes one PNG per frame,
drawn by matplotlib or, with ``--png-renderer irrlicht``, by Irrlicht
(headless under xvfb-run). ``scenes/yoshimura_folding.py`` takes the same
output options (:func:`output_options`).

``--forces`` (``analysis.deploy``): the actuator torques and hinge forces at every stored frame under the
supports and loads (``--support``, ``--load``, ``--self-weight``, ``--gravity``, ``--thickness``, ``--density``
as ``static`` takes them; ``--support auto`` holds panel 1, which the fold holds), the ``--actuate`` hinges held
(default printed as a line to copy), rigid or with ``--elastic``; ``--out`` writes actuation, path_hinges,
path_supports, path_frames and envelope (``--format``), ``--figure`` the torques against the percent, ``--html``
the path's page (:func:`run_forces`). Bad settings are one line and exit 2; an undetermined frame without
``--elastic`` exits 3 after the kinematics are written.

``--modes K`` (:func:`run_modes`): the K lowest frequencies at every stored frame (``analysis.modal.modal``, with
Kc, the reference engine), under the same supports and loads, the frames placed and the actuators chosen as
``--forces`` does (``analysis.deploy``'s ``frame_loop``, ``choose_actuators``) and held at their angle by motors
(preloaded: their torques carry the loads) of servo stiffness ``--actuator-stiffness``, crease springs
``--crease-stiffness`` elsewhere; ``--out`` writes path_modes (``--format``), ``--figure`` the frequencies against
the percent; the lowest over the path is printed. No mass (thickness, density) is one line, exit 2; a frame whose
self-stress states carry the loads (Kc undetermined) exit 3.

``play FILE.fold --viz | --png-frames DIR`` plays a fold history (frame 0 and
``file_frames``, e.g. the ``fold.fold`` that ``fold --out`` writes) in
Chrono's Irrlicht viewer, or writes one PNG per frame.
"""
import os
import sys

import numpy as np

from .. import engines
from ..engines.protocol import FOLD_TO_TARGETS
from ..analysis.fold import fold, fold_to_targets
from ..report import fold as report_fold
from ..inputs.fold import (Drive, FoldProblem, along, blocked, fixed, in_plane, parse_hinges,
                           parse_vertices)
from ..structure import foldfile
from ..tools.errors import IndeterminateError, OrigamiError, StructureError
from . import app, inputs
from .static import linalg_option


def output_options(ap):
    """Engine, outputs and views of a fold (the ``fold`` command and the folding scenes); returns ``ap``."""
    inputs.add_engine_option(ap, "folding engine")
    inputs.add_out(ap, "the tables vertices (the last frame) and steps, and fold.fold")
    ap.add_argument("--figure", metavar="FILE", type=inputs.figure_file, help="snapshots of the fold (png/pdf)")
    ap.add_argument("--png-frames", metavar="DIR", help="one PNG per stored frame")
    ap.add_argument("--png-renderer", choices=("matplotlib", "irrlicht"), default="matplotlib",
                    help="renderer of --png-frames (default matplotlib; irrlicht needs PyChrono and a display)")
    ap.add_argument("--viz", action="store_true", help="play the fold in Chrono's Irrlicht viewer (loops until closed)")
    ap.add_argument("--quiet", action="store_true", help="no progress bar (it is drawn only on a terminal anyway)")
    inputs.add_html(ap, "the fold's frames (a slider and a play button)")
    inputs.add_vtk(ap, "the fold's frames (panels, hinges with their fold angles)")
    linalg_option(ap, rank=False)     # the fold's Newton steps have their own singularity tests
    return ap


def options(description):
    """The ``fold`` command's parser: the input file, drives and holds, :func:`output_options`."""
    ap = inputs.add_input(app.parser(description))
    ap.add_argument("--percent", type=percent, default=None, metavar="P",
                    help="without --drive: fold to P %% of the file's target angles (0-100, default 100)")
    ap.add_argument("--drive", metavar="HINGES", help="driven hinges, 1-based, e.g. 1-15 (default: every crease "
                                                      "with a target angle in the file, toward it)")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--rate", type=finite, help="with --drive: rate of the fold angle (rad/s, FOLD sign: valley "
                                               "positive)")
    g.add_argument("--angle-deg", type=finite, help="with --drive: change of the fold angle reached at --time "
                                                    "(deg, FOLD sign: valley positive)")
    ap.add_argument("--fix-geometry", action="store_true",
                    help="fold a least-squares correction of a flat pattern's vertex positions that restores "
                         "Kawasaki's condition (the file is not changed; the largest move is printed)")
    ap.add_argument("--max-move", type=inputs.positive_float, default=None, metavar="D",
                    help="--fix-geometry: refuse a correction that moves a vertex farther than D (length units; "
                         "default 1e-3 x the pattern size)")
    ap.add_argument("--keep-geometry", action="store_true",
                    help="fold a flat pattern whose geometry misses Kawasaki's condition as it is")
    ap.add_argument("--time", type=inputs.positive_float, default=1.0, help="fold duration (s), default 1")
    ap.add_argument("--hold", metavar="VERTICES", help="vertices held fixed, e.g. 6")
    ap.add_argument("--along", action="append", default=[], metavar="V:AXIS", help="vertices moving only along an axis")
    ap.add_argument("--in-plane", action="append", default=[], metavar="V:NORMAL", help="vertices moving in a plane")
    ap.add_argument("--block", action="append", default=[], metavar="V:DOFS", help="vertices held in directions, e.g. 14:xy")
    ap.add_argument("--frames", type=inputs.positive_int, default=20, help="stored frames (default 20)")
    ap.add_argument("--from-singular", action="store_true", help="leave a singular (e.g. flat) start")
    ap.add_argument("--through-contact", action="store_true",
                    help="with thick panels: fold on past the first contact and list every contact (by default the "
                         "fold stops at the first frame where two panels interpenetrate)")
    inputs.add_placement_options(ap)
    force_options(ap)
    return output_options(ap)


def force_options(ap):
    """``--forces`` and its settings: the supports and loads (``inputs.add_load_options``), ``--actuate``,
    ``--elastic``, ``--hinge-stiffness``; returns ``ap``."""
    inputs.add_load_options(ap)
    g = ap.add_argument_group("forces along the fold (analysis.deploy)")
    g.add_argument("--forces", action="store_true",
                   help="actuator torques and hinge forces at every stored frame, under the supports and loads, with "
                        "the actuated hinges held at their angle (--out writes actuation, path_hinges, "
                        "path_supports, path_frames, envelope; --figure the torques against the percent)")
    g.add_argument("--actuate", metavar="HINGES",
                   help="--forces: the creases whose motors drive the fold, 1-based (default: one per mechanism of "
                        "the supported structure, where it turns a crease fastest; printed as a line to copy)")
    g.add_argument("--elastic", action="store_true",
                   help="--forces: elastic hinges at the frames where the held structure is not determined "
                        "(--hinge-stiffness)")
    g.add_argument("--forces-engine", choices=engines.ENGINES, default=None,
                   help="--forces: the engine of the statics at each frame: chrono (rotation motors at the actuated "
                        "hinges and Chrono's static analysis; determined frames) or reference (rigid or elastic); "
                        "default: chrono where PyChrono imports, else reference, and reference with --elastic")
    inputs.add_stiffness_option(ap)
    m = ap.add_argument_group("modes along the fold (analysis.modal at every frame)")
    m.add_argument("--modes", type=inputs.positive_int, default=None, metavar="K",
                   help="the K lowest frequencies at every stored frame, with the frame's supports and loads, Kc, and "
                        "the --actuate hinges held by motors at their angle (reference engine; --out writes "
                        "path_modes, --figure the frequencies against the percent); the lowest over the path is "
                        "printed")
    m.add_argument("--actuator-stiffness", type=inputs.nonnegative_float, default=None, metavar="K",
                   help="--modes: the motors' servo stiffness on the actuated hinges (N m/rad; default the "
                        "--crease-stiffness)")
    m.add_argument("--crease-stiffness", type=inputs.nonnegative_float, default=0.0, metavar="K",
                   help="--modes: rotational spring on every hinge's fold, at rest at each frame (N m/rad; default 0)")
    return ap


#: the options that are settings of ``--forces`` (attribute, option)
FORCE_SETTINGS = (("actuate", "--actuate"), ("elastic", "--elastic"), ("hinge_stiffness", "--hinge-stiffness"),
                  ("support", "--support"), ("load", "--load"), ("replace_supports", "--replace-supports"),
                  ("replace_loads", "--replace-loads"), ("self_weight", "--self-weight"), ("gravity", "--gravity"),
                  ("density", "--density"))


def with_loads(structure, args, out):
    """``--forces``: the structure with the supports and loads of ``args`` (printed); a usage error (exit 2) for a
    setting of ``--forces`` without it, ``--forces`` with ``--through-contact`` or without loads."""
    modes = getattr(args, "modes", None) is not None
    if not modes:
        given = [o for o, a in (("--actuator-stiffness", "actuator_stiffness"), ("--crease-stiffness",
                                                                                  "crease_stiffness"))
                 if getattr(args, a, None)]
        if given:
            raise app.UsageError(f"{', '.join(given)}: {'a setting' if len(given) == 1 else 'settings'} of --modes "
                                 f"(the frequencies along the fold): give --modes K, or leave "
                                 f"{'it' if len(given) == 1 else 'them'} out")
    elif not getattr(args, "forces", False):
        given = [o for a, o in (("elastic", "--elastic"), ("hinge_stiffness", "--hinge-stiffness"),
                                ("forces_engine", "--forces-engine")) if getattr(args, a, None)]
        if given:
            raise app.UsageError(f"{', '.join(given)}: settings of --forces, not of --modes: give --forces, or "
                                 f"leave {'it' if len(given) == 1 else 'them'} out")
    if not getattr(args, "forces", False) and not modes:
        given = [o for a, o in FORCE_SETTINGS if getattr(args, a, None)]
        if getattr(args, "forces_engine", None) is not None:
            given.insert(0, "--forces-engine")
        if given:
            raise app.UsageError(f"{', '.join(given)} {'is a setting' if len(given) == 1 else 'are settings'} of "
                                 f"--forces (the forces along the fold): give --forces, or leave "
                                 f"{'it' if len(given) == 1 else 'them'} out")
        return structure
    forces = getattr(args, "forces", False)
    if args.through_contact:
        raise app.UsageError(f"{'--forces' if forces else '--modes'} with --through-contact: after the first contact the panels press on each "
                             "other, and forces without those contact forces would be wrong")
    from ..report.tables import inputs_text

    if [t.strip().lower() for t in args.support] == ["auto"]:       # held on panel 1, which the fold holds
        from argparse import Namespace

        from ..analysis.deploy import panel_support
        from ..structure.boundary import support_text

        texts = [support_text(s) for s in panel_support(structure)]
        print(f"--support auto ({'--forces' if forces else '--modes'}): {' '.join(texts)} (the fewest held directions that stop the rigid-body "
              f"motions, all on panel 1, which the fold holds: supports spread over the structure would stop the "
              f"fold)", file=out)
        args = Namespace(**{**vars(args), "support": texts})
    structure = inputs.with_structure_options(structure, args, out)
    print(inputs_text(structure), file=out)
    if modes:
        from .modal import check_mass

        check_mass(structure)
    if not forces:
        return structure
    if not structure.panel_loads():
        raise app.UsageError("--forces needs loads: give --load SEL:FX,FY,FZ, --self-weight (with --thickness and "
                             "--density) or --gravity, or loads in the file")
    if not structure.supports:
        raise app.UsageError("--forces needs supports: give --support SEL:DOFS or --support auto (the fewest held "
                             "directions), or supports in the file")
    return structure


def percent(text):
    """argparse type of ``--percent``: a number from 0 to 100."""
    return inputs._float(text, lambda x: 0 <= x <= 100, "a fold percent from 0 to 100",
                         f"the fold percent must be from 0 to 100, got {text}")


def finite(text):
    """argparse type: a finite number."""
    return inputs._float(text, lambda x: True, "a number", f"expected a finite number, got {text}")


def _axis(text, what):
    t = text.strip().lower()
    if t in ("x", "y", "z"):
        return t
    try:
        v = [float(x) for x in t.split(",")]
    except ValueError:
        v = []
    if len(v) != 3:
        raise OrigamiError(f"{what}: expected x, y, z or three numbers a,b,c, got {text!r}")
    return v


def _pairs(items, n_vertices, what, make):
    """``make(v, value)`` for every vertex of every ``--what VERTICES:VALUE``; a bad item is a usage error naming
    the option and the item (exit 2)."""
    out = []
    for item in items:
        def paths():
            if ":" not in item:
                raise OrigamiError("expected VERTICES:VALUE, e.g. 2,4:x")
            vs, val = item.rsplit(":", 1)
            return [make(v, val) for v in parse_vertices(vs, n_vertices)]
        out += inputs.option_value(f"--{what}", item, paths, OrigamiError)
    return out


def holds(structure, args):
    """The vertex paths of ``--hold``, ``--along``, ``--in-plane``, ``--block`` (a bad value: a usage error naming
    the option, exit 2)."""
    n = structure.pattern.n_vertices
    paths = [fixed(v) for v in (inputs.option_value("--hold", args.hold, lambda: parse_vertices(args.hold, n),
                                                    OrigamiError) if args.hold else [])]
    paths += _pairs(args.along, n, "along", lambda v, a: along(v, _axis(a, f"vertex {v + 1}")))
    paths += _pairs(args.in_plane, n, "in-plane", lambda v, a: in_plane(v, _axis(a, f"vertex {v + 1}")))
    paths += _pairs(args.block, n, "block", blocked)
    return paths


def build_problem(structure, args):
    """The fold of ``--drive``: ``--rate`` and ``--angle-deg`` are FOLD-signed (valley positive), a drive's
    relative rotation is minus the change of the fold angle (``inputs.fold.target_problem``)."""
    hinges = inputs.option_value("--drive", args.drive, lambda: parse_hinges(args.drive, len(structure.pattern.hinges)),
                                 OrigamiError)
    if args.rate is not None:
        drives = [Drive(h, rate=-args.rate) for h in hinges]
    else:
        drives = [Drive(h, angle=-np.radians(args.angle_deg)) for h in hinges]
    return FoldProblem(structure, drives, holds(structure, args), args.time)


def write(hist, args, out=None, figure=True, page=True):
    """``--out``: the tables vertices and steps (``--format``), fold.fold (the frame numbers printed); then the
    views (:func:`views`)."""
    out = out or sys.stdout   # resolved at call time: sys.stdout may have been replaced
    if args.out:
        vertices, steps = (os.path.basename(p) for p in inputs.write_tables(hist.tables(), args))
        with app.output(args.out):
            report_fold.write_fold(hist, os.path.join(args.out, "fold.fold"))
        last = len(hist.times) - 1
        contacts = getattr(hist, "contacts", None)
        what = "folded state" if contacts is None or contacts.first != last else "first contact"
        print(f"wrote {args.out}/{vertices} (frame {last}), fold.fold (frames 0-{last}: 0 the start, {last} the "
              f"{what} at t = {hist.times[-1]:g} s; read it with --frame {last}, --frame last or --frame "
              f"foldedForm), {steps}", file=out)
    views(hist, args, out, figure, page)


def views(hist, args, out=None, figure=True, page=True):
    """--figure, --png-frames (matplotlib or Irrlicht), --html and --viz of a fold history."""
    from ..report import figures

    if page:
        inputs.write_html(hist, args, out)
    inputs.write_vtk(hist, args, out)
    if figure and getattr(args, "figure", None):
        figures.draw_snapshots(hist, args.figure)
        print(f"wrote {args.figure}", file=out or sys.stdout)
    irrlicht_frames = args.png_frames if args.png_renderer == "irrlicht" else None
    if args.png_frames and not irrlicht_frames:
        n = len(figures.write_png_frames(hist, args.png_frames))
        print(f"wrote {n} PNG frames to {args.png_frames}", file=out or sys.stdout)
    if irrlicht_frames or args.viz:
        from ..report import viewer

        contacts = getattr(hist, "contacts", None)
        first = None if contacts is None else contacts.first
        contact = None if first is None else (*contacts.pairs[first][0][:2], f"frame {first}, {contacts.where(first)}")
        viewer.play(hist.problem.structure, hist.vertices, hist.times, png_dir=irrlicht_frames, interactive=args.viz,
                    contact=contact)


def run(structure, args, out=None):
    """Fold, print a summary, write what ``args`` asks for; returns the exit code.

    With thick panels (``inputs.wants_contact``: ``--thickness``, ``--placement`` or the file's placement) the
    contact of every stored frame is checked (``analysis.contact``): the first frame where two panels
    interpenetrate is printed and the history ends there, unless ``--through-contact`` (then every contact is
    listed)."""
    out = out or sys.stdout   # resolved at call time: sys.stdout may have been replaced
    progress = False if args.quiet else None
    structure = with_loads(structure, args, out)
    forces = getattr(args, "forces", False)
    modes = getattr(args, "modes", None) is not None
    actuators = actuate_option(structure, args) if forces or modes else None
    contact = inputs.wants_contact(structure, args)
    if contact:
        structure = inputs.with_placement(structure, args, check=True)
        from ..analysis.contact import check_engine

        check_engine(structure, args.contact_engine)
    elif getattr(args, "through_contact", False):
        raise app.UsageError("--through-contact lists the contacts of thick panels: give --thickness T (and "
                             "--placement)")
    if not structure.pattern.hinges:
        n = structure.pattern.n_panels
        raise StructureError(f"{structure.name}: {n} panel{'s' if n != 1 else ''} and no hinge: nothing folds "
                             f"(a crease is a mountain, valley, flat or unassigned edge between two faces)")
    if args.drive is None:
        hist = run_targets(structure, args, progress, out)
    else:
        if args.percent is not None:
            raise app.UsageError("--percent is the fold percent of the file's target angles, without --drive; "
                                 "with --drive give --angle-deg or --rate")
        if args.rate is None and args.angle_deg is None:
            raise app.UsageError("--drive needs --angle-deg DEG or --rate RAD_PER_S (FOLD sign: valley positive)")
        prob = build_problem(structure, args)
        hist = fold(prob, inputs.engine_of(args), frame_interval=args.time / max(args.frames, 1),
                    from_singular=args.from_singular, start_time=args.time / 200, progress=progress,
                    linalg=args.linalg)
        print(f"{prob.name}: folded for {args.time:g} s ({hist.engine} engine), {len(hist.steps)} steps, largest "
              f"constraint residual {hist.max_residual:.2e} (scaled), smallest sigma ratio "
              f"{min(hist.sigma_ratios):.2e}", file=out)
    for note in hist.notes:
        print(f"note: {app.flags(note)}", file=out)
    if contact:
        stop_at_contact(hist, args, out)
    write(hist, args, out, figure=not (forces or modes), page=not forces)
    if forces:
        try:
            actuators = run_forces(structure, hist, args, actuators, out).actuators
        except IndeterminateError:
            inputs.write_html(hist, args, out)      # the kinematics' page, as the kinematics' files
            raise
    if modes:
        run_modes(structure, hist, args, actuators, out)
    return app.EXIT_OK


def actuate_option(structure, args):
    """The 0-based hinges of ``--actuate`` (None: the default choice); a hinge the structure lacks or one that is
    not a door or sliding hinge is a usage error naming it (exit 2)."""
    from ..analysis.deploy import check_kinds

    if args.actuate is None:
        return None
    H = len(structure.pattern.hinges)
    hs = inputs.option_value("--actuate", args.actuate, lambda: parse_hinges(args.actuate, H), OrigamiError)
    inputs.option_value("--actuate", args.actuate, lambda: check_kinds(structure, hs))
    return hs


def run_forces(structure, hist, args, actuators, out):
    """``--forces``: the deployment (``analysis.deploy.deployment``) of the fold ``hist``, printed, written
    (``--out``, ``--format``) and drawn (``--figure``); an undetermined frame without ``--elastic`` ends it (exit
    3, the kinematics already written)."""
    from ..analysis import deploy
    from ..report import tables

    stiffness = inputs.stiffness_of(args, structure) if args.elastic else None
    actuators, middle = path_actuators(structure, hist, args, actuators, out)
    engine = args.forces_engine
    percents = None if args.drive is None else [100.0 * t / args.time for t in hist.times]   # --drive: of the time
    dep = deploy.deployment(hist, structure, actuators, elastic=args.elastic, stiffness=stiffness, percents=percents,
                            linalg=args.linalg, engine=engine, middle=middle)
    for note in dep.notes:
        print(f"note: {note}", file=out)
    big = dep.largest_force()
    head = ["frame", "percent"] + [f"angle {h + 1} (deg)" for h in actuators] + \
        [f"torque {h + 1}" for h in actuators] + ["largest |F|", "status"]
    rows = [(f, p, *np.degrees(a), *t, b, s) for f, p, a, t, b, s in zip(dep.frames, dep.percents, dep.angles,
                                                                         dep.torques, big, dep.statuses)]
    print(tables.mixed_text_table(head, rows, f"actuator torques (N m, FOLD sign: positive drives the fold angle up; "
                                             f"{dep.engine} engine)"), file=out)
    amp = dep.amplifications()
    k0, least = dep.least_amplification()
    for k in dep.near_singular:
        M = dep.counts[k][0]
        why = (f"the actuators leave M = {M} mechanism{'s' if M != 1 else ''} free there (a singular state): its "
               f"forces are those the crease springs carry" if M else
               "its forces grow as the inverse of the singular value the loads see")
        by_load = (f"; its largest hinge |F| is {amp[k]:.3g} times the loads' sum |P| (the path's least "
                   f"{least:.3g}, frame {dep.frames[k0]})" if k0 is not None and np.isfinite(amp[k]) and not M else "")
        # with M > 0 the smallest singular value is zero to round-off: its digits are the processor's, not printed
        sigma = ("zero to round-off" if M else
                 f"{dep.sigmas[k]:.2g} of the largest")
        print(f"frame {dep.frames[k]} is near-singular: smallest singular value {sigma} (the path's best "
              f"{max(dep.sigmas):.2g}){by_load}; {why}", file=out)
    wc = dep.work_check()
    if wc is not None:
        print(wc.text(), file=out)
    env = dep.envelope_rows()
    top = tables.largest_rows(env, tables.SCREEN_TOP, key=lambda r: r[8]) if len(env) > tables.SCREEN_TOP else env
    title = "envelope: each hinge side's largest actions over the path (|F| largest at frame, percent)"
    if len(top) < len(env):
        title += f": the {len(top)} largest |F| of {len(env)} sides"
    print(tables.mixed_text_table(dep.envelope_table().columns, top, title), file=out)
    if args.out:
        paths = inputs.write_tables(dep.tables(), args)
        print(f"wrote {', '.join(os.path.basename(p) for p in paths)} to {args.out}", file=out)
    if getattr(args, "figure", None):
        from ..report import figures

        figures.draw_deployment(dep, args.figure)
        print(f"wrote {args.figure}", file=out)
    inputs.write_html(dep, args, out)
    return dep


def path_actuators(structure, hist, args, actuators, out):
    """The actuators of a deployment along ``hist`` (``analysis.deploy``: the default chosen at the middle frame and
    printed, or ``--actuate`` checked there); a support that stops the fold or an actuator that cannot hold the
    mechanism is a usage error (exit 2). Returns the actuators and the middle frame's counts
    (``deploy.middle_counts``: frame, static result, counts)."""
    from ..analysis import deploy

    inputs.option_value("--support", None, lambda: deploy.place_frames(structure, hist.vertices))   # they let it fold
    middle = deploy.middle_counts(structure, list(hist.vertices), linalg=args.linalg)
    k, st, counts = middle
    if actuators is None:
        actuators = deploy.choose_actuators(st, counts)
        print(f"actuators: {deploy.actuator_line(actuators)} (one per mechanism of the supported structure at "
              f"frame {k}, M = {counts.M}, where it turns a crease fastest; give --actuate to choose)", file=out)
    else:
        inputs.option_value("--actuate", args.actuate, lambda: deploy.check_actuators(st, counts, actuators))
    return actuators, middle


def run_modes(structure, hist, args, actuators, out):
    """``--modes K``: the K lowest modes at every stored frame (``analysis.modal.modal`` with Kc, reference engine),
    the frame's supports and loads, the actuators held by motors at their angle (preloaded, servo stiffness
    ``--actuator-stiffness``) and crease springs ``--crease-stiffness`` elsewhere; the frames as ``--forces`` places
    them (``analysis.deploy.frame_loop``). Printed, written (``--out``: path_modes in ``--format``) and drawn
    (``--figure``; beside the forces' figure as ``*_modes`` with ``--forces``). Returns the
    :class:`~chrono_origami.results.modal.PathModes`."""
    from ..analysis import deploy
    from ..analysis.modal import modal
    from ..report import tables
    from ..results.modal import PathModes

    actuators, _ = path_actuators(structure, hist, args, actuators, out)
    H = len(structure.pattern.hinges)
    k_act = args.crease_stiffness if args.actuator_stiffness is None else args.actuator_stiffness
    stiffness = np.full(H, float(args.crease_stiffness))
    stiffness[list(actuators)] = k_act
    frames, times = list(hist.vertices), list(hist.times)
    percents = (deploy.frame_percents(structure, frames, times, args.time) if args.drive is None
                else [100.0 * t / args.time for t in hist.times])
    kinds = structure.hinge_kinds

    def solve(held, k):          # the frame's structure with its own hinges, the actuators held by motors
        try:
            return modal(held.with_hinge_kinds(kinds), "reference", modes=args.modes, crease_stiffness=stiffness,
                         held=actuators)
        except IndeterminateError as e:
            raise IndeterminateError(f"{structure.name}: at frame {k} {e.S} redundant constraints (self-stress "
                                     f"states) carry the loads, so their multipliers, and Kc, are not determined by "
                                     f"them; design FILE makes hinges sliding for S = 0 (the kinematics are "
                                     f"written)", e.M, e.S) from None

    pm = PathModes(structure, list(actuators), stiffness, "reference")
    for k, st, held, a in deploy.frame_loop(structure, frames, actuators, solve):
        pm.frames.append(k)
        pm.percents.append(float(percents[k]))
        pm.analyses.append(a)
    n = max((len(a.modes) for a in pm.analyses), default=0)
    head = ["frame", "percent"] + [f"f{j + 1} (Hz)" for j in range(n)] + ["zero modes"]
    rows = [(f, p, *[(a.frequencies_hz[j] if j < len(a.modes) else "-") for j in range(n)], len(a.zero_modes))
            for f, p, a in zip(pm.frames, pm.percents, pm.analyses)]
    held = ", ".join(f"{h + 1}" for h in actuators) or "none"
    title = (f"lowest frequencies along the fold, with Kc (reference engine; hinges held by motors: {held}, servo "
             f"stiffness {k_act:g} N m/rad; crease springs {args.crease_stiffness:g} N m/rad)")
    print(tables.mixed_text_table(head, rows, title), file=out)
    low = pm.lowest()
    if low is None:
        print("no modes along the fold: rigid panels on ideal hinges with the actuators held cannot move, and "
              "nothing stiffens the rest (zero modes counted above)", file=out)
    else:
        f, k, stable = low
        what = f"{f:.6g} Hz" if stable else "a divergence (unstable: the loads overcome the stiffness)"
        print(f"lowest frequency over the path: {what} at frame {pm.frames[k]} ({pm.percents[k]:.4g} %)", file=out)
    if args.out:
        paths = inputs.write_tables([pm.table()], args)
        print(f"wrote {', '.join(os.path.basename(p) for p in paths)} to {args.out}", file=out)
    if getattr(args, "figure", None):
        from ..report import figures

        fig = args.figure
        if getattr(args, "forces", False):
            stem, ext = os.path.splitext(fig)
            fig = f"{stem}_modes{ext}"
        with app.output(fig):
            figures.draw_path_modes(pm, fig)
        print(f"wrote {fig}", file=out)
    return pm


def stop_at_contact(hist, args, out):
    """Print the fold's contacts (``analysis.contact``); without ``--through-contact`` end the history at the first
    frame with one. Returns the :class:`~chrono_origami.analysis.contact.Contacts`."""
    from ..analysis.contact import fold_contacts

    percent = (100.0 if args.percent is None else args.percent) if args.drive is None else None
    # the name: the automatic choice takes the reference engine for panels too thin for Chrono's check
    contacts = fold_contacts(hist, percent, args.contact_engine)
    for line in contacts.summary():
        print(line, file=out)
    k = contacts.first
    hist.contacts = contacts
    if getattr(args, "through_contact", False):
        for line in contacts.listing():
            print(f"  {line}", file=out)
    elif k is not None and k < len(hist.times) - 1:
        for name in ("times", "vertices", "drive_values", "residuals", "sigma_ratios"):
            setattr(hist, name, getattr(hist, name)[:k + 1])
        hist.steps = [s for s in hist.steps if s[0] <= hist.times[-1] * (1 + 1e-12)]
        hist.final_poses = None
        contacts.times, contacts.pairs = contacts.times[:k + 1], contacts.pairs[:k + 1]
        if contacts.percents is not None:
            contacts.percents = contacts.percents[:k + 1]
        print(f"the fold stops at frame {k}, the first contact (the summary above is of the fold to its "
              f"end; --through-contact keeps it)", file=out)
    return contacts


def run_targets(structure, args, progress, out):
    """The fold to the file's target angles at ``--percent`` (module doc); returns the history."""
    from ..structure.targets import file_targets

    targets = file_targets(structure)
    if not targets:
        raise app.UsageError(f"{args.file} has no target fold angles (FOLD edges_assignment M/V with "
                             f"edges_foldAngle, or an SVG's red and blue lines): give --drive HINGES with "
                             f"--angle-deg DEG (FOLD sign: valley positive)")
    if args.rate is not None or args.angle_deg is not None:
        raise app.UsageError("--rate and --angle-deg drive the hinges of --drive; without --drive the fold goes to "
                             "the file's target angles (--percent)")
    if args.fix_geometry and args.keep_geometry:
        raise app.UsageError("--fix-geometry and --keep-geometry exclude each other: fold a corrected pattern or "
                             "the file as it is")
    p = 100.0 if args.percent is None else args.percent
    against = foldfile.against_letters(structure)
    if against:
        print(f"note: {structure.name}: {against}", file=out)
    hist = fold_to_targets(structure, targets, p, holds(structure, args),
                           engine=inputs.engine_of(args, needs=FOLD_TO_TARGETS), duration=args.time,
                           frame_interval=args.time / max(args.frames, 1), linalg=args.linalg, progress=progress,
                           fix_geometry=args.fix_geometry, keep_geometry=args.keep_geometry, max_move=args.max_move)
    miss, hinge = hist.target_miss
    reached = p if hist.targets_reached else hist.percent_reached
    asked = "" if f"{reached:.3g}" == f"{p:.3g}" else f", asked {p:g} %"     # where the fold stopped, if not there
    tail = "" if hist.targets_reached else f", largest target miss {miss:.3g} deg at hinge {hinge + 1}"
    print(f"{structure.name}: folded to {reached:.3g} % of its target angles{asked} ({len(targets)} crease"
          f"{'s' if len(targets) != 1 else ''}, "
          f"reference engine), {len(hist.steps)} steps, largest constraint residual {hist.max_residual:.2e} "
          f"(scaled){tail}", file=out)
    return hist


@app.command("fold", "fold a FOLD structure by driving hinges (paper sec. 3.4); history as FOLD file_frames", options)
def fold_command(args):
    return run(inputs.read_input(args), args)


def _play_options(description):
    ap = inputs.add_input(app.parser(description))
    ap.add_argument("--viz", action="store_true", help="play the frames in a window, looping until it is closed")
    ap.add_argument("--png-frames", metavar="DIR", help="one PNG per frame, drawn by Irrlicht (headless: xvfb-run)")
    ap.add_argument("--fps", type=float, default=10.0, help="frames per second of --viz (default 10)")
    return ap


@app.command("play", "play a FOLD file's fold history (file_frames) in Chrono's Irrlicht viewer", _play_options)
def play_command(args):
    if not (args.viz or args.png_frames):
        raise app.UsageError("play: give --viz and/or --png-frames DIR")
    if not args.fps > 0:
        raise app.UsageError(f"play: --fps must be positive, got {args.fps:g}")
    inputs.read_input(args, default_frame=0)
    from ..report import viewer

    structure, frames, times = viewer.fold_file_frames(args.file)
    viewer.play(structure, frames, times, png_dir=args.png_frames, interactive=args.viz, fps=args.fps)
    return app.EXIT_OK
