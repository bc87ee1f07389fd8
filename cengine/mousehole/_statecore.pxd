# cython: language_level=3
"""The compiled base class of the four cores' states (``_statecore.pyx``): the game and seed
of a state, the class-level glue (``new``, ``game.new_state``, ``from_dict``, unpickling's
seed, the C-level interface's capsules) and the Python-facing state methods, written once
over the C game interface (``mh_game_t``, _cgame.pxd). A core gives its construction, its
game interface and what lies outside its struct (its history) through the cdef methods
below; ``state_new`` is how a core's ``_from_valid_dict`` makes its object."""

cimport cython
cimport numpy as cnp

from libc.stdint cimport uint16_t, int64_t
from mousehole._rng cimport uint64_t
from mousehole._cgame cimport mh_game_t, mh_dims_t
from cpython.pycapsule cimport PyCapsule_New, PyCapsule_GetPointer
from mousehole._boundary cimport (
    new_instance, cfg_cache_t, cfg_fill_t, load_cfg, cfg_holder, sim_range_t, hist_reserve,
)


# What a core gives the shared layer, once (a static struct of its module, ``core_def``):
# its C game interface, the cache of its games' constants and its ``simulate`` loop. Every
# core's state struct starts with its game's constants (``cfg``), ``cfg.size`` bytes, or, for
# a core that shares them (``shared``), with a pointer to them: then every state object holds
# their capsule (``StateCore._consts``), so that its struct and every copy of it made while
# it lives (``clone``, ``VectorGame``'s envs, a search's determinizations) point at live
# memory, and ``new_state`` copies 8 bytes instead of the whole constants.
ctypedef void (*core_scores_f)(const void* s, int64_t* out) noexcept nogil
ctypedef int (*core_winner_mask_f)(const void* s) noexcept nogil
ctypedef int (*core_init_f)(object st, object game, uint64_t seed) except -1

ctypedef struct core_t:
    const mh_game_t* game   # the C game interface (its ``reset`` deals a new game)
    cfg_cache_t cfg         # ``load_cfg``'s cache of the constants (name, size, fill)
    sim_range_t sim_range   # ``simulate``'s games (``run_sim_chunk``)
    core_scores_f scores    # each seat's score by the game's scoring rule (``players`` entries)
    core_winner_mask_f winner_mask   # bit p set when seat p won (read at the end only)
    core_init_f init        # ``new`` of a state object (StateCore's ``_init``, unless the core's)
    Py_ssize_t offset       # where a state object holds its struct (``core_place``)
    bint shared             # its struct points at its constants (``load_constants``)
    char id[64]             # its game's id (the table's ``name``) and the name of its
    char cfg_name[64]       # constants' capsule (``cfg.name``): from its module's name


cdef extern from *:
    """
    #define MH_CORE_CAPSULE "mousehole.core"
    """
    const char* CORE_CAPSULE "MH_CORE_CAPSULE"


cdef inline object core_capsule(core_t* c):
    """A core class's ``_core_capsule`` (its description, for the class methods that have no
    state: ``simulate_chunk``)."""
    return PyCapsule_New(<void*>c, CORE_CAPSULE, NULL)


cdef inline void core_place(core_t* c, StateCore blank, void* s) noexcept:
    """``c.offset``: where an object of the core's class holds its struct (at ``s`` in
    ``blank``, any object of the class: the same offset in every one, and in its public
    class, which adds no field)."""
    c.offset = <char*>s - <char*><void*>blank


cdef inline void core_def(core_t* c, const mh_game_t* game, const char* cfg_name,
                          size_t cfg_size, cfg_fill_t fill, sim_range_t sim_range,
                          core_scores_f scores, core_winner_mask_f winner_mask,
                          core_init_f init) noexcept:
    """Fill a core's description ``c`` (once, when its module is imported)."""
    c.game = game
    c.shared = 0  # (a core that shares its constants sets it after)
    c.cfg.name = cfg_name
    c.cfg.size = cfg_size
    c.cfg.fill = fill
    c.sim_range = sim_range
    c.scores = scores
    c.winner_mask = winner_mask
    c.init = init


