# cython: language_level=3
"""The Python boundary of mousehole's compiled cores, written once for all of them: seeds,
actions and seats from Python (with the errors of the shared checks in ``_api``), ``out=``
arrays, the constants of a game (cached, guarded for free-threaded builds), growable
histories and ``simulate_chunk``'s shell. Inline helpers only; a module that cimports this
cimports numpy and calls ``cnp.import_array()`` (the cores do)."""

from libc.stdint cimport uint8_t, uint16_t, int32_t, int64_t, uint64_t
from libc.stdlib cimport realloc
from libc.string cimport memcpy, memset
from cpython.long cimport PyLong_AsLongLongAndOverflow, PyLong_AsUnsignedLongLongMask
from cpython.number cimport PyIndex_Check, PyNumber_Index
from cpython.object cimport PyObject, PyTypeObject
from cpython.pycapsule cimport PyCapsule_New, PyCapsule_GetPointer, PyCapsule_IsValid
from cpython.ref cimport Py_INCREF, Py_XDECREF
cimport numpy as cnp

from mousehole._bits cimport mh_copy


cdef extern from *:
    """
    #include "numpy/arrayscalars.h"
    /* mousehole: numpy.int64 scalars (exactly that type: what legal_actions() holds), read in
       place; the module has imported numpy's C API. */
    static CYTHON_INLINE int mh_is_int64(PyObject* o) { return Py_TYPE(o) == &PyInt64ArrType_Type; }
    static CYTHON_INLINE npy_int64 mh_int64_value(PyObject* o) { return PyArrayScalar_VAL(o, Int64); }
    /* mousehole: whether the interpreter has a GIL (the module-level caches rely on it). */
    #ifdef Py_GIL_DISABLED
    #define MH_HAVE_GIL 0
    #else
    #define MH_HAVE_GIL 1
    #endif
    """
    bint mh_is_int64(object o)
    int64_t mh_int64_value(object o)
    const int MH_HAVE_GIL


# ---- objects and seeds ----------------------------------------------------------------------

cdef inline object new_instance(type t):
    """``t.__new__(t)`` through the type's C slot (no Python-level call, no ``__init__``):
    what the cores' ``new()``/``clone()`` factories use. ``t`` is a compiled core class or a
    Python subclass of one (the public state classes)."""
    cdef tuple args = ()
    return (<PyTypeObject*>t).tp_new(t, <PyObject*>args, NULL)


cdef inline uint64_t seed_arg(object seed) except? 1:
    """A seed as ``_api._seed`` takes it (any int modulo 2**64, numpy integers too, no bool),
    with the plain int first and inline."""
    if type(seed) is int:
        return PyLong_AsUnsignedLongLongMask(seed)
    from mousehole._api import _seed
    return _seed(seed)


cdef inline uint64_t fresh_seed() except? 1:
    """A fresh secret 64-bit seed from the operating system: what ``game.new_state()`` deals
    from when given no seed (``_api.fresh_seed``, written once there)."""
    from mousehole._api import fresh_seed as draw
    return draw()


# ---- actions and seats from Python ----------------------------------------------------------

cdef inline int64_t action_int(object action) except? -2:
    """The value of an action passed to ``apply_action``: a Python int, a numpy int64 (read in
    place: what ``legal_actions()`` holds) or any other integer (``__index__``); -1 for a value
    outside int64 (the caller reports it as out of range); TypeError for a non-integer."""
    cdef int64_t a = -1
    cdef int overflow = 0
    if mh_is_int64(action):
        return mh_int64_value(action)
    if type(action) is not int:
        if type(action) is bool or not PyIndex_Check(action):
            raise TypeError(f"an action must be an int (or use state.apply(move)), not {type(action).__name__}")
        try:  # (an integer array of one entry has __index__, yet refuses)
            action = PyNumber_Index(action)
        except TypeError:
            raise TypeError(f"an action must be an int (or use state.apply(move)), not {type(action).__name__}") from None
    a = PyLong_AsLongLongAndOverflow(action, &overflow)
    return -1 if overflow else a


