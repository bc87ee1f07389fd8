# cython: language_level=3
"""Batched stepping of N games in compiled code (the engine of ``mousehole.vector.VectorGame``).

Written once for every game over the C-level game interface (``mh_game_t`` in _cgame.pxd):
nothing here knows a game's own struct. ``VectorCore`` keeps the N state structs in one
buffer (copies of a prototype struct, then ``reset`` with each env's seed), steps them
without the GIL and writes the caller's numpy arrays in place. The loop over the envs (a block of them:
reset, apply or draw, chance and other seats, the end of a game and the next one, the
outputs) is ``_vblock.pxi``, written once and compiled twice over: into each core over its own
functions (the table's ``vector_block``: direct calls the C compiler inlines), and here over
the table, for a game without that slot. The semantics (seeds, chance
draws, random actions, automatic restarts) are specified in src/mousehole/vector.py, whose
pure-Python backend implements the same ones with ordinary states.

Threads. ``threads=k`` splits the envs into k contiguous blocks; the calling thread runs the
first block and k - 1 *persistent* worker threads, started once when the core is made, run
the others (a block holds at least 128 envs: fewer envs use fewer threads). A worker is a
plain C function started with ``PyThread_start_new_thread`` that
never touches a Python object: it waits for the caller's next job number, runs its block
and answers with the same number. Each side waits by spinning on the other's counter for a
short while and then sleeping on a ``PyThread`` lock used as a binary semaphore (``start``
for the worker, ``done`` for the caller; see ``wait_for``), so that steps in quick
succession hand off without waking a sleeping thread. A step creates no thread, and every env
is stepped by exactly the same code whatever ``k`` is: results do not depend on ``threads``.
The workers stop when the core is deallocated.

Safety with Python threads. A core serves one Python thread at a time: every method takes
the core's ``busy`` flag with an atomic compare-and-swap before it touches the envs (so
before any GIL release, and correctly on free-threaded builds) and drops it on every path
out, exceptions included; a second thread that calls any method meanwhile gets a
``RuntimeError`` naming the VectorGame, never a crash or a half-stepped env. Nothing the
caller can reach is read by compiled code after it was checked: ``check_step`` copies the
actions into ``v.acts`` (memory of the core's own) while holding the GIL and with the
caller's buffer pinned, then checks and applies that copy without the GIL; the seat to move
and the game index of each env are kept in private arrays too (``seat_now``, ``game_k``)
and only *written* to the caller's ``current_player`` / ``game_index`` arrays, so writing
those arrays changes nothing inside. The caller's output arrays are written during a step:
another thread reading them meanwhile sees some envs' new values and some old ones.
"""

from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memcpy, memset
from cpython.buffer cimport PyObject_GetBuffer, PyBuffer_Release, PyBUF_C_CONTIGUOUS
from cpython.pythread cimport (
    PyThread_type_lock, PyThread_allocate_lock, PyThread_free_lock, PyThread_acquire_lock,
    PyThread_release_lock, PyThread_start_new_thread, WAIT_LOCK,
)
cimport numpy as cnp
import numpy as np

from mousehole._rng cimport rng_t, rng_next, rng_below, rng_derive, uint8_t, int32_t, uint32_t, int64_t, uint64_t
from mousehole._cgame cimport (
    mh_game_t, mh_dims_t, mh_vec_t, mh_vector_block_f, game_of, state_of, mh_random_step,
    MH_JOB_RESET, MH_JOB_STEP, MH_JOB_STOP, MH_VEC_SEATS,
)

cnp.import_array()

# the job, the seats (``mh_vec_t``, _cgame.pxd)
cdef enum:
    JOB_RESET = MH_JOB_RESET
    JOB_STEP = MH_JOB_STEP
    JOB_STOP = MH_JOB_STOP
    MAX_SEATS = MH_VEC_SEATS
# the fewest envs a thread's block holds
cdef enum:
    MIN_BLOCK = 128

