# cython: language_level=3
"""Layout of the compiled Cheese Rescue engine (rules CR-1 .. CR-15)."""

from mousehole._rng cimport int64_t, uint8_t, uint16_t, int32_t, uint32_t, uint64_t, rng_t

from mousehole._statecore cimport StateCore
cimport numpy as cnp

cdef enum:
    CR_MAX_G = 15          # grid side G = 2N - 1, N <= 8
    CR_MAX_CELLS = 225     # G * G
    CR_MAX_KINDS = 8       # dog, cat, mouse + up to 5 cheese kinds
    CR_MAX_PLAYERS = 4
    CR_MAX_PILE = 255
    CR_MAX_HIST = 64       # at most N * N placements
    CR_MAX_CODES = 32      # table codes: 0 empty, 1 start card, 2-4 animals, 5 + owner * K + kind

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
    # ---- derived from the above by cr_cfg_derive (fill_cfg) ----
    int32_t length         # the cards laid in a whole game: cells, or max_turns if fewer (CR-11)
    int32_t cut            # 1 when max_turns ends the game before the square is full
    int32_t pile_size      # the animals of the pile at the deal (CR-4)
    int32_t shape          # the row of CR_ROWS / CR_COLS for the square (CR-8): N, + 8 if fixed
    int32_t base0          # the grid cell of window cell (0, 0) at the deal
    int32_t bottom0, right0   # the window's last row and column holding a card at the deal
    uint64_t start_bit     # the start card's window cell at the deal (CR-3, CR-6), 0 without one
    uint32_t div_C, div_G  # ceil(2**20 / C), ceil(2**20 / G): a // C, a // G without a division
    uint8_t hand0[CR_MAX_KINDS]          # a hand holding the cheese set alone (CR-5)
    uint8_t held0                        # its kinds, as bits
    uint8_t code[CR_MAX_PLAYERS][CR_MAX_KINDS]   # the table code of a card (seat, kind)
    uint8_t owner[CR_MAX_CODES]          # the owner and value of a cheese's table code (CR-13)
    uint8_t value[CR_MAX_CODES]

# What a turn reads and changes besides the arrays (boards, hands, pile, table): the cards on
# the 8 x 8 window, where the window lies, the seat to play and the size of the pile.
# ``simulate`` and the play-outs copy it into a local, which the C compiler keeps in
# registers; the struct's own copy is the state between the steps of the C interface. Window
# cell (i, j) is bit 8 * i + j of a word and grid cell (top + i, left + j); a floating
# square's cards lie in window rows 1..bottom and columns 1..right (row 0 and column 0: the
# row above and the column left of them).
ctypedef struct cr_window_t:
    uint64_t occ           # every card, the start card included
    int32_t base           # the grid cell of window cell (0, 0), top * G + left (top, left >= -1)
    int32_t bottom, right  # the last window row and column holding a card (0: no card yet)
    int32_t seat           # the seat to play (CR-7)
    int32_t pile_n         # the cards left in the pile (CR-9)

ctypedef struct cr_t:
    cr_cfg_t cfg
    cr_window_t win
    uint64_t boards[4]     # the window's dogs, cats, mice, cheese (CR_BOARD; the start card: none)
    rng_t rng
    # from here to the end: zero at the deal (cr_deal), then as the game leaves them; the
    # pile slots past pile_n and the history slots past placed stay 0 on every path (new,
    # play, from_dict, determinize), so equal states are equal bytes
    int32_t placed
    int32_t truncated
    uint8_t held[CR_MAX_PLAYERS]   # bit k: the seat holds a card of kind k
    uint8_t hands[CR_MAX_PLAYERS][CR_MAX_KINDS]
    uint8_t table[CR_MAX_CELLS]    # cell codes, as in the reference (docs/games/cheese_rescue.md)
    uint8_t pile[CR_MAX_PILE + 1]  # 0..pile_n - 1, drawn from the end
    uint16_t hist[CR_MAX_HIST]

cdef class CheeseRescueCore(StateCore):   # game, seed: StateCore
    cdef cr_t s
