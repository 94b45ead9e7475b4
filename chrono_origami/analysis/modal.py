"""Modal (eigen) analysis: engine-neutral solvers of the linearised constrained equations, and the modal
analysis of a Chrono system or an origami structure (:func:`modal_analysis`, :func:`structure_modes`).

Linearised equations
--------------------
About an equilibrium (Peng, Tasora, Fusai, Mangoni, CMAME 419 (2024) 116667, eq. 7)

    M x'' + R x' + K x + Cq^T g = 0,        Cq x = 0,

in the engine's velocity-level coordinates: per body, the displacement of its
reference point (the centre of mass) in the global frame, then the rotation
vector in the *body* frame (Chrono's mixed basis). g are the multiplier
increments; K = -dF/dq, F the generalised forces including the constraint
forces Cq^T L, so K holds the constraint tangent stiffness Kc. The matrices
come in a :class:`~chrono_origami.results.modal.SystemMatrices`;
:mod:`chrono_origami.engines.chrono.matrices` takes them from a Chrono system
(the solvers need no PyChrono; the drivers at the end import it when called).
The records (``SystemMatrices``, ``Mode``, ``ModalResult``, ``KcComparison``)
live in :mod:`chrono_origami.results.modal`.

Eigenproblem
------------
Modes x(t) = x exp(lambda t), lambda complex in rad/s. Without damping (R = 0)
mu = lambda^2 solves the augmented (saddle-point) generalised problem

    [ -K  -Cq^T ] [x]        [ M  0 ] [x]
    [ -Cq   0   ] [g]  = mu  [ 0  0 ] [g]          (Chrono's ChModalSolver form)

and lambda = sqrt(mu) (principal root): oscillatory modes have mu < 0 and
lambda = +i omega; a real positive mu gives a real lambda > 0 (unstable,
divergence); a complex mu (possible as Kc is not symmetric) gives Re lambda > 0
(unstable, flutter). With damping the first-order form of size 2n + m is used.
Methods:

* ``"nullspace"``: x = Z y with Z a basis of null(Cq) (:func:`chrono_origami.tools.linalg.null_space`):
  Z^T M Z, Z^T K Z, Z^T R Z. Exact (the multipliers drop out) and cheaper when
  the mechanisms are few; redundant constraints are harmless.
* ``"augmented"``: the saddle-point pencil above, dense QZ. Redundant
  constraint rows are removed first (pivoted QR of Cq^T) unless
  ``remove_redundant=False``; then the pencil is singular, QZ returns arbitrary
  pairs (in practice the true ones are lost too) and each of them is flagged
  ``spurious``: it fails the residual or constraint check.
* ``"sparse"``: shift-and-invert Arnoldi (ARPACK via SciPy) on the augmented
  operator, for the modes nearest a shift (default: just below zero, so the
  lowest); the saddle-point matrix is factorised once (SuperLU) with a
  compliance of ``SPARSE_COMPLIANCE`` relative on the constraint block, so
  redundant constraints do not make it singular; each mode is then checked
  against the exact equations.

Every mode is classified: ``oscillatory`` (stable, Im lambda > 0), ``unstable``
(Re lambda > 0), ``zero`` (|mu| at round-off level: rigid-body motions and
mechanisms without stiffness), ``spurious`` (from the constraint block: fails
the residual or constraint check). Infinite eigenvalues (the constraint block,
massless coordinates) are counted, not returned. Rank decisions use
:data:`chrono_origami.tools.linalg.RANK_RTOL` on Cq D (D = :meth:`SystemMatrices.scaling`).
Tables, CSV and mode animations: :mod:`chrono_origami.report.modal`.

Drivers
-------
:func:`modal` (``co.modal``) is the verb: a structure's lowest modes at its static equilibrium, with Kc,
without it or both, as a :class:`~chrono_origami.results.modal.ModalAnalysis` (the ``modal`` command's record).
:func:`structure_modes` asks the engine for the linearised equations of a
structure with crease springs at its static equilibrium (``modal`` of the
engine interface: ``results.modal.Linearised``) and solves them here.
:func:`modal_analysis` does the same for a Chrono system of one's own
(``engines.chrono.static.linearise``: the equilibrium by the one static
driver, Kc on, as the Kc paper does: Kc is needed to find it; M, R, K, Cq from
Chrono with the terms Chrono leaves out, ``engines.chrono.matrices``).
"""
import time

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from ..results.modal import KcComparison, ModalAnalysis, ModalResult, Mode, StructureModes
from ..tools import linalg, memory
from ..tools.errors import IndeterminateError, StructureError
from ..tools.linalg import RANK_RTOL, SMALL_OPERATOR
from ..tools.threads import with_blas_threads

