# cython: language_level=3
"""A compiled game seen only through its C-level interface (``mh_game_t``, _cgame.pxd).

``CGame(state)`` copies a compiled state's struct into a buffer of its own and exposes every
function of the interface to Python, so that the generic conformance test
(tests/test_cinterface.py) can hold each game's interface to its Python-facing state, and so
that a game's interface can be inspected by hand. It is a probe, not a fast path: search and
batched stepping call the interface from C (``_search.pyx``, ``_vector.pyx``).
"""

from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memcmp
cimport numpy as cnp
import numpy as np

from mousehole._rng cimport rng_t, uint8_t, int32_t, uint64_t

cnp.import_array()


cdef class CGame:
    """A copy of a compiled state's struct, driven through ``mh_game_t`` alone."""
    cdef const mh_game_t* g
    cdef void* s
    cdef mh_dims_t d
    cdef int32_t* buf
    cdef double* prob

    def __cinit__(self, state):
        """``state``: a compiled state, or another CGame (a copy)."""
        cdef CGame other
        cdef const void* src
        if isinstance(state, CGame):
            other = <CGame>state
            self.g = other.g
            src = other.s
        else:
            self.g = game_of(state)
            src = state_of(state)
        self.s = malloc(self.g.size)
        if self.s == NULL:
            raise MemoryError()
        memcpy(self.s, src, self.g.size)
        self.g.dims(self.s, &self.d)
        self.buf = <int32_t*>malloc(sizeof(int32_t) * max(self.d.max_legal, 1))
        self.prob = <double*>malloc(sizeof(double) * max(self.d.max_legal, 1))
        if self.buf == NULL or self.prob == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.s)
        free(self.buf)
        free(self.prob)

    @property
    def name(self):
        return self.g.name.decode()

    @property
    def size(self):
        """Bytes of the game's state struct."""
        return self.g.size

    def dims(self):
        return {"players": self.d.players, "num_actions": self.d.num_actions,
                "obs_size": self.d.obs_size, "max_legal": self.d.max_legal}

    def copy(self):
        return CGame(self)

    def struct_bytes(self):
        """The struct, as bytes."""
        return (<char*>self.s)[:self.g.size]

    def same_struct(self, CGame other):
        """Byte-for-byte equality of the two structs."""
        return self.g == other.g and memcmp(self.s, other.s, self.g.size) == 0

    def reset(self, uint64_t seed):
        self.g.reset(self.s, seed)

    def current(self):
        return self.g.current(self.s)

    def legal(self):
        cdef int n = self.g.legal(self.s, self.buf)
        return [self.buf[i] for i in range(n)]

    def apply(self, int32_t a):
        """Applies ``a`` unchecked, as the interface does: pass only legal actions."""
        if self.g.current(self.s) < -1:
            raise ValueError("apply: the game is over")
        self.g.apply(self.s, a)

    def chance(self):
        cdef int n = self.g.chance(self.s, self.buf, self.prob)
        return [(self.buf[i], self.prob[i]) for i in range(n)]

    def returns(self):
        cdef double r[16]
        self.g.returns(self.s, r)
        return [r[i] for i in range(self.d.players)]

    def truncated(self):
        return bool(self.g.truncated(self.s))

    def rollout(self, uint64_t seed):
        cdef rng_t policy = seed
        self.g.rollout(self.s, &policy)

    def playout(self, uint64_t seed):
        """``mh_playout``: the returns of a random play-out drawn from ``seed`` (the game's
        ``playout`` when it has one: this buffer is scratch afterwards)."""
        cdef rng_t policy = seed
        cdef double r[16]
        mh_playout(self.g, self.s, &policy, r)
        return [r[i] for i in range(self.d.players)]

    def random_step(self, uint64_t seed):
        """``mh_random_step`` with a generator seeded ``seed`` (a seat must be to move):
        returns the generator's state after the draw and the seat to move it returned."""
        cdef rng_t policy = seed
        cdef int c = mh_random_step(self.g, self.s, &policy, self.buf)
        return policy, c

    @property
    def has_random_step(self):
        """Whether the game gives its own ``random_step``."""
        return self.g.random_step != NULL

    @property
    def has_playout(self):
        """Whether the game gives its own ``playout``."""
        return self.g.playout != NULL

    @property
    def has_vector_block(self):
        """Whether the game gives its own ``vector_block`` (``VectorGame``'s loop compiled
        over its functions)."""
        return self.g.vector_block != NULL

    def determinize(self, int p, uint64_t seed):
        self.g.determinize(self.s, p, seed)

    def observe(self, int p):
        out = np.zeros(self.d.obs_size, dtype=np.float32)
        cdef float[::1] v = out
        self.g.observe(self.s, p, &v[0])
        return out

    def mask(self):
        out = np.zeros(self.d.num_actions, dtype=np.uint8)
        cdef uint8_t[::1] v = out
        self.g.mask(self.s, &v[0])
        return out.astype(bool)
