# cython: language_level=3
"""Compiled M engine (rules M-1 .. M-22).

The state is one C struct (``m_t`` in ``_m.pxd``). The table is an 8 x 8 window of
bitboards (one uint64 for the occupied cells, one per colour, per value and per symbol)
anchored so that the bounding box starts at window cell (1, 1): it moves only when a card
lands on the window's top row or left column, or a take empties the top row or the left
column, so the window never overflows however far the layout drifts; the absolute
coordinates are kept in two int64 offsets. The hot paths are leaf functions,
``noexcept nogil``, allocating nothing:

* ``m_place_mask``: the cells where a card may go (M-6, M-7): the free cells next to the
  table (``front``), minus the cells next to a card that shares no attribute with it;
* ``m_line``: the run through a cell (read as one byte of its row or column) and the
  two-match test of M-12;
* ``m_connected_without``: the connectivity test of M-13(b) for one candidate take: a
  512-entry table of 3 x 3 blocks settles most candidates, and the groups of neighbours it
  leaves apart are flooded together until they meet or one stops growing.

The struct caches what every decision needs, as functions of the rest of the state (so that
play and ``from_dict`` build the same bytes): the place masks of the hand to move (computed
by the M-17 test at the start of a turn, which tries that hand first and is skipped after a
pass, which changes nothing it reads) and the takeable cards of a scoring (computed once per
take). ``m_step_random`` (the C interface's rollout) draws each action as the index into the
legal list without writing the list: it counts the cells of each hand slot and picks one.
``simulate`` plays each game in one function, ``m_sim_game``: the same draws and the same
game, with the state in locals and the turn written out in order (see there).

The pure-Python reference is ``mousehole/m.py``; both give the same game, bit for bit.
"""

cimport cython
cimport numpy as cnp
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memset, memcpy, memmove

from mousehole._rng cimport (
    uint8_t, int8_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t, rng_t,
    rng_below, rng_derive, rng_next, rng_shuffle_u8, rng_shuffle_u8_to,
)
from mousehole._bits cimport popcount64, ctz64, set_ones, rel_seat, seat_after, mh_pc8, mh_copy, mh_fill_f32
from mousehole._cgame cimport mh_game_t, mh_dims_t, TERMINAL_SEAT
from mousehole._boundary cimport (
    action_int, seat_arg, out_array, out_result, new_instance, seed_arg, array_reserve,
    cfg_cache_t, load_cfg, sim_out_t, run_sim_chunk,
)
from mousehole._pyalloc cimport adopt_public_class
from mousehole._statecore cimport StateCore, state_new

import numpy as np

cnp.import_array()

cdef uint64_t ROW0 = <uint64_t>0xFF
cdef uint64_t ROW7 = <uint64_t>0xFF00000000000000ULL
cdef uint64_t COL0 = <uint64_t>0x0101010101010101ULL
cdef uint64_t COL7 = <uint64_t>0x8080808080808080ULL

PHASES = ("play", "choose", "take", "over")
ENDS = (None, "M-16", "M-17", "M-18", "max_turns")

# ---- leaf functions -------------------------------------------------------------------------

cdef uint64_t ROW1 = <uint64_t>0xFF00
cdef uint64_t ROW6 = <uint64_t>0x00FF000000000000ULL
cdef uint64_t COL1 = <uint64_t>0x0202020202020202ULL
cdef uint64_t COL6 = <uint64_t>0x4040404040404040ULL
cdef uint64_t COL_GATHER = <uint64_t>0x0102040810204080ULL

# The 3 x 3 block around a card: bit 3 dr + dc (dr, dc in 0..2; the card itself is bit 4,
# ignored) of BLOCK_BITS spread as window bits 8 dr + dc (relative to the block's corner).
# ARCS[b] = k and ARC_BB[b][0..k): the arcs (runs of occupied cells of the ring of the 8
# surrounding cells, in their cyclic order, where consecutive cells are neighbours) that hold
# an orthogonal neighbour of the card. Taking the card keeps the table connected (M-13 b)
# exactly when these groups of cards stay connected to each other; with k <= 1 they are.
# Filled at import by fill_arcs().
cdef uint8_t ARCS[512]
cdef uint32_t ARC_BB[512][4]
cdef uint8_t DECK[M_MAX_CARDS]   # the unshuffled deck: card i at position i (filled at import)


cdef inline uint32_t spread9(int m) noexcept nogil:
    return (m & 7) | ((m & 0x38) << 5) | ((m & 0x1C0) << 10)


cdef void fill_arcs() noexcept nogil:
    cdef int ring[8]
    cdef int b, i, j, start, arc, orth
    ring[0] = 0; ring[1] = 1; ring[2] = 2; ring[3] = 5   # NW, N, NE, E
    ring[4] = 8; ring[5] = 7; ring[6] = 6; ring[7] = 3   # SE, S, SW, W (cyclic order)
    for b in range(512):
        ARCS[b] = 0
        for j in range(4):
            ARC_BB[b][j] = 0
        start = -1
        for i in range(8):
            if not (b >> ring[i]) & 1:
                start = i
                break
        if start < 0:  # the whole ring is occupied: one arc
            ARCS[b] = 1
            ARC_BB[b][0] = spread9(b & ~16)
            continue
        arc = 0
        orth = 0
        for j in range(1, 9):  # walk the ring once, from an empty cell back to it
            i = ring[(start + j) & 7]
            if (b >> i) & 1:
                arc |= 1 << i
                orth |= i == 1 or i == 3 or i == 5 or i == 7
            else:
                if orth:
                    ARC_BB[b][ARCS[b]] = spread9(arc)
                    ARCS[b] += 1
                arc = 0
                orth = 0


fill_arcs()
for _i in range(M_MAX_CARDS):
    DECK[_i] = <uint8_t>_i


cdef inline uint64_t nbrs(uint64_t b) noexcept nogil:
    """The cells orthogonally adjacent to b (b within window rows/cols 1..6: no wrap)."""
    return (b << 1) | (b >> 1) | (b << 8) | (b >> 8)


# The seats wrap around without a branch: in a random game the seat to move is a coin toss
# for the branch predictor (at 2 players it alternates), and a mispredicted branch costs
# more than the arithmetic.

cdef inline int next_seat(const m_t* s, int p) noexcept nogil:
    """The left neighbour (M-11)."""
    return (p + 1) & -(p + 1 != s.cfg.n)


cdef inline int right_seat(const m_t* s, int p) noexcept nogil:
    """The right neighbour (M-8, M-9, M-13)."""
    return p - 1 + (s.cfg.n & -(p == 0))


cdef inline int m_match(const m_cfg_t* c, int a, int b) noexcept nogil:
    """How many attributes cards a and b share (M-6, M-12); value-0 cards have no symbol."""
    return ((c.colour[a] == c.colour[b]) + (c.vidx[a] == c.vidx[b])
            + (c.symi[a] != M_MAX_ATTR and c.symi[a] == c.symi[b]))


cdef inline uint64_t m_place_mask(const m_t* s, int card) noexcept nogil:
    """Window cells where ``card`` may be laid now (M-6 every neighbour matches, M-7): the
    free cells of ``front`` minus those next to a card sharing no attribute with it."""
    cdef uint64_t match = (s.colbb[s.cfg.colour[card]] | s.valbb[s.cfg.vidx[card]]
                           | s.symbb[s.cfg.symi[card]])
    return s.front & ~nbrs(s.occ & ~match)


cdef bint m_connected_without(uint64_t occ, int cell) noexcept nogil:
    """M-13(b): are the cards of ``occ`` (connected) still connected without ``cell``?
    Every other card reached ``cell`` through one of its neighbours, so it is enough that
    the neighbours stay connected to each other. The 3 x 3 block settles it when they are
    connected around the cell; otherwise their groups are flooded together, one step at a
    time: connected when the floods have all met, not when one stops growing on its own."""
    cdef uint64_t rest = occ & ~((<uint64_t>1) << cell)
    cdef uint64_t x = occ >> (cell - 9)
    cdef int b = (x & 7) | ((x >> 5) & 0x38) | ((x >> 10) & 0x1C0)
    cdef int k = ARCS[b], i, j
    cdef uint64_t f[4]
    cdef uint64_t g[4]
    cdef uint64_t fa, fb, ga, gb
    if k <= 1:
        return True
    if k == 2:
        fa = (<uint64_t>ARC_BB[b][0]) << (cell - 9)
        fb = (<uint64_t>ARC_BB[b][1]) << (cell - 9)
        while True:
            ga = (fa | nbrs(fa)) & rest
            gb = (fb | nbrs(fb)) & rest
            if ga & gb:
                return True
            if ga == fa or gb == fb:
                return False
            fa = ga
            fb = gb
    for i in range(k):
        f[i] = (<uint64_t>ARC_BB[b][i]) << (cell - 9)
    while True:
        for i in range(k):
            g[i] = (f[i] | nbrs(f[i])) & rest
        i = 0
        while i < k:  # floods that touch are one group from now on
            j = i + 1
            while j < k:
                if g[i] & g[j]:
                    g[i] |= g[j]
                    f[i] |= f[j]
                    k -= 1
                    g[j] = g[k]
                    f[j] = f[k]
                else:
                    j += 1
            i += 1
        if k == 1:
            return True
        for i in range(k):
            if g[i] == f[i]:  # a whole part of the table, without the others
                return False
            f[i] = g[i]


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


cdef inline void m_set_area(m_t* s) noexcept nogil:
    """M-7 for a table anchored at window cell (1, 1): a sixth occupied row (column) forbids
    the border rows (columns); then the free cells where a card may go (no branch)."""
    s.area = ~(((ROW0 | ROW7) & -(<uint64_t>((s.occ & ROW6) != 0)))
               | ((COL0 | COL7) & -(<uint64_t>((s.occ & COL6) != 0))))
    s.front = nbrs(s.occ) & ~s.occ & s.area


cdef inline void shift_cells(uint8_t* cells, int sh) noexcept nogil:
    """The window's 64 cell bytes moved from index b to b - sh, the cells left empty."""
    if sh > 0:
        memmove(cells, cells + sh, 64 - sh)
        memset(cells + 64 - sh, M_EMPTY, sh)
    else:
        memmove(cells - sh, cells, 64 + sh)
        memset(cells, M_EMPTY, -sh)


cdef void m_shift(m_t* s, int dr, int dc) noexcept nogil:
    """Move the window origin by (dr, dc) cells: every card moves from window bit b to
    b - sh, sh = 8 dr + dc (the cards stay inside the window, no row wraps)."""
    cdef int i, sh = 8 * dr + dc
    shift_cells(s.cells, sh)
    s.occ = shift_bb(s.occ, sh)
    s.srow = shift_bb(s.srow, sh)
    for i in range(s.cfg.nc):
        s.colbb[i] = shift_bb(s.colbb[i], sh)
    for i in range(s.cfg.nv):
        s.valbb[i] = shift_bb(s.valbb[i], sh)
    for i in range(s.cfg.ns):
        s.symbb[i] = shift_bb(s.symbb[i], sh)
    s.orow += dr
    s.ocol += dc


