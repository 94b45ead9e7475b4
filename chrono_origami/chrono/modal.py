"""Modal (eigen) analysis at a static equilibrium, with the constraint tangent stiffness Kc.

Linearised equations
--------------------
About an equilibrium (Peng, Tasora, Fusai, Mangoni, CMAME 419 (2024) 116667, eq. 7)

    M x'' + R x' + K x + Cq^T g = 0,        Cq x = 0,

in Chrono's velocity-level coordinates: per active ``ChBody``, the displacement
of its reference point (the centre of mass) in the global frame, then the
rotation vector in the *body* frame (Chrono's mixed basis). g are the
multiplier increments. M, R, K (K = -dF/dq, F the generalised forces including
the constraint forces Cq^T L) and Cq are written by
``ChSystem.WriteSystemMatrices`` (PyChrono wraps no ``ChSparseMatrix``, so they
travel as COO text with 13 significant digits). K holds every ``ChKRMBlock``:
the Kc of each ``ChLinkMateGeneric`` with ``SetUseTangentStiffness(True)`` and
the Jacobians of stiff ``ChLoad`` objects (the crease springs of
:mod:`.springs`). Two terms Chrono does not supply are added here
(:func:`system_matrices`):

* the load stiffness of ``ChForce`` point loads (``ChForce`` has no Jacobian):
  dead loads (global direction, point fixed on the body) and follower loads;
* a correction of Chrono's Kc: in ``ChLinkMateGeneric::LoadKRMMatrices`` (Chrono
  10) the rows of the rotations of body 2 use R_F2 [gf] R_F2^T R_B2 where the
  paper (eqs. 45e-h) and the derivative have R_B2^T R_F2 [gf] R_F2^T; they
  differ when body 2 is rotated. :func:`kc_defect` detects it on a probe
  system, so the correction switches itself off on a fixed Chrono.

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

* ``"nullspace"``: x = Z y with Z a basis of null(Cq) (dense SVD): Z^T M Z,
  Z^T K Z, Z^T R Z. Exact (the multipliers drop out) and cheaper when the
  mechanisms are few; redundant constraints are harmless.
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
massless coordinates) are counted, not returned.
"""
import csv
import os
import tempfile
import time
from dataclasses import dataclass, field

import numpy as np
import pychrono as chrono
import scipy.linalg as sla
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from ..errors import IndeterminateError, OrigamiError, SolverError, StructureError
from ..geometry import skew
from . import links as lk
# the tolerances of the static analysis (one definition, in analysis): relative equilibrium residual and
# constraint violation (translations / length scale, rotations as quaternion parts)
from .analysis import CONSTRAINT_TOL, EQUILIBRIUM_RTOL  # noqa: F401 (re-exported)
from .analysis import _make_solver, link_violation
#: singular values of the (scaled) Cq below this fraction of the largest count as zero
RANK_RTOL = 1e-9
#: |mu| below this fraction of the reference |mu| (||K|| / ||M||, scaled) is a zero mode (|lambda| <= 1e-3 of its root)
ZERO_RTOL = 1e-6
#: residual and constraint checks of a mode (relative)
RESIDUAL_RTOL = 1e-6
#: |mu| above this multiple of the reference is infinite (constraint block, massless coordinates)
INFINITE_RATIO = 1e12
#: compliance of the constraint block in the sparse factorisation, relative to the stiffness scale
SPARSE_COMPLIANCE = 1e-12
#: systems with more coordinates than this use the sparse method under ``method="auto"``
DENSE_LIMIT = 1500
#: shift-inverted operators up to this size are solved densely (ARPACK needs k < N - 1)
SMALL_OPERATOR = 60
METHODS = ("auto", "nullspace", "augmented", "sparse")
KINDS = ("oscillatory", "unstable", "zero", "spurious")


# ======================================================================= Chrono helpers
def _np(v):
    """``ChVectorDynamicd`` -> NumPy array."""
    return np.array(v.GetVectorData(v.Size()), float)


def _chvec(x):
    v = chrono.ChVectorDynamicd(len(x))
    v.SetVect([float(a) for a in x])
    return v


def active_bodies(system):
    """Active (not fixed) ``ChBody`` objects of ``system``, in the order of their velocity offsets.

    Raises :class:`~chrono_origami.errors.OrigamiError` when the system has
    other state (shafts, FEA nodes): the modal analysis here handles rigid bodies.
    """
    system.Setup()
    bodies = sorted((b for b in system.GetBodies() if not b.IsFixed()), key=lambda b: b.GetOffset_w())
    n = system.GetNumCoordsVelLevel()
    if 6 * len(bodies) != n or any(b.GetOffset_w() != 6 * i for i, b in enumerate(bodies)):
        raise OrigamiError(f"the system has {n} velocity coordinates but {len(bodies)} active bodies (6 each): "
                           "the modal analysis handles systems of rigid bodies only")
    return bodies


def mate_links(system):
    """The ``ChLinkMateGeneric`` links of ``system`` (as ``ChLinkMateGeneric`` proxies)."""
    out = []
    for link in system.GetLinks():
        m = chrono.CastToChLinkMateGeneric(link)
        if m is not None:
            out.append(m)
    return out


