"""The reference dynamics engine: a :class:`~chrono_origami.structure.structure.Structure` by the discrete null space method.

``run(structure, *, time, dt, integrator, motors, springs, initial, output_interval, progress, **options)``
is what ``chrono_origami.analysis.dynamics.dynamics(structure, engine="reference", ...)`` calls; it returns the
shared :class:`~chrono_origami.results.dynamics.TimeHistory`.

Model
-----
* Each panel is a rigid body in director form (:mod:`.body`) with the mass
  properties of ``chrono_origami.structure.properties`` (a prism of the panel's
  thickness; ``mass_properties`` overrides them per panel), in the initial
  configuration; its directors are its principal axes.
* A hinge is the pair of :data:`PAIRS` that frees its kind's motions
  (``HingeKind.free``): a door hinge a revolute pair, a sliding hinge a
  cylindrical pair, a joined edge a welded pair, a spherical hinge a
  spherical pair (:mod:`.pairs`), on the hinge axis t as run by its first
  panel p, through the edge midpoint; a kind whose free motions no pair has
  is refused with one line. The open-loop tree is grown breadth-first from the
  fixed panels and supports (``Multibody``); a tree hinge's body 1 is its
  parent, a closure hinge's body 1 the deeper of its panels (as the paper's
  loop closure, eq. 190). The translation rows of a sliding hinge use body
  1's hinge frame (m, n) (m its normal made orthogonal to t, n = t x m); the
  rotation rows are the paper's n . d_1, n . d_2 of body 2 when
  |n . d_3| >= 1/2, else n . m, n . n with body 2's hinge frame.
* A support is a vertex support (the vertex held in its directions, the
  others free); gravity (``structure.gravity``) and dead loads
  (``structure.loads``) are the linear potential of :mod:`.forces`.
* Crease springs (stiffness, damping, rest) and torque motors act on the fold
  angle by the discrete gradient of :mod:`.forces`.

A step whose Newton iteration fails (also with continuation in the step
size) stops the run with :class:`~chrono_origami.tools.errors.DynamicsError`
carrying the history up to the last output frame (``history``).

Refused inputs (one-line :class:`~chrono_origami.tools.errors.OrigamiError`):
angle and speed motors (rheonomic constraints, outside the method), a moving
panel without mass or rotational inertia, more than ``max_bodies`` panels
(the steps are dense: a small-systems and cross-check engine).

Options: ``fixed_panels`` (0-based panels held in space: no unknowns, their
hinges' actions still reported), ``mass_properties`` (per panel (mass, centre
of mass, inertia tensor about it), global frame, pattern configuration),
``closures`` (hinges the open-loop tree must not use), ``independent``
(hinges whose rates are the closed loop's independent coordinates),
``tol``, ``max_iterations``, ``max_bodies``, ``condition_at`` (step indices
whose iteration-matrix condition numbers go to ``info["conditions"]``).

Outputs (TimeHistory conventions)
---------------------------------
kinetic = v^T M v / 2 in the redundant velocities (the energy the scheme
keeps; equal to sum (m |v_com|^2 + omega . J omega) / 2 for consistent
velocities); potential = -sum m g . x_com; spring = sum k (phi - rest)^2 / 2;
work = motors' work (tau dpsi per step, at the step's midpoint time) plus dead
loads' (F . displacement of the point); dissipated = sum c dphi^2 / dt. Linear
and angular momentum from the redundant velocities, angular momentum about
the origin (sum phi x m v + sum_I E_I d_I x v_I). Constraint violation: the
largest |Phi| over the rows, translations / L (L the pattern size).

Hinge actions and support reactions at an output time come from the
multipliers of the continuous equations at that state: M a + G^T lambda =
f(q, v) and G a = -v^T H v (all constraints quadratic), on the independent
rows. A hinge row's wrench on panel q is -P_int^T G_h^T lambda_h, moved to the
hinge midpoint, in the static convention of ``results.static.hinge_actions`` (frames
moving with the panels). With redundant constraints (S > 0) the dropped rows
carry nothing: the actions are one particular solution (``info["redundant_rows"]``).
"""
import time as wallclock
from dataclasses import replace

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from ....inputs.dynamics import InitialState, check_inputs, consistent_velocities, schedule
from ....results.dynamics import TimeHistory
from ....results.static import SupportReaction, hinge_actions
from ....structure.properties import structure_mass_properties
from ....tools.errors import DynamicsError, OrigamiError, StructureError
from ....tools.geometry import newell_normal
from ....tools.progress import Progress
from .body import Body, local, pint, pint_t
from .forces import HingeTerm
from .multibody import Multibody
from .pairs import Cylindrical, Planar, Prismatic, Revolute, Spherical, VertexSupport, Welded
from .schemes import SCHEMES, generalised_velocities, integrate

