# cython: language_level=3
"""Monte Carlo tree search written once for every compiled game (issue 11).

The search sees a game only through its C-level interface (``mh_game_t``, _cgame.pxd): it
copies state structs, lists legal actions or chance outcomes, applies actions, plays random
rollouts (``rollout``: simulate's action model), reads returns and determinizes for a seat.

Algorithms (``mode``):

* ``MODE_OPEN`` (0): UCT on the state as given (it sees everything, hidden cards included:
  for tests and for analysis, never for a bot);
* ``MODE_MCTS`` (1): UCT on ONE determinization of the root for the seat to move
  (``determinize(root, seat, derive(seed, 1))``): what an ``MCTSBot`` does;
* ``MODE_ISMCTS`` (2): single-observer information-set MCTS (Cowling, Powley & Whitehouse
  2012): every iteration starts from a fresh determinization
  ``determinize(root, seat, derive(derive(seed, 1), i))`` and selects only among the
  children whose action is legal in it, with availability counts.
* ``MODE_STRONG`` (3): the ISMCTS tree (the same determinizations, selection and
  availability counts) with the strong bot's play-outs (``strong_playout``): when the game
  fills in ``evaluate`` and ``depth >= 0``, at most ``depth`` actions (each, with chance
  ``greedy``, the action whose result the evaluation rates best for the seat to move, ties
  drawn at random, else a uniformly random one; chance outcomes by their probabilities),
  then, unless the game ended, the returns ``tanh((own value - best other value) / scale)``
  per seat from the evaluation. Without an evaluation it is ISMCTS.

The tree. Nodes live in one growable C array (``node_t``, no Python object per node); the
children of a node are a contiguous block of that array, sorted by action, allocated when the
node is expanded (and, in ISMCTS, moved to a larger block when a determinization brings an
action the node has not seen yet). A node is keyed by the action (or chance outcome) that led
to it and stores the visit count, the availability count (ISMCTS) and the sum of the returns
of the seat that moved into it (the returns vector of ``returns``: +1 win, -1 loss, 0 when
every seat wins; nothing is stored for chance outcomes).

The node budget (``nodes``). The array's slots in use (``n_nodes``: the nodes, the room
kept free in blocks of children and the blocks abandoned by a move) never pass the budget,
except by the root's children, which are always made; the array itself never grows past
the larger of the two (``reserve_nodes``), so the tree takes at most 32 bytes a node of the
budget. Children that would pass it are not made (all of a node's new children or none):
a node without children stays a leaf (the descent stops there and the play-out starts),
an ISMCTS node chooses among the children it has that are legal in the iteration's
determinization (none: it is a leaf for that iteration), and a chance outcome without a
child ends the descent. So a full tree goes on searching, its statistics still growing,
with no new node; the pure-Python search counts the slots alike and makes the same choices.

One iteration: copy the root (ISMCTS: determinize it), then descend: at a chance node sample
an outcome by the ``chance`` probabilities (one child per outcome); at a seat's node, if some
child (legal here) was never visited pick one of those uniformly at random, else the child
maximising ``value * (1 / n) + (c * sqrt(ln N)) * (1 / sqrt(n))``, computed so (``value``:
the sum of its returns, ``n``: its visits, ``N``: the parent's visits in UCT, the child's
availability count in ISMCTS; ties: the lowest action); stop after entering a node visited
for the first time (a node is expanded on its second visit; the root at once); play a rollout
to the end; add the returns along the path.

Random numbers: the tree's own stream starts at ``derive(seed, 2)`` (unvisited choices and
chance samples, drawn in a fixed order) and iteration ``i``'s rollout uses the policy
``derive(derive(seed, 3), i)``; so the same seed and iteration count give the same tree, the
same statistics and the same move on every machine, and the pure-Python search in
``mousehole.bots`` (same algorithm over the Python API) gives exactly the same.

The iterations run without the GIL in batches of about 20 ms; between batches the driver
checks for Ctrl-C and the time limit; with a time limit the batch itself reads the clock
(``mh_now``: ``clock_gettime(CLOCK_MONOTONIC)``, or ``QueryPerformanceCounter`` on Windows,
the clocks of ``time.perf_counter``) every ``CLOCK_EVERY`` iterations and stops at the
deadline, so a search overshoots its time by a few iterations at most. Tree memory comes from ``PyMem_RawMalloc`` (so
``tracemalloc`` sees it) and is freed before ``search`` returns.

Threads. Each call of ``search`` owns everything its iterations touch: the tree, its copies
of the root state and its scratch buffers (a ``_Search`` made for that call and never handed
out); the caller's state is read once, by a ``memcpy`` while the GIL is held, before the GIL
is released. So any number of threads may search at once, from one state too, and a thread
that plays on that state meanwhile changes nothing in a search under way. (On a
free-threaded build, that one read of the struct is as safe as a ``clone()`` of the state
from another thread: ``mousehole.bots.search`` passes a private clone.) The arguments are
checked here as well as in ``mousehole.bots``: no value reaches the loop unchecked.
"""

from libc.math cimport log, sqrt, tanh, INFINITY

cdef extern from *:
    """
    /* mousehole: no fused multiply-add in the search, so that the UCB scores (and so the
       moves) are the same on every machine and equal to the pure-Python search's. */
    #if defined(__clang__)
    #pragma STDC FP_CONTRACT OFF
    #elif defined(__GNUC__)
    #pragma GCC optimize ("fp-contract=off")
    #endif
    """
cdef extern from *:
    """
    /* mousehole: a monotonic clock in seconds for the search's time budget, read without
       the GIL (the clock of Python's time.perf_counter on each platform). */
    #if defined(_WIN32)
    #ifndef WIN32_LEAN_AND_MEAN
    #define WIN32_LEAN_AND_MEAN
    #endif
    #include <windows.h>
    static double mh_now(void) {
        LARGE_INTEGER f, c;
        QueryPerformanceFrequency(&f);
        QueryPerformanceCounter(&c);
        return (double)c.QuadPart / (double)f.QuadPart;
    }
    #else
    #include <time.h>
    static double mh_now(void) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
    }
    #endif
    """
    double mh_now() noexcept nogil
