# cython: language_level=3
"""The compiled base class of the four cores' states (``_statecore.pyx``): the game and seed
of a state, and the class-level glue written once (``new``, ``game.new_state``,
``from_dict``, unpickling's seed, the C-level interface's capsules). A core gives its own
construction and its own game interface through the cdef methods below."""

cimport cython

from mousehole._rng cimport uint64_t
from mousehole._cgame cimport mh_game_t


@cython.no_gc  # (as in _statecore.pyx; declared here too, so the cores' classes are not GC types)
cdef class StateCore:
    cdef readonly object game
    cdef readonly object seed     # the seed of new_state; None for a loaded or determinized state
    # per core: the constants of ``game`` into the struct and the deal of ``seed`` (a new,
    # zero-filled object whose ``game`` and ``seed`` are set)
    cdef int _init(self, object game, uint64_t seed) except -1
    # per core: its game interface (``_c_game``) and its struct's address (``_c_state``)
    cdef const mh_game_t* _iface(self) noexcept
    cdef void* _struct(self) noexcept
