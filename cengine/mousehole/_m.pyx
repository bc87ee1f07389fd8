# cython: language_level=3
"""Compiled M engine (rules M-1 .. M-22).

The state is one C struct (``m_t`` in ``_m.pxd``): a pointer to the game's constants
(``cfg``, shared by every state of the game and held alive by each state object) and the
position (``pos``, ``m_pos_t``), everything play changes. The table is an 8 x 8 window of
bitboards (one uint64 for the occupied cells, one per colour, per value and per symbol)
anchored so that the bounding box starts at window cell (1, 1): it moves only when a card
lands on the window's top row or left column, or a take empties the top row or the left
column, so the window never overflows however far the layout drifts; the absolute
coordinates are kept in two int64 offsets. A hand is one word, a card a byte, ascending.

How the rules are written: once each
------------------------------------

Every rule of M is one small inline block (``noexcept nogil``, allocating nothing) over the
position and plain values, named for the rule it applies and citing its id: ``m_fits``
(M-6, M-7: where a card may go), ``m_front`` (M-7), ``m_pay_chips`` (M-8), ``m_pass``
(M-9), ``m_lay`` (M-6 .. M-8: a card on the table), ``m_runs`` (M-12), ``m_takeable``
(M-13), ``m_take_card`` (M-13 .. M-15), ``m_end_turn`` (M-10, M-11), ``m_turn_start``
(M-17), ``m_scoring_done`` (M-16), ``m_deal_cards`` (M-2, M-4, M-5), ``m_score_of``
(M-20). ``m_play`` is a turn's action (a pass, an exchange or a placement) made of them.

Everything that plays is a sequence of those blocks:

* the state's step, ``m_act(s, r)``: the ``r``-th legal action (the legal list is ascending:
  the placements slot by slot and cells ascending, the pass, the exchanges; the row choices;
  the takes by cell). ``m_apply`` (a given action) is ``m_act`` of the action's index in the
  list (``m_index``), ``m_random_step`` (simulate's action model: one action drawn uniformly,
  the C interface's and ``VectorGame``'s step) is ``m_act`` of a draw, ``m_rollout`` repeats it;
* ``m_run_game``: a game played to its end by simulate's action model in one loop, the turn
  written out in order (a placement, the row choice, the takes, the end of the turn) rather
  than dispatched on the phase of each action, with the same draws: the game of repeated
  ``m_random_step``, bit for bit. ``simulate`` (``m_sim_game``) deals and runs it, the
  search's play-out (``m_playout``, the interface's ``playout``) runs it from the state.

The blocks take the position by pointer and a constant ``rec``. The state's step passes its
own position and ``rec`` 1: the blocks then also keep what play does not read but the state
shows (the taken lists, who put a card under the pile, the last cell, free slots zeroed, the
deal's deferred steps, the caches of the phases). ``m_run_game`` passes a copy of the
position in a local and ``rec`` 0: the compiler drops that bookkeeping, and, the local's
address not escaping once the blocks are inlined, keeps its scalars (the occupied cells, the
free cells, the seat, the pile's ends, the scoring row) in registers, as a loop written with
locals would (docs/notes.md, "The yardstick").

What made that loop fast is kept in the blocks (docs/notes.md, "The yardstick", sittings
3-8): the branch-free arithmetic where an outcome is a coin flip to the branch predictor (a
pass or an exchange, a run or none, a card's slot); the hand as a word, re-sorted by byte
arithmetic; and the next turn prepared before the current draw from what the current turn
cannot change. ``bad`` holds the next seat's cards against the table (the cells of cards each
shares nothing with: it fits on no cell next to one of them, M-6), computed at the top of the
turn and kept up to date by the few operations a placement, a take or a move of the window
make, so that after the branch the next seat's masks are ``front & ~nbrs(bad[i])`` and a
count; and the card a pass's exchange or a placement brings into the hand (the top of the
pile) is read with its rank among the hand's cards at the top of the turn. The state keeps
the same caches (``bad``, the masks and their running counts, ``total``): functions of the
rest of the state, so that every path that builds a state (play, ``from_dict``, a
determinization) builds the same bytes (``m_refresh``).

Leaf functions: ``m_connected_without`` (M-13 b for one candidate take: a 512-entry table of
3 x 3 blocks settles most candidates, and the groups of neighbours it leaves apart are
flooded together until they meet or one stops growing), ``m_crowded`` (the candidates that
need it, for the whole board at once).

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
from mousehole._cgame cimport mh_game_def
from mousehole._boundary cimport array_reserve, sim_out_t, sim_row
from mousehole._statecore cimport StateCore, state_loaded, load_constants, core_t, core_def, core_capsule, core_place

import numpy as np

cnp.import_array()

PHASES = ("play", "choose", "take", "over")
ENDS = (None, "M-16", "M-17", "M-18", "max_turns")

cdef extern from *:
    """
    /* mousehole._m: a function that plays on a position in a local (simulate's loop) or a
       state's step declares its return type flat_void: the compiler inlines every call in it
       (GCC and clang's flatten), so that the blocks' pointers to the local do not make it
       escape (the compiler then keeps its scalars in registers) whatever its inlining limits
       decide for a block of this size */
    #if defined(__GNUC__) || defined(__clang__)
    #define M_FLAT_VOID __attribute__((flatten)) void
    #define M_FLAT_INT __attribute__((flatten)) int
    #else
    #define M_FLAT_VOID void
    #define M_FLAT_INT int
    #endif
    """
    ctypedef void flat_void "M_FLAT_VOID"
    ctypedef int flat_int "M_FLAT_INT"


cdef extern from *:
    """
    /* mousehole._m: VectorGame's loop asks for the next env's first 13 cache lines (m_pos_t's
       fields a step touches lead the struct; _vblock.pxi) */
    #define MH_VB_PREFETCH_BYTES 832
    """


cdef extern from *:
    """
    /* mousehole._m: a function that stays a call (GCC and clang's noinline; flatten does
       not inline it) */
    #if defined(__GNUC__) || defined(__clang__)
    #define M_NOINLINE_INT __attribute__((noinline)) int
    #else
    #define M_NOINLINE_INT int
    #endif
    """
    ctypedef int noinline_int "M_NOINLINE_INT"


cdef extern from *:
    """
    /* mousehole._m: a test the compiler is told is almost always true (GCC and clang's
       __builtin_expect): the code of the other outcome is laid out away from the loop */
    #if defined(__GNUC__) || defined(__clang__)
    #define M_LIKELY(x) __builtin_expect(!!(x), 1)
    #else
    #define M_LIKELY(x) (x)
    #endif
    """
    bint likely "M_LIKELY"(bint) noexcept nogil


cdef extern from *:
    """
    /* mousehole._m: window rows and columns, byte lanes (constants, not variables: a variable
       would be loaded again after every store to a byte array, which may alias it) */
    #define M_ROW0 ((uint64_t)0xFFULL)
    #define M_ROW1 ((uint64_t)0xFF00ULL)
    #define M_ROW6 ((uint64_t)0x00FF000000000000ULL)
    #define M_COL0 ((uint64_t)0x0101010101010101ULL)
    #define M_COL1 ((uint64_t)0x0202020202020202ULL)
    #define M_COL6 ((uint64_t)0x4040404040404040ULL)
    #define M_COL_GATHER ((uint64_t)0x0102040810204080ULL)
    #define M_L8 ((uint64_t)0x0101010101010101ULL)
    #define M_H8 ((uint64_t)0x8080808080808080ULL)
    """
    const uint64_t ROW0 "M_ROW0"
    const uint64_t ROW1 "M_ROW1"
    const uint64_t ROW6 "M_ROW6"
    const uint64_t COL0 "M_COL0"
    const uint64_t COL1 "M_COL1"
    const uint64_t COL6 "M_COL6"
    const uint64_t COL_GATHER "M_COL_GATHER"
    const uint64_t L8 "M_L8"     # 1 in every byte
    const uint64_t H8 "M_H8"     # the high bit of every byte

# ---- tables, filled at import ------------------------------------------------------------------

# The 3 x 3 block around a card: bit 3 dr + dc (dr, dc in 0..2; the card itself is bit 4,
# ignored) of BLOCK_BITS spread as window bits 8 dr + dc (relative to the block's corner).
# ARCS[b] = k and ARC_BB[b][0..k): the arcs (runs of occupied cells of the ring of the 8
# surrounding cells, in their cyclic order, where consecutive cells are neighbours) that hold
# an orthogonal neighbour of the card. Taking the card keeps the table connected (M-13 b)
# exactly when these groups of cards stay connected to each other; with k <= 1 they are.
cdef uint8_t ARCS[512]
cdef uint32_t ARC_BB[512][4]
cdef uint8_t DECK[M_MAX_CARDS]   # the unshuffled deck: card i at position i
cdef int8_t HIGH8[256]           # the index of the highest set bit of a byte (-1 for 0)
cdef uint8_t SELECT8[256 * 8]    # SELECT8[8 x + r]: the index of the r-th set bit of byte x


cdef inline uint32_t spread9(int m) noexcept nogil:
    return (m & 7) | ((m & 0x38) << 5) | ((m & 0x1C0) << 10)


cdef void fill_tables() noexcept nogil:
    cdef int ring[8]
    cdef int b, i, j, start, arc, orth, x, r
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
    for i in range(M_MAX_CARDS):
        DECK[i] = <uint8_t>i
    HIGH8[0] = -1
    for x in range(1, 256):
        i = 7
        while not (x >> i) & 1:
            i -= 1
        HIGH8[x] = <int8_t>i
    for x in range(256):
        r = 0
        for i in range(8):
            SELECT8[8 * x + i] = 0
        for i in range(8):
            if (x >> i) & 1:
                SELECT8[8 * x + r] = <uint8_t>i
                r += 1


fill_tables()

# ---- bits and seats ------------------------------------------------------------------------------

cdef inline uint64_t nbrs(uint64_t b) noexcept nogil:
    """The cells orthogonally adjacent to b (b within window rows/cols 1..6: no wrap)."""
    return (b << 1) | (b >> 1) | (b << 8) | (b >> 8)


cdef inline uint64_t shift_bb(uint64_t b, int sh) noexcept nogil:
    """The board moved from bit i to bit i - sh."""
    if sh > 0:
        return b >> sh
    if sh < 0:
        return b << (-sh)
    return b


cdef inline uint64_t byte_counts(uint64_t x) noexcept nogil:
    """The set bits of each byte of x, one count per byte (the first steps of popcount64)."""
    x = x - ((x >> 1) & <uint64_t>0x5555555555555555ULL)
    x = (x & <uint64_t>0x3333333333333333ULL) + ((x >> 2) & <uint64_t>0x3333333333333333ULL)
    return (x + (x >> 4)) & <uint64_t>0x0F0F0F0F0F0F0F0FULL


cdef inline int select_bit(uint64_t x, uint64_t pre, uint32_t r) noexcept nogil:
    """The index of the r-th (from 0) set bit of x, lowest first, given ``pre =
    byte_counts(x) * L8`` (byte i: the set bits of bytes 0 .. i; its top byte the count, > r).
    The bytes whose running count is at most r keep their high bit in ``t``; the first that
    does not holds the bit (its position by ctz: 8 k + 7); then a table."""
    cdef uint64_t t = (((<uint64_t>r) * L8 | H8) - pre) & H8
    cdef int k8 = ctz64(t ^ H8) - 7
    r -= <uint32_t>(((pre << 8) >> k8) & 0xFF)
    return k8 + SELECT8[8 * ((x >> k8) & 0xFF) + r]


cdef inline int nth_bit(uint64_t x, uint32_t r) noexcept nogil:
    """The index of the r-th (from 0) set bit of x (r below its count)."""
    return select_bit(x, byte_counts(x) * L8, r)


# The seats wrap around without a branch: in a random game the seat to move is a coin toss
# for the branch predictor (at 2 players it alternates), and a mispredicted branch costs
# more than the arithmetic.

cdef inline int next_seat(int p, int n) noexcept nogil:
    """The left neighbour (M-11)."""
    return (p + 1) & -(p + 1 != n)


cdef inline int right_seat(int p, int n) noexcept nogil:
    """The right neighbour (M-8, M-9, M-13)."""
    return p - 1 + (n & -(p == 0))


# ---- a hand: one word, ascending, a card a byte, the empty slots M_EMPTY -----------------------

cdef inline int hand_card(uint64_t h, int slot) noexcept nogil:
    """The card in ``slot`` (M_EMPTY if none)."""
    return <int>((h >> (8 * slot)) & 0xFF)


cdef inline uint64_t hand_below(uint64_t h, int card) noexcept nogil:
    """The high bit of each byte of the hand ``h`` (cards < 128, empty slots 0xFF) that holds
    a card below ``card`` (< 128; M_EMPTY counts as 127, above every card)."""
    return ~((h | H8) - <uint64_t>(card & 0x7F) * L8) & H8


cdef inline uint64_t hand_put_below(uint64_t h, int slot, int card, uint64_t lt) noexcept nogil:
    """``hand_put`` given ``lt = hand_below(h, card)``, which does not depend on the slot (the
    caller may have it before the slot is drawn). M_EMPTY goes above every card, among
    the empty slots, where it changes nothing: the hand without the slot's card."""
    cdef uint64_t low = ((<uint64_t>1) << (8 * slot)) - 1
    cdef uint64_t rem = (h & low) | ((h >> 8) & ~low) | (<uint64_t>0xFF << 56)
    cdef uint64_t below = (lt & low) | ((lt >> 8) & ~low)      # the same bytes of rem
    cdef uint64_t lo = (below << 1) - (below >> 7)             # 0xFF on those bytes: the rank
    cdef uint64_t upto = (lo << 8) | 0xFF
    return (rem & lo) | ((<uint64_t>card * L8) & upto & ~lo) | ((rem << 8) & ~upto)