from libc.string cimport memcpy
from cpython.mem cimport PyMem_RawMalloc, PyMem_RawRealloc, PyMem_RawFree
from cpython.exc cimport PyErr_CheckSignals

import time

import numpy as np

from mousehole._rng cimport rng_t, rng_next, rng_below, rng_derive, uint32_t, int32_t, int64_t, uint64_t
from mousehole._cgame cimport mh_game_t, mh_dims_t, game_of, state_of, CHANCE_SEAT, TERMINAL_SEAT, mh_playout
from mousehole._cgame cimport mh_random_step, mh_evaluate_of


cdef enum:
    M_OPEN = 0
    M_MCTS = 1
    M_ISMCTS = 2
    M_STRONG = 3

MODE_OPEN = M_OPEN
MODE_MCTS = M_MCTS
MODE_ISMCTS = M_ISMCTS
MODE_STRONG = M_STRONG

ctypedef void (*evaluate_fn)(const void* s, double* out) noexcept nogil

#: the default exploration constant ``c`` of the UCB score (returns in [-1, 1]; docs/bots.md)
DEFAULT_C = 1.0

cdef enum:
    ROOT_SEAT = -2          # the root has no mover
    SQRTLOG_TABLE = 65536   # sqrt(log(n)) is tabulated below this
    MAX_SEATS = 64
    MAX_ITERATIONS = 0x7FFFFFFF
    MAX_NODES = 0x7FFFFFFF  # node indices are int32
    # The node array's first size (512 kB; never past the budget, 1,024 at least): a search
    # of 1,000 iterations fits it in every game (at most about 9,000 nodes, Cheese Rescue),
    # so it never grows there. From 1,024, each of its four doublings copied the whole array
    # (``realloc``): 500-600 instructions an iteration of Cheese Rescue's ISMCTS. Pages not
    # touched cost nothing where the C library maps a block of this size from the system.
    INITIAL_NODES = 16384

ctypedef struct node_t:
    double value       # sum of the returns of the seat that moved into this node
    uint32_t visits
    uint32_t avail     # ISMCTS: iterations in which this node's action was legal at its parent
    int32_t action     # the action or chance outcome leading here
    int32_t first      # index of the first child (-1: not expanded)
    int32_t nchild     # children, sorted by action
    int32_t cap        # the block's capacity (>= nchild)


# ``sqrt(log(n))`` for n < SQRTLOG_TABLE (computed once, at import, with the same libm calls
# as above the table, so the table changes no value).
cdef double SQRTLOG[SQRTLOG_TABLE]


# ``1 / n`` and ``1 / sqrt(n)`` likewise, side by side (one cache line for a child's score).
ctypedef struct inv_t:
    double inv
    double isq

cdef inv_t INV[SQRTLOG_TABLE]


cdef void fill_sqrtlog() noexcept nogil:
    cdef int i
    SQRTLOG[0] = 0.0
    INV[0].inv = 0.0
    INV[0].isq = 0.0
    for i in range(1, SQRTLOG_TABLE):
        SQRTLOG[i] = sqrt(log(<double>i))
        INV[i].inv = 1.0 / <double>i
        INV[i].isq = 1.0 / sqrt(<double>i)


fill_sqrtlog()


cdef inline double sqrtlog(uint32_t n) noexcept nogil:
    if n < SQRTLOG_TABLE:
        return SQRTLOG[n]
    return sqrt(log(<double>n))


# The two terms of a visited child's UCB score that do not depend on its parent:
# ``value * (1 / n)`` and ``1 / sqrt(n)``.
ctypedef struct terms_t:
    double mean
    double isq


cdef inline void terms_of(const node_t* ch, terms_t* t) noexcept nogil:
    cdef uint32_t n = ch.visits
    if n < SQRTLOG_TABLE:
        t.mean = ch.value * INV[n].inv
        t.isq = INV[n].isq
    else:
        t.mean = ch.value * (1.0 / <double>n)
        t.isq = 1.0 / sqrt(<double>n)


cdef inline double score_terms(const terms_t* t, double K) noexcept nogil:
    return t.mean + K * t.isq


cdef extern from *:
    """
    /* mousehole: the first of the best of n UCB scores, the child a running best would keep:
       the maximum taken in independent lanes (a maximum is exact, so the order changes
       nothing; SSE2's maxpd where there is SSE2), then the first score equal to it (-0.0 ==
       0.0: the first of equal scores either way). A running best chains every child's
       comparison on the previous one's; here only the lanes' few maxima are chained. -1 when
       n is 0. */
    #if defined(__SSE2__)
    #include <emmintrin.h>
    #endif
    static inline int mh_first_equal(const double* sc, int n, double m) {
        int k = 0, b;
    #if defined(__SSE2__)
        __m128d vm = _mm_set1_pd(m);
        for (; k + 2 <= n; k += 2) {
            b = _mm_movemask_pd(_mm_cmpeq_pd(_mm_loadu_pd(sc + k), vm));
            if (b)
                return k + ((b & 1) ^ 1);
        }
    #endif
        for (; k < n; k++)
            if (sc[k] == m)
                return k;
        return -1;
    }
    static inline double mh_max_of(const double* sc, int n) {
        int k = 0;
        double m = -INFINITY, s;
    #if defined(__SSE2__)
        if (n >= 4) {
            __m128d m0 = _mm_loadu_pd(sc), m1 = _mm_loadu_pd(sc + 2);
            for (k = 4; k + 4 <= n; k += 4) {
                m0 = _mm_max_pd(m0, _mm_loadu_pd(sc + k));
                m1 = _mm_max_pd(m1, _mm_loadu_pd(sc + k + 2));
            }
            m0 = _mm_max_pd(m0, m1);
            m = _mm_cvtsd_f64(m0);
            s = _mm_cvtsd_f64(_mm_unpackhi_pd(m0, m0));
            m = s > m ? s : m;
        }
    #endif
        for (; k < n; k++)
            m = sc[k] > m ? sc[k] : m;
        return m;
    }
    static inline int mh_first_max(const double* sc, int n) {
        return mh_first_equal(sc, n, mh_max_of(sc, n));
    }
    /* the scores ``mean[k] + K * isq[k]`` written to ``sc`` and the first of the best */
    static inline int mh_best_score(const double* mean, const double* isq, double K,
                                    double* sc, int n) {
        int k = 0;
        double m = -INFINITY, s;
    #if defined(__SSE2__)
        if (n >= 4) {
            __m128d vk = _mm_set1_pd(K);
            __m128d m0 = _mm_set1_pd(-INFINITY), m1 = m0, s0, s1;
            for (; k + 4 <= n; k += 4) {
                s0 = _mm_add_pd(_mm_loadu_pd(mean + k), _mm_mul_pd(vk, _mm_loadu_pd(isq + k)));
                s1 = _mm_add_pd(_mm_loadu_pd(mean + k + 2), _mm_mul_pd(vk, _mm_loadu_pd(isq + k + 2)));
                _mm_storeu_pd(sc + k, s0);
                _mm_storeu_pd(sc + k + 2, s1);
                m0 = _mm_max_pd(m0, s0);
                m1 = _mm_max_pd(m1, s1);
            }
            m0 = _mm_max_pd(m0, m1);
            m = _mm_cvtsd_f64(m0);
            s = _mm_cvtsd_f64(_mm_unpackhi_pd(m0, m0));
            m = s > m ? s : m;
        }
    #endif
        for (; k < n; k++) {
            s = mean[k] + K * isq[k];
            sc[k] = s;
            m = s > m ? s : m;
        }
        return mh_first_equal(sc, n, m);
    }
    """
    int mh_best_score(const double* mean, const double* isq, double K, double* sc, int n) noexcept nogil
    int mh_first_max(const double* sc, int n) noexcept nogil


