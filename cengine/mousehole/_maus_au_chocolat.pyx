# cython: language_level=3
"""Compiled Maus au Chocolat engine (rules MC-1 .. MC-30).

The state is one C struct (``mc_t`` in ``_maus_au_chocolat.pxd``): a location byte per card,
sorted hand arrays, the display as a bit set and the draw pile as an array. The combination
search (MC-29) walks the precomputed table of 3- and 4-slot subsets of the hand in pattern
order and evaluates each with small integer tests, writing the pattern indices straight into
the caller's buffer: no allocation, no sorting, duplicates merged by a 16-bit set of kept
slots. Every leaf function is ``noexcept nogil``. The pure-Python reference is
``mousehole/maus_au_chocolat.py``; both give the same game, bit for bit.
"""

cimport numpy as cnp
from libc.string cimport memset, memcpy
from libc.stdlib cimport malloc, free
from cpython.long cimport PyLong_AsLongAndOverflow

from mousehole._common cimport (
    action_int,
    check_sim_rows,
    hist_reserve,
    uint8_t, int8_t, uint16_t, int16_t, int32_t, uint32_t, int64_t, uint64_t, rng_t,
    rng_below, rng_derive, rng_next, rng_shuffle_u8, ctz64, TERMINAL_SEAT,
)

import numpy as np

cnp.import_array()
_np_int64 = np.int64

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

cdef inline uint32_t eval3(int m0, int m1, int m2, const int* top, bint mixed_ok, bint one_ok,
                           bint lilly) noexcept nogil:
    """Kept sets (bit krel set) of three cards with modified values m0..m2; ``top`` lists
    the relative indices by printed value descending (then index ascending)."""
    cdef uint32_t r = 0
    cdef int lo, hi, j
    cdef int m[3]
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
    lo = 0
    hi = 0
    for j in range(1, 3):
        if m[j] < m[lo]:
            lo = j
        if m[j] > m[hi]:
            hi = j
    if m[hi] - m[lo] != 2:
        return 0
    if mixed_ok:  # MC-12 (mixed run: the lowest), MC-20 (Lilly: the highest)
        r |= <uint32_t>1 << (1 << (hi if lilly else lo))
    if one_ok:  # one-colour run: the highest
        r |= <uint32_t>1 << (1 << hi)
    return r


cdef inline uint32_t eval4(const int* v, const int* top, bint one) noexcept nogil:
    """Amélie (MC-21): four cards, no modification."""
    cdef int lo = 0, hi = 0, j, second
    if v[0] == v[1] and v[1] == v[2] and v[2] == v[3]:
        if one:
            return <uint32_t>1 << ((1 << top[0]) | (1 << top[1]) | (1 << top[2]))
        return <uint32_t>1 << ((1 << top[0]) | (1 << top[1]))
    for j in range(1, 4):
        if v[j] < v[lo]:
            lo = j
        if v[j] > v[hi]:
            hi = j
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
cdef uint16_t T3[7 * 7 * 7 * 8]
cdef uint16_t T4[7 * 7 * 7 * 2]


cdef void _build_shape_tables() noexcept nogil:
    cdef int h, dv1, dv2, dv3, cp, d, j
    cdef int v[4]
    cdef int c[3]
    cdef int top[4]
    cdef bint one, one_ok, mixed_ok
    cdef uint32_t res
    for h in range(7):
        d = -1 if h == H_MATHIEU else (1 if h == H_MAURICE else 0)
        for dv1 in range(-3, 4):
            for dv2 in range(-3, 4):
                for cp in range(8):
                    c[0] = 0
                    c[1] = 0 if cp & 1 else 1
                    c[2] = c[1] if cp & 2 else (c[0] if cp & 4 else 2)
                    if ((c[0] == c[1]) | ((c[1] == c[2]) << 1) | ((c[0] == c[2]) << 2)) != cp:
                        T3[((h * 7 + dv1 + 3) * 7 + dv2 + 3) * 8 + cp] = 0
                        continue
                    v[0] = 6
                    v[1] = 6 + dv1
                    v[2] = 6 + dv2
                    one = c[0] == c[1] and c[1] == c[2]
                    if h == H_CLAUDE:  # MC-22: one card may count as another colour
                        one_ok = c[0] == c[1] or c[1] == c[2] or c[0] == c[2]
                        mixed_ok = True
                    else:
                        one_ok = one
                        mixed_ok = not one
                    order_top(v, 3, top)
                    res = eval3(v[0], v[1], v[2], top, mixed_ok, one_ok, h == H_LILLY)
                    if d != 0:  # MC-18 / MC-19
                        res |= eval3(v[0] + d, v[1], v[2], top, mixed_ok, one_ok, h == H_LILLY)
                        res |= eval3(v[0], v[1] + d, v[2], top, mixed_ok, one_ok, h == H_LILLY)
                        res |= eval3(v[0], v[1], v[2] + d, top, mixed_ok, one_ok, h == H_LILLY)
                    T3[((h * 7 + dv1 + 3) * 7 + dv2 + 3) * 8 + cp] = <uint16_t>res
    for dv1 in range(-3, 4):
        for dv2 in range(-3, 4):
            for dv3 in range(-3, 4):
                for j in range(2):
                    v[0] = 6
                    v[1] = 6 + dv1
                    v[2] = 6 + dv2
                    v[3] = 6 + dv3
                    order_top(v, 4, top)
                    T4[(((dv1 + 3) * 7 + dv2 + 3) * 7 + dv3 + 3) * 2 + j] = <uint16_t>eval4(v, top, j == 1)


