"""Chrono's Irrlicht view of a structure: ``--viz`` (a window) and ``--screenshot FILE.png`` (one frame).

The view shows the system of :func:`chrono_origami.engines.chrono.system.build_system` in its reference
configuration: the panels (shaded prisms) and the builder's hinge glyphs (each
kind's ``HingeStyle``: door hinges blue cylinders, sliding hinges red rods with
a sleeve), the supports (the builder's green sphere plus a green bar along
each held global direction), the loads (orange arrows ending at the vertex,
the largest one :data:`ARROW_FRACTION` of half the structure's size long), a
Z-up camera looking from the direction of the matplotlib figure (elevation
25 deg, azimuth -60 deg) at a distance where everything fits in :data:`FILL`
of the frame, and a title with a legend (:func:`hinge_legend`). With a hinge
colouring (``coloring``: :mod:`chrono_origami.report.hinge_colors`, the map
and scale of ``static --figure``) every hinge glyph takes its colour, a colour
bar is drawn over the frame at the right edge (:func:`bar_box`: the map's end
at the top, its start at the bottom), and the title names the largest value
and its hinge.

Why ``WriteImageToFile`` gave a black PNG under Xvfb
-----------------------------------------------------
``ChVisualSystemIrrlicht::WriteImageToFile`` calls Irrlicht's
``IVideoDriver::createScreenShot``. With the OpenGL driver (Chrono's default
Direct3D9 fails off Windows and it falls back to OpenGL) Irrlicht 1.8 reads
the pixels with ``glReadBuffer(GL_FRONT)``. Under Xvfb there is no GPU: GLX is
Mesa's software path (llvmpipe through DRISW). There the front buffer of a
double-buffered window is a "fake front" renderbuffer that nothing draws
into: ``glXSwapBuffers`` (``EndScene``) copies the back buffer to the X
window with ``XPutImage``, not into that renderbuffer. So the front buffer
reads as zeros, which is a uniformly black image, whether it is read before or
after ``EndScene``. Rendering twice or reordering the calls does not help. The
colour depth does not matter either: ``xvfb-run``'s default screen is
1280x1024x24, and on an 8-bit screen there is no GLX visual at all, so the
device cannot be created (:class:`ViewerError`, not a black image).

The fix (:meth:`StructureView.grab`): with the OpenGL driver, read the back
buffer with ``glReadPixels`` (through ctypes, in the thread whose context
Irrlicht made current) after ``Render`` and before ``EndScene``. The back
buffer holds the finished frame until the swap; after the swap GLX leaves its
contents undefined. This also works on a desktop. With any other driver
(Direct3D9 on Windows), ``WriteImageToFile`` after ``EndScene`` is used. A
frame of one uniform colour raises :class:`ViewerError` and is never saved.

Chrono data (fonts, logo, skybox): from ``data_path``, else the environment
variable ``CHRONO_DATA_PATH``, else ``GetChronoDataPath()``, else the ``data``
folder of a PyChrono build tree or of a conda prefix. Without a ``fonts``
folder the view still renders, without logo or skybox and with Irrlicht's
built-in font, after a one-line notice. A data folder that lacks other files
the view reads (:data:`DATA_FILES`: the logo, Chrono's default colour map,
the sky) gets one notice line naming them, on stderr; Chrono's own messages
about them (it prints "Cannot open colormap data file ..." on stdout) are
kept out of stdout.
"""
import contextlib
import ctypes
import ctypes.util
import os
import sys
import tempfile
import time

import numpy as np

from .. import engines
from .styles import chrono_glyph, style
from ..structure import hinges
from ..tools.errors import ChronoUnavailable, ViewerError

#: the Chrono engine builds the systems the view draws (importing it probes PyChrono before it is imported here)
try:
    _CHRONO = engines.get("chrono", notice=False)
except ChronoUnavailable:
    raise ChronoUnavailable(f"Chrono's Irrlicht viewer (--viz, --screenshot, play) needs PyChrono, which cannot be "
                            f"used here: {engines.chrono_unavailable_advice()}; draw a "
                            f"figure (--figure) or the results page (--html) instead") from None

import pychrono as chrono  # noqa: E402,I001

try:
    import pychrono.irrlicht as chronoirr
