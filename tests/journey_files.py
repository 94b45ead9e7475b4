"""Crease-pattern files as other tools write them, made here from closed forms (never by chrono_origami).

Every file of the journeys (tests/test_journeys.py) is written by a function of this module, from geometry and
fold angles computed here with numpy alone: nothing of chrono_origami is imported, so a journey tests the
reader, the fold, the supports, the design and the statics against numbers that did not come from them.

Styles
------
* Origami Simulator SVG (``miura_svg``, ``square_twist_svg``): Illustrator's export as in Origami Simulator's
  own examples (``assets/Tessellations/miura-ori.svg``): one ``<path>`` per colour with relative ``l``/``h``/``v``
  segments, coordinates with 3 decimals (so vertices miss Kawasaki's condition by ~1e-5 rad), y down, black
  boundary, red mountain, blue valley, the target angle as ``opacity`` (or ``stroke-opacity``) x 180 degrees.
* FOLD example (``waterbomb_fold``): the FOLD spec's own style, ``file_spec``, ``file_creator``,
  ``file_author``, ``frame_title``, ``frame_classes``, ``edges_foldAngle``, and a second frame in
  ``file_frames`` (a folded form inheriting the crease pattern).
* faceless editor file (``yoshimura_editor``): ``vertices_coords`` (2-D), ``edges_vertices``,
  ``edges_assignment``, ``edges_foldAngle``; no faces, flat.
* Origami Simulator FOLD export (``simulator_export``): js/saveFOLD.js's keys, ``file_creator`` "Origami
  Simulator: ...", the sheet in the y = 0 plane (x, 0, z), yellow "F" lines splitting each quadrilateral panel
  into two triangles, null ``edges_foldAngle`` on boundary and facet lines, polygons as faces.

Conventions
-----------
Fold angles are FOLD's: degrees, positive for a valley (the faces' front sides, +z of the flat sheet, turn
toward each other), negative for a mountain. A single vertex closes when the product of the rotations about its
creases (flat directions u_k, counter-clockwise, angle rho_k) is the identity (:func:`closure`): panel k, on the
counter-clockwise side of crease k, turns by +rho_k about u_k, which lifts it off the sheet toward +z: a valley.
"""
import json

import numpy as np

OS_CREATOR = "Origami Simulator: http://git.amandaghassaei.com/OrigamiSimulator/"
COLOURS = {"B": "#000000", "M": "#FF0000", "V": "#0000FF", "F": "#FFFF00", "U": "#FF00FF"}
#: colours other editors write: Illustrator's rich black, a crimson mountain, a light blue valley
NEAR_COLOURS = {"B": "#231F20", "M": "#EE1032", "V": "#4379FF", "F": "#F2E20D", "U": "#E62EDC"}
CLASS_NAMES = {"B": "boundary", "M": "mountain", "V": "valley", "F": "flat", "U": "unassigned"}


# ------------------------------------------------------------------ single-vertex kinematics (checks)
def rotation(u, angle):
    """The rotation by ``angle`` (rad, right hand) about the axis ``u``."""
    u = np.asarray(u, float) / np.linalg.norm(u)
    K = np.array([[0.0, -u[2], u[1]], [u[2], 0.0, -u[0]], [-u[1], u[0], 0.0]])
    return np.eye(3) + np.sin(angle) * K + (1.0 - np.cos(angle)) * K @ K


def closure(directions, angles):
    """The loop product of a flat vertex's crease rotations (module doc): the identity when it folds rigidly.

    ``directions``: the creases' angles in the plane (rad, counter-clockwise order); ``angles``: FOLD angles (rad).
    """
    Q = np.eye(3)
    n = len(directions)
    for k in list(range(1, n)) + [0]:
        Q = Q @ rotation([np.cos(directions[k]), np.sin(directions[k]), 0.0], angles[k])
    return Q