cdef inline uint64_t hand_put(uint64_t h, int slot, int card) noexcept nogil:
    """The hand without the card of ``slot`` (0 .. 7; an empty slot: none) and with ``card``
    (M_EMPTY: none) at its rank: a card in, out or replaced by arithmetic, no branch and no loop
    (the cards below it are found in every byte at once)."""
    return hand_put_below(h, slot, card, hand_below(h, card))


cdef inline uint64_t hand_of(uint64_t w, int k) noexcept nogil:
    """The hand of the word ``w`` whose bytes 0 .. k-1 (k = 1 .. 8) hold k distinct cards in any
    order and the others M_EMPTY, built at once: each card goes to the slot of its rank, the
    number of the cards below it (hand_below's bytes, summed by a multiply), no branch."""
    cdef uint64_t h = (~(<uint64_t>0) << (4 * k)) << (4 * k)   # (a shift by 64 is undefined)
    cdef int i, card
    for i in range(k):
        card = hand_card(w, i)
        h |= <uint64_t>card << (8 * <int>(((hand_below(w, card) >> 7) * L8) >> 56))
    return h


# ---- the table (M-6, M-7, M-12, M-13) ------------------------------------------------------------

cdef inline uint64_t m_bad(const m_board_t* b, const m_cfg_t* c, int card) noexcept nogil:
    """M-6: the cards of the table that share no attribute with ``card`` (value-0 cards have no
    symbol): it may go on no cell next to one of them. M_EMPTY (no card) shares nothing."""
    return b.occ & ~(b.col[c.card[card].colour] | b.val[c.card[card].vidx] | b.sym[c.card[card].symi])


cdef inline uint64_t m_fits(const m_board_t* b, const m_cfg_t* c, int card) noexcept nogil:
    """M-6, M-7: the cells where ``card`` may be laid now (none for no card)."""
    return b.front & ~nbrs(m_bad(b, c, card))


cdef inline uint64_t m_front(uint64_t occ) noexcept nogil:
    """M-7 for a table anchored at window cell (1, 1): the free cells next to it, where a card
    may go; a sixth occupied row (column) closes the border rows (columns). No branch."""
    cdef uint64_t area = ~(((ROW0 | (ROW0 << 56)) & -(<uint64_t>((occ & ROW6) != 0)))
                           | ((COL0 | (COL0 << 7)) & -(<uint64_t>((occ & COL6) != 0))))
    return nbrs(occ) & ~occ & area


cdef inline void m_board_clear(m_board_t* b) noexcept nogil:
    cdef int i
    b.occ = 0
    b.front = 0
    for i in range(M_MAX_ATTR + 2):
        b.col[i] = 0
        b.val[i] = 0
        b.sym[i] = 0
    for i in range(64):
        b.cells[i] = M_EMPTY


cdef inline void m_board_origin(m_board_t* b, int64_t orow, int64_t ocol) noexcept nogil:
    """The window's cell (0, 0) is the absolute cell (orow, ocol)."""
    b.orow = orow
    b.ocol = ocol
    b.koff = <int32_t>((orow * 8 + ocol) & 63)


cdef inline int m_cell_byte(const m_board_t* b, int cell) noexcept nogil:
    """Where ``cells`` keeps the card of window cell ``cell``: its absolute cell on an 8 x 8
    torus, (8 row + column) mod 64, so that a card keeps its byte when the window moves (the
    table fits in 6 x 6 cells, M-7: two cards never share a byte)."""
    return (cell + b.koff) & 63


cdef inline int m_card_at(const m_board_t* b, int cell) noexcept nogil:
    """The card on window cell ``cell`` (M_EMPTY if none)."""
    return b.cells[m_cell_byte(b, cell)]


cdef inline void m_board_put(m_board_t* b, const m_cfg_t* c, int cell, int card) noexcept nogil:
    """``card`` on ``cell`` (``front`` is the caller's)."""
    cdef uint64_t bit = (<uint64_t>1) << cell
    b.cells[m_cell_byte(b, cell)] = <uint8_t>card
    b.occ |= bit
    b.col[c.card[card].colour] |= bit
    b.val[c.card[card].vidx] |= bit
    b.sym[c.card[card].symw] |= bit


cdef inline int m_board_lift(m_board_t* b, const m_cfg_t* c, int cell) noexcept nogil:
    """The card on ``cell`` leaves the table (``front`` is the caller's); returns it."""
    cdef uint64_t keep = ~((<uint64_t>1) << cell)
    cdef int i = m_cell_byte(b, cell), card = b.cells[i]
    b.cells[i] = M_EMPTY
    b.occ &= keep
    b.col[c.card[card].colour] &= keep
    b.val[c.card[card].vidx] &= keep
    b.sym[c.card[card].symw] &= keep
    return card


cdef inline void m_board_shift(m_board_t* b, const m_cfg_t* c, int dr, int dc) noexcept nogil:
    """M-7: the window's origin moves by (dr, dc) cells: every card from window bit i to
    i - sh, sh = 8 dr + dc (the cards stay inside the window, no row wraps; ``cells`` keep
    their bytes); ``front`` is the caller's."""
    cdef int i, sh = 8 * dr + dc
    b.occ = shift_bb(b.occ, sh)
    for i in range(c.nc):
        b.col[i] = shift_bb(b.col[i], sh)
    for i in range(c.nv):
        b.val[i] = shift_bb(b.val[i], sh)
    for i in range(c.ns):
        b.sym[i] = shift_bb(b.sym[i], sh)
    b.sym[M_MAX_ATTR + 1] = shift_bb(b.sym[M_MAX_ATTR + 1], sh)
    b.orow += dr
    b.ocol += dc
    b.koff = (b.koff + sh) & 63


cdef void m_normalize(m_board_t* b, const m_cfg_t* c) noexcept nogil:
    """Re-anchor the window at (top - 1, left - 1) and set ``front`` (any table: a loaded one)."""
    cdef int r, minr = 8, minc
    cdef uint64_t fold = 0, row
    for r in range(8):
        row = (b.occ >> (8 * r)) & <uint64_t>0xFF
        if row:
            if r < minr:
                minr = r
            fold |= row
    minc = ctz64(fold)
    if minr != 1 or minc != 1:
        m_board_shift(b, c, minr - 1, minc - 1)
    b.front = m_front(b.occ)


cdef inline uint64_t m_run(uint64_t bits, int pos, int cell, int step, uint64_t two) noexcept nogil:
    """M-12: the run through ``pos`` of the line ``bits`` (its 8 cells as the bits of a byte,
    ``step`` apart on the board) if it has 5 or 6 cards and the card on ``cell`` shares two
    attributes with a neighbour on it (``two``: the cards that share two with it), as a board,
    else 0. No branch: whether a run forms is a coin flip to the predictor (the cards lie in
    window rows/cols 1..6: the byte's ends are empty)."""
    cdef int up = ctz64(~(<uint64_t>(bits >> pos)))           # cards from pos on
    cdef int lo = HIGH8[~bits & ((1u << pos) - 1)] + 1        # the first card of the run
    cdef int n = pos + up - lo
    cdef int ok = ((n >= 5) & (n <= 6)
                   & (((pos > lo) & <int>((two >> (cell - step)) & 1)) | ((up > 1) & <int>((two >> (cell + step)) & 1))))
    cdef uint64_t line = ((<uint64_t>1 << n) - 1) if step == 1 else (COL0 >> (8 * (8 - n)))
    return (line << (cell - step * (pos - lo))) & (<uint64_t>0 - <uint64_t>ok)


