"""The forces of a deployment: actuator torques and hinge actions at every stored frame of a fold
(``analysis.deploy.deployment``; its files: ``cli.fold --forces``).

Tables (``results.table.Table``; numbers 1-based, the structure's units):

* ``actuation``: frame, time (s), percent, hinge, fold_angle_deg (FOLD sign: valley positive), torque (N m: the
  motor's moment about the hinge axis, FOLD sign: a positive torque drives the fold angle up), status;
* ``path_hinges``: frame, hinge, panel, MT, MP, MO, N, TP, TO (``results.static``'s sides, long form);
* ``path_supports``: frame, panel, vertex, Fx, Fy, Fz;
* ``path_frames``: frame, time, percent, status, sigma_min_rel, amplification (largest hinge |F| over the loads'
  sum |P|), M, S (M and S with the actuated hinges held);
* ``envelope``: each hinge side's largest |N|, |TP|, |TO|, |MT|, |MP|, |MO| and |F| over the path, with the frame,
  percent and status where |F| is largest.

A frame's status: "determined" (rigid statics, M = S = 0 with the actuators held), "elastic" (elastic hinges,
``engines.reference.elastic``), and "near-singular" added to either (:meth:`Deployment.flag`) when

* the held structure nears a singular state whatever the loads: its smallest singular value relative to the
  largest (``sigma_min_rel``) falls below :data:`NEAR_SINGULAR` of the path's best conditioned frame, or below
  :data:`SINGULAR_FLOOR`, or the actuators leave a mechanism free (a flat start: M > 0 in ``path_frames``; its
  ``sigma_min_rel`` is then the largest singular value counted as zero); or
* the loads see a singular state: the frame's ``amplification``, its largest hinge |F| over the loads' total
  magnitude sum |P| (dead loads and weights), exceeds 1/:data:`NEAR_SINGULAR` times the path's least (over the
  frames the first rule leaves). For the held structure's equilibrium A f = p, |p| / |f| is the singular value
  the loads see (between the smallest and the largest of A); near a singular state the loads that do work on the
  incipient mechanism see it fall, and the forces grow as its inverse (a tent closing under a sideways load, a
  Miura sheet near flat under its weight: |F| ~ 1/sin). ``sigma_min_rel`` alone can miss it: where the
  structure is hyperstatic (S > 0, elastic hinges) its smallest singular value may belong to another mode.

So no frame that is not labelled carries hinge forces, per unit load, above 1/NEAR_SINGULAR times the path's
best: larger numbers are labelled, never silent.

The work check (:class:`WorkCheck`): the trapezoid rule's mismatch measures how coarsely the frames sample the
torque along the path; above :data:`WORK_RTOL` of the work the torques between frames (and their peaks) are not
resolved, and the check says so with the frames that would bring it below.
"""
from dataclasses import dataclass, field

import numpy as np

from .static import ACTION_UNITS, HINGE_COLUMNS, SUPPORT_COLUMNS
from .table import Table

#: a frame is near-singular when its sigma_min_rel is below this fraction of the path's largest, or below
#: :data:`SINGULAR_FLOOR`, or its amplification above the path's least over this fraction (module doc)
NEAR_SINGULAR = 0.1
#: ... or below this, whatever the path
SINGULAR_FLOOR = 1e-6
#: the work check's mismatch, relative to the work, above which the frames are too few to trust the path's torques
WORK_RTOL = 1e-2

ACTUATION_HEADER = ("frame", "time", "percent", "hinge", "fold_angle_deg", "torque", "status")
PATH_HINGE_HEADER = ("frame", "hinge", "panel") + HINGE_COLUMNS
PATH_SUPPORT_HEADER = ("frame", "panel", "vertex") + SUPPORT_COLUMNS
FRAME_HEADER = ("frame", "time", "percent", "status", "sigma_min_rel", "amplification", "M", "S")
ENVELOPE_HEADER = ("hinge", "panel", "N", "TP", "TO", "MT", "MP", "MO", "F", "frame", "percent", "status")


