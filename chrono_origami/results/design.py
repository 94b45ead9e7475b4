"""The design search's records: one assignment of sliding hinges (:class:`Design`) and the outcome of the search
(:class:`DesignResult`, made by ``analysis.design.design``). Hinges 0-based in the records, 1-based in the text."""
from dataclasses import dataclass, field

from ..structure.hinges import DOOR, design_kinds
from .count import counted, number_ranges


@dataclass
class Design:
    """One assignment: ``sliding`` hinges (0-based, sorted); counts and ranking metrics.

    M, S: counts of the designed structure (re-counted from its own operator
    when ``verified``, else as the search predicts). sigma_min, condition: of the scaled equilibrium matrix.
    max_force, max_moment: largest |N|, |TP|, |TO| and |MT|, |MP|, |MO| over all
    hinge sides under the reference load (None when not determined: S > 0).
    """

    sliding: tuple
    M: int
    S: int
    sigma_min: float = None
    condition: float = None
    max_force: float = None
    max_moment: float = None
    verified: bool = False

    def hinge_kinds(self, n_hinges, kept=None):
        """The kind of every hinge: sliding on ``sliding``, else door; ``kept`` (the structure's kinds) keeps
        every kind that is neither (a joined "J" edge: design never changes it)."""
        return design_kinds((DOOR,) * n_hinges if kept is None else kept, self.sliding)


@dataclass
class DesignResult:
    """Outcome of :func:`design`. ``designs`` are ranked, best first; ``greedy`` follows the preference."""

    name: str
    n_hinges: int
    M_before: int
    S_before: int
    M_after: int
    S_after: int
    designs: list
    greedy: Design
    exhaustive: bool
    orbits: tuple
    required_door: tuple
    required_sliding: tuple
    irremovable: list = field(default_factory=list)   # per state: 0-based hinges carrying it
    reference_load: str = ""
    notes: list = field(default_factory=list)
    reason: str = ""                                  # one line: why M > 0 or S > 0 remain (empty when isostatic)
    advice: list = field(default_factory=list)        # lines: what carries them, what could help
    explain_states: int = 200                         # the search listed irremovable states up to this many

    @property
    def best(self):
        return self.designs[0]

    @property
    def reachable(self):
        """True when S = 0 is reached with M unchanged."""
        return self.S_after == 0

    @property
    def isostatic(self):
        """True when the best design has M = 0 and S = 0 (its statics is determined)."""
        return self.best.M == 0 and self.best.S == 0

    def structure(self, structure, design=None):
        """``structure`` with the hinge kinds of ``design`` (default: the best)."""
        return structure.with_hinge_kinds((design or self.best).hinge_kinds(self.n_hinges, structure.hinge_kinds))

    def as_dict(self):
        """Plain dict (1-based hinges) of the gallery's designs.json entries."""
        return {"structure": self.name, "M_before": int(self.M_before), "S_before": int(self.S_before),
                "M_after": int(self.M_after), "S_after": int(self.S_after),
                "sliding": [h + 1 for h in self.best.sliding], "designs_found": len(self.designs)}

    def report(self, max_rows=20, max_items=None):
        """Plain text: counts before and after, what cannot be removed, what could help, the ranking.

        At most ``max_rows`` states and designs (None: all); hinge lists cut to ``max_items`` runs of numbers
        (None: every hinge listed).
        """
        def _numbers(hinges):
            if max_items is None:
                return "[" + ", ".join(str(h + 1) for h in hinges) + "]"
            return "[" + number_ranges([h + 1 for h in hinges], max_items).strip("[]") + "]"

        rows = len(self.designs) + len(self.irremovable) if max_rows is None else max_rows
        lines = [f"{self.name}: {self.n_hinges} hinges",
                 f"before (all door hinges): M = {self.M_before}, S = {self.S_before}",
                 f"after: M = {self.M_after}, S = {self.S_after} with {len(self.best.sliding)} sliding hinges"]
        if self.required_door or self.required_sliding:
            lines.append(f"required door: {_numbers(self.required_door)}; required sliding: "
                         f"{_numbers(self.required_sliding)}")
        if any(len(o) > 1 for o in self.orbits):
            lines.append("symmetry orbits: " + " ".join(_numbers(o) for o in self.orbits if len(o) > 1))
        if self.S_after:
            lines.append(f"S = 0 cannot be reached without adding mechanisms: "
                         f"{counted(self.S_after, 'self-stress state')} {'has' if self.S_after == 1 else 'have'} "
                         f"no axial component on any hinge that may slide")
            runs = []                      # states with the same hinges, listed once
            for k, hs in enumerate(self.irremovable):
                if runs and runs[-1][2] == hs:
                    runs[-1][1] = k
                else:
                    runs.append([k, k, hs])
            for a, b, hs in runs[:rows]:
                label = f"state {a + 1}" if a == b else f"states {a + 1}-{b + 1}"
                lines.append(f"  irremovable {label}: hinges {_numbers(hs)}")
            if len(runs) > rows:
                lines.append(f"  ... {sum(b - a + 1 for a, b, _ in runs[rows:])} more states")
            if not self.irremovable:
                lines.append(f"  (their hinges are listed on the dense path, or on the sparse path for at most "
                             f"{self.explain_states} states of the all-sliding structure)")
        if self.reason:
            lines.append(f"not isostatic after design: {self.reason}")
            lines += self.advice
        lines += [n for n in self.notes]
        kind = "every minimal assignment" if self.exhaustive else "greedy search"
        lines.append(f"designs found ({kind}): {len(self.designs)}; reference load: {self.reference_load}")
        lines.append(f"{'rank':>4}  {'M':>3}  {'S':>3}  {'sigma_min':>10}  {'condition':>10}  {'max force':>10}  "
                     f"{'max moment':>10}  sliding hinges")
        for i, d in enumerate(self.designs[:rows]):
            tag = " (greedy)" if d.sliding == self.greedy.sliding else ""
            lines.append(f"{i + 1:>4}  {d.M:>3}  {d.S:>3}  {_fmt(d.sigma_min)}  {_fmt(d.condition)}  "
                         f"{_fmt(d.max_force)}  {_fmt(d.max_moment)}  {_numbers(d.sliding)}{tag}")
        if len(self.designs) > rows:
            lines.append(f"  ... {len(self.designs) - rows} more")
        return "\n".join(lines)


def _fmt(x):
    return f"{'-':>10}" if x is None else f"{x:10.3e}"


def hinge_numbers(hinges):
    """0-based hinges as the 1-based list the messages print: [1, 4, 7]."""
    return "[" + ", ".join(str(h + 1) for h in hinges) + "]"
