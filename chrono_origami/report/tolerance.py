"""Reports of a tolerance analysis: tables, CSV and figures of locked-in hinge actions (``chrono_origami.analysis.tolerance``).

* :func:`statistics_rows` / :data:`STATISTICS_HEADER`: per hinge side the
  standard deviation and the 95th/99th percentiles of |MT|, ..., |TO|
  (the table ``locked_in``, ``LockedInStatistics.table``, by ``report.write``);
* :func:`summary_table`: one line per structure, the largest over hinges of
  each component's p95 and p99 (printed with the paper's ``%.4e``);
  :data:`MAXIMUM_BIAS_NOTE` beside a Monte Carlo row of it;
* :func:`largest_table`: the closed form's largest p95 / p99 beside the
  Monte Carlo percentiles of the largest over hinges (``locked_max_*``);
* :func:`histogram`: the distribution of the largest locked-in |N| (or any
  component) over hinges, from Monte Carlo samples, one panel per pair of
  designs;
* :func:`force_tolerance_plot`: the largest locked-in action against the
  tolerance for each engine (log-log).

Units: forces and moments in the structure's units (SI: N, N m).
"""
import numpy as np

from ..results.tolerance import COMPONENTS, LockedInStatistics
from .figures import _backend, save_figure
from .tables import FMT

STATISTICS_HEADER = LockedInStatistics.HEADER
#: the components of the summary table (MP, the moment about a door or sliding hinge's axis, is zero)
SUMMARY_COMPONENTS = ("N", "TP", "TO", "MT", "MO")


def statistics_rows(stats):
    """Rows of ``locked_in.csv``: hinge, panel (1-based), then sd, p95, p99 of each component."""
    return stats.rows()


def summary_header(components=SUMMARY_COMPONENTS):
    return ("structure", "M", "S") + tuple(f"{p}_{c}" for c in components for p in ("p95", "p99"))


def summary_rows(named, components=SUMMARY_COMPONENTS):
    """Rows (name, M, S, p95 and p99 of the largest over hinges of each component) of {name: statistics}."""
    from ..analysis.tolerance import summary

    out = []
    for name, stats in named.items():
        row = summary(stats)
        vals = []
        for c in components:
            vals += [row[f"locked_p95_{c}"], row[f"locked_p99_{c}"]]
        out.append((name, stats.info.get("M", ""), stats.info.get("S", ""), *vals))
    return out


def summary_table(named, title=None, components=SUMMARY_COMPONENTS):
    """Fixed-width text table of :func:`summary_rows` (values as ``%.4e``)."""
    header = summary_header(components)
    cells = [list(header)]
    for r in summary_rows(named, components):
        cells.append([str(r[0]), str(r[1]), str(r[2])] + [FMT.format(float(x)) if np.isfinite(x) else "-"
                                                          for x in r[3:]])
    widths = [max(len(c[i]) for c in cells) for i in range(len(header))]
    lines = [title] if title else []
    for k, c in enumerate(cells):
        lines.append("  ".join(s.ljust(w) if i == 0 else s.rjust(w) for i, (s, w) in enumerate(zip(c, widths))))
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


#: the note printed beside a Monte Carlo row of :func:`summary_table`
MAXIMUM_BIAS_NOTE = ("note: a Monte Carlo row is the largest over hinges of estimated percentiles, each with its "
                     "sampling error: the largest of noisy estimates runs above the closed form (1-5 % at a few "
                     "hundred samples), the bias of a maximum, not a disagreement")


def largest_table(closed, mc, components=SUMMARY_COMPONENTS):
    """Text table, one row per component: the closed form's largest per-hinge p95 and p99 beside the Monte Carlo
    percentiles of the largest |action| over hinges (``locked_max_p95_C``, ``locked_max_p99_C``: the joint
    distribution, so at least the former up to sampling error)."""
    from ..analysis.tolerance import summary

    a, b = summary(closed), summary(mc)
    header = ("component", "largest p95 (closed form)", "p95 of the largest (Monte Carlo)",
              "largest p99 (closed form)", "p99 of the largest (Monte Carlo)")
    cells = [list(header)] + [[c] + [FMT.format(x) if np.isfinite(x) else "-" for x in
                                     (a[f"locked_p95_{c}"], b[f"locked_max_p95_{c}"], a[f"locked_p99_{c}"],
                                      b[f"locked_max_p99_{c}"])] for c in components]
    widths = [max(len(c[i]) for c in cells) for i in range(len(header))]
    lines = [f"the largest locked-in |action| over hinges: each hinge's own percentiles (closed form) beside the "
             f"percentiles of the largest (locked_max_*, {mc.samples} Monte Carlo samples)"]
    for k, c in enumerate(cells):
        lines.append("  ".join(s.ljust(w) if i == 0 else s.rjust(w) for i, (s, w) in enumerate(zip(c, widths))))
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def side_table(stats, column="p95", top=None):
    """Text table of one statistic (``"sd"``, ``"p95"``, ``"p99"``) of every component per hinge side; ``top``:
    only the hinge sides with the largest |N| statistic."""
    from .tables import HINGE_HEADER, text_table

    arr = {"sd": stats.sd, "p95": stats.p95, "p99": stats.p99}[column]
    pat = stats.structure.pattern
    rows = []
    for h, hinge in enumerate(pat.hinges):
        for s in sorted((0, 1), key=lambda s: hinge.panels[s]):
            rows.append((h + 1, hinge.panels[s] + 1, *arr[h, s]))
    if top is not None and len(rows) > top:
        k = COMPONENTS.index("N")
        rows = sorted(rows, key=lambda r: -abs(r[2 + k]))[:top]
        rows.sort(key=lambda r: (r[0], r[1]))
    return text_table(HINGE_HEADER, rows, f"{stats.structure.name}: locked-in {column} of |action| per hinge side "
                                          f"({stats.method})")