_build_shape_tables()


cdef inline int mc_combos_to(const mc_t* s, int p, int16_t* out, uint8_t* mask) noexcept nogil:
    """The combination actions of seat p's hand (MC-10 .. MC-23), ascending, each
    distinct (cards, kept cards) once, written to ``out`` or, when ``out`` is NULL, marked
    in ``mask``. Returns their number.

    Subsets of 3 (and, for Amélie, 4) slots are visited in pattern order; each is looked
    up in the shape tables; the kept sets found become pattern indices directly."""
    cdef int hn = s.hand_n[p]
    cdef int helper = s.helper[p]
    cdef int lim, i, ii, j, c, krel, cnt = 0, nsub, s0, s1, s2, s3, hb, k, a
    cdef uint32_t dv1, dv2, dv3, cp
    cdef int pv[MC_MAX_HAND]
    cdef int col[MC_MAX_HAND]
    cdef uint32_t res
    cdef bint amelie
    if hn < 4:  # MC-11: three laid, one must stay
        return 0
    amelie = helper == H_AMELIE and hn >= 5  # MC-21
    for j in range(hn):
        c = s.hand[p][j]
        pv[j] = s.cfg.candy[c]
        col[j] = s.cfg.colour[c]
    hb = helper * 7 * 7 * 8
    lim = 1 << hn
    nsub = SUB_N if amelie else SUB3_N
    for ii in range(nsub):
        i = ii if amelie else SUB3[ii]
        if SUB_MASK[i] >= lim:
            break
        k = SUB_K[i]
        s0 = SUB_SLOT[i][0]
        s1 = SUB_SLOT[i][1]
        s2 = SUB_SLOT[i][2]
        dv1 = <uint32_t>(pv[s1] - pv[s0] + 3)
        dv2 = <uint32_t>(pv[s2] - pv[s0] + 3)
        if dv1 >= 7 or dv2 >= 7:
            continue
        if k == 3:
            cp = ((col[s0] == col[s1]) | ((col[s1] == col[s2]) << 1) | ((col[s0] == col[s2]) << 2))
            res = T3[hb + (dv1 * 7 + dv2) * 8 + cp]
        else:
            s3 = SUB_SLOT[i][3]
            dv3 = <uint32_t>(pv[s3] - pv[s0] + 3)
            if dv3 >= 7:
                continue
            res = T4[((dv1 * 7 + dv2) * 7 + dv3) * 2
                     + (col[s0] == col[s1] and col[s1] == col[s2] and col[s2] == col[s3])]
        while res:
            krel = ctz32(res)
            res &= res - 1
            a = MC_COMBINE + SUB_BASE[i] + KREL_RANK[k][krel]
            if out != NULL:
                out[cnt] = <int16_t>a
            else:
                mask[a] = 1
            cnt += 1
    return cnt


cdef int mc_combos(const mc_t* s, int p, int16_t* out) noexcept nogil:
    """The combination actions of seat p's hand, ascending, into ``out``."""
    return mc_combos_to(s, p, out, NULL)


# ---- small state operations --------------------------------------------------------------------

cdef inline int mc_current(const mc_t* s) noexcept nogil:
    cdef int q
    if s.phase == PH_OVER:
        return TERMINAL_SEAT
    if s.phase == PH_BID:  # MC-27: the next seat to commit
        for q in range(s.cfg.n):
            if s.bid[q] < 0:
                return q
    return s.order[s.turn]