cdef inline int seat_arg(object game, int n, object player, str what="player") except -1:
    """``player`` as a seat 0..n-1 of ``game``: a Python int or a numpy int64 in range is read
    in place; anything else goes to ``_api.check_seat(game, player, what)``, which raises its
    TypeError / ValueError naming ``what`` (the reference engine's errors) or returns the seat
    it accepts."""
    cdef long long v = -1
    cdef int overflow = 0
    if type(player) is int:
        v = PyLong_AsLongLongAndOverflow(player, &overflow)
    elif mh_is_int64(player):
        v = mh_int64_value(player)
    if overflow == 0 and 0 <= v < n:
        return <int>v
    from mousehole._api import check_seat
    return <int>check_seat(game, player, what)


# ---- out= arrays ------------------------------------------------------------------------------

cdef inline cnp.ndarray out_array(object out, int typenum, int ndim, const cnp.npy_intp* dims,
                                  bint zeroed=True):
    """The array to write into, zero-filled (left as it is with ``zeroed=False``, for a
    writer that sets every element): a new one when ``out`` is None, else ``out``
    itself when it is a writable, C-contiguous, aligned, native-order numpy array of this
    type and shape (what the C code may write through a pointer: the plane fills use the C
    library's wide stores). Anything else goes to ``_api.check_out``, which raises its
    TypeError / ValueError naming what is wrong before anything is written; an array it
    accepts though it is refused here (an unaligned one) gets a new array, which
    ``out_result`` copies into ``out``."""
    cdef cnp.ndarray a
    cdef int i
    cdef bint ok
    cdef size_t nbytes = 0
    if out is None:
        if zeroed:
            return cnp.PyArray_ZEROS(ndim, <cnp.npy_intp*>dims, typenum, 0)
        return cnp.PyArray_EMPTY(ndim, <cnp.npy_intp*>dims, typenum, 0)
    ok = cnp.PyArray_Check(out)
    if ok:
        a = <cnp.ndarray>out
        ok = (cnp.PyArray_TYPE(a) == typenum and cnp.PyArray_ISNOTSWAPPED(a)
              and cnp.PyArray_NDIM(a) == ndim and cnp.PyArray_IS_C_CONTIGUOUS(a)
              and cnp.PyArray_ISWRITEABLE(a) and cnp.PyArray_ISALIGNED(a))
        nbytes = <size_t>cnp.PyArray_ITEMSIZE(a)
        i = 0
        while ok and i < ndim:
            ok = cnp.PyArray_DIMS(a)[i] == dims[i]
            nbytes *= <size_t>dims[i]
            i += 1
    if not ok:
        from mousehole._api import check_out
        check_out(out, tuple([dims[i] for i in range(ndim)]), cnp.PyArray_DescrFromType(typenum), "out")
        return cnp.PyArray_ZEROS(ndim, <cnp.npy_intp*>dims, typenum, 0)
    if zeroed:
        memset(cnp.PyArray_DATA(a), 0, nbytes)
    return a


cdef inline object out_result(object out, cnp.ndarray arr):
    """What ``observation``/``legal_action_mask`` return once ``arr`` (from ``out_array``) is
    written: ``arr``, or ``out`` with ``arr`` copied into it."""
    if out is None or arr is out:
        return arr
    out[...] = arr
    return out


# ---- the constants of a game ------------------------------------------------------------------
#
# A core copies its game's constants (its ``*_cfg_t``) into every state, or shares them (its
# struct points at them and its state object holds their capsule: ``load_constants`` in
# _statecore.pxd). They are built once per game object by the core's ``fill`` and kept on the
# game (``game._compiled_cfg``, a capsule named after the core); the game of the previous
# lookup (the usual case: many states of one game) is found without any Python-level lookup.
# That cache is a module-level pair (game, capsule) held by reference (no id reuse); it
# changes with no Python code between its writes, so under the GIL no thread sees it half
# made, and a free-threaded build does not use it.

ctypedef int (*cfg_fill_t)(object game, void* cfg) except -1

