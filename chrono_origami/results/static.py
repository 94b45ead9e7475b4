"""The result of a static analysis, common to the reference and Chrono engines: hinge actions, reactions.

Hinge internal actions (paper sec. 4.2, Fig. 3)
-----------------------------------------------
For hinge h and an adjacent panel P with neighbour Q, the row (h, P) is the
action applied *to P by Q*, reduced to the hinge-edge midpoint and projected on
P's right-handed frame {n, t, m}:

* m: normal of P (right-hand rule on P's vertex loop);
* t: edge tangent, in the direction P's loop runs the edge;
* n = t x m: in P's plane, normal to the edge, pointing out of P.

Force components (N, TP, TO) = F.(n, t, m): normal force (N > 0 tension: the
neighbour pulls P across the edge; N < 0 compression), parallel shear,
orthogonal shear. Moment components (MT, MP, MO) = M.(n, t, m): twisting,
parallel and orthogonal moment. The components along the motions the hinge's
kind leaves free vanish (``chrono_origami.structure.hinges``): MP (rotation about t)
for door and sliding hinges, TP (translation along t) for sliding hinges.
Rows (h, P) and (h, Q) describe the same hinge from its two sides (action
and reaction).

Support reactions: force applied to the panel by the support, global frame.

Displacements (an elastic answer's): (ux, uy, uz) of every panel vertex, global
frame, length units, one row per panel and vertex of its loop (a vertex of
several panels once per panel: the hinges' compliance opens them apart).
"""
from dataclasses import dataclass, field

import numpy as np

from ..tools.geometry import edge_frame
from .table import Table

HINGE_COLUMNS = ("MT", "MP", "MO", "N", "TP", "TO")
SUPPORT_COLUMNS = ("Fx", "Fy", "Fz")
#: columns of a hinge table (hinges.csv) and of a support table (supports.csv); numbers 1-based
HINGE_HEADER = ("hinge", "panel") + HINGE_COLUMNS
SUPPORT_HEADER = ("panel", "vertex") + SUPPORT_COLUMNS
DISPLACEMENT_COLUMNS = ("ux", "uy", "uz")
#: columns of a displacement table (displacements.csv); numbers 1-based
DISPLACEMENT_HEADER = ("panel", "vertex") + DISPLACEMENT_COLUMNS
#: the units of the action columns, in the structure's units of force and length
ACTION_UNITS = {**{c: "force*length" for c in HINGE_COLUMNS[:3]}, **{c: "force" for c in HINGE_COLUMNS[3:]},
                **{c: "force" for c in SUPPORT_COLUMNS}}


@dataclass
class HingeAction:
    """Action on ``panel`` from ``neighbour`` across ``hinge`` (0-based indices)."""

    hinge: int
    panel: int
    neighbour: int
    kind: str
    midpoint: np.ndarray
    frame: np.ndarray      # columns n, t, m of ``panel``
    force: np.ndarray      # global frame
    moment: np.ndarray     # global frame, about the midpoint

    @property
    def values(self):
        """(MT, MP, MO, N, TP, TO)."""
        return np.concatenate([self.frame.T @ self.moment, self.frame.T @ self.force])

    def as_dict(self):
        return dict(zip(HINGE_COLUMNS, self.values))


@dataclass
class SupportReaction:
    support: int
    vertex: int
    panel: int
    dofs: str
    force: np.ndarray


