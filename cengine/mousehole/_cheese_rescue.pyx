# cython: language_level=3
"""Compiled Cheese Rescue engine (rules CR-1 .. CR-15).

The state is one C struct (``cr_t`` in ``_cheese_rescue.pxd``); the table is kept both as
cell codes and as 16-bit row bitboards, so that the legal cells of CR-7/CR-8 and the removal
of CR-12 are a few shifts and masks per row. Every leaf function is ``noexcept nogil`` and
allocates nothing. The pure-Python reference is ``mousehole/cheese_rescue.py``; both must
give the same game, bit for bit, for the same seed and actions.

``CR_GAME`` is this engine's C-level interface (``mh_game_t``, _common.pxd) for the generic
search and batched stepping; ``cr_determinize`` is the compiled determinization (CR-15).
A struct is byte-canonical: the pile slots past ``pile_n`` and the history slots past
``placed`` are 0 on every path (new, play, from_dict, determinize), so equal states are
equal bytes. The play-out (``cr_play_random``) avoids branches that depend on the draws.
"""

cimport cython
cimport numpy as cnp
from libc.string cimport memset
from cpython.long cimport PyLong_AsLongLongAndOverflow, PyLong_AsUnsignedLongLongMask
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF
from cpython.object cimport PyObject, PyTypeObject

from mousehole._common cimport (new_instance, 
    action_int,
    check_sim_rows,
    uint8_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t, rng_t,
    rng_next, rng_below, rng_derive, rng_shuffle_u8, popcount16, ctz64, TERMINAL_SEAT, mh_pc8,
    mh_game_t, mh_dims_t, game_capsule, state_capsule, mh_int64_value,
)

import numpy as np

from mousehole._api import check_out as _check_out, check_seat as _check_seat, _seed

cnp.import_array()
cdef type NP_INT64 = np.int64
cdef cnp.dtype INT64_DESCR = np.dtype(np.int64)
cdef type NDARRAY_TYPE = np.ndarray

cdef extern from "numpy/arrayobject.h":
    object np_new_from_descr "PyArray_NewFromDescr" (PyTypeObject* subtype, cnp.dtype descr, int nd,
            cnp.npy_intp* dims, cnp.npy_intp* strides, void* data, int flags, PyObject* obj)



# ---- leaf functions -------------------------------------------------------------------------

cdef inline int cr_current(const cr_t* s) noexcept nogil:
    if s.placed >= s.cfg.cells or s.truncated:  # CR-11
        return TERMINAL_SEAT
    return s.placed % s.cfg.n  # CR-7: seat 0 starts, clockwise


cdef inline void cr_put_rc(cr_t* s, int r, int c, int code) noexcept nogil:
    """Put a card (table code) on the empty cell (r, c); keep bitboards and bounding box."""
    cdef uint16_t bit = <uint16_t>(1 << c)
    s.table[r * s.cfg.G + c] = <uint8_t>code
    s.occ[r] |= bit
    # without branches (the kind laid is random in play-outs): one board gets the bit
    s.dog[r] |= bit & <uint16_t>(-<int>(code == 2))
    s.cat[r] |= bit & <uint16_t>(-<int>(code == 3))
    s.mouse[r] |= bit & <uint16_t>(-<int>(code == 4))
    s.cheese[r] |= bit & <uint16_t>(-<int>(code >= 5))
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
    memset(s.cheese, 0, sizeof(s.cheese))
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
    lo_r = s.rmax - s.cfg.N + 1
    if lo_r < s.rmin - 1: lo_r = s.rmin - 1
    if lo_r < 0: lo_r = 0
    hi_r = s.rmin + s.cfg.N - 1
    if hi_r > s.rmax + 1: hi_r = s.rmax + 1
    if hi_r > s.cfg.G - 1: hi_r = s.cfg.G - 1
    lo_c = s.cmax - s.cfg.N + 1
    if lo_c < 0: lo_c = 0
    hi_c = s.cmin + s.cfg.N - 1
    if hi_c > s.cfg.G - 1: hi_c = s.cfg.G - 1
    colmask = <uint16_t>(((1 << (hi_c + 1)) - 1) & ~((1 << lo_c) - 1))
    first[0] = lo_r
    for r in range(lo_r, hi_r + 1):
        nb = <uint16_t>((s.occ[r] << 1) | (s.occ[r] >> 1) | s.occ[r + 1])
        if r > 0:
            nb |= s.occ[r - 1]
        nb &= <uint16_t>(~s.occ[r]) & colmask
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
    if not (((s.occ[r] << 1) | (s.occ[r] >> 1) | s.occ[r + 1] | (s.occ[r - 1] if r > 0 else 0)) & bit):
        return False
    return (max(s.rmax, r) - min(s.rmin, r) < s.cfg.N) and (max(s.cmax, c) - min(s.cmin, c) < s.cfg.N)


