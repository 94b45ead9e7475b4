"""Headless matplotlib figures of a structure: the files exist and are not blank."""
import numpy as np
import pytest

from chrono_origami.pattern import CreasePattern
from chrono_origami.report.figures import draw_structure
from chrono_origami.structure import Load, Structure, Support


def small_structure():
    X = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [2, 0, 0.3], [2, 1, 0.3]]
    pat = CreasePattern(X, [(0, 1, 2, 3), (1, 4, 5, 2)])
    return Structure(pat, hinge_kinds=("sliding",), supports=(Support(0, 0, "xyz"), Support(3, 0, "z")),
                     loads=(Load(4, (0, 0, -1), 1),))


@pytest.mark.parametrize("ext", ["png", "pdf"])
def test_figure_is_written(tmp_path, ext):
    path = tmp_path / f"s.{ext}"
    draw_structure(small_structure(), str(path), labels=True)
    assert path.stat().st_size > 5000


def test_png_figure_is_not_blank(tmp_path):
    import matplotlib.image as mpimg

    path = tmp_path / "s.png"
    draw_structure(small_structure(), str(path))
    img = mpimg.imread(str(path))[..., :3]
    # panels, edges and marks give many distinct colours and a spread of intensities
    assert img.std() > 0.05
    assert len(np.unique((img * 255).astype(int).reshape(-1, 3), axis=0)) > 50
