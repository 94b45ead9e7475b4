"""The reference engine: the paper's operators with NumPy and SciPy (the engine interface of ``engines``).

* :mod:`.operators`: the paper's printed operators (eqs. 4, 6, 8, 13-15);
  :mod:`.model`: the structure's compatibility operator from the hinge
  kinds' rows; :mod:`.counting`: M and S and the paper's counting rules;
  :mod:`.statics`: statics by duality;
* :mod:`.folding`: the paper's Newton-Raphson fold on SE(3)^N (sec. 3.4);
* :mod:`.linearised`: the linearised equations for the modal analysis;
* :mod:`.dns`: time integration by Betsch & Leyendecker's discrete null space
  method (energy-momentum, small systems).
"""
NAME = "reference"
#: the Newton fold leaves a singular start itself (on the branch of an assignment, or the minimum-norm tangent)
FOLDS_SINGULAR_STARTS = True


def count(structure, **options):
    """M and S from the paper's operators (``counting.count``: ``form``, ``rtol``, ``linalg``)."""
    from .counting import count as _count

    return _count(structure, **options)


def static(structure, allow_indeterminate=False, **options):
    """Statics by duality (``statics.solve``: ``form``, ``rtol``, ``linalg``)."""
    from .statics import solve

    return solve(structure, allow_indeterminate=allow_indeterminate, **options)


def fold(problem, *, from_singular=False, assignment=None, start=None, **options):
    """The paper's Newton-Raphson fold (``folding.newton.fold``); ``from_singular``: leave a singular start, on
    the branch of ``assignment`` (``{hinge: sign}``) when given. ``start`` is not taken: this engine starts
    from the pattern."""
    from ...tools.errors import SolverError
    from .folding.newton import fold as _fold

    if start is not None:
        raise SolverError(f"{problem.name}: the reference engine folds from the pattern's configuration; it takes "
                          "no start configuration")
    return _fold(problem, allow_singular_start=from_singular, assignment=assignment, **options)


def fold_to_targets(structure, targets, percent=100.0, paths=(), **options):
    """The fold to target fold angles at ``percent`` % (``folding.targets.fold_to_targets``)."""
    from .folding.targets import fold_to_targets as _fold_to_targets

    return _fold_to_targets(structure, targets, percent, paths, **options)


def modal(structure, **options):
    """The linearised equations at the pattern configuration, which must be an equilibrium
    (``linearised.linearise``)."""
    from .linearised import linearise

    return linearise(structure, **options)


def dynamics(structure, **options):
    """Time integration by the discrete null space method (``dns.structure.run``)."""
    from .dns.structure import run

    return run(structure, **options)


def locked_in(structure, errors, stiffness=None, loads=False):
    """Hinge actions of elastic hinges with fabrication ``errors`` by the linear theory (``tolerance.locked_in``;
    a structure's factored solver is kept for the next call, ``tolerance.cached_solver``)."""
    from ...structure.imperfections import HingeStiffness
    from .tolerance import cached_solver, locked_in as _locked_in

    stiffness = stiffness or HingeStiffness()
    return _locked_in(structure, errors, stiffness, loads, solver=cached_solver(structure, stiffness))


def static_elastic(structure, stiffness=None, nonlinear=False, **options):
    """Statics with elastic hinges (``elastic.solve``: ``counts``, ``rtol``, ``linalg``, ``form``, ``springs``);
    the linear theory: ``nonlinear`` is Chrono's."""
    from ...tools.errors import UsageError
    from .elastic import solve

    if nonlinear:
        raise UsageError("the geometrically nonlinear elastic statics is the Chrono engine's (--engine chrono)")
    return solve(structure, stiffness, **options)
