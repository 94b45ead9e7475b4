"""Leaving a singular start (e.g. a flat state) on the branch a mountain-valley assignment asks for.

At a singular configuration the first-order equations J v = b (b: the drive
rates) leave a family v = v0 + N c of velocities (N: null space of J). The
velocities that start a real folding branch also satisfy the second-order
condition: the acceleration of the constraints along the motion must lie in
the range of J, i.e. mu . d2F/dh2 (exp(h v) g, time h) = 0 at h = 0 for every
left null vector mu of J (a self-stress state of the start). These quadratic
equations in c are solved by Gauss-Newton from the velocity closest to the
assignment's signs; the result must fold every assigned hinge in its sign.

The residual is the part of w = d2F/dh2 outside range(J): U0^T w with U0 an
orthonormal basis of the left null space (dense path, SVD; sparse path when U0
has at most :data:`LEFT_ENTRIES` numbers), or r = w - J x
with x the least-squares solution of J x = w (sparse path, the factor of J
made once, ``Jacobian.range_residual``): |r| = |U0^T w|, and no basis of the
left null space is formed, whose dimension grows with the pattern's area (a
flat n x n Miura-ori: 4 (n - 1)^2) while N's stays small (2 n - 3). w is a
Richardson-extrapolated central second difference (relative error about
1e-10); it is quadratic in (v, 1), so dq/dc = 2 B((v, 1), (N, 0)) outside
range(J), B its bilinear form: the derivative of J N along (v, 1), which
differs from B by J times a Lie bracket (in range(J)), from two central
differences of J per Gauss-Newton step, whatever k = dim N.
"""
import numpy as np

from ....structure.flat_branch import ACCEPT
from ....tools import linalg
from ....tools.errors import SolverError
from ....tools.jacobian import Jacobian, norm_bound
from .lie import exp_update

#: relative singular value below which a direction of J counts as free
NULL_RTOL = 1e-9
#: largest rotation (rad) or displacement (scaled units) of a body in the second differences of F
STEP = 1e-3
#: sparse path: the second-order residual is U0^T w, U0 an orthonormal basis of the left null space, when U0 has at
#: most this many numbers (80 MB; 6ptHypar-anti: 2,197 rows x 580), else the range residual of w (no basis formed)
LEFT_ENTRIES = 10_000_000
#: a Gauss-Newton search whose |q| does not fall below STALL_RATIO of its least in STALL_STEPS steps gives up
STALL_RATIO = 0.7
STALL_STEPS = 8
#: the search stops once it has found this many branch directions, none with the assignment's signs
GIVE_UP_FOUND = 12


def hinge_rates(C, R, v):
    """Relative angular rate (rad/s) of every hinge for the body velocities v (6N)."""
    return C.hinge_rate_operator(R) @ v