cdef inline void m_runs(const m_board_t* b, const m_cfg_t* c, int cell, int card, uint64_t* hl,
                        uint64_t* vl) noexcept nogil:
    """M-12: the qualifying runs through ``card`` on ``cell``: its row (hl) and column (vl)."""
    cdef int r0 = cell >> 3, c0 = cell & 7
    cdef uint64_t col = b.col[c.card[card].colour], val = b.val[c.card[card].vidx]
    cdef uint64_t two = (col & val) | (b.sym[c.card[card].symi] & (col | val))
    hl[0] = m_run((b.occ >> (8 * r0)) & 0xFF, c0, cell, 1, two)
    vl[0] = m_run((((b.occ >> c0) & COL0) * COL_GATHER) >> 56, r0, cell, 8, two)


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


cdef inline uint64_t m_crowded(uint64_t o) noexcept nogil:
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


cdef noinline_int m_connected_call(uint64_t occ, int cell) noexcept nogil:
    """m_connected_without as a call wherever it is used: inlined (flat_void), its loops would
    take registers from the loop around it (simulate: 2% more instructions)."""
    return m_connected_without(occ, cell)


cdef inline uint64_t m_takeable(uint64_t occ, uint64_t row) noexcept nogil:
    """M-13: the cards of the scoring row ``row`` that may be taken now: none when at most one
    is left (a), else those whose removal keeps the table connected (b): at once for the cards
    with at most one group of neighbours, by m_connected_without for the others."""
    cdef uint64_t hard, out
    cdef int b
    if (row & (row - 1)) == 0:
        return 0
    hard = m_crowded(occ) & row
    out = row & ~hard
    while hard:
        b = ctz64(hard)
        hard &= hard - 1
        out |= (<uint64_t>m_connected_call(occ, b)) << b
    return out


# ---- the pile (M-9, M-10) ------------------------------------------------------------------------

cdef inline int m_top(const m_pos_t* x) noexcept nogil:
    """The top card of the pile, M_EMPTY if it is empty (the free slot below is read then)."""
    return x.pile[(x.pile_b + x.pile_n - 1) & (M_MAX_CARDS - 1)] | (0xFF & -(x.pile_n == 0))


cdef inline void m_fix(m_pos_t* x, int i) noexcept nogil:
    """The deal's deferred shuffle step for pile slot i = lazy - 1 (the deck position i):
    swap it with a uniform slot 0 .. i, as the top-down shuffle does (none for slot 0)."""
    cdef int j
    cdef uint8_t tmp
    if i > 0:
        j = <int>rng_below(&x.rng, <uint32_t>(i + 1))
        tmp = x.pile[i]; x.pile[i] = x.pile[j]; x.pile[j] = tmp
    x.lazy = i


cdef inline void m_fix_top(m_pos_t* x) noexcept nogil:
    """Keep the top card fixed (m_top reads it): the slots of the deferred part of the deal
    (0 .. lazy-1) are the bottom of the dealt pile, and every other card of the ring (those
    above them, those put under the pile by M-9) is in another slot, so the top is in that
    part only as slot lazy-1, the next step's position."""
    cdef int i = (x.pile_b + x.pile_n - 1) & (M_MAX_CARDS - 1)
    if x.pile_n > 0 and i < x.lazy:
        m_fix(x, i)


cdef void m_settle(m_pos_t* x) noexcept nogil:
    """Every deferred shuffle step, in the shuffle's order: the pile order and the generator
    a shuffle done at once gives (what ``to_dict`` shows)."""
    while x.lazy > 0:
        m_fix(x, x.lazy - 1)


cdef inline int m_draw(m_pos_t* x, bint rec) noexcept nogil:
    """M-10: the top card leaves the pile (pile_n > 0); returns it. ``rec``: its slot is
    zeroed, and the next top card fixed."""
    cdef int i, card
    x.pile_n -= 1
    i = (x.pile_b + x.pile_n) & (M_MAX_CARDS - 1)
    card = x.pile[i]
    if rec:
        x.pile[i] = 0
        x.putter[i] = 0
        m_fix_top(x)
    return card


cdef inline void m_draw_up(m_pos_t* x, int p, int H, bint rec) noexcept nogil:
    """M-10: seat p draws until it holds H cards or the pile is empty."""
    while x.hand_n[p] < H and x.pile_n > 0:
        x.hand[p] = hand_put(x.hand[p], H - 1, m_draw(x, rec))
        x.hand_n[p] += 1


# ---- the turn (M-6 .. M-18) ----------------------------------------------------------------------

cdef inline void m_set_bad(m_pos_t* x, const m_cfg_t* c, uint64_t h, int H) noexcept nogil:
    """M-6: ``bad`` for each card of the hand ``h`` (H slots; an empty one, no card, is bad
    next to every card)."""
    cdef int i
    for i in range(H):
        x.bad[i] = m_bad(&x.board, c, hand_card(h, i))


cdef inline int m_count(m_pos_t* x, int H) noexcept nogil:
    """M-6, M-7: the masks of the hand to move from ``bad`` (the free cells next to none of
    its bad cards), the running byte counts of each (``bpre``, for select_bit) and the
    running counts of their cells (``pre[i]``: slots 0 .. i); ``total``, returned."""
    cdef int i
    cdef uint32_t n = 0
    for i in range(H):
        x.mask[i] = x.board.front & ~nbrs(x.bad[i])
        x.bpre[i] = byte_counts(x.mask[i]) * L8
        n += <uint32_t>(x.bpre[i] >> 56)
        x.pre[i] = n
    x.total = <int32_t>n
    return <int>n


cdef inline void m_clear_masks(m_pos_t* x) noexcept nogil:
    """The caches of PLAY: 0 in the other phases."""
    cdef int i
    for i in range(M_MAX_HAND):
        x.mask[i] = 0
        x.bpre[i] = 0
        x.pre[i] = 0
    x.total = 0


cdef inline int m_may_exchange(const m_pos_t* x, const m_cfg_t* c, int p) noexcept nogil:
    """M-9: seat p may exchange a card when it passes: with a card in the pile, and a chip
    (or, the reading chipless_exchange 'free', without one)."""
    return ((x.chips[p] > 0) | c.free_exch) & (x.pile_n > 0)


cdef inline int m_num_turn(const m_pos_t* x, const m_cfg_t* c) noexcept nogil:
    """How many actions the seat to move has in a turn: its placements, the pass, and an
    exchange per hand card when it may exchange (M-9)."""
    cdef int p = x.current
    return x.total + 1 + (x.hand_n[p] & -m_may_exchange(x, c, p))


cdef inline bint m_any_fits(const m_pos_t* x, const m_cfg_t* c, int p, int H) noexcept nogil:
    """M-17 when seat p to move has no placement: does a card of another hand or (the
    ``stuck_cards`` reading) of the pile fit?"""
    cdef int q, i
    for q in range(c.n):
        if q != p:
            for i in range(H):
                if m_fits(&x.board, c, hand_card(x.hand[q], i)):
                    return True
    if c.stuck_pile:
        for i in range(x.pile_n):
            if m_fits(&x.board, c, x.pile[(x.pile_b + i) & (M_MAX_CARDS - 1)]):
                return True
    return False


cdef inline void m_finish(m_pos_t* x, int reason, bint rec) noexcept nogil:
    """The game ends (M-16, M-17, M-18 or max_turns). ``rec``: the caches emptied."""
    cdef int i
    x.end = reason
    if rec:
        x.phase = PH_OVER
        x.current = TERMINAL_SEAT
        x.placer = -1
        x.srow = 0
        x.tmask = 0
        for i in range(M_MAX_HAND):
            x.bad[i] = 0
        m_clear_masks(x)


cdef inline void m_turn_start(m_pos_t* x, const m_cfg_t* c, int p, bint stuck, int H, bint rec,
                              bint moved=1) noexcept nogil:
    """Seat p is to move, ``bad`` holds its cards against the table: its masks, and with
    ``stuck`` M-17: the game ends when no card in a hand or (stuck_cards 'pile', the default)
    in the pile fits anywhere, the seat to move's tried first. ``moved`` 0: the table did not
    change since the last turn began (a pass), so its free cells are not empty."""
    x.current = p
    if moved and x.board.front == 0:
        m_finish(x, END_M17, rec)
    elif m_count(x, H) == 0 and stuck and not m_any_fits(x, c, p, H):
        m_finish(x, END_M17, rec)


cdef inline void m_pay_chips(m_pos_t* x, int p, int n, int need, bint skip) noexcept nogil:
    """M-8: ``need`` chips to seat p, from its right neighbour onwards, never from p; a seat
    without chips is passed over (the first payment without a branch: often 0). ``skip``
    (short_payer 'skipped'): when the right neighbour has fewer than ``need``, the first seat
    further right that has them all pays them all; when none has, each pays what it has."""
    cdef int q = right_seat(p, n), pay, k = 2
    if skip and x.chips[q] < need:
        while k < n:
            q = right_seat(q, n)
            if x.chips[q] >= need:
                x.chips[q] -= need
                x.chips[p] += need
                return
            k += 1
        q = right_seat(p, n)
        k = 2
    pay = need if need < x.chips[q] else x.chips[q]
    x.chips[q] -= pay
    x.chips[p] += pay
    need -= pay
    while need > 0 and k < n:
        q = right_seat(q, n)
        pay = need if need < x.chips[q] else x.chips[q]
        x.chips[q] -= pay
        x.chips[p] += pay
        need -= pay
        k += 1


