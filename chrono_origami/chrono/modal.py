"""Modal analysis of a Chrono system at a static equilibrium, with the constraint tangent stiffness Kc.

The Chrono-side driver. :func:`modal_analysis` finds the static equilibrium
with the one static driver (:func:`.analysis.static_equilibrium`, Kc on, as
the Kc paper does: Kc is needed to find it) or checks the current state,
takes M, R, K, Cq from Chrono with the terms Chrono leaves out
(:func:`.matrices.system_matrices`: point-load stiffness, the correction of
Chrono 10's Kc), and solves them with the engine-neutral solvers of
:mod:`chrono_origami.modal` (null-space reduction, augmented QZ, sparse
shift-and-invert; the module doc there gives the equations, the methods and
how modes are classified). :func:`structure_modes` does it for an origami
structure with crease springs. Tables, ``modes.csv`` and mode animations:
:mod:`chrono_origami.report.modal` (the report layer: not re-exported here).

The public names of those modules that go with a modal analysis are
re-exported here, so ``from chrono_origami.chrono import modal`` reaches them all.
"""
from dataclasses import dataclass

import numpy as np

from ..errors import IndeterminateError, SolverError, StructureError
from ..threads import with_blas_threads
from ..modal import (DENSE_LIMIT, INFINITE_RATIO, KINDS, METHODS, RANK_RTOL, RESIDUAL_RTOL, SMALL_OPERATOR,
                     SPARSE_COMPLIANCE, ZERO_RTOL, KcComparison, ModalResult, Mode, SystemMatrices, check_masses,
                     independent_rows, nullspace_basis, redundant_rows, solve_augmented, solve_modes,
                     solve_nullspace, solve_sparse)
from .analysis import (CONSTRAINT_TOL, EQUILIBRIUM_RTOL, MAX_ITERATIONS, Equilibrium, check_equilibrium,
                       constraint_violation, static_equilibrium)
from .links import set_tangent_stiffness
from .matrices import (active_bodies, body_mass_matrix, force_load_stiffness, generalized_forces,
                       kc_correction_matrix, kc_defect, length_scale, mate_links, multipliers, raw_matrices,
                       system_matrices)

__all__ = [
    # the driver
    "modal_analysis", "compare_tangent_stiffness", "structure_modes", "StructureModes",
    # chrono_origami.modal: results and engine-neutral solvers
    "SystemMatrices", "Mode", "ModalResult", "KcComparison", "solve_modes", "solve_nullspace", "solve_augmented",
    "solve_sparse", "nullspace_basis", "independent_rows", "redundant_rows", "check_masses", "DENSE_LIMIT",
    "INFINITE_RATIO", "KINDS", "METHODS", "RANK_RTOL", "RESIDUAL_RTOL", "SMALL_OPERATOR", "SPARSE_COMPLIANCE",
    "ZERO_RTOL",
    # .matrices: Chrono's matrices with their corrections
    "active_bodies", "mate_links", "multipliers", "generalized_forces", "length_scale", "raw_matrices",
    "body_mass_matrix", "system_matrices", "force_load_stiffness", "kc_correction_matrix", "kc_defect",
    # .analysis: the static driver and its check; .links: the Kc switch
    "Equilibrium", "check_equilibrium", "constraint_violation", "static_equilibrium", "EQUILIBRIUM_RTOL",
    "CONSTRAINT_TOL", "MAX_ITERATIONS", "set_tangent_stiffness",
]