cdef inline double score_of(const node_t* ch, double K) noexcept nogil:
    """The UCB score of a visited child: ``value * (1 / n) + K * (1 / sqrt(n))``, in that order."""
    cdef terms_t t
    terms_of(ch, &t)
    return score_terms(&t, K)


cdef inline double score_tabled(const node_t* ch, double K) noexcept nogil:
    """``score_of`` for a child whose count the caller knows is below ``SQRTLOG_TABLE`` (no
    check): the same value."""
    return ch.value * INV[ch.visits].inv + K * INV[ch.visits].isq


def has_evaluate(state):
    """Whether compiled ``state``'s game gives the strong search an evaluation
    (``mh_game_t.evaluate``); without one its play-outs run to the end."""
    return mh_evaluate_of(game_of(state), state_of(state)) != NULL


def sqrt_log(n):
    """``sqrt(log(n))`` as the search computes it (for the pure-Python search's tests)."""
    return sqrtlog(<uint32_t>n)


def inv_sqrt(n):
    """``(1 / n, 1 / sqrt(n))`` as the search computes them (for the pure-Python search's tests)."""
    if n < SQRTLOG_TABLE:
        return (INV[n].inv, INV[n].isq)
    return (1.0 / <double>n, 1.0 / sqrt(<double>n))


ctypedef struct search_t:
    const mh_game_t* g
    int mode
    int seat           # the root's seat to move (the observer in MCTS / ISMCTS)
    int players
    int max_legal
    double c
    uint64_t det_base  # determinization seeds
    uint64_t roll_base # rollout policy seeds
    rng_t rs           # the tree's stream
    void* root         # the root state (MCTS: its determinization)
    void* work         # the state of the current iteration
    node_t* nodes
    int64_t n_nodes    # slots used in ``nodes`` (room kept in children blocks included)
    int64_t live       # nodes in the tree
    int64_t cap_nodes
    int64_t max_nodes  # the node budget: ``n_nodes`` never passes it but for the root's children
    int32_t* buf       # legal actions or outcomes (max_legal, + 1 for merge's sentinel)
    double* prob       # chance probabilities (max_legal)
    int32_t* compat    # ISMCTS: the child index of each listed action (max_legal + 1: merge)
    int32_t* unv       # select_child: the unvisited children (num_actions: one per action)
    int n_unv          # merge with ``count``: how many it listed in ``unv`` (-1: none)
    int32_t num_actions
    int root_n         # ISMCTS: the root's children once listed (-1 before): its legal actions,
                       # the seat's own information, the same in every determinization
    bint root_full     # ISMCTS: every child of the root visited (visits only grow: it stays so)
    double* root_mean    # ISMCTS: each root child's ``terms_of`` (``mean``, and ``isq`` in
    double* root_isq     # ``root_isq``), kept up to date by the back-propagation once the
                         # root's children are listed (max_legal each, one block)
    double* scores       # select_child, select_root: the children's scores (as ``unv``)
    int32_t* path      # node indices of the current iteration
    int32_t* path_seat # the seat that moved into each (CHANCE_SEAT for outcomes, ROOT_SEAT)
    int64_t path_cap
    double* ret        # returns (players)
    int64_t done       # iterations completed
    int failed         # an allocation failed
    # the strong search (M_STRONG: the ISMCTS tree with these play-outs)
    evaluate_fn evaluate  # the game's evaluation (NULL: full random play-outs)
    int depth          # play-out actions before the evaluation ends it
    double scale       # returns: tanh((own value - best other value) / scale)
    double greedy      # the chance that a play-out action is the one-ply greedy one
    void* scratch      # greedy_step's copy of the state
    double* vals       # per-seat values (players)


cdef int reserve_nodes(search_t* S, int64_t extra) noexcept nogil:
    """Room for ``extra`` more nodes (doubling, but never past the node budget when the need
    is within it); -1 when memory or int32 indices run out."""
    cdef int64_t need = S.n_nodes + extra
    cdef int64_t cap = S.cap_nodes
    cdef int64_t most = S.max_nodes if S.max_nodes > need else need
    cdef node_t* p
    if need <= cap:
        return 0
    if need > 0x7FFFFFFF:
        return -1
    while cap < need:
        cap *= 2
    if cap > most:
        cap = most
    p = <node_t*>PyMem_RawRealloc(S.nodes, <size_t>cap * sizeof(node_t))
    if p == NULL:
        return -1
    S.nodes = p
    S.cap_nodes = cap
    return 0