#: |mu| below this fraction of the reference |mu| (||K|| / ||M||, scaled) is a zero mode (|lambda| <= 1e-3 of its root)
ZERO_RTOL = 1e-6
#: residual and constraint checks of a mode (relative)
RESIDUAL_RTOL = 1e-6
#: |mu| above this multiple of the reference is infinite (constraint block, massless coordinates)
INFINITE_RATIO = 1e12
#: compliance of the constraint block in the sparse factorisation, relative to the stiffness scale
SPARSE_COMPLIANCE = 1e-12
METHODS = ("auto", "nullspace", "augmented", "sparse")
MODE_KINDS = ("oscillatory", "unstable", "zero", "spurious")
#: ``method="auto"``: null-space reduction (dense QZ: every mode) up to this many coordinates, the lowest modes by
#: sparse shift-and-invert above (a dense QZ of a 1,500 x 1,500 pencil takes about 45 s on one core). Not the
#: rank and solve switch ``linalg.DENSE_LIMIT``: the dense pencil gives every mode, the sparse solve a few.
DENSE_LIMIT = 1500


# ======================================================================= eigen solvers
def _mu_reference(mats):
    """||K_s|| / ||M_s|| (Frobenius), K_s = D K D with D = diag(scaling): the |mu| scale of the system (1/s^2)."""
    D = sp.diags(mats.scaling())
    nk, nm = spla.norm(D @ mats.K @ D), spla.norm(D @ mats.M @ D)
    return float(nk / nm) if nm > 0 else 0.0


def _normalise(x, s):
    """x scaled so that its largest component in length units (rotations x L) is 1."""
    y = x / s
    k = int(np.argmax(np.abs(y)))
    return x / y[k] if y[k] != 0 else x


def _classify(lam, mu_ref):
    if abs(lam) ** 2 <= ZERO_RTOL * mu_ref or lam == 0:
        return "zero"
    if lam.real > 1e-7 * abs(lam):
        return "unstable"
    return "oscillatory"


def _residuals(mats, lam, X, G):
    """Per mode: relative residual of (K + lam R + lam^2 M) x + Cq^T g, and |Cq x| / (|Cq D| |D^-1 x|)."""
    s = mats.scaling()
    w = mats.length * s           # rows in moment units: forces x L, torques
    nC = spla.norm(mats.Cq @ sp.diags(s)) if mats.Cq.nnz else 0.0
    res, con = [], []
    with np.errstate(over="ignore", invalid="ignore"):   # arbitrary pairs of a singular pencil may overflow
        for k, l in enumerate(lam):
            r, c = _residual_of(mats, l, X[:, k], G[:, k], w, s, nC)
            res.append(r)
            con.append(c)
    return np.array(res), np.array(con)


def _residual_of(mats, l, x, g, w, s, nC):
    """(residual, constraint) of one mode (see :func:`_residuals`); inf for non-finite data."""
    if not (np.all(np.isfinite(x)) and np.all(np.isfinite(g)) and np.isfinite(l)):
        return np.inf, np.inf
    parts = [mats.K @ x, (l * l) * (mats.M @ x)]
    if mats.R.nnz:
        parts.append(l * (mats.R @ x))
    if mats.m:
        parts.append(mats.Cq.T @ g)
    r = sum(parts)
    scale = sum(np.linalg.norm(w * p) for p in parts)
    res = float(np.linalg.norm(w * r) / scale) if scale > 0 else float(np.linalg.norm(r))
    nx = np.linalg.norm(x / s)
    con = float(np.linalg.norm(mats.Cq @ x) / (nC * nx)) if nC > 0 and nx > 0 else 0.0
    return res, con