cdef inline void m_pass(m_pos_t* x, const m_cfg_t* c, int p, int slot, int top, uint64_t tlt,
                        bint rec) noexcept nogil:
    """M-9: a pass (slot -1) or the exchange of ``slot``'s card, without a branch: with a chip,
    the exchange and (the pass_cost reading) the pass pay one to the right neighbour (an
    exchange without a chip, chipless_exchange 'free', pays nothing); the card
    goes under the pile (the free slot below it) and the top card (``top``, ``tlt =
    hand_below(hand, top)``) takes its place. M-18 counts the passes while the pile is empty."""
    cdef int ex = slot >= 0, b
    cdef uint64_t h = x.hand[p]
    cdef int pay = (x.chips[p] > 0) & (ex | c.pass_pays)
    slot &= 7
    x.chips[p] -= pay
    x.chips[right_seat(p, c.n)] += pay
    b = (x.pile_b - 1) & (M_MAX_CARDS - 1)
    x.pile[b] = <uint8_t>(hand_card(h, slot) & (-ex if rec else 0xFF))  # (rec 0: a pass's is never read)
    x.pile_b = (x.pile_b - ex) & (M_MAX_CARDS - 1)
    x.hand[p] = h ^ ((h ^ hand_put_below(h, slot, top, tlt)) & (<uint64_t>0 - <uint64_t>ex))
    x.passes = (x.passes + 1) & -(x.pile_n == 0)
    if rec:
        x.placer = -1
        if ex:  # the card under the pile is p's; the top's slot is free now
            x.putter[b] = <int8_t>p
            b = (x.pile_b + x.pile_n) & (M_MAX_CARDS - 1)
            x.pile[b] = 0
            x.putter[b] = 0
            m_fix_top(x)


cdef inline int m_lay(m_pos_t* x, const m_cfg_t* c, int p, int cell, int card, uint64_t hnxt,
                      int H, bint rec) noexcept nogil:
    """M-6 .. M-8: seat p lays ``card`` on ``cell`` (where it fits); returns the card's cell,
    which moves with the window (M-7: when the card lands on its top row or left column).
    ``bad`` (of ``hnxt``, the next seat's hand) gains the card where a card shares nothing
    with it."""
    cdef m_board_t* b = &x.board
    cdef uint64_t occ = b.occ, bit
    cdef int need, sh, i
    x.passes = 0
    # M-8: k - 1 chips for k neighbours
    need = (<int>((occ >> 1) >> cell) & 1) + (<int>((occ << 1) >> cell) & 1) \
        + (<int>((occ >> 8) >> cell) & 1) + (<int>((occ << 8) >> cell) & 1) - 1
    m_pay_chips(x, p, c.n, need, c.short_skip)
    sh = (8 if cell < 8 else 0) + (1 if (cell & 7) == 0 else 0)
    if sh:
        m_board_shift(b, c, -(sh >> 3), -(sh & 1))
        for i in range(H):
            x.bad[i] <<= sh
        cell += sh
    bit = (<uint64_t>1) << cell
    for i in range(H):
        x.bad[i] |= bit & (<uint64_t>0 - <uint64_t>((c.card[card].attr & c.card[hand_card(hnxt, i)].attr) == 0))
    m_board_put(b, c, cell, card)
    b.front = m_front(b.occ)
    x.placer = p
    if rec:
        x.lrow = b.orow + (cell >> 3)
        x.lcol = b.ocol + (cell & 7)
        x.has_last = 1
    return cell


cdef inline void m_end_turn(m_pos_t* x, const m_cfg_t* c, int p, int H, bint rec) noexcept nogil:
    """The turn of seat p, who laid a card, ends: M-10, it draws up to H cards; M-11, its left
    neighbour is to move (its cards are in ``bad``): M-17, its masks."""
    m_draw_up(x, p, H, rec)
    if rec:
        x.phase = PH_PLAY
        x.placer = -1
    m_turn_start(x, c, next_seat(p, c.n), 1, H, rec)


cdef enum:
    M_PASSED = 0      # m_play: a pass or an exchange, the next seat is to move (or the end)
    M_LAID = 1        # a card laid without a run: the turn ends (m_end_turn follows)
    M_SCORE = 2       # a card laid with runs: the scoring follows


cdef inline int m_play(m_pos_t* x, const m_cfg_t* c, uint32_t r, rng_t* policy, uint64_t* hl, uint64_t* vl,
                       int H, bint rec) noexcept nogil:
    """The ``r``-th legal action of the seat to move in a turn (its masks set): a placement,
    the pass or an exchange; with a ``policy``, the action drawn from it (simulate's). Returns
    M_PASSED after a pass or an exchange: the next seat is to move, its masks set, or M-18
    ended the game (``x.end``); M-17 needs no test (a pass changes neither the table nor the
    cards in hands and pile, an exchange only moves one, and a card fitted when this turn
    began; but with stuck_cards 'hands' an exchange may send the last fitting hand card under
    the pile). M_LAID after a card laid without a run (its slot took the top card, M-10):
    m_end_turn follows. M_SCORE when the card laid made runs (M-12: ``hl``, ``vl``, the row's
    and the column's, one of them 0 or both qualifying): the scoring follows. The next seat's
    cards are set against the table, and the top card's rank found, before the branch on
    ``r``: what follows it waits for neither."""
    cdef int p = x.current, hn = x.hand_n[p], nxt = next_seat(p, c.n), top, slot, cell, card, i
    cdef uint64_t h = x.hand[p], hnxt = x.hand[nxt], tlt
    cdef uint32_t before
    top = m_top(x)
    tlt = hand_below(h, top)
    m_set_bad(x, c, hnxt, H)
    if policy != NULL:
        r = rng_below(policy, <uint32_t>m_num_turn(x, c))
    if r >= <uint32_t>x.total:  # M-9
        slot = <int>(r - <uint32_t>x.total) - 1
        m_pass(x, c, p, slot, top, tlt, rec)
        if x.passes >= c.n:  # M-18
            m_finish(x, END_M18, rec)
        else:
            m_turn_start(x, c, nxt, (slot >= 0) & (c.stuck_pile == 0), H, rec, rec)
        return M_PASSED
    # M-6: the card of the slot whose cells hold index r, on its (r - before)-th cell
    slot = 0
    before = 0
    for i in range(H - 1):
        slot += r >= x.pre[i]
        before = x.pre[i] if r >= x.pre[i] else before
    cell = select_bit(x.mask[slot], x.bpre[slot], r - before)
    card = hand_card(h, slot)
    cell = m_lay(x, c, p, cell, card, hnxt, H, rec)
    m_runs(&x.board, c, cell, card, hl, vl)
    if not (hl[0] | vl[0]):  # M-10: the card's slot takes the top card (none: it empties)
        x.hand[p] = hand_put_below(h, slot, top, tlt)
        x.hand_n[p] = hn - (top == M_EMPTY)
        if rec:
            if x.pile_n > 0:
                m_draw(x, 1)
        else:
            x.pile_n -= x.pile_n > 0
        return M_LAID
    x.hand[p] = hand_put(h, slot, M_EMPTY)
    x.hand_n[p] = hn - 1
    if not c.draw_late:  # draw_timing 'before_scoring' (M-10)
        m_draw_up(x, p, H, rec)
    return M_SCORE


cdef inline void m_add_taken(m_pos_t* x, int p, int card) noexcept nogil:
    """Seat p's list of taken cards gets ``card`` at its end (M-15)."""
    if x.ttail[p]:
        x.tnext[x.ttail[p] - 1] = <uint8_t>(card + 1)
    else:
        x.thead[p] = <uint8_t>(card + 1)
    x.ttail[p] = <uint8_t>(card + 1)
    x.taken_n[p] += 1


cdef inline void m_start_scoring(m_pos_t* x, uint64_t row) noexcept nogil:
    """M-13: the run ``row`` is scored, the placer takes first."""
    x.srow = row
    x.current = x.placer
    x.tmask = m_takeable(x.board.occ, row)


cdef inline void m_take_card(m_pos_t* x, const m_cfg_t* c, int cell, int H, bint rec) noexcept nogil:
    """M-13 .. M-15: the seat to move takes the card on ``cell`` (one of ``tmask``) and keeps
    its value by colour; the next seat to the right takes next. The table stays connected
    (M-13 b): only the card's own row or column can empty, and the window moves (M-7) only
    when that was the top row or the left column."""
    cdef m_board_t* b = &x.board
    cdef int q = x.current, card, sh, i
    cdef uint64_t keep = ~((<uint64_t>1) << cell)
    card = m_board_lift(b, c, cell)
    x.srow &= keep
    for i in range(H):
        x.bad[i] &= keep
    x.tot[q * M_MAX_ATTR + c.card[card].colour] += c.vals[c.card[card].vidx]  # M-15
    if rec:
        m_add_taken(x, q, card)
    x.current = right_seat(q, c.n)
    if (b.occ & ROW1) == 0 or (b.occ & COL1) == 0:
        sh = ((b.occ & ROW1) == 0) * 8 + ((b.occ & COL1) == 0)
        m_board_shift(b, c, sh >> 3, sh & 1)
        x.srow >>= sh
        for i in range(H):
            x.bad[i] >>= sh
    if rec:
        b.front = m_front(b.occ)
    x.tmask = m_takeable(b.occ, x.srow)


cdef inline void m_scoring_done(m_pos_t* x, bint rec) noexcept nogil:
    """M-14 .. M-16: no card of the row may be taken: the scoring ends; with an empty pile the
    game ends (M-16), else the placer's turn does (m_end_turn follows)."""
    if rec:
        x.srow = 0
    x.board.front = m_front(x.board.occ)
    if x.pile_n == 0:
        m_finish(x, END_M16, rec)


# ---- the deal (M-2 .. M-5) -----------------------------------------------------------------------

cdef inline void m_deal_cards(m_pos_t* x, const m_cfg_t* c, int H, bint rec) noexcept nogil:
    """M-4, M-5, M-2 from the shuffled pile (``pile``, ``pile_n``; its top is fixed): the start
    layout, then the hands (seat 0 draws first), the chips, the first turn (M-17)."""
    cdef int i, q
    cdef uint64_t h
    m_board_clear(&x.board)
    m_board_origin(&x.board, c.lay_r0 - 1, c.lay_c0 - 1)
    for i in range(c.n_layout):  # M-4 (fill_cfg anchors the layout at window cell (1, 1))
        m_board_put(&x.board, c, c.lay_cell[i], m_draw(x, rec))
    x.board.front = m_front(x.board.occ)
    for q in range(c.n):  # M-5, M-2: H cards each (in_play holds them, M-3), taken in turn
        h = ~(<uint64_t>0)
        for i in range(H):  # from the top (the draws of m_draw_up), sorted once
            h = (h << 8) | <uint64_t>m_draw(x, rec)
        x.hand[q] = hand_of(h, H)
        x.hand_n[q] = H
        x.chips[q] = c.chips
        for i in range(M_MAX_ATTR):  # the seats in play only (those of no seat are never read)
            x.tot[q * M_MAX_ATTR + i] = 0
    x.passes = 0
    x.placer = -1
    x.end = END_NONE
    x.phase = PH_PLAY
    x.n_hist = 0
    m_set_bad(x, c, x.hand[0], H)
    m_turn_start(x, c, 0, 1, H, rec)