#: the pair of each set of free motions of a hinge kind (``HingeKind.free``; axis t, through the midpoint)
PAIRS = {(): Welded, ("rz",): Revolute, ("z", "rz"): Cylindrical, ("z",): Prismatic, ("rx", "ry", "rz"): Spherical,
         ("x", "y", "rz"): Planar}
#: pairs whose rotation rows lock the whole relative rotation (their body-2 vectors are body 1's m, n at q0)
_LOCKED_ROTATION = (Welded, Prismatic)
#: index of the relative rotation rate about the axis in the joint velocities of a pair (chain_velocities)
_AXIS_RATE = {"R": 0, "C": 1, "E": 2}
#: Largest number of panels the reference engine takes by default (dense steps).
MAX_BODIES = 200
AXES = {"x": np.array([1.0, 0, 0]), "y": np.array([0, 1.0, 0]), "z": np.array([0, 0, 1.0])}


class Model:
    """A structure as a :class:`Multibody` (module doc); ``hinge_pair[h]``, ``support_pair[k]``: pair indices."""

    def __init__(self, structure, motors=(), springs=(), initial=None, fixed_panels=(), mass_properties=None,
                 closures=(), independent=None, max_bodies=MAX_BODIES):
        st, pat = structure, structure.pattern
        P = pat.n_panels
        if P > max_bodies:
            raise StructureError(f"{st.name}: the reference dynamics engine takes at most {max_bodies} panels "
                                 f"(dense steps), this structure has {P}: use engine='chrono' or max_bodies")
        motors, springs = check_inputs(st, motors, springs)
        for m in motors:
            if m.mode != "torque":
                raise OrigamiError(f"the reference dynamics engine takes torque motors only: the motor on hinge "
                                   f"{m.hinge + 1} is an {m.mode} motor (a rheonomic constraint, outside the discrete "
                                   f"null space method); use engine='chrono'")
        fixed = set(int(p) for p in fixed_panels)
        for p in fixed:
            if not 0 <= p < P:
                raise StructureError(f"fixed panel {p + 1} does not exist ({P} panels)")
        initial = InitialState() if initial is None else initial
        poses = initial.poses(st)
        self.structure, self.poses = st, poses
        X = pat.vertices if initial.vertices is None else np.asarray(initial.vertices, float)
        self.X0 = X
        if mass_properties is not None and len(mass_properties) != P:
            raise StructureError(f"mass_properties has {len(mass_properties)} entries, the pattern has {P} panels")
        bodies = []
        props = structure_mass_properties(st) if mass_properties is None else None
        for p in range(P):
            m, c, J = mass_properties[p] if mass_properties is not None else (props[0][p], props[1][p], props[2][p])
            R, d = poses[p]
            bodies.append(Body.from_inertia(float(m), R @ np.asarray(c, float) + d, R @ np.asarray(J, float) @ R.T,
                                            name=f"panel {p + 1}", fixed=p in fixed))
        q0 = np.array([b.q0 for b in bodies])
        normals = [newell_normal(X[list(loop)]) for loop in pat.panels]
        normals = [n / np.linalg.norm(n) for n in normals]
        self._geom = (X, normals, q0)
        orient = [h.panels for h in pat.hinges]
        pairs = self._pairs(orient, fixed)
        excl = [self.hinge_pair[h] for h in closures]
        first = Multibody(bodies, pairs, length=pat.size or 1.0, exclude=excl)
        depth = {None: 0}
        depth.update({b: 0 for b in fixed})
        parent_of = {}
        for b, k in first.order:
            parent_of[b] = None if k is None else first.pairs[k].b1
            depth[b] = 0 if k is None else depth[parent_of[b]] + 1
        tree_h = {first.pairs[k].label[1]: (first.pairs[k].b1, first.pairs[k].b2)
                  for k in first.tree if first.pairs[k].label[0] == "hinge"}
        for h, (p, q) in enumerate(orient):
            if h in tree_h:
                orient[h] = tree_h[h]
            elif depth[p] < depth[q]:             # a closure: body 1 the deeper body (the paper's eq. 190)
                orient[h] = (q, p)
        pairs = self._pairs(orient, fixed)
        tree = [self.hinge_pair[first.pairs[k].label[1]] if first.pairs[k].label[0] == "hinge"
                else self.support_pair[first.pairs[k].label[1]] for k in first.tree]
        loads = []
        for p, x, F in replace(st, gravity=None).panel_loads():
            R, d = poses[p]
            loads.append((p, local(q0[p], R @ np.asarray(x, float) + d), np.asarray(F, float)))
        terms = []
        for sp_ in springs:
            terms.append(self._term(pat, sp_.hinge, X, q0, normals, k=sp_.stiffness, c=sp_.damping, rest=sp_.rest))
        for mo in motors:
            terms.append(self._term(pat, mo.hinge, X, q0, normals, torque=mo.value))
        mb = Multibody(bodies, pairs, gravity=st.gravity, loads=loads, hinge_terms=terms,
                       length=pat.size or 1.0, tree=tree)
        if independent is not None:
            ind = []
            for h in independent:
                k = self.hinge_pair[h]
                pos = [i for i, (_, kk) in enumerate(mb.order) if kk == k]
                if not pos:
                    raise StructureError(f"independent: hinge {h + 1} is a closure of the tree, not a coordinate")
                sl = mb.slices[pos[0]]
                ind += list(range(sl.start, sl.stop))
            mb._set_partition(ind)
            if len(ind) != mb.mobility:
                raise StructureError(f"independent: the closed system has {mb.mobility} degrees of freedom, "
                                     f"hinges {[h + 1 for h in independent]} give {len(ind)}")
        self.mb = mb
        for t_ in terms:
            if t_.rest is None:
                t_.rest = float(t_.angle(mb.q0[None])[0][0])
        # vertices: local coordinates in the first panel of each vertex
        self.vertex_panel = [pat.vertex_panels[v][0] for v in range(pat.n_vertices)]
        self.vertex_local = np.array([local(q0[p], X[v]) for v, p in enumerate(self.vertex_panel)])
        self.D_ref = [None] * P
        for p in range(P):                # directors in the pattern configuration: q0 rotated back
            R, _ = poses[p]
            self.D_ref[p] = q0[p, 1:] @ R       # rows R^T d_i
        self.motors, self.springs = motors, springs

    def _pairs(self, orient, fixed):
        """Hinge pairs with body 1, body 2 = ``orient[h]``, then the supports (module doc)."""
        st, pat = self.structure, self.structure.pattern
        X, normals, q0 = self._geom
        pairs, self.hinge_pair, self.support_pair, self.skipped_supports = [], [], [], []
        for h, (hinge, kind) in enumerate(zip(pat.hinges, st.kinds)):
            a, b = hinge.vertices
            t = (X[b] - X[a]) / np.linalg.norm(X[b] - X[a])
            b1, b2 = orient[h]
            mid = 0.5 * (X[a] + X[b])
            cls = PAIRS.get(kind.free)
            if cls is None:
                raise StructureError(f"hinge {h + 1}: the reference dynamics engine has no pair for {kind.name} "
                                     f"hinges (free motions {', '.join(kind.free)}); use engine='chrono'")
            m = _frame(normals[b1], t)
            a2 = m if cls in _LOCKED_ROTATION else _rotation_vectors(q0[b2], normals[b2], t)
            self.hinge_pair.append(len(pairs))
            pairs.append(cls.between(q0, b1, b2, mid, mid, t, m, a2, label=("hinge", h)))
        for k, s in enumerate(st.supports):
            if s.panel in fixed:
                self.support_pair.append(None)
                self.skipped_supports.append(k)
                continue
            x = X[s.vertex]
            self.support_pair.append(len(pairs))
            pairs.append(VertexSupport(s.panel, local(q0[s.panel], x), x, [AXES[d] for d in s.dofs],
                                       label=("support", k)))
        return pairs

    @staticmethod
    def _term(pat, h, X, q0, normals, k=0.0, c=0.0, rest=None, torque=None):
        a, b = pat.hinges[h].vertices
        p, q = pat.hinges[h].panels
        t = (X[b] - X[a]) / np.linalg.norm(X[b] - X[a])
        return HingeTerm(p, q, local(q0[p], t, False), local(q0[p], normals[p], False),
                         local(q0[q], normals[q], False), k, c, rest, torque, hinge=h)

    # ------------------------------------------------------------------ outputs
    def vertices(self, q):
        p = self.vertex_panel
        return q[p, 0] + np.einsum("vi,vij->vj", self.vertex_local, q[p, 1:])

    def rotations(self, q):
        """Rotation of each panel from the pattern configuration: R = D_now^T D_ref (rows are directors)."""
        return [q[p, 1:].T @ self.D_ref[p] for p in range(len(self.D_ref))]

    def multipliers(self, q, v, t):
        """Node multipliers on the independent rows (module doc), all rows filled (dropped rows 0)."""
        mb = self.mb
        C = mb.C
        rows = [r for r in range(C.m) if r not in set(mb.dropped_rows)]
        free = np.flatnonzero(np.repeat(mb.moving, 12))
        G = C.jacobian(q, rows)[:, free]
        f = self.applied(q, v, t).ravel()[free]
        Minv = 1.0 / mb.M.ravel()[free]
        rhs = G @ (Minv * f) + C.curvature(v)[rows]
        S = (G @ sp.diags(Minv) @ G.T).tocsc()
        lam = np.zeros(C.m)
        lam[rows] = spla.splu(S).solve(rhs) if S.shape[0] else np.zeros(0)
        return lam

    def applied(self, q, v, t):
        """Generalised applied force at a node (B, 4, 3): gravity, loads and hinge terms at their node values."""
        mb = self.mb
        f = mb.forces.f_lin.copy()
        for h in mb.forces.terms:
            phi, gp, gq = h.angle(q[None])
            rate = float(np.sum(gp[0] * v[h.bp]) + np.sum(gq[0] * v[h.bq]))
            s = h.k * (float(phi[0]) - h.rest) + h.c * rate + (float(h.torque(t)) if h.torque else 0.0)
            f[h.bp] -= s * gp[0]
            f[h.bq] -= s * gq[0]
        return f

    def wrench(self, q, lam, rows, body):
        """(force, moment about the centre of mass) applied to ``body`` by constraint rows ``rows``."""
        G = self.mb.C.jacobian(q, rows)[:, 12 * body:12 * body + 12].toarray()
        g = -(G.T @ lam[rows]).reshape(1, 4, 3)
        w = pint_t(q[body][None], g)[0]
        return w[:3], w[3:]

    def actions(self, q, lam):
        st, pat, mb = self.structure, self.structure.pattern, self.mb
        X = self.vertices(q)
        wrenches, mids = [], []
        for h, k in enumerate(self.hinge_pair):
            a, b = pat.hinges[h].vertices
            qp = pat.hinges[h].panels[1]
            F, Mc = self.wrench(q, lam, mb.pairs[k].rows, qp)
            mid = 0.5 * (X[a] + X[b])
            wrenches.append((F, Mc + np.cross(q[qp, 0] - mid, F)))
            mids.append(mid)
        acts = hinge_actions(pat, st.hinge_kinds, wrenches, rotations=self.rotations(q), midpoints=mids)
        sups = []
        for k, (s, pk) in enumerate(zip(st.supports, self.support_pair)):
            F = np.zeros(3) if pk is None else self.wrench(q, lam, mb.pairs[pk].rows, s.panel)[0]
            sups.append(SupportReaction(k, s.vertex, s.panel, s.dofs, F))
        return acts, sups

    def hinge_moments(self, q, v, t):
        H = len(self.structure.pattern.hinges)
        out = np.zeros(H)
        for h in self.mb.forces.terms:
            phi, gp, gq = h.angle(q[None])
            rate = float(np.sum(gp[0] * v[h.bp]) + np.sum(gq[0] * v[h.bq]))
            out[h.hinge] += h.k * (float(phi[0]) - h.rest) + h.c * rate + (float(h.torque(t)) if h.torque else 0.0)
        return out

    def initial_velocities(self, initial):
        """Coordinate velocities (B, 4, 3) from the initial panel velocities, projected on the constraints."""
        mb = self.mb
        pv = initial.panel_velocities(self.structure)
        moving = np.flatnonzero(mb.moving)
        tw = np.zeros((mb.B, 6))
        tw[:, :3], tw[:, 3:] = pv[:, 3:], pv[:, :3]
        if not np.any(tw):
            return np.zeros_like(mb.q0)
        q = mb.q0
        G = mb.C.jacobian(q).toarray().reshape(mb.C.m, mb.B, 4, 3)
        Gt = pint_t(q[None, :], G)[:, moving].reshape(mb.C.m, -1)        # rows x 6 per moving body
        blocks = []          # the mass matrix of (v, omega): J = D^T diag(J_I) D (rows of D the directors)
        for b in np.flatnonzero(mb.moving):
            body = mb.bodies[b]
            D = q[b, 1:]
            blocks.append(np.block([[body.mass * np.eye(3), np.zeros((3, 3))],
                                    [np.zeros((3, 3)), D.T @ np.diag(body.inertia) @ D]]))
        t_new, _ = consistent_velocities(Gt, tw[moving].ravel(), blocks)
        tw[moving] = t_new.reshape(-1, 6)
        return pint(q[None], tw[None])[0] * mb.moving[:, None, None]