cdef inline void init_node(node_t* nd, int32_t action) noexcept nogil:
    nd.value = 0.0
    nd.visits = 0
    nd.avail = 0
    nd.action = action
    nd.first = -1
    nd.nchild = 0
    nd.cap = 0


cdef inline bint over_budget(const search_t* S, int32_t node, int64_t extra) noexcept nogil:
    """Whether ``extra`` more slots for the children of ``node`` would take the tree past its
    node budget (the root's children are always made)."""
    return node != 0 and S.n_nodes + extra > S.max_nodes


cdef int expand_all(search_t* S, int32_t node, const int32_t* acts, int n) noexcept nogil:
    """First expansion: one child per listed action (ascending). 1 (nothing made) when they
    would take the tree past its node budget, -1 when memory runs out."""
    cdef int k
    cdef int32_t first
    cdef node_t* nd
    if over_budget(S, node, n):
        return 1
    if reserve_nodes(S, n) < 0:
        return -1
    first = <int32_t>S.n_nodes
    for k in range(n):
        init_node(&S.nodes[first + k], acts[k])
    S.n_nodes += n
    S.live += n
    nd = &S.nodes[node]
    nd.first = first
    nd.nchild = n
    nd.cap = n
    return 0


cdef int merge(search_t* S, int32_t node, int32_t* acts, int n, bint count) noexcept nogil:
    """Make every listed action (ascending) a child of ``node`` and write the index of each
    one's child to ``S.compat``; children keep their order by action. Returns the number of
    children listed in ``S.compat``: ``n``, or, when the new children would take the tree
    past its node budget (none is made then), those of the listed actions that already
    have one, in list order (0 for a node without children). -1: out of memory. ``acts``
    (``S.buf``) has room for ``n + 1``: ``acts[n]`` is set to -1, no action, as a sentinel.

    ``count`` (a seat's node in ISMCTS): when every listed action has a child already (the
    common case), also the first pass of ``select_child`` in the same walk: each listed
    child's availability counted and the unvisited ones listed in ``S.unv``, their number
    in ``S.n_unv`` (-1 when not done here: ``select_child`` does it)."""
    cdef node_t* nd = &S.nodes[node]
    cdef int32_t first = nd.first
    cdef int nch = nd.nchild
    cdef int i = 0, k = 0, missing = 0, total, newcap = 0, found
    cdef int32_t a, dst, src, nfirst
    cdef bint hit
    cdef const node_t* ch
    cdef int32_t* compat = S.compat
    cdef int32_t* unv = S.unv
    cdef int u = 0
    cdef node_t* cw
    S.n_unv = -1
    if first < 0:
        k = expand_all(S, node, acts, n)
        if k != 0:
            return -1 if k < 0 else 0
        first = S.nodes[node].first
        for k in range(n):
            compat[k] = first + k
        return n
    # the common case: every listed action has a child already. One walk along the
    # children: the next listed action (the sentinel after the last) is found or not, with
    # no branch on it; every action found when ``k`` reaches ``n``
    ch = &S.nodes[first]
    acts[n] = -1
    a = acts[0]
    if count:  # (a branch on the action found: it comes in runs, a kind's cells, say)
        cw = &S.nodes[first]
        for i in range(nch):
            if cw[i].action == a:
                compat[k] = first + i
                cw[i].avail += 1
                unv[u] = first + i
                u += cw[i].visits == 0
                k += 1
                a = acts[k]
        if k == n:
            S.n_unv = u
            return n
        for i in range(k):  # (not all found: the counts taken back, select_child counts)
            S.nodes[compat[i]].avail -= 1
        k = 0
    else:
        for i in range(nch):
            hit = ch[i].action == a
            compat[k] = first + i  # (overwritten until the action is found; compat has n + 1)
            k += hit
            a = acts[k]
        if k == n:
            return n
    # else one walk along the two ascending lists: the child of each listed action (-1:
    # none yet)
    i = 0
    for k in range(n):
        a = acts[k]
        while i < nch and ch[i].action < a:
            i += 1
        hit = i < nch and ch[i].action == a
        compat[k] = first + i if hit else -1
        missing += not hit
        i += hit
    if missing == 0:
        return n
    total = nch + missing
    if total > nd.cap:
        # a larger block at the end of the array (the old one is abandoned)
        newcap = total + total // 2
        if over_budget(S, node, newcap):  # the children the listed actions have, in list order
            found = 0
            for k in range(n):
                if compat[k] >= 0:
                    compat[found] = compat[k]
                    found += 1
            return found
        if reserve_nodes(S, newcap) < 0:
            return -1
        nd = &S.nodes[node]
        nfirst = <int32_t>S.n_nodes
        S.n_nodes += newcap
    else:
        nfirst = first
    # merge from the back, so that an in-place merge never overwrites a child it still needs
    src = nch - 1
    dst = total - 1
    k = n - 1
    while dst >= 0:
        if k >= 0 and (src < 0 or S.nodes[first + src].action < acts[k]):
            init_node(&S.nodes[nfirst + dst], acts[k])
            k -= 1
        else:
            if src >= 0 and k >= 0 and S.nodes[first + src].action == acts[k]:
                k -= 1
            if nfirst != first or dst != src:
                S.nodes[nfirst + dst] = S.nodes[first + src]
            src -= 1
        dst -= 1
    S.live += missing
    if nfirst != first:
        nd.cap = newcap
    nd.first = nfirst
    nd.nchild = total
    # pass 2: the child of each listed action
    ch = &S.nodes[nfirst]
    i = 0
    for k in range(n):
        a = acts[k]
        while ch[i].action < a:
            i += 1
        S.compat[k] = nfirst + i
    return n


cdef int32_t find_child(const search_t* S, const node_t* nd, int32_t a) noexcept nogil:
    """The index of the child of ``nd`` reached by ``a`` (binary search), -1 if none."""
    cdef int lo = 0, hi = nd.nchild - 1, mid
    cdef int32_t v
    while lo <= hi:
        mid = (lo + hi) >> 1
        v = S.nodes[nd.first + mid].action
        if v == a:
            return nd.first + mid
        if v < a:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