cdef void m_normalize(m_t* s) noexcept nogil:
    """Re-anchor the window at (top - 1, left - 1) and recompute the M-7 area (any table)."""
    cdef int r, minr = 8, minc
    cdef uint64_t fold = 0, row
    for r in range(8):
        row = (s.occ >> (8 * r)) & <uint64_t>0xFF
        if row:
            if r < minr:
                minr = r
            fold |= row
    minc = ctz64(fold)
    if minr != 1 or minc != 1:
        m_shift(s, minr - 1, minc - 1)
    m_set_area(s)


cdef inline void m_put(m_t* s, int cell, int card) noexcept nogil:
    cdef uint64_t bit = (<uint64_t>1) << cell
    s.cells[cell] = <uint8_t>card
    s.occ |= bit
    s.colbb[s.cfg.colour[card]] |= bit
    s.valbb[s.cfg.vidx[card]] |= bit
    s.symbb[s.cfg.symi[card]] |= bit
    s.symbb[M_MAX_ATTR] = 0  # (cards without a symbol: no branch)


cdef inline void m_remove(m_t* s, int cell) noexcept nogil:
    cdef uint64_t keep = ~((<uint64_t>1) << cell)
    cdef int card = s.cells[cell]
    s.cells[cell] = M_EMPTY
    s.occ &= keep
    s.srow &= keep
    s.colbb[s.cfg.colour[card]] &= keep
    s.valbb[s.cfg.vidx[card]] &= keep
    s.symbb[s.cfg.symi[card]] &= keep


cdef inline void m_fix(m_t* s, int i) noexcept nogil:
    """The deal's deferred shuffle step for pile slot i = lazy - 1 (the deck position i):
    swap it with a uniform slot 0 .. i, as the top-down shuffle does (none for slot 0)."""
    cdef int j
    cdef uint8_t tmp
    if i > 0:
        j = <int>rng_below(&s.rng, <uint32_t>(i + 1))
        tmp = s.pile[i]; s.pile[i] = s.pile[j]; s.pile[j] = tmp
    s.lazy = i


cdef void m_settle(m_t* s) noexcept nogil:
    """Every deferred shuffle step, in the shuffle's order: the pile order and the generator
    a shuffle done at once gives (what ``to_dict`` shows)."""
    while s.lazy > 0:
        m_fix(s, s.lazy - 1)


cdef inline int m_pop(m_t* s) noexcept nogil:
    """The top card of the pile (pile_n > 0). The slots of the deferred part of the deal
    (0 .. lazy-1) hold the dealt cards not yet drawn, the bottom of the original pile: every
    other card of the ring (those above them, those put under the pile by M-9) is in another
    slot, so the top is in that part only as slot lazy-1, the next step's position."""
    cdef int i, card
    s.pile_n -= 1
    i = (s.pile_b + s.pile_n) & (M_MAX_CARDS - 1)
    if i < s.lazy:
        m_fix(s, i)
    card = s.pile[i]
    s.pile[i] = 0  # (free slots stay zero: canonical structs)
    s.putter[i] = 0
    return card


# A hand is kept sorted by card id, its unused slots zero.

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
    s.hand[p][s.hand_n[p]] = 0
    return card


cdef inline void hand_replace(m_t* s, int p, int slot, int card) noexcept nogil:
    """The card in ``slot`` leaves the hand and ``card`` comes in (sorted). Without a
    data-dependent branch (where a new card lands is random): the other cards in order,
    the new card's rank among them, and every slot picked from those by comparisons."""
    cdef uint8_t* h = s.hand[p]
    cdef uint8_t t[M_MAX_HAND]
    cdef int i, v, r = 0, n = s.hand_n[p]
    for i in range(n - 1):
        t[i] = h[i + (i >= slot)]
        r += t[i] < card
    t[n - 1] = <uint8_t>card
    for i in range(n):  # slot i: t[i] below the rank, the card at it, t[i - 1] above
        v = t[i - (i > r)]
        h[i] = <uint8_t>(v ^ ((v ^ card) & -(i == r)))


cdef inline int m_cell_of(const m_t* s, int64_t r, int64_t c) noexcept nogil:
    return <int>((r - s.orow) * 8 + (c - s.ocol))


cdef int8_t HIGH8[256]  # the index of the highest set bit of a byte (-1 for 0)


cdef void fill_high8() noexcept nogil:
    cdef int x, i
    HIGH8[0] = -1
    for x in range(1, 256):
        i = 7
        while not (x >> i) & 1:
            i -= 1
        HIGH8[x] = <int8_t>i


fill_high8()


cdef inline uint32_t m_line_byte(uint64_t occ, int cell, int step) noexcept nogil:
    """The occupancy of the 8 window cells of ``cell``'s row (``step`` 1) or column (``step``
    8) as one byte, the lowest column or row first: a row is a byte of ``occ``, a column is
    gathered into the top byte by a multiplication."""
    if step == 1:
        return <uint32_t>((occ >> (cell & 56)) & 0xFF)
    return <uint32_t>((((occ >> (cell & 7)) & COL0) * COL_GATHER) >> 56)


cdef uint64_t m_line(const m_t* s, int cell, int step) noexcept nogil:
    """M-12: the run through the card on ``cell`` along ``step`` (1 horizontal, 8 vertical)
    if it qualifies (5 or 6 cards, and two matches with a neighbour in the run), else 0.
    The run is read from the 8 cells of the line as one byte (a column gathered by a
    multiplication); the cards lie in window rows/cols 1..6, so the byte's ends are empty."""
    cdef uint32_t x = m_line_byte(s.occ, cell, step)
    cdef int pos, lo, up, n, i, base, card = s.cells[cell]
    cdef uint64_t run = 0
    if step == 1:
        pos = cell & 7
        base = cell & 56
    else:
        pos = cell >> 3
        base = cell & 7
    if mh_pc8[x] < 5:  # fewer than five cards in the whole line
        return 0
    up = ctz64(~(<uint64_t>(x >> pos)))  # cards from the cell on, upwards
    lo = HIGH8[~x & ((1u << pos) - 1)] + 1  # the first card of the run
    n = pos + up - lo
    if n < 5 or n > 6:
        return 0
    if not ((pos > lo and m_match(&s.cfg, card, s.cells[cell - step]) >= 2)
            or (up > 1 and m_match(&s.cfg, card, s.cells[cell + step]) >= 2)):
        return 0
    for i in range(lo, lo + n):
        run |= (<uint64_t>1) << (base + i * step)
    return run


# The struct caches things that are functions of the rest of the state (so that every path
# that builds the same state builds the same bytes): ``front`` (m_set_area); ``amask`` and
# ``acnt`` (PLAY: where each hand slot of the seat to move may go, and how many cells; 0
# elsewhere and beyond its hand); ``tmask`` (TAKE: the cards of the scoring row that may be
# taken; 0 elsewhere).

cdef inline int m_hand_masks(m_t* s, int p) noexcept nogil:
    """``amask``, ``acnt`` and ``nplace`` for seat p's hand; returns ``nplace``."""
    cdef uint64_t m
    cdef int i, k, n = 0
    for i in range(s.hand_n[p]):
        m = m_place_mask(s, s.hand[p][i])
        k = popcount64(m)
        s.amask[i] = m
        s.acnt[i] = <uint8_t>k
        n += k
    for i in range(s.hand_n[p], s.cfg.H):
        s.amask[i] = 0
        s.acnt[i] = 0
    s.nplace = n
    return n


cdef inline void m_clear_hand_masks(m_t* s) noexcept nogil:
    cdef int i
    for i in range(s.cfg.H):
        s.amask[i] = 0
        s.acnt[i] = 0
    s.nplace = 0


cdef inline void m_clear_masks(m_t* s) noexcept nogil:
    m_clear_hand_masks(s)
    s.tmask = 0


cdef void m_refresh(m_t* s) noexcept nogil:
    """Recompute the cached masks from the state (after from_dict or a determinization)."""
    m_set_area(s)
    m_clear_masks(s)
    if s.phase == PH_PLAY:
        m_hand_masks(s, s.current)
    elif s.phase == PH_TAKE:
        s.tmask = m_take_mask(s)


cdef inline void m_finish(m_t* s, int reason) noexcept nogil:
    s.phase = PH_OVER
    s.end = reason
    s.current = TERMINAL_SEAT
    s.placer = -1
    s.srow = 0
    m_clear_masks(s)


cdef inline void m_check_stuck(m_t* s) noexcept nogil:
    """M-17 at the start of a turn (phase PLAY, ``current`` set): the game ends when no card
    in a hand or (``stuck_pile``, the default reading) in the pile fits anywhere. The seat to
    move is tried first: its masks are the ``amask`` of the coming decision."""
    cdef int p = s.current, q, i
    if s.front == 0:
        m_finish(s, END_M17)
        return
    if m_hand_masks(s, p):
        return
    for q in range(s.cfg.n):
        if q != p:
            for i in range(s.hand_n[q]):
                if m_place_mask(s, s.hand[q][i]):
                    return
    if s.cfg.stuck_pile:
        for i in range(s.pile_n):
            if m_place_mask(s, s.pile[(s.pile_b + i) & (M_MAX_CARDS - 1)]):
                return
    m_finish(s, END_M17)


cdef inline void m_end_turn(m_t* s) noexcept nogil:
    cdef int p = s.placer
    while s.hand_n[p] < s.cfg.H and s.pile_n > 0:  # M-10
        hand_add(s, p, m_pop(s))
    s.phase = PH_PLAY
    s.current = next_seat(s, p)  # M-11: the left neighbour plays next
    s.placer = -1
    m_check_stuck(s)


