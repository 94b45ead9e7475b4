"""The ``dynamics`` command and the common command line of the dynamics scenes.

``python -m chrono_origami dynamics FILE.fold --time T --dt DT [--motor H:FUNC] [--spring H:K,C,REST] --out DIR``
integrates the motion (:func:`chrono_origami.analysis.dynamics.dynamics`) and writes
the history (:func:`chrono_origami.report.dynamics.write_history`). ``--contact [nsc|smc]`` (with
``--thickness T`` and a ``--placement``) turns on Chrono's contact between the panels' solids
(``engines.chrono.contact.PanelContact``; material ``inputs.dynamics.ContactMaterial``: ``--friction``,
``--restitution``, SMC's ``--young``, ``--poisson``, SI units); ``--out`` then also writes contacts.csv. A motion
stopped by a :class:`~chrono_origami.tools.errors.DynamicsError` first writes what
it recorded to ``--out``, then exits 1 with the one-line error.
"""
import sys

from . import app, inputs


def run_options(ap, time=None, dt=None, output_interval=None, integrators=None):
    """The options every dynamics run takes, on ``ap``: --time, --dt (required when no default is given),
    --integrator (``integrators``: the choices), --output-interval, --out, --viz, --png-frames, --quiet."""
    for name, value, what in (("--time", time, "duration of the motion"), ("--dt", dt, "time step")):
        if value is None:
            ap.add_argument(name, type=inputs.positive_float, required=True, help=f"{what} (s)")
        else:
            ap.add_argument(name, type=inputs.positive_float, default=value, help=f"{what} (s, default {value:g})")
    ap.add_argument("--integrator", choices=integrators, help="integrator (default: the engine's first: hht for chrono)")
    ap.add_argument("--output-interval", type=inputs.positive_float, default=output_interval,
                    help="s between recorded frames (default: " + (f"{output_interval:g})" if output_interval else
                                                                      "every step)"))
    inputs.add_out(ap, "the tables energy, momentum, constraints, hinges_t, supports_t and motion.fold")
    ap.add_argument("--viz", action="store_true", help="play the motion in Chrono's Irrlicht viewer (until closed)")
    ap.add_argument("--png-frames", metavar="DIR", help="one Irrlicht PNG per recorded frame (headless: xvfb-run)")
    ap.add_argument("--quiet", action="store_true", help="no progress bar (it is drawn only on a terminal anyway)")
    inputs.add_html(ap, "the motion's frames (a slider and a play button) and hinge actions")
    inputs.add_vtk(ap, "the motion's frames, hinge actions and reactions")
    return ap


def paper_options(ap, dt, time):
    """The options of the four scenes of Betsch & Leyendecker's examples: --dt, --time, --scheme, --stride,
    --out, --no-conditioning (``dt``, ``time``: the scene's defaults, s)."""
    from ..papers.dns_paper import SCHEMES

    ap.add_argument("--dt", type=inputs.positive_float, default=dt, help=f"time step (s, default {dt:g})")
    ap.add_argument("--time", type=inputs.positive_float, default=time, help=f"duration (s, default {time:g})")
    ap.add_argument("--scheme", choices=SCHEMES, default="reduced",
                    help="reduced (discrete null space method, default), constrained (n + m unknowns), "
                         "chrono-hht (Chrono's HHT, alpha = -0.2), chrono-euler (Chrono's implicit Euler)")
    ap.add_argument("--stride", type=inputs.positive_int, default=1, help="steps between the recorded rows (default 1)")
    inputs.add_out(ap, "the tables invariants and conditioning (and the scene's other files)")
    ap.add_argument("--no-conditioning", action="store_true",
                    help="skip conditioning.csv (the reference schemes' condition numbers at the paper's time steps "
                         "and --dt)")
    return ap


def motion(fn, out_dir=None, fmt="csv"):
    """``fn()`` (a run that integrates a motion); a stopped motion writes what it recorded to ``out_dir`` (tables in
    format ``fmt``) and re-raises."""
    from ..report import dynamics as report
    from ..tools.errors import DynamicsError

    try:
        return fn()
    except DynamicsError as e:
        with app.output(out_dir):
            report.partial(e, out_dir, fmt=fmt)
        raise