cdef inline void cr_place_rc(cr_t* s, int p, int kind, int r, int c) noexcept nogil:
    """Seat ``p`` (the seat to play) lays a ``kind`` card on (r, c) (CR-7), draws (CR-9);
    the action is recorded. Legality already checked."""
    cdef uint8_t k
    s.hands[p][kind] -= 1
    cr_put_rc(s, r, c, (2 + kind) if kind < 3 else (5 + p * s.cfg.K + kind - 3))
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
    cr_place_rc(s, s.placed % s.cfg.n, kind, r, cell - r * s.cfg.G)


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
        bits = s.cheese[r] & <uint16_t>~adj[r]  # CR-12.3
        while bits:
            c = ctz64(bits)
            bits &= bits - 1
            code = s.table[r * s.cfg.G + c] - 5
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


cdef void cr_play_random(cr_t* s, rng_t* policy) noexcept nogil:
    """Play uniformly random legal actions to the end (the policy of mousehole.simulate):
    one draw ``idx`` below (kinds held) x (legal cells) picks the action of that rank in the
    sorted legal list, kind ``idx // cells`` among the kinds held, cell ``idx % cells``."""
    cdef uint16_t rows[16]
    cdef uint8_t before[17]
    cdef int32_t held[CR_MAX_KINDS]
    cdef int n = s.cfg.n, kinds = s.cfg.kinds, cells = s.cfg.cells
    cdef int nc, nk, k, j, idx, p, first, nrows, i
    if s.placed >= cells or s.truncated:
        return
    p = s.placed % n
    while True:  # (few data-dependent branches: the draws make them unpredictable)
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
        if s.placed >= cells or s.truncated:
            return
        p += 1
        if p == n:
            p = 0


# ---- observation and action mask (written from the struct, no Python objects) ----------------

cdef inline int cr_num_channels(const cr_cfg_t* cfg) noexcept nogil:
    """4 table planes, n cheese planes, 3 own animals, n animal counts, n * K cheese counts,
    1 pile size, n seat to play (the layout of ``CheeseRescue._observation``)."""
    return 4 + cfg.n + 3 + cfg.n + cfg.n * cfg.K + 1 + cfg.n


cdef inline void fill_plane(float* dst, int size, float v) noexcept nogil:
    cdef int i
    if v != 0.0:
        for i in range(size):
            dst[i] = v


cdef void cr_observation(const cr_t* s, int p, float* obs) noexcept nogil:
    """Seat p's observation, seats relative to p (k = 0 is p, then clockwise); ``obs`` is
    zero-filled. Bit for bit the reference ``CheeseRescue._observation``: a cheese plane holds
    value / highest value, computed in double and rounded to float32, as numpy does."""
    cdef int n = s.cfg.n, G = s.cfg.G, K = s.cfg.K
    cdef int plane = G * G
    cdef int r, cell, code, owner, ck, k, q, c, total, cur
    cdef uint16_t bits
    cdef double top = 0.0
    cdef float scale[5]
    for ck in range(K):  # CR-2: cheese values, scaled by the highest one
        if s.cfg.cheese_value[ck] > top:
            top = s.cfg.cheese_value[ck]
    for ck in range(K):
        scale[ck] = <float>(<double>s.cfg.cheese_value[ck] / top)
    for r in range(G):  # planes 0..3 (start card, dogs, cats, mice) and 4..4+n-1 (cheese)
        bits = s.occ[r]
        while bits:
            cell = r * G + ctz64(bits)
            bits &= bits - 1
            code = s.table[cell]
            if code <= 4:
                obs[(code - 1) * plane + cell] = 1.0
            else:
                owner = (code - 5) // K
                ck = code - 5 - owner * K
                obs[(4 + (owner - p + n) % n) * plane + cell] = scale[ck]
    c = 4 + n
    for k in range(3):  # own dogs, cats, mice in hand (CR-15: public to p)
        fill_plane(obs + (c + k) * plane, plane, <float>s.hands[p][k])
    c += 3
    for k in range(n):  # animals in each hand (a hand's size is public, CR-15)
        q = (p + k) % n
        total = s.hands[q][0] + s.hands[q][1] + s.hands[q][2]
        fill_plane(obs + (c + k) * plane, plane, <float>total)
    c += n
    for k in range(n):  # cheese cards of each kind still in each hand
        q = (p + k) % n
        for ck in range(K):
            fill_plane(obs + (c + k * K + ck) * plane, plane, <float>s.hands[q][3 + ck])
    c += n * K
    fill_plane(obs + c * plane, plane, <float>s.pile_n)  # cards in the draw pile (CR-9)
    c += 1
    cur = cr_current(s)
    if cur != TERMINAL_SEAT:
        fill_plane(obs + (c + (cur - p + n) % n) * plane, plane, 1.0)


