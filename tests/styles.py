"""Crease-pattern files in other tools' styles, written by the tests themselves.

``svg_lines``: an SVG of <line> elements in Origami Simulator's colours
(black boundary, red mountain, blue valley, magenta undriven), the target
angle as the line's opacity (|angle| / 180), coordinates rounded to
``digits`` decimals as drawing programs write them (Illustrator: 3), y down.
``fold_file``: a FOLD dict of a flat pattern with an assignment and target
angles (FOLD sign), optionally without faces (a crease-pattern editor's
file) or with rounded coordinates.
``box_pleat_simulator``: the n x n box pleat as Origami Simulator exports
``BoxPleatTessellation.fold`` (also read by ``benchmarks/scale.py --targets``).
"""
import json

import numpy as np

from chrono_origami.structure import foldfile

COLOURS = {"B": "#000000", "M": "#FF0000", "V": "#0000FF", "U": "#FF00FF", "F": "#FFFF00"}


def targets_of(pattern, folded):
    """(letters, FOLD angles in degrees) per edge of ``pattern`` from a folded configuration."""
    angles = foldfile.fold_angles(pattern, folded)
    return foldfile.assignments(pattern, angles), angles


def svg_position(vertices, scale=100.0, offset=(10.875, 8.643)):
    """Drawing positions (x, y down) of a flat pattern's vertices, and back in FOLD's (x, -y) as read."""
    X = np.asarray(vertices, float)[:, :2] * scale
    X[:, 1] = -X[:, 1]
    X = X - X.min(0) + np.asarray(offset)
    return X * [1.0, -1.0]