def vertex_misses(X, edges, angles_deg):
    """The largest |closure - I| over the interior vertices of a flat pattern (``X`` n x 2) with these angles."""
    worst = 0.0
    around = {}
    for (a, b), t in zip(edges, angles_deg):
        if t is None:
            continue
        around.setdefault(a, []).append((b, t))
        around.setdefault(b, []).append((a, t))
    for v, nb in around.items():
        d = [np.arctan2(X[w][1] - X[v][1], X[w][0] - X[v][0]) for w, _ in nb]
        order = np.argsort(d)
        if len(nb) < 3:
            continue
        worst = max(worst, float(np.abs(closure([d[k] for k in order],
                                                [np.radians(nb[k][1]) for k in order]) - np.eye(3)).max()))
    return worst


# ------------------------------------------------------------------ Miura-ori
def miura_flat(nx, ny, width=80.0, height=92.0, shift=40.0):
    """A flat Miura-ori of ``nx`` x ``ny`` panels as Origami Simulator's ``miura-ori.svg`` draws it.

    Vertex (i, j) of the zig-zag columns (i = 1 .. nx-1; rows j = 0 .. ny) is at x = i width + shift (j odd),
    y = j height; the sheet's left and right sides are straight (x = 0 and nx width + shift / 2), so the
    panels of the first and last columns are trapezoids. Returns (X n x 2, edges, letters, angles in degrees at
    100 %) with the zig-zag creases at +-``zigzag_deg`` (a column's letter alternates with the column) and the
    straight creases at +-rho_h, tan(rho_h / 2) = cos(gamma) tan(rho_z / 2), gamma the sector angle
    atan(height / shift) (checked by :func:`closure`).
    """
    return _miura(nx, ny, width, height, shift, 90.0)


def _miura(nx, ny, width, height, shift, zigzag_deg):
    left, right = 0.0, nx * width + shift / 2
    index = {}
    X = []

    def vertex(key, x, y):
        if key not in index:
            index[key] = len(X)
            X.append((x, y))
        return index[key]

    gamma = np.arctan2(height, shift)
    rz = np.radians(zigzag_deg)
    rh = 2 * np.arctan(np.cos(gamma) * np.tan(rz / 2))
    edges, letters, angles = [], [], []

    def edge(a, b, letter, angle):
        edges.append((a, b))
        letters.append(letter)
        angles.append(None if letter == "B" else float(np.degrees(angle)))

    col = lambda i, j: vertex(("c", i, j), i * width + shift * (j % 2), j * height)   # noqa: E731
    side = lambda s, j: vertex((s, j), left if s == "L" else right, j * height)       # noqa: E731
    sigma = lambda i: 1.0 if i % 2 else -1.0      # column i's zig-zag: valley for odd i   # noqa: E731
    for j in range(ny + 1):
        pts = [side("L", j)] + [col(i, j) for i in range(1, nx)] + [side("R", j)]
        for k in range(len(pts) - 1):
            if j in (0, ny):
                edge(pts[k], pts[k + 1], "B", 0.0)
                continue
            # the straight crease right of column k (k >= 1) or left of column k + 1: its sign from that vertex
            tau = 1.0 if j % 2 else -1.0
            s = sigma(k) * tau if k >= 1 else -sigma(k + 1) * tau
            edge(pts[k], pts[k + 1], "V" if s > 0 else "M", s * rh)
    for j in range(ny):
        edge(side("L", j), side("L", j + 1), "B", 0.0)
        edge(side("R", j), side("R", j + 1), "B", 0.0)
        for i in range(1, nx):
            edge(col(i, j), col(i, j + 1), "V" if sigma(i) > 0 else "M", sigma(i) * rz)
    return np.array(X), edges, letters, angles


