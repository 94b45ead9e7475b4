"""Remake the README's two export pictures (headless): the DXF and the STL of Origami Simulator's waterbomb base.

    python3 docs/export_figures.py          # writes docs/figures/export_dxf.png and export_stl.png

The pattern (tests/data/origami_simulator/waterbombBase.svg, 2016 units wide) is folded to 50 % of its targets
(``fold``), and its last frame exported with panels 40 units thick, tapered to 120 deg (``export``): the DXF is
drawn by ezdxf's drawing add-on with matplotlib, the STL read back with trimesh and drawn by matplotlib, each face
shaded by its normal.
"""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SVG = os.path.join(ROOT, "tests", "data", "origami_simulator", "waterbombBase.svg")
FIGURES = os.path.join(ROOT, "docs", "figures")


def cli(*args):
    subprocess.run([sys.executable, "-m", "chrono_origami", *map(str, args)], check=True)


def main():
    import matplotlib

    matplotlib.use("Agg")
    import ezdxf
    import matplotlib.pyplot as plt
    import numpy as np
    import trimesh
    from ezdxf.addons.drawing import matplotlib as dxf_matplotlib
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection

    with tempfile.TemporaryDirectory() as tmp:
        cli("export", SVG, "--thickness", 40, "--placement", "tapered", "--taper-deg", 120,
            "--dxf", os.path.join(tmp, "panels.dxf"))
        cli("fold", SVG, "--fix-geometry", "--percent", 50, "--engine", "reference", "--quiet", "--out",
            os.path.join(tmp, "fold"))
        cli("export", os.path.join(tmp, "fold", "fold.fold"), "--frame", "last", "--thickness", 40, "--placement",
            "tapered", "--taper-deg", 120, "--stl", os.path.join(tmp, "solids.stl"))
        doc = ezdxf.readfile(os.path.join(tmp, "panels.dxf"))
        dxf_matplotlib.qsave(doc.modelspace(), os.path.join(FIGURES, "export_dxf.png"), bg="#FFFFFF", dpi=150,
                             size_inches=(6, 6))
        mesh = trimesh.load(os.path.join(tmp, "solids.stl"))
    tri = mesh.vertices[mesh.faces]
    light = np.array([0.3, -0.5, 0.8]) / np.linalg.norm([0.3, -0.5, 0.8])
    shade = 0.35 + 0.65 * np.clip(mesh.face_normals @ light, 0, 1)
    fig = plt.figure(figsize=(6, 5))
    ax = fig.add_subplot(projection="3d")
    ax.add_collection3d(Poly3DCollection(tri, facecolors=plt.cm.Blues(0.3 + 0.6 * shade), edgecolors="k",
                                         linewidths=0.2))
    lo, hi = mesh.bounds
    c, r = (lo + hi) / 2, 0.36 * (hi - lo).max()
    ax.set(xlim=(c[0] - r, c[0] + r), ylim=(c[1] - r, c[1] + r), zlim=(c[2] - r, c[2] + r))
    ax.view_init(elev=35, azim=-60)
    ax.set_axis_off()
    ax.set_title("waterbombBase.svg at 50 %: 8 panel solids (STL), tapered to 120 deg")
    fig.savefig(os.path.join(FIGURES, "export_stl.png"), dpi=120, bbox_inches="tight")


if __name__ == "__main__":
    main()
