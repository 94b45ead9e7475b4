"""Dynamics of a structure: time integration by engine, one front door, one result type.

``dynamics(structure, engine, time=..., dt=..., ...)`` integrates the motion of
a :class:`~chrono_origami.structure.structure.Structure` (gravity ``structure.gravity``,
dead loads ``structure.loads``) driven by hinge motors and crease springs
(:mod:`chrono_origami.inputs.dynamics`) and returns a
:class:`~chrono_origami.results.dynamics.TimeHistory` (energies, momenta,
constraint violation, hinge actions and support reactions at every output
time; :mod:`chrono_origami.report.dynamics` writes its CSV and FOLD files).

Engines and integrators:

* ``"chrono"`` (:mod:`chrono_origami.engines.chrono.dynamics`): Chrono's implicit
  integrators ``"hht"`` (default), ``"euler"`` (implicit Euler with Newton
  iterations) and ``"euler-linearized"`` (one Newton step per time step);
* ``"reference"`` (``chrono_origami.engines.reference.dns``): ``"reduced"`` (default,
  the discrete null space method) and ``"constrained"``.

Each engine's ``dynamics`` (the engine interface of
:mod:`chrono_origami.engines`) returns a ``TimeHistory``; this front door
checks the integrator name and passes everything on.
"""
from .. import engines
from ..inputs.dynamics import CONTACT_INTEGRATORS, ContactMaterial, check_integrator
from ..tools.errors import StructureError
from ..tools.threads import with_blas_threads


@with_blas_threads
def dynamics(structure, engine=None, *, time, dt, integrator=None, motors=(), springs=(), initial=None,
             output_interval=None, progress=None, **options):
    """Integrate the motion of ``structure`` from t = 0 to ``time`` (s) with step ``dt`` (s); a TimeHistory.

    engine: an engine object, "chrono", "reference" or None (``engines.get``); integrator: see the module doc;
    motors: :class:`~chrono_origami.inputs.dynamics.Motor`; springs: ``CreaseSpring``; initial:
    ``InitialState`` (``inputs.dynamics``) (default: the pattern's configuration, at rest); output_interval:
    s between recorded frames (default: every step); progress: a bar on stderr (None: when stderr is a
    terminal). ``options`` go to the engine; the chrono engine's ``contact``: the panels' contact
    (``inputs.dynamics.ContactMaterial``, "nsc", "smc" or True; the integrator then defaults to the method's,
    ``inputs.dynamics.CONTACT_INTEGRATORS``).
    """
    eng = engines.get(engine)
    contact = options.get("contact")
    if contact is not None and contact is not False:
        if eng.name != "chrono":
            raise StructureError(f"contact between panels needs the chrono engine, not {eng.name}")
        method = contact.method if isinstance(contact, ContactMaterial) else contact if isinstance(contact, str) \
            else "nsc"
        if integrator is None and method in CONTACT_INTEGRATORS:
            integrator = CONTACT_INTEGRATORS[method][0]
    integrator = check_integrator(eng.name, integrator)
    return eng.dynamics(structure, time=time, dt=dt, integrator=integrator, motors=motors, springs=springs,
                        initial=initial, output_interval=output_interval, progress=progress, **options)
