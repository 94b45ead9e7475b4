"""The structures of the paper (and a few more) that several test files run through both paths or both engines."""
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