cdef inline int push(search_t* S, int64_t depth, int32_t node, int seat) noexcept nogil:
    cdef int64_t cap
    cdef int32_t* p
    cdef int32_t* q
    if depth >= S.path_cap:
        cap = 2 * S.path_cap
        p = <int32_t*>PyMem_RawRealloc(S.path, <size_t>cap * sizeof(int32_t))
        if p == NULL:
            return -1
        S.path = p
        q = <int32_t*>PyMem_RawRealloc(S.path_seat, <size_t>cap * sizeof(int32_t))
        if q == NULL:
            return -1
        S.path_seat = q
        S.path_cap = cap
    S.path[depth] = node
    S.path_seat[depth] = seat
    return 0


cdef inline double uniform01(rng_t* rs) noexcept nogil:
    """A double in [0, 1): the top 53 bits of the next output."""
    return <double>(rng_next(rs) >> 11) * (1.0 / 9007199254740992.0)


cdef inline int pick_outcome(const double* prob, int n, double u) noexcept nogil:
    """The index of the chance outcome ``u`` (uniform in [0, 1)) falls on, by the cumulative
    probabilities ``prob[0..n)``; the last one takes any rounding remainder."""
    cdef double acc = 0.0
    cdef int j
    for j in range(n - 1):
        acc += prob[j]
        if u < acc:
            return j
    return n - 1


cdef inline void keep_best(double score, int32_t idx, double* best_score, int32_t* best) noexcept nogil:
    """The running best of a scoring pass that starts from ``-INFINITY`` (scores are finite):
    the first of equal scores. Kept by a conditional move and a maximum, not a branch:
    whether a child beats the best so far is a coin toss for the branch predictor."""
    cdef bint take = score > best_score[0]
    best[0] = idx if take else best[0]
    best_score[0] = score if score > best_score[0] else best_score[0]


cdef enum:
    FEW_CHILDREN = 8  # select_child: below this, a running best (``keep_best``) costs less
                      # than the scores' array and ``mh_first_max``


cdef int32_t select_child(search_t* S, int32_t node, const int32_t* compat, int n, bint ismcts,
                          int counted) noexcept nogil:
    """The child to descend into at a seat's node. ISMCTS: among the ``n`` children listed in
    ``compat`` (each one's availability is counted first, unless ``merge`` did: ``counted``
    >= 0, the unvisited ones in ``S.unv``, ``counted`` of them); UCT: among all children.
    An unvisited child is chosen first, uniformly among the unvisited ones (in list order);
    only when every child has been visited does the best score decide (the first of equal
    scores). A first pass counts the availabilities and lists the unvisited children, a
    second one, when there are none, scores them: with ``FEW_CHILDREN`` or more, into
    ``S.scores`` (while the search is below ``SQRTLOG_TABLE`` iterations every count is in
    the tables: no check per child), then ``mh_first_max`` finds the first of the best (the
    maximum taken in lanes, not by a running best whose every comparison waits for the one
    before); with fewer, by ``keep_best``. Neither branches on a child (whether one is
    unvisited is a coin toss for the branch predictor): the list grows by a comparison."""
    cdef node_t* nodes = S.nodes
    cdef node_t* nd = &nodes[node]
    cdef node_t* ch
    cdef int32_t* unv = S.unv
    cdef int k, unvisited = 0
    cdef int32_t idx, best = -1
    cdef double best_score = -INFINITY
    cdef double* sc = S.scores
    cdef double K
    cdef double c = S.c
    if ismcts:
        if counted >= 0:
            unvisited = counted
        else:
            for k in range(n):
                idx = compat[k]
                ch = &nodes[idx]
                ch.avail += 1
                unv[unvisited] = idx
                unvisited += ch.visits == 0
        if unvisited == 0:
            if n < FEW_CHILDREN:
                for k in range(n):
                    idx = compat[k]
                    ch = &nodes[idx]
                    keep_best(score_of(ch, c * sqrtlog(ch.avail)), idx, &best_score, &best)
                return best
            if S.done < SQRTLOG_TABLE - 1:  # (every count is at most done + 1: in the tables)
                for k in range(n):
                    ch = &nodes[compat[k]]
                    sc[k] = score_tabled(ch, c * SQRTLOG[ch.avail])
            else:
                for k in range(n):
                    ch = &nodes[compat[k]]
                    sc[k] = score_of(ch, c * sqrtlog(ch.avail))
            return compat[mh_first_max(sc, n)]
    else:
        n = nd.nchild
        ch = &nodes[nd.first]
        for k in range(n):
            unv[unvisited] = nd.first + k
            unvisited += ch[k].visits == 0
        if unvisited == 0:
            K = c * sqrtlog(nd.visits)
            if n < FEW_CHILDREN:
                for k in range(n):
                    keep_best(score_of(&ch[k], K), nd.first + k, &best_score, &best)
                return best
            if S.done < SQRTLOG_TABLE - 1:
                for k in range(n):
                    sc[k] = score_tabled(&ch[k], K)
            else:
                for k in range(n):
                    sc[k] = score_of(&ch[k], K)
            return nd.first + mh_first_max(sc, n)
    return unv[rng_below(&S.rs, <uint32_t>unvisited)]


cdef int32_t select_root(search_t* S) noexcept nogil:
    """``select_child`` at the ISMCTS root once its children are listed: they are the seat's
    legal actions, available in every iteration, so every availability count is the iteration
    number + 1 (counted here once, not per child: ``root_stats`` writes them out). Once
    every child was visited (``root_full``), it only scores them."""
    cdef node_t* nd = &S.nodes[0]
    cdef node_t* ch
    cdef int32_t* unv = S.unv
    cdef int k, n = S.root_n, unvisited = 0
    cdef double K
    ch = &S.nodes[nd.first]
    if not S.root_full:
        for k in range(n):  # (as select_child: the unvisited ones, then if none the scores)
            unv[unvisited] = k
            unvisited += ch[k].visits == 0
        S.root_full = unvisited == 0
    if unvisited == 0:
        K = S.c * sqrtlog(<uint32_t>(S.done + 1))
        # (score_of, from the terms kept: the same values; the first of the best)
        return nd.first + mh_best_score(S.root_mean, S.root_isq, K, S.scores, n)
    return nd.first + unv[rng_below(&S.rs, <uint32_t>unvisited)]


