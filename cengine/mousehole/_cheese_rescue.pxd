# cython: language_level=3
"""Layout of the compiled Cheese Rescue engine (rules CR-1 .. CR-15)."""

from mousehole._rng cimport uint8_t, uint16_t, int32_t, rng_t

from mousehole._statecore cimport StateCore

cdef enum:
    CR_MAX_G = 15          # grid side G = 2N - 1, N <= 8
    CR_MAX_CELLS = 225     # G * G
    CR_MAX_KINDS = 8       # dog, cat, mouse + up to 5 cheese kinds
    CR_MAX_PLAYERS = 4
    CR_MAX_PILE = 255
    CR_MAX_HIST = 64       # at most N * N placements

# The constants of one game (copied into each state: small, and it keeps states self-contained).
ctypedef struct cr_cfg_t:
    int32_t n, N, G, C, K, kinds, center, cells, max_turns, uses_start, initial_draw
    int32_t cheese_value[5]
    int32_t cheese_count[5]
    int32_t pile_count[3]
    int32_t num_actions
    # CR-8 (reading play_area): the grid rows and columns a card may lie in, area_lo..area_hi
    # (0..G-1 when the square floats); fixed_area: 1 when the square is fixed there
    int32_t area_lo, area_hi, fixed_area

ctypedef struct cr_t:
    cr_cfg_t cfg
    uint16_t occ[16]       # row bitboards: bit c of occ[r] is cell (r, c)
    uint16_t dog[16]
    uint16_t cat[16]
    uint16_t mouse[16]
    uint16_t front[16]     # the empty cells next to a card (CR-7): a function of occ
                           # (no cheese board: occ less the animals and the start card)
    uint8_t table[CR_MAX_CELLS]   # cell codes, as in the reference (docs/games/cheese_rescue.md)
    uint8_t hands[CR_MAX_PLAYERS][CR_MAX_KINDS]
    uint8_t pile[CR_MAX_PILE]
    int32_t pile_n
    int32_t placed
    int32_t rmin, rmax, cmin, cmax   # bounding box of the cards on the table
    int32_t truncated
    rng_t rng
    uint16_t hist[CR_MAX_HIST]

cdef class CheeseRescueCore(StateCore):   # game, seed: StateCore
    cdef cr_t s