cdef inline void hand_add(mc_t* s, int p, int c) noexcept nogil:
    cdef int j = s.hand_n[p]
    while j > 0 and s.hand[p][j - 1] > c:
        s.hand[p][j] = s.hand[p][j - 1]
        j -= 1
    s.hand[p][j] = <uint8_t>c
    s.hand_n[p] += 1
    s.loc[c] = <uint8_t>(LOC_HAND + p)


cdef inline void hand_remove(mc_t* s, int p, int c) noexcept nogil:
    """Take c out of seat p's hand (face down: a bid keeps its known flag and pool)."""
    cdef int j = 0, n = s.hand_n[p]
    while s.hand[p][j] != c:
        j += 1
    while j < n - 1:
        s.hand[p][j] = s.hand[p][j + 1]
        j += 1
    s.hand_n[p] = n - 1


cdef inline void hand_play(mc_t* s, int p, int c) noexcept nogil:
    """Card c leaves seat p's hand face up (MC-12, MC-14, MC-16): seen by everyone."""
    hand_remove(s, p, c)
    s.known[c] = 0
    s.pool[c] = 0


cdef inline void to_discard(mc_t* s, int c) noexcept nogil:
    s.loc[c] = LOC_DISCARD
    s.discard_n += 1


cdef inline void disp_add(mc_t* s, int c) noexcept nogil:
    s.disp[c >> 6] |= (<uint64_t>1) << (c & 63)
    s.disp_n += 1
    s.loc[c] = LOC_DISPLAY
    s.pool[c] = 0


cdef inline void disp_remove(mc_t* s, int c) noexcept nogil:
    s.disp[c >> 6] &= ~((<uint64_t>1) << (c & 63))
    s.disp_n -= 1


cdef int mc_draw(mc_t* s) noexcept nogil:
    """MC-6: the top card; an empty pile is replaced by the discards (in card id order)
    shuffled, a new pool of unseen cards (MC-26); -1 when both are empty. The caller
    places the card."""
    cdef int c
    cdef int32_t pool = 0
    if s.pile_n == 0:
        if s.discard_n == 0:
            return -1
        for c in range(MC_CARDS):
            if s.pool[c] > pool:
                pool = s.pool[c]
        pool += 1
        for c in range(MC_CARDS):
            if s.loc[c] == LOC_DISCARD:
                s.pile[s.pile_n] = <uint8_t>c
                s.pile_n += 1
                s.loc[c] = LOC_PILE
                s.pool[c] = pool
        s.discard_n = 0
        rng_shuffle_u8(&s.rng, s.pile, s.pile_n)
    s.pile_n -= 1
    return s.pile[s.pile_n]


cdef void mc_init(mc_t* s, uint64_t seed) noexcept nogil:
    cdef int i, r, q, n = s.cfg.n
    cdef uint8_t helpers[MC_HELPERS]
    s.rng = seed
    memset(s.known, 0, sizeof(s.known))
    memset(s.pool, 0, sizeof(s.pool))
    memset(s.hand_n, 0, sizeof(s.hand_n))
    memset(s.score, 0, sizeof(s.score))
    s.disp[0] = 0
    s.disp[1] = 0
    s.disp_n = 0
    s.discard_n = 0
    for i in range(MC_CARDS):  # MC-3
        s.pile[i] = <uint8_t>i
        s.loc[i] = LOC_PILE
    s.pile_n = MC_CARDS
    rng_shuffle_u8(&s.rng, s.pile, MC_CARDS)
    for r in range(s.cfg.hand_size):
        for q in range(n):
            s.pile_n -= 1
            hand_add(s, q, s.pile[s.pile_n])
    for i in range(n + 1):
        s.pile_n -= 1
        disp_add(s, s.pile[s.pile_n])
    for i in range(MC_HELPERS):  # MC-4
        helpers[i] = <uint8_t>i
    rng_shuffle_u8(&s.rng, helpers, MC_HELPERS)
    for q in range(n):
        s.helper[q] = helpers[q]
        s.bid[q] = -1
    s.row_n = MC_HELPERS - n
    for i in range(s.row_n):
        s.row[i] = helpers[n + i]
    s.round = 1
    s.phase = PH_BID
    s.turn = 0
    s.picks_left = 0
    s.etienne_used = 0
    s.truncated = 0
    s.nactions = 0


cdef inline void order_by_helper(mc_t* s) noexcept nogil:
    """MC-10: seats by helper rank, highest first (helper id ascending)."""
    cdef int i, j, t, n = s.cfg.n
    for i in range(n):
        s.order[i] = i
    for i in range(1, n):
        t = s.order[i]
        j = i - 1
        while j >= 0 and s.helper[s.order[j]] > s.helper[t]:
            s.order[j + 1] = s.order[j]
            j -= 1
        s.order[j + 1] = t