cdef int iterate(search_t* S) noexcept nogil:
    """One iteration (number ``S.done``); -1 when memory runs out (the tree is unchanged
    except for children created: still consistent)."""
    cdef const mh_game_t* g = S.g
    cdef bint ismcts = S.mode == M_ISMCTS or S.mode == M_STRONG
    cdef int64_t depth = 0, j
    cdef int32_t node = 0, child
    cdef int cur, n, k
    cdef rng_t policy
    cdef node_t* nd
    cdef terms_t t
    # (the work struct holds a copy of the root since ``open``: its unchanging head stays)
    memcpy(<char*>S.work + g.fixed, <const char*>S.root + g.fixed, g.size - g.fixed)
    if ismcts:
        g.determinize(S.work, S.seat, rng_derive(S.det_base, <uint64_t>S.done))
    S.path[0] = 0
    S.path_seat[0] = ROOT_SEAT
    while True:
        cur = g.current(S.work)
        if cur == TERMINAL_SEAT:
            break
        nd = &S.nodes[node]
        if cur == CHANCE_SEAT:
            n = g.chance(S.work, S.buf, S.prob)
            if nd.first < 0 or ismcts:
                if merge(S, node, S.buf, n, False) < 0:
                    return -1
                nd = &S.nodes[node]
            k = pick_outcome(S.prob, n, uniform01(&S.rs))
            child = find_child(S, nd, S.buf[k])
            if child < 0:  # an outcome this node has not seen (not in a fixed determinization)
                if merge(S, node, S.buf, n, False) < 0:
                    return -1
                child = find_child(S, &S.nodes[node], S.buf[k])
                if child < 0:  # the tree is at its node budget: play out from here
                    break
        else:
            if ismcts:
                if node == 0 and S.root_n >= 0:
                    child = select_root(S)
                else:
                    n = g.legal(S.work, S.buf)
                    n = merge(S, node, S.buf, n, True)
                    if n < 0:
                        return -1
                    if node == 0:  # the first iteration: the root's children are its legal actions
                        S.root_n = n
                    if n == 0:  # at the node budget, no child legal here: play out from here
                        break
                    child = select_child(S, node, S.compat, n, True, S.n_unv)
            else:
                if nd.first < 0:
                    n = g.legal(S.work, S.buf)
                    k = expand_all(S, node, S.buf, n)
                    if k < 0:
                        return -1
                    if k > 0:  # at the node budget: play out from here
                        break
                child = select_child(S, node, NULL, 0, False, -1)
        g.apply(S.work, S.nodes[child].action)
        depth += 1
        if push(S, depth, child, cur) < 0:
            return -1
        node = child
        if S.nodes[node].visits == 0:
            break
    if g.current(S.work) != TERMINAL_SEAT:
        policy = rng_derive(S.roll_base, <uint64_t>S.done)
        if S.evaluate != NULL:
            strong_playout(S, &policy)
        else:
            mh_playout(g, S.work, &policy, S.ret)
    else:
        g.returns(S.work, S.ret)
    for j in range(depth + 1):
        nd = &S.nodes[S.path[j]]
        nd.visits += 1
        k = S.path_seat[j]
        if k >= 0:
            nd.value += S.ret[k]
    if S.root_n >= 0 and depth >= 1:  # (ISMCTS: the root's child on the path, for select_root)
        k = S.path[1] - S.nodes[0].first
        terms_of(&S.nodes[S.path[1]], &t)
        S.root_mean[k] = t.mean
        S.root_isq[k] = t.isq
    S.done += 1
    return 0


cdef inline double lead_of(const double* vals, int players, int p) noexcept nogil:
    """``vals[p]`` minus the best of the other seats' values (0 with one seat)."""
    cdef double best = -INFINITY
    cdef int q
    for q in range(players):
        if q != p and vals[q] > best:
            best = vals[q]
    return vals[p] - best if players > 1 else 0.0


cdef void greedy_step(search_t* S, int cur, rng_t* policy) noexcept nogil:
    """Apply the legal action whose result the game's evaluation rates best for ``cur``
    (its value minus the best other seat's). Ties are drawn uniformly from ``policy``: the
    ``t``-th action of equal best rating replaces the one kept when ``rng_below(policy, t)``
    is 0 (a draw per tie after the first), so that a play-out whose moves mostly tie (a card
    laid where it changes nothing yet) is not always the lowest action."""
    cdef const mh_game_t* g = S.g
    cdef int n = g.legal(S.work, S.buf), k, best = 0
    cdef uint32_t ties = 0
    cdef double v, best_v = -INFINITY
    for k in range(n):
        memcpy(<char*>S.scratch + g.fixed, <const char*>S.work + g.fixed, g.size - g.fixed)
        g.apply(S.scratch, S.buf[k])
        if g.current(S.scratch) == TERMINAL_SEAT:
            g.returns(S.scratch, S.vals)
            v = 1e9 * S.vals[cur]  # a finished game: its result outweighs any evaluation
        else:
            S.evaluate(S.scratch, S.vals)
            v = lead_of(S.vals, S.players, cur)
        if v > best_v:
            best_v = v
            best = k
            ties = 1
        elif v == best_v:
            ties += 1
            if rng_below(policy, ties) == 0:
                best = k
    g.apply(S.work, S.buf[best])


