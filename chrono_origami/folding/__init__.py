"""Kinematic folding of thick origami driven at hinges (paper sec. 3.4).

``fold(problem)`` runs the paper's Newton-Raphson method on SE(3)^N (the
reference engine); ``chrono_origami.folding.chrono_fold`` runs the same
problem in a Chrono system. See ``problem`` for drives and vertex paths.
``fold_to_targets(structure, percent=...)`` folds to the target angles of
the file the structure was read from (``targets``); ``pattern_check``
diagnoses and corrects inexact flat geometry (Kawasaki's condition).
"""
from .history import FoldHistory
from .newton import fold
from .problem import (Drive, FoldProblem, SingularConfigurationError, VertexPath, along, blocked, fixed,
                      hinge_angle, in_plane, assignment_from_fold, assignment_from_vertices, file_assignment)
from .targets import file_targets, fold_to_targets

__all__ = ["Drive", "FoldProblem", "FoldHistory", "SingularConfigurationError", "VertexPath", "along",
           "blocked", "fixed", "assignment_from_fold", "assignment_from_vertices", "fold", "hinge_angle", "in_plane",
           "file_assignment", "file_targets", "fold_to_targets"]