def largest_over_hinges(samples, component="N"):
    """(n,) the largest |component| over hinges and sides of each Monte Carlo sample (n, H, 2, 6)."""
    k = COMPONENTS.index(component)
    X = np.abs(np.asarray(samples, float)[..., k])
    return X.reshape(X.shape[0], -1).max(axis=1)


def histogram(groups, path, component="N", unit="N", title=None):
    """Histograms of the largest locked-in |component| over hinges, one panel per group.

    ``groups``: [(panel title, {design name: samples (n, H, 2, 6)})]. A design
    whose values are all below 1e-9 of the panel's largest (an isostatic
    design) is drawn as a bar at zero and labelled so.
    """
    plt = _backend()
    fig, axes = plt.subplots(1, len(groups), figsize=(4.6 * len(groups), 3.6), squeeze=False)
    colors = ("tab:red", "tab:blue", "tab:green", "tab:orange")
    for ax, (name, designs) in zip(axes[0], groups):
        values = {d: largest_over_hinges(s, component) for d, s in designs.items()}
        top = max((float(v.max()) for v in values.values() if v.size), default=1.0) or 1.0
        bins = np.linspace(0.0, 1.05 * top, 40)
        for (d, v), c in zip(values.items(), colors):
            if v.max() <= 1e-9 * top:
                ax.axvline(0.0, color=c, lw=3, label=f"{d}: 0 (max {v.max():.1e})")
            else:
                ax.hist(v, bins=bins, color=c, alpha=0.6, label=f"{d}: median {np.median(v):.3g}")
        ax.set_title(name, fontsize=9)
        ax.set_xlabel(f"largest locked-in |{component}| over hinges [{unit}]")
        ax.set_ylabel("samples")
        ax.legend(fontsize=7)
    return _save(plt, fig, path, title)


def _save(plt, fig, path, title=None):
    """Title, layout, write ``path`` (png or pdf), close; returns ``path``."""
    if title:
        fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    save_figure(fig, path)
    return path


def force_tolerance_plot(tolerances, curves, path, components=("N", "TO", "MT"), title=None, unit="m"):
    """The largest locked-in |component| against the tolerance, one line per engine (left, log-log), and the
    relative departure of Chrono's assembly from the linear theory, max over components (right).

    ``curves``: {engine: (len(tolerances), 6)} as ``analysis.tolerance.force_against_tolerance`` returns (NaN where an
    engine did not converge: its curve ends there).
    """
    plt = _backend()
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(10.0, 4.0))
    styles = {"reference": dict(ls="-", marker=None), "chrono": dict(ls="none", marker="o", mfc="none")}
    colors = dict(zip(components, ("tab:red", "tab:blue", "tab:green", "tab:purple")))
    t = np.asarray(tolerances, float)
    for eng, vals in curves.items():
        for c in components:
            y = vals[:, COMPONENTS.index(c)]
            ok = np.isfinite(y) & (y > 0)
            label = f"{c} ({'linear theory' if eng == 'reference' else 'Chrono assembly'})"
            ax.plot(t[ok], y[ok], color=colors[c], label=label, **styles.get(eng, {}))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(f"tolerance [{unit}]")
    ax.set_ylabel("largest locked-in action [N, N m]")
    ax.grid(True, which="both", lw=0.3)
    ax.legend(fontsize=7)
    if "reference" in curves and "chrono" in curves:
        ref, ch = curves["reference"], curves["chrono"]
        idx = [COMPONENTS.index(c) for c in components]
        with np.errstate(invalid="ignore", divide="ignore"):
            d = np.abs(ch[:, idx] - ref[:, idx]) / ref[:, idx]
        rel = np.array([np.max(r[np.isfinite(r)]) if np.isfinite(r).any() else np.nan for r in d])
        ok = np.isfinite(rel) & (rel > 0)
        bx.plot(t[ok], rel[ok], "ko-", mfc="none")
        if (~np.isfinite(ch[:, idx[0]])).any():
            last = t[ok].max() if ok.any() else t[0]
            bx.axvline(last, color="0.5", ls=":", lw=1)
            bx.text(last, 0.05, " Chrono: no\n equilibrium\n found beyond", fontsize=7, va="bottom", ha="right",
                    transform=bx.get_xaxis_transform())
        bx.set_xscale("log")
        bx.set_yscale("log")
        bx.set_xlabel(f"tolerance [{unit}]")
        bx.set_ylabel("|Chrono - linear theory| / linear theory")
        bx.grid(True, which="both", lw=0.3)
        bx.set_title("departure from the linear theory", fontsize=9)
    else:
        bx.axis("off")
    return _save(plt, fig, path, title)
