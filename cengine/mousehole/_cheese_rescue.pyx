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

from mousehole._common cimport (
    action_int,
    uint8_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t, rng_t,
    rng_below, rng_derive, rng_shuffle_u8, popcount16, ctz64, TERMINAL_SEAT,
)

import numpy as np

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
            scores[i, p] = sc[p]
            winners[i, p] = (mask >> p) & 1
        lengths[i] = s.placed
        truncated[i] = <uint8_t>s.truncated


def _sim_chunk(CheeseRescueCore proto, uint64_t seed, Py_ssize_t start, Py_ssize_t stop,
               scores, winners, lengths, truncated):
    cdef int64_t[:, ::1] sv = scores
    cdef uint8_t[:, ::1] wv = winners
    cdef int64_t[::1] lv = lengths
    cdef uint8_t[::1] tv = truncated
    cdef cr_cfg_t cfg = proto.s.cfg
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
        cdef CheeseRescueCore c = CheeseRescueCore.__new__(type(self))
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
        return [self.s.hist[i] for i in range(self.s.placed)]

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

    def legal_action_mask(self):
        cdef cnp.npy_intp dim = self.s.cfg.num_actions
        cdef cnp.ndarray arr = cnp.PyArray_ZEROS(1, &dim, cnp.NPY_BOOL, 0)
        cdef uint8_t* out = <uint8_t*>cnp.PyArray_DATA(arr)
        cdef uint16_t cells[16]
        cdef int p = cr_current(&self.s)
        cdef int k, r, G = self.s.cfg.G, C = self.s.cfg.C
        cdef uint16_t bits
        if p == TERMINAL_SEAT:
            return arr
        cr_legal_cells(&self.s, cells)
        for k in range(self.s.cfg.kinds):
            if self.s.hands[p][k]:
                for r in range(G):
                    bits = cells[r]
                    while bits:
                        out[k * C + r * G + ctz64(bits)] = 1
                        bits &= bits - 1
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
        cdef int p, k
        d = self.game._header()
        d["table"] = [self.s.table[i] for i in range(self.s.cfg.C)]
        d["hands"] = [[self.s.hands[p][k] for k in range(self.s.cfg.kinds)] for p in range(self.s.cfg.n)]
        d["pile"] = [self.s.pile[i] for i in range(self.s.pile_n)]
        d["rng"] = self.s.rng
        d["history"] = self.history
        d["truncated"] = bool(self.s.truncated)
        return d

    @staticmethod
    def simulate_chunk(game, uint64_t seed, Py_ssize_t start, Py_ssize_t stop,
                       scores, winners, lengths, truncated):
        """Play games ``start .. stop - 1`` of ``mousehole.simulate`` without the GIL and fill
        their rows of the result arrays (``winners``, ``truncated`` as uint8 views)."""
        cdef CheeseRescueCore proto = CheeseRescueCore.__new__(CheeseRescueCore)
        proto.s.cfg = game_cfg(game)
        _sim_chunk(proto, seed, start, stop, scores, winners, lengths, truncated)