cdef void m_deal "core_deal"(m_t* s, uint64_t seed) noexcept nogil:
    """A new game into ``s`` (its constants set; every other field from zero, so it equals
    new_state(seed)'s byte for byte whatever it held before): M-3 .. M-5. The shuffle's first
    N - in_play steps fix the cards M-3 removes unseen; the steps for the pile's positions are
    taken as its cards come to the top (m_fix_top)."""
    cdef m_pos_t* x = &s.pos
    cdef const m_cfg_t* c = s.cfg
    cdef uint8_t deck[M_MAX_CARDS]
    cdef int i, N = c.n_cards
    memset(x, 0, sizeof(m_pos_t))
    x.rng = seed
    memcpy(deck, DECK, N)
    rng_shuffle_u8_to(&x.rng, deck, N, c.in_play)
    for i in range(c.in_play, N):  # M-3: removed unseen
        x.removed[deck[i] >> 6] |= (<uint64_t>1) << (deck[i] & 63)
    x.pile_n = c.in_play
    x.lazy = c.in_play
    memcpy(x.pile, deck, c.in_play)
    memset(x.putter, -1, c.in_play)
    m_fix_top(x)
    m_deal_cards(x, c, c.H, 1)


# ---- the state's step: the r-th legal action -------------------------------------------------------

cdef inline int m_current "core_current"(const m_t* s) noexcept nogil:
    """The seat to move, TERMINAL_SEAT once the game is over (every random event of M happens
    at the deal: no chance node)."""
    return TERMINAL_SEAT if s.pos.phase == PH_OVER else s.pos.current


cdef inline int m_num_legal(const m_t* s) noexcept nogil:
    """How many actions ``m_legal`` lists (from the cached masks)."""
    if s.pos.phase == PH_PLAY:
        return m_num_turn(&s.pos, s.cfg)
    if s.pos.phase == PH_CHOOSE:
        return 2
    if s.pos.phase == PH_TAKE:
        return popcount64(s.pos.tmask)
    return 0


cdef inline uint64_t m_last_cell_runs(const m_t* s, int r) noexcept nogil:
    """CHOOSE: the run of the row (r 0) or the column (r 1) through the card just laid."""
    cdef uint64_t hl, vl
    cdef int cell = <int>((s.pos.lrow - s.pos.board.orow) * 8 + (s.pos.lcol - s.pos.board.ocol))
    m_runs(&s.pos.board, s.cfg, cell, m_card_at(&s.pos.board, cell), &hl, &vl)
    return vl if r else hl


cdef inline void m_act_h(m_t* s, uint32_t r, rng_t* policy, int H) noexcept nogil:
    cdef m_pos_t* x = &s.pos
    cdef uint64_t hl, vl
    cdef int k, p = x.current
    if x.phase == PH_PLAY:
        k = m_play(x, s.cfg, r, policy, &hl, &vl, H, 1)
        if k == M_SCORE:
            m_clear_masks(x)
            if hl and vl:  # the placer chooses the row (M-12)
                x.phase = PH_CHOOSE
            else:  # M-13: the scoring starts
                x.phase = PH_TAKE
                m_start_scoring(x, hl | vl)
    else:
        if policy != NULL:
            r = rng_below(policy, <uint32_t>m_num_legal(s))
        if x.phase == PH_CHOOSE:
            x.phase = PH_TAKE
            m_start_scoring(x, m_last_cell_runs(s, r))
        else:
            m_take_card(x, s.cfg, nth_bit(x.tmask, r), H, 1)
        k = M_SCORE
    if k == M_SCORE and x.phase == PH_TAKE and not x.tmask:
        m_scoring_done(x, 1)
        p = x.placer
        k = M_LAID
    if k == M_LAID and x.end == END_NONE:
        m_end_turn(x, s.cfg, p, H, 1)
    x.n_hist += 1
    if x.phase != PH_OVER and x.n_hist >= s.cfg.max_turns:
        m_finish(x, END_MAX_TURNS, 1)


cdef flat_void m_act(m_t* s, uint32_t r, rng_t* policy) noexcept nogil:
    """Apply the ``r``-th legal action (r below m_num_legal), as ``m_legal`` lists them, or
    with a ``policy`` the action drawn from it (simulate's); then count it (and stop at
    max_turns). Flattened (flat_void): each call of m_act_h is inlined, so that the rules'
    hand size is a constant in the blocks' loops (an out-of-line m_act_h took H as a
    variable: the env-step's loops over the hand were not unrolled)."""
    if s.cfg.H == 4:  # the rules' hand (M-5): a constant for the compiler
        m_act_h(s, r, policy, 4)
    else:
        m_act_h(s, r, policy, s.cfg.H)


cdef inline uint32_t m_index(const m_t* s, int a) noexcept nogil:
    """The index of the legal action ``a`` in the list ``m_legal`` writes."""
    cdef const m_pos_t* x = &s.pos
    cdef int slot, cell
    if x.phase == PH_PLAY:
        if a < s.cfg.A_PASS:
            slot = a >> 6
            cell = a & 63
            return ((x.pre[slot - 1] if slot > 0 else 0)
                    + <uint32_t>popcount64(x.mask[slot] & (((<uint64_t>1) << cell) - 1)))
        if a == s.cfg.A_PASS:
            return <uint32_t>x.total
        return <uint32_t>(x.total + 1 + a - s.cfg.A_EXCH)
    if x.phase == PH_CHOOSE:
        return <uint32_t>(a - s.cfg.A_ROW)
    return <uint32_t>popcount64(x.tmask & (((<uint64_t>1) << (a - s.cfg.A_TAKE)) - 1))


cdef void m_apply "core_apply"(m_t* s, int a) noexcept nogil:
    """Apply a legal action (checked by the caller)."""
    m_act(s, m_index(s, a), NULL)


cdef inline int m_random_step(m_t* s, rng_t* policy) noexcept nogil:
    """One action of simulate's policy, a seat being to move: the action at index
    ``rng_below(policy, n)`` of the legal list, applied without writing the list; returns the
    seat to move after it."""
    m_act(s, 0, policy)
    return m_current(s)


cdef void m_rollout "core_rollout"(m_t* s, rng_t* policy) noexcept nogil:
    """Play to the end by simulate's policy (``m_random_step``)."""
    while s.pos.phase != PH_OVER:
        m_random_step(s, policy)


ctypedef fused action_t:
    int32_t
    int64_t


cdef int m_legal(const m_t* s, action_t* out) noexcept nogil:
    """The legal actions, ascending, into out (room for num_actions); returns their number."""
    cdef const m_pos_t* x = &s.pos
    cdef int p = x.current, n = 0, i, b
    cdef uint64_t bits
    if x.phase == PH_PLAY:
        for i in range(x.hand_n[p]):
            bits = x.mask[i]
            while bits:
                b = ctz64(bits)
                bits &= bits - 1
                out[n] = (i << 6) | b
                n += 1
        out[n] = s.cfg.A_PASS
        n += 1
        if m_may_exchange(x, s.cfg, p):
            for i in range(x.hand_n[p]):
                out[n] = s.cfg.A_EXCH + i
                n += 1
    elif x.phase == PH_CHOOSE:
        out[0] = s.cfg.A_ROW
        out[1] = s.cfg.A_ROW + 1
        n = 2
    elif x.phase == PH_TAKE:
        bits = x.tmask
        while bits:
            b = ctz64(bits)
            bits &= bits - 1
            out[n] = s.cfg.A_TAKE + b
            n += 1
    return n


cdef void m_legal_mask(const m_t* s, uint8_t* out) noexcept nogil:
    """The legal actions as a mask: ``out`` (num_actions bytes, zero-filled by the caller)
    gets 1 at each action that ``m_legal`` lists (M-6, M-7, M-9, M-12, M-13)."""
    cdef const m_pos_t* x = &s.pos
    cdef int p = x.current, i
    cdef uint64_t bits
    if x.phase == PH_PLAY:
        for i in range(x.hand_n[p]):
            bits = x.mask[i]
            while bits:
                out[(i << 6) | ctz64(bits)] = 1
                bits &= bits - 1
        out[s.cfg.A_PASS] = 1
        if m_may_exchange(x, s.cfg, p):
            for i in range(x.hand_n[p]):
                out[s.cfg.A_EXCH + i] = 1
    elif x.phase == PH_CHOOSE:
        out[s.cfg.A_ROW] = 1
        out[s.cfg.A_ROW + 1] = 1
    elif x.phase == PH_TAKE:
        bits = x.tmask
        while bits:
            out[s.cfg.A_TAKE + ctz64(bits)] = 1
            bits &= bits - 1


cdef bint m_is_legal(const m_t* s, int a) noexcept nogil:
    cdef const m_pos_t* x = &s.pos
    cdef int p = x.current, slot
    if a < 0 or a >= s.cfg.num_actions:
        return False
    if x.phase == PH_PLAY:
        if a < s.cfg.A_PASS:
            slot = a >> 6
            return slot < x.hand_n[p] and ((x.mask[slot] >> (a & 63)) & 1)
        if a == s.cfg.A_PASS:
            return True  # M-9: passing is always allowed
        if a < s.cfg.A_ROW:
            return a - s.cfg.A_EXCH < x.hand_n[p] and m_may_exchange(x, s.cfg, p)
        return False
    if x.phase == PH_CHOOSE:
        return s.cfg.A_ROW <= a < s.cfg.A_TAKE
    if x.phase == PH_TAKE:
        return a >= s.cfg.A_TAKE and ((x.tmask >> (a - s.cfg.A_TAKE)) & 1)
    return False


