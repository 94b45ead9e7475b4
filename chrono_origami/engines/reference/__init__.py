"""The reference engine: the paper's operators with NumPy and SciPy (the engine interface of ``engines``:
:data:`ENGINE`, an ``engines.protocol.Engine``).

* :mod:`.operators`: the paper's printed operators (eqs. 4, 6, 8, 13-15);
  :mod:`.model`: the structure's compatibility operator from the hinge
  kinds' rows; :mod:`.counting`: M and S and the paper's counting rules;
  :mod:`.statics`: statics by duality;
* :mod:`.folding`: the paper's Newton-Raphson fold on SE(3)^N (sec. 3.4);
* :mod:`.linearised`: the linearised equations for the modal analysis;
* :mod:`.dns`: time integration by Betsch & Leyendecker's discrete null space
  method (energy-momentum, small systems).
"""
from .. import protocol as _p


class ReferenceEngine:
    """The reference engine (``engines.protocol.Engine``, with the linear theory and the fold to targets)."""

    name = "reference"
    capabilities = frozenset({_p.FOLDS_SINGULAR_STARTS, _p.FOLD_TO_TARGETS, _p.LINEAR_THEORY})

    def __repr__(self):
        return "<engine reference>"

    def __reduce__(self):       # one object per process: a pickled engine (a sample sent to a worker) is its name
        from .. import get

        return get, (self.name, False)

    def count(self, structure, **options):
        """M and S from the paper's operators (``counting.count``: ``form``, ``rtol``, ``model``, ``linalg``)."""
        from .count import count as _count

        return _count(structure, **options)

    def static(self, structure, allow_indeterminate=False, **options):
        """Statics by duality (``statics.solve``: ``form``, ``rtol``, ``counts``, ``linalg``)."""
        from .static import solve

        return solve(structure, allow_indeterminate=allow_indeterminate, **options)

    def static_elastic(self, structure, stiffness=None, nonlinear=False, **options):
        """Statics with elastic hinges (``elastic.solve``: ``counts``, ``rtol``, ``linalg``, ``form``,
        ``springs``); the linear theory: ``nonlinear`` is Chrono's."""
        from ...tools.errors import UsageError
        from .elastic import solve

        if nonlinear:
            raise UsageError("the geometrically nonlinear elastic statics is the Chrono engine's (--engine chrono)")
        return solve(structure, stiffness, **options)

    def fold(self, problem, *, from_singular=False, assignment=None, start=None, **options):
        """The paper's Newton-Raphson fold (``folding.newton.fold``); ``from_singular``: leave a singular start,
        on the branch of ``assignment`` (``{hinge: sign}``) when given. ``start`` is not taken: this engine
        starts from the pattern."""
        from ...tools.errors import SolverError
        from .fold.newton import fold as _fold

        if start is not None:
            raise SolverError(f"{problem.name}: the reference engine folds from the pattern's configuration; it "
                              "takes no start configuration")
        return _fold(problem, allow_singular_start=from_singular, assignment=assignment, **options)

    def fold_to_targets(self, structure, targets, percent=100.0, paths=(), **options):
        """The fold to target fold angles at ``percent`` % (``folding.targets.fold_to_targets``)."""
        from .fold.targets import fold_to_targets as _fold_to_targets

        return _fold_to_targets(structure, targets, percent, paths, **options)

    def modal(self, structure, crease_stiffness=0.0, slide_stiffness=0.0, damping=0.0, hinge_form="mate",
              compare=True, use_tangent_stiffness=True, equilibrium=True, max_iterations=None, held=()):
        """The linearised equations at the pattern configuration, which must be an equilibrium (``held``: door
        hinges whose motors hold their angle there; ``modal.linearise``; ``hinge_form`` and ``max_iterations`` are
        Chrono's, ignored)."""
        from .modal import linearise

        return linearise(structure, crease_stiffness=crease_stiffness, slide_stiffness=slide_stiffness,
                         damping=damping, hinge_form=hinge_form, compare=compare,
                         use_tangent_stiffness=use_tangent_stiffness, equilibrium=equilibrium,
                         max_iterations=max_iterations, held=held)

    def dynamics(self, structure, *, time, dt, integrator=None, motors=(), springs=(), initial=None,
                 output_interval=None, progress=None, **options):
        """Time integration by the discrete null space method (``dns.structure.run``)."""
        from .dns.structure import run

        return run(structure, time=time, dt=dt, integrator=integrator, motors=motors, springs=springs,
                   initial=initial, output_interval=output_interval, progress=progress, **options)

    def locked_in(self, structure, errors, stiffness=None, loads=False):
        """Hinge actions of elastic hinges with fabrication ``errors`` by the linear theory
        (``tolerance.locked_in``; a structure's factored solver is kept for the next call,
        ``tolerance.cached_solver``)."""
        from ...structure.tolerance import HingeStiffness
        from .tolerance import cached_solver, locked_in as _locked_in

        stiffness = stiffness or HingeStiffness()
        return _locked_in(structure, errors, stiffness, loads, solver=cached_solver(structure, stiffness))

    def check_panel_solids(self, structure):
        """Nothing to refuse ahead: the separating axes resolve any thickness the structure accepts."""

    def panel_solids(self, structure):
        """The panels' convex solids, contacts by separating axes (``structure.solids.PanelSolids``)."""
        from ...structure.solids import PanelSolids

        return PanelSolids(structure)

    # ---------------------------------------------------------------- the linear theory (LINEAR_THEORY)
    def model(self, structure):
        """The compatibility operator of ``structure`` (``model.assemble``, hinge form)."""
        from .model import assemble

        return assemble(structure)

    def counting_rules(self, structure, M=None):
        """The paper's counting rules (``counting.counting_rules``)."""
        from .count import counting_rules

        return counting_rules(structure, M)

    def tolerance_solver(self, structure, stiffness, linalg="auto"):
        """The factored linear theory (``tolerance.Solver``)."""
        from .tolerance import Solver

        return Solver(structure, stiffness, linalg=linalg)

    def covariance_blocks(self, structure, spec, solver, stage=None):
        """Exact wrench covariances (``tolerance.covariance_blocks``)."""
        from .tolerance import covariance_blocks

        return covariance_blocks(structure, spec, solver, stage=stage)

    def randomized_covariance(self, structure, spec, solver, probes, seed=0, stage=None):
        """Randomized wrench covariances (``tolerance.randomized_covariance``)."""
        from .tolerance import randomized_covariance

        return randomized_covariance(structure, spec, solver, probes, seed, stage=stage)

    def side_sd(self, structure, cov):
        """Hinge sides' standard deviations (``tolerance.side_sd``)."""
        from .tolerance import side_sd

        return side_sd(structure, cov)


#: the engine object (``engines.get("reference")``)
ENGINE = ReferenceEngine()