def _result(mats, lam, X, res, con, method, n_inf=0, n_red=0, spurious=None, info=None):
    """ModalResult from eigenvalues ``lam`` and shapes ``X`` (columns), classified (module doc)."""
    mu_ref = _mu_reference(mats)
    s = mats.scaling()
    modes, n_huge = [], 0
    for k, l in enumerate(lam):
        l = complex(l)
        if mu_ref > 0 and abs(l) ** 2 > INFINITE_RATIO * mu_ref:
            n_huge += 1
            continue
        kind = _classify(l, mu_ref)
        bad = (spurious is not None and spurious[k]) or not (res[k] <= RESIDUAL_RTOL and con[k] <= RESIDUAL_RTOL)
        if bad and kind != "zero":
            kind = "spurious"
        modes.append(Mode(l, kind, _normalise(X[:, k], s), float(res[k]), float(con[k])))
    out = ModalResult(modes, mats, method, n_inf + n_huge, n_red)
    out.info.update(mu_reference=mu_ref, **(info or {}))
    return out


def _scaled(Cq, scale):
    """Cq diag(scale): the columns of rotations x length, so every entry has one unit (:meth:`SystemMatrices.scaling`)."""
    return sp.csr_matrix(Cq @ sp.diags(scale))


def nullspace_basis(Cq, scale, rtol=RANK_RTOL, method="auto"):
    """(Z, rank, gap): null(Cq diag(scale)) (:func:`~chrono_origami.tools.linalg.null_space`), mapped back:
    x = diag(scale) Z y. gap: (smallest kept, largest dropped singular value) / largest."""
    if Cq.shape[0] == 0:
        return np.diag(scale), 0, (None, None)
    ns = linalg.null_space(_scaled(Cq, scale), rtol, method)
    return scale[:, None] * ns.basis, ns.rank, ns.gap


def independent_rows(Cq, scale, rtol=RANK_RTOL):
    """Indices of a maximal set of independent rows of Cq (:func:`~chrono_origami.tools.linalg.independent_rows` of Cq diag(scale)), sorted."""
    return linalg.independent_rows(_scaled(Cq, scale), rtol)


def redundant_rows(Cq, scale, rtol=RANK_RTOL, method="auto"):
    """Number of redundant rows of Cq: m - rank of Cq diag(scale) (:func:`~chrono_origami.tools.linalg.rank`)."""
    return Cq.shape[0] - linalg.rank(_scaled(Cq, scale), rtol, method) if Cq.shape[0] else 0


def _qz(A, B):
    """Generalised eig of (A, B): (values, vectors, finite mask, singular mask) with alpha ~ beta ~ 0 marked singular."""
    (alpha, beta), V = sla.eig(A, B, homogeneous_eigvals=True)
    big = np.maximum(np.abs(alpha), np.abs(beta))
    top = big.max() if big.size else 1.0
    singular = (np.abs(alpha) < 1e-10 * top) & (np.abs(beta) < 1e-10 * top)
    finite = (np.abs(beta) > 1e-13 * np.maximum(big, 1e-300)) | singular
    with np.errstate(divide="ignore", invalid="ignore"):
        vals = np.where(finite, alpha / np.where(beta != 0, beta, 1e-300), np.inf)
    return vals, V, finite, singular


def _first_order_keep(lam):
    """One eigenvalue of each conjugate pair of a real first-order problem (Im > 0), and every real one."""
    tol = 1e-12 * np.maximum(np.abs(lam), 1e-300)
    return np.flatnonzero((lam.imag > tol) | (np.abs(lam.imag) <= tol))


