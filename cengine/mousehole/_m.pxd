# cython: language_level=3
"""Layout of the compiled M engine (rules M-1 .. M-22)."""

from mousehole._rng cimport uint8_t, int8_t, uint16_t, int16_t, uint32_t, int32_t, int64_t, uint64_t, rng_t

from mousehole._statecore cimport StateCore
cimport numpy as cnp

cdef enum:
    M_W = 8               # window side: the 6 x 6 square of M-7 plus a free cell each side
    M_MAX_CARDS = 128     # also the capacity of the pile ring buffer (a power of two)
    M_MAX_PLAYERS = 6
    M_MAX_HAND = 8
    M_MAX_ATTR = 8        # colours, distinct values, symbols
    M_MAX_LAYOUT = 36
    M_EMPTY = 255         # no card: an empty hand slot, cell or table entry

cdef enum:
    PH_PLAY = 0
    PH_CHOOSE = 1
    PH_TAKE = 2
    PH_OVER = 3

cdef enum:
    END_NONE = 0
    END_M16 = 1
    END_M17 = 2
    END_M18 = 3
    END_MAX_TURNS = 4

# A card's entry in the game's card table (one per card id, indexed by the card's byte as a hand,
# a cell or the pile holds it; all of a card in 8 bytes, one cache line): its colour board, its
# value board (the index of its value in vals), its symbol board read (M_MAX_ATTR, an empty
# board, for none) and written (M_MAX_ATTR + 1 for none, never read), and its attributes as
# bits (colour | value << 8 | symbol << 16: two cards share the bits of what they share, M-6).
# M_EMPTY (no card) reads boards that stay empty (it fits nowhere) and shares no attribute.
ctypedef struct m_card_t:
    uint8_t colour, vidx, symi, symw
    uint32_t attr

# The constants of one game: one block per game object (its ``_compiled_cfg`` capsule), which
# every state of the game points at (``m_t.cfg``) and holds (StateCore._consts), never
# written after fill_cfg; simulate's threads play on a copy each.
ctypedef struct m_cfg_t:
    int32_t n, H, n_cards, in_play, chips, n_layout
    int64_t max_turns
    int32_t A_PASS, A_EXCH, A_ROW, A_TAKE, num_actions
    int32_t nc, nv, ns, F, channels   # observation: colours, values, symbols, F = nc + nv + ns
    int32_t vals[M_MAX_ATTR]          # the value of each value index
    m_card_t card[256]
    int32_t lay_r0, lay_c0        # the start layout (M-4): its top row and left column, and
    uint8_t lay_cell[M_MAX_LAYOUT]   # its cells in order, as window cells from (r0 - 1, c0 - 1)
    # the readings (mousehole.m.READINGS), 1 for the default: a pass without an exchange
    # costs a chip (pass_cost, M-9); M-17 looks at the pile too (stuck_cards, and a chip in
    # play: with chips=0 no pile card can reach a hand); draw_late, 0 for the default since
    # issue 41: the placer draws after the scoring (draw_timing="after_scoring", M-10, M-16)
    int32_t pass_pays, stuck_pile, draw_late
    # short_payer="skipped" (M-8): a seat short of the whole amount pays nothing;
    # chipless_exchange="free" (M-9): a seat without chips may exchange
    int32_t short_skip, free_exch

# The table lives in an 8 x 8 window (bit r*8+c of a uint64 is window cell (r, c)) whose
# cell (0, 0) is the absolute cell (orow, ocol) = (top - 1, left - 1) of the bounding box;
# every card lies in window rows/cols 1..6, so shifts by 1 and 8 never wrap.
ctypedef struct m_board_t:
    uint64_t occ                  # the cards on the table
    uint64_t front                # M-7: the free cells next to the table a card may take
    uint64_t col[M_MAX_ATTR + 2]  # the cards of each colour, value and symbol; [M_MAX_ATTR]
    uint64_t val[M_MAX_ATTR + 2]  # stays empty (no card's), sym[M_MAX_ATTR + 1] holds the
    uint64_t sym[M_MAX_ATTR + 2]  # cards without a symbol (written, never read)
    uint8_t cells[64]             # the card per absolute cell mod 8 x 8 (m_cell_byte), M_EMPTY if none
    # absolute coordinates of window cell (0, 0), and (8 orow + ocol) mod 64 (m_cell_byte) (after
    # the arrays: an array at a struct's end may reach past it for the compiler, which then
    # keeps the fields after it in memory)
    int64_t orow, ocol
    int32_t koff

