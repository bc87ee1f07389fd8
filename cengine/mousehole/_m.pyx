# cython: language_level=3
"""Compiled M engine (rules M-1 .. M-22).

The state is one C struct (``m_t`` in ``_m.pxd``). The table is an 8 x 8 window of
bitboards (one uint64 for the occupied cells, one per colour, per value and per symbol),
re-anchored after every change so that the bounding box starts at window cell (1, 1): the
window never overflows however far the layout drifts, and the absolute coordinates are kept
in two int64 offsets. The hot paths are leaf functions, ``noexcept nogil``, allocating
nothing:

* ``m_place_mask``: the cells where a card may go (M-6, M-7): neighbours of the table,
  minus the cells next to a card that shares no attribute with it (4 shifts);
* ``m_line``: the run through a cell and the two-match test of M-12;
* ``m_connected_without``: the connectivity test of M-13(b) for one candidate take (a
  bitboard flood fill that stops as soon as every neighbour of the removed card is reached).

The pure-Python reference is ``mousehole/m.py``; both give the same game, bit for bit.
"""

cimport numpy as cnp
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memset, memcpy
from cpython.long cimport PyLong_AsLongLongAndOverflow

from mousehole._common cimport (
    action_int,
    array_reserve,
    check_sim_rows,
    uint8_t, int8_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t, rng_t,
    rng_below, rng_derive, rng_shuffle_u8, popcount64, ctz64, TERMINAL_SEAT,
)

import numpy as np

cnp.import_array()
_np_int64 = np.int64

cdef uint64_t ROW0 = <uint64_t>0xFF
cdef uint64_t ROW7 = <uint64_t>0xFF00000000000000ULL
cdef uint64_t COL0 = <uint64_t>0x0101010101010101ULL
cdef uint64_t COL7 = <uint64_t>0x8080808080808080ULL
cdef uint64_t ALL = <uint64_t>0xFFFFFFFFFFFFFFFFULL

PHASES = ("play", "choose", "take", "over")
ENDS = (None, "M-16", "M-17", "M-18", "max_turns")

# ---- leaf functions -------------------------------------------------------------------------

cdef inline uint64_t nbrs(uint64_t b) noexcept nogil:
    """The cells orthogonally adjacent to b (b within window rows/cols 1..6: no wrap)."""
    return (b << 1) | (b >> 1) | (b << 8) | (b >> 8)


cdef inline int m_match(const m_cfg_t* c, int a, int b) noexcept nogil:
    """How many attributes cards a and b share (M-6, M-12); value-0 cards have no symbol."""
    return ((c.colour[a] == c.colour[b]) + (c.vidx[a] == c.vidx[b])
            + (c.sym[a] != M_NO_SYMBOL and c.sym[a] == c.sym[b]))


cdef inline uint64_t m_place_mask(const m_t* s, int card) noexcept nogil:
    """Window cells where ``card`` may be laid now (M-6 every neighbour matches, M-7)."""
    cdef uint64_t occ = s.occ
    cdef uint64_t match = s.colbb[s.cfg.colour[card]] | s.valbb[s.cfg.vidx[card]]
    cdef uint64_t bad
    if s.cfg.sym[card] != M_NO_SYMBOL:
        match |= s.symbb[s.cfg.sym[card]]
    bad = occ & ~match
    return nbrs(occ) & ~occ & s.area & ~nbrs(bad)


cdef inline bint m_connected_without(uint64_t occ, int cell) noexcept nogil:
    """M-13(b): are the cards of ``occ`` (connected) still connected without ``cell``?"""
    cdef uint64_t bit = (<uint64_t>1) << cell
    cdef uint64_t rest = occ & ~bit
    cdef uint64_t nb = nbrs(bit) & rest
    cdef uint64_t f, g
    if (nb & (nb - 1)) == 0:  # at most one neighbour: a leaf never disconnects
        return True
    # every other card reached b through one of its neighbours, so it is enough that the
    # neighbours are connected to each other in rest
    f = nb & (~nb + 1)
    while True:
        g = (f | nbrs(f)) & rest
        if (g & nb) == nb:
            return True
        if g == f:
            return False
        f = g


cdef inline uint64_t m_take_mask(const m_t* s) noexcept nogil:
    """The cards of the scoring row that may be taken now (M-13 a, b)."""
    cdef uint64_t bits = s.srow, out = 0
    cdef int b
    if (bits & (bits - 1)) == 0:  # M-13(a): at most one card left, it stays
        return 0
    while bits:
        b = ctz64(bits)
        bits &= bits - 1
        if m_connected_without(s.occ, b):
            out |= (<uint64_t>1) << b
    return out


cdef inline uint64_t shift_bb(uint64_t b, int sh) noexcept nogil:
    if sh > 0:
        return b >> sh
    if sh < 0:
        return b << (-sh)
    return b


