# The loop of ``VectorGame`` (batched stepping, ``_vector.pyx``), written once. Included by
# ``_vblock_core.pxi`` into every compiled core, over the core's own functions (direct calls,
# which the C compiler inlines: the table's ``vector_block``), and into ``_vector.pyx`` over
# the table ``mh_game_t`` (for a game without ``vector_block``). The includer defines, before
# this file, the game's calls on a state ``s`` (``g`` is the table; a core ignores it):
# ``vb_current(g, s)``, ``vb_apply(g, s, a)``, ``vb_random_step(g, s, policy, buf)`` (as
# ``mh_random_step``), ``vb_returns(g, s, out)``, ``vb_truncated(g, s)``,
# ``vb_reset(g, s, seed)``, ``vb_chance(g, s, out, prob)``, ``vb_observe(g, s, p, out)`` and
# ``vb_mask(g, s, out)``. What the loop does (seeds, draws, restarts, outputs) is specified in
# ``_vector.pyx``'s docstring and src/mousehole/vector.py.

from libc.string cimport memset, memcpy
from mousehole._rng cimport rng_t, rng_next, rng_below, rng_derive, uint8_t, int32_t, uint32_t, int64_t, uint64_t
from mousehole._bits cimport mh_inline_void  # (``vb_step_envs``: a loop for each value of its constant)
from mousehole._cgame cimport mh_game_t, mh_vec_t, CHANCE_SEAT, TERMINAL_SEAT, MH_JOB_RESET, MH_VEC_SEATS

# The rare parts of a step (the end of a game, other seats, chance) are functions of their own,
# never inlined into the loop: inlined, their values pressed the loop's out of registers (gcc
# then reloaded a dozen locals from the stack at every env).
cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define MH_NOINLINE_INT __attribute__((noinline)) int
    #else
    #define MH_NOINLINE_INT int
    #endif
    """
    ctypedef int mh_noinline_int "MH_NOINLINE_INT"


# The next env's struct asked for while this env steps: where a core's states at 1,024 envs
# outgrow the second-level cache (M's 1.4 kB: 1.4 MB), each step would otherwise wait for its
# lines. A core defines ``MH_VB_PREFETCH_BYTES`` (how many bytes from its struct's start a
# step reads first: its hot fields lead the struct) before its include; 0, the default,
# asks for nothing (a struct that stays in the cache gains nothing and pays the requests).
cdef extern from *:
    """
    #ifndef MH_VB_PREFETCH_BYTES
    #define MH_VB_PREFETCH_BYTES 0
    #endif
    static inline void mh_vb_prefetch(const char* p) {
    #if (defined(__GNUC__) || defined(__clang__)) && MH_VB_PREFETCH_BYTES > 0
        int off;
        for (off = 0; off < MH_VB_PREFETCH_BYTES; off += 64)
            __builtin_prefetch(p + off);
    #else
        (void)p;
    #endif
    }
    """
    int MH_VB_PREFETCH_BYTES
    void mh_vb_prefetch(const char* p) noexcept nogil


cdef inline int32_t vb_chance_pick(mh_vec_t* v, Py_ssize_t i, int tid) noexcept nogil:
    """A chance outcome drawn from env ``i``'s generator: ``below(n)`` when the outcomes are
    equally likely, else the first outcome whose cumulative probability exceeds
    ``u = (next64 >> 11) * 2**-53`` (the last one if rounding leaves none)."""
    cdef void* s = v.states + i * v.stride
    cdef int32_t* out = v.scratch_out + tid * v.d.max_legal
    cdef double* prob = v.scratch_prob + tid * v.d.max_legal
    cdef int n = vb_chance(v.g, s, out, prob)
    cdef int j
    cdef bint uniform = True
    cdef double u, c
    for j in range(1, n):
        if prob[j] != prob[0]:
            uniform = False
            break
    if uniform:
        return out[rng_below(&v.rng[i], <uint32_t>n)]
    u = <double>(rng_next(&v.rng[i]) >> 11) * (1.0 / 9007199254740992.0)
    c = 0.0
    for j in range(n):
        c += prob[j]
        if u < c:
            return out[j]
    return out[n - 1]


cdef inline int vb_advance(mh_vec_t* v, Py_ssize_t i, int tid) noexcept nogil:
    """Resolve chance nodes and play the seats that are not the caller's (uniform random
    legal actions) until a caller's seat is to move or the game is over; that seat (or
    ``TERMINAL_SEAT``), so that a step asks the game for it once."""
    cdef void* s = v.states + i * v.stride
    cdef int32_t* buf = v.scratch_out + tid * v.d.max_legal
    cdef int c = vb_current(v.g, s)
    while True:
        if c == TERMINAL_SEAT:
            return c
        if c == CHANCE_SEAT:
            vb_apply(v.g, s, vb_chance_pick(v, i, tid))
            c = vb_current(v.g, s)
        elif v.seat_is_caller[c]:
            return c
        else:
            c = vb_random_step(v.g, s, &v.rng[i], buf)


cdef mh_noinline_int vb_start_game(mh_vec_t* v, Py_ssize_t i, int64_t k, int tid) noexcept nogil:
    """Env ``i``'s game ``k``: ``reset`` with ``derive(env_seed, 2k)``, generator
    ``derive(env_seed, 2k + 1)``, then advance to a caller's seat; a game that ends before any
    caller's seat is to move is skipped (the next ``k`` starts). The seat to move."""
    cdef void* s = v.states + i * v.stride
    cdef int c
    while True:
        vb_reset(v.g, s, rng_derive(v.env_seed[i], <uint64_t>(2 * k)))
        v.rng[i] = rng_derive(v.env_seed[i], <uint64_t>(2 * k + 1))
        c = vb_advance(v, i, tid)
        if c != TERMINAL_SEAT:
            break
        k += 1
    v.game_k[i] = k
    return c


