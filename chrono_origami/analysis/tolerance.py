"""Fabrication tolerances: locked-in hinge forces and their statistics, either engine (``docs/tolerances.md``).

The public API (also for sweeps, which run many structures through it):

* :func:`locked_in_statistics` (structure, spec, stiffness) ->
  :class:`LockedInStatistics`: per hinge side and component (MT, MP, MO, N, TP,
  TO) the standard deviation and the 95th and 99th percentiles of the
  locked-in action's magnitude (of each component's marginal distribution);
* :func:`summary` (statistics) -> a flat dict of floats for a table row:
  ``locked_sd_<C>``, ``locked_p95_<C>``, ``locked_p99_<C>`` the largest over
  hinges of each component C (N, TP, TO, MT, MP, MO), and, from a Monte
  Carlo run, ``locked_max_p95_<C>`` / ``locked_max_p99_<C>``: the
  percentiles of the largest over hinges;
* :func:`locked_in`: the hinge actions of one set of errors (either engine);
* :func:`monte_carlo_sample` (structure, spec, seed, ...) -> (H, 2, 6)
  array: a pure function of its arguments, so a Monte Carlo run can send
  its samples anywhere (a process pool, a Dask cluster); :func:`monte_carlo`
  runs them through any ``map`` and reduces them (:func:`reduce_samples`).

Engines: ``"reference"`` (the linear theory) and ``"chrono"`` (the imperfect
panels assembled on bushing hinges and solved by Chrono's nonlinear statics);
each provides one function of the engine interface, ``locked_in(structure,
errors, stiffness, loads)``. ``engine``: an engine object or a name;
``None`` (the default) follows the one rule of ``engines.get``: Chrono where
PyChrono imports, else the reference engine. What has an engine is :func:`locked_in` of one set of
errors and the Monte Carlo samples; the closed-form statistics are the
linear theory, engine-neutral math (computed with ``engines.linear()``, the
paper's sparse operators, whichever engine the samples use). Chrono's assembly takes
structures with mechanisms and rigid motions as the reference engine does:
it holds a few coordinates fixed (``engines.compatibility.held_dofs``).

Statistics. Errors drawn as ``structure.tolerance.ToleranceSpec`` says are
linear in the raw components xi (independent, zero mean, variances D), so
the locked-in multipliers mu = K G xi have covariance K G D G^T K
(K = S (S^T F S)^-1 S^T, G the misfit operator): the standard deviations
are exact for either distribution. For normal errors the locked-in actions
are Gaussian and zero-mean: the p-th percentile of ``|X|`` is
sd * Phi^-1((1 + p) / 2) (1.960 sd for p = 0.95, 2.576 sd for p = 0.99);
for uniform errors the closed form gives the standard deviations only
(percentiles: Monte Carlo). The percentiles of the *largest* action over all
hinges need the joint distribution: Monte Carlo only.

Closed-form methods (:func:`locked_in_statistics` ``method``):
``"exact"`` one multi-RHS solve with the factored saddle-point system per
block of constraint rows (K's columns of every hinge's rows: m solves in
all); ``"randomized"``: ``probes`` Gaussian probes z, mu = K G D^1/2 z, whose
wrench covariances estimate the exact ones with relative standard error
sqrt(2 / probes) per variance, 1 / sqrt(2 probes) per standard deviation
(2.2 % at the default 1,000 probes); ``"auto"``: exact up to
:data:`EXACT_ROW_LIMIT` rows, randomized above.
"""
import time

import numpy as np

from .. import engines
from ..results.static import side_values  # noqa: F401  (side_values: the analysis' own name)
from ..results.tolerance import COMPONENTS, LockedInStatistics  # noqa: F401  (analysis.tolerance.COMPONENTS)
from ..structure import tolerance as imp
from ..tools.errors import StructureError
from ..tools.threads import with_blas_threads

#: closed-form statistics by exact solves up to this many constraint rows ("auto"); randomized above
EXACT_ROW_LIMIT = 10_000
#: default number of probes of the randomized closed form
PROBES = 1000
#: percentiles reported, of the magnitude ``|X|`` of each component
PERCENTILES = (0.95, 0.99)
METHODS = ("auto", "exact", "randomized")


def _z(p):
    """Phi^-1((1 + p) / 2): the p-th percentile of ``|X|`` for a standard normal X."""
    from scipy.stats import norm

    return float(norm.ppf(0.5 * (1.0 + p)))


