"""The engine interface: what an engine object (``engines.get``) has, and the capabilities it declares.

Every engine has :class:`Engine`'s members with the same signatures (``tests/test_layers.py`` checks both
engines). What only some engines do is a capability, a name in ``engine.capabilities``; an engine with
one has the members of that capability's protocol (:data:`CAPABILITY_PROTOCOLS`), an engine without it
lacks them. Analyses ask ``CAPABILITY in engine.capabilities``, never ``hasattr`` or an engine's name.

Units and frames are the structure's (SI by default); results are the records of ``results``.
"""
from typing import Protocol, runtime_checkable

#: leaves a singular start (a flat pattern) itself; without it ``fold`` needs ``start`` (``analysis.fold``)
FOLDS_SINGULAR_STARTS = "folds_singular_starts"
#: folds a structure to target fold angles (:class:`TargetFolding`)
FOLD_TO_TARGETS = "fold_to_targets"
#: the paper's sparse operators (:class:`LinearTheory`): the design search, the closed-form tolerance
#: statistics; its ``static`` and ``static_elastic`` take the linear theory's ``counts=`` and return
#: ``info["equilibrium_residual"]`` for the caller to judge
LINEAR_THEORY = "linear_theory"
#: ``static_elastic(nonlinear=True)``: the geometrically nonlinear elastic statics
NONLINEAR_ELASTIC = "nonlinear_elastic"
#: works on its own systems (:class:`ChronoSystems`: a PyChrono ``ChSystem``)
CHRONO_SYSTEMS = "chrono_systems"
#: rigid statics with hinges held by rotation motors at their angle (:class:`HeldMotors`: the forces along a fold)
HELD_MOTORS = "held_motors"
CAPABILITIES = (FOLDS_SINGULAR_STARTS, FOLD_TO_TARGETS, LINEAR_THEORY, NONLINEAR_ELASTIC, CHRONO_SYSTEMS,
                HELD_MOTORS)


@runtime_checkable
class Engine(Protocol):
    """What every engine does. ``options`` are the engine's own (``form``/``hinge_form``, ``rtol``,
    ``linalg``, ...)."""

    #: "reference" or "chrono" (``engines.ENGINES``); results carry it as their ``engine``
    name: str
    #: the capabilities above that this engine has
    capabilities: frozenset

    def count(self, structure, **options):
        """M and S (``results.count.Counts``)."""

    def static(self, structure, allow_indeterminate=False, **options):
        """Hinge actions and support reactions of rigid hinges (``results.static.StaticResult``)."""

    def static_elastic(self, structure, stiffness=None, nonlinear=False, **options):
        """Hinge actions of elastic hinges (``structure.tolerance.HingeStiffness``) under the loads, any
        structure (status "elastic"); ``nonlinear`` needs :data:`NONLINEAR_ELASTIC`."""

    def fold(self, problem, *, from_singular=False, assignment=None, start=None, **options):
        """A fold history (``results.fold.FoldHistory``) of an ``inputs.fold.FoldProblem``; ``from_singular``
        without ``start`` = (t0 s, vertices) needs :data:`FOLDS_SINGULAR_STARTS`."""

    def modal(self, structure, crease_stiffness=0.0, slide_stiffness=0.0, damping=0.0, hinge_form="mate",
              compare=True, use_tangent_stiffness=True, equilibrium=True, max_iterations=None, held=()):
        """The linearised equations at the static equilibrium (``results.modal.Linearised``); stiffness in
        N m/rad (crease) and N/m (slide), damping in N m s/rad; ``hinge_form``, ``max_iterations`` are
        Chrono's (the reference engine linearises at the pattern configuration and checks it); ``held``: 0-based
        door hinges whose motors hold their angle, preloaded (the reference engine's; Chrono refuses them)."""

    def dynamics(self, structure, *, time, dt, integrator=None, motors=(), springs=(), initial=None,
                 output_interval=None, progress=None, **options):
        """A motion from t = 0 to ``time`` s with step ``dt`` s (``results.dynamics.TimeHistory``)."""

    def locked_in(self, structure, errors, stiffness=None, loads=False):
        """Hinge actions of elastic hinges with fabrication ``errors`` (``structure.tolerance.Errors``);
        ``loads``: with the structure's loads."""

    def panel_solids(self, structure):
        """The panels' solids, with ``contacts(vertices) -> [(p, q, depth)]`` (0-based panels p < q, depth in
        length units, largest first)."""

    def check_panel_solids(self, structure):
        """Raise now, in one line, what ``panel_solids(structure)`` would refuse (Chrono's: panels too thin for
        its contact check, ``ThinPanelError``), without building the engine's solids."""