except ImportError as _e:  # pragma: no cover - depends on the PyChrono build
    chronoirr = None
    _IRRLICHT_ERROR = str(_e)

DATA_ENV = "CHRONO_DATA_PATH"
#: files of Chrono's data folder that the view reads besides fonts/: (path, what for); the logo only with
#: logo=True, skybox/ only with skybox=True
DATA_FILES = (("logo_chrono_alpha.png", "the logo"),
              ("colormaps/jet-table-float-0512.csv", "Chrono's default colour map, unused by this view"),
              ("skybox", "the sky"))
#: Chrono's message when its default colour map is missing (replaced by the notice of missing_data_files)
_COLORMAP_MESSAGE = "Cannot open colormap data file"
BACKGROUND = (0.93, 0.94, 0.96)
LOAD_COLOR = (1.0, 0.50, 0.0)
SUPPORT_COLOR = _CHRONO.colors["support"]
#: the panels of a fold's first contact (``play``)
CONTACT_COLOR = (0.85, 0.1, 0.1)
#: camera direction, as the matplotlib figure (degrees)
ELEVATION, AZIMUTH = 25.0, -60.0
#: vertical field of view of the camera (radians)
FOV = np.radians(40.0)
#: length of the largest load arrow, as a fraction of half the structure's bounding-box diagonal
ARROW_FRACTION = 0.35
WINDOW_SIZE = (1024, 768)
#: the colour bar of a hinge colouring: width, distance from the window's right and bottom edges, top (pixels)
BAR_WIDTH, BAR_MARGIN, BAR_TOP = 18, 24, 110
#: fraction of the half-width and half-height of the frame that the structure may fill
FILL = (0.85, 0.75)
#: (azimuth, elevation in degrees, grey level) of the lights, and the ambient grey level
LIGHTS = ((AZIMUTH + 35, 50, 0.65), (AZIMUTH - 70, 10, 0.35), (AZIMUTH + 180, 40, 0.25))
AMBIENT = 0.35

_GL_BACK = 0x0405
_GL_RGBA, _GL_UNSIGNED_BYTE, _GL_PACK_ALIGNMENT = 0x1908, 0x1401, 0x0D05
#: Chrono's notice when its default Direct3D9 driver is not there (always, off Windows)
_FALLBACK_NOTICE = "Cannot use default video driver - fall back to OpenGL"


# ------------------------------------------------------------------ data path
def _data_candidates(data_path):
    if data_path:
        return [(data_path, "the data_path argument")]
    out = []
    if os.environ.get(DATA_ENV):
        out.append((os.environ[DATA_ENV], f"${DATA_ENV}"))
    out.append((chrono.GetChronoDataPath(), "GetChronoDataPath()"))
    pkg = os.path.dirname(os.path.abspath(chrono.__file__))
    out.append((os.path.join(pkg, "..", "..", "data"), "the PyChrono build tree"))
    for sub in (("share",), ("Library", "share")):   # conda on Linux/macOS, on Windows
        out.append((os.path.join(sys.prefix, *sub, "chrono", "data"), "the conda prefix"))
    return out


def chrono_data_path(data_path=None):
    """Find Chrono's data folder (one with ``fonts/``), make it Chrono's data path and return it; None if absent.

    An explicit ``data_path`` (or ``$CHRONO_DATA_PATH``) without ``fonts/``
    raises :class:`ViewerError`.
    """
    for path, origin in _data_candidates(data_path):
        if os.path.isdir(os.path.join(path, "fonts")):
            path = os.path.join(os.path.abspath(path), "")
            if os.path.abspath(chrono.GetChronoDataPath()) != os.path.abspath(path):
                chrono.SetChronoDataPath(path)
            return path
        if origin in ("the data_path argument", f"${DATA_ENV}"):
            raise ViewerError(f"Chrono data folder {path!r} (from {origin}) has no fonts/ folder")
    return None


def missing_data_files(data_path, logo=True, skybox=False):
    """Entries of :data:`DATA_FILES` (path, what for) that a view needs and the Chrono data folder ``data_path`` lacks."""
    wanted = [(f, what) for f, what in DATA_FILES
              if (logo or f != "logo_chrono_alpha.png") and (skybox or f != "skybox")]
    return [(f, what) for f, what in wanted if not os.path.exists(os.path.join(data_path, f))]


