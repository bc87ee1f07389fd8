# cython: language_level=3, autotestdict=False
"""Compiled Kater Kasimir engine (rules KK-1 .. KK-14).

The state is one C struct (``kk_t`` in ``_kasimir.pxd``). Mice have ids ``seat * 8 + k``;
every space keeps its top mouse and every mouse the mouse under it (a linked tower), so a
move touches a handful of bytes. ``free[p]`` is a 64-bit board of the spaces whose top mouse
is a free mouse of seat p (KK-6), so the legal starts are its set bits (plus the pantry).
Every leaf function is ``noexcept nogil`` and allocates nothing. The pure-Python reference is
``mousehole/kasimir.py``; both give the same game, bit for bit, for the same seed and actions.
The same functions fill the game's C-level interface (``CORE_GAME``, an ``mh_game_t``) used by
search and batched stepping; its ``determinize`` renumbers the mice as ``from_dict`` does, so
that it gives the struct of the reference's determinization, byte for byte.
"""

cimport cython
cimport numpy as cnp
from libc.stdlib cimport malloc, free
from libc.string cimport memset, memcpy

from mousehole._rng cimport uint8_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t, rng_t, rng_below, rng_derive
from mousehole._bits cimport popcount64, ctz64, mh_copy, mh_inline_int, mh_inline_void
from mousehole._cgame cimport mh_game_t, mh_dims_t, TERMINAL_SEAT, CHANCE_SEAT
from mousehole._cgame cimport mh_game_def
from mousehole._boundary cimport seat_arg, sim_out_t, sim_row
from mousehole._statecore cimport StateCore, state_loaded, core_t, core_def, core_capsule, core_place, hist_put

import numpy as np

cnp.import_array()


# ---- the rules: one inline block each ----------------------------------------------------------
# Each rule is written once, here, as an inline block over the struct (its towers, its boards of
# free mice, its counters). The state's step (``kk_apply``), ``simulate``'s action
# (``kk_random_step``), the play to the end (``kk_rollout``, ``kk_playout``), one game of
# ``simulate`` (``kk_sim_game``) and the C interface (``g_*``) are sequences of these blocks.

cdef inline uint64_t bit(int s) noexcept nogil:
    return (<uint64_t>1) << s


cdef inline uint64_t kk_starts(const kk_t* s, int p) noexcept nogil:
    """KK-4, KK-6: the starts of seat p's free mice as bits: bit s for its free top mouse on
    space s, bit 0 for its pantry stack while that holds a mouse."""
    return s.free[p] | (<uint64_t>(s.pantry[p] != 0))


cdef inline int kk_num_starts(const kk_t* s, int p) noexcept nogil:
    """KK-6: how many free mice seat p may move (``kk_starts``' bits)."""
    return (s.pantry[p] != 0) + popcount64(s.free[p])


cdef inline int kk_nth_start(const kk_t* s, int p, int idx) noexcept nogil:
    """KK-6: the idx-th start of seat p in ascending order (0 = the pantry first)."""
    cdef uint64_t bits = s.free[p]
    if s.pantry[p]:
        if idx == 0:
            return 0
        idx -= 1
    while idx > 0:
        bits &= bits - 1
        idx -= 1
    return ctz64(bits)


cdef inline bint kk_can_move(const kk_t* s, int p) noexcept nogil:
    """KK-6, KK-10, KK-11: seat p has a free mouse (pantry stack or a free top mouse)."""
    return s.pantry[p] != 0 or s.free[p] != 0


cdef inline bint kk_dist_allowed(const kk_t* s, int dist) noexcept nogil:
    """KK-3, KK-5: the roll shown allows moving ``dist`` spaces: its number, or with the clover
    any distance from 1 to ``clover``."""
    cdef int step = s.cfg.face_step[s.roll]
    if step:
        return dist == step
    return 1 <= dist <= s.cfg.clover


cdef inline void kk_roll(kk_t* s) noexcept nogil:
    """KK-5: the roll of the turn: drawn now, or left to a chance action (explicit chance)."""
    if s.cfg.explicit:
        s.roll = -1
    else:
        s.roll = <int32_t>rng_below(&s.rng, <uint32_t>s.cfg.nfaces)


cdef inline void kk_show_face(kk_t* s, int face) noexcept nogil:
    """KK-5, explicit chance: the die rolled at a chance node shows ``face``."""
    s.roll = <int32_t>face


cdef inline int kk_leave_pantry(kk_t* s, int p) noexcept nogil:
    """KK-6: the top mouse of seat p's pantry stack leaves it; its id."""
    cdef int x = p * KK_MAX_MICE + (s.cfg.m - s.pantry[p])
    s.pantry[p] -= 1
    return x


