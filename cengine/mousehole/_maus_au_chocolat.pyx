# cython: language_level=3
"""Compiled Maus au Chocolat engine (rules MC-1 .. MC-30).

The state is one C struct (``mc_t`` in ``_maus_au_chocolat.pxd``): a location byte per card,
each hand as 16 sorted bytes in two words (a card is inserted or taken with a few word
operations), the display as a bit set and as sorted bytes in one word, the discard pile as a
bit set, the draw pile as an array. The struct is kept canonical (every unused slot 0), so
two structs of one position are equal byte for byte, however they were reached.

The combination search (MC-29) evaluates a 3- or 4-card subset of the hand with one table
lookup (shape tables built at import from the rules); the number of combinations of a hand
is counted without visiting subsets, from the numbers of cards of each value (``combo_count``),
and only the chosen one is decoded (``combo_kth``).

Each rule once. Every rule of play is one small inline block, written once and named for
the rule: the deal (``deal_cards``, MC-3, MC-4), a draw (``draw_card``, ``reshuffle``,
MC-6), a bid (``bid_card``, MC-7, MC-17), the reveal and pick order (``pick_order``, MC-8),
a pick and the bid card after it (``pick_card``, ``bid_to_display``, ``picks_due``, MC-9),
the combination order and a combination (``combine_order``, ``lay_combination``, MC-10 ..
MC-13), the hand limit (``over_hand_limit``, ``discard_from_hand``, MC-14), Etienne's swap
(``may_swap``, ``swap_seat``, ``swap_in``, ``etienne_swap``, MC-16), the end (``game_ends``,
MC-24) and the next round (``next_round``, MC-15, MC-5). A block works on the struct's hands, pile,
discard pile, scores and helpers through ``s``, and on the display through its sorted bytes
and size passed by address (``dsp``, ``dn``). It takes a constant ``full``: with 1 it also
keeps the position's description (``loc``, ``known``, ``pool``, the display's bit set:
what views, observations, legality and determinization read, MC-26); with 0 the compiler
drops those lines. ``simulate``'s action model (a uniform index into the ascending legal
list, found without listing it) is four more blocks built on those: ``random_bid``,
``random_pick``, ``random_combination``, ``random_discard``.

Three sequences of blocks use them. ``mc_apply`` (a given action) and ``mc_random_step``
(one random action; ``VectorGame``'s steps and the strong search's play-outs go through
them) run a block with ``full`` = 1 on the struct, then the phase machine (``after_bid``,
``after_pick``, ``after_combination``, ``after_discard``, ``next_combiner``). ``mc_play``
plays to the end (``simulate``: ``mc_sim_game`` = ``deal_cards`` + ``mc_play``; the
interface's ``rollout`` and ``playout``, the search's play-outs): the rest of the round by
``mc_random_step``, then each round written out in order with ``full`` = 0 (bids, reveal,
picks, combination steps with their hand-limit discards, the end, the rotation, the
refill), no dispatch on the phase per action. What made ``simulate`` fast stays: the
display's bytes and size, the policy's generator, the action count, the orders and the
seats that may swap are locals of ``mc_play`` whose addresses go only to inline blocks, so
the compiler keeps them in registers whatever the byte stores into the struct may alias;
Etienne's and Henri's choices are arithmetic (``random_bid``); the count reads the hand's
bytes (``combo_count``).

The C-level game interface (``mh_game_t``, ``_cgame.pxd``) is ``CORE_GAME``; its
determinization (MC-26) is ``mc_determinize``. Every leaf function is ``noexcept nogil``. The
pure-Python reference is ``mousehole/maus_au_chocolat.py``; both give the same game, bit for
bit.
"""

cimport cython
from libc.string cimport memset, memcpy
from libc.stdlib cimport malloc, free

from mousehole._rng cimport (
    uint8_t, int8_t, uint16_t, int16_t, int32_t, uint32_t, int64_t, uint64_t, rng_t,
    rng_below, rng_derive, rng_next, rng_shuffle_u8,
)
from mousehole._bits cimport ctz64, set_ones, rel_seat, mh_pc8, mh_copy, popcount16, sum_fields2, MH_BIG_ENDIAN
from mousehole._cgame cimport mh_game_t, mh_dims_t, TERMINAL_SEAT
from mousehole._cgame cimport mh_game_def
from mousehole._boundary cimport seat_arg, sim_out_t, sim_row
from mousehole._statecore cimport StateCore, state_loaded, load_constants, core_t, core_def, core_capsule, core_place, hist_put

cimport numpy as cnp

# _boundary's seat_arg reads numpy's integer scalar type through numpy's C API table, which is
# NULL in a module that does not import it: without this line a seat that is not a Python int
# (1.0, True, np.int64(1)) crashed combination_actions (gcc turned the NULL read into a trap)
cnp.import_array()


cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define MC_INLINE_INT __attribute__((always_inline)) int
    #else
    #define MC_INLINE_INT int
    #endif
    #if defined(__GNUC__) && !defined(__clang__)
    #define MC_FLATTEN_INT __attribute__((flatten)) int
    #define MC_STEP_INT __attribute__((flatten, noinline)) int
    #define MC_NOINLINE_INT __attribute__((noinline)) int
    #define MC_NOINLINE_VOID __attribute__((noinline)) void
    #else
    #define MC_FLATTEN_INT int
    #define MC_STEP_INT int
    #define MC_NOINLINE_INT int
    #define MC_NOINLINE_VOID void
    #endif
    """
    # combo_count inlined into every caller, whatever the size of the module around it
    # (gcc's unit growth budget let it fall out of mc_play once the glue shrank: +3% per game)
    ctypedef int inline_int "MC_INLINE_INT"
    # The struct step's random action (g_random_step, and its combination step apart) with
    # every call in it inlined (gcc's "flatten"): gcc left rng_below, the display's insert and
    # the pick turn's start out of line there, though not in mc_play (about 6 instructions
    # an env-step at 2 players, 9 at 4). The two larger, rarer callees stay calls
    # (noinline): the slow count and the end of a combination step (inlined they cost more).
    ctypedef int flatten_int "MC_FLATTEN_INT"
    ctypedef int step_int "MC_STEP_INT"
    ctypedef int noinline_int "MC_NOINLINE_INT"
    ctypedef void noinline_void "MC_NOINLINE_VOID"


cdef enum:
    H_ETIENNE = 0
    H_HENRI = 1
    H_MATHIEU = 2
    H_MAURICE = 3
    H_LILLY = 4
    H_AMELIE = 5
    H_CLAUDE = 6

# ---- the pattern tables (same order as PATTERNS in maus_au_chocolat.py) ---------------------

cdef uint16_t SUB_MASK[256]        # 3- and 4-slot subsets of 9 slots, ascending
cdef uint8_t SUB_K[256]
cdef uint8_t SUB_SLOT[256][4]
cdef int16_t SUB_BASE[256]         # pattern index of the subset's first kept set
cdef int SUB_N = 0
cdef uint8_t SUB3[128]             # indices into SUB_* of the 3-slot subsets, ascending
cdef int SUB3_N = 0
cdef int8_t KREL_RANK[5][16]       # rank of a kept set (relative mask) for k = 3, 4; -1 if none
cdef uint8_t PAT_K[MC_NUM_PATTERNS]
cdef uint8_t PAT_SLOT[MC_NUM_PATTERNS][4]
cdef uint16_t PAT_KEEP[MC_NUM_PATTERNS]   # kept slots, as an absolute slot mask


cdef int _popc(int x) noexcept nogil:
    cdef int c = 0
    while x:
        c += x & 1
        x >>= 1
    return c


cdef void _build_tables() noexcept nogil:
    global SUB_N, SUB3_N
    cdef int cmask, k, krel, j, idx = 0, pc, r, t
    memset(KREL_RANK, -1, sizeof(KREL_RANK))
    for k in range(3, 5):
        r = 0
        for krel in range(1, 1 << k):
            pc = _popc(krel)
            if (k == 3 and (pc == 1 or pc == 2)) or (k == 4 and (pc == 2 or pc == 3)):
                KREL_RANK[k][krel] = <int8_t>r
                r += 1
    for cmask in range(512):
        k = _popc(cmask)
        if k != 3 and k != 4:
            continue
        SUB_MASK[SUB_N] = <uint16_t>cmask
        if k == 3:
            SUB3[SUB3_N] = <uint8_t>SUB_N
            SUB3_N += 1
        SUB_K[SUB_N] = <uint8_t>k
        SUB_BASE[SUB_N] = <int16_t>idx
        t = 0
        for j in range(9):
            if (cmask >> j) & 1:
                SUB_SLOT[SUB_N][t] = <uint8_t>j
                t += 1
        for krel in range(1, 1 << k):
            if KREL_RANK[k][krel] >= 0:
                PAT_K[idx] = <uint8_t>k
                PAT_KEEP[idx] = 0
                for j in range(k):
                    PAT_SLOT[idx][j] = SUB_SLOT[SUB_N][j]
                    if (krel >> j) & 1:
                        PAT_KEEP[idx] |= <uint16_t>(1 << SUB_SLOT[SUB_N][j])
                idx += 1
        SUB_N += 1


_build_tables()


# ---- the combination search (MC-10 .. MC-12, MC-18 .. MC-23, MC-29) -------------------------

cdef inline void lo_hi(const int* v, int k, int* lo, int* hi) noexcept nogil:
    """The indices of the lowest and the highest of v[0 .. k - 1] (the first of equals)."""
    cdef int j
    lo[0] = 0
    hi[0] = 0
    for j in range(1, k):
        if v[j] < v[lo[0]]:
            lo[0] = j
        if v[j] > v[hi[0]]:
            hi[0] = j


cdef inline uint32_t eval3(int m0, int m1, int m2, const int* top, bint mixed_ok, bint one_ok,
                           bint lilly, bint choose=0) noexcept nogil:
    """Kept sets (bit krel set) of three cards with modified values m0..m2; ``top`` lists
    the relative indices by printed value descending (then index ascending). ``choose``
    (kept_card="player_chooses", MC-23): a set keeps any one card (mixed) or any two (one
    colour)."""
    cdef uint32_t r = 0
    cdef int lo, hi, j
    cdef int m[3]
    if m0 == m1 and m1 == m2 and choose:  # a set: the player chooses (MC-23)
        if mixed_ok:  # krel 1, 2, 4
            r |= (<uint32_t>1 << 1) | (<uint32_t>1 << 2) | (<uint32_t>1 << 4)
        if one_ok:  # krel 3, 5, 6
            r |= (<uint32_t>1 << 3) | (<uint32_t>1 << 5) | (<uint32_t>1 << 6)
        return r
    if m0 == m1 and m1 == m2:  # a set: keep the highest printed (MC-23)
        if mixed_ok:
            r |= <uint32_t>1 << (1 << top[0])
        if one_ok:
            r |= <uint32_t>1 << ((1 << top[0]) | (1 << top[1]))
        return r
    if m0 == m1 or m1 == m2 or m0 == m2:
        return 0
    m[0] = m0
    m[1] = m1
    m[2] = m2
    lo_hi(m, 3, &lo, &hi)
    if m[hi] - m[lo] != 2:
        return 0
    if mixed_ok:  # MC-12 (mixed run: the lowest), MC-20 (Lilly: the highest)
        r |= <uint32_t>1 << (1 << (hi if lilly else lo))
    if one_ok:  # one-colour run: the highest
        r |= <uint32_t>1 << (1 << hi)
    return r


cdef inline uint32_t eval4(const int* v, const int* top, bint one, bint choose=0) noexcept nogil:
    """Amélie (MC-21): four cards, no modification. ``choose`` (kept_card="player_chooses",
    MC-23): a set keeps any two of its cards (mixed) or any three (one colour)."""
    cdef int lo = 0, hi = 0, j, second
    cdef uint32_t r = 0
    if v[0] == v[1] and v[1] == v[2] and v[2] == v[3] and choose:
        for j in range(16):
            if _popc(j) == 2 + one:
                r |= <uint32_t>1 << j
        return r
    if v[0] == v[1] and v[1] == v[2] and v[2] == v[3]:
        if one:
            return <uint32_t>1 << ((1 << top[0]) | (1 << top[1]) | (1 << top[2]))
        return <uint32_t>1 << ((1 << top[0]) | (1 << top[1]))
    lo_hi(v, 4, &lo, &hi)
    if v[hi] - v[lo] != 3:
        return 0
    if v[0] == v[1] or v[0] == v[2] or v[0] == v[3] or v[1] == v[2] or v[1] == v[3] or v[2] == v[3]:
        return 0
    if one:  # keep the highest and the lowest
        return <uint32_t>1 << ((1 << hi) | (1 << lo))
    second = -1  # keep the lowest and the next lowest
    for j in range(4):
        if j != lo and (second < 0 or v[j] < v[second]):
            second = j
    return <uint32_t>1 << ((1 << lo) | (1 << second))


cdef inline void order_top(const int* pv, int k, int* top) noexcept nogil:
    """Relative indices by printed value descending, then index ascending."""
    cdef int i, j, t
    for i in range(k):
        top[i] = i
    for i in range(1, k):
        t = top[i]
        j = i - 1
        while j >= 0 and pv[top[j]] < pv[t]:
            top[j + 1] = top[j]
            j -= 1
        top[j + 1] = t


cdef inline uint32_t kept3(const int* v, const int* c, int h, bint kc, int changeable) noexcept nogil:
    """The kept sets (bit krel set) of three cards of printed candy values ``v`` and colours
    ``c`` laid with helper ``h`` (MC-10, MC-12, MC-18 .. MC-23; ``kc``: kept_card=
    "player_chooses"): Mathieu or Maurice may change one card among the bits of
    ``changeable`` (every card, 7, but under changed_value="printed_range": ``in_range3``)."""
    cdef int d = -1 if h == H_MATHIEU else (1 if h == H_MAURICE else 0)
    cdef int top[3]
    cdef bint one = c[0] == c[1] and c[1] == c[2]
    cdef bint one_ok, mixed_ok
    cdef uint32_t res
    if h == H_CLAUDE:  # MC-22: one card may count as another colour
        one_ok = c[0] == c[1] or c[1] == c[2] or c[0] == c[2]
        mixed_ok = True
    else:
        one_ok = one
        mixed_ok = not one
    order_top(v, 3, top)
    res = eval3(v[0], v[1], v[2], top, mixed_ok, one_ok, h == H_LILLY, kc)
    if d != 0:  # MC-18 / MC-19
        if changeable & 1:
            res |= eval3(v[0] + d, v[1], v[2], top, mixed_ok, one_ok, h == H_LILLY, kc)
        if changeable & 2:
            res |= eval3(v[0], v[1] + d, v[2], top, mixed_ok, one_ok, h == H_LILLY, kc)
        if changeable & 4:
            res |= eval3(v[0], v[1], v[2] + d, top, mixed_ok, one_ok, h == H_LILLY, kc)
    return res


cdef uint8_t DEBRUIJN32[32]


cdef void _build_debruijn() noexcept nogil:
    cdef int i
    for i in range(32):
        DEBRUIJN32[(<uint32_t>(<uint32_t>0x077CB531 << i)) >> 27] = <uint8_t>i


_build_debruijn()


cdef inline int ctz32(uint32_t x) noexcept nogil:
    """Index of the lowest set bit of x != 0 (de Bruijn multiplication, branch-free)."""
    return DEBRUIJN32[(<uint32_t>((x & (~x + 1)) * <uint32_t>0x077CB531)) >> 27]


# Shape tables: the kept sets of three cards depend only on the helper, the differences of
# the candy values to the first card (-3..3; any larger difference is never a combination,
# even with a one-card change) and which colours are equal; of four cards (Amélie) only on
# the differences and whether they are one colour. Both tables are filled once, at import,
# by eval3/eval4 above, so the search itself is a few loads and one lookup per subset.
# Two banks: T3's helper rows 0..6 and T4[0] for the default reading of MC-23 (a set keeps
# its highest printed cards), rows 7..13 (helper + 7) and T4[1] for kept_card="player_chooses"
# (every choice of a set's kept cards).
cdef uint16_t T3[2 * 7 * 7 * 7 * 8]
cdef uint16_t T4[2][7 * 7 * 7 * 2]


cdef void _build_shape_tables() noexcept nogil:
    cdef int h, hk, kc, dv1, dv2, dv3, cp, j
    cdef int v[4]
    cdef int c[3]
    cdef int top[4]
    for hk in range(14):  # the helper, + 7 in the bank of kept_card="player_chooses" (MC-23)
        h = hk % 7
        kc = hk >= 7
        for dv1 in range(-3, 4):
            for dv2 in range(-3, 4):
                for cp in range(8):
                    c[0] = 0
                    c[1] = 0 if cp & 1 else 1
                    c[2] = c[1] if cp & 2 else (c[0] if cp & 4 else 2)
                    if ((c[0] == c[1]) | ((c[1] == c[2]) << 1) | ((c[0] == c[2]) << 2)) != cp:
                        T3[((hk * 7 + dv1 + 3) * 7 + dv2 + 3) * 8 + cp] = 0
                        continue
                    v[0] = 6
                    v[1] = 6 + dv1
                    v[2] = 6 + dv2
                    T3[((hk * 7 + dv1 + 3) * 7 + dv2 + 3) * 8 + cp] = <uint16_t>kept3(v, c, h, kc, 7)
    for dv1 in range(-3, 4):
        for dv2 in range(-3, 4):
            for dv3 in range(-3, 4):
                for j in range(2):
                    v[0] = 6
                    v[1] = 6 + dv1
                    v[2] = 6 + dv2
                    v[3] = 6 + dv3
                    order_top(v, 4, top)
                    for kc in range(2):
                        T4[kc][(((dv1 + 3) * 7 + dv2 + 3) * 7 + dv3 + 3) * 2 + j] = <uint16_t>eval4(v, top, j == 1, kc)


_build_shape_tables()


# Wide tables for three cards (the listing, the decoding of one combination, the legality
# test): indexed by the candy differences of the second and third card to the first, -11 .. 11 each (every difference
# two values 1..12 can have, so no range test), and the colour pattern. W3R holds T3's kept
# sets (0 for differences beyond 3), W3C their number. A slot's contribution to the index
# is a precomputed multiple of its value (``combo_slots``), so one subset costs two adds,
# two compares and one load.
cdef enum:
    W_OFF = ((11 * 23) + 11) * 8    # the index of differences (0, 0)
    W_SIZE = 23 * 23 * 8
cdef uint16_t W3R[14][W_SIZE]    # rows: the helper, + 7 for kept_card="player_chooses" (T3's banks)
cdef uint8_t W3C[14][W_SIZE]
cdef int16_t SUB_OF_MASK[512]          # index into SUB_* of a 3- or 4-slot mask, -1 if none
cdef uint8_t PAT_KREL[MC_NUM_PATTERNS]  # kept cards of a pattern, relative to its slots


cdef void _build_wide_tables() noexcept nogil:
    cdef int h, d1, d2, cp, i, j
    cdef uint16_t r
    for h in range(14):
        for d1 in range(-11, 12):
            for d2 in range(-11, 12):
                for cp in range(8):
                    i = ((d1 + 11) * 23 + d2 + 11) * 8 + cp
                    r = 0
                    if -3 <= d1 <= 3 and -3 <= d2 <= 3:
                        r = T3[((h * 7 + d1 + 3) * 7 + d2 + 3) * 8 + cp]
                    W3R[h][i] = r
                    W3C[h][i] = <uint8_t>_popc(r)
    for i in range(512):
        SUB_OF_MASK[i] = -1
    for i in range(SUB_N):
        SUB_OF_MASK[SUB_MASK[i]] = <int16_t>i
    for i in range(MC_NUM_PATTERNS):
        PAT_KREL[i] = 0
        for j in range(PAT_K[i]):
            if (PAT_KEEP[i] >> PAT_SLOT[i][j]) & 1:
                PAT_KREL[i] |= <uint8_t>(1 << j)


_build_wide_tables()


ctypedef struct slots_t:
    # per slot of the hand: its candy value times 184 (+ W_OFF), 8 and 192 (the three index
    # terms of W3R / W3C when the slot is the second, the third or the first card), its
    # candy value and its colour
    int32_t a1[MC_MAX_HAND]
    int32_t a2[MC_MAX_HAND]
    int32_t a0[MC_MAX_HAND]
    int32_t pv[MC_MAX_HAND]
    uint8_t col[MC_MAX_HAND]
    int32_t cum[MC_MAX_HAND]   # combinations whose highest slot is <= j (combo_count)
    int32_t n                  # cards in the hand
    int32_t helper             # the row of W3R / W3C: the helper (+ 7 with kept_card="player_chooses")
    int32_t amelie             # MC-21: four-card subsets too (Amélie, at least 5 cards)
    int32_t ready              # the slot arrays above are filled
    int32_t kc                 # the bank of T4: kept_card="player_chooses" (MC-23)
    int32_t bound              # MC-18/MC-19 under changed_value="printed_range": the kept sets
                               #    of the tables pass through in_range3 (Mathieu's, Maurice's)


cdef inline void slots_below(const mc_t* s, int p, slots_t* t, int m) noexcept nogil:
    """The per-slot terms of ``t`` for seat p's slots 0 .. m - 1 (the other fields untouched)."""
    cdef int j, c, v
    for j in range(m):
        c = hcard(s, p, j)
        v = s.cfg.candy[c]
        t.a1[j] = 184 * v + W_OFF
        t.a2[j] = 8 * v
        t.a0[j] = 192 * v
        t.pv[j] = v
        t.col[j] = s.cfg.colour[c]


