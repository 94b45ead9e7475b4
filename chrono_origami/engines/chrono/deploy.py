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

Rigid statics only: the caller (``analysis.deploy``) counts the held structure and refuses a frame that is not
determined before it asks Chrono; elastic hinges along the fold are the reference engine's (``--elastic``).
"""
import pychrono as chrono

from ...results.static import StaticResult, hinge_actions
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


def held_static(structure, actuators, counts, kinds, label=None):
    """The static answer of the held ``structure`` (its geometry the reference configuration; its hinge kinds those
    of the tables, an actuated door hinge joined) with its ``actuators`` (0-based hinges) held by rotation motors at
    their angle, by Chrono's linear static analysis (module doc): a ``StaticResult`` ("determined"), each held
    hinge's action its link's plus its motor's. The system is built with the hinges of ``kinds`` (the actuated ones
    of their own kind: the motors hold them). ``counts``: the held structure's M and S (the caller's count; this
    solves determined structures only); ``label``: how errors name the state (default the structure's name)."""
    st = structure.with_hinge_kinds(kinds)
    built = build_system(st, visual=False)
    motors = add_motors(built, actuators)
    L = st.pattern.size or 1.0
    eq = static_analysis(built.system, "linear", "sparse_lu", length=L)
    eq.check(f"{label or structure.name} (Chrono's linear static analysis with {len(motors)} motor"
             f"{'s' if len(motors) != 1 else ''})")
    wrenches = [[F, M] for _, F, M in hinge_wrenches(built)]
    pat = st.pattern
    for h, m in zip(actuators, motors):
        mid = 0.5 * (pat.vertices[pat.hinges[h].vertices[0]] + pat.vertices[pat.hinges[h].vertices[1]])
        F, M = lk.wrench_about(m, 1, mid)
        wrenches[h][0] = wrenches[h][0] + F
        wrenches[h][1] = wrenches[h][1] + M
    actions = hinge_actions(structure.pattern, structure.hinge_kinds, [tuple(w) for w in wrenches])
    info = {"method": "linear", "solver": "sparse_lu", "constraint_violation": eq.violation,
            "motor_torques": [float(m.GetMotorTorque()) for m in motors], "gap": counts.gap}
    return StaticResult(structure, "chrono", "determined", counts.M, counts.S, actions, support_reactions(built),
                        eq.residual, info=info)
