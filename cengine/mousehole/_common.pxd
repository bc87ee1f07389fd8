# cython: language_level=3
"""Shared compiled helpers of mousehole: fixed-width typedefs, the random generator
(docs/rng.md; the reference is src/mousehole/_rng.py) and bitboard primitives.
Every function here is an inline leaf: ``noexcept nogil``."""

from libc.stdint cimport uint8_t, int8_t, uint16_t, int16_t, uint32_t, int32_t, uint64_t, int64_t
from libc.stdlib cimport realloc
from cpython.long cimport PyLong_AsLongLongAndOverflow
from cpython.number cimport PyIndex_Check, PyNumber_Index
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

cdef inline void rng_shuffle_u8(rng_t* s, uint8_t* a, int n) noexcept nogil:
    """Fisher-Yates from position n-1 down to 1 (same order as Rng.shuffle)."""
    cdef int i, j
    cdef uint8_t tmp
    i = n - 1
    while i > 0:
        j = <int>rng_below(s, <uint32_t>(i + 1))
        tmp = a[i]; a[i] = a[j]; a[j] = tmp
        i -= 1

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


# ---- actions from Python ------------------------------------------------------------------

cdef inline int64_t action_int(object action, type np_int64) except? -2:
    """The value of an action passed to ``apply_action``: a Python int, a numpy int64 (read in
    place: what ``legal_actions()`` holds) or any other integer (``__index__``); -1 for a value
    outside int64 (the caller reports it as out of range); TypeError for a non-integer.
    ``np_int64`` is ``numpy.int64`` (the caller's module has imported numpy's C API)."""
    cdef int64_t a = -1
    cdef int overflow = 0
    if type(action) is np_int64:
        cnp.PyArray_ScalarAsCtype(action, &a)
        return a
    if type(action) is not int:
        if type(action) is bool or not PyIndex_Check(action):
            raise TypeError(f"an action must be an int (or use state.apply(move)), not {type(action).__name__}")
        action = PyNumber_Index(action)
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
