# cython: language_level=3
"""Shared compiled helpers of mousehole: fixed-width typedefs, the random generator
(docs/rng.md; the reference is src/mousehole/_rng.py) and bitboard primitives.
Every function here is an inline leaf: ``noexcept nogil``."""

from libc.stdint cimport uint8_t, int8_t, uint16_t, int16_t, uint32_t, int32_t, uint64_t, int64_t
from libc.stdlib cimport realloc
from cpython.long cimport PyLong_AsLongLongAndOverflow, PyLong_AsUnsignedLongLongMask
from cpython.number cimport PyIndex_Check, PyNumber_Index
from cpython.pycapsule cimport PyCapsule_New, PyCapsule_GetPointer
from cpython.object cimport PyObject, PyTypeObject
cimport numpy as cnp

ctypedef uint64_t rng_t

cdef enum:
    CHANCE_SEAT = -1
    TERMINAL_SEAT = -4

# ---- SplitMix64 -------------------------------------------------------------------------

cdef inline uint64_t mix64(uint64_t z) noexcept nogil:
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return z ^ (z >> 31)

cdef inline uint64_t rng_next(rng_t* s) noexcept nogil:
    s[0] += <uint64_t>0x9E3779B97F4A7C15ULL
    return mix64(s[0])

cdef inline uint64_t rng_derive(uint64_t seed, uint64_t k) noexcept nogil:
    return mix64(seed + (k + 1) * <uint64_t>0x9E3779B97F4A7C15ULL)

cdef inline uint32_t rng_below(rng_t* s, uint32_t n) noexcept nogil:
    """Uniform in [0, n), 1 <= n < 2**32: multiply-shift with rejection."""
    cdef uint64_t x = rng_next(s) >> 32
    cdef uint64_t m = x * n
    cdef uint32_t low = <uint32_t>m
    cdef uint32_t t
    if low < n:
        t = <uint32_t>((<uint64_t>0x100000000ULL - n) % n)
        while low < t:
            x = rng_next(s) >> 32
            m = x * n
            low = <uint32_t>m
    return <uint32_t>(m >> 32)

cdef inline void rng_shuffle_u8_to(rng_t* s, uint8_t* a, int n, int stop) noexcept nogil:
    """The steps of ``rng_shuffle_u8`` for the positions n-1 down to max(stop, 1): they fix
    those positions; the steps for the rest may be taken later, in the same order (M's deal,
    docs/rng.md). The generator is kept in a local while shuffling (a store into ``a`` may
    alias ``s[0]``)."""
    cdef int i, j
    cdef uint8_t tmp
    cdef rng_t r = s[0]
    i = n - 1
    while i > 0 and i >= stop:
        j = <int>rng_below(&r, <uint32_t>(i + 1))
        tmp = a[i]; a[i] = a[j]; a[j] = tmp
        i -= 1
    s[0] = r

cdef inline void rng_shuffle_u8(rng_t* s, uint8_t* a, int n) noexcept nogil:
    """Fisher-Yates from position n-1 down to 1 (same order as Rng.shuffle)."""
    rng_shuffle_u8_to(s, a, n, 1)

# ---- bit tricks -------------------------------------------------------------------------

cdef extern from *:
    """
    /* mousehole: portable bit intrinsics (compiler builtins where available). */
    #if defined(_MSC_VER) && !defined(__clang__)
    #include <intrin.h>
    static __inline int mh_ctz64(unsigned long long x) {
        unsigned long i;
    #if defined(_M_X64) || defined(_M_ARM64)
        _BitScanForward64(&i, x);
    #else
        if ((unsigned long)x) { _BitScanForward(&i, (unsigned long)x); }
        else { _BitScanForward(&i, (unsigned long)(x >> 32)); i += 32; }
    #endif
        return (int)i;
    }
    #else
    #define mh_ctz64(x) __builtin_ctzll(x)
    #endif
    static const unsigned char mh_pc8[256] = {
    #define MH_B2(n) n, n + 1, n + 1, n + 2
    #define MH_B4(n) MH_B2(n), MH_B2(n + 1), MH_B2(n + 1), MH_B2(n + 2)
    #define MH_B6(n) MH_B4(n), MH_B4(n + 1), MH_B4(n + 1), MH_B4(n + 2)
        MH_B6(0), MH_B6(1), MH_B6(1), MH_B6(2)
    #undef MH_B2
    #undef MH_B4
    #undef MH_B6
    };
    """
    int mh_ctz64(unsigned long long x) nogil
    const unsigned char* mh_pc8


