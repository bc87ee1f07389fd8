# cython: language_level=3
"""The C-level game interface of mousehole (``mh_game_t``): what every compiled core fills in
and what search (``_search.pyx``), batched stepping (``_vector.pyx``) and the probe
``_cgame.CGame`` are written over, once for all games. Declarations and inline helpers
only: cimporting it needs no module at run time."""

from libc.stdint cimport uint8_t, int32_t, uint32_t, int64_t, uint64_t
from cpython.pycapsule cimport PyCapsule_New, PyCapsule_GetPointer

from mousehole._rng cimport rng_t, rng_below

cdef enum:
    CHANCE_SEAT = -1       # ``current`` at a chance node (``mousehole.CHANCE``)
    TERMINAL_SEAT = -4     # ``current`` at the end (``mousehole.TERMINAL``)

# Every compiled core fills in one static ``mh_game_t`` (its functions work on the core's
# state struct, ``cr_t``, ``m_t``, ``kk_t`` or ``mc_t``, passed as ``void*``), so that search
# (``_search.pyx``) and batched stepping (``_vector.pyx``) are written once for all games.
# A copy of a state struct is ``memcpy(dst, src, game.size)``; it is valid while the state
# object it was copied from lives (M's struct points at its game's constants, which that
# object holds; the other cores' hold no pointer). The action history of M, Kater Kasimir
# and Maus au Chocolat lives outside the struct (in the Python object) and is not part of
# this interface.
# Every function is ``noexcept nogil`` and trusts its input: actions passed to ``apply`` are
# legal, seats are in range, ``out`` buffers are large enough (sizes from ``dims``).
# A compiled state exposes it with two methods: ``state._c_game()`` returns a capsule named
# ``MH_GAME_CAPSULE`` holding ``const mh_game_t*``, and ``state._c_state()`` a capsule named
# ``MH_STATE_CAPSULE`` holding the address of its struct (valid while the state lives).

ctypedef struct mh_dims_t:
    int32_t players        # seats
    int32_t num_actions    # the game's action space (player actions and chance outcomes)
    int32_t obs_size       # floats in one observation (the product of observation_shape)
    int32_t max_legal      # an upper bound on the number of legal actions or chance outcomes
    # 1 when the game fills in ``mh_game_t.evaluate`` (added after the fields above: a core
    # built before it never writes this field, so a caller zeroes the struct before ``dims``
    # and reads ``evaluate`` only when this says 1; ``mh_evaluate_of`` does that)
    int32_t has_evaluate

ctypedef struct mh_game_t:
    const char* name                                      # the game id ("cheese_rescue", ...)
    size_t size                                           # bytes of one state struct
    void (*dims)(const void* s, mh_dims_t* d) noexcept nogil
    # The state ``game.new_state(seed)`` would give, in place; ``s``'s constants (``cfg``)
    # must already be set (copy a prototype struct first).
    void (*reset)(void* s, uint64_t seed) noexcept nogil
    int (*current)(const void* s) noexcept nogil          # seat, CHANCE_SEAT or TERMINAL_SEAT
    # The legal player actions, ascending, into ``out``; returns their number (0 at a chance
    # node or at the end): the same list as ``state.legal_actions()``.
    int (*legal)(const void* s, int32_t* out) noexcept nogil
    void (*apply)(void* s, int32_t a) noexcept nogil      # a legal action, or a chance outcome
    # At a chance node: the outcomes (ascending) and their probabilities, as
    # ``state.chance_outcomes()``; returns their number (0 elsewhere).
    int (*chance)(const void* s, int32_t* out, double* prob) noexcept nogil
    void (*returns)(const void* s, double* out) noexcept nogil   # as ``state.returns()``
    # Plays to the end as ``simulate`` plays (its action model), drawing from ``policy``;
    # chance nodes, if any, are resolved as ``simulate`` resolves them.
    void (*rollout)(void* s, rng_t* policy) noexcept nogil
    # Optional (NULL when a game has none): ``rollout`` then ``returns`` in one call, with the
    # same draws and the same returns, for a game that plays faster without keeping its
    # struct up to date; ``s`` is scratch afterwards. ``mh_playout`` picks it or the pair.
    void (*playout)(void* s, rng_t* policy, double* out) noexcept nogil
    # Optional (NULL when a game has none): one action of ``rollout``'s policy, a seat being
    # to move: ``apply(legal[below(n)])`` with the same draw, without listing the actions;
    # returns ``current`` after it (the game knows it at no cost: a caller that steps on
    # saves a call). ``mh_random_step`` picks it or the list.
    int (*random_step)(void* s, rng_t* policy) noexcept nogil
    # In place: what seat ``p`` cannot see is re-dealt from ``seed``; the result equals
    # ``state.determinize(p, seed)`` (the Python determinization of p's view), struct for
    # struct, and depends only on what ``p`` may see.
    void (*determinize)(void* s, int p, uint64_t seed) noexcept nogil
    void (*observe)(const void* s, int p, float* out) noexcept nogil   # as ``observation(p)``
    void (*mask)(const void* s, uint8_t* out) noexcept nogil   # as ``legal_action_mask()``, 0/1
    int (*truncated)(const void* s) noexcept nogil        # 1 when cut by the turn limit (``state.truncated``)
    # Optional (NULL when a game has none; appended last, read it through
    # ``mh_evaluate_of``): per seat, a cheap heuristic value of the position for that seat
    # (higher is better; the seat's ``Game.greedy_value`` is its value minus the best value
    # among the other seats), into ``out`` (``players`` doubles), at a seat's node or a chance
    # node. The strong search (``_search.pyx``) ends its truncated play-outs with it.
    void (*evaluate)(const void* s, double* out) noexcept nogil
    # Optional (NULL when a game has none; appended last): ``VectorGame``'s job on a block
    # of envs, ``v`` an ``mh_vec_t*`` (below), envs ``lo`` .. ``hi - 1``, scratch row
    # ``tid``. A core fills it with the loop of ``_vblock.pxi`` compiled over its own
    # functions (``_vblock_core.pxi``, in ``_cgame_core.pxi``: direct calls the C compiler
    # can inline); ``_vector.pyx`` runs the same loop through this table when it is NULL.
    void (*vector_block)(void* v, Py_ssize_t lo, Py_ssize_t hi, int tid) noexcept nogil
    # The bytes at the start of a state struct that no slot function ever changes (the
    # game's constants: ``core_fixed``, ``_cgame_core.pxi``; appended last, 0 for none): a
    # copy into a struct that already holds a copy of a state of the same game object may
    # start there, as the search's copy per iteration does (``memcpy(dst + fixed, src +
    # fixed, size - fixed)``).
    size_t fixed