cdef void cr_legal_mask(const cr_t* s, uint8_t* mask) noexcept nogil:
    """1 at every legal action (CR-7, CR-8: a kind held times a legal cell); ``mask`` is
    zero-filled."""
    cdef uint16_t cells[16]
    cdef int p = cr_current(s)
    cdef int k, r, G = s.cfg.G, C = s.cfg.C
    cdef uint16_t bits
    if p == TERMINAL_SEAT:
        return
    cr_legal_cells(s, cells)
    for k in range(s.cfg.kinds):
        if s.hands[p][k]:
            for r in range(G):
                bits = cells[r]
                while bits:
                    mask[k * C + r * G + ctz64(bits)] = 1
                    bits &= bits - 1


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
    for row in range(s.cfg.G):  # the animals on the table (public)
        hidden[0] -= popcount16(s.dog[row])
        hidden[1] -= popcount16(s.cat[row])
        hidden[2] -= popcount16(s.mouse[row])
    memset(s.pile, 0, sizeof(s.pile))
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


# ---- the C-level game interface (mh_game_t, _common.pxd) ------------------------------------------

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
    cdef uint16_t rows[16]
    cdef uint8_t before[17]
    cdef int p = cr_current(s)
    cdef int nc, k, i, r, nk = 0, first, nrows, base, G = s.cfg.G, k0 = 0
    cdef int32_t* dst
    cdef uint16_t bits
    if p == TERMINAL_SEAT:
        return 0
    nc = cr_legal_prefix(s, rows, before, &first, &nrows)
    for k in range(s.cfg.kinds):
        if s.hands[p][k] == 0:
            continue
        dst = out + nk * nc
        if nk == 0:  # the first kind held, at the legal cells
            k0 = k
            base = k * s.cfg.C
            i = 0
            for r in range(first, first + nrows):
                bits = rows[r]
                while bits:
                    dst[i] = base + r * G + ctz64(bits)
                    i += 1
                    bits &= bits - 1
        else:  # the same cells for the next kinds held
            base = (k - k0) * s.cfg.C
            for i in range(nc):
                dst[i] = out[i] + base
        nk += 1
    return nk * nc


cdef void g_apply(void* vs, int32_t a) noexcept nogil:
    cdef cr_t* s = <cr_t*>vs
    cdef int kind = a // s.cfg.C
    cr_place(s, kind, a - kind * s.cfg.C)


cdef int g_chance(const void* vs, int32_t* out, double* prob) noexcept nogil:
    return 0  # no chance node: the pile is shuffled at setup (CR-4)


cdef void g_returns(const void* vs, double* out) noexcept nogil:
    """As ``StateAPI.returns``: 0 before the end; +1 for each winner and -1 for each other
    seat (CR-13), 0 for all when every seat wins."""
    cdef const cr_t* s = <const cr_t*>vs
    cdef int p, mask, n = s.cfg.n
    if cr_current(s) != TERMINAL_SEAT:
        for p in range(n):
            out[p] = 0.0
        return
    mask = cr_winner_mask(s)
    for p in range(n):
        if mask == (1 << n) - 1:
            out[p] = 0.0
        else:
            out[p] = 1.0 if (mask >> p) & 1 else -1.0


