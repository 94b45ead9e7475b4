"""Time of each step of a user's journey on a flat n x n Miura-ori drawn in Origami Simulator's SVG style.

The journey of the manual's "Your own pattern" (docs/tutorial/your-pattern.md), at scale: the pattern is written as
Illustrator writes Origami Simulator's examples (one path per colour, coordinates with 3 decimals, so Kawasaki is
missed by ~1e-5 rad at most vertices; zig-zag targets at ``--zigzag`` degrees as stroke opacity x 180, the straight
creases' targets their closed form tan(rho_h / 2) = cos(gamma) tan(rho_z / 2), 4-digit opacities). Each step does
what its command does, in this process (the command line adds ~1 s of imports to each):

* open: ``read_structure`` of the SVG (lines merged and split, faces found);
* check: ``pattern_check.diagnose`` (Kawasaki, Maekawa, the quadrilateral mesh's multiplier closure);
* fold: ``fold_to_targets`` to ``--percent`` of the targets with ``fix_geometry=True``, timed in two rows: the
  least-squares correction of the rounded geometry (``fold: fix``), then the fold from the flat start and the
  history written as fold.fold;
* support: the last frame read back from fold.fold, ``propose_support``, the supported structure counted, the
  held directions that stop its mechanisms (``mechanism_stops``);
* design: ``co.design`` of the structure with the proposal and the stops (all door hinges at the start);
* static: the designed structure counted and solved under a unit load at each interior vertex (the
  minimum-norm answer when S > 0 remain, as ``static --min-norm`` gives it);
* csv + figure: hinges.csv, supports.csv, counts.json and the force-coloured figure (PNG).

Prints one line per step (seconds, peak MB so far) and what the step found. ``--n 32`` is 1,024 panels.
Timing figures on a shared, busy machine are noisy: say so when reporting them.
"""
import argparse
import os
import tempfile
import time

import numpy as np

from common import peak_MB