# The slots' types (``mh_game_def``'s parameters). A core fills each slot with a function of
# exactly that type (``g_<slot>``, taking ``void*`` and calling the core's function on its
# struct; those that only call one are written once for every core, ``_cgame_core.pxi``):
# calling a function through a pointer of another type is undefined in C, whatever the ABI does.
ctypedef void (*mh_dims_f)(const void* s, mh_dims_t* d) noexcept nogil
ctypedef void (*mh_reset_f)(void* s, uint64_t seed) noexcept nogil
ctypedef int (*mh_current_f)(const void* s) noexcept nogil
ctypedef int (*mh_legal_f)(const void* s, int32_t* out) noexcept nogil
ctypedef void (*mh_apply_f)(void* s, int32_t a) noexcept nogil
ctypedef int (*mh_chance_f)(const void* s, int32_t* out, double* prob) noexcept nogil
ctypedef void (*mh_values_f)(const void* s, double* out) noexcept nogil   # returns, evaluate
ctypedef void (*mh_rollout_f)(void* s, rng_t* policy) noexcept nogil
ctypedef void (*mh_playout_f)(void* s, rng_t* policy, double* out) noexcept nogil
ctypedef int (*mh_random_step_f)(void* s, rng_t* policy) noexcept nogil
ctypedef void (*mh_determinize_f)(void* s, int p, uint64_t seed) noexcept nogil
ctypedef void (*mh_observe_f)(const void* s, int p, float* out) noexcept nogil
ctypedef void (*mh_mask_f)(const void* s, uint8_t* out) noexcept nogil
ctypedef int (*mh_truncated_f)(const void* s) noexcept nogil
ctypedef void (*mh_vector_block_f)(void* v, Py_ssize_t lo, Py_ssize_t hi, int tid) noexcept nogil


cdef inline void mh_game_def(mh_game_t* g, const char* name, size_t size, mh_dims_f dims,
                             mh_reset_f reset, mh_current_f current, mh_legal_f legal,
                             mh_apply_f apply, mh_chance_f chance, mh_values_f returns,
                             mh_rollout_f rollout, mh_playout_f playout,
                             mh_random_step_f random_step, mh_determinize_f determinize,
                             mh_observe_f observe, mh_mask_f mask, mh_truncated_f truncated,
                             mh_values_f evaluate, mh_vector_block_f vector_block,
                             size_t fixed) noexcept:
    """Fill a core's table ``g`` (every slot, in the order of ``mh_game_t``), once, when its
    module is imported."""
    g.name = name
    g.size = size
    g.dims = dims
    g.reset = reset
    g.current = current
    g.legal = legal
    g.apply = apply
    g.chance = chance
    g.returns = returns
    g.rollout = rollout
    g.playout = playout
    g.random_step = random_step
    g.determinize = determinize
    g.observe = observe
    g.mask = mask
    g.truncated = truncated
    g.evaluate = evaluate
    g.vector_block = vector_block
    g.fixed = fixed