# ------------------------------------------------------------------ helpers
def _vec(v):
    """NumPy 3-vector -> ``ChVector3d``."""
    return chrono.ChVector3d(float(v[0]), float(v[1]), float(v[2]))


def _color(c):
    return chrono.ChColor(*[float(x) for x in c])


def _z_frame(origin, direction):
    """``ChFramed`` at ``origin`` whose Z axis is ``direction`` (unit)."""
    q = chrono.QuatFromVec2Vec(chrono.VECT_Z, _vec(direction))
    return chrono.ChFramed(_vec(origin), q)


@contextlib.contextmanager
def _captured_output(fd, lines):
    """Collect what C++ writes to file descriptor ``fd`` (1: stdout, 2: stderr) into ``lines``."""
    (sys.stdout if fd == 1 else sys.stderr).flush()
    saved = os.dup(fd)
    with tempfile.TemporaryFile(mode="w+b") as tmp:
        os.dup2(tmp.fileno(), fd)
        try:
            yield
        finally:
            try:
                ctypes.CDLL(None).fflush(None)      # C stdio buffers (std::cout writes through them)
            except (OSError, AttributeError):       # pragma: no cover - no C library handle (Windows)
                pass
            os.dup2(saved, fd)
            os.close(saved)
            tmp.seek(0)
            lines.extend(tmp.read().decode(errors="replace").splitlines())


@contextlib.contextmanager
def _x_connection_held():
    """Keep one X connection open meanwhile (Linux), so that Xvfb does not reset under Irrlicht.

    Chrono first tries its default Direct3D9 driver: Irrlicht opens the
    display, fails, and closes it. If that was the server's only client, Xvfb
    (started without -noreset, as xvfb-run does) resets, and the OpenGL
    device that Chrono tries next may find no display ("Could not open
    display"). A connection of ours held across ``Initialize`` prevents the
    reset.
    """
    x11 = None
    display = None
    if sys.platform.startswith("linux"):
        for name in ("libX11.so.6", ctypes.util.find_library("X11")):
            if not name:
                continue
            try:
                x11 = ctypes.CDLL(name)
                break
            except OSError:
                continue
    if x11 is not None:
        x11.XOpenDisplay.restype = ctypes.c_void_p
        x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
        x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
        display = x11.XOpenDisplay(None)
    try:
        yield
    finally:
        if display:
            x11.XCloseDisplay(display)


def _libgl():
    """The process's OpenGL library (ctypes), or None."""
    for name in ("libGL.so.1", ctypes.util.find_library("GL"), ctypes.util.find_library("OpenGL")):
        if not name:
            continue
        try:
            gl = ctypes.CDLL(name)
        except OSError:
            continue
        gl.glReadPixels.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_uint,
                                    ctypes.c_uint, ctypes.c_void_p]
        gl.glReadBuffer.argtypes = [ctypes.c_uint]
        gl.glPixelStorei.argtypes = [ctypes.c_uint, ctypes.c_int]
        gl.glGetError.restype = ctypes.c_uint
        return gl
    return None


def _check_png_path(path):
    path = os.fspath(path)
    if not path.lower().endswith(".png"):
        raise ViewerError(f"screenshot file {path!r}: expected a .png file name")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ViewerError(f"screenshot file {path!r}: folder {folder!r} does not exist")
    return path


def is_blank(image):
    """True if every pixel of ``image`` (H x W x 3) has the same colour."""
    px = np.asarray(image).reshape(-1, np.asarray(image).shape[-1])
    return bool(np.all(px == px[0]))


def hinge_legend(structure, colored=False):
    """"1 door hinge (blue), 15 sliding hinges (red)": the count and colour of each kind present (``colored``: the
    hinges are coloured by a force, so their glyph names the kind: "1 door hinge (barrel)")."""
    return ", ".join(f"{n} {k.name} hinge{'s' if n != 1 else ''} ({style(k).glyph if colored else style(k).color_name})"
                     for k, n in hinges.census(structure.hinge_kinds))


def _title(structure, max_load, colored=False):
    pat = structure.pattern
    line = (f"{structure.name}: {pat.n_panels} panels, {hinge_legend(structure, colored)}, "
            f"{len(structure.supports)} supports (green), {len(structure.loads)} loads (orange")
    line += f", largest {max_load:.4g})" if structure.loads else ")"
    if structure.gravity is not None:
        line += f", gravity {tuple(float(g) for g in structure.gravity)}"
    return line