def integrate(structure, args, engine=None, motors=(), springs=(), contact=None):
    """The motion of ``structure`` with the :func:`run_options` in ``args`` by ``engine`` (None: the one rule of
    ``engines``), reported and written (``report.dynamics.finish``: summary, peaks, ``--out``, ``--png-frames``,
    ``--viz``); the TimeHistory."""
    from ..analysis.dynamics import dynamics
    from ..report import dynamics as report

    options = {} if contact is None else {"contact": contact}
    hist = dynamics(structure, engine, time=args.time, dt=args.dt, integrator=args.integrator, motors=motors,
                    springs=springs, output_interval=args.output_interval, progress=False if args.quiet else None,
                    **options)
    inputs.write_html(hist, args)
    inputs.write_vtk(hist, args)
    with app.output(args.out):
        report.finish(hist, args.out, args.png_frames, args.viz, fmt=args.format)
    return hist


def scene(ap, run, argv=None):
    """Run a dynamics scene and exit: parse ``argv``, ``run(args)`` through :func:`motion` and :func:`.app.run`."""
    args = ap.parse_args(argv)
    sys.exit(app.run(motion, lambda: run(args), args.out, getattr(args, "format", "csv")))


def fold_signed(motor):
    """A ``--motor`` as the engine takes it: the command line gives FUNC in FOLD's sign (the change of the fold
    angle, valley positive; its rate; a torque toward the valley), the :class:`Motor` the relative rotation psi
    of the hinge's second panel, which is minus that (``inputs.dynamics``)."""
    from ..inputs import dynamics as dyn_inputs

    return dyn_inputs.Motor(motor.hinge, motor.mode, f"-({motor.function.text})")


def _options(description):
    from ..inputs.dynamics import INTEGRATORS

    ap = inputs.add_input(app.parser(description))
    inputs.add_engine_option(ap, "engine")
    ap.add_argument("--motor", action="append", default=[], metavar="H:FUNC",
                    help="hinge motor, repeatable: H:FUNC or H:MODE:FUNC, MODE angle (default, rad), speed (rad/s) "
                         "or torque; FUNC an expression in t, e.g. 3:0.5*(1-cos(pi*t)); FOLD's sign: the change of "
                         "the fold angle from the start (valley positive), its rate, or a torque toward the valley")
    ap.add_argument("--spring", action="append", default=[], metavar="H:K,C,REST",
                    help="torsional crease spring-damper, repeatable: hinges (e.g. 1,4-6 or all), stiffness K "
                         "(moment/rad), damping C (moment s/rad, default 0), rest fold angle REST (rad, FOLD sign; "
                         "default the initial angle)")
    inputs.add_structure_options(ap)
    from ..inputs.dynamics import CONTACT_METHODS, ContactMaterial

    d = ContactMaterial()
    g = ap.add_argument_group("contact between the panels (chrono engine; chrono_origami/engines/chrono/contact.py)")
    g.add_argument("--contact", nargs="?", const="nsc", choices=CONTACT_METHODS, default=None,
                   help="turn on Chrono's contact between the panels' solids (needs --thickness; the placement "
                        "--placement offset or tapered gives the panels of a crease room to fold): nsc (default; "
                        "non-smooth, integrator euler-linearized) or smc (penalty; integrator euler by default, or hht); --out then "
                        "writes contacts.csv and energy.csv's contact column")
    g.add_argument("--friction", type=inputs.nonnegative_float, default=None,
                   help=f"contact: Coulomb friction coefficient (default {d.friction:g})")
    g.add_argument("--restitution", type=inputs.nonnegative_float, default=None,
                   help=f"contact: coefficient of restitution in [0, 1] (default {d.restitution:g})")
    g.add_argument("--young", type=inputs.positive_float, default=None,
                   help=f"SMC contact: Young's modulus (Pa, default {d.young:g})")
    g.add_argument("--poisson", type=inputs.nonnegative_float, default=None,
                   help=f"SMC contact: Poisson's ratio in [0, 0.5) (default {d.poisson:g})")
    return run_options(ap, integrators=sorted({n for names in INTEGRATORS.values() for n in names}))


@app.command("dynamics", "integrate the motion of a FOLD structure in time (gravity, loads, motors, crease springs)",
             _options)