cdef inline void mh_playout(const mh_game_t* g, void* s, rng_t* policy, double* out) noexcept nogil:
    """Play ``s`` to the end as ``rollout`` and write its returns (``s`` is scratch after)."""
    if g.playout != NULL:
        g.playout(s, policy, out)
    else:
        g.rollout(s, policy)
        g.returns(s, out)


cdef inline void mh_zero_dims(mh_dims_t* d) noexcept nogil:
    """Every field of ``d`` 0 (call before ``dims``: fields a core does not know stay 0)."""
    d.players = 0
    d.num_actions = 0
    d.obs_size = 0
    d.max_legal = 0
    d.has_evaluate = 0


cdef inline void* mh_evaluate_of(const mh_game_t* g, const void* s) noexcept nogil:
    """``g.evaluate`` (as a ``void*``; NULL when the game has none or its core was built
    before the field existed)."""
    cdef mh_dims_t d
    mh_zero_dims(&d)
    g.dims(s, &d)
    if d.has_evaluate != 1:
        return NULL
    return <void*>g.evaluate


cdef inline int mh_random_step(const mh_game_t* g, void* s, rng_t* policy, int32_t* buf) noexcept nogil:
    """A seat being to move: apply a uniformly random legal action, ``legal[below(n)]``
    (``buf``: room for ``max_legal`` actions, used when the game has no ``random_step``);
    ``current`` after it."""
    cdef int n
    if g.random_step != NULL:
        return g.random_step(s, policy)
    n = g.legal(s, buf)
    g.apply(s, buf[rng_below(policy, <uint32_t>n)])
    return g.current(s)


# ---- batched stepping: what ``VectorGame``'s loop (``_vblock.pxi``) works on -----------------
#
# The loop is written once, in ``_vblock.pxi``, over ``vb_*`` calls; each core compiles it
# over its own functions (``_vblock_core.pxi``, the table's ``vector_block``), and
# ``_vector.pyx`` over this table (for a game without the slot). ``_vector.pyx`` owns the
# buffers, the threads and the checks; the semantics are in its docstring.

cdef enum:
    MH_JOB_RESET = 0       # start every env's game 0
    MH_JOB_STEP = 1        # apply ``acts`` (``RANDOM`` < 0: a uniform legal action)
    MH_JOB_STOP = 2        # (the workers end)
    MH_VEC_SEATS = 16      # the most seats a vectorized game may have (``seat_is_caller``)

ctypedef struct mh_vec_t:
    const mh_game_t* g
    mh_dims_t d
    Py_ssize_t n              # envs
    size_t stride             # bytes per state struct (size rounded up to 16)
    char* states              # n structs
    int32_t* legal            # n * max_legal: the legal actions of each env's seat to move
    int32_t* nlegal           # n
    rng_t* rng                # n: each env's generator for its current game
    uint64_t* env_seed        # n: derive(seed, i)
    int64_t* game_k           # n: each env's game index (private; published to game_index)
    int32_t* seat_now         # n: each env's seat to move (private; published to current)
    int64_t* game_index       # n (numpy, the caller's: written, never read)
    int32_t* acted            # n: the seat whose action the step applied
    uint8_t seat_is_caller[MH_VEC_SEATS]
    # outputs (numpy arrays of the caller)
    float* obs                # n * obs_size
    float* final_obs          # n * obs_size
    double* rewards           # n * players
    uint8_t* terminated       # n
    uint8_t* truncated        # n
    int32_t* current          # n (written, never read)
    uint8_t* mask             # n * num_actions
    # the job
    int job
    int observe
    int64_t* acts             # n: the private copy of the actions of a step (MH_JOB_STEP)
    # per-thread scratch: chance outcomes and their probabilities
    int32_t* scratch_out      # threads * max_legal
    double* scratch_prob      # threads * max_legal


cdef extern from *:
    """
    #define MH_GAME_CAPSULE "mousehole.game"
    #define MH_STATE_CAPSULE "mousehole.state"
    """
    const char* MH_GAME_CAPSULE
    const char* MH_STATE_CAPSULE


cdef inline object game_capsule(const mh_game_t* g):
    """What a core's ``_c_game()`` returns."""
    return PyCapsule_New(<void*>g, MH_GAME_CAPSULE, NULL)


cdef inline object state_capsule(void* s):
    """What a core's ``_c_state()`` returns (the struct's address; keep the state alive)."""
    return PyCapsule_New(s, MH_STATE_CAPSULE, NULL)


cdef inline const mh_game_t* game_of(object state) except NULL:
    """The interface of a compiled state (TypeError for anything else)."""
    if not hasattr(state, "_c_game"):
        raise TypeError(f"{type(state).__name__} is not a compiled mousehole state "
                        "(load the game with engine='compiled')")
    return <const mh_game_t*>PyCapsule_GetPointer(state._c_game(), MH_GAME_CAPSULE)


cdef inline void* state_of(object state) except NULL:
    """The address of a compiled state's struct (valid while ``state`` lives)."""
    return PyCapsule_GetPointer(state._c_state(), MH_STATE_CAPSULE)
