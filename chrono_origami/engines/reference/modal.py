"""The reference engine's linearised equations of a structure at its pattern configuration (``modal``).

The equations are those ``analysis.modal`` solves (its module doc), M x'' +
R x' + K x + Cq^T g = 0, Cq x = 0, here in these coordinates: per panel the
displacement of its centre of mass and its rotation vector, both in the
global frame (at the pattern configuration the panel frames of the Chrono
engine are the global axes, so its coordinates are the same there).

* M: each panel's mass and its inertia tensor about the centre of mass
  (``structure.properties``: a prism of the panel's thickness).
* Cq: the Jacobian of the exact constraints -- each hinge's
  ``HingeKind.residuals`` (positions unscaled: translation rows in length,
  rotation rows dimensionless) and one row per held direction of each support.
* Equilibrium: only the pattern configuration is linearised (this engine has
  no nonlinear static solver): its loads must be balanced there by
  constraint forces, f + Cq^T L = 0 (L by least squares, the minimum-norm
  one when the constraints are redundant) and, for the ``held`` hinges, by their motors' torques tau (a
  motor holds the fold angle there: a servo of the crease spring's stiffness about the preload tau);
  otherwise a one-line
  :class:`~chrono_origami.tools.errors.SolverError` says to use the Chrono
  engine, which finds the equilibrium. Crease springs are at rest there.
* K = -dF/dq, F the applied and constraint forces: the load stiffness of the
  dead loads (a force f at a point r from the centre of mass gives -[f][r]
  on the rotations; gravity acts at the centre of mass and gives none), of
  the supports' reactions (dead forces too), the crease springs' k g g^T
  (g the gradient of the fold angle, and of the slide for k_s), and with
  ``use_tangent_stiffness`` the constraint tangent stiffness
  Kc = -d(Cq^T L)/dq at fixed L, by central differences of the exact
  hinge Jacobians (step 1e-6 x the pattern size; relative error about
  1e-10).
  A held hinge's motor torque is a follower moment about the hinge axis carried by its first panel p
  (-tau t on p, +tau t on q): with ``use_tangent_stiffness`` its tangent -d(G^T tau)/dq joins Kc
  (rows p and q, columns of p's rotation: -tau [t] and +tau [t]). It vanishes on the hinges' admissible
  motions (their relative rotation is along t), so the modes do not depend on the panel carrying the axis. Any
  extension of the fold angle off the
  constraints gives the same reduced stiffness (the multipliers absorb the difference).
* R: the crease dampers' c g g^T.
"""
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ...results.modal import Linearised, SystemMatrices
from ...structure.hinges import hinge_frames
from ...structure.properties import structure_mass_properties
from ...tools.errors import SolverError, StructureError
from ...tools.geometry import skew
from ...tools.linalg import choose_method, min_norm_lstsq

#: relative equilibrium residual |f + Cq^T L| / |f| above which the pattern configuration is no equilibrium
EQUILIBRIUM_RTOL = 1e-9
#: central-difference step of Kc, relative to the pattern size (rotations: the same number in rad)
KC_STEP = 1e-6
AXES = np.eye(3)


@dataclass
class Equilibrium:
    """The pattern configuration as a static state: ``residual`` |f + Cq^T L| / |f| (0 unloaded)."""

    converged: bool
    residual: float
    violation: float = 0.0
    use_tangent_stiffness: bool = True


def _per_hinge(name, value, H):
    v = np.broadcast_to(np.asarray(value, float), (H,)) if np.ndim(value) == 0 else np.asarray(value, float)
    if v.shape != (H,) or not np.all(np.isfinite(v)) or np.any(v < 0):
        raise StructureError(f"{name} must be a number >= 0 or one per hinge ({H}), got {value!r}")
    return v


class PatternPose:
    """The reference engine's model for mode animations (``report.modal``): the panels where the pattern puts them.

    ``com`` (P x 3): the panels' centres of mass, global frame; ``material_point(p, x)``: where the point ``x`` of
    panel ``p`` (pattern coordinates) is now, the point itself.
    """

    def __init__(self, structure, com):
        self.structure, self.pattern, self.com = structure, structure.pattern, np.asarray(com, float)

    def material_point(self, p, x):
        return np.asarray(x, float)