cdef void strong_playout(search_t* S, rng_t* policy) noexcept nogil:
    """The strong search's play-out from ``S.work`` (not at the end): up to ``S.depth``
    actions (each the greedy one with chance ``S.greedy``, else uniformly random; chance
    outcomes by their probabilities), then the returns: the game's own at the end, else
    ``tanh(lead / scale)`` per seat from the evaluation (``lead``: the seat's value minus the
    best other seat's)."""
    cdef const mh_game_t* g = S.g
    cdef int steps = 0, cur = g.current(S.work), n, p
    while True:
        if cur == TERMINAL_SEAT:
            g.returns(S.work, S.ret)
            return
        if steps >= S.depth:
            break
        if cur == CHANCE_SEAT:
            n = g.chance(S.work, S.buf, S.prob)
            g.apply(S.work, S.buf[pick_outcome(S.prob, n, uniform01(policy))])
            cur = g.current(S.work)
        elif S.greedy > 0.0 and uniform01(policy) < S.greedy:
            greedy_step(S, cur, policy)
            cur = g.current(S.work)
        else:
            cur = mh_random_step(g, S.work, policy, S.buf)  # (it returns the seat to move)
        steps += 1
    S.evaluate(S.work, S.vals)
    for p in range(S.players):
        S.ret[p] = tanh(lead_of(S.vals, S.players, p) / S.scale)


#: with a time limit, the clock is read after every this many iterations (a power of 2)
DEF CLOCK_EVERY = 4


cdef int run_batch(search_t* S, int64_t count, double deadline) noexcept nogil:
    """``count`` iterations, or fewer when ``deadline`` (``mh_now`` seconds; <= 0: none)
    passes: the clock is read every ``CLOCK_EVERY`` iterations, so a time limit overshoots
    by at most a few iterations. 1 when the deadline passed, -1 when memory ran out."""
    cdef int64_t k
    for k in range(count):
        if iterate(S) < 0:
            S.failed = 1
            return -1
        if deadline > 0.0 and (k & (CLOCK_EVERY - 1)) == CLOCK_EVERY - 1 and mh_now() >= deadline:
            return 1
    return 0


cdef class _Search:
    """Owns the memory of one search (freed by ``close`` or when collected). ``S`` starts
    zeroed (the allocation of a cdef class's object zero-fills it): every pointer NULL."""
    cdef search_t S

    cdef int open(self, object state, int mode, double c, uint64_t seed, int depth=-1, double scale=1.0,
                  double greedy=0.0, int64_t max_nodes=MAX_NODES) except -1:
        cdef search_t* S = &self.S
        cdef mh_dims_t d
        cdef const mh_game_t* g = game_of(state)
        cdef void* src = state_of(state)
        cdef int cur = g.current(src)
        if cur < 0:
            raise ValueError("search: the state is " + ("over" if cur == TERMINAL_SEAT else
                             "a chance node (resolve chance first)") + ": there is no seat to move")
        g.dims(src, &d)
        if d.players < 1 or d.players > MAX_SEATS or d.max_legal < 1:
            raise ValueError(f"search: the game's interface reports bad dimensions {d}")
        S.g = g
        S.mode = mode
        S.seat = cur
        S.players = d.players
        S.max_legal = d.max_legal
        S.c = c
        S.det_base = rng_derive(seed, 1)
        S.rs = rng_derive(seed, 2)
        S.roll_base = rng_derive(seed, 3)
        S.done = 0
        S.failed = 0
        S.root = PyMem_RawMalloc(g.size)
        S.work = PyMem_RawMalloc(g.size)
        S.buf = <int32_t*>PyMem_RawMalloc(sizeof(int32_t) * (d.max_legal + 1))  # (merge's sentinel)
        S.prob = <double*>PyMem_RawMalloc(sizeof(double) * d.max_legal)
        S.compat = <int32_t*>PyMem_RawMalloc(sizeof(int32_t) * (d.max_legal + 1))
        S.root_mean = <double*>PyMem_RawMalloc(sizeof(double) * 2 * d.max_legal)
        S.root_isq = S.root_mean + d.max_legal if S.root_mean != NULL else NULL
        S.scores = <double*>PyMem_RawMalloc(sizeof(double) * max(d.num_actions, d.max_legal, 1))
        S.unv = <int32_t*>PyMem_RawMalloc(sizeof(int32_t) * max(d.num_actions, d.max_legal, 1))
        S.num_actions = d.num_actions
        S.root_n = -1
        S.root_full = 0
        S.path_cap = 64
        S.path = <int32_t*>PyMem_RawMalloc(sizeof(int32_t) * S.path_cap)
        S.path_seat = <int32_t*>PyMem_RawMalloc(sizeof(int32_t) * S.path_cap)
        S.ret = <double*>PyMem_RawMalloc(sizeof(double) * d.players)
        S.max_nodes = max_nodes
        S.cap_nodes = max(1024, min(INITIAL_NODES, max_nodes))
        S.nodes = <node_t*>PyMem_RawMalloc(sizeof(node_t) * S.cap_nodes)
        S.evaluate = NULL
        if mode == M_STRONG and depth >= 0:
            S.evaluate = <evaluate_fn>mh_evaluate_of(g, src)  # (NULL: full play-outs)
        S.depth = depth
        S.scale = scale
        S.greedy = greedy
        S.scratch = PyMem_RawMalloc(g.size)
        S.vals = <double*>PyMem_RawMalloc(sizeof(double) * d.players)
        if (S.scratch == NULL or S.vals == NULL or S.root == NULL or S.work == NULL or S.buf == NULL or S.prob == NULL or S.compat == NULL
                or S.root_mean == NULL or S.scores == NULL or S.unv == NULL
                or S.path == NULL or S.path_seat == NULL or S.ret == NULL or S.nodes == NULL):
            self.close()
            raise MemoryError()
        memcpy(S.root, src, g.size)
        memcpy(S.work, src, g.size)  # (whole, once: the iterations copy from ``g.fixed`` on)
        memcpy(S.scratch, src, g.size)
        if mode == M_MCTS:
            g.determinize(S.root, cur, S.det_base)
        init_node(&S.nodes[0], -1)
        S.n_nodes = 1
        S.live = 1
        return 0

    cdef void close(self) noexcept:
        """Free every buffer of the search and set its pointer to NULL (``close`` may run
        again: after a failed allocation, then at ``__dealloc__``)."""
        cdef search_t* S = &self.S
        cdef void** owned[14]
        cdef int i
        owned[:] = [<void**>&S.root, <void**>&S.work, <void**>&S.nodes, <void**>&S.buf,
                    <void**>&S.prob, <void**>&S.compat, <void**>&S.unv, <void**>&S.root_mean,
                    <void**>&S.path, <void**>&S.path_seat, <void**>&S.ret, <void**>&S.scratch,
                    <void**>&S.vals, <void**>&S.scores]
        for i in range(14):
            PyMem_RawFree(owned[i][0])
            owned[i][0] = NULL
        S.root_isq = NULL

    def __dealloc__(self):
        self.close()

    cdef int run(self, int64_t count, double deadline=0.0) except -1:
        """``run_batch``; 1 when the deadline passed."""
        cdef int r
        with nogil:
            r = run_batch(&self.S, count, deadline)
        if r < 0:
            raise MemoryError(f"search: out of memory after {self.S.done} iterations "
                              f"({self.S.n_nodes} nodes): give the search a smaller node budget")
        return 0

    cdef tuple root_stats(self):
        cdef node_t* root = &self.S.nodes[0]
        cdef int n = root.nchild if root.first >= 0 else 0
        cdef int k
        cdef node_t* ch
        actions = np.empty(n, dtype=np.int64)
        visits = np.empty(n, dtype=np.int64)
        values = np.empty(n, dtype=np.float64)
        avail = np.empty(n, dtype=np.int64)
        cdef int64_t[::1] av = actions
        cdef int64_t[::1] vv = visits
        cdef double[::1] wv = values
        cdef int64_t[::1] mv = avail
        for k in range(n):
            ch = &self.S.nodes[root.first + k]
            av[k] = ch.action
            vv[k] = ch.visits
            wv[k] = ch.value
            # ISMCTS counts the root's availability once (select_root): every iteration
            mv[k] = self.S.done if (self.S.mode == M_ISMCTS or self.S.mode == M_STRONG) else ch.avail
        return actions, visits, values, avail