def _drives_null_space(C, J, cache, left_limit):
    """The null spaces of J (right, and left as ``linalg.null_space`` with ``left_limit`` gives it) from those of B,
    J's rows other than the drives' (the hinges, holds and panel 1: the same for every choice of drive), made once
    and kept in ``cache`` (a dict) for the next call on a state whose B differs by E, e = sqrt(|E|_1 |E|_inf) >=
    |E|_2 (the restarts of a flat start on a pattern straightened in memory: rounding, e about 1e-11 sigma_max).
    null(J) = N_B null(D N_B) (D: the drive rows); left null(J) = the left null space of B, zero on the drive rows,
    where D N_B has full row rank. B is ranked on its own scale, ``NULL_RTOL`` x sigma_max(B) (``null_space(J)``
    would take J's, at most sqrt(sigma_max(B)^2 + |D|^2): a singular value of B between the two thresholds is kept
    here, dropped there). A kept space is reused only where the rule decides as before: B's kept and dropped
    singular values (its ``gap``, as the count estimated them, not bounds) more than 2 e from the threshold (Weyl:
    e moves each by at most e, so the rank is the same, and the kept basis x has |B x| <= dropped + e), and the
    singular values of D N_B above 1e3 times the threshold with J's largest singular value bound (from the first B's
    sigma_max: within e of a reusing B's). None where these do not hold: the caller factors J itself."""
    keep = np.ones(J.shape[0], bool)
    keep[C.drive_row] = False
    J = J.tocsr()
    B, D = J[keep], J[C.drive_row]
    old = cache.get("base")
    nsB = None
    if old is not None and old[0].shape == B.shape:
        E = B - old[0]
        e = norm_bound(E) if E.nnz else 0.0
        smax = old[1].sigma_max
        kept, dropped = old[1].gap
        if (smax > 0 and np.isfinite(kept) and kept * smax - 2 * e > NULL_RTOL * (smax + e)
                and dropped * smax + 2 * e < NULL_RTOL * (smax - e)):
            nsB = old[1]
    if nsB is None:
        nsB = linalg.null_space(B, NULL_RTOL, "sparse", left=True, left_limit=left_limit)
        cache["base"] = (B, nsB)
    NB = nsB.basis
    if NB.shape[1] < D.shape[0] or nsB.sigma_max <= 0:
        return None
    G = np.asarray(D @ NB)
    _, s, Vt = np.linalg.svd(G)
    bound = float(np.hypot(nsB.sigma_max, np.linalg.norm(D.toarray())))     # >= sigma_max(J) (up to e on reuse)
    if s.min(initial=np.inf) <= 1e3 * NULL_RTOL * bound:
        return None
    m = J.shape[0]
    rank = nsB.rank + D.shape[0]
    wants_left = m * (m - rank) <= linalg.LEFT_BASIS_ENTRIES and (left_limit is None or m - rank <= left_limit)
    if wants_left != (nsB.left is not None):
        return None
    left = None
    if nsB.left is not None:
        left = np.zeros((m, nsB.left.shape[1]))
        left[keep] = nsB.left
    N = NB @ Vt[D.shape[0]:].T
    return linalg.NullSpace(N, rank, bound, (np.nan, np.nan), left, "sparse")


