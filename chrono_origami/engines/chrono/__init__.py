"""The Chrono engine: thick-origami structures in a PyChrono ``ChSystem``.

* :mod:`.links`: the plugin's links -- :class:`~.links.DoorHinge`,
  :class:`~.links.SlidingHinge`, :class:`~.links.PointSlider`,
  :class:`~.links.SphericalHinge`, :class:`~.links.VertexSupport`
  (``ChLinkMateGeneric`` subclasses) and :class:`~.links.DoorHingeLock`,
  :class:`~.links.SlidingHingeLock` (``ChLinkLock`` masks);
* :mod:`.system`: :func:`~.system.build_system`, one ``ChBody`` per panel,
  links per hinge and support, point loads and gravity;
* :mod:`.statics`: assembly, counting (M, S) from Chrono's constraint
  Jacobian, static analysis with a direct sparse solver (the one static
  driver, :func:`~.statics.static_analysis`), reactions into
  :class:`~chrono_origami.results.static.StaticResult`;
* :mod:`.matrices`: Chrono's M, R, K, Cq (``WriteSystemMatrices``) with the
  terms Chrono leaves out (point-load stiffness, Kc correction), which
  ``analysis.modal`` solves;
* :mod:`.springs`: crease springs and dampers; :mod:`.motion`: time
  integration; :mod:`.folding`: folding by assembly; :mod:`.kc_examples`: the
  Kc paper's examples.

The engine interface of ``engines`` is :data:`ENGINE`, an ``engines.protocol.Engine``. Importing this
package needs PyChrono; without it, or when PyChrono kills the interpreter
at import (``engines.chrono_available`` probes it in a child interpreter
first), it raises
:class:`~chrono_origami.tools.errors.ChronoUnavailable` (an ``ImportError``).
"""
from .. import INSTALL, chrono_available, chrono_unavailable_advice
from ...tools.errors import ChronoUnavailable

if not chrono_available():    # probed in a child interpreter first: a bad build must not kill this one
    raise ChronoUnavailable(f"the chrono engine needs PyChrono, which cannot be used here: "
                            f"{chrono_unavailable_advice()}; use the reference engine")
try:
    import pychrono as _pychrono  # noqa: F401
except ImportError as _e:  # pragma: no cover - depends on the machine
    raise ChronoUnavailable(
        "the chrono engine needs PyChrono, which does not import here "
        f"({_e}); install it ({INSTALL}) or use the reference engine") from _e

from .. import protocol as _p