def set_tangent_stiffness(system, use_kc, built=None):
    """Switch Kc on or off for every ``ChLinkMateGeneric`` of ``system``.

    One switch: chrono-origami links are switched through their Python objects
    (:func:`links.set_tangent_stiffness`), so their ``GetUseTangentStiffness``
    stays truthful with or without ``built`` (kept for compatibility).
    """
    for link in system.GetLinks():
        lk.set_tangent_stiffness(link, bool(use_kc))
    if built is not None:
        built.set_tangent_stiffness(use_kc)
        if built.anchor is not None:
            built.anchor.SetUseTangentStiffness(use_kc)


def multipliers(system):
    """Chrono's Lagrange multipliers L (``StateGatherReactions``); the constraint forces are Cq^T L."""
    L = chrono.ChVectorDynamicd(system.GetNumConstraints())
    system.StateGatherReactions(L)
    return _np(L)


def generalized_forces(system):
    """F (``LoadResidual_F``: gravity, ``ChForce`` loads, ``ChLoad`` objects) and Cq^T L, Chrono's coordinates."""
    n = system.GetNumCoordsVelLevel()
    F = chrono.ChVectorDynamicd(n)
    F.SetZero()
    system.LoadResidual_F(F, 1.0)
    C = chrono.ChVectorDynamicd(n)
    C.SetZero()
    L = chrono.ChVectorDynamicd(system.GetNumConstraints())
    system.StateGatherReactions(L)
    system.LoadResidual_CqL(C, L, 1.0)
    return _np(F), _np(C)


def length_scale(system):
    """Size of the system: largest distance between body and link-frame positions (1 when zero)."""
    pts = [lk.arr(b.GetPos()) for b in system.GetBodies()]
    for link in mate_links(system):
        frame = chrono.ChFramed(link.GetFrame2Abs())   # keep it alive: GetPos returns a reference into it
        pts.append(lk.arr(frame.GetPos()))
    P = np.array(pts) if pts else np.zeros((1, 3))
    d = float(np.linalg.norm(P.max(0) - P.min(0)))
    return d if d > 0 else 1.0


# ======================================================================= equilibrium
@dataclass
class Equilibrium:
    """Outcome of a static analysis, checked here (``DoStaticAnalysis`` returns true whatever happens).

    residual: |F + Cq^T L| / max(|F|, |Cq^T L|, f0), forces times ``length`` so
    that every row is a moment; f0 = 1e-6 x total mass x |g| (1 without
    gravity) x length, the scale of an unloaded system. violation: largest
    constraint residual, translations divided by ``length``; worst_body: the
    body with the largest residual.
    """

    converged: bool
    residual: float
    violation: float
    worst_body: str
    length: float
    use_tangent_stiffness: bool


def check_equilibrium(system, length=None, use_tangent_stiffness=None):
    """Residuals of the current state (no solve): see :class:`Equilibrium`."""
    system.Setup()
    system.Update()
    bodies = active_bodies(system)
    ell = length or length_scale(system)
    F, CL = generalized_forces(system)
    scale = np.tile([ell, ell, ell, 1.0, 1.0, 1.0], len(bodies))
    r = (F + CL) * scale
    # an unloaded system has no force scale: forces below 1e-6 of (total mass) a L, a = |g| or 1, count as none
    g = np.linalg.norm(lk.arr(system.GetGravitationalAcceleration()))
    floor = 1e-6 * sum(b.GetMass() for b in bodies) * (g if g > 0 else 1.0) * ell
    ref = max(np.linalg.norm(F * scale), np.linalg.norm(CL * scale), floor)
    rel = float(np.linalg.norm(r) / ref) if ref > 0 else float(np.linalg.norm(r))
    worst = bodies[int(np.argmax(np.linalg.norm(r.reshape(-1, 6), axis=1)))].GetName() if bodies else None
    viol = constraint_violation(system, ell)
    return Equilibrium(rel <= EQUILIBRIUM_RTOL and viol <= CONSTRAINT_TOL, rel, viol, worst, ell,
                       use_tangent_stiffness)


def constraint_violation(system, length):
    """Largest constraint residual over the system's links, scaled as ``analysis.link_violation``
    (translations / ``length``, rotations as they are); links without residual rows are skipped."""
    return max((link_violation(lk.python_link(link) or link, length)
                for link in system.GetLinks() if link.GetConstraintViolation().Size()), default=0.0)


def static_equilibrium(system, use_tangent_stiffness=True, max_iterations=100, length=None, assemble=True,
                       built=None, check=True):
    """Static equilibrium with Chrono's ``ChStaticNonLinearAnalysis`` (Newton), checked; returns :class:`Equilibrium`.

    Kc is switched on or off on every ``ChLinkMateGeneric`` first; the solver is
    set to ``ChSolverSparseQR``. With ``assemble`` a full ``DoAssembly`` runs
    first (it computes the reactions Kc needs, as Chrono's demo does).
    Raises :class:`~chrono_origami.errors.SolverError` when the residual or the
    constraint violation is not small (``check``).
    """
    set_tangent_stiffness(system, use_tangent_stiffness, built)
    system.SetSolver(_make_solver("sparse_qr"))
    system.Setup()
    if assemble:
        system.DoAssembly(chrono.FULL)
    analysis = chrono.ChStaticNonLinearAnalysis()
    analysis.SetMaxIterations(int(max_iterations))
    analysis.SetCorrectionTolerance(1e-14, 1e-16)
    analysis.SetResidualTolerance(1e-16)
    system.DoStaticAnalysis(analysis)
    eq = check_equilibrium(system, length, use_tangent_stiffness)
    if check and not eq.converged:
        hint = ("" if use_tangent_stiffness else
                "; without the constraint tangent stiffness Kc, Newton's matrix has no stiffness along the "
                "mechanisms that the loads work on")
        raise SolverError(
            f"the static analysis did not converge: relative equilibrium residual {eq.residual:.3g} "
            f"(tolerance {EQUILIBRIUM_RTOL:g}, largest on {eq.worst_body}), constraint violation "
            f"{eq.violation:.3g} (tolerance {CONSTRAINT_TOL:g}){hint}")
    return eq