def miura_svg(path, nx=4, ny=2, zigzag_deg=90.0, digits=3, opacity_digits=4, width=80.0, height=92.0,
              gamma_deg=65.0, offset=(10.875, 8.643), stroke_opacity=False, colours=None, mark=None):
    """Write a flat Miura-ori (:func:`miura_flat`, sector angle ``gamma_deg`` between the zig-zag and the straight
    creases) as Origami Simulator's Illustrator SVGs are written: coordinates rounded to ``digits`` decimals,
    opacities to ``opacity_digits``. Returns (path, X as drawn and read back in FOLD's (x, -y), edges, letters,
    angles as written: |angle| = opacity x 180).

    Other editors' styles: ``colours`` (letter -> stroke colour, e.g. :data:`NEAR_COLOURS`) replaces
    Origami Simulator's; ``mark`` "class" writes each path with ``class="mountain"`` (``valley``,
    ``boundary``) and a grey stroke from a ``<style>`` sheet, "data-assignment" with FOLD's letter in
    ``data-assignment`` and a grey stroke."""
    colours = COLOURS if colours is None else colours
    shift = height / np.tan(np.radians(gamma_deg))
    X, edges, letters, angles = _miura(nx, ny, width, height, shift, zigzag_deg)
    top = X[:, 1].max()
    P = np.column_stack([X[:, 0] + offset[0], top - X[:, 1] + offset[1]])      # y down
    P = np.round(P, digits)
    written = []
    groups = {}
    for (a, b), letter, angle in zip(edges, letters, angles):
        op = None if angle is None else round(abs(angle) / 180.0, opacity_digits)
        written.append(None if op is None else (1 if letter == "V" else -1) * op * 180.0)
        groups.setdefault((letter, op), []).append((a, b))
    fmt = lambda v: f"{v:.{digits}f}".rstrip("0").rstrip(".")   # noqa: E731  (Illustrator drops trailing zeros)
    out = ['<?xml version="1.0" encoding="utf-8"?>',
           '<!-- Generator: Adobe Illustrator 16.0.3, SVG Export Plug-In . SVG Version: 6.00 Build 0)  -->',
           '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">',
           f'<svg version="1.1" id="Layer_1" xmlns="http://www.w3.org/2000/svg" '
           f'xmlns:xlink="http://www.w3.org/1999/xlink" x="0px" y="0px" width="{fmt(P[:, 0].max() + offset[0])}px" '
           f'height="{fmt(P[:, 1].max() + offset[1])}px" xml:space="preserve">']
    if mark == "class":
        out.append("<style>.mountain, .valley, .boundary { stroke: #7f7f7f; stroke-width: 2 }</style>")
    for (letter, op), segs in groups.items():
        d = []
        for a, b in segs:
            dx, dy = P[b] - P[a]
            rel = f"h{fmt(dx)}" if abs(dy) < 1e-12 else f"v{fmt(dy)}" if abs(dx) < 1e-12 else \
                f"l{fmt(dx)}{'' if dy < 0 else ','}{fmt(dy)}"
            d.append(f"M{fmt(P[a, 0])},{fmt(P[a, 1])}{rel}")
        alpha = "" if op is None else f' stroke-opacity="{op!r}"' if stroke_opacity else f' opacity="{op!r}"'
        fill = "#000080" if letter == "V" else colours[letter] if letter != "B" else "none"
        paint = f'class="{CLASS_NAMES[letter]}"' if mark == "class" else \
            f'data-assignment="{letter}" stroke="#7f7f7f"' if mark == "data-assignment" else \
            f'stroke="{colours[letter]}"'
        out.append(f'<path fill="{fill}" {paint} stroke-width="4"{alpha} d="'
                   + "\n\t ".join(" ".join(d[k:k + 6]) for k in range(0, len(d), 6)) + '"/>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    read = np.column_stack([P[:, 0], -P[:, 1]])
    return path, read, edges, letters, written


# ------------------------------------------------------------------ square twist (Origami Simulator SVG)
def square_twist_flat(side=100.0, pleat=80.0, twist_deg=30.0):
    """The square twist of Origami Simulator's ``singlesquaretwist.svg``: a central square (its edges valleys),
    and at each corner two pleat lines of length ``pleat``, turned by ``twist_deg`` from the square's edge
    directions (the mountain at 90 + twist from the corner's first edge, the valley at 180 + twist), the sheet
    the octagon of their ends. Kawasaki holds at the four vertices (sectors 90, twist, 90, 180 - twist); with all
    four central edges valleys the twist has no rigid fold (the classic square twist folds only with bending).
    Returns (X n x 2, edges, letters)."""
    r = side / np.sqrt(2)
    C = [r * np.array([np.cos(np.pi / 4 + k * np.pi / 2), np.sin(np.pi / 4 + k * np.pi / 2)]) for k in range(4)]
    X = [tuple(c) for c in C]
    edges = [(k, (k + 1) % 4) for k in range(4)]
    letters = ["V"] * 4
    theta = np.radians(twist_deg)
    ends = []
    for k in range(4):
        d = C[(k + 1) % 4] - C[k]
        phi = np.arctan2(d[1], d[0])
        for angle, letter in ((phi + np.pi / 2 + theta, "M"), (phi + np.pi + theta, "V")):
            X.append(tuple(C[k] + pleat * np.array([np.cos(angle), np.sin(angle)])))
            edges.append((k, len(X) - 1))
            letters.append(letter)
            ends.append(len(X) - 1)
    for a, b in zip(ends, ends[1:] + ends[:1]):
        edges.append((a, b))
        letters.append("B")
    return np.array(X), edges, letters


def square_twist_svg(path, side=100.0, pleat=80.0, twist_deg=30.0, digits=3, offset=(200.0, 200.0)):
    """Write :func:`square_twist_flat` as Illustrator writes Origami Simulator's ``singlesquaretwist.svg``: a
    white background ``rect``, one path per colour of ``M x,y l dx,dy`` segments, no opacity (targets +-180),
    coordinates with ``digits`` decimals, y down. Returns (path, X read back in FOLD's (x, -y), edges, letters)."""
    X, edges, letters = square_twist_flat(side, pleat, twist_deg)
    P = np.round(np.column_stack([X[:, 0] + offset[0], offset[1] - X[:, 1]]), digits)
    fmt = lambda v: f"{v:.{digits}f}".rstrip("0").rstrip(".")   # noqa: E731
    size = fmt(2 * max(offset))
    out = ['<?xml version="1.0" encoding="utf-8"?>',
           '<!-- Generator: Adobe Illustrator 16.0.3, SVG Export Plug-In . SVG Version: 6.00 Build 0)  -->',
           f'<svg version="1.1" id="Layer_1" xmlns="http://www.w3.org/2000/svg" x="0px" y="0px" '
           f'width="{size}px" height="{size}px" viewBox="0 0 {size} {size}" xml:space="preserve">',
           f'<rect fill="#FFFFFF" width="{size}" height="{size}"/>']
    for letter in ("V", "B", "M"):
        d = " ".join(f"M{fmt(P[a, 0])},{fmt(P[a, 1])}l{fmt(P[b, 0] - P[a, 0])},{fmt(P[b, 1] - P[a, 1])}"
                     for (a, b), x in zip(edges, letters) if x == letter)
        out.append(f'<path fill="none" stroke="{COLOURS[letter]}" stroke-linecap="round" stroke-miterlimit="10" '
                   f'd="{d}"/>')
    out.append(f'<rect fill="none" width="{size}" height="{size}"/>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    return path, np.column_stack([P[:, 0], -P[:, 1]]), edges, letters


# ------------------------------------------------------------------ waterbomb base (FOLD example, two frames)
def waterbomb_angles(diagonal_deg):
    """(diagonal, midline) FOLD angles (deg) of the waterbomb base's symmetric rigid fold: the four diagonals
    mountains at ``diagonal_deg`` (< 0), the four midlines valleys. By symmetry the diagonal and its two
    neighbouring midlines' panels stay mirror images; the midline angle is found by bisection on the closure."""
    d = np.radians(diagonal_deg)
    dirs = [k * np.pi / 4 for k in range(8)]        # midlines at k even, diagonals at k odd

    def miss(m):
        Q = closure(dirs, [m if k % 2 == 0 else d for k in range(8)])
        return Q[2, 2] - 1.0 + (Q[0, 0] - 1.0)

    lo, hi = 1e-9, np.pi
    # the closure is exact on the symmetric branch at one midline angle in (0, pi): a sign change of Q's
    # off-diagonal term
    f = lambda m: closure(dirs, [m if k % 2 == 0 else d for k in range(8)])[0, 2]   # noqa: E731
    ms = np.linspace(lo, hi, 2001)
    vals = [f(m) for m in ms]
    for k in range(len(ms) - 1):
        if vals[k] == 0 or vals[k] * vals[k + 1] < 0:
            a, b = ms[k], ms[k + 1]
            for _ in range(200):
                c = 0.5 * (a + b)
                if f(a) * f(c) <= 0:
                    b = c
                else:
                    a = c
            m = 0.5 * (a + b)
            if abs(miss(m)) < 1e-10:
                return float(diagonal_deg), float(np.degrees(m))
    raise ValueError(f"no symmetric waterbomb fold at diagonal {diagonal_deg}")


def waterbomb_folded(side, diagonal_deg):
    """The folded waterbomb base's 9 vertices (centre first, then the 8 boundary points counter-clockwise from
    (side, side/2) relative to the centre): each panel turned rigidly by the product of crease rotations."""
    dg, mg = waterbomb_angles(diagonal_deg)
    dirs = [k * np.pi / 4 for k in range(8)]
    rho = [np.radians(mg) if k % 2 == 0 else np.radians(dg) for k in range(8)]
    h = side / 2
    flat = [np.array([np.cos(t), np.sin(t), 0.0]) * (h if k % 2 == 0 else h * np.sqrt(2))
            for k, t in enumerate(dirs)]
    # panel k lies between creases k and k+1; panel 0 is fixed; crease k+1's end moves with panel k
    Q = np.eye(3)
    pts = [None] * 8
    pts[0] = flat[0]
    for k in range(1, 8):
        pts[k] = Q @ flat[k]           # crease k belongs to panels k-1 (turned by Q) and k
        Q = Q @ rotation([np.cos(dirs[k]), np.sin(dirs[k]), 0.0], rho[k])
    return [np.zeros(3)] + pts


def waterbomb_fold(path, side=1.0, diagonal_deg=-120.0, digits=6, angle_digits=4):
    """The waterbomb base as the FOLD spec's examples write a file: a crease-pattern frame (flat, with
    ``edges_foldAngle`` targets: diagonals ``diagonal_deg`` mountains, midlines the closure's valleys) and a
    ``file_frames`` folded form at those angles, inheriting the topology; coordinates rounded to ``digits``,
    angles to ``angle_digits`` decimals (None: full precision).
    Returns (path, targets {edge index: degrees}, folded vertices)."""
    dg, mg = waterbomb_angles(diagonal_deg)
    h = side / 2
    flat = [[h, h]] + [[h + (h if k % 2 == 0 else h * np.sqrt(2)) * np.cos(k * np.pi / 4),
                        h + (h if k % 2 == 0 else h * np.sqrt(2)) * np.sin(k * np.pi / 4)] for k in range(8)]
    edges = [[0, k + 1] for k in range(8)] + [[k + 1, (k + 1) % 8 + 1] for k in range(8)]
    letters = ["V" if k % 2 == 0 else "M" for k in range(8)] + ["B"] * 8
    angles = [mg if k % 2 == 0 else dg for k in range(8)] + [None] * 8
    faces = [[0, k + 1, (k + 1) % 8 + 1] for k in range(8)]
    folded = waterbomb_folded(side, diagonal_deg)
    folded = [[round(float(c), digits) for c in p + np.array([h, h, 0.0])] for p in folded]
    d = {"file_spec": 1.1, "file_creator": "A text editor", "file_author": "a structural engineer",
         "file_classes": ["singleModel"], "frame_title": "Waterbomb base: crease pattern",
         "frame_classes": ["creasePattern"], "frame_attributes": ["2D"],
         "vertices_coords": [[round(x, digits), round(y, digits)] for x, y in flat],
         "edges_vertices": edges, "edges_assignment": letters,
         "edges_foldAngle": [None if a is None else a if angle_digits is None else round(a, angle_digits)
                             for a in angles],
         "faces_vertices": faces,
         "file_frames": [{"frame_title": "Waterbomb base: folded", "frame_classes": ["foldedForm"],
                          "frame_attributes": ["3D"], "frame_inherit": True, "frame_parent": 0,
                          "vertices_coords": folded}]}
    with open(path, "w") as f:
        json.dump(d, f, indent=2)
    return path, {k: a for k, a in enumerate(angles) if a is not None}, np.array(folded)


# ------------------------------------------------------------------ Yoshimura (faceless editor file)
def yoshimura_flat(n_cols, n_rows, width=1.0, height=0.6):
    """A flat Yoshimura pattern: rows of isosceles triangles (base ``width``, height ``height``) between
    horizontal valley lines and diagonal mountain lines, ``n_cols`` triangles' bases wide and ``n_rows`` rows
    high; the sheet's sides are vertical boundary lines through half-triangles. Interior vertices have degree 6
    (two horizontal creases, four diagonals). Returns (X n x 2, edges, letters)."""
    index, X = {}, []

    def vertex(x, y):
        key = (round(x, 9), round(y, 9))
        if key not in index:
            index[key] = len(X)
            X.append((x, y))
        return index[key]

    edges, letters = [], []
    W = n_cols * width
    half = width / 2
    on_line = {j: {0.0, W} for j in range(n_rows + 1)}
    for j in range(n_rows):                         # the diagonals of row j, alternating up and down
        for k in range(2 * n_cols):
            x0, x1 = k * half, (k + 1) * half
            up = (k + j) % 2 == 0
            p, q = ((x0, j * height), (x1, (j + 1) * height)) if up else ((x0, (j + 1) * height), (x1, j * height))
            edges.append((vertex(*p), vertex(*q)))
            letters.append("M")
            on_line[round(p[1] / height)].add(p[0])
            on_line[round(q[1] / height)].add(q[0])
        edges.append((vertex(0.0, j * height), vertex(0.0, (j + 1) * height)))
        letters.append("B")
        edges.append((vertex(W, j * height), vertex(W, (j + 1) * height)))
        letters.append("B")
    for j, xs in on_line.items():                   # the horizontal lines through the diagonals' ends
        xs = sorted(xs)
        for a, b in zip(xs, xs[1:]):
            edges.append((vertex(a, j * height), vertex(b, j * height)))
            letters.append("B" if j in (0, n_rows) else "V")
    return np.array(X), edges, letters


def yoshimura_angles(horizontal_deg, width=1.0, height=0.6):
    """(horizontal, diagonal) FOLD angles (deg) of the Yoshimura pattern's uniform rigid fold: at an interior
    vertex the two horizontal creases fold by ``horizontal_deg`` (valley) and the four diagonals by the angle
    that closes the loop (mountain), found by bisection on :func:`closure`."""
    t = np.arctan2(height, width / 2)
    dirs = [0.0, t, np.pi - t, np.pi, np.pi + t, 2 * np.pi - t]
    h = np.radians(horizontal_deg)
    g = lambda d: np.abs(closure(dirs, [h, d, d, h, d, d]) - np.eye(3)).max()   # noqa: E731
    ds = -np.linspace(0.05, np.pi - 0.01, 4001)       # away from d = 0: the fold along the horizontal lines alone
    best = min(ds, key=g)
    from scipy.optimize import least_squares

    r = least_squares(lambda d: (closure(dirs, [h, d[0], d[0], h, d[0], d[0]]) - np.eye(3)).ravel(), [best],
                      xtol=1e-15, ftol=1e-15, gtol=1e-15)
    r.x = r.x[0]
    if g(r.x) > 1e-12:
        raise ValueError(f"no uniform Yoshimura fold at {horizontal_deg} deg (miss {g(r.x):.1e})")
    return float(horizontal_deg), float(np.degrees(r.x))


def yoshimura_editor(path, n_cols=2, n_rows=2, horizontal_deg=60.0, digits=4, width=1.0, height=0.6,
                     angle_digits=4):
    """A crease-pattern editor's faceless file of the flat Yoshimura pattern: 2-D ``vertices_coords`` rounded to
    ``digits``, ``edges_vertices``, ``edges_assignment``, ``edges_foldAngle`` (the uniform fold's angles,
    ``angle_digits`` decimals, None: full precision); no faces. Returns (path, X, edges, letters, angles)."""
    X, edges, letters = yoshimura_flat(n_cols, n_rows, width, height)
    hd, dd = yoshimura_angles(horizontal_deg, width, height)
    angles = [None if x == "B" else (hd if x == "V" else dd) for x in letters]
    if angle_digits is not None:
        angles = [None if a is None else round(a, angle_digits) for a in angles]
    d = {"file_spec": 1.1, "file_creator": "a crease-pattern editor",
         "vertices_coords": [[round(float(x), digits), round(float(y), digits)] for x, y in X],
         "edges_vertices": [list(e) for e in edges], "edges_assignment": letters, "edges_foldAngle": angles}
    with open(path, "w") as f:
        json.dump(d, f)
    return path, X, edges, letters, angles


# ------------------------------------------------------------------ folding a flat pattern by its angles (checks)
def faces_of(X, edges):
    """The bounded faces (counter-clockwise vertex loops) of a flat planar straight-line graph (``X`` n x 2)."""
    out = {}
    for a, b in edges:
        out.setdefault(a, []).append(b)
        out.setdefault(b, []).append(a)
    ang = {v: sorted(nb, key=lambda w: np.arctan2(X[w][1] - X[v][1], X[w][0] - X[v][0])) for v, nb in out.items()}
    seen, faces = set(), []
    for a, b in [(a, b) for a, b in edges] + [(b, a) for a, b in edges]:
        if (a, b) in seen:
            continue
        loop = [a]
        u, v = a, b
        while True:
            seen.add((u, v))
            nb = ang[v]
            w = nb[(nb.index(u) - 1) % len(nb)]          # the next edge clockwise from (v -> u): the face on the left
            if v == a:
                break
            loop.append(v)
            u, v = v, w
        P = np.array([X[k] for k in loop])
        area = 0.5 * np.sum(P[:, 0] * np.roll(P[:, 1], -1) - np.roll(P[:, 0], -1) * P[:, 1])
        if area > 0:
            faces.append(loop)
    return faces


def fold_by_angles(X, edges, angles_deg, faces=None):
    """The folded 3-D positions of a flat pattern (``X`` n x 2, faces counter-clockwise) whose creases turn by
    ``angles_deg`` (FOLD sign; None: flat), face 0 fixed: each face's rigid motion composed from a neighbour's
    by the rotation about their shared edge (module doc: a valley lifts toward +z). Consistent angles (every
    vertex closes) give every vertex one position; returns (positions n x 3, the largest disagreement)."""
    X = np.asarray(X, float)
    faces = faces_of(X, edges) if faces is None else faces
    angle = {}
    for (a, b), t in zip(edges, angles_deg):
        angle[(a, b)] = angle[(b, a)] = 0.0 if t is None else np.radians(t)
    P3 = np.column_stack([X, np.zeros(len(X))])
    owner = {}
    for f, loop in enumerate(faces):
        for a, b in zip(loop, loop[1:] + loop[:1]):
            owner[(a, b)] = f
    motion = {0: (np.eye(3), np.zeros(3))}
    todo = [0]
    while todo:
        f = todo.pop()
        R, t = motion[f]
        loop = faces[f]
        for a, b in zip(loop, loop[1:] + loop[:1]):
            g = owner.get((b, a))
            if g is None or g in motion:
                continue
            u = P3[b] - P3[a]
            Q = rotation(u, -angle[(a, b)])          # g is right of a -> b: a valley turns it by -rho (module doc)
            Rg = R @ Q
            tg = R @ (P3[a] - Q @ P3[a]) + t
            motion[g] = (Rg, tg)
            todo.append(g)
    out = np.full((len(X), 3), np.nan)
    worst = 0.0
    for f, (R, t) in motion.items():
        for v in faces[f]:
            p = R @ P3[v] + t
            if np.isnan(out[v, 0]):
                out[v] = p
            else:
                worst = max(worst, float(np.linalg.norm(out[v] - p)))
    return out, worst


# ------------------------------------------------------------------ Origami Simulator FOLD export
def simulator_export(path, nx=3, ny=2, zigzag_deg=90.0, percent=60.0, width=80.0, height=92.0, gamma_deg=65.0):
    """Origami Simulator's FOLD export (js/saveFOLD.js) of a Miura-ori whose quadrilateral panels were drawn with
    a yellow facet line (Origami Simulator's triangulation), folded by the simulator to ``percent`` % of the
    zig-zag target: ``file_creator`` Origami Simulator, ``frame_classes`` foldedForm, the sheet's (x, y) as
    Origami Simulator's (x, 0, y) plane turned by the fold (its y up), faces the triangles, "F" edges with
    ``edges_foldAngle`` 0, "B" null, "M"/"V" the 100 % targets. Returns (path, X3 the exported positions, the
    flat (x, y), edges, letters, targets in degrees)."""
    shift = height / np.tan(np.radians(gamma_deg))
    X, edges, letters, angles = _miura(nx, ny, width, height, shift, zigzag_deg)
    faces = faces_of(X, edges)
    # the folded state the simulator shows: the rigid fold at percent % of the zig-zag angle
    _, _, _, now = _miura(nx, ny, width, height, shift, zigzag_deg * percent / 100.0)
    edges = list(edges)
    letters = list(letters)
    targets = list(angles)
    now = list(now)
    tri = []
    for loop in faces:                                  # a yellow line across each quadrilateral: two triangles
        if len(loop) == 4:
            edges.append((loop[0], loop[2]))
            letters.append("F")
            targets.append(0.0)
            now.append(0.0)
            tri += [[loop[0], loop[1], loop[2]], [loop[0], loop[2], loop[3]]]
        else:
            tri.append(loop)
    P, worst = fold_by_angles(X, edges, now, tri)
    assert worst < 1e-9 * width, worst
    os_coords = [[float(p[0]), float(p[2]), float(p[1])] for p in P]     # Origami Simulator: y up, sheet in x-z
    d = {"file_spec": 1.1, "file_creator": OS_CREATOR, "file_author": "", "file_classes": ["singleModel"],
         "frame_title": "miura-ori", "frame_classes": ["foldedForm"], "frame_attributes": ["3D"],
         "frame_unit": "unit", "vertices_coords": os_coords,
         "edges_vertices": [list(e) for e in edges], "edges_assignment": letters,
         "faces_vertices": [list(reversed(f)) for f in tri],           # (x, z, y) mirrors: loops reversed
         "edges_foldAngle": targets}
    with open(path, "w") as f:
        json.dump(d, f, indent=4)
    return path, np.array(os_coords), X, edges, letters, targets
