# cython: language_level=3
"""Compiled Cheese Rescue engine (rules CR-1 .. CR-15).

The state is one C struct (``cr_t`` in ``_cheese_rescue.pxd``); the table is kept both as
cell codes and as 16-bit row bitboards, so that the legal cells of CR-7/CR-8 and the removal
of CR-12 are a few shifts and masks per row. Every leaf function is ``noexcept nogil`` and
allocates nothing. The pure-Python reference is ``mousehole/cheese_rescue.py``; both must
give the same game, bit for bit, for the same seed and actions.

``CR_GAME`` is this engine's C-level interface (``mh_game_t``, _cgame.pxd) for the generic
search and batched stepping; ``cr_determinize`` is the compiled determinization (CR-15).
A struct is byte-canonical: the pile slots past ``pile_n`` and the history slots past
``placed`` are 0 on every path (new, play, from_dict, determinize), so equal states are
equal bytes. ``front`` (the empty cells next to a card, CR-7) is kept with ``occ``, so a row's
legal cells are one mask. The play-outs (``crw_game`` for simulate, ``cr_play_random`` for the
C interface) choose on an 8 x 8 window of 64-bit boards and avoid branches that depend on the
draws.
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
from mousehole._bits cimport popcount16, ctz64, rel_seat, seat_after, mh_pc8, mh_copy, mh_fill_f32, MH_BIG_ENDIAN
from mousehole._cgame cimport mh_game_t, mh_dims_t, TERMINAL_SEAT
from mousehole._boundary cimport (
    action_int, seat_arg, out_array, out_result, new_instance, seed_arg,
    cfg_cache_t, load_cfg, sim_out_t, run_sim_chunk,
)
from mousehole._pyalloc cimport adopt_public_class
from mousehole._statecore cimport StateCore

import numpy as np

cnp.import_array()
cdef cnp.dtype INT64_DESCR = np.dtype(np.int64)
cdef type NDARRAY_TYPE = np.ndarray

cdef extern from "numpy/arrayobject.h":
    object np_new_from_descr "PyArray_NewFromDescr" (PyTypeObject* subtype, cnp.dtype descr, int nd,
            cnp.npy_intp* dims, cnp.npy_intp* strides, void* data, int flags, PyObject* obj)



# ---- leaf functions -------------------------------------------------------------------------

# CR_SEAT[n][k] = k % n: the seat to play after k cards with n players (CR-7), read from a
# table rather than divided (a division's latency heads the chain of a play-out step)
cdef uint8_t CR_SEAT[CR_MAX_PLAYERS + 1][256]
cdef int _sn, _sk
for _sn in range(1, CR_MAX_PLAYERS + 1):
    for _sk in range(256):
        CR_SEAT[_sn][_sk] = <uint8_t>(_sk % _sn)


cdef inline int cr_seat(const cr_t* s) noexcept nogil:
    """The seat to play (CR-7: seat 0 starts, clockwise): ``placed % n``."""
    return CR_SEAT[s.cfg.n][s.placed & 0xFF]


cdef inline int cr_current(const cr_t* s) noexcept nogil:
    if s.placed >= s.cfg.cells or s.truncated:  # CR-11
        return TERMINAL_SEAT
    return cr_seat(s)


cdef inline void cr_front_add(cr_t* s, int r, uint16_t bit) noexcept nogil:
    """Keep ``front`` (the empty cells next to a card, CR-7) after a card landed on ``bit``
    of row ``r`` (already in ``occ``). A card in the last column also marks the column
    past the grid, which no column mask lets through."""
    s.front[r] = (s.front[r] | <uint16_t>(bit << 1) | <uint16_t>(bit >> 1)) & <uint16_t>~s.occ[r]
    if r > 0:
        s.front[r - 1] |= bit & <uint16_t>~s.occ[r - 1]
    s.front[r + 1] |= bit & <uint16_t>~s.occ[r + 1]


cdef inline void cr_put_rc(cr_t* s, int r, int c, int code) noexcept nogil:
    """Put a card (table code) on the empty cell (r, c); keep bitboards and bounding box."""
    cdef uint16_t bit = <uint16_t>(1 << c)
    s.table[r * s.cfg.G + c] = <uint8_t>code
    s.occ[r] |= bit
    cr_front_add(s, r, bit)
    # without branches (the kind laid is random in play-outs): an animal's board gets the bit
    s.dog[r] |= bit & <uint16_t>(-<int>(code == 2))
    s.cat[r] |= bit & <uint16_t>(-<int>(code == 3))
    s.mouse[r] |= bit & <uint16_t>(-<int>(code == 4))
    if r < s.rmin: s.rmin = r
    if r > s.rmax: s.rmax = r
    if c < s.cmin: s.cmin = c
    if c > s.cmax: s.cmax = c


cdef inline void cr_put(cr_t* s, int cell, int code) noexcept nogil:
    cdef int r = cell // s.cfg.G
    cr_put_rc(s, r, cell - r * s.cfg.G, code)


cdef inline void cr_clear_board(cr_t* s) noexcept nogil:
    memset(s.occ, 0, sizeof(s.occ))
    memset(s.dog, 0, sizeof(s.dog))
    memset(s.cat, 0, sizeof(s.cat))
    memset(s.mouse, 0, sizeof(s.mouse))
    memset(s.front, 0, sizeof(s.front))
    memset(s.table, 0, sizeof(s.table))
    s.rmin = 99
    s.cmin = 99
    s.rmax = -1
    s.cmax = -1


cdef void cr_init(cr_t* s, uint64_t seed) noexcept nogil:
    """CR-3 .. CR-6: start card, shuffled pile, cheese sets and the initial draw."""
    cdef int i, k, p, t
    cdef int n = 0
    s.rng = seed
    cr_clear_board(s)
    if s.cfg.uses_start:  # CR-3, CR-6
        cr_put(s, s.cfg.center, 1)
    for k in range(3):  # CR-4: what is left after the removal, dogs then cats then mice
        for i in range(s.cfg.pile_count[k]):
            s.pile[n] = <uint8_t>k
            n += 1
    s.pile_n = n
    rng_shuffle_u8(&s.rng, s.pile, n)
    memset(s.hands, 0, sizeof(s.hands))
    for p in range(s.cfg.n):  # CR-5: the cheese set, then two cards, seat 0 first
        for k in range(s.cfg.K):
            s.hands[p][3 + k] = <uint8_t>s.cfg.cheese_count[k]
        for t in range(s.cfg.initial_draw):
            s.pile_n -= 1
            s.hands[p][s.pile[s.pile_n]] += 1
            s.pile[s.pile_n] = 0  # slots past pile_n stay 0 (structs compare byte for byte)
    s.placed = 0
    s.truncated = 0


cdef inline int cr_legal_prefix(const cr_t* s, uint16_t* out, uint8_t* before, int* first,
                                int* nrows) noexcept nogil:
    """Row masks ``out[r]`` of the empty cells where a card may go (CR-7, CR-8), for the
    ``nrows[0]`` rows from ``first[0]`` that can hold one (other rows are left as they are),
    with ``before[i]`` the legal cells in the rows before row ``first + i`` (``before[0] = 0``,
    ``before[nrows]`` the total, returned)."""
    cdef int r, lo_r, hi_r, lo_c, hi_c, total = 0, i = 0
    cdef uint16_t colmask, nb
    before[0] = 0
    if s.rmax < 0:  # no card yet (3 players): the first card goes on the centre cell
        r = s.cfg.center // s.cfg.G
        out[r] = <uint16_t>(1 << (s.cfg.center - r * s.cfg.G))
        before[1] = 1
        first[0] = r
        nrows[0] = 1
        return 1
    # CR-8: rows and columns within N - 1 of every card; CR-7: rows next to a card
    # (the play area, reading play_area: the grid when the square floats, else the fixed square)
    lo_r = s.rmax - s.cfg.N + 1
    if lo_r < s.rmin - 1: lo_r = s.rmin - 1
    if lo_r < s.cfg.area_lo: lo_r = s.cfg.area_lo
    hi_r = s.rmin + s.cfg.N - 1
    if hi_r > s.rmax + 1: hi_r = s.rmax + 1
    if hi_r > s.cfg.area_hi: hi_r = s.cfg.area_hi
    lo_c = s.cmax - s.cfg.N + 1
    if lo_c < s.cfg.area_lo: lo_c = s.cfg.area_lo
    hi_c = s.cmin + s.cfg.N - 1
    if hi_c > s.cfg.area_hi: hi_c = s.cfg.area_hi
    colmask = <uint16_t>(((1 << (hi_c + 1)) - 1) & ~((1 << lo_c) - 1))
    first[0] = lo_r
    for r in range(lo_r, hi_r + 1):
        nb = s.front[r] & colmask
        out[r] = nb
        total += popcount16(nb)
        i += 1
        before[i] = <uint8_t>total
    nrows[0] = i
    return total


cdef uint8_t SELECT8[256][8]   # SELECT8[b][j]: position of the j-th set bit of byte b
cdef int _b, _j, _c
for _b in range(256):
    _j = 0
    for _c in range(8):
        if (_b >> _c) & 1:
            SELECT8[_b][_j] = <uint8_t>_c
            _j += 1


cdef inline int select16(uint16_t bits, int j) noexcept nogil:
    """The position of the j-th (0-based) set bit of ``bits`` (j < its popcount), without
    branches."""
    cdef int c0 = mh_pc8[bits & 0xFF]
    cdef int high = j >= c0
    cdef int byte = (bits >> 8) if high else (bits & 0xFF)
    return SELECT8[byte][j - c0 * high] + 8 * high


cdef inline int cr_legal_cells(const cr_t* s, uint16_t* out) noexcept nogil:
    """Row masks of the empty cells where a card may go (CR-7, CR-8), all 16 rows set;
    returns their number."""
    cdef uint8_t before[17]
    cdef int first, nrows
    memset(out, 0, 16 * sizeof(uint16_t))
    return cr_legal_prefix(s, out, before, &first, &nrows)


ctypedef fused cell_int:
    int32_t
    uint32_t


cdef inline int cr_legal_list(const cr_t* s, cell_int* cells) noexcept nogil:
    """The empty cells where a card may go (CR-7, CR-8), ascending, into ``cells`` (at most
    N * N + 2N); returns their number."""
    cdef int r, lo_r, hi_r, lo_c, hi_c, base, i = 0, G = s.cfg.G
    cdef uint16_t colmask, nb
    if s.rmax < 0:  # no card yet (3 players): the first card goes on the centre cell
        cells[0] = s.cfg.center
        return 1
    lo_r = s.rmax - s.cfg.N + 1  # CR-8: rows and columns within N - 1 of every card
    if lo_r < s.rmin - 1: lo_r = s.rmin - 1  # CR-7: rows next to a card
    if lo_r < s.cfg.area_lo: lo_r = s.cfg.area_lo  # CR-8: inside the play area (reading play_area)
    hi_r = s.rmin + s.cfg.N - 1
    if hi_r > s.rmax + 1: hi_r = s.rmax + 1
    if hi_r > s.cfg.area_hi: hi_r = s.cfg.area_hi
    lo_c = s.cmax - s.cfg.N + 1
    if lo_c < s.cfg.area_lo: lo_c = s.cfg.area_lo
    hi_c = s.cmin + s.cfg.N - 1
    if hi_c > s.cfg.area_hi: hi_c = s.cfg.area_hi
    colmask = <uint16_t>(((1 << (hi_c + 1)) - 1) & ~((1 << lo_c) - 1))
    for r in range(lo_r, hi_r + 1):
        nb = s.front[r] & colmask
        base = r * G
        while nb:
            cells[i] = base + ctz64(nb)
            i += 1
            nb &= nb - 1
    return i


cdef inline bint cr_is_legal(const cr_t* s, int p, int kind, int cell) noexcept nogil:
    """CR-7, CR-8 for one card and cell, without computing every legal cell."""
    cdef int G = s.cfg.G
    cdef int r = cell // G
    cdef int c = cell - r * G
    cdef uint16_t bit = <uint16_t>(1 << c)
    if s.hands[p][kind] == 0 or (s.occ[r] & bit):
        return False
    if s.rmax < 0:
        return cell == s.cfg.center
    if not (s.front[r] & bit):  # CR-7: next to a card
        return False
    if r < s.cfg.area_lo or r > s.cfg.area_hi or c < s.cfg.area_lo or c > s.cfg.area_hi:
        return False  # CR-8: outside the fixed square (reading play_area)
    return (max(s.rmax, r) - min(s.rmin, r) < s.cfg.N) and (max(s.cmax, c) - min(s.cmin, c) < s.cfg.N)


cdef inline void cr_place_rc(cr_t* s, int p, int kind, int r, int c) noexcept nogil:
    """Seat ``p`` (the seat to play) lays a ``kind`` card on (r, c) (CR-7), draws (CR-9);
    the action is recorded. Legality already checked."""
    cdef uint8_t k
    cdef uint16_t bit = <uint16_t>(1 << c)
    cdef int cheese = kind >= 3
    s.hands[p][kind] -= 1
    # the cell code of cr_put_rc: 2 + kind for an animal, 5 + p * K + (kind - 3) for a cheese
    s.table[r * s.cfg.G + c] = <uint8_t>(2 + kind + cheese * p * s.cfg.K)
    s.occ[r] |= bit
    cr_front_add(s, r, bit)
    # no branch on the kind (it is random in play-outs): an animal's board gets the bit
    s.dog[r] |= bit & <uint16_t>(-<int>(kind == 0))
    s.cat[r] |= bit & <uint16_t>(-<int>(kind == 1))
    s.mouse[r] |= bit & <uint16_t>(-<int>(kind == 2))
    s.rmin = min(s.rmin, r)
    s.rmax = max(s.rmax, r)
    s.cmin = min(s.cmin, c)
    s.cmax = max(s.cmax, c)
    if s.pile_n > 0:  # CR-9
        s.pile_n -= 1
        k = s.pile[s.pile_n]
        s.pile[s.pile_n] = 0  # slots past pile_n stay 0 (structs compare byte for byte)
        s.hands[p][k] += 1
    s.hist[s.placed] = <uint16_t>(kind * s.cfg.C + r * s.cfg.G + c)
    s.placed += 1
    if s.placed >= s.cfg.max_turns and s.placed < s.cfg.cells:
        s.truncated = 1


cdef inline void cr_place(cr_t* s, int kind, int cell) noexcept nogil:
    """Lay the card (CR-7), draw (CR-9), record the action; legality already checked."""
    cdef int r = cell // s.cfg.G
    cr_place_rc(s, cr_seat(s), kind, r, cell - r * s.cfg.G)


cdef inline void cr_adjacent(const uint16_t* src, uint16_t* dst) noexcept nogil:
    """dst = the cells orthogonally adjacent to a card of src (rows 0..14)."""
    cdef int r
    for r in range(15):
        dst[r] = <uint16_t>((src[r] << 1) | (src[r] >> 1) | src[r + 1] | (src[r - 1] if r > 0 else 0))
    dst[15] = 0


cdef void cr_scores(const cr_t* s, int32_t* score, int32_t* count) noexcept nogil:
    """CR-12 (three removal steps, each on the survivors of the previous) and CR-13."""
    cdef uint16_t adj[16]
    cdef uint16_t cats[16]
    cdef uint16_t mice[16]
    cdef uint16_t bits
    cdef int r, c, code, owner, ck, p
    for p in range(s.cfg.n):
        score[p] = 0
        count[p] = 0
    cr_adjacent(s.dog, adj)
    for r in range(16):
        cats[r] = s.cat[r] & <uint16_t>~adj[r]  # CR-12.1
    cr_adjacent(cats, adj)
    for r in range(16):
        mice[r] = s.mouse[r] & <uint16_t>~adj[r]  # CR-12.2
    cr_adjacent(mice, adj)
    for r in range(s.cfg.G):
        # CR-12.3 on the cheese: the cards that are no animal (and not the start card, below)
        bits = s.occ[r] & <uint16_t>~(s.dog[r] | s.cat[r] | s.mouse[r] | adj[r])
        while bits:
            c = ctz64(bits)
            bits &= bits - 1
            code = s.table[r * s.cfg.G + c] - 5
            if code < 0:  # the start card (CR-3): no cheese
                continue
            owner = code // s.cfg.K
            ck = code - owner * s.cfg.K
            score[owner] += s.cfg.cheese_value[ck]
            count[owner] += 1


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


cdef int cr_winner_mask(const cr_t* s) noexcept nogil:
    """CR-13 on the table as it is now (CR-12 removals included)."""
    cdef int32_t score[4]
    cdef int32_t count[4]
    cr_scores(s, score, count)
    return winner_mask_of(s.cfg.n, score, count)


cdef inline void cr_step_random_rows(cr_t* s, int p, rng_t* policy) noexcept nogil:
    """One action of simulate's policy for seat ``p`` (the seat to play), on the row boards:
    one draw ``idx`` below (kinds held) x (legal cells) picks the action of that rank in the
    sorted legal list, kind ``idx // cells`` among the kinds held, cell ``idx % cells``."""
    cdef uint16_t rows[16]
    cdef uint8_t before[17]
    cdef int32_t held[CR_MAX_KINDS]
    cdef int kinds = s.cfg.kinds
    cdef int nc, nk, k, j, idx, first, nrows, i
    # (few data-dependent branches: the draws make them unpredictable)
    nc = cr_legal_prefix(s, rows, before, &first, &nrows)
    nk = 0
    for k in range(kinds):  # the kinds held, ascending
        held[nk] = k
        nk += s.hands[p][k] != 0
    idx = <int>rng_below(policy, <uint32_t>(nk * nc))
    j = 0
    for k in range(1, kinds):  # j = idx // nc: the kind is the j-th kind held
        j += idx >= k * nc
    idx -= j * nc
    i = 0
    for k in range(1, nrows):  # the row holding the idx-th legal cell
        i += before[k] <= idx
    cr_place_rc(s, p, held[j], first + i, select16(rows[first + i], idx - before[i]))


