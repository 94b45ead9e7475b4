"""Build a Chrono system from a :class:`~chrono_origami.structure.structure.Structure`.

One ``ChBody`` per panel ("panel 3"): reference frame at the centre of mass
with the global axes (so body-local components equal global ones in the
reference configuration), mass, centre of mass and inertia tensor of the thick
prism from :mod:`chrono_origami.structure.properties`, collisions off, and a visual
shape (the extruded polygon as a triangle mesh). A fixed ``ChBody`` "ground"
carries the supports.

Per hinge, links from :mod:`.links` ("hinge 12 (sliding)") for its kind
(``chrono_origami.structure.hinges``), by ``hinge_form``:

* ``"mate"``: :func:`~.links.mate_class` (:class:`~.links.DoorHinge`,
  :class:`~.links.SlidingHinge`, ...);
* ``"lock"``: :func:`~.links.lock_class` (:class:`~.links.DoorHingeLock`,
  :class:`~.links.SlidingHingeLock`, ...);
* ``"points"`` (paper sec. 3.3, as in ``engines.reference.model`` form "points"): the
  kind's point constraints, a :class:`~.links.SphericalHinge` or a
  :class:`~.links.PointSlider` each; door = spherical hinge at a + point
  slider (b of p on the axis of q); sliding = two point sliders (a of q on
  the axis of p, b of p on the axis of q).

With ``hinge_glyph`` (a function of the kind giving (glyph, RGB); the
report's ``styles.chrono_glyph`` for the viewer) each hinge link carries a
glyph of :data:`GLYPHS` in its kind's colour (door hinges a blue barrel,
sliding hinges a red rod with a sleeve).

Per support, a :class:`~.links.VertexSupport` between the panel and the
ground ("support 2 at vertex 7 (xz)"). Loads are ``ChForce`` dead loads: a
fixed global direction applied at a point fixed on the panel (shared loads
split as ``Structure.panel_loads`` does). Gravity is Chrono's own
(``SetGravitationalAcceleration``) acting on the panel masses.

Panels without mass (thickness or density zero) get a nominal mass (a prism of
unit density and thickness 1e-2 L, L the pattern size), needed only by the
M-weighted assembly; under gravity a ``ChForce`` at the centre of mass
cancels their nominal weight, so the loads are exactly the structure's.
"""
from dataclasses import dataclass, field, replace

import numpy as np
import pychrono as chrono

from ...structure.properties import panels_mass_properties, structure_mass_properties
from ...structure.structure import Structure
from ...tools.errors import StructureError
from ...tools.geometry import best_rigid_alignment, panel_frame
from ...tools.progress import Stages
from . import links as lk
from .links import arr, chframe, vec

HINGE_FORMS = ("mate", "lock", "points")
#: iterative VI solvers, which refuse stiffness blocks such as Kc
_VI_SOLVERS = {getattr(chrono.ChSolver, "Type_" + n): n for n in
               ("PSOR", "PSSOR", "PJACOBI", "BARZILAIBORWEIN", "APGD") if hasattr(chrono.ChSolver, "Type_" + n)}
#: nominal thickness of massless panels (fraction of the pattern size), for the assembly mass matrix only
NOMINAL_THICKNESS = 1e-2

PANEL_COLOR = (0.80, 0.72, 0.55)
SUPPORT_COLOR = (0.10, 0.60, 0.20)


@dataclass
class HingeLinks:
    """The Chrono links of one hinge and, for each, which side (1 or 2) is the hinge's second panel q."""

    hinge: int
    kind: str
    links: list
    q_sides: list

    @property
    def link(self):
        """The single link of a mate or lock hinge."""
        if len(self.links) != 1:
            raise AttributeError(f"hinge {self.hinge + 1} is made of {len(self.links)} point links; use .links")
        return self.links[0]


