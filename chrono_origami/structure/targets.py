"""The target fold angles a structure's file gives its creases (FOLD sign: valley positive, rad).

Below the panels' solids (a tapered panel is bevelled to its creases' targets) and the fold's inputs.
"""
import numpy as np


def file_targets(structure):
    """{hinge (0-based): target fold angle (rad, FOLD sign)} from the file the structure was read from.

    Every "M" and "V" crease with a target angle (FOLD ``edges_foldAngle``, or the SVG opacity x 180 deg,
    mountain negative), "M"/"V" of a file without the key at all at -180/+180 deg (Origami Simulator's full
    fold), "F" creases (flat creases, hinges when ``facets="crease"``) at 0; "U" creases and creases whose
    angle is null (Origami Simulator's undriven edges) have no target and fold freely.

    Reads ``structure.notes["fold"]`` (``edges_assignment``, ``edges_foldAngle``
    per structure edge); {} when the structure has neither.
    """
    notes = (structure.notes or {}).get("fold", {})
    assign = notes.get("edges_assignment")
    angles = notes.get("edges_foldAngle")
    pat = structure.pattern
    out = {}
    if assign is None and angles is None:
        return out
    hinge_of = {tuple(sorted(h.vertices)): h.index for h in pat.hinges}
    for k, e in enumerate(pat.edges):
        h = hinge_of.get(e)
        if h is None:
            continue
        a = assign[k] if assign is not None else None
        x = angles[k] if angles is not None else None
        if a in ("M", "V"):
            if angles is None:
                out[h] = np.pi if a == "V" else -np.pi
            elif x is not None:
                out[h] = np.radians(x)
        elif a == "F":
            out[h] = 0.0
        elif a is None and x is not None and x != 0:
            out[h] = np.radians(x)
    return out
