"""The hinge-row convention (README "Conventions", results.py), computed in the tests from the vertex loops alone.

Row (h, P) is the action on panel P by its neighbour across hinge h, on P's
frame {n, t, m}: t along the edge as P's loop runs it, m P's normal (right-hand
rule on the loop), n = t x m, pointing out of P. Nothing here comes from
``results.py`` or ``geometry.edge_frame``, so tests that rebuild forces and
moments with it notice a flipped axis or a row on the wrong side.
"""
import numpy as np


def loop_normal(X):
    """Unit normal of a planar loop by the right-hand rule (Newell's sum)."""
    n = np.cross(X, np.roll(X, -1, axis=0)).sum(axis=0)
    return n / np.linalg.norm(n)


def side_frame(pattern, hinge, panel):
    """Columns n, t, m of the row (hinge, panel), 0-based."""
    loop = list(pattern.panels[panel])
    X = pattern.vertices
    a, b = pattern.hinges[hinge].vertices
    i = loop.index(a)
    if loop[(i + 1) % len(loop)] != b:
        a, b = b, a
    t = (X[b] - X[a]) / np.linalg.norm(X[b] - X[a])
    m = loop_normal(X[loop])
    m -= (m @ t) * t
    m /= np.linalg.norm(m)
    return np.column_stack([np.cross(t, m), t, m])


def wrench(pattern, hinge, panel, values):
    """(force, moment about the origin), global frame, of the row (MT, MP, MO, N, TP, TO) of (hinge, panel), 0-based."""
    MT, MP, MO, N, TP, TO = values
    frame = side_frame(pattern, hinge, panel)
    f = frame @ [N, TP, TO]
    mid = pattern.vertices[list(pattern.hinges[hinge].vertices)].mean(axis=0)
    return f, np.cross(mid, f) + frame @ [MT, MP, MO]
