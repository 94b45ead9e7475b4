"""The forces along a fold in Chrono: actuated hinges as rotation motors, each frame Chrono's static analysis
(``analysis.deploy.deployment`` with ``engine="chrono"``).

Each frame's structure (its hinges of their own kinds, the frame's geometry as the reference configuration) is
built in a new system (``system.build_system``); each actuated hinge gets a ``ChLinkMotorRotationAngle`` between
its panels, at the hinge midpoint with Z along the hinge axis (the link frame of ``links.hinge_link_frame``:
Z = t_q), its spindle free (the hinge's own link holds the other motions) and its angle held at 0 (a constant
function: the frame's angle). ``DoStaticAnalysis`` (linear, a direct sparse solver: ``static.static_analysis``)
then gives the reactions; as it returns true whatever happens, the equilibrium residual and the constraint
violation are checked (``static.Equilibrium.check``, every link, motors included). The held hinge's action is its
own link's reaction plus the motor's, read from Chrono (``links.wrench_about`` on the motor's body 1, panel q), so
the tables and the torque (``analysis.deploy.torques``: tau = -M_q . t_p, FOLD sign) are those of the reference
engine's held hinge. ``GetMotorTorque`` is recorded beside it (``info["motor_torques"]``).

Rigid statics only: a frame whose held structure is not determined (the counts of the reference engine's operator
of the same held structure) raises ``IndeterminateError`` as the reference engine does; elastic hinges along the
fold are the reference engine's (``--elastic``).
"""
import pychrono as chrono

from ...results.static import StaticResult, hinge_actions
from ...tools.errors import IndeterminateError
from ...tools.linalg import RANK_RTOL
from . import links as lk
from .static import hinge_wrenches, static_analysis, support_reactions
from .system import build_system


def add_motors(built, actuators):
    """One ``ChLinkMotorRotationAngle`` per actuated hinge (0-based), added to ``built.system`` (module doc)."""
    pat = built.pattern
    motors = []
    for h in actuators:
        p, q = pat.hinges[h].panels
        mid, R = lk.hinge_link_frame(pat, h)
        m = chrono.ChLinkMotorRotationAngle()
        m.SetSpindleConstraint(chrono.ChLinkMotorRotation.SpindleConstraint_FREE)
        m.Initialize(built.bodies[q], built.bodies[p], lk.chframe(mid, R))
        m.SetAngleFunction(chrono.ChFunctionConst(0.0))
        m.SetName(f"motor at hinge {h + 1}")
        built.system.AddLink(m)
        motors.append(m)
    return motors


def frame_solver(structure, actuators, rtol=RANK_RTOL, linalg="auto"):
    """``solve(held, k)`` for ``analysis.deploy.frame_loop``: (StaticResult of the held structure, "determined",
    sigma_min_rel, (M, S)) by Chrono's static analysis with motors at ``actuators`` (module doc). ``structure``:
    the structure before holding (its kinds are built; the motors hold)."""
    from ... import engines
    from ...analysis import static as analysis
    from ...analysis.deploy import smallest_singular

    kinds = structure.hinge_kinds

    def solve(held, k):
        counts = analysis.count(held, engines.get("reference", notice=False), rtol=rtol, linalg=linalg)
        sigma = smallest_singular(counts)
        if not counts.isostatic:
            raise IndeterminateError(
                f"{held.name}: the forces at frame {k} are not determined with the actuators held (M = {counts.M}, "
                f"S = {counts.S}): --elastic gives the forces of elastic hinges (reference engine); design makes "
                f"the structure isostatic (the kinematics are written)", counts.M, counts.S)
        st = held.with_hinge_kinds(kinds)
        built = build_system(st, visual=False)
        motors = add_motors(built, actuators)
        L = st.pattern.size or 1.0
        eq = static_analysis(built.system, "linear", "sparse_lu", length=L)
        eq.check(f"{st.name}, frame {k} (Chrono's linear static analysis with {len(motors)} motor"
                 f"{'s' if len(motors) != 1 else ''})")
        wrenches = [[F, M] for _, F, M in hinge_wrenches(built)]
        for h, m in zip(actuators, motors):
            mid = 0.5 * (st.pattern.vertices[st.pattern.hinges[h].vertices[0]] +
                         st.pattern.vertices[st.pattern.hinges[h].vertices[1]])
            F, M = lk.wrench_about(m, 1, mid)
            wrenches[h][0] = wrenches[h][0] + F
            wrenches[h][1] = wrenches[h][1] + M
        actions = hinge_actions(held.pattern, held.hinge_kinds, [tuple(w) for w in wrenches])
        info = {"method": "linear", "solver": "sparse_lu", "constraint_violation": eq.violation,
                "motor_torques": [float(m.GetMotorTorque()) for m in motors], "gap": counts.gap}
        res = StaticResult(held, "chrono", "determined", counts.M, counts.S, actions, support_reactions(built),
                           eq.residual, info=info)
        return res, "determined", sigma, (counts.M, counts.S)

    return solve