def miura_svg(path, n, zigzag_deg=60.0, width=600 / 7, height=460 / 6, gamma_deg=65.0):
    """A flat n x n Miura-ori in Origami Simulator's SVG style (module doc); returns the path."""
    shift = height / np.tan(np.radians(gamma_deg))
    rz = np.radians(zigzag_deg)
    rh = 2 * np.arctan(np.cos(np.radians(gamma_deg)) * np.tan(rz / 2))
    right = n * width + shift / 2
    top = n * height

    def xy(i, j):                         # column line i (0 and n: the straight sides), row j; y down
        x = 0.0 if i == 0 else right if i == n else i * width + shift * (j % 2)
        return x + 10.875, top - j * height + 8.643

    groups = {}

    def line(letter, opacity, p, q):
        groups.setdefault((letter, opacity), []).append((p, q))

    for j in range(n + 1):
        for i in range(n):
            if j in (0, n):
                line("B", None, xy(i, j), xy(i + 1, j))
                continue
            tau = 1.0 if j % 2 else -1.0
            sigma = (1.0 if i % 2 else -1.0) if i >= 1 else -(1.0 if (i + 1) % 2 else -1.0)
            s = sigma * tau
            line("V" if s > 0 else "M", round(float(np.degrees(rh)) / 180, 4), xy(i, j), xy(i + 1, j))
    for j in range(n):
        line("B", None, xy(0, j), xy(0, j + 1))
        line("B", None, xy(n, j), xy(n, j + 1))
        for i in range(1, n):
            line("V" if i % 2 else "M", round(zigzag_deg / 180, 4), xy(i, j), xy(i, j + 1))
    colour = {"B": "#000000", "M": "#FF0000", "V": "#0000FF"}
    f3 = lambda v: f"{v:.3f}".rstrip("0").rstrip(".")   # noqa: E731
    out = ['<?xml version="1.0" encoding="utf-8"?>',
           '<!-- Generator: Adobe Illustrator 16.0.3, SVG Export Plug-In . SVG Version: 6.00 Build 0)  -->',
           '<svg version="1.1" xmlns="http://www.w3.org/2000/svg" x="0px" y="0px" xml:space="preserve">']
    for (letter, op), segs in groups.items():
        d = " ".join(f"M{f3(p[0])},{f3(p[1])}l{f3(q[0] - p[0])},{f3(q[1] - p[1])}" for p, q in segs)
        alpha = "" if op is None else f' opacity="{op!r}"'
        out.append(f'<path fill="none" stroke="{colour[letter]}" stroke-width="4"{alpha} d="{d}"/>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    return path


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=32, help="panels per side (default 32: 1,024 panels)")
    ap.add_argument("--percent", type=float, default=50.0, help="fold percent of the targets (default 50)")
    ap.add_argument("--zigzag", type=float, default=60.0, help="zig-zag target angle, deg (default 60)")
    ap.add_argument("--out", help="folder for the files (default: a temporary one)")
    args = ap.parse_args(argv)
    from chrono_origami.structure.foldfile import read_structure

    folder = args.out or tempfile.mkdtemp(prefix="journey-")
    os.makedirs(folder, exist_ok=True)
    svg = miura_svg(os.path.join(folder, "miura.svg"), args.n, args.zigzag)
    rows = []

    def step(name, fn):
        t = time.perf_counter()
        value, what = fn()
        dt = time.perf_counter() - t
        rows.append((name, dt))
        print(f"{name:<14} {dt:9.2f} s  {peak_MB():7.0f} MB  {what}", flush=True)
        return value

    print(f"journey on a flat {args.n} x {args.n} Miura-ori (Origami Simulator SVG, 3 decimals), {folder}")
    st = step("open", lambda: (lambda s: (s, f"{s.pattern!r}"))(read_structure(svg)))

    def check():
        from chrono_origami.structure import pattern_check

        rep = pattern_check.diagnose(st)
        return rep, f"{len(rep.inexact)} of {len(rep.vertices)} interior vertices inexact, {len(rep.faces)} panels " \
                    f"of the quadrilateral mesh"
    step("check", check)

    def fix():
        from chrono_origami.structure.pattern_check import prepare

        return prepare(st, fix=True)
    fixed = step("fold: fix", fix)

    def fold():
        from chrono_origami.analysis.fold import fold_to_targets
        from chrono_origami.report.fold import write_fold

        hist = fold_to_targets(fixed, percent=args.percent, progress=False)
        path = write_fold(hist, os.path.join(folder, "fold.fold"))
        return path, f"{len(hist.steps)} steps to {args.percent:g} % of the targets; {hist.notes[-1]}"
    history = step("fold", fold)

    def support():
        from chrono_origami.analysis import static as statics
        from chrono_origami.analysis.support import mechanism_stops, propose_support

        last = read_structure(history, frame="last")
        prop = propose_support(last)
        c = statics.count(prop.structure, "reference")
        stops = mechanism_stops(prop.structure, c)
        held = prop.structure.with_supports(*stops, origin="--support")
        return held, f"{prop.n_held} held directions; with them M = {c.M}, S = {c.S}; {len(stops)} stops"
    supported = step("support", support)

    def design():
        import chrono_origami as co

        r = co.design(supported)
        best = r.best
        return r.structure(supported, best), (f"{len(best.sliding)} sliding hinges: M = {best.M}, S = {best.S}"
                                              + (f" ({r.reason[:90]}...)" if r.reason else ""))
    designed = step("design", design)

    def static():
        from chrono_origami.analysis import static as statics

        loaded = designed.with_loads("interior:0,0,-1")
        c = statics.count(loaded, "reference")
        res = statics.static(loaded, "reference", allow_indeterminate=True)
        return (res, c), f"M = {c.M}, S = {c.S}: {res.status}"
    result, counts = step("static", static)

    def outputs():
        from chrono_origami.analysis import static as statics
        from chrono_origami.report import figures, hinge_colors, tables

        out = os.path.join(folder, "forces")
        summary = statics.counts_summary(result.structure, counts)
        summary["status"] = result.status
        tables.write_counts(summary, out)
        tables.write_results(result, out, summary)
        coloring = hinge_colors.coloring(result, "|F|")
        figures.draw_structure(result.structure, os.path.join(out, "forces.png"), coloring=coloring)
        return out, coloring.caption()
    step("csv + figure", outputs)
    print(f"total {sum(t for _, t in rows):.1f} s, peak {peak_MB():.0f} MB")


if __name__ == "__main__":
    main()
