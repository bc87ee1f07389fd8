# cython: language_level=3
"""Layout of the compiled Kater Kasimir engine (rules KK-1 .. KK-14)."""

from mousehole._rng cimport uint8_t, uint16_t, int32_t, int64_t, uint64_t, rng_t

from mousehole._statecore cimport StateCore
cimport numpy as cnp

cdef enum:
    KK_MAX_PLAYERS = 4
    KK_MAX_MICE = 8        # mouse id = seat * 8 + k
    KK_MAX_TRACK = 60      # spaces 1..60; bit s of a uint64 is space s
    KK_MAX_FACES = 32
    KK_NONE = 255          # no mouse

# The constants of one game (copied into each state: small, and it keeps states self-contained).
ctypedef struct kk_cfg_t:
    int32_t n, L, m, D, P, nfaces, clover, max_turns, explicit, num_actions
    int32_t tie            # tie_break reading (KK-13): 0 first_home, 1 first_finished, 2 fewest_turns
    int32_t elim_out       # elimination reading (KK-11): 1 for "out_of_game"
    int32_t last_out       # all_eliminated reading (KK-11, KK-13): 1 for "last_out_wins"
    uint64_t trapmask      # bit s set for each trap space s
    int32_t face_step[KK_MAX_FACES]   # distance of each face; 0 for the clover

ctypedef struct kk_t:
    kk_cfg_t cfg
    uint8_t top[64]        # top mouse of space s (1..L), KK_NONE when empty
    uint8_t below[32]      # the mouse under mouse i, KK_NONE at the bottom
    uint64_t free[KK_MAX_PLAYERS]   # bit s: the top mouse of space s is a free mouse of seat p
    uint64_t full          # trap spaces that hold their trapped mouse (KK-9)
    uint8_t pantry[KK_MAX_PLAYERS]
    uint8_t home[KK_MAX_PLAYERS]
    int32_t first_home[KK_MAX_PLAYERS]   # history index of the first mouse home, -1: none
    int32_t last_home[KK_MAX_PLAYERS]    # tie 1: history index of the latest mouse home, -1: none
    int32_t home_round[KK_MAX_PLAYERS]   # tie 2: round of the latest mouse home, 0: none
    int32_t round          # tie 2: the round of the table, from 1 (stays 1 under the other readings)
    int32_t out_at[KK_MAX_PLAYERS]       # last_out: history index of the move that caught the last mouse, -1: none
    int32_t seat           # seat to move / to roll; TERMINAL_SEAT at the end
    int32_t roll           # face index shown; -1 at a chance node or at the end
    int32_t moves          # player actions so far (max_turns counts these)
    int32_t nhist          # actions so far (moves + chance actions)
    int32_t on_way         # mice neither home nor trapped (KK-12)
    int32_t truncated
    rng_t rng

cdef class KasimirCore(StateCore):   # game, seed: StateCore
    cdef kk_t s   # (its history: StateCore's hist)