@dataclass
class StaticResult:
    """Internal actions and reactions of a static analysis.

    ``status`` is "determined" (M = 0, S = 0: the unique answer),
    "minimum-norm" (M > 0 or S > 0: one particular solution among many; the
    self-stress states in ``self_stress_actions`` may be added in any amount)
    or "elastic" (the answer of elastic hinges, which depends on their
    stiffness: ``info`` holds it, the sensitivity and the largest displacement,
    ``displacements`` every panel vertex's; ``engines.reference.elastic``).
    """

    structure: object
    engine: str
    status: str
    M: int
    S: int
    hinge_actions: list
    support_reactions: list
    equilibrium_residual: float
    self_stress_actions: list = field(default_factory=list)   # one list of HingeAction per state
    info: dict = field(default_factory=dict)
    displacements: np.ndarray = None    # (n, 3) per panel-vertex slot (``structure.tolerance.vertex_slots``), or None

    def hinge_rows(self, pairs=None):
        """Rows (hinge, panel, MT..TO) with 1-based numbers; ``pairs`` selects (hinge, panel), 1-based."""
        rows = [(a.hinge + 1, a.panel + 1, *a.values) for a in self.hinge_actions]
        if pairs is not None:
            index = {(r[0], r[1]): r for r in rows}
            missing = [p for p in pairs if tuple(p) not in index]
            if missing:
                raise KeyError(f"no hinge action for (hinge, panel) {missing[0]}")
            rows = [index[tuple(p)] for p in pairs]
        return rows

    def support_rows(self):
        """Rows (panel, vertex, Fx, Fy, Fz), 1-based."""
        return [(r.panel + 1, r.vertex + 1, *r.force) for r in self.support_reactions]

    def displacement_rows(self):
        """Rows (panel, vertex, ux, uy, uz), 1-based, of every panel vertex (module doc); [] without
        ``displacements``."""
        if self.displacements is None:
            return []
        from ..structure.tolerance import vertex_slots

        slots = vertex_slots(self.structure.pattern)
        return [(int(p) + 1, int(v) + 1, *map(float, d)) for (p, v), d in zip(slots, self.displacements)]

    def meta(self, labelled=True):
        """The labels of this answer's tables (``results.table``): status, engine, M, S, the stiffness of an
        elastic answer, the units and, with ``labelled``, the CSV's first line of an answer that is not
        determined (:func:`answer_label`)."""
        meta = {"status": self.status, "engine": self.engine, "M": _count(self.M), "S": _count(self.S),
                "units": ACTION_UNITS}
        if self.status == "elastic":
            meta["stiffness"] = self.info.get("stiffness")
        label = answer_label(self) if labelled else None
        if label:
            meta["comment"] = label
        return meta

    def tables(self, labelled=True):
        """The answer's tables: ``hinges`` (HINGE_HEADER) and ``supports`` (SUPPORT_HEADER), with :meth:`meta`,
        and an answer with ``displacements`` also ``displacements`` (DISPLACEMENT_HEADER, length units)."""
        meta = self.meta(labelled)
        out = [Table("hinges", HINGE_HEADER, self.hinge_rows(), meta),
               Table("supports", SUPPORT_HEADER, self.support_rows(), meta)]
        if self.displacements is not None:
            units = {c: "length" for c in DISPLACEMENT_COLUMNS}
            out.append(Table("displacements", DISPLACEMENT_HEADER, self.displacement_rows(), {**meta, "units": units},
                             types=("integer", "integer", "number", "number", "number")))
        return out

    def action(self, hinge, panel):
        """HingeAction for 0-based hinge and panel."""
        for a in self.hinge_actions:
            if a.hinge == hinge and a.panel == panel:
                return a
        raise KeyError(f"hinge {hinge + 1} has no side on panel {panel + 1}")


def hinge_actions(pattern, kinds, wrenches, rotations=None, midpoints=None):
    """Both sides of every hinge from the action on each hinge's *second* panel.

    ``wrenches[h] = (force, moment about the midpoint)`` applied to panel q by
    panel p, where (p, q) = pattern.hinges[h].panels. Returns rows ordered by
    hinge, then panel number.

    Without ``rotations`` (statics) the wrenches and the frames are those of
    the reference configuration ``pattern.vertices``. With ``rotations`` (one
    3x3 rotation per panel, from the reference to the current configuration,
    e.g. during a motion) the wrenches are global and about the current
    midpoints ``midpoints[h]``; each row's frame is its panel's {n, t, m}
    rotated with the panel, so the row's values are the components of the
    action in the moving panel frame (p's row: the opposite wrench).
    """
    X = pattern.vertices
    H = len(pattern.hinges)
    if H == 0:
        return []
    ab = np.array([h.vertices for h in pattern.hinges])
    pq = np.array([h.panels for h in pattern.hinges])
    F = np.array([np.asarray(w[0], float) for w in wrenches]).reshape(H, 3)
    Mm = np.array([np.asarray(w[1], float) for w in wrenches]).reshape(H, 3)
    mids = 0.5 * (X[ab[:, 0]] + X[ab[:, 1]]) if midpoints is None else np.asarray(midpoints, float)
    normals = pattern.panel_normals
    fp = edge_frame(X[ab[:, 0]], X[ab[:, 1]], normals[pq[:, 0]])
    fq = edge_frame(X[ab[:, 1]], X[ab[:, 0]], normals[pq[:, 1]])
    if rotations is not None:
        R = np.asarray(rotations, float)
        fp, fq = R[pq[:, 0]] @ fp, R[pq[:, 1]] @ fq
    out = []
    for h in range(H):
        p, q = int(pq[h, 0]), int(pq[h, 1])
        sides = [(p, q, fp[h], -F[h], -Mm[h]), (q, p, fq[h], F[h], Mm[h])]
        for panel, nb, frame, f, mm in sorted(sides, key=lambda s: s[0]):
            out.append(HingeAction(h, panel, nb, kinds[h], mids[h], frame, f, mm))
    return out


def side_values(structure, result):
    """(H, 2, 6): (MT, MP, MO, N, TP, TO) of each hinge side of a ``StaticResult`` (side 0 the first panel p)."""
    pat = structure.pattern
    H = len(pat.hinges)
    out = np.zeros((H, 2, 6))
    for a in result.hinge_actions:
        s = pat.hinges[a.hinge].panels.index(a.panel)
        out[a.hinge, s] = a.values
    return out


def _count(n):
    """A count as a plain integer, None (not counted) as it is."""
    return None if n is None else int(n)