cdef void m_continue_scoring(m_t* s) noexcept nogil:
    s.tmask = m_take_mask(s)
    if s.tmask:  # M-14: taking is compulsory while possible
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
    cdef int card = s.hand[p][slot]
    cdef int need, k, q, pay, dr, dc, i
    cdef uint64_t bit = (<uint64_t>1) << cell, h = 0, v = 0
    m_put(s, cell, card)  # M-6
    s.placer = p
    s.passes = 0
    # M-8: k - 1 chips for k neighbours, from the right neighbour onwards, never from the
    # placer (the first payment without a branch: it is 0 for a single neighbour)
    need = popcount64(nbrs(bit) & s.occ) - 1
    q = right_seat(s, p)
    pay = need if need < s.chips[q] else s.chips[q]
    s.chips[q] -= pay
    s.chips[p] += pay
    need -= pay
    k = 2
    while need > 0 and k < s.cfg.n:
        q = right_seat(s, q)
        pay = need if need < s.chips[q] else s.chips[q]
        s.chips[q] -= pay
        s.chips[p] += pay
        need -= pay
        k += 1
    # M-7: the window moves only when the card lands on its top row or left column
    dr = -1 if cell < 8 else 0
    dc = -1 if (cell & 7) == 0 else 0
    if dr or dc:
        m_shift(s, dr, dc)
        cell -= 8 * dr + dc
    m_set_area(s)
    s.lrow = s.orow + (cell >> 3)
    s.lcol = s.ocol + (cell & 7)
    s.has_last = 1
    # M-12: a run needs five cards in the card's row or column; most placements make none,
    # so one test of both lines first
    if (mh_pc8[m_line_byte(s.occ, cell, 1)] >= 5) | (mh_pc8[m_line_byte(s.occ, cell, 8)] >= 5):
        h = m_line(s, cell, 1)
        v = m_line(s, cell, 8)
    if not (h or v):
        # the turn ends: the card leaves the hand and the first card drawn (M-10) takes its
        # place in one step (nothing in between looks at the hand)
        if s.pile_n > 0:
            hand_replace(s, p, slot, m_pop(s))
        else:
            hand_remove(s, p, slot)
        m_end_turn(s)
        return
    hand_remove(s, p, slot)
    if not s.cfg.draw_late:  # draw_timing='before_scoring': M-10 before the scoring
        while s.hand_n[p] < s.cfg.H and s.pile_n > 0:
            hand_add(s, p, m_pop(s))
    m_clear_hand_masks(s)
    if h and v:
        s.phase = PH_CHOOSE  # the placer chooses the row
        s.current = p
    elif h:
        m_start_scoring(s, h)
    else:
        m_start_scoring(s, v)


cdef inline void m_add_taken(m_t* s, int p, int card) noexcept nogil:
    """Seat p takes ``card`` (M-15): it goes to the end of p's list."""
    if s.ttail[p]:
        s.tnext[s.ttail[p] - 1] = <uint8_t>(card + 1)
    else:
        s.thead[p] = <uint8_t>(card + 1)
    s.ttail[p] = <uint8_t>(card + 1)
    s.taken_n[p] += 1


cdef void m_take(m_t* s, int p, int cell) noexcept nogil:
    cdef int card = s.cells[cell]
    m_remove(s, cell)
    m_add_taken(s, p, card)  # M-15
    s.current = right_seat(s, p)  # M-13: the next player to the right
    # the table stays connected (M-13 b): only the card's own row or column can empty, and
    # the window moves only when that was the top row or the left column
    if (s.occ & ROW1) == 0 or (s.occ & COL1) == 0:
        m_shift(s, (s.occ & ROW1) == 0, (s.occ & COL1) == 0)
    m_set_area(s)
    m_continue_scoring(s)


cdef void m_pass(m_t* s, int p, int slot) noexcept nogil:
    cdef int card
    if s.chips[p] > 0:  # M-9: one chip to the right neighbour
        if slot >= 0:  # M-9: one card under the pile, draw the top card
            s.chips[p] -= 1
            s.chips[right_seat(s, p)] += 1
            s.pile_b = (s.pile_b - 1) & (M_MAX_CARDS - 1)
            s.pile[s.pile_b] = s.hand[p][slot]
            s.putter[s.pile_b] = <int8_t>p
            s.pile_n += 1
            hand_replace(s, p, slot, m_pop(s))
        elif s.cfg.pass_pays:  # pass_cost='exchange_only': a plain pass is free
            s.chips[p] -= 1
            s.chips[right_seat(s, p)] += 1
    if s.pile_n == 0:
        s.passes += 1
    else:
        s.passes = 0
    s.placer = -1
    s.current = next_seat(s, p)
    if s.passes >= s.cfg.n:  # M-18
        m_finish(s, END_M18)
        return
    # M-17 needs no test: a pass changes neither the table nor the cards in hands and pile
    # (an exchange only moves one), and a card fitted when this turn began; but with
    # stuck_cards='hands' an exchange may send the last fitting hand card under the pile
    if slot >= 0 and not s.cfg.stuck_pile:
        m_check_stuck(s)
    else:
        m_hand_masks(s, s.current)


cdef bint m_is_legal(const m_t* s, int a) noexcept nogil:
    cdef int p = s.current, slot
    if a < 0 or a >= s.cfg.num_actions:
        return False
    if s.phase == PH_PLAY:
        if a < s.cfg.A_PASS:
            slot = a >> 6
            return slot < s.hand_n[p] and ((s.amask[slot] >> (a & 63)) & 1)
        if a == s.cfg.A_PASS:
            return True  # M-9: passing is always allowed
        if a < s.cfg.A_ROW:
            return a - s.cfg.A_EXCH < s.hand_n[p] and s.chips[p] > 0 and s.pile_n > 0
        return False
    if s.phase == PH_CHOOSE:
        return s.cfg.A_ROW <= a < s.cfg.A_TAKE
    if s.phase == PH_TAKE:
        return a >= s.cfg.A_TAKE and ((s.tmask >> (a - s.cfg.A_TAKE)) & 1)
    return False


cdef inline void m_step(m_t* s) noexcept nogil:
    """After every action: count it, and stop at max_turns."""
    s.n_hist += 1
    if s.phase != PH_OVER and s.n_hist >= s.cfg.max_turns:
        m_finish(s, END_MAX_TURNS)


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
    m_step(s)


ctypedef fused action_t:
    int32_t
    int64_t


cdef inline int m_num_legal(const m_t* s) noexcept nogil:
    """How many actions ``m_legal`` lists (from the cached masks)."""
    cdef int p = s.current
    if s.phase == PH_PLAY:
        return s.nplace + 1 + (s.hand_n[p] if s.chips[p] > 0 and s.pile_n > 0 else 0)
    if s.phase == PH_CHOOSE:
        return 2
    if s.phase == PH_TAKE:
        return popcount64(s.tmask)
    return 0


cdef int m_legal(const m_t* s, action_t* out) noexcept nogil:
    """The legal actions, ascending, into out (room for num_actions); returns their number."""
    cdef int p = s.current, n = 0, i, b
    cdef uint64_t bits
    if s.phase == PH_PLAY:
        for i in range(s.hand_n[p]):
            bits = s.amask[i]
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
        bits = s.tmask
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
            bits = s.amask[i]
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
        bits = s.tmask
        while bits:
            out[s.cfg.A_TAKE + ctz64(bits)] = 1
            bits &= bits - 1


# ---- observation (docs/games/m.md, "Observation") --------------------------------------------

cdef inline int m_num_channels(const m_cfg_t* c) noexcept nogil:
    """Planes of 8 x 8: table (1 + F), scoring row, two choice runs, last cell, H hand slots
    of F, per seat 2 + nc, pile size and own pile cards, phase (3), seat to move (n)."""
    return 1 + c.F + 4 + c.H * c.F + c.n * (2 + c.nc) + 2 + 3 + c.n


cdef inline void fill_plane(float* plane, float v) noexcept nogil:
    mh_fill_f32(plane, v, M_W * M_W)


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
    cdef int32_t tot[M_MAX_ATTR]
    cdef uint64_t bits = s.occ
    while bits:  # occupied, then the attributes of each card on the table (M-1)
        b = ctz64(bits)
        bits &= bits - 1
        card = s.cells[b]
        obs[b] = 1.0
        obs[(1 + c.colour[card]) * 64 + b] = 1.0
        obs[(1 + nc + c.vidx[card]) * 64 + b] = 1.0
        if c.symi[card] != M_MAX_ATTR:
            obs[(1 + nc + c.nv + c.symi[card]) * 64 + b] = 1.0
    ch = 1 + F
    set_ones(obs + ch * 64, s.srow)  # M-13: the cards of the scoring row still there
    ch += 1
    if s.has_last:
        r = s.lrow - s.orow
        cc = s.lcol - s.ocol
        if 0 <= r < M_W and 0 <= cc < M_W:
            b = <int>(r * M_W + cc)
            if s.phase == PH_CHOOSE and (s.occ >> b) & 1:  # M-12: the two qualifying runs
                set_ones(obs + ch * 64, m_run(s.occ, b, 1))
                set_ones(obs + (ch + 1) * 64, m_run(s.occ, b, 8))
            obs[(ch + 2) * 64 + b] = 1.0
    ch += 3
    for i in range(s.hand_n[p]):  # M-22: the own hand only, one block of F planes per slot
        card = s.hand[p][i]
        base = ch + i * F
        fill_plane(obs + (base + c.colour[card]) * 64, 1.0)
        fill_plane(obs + (base + nc + c.vidx[card]) * 64, 1.0)
        if c.symi[card] != M_MAX_ATTR:
            fill_plane(obs + (base + nc + c.nv + c.symi[card]) * 64, 1.0)
    ch += c.H * F
    for k in range(n):  # per seat from p leftwards: chips (M-2), hand size, colour totals (M-15)
        q = seat_after(p, k, n)
        fill_plane(obs + ch * 64, <float>(<double>s.chips[q] / 10.0))
        fill_plane(obs + (ch + 1) * 64, <float>s.hand_n[q])
        m_totals(s, q, tot)
        for col in range(nc):
            if tot[col]:
                fill_plane(obs + (ch + 2 + col) * 64, <float>(<double>tot[col] / 100.0))
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
        fill_plane(obs + (ch + 3 + rel_seat(s.current, p, n)) * 64, 1.0)


cdef void m_clear_table(m_t* s) noexcept nogil:
    s.occ = 0
    s.srow = 0
    memset(s.colbb, 0, sizeof(s.colbb))
    memset(s.valbb, 0, sizeof(s.valbb))
    memset(s.symbb, 0, sizeof(s.symbb))
    memset(s.cells, M_EMPTY, 64)


cdef inline void sort4(const uint8_t* a, uint8_t* out) noexcept nogil:
    """out[0..4) = a[0..4) in ascending order (distinct cards), without branches."""
    cdef uint8_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3], lo, hi
    lo = a0 if a0 < a1 else a1; hi = a1 if a0 < a1 else a0; a0 = lo; a1 = hi
    lo = a2 if a2 < a3 else a3; hi = a3 if a2 < a3 else a2; a2 = lo; a3 = hi
    lo = a0 if a0 < a2 else a2; hi = a2 if a0 < a2 else a0; a0 = lo; a2 = hi
    lo = a1 if a1 < a3 else a3; hi = a3 if a1 < a3 else a1; a1 = lo; a3 = hi
    lo = a1 if a1 < a2 else a2; hi = a2 if a1 < a2 else a1; a1 = lo; a2 = hi
    out[0] = a0; out[1] = a1; out[2] = a2; out[3] = a3