class _Model:
    """Panels, hinge frames and the constraint Jacobian at poses rotated about the centres of mass."""

    def __init__(self, structure):
        st, pat = structure, structure.pattern
        P = pat.n_panels
        self.structure, self.P = st, P
        self.mass, com, inertia = structure_mass_properties(st)
        self.com, self.inertia = com.reshape(P, 3), inertia.reshape(P, 3, 3)
        t, m, n, mid, _, _ = hinge_frames(pat)
        self.frame, self.mid = (t, m, n), mid
        self.pq = np.array([h.panels for h in pat.hinges], dtype=np.int64).reshape(-1, 2)
        kinds = st.kinds
        self.groups = [(kind, np.array([h for h in range(len(kinds)) if kinds[h] is kind]))
                       for kind in {k.name: k for k in kinds}.values()]
        starts = np.r_[0, np.cumsum([k.n_rows for k in kinds])].astype(int)
        self.hinge_rows = [slice(int(starts[h]), int(starts[h + 1])) for h in range(len(kinds))]
        self.sup = [(s.panel, pat.vertices[s.vertex], AXES["xyz".index(d)]) for s in st.supports for d in s.dofs]
        self.m = int(starts[-1]) + len(self.sup)

    def hinge_jacobians(self, kind, hs, dp=None, dq=None):
        """Per hinge of ``hs`` (k x n_rows x 12): the Jacobian on (x_p, theta_p, x_q, theta_q), with the two
        panels turned by the small rotations (and moved by) ``dp``, ``dq`` ((k, 6): (dx, dtheta)) about their
        centres of mass; None: the pattern configuration."""
        k = len(hs)
        p, q = self.pq[hs, 0], self.pq[hs, 1]
        poses = []
        for b, d in ((p, dp), (q, dq)):
            c = self.com[b]
            if d is None:
                poses.append((np.broadcast_to(np.eye(3), (k, 3, 3)), np.zeros((k, 3)), c))
                continue
            R = np.array([_expm(w) for w in d[:, 3:]])
            c_now = c + d[:, :3]
            poses.append((R, c_now - np.einsum("kij,kj->ki", R, c), c_now))   # x -> R (x - c) + c + dx
        (Rp, up, cp), (Rq, uq, cq) = poses
        t, m, n = (a[hs] for a in self.frame)
        _, J = kind.residuals(Rp, up, Rq, uq, (t, m, n), self.mid[hs])
        out = np.empty_like(J)
        for side, c in ((0, cp), (6, cq)):            # (omega, w) -> (dx, dtheta): w = dx + [c] dtheta
            Jw, Jo = J[:, :, side + 3:side + 6], J[:, :, side:side + 3]
            out[:, :, side:side + 3] = Jw
            out[:, :, side + 3:side + 6] = Jo + np.einsum("kri,kij->krj", Jw, skew(c))
        return out

    def jacobian(self):
        """Cq (m x 6P, CSR) at the pattern configuration: the hinges in order, then the supports' rows."""
        I, J, V = [], [], []
        for kind, hs in self.groups:
            blocks = self.hinge_jacobians(kind, hs)
            for i, h in enumerate(hs):
                rows = np.arange(self.hinge_rows[h].start, self.hinge_rows[h].stop)
                cols = np.r_[6 * self.pq[h, 0] + np.arange(6), 6 * self.pq[h, 1] + np.arange(6)]
                I.append(np.repeat(rows, 12))
                J.append(np.tile(cols, len(rows)))
                V.append(blocks[i].ravel())
        r0 = self.hinge_rows[-1].stop if self.hinge_rows else 0
        for k, (p, x, e) in enumerate(self.sup):         # e . (x - x0): (e, (x - c) x e)
            I.append(np.full(6, r0 + k))
            J.append(6 * p + np.arange(6))
            V.append(np.r_[e, np.cross(x - self.com[p], e)])
        I, J, V = (np.concatenate(a) if a else np.zeros(0) for a in (I, J, V))
        return sp.csr_matrix((V, (I.astype(int), J.astype(int))), shape=(self.m, 6 * self.P))

    def kc(self, L, h_len):
        """Kc = -d(Cq^T L)/dq at fixed L (CSR): hinges by central differences, supports as dead forces."""
        P = self.P
        K = _Sparse(6 * P)
        for kind, hs in self.groups:
            lam = np.array([L[self.hinge_rows[h]] for h in hs])            # (k, rows)
            for j in range(12):
                d = np.zeros((len(hs), 6))
                step = KC_STEP * (h_len if j % 6 < 3 else 1.0)
                d[:, j % 6] = step
                side = (d, None) if j < 6 else (None, d)
                plus = np.einsum("krc,kr->kc", self.hinge_jacobians(kind, hs, *side), lam)
                side = (-d, None) if j < 6 else (None, -d)
                minus = np.einsum("krc,kr->kc", self.hinge_jacobians(kind, hs, *side), lam)
                col = -(plus - minus) / (2 * step)                           # (k, 12)
                for i, h in enumerate(hs):
                    cols = np.r_[6 * self.pq[h, 0] + np.arange(6), 6 * self.pq[h, 1] + np.arange(6)]
                    K.add(cols, cols[j:j + 1], col[i][:, None])
        r0 = self.hinge_rows[-1].stop if self.hinge_rows else 0
        for k, (p, x, e) in enumerate(self.sup):
            rot = 6 * p + 3 + np.arange(3)
            K.add(rot, rot, _dead_load_stiffness(L[r0 + k] * e, x - self.com[p]))
        return K.csr()


