# cython: language_level=3, boundscheck=False, wraparound=False
"""Microbenchmark loops inside compiled code, kept out of the shipped cores: built on demand
by ``benchmarks/corebench.py`` against the checkout's ``cengine/`` declarations, cimporting
the cores' exported leaf functions and the C-level game interface. Each loop reads a private
copy of the state's struct, taken with the GIL held, so another thread applying actions to
the state meanwhile cannot tear what it reads."""

from libc.stdint cimport int16_t, int32_t, uint64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy

from mousehole._bits cimport ctz64
from mousehole._cgame cimport mh_game_t, mh_dims_t, game_of, state_of
from mousehole._m cimport MGameCore, m_t, m_connected_without
from mousehole._maus_au_chocolat cimport MausAuChocolatCore, mc_t, mc_combos, MC_NUM_ACTIONS


def legal_generation(state, long reps):
    """Write ``state``'s legal actions into a C buffer ``reps`` times through its game's
    ``mh_game_t.legal`` (any compiled game); returns their number."""
    cdef const mh_game_t* g = game_of(state)
    cdef mh_dims_t d
    cdef void* s = malloc(g.size)
    cdef int32_t* buf
    cdef long k, total = 0
    if s == NULL:
        raise MemoryError()
    memcpy(s, state_of(state), g.size)
    g.dims(s, &d)
    buf = <int32_t*>malloc(sizeof(int32_t) * max(d.max_legal, 1))
    if buf == NULL:
        free(s)
        raise MemoryError()
    with nogil:
        for k in range(reps):
            total += g.legal(s, buf)
    free(buf)
    free(s)
    return total


def m_connectivity(MGameCore st, long reps):
    """The M-13(b) test for every card of ``st``'s table, ``reps`` times; returns (number of
    tests, number that stayed connected)."""
    cdef uint64_t occ = st.s.pos.board.occ  # (read with the GIL)
    cdef long k, tests = 0, ok = 0
    cdef uint64_t bits
    cdef int b
    with nogil:
        for k in range(reps):
            bits = occ
            while bits:
                b = ctz64(bits)
                bits &= bits - 1
                ok += m_connected_without(occ, b)
                tests += 1
    return tests, ok


def mc_combinations(MausAuChocolatCore st, int seat, long repeat):
    """Enumerate ``seat``'s combinations (MC-29) ``repeat`` times; returns their number."""
    cdef mc_t s = st.s  # (a copy, with the GIL)
    cdef int16_t buf[MC_NUM_ACTIONS]
    cdef int n = 0
    cdef long i
    if not 0 <= seat < s.cfg.n:
        raise ValueError(f"seat {seat} is out of range")
    with nogil:
        for i in range(repeat):
            n = mc_combos(&s, seat, buf)
    return n