cdef inline int popcount16(uint16_t x) noexcept nogil:
    """Bits set in a 16-bit word (byte table: fast without a popcnt instruction)."""
    return mh_pc8[x & 0xFF] + mh_pc8[x >> 8]


cdef inline int popcount64(uint64_t x) noexcept nogil:
    # SWAR popcount: portable (no compiler builtins needed on MSVC).
    x = x - ((x >> 1) & <uint64_t>0x5555555555555555ULL)
    x = (x & <uint64_t>0x3333333333333333ULL) + ((x >> 2) & <uint64_t>0x3333333333333333ULL)
    x = (x + (x >> 4)) & <uint64_t>0x0F0F0F0F0F0F0F0FULL
    return <int>((x * <uint64_t>0x0101010101010101ULL) >> 56)


cdef inline int popcount32(uint32_t x) noexcept nogil:
    return popcount64(x)


cdef inline int ctz64(uint64_t x) noexcept nogil:
    """Index of the lowest set bit; x must not be 0."""
    return mh_ctz64(x)


cdef inline int rel_seat(int q, int p, int n) noexcept nogil:
    """Seat ``q`` as seen from seat ``p`` of ``n`` (0 is p, 1 the next seat, ...), for
    0 <= q, p < n: ``(q - p) % n`` as a select, no division."""
    return q - p if q >= p else q - p + n


cdef inline int seat_after(int p, int k, int n) noexcept nogil:
    """The seat ``k`` places after seat ``p`` of ``n``, for 0 <= p, k < n: ``(p + k) % n``
    as a select, no division."""
    return p + k if p + k < n else p + k - n


cdef inline void set_ones(float* dst, uint64_t bits) noexcept nogil:
    """1.0 at ``dst[i]`` for every set bit i of ``bits`` (an observation plane's cells, a
    word of a card set)."""
    while bits:
        dst[ctz64(bits)] = 1.0
        bits &= bits - 1


cdef extern from *:
    """
    #include <string.h>
    /* mousehole: a struct copy through the C library's memcpy. A copy of a constant size is
       inlined by the compiler, and for a state's struct (a kilobyte or more) that inline
       copy is a 'rep movsq', three to four times slower than the library's vector copy
       on the machines measured; the volatile pointer keeps the call. */
    static void* (*volatile mh_memcpy_fn)(void*, const void*, size_t) = memcpy;
    static CYTHON_INLINE void mh_copy(void* dst, const void* src, size_t n) { mh_memcpy_fn(dst, src, n); }
    """
    void mh_copy(void* dst, const void* src, size_t n) noexcept nogil


cdef extern from *:
    """
    #include <wchar.h>
    /* mousehole: n copies of a float, by the C library's vector stores: memset when the
       float's bits are all 0 (+0.0), else, where wchar_t is 4 bytes (Linux, macOS), wmemset
       on the float's bits, which glibc implements with the widest stores of the machine. A
       plain loop compiles to the 16-byte stores of the wheel's baseline flags and made plane
       fills the larger part of an observation's cost. */
    static CYTHON_INLINE void mh_fill_f32(float* dst, float v, size_t n) {
        uint32_t bits;
        memcpy(&bits, &v, sizeof(bits));
        if (bits == 0) { memset(dst, 0, n * sizeof(float)); return; }
    #if defined(WCHAR_MAX) && (WCHAR_MAX == 0x7fffffff || WCHAR_MAX == 0xffffffffu)
        {
            wchar_t w;
            memcpy(&w, &v, sizeof(w));
            wmemset((wchar_t*)dst, w, n);
        }
    #else
        {
            size_t i;
            for (i = 0; i < n; i++) dst[i] = v;
        }
    #endif
    }
    """
    void mh_fill_f32(float* dst, float v, size_t n) noexcept nogil


# ---- fast construction ---------------------------------------------------------------------

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


cdef inline object new_instance(type t):
    """``t.__new__(t)`` through the type's C slot (no Python-level call, no ``__init__``):
    what the cores' ``new()``/``clone()`` factories use. ``t`` is a compiled core class or a
    Python subclass of one (the public state classes)."""
    cdef tuple args = ()
    return (<PyTypeObject*>t).tp_new(t, <PyObject*>args, NULL)