# the envs and the job (the same struct for this module's loop and a core's ``vector_block``)
ctypedef mh_vec_t vec_t


cdef struct worker_t:
    vec_t* v
    mh_vector_block_f block   # the loop (the core's ``vector_block`` or ``table_block``)
    Py_ssize_t lo
    Py_ssize_t hi
    int tid
    PyThread_type_lock start
    PyThread_type_lock done
    # the hand-off (``signal`` / ``wait_for``): the caller publishes job number ``go``, the
    # worker answers with ``finished``; ``asleep`` / ``caller_asleep`` say that the worker
    # sleeps on ``start`` / the caller on ``done`` and must be woken through that lock
    long go
    long finished
    long asleep
    long caller_asleep
    long exited             # 1 once the worker has touched this struct and its locks for
                            # the last time (the core may then free them)


# ---- the hand-off between the caller and the workers -----------------------------------------
#
# A step of 1,024 cheap envs is 25-50 us of work per thread, and waking a thread that sleeps
# on a lock costs tens of microseconds on a VM: so each side first spins on a shared
# counter for a while (``HANDOFF_SPINS`` polls with the CPU's pause hint, yielding its time
# slice every ``HANDOFF_YIELD_EVERY`` polls) and only then sleeps on its lock. The sleeper
# raises its ``asleep`` flag, then looks at the counter again; the waker stores the counter,
# then swaps the flag to 0 and releases the lock if it was raised.
# With sequentially consistent atomics at least one side sees the other's store; when both
# do, the swap decides who owns the flag, so a release is never lost nor left unconsumed.

cdef extern from *:
    """
    #if defined(_MSC_VER)
    #include <intrin.h>
    __declspec(dllimport) int __stdcall SwitchToThread(void);  /* kernel32 (windows.h) */
    static __inline long mh_atomic_load(volatile long* p) { return _InterlockedOr(p, 0); }
    static __inline long mh_atomic_swap(volatile long* p, long v) { return _InterlockedExchange(p, v); }
    static __inline int mh_atomic_cas(volatile long* p, long expected, long desired) {
        return _InterlockedCompareExchange(p, desired, expected) == expected; }
    #define mh_yield() ((void)SwitchToThread())
    #if defined(_M_X64) || defined(_M_IX86)
    #define mh_cpu_relax() _mm_pause()
    #else
    #define mh_cpu_relax() ((void)0)
    #endif
    #else
    #include <sched.h>
    static inline long mh_atomic_load(volatile long* p) { return __atomic_load_n(p, __ATOMIC_SEQ_CST); }
    static inline long mh_atomic_swap(volatile long* p, long v) { return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST); }
    static inline int mh_atomic_cas(volatile long* p, long expected, long desired) {
        return __atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); }
    #define mh_yield() ((void)sched_yield())
    #if defined(__x86_64__) || defined(__i386__)
    #define mh_cpu_relax() __builtin_ia32_pause()
    #elif defined(__aarch64__) || defined(__arm__)
    #define mh_cpu_relax() __asm__ __volatile__("yield")
    #else
    #define mh_cpu_relax() ((void)0)
    #endif
    #endif
    """
    long mh_atomic_load(long* p) noexcept nogil
    long mh_atomic_swap(long* p, long v) noexcept nogil
    bint mh_atomic_cas(long* p, long expected, long desired) noexcept nogil
    void mh_cpu_relax() noexcept nogil
    void mh_yield() noexcept nogil

cdef enum:
    HANDOFF_SPINS = 1 << 14
    # every this many polls the spinning thread gives up its time slice once: where there
    # are fewer cores than threads (another process, a container of one core) the thread it
    # waits for may need that core to run at all
    HANDOFF_YIELD_EVERY = 64


cdef inline void signal(long* counter, long value, long* asleep, PyThread_type_lock lock) noexcept nogil:
    """Publish ``value`` (everything written before is visible to the waiter once it sees
    it) and wake the waiter if it sleeps on ``lock``."""
    mh_atomic_swap(counter, value)
    if mh_atomic_swap(asleep, 0):
        PyThread_release_lock(lock)


