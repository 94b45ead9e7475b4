"""Flat crease patterns with many mechanisms: sparse counts against the dense SVD and the families' closed forms.

A flat pattern is a singular configuration: every interior grid line of a box
pleat or a flat Miura-ori folds on its own to first order, every vertex of a
flat triangulated pattern (the Yoshimura wedge) moves out of the plane on its
own. Counts with every hinge a door hinge, unsupported:

* box pleat n x n, flat Miura-ori n x n: M = 2 (n - 1), S = 4 (n - 1)^2;
* square-twist tessellation n x n (a quad mesh of (2n - 1)^2 panels): M = 4 (n - 1), S = 16 (n - 1)^2;
* flat Yoshimura wedge (triangles): M = V - 3, S = 5 H - (6 P - V - 3);
* flat 1 x k Miura-ori chain: M = k - 1, S = 0.

The rank rule is the dense one (singular values at most 1e-8 sigma_max are
zero): the sparse path must give the dense SVD's M, S and gap wherever the
dense SVD fits, and the closed forms beyond.
"""
import json

import numpy as np
import pytest

pytest.importorskip("pyspqr", reason="the sparse path needs pyspqr (pip install pyspqr)")

from chrono_origami.engines import compatibility as operator  # noqa: E402
from chrono_origami.patterns import miura, yoshimura  # noqa: E402
from chrono_origami.patterns import tessellations as ts  # noqa: E402
from chrono_origami.engines.reference import count as counting  # noqa: E402
from chrono_origami.engines.reference.model import assemble  # noqa: E402
from chrono_origami.structure.structure import Structure  # noqa: E402
from chrono_origami.tools import sparseqr  # noqa: E402
from styles import box_pleat_simulator as origami_simulator_box_pleat  # noqa: E402


def wedge(n):
    return yoshimura.wedge_structure(yoshimura.wedge_pattern(n), n, kind="door", supported=False, loaded=False)


def wedge_counts(n):
    pat = wedge(n).pattern
    V, P, H = pat.n_vertices, pat.n_panels, len(pat.hinges)
    return V - 3, 5 * H - (6 * P - V - 3)


FAMILIES = {
    "box pleat": (ts.box_pleat, lambda n: (2 * (n - 1), 4 * (n - 1) ** 2), (2, 3, 5, 8)),
    "flat Miura-ori": (lambda n: miura.miura_patch(n, n, fold_angle_deg=0.0), lambda n: (2 * (n - 1), 4 * (n - 1) ** 2),
                       (2, 4, 7)),
    "square-twist tessellation": (ts.square_twist_tessellation, lambda n: (4 * (n - 1), 16 * (n - 1) ** 2), (2, 3, 4)),
    "flat Yoshimura wedge": (wedge, wedge_counts, (2, 3, 6, 12)),
}
CASES = [(name, n) for name, (_, _, sizes) in FAMILIES.items() for n in sizes]


def subspace_distance(A, B):
    return np.linalg.norm(A @ A.T - B @ B.T)


@pytest.mark.parametrize("name, n", CASES, ids=[f"{name} {n}" for name, n in CASES])
def test_flat_counts_are_the_dense_ones_and_the_closed_forms(name, n):
    build, closed, _ = FAMILIES[name]
    s = build(n)
    d = counting.count(s, linalg="dense")
    q = counting.count(s, linalg="sparse")
    assert (d.M, d.S) == closed(n)
    assert (q.M, q.S, q.rank) == (d.M, d.S, d.rank)
    assert q.gap[0] == pytest.approx(d.gap[0], rel=1e-6)          # the smallest kept singular value
    assert q.gap[1] <= 1e-9 and d.gap[1] <= 1e-9
    assert q.sigma_max == pytest.approx(d.sigma_max, rel=1e-6)


@pytest.mark.parametrize("build", [lambda: ts.box_pleat(9), lambda: ts.square_twist_tessellation(3), lambda: wedge(8)],
                         ids=["box pleat 9", "square twists 3", "wedge 8"])
def test_flat_bases_and_samples_are_the_dense_ones(build):
    s = build()
    d = counting.count(s, linalg="dense")
    q = counting.count(s, linalg="sparse")
    C = q.model.Cs
    assert q.mechanisms.shape == d.mechanisms.shape
    assert subspace_distance(q.mechanisms, d.mechanisms) < 1e-8
    assert subspace_distance(q.self_stresses, d.self_stresses) < 1e-8
    for z, B in ((q.mechanism_sample(), d.mechanisms), (q.self_stress_sample(), d.self_stresses)):
        assert np.linalg.norm(z) == pytest.approx(1.0)
        assert np.linalg.norm(z - B @ (B.T @ z)) < 1e-9                 # in the space, without its basis
    assert np.abs(C @ q.mechanism_sample()).max() < 1e-12


def test_a_flat_operator_splits_into_its_out_of_plane_and_in_plane_blocks():
    """In the plane's frame, a flat pattern's velocities fall into out-of-plane (omega . e1, omega . e2, w . n) and
    in-plane ones; the mechanisms are all out of plane, the in-plane block moves as one rigid sheet."""
    s = ts.box_pleat(6)
    model = assemble(s)
    T = operator.flat_columns(s.pattern, model.n_bodies)
    A = model.Cs @ T
    parts = sparseqr.blocks(A, sparseqr.largest_singular_value(A))
    assert parts is not None and len(parts) == 2
    sizes = sorted((len(r), len(c)) for r, c in parts)
    H, P = len(s.pattern.hinges), s.pattern.n_panels
    assert sizes == [(2 * H, 3 * P), (3 * H, 3 * P)]                  # door hinge: 2 out-of-plane rows, 3 in-plane
    r = sparseqr.rank(A, 1e-8)
    assert isinstance(r, sparseqr.BlockRank)
    nullities = sorted(part.nullity for _, _, part in r.parts)
    assert nullities == [3, 2 * (6 - 1) + 3]                           # rigid in plane; line folds and rigid out of it
    # a folded pattern is not split
    folded = miura.miura_patch(4, 4)
    assert operator.flat_columns(folded.pattern, folded.pattern.n_panels) is None


