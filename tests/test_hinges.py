"""Hinge kinds as data (``chrono_origami.structure.hinges``): the registry, and new kinds registered here and used end to end.

The test kinds below are defined and registered in this file only, as a user
adding a kind would (see the ``hinges`` module docstring): a prismatic hinge
(5 rows, only the translation along the axis free) and a welded joint (6 rows,
nothing free); beside them the built-in spherical hinge at the edge midpoint
(3 rows, with a point form). Each one goes through counting (reference and Chrono engines, and the
Maxwell rule), statics with equilibrium checked, the exact fold constraints
(finite differences) and a fold, a figure, and a Chrono system with its glyph
and crease springs. The Chrono parts skip without PyChrono.
"""
import numpy as np
import pytest
import scipy.sparse as sp

from chrono_origami import engines
from chrono_origami.structure import foldfile, hinges
from chrono_origami.tools.errors import StructureError
from chrono_origami.inputs.fold import Drive, FoldProblem
from chrono_origami.engines.reference.fold.newton import fold
from chrono_origami.engines.reference.fold.constraints import FoldConstraints
from chrono_origami.engines.reference.fold.lie import exp_update
from chrono_origami.report import styles
from chrono_origami.report.styles import STYLES, HingeStyle
from chrono_origami.structure.hinges import HingeKind, PointConstraint
from chrono_origami.crease.pattern import CreasePattern
from chrono_origami.patterns import miura, simple
from chrono_origami.engines.reference import operators as op
from chrono_origami.engines.reference.count import count, counting_rules
from chrono_origami.engines.reference.model import assemble
from chrono_origami.structure.hinges import hinge_geometry
from chrono_origami.engines.reference.static import solve
from chrono_origami.structure.structure import Load, Structure, Support
from chrono_origami.structure.hinges import DOOR, SLIDING

needs_chrono = pytest.mark.skipif(not engines.chrono_available(), reason=str(engines.chrono_unavailable_reason()))


def _rotation_rows(axes):
    """Paper-convention rows (omega_1, w_1, omega_2, w_2) locking the relative rotation about each axis."""
    z = np.zeros(3)
    return [np.concatenate([-e, z, e, z]) for e in axes]


def spherical_operator(t1, m1, n1, p1, t2, m2, n2, p2):
    return op.spherical_hinge(p1, p2)                                              # eq. (14) at the midpoint


def prismatic_operator(t1, m1, n1, p1, t2, m2, n2, p2):
    return np.vstack(_rotation_rows((n1, m1, t1)) + [op.point_slider(m1, n1, p1)])  # rotations, then m, n


def welded_operator(t1, m1, n1, p1, t2, m2, n2, p2):
    return np.vstack(_rotation_rows((n1, m1, t1)) + [op.spherical_hinge(p1, p2)])  # rotations, then x, y, z


SPHERICAL = hinges.get("spherical")
PRISMATIC = HingeKind("prismatic", ("z",), description="prismatic joint along the hinge axis")
WELDED = HingeKind("welded", (), description="welded joint: nothing free")
TEST_KINDS = {k.name: k for k in (PRISMATIC, WELDED)}
TEST_STYLES = {"prismatic": HingeStyle("tab:purple", "-.", "dash-dotted", (0.5, 0.2, 0.6), "purple", "rod"),
               "welded": HingeStyle("0.5", (0, (1, 1)), "densely dotted", (0.4, 0.4, 0.4), "grey", "barrel")}
#: rows written by hand in the paper's convention: the paper's printed operators for door and sliding hinges,
#: the operators above for the others; the kinds' own rows (HingeKind.rows) derive from their free motions
HAND_ROWS = {DOOR: op.door_hinge, SLIDING: op.sliding_hinge, "spherical": spherical_operator,
             "prismatic": prismatic_operator, "welded": welded_operator, "joined": welded_operator}
#: supports of panel 2 that make the two-panel structure isostatic with each kind (panel 1 holds 6 directions)
PANEL2_SUPPORTS = {DOOR: ((2, "z"),), SLIDING: ((2, "yz"),), "spherical": ((2, "yz"), (5, "z")),
                   "prismatic": ((2, "y"),), "welded": (), "joined": ()}