cdef inline bint change_bounded(const mc_t* s, int h) noexcept nogil:
    """Whether helper h's change of a card (MC-18 Mathieu, MC-19 Maurice) has a bound: the
    reading changed_value="printed_range" (the tables, built on differences, know none)."""
    return (h == H_MATHIEU and s.cfg.change_lo > 0) | (h == H_MAURICE and s.cfg.change_hi < 13)


cdef inline uint32_t in_range3(const mc_cfg_t* cfg, int h, int v0, int v1, int v2, int c0, int c1,
                               int c2, uint32_t r) noexcept nogil:
    """MC-18, MC-19 under changed_value="printed_range": the kept sets ``r`` (the shape
    tables') of three cards (printed values v0..v2, colours c0..c2, in slot order) laid with
    Mathieu or Maurice, without those only a change past the printed values gives: a card of
    the lowest value is not lowered, one of the highest not raised."""
    cdef int v[3]
    cdef int c[3]
    cdef int lim = cfg.change_lo if h == H_MATHIEU else cfg.change_hi
    cdef int changeable = (v0 != lim) | ((v1 != lim) << 1) | ((v2 != lim) << 2)
    if changeable == 7:
        return r
    v[0] = v0
    v[1] = v1
    v[2] = v2
    c[0] = c0
    c[1] = c1
    c[2] = c2
    return kept3(v, c, h, cfg.kept_choice, changeable)


cdef inline uint32_t slots_in_range(const mc_t* s, const slots_t* t, int s0, int s1, int s2,
                                    uint32_t r) noexcept nogil:
    """``in_range3`` for the slots s0 < s1 < s2 of ``t``'s hand."""
    return in_range3(&s.cfg, t.helper % 7, t.pv[s0], t.pv[s1], t.pv[s2], t.col[s0], t.col[s1], t.col[s2], r)


cdef inline void combo_slots(const mc_t* s, int p, slots_t* t) noexcept nogil:
    cdef int hn = s.hand_n[p]
    t.n = hn
    t.helper = s.helper[p]
    t.amelie = t.helper == H_AMELIE and hn >= 5
    t.bound = change_bounded(s, t.helper)  # MC-18/MC-19 (changed_value)
    t.kc = s.cfg.kept_choice  # MC-23: the second bank of shape tables
    t.helper += 7 * t.kc
    slots_below(s, p, t, hn)


cdef inline uint32_t four(const slots_t* t, int v, int s0, int s1, int s2) noexcept nogil:
    """MC-21: the kept sets (bits, relative to the slots ascending; one, but several for a
    set with kept_card="player_chooses") of the four cards in slots v < s0 < s1 < s2, or 0."""
    cdef uint32_t d1 = <uint32_t>(t.pv[s0] - t.pv[v] + 3)
    cdef uint32_t d2 = <uint32_t>(t.pv[s1] - t.pv[v] + 3)
    cdef uint32_t d3 = <uint32_t>(t.pv[s2] - t.pv[v] + 3)
    if d1 >= 7 or d2 >= 7 or d3 >= 7:
        return 0
    return T4[t.kc][((d1 * 7 + d2) * 7 + d3) * 2
                    + (t.col[v] == t.col[s0] and t.col[s0] == t.col[s1] and t.col[s1] == t.col[s2])]


# The combinations are visited in pattern order (the order of the action ids): by highest
# slot s2, then middle slot s1, then lowest slot s0, ascending; with Amélie, the four-card
# subsets v < s0 < s1 < s2 follow the three-card subset (s0, s1, s2), v ascending (the slot
# masks ascend so). Each subset costs one table load (W3C / W3R; T4 for four cards).

cdef inline int w3_high(const slots_t* t, int s1, int s2) noexcept nogil:
    """The part of the W3 tables' index of the subset s0 < s1 < s2 that s1 and s2 fix (the
    loops compute it once per pair, then ``w3_index`` for each s0)."""
    return t.a1[s1] + t.a2[s2] + ((t.col[s1] == t.col[s2]) << 1)


cdef inline int w3_index(const slots_t* t, int high, int s0, int s1, int s2) noexcept nogil:
    """The W3 tables' index of the subset s0 < s1 < s2 (``high`` = ``w3_high(t, s1, s2)``)."""
    return high - t.a0[s0] + ((t.col[s0] == t.col[s1]) | ((t.col[s0] == t.col[s2]) << 2))


cdef inline int combo_count_enum(const mc_t* s, int p, slots_t* t) noexcept nogil:
    """``combo_count`` by visiting every subset (every helper's with kept_card=
    "player_chooses", MC-23; Claude's, MC-22, for a hand with 4 cards of one value;
    Mathieu's and Maurice's with changed_value="printed_range", MC-18/MC-19)."""
    combo_slots(s, p, t)
    if t.bound:  # (one copy of the loop each, so that the default's has no test of the bound)
        return count_subsets(s, p, t, 1)
    return count_subsets(s, p, t, 0)


cdef inline int count_subsets(const mc_t* s, int p, slots_t* t, bint bound) noexcept nogil:
    """``combo_count_enum``'s loop over the subsets (``t`` filled by ``combo_slots``); with
    ``bound`` (MC-18/MC-19 under changed_value="printed_range") each subset's kept sets go
    through ``in_range3``."""
    cdef int hn = s.hand_n[p]
    cdef int s0, s1, s2, v, b, i, tot = 0
    cdef const uint8_t* C = W3C[t.helper]  # (the row combo_slots chose)
    for s2 in range(2, hn):
        for s1 in range(1, s2):
            b = w3_high(t, s1, s2)
            for s0 in range(s1):
                i = w3_index(t, b, s0, s1, s2)
                if bound and C[i]:  # MC-18/MC-19 (changed_value="printed_range")
                    tot += popcount16(<uint16_t>slots_in_range(s, t, s0, s1, s2, W3R[t.helper][i]))
                else:
                    tot += C[i]
                if t.amelie:
                    for v in range(s0):
                        tot += popcount16(<uint16_t>four(t, v, s0, s1, s2))
        t.cum[s2] = tot
    return tot


cdef inline int c2(int x) noexcept nogil:
    return (x * (x - 1)) >> 1


cdef inline int nib(uint64_t w, int u) noexcept nogil:
    """Nibble u (0 .. 15; larger u reads nibble 15) of w."""
    return <int>((w >> ((u if u < 15 else 15) << 2)) & 15)


cdef noinline_int combo_count_slow(const mc_t* s, int p, slots_t* t) noexcept nogil:
    """``combo_count`` with the per-slot terms computed from 4-bit counts (any hand: also
    with 4 or more cards of one value). The counts of the slots below j by value are 4-bit
    fields of one word (value u at field u + 2, so that u - 3 .. u + 3 are fields 0 .. 17,
    those past 15 reading field 15, value 13, which no card has)."""
    cdef int hn = s.hand_n[p]
    cdef int h = s.helper[p]
    cdef int j, c, v, col, x, tot = 0
    cdef int n3, n2, n1, n0, m1, m2, m0
    cdef uint64_t N = 0          # cards of each value among the slots below j
    cdef uint64_t M[5]           # the same by colour
    cdef uint64_t mw
    t.helper = h
    t.amelie = h == H_AMELIE and hn >= 5
    t.bound = 0
    t.ready = 0
    t.cum[1] = 0
    if hn < 4:  # MC-11: three laid, one must stay
        return 0
    # (MC-23: the counts below are the default bank's; MC-18/MC-19: they know no bound)
    if h == H_CLAUDE or s.cfg.kept_choice or change_bounded(s, h):
        t.ready = 1
        return combo_count_enum(s, p, t)
    if h == H_MATHIEU or h == H_MAURICE:
        memset(M, 0, sizeof(M))
        for j in range(hn):
            c = hcard(s, p, j)
            v = s.cfg.candy[c] + 2
            col = s.cfg.colour[c]
            mw = M[col]
            n0 = nib(N, v)
            n1 = nib(N, v + 1)
            n2 = nib(N, v + 2)
            n3 = nib(N, v + 3)
            m1 = nib(N, v - 1)
            m2 = nib(N, v - 2)
            m0 = nib(mw, v)
            # sets (MC-10), runs with j lowest, middle, highest
            x = c2(n0) + n1 * n2 + m1 * n1 + m2 * m1
            if h == H_MATHIEU:  # MC-18: one card counts 1 lower
                x += (3 * n0 * n1 - m0 * nib(mw, v + 1)       # v v v+1, j one of the v
                      + 3 * c2(m1) - c2(nib(mw, v - 1))        # v-1 v-1 v, j the top
                      + n1 * n3 + m1 * n2 + m2 * nib(N, v - 3)  # v v+1 v+3, j each card
                      + c2(n2) + c2(nib(mw, v + 2))            # v v+2 v+2, j the lowest
                      + m2 * n0 + nib(mw, v - 2) * m0)         # v-2 v v, j one of the v
            else:  # MC-19: one card counts 1 higher
                x += (2 * n0 * n2 - m0 * nib(mw, v + 2)       # v v v+2, j one of the v
                      + 2 * c2(m2) - c2(nib(mw, v - 2))        # v-2 v-2 v, j the top
                      + 2 * c2(n1) + c2(nib(mw, v + 1))        # v v+1 v+1, j the lowest
                      + 2 * m1 * n0 + nib(mw, v - 1) * m0      # v-1 v v, j one of the v
                      + n2 * n3 + m2 * n1 + nib(N, v - 3) * m1)  # v v+2 v+3, j each card
            tot += x
            t.cum[j] = tot
            N += (<uint64_t>1) << (v << 2)
            M[col] = mw + ((<uint64_t>1) << (v << 2))
        return tot
    for j in range(hn):
        c = hcard(s, p, j)
        v = s.cfg.candy[c] + 2
        n0 = nib(N, v)
        n1 = nib(N, v + 1)
        n2 = nib(N, v + 2)
        m1 = nib(N, v - 1)
        m2 = nib(N, v - 2)
        # sets (MC-10), runs with j lowest, middle, highest
        x = c2(n0) + n1 * n2 + m1 * n1 + m2 * m1
        if t.amelie:  # MC-21: four equal, or four in a run
            n3 = nib(N, v + 3)
            x += ((n0 * (n0 - 1) * (n0 - 2)) // 6
                  + n1 * n2 * n3 + m1 * n1 * n2 + m2 * m1 * n1 + nib(N, v - 3) * m2 * m1)
        tot += x
        t.cum[j] = tot
        N += (<uint64_t>1) << (v << 2)
    return tot


# CUM_T[mode][x]: the combinations whose highest slot is j, from the numbers (0 .. 3 each)
# of cards of values v - 3 .. v + 3 among the slots below j, v being j's value, packed two bits
# each into x (value v - 3 + i at bits 2i, 2i + 1): mode 0 sets and runs (MC-10: every
# helper but these), mode 1 with Mathieu's shapes (MC-18), mode 2 with Maurice's (MC-19),
# mode 3 with Amélie's four-card ones (MC-21, hand of at least 5). The kept-set numbers that
# depend on the colours (Mathieu's and Maurice's shapes all of one colour) are added apart.
cdef uint8_t CUM_T[8][1 << 14]   # (rows 4 .. 7: "CUM_TC", below)
cdef uint8_t MODE_OF[MC_HELPERS]


cdef void _build_cum_tables() noexcept nogil:
    cdef int x, a, b, d, n0, e, f, g, plain
    for x in range(1 << 14):
        a = x & 3           # v - 3
        b = (x >> 2) & 3    # v - 2
        d = (x >> 4) & 3    # v - 1
        n0 = (x >> 6) & 3   # v
        e = (x >> 8) & 3    # v + 1
        f = (x >> 10) & 3   # v + 2
        g = (x >> 12) & 3   # v + 3
        # j in a set, or the lowest, middle or highest card of a run
        plain = c2(n0) + e * f + d * e + b * d
        CUM_T[0][x] = <uint8_t>plain
        # Mathieu: v v v+1 (3 kept sets) with j one of the v, v-1 v-1 v (3) with j the top,
        # v v+1 v+3 with j each card, v v+2 v+2 with j the lowest, v-2 v v with j one of the v
        CUM_T[1][x] = <uint8_t>(plain + 3 * n0 * e + 3 * c2(d) + e * g + d * f + b * a
                                + c2(f) + b * n0)
        # Maurice: v v v+2 (2) with j one of the v, v-2 v-2 v (2) with j the top, v v+1 v+1
        # (2) with j the lowest, v-1 v v (2) with j one of the v, v v+2 v+3 with j each card
        CUM_T[2][x] = <uint8_t>(plain + 2 * n0 * f + 2 * c2(b) + 2 * c2(e) + 2 * d * n0
                                + f * g + b * e + a * d)
        # Amélie: four equal, or a four-card run with j at each place
        CUM_T[3][x] = <uint8_t>(plain + n0 * (n0 - 1) * (n0 - 2) // 6
                                + e * f * g + d * e * f + b * d * e + a * b * d)
    for x in range(MC_HELPERS):
        MODE_OF[x] = 0
    MODE_OF[H_MATHIEU] = 1
    MODE_OF[H_MAURICE] = 2


_build_cum_tables()


cdef inline int kth_triple(int s0, int s1, int s2, uint32_t r, int k) noexcept nogil:
    """The pattern of the k-th (from 0, in the order of the set bits of ``r``) kept set of the
    three slots s0 < s1 < s2 (combo_kth, combo_kth_walk)."""
    while k > 0:
        r &= r - 1
        k -= 1
    return pattern_of((1 << s0) | (1 << s1) | (1 << s2), 3, r)


