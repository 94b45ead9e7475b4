"""Hinges coloured by internal action (report/hinge_colors.py) in static --figure: colours checked against values.

The Miura cantilever (paper's Fig. 6, unit tip load): its largest |N| is 4.989 at hinge 16 (N > 0, tension), its
largest |F| 13.81 at the same hinge. On the diverging map (coolwarm, -4.989 .. 4.989) hinge 16 takes the map's end
colour; on the sequential map (viridis, 0 .. 13.81) too. Every other hinge takes the colour of its own value.
"""
import matplotlib

matplotlib.use("Agg")
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from chrono_origami import cli  # noqa: E402
from chrono_origami.analysis import static as analysis  # noqa: E402
from chrono_origami.structure.foldfile import write_fold  # noqa: E402
from chrono_origami.patterns import miura  # noqa: E402
from chrono_origami.report import hinge_colors  # noqa: E402
from chrono_origami.report.figures import draw_structure  # noqa: E402


@pytest.fixture(scope="module")
def result():
    return analysis.static(miura.miura_cantilever(), "reference")


def line_colors(fig):
    return {line.get_gid(): np.array(matplotlib.colors.to_rgb(line.get_color()))
            for ax in fig.axes for line in ax.lines if (line.get_gid() or "").startswith("hinge ")}


def test_values_are_the_larger_side_of_each_hinge(result):
    for name in hinge_colors.COMPONENTS:
        values = hinge_colors.hinge_values(result, name)
        for h in range(16):
            sides = [a for a in result.hinge_actions if a.hinge == h]
            v = [np.asarray(a.values) for a in sides]
            if name == "|F|":
                expect = max(np.linalg.norm(x[3:]) for x in v)
            elif name == "|M|":
                expect = max(np.linalg.norm(x[:3]) for x in v)
            else:
                k = ("MT", "MP", "MO", "N", "TP", "TO").index(name)
                expect = max((x[k] for x in v), key=abs)
            assert values[h] == pytest.approx(expect, abs=1e-12)


@pytest.mark.parametrize("name, cmap, largest", [("N", "coolwarm", 4.989), ("F", "viridis", 13.81),
                                                 ("M", "viridis", None), ("MO", "coolwarm", None)])
def test_figure_colours_match_the_values(result, name, cmap, largest):
    c = hinge_colors.coloring(result, name)
    assert c.cmap == cmap
    h, v = c.largest()
    if largest is not None:
        assert h == 15 and v == pytest.approx(largest, abs=5e-3)
    fig = draw_structure(result.structure, None, coloring=c)
    colors = line_colors(fig)
    m = matplotlib.colormaps[cmap]
    end = np.array(m(1.0 if v > 0 else 0.0)[:3])
    np.testing.assert_allclose(colors[f"hinge {h + 1}"], end, atol=1e-12)       # the largest: the map's end
    for k, x in enumerate(c.values):
        frac = (x - c.vmin) / (c.vmax - c.vmin)
        np.testing.assert_allclose(colors[f"hinge {k + 1}"], m(frac)[:3], atol=1e-12)
    if c.signed:
        assert c.vmin == -c.vmax                                                # 0 in the middle of the map
    else:
        assert c.vmin == 0.0
    bar = fig.axes[-1]
    assert f"largest {abs(v):.4g} at hinge {h + 1}" in bar.get_ylabel()
    assert [t.get_text() for t in fig.axes[0].texts if t.get_gid() == "largest"] == [
        f" {c.component} = {v:.4g} (hinge {h + 1})"]
    matplotlib.pyplot.close(fig)


def test_component_names():
    assert [hinge_colors.component(x) for x in ("F", "|f|", "m", "|M|", "n", "To")] == ["|F|", "|F|", "|M|", "|M|",
                                                                                        "N", "TO"]
    with pytest.raises(ValueError, match="cannot colour hinges by 'Q': expected one of"):
        hinge_colors.component("Q")


def test_cli_figure_is_coloured_by_force_by_default(tmp_path, capsys):
    fold = tmp_path / "miura.fold"
    write_fold(miura.miura_cantilever(), fold)
    png = tmp_path / "f.png"
    assert cli.main(["static", str(fold), "--engine", "reference", "--figure", str(png)]) == 0
    out = capsys.readouterr().out
    assert ("hinges coloured by force resultant |F|, viridis from 0 to 13.81; largest |F| = 13.81 at hinge 16\n"
            "figure written to") in out
    assert png.stat().st_size > 10000
    assert cli.main(["static", str(fold), "--engine", "reference", "--figure", str(png), "--color-by", "N"]) == 0
    assert "normal force N (> 0 tension), coolwarm from -4.989 to 4.989; largest |N| = 4.989 at hinge 16" in \
        capsys.readouterr().out
    with pytest.raises(SystemExit) as e:
        cli.main(["static", str(fold), "--figure", str(png), "--color-by", "Q"])
    assert e.value.code == 2
    assert "cannot colour hinges by 'Q'" in capsys.readouterr().err