class _Sparse:
    """A square sparse matrix accumulated block by block (COO)."""

    def __init__(self, n):
        self.n, self.I, self.J, self.V = n, [], [], []

    def add(self, rows, cols, block):
        block = np.broadcast_to(np.asarray(block, float), (len(rows), len(cols)))
        self.I.append(np.repeat(rows, len(cols)))
        self.J.append(np.tile(cols, len(rows)))
        self.V.append(block.ravel())

    def csr(self):
        if not self.V:
            return sp.csr_matrix((self.n, self.n))
        out = sp.csr_matrix((np.concatenate(self.V), (np.concatenate(self.I), np.concatenate(self.J))),
                            shape=(self.n, self.n))
        out.eliminate_zeros()
        return out


def _expm(w):
    """Rotation matrix of the rotation vector ``w`` (Rodrigues)."""
    a = float(np.linalg.norm(w))
    if a == 0:
        return np.eye(3)
    k = skew(w / a)
    return np.eye(3) + np.sin(a) * k + (1 - np.cos(a)) * (k @ k)


def _dead_load_stiffness(f, r):
    """Rotation block of K = -dF/dq of a force ``f`` of fixed direction at a point ``r`` from the centre of mass."""
    return -skew(f) @ skew(r)


def linearise(structure, crease_stiffness=0.0, slide_stiffness=0.0, damping=0.0, hinge_form="mate", compare=True,
              use_tangent_stiffness=True, equilibrium=True, max_iterations=None, held=()):
    """The linearised equations of ``structure`` at its pattern configuration (module doc): a ``Linearised``.

    ``hinge_form`` and ``max_iterations`` are the Chrono engine's (ignored); ``equilibrium`` is not searched
    for here, only checked. ``held``: 0-based door or sliding hinges whose motors hold their fold angle (a slide stays free) (their torques,
    N m, in ``info["held_torques"]``: the preload of their crease springs).
    """
    st, pat = structure, structure.pattern
    P, H = pat.n_panels, len(pat.hinges)
    L = pat.size or 1.0
    held = [int(h) for h in held]
    for h in held:
        if not (0 <= h < H):
            raise StructureError(f"{st.name}: no hinge {h + 1} to hold (it has {H})")
        if not st.kinds[h].frees("rz"):
            raise StructureError(f"hinge {h + 1} is a {st.kinds[h].name} hinge: a motor holds the fold angle of "
                                 f"a door or sliding hinge")
    model = _Model(st)
    M, K_base, R = _Sparse(6 * P), _Sparse(6 * P), _Sparse(6 * P)
    for p in range(P):
        M.add(6 * p + np.arange(3), 6 * p + np.arange(3), model.mass[p] * np.eye(3))
        M.add(6 * p + 3 + np.arange(3), 6 * p + 3 + np.arange(3), model.inertia[p])
    Cq = model.jacobian()
    f = np.zeros(6 * P)
    for p, x, F in st.panel_loads():
        r = np.asarray(x, float) - model.com[p]
        F = np.asarray(F, float)
        f[6 * p:6 * p + 3] += F
        f[6 * p + 3:6 * p + 6] += np.cross(r, F)
        K_base.add(6 * p + 3 + np.arange(3), 6 * p + 3 + np.arange(3), _dead_load_stiffness(F, r))
    lam, tau = np.zeros(model.m), np.zeros(len(held))
    t = model.frame[0]
    G = sp.csr_matrix((np.concatenate([np.r_[-t[h], t[h]] for h in held]) if held else np.zeros(0),
                       (np.concatenate([np.r_[6 * model.pq[h, 0] + 3 + np.arange(3),
                                              6 * model.pq[h, 1] + 3 + np.arange(3)] for h in held])
                        if held else np.zeros(0, int),
                        np.repeat(np.arange(len(held)), 6))), shape=(6 * P, len(held)))   # fold-angle gradients
    scale = np.tile([1, 1, 1, 1 / L, 1 / L, 1 / L], P)       # moments / L: every row a force
    fnorm = np.linalg.norm(f * scale)
    if fnorm > 0:
        A = sp.hstack([Cq.T, G]).tocsc()
        if choose_method(A.shape) == "dense":
            lam = np.linalg.lstsq(A.toarray(), -f, rcond=1e-12)[0]
        else:
            lam = min_norm_lstsq(A, -f, f"{st.name}: the multipliers of the linearisation")
        res = np.linalg.norm((A @ lam + f) * scale) / fnorm
        lam, tau = lam[:model.m], lam[model.m:]
        if res > EQUILIBRIUM_RTOL:
            raise SolverError(f"{st.name}: its loads are not in equilibrium at the pattern's configuration (relative "
                              f"residual {res:.3g}); the reference engine linearises there only: use engine='chrono', "
                              "whose static analysis finds the equilibrium")
    else:
        res = 0.0
    eq = Equilibrium(True, float(res), 0.0, use_tangent_stiffness)
    # crease springs and dampers at rest: k g g^T, c g g^T
    k = _per_hinge("crease stiffness", crease_stiffness, H)
    ks = _per_hinge("slide stiffness", slide_stiffness, H)
    c = _per_hinge("damping", damping, H)
    t = model.frame[0]
    for h, kind in enumerate(st.kinds):
        p, q = model.pq[h]
        cols = np.r_[6 * p + np.arange(6), 6 * q + np.arange(6)]
        g_rot = np.r_[np.zeros(3), -t[h], np.zeros(3), t[h]]
        if kind.frees("rz") and k[h] > 0:
            K_base.add(cols, cols, k[h] * np.outer(g_rot, g_rot))
        if kind.frees("rz") and c[h] > 0:
            R.add(cols, cols, c[h] * np.outer(g_rot, g_rot))
        if kind.frees("z") and ks[h] > 0:
            rp, rq = model.mid[h] - model.com[p], model.mid[h] - model.com[q]
            g_slide = np.r_[-t[h], -np.cross(rp, t[h]), t[h], np.cross(rq, t[h])]
            K_base.add(cols, cols, ks[h] * np.outer(g_slide, g_slide))
    M, K_base, R = M.csr(), K_base.csr(), R.csr()
    # Kc is linear in the multipliers: none (an unloaded structure) gives none, without the differences
    Kc = (model.kc(lam, L) if np.any(lam) else sp.csr_matrix((6 * P, 6 * P))) if use_tangent_stiffness else None
    if use_tangent_stiffness and np.any(tau):           # the motors' follower moments (module doc)
        Km = _Sparse(6 * P)
        for h, th in zip(held, tau):
            p, q = model.pq[h]
            rp = 6 * p + 3 + np.arange(3)
            Km.add(rp, rp, -th * skew(t[h]))
            Km.add(6 * q + 3 + np.arange(3), rp, th * skew(t[h]))
        Kc = Kc + Km.csr()

    def matrices(with_kc):
        K = K_base + Kc if with_kc else K_base.copy()
        return SystemMatrices(M, R, sp.csr_matrix(K), Cq,
                              [f"panel {p + 1}" for p in range(P)], np.repeat(np.eye(3)[None], P, axis=0),
                              model.com.copy(), L, with_kc, lam.copy(),
                              {"engine": "reference", "held": list(held), "held_torques": tau.copy()})

    out = Linearised(matrices(use_tangent_stiffness), eq, built=PatternPose(st, model.com))
    if compare and use_tangent_stiffness:
        out.matrices_without_kc = matrices(False)
        out.equilibrium_without_kc = Equilibrium(True, float(res), 0.0, False)
    return out