cdef inline const uint8_t* count_start(const mc_t* s, int p, slots_t* t, int kc) noexcept nogil:
    """The start of combo_count for seat ``p``'s hand of 4 or more cards:
    ``t``'s fields for its helper and the row of cumulative counts (CUM_T's, rows 4 .. 7
    under kept_card="player_chooses", MC-23) to read (for Claude, MC-22, the sets and runs of
    ``claude_count``); NULL where combo_count_slow counts instead (changed_value=
    "printed_range" with Mathieu or Maurice, MC-18/MC-19). ``kc``: s.cfg.kept_choice, passed
    as a constant."""
    cdef int h = s.helper[p]
    if change_bounded(s, h):
        return NULL
    t.helper = h + 7 * kc  # (the row of W3R / W3C combo_kth reads)
    t.amelie = h == H_AMELIE and s.hand_n[p] >= 5
    t.bound = 0
    t.ready = 0
    t.cum[1] = 0
    return CUM_T[MODE_OF[h] + 3 * t.amelie + 4 * kc]


# CLAUDE_PAIRS[y]: MC-22's one-colour pairs that a card of value v and colour c makes with
# the cards of colour c before it, from their numbers (0 .. 3 each) of values v - 2 .. v + 2
# packed two bits each into y (value v - 2 + i at bits 2i, 2i + 1), as bytes in memory
# order: byte i the pairs that a later card of value v - 2 + i makes a set or run of three
# with (claude_count adds them to its byte array at v).
# CLAUDE_PAIRS[1]: the same, each set's pairs weighted by the kept sets of a mixed set under
# kept_card="player_chooses" (MC-23), ``set_w``.
cdef uint64_t CLAUDE_PAIRS[2][1 << 10]


cdef void _build_claude_table(uint64_t* out, int set_w) noexcept nogil:
    cdef int y, i
    cdef int m[5]
    cdef uint8_t b[8]
    for y in range(1 << 10):
        for i in range(5):
            m[i] = (y >> (2 * i)) & 3   # the cards of value v - 2 + i in the colour
        memset(b, 0, 8)
        b[0] = <uint8_t>m[1]             # v-1 v: completed by v-2
        b[1] = <uint8_t>(m[3] + m[0])    # v v+1 and v-2 v: completed by v-1
        b[2] = <uint8_t>(set_w * m[2])   # v v: completed by v (a set)
        b[3] = <uint8_t>(m[1] + m[4])    # v-1 v and v v+2: completed by v+1
        b[4] = <uint8_t>m[3]             # v v+1: completed by v+2
        memcpy(&out[y], b, 8)


_build_claude_table(CLAUDE_PAIRS[0], 1)


cdef int claude_count(const mc_t* s, int p, slots_t* t, const uint8_t* T,
                      const uint64_t* PT) noexcept nogil:
    """combo_count for Claude's holder (MC-22; ``t``'s fields set by count_start), without
    visiting subsets. With Claude a set or run of three gives two kept sets (T3's Claude row)
    when two of its cards share a colour (one colour with the third card changed, mixed with
    one of the two changed) and one (mixed) when its three colours differ. So the subsets
    whose highest slot j (value v, colour c) completes a set or run number, in pairs of
    slots below j: all of them (CUM_T[0] on the counts by value), plus those holding a card
    of colour c (all but those of the other colours' cards: CUM_T[0] on the counts by value
    minus those of colour c), plus the pairs of one colour other than c (the pairs of one
    colour that v completes, kept by value in ``pairs``, minus those of colour c: CUM_T[0]
    on the counts of colour c). A hand with 4 cards of one value (a 2-bit count overflows,
    seen as in combo_count) is counted by combo_count_slow. ``T`` and ``PT``: CUM_T[0] and
    CLAUDE_PAIRS[0], or under kept_card="player_chooses" (MC-23: a set gives its kept sets
    three times over, any card of it kept) CUM_T[4] and CLAUDE_PAIRS[1]."""
    cdef int hn = s.hand_n[p]
    cdef int j, c, v, x, y, col, over = 0, tot = 0
    cdef uint64_t X = 0          # cards of value u among the slots below j, at bits 2u + 6
    cdef uint64_t M[5]           # the same by colour, at bits 2u + 4
    cdef uint64_t P[3]           # byte u + 2: the one-colour pairs below j that value u completes
    cdef uint8_t* pairs = <uint8_t*>P
    cdef uint64_t lo, hi, w, d
    memset(M, 0, sizeof(M))
    memset(P, 0, sizeof(P))
    lo = s.hand[p][0]  # the hand's bytes in slot order (next_card)
    hi = s.hand[p][1]
    for j in range(hn):
        c = next_card(&lo, &hi)
        v = s.cfg.candy[c]
        col = s.cfg.colour[c]
        x = <int>((X >> (v << 1)) & 0x3FFF)   # values v - 3 .. v + 3
        over |= x & (x << 1)  # bit 7: a fourth card of this value (see combo_count)
        w = M[col]
        y = <int>((w >> (v << 1)) & 0x3FF)    # values v - 2 .. v + 2, colour c
        # (the mask: a count past 3 makes a field of x smaller than y's, until the fallback)
        tot += 2 * T[x] - T[(x - (y << 2)) & 0x3FFF] - T[y << 2] + pairs[v + 2]
        t.cum[j] = tot
        memcpy(&d, pairs + v, 8)   # the pairs j makes, bytes v - 2 .. v + 2 at v
        d += PT[y]
        memcpy(pairs + v, &d, 8)
        X += (<uint64_t>1) << ((v + 3) << 1)
        M[col] = w + ((<uint64_t>1) << ((v + 2) << 1))
    if over & 0x80:
        return combo_count_slow(s, p, t)
    return tot


# CORR_T[mode][y]: what Mathieu's (mode 1, MC-18) and Maurice's (mode 2, MC-19) kept sets of
# one colour change in CUM_T's figure for a slot, from the numbers (0 .. 3 each) of cards of
# the slot's colour among the slots below it of values v - 2 .. v + 2, packed two bits each
# into y (value v - 2 + i at bits 2i, 2i + 1); mode 0 (every other helper) changes nothing.
# So combo_count has one loop and no branch on the helper.
cdef int8_t CORR_T[8][1 << 10]   # (row 3: Amélie's four cards; rows 4 .. 7: "CORR_TC", below)


cdef void _build_corr_table() noexcept nogil:
    cdef int y, a, b, c, d, e
    for y in range(1 << 10):
        a = y & 3           # v - 2
        b = (y >> 2) & 3    # v - 1
        c = (y >> 4) & 3    # v
        d = (y >> 6) & 3    # v + 1
        e = (y >> 8) & 3    # v + 2
        CORR_T[0][y] = 0
        CORR_T[3][y] = 0  # Amélie (MC-21): four cards keep one set of cards, any colours
        # Mathieu, one colour: v v v+1 has 2 kept sets (not 3), v v+2 v+2 2 (not 1)
        CORR_T[1][y] = <int8_t>(- c * d - c2(b) + c2(e) + a * c)
        # Maurice, one colour: v v v+2 has 1 (not 2), v v+1 v+1 has 3 (not 2)
        CORR_T[2][y] = <int8_t>(- c * e - c2(a) + c2(d) + b * c)


_build_corr_table()


# CUM_T[4 + mode][x], CORR_T[4 + mode][y] ("CUM_TC", "CORR_TC"): CUM_T's and CORR_T's figures
# (same modes, same packing) under kept_card="player_chooses" (MC-23),
# where a set keeps any one of its cards (mixed) or any two (one colour), so that a set gives
# more kept sets than one. They are not written out: each entry adds, over the pairs (and for
# Amélie the triples) of values among the slots below j, their number times the kept sets
# that the shape rules give such a subset (``kept3`` with the mode's helper, ``eval4``): not
# all of one colour for CUM_TC, the difference all of one colour makes for CORR_TC.


cdef int _kept_n(int h, int k, const int* off, bint one) noexcept nogil:
    """The number of kept sets of k = 3 or 4 cards (values 6 + off[i], the last card 6) of
    helper h under kept_card="player_chooses", all of one colour or not (MC-10 .. MC-23)."""
    cdef int v[4]
    cdef int c[3]
    cdef int top[4]
    cdef int i
    for i in range(k - 1):
        v[i] = 6 + off[i]
    v[k - 1] = 6
    if k == 3:
        for i in range(3):
            c[i] = 0 if one else i
        return _popc(<int>kept3(v, c, h, 1, 7))
    order_top(v, 4, top)
    return _popc(<int>eval4(v, top, one, 1))


cdef inline int _multi(const int* n, int k, const int* off) noexcept nogil:
    """The number of ways to choose k - 1 distinct cards of values off[0] <= .. <= off[k - 2]
    (indices into ``n``, the numbers (0 .. 3) of cards per value)."""
    cdef int a = n[off[0]], b = n[off[1]], c
    if k == 3:
        return ((a * (a - 1)) >> 1) if off[0] == off[1] else a * b
    c = n[off[2]]
    if off[0] == off[2]:
        return (a * (a - 1) * (a - 2)) // 6
    if off[0] == off[1]:
        return ((a * (a - 1)) >> 1) * c
    if off[1] == off[2]:
        return a * ((b * (b - 1)) >> 1)
    return a * b * c