def test_two_thousand_mechanisms_are_counted():
    """A flat Miura-ori chain with 2,000 mechanisms and a flat Yoshimura wedge with 590: no limit, the closed
    forms (the dense count agrees at the sizes above and in test_sparse's 1 x 450 chain). The wedge with 2,011
    mechanisms (10 s): ``benchmarks/large_counts.py`` asserts the same there."""
    s = wedge(32)
    c = counting.count(s)
    assert c.linalg == "sparse"
    assert (c.M, c.S) == wedge_counts(32) == (590, 1860)
    assert c.gap[1] <= 1e-9 and c.gap[0] > 1e-3
    chain = Structure(miura.miura_pattern(1, 2001, fold_angle_deg=0.0))
    c = counting.count(chain)
    assert (c.M, c.S) == (2000, 0)
    z = c.mechanism_sample()                                           # no 12,006 x 2,000 basis needed
    assert np.abs(c.model.Cs @ z).max() < 1e-12 and np.linalg.norm(z) == pytest.approx(1.0)


def test_null_directions_that_leave_no_small_pivot_are_found():
    """On larger flat patterns some null directions leave no pivot of R below sqrt(delta sigma_max) (a fold line
    across the sheet spreads over many columns): on the 50 x 50 box pleat 99 pivots for 101 null directions of its
    out-of-plane block. A probe (one step towards the null space from random vectors) finds some of the others, so
    the next candidates by |R_jj| are searched too: M = 2 (n - 1), S = 4 (n - 1)^2."""
    n = 50
    s = ts.box_pleat(n)
    model = assemble(s)
    A = model.Cs @ operator.flat_columns(s.pattern, model.n_bodies)
    smax = sparseqr.largest_singular_value(A)
    rows, cols = sorted(sparseqr.blocks(A, smax), key=lambda rc: len(rc[0]))[0]      # out of plane: 2 rows a hinge
    delta = sparseqr.DELTA_FACTOR * 1e-8 * smax
    d = np.abs(sparseqr.factor(A.tocsr()[rows][:, cols], delta, keep_q=False).R.d)
    assert np.count_nonzero(d <= np.sqrt(delta * smax)) < 2 * (n - 1) + 3
    c = counting.count(s)
    assert (c.M, c.S) == (2 * (n - 1), 4 * (n - 1) ** 2)
    assert c.gap[1] <= 1e-9 and c.gap[0] > 1e-3


@pytest.mark.parametrize("engine", ["reference", pytest.param("chrono", marks=pytest.mark.chrono)])
def test_an_origami_simulator_box_pleat_is_counted_from_the_command_line(tmp_path, engine, capsys):
    """Read as Origami Simulator means it (its "F" lines inside rigid faces: the 12 x 12 squares merge into a 7 x 7
    grid of rectangles whose 6 + 6 lines fold, M = 12, S = 5 H - (6 P - 6 - M) with H = 144 hinge segments) and
    with --facets crease (every grid line a crease: M = 22, S = 484), on the sparse path (the command line's
    ``main``, in this process)."""
    from cli_output import run

    n = 12
    path = tmp_path / "BoxPleatTessellation.fold"
    path.write_text(json.dumps(origami_simulator_box_pleat(n)))
    for extra, (M, S) in (([], (12, 5 * 144 - (6 * 49 - 6 - 12))),
                          (["--facets", "crease"], (2 * (n - 1), 4 * (n - 1) ** 2))):
        code, out, err = run(capsys, "count", path, "--engine", engine, "--linalg", "sparse", *extra)
        assert code == 0, err
        assert f"M = {M} mechanisms, S = {S} self-stress states" in out


def test_a_count_beyond_the_memory_ends_in_one_line(tmp_path, monkeypatch, capsys):
    """The count command on an operator whose factor does not fit: one line naming the operator and the memory
    needed, exit 1."""
    from chrono_origami.cli import app
    from chrono_origami.tools import memory

    path = tmp_path / "box.fold"
    path.write_text(json.dumps(origami_simulator_box_pleat(40)))
    monkeypatch.setattr(memory, "available", lambda: 2 ** 20)
    code = app.main(["count", str(path), "--engine", "reference", "--linalg", "sparse"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == app.EXIT_INPUT and len(err) == 1
    assert err[0].startswith("error: ") and "operator" in err[0] and "needs about" in err[0]
    assert "1 MB is available" in err[0]


@pytest.mark.parametrize("call, message", [
    (lambda: ts.box_pleat(0), "n must be a whole number >= 1, got 0"),
    (lambda: ts.box_pleat(3, size=-1.0), "size must be a positive number of length units, got -1.0"),
    (lambda: ts.square_twist_tessellation(2, spacing="a"), "spacing must be a positive number of length units, got 'a'"),
    (lambda: ts.square_twist_tessellation(2, twist_deg=0), "twist_deg must lie strictly between 0 and 90 degrees, got 0"),
    (lambda: ts.square_twist_tessellation(2, twist_deg="x"), "twist_deg must be an angle in degrees, got 'x'"),
])
def test_bad_tessellation_arguments_are_named_in_one_line(call, message):
    from chrono_origami.tools.errors import PatternError

    with pytest.raises(PatternError) as e:
        call()
    assert str(e.value) == message