@dataclass
class ChronoStructure:
    """Handles of a structure built in a Chrono system (0-based lists, like the structure's indices)."""

    structure: object
    system: object
    ground: object
    bodies: list                # ChBody per panel
    hinges: list                # HingeLinks per hinge
    supports: list              # VertexSupport per structure support
    loads: list = field(default_factory=list)      # (panel, ChForce)
    anchor: object = None       # AnchorLink (unsupported structures, analysis only)
    hinge_form: str = "mate"
    nominal_mass: list = field(default_factory=list)   # True where the panel mass is nominal
    com: np.ndarray = None      # reference centres of mass (P x 3)
    panel_shapes: list = field(default_factory=list)   # visual mesh per panel (visual=True)
    hinge_shapes: list = field(default_factory=list)   # visual shapes per hinge (visual=True with hinge_glyph)

    @property
    def pattern(self):
        return self.structure.pattern

    def structure_links(self):
        """All hinge and support links (not the anchor), in hinge then support order."""
        return [l for hl in self.hinges for l in hl.links] + list(self.supports)

    def set_tangent_stiffness(self, use_kc):
        """Switch Kc on or off for every mate link of the structure, the anchor included (:func:`.links.set_tangent_stiffness`)."""
        lk.set_tangent_stiffness(self.structure_links() + ([self.anchor] if self.anchor is not None else []), use_kc)

    def panel_rotation(self, p):
        """Rotation of panel p from its reference orientation (3x3)."""
        return lk.rotation(self.bodies[p])

    def material_point(self, p, x_ref):
        """Current position of the point of panel p that was at ``x_ref`` in the reference configuration."""
        return arr(self.bodies[p].GetPos()) + self.panel_rotation(p) @ (np.asarray(x_ref, float) - self.com[p])

    def set_configuration(self, vertices):
        """Pose every panel rigidly so that its vertices are at ``vertices`` (V x 3, a configuration of the pattern).

        Each body gets the best rigid motion (Kabsch) of its panel's reference
        vertices onto ``vertices``, zero velocity; the system is then updated
        (link frames, visual shapes). Returns the largest vertex misfit.
        """
        X = np.asarray(vertices, float)
        pat = self.pattern
        if X.shape != pat.vertices.shape:
            raise StructureError(f"a configuration of {self.structure.name} needs {pat.n_vertices} x 3 vertex "
                                 f"coordinates, got shape {X.shape}")
        worst = 0.0
        for p, body in enumerate(self.bodies):
            loop = list(pat.panels[p])
            R, d = best_rigid_alignment(pat.vertices[loop], X[loop])
            worst = max(worst, float(np.abs(pat.vertices[loop] @ R.T + d - X[loop]).max()))
            body.SetPos(vec(R @ self.com[p] + d))
            body.SetRot(lk.mat33(R).GetQuaternion())
            body.SetPosDt(chrono.VNULL)
            body.SetAngVelParent(chrono.VNULL)
        self.system.Update()
        return worst

    def by_name(self):
        """dict name -> Chrono object (bodies and links)."""
        out = {b.GetName(): b for b in self.bodies}
        out.update({l.GetName(): l for l in self.structure_links()})
        out[self.ground.GetName()] = self.ground
        return out


def _color(c):
    return chrono.ChColor(*[float(x) for x in c])


def _triangulate(xy):
    """Ear-clipping triangulation of a simple polygon (counter-clockwise), list of index triples."""
    idx = list(range(len(xy)))
    tris = []

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    guard = 0
    while len(idx) > 3 and guard < 10 * len(xy) ** 2:
        guard += 1
        n = len(idx)
        for k in range(n):
            i0, i1, i2 = idx[k - 1], idx[k], idx[(k + 1) % n]
            a, b, c = xy[i0], xy[i1], xy[i2]
            if cross(a, b, c) <= 0:
                continue
            inside = False
            for j in idx:
                if j in (i0, i1, i2):
                    continue
                p = xy[j]
                if cross(a, b, p) >= 0 and cross(b, c, p) >= 0 and cross(c, a, p) >= 0:
                    inside = True
                    break
            if not inside:
                tris.append((i0, i1, i2))
                idx.pop(k)
                break
        else:
            break
    if len(idx) == 3:
        tris.append(tuple(idx))
    return tris


