"""Chrono's linearised matrices M, R, K, Cq of a system, with the terms Chrono leaves out.

M, R, K (K = -dF/dq, F the generalised forces including the constraint
forces Cq^T L) and Cq are written by ``ChSystem.WriteSystemMatrices``
(PyChrono wraps no ``ChSparseMatrix``, so they travel as COO text with 13
significant digits; :func:`raw_matrices` is the one reader). Coordinates:
Chrono's velocity level, per active ``ChBody`` the displacement of its
reference point (the centre of mass) in the global frame, then the rotation
vector in the *body* frame. K holds every ``ChKRMBlock``: the Kc of each
``ChLinkMateGeneric`` with ``SetUseTangentStiffness(True)`` and the Jacobians
of stiff ``ChLoad`` objects (the crease springs of :mod:`.springs`). Two terms
Chrono does not supply are added here (:func:`system_matrices`):

* the load stiffness of ``ChForce`` point loads (``ChForce`` has no Jacobian):
  dead loads (global direction, point fixed on the body) and follower loads;
* a correction of Chrono's Kc: in ``ChLinkMateGeneric::LoadKRMMatrices`` (Chrono
  10) the rows of the rotations of body 2 use R_F2 [gf] R_F2^T R_B2 where the
  paper (eqs. 45e-h) and the derivative have R_B2^T R_F2 [gf] R_F2^T; they
  differ when body 2 is rotated. :func:`kc_defect` detects it on a probe
  system, so the correction switches itself off on a fixed Chrono.

The result is a :class:`~chrono_origami.results.modal.SystemMatrices`, which the
engine-neutral solvers of :mod:`chrono_origami.analysis.modal` take.
"""
import os
import tempfile

import numpy as np
import pychrono as chrono
import scipy.sparse as sp

from ...results.modal import SystemMatrices
from ...tools.errors import OrigamiError, SolverError
from ...tools.geometry import skew
from . import links as lk


# ======================================================================= bodies, forces, multipliers
def active_bodies(system):
    """Active (not fixed) ``ChBody`` objects of ``system``, in the order of their velocity offsets.

    Raises :class:`~chrono_origami.tools.errors.OrigamiError` when the system has
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


def multipliers(system):
    """Chrono's Lagrange multipliers L (``StateGatherReactions``); the constraint forces are Cq^T L."""
    L = chrono.ChVectorDynamicd(system.GetNumConstraints())
    system.StateGatherReactions(L)
    return lk.arr(L)


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
    return lk.arr(F), lk.arr(C)


def length_scale(system):
    """Size of the system: largest distance between body and link-frame positions (1 when zero)."""
    pts = [lk.arr(b.GetPos()) for b in system.GetBodies()]
    for link in mate_links(system):
        frame = chrono.ChFramed(link.GetFrame2Abs())   # keep it alive: GetPos returns a reference into it
        pts.append(lk.arr(frame.GetPos()))
    P = np.array(pts) if pts else np.zeros((1, 3))
    d = float(np.linalg.norm(P.max(0) - P.min(0)))
    return d if d > 0 else 1.0


# ======================================================================= matrices
def read_coo(path, shape):
    """SciPy CSR of shape ``shape`` from a 0-based COO text file of ``WriteSystemMatrices`` (empty or missing: zero)."""
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return sp.csr_matrix(shape)
    D = np.loadtxt(path, ndmin=2)
    if D.size and (D[:, 0].max() >= shape[0] or D[:, 1].max() >= shape[1]):
        raise SolverError(f"Chrono's matrix file {os.path.basename(path)} has entries beyond {shape}")
    return sp.csr_matrix((D[:, 2], (D[:, 0].astype(int), D[:, 1].astype(int))), shape=shape)


def raw_matrices(system, workdir=None, damping=True, mass=True, stiffness=True):
    """(M, R, K, Cq) exactly as ``ChSystem.WriteSystemMatrices`` writes them (0-based COO), current state.

    The one reader of Chrono's matrices (the counting's Cq, the modal
    analysis's M, R, K, Cq). Chrono assembles each of M, K, R by pasting every
    KRM block, which takes seconds on large systems and grows faster than the
    bodies; the text is not the cost (``benchmarks/system_matrices.py``, 2,000
    bodies: M 2.6 s and K 2.8 s to write, Cq, 4 MB of text, 0.07 s; parsing
    all three 0.06 s). ``damping=False`` skips R (returned as zero),
    ``mass=False`` M and ``stiffness=False`` K (returned as None).
    """
    system.Setup()
    system.Update()
    n, m = system.GetNumCoordsVelLevel(), system.GetNumConstraints()
    with tempfile.TemporaryDirectory(dir=workdir) as d:
        prefix = os.path.join(d, "sys")
        system.WriteSystemMatrices(bool(mass), bool(stiffness), bool(damping), True, prefix, False)
        M = read_coo(prefix + "_M.dat", (n, n)) if mass else None
        K = read_coo(prefix + "_K.dat", (n, n)) if stiffness else None
        R = read_coo(prefix + "_R.dat", (n, n)) if damping else sp.csr_matrix((n, n))
        Cq = read_coo(prefix + "_Cq.dat", (m, n))
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


def system_matrices(system, use_tangent_stiffness=True, load_stiffness=True, kc_correction=True,
                    length=None, workdir=None, damping=True, mass="chrono"):
    """:class:`~chrono_origami.results.modal.SystemMatrices` of ``system`` at its current state (module doc),
    Kc switched as asked on every link (:func:`.links.set_tangent_stiffness`).

    K = Chrono's K (with or without Kc) + the load stiffness of ``ChForce``
    loads (``load_stiffness``) + the correction of Chrono's Kc
    (``kc_correction``, only when :func:`kc_defect` finds the defect).
    ``damping=False``: R is taken as zero without asking Chrono (when the
    system has no dampers); ``mass="bodies"``: M from :func:`body_mass_matrix`
    instead of Chrono's (the same for plain bodies, and fast).
    """
    if mass not in ("chrono", "bodies"):
        raise ValueError(f"mass must be 'chrono' or 'bodies', got {mass!r}")
    lk.set_tangent_stiffness(system, use_tangent_stiffness)
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


# ======================================================================= load stiffness
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


# ======================================================================= Kc correction
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
        s.StateScatterReactions(lk.vecd([3.0, -2.0, 5.0]))
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