def _first_order(K, R, M, Cq=None, cs=1.0):
    """Dense first-order pencil of M x'' + R x' + K x (+ Cq^T g = 0, Cq x = 0): state (x, v[, g])."""
    n = K.shape[0]
    m = 0 if Cq is None else Cq.shape[0]
    I, Zn, Zm = np.eye(n), np.zeros((n, n)), np.zeros((n, m))
    rows_A = [[Zn, I, Zm], [-K, -R, -cs * Cq.T if m else Zm]]
    rows_B = [[I, Zn, Zm], [Zn, M, Zm]]
    if m:
        rows_A.append([-cs * Cq, np.zeros((m, n)), np.zeros((m, m))])
        rows_B.append([np.zeros((m, n)), np.zeros((m, n)), np.zeros((m, m))])
    return np.block(rows_A), np.block(rows_B)


def solve_nullspace(mats, rtol=RANK_RTOL):
    """Modes by null-space reduction x = Z y (dense): exact; redundant constraints are harmless.

    The residual reported is that of the reduced equations; the multipliers are not computed.
    """
    Z, r, gap = nullspace_basis(mats.Cq, mats.scaling(), rtol)
    info = {"rank": r, "gap": gap, "dof": Z.shape[1]}
    if Z.shape[1] == 0:
        return _result(mats, [], np.zeros((mats.n, 0)), [], [], "nullspace", 0, mats.m - r, info=info)
    Md, Kd = Z.T @ (mats.M @ Z), Z.T @ (mats.K @ Z)
    Rd = Z.T @ (mats.R @ Z) if mats.R.nnz else None
    if Rd is None:
        mu, Y, finite, _ = _qz(-Kd, Md)
        keep = np.flatnonzero(finite & np.isfinite(mu))
        lam, Y = np.sqrt(mu[keep].astype(complex)), Y[:, keep]
    else:
        A, B = _first_order(Kd, Rd, Md)
        vals, V, finite, _ = _qz(A, B)
        keep = np.array([k for k in _first_order_keep(vals) if finite[k] and np.isfinite(vals[k])], int)
        lam, Y = vals[keep], V[:Z.shape[1], keep]
    n_inf = int(len(finite) - len(keep)) if Rd is None else int(np.count_nonzero(~finite)) // 2
    res = []
    for k, l in enumerate(lam):
        y = Y[:, k]
        parts = [Kd @ y, (l * l) * (Md @ y)] + ([l * (Rd @ y)] if Rd is not None else [])
        scale = sum(np.linalg.norm(p) for p in parts)
        res.append(float(np.linalg.norm(sum(parts)) / scale) if scale > 0 else 0.0)
    X = Z @ Y
    s = mats.scaling()
    CqD = mats.Cq @ sp.diags(s)
    nC = spla.norm(CqD) if mats.Cq.nnz else 0.0
    con = [float(np.linalg.norm(mats.Cq @ X[:, k]) / (nC * np.linalg.norm(X[:, k] / s))) if nC > 0 else 0.0
           for k in range(X.shape[1])]
    return _result(mats, lam, X, np.array(res), np.array(con), "nullspace", n_inf, mats.m - r, info=info)


def _constraint_scale(K, M):
    """Chrono's scaling of the constraint block (mean |diagonal| of K; of M when K is zero)."""
    dk = np.abs(K.diagonal()).mean() if K.shape[0] else 0.0
    return float(dk) if dk > 0 else float(max(np.abs(M.diagonal()).mean(), 1.0))


def solve_augmented(mats, remove_redundant=True, rtol=RANK_RTOL):
    """Modes from the augmented saddle-point pencil (dense QZ), Chrono's ``ChModalSolver`` form (module doc)."""
    n = mats.n
    rows = independent_rows(mats.Cq, mats.scaling(), rtol) if remove_redundant else np.arange(mats.m)
    Cq = mats.Cq[rows].toarray()
    m = Cq.shape[0]
    K, M = mats.K.toarray(), mats.M.toarray()
    cs = _constraint_scale(mats.K, mats.M)
    if mats.R.nnz:
        A, B = _first_order(K, mats.R.toarray(), M, Cq, cs)
        vals, V, finite, singular = _qz(A, B)
        keep = np.array([k for k in _first_order_keep(vals) if finite[k]], int)
        lam, X, G = vals[keep], V[:n, keep], cs * V[2 * n:, keep]
        n_inf = int(np.count_nonzero(~finite))
    else:
        A = np.block([[-K, -cs * Cq.T], [-cs * Cq, np.zeros((m, m))]])
        B = np.block([[M, np.zeros((n, m))], [np.zeros((m, n + m))]])
        mu, V, finite, singular = _qz(A, B)
        keep = np.flatnonzero(finite)
        lam, X, G = np.sqrt(mu[keep].astype(complex)), V[:n, keep], cs * V[n:, keep]
        n_inf = int(np.count_nonzero(~finite))
    Gfull = np.zeros((mats.m, len(keep)), complex)
    Gfull[rows] = G
    res, con = _residuals(mats, lam, X, Gfull)
    return _result(mats, lam, X, res, con, "augmented", n_inf, mats.m - len(rows), spurious=singular[keep],
                   info={"constraint_scale": cs, "rows_kept": len(rows)})