def modal_analysis(system, use_tangent_stiffness=True, method="auto", n_modes=None, equilibrium=True,
                   max_iterations=MAX_ITERATIONS, length=None, remove_redundant=True, shift=None,
                   kc_correction=True, load_stiffness=True, allow_indeterminate=False, damping=True):
    """Static equilibrium (with Kc) then the modes with Kc on or off (:class:`ModalResult`).

    equilibrium: True runs :func:`static_equilibrium` with Kc (as the paper
    does, Kc is needed to find it); ``"no-kc"`` runs it without Kc (it fails
    for a loaded mechanism: :class:`~chrono_origami.errors.SolverError`);
    False only checks that the current state is an equilibrium.
    The multipliers of a hyperstatic system are not determined by the loads, and
    Kc depends on them: with redundant constraints and non-zero multipliers the
    analysis is refused (:class:`~chrono_origami.errors.IndeterminateError`)
    unless ``allow_indeterminate``.
    """
    if equilibrium is True:
        eq = static_equilibrium(system, True, max_iterations, length)
    elif equilibrium == "no-kc":
        eq = static_equilibrium(system, False, max_iterations, length)
    elif equilibrium is False:
        eq = check_equilibrium(system, length)
        if not eq.converged:
            raise SolverError(f"the current state is not an equilibrium: relative residual {eq.residual:.3g} "
                              f"(largest on {eq.worst_body}), constraint violation {eq.violation:.3g}; run the "
                              "static analysis (equilibrium=True)")
    else:
        raise ValueError(f"equilibrium must be True, False or 'no-kc', got {equilibrium!r}")
    mats = system_matrices(system, use_tangent_stiffness, load_stiffness, kc_correction, length, damping=damping)
    out = solve_modes(mats, method, n_modes, remove_redundant, shift)
    L = mats.multipliers
    if use_tangent_stiffness and not allow_indeterminate and mats.m and L is not None and np.abs(L).max() > 0:
        rank = out.info.get("rank")
        redundant = mats.m - rank if rank is not None else redundant_rows(mats.Cq, mats.scaling())
        if redundant > 0:
            raise IndeterminateError(
                f"the system has {redundant} redundant constraints (self-stress states) and is loaded: its "
                "multipliers, and so Kc, are not determined by the loads (Chrono's solver picked one set); pass "
                "allow_indeterminate=True to accept them", 0, redundant)
    out.equilibrium = eq
    return out


def compare_tangent_stiffness(system, method="auto", n_modes=None, equilibrium=True, **kw):
    """:class:`KcComparison`: equilibrium found with Kc, then the modes with Kc and without it, same state."""
    with_kc = modal_analysis(system, True, method, n_modes, equilibrium, **kw)
    without = modal_analysis(system, False, method, n_modes, False, **kw)
    set_tangent_stiffness(system, True)
    return KcComparison(with_kc, without)


# ======================================================================= origami structures
@dataclass
class StructureModes:
    """A structure's modal analysis: the Chrono build, its crease springs and the modes with and without Kc."""

    built: object
    springs: object
    with_kc: ModalResult
    without_kc: ModalResult = None

    @property
    def comparison(self):
        return KcComparison(self.with_kc, self.without_kc) if self.without_kc is not None else None


@with_blas_threads
def structure_modes(structure, crease_stiffness=0.0, slide_stiffness=0.0, damping=0.0, hinge_form="mate",
                    method="auto", n_modes=None, compare=True, use_tangent_stiffness=True, equilibrium=True,
                    max_iterations=MAX_ITERATIONS, allow_indeterminate=False):
    """Build ``structure`` in Chrono with crease springs, find its equilibrium, and its modes (:class:`StructureModes`).

    Panel masses come from thickness and density (:func:`check_masses`).
    ``use_tangent_stiffness=False`` runs everything without Kc (the static
    analysis too, which may then fail); otherwise the equilibrium is found with
    Kc and, with ``compare``, the modes are also computed without Kc at it.
    An unloaded structure without supports is analysed where it is
    (``equilibrium`` is then only checked): its six rigid-body motions are zero modes.
    """
    from .system import build_system
    from .springs import add_crease_springs

    check_masses(structure)
    if hinge_form == "lock" and use_tangent_stiffness:
        raise StructureError(f"{structure.name}: ChLinkLock hinges (hinge_form='lock') have no constraint tangent "
                             "stiffness Kc; use hinge_form='mate' or 'points'")
    built = build_system(structure, hinge_form=hinge_form, use_tangent_stiffness=use_tangent_stiffness,
                         visual=False)
    springs = None
    if np.any(np.asarray(crease_stiffness, float) > 0) or np.any(np.asarray(slide_stiffness, float) > 0):
        springs = add_crease_springs(built, crease_stiffness, slide_stiffness=slide_stiffness, damping=damping)
    loaded = bool(structure.loads) or structure.gravity is not None
    if equilibrium and not structure.supports and not loaded:
        equilibrium = False
    eq_mode = (True if use_tangent_stiffness else "no-kc") if equilibrium else False
    kw = dict(length=structure.pattern.size or 1.0, allow_indeterminate=allow_indeterminate,
              damping=bool(np.any(np.asarray(damping, float) > 0)))
    first = modal_analysis(built.system, use_tangent_stiffness, method, n_modes, eq_mode, max_iterations, **kw)
    second = None
    if compare and use_tangent_stiffness:
        second = modal_analysis(built.system, False, method, n_modes, False, max_iterations, **kw)
        set_tangent_stiffness(built.system, True)
    return StructureModes(built, springs, first, second)