cdef void m_normalize(m_t* s) noexcept nogil:
    """Re-anchor the window at (top - 1, left - 1) and recompute the M-7 area mask."""
    cdef int r, minr = 8, maxr = -1, minc, maxc, sh, i, b
    cdef uint64_t fold = 0, bits, row
    cdef uint8_t tmp[64]
    for r in range(8):
        row = (s.occ >> (8 * r)) & <uint64_t>0xFF
        if row:
            if r < minr:
                minr = r
            maxr = r
            fold |= row
    minc = ctz64(fold)
    maxc = 7
    while not ((fold >> maxc) & 1):
        maxc -= 1
    sh = (minr - 1) * 8 + (minc - 1)
    if sh != 0:
        memset(tmp, M_EMPTY, 64)
        bits = s.occ
        while bits:
            b = ctz64(bits)
            bits &= bits - 1
            tmp[b - sh] = s.cells[b]
        memcpy(s.cells, tmp, 64)
        s.occ = shift_bb(s.occ, sh)
        s.srow = shift_bb(s.srow, sh)
        for i in range(M_MAX_ATTR):
            s.colbb[i] = shift_bb(s.colbb[i], sh)
            s.valbb[i] = shift_bb(s.valbb[i], sh)
            s.symbb[i] = shift_bb(s.symbb[i], sh)
        s.orow += minr - 1
        s.ocol += minc - 1
    s.area = ALL
    if maxr - minr + 1 >= 6:  # M-7: a seventh row is not allowed
        s.area &= ~(ROW0 | ROW7)
    if maxc - minc + 1 >= 6:
        s.area &= ~(COL0 | COL7)


cdef inline void m_put(m_t* s, int cell, int card) noexcept nogil:
    cdef uint64_t bit = (<uint64_t>1) << cell
    s.cells[cell] = <uint8_t>card
    s.occ |= bit
    s.colbb[s.cfg.colour[card]] |= bit
    s.valbb[s.cfg.vidx[card]] |= bit
    if s.cfg.sym[card] != M_NO_SYMBOL:
        s.symbb[s.cfg.sym[card]] |= bit


cdef inline void m_remove(m_t* s, int cell) noexcept nogil:
    cdef uint64_t keep = ~((<uint64_t>1) << cell)
    cdef int card = s.cells[cell]
    s.cells[cell] = M_EMPTY
    s.occ &= keep
    s.srow &= keep
    s.colbb[s.cfg.colour[card]] &= keep
    s.valbb[s.cfg.vidx[card]] &= keep
    if s.cfg.sym[card] != M_NO_SYMBOL:
        s.symbb[s.cfg.sym[card]] &= keep


cdef inline int m_pop(m_t* s) noexcept nogil:
    """The top card of the pile (pile_n > 0)."""
    s.pile_n -= 1
    return s.pile[(s.pile_b + s.pile_n) & (M_MAX_CARDS - 1)]


cdef inline void hand_add(m_t* s, int p, int card) noexcept nogil:
    cdef int i = s.hand_n[p]
    while i > 0 and s.hand[p][i - 1] > card:
        s.hand[p][i] = s.hand[p][i - 1]
        i -= 1
    s.hand[p][i] = <uint8_t>card
    s.hand_n[p] += 1


cdef inline int hand_remove(m_t* s, int p, int slot) noexcept nogil:
    cdef int card = s.hand[p][slot], i
    for i in range(slot, s.hand_n[p] - 1):
        s.hand[p][i] = s.hand[p][i + 1]
    s.hand_n[p] -= 1
    return card


cdef inline int m_cell_of(const m_t* s, int64_t r, int64_t c) noexcept nogil:
    return <int>((r - s.orow) * 8 + (c - s.ocol))


cdef uint64_t m_line(const m_t* s, int cell, int step) noexcept nogil:
    """M-12: the run through ``cell`` along ``step`` (1 horizontal, 8 vertical) if it
    qualifies (5 or 6 cards, and two matches with a neighbour in the run), else 0."""
    cdef uint64_t run = 0
    cdef int a = cell, b = cell, card = s.cells[cell], n
    while (s.occ >> (a - step)) & 1:
        a -= step
    while (s.occ >> (b + step)) & 1:
        b += step
    n = (b - a) // step + 1
    if n < 5 or n > 6:
        return 0
    if not ((cell != a and m_match(&s.cfg, card, s.cells[cell - step]) >= 2)
            or (cell != b and m_match(&s.cfg, card, s.cells[cell + step]) >= 2)):
        return 0
    while a <= b:
        run |= (<uint64_t>1) << a
        a += step
    return run


cdef bint m_any_placement(const m_t* s) noexcept nogil:
    """M-17: does any card in a hand or in the pile fit anywhere?"""
    cdef int p, i
    if (nbrs(s.occ) & ~s.occ & s.area) == 0:
        return False
    for p in range(s.cfg.n):
        for i in range(s.hand_n[p]):
            if m_place_mask(s, s.hand[p][i]):
                return True
    for i in range(s.pile_n):
        if m_place_mask(s, s.pile[(s.pile_b + i) & (M_MAX_CARDS - 1)]):
            return True
    return False


cdef inline void m_finish(m_t* s, int reason) noexcept nogil:
    s.phase = PH_OVER
    s.end = reason
    s.current = TERMINAL_SEAT
    s.placer = -1
    s.srow = 0


cdef inline void m_check_stuck(m_t* s) noexcept nogil:
    if not m_any_placement(s):  # M-17
        m_finish(s, END_M17)


cdef void m_end_turn(m_t* s) noexcept nogil:
    cdef int p = s.placer
    while s.hand_n[p] < s.cfg.H and s.pile_n > 0:  # M-10
        hand_add(s, p, m_pop(s))
    s.phase = PH_PLAY
    s.current = (p + 1) % s.cfg.n  # M-11: the left neighbour plays next
    s.placer = -1
    m_check_stuck(s)


cdef void m_continue_scoring(m_t* s) noexcept nogil:
    if m_take_mask(s):  # M-14: taking is compulsory while possible
        return
    s.srow = 0
    if s.pile_n == 0:  # M-16
        m_finish(s, END_M16)
    else:
        m_end_turn(s)


cdef inline void m_start_scoring(m_t* s, uint64_t run) noexcept nogil:
    s.srow = run
    s.phase = PH_TAKE
    s.current = s.placer  # M-13: the placer takes first
    m_continue_scoring(s)