@dataclass
class WorkCheck:
    """The actuators' work sum_a int tau_a dtheta_a (trapezoid over the frames) against the change of the loads'
    potential energy V = -sum F . x (dead loads and gravity), both in the structure's units of work."""

    work: float
    potential_change: float
    #: frames left out of the check: where the actuators leave mechanisms free (their torque is not the motor's)
    left_out: tuple = ()
    #: the steps (between two frames) the check sums over
    steps: int = 0

    @property
    def mismatch(self):
        return float(self.work - self.potential_change)

    @property
    def relative(self):
        """|mismatch| over the larger of |work| and |change of V| (0 when both vanish)."""
        scale = max(abs(self.work), abs(self.potential_change))
        return float(abs(self.mismatch) / scale) if scale > 0 else 0.0

    @property
    def coarse(self):
        """The mismatch is above :data:`WORK_RTOL` of the work: the frames are too few to trust the torques."""
        return self.relative > WORK_RTOL

    def frames_needed(self):
        """The steps that would bring the mismatch to :data:`WORK_RTOL` as the trapezoid rule's 1/steps^2 falls:
        steps sqrt(relative / WORK_RTOL), rounded up (an estimate: the mismatch is asymptotically 1/steps^2)."""
        return int(np.ceil(max(self.steps, 1) * np.sqrt(self.relative / WORK_RTOL)))

    def text(self):
        line = (f"work check: actuators' work {self.work:.6g}, change of the loads' potential energy "
                f"{self.potential_change:.6g}, mismatch {self.mismatch:.3g} ({self.relative:.2g} of the work; "
                f"trapezoid rule over the frames: it falls as 1/frames^2)"
                + (f"; frames {', '.join(map(str, self.left_out))} left out (mechanisms free there)"
                   if self.left_out else ""))
        if self.coarse:
            line += (f"; above {WORK_RTOL:g} of the work, the frames are too few to trust the torques between them "
                     f"(their peaks may fall between frames): fold again with more frames, about --frames "
                     f"{self.frames_needed()}")
        return line

    def as_dict(self):
        return {"work": self.work, "potential_change": self.potential_change, "mismatch": self.mismatch,
                "relative": self.relative, "frames_left_out": list(self.left_out), "steps": self.steps,
                "too_few_frames": self.coarse}