def answer_label(result):
    """The first line of hinges.csv and supports.csv of an answer that is not determined (None when it is); an
    elastic answer's says so, with the stiffness and the sensitivity (:func:`elastic_label`)."""
    if result.status == "determined":
        return None
    if result.status == "elastic":
        return elastic_label(result) + ". counts.json: status elastic"
    added = ((f"any combination of the {result.S} self-stress states" if result.S != 1 else
              "any multiple of the self-stress state") + " (self_stress.csv) may be added"
             if result.S else "the loads do no work on the mechanisms")
    return (f"minimum-norm answer, NOT determined (M = {result.M}, S = {result.S}): one particular solution of "
            f"equilibrium; {added}. counts.json: status minimum-norm")


def elastic_label(result):
    """One line: an elastic answer, its counts, the stiffness used and how much the answer depends on it."""
    from ..structure.tolerance import HingeStiffness

    info = result.info
    k = info.get("stiffness") or {}
    st = HingeStiffness(k.get("translational", 1e8), k.get("rotational", 1e7), k.get("per_kind", {}),
                        {int(h) - 1: v for h, v in k.get("per_hinge", {}).items()},
                        k.get("crease", 1.0), k.get("slide", 1e3))
    det = "isostatic: the determined answer, whatever the stiffness" if result.M == 0 and result.S == 0 else (
        "the forces elastic hinges carry; they depend on the stiffness")
    springs = "; springs about the free directions (M > 0)" if info.get("springs") else ""
    return (f"elastic hinges (M = {result.M}, S = {result.S}): {det}{springs}; stiffness "
            f"{st.text(bool(info.get('springs')))}; "
            f"{sensitivity_text(info.get('sensitivity'), info.get('hinge_sensitivity'))}")


def sensitivity_max(info):
    """The largest relative change of |F| or |M| an elastic answer's sensitivity reports (each kind's stiffness
    doubled and one hinge's), None when it was not computed."""
    sens = info.get("sensitivity")
    if sens is None:
        return None
    values = [x for v in sens.values() for x in (v["F"], v["M"])]
    hinge = info.get("hinge_sensitivity") or {}
    values += [x for x in (hinge.get("F"), hinge.get("M")) if x is not None]
    return max(values, default=0.0)


def sensitivity_text(sens, hinge=None):
    """The sensitivity to the stiffness in words (``analysis.static.stiffness_sensitivity``: {stiffness: {"F", "M"}};
    ``hinge``: ``compliance.hinge_sensitivity``, one hinge's stiffness doubled)."""
    if sens is None:
        return "sensitivity to the stiffness not computed"
    if not sens:
        return "no hinges: no sensitivity"
    wF = max(v["F"] for v in sens.values())
    wM = max(v["M"] for v in sens.values())
    each = ", ".join(f"{k} {v['F']:.3g}, {v['M']:.3g}" for k, v in sens.items())
    line = (f"doubling each kind's stiffness in turn changes |F| by at most {wF:.3g} of the largest |F| and |M| by "
            f"at most {wM:.3g} of the largest |M| (|F|, |M|: {each})")
    if hinge is None:
        return line + "; one hinge's stiffness doubled: not computed"
    if not hinge.get("tried"):
        return line + "; one hinge's stiffness doubled: " + hinge.get("method", "not computed")
    def at(key):
        a = hinge[f"at_{key}"]
        return f"{hinge[key]:.3g}" + (f" (hinge {a['hinge']} {a['which']})" if hinge[key] > 0 and a else "")

    return (line + f"; doubling one hinge's stiffness (k_t, k_r or both) changes |F| by up to {at('F')} and |M| by "
            f"up to {at('M')}: {hinge['method']}")


#: a moment resultant below this fraction of (largest |F|) x L is round-off (:func:`resultant_changes`)
ROUNDOFF_RTOL = 1e-12


def resultant_changes(F0, M0, F1, M1, L):
    """(largest |F1 - F0| / largest |F0|, largest |M1 - M0| / largest |M0|) over the rows of the resultants of
    two answers: |F| (n,) and |M| (n,) per hinge (side) or (k, n) for k answers at once. A largest |M0| below
    :data:`ROUNDOFF_RTOL` x largest |F0| x ``L`` is round-off: the change is measured against that instead, and
    an answer without forces or moments at all changes by 0 (over its own largest, when the other has some)."""
    F0, M0, F1, M1 = (np.asarray(a, float) for a in (F0, M0, F1, M1))
    bigF = float(F0.max(initial=0.0))
    bigM = max(float(M0.max(initial=0.0)), ROUNDOFF_RTOL * bigF * L)
    dF = np.abs(F1 - F0).max(axis=-1, initial=0.0)
    dM = np.abs(M1 - M0).max(axis=-1, initial=0.0)
    return (dF / bigF if bigF > 0 else np.where(dF > 0, 1.0, 0.0),
            dM / bigM if bigM > 0 else np.where(dM > 0, 1.0, 0.0))