cdef inline int bid_key(const mc_t* s, int q) noexcept nogil:
    """MC-8 / MC-17: larger goes first: coins (+2 with Henri), then helper rank."""
    cdef int coins = s.cfg.coin[s.bid[q]] + (2 if s.helper[q] == H_HENRI else 0)
    return coins * 16 + (MC_HELPERS - s.helper[q])


cdef void start_pick_turn(mc_t* s) noexcept nogil:
    cdef int q, c
    while s.turn < s.cfg.n:
        s.picks_left = 2 if s.disp_n >= 2 else s.disp_n
        if s.picks_left:
            return
        q = s.order[s.turn]  # nothing to take: the bid goes straight in
        c = s.bid[q]
        disp_add(s, c)
        s.bid[q] = -1
        s.turn += 1
    s.picks_left = 0
    s.phase = PH_COMBINE
    order_by_helper(s)
    s.turn = 0


cdef void next_combiner(mc_t* s) noexcept nogil:
    cdef int i, q, c, n = s.cfg.n, best = 0
    cdef int old[MC_MAX_PLAYERS]
    s.phase = PH_COMBINE
    s.turn += 1
    if s.turn < n:
        return
    s.turn = 0
    for q in range(n):
        if s.score[q] > best:
            best = s.score[q]
    if best >= s.cfg.target:  # MC-24
        s.phase = PH_OVER
        return
    if s.round >= s.cfg.max_turns:  # max_turns (rounds)
        s.phase = PH_OVER
        s.truncated = 1
        return
    # MC-15
    for q in range(n):
        old[q] = s.helper[q]
    s.row[s.row_n] = old[0]
    s.helper[1] = s.row[0]
    for i in range(s.row_n):
        s.row[i] = s.row[i + 1]
    for q in range(2, n):
        s.helper[q] = old[q - 1]
    s.helper[0] = old[n - 1]
    s.round += 1
    s.etienne_used = 0
    for i in range(n):  # MC-5, MC-6
        c = mc_draw(s)
        if c < 0:
            break
        disp_add(s, c)
    s.phase = PH_BID


cdef void mc_apply(mc_t* s, int a) noexcept nogil:
    """Apply a legal action."""
    cdef int p = mc_current(s)
    cdef int c, i, j, t, q, k
    cdef int laid[4]
    cdef uint16_t keep
    s.nactions += 1
    if a >= MC_SWAP and a < MC_DECLINE:  # MC-16
        c = a - MC_SWAP
        s.etienne_used = 1
        hand_play(s, p, c)
        to_discard(s, c)
        c = mc_draw(s)
        hand_add(s, p, c)
    elif a < MC_PICK:  # MC-7
        c = a - MC_BID
        hand_remove(s, p, c)
        s.loc[c] = <uint8_t>(LOC_BID + p)
        s.bid[p] = c
        for q in range(s.cfg.n):
            if s.bid[q] < 0:
                return
        for q in range(s.cfg.n):  # MC-7: all revealed at once
            s.known[s.bid[q]] = 0
            s.pool[s.bid[q]] = 0
        # MC-8: order by coins
        for i in range(s.cfg.n):
            s.order[i] = i
        for i in range(1, s.cfg.n):
            t = s.order[i]
            j = i - 1
            while j >= 0 and bid_key(s, s.order[j]) < bid_key(s, t):
                s.order[j + 1] = s.order[j]
                j -= 1
            s.order[j + 1] = t
        s.phase = PH_PICK
        s.turn = 0
        start_pick_turn(s)
    elif a < MC_DISCARD:  # MC-9
        c = a - MC_PICK
        disp_remove(s, c)
        hand_add(s, p, c)
        s.known[c] = 1
        s.picks_left -= 1
        if s.picks_left == 0:
            disp_add(s, s.bid[p])
            s.bid[p] = -1
            s.turn += 1
            start_pick_turn(s)
    elif a < MC_SWAP:  # MC-14
        c = a - MC_DISCARD
        hand_play(s, p, c)
        to_discard(s, c)
        if s.hand_n[p] <= MC_HAND_LIMIT:
            next_combiner(s)
    else:
        if a > MC_DECLINE:  # MC-10, MC-12
            i = a - MC_COMBINE
            k = PAT_K[i]
            keep = PAT_KEEP[i]
            for j in range(k):
                laid[j] = s.hand[p][PAT_SLOT[i][j]]
            for j in range(k):
                c = laid[j]
                hand_play(s, p, c)
                if (keep >> PAT_SLOT[i][j]) & 1:
                    s.loc[c] = <uint8_t>(LOC_VP + p)
                    s.score[p] += s.cfg.candy[c]  # MC-13
                else:
                    to_discard(s, c)
        if s.hand_n[p] > MC_HAND_LIMIT:  # MC-14
            s.phase = PH_DISCARD
        else:
            next_combiner(s)


