# cython: language_level=3
"""Compiled Cheese Rescue engine (rules CR-1 .. CR-15).

The state is one C struct (``cr_t`` in ``_cheese_rescue.pxd``); the table is kept both as
cell codes and as 16-bit row bitboards, so that the legal cells of CR-7/CR-8 and the removal
of CR-12 are a few shifts and masks per row. Every leaf function is ``noexcept nogil`` and
allocates nothing. The pure-Python reference is ``mousehole/cheese_rescue.py``; both must
give the same game, bit for bit, for the same seed and actions.
"""

cimport numpy as cnp
from libc.string cimport memset
from cpython.long cimport PyLong_AsLongLongAndOverflow
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF

from mousehole._common cimport (new_instance, 
    action_int,
    check_sim_rows,
    uint8_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t, rng_t,
    rng_below, rng_derive, rng_shuffle_u8, popcount16, ctz64, TERMINAL_SEAT,
)

import numpy as np

from mousehole._api import check_out as _check_out, check_seat as _check_seat

cnp.import_array()
_np_int64 = np.int64

# ---- leaf functions -------------------------------------------------------------------------

cdef inline int cr_current(const cr_t* s) noexcept nogil:
    if s.placed >= s.cfg.cells or s.truncated:  # CR-11
        return TERMINAL_SEAT
    return s.placed % s.cfg.n  # CR-7: seat 0 starts, clockwise


cdef inline void cr_put(cr_t* s, int cell, int code) noexcept nogil:
    """Put a card (table code) on an empty cell; keep bitboards and bounding box."""
    cdef int r = cell // s.cfg.G
    cdef int c = cell - r * s.cfg.G
    cdef uint16_t bit = <uint16_t>(1 << c)
    s.table[cell] = <uint8_t>code
    s.occ[r] |= bit
    if code == 2:
        s.dog[r] |= bit
    elif code == 3:
        s.cat[r] |= bit
    elif code == 4:
        s.mouse[r] |= bit
    elif code >= 5:
        s.cheese[r] |= bit
    if r < s.rmin: s.rmin = r
    if r > s.rmax: s.rmax = r
    if c < s.cmin: s.cmin = c
    if c > s.cmax: s.cmax = c


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
    s.placed = 0
    s.truncated = 0