cdef mh_noinline_int vb_settle(mh_vec_t* v, Py_ssize_t i, int tid, int seat, int c) noexcept nogil:
    """Env ``i`` after ``seat``'s action, ``c`` (the seat to move) not a caller's seat: chance
    and the other seats played (``vb_advance``); at the end, the returns into the rewards, the
    final observation (with ``observe``), ``truncated`` or ``terminated`` and the next game.
    The caller's seat to move."""
    cdef void* s = v.states + i * v.stride
    cdef int p, players = v.d.players
    cdef double r[MH_VEC_SEATS]
    c = vb_advance(v, i, tid)
    if c == TERMINAL_SEAT:
        vb_returns(v.g, s, r)
        for p in range(players):
            v.rewards[i * players + p] = r[p]
        if v.observe:
            vb_observe(v.g, s, seat, v.final_obs + i * v.d.obs_size)
        if vb_truncated(v.g, s):
            v.truncated[i] = 1
        else:
            v.terminated[i] = 1
        c = vb_start_game(v, i, v.game_k[i] + 1, tid)
    return c


cdef inline void vb_publish_obs(mh_vec_t* v, void* s, Py_ssize_t i, int c) noexcept nogil:
    """Env ``i``'s action mask (the game's ``mask``, written without listing the actions; bool
    and 0/1 bytes are the same) and seat ``c``'s observation, into its rows."""
    vb_mask(v.g, s, v.mask + i * v.d.num_actions)
    vb_observe(v.g, s, c, v.obs + i * v.d.obs_size)


cdef mh_inline_void vb_step_envs(mh_vec_t* v, Py_ssize_t lo, Py_ssize_t hi, int tid,
                                 bint observe) noexcept nogil:
    """The step of envs ``lo`` .. ``hi - 1`` (each env's action or, ``RANDOM``, a draw; then
    chance, other seats, the end of a game), its seat to move into ``seat_now`` and, with
    ``observe`` (a constant at each call: the compiler makes a loop for each value), its
    action mask and observation (``vb_publish_obs``), while the env's struct is in the cache."""
    cdef const mh_game_t* g = v.g
    cdef char* states = v.states
    cdef size_t stride = v.stride
    cdef int32_t* seat_now = v.seat_now
    cdef const int64_t* acts = v.acts
    cdef const uint8_t* seat_is_caller = v.seat_is_caller
    cdef rng_t* rng = v.rng
    cdef int32_t* buf = v.scratch_out + tid * v.d.max_legal
    cdef Py_ssize_t i
    cdef int c
    cdef int64_t a
    cdef void* s
    for i in range(lo, hi):
        s = states + i * stride
        if MH_VB_PREFETCH_BYTES > 0 and i + 1 < hi:
            mh_vb_prefetch(states + (i + 1) * stride)
        a = acts[i]
        if a < 0:  # RANDOM: a uniform legal action from the env's generator
            c = vb_random_step(g, s, &rng[i], buf)
        else:
            vb_apply(g, s, <int32_t>a)
            c = vb_current(g, s)
        if c < 0 or not seat_is_caller[c]:  # the end, chance or another seat (rare)
            c = vb_settle(v, i, tid, seat_now[i], c)
        seat_now[i] = c
        if observe:
            vb_publish_obs(v, s, i, c)


cdef inline void vb_run_block(mh_vec_t* v, Py_ssize_t lo, Py_ssize_t hi, int tid) noexcept nogil:
    """The job ``v.job`` on envs ``lo`` .. ``hi - 1``: first the outputs every env gets
    whatever happens (``acted``; zero rewards and flags, which an ended game overwrites), then
    the envs' steps (``vb_step_envs``, or the first games' starts), then what a step publishes
    besides (the seat to move, the game index, the unlisted legal actions). The outputs are
    contiguous runs written by ``memset`` / ``memcpy``, so that the stepping loop holds only
    what a step reads (its pointers stay in registers across the game's calls: a store into
    the caller's arrays may alias anything, and a call may write any memory)."""
    cdef size_t n = <size_t>(hi - lo)
    cdef Py_ssize_t i
    cdef int c
    memset(v.rewards + lo * v.d.players, 0, n * <size_t>v.d.players * sizeof(double))
    memset(v.terminated + lo, 0, n)
    memset(v.truncated + lo, 0, n)
    if v.job == MH_JOB_RESET:
        for i in range(lo, hi):
            c = vb_start_game(v, i, 0, tid)
            v.seat_now[i] = c
            if v.observe:
                vb_publish_obs(v, v.states + i * v.stride, i, c)
    else:
        memcpy(v.acted + lo, v.seat_now + lo, n * sizeof(int32_t))
        if v.observe:
            vb_step_envs(v, lo, hi, tid, 1)
        else:
            vb_step_envs(v, lo, hi, tid, 0)
    # the seat to move published; the legal actions are listed only when a check or a call
    # needs them (``known_legal``; -1 here, all bytes 0xFF): ``RANDOM`` and the other seats
    # draw without a list
    memset(v.nlegal + lo, 0xFF, n * sizeof(int32_t))
    memcpy(v.current + lo, v.seat_now + lo, n * sizeof(int32_t))
    memcpy(v.game_index + lo, v.game_k + lo, n * sizeof(int64_t))