def check_finite(values, what):
    """``values`` when every one is a finite number; else a one-line ``ToleranceError`` (a usage error: the
    tolerance or the errors ``what`` are too large for the linear theory's arithmetic)."""
    arr = np.asarray(values, float)
    if not np.all(np.isfinite(arr)):
        raise imp.ToleranceError(f"{what}: the locked-in actions are not finite numbers (they overflow); give "
                                 f"tolerances and errors small against the panels")
    return values


def _spec_text(spec):
    return f"tolerance {spec.tol:g} (offset {spec.offset:g}, tilt {spec.tilt:g}, position {spec.position:g}, " \
           f"vertex {spec.vertex:g})"


def errors_of(structure, spec=None, errors=None, seed=None):
    """The ``structure.tolerance.Errors`` to use: ``errors`` as given, else drawn from ``spec`` (``seed``: its seed)."""
    if errors is not None:
        return errors
    if spec is None:
        raise StructureError("a tolerance analysis needs a ToleranceSpec or measured errors")
    return imp.sample(structure, spec, seed)


@with_blas_threads
def locked_in(structure, spec=None, stiffness=None, engine=None, errors=None, seed=None, loads=False):
    """Hinge actions (``results.StaticResult``, status "elastic") of ``structure`` with elastic hinges and
    fabrication errors: ``errors`` (measured, ``structure.tolerance.read_measured``) or drawn from ``spec`` with
    ``seed`` (default the spec's). ``loads``: with the structure's loads (the total), else the locked-in part.
    ``engine``: an engine object, "reference", "chrono", or None (``engines.get``)."""
    err = errors_of(structure, spec, errors, seed)
    with np.errstate(over="ignore", invalid="ignore"):
        res = engines.get(engine).locked_in(structure, err, stiffness or imp.HingeStiffness(), loads)
    check_finite([a.values for a in res.hinge_actions] or [0.0],
                 "these errors" if spec is None or errors is not None else f"the {_spec_text(spec)}")
    return res


@with_blas_threads
def locked_in_statistics(structure, spec, stiffness=None, method="auto", probes=PROBES, seed=0, linalg="auto",
                         stage=None, solver=None):
    """Closed-form statistics of the locked-in hinge actions (:class:`LockedInStatistics`; module doc).

    ``structure``: any; ``spec``: ``structure.tolerance.ToleranceSpec`` (its
    distribution: normal gives sd and percentiles, uniform sd only);
    ``stiffness``: ``structure.tolerance.HingeStiffness`` (default: its defaults).
    ``method``: "auto", "exact" or "randomized" (``probes`` probes, ``seed``).
    The linear theory, the same whichever engine samples (``engines.linear()``), sparse
    throughout: the whole-structure operator is never dense.
    ``solver``: the linear theory's ``tolerance_solver`` of this structure and stiffness, to reuse its counts and
    factorisation (a sweep's case also solves its loads with it).
    """
    if method not in METHODS:
        raise StructureError(f"unknown statistics method {method!r}; expected one of {METHODS}")
    with np.errstate(over="ignore", invalid="ignore"):
        stats = _statistics(structure, spec, stiffness, method, probes, seed, linalg, stage, solver)
    check_finite(stats.sd, f"the {_spec_text(spec)}")
    return stats


def _statistics(structure, spec, stiffness, method, probes, seed, linalg, stage, solver):
    stiffness = stiffness or imp.HingeStiffness()
    t0 = time.perf_counter()
    lin = engines.linear()
    solver = solver or lin.tolerance_solver(structure, stiffness, linalg=linalg)
    t1 = time.perf_counter()
    m = solver.m
    if method == "auto":
        method = "exact" if m <= EXACT_ROW_LIMIT else "randomized"
    if solver.counts.S == 0:           # K = S (S^T F S)^-1 S^T = 0: nothing is locked in
        method = "exact"
        cov = np.zeros((len(structure.pattern.hinges), 6, 6))
    elif method == "exact":
        cov = lin.covariance_blocks(structure, spec, solver, stage=stage)
    else:
        if not (isinstance(probes, (int, np.integer)) and probes >= 2):
            raise StructureError(f"probes must be an integer >= 2, got {probes!r}")
        cov = lin.randomized_covariance(structure, spec, solver, probes, seed, stage=stage)
    sd = lin.side_sd(structure, cov)
    if spec.distribution == "normal":
        p95, p99 = (_z(p) * sd for p in PERCENTILES)
    else:
        p95 = p99 = np.full_like(sd, np.nan)
    info = {"M": solver.counts.M, "S": solver.counts.S, "rows": m, "factor_s": t1 - t0,
            "statistics_s": time.perf_counter() - t1, "probes": probes if method == "randomized" else None,
            "sd_relative_se": (1.0 / np.sqrt(2 * probes)) if method == "randomized" else 0.0}
    return LockedInStatistics(structure, spec, stiffness, method, sd, p95, p99, info=info)


