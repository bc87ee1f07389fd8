# cython: language_level=3
"""Layout of the compiled M engine (rules M-1 .. M-22)."""

from mousehole._common cimport uint8_t, int8_t, uint16_t, int32_t, int64_t, uint64_t, rng_t

cdef enum:
    M_W = 8               # window side: the 6 x 6 square of M-7 plus a free cell each side
    M_MAX_CARDS = 128     # also the capacity of the pile ring buffer (a power of two)
    M_MAX_PLAYERS = 6
    M_MAX_HAND = 8
    M_MAX_ATTR = 8        # colours, distinct values, symbols
    M_MAX_LAYOUT = 36
    M_NO_SYMBOL = 255
    M_EMPTY = 255

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

# The constants of one game (copied into each state).
ctypedef struct m_cfg_t:
    int32_t n, H, n_cards, in_play, chips, n_layout
    int64_t max_turns
    int32_t A_PASS, A_EXCH, A_ROW, A_TAKE, num_actions
    uint8_t colour[M_MAX_CARDS]
    uint8_t vidx[M_MAX_CARDS]
    uint8_t sym[M_MAX_CARDS]      # M_NO_SYMBOL for value-0 cards
    int32_t value[M_MAX_CARDS]
    int64_t lay_r[M_MAX_LAYOUT]
    int64_t lay_c[M_MAX_LAYOUT]

# The table lives in an 8 x 8 window (bit r*8+c of a uint64 is window cell (r, c)) whose
# cell (0, 0) is the absolute cell (orow, ocol) = (top - 1, left - 1) of the bounding box;
# every card lies in window rows/cols 1..6, so shifts by 1 and 8 never wrap.
ctypedef struct m_t:
    m_cfg_t cfg
    uint64_t occ
    uint64_t colbb[M_MAX_ATTR]
    uint64_t valbb[M_MAX_ATTR]
    uint64_t symbb[M_MAX_ATTR]
    uint64_t srow                 # the remaining cards of the scoring row (M-13)
    uint64_t area                 # cells allowed by M-7 for the next card
    uint8_t cells[64]             # card id per window cell, M_EMPTY if none
    int64_t orow, ocol            # absolute coordinates of window cell (0, 0)
    int64_t lrow, lcol            # absolute cell of the last placement
    int32_t has_last
    uint8_t hand[M_MAX_PLAYERS][M_MAX_HAND]   # sorted by card id
    int32_t hand_n[M_MAX_PLAYERS]
    uint8_t pile[M_MAX_CARDS]     # ring buffer, bottom at pile_b, top at pile_b + pile_n - 1
    int8_t putter[M_MAX_CARDS]    # seat that put the card under the pile (M-9), or -1
    int32_t pile_b, pile_n
    uint8_t removed[M_MAX_CARDS]  # sorted
    int32_t n_removed
    int32_t chips[M_MAX_PLAYERS]
    uint8_t taken[M_MAX_PLAYERS][M_MAX_CARDS]
    int32_t taken_n[M_MAX_PLAYERS]
    int32_t tot[M_MAX_PLAYERS][M_MAX_ATTR]   # taken value per colour
    int32_t phase, current, placer, passes, end
    int64_t n_hist
    rng_t rng

cdef class MCore:
    cdef readonly object game
    cdef m_t s
    cdef uint16_t* hist
    cdef Py_ssize_t hist_cap
    cdef int _record(self, int a) except -1