cdef inline int kk_lift(kk_t* s, int p, int start) noexcept nogil:
    """KK-6: only the top mouse (seat p's) leaves space ``start``; its id. The mouse under it
    becomes free unless it is the mouse caught at the bottom of a trap (KK-9)."""
    cdef uint64_t b = bit(start)
    cdef int x = s.top[start]
    cdef int y = s.below[x]
    s.top[start] = <uint8_t>y
    s.free[p] &= ~b
    if y != KK_NONE and not (s.below[y] == KK_NONE and (s.full & b)):
        s.free[y >> 3] |= b
    return x


cdef inline void kk_reach_hole(kk_t* s, int p) noexcept nogil:
    """KK-7: past the last space a mouse of seat p is in the hole (no exact roll needed), no
    longer on the way (KK-12); KK-13: the tie-break keys of the reading."""
    s.home[p] += 1
    s.on_way -= 1
    if s.first_home[p] < 0:  # KK-13: the tie-break order
        s.first_home[p] = s.nhist - 1
    if s.cfg.tie == 1:  # KK-13, tie_break="first_finished": the latest mouse home
        s.last_home[p] = s.nhist - 1
    elif s.cfg.tie == 2:  # KK-13, tie_break="fewest_turns": its round
        s.home_round[p] = s.round


cdef bint kk_eliminated(const kk_t* s, int p) noexcept nogil:
    """KK-11: all of seat p's mice are trapped (each the bottom mouse of a full trap)."""
    cdef uint64_t bits = s.full
    cdef int sp, x, k = 0
    while bits:
        sp = ctz64(bits)
        bits &= bits - 1
        x = s.top[sp]
        while s.below[x] != KK_NONE:
            x = s.below[x]
        if (x >> 3) == p:
            k += 1
    return k == s.cfg.m


cdef inline void kk_catch(kk_t* s, int x, int t, uint64_t b) noexcept nogil:
    """KK-9: mouse x ends on the empty trap space t (``b``: its bit): caught, alone at the
    bottom, for good; no longer on the way (KK-12). KK-11, ``all_eliminated="last_out_wins"``:
    when it was its seat's last mouse, the move is the seat's ``out_at``."""
    s.full |= b
    s.top[t] = <uint8_t>x
    s.below[x] = KK_NONE
    s.on_way -= 1
    if s.cfg.last_out and kk_eliminated(s, x >> 3):
        s.out_at[x >> 3] = s.nhist - 1


cdef inline void kk_climb(kk_t* s, int p, int x, int t, uint64_t b) noexcept nogil:
    """KK-8: mouse x of seat p on top of whatever stands on space t (``b``: its bit; a full trap
    included); the mouse under it is no longer free."""
    cdef int z = s.top[t]
    if z != KK_NONE:
        s.free[z >> 3] &= ~b
    s.below[x] = <uint8_t>z
    s.top[t] = <uint8_t>x
    s.free[p] |= b


cdef inline void kk_move(kk_t* s, int p, int start, int dist) noexcept nogil:
    """KK-6 .. KK-9: seat p's free mouse on ``start`` moves ``dist`` spaces (legality already
    checked)."""
    cdef int x, t
    cdef uint64_t b
    if start == 0:
        x = kk_leave_pantry(s, p)
    else:
        x = kk_lift(s, p, start)
    t = start + dist  # KK-7: every space counts; traps on the way are harmless
    if t > s.cfg.L:
        kk_reach_hole(s, p)
        return
    b = bit(t)
    if (s.cfg.trapmask & b) and not (s.full & b):
        kk_catch(s, x, t, b)
        return
    kk_climb(s, p, x, t, b)


cdef inline void kk_next_turn(kk_t* s, int p) noexcept nogil:
    """KK-12 end, max_turns, then the next seat that can move (KK-10, KK-11 skip) rolls."""
    cdef int q
    if s.on_way == 0:  # KK-12
        s.seat = TERMINAL_SEAT
        s.roll = -1
        return
    if s.moves >= s.cfg.max_turns:
        s.truncated = 1
        s.seat = TERMINAL_SEAT
        s.roll = -1
        return
    q = p + 1
    if q == s.cfg.n:  # passing seat 0 starts a round (counted for tie_break="fewest_turns")
        q = 0
        if s.cfg.tie == 2:
            s.round += 1
    while not kk_can_move(s, q):  # terminates: some mouse on the way has a free top mouse
        q += 1
        if q == s.cfg.n:
            q = 0
            if s.cfg.tie == 2:
                s.round += 1
    s.seat = q
    kk_roll(s)