@with_blas_threads
def monte_carlo_sample(structure, spec, seed, stiffness=None, engine=None, loads=False):
    """One Monte Carlo sample: the (H, 2, 6) locked-in hinge actions for the errors drawn with ``seed``.

    A pure function of its arguments (structure, spec, seed, stiffness,
    engine): the same arguments give the same array in any process. Give the
    engine chosen (an object pickles as its name) when samples run in other
    processes (``None`` there is each process's own choice): :func:`monte_carlo` does.
    """
    res = locked_in(structure, spec, stiffness, engine, seed=seed, loads=loads)
    return side_values(structure, res)


@with_blas_threads
def monte_carlo_samples(structure, spec, samples, stiffness=None, engine=None, seed=0, map=map):
    """The (samples, H, 2, 6) locked-in hinge actions of ``samples`` samples: sample k uses seed ``seed + k``;
    ``map(fn, seeds)`` runs :func:`monte_carlo_sample` on them (the built-in map by default; a pool's or a Dask
    client's map in parallel). ``engine``: an engine object, "reference", "chrono" or None (``engines.get``,
    decided here once for every sample)."""
    if not (isinstance(samples, (int, np.integer)) and samples >= 2):
        raise StructureError(f"samples must be an integer >= 2, got {samples!r}")
    from functools import partial

    engine = engines.get(engine)
    stiffness = stiffness or imp.HingeStiffness()
    fn = partial(monte_carlo_sample, structure, spec, stiffness=stiffness, engine=engine)
    return np.array(list(map(fn, [int(seed) + k for k in range(samples)])))


@with_blas_threads
def monte_carlo(structure, spec, samples, stiffness=None, engine=None, seed=0, map=map, keep=False):
    """Monte Carlo statistics (:class:`LockedInStatistics`, method "monte carlo") from ``samples`` samples
    (:func:`monte_carlo_samples`, its arguments). ``keep``: also keep the samples' array as ``info["X"]``
    (samples x H x 2 x 6 floats; for a histogram), so that they are drawn once."""
    engine = engines.get(engine)
    stiffness = stiffness or imp.HingeStiffness()
    t0 = time.perf_counter()
    X = monte_carlo_samples(structure, spec, samples, stiffness, engine, seed, map)
    stats = reduce_samples(structure, spec, stiffness, X)
    stats.info.update(engine=engine.name, seconds=time.perf_counter() - t0)
    if keep:
        stats.info["X"] = X
    return stats


def reduce_samples(structure, spec, stiffness, X):
    """:class:`LockedInStatistics` of samples X (n, H, 2, 6) (zero-mean actions), with standard errors.

    sd = sqrt(mean X^2) (the mean is zero by symmetry), its standard error
    std(X^2) / (2 sd sqrt(n)); percentiles of ``|X|`` (linear interpolation)
    with standard error sqrt(p (1 - p) / n) / f(q), f the density of ``|X|`` at
    the percentile q estimated by a central difference of the empirical
    distribution (+-0.01 in probability); percentiles of max over hinges
    of ``|X|`` per component.
    """
    X = np.asarray(X, float)
    check_finite(X, f"the {_spec_text(spec)}" if spec is not None else "these errors")
    n = X.shape[0]
    A = np.abs(X)
    m2 = (X ** 2).mean(axis=0)
    sd = np.sqrt(m2)
    with np.errstate(invalid="ignore", divide="ignore"):
        se_sd = np.where(sd > 0, (X ** 2).std(axis=0) / (2 * sd * np.sqrt(n)), 0.0)
    out = {}
    for p in PERCENTILES:
        q = np.quantile(A, p, axis=0)
        dp = 0.01
        lo, hi = np.quantile(A, max(p - dp, 0.0), axis=0), np.quantile(A, min(p + dp, 1.0), axis=0)
        with np.errstate(invalid="ignore", divide="ignore"):
            dens = (min(p + dp, 1.0) - max(p - dp, 0.0)) / (hi - lo)
            se = np.where(hi > lo, np.sqrt(p * (1 - p) / n) / dens, 0.0)
        out[p] = (q, se)
    Mx = A.reshape(n, -1, 6).max(axis=1)             # (n, 6): the largest over hinges and sides
    return LockedInStatistics(structure, spec, stiffness or imp.HingeStiffness(), "monte carlo", sd,
                              out[0.95][0], out[0.99][0], samples=n, se_sd=se_sd, se_p95=out[0.95][1],
                              se_p99=out[0.99][1], max_p95=np.quantile(Mx, 0.95, axis=0),
                              max_p99=np.quantile(Mx, 0.99, axis=0), info={})