cdef inline int cr_legal_cells(const cr_t* s, uint16_t* out) noexcept nogil:
    """Row masks of the empty cells where a card may go (CR-7, CR-8); returns their number."""
    cdef int r, lo_r, hi_r, lo_c, hi_c, total = 0
    cdef uint16_t colmask, nb
    memset(out, 0, 16 * sizeof(uint16_t))
    if s.rmax < 0:  # no card yet (3 players): the first card goes on the centre cell
        out[s.cfg.center // s.cfg.G] = <uint16_t>(1 << (s.cfg.center % s.cfg.G))
        return 1
    lo_r = s.rmax - s.cfg.N + 1
    if lo_r < 0: lo_r = 0
    hi_r = s.rmin + s.cfg.N - 1
    if hi_r > s.cfg.G - 1: hi_r = s.cfg.G - 1
    lo_c = s.cmax - s.cfg.N + 1
    if lo_c < 0: lo_c = 0
    hi_c = s.cmin + s.cfg.N - 1
    if hi_c > s.cfg.G - 1: hi_c = s.cfg.G - 1
    colmask = <uint16_t>(((1 << (hi_c + 1)) - 1) & ~((1 << lo_c) - 1))
    for r in range(lo_r, hi_r + 1):
        nb = <uint16_t>((s.occ[r] << 1) | (s.occ[r] >> 1) | s.occ[r + 1])
        if r > 0:
            nb |= s.occ[r - 1]
        nb &= <uint16_t>(~s.occ[r]) & colmask
        out[r] = nb
        total += popcount16(nb)
    return total


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


cdef inline void cr_place(cr_t* s, int kind, int cell) noexcept nogil:
    """Lay the card (CR-7), draw (CR-9), record the action; legality already checked."""
    cdef int p = s.placed % s.cfg.n
    s.hands[p][kind] -= 1
    cr_put(s, cell, (2 + kind) if kind < 3 else (5 + p * s.cfg.K + kind - 3))
    if s.pile_n > 0:  # CR-9
        s.pile_n -= 1
        s.hands[p][s.pile[s.pile_n]] += 1
    s.hist[s.placed] = <uint16_t>(kind * s.cfg.C + cell)
    s.placed += 1
    if s.placed >= s.cfg.max_turns and s.placed < s.cfg.cells:
        s.truncated = 1


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


cdef int cr_winner_mask(const cr_t* s) noexcept nogil:
    """CR-13: bit p set for each winner (highest score, then most cheese cards)."""
    cdef int32_t score[4]
    cdef int32_t count[4]
    cdef int p, best_s = -1, best_c = -1, mask = 0
    cr_scores(s, score, count)
    for p in range(s.cfg.n):
        if score[p] > best_s or (score[p] == best_s and count[p] > best_c):
            best_s = score[p]
            best_c = count[p]
            mask = 0
        if score[p] == best_s and count[p] == best_c:
            mask |= 1 << p
    return mask


cdef inline int cr_nth_cell(const cr_t* s, const uint16_t* cells, int idx) noexcept nogil:
    """The idx-th legal cell in row-major (ascending) order."""
    cdef int r = 0, k
    cdef uint16_t bits
    while True:
        k = popcount16(cells[r])
        if idx < k:
            break
        idx -= k
        r += 1
    bits = cells[r]
    while idx > 0:
        bits &= bits - 1
        idx -= 1
    return r * s.cfg.G + ctz64(bits)


cdef inline int cr_cell_list(const cr_t* s, const uint16_t* rows, int32_t* cells) noexcept nogil:
    """The cells of the row masks ``rows``, ascending; returns their number."""
    cdef int r, n = 0
    cdef uint16_t bits
    for r in range(s.cfg.G):
        bits = rows[r]
        while bits:
            cells[n] = r * s.cfg.G + ctz64(bits)
            n += 1
            bits &= bits - 1
    return n


cdef void cr_play_random(cr_t* s, rng_t* policy) noexcept nogil:
    """Play uniformly random legal actions to the end (the policy of mousehole.simulate)."""
    cdef uint16_t cells[16]
    cdef int nc, nk, k, idx, kind, p
    while s.placed < s.cfg.cells and not s.truncated:
        p = s.placed % s.cfg.n
        nc = cr_legal_cells(s, cells)
        nk = 0
        for k in range(s.cfg.kinds):
            nk += s.hands[p][k] != 0
        idx = <int>rng_below(policy, <uint32_t>(nk * nc))
        kind = idx // nc
        for k in range(s.cfg.kinds):  # the kind-th kind held, ascending
            if s.hands[p][k]:
                if kind == 0:
                    break
                kind -= 1
        cr_place(s, k, cr_nth_cell(s, cells, idx - (idx // nc) * nc))


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
    elif type(player) is _np_int64:
        cnp.PyArray_ScalarAsCtype(player, &w)
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
        mask = cr_winner_mask(&s) if cr_current(&s) == TERMINAL_SEAT else 0
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

cdef class CheeseRescueCore:
    """Compiled Cheese Rescue state. Use ``game.new_state(seed)``; the public class is
    ``mousehole.cheese_rescue.CompiledCheeseRescueState`` (this core + the shared API)."""

    @classmethod
    def new(cls, game, uint64_t seed):
        cdef CheeseRescueCore st = CheeseRescueCore.__new__(cls)
        st.game = game
        st.s.cfg = game_cfg(game)
        cr_init(&st.s, seed)
        return st

    @classmethod
    def from_dict(cls, game, dict d):
        """Build from a dict already checked by ``game._validate_dict``."""
        cdef CheeseRescueCore st = CheeseRescueCore.__new__(cls)
        cdef int i, k, p
        st.game = game
        st.s.cfg = game_cfg(game)
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
        c.s = self.s
        return c


    @property
    def current_player(self):
        return cr_current(&self.s)

    def is_terminal(self):
        return cr_current(&self.s) == TERMINAL_SEAT

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
        cdef int32_t cells[CR_MAX_CELLS]
        cdef int p = cr_current(&self.s)
        cdef int nc, k, i, j = 0, base
        cdef cnp.npy_intp dim = 0
        cdef cnp.ndarray arr
        cdef int64_t* out
        if p == TERMINAL_SEAT:
            return cnp.PyArray_ZEROS(1, &dim, cnp.NPY_INT64, 0)
        cr_legal_cells(&self.s, rows)
        nc = cr_cell_list(&self.s, rows, cells)
        for k in range(self.s.cfg.kinds):
            if self.s.hands[p][k]:
                dim += nc
        arr = cnp.PyArray_EMPTY(1, &dim, cnp.NPY_INT64, 0)
        out = <int64_t*>cnp.PyArray_DATA(arr)
        for k in range(self.s.cfg.kinds):  # kind-major, cells ascending: sorted actions
            if self.s.hands[p][k]:
                base = k * self.s.cfg.C
                for i in range(nc):
                    out[j] = base + cells[i]
                    j += 1
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
        cdef int64_t a = action_int(action, _np_int64)
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
