# What every compiled core gives the rest of the package, written once for all of them: the
# slot functions of its C-level game interface (``mh_game_t``, ``_cgame.pxd``) that only call
# one of the core's own functions, ``fill_cfg`` (the cache of its constants, ``_boundary.pxd``)
# likewise, ``VectorGame``'s loop over them (``_vblock_core.pxi``), and ``core_describe``,
# which fills the core's table and its description (``core_t``, ``_statecore.pxd``).
#
# A core, above ``include "_cgame_core.pxi"``:
# - defines each role function of the ``cdef extern`` block below under its own Cython name
#   ``<p>_<role>`` and the C name ``core_<role>``, e.g. ``cdef void m_apply "core_apply"(m_t*
#   s, int a) noexcept nogil:`` (each core is its own C file, so the names never meet); one
#   missing, defined below the include, or of another signature does not compile;
# - defines the slots whose function is its own code: ``g_dims``, ``g_legal``, ``g_chance``,
#   ``g_random_step``, ``g_observe``, ``g_mask``, ``g_truncated``; and ``sim_range``
#   (``run_sim_chunk``, ``_boundary.pxd``);
# - names its state struct ``core_state_t`` and its constants ``core_cfg_t`` (``ctypedef``);
#   the struct's field ``cfg`` holds the constants (or, M's, points at them).
# The include then fills, at import, the core's table ``CORE_GAME`` and its description
# ``CORE`` (``core_describe``), which the core's class names (``core_capsule(&CORE)``) and
# places (``core_place``). The game's id is the module's name without ``mousehole._`` (the
# core of game ``<id>`` is ``mousehole._<id>``), the capsule of its constants ``<module>.cfg``.
#
# Why a function per slot: the table's slots take ``void*``, and calling a function through a
# pointer of another type is undefined in C. gcc inlines the core's function into its slot
# function, so a call through the table costs what a direct one would; the core's function's
# own address is never taken, so gcc still inlines it wherever the core calls it directly.

from libc.string cimport strcpy, strcat, strlen
from mousehole._boundary cimport load_cfg
from mousehole._statecore cimport StateCore, load_constants


cdef extern from *:
    # The core's role functions, by their C names (defined above the include). Declared here
    # over ``void*``: C converts the pointer to the core's struct at each call below, against
    # the function's own prototype (a function called with its own type: defined behaviour).
    void core_deal(void* s, uint64_t seed) noexcept nogil
    int core_current(const void* s) noexcept nogil
    void core_apply(void* s, int a) noexcept nogil
    void core_returns(const void* s, double* out) noexcept nogil
    void core_rollout(void* s, rng_t* policy) noexcept nogil
    void core_playout(void* s, rng_t* policy, double* out) noexcept nogil
    void core_determinize(void* s, int p, uint64_t seed) noexcept nogil
    void core_evaluate(const void* s, double* out) noexcept nogil
    void core_scores(const void* s, int64_t* out) noexcept nogil
    int core_winner_mask(const void* s) noexcept nogil
    int core_fill_cfg(object game, void* cfg) except -1


cdef void g_reset(void* s, uint64_t seed) noexcept nogil:
    core_deal(s, seed)


cdef int g_current(const void* s) noexcept nogil:
    return core_current(s)


cdef void g_apply(void* s, int32_t a) noexcept nogil:
    core_apply(s, a)


cdef void g_returns(const void* s, double* out) noexcept nogil:
    core_returns(s, out)


cdef void g_rollout(void* s, rng_t* policy) noexcept nogil:
    core_rollout(s, policy)


cdef void g_playout(void* s, rng_t* policy, double* out) noexcept nogil:
    core_playout(s, policy, out)


cdef void g_determinize(void* s, int p, uint64_t seed) noexcept nogil:
    core_determinize(s, p, seed)


cdef void g_evaluate(const void* s, double* out) noexcept nogil:
    core_evaluate(s, out)


cdef void g_scores(const void* s, int64_t* out) noexcept nogil:
    core_scores(s, out)


cdef int g_winner_mask(const void* s) noexcept nogil:
    return core_winner_mask(s)


cdef int fill_cfg(object game, void* v) except -1:
    """The constants of ``game`` into ``v`` (zero-filled; the cache of ``_boundary``): the
    number of seats, ``n`` in every core's constants, then the core's own."""
    (<core_cfg_t*>v).n = game.num_players
    return core_fill_cfg(game, v)


cdef int core_init(object o, object game, uint64_t seed) except -1:
    """``new`` of a state object (StateCore's ``_init``, for a core without its own): the
    constants of ``game`` into its struct (``load_cfg``: a copy of this core's constant size,
    or, for a core that shares them, their address) and the deal of ``seed``."""
    cdef StateCore st = <StateCore>o
    cdef void* s
    if CORE.shared:
        s = load_constants(st, game)
    else:
        s = <char*><void*>st + CORE.offset
        load_cfg(&CORE.cfg, game, s, sizeof(core_cfg_t))
    CORE_GAME.reset(s, seed)  # (through the table: a direct call would change how gcc inlines)
    return 0


# ``VectorGame``'s loop over this core's functions (the table's ``vector_block``)
include "_vblock_core.pxi"


cdef extern from *:
    # the module's name, ``mousehole._<game id>`` (Cython's constant of every module it writes)
    const char* CORE_MODULE "__Pyx_MODULE_NAME"


cdef inline size_t core_fixed() noexcept nogil:
    """``mh_game_t.fixed``: the bytes at the start of the core's struct that never change once
    it is set up. A struct that begins with its constants (its first field ``cfg``, a
    ``core_cfg_t``; no slot function writes them) gives their size rounded down to 32 bytes,
    so that a copy from there starts aligned as the struct does; one whose ``cfg`` points at
    them (M's) gives 0. A constant to the C compiler (``s`` is never read)."""
    cdef core_state_t s
    if sizeof(s.cfg) != sizeof(core_cfg_t) or <char*>&s.cfg != <char*>&s:
        return 0
    return sizeof(core_cfg_t) & ~(<size_t>31)


cdef inline void core_describe(core_t* c, mh_game_t* g, const char* module) noexcept:
    """Fill this core's table ``g`` (``mh_game_def``: every slot) and its description ``c``
    (``core_def``: ``g``, the cache of its constants), once, at import, with the names from
    ``module`` (the game's id, ``mousehole._<id>``, and ``<module>.cfg``, the capsule of its
    constants: a few dozen characters, kept in ``c``). (In C only: Python code here makes
    gcc inline Maus au Chocolat's step differently, 0.8% more instructions in ``simulate``.)"""
    strcpy(c.id, module + strlen("mousehole._"))
    strcpy(c.cfg_name, module)
    strcat(c.cfg_name, ".cfg")
    mh_game_def(g, c.id, sizeof(core_state_t), g_dims, g_reset, g_current, g_legal, g_apply,
                g_chance, g_returns, g_rollout, g_playout, g_random_step, g_determinize,
                g_observe, g_mask, g_truncated, g_evaluate, g_vector_block, core_fixed())
    core_def(c, g, c.cfg_name, sizeof(core_cfg_t), fill_cfg, sim_range, g_scores, g_winner_mask,
             core_init)


cdef mh_game_t CORE_GAME   # this core's C game interface
cdef core_t CORE           # its description (``_statecore.pxd``)
core_describe(&CORE, &CORE_GAME, CORE_MODULE)