def _frame(normal, t):
    """(m, n): the panel normal made orthogonal to the axis t, and n = t x m."""
    m = normal - (normal @ t) * t
    m /= np.linalg.norm(m)
    return np.array([m, np.cross(t, m)])


#: smallest |n . d_3| for which the paper's rotation rows n . d_1, n . d_2 are used
PAPER_ROWS_MIN = 0.5


def _rotation_vectors(q2, normal2, t):
    """Body-2 vectors a_1, a_2 of the rotation rows n . a_alpha (``pairs`` module doc): the paper's d_1, d_2 when
    the axis is well out of their plane (|t . d_3| >= PAPER_ROWS_MIN), else body 2's hinge frame (m, n)."""
    D = q2[1:]
    if abs(t @ D[2]) >= PAPER_ROWS_MIN:
        return D[:2].copy()
    return _frame(normal2, t)


def run(structure, *, time, dt, integrator=None, motors=(), springs=(), initial=None, output_interval=None,
        progress=None, **options):
    """The reference engine behind ``chrono_origami.analysis.dynamics.dynamics`` (module doc); a :class:`TimeHistory`."""
    integrator = integrator or "reduced"
    if integrator not in SCHEMES:
        raise OrigamiError(f"the reference engine has no integrator {integrator!r}; its integrators are "
                           f"{', '.join(SCHEMES)}")
    known = {"fixed_panels", "mass_properties", "closures", "independent", "max_bodies", "tol", "max_iterations",
             "condition_at"}
    unknown = set(options) - known
    if unknown:
        raise OrigamiError(f"the reference engine has no option {sorted(unknown)[0]!r}; its options are "
                           f"{', '.join(sorted(known))}")
    n_steps, stride = schedule(time, dt, output_interval)
    initial = InitialState() if initial is None else initial
    model = Model(structure, motors, springs, initial,
                  **{k: options[k] for k in ("fixed_panels", "mass_properties", "closures", "independent",
                                             "max_bodies") if k in options})
    mb = model.mb
    v0 = model.initial_velocities(initial)
    bar = Progress(n_steps * float(dt), progress, label="dynamics")
    solver = {k: options[k] for k in ("tol", "max_iterations") if k in options}
    clock = wallclock.perf_counter()
    try:
        res = integrate(mb, float(dt), n_steps, v0, integrator, stride=stride,
                        nu0=generalised_velocities(mb, mb.q0, v0), condition_at=options.get("condition_at", ()),
                        progress=lambda k, n: bar.update(k * float(dt)), **solver)
    except DynamicsError as e:              # keep the motion recorded up to the stop
        run_ = getattr(e, "run", None)
        if run_ is not None and len(run_.t):
            e.history = history(model, run_, integrator, float(dt), {"stopped": str(e)})
        raise
    finally:
        bar.close()
    return history(model, res, integrator, float(dt),
                   {"steps": n_steps, "newton_iterations": int(res.iterations.sum()),
                    "wall_time": wallclock.perf_counter() - clock, "conditions": res.conditions})


