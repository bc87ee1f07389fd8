# cython: language_level=3
"""Compiled Cheese Rescue engine (rules CR-1 .. CR-15).

The state is one C struct (``cr_t`` in ``_cheese_rescue.pxd``). Every leaf function is
``noexcept nogil`` and allocates nothing. The pure-Python reference is
``mousehole/cheese_rescue.py``; both must give the same game, bit for bit, for the same seed
and actions. ``CORE_GAME`` is this engine's C-level interface (``mh_game_t``, _cgame.pxd) for the
generic search and batched stepping.

Design: the table on an 8 x 8 window, each rule once
------------------------------------------------------

Every legal cell lies in the cards' bounding box or one row or column beyond it (CR-7), and
the box is at most N x N (CR-8), with N <= 7 in every game the parameters allow (N = 8 gives 63
or 64 cells, which no player count of CR-11 shares). So the table is kept on an 8 x 8 window
that follows the box: one 64-bit word per board (``cr_window_t``: every card, dogs, cats, mice,
cheese), bit 8 * i + j for window cell (i, j), grid cell (top + i, left + j). With a floating
square the cards lie in window rows 1..bottom and columns 1..right; a card laid in row 0 or
column 0 grows the box up or left, and the window moves one step (every board shifted by 8
or 1), so rows and columns 0 stay empty and no shift wraps a card. A fixed square (reading
play_area) lies in window rows and columns 1..N, and the window never moves. The legal cells
of a position are one word; the cell codes (for the scores, the observation and the dicts)
are kept in the reference's G x G grid, ``table``. The struct holds nothing else of the
table: no row boards, no bounding box (the window is it).

Each rule is one small inline block over plain values (words, a hand's bytes, counters):
``cr_open_cells`` (CR-7, CR-8: the legal cells), ``cr_lay`` (CR-7: a card on the window,
the window following the box), ``cr_take`` (CR-7: the card leaves the hand), ``cr_draw``
(CR-9, and the deal's draws of CR-5), ``seat_after`` (CR-7: clockwise), ``cr_stack_animals``
and ``cr_deal_cards`` (CR-4, CR-5), ``cr_start`` (CR-3, CR-6), ``cr_cheese_left`` (CR-12),
``cr_count_cheese`` (CR-13), ``winner_mask_of`` (CR-13); ``cr_pick`` is simulate's action model
(one draw below (kinds held) x (legal cells): the action of that rank in the sorted legal list).
A turn, ``cr_turn``, is lay, take, draw and the next seat. Everything else is a sequence of
these:

- ``cr_run`` plays turns by simulate's policy. It copies the window and the policy's
  generator into locals whose addresses do not escape once it is inlined, so that gcc keeps
  them in registers (the hands, the pile and the table stay in memory: a turn reads or
  writes a byte or two of each). ``cr_sim_game`` (one game of ``simulate``: the deal, then
  ``cr_run`` to the end, then the scores), ``cr_random_step`` (``VectorGame``'s ``RANDOM``: one
  turn of ``cr_run``, the history kept), ``cr_rollout`` and ``cr_playout`` (the search: to the
  end with and without the history) are all ``cr_run``;
- ``cr_apply`` (a given action) is ``cr_turn`` on the struct's window in place;
- the legal list, mask and test, the observation, the scores and the determinization read
  the window.

What made the window's loop fast (docs/notes.md, "The yardstick" and the eighth sitting) is
kept: few branches on the draws (the card's board chosen by index, a draw from an empty pile
adds 0 to the hand instead of branching, the seat cycled in a register), the legal cells
counted by a SWAR popcount whose byte prefix sums also find the rank-th cell, and the kinds
held kept as a bit mask per seat. The struct is byte-canonical: the pile slots past
``pile_n`` and the history slots past ``placed`` are 0 on every path (new, play, from_dict,
determinize), so equal states are equal bytes.
"""

cimport cython
cimport numpy as cnp
from libc.string cimport memset, memcpy
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF
from cpython.object cimport PyObject, PyTypeObject

from mousehole._rng cimport (
    uint8_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t, rng_t,
    rng_next, rng_below, rng_derive, rng_shuffle_u8,
)
from mousehole._bits cimport (
    popcount16, popcount64, ctz64, rel_seat, seat_after, mh_pc8, mh_copy, mh_zero, mh_fill_f32, MH_BIG_ENDIAN,
)
from mousehole._cgame cimport mh_game_t, mh_dims_t, TERMINAL_SEAT
from mousehole._cgame cimport mh_game_def
from mousehole._boundary cimport sim_out_t, sim_row
from mousehole._statecore cimport StateCore, state_loaded, core_t, core_def, core_capsule, core_place

import numpy as np

cnp.import_array()
cdef cnp.dtype INT64_DESCR = np.dtype(np.int64)
cdef type NDARRAY_TYPE = np.ndarray

cdef extern from "numpy/arrayobject.h":
    object np_new_from_descr "PyArray_NewFromDescr" (PyTypeObject* subtype, cnp.dtype descr, int nd,
            cnp.npy_intp* dims, cnp.npy_intp* strides, void* data, int flags, PyObject* obj)


# ---- tables ---------------------------------------------------------------------------------------

cdef enum:
    CR_WINDOW_N = 7        # the largest square the window holds (every playable one)

cdef uint8_t SELECT8[256][8]   # SELECT8[b][j]: position of the j-th set bit of byte b
cdef int _b, _j, _c
for _b in range(256):
    _j = 0
    for _c in range(8):
        if (_b >> _c) & 1:
            SELECT8[_b][_j] = <uint8_t>_c
            _j += 1