cdef inline void wait_for(long* counter, long value, long* asleep, PyThread_type_lock lock) noexcept nogil:
    """Return once ``counter`` holds ``value``: spin first, then sleep on ``lock``."""
    cdef int k
    for k in range(HANDOFF_SPINS):
        if mh_atomic_load(counter) == value:
            return
        if k % HANDOFF_YIELD_EVERY == HANDOFF_YIELD_EVERY - 1:
            mh_yield()
        else:
            mh_cpu_relax()
    mh_atomic_swap(asleep, 1)
    if mh_atomic_load(counter) == value and mh_atomic_swap(asleep, 0):
        return  # the value came and the flag is still ours: nobody releases the lock
    PyThread_acquire_lock(lock, WAIT_LOCK)  # released by ``signal`` (maybe already)


# ---- one env: the loop of ``_vblock.pxi`` over the table ----------------------------------------
#
# A game whose table fills ``vector_block`` runs the same loop compiled into its core (direct
# calls); these calls through the table serve a game without it (and ``_use_table_loop``).

cdef inline int vb_current(const mh_game_t* g, const void* s) noexcept nogil:
    return g.current(s)


cdef inline void vb_apply(const mh_game_t* g, void* s, int32_t a) noexcept nogil:
    g.apply(s, a)


cdef inline int vb_random_step(const mh_game_t* g, void* s, rng_t* policy, int32_t* buf) noexcept nogil:
    return mh_random_step(g, s, policy, buf)


cdef inline void vb_returns(const mh_game_t* g, const void* s, double* out) noexcept nogil:
    g.returns(s, out)


cdef inline int vb_truncated(const mh_game_t* g, const void* s) noexcept nogil:
    return g.truncated(s)


cdef inline void vb_reset(const mh_game_t* g, void* s, uint64_t seed) noexcept nogil:
    g.reset(s, seed)


cdef inline int vb_chance(const mh_game_t* g, const void* s, int32_t* out, double* prob) noexcept nogil:
    return g.chance(s, out, prob)


cdef inline void vb_observe(const mh_game_t* g, const void* s, int p, float* out) noexcept nogil:
    g.observe(s, p, out)


cdef inline void vb_mask(const mh_game_t* g, const void* s, uint8_t* out) noexcept nogil:
    g.mask(s, out)


include "_vblock.pxi"


cdef void table_block(void* v, Py_ssize_t lo, Py_ssize_t hi, int tid) noexcept nogil:
    """The job on envs ``lo`` .. ``hi - 1`` through the table (``mh_vector_block_f``)."""
    vb_run_block(<vec_t*>v, lo, hi, tid)


cdef inline int known_legal(vec_t* v, Py_ssize_t i) noexcept nogil:
    """Env ``i``'s legal actions, listed in ``v.legal`` (once per position: the loop
    leaves them unlisted when nothing needs them); their number."""
    if v.nlegal[i] < 0:
        v.nlegal[i] = v.g.legal(v.states + i * v.stride, v.legal + i * v.d.max_legal)
    return v.nlegal[i]


cdef Py_ssize_t first_invalid(vec_t* v, const int64_t* actions) noexcept nogil:
    """The first env whose action in ``actions`` (the core's private copy) is neither
    ``RANDOM`` nor legal, or -1."""
    cdef Py_ssize_t i
    cdef int64_t a
    cdef int lo, hi, mid, n
    cdef int32_t* lg
    for i in range(v.n):
        a = actions[i]
        if a == -1:
            continue
        if a < 0 or a >= v.d.num_actions:
            return i
        lg = v.legal + i * v.d.max_legal
        n = known_legal(v, i)
        lo = 0
        hi = n
        while lo < hi:  # binary search: the legal actions are ascending
            mid = (lo + hi) >> 1
            if lg[mid] < a:
                lo = mid + 1
            else:
                hi = mid
        if lo == n or lg[lo] != a:
            return i
    return -1