cdef int mc_legal(const mc_t* s, int16_t* out) noexcept nogil:
    """The legal actions, ascending. Returns their number."""
    cdef int p = mc_current(s)
    cdef int n = 0, j, w
    cdef uint64_t bits
    if p == TERMINAL_SEAT:
        return 0
    if s.phase == PH_BID:
        for j in range(s.hand_n[p]):
            out[n] = <int16_t>(MC_BID + s.hand[p][j])
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
            out[n] = <int16_t>(MC_DISCARD + s.hand[p][j])
            n += 1
        return n
    if s.helper[p] == H_ETIENNE and not s.etienne_used:
        for j in range(s.hand_n[p]):
            out[n] = <int16_t>(MC_SWAP + s.hand[p][j])
            n += 1
    if s.phase == PH_COMBINE:
        out[n] = MC_DECLINE
        n += 1
        n += mc_combos(s, p, out + n)
    return n


cdef void mc_winners(const mc_t* s, int* w) noexcept nogil:
    """MC-25: most points; ties: the higher helper rank."""
    cdef int q, best = 0
    for q in range(1, s.cfg.n):
        if s.score[q] > s.score[best] or (s.score[q] == s.score[best] and s.helper[q] < s.helper[best]):
            best = q
    for q in range(s.cfg.n):
        w[q] = q == best


cdef int mc_legal_mask(const mc_t* s, uint8_t* mask) noexcept nogil:
    """Mark the legal actions in ``mask`` (MC_NUM_ACTIONS bytes, zero-filled by the caller):
    the same actions as mc_legal, written in place. Returns their number."""
    cdef int p = mc_current(s)
    cdef int n = 0, j, w
    cdef uint64_t bits
    if p == TERMINAL_SEAT:
        return 0
    if s.phase == PH_BID:  # MC-7
        for j in range(s.hand_n[p]):
            mask[MC_BID + s.hand[p][j]] = 1
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
            mask[MC_DISCARD + s.hand[p][j]] = 1
        return s.hand_n[p]
    if s.helper[p] == H_ETIENNE and not s.etienne_used:  # MC-16
        for j in range(s.hand_n[p]):
            mask[MC_SWAP + s.hand[p][j]] = 1
        n += s.hand_n[p]
    if s.phase == PH_COMBINE:  # MC-10 .. MC-12
        mask[MC_DECLINE] = 1
        n += 1 + mc_combos_to(s, p, NULL, mask)
    return n


cdef inline int rel_seat(int q, int p, int n) noexcept nogil:
    """Seat q as seen from seat p: 0 is p, 1 the next seat, ..."""
    return q - p if q >= p else q - p + n


cdef void mc_observe(const mc_t* s, int p, float* obs) noexcept nogil:
    """Seat p's observation into ``obs`` (cfg.obs_size floats, zero-filled by the caller),
    in the layout of ``MausAuChocolat._observation`` (docs: Observation). Every fraction is
    the reference's double quotient rounded once to float32, so the values are bit-identical.
    Hidden information (MC-26): other seats' hands appear only as sizes and known cards,
    their bids only once revealed (MC-7)."""
    cdef int n = s.cfg.n
    cdef int c, j, k, q, lc, cur, b
    cdef Py_ssize_t i
    # card planes: 0 own hand, 1 display, 2 discard pile, 3 own bid; for relative seat k:
    # 4 + 3k its revealed bid, 5 + 3k its victory cards, 6 + 3k its known cards
    for j in range(s.hand_n[p]):
        obs[s.hand[p][j]] = 1.0
    for c in range(MC_CARDS):
        lc = s.loc[c]
        if lc == LOC_DISPLAY:
            obs[MC_CARDS + c] = 1.0
        elif lc == LOC_DISCARD:
            obs[2 * MC_CARDS + c] = 1.0
        elif lc >= LOC_VP:  # MC-13: victory cards are face up
            obs[(5 + 3 * rel_seat(lc - LOC_VP, p, n)) * MC_CARDS + c] = 1.0
    if s.bid[p] >= 0:
        obs[3 * MC_CARDS + s.bid[p]] = 1.0
    for k in range(n):
        q = p + k if p + k < n else p + k - n
        b = s.bid[q]
        if b >= 0:
            if s.phase != PH_BID:  # MC-7: revealed together
                obs[(4 + 3 * k) * MC_CARDS + b] = 1.0
            elif s.known[b]:  # a known card bid face down stays known until the reveal
                obs[(6 + 3 * k) * MC_CARDS + b] = 1.0
        for j in range(s.hand_n[q]):  # cards everyone saw taken (MC-9)
            c = s.hand[q][j]
            if s.known[c]:
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
    if s.cfg.max_turns_f > 0.0:  # else written by the caller (an inexact max_turns)
        obs[i + 2] = <float>(<double>s.round / s.cfg.max_turns_f)