@pytest.fixture(scope="module", autouse=True)
def test_kinds():
    """The test kinds (and their styles) are registered for this module only (the registry is global)."""
    for k in TEST_KINDS.values():
        hinges.register(k)
    STYLES.update(TEST_STYLES)
    yield TEST_KINDS
    for name in TEST_KINDS:
        hinges.unregister(name)
        del STYLES[name]


def two_squares(kind, loaded=True):
    """Squares [0, 1]^2 (panel 1) and [1, 2] x [0, 1] (panel 2) in z = 0, hinge 1 on x = 1; isostatic for ``kind``."""
    X = [[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0], [1, 1, 0], [2, 1, 0]]
    pat = CreasePattern(X, [(0, 1, 4, 3), (1, 2, 5, 4)])
    sups = [Support(0, 0, "xyz"), Support(3, 0, "xz"), Support(1, 0, "z")]
    sups += [Support(v, 1, d) for v, d in PANEL2_SUPPORTS[kind]]
    loads = (Load(5, (0.4, -0.3, -1.0), 1), Load(2, (-0.2, 0.5, 0.3), 1), Load(4, (0.1, 0.2, -0.7), None)) \
        if loaded else ()
    return Structure(pat, (kind,), supports=tuple(sups), loads=loads, name=f"two squares ({kind})")


def relative_motions(t, m, n, P):
    """Columns: the 12-vectors (0, 0, omega, w) moving panel 2 relative to panel 1 by each motion of MOTIONS."""
    out = {}
    for c, e in zip(("x", "y", "z"), (m, n, t)):
        out[c] = np.r_[np.zeros(6), np.zeros(3), e]
    for c, e in zip(("rx", "ry", "rz"), (m, n, t)):
        out[c] = np.r_[np.zeros(6), e, -np.cross(e, P)]          # rotation about the axis through P
    return out


# ------------------------------------------------------------------ the registry
def test_unknown_kind_fails_when_the_structure_is_made_naming_the_hinge_and_the_known_kinds():
    pat = two_squares(DOOR).pattern
    with pytest.raises(StructureError) as e:
        Structure(pat, ("hinge",))
    msg = str(e.value)
    assert msg == "hinge 1 has kind 'hinge'; expected 'door', 'sliding', 'joined', 'spherical', 'prismatic' or 'welded'"
    assert "\n" not in msg
    assert Structure(pat, ("spherical",)).kinds == (SPHERICAL,)      # built in, so accepted


def test_a_kind_is_refused_once_unregistered_and_names_must_be_new():
    extra = HingeKind("extra", ("z", "rz"))
    pat = two_squares(DOOR).pattern
    hinges.register(extra)
    try:
        assert Structure(pat, ("extra",)).hinge_kinds == ("extra",)
        with pytest.raises(StructureError, match="hinge kind 'extra' is already registered"):
            hinges.register(extra)
    finally:
        hinges.unregister("extra")
    with pytest.raises(StructureError, match="hinge 1 has kind 'extra'"):
        Structure(pat, ("extra",))


@pytest.mark.parametrize("make, message", [
    (lambda: HingeKind("k", ("x",)), r"frees one of \('x', 'y'\) but not"),
    (lambda: HingeKind("k", ("rz", "sz")), r"unknown free motions \['sz'\]"),
    (lambda: HingeKind("k", ("rz",), points=(PointConstraint("slider", "a"),)),
     "its point form has 2 rows, the kind 5"),
    (lambda: HingeStyle("k", "-", "solid", (0, 0, 1), "blue", "cube"), "hinge glyph 'cube'"),
    (lambda: PointConstraint("slider", "c"), "point constraint place 'c'"),
])
def test_malformed_kinds_are_refused_with_one_line(make, message):
    with pytest.raises(StructureError, match=message):
        make()