cdef void m_place(m_t* s, int p, int slot, int cell) noexcept nogil:
    cdef int card = hand_remove(s, p, slot)
    cdef int need, k, q, pay
    cdef uint64_t h, v
    m_put(s, cell, card)  # M-6
    s.lrow = s.orow + (cell >> 3)
    s.lcol = s.ocol + (cell & 7)
    s.has_last = 1
    s.placer = p
    s.passes = 0
    # M-8: k - 1 chips, from the right neighbour onwards, never from the placer
    need = popcount64(nbrs((<uint64_t>1) << cell) & s.occ) - 1
    k = 1
    while need > 0 and k < s.cfg.n:
        q = (p - k + s.cfg.n) % s.cfg.n
        pay = need if need < s.chips[q] else s.chips[q]
        s.chips[q] -= pay
        s.chips[p] += pay
        need -= pay
        k += 1
    m_normalize(s)
    cell = m_cell_of(s, s.lrow, s.lcol)
    h = m_line(s, cell, 1)  # M-12
    v = m_line(s, cell, 8)
    if h and v:
        s.phase = PH_CHOOSE  # the placer chooses the row
        s.current = p
    elif h:
        m_start_scoring(s, h)
    elif v:
        m_start_scoring(s, v)
    else:
        m_end_turn(s)


cdef void m_take(m_t* s, int p, int cell) noexcept nogil:
    cdef int card = s.cells[cell]
    m_remove(s, cell)
    s.taken[p][s.taken_n[p]] = <uint8_t>card  # M-15
    s.taken_n[p] += 1
    s.tot[p][s.cfg.colour[card]] += s.cfg.value[card]
    s.current = (p + s.cfg.n - 1) % s.cfg.n  # M-13: the next player to the right
    m_normalize(s)
    m_continue_scoring(s)


cdef void m_pass(m_t* s, int p, int slot) noexcept nogil:
    cdef int card
    if s.chips[p] > 0:  # M-9: one chip to the right neighbour
        s.chips[p] -= 1
        s.chips[(p + s.cfg.n - 1) % s.cfg.n] += 1
        if slot >= 0:  # M-9: one card under the pile, draw the top card
            card = hand_remove(s, p, slot)
            s.pile_b = (s.pile_b - 1) & (M_MAX_CARDS - 1)
            s.pile[s.pile_b] = <uint8_t>card
            s.putter[s.pile_b] = <int8_t>p
            s.pile_n += 1
            hand_add(s, p, m_pop(s))
    if s.pile_n == 0:
        s.passes += 1
    else:
        s.passes = 0
    s.placer = -1
    s.current = (p + 1) % s.cfg.n
    if s.passes >= s.cfg.n:  # M-18
        m_finish(s, END_M18)
        return
    m_check_stuck(s)


cdef bint m_is_legal(const m_t* s, int a) noexcept nogil:
    cdef int p = s.current, slot
    if a < 0 or a >= s.cfg.num_actions:
        return False
    if s.phase == PH_PLAY:
        if a < s.cfg.A_PASS:
            slot = a >> 6
            return slot < s.hand_n[p] and ((m_place_mask(s, s.hand[p][slot]) >> (a & 63)) & 1)
        if a == s.cfg.A_PASS:
            return True  # M-9: passing is always allowed
        if a < s.cfg.A_ROW:
            return a - s.cfg.A_EXCH < s.hand_n[p] and s.chips[p] > 0 and s.pile_n > 0
        return False
    if s.phase == PH_CHOOSE:
        return s.cfg.A_ROW <= a < s.cfg.A_TAKE
    if s.phase == PH_TAKE:
        return a >= s.cfg.A_TAKE and ((m_take_mask(s) >> (a - s.cfg.A_TAKE)) & 1)
    return False


cdef void m_apply(m_t* s, int a) noexcept nogil:
    """Apply a legal action (checked by the caller)."""
    cdef int p = s.current, cell
    if a < s.cfg.A_PASS:
        m_place(s, p, a >> 6, a & 63)
    elif a < s.cfg.A_ROW:
        m_pass(s, p, -1 if a == s.cfg.A_PASS else a - s.cfg.A_EXCH)
    elif a < s.cfg.A_TAKE:
        cell = m_cell_of(s, s.lrow, s.lcol)
        m_start_scoring(s, m_line(s, cell, 1 if a == s.cfg.A_ROW else 8))
    else:
        m_take(s, p, a - s.cfg.A_TAKE)
    s.n_hist += 1
    if s.phase != PH_OVER and s.n_hist >= s.cfg.max_turns:
        m_finish(s, END_MAX_TURNS)


cdef int m_legal(const m_t* s, int32_t* out) noexcept nogil:
    """The legal actions, ascending, into out (room for num_actions); returns their number."""
    cdef int p = s.current, n = 0, i, b
    cdef uint64_t bits
    if s.phase == PH_PLAY:
        for i in range(s.hand_n[p]):
            bits = m_place_mask(s, s.hand[p][i])
            while bits:
                b = ctz64(bits)
                bits &= bits - 1
                out[n] = (i << 6) | b
                n += 1
        out[n] = s.cfg.A_PASS
        n += 1
        if s.chips[p] > 0 and s.pile_n > 0:
            for i in range(s.hand_n[p]):
                out[n] = s.cfg.A_EXCH + i
                n += 1
    elif s.phase == PH_CHOOSE:
        out[0] = s.cfg.A_ROW
        out[1] = s.cfg.A_ROW + 1
        n = 2
    elif s.phase == PH_TAKE:
        bits = m_take_mask(s)
        while bits:
            b = ctz64(bits)
            bits &= bits - 1
            out[n] = s.cfg.A_TAKE + b
            n += 1
    return n