cdef void m_refresh(m_t* s) noexcept nogil:
    """The caches from the rest of the state (after from_dict or a determinization), as play
    leaves them: ``front``; in PLAY the seat to move's ``bad`` and masks, in CHOOSE and TAKE
    the next seat's ``bad`` (the seat after the placer), in TAKE ``tmask``."""
    cdef m_pos_t* x = &s.pos
    cdef int i
    x.board.front = m_front(x.board.occ)
    for i in range(M_MAX_HAND):
        x.bad[i] = 0
    m_clear_masks(x)
    x.tmask = 0
    if x.phase == PH_PLAY:
        m_set_bad(x, s.cfg, x.hand[x.current], s.cfg.H)
        m_count(x, s.cfg.H)
    elif x.phase == PH_CHOOSE or x.phase == PH_TAKE:
        m_set_bad(x, s.cfg, x.hand[next_seat(x.placer, s.cfg.n)], s.cfg.H)
        if x.phase == PH_TAKE:
            x.tmask = m_takeable(x.board.occ, x.srow)


# ---- a game played to its end in one loop: simulate's and the search's play-outs -------------------

cdef inline int64_t m_score_of(const m_pos_t* x, const m_cfg_t* c, int p) noexcept nogil:
    """M-20: seat p's 10 x chips + its two best colour totals - every other colour total, over
    the game's colours (totals are >= 0: with one colour, the second best is 0), without
    branches (which colour leads is a coin flip to the predictor): the best after a total t
    is max(b1, t), the second max(b2, min(b1, t))."""
    cdef int k, b1 = 0, b2 = 0, t, lo, total = 0
    for k in range(c.nc):
        t = x.tot[p * M_MAX_ATTR + k]
        total += t
        lo = t if t < b1 else b1
        b2 = lo if lo > b2 else b2
        b1 = t if t > b1 else b1
    return 10 * x.chips[p] + 2 * (b1 + b2) - total


cdef inline void m_scores_of(const m_pos_t* x, const m_cfg_t* c, int64_t* out) noexcept nogil:
    cdef int p
    for p in range(c.n):
        out[p] = m_score_of(x, c, p)


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


cdef void returns_from(const int64_t* sc, int n, int end, double* out) noexcept nogil:
    """As ``StateAPI.returns``, from the scores ``sc`` and the end: 0 before the end and when
    every seat wins (M-21), else +1 for each winner and -1 for each other seat."""
    cdef int p, mask = winner_mask_of(sc, n)
    for p in range(n):
        if end == END_NONE or mask == (1 << n) - 1:
            out[p] = 0.0
        else:
            out[p] = 1.0 if (mask >> p) & 1 else -1.0


cdef void m_scores "core_scores"(const m_t* s, int64_t* out) noexcept nogil:
    """M-20 for every seat, at any time (hand cards never count, M-19)."""
    m_scores_of(&s.pos, s.cfg, out)


cdef int m_winner_mask "core_winner_mask"(const m_t* s) noexcept nogil:
    cdef int64_t sc[M_MAX_PLAYERS]
    m_scores(s, sc)
    return winner_mask_of(sc, s.cfg.n)


cdef void m_returns "core_returns"(const m_t* s, double* out) noexcept nogil:
    cdef int64_t sc[M_MAX_PLAYERS]
    m_scores(s, sc)
    returns_from(sc, s.cfg.n, s.pos.end, out)


cdef flat_void m_sim_game(const m_cfg_t* c, const m_pos_t* start, uint64_t deal, rng_t* policy, int64_t* sc,
                          int* end, int64_t* length, int H) noexcept nogil:
    """One game of ``simulate`` (``start`` NULL: M-3 .. M-5 from the generator ``deal``, the
    game of m_deal, m_settle and m_rollout) or the rest of the game from ``start`` (a turn's
    start, the deal settled), played to its end by simulate's policy with the draws of
    repeated m_random_step: the same game, with the turn written out in order (a placement,
    the row choice, the takes, the turn's end) instead of dispatched on the phase. It plays
    on a position in a local, ``rec`` 0, whose address does not escape once the blocks are
    inlined (flat_void): the compiler keeps its scalars in registers. It leaves the number of
    actions in ``length``, the scores (M-20) in ``sc`` and the end in ``end``. ``H`` is
    ``c.H`` (a constant at the call for the rules' hand)."""
    cdef m_pos_t xl
    cdef m_pos_t* x = &xl
    cdef rng_t g = deal
    cdef uint64_t hl, vl, row, tpre
    cdef int64_t max_turns = c.max_turns
    cdef rng_t pol = policy[0]   # (in a local: a register, whatever the stores to bytes)
    cdef uint8_t deck[M_MAX_CARDS]
    cdef int i, p, k
    if start == NULL:
        # M-3, M-4: the whole deck shuffled top down (m_deal's and m_settle's steps, in
        # order); the pile is its first in_play cards, the top last
        memcpy(deck, DECK, c.n_cards)
        rng_shuffle_u8(&g, deck, c.n_cards)
        for i in range(c.n_cards):
            x.pile[i] = deck[i]
        x.pile_b = 0
        x.pile_n = c.in_play
        m_deal_cards(x, c, H, 0)
    else:
        xl = start[0]
    while x.end == END_NONE:
        p = x.current
        x.n_hist += 1
        k = m_play(x, c, 0, &pol, &hl, &vl, H, 0)
        if k == M_PASSED:
            if x.end == END_NONE and x.n_hist >= max_turns:
                x.end = END_MAX_TURNS
            continue
        if k == M_SCORE:
            if hl and vl:  # the placer chooses the row (the placement is counted first)
                if x.n_hist >= max_turns:
                    x.end = END_MAX_TURNS
                    break
                row = vl if rng_below(&pol, 2) else hl
                x.n_hist += 1
            else:
                row = hl | vl
            m_start_scoring(x, row)
            while x.tmask:  # M-13, M-14: takes while possible
                if x.n_hist >= max_turns:  # (the action before this take is counted)
                    x.end = END_MAX_TURNS
                    break
                tpre = byte_counts(x.tmask) * L8
                m_take_card(x, c, select_bit(x.tmask, tpre, rng_below(&pol, <uint32_t>(tpre >> 56))), H, 0)
                x.n_hist += 1
            if x.end != END_NONE:
                break
            m_scoring_done(x, 0)
            if x.end != END_NONE:
                break
        m_end_turn(x, c, p, H, 0)
        if x.end == END_NONE and x.n_hist >= max_turns:
            x.end = END_MAX_TURNS
    policy[0] = pol
    m_scores_of(x, c, sc)
    end[0] = x.end
    length[0] = x.n_hist


cdef void m_playout "core_playout"(m_t* s, rng_t* policy, double* out) noexcept nogil:
    """m_rollout then m_returns, with the same draws: the scoring under way finished by the
    state's step, then the rest of the game by ``m_sim_game`` from the position (the deal's
    deferred steps taken first: the loop draws without them). ``s`` is scratch after."""
    cdef int64_t sc[M_MAX_PLAYERS]
    cdef int64_t length
    cdef int end
    while s.pos.phase == PH_TAKE or s.pos.phase == PH_CHOOSE:
        m_random_step(s, policy)
    if s.pos.phase == PH_PLAY:
        m_settle(&s.pos)
        if s.cfg.H == 4:  # the rules' hand (M-5): a constant for the compiler
            m_sim_game(s.cfg, &s.pos, 0, policy, sc, &end, &length, 4)
        else:
            m_sim_game(s.cfg, &s.pos, 0, policy, sc, &end, &length, s.cfg.H)
        returns_from(sc, s.cfg.n, end, out)
    else:
        m_returns(s, out)


# ---- observation (docs/games/m.md, "Observation") --------------------------------------------

cdef inline int m_num_channels(const m_cfg_t* c) noexcept nogil:
    """Planes of 8 x 8: table (1 + F), scoring row, two choice runs, last cell, H hand slots
    of F, per seat 2 + nc, pile size and own pile cards, phase (3), seat to move (n)."""
    return 1 + c.F + 4 + c.H * c.F + c.n * (2 + c.nc) + 2 + 3 + c.n


cdef inline void fill_plane(float* plane, float v) noexcept nogil:
    mh_fill_f32(plane, v, M_W * M_W)


cdef inline uint64_t line_through(uint64_t occ, int cell, int step) noexcept nogil:
    """The unbroken line of cards through the occupied ``cell`` along ``step`` (1 horizontal,
    8 vertical), a run of M-12 or not (cards lie in window rows/cols 1..6: no wrap)."""
    cdef uint64_t run = 0
    cdef int a = cell
    while (occ >> (a - step)) & 1:
        a -= step
    while (occ >> a) & 1:
        run |= (<uint64_t>1) << a
        a += step
    return run


cdef void m_observe(const m_t* s, int p, float* obs) noexcept nogil:
    """Seat ``p``'s observation into ``obs`` (``channels`` x 64 floats, zero-filled by the
    caller), the layout of ``M._observation``, value for value: the window is the one of the
    struct (origin (top - 1, left - 1), as the reference's), ratios are computed in double and
    rounded once to float32, as numpy does when it stores a Python float."""
    cdef const m_cfg_t* c = s.cfg
    cdef const m_pos_t* x = &s.pos
    cdef const m_board_t* bd = &x.board
    cdef int n = c.n, nc = c.nc, F = c.F
    cdef int ch, k, q, col, i, b, card, base, mine
    cdef int64_t r, cc
    cdef uint64_t bits = bd.occ
    while bits:  # occupied, then the attributes of each card on the table (M-1)
        b = ctz64(bits)
        bits &= bits - 1
        card = m_card_at(bd, b)
        obs[b] = 1.0
        obs[(1 + c.card[card].colour) * 64 + b] = 1.0
        obs[(1 + nc + c.card[card].vidx) * 64 + b] = 1.0
        if c.card[card].symi != M_MAX_ATTR:
            obs[(1 + nc + c.nv + c.card[card].symi) * 64 + b] = 1.0
    ch = 1 + F
    set_ones(obs + ch * 64, x.srow)  # M-13: the cards of the scoring row still there
    ch += 1
    if x.has_last:
        r = x.lrow - bd.orow
        cc = x.lcol - bd.ocol
        if 0 <= r < M_W and 0 <= cc < M_W:
            b = <int>(r * M_W + cc)
            if x.phase == PH_CHOOSE and (bd.occ >> b) & 1:  # M-12: the two qualifying runs
                set_ones(obs + ch * 64, line_through(bd.occ, b, 1))
                set_ones(obs + (ch + 1) * 64, line_through(bd.occ, b, 8))
            obs[(ch + 2) * 64 + b] = 1.0
    ch += 3
    for i in range(x.hand_n[p]):  # M-22: the own hand only, one block of F planes per slot
        card = hand_card(x.hand[p], i)
        base = ch + i * F
        fill_plane(obs + (base + c.card[card].colour) * 64, 1.0)
        fill_plane(obs + (base + nc + c.card[card].vidx) * 64, 1.0)
        if c.card[card].symi != M_MAX_ATTR:
            fill_plane(obs + (base + nc + c.nv + c.card[card].symi) * 64, 1.0)
    ch += c.H * F
    for k in range(n):  # per seat from p leftwards: chips (M-2), hand size, colour totals (M-15)
        q = seat_after(p, k, n)
        fill_plane(obs + ch * 64, <float>(<double>x.chips[q] / 10.0))
        fill_plane(obs + (ch + 1) * 64, <float>x.hand_n[q])
        for col in range(nc):
            if x.tot[q * M_MAX_ATTR + col]:
                fill_plane(obs + (ch + 2 + col) * 64, <float>(<double>x.tot[q * M_MAX_ATTR + col] / 100.0))
        ch += 2 + nc
    fill_plane(obs + ch * 64, <float>(<double>x.pile_n / 10.0))
    mine = 0
    for i in range(x.pile_n):  # M-9, M-22: the cards p slid under the pile
        mine += x.putter[(x.pile_b + i) & (M_MAX_CARDS - 1)] == p
    if mine:
        fill_plane(obs + (ch + 1) * 64, <float>mine)
    ch += 2
    if x.phase != PH_OVER:
        fill_plane(obs + (ch + x.phase) * 64, 1.0)  # PH_PLAY, PH_CHOOSE, PH_TAKE = 0, 1, 2
        fill_plane(obs + (ch + 3 + rel_seat(x.current, p, n)) * 64, 1.0)