cdef extern from *:
    """
    /* mousehole: make a public state class (a Python subclass of a compiled core that adds
       only methods, __slots__ = ()) as cheap to use as the core itself.
       1. Its instances are not tracked by the garbage collector. CPython gives every class
          statement's instances a GC header, since a class attribute could point back at an
          instance; a state holds only its game and seed, which hold no state, so it cannot
          be part of a cycle. The non-GC path of subtype_dealloc exists for such heap types.
       2. Each method of the core is re-declared on the subclass (same C function): the
          interpreter's specialised call of a method descriptor requires the instance's exact
          type to be the descriptor's, so inherited core methods were called the slow way. */
    /* 3. Its instances come from a small pool of freed ones (a free list, as CPython keeps
          for floats and tuples): a state is allocated and freed once per clone, and the
          allocator's general path for objects over 512 bytes (the M state is 1.6 KB) costs
          more than the copy itself. One pool per module, for the first class it adopts; not
          with a free-threaded interpreter (the pool relies on the GIL). */
    #define MH_POOL_CAP 64
    static PyTypeObject* mh_pool_type = NULL;
    static int mh_pool_n = 0;
    static void* mh_pool_items[MH_POOL_CAP];

    static PyObject* mh_pool_alloc(PyTypeObject* t, Py_ssize_t nitems) {
        size_t size = (size_t)t->tp_basicsize;
        void* o;
        (void)nitems;  /* fixed-size objects only (checked at adoption) */
        if (mh_pool_n > 0) {
            o = mh_pool_items[--mh_pool_n];
        } else {
            o = PyObject_Malloc(size);
            if (o == NULL) return PyErr_NoMemory();
        }
        memset(o, 0, size);  /* what PyType_GenericAlloc gives: every field zero */
        return PyObject_Init((PyObject*)o, t);  /* (takes a reference to the heap type) */
    }

    static void mh_pool_free(void* o) {
        if (mh_pool_n < MH_POOL_CAP && Py_TYPE((PyObject*)o) == mh_pool_type) {
            mh_pool_items[mh_pool_n++] = o;
        } else {
            PyObject_Free(o);
        }
    }

    static int mh_adopt_public_class(PyTypeObject* sub, PyTypeObject* core) {
        PyObject *key, *value;
        Py_ssize_t pos = 0;
        if (!(sub->tp_flags & Py_TPFLAGS_HEAPTYPE) || sub->tp_base != core
                || sub->tp_basicsize != core->tp_basicsize || sub->tp_dictoffset != 0
                || sub->tp_weaklistoffset != core->tp_weaklistoffset
                || (core->tp_flags & Py_TPFLAGS_HAVE_GC)) {
            PyErr_Format(PyExc_TypeError,
                         "%s must be a direct subclass of %s that adds only methods (__slots__ = ())",
                         sub->tp_name, core->tp_name);
            return -1;
        }
        while (PyDict_Next(core->tp_dict, &pos, &key, &value)) {
            PyObject* d;
            if (!Py_IS_TYPE(value, &PyMethodDescr_Type)) continue;
            if (PyDict_Contains(sub->tp_dict, key)) continue;
            d = PyDescr_NewMethod(sub, ((PyMethodDescrObject*)value)->d_method);
            if (d == NULL) return -1;
            if (PyObject_SetAttr((PyObject*)sub, key, d) < 0) { Py_DECREF(d); return -1; }
            Py_DECREF(d);
        }
        if (sub->tp_flags & Py_TPFLAGS_HAVE_GC) {
            sub->tp_flags &= ~Py_TPFLAGS_HAVE_GC;
            sub->tp_free = PyObject_Free;
            sub->tp_traverse = NULL;
            sub->tp_clear = NULL;
        }
    #ifndef Py_GIL_DISABLED
        if (mh_pool_type == NULL && sub->tp_itemsize == 0 && sub->tp_alloc == PyType_GenericAlloc
                && sub->tp_free == PyObject_Free) {
            mh_pool_type = sub;
            Py_INCREF(sub);  /* the pool's objects are of this class: keep it */
            sub->tp_alloc = mh_pool_alloc;
            sub->tp_free = mh_pool_free;
        }
    #endif
        PyType_Modified(sub);
        return 0;
    }
    """
    int mh_adopt_public_class(PyTypeObject* sub, PyTypeObject* core) except -1