cdef void mc_play_random(mc_t* s, rng_t* policy) noexcept nogil:
    """Uniformly random legal actions to the end (the policy of mousehole.simulate)."""
    cdef int16_t buf[MC_NUM_ACTIONS]
    cdef int n
    while s.phase != PH_OVER:
        n = mc_legal(s, buf)
        mc_apply(s, buf[rng_below(policy, <uint32_t>n)])


# ---- configuration ----------------------------------------------------------------------------

cdef mc_cfg_t cfg_of(object game) except *:
    cdef mc_cfg_t cfg
    cdef int i
    memset(&cfg, 0, sizeof(cfg))
    cfg.n = game.num_players
    cfg.target = game.target
    cfg.max_turns = game.max_turns if game.max_turns < 1000000000 else 1000000000
    cfg.hand_size = game.hand_size
    # round / max_turns in the observation: a double division is Python's int / int exactly
    # when both are exact doubles; a larger max_turns is divided in Python (observation)
    cfg.max_turns_f = <double>game.max_turns if game.max_turns <= 2 ** 53 else 0.0
    cfg.obs_size = MC_CARDS * (4 + 3 * cfg.n) + 12 * cfg.n + 58
    if (cfg.obs_size,) != tuple(game.observation_shape):  # pragma: no cover - layout guard
        raise AssertionError(f"observation layout: {game.observation_shape} != ({cfg.obs_size},)")
    for i in range(MC_CARDS):
        cfg.colour[i] = game.cards[i][0]
        cfg.candy[i] = game.cards[i][1]
        cfg.coin[i] = game.cards[i][2]
    return cfg


cdef mc_cfg_t game_cfg(object game) except *:
    cached = getattr(game, "_compiled_cfg", None)
    if cached is None:
        cached = MausAuChocolatCore.__new__(MausAuChocolatCore)
        (<MausAuChocolatCore>cached).s.cfg = cfg_of(game)
        game._compiled_cfg = cached
    return (<MausAuChocolatCore>cached).s.cfg


cdef void sim_range(mc_cfg_t cfg, uint64_t seed, Py_ssize_t start, Py_ssize_t stop,
                    int64_t[:, ::1] scores, uint8_t[:, ::1] winners, int64_t[::1] lengths,
                    uint8_t[::1] truncated) noexcept nogil:
    cdef mc_t s
    cdef rng_t policy
    cdef int w[MC_MAX_PLAYERS]
    cdef int p
    cdef Py_ssize_t i
    s.cfg = cfg
    for i in range(start, stop):
        mc_init(&s, rng_derive(seed, 2 * <uint64_t>i))
        policy = rng_derive(seed, 2 * <uint64_t>i + 1)
        mc_play_random(&s, &policy)
        mc_winners(&s, w)
        for p in range(cfg.n):
            scores[i - start, p] = s.score[p]
            winners[i - start, p] = <uint8_t>w[p]
        lengths[i - start] = s.nactions
        truncated[i - start] = <uint8_t>s.truncated


def _sim_chunk(MausAuChocolatCore proto, uint64_t seed, Py_ssize_t start, Py_ssize_t stop,
               scores, winners, lengths, truncated):
    cdef int64_t[:, ::1] sv = scores
    cdef uint8_t[:, ::1] wv = winners
    cdef int64_t[::1] lv = lengths
    cdef uint8_t[::1] tv = truncated
    cdef mc_cfg_t cfg = proto.s.cfg
    check_sim_rows(sv, wv, lv, tv, start, stop, cfg.n)
    with nogil:
        sim_range(cfg, seed, start, stop, sv, wv, lv, tv)


def bench_combos(MausAuChocolatCore st, int seat, long repeat):
    """Enumerate seat's combinations ``repeat`` times (benchmarks); returns their number."""
    cdef int16_t buf[MC_NUM_ACTIONS]
    cdef int n = 0
    cdef long i
    with nogil:
        for i in range(repeat):
            n = mc_combos(&st.s, seat, buf)
    return n