def branch_tangent(C, R, u, signs, time=0.0, method="auto", rates=None, fit_all=False, cache=None):
    """Body velocity (6N) starting the folding branch whose hinge rates have the given ``signs``.

    signs : array over hinges of +1, -1 (the driven-angle convention of
    ``problem``) or 0 (no preference). method : ``linalg.choose_method``'s.
    rates : optional array over hinges of wished relative rates (rad/s, the
    driven-angle convention; read where ``signs`` is not 0): the search starts
    from the velocity whose hinge rates best fit them (least squares) instead
    of the signs at the drives' magnitude, so among a family of branches (a
    vertex of degree 6 or more) the one nearest the wished rates is taken.
    fit_all : fit the wished rates of every hinge, not only the signed ones
    (rates that already meet the second-order condition, e.g.
    ``structure.flat_branch.branch_rates``: the search then starts on the branch).
    N, the null space of J, comes from ``linalg.null_space``; ``cache`` (a dict, sparse path): from the null
    spaces of J's rows other than the drives', kept there for the next call (:func:`_drives_null_space`: a flat
    start's restarts with another drive, on a pattern straightened in memory). The
    second-order residual is the part of w = d2F/dh2 outside range(J): on
    the dense path U0^T w (U0 an orthonormal basis of the left null space,
    by the SVD); on the sparse path r = w - J x, x the least-squares solution
    of J x = w by the factor of J made once here (``Jacobian.range_residual``),
    so no basis of the (possibly very large) left null space is formed.
    |r| = |U0^T w| for the same left null space, so one threshold serves both (the two paths cut the
    range at 1e-8 x a bound on sigma_max and at NULL_RTOL sigma_max: they agree unless a singular value of
    J lies between).
    """
    F, J, Ft = C.evaluate(R, u, time)
    b = -Ft
    jac = Jacobian(J, method)
    # sparse: the left null space's basis too where it holds at most LEFT_ENTRIES numbers (a tessellation's or a
    # kirigami's many free motions would make k range residuals per Gauss-Newton step the cost)
    left_limit = None if jac.method == "dense" else LEFT_ENTRIES // max(J.shape[0], 1)
    ns = _drives_null_space(C, J, cache, left_limit) if cache is not None and jac.method == "sparse" else None
    if ns is None:
        ns = linalg.null_space(J, NULL_RTOL, jac.method, left=True, left_limit=left_limit)
    N = ns.basis
    if ns.left is not None:
        U0 = ns.left

        def outside_range(W):
            return U0.T @ W
    else:
        outside_range = jac.range_residual
    v0 = jac.solve(b)
    v0 = v0 - N @ (N.T @ v0)          # the minimum-norm solution: nothing along the null space
    signs = np.asarray(signs, float)
    if N.shape[1] == 0:
        return v0
    k = N.shape[1]

    def second_difference(V, tau):
        """d2F/dh2 at h = 0 along exp(h V_j) g, time + h tau (6N x p velocities V, tau 1 or 0): central second
        differences of step h_j = :data:`STEP` / max |V_j| (largest rotation or displacement of a body, scaled
        units) and 2 h_j, Richardson-extrapolated (error O(h^4), round-off about 1e-16 / STEP^2 relative)."""
        W = np.empty((len(F), V.shape[1]))
        for j in range(V.shape[1]):
            h0 = STEP / (np.abs(V[:, j]).max() or 1.0)
            d = []
            for h in (h0, 2 * h0):
                Fp = C.evaluate(*exp_update(R, u, (h * V[:, j]).reshape(-1, 6)), time + tau * h, False)[0]
                Fm = C.evaluate(*exp_update(R, u, (-h * V[:, j]).reshape(-1, 6)), time - tau * h, False)[0]
                d.append((Fp + Fm - 2 * F) / h ** 2)
            W[:, j] = (4 * d[0] - d[1]) / 3
        return W

    def jacobian_derivative(v):
        """d/dh [J(exp(h v) g, time + h) N] at h = 0 (rows x k): central differences of the Jacobian of step h and
        2 h (h = :data:`STEP` / max |v|), Richardson-extrapolated. With f(xi) = F(exp(xi) g), the left update's
        Baker-Campbell-Hausdorff term gives J(exp(h v) g) n = J n + h (H(v, n) + J [n, v] / 2) + O(h^2) (H the
        Hessian of f, [,] the bracket of se(3) body by body), so outside range(J) this is B((v, 1), (n, 0)), the
        bilinear form of w: the Jacobian of q from two evaluations of J, not k second differences."""
        h0 = STEP / (np.abs(v).max() or 1.0)
        d = []
        for h in (h0, 2 * h0):
            Jp = C.evaluate(*exp_update(R, u, (h * v).reshape(-1, 6)), time + h)[1]
            Jm = C.evaluate(*exp_update(R, u, (-h * v).reshape(-1, 6)), time - h)[1]
            d.append(np.asarray((Jp - Jm) @ N) / (2 * h))
        return (4 * d[0] - d[1]) / 3

    def residual_and_jacobian(c):
        """(q(c), dq/dc): q the second-order residual at v = v0 + N c (module doc); w is quadratic in (v, 1), so
        dq/dc = 2 B((v, 1), (N, 0)) outside range(J) (``jacobian_derivative``)."""
        v = v0 + N @ c
        Q = outside_range(np.column_stack([second_difference(v[:, None], 1.0), 2 * jacobian_derivative(v)]))
        return Q[:, 0], Q[:, 1:]

    # start: the velocity whose hinge rates best follow the signs, at the drives' magnitude
    Rv = C.hinge_rate_operator(R)
    rate = np.abs(Rv @ v0).max() or 1.0
    sel = signs != 0
    fit = sel if rates is None or not fit_all else np.ones(len(signs), bool)
    A = (Rv @ N)[fit]
    wish = signs[fit] * rate if rates is None else np.asarray(rates, float)[fit]
    c = np.linalg.lstsq(A, wish - (Rv @ v0)[fit], rcond=None)[0] if fit.any() else np.zeros(k)

    def threshold(v):
        """Largest |q| of a branch velocity v: ``flat_branch.ACCEPT`` (1e-6) (largest hinge rate)^2."""
        return ACCEPT * max(rate, np.abs(Rv @ v).max()) ** 2

    def gauss_newton(c):
        """Gauss-Newton on |q(c)|. Stops at a step below 1e-11 |c|, or where round-off of the second
        differences takes over: a step below 1e-6 |c| that no longer halves, or |q| below a tenth of the
        acceptance threshold that no longer halves, or |q| not below :data:`STALL_RATIO` of its least for
        :data:`STALL_STEPS` steps (a start that leads to no root; a root, even a singular one, where Gauss-Newton
        converges linearly, lowers |q| faster). Singular values of dq/dc below 1e-8 of the largest are
        truncated: a family of branches (straight crease lines folding on their own) makes dq/dc rank-deficient,
        and a step along it would only be round-off. Returns (c, |q(c)|): the least |q| / threshold of the
        iterates (steps from a start within the threshold, e.g. the straight lines of a tessellation folding on their
        own, can lead away from it, the second differences' round-off growing with the panels)."""
        last_step = last_q = best_q = np.inf
        stalled = 0
        q0 = float(np.linalg.norm(outside_range(second_difference((v0 + N @ c)[:, None], 1.0))))
        if q0 < 0.1 * threshold(v0 + N @ c):
            return c, q0                                 # a branch where the search starts (one second difference)
        least = (q0 / threshold(v0 + N @ c), c, q0)
        for _ in range(40):
            qc, Jq = residual_and_jacobian(c)
            qn = float(np.linalg.norm(qc))
            if qn < 0.1 * threshold(v0 + N @ c) and qn > 0.5 * last_q:
                return c, qn
            if qn / threshold(v0 + N @ c) < least[0]:
                least = (qn / threshold(v0 + N @ c), c, qn)
            stalled = 0 if qn < STALL_RATIO * best_q else stalled + 1
            best_q = min(best_q, qn)
            if stalled >= STALL_STEPS:
                break                                    # no root near this start: |q| stays at a positive minimum
            dc = np.linalg.lstsq(Jq, -qc, rcond=1e-8)[0]
            c = c + dc
            step = np.linalg.norm(dc)
            bound = max(1.0, np.linalg.norm(c))
            if step < 1e-11 * bound or (step < 1e-6 * bound and step > 0.5 * last_step):
                break
            last_step, last_q = step, qn
        q = float(np.linalg.norm(outside_range(second_difference((v0 + N @ c)[:, None], 1.0))))
        return (c, q) if q / threshold(v0 + N @ c) <= least[0] else least[1:]

    # several starts: the sign guess at three magnitudes, then random ones; keep the branch velocities
    # (second-order residual ~ 0) that fold every assigned hinge in its sign; stop after five such, or after
    # GIVE_UP_FOUND branches with none of them
    rng = np.random.default_rng(0)
    starts = [c * f for f in (1.0, 0.3, 3.0)] + [rng.standard_normal(len(c)) * (np.linalg.norm(c) + 1.0)
                                                  for _ in range(40)]
    best, found, against = None, 0, np.zeros(len(signs), int)
    nearest = (np.inf, None)                             # the least second-order residual of any search
    for c_start in starts:
        c1, res = gauss_newton(c_start)
        v = v0 + N @ c1
        if res < nearest[0]:
            nearest = (res, v)
        if res > threshold(v):
            continue
        found += 1
        rates = Rv @ v
        bad = np.nonzero(sel & (np.sign(rates) != signs) & (np.abs(rates) > 1e-6 * rate))[0]
        against[bad] += 1
        if len(bad) == 0:
            dist = np.linalg.norm(c1 - c)
            if best is None or dist < best[1]:
                best = (v, dist)
        if best is not None and (found > 4 or best[1] <= 1e-3 * max(1.0, np.linalg.norm(c))):
            break                                        # five branches seen, or one where the search started
        if best is None and found >= GIVE_UP_FOUND:
            break                                        # as many branches seen, none in the assignment's signs
    if best is None:
        e = SolverError("no folding branch leaves this start with the hinge signs of the mountain-valley "
                        f"assignment ({found} branch directions tried): the assignment is not rigidly foldable "
                        "from this state")
        e.found = found                                  # branch directions found, and the hinge (0-based) that
        e.wrong = int(np.argmax(against)) if found and against.max() == found else None   # turns wrong on all
        e.against = against                              # on how many of them each hinge turns wrong
        e.worst_row = None
        if found == 0 and nearest[1] is not None:
            # the constraint row where the nearest search misses the second-order condition most
            w = second_difference(nearest[1][:, None], 1.0)
            r = ns.left @ (ns.left.T @ w) if ns.left is not None else jac.range_residual(w)
            e.worst_row = C.row_label(int(np.argmax(np.abs(r[:, 0]))))
        raise e
    v = best[0]
    return v
