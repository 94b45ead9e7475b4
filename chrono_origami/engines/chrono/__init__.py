"""The Chrono engine: thick-origami structures in a PyChrono ``ChSystem``.

* :mod:`.links`: the plugin's links -- :class:`~.links.DoorHinge`,
  :class:`~.links.SlidingHinge`, :class:`~.links.PointSlider`,
  :class:`~.links.SphericalHinge`, :class:`~.links.VertexSupport`
  (``ChLinkMateGeneric`` subclasses) and :class:`~.links.DoorHingeLock`,
  :class:`~.links.SlidingHingeLock` (``ChLinkLock`` masks);
* :mod:`.system`: :func:`~.system.build_system`, one ``ChBody`` per panel,
  links per hinge and support, point loads and gravity;
* :mod:`.statics`: assembly, counting (M, S) from Chrono's constraint
  Jacobian, static analysis with a direct sparse solver (the one static
  driver, :func:`~.statics.static_analysis`), reactions into
  :class:`~chrono_origami.results.statics.StaticResult`;
* :mod:`.matrices`: Chrono's M, R, K, Cq (``WriteSystemMatrices``) with the
  terms Chrono leaves out (point-load stiffness, Kc correction), which
  ``analysis.modal`` solves;
* :mod:`.springs`: crease springs and dampers; :mod:`.motion`: time
  integration; :mod:`.folding`: folding by assembly; :mod:`.kc_examples`: the
  Kc paper's examples.

Importing this package needs PyChrono; without it, it raises
:class:`~chrono_origami.tools.errors.ChronoUnavailable` (an ``ImportError``).
"""
from ...tools.errors import ChronoUnavailable

try:
    import pychrono as _pychrono  # noqa: F401
except ImportError as _e:  # pragma: no cover - depends on the machine
    raise ChronoUnavailable(
        "the chrono engine needs PyChrono, which does not import here "
        f"({_e}); install it (conda install -c projectchrono pychrono) or use the reference engine") from _e