#: the time one batch of iterations should take (seconds): Ctrl-C waits at most about this long
BATCH_SECONDS = 0.02


def search(state, int mode, iterations, time_limit, seed, double c, int depth=-1, double scale=1.0,
           double greedy=0.0, nodes=2147483647):  # MAX_NODES, a literal so that inspect.signature reads it
    """Run one search from compiled ``state`` (a seat to move), with ``iterations`` (an int
    >= 1, or None) and/or ``time_limit`` (seconds, or None; at least one iteration runs).

    Returns ``(actions, visits, values, avail, iterations_done, nodes, tree_bytes)``: the
    root's children (ascending actions; ``values`` are sums of the mover's returns), the
    iterations run, the nodes in the tree and the bytes its array held. A search never runs
    more than 2**31 - 1 iterations (the 32-bit visit counts). ``nodes`` (1 to 2**31 - 1) is
    the node budget: the tree's array never holds more than that many nodes (used slots,
    room kept in blocks of children included; the root's children are always made), so
    ``tree_bytes`` stays at most ``32 * max(nodes, 1 + root's children, 1024)``; at the budget
    the iterations go on in the tree as it is (``iterate``). The arguments are checked by
    the caller (``mousehole.bots``). ``depth``, ``scale`` and ``greedy`` shape the play-outs
    of ``MODE_STRONG`` (ignored by the other modes)."""
    cdef _Search srch = _Search()
    cdef int64_t budget = -1
    cdef int64_t batch = 16, want
    cdef double limit = -1.0
    cdef double t0, elapsed, rate, deadline = 0.0
    cdef int late = 0
    # (a NaN or infinite c would make every score NaN and leave no child chosen; a NaN
    # time limit would never be reached)
    if not (c >= 0.0 and c < INFINITY):
        raise ValueError(f"search: c must be a finite number >= 0, got {c!r}")
    if iterations is not None:
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise ValueError(f"search: iterations must be an int >= 1 or None, got {iterations!r}")
        budget = <int64_t>min(iterations, MAX_ITERATIONS)
    if time_limit is not None:
        limit = <double>time_limit
        if not (limit >= 0.0 and limit < INFINITY):
            raise ValueError(f"search: time_limit must be a finite number >= 0 or None, got {time_limit!r}")
    if budget < 0 and limit < 0:
        raise ValueError("search: give iterations or a time_limit")
    if budget < 0 or budget > MAX_ITERATIONS:
        budget = MAX_ITERATIONS
    if mode != M_OPEN and mode != M_MCTS and mode != M_ISMCTS and mode != M_STRONG:
        raise ValueError(f"search: unknown mode {mode}")
    if not (scale > 0.0 and scale < INFINITY):
        raise ValueError(f"search: scale must be a finite number > 0, got {scale!r}")
    if not (greedy >= 0.0 and greedy <= 1.0):
        raise ValueError(f"search: greedy must be from 0 to 1, got {greedy!r}")
    if isinstance(nodes, bool) or not isinstance(nodes, int) or not 1 <= nodes <= MAX_NODES:
        raise ValueError(f"search: nodes must be an int from 1 to {MAX_NODES}, got {nodes!r}")
    srch.open(state, mode, c, <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF), depth, scale, greedy, <int64_t>nodes)
    try:
        t0 = mh_now()
        if limit >= 0:
            deadline = t0 + limit  # (checked inside the batches too: run_batch)
            if deadline <= 0.0:  # pragma: no cover - a clock at its epoch
                deadline = 1e-300
        while True:
            want = batch
            if srch.S.done >= budget:
                break
            if want > budget - srch.S.done:
                want = budget - srch.S.done
            late = srch.run(want, deadline)
            PyErr_CheckSignals()
            elapsed = mh_now() - t0
            if late or (limit >= 0 and elapsed >= limit):
                break
            # the next batch: about BATCH_SECONDS (and no further than the time limit)
            rate = srch.S.done / elapsed if elapsed > 0 else 0.0
            if rate > 0:
                want = <int64_t>(rate * BATCH_SECONDS)
                if limit >= 0 and <int64_t>(rate * (limit - elapsed)) + 1 < want:
                    want = <int64_t>(rate * (limit - elapsed)) + 1
                batch = max(1, min(want, 4 * batch))
            else:
                batch *= 4
        actions, visits, values, avail = srch.root_stats()
        return (actions, visits, values, avail, srch.S.done, srch.S.live,
                srch.S.cap_nodes * sizeof(node_t))
    finally:
        srch.close()