class ChronoEngine:
    """The Chrono engine (``engines.protocol.Engine``, with the nonlinear elastic statics and Chrono systems).

    Chrono's position-level assembly cannot choose the branch at a singular start: ``analysis.fold`` gives
    ``fold`` a ``start`` (no ``FOLDS_SINGULAR_STARTS``)."""

    name = "chrono"
    capabilities = frozenset({_p.NONLINEAR_ELASTIC, _p.CHRONO_SYSTEMS, _p.HELD_MOTORS})

    @property
    def colors(self):
        """{"panel", "support"}: RGB of the visual assets of a built system (``system.PANEL_COLOR``, ...)."""
        from .system import PANEL_COLOR, SUPPORT_COLOR

        return {"panel": PANEL_COLOR, "support": SUPPORT_COLOR}

    def __repr__(self):
        return "<engine chrono>"

    def __reduce__(self):       # one object per process: a pickled engine (a sample sent to a worker) is its name
        from .. import get

        return get, (self.name, False)

    def held_static(self, structure, actuators, counts, kinds, label=None):
        """Rigid statics with ``actuators`` held by ``ChLinkMotorRotationAngle`` motors (``deploy.held_static``)."""
        from .deploy import held_static

        return held_static(structure, actuators, counts, kinds, label)

    def count(self, structure, **options):
        """M and S from Chrono's constraint Jacobian (``statics.count``: ``hinge_form``/``form``, ``rtol``,
        ``built``, ``linalg``)."""
        from .static import count as _count

        return _count(structure, **options)

    def static(self, structure, allow_indeterminate=False, **options):
        """Chrono's static analysis, residuals checked (``statics.static``: ``hinge_form``, ``method``,
        ``solver``, ``built``, ...)."""
        from .static import static as _static

        return _static(structure, allow_indeterminate=allow_indeterminate, **options)

    def static_elastic(self, structure, stiffness=None, nonlinear=False, **options):
        """Statics with elastic hinges (``elastic.solve``): linear on Chrono's Jacobian of the hinges as compliant
        links, or (``nonlinear``) bushing hinges and Chrono's nonlinear static analysis, residuals checked."""
        from .elastic import solve

        return solve(structure, stiffness, nonlinear, **options)

    def fold(self, problem, *, from_singular=False, assignment=None, start=None, **options):
        """Folding by Chrono's assembly (``folding.fold``) from the pattern, or from ``start`` = (t0, vertices);
        a singular start needs ``start`` (``from_singular`` without it is refused, ``assignment`` is the
        start's)."""
        from ...tools.errors import SolverError
        from .fold import fold as _fold

        if from_singular and start is None:
            raise SolverError(f"{problem.name}: Chrono's assembly cannot choose a branch at a singular start; give "
                              "a regular start (analysis.fold.fold does, from the reference engine's first step)")
        return _fold(problem, start=start, **options)

    def modal(self, structure, crease_stiffness=0.0, slide_stiffness=0.0, damping=0.0, hinge_form="mate",
              compare=True, use_tangent_stiffness=True, equilibrium=True, max_iterations=None, held=()):
        """The structure built with crease springs, at its static equilibrium: its linearised equations with Kc
        (and without it when ``compare``), a ``results.modal.Linearised`` (``statics.linearise``). ``held``
        (hinges held by preloaded motors) is refused: Chrono's springs sit at rest and sag under the loads."""
        import numpy as np

        from ...results.modal import Linearised
        from ...tools.errors import StructureError

        if len(held):
            raise StructureError("hinges held by motors at their angle (preloaded) are the reference engine's: "
                                 "give engine='reference'")
        from .links import set_tangent_stiffness
        from .springs import add_crease_springs
        from .static import linearise
        from .system import build_system

        if hinge_form == "lock" and use_tangent_stiffness:
            raise StructureError(f"{structure.name}: ChLinkLock hinges (hinge_form='lock') have no constraint "
                                 "tangent stiffness Kc; use hinge_form='mate' or 'points'")
        built = build_system(structure, hinge_form=hinge_form, use_tangent_stiffness=use_tangent_stiffness,
                             visual=False)
        springs = None
        if np.any(np.asarray(crease_stiffness, float) > 0) or np.any(np.asarray(slide_stiffness, float) > 0):
            springs = add_crease_springs(built, crease_stiffness, slide_stiffness=slide_stiffness, damping=damping)
        loaded = bool(structure.loads) or structure.gravity is not None
        if equilibrium and not structure.supports and not loaded:
            equilibrium = False
        kw = dict(length=structure.pattern.size or 1.0, damping=bool(np.any(np.asarray(damping, float) > 0)))
        mode = (True if use_tangent_stiffness else "no-kc") if equilibrium else False
        mats, eq = linearise(built.system, use_tangent_stiffness, mode, max_iterations, **kw)
        out = Linearised(mats, eq, built=built, springs=springs)
        if compare and use_tangent_stiffness:
            out.matrices_without_kc, out.equilibrium_without_kc = linearise(built.system, False, False,
                                                                            max_iterations, **kw)
            set_tangent_stiffness(built.system, True)
        return out

    def dynamics(self, structure, *, time, dt, integrator=None, motors=(), springs=(), initial=None,
                 output_interval=None, progress=None, **options):
        """Time integration with Chrono's integrators (``motion.run``)."""
        from .dynamics import run

        return run(structure, time=time, dt=dt, integrator=integrator, motors=motors, springs=springs,
                   initial=initial, output_interval=output_interval, progress=progress, **options)

    def locked_in(self, structure, errors, stiffness=None, loads=False):
        """Hinge actions of the imperfect panels assembled on bushing hinges, by Chrono's nonlinear statics
        (``tolerance.locked_in``)."""
        from .tolerance import locked_in as _locked_in

        return _locked_in(structure, errors, stiffness, loads)

    def check_panel_solids(self, structure):
        """A ``ThinPanelError`` (one line) where the panels are too thin for Chrono's contact check
        (``contact.refuse_thin``), before any Chrono system is made."""
        from .contact import refuse_thin

        refuse_thin(structure)

    def panel_solids(self, structure):
        """The panels' solids as Bullet convex shapes in a Chrono system (``contact.ChronoPanelSolids``)."""
        from .contact import ChronoPanelSolids

        return ChronoPanelSolids(structure)

    # ---------------------------------------------------------------- Chrono systems (CHRONO_SYSTEMS)
    def linearise(self, system, use_tangent_stiffness=True, equilibrium=True, max_iterations=None, length=None,
                  kc_correction=True, load_stiffness=True, damping=True):
        """``system`` at its static equilibrium and its linearised equations there (``statics.linearise``)."""
        from .static import linearise

        return linearise(system, use_tangent_stiffness, equilibrium, max_iterations, length, kc_correction,
                         load_stiffness, damping)

    def build_system(self, structure, system=None, hinge_form="mate", use_tangent_stiffness=True, ground=None,
                     visual=True, anchor=False, hinges=True, hinge_glyph=None):
        """``structure`` built into ``system`` (``system.build_system``)."""
        from .system import build_system

        return build_system(structure, system, hinge_form, use_tangent_stiffness, ground, visual, anchor, hinges,
                            hinge_glyph)

    def set_tangent_stiffness(self, system, on):
        """Kc on or off on every link of ``system`` (``links.set_tangent_stiffness``)."""
        from .links import set_tangent_stiffness

        set_tangent_stiffness(system, on)


#: the engine object (``engines.get("chrono")``)
ENGINE = ChronoEngine()
