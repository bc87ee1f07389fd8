# cython: language_level=3
"""``StateCore``, the compiled base class of the cores' state classes (``_statecore.pxd``):
the Python-facing state methods, written once for every game over the C game interface
(``mh_game_t``, _cgame.pxd), and the class-level glue. A core subclasses it, declares its
struct (its game's constants first) after ``game`` and ``seed``, describes itself once in a
``core_t`` (``core_def``: its interface, its constants' cache, its ``simulate`` loop, its
scores and winners; ``core_place``: where its objects hold the struct) named by its class's
``_core_capsule``, and defines what its interface does not say (``_admit``, its history,
``_init``, ...: the cdef methods of the .pxd, each with a default here; a history kept outside
the struct is ``hist_put``'s, here). Its own ``_from_valid_dict(game, d)`` (which
``_api.load_state_as`` finds on the core itself: it builds from a dict already checked by
``game._validate_dict``, ``Game._load`` only, the struct taking its values unchecked;
``state_loaded`` begins it), ``_to_dict`` and its extra methods stay in the core."""

cimport cython
cimport numpy as cnp
from libc.stdint cimport uint8_t, int32_t
from libc.stdlib cimport malloc, free
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF
from cpython.object cimport PyObject, PyTypeObject

from mousehole._rng cimport uint64_t
from mousehole._bits cimport mh_copy
from mousehole._cgame cimport (
    mh_game_t, mh_dims_t, game_capsule, state_capsule, CHANCE_SEAT, TERMINAL_SEAT,
)
from mousehole._boundary cimport (
    new_instance, seed_arg, fresh_seed, action_int, seat_arg, out_array, out_result, load_cfg,
    run_sim_chunk, hist_reserve,
)
from mousehole._pyalloc cimport adopt_public_class
from libc.string cimport memcpy

cnp.import_array()

cdef enum:
    LEGAL_STACK = 1024     # legal actions listed on the stack (more: on the heap)
    MAX_SEATS = 64         # seats a score list is built for (every game has far fewer)


cdef cnp.dtype INT64_DESCR = cnp.PyArray_DescrFromType(cnp.NPY_INT64)
cdef type NDARRAY_TYPE = cnp.ndarray

cdef extern from "numpy/arrayobject.h":
    object np_new_from_descr "PyArray_NewFromDescr" (PyTypeObject* subtype, cnp.dtype descr, int nd,
            cnp.npy_intp* dims, cnp.npy_intp* strides, void* data, int flags, PyObject* obj)


cdef StateCore copy_of(StateCore self):
    """``clone``: one struct copy (the library's copy: see mh_copy) and the core's
    ``_copy_rest``."""
    cdef const mh_game_t* g = bound(self)
    cdef StateCore c = <StateCore>new_instance(type(self))
    c.game = self.game
    c.seed = self.seed
    c._consts = self._consts  # (the constants a shared core's struct points at)
    c._g = g
    c._cd = self._cd
    c._max_legal = self._max_legal
    # (the same class: its struct at the same offset)
    c._s = <char*><void*>c + (<char*>self._s - <char*><void*>self)
    mh_copy(c._s, self._s, g.size)
    c._copy_rest(self)
    return c


cdef inline int seats_of(StateCore self) except -1:
    """``scores``, ``returns``: the number of seats (bound; at most ``MAX_SEATS``, the room
    their per-seat buffers have on the stack)."""
    cdef mh_dims_t d
    bound(self).dims(self._s, &d)
    if d.players > MAX_SEATS:
        raise RuntimeError(f"{d.players} seats: more than a compiled core has")
    return d.players