@cython.no_gc  # (as in _statecore.pyx; declared here too, so the cores' classes are not GC types)
cdef class StateCore:
    cdef readonly object game
    cdef readonly object seed     # the seed of new_state; None for a loaded or determinized state
    cdef object _consts           # a ``shared`` core's: the capsule of the constants its struct points at
    # the game interface and this state's struct, bound once per object (``bound``)
    cdef const mh_game_t* _g
    cdef void* _s
    cdef int _max_legal           # the interface's ``dims``' max_legal, read when bound
    # its core's description (``core_of``: from the class's ``_core_capsule``, at first use)
    cdef core_t* _cd
    # the history, for a core that keeps it outside its struct (``hist_put``): ``hist_n``
    # actions at ``hist`` (NULL for none; room for ``hist_cap``), freed with the object
    cdef uint16_t* hist
    cdef Py_ssize_t hist_n, hist_cap
    # ``new``: the constants of ``game`` into the struct and the deal of ``seed`` (a new,
    # zero-filled object whose ``game`` and ``seed`` are set); by default the core's ``init``
    cdef int _init(self, object game, uint64_t seed) except -1
    # per core, what the interface does not say (each has a default for a core without it):
    # ``apply_action``, before the interface's ``apply``: 0 when int ``a`` (any int64) is not
    # a legal action or chance outcome now, else 1 once ``a`` is in the history kept outside
    # the struct (if any)
    cdef int _admit(self, int64_t a) except -1
    # the history: its actions at ``h[0], h[step], ...`` (``n[0]`` of them)
    cdef const uint16_t* _hist(self, Py_ssize_t* n, Py_ssize_t* step) noexcept
    # ``clone``: what lies outside the struct, from ``src`` (the struct is copied already)
    cdef int _copy_rest(self, StateCore src) except -1
    # ``determinize``: the history as seat ``p``'s view completes it (the struct is re-dealt)
    cdef int _determinized(self, int p) except -1
    # ``observation``: its shape into ``dims``, returns its number of dimensions (at most 3)
    cdef int _obs_shape(self, cnp.npy_intp* dims) noexcept
    # ``observation``: after the interface's ``observe`` (``n`` floats at ``obs``)
    cdef int _observed(self, float* obs, Py_ssize_t n) except -1


cdef inline core_t* core_from_class(type t) except NULL:
    """The description of core class ``t`` (or its public class): its ``_core_capsule``;
    TypeError for a class that is no game's (``StateCore`` itself)."""
    cdef object cap = getattr(t, "_core_capsule", None)
    if cap is None:
        raise TypeError(f"{t.__name__} is not a game's compiled state class")
    return <core_t*>PyCapsule_GetPointer(cap, CORE_CAPSULE)


cdef inline core_t* core_of(StateCore st, void** s) except NULL:
    """The description of ``st``'s core (found once per object), its struct's address into
    ``s[0]``; TypeError for ``StateCore`` itself."""
    if st._cd == NULL:
        st._cd = core_from_class(type(st))
    s[0] = <char*><void*>st + st._cd.offset
    return st._cd


cdef inline const mh_game_t* bound(StateCore st) except NULL:
    """The game interface of ``st`` (its struct in ``st._s``, ``max_legal`` in
    ``st._max_legal``), bound at the first use (``clone`` copies the binding); TypeError for
    ``StateCore`` itself."""
    cdef mh_dims_t d
    cdef core_t* c
    if st._g == NULL:
        c = core_of(st, &st._s)
        st._g = c.game
        st._g.dims(st._s, &d)
        st._max_legal = d.max_legal
    return st._g


cdef inline StateCore state_new(type t, object game):
    """A new zero-filled object of core class ``t`` (or its public class) of ``game`` (its
    seed None)."""
    cdef StateCore st = <StateCore>new_instance(t)
    st.game = game
    return st  # (bound at its first use: its struct's constants are not set yet)


cdef inline void* load_constants(StateCore st, object game) except NULL:
    """The constants of ``game`` into the struct of ``st`` (its first field), from its core's
    cache (``load_cfg``), or, for a ``shared`` core, their address (the capsule held by
    ``st``, ``cfg_holder``); the struct's address."""
    cdef void* s
    cdef core_t* c = core_of(st, &s)
    if c.shared:
        st._consts = cfg_holder(&c.cfg, game)
        (<const void**>s)[0] = PyCapsule_GetPointer(st._consts, c.cfg.name)
    else:
        load_cfg(&c.cfg, game, s, c.cfg.size)
    return s


cdef inline StateCore state_loaded(type t, object game):
    """``state_new`` with the constants of ``game`` in its struct (``load_constants``): how a
    core's ``_from_valid_dict`` begins."""
    cdef StateCore st = state_new(t, game)
    load_constants(st, game)
    return st


cdef inline int hist_put(StateCore st, Py_ssize_t i, int a) except -1:
    """Record action ``a`` as entry ``i`` (the struct's count of actions before it) of the
    history ``st`` keeps outside its struct, grown as needed: it then holds ``i + 1``."""
    hist_reserve(&st.hist, &st.hist_cap, i + 1)
    st.hist[i] = <uint16_t>a
    st.hist_n = i + 1
    return 0
