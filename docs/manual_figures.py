"""Remake the manual's two drawings (headless): the user's journey and the hinge frame {n, t, m}.

    python3 docs/manual_figures.py          # writes docs/figures/journey.png and hinge_frame.png

The hinge frame is computed by the project's own ``tools.geometry.edge_frame`` (the convention every table uses,
pinned by ``tests/test_sign_conventions.py``), on two unit panels P and Q sharing the edge a -> b of P's loop.
"""
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIGURES = os.path.join(ROOT, "docs", "figures")
sys.path.insert(0, ROOT)

#: the user's journey: (command, what it reads, what it gives)
JOURNEY = [
    ("your file", "SVG, FOLD, ORIPA\n(check: Kawasaki,\nMaekawa)", "a crease pattern"),
    ("fold", "target angles\nalong the mechanism", "fold.fold: the\nfolded frames"),
    ("support", "the folded state", "the fewest supports;\nM and S with them"),
    ("design", "supports, symmetry", "which hinges slide:\nM = S = 0"),
    ("static", "loads (or --elastic)", "hinge actions N..MO,\nreactions, the page"),
]


def journey(path):
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

    fig, ax = plt.subplots(figsize=(10.6, 2.6))
    ax.set_xlim(0, 10.6)
    ax.set_ylim(0, 2.6)
    ax.axis("off")
    w, gap = 1.55, 0.55
    for i, (name, reads, gives) in enumerate(JOURNEY):
        x = 0.2 + i * (w + gap)
        box = FancyBboxPatch((x, 0.95), w, 0.75, boxstyle="round,pad=0.05",
                             fc="#e8eef7" if i else "#f4f4f4", ec="#2b5797", lw=1.4)
        ax.add_patch(box)
        ax.text(x + w / 2, 1.33, name, ha="center", va="center", fontsize=12, weight="bold",
                family="monospace" if i else None)
        ax.text(x + w / 2, 2.15, reads, ha="center", va="center", fontsize=8, color="#555555")
        ax.text(x + w / 2, 0.45, gives, ha="center", va="center", fontsize=8.5)
        if i:
            ax.add_patch(FancyArrowPatch((x - gap + 0.08, 1.33), (x - 0.08, 1.33), arrowstyle="-|>",
                                         mutation_scale=16, color="#2b5797", lw=1.6))
    fig.savefig(path, dpi=150, bbox_inches="tight")
    plt.close(fig)


def hinge_frame(path):
    import matplotlib.pyplot as plt

    from chrono_origami.tools.geometry import edge_frame

    fold = np.radians(40.0)                  # Q turned up about the edge: a valley (FOLD's angle > 0)
    P = np.array([[0, -1, 0], [0, 1, 0], [-1, 1, 0], [-1, -1, 0]], float)   # loop counter-clockwise seen from +z
    a, b = P[0], P[1]                        # the hinge edge, run a -> b by P's loop
    Q = np.array([a, b, b + [np.cos(fold), 0, np.sin(fold)], a + [np.cos(fold), 0, np.sin(fold)]])
    F = edge_frame(a, b, [0, 0, 1])
    n, t, m = F[:, 0], F[:, 1], F[:, 2]
    mid = 0.5 * (a + b)

    fig = plt.figure(figsize=(6.4, 5))
    ax = fig.add_subplot(projection="3d")
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection

    ax.add_collection3d(Poly3DCollection([P], fc="#cfdcf0", ec="#2b5797", alpha=0.9))
    ax.add_collection3d(Poly3DCollection([Q], fc="#f2dccb", ec="#b5651d", alpha=0.45))
    for k in range(4):                       # P's loop, arrows along its edges
        u, v = P[k], P[(k + 1) % 4]
        ax.quiver(*(u + 0.3 * (v - u)), *(0.25 * (v - u)), color="#2b5797", arrow_length_ratio=0.5, lw=1)
    for vec, name, col in [(n, "n", "#c0392b"), (t, "t", "#27ae60"), (m, "m", "#2b5797")]:
        ax.quiver(*mid, *(0.8 * vec), color=col, lw=2.5, arrow_length_ratio=0.18)
        ax.text(*(mid + 0.92 * vec), name, color=col, fontsize=14, weight="bold")
    ax.text(*(np.array([-0.5, 0, 0]) + [0, 0, 0.02]), "P", fontsize=16, color="#2b5797")
    ax.text(*(0.5 * (Q[2] + Q[0]) + [0, 0, 0.05]), "Q", fontsize=16, color="#b5651d")
    ax.text(*(a + [0.05, -0.15, 0]), "a", fontsize=11)
    ax.text(*(b + [0.05, 0.05, 0]), "b", fontsize=11)
    ax.set_xlim(-1, 1)
    ax.set_ylim(-1, 1)
    ax.set_zlim(-0.3, 1.0)
    ax.set_box_aspect((2, 2, 1.3))
    ax.view_init(elev=28, azim=-140)
    ax.set_axis_off()
    fig.text(0.5, 0.04, "row (hinge h, panel P): the action on P by Q at the edge midpoint, on P's {n, t, m}\n"
             "m: P's normal (right-hand rule on its loop); t: along the edge as P's loop runs it (a -> b);\n"
             "n = t x m, in P's plane, out of P.  N > 0: tension.  Fold angle > 0: valley (here Q turned 40 deg)",
             ha="center", fontsize=8.5)
    fig.savefig(path, dpi=150, bbox_inches="tight")
    plt.close(fig)


def main():
    import matplotlib

    matplotlib.use("Agg")
    os.makedirs(FIGURES, exist_ok=True)
    journey(os.path.join(FIGURES, "journey.png"))
    hinge_frame(os.path.join(FIGURES, "hinge_frame.png"))


if __name__ == "__main__":
    main()