cdef void m_init(m_t* s, uint64_t seed) noexcept nogil:
    """M-3 .. M-5 in a struct holding anything but the constants: every other field from
    zero, so it equals new_state(seed)'s byte for byte whatever it held before (reset of the
    C interface reuses buffers)."""
    memset(<char*>&s.occ, 0, sizeof(m_t) - (<size_t>(<char*>&s.occ - <char*>s)))
    m_deal(s, seed)


cdef void m_deal(m_t* s, uint64_t seed) noexcept nogil:
    """M-3 .. M-5 in a struct whose fields but the constants are zero: one shuffle, the
    removed cards, the start M, the hands, the chips."""
    cdef uint8_t deck[M_MAX_CARDS]
    cdef uint8_t drawn[M_MAX_HAND]
    cdef int i, j, p, k, r, N = s.cfg.n_cards
    s.rng = seed
    memcpy(deck, DECK, N)
    # M-4's shuffle, top down (docs/rng.md): its first N - in_play steps fix the positions
    # in_play .. N-1, the cards M-3 removes unseen; the steps for the pile's positions are
    # taken as its cards are drawn (m_pop), the deal's 5 + 4n cards below
    rng_shuffle_u8_to(&s.rng, deck, N, s.cfg.in_play)
    for i in range(s.cfg.in_play, N):  # M-3: removed unseen
        s.removed[deck[i] >> 6] |= (<uint64_t>1) << (deck[i] & 63)
    s.pile_b = 0
    s.pile_n = s.cfg.in_play
    s.lazy = s.cfg.in_play
    memcpy(s.pile, deck, s.cfg.in_play)
    memset(s.putter, -1, s.cfg.in_play)
    m_clear_table(s)
    s.orow = s.cfg.lay_r0 - 1
    s.ocol = s.cfg.lay_c0 - 1
    for i in range(s.cfg.n_layout):  # M-4
        m_put(s, s.cfg.lay_cell[i], m_pop(s))
    m_normalize(s)
    for p in range(s.cfg.n):  # M-5: seat 0 draws first
        k = s.cfg.H if s.pile_n >= s.cfg.H else s.pile_n
        for i in range(k):
            drawn[i] = <uint8_t>m_pop(s)
        if k == 4:  # the rules' hand (M-5): sorted by a network of 5 compare-exchanges
            sort4(drawn, s.hand[p])
        else:
            for i in range(k):  # sorted: each card at its rank (no branch)
                r = 0
                for j in range(k):
                    r += drawn[j] < drawn[i]
                s.hand[p][r] = drawn[i]
        s.hand_n[p] = k
        s.chips[p] = s.cfg.chips  # M-2
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


cdef void m_totals(const m_t* s, int p, int32_t* tot) noexcept nogil:
    """The value seat p took per colour (M-15), into tot[0 .. M_MAX_ATTR)."""
    cdef int i, c = s.thead[p]
    for i in range(M_MAX_ATTR):
        tot[i] = 0
    while c:
        tot[s.cfg.colour[c - 1]] += s.cfg.vals[s.cfg.vidx[c - 1]]
        c = s.tnext[c - 1]


cdef void m_scores(const m_t* s, int64_t* out) noexcept nogil:
    """M-20: 10 x chips + the two best colour totals - every other colour total."""
    cdef int p, k, b1, b2, t, total
    cdef int32_t tot[M_MAX_ATTR]
    for p in range(s.cfg.n):
        m_totals(s, p, tot)
        b1 = -1
        b2 = -1
        total = 0
        for k in range(M_MAX_ATTR):
            t = tot[k]
            total += t
            if t > b1:
                b2 = b1
                b1 = t
            elif t > b2:
                b2 = t
        out[p] = 10 * s.chips[p] + 2 * (b1 + b2) - total


cdef int m_winner_mask(const m_t* s) noexcept nogil:
    cdef int64_t sc[M_MAX_PLAYERS]
    m_scores(s, sc)
    return winner_mask_of(sc, s.cfg.n)


cdef int winner_mask_of(const int64_t* sc, int n) noexcept nogil:
    """M-21: the seats with the highest score (ties shared), as a bit mask."""
    cdef int p, mask = 0
    cdef int64_t best = sc[0]
    for p in range(n):
        if sc[p] > best:
            best = sc[p]
    for p in range(n):
        if sc[p] == best:
            mask |= 1 << p
    return mask


cdef uint64_t L8 = <uint64_t>0x0101010101010101ULL
cdef uint64_t H8 = <uint64_t>0x8080808080808080ULL
cdef uint8_t SELECT8[256 * 8]  # SELECT8[8 x + r]: the index of the r-th set bit of byte x


cdef void fill_select8() noexcept nogil:
    cdef int x, i, r
    for x in range(256):
        r = 0
        for i in range(8):
            SELECT8[8 * x + i] = 0
        for i in range(8):
            if (x >> i) & 1:
                SELECT8[8 * x + r] = <uint8_t>i
                r += 1


fill_select8()


cdef inline int nth_bit(uint64_t x, uint32_t r) noexcept nogil:
    """The index of the r-th (from 0) set bit of x, lowest first (r < the bits of x),
    without a loop: the byte that holds it from prefix sums of the byte counts, then a table."""
    cdef uint64_t c, pre, t
    cdef int k
    c = x - ((x >> 1) & <uint64_t>0x5555555555555555ULL)
    c = (c & <uint64_t>0x3333333333333333ULL) + ((c >> 2) & <uint64_t>0x3333333333333333ULL)
    c = (c + (c >> 4)) & <uint64_t>0x0F0F0F0F0F0F0F0FULL
    pre = c * L8  # byte i: the set bits of bytes 0 .. i
    t = (((<uint64_t>r) * L8 | H8) - pre) & H8  # high bit of byte i: r >= pre_i
    k = <int>(((t >> 7) * L8) >> 56)  # how many bytes end at or before bit r
    r -= <uint32_t>(((pre << 8) >> (8 * k)) & 0xFF)
    return 8 * k + SELECT8[8 * ((x >> (8 * k)) & 0xFF) + r]


cdef inline void m_step_random(m_t* s, rng_t* policy) noexcept nogil:
    """One action of simulate's policy, a seat being to move: the action at index
    ``rng_below(policy, n)`` of the ascending legal list (``m_legal``), found from the cached
    masks without writing the list, and applied as ``m_apply`` applies it."""
    cdef int p, i, j, hn, total
    cdef uint32_t r, c, before
    if s.phase == PH_PLAY:
        p = s.current
        hn = s.hand_n[p]
        total = s.nplace
        # placements (slot by slot, cells ascending), the pass, the exchanges (M-9)
        r = rng_below(policy, <uint32_t>(total + 1 + (hn if s.chips[p] > 0 and s.pile_n > 0 else 0)))
        if r < <uint32_t>total:
            # the slot: how many slots' cells all come before r (no data-dependent branch)
            i = 0
            c = 0
            before = 0
            for j in range(hn - 1):
                c += s.acnt[j]
                i += r >= c
                before = c if r >= c else before
            m_place(s, p, i, nth_bit(s.amask[i], r - before))
        elif r == <uint32_t>total:
            m_pass(s, p, -1)
        else:
            m_pass(s, p, <int>(r - <uint32_t>total) - 1)
    elif s.phase == PH_TAKE:
        r = rng_below(policy, <uint32_t>popcount64(s.tmask))
        m_take(s, s.current, nth_bit(s.tmask, r))
    else:
        r = rng_below(policy, 2)
        m_start_scoring(s, m_line(s, m_cell_of(s, s.lrow, s.lcol), 1 if r == 0 else 8))
    m_step(s)


cdef void m_play_random(m_t* s, rng_t* policy) noexcept nogil:
    """Play to the end, each action uniform among the legal ones (``m_step_random``)."""
    while s.phase == PH_PLAY or s.phase == PH_TAKE or s.phase == PH_CHOOSE:
        m_step_random(s, policy)


# ---- determinization (M-22; the reference is M._determinize in mousehole/m.py) ---------------

cdef enum:
    M_MAX_DRAWS = 1000    # MAX_DRAWS of mousehole/m.py


cdef inline void set_add(uint64_t* bs, int card) noexcept nogil:
    bs[card >> 6] |= (<uint64_t>1) << (card & 63)


cdef inline bint in_set(const uint64_t* bs, int card) noexcept nogil:
    return (bs[card >> 6] >> (card & 63)) & 1


cdef inline void sort_small(uint8_t* a, int n) noexcept nogil:
    """Insertion sort of a few card ids (a hand)."""
    cdef int i, j
    cdef uint8_t x
    for i in range(1, n):
        x = a[i]
        j = i
        while j > 0 and a[j - 1] > x:
            a[j] = a[j - 1]
            j -= 1
        a[j] = x


