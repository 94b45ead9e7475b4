"""Analyses on a structure, by engine: counting (M, S) and statics.

``engine`` is ``"reference"``, ``"chrono"`` or ``None`` (chrono where PyChrono
imports). Both engines return the same result types (``results``), so the
same tables, CSV and figures come out.
"""
from .. import engines
from ..engines.reference import counting as _counting, statics as _statics
from ..structure.structure import DOOR
from ..tools import memory


@memory.guarded(lambda structure, *a, **k: f"counting {memory.about(structure)}")
def count(structure, engine="reference", **kw):
    """Numeric counts (``results.counts.Counts``) from the chosen engine's constraint Jacobian."""
    engine = engines.resolve(engine)
    if engine == "chrono":
        from ..engines.chrono import statics as ch

        return ch.count(structure, **kw)
    return _counting.count(structure, **kw)


@memory.guarded(lambda structure, *a, **k: f"the statics of {memory.about(structure)}")
def static(structure, engine="reference", allow_indeterminate=False, **kw):
    """Hinge internal actions and support reactions (``results.statics.StaticResult``)."""
    engine = engines.resolve(engine)
    if engine == "chrono":
        from ..engines.chrono import statics as ch

        return ch.static(structure, allow_indeterminate=allow_indeterminate, **kw)
    return _statics.solve(structure, allow_indeterminate=allow_indeterminate, **kw)


def counts_summary(structure, counts):
    """Plain dict for counts.json: numeric M, S beside the counting-rule values."""
    rules = _counting.counting_rules(structure)
    kept, dropped = counts.gap
    d = {"M": int(counts.M), "S": int(counts.S), "rank": int(counts.rank),
         "n_dof": int(counts.n_dof), "n_constraints": int(counts.n_constraints),
         "sigma_min_kept_rel": float(kept), "sigma_max_dropped_rel": float(dropped),
         "rank_rtol": counts.rtol, "linalg": counts.linalg}
    d.update(rules.as_dict())
    generic = (not structure.supports) and set(structure.hinge_kinds) <= {DOOR}   # the bar-framework comparison
    d["singular"] = bool(counts.M > rules.M_BF) if generic else None
    return d