def panel_mesh_shape(points, thickness, com, color=PANEL_COLOR):
    """``ChVisualShapeTriangleMesh`` of the prism on ``points`` (mid-surface), in coordinates relative to ``com``."""
    P = np.asarray(points, float)
    F = panel_frame(P)
    m = F[:, 2]
    xy = (P - P[0]) @ F[:, :2]
    tris = _triangulate(xy)
    top = P + 0.5 * thickness * m - com
    bot = P - 0.5 * thickness * m - com
    shape = chrono.ChVisualShapeTriangleMesh()
    mesh = shape.GetMesh()
    for i, j, k in tris:
        mesh.AddTriangle(vec(top[i]), vec(top[j]), vec(top[k]))
        mesh.AddTriangle(vec(bot[i]), vec(bot[k]), vec(bot[j]))
    n = len(P)
    for i in range(n):
        j = (i + 1) % n
        mesh.AddTriangle(vec(bot[i]), vec(bot[j]), vec(top[j]))
        mesh.AddTriangle(vec(bot[i]), vec(top[j]), vec(top[i]))
    shape.SetColor(_color(color))
    return shape


def solid_mesh_shape(polygons, com, color=PANEL_COLOR):
    """``ChVisualShapeTriangleMesh`` of a convex solid given by its faces (``polygons``: counter-clockwise loops
    of points seen from outside, ``structure.solids.PanelSolids.polygons``), in coordinates relative to ``com``."""
    shape = chrono.ChVisualShapeTriangleMesh()
    mesh = shape.GetMesh()
    for P in polygons:
        P = np.asarray(P, float) - com
        for k in range(1, len(P) - 1):
            mesh.AddTriangle(vec(P[0]), vec(P[k]), vec(P[k + 1]))
    shape.SetColor(_color(color))
    return shape


#: hinge glyphs (``report.styles.GLYPHS``): visual shapes for a hinge of length l and radius r, centred on the midpoint,
#: Z along the axis
GLYPHS = {
    "barrel": lambda l, r: [chrono.ChVisualShapeCylinder(r, 0.9 * l)],                       # a thick cylinder
    "rod": lambda l, r: [chrono.ChVisualShapeCylinder(0.5 * r, l),                           # a thin rod
                         chrono.ChVisualShapeBox(2.2 * r, 2.2 * r, 0.3 * l)],                # with a sleeve
    "ball": lambda l, r: [chrono.ChVisualShapeSphere(2.0 * r)],                              # a sphere
}


def _hinge_shape(glyph, color, length, radius):
    """The visual shapes of ``glyph`` (a name of :data:`GLYPHS`) in ``color`` (RGB, 0-1)."""
    if glyph not in GLYPHS:
        raise StructureError(f"hinge glyph {glyph!r}; expected one of {tuple(GLYPHS)}")
    shapes = GLYPHS[glyph](length, radius)
    for shape in shapes:
        shape.SetColor(_color(color))
    return shapes


def _point_links(kind, name, bodies, p, q, places, vertex_names, R, kc):
    """[(link, side of q)] of a hinge of ``kind`` in the point form; ``places``: "a", "b", "mid" -> point."""
    if kind.points is None:
        raise StructureError(f"{name}: {kind.name} hinges have no point form; use hinge_form 'mate' or 'lock'")
    items = []
    for c in kind.points:
        x = places[c.at]
        if c.type == "spherical":
            link = lk.SphericalHinge(kc, f"{name} spherical at {vertex_names[c.at]}")
            link.Initialize(bodies[p], bodies[q], chframe(x, R))
            items.append((link, 2))
        else:
            carrier, line = (p, q) if c.body == "p" else (q, p)
            link = lk.PointSlider(kc, f"{name} slider: {vertex_names[c.at]} of panel {carrier + 1} on panel {line + 1}")
            link.Initialize(bodies[carrier], bodies[line], chframe(x, R))
            items.append((link, 2 if carrier == p else 1))
    return items