@dataclass
class Deployment:
    """Forces along a fold: per frame (lists over the frames analysed) the time (s), percent, status,
    sigma_min_rel, (M, S), the actuated hinges' fold angles (rad, FOLD sign) and torques (N m, FOLD sign), the
    static results (``results.static.StaticResult`` of the frame's structure, actuated hinges held), the loads'
    potential energy V (work units) and total magnitude sum |P| (force units). ``actuators``: 0-based hinges.
    ``stopped``: why the force analysis ended before the last frame (None when it did not)."""

    structure: object
    actuators: list
    engine: str = "reference"
    frames: list = field(default_factory=list)
    times: list = field(default_factory=list)
    percents: list = field(default_factory=list)
    statuses: list = field(default_factory=list)
    sigmas: list = field(default_factory=list)
    counts: list = field(default_factory=list)
    angles: list = field(default_factory=list)
    torques: list = field(default_factory=list)
    results: list = field(default_factory=list)
    potentials: list = field(default_factory=list)
    loads: list = field(default_factory=list)
    stopped: str = None
    notes: list = field(default_factory=list)

    # ------------------------------------------------------------------ the path
    def flag(self):
        """Mark near-singular frames (module doc) once every frame is in: the structure's rule (sigma_min_rel,
        M > 0), then the loads' (amplification against the path's least over the frames the first leaves)."""
        if not self.sigmas:
            return
        best = max(self.sigmas)
        level = max(NEAR_SINGULAR * best, SINGULAR_FLOOR)
        near = [sig < level or "near-singular" in s for s, sig in zip(self.statuses, self.sigmas)]
        amp = self.amplifications()
        rest = [a for a, n in zip(amp, near) if not n and np.isfinite(a)]
        if rest:
            least = min(rest)
            near = [n or not a <= least / NEAR_SINGULAR for n, a in zip(near, amp)]
        self.statuses = [f"{s}, near-singular" if n and "near-singular" not in s else s
                         for s, n in zip(self.statuses, near)]

    def amplifications(self):
        """Per frame: the largest hinge |F| over the loads' total magnitude sum |P| (module doc; nan without
        the loads' magnitudes)."""
        big = self.largest_force()
        if len(self.loads) != len(big):
            return [float("nan")] * len(big)
        return [b / p if p > 0 else float("nan") for b, p in zip(big, self.loads)]

    def least_amplification(self):
        """(frame index, amplification) of the path's least amplification among the frames not flagged."""
        amp = self.amplifications()
        ok = [k for k in range(len(amp)) if "near-singular" not in self.statuses[k] and np.isfinite(amp[k])]
        if not ok:
            return None, float("nan")
        k = min(ok, key=lambda j: amp[j])
        return k, amp[k]

    @property
    def near_singular(self):
        """Frames (indices into the lists) flagged near-singular."""
        return [k for k, s in enumerate(self.statuses) if "near-singular" in s]

    def work_check(self):
        """:class:`WorkCheck` over the frames analysed (None with fewer than two): the trapezoid rule on each step
        between two frames where the actuators hold every mechanism (M = 0 held), and the change of V over the
        same steps."""
        if len(self.frames) < 2:
            return None
        th = np.unwrap(np.array(self.angles), axis=0)           # frames x actuators
        tau = np.array(self.torques)
        held = np.array([c[0] == 0 for c in self.counts])
        step = held[1:] & held[:-1]
        work = float(np.sum((0.5 * (tau[1:] + tau[:-1]) * np.diff(th, axis=0))[step]))
        change = float(np.sum(np.diff(np.array(self.potentials))[step]))
        return WorkCheck(work, change, tuple(f for f, h in zip(self.frames, held) if not h), int(step.sum()))

    def largest_force(self):
        """Per frame: the largest hinge |F| (force units)."""
        return [max((float(np.linalg.norm(a.force)) for a in r.hinge_actions), default=0.0) for r in self.results]

    # ------------------------------------------------------------------ tables
    def meta(self):
        wc = self.work_check()
        meta = {"engine": self.engine, "units": {"time": "s", "percent": "%", "fold_angle_deg": "deg",
                                                 "torque": "force*length", **ACTION_UNITS},
                "actuators": [h + 1 for h in self.actuators]}
        if wc is not None:
            meta["work_check"] = wc.as_dict()
        flagged = self.near_singular
        if flagged:
            meta["comment"] = (f"near-singular frames {', '.join(str(self.frames[k]) for k in flagged)}: their "
                               f"forces grow as the inverse of the singular value the loads see (path_frames: "
                               f"sigma_min_rel, amplification)")
        if self.stopped:
            meta["stopped"] = self.stopped
        return meta

    def actuation_table(self):
        rows = [(f, t, p, h + 1, float(np.degrees(a)), float(tau), s)
                for f, t, p, s, A, T in zip(self.frames, self.times, self.percents, self.statuses, self.angles,
                                            self.torques)
                for h, a, tau in zip(self.actuators, A, T)]
        return Table("actuation", ACTUATION_HEADER, rows, self.meta())

    def path_hinge_table(self):
        rows = [(f, *r) for f, res in zip(self.frames, self.results) for r in res.hinge_rows()]
        return Table("path_hinges", PATH_HINGE_HEADER, rows, self.meta())

    def path_support_table(self):
        rows = [(f, *r) for f, res in zip(self.frames, self.results) for r in res.support_rows()]
        return Table("path_supports", PATH_SUPPORT_HEADER, rows, self.meta())

    def frame_table(self):
        rows = [(f, t, p, s, float(sig), float(a), int(c[0]), int(c[1]))
                for f, t, p, s, sig, a, c in zip(self.frames, self.times, self.percents, self.statuses, self.sigmas,
                                                 self.amplifications(), self.counts)]
        return Table("path_frames", FRAME_HEADER, rows, self.meta())

    def envelope_rows(self):
        """Rows of :meth:`envelope_table`: per hinge side (hinge order, then panel) the largest absolute values."""
        if not self.results:
            return []
        keys = [(a.hinge, a.panel) for a in self.results[0].hinge_actions]
        V = np.array([[a.values for a in r.hinge_actions] for r in self.results])       # frames x sides x 6
        F = np.array([[np.linalg.norm(a.force) for a in r.hinge_actions] for r in self.results])
        big = np.abs(V).max(axis=0)
        at = F.argmax(axis=0)
        order = [HINGE_COLUMNS.index(c) for c in ("N", "TP", "TO", "MT", "MP", "MO")]
        return [(h + 1, p + 1, *(float(big[i, j]) for j in order), float(F[at[i], i]), self.frames[at[i]],
                 self.percents[at[i]], self.statuses[at[i]]) for i, (h, p) in enumerate(keys)]

    def envelope_table(self):
        return Table("envelope", ENVELOPE_HEADER, self.envelope_rows(), self.meta())

    def tables(self):
        """actuation, path_hinges, path_supports, path_frames, envelope."""
        return [self.actuation_table(), self.path_hinge_table(), self.path_support_table(), self.frame_table(),
                self.envelope_table()]