cdef void g_rollout(void* vs, rng_t* policy) noexcept nogil:
    cr_play_random(<cr_t*>vs, policy)


cdef void g_determinize(void* vs, int p, uint64_t seed) noexcept nogil:
    cr_determinize(<cr_t*>vs, p, seed)


cdef void g_observe(const void* vs, int p, float* out) noexcept nogil:
    cdef const cr_t* s = <const cr_t*>vs
    memset(out, 0, <size_t>(cr_num_channels(&s.cfg) * s.cfg.G * s.cfg.G) * sizeof(float))
    cr_observation(s, p, out)


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
CR_GAME.determinize = g_determinize
CR_GAME.observe = g_observe
CR_GAME.mask = g_mask
CR_GAME.truncated = g_truncated


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


# ---- argument checks (fast paths; every error comes from the shared checks of _api) ----------

cdef inline int seat_arg(object game, int n, object player) except -1:
    """``check_seat(game, player, "player")``: an int or numpy int64 in range is read in place;
    anything else goes to the shared check (same errors as the reference engine)."""
    cdef long long v = -1
    cdef int64_t w = -1
    cdef int overflow = 0
    if type(player) is int:
        v = PyLong_AsLongLongAndOverflow(player, &overflow)
        if not overflow and 0 <= v < n:
            return <int>v
    elif type(player) is NP_INT64:
        w = mh_int64_value(player)
        if 0 <= w < n:
            return <int>w
    return <int>_check_seat(game, player, "player")


cdef inline bint out_ok(object out, int typenum, int ndim, const cnp.npy_intp* dims) noexcept:
    """True when ``out`` is a writable, C-contiguous, native-order array of this type and
    shape (what ``_api.check_out`` accepts)."""
    cdef cnp.ndarray a
    cdef int i
    if not isinstance(out, cnp.ndarray):
        return False
    a = <cnp.ndarray>out
    if cnp.PyArray_TYPE(a) != typenum or not cnp.PyArray_ISNOTSWAPPED(a) or cnp.PyArray_NDIM(a) != ndim:
        return False
    for i in range(ndim):
        if cnp.PyArray_DIMS(a)[i] != dims[i]:
            return False
    return cnp.PyArray_IS_C_CONTIGUOUS(a) and cnp.PyArray_ISWRITEABLE(a)



# ---- configuration ----------------------------------------------------------------------------

cdef cr_cfg_t cfg_of(object game) except *:
    cdef cr_cfg_t cfg
    cdef int i
    memset(&cfg, 0, sizeof(cfg))
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
    for i in range(game.K):
        cfg.cheese_value[i] = game.cheese_kind_values[i]
        cfg.cheese_count[i] = game.cheese_counts[i]
    for i in range(3):
        cfg.pile_count[i] = game.pile_counts[i]
    return cfg


cdef cr_cfg_t game_cfg(object game) except *:
    cached = getattr(game, "_compiled_cfg", None)
    if cached is None:
        cached = CheeseRescueCore.__new__(CheeseRescueCore)
        (<CheeseRescueCore>cached).s.cfg = cfg_of(game)
        game._compiled_cfg = cached
    return (<CheeseRescueCore>cached).s.cfg


cdef extern from *:
    """
    #ifdef Py_GIL_DISABLED
    #define MH_CR_HAVE_GIL 0
    #else
    #define MH_CR_HAVE_GIL 1
    #endif
    """
    const int MH_CR_HAVE_GIL

cdef object last_game = None   # the game of the last new()/from_dict() (held: no id reuse)
cdef cr_cfg_t last_cfg


cdef inline int load_cfg(object game, cr_cfg_t* cfg) except -1:
    """``cfg[0] = game_cfg(game)``, without a Python-level lookup when ``game`` is the
    game of the previous call (the usual case). The pair (last_game, last_cfg) changes with
    no Python code between its two writes, so under the GIL no thread sees it half made;
    a free-threaded build does not use it."""
    global last_game, last_cfg
    if not MH_CR_HAVE_GIL:
        cfg[0] = game_cfg(game)
        return 0
    if game is not last_game:
        last_cfg = game_cfg(game)
        last_game = game
    cfg[0] = last_cfg
    return 0


