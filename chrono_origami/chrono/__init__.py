"""The Chrono engine: thick-origami structures in a PyChrono ``ChSystem``.

* :mod:`.links`: the plugin's links -- :class:`~.links.DoorHinge`,
  :class:`~.links.SlidingHinge`, :class:`~.links.PointSlider`,
  :class:`~.links.SphericalHinge`, :class:`~.links.VertexSupport`
  (``ChLinkMateGeneric`` subclasses) and :class:`~.links.DoorHingeLock`,
  :class:`~.links.SlidingHingeLock` (``ChLinkLock`` masks);
* :mod:`.system`: :func:`~.system.build_system`, one ``ChBody`` per panel,
  links per hinge and support, point loads and gravity;
* :mod:`.analysis`: assembly, counting (M, S) from Chrono's constraint
  Jacobian, static analysis with a direct sparse solver (the one static
  driver, :func:`~.analysis.run_static`), reactions into
  :class:`~chrono_origami.results.StaticResult`;
* :mod:`.matrices`: Chrono's M, R, K, Cq (``WriteSystemMatrices``) with the
  terms Chrono leaves out (point-load stiffness, Kc correction);
* :mod:`.modal`: modal analysis at a static equilibrium, with or without Kc.

Importing this package needs PyChrono; without it, or when PyChrono kills
the interpreter at import (``engines.chrono_available`` probes it in a child
interpreter first), it raises
:class:`~chrono_origami.errors.ChronoUnavailable` (an ``ImportError``).
"""
from ..engines import chrono_available, chrono_unavailable_reason
from ..errors import ChronoUnavailable

if not chrono_available():    # probed in a child interpreter first: a bad build must not kill this one
    raise ChronoUnavailable(f"the chrono engine needs PyChrono, which cannot be used here: "
                            f"{chrono_unavailable_reason()}; install it (conda install -c projectchrono pychrono) "
                            f"or use the reference engine")
try:
    import pychrono as _pychrono  # noqa: F401
except ImportError as _e:  # pragma: no cover - depends on the machine
    raise ChronoUnavailable(
        "the chrono engine needs PyChrono, which does not import here "
        f"({_e}); install it (conda install -c projectchrono pychrono) or use the reference engine") from _e
