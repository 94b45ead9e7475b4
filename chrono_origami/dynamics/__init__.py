"""Dynamics of a structure: time integration by engine, one front door, one result type.

``dynamics(structure, engine, time=..., dt=..., ...)`` integrates the motion of
a :class:`~chrono_origami.structure.Structure` (gravity ``structure.gravity``,
dead loads ``structure.loads``) driven by hinge motors and crease springs
(:mod:`.inputs`) and returns a :class:`~.history.TimeHistory` (:mod:`.history`:
energies, momenta, constraint violation, hinge actions and support
reactions at every output time; its writers give the CSV and FOLD files).

Engines and integrators:

* ``"chrono"`` (:mod:`chrono_origami.chrono.dynamics`): Chrono's implicit
  integrators ``"hht"`` (default), ``"euler"`` (implicit Euler with Newton
  iterations) and ``"euler-linearized"`` (one Newton step per time step);
* ``"reference"`` (``chrono_origami.reference.dns``): ``"reduced"`` (default,
  the discrete null space method) and ``"constrained"``.

Each engine module has ``run(structure, *, time, dt, integrator, motors,
springs, initial, output_interval, progress, **options)`` returning a
``TimeHistory``; this front door checks the engine and the integrator name
and passes everything on.
"""
import importlib

from .. import engines
from ..errors import OrigamiError
from ..threads import with_blas_threads
from .expression import Expression
from .history import TimeHistory, write_history
from .inputs import INTEGRATORS, CreaseSpring, InitialState, Motor, check_integrator

__all__ = ["dynamics", "check_integrator", "INTEGRATORS", "TimeHistory", "write_history", "Motor", "CreaseSpring",
           "InitialState", "Expression"]

@with_blas_threads
def dynamics(structure, engine=None, *, time, dt, integrator=None, motors=(), springs=(), initial=None,
             output_interval=None, progress=None, **options):
    """Integrate the motion of ``structure`` from t = 0 to ``time`` (s) with step ``dt`` (s); a TimeHistory.

    engine: "chrono", "reference" or None (``engines.resolve``); integrator: see the module doc;
    motors: :class:`~.inputs.Motor`; springs: :class:`~.inputs.CreaseSpring`; initial:
    :class:`~.inputs.InitialState` (default: the pattern's configuration, at rest); output_interval:
    s between recorded frames (default: every step); progress: a bar on stderr (None: when stderr is a
    terminal). ``options`` go to the engine.
    """
    engine = engines.resolve(engine)
    integrator = check_integrator(engine, integrator)
    kw = dict(time=time, dt=dt, integrator=integrator, motors=motors, springs=springs, initial=initial,
              output_interval=output_interval, progress=progress, **options)
    if engine == "chrono":
        from ..chrono import dynamics as chrono_dynamics

        return chrono_dynamics.run(structure, **kw)
    name = __package__.rsplit(".", 1)[0] + ".reference.dns"
    try:
        dns = importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name != name:
            raise
        raise OrigamiError("the reference engine has no dynamics in this installation (chrono_origami.reference.dns "
                           "is missing); use engine='chrono'") from None
    return dns.run(structure, **kw)