cdef void sim_range(cr_cfg_t cfg, uint64_t seed, Py_ssize_t start, Py_ssize_t stop,
                    int64_t[:, ::1] scores, uint8_t[:, ::1] winners, int64_t[::1] lengths,
                    uint8_t[::1] truncated) noexcept nogil:
    cdef cr_t s
    cdef rng_t policy
    cdef int32_t sc[4]
    cdef int32_t cnt[4]
    cdef int p, mask
    cdef Py_ssize_t i
    s.cfg = cfg
    for i in range(start, stop):
        cr_init(&s, rng_derive(seed, 2 * <uint64_t>i))
        policy = rng_derive(seed, 2 * <uint64_t>i + 1)
        cr_play_random(&s, &policy)
        cr_scores(&s, sc, cnt)
        mask = winner_mask_of(cfg.n, sc, cnt) if cr_current(&s) == TERMINAL_SEAT else 0
        for p in range(cfg.n):
            scores[i - start, p] = sc[p]
            winners[i - start, p] = (mask >> p) & 1
        lengths[i - start] = s.placed
        truncated[i - start] = <uint8_t>s.truncated


def _sim_chunk(CheeseRescueCore proto, uint64_t seed, Py_ssize_t start, Py_ssize_t stop,
               scores, winners, lengths, truncated):
    cdef int64_t[:, ::1] sv = scores
    cdef uint8_t[:, ::1] wv = winners
    cdef int64_t[::1] lv = lengths
    cdef uint8_t[::1] tv = truncated
    cdef cr_cfg_t cfg = proto.s.cfg
    check_sim_rows(sv, wv, lv, tv, start, stop, cfg.n)
    with nogil:
        sim_range(cfg, seed, start, stop, sv, wv, lv, tv)


# ---- the Python-facing class ------------------------------------------------------------------