cdef void m_determinize(m_t* s, int p, uint64_t seed) noexcept nogil:
    """In place: what seat ``p`` cannot see (M-22: the other hands, the pile cards p did not
    put under it, the removed cards) is dealt again from ``seed``, draw for draw as
    ``M._determinize`` deals it from p's view, and the state's generator is re-seeded from
    the same stream. Structs are canonical (``from_dict`` builds the bytes play builds, once
    the deal's deferred steps are taken), so this is the struct of the Python
    determinization loaded back: its pile is dealt in full (``lazy`` 0)."""
    cdef const m_cfg_t* c = &s.cfg
    cdef rng_t rng = seed
    cdef uint64_t seen[2]
    cdef uint64_t fit[2]
    cdef uint64_t bits
    cdef uint8_t pile[M_MAX_CARDS]
    cdef int8_t putter[M_MAX_CARDS]
    cdef uint8_t pool[M_MAX_CARDS]
    cdef uint8_t order[M_MAX_CARDS]
    cdef int n = c.n, npool = 0, k = 0, kfit, nfit = 0, m, ins, i, j, q, card, draw, w
    cdef bint play = s.phase == PH_PLAY, mine_fit = False
    for i in range(s.pile_n):  # the pile, bottom first
        j = (s.pile_b + i) & (M_MAX_CARDS - 1)
        pile[i] = s.pile[j]
        putter[i] = s.putter[j]
    # what p sees: the table, the taken cards (M-15), its hand and the cards it put under
    # the pile (M-9); "mine" are p's cards in play, for the M-17 test below
    seen[0] = 0
    seen[1] = 0
    bits = s.occ
    while bits:
        set_add(seen, s.cells[ctz64(bits)])
        bits &= bits - 1
    for q in range(n):
        if q != p:
            k += s.hand_n[q]
    kfit = k  # stuck_cards='hands': M-17 looks at the hands only, the first kfit of the deal
    for q in range(n):
        card = s.thead[q]
        while card:
            set_add(seen, card - 1)
            card = s.tnext[card - 1]
    for i in range(s.hand_n[p]):
        card = s.hand[p][i]
        set_add(seen, card)
        if play and not mine_fit and m_place_mask(s, card):
            mine_fit = True
    for i in range(s.pile_n):
        if putter[i] == p:
            set_add(seen, pile[i])
            if play and not mine_fit and c.stuck_pile and m_place_mask(s, pile[i]):
                mine_fit = True
        else:
            k += 1  # k: the hidden cards in play; the rest of the pool was removed
    if c.stuck_pile:
        kfit = k
    for card in range(c.n_cards):  # the pool, ascending (canonical)
        if not in_set(seen, card):
            pool[npool] = <uint8_t>card
            npool += 1
    # M-17 holds in the new state exactly when p saw it hold (see M._determinize)
    fit[0] = 0
    fit[1] = 0
    if s.end == END_M17 or (play and not mine_fit):
        for i in range(npool):
            if m_place_mask(s, pool[i]):
                set_add(fit, pool[i])
                nfit += 1
    if s.end == END_M17:
        # the cards that fit nowhere, shuffled; the fitting ones (sorted) after the first k
        m = 0
        for i in range(npool):
            if not in_set(fit, pool[i]):
                order[m] = pool[i]
                m += 1
        rng_shuffle_u8(&rng, order, m)
        ins = kfit if kfit < m else m
        j = m - 1
        while j >= ins:
            order[j + nfit] = order[j]
            j -= 1
        j = ins
        for i in range(npool):
            if in_set(fit, pool[i]):
                order[j] = pool[i]
                j += 1
    else:
        for draw in range(M_MAX_DRAWS):
            memcpy(order, pool, npool)
            rng_shuffle_u8(&rng, order, npool)
            if nfit == 0 or kfit == 0:
                break
            w = 0
            for i in range(kfit):
                if in_set(fit, order[i]):
                    w = 1
                    break
            if w:
                break
    # the deal: the other hands in seat order (each sorted), the hidden pile cards bottom
    # first, the rest removed (sorted)
    j = 0
    for q in range(n):
        if q != p:
            for i in range(s.hand_n[q]):
                s.hand[q][i] = order[j]
                j += 1
            sort_small(s.hand[q], s.hand_n[q])
        for i in range(s.hand_n[q], M_MAX_HAND):
            s.hand[q][i] = 0
    for i in range(s.pile_n):
        if putter[i] != p:
            s.pile[(s.pile_b + i) & (M_MAX_CARDS - 1)] = order[j]
            j += 1
    s.removed[0] = 0
    s.removed[1] = 0
    for i in range(j, npool):
        set_add(s.removed, order[i])
    s.rng = rng_next(&rng)
    s.lazy = 0  # the pile's order is dealt in full above
    m_refresh(s)  # the seat to move may hold other cards now


# ---- the C-level game interface (mh_game_t, _cgame.pxd) -------------------------------------

cdef void g_dims(const void* v, mh_dims_t* d) noexcept nogil:
    cdef const m_t* s = <const m_t*>v
    d.players = s.cfg.n
    d.num_actions = s.cfg.num_actions
    d.obs_size = s.cfg.channels * M_W * M_W
    # PLAY: at most 64 cells per hand slot, the pass and the exchanges (A_ROW actions);
    # CHOOSE: 2; TAKE: at most the 6 cards of the scoring row (M-12)
    d.max_legal = s.cfg.A_ROW
    d.has_evaluate = 1


cdef void g_reset(void* v, uint64_t seed) noexcept nogil:
    m_init(<m_t*>v, seed)


cdef int g_current(const void* v) noexcept nogil:
    cdef const m_t* s = <const m_t*>v
    return TERMINAL_SEAT if s.phase == PH_OVER else s.current


cdef int g_legal(const void* v, int32_t* out) noexcept nogil:
    return m_legal(<const m_t*>v, out)


cdef void g_apply(void* v, int32_t a) noexcept nogil:
    m_apply(<m_t*>v, a)


cdef int g_chance(const void* v, int32_t* out, double* prob) noexcept nogil:
    return 0  # every random event of M happens at setup (M-3 .. M-5)


cdef void g_evaluate(const void* v, double* out) noexcept nogil:
    """The strong search's evaluation, per seat the value of ``MGame.greedy_value``: its M-20
    score as it stands."""
    cdef const m_t* s = <const m_t*>v
    cdef int64_t sc[M_MAX_PLAYERS]
    cdef int p
    m_scores(s, sc)
    for p in range(s.cfg.n):
        out[p] = <double>sc[p]


cdef void g_returns(const void* v, double* out) noexcept nogil:
    """As ``StateAPI.returns``: 0 before the end and when every seat wins (M-21), else +1
    for each winner and -1 for each other seat."""
    cdef const m_t* s = <const m_t*>v
    cdef int p, n = s.cfg.n, mask = 0
    if s.phase == PH_OVER:
        mask = m_winner_mask(s)
    for p in range(n):
        if s.phase != PH_OVER or mask == (1 << n) - 1:
            out[p] = 0.0
        else:
            out[p] = 1.0 if (mask >> p) & 1 else -1.0


cdef void g_rollout(void* v, rng_t* policy) noexcept nogil:
    m_play_random(<m_t*>v, policy)


cdef int g_random_step(void* v, rng_t* policy) noexcept nogil:
    m_step_random(<m_t*>v, policy)
    return g_current(v)


cdef void g_determinize(void* v, int p, uint64_t seed) noexcept nogil:
    m_determinize(<m_t*>v, p, seed)


cdef void g_observe(const void* v, int p, float* out) noexcept nogil:
    cdef const m_t* s = <const m_t*>v
    memset(out, 0, sizeof(float) * s.cfg.channels * M_W * M_W)
    m_observation(s, p, out)


cdef void g_mask(const void* v, uint8_t* out) noexcept nogil:
    cdef const m_t* s = <const m_t*>v
    memset(out, 0, s.cfg.num_actions)
    m_legal_mask(s, out)


cdef mh_game_t M_GAME
cdef int g_truncated(const void* s) noexcept nogil:
    return (<const m_t*>s).end == END_MAX_TURNS


M_GAME.name = b"m"
M_GAME.size = sizeof(m_t)
M_GAME.dims = g_dims
M_GAME.reset = g_reset
M_GAME.current = g_current
M_GAME.legal = g_legal
M_GAME.apply = g_apply
M_GAME.chance = g_chance
M_GAME.returns = g_returns
M_GAME.rollout = g_rollout
M_GAME.random_step = g_random_step
M_GAME.determinize = g_determinize
M_GAME.evaluate = g_evaluate
M_GAME.observe = g_observe
M_GAME.mask = g_mask
M_GAME.truncated = g_truncated


# ---- configuration ----------------------------------------------------------------------------

cdef int fill_cfg(object game, void* v) except -1:
    """The constants of ``game`` into ``v`` (zero-filled; the cache of ``_boundary``)."""
    cdef m_cfg_t* cfg = <m_cfg_t*>v
    cdef int i
    cdef object x
    cfg.n = game.num_players
    cfg.H = game.hand_size
    cfg.n_cards = game.n_cards
    cfg.in_play = game.in_play
    cfg.chips = game.start_chips
    cfg.max_turns = game.max_turns if game.max_turns < (1 << 62) else (1 << 62)
    cfg.A_PASS = game.A_PASS
    cfg.A_EXCH = game.A_EXCH
    cfg.A_ROW = game.A_ROW
    cfg.A_TAKE = game.A_TAKE
    cfg.num_actions = game.num_actions
    cfg.pass_pays = game.pass_always_pays  # the readings (M-9, M-17, M-10)
    cfg.stuck_pile = game.stuck_with_pile
    cfg.draw_late = game.draw_after_scoring
    cfg.nc = len(game.colours)
    cfg.nv = len(game.values)
    cfg.ns = len(game.symbols)
    cfg.F = cfg.nc + cfg.nv + cfg.ns
    cfg.channels = m_num_channels(cfg)
    if cfg.channels != game.observation_shape[0] or tuple(game.observation_shape[1:]) != (M_W, M_W):
        raise RuntimeError(f"m: observation shape {game.observation_shape} is not the compiled layout")
    for i in range(game.n_cards):
        cfg.colour[i] = game.colour_of[i]
        cfg.vidx[i] = game.vindex_of[i]
        cfg.symi[i] = M_MAX_ATTR if game.symbol_of[i] < 0 else game.symbol_of[i]
    for i, x in enumerate(game.values):
        cfg.vals[i] = x
    cfg.n_layout = len(game.layout)
    cfg.lay_r0 = min(r for r, _ in game.layout)
    cfg.lay_c0 = min(c for _, c in game.layout)
    for i, (r, c) in enumerate(game.layout):  # (within a 6 x 6 square, M-7)
        cfg.lay_cell[i] = (r - cfg.lay_r0 + 1) * M_W + (c - cfg.lay_c0 + 1)
    return 0


cdef cfg_cache_t M_CFG
M_CFG.name = b"mousehole._m.cfg"
M_CFG.size = sizeof(m_cfg_t)
M_CFG.fill = fill_cfg


# ---- simulate's game loop ---------------------------------------------------------------------
# ``simulate`` plays each game in one function (``m_sim_game``) rather than through
# ``m_step_random``: the same actions drawn in the same order from the same generators (the
# same game, bit for bit), but the hot values in locals (registers) instead of the struct, the
# turn written out in order instead of dispatched on a phase, and branch-free arithmetic
# where the outcome is a coin flip to the branch predictor. What the next turn needs is
# prepared before this turn's draw, from what this turn cannot change: the next seat's hand
# against the table (``bad``, msim_bad), kept up to date by the few operations a placement,
# a take or a move of the window makes, and the card a pass's exchange or a placement brings
# into the hand (the top of the pile) with its rank among the hand's cards. Whether a turn
# passes or places is the one branch the predictor cannot learn; once it resolves, the next
# seat's masks wait for a few operations, not for the boards and the hand's loads, and the
# hand is re-sorted without waiting for the pile. Per game constants in an
# ``msim_tab_t``: for each card id its boards (an empty hand slot is M_EMPTY, whose boards
# stay empty, so it fits nowhere and a hand's slots need no bound), its attributes as bits
# (M-12: the shared traits of two cards are the bits of an AND) and its value. It restates
# m_deal, m_place, m_pass, m_take and the readings (pass_pays, stuck_pile, draw_late): a rule
# changed there must change here too (tests/test_simulate.py plays simulate's games step by
# step, tests/test_readings.py every reading).