cdef void m_legal_mask(const m_t* s, uint8_t* out) noexcept nogil:
    """The legal actions as a mask: ``out`` (num_actions bytes, zero-filled by the caller)
    gets 1 at each action that ``m_legal`` lists (M-6, M-7, M-9, M-12, M-13)."""
    cdef int p = s.current, i
    cdef uint64_t bits
    if s.phase == PH_PLAY:
        for i in range(s.hand_n[p]):
            bits = m_place_mask(s, s.hand[p][i])
            while bits:
                out[(i << 6) | ctz64(bits)] = 1
                bits &= bits - 1
        out[s.cfg.A_PASS] = 1
        if s.chips[p] > 0 and s.pile_n > 0:
            for i in range(s.hand_n[p]):
                out[s.cfg.A_EXCH + i] = 1
    elif s.phase == PH_CHOOSE:
        out[s.cfg.A_ROW] = 1
        out[s.cfg.A_ROW + 1] = 1
    elif s.phase == PH_TAKE:
        bits = m_take_mask(s)
        while bits:
            out[s.cfg.A_TAKE + ctz64(bits)] = 1
            bits &= bits - 1


# ---- observation (docs/games/m.md, "Observation") --------------------------------------------

cdef inline int m_num_channels(const m_cfg_t* c) noexcept nogil:
    """Planes of 8 x 8: table (1 + F), scoring row, two choice runs, last cell, H hand slots
    of F, per seat 2 + nc, pile size and own pile cards, phase (3), seat to move (n)."""
    return 1 + c.F + 4 + c.H * c.F + c.n * (2 + c.nc) + 2 + 3 + c.n


cdef inline void fill_plane(float* plane, float v) noexcept nogil:
    cdef int i
    for i in range(M_W * M_W):
        plane[i] = v


cdef inline void set_cells(float* plane, uint64_t bits) noexcept nogil:
    """1.0 at every window cell of ``bits``."""
    while bits:
        plane[ctz64(bits)] = 1.0
        bits &= bits - 1


cdef inline uint64_t m_run(uint64_t occ, int cell, int step) noexcept nogil:
    """M-12(a): the unbroken run of cards through the occupied ``cell`` along ``step`` (1
    horizontal, 8 vertical), qualifying or not (cards lie in window rows/cols 1..6: no wrap)."""
    cdef uint64_t run = 0
    cdef int a = cell
    while (occ >> (a - step)) & 1:
        a -= step
    while (occ >> a) & 1:
        run |= (<uint64_t>1) << a
        a += step
    return run


cdef void m_observation(const m_t* s, int p, float* obs) noexcept nogil:
    """Seat ``p``'s observation into ``obs`` (``channels`` x 64 floats, zero-filled by the
    caller), the layout of ``M._observation``, value for value: the window is the one of the
    struct (origin (top - 1, left - 1), as the reference's), ratios are computed in double and
    rounded once to float32, as numpy does when it stores a Python float."""
    cdef const m_cfg_t* c = &s.cfg
    cdef int n = c.n, nc = c.nc, F = c.F
    cdef int ch, k, q, col, i, b, card, base, mine
    cdef int64_t r, cc
    cdef uint64_t bits = s.occ
    while bits:  # occupied, then the attributes of each card on the table (M-1)
        b = ctz64(bits)
        bits &= bits - 1
        card = s.cells[b]
        obs[b] = 1.0
        obs[(1 + c.colour[card]) * 64 + b] = 1.0
        obs[(1 + nc + c.vidx[card]) * 64 + b] = 1.0
        if c.sym[card] != M_NO_SYMBOL:
            obs[(1 + nc + c.nv + c.sym[card]) * 64 + b] = 1.0
    ch = 1 + F
    set_cells(obs + ch * 64, s.srow)  # M-13: the cards of the scoring row still there
    ch += 1
    if s.has_last:
        r = s.lrow - s.orow
        cc = s.lcol - s.ocol
        if 0 <= r < M_W and 0 <= cc < M_W:
            b = <int>(r * M_W + cc)
            if s.phase == PH_CHOOSE and (s.occ >> b) & 1:  # M-12: the two qualifying runs
                set_cells(obs + ch * 64, m_run(s.occ, b, 1))
                set_cells(obs + (ch + 1) * 64, m_run(s.occ, b, 8))
            obs[(ch + 2) * 64 + b] = 1.0
    ch += 3
    for i in range(s.hand_n[p]):  # M-22: the own hand only, one block of F planes per slot
        card = s.hand[p][i]
        base = ch + i * F
        fill_plane(obs + (base + c.colour[card]) * 64, 1.0)
        fill_plane(obs + (base + nc + c.vidx[card]) * 64, 1.0)
        if c.sym[card] != M_NO_SYMBOL:
            fill_plane(obs + (base + nc + c.nv + c.sym[card]) * 64, 1.0)
    ch += c.H * F
    for k in range(n):  # per seat from p leftwards: chips (M-2), hand size, colour totals (M-15)
        q = (p + k) % n
        fill_plane(obs + ch * 64, <float>(<double>s.chips[q] / 10.0))
        fill_plane(obs + (ch + 1) * 64, <float>s.hand_n[q])
        for col in range(nc):
            if s.tot[q][col]:
                fill_plane(obs + (ch + 2 + col) * 64, <float>(<double>s.tot[q][col] / 100.0))
        ch += 2 + nc
    fill_plane(obs + ch * 64, <float>(<double>s.pile_n / 10.0))
    mine = 0
    for i in range(s.pile_n):  # M-9, M-22: the cards p slid under the pile
        mine += s.putter[(s.pile_b + i) & (M_MAX_CARDS - 1)] == p
    if mine:
        fill_plane(obs + (ch + 1) * 64, <float>mine)
    ch += 2
    if s.phase != PH_OVER:
        fill_plane(obs + (ch + s.phase) * 64, 1.0)  # PH_PLAY, PH_CHOOSE, PH_TAKE = 0, 1, 2
        fill_plane(obs + (ch + 3 + (s.current - p + n) % n) * 64, 1.0)


