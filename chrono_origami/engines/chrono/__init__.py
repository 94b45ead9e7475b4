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

Importing this package needs PyChrono; without it, or when PyChrono kills
the interpreter at import (``engines.chrono_available`` probes it in a child
interpreter first), it raises
:class:`~chrono_origami.tools.errors.ChronoUnavailable` (an ``ImportError``).
"""
from .. import chrono_available, chrono_unavailable_reason
from ...tools.errors import ChronoUnavailable

if not chrono_available():    # probed in a child interpreter first: a bad build must not kill this one
    _reason = chrono_unavailable_reason()
    raise ChronoUnavailable(f"the chrono engine needs PyChrono, which cannot be used here: {_reason}"
                            + ("" if "conda install" in _reason else " (conda install -c projectchrono pychrono)")
                            + "; use the reference engine")
try:
    import pychrono as _pychrono  # noqa: F401
except ImportError as _e:  # pragma: no cover - depends on the machine
    raise ChronoUnavailable(
        "the chrono engine needs PyChrono, which does not import here "
        f"({_e}); install it (conda install -c projectchrono pychrono) or use the reference engine") from _e
