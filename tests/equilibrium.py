"""Equilibrium of every panel, as the tests of statics check it."""
import numpy as np


def panel_balance(structure, result):
    """Largest |force| and |moment about the origin| left on a panel by its hinge actions, reactions and loads."""
    X = structure.pattern.vertices
    F = np.zeros((structure.pattern.n_panels, 3))
    M = np.zeros_like(F)
    for a in result.hinge_actions:                     # the action on a.panel, moment about the hinge midpoint
        F[a.panel] += a.force
        M[a.panel] += a.moment + np.cross(a.midpoint, a.force)
    for r in result.support_reactions:
        F[r.panel] += r.force
        M[r.panel] += np.cross(X[r.vertex], r.force)
    for p, point, f in structure.panel_loads():
        F[p] += f
        M[p] += np.cross(point, f)
    return np.abs(F).max(), np.abs(M).max()