def history(model, res, integrator, dt, info):
    """A :class:`TimeHistory` of an :func:`~.schemes.integrate` run of ``model``."""
    mb, st = model.mb, model.structure
    forces = mb.forces
    K = len(res.t)
    q0 = res.q[0]
    load0 = forces.load_potential(q0)
    rows = {k: [] for k in ("kin", "pot", "spr", "work", "p", "L", "viol", "acts", "sups", "X", "vel", "mom")}
    L = st.pattern.size or 1.0
    for k in range(K):
        q, v, t = res.q[k], res.v[k], res.t[k]
        rows["kin"].append(mb.kinetic(v))
        rows["pot"].append(forces.gravity_potential(q))
        rows["spr"].append(forces.spring_energy(q, res.angles[k]) if forces.terms else 0.0)
        rows["work"].append(res.work[k] - (forces.load_potential(q) - load0))
        rows["p"].append(mb.linear_momentum(v))
        rows["L"].append(mb.angular_momentum(q, v))
        rows["viol"].append(mb.C.scaled_violation(q, L))
        lam = model.multipliers(q, v, t)
        a, s = model.actions(q, lam)
        rows["acts"].append(a)
        rows["sups"].append(s)
        rows["X"].append(model.vertices(q))
        w = mb.omega(q, v)
        rows["vel"].append(np.hstack([w, v[:, 0]]))
        rows["mom"].append(model.hinge_moments(q, v, t))
    info = dict(info)
    info.update({"mobility": mb.mobility, "redundant_rows": len(mb.dropped_rows),
                 "redundant_pairs": sorted({mb.describe_row(r) for r in mb.dropped_rows}),
                 "tree": [mb.pairs[k].label for k in mb.tree], "closures": [mb.pairs[k].label for k in mb.closures],
                 "joint": res.joint, "skipped_supports": model.skipped_supports})
    return TimeHistory(st, "reference", integrator, dt, res.t, rows["kin"], rows["pot"], rows["spr"], rows["work"],
                       res.dissipated, np.array(rows["p"]), np.array(rows["L"]), rows["viol"], rows["acts"],
                       rows["sups"], np.array(rows["X"]), info, np.array(rows["vel"]), np.array(rows["mom"]))