cdef void cr_play_random_rows(cr_t* s, rng_t* policy) noexcept nogil:
    """``cr_play_random`` on the row boards, for any square (the window holds up to 7 x 7)."""
    cdef int n = s.cfg.n, cells = s.cfg.cells, p
    if s.placed >= cells or s.truncated:
        return
    p = cr_seat(s)
    while True:
        cr_step_random_rows(s, p, policy)
        if s.placed >= cells or s.truncated:
            return
        p += 1
        if p == n:
            p = 0


# ---- the play-outs on an 8 x 8 window (squares up to 7 x 7) -----------------------------------
#
# Every legal cell lies in the cards' bounding box or one row / column beyond it (CR-7), and
# the box is at most N x N (CR-8). So with N <= 7 the legal cells of a position fit in an 8 x 8
# window whose row 0 and column 0 are the row above and the column left of the box: one 64-bit
# word per board (bit 8 * i + j is window cell (i, j)), the cards in rows 1..h and columns
# 1..w. A card laid in row 0 or column 0 grows the box, and the window moves one step up or
# left (every board shifted by 8 or 1). The legal cells are then one word, counted by a SWAR
# popcount whose byte prefix sums also find the rank-th legal cell without a loop; the kinds
# held are one bit mask per seat. Same draws and same choices as ``cr_play_random_rows``:
# the legal cells in row-major order are the window's set bits in ascending order.
# ``crw_game`` plays simulate's games on the window alone (a cell code per laid card for the
# scoring); ``cr_play_random`` (the C interface's rollout) chooses on the window and lays the
# card with ``cr_place_rc``. (Every playable square is at most 7 x 7: N = 8 gives 63 or 64
# cells, shared by no player count of CR-11; a larger square would use the row boards.)