# ------------------------------------------------------------------ geometry of the view
def load_arrows(structure):
    """(tip, unit direction, length) of each non-zero load arrow; the largest is :data:`ARROW_FRACTION` long."""
    X = structure.pattern.vertices
    size = _size(structure)
    fmax = max((float(np.linalg.norm(ld.force)) for ld in structure.loads), default=0.0)
    out = []
    for ld in structure.loads:
        f = np.asarray(ld.force, float)
        n = float(np.linalg.norm(f))
        if n > 0:
            out.append((X[ld.vertex], f / n, ARROW_FRACTION * 0.5 * size * n / fmax))
    return out


def _size(structure):
    X = structure.pattern.vertices
    return max(float(np.linalg.norm(X.max(0) - X.min(0))), 1e-12)


def view_points(structure):
    """Points the view must hold: vertices padded by the glyph size, and load-arrow tails."""
    X = structure.pattern.vertices
    # the builder's spheres (0.03) and hinge glyphs (0.022), and the support bars (0.045) around vertices,
    # padded across the view
    margin = 0.05 * _size(structure)
    _, right, up = _camera_axes()
    pts = [X + margin * e for e in (right, -right, up, -up)]
    pts += [(tip - u * length)[None] for tip, u, length in load_arrows(structure)]
    return np.vstack(pts)


def _camera_axes():
    """(unit direction from the target to the eye, right, up) for :data:`ELEVATION`, :data:`AZIMUTH`."""
    el, az = np.radians(ELEVATION), np.radians(AZIMUTH)
    d = np.array([np.cos(el) * np.cos(az), np.cos(el) * np.sin(az), np.sin(el)])
    right = np.cross(-d, [0.0, 0.0, 1.0])
    right /= np.linalg.norm(right)
    return d, right, np.cross(right, -d)


def frame_camera(points, size=WINDOW_SIZE):
    """(target, eye) such that every point projects inside :data:`FILL` of a ``size`` (w, h) frame."""
    w, h = size
    d, right, up = _camera_axes()
    P = np.asarray(points, float)
    a, b = P @ right, P @ up
    c0 = P.mean(0)
    target = c0 + right * (0.5 * (a.min() + a.max()) - c0 @ right) + up * (0.5 * (b.min() + b.max()) - c0 @ up)
    depth = (P - target) @ d                                  # towards the eye
    tx, ty = np.tan(FOV / 2) * w / h, np.tan(FOV / 2)
    need = max(float(np.max(depth + np.abs(a - target @ right) / (FILL[0] * tx))),
               float(np.max(depth + np.abs(b - target @ up) / (FILL[1] * ty))))
    span = float(np.ptp(P, axis=0).max()) or 1.0
    return target, target + d * max(need, 0.5 * span)


def bar_box(size=WINDOW_SIZE):
    """(left, top, right, bottom) pixels of the colour bar of a hinge colouring in a ``size`` (w, h) frame (the
    map's end at the top, its start at the bottom)."""
    w, h = size
    return (w - BAR_WIDTH - BAR_MARGIN, BAR_TOP, w - BAR_MARGIN, h - BAR_MARGIN - 20)


def project(points, eye, size=WINDOW_SIZE):
    """Pixel (column, row) of global ``points`` seen from ``eye`` (Irrlicht's right-handed perspective)."""
    w, h = size
    d, right, up = _camera_axes()
    rel = np.asarray(points, float) - eye
    z = -(rel @ d)
    t = np.tan(FOV / 2)
    return np.column_stack([(1 + (rel @ right) / z / (t * w / h)) * w / 2, (1 - (rel @ up) / z / t) * h / 2])


