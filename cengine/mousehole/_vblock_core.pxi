# ``VectorGame``'s loop (``_vblock.pxi``) compiled into a core over its own functions
# (``_cgame_core.pxi`` includes it after the ``g_*`` functions; ``g_vector_block`` fills the
# table's ``vector_block``, ``core_describe``). The calls are direct, so the C compiler
# inlines what it may (``g_current``, the casts, often the random step) and keeps the loop's
# values in registers across them; through the table each was an indirect call.
# (``g``, the table, is not read: every call names the core's function.)

cdef inline int vb_current(const mh_game_t* g, const void* s) noexcept nogil:
    return g_current(s)


cdef inline void vb_apply(const mh_game_t* g, void* s, int32_t a) noexcept nogil:
    g_apply(s, a)


cdef inline int vb_random_step(const mh_game_t* g, void* s, rng_t* policy, int32_t* buf) noexcept nogil:
    return g_random_step(s, policy)  # (every core has its own)


cdef inline void vb_returns(const mh_game_t* g, const void* s, double* out) noexcept nogil:
    g_returns(s, out)


cdef inline int vb_truncated(const mh_game_t* g, const void* s) noexcept nogil:
    return g_truncated(s)


cdef inline void vb_reset(const mh_game_t* g, void* s, uint64_t seed) noexcept nogil:
    g_reset(s, seed)


cdef inline int vb_chance(const mh_game_t* g, const void* s, int32_t* out, double* prob) noexcept nogil:
    return g_chance(s, out, prob)


cdef inline void vb_observe(const mh_game_t* g, const void* s, int p, float* out) noexcept nogil:
    g_observe(s, p, out)


cdef inline void vb_mask(const mh_game_t* g, const void* s, uint8_t* out) noexcept nogil:
    g_mask(s, out)


include "_vblock.pxi"


cdef void g_vector_block(void* v, Py_ssize_t lo, Py_ssize_t hi, int tid) noexcept nogil:
    vb_run_block(<mh_vec_t*>v, lo, hi, tid)