ctypedef struct cfg_cache_t:
    const char* name        # the capsule's name: the core's (a game of another core is rebuilt)
    size_t size             # bytes of the constants
    cfg_fill_t fill         # builds them from the game (raises for a game of another kind)
    PyObject* game          # the game of the last lookup (a reference held), or NULL
    PyObject* holder        # the capsule holding its constants (a reference held)
    const void* cfg         # the constants, inside holder


cdef extern from *:
    """
    #include <stdlib.h>
    /* mousehole: a capsule owning a zeroed heap block of a core's constants. */
    static void mh_cfg_free(PyObject* cap) { free(PyCapsule_GetPointer(cap, PyCapsule_GetName(cap))); }
    static PyObject* mh_cfg_capsule(size_t size, const char* name) {
        PyObject* cap;
        void* p = calloc(1, size ? size : 1);
        if (p == NULL) return PyErr_NoMemory();
        cap = PyCapsule_New(p, name, mh_cfg_free);
        if (cap == NULL) free(p);
        return cap;
    }
    """
    object mh_cfg_capsule(size_t size, const char* name)


cdef inline object cfg_holder_slow(cfg_cache_t* c, object game):
    """``cfg_holder`` for a game other than the previous one (or without the GIL)."""
    cdef object holder = getattr(game, "_compiled_cfg", None)
    cdef PyObject* old_game
    cdef PyObject* old_holder
    if holder is None or not PyCapsule_IsValid(holder, c.name):
        holder = mh_cfg_capsule(c.size, c.name)
        c.fill(game, PyCapsule_GetPointer(holder, c.name))
        game._compiled_cfg = holder
    if MH_HAVE_GIL:
        old_game = c.game
        old_holder = c.holder
        Py_INCREF(game)
        Py_INCREF(holder)
        c.game = <PyObject*>game
        c.holder = <PyObject*>holder
        c.cfg = PyCapsule_GetPointer(holder, c.name)
        Py_XDECREF(old_game)  # last: a release may run Python code, the pair is complete
        Py_XDECREF(old_holder)
    return holder


cdef inline object cfg_holder(cfg_cache_t* c, object game):
    """The capsule holding the constants of ``game`` (named ``c.name``, ``c.size`` bytes,
    never written after ``fill``): the errors of the core's ``fill`` for a game it cannot
    read."""
    if MH_HAVE_GIL and <PyObject*>game == c.game:
        return <object>c.holder
    return cfg_holder_slow(c, game)


cdef inline int load_cfg_slow(cfg_cache_t* c, object game, void* dst) except -1:
    """``load_cfg`` for a game other than the previous one (or without the GIL)."""
    cdef object holder = cfg_holder_slow(c, game)
    memcpy(dst, PyCapsule_GetPointer(holder, c.name), c.size)
    return 0


cdef inline int load_cfg(cfg_cache_t* c, object game, void* dst, size_t size) except -1:
    """Copy the constants of ``game`` into ``dst`` (``size`` bytes, the core's ``sizeof``;
    a constant, so the copy of the usual case is inlined, or the library's for a large
    one); the errors of the core's ``fill`` for a game it cannot read."""
    if MH_HAVE_GIL and <PyObject*>game == c.game:
        if size > 256:
            mh_copy(dst, c.cfg, size)  # (the library's copy: see mh_copy)
        else:
            memcpy(dst, c.cfg, size)
        return 0
    return load_cfg_slow(c, game, dst)


# ---- growable action histories (games without a bound on their length) ---------------------

cdef inline int array_reserve(void** buf, Py_ssize_t* cap, Py_ssize_t need, size_t item,
                              Py_ssize_t first) except -1:
    """Grow the heap array ``buf[0]`` of ``item``-byte entries (capacity ``cap[0]``) to hold
    at least ``need`` entries: ``first`` at first, then doubling (amortised, not per action).
    Raises MemoryError; the old array stays valid then."""
    cdef Py_ssize_t c
    cdef void* h
    if need <= cap[0]:
        return 0
    c = first if cap[0] < first // 2 else 2 * cap[0]
    while c < need:
        c *= 2
    h = realloc(buf[0], c * item)
    if h == NULL:
        raise MemoryError()
    buf[0] = h
    cap[0] = c
    return 0