cdef inline long next_job(long job) noexcept nogil:
    """``job + 1``, wrapping instead of overflowing (``long`` is 32 bits on Windows)."""
    return <long>(<unsigned long>job + 1u)


cdef void worker_main(void* arg) noexcept nogil:
    cdef worker_t* w = <worker_t*>arg
    cdef long job = 0
    while True:
        job = next_job(job)
        wait_for(&w.go, job, &w.asleep, w.start)
        if w.v.job == JOB_STOP:
            break
        w.block(w.v, w.lo, w.hi, w.tid)
        signal(&w.finished, job, &w.caller_asleep, w.done)
    signal(&w.finished, job, &w.caller_asleep, w.done)
    # the caller may have seen ``finished`` while this thread was still in ``signal``: it
    # frees ``w`` and the locks only once this is set
    mh_atomic_swap(&w.exited, 1)


cdef class VectorCore:
    """N states of one compiled game stepped together (see the module docstring). Made and
    driven by ``mousehole.vector.VectorGame``, which validates every argument first.

    One thread at a time (``_enter`` / ``_leave``, see the module docstring): a method called
    while another thread is inside one raises ``RuntimeError``."""
    cdef vec_t v
    cdef long busy          # 1 while a thread is inside a method (taken by compare-and-swap)
    cdef int64_t nsteps     # steps done since the last reset
    cdef int threads
    cdef int nblocks        # blocks (the caller's and the workers')
    cdef worker_t* workers
    cdef int started        # workers running
    cdef long jobs          # jobs handed to the workers so far
    cdef object proto       # a state of the game: its struct is every env's starting copy
    cdef void* proto_s
    cdef object arrays      # keeps the caller's arrays alive

    def __cinit__(self, proto, Py_ssize_t n, uint64_t seed, int threads, seats,
                  float[:, ::1] obs, float[:, ::1] final_obs, double[:, ::1] rewards,
                  uint8_t[::1] terminated, uint8_t[::1] truncated, int32_t[::1] current,
                  uint8_t[:, ::1] mask, int64_t[::1] game_index):
        cdef Py_ssize_t i
        cdef int t
        cdef size_t m
        memset(&self.v, 0, sizeof(vec_t))
        self.workers = NULL
        self.started = 0
        self.v.g = game_of(proto)
        self.proto = proto
        self.proto_s = state_of(proto)
        self.v.g.dims(self.proto_s, &self.v.d)
        if self.v.d.players > MAX_SEATS:
            raise ValueError(f"VectorCore: at most {MAX_SEATS} seats")
        if n < 1 or threads < 1:
            raise ValueError("VectorCore: n and threads must be positive")
        if (obs.shape[0] != n or obs.shape[1] != self.v.d.obs_size
                or final_obs.shape[0] != n or final_obs.shape[1] != self.v.d.obs_size
                or rewards.shape[0] != n or rewards.shape[1] != self.v.d.players
                or terminated.shape[0] != n or truncated.shape[0] != n or current.shape[0] != n
                or mask.shape[0] != n or mask.shape[1] != self.v.d.num_actions
                or game_index.shape[0] != n):
            raise ValueError("VectorCore: array shapes do not match the game and n")
        self.arrays = (obs, final_obs, rewards, terminated, truncated, current, mask, game_index)
        self.threads = threads
        self.v.n = n
        self.v.stride = (self.v.g.size + 15) & ~(<size_t>15)
        m = <size_t>max(self.v.d.max_legal, 1)
        self.v.d.max_legal = <int32_t>m
        self.v.states = <char*>calloc(n, self.v.stride)
        self.v.legal = <int32_t*>calloc(n * m, sizeof(int32_t))
        self.v.nlegal = <int32_t*>calloc(n, sizeof(int32_t))
        self.v.rng = <rng_t*>calloc(n, sizeof(rng_t))
        self.v.env_seed = <uint64_t*>calloc(n, sizeof(uint64_t))
        self.v.acted = <int32_t*>calloc(n, sizeof(int32_t))
        self.v.acts = <int64_t*>calloc(n, sizeof(int64_t))
        self.v.game_k = <int64_t*>calloc(n, sizeof(int64_t))
        self.v.seat_now = <int32_t*>calloc(n, sizeof(int32_t))
        self.v.scratch_out = <int32_t*>calloc(threads * m, sizeof(int32_t))
        self.v.scratch_prob = <double*>calloc(threads * m, sizeof(double))
        if (self.v.states == NULL or self.v.legal == NULL
                or self.v.nlegal == NULL or self.v.rng == NULL or self.v.env_seed == NULL
                or self.v.acted == NULL or self.v.scratch_out == NULL
                or self.v.acts == NULL or self.v.game_k == NULL or self.v.seat_now == NULL
                or self.v.scratch_prob == NULL):
            raise MemoryError()
        for i in range(n):
            memcpy(self.v.states + i * self.v.stride, self.proto_s, self.v.g.size)
        for t in range(self.v.d.players):
            self.v.seat_is_caller[t] = 1 if t in seats else 0
        self.v.obs = &obs[0, 0]
        self.v.final_obs = &final_obs[0, 0]
        self.v.rewards = &rewards[0, 0]
        self.v.terminated = &terminated[0]
        self.v.truncated = &truncated[0]
        self.v.current = &current[0]
        self.v.mask = &mask[0, 0]
        self.v.game_index = &game_index[0]
        self.busy = 0
        self._set_seed(seed)
        self._start_workers()

    cdef int _start_workers(self) except -1:
        # a block has at least MIN_BLOCK envs: fewer envs use fewer threads (a hand-off to a
        # worker costs more than stepping a few envs); which thread steps an env never
        # changes what the env does
        cdef int t, k = <int>min(<Py_ssize_t>self.threads, max(<Py_ssize_t>1, self.v.n // MIN_BLOCK))
        cdef worker_t* w
        self.workers = <worker_t*>calloc(k, sizeof(worker_t))
        if self.workers == NULL:
            raise MemoryError()
        self.nblocks = k
        for t in range(k):
            w = &self.workers[t]
            w.v = &self.v
            w.block = self.v.g.vector_block if self.v.g.vector_block != NULL else table_block
            w.tid = t
            w.lo = (self.v.n * t) // k
            w.hi = (self.v.n * (t + 1)) // k
        for t in range(1, k):
            w = &self.workers[t]
            w.start = PyThread_allocate_lock()
            w.done = PyThread_allocate_lock()
            if w.start == NULL or w.done == NULL:
                raise MemoryError()
            # both start acquired: a sleeping worker waits on ``start``, a sleeping caller
            # on ``done`` (see ``wait_for``)
            PyThread_acquire_lock(w.start, WAIT_LOCK)
            PyThread_acquire_lock(w.done, WAIT_LOCK)
            if <long>PyThread_start_new_thread(worker_main, <void*>w) == -1:
                raise RuntimeError("VectorCore: cannot start a worker thread")
            self.started = t
        return 0

    cdef void _handoff(self) noexcept nogil:
        """Start job number ``self.jobs + 1`` on every worker."""
        cdef int t
        cdef worker_t* w
        self.jobs = next_job(self.jobs)
        for t in range(1, self.started + 1):
            w = &self.workers[t]
            signal(&w.go, self.jobs, &w.asleep, w.start)

    cdef void _join(self) noexcept nogil:
        """Wait until every worker has finished the current job."""
        cdef int t
        cdef worker_t* w
        for t in range(1, self.started + 1):
            w = &self.workers[t]
            wait_for(&w.finished, self.jobs, &w.caller_asleep, w.done)

    cdef void _run(self) noexcept nogil:
        """Every block: workers 1..k-1 on their threads, block 0 here; wait for all."""
        self._handoff()
        self.workers[0].block(&self.v, self.workers[0].lo, self.workers[0].hi, 0)
        self._join()

    def __dealloc__(self):
        cdef int t
        if self.workers != NULL:
            self.v.job = JOB_STOP
            with nogil:
                self._handoff()
                self._join()
                for t in range(1, self.started + 1):  # the workers' last touch of their structs
                    while not mh_atomic_load(&self.workers[t].exited):
                        mh_yield()  # (a worker on this core needs it to finish)
            for t in range(1, self.nblocks):
                if self.workers[t].start != NULL:
                    PyThread_free_lock(self.workers[t].start)
                if self.workers[t].done != NULL:
                    PyThread_free_lock(self.workers[t].done)
            free(self.workers)
        free(self.v.states)
        free(self.v.legal)
        free(self.v.nlegal)
        free(self.v.rng)
        free(self.v.env_seed)
        free(self.v.acted)
        free(self.v.acts)
        free(self.v.game_k)
        free(self.v.seat_now)
        free(self.v.scratch_out)
        free(self.v.scratch_prob)

    def blocks(self):
        """How many blocks (threads) a step uses: ``min(threads, max(1, n // 128))``."""
        return self.nblocks

    cdef int _enter(self, str what) except -1:
        """Take the core for this thread, or raise ``RuntimeError`` if another thread has
        it. An atomic compare-and-swap: correct with or without a GIL."""
        if not mh_atomic_cas(&self.busy, 0, 1):
            raise RuntimeError(
                f"VectorGame.{what}: this VectorGame is in use by another thread (a VectorGame "
                "serves one thread at a time: give each thread its own VectorGame)")
        return 0

    cdef inline void _leave(self) noexcept nogil:
        mh_atomic_swap(&self.busy, 0)

    cdef void _set_seed(self, uint64_t seed) noexcept:
        cdef Py_ssize_t i
        for i in range(self.v.n):
            self.v.env_seed[i] = rng_derive(seed, <uint64_t>i)

    def set_seed(self, uint64_t seed):
        """Env ``i``'s seed becomes ``derive(seed, i)`` (takes effect at the next reset)."""
        self._enter("reset")
        self._set_seed(seed)
        self._leave()

    def reset(self, seed=None):
        """Every env starts its game 0 (observations and masks written); with ``seed`` (an
        int, taken modulo 2**64), the new seed first (as ``set_seed``), in the same turn."""
        cdef uint64_t s = 0
        if seed is not None:
            s = <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF)
        self._enter("reset")
        try:
            if seed is not None:
                self._set_seed(s)
            self.v.job = JOB_RESET
            self.v.observe = 1
            with nogil:
                self._run()
            self.nsteps = 0
        finally:
            self._leave()

    def check_step(self, actions, bint observe):
        """``check`` then ``step`` in one call, for ``VectorGame.step``: -2 (nothing done)
        when ``actions`` is not an aligned, C-contiguous 1-d array of ``n`` native signed
        8-byte integers (the caller converts it and calls again), -1 once the step is done,
        or, when an action is neither ``RANDOM`` nor legal, ``(env, action, seat, legal)``
        for the first such env (nothing stepped; ``legal``: that env's legal actions).

        The actions are copied once, holding the GIL, into memory of the core's own; that
        copy is checked and applied (without the GIL), so a thread that writes ``actions``
        meanwhile can change what is stepped only into another checked step or an error."""
        cdef cnp.ndarray arr
        cdef Py_buffer view
        cdef Py_ssize_t bad = -1, j, nl
        cdef int64_t a
        cdef int seat
        if not cnp.PyArray_Check(actions):
            return -2
        arr = <cnp.ndarray>actions
        if (cnp.PyArray_NDIM(arr) != 1 or cnp.PyArray_DIM(arr, 0) != self.v.n
                or not cnp.PyArray_ISINTEGER(arr) or not cnp.PyArray_ISSIGNED(arr)
                or cnp.PyArray_ITEMSIZE(arr) != 8 or not cnp.PyArray_ISCARRAY_RO(arr)
                or not cnp.PyArray_ISNOTSWAPPED(arr)):
            return -2
        self._enter("step")
        try:
            # the buffer is pinned while it is read (no resize can free it meanwhile), and
            # its length is the one that counts (the array's shape is not read again)
            PyObject_GetBuffer(arr, &view, PyBUF_C_CONTIGUOUS)
            try:
                if view.len != self.v.n * <Py_ssize_t>sizeof(int64_t):
                    return -2
                memcpy(self.v.acts, view.buf, self.v.n * sizeof(int64_t))
            finally:
                PyBuffer_Release(&view)
            self.v.job = JOB_STEP
            self.v.observe = observe
            with nogil:
                bad = first_invalid(&self.v, self.v.acts)
                if bad < 0:
                    self._run()
            if bad < 0:
                self.nsteps += 1
                return -1
            a = self.v.acts[bad]
            seat = self.v.seat_now[bad]
            nl = known_legal(&self.v, bad) if 0 <= a < self.v.d.num_actions else 0
            legal = np.empty(nl, dtype=np.int64)
            for j in range(nl):
                legal[j] = self.v.legal[bad * self.v.d.max_legal + j]
            return (bad, a, seat, legal)
        finally:
            self._leave()

    def legal_actions(self, Py_ssize_t i):
        """Env ``i``'s legal actions now (ascending int64)."""
        cdef Py_ssize_t j, n
        cdef int64_t[::1] o
        if not 0 <= i < self.v.n:
            raise IndexError(f"env {i} is out of range 0..{self.v.n - 1}")
        self._enter("legal_actions")
        try:
            n = known_legal(&self.v, i)
            out = np.empty(n, dtype=np.int64)
            o = out
            for j in range(n):
                o[j] = self.v.legal[i * self.v.d.max_legal + j]
            return out
        finally:
            self._leave()

    def _use_table_loop(self):
        """From now on step through the table, as for a game without ``vector_block`` (tests:
        the core's loop and this one give the same envs). Call it between steps."""
        cdef int t
        self._enter("_use_table_loop")
        for t in range(self.nblocks):
            self.workers[t].block = table_block
        self._leave()

    def _hold(self):
        """Take the one-thread guard as a method does (tests: a deterministic busy core)."""
        self._enter("_hold")

    def _release(self):
        """Drop the guard taken by ``_hold`` (tests)."""
        self._leave()

    def stepped(self):
        """The steps done since the last reset."""
        return self.nsteps

    def applied(self):
        """The actions of the last step (the copy it checked and applied; ``RANDOM`` as -1),
        or of the last rejected one (int64 copy)."""
        cdef int64_t[::1] o
        self._enter("applied")
        try:
            out = np.empty(self.v.n, dtype=np.int64)
            o = out
            memcpy(&o[0], self.v.acts, self.v.n * sizeof(int64_t))
            return out
        finally:
            self._leave()

    def acted(self):
        """Per env, the seat whose action the last step applied (int32 copy)."""
        cdef int32_t[::1] o
        cdef Py_ssize_t i
        self._enter("acted")
        try:
            out = np.empty(self.v.n, dtype=np.int32)
            o = out
            for i in range(self.v.n):
                o[i] = self.v.acted[i]
            return out
        finally:
            self._leave()

    def state_bytes(self, Py_ssize_t i):
        """Env ``i``'s state struct as bytes (for tests: compare with a state's own)."""
        if not 0 <= i < self.v.n:
            raise IndexError(f"env {i} is out of range 0..{self.v.n - 1}")
        self._enter("state_bytes")
        try:
            return (self.v.states + i * self.v.stride)[:self.v.g.size]
        finally:
            self._leave()