@cython.no_gc  # it holds only its game, which holds no state: no cycle
cdef class CheeseRescueCore:
    """Compiled Cheese Rescue state. Use ``game.new_state(seed)``; the public class is
    ``mousehole.cheese_rescue.CompiledCheeseRescueState`` (this core + the shared API)."""

    @classmethod
    def new(cls, game, uint64_t seed):
        cdef CheeseRescueCore st = <CheeseRescueCore>new_instance(<type>cls)
        st.game = game
        load_cfg(game, &st.s.cfg)
        cr_init(&st.s, seed)  # (the slots past pile_n and placed stay 0 from the allocation)
        st.seed = seed
        return st

    @classmethod
    def from_dict(cls, game, dict d):
        """Build from a dict already checked by ``game._validate_dict``."""
        cdef CheeseRescueCore st = <CheeseRescueCore>new_instance(<type>cls)
        cdef int i, k, p
        st.game = game
        load_cfg(game, &st.s.cfg)
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
        c.s = self.s
        return c

    def _set_seed(self, seed):
        """Unpickling: the seed the pickled state was created from (or None)."""
        self.seed = seed

    def determinize(self, player, seed):
        """``StateAPI.determinize`` in compiled code: a copy in which what seat ``player``
        cannot see (CR-15) is re-dealt from ``seed``; equal to
        ``game.determinize_view(self.to_dict(for_player=player), seed)``."""
        cdef int p = seat_arg(self.game, self.s.cfg.n, player)
        cdef uint64_t sd
        cdef CheeseRescueCore c
        if type(seed) is int:
            sd = PyLong_AsUnsignedLongLongMask(seed)  # modulo 2**64, as _api._seed
        else:
            sd = _seed(seed)
        c = <CheeseRescueCore>new_instance(type(self))
        c.game = self.game
        c.s = self.s
        cr_determinize(&c.s, p, sd)
        return c

    def _c_game(self):
        """Capsule of this game's C-level interface (``mh_game_t``)."""
        return game_capsule(&CR_GAME)

    def _c_state(self):
        """Capsule of this state's struct address (valid while the state lives)."""
        return state_capsule(&self.s)


    @property
    def current_player(self):
        return cr_current(&self.s)

    def is_terminal(self):
        return cr_current(&self.s) == TERMINAL_SEAT

    def is_chance_node(self):
        """Always False: Cheese Rescue has no chance node (the pile is shuffled at setup, CR-4)."""
        return False

    @property
    def truncated(self):
        return bool(self.s.truncated)

    @property
    def history(self):
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
        cdef uint16_t rows[16]
        cdef uint8_t before[17]
        cdef int32_t held[CR_MAX_KINDS]
        cdef const cr_t* s = &self.s
        cdef int p = cr_current(s)
        cdef int nc, nk = 0, k, i, r, G = s.cfg.G, first, nrows
        cdef int64_t base, C = s.cfg.C, d
        cdef uint16_t bits
        cdef cnp.npy_intp dim = 0
        cdef cnp.ndarray arr
        cdef int64_t* out
        cdef int64_t* dst
        if p == TERMINAL_SEAT:
            return cnp.PyArray_EMPTY(1, &dim, cnp.NPY_INT64, 0)
        nc = cr_legal_prefix(s, rows, before, &first, &nrows)
        for k in range(s.cfg.kinds):
            if s.hands[p][k]:
                held[nk] = k
                nk += 1
        if nk == 0:  # (no reachable state: a seat to play always holds a card, CR-11)
            return cnp.PyArray_EMPTY(1, &dim, cnp.NPY_INT64, 0)
        dim = nk * nc
        Py_INCREF(INT64_DESCR)  # (stolen by PyArray_NewFromDescr)
        arr = np_new_from_descr(<PyTypeObject*>NDARRAY_TYPE, INT64_DESCR, 1, &dim, NULL, NULL, 0, NULL)
        out = <int64_t*>cnp.PyArray_DATA(arr)
        base = held[0] * C
        i = 0
        for r in range(first, first + nrows):  # the first kind held, at the legal cells (ascending)
            bits = rows[r]
            while bits:
                out[i] = base + r * G + ctz64(bits)
                i += 1
                bits &= bits - 1
        dst = out + nc
        for k in range(1, nk):  # the other kinds held: kind-major, so the actions are sorted
            d = (held[k] - held[0]) * C
            for i in range(nc):
                dst[i] = out[i] + d
            dst += nc
        return arr

    def legal_action_mask(self, out=None):
        """Boolean mask of length ``game.num_actions``, True at the legal actions (CR-7,
        CR-8), written straight from the struct; into ``out`` (a writable C-contiguous bool
        array of that length) when given."""
        cdef cnp.npy_intp dim = self.s.cfg.num_actions
        cdef cnp.ndarray arr
        if out is None:
            arr = cnp.PyArray_ZEROS(1, &dim, cnp.NPY_BOOL, 0)
        elif out_ok(out, cnp.NPY_BOOL, 1, &dim):
            arr = <cnp.ndarray>out
            memset(cnp.PyArray_DATA(arr), 0, <size_t>dim)
        else:
            _check_out(out, (dim,), np.bool_, "out")  # raises, naming what is wrong
            arr = cnp.PyArray_ZEROS(1, &dim, cnp.NPY_BOOL, 0)  # (accepted there: copy in)
            cr_legal_mask(&self.s, <uint8_t*>cnp.PyArray_DATA(arr))
            out[...] = arr
            return out
        cr_legal_mask(&self.s, <uint8_t*>cnp.PyArray_DATA(arr))
        return arr

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
        if out is None:
            arr = cnp.PyArray_ZEROS(3, dims, cnp.NPY_FLOAT32, 0)
        elif out_ok(out, cnp.NPY_FLOAT32, 3, dims):
            arr = <cnp.ndarray>out
            memset(cnp.PyArray_DATA(arr), 0, <size_t>(dims[0] * dims[1] * dims[2]) * sizeof(float))
        else:
            _check_out(out, (dims[0], dims[1], dims[2]), np.float32, "out")  # raises, naming what is wrong
            arr = cnp.PyArray_ZEROS(3, dims, cnp.NPY_FLOAT32, 0)  # (accepted there: copy in)
            cr_observation(&self.s, p, <float*>cnp.PyArray_DATA(arr))
            out[...] = arr
            return out
        cr_observation(&self.s, p, <float*>cnp.PyArray_DATA(arr))
        return arr

    def apply_action(self, action):
        """Lay card kind ``action // C`` on cell ``action % C``; IllegalMoveError if not allowed."""
        cdef int64_t a = action_int(action, NP_INT64)
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
        cdef CheeseRescueCore proto = CheeseRescueCore.__new__(CheeseRescueCore)
        proto.s.cfg = game_cfg(game)
        _sim_chunk(proto, seed, start, stop, scores, winners, lengths, truncated)