@runtime_checkable
class TargetFolding(Protocol):
    """:data:`FOLD_TO_TARGETS`."""

    def fold_to_targets(self, structure, targets, percent=100.0, paths=(), **options):
        """The fold to ``targets`` ({hinge 0-based: fold angle rad}) at ``percent`` % (``FoldHistory``)."""


@runtime_checkable
class LinearTheory(Protocol):
    """:data:`LINEAR_THEORY`: the paper's operators, whichever engine runs the rest."""

    def model(self, structure):
        """The compatibility operator of ``structure`` from its hinge kinds' rows (``count(model=...)``
        takes it)."""

    def counting_rules(self, structure, M=None):
        """The paper's counting rules of the structure's pattern (Maxwell, bar framework, ...)."""

    def tolerance_solver(self, structure, stiffness, linalg="auto"):
        """The factored linear theory of elastic hinges (``.counts``, ``.m`` its rows), for the next calls."""

    def covariance_blocks(self, structure, spec, solver, stage=None):
        """(H, 6, 6) covariances of each hinge's wrench for errors drawn from ``spec``, exactly."""

    def randomized_covariance(self, structure, spec, solver, probes, seed=0, stage=None):
        """(H, 6, 6) the same by ``probes`` random probes (``seed``)."""

    def side_sd(self, structure, cov):
        """(H, 2, 6) standard deviations of (MT, MP, MO, N, TP, TO) of each hinge side from ``cov``."""


@runtime_checkable
class ChronoSystems(Protocol):
    """:data:`CHRONO_SYSTEMS`: Chrono systems of structures (the viewer, ``report.viewer``) and analyses of a system
    the user built (``analysis.modal.modal_analysis``). ``colors``: {"panel", "support"} RGB in [0, 1] of the
    visual assets a built system carries."""

    colors: dict

    def build_system(self, structure, system=None, hinge_form="mate", use_tangent_stiffness=True, ground=None,
                     visual=True, anchor=False, hinges=True, hinge_glyph=None):
        """``structure`` built into ``system`` (a new one by default): a ``ChronoStructure`` (bodies, links,
        shapes)."""

    def linearise(self, system, use_tangent_stiffness=True, equilibrium=True, max_iterations=None, length=None,
                  kc_correction=True, load_stiffness=True, damping=True):
        """(``results.modal.SystemMatrices``, equilibrium) of ``system`` at its static equilibrium."""

    def set_tangent_stiffness(self, system, on):
        """Switch the constraint tangent stiffness Kc of every link of ``system`` on or off."""


@runtime_checkable
class HeldMotors(Protocol):
    """:data:`HELD_MOTORS`: the statics of a held structure (``analysis.deploy``: its tables' kinds, an actuated
    door hinge joined) whose ``actuators`` (0-based hinges) are held at their angle by motors, the system built with
    the hinges of ``kinds`` (the actuated ones of their own kind); ``counts``: the held structure's M and S, counted
    by the caller, which asks only for determined ones; ``label`` names the state in errors."""

    def held_static(self, structure, actuators, counts, kinds, label=None):
        """A ``results.static.StaticResult`` ("determined"); each held hinge's action includes its motor's."""


#: capability -> the protocol of the members it brings
CAPABILITY_PROTOCOLS = {FOLD_TO_TARGETS: TargetFolding, LINEAR_THEORY: LinearTheory, CHRONO_SYSTEMS: ChronoSystems,
                        HELD_MOTORS: HeldMotors}