def build_system(structure, system=None, hinge_form="mate", use_tangent_stiffness=True, ground=None,
                 visual=True, anchor=False, hinges=True, hinge_glyph=None):
    """Build ``structure`` into ``system`` (a new ``ChSystemNSC`` by default) and return a :class:`ChronoStructure`.

    ``ground``: an existing fixed body to attach the supports to (default: a
    new fixed body "ground"). ``anchor``: also weld panel 1 to the ground
    (only for the static analysis of unsupported structures). ``hinges``:
    False builds no hinge links (``chrono.tolerance`` puts elastic bushings there).
    ``visual``: panel and support shapes; with ``hinge_glyph`` (kind -> (glyph,
    RGB), e.g. ``chrono_origami.report.styles.chrono_glyph``) also a glyph per hinge.
    In an existing system, the structure's gravity (if any) must equal the
    system's.
    """
    if not isinstance(structure, Structure):
        raise StructureError(f"build_system expects a chrono_origami Structure, got {type(structure).__name__}")
    if hinge_form not in HINGE_FORMS:
        raise StructureError(f"unknown hinge_form {hinge_form!r}; expected one of {HINGE_FORMS}")
    pat = structure.pattern
    L = pat.size or 1.0
    new_system = system is None
    if new_system:
        system = chrono.ChSystemNSC()
        g = np.zeros(3) if structure.gravity is None else np.asarray(structure.gravity, float)
        system.SetGravitationalAcceleration(vec(g))
        # Kc adds stiffness blocks, which the default iterative VI solver (PSOR) refuses
        system.SetSolver(chrono.ChSolverSparseQR())
    else:
        solver_type = system.GetSolver().GetType()
        if use_tangent_stiffness and hinge_form != "lock" and solver_type in _VI_SOLVERS:
            raise StructureError(
                f"{structure.name}: the system's solver ({_VI_SOLVERS[solver_type]}) cannot handle the constraint "
                "tangent stiffness Kc; set a direct solver (system.SetSolver(chrono.ChSolverSparseQR())) or pass "
                "use_tangent_stiffness=False")
        g = arr(system.GetGravitationalAcceleration())
        if structure.gravity is not None and not np.allclose(g, structure.gravity, rtol=1e-12, atol=0):
            raise StructureError(f"{structure.name}: the structure's gravity {tuple(structure.gravity)} differs from "
                                 f"the system's gravitational acceleration {tuple(g)}")
        if structure.gravity is None and np.any(g != 0):
            massive = int(np.count_nonzero(structure_mass_properties(structure)[0] > 0))
            if massive:
                gs = tuple(float(x) for x in g)
                raise StructureError(f"{structure.name}: the structure's gravity is None but the system's "
                                     f"gravitational acceleration is {gs} and {massive} of {pat.n_panels} panels "
                                     f"have mass; give the structure gravity={gs} or set the system's to zero")
    if ground is None:
        ground = chrono.ChBody()
        ground.SetName("ground")
        ground.SetFixed(True)
        ground.EnableCollision(False)
        system.AddBody(ground)
    elif not ground.IsFixed():
        raise StructureError("the ground body passed to build_system must be fixed (SetFixed(True))")

    bodies, nominal, coms, panel_shapes, hinge_shapes = [], [], [], [], []
    stage = Stages("building the Chrono system")
    masses, centres, inertias = structure_mass_properties(structure)
    solid_faces = {}
    if visual and structure.placement is not None and any(structure.thickness):
        from ...structure.solids import PanelSolids

        for q, P in PanelSolids(structure).polygons(pat.vertices):
            solid_faces.setdefault(q, []).append(P)
    light = ~(masses > 0)
    if light.any():
        nominal_props = panels_mass_properties(pat, NOMINAL_THICKNESS * L, 1.0)
    for p in range(pat.n_panels):
        if p % 1000 == 0:
            stage(f"panel {p + 1} of {pat.n_panels}")
        h = structure.thickness[p]
        mass, com, J = masses[p], centres[p], inertias[p]
        is_nominal = bool(light[p])
        if is_nominal:
            mass, J = nominal_props[0][p], nominal_props[2][p]
        body = chrono.ChBody()
        body.SetName(f"panel {p + 1}")
        body.SetMass(float(mass))
        body.SetInertia(_inertia(J))
        body.SetPos(vec(com))
        body.SetRot(chrono.QUNIT)
        body.EnableCollision(False)
        if visual:
            shape = solid_mesh_shape(solid_faces[p], com) if p in solid_faces else \
                panel_mesh_shape(pat.panel_points(p), max(h, 2e-3 * L), com)
            body.AddVisualShape(shape)
            panel_shapes.append(shape)
        system.AddBody(body)
        if is_nominal and np.any(g != 0):
            f = chrono.ChForce()
            body.AddForce(f)
            _set_dead_load(f, np.zeros(3), -mass * g)
            f.SetName(f"panel {p + 1} nominal-weight cancel")
        bodies.append(body)
        nominal.append(is_nominal)
        coms.append(com)
    coms = np.array(coms)

    hinge_links = []
    X = pat.vertices
    mids, frames = lk.hinge_link_frames(pat) if hinges else (None, None)
    for h, kind in enumerate(structure.kinds if hinges else ()):
        if h % 1000 == 0:
            stage(f"hinge {h + 1} of {len(pat.hinges)}")
        hinge = pat.hinges[h]
        a, b = hinge.vertices
        p, q = hinge.panels
        mid, R = mids[h], frames[h]
        name = f"hinge {h + 1} ({kind.name})"
        kc = use_tangent_stiffness
        if hinge_form == "points":
            items = _point_links(kind, name, bodies, p, q, {"a": X[a], "b": X[b], "mid": mid},
                                 {"a": f"vertex {a + 1}", "b": f"vertex {b + 1}", "mid": "the midpoint"}, R, kc)
        else:
            link = lk.mate_class(kind)(kc, name) if hinge_form == "mate" else lk.lock_class(kind)(name)
            link.Initialize(bodies[p], bodies[q], chframe(mid, R))
            if link.GetNumConstraints() != kind.n_rows:
                raise StructureError(f"{name}: its {type(link).__name__} link has {link.GetNumConstraints()} "
                                     f"constraints, the kind {kind.n_rows} rows")
            items = [(link, 2)]
        for link, _ in items:
            system.AddLink(link)
        if visual and hinge_glyph is not None:
            first, _ = items[0]
            f2 = first.GetFrame2Abs()   # keep the frame alive: GetPos() returns a reference into it
            o = arr(f2.GetPos())
            offset = R.T @ (mid - o)
            length = float(np.linalg.norm(X[b] - X[a]))
            shapes = _hinge_shape(*hinge_glyph(kind), length, 0.02 * L)
            for shape in shapes:
                first.AddVisualShape(shape, chframe(offset))
            hinge_shapes.append(shapes)
        hinge_links.append(HingeLinks(h, kind.name, [it[0] for it in items], [it[1] for it in items]))

    stage.close()
    supports = []
    for k, s in enumerate(structure.supports):
        link = lk.VertexSupport(s.dofs, use_tangent_stiffness,
                                f"support {k + 1} at vertex {s.vertex + 1} of panel {s.panel + 1} ({s.dofs})")
        link.Initialize(bodies[s.panel], ground, chframe(X[s.vertex]))
        if visual:
            sph = chrono.ChVisualShapeSphere(0.03 * L)
            sph.SetColor(_color(SUPPORT_COLOR))
            link.AddVisualShape(sph, chrono.ChFramed())
        system.AddLink(link)
        supports.append(link)

    loads = []
    for k, (p, x, F) in enumerate(replace(structure, gravity=None).panel_loads()):
        F = np.asarray(F, float)
        if not np.any(F):
            continue
        f = chrono.ChForce()
        bodies[p].AddForce(f)
        _set_dead_load(f, np.asarray(x, float) - coms[p], F)
        f.SetName(f"load {k + 1} on panel {p + 1}")
        loads.append((p, f))

    anchor_link = None
    if anchor:
        anchor_link = lk.AnchorLink(use_tangent_stiffness, "anchor (rigid-body motions)")
        anchor_link.Initialize(bodies[0], ground, chframe(coms[0]))
        system.AddLink(anchor_link)

    return ChronoStructure(structure, system, ground, bodies, hinge_links, supports, loads, anchor_link, hinge_form,
                           nominal, coms, panel_shapes, hinge_shapes)


def _inertia(J):
    M = chrono.ChMatrix33d()
    M.SetMatr([[float(J[i][j]) for j in range(3)] for i in range(3)])
    return M


def _set_dead_load(f, rel_point, force):
    """``ChForce`` of fixed global direction at a point fixed on the body (``rel_point`` from the COM, reference axes)."""
    f.SetMode(chrono.ChForce.FORCE)
    f.SetFrame(chrono.ChForce.BODY)
    f.SetAlign(chrono.ChForce.WORLD_DIR)
    f.SetVrelpoint(vec(rel_point))
    mag = float(np.linalg.norm(force))
    f.SetDir(vec(force / mag) if mag > 0 else chrono.ChVector3d(1, 0, 0))
    f.SetMforce(mag)