# ------------------------------------------------------------------ the view
class StructureView:
    """A ``ChVisualSystemIrrlicht`` showing ``structure`` as built by :func:`chrono_origami.engines.chrono.system.build_system`.

    ``built``: a :class:`chrono_origami.engines.chrono.system.ChronoStructure` with visual shapes (default:
    a new one). ``size``: window size in pixels. ``data_path``: Chrono's data
    folder (see :func:`chrono_data_path`). ``skybox``: Chrono's sky instead of
    the plain background. ``configurations``: other vertex sets (V x 3) of the
    pattern the camera must also frame (a fold, :func:`play`). Close it (:meth:`close`, or use it in a ``with``).
    Set ``CHRONO_ORIGAMI_DEBUG=1`` to see Irrlicht's log.
    """

    def __init__(self, structure, built=None, size=WINDOW_SIZE, title=None, data_path=None, logo=True,
                 skybox=False, configurations=(), coloring=None, marked_panels=()):
        self.vis = None
        if chronoirr is None:
            raise ViewerError(f"this PyChrono has no Irrlicht module ({_IRRLICHT_ERROR}); --viz and --screenshot need it")
        w, h = (int(x) for x in size)
        if w < 16 or h < 16:
            raise ViewerError(f"window size {w}x{h} is too small")
        if sys.platform.startswith("linux") and not os.environ.get("DISPLAY"):
            raise ViewerError("no X display ($DISPLAY is not set): run under xvfb-run, "
                              "e.g. xvfb-run -a python -m chrono_origami static FILE.fold --screenshot view.png")
        self.structure = structure
        self.window_size = (w, h)
        self.data_path = chrono_data_path(data_path)
        if self.data_path is None:
            print(f"notice: Chrono data (fonts/) not found; set ${DATA_ENV} to Chrono's data folder. "
                  "Drawing without logo and skybox.", file=sys.stderr)
        else:
            missing = missing_data_files(self.data_path, logo, skybox)
            if missing:
                print(f"notice: Chrono data folder {self.data_path!r} lacks "
                      + ", ".join(f"{f} ({what})" for f, what in missing) + "; drawing without them",
                      file=sys.stderr)
        self.built = built if built is not None else _CHRONO.build_system(structure, visual=True,
                                                                          hinge_glyph=chrono_glyph)
        self.coloring = coloring
        if coloring is not None:
            self._color_hinges(coloring)
        for p in marked_panels:                         # e.g. the two panels of a fold's first contact
            self.built.panel_shapes[p].SetColor(_color(CONTACT_COLOR))
        self._add_glyphs()
        self.max_load = max((float(np.linalg.norm(ld.force)) for ld in structure.loads), default=0.0)
        pts = [view_points(structure)] + [view_points(structure.with_pattern(structure.pattern.with_vertices(X)))
                                          for X in configurations]
        self.target, self.eye = frame_camera(np.vstack(pts), (w, h))
        debug = bool(os.environ.get("CHRONO_ORIGAMI_DEBUG"))

        chrono_says = []
        with _captured_output(1, chrono_says):              # it loads its default colour map from the data folder
            vis = chronoirr.ChVisualSystemIrrlicht()
        for line in chrono_says:
            if line.strip() and (debug or not line.startswith(_COLORMAP_MESSAGE)):
                print(line, file=sys.stderr)
        vis.AttachSystem(self.built.system)
        vis.SetWindowSize(w, h)
        vis.SetWindowTitle(title or f"chrono-origami: {structure.name}")
        vis.SetCameraVertical(chrono.CameraVerticalDir_Z)
        vis.SetBackgroundColor(_color(BACKGROUND))
        vis.SetVerbose(debug)
        notes = []
        with _x_connection_held(), _captured_output(2, notes):
            vis.Initialize()
        for line in notes:
            if debug or (line.strip() and line.strip() != _FALLBACK_NOTICE and "giving up" not in line):
                print(line, file=sys.stderr)
        if vis.GetDevice() is None:
            # leaked on purpose: ~ChIrrGUI drops its device unchecked, a segmentation fault when there is none
            vis.thisown = False
            del vis
            raise ViewerError(
                f"Irrlicht could not open an OpenGL window on display {os.environ.get('DISPLAY')!r}; "
                "it needs GLX on a 16- or 24-bit screen (e.g. xvfb-run -s '-screen 0 1280x1024x24')")
        self.vis = vis
        self.frames = 0
        try:
            self.driver_name = vis.GetVideoDriver().getName()
            if self.data_path and logo:
                vis.AddLogo()
            if self.data_path and skybox:
                vis.AddSkyBox()
            self._add_camera_and_lights()
            x0 = 145 if (self.data_path and logo) else 10
            text = title or _title(structure, self.max_load, coloring is not None)
            if coloring is not None:
                text += "; " + coloring.caption()
            vis.GetGUIEnvironment().addStaticText(text, chronoirr.recti(x0, 10, w - 10, 60), False, True, None, -1,
                                                  False)
            if coloring is not None:
                self._add_bar_labels()
            self._gl = _libgl() if self.driver_name.startswith("OpenGL") else None
        except BaseException:
            self.close()
            raise

    def _color_hinges(self, coloring):
        """Every hinge glyph in its colour of ``coloring`` (:mod:`chrono_origami.report.hinge_colors`)."""
        shapes = self.built.hinge_shapes
        if len(shapes) != len(coloring.values):
            raise ViewerError(f"the hinge colouring has {len(coloring.values)} values, the view {len(shapes)} hinges")
        for h, rgb in enumerate(coloring.colors()):
            for shape in shapes[h]:
                shape.SetColor(_color(rgb))

    def _add_bar_labels(self):
        left, top, right, bottom = bar_box(self.window_size)
        c = self.coloring
        gui = self.vis.GetGUIEnvironment()
        for y, value in ((top - 18, c.vmax), (bottom + 4, c.vmin)):
            gui.addStaticText(f"{value:.3g}", chronoirr.recti(left - 60, y, right + 4, y + 16), False, False, None, -1,
                              False)
        gui.addStaticText(c.component, chronoirr.recti(left - 4, top - 36, right + 30, top - 20), False, False, None,
                          -1, False)

    def _draw_bar(self):
        """The colour bar of the hinge colouring, drawn in 2-D over the rendered scene (every frame)."""
        from .hinge_colors import colormap

        left, top, right, bottom = bar_box(self.window_size)
        cmap = colormap(self.coloring.cmap)
        driver = self.vis.GetVideoDriver()
        n = max(bottom - top, 1)
        for k in range(0, n, 2):
            r, g, b = (int(round(255 * x)) for x in cmap(1.0 - k / (n - 1))[:3])
            driver.draw2DRectangle(chronoirr.SColor(255, r, g, b), chronoirr.recti(left, top + k, right, top + k + 2))

    def _add_glyphs(self):
        """Load arrows (cylinder + cone) and a bar per held direction of each support, on the ground body."""
        st, ground = self.structure, self.built.ground
        size = _size(st)
        r = 0.012 * size
        for tip, u, length in load_arrows(st):
            head = min(0.3 * length, 0.08 * size)
            shaft = chrono.ChVisualShapeCylinder(r, length - head)
            shaft.SetColor(_color(LOAD_COLOR))
            ground.AddVisualShape(shaft, _z_frame(tip - u * (length + head) / 2, u))
            cone = chrono.ChVisualShapeCone(2.5 * r, head)      # apex at +Z
            cone.SetColor(_color(LOAD_COLOR))
            ground.AddVisualShape(cone, _z_frame(tip - u * head / 2, u))
        X = st.pattern.vertices
        for s in st.supports:
            for d in s.dofs:
                bar = chrono.ChVisualShapeCylinder(0.006 * size, 0.09 * size)
                bar.SetColor(_color(SUPPORT_COLOR))
                ground.AddVisualShape(bar, _z_frame(X[s.vertex], np.eye(3)["xyz".index(d)]))

    def _add_camera_and_lights(self):
        vis = self.vis
        w, h = self.window_size
        vis.AddCamera(_vec(self.eye), _vec(self.target))
        cam = vis.GetActiveCamera()
        dist = float(np.linalg.norm(self.eye - self.target))
        span = _size(self.structure)
        cam.setFOV(float(FOV))
        cam.setAspectRatio(w / h)
        cam.setNearValue(float(max(1e-3 * dist, 0.2 * (dist - span))))
        cam.setFarValue(float(20 * (dist + span)))
        # Irrlicht's point-light intensity is radius / distance: radius = distance gives the nominal
        # grey level at the structure, whatever its size
        for az, el, c in LIGHTS:
            a, e = np.radians(az), np.radians(el)
            pos = self.target + dist * np.array([np.cos(e) * np.cos(a), np.cos(e) * np.sin(a), np.sin(e)])
            vis.AddLight(_vec(pos), float(dist), chrono.ChColor(c, c, c))
        vis.GetSceneManager().setAmbientLight(chronoirr.SColorf(AMBIENT, AMBIENT, AMBIENT, 1.0))

    def project(self, points):
        """Pixel (column, row) of global ``points`` in this view."""
        return project(points, self.eye, self.window_size)

    # -------------------------------------------------------------- frames
    def render(self, grab=False):
        """Draw one frame; with ``grab``, return it as an H x W x 3 uint8 array. None once the window is closed."""
        vis = self.vis
        if vis is None or not vis.Run():
            return None
        vis.BeginScene()
        vis.Render()
        if self.coloring is not None:
            self._draw_bar()
        image = self._read_back_buffer() if (grab and self._gl is not None) else None
        vis.EndScene()
        self.frames += 1
        if grab and self._gl is None:
            image = self._screenshot_after_swap()
        return image if grab else True

    def _read_back_buffer(self):
        # not createScreenShot: Irrlicht reads GL_FRONT, all zeros under Mesa's software GLX (module doc)
        size = self.vis.GetVideoDriver().getScreenSize()
        w, h = int(size.Width), int(size.Height)
        gl = self._gl
        buf = (ctypes.c_ubyte * (w * h * 4))()
        gl.glPixelStorei(_GL_PACK_ALIGNMENT, 1)
        gl.glReadBuffer(_GL_BACK)
        gl.glReadPixels(0, 0, w, h, _GL_RGBA, _GL_UNSIGNED_BYTE, buf)
        err = gl.glGetError()
        gl.glPixelStorei(_GL_PACK_ALIGNMENT, 4)
        if err:
            raise ViewerError(f"glReadPixels of the back buffer failed (OpenGL error 0x{err:04x})")
        return np.frombuffer(buf, np.uint8).reshape(h, w, 4)[::-1, :, :3].copy()

    def _screenshot_after_swap(self):
        import matplotlib.image as mpimg

        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "frame.png")
            self.vis.WriteImageToFile(path)
            if not os.path.isfile(path):
                raise ViewerError(f"the {self.driver_name} driver wrote no screenshot")
            img = np.asarray(mpimg.imread(path))
        if img.dtype != np.uint8:
            img = np.round(img * 255).astype(np.uint8)
        return img[..., :3]

    def grab(self):
        """Render one frame (after one warm-up frame) and return it; a uniform frame raises :class:`ViewerError`."""
        if self.frames == 0:
            self.render()
        image = self.render(grab=True)
        if image is None:
            raise ViewerError("the Irrlicht window was closed before the frame was rendered")
        if is_blank(image):
            raise ViewerError(f"the rendered frame is one uniform colour {tuple(int(c) for c in image[0, 0])} "
                              f"({self.driver_name}); not writing it")
        return image

    def write_image(self, path):
        """Render one frame to the PNG file ``path``; returns the image (H x W x 3 uint8)."""
        path = _check_png_path(path)
        image = self.grab()
        import matplotlib.image as mpimg

        mpimg.imsave(path, image)
        return image

    def run(self, max_frames=None, fps=60):
        """Draw frames until the window is closed (or ``max_frames`` were drawn); returns the number drawn."""
        n = 0
        try:
            while max_frames is None or n < max_frames:
                if self.render() is None:
                    break
                n += 1
                time.sleep(1.0 / fps)     # a still scene: no need to spin the CPU
        except KeyboardInterrupt:
            pass
        return n

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        """Close the window and free the visual system."""
        vis, self.vis = self.vis, None
        if vis is not None:
            vis.Quit()
            vis.Run()
            # ~ChVisualSystem writes into every attached ChSystem, so it must go first, not in whatever
            # order the interpreter frees objects at exit (a segmentation fault after a good screenshot)
            del vis