_PHASES = ("bid", "pick", "combine", "discard", "over")


cdef int seat_arg(object game, int n, object player) except -1:
    """``player`` as a seat 0..n-1: a plain int in range at C speed, anything else
    through ``_api.check_seat`` (numpy integers; its TypeError / ValueError otherwise)."""
    cdef long v
    cdef int overflow = 0
    if type(player) is int:
        v = PyLong_AsLongAndOverflow(player, &overflow)
        if overflow == 0 and 0 <= v < n:
            return <int>v
    from mousehole._api import check_seat
    return check_seat(game, player, "player")


cdef bint out_ok(object out, int typenum, cnp.npy_intp size):
    """True if ``out`` is a writable C-contiguous 1-d numpy array of ``size`` elements of
    native type ``typenum`` (what ``_api.check_out`` accepts for these shapes)."""
    cdef cnp.ndarray a
    if not isinstance(out, cnp.ndarray):
        return False
    a = <cnp.ndarray>out
    return (cnp.PyArray_TYPE(a) == typenum and cnp.PyArray_ISNOTSWAPPED(a)
            and cnp.PyArray_NDIM(a) == 1 and cnp.PyArray_DIM(a, 0) == size
            and cnp.PyArray_IS_C_CONTIGUOUS(a) and cnp.PyArray_ISWRITEABLE(a))


cdef object check_out_slow(object out, tuple shape, object dtype):
    """``_api.check_out``: raises its TypeError / ValueError for a bad ``out``."""
    from mousehole._api import check_out
    return check_out(out, shape, dtype, "out")


# ---- the Python-facing class ------------------------------------------------------------------