def test_the_registry_imports_without_pychrono_nor_the_engines():
    """hinges.py and the structure layer import no engine; the reference engine still runs without PyChrono."""
    import os
    import subprocess
    import sys

    code = ("import sys; sys.modules['pychrono'] = None\n"
            "from chrono_origami.structure import hinges, structure\n"
            "from chrono_origami.patterns import miura\n"
            "engines = ('chrono_origami.engines.reference', 'chrono_origami.engines.chrono')\n"
            "assert not [m for m in sys.modules if m.startswith(engines)]\n"
            "from chrono_origami.engines.reference.count import count\n"
            "c = count(miura.miura_single_vertex())\n"
            "print(c.M, c.S)\n")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # this checkout's package
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([root] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["1", "0"]


def test_structure_repr_counts_each_kind():
    st = two_squares("spherical")
    assert repr(st) == "Structure('two squares (spherical)': 2 panels, 1 hinges (1 spherical), 5 supports, 3 loads)"
    assert "19 hinges (1 door, 18 sliding)" in repr(miura.miura_strip(5))


def test_builtin_kinds_keep_their_names_rows_and_masks():
    from chrono_origami.structure import structure

    assert (structure.DOOR, structure.SLIDING, hinges.DOOR, hinges.SLIDING) == ("door", "sliding", "door", "sliding")
    door, sliding = hinges.get(DOOR), hinges.get(SLIDING)
    assert (door.n_rows, sliding.n_rows) == (5, 4)
    assert door.mask == (True, True, True, True, True, False)
    assert sliding.mask == (True, True, False, True, True, False)
    assert (door.locked, sliding.locked) == (("x", "y", "z", "rx", "ry"), ("x", "y", "rx", "ry"))
    assert (door.hinge_row_kinds, sliding.hinge_row_kinds) == (tuple("rrttt"), tuple("rrtt"))
    assert (WELDED.n_rows, WELDED.mask, WELDED.hinge_row_kinds) == (6, (True,) * 6, tuple("rrrttt"))


@pytest.mark.parametrize("name", [DOOR, SLIDING, "joined", "spherical", "prismatic", "welded"])
def test_hinge_operator_blocks_exactly_the_locked_motions_in_the_row_order(name):
    """Null space of the "hinge" form = the free relative motions; rotation rows (no w columns) come first."""
    kind = hinges.get(name)
    pat = simple.square_twist_folded(25.0)
    for h in range(len(pat.hinges)):
        t, m, n, mid, _, _ = hinge_geometry(pat, h)
        P = mid / pat.size
        C = kind.rows(t, m, n, P)
        assert C.shape == (kind.n_rows, 12) and np.linalg.matrix_rank(C) == kind.n_rows
        motions = relative_motions(t, m, n, P)
        for c, v in motions.items():
            assert (np.abs(C @ v).max() < 1e-12) == kind.frees(c), (name, c)
        rigid = np.r_[np.r_[m + n, 0.3 * t], np.r_[m + n, 0.3 * t]]   # both panels moving together
        assert np.abs(C @ rigid).max() < 1e-12
        is_rotation_row = np.all(C[:, 3:6] == 0, axis=1) & np.all(C[:, 9:12] == 0, axis=1)
        assert tuple(np.where(is_rotation_row, "r", "t")) == kind.hinge_row_kinds


@pytest.mark.parametrize("name", [DOOR, SLIDING, "joined", "spherical", "prismatic", "welded"])
def test_exact_fold_constraints_and_their_jacobian(name):
    """Central differences along exp(h v) g at an inconsistent state; at the reference state zero, and the
    operator's rows."""
    kind = hinges.get(name)
    pat = simple.square_twist_folded(25.0)
    t, m, n, mid, _, _ = hinge_geometry(pat, 3)
    P = (mid - pat.vertices.mean(0)) / pat.size
    rng = np.random.default_rng(5)
    R, u = exp_update(np.repeat(np.eye(3)[None], 2, 0), np.zeros((2, 3)), 0.3 * rng.standard_normal((2, 6)))
    F, J = kind.residual(R[0], u[0], R[1], u[1], (t, m, n), P)
    assert F.shape == (kind.n_rows,) and J.shape == (kind.n_rows, 12)
    h = 1e-6
    for _ in range(4):
        v = rng.standard_normal(12)
        Rp, up = exp_update(R, u, (h * v).reshape(2, 6))
        Rm, um = exp_update(R, u, (-h * v).reshape(2, 6))
        Fp = kind.residual(Rp[0], up[0], Rp[1], up[1], (t, m, n), P, jacobian=False)[0]
        Fm = kind.residual(Rm[0], um[0], Rm[1], um[1], (t, m, n), P, jacobian=False)[0]
        assert np.abs((Fp - Fm) / (2 * h) - J @ v).max() < 1e-8
    I, O = np.eye(3), np.zeros(3)
    F0, J0 = kind.residual(I, O, I, O, (t, m, n), P)
    assert np.abs(F0).max() == 0
    C = HAND_ROWS[name](t, m, n, P, t, m, n, P)
    np.testing.assert_array_equal(kind.rows(t, m, n, P), J0)
    if name in (DOOR, SLIDING):
        assert np.abs(J0 - C).max() < 1e-14          # the paper's eqs. (6), (4), row for row
    else:
        X = np.linalg.lstsq(C.T, J0.T, rcond=None)[0]   # the same rows up to a combination
        assert np.abs(C.T @ X - J0.T).max() < 1e-12 and np.linalg.matrix_rank(J0) == kind.n_rows


@pytest.mark.parametrize("kind, paper", [
    (DOOR, lambda m, n, A, B: op.slider_and_spherical(m, n, B, A, A)),        # eq. (15)
    (SLIDING, lambda m, n, A, B: op.double_point_slider(m, n, A, m, n, B)),   # eq. (13)
])
def test_points_form_composes_eqs_13_and_15(kind, paper):
    st = miura.miura_patch(2, 3, hinge_kind=kind)
    model = assemble(st, "points").Cs.toarray()
    pat = st.pattern
    x0, L = pat.vertices.mean(0), pat.size
    for h, rows in enumerate(assemble(st, "points").hinge_rows):
        t, m, n, mid, a, b = hinge_geometry(pat, h)
        C = paper(m, n, (a - x0) / L, (b - x0) / L)
        p, q = pat.hinges[h].panels
        ours = np.hstack([model[rows, 6 * p:6 * p + 6], model[rows, 6 * q:6 * q + 6]])
        assert sorted(map(tuple, np.round(ours, 12))) == sorted(map(tuple, np.round(C, 12)))


# ------------------------------------------------------------------ end to end with the test kinds
@pytest.mark.parametrize("name", ["spherical", "prismatic", "welded", DOOR, SLIDING, "joined"])
def test_counts_agree_with_the_maxwell_rule_using_the_kinds_rows(name):
    st = two_squares(name)
    rules = counting_rules(st)
    assert rules.maxwell == 12 - hinges.get(name).n_rows - sum(len(s.dofs) for s in st.supports) == 0
    forms = ["hinge"] + (["points"] if hinges.get(name).points else [])
    for form in forms:
        c = count(st, form)
        assert (c.M, c.S) == (0, 0) and c.M - c.S == rules.maxwell
    # one support less: as many mechanisms as it held directions, as the rule says
    fewer = Structure(st.pattern, st.hinge_kinds, supports=st.supports[:-1])
    c, k = count(fewer), len(st.supports[-1].dofs)
    assert (c.M, c.S) == (k, 0) and counting_rules(fewer).maxwell == k


def test_a_kind_without_a_point_form_says_so():
    with pytest.raises(StructureError, match="hinge 1: prismatic hinges have no point form; use form 'hinge'"):
        assemble(two_squares("prismatic"), "points")


def panel_resultants(structure, result):
    """Per panel: (force, moment about the origin) of loads, hinge actions and support reactions."""
    out = np.zeros((structure.pattern.n_panels, 6))
    for p, x, F in structure.panel_loads():
        out[p] += np.r_[F, np.cross(x, F)]
    for a in result.hinge_actions:
        out[a.panel] += np.r_[a.force, a.moment + np.cross(a.midpoint, a.force)]
    for r in result.support_reactions:
        x = structure.pattern.vertices[r.vertex]
        out[r.panel] += np.r_[r.force, np.cross(x, r.force)]
    return out


#: hinge-action columns (MT, MP, MO, N, TP, TO) that vanish because the kind frees their motion
FREE_COLUMNS = {"spherical": [0, 1, 2], "prismatic": [4], "welded": [], DOOR: [1], SLIDING: [1, 4]}


@pytest.mark.parametrize("name", ["spherical", "prismatic", "welded"])
def test_statics_with_a_new_kind_is_in_equilibrium(name):
    st = two_squares(name)
    forms = ["hinge"] + (["points"] if hinges.get(name).points else [])
    results = [solve(st, form=form) for form in forms]
    for r in results:
        assert r.status == "determined" and r.equilibrium_residual < 1e-12
        assert np.abs(panel_resultants(st, r)).max() < 1e-12
        V = np.array([a.values for a in r.hinge_actions])
        assert np.abs(V[:, FREE_COLUMNS[name]]).max(initial=0) < 1e-12    # nothing transmitted along free motions
        locked = [c for c in range(6) if c not in FREE_COLUMNS[name]]
        assert np.abs(V[:, locked]).max() > 0.05                           # and something along the locked ones
    for r in results[1:]:
        np.testing.assert_allclose([a.values for a in r.hinge_actions], [a.values for a in results[0].hinge_actions],
                                   atol=1e-12)


def test_fold_constraints_and_drives_follow_the_kind():
    sph, pri = two_squares("spherical"), two_squares("prismatic")
    C = FoldConstraints(FoldProblem(sph, [Drive(0, rate=0.3)], (), 2.0))
    assert C.rows[0] == ("hinge 1", 0, 3) and C.n_rows == 3 + 1 + 6
    rng = np.random.default_rng(3)
    R, u = exp_update(*C.start(), 0.2 * rng.standard_normal((2, 6)))
    F, J, _ = C.evaluate(R, u, 0.7)
    assert sp.isspmatrix_csr(J)
    h = 1e-6
    for _ in range(3):
        v = rng.standard_normal(12)
        Fp = C.evaluate(*exp_update(R, u, (h * v).reshape(-1, 6)), 0.7, False)[0]
        Fm = C.evaluate(*exp_update(R, u, (-h * v).reshape(-1, 6)), 0.7, False)[0]
        assert np.abs((Fp - Fm) / (2 * h) - J @ v).max() < 1e-8
    with pytest.raises(StructureError, match="hinge 1 is a prismatic hinge: its rotation about the hinge axis is "
                                             "locked, so it cannot be driven"):
        FoldProblem(pri, [Drive(0, rate=0.3)])
    with pytest.raises(StructureError, match="hinge 1 is a spherical hinge: its translation along"):
        FoldProblem(sph, [Drive(0, slide=0.3)])


def test_a_prismatic_hinge_folds_by_its_slide():
    """Panel 1 held, slide 0.3 along t = (0, 1, 0) (hinge 1 runs from vertex 2 to 5): panel 2 translates rigidly."""
    st = two_squares("prismatic", loaded=False)
    hist = fold(FoldProblem(st, [Drive(0, slide=0.3)], (), 1.0))
    X0, X1 = st.pattern.vertices, hist.final
    np.testing.assert_allclose(X1[[0, 3]], X0[[0, 3]], atol=1e-10)
    np.testing.assert_allclose(X1[[2, 5]], X0[[2, 5]] + [0, 0.3, 0], atol=1e-10)
    assert abs(hist.drive_values[-1][0] - 0.3) < 1e-10


def test_foldfile_keeps_the_kind_name(tmp_path):
    st = two_squares("spherical")
    path = tmp_path / "s.fold"
    foldfile.write_fold(st, str(path))
    assert foldfile.read_fold(str(path)).hinge_kinds == ("spherical",)


def test_figure_draws_the_kinds_style():
    from chrono_origami.report.figures import draw_structure

    st = two_squares("prismatic")
    fig = draw_structure(st)
    ax = fig.axes[0]
    hinge_lines = [ln for ln in ax.lines if ln.get_linestyle() == "-."]
    assert len(hinge_lines) == 1 and hinge_lines[0].get_color() == "tab:purple"
    assert ax.get_title() == "two squares (prismatic): prismatic hinges dash-dotted"
    import matplotlib.pyplot as plt

    plt.close(fig)


# ------------------------------------------------------------------ Chrono
@needs_chrono
@pytest.mark.parametrize("name", ["spherical", "prismatic", "welded"])
def test_chrono_counts_and_statics_of_a_new_kind_match_the_reference_engine(name):
    from chrono_origami.engines.chrono import static as ca
    from chrono_origami.engines.chrono import links as lk

    st = two_squares(name)
    ref = solve(st)
    kind = hinges.get(name)
    forms = ["mate", "lock"] + (["points"] if kind.points else [])
    for form in forms:
        c = ca.count(st, hinge_form=form)
        assert (c.M, c.S) == (0, 0) and c.n_constraints == kind.n_rows + sum(len(s.dofs) for s in st.supports)
        r = ca.static(st, hinge_form=form, use_tangent_stiffness=form != "lock")
        assert np.abs(panel_resultants(st, r)).max() < 1e-8
        np.testing.assert_allclose([a.values for a in r.hinge_actions], [a.values for a in ref.hinge_actions],
                                   atol=1e-8)
    assert lk.mate_class(kind).MASK == kind.mask and lk.mate_class(kind) is lk.mate_class(kind)
    assert lk.lock_class(kind).__name__ == name.capitalize() + "HingeLock"


@needs_chrono
def test_chrono_refuses_a_form_the_kind_lacks():
    from chrono_origami.engines.chrono import system as cs

    with pytest.raises(StructureError, match=r"hinge 1 \(prismatic\): prismatic hinges have no point form"):
        cs.build_system(two_squares("prismatic"), hinge_form="points", visual=False)
    nolock = HingeKind("nolock", ("x", "y"))                # no ChLinkLock frees exactly these
    hinges.register(nolock)
    try:
        with pytest.raises(StructureError, match="nolock hinges have no lock form"):
            cs.build_system(two_squares(DOOR).with_hinge_kinds(["nolock"]), hinge_form="lock", visual=False)
    finally:
        hinges.unregister("nolock")


@needs_chrono
def test_chrono_draws_the_kinds_glyph_and_every_glyph_exists():
    import pychrono as chrono

    from chrono_origami.engines.chrono import system as cs

    assert set(cs.GLYPHS) == set(styles.GLYPHS)
    b = cs.build_system(two_squares("spherical"), hinge_glyph=styles.chrono_glyph)
    vm = b.hinges[0].link.GetVisualModel()
    assert vm.GetNumShapes() == 1
    ball = chrono.CastToChVisualShapeSphere(vm.GetShape(0))
    assert ball is not None and np.isclose(ball.GetRadius(), 2 * 0.02 * b.pattern.size)
    c = vm.GetShape(0).GetColor()
    np.testing.assert_allclose((c.R, c.G, c.B), styles.style(SPHERICAL).color, atol=1e-6)
    assert b.hinges[0].link.GetName() == "hinge 1 (spherical)"


@needs_chrono
def test_viewer_title_counts_each_kind_in_its_colour():
    from chrono_origami.report import viewer

    assert viewer.hinge_legend(two_squares("spherical")) == "1 spherical hinge (green)"
    assert viewer.hinge_legend(miura.miura_strip(5)) == "1 door hinge (blue), 18 sliding hinges (red)"


@needs_chrono
@pytest.mark.parametrize("name, rotation, slide", [(DOOR, 2.0, 0.0), (SLIDING, 2.0, 5.0), ("spherical", 2.0, 0.0),
                                                  ("prismatic", 0.0, 5.0), ("welded", 0.0, 0.0)])
def test_crease_springs_act_on_the_kinds_free_motions(name, rotation, slide):
    from chrono_origami.engines.chrono import springs
    from chrono_origami.engines.chrono import system as cs

    b = cs.build_system(two_squares(name), visual=False)
    sp = springs.add_crease_springs(b, 2.0, slide_stiffness=5.0, damping=0.1)
    K = sp.loads[0].GetStiffnessMatrix()
    C = sp.loads[0].GetDampingMatrix()
    assert (K.GetItem(5, 5), K.GetItem(2, 2)) == (rotation, slide)
    assert C.GetItem(5, 5) == (0.1 if rotation else 0.0)
    assert sum(abs(K.GetItem(i, j)) for i in range(6) for j in range(6)) == rotation + slide