def screenshot(structure, path, size=WINDOW_SIZE, data_path=None, built=None, coloring=None):
    """Write one frame of ``structure``'s view to the PNG ``path``; returns the image array."""
    with StructureView(structure, built=built, size=size, data_path=data_path, coloring=coloring) as view:
        return view.write_image(path)


def show(structure, screenshot=None, interactive=False, size=WINDOW_SIZE, data_path=None, max_frames=None,
         coloring=None):
    """``--screenshot FILE.png`` and/or ``--viz`` of a scene or of ``python -m chrono_origami static``.

    ``coloring``: a :class:`~chrono_origami.report.hinge_colors.HingeColoring`: the hinges in its colours (the
    figure's map and scale), a colour bar at the right edge and the largest value in the title.

    A view that cannot be opened or rendered raises :class:`~chrono_origami.tools.errors.ViewerError`
    (the command line prints it as one line, exit code 1: ``cli.app.exit_code``).
    """
    if screenshot:
        _check_png_path(screenshot)
    with StructureView(structure, size=size, data_path=data_path, coloring=coloring) as view:
        if screenshot:
            view.write_image(screenshot)
            print(f"screenshot written to {screenshot}")
        if interactive:
            n = view.run(max_frames)
            print(f"viewer closed after {n} frames")


