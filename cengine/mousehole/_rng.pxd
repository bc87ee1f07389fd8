# cython: language_level=3
"""The random generator of mousehole, compiled: SplitMix64 (docs/rng.md; the reference is
``src/mousehole/_rng.py``), with the fixed-width integer types every core uses. Every
function is an inline leaf: ``noexcept nogil``."""

from libc.stdint cimport uint8_t, int8_t, uint16_t, int16_t, uint32_t, int32_t, uint64_t, int64_t

ctypedef uint64_t rng_t

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