# It holds its game and seed, which hold no state (a game's cached ``_compiled_cfg`` is a
# capsule of constants): no cycle goes through a state, so it is not traversed by the GC.
@cython.no_gc
cdef class StateCore:
    """The part of a compiled state that does not depend on the game (not used alone)."""

    def __dealloc__(self):
        free(self.hist)  # (the history kept outside the struct; NULL for a core without it)

    # ---- what a core defines (the defaults: a class that is no game's, or none of it) ----

    cdef int _init(self, object game, uint64_t seed) except -1:
        # (the core's ``init``, ``_cgame_core.pxi``: the constants' copy of the core's constant
        # size, and its deal; M and Maus au Chocolat give their own; TypeError for StateCore)
        cdef void* s
        return core_of(self, &s).init(self, game, seed)

    cdef int _admit(self, int64_t a) except -1:
        return 0

    cdef const uint16_t* _hist(self, Py_ssize_t* n, Py_ssize_t* step) noexcept:
        n[0] = self.hist_n  # (the history kept outside the struct, ``hist_put``; 0 for none)
        step[0] = 1
        return self.hist

    cdef int _copy_rest(self, StateCore src) except -1:
        # (the history kept outside the struct, ``hist_put``'s, if any)
        if src.hist_n:
            hist_reserve(&self.hist, &self.hist_cap, src.hist_n)
            memcpy(self.hist, src.hist, src.hist_n * sizeof(uint16_t))
            self.hist_n = src.hist_n
        return 0

    cdef int _determinized(self, int p) except -1:
        return 0

    cdef int _obs_shape(self, cnp.npy_intp* dims) noexcept:
        return 0  # one dimension, the interface's obs_size

    cdef int _observed(self, float* obs, Py_ssize_t n) except -1:
        return 0

    # ---- construction ----------------------------------------------------------------------

    @classmethod
    def new(cls, game, uint64_t seed):
        """A new state of class ``cls`` (a core or its public class) of ``game``, dealt from
        ``seed``."""
        cdef StateCore st = state_new(cls, game)
        st.seed = seed
        st._init(game, seed)
        return st

    @classmethod
    def _new_state_function(cls, game):
        """``game.new_state`` of this engine in one compiled call (``new`` with the
        seed's conversion, ``seed_arg``): the Game binds it when it is loaded."""
        cdef type t = cls
        cdef core_t* c = core_from_class(t)

        def new_state(seed=None):
            # (with no seed, a fresh secret one from the operating system)
            cdef uint64_t sd = fresh_seed() if seed is None else seed_arg(seed)
            cdef StateCore st = state_new(t, game)
            st._cd = c  # (found once, for every state of the game)
            st.seed = sd
            st._init(game, sd)
            return st

        return new_state

    @classmethod
    def from_dict(cls, game, d):
        """A state built from state dict ``d``, checked first exactly as
        ``game.state_from_dict(d)`` checks it (``StateError`` naming the key or the rule;
        ``TypeError`` for a game of another kind): no unchecked value reaches the struct."""
        from mousehole._api import load_state_as
        return load_state_as(cls, game, d)

    @classmethod
    def _adopt_public_class(cls, type sub):
        """Once, for the public state class ``sub`` (this core + the shared API, no new
        fields): its instances skip GC tracking and call this core's methods the fast way
        (``adopt_public_class`` in _pyalloc.pxd)."""
        adopt_public_class(sub, cls)

    @classmethod
    def simulate_chunk(cls, game, uint64_t seed, Py_ssize_t start, Py_ssize_t stop,
                       scores, winners, lengths, truncated):
        """Play games ``start .. stop - 1`` of ``mousehole.simulate`` without the GIL (the
        core's ``sim_range``, on a copy of the game's constants); game ``i`` goes to row
        ``i - start`` of the result arrays (``winners``, ``truncated`` as uint8 views)."""
        cdef core_t* c = core_from_class(cls)
        cdef void* cfg = malloc(c.cfg.size)
        if cfg == NULL:
            raise MemoryError()
        try:
            load_cfg(&c.cfg, game, cfg, c.cfg.size)
            run_sim_chunk(c.sim_range, cfg, game.num_players, seed, start, stop,
                          scores, winners, lengths, truncated)
        finally:
            free(cfg)

    def _set_seed(self, seed):
        """Unpickling: the seed the pickled state was created from (or None)."""
        self.seed = seed

    def _c_game(self):
        """The C-level interface of the game (a capsule holding ``const mh_game_t*``)."""
        return game_capsule(bound(self))

    def _c_state(self):
        """The address of this state's struct (a capsule; valid while the state lives)."""
        bound(self)
        return state_capsule(self._s)

    def clone(self):
        """An independent copy (one struct copy and the action history)."""
        return copy_of(self)

    def determinize(self, player, seed):
        """A full state that seat ``player`` cannot tell apart from this one, what it cannot
        see re-dealt from ``seed``: equal to ``game.determinize_view(state.to_dict(
        for_player=player), seed)``, computed in compiled code (the interface's
        ``determinize``; the history as the view completes it)."""
        cdef const mh_game_t* g = bound(self)
        cdef mh_dims_t d
        g.dims(self._s, &d)
        cdef int p = seat_arg(self.game, d.players, player)
        cdef uint64_t sd = seed_arg(seed)
        cdef StateCore c = copy_of(self)
        c.seed = None  # not the seed of new_state any more
        g.determinize(c._s, p, sd)
        c._determinized(p)
        return c

    # ---- the state --------------------------------------------------------------------------

    @property
    def current_player(self):
        """The seat to move, ``mousehole.CHANCE`` at a chance node, ``mousehole.TERMINAL``
        once the game is over."""
        return bound(self).current(self._s)

    def is_terminal(self):
        """True once the game is over (by its rules or by ``max_turns``)."""
        return bound(self).current(self._s) == TERMINAL_SEAT

    def is_chance_node(self):
        """True when chance acts next (the games whose random events all happen at setup
        have none)."""
        return bound(self).current(self._s) == CHANCE_SEAT

    @property
    def truncated(self):
        """True when the game ended by ``max_turns`` rather than by its rules."""
        return bound(self).truncated(self._s) != 0

    @property
    def history(self):
        """The actions applied since ``new_state``, oldest first (a new list)."""
        cdef Py_ssize_t n, step, i
        cdef const uint16_t* h
        cdef list out
        cdef object v
        bound(self)
        h = self._hist(&n, &step)
        out = PyList_New(n)
        for i in range(n):
            v = h[i * step]
            Py_INCREF(v)  # PyList_SET_ITEM steals the reference
            PyList_SET_ITEM(out, i, v)
        return out

    def legal_actions(self):
        """The legal actions of the seat to move: a new sorted numpy ``int64`` array (the
        outcomes at a chance node; empty once the game is over)."""
        cdef const mh_game_t* g = bound(self)
        cdef int32_t stack[LEGAL_STACK]
        cdef int32_t* buf = stack
        cdef double* prob
        cdef cnp.npy_intp n, i
        cdef cnp.ndarray arr
        cdef int64_t* out
        if self._max_legal > LEGAL_STACK:
            buf = <int32_t*>malloc(self._max_legal * sizeof(int32_t))
            if buf == NULL:
                raise MemoryError()
        n = g.legal(self._s, buf)
        if n == 0 and g.current(self._s) == CHANCE_SEAT:
            prob = <double*>malloc(self._max_legal * sizeof(double))
            if prob != NULL:
                n = g.chance(self._s, buf, prob)
                free(prob)
            elif buf != stack:
                free(buf)
                raise MemoryError()
            else:
                raise MemoryError()
        Py_INCREF(INT64_DESCR)  # (stolen by PyArray_NewFromDescr)
        arr = np_new_from_descr(<PyTypeObject*>NDARRAY_TYPE, INT64_DESCR, 1, &n, NULL, NULL, 0, NULL)
        out = <int64_t*>cnp.PyArray_DATA(arr)
        for i in range(n):
            out[i] = buf[i]
        if buf != stack:
            free(buf)
        return arr

    def chance_outcomes(self):
        """At a chance node, ``[(outcome, probability), ...]`` (outcomes ascending), else
        ``[]``."""
        cdef const mh_game_t* g = bound(self)
        cdef mh_dims_t d
        cdef int32_t* buf
        cdef double* prob
        cdef int n, i
        g.dims(self._s, &d)
        buf = <int32_t*>malloc(d.max_legal * sizeof(int32_t) + 1)
        prob = <double*>malloc(d.max_legal * sizeof(double) + 1)
        try:
            if buf == NULL or prob == NULL:
                raise MemoryError()
            n = g.chance(self._s, buf, prob)
            return [(buf[i], prob[i]) for i in range(n)]
        finally:
            free(buf)
            free(prob)

    def legal_action_mask(self, out=None):
        """Boolean mask of length ``game.num_actions``, True at the legal actions, written
        straight from the struct; into ``out`` (a writable C-contiguous bool array of that
        length) when given, else into a new array."""
        cdef const mh_game_t* g = bound(self)
        cdef mh_dims_t d
        cdef cnp.npy_intp dim
        cdef cnp.ndarray arr
        g.dims(self._s, &d)
        dim = d.num_actions
        arr = out_array(out, cnp.NPY_BOOL, 1, &dim, False)  # (the interface's mask writes it whole)
        g.mask(self._s, <uint8_t*>cnp.PyArray_DATA(arr))
        return out_result(out, arr)

    def observation(self, player, out=None):
        """Seat ``player``'s observation (float32, ``game.observation_shape``), written
        straight from the struct, the same bit for bit as the reference engine's; into
        ``out`` (a writable C-contiguous float32 array of that shape) when given."""
        cdef const mh_game_t* g = bound(self)
        cdef mh_dims_t d
        cdef cnp.npy_intp dims[3]
        cdef cnp.ndarray arr
        cdef int nd, p
        cdef float* obs
        g.dims(self._s, &d)
        p = seat_arg(self.game, d.players, player)
        nd = self._obs_shape(dims)
        if nd == 0:
            nd = 1
            dims[0] = d.obs_size
        arr = out_array(out, cnp.NPY_FLOAT32, nd, dims, False)  # (the interface's observe writes it whole)
        obs = <float*>cnp.PyArray_DATA(arr)
        g.observe(self._s, p, obs)
        self._observed(obs, d.obs_size)
        return out_result(out, arr)

    def apply_action(self, action):
        """Apply an int action (the game's page in docs/games/ lists them); IllegalMoveError
        (the state unchanged) if the rules do not allow it."""
        cdef const mh_game_t* g = bound(self)
        cdef int64_t a = action_int(action)
        if not self._admit(a):
            raise self._illegal(action)
        g.apply(self._s, <int32_t>a)

    def scores(self):
        """Each seat's score by the game's scoring rule, defined at any time."""
        cdef int64_t sc[MAX_SEATS]
        cdef int p, n = seats_of(self)
        cdef void* s
        core_of(self, &s).scores(s, sc)
        return [sc[p] for p in range(n)]

    def winners(self):
        """The seats that won (several for a shared win), ascending; empty before the end."""
        cdef const mh_game_t* g = bound(self)
        cdef mh_dims_t d
        cdef int mask, p
        cdef void* s
        if g.current(self._s) != TERMINAL_SEAT:
            return []
        g.dims(self._s, &d)
        mask = core_of(self, &s).winner_mask(s)
        return [p for p in range(d.players) if (mask >> p) & 1]

    def returns(self):
        """Per seat: +1.0 for each winner and -1.0 for each other seat at the end; 0.0 for
        all before it and when every seat wins (and the game's own cases: its reference
        class's ``returns``), computed by the interface's ``returns``."""
        cdef double r[MAX_SEATS]
        cdef int p, n = seats_of(self)
        self._g.returns(self._s, r)
        return [r[p] for p in range(n)]
