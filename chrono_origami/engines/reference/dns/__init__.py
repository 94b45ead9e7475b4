"""Energy-momentum time integration by the discrete null space method (reference engine, NumPy/SciPy).

Betsch & Leyendecker, *The discrete null space method for the energy consistent
integration of constrained mechanical systems, Part II: Multibody dynamics*
(``/work/shared/papers/betsch-leyendecker_discrete-null-space-multibody.txt``):

* :mod:`.body`: rigid bodies in director form q = (phi, d_1, d_2, d_3) (sec. 3);
* :mod:`.constraints`: internal and external constraints, all quadratic in q;
* :mod:`.pairs`: the S, R, C, P, E pairs and vertex supports: external
  constraints, discrete null space blocks, reparametrisations (sec. 4);
* :mod:`.multibody`: a system of bodies and pairs, its open-loop tree and
  closures (sec. 5.4; Part I, App. C);
* :mod:`.forces`: gravity, dead loads, crease springs, dampers and torque
  motors with a discrete gradient;
* :mod:`.schemes`: the energy-momentum step, solved by the reduced (discrete
  null space) or the constrained scheme, and the time loop;
* :mod:`.examples`: the paper's gyro top, cylindrical and planar pairs;
* :mod:`.structure`: a Structure's panels and hinges as a multibody system,
  and :func:`run`, the reference engine of ``chrono_origami.analysis.dynamics``.
"""