cdef inline void adopt_public_class(type sub, type core) except *:
    """Make ``sub`` (the public state class: ``class X(Core, Mixin): __slots__ = ()``) as
    cheap as ``core``: no GC tracking, core methods called the specialised way. Call it once,
    right after the class statement, before any instance exists."""
    mh_adopt_public_class(<PyTypeObject*>sub, <PyTypeObject*>core)


cdef extern from *:
    """
    #include "numpy/arrayscalars.h"
    /* mousehole: the value of a numpy.int64 scalar, read in place (the caller checked the type). */
    static CYTHON_INLINE npy_int64 mh_int64_value(PyObject* o) { return PyArrayScalar_VAL(o, Int64); }
    """
    int64_t mh_int64_value(object o)


# ---- actions from Python ------------------------------------------------------------------

cdef inline int64_t action_int(object action, type np_int64) except? -2:
    """The value of an action passed to ``apply_action``: a Python int, a numpy int64 (read in
    place: what ``legal_actions()`` holds) or any other integer (``__index__``); -1 for a value
    outside int64 (the caller reports it as out of range); TypeError for a non-integer.
    ``np_int64`` is ``numpy.int64`` (the caller's module has imported numpy's C API)."""
    cdef int64_t a = -1
    cdef int overflow = 0
    if type(action) is np_int64:
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


# ---- simulate_chunk's result arrays ------------------------------------------------------------

cdef inline int check_sim_rows(int64_t[:, ::1] scores, uint8_t[:, ::1] winners, int64_t[::1] lengths,
                               uint8_t[::1] truncated, Py_ssize_t start, Py_ssize_t stop,
                               int players) except -1:
    """``simulate_chunk`` plays games ``start .. stop - 1`` and writes game ``i`` to row
    ``i - start``: every array needs ``stop - start`` rows (and ``players`` columns)."""
    cdef Py_ssize_t rows = stop - start
    if start < 0 or rows < 0:
        raise ValueError(f"simulate_chunk: bad game range {start} .. {stop}")
    if (scores.shape[0] < rows or winners.shape[0] < rows or lengths.shape[0] < rows
            or truncated.shape[0] < rows or scores.shape[1] < players or winners.shape[1] < players):
        raise ValueError(f"simulate_chunk: the result arrays need {rows} rows and {players} columns")
    return 0


# ---- the C-level game interface ------------------------------------------------------------
#
# Every compiled core fills in one static ``mh_game_t`` (its functions work on the core's
# state struct, ``cr_t``, ``m_t``, ``kk_t`` or ``mc_t``, passed as ``void*``), so that search
# (``_search.pyx``) and batched stepping (``_vector.pyx``) are written once for all games.
# A state struct holds no pointer (its game's constants are copied into it), so a copy is
# ``memcpy(dst, src, game.size)``; the action history of M, Kater Kasimir and Maus au
# Chocolat lives outside the struct (in the Python object) and is not part of this interface.
# Every function is ``noexcept nogil`` and trusts its input: actions passed to ``apply`` are
# legal, seats are in range, ``out`` buffers are large enough (sizes from ``dims``).
# A compiled state exposes it with two methods: ``state._c_game()`` returns a capsule named
# ``MH_GAME_CAPSULE`` holding ``const mh_game_t*``, and ``state._c_state()`` a capsule named
# ``MH_STATE_CAPSULE`` holding the address of its struct (valid while the state lives).

ctypedef struct mh_dims_t:
    int32_t players        # seats
    int32_t num_actions    # the game's action space (player actions and chance outcomes)
    int32_t obs_size       # floats in one observation (the product of observation_shape)
    int32_t max_legal      # an upper bound on the number of legal actions or chance outcomes