ctypedef struct msim_tab_t:
    uint8_t col[256]      # colour board of each card id (M_MAX_ATTR: an empty board)
    uint8_t val[256]      # value board
    uint8_t sym[256]      # symbol board read (M_MAX_ATTR, empty, for a card without one)
    uint8_t symw[256]     # symbol board written (M_MAX_ATTR + 1, never read, without one)
    uint32_t attr[256]    # colour bit | value bit << 8 | symbol bit << 16 (none: no bit)
    int32_t worth[256]    # the card's value (M-15)


cdef void msim_fill_tab(const m_cfg_t* c, msim_tab_t* t) noexcept nogil:
    cdef int i
    for i in range(256):
        t.col[i] = M_MAX_ATTR
        t.val[i] = M_MAX_ATTR
        t.sym[i] = M_MAX_ATTR
        t.symw[i] = M_MAX_ATTR + 1
        t.attr[i] = 0
        t.worth[i] = 0
    for i in range(c.n_cards):
        t.col[i] = c.colour[i]
        t.val[i] = c.vidx[i]
        t.sym[i] = c.symi[i]
        t.symw[i] = c.symi[i] if c.symi[i] != M_MAX_ATTR else M_MAX_ATTR + 1
        t.attr[i] = ((<uint32_t>1) << c.colour[i]) | ((<uint32_t>1) << (8 + c.vidx[i]))
        if c.symi[i] != M_MAX_ATTR:
            t.attr[i] |= (<uint32_t>1) << (16 + c.symi[i])
        t.worth[i] = c.vals[c.vidx[i]]


ctypedef struct msim_board_t:
    uint64_t col[M_MAX_ATTR + 2]
    uint64_t val[M_MAX_ATTR + 2]
    uint64_t sym[M_MAX_ATTR + 2]
    uint8_t cells[64]


cdef inline uint64_t msim_fits(const msim_board_t* b, const msim_tab_t* t, uint64_t front, uint64_t occ,
                               int card) noexcept nogil:
    """M-6, M-7: the cells where ``card`` fits (m_place_mask)."""
    return front & ~nbrs(occ & ~(b.col[t.col[card]] | b.val[t.val[card]] | b.sym[t.sym[card]]))


cdef inline uint64_t msim_front(uint64_t occ) noexcept nogil:
    """m_set_area's ``front`` of a table anchored at window cell (1, 1)."""
    cdef uint64_t area = ~((<uint64_t>0xFF000000000000FFULL & -(<uint64_t>((occ & <uint64_t>0x00FF000000000000ULL) != 0)))
                           | (<uint64_t>0x8181818181818181ULL & -(<uint64_t>((occ & <uint64_t>0x4040404040404040ULL) != 0))))
    return nbrs(occ) & ~occ & area


cdef inline void msim_shift(msim_board_t* b, const m_cfg_t* c, int sh) noexcept nogil:
    """m_shift's boards and cells (the caller moves ``occ`` and the scoring row)."""
    cdef int i
    shift_cells(b.cells, sh)
    for i in range(c.nc):
        b.col[i] = shift_bb(b.col[i], sh)
    for i in range(c.nv):
        b.val[i] = shift_bb(b.val[i], sh)
    for i in range(c.ns):
        b.sym[i] = shift_bb(b.sym[i], sh)


cdef inline uint64_t msim_crowded(uint64_t o) noexcept nogil:
    """The cards of ``o`` with two groups of neighbours or more (ARCS[block] >= 2), all at
    once: around each cell the ring N, NE, E, SE, S, SW, W, NW as eight shifted boards (a
    corner counts only beside a card of one of its two sides, which joins it to a group),
    and the cells where a card follows an empty place of the ring at least twice."""
    cdef uint64_t n = o >> 8, s = o << 8, w = o >> 1, e = o << 1
    cdef uint64_t ne = (o >> 7) & (n | e), se = (o << 9) & (s | e)
    cdef uint64_t sw = (o << 7) & (s | w), nw = (o >> 9) & (n | w)
    cdef uint64_t once = 0, twice = 0, start
    start = n & ~nw; twice |= once & start; once |= start
    start = ne & ~n; twice |= once & start; once |= start
    start = e & ~ne; twice |= once & start; once |= start
    start = se & ~e; twice |= once & start; once |= start
    start = s & ~se; twice |= once & start; once |= start
    start = sw & ~s; twice |= once & start; once |= start
    start = w & ~sw; twice |= once & start; once |= start
    start = nw & ~w; twice |= once & start; once |= start
    return twice


cdef inline uint64_t msim_takeable(uint64_t occ, uint64_t row) noexcept nogil:
    """m_take_mask: M-13(a), then (b) by one board formula for the cards with at most one
    group of neighbours and m_connected_without for the others."""
    cdef uint64_t hard, out
    cdef int b
    if (row & (row - 1)) == 0:
        return 0
    hard = msim_crowded(occ) & row
    out = row & ~hard
    while hard:
        b = ctz64(hard)
        hard &= hard - 1
        out |= (<uint64_t>m_connected_without(occ, b)) << b
    return out


cdef inline uint64_t msim_run(const msim_board_t* b, const msim_tab_t* t, uint64_t bits, int pos,
                              int cell, int step, int card) noexcept nogil:
    """m_line without branches: the run through ``pos`` of the line ``bits`` (its 8 cells as
    the bits of a byte, ``step`` apart on the board) if it has 5 or 6 cards and ``card``
    shares two attributes with a neighbour on it (M-12), as a board, else 0."""
    cdef int up = ctz64(~(<uint64_t>(bits >> pos)))           # cards from pos on
    cdef int lo = HIGH8[~bits & ((1u << pos) - 1)] + 1        # the first card of the run
    cdef int n = pos + up - lo
    cdef uint32_t a = t.attr[card]
    cdef uint32_t m1 = a & t.attr[b.cells[cell - step]], m2 = a & t.attr[b.cells[cell + step]]
    cdef int ok = ((n >= 5) & (n <= 6)
                   & (((pos > lo) & ((m1 & (m1 - 1)) != 0)) | ((up > 1) & ((m2 & (m2 - 1)) != 0))))
    cdef uint64_t line = ((<uint64_t>1 << n) - 1) if step == 1 else (<uint64_t>0x0101010101010101ULL >> (8 * (8 - n)))
    return (line << (cell - step * (pos - lo))) & (<uint64_t>0 - <uint64_t>ok)


cdef inline uint64_t msim_hand_below(uint64_t h, int card) noexcept nogil:
    """The high bit of each byte of the packed hand ``h`` (cards < 128, empty slots 0xFF)
    that holds a card below ``card`` (< 128; M_EMPTY counts as 127, above every card)."""
    return ~((h | <uint64_t>0x8080808080808080ULL)
             - <uint64_t>(card & 0x7F) * <uint64_t>0x0101010101010101ULL) & <uint64_t>0x8080808080808080ULL


cdef inline uint64_t msim_hand_put_below(uint64_t h, int slot, int card, uint64_t lt) noexcept nogil:
    """msim_hand_put given ``lt = msim_hand_below(h, card)``, which does not depend on the
    slot (the caller may have it before the slot is drawn). M_EMPTY goes above every card,
    among the empty slots, where it changes nothing: the hand without the slot's card."""
    cdef uint64_t low = ((<uint64_t>1) << (8 * slot)) - 1
    cdef uint64_t rem = (h & low) | ((h >> 8) & ~low) | (<uint64_t>0xFF << 56)
    cdef uint64_t below = (lt & low) | ((lt >> 8) & ~low)      # the same bytes of rem
    cdef uint64_t lo = (below << 1) - (below >> 7)             # 0xFF on those bytes: the rank
    cdef uint64_t upto = (lo << 8) | 0xFF
    return (rem & lo) | ((<uint64_t>card * <uint64_t>0x0101010101010101ULL) & upto & ~lo) | ((rem << 8) & ~upto)


cdef inline uint64_t msim_hand_put(uint64_t h, int slot, int card) noexcept nogil:
    """A hand packed in a word (its cards ascending, one byte each, the empty slots 0xFF
    last) without the card of ``slot`` (0 .. 7) and with ``card`` (< 128, or M_EMPTY for
    none) at its rank: hand_replace, hand_remove and hand_add by arithmetic, no branch and
    no loop (the cards below it are found in every byte at once)."""
    return msim_hand_put_below(h, slot, card, msim_hand_below(h, card))


cdef inline uint64_t msim_bytes(uint64_t x) noexcept nogil:
    """The set bits of each byte of x, one count per byte (the first steps of popcount64)."""
    x = x - ((x >> 1) & <uint64_t>0x5555555555555555ULL)
    x = (x & <uint64_t>0x3333333333333333ULL) + ((x >> 2) & <uint64_t>0x3333333333333333ULL)
    return (x + (x >> 4)) & <uint64_t>0x0F0F0F0F0F0F0F0FULL


cdef inline int msim_select(uint64_t x, uint64_t pre, uint32_t r) noexcept nogil:
    """nth_bit(x, r) given ``pre = msim_bytes(x) * 0x0101010101010101`` (byte i: the set bits
    of bytes 0 .. i; its top byte the count, > r), which the caller had from counting. The
    bytes whose running count is at most r keep their high bit in ``t``; the first that does
    not holds the bit (its position by ctz: 8 k + 7)."""
    cdef uint64_t t = (((<uint64_t>r) * <uint64_t>0x0101010101010101ULL | <uint64_t>0x8080808080808080ULL) - pre) \
        & <uint64_t>0x8080808080808080ULL
    cdef int k8 = ctz64(t ^ <uint64_t>0x8080808080808080ULL) - 7
    r -= <uint32_t>(((pre << 8) >> k8) & 0xFF)
    return k8 + SELECT8[8 * ((x >> k8) & 0xFF) + r]


cdef inline void msim_bad(const msim_board_t* b, const msim_tab_t* t, uint64_t occ, uint64_t h, int H,
                          uint64_t* bad) noexcept nogil:
    """For each card of the packed hand ``h`` (H slots, empty ones M_EMPTY) the cards of the
    table it shares nothing with (M-6): it fits on no cell next to one of them."""
    cdef int i, card
    for i in range(H):
        card = <int>((h >> (8 * i)) & 0xFF)
        bad[i] = occ & ~(b.col[t.col[card]] | b.val[t.val[card]] | b.sym[t.sym[card]])


cdef inline int msim_count(uint64_t front, const uint64_t* bad, int H, uint64_t* mask, uint64_t* bpre,
                           uint32_t* pre) noexcept nogil:
    """The place masks from ``bad`` (msim_bad), the byte prefix sums of each (``bpre``, for
    msim_select) and the running sums of their cells (pre[i]: the cells of slots 0 .. i);
    returns their total."""
    cdef int i
    cdef uint32_t c = 0
    for i in range(H):
        mask[i] = front & ~nbrs(bad[i])
        bpre[i] = msim_bytes(mask[i]) * <uint64_t>0x0101010101010101ULL
        c += <uint32_t>(bpre[i] >> 56)
        pre[i] = c
    return <int>c