# ---- determinization (M-22; the reference is M._determinize in mousehole/m.py) ---------------

cdef enum:
    M_MAX_DRAWS = 1000    # MAX_DRAWS of mousehole/m.py


cdef inline void set_add(uint64_t* bs, int card) noexcept nogil:
    bs[card >> 6] |= (<uint64_t>1) << (card & 63)


cdef inline bint in_set(const uint64_t* bs, int card) noexcept nogil:
    return (bs[card >> 6] >> (card & 63)) & 1


cdef void m_determinize "core_determinize"(m_t* s, int p, uint64_t seed) noexcept nogil:
    """In place: what seat ``p`` cannot see (M-22: the other hands, the pile cards p did not
    put under it, the removed cards) is dealt again from ``seed``, draw for draw as
    ``M._determinize`` deals it from p's view, and the state's generator is re-seeded from
    the same stream. Structs are canonical (``from_dict`` builds the bytes play builds, once
    the deal's deferred steps are taken), so this is the struct of the Python
    determinization loaded back: its pile is dealt in full (``lazy`` 0)."""
    cdef const m_cfg_t* c = s.cfg
    cdef m_pos_t* x = &s.pos
    cdef const m_board_t* bd = &x.board
    cdef rng_t rng = seed
    cdef uint64_t seen[2]
    cdef uint64_t fit[2]
    cdef uint64_t bits, h
    cdef uint8_t pile[M_MAX_CARDS]
    cdef int8_t putter[M_MAX_CARDS]
    cdef uint8_t pool[M_MAX_CARDS]
    cdef uint8_t order[M_MAX_CARDS]
    cdef int n = c.n, npool = 0, k = 0, kfit, nfit = 0, m, ins, i, j, q, card, draw, w
    cdef bint play = x.phase == PH_PLAY, mine_fit = False
    for i in range(x.pile_n):  # the pile, bottom first
        j = (x.pile_b + i) & (M_MAX_CARDS - 1)
        pile[i] = x.pile[j]
        putter[i] = x.putter[j]
    # what p sees: the table, the taken cards (M-15), its hand and the cards it put under
    # the pile (M-9); "mine" are p's cards in play, for the M-17 test below
    seen[0] = 0
    seen[1] = 0
    bits = bd.occ
    while bits:
        set_add(seen, m_card_at(bd, ctz64(bits)))
        bits &= bits - 1
    for q in range(n):
        if q != p:
            k += x.hand_n[q]
    kfit = k  # stuck_cards='hands': M-17 looks at the hands only, the first kfit of the deal
    for q in range(n):
        card = x.thead[q]
        while card:
            set_add(seen, card - 1)
            card = x.tnext[card - 1]
    for i in range(x.hand_n[p]):
        card = hand_card(x.hand[p], i)
        set_add(seen, card)
        if play and not mine_fit and m_fits(bd, c, card):
            mine_fit = True
    for i in range(x.pile_n):
        if putter[i] == p:
            set_add(seen, pile[i])
            if play and not mine_fit and c.stuck_pile and m_fits(bd, c, pile[i]):
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
    if x.end == END_M17 or (play and not mine_fit):
        for i in range(npool):
            if m_fits(bd, c, pool[i]):
                set_add(fit, pool[i])
                nfit += 1
    if x.end == END_M17:
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
            h = ~(<uint64_t>0)
            for i in range(x.hand_n[q]):
                h = hand_put(h, M_MAX_HAND - 1, order[j])
                j += 1
            x.hand[q] = h
    for i in range(x.pile_n):
        if putter[i] != p:
            x.pile[(x.pile_b + i) & (M_MAX_CARDS - 1)] = order[j]
            j += 1
    x.removed[0] = 0
    x.removed[1] = 0
    for i in range(j, npool):
        set_add(x.removed, order[i])
    x.rng = rng_next(&rng)
    x.lazy = 0  # the pile's order is dealt in full above
    m_refresh(s)  # the seat to move may hold other cards now


cdef void m_evaluate "core_evaluate"(const m_t* s, double* out) noexcept nogil:
    """The strong search's evaluation, per seat the value of ``MGame.greedy_value``: its M-20
    score as it stands."""
    cdef int64_t sc[M_MAX_PLAYERS]
    cdef int p
    m_scores(s, sc)
    for p in range(s.cfg.n):
        out[p] = <double>sc[p]


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


cdef int g_chance(const void* v, int32_t* out, double* prob) noexcept nogil:
    return 0  # every random event of M happens at setup (M-3 .. M-5)


cdef flat_int g_random_step(void* v, rng_t* policy) noexcept nogil:
    """(flat_int: the step inlined, VectorGame's random step makes one call)"""
    return m_random_step(<m_t*>v, policy)


cdef void g_observe(const void* v, int p, float* out) noexcept nogil:
    cdef const m_t* s = <const m_t*>v
    memset(out, 0, sizeof(float) * s.cfg.channels * M_W * M_W)
    m_observe(s, p, out)


cdef void g_mask(const void* v, uint8_t* out) noexcept nogil:
    cdef const m_t* s = <const m_t*>v
    memset(out, 0, s.cfg.num_actions)
    m_legal_mask(s, out)


cdef int g_truncated(const void* s) noexcept nogil:
    return (<const m_t*>s).pos.end == END_MAX_TURNS


cdef int g_legal(const void* s, int32_t* out) noexcept nogil:
    return m_legal(<const m_t*>s, out)


# ---- configuration ----------------------------------------------------------------------------

cdef int m_fill_cfg "core_fill_cfg"(object game, m_cfg_t* cfg) except -1:
    """The constants of ``game`` into ``cfg`` (zero-filled, its ``n`` set: ``fill_cfg``, the
    cache of ``_boundary``)."""
    cdef int i, sym
    cdef object x
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
    # M-17 looks at the pile only while a pile card can still reach a hand: with no hand card
    # fitting nobody lays (so nobody draws, M-10), and an exchange (M-9) needs a chip; chips
    # never leave the game (M-2, M-8, M-9), so with 0 chips each the pile never counts and
    # every game ends by M-17 rather than by max_turns (docs/games/m.md, "Readings")
    cfg.stuck_pile = game.pile_in_reach  # stuck_cards, chips > 0 or chipless_exchange 'free' (M-17)
    cfg.draw_late = game.draw_after_scoring
    cfg.short_skip = game.skip_short_payer  # M-8 (short_payer)
    cfg.free_exch = game.free_exchange  # M-9 (chipless_exchange)
    cfg.nc = len(game.colours)
    cfg.nv = len(game.values)
    cfg.ns = len(game.symbols)
    cfg.F = cfg.nc + cfg.nv + cfg.ns
    cfg.channels = m_num_channels(cfg)
    if cfg.channels != game.observation_shape[0] or tuple(game.observation_shape[1:]) != (M_W, M_W):
        raise RuntimeError(f"m: observation shape {game.observation_shape} is not the compiled layout")
    cfg.card[M_EMPTY].colour = M_MAX_ATTR  # no card: empty boards, no attribute
    cfg.card[M_EMPTY].vidx = M_MAX_ATTR
    cfg.card[M_EMPTY].symi = M_MAX_ATTR
    cfg.card[M_EMPTY].symw = M_MAX_ATTR + 1
    cfg.card[M_EMPTY].attr = 0
    for i in range(game.n_cards):
        sym = game.symbol_of[i]
        cfg.card[i].colour = game.colour_of[i]
        cfg.card[i].vidx = game.vindex_of[i]
        cfg.card[i].symi = M_MAX_ATTR if sym < 0 else sym
        cfg.card[i].symw = M_MAX_ATTR + 1 if sym < 0 else sym
        cfg.card[i].attr = ((<uint32_t>1) << cfg.card[i].colour) | ((<uint32_t>1) << (8 + cfg.card[i].vidx))
        if sym >= 0:
            cfg.card[i].attr |= (<uint32_t>1) << (16 + sym)
    for i, x in enumerate(game.values):
        cfg.vals[i] = x
    cfg.n_layout = len(game.layout)
    cfg.lay_r0 = min(r for r, _ in game.layout)
    cfg.lay_c0 = min(c for _, c in game.layout)
    for i, (r, c) in enumerate(game.layout):  # (within a 6 x 6 square, M-7)
        cfg.lay_cell[i] = (r - cfg.lay_r0 + 1) * M_W + (c - cfg.lay_c0 + 1)
    return 0


# ---- simulate ---------------------------------------------------------------------------------