def summary(stats):
    """A flat dict of floats for a table row: for each component C of (N, TP, TO, MT, MP, MO),
    ``locked_sd_C``, ``locked_p95_C``, ``locked_p99_C`` (the largest over hinges and sides), and from a Monte
    Carlo run ``locked_max_p95_C``, ``locked_max_p99_C`` (percentiles of the largest over hinges). Units: forces
    (N, TP, TO) and moments (MT, MP, MO) in the structure's units (SI: N, N m)."""
    row = {}
    order = ("N", "TP", "TO", "MT", "MP", "MO")
    for c in order:
        k = COMPONENTS.index(c)
        for name, arr in (("sd", stats.sd), ("p95", stats.p95), ("p99", stats.p99)):
            vals = np.asarray(arr)[..., k]
            row[f"locked_{name}_{c}"] = float(np.nanmax(vals)) if vals.size and not np.all(np.isnan(vals)) else (
                0.0 if vals.size == 0 else float("nan"))
        if stats.max_p95 is not None:
            row[f"locked_max_p95_{c}"] = float(stats.max_p95[k])
            row[f"locked_max_p99_{c}"] = float(stats.max_p99[k])
    return row


@with_blas_threads
def force_against_tolerance(structure, spec, tolerances, stiffness=None, engines_=("reference", "chrono")):
    """The largest locked-in ``|action|`` per component for the same errors scaled to each tolerance, per engine.

    Returns {engine: (len(tolerances), 6) array, NaN where the engine did not
    converge} and the errors used (drawn once from ``spec`` at its own
    tolerance and scaled by tolerance / spec.tol). The linear theory is
    linear in the tolerance; Chrono's assembly shows where that stops.
    """
    if spec.tol <= 0:
        raise StructureError("force_against_tolerance needs a spec with tol > 0 (the errors it scales)")
    base = imp.sample(structure, spec)
    stiffness = stiffness or imp.HingeStiffness()
    out = {}
    for eng in engines_:
        eng = engines.get(eng)
        fn = eng.locked_in
        vals = np.full((len(tolerances), 6), np.nan)
        for i, tol in enumerate(tolerances):
            try:
                res = fn(structure, base.scaled(tol / spec.tol), stiffness, False)
            except Exception as exc:   # a Chrono assembly that does not converge ends the curve
                from ..tools.errors import OrigamiError

                if not isinstance(exc, OrigamiError):
                    raise
                break
            vals[i] = np.abs(side_values(structure, res)).reshape(-1, 6).max(axis=0)
        out[eng.name] = vals
    return out, base


@with_blas_threads
def tolerance(structure, spec=None, stiffness=None, *, engine=None, errors=None, samples=0, seed=0, method="auto",
              probes=PROBES, loads=False, map=map):
    """The locked-in hinge actions of fabrication errors, the one verb of the ``tolerance`` command (``co.tolerance``).

    ``errors`` (measured, ``structure.tolerance.read_measured``): their hinge actions, a ``results.StaticResult``
    (status "elastic"; ``loads``: with the structure's loads) by ``engine``. Else ``spec`` (a
    ``structure.tolerance.ToleranceSpec``): the closed-form statistics (:func:`locked_in_statistics`, ``method``,
    ``probes``, ``seed``) or, with ``samples`` >= 2, the Monte Carlo statistics of that many samples by ``engine``
    (:func:`monte_carlo`, ``seed``, ``map``), a :class:`LockedInStatistics`. ``stiffness``: the elastic hinges'
    ``structure.tolerance.HingeStiffness`` (default its SI defaults).
    """
    if errors is not None:
        if spec is not None:
            raise StructureError("give measured errors or a tolerance spec, not both")
        return locked_in(structure, stiffness=stiffness, engine=engine, errors=errors, loads=loads)
    if spec is None:
        raise StructureError("give a tolerance spec (structure.tolerance.ToleranceSpec) or measured errors")
    if samples:
        return monte_carlo(structure, spec, samples, stiffness, engine, seed=seed, map=map)
    return locked_in_statistics(structure, spec, stiffness, method=method, probes=probes, seed=seed)