# Everything a game changes: the rules' blocks (_m.pyx) work on a pointer to it; simulate and
# the search's play-outs play on a local copy, the state's functions on the state's own.
# Hands are words, one card a byte (slot i is byte i), ascending, the empty slots M_EMPTY.
# The fields every step reads or writes come first, then the table, then the pile's two ring
# buffers, and last what only a take, the record or a load reads: a step of VectorGame touches
# fewer cache lines of its env's state (1,024 envs' states, 1.4 MB, overflow a 1 MB
# second-level cache; callgrind's model of one: 9.8 -> 4.5 misses a step at 2 players).
ctypedef struct m_pos_t:
    int32_t current, placer, passes, phase, end
    # the pile: a ring buffer, bottom at pile_b, top at pile_b + pile_n - 1; pile_b moves down
    # one slot per exchange (M-9), so it is -(the history's exchanges) mod 128; free slots 0
    int32_t pile_b, pile_n
    int32_t total                 # (a cache, below)
    # the deal's shuffle (M-4) fixes the deck from the top down, one generator draw per
    # position; the draws for pile slots 0 .. lazy-1 (the bottom of the dealt pile, not yet
    # fixed) are deferred until the card above them is drawn (the top is always fixed) or the
    # whole order is read (m_settle): the same draws in the same order, so the same game as a
    # shuffle done at once. 0 once settled, in every loaded or determinized state.
    int32_t lazy
    int32_t has_last              # (the record, below)
    int64_t n_hist
    rng_t rng
    uint64_t srow, tmask          # (caches, below)
    uint64_t hand[M_MAX_PLAYERS]
    int32_t hand_n[M_MAX_PLAYERS]
    int32_t chips[M_MAX_PLAYERS]
    # caches, functions of the rest of the state (see _m.pyx, m_refresh): in PLAY, the cards
    # of the seat to move against the table (bad, M-6), their cells (mask), the running
    # counts of each mask's bytes (bpre) and of the masks' cells (pre), and their total; in
    # CHOOSE and TAKE, bad for the seat after the placer; in TAKE, the cards of the scoring
    # row (srow) and those that may be taken (tmask)
    uint32_t pre[M_MAX_HAND]
    uint64_t bad[M_MAX_HAND]
    uint64_t mask[M_MAX_HAND]
    uint64_t bpre[M_MAX_HAND]
    int64_t lrow, lcol            # (the record: the absolute cell of the last placement)
    m_board_t board
    uint8_t pile[M_MAX_CARDS]
    # what play does not read, kept for the state's record (the blocks' ``rec``):
    int8_t putter[M_MAX_CARDS]    # seat that put the card under the pile (M-9), or -1
    int32_t tot[M_MAX_PLAYERS * M_MAX_ATTR]   # the value each seat took per colour (M-15)
    # the taken cards (M-15): one list per seat, in the order taken, linked through tnext
    # (each entry a card id + 1, 0 for none): tnext[c] follows card c, thead[p] and ttail[p]
    # are the first and last of seat p's list; taken_n[p] cards
    uint8_t tnext[M_MAX_CARDS]
    uint8_t thead[M_MAX_PLAYERS]
    uint8_t ttail[M_MAX_PLAYERS]
    int32_t taken_n[M_MAX_PLAYERS]
    uint64_t removed[2]           # the removed cards (M-3), a set: bit c & 63 of removed[c >> 6]

# A state: a pointer to its game's constants (shared: 2 kB of them, mostly the card table,
# copied into every env of a VectorGame made its 1,024 envs' steps wait on memory; shared, the
# table stays in the first-level cache) and the position. A copy of the struct points at the
# same constants: it is valid while the state object it was copied from lives.
ctypedef struct m_t:
    const m_cfg_t* cfg
    m_pos_t pos

# One entry per action, in order: the int action (the state dict's "history") and its public
# facts (its "log" entry [seat, card, row, col]): the card laid or taken, M_LOG_NONE for a
# pass or a row choice, M_LOG_EXCHANGE for an exchange (a card went under the pile); the
# absolute cell as an offset from (log_r, log_c) of the MGameCore. Offsets stay small: the
# window origin moves at most 1 cell per placement and 5 per take, and each of the <= 128
# cards is laid once and taken once, so a game drifts less than 800 cells; loaded logs lie
# within M_LOG_REACH cells of the table (checked by the dict validation).
ctypedef struct m_log_t:
    uint16_t action
    int16_t dr, dc
    int8_t card
    int8_t seat

cdef enum:
    M_LOG_NONE = -1
    M_LOG_EXCHANGE = -2
    M_LOG_REACH = 16384

cdef class MGameCore(StateCore):   # game, seed: StateCore
    cdef m_t s
    cdef m_log_t* log             # s.pos.n_hist entries (history and log), capacity log_cap
    cdef Py_ssize_t log_cap
    cdef int64_t log_r, log_c     # the absolute cell of offset (0, 0) in the log
    cdef int _reserve(self, Py_ssize_t need) except -1
    cdef int _record(self, int a) except -1


# Leaf functions that other Cython code may cimport (the microbenchmarks of benchmarks/): they
# trust their input, as every leaf does.
cdef bint m_connected_without(uint64_t occ, int cell) noexcept nogil   # M-13(b) for one take