cdef void m_clear_table(m_t* s) noexcept nogil:
    s.occ = 0
    s.srow = 0
    memset(s.colbb, 0, sizeof(s.colbb))
    memset(s.valbb, 0, sizeof(s.valbb))
    memset(s.symbb, 0, sizeof(s.symbb))
    memset(s.cells, M_EMPTY, 64)


cdef void m_init(m_t* s, uint64_t seed) noexcept nogil:
    """M-3 .. M-5: one shuffle, the removed cards, the start M, the hands, the chips."""
    cdef uint8_t deck[M_MAX_CARDS]
    cdef uint8_t out[M_MAX_CARDS]
    cdef int i, p, k, N = s.cfg.n_cards
    cdef int64_t minr, minc
    s.rng = seed
    for i in range(N):
        deck[i] = <uint8_t>i
    rng_shuffle_u8(&s.rng, deck, N)
    memset(out, 0, M_MAX_CARDS)
    for i in range(s.cfg.in_play, N):  # M-3: removed unseen
        out[deck[i]] = 1
    s.n_removed = 0
    for i in range(N):
        if out[i]:
            s.removed[s.n_removed] = <uint8_t>i
            s.n_removed += 1
    s.pile_b = 0
    s.pile_n = s.cfg.in_play
    for i in range(s.cfg.in_play):
        s.pile[i] = deck[i]
        s.putter[i] = -1
    m_clear_table(s)
    minr = s.cfg.lay_r[0]
    minc = s.cfg.lay_c[0]
    for i in range(s.cfg.n_layout):
        if s.cfg.lay_r[i] < minr:
            minr = s.cfg.lay_r[i]
        if s.cfg.lay_c[i] < minc:
            minc = s.cfg.lay_c[i]
    s.orow = minr - 1
    s.ocol = minc - 1
    for i in range(s.cfg.n_layout):  # M-4
        m_put(s, m_cell_of(s, s.cfg.lay_r[i], s.cfg.lay_c[i]), m_pop(s))
    m_normalize(s)
    for p in range(s.cfg.n):  # M-5: seat 0 draws first
        s.hand_n[p] = 0
        for k in range(s.cfg.H):
            if s.pile_n > 0:
                hand_add(s, p, m_pop(s))
        s.chips[p] = s.cfg.chips  # M-2
        s.taken_n[p] = 0
        for k in range(M_MAX_ATTR):
            s.tot[p][k] = 0
    s.has_last = 0
    s.lrow = 0
    s.lcol = 0
    s.phase = PH_PLAY
    s.current = 0
    s.placer = -1
    s.passes = 0
    s.end = END_NONE
    s.n_hist = 0
    m_check_stuck(s)


cdef void m_scores(const m_t* s, int64_t* out) noexcept nogil:
    """M-20: 10 x chips + the two best colour totals - every other colour total."""
    cdef int p, k, b1, b2, t, total
    for p in range(s.cfg.n):
        b1 = -1
        b2 = -1
        total = 0
        for k in range(M_MAX_ATTR):
            t = s.tot[p][k]
            total += t
            if t > b1:
                b2 = b1
                b1 = t
            elif t > b2:
                b2 = t
        out[p] = 10 * s.chips[p] + 2 * (b1 + b2) - total


cdef int m_winner_mask(const m_t* s) noexcept nogil:
    cdef int64_t sc[M_MAX_PLAYERS]
    cdef int p, mask = 0
    cdef int64_t best
    m_scores(s, sc)
    best = sc[0]
    for p in range(s.cfg.n):
        if sc[p] > best:
            best = sc[p]
    for p in range(s.cfg.n):
        if sc[p] == best:
            mask |= 1 << p
    return mask


cdef void m_play_random(m_t* s, rng_t* policy) noexcept nogil:
    cdef int32_t acts[M_W * M_W * M_MAX_HAND + M_MAX_HAND + 3 + 64]
    cdef int n
    while s.phase != PH_OVER:
        n = m_legal(s, acts)
        m_apply(s, acts[rng_below(policy, <uint32_t>n)])


# ---- configuration ----------------------------------------------------------------------------

cdef m_cfg_t cfg_of(object game) except *:
    cdef m_cfg_t cfg
    cdef int i
    memset(&cfg, 0, sizeof(cfg))
    cfg.n = game.num_players
    cfg.H = game.H
    cfg.n_cards = game.n_cards
    cfg.in_play = game.in_play
    cfg.chips = game.start_chips
    cfg.max_turns = game.max_turns if game.max_turns < (1 << 62) else (1 << 62)
    cfg.A_PASS = game.A_PASS
    cfg.A_EXCH = game.A_EXCH
    cfg.A_ROW = game.A_ROW
    cfg.A_TAKE = game.A_TAKE
    cfg.num_actions = game.num_actions
    cfg.nc = len(game.colours)
    cfg.nv = len(game.values)
    cfg.ns = len(game.symbols)
    cfg.F = cfg.nc + cfg.nv + cfg.ns
    cfg.channels = m_num_channels(&cfg)
    if cfg.channels != game.observation_shape[0] or tuple(game.observation_shape[1:]) != (M_W, M_W):
        raise RuntimeError(f"m: observation shape {game.observation_shape} is not the compiled layout")
    for i in range(game.n_cards):
        cfg.colour[i] = game.colour_of[i]
        cfg.vidx[i] = game.vindex_of[i]
        cfg.sym[i] = M_NO_SYMBOL if game.symbol_of[i] < 0 else game.symbol_of[i]
        cfg.value[i] = game.value_of[i]
    cfg.n_layout = len(game.layout)
    for i, (r, c) in enumerate(game.layout):
        cfg.lay_r[i] = r
        cfg.lay_c[i] = c
    return cfg