cdef inline int hist_reserve(uint16_t** buf, Py_ssize_t* cap, Py_ssize_t need) except -1:
    """``array_reserve`` for a history of uint16 actions (256 at first)."""
    return array_reserve(<void**>buf, cap, need, sizeof(uint16_t), 256)


# ---- simulate_chunk ------------------------------------------------------------------------------
#
# ``Core.simulate_chunk(game, seed, start, stop, scores, winners, lengths, truncated)`` plays
# games ``start .. stop - 1`` of ``mousehole.simulate`` without the GIL and writes game ``i``
# to row ``i - start``. The shell (the arrays' checks, the GIL) is ``run_sim_chunk``; each
# core gives only its ``sim_range_t``, which plays game ``i`` from the generators
# ``rng_derive(seed, 2i)`` (the deal) and ``rng_derive(seed, 2i + 1)`` (the policy).

ctypedef struct sim_out_t:
    int64_t* scores         # [row * sstride + seat]
    uint8_t* winners        # [row * wstride + seat], 0/1
    int64_t* lengths        # [row]: actions of the game
    uint8_t* truncated      # [row]: 0/1
    Py_ssize_t sstride, wstride

ctypedef void (*sim_range_t)(const void* cfg, uint64_t seed, Py_ssize_t start, Py_ssize_t stop,
                             const sim_out_t* out) noexcept nogil

cdef enum:
    SIM_MAX_SEATS = 6   # seats a game of a core has at most (``n`` of ``sim_row``)


ctypedef fused sim_score_t:
    int32_t
    int64_t


cdef inline void sim_row(const sim_out_t* out, Py_ssize_t r, int n, const sim_score_t* sc,
                         int mask, int64_t length, uint8_t truncated) noexcept nogil:
    """Row ``r`` once its game is over: the ``n`` seats' scores ``sc`` (NULL, a constant, for a
    core that wrote them at ``out.scores + r * out.sstride`` itself), seat ``p`` won when bit
    ``p`` of ``mask`` is set, ``length`` actions, ``truncated`` 1 when max_turns ended it."""
    cdef int p
    for p in range(SIM_MAX_SEATS):  # (a constant bound: gcc unrolls the loop, stopping at n)
        if p == n:
            break
        if sc != NULL:
            out.scores[r * out.sstride + p] = sc[p]
        out.winners[r * out.wstride + p] = (mask >> p) & 1
    out.lengths[r] = length
    out.truncated[r] = truncated


cdef inline int run_sim_chunk(sim_range_t play, const void* cfg, int players, uint64_t seed,
                              Py_ssize_t start, Py_ssize_t stop, object scores, object winners,
                              object lengths, object truncated) except -1:
    """Check the result arrays (C-contiguous int64 / uint8 arrays of ``stop - start`` rows and,
    for ``scores`` and ``winners``, at least ``players`` columns: ``ValueError`` or the
    buffer's error otherwise), then ``play`` the games without the GIL. ``cfg``: the game's
    constants, owned by the caller for the call (a local copy)."""
    cdef int64_t[:, ::1] sv = scores
    cdef uint8_t[:, ::1] wv = winners
    cdef int64_t[::1] lv = lengths
    cdef uint8_t[::1] tv = truncated
    cdef Py_ssize_t rows = stop - start
    cdef sim_out_t out
    if start < 0 or rows < 0:
        raise ValueError(f"simulate_chunk: bad game range {start} .. {stop}")
    if (sv.shape[0] < rows or wv.shape[0] < rows or lv.shape[0] < rows
            or tv.shape[0] < rows or sv.shape[1] < players or wv.shape[1] < players):
        raise ValueError(f"simulate_chunk: the result arrays need {rows} rows and {players} columns")
    if rows == 0:
        return 0
    out.scores = &sv[0, 0]
    out.winners = &wv[0, 0]
    out.lengths = &lv[0]
    out.truncated = &tv[0]
    out.sstride = sv.shape[1]
    out.wstride = wv.shape[1]
    with nogil:
        play(cfg, seed, start, stop, &out)
    return 0