cdef uint32_t CR_RECIP[65]   # ceil(2**20 / n): idx // n == (idx * CR_RECIP[n]) >> 20 (exact for idx < 8n, n <= 64)
for _c in range(1, 65):
    CR_RECIP[_c] = <uint32_t>(((1 << 20) + _c - 1) // _c)

cdef uint8_t CR_BOARD[CR_MAX_KINDS]   # the window board of a kind: 0 dogs, 1 cats, 2 mice, 3 cheese
for _c in range(CR_MAX_KINDS):
    CR_BOARD[_c] = <uint8_t>(_c if _c < 3 else 3)

# CR-8: CR_SQUARE[shape][bottom][0]: the window rows where a card may go when the cards' last
# row is window row ``bottom``; CR_SQUARE[shape][right][1]: the same for columns. Shape N: a
# floating N x N square (a box h < N high takes a card one row beyond it on each side, h = N
# only inside it); shape 8 + N: the fixed N x N square in window rows and columns 1..N,
# wherever the cards lie.
cdef uint64_t CR_SQUARE[16][9][2]
cdef int _n, _h, _i
for _n in range(16):
    for _h in range(9):
        CR_SQUARE[_n][_h][0] = 0
        CR_SQUARE[_n][_h][1] = 0
        for _i in range(8):
            if ((2 <= _n <= CR_WINDOW_N and _h >= 1
                    and ((_h < _n and _i <= _h + 1) or (_h >= _n and 1 <= _i <= _h)))
                    or (_n >= 8 and 1 <= _i <= _n - 8)):
                CR_SQUARE[_n][_h][0] |= (<uint64_t>0xFF) << (8 * _i)
                CR_SQUARE[_n][_h][1] |= (<uint64_t>0x0101010101010101ULL) << _i


cdef inline int cr_div(int x, uint32_t recip) noexcept nogil:
    """``x // d`` for 0 <= x < 2**20 / d (``recip = ceil(2**20 / d)``, cfg.div_C, div_G): the
    action's kind, the cell's row and the window's top row (``cr_origin``) without a
    division."""
    return <int>((<uint32_t>x * recip) >> 20)


cdef inline int cr_cell(int base, int pos, int G) noexcept nogil:
    """The grid cell of window cell ``pos`` (the window's cell (0, 0) is grid cell ``base``)."""
    return base + (pos >> 3) * G + (pos & 7)


cdef inline void cr_origin(const cr_t* s, int* top, int* left) noexcept nogil:
    """The grid row and column of window cell (0, 0), each -1 or more: ``win.base`` as
    ``top * G + left``."""
    top[0] = cr_div(s.win.base + 1 + s.cfg.G, s.cfg.div_G) - 1  # (base + 1 + G >= 0: no division)
    left[0] = s.win.base - top[0] * s.cfg.G


# ---- the rules: one inline block each -------------------------------------------------------------

cdef inline uint64_t cr_near(uint64_t x) noexcept nogil:
    """The window cells next to a card of ``x`` (cards lie in rows and columns 1..7: a shift
    right never wraps into a card's row, a wrap of the shift left lands on an empty column 0)."""
    return (x << 1) | (x >> 1) | (x << 8) | (x >> 8)


cdef inline uint64_t cr_square(const uint64_t* square, int bottom, int right) noexcept nogil:
    """CR-8: the window cells where a card keeps every card inside the square (``square``:
    the square's rows of CR_SQUARE)."""
    return square[2 * bottom] & square[2 * right + 1]


cdef inline uint64_t cr_open_cells(uint64_t occ, uint64_t square) noexcept nogil:
    """CR-7, CR-8: the legal cells, the empty cells next to a card inside ``square``; on an
    empty table (3 players) the centre, window cell (1, 1)."""
    return (cr_near(occ) & ~occ & square) | (<uint64_t>(occ == 0) << 9)


cdef inline int cr_pick(uint64_t legal, uint32_t held, rng_t* policy, int* kind) noexcept nogil:
    """Simulate's action model: one uniform draw among (kinds held) x (legal cells), the action
    of that rank in the sorted legal list (kind-major, cells ascending: the window's set bits
    in ascending order are the grid's cells in row-major order). Returns the cell's window bit
    and ``kind[0]``. The count of legal cells and the row of the rank-th one come from the
    byte prefix sums of a SWAR popcount, without a loop."""
    cdef uint64_t x, pre, d
    cdef uint32_t nc, idx, j, t
    cdef int sh
    x = legal - ((legal >> 1) & <uint64_t>0x5555555555555555ULL)
    x = (x & <uint64_t>0x3333333333333333ULL) + ((x >> 2) & <uint64_t>0x3333333333333333ULL)
    x = (x + (x >> 4)) & <uint64_t>0x0F0F0F0F0F0F0F0FULL
    pre = x * <uint64_t>0x0101010101010101ULL  # byte i: the legal cells in window rows 0..i
    nc = <uint32_t>(pre >> 56)
    idx = rng_below(policy, <uint32_t>mh_pc8[held] * nc)
    j = (idx * CR_RECIP[nc]) >> 20  # idx // nc: the j-th kind held
    t = idx - j * nc                 # the t-th legal cell
    kind[0] = SELECT8[held][j]
    d = ((pre | <uint64_t>0x8080808080808080ULL) - (t + 1) * <uint64_t>0x0101010101010101ULL) \
        & <uint64_t>0x8080808080808080ULL   # bit 7 of byte i: more than t legal cells in rows 0..i
    sh = ctz64(d) - 7                        # 8 * (the window row of the t-th legal cell)
    return sh + SELECT8[(legal >> sh) & 0xFF][t - <uint32_t>(((pre << 8) >> sh) & 0xFF)]


cdef inline int cr_lay(cr_window_t* w, uint64_t* boards, int kind, int pos, int G) noexcept nogil:
    """CR-7: a card of ``kind`` on the legal window cell ``pos``: the cards and the kind's
    board take it, and the window follows the box (a card in row 0 or column 0 moves it one
    step up or left, so that rows and columns 0 stay empty). Returns the card's grid cell.
    No branch on the kind or the cell (both random in play-outs)."""
    cdef int rr = pos >> 3, cc = pos & 7
    cdef int up = rr == 0, left = cc == 0
    cdef int sh = 8 * up + left
    cdef uint64_t bit
    w.bottom += up | (rr > w.bottom)
    w.right += left | (cc > w.right)
    w.base -= up * G + left
    pos += sh
    bit = <uint64_t>1 << pos
    w.occ = (w.occ << sh) | bit
    boards[0] <<= sh
    boards[1] <<= sh
    boards[2] <<= sh
    boards[3] <<= sh
    boards[CR_BOARD[kind]] |= bit
    return cr_cell(w.base, pos, G)


cdef inline uint32_t cr_take(uint8_t* hand, uint32_t held, int kind) noexcept nogil:
    """CR-7: the card laid leaves the hand; the kinds held after it (``held``: before)."""
    hand[kind] -= 1
    return held ^ (<uint32_t>(hand[kind] == 0) << kind)


cdef inline uint32_t cr_draw(uint8_t* hand, uint32_t held, uint8_t* pile, int32_t* pile_n) noexcept nogil:
    """CR-9 (and the draws of the deal, CR-5), from a pile that is not empty: its top card,
    ``pile[pile_n - 1]``, into the hand; the kinds held after it. The slot drawn is zeroed
    (the struct is byte-canonical)."""
    cdef int t = pile_n[0] - 1
    cdef int card = pile[t]
    pile[t] = 0
    pile_n[0] = t
    hand[card] += 1
    return held | (<uint32_t>1 << card)


cdef inline int cr_turn(cr_t* s, cr_window_t* w, int kind, int pos, bint draw) noexcept nogil:
    """One turn of the seat to play, ``w.seat``: its card of ``kind`` on the legal window cell
    ``pos`` (CR-7), then, with ``draw`` (CR-9: the pile is not empty), the draw; the next seat
    (CR-7, clockwise). ``w``: the struct's window or a local copy of it. Returns the grid cell."""
    cdef int p = w.seat
    cdef int cell = cr_lay(w, s.boards, kind, pos, s.cfg.G)
    cdef uint32_t held = cr_take(s.hands[p], s.held[p], kind)
    s.table[cell] = s.cfg.code[p][kind]
    if draw:
        held = cr_draw(s.hands[p], held, s.pile, &w.pile_n)
    s.held[p] = <uint8_t>held
    w.seat = seat_after(p, 1, s.cfg.n)
    return cell


cdef inline void cr_fill8(uint8_t* p, int n, uint64_t word) noexcept nogil:
    """``p[0 .. n)`` set to ``word``'s byte (every byte of ``word`` alike), eight bytes a
    store: it writes up to 7 bytes past ``n``."""
    cdef int i = 0
    while i < n:
        memcpy(p + i, &word, 8)
        i += 8


cdef inline int cr_stack_animals(uint8_t* pile, int dogs, int cats, int mice) noexcept nogil:
    """Animals in their canonical order, dogs, then cats, then mice (CR-4's pile before the
    shuffle; CR-15's hidden animals before theirs); their number. ``pile`` has
    ``CR_MAX_PILE + 1`` bytes and those past the animals are 0 before and after. (A stack
    with room for 8 bytes past it is written a word at a time, the overshoot then zeroed:
    the determinization of every search iteration stacks its hidden animals, and three
    ``memset`` calls of a few bytes cost more than the words.)"""
    cdef int total = dogs + cats + mice
    cdef uint64_t zero = 0
    if total + 8 <= CR_MAX_PILE + 1:
        cr_fill8(pile, dogs, 0)
        cr_fill8(pile + dogs, cats, <uint64_t>0x0101010101010101ULL)
        cr_fill8(pile + dogs + cats, mice, <uint64_t>0x0202020202020202ULL)
        memcpy(pile + total, &zero, 8)
    else:
        memset(pile, 0, <size_t>dogs)
        memset(pile + dogs, 1, <size_t>cats)
        memset(pile + dogs + cats, 2, <size_t>mice)
    return total


cdef inline void cr_deal_cards(cr_t* s, rng_t* rng) noexcept nogil:
    """CR-4: the pile (its ``pile_size`` animals stacked, ``cr_stack_animals``) shuffled by
    ``rng``; CR-5: each seat takes the cheese set and draws ``initial_draw`` cards, seat 0
    first."""
    cdef int p, t
    cdef uint32_t hd
    s.win.pile_n = s.cfg.pile_size
    rng_shuffle_u8(rng, s.pile, s.win.pile_n)
    for p in range(s.cfg.n):
        memcpy(s.hands[p], s.cfg.hand0, CR_MAX_KINDS)
        hd = s.cfg.held0
        for t in range(s.cfg.initial_draw):
            hd = cr_draw(s.hands[p], hd, s.pile, &s.win.pile_n)
        s.held[p] = <uint8_t>hd


cdef inline void cr_start(cr_t* s) noexcept nogil:
    """CR-3, CR-6: the start card on the centre cell with 2 or 4 players (3 players: an empty
    table, the first card goes on the centre, CR-7); the window over it; seat 0 to play (CR-7)."""
    s.win.occ = s.cfg.start_bit
    s.win.base = s.cfg.base0
    s.win.bottom = s.cfg.bottom0
    s.win.right = s.cfg.right0
    s.win.seat = 0
    s.boards[0] = 0
    s.boards[1] = 0
    s.boards[2] = 0
    s.boards[3] = 0
    s.table[s.cfg.center] = <uint8_t>s.cfg.uses_start  # (the start card's code is 1)


cdef inline uint64_t cr_cheese_left(const uint64_t* boards) noexcept nogil:
    """CR-12 on the window's dogs, cats, mice and cheese, each step on the survivors of the
    one before: the cats no dog scares, the mice no such cat chases, and of them the cheese no
    such mouse eats (the start card is on no board: it neither removes nor is removed)."""
    cdef uint64_t x = boards[1] & ~cr_near(boards[0])
    x = boards[2] & ~cr_near(x)
    return boards[3] & ~cr_near(x)


cdef inline void cr_score_count(const cr_t* s, int32_t* score, int32_t* count) noexcept nogil:
    """CR-13 on the table as it is now: each seat's score, the values of its own cheese cards
    left after CR-12, and their number (the tie-break); ``score`` and ``count`` hold
    ``CR_MAX_PLAYERS`` entries each."""
    cdef uint64_t x = cr_cheese_left(s.boards)
    cdef int p, cd
    for p in range(CR_MAX_PLAYERS):  # (every seat's slot, n or not: a fixed size, no memset call)
        score[p] = 0
        count[p] = 0
    while x:
        cd = s.table[cr_cell(s.win.base, ctz64(x), s.cfg.G)]
        x &= x - 1
        score[s.cfg.owner[cd]] += s.cfg.value[cd]
        count[s.cfg.owner[cd]] += 1


cdef inline int winner_mask_of(int n, const int32_t* score, const int32_t* count) noexcept nogil:
    """CR-13: bit p set for each winner (highest score, then most cheese cards)."""
    cdef int p, best_s = -1, best_c = -1, mask = 0
    for p in range(n):
        if score[p] > best_s or (score[p] == best_s and count[p] > best_c):
            best_s = score[p]
            best_c = count[p]
            mask = 0
        if score[p] == best_s and count[p] == best_c:
            mask |= 1 << p
    return mask


cdef inline void returns_of(int n, int mask, double* out) noexcept nogil:
    """+1 for each winner of ``mask`` and -1 for each other seat; 0 for all when every seat
    wins (the returns of StateAPI)."""
    cdef int p
    for p in range(n):
        if mask == (1 << n) - 1:
            out[p] = 0.0
        else:
            out[p] = 1.0 if (mask >> p) & 1 else -1.0


# ---- play: the blocks in sequence ------------------------------------------------------------

cdef inline int cr_random_turn(cr_t* s, cr_window_t* w, bint draw, rng_t* rng,
                               const uint64_t* square) noexcept nogil:
    """One turn of simulate's policy: ``cr_pick`` on the legal cells, then ``cr_turn``
    (``square``: the game's rows of CR_SQUARE). Returns the action."""
    cdef int kind, pos
    pos = cr_pick(cr_open_cells(w.occ, cr_square(square, w.bottom, w.right)), s.held[w.seat], rng, &kind)
    return kind * s.cfg.C + cr_turn(s, w, kind, pos, draw)


cdef inline void cr_turns(cr_t* s, cr_window_t* w, int moves, bint draw, uint16_t* hist,
                          rng_t* rng) noexcept nogil:
    """``moves`` turns of simulate's policy, each with a draw or none (``draw``, a constant
    where this is inlined); the actions into ``hist`` unless it is NULL."""
    cdef const uint64_t* square = &CR_SQUARE[s.cfg.shape][0][0]
    cdef int a
    while moves > 0:
        a = cr_random_turn(s, w, draw, rng, square)
        if hist != NULL:
            hist[0] = <uint16_t>a
            hist += 1
        moves -= 1


cdef inline void cr_run(cr_t* s, int moves, uint16_t* hist, rng_t* policy) noexcept nogil:
    """``moves`` turns of simulate's policy; the actions into ``hist`` unless it is NULL. A
    turn draws while the pile lasts (CR-9): the first ``pile_n`` turns draw, the rest do not,
    so the loop (``cr_turns``) runs twice, without a branch on the pile. The window, the
    generator and the game's constants are held in locals (a store into the struct's bytes may
    alias anything reached through a pointer), so that gcc keeps them in registers; the
    boards, hands, pile and table stay in the struct."""
    cdef cr_window_t w = s.win
    cdef rng_t rng = policy[0]
    cdef int drawing = min(moves, w.pile_n)
    cr_turns(s, &w, drawing, True, hist, &rng)
    cr_turns(s, &w, moves - drawing, False, hist + drawing if hist != NULL else NULL, &rng)
    s.win = w
    policy[0] = rng


cdef inline void cr_sim_game(cr_t* s, const uint8_t* pile0, uint64_t seed, rng_t* policy,
                             int32_t* score, int32_t* count) noexcept nogil:
    """One game of ``simulate`` on the scratch struct ``s`` (its constants set, its pile
    slot 0 zero): the deal of ``seed`` (the stacked pile copied from ``pile0``), ``cr_run`` to
    the end (the square full, CR-11, or ``max_turns``) without the history, the scores and
    cheese counts of CR-12, CR-13. The same game as ``cr_deal`` + ``cr_rollout`` + ``cr_scores``."""
    cdef rng_t rng = seed
    memcpy(s.pile, pile0, <size_t>s.cfg.pile_size)
    cr_deal_cards(s, &rng)
    cr_start(s)
    cr_run(s, s.cfg.length, NULL, policy)
    cr_score_count(s, score, count)


cdef inline void cr_clear(cr_t* s) noexcept nogil:
    """Everything from ``placed`` to the end of the struct 0 (hands, table, pile, history)."""
    mh_zero(<char*>&s.placed, sizeof(cr_t) - <size_t>(<char*>&s.placed - <char*>s))  # (see mh_zero)


cdef void cr_deal "core_deal"(cr_t* s, uint64_t seed) noexcept nogil:
    """A new game from ``seed`` (the constants already set): CR-3 .. CR-6."""
    cr_clear(s)
    s.rng = seed
    cr_stack_animals(s.pile, s.cfg.pile_count[0], s.cfg.pile_count[1], s.cfg.pile_count[2])
    cr_deal_cards(s, &s.rng)
    cr_start(s)


cdef inline int cr_current "core_current"(const cr_t* s) noexcept nogil:
    """The seat to play, or TERMINAL_SEAT once the square is full (CR-11) or max_turns cards
    are laid."""
    if s.placed >= s.cfg.length:
        return TERMINAL_SEAT
    return s.win.seat


cdef inline void cr_count_turns(cr_t* s, int moves) noexcept nogil:
    """``moves`` more cards laid (their actions recorded); ``truncated`` once max_turns ends
    the game before the square is full."""
    s.placed += moves
    s.truncated = (s.placed >= s.cfg.length) & s.cfg.cut


cdef inline void cr_apply "core_apply"(cr_t* s, int a) noexcept nogil:
    """Lay card kind ``a // C`` on cell ``a % C`` (legal: checked by the caller) and draw."""
    cdef int kind = cr_div(a, s.cfg.div_C)
    cdef int cell = a - kind * s.cfg.C
    cdef int r = cr_div(cell, s.cfg.div_G)
    cdef int top, left
    cr_origin(s, &top, &left)
    cr_turn(s, &s.win, kind, 8 * (r - top) + cell - r * s.cfg.G - left, s.win.pile_n > 0)
    s.hist[s.placed] = <uint16_t>a
    cr_count_turns(s, 1)


cdef inline void cr_play(cr_t* s, int moves, rng_t* policy) noexcept nogil:
    """``moves`` actions of simulate's policy on the struct, the history kept."""
    cr_run(s, moves, s.hist + s.placed, policy)
    cr_count_turns(s, moves)


cdef int cr_random_step(cr_t* s, rng_t* policy) noexcept nogil:
    """One action of simulate's policy (a seat being to play); the seat to play after it.
    (``cr_run`` for one turn, without its loops.)"""
    cdef rng_t rng = policy[0]
    s.hist[s.placed] = <uint16_t>cr_random_turn(s, &s.win, s.win.pile_n > 0, &rng, &CR_SQUARE[s.cfg.shape][0][0])
    policy[0] = rng
    cr_count_turns(s, 1)
    return cr_current(s)


cdef void cr_rollout "core_rollout"(cr_t* s, rng_t* policy) noexcept nogil:
    """Play simulate's policy to the end, the struct kept (its history too)."""
    cr_play(s, s.cfg.length - s.placed, policy)


cdef int cr_winner_mask "core_winner_mask"(const cr_t* s) noexcept nogil:
    """CR-13 on the table as it is now (CR-12 removals included)."""
    cdef int32_t score[4]
    cdef int32_t count[4]
    cr_score_count(s, score, count)
    return winner_mask_of(s.cfg.n, score, count)


cdef void cr_returns "core_returns"(const cr_t* s, double* out) noexcept nogil:
    """As ``StateAPI.returns``: 0 before the end; +1 for each winner and -1 for each other
    seat (CR-13), 0 for all when every seat wins."""
    cdef int p
    if cr_current(s) != TERMINAL_SEAT:
        for p in range(s.cfg.n):
            out[p] = 0.0
        return
    returns_of(s.cfg.n, cr_winner_mask(s), out)


cdef void cr_playout "core_playout"(cr_t* s, rng_t* policy, double* out) noexcept nogil:
    """``cr_rollout`` then ``cr_returns``, with the same draws and the same result, without the
    history (the struct is scratch afterwards)."""
    cr_run(s, s.cfg.length - s.placed, NULL, policy)
    returns_of(s.cfg.n, cr_winner_mask(s), out)


cdef void cr_evaluate "core_evaluate"(const cr_t* s, double* out) noexcept nogil:
    """The strong search's evaluation, per seat the value of ``CheeseRescueGame.greedy_value``:
    10 x its score if the game ended now (CR-12, CR-13) + its surviving cheese cards."""
    cdef int32_t sc[4]
    cdef int32_t cnt[4]
    cdef int p
    cr_score_count(s, sc, cnt)
    for p in range(s.cfg.n):
        out[p] = 10.0 * sc[p] + cnt[p]


# ---- the legal actions (the window's legal cells) ---------------------------------------------------

cdef inline uint64_t cr_legal_word(const cr_t* s) noexcept nogil:
    """The legal cells of the position, as window bits (CR-7, CR-8)."""
    return cr_open_cells(s.win.occ, cr_square(&CR_SQUARE[s.cfg.shape][0][0], s.win.bottom, s.win.right))


cdef inline int cr_legal_cells(const cr_t* s, uint16_t* rows) noexcept nogil:
    """Row masks of the legal cells (CR-7, CR-8), all 16 rows set (bit c of ``rows[r]``: cell
    (r, c)); returns their number."""
    cdef uint64_t legal = cr_legal_word(s)
    cdef uint32_t byte
    cdef int i, top, left
    cr_origin(s, &top, &left)
    memset(rows, 0, 16 * sizeof(uint16_t))
    for i in range(8):  # window row i is grid row top + i; window column 0 is grid column left >= -1
        byte = <uint32_t>(legal >> (8 * i)) & 0xFF
        if byte:
            rows[top + i] = <uint16_t>((byte << (left + 1)) >> 1)
    return popcount64(legal)


ctypedef fused cell_int:
    int32_t
    uint32_t


cdef inline int cr_legal_list(const cr_t* s, cell_int* cells) noexcept nogil:
    """The legal cells (CR-7, CR-8), ascending, into ``cells`` (at most N * N + 2N); returns
    their number."""
    cdef uint64_t legal = cr_legal_word(s)
    cdef int i = 0
    while legal:
        cells[i] = cr_cell(s.win.base, ctz64(legal), s.cfg.G)
        legal &= legal - 1
        i += 1
    return i


cdef inline void cr_add4(int32_t* o, const int32_t* cells, int32_t d) noexcept nogil:
    """Four actions: ``o[j] = cells[j] + d`` (one vector add and store)."""
    o[0] = cells[0] + d
    o[1] = cells[1] + d
    o[2] = cells[2] + d
    o[3] = cells[3] + d


cdef int cr_legal(const cr_t* s, int32_t* out) noexcept nogil:
    """The legal actions, as ``legal_actions``: kind-major, cells ascending (sorted). The
    legal cells are listed once; each kind held (CR-7) copies them with its offset, four at
    a time, the last four ending at the block's end (they may rewrite some of the block's
    actions with the same values; nothing is written past the list). The search lists the
    actions at every node it descends through: a few cells times a few kinds, where a
    vectorized loop's set-up and scalar remainder cost more than the copies."""
    cdef int32_t cells[CR_MAX_CELLS]
    cdef int p = cr_current(s)
    cdef int32_t* o = out
    cdef int nc, i
    cdef int32_t d
    cdef uint32_t held
    if p == TERMINAL_SEAT:
        return 0
    nc = cr_legal_list(s, cells)
    held = s.held[p]
    while held:
        d = ctz64(held) * s.cfg.C
        held &= held - 1
        if nc >= 4:
            i = 0
            while i + 4 < nc:
                cr_add4(o + i, cells + i, d)
                i += 4
            cr_add4(o + nc - 4, cells + nc - 4, d)
        else:
            for i in range(nc):
                o[i] = cells[i] + d
        o += nc
    return <int>(o - out)


cdef int cr_num_legal(const cr_t* s) noexcept nogil:
    """The number of legal actions: (kinds held) x (legal cells)."""
    if cr_current(s) == TERMINAL_SEAT:
        return 0
    return mh_pc8[s.held[s.win.seat]] * popcount64(cr_legal_word(s))


cdef inline bint cr_is_legal(const cr_t* s, int a) noexcept nogil:
    """Is ``a`` (0 <= a < num_actions) legal: the seat to play holds the kind, and the cell is
    a legal cell (CR-7, CR-8), which lies on the window."""
    cdef int kind = cr_div(a, s.cfg.div_C)
    cdef int cell = a - kind * s.cfg.C
    cdef int r = cr_div(cell, s.cfg.div_G)
    cdef int top, left, rr, cc
    cr_origin(s, &top, &left)
    rr = r - top
    cc = cell - r * s.cfg.G - left
    if cr_current(s) == TERMINAL_SEAT or not ((s.held[s.win.seat] >> kind) & 1):
        return False
    if rr < 0 or rr > 7 or cc < 0 or cc > 7:
        return False
    return (cr_legal_word(s) >> (8 * rr + cc)) & 1


cdef uint8_t SPREAD8[256][8]  # SPREAD8[b][j]: bit j of byte b, as a 0/1 byte
for _b in range(256):
    for _c in range(8):
        SPREAD8[_b][_c] = (_b >> _c) & 1


cdef void cr_legal_mask(const cr_t* s, uint8_t* mask) noexcept nogil:
    """1 at every legal action (CR-7, CR-8: a kind held times a legal cell); ``mask`` is
    zero-filled. Every held kind has the same legal cells: their 0/1 bytes are spread once,
    row by row, from the rows' bit masks (16 bytes a row, the three past the row's end
    overwritten by the next row), and copied to each held kind's block."""
    cdef uint16_t cells[16]
    cdef uint8_t block[CR_MAX_CELLS + 16]
    cdef int p = cr_current(s)
    cdef int k, r, G = s.cfg.G, C = s.cfg.C
    if p == TERMINAL_SEAT:
        return
    cr_legal_cells(s, cells)
    for r in range(G):
        memcpy(block + r * G, SPREAD8[cells[r] & 0xFF], 8)
        memcpy(block + r * G + 8, SPREAD8[cells[r] >> 8], 8)
    for k in range(s.cfg.kinds):
        if (s.held[p] >> k) & 1:
            memcpy(mask + k * C, block, <size_t>C)


# ---- observation (written from the struct, no Python objects) ----------------------------------

cdef inline int cr_num_channels(const cr_cfg_t* cfg) noexcept nogil:
    """4 table planes, n cheese planes, 3 own animals, n animal counts, n * K cheese counts,
    1 pile size, n seat to play (the layout of ``CheeseRescue._observation``)."""
    return 4 + cfg.n + 3 + cfg.n + cfg.n * cfg.K + 1 + cfg.n


cdef inline void fill_plane(float* dst, int size, float v) noexcept nogil:
    mh_fill_f32(dst, v, <size_t>size)


cdef void cr_observe(const cr_t* s, int p, float* obs) noexcept nogil:
    """Seat p's observation, seats relative to p (k = 0 is p, then clockwise); ``obs`` is
    written whole (the buffer need not be zeroed: the planes that are mostly zero are cleared
    first, every other plane is filled with its value, so that each float is written about
    once). Bit for bit the reference ``CheeseRescue._observation``: a cheese plane holds
    value / highest value, computed in double and rounded to float32, as numpy does."""
    cdef int n = s.cfg.n, G = s.cfg.G, K = s.cfg.K
    cdef int plane = G * G
    cdef int cell, code, owner, ck, k, q, c, total, cur, pos
    cdef uint64_t bits
    cdef double top = 0.0
    cdef float scale[5]
    # per cell code: where its 1 (or cheese value) goes and what it is, tabled first (a loop
    # that does not depend on the position), so that the cards on the table are written
    # without a branch on what they are (those branches mispredicted) and with no division
    cdef int at[5 + CR_MAX_PLAYERS * 5]
    cdef float val[5 + CR_MAX_PLAYERS * 5]
    for ck in range(K):  # CR-2: cheese values, scaled by the highest one
        if s.cfg.cheese_value[ck] > top:
            top = s.cfg.cheese_value[ck]
    for ck in range(K):
        scale[ck] = <float>(<double>s.cfg.cheese_value[ck] / top)
    for code in range(1, 5):  # start card, dogs, cats, mice: planes 0..3
        at[code] = (code - 1) * plane
        val[code] = 1.0
    code = 5
    for owner in range(n):  # cheese: plane 4 + the owner's seat relative to p
        q = rel_seat(owner, p, n)
        for ck in range(K):
            at[code] = (4 + q) * plane
            val[code] = scale[ck]
            code += 1
    memset(obs, 0, <size_t>((4 + n) * plane) * sizeof(float))
    bits = s.win.occ  # planes 0..3 (start card, dogs, cats, mice) and 4..4+n-1 (cheese)
    while bits:
        pos = ctz64(bits)
        bits &= bits - 1
        cell = cr_cell(s.win.base, pos, G)
        code = s.table[cell]
        obs[at[code] + cell] = val[code]
    c = 4 + n
    for k in range(3):  # own dogs, cats, mice in hand (CR-15: public to p)
        fill_plane(obs + (c + k) * plane, plane, <float>s.hands[p][k])
    c += 3
    for k in range(n):  # animals in each hand (a hand's size is public, CR-15)
        q = seat_after(p, k, n)
        total = s.hands[q][0] + s.hands[q][1] + s.hands[q][2]
        fill_plane(obs + (c + k) * plane, plane, <float>total)
    c += n
    for k in range(n):  # cheese cards of each kind still in each hand
        q = seat_after(p, k, n)
        for ck in range(K):
            fill_plane(obs + (c + k * K + ck) * plane, plane, <float>s.hands[q][3 + ck])
    c += n * K
    fill_plane(obs + c * plane, plane, <float>s.win.pile_n)  # cards in the draw pile (CR-9)
    c += 1
    memset(obs + c * plane, 0, <size_t>(n * plane) * sizeof(float))
    cur = cr_current(s)
    if cur != TERMINAL_SEAT:
        fill_plane(obs + (c + rel_seat(cur, p, n)) * plane, plane, 1.0)


# ---- a struct from its table (from_dict), and the determinization (CR-15) --------------------------

# Words read from the struct's bytes (memcpy) as on a little-endian machine, where byte k of
# memory is bits 8k..8k+7 of the word. On a big-endian one (MH_BIG_ENDIAN, a constant the C
# compiler folds) this reorders them; elsewhere it returns its argument.

cdef inline uint64_t cr_bytes8(uint64_t v) noexcept nogil:
    """Eight bytes read as one word, the first at bits 0-7."""
    if MH_BIG_ENDIAN:
        v = ((v >> 8) & <uint64_t>0x00FF00FF00FF00FFULL) | ((v & <uint64_t>0x00FF00FF00FF00FFULL) << 8)
        v = ((v >> 16) & <uint64_t>0x0000FFFF0000FFFFULL) | ((v & <uint64_t>0x0000FFFF0000FFFFULL) << 16)
        v = (v >> 32) | (v << 32)
    return v


cdef inline uint8_t cr_kinds_held(const uint8_t* hand) noexcept nogil:
    """The kinds a hand holds, as bits: its 8 counts read as one word, a high bit per count
    that is not 0, gathered into a byte (no loop)."""
    cdef uint64_t cnt
    memcpy(&cnt, hand, 8)
    cnt = cr_bytes8(cnt)
    cnt = (cnt | ((cnt & <uint64_t>0x7F7F7F7F7F7F7F7FULL) + <uint64_t>0x7F7F7F7F7F7F7F7FULL)) \
        & <uint64_t>0x8080808080808080ULL
    return <uint8_t>(((cnt >> 7) * <uint64_t>0x0102040810204080ULL) >> 56)


cdef inline void cr_put(cr_t* s, int cell, int code) noexcept nogil:
    """A card (table code) on ``cell`` of the table; ``cr_derive`` then builds the window."""
    s.table[cell] = <uint8_t>code


cdef void cr_derive(cr_t* s) noexcept nogil:
    """What the state keeps besides the table, hands, pile and history: the window over the
    table's cards as play leaves it (a floating square's cards from window row and column 1,
    a fixed square's in rows and columns 1..N), the boards, the kinds each seat holds and the
    seat to play (CR-7: the cards laid so far, clockwise from seat 0)."""
    cdef int G = s.cfg.G, cell, r, c, code, pos, top, left
    cdef int rmin = 99, rmax = -1, cmin = 99, cmax = -1
    cdef uint64_t bit
    for cell in range(s.cfg.C):
        if s.table[cell]:
            r = cell // G
            c = cell - r * G
            rmin = min(rmin, r)
            rmax = max(rmax, r)
            cmin = min(cmin, c)
            cmax = max(cmax, c)
    s.win.base = s.cfg.base0
    if rmax >= 0 and not s.cfg.fixed_area:
        s.win.base = (rmin - 1) * G + cmin - 1
    cr_origin(s, &top, &left)
    s.win.bottom = rmax - top if rmax >= 0 else 0
    s.win.right = cmax - left if rmax >= 0 else 0
    s.win.occ = 0
    memset(s.boards, 0, sizeof(s.boards))
    for cell in range(s.cfg.C):
        code = s.table[cell]
        if code:
            r = cell // G
            bit = <uint64_t>1 << (8 * (r - top) + cell - r * G - left)
            s.win.occ |= bit
            if code >= 2:  # 2, 3, 4: an animal; 5 and up: a cheese (1: the start card, on no board)
                s.boards[CR_BOARD[min(code - 2, 3)]] |= bit
    s.win.seat = s.placed % s.cfg.n
    for r in range(s.cfg.n):
        s.held[r] = cr_kinds_held(s.hands[r])


cdef void cr_determinize "core_determinize"(cr_t* s, int p, uint64_t seed) noexcept nogil:
    """In place: the animals seat ``p`` cannot see (in the other hands and in the pile, CR-15)
    re-dealt from ``seed``, as ``CheeseRescue._determinize`` does from p's view: the hidden
    animals (the game's animals minus those on the table and in p's hand) in their canonical
    order (``cr_stack_animals``), shuffled, dealt from the end to the other seats in seat
    order as draws (``cr_draw``; each gets as many animals as it holds: hand sizes are
    public), the rest is the pile; then the new ``rng`` is the generator's next output.
    Everything read here is public to ``p``."""
    cdef rng_t r = seed
    cdef int n = s.cfg.n
    cdef int q, i, a
    cdef int32_t h
    cdef uint32_t hd
    cdef uint8_t* hand
    # (the hidden animals are at least the pile_n the pile held, and the slots past pile_n
    # are 0: the slots past the hidden ones stay 0; those dealt are zeroed as they are dealt)
    h = cr_stack_animals(s.pile, s.cfg.pile_count[0] - s.hands[p][0] - popcount64(s.boards[0]),
                         s.cfg.pile_count[1] - s.hands[p][1] - popcount64(s.boards[1]),
                         s.cfg.pile_count[2] - s.hands[p][2] - popcount64(s.boards[2]))
    rng_shuffle_u8(&r, s.pile, h)
    for q in range(n):
        if q == p:
            continue
        hand = s.hands[q]
        a = hand[0] + hand[1] + hand[2]
        hand[0] = 0
        hand[1] = 0
        hand[2] = 0
        hd = s.held[q] & ~(<uint32_t>7)  # (the animals go; the cheese stays)
        for i in range(a):
            hd = cr_draw(hand, hd, s.pile, &h)
        s.held[q] = <uint8_t>hd
    s.win.pile_n = h
    s.rng = rng_next(&r)


# ---- the C-level game interface (mh_game_t, _cgame.pxd) -------------------------------------------

cdef void g_dims(const void* vs, mh_dims_t* d) noexcept nogil:
    cdef const cr_t* s = <const cr_t*>vs
    cdef int cells = s.cfg.N * s.cfg.N + 2 * s.cfg.N
    d.players = s.cfg.n
    d.num_actions = s.cfg.num_actions
    d.obs_size = cr_num_channels(&s.cfg) * s.cfg.G * s.cfg.G
    # Legal cells lie in the bounding box (h x w, at most N x N) or on one of its sides
    # while that dimension is below N: at most N * N + 2N cells, times the kinds held.
    if cells > s.cfg.C:
        cells = s.cfg.C
    d.max_legal = s.cfg.kinds * cells
    d.has_evaluate = 1


cdef int g_chance(const void* vs, int32_t* out, double* prob) noexcept nogil:
    return 0  # no chance node: the pile is shuffled at setup (CR-4)


cdef void g_mask(const void* vs, uint8_t* out) noexcept nogil:
    cdef const cr_t* s = <const cr_t*>vs
    memset(out, 0, <size_t>s.cfg.num_actions)
    cr_legal_mask(s, out)


cdef int g_truncated(const void* s) noexcept nogil:
    return (<const cr_t*>s).truncated


cdef void cr_scores "core_scores"(const cr_t* s, int64_t* out) noexcept nogil:
    """CR-12/CR-13 applied to the table as it is now (``state.scores()``, ``core_t``)."""
    cdef int32_t sc[4]
    cdef int32_t cnt[4]
    cdef int p
    cr_score_count(s, sc, cnt)
    for p in range(s.cfg.n):
        out[p] = sc[p]


cdef int g_legal(const void* s, int32_t* out) noexcept nogil:
    return cr_legal(<const cr_t*>s, out)


cdef int g_random_step(void* s, rng_t* policy) noexcept nogil:
    return cr_random_step(<cr_t*>s, policy)


cdef void g_observe(const void* s, int p, float* out) noexcept nogil:
    cr_observe(<const cr_t*>s, p, out)


# ---- Python lists from the struct (to_dict) ----------------------------------------------------

ctypedef fused small_uint:
    uint8_t
    uint16_t


cdef list int_list_of(const small_uint* a, Py_ssize_t n):
    """``list(a[:n])`` as Python ints, filled in place (no appends)."""
    cdef list out = PyList_New(n)
    cdef Py_ssize_t i
    cdef object v
    for i in range(n):
        v = a[i]
        Py_INCREF(v)  # PyList_SET_ITEM steals the reference
        PyList_SET_ITEM(out, i, v)
    return out


# ---- configuration ----------------------------------------------------------------------------

cdef void cr_cfg_derive(cr_cfg_t* cfg) noexcept nogil:
    """The constants the blocks read, from the game's (``cr_cfg_t``'s second part)."""
    cdef int p, kind, ck, r0, c0, top, left
    cfg.length = cfg.cells if cfg.cells <= cfg.max_turns else cfg.max_turns  # CR-11, max_turns
    cfg.cut = cfg.max_turns < cfg.cells
    cfg.pile_size = cfg.pile_count[0] + cfg.pile_count[1] + cfg.pile_count[2]  # CR-4
    cfg.shape = cfg.N + 8 * (cfg.fixed_area != 0)  # CR-8, reading play_area
    r0 = cfg.center // cfg.G  # the centre (CR-3, CR-7)
    c0 = cfg.center - r0 * cfg.G
    if cfg.fixed_area:  # the fixed square in window rows and columns 1..N
        top = cfg.area_lo - 1
        left = cfg.area_lo - 1
    else:  # the centre is window cell (1, 1)
        top = r0 - 1
        left = c0 - 1
    cfg.base0 = top * cfg.G + left
    cfg.bottom0 = (r0 - top) if cfg.uses_start else 0
    cfg.right0 = (c0 - left) if cfg.uses_start else 0
    cfg.start_bit = (<uint64_t>(cfg.uses_start != 0)) << (8 * (r0 - top) + c0 - left)
    cfg.div_C = <uint32_t>(((1 << 20) + cfg.C - 1) // cfg.C)
    cfg.div_G = <uint32_t>(((1 << 20) + cfg.G - 1) // cfg.G)
    memset(cfg.hand0, 0, sizeof(cfg.hand0))
    for ck in range(cfg.K):  # CR-5: the cheese set
        cfg.hand0[3 + ck] = <uint8_t>cfg.cheese_count[ck]
    cfg.held0 = cr_kinds_held(cfg.hand0)
    memset(cfg.code, 0, sizeof(cfg.code))
    memset(cfg.owner, 0, sizeof(cfg.owner))
    memset(cfg.value, 0, sizeof(cfg.value))
    for p in range(CR_MAX_PLAYERS):  # (every seat's row: the tables' full sizes)
        for kind in range(CR_MAX_KINDS):  # table codes: 2 + kind for an animal, 5 + p * K + (kind - 3) for a cheese
            cfg.code[p][kind] = <uint8_t>((2 + kind) if kind < 3 else (5 + p * cfg.K + kind - 3))
    for p in range(cfg.n):
        for ck in range(cfg.K):
            cfg.owner[5 + p * cfg.K + ck] = <uint8_t>p
            cfg.value[5 + p * cfg.K + ck] = <uint8_t>cfg.cheese_value[ck]


cdef int cr_fill_cfg "core_fill_cfg"(object game, cr_cfg_t* cfg) except -1:
    """The constants of ``game`` into ``cfg`` (zero-filled, its ``n`` set: ``fill_cfg``, the
    cache of ``_boundary``)."""
    cdef int i
    cfg.N = game.square_size
    cfg.G = game.grid_size
    cfg.C = game.num_cells
    cfg.K = game.num_cheese_kinds
    cfg.kinds = game.num_kinds
    cfg.center = game.center
    cfg.cells = game.cells_to_fill
    cfg.max_turns = game.max_turns if game.max_turns < 1000000 else 1000000
    cfg.uses_start = game.uses_start
    cfg.initial_draw = game.initial_draw
    cfg.num_actions = game.num_actions
    cfg.area_lo = game.area_lo  # CR-8, reading play_area
    cfg.area_hi = game.area_hi
    cfg.fixed_area = game.fixed_area
    for i in range(game.num_cheese_kinds):
        cfg.cheese_value[i] = game.cheese_kind_values[i]
        cfg.cheese_count[i] = game.cheese_counts[i]
    for i in range(3):
        cfg.pile_count[i] = game.pile_counts[i]
    if not (2 <= cfg.N <= CR_WINDOW_N and cfg.cells <= CR_MAX_HIST
            and cfg.pile_count[0] + cfg.pile_count[1] + cfg.pile_count[2] <= CR_MAX_PILE):
        # (no game the parameters allow: CR-11 leaves no square above 7 x 7)
        raise ValueError(f"cheese_rescue: the compiled engine holds squares up to {CR_WINDOW_N} x "
                         f"{CR_WINDOW_N} and {CR_MAX_PILE} animals, not {cfg.N} x {cfg.N}")
    cr_cfg_derive(cfg)
    return 0


cdef void sim_range(const void* v, uint64_t seed, Py_ssize_t start, Py_ssize_t stop,
                    const sim_out_t* out) noexcept nogil:
    """``simulate``'s games ``start .. stop - 1`` (``run_sim_chunk``), each ``cr_sim_game`` on
    one scratch struct; the pile stacked once (``cr_stack_animals``) and copied per game."""
    cdef const cr_cfg_t* cfg = <const cr_cfg_t*>v
    cdef cr_t s
    cdef uint8_t pile0[CR_MAX_PILE + 1]
    cdef rng_t policy
    cdef int32_t sc[4]
    cdef int32_t cnt[4]
    cdef int mask
    cdef Py_ssize_t i
    s.cfg = cfg[0]
    cr_clear(&s)
    cr_stack_animals(pile0, cfg.pile_count[0], cfg.pile_count[1], cfg.pile_count[2])
    for i in range(start, stop):
        policy = rng_derive(seed, 2 * <uint64_t>i + 1)
        cr_sim_game(&s, pile0, rng_derive(seed, 2 * <uint64_t>i), &policy, sc, cnt)
        mask = winner_mask_of(cfg.n, sc, cnt)  # (the game is over: square full or max_turns)
        sim_row(out, i - start, cfg.n, sc, mask, cfg.length, <uint8_t>cfg.cut)


# ---- written once for every core (_cgame_core.pxi) ------------------------------------------
# The slot functions over this core's role functions (``core_<role>``, above), ``fill_cfg``
# over ``cr_fill_cfg``, ``VectorGame``'s loop, and this core's table and description
# (``CORE_GAME``, ``CORE``), of its struct and constants:
ctypedef cr_t core_state_t
ctypedef cr_cfg_t core_cfg_t
include "_cgame_core.pxi"


# ---- the Python-facing class ------------------------------------------------------------------

@cython.no_gc  # it holds only its game, which holds no state: no cycle
cdef class CheeseRescueCore(StateCore):
    """Compiled Cheese Rescue state. Use ``game.new_state(seed)``; the public class is
    ``mousehole.cheese_rescue.CompiledCheeseRescueState`` (this core + the shared API)."""

    _core_capsule = core_capsule(&CORE)  # (StateCore finds the core by it)

    @classmethod
    def _from_valid_dict(cls, game, dict d):
        cdef CheeseRescueCore st = <CheeseRescueCore>state_loaded(cls, game)
        cdef int i, k, p
        cr_clear(&st.s)
        for i, code in enumerate(d["table"]):
            if code:
                cr_put(&st.s, i, code)
        for p, hand in enumerate(d["hands"]):
            for k in range(st.s.cfg.kinds):
                st.s.hands[p][k] = hand[k]
        st.s.win.pile_n = len(d["pile"])
        for i, k in enumerate(d["pile"]):
            st.s.pile[i] = k
        st.s.placed = len(d["history"])
        for i, a in enumerate(d["history"]):
            st.s.hist[i] = a
        st.s.rng = d["rng"]
        st.s.truncated = d["truncated"]
        cr_derive(&st.s)  # the window, the kinds held, the seat to play
        return st

    cdef int _admit(self, int64_t a) except -1:
        """1 for card kind ``a // C`` on cell ``a % C`` if the rules allow it now (CR-7, CR-8;
        the struct keeps the history), else 0."""
        return 0 <= a < self.s.cfg.num_actions and cr_is_legal(&self.s, <int>a)

    cdef const uint16_t* _hist(self, Py_ssize_t* n, Py_ssize_t* step) noexcept:
        n[0] = self.s.placed
        step[0] = 1
        return self.s.hist

    cdef int _obs_shape(self, cnp.npy_intp* dims) noexcept:
        dims[0] = cr_num_channels(&self.s.cfg)
        dims[1] = self.s.cfg.G
        dims[2] = self.s.cfg.G
        return 3

    def legal_cells(self):
        """Empty cells where a card may go now (CR-7, CR-8), ascending."""
        cdef uint16_t cells[16]
        cdef int r
        cdef uint16_t bits
        out = []
        if cr_current(&self.s) == TERMINAL_SEAT:
            return out
        cr_legal_cells(&self.s, cells)
        for r in range(self.s.cfg.G):
            bits = cells[r]
            while bits:
                out.append(r * self.s.cfg.G + ctz64(bits))
                bits &= bits - 1
        return out

    def cheese_counts(self):
        cdef int32_t sc[4]
        cdef int32_t cnt[4]
        cr_score_count(&self.s, sc, cnt)
        return [cnt[p] for p in range(self.s.cfg.n)]

    def _to_dict(self):
        cdef int p
        d = self.game._header()
        d["table"] = int_list_of(self.s.table, self.s.cfg.C)
        d["hands"] = [int_list_of(self.s.hands[p], self.s.cfg.kinds) for p in range(self.s.cfg.n)]
        d["pile"] = int_list_of(self.s.pile, self.s.win.pile_n)
        d["rng"] = self.s.rng
        d["history"] = int_list_of(self.s.hist, self.s.placed)
        d["truncated"] = bool(self.s.truncated)
        return d


cdef CheeseRescueCore _BLANK = CheeseRescueCore.__new__(CheeseRescueCore)  # (kept: a blank state, where the struct lies)
core_place(&CORE, _BLANK, &_BLANK.s)