cdef enum:
    CRW_MAX_N = 7

ctypedef struct crw_cfg_t:
    uint64_t rowm[9]      # rows where a card may go when the box is h rows high (CR-8), by h
    uint64_t colm[9]      # the same for columns, by width w
    int32_t n, deal, m, length, truncated, r0, c0, uses_start
    uint32_t held0        # the kinds of the cheese set (CR-5)
    uint8_t code[CR_MAX_PLAYERS][CR_MAX_KINDS]   # table code of (seat, kind)
    uint8_t cls[CR_MAX_KINDS]                   # board of a kind: 0 dog, 1 cat, 2 mouse, 3 cheese
    int32_t owner[32]     # seat and value of a cheese code
    int32_t value[32]
    uint8_t hand0[16]     # a hand after taking the cheese set
    uint8_t pile0[CR_MAX_PILE + 1]   # 1..m: the animals in canonical order; 0: no card (8)


cdef uint32_t CRW_RECIP[65]   # ceil(2**20 / n): idx // n == (idx * CRW_RECIP[n]) >> 20 (exact for idx < 8n, n <= 64)
cdef uint32_t CRW_KBIT[16]    # 1 << k for a kind, 0 for the "no card" slot 8 (pile empty)
for _c in range(1, 65):
    CRW_RECIP[_c] = <uint32_t>(((1 << 20) + _c - 1) // _c)
for _c in range(16):
    CRW_KBIT[_c] = <uint32_t>((1 << _c) if _c < 8 else 0)

cdef uint64_t CRW_ROWM[CRW_MAX_N + 1][9]   # [N][h]: the window rows where a card may go (CR-8)
cdef uint64_t CRW_COLM[CRW_MAX_N + 1][9]   # [N][w]: the same for columns
cdef int _n, _h, _i
for _n in range(2, CRW_MAX_N + 1):
    for _h in range(9):  # a box h < N high takes a card one row beyond it on each side
        CRW_ROWM[_n][_h] = 0
        CRW_COLM[_n][_h] = 0
        for _i in range(8):
            if _h >= 1 and ((_h < _n and _i <= _h + 1) or (_h >= _n and 1 <= _i <= _h)):
                CRW_ROWM[_n][_h] |= (<uint64_t>0xFF) << (8 * _i)
                CRW_COLM[_n][_h] |= (<uint64_t>0x0101010101010101ULL) << _i


cdef bint crw_setup(const cr_cfg_t* cfg, crw_cfg_t* k) noexcept nogil:
    """The constants of the window play-out for ``cfg``; False when N > 7 or the square is
    fixed (reading play_area: the window knows the floating square only)."""
    cdef int kind, p, ck, t, N = cfg.N
    if N > CRW_MAX_N or cfg.fixed_area:
        return False
    memset(k, 0, sizeof(crw_cfg_t))
    memcpy(k.rowm, CRW_ROWM[N], sizeof(k.rowm))
    memcpy(k.colm, CRW_COLM[N], sizeof(k.colm))
    k.n = cfg.n
    k.uses_start = cfg.uses_start
    k.deal = cfg.initial_draw
    k.r0 = cfg.center // cfg.G - 1  # the centre is window cell (1, 1) at the start
    k.c0 = cfg.center - (k.r0 + 1) * cfg.G - 1
    k.length = cfg.cells if cfg.cells <= cfg.max_turns else cfg.max_turns  # CR-11, max_turns
    k.truncated = cfg.max_turns < cfg.cells
    for p in range(cfg.n):
        for kind in range(cfg.kinds):
            k.code[p][kind] = <uint8_t>((2 + kind) if kind < 3 else (5 + p * cfg.K + kind - 3))
    for kind in range(cfg.kinds):
        k.cls[kind] = <uint8_t>(kind if kind < 3 else 3)
    for p in range(cfg.n):
        for ck in range(cfg.K):
            k.owner[5 + p * cfg.K + ck] = p
            k.value[5 + p * cfg.K + ck] = cfg.cheese_value[ck]
    for ck in range(cfg.K):  # CR-5: the cheese set
        k.hand0[3 + ck] = <uint8_t>cfg.cheese_count[ck]
        k.held0 |= (<uint32_t>1) << (3 + ck)
    k.pile0[0] = 8
    k.m = 0
    for kind in range(3):  # CR-4: dogs, then cats, then mice (as cr_init)
        for t in range(cfg.pile_count[kind]):
            k.m += 1
            k.pile0[k.m] = <uint8_t>kind
    return True


cdef inline uint64_t crw_adjacent(uint64_t x) noexcept nogil:
    """The window cells next to a card of ``x`` (a card lies in rows and columns 1..7: a shift
    right never wraps into a card's row, a wrap of the shift left lands on an empty column 0)."""
    return (x << 1) | (x >> 1) | (x << 8) | (x >> 8)


cdef inline int crw_pick(uint64_t occ, uint64_t allowed, uint32_t held, rng_t* policy,
                         int* kind) noexcept nogil:
    """One uniform draw among (kinds held) x (legal cells), as ``cr_play_random_rows``: the
    window bit of the cell, and ``kind[0]``. ``occ``: the cards (the centre is legal on an
    empty table, CR-7); ``allowed``: the rows and columns the square allows (CR-8); ``held``:
    bit k for each kind held."""
    cdef uint64_t legal, x, pre, d
    cdef uint32_t nc, idx, j, t
    cdef int sh
    legal = (crw_adjacent(occ) & ~occ & allowed) | (<uint64_t>(occ == 0) << 9)
    x = legal - ((legal >> 1) & <uint64_t>0x5555555555555555ULL)
    x = (x & <uint64_t>0x3333333333333333ULL) + ((x >> 2) & <uint64_t>0x3333333333333333ULL)
    x = (x + (x >> 4)) & <uint64_t>0x0F0F0F0F0F0F0F0FULL
    pre = x * <uint64_t>0x0101010101010101ULL  # byte i: the legal cells in window rows 0..i
    nc = <uint32_t>(pre >> 56)
    idx = rng_below(policy, <uint32_t>mh_pc8[held] * nc)
    j = (idx * CRW_RECIP[nc]) >> 20  # idx // nc: the j-th kind held
    t = idx - j * nc                  # the t-th legal cell
    kind[0] = SELECT8[held][j]
    d = ((pre | <uint64_t>0x8080808080808080ULL) - (t + 1) * <uint64_t>0x0101010101010101ULL) \
        & <uint64_t>0x8080808080808080ULL   # bit 7 of byte i: more than t legal cells in rows 0..i
    sh = ctz64(d) - 7                        # 8 * (the window row of the t-th legal cell)
    return sh + SELECT8[(legal >> sh) & 0xFF][t - <uint32_t>(((pre << 8) >> sh) & 0xFF)]


# Words read from the struct's bytes (memcpy) as on a little-endian machine, where byte k of
# memory is bits 8k..8k+7 of the word. On a big-endian one (MH_BIG_ENDIAN, a constant the C
# compiler folds) these reorder them; elsewhere they return their argument.

cdef inline uint64_t cr_rows4(uint64_t v) noexcept nogil:
    """Four uint16 rows read as one word, the first at bits 0-15."""
    if MH_BIG_ENDIAN:
        v = (v >> 32) | (v << 32)
        v = ((v >> 16) & <uint64_t>0x0000FFFF0000FFFFULL) | ((v & <uint64_t>0x0000FFFF0000FFFFULL) << 16)
    return v


cdef inline uint64_t cr_bytes8(uint64_t v) noexcept nogil:
    """Eight bytes read as one word, the first at bits 0-7 (the bytes of each 16-bit lane
    swapped, then the lanes ordered)."""
    if MH_BIG_ENDIAN:
        v = ((v >> 8) & <uint64_t>0x00FF00FF00FF00FFULL) | ((v & <uint64_t>0x00FF00FF00FF00FFULL) << 8)
    return cr_rows4(v)


cdef inline uint64_t cr_window(const cr_t* s, int* ar, int* ac, int* h, int* w) noexcept nogil:
    """The 8 x 8 window of ``crw_game`` over the table (a floating square of at most
    ``CRW_MAX_N``): its occupancy, one byte a row, row 0 on the low byte; the table's cell of
    window cell (0, 0) as ``(ar, ac)``; the cards' box in rows and columns 1..h, 1..w."""
    cdef uint64_t occ, lo, hi
    if s.rmax < 0:  # no card yet (3 players): the centre is window cell (1, 1)
        ar[0] = s.cfg.center // s.cfg.G - 1
        ac[0] = s.cfg.center - (ar[0] + 1) * s.cfg.G - 1
        h[0] = 0
        w[0] = 0
        return 0
    ar[0] = s.rmin - 1  # the box in rows and columns 1..h, 1..w of the window
    ac[0] = s.cmin - 1
    h[0] = s.rmax - s.rmin + 1
    w[0] = s.cmax - s.cmin + 1
    # The h rows from rmin at once, four 16-bit rows a word (no loop on h, whose exit varies
    # from step to step): shifted so that column cmin - 1 is bit 0 of each row (what
    # a row's shift right brings down from the row above is columns left of cmin: none), cut
    # to 8 bits a row, the four bytes packed, the rows past rmax masked off (the 8 rows read
    # from rmin <= 12 lie inside the struct, the last ones past ``occ``). Window row 0 stays
    # empty.
    memcpy(&lo, (<const char*>s.occ) + 2 * s.rmin, 8)
    memcpy(&hi, (<const char*>s.occ) + 2 * s.rmin + 8, 8)
    lo = cr_rows4(lo)
    hi = cr_rows4(hi)
    lo = ((lo << 1) >> s.cmin) & <uint64_t>0x00FF00FF00FF00FFULL
    hi = ((hi << 1) >> s.cmin) & <uint64_t>0x00FF00FF00FF00FFULL
    lo = (lo | (lo >> 8)) & <uint64_t>0x0000FFFF0000FFFFULL
    hi = (hi | (hi >> 8)) & <uint64_t>0x0000FFFF0000FFFFULL
    occ = ((lo | (lo >> 16)) & <uint64_t>0xFFFFFFFFULL) | ((hi | (hi >> 16)) << 32)
    return (occ & ((<uint64_t>1 << (8 * h[0])) - 1)) << 8


cdef void cr_play_random(cr_t* s, rng_t* policy) noexcept nogil:
    """Play uniformly random legal actions to the end (the policy of mousehole.simulate):
    one draw ``idx`` below (kinds held) x (legal cells) picks the action of that rank in the
    sorted legal list, kind ``idx // cells`` among the kinds held, cell ``idx % cells``. The
    choice is made on the window of ``crw_game`` (built from the row boards), the move by
    ``cr_place_rc`` (the whole struct kept, history included)."""
    cdef const uint64_t* rowm
    cdef const uint64_t* colm
    cdef uint64_t occ
    cdef uint32_t hd
    cdef int n = s.cfg.n, kinds = s.cfg.kinds, cells = s.cfg.cells
    cdef int p, k, kind, pos, rr, cc, up, left, h, w, ar, ac
    if s.placed >= cells or s.truncated:
        return
    if s.cfg.N > CRW_MAX_N or s.cfg.fixed_area:  # (the window knows the floating square only)
        cr_play_random_rows(s, policy)
        return
    rowm = CRW_ROWM[s.cfg.N]
    colm = CRW_COLM[s.cfg.N]
    occ = cr_window(s, &ar, &ac, &h, &w)
    p = cr_seat(s)
    while True:
        hd = 0
        for k in range(kinds):  # the kinds held, as bits
            hd |= (<uint32_t>(s.hands[p][k] != 0)) << k
        pos = crw_pick(occ, rowm[h] & colm[w], hd, policy, &kind)
        rr = pos >> 3
        cc = pos & 7
        cr_place_rc(s, p, kind, ar + rr, ac + cc)
        if s.placed >= cells or s.truncated:
            return
        up = rr == 0  # the window follows the box (as in crw_game)
        left = cc == 0
        h += up | (rr > h)
        w += left | (cc > w)
        ar -= up
        ac -= left
        occ = (occ << (8 * up + left)) | (<uint64_t>1 << (pos + 8 * up + left))
        p += 1
        if p == n:
            p = 0


# A position on the window: what ``crw_run`` plays and ``crw_score`` scores.
ctypedef struct crw_pos_t:
    uint64_t occ                      # every card (the start card included)
    uint64_t b[4]                     # dogs, cats, mice, cheese
    int32_t ar, ac, h, w              # the grid cell of window (0, 0); the box is h x w
    int32_t p, top                    # the seat to play; the cards left in ``pile``
    uint32_t held[CR_MAX_PLAYERS]     # the kinds each seat holds, as bits
    uint8_t hand[CR_MAX_PLAYERS][16]  # slot 8 takes the "no card" draws
    uint8_t pile[CR_MAX_PILE + 1]     # 1..top, drawn from the top; slot 0 is "no card" (8)
    uint8_t code[256]                 # the cell code of grid cell (r, c) at 16 * r + c


cdef inline void crw_run(const crw_cfg_t* k, crw_pos_t* g, int moves, rng_t* policy) noexcept nogil:
    """Play ``moves`` uniformly random actions (the draws of ``cr_play_random``, CR-7 .. CR-9)."""
    cdef uint64_t bit
    cdef uint32_t hd
    cdef int n = k.n, p = g.p, top = g.top, card, kind, pos, rr, cc, up, left, sh, a
    cdef int h = g.h, w = g.w, ar = g.ar, ac = g.ac
    cdef uint64_t occ = g.occ
    cdef uint64_t b[4]
    b[0] = g.b[0]
    b[1] = g.b[1]
    b[2] = g.b[2]
    b[3] = g.b[3]
    for a in range(moves):
        hd = g.held[p]
        pos = crw_pick(occ, k.rowm[h] & k.colm[w], hd, policy, &kind)
        rr = pos >> 3
        cc = pos & 7
        up = rr == 0
        left = cc == 0
        h += up | (rr > h)
        w += left | (cc > w)
        ar -= up
        ac -= left
        sh = 8 * up + left  # the window follows the box: row 0 and column 0 stay empty
        pos += sh
        bit = <uint64_t>1 << pos
        occ = (occ << sh) | bit
        b[0] <<= sh
        b[1] <<= sh
        b[2] <<= sh
        b[3] <<= sh
        b[k.cls[kind]] |= bit
        g.code[(ar + (pos >> 3)) * 16 + ac + (pos & 7)] = k.code[p][kind]
        g.hand[p][kind] -= 1
        hd ^= <uint32_t>(g.hand[p][kind] == 0) << kind
        card = g.pile[top]  # CR-9: draw, if any card is left (slot 0: none)
        top -= top != 0
        g.hand[p][card] += 1
        g.held[p] = hd | CRW_KBIT[card]
        p += 1
        if p == n:
            p = 0
    g.occ = occ
    g.b[0] = b[0]
    g.b[1] = b[1]
    g.b[2] = b[2]
    g.b[3] = b[3]
    g.h = h
    g.w = w
    g.ar = ar
    g.ac = ac
    g.p = p
    g.top = top


cdef inline void crw_score(const crw_cfg_t* k, const crw_pos_t* g, int32_t* score,
                           int32_t* count) noexcept nogil:
    """The scores and cheese counts of CR-12 / CR-13 on the window."""
    cdef uint64_t x
    cdef int p, pos, cd
    for p in range(k.n):
        score[p] = 0
        count[p] = 0
    x = g.b[1] & ~crw_adjacent(g.b[0])  # CR-12.1: the cats no dog scares
    x = g.b[2] & ~crw_adjacent(x)       # CR-12.2: the mice no such cat chases
    x = g.b[3] & ~crw_adjacent(x)       # CR-12.3: the cheese no such mouse eats
    while x:  # CR-13
        pos = ctz64(x)
        x &= x - 1
        cd = g.code[(g.ar + (pos >> 3)) * 16 + g.ac + (pos & 7)]
        score[k.owner[cd]] += k.value[cd]
        count[k.owner[cd]] += 1


cdef void crw_game(const crw_cfg_t* k, uint64_t seed, rng_t* policy, int32_t* score,
                   int32_t* count) noexcept nogil:
    """One game of ``simulate`` from ``cr_init(seed)`` to the end (the square full, CR-11, or
    ``max_turns``), ``policy`` drawing the actions as ``cr_play_random``; the scores and cheese
    counts of CR-12/CR-13. The same game as ``cr_init`` + ``cr_play_random`` + ``cr_scores``
    without the struct: no history, no row boards, no table but the codes of the cards laid."""
    cdef rng_t rng = seed
    cdef crw_pos_t g
    cdef uint32_t hd
    cdef int n = k.n, p, q, card
    memcpy(g.pile, k.pile0, <size_t>(k.m + 1))
    rng_shuffle_u8(&rng, g.pile + 1, k.m)  # CR-4 (the pile of cr_init, shifted by one slot)
    g.top = k.m
    for p in range(n):  # CR-5: the cheese set, then the initial draw, seat 0 first
        memcpy(g.hand[p], k.hand0, 16)
        hd = k.held0
        for q in range(k.deal):
            card = g.pile[g.top]
            g.top -= 1
            g.hand[p][card] += 1
            hd |= (<uint32_t>1) << card
        g.held[p] = hd
    g.b[0] = 0
    g.b[1] = 0
    g.b[2] = 0
    g.b[3] = 0
    g.ar = k.r0
    g.ac = k.c0
    g.p = 0
    if k.uses_start:  # CR-3, CR-6: the start card on the centre
        g.occ = <uint64_t>1 << 9
        g.h = 1
        g.w = 1
    else:  # 3 players: the first card goes on the centre (CR-7)
        g.occ = 0
        g.h = 0
        g.w = 0
    crw_run(k, &g, k.length, policy)
    crw_score(k, &g, score, count)


# ---- observation and action mask (written from the struct, no Python objects) ----------------

cdef inline int cr_num_channels(const cr_cfg_t* cfg) noexcept nogil:
    """4 table planes, n cheese planes, 3 own animals, n animal counts, n * K cheese counts,
    1 pile size, n seat to play (the layout of ``CheeseRescue._observation``)."""
    return 4 + cfg.n + 3 + cfg.n + cfg.n * cfg.K + 1 + cfg.n


cdef inline void fill_plane(float* dst, int size, float v) noexcept nogil:
    mh_fill_f32(dst, v, <size_t>size)


cdef void cr_observation(const cr_t* s, int p, float* obs) noexcept nogil:
    """Seat p's observation, seats relative to p (k = 0 is p, then clockwise); ``obs`` is
    written whole (the buffer need not be zeroed: the planes that are mostly zero are cleared
    first, every other plane is filled with its value, so that each float is written about
    once). Bit for bit the reference ``CheeseRescue._observation``: a cheese plane holds
    value / highest value, computed in double and rounded to float32, as numpy does."""
    cdef int n = s.cfg.n, G = s.cfg.G, K = s.cfg.K
    cdef int plane = G * G
    cdef int r, cell, code, owner, ck, k, q, c, total, cur
    cdef uint16_t bits
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
    for r in range(G):  # planes 0..3 (start card, dogs, cats, mice) and 4..4+n-1 (cheese)
        bits = s.occ[r]
        while bits:
            cell = r * G + ctz64(bits)
            bits &= bits - 1
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
    fill_plane(obs + c * plane, plane, <float>s.pile_n)  # cards in the draw pile (CR-9)
    c += 1
    memset(obs + c * plane, 0, <size_t>(n * plane) * sizeof(float))
    cur = cr_current(s)
    if cur != TERMINAL_SEAT:
        fill_plane(obs + (c + rel_seat(cur, p, n)) * plane, plane, 1.0)


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
        if s.hands[p][k]:
            memcpy(mask + k * C, block, <size_t>C)


# ---- determinization (CR-15) ---------------------------------------------------------------------

cdef void cr_determinize(cr_t* s, int p, uint64_t seed) noexcept nogil:
    """In place: the animals seat ``p`` cannot see (in the other hands and in the pile, CR-15)
    re-dealt from ``seed``, as ``CheeseRescue._determinize`` does from p's view: the hidden
    animals (the game's animals minus those on the table and in p's hand) in ascending kind
    order, shuffled, dealt from the end to the other seats in seat order (each gets as many
    animals as it holds: hand sizes are public), the rest is the pile; then the new ``rng``
    is the generator's next output. Everything read here is public to ``p``."""
    cdef rng_t r = seed
    cdef int hidden[3]
    cdef int n = s.cfg.n
    cdef int k, q, i, h = 0, a, row
    cdef uint8_t kind
    for k in range(3):
        hidden[k] = s.cfg.pile_count[k] - s.hands[p][k]
    for row in range(s.rmin, s.rmax + 1):  # the animals on the table (public), in the box
        hidden[0] -= popcount16(s.dog[row])
        hidden[1] -= popcount16(s.cat[row])
        hidden[2] -= popcount16(s.mouse[row])
    # (no clearing of the pile: the hidden animals are at least the pile_n it held, and the
    # slots past pile_n are 0; the slots dealt below are zeroed as they are dealt)
    for k in range(3):  # canonical order: dogs, then cats, then mice
        for i in range(hidden[k]):
            s.pile[h] = <uint8_t>k
            h += 1
    rng_shuffle_u8(&r, s.pile, h)
    for q in range(n):
        if q == p:
            continue
        a = s.hands[q][0] + s.hands[q][1] + s.hands[q][2]
        s.hands[q][0] = 0
        s.hands[q][1] = 0
        s.hands[q][2] = 0
        for i in range(a):
            h -= 1
            kind = s.pile[h]
            s.pile[h] = 0
            s.hands[q][kind] += 1
    s.pile_n = h
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


cdef void g_reset(void* vs, uint64_t seed) noexcept nogil:
    cdef cr_t* s = <cr_t*>vs
    memset(s.pile, 0, sizeof(s.pile))  # the zero slots of a new state (past pile_n, placed)
    memset(s.hist, 0, sizeof(s.hist))
    cr_init(s, seed)


cdef int g_current(const void* vs) noexcept nogil:
    return cr_current(<const cr_t*>vs)


cdef int g_legal(const void* vs, int32_t* out) noexcept nogil:
    """As ``legal_actions``: kind-major, cells ascending (sorted)."""
    cdef const cr_t* s = <const cr_t*>vs
    cdef int32_t cells[CR_MAX_CELLS]
    cdef int base[CR_MAX_KINDS]
    cdef int p = cr_current(s)
    cdef int nc, k, i, n = 0
    if p == TERMINAL_SEAT:
        return 0
    nc = cr_legal_list(s, cells)
    # kind k's cells go from base[k] = nc x (the kinds held before k); a kind p does not hold
    # gets the base of the next held kind (or the end, inside max_legal), which overwrites
    # it in the same round of the cell loop: no branch on the hand, and the inner loop runs
    # the game's constant number of kinds
    for k in range(s.cfg.kinds):
        base[k] = n
        n += nc & -(s.hands[p][k] != 0)
    for i in range(nc):
        for k in range(s.cfg.kinds):
            out[base[k] + i] = cells[i] + k * s.cfg.C
    return n


cdef void g_apply(void* vs, int32_t a) noexcept nogil:
    cdef cr_t* s = <cr_t*>vs
    cdef int kind = a // s.cfg.C
    cr_place(s, kind, a - kind * s.cfg.C)


cdef int g_chance(const void* vs, int32_t* out, double* prob) noexcept nogil:
    return 0  # no chance node: the pile is shuffled at setup (CR-4)


cdef inline void returns_of(int n, int mask, double* out) noexcept nogil:
    """+1 for each winner of ``mask`` and -1 for each other seat; 0 for all when every seat
    wins (the returns of StateAPI)."""
    cdef int p
    for p in range(n):
        if mask == (1 << n) - 1:
            out[p] = 0.0
        else:
            out[p] = 1.0 if (mask >> p) & 1 else -1.0


cdef void g_evaluate(const void* vs, double* out) noexcept nogil:
    """The strong search's evaluation, per seat the value of ``CheeseRescueGame.greedy_value``:
    10 x its score if the game ended now (CR-12, CR-13) + its surviving cheese cards."""
    cdef const cr_t* s = <const cr_t*>vs
    cdef int32_t sc[4]
    cdef int32_t cnt[4]
    cdef int p
    cr_scores(s, sc, cnt)
    for p in range(s.cfg.n):
        out[p] = 10.0 * sc[p] + cnt[p]


cdef void g_returns(const void* vs, double* out) noexcept nogil:
    """As ``StateAPI.returns``: 0 before the end; +1 for each winner and -1 for each other
    seat (CR-13), 0 for all when every seat wins."""
    cdef const cr_t* s = <const cr_t*>vs
    cdef int p, n = s.cfg.n
    if cr_current(s) != TERMINAL_SEAT:
        for p in range(n):
            out[p] = 0.0
        return
    returns_of(n, cr_winner_mask(s), out)


cdef void g_playout(void* vs, rng_t* policy, double* out) noexcept nogil:
    """``cr_play_random`` then the returns (``g_returns``), with the same draws and the same
    result, played on the window (``crw_run``) instead of the struct, which is left as it is
    (on a square larger than 7 x 7, or a fixed square (reading play_area), the struct is
    played: it is scratch to the caller)."""
    cdef cr_t* s = <cr_t*>vs
    cdef crw_cfg_t k
    cdef crw_pos_t g
    cdef int32_t score[4]
    cdef int32_t count[4]
    cdef int n = s.cfg.n, K = s.cfg.K, kinds = s.cfg.kinds, N = s.cfg.N, G = s.cfg.G
    cdef int p, kind, ck, i, r, c, cd, length
    cdef uint16_t bits
    cdef uint64_t bit
    if cr_current(s) == TERMINAL_SEAT or N > CRW_MAX_N or s.cfg.fixed_area:
        cr_play_random(s, policy)
        g_returns(s, out)
        return
    # the constants crw_run and crw_score read (crw_setup less what only crw_game uses)
    memcpy(k.rowm, CRW_ROWM[N], sizeof(k.rowm))
    memcpy(k.colm, CRW_COLM[N], sizeof(k.colm))
    k.n = n
    # (the tables' full sizes, not the game's kinds and seats: loops of a constant length
    # are unrolled and never mispredict their end; the entries past them are not read)
    for kind in range(CR_MAX_KINDS):
        k.cls[kind] = <uint8_t>(kind if kind < 3 else 3)
        for p in range(CR_MAX_PLAYERS):
            k.code[p][kind] = <uint8_t>((2 + kind) if kind < 3 else (5 + p * K + kind - 3))
    for p in range(n):
        for ck in range(K):
            k.owner[5 + p * K + ck] = p
            k.value[5 + p * K + ck] = s.cfg.cheese_value[ck]
    # the position: hands, pile (its top card last), and the table on the window
    for p in range(CR_MAX_PLAYERS):  # (a hand is 0 past the game's kinds and seats)
        g.held[p] = 0
        for kind in range(CR_MAX_KINDS):
            g.hand[p][kind] = s.hands[p][kind]
            g.held[p] |= (<uint32_t>(s.hands[p][kind] != 0)) << kind
        g.hand[p][8] = 0
    g.pile[0] = 8
    for i in range(s.pile_n):
        g.pile[i + 1] = s.pile[i]
    g.top = s.pile_n
    g.p = cr_seat(s)
    g.occ = 0
    g.b[0] = 0
    g.b[1] = 0
    g.b[2] = 0
    g.b[3] = 0
    if s.rmax < 0:  # no card yet (3 players): the centre is window cell (1, 1)
        g.ar = s.cfg.center // G - 1
        g.ac = s.cfg.center - (g.ar + 1) * G - 1
        g.h = 0
        g.w = 0
    else:  # the box in rows and columns 1..h, 1..w of the window
        g.ar = s.rmin - 1
        g.ac = s.cmin - 1
        g.h = s.rmax - s.rmin + 1
        g.w = s.cmax - s.cmin + 1
        for r in range(s.rmin, s.rmax + 1):
            bits = s.occ[r]
            while bits:
                c = ctz64(bits)
                bits &= bits - 1
                cd = s.table[r * G + c]
                bit = (<uint64_t>1) << (8 * (r - g.ar) + c - g.ac)
                g.occ |= bit
                # 2, 3, 4: an animal; 5 and up: a cheese (1: the start card, on no board)
                g.b[min(max(cd - 2, 0), 3)] |= bit & -(<uint64_t>(cd >= 2))
                g.code[r * 16 + c] = <uint8_t>cd
    length = s.cfg.cells if s.cfg.cells <= s.cfg.max_turns else s.cfg.max_turns  # CR-11
    crw_run(&k, &g, length - s.placed, policy)
    crw_score(&k, &g, score, count)
    returns_of(n, winner_mask_of(n, score, count), out)


cdef void g_rollout(void* vs, rng_t* policy) noexcept nogil:
    cr_play_random(<cr_t*>vs, policy)


cdef int g_random_step(void* vs, rng_t* policy) noexcept nogil:
    """One action of simulate's policy (``VectorGame``'s ``RANDOM``, the other seats of a
    vector env), chosen as ``cr_play_random`` chooses its first one: on the 8 x 8 window
    (``crw_pick``: one word of legal cells, no loop over the rows' legal cells), built from
    the row boards, and laid by ``cr_place_rc``. The same draw and the same action as
    ``cr_step_random_rows``, which serves the squares the window does not hold. Returns
    the seat to move next (``current``)."""
    cdef cr_t* s = <cr_t*>vs
    cdef uint64_t occ, cnt
    cdef uint32_t hd
    cdef int p = cr_seat(s), kind, pos, ar, ac, h, w, N = s.cfg.N
    if N > CRW_MAX_N or s.cfg.fixed_area:
        cr_step_random_rows(s, p, policy)
        return cr_current(s)
    occ = cr_window(s, &ar, &ac, &h, &w)
    # the kinds held, as bits: the hand's 8 counts as one word, a high bit per count that is
    # not 0, gathered into a byte (no loop)
    memcpy(&cnt, &s.hands[p][0], 8)
    cnt = cr_bytes8(cnt)
    cnt = (cnt | ((cnt & <uint64_t>0x7F7F7F7F7F7F7F7FULL) + <uint64_t>0x7F7F7F7F7F7F7F7FULL)) \
        & <uint64_t>0x8080808080808080ULL
    hd = <uint32_t>(((cnt >> 7) * <uint64_t>0x0102040810204080ULL) >> 56) & ((1u << s.cfg.kinds) - 1)
    pos = crw_pick(occ, CRW_ROWM[N][h] & CRW_COLM[N][w], hd, policy, &kind)
    cr_place_rc(s, p, kind, ar + (pos >> 3), ac + (pos & 7))
    return cr_current(s)


cdef void g_determinize(void* vs, int p, uint64_t seed) noexcept nogil:
    cr_determinize(<cr_t*>vs, p, seed)


cdef void g_observe(const void* vs, int p, float* out) noexcept nogil:
    cr_observation(<const cr_t*>vs, p, out)


cdef void g_mask(const void* vs, uint8_t* out) noexcept nogil:
    cdef const cr_t* s = <const cr_t*>vs
    memset(out, 0, <size_t>s.cfg.num_actions)
    cr_legal_mask(s, out)


cdef mh_game_t CR_GAME
cdef int g_truncated(const void* s) noexcept nogil:
    return (<const cr_t*>s).truncated


CR_GAME.name = b"cheese_rescue"
CR_GAME.size = sizeof(cr_t)
CR_GAME.dims = g_dims
CR_GAME.reset = g_reset
CR_GAME.current = g_current
CR_GAME.legal = g_legal
CR_GAME.apply = g_apply
CR_GAME.chance = g_chance
CR_GAME.returns = g_returns
CR_GAME.rollout = g_rollout
CR_GAME.random_step = g_random_step
CR_GAME.playout = g_playout
CR_GAME.determinize = g_determinize
CR_GAME.observe = g_observe
CR_GAME.mask = g_mask
CR_GAME.truncated = g_truncated
CR_GAME.evaluate = g_evaluate


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

cdef int fill_cfg(object game, void* v) except -1:
    """The constants of ``game`` into ``v`` (zero-filled; the cache of ``_boundary``)."""
    cdef cr_cfg_t* cfg = <cr_cfg_t*>v
    cdef int i
    cfg.n = game.num_players
    cfg.N = game.N
    cfg.G = game.G
    cfg.C = game.C
    cfg.K = game.K
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
    for i in range(game.K):
        cfg.cheese_value[i] = game.cheese_kind_values[i]
        cfg.cheese_count[i] = game.cheese_counts[i]
    for i in range(3):
        cfg.pile_count[i] = game.pile_counts[i]
    return 0



cdef cfg_cache_t CR_CFG
CR_CFG.name = b"mousehole._cheese_rescue.cfg"
CR_CFG.size = sizeof(cr_cfg_t)
CR_CFG.fill = fill_cfg


cdef void sim_range(const void* v, uint64_t seed, Py_ssize_t start, Py_ssize_t stop,
                    const sim_out_t* out) noexcept nogil:
    """``simulate``'s games ``start .. stop - 1`` (``run_sim_chunk``)."""
    cdef const cr_cfg_t* cfg = <const cr_cfg_t*>v
    cdef cr_t s
    cdef crw_cfg_t k
    cdef rng_t policy
    cdef int32_t sc[4]
    cdef int32_t cnt[4]
    cdef int p, mask
    cdef Py_ssize_t i, r
    if crw_setup(cfg, &k):  # the window play-out (every playable square)
        for i in range(start, stop):
            policy = rng_derive(seed, 2 * <uint64_t>i + 1)
            crw_game(&k, rng_derive(seed, 2 * <uint64_t>i), &policy, sc, cnt)
            mask = winner_mask_of(cfg.n, sc, cnt)  # (the game is over: square full or max_turns)
            r = i - start
            for p in range(cfg.n):
                out.scores[r * out.sstride + p] = sc[p]
                out.winners[r * out.wstride + p] = (mask >> p) & 1
            out.lengths[r] = k.length
            out.truncated[r] = <uint8_t>k.truncated
        return
    s.cfg = cfg[0]
    for i in range(start, stop):
        cr_init(&s, rng_derive(seed, 2 * <uint64_t>i))
        policy = rng_derive(seed, 2 * <uint64_t>i + 1)
        cr_play_random(&s, &policy)
        cr_scores(&s, sc, cnt)
        mask = winner_mask_of(cfg.n, sc, cnt) if cr_current(&s) == TERMINAL_SEAT else 0
        r = i - start
        for p in range(cfg.n):
            out.scores[r * out.sstride + p] = sc[p]
            out.winners[r * out.wstride + p] = (mask >> p) & 1
        out.lengths[r] = s.placed
        out.truncated[r] = <uint8_t>s.truncated


# ---- the Python-facing class ------------------------------------------------------------------

@cython.no_gc  # it holds only its game, which holds no state: no cycle
cdef class CheeseRescueCore(StateCore):
    """Compiled Cheese Rescue state. Use ``game.new_state(seed)``; the public class is
    ``mousehole.cheese_rescue.CompiledCheeseRescueState`` (this core + the shared API)."""

    cdef int _init(self, object game, uint64_t seed) except -1:
        """``new``: the constants of ``game`` and the deal of ``seed`` (StateCore)."""
        load_cfg(&CR_CFG, game, &self.s.cfg, sizeof(cr_cfg_t))
        cr_init(&self.s, seed)  # (the slots past pile_n and placed stay 0 from the allocation)
        return 0

    cdef const mh_game_t* _iface(self) noexcept:
        return &CR_GAME

    cdef void* _struct(self) noexcept:
        return &self.s

    @classmethod
    def _from_valid_dict(cls, game, dict d):
        """Build from a dict already checked by ``game._validate_dict`` (``Game._load``
        only: the struct takes its values unchecked)."""
        cdef CheeseRescueCore st = <CheeseRescueCore>new_instance(<type>cls)
        cdef int i, k, p
        st.game = game
        load_cfg(&CR_CFG, game, &st.s.cfg, sizeof(cr_cfg_t))
        cr_clear_board(&st.s)
        for i, code in enumerate(d["table"]):
            if code:
                cr_put(&st.s, i, code)
        for p, hand in enumerate(d["hands"]):
            for k in range(st.s.cfg.kinds):
                st.s.hands[p][k] = hand[k]
        st.s.pile_n = len(d["pile"])
        for i, k in enumerate(d["pile"]):
            st.s.pile[i] = k
        st.s.placed = len(d["history"])
        for i, a in enumerate(d["history"]):
            st.s.hist[i] = a
        st.s.rng = d["rng"]
        st.s.truncated = d["truncated"]
        return st

    def clone(self):
        """An independent copy (one struct copy)."""
        cdef CheeseRescueCore c = <CheeseRescueCore>new_instance(type(self))
        c.game = self.game
        c.seed = self.seed
        mh_copy(&c.s, &self.s, sizeof(cr_t))  # (the library's copy: see mh_copy)
        return c

    @classmethod
    def _adopt_public_class(cls, type sub):
        """Once, for the public state class ``sub`` (this core + the shared API, no new
        fields): its instances skip GC tracking and call this core's methods the fast way
        (``adopt_public_class`` in _pyalloc.pxd)."""
        adopt_public_class(sub, cls)

    def determinize(self, player, seed):
        """``StateAPI.determinize`` in compiled code: a copy in which what seat ``player``
        cannot see (CR-15) is re-dealt from ``seed``; equal to
        ``game.determinize_view(self.to_dict(for_player=player), seed)``."""
        cdef int p = seat_arg(self.game, self.s.cfg.n, player)
        cdef uint64_t sd = seed_arg(seed)
        cdef CheeseRescueCore c
        c = <CheeseRescueCore>new_instance(type(self))
        c.game = self.game
        c.s = self.s
        cr_determinize(&c.s, p, sd)
        return c


    @property
    def current_player(self):
        """The seat to move, ``mousehole.CHANCE`` at a chance node, ``mousehole.TERMINAL``
        once the game is over."""
        return cr_current(&self.s)

    def is_terminal(self):
        """True once the game is over (by its rules or by ``max_turns``)."""
        return cr_current(&self.s) == TERMINAL_SEAT

    def is_chance_node(self):
        """Always False: Cheese Rescue has no chance node (the pile is shuffled at setup, CR-4)."""
        return False

    @property
    def truncated(self):
        """True when the game ended by ``max_turns`` rather than by its rules."""
        return bool(self.s.truncated)

    @property
    def history(self):
        """The actions applied since ``new_state``, oldest first (a new list)."""
        return int_list_of(self.s.hist, self.s.placed)

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

    def legal_actions(self):
        """The legal actions, ascending: each kind held (CR-7) at each legal cell (CR-7, CR-8),
        kind-major (``kind * C + cell``)."""
        cdef uint32_t cells[CR_MAX_CELLS]
        cdef int32_t held[CR_MAX_KINDS]
        cdef const cr_t* s = &self.s
        cdef int p = cr_current(s)
        cdef int nc, nk = 0, k, i
        cdef int64_t d
        cdef cnp.npy_intp dim = 0
        cdef cnp.ndarray arr
        cdef int64_t* out
        if p == TERMINAL_SEAT:
            return cnp.PyArray_EMPTY(1, &dim, cnp.NPY_INT64, 0)
        nc = cr_legal_list(s, cells)
        for k in range(s.cfg.kinds):  # (no branch: the hands vary)
            held[nk] = k
            nk += s.hands[p][k] != 0
        dim = nk * nc  # (nk > 0: a seat to play always holds a card, CR-11)
        Py_INCREF(INT64_DESCR)  # (stolen by PyArray_NewFromDescr)
        arr = np_new_from_descr(<PyTypeObject*>NDARRAY_TYPE, INT64_DESCR, 1, &dim, NULL, NULL, 0, NULL)
        out = <int64_t*>cnp.PyArray_DATA(arr)
        for k in range(nk):  # kind-major, cells ascending: sorted
            d = <int64_t>held[k] * s.cfg.C
            for i in range(nc):
                out[i] = cells[i] + d
            out += nc
        return arr

    def legal_action_mask(self, out=None):
        """Boolean mask of length ``game.num_actions``, True at the legal actions (CR-7,
        CR-8), written straight from the struct; into ``out`` (a writable C-contiguous bool
        array of that length) when given."""
        cdef cnp.npy_intp dim = self.s.cfg.num_actions
        cdef cnp.ndarray arr = out_array(out, cnp.NPY_BOOL, 1, &dim)
        cr_legal_mask(&self.s, <uint8_t*>cnp.PyArray_DATA(arr))
        return out_result(out, arr)

    def observation(self, player, out=None):
        """Seat ``player``'s observation tensor (``game.observation_shape``, float32),
        written straight from the struct; into ``out`` (a writable C-contiguous float32
        array of that shape) when given. Same values, bit for bit, as the reference."""
        cdef int p = seat_arg(self.game, self.s.cfg.n, player)
        cdef cnp.npy_intp dims[3]
        cdef cnp.ndarray arr
        dims[0] = cr_num_channels(&self.s.cfg)
        dims[1] = self.s.cfg.G
        dims[2] = self.s.cfg.G
        arr = out_array(out, cnp.NPY_FLOAT32, 3, dims, False)  # (written whole)
        cr_observation(&self.s, p, <float*>cnp.PyArray_DATA(arr))
        return out_result(out, arr)

    def apply_action(self, action):
        """Lay card kind ``action // C`` on cell ``action % C``; IllegalMoveError if not allowed."""
        cdef int64_t a = action_int(action)
        cdef int p, kind, cell
        p = cr_current(&self.s)
        if p == TERMINAL_SEAT or a < 0 or a >= self.s.cfg.num_actions:
            raise self._illegal(action)
        kind = a // self.s.cfg.C
        cell = a - kind * self.s.cfg.C
        if not cr_is_legal(&self.s, p, kind, cell):
            raise self._illegal(action)
        cr_place(&self.s, kind, cell)

    def scores(self):
        """CR-12/CR-13 applied to the table as it is now."""
        cdef int32_t sc[4]
        cdef int32_t cnt[4]
        cr_scores(&self.s, sc, cnt)
        return [sc[p] for p in range(self.s.cfg.n)]

    def cheese_counts(self):
        cdef int32_t sc[4]
        cdef int32_t cnt[4]
        cr_scores(&self.s, sc, cnt)
        return [cnt[p] for p in range(self.s.cfg.n)]

    def winners(self):
        """The seats that won (several for a shared win), ascending; empty before the end."""
        if cr_current(&self.s) != TERMINAL_SEAT:
            return []
        cdef int mask = cr_winner_mask(&self.s)
        return [p for p in range(self.s.cfg.n) if (mask >> p) & 1]

    def _to_dict(self):
        cdef int p
        d = self.game._header()
        d["table"] = int_list_of(self.s.table, self.s.cfg.C)
        d["hands"] = [int_list_of(self.s.hands[p], self.s.cfg.kinds) for p in range(self.s.cfg.n)]
        d["pile"] = int_list_of(self.s.pile, self.s.pile_n)
        d["rng"] = self.s.rng
        d["history"] = int_list_of(self.s.hist, self.s.placed)
        d["truncated"] = bool(self.s.truncated)
        return d

    @staticmethod
    def simulate_chunk(game, uint64_t seed, Py_ssize_t start, Py_ssize_t stop,
                       scores, winners, lengths, truncated):
        """Play games ``start .. stop - 1`` of ``mousehole.simulate`` without the GIL; game ``i``
        goes to row ``i - start`` of the result arrays (``winners``, ``truncated`` as uint8 views)."""
        cdef cr_cfg_t cfg
        load_cfg(&CR_CFG, game, &cfg, sizeof(cr_cfg_t))
        run_sim_chunk(sim_range, &cfg, cfg.n, seed, start, stop, scores, winners, lengths, truncated)