def svg_lines(path, pattern, letters, angles, scale=100.0, digits=3, opacity_digits=6):
    """Write ``pattern`` (flat, z = 0) as an Origami Simulator SVG of lines (module doc)."""
    X = svg_position(pattern.vertices, scale) * [1.0, -1.0]
    fmt = (lambda x: repr(float(x))) if digits is None else (lambda x: f"{x:.{digits}f}")
    out = ['<?xml version="1.0" encoding="utf-8"?>',
           '<svg version="1.1" xmlns="http://www.w3.org/2000/svg" x="0px" y="0px" width="800px" height="800px">']
    for (a, b), letter, angle in zip(pattern.edges, letters, angles):
        opacity = "" if letter in ("B", "U", "F") else f' opacity="{abs(angle) / 180:.{opacity_digits}g}"'
        out.append(f'<line fill="none" stroke="{COLOURS[letter]}" stroke-miterlimit="10"{opacity} '
                   f'x1="{fmt(X[a, 0])}" y1="{fmt(X[a, 1])}" x2="{fmt(X[b, 0])}" y2="{fmt(X[b, 1])}"/>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    return path


def fold_file(path, pattern, letters, angles, faces=True, digits=None, creator="an editor"):
    """Write a FOLD file of the flat ``pattern`` with ``letters`` and target ``angles`` (module doc)."""
    X = pattern.vertices if digits is None else np.round(pattern.vertices, digits)
    d = {"file_spec": 1.1, "file_creator": creator, "frame_classes": ["creasePattern"],
         "vertices_coords": X.tolist(), "edges_vertices": [list(e) for e in pattern.edges],
         "edges_assignment": list(letters),
         "edges_foldAngle": [None if a in ("B", "U") else float(x) for a, x in zip(letters, angles)]}
    if faces:
        d["faces_vertices"] = [list(p) for p in pattern.panels]
    with open(path, "w") as f:
        json.dump(d, f)
    return path


def box_pleat_simulator(n):
    """A box pleat written the way Origami Simulator exports BoxPleatTessellation.fold: the x-z plane, coordinates
    rounded to single precision, y off the plane by 1e-22, F/M/V/B assignments, fold angles (null on the border)."""
    from chrono_origami.patterns import tessellations as ts

    s = ts.box_pleat(n)
    pat = s.pattern
    X = pat.vertices
    noise = np.random.default_rng(0).uniform(-2e-22, 2e-22, len(X))
    coords = np.column_stack([X[:, 0], noise, X[:, 1]]).astype(np.float32).astype(float)
    hinge_assign = dict(zip((h.vertices for h in pat.hinges), ts.box_pleat_assignment(pat, n)))
    edges, assign, angles = [], [], []
    for a, b in pat.edges:
        x = hinge_assign.get((a, b), hinge_assign.get((b, a), "B"))
        edges.append([int(a), int(b)])
        assign.append(x)
        angles.append({"M": -180, "V": 180, "F": 0, "B": None}[x])
    return {"file_spec": 1.1, "file_creator": "Origami Simulator: http://git.amandaghassaei.com/OrigamiSimulator/",
            "file_classes": ["singleModel"], "frame_title": "BoxPleatTessellation", "frame_classes": ["foldedForm"],
            "frame_attributes": ["3D"], "frame_unit": "unit", "vertices_coords": coords.tolist(),
            "edges_vertices": edges, "edges_assignment": assign, "edges_foldAngle": angles,
            "faces_vertices": [[int(v) for v in loop] for loop in pat.panels]}


def oripa_miura(path, columns=6, rows=8, width=40.0, height=30.0, shift=12.0, foldangles=False):
    """A rectangular Miura-ori sheet as ORIPA exports it to FOLD: the straight crease lines horizontal (y = j
    ``height``), the zigzag lines near-vertical (x = i ``width`` + ``shift`` on odd j), the rectangle's left side
    through the zigzag line 0's even vertices and its right side through zigzag line ``columns`` - 1's odd vertices,
    so that the sheet's sides cut the parallelograms there into triangles (2 per row); no faces, no fold angles
    (M/V fold fully: -180/+180), centred on the origin and scaled to ORIPA's 400 x 400 paper, ``file_creator`` "oripa".
    Zigzag line i is a mountain for even i, a valley for odd i; the straight lines alternate segment by segment.
    Returns (path, number of boundary triangles)."""
    n, m, w, h, d = columns, rows, width, height, shift
    right = (n - 1) * w + d
    coords, index = [], {}

    def vertex(x, y):
        key = (round(x, 9), round(y, 9))
        if key not in index:
            index[key] = len(coords)
            coords.append([x, y])
        return index[key]

    edges, letters = [], []

    def edge(p, q, letter):
        edges.append([vertex(*p), vertex(*q)])
        letters.append(letter)

    def zx(i, j):
        return i * w + d * (j % 2)

    for j in range(m + 1):                                    # straight lines, boundary at j = 0 and m
        xs = ([0.0] if j % 2 else []) + [zx(i, j) for i in range(n) if zx(i, j) <= right + 1e-9] \
             + ([right] if j % 2 == 0 else [])
        for k in range(len(xs) - 1):
            seg = k - (1 if j % 2 else 0)                     # the index i of the zigzag line on the segment's left
            letter = "B" if j in (0, m) else ("M" if (seg + j) % 2 else "V")
            edge((xs[k], j * h), (xs[k + 1], j * h), letter)
    for i in range(n):                                        # zigzag lines
        for j in range(m):
            edge((zx(i, j), j * h), (zx(i, j + 1), (j + 1) * h), "M" if i % 2 == 0 else "V")
    for j in range(m):                                        # the sheet's sides
        edge((0.0, j * h), (0.0, (j + 1) * h), "B")
        edge((right, j * h), (right, (j + 1) * h), "B")
    X = np.array(coords)
    X = (X - (X.max(0) + X.min(0)) / 2) * (400.0 / np.ptp(X, axis=0).max())
    d = {"file_spec": 1.1, "file_creator": "oripa", "file_classes": ["singleModel"],
         "frame_title": "", "frame_classes": ["creasePattern"], "frame_attributes": ["2D"],
         "vertices_coords": X.tolist(), "edges_vertices": edges, "edges_assignment": letters}
    if foldangles:
        d["edges_foldAngle"] = [{"M": -180.0, "V": 180.0}.get(x) for x in letters]
    with open(path, "w") as f:
        json.dump(d, f)
    return path, 2 * m


def _java(x):
    """A double as Java's Double.toString writes it (ORIPA's files): 200.0, -12.5, 1.8E-14."""
    x = float(x) + 0.0
    if x == 0 or 1e-3 <= abs(x) < 1e7:
        return repr(x)
    mant, exp = np.format_float_scientific(x, unique=True).split("e")    # shortest digits, as Java's
    return f"{mant}{'0' if mant.endswith('.') else ''}E{int(exp)}"


#: ORIPA's line type of each FOLD letter (oripa.value.OriLine)
ORIPA_TYPES = {"B": 1, "M": 2, "V": 3, "U": 4, "F": 0}


def oripa_files(fold_path, cp_path, opx_path):
    """The crease pattern of a FOLD file of :func:`oripa_miura` as ORIPA saves it: a ``.cp`` line file (ORIPA's
    export: ``TYPE X0 Y0 X1 Y1`` per line, Java's number format, aux lines left out) and an ``.opx`` document
    (Java's XMLEncoder: properties equal to 0 left out) with one more line, an aux (type 0) construction line
    drawn across the sheet from side to side (its sides are vertical), which ORIPA folds without."""
    with open(fold_path) as f:
        d = json.load(f)
    X = d["vertices_coords"]
    lo, hi = np.min(X, axis=0), np.max(X, axis=0)
    aux = ((lo[0], lo[1] + 0.31 * (hi[1] - lo[1])), (hi[0], lo[1] + 0.57 * (hi[1] - lo[1])))
    rows = [(ORIPA_TYPES[a], X[u], X[v]) for (u, v), a in zip(d["edges_vertices"], d["edges_assignment"])]
    with open(cp_path, "w") as f:
        for t, p, q in rows:
            f.write(f"{t} {_java(p[0])} {_java(p[1])} {_java(q[0])} {_java(q[1])}\n")
    rows.append((0, aux[0], aux[1]))

    def prop(name, value, kind="double"):
        if value == 0:
            return ""
        text = str(value) if kind == "int" else _java(value)
        return (f'       <void property="{name}">\n        <{kind}>{text}</{kind}>\n       </void>\n')

    body = "".join(f'     <void index="{k}">\n      <object class="oripa.OriLineProxy">\n'
                   + prop("type", t, "int") + prop("x0", p[0]) + prop("x1", q[0]) + prop("y0", p[1])
                   + prop("y1", q[1]) + "      </object>\n     </void>\n" for k, (t, p, q) in enumerate(rows))
    with open(opx_path, "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<java version="1.8.0_333" class="java.beans.XMLDecoder">\n'
                ' <object class="oripa.DataSet" id="DataSet0">\n  <void class="oripa.DataSet" method="getField">\n'
                '   <string>lines</string>\n   <void method="set">\n    <object idref="DataSet0"/>\n'
                f'    <array class="oripa.OriLineProxy" length="{len(rows)}">\n{body}    </array>\n   </void>\n'
                '  </void>\n  <void property="paperSize">\n   <double>400.0</double>\n  </void>\n </object>\n'
                '</java>\n')
    return cp_path, opx_path


def two_squares_fold(path, gap=3.0):
    """A FOLD file of two separate unit squares, each folded 40 degrees along its diagonal (valley): two pieces of
    two triangular panels joined by one crease, ``gap`` apart along x (panels 1-2 and 3-4)."""
    c, s = np.cos(np.radians(40.0)), np.sin(np.radians(40.0))
    V, E, A, F = [], [], [], []
    for k in range(2):
        o = len(V)
        x0 = k * gap
        # diagonal from (0, 0) to (1, 1); the corner (1, 0) turned about it by 40 degrees
        d = np.array([1.0, 1.0, 0.0]) / np.sqrt(2.0)
        r = np.array([1.0, 0.0, 0.0]) - d * (d @ np.array([1.0, 0.0, 0.0]))
        corner = d * (d @ np.array([1.0, 0.0, 0.0])) + c * r + s * np.cross(d, r)
        V += [[x0, 0, 0], [x0 + corner[0], corner[1], corner[2]], [x0 + 1, 1, 0], [x0, 1, 0]]
        E += [[o, o + 2], [o, o + 1], [o + 1, o + 2], [o + 2, o + 3], [o + 3, o]]
        A += ["V", "B", "B", "B", "B"]
        F += [[o, o + 1, o + 2], [o, o + 2, o + 3]]
    path.write_text(json.dumps({"file_spec": 1.1, "file_creator": "a hand-written FOLD file", "vertices_coords": V,
                                "edges_vertices": E, "edges_assignment": A, "faces_vertices": F}))
    return path