def dynamics_command(args):
    """Motors and springs from ``--motor``/``--spring``, the start at ``--frame`` of the file; prints the energy balance,
    the peak |MO| and |N|; ``--out`` writes the history (a run stopped by an error writes what it recorded)."""
    from ..inputs import dynamics as dyn_inputs
    from ..tools.errors import OrigamiError

    structure = inputs.with_structure_options(inputs.read_input(args), args)
    H = len(structure.pattern.hinges)
    motors = [fold_signed(inputs.option_value("--motor", m, lambda: dyn_inputs.parse_motor(m, H), OrigamiError))
              for m in args.motor]
    springs = [s for text in args.spring
               for s in inputs.option_value("--spring", text, lambda: dyn_inputs.parse_spring(text, H), OrigamiError)]
    engine = None
    if args.integrator is not None:
        engine = inputs.engine_of(args)
        inputs.option_value("--integrator", args.integrator, lambda: dyn_inputs.check_integrator(
            engine.name, args.integrator), OrigamiError)
    inputs.option_value("--motor", None, lambda: dyn_inputs.check_inputs(structure, motors, ()), OrigamiError)
    inputs.option_value("--spring", None, lambda: dyn_inputs.check_inputs(structure, (), springs), OrigamiError)
    engine = engine or inputs.engine_of(args)
    contact = contact_option(structure, args, engine)
    motion(lambda: integrate(structure, args, engine, motors, springs, contact), args.out, args.format)
    return app.EXIT_OK


def contact_option(structure, args, engine):
    """The :class:`~chrono_origami.inputs.dynamics.ContactMaterial` of ``--contact`` and its material options, or None;
    a usage error (exit 2) for material options without --contact, SMC's options with NSC, contact without thick
    panels or with the reference engine, an integrator the method does not take."""
    from ..inputs.dynamics import CONTACT_INTEGRATORS, ContactMaterial

    given = {k: getattr(args, k) for k in ("friction", "restitution", "young", "poisson") if getattr(args, k) is not None}
    if args.contact is None:
        if given:
            raise app.UsageError(f"--{next(iter(given))} sets the contact material: give it with --contact")
        return None
    if args.contact == "nsc" and ({"young", "poisson"} & set(given)):
        raise app.UsageError("--young and --poisson are SMC's: give --contact smc")
    if engine.name != "chrono":
        raise app.UsageError("--contact needs the chrono engine (--engine chrono, with PyChrono)")
    thin = [p + 1 for p, t in enumerate(structure.thickness) if not t > 0]
    if thin:
        raise app.UsageError(f"--contact needs thick panels (panel {thin[0]} has none): give --thickness T (> 0) and "
                             f"a --placement (offset or tapered)")
    if args.integrator is not None and args.integrator not in CONTACT_INTEGRATORS[args.contact]:
        raise app.UsageError(f"--contact {args.contact} needs --integrator "
                             f"{' or '.join(CONTACT_INTEGRATORS[args.contact])}, not {args.integrator}")
    return inputs.option_value("--contact", args.contact, lambda: ContactMaterial(args.contact, **given))


def paper_finish(name, args, series, extra=None):
    """A paper scene's end: print the run's drift, and write invariants.csv and conditioning.csv (and
    ``extra(out)``) to --out."""
    import numpy as np

    from ..papers.dns_paper import TABLE_DT, conditioning_rows, drift
    from ..report.dns_paper import conditioning_table, invariants_table

    dE, dL = drift(series)
    print(f"{name} ({args.scheme}, dt = {args.dt:g} s, {series.steps} steps, {series.wall:.3g} s wall"
          + (f", {series.iterations:.3g} Newton iterations per step" if np.isfinite(series.iterations) else "")
          + f"): max |E - E0| / |E0| = {dE:.3e}, max |L - L0| / |L0| = {dL:.3e}")
    if args.out:
        written = [invariants_table(series)]
        if not args.no_conditioning:
            dts = sorted(set(TABLE_DT[name]) | {args.dt}, reverse=True)
            rows = conditioning_rows(name, dts)
            written.append(conditioning_table(rows))
        inputs.write_tables(written, args)
        if not args.no_conditioning:
            for dt, scheme, c in rows:
                print(f"  condition number, {scheme:11s} dt = {dt:g}: {c:.3g}")
        if extra:
            extra(args.out)
        print(f"wrote {args.out}")