cdef inline int msim_masks(const msim_board_t* b, const msim_tab_t* t, uint64_t front, uint64_t occ,
                           uint64_t h, int H, uint64_t* bad, uint64_t* mask, uint64_t* bpre,
                           uint32_t* pre) noexcept nogil:
    """M-6, M-7: the place masks of the packed hand ``h`` (msim_bad, then msim_count)."""
    msim_bad(b, t, occ, h, H, bad)
    return msim_count(front, bad, H, mask, bpre, pre)


cdef inline bint msim_any_fits(const msim_board_t* b, const msim_tab_t* t, const m_cfg_t* c,
                               uint64_t front, uint64_t occ, const uint64_t* hand, int p,
                               const uint8_t* pile, int pile_b, int pile_n, int H) noexcept nogil:
    """M-17 when the seat to move has no placement: does a card of another hand or (the
    ``stuck_cards`` reading) of the pile fit?"""
    cdef int q, i
    for q in range(c.n):
        if q != p:
            for i in range(H):
                if msim_fits(b, t, front, occ, <int>((hand[q] >> (8 * i)) & 0xFF)):
                    return True
    if c.stuck_pile:
        for i in range(pile_n):
            if msim_fits(b, t, front, occ, pile[(pile_b + i) & (M_MAX_CARDS - 1)]):
                return True
    return False


cdef inline int msim_right(int p, int n) noexcept nogil:
    return p - 1 + (n & -(p == 0))


cdef int64_t m_sim_game(const m_cfg_t* c, const msim_tab_t* t, uint64_t deal, rng_t* policy,
                        int32_t* tot, int32_t* chips_out, int* end_out, int H) noexcept nogil:
    """One game of ``simulate``: the deal of m_deal from the generator ``deal`` (M-3 .. M-5),
    then each action drawn from ``policy`` as m_step_random draws it, to the end (the same
    game as m_init, m_settle and m_play_random, bit for bit). Returns the number of actions;
    leaves the chips in ``chips``, the value each seat took per colour in ``tot``
    (M_MAX_PLAYERS x M_MAX_ATTR, zeroed by the caller) and the end in ``end_out``. ``H`` is
    ``c.H`` (a constant at the call for the rules' hand). Hands are packed words
    (msim_hand_put), in the order of the hand (sorted by card id) that the legal list
    follows. ``bad`` holds, from the top of each turn, the next seat's cards against the
    table (msim_bad), and each change of the table updates it: its masks are then
    ``front & ~nbrs(bad[i])`` (msim_count)."""
    cdef msim_board_t b
    cdef uint64_t hand[M_MAX_PLAYERS]
    cdef uint8_t pile[M_MAX_CARDS]
    cdef int32_t hand_n[M_MAX_PLAYERS]
    cdef uint64_t mask[M_MAX_HAND]
    cdef uint64_t bad[M_MAX_HAND]
    cdef uint32_t pre[M_MAX_HAND]
    cdef uint64_t bpre[M_MAX_HAND]
    cdef int32_t chips[M_MAX_PLAYERS]
    cdef uint64_t occ = 0, front, row, hl, vl, tm, bit, keep, h, sel, tpre, hnxt, tlt
    cdef int n = c.n, p = 0, q, i, slot, cell, card, need, pay, k, sh, passes = 0, ex
    cdef int pile_b = 0, pile_n = c.in_play, total, hn, r0, c0, nxt, top
    cdef int64_t n_hist = 0, max_turns = c.max_turns
    cdef uint32_t r, before
    cdef int end = END_NONE
    cdef rng_t g = deal
    cdef rng_t pol = policy[0]   # (in a local: a register, whatever the stores to bytes)
    # M-3, M-4: the whole deck shuffled top down (m_deal's and m_settle's steps, in order);
    # the pile is its first in_play cards, the top last
    for i in range(c.n_cards):
        pile[i] = <uint8_t>i
    rng_shuffle_u8(&g, pile, c.n_cards)
    for i in range(M_MAX_ATTR + 2):
        b.col[i] = 0
        b.val[i] = 0
        b.sym[i] = 0
    memset(b.cells, M_EMPTY, 64)
    for i in range(c.n_layout):  # M-4 (fill_cfg anchors the layout at window cell (1, 1))
        pile_n -= 1
        card = pile[pile_n]
        cell = c.lay_cell[i]
        bit = (<uint64_t>1) << cell
        occ |= bit
        b.cells[cell] = <uint8_t>card
        b.col[t.col[card]] |= bit
        b.val[t.val[card]] |= bit
        b.sym[t.symw[card]] |= bit
    for q in range(n):  # M-5, M-2: seat 0 draws first
        h = ~(<uint64_t>0)
        hand_n[q] = 0
        while hand_n[q] < H and pile_n > 0:
            pile_n -= 1
            h = msim_hand_put(h, H - 1, pile[pile_n])
            hand_n[q] += 1
        hand[q] = h
        chips[q] = c.chips
    front = msim_front(occ)
    # M-17 before the first turn
    if front == 0:
        end = END_M17
    else:
        total = msim_masks(&b, t, front, occ, hand[p], H, bad, mask, bpre, pre)
        if total == 0 and not msim_any_fits(&b, t, c, front, occ, hand, p, pile, pile_b, pile_n, H):
            end = END_M17
    while end == END_NONE:
        # a turn of seat p: its masks are set, and some card fits somewhere (M-17)
        hn = hand_n[p]
        h = hand[p]
        nxt = (p + 1) & -(p + 1 != n)
        hnxt = hand[nxt]
        # the card a pass with an exchange or a placement brings into the hand: the top of
        # the pile (M_EMPTY if none), and the cards of the hand below it
        top = pile[(pile_b + pile_n - 1) & (M_MAX_CARDS - 1)] | (0xFF & -(pile_n == 0))
        tlt = msim_hand_below(h, top)
        # the next seat's cards against the table as it is: a pass leaves them as they are, a
        # placement, a take or a move of the window updates them (the next masks then wait
        # for a few operations, not for the boards)
        msim_bad(&b, t, occ, hnxt, H, bad)
        r = rng_below(&pol, <uint32_t>(total + 1 + (hn & -((chips[p] > 0) & (pile_n > 0)))))
        n_hist += 1
        if r >= <uint32_t>total:
            # M-9: a pass (slot -1) or the exchange of a slot, without a branch: with a chip,
            # the exchange and (the pass_cost reading) the pass pay one to the right; the card
            # goes under the pile (the free slot below it) and the top card takes its place
            slot = <int>(r - <uint32_t>total) - 1
            ex = slot >= 0
            slot &= 7
            pay = (chips[p] > 0) & (ex | c.pass_pays)
            chips[p] -= pay
            chips[msim_right(p, n)] += pay
            pile[(pile_b - 1) & (M_MAX_CARDS - 1)] = <uint8_t>((h >> (8 * slot)) & 0xFF)
            pile_b = (pile_b - ex) & (M_MAX_CARDS - 1)
            sel = -(<uint64_t>ex)
            hand[p] = h ^ ((h ^ msim_hand_put_below(h, slot, top, tlt)) & sel)
            passes = (passes + 1) & -(pile_n == 0)
            p = nxt
            if passes >= n:  # M-18
                end = END_M18
                break
            total = msim_count(front, bad, H, mask, bpre, pre)
            if total == 0 and ex and not c.stuck_pile:
                # stuck_cards='hands': the exchange may have sent the last fitting card away
                if not msim_any_fits(&b, t, c, front, occ, hand, p, pile, pile_b, pile_n, H):
                    end = END_M17
                    break
            if n_hist >= max_turns:
                end = END_MAX_TURNS
                break
            continue
        # M-6: the card of the slot whose cells hold index r, on its (r - before)-th cell
        slot = 0
        before = 0
        for i in range(H - 1):
            slot += r >= pre[i]
            before = pre[i] if r >= pre[i] else before
        cell = msim_select(mask[slot], bpre[slot], r - before)
        card = <int>((h >> (8 * slot)) & 0xFF)
        passes = 0
        # M-8: k - 1 chips for k neighbours, from the right neighbour on, never the placer's
        need = (<int>((occ >> 1) >> cell) & 1) + (<int>((occ << 1) >> cell) & 1) \
            + (<int>((occ >> 8) >> cell) & 1) + (<int>((occ << 8) >> cell) & 1) - 1
        occ |= (<uint64_t>1) << cell
        q = msim_right(p, n)
        pay = need if need < chips[q] else chips[q]
        chips[q] -= pay
        chips[p] += pay
        need -= pay
        k = 2
        while need > 0 and k < n:
            q = msim_right(q, n)
            pay = need if need < chips[q] else chips[q]
            chips[q] -= pay
            chips[p] += pay
            need -= pay
            k += 1
        # M-7: the window moves when the card lands on its top row or left column
        sh = (8 if cell < 8 else 0) + (1 if (cell & 7) == 0 else 0)
        if sh:
            occ <<= sh
            msim_shift(&b, c, -sh)
            for i in range(H):
                bad[i] <<= sh
            cell += sh
        bit = (<uint64_t>1) << cell
        for i in range(H):  # the card is bad for the next seat's cards it shares nothing with
            bad[i] |= bit & (<uint64_t>0 - <uint64_t>((t.attr[card] & t.attr[(hnxt >> (8 * i)) & 0xFF]) == 0))
        b.cells[cell] = <uint8_t>card
        b.col[t.col[card]] |= bit
        b.val[t.val[card]] |= bit
        b.sym[t.symw[card]] |= bit
        front = msim_front(occ)
        # M-12: the runs through the card, without a branch
        r0 = cell >> 3
        c0 = cell & 7
        hl = msim_run(&b, t, (occ >> (8 * r0)) & 0xFF, c0, cell, 1, card)
        vl = msim_run(&b, t, (((occ >> c0) & <uint64_t>0x0101010101010101ULL)
                              * <uint64_t>0x0102040810204080ULL) >> 56, r0, cell, 8, card)
        if not (hl | vl):  # M-10: the card's slot takes the top card (none: it empties)
            pile_n -= pile_n > 0
            hand_n[p] = hn - (top == M_EMPTY)
            hand[p] = msim_hand_put_below(h, slot, top, tlt)
        else:
            hand[p] = msim_hand_put(h, slot, M_EMPTY)
            hand_n[p] = hn - 1
            if not c.draw_late:  # draw_timing='before_scoring' (M-10)
                while hand_n[p] < H and pile_n > 0:
                    pile_n -= 1
                    hand[p] = msim_hand_put(hand[p], H - 1, pile[(pile_b + pile_n) & (M_MAX_CARDS - 1)])
                    hand_n[p] += 1
            if hl and vl:  # the placer chooses the row (the placement is counted first)
                if n_hist >= max_turns:
                    end = END_MAX_TURNS
                    break
                row = vl if rng_below(&pol, 2) else hl
                n_hist += 1
            else:
                row = hl | vl
            # M-13, M-14: takes while possible, the placer first, then to the right
            q = p
            tm = msim_takeable(occ, row)
            while tm:
                if n_hist >= max_turns:  # (the action before this take is counted)
                    end = END_MAX_TURNS
                    break
                tpre = msim_bytes(tm) * <uint64_t>0x0101010101010101ULL
                cell = msim_select(tm, tpre, rng_below(&pol, <uint32_t>(tpre >> 56)))
                card = b.cells[cell]
                keep = ~((<uint64_t>1) << cell)
                b.cells[cell] = M_EMPTY
                occ &= keep
                row &= keep
                for i in range(H):
                    bad[i] &= keep
                b.col[t.col[card]] &= keep
                b.val[t.val[card]] &= keep
                b.sym[t.symw[card]] &= keep
                tot[q * M_MAX_ATTR + t.col[card]] += t.worth[card]  # M-15
                q = msim_right(q, n)
                n_hist += 1
                if (occ & <uint64_t>0xFF00) == 0 or (occ & <uint64_t>0x0202020202020202ULL) == 0:
                    sh = ((occ & <uint64_t>0xFF00) == 0) * 8 + ((occ & <uint64_t>0x0202020202020202ULL) == 0)
                    occ >>= sh
                    row >>= sh
                    msim_shift(&b, c, sh)
                    for i in range(H):
                        bad[i] >>= sh
                tm = msim_takeable(occ, row)
            if end != END_NONE:
                break
            front = msim_front(occ)
            if pile_n == 0:  # M-16
                end = END_M16
                break
        # M-10, M-11: the placer draws up, its left neighbour plays; M-17
        while hand_n[p] < H and pile_n > 0:
            pile_n -= 1
            hand[p] = msim_hand_put(hand[p], H - 1, pile[(pile_b + pile_n) & (M_MAX_CARDS - 1)])
            hand_n[p] += 1
        p = nxt
        if front == 0:
            end = END_M17
            break
        total = msim_count(front, bad, H, mask, bpre, pre)
        if total == 0 and not msim_any_fits(&b, t, c, front, occ, hand, p, pile, pile_b, pile_n, H):
            end = END_M17
            break
        if n_hist >= max_turns:
            end = END_MAX_TURNS
            break
    for q in range(n):
        chips_out[q] = chips[q]
    policy[0] = pol
    end_out[0] = end
    return n_hist