cdef class MausAuChocolatCore:
    """Compiled Maus au Chocolat state. Use ``game.new_state(seed)``; the public class is
    ``mousehole.maus_au_chocolat.CompiledMausAuChocolatState`` (this core + the shared API)."""

    def __dealloc__(self):
        if self.hist != NULL:
            free(self.hist)
            self.hist = NULL

    cdef int _record(self, int a) except -1:
        hist_reserve(&self.hist, &self.hist_cap, self.s.nactions + 1)
        self.hist[self.s.nactions] = <uint16_t>a
        return 0

    @classmethod
    def new(cls, game, uint64_t seed):
        cdef MausAuChocolatCore st = MausAuChocolatCore.__new__(cls)
        st.game = game
        st.s.cfg = game_cfg(game)
        mc_init(&st.s, seed)
        return st

    @classmethod
    def from_dict(cls, game, dict d):
        """Build from a dict already checked by ``game._validate_dict``."""
        cdef MausAuChocolatCore st = MausAuChocolatCore.__new__(cls)
        cdef mc_t* s = &st.s
        cdef int i, q, c
        st.game = game
        s.cfg = game_cfg(game)
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
        for c in range(MC_CARDS):
            s.pool[c] = d["pools"][c]
        for q in range(n):
            for c in d["hands"][q]:
                hand_add(s, q, c)
            for c in d["known"][q]:
                s.known[c] = 1
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
            st._record(a)
            s.nactions += 1
        return st

    def clone(self):
        """An independent copy (one struct copy and the history buffer)."""
        cdef MausAuChocolatCore c = MausAuChocolatCore.__new__(type(self))
        c.game = self.game
        c.s = self.s
        if self.s.nactions:
            c.hist = <uint16_t*>malloc(self.hist_cap * sizeof(uint16_t))
            if c.hist == NULL:
                raise MemoryError()
            memcpy(c.hist, self.hist, self.s.nactions * sizeof(uint16_t))
            c.hist_cap = self.hist_cap
        return c


    @property
    def current_player(self):
        return mc_current(&self.s)

    def is_terminal(self):
        return self.s.phase == PH_OVER

    @property
    def truncated(self):
        return bool(self.s.truncated)

    @property
    def history(self):
        return [self.hist[i] for i in range(self.s.nactions)]

    def legal_actions(self):
        cdef int16_t buf[MC_NUM_ACTIONS]
        cdef cnp.npy_intp dim = mc_legal(&self.s, buf)
        cdef cnp.ndarray arr = cnp.PyArray_EMPTY(1, &dim, cnp.NPY_INT64, 0)
        cdef int64_t* out = <int64_t*>cnp.PyArray_DATA(arr)
        cdef int i
        for i in range(dim):
            out[i] = buf[i]
        return arr

    def legal_action_mask(self, out=None):
        """Boolean mask of length ``game.num_actions``, True at the legal actions, written
        straight from the state; into ``out`` (a writable C-contiguous bool array of that
        length) when given."""
        cdef cnp.npy_intp dim = MC_NUM_ACTIONS
        cdef cnp.ndarray arr
        if out is None:
            arr = cnp.PyArray_ZEROS(1, &dim, cnp.NPY_BOOL, 0)
        elif out_ok(out, cnp.NPY_BOOL, dim):
            arr = <cnp.ndarray>out
            memset(cnp.PyArray_DATA(arr), 0, dim)
        else:
            check_out_slow(out, (dim,), np.bool_)
            out[...] = self.legal_action_mask()  # accepted there though not by out_ok
            return out
        mc_legal_mask(&self.s, <uint8_t*>cnp.PyArray_DATA(arr))
        return arr

    def observation(self, player, out=None):
        """Seat ``player``'s observation tensor, of shape ``game.observation_shape``,
        written straight from the state (bit-identical to the reference engine's); into
        ``out`` (a writable C-contiguous float32 array of that shape) when given."""
        cdef mc_t* s = &self.s
        cdef int p = seat_arg(self.game, s.cfg.n, player)
        cdef cnp.npy_intp dim = s.cfg.obs_size
        cdef cnp.ndarray arr
        cdef float* obs
        if out is None:
            arr = cnp.PyArray_ZEROS(1, &dim, cnp.NPY_FLOAT32, 0)
        elif out_ok(out, cnp.NPY_FLOAT32, dim):
            arr = <cnp.ndarray>out
            memset(cnp.PyArray_DATA(arr), 0, dim * sizeof(float))
        else:
            check_out_slow(out, (dim,), np.float32)
            out[...] = self.observation(p)  # accepted there though not by out_ok
            return out
        obs = <float*>cnp.PyArray_DATA(arr)
        mc_observe(s, p, obs)
        if s.cfg.max_turns_f == 0.0:  # max_turns > 2**53: Python's exact int / int
            obs[dim - 1] = <float>(s.round / self.game.max_turns)
        return arr

    def apply_action(self, action):
        """Apply an int action; IllegalMoveError (state unchanged) if the rules forbid it."""
        cdef int64_t a = action_int(action, _np_int64)
        cdef int16_t buf[MC_NUM_ACTIONS]
        cdef int n, lo, hi, mid
        if self.s.phase == PH_OVER or a < 0 or a >= MC_NUM_ACTIONS:
            raise self._illegal(action)
        n = mc_legal(&self.s, buf)
        lo = 0
        hi = n
        while lo < hi:
            mid = (lo + hi) >> 1
            if buf[mid] < a:
                lo = mid + 1
            else:
                hi = mid
        if lo == n or buf[lo] != a:
            raise self._illegal(action)
        self._record(<int>a)
        mc_apply(&self.s, <int>a)

    def scores(self):
        """MC-13: the printed candy values of each seat's victory cards."""
        return [self.s.score[q] for q in range(self.s.cfg.n)]

    def winners(self):
        cdef int w[MC_MAX_PLAYERS]
        if self.s.phase != PH_OVER:
            return []
        mc_winners(&self.s, w)
        return [q for q in range(self.s.cfg.n) if w[q]]

    def _to_dict(self):
        cdef mc_t* s = &self.s
        cdef int q, c, i, n = s.cfg.n
        cdef int lc
        hands = [[s.hand[q][i] for i in range(s.hand_n[q])] for q in range(n)]
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
                       if s.known[c]] for q in range(n)]
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

    def combination_actions(self, int seat):
        """The combination actions of ``seat``'s hand with its helper (MC-29), ascending."""
        cdef int16_t buf[MC_NUM_ACTIONS]
        cdef int n
        if not 0 <= seat < self.s.cfg.n:
            raise ValueError(f"seat {seat} is out of range")
        n = mc_combos(&self.s, seat, buf)
        return [buf[i] for i in range(n)]

    @staticmethod
    def simulate_chunk(game, uint64_t seed, Py_ssize_t start, Py_ssize_t stop,
                       scores, winners, lengths, truncated):
        """Play games ``start .. stop - 1`` of ``mousehole.simulate`` without the GIL; game ``i``
        goes to row ``i - start`` of the result arrays (``winners``, ``truncated`` as uint8 views)."""
        cdef MausAuChocolatCore proto = MausAuChocolatCore.__new__(MausAuChocolatCore)
        proto.s.cfg = game_cfg(game)
        _sim_chunk(proto, seed, start, stop, scores, winners, lengths, truncated)