def chain_velocities(model, hinge_rates, root_twist=None):
    """Panel velocities (P, 6) (omega, v_com) of the open-loop tree driven at the given hinge rates.

    ``hinge_rates``: {hinge (0-based): relative rotation rate psi_dot (rad/s)} for tree hinges; others 0;
    ``root_twist``: {panel: (v, omega)} for free roots. For initial states of mechanisms
    (``InitialState(velocities=...)``); the engine projects them on the constraints.
    """
    mb = model.mb
    nu = np.zeros(mb.d_open)
    for h, rate in hinge_rates.items():
        k = model.hinge_pair[h]
        pos = [i for i, (_, kk) in enumerate(mb.order) if kk == k]
        if not pos:
            raise StructureError(f"hinge {h + 1} is not in the open-loop tree")
        sl = mb.slices[pos[0]]
        if mb.pairs[k].kind not in _AXIS_RATE:
            raise StructureError(f"hinge {h + 1}: its pair has no rotation rate about the hinge axis")
        nu[sl.start + _AXIS_RATE[mb.pairs[k].kind]] = rate
    for p, tw in (root_twist or {}).items():
        pos = [i for i, (b, kk) in enumerate(mb.order) if b == p and kk is None]
        if not pos:
            raise StructureError(f"panel {p + 1} is not a free root of the tree")
        nu[mb.slices[pos[0]]] = np.asarray(tw, float)
    q = mb.q0[None]
    t = mb.forward(mb.edges(q), nu[None])[0]
    return np.hstack([t[:, 3:], t[:, :3]])