cdef m_cfg_t game_cfg(object game) except *:
    cached = getattr(game, "_compiled_cfg", None)
    if cached is None:
        cached = MCore.__new__(MCore)
        (<MCore>cached).s.cfg = cfg_of(game)
        game._compiled_cfg = cached
    return (<MCore>cached).s.cfg


cdef void sim_range(const m_cfg_t* cfg, uint64_t seed, Py_ssize_t start, Py_ssize_t stop,
                    int64_t[:, ::1] scores, uint8_t[:, ::1] winners, int64_t[::1] lengths,
                    uint8_t[::1] truncated) noexcept nogil:
    cdef m_t s
    cdef rng_t policy
    cdef int64_t sc[M_MAX_PLAYERS]
    cdef int p, mask
    cdef Py_ssize_t i
    s.cfg = cfg[0]
    for i in range(start, stop):
        m_init(&s, rng_derive(seed, 2 * <uint64_t>i))
        policy = rng_derive(seed, 2 * <uint64_t>i + 1)
        m_play_random(&s, &policy)
        m_scores(&s, sc)
        mask = m_winner_mask(&s)
        for p in range(cfg.n):
            scores[i - start, p] = sc[p]
            winners[i - start, p] = (mask >> p) & 1
        lengths[i - start] = s.n_hist
        truncated[i - start] = s.end == END_MAX_TURNS


def _sim_chunk(MCore proto, uint64_t seed, Py_ssize_t start, Py_ssize_t stop,
               scores, winners, lengths, truncated):
    cdef int64_t[:, ::1] sv = scores
    cdef uint8_t[:, ::1] wv = winners
    cdef int64_t[::1] lv = lengths
    cdef uint8_t[::1] tv = truncated
    check_sim_rows(sv, wv, lv, tv, start, stop, proto.s.cfg.n)
    with nogil:
        sim_range(&proto.s.cfg, seed, start, stop, sv, wv, lv, tv)


# ---- microbenchmark entry points (benchmarks/bench_m.py) ---------------------------------------

def _bench_connectivity(MCore st, long reps):
    """Run the M-13(b) test for every card of the table, ``reps`` times; returns
    (number of tests, number that stayed connected)."""
    cdef long k, tests = 0, ok = 0
    cdef uint64_t bits
    cdef int b
    with nogil:
        for k in range(reps):
            bits = st.s.occ
            while bits:
                b = ctz64(bits)
                bits &= bits - 1
                ok += m_connected_without(st.s.occ, b)
                tests += 1
    return tests, ok


def _bench_legal(MCore st, long reps):
    """Compute the legal actions into a C buffer ``reps`` times; returns their number."""
    cdef int32_t acts[M_W * M_W * M_MAX_HAND + M_MAX_HAND + 3 + 64]
    cdef long k, total = 0
    with nogil:
        for k in range(reps):
            total += m_legal(&st.s, acts)
    return total


# ---- the Python-facing class ------------------------------------------------------------------

cdef inline int log_reserve(m_log_t** buf, Py_ssize_t* cap, Py_ssize_t need) except -1:
    """``array_reserve`` for the action array (history and log entries; 64 at first)."""
    return array_reserve(<void**>buf, cap, need, sizeof(m_log_t), 64)


cdef int seat_of(MCore st, object player) except -1:
    """``player`` as a seat of the game: an int or a numpy int64 in range at once, anything
    else through ``_api.check_seat`` (its TypeError / ValueError, or the seat it accepts)."""
    cdef long long v = -1
    cdef int overflow = 0
    if type(player) is int:
        v = PyLong_AsLongLongAndOverflow(player, &overflow)
    elif type(player) is _np_int64:
        cnp.PyArray_ScalarAsCtype(player, &v)
    if overflow == 0 and 0 <= v < st.s.cfg.n:
        return <int>v
    from mousehole._api import check_seat
    return <int>check_seat(st.game, player, "player")


cdef cnp.ndarray out_array(object out, int typenum, int ndim, cnp.npy_intp* dims, object dtype):
    """The array to write into, zero-filled: a new one when ``out`` is None, else ``out``
    once it is a writable, C-contiguous, native-order numpy array of this type and shape.
    Anything else goes to ``_api.check_out``, which raises its TypeError / ValueError naming
    what is wrong before anything is written (should it accept an array refused here, a new
    array is returned: the caller copies it into ``out``)."""
    cdef cnp.ndarray a
    cdef int i
    cdef bint ok
    if out is None:
        return cnp.PyArray_ZEROS(ndim, dims, typenum, 0)
    ok = isinstance(out, cnp.ndarray)
    if ok:
        a = <cnp.ndarray>out
        ok = (cnp.PyArray_TYPE(a) == typenum and cnp.PyArray_ISNOTSWAPPED(a)
              and cnp.PyArray_NDIM(a) == ndim and cnp.PyArray_IS_C_CONTIGUOUS(a)
              and cnp.PyArray_ISWRITEABLE(a))
        for i in range(ndim):
            ok = ok and cnp.PyArray_DIMS(a)[i] == dims[i]
    if not ok:
        from mousehole._api import check_out
        check_out(out, tuple([dims[i] for i in range(ndim)]), dtype, "out")
        return cnp.PyArray_ZEROS(ndim, dims, typenum, 0)
    memset(cnp.PyArray_DATA(a), 0, <size_t>cnp.PyArray_NBYTES(a))
    return a