cdef inline void kk_play(kk_t* s, int start, int dist) noexcept nogil:
    """A legal move of the seat to move (the history entry is already counted), then the next
    turn."""
    cdef int p = s.seat
    s.moves += 1
    kk_move(s, p, start, dist)
    kk_next_turn(s, p)


cdef mh_inline_void kk_random_move(kk_t* s, rng_t* policy) noexcept nogil:
    """``simulate``'s action model at a seat's turn: one uniform draw among the legal moves
    (``kk_legal``'s list: the starts ascending, each with the distances the roll allows),
    played without listing them (the history entry is already counted)."""
    cdef int p = s.seat
    cdef int k = kk_num_starts(s, p)
    cdef int step = s.cfg.face_step[s.roll]
    cdef int idx, c
    if step:
        idx = <int>rng_below(policy, <uint32_t>k)
        kk_play(s, kk_nth_start(s, p, idx), step)
    else:  # the clover (KK-3): any distance from 1 to clover
        c = s.cfg.clover
        idx = <int>rng_below(policy, <uint32_t>(k * c))
        kk_play(s, kk_nth_start(s, p, idx // c), idx % c + 1)


cdef inline int kk_tie_key(const kk_t* s, int p) noexcept nogil:
    """KK-13: seat p's tie-break key under the tie_break reading (smaller wins, -1: no mouse
    home): the history index of its first mouse home, of its latest one, or that one's round
    (``kasimir._tie_keys``)."""
    if s.cfg.tie == 0:
        return s.first_home[p]
    if s.cfg.tie == 1:
        return s.last_home[p]
    return s.home_round[p] if s.home_round[p] > 0 else -1


# ---- the state: the blocks in sequence ----------------------------------------------------------

cdef void kk_deal "core_deal"(kk_t* s, uint64_t seed) noexcept nogil:
    """KK-2, KK-4: every mouse in its pantry stack; seat 0 starts and rolls (the constants
    already set)."""
    cdef int p
    s.rng = seed
    memset(s.top, KK_NONE, sizeof(s.top))
    memset(s.below, KK_NONE, sizeof(s.below))
    for p in range(KK_MAX_PLAYERS):
        s.free[p] = 0
        s.pantry[p] = <uint8_t>(s.cfg.m if p < s.cfg.n else 0)
        s.home[p] = 0
        s.first_home[p] = -1
        s.last_home[p] = -1
        s.home_round[p] = 0
        s.out_at[p] = -1
    s.round = 1
    s.full = 0
    s.seat = 0
    s.moves = 0
    s.nhist = 0
    s.on_way = s.cfg.n * s.cfg.m
    s.truncated = 0
    kk_roll(s)


cdef inline int kk_current "core_current"(const kk_t* s) noexcept nogil:
    """The seat to move, CHANCE_SEAT at a chance node (explicit chance), TERMINAL_SEAT at the
    end."""
    if s.seat == TERMINAL_SEAT:
        return TERMINAL_SEAT
    return CHANCE_SEAT if s.roll < 0 else s.seat


cdef inline void kk_apply "core_apply"(kk_t* s, int a) noexcept nogil:
    """Apply the legal action ``a`` (checked by the caller): at a chance node the die face
    ``a - P``, else the move ``start * D + distance - 1``. The history's entry is the
    caller's; its count is kept here."""
    cdef int start
    s.nhist += 1
    if s.roll < 0:
        kk_show_face(s, a - s.cfg.P)
        return
    start = a // s.cfg.D
    kk_play(s, start, a - start * s.cfg.D + 1)


cdef mh_inline_int kk_random_step(kk_t* s, rng_t* policy) noexcept nogil:
    """One action of ``simulate``'s policy, the game not over: a uniform draw among the legal
    actions (at a chance node, among the die's faces: KK-3); the same action and draw as
    ``kk_apply(legal[below(n)])``. Returns the seat to move after it (``kk_current``)."""
    s.nhist += 1
    if s.roll < 0:
        kk_show_face(s, <int>rng_below(policy, <uint32_t>s.cfg.nfaces))
    else:
        kk_random_move(s, policy)
    return kk_current(s)


cdef mh_inline_void kk_rollout "core_rollout"(kk_t* s, rng_t* policy) noexcept nogil:
    """Play ``simulate``'s policy to the end (chance nodes, if any, resolved by it too)."""
    while s.seat != TERMINAL_SEAT:
        kk_random_step(s, policy)


cdef inline void kk_scores "core_scores"(const kk_t* s, int64_t* out) noexcept nogil:
    """KK-13: the mice in the hole per seat."""
    cdef int p
    for p in range(s.cfg.n):
        out[p] = s.home[p]


cdef int kk_winner_mask "core_winner_mask"(const kk_t* s) noexcept nogil:
    """KK-13: most mice home; tie-break the smallest key (``kk_tie_key``), equal keys share;
    tied seats with none home share, eliminated ones excepted under
    ``elimination="out_of_game"`` (KK-11): then the mask may be 0 (nobody wins). Under
    ``all_eliminated="last_out_wins"``, when every seat is out the one out last wins alone."""
    cdef int p, k, best = -1, mask = 0, first = 0x7FFFFFFF
    for p in range(s.cfg.n):
        if s.home[p] > best:
            best = s.home[p]
    if best == 0 and s.cfg.last_out:  # KK-11: every seat out (out_at set): the last one out wins
        k = -1
        for p in range(s.cfg.n):
            if s.out_at[p] < 0:
                k = -1
                break
            if s.out_at[p] > k:
                k = s.out_at[p]
                mask = 1 << p
        if k >= 0:
            return mask
        mask = 0
    for p in range(s.cfg.n):
        if s.home[p] == best:
            if best == 0:
                if not (s.cfg.elim_out and kk_eliminated(s, p)):
                    mask |= 1 << p
                continue
            k = kk_tie_key(s, p)
            if k < first:
                first = k
                mask = 1 << p
            elif k == first:
                mask |= 1 << p
    return mask


cdef inline void kk_returns "core_returns"(const kk_t* s, double* out) noexcept nogil:
    """``KasimirState.returns``: +1 each winner, -1 each other seat at the end (KK-13); 0 for
    all before the end and when every seat wins. When nobody wins (KK-11,
    ``elimination="out_of_game"``: every seat eliminated) -1 for every seat with 3 or 4
    players, 0 for both with 2 (zero-sum)."""
    cdef int p, n = s.cfg.n
    cdef int mask
    if s.seat != TERMINAL_SEAT:
        for p in range(n):
            out[p] = 0.0
        return
    mask = kk_winner_mask(s)
    if mask == (1 << n) - 1 or (mask == 0 and n == 2):
        for p in range(n):
            out[p] = 0.0
        return
    for p in range(n):
        out[p] = 1.0 if (mask >> p) & 1 else -1.0


cdef inline void kk_playout "core_playout"(kk_t* s, rng_t* policy, double* out) noexcept nogil:
    """``kk_rollout`` then ``kk_returns``."""
    kk_rollout(s, policy)
    kk_returns(s, out)


cdef inline int kk_sim_game(kk_t* s, uint64_t seed, rng_t* policy) noexcept nogil:
    """One game of ``simulate`` on ``s`` (its constants set): the deal of ``seed``, ``policy``'s
    play to the end; the winners' mask."""
    kk_deal(s, seed)
    kk_rollout(s, policy)
    return kk_winner_mask(s)


cdef inline void kk_evaluate "core_evaluate"(const kk_t* s, double* out) noexcept nogil:
    """The strong search's evaluation, per seat the value of ``KasimirGame.greedy_value``: 100
    per mouse home; 10 per mouse in the pantry; for a mouse on the track 10 + its space, 3
    less when another mouse stands on it (KK-8); nothing for the caught bottom mouse of a
    trap space (KK-9)."""
    cdef int p, sp
    cdef bint top
    cdef uint8_t mouse, nxt
    for p in range(s.cfg.n):
        out[p] = 100.0 * s.home[p] + 10.0 * s.pantry[p]
    for sp in range(1, s.cfg.L + 1):
        mouse = s.top[sp]
        top = True
        while mouse != KK_NONE:
            nxt = s.below[mouse]
            if not (nxt == KK_NONE and (s.cfg.trapmask >> sp) & 1):
                out[mouse >> 3] += 10.0 + sp - (0.0 if top else 3.0)
            top = False
            mouse = nxt


# ---- the legal actions ---------------------------------------------------------------------------

ctypedef fused act_t:
    int32_t
    int64_t


cdef inline int kk_legal(const kk_t* s, act_t* out) noexcept nogil:
    """The legal actions, ascending, into out; returns their number: the die faces at a
    chance node (KK-5), else each free mouse's start (KK-6, pantry first) with each distance
    the roll allows; none at the end."""
    cdef int p = s.seat
    cdef int j = 0, i, step, d, start, c, D = s.cfg.D
    cdef uint64_t bits
    if p == TERMINAL_SEAT:
        return 0
    if s.roll < 0:
        for i in range(s.cfg.nfaces):
            out[i] = <act_t>(s.cfg.P + i)
        return s.cfg.nfaces
    step = s.cfg.face_step[s.roll]
    bits = kk_starts(s, p)
    if step:
        step -= 1
        while bits:
            out[j] = <act_t>(ctz64(bits) * D + step)
            j += 1
            bits &= bits - 1
        return j
    c = s.cfg.clover
    while bits:
        start = ctz64(bits) * D
        bits &= bits - 1
        for d in range(c):
            out[j] = <act_t>(start + d)
            j += 1
    return j


cdef inline int kk_num_legal(const kk_t* s) noexcept nogil:
    """The number of legal actions (``kk_legal``'s length)."""
    cdef int p = s.seat
    cdef int k
    if p == TERMINAL_SEAT:
        return 0
    if s.roll < 0:
        return s.cfg.nfaces
    k = kk_num_starts(s, p)
    return k if s.cfg.face_step[s.roll] else k * s.cfg.clover


cdef inline bint kk_is_legal(const kk_t* s, int64_t a) noexcept nogil:
    """Is ``a`` (any int) a legal action: at a chance node a die face ``P + i`` (KK-5), else a
    move ``start * D + distance - 1`` of a free mouse (KK-6) by a distance the roll allows."""
    cdef int start
    if s.seat == TERMINAL_SEAT or a < 0 or a >= s.cfg.num_actions:
        return False
    if s.roll < 0:
        return a >= s.cfg.P
    if a >= s.cfg.P:
        return False
    start = <int>(a // s.cfg.D)
    return ((kk_starts(s, s.seat) >> start) & 1) != 0 and kk_dist_allowed(s, <int>a - start * s.cfg.D + 1)


cdef void kk_legal_mask(const kk_t* s, uint8_t* out) noexcept nogil:
    """Set out[a] = 1 for every legal action a (out zeroed by the caller): the die faces at a
    chance node (KK-5), else each free mouse (KK-6) with each distance the roll allows."""
    cdef int p = s.seat
    cdef int i, d, start, step, D = s.cfg.D
    cdef uint64_t bits
    if p == TERMINAL_SEAT:
        return
    if s.roll < 0:
        for i in range(s.cfg.nfaces):
            out[s.cfg.P + i] = 1
        return
    step = s.cfg.face_step[s.roll]
    bits = kk_starts(s, p)
    while bits:
        start = ctz64(bits)
        bits &= bits - 1
        if step:
            out[start * D + step - 1] = 1
        else:
            for d in range(s.cfg.clover):
                out[start * D + d] = 1


# ---- observation, determinization ---------------------------------------------------------------

cdef void kk_observe(const kk_t* s, int p, float* o) noexcept nogil:
    """Seat p's observation, the layout of ``Kasimir._observation`` (docs/games/kasimir.md,
    "Observation"), written into o (zeroed by the caller, length ``observation_shape[0]``).
    Seats are relative to p: k = (q - p) mod n."""
    cdef int n = s.cfg.n, L = s.cfg.L
    cdef int H = n * s.cfg.m  # tower levels (stack_levels)
    cdef int q, k, sp, x, h, r, t
    cdef float* A = o                       # [k][0 .. L+1]: mice at each position
    cdef float* B = A + n * (L + 2)         # [space-1][level][k]: towers, bottom first
    cdef float* C = B + L * H * n           # traps, then full traps
    cdef float* Dr = C + 2 * L              # the roll, one-hot
    cdef float* E = Dr + s.cfg.nfaces       # seat to move (relative), chance flag
    cdef float* F = E + n + 1               # tie-break order
    for k in range(n):
        q = p + k
        if q >= n:
            q -= n
        A[k * (L + 2)] = s.pantry[q]            # KK-4: the pantry stack
        A[k * (L + 2) + L + 1] = s.home[q]      # KK-7: the hole
    for sp in range(1, L + 1):
        x = s.top[sp]
        if x == KK_NONE:
            continue
        h = 0  # KK-8: the tower's height
        while x != KK_NONE:
            h += 1
            x = s.below[x]
        x = s.top[sp]
        while x != KK_NONE:  # top down: level h-1 .. 0
            h -= 1
            k = (x >> 3) - p
            if k < 0:
                k += n
            A[k * (L + 2) + sp] += 1.0
            B[((sp - 1) * H + h) * n + k] = 1.0
            x = s.below[x]
        if (s.cfg.trapmask >> sp) & 1:  # KK-9: a trap that holds a mouse
            C[L + sp - 1] = 1.0
    for t in range(1, L + 1):  # KK-1: the trap spaces
        if (s.cfg.trapmask >> t) & 1:
            C[t - 1] = 1.0
    if s.roll >= 0:  # KK-5: the face shown
        Dr[s.roll] = 1.0
    if s.seat != TERMINAL_SEAT:
        k = s.seat - p
        if k < 0:
            k += n
        E[k] = 1.0
        if s.roll < 0:  # a chance node (explicit chance)
            E[n] = 1.0
    for q in range(n):  # KK-13: 1 / (1 + rank) in the tie-break order (equal keys, equal rank)
        x = kk_tie_key(s, q)
        if x < 0:
            continue
        r = 0
        for t in range(n):
            if 0 <= kk_tie_key(s, t) < x:
                r += 1
        k = q - p
        if k < 0:
            k += n
        F[k] = <float>(1.0 / (1 + r))


cdef inline int kk_obs_size(const kk_cfg_t* cfg) noexcept nogil:
    """Floats in one observation (``Kasimir.observation_shape[0]``)."""
    cdef int n = cfg.n, L = cfg.L
    return n * (L + 2) + L * n * cfg.m * n + 2 * L + cfg.nfaces + 2 * n + 1


cdef void kk_canon(kk_t* s) noexcept nogil:
    """Renumber the mice as ``from_dict`` numbers them: seat q's mice on the track get ids
    q * 8 + 0, 1, ... in the order of the spaces (1 .. L) and, within a tower, bottom first;
    ``below`` is KK_NONE for every mouse not on the track. Mouse ids are not part of the
    position (``to_dict`` shows owners only), so this changes nothing but the bytes: after it,
    the struct is the one the position's dict loads into."""
    cdef uint8_t nb[32]
    cdef uint8_t tower[32]
    cdef int nid[KK_MAX_PLAYERS]
    cdef int sp, h, x, y, q, under
    # the spaces that hold a mouse, ascending: a free top mouse, or a trap's caught mouse alone
    cdef uint64_t bits = s.free[0] | s.free[1] | s.free[2] | s.free[3] | s.full
    memset(nb, KK_NONE, sizeof(nb))
    nid[0] = 0; nid[1] = 0; nid[2] = 0; nid[3] = 0
    while bits:
        sp = ctz64(bits)
        bits &= bits - 1
        x = s.top[sp]
        h = 0
        while x != KK_NONE:  # top down
            tower[h] = <uint8_t>x
            h += 1
            x = s.below[x]
        under = KK_NONE
        while h > 0:  # bottom up
            h -= 1
            q = tower[h] >> 3
            y = q * KK_MAX_MICE + nid[q]
            nid[q] += 1
            nb[y] = <uint8_t>under
            under = y
        s.top[sp] = <uint8_t>under
    memcpy(s.below, nb, sizeof(nb))


cdef inline void kk_determinize "core_determinize"(kk_t* s, int p, uint64_t seed) noexcept nogil:
    """KK-14: every seat sees the whole position (``p`` is not read: the same for every
    seat); only the future rolls are hidden, so the determinization draws a new generator
    (``Kasimir._determinize``: ``Rng(seed).next64()``) and keeps the rest (in the canonical
    numbering of the mice: the struct ``from_dict`` of the view gives)."""
    kk_canon(s)
    s.rng = rng_derive(seed, 0)


# ---- the C-level game interface (mh_game_t, _cgame.pxd)  ------------------------------------

cdef void g_dims(const void* v, mh_dims_t* d) noexcept nogil:
    cdef const kk_t* s = <const kk_t*>v
    d.players = s.cfg.n
    d.num_actions = s.cfg.num_actions
    d.obs_size = kk_obs_size(&s.cfg)
    # KK-6: at most m free starts (the pantry counts only while a mouse is in it), each with
    # at most D distances; at a chance node, one outcome per face (KK-3)
    d.has_evaluate = 1
    d.max_legal = s.cfg.m * s.cfg.D
    if d.max_legal < s.cfg.nfaces:
        d.max_legal = s.cfg.nfaces


cdef int g_legal(const void* v, int32_t* out) noexcept nogil:
    cdef const kk_t* s = <const kk_t*>v
    if s.roll < 0:  # a chance node (or the end): no player action
        return 0
    return kk_legal(s, out)


cdef int g_chance(const void* v, int32_t* out, double* prob) noexcept nogil:
    """KK-3: every face equally likely, at a chance node (explicit chance) only."""
    cdef const kk_t* s = <const kk_t*>v
    cdef int i, k = s.cfg.nfaces
    if s.seat == TERMINAL_SEAT or s.roll >= 0:
        return 0
    for i in range(k):
        out[i] = s.cfg.P + i
        prob[i] = 1.0 / k
    return k


cdef void g_observe(const void* v, int p, float* out) noexcept nogil:
    cdef const kk_t* s = <const kk_t*>v
    memset(out, 0, <size_t>kk_obs_size(&s.cfg) * sizeof(float))
    kk_observe(s, p, out)


cdef void g_mask(const void* v, uint8_t* out) noexcept nogil:
    cdef const kk_t* s = <const kk_t*>v
    memset(out, 0, <size_t>s.cfg.num_actions)
    kk_legal_mask(s, out)


cdef int g_truncated(const void* s) noexcept nogil:
    return (<const kk_t*>s).truncated


cdef int g_random_step(void* s, rng_t* policy) noexcept nogil:
    return kk_random_step(<kk_t*>s, policy)


# ---- configuration ----------------------------------------------------------------------------

cdef int kk_fill_cfg "core_fill_cfg"(object game, kk_cfg_t* cfg) except -1:
    """The constants of ``game`` into ``cfg`` (zero-filled, its ``n`` set: ``fill_cfg``, the
    cache of ``_boundary``)."""
    cdef int i
    cfg.L = game.track_length
    cfg.m = game.mice
    cfg.D = game.max_distance
    cfg.P = game.num_move_actions
    cfg.nfaces = game.num_faces
    cfg.clover = game.clover
    cfg.max_turns = game.max_turns if game.max_turns < 1000000000 else 1000000000
    cfg.explicit = 1 if game.explicit_chance else 0
    cfg.num_actions = game.num_actions
    cfg.tie = game.tie
    cfg.elim_out = 1 if game.elim_out else 0
    cfg.last_out = 1 if game.last_out else 0
    for t in game.traps:
        cfg.trapmask |= bit(t)
    for i in range(cfg.nfaces):
        cfg.face_step[i] = game.face_steps[i]
    return 0


cdef void sim_range(const void* v, uint64_t seed, Py_ssize_t start, Py_ssize_t stop,
                    const sim_out_t* out) noexcept nogil:
    """``simulate``'s games ``start .. stop - 1`` (``run_sim_chunk``): game ``i`` is
    ``kk_sim_game`` of ``derive(seed, 2i)`` with the policy ``derive(seed, 2i + 1)``."""
    cdef const kk_cfg_t* cfg = <const kk_cfg_t*>v
    cdef kk_t s
    cdef rng_t policy
    cdef int mask
    cdef Py_ssize_t i
    s.cfg = cfg[0]
    for i in range(start, stop):
        policy = rng_derive(seed, 2 * <uint64_t>i + 1)
        mask = kk_sim_game(&s, rng_derive(seed, 2 * <uint64_t>i), &policy)
        kk_scores(&s, out.scores + (i - start) * out.sstride)
        sim_row(out, i - start, cfg.n, <const int64_t*>NULL, mask, s.nhist, <uint8_t>s.truncated)


# ---- written once for every core (_cgame_core.pxi) ------------------------------------------
# The slot functions over this core's role functions (``core_<role>``, above), ``fill_cfg``
# over ``kk_fill_cfg``, ``VectorGame``'s loop, and this core's table and description
# (``CORE_GAME``, ``CORE``), of its struct and constants:
ctypedef kk_t core_state_t
ctypedef kk_cfg_t core_cfg_t
include "_cgame_core.pxi"


# ---- the Python-facing class ------------------------------------------------------------------

# No cycle goes through a state: it holds its game, and a game holds no state (its cached
# ``_compiled_cfg`` is a capsule of constants), so the core is not traversed by the GC.
@cython.no_gc
cdef class KasimirCore(StateCore):
    """Compiled Kater Kasimir state. Use ``game.new_state(seed)``; the public class is
    ``mousehole.kasimir.CompiledKasimirState`` (this core + the shared API)."""

    _core_capsule = core_capsule(&CORE)  # (StateCore finds the core by it)

    @classmethod
    def _from_valid_dict(cls, game, dict d):
        cdef KasimirCore st = <KasimirCore>state_loaded(cls, game)
        cdef int p, s, x, below, k
        cdef int nid[KK_MAX_PLAYERS]
        cdef uint64_t b
        kk_deal(&st.s, 0)
        st.s.on_way = 0
        for p in range(st.s.cfg.n):
            st.s.pantry[p] = d["pantry"][p]
            st.s.home[p] = d["home"][p]
            st.s.first_home[p] = d["first_home"][p]
            if st.s.cfg.tie == 1:  # tie_break="first_finished"
                st.s.last_home[p] = d["last_home"][p]
            elif st.s.cfg.tie == 2:  # tie_break="fewest_turns"
                st.s.home_round[p] = d["home_round"][p]
            if st.s.cfg.last_out:  # all_eliminated="last_out_wins"
                st.s.out_at[p] = d["out_at"][p]
            st.s.on_way += st.s.pantry[p]
            nid[p] = 0
        for s in range(1, st.s.cfg.L + 1):
            stack = d["track"][s - 1]
            b = bit(s)
            below = KK_NONE
            for k, q in enumerate(stack):
                p = q
                x = p * KK_MAX_MICE + nid[p]
                nid[p] += 1
                st.s.below[x] = <uint8_t>below
                below = x
                if k == 0 and (st.s.cfg.trapmask & b):
                    st.s.full |= b  # KK-9: the bottom mouse of a trap space is the trapped one
                else:
                    st.s.on_way += 1
            st.s.top[s] = <uint8_t>below
            if below != KK_NONE and not (len(stack) == 1 and (st.s.full & b)):
                st.s.free[below >> 3] |= b
        history = d["history"]
        st.s.nhist = len(history)
        st.s.moves = 0
        for k, a in enumerate(history):
            hist_put(st, k, a)
            if a < st.s.cfg.P:
                st.s.moves += 1
        if st.s.cfg.tie == 2:
            st.s.round = d["round"]
        st.s.seat = d["seat"]
        st.s.roll = -1 if d["roll"] is None else d["roll"]
        st.s.rng = d["rng"]
        st.s.truncated = 1 if d["truncated"] else 0
        return st

    cdef int _admit(self, int64_t a) except -1:
        """1 for a move (``start * D + distance - 1``, KK-6) or, at a chance node, a die face
        (``P + i``, KK-5) that the rules allow now (``kk_is_legal``), once it is in the
        history (the interface's ``apply`` counts it in ``s.nhist``); else 0."""
        if not kk_is_legal(&self.s, a):
            return 0
        hist_put(self, self.s.nhist, <int>a)
        return 1

    def free_starts(self, p):
        """KK-6: start spaces of seat p's free mice, ascending (0 = the pantry stack);
        ``TypeError`` / ``ValueError`` for what is not a seat (``_api.check_seat``)."""
        cdef uint64_t bits
        cdef int q = seat_arg(self.game, self.s.cfg.n, p, "p")
        bits = self.s.free[q]
        out = [0] if self.s.pantry[q] else []
        while bits:
            out.append(ctz64(bits))
            bits &= bits - 1
        return out

    def on_the_way(self):
        """Mice neither home nor trapped (KK-12)."""
        return self.s.on_way

    def _to_dict(self):
        cdef int p, sp, x
        d = self.game._header()
        d["pantry"] = [self.s.pantry[p] for p in range(self.s.cfg.n)]
        track = []
        for sp in range(1, self.s.cfg.L + 1):
            st = []
            x = self.s.top[sp]
            while x != KK_NONE:
                st.append(x >> 3)
                x = self.s.below[x]
            st.reverse()
            track.append(st)
        d["track"] = track
        d["home"] = [self.s.home[p] for p in range(self.s.cfg.n)]
        d["first_home"] = [self.s.first_home[p] for p in range(self.s.cfg.n)]
        if self.s.cfg.tie == 1:  # tie_break="first_finished" (the keys of Kasimir.STATE_KEYS)
            d["last_home"] = [self.s.last_home[p] for p in range(self.s.cfg.n)]
        elif self.s.cfg.tie == 2:  # tie_break="fewest_turns"
            d["round"] = self.s.round
            d["home_round"] = [self.s.home_round[p] for p in range(self.s.cfg.n)]
        if self.s.cfg.last_out:  # all_eliminated="last_out_wins"
            d["out_at"] = [self.s.out_at[p] for p in range(self.s.cfg.n)]
        d["seat"] = self.s.seat
        d["roll"] = None if self.s.roll < 0 else self.s.roll
        d["rng"] = self.s.rng
        d["history"] = self.history
        d["truncated"] = bool(self.s.truncated)
        return d


cdef KasimirCore _BLANK = KasimirCore.__new__(KasimirCore)  # (kept: a blank state, where the struct lies)
core_place(&CORE, _BLANK, &_BLANK.s)

