"""Counting (M, S) and statics of a structure, by either engine (``engines.get``).

``engine``: ``"reference"``, ``"chrono"`` or ``None``/``"auto"`` (the one
rule of :mod:`chrono_origami.engines`: Chrono where PyChrono imports). Both
engines return the same result types (``results``), so the same tables, CSV
and figures come out; ``options`` go to the engine (``form``/``hinge_form``,
``rtol``, ``linalg``, ...).
"""
from .. import engines
from ..engines.reference.counting import counting_rules
from ..structure.hinges import DOOR
from ..tools import memory
from ..tools.threads import with_blas_threads


@with_blas_threads
@memory.guarded(lambda structure, *a, **k: f"counting {memory.about(structure)}")
def count(structure, engine=None, **options):
    """Numeric counts (``results.counts.Counts``) from the chosen engine's constraint Jacobian."""
    return engines.get(engine).count(structure, **options)


@with_blas_threads
@memory.guarded(lambda structure, *a, **k: f"the statics of {memory.about(structure)}")
def static(structure, engine=None, allow_indeterminate=False, **options):
    """Hinge internal actions and support reactions (``results.statics.StaticResult``)."""
    return engines.get(engine).static(structure, allow_indeterminate=allow_indeterminate, **options)


def counts_summary(structure, counts):
    """Plain dict for counts.json: numeric M, S beside the counting-rule values."""
    rules = counting_rules(structure)
    kept, dropped = counts.gap
    d = {"M": int(counts.M), "S": int(counts.S), "rank": int(counts.rank),
         "n_dof": int(counts.n_dof), "n_constraints": int(counts.n_constraints),
         "sigma_min_kept_rel": float(kept), "sigma_max_dropped_rel": float(dropped),
         "rank_rtol": counts.rtol, "linalg": counts.linalg}
    d.update(rules.as_dict())
    generic = (not structure.supports) and set(structure.hinge_kinds) <= {DOOR}   # the bar-framework comparison
    d["singular"] = bool(counts.M > rules.M_BF) if generic and rules.M_BF is not None else None
    return d
