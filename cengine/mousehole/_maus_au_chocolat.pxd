# cython: language_level=3
"""Layout of the compiled Maus au Chocolat engine (rules MC-1 .. MC-30)."""

from mousehole._rng cimport int64_t, uint8_t, int8_t, uint16_t, int16_t, int32_t, uint64_t, rng_t

from mousehole._statecore cimport StateCore
cimport numpy as cnp

cdef enum:
    MC_CARDS = 80
    MC_MAX_PLAYERS = 6
    MC_HELPERS = 7
    MC_MAX_HAND = 12        # a hand never exceeds 9 (8 - 1 + 2); room to spare
    MC_NUM_PATTERNS = 1764
    MC_NUM_ACTIONS = 2085   # the action space of the default readings
    MC_BID_PLAIN = 2085     # henri_bonus="optional" (MC-17): bid card c without Henri's +2
    MC_MAX_ACTIONS = 2165   # the largest action space (MC_NUM_ACTIONS + 80 bids without Henri)
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

# The constants of one game (copied into each state). 264 bytes: with the state below and
# the object around it, a state stays within the sizes the allocator serves fastest (glibc's
# thread cache: at most 1032 bytes, garbage-collector header included).
ctypedef struct mc_cfg_t:
    double max_turns_d          # game.max_turns as a double; negative (minus the nearest
                                #    double) when game.max_turns > 2**53 is not exact
    int32_t max_turns           # game.max_turns, at most 10**9 (the rounds a game can have)
    int16_t target
    uint8_t n, hand_size
    uint8_t colour[MC_CARDS]
    uint8_t candy[MC_CARDS]
    uint8_t coin[MC_CARDS]
    uint8_t henri_optional      # the reading henri_bonus="optional" (MC-17): bids without Henri
    uint8_t kept_choice         # the reading kept_card="player_chooses" (MC-23): the player
                                #    chooses a set's kept cards (the second bank of shape tables)
    uint8_t etienne_at          # the reading etienne_swap (MC-16): bit ph set when Etienne's
                                #    holder may swap in phase ph (default: bid, pick, combine)
    uint8_t tie_after_pass      # the reading tie_break_moment="after_passing" (MC-25): a tie
                                #    at the end goes by the helpers after MC-15's pass
    uint8_t change_lo, change_hi  # the reading changed_value (MC-18, MC-19): the lowest and
                                #    the highest value Mathieu's or Maurice's change may give
                                #    (the table's candy values; 0 and 13, no bound, by default)
    uint8_t etienne_nodraw      # the reading etienne_draw="optional" (MC-16): Etienne's holder
                                #    may discard without drawing (the actions MC_DISCARD + c)
    uint8_t limit_standing      # the reading hand_limit="standing" (MC-14): a pick that takes a
                                #    hand above 8 cards is followed at once by its discards

# A state. The fields are ordered so that no padding lies between them (structs are compared
# byte for byte; the 3 bytes at the end are zeroed with the rest); small fields are narrow,
# as the comment above says.
ctypedef struct mc_t:
    mc_cfg_t cfg
    uint8_t loc[MC_CARDS]       # where each card is
    uint64_t known[2]           # bit set of card ids (0..63, 64..79): a hand card everyone saw
                                #    enter the hand (a pick); kept while that card is its
                                #    holder's face-down bid
    int32_t pool[MC_CARDS]      # MC-26: the pool of an unseen card (0: dealt at the start,
                                #    k > 0: a reshuffle, MC-6); 0 for face-up and known cards
    uint8_t pile[MC_CARDS]      # the draw pile, top = pile[pile_n - 1]
    uint64_t hand[MC_MAX_PLAYERS][2]  # sorted by card id, a byte per slot (slot j: byte j % 8
                                      #    of word j // 8, as a number), 0 past hand_n
    uint64_t disp[2]            # display as a bit set of card ids (0..63, 64..79)
    uint64_t dsp                # the display cards in id order, one byte each (at most 7;
                                #    byte i the i-th), 0 past disp_n
    uint64_t dis[2]             # the discard pile as a bit set of card ids (0..63, 64..79)
    rng_t rng
    int32_t round
    int32_t nactions            # actions applied since the start
    int16_t score[MC_MAX_PLAYERS]   # at most 80 cards of candy 12
    uint8_t hand_n[MC_MAX_PLAYERS]
    int8_t bid[MC_MAX_PLAYERS]  # -1: none
    uint8_t helper[MC_MAX_PLAYERS]
    uint8_t row[MC_HELPERS]
    uint8_t order[MC_MAX_PLAYERS]
    uint8_t pile_n, disp_n, discard_n, row_n
    uint8_t phase, turn, picks_left, etienne_used, truncated
    uint8_t henri_off           # MC-17 (henri_bonus="optional"): Henri's holder has bid without
                                #    Henri, face down; 0 from the reveal on (the order tells)

cdef class MausAuChocolatCore(StateCore):   # game, seed: StateCore
    cdef mc_t s   # (its history: StateCore's hist)


# Leaf functions that other Cython code may cimport (the microbenchmarks of benchmarks/): they
# trust their input, as every leaf does.
cdef int mc_combos(const mc_t* s, int p, int16_t* out) noexcept nogil   # MC-29: seat p's combinations