# ------------------------------------------------------------------ fold playback
def fold_file_frames(path):
    """(structure, frames, times) of a FOLD file: frame 0 and its ``file_frames``; times from ``origami:time``.

    Times are None when a frame does not give one.
    """
    from ..structure import foldfile

    structure = foldfile.read_fold(path)
    frames = [structure.pattern.vertices] + [f.pattern.vertices for f in foldfile.read_frames(path)]
    data = foldfile._load(path)[0]
    times = [0.0] + [fr.get("origami:time") for fr in data.get("file_frames", [])]
    return structure, frames, (None if None in times else times)


def play(structure, frames, times=None, png_dir=None, interactive=False, size=WINDOW_SIZE, data_path=None, fps=10,
         max_frames=None, contact=None):
    """Play a fold in the Irrlicht view: the panels posed at each of ``frames`` (V x 3 vertices) in turn.

    ``png_dir``: write one PNG per frame there (``frame_0000.png``...;
    headless under xvfb-run). ``interactive``: loop the frames in a window
    at ``fps`` until it is closed (or ``max_frames`` were drawn). The bodies
    are built at the first frame, without supports and loads. ``contact``: (panel p, panel q, text), 0-based, the
    fold's first contact (``analysis.contact.Contacts``): the two panels drawn red and the text in the title.
    Returns the PNG paths. A view that
    cannot be played raises :class:`~chrono_origami.tools.errors.ViewerError`, as :func:`show` does.
    """
    from ..structure.structure import Structure

    V = structure.pattern.n_vertices
    frames = [np.asarray(X, float) for X in frames]
    if not frames:
        raise ViewerError("no frames to play")
    for k, X in enumerate(frames):
        if X.shape != (V, 3):
            raise ViewerError(f"frame {k} has shape {X.shape}; the pattern needs {V} x 3 vertex coordinates")
    if times is not None and len(times) != len(frames):
        raise ViewerError(f"{len(times)} frame times for {len(frames)} frames")
    bare = Structure(structure.pattern.with_vertices(frames[0]), structure.hinge_kinds, structure.thickness,
                     structure.density, name=structure.name, notes=structure.notes, placement=structure.placement)
    span = f", t = {times[0]:g} .. {times[-1]:g} s" if times is not None else ""
    title = (f"{bare.name}: {bare.pattern.n_panels} panels, {hinge_legend(bare)}; fold playback, "
             f"{len(frames)} frames{span}")
    if contact is not None:
        title += f"; first contact (red): panels {contact[0] + 1} and {contact[1] + 1}, {contact[2]}"
    paths = []
    with StructureView(bare, size=size, data_path=data_path, title=title, configurations=frames,
                       marked_panels=() if contact is None else contact[:2]) as view:
        if png_dir:
            os.makedirs(png_dir, exist_ok=True)
            import matplotlib.image as mpimg

            for k, X in enumerate(frames):
                view.built.set_configuration(X)
                path = os.path.join(png_dir, f"frame_{k:04d}.png")
                mpimg.imsave(path, view.grab())
                paths.append(path)
            print(f"wrote {len(paths)} Irrlicht PNG frames to {png_dir}")
        if interactive:
            n = 0
            try:
                while max_frames is None or n < max_frames:
                    view.built.set_configuration(frames[n % len(frames)])
                    if view.render() is None:
                        break
                    n += 1
                    time.sleep(1.0 / fps)
            except KeyboardInterrupt:
                pass
            print(f"viewer closed after {n} frames")
    return paths
