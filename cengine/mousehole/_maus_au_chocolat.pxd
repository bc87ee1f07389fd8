# cython: language_level=3
"""Layout of the compiled Maus au Chocolat engine (rules MC-1 .. MC-30)."""

from mousehole._common cimport uint8_t, int8_t, uint16_t, int16_t, int32_t, uint64_t, rng_t

cdef enum:
    MC_CARDS = 80
    MC_MAX_PLAYERS = 6
    MC_HELPERS = 7
    MC_MAX_HAND = 12        # a hand never exceeds 9 (8 - 1 + 2); room to spare
    MC_NUM_PATTERNS = 1764
    MC_NUM_ACTIONS = 2085
    MC_BID = 0
    MC_PICK = 80
    MC_DISCARD = 160
    MC_SWAP = 240
    MC_DECLINE = 320
    MC_COMBINE = 321
    MC_HAND_LIMIT = 8
    # phases (the same order as PHASES in maus_au_chocolat.py)
    PH_BID = 0
    PH_PICK = 1
    PH_COMBINE = 2
    PH_DISCARD = 3
    PH_OVER = 4
    # card locations (loc[c])
    LOC_PILE = 0
    LOC_DISPLAY = 1
    LOC_DISCARD = 2
    LOC_HAND = 3            # + seat
    LOC_BID = 9             # + seat
    LOC_VP = 15             # + seat

# The constants of one game (copied into each state).
ctypedef struct mc_cfg_t:
    int32_t n, target, max_turns, hand_size
    double max_turns_f          # game.max_turns as a double when exact (<= 2**53), else 0
    int32_t obs_size            # game.observation_shape[0]: 80 * (4 + 3n) + 12n + 58
    uint8_t colour[MC_CARDS]
    uint8_t candy[MC_CARDS]
    uint8_t coin[MC_CARDS]

ctypedef struct mc_t:
    mc_cfg_t cfg
    uint8_t loc[MC_CARDS]       # where each card is
    uint8_t known[MC_CARDS]     # 1: a hand card everyone saw enter the hand (a pick); kept
                                #    while that card is its holder's face-down bid
    int32_t pool[MC_CARDS]      # MC-26: the pool of an unseen card (0: dealt at the start,
                                #    k > 0: a reshuffle, MC-6); 0 for face-up and known cards
    uint8_t pile[MC_CARDS]      # the draw pile, top = pile[pile_n - 1]
    int32_t pile_n
    uint8_t hand[MC_MAX_PLAYERS][MC_MAX_HAND]   # sorted by card id
    int32_t hand_n[MC_MAX_PLAYERS]
    uint64_t disp[2]            # display as a bit set of card ids (0..63, 64..79)
    int32_t disp_n
    int32_t discard_n
    int32_t bid[MC_MAX_PLAYERS] # -1: none
    int32_t score[MC_MAX_PLAYERS]
    int32_t helper[MC_MAX_PLAYERS]
    int32_t row[MC_HELPERS]
    int32_t row_n
    int32_t order[MC_MAX_PLAYERS]
    int32_t phase, turn, picks_left, etienne_used, round, truncated
    int32_t nactions            # actions applied since the start
    rng_t rng

cdef class MausAuChocolatCore:
    cdef readonly object game
    cdef mc_t s
    cdef uint16_t* hist
    cdef Py_ssize_t hist_cap
    cdef int _record(self, int a) except -1