cdef int _build_choice_tables() except -1:
    cdef int mode, h, x, i, j, o0, o1, o2, total, w, width, nt
    cdef int n[7]
    cdef int off[3]
    cdef int t_off[120][3]   # the shapes with kept sets: values (indices into n) of the
    cdef int t_k[120]        # cards below j, their number + 1,
    cdef int t_m[120]        # kept sets not all of one colour,
    cdef int t_d[120]        # and what all of one colour changes
    cdef int helpers[4]
    helpers[0] = H_ETIENNE
    helpers[1] = H_MATHIEU
    helpers[2] = H_MAURICE
    helpers[3] = H_AMELIE
    for mode in range(4):
        h = helpers[mode]
        nt = 0
        for o0 in range(7):
            for o1 in range(o0, 7):
                for o2 in range(o1, 8):  # (o2 == 7: three cards)
                    off[0] = o0 - 3
                    off[1] = o1 - 3
                    off[2] = o2 - 3
                    if o2 == 7:
                        w = _kept_n(h, 3, off, 0)
                        total = _kept_n(h, 3, off, 1) - w
                    elif mode == 3:
                        w = _kept_n(h, 4, off, 0)
                        total = _kept_n(h, 4, off, 1) - w
                    else:
                        continue
                    if w == 0 and total == 0:  # (t_m > 0 wherever t_d != 0)
                        continue
                    # (the colour terms' index reaches 2 values either side of j only)
                    if total and (o0 == 0 or (o1 if o2 == 7 else o2) == 6):
                        raise AssertionError("CORR_TC: a colour term 3 values from j")
                    t_off[nt][0] = o0
                    t_off[nt][1] = o1
                    t_off[nt][2] = o2
                    t_k[nt] = 3 if o2 == 7 else 4
                    t_m[nt] = w
                    t_d[nt] = total
                    nt += 1
        for width in range(10, 15, 4):
            for x in range(1 << width):
                for i in range(7):
                    n[i] = 0
                for i in range(width // 2):  # field i: value v - width / 4 + i
                    n[i + 3 - width // 4] = (x >> (2 * i)) & 3
                total = 0
                if width == 14:
                    for j in range(nt):
                        total += _multi(n, t_k[j], t_off[j]) * t_m[j]
                else:
                    for j in range(nt):
                        if t_d[j]:
                            total += _multi(n, t_k[j], t_off[j]) * t_d[j]
                if width == 14:
                    if not 0 <= total <= 255:
                        raise AssertionError("CUM_TC: an entry past a byte")
                    CUM_T[4 + mode][x] = <uint8_t>total
                else:
                    if not -128 <= total <= 127:
                        raise AssertionError("CORR_TC: an entry past a byte")
                    CORR_T[4 + mode][x] = <int8_t>total
        if mode == 0:  # Claude's pairs (MC-22): a mixed set's kept sets (as Etienne's)
            off[0] = 0
            off[1] = 0
            _build_claude_table(CLAUDE_PAIRS[1], _kept_n(h, 3, off, 0))
    return 0


_build_choice_tables()


# INC_X[v], INC_M[v]: a card of candy value v in combo_count's counts by value (2-bit field
# of v at bits 2v + 6 of X) and by colour (at bits 2v + 4 of M[colour])
cdef uint64_t INC_X[16]
cdef uint64_t INC_M[16]
for _i in range(16):
    INC_X[_i] = (<uint64_t>1) << (2 * _i + 6)
    INC_M[_i] = (<uint64_t>1) << (2 * _i + 4)


cdef inline inline_int combo_count(const mc_t* s, int p, slots_t* t) noexcept nogil:
    """``count_by_tables`` for the game's reading of MC-23's kept cards, a constant in each
    copy (so the default's copy has no term of the other reading)."""
    if s.cfg.kept_choice:
        return count_by_tables(s, p, t, 1)
    return count_by_tables(s, p, t, 0)


cdef inline inline_int count_by_tables(const mc_t* s, int p, slots_t* t, int kc) noexcept nogil:
    """The number of combination actions of seat p (MC-10 .. MC-23) and, in ``t.cum[j]``, the
    number of those whose highest slot is <= j, for ``combo_kth``.

    The number of kept sets a subset gives depends only on its candy values relative to the
    lowest and on whether its cards are all of one colour (checked against the shape tables
    by ``_selfcheck_combos``): 1 for a set or a run with every helper but these; Mathieu
    (MC-18) adds the shapes v v v+1 (3 kept sets, 2 all of one colour), v v+1 v+3 (1) and
    v v+2 v+2 (1, 2 of one colour); Maurice (MC-19) v v v+2 (2, 1 of one colour), v v+1 v+1
    (2, 3 of one colour) and v v+2 v+3 (1); Amélie (MC-21) the four-card sets and runs (1).
    So the subsets whose highest slot is j are counted from the numbers of cards of each
    value among the slots below j (2-bit fields of one word, ``X``: one ``CUM_T`` entry per
    slot) and, for Mathieu and Maurice, of each value in j's colour (``M``: one ``CORR_T``
    entry): no subset is visited. Claude (MC-22), whose numbers depend on all three colours,
    has its own count (``claude_count``). Under kept_card="player_chooses" (MC-23: a set's
    kept cards are any of its cards) the same loop reads the rows 4 .. 7 of ``CUM_T`` and
    ``CORR_T`` ("CUM_TC", "CORR_TC"), built from the shape rules (``kept3``, ``eval4``) at
    import. Any hand with 4 cards of one value (a 2-bit field overflows) and Mathieu's and
    Maurice's hands under changed_value="printed_range" (MC-18/MC-19) are counted by
    ``combo_count_slow``."""
    cdef int hn = s.hand_n[p]
    cdef int h = s.helper[p]
    cdef int j, c, x, v, tot = 0
    cdef int sh, col
    cdef uint64_t X = 0          # cards of value u among the slots below j, at bits 2u + 6
    cdef uint64_t M[5]           # the same by colour, at bits 2u + 4
    cdef uint64_t w
    cdef const uint8_t* hb = <const uint8_t*>s.hand[p]
    cdef const uint8_t* T
    cdef const int8_t* K
    if hn < 4:  # MC-11: three laid, one must stay
        return 0
    T = count_start(s, p, t, kc)
    if T == NULL:
        return combo_count_slow(s, p, t)
    if h == H_CLAUDE:  # MC-22 (MC-23: the second table with kept_card="player_chooses")
        return claude_count(s, p, t, T, CLAUDE_PAIRS[kc])
    K = CORR_T[MODE_OF[h] + 3 * t.amelie + 4 * kc]
    M[0] = 0
    M[1] = 0
    M[2] = 0
    M[3] = 0
    M[4] = 0
    for j in range(hn):
        c = hb[j ^ (7 * MH_BIG_ENDIAN)]  # slot j's byte in memory (either byte order)
        v = s.cfg.candy[c]  # (the card's attributes in locals: the store to t.cum may alias them)
        col = s.cfg.colour[c]
        sh = 2 * v
        x = <int>((X >> sh) & 0x3FFF)
        w = M[col]
        tot += T[x] + K[(w >> sh) & 0x3FF]
        t.cum[j] = tot
        X += INC_X[v]
        M[col] = w + INC_M[v]
    # a fourth card of one value overflowed its 2-bit field into the next iff the fields of
    # X add up to less than hn (each carry takes 3 off): the check once here rather than on
    # each card
    if sum_fields2(X) != hn:
        return combo_count_slow(s, p, t)
    return tot


cdef inline int pattern_of(int mask, int k, uint32_t r) noexcept nogil:
    """The pattern index of the subset ``mask`` of k slots keeping the lowest kept set of
    ``r`` (bits: kept sets relative to the subset's slots)."""
    return SUB_BASE[SUB_OF_MASK[mask]] + KREL_RANK[k][ctz32(r)]


cdef inline bint four_may_hold(const slots_t* t, int s0, int s1, int s2) noexcept nogil:
    """Whether the cards of slots s0, s1, s2 can be three of a four-card combination (MC-21,
    as eval4 builds T4: four equal values, or four distinct values spanning 3): they must be
    all equal, or all distinct within a span of 3. combo_kth skips the four-card subsets
    of the other triples, which all count 0."""
    cdef int a = t.pv[s0], b = t.pv[s1], c = t.pv[s2]
    cdef int eq = (a == b) + (b == c) + (a == c)
    cdef int hi = a if a > b else b
    cdef int lo = a if a < b else b
    hi = c if c > hi else hi
    lo = c if c < lo else lo
    return (eq == 3) | ((eq == 0) & (hi - lo <= 3))


cdef inline int combo_kth_walk(const mc_t* s, int p, slots_t* t, int k) noexcept nogil:
    """``combo_kth`` for every hand, Amélie's four-card subsets (MC-21) too: the block of
    subsets whose highest slot s2 holds it is visited in pattern order."""
    cdef const uint16_t* R = W3R[t.helper]
    cdef const uint8_t* C = W3C[t.helper]
    cdef int s0, s1, s2 = 2, v, b, pc, i
    cdef uint32_t r
    if not t.ready:
        combo_slots(s, p, t)
    while t.cum[s2] <= k:
        s2 += 1
    k -= t.cum[s2 - 1]
    for s1 in range(1, s2):
        b = w3_high(t, s1, s2)
        for s0 in range(s1):
            i = w3_index(t, b, s0, s1, s2)
            pc = C[i]
            r = R[i]
            if t.bound and pc:  # MC-18/MC-19 (changed_value="printed_range")
                r = slots_in_range(s, t, s0, s1, s2, r)
                pc = popcount16(<uint16_t>r)
            if k < pc:
                return kth_triple(s0, s1, s2, r, k)
            k -= pc
            if t.amelie and four_may_hold(t, s0, s1, s2):
                for v in range(s0):
                    r = four(t, v, s0, s1, s2)
                    while r:  # (several kept sets only with kept_card="player_chooses", MC-23)
                        if k == 0:
                            return pattern_of((1 << v) | (1 << s0) | (1 << s1) | (1 << s2), 4, r)
                        k -= 1
                        r &= r - 1
    return 0  # not reached: k < combo_count


cdef uint8_t PAIR1[36]   # the q-th pair of slots s0 < s1 (s1 ascending, then s0): s1
cdef uint8_t PAIR0[36]   # ... and s0; the pairs below slot s2 are the first s2(s2-1)/2
for _i in range(1, 9):
    for _j in range(_i):
        PAIR1[(_i * (_i - 1)) // 2 + _j] = <uint8_t>_i
        PAIR0[(_i * (_i - 1)) // 2 + _j] = <uint8_t>_j


cdef inline int combo_kth(const mc_t* s, int p, slots_t* t, int k) noexcept nogil:
    """The pattern index of the k-th (from 0) combination that ``combo_count`` counted (``t``
    as it left it; ``t.cum`` past the hand may hold anything, it is masked). Where only
    three-card subsets combine (every helper but Amélie with 5 cards or more, MC-21, whose
    subsets ``combo_kth_walk`` visits), with few branches: the block of the highest slot s2
    found by counting the blocks wholly below k, then the subsets of the block in pattern
    order (middle slot, then lowest slot, ascending) in one loop over a table of slot pairs."""
    cdef int hn = s.hand_n[p]
    cdef int s0, s1, s2 = 2, j, q, i, pc
    cdef uint8_t c1, c2
    cdef const uint16_t* R
    cdef const uint8_t* C
    if t.amelie or t.bound:  # (MC-18/MC-19 under changed_value="printed_range": in_range3)
        return combo_kth_walk(s, p, t, k)
    for j in range(2, 9):
        s2 += (j < hn) & (t.cum[j] <= k)
    k -= t.cum[s2 - 1]
    if not t.ready:  # (t.helper: set by count_start; the block reads the slots up to s2 only)
        slots_below(s, p, t, s2 + 1)
    R = W3R[t.helper]
    C = W3C[t.helper]
    c2 = t.col[s2]
    for q in range((s2 * (s2 - 1)) >> 1):
        s1 = PAIR1[q]
        s0 = PAIR0[q]
        c1 = t.col[s1]
        i = (t.a1[s1] + t.a2[s2] - t.a0[s0] + ((c1 == c2) << 1)
             + ((t.col[s0] == c1) | ((t.col[s0] == c2) << 2)))
        pc = C[i]
        if k < pc:
            return kth_triple(s0, s1, s2, R[i], k)
        k -= pc
    return 0  # not reached: k < combo_count


cdef inline int put_action(int16_t* out, uint8_t* mask, int cnt, int a) noexcept nogil:
    """Action a as the cnt-th of a listing into ``out``, or marked in ``mask`` when ``out``
    is NULL; returns cnt + 1."""
    if out != NULL:
        out[cnt] = <int16_t>a
    else:
        mask[a] = 1
    return cnt + 1


cdef inline int mc_combos_to(const mc_t* s, int p, int16_t* out, uint8_t* mask) noexcept nogil:
    """The combination actions of seat p's hand (MC-10 .. MC-23), ascending, each
    distinct (cards, kept cards) once, written to ``out`` or, when ``out`` is NULL, marked
    in ``mask``. Returns their number. ``combo_count`` tells how many lie in each block of
    subsets (by highest slot): empty blocks are skipped, and a block is left as soon as its
    last combination is out."""
    cdef int hn = s.hand_n[p]
    cdef int s0, s1, s2, v, b, base, left, cnt = 0
    cdef uint32_t r
    cdef uint8_t c1, c2
    cdef const uint16_t* R
    cdef slots_t t
    if combo_count(s, p, &t) == 0:
        return 0
    if not t.ready:
        combo_slots(s, p, &t)
    R = W3R[t.helper]
    for s2 in range(2, hn):
        left = t.cum[s2] - t.cum[s2 - 1]
        if left == 0:
            continue
        c2 = t.col[s2]
        for s1 in range(1, s2):
            c1 = t.col[s1]
            b = t.a1[s1] + t.a2[s2] + ((c1 == c2) << 1)
            for s0 in range(s1):
                r = R[b - t.a0[s0] + ((t.col[s0] == c1) | ((t.col[s0] == c2) << 2))]
                if r and t.bound:  # MC-18/MC-19 (changed_value="printed_range")
                    r = slots_in_range(s, &t, s0, s1, s2, r)
                if r:
                    base = MC_COMBINE + SUB_BASE[SUB_OF_MASK[(1 << s0) | (1 << s1) | (1 << s2)]]
                    while r:
                        cnt = put_action(out, mask, cnt, base + KREL_RANK[3][ctz32(r)])
                        r &= r - 1
                        left -= 1
                if t.amelie:
                    for v in range(s0):
                        r = four(&t, v, s0, s1, s2)
                        while r:  # (several kept sets only with kept_card="player_chooses", MC-23)
                            cnt = put_action(out, mask, cnt, MC_COMBINE + pattern_of(
                                (1 << v) | (1 << s0) | (1 << s1) | (1 << s2), 4, r))
                            r &= r - 1
                            left -= 1
                if left == 0:
                    break
            if left == 0:
                break
    return cnt


cdef int mc_combos(const mc_t* s, int p, int16_t* out) noexcept nogil:
    """The combination actions of seat p's hand, ascending, into ``out``."""
    return mc_combos_to(s, p, out, NULL)


# ---- the struct's plain values: hands, display, the known flags ---------------------------------
#
# The struct is kept canonical: every slot past a length (hands, pile, helper row) is 0, and
# so is the order outside the pick, combination and discard phases, as ``from_dict`` leaves
# them; so two structs of the same position are equal byte for byte, however they got there.
cdef inline int hcard(const mc_t* s, int p, int j) noexcept nogil:
    """The card in slot j of seat p's hand."""
    return <int>((s.hand[p][j >> 3] >> ((j & 7) << 3)) & 0xFF)


cdef inline int next_card(uint64_t* lo, uint64_t* hi) noexcept nogil:
    """The card of the next slot of a hand read in slot order: ``lo``, ``hi`` start as the
    hand's two words (``s.hand[p][0]``, ``[1]``) and are shifted down by a byte, so a loop
    over the slots keeps the hand in two registers instead of indexing memory per slot."""
    cdef int c = <int>(lo[0] & 0xFF)
    lo[0] = (lo[0] >> 8) | (hi[0] << 56)
    hi[0] >>= 8
    return c


cdef inline int lt_bytes(uint64_t x, int c) noexcept nogil:
    """How many of the 8 bytes of x (each < 128) are below c (0 <= c < 128)."""
    cdef uint64_t H = <uint64_t>0x8080808080808080ULL
    cdef uint64_t lt = ~((x | H) - <uint64_t>c * <uint64_t>0x0101010101010101ULL) & H
    return <int>(((lt >> 7) * <uint64_t>0x0101010101010101ULL) >> 56)


# The byte moves of the hands (two words: slot j is bits 8 (j % 8) of word j / 8) and of the
# display (one word), the low byte first: with t = w >> x, the bytes below bit x are
# w - (t << x), and those from bit x on are t, shifted back into place (the low-bit masks
# built from 1 << x take more instructions).

cdef inline uint64_t bytes_drop(uint64_t w, int x) noexcept nogil:
    """w without its byte at bit x (0 <= x < 64, a multiple of 8): the bytes above move
    down one, a 0 comes in at the top."""
    cdef uint64_t t = w >> x
    return (w - (t << x)) | ((t >> 8) << x)


cdef inline uint64_t bytes_insert(uint64_t w, int x, uint64_t c) noexcept nogil:
    """w with c (a byte) in at bit x (0 <= x < 64, a multiple of 8): the bytes from there
    move up one, the top byte is lost."""
    cdef uint64_t t = w >> x
    return (w - (t << x)) | (((t << 8) | c) << x)


cdef inline int words_take(uint64_t* h, int j) noexcept nogil:
    """The card in slot j of a hand's two words, taken out (the slots above move down one
    byte)."""
    cdef uint64_t lo = h[0]
    cdef uint64_t hi = h[1]
    cdef int c
    if j < 8:
        c = <int>((lo >> (j << 3)) & 0xFF)
        h[0] = bytes_drop(lo, j << 3) | ((hi & 0xFF) << 56)
        h[1] = hi >> 8
    else:
        c = <int>((hi >> ((j - 8) << 3)) & 0xFF)
        h[1] = bytes_drop(hi, (j - 8) << 3)
    return c


cdef inline void words_insert(uint64_t* h, int pos, int c) noexcept nogil:
    """Card c in at slot pos of a hand's two words (the slots from pos move up one byte)."""
    cdef uint64_t lo = h[0]
    cdef uint64_t hi = h[1]
    if pos < 8:
        h[1] = (hi << 8) | (lo >> 56)
        h[0] = bytes_insert(lo, pos << 3, <uint64_t>c)
    else:
        h[1] = bytes_insert(hi, (pos - 8) << 3, <uint64_t>c)


cdef inline int hand_slot(const mc_t* s, int p, int c) noexcept nogil:
    """The number of cards below c in seat p's hand (the slot of c when c is there): the
    16 slot bytes compared at once; the unused ones are 0, below every c > 0."""
    cdef int k = lt_bytes(s.hand[p][0], c) + lt_bytes(s.hand[p][1], c)
    return k - (16 - s.hand_n[p]) if c > 0 else 0


cdef inline bint is_known(const mc_t* s, int c) noexcept nogil:
    return (s.known[c >> 6] >> (c & 63)) & 1


cdef inline void set_known(mc_t* s, int c) noexcept nogil:
    s.known[c >> 6] |= (<uint64_t>1) << (c & 63)


cdef inline void clear_known(mc_t* s, int c) noexcept nogil:
    s.known[c >> 6] &= ~((<uint64_t>1) << (c & 63))


cdef inline void hand_add(mc_t* s, int p, int c) noexcept nogil:
    """Card c into seat p's sorted hand of any size (loading a dict; in play ``hand_put``)."""
    words_insert(s.hand[p], hand_slot(s, p, c), c)
    s.hand_n[p] += 1
    s.loc[c] = <uint8_t>(LOC_HAND + p)


cdef inline int display_rank(const mc_t* s, int c) noexcept nogil:
    """The number of display cards below card c (the unused bytes are 0, below every c > 0)."""
    return lt_bytes(s.dsp, c) - (8 - s.disp_n) if c > 0 else 0


cdef inline void disp_add(mc_t* s, int c) noexcept nogil:
    """Card c into the display (loading a dict)."""
    display_put(s, &s.dsp, &s.disp_n, c, 1)


# ---- the rules, each written once -------------------------------------------------------------
#
# Every rule of play is one inline block below, over the struct's hands, pile, discard pile,
# scores and helpers (``s``) and, for the display, over its sorted bytes and size passed by
# address (``dsp``, ``dn``: the struct's own in the step functions, locals of ``mc_play``).
# ``full`` is a constant at every call: 1 in the step functions (``mc_apply``,
# ``mc_random_step``), which keep the position's description up to date too (``loc``,
# ``known``, ``pool``, the display's bit set ``disp``: what views, observations, legality
# and determinization read, MC-26), 0 in ``mc_play`` (``simulate``, the play-outs), which
# keeps only what decides a later draw; the compiler drops the ``if full:`` lines there.

cdef inline void hand_put(mc_t* s, int p, int hn, int c, bint full) noexcept nogil:
    """Card c into seat p's hand of hn cards, at its rank. In play a card comes only into a
    hand of at most 8 (MC-14 leaves at most 8 after a combination step, a bid takes one,
    hand_size is at most 8, a swap takes one out before it draws: MC-16), so the rank is
    counted in the low word: the cards below c + 1 less the unused bytes (0, below c + 1,
    8 - hn of them)."""
    words_insert(s.hand[p], lt_bytes(s.hand[p][0], c + 1) - (8 - hn), c)
    s.hand_n[p] = <uint8_t>(hn + 1)
    if full:
        s.loc[c] = <uint8_t>(LOC_HAND + p)


cdef inline int hand_take(mc_t* s, int p, int j) noexcept nogil:
    """The card in slot j of seat p's hand, taken out (the slots above move down one byte);
    its location, known flag and pool are the caller's."""
    cdef int c = words_take(s.hand[p], j)
    s.hand_n[p] -= 1
    return c


cdef inline void to_discard(mc_t* s, int c, bint full) noexcept nogil:
    """A card face up on the discard pile (MC-12, MC-14, MC-16); seen by everyone (MC-26)."""
    s.dis[c >> 6] |= (<uint64_t>1) << (c & 63)
    s.discard_n += 1
    if full:
        s.loc[c] = LOC_DISCARD
        clear_known(s, c)
        s.pool[c] = 0


cdef int reshuffle(mc_t* s, bint full) noexcept nogil:
    """MC-6: the empty draw pile is replaced by the discards, in card id order, shuffled by
    the game's generator; with ``full`` they are a new pool of unseen cards (MC-26). Returns
    0 (nothing done) when there are no discards."""
    cdef int c, w
    cdef int32_t pool = 0
    cdef uint64_t bits
    if s.discard_n == 0:
        return 0
    if full:
        for c in range(MC_CARDS):
            if s.pool[c] > pool:
                pool = s.pool[c]
        pool += 1
    for w in range(2):
        bits = s.dis[w]
        while bits:
            c = 64 * w + ctz64(bits)
            bits &= bits - 1
            s.pile[s.pile_n] = <uint8_t>c
            s.pile_n += 1
            if full:
                s.loc[c] = LOC_PILE
                s.pool[c] = pool
    s.dis[0] = 0
    s.dis[1] = 0
    s.discard_n = 0
    rng_shuffle_u8(&s.rng, s.pile, s.pile_n)
    return 1


cdef inline int draw_card(mc_t* s, bint full) noexcept nogil:
    """MC-6: the top card of the draw pile (refilled from the discards when empty), -1 when
    both are empty; the caller places it."""
    cdef int c
    if s.pile_n == 0 and not reshuffle(s, full):
        return -1
    s.pile_n -= 1
    c = s.pile[s.pile_n]
    if full:
        s.pile[s.pile_n] = 0
    return c


cdef inline void display_put(mc_t* s, uint64_t* dsp, uint8_t* dn, int c, bint full) noexcept nogil:
    """Card c face up into the display (MC-5, MC-9) at its rank among the sorted bytes (at
    most 6 before: the cards below c + 1 less the unused bytes, 0, 8 - dn of them)."""
    dsp[0] = bytes_insert(dsp[0], (lt_bytes(dsp[0], c + 1) - (8 - dn[0])) << 3, <uint64_t>c)
    dn[0] += 1
    if full:
        s.disp[c >> 6] |= (<uint64_t>1) << (c & 63)
        s.loc[c] = LOC_DISPLAY
        s.pool[c] = 0


cdef inline int display_take(mc_t* s, uint64_t* dsp, uint8_t* dn, int k, bint full) noexcept nogil:
    """The k-th (from 0) display card in id order, taken out of the display."""
    cdef int c = <int>((dsp[0] >> (8 * k)) & 0xFF)
    dsp[0] = bytes_drop(dsp[0], 8 * k)
    dn[0] -= 1
    if full:
        s.disp[c >> 6] &= ~((<uint64_t>1) << (c & 63))
    return c


cdef uint8_t DECK[MC_CARDS]   # the card ids in order (the unshuffled deck)
for _i in range(MC_CARDS):
    DECK[_i] = <uint8_t>_i


cdef inline void deal_cards(mc_t* s, uint64_t seed, bint full) noexcept nogil:
    """A new game from ``seed`` into ``s`` (its ``cfg`` set). MC-3: the deck shuffled (it is
    the pile, top last), each seat gets hand_size cards from the top round the table, seat 0
    first, then n + 1 go face up; MC-4: the helpers shuffled, seat q gets the q-th, the rest
    is the row. Hands and display are gathered as bit sets and written out in card id order
    (at most 8 cards each). Every field that play reads is set, so a struct that played a
    game deals the same game; with ``full`` the description too, on a struct that is 0
    apart from its ``cfg`` (``mc_deal``)."""
    cdef int n = s.cfg.n
    cdef int i, j, k, q, x, c
    cdef rng_t g = seed
    cdef uint64_t sets[MC_MAX_PLAYERS + 1][2]   # each seat's hand, then the display
    cdef uint64_t b, word
    cdef uint8_t helpers[MC_HELPERS]
    memcpy(s.pile, DECK, MC_CARDS)  # MC-3
    rng_shuffle_u8(&g, s.pile, MC_CARDS)
    memset(sets, 0, sizeof(sets))
    j = MC_CARDS
    for i in range(s.cfg.hand_size):
        for q in range(n):
            j -= 1
            c = s.pile[j]
            sets[q][c >> 6] |= (<uint64_t>1) << (c & 63)
            if full:
                s.loc[c] = <uint8_t>(LOC_HAND + q)
    for i in range(n + 1):
        j -= 1
        c = s.pile[j]
        sets[n][c >> 6] |= (<uint64_t>1) << (c & 63)
        if full:
            s.loc[c] = LOC_DISPLAY
    s.pile_n = <uint8_t>j
    if full:
        memset(s.pile + j, 0, MC_CARDS - j)
        s.disp[0] = sets[n][0]
        s.disp[1] = sets[n][1]
    for q in range(n + 1):
        k = 0
        word = 0
        for x in range(2):
            b = sets[q][x]
            while b:
                word |= (<uint64_t>(64 * x + ctz64(b))) << (k << 3)
                b &= b - 1
                k += 1
        if q < n:
            s.hand[q][0] = word
            s.hand[q][1] = 0
            s.hand_n[q] = <uint8_t>k
            s.score[q] = 0
            s.bid[q] = -1
        else:
            s.dsp = word
            s.disp_n = <uint8_t>k
    for i in range(MC_HELPERS):  # MC-4
        helpers[i] = <uint8_t>i
    rng_shuffle_u8(&g, helpers, MC_HELPERS)
    s.rng = g
    for q in range(n):
        s.helper[q] = helpers[q]
    s.row_n = <uint8_t>(MC_HELPERS - n)
    for i in range(s.row_n):
        s.row[i] = helpers[n + i]
    s.dis[0] = 0
    s.dis[1] = 0
    s.discard_n = 0
    s.round = 1
    s.nactions = 0
    s.phase = PH_BID
    s.turn = 0
    s.picks_left = 0
    s.etienne_used = 0
    s.henri_off = 0
    s.truncated = 0


cdef inline int next_bidder(const mc_t* s) noexcept nogil:
    """MC-27: in the bid phase, the first seat that has not bid yet (seats commit in seat
    order, and the last bid reveals them all, so there is one). Without a branch: the first
    of the six bid bytes (``bid``, then two bytes of ``helper``, read as one word) whose sign
    bit is set; a loop's exit is a coin flip to the branch predictor when ``VectorGame``
    steps env after env, each at its own seat."""
    cdef uint64_t w
    cdef int q = 0
    if MH_BIG_ENDIAN:
        while s.bid[q] >= 0:
            q += 1
        return q
    memcpy(&w, s.bid, 8)
    return ctz64(w & <uint64_t>0x0000808080808080ULL) >> 3


cdef inline void bid_card(mc_t* s, int p, int j, int plain, bint full) noexcept nogil:
    """MC-7: seat p lays the card in slot j face down (it keeps its known flag and pool until
    the reveal); ``plain``: without Henri's +2 (MC-17, henri_bonus="optional")."""
    cdef int c = hand_take(s, p, j)
    s.bid[p] = <int8_t>c
    s.henri_off |= <uint8_t>plain
    if full:
        s.loc[c] = <uint8_t>(LOC_BID + p)


# HELPER_KEY[with_henri][h]: the part of a pick-order key (MC-8, MC-17) that the helper h gives:
# 2 coins (times 16) for Henri unless his holder bid without him, then the helper rank
cdef int16_t HELPER_KEY[2][8]
for _i in range(2):
    for _j in range(8):
        HELPER_KEY[_i][_j] = 32 * (_i and _j == H_HENRI) + MC_HELPERS - _j


cdef inline void pick_order(mc_t* s, uint8_t* order, bint full) noexcept nogil:
    """MC-7: the bids revealed together (MC-26: face up from now on); MC-8, MC-17: the pick
    order into ``order``, larger first: coins (+2 with Henri, unless his holder bid without
    him), then helper rank. The keys differ (helper ranks do): a seat's place is the number
    of larger keys, counted for every key at once: the keys (below 2**9) are the 10-bit
    fields of one word ``w`` (bit 9 of each a guard), so that subtracting a key + 1 from
    every field leaves the guard of exactly the larger ones set."""
    cdef int n = s.cfg.n
    cdef int q, c
    cdef int with_henri = s.henri_off == 0
    cdef uint64_t key[MC_MAX_PLAYERS]
    cdef uint64_t w = 0, t
    cdef uint64_t ones = <uint64_t>0x0004010040100401ULL     # 1 in each of six 10-bit fields
    cdef uint64_t guards = <uint64_t>0x0802008020080200ULL   # bit 9 of each
    for q in range(n):
        c = s.bid[q]
        key[q] = <uint64_t>(16 * s.cfg.coin[c] + HELPER_KEY[with_henri][s.helper[q]])
        w |= key[q] << (10 * q)
        if full:
            clear_known(s, c)
            s.pool[c] = 0
    w |= guards
    for q in range(n):
        t = ((w - (key[q] + 1) * ones) & guards) >> 9  # bit 10 x: key[x] > key[q]
        order[((t * ones) >> 50) & 7] = <uint8_t>q       # (their number, in field 5)
    s.henri_off = 0  # (the order holds it now)


cdef inline int picks_due(int dn) noexcept nogil:
    """MC-9: a seat takes two display cards, fewer when fewer lie there."""
    return 2 if dn >= 2 else dn


cdef inline void pick_card(mc_t* s, uint64_t* dsp, uint8_t* dn, int p, int hn, int k,
                           bint full) noexcept nogil:
    """MC-9: seat p (hn cards) takes the k-th display card (id order) into its hand, seen by
    everyone."""
    cdef int c = display_take(s, dsp, dn, k, full)
    hand_put(s, p, hn, c, full)
    if full:
        set_known(s, c)


cdef inline void bid_to_display(mc_t* s, uint64_t* dsp, uint8_t* dn, int p, bint full) noexcept nogil:
    """MC-9: after its picks seat p's bid card goes into the display, where the seats after
    it may take it (the last one's stays for the next round)."""
    display_put(s, dsp, dn, s.bid[p], full)
    s.bid[p] = -1


cdef inline void combine_order(const mc_t* s, uint8_t* order) noexcept nogil:
    """MC-10: the seats by helper rank, highest first (helper id ascending), into ``order``:
    the helpers differ, so a seat's place is the number of lower ids held."""
    cdef int q, n = s.cfg.n
    cdef uint32_t held = 0
    for q in range(n):
        held |= (<uint32_t>1) << s.helper[q]
    for q in range(n):
        order[mh_pc8[held & (((<uint32_t>1) << s.helper[q]) - 1)]] = <uint8_t>q


cdef inline void lay_combination(mc_t* s, int p, int i, bint full) noexcept nogil:
    """MC-10, MC-12, MC-13: seat p lays pattern i: its kept cards score their printed candy
    value, the others go to the discard pile, all face up (the laid slots are taken from the
    highest down, so the lower ones keep their places)."""
    cdef int j, q, c, kept, k = PAT_K[i]
    cdef int hn = s.hand_n[p]
    for j in range(k - 1, -1, -1):
        q = PAT_SLOT[i][j]
        c = words_take(s.hand[p], q)
        kept = (PAT_KEEP[i] >> q) & 1
        s.score[p] += kept * s.cfg.candy[c]  # MC-13
        s.dis[c >> 6] |= (<uint64_t>(1 - kept)) << (c & 63)
        s.discard_n += 1 - kept
        if full:
            clear_known(s, c)
            s.pool[c] = 0
            s.loc[c] = <uint8_t>(LOC_VP + p if kept else LOC_DISCARD)
    s.hand_n[p] = <uint8_t>(hn - k)


cdef inline bint over_hand_limit(const mc_t* s, int p) noexcept nogil:
    """MC-14: seat p holds more than 8 cards after its combination step (it discards)."""
    return s.hand_n[p] > MC_HAND_LIMIT


cdef inline bint limit_at_pick(const mc_t* s, int p) noexcept nogil:
    """MC-14 (the reading hand_limit="standing"): seat p's pick took its hand above 8 cards,
    so it discards down to 8 at once, before its bid card goes into the display and before
    the next pick (only a second pick can: 8 - 1 bid + 2)."""
    return s.cfg.limit_standing & over_hand_limit(s, p)


cdef inline void discard_from_hand(mc_t* s, int p, int j, bint full) noexcept nogil:
    """MC-14: seat p discards the card in slot j face up."""
    to_discard(s, hand_take(s, p, j), full)


cdef inline bint may_swap(const mc_t* s, int q) noexcept nogil:
    """MC-16: seat q holds Etienne and has not swapped this round (once a round)."""
    return (s.helper[q] == H_ETIENNE) & (s.etienne_used == 0)


cdef inline int swap_seat(const mc_t* s, int q) noexcept nogil:
    """Seat q if it may still swap this round (``may_swap``), else n (no seat). Etienne has
    helper rank 0: when a seat holds him, it is the first of the combination order
    (``combine_order``), so ``swap_seat(s, order[0])`` is the round's."""
    return q if may_swap(s, q) else s.cfg.n


cdef inline int swap_in(uint32_t at, int e, int ph, int n) noexcept nogil:
    """MC-16 (the reading etienne_swap: ``at`` is ``cfg.etienne_at``): ``e`` (``swap_seat``)
    if a swap is allowed in phase ph, else n (no seat)."""
    return e if (at >> ph) & 1 else n


cdef inline int swapper(const mc_t* s, int p, int ph) noexcept nogil:
    """The seat among p and no one (n) that may swap in phase ph now (MC-16): the step
    functions ask only for the seat to move."""
    return swap_in(s.cfg.etienne_at, swap_seat(s, p), ph, s.cfg.n)


cdef inline void etienne_swap(mc_t* s, int p, int j, bint full) noexcept nogil:
    """MC-16: Etienne's holder discards the card in slot j face up and draws the top card
    (MC-6: the discards hold a card, so one comes); once a round."""
    cdef int hn = s.hand_n[p]
    to_discard(s, words_take(s.hand[p], j), full)
    hand_put(s, p, hn - 1, draw_card(s, full), full)
    s.etienne_used = 1


cdef inline int discards_due(const mc_t* s, int p, int sw) noexcept nogil:
    """MC-16 (the reading etienne_draw="optional"): the number of seat p's discards without a
    draw, given its number of swaps ``sw`` now (0 or its hand size): as many, while it holds
    two cards or more, outside the hand-limit discards (whose callers do not ask)."""
    return sw & -(s.cfg.etienne_nodraw & (s.hand_n[p] >= 2))


cdef inline void etienne_act(mc_t* s, int p, int j, int dr, bint full) noexcept nogil:
    """MC-16: Etienne's holder's j-th option: a discard of slot j without a draw (j < dr, the
    reading etienne_draw="optional"), or the swap of slot j - dr; once a round."""
    if j < dr:
        discard_from_hand(s, p, j, full)
        s.etienne_used = 1
    else:
        etienne_swap(s, p, j - dr, full)


cdef inline bint game_ends(mc_t* s) noexcept nogil:
    """MC-24: after the combination steps of a round, the game ends when a seat has
    ``target`` points or more; else it is cut (``truncated``) after round ``max_turns``."""
    cdef int q, best = 0
    for q in range(s.cfg.n):
        best = s.score[q] if s.score[q] > best else best
    if best >= s.cfg.target:
        return 1
    if s.round >= s.cfg.max_turns:
        s.truncated = 1
        return 1
    return 0


cdef inline void next_round(mc_t* s, uint64_t* dsp, uint8_t* dn, bint full) noexcept nogil:
    """MC-15: the helpers passed; a new round (Etienne may swap again, MC-16); MC-5, MC-6:
    n cards from the pile into the display, one at a time (fewer when both piles run out)."""
    cdef int i, c
    rotate_helpers(s)
    s.round += 1
    s.etienne_used = 0
    for i in range(s.cfg.n):
        c = draw_card(s, full)
        if c < 0:
            break
        display_put(s, dsp, dn, c, full)


# ---- simulate's action model: one random action, from the blocks above -----------------------
#
# A random action is the legal action at a uniform index (``rng_below`` of their number) of
# the ascending legal list (as ``mc_legal`` lists it), found without listing it. ``e`` is the
# seat that may swap now (``swapper``). Each returns 1 when the action was Etienne's swap
# (MC-16: the same seat acts again), else 0. The choice an index makes is computed without a
# branch where it is a coin flip to the branch predictor.

cdef inline bint random_bid(mc_t* s, rng_t* pol, int p, int e, bint full) noexcept nogil:
    """Seat p's bid (MC-7): its cards, then its discards without a draw and its swaps
    (MC-16), then, for Henri's holder with henri_bonus="optional", its bids without Henri
    (MC-17)."""
    cdef int hn = s.hand_n[p]
    cdef int sw = hn & -(p == e)
    cdef int dr = discards_due(s, p, sw)
    cdef int pl = hn & -(s.cfg.henri_optional & (s.helper[p] == H_HENRI))
    cdef int k = <int>rng_below(pol, <uint32_t>(hn + dr + sw + pl))
    cdef int x
    if k >= hn and k < hn + dr + sw:
        etienne_act(s, p, k - hn, dr, full)
        return 1
    x = k >= hn + dr + sw  # a bid without Henri (MC-17)
    bid_card(s, p, k - ((hn + dr + sw) & -x), x, full)
    return 0


cdef inline bint random_pick(mc_t* s, rng_t* pol, uint64_t* dsp, uint8_t* dn, int p, int e,
                             bint full) noexcept nogil:
    """Seat p's pick (MC-9): the display cards, then its discards without a draw and its
    swaps (MC-16)."""
    cdef int hn = s.hand_n[p]
    cdef int sw = hn & -(p == e)
    cdef int dr = discards_due(s, p, sw)
    cdef int k = <int>rng_below(pol, <uint32_t>(dn[0] + dr + sw))
    if k < dn[0]:
        pick_card(s, dsp, dn, p, hn, k, full)
        return 0
    etienne_act(s, p, k - dn[0], dr, full)
    return 1


cdef inline bint random_combination(mc_t* s, rng_t* pol, int p, int e, slots_t* t,
                                    bint full) noexcept nogil:
    """Seat p's combination step (MC-10): its discards without a draw and its swaps (MC-16),
    the decline, then the combinations (counted, and only the chosen one decoded)."""
    cdef int sw = s.hand_n[p] & -(p == e)
    cdef int dr = discards_due(s, p, sw)
    cdef int k = <int>rng_below(pol, <uint32_t>(dr + sw + 1 + combo_count(s, p, t)))
    if k < dr + sw:
        etienne_act(s, p, k, dr, full)
        return 1
    if k > dr + sw:  # (the decline: k == dr + sw)
        lay_combination(s, p, combo_kth(s, p, t, k - dr - sw - 1), full)
    return 0


cdef inline bint random_discard(mc_t* s, rng_t* pol, int p, int e, bint full) noexcept nogil:
    """Seat p's hand-limit discard (MC-14): its cards, then its swaps (MC-16, with
    etienne_swap="also_hand_limit")."""
    cdef int hn = s.hand_n[p]
    cdef int sw = hn & -(p == e)
    cdef int k = <int>rng_below(pol, <uint32_t>(hn + sw))
    if k < hn:
        discard_from_hand(s, p, k, full)
        return 0
    etienne_swap(s, p, k - hn, full)
    return 1


# ---- the step functions: a given action (mc_apply) or a random one (mc_random_step) ------------
#
# The blocks with ``full`` set, and between actions the phase machine: whose turn it is and
# what comes after an action (the same order as mc_play's round).

cdef inline int mc_current "core_current"(const mc_t* s) noexcept nogil:
    """The seat to move (MC-27: in the bid phase the next seat to commit), or TERMINAL_SEAT."""
    if s.phase == PH_OVER:
        return TERMINAL_SEAT
    if s.phase == PH_BID:
        return next_bidder(s)
    return s.order[s.turn]


cdef inline bint swap_ok(const mc_t* s, int p) noexcept nogil:
    """MC-16: seat p may swap now (``swapper`` of the phase)."""
    return swapper(s, p, s.phase) == p


cdef inline bint nodraw_ok(const mc_t* s, int p) noexcept nogil:
    """MC-16 (etienne_draw="optional"): seat p, which may swap now, may also discard without a
    draw (``discards_due``: not among the hand-limit discards)."""
    return s.phase != PH_DISCARD and discards_due(s, p, 1) != 0


cdef void start_pick_turn(mc_t* s) noexcept nogil:
    """The picks of seat ``order[turn]`` (MC-9); a seat with nothing to take puts its bid
    card straight in; after the last seat, the combination steps (MC-10)."""
    while s.turn < s.cfg.n:
        s.picks_left = <uint8_t>picks_due(s.disp_n)
        if s.picks_left:
            return
        bid_to_display(s, &s.dsp, &s.disp_n, s.order[s.turn], 1)
        s.turn += 1
    s.picks_left = 0
    s.phase = PH_COMBINE
    combine_order(s, s.order)
    s.turn = 0


# The phase machine after an action of seat p (not Etienne's swap, after which p acts again,
# MC-16). Each returns the seat to move next (``mc_current``'s answer), read off where the
# rule decides it: ``mc_random_step`` returns it without asking ``mc_current`` again, and
# ``mc_apply`` ignores it (the compiler drops what only the answer needs).

cdef inline int after_bid(mc_t* s, int p) noexcept nogil:
    if p == s.cfg.n - 1:  # MC-27: seats commit in order, so the last bid is in
        pick_order(s, s.order, 1)
        s.phase = PH_PICK
        s.turn = 0
        start_pick_turn(s)
        return mc_current(s)
    return next_bidder(s)


cdef inline void end_pick_turn(mc_t* s, int p) noexcept nogil:
    """MC-9: seat p's picks are over: its bid card goes into the display, the next seat picks."""
    bid_to_display(s, &s.dsp, &s.disp_n, p, 1)
    s.turn += 1
    start_pick_turn(s)


cdef inline int after_pick(mc_t* s, int p) noexcept nogil:
    s.picks_left -= 1
    if limit_at_pick(s, p):  # MC-14 (hand_limit="standing")
        s.phase = PH_DISCARD
    elif s.picks_left == 0:
        end_pick_turn(s, p)
        return mc_current(s)
    return p


cdef noinline_void next_combiner(mc_t* s) noexcept nogil:
    """The next seat's combination step (MC-10); after the last, the end (MC-24) or the next
    round (MC-15, MC-5)."""
    s.phase = PH_COMBINE
    s.turn += 1
    if s.turn < s.cfg.n:
        return
    s.turn = 0
    memset(s.order, 0, sizeof(s.order))  # as from_dict leaves it in the bid phase and at the end
    if game_ends(s):
        s.phase = PH_OVER
        return
    next_round(s, &s.dsp, &s.disp_n, 1)
    s.phase = PH_BID


cdef inline int after_combination(mc_t* s, int p) noexcept nogil:
    if over_hand_limit(s, p):  # MC-14
        s.phase = PH_DISCARD
        return p
    next_combiner(s)
    return mc_current(s)


cdef inline int after_discard(mc_t* s, int p) noexcept nogil:
    """MC-14: once seat p holds 8 cards, the next seat's combination step or, with
    hand_limit="standing" (whose discards follow a pick), the picks go on."""
    if over_hand_limit(s, p):
        return p
    if not s.cfg.limit_standing:
        next_combiner(s)
        return mc_current(s)
    s.phase = PH_PICK
    if s.picks_left == 0:
        end_pick_turn(s, p)
        return mc_current(s)
    return p


cdef void mc_apply "core_apply"(mc_t* s, int a) noexcept nogil:
    """Apply a legal action."""
    cdef int p = mc_current(s)
    s.nactions += 1
    if a < MC_PICK:  # MC-7
        bid_card(s, p, hand_slot(s, p, a - MC_BID), 0, 1)
        after_bid(s, p)
    elif a < MC_DISCARD:  # MC-9
        pick_card(s, &s.dsp, &s.disp_n, p, s.hand_n[p], display_rank(s, a - MC_PICK), 1)
        after_pick(s, p)
    elif a < MC_SWAP:  # MC-14; outside the discard phase MC-16's discard without a draw
        discard_from_hand(s, p, hand_slot(s, p, a - MC_DISCARD), 1)
        if s.phase == PH_DISCARD:
            after_discard(s, p)
        else:
            s.etienne_used = 1
    elif a < MC_DECLINE:  # MC-16
        etienne_swap(s, p, hand_slot(s, p, a - MC_SWAP), 1)
    elif a == MC_DECLINE:  # MC-10
        after_combination(s, p)
    elif a < MC_BID_PLAIN:  # MC-10, MC-12
        lay_combination(s, p, a - MC_COMBINE, 1)
        after_combination(s, p)
    else:  # MC-17: a bid without Henri
        bid_card(s, p, hand_slot(s, p, a - MC_BID_PLAIN), 1, 1)
        after_bid(s, p)


cdef step_int combination_step(mc_t* s, rng_t* policy, int p) noexcept nogil:
    """mc_random_step at seat p's combination step (apart: its scratch ``t`` is large); the
    seat to move after it."""
    cdef slots_t t
    memset(t.cum, 0, sizeof(t.cum))  # (combo_kth reads past the hand, masked)
    if random_combination(s, policy, p, swapper(s, p, PH_COMBINE), &t, 1):
        return p
    return after_combination(s, p)


cdef inline int mc_random_step(mc_t* s, rng_t* policy) noexcept nogil:
    """One action of simulate's policy (the random blocks above, as ``mc_play`` draws it);
    returns the seat to move after it."""
    cdef int p, ph = s.phase
    s.nactions += 1
    if ph == PH_BID:
        p = next_bidder(s)
        if random_bid(s, policy, p, swapper(s, p, PH_BID), 1):
            return p  # (Etienne's swap: the same seat again, MC-16)
        return after_bid(s, p)
    p = s.order[s.turn]
    if ph == PH_PICK:
        if random_pick(s, policy, &s.dsp, &s.disp_n, p, swapper(s, p, PH_PICK), 1):
            return p
        return after_pick(s, p)
    if ph == PH_COMBINE:
        return combination_step(s, policy, p)
    if random_discard(s, policy, p, swapper(s, p, PH_DISCARD), 1):  # MC-14
        return p
    return after_discard(s, p)


cdef inline void rotate_helpers(mc_t* s) noexcept nogil:
    """MC-15, at the end of a round: seat 0's helper goes to the right end of the row, seat 1
    takes the row's leftmost, every other seat the helper of the seat before it."""
    cdef int i, q, n = s.cfg.n
    cdef uint8_t old[MC_MAX_PLAYERS]
    memcpy(old, s.helper, sizeof(old))
    s.helper[1] = s.row[0]
    for i in range(s.row_n - 1):
        s.row[i] = s.row[i + 1]
    s.row[s.row_n - 1] = old[0]
    for q in range(2, n):
        s.helper[q] = old[q - 1]
    s.helper[0] = old[n - 1]


cdef flatten_int g_random_step(void* v, rng_t* policy) noexcept nogil:
    """``mc_random_step`` (its one out-of-line copy: the interface's and mc_play's)."""
    return mc_random_step(<mc_t*>v, policy)


# ---- simulate's loop: the play to the end, from the blocks above --------------------------------

cdef inline void seat_discards(mc_t* s, rng_t* pol, int p, int* ets, int* e, int ph,
                               int32_t* nact) noexcept nogil:
    """mc_play: seat p's hand-limit discards down to 8 cards (MC-14), Etienne's swaps among
    them (MC-16, as etienne_swap allows; ``ets`` is ``swap_seat``); ``e`` stays the seat that
    may swap in phase ``ph``, the one the discards interrupt (the combination step, or the
    picks with hand_limit="standing")."""
    cdef int ed = swap_in(s.cfg.etienne_at, ets[0], PH_DISCARD, s.cfg.n)
    while True:
        if random_discard(s, pol, p, ed, 0):
            ets[0] = swap_seat(s, p)
            ed = swap_in(s.cfg.etienne_at, ets[0], PH_DISCARD, s.cfg.n)
            e[0] = swap_in(s.cfg.etienne_at, ets[0], ph, s.cfg.n)
        nact[0] += 1
        if not over_hand_limit(s, p):
            break


cdef inline void seat_picks(mc_t* s, rng_t* pol, uint64_t* dsp, uint8_t* dn, int p, int* ets,
                            int* e, int32_t* nact, bint standing) noexcept nogil:
    """mc_play: seat p's picks (MC-9; Etienne's swaps among them, MC-16: ``ets`` is
    ``swap_seat``, ``e`` the seat that may swap now), with hand_limit="standing" (``standing``,
    mc_play's copy of ``cfg.limit_standing``) its discards down to 8 (MC-14: a round starts
    with at most 8 cards and the bid takes one, so only the second pick can bring a 9th),
    then its bid card into the display."""
    cdef int i
    for i in range(2):  # (picks_due: the display only shrinks, so a second pick iff a card is left)
        if dn[0] == 0:
            break
        while random_pick(s, pol, dsp, dn, p, e[0], 0):
            nact[0] += 1
            ets[0] = swap_seat(s, p)
            e[0] = swap_in(s.cfg.etienne_at, ets[0], PH_PICK, s.cfg.n)
        nact[0] += 1
    if standing and over_hand_limit(s, p):  # MC-14 (hand_limit="standing": limit_at_pick)
        seat_discards(s, pol, p, ets, e, PH_PICK, nact)
    bid_to_display(s, dsp, dn, p, 0)


cdef inline void seat_combination(mc_t* s, rng_t* pol, int p, int* ets, int* e, slots_t* t,
                                  int32_t* nact) noexcept nogil:
    """mc_play: seat p's combination step (MC-10), then its hand-limit discards (MC-14);
    Etienne's swaps among them (MC-16; ``e``: the seat that may swap at the combination step)."""
    while random_combination(s, pol, p, e[0], t, 0):
        nact[0] += 1
        ets[0] = swap_seat(s, p)
        e[0] = swap_in(s.cfg.etienne_at, ets[0], PH_COMBINE, s.cfg.n)
    nact[0] += 1
    if over_hand_limit(s, p):
        seat_discards(s, pol, p, ets, e, PH_COMBINE, nact)


cdef void mc_play(mc_t* s, rng_t* policy) noexcept nogil:
    """Play from the position in ``s`` to the end by simulate's action model: the game that
    ``mc_random_step`` again and again would play, draw for draw. The rest of the round the
    position is in is played by ``mc_random_step``; then each round is written out in order
    (bids, reveal, picks, combination steps each with its hand-limit discards, the end, the
    rotation and the refill) instead of one dispatch on the phase per action. The blocks run
    without ``full`` there: only what decides a later draw is kept (the hands, the display's
    bytes, the pile, the discard set, the scores, the helpers), not the position's
    description (``loc``, ``known``, ``pool``, ``disp``), so the struct is scratch afterwards
    apart from what the end reads (``phase``, ``score``, ``helper``, ``round``, ``nactions``,
    ``truncated``). The display, the policy's generator, the action count, the order and the
    seats that may swap are locals whose addresses go only to the inline blocks, so that the
    compiler keeps them in registers."""
    cdef int n = s.cfg.n
    cdef uint32_t eat = s.cfg.etienne_at
    cdef bint standing = s.cfg.limit_standing  # MC-14 (hand_limit)
    cdef int p, i
    cdef uint64_t dsp
    cdef uint8_t dn
    cdef int32_t nact
    cdef rng_t pol
    cdef uint8_t order[MC_MAX_PLAYERS]    # the pick order (MC-8)
    cdef uint8_t corder[MC_MAX_PLAYERS]   # the combination order (MC-10)
    cdef int ets                      # swap_seat (MC-16)
    cdef int e                        # the seat that may swap in the phase (swap_in)
    cdef slots_t t
    while s.phase != PH_OVER and (s.phase != PH_BID or s.bid[0] >= 0):  # (the round's rest)
        g_random_step(s, policy)
    if s.phase == PH_OVER:
        return
    dsp = s.dsp
    dn = s.disp_n
    nact = s.nactions
    pol = policy[0]
    memset(t.cum, 0, sizeof(t.cum))  # (combo_kth reads t.cum past the hand, masked)
    while True:
        combine_order(s, corder)  # MC-10 (the helpers are the round's)
        ets = swap_seat(s, corder[0])
        e = swap_in(eat, ets, PH_BID, n)
        for p in range(n):  # MC-7, MC-27: the bids, seat 0 first
            while random_bid(s, &pol, p, e, 0):
                nact += 1
                ets = swap_seat(s, p)
                e = swap_in(s.cfg.etienne_at, ets, PH_BID, s.cfg.n)
            nact += 1
        pick_order(s, order, 0)  # MC-8
        e = swap_in(eat, ets, PH_PICK, n)
        for i in range(n):  # MC-9
            seat_picks(s, &pol, &dsp, &dn, order[i], &ets, &e, &nact, standing)
        e = swap_in(eat, ets, PH_COMBINE, n)
        for i in range(n):
            seat_combination(s, &pol, corder[i], &ets, &e, &t, &nact)
        if game_ends(s):  # MC-24, max_turns
            break
        next_round(s, &dsp, &dn, 0)  # MC-15, MC-5
    s.phase = PH_OVER
    s.nactions = nact
    policy[0] = pol


cdef int32_t mc_sim_game(mc_t* s, uint64_t deal, rng_t* policy) noexcept nogil:
    """One game of ``simulate`` in ``s`` (its ``cfg`` set): the deal of ``deal`` (MC-3,
    MC-4: ``mc_deal``'s game), then ``mc_play`` (the game of mc_deal and mc_rollout, bit for
    bit). Returns the number of actions."""
    deal_cards(s, deal, 0)
    mc_play(s, policy)
    return s.nactions


cdef void sim_range(const void* v, uint64_t seed, Py_ssize_t start, Py_ssize_t stop,
                    const sim_out_t* out) noexcept nogil:
    """``simulate``'s games ``start .. stop - 1`` (``run_sim_chunk``), each by ``mc_sim_game``."""
    cdef const mc_cfg_t* cfg = <const mc_cfg_t*>v
    cdef mc_t s
    cdef rng_t policy
    cdef Py_ssize_t i
    memset(&s, 0, sizeof(s))
    s.cfg = cfg[0]
    for i in range(start, stop):
        policy = rng_derive(seed, 2 * <uint64_t>i + 1)
        mc_sim_game(&s, rng_derive(seed, 2 * <uint64_t>i), &policy)
        mc_scores(&s, out.scores + (i - start) * out.sstride)
        sim_row(out, i - start, cfg.n, <const int64_t*>NULL, mc_winner_mask(&s), s.nactions,
                <uint8_t>s.truncated)


cdef int mc_legal(const mc_t* s, int16_t* out) noexcept nogil:
    """The legal actions, ascending. Returns their number."""
    cdef int p = mc_current(s)
    cdef int n = 0, j, w
    cdef uint64_t bits
    if p == TERMINAL_SEAT:
        return 0
    if s.phase == PH_BID:
        for j in range(s.hand_n[p]):
            out[n] = <int16_t>(MC_BID + hcard(s, p, j))
            n += 1
    elif s.phase == PH_PICK:
        for w in range(2):
            bits = s.disp[w]
            while bits:
                out[n] = <int16_t>(MC_PICK + 64 * w + ctz64(bits))
                n += 1
                bits &= bits - 1
    elif s.phase == PH_DISCARD:
        for j in range(s.hand_n[p]):
            out[n] = <int16_t>(MC_DISCARD + hcard(s, p, j))
            n += 1
    if swap_ok(s, p):  # MC-16: in the phases of the reading etienne_swap
        if nodraw_ok(s, p):  # (etienne_draw="optional": first the discards without a draw)
            for j in range(s.hand_n[p]):
                out[n] = <int16_t>(MC_DISCARD + hcard(s, p, j))
                n += 1
        for j in range(s.hand_n[p]):
            out[n] = <int16_t>(MC_SWAP + hcard(s, p, j))
            n += 1
    if s.phase == PH_COMBINE:
        out[n] = MC_DECLINE
        n += 1
        n += mc_combos(s, p, out + n)
    elif s.phase == PH_BID and s.cfg.henri_optional and s.helper[p] == H_HENRI:  # MC-17
        for j in range(s.hand_n[p]):
            out[n] = <int16_t>(MC_BID_PLAIN + hcard(s, p, j))
            n += 1
    return n


cdef bint mc_is_legal(const mc_t* s, int a) noexcept nogil:
    """Whether action a (0 <= a < num_actions(cfg)) is one of ``mc_legal``'s, without listing
    them: a card action looks at the card's location; a combination looks up its one subset
    in the shape tables (MC-10 .. MC-23)."""
    cdef int p = mc_current(s)
    cdef int i, k, hn, c0, c1, c2_, c3, h
    cdef uint32_t r, d1, d2, d3
    if p == TERMINAL_SEAT:
        return 0
    if a >= MC_BID_PLAIN:  # MC-17: a bid without Henri, by his holder (henri_bonus="optional")
        return (s.phase == PH_BID and s.cfg.henri_optional and s.helper[p] == H_HENRI
                and s.loc[a - MC_BID_PLAIN] == LOC_HAND + p)
    if a >= MC_SWAP and a < MC_DECLINE:  # MC-16: in the phases of the reading etienne_swap
        return swap_ok(s, p) and s.loc[a - MC_SWAP] == LOC_HAND + p
    if a >= MC_DISCARD and a < MC_SWAP and s.phase != PH_DISCARD:  # MC-16 (etienne_draw="optional")
        return swap_ok(s, p) and nodraw_ok(s, p) and s.loc[a - MC_DISCARD] == LOC_HAND + p
    if s.phase == PH_BID:  # MC-7
        return a < MC_PICK and s.loc[a - MC_BID] == LOC_HAND + p
    if s.phase == PH_PICK:  # MC-9
        return MC_PICK <= a < MC_DISCARD and s.loc[a - MC_PICK] == LOC_DISPLAY
    if s.phase == PH_DISCARD:  # MC-14
        return MC_DISCARD <= a < MC_SWAP and s.loc[a - MC_DISCARD] == LOC_HAND + p
    if a == MC_DECLINE:  # MC-10
        return 1
    if a < MC_COMBINE:
        return 0
    i = a - MC_COMBINE
    k = PAT_K[i]
    hn = s.hand_n[p]
    h = s.helper[p]
    if hn < 4 or PAT_SLOT[i][k - 1] >= hn:  # MC-11: one card must stay
        return 0
    c0 = hcard(s, p, PAT_SLOT[i][0])
    c1 = hcard(s, p, PAT_SLOT[i][1])
    c2_ = hcard(s, p, PAT_SLOT[i][2])
    if k == 3:  # (the table bank of the reading kept_card, MC-23: rows h + 7 for player_chooses)
        r = W3R[h + 7 * s.cfg.kept_choice][W_OFF + 184 * s.cfg.candy[c1] + 8 * s.cfg.candy[c2_]
                                          - 192 * s.cfg.candy[c0]
                   + ((s.cfg.colour[c0] == s.cfg.colour[c1])
                      | ((s.cfg.colour[c1] == s.cfg.colour[c2_]) << 1)
                      | ((s.cfg.colour[c0] == s.cfg.colour[c2_]) << 2))]
        if r and change_bounded(s, h):  # MC-18/MC-19 (changed_value="printed_range")
            r = in_range3(&s.cfg, h, s.cfg.candy[c0], s.cfg.candy[c1], s.cfg.candy[c2_],
                          s.cfg.colour[c0], s.cfg.colour[c1], s.cfg.colour[c2_], r)
    else:
        if h != H_AMELIE or hn < 5:  # MC-21
            return 0
        c3 = hcard(s, p, PAT_SLOT[i][3])
        d1 = <uint32_t>(s.cfg.candy[c1] - s.cfg.candy[c0] + 3)
        d2 = <uint32_t>(s.cfg.candy[c2_] - s.cfg.candy[c0] + 3)
        d3 = <uint32_t>(s.cfg.candy[c3] - s.cfg.candy[c0] + 3)
        if d1 >= 7 or d2 >= 7 or d3 >= 7:
            return 0
        r = T4[s.cfg.kept_choice][((d1 * 7 + d2) * 7 + d3) * 2
                                  + (s.cfg.colour[c0] == s.cfg.colour[c1] and s.cfg.colour[c1] == s.cfg.colour[c2_]
                                     and s.cfg.colour[c2_] == s.cfg.colour[c3])]
    return (r >> PAT_KREL[i]) & 1


cdef void mc_scores "core_scores"(const mc_t* s, int64_t* out) noexcept nogil:
    """MC-13: each seat's victory points (the printed candy values of its victory cards)."""
    cdef int q
    for q in range(s.cfg.n):
        out[q] = s.score[q]


cdef inline int tie_helper(const mc_t* s, int q) noexcept nogil:
    """MC-25: the helper whose rank breaks seat ``q``'s tie: the one it holds, or with
    tie_break_moment="after_passing" the one MC-15's pass would give it (seat 0: seat n-1's,
    seat 1: the row's leftmost, seat q: seat q-1's; see rotate_helpers)."""
    if not s.cfg.tie_after_pass:
        return s.helper[q]
    if q == 0:
        return s.helper[s.cfg.n - 1]
    return s.row[0] if q == 1 else s.helper[q - 1]


cdef int mc_winner_mask "core_winner_mask"(const mc_t* s) noexcept nogil:
    """MC-25: the winner (bit q for seat q): most points; ties: the higher helper rank (of the
    helpers of the reading tie_break_moment: tie_helper)."""
    cdef int q, best = 0
    for q in range(1, s.cfg.n):
        if s.score[q] > s.score[best] or (s.score[q] == s.score[best] and tie_helper(s, q) < tie_helper(s, best)):
            best = q
    return 1 << best


cdef void mc_returns "core_returns"(const mc_t* s, double* out) noexcept nogil:
    """``StateAPI.returns``: +1 for the winners (MC-25), -1 for the others at the end; 0 for
    every seat before the end (or if every seat won)."""
    cdef int q, n = s.cfg.n
    cdef int w = mc_winner_mask(s) if s.phase == PH_OVER else (1 << n) - 1
    for q in range(n):
        out[q] = 0.0 if w == (1 << n) - 1 else (1.0 if (w >> q) & 1 else -1.0)


cdef int mc_legal_mask(const mc_t* s, uint8_t* mask) noexcept nogil:
    """Mark the legal actions in ``mask`` (``num_actions`` bytes, zero-filled by the caller):
    the same actions as mc_legal, written in place. Returns their number."""
    cdef int p = mc_current(s)
    cdef int n = 0, j, w
    cdef uint64_t bits
    if p == TERMINAL_SEAT:
        return 0
    if s.phase == PH_BID:  # MC-7
        for j in range(s.hand_n[p]):
            mask[MC_BID + hcard(s, p, j)] = 1
        n = s.hand_n[p]
    elif s.phase == PH_PICK:  # MC-9
        for w in range(2):
            bits = s.disp[w]
            while bits:
                mask[MC_PICK + 64 * w + ctz64(bits)] = 1
                n += 1
                bits &= bits - 1
    elif s.phase == PH_DISCARD:  # MC-14
        for j in range(s.hand_n[p]):
            mask[MC_DISCARD + hcard(s, p, j)] = 1
        n = s.hand_n[p]
    if swap_ok(s, p):  # MC-16: in the phases of the reading etienne_swap
        for j in range(s.hand_n[p]):
            mask[MC_SWAP + hcard(s, p, j)] = 1
        n += s.hand_n[p]
        if nodraw_ok(s, p):  # (etienne_draw="optional": the discards without a draw)
            for j in range(s.hand_n[p]):
                mask[MC_DISCARD + hcard(s, p, j)] = 1
            n += s.hand_n[p]
    if s.phase == PH_COMBINE:  # MC-10 .. MC-12
        mask[MC_DECLINE] = 1
        n += 1 + mc_combos_to(s, p, NULL, mask)
    elif s.phase == PH_BID and s.cfg.henri_optional and s.helper[p] == H_HENRI:  # MC-17
        for j in range(s.hand_n[p]):
            mask[MC_BID_PLAIN + hcard(s, p, j)] = 1
        n += s.hand_n[p]
    return n


cdef inline int num_actions(const mc_cfg_t* cfg) noexcept nogil:
    """``game.num_actions``: 2085, and 80 more bids without Henri with henri_bonus="optional"."""
    return MC_NUM_ACTIONS + MC_CARDS * cfg.henri_optional


cdef inline int obs_size(const mc_cfg_t* cfg) noexcept nogil:
    """Floats in one observation (``MausAuChocolat.observation_shape[0]``)."""
    return MC_CARDS * (4 + 3 * cfg.n) + 12 * cfg.n + 58


cdef void mc_observe(const mc_t* s, int p, float* obs) noexcept nogil:
    """Seat p's observation into ``obs`` (``obs_size`` floats, zero-filled by the caller),
    in the layout of ``MausAuChocolat._observation`` (docs: Observation). Every fraction is
    the reference's double quotient rounded once to float32, so the values are bit-identical.
    Hidden information (MC-26): other seats' hands appear only as sizes and known cards,
    their bids only once revealed (MC-7)."""
    cdef int n = s.cfg.n
    cdef int c, j, k, q, lc, cur, b, vp
    cdef Py_ssize_t i
    # card planes: 0 own hand, 1 display, 2 discard pile, 3 own bid; for relative seat k:
    # 4 + 3k its revealed bid, 5 + 3k its victory cards, 6 + 3k its known cards
    for j in range(s.hand_n[p]):
        obs[hcard(s, p, j)] = 1.0
    set_ones(obs + MC_CARDS, s.disp[0])  # the display (its bit set, kept with ``loc``)
    set_ones(obs + MC_CARDS + 64, s.disp[1])
    set_ones(obs + 2 * MC_CARDS, s.dis[0])  # the discard pile
    set_ones(obs + 2 * MC_CARDS + 64, s.dis[1])
    for c in range(MC_CARDS):  # MC-13: victory cards are face up
        # no branch on where a card lies (the cards' places are what a branch would
        # mispredict): a card that is not a victory card adds 0 to plane 5 (seat k = 0's
        # victory cards), which leaves that plane's value as it is
        lc = s.loc[c]
        vp = lc >= LOC_VP
        k = rel_seat(lc - LOC_VP, p, n) if vp else 0
        obs[(5 + 3 * k) * MC_CARDS + c] += <float>vp
    if s.bid[p] >= 0:
        obs[3 * MC_CARDS + s.bid[p]] = 1.0
    for k in range(n):
        q = p + k if p + k < n else p + k - n
        b = s.bid[q]
        if b >= 0:
            if s.phase != PH_BID:  # MC-7: revealed together
                obs[(4 + 3 * k) * MC_CARDS + b] = 1.0
            elif is_known(s, b):  # a known card bid face down stays known until the reveal
                obs[(6 + 3 * k) * MC_CARDS + b] = 1.0
        for j in range(s.hand_n[q]):  # cards everyone saw taken (MC-9)
            c = hcard(s, q, j)
            if is_known(s, c):
                obs[(6 + 3 * k) * MC_CARDS + c] = 1.0
    # per relative seat: hand size / 8 (MC-14), score / target (MC-13, MC-24), has a bid,
    # is to move, helper one-hot (MC-4)
    i = MC_CARDS * (4 + 3 * n)
    cur = mc_current(s)
    for k in range(n):
        q = p + k if p + k < n else p + k - n
        obs[i + k] = <float>(<double>s.hand_n[q] / <double>MC_HAND_LIMIT)
        obs[i + n + k] = <float>(<double>s.score[q] / <double>s.cfg.target)
        if s.bid[q] >= 0:
            obs[i + 2 * n + k] = 1.0
        if cur == q:
            obs[i + 3 * n + k] = 1.0
        obs[i + 4 * n + 7 * k + s.helper[q]] = 1.0
    i += 11 * n
    for j in range(s.row_n):  # the helper row (MC-15), 7 slots
        obs[i + 7 * j + s.row[j]] = 1.0
    i += 49
    obs[i] = <float>(<double>s.pile_n / <double>MC_CARDS)
    obs[i + 1 + s.phase] = 1.0
    i += 6
    if s.phase == PH_PICK or s.phase == PH_COMBINE or s.phase == PH_DISCARD:
        for k in range(n):  # place in the pick (MC-8) or combination (MC-10) order / n
            q = p + k if p + k < n else p + k - n
            for j in range(n):
                if s.order[j] == q:
                    obs[i + k] = <float>(<double>(j + 1) / <double>n)
                    break
    i += n
    if s.etienne_used:  # MC-16: once per round
        obs[i] = 1.0
    obs[i + 1] = <float>(<double>s.picks_left / 2.0)
    if s.cfg.max_turns_d > 0.0:  # else written by the caller (an inexact max_turns)
        obs[i + 2] = <float>(<double>s.round / s.cfg.max_turns_d)


cdef void mc_deal "core_deal"(mc_t* s, uint64_t seed) noexcept nogil:
    """``new_state(seed)`` into any struct whose constants (``cfg``) are set: everything after
    them zeroed (as in a new object), then the deal (MC-3, MC-4)."""
    memset(<char*>s + sizeof(mc_cfg_t), 0, sizeof(mc_t) - sizeof(mc_cfg_t))
    deal_cards(s, seed, 1)


cdef void mc_rollout "core_rollout"(mc_t* s, rng_t* policy) noexcept nogil:
    """Play to the end by simulate's policy (``mc_play``: the struct is scratch after, apart
    from the end's figures)."""
    mc_play(s, policy)


cdef void mc_playout "core_playout"(mc_t* s, rng_t* policy, double* out) noexcept nogil:
    """``mc_rollout``, then the returns into ``out``."""
    mc_play(s, policy)
    mc_returns(s, out)


# ---- determinization (MC-26) ------------------------------------------------------------------

cdef inline void known_or_unseen(const mc_t* s, int c, uint8_t* mine, int* m, int32_t* up,
                                 int* nu) noexcept nogil:
    """mc_determinize: another seat's card c stays its own (``mine``) when everyone saw it
    enter the hand (known), else its pool goes to ``up`` (a card of that pool is dealt)."""
    if is_known(s, c):
        mine[m[0]] = <uint8_t>c
        m[0] += 1
    else:
        up[nu[0]] = s.pool[c]
        nu[0] += 1


cdef void mc_determinize "core_determinize"(mc_t* s, int p, uint64_t seed) noexcept nogil:
    """In place: the cards seat p cannot see are re-dealt from ``seed`` exactly as
    ``MausAuChocolat._determinize`` deals them from p's view (MC-26): the unseen cards
    (the pile, the other seats' hand cards that were not seen entering the hand and, in
    the bid phase, their face-down bids) are grouped by pool, each group in card id
    order; the groups are shuffled in pool order; each other seat, in seat order, takes
    from the end of the groups one card per unseen card it holds (its unseen pools
    ascending), its hand is sorted with its known cards and, when its bid is hidden, the
    bid is drawn from that hand (and, for Henri's holder with henri_bonus="optional",
    whether it was made without Henri: MC-17); what is left of the newest pool is the pile; the new
    generator is the next draw. Then every unused slot is zeroed, so that the struct is
    byte for byte the one ``from_dict`` builds from the resulting dict."""
    cdef rng_t r = seed
    cdef int n = s.cfg.n
    cdef bint bidding = s.phase == PH_BID
    cdef int c, q, j, k, g, lc, t, m, nd = 0, nh = 0, top = 0, nu, idx
    cdef uint8_t hid[MC_CARDS]         # the unseen cards, ascending
    cdef uint8_t grp[MC_CARDS]         # the unseen cards grouped by pool (pools ascending)
    cdef int32_t dpool[MC_CARDS]       # the distinct pools of the unseen cards, ascending
    cdef int gstart[MC_CARDS]
    cdef int glen[MC_CARDS]
    cdef int32_t up[MC_MAX_HAND + 1]
    cdef uint8_t mine[MC_MAX_HAND + 1]
    for c in range(MC_CARDS):
        if s.pool[c] > top:
            top = s.pool[c]
        lc = s.loc[c]
        if lc == LOC_PILE:
            pass
        elif lc >= LOC_HAND and lc < LOC_BID:
            if lc - LOC_HAND == p or is_known(s, c):
                continue
        elif lc >= LOC_BID and lc < LOC_VP:
            if not bidding or lc - LOC_BID == p or is_known(s, c):
                continue
        else:
            continue
        hid[nh] = <uint8_t>c
        nh += 1
        t = s.pool[c]  # insert into the distinct pools (few: a linear scan)
        g = nd
        while g > 0 and dpool[g - 1] > t:
            g -= 1
        if g == 0 or dpool[g - 1] != t:
            j = nd
            while j > g:
                dpool[j] = dpool[j - 1]
                j -= 1
            dpool[g] = t
            nd += 1
    for g in range(nd):
        glen[g] = 0
    for j in range(nh):  # count, then place (stable: card id order within a pool)
        g = 0
        while dpool[g] != s.pool[hid[j]]:
            g += 1
        glen[g] += 1
    k = 0
    for g in range(nd):
        gstart[g] = k
        k += glen[g]
        glen[g] = 0
    for j in range(nh):
        g = 0
        while dpool[g] != s.pool[hid[j]]:
            g += 1
        grp[gstart[g] + glen[g]] = hid[j]
        glen[g] += 1
    for g in range(nd):
        rng_shuffle_u8(&r, grp + gstart[g], glen[g])
    for q in range(n):
        if q == p:
            continue
        nu = 0  # the pools of q's unseen cards, and q's known cards
        m = 0
        for j in range(s.hand_n[q]):
            known_or_unseen(s, hcard(s, q, j), mine, &m, up, &nu)
        if bidding and s.bid[q] >= 0:
            known_or_unseen(s, s.bid[q], mine, &m, up, &nu)
        for j in range(1, nu):  # ascending
            t = up[j]
            k = j - 1
            while k >= 0 and up[k] > t:
                up[k + 1] = up[k]
                k -= 1
            up[k + 1] = t
        for j in range(nu):
            g = 0
            while dpool[g] != up[j]:
                g += 1
            glen[g] -= 1
            mine[m] = grp[gstart[g] + glen[g]]
            m += 1
        for j in range(1, m):  # sorted hand
            c = mine[j]
            k = j - 1
            while k >= 0 and mine[k] > c:
                mine[k + 1] = mine[k]
                k -= 1
            mine[k + 1] = <uint8_t>c
        if bidding and s.bid[q] >= 0:  # MC-7: the hidden bid is one of q's cards
            idx = <int>rng_below(&r, <uint32_t>m)
            c = mine[idx]
            s.bid[q] = c
            s.loc[c] = <uint8_t>(LOC_BID + q)
            for j in range(idx, m - 1):
                mine[j] = mine[j + 1]
            m -= 1
            if s.cfg.henri_optional and s.helper[q] == H_HENRI:  # MC-17: with or without him
                s.henri_off = <uint8_t>rng_below(&r, 2)
        s.hand[q][0] = 0
        s.hand[q][1] = 0
        for j in range(m):
            c = mine[j]
            s.hand[q][j >> 3] |= (<uint64_t>c) << ((j & 7) << 3)
            s.loc[c] = <uint8_t>(LOC_HAND + q)
        s.hand_n[q] = m
    # MC-6: the pile is what is left of the newest pool
    s.pile_n = 0
    for g in range(nd):
        if dpool[g] == top:
            for j in range(glen[g]):
                c = grp[gstart[g] + j]
                s.pile[j] = <uint8_t>c
                s.loc[c] = LOC_PILE
            s.pile_n = glen[g]
    s.rng = rng_next(&r)
    # unused slots as from_dict leaves them
    memset(s.pile + s.pile_n, 0, MC_CARDS - s.pile_n)
    # (the hands: rebuilt above for the other seats, always canonical for p)
    for j in range(s.row_n, MC_HELPERS):
        s.row[j] = 0
    if s.phase == PH_BID or s.phase == PH_OVER:
        memset(s.order, 0, sizeof(s.order))


# ---- the C-level game interface (mh_game_t, _cgame.pxd) -------------------------------------

cdef int MC_MAX_LEGAL = 0
cdef int MC_MAX_LEGAL_KC = 0   # with kept_card="player_chooses" (MC-23)


cdef int _max_legal(int kc) noexcept nogil:
    """A true bound on the legal actions: at most 9 swaps (MC-16) and the decline, then per
    3-card subset of 9 slots (84) and, for Amelie, per 4-card subset (126) at most as many
    kept sets as the shape tables (of bank ``kc``: the reading kept_card, MC-23) hold for one
    subset; in the bid and pick phases at most 9 cards or n + 1 <= 7 display cards plus 9
    swaps (or 9 bids without Henri, MC-17). ``g_dims`` adds up to 9 discards without a draw
    (MC-16, etienne_draw="optional")."""
    cdef int i, b3 = 0, b4 = 0, x
    for i in range(7 * 7 * 7 * 8):
        x = _popc(T3[kc * 7 * 7 * 7 * 8 + i])
        if x > b3:
            b3 = x
    for i in range(7 * 7 * 7 * 2):
        x = _popc(T4[kc][i])
        if x > b4:
            b4 = x
    return MC_MAX_HAND + 1 + 84 * b3 + 126 * b4


MC_MAX_LEGAL = _max_legal(0)
MC_MAX_LEGAL_KC = _max_legal(1)


cdef void g_dims(const void* v, mh_dims_t* d) noexcept nogil:
    cdef const mc_t* s = <const mc_t*>v
    d.players = s.cfg.n
    d.num_actions = num_actions(&s.cfg)
    d.obs_size = obs_size(&s.cfg)
    d.max_legal = ((MC_MAX_LEGAL_KC if s.cfg.kept_choice else MC_MAX_LEGAL)
                   + MC_MAX_HAND * s.cfg.etienne_nodraw)  # (MC-16: the discards without a draw)
    d.has_evaluate = 1


cdef int g_legal(const void* v, int32_t* out) noexcept nogil:
    cdef int16_t buf[MC_NUM_ACTIONS]
    cdef int i, k = mc_legal(<const mc_t*>v, buf)
    for i in range(k):
        out[i] = buf[i]
    return k


cdef int g_chance(const void* v, int32_t* out, double* prob) noexcept nogil:
    return 0  # no chance node: the draws come from the state's own generator (MC-6)


cdef void mc_evaluate "core_evaluate"(const mc_t* s, double* out) noexcept nogil:
    """The strong search's evaluation, per seat: its victory points (MC-13) + 0.05 per candy
    point in its hand (``MausAuChocolatGame.greedy_value`` counts the hand of its own seat)."""
    cdef int q, j
    cdef double candy
    for q in range(s.cfg.n):
        candy = 0.0
        for j in range(s.hand_n[q]):
            candy += s.cfg.candy[hcard(s, q, j)]
        out[q] = <double>s.score[q] + 0.05 * candy


cdef void g_observe(const void* v, int p, float* out) noexcept nogil:
    cdef const mc_t* s = <const mc_t*>v
    memset(out, 0, <size_t>obs_size(&s.cfg) * sizeof(float))
    mc_observe(s, p, out)
    if s.cfg.max_turns_d < 0.0:  # max_turns > 2**53: divided by the nearest double
        out[obs_size(&s.cfg) - 1] = <float>(<double>s.round / -s.cfg.max_turns_d)


cdef void g_mask(const void* v, uint8_t* out) noexcept nogil:
    memset(out, 0, num_actions(&(<const mc_t*>v).cfg))
    mc_legal_mask(<const mc_t*>v, out)


cdef int g_truncated(const void* s) noexcept nogil:
    return (<const mc_t*>s).truncated != 0


# ---- configuration ----------------------------------------------------------------------------

cdef int mc_fill_cfg "core_fill_cfg"(object game, mc_cfg_t* cfg) except -1:
    """The constants of ``game`` into ``cfg`` (zero-filled, its ``n`` set: ``fill_cfg``, the
    cache of ``_boundary``)."""
    cdef int i
    cfg.target = game.target
    cfg.max_turns = game.max_turns if game.max_turns < 1000000000 else 1000000000
    cfg.hand_size = game.hand_size
    cfg.henri_optional = game.henri_optional  # MC-17
    cfg.kept_choice = game.kept_choice  # MC-23
    cfg.etienne_at = game.etienne_phase_mask  # MC-16 (etienne_swap): the phases of a swap
    cfg.tie_after_pass = game.tie_after_pass  # MC-25 (tie_break_moment)
    cfg.change_lo = game.change_lo  # MC-18, MC-19 (changed_value)
    cfg.change_hi = game.change_hi
    cfg.etienne_nodraw = game.etienne_discards  # MC-16 (etienne_draw)
    cfg.limit_standing = game.limit_standing  # MC-14 (hand_limit)
    if num_actions(cfg) != game.num_actions:  # pragma: no cover - layout guard
        raise AssertionError(f"action space: {game.num_actions} != {num_actions(cfg)}")
    # round / max_turns in the observation: a double division is Python's int / int exactly
    # when both are exact doubles; a larger max_turns is divided in Python (observation)
    cfg.max_turns_d = float(game.max_turns) if game.max_turns <= 2 ** 53 else -float(game.max_turns)
    if (obs_size(cfg),) != tuple(game.observation_shape):  # pragma: no cover - layout guard
        raise AssertionError(f"observation layout: {game.observation_shape} != ({obs_size(cfg)},)")
    for i in range(MC_CARDS):
        cfg.colour[i] = game.cards[i][0]
        cfg.candy[i] = game.cards[i][1]
        cfg.coin[i] = game.cards[i][2]
    return 0


# ---- self-checks of the compiled search (tests/test_maus_au_chocolat_rules.py) -------

def _selfcheck_combos(MausAuChocolatCore st, uint64_t seed, long rounds):
    """Check the combination counting against the listing (``mc_combos_to``, the shape
    tables) on ``rounds`` random hands of 4 .. 9 cards of ``st``'s game, every helper:
    ``combo_count`` must give the number of kept sets of every subset (``combo_count_enum``,
    also block by block: the listing stops at the counted end of a block), that is the
    listing's length, and both decoders (``combo_kth`` and ``combo_kth_walk``) its k-th
    action.
    Returns the number of hands checked; raises AssertionError on the first difference."""
    cdef mc_t s
    cdef slots_t t
    cdef slots_t te
    cdef int16_t buf[MC_NUM_ACTIONS]
    cdef uint8_t deck[MC_CARDS]
    cdef rng_t r = seed
    cdef long i
    cdef int hn, h, j, n, k, cnt
    s = st.s
    memset(&t, 0, sizeof(t))  # (combo_kth reads t.cum past the hand, masked)
    for i in range(rounds):
        for j in range(MC_CARDS):
            deck[j] = <uint8_t>j
        rng_shuffle_u8(&r, deck, MC_CARDS)
        hn = 4 + <int>rng_below(&r, 6)
        s.hand_n[0] = 0
        s.hand[0][0] = 0
        s.hand[0][1] = 0
        for j in range(hn):
            hand_add(&s, 0, deck[j])
        for h in range(MC_HELPERS):
            s.helper[0] = h
            n = mc_combos_to(&s, 0, buf, NULL)
            cnt = combo_count(&s, 0, &t)
            if cnt != combo_count_enum(&s, 0, &te) or any(t.cum[j] != te.cum[j] for j in range(2, hn)):
                raise AssertionError(f"helper {h}, hand {[hcard(&s, 0, j) for j in range(hn)]}: "
                                     f"combo_count {cnt}, subsets {combo_count_enum(&s, 0, &te)}")
            cnt = combo_count(&s, 0, &t)
            if cnt != n:
                raise AssertionError(f"helper {h}, hand {[hcard(&s, 0, j) for j in range(hn)]}: "
                                     f"counted {cnt}, listed {n}")
            for k in range(n):
                if MC_COMBINE + combo_kth(&s, 0, &t, k) != buf[k]:
                    raise AssertionError(f"helper {h}, hand {[hcard(&s, 0, j) for j in range(hn)]}: "
                                         f"combination {k} differs")
                if MC_COMBINE + combo_kth_walk(&s, 0, &t, k) != buf[k]:
                    raise AssertionError(f"helper {h}, hand {[hcard(&s, 0, j) for j in range(hn)]}: "
                                         f"combination {k} differs (combo_kth_walk)")
    return rounds

def _selfcheck_legal(MausAuChocolatCore st):
    """Check ``apply_action``'s legality test (``mc_is_legal``) against the listing
    (``mc_legal``) for every action id in ``st``; returns the number of legal actions,
    raises AssertionError on the first difference."""
    cdef int16_t buf[MC_MAX_ACTIONS]
    cdef uint8_t listed[MC_MAX_ACTIONS]
    cdef int n = mc_legal(&st.s, buf)
    cdef int a
    memset(listed, 0, MC_MAX_ACTIONS)
    for a in range(n):
        listed[buf[a]] = 1
    for a in range(num_actions(&st.s.cfg)):
        if listed[a] != mc_is_legal(&st.s, a):
            raise AssertionError(f"action {a}: listed {listed[a]}, legality test {int(mc_is_legal(&st.s, a))}")
    return n

_PHASES = ("bid", "pick", "combine", "discard", "over")


def _henri_bid_plain(list history, int q):
    """MC-17: whether seat q's bid of this bid phase (the bids, seat 0's first, and at most a
    swap end ``history``) was made without Henri."""
    cdef Py_ssize_t i = len(history)
    bids = []
    while i > 0:
        a = history[i - 1]
        if a < MC_PICK or a >= MC_BID_PLAIN:
            bids.append(a)
        elif not (MC_SWAP <= a < MC_DECLINE or (MC_DISCARD <= a < MC_SWAP and i > 1 and (
                history[i - 2] < MC_PICK or history[i - 2] >= MC_BID_PLAIN))):  # (MC-16: Etienne's discard)
            break
        i -= 1
    bids.reverse()
    return 1 if bids[q] >= MC_BID_PLAIN else 0


# ---- written once for every core (_cgame_core.pxi) ------------------------------------------
# The slot functions over this core's role functions (``core_<role>``, above), ``fill_cfg``
# over ``mc_fill_cfg``, ``VectorGame``'s loop, and this core's table and description
# (``CORE_GAME``, ``CORE``), of its struct and constants:
ctypedef mc_t core_state_t
ctypedef mc_cfg_t core_cfg_t
include "_cgame_core.pxi"


# ---- the Python-facing class ------------------------------------------------------------------

@cython.no_gc  # it holds its game and seed, which hold no state (the game's ``_compiled_cfg``
                # is a capsule of constants): no cycle
cdef class MausAuChocolatCore(StateCore):
    """Compiled Maus au Chocolat state. Use ``game.new_state(seed)``; the public class is
    ``mousehole.maus_au_chocolat.CompiledMausAuChocolatState`` (this core + the shared API)."""

    _core_capsule = core_capsule(&CORE)  # (StateCore finds the core by it)

    cdef int _init(self, object game, uint64_t seed) except -1:
        """``new``: the constants of ``game`` and the deal of ``seed`` (StateCore)."""
        load_constants(self, game)
        deal_cards(&self.s, seed, 1)  # (mc_deal without the zeroing: the struct is 0 from the allocation)
        return 0

    @classmethod
    def _from_valid_dict(cls, game, dict d):
        cdef MausAuChocolatCore st = <MausAuChocolatCore>state_loaded(cls, game)
        cdef mc_t* s = &st.s
        cdef int i, q, c
        n = s.cfg.n
        memset(s.known, 0, sizeof(s.known))
        memset(s.hand_n, 0, sizeof(s.hand_n))
        s.disp[0] = 0
        s.disp[1] = 0
        s.disp_n = 0
        s.pile_n = len(d["pile"])
        for i, c in enumerate(d["pile"]):
            s.pile[i] = c
            s.loc[c] = LOC_PILE
        for c in d["display"]:
            disp_add(s, c)
        s.discard_n = len(d["discard"])
        for c in d["discard"]:
            s.loc[c] = LOC_DISCARD
            s.dis[c >> 6] |= (<uint64_t>1) << (c & 63)
        for c in range(MC_CARDS):
            s.pool[c] = d["pools"][c]
        for q in range(n):
            for c in d["hands"][q]:
                hand_add(s, q, c)
            for c in d["known"][q]:
                set_known(s, c)
            s.bid[q] = d["bids"][q]
            if s.bid[q] >= 0:
                s.loc[s.bid[q]] = <uint8_t>(LOC_BID + q)
            s.score[q] = 0
            for c in d["vp"][q]:
                s.loc[c] = <uint8_t>(LOC_VP + q)
                s.score[q] += s.cfg.candy[c]
            s.helper[q] = d["helpers"][q]
        s.row_n = len(d["row"])
        for i, c in enumerate(d["row"]):
            s.row[i] = c
        for i, q in enumerate(d["order"]):
            s.order[i] = q
        s.phase = _PHASES.index(d["phase"])
        s.turn = d["turn"]
        s.picks_left = d["picks_left"]
        s.etienne_used = d["etienne_used"]
        s.round = d["round"]
        s.truncated = d["truncated"]
        s.rng = d["rng"]
        s.nactions = 0
        for a in d["history"]:
            hist_put(st, s.nactions, a)
            s.nactions += 1
        s.henri_off = 0
        if s.phase == PH_BID and s.cfg.henri_optional:  # MC-17: Henri's holder's face-down bid
            for q in range(n):
                if s.helper[q] == H_HENRI and s.bid[q] >= 0:
                    s.henri_off = _henri_bid_plain(d["history"], q)
        return st

    cdef int _determinized(self, int p) except -1:
        """``determinize`` (MC-26, ``mc_determinize``): the history is the view's, completed
        as the Python determinization completes it: this round's hidden bids become the bids
        drawn, every combination (hidden in a view) the first pattern."""
        cdef mc_t* s = &self.s
        cdef int i, k, q, a
        for i in range(s.nactions):
            if MC_COMBINE <= self.hist[i] < MC_BID_PLAIN:
                self.hist[i] = MC_COMBINE
        if s.phase == PH_BID:  # MC-27: this round's bids, seat 0's first, end the history
            k = 0
            for q in range(s.cfg.n):
                if s.bid[q] >= 0:
                    k += 1
            i = s.nactions
            while k > 0 and i > 0:
                i -= 1
                a = self.hist[i]
                if a < MC_PICK or a >= MC_BID_PLAIN:
                    k -= 1
                    self.hist[i] = <uint16_t>((MC_BID_PLAIN if s.helper[k] == H_HENRI and s.henri_off else MC_BID)
                                              + s.bid[k])
                elif not (MC_DISCARD <= a < MC_DECLINE):  # (a swap, or MC-16's discard without a draw)
                    break
        return 0

    cdef int _admit(self, int64_t a) except -1:
        """An int action the rules allow now: recorded, 1; else 0."""
        if a < 0 or a >= num_actions(&self.s.cfg) or not mc_is_legal(&self.s, <int>a):
            return 0
        hist_put(self, self.s.nactions, <int>a)
        return 1

    cdef int _observed(self, float* obs, Py_ssize_t n) except -1:
        """max_turns > 2**53: the last entry is Python's exact int / int (the interface's
        ``observe`` divides by the nearest double)."""
        if self.s.cfg.max_turns_d < 0.0:
            obs[n - 1] = <float>(self.s.round / self.game.max_turns)
        return 0

    def _to_dict(self):
        cdef mc_t* s = &self.s
        cdef int q, c, i, n = s.cfg.n
        cdef int lc
        hands = [[hcard(s, q, i) for i in range(s.hand_n[q])] for q in range(n)]
        display = []
        discard = []
        vp = [[] for q in range(n)]
        for c in range(MC_CARDS):
            lc = s.loc[c]
            if lc == LOC_DISPLAY:
                display.append(c)
            elif lc == LOC_DISCARD:
                discard.append(c)
            elif lc >= LOC_VP:
                vp[lc - LOC_VP].append(c)
        d = self.game._header()
        d["round"] = s.round
        d["phase"] = _PHASES[s.phase]
        d["pile"] = [s.pile[i] for i in range(s.pile_n)]
        d["display"] = display
        d["discard"] = discard
        d["hands"] = hands
        d["known"] = [[c for c in sorted(hands[q] + ([s.bid[q]] if s.phase == PH_BID and s.bid[q] >= 0 else []))
                       if is_known(s, c)] for q in range(n)]
        d["pools"] = [s.pool[c] for c in range(MC_CARDS)]
        d["bids"] = [s.bid[q] for q in range(n)]
        d["vp"] = vp
        d["helpers"] = [s.helper[q] for q in range(n)]
        d["row"] = [s.row[i] for i in range(s.row_n)]
        d["order"] = [s.order[i] for i in range(n)] if s.phase in (PH_PICK, PH_COMBINE, PH_DISCARD) else []
        d["turn"] = s.turn
        d["picks_left"] = s.picks_left
        d["etienne_used"] = bool(s.etienne_used)
        d["rng"] = s.rng
        d["history"] = self.history
        d["truncated"] = bool(s.truncated)
        return d

    def combination_actions(self, seat):
        """The combination actions of ``seat``'s hand with its helper (MC-29), ascending;
        ``TypeError`` / ``ValueError`` for what is not a seat (``_api.check_seat``)."""
        cdef int16_t buf[MC_NUM_ACTIONS]
        cdef int n
        cdef int q = seat_arg(self.game, self.s.cfg.n, seat, "seat")
        n = mc_combos(&self.s, q, buf)
        return [buf[i] for i in range(n)]


cdef MausAuChocolatCore _BLANK = MausAuChocolatCore.__new__(MausAuChocolatCore)  # (kept: a blank state, where the struct lies)
core_place(&CORE, _BLANK, &_BLANK.s)