cdef flat_void sim_range(const void* v, uint64_t seed, Py_ssize_t start, Py_ssize_t stop,
                         const sim_out_t* out) noexcept nogil:
    """``simulate``'s games ``start .. stop - 1`` (``run_sim_chunk``), each by ``m_sim_game``
    with the game's constants in a local (its card tables then a fixed offset from the stack
    pointer, not a pointer the loop keeps in a register). The rules' hand is marked the likely
    case: the compiler lays out the loop's copy for another hand size away from the hot one
    (5% less time on the AMD EPYC VM, the same instructions)."""
    cdef m_cfg_t cl = (<const m_cfg_t*>v)[0]
    cdef const m_cfg_t* cfg = &cl
    cdef rng_t policy
    cdef int64_t sc[M_MAX_PLAYERS]
    cdef int end
    cdef int64_t length
    cdef Py_ssize_t i
    for i in range(start, stop):
        policy = rng_derive(seed, 2 * <uint64_t>i + 1)
        if likely(cfg.H == 4):  # the rules' hand (M-5): a constant for the compiler
            m_sim_game(cfg, NULL, rng_derive(seed, 2 * <uint64_t>i), &policy, sc, &end, &length, 4)
        else:
            m_sim_game(cfg, NULL, rng_derive(seed, 2 * <uint64_t>i), &policy, sc, &end, &length, cfg.H)
        sim_row(out, i - start, cfg.n, sc, winner_mask_of(sc, cfg.n), length, end == END_MAX_TURNS)


# ---- written once for every core (_cgame_core.pxi) ------------------------------------------
# The slot functions over this core's role functions (``core_<role>``, above), ``fill_cfg``
# over ``m_fill_cfg``, ``VectorGame``'s loop, and this core's table and description
# (``CORE_GAME``, ``CORE``), of its struct and constants:
ctypedef m_t core_state_t
ctypedef m_cfg_t core_cfg_t
include "_cgame_core.pxi"

CORE.shared = 1  # m_t points at its game's constants (load_constants)


# ---- the Python-facing class ------------------------------------------------------------------

cdef inline int log_reserve(m_log_t** buf, Py_ssize_t* cap, Py_ssize_t need) except -1:
    """``array_reserve`` for the action array (history and log entries; 64 at first)."""
    return array_reserve(<void**>buf, cap, need, sizeof(m_log_t), 64)


@cython.no_gc  # it holds its game and seed, which hold no state: no cycle
cdef class MGameCore(StateCore):
    """Compiled M state. Use ``game.new_state(seed)``; the public class is
    ``mousehole.m.CompiledMState`` (this core + the shared API)."""

    _core_capsule = core_capsule(&CORE)  # (StateCore finds the core by it)

    def __dealloc__(self):
        free(self.log)

    cdef int _reserve(self, Py_ssize_t need) except -1:
        return log_reserve(&self.log, &self.log_cap, need)

    cdef int _record(self, int a) except -1:
        """Append legal action ``a`` (not applied yet) and its public facts: the card laid
        or taken and its absolute cell (M-22)."""
        cdef m_t* s = &self.s
        cdef m_pos_t* x = &s.pos
        cdef m_log_t* e
        cdef int cell
        if x.n_hist >= self.log_cap:
            log_reserve(&self.log, &self.log_cap, x.n_hist + 1)
        e = &self.log[x.n_hist]
        e.action = <uint16_t>a
        e.seat = <int8_t>x.current
        if a < s.cfg.A_PASS:
            cell = a & 63
            e.card = <int8_t>hand_card(x.hand[x.current], a >> 6)
        elif a >= s.cfg.A_TAKE:
            cell = a - s.cfg.A_TAKE
            e.card = <int8_t>m_card_at(&x.board, cell)
        else:
            e.card = M_LOG_EXCHANGE if s.cfg.A_EXCH <= a < s.cfg.A_ROW else M_LOG_NONE
            e.dr = 0
            e.dc = 0
            return 0
        e.dr = <int16_t>(x.board.orow + (cell >> 3) - self.log_r)
        e.dc = <int16_t>(x.board.ocol + (cell & 7) - self.log_c)
        return 0

    cdef int _init(self, object game, uint64_t seed) except -1:
        """``new``: the constants of ``game`` and the deal of ``seed`` (StateCore)."""
        load_constants(self, game)
        m_deal(&self.s, seed)
        self.log_r = self.s.pos.board.orow
        self.log_c = self.s.pos.board.ocol
        return 0

    @classmethod
    def _from_valid_dict(cls, game, dict d):
        cdef MGameCore st = <MGameCore>state_loaded(cls, game)
        cdef m_t* s = &st.s
        cdef m_pos_t* x = &s.pos
        cdef m_board_t* b = &x.board
        cdef const m_cfg_t* c = s.cfg
        cdef int i, p, k, card
        m_board_clear(b)
        m_board_origin(b, min(e[0] for e in d["table"]) - 1, min(e[1] for e in d["table"]) - 1)
        for r, col, card in d["table"]:
            m_board_put(b, c, <int>((r - b.orow) * 8 + (col - b.ocol)), card)
        m_normalize(b, c)
        for r, col in d["scoring_row"]:
            x.srow |= (<uint64_t>1) << <int>((r - b.orow) * 8 + (col - b.ocol))
        for p in range(c.n):
            x.hand[p] = ~(<uint64_t>0)
            for card in d["hands"][p]:
                x.hand[p] = hand_put(x.hand[p], M_MAX_HAND - 1, card)
            x.hand_n[p] = len(d["hands"][p])
            x.chips[p] = d["chips"][p]
            for card in d["taken"][p]:  # (seat by seat, as m_add_taken keeps them)
                m_add_taken(x, p, card)
                x.tot[p * M_MAX_ATTR + c.card[card].colour] += c.vals[c.card[card].vidx]
        # the ring buffer's bottom moves down one slot per exchange (M-9) and stays put
        # otherwise: it is placed by the history's exchanges, as play placed it
        k = 0
        for a in d["history"]:
            k += c.A_EXCH <= a < c.A_ROW
        x.pile_b = (-k) & (M_MAX_CARDS - 1)
        x.pile_n = len(d["pile"])
        for i in range(x.pile_n):
            x.pile[(x.pile_b + i) & (M_MAX_CARDS - 1)] = d["pile"][i]
            x.putter[(x.pile_b + i) & (M_MAX_CARDS - 1)] = d["pile_putter"][i]
        for card in d["removed"]:
            x.removed[card >> 6] |= (<uint64_t>1) << (card & 63)
        x.phase = PHASES.index(d["phase"])
        x.current = d["current"]
        x.placer = d["placer"]
        if d["last"] is None:
            x.has_last = 0
            x.lrow = 0
            x.lcol = 0
        else:
            x.has_last = 1
            x.lrow = d["last"][0]
            x.lcol = d["last"][1]
        x.passes = d["passes"]
        x.end = ENDS.index(d["end"])
        x.rng = d["rng"]
        m_refresh(s)
        x.n_hist = 0
        st.log_r = b.orow
        st.log_c = b.ocol
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
        x.n_hist = len(history)
        return st

    cdef int _copy_rest(self, StateCore src) except -1:
        """``clone``: the action array (the struct is copied)."""
        cdef MGameCore o = <MGameCore>src
        cdef Py_ssize_t n = o.s.pos.n_hist
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
        for i in range(self.s.pos.n_hist):
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
        n[0] = self.s.pos.n_hist
        step[0] = sizeof(m_log_t) // sizeof(uint16_t)  # (the action is the entry's first field)
        return <const uint16_t*>self.log

    cdef int _obs_shape(self, cnp.npy_intp* dims) noexcept:
        dims[0] = self.s.cfg.channels
        dims[1] = M_W
        dims[2] = M_W
        return 3

    def _to_dict(self):
        cdef m_t* s = &self.s
        cdef m_pos_t* x = &s.pos
        cdef m_board_t* bd = &x.board
        cdef int p, i, b
        cdef m_log_t* e
        cdef uint64_t bits = bd.occ
        m_settle(x)  # the pile's order and the generator, as the reference engine has them
        table = []
        while bits:
            b = ctz64(bits)
            bits &= bits - 1
            table.append([bd.orow + (b >> 3), bd.ocol + (b & 7), m_card_at(bd, b)])
        srow = []
        bits = x.srow
        while bits:
            b = ctz64(bits)
            bits &= bits - 1
            srow.append([bd.orow + (b >> 3), bd.ocol + (b & 7)])
        d = self.game._header()
        d["table"] = table
        d["hands"] = [[hand_card(x.hand[p], i) for i in range(x.hand_n[p])] for p in range(s.cfg.n)]
        d["pile"] = [x.pile[(x.pile_b + i) & (M_MAX_CARDS - 1)] for i in range(x.pile_n)]
        d["pile_putter"] = [x.putter[(x.pile_b + i) & (M_MAX_CARDS - 1)] for i in range(x.pile_n)]
        d["removed"] = [c for c in range(s.cfg.n_cards) if (x.removed[c >> 6] >> (c & 63)) & 1]
        d["chips"] = [x.chips[p] for p in range(s.cfg.n)]
        d["taken"] = taken = []
        for p in range(s.cfg.n):
            t = []
            b = x.thead[p]
            while b:
                t.append(b - 1)
                b = x.tnext[b - 1]
            taken.append(t)
        d["phase"] = PHASES[x.phase]
        d["current"] = self.current_player
        d["placer"] = x.placer
        d["last"] = [x.lrow, x.lcol] if x.has_last else None
        d["scoring_row"] = srow
        d["passes"] = x.passes
        d["end"] = ENDS[x.end]
        d["truncated"] = x.end == END_MAX_TURNS
        d["rng"] = x.rng
        d["history"] = self.history
        log = []
        for i in range(x.n_hist):
            e = &self.log[i]
            if e.card >= 0:
                log.append([e.seat, e.card, self.log_r + e.dr, self.log_c + e.dc])
            else:
                log.append([e.seat, e.card, 0, 0])
        d["log"] = log
        return d


cdef MGameCore _BLANK = MGameCore.__new__(MGameCore)  # (kept: a blank state, where the struct lies)
core_place(&CORE, _BLANK, &_BLANK.s)


def __getattr__(name):
    """``MCore``, the old name of ``MGameCore`` (it read as the ``MC`` prefix of Maus au
    Chocolat), kept until the next minor version: a ``DeprecationWarning``."""
    if name == "MCore":
        from mousehole._values import warn_deprecated
        warn_deprecated("mousehole._m.MCore", "mousehole._m.MGameCore")
        return MGameCore
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