ctypedef struct mh_game_t:
    const char* name                                      # the game id ("cheese_rescue", ...)
    size_t size                                           # bytes of one state struct
    void (*dims)(const void* s, mh_dims_t* d) noexcept nogil
    # The state ``game.new_state(seed)`` would give, in place; ``s``'s constants (``cfg``)
    # must already be set (copy a prototype struct first).
    void (*reset)(void* s, uint64_t seed) noexcept nogil
    int (*current)(const void* s) noexcept nogil          # seat, CHANCE_SEAT or TERMINAL_SEAT
    # The legal player actions, ascending, into ``out``; returns their number (0 at a chance
    # node or at the end): the same list as ``state.legal_actions()``.
    int (*legal)(const void* s, int32_t* out) noexcept nogil
    void (*apply)(void* s, int32_t a) noexcept nogil      # a legal action, or a chance outcome
    # At a chance node: the outcomes (ascending) and their probabilities, as
    # ``state.chance_outcomes()``; returns their number (0 elsewhere).
    int (*chance)(const void* s, int32_t* out, double* prob) noexcept nogil
    void (*returns)(const void* s, double* out) noexcept nogil   # as ``state.returns()``
    # Plays to the end as ``simulate`` plays (its action model), drawing from ``policy``;
    # chance nodes, if any, are resolved as ``simulate`` resolves them.
    void (*rollout)(void* s, rng_t* policy) noexcept nogil
    # Optional (NULL when a game has none): ``rollout`` then ``returns`` in one call, with the
    # same draws and the same returns, for a game that plays faster without keeping its
    # struct up to date; ``s`` is scratch afterwards. ``mh_playout`` picks it or the pair.
    void (*playout)(void* s, rng_t* policy, double* out) noexcept nogil
    # Optional (NULL when a game has none): one action of ``rollout``'s policy, a seat being
    # to move: ``apply(legal[below(n)])`` with the same draw, without listing the actions.
    # ``mh_random_step`` picks it or the list.
    void (*random_step)(void* s, rng_t* policy) noexcept nogil
    # In place: what seat ``p`` cannot see is re-dealt from ``seed``; the result equals
    # ``state.determinize(p, seed)`` (the Python determinization of p's view), struct for
    # struct, and depends only on what ``p`` may see.
    void (*determinize)(void* s, int p, uint64_t seed) noexcept nogil
    void (*observe)(const void* s, int p, float* out) noexcept nogil   # as ``observation(p)``
    void (*mask)(const void* s, uint8_t* out) noexcept nogil   # as ``legal_action_mask()``, 0/1
    int (*truncated)(const void* s) noexcept nogil        # 1 when cut by the turn limit (``state.truncated``)

cdef inline void mh_playout(const mh_game_t* g, void* s, rng_t* policy, double* out) noexcept nogil:
    """Play ``s`` to the end as ``rollout`` and write its returns (``s`` is scratch after)."""
    if g.playout != NULL:
        g.playout(s, policy, out)
    else:
        g.rollout(s, policy)
        g.returns(s, out)


cdef inline void mh_random_step(const mh_game_t* g, void* s, rng_t* policy, int32_t* buf) noexcept nogil:
    """A seat being to move: apply a uniformly random legal action, ``legal[below(n)]``
    (``buf``: room for ``max_legal`` actions, used when the game has no ``random_step``)."""
    cdef int n
    if g.random_step != NULL:
        g.random_step(s, policy)
    else:
        n = g.legal(s, buf)
        g.apply(s, buf[rng_below(policy, <uint32_t>n)])


cdef extern from *:
    """
    #define MH_GAME_CAPSULE "mousehole.game"
    #define MH_STATE_CAPSULE "mousehole.state"
    """
    const char* MH_GAME_CAPSULE
    const char* MH_STATE_CAPSULE


cdef inline object game_capsule(const mh_game_t* g):
    """What a core's ``_c_game()`` returns."""
    return PyCapsule_New(<void*>g, MH_GAME_CAPSULE, NULL)


cdef inline object state_capsule(void* s):
    """What a core's ``_c_state()`` returns (the struct's address; keep the state alive)."""
    return PyCapsule_New(s, MH_STATE_CAPSULE, NULL)


cdef inline const mh_game_t* game_of(object state) except NULL:
    """The interface of a compiled state (TypeError for anything else)."""
    if not hasattr(state, "_c_game"):
        raise TypeError(f"{type(state).__name__} is not a compiled mousehole state "
                        "(load the game with engine='compiled')")
    return <const mh_game_t*>PyCapsule_GetPointer(state._c_game(), MH_GAME_CAPSULE)


cdef inline void* state_of(object state) except NULL:
    """The address of a compiled state's struct (valid while ``state`` lives)."""
    return PyCapsule_GetPointer(state._c_state(), MH_STATE_CAPSULE)