def test_cli_figure_of_an_indeterminate_structure_is_drawn_by_kind(tmp_path, capsys):
    """Not determined: hinges drawn by kind; --min-norm colours the minimum-norm answer and says so (the Kresling
    tower with door hinges under the proposed support: M = 0, S = 9)."""
    from chrono_origami.patterns import kresling
    from chrono_origami.structure.structure import Structure

    fold = tmp_path / "tower.fold"
    write_fold(Structure(kresling.kresling_tower(2, door_module=None).pattern), fold)
    png = tmp_path / "t.png"
    argv = ["static", str(fold), "--engine", "reference", "--figure", str(png), "--support", "auto", "--load",
            "max-z:0,0,-1"]
    assert cli.main(argv) == 3
    out = capsys.readouterr().out
    assert "hinges drawn by kind, not coloured by |F|: the statics is not determined" in out and png.exists()
    assert cli.main(argv + ["--min-norm"]) == 0
    out = capsys.readouterr().out
    assert "hinges coloured by force resultant |F|, viridis from 0 to" in out
    assert "(the minimum-norm answer)\nfigure written to" in out


def test_round_off_forces_are_drawn_as_zero_and_said_so(tmp_path, capsys):
    """The cantilever's tip load moved onto a held vertex (vertex 19 of panel 11, held in x, y, z): the supports
    carry it all, every hinge action is round-off (1e-16 of the load). The caption says so and names no hinge;
    every hinge takes the colour of 0 (viridis' start); the colour bar names no largest hinge."""
    st = miura.miura_cantilever().with_loads("19:0,0,-5:p11", replace=True)
    result = analysis.static(st, "reference")
    raw = max(np.linalg.norm(np.asarray(a.values)[3:]) for a in result.hinge_actions)
    assert raw < 1e-12
    c = hinge_colors.coloring(result, "F")
    assert c.round_off == pytest.approx(raw) and c.vmax == 0.0 and not np.any(c.values)
    assert c.caption() == (f"hinges coloured by force resultant |F|: every hinge carries 0 to round-off (at most "
                           f"{raw:.2g}, against loads and reactions up to 5), all in the colour of 0")
    fig = draw_structure(st, None, coloring=c)
    start = np.array(matplotlib.colormaps["viridis"](0.0)[:3])
    for rgb in line_colors(fig).values():
        np.testing.assert_allclose(rgb, start, atol=1e-12)
    assert "every hinge 0 to round-off" in fig.axes[-1].get_ylabel()
    assert not [t for t in fig.axes[0].texts if t.get_gid() == "largest"]
    matplotlib.pyplot.close(fig)
    # the signed components too: grey, the middle of coolwarm
    assert hinge_colors.coloring(result, "MO").fraction(0.0) == 0.5
    fold = tmp_path / "tip.fold"
    write_fold(st, fold)
    assert cli.main(["static", str(fold), "--engine", "reference", "--figure", str(tmp_path / "f.png")]) == 0
    assert "every hinge carries 0 to round-off" in capsys.readouterr().out


def test_nan_and_inf_keep_their_value_off_the_scale_in_magenta():
    """A failed analysis written anyway: a NaN or infinite side makes its hinge's value NaN or inf (not the other
    side's, not 0), drawn in NOT_FINITE_COLOR; the scale and the largest hinge are the finite values'."""
    r = analysis.static(miura.miura_cantilever(), "reference")
    clean = hinge_colors.coloring(r)
    [a for a in r.hinge_actions if a.hinge == 0][1].force = np.array([np.nan, 0.0, 0.0])
    [a for a in r.hinge_actions if a.hinge == 4][0].force = np.array([0.0, np.inf, 0.0])
    with np.errstate(invalid="ignore"):
        c = hinge_colors.coloring(r)
    assert np.isnan(c.values[0]) and c.values[4] == np.inf
    assert c.not_finite == 2
    assert (c.vmin, c.vmax) == (clean.vmin, clean.vmax) and c.largest() == clean.largest()
    rgb = c.colors()
    assert (rgb[[0, 4]] == hinge_colors.NOT_FINITE_COLOR).all()
    ok = [h for h in range(16) if h not in (0, 4)]
    assert np.array_equal(rgb[ok], clean.colors()[ok])
    assert c.caption() == clean.caption() + "; 2 hinges NaN or infinite, drawn magenta (on neither map)"