cdef class MCore:
    """Compiled M state. Use ``game.new_state(seed)``; the public class is
    ``mousehole.m.CompiledMState`` (this core + the shared API)."""

    def __dealloc__(self):
        free(self.log)

    cdef int _reserve(self, Py_ssize_t need) except -1:
        return log_reserve(&self.log, &self.log_cap, need)

    cdef int _record(self, int a) except -1:
        """Append legal action ``a`` (not applied yet) and its public facts: the card laid
        or taken and its absolute cell (M-22)."""
        cdef m_t* s = &self.s
        cdef m_log_t* e
        cdef int cell
        if s.n_hist >= self.log_cap:
            log_reserve(&self.log, &self.log_cap, s.n_hist + 1)
        e = &self.log[s.n_hist]
        e.action = <uint16_t>a
        e.seat = <int8_t>s.current
        if a < s.cfg.A_PASS:
            cell = a & 63
            e.card = <int8_t>s.hand[s.current][a >> 6]
        elif a >= s.cfg.A_TAKE:
            cell = a - s.cfg.A_TAKE
            e.card = <int8_t>s.cells[cell]
        else:
            e.card = M_LOG_EXCHANGE if s.cfg.A_EXCH <= a < s.cfg.A_ROW else M_LOG_NONE
            e.dr = 0
            e.dc = 0
            return 0
        e.dr = <int16_t>(s.orow + (cell >> 3) - self.log_r)
        e.dc = <int16_t>(s.ocol + (cell & 7) - self.log_c)
        return 0

    @classmethod
    def new(cls, game, uint64_t seed):
        cdef MCore st = MCore.__new__(cls)
        st.game = game
        st.s.cfg = game_cfg(game)
        m_init(&st.s, seed)
        st.log_r = st.s.orow
        st.log_c = st.s.ocol
        return st

    @classmethod
    def from_dict(cls, game, dict d):
        """Build from a dict already checked by ``game._validate_dict``."""
        cdef MCore st = MCore.__new__(cls)
        cdef m_t* s = &st.s
        cdef int i, p, k
        st.game = game
        s.cfg = game_cfg(game)
        m_clear_table(s)
        s.orow = min(e[0] for e in d["table"]) - 1
        s.ocol = min(e[1] for e in d["table"]) - 1
        for r, c, card in d["table"]:
            m_put(s, m_cell_of(s, r, c), card)
        for r, c in d["scoring_row"]:
            s.srow |= (<uint64_t>1) << m_cell_of(s, r, c)
        m_normalize(s)
        for p in range(s.cfg.n):
            s.hand_n[p] = 0
            for card in d["hands"][p]:
                hand_add(s, p, card)
            s.chips[p] = d["chips"][p]
            s.taken_n[p] = 0
            for k in range(M_MAX_ATTR):
                s.tot[p][k] = 0
            for card in d["taken"][p]:
                s.taken[p][s.taken_n[p]] = card
                s.taken_n[p] += 1
                s.tot[p][s.cfg.colour[card]] += s.cfg.value[card]
        s.pile_b = 0
        s.pile_n = len(d["pile"])
        for i in range(s.pile_n):
            s.pile[i] = d["pile"][i]
            s.putter[i] = d["pile_putter"][i]
        s.n_removed = len(d["removed"])
        for i in range(s.n_removed):
            s.removed[i] = d["removed"][i]
        s.phase = PHASES.index(d["phase"])
        s.current = d["current"]
        s.placer = d["placer"]
        if d["last"] is None:
            s.has_last = 0
            s.lrow = 0
            s.lcol = 0
        else:
            s.has_last = 1
            s.lrow = d["last"][0]
            s.lcol = d["last"][1]
        s.passes = d["passes"]
        s.end = ENDS.index(d["end"])
        s.rng = d["rng"]
        s.n_hist = 0
        st.log_r = s.orow
        st.log_c = s.ocol
        history, log = d["history"], d["log"]
        st._reserve(len(history))
        for i in range(len(history)):
            e = log[i]
            st.log[i].action = <uint16_t>history[i]
            st.log[i].seat = <int8_t>e[0]
            st.log[i].card = <int8_t>e[1]
            if e[1] >= 0:  # within M_LOG_REACH of the table (validated)
                st.log[i].dr = <int16_t>(e[2] - st.log_r)
                st.log[i].dc = <int16_t>(e[3] - st.log_c)
            else:
                st.log[i].dr = 0
                st.log[i].dc = 0
        s.n_hist = len(history)
        return st

    def clone(self):
        """An independent copy (one struct copy and the action array)."""
        cdef MCore c = MCore.__new__(type(self))
        cdef Py_ssize_t n = self.s.n_hist
        c.game = self.game
        c.s = self.s
        c.log_r = self.log_r
        c.log_c = self.log_c
        if n:
            c.log = <m_log_t*>malloc((n + 16) * sizeof(m_log_t))
            if c.log == NULL:
                raise MemoryError()
            c.log_cap = n + 16
            memcpy(c.log, self.log, n * sizeof(m_log_t))
        return c


    @property
    def current_player(self):
        return self.s.current if self.s.phase != PH_OVER else TERMINAL_SEAT

    def is_terminal(self):
        return self.s.phase == PH_OVER

    @property
    def truncated(self):
        return self.s.end == END_MAX_TURNS

    @property
    def history(self):
        return [self.log[i].action for i in range(self.s.n_hist)]

    def legal_actions(self):
        cdef int32_t acts[M_W * M_W * M_MAX_HAND + M_MAX_HAND + 3 + 64]
        cdef cnp.npy_intp dim = m_legal(&self.s, acts)
        cdef cnp.ndarray arr = cnp.PyArray_EMPTY(1, &dim, cnp.NPY_INT64, 0)
        cdef int64_t* out = <int64_t*>cnp.PyArray_DATA(arr)
        cdef int i
        for i in range(dim):
            out[i] = acts[i]
        return arr

    def legal_action_mask(self, out=None):
        """Boolean mask of length ``game.num_actions``, True at the legal actions, written
        straight from the struct; into ``out`` (a writable C-contiguous bool array of that
        length) when given, else into a new array."""
        cdef cnp.npy_intp dim = self.s.cfg.num_actions
        cdef cnp.ndarray arr = out_array(out, cnp.NPY_BOOL, 1, &dim, np.bool_)
        m_legal_mask(&self.s, <uint8_t*>cnp.PyArray_DATA(arr))
        if out is None or arr is out:
            return arr
        out[...] = arr
        return out

    def observation(self, player, out=None):
        """Seat ``player``'s observation (float32, ``game.observation_shape``), written
        straight from the struct, the same bit for bit as the reference engine's; into
        ``out`` (a writable C-contiguous float32 array of that shape) when given."""
        cdef int p = seat_of(self, player)
        cdef cnp.npy_intp dims[3]
        cdef cnp.ndarray arr
        dims[0] = self.s.cfg.channels
        dims[1] = M_W
        dims[2] = M_W
        arr = out_array(out, cnp.NPY_FLOAT32, 3, dims, np.float32)
        m_observation(&self.s, p, <float*>cnp.PyArray_DATA(arr))
        if out is None or arr is out:
            return arr
        out[...] = arr
        return out

    def apply_action(self, action):
        """Apply an int action (docs/games/m.md); IllegalMoveError if not allowed."""
        cdef int64_t a = action_int(action, _np_int64)
        if a < 0 or a >= self.s.cfg.num_actions or not m_is_legal(&self.s, <int>a):
            raise self._illegal(action)
        self._record(<int>a)
        m_apply(&self.s, <int>a)

    def scores(self):
        """M-20, defined at any time (hand cards never count, M-19)."""
        cdef int64_t sc[M_MAX_PLAYERS]
        m_scores(&self.s, sc)
        return [sc[p] for p in range(self.s.cfg.n)]

    def winners(self):
        """M-21: the highest score wins; ties are shared."""
        if self.s.phase != PH_OVER:
            return []
        cdef int mask = m_winner_mask(&self.s)
        return [p for p in range(self.s.cfg.n) if (mask >> p) & 1]

    def _to_dict(self):
        cdef m_t* s = &self.s
        cdef int p, i, b
        cdef m_log_t* e
        cdef uint64_t bits = s.occ
        table = []
        while bits:
            b = ctz64(bits)
            bits &= bits - 1
            table.append([s.orow + (b >> 3), s.ocol + (b & 7), s.cells[b]])
        srow = []
        bits = s.srow
        while bits:
            b = ctz64(bits)
            bits &= bits - 1
            srow.append([s.orow + (b >> 3), s.ocol + (b & 7)])
        d = self.game._header()
        d["table"] = table
        d["hands"] = [[s.hand[p][i] for i in range(s.hand_n[p])] for p in range(s.cfg.n)]
        d["pile"] = [s.pile[(s.pile_b + i) & (M_MAX_CARDS - 1)] for i in range(s.pile_n)]
        d["pile_putter"] = [s.putter[(s.pile_b + i) & (M_MAX_CARDS - 1)] for i in range(s.pile_n)]
        d["removed"] = [s.removed[i] for i in range(s.n_removed)]
        d["chips"] = [s.chips[p] for p in range(s.cfg.n)]
        d["taken"] = [[s.taken[p][i] for i in range(s.taken_n[p])] for p in range(s.cfg.n)]
        d["phase"] = PHASES[s.phase]
        d["current"] = self.current_player
        d["placer"] = s.placer
        d["last"] = [s.lrow, s.lcol] if s.has_last else None
        d["scoring_row"] = srow
        d["passes"] = s.passes
        d["end"] = ENDS[s.end]
        d["truncated"] = s.end == END_MAX_TURNS
        d["rng"] = s.rng
        d["history"] = self.history
        log = []
        for i in range(s.n_hist):
            e = &self.log[i]
            if e.card >= 0:
                log.append([e.seat, e.card, self.log_r + e.dr, self.log_c + e.dc])
            else:
                log.append([e.seat, e.card, 0, 0])
        d["log"] = log
        return d

    @staticmethod
    def simulate_chunk(game, uint64_t seed, Py_ssize_t start, Py_ssize_t stop,
                       scores, winners, lengths, truncated):
        """Play games ``start .. stop - 1`` of ``mousehole.simulate`` without the GIL; game ``i``
        goes to row ``i - start`` of the result arrays (``winners``, ``truncated`` as uint8 views)."""
        cdef MCore proto = MCore.__new__(MCore)
        proto.s.cfg = game_cfg(game)
        _sim_chunk(proto, seed, start, stop, scores, winners, lengths, truncated)