# ======================================================================= matrices
@dataclass
class SystemMatrices:
    """M, R, K, Cq (SciPy CSR) in Chrono's coordinates and what they were taken from.

    ``bodies``: names of the active bodies (6 coordinates each, in order);
    ``rotations``: their rotation matrices (body axes in the global frame), to
    turn the body-frame rotations of a mode into global ones; ``length``: the
    length scale used to balance translations and rotations (x L).
    """

    M: sp.csr_matrix
    R: sp.csr_matrix
    K: sp.csr_matrix
    Cq: sp.csr_matrix
    bodies: list
    rotations: np.ndarray
    positions: np.ndarray
    length: float
    use_tangent_stiffness: bool
    multipliers: np.ndarray = None
    info: dict = field(default_factory=dict)

    @property
    def n(self):
        return self.M.shape[0]

    @property
    def m(self):
        return self.Cq.shape[0]

    def scaling(self):
        """Diagonal D (translations 1, rotations 1/length): coordinates D^-1 x have length units throughout."""
        return np.tile([1.0, 1.0, 1.0, 1.0 / self.length, 1.0 / self.length, 1.0 / self.length], self.n // 6)


def _read_coo(path, shape):
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return sp.csr_matrix(shape)
    D = np.loadtxt(path, ndmin=2)
    if D.size and (D[:, 0].max() >= shape[0] or D[:, 1].max() >= shape[1]):
        raise SolverError(f"Chrono's matrix file {os.path.basename(path)} has entries beyond {shape}")
    return sp.csr_matrix((D[:, 2], (D[:, 0].astype(int), D[:, 1].astype(int))), shape=shape)


def raw_matrices(system, workdir=None, damping=True, mass=True):
    """(M, R, K, Cq) exactly as ``ChSystem.WriteSystemMatrices`` writes them (0-based COO), current state.

    Chrono assembles each of M, K, R by pasting every KRM block, which takes
    seconds on large systems: ``damping=False`` skips R, ``mass=False`` skips M
    (returned as None).
    """
    system.Setup()
    system.Update()
    n, m = system.GetNumCoordsVelLevel(), system.GetNumConstraints()
    with tempfile.TemporaryDirectory(dir=workdir) as d:
        prefix = os.path.join(d, "sys")
        system.WriteSystemMatrices(bool(mass), True, bool(damping), True, prefix, False)
        M = _read_coo(prefix + "_M.dat", (n, n)) if mass else None
        K = _read_coo(prefix + "_K.dat", (n, n))
        R = _read_coo(prefix + "_R.dat", (n, n)) if damping else sp.csr_matrix((n, n))
        Cq = _read_coo(prefix + "_Cq.dat", (m, n))
    return M, R, K, Cq


def body_mass_matrix(bodies):
    """M assembled from the bodies' own mass and inertia (body frame, about the centre of mass): diag(m I, J) per body.

    Equal to Chrono's M for plain ``ChBody`` objects (inertial loads such as
    ``ChLoadBodyInertia`` are not included); much faster on large systems.
    """
    blocks = []
    for b in bodies:
        B = np.zeros((6, 6))
        B[:3, :3] = b.GetMass() * np.eye(3)
        B[3:, 3:] = np.array(b.GetInertia().GetMatr())
        blocks.append(B)
    return sp.block_diag(blocks, format="csr") if blocks else sp.csr_matrix((0, 0))


def system_matrices(system, use_tangent_stiffness=True, built=None, load_stiffness=True, kc_correction=True,
                    length=None, workdir=None, damping=True, mass="chrono"):
    """M, R, K, Cq of ``system`` at its current state (see the module doc), Kc switched as asked.

    K = Chrono's K (with or without Kc) + the load stiffness of ``ChForce``
    loads (``load_stiffness``) + the correction of Chrono's Kc
    (``kc_correction``, only when :func:`kc_defect` finds the defect).
    ``damping=False``: R is taken as zero without asking Chrono (when the
    system has no dampers); ``mass="bodies"``: M from :func:`body_mass_matrix`
    instead of Chrono's (the same for plain bodies, and fast).
    """
    if mass not in ("chrono", "bodies"):
        raise ValueError(f"mass must be 'chrono' or 'bodies', got {mass!r}")
    set_tangent_stiffness(system, use_tangent_stiffness, built)
    bodies = active_bodies(system)
    M, R, K, Cq = raw_matrices(system, workdir, damping, mass == "chrono")
    if M is None:
        M = body_mass_matrix(bodies)
    L = multipliers(system)
    info = {}
    if load_stiffness:
        KL = force_load_stiffness(system, bodies)
        info["load_stiffness_norm"] = float(abs(KL).sum())
        K = K + KL
    if use_tangent_stiffness and kc_correction and kc_defect():
        dK = kc_correction_matrix(system, L)
        info["kc_correction_norm"] = float(abs(dK).sum())
        K = K + dK
    rot = np.array([lk.rotation(b) for b in bodies]) if bodies else np.zeros((0, 3, 3))
    pos = np.array([lk.arr(b.GetPos()) for b in bodies]) if bodies else np.zeros((0, 3))
    return SystemMatrices(sp.csr_matrix(M), sp.csr_matrix(R), sp.csr_matrix(K), sp.csr_matrix(Cq),
                          [b.GetName() for b in bodies], rot, pos, length or length_scale(system),
                          bool(use_tangent_stiffness), L, info)


# ----------------------------------------------------------------------- load stiffness
def force_load_stiffness(system, bodies=None):
    """Stiffness (-dQ/dq) of the ``ChForce`` loads on the active bodies, which Chrono does not linearise.

    A force F at the body point r (body frame, from the centre of mass) gives
    the body-frame torque r x (R^T F): for a dead load (``WORLD_DIR``) the
    rotation block is -[r][R^T F]; for a follower load (``BODY_DIR``) the
    translation-rotation block is R [R^T F]. Torques: -[R^T T] (dead), 0
    (follower). Points fixed in space (``ChForce.WORLD`` frame) are refused.
    """
    bodies = active_bodies(system) if bodies is None else bodies
    n = system.GetNumCoordsVelLevel()
    rows, cols, vals = [], [], []

    def put(r0, c0, B):
        for i in range(3):
            for j in range(3):
                if B[i, j] != 0.0:
                    rows.append(r0 + i)
                    cols.append(c0 + j)
                    vals.append(B[i, j])

    for b in bodies:
        off = b.GetOffset_w()
        Rb = lk.rotation(b)
        for f in b.GetForces():
            f.UpdateState()
            vec = lk.arr(f.GetForce())
            if not np.any(vec):
                continue
            if f.GetMode() == chrono.ChForce.FORCE and f.GetFrame() != chrono.ChForce.BODY:
                raise OrigamiError(f"{b.GetName()}: force {f.GetName()!r} acts at a point fixed in space "
                                   "(ChForce.WORLD): its stiffness is not implemented; use a point on the body")
            local = Rb.T @ vec
            dead = f.GetAlign() == chrono.ChForce.WORLD_DIR
            if f.GetMode() == chrono.ChForce.FORCE:
                r = lk.arr(f.GetVrelpoint())
                if dead:
                    put(off + 3, off + 3, -skew(r) @ skew(local))
                else:
                    put(off, off + 3, Rb @ skew(local))
            elif dead:
                put(off + 3, off + 3, -skew(local))
    return sp.csr_matrix((vals, (rows, cols)), shape=(n, n))


# ----------------------------------------------------------------------- Kc correction
def _mate_geometry(link):
    """Frames of a ChLinkMateGeneric, copied (Chrono returns references to temporaries)."""
    b1 = chrono.CastToChBody(link.GetBody1())
    b2 = chrono.CastToChBody(link.GetBody2())
    F1 = chrono.ChFramed(link.GetFrame1Abs())
    F2 = chrono.ChFramed(link.GetFrame2Abs())
    f1 = chrono.ChFramed(link.GetFrame1Rel())
    f2 = chrono.ChFramed(link.GetFrame2Rel())
    return b1, b2, F1, F2, f1, f2


def _kc_rows_body2(link, gf):
    """(X, X', blocks, (body 1, body 2)) for the rows of body 2's rotations of a link's translational Kc.

    Chrono: X = R_F2 [gf] R_F2^T R_B2; exact (paper eq. 45e): X' = R_B2^T R_F2 [gf] R_F2^T.
    blocks: exact minus Chrono's, D = X' - X, in the columns of (x1, theta1, x2,
    theta2): D, -D R_B1 [r_F1], -D, D R_B2 [r12 + r_F2] (eqs. 45e-h).
    """
    b1, b2, F1, F2, f1, f2 = _mate_geometry(link)
    RB1, RB2, RF2 = lk.rotation(b1), lk.rotation(b2), lk.rotation(F2)
    r12 = RB2.T @ (lk.arr(F1.GetPos()) - lk.arr(F2.GetPos()))
    rF1, rF2 = lk.arr(f1.GetPos()), lk.arr(f2.GetPos())
    G = skew(gf)
    X = RF2 @ G @ RF2.T @ RB2
    Xp = RB2.T @ RF2 @ G @ RF2.T
    D = Xp - X
    return X, Xp, (D, -D @ RB1 @ skew(rF1), -D, D @ RB2 @ skew(r12 + rF2)), (b1, b2)


def _translational_gamma(link, L):
    """Paper's gamma_f (= -L on the constrained translations, 0 elsewhere), frame 2 components."""
    off = link.GetOffset_L()
    g = np.zeros(3)
    k = 0
    for i, on in enumerate((link.IsConstrainedX(), link.IsConstrainedY(), link.IsConstrainedZ())):
        if on:
            g[i] = -L[off + k]
            k += 1
    return g


def kc_correction_matrix(system, L=None):
    """Exact minus Chrono's Kc, summed over the ``ChLinkMateGeneric`` links (SciPy CSR, n x n)."""
    L = multipliers(system) if L is None else L
    n = system.GetNumCoordsVelLevel()
    rows, cols, vals = [], [], []
    for link in mate_links(system):
        if not link.IsActive():
            continue
        gf = _translational_gamma(link, L)
        if not np.any(gf):
            continue
        _, _, blocks, (b1, b2) = _kc_rows_body2(link, gf)
        if b2.IsFixed():
            continue
        r0 = b2.GetOffset_w() + 3
        targets = [(None if b1.IsFixed() else b1.GetOffset_w()), (None if b1.IsFixed() else b1.GetOffset_w() + 3),
                   b2.GetOffset_w(), b2.GetOffset_w() + 3]
        for B, c0 in zip(blocks, targets):
            if c0 is None:
                continue
            for i in range(3):
                for j in range(3):
                    rows.append(r0 + i)
                    cols.append(c0 + j)
                    vals.append(B[i, j])
    return sp.csr_matrix((vals, (rows, cols)), shape=(n, n))


_KC_DEFECT = None


def kc_defect():
    """True when this Chrono's ``ChLinkMateGeneric`` Kc has the body-2 rotation defect (module doc); cached.

    Decided on a probe: two free bodies, body 2 rotated, a spherical mate
    loaded with given multipliers; Chrono's K rows of body 2's rotations are
    compared with both forms. Raises when Chrono's Kc matches neither.
    """
    global _KC_DEFECT
    if _KC_DEFECT is None:
        s = chrono.ChSystemNSC()
        b1, b2 = chrono.ChBody(), chrono.ChBody()
        b1.SetPos(chrono.ChVector3d(0.3, -0.2, 0.5))
        b1.SetRot(chrono.QuatFromAngleAxis(0.7, chrono.ChVector3d(1, 2, 3).GetNormalized()))
        b2.SetPos(chrono.ChVector3d(1.1, 0.4, -0.3))
        b2.SetRot(chrono.QuatFromAngleAxis(-0.4, chrono.ChVector3d(-1, 0.5, 2).GetNormalized()))
        s.AddBody(b1)
        s.AddBody(b2)
        link = chrono.ChLinkMateGeneric(True, True, True, False, False, False)
        link.Initialize(b1, b2, chrono.ChFramed(chrono.ChVector3d(0.7, 0.1, 0.2),
                                                chrono.QuatFromAngleAxis(1.1, chrono.ChVector3d(0.3, -1, 0.4)
                                                                         .GetNormalized())))
        link.SetUseTangentStiffness(True)
        s.AddLink(link)
        s.Setup()
        s.Update()
        s.StateScatterReactions(_chvec([3.0, -2.0, 5.0]))
        _, _, K, _ = raw_matrices(s)
        block = K.toarray()[9:12, 0:3]
        X, Xp, _, _ = _kc_rows_body2(chrono.CastToChLinkMateGeneric(s.GetLinks()[0]), np.array([-3.0, 2.0, -5.0]))
        scale = np.abs(X).max()
        if np.abs(block - X).max() <= 1e-9 * scale:
            _KC_DEFECT = True
        elif np.abs(block - Xp).max() <= 1e-9 * scale:
            _KC_DEFECT = False
        else:
            raise SolverError("this Chrono's ChLinkMateGeneric Kc matches neither the paper's eq. 45e nor the known "
                              "Chrono 10 form; the modal analysis cannot trust it")
    return _KC_DEFECT


# ======================================================================= results
@dataclass
class Mode:
    """One eigenpair. ``eigenvalue``: lambda (rad/s, complex); ``shape``: x (complex, Chrono's coordinates).

    ``kind``: oscillatory, unstable, zero or spurious; ``residual``: relative
    residual of the linearised equations, ``constraint``: |Cq x| / (|Cq| |x|).
    """

    eigenvalue: complex
    kind: str
    shape: np.ndarray
    residual: float = 0.0
    constraint: float = 0.0

    @property
    def omega(self):
        """Damped circular frequency |Im lambda| (rad/s); 0 for a non-oscillatory mode."""
        return abs(self.eigenvalue.imag)

    @property
    def freq_hz(self):
        return self.omega / (2 * np.pi)

    @property
    def natural_rad_s(self):
        """|lambda| (rad/s): the undamped natural circular frequency, or the growth rate of a divergence."""
        return abs(self.eigenvalue)

    @property
    def stable(self):
        return self.kind != "unstable"


@dataclass
class ModalResult:
    """Modes at an equilibrium; ``modes`` are the oscillatory and unstable ones sorted by frequency.

    ``zero_modes``/``spurious``: the others (see the module doc);
    ``n_infinite``: eigenvalues at infinity dropped; ``matrices``: the
    :class:`SystemMatrices` used. Frames: mode shapes in Chrono's coordinates;
    :meth:`body_shape` gives them per body in the global frame.
    """

    all_modes: list
    matrices: SystemMatrices
    method: str
    n_infinite: int = 0
    n_redundant: int = 0
    equilibrium: Equilibrium = None
    info: dict = field(default_factory=dict)

    @property
    def use_tangent_stiffness(self):
        return self.matrices.use_tangent_stiffness

    @property
    def modes(self):
        good = [m for m in self.all_modes if m.kind in ("oscillatory", "unstable")]
        return sorted(good, key=lambda m: (m.freq_hz, m.natural_rad_s))

    @property
    def zero_modes(self):
        return [m for m in self.all_modes if m.kind == "zero"]

    @property
    def spurious(self):
        return [m for m in self.all_modes if m.kind == "spurious"]

    @property
    def unstable(self):
        return [m for m in self.modes if m.kind == "unstable"]

    @property
    def frequencies_hz(self):
        return np.array([m.freq_hz for m in self.modes])

    @property
    def eigenvalues(self):
        return np.array([m.eigenvalue for m in self.modes])

    def body_shape(self, mode, body):
        """(translation, rotation) of ``body`` (index or name) in ``mode`` (a :class:`Mode`): complex 3-vectors, global frame.

        Translation of the centre of mass; rotation vector (small rotation) of the body.
        """
        if isinstance(body, str):
            body = self.matrices.bodies.index(body)
        x = mode.shape[6 * body:6 * body + 6]
        return x[:3], self.matrices.rotations[body] @ x[3:]

    def shapes_by_body(self, mode):
        """(n_bodies x 6) complex: translation then rotation of each body, global frame."""
        return np.array([np.concatenate(self.body_shape(mode, i)) for i in range(len(self.matrices.bodies))])

    def rows(self, modes=None):
        """CSV rows (mode, eig_real, eig_imag, freq_hz, stable), 1-based, sorted by frequency."""
        modes = self.modes if modes is None else modes
        return [(k + 1, m.eigenvalue.real, m.eigenvalue.imag, m.freq_hz, m.stable) for k, m in enumerate(modes)]

    def table(self, n=None, title=None):
        """Text table of the first ``n`` modes (all when None; and a line on zero, spurious and infinite ones)."""
        modes = self.modes if n is None else self.modes[:_row_count(n)]
        head = f"{'mode':>4}  {'Re lambda':>12}  {'Im lambda':>12}  {'f [Hz]':>10}  {'|lambda| [rad/s]':>16}  kind"
        lines = [title] if title else []
        lines += [head, "-" * len(head)]
        for k, m in enumerate(modes):
            lines.append(f"{k + 1:>4}  {m.eigenvalue.real:>12.5g}  {m.eigenvalue.imag:>12.5g}  {m.freq_hz:>10.5g}  "
                         f"{m.natural_rad_s:>16.5g}  {m.kind}")
        if not modes:
            lines.append("(no oscillatory or unstable modes)")
        lines.append(f"zero modes (rigid-body motions, mechanisms without stiffness): {len(self.zero_modes)}; "
                     f"spurious: {len(self.spurious)}; infinite: {self.n_infinite}; "
                     f"redundant constraints: {'not counted' if self.n_redundant is None else self.n_redundant}; "
                     f"method: {self.method}; "
                     f"Kc {'on' if self.use_tangent_stiffness else 'off'}")
        return "\n".join(lines)

    def write_csv(self, path):
        """``mode,eig_real,eig_imag,freq_hz,stable`` sorted by frequency; zero and spurious modes left out."""
        d = os.path.dirname(os.path.abspath(path))
        os.makedirs(d, exist_ok=True)
        with open(path, "w") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(("mode", "eig_real", "eig_imag", "freq_hz", "stable"))
            for k, re, im, hz, st in self.rows():
                w.writerow((k, f"{re:.10e}", f"{im:.10e}", f"{hz:.10e}", str(bool(st)).lower()))
        return path


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


def nullspace_basis(Cq, scale, rtol=RANK_RTOL):
    """(Z, rank, gap): null(Cq) by dense SVD of Cq diag(scale) (rotations x L), mapped back: x = diag(scale) Z y.

    gap: (smallest kept, largest dropped singular value) / largest.
    """
    if Cq.shape[0] == 0:
        return np.diag(scale), 0, (None, None)
    A = (Cq @ sp.diags(scale)).toarray()
    try:
        _, S, Vt = sla.svd(A, full_matrices=True, lapack_driver="gesdd")
    except sla.LinAlgError:   # gesdd can fail to converge where the slower gesvd does not
        _, S, Vt = sla.svd(A, full_matrices=True, lapack_driver="gesvd")
    r = int((S > rtol * S[0]).sum()) if S.size and S[0] > 0 else 0
    gap = (float(S[r - 1] / S[0]) if r else None, float(S[r] / S[0]) if r < S.size else None)
    return scale[:, None] * Vt[r:].T, r, gap


def independent_rows(Cq, scale, rtol=RANK_RTOL):
    """Indices of a maximal set of independent rows of Cq (pivoted QR of (Cq diag(scale))^T), sorted."""
    if Cq.shape[0] == 0:
        return np.arange(0)
    A = (Cq @ sp.diags(scale)).toarray()
    _, Rq, piv = sla.qr(A.T, mode="economic", pivoting=True)
    d = np.abs(np.diag(Rq))
    r = int((d > rtol * d[0]).sum()) if d.size and d[0] > 0 else 0
    return np.sort(piv[:r])


DENSE_RANK_ENTRIES = 10_000_000
"""Cq with at most this many entries (rows x columns) is rank-checked densely (pivoted QR), else sparsely."""

SPARSE_RANK_RTOL = 1e-10
"""Sparse rank check: an eigenvalue of the row-normalised Gram matrix Cq D^2 Cq^T below this (relative) is zero."""


def redundant_rows(Cq, scale, rtol=RANK_RTOL, dense_limit=DENSE_RANK_ENTRIES):
    """Number of redundant rows of Cq (m - rank of Cq diag(scale)).

    Dense pivoted QR (:func:`independent_rows`) while Cq has at most
    ``dense_limit`` entries; above, a sparse check: the smallest eigenvalues
    of the row-normalised Gram matrix G = B B^T (B = Cq diag(scale)) by
    shift-and-invert Lanczos; those below :data:`SPARSE_RANK_RTOL` times the
    largest are counted (a lower bound when all those found are zero; never 0
    for a rank-deficient Cq).
    """
    m, n = Cq.shape
    if m == 0:
        return 0
    if m * n <= dense_limit:
        return m - len(independent_rows(Cq, scale, rtol))
    B = sp.csr_matrix(Cq @ sp.diags(scale))
    norms = np.sqrt(np.asarray(B.multiply(B).sum(axis=1))).ravel()
    zero_rows = int((norms == 0).sum())
    B = sp.diags(1.0 / norms[norms > 0]) @ B[norms > 0]
    mm = B.shape[0]
    if mm > n:
        return zero_rows + mm - n   # at least that many (the rest is not examined)
    if mm <= 1:
        return zero_rows
    G = sp.csc_matrix(B @ B.T)
    top = float(spla.eigsh(G, k=1, which="LA", return_eigenvectors=False, tol=1e-3)[0]) if mm > 2 else \
        float(np.linalg.eigvalsh(G.toarray()).max())
    k = min(mm - 1, 10)
    if mm <= 50:
        low = np.linalg.eigvalsh(G.toarray())
    else:
        low = spla.eigsh(G, k=k, sigma=-1e-3 * top, which="LM", return_eigenvectors=False)
    return zero_rows + int((low < SPARSE_RANK_RTOL * top).sum())


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


# ======================================================================= analyses
def modal_analysis(system, use_tangent_stiffness=True, method="auto", n_modes=None, equilibrium=True,
                   built=None, max_iterations=100, length=None, remove_redundant=True, shift=None,
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
        eq = static_equilibrium(system, True, max_iterations, length, built=built)
    elif equilibrium == "no-kc":
        eq = static_equilibrium(system, False, max_iterations, length, built=built)
    elif equilibrium is False:
        eq = check_equilibrium(system, length)
        if not eq.converged:
            raise SolverError(f"the current state is not an equilibrium: relative residual {eq.residual:.3g} "
                              f"(largest on {eq.worst_body}), constraint violation {eq.violation:.3g}; run the "
                              "static analysis (equilibrium=True)")
    else:
        raise ValueError(f"equilibrium must be True, False or 'no-kc', got {equilibrium!r}")
    mats = system_matrices(system, use_tangent_stiffness, built, load_stiffness, kc_correction, length,
                           damping=damping)
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


def _row_count(n):
    """A table's row count ``n``: an integer >= 0 (a negative one would silently drop rows from the end)."""
    if not (isinstance(n, (int, np.integer)) and not isinstance(n, bool) and n >= 0):
        raise ValueError(f"the number of modes to show must be an integer >= 0 or None, got {n!r}")
    return int(n)


@dataclass
class KcComparison:
    """Modes at the same equilibrium with and without Kc."""

    with_kc: ModalResult
    without_kc: ModalResult

    def table(self, n=None):
        """Side-by-side text table: lambda (rad/s) and f (Hz) of each mode with and without Kc."""
        a, b = self.with_kc.modes, self.without_kc.modes
        rows = max(len(a), len(b)) if n is None else min(_row_count(n), max(len(a), len(b)))

        def cell(modes, k):
            if k >= len(modes):
                return f"{'-':>24}  {'':>10}"
            lam = modes[k].eigenvalue
            return f"{lam.real:>11.5g} {lam.imag:>+11.5g}i  {modes[k].freq_hz:>10.5g}"

        head = f"{'mode':>4}  {'lambda with Kc [rad/s]':>24}  {'f [Hz]':>10}  {'lambda without Kc':>24}  {'f [Hz]':>10}"
        lines = [head, "-" * len(head)]
        lines += [f"{k + 1:>4}  {cell(a, k)}  {cell(b, k)}" for k in range(rows)]
        lines.append(f"zero modes: {len(self.with_kc.zero_modes)} with Kc, {len(self.without_kc.zero_modes)} without; "
                     f"unstable: {len(self.with_kc.unstable)} with Kc, {len(self.without_kc.unstable)} without")
        return "\n".join(lines)


def compare_tangent_stiffness(system, method="auto", n_modes=None, built=None, equilibrium=True, **kw):
    """:class:`KcComparison`: equilibrium found with Kc, then the modes with Kc and without it, same state."""
    with_kc = modal_analysis(system, True, method, n_modes, equilibrium, built, **kw)
    without = modal_analysis(system, False, method, n_modes, False, built, **kw)
    set_tangent_stiffness(system, True, built)
    return KcComparison(with_kc, without)


# ======================================================================= origami structures
def check_masses(structure):
    """Refuse panels without mass: a modal analysis needs thickness x density > 0 on every panel."""
    if not structure.density > 0:
        raise StructureError(f"{structure.name}: density is {structure.density}; the modal analysis needs panel "
                             "masses (thickness x density x area)")
    thin = [p + 1 for p, h in enumerate(structure.thickness) if not h > 0]
    if thin:
        raise StructureError(f"{structure.name}: panels {thin} have zero thickness, so no mass; the modal analysis "
                             "needs a thickness on every panel")


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


def structure_modes(structure, crease_stiffness=0.0, slide_stiffness=0.0, damping=0.0, hinge_form="mate",
                    method="auto", n_modes=None, compare=True, use_tangent_stiffness=True, equilibrium=True,
                    max_iterations=100, allow_indeterminate=False):
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
    first = modal_analysis(built.system, use_tangent_stiffness, method, n_modes, eq_mode, built, max_iterations, **kw)
    second = None
    if compare and use_tangent_stiffness:
        second = modal_analysis(built.system, False, method, n_modes, False, built, max_iterations, **kw)
        set_tangent_stiffness(built.system, True, built)
    return StructureModes(built, springs, first, second)


# ======================================================================= mode shapes of panels
def panel_vertices(built):
    """Current vertex positions (V x 3) of a ChronoStructure, averaged over the panels sharing each vertex."""
    pat = built.pattern
    acc = np.zeros((pat.n_vertices, 3))
    cnt = np.zeros(pat.n_vertices)
    for p, loop in enumerate(pat.panels):
        for v in loop:
            acc[v] += built.material_point(p, pat.vertices[v])
            cnt[v] += 1
    return acc / np.maximum(cnt, 1)[:, None]


def mode_vertices(built, result, mode, phase=0.0, amplitude=0.1):
    """Vertex positions (V x 3) of the structure displaced along ``mode`` at ``phase`` (rad).

    Each point r of a panel moves by Re((u + theta x (r - c)) exp(i phase)),
    (u, theta) the panel's translation and rotation in the mode, c its centre of
    mass, scaled so that the largest vertex displacement is ``amplitude`` x the
    pattern size. This linear map keeps panels planar and vertices shared
    across door hinges together; a vertex shared by panels that slide apart
    (sliding hinges) is put at the mean of its panels' images.
    """
    pat = built.pattern
    size = pat.size or 1.0
    base, disp, peak = [], [], 0.0
    for p, loop in enumerate(pat.panels):
        u, th = result.body_shape(mode, p)
        com = lk.arr(built.bodies[p].GetPos())
        pts = np.array([built.material_point(p, pat.vertices[v]) for v in loop])
        for x in pts:
            peak = max(peak, float(np.linalg.norm(np.abs(u) + np.abs(np.cross(th, x - com)))))
        u, th = (u * np.exp(1j * phase)).real, (th * np.exp(1j * phase)).real
        base.append(pts)
        disp.append((u, th, com))
    s = amplitude * size / peak if peak > 0 else 0.0
    acc = np.zeros((pat.n_vertices, 3))
    cnt = np.zeros(pat.n_vertices)
    for p, loop in enumerate(pat.panels):
        u, th, com = disp[p]
        for v, x in zip(loop, base[p]):
            acc[v] += x + s * (u + np.cross(th, x - com))
            cnt[v] += 1
    return acc / np.maximum(cnt, 1)[:, None]


def mode_frames(built, result, mode, n_frames=24, amplitude=0.1):
    """``n_frames`` vertex arrays over one period of ``mode`` (phases 2 pi k / n_frames)."""
    if not (isinstance(n_frames, (int, np.integer)) and n_frames >= 1):
        raise ValueError(f"n_frames must be a positive integer, got {n_frames!r}")
    return [mode_vertices(built, result, mode, 2 * np.pi * k / n_frames, amplitude) for k in range(n_frames)]


def write_mode_fold(path, built, result, mode, n_frames=24, amplitude=0.1):
    """FOLD file of the structure with the mode's animation in ``file_frames`` (:func:`~chrono_origami.foldfile.write_fold`)."""
    from ..foldfile import write_fold

    frames = mode_frames(built, result, mode, n_frames, amplitude)
    write_fold(built.structure, path, frames=frames)
    return path


def write_mode_pngs(directory, built, result, mode, n_frames=12, amplitude=0.1, prefix="mode", title=None):
    """PNG frames of the mode (matplotlib, :func:`~chrono_origami.report.figures.draw_structure`); their paths."""
    from ..report.figures import draw_structure

    os.makedirs(directory, exist_ok=True)
    paths = []
    for k, V in enumerate(mode_frames(built, result, mode, n_frames, amplitude)):
        path = os.path.join(directory, f"{prefix}_{k:03d}.png")
        draw_structure(built.structure, path, vertices=V,
                       title=title or f"{built.structure.name}: {mode.freq_hz:.4g} Hz ({mode.kind})")
        paths.append(path)
    return paths
