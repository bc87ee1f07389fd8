# cython: language_level=3
"""Bit tricks and memory fills of mousehole's compiled cores: portable count-trailing-zeros
and popcounts, seat arithmetic without division, and the struct copy and float fill through
the C library's vector code. Every function is an inline leaf: ``noexcept nogil``."""

from libc.stdint cimport uint16_t, uint64_t

# ---- inlining ---------------------------------------------------------------------------

cdef extern from *:
    """
    /* mousehole: a function inlined at every call whatever the compiler's size budget. */
    #if defined(__GNUC__) || defined(__clang__)
    #define MH_INLINE_INT __attribute__((always_inline)) inline int
    #define MH_INLINE_VOID __attribute__((always_inline)) inline void
    #elif defined(_MSC_VER)
    #define MH_INLINE_INT __forceinline int
    #define MH_INLINE_VOID __forceinline void
    #else
    #define MH_INLINE_INT inline int
    #define MH_INLINE_VOID inline void
    #endif
    """
    # ``cdef mh_inline_int f(...)``: gcc weighs inlining against the size of the whole module,
    # so a change elsewhere in a core (a loop inlined into one more caller) can tip a hot step
    # out of a play-out (Kater Kasimir's random step: 4% of an ISMCTS iteration)
    ctypedef int mh_inline_int "MH_INLINE_INT"
    ctypedef void mh_inline_void "MH_INLINE_VOID"


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
    /* 1 on a big-endian machine (byte 0 of a word in memory is its high byte), else 0:
       for the cores that read a struct's bytes as words */
    #if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    #define MH_BIG_ENDIAN 1
    #else
    #define MH_BIG_ENDIAN 0
    #endif
    """
    int mh_ctz64(unsigned long long x) nogil
    const unsigned char* mh_pc8
    const int MH_BIG_ENDIAN


cdef inline int popcount16(uint16_t x) noexcept nogil:
    """Bits set in a 16-bit word (byte table: fast without a popcnt instruction)."""
    return mh_pc8[x & 0xFF] + mh_pc8[x >> 8]


cdef inline int sum_fields2(uint64_t x) noexcept nogil:
    """The sum of the 32 2-bit fields of x (SWAR: pairs of fields into 4 bits, then bytes)."""
    x = (x & <uint64_t>0x3333333333333333ULL) + ((x >> 2) & <uint64_t>0x3333333333333333ULL)
    x = (x + (x >> 4)) & <uint64_t>0x0F0F0F0F0F0F0F0FULL
    return <int>((x * <uint64_t>0x0101010101010101ULL) >> 56)


cdef inline int popcount64(uint64_t x) noexcept nogil:
    # SWAR popcount: portable (no compiler builtins needed on MSVC): each 2-bit field
    # counts its bits, then the fields are summed.
    return sum_fields2(x - ((x >> 1) & <uint64_t>0x5555555555555555ULL))


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


# ---- memory: struct copies and plane fills -----------------------------------------------

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
    #include <string.h>
    /* mousehole: n zero bytes through the C library's memset, as mh_copy (a clear of a
       constant size, a state's struct, is otherwise inlined as a 'rep stosq'). */
    static void* (*volatile mh_memset_fn)(void*, int, size_t) = memset;
    static CYTHON_INLINE void mh_zero(void* dst, size_t n) { mh_memset_fn(dst, 0, n); }
    """
    void mh_zero(void* dst, size_t n) noexcept nogil


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