cdef void sim_range(const void* v, uint64_t seed, Py_ssize_t start, Py_ssize_t stop,
                    const sim_out_t* out) noexcept nogil:
    """``simulate``'s games ``start .. stop - 1`` (``run_sim_chunk``), each by ``m_sim_game``
    (the game of m_init, m_settle and m_play_random) and scored as m_scores scores."""
    cdef const m_cfg_t* cfg = <const m_cfg_t*>v
    cdef msim_tab_t tab
    cdef rng_t policy
    cdef int64_t sc[M_MAX_PLAYERS]
    cdef int32_t tot[M_MAX_PLAYERS * M_MAX_ATTR]
    cdef int32_t chips[M_MAX_PLAYERS]
    cdef int p, mask, k, b1, b2, x, total, end
    cdef int64_t length
    cdef Py_ssize_t i, r
    msim_fill_tab(cfg, &tab)
    for i in range(start, stop):
        policy = rng_derive(seed, 2 * <uint64_t>i + 1)
        memset(tot, 0, sizeof(tot))
        if cfg.H == 4:  # the rules' hand (M-5): a constant for the compiler
            length = m_sim_game(cfg, &tab, rng_derive(seed, 2 * <uint64_t>i), &policy, tot, chips, &end, 4)
        else:
            length = m_sim_game(cfg, &tab, rng_derive(seed, 2 * <uint64_t>i), &policy, tot, chips, &end, cfg.H)
        for p in range(cfg.n):  # M-20, as m_scores
            b1 = -1
            b2 = -1
            total = 0
            for k in range(M_MAX_ATTR):
                x = tot[p * M_MAX_ATTR + k]
                total += x
                if x > b1:
                    b2 = b1
                    b1 = x
                elif x > b2:
                    b2 = x
            sc[p] = 10 * chips[p] + 2 * (b1 + b2) - total
        mask = winner_mask_of(sc, cfg.n)
        r = i - start
        for p in range(cfg.n):
            out.scores[r * out.sstride + p] = sc[p]
            out.winners[r * out.wstride + p] = (mask >> p) & 1
        out.lengths[r] = length
        out.truncated[r] = end == END_MAX_TURNS


# ---- the Python-facing class ------------------------------------------------------------------

cdef inline int log_reserve(m_log_t** buf, Py_ssize_t* cap, Py_ssize_t need) except -1:
    """``array_reserve`` for the action array (history and log entries; 64 at first)."""
    return array_reserve(<void**>buf, cap, need, sizeof(m_log_t), 64)


@cython.no_gc  # it holds its game and seed, which hold no state: no cycle
cdef class MGameCore(StateCore):
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

    cdef int _init(self, object game, uint64_t seed) except -1:
        """``new``: the constants of ``game`` and the deal of ``seed`` (StateCore)."""
        load_cfg(&M_CFG, game, &self.s.cfg, sizeof(m_cfg_t))
        m_deal(&self.s, seed)  # (a new object is zero-filled)
        self.log_r = self.s.orow
        self.log_c = self.s.ocol
        return 0

    cdef const mh_game_t* _iface(self) noexcept:
        return &M_GAME

    cdef void* _struct(self) noexcept:
        return &self.s

    @classmethod
    def _from_valid_dict(cls, game, dict d):
        """Build from a dict already checked by ``game._validate_dict`` (``Game._load``
        only: the struct takes its values unchecked)."""
        cdef MGameCore st = <MGameCore>state_new(<type>cls, game)
        cdef m_t* s = &st.s
        cdef int i, p, k
        load_cfg(&M_CFG, game, &s.cfg, sizeof(m_cfg_t))
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
            for card in d["taken"][p]:  # (seat by seat, as m_add_taken keeps them)
                m_add_taken(s, p, card)
        # the ring buffer's bottom moves down one slot per exchange (M-9) and stays put
        # otherwise: it is placed by the history's exchanges, as play placed it
        k = 0
        for a in d["history"]:
            k += s.cfg.A_EXCH <= a < s.cfg.A_ROW
        s.pile_b = (-k) & (M_MAX_CARDS - 1)
        s.pile_n = len(d["pile"])
        for i in range(s.pile_n):
            s.pile[(s.pile_b + i) & (M_MAX_CARDS - 1)] = d["pile"][i]
            s.putter[(s.pile_b + i) & (M_MAX_CARDS - 1)] = d["pile_putter"][i]
        for card in d["removed"]:
            s.removed[card >> 6] |= (<uint64_t>1) << (card & 63)
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
        m_refresh(s)
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

    cdef int _copy_rest(self, StateCore src) except -1:
        """``clone``: the action array (the struct is copied)."""
        cdef MGameCore o = <MGameCore>src
        cdef Py_ssize_t n = o.s.n_hist
        self.log_r = o.log_r
        self.log_c = o.log_c
        if n:
            self.log = <m_log_t*>malloc((n + 16) * sizeof(m_log_t))
            if self.log == NULL:
                raise MemoryError()
            self.log_cap = n + 16
            memcpy(self.log, o.log, n * sizeof(m_log_t))
        return 0

    cdef int _determinized(self, int p) except -1:
        """``determinize`` (the hidden cards, M-22, dealt again by ``m_determinize``): the
        history names another seat's placements and exchanges canonically (slot 0 and the
        exchange of slot 0: the view hides their slot)."""
        cdef m_log_t* e
        cdef Py_ssize_t i
        for i in range(self.s.n_hist):
            e = &self.log[i]
            if e.seat != p and e.action < self.s.cfg.A_ROW and e.action != self.s.cfg.A_PASS:
                e.action = 0 if e.card >= 0 else <uint16_t>self.s.cfg.A_EXCH
        return 0

    cdef int _admit(self, int64_t a) except -1:
        """An action of docs/games/m.md that the rules allow now: recorded, 1; else 0."""
        if a < 0 or a >= self.s.cfg.num_actions or not m_is_legal(&self.s, <int>a):
            return 0
        self._record(<int>a)
        return 1

    cdef const uint16_t* _hist(self, Py_ssize_t* n, Py_ssize_t* step) noexcept:
        n[0] = self.s.n_hist
        step[0] = sizeof(m_log_t) // sizeof(uint16_t)  # (the action is the entry's first field)
        return <const uint16_t*>self.log

    cdef int _obs_shape(self, cnp.npy_intp* dims) noexcept:
        dims[0] = self.s.cfg.channels
        dims[1] = M_W
        dims[2] = M_W
        return 3

    cdef void _scores(self, int64_t* out) noexcept:
        """M-20, defined at any time (hand cards never count, M-19)."""
        m_scores(&self.s, out)

    cdef int _winner_mask(self) noexcept:
        """M-21: the highest score wins; ties are shared."""
        return m_winner_mask(&self.s)

    def _to_dict(self):
        cdef m_t* s = &self.s
        cdef int p, i, b
        cdef m_log_t* e
        cdef uint64_t bits = s.occ
        m_settle(s)  # the pile's order and the generator, as the reference engine has them
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
        d["removed"] = [c for c in range(s.cfg.n_cards) if (s.removed[c >> 6] >> (c & 63)) & 1]
        d["chips"] = [s.chips[p] for p in range(s.cfg.n)]
        d["taken"] = taken = []
        for p in range(s.cfg.n):
            t = []
            b = s.thead[p]
            while b:
                t.append(b - 1)
                b = s.tnext[b - 1]
            taken.append(t)
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
        cdef m_cfg_t cfg
        load_cfg(&M_CFG, game, &cfg, sizeof(m_cfg_t))
        run_sim_chunk(sim_range, &cfg, cfg.n, seed, start, stop, scores, winners, lengths, truncated)


def __getattr__(name):
    """``MCore``, the old name of ``MGameCore`` (it read as the ``MC`` prefix of Maus au
    Chocolat), kept until the next minor version: a ``DeprecationWarning``."""
    if name == "MCore":
        from mousehole._values import warn_deprecated
        warn_deprecated("mousehole._m.MCore", "mousehole._m.MGameCore")
        return MGameCore
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
