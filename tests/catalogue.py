"""The structures of the paper (and a few more) that several test files run through both paths or both engines,
and the system matrices of a spring chain for the modal solvers (also timed by benchmarks/threads.py)."""
import numpy as np

from chrono_origami.patterns import kresling as kr
from chrono_origami.patterns import miura as mi
from chrono_origami.patterns import simple as si
from chrono_origami.patterns import yoshimura as yo
from chrono_origami.structure.structure import Structure

STRUCTURES = {
    "miura cantilever (Table 1)": lambda: mi.miura_cantilever_from_vertices(mi.TABLE1_VERTICES),
    "miura cantilever (builder)": lambda: mi.miura_cantilever(),
    "miura single vertex": lambda: mi.miura_single_vertex(),
    "miura strip": lambda: mi.miura_strip(3, 55.0, 40.0),
    "kresling module": lambda: kr.kresling_module(),
    "kresling singular module": lambda: kr.kresling_module(twist=np.pi / 6),
    "kresling tower 2": lambda: kr.kresling_tower(2, door_module=1),
    "kresling tower 2 doors": lambda: kr.kresling_tower(2, door_module=None),
    "kresling tower 3": lambda: kr.kresling_tower(3, door_module=1),
    "yoshimura wedge": lambda: yo.table4_structure(),
    "yoshimura wedge doors": lambda: yo.table4_structure("door"),
    "four-panel ring": lambda: Structure(si.rectangular_ring()),
    "square twist": lambda: Structure(si.square_twist()),
    "square twist folded": lambda: Structure(si.square_twist_folded(40.0)),
}
DETERMINED = ["miura cantilever (Table 1)", "miura cantilever (builder)", "kresling module", "kresling tower 2",
              "kresling tower 3", "yoshimura wedge"]


def chain_matrices(N):
    """SystemMatrices of N bodies (mass 2, inertia 0.3, 0.4, 0.5) moving along x only, springs 50 between
    neighbours and to two walls: N modes of a mass-spring chain."""
    import scipy.sparse as sp

    from chrono_origami.results.modal import SystemMatrices

    M = np.kron(np.eye(N), np.diag([2.0, 2.0, 2.0, 0.3, 0.4, 0.5]))
    x = [6 * i for i in range(N)]
    K = np.zeros((6 * N, 6 * N))
    K[np.ix_(x, x)] = 50.0 * (2 * np.eye(N) - np.eye(N, k=1) - np.eye(N, k=-1))
    Cq = np.eye(6 * N)[[i for i in range(6 * N) if i not in x]]
    return SystemMatrices(*(sp.csr_matrix(A) for A in (M, np.zeros_like(M), K, Cq)),
                          [f"body {i + 1}" for i in range(N)], np.tile(np.eye(3), (N, 1, 1)), np.zeros((N, 3)), 1.0,
                          True)