def solve_sparse(mats, n_modes=20, shift=None, max_rounds=5):
    """The ``n_modes`` modes nearest the shift (default: the lowest) by shift-and-invert Arnoldi (module doc).

    shift: mu_0 = lambda_0^2 (1/s^2) without damping, lambda_0 (rad/s) with;
    default -1e-6 times the reference |mu| (just below the zero modes, which
    would make the shifted matrix singular). Zero modes met on the way are
    kept and classified; more Arnoldi vectors are asked until ``n_modes``
    others are found.
    """
    n, m = mats.n, mats.m
    if not (isinstance(n_modes, (int, np.integer)) and n_modes >= 1):
        raise ValueError(f"n_modes must be a positive integer, got {n_modes!r}")
    mu_ref = _mu_reference(mats)
    damped = bool(mats.R.nnz)
    if shift is None:
        shift = -1e-6 * (mu_ref if mu_ref > 0 else 1.0)
        if damped:
            shift = -np.sqrt(-shift)
    K, M, R, Cq = mats.K.tocsc(), mats.M.tocsc(), mats.R.tocsc(), mats.Cq.tocsc()
    cs = _constraint_scale(K, M)
    H = (K + shift * R + shift * shift * M) if damped else (K + shift * M)
    KKT = sp.bmat([[H, cs * Cq.T], [cs * Cq, -SPARSE_COMPLIANCE * cs * sp.identity(m)]], format="csc") if m else H
    from ..tools import sparseqr

    need, how = sparseqr.lu_memory(KKT)
    memory.check(f"the sparse LU of the {KKT.shape[0]:,} x {KKT.shape[1]:,} shifted modal system ({how} from its "
                 f"structure)", need)
    t0 = time.perf_counter()
    lu = spla.splu(sp.csc_matrix(KKT), permc_spec="COLAMD")
    t_fact = time.perf_counter() - t0

    def solve(f):
        """x and cs h of [[H, cs Cq^T], [cs Cq, -c]] [x; h] = [f; 0] (f may be complex)."""
        f = np.concatenate([f, np.zeros(m)])
        z = lu.solve(f.real) + (1j * lu.solve(f.imag) if np.iscomplexobj(f) else 0)
        return z[:n], cs * z[n:]

    if damped:
        def op(w):
            x, _ = solve(-(M @ w[n:] + (R + shift * M) @ w[:n]))
            return np.concatenate([x, w[:n] + shift * x])
        N = 2 * n
    else:
        def op(w):
            return solve(-(M @ w))[0]
        N = n
    want = int(n_modes)
    if N <= SMALL_OPERATOR:
        # too small for ARPACK (k < N - 1): the same shift-inverted operator, as a dense matrix
        Tm = np.column_stack([op(e) for e in np.eye(N)])
        nu, W = sla.eig(Tm)
        ok = np.abs(nu) > 1e-13 * np.abs(nu).max()
        nu, W = nu[ok], W[:, ok]
        k = len(nu)
        vals = shift + 1.0 / nu
    else:
        T = spla.LinearOperator((N, N), matvec=op, dtype=float)
        k = min(want + 8, N - 2)
        for _ in range(max_rounds):
            nu, W = spla.eigs(T, k=k, which="LM", ncv=min(N, max(2 * k + 1, 20)))
            vals = shift + 1.0 / nu
            lam = vals if damped else np.sqrt(vals.astype(complex))
            found = np.count_nonzero(np.abs(lam) ** 2 > ZERO_RTOL * mu_ref)
            if (found // 2 if damped else found) >= want or k >= N - 2:
                break
            k = min(2 * k, N - 2)
    if damped:
        keep = _first_order_keep(vals)
        lam, X = vals[keep], W[:n, keep]
    else:
        lam, X = np.sqrt(vals.astype(complex)), W
    # multipliers of each mode from one more solve (they make the residual check exact)
    G = np.zeros((m, len(lam)), complex)
    for j, l in enumerate(lam):
        x = X[:, j]
        if damped:
            # (K + s R + s^2 M) z + Cq^T (cs h) = f with f = -(M l x + (R + s M) x), z = x / (l - s)
            z, h = solve(-(M @ (l * x) + (R + shift * M) @ x))
            G[:, j] = h * (l - shift)
        else:
            # (K + s M) z + Cq^T (cs h) = -M x with z = x / (mu - s):  (K + mu M) x + Cq^T (cs h (mu - s)) = 0
            z, h = solve(-(M @ x))
            G[:, j] = h * (l * l - shift)
    res, con = _residuals(mats, lam, X, G)
    out = _result(mats, lam, X, res, con, "sparse", n_red=None,
                  info={"shift": shift, "factor_seconds": t_fact, "lu_nnz": int(lu.L.nnz + lu.U.nnz),
                        "kkt_size": KKT.shape[0], "arnoldi_k": k})
    good = sorted((md for md in out.all_modes if md.kind != "zero"), key=lambda md: abs(md.eigenvalue))[:want]
    out.all_modes = [md for md in out.all_modes if md.kind == "zero"] + good
    return out


@memory.guarded(lambda mats, *a, **k: f"the modal analysis of {mats.n:,} coordinates and {mats.m:,} constraints")
@with_blas_threads
def solve_modes(mats, method="auto", n_modes=None, remove_redundant=True, shift=None, rtol=RANK_RTOL):
    """Modes of the linearised system ``mats`` (:class:`SystemMatrices`) by ``method`` (module doc).

    ``auto``: null-space reduction up to :data:`DENSE_LIMIT` coordinates, else
    sparse shift-and-invert (``n_modes`` modes, default 20). ``n_modes`` keeps
    the lowest ones (zero and spurious modes are kept apart).
    """
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; expected one of {METHODS}")
    if method == "auto":
        method = "nullspace" if mats.n <= DENSE_LIMIT else "sparse"
    if method != "sparse":      # dense pencils: the first-order one of a damped system is twice the size
        N = (2 if mats.R.nnz else 1) * (mats.n + (mats.m if method == "augmented" else 0))
        memory.check(f"the dense {method} modal analysis of {mats.n:,} coordinates ({N:,} x {N:,} pencil)",
                     8 * 8 * N * N)
    if method == "nullspace":
        out = solve_nullspace(mats, rtol)
    elif method == "augmented":
        out = solve_augmented(mats, remove_redundant, rtol)
    else:
        out = solve_sparse(mats, n_modes or 20, shift)
    if n_modes and method != "sparse":
        keep = set(id(md) for md in out.modes[:n_modes])
        out.all_modes = [md for md in out.all_modes if id(md) in keep or md.kind in ("zero", "spurious")]
    return out


def check_masses(structure):
    """Refuse panels without mass: a modal analysis needs thickness x density > 0 on every panel."""
    if not structure.density > 0:
        raise StructureError(f"{structure.name}: density is {structure.density}; the modal analysis needs panel "
                             "masses (thickness x density x area)")
    thin = [p + 1 for p, h in enumerate(structure.thickness) if not h > 0]
    if thin:
        raise StructureError(f"{structure.name}: panels {thin} have zero thickness, so no mass; the modal analysis "
                             "needs a thickness on every panel")


# ======================================================================= Chrono systems and structures
def modal_analysis(system, use_tangent_stiffness=True, method="auto", n_modes=None, equilibrium=True,
                   max_iterations=None, length=None, remove_redundant=True, shift=None,
                   kc_correction=True, load_stiffness=True, allow_indeterminate=False, damping=True):
    """The modes of a Chrono system at its static equilibrium, with Kc on or off (:class:`ModalResult`).

    equilibrium: True finds the equilibrium with Kc (as the paper does, Kc is
    needed to find it); ``"no-kc"`` without Kc (it fails for a loaded
    mechanism: :class:`~chrono_origami.tools.errors.SolverError`); False only
    checks that the current state is an equilibrium
    (``engines.chrono.static.linearise``). The multipliers of a hyperstatic
    system are not determined by the loads, and Kc depends on them: with
    redundant constraints and non-zero multipliers the analysis is refused
    (:class:`~chrono_origami.tools.errors.IndeterminateError`) unless
    ``allow_indeterminate``. ``max_iterations``: of the static analysis (None:
    its default).
    """
    mats, eq = _systems().linearise(system, use_tangent_stiffness, equilibrium, max_iterations, length,
                                    kc_correction, load_stiffness, damping)
    return _modes(mats, eq, method, n_modes, remove_redundant, shift, allow_indeterminate)


def _systems():
    """The engine of a system the user built (``CHRONO_SYSTEMS``: a PyChrono ``ChSystem`` is Chrono's)."""
    from .. import engines
    from ..engines.protocol import CHRONO_SYSTEMS

    return engines.get("chrono", needs=CHRONO_SYSTEMS)


def _modes(mats, equilibrium, method, n_modes, remove_redundant=True, shift=None, allow_indeterminate=False):
    """:func:`solve_modes` of ``mats``, refused when loaded redundant constraints leave Kc undetermined."""
    out = solve_modes(mats, method, n_modes, remove_redundant, shift)
    L = mats.multipliers
    if mats.use_tangent_stiffness and not allow_indeterminate and mats.m and L is not None and np.abs(L).max() > 0:
        rank = out.info.get("rank")
        redundant = mats.m - rank if rank is not None else redundant_rows(mats.Cq, mats.scaling())
        if redundant > 0:
            raise IndeterminateError(
                f"the system has {redundant} redundant constraints (self-stress states) and is loaded: its "
                "multipliers, and so Kc, are not determined by the loads (the solver picked one set); pass "
                "allow_indeterminate=True to accept them", 0, redundant)
    out.equilibrium = equilibrium
    return out


def compare_tangent_stiffness(system, method="auto", n_modes=None, equilibrium=True, **kw):
    """:class:`KcComparison`: equilibrium found with Kc, then the modes with Kc and without it, same state."""
    with_kc = modal_analysis(system, True, method, n_modes, equilibrium, **kw)
    without = modal_analysis(system, False, method, n_modes, False, **kw)
    _systems().set_tangent_stiffness(system, True)
    return KcComparison(with_kc, without)


@with_blas_threads
def structure_modes(structure, engine=None, *, crease_stiffness=0.0, slide_stiffness=0.0, damping=0.0,
                    hinge_form="mate", method="auto", n_modes=None, compare=True, use_tangent_stiffness=True,
                    equilibrium=True, max_iterations=None, allow_indeterminate=False):
    """The modes of ``structure`` with crease springs at its static equilibrium (:class:`StructureModes`).

    ``engine`` (an engine object or name, ``engines.get``) gives the linearised equations (``modal`` of
    the engine interface); they are solved here. Panel masses come from
    thickness and density (:func:`check_masses`); ``max_iterations``: of the
    static analysis (None: its default). ``use_tangent_stiffness=False`` runs
    everything without Kc (the static analysis too, which may then fail);
    otherwise the equilibrium is found with Kc and, with ``compare``, the
    modes are also computed without Kc at it. An unloaded structure without
    supports is analysed where it is (``equilibrium`` is then only checked):
    its six rigid-body motions are zero modes.
    """
    from .. import engines

    check_masses(structure)
    lin = engines.get(engine).modal(structure, crease_stiffness=crease_stiffness, slide_stiffness=slide_stiffness,
                                    damping=damping, hinge_form=hinge_form, compare=compare,
                                    use_tangent_stiffness=use_tangent_stiffness, equilibrium=equilibrium,
                                    max_iterations=max_iterations)
    first = _modes(lin.matrices, lin.equilibrium, method, n_modes, allow_indeterminate=allow_indeterminate)
    second = None
    if lin.matrices_without_kc is not None:
        second = _modes(lin.matrices_without_kc, lin.equilibrium_without_kc, method, n_modes,
                        allow_indeterminate=allow_indeterminate)
    return StructureModes(lin.built, lin.springs, first, second)


#: ``kc`` of :func:`modal`: with Kc, without it (same equilibrium), or both side by side
KC_CHOICES = ("on", "off", "compare")


@with_blas_threads
def modal(structure, engine=None, *, modes=10, crease_stiffness=0.0, slide_stiffness=0.0, kc="on", damping=0.0,
          method="auto", hinge_form="mate", max_iterations=None, allow_indeterminate=False, held=()):
    """The ``modes`` lowest modes of ``structure`` at its static equilibrium (a :class:`ModalAnalysis`).

    The structure carries its supports, loads and gravity; ``crease_stiffness`` (N m/rad) and
    ``slide_stiffness`` (N/m) are crease springs at rest in the given configuration, a number or one per hinge
    (a held hinge is a stiff spring). ``engine``: an engine object or name (``engines.get``: Chrono where PyChrono
    imports), whose ``modal`` finds the equilibrium (Chrono: its static analysis with Kc; the reference engine:
    the pattern configuration, which must be one) and linearises there. ``kc``: "on" (the modes with the
    constraint tangent stiffness Kc of the equilibrium's multipliers), "off" (the same equilibrium, the modes
    without Kc) or "compare" (both: ``ModalAnalysis.without_kc``). Panel masses come from thickness x density
    (:func:`check_masses`). The one call per state a path of states needs: each frame's structure, with its
    loads and its held hinges as springs, gives that frame's modes. ``held``: 0-based door hinges whose motors
    hold their fold angle where the structure is (preloaded: they carry the loads' torque; their servo stiffness
    is the hinge's ``crease_stiffness``), the reference engine's (Chrono's crease springs are at rest and sag).
    """
    from .. import engines

    if kc not in KC_CHOICES:
        raise ValueError(f"kc must be one of {KC_CHOICES}, got {kc!r}")
    if not (isinstance(modes, (int, np.integer)) and not isinstance(modes, bool) and modes >= 1):
        raise StructureError(f"modes must be a positive integer, got {modes!r}")
    for name, value in (("crease_stiffness", crease_stiffness), ("slide_stiffness", slide_stiffness),
                        ("damping", damping)):
        v = np.asarray(value, float)
        if not (np.all(np.isfinite(v)) and np.all(v >= 0)):
            raise StructureError(f"{name} must be a number >= 0 or one per hinge, got {value!r}")
    check_masses(structure)
    eng = engines.get(engine)
    extra = {"held": list(held)} if len(held) else {}
    if extra and eng.name != "reference":
        raise StructureError("hinges held by motors at their angle (preloaded) are the reference engine's: "
                             "engine='reference'")
    lin = eng.modal(structure, crease_stiffness=crease_stiffness, slide_stiffness=slide_stiffness, damping=damping,
                    hinge_form=hinge_form, compare=kc != "on", use_tangent_stiffness=True, equilibrium=True,
                    max_iterations=max_iterations, **extra)
    n = int(modes)
    first = second = None
    if kc != "off":
        first = _modes(lin.matrices, lin.equilibrium, method, n, allow_indeterminate=allow_indeterminate)
    if kc != "on":
        second = _modes(lin.matrices_without_kc, lin.equilibrium_without_kc, method, n,
                        allow_indeterminate=allow_indeterminate)
    if kc == "off":
        first, second = second, None
    return ModalAnalysis(structure, eng.name, first, second, n, lin.built, lin.springs)
