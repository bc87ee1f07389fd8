"""``mousehole.bots``: players for every game (``docs/bots.md``).

>>> import mousehole
>>> from mousehole.bots import MCTSBot, RandomBot
>>> game = mousehole.load("cheese_rescue", players=2)
>>> state = game.new_state(seed=3)
>>> bots = [MCTSBot(200, seed=1), RandomBot(seed=2)]
>>> while not state.is_terminal():
...     state.apply_action(bots[state.current_player].step(state))
>>> state.is_terminal()
True

A bot is any object with ``step(state) -> int`` (the action it plays; the state is not
changed) and ``reset()`` (forget everything, start the seed sequence again): the
:class:`Bot` protocol. Every bot here uses only what the seat to move may see: the search
bots and :class:`GreedyBot` work on determinizations of the seat's view
(``state.determinize(seat, seed)``, which depends on ``state.to_dict(for_player=seat)`` and
the seed alone), :class:`RandomBot` on the legal actions. So a bot plays the same move on a
state and on any state its seat cannot tell apart from it.

Seeds. A bot built with ``seed`` draws the seed of its ``k``-th ``step`` (counted from the last
``reset()``) as ``derive(seed, k)`` (``docs/rng.md``); the same bot seed and the same
sequence of states give the same moves, on either engine and on every machine (except with a
``time_limit``, whose iteration count depends on the machine).

The search (``search``; ``MCTSBot``, ``ISMCTSBot``) runs in compiled code (``_search.pyx``,
written once over the C-level game interface) whenever the compiled engine is available, also
for a reference-engine state (which is converted through its state dict); without it (for
example ``MOUSEHOLE_PUREPYTHON=1``) a pure-Python search with exactly the same algorithm and
random numbers runs instead (the same moves, much slower).

Threads. ``search`` and the bots' ``step`` first take a copy of the state (``clone()``) and
check and search that copy alone, so another thread that plays on the state meanwhile
cannot change a search under way: the result is the one of the position the copy was taken
from. Every compiled search owns its tree and its copies of the state (nothing is shared
between two searches), so any number of threads may search at once, also from one state.
A bot may be stepped from two threads at once: each step draws its own ``k`` (the seed
counter is taken under a lock), though which thread gets which ``k`` is then up to timing.
"""
from __future__ import annotations

import dataclasses
import math
import numbers
import threading
import time
from typing import (  # (runtime_checkable: isinstance checks)
    Any,
    Callable,
    Dict,
    List,
    Optional,
    Protocol,
    Sequence,
    Tuple,
    runtime_checkable,
)

import numpy as np

from ._api import CHANCE, TERMINAL, Game, ParameterError, StateAPI, as_int, available_engines, load
from ._rng import Rng, derive

__all__ = [
    "Bot",
    "RandomBot",
    "GreedyBot",
    "MCTSBot",
    "ISMCTSBot",
    "SearchResult",
    "search",
    "make_bot",
    "heuristic",
    "DEFAULT_C",
    "DEFAULT_ITERATIONS",
    "ALGORITHMS",
]

#: the exploration constant ``c`` of the UCB rule ``mean + c * sqrt(ln N / n)``, for returns
#: in [-1, 1] (a win +1, a loss -1); the compiled search uses the same
DEFAULT_C = 1.0
#: the iterations of a search when neither ``iterations`` nor ``time_limit`` is given
DEFAULT_ITERATIONS = 1000
#: the algorithms of :func:`search` (``"open"`` sees hidden information: analysis and tests only)
ALGORITHMS = ("mcts", "ismcts", "open")
_MODES = {"open": 0, "mcts": 1, "ismcts": 2}
#: the most iterations one search may be asked for
MAX_ITERATIONS = 2 ** 31 - 1


@runtime_checkable
class Bot(Protocol):
    """What the arena, the command line and the environments call: a bot plays the seat to
    move of the states it is given."""

    def step(self, state: StateAPI[Any]) -> int:
        """The action to play in ``state`` (a legal action of the seat to move); the state
        is not changed."""
        ...

    def reset(self) -> None:
        """Forget everything (a new game): the next ``step`` behaves as a fresh bot's."""
        ...


# --------------------------------------------------------------------------------------
# argument checks


def _check_seed(seed: Any) -> int:
    v = as_int(seed)
    if v is None:
        raise TypeError(f"seed must be an int, not {type(seed).__name__}")
    return v & 0xFFFFFFFFFFFFFFFF


def _real(x: Any, what: str) -> float:
    """``x`` as a float when it is a real number (an int, a float, a numpy number; not a bool)."""
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Real):
        raise TypeError(f"{what} must be a number, not {type(x).__name__}")
    return float(x)


def _check_iterations(iterations: Any, time_limit: Any) -> Tuple[Optional[int], Optional[float]]:
    """``(iterations, time_limit)`` checked; ``iterations`` defaults to
    :data:`DEFAULT_ITERATIONS` when neither is given."""
    limit: Optional[float] = None
    if time_limit is not None:
        limit = _real(time_limit, "time_limit (seconds)")
        if not (limit > 0.0 and math.isfinite(limit)):
            raise ValueError(f"time_limit must be a positive, finite number of seconds, got {time_limit!r}")
    if iterations is None:
        return (DEFAULT_ITERATIONS if limit is None else None), limit
    n = as_int(iterations)
    if n is None:
        raise TypeError(f"iterations must be an int, not {type(iterations).__name__}")
    if not 1 <= n <= MAX_ITERATIONS:
        raise ValueError(f"iterations must be from 1 to {MAX_ITERATIONS}, got {n}")
    return n, limit


def _check_c(c: Any) -> float:
    v = _real(c, "c (the exploration constant)")
    if not (v >= 0.0 and math.isfinite(v)):
        raise ValueError(f"c (the exploration constant) must be a finite number >= 0, got {c!r}")
    return v


def _check_state(state: Any, who: str) -> int:
    """The seat to move of ``state``; TypeError / ValueError when there is none."""
    if not isinstance(state, StateAPI):
        raise TypeError(f"{who}: expected a mousehole state, not {type(state).__name__}")
    cp = state.current_player
    if cp == TERMINAL:
        raise ValueError(f"{who}: the game is over: there is no move to choose")
    if cp == CHANCE:
        raise ValueError(f"{who}: the state is a chance node: resolve chance first (no seat moves here)")
    return int(cp)


# --------------------------------------------------------------------------------------
# search


@dataclasses.dataclass(frozen=True)
class SearchResult:
    """The outcome of one search: the chosen action and the root's statistics."""

    #: the chosen action: the most visited child of the root that is legal (ties: lowest action)
    action: int
    #: the root's children, by ascending action
    actions: Tuple[int, ...]
    #: per child, its visits (they add up to ``iterations``)
    visits: Tuple[int, ...]
    #: per child, the sum of the returns of the seat to move over the iterations through it
    values: Tuple[float, ...]
    #: the iterations run
    iterations: int
    #: the nodes the tree had at the end
    nodes: int
    #: ``"mcts"``, ``"ismcts"`` or ``"open"``
    algorithm: str
    #: ``"compiled"`` (``_search.pyx``) or ``"python"`` (the pure-Python search)
    engine: str

    def visit_counts(self) -> Dict[int, int]:
        """``{action: visits}`` for every child of the root."""
        return dict(zip(self.actions, self.visits))

    def mean_values(self) -> Dict[int, float]:
        """``{action: mean return of the seat to move}`` for every visited child."""
        return {a: w / n for a, n, w in zip(self.actions, self.visits, self.values) if n}


def _choose(actions: Sequence[int], visits: Sequence[int], legal: Sequence[int]) -> int:
    """The most visited legal action (ties: the lowest); the lowest legal action when no
    legal action was visited."""
    if visits and len(actions) == len(legal) and list(actions) == legal:
        # the usual case, the root's children are the legal actions (both ascending): the
        # first of the most visited is the lowest of them
        return actions[visits.index(max(visits))]
    ok = set(legal)
    best, best_n = -1, -1
    for a, n in zip(actions, visits):
        if a in ok and n > best_n:
            best, best_n = a, n
    return best if best >= 0 else min(ok)


_TWINS: Dict[Any, Any] = {}
_CSEARCH: List[Any] = []


def _compiled_search() -> Any:
    """The compiled ``_search.search``, or None where the extension is missing."""
    if not _CSEARCH:
        fn: Any = None
        if "compiled" in available_engines():
            try:
                from ._search import search as compiled
            except ImportError:  # pragma: no cover - a build without the search extension
                pass
            else:
                fn = compiled
        _CSEARCH.append(fn)
    return _CSEARCH[0]


def _compiled_twin(state: StateAPI[Any]) -> Any:
    """``state`` itself when the compiled search can read it, else a compiled copy of it
    (through its state dict), or None without a compiled search offering the interface."""
    if _compiled_search() is None:
        return None
    if hasattr(state, "_c_game"):
        return state
    game = state.game
    twin = _TWINS.get(game)
    if twin is None:
        try:
            twin = load(game.name, engine="compiled", **game.params)
        except ParameterError:  # the game's extension is missing: no compiled search for it
            return None
        _TWINS[game] = twin
    copy = twin.state_from_dict(state.to_dict())
    return copy if hasattr(copy, "_c_game") else None


def search(state: StateAPI[Any], *, algorithm: str = "mcts", iterations: Optional[int] = None,
           time_limit: Optional[float] = None, seed: int = 0, c: float = DEFAULT_C,
           engine: Optional[str] = None) -> SearchResult:
    """Search ``state`` (a seat to move) and return the chosen action with the root's
    statistics (``docs/bots.md``).

    ``algorithm``: ``"mcts"`` (UCT on one determinization of the seat's view), ``"ismcts"``
    (single-observer information-set MCTS: a fresh determinization every iteration) or
    ``"open"`` (UCT on the state as it is, hidden information included: for analysis and
    tests, not a fair player). ``iterations`` and/or ``time_limit`` (seconds) bound the search
    (``iterations`` defaults to :data:`DEFAULT_ITERATIONS` when neither is given; with both,
    whichever runs out first). ``engine``: ``"compiled"``, ``"python"`` or None (compiled when
    available). The state is not changed: the search works on a copy taken first (see
    *Threads* in the module docstring)."""
    if isinstance(state, StateAPI):
        state = state.clone()  # what is checked below is what is searched
    return _search(state, algorithm=algorithm, iterations=iterations, time_limit=time_limit, seed=seed,
                   c=c, engine=engine)


def _search(state: StateAPI[Any], *, algorithm: str, iterations: Optional[int], time_limit: Optional[float],
            seed: int, c: float, engine: Optional[str]) -> SearchResult:
    """``search`` of a state no other thread can reach (a private copy)."""
    seat = _check_state(state, "search")
    if not isinstance(algorithm, str) or algorithm not in _MODES:
        raise ValueError(f"search: algorithm must be one of {', '.join(ALGORITHMS)}, got {algorithm!r}")
    n, limit = _check_iterations(iterations, time_limit)
    s = _check_seed(seed)
    cc = _check_c(c)
    if engine not in (None, "compiled", "python"):
        raise ValueError(f"search: engine must be 'compiled', 'python' or None, got {engine!r}")
    legal: List[int] = state.legal_actions().tolist()  # (an int64 array: Python ints)
    target = None if engine == "python" else _compiled_twin(state)
    if target is None and engine == "compiled":
        raise ValueError(f"search: the compiled search is not available for {state.game.name} here "
                         "(no compiled engine or search extension, or the game's interface is missing)")
    if target is not None:
        csearch = _compiled_search()
        actions, visits, values, _avail, done, nodes, _bytes = csearch(target, _MODES[algorithm], n, limit, s, cc)
        acts = tuple(actions.tolist())  # (numpy's tolist gives Python ints and floats)
        vis = tuple(visits.tolist())
        return SearchResult(_choose(acts, vis, legal), acts, vis, tuple(values.tolist()),
                            int(done), int(nodes), algorithm, "compiled")
    root, done, nodes = _py_search(state, seat, _MODES[algorithm], n, limit, s, cc)
    kids = root.children or []
    acts = tuple(ch.action for ch in kids)
    vis = tuple(ch.visits for ch in kids)
    return SearchResult(_choose(acts, vis, legal), acts, vis, tuple(ch.value for ch in kids), done, nodes,
                        algorithm, "python")


# ---- the pure-Python search: the same algorithm and random numbers as _search.pyx -----------


class _Node:
    __slots__ = ("value", "visits", "avail", "action", "children", "keys")

    def __init__(self, action: int) -> None:
        self.value = 0.0
        self.visits = 0
        self.avail = 0
        self.action = action
        self.children: Optional[List[_Node]] = None
        self.keys: List[int] = []


def _sqrtlog(n: int) -> float:
    return math.sqrt(math.log(n)) if n > 0 else 0.0


def _score(ch: _Node, k: float) -> float:
    """``score_of`` of _search.pyx: ``value * (1 / n) + k * (1 / sqrt(n))``."""
    n = ch.visits
    return ch.value * (1.0 / n) + k * (1.0 / math.sqrt(n))


def _merge(node: _Node, acts: Sequence[int]) -> Tuple[List[_Node], int]:
    """Every listed action (ascending) made a child of ``node``; returns the child of each
    and the number of children created."""
    if node.children is None:
        node.children = [_Node(a) for a in acts]
        node.keys = list(acts)
        return list(node.children), len(acts)
    index = {a: i for i, a in enumerate(node.keys)}
    missing = [a for a in acts if a not in index]
    if missing:
        merged = sorted([(ch.action, ch) for ch in node.children] + [(a, _Node(a)) for a in missing],
                        key=lambda t: t[0])
        node.children = [ch for _, ch in merged]
        node.keys = [a for a, _ in merged]
        index = {a: i for i, a in enumerate(node.keys)}
    return [node.children[index[a]] for a in acts], len(missing)


def _find(node: _Node, a: int) -> Optional[_Node]:
    assert node.children is not None
    for ch in node.children:
        if ch.action == a:
            return ch
    return None


def _select(node: _Node, compat: Optional[List[_Node]], rs: Rng, c: float) -> _Node:
    """``select_child`` of _search.pyx: ISMCTS among ``compat`` (availability counted), UCT
    among all children (``compat`` None)."""
    if compat is not None:
        for ch in compat:
            ch.avail += 1
        unvisited = [ch for ch in compat if ch.visits == 0]
        if unvisited:
            return unvisited[rs.below(len(unvisited))]
        best: Optional[_Node] = None
        best_score = 0.0
        for ch in compat:
            score = _score(ch, c * _sqrtlog(ch.avail))
            if best is None or score > best_score:
                best, best_score = ch, score
        assert best is not None
        return best
    kids = node.children
    assert kids is not None
    unvisited = [ch for ch in kids if ch.visits == 0]
    if unvisited:
        return unvisited[rs.below(len(unvisited))]
    k = c * _sqrtlog(node.visits)
    best = None
    for ch in kids:
        score = _score(ch, k)
        if best is None or score > best_score:
            best, best_score = ch, score
    assert best is not None
    return best


def _rollout(state: StateAPI[Any], policy: Rng) -> None:
    """``simulate``'s action model (``docs/rng.md``): uniform over ``legal_actions()``, at
    chance nodes too."""
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(int(legal[policy.below(len(legal))]))


def _chance_child(node: _Node, work: StateAPI[Any], rs: Rng, mode: int) -> Tuple[_Node, int]:
    """At a chance node of the search: the child of an outcome drawn by its probability from
    ``rs``, and the number of nodes made."""
    outs = work.chance_outcomes()
    acts = [int(a) for a, _ in outs]
    made = 0
    if node.children is None or mode == 2:
        made += _merge(node, acts)[1]
    u = (rs.next64() >> 11) * (1.0 / 9007199254740992.0)
    acc = 0.0
    k = len(outs) - 1
    for j in range(len(outs) - 1):
        acc += outs[j][1]
        if u < acc:
            k = j
            break
    child = _find(node, acts[k])
    if child is None:
        made += _merge(node, acts)[1]
        child = _find(node, acts[k])
    assert child is not None
    return child, made


def _py_search(state: StateAPI[Any], seat: int, mode: int, iterations: Optional[int], time_limit: Optional[float],
               seed: int, c: float) -> Tuple[_Node, int, int]:
    """The pure-Python twin of ``_search.search``: ``(root, iterations_done, nodes)``."""
    det_base = derive(seed, 1)
    rs = Rng(derive(seed, 2))
    roll_base = derive(seed, 3)
    base = state.determinize(seat, det_base) if mode == 1 else state
    root = _Node(-1)
    root_compat: Optional[List[_Node]] = None
    nodes = 1
    done = 0
    t0 = time.perf_counter()
    while iterations is None or done < iterations:
        work = state.determinize(seat, derive(det_base, done)) if mode == 2 else base.clone()
        node = root
        path: List[Tuple[_Node, int]] = [(root, -2)]
        while True:
            cur = work.current_player
            if cur == TERMINAL:
                break
            if cur == CHANCE:
                child, made = _chance_child(node, work, rs, mode)
                nodes += made
            elif mode == 2:
                if node is root and root_compat is not None:
                    compat = root_compat  # the seat's own legal actions: listed once
                else:
                    compat, made = _merge(node, [int(a) for a in work.legal_actions()])
                    nodes += made
                    if node is root:
                        root_compat = compat
                child = _select(node, compat, rs, c)
            else:
                if node.children is None:
                    nodes += _merge(node, [int(a) for a in work.legal_actions()])[1]
                child = _select(node, None, rs, c)
            work.apply_action(child.action)
            path.append((child, cur))
            node = child
            if child.visits == 0:
                break
        if not work.is_terminal():
            _rollout(work, Rng(derive(roll_base, done)))
        ret = work.returns()
        for nd, mover in path:
            nd.visits += 1
            if mover >= 0:
                nd.value += ret[mover]
        done += 1
        if time_limit is not None and time.perf_counter() - t0 >= time_limit:
            break
    return root, done, nodes


# --------------------------------------------------------------------------------------
# bots


class RandomBot:
    """Uniform over the legal actions, from its own generator (``Rng(seed)``)."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = _check_seed(seed)
        self._rng = Rng(self.seed)

    def step(self, state: StateAPI[Any]) -> int:
        _check_state(state, "RandomBot.step")
        legal = state.legal_actions()
        return int(legal[self._rng.below(len(legal))])

    def reset(self) -> None:
        self._rng = Rng(self.seed)

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed})"


#: taken while a bot counts its steps (one lock for every bot: a bot stays picklable)
_SEED_LOCK = threading.Lock()


class _Seeded:
    """A bot whose ``k``-th step (since the last reset) uses the seed ``derive(seed, k)``."""

    def __init__(self, seed: int) -> None:
        self.seed = _check_seed(seed)
        self._calls = 0

    def _next_seed(self) -> int:
        with _SEED_LOCK:  # two threads stepping one bot never draw the same k
            k = self._calls
            self._calls = k + 1
        return derive(self.seed, k)

    def reset(self) -> None:
        self._calls = 0


class MCTSBot(_Seeded):
    """UCT Monte Carlo tree search with random rollouts (``simulate``'s action model).

    At every move the bot draws ONE determinization of its seat's view (hidden cards
    re-dealt, the state's generator re-seeded: for a game without hidden cards, such as
    Kater Kasimir, only the hidden future, the dice, differs) and searches it as a game of
    perfect information. ``iterations`` (default 1000 when no ``time_limit``) and/or
    ``time_limit`` (seconds) bound the search; ``c`` is the exploration constant. The root
    statistics of the last move are in ``last_search``."""

    algorithm = "mcts"

    def __init__(self, iterations: Optional[int] = None, *, time_limit: Optional[float] = None, seed: int = 0,
                 c: float = DEFAULT_C) -> None:
        super().__init__(seed)
        self.iterations, self.time_limit = _check_iterations(iterations, time_limit)
        self.c = _check_c(c)
        self.last_search: Optional[SearchResult] = None

    def step(self, state: StateAPI[Any]) -> int:
        if isinstance(state, StateAPI):
            state = state.clone()  # checked and searched alike, whatever other threads do
        _check_state(state, f"{type(self).__name__}.step")
        res = _search(state, algorithm=self.algorithm, iterations=self.iterations, time_limit=self.time_limit,
                      seed=self._next_seed(), c=self.c, engine=None)
        self.last_search = res
        return res.action

    def reset(self) -> None:
        super().reset()
        self.last_search = None

    def __repr__(self) -> str:
        budget = f"{self.iterations}" if self.iterations is not None else ""
        if self.time_limit is not None:
            budget += (", " if budget else "") + f"time_limit={self.time_limit}"
        return f"{type(self).__name__}({budget}, seed={self.seed}, c={self.c})"


class ISMCTSBot(MCTSBot):
    """Single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012): every
    iteration starts from a fresh determinization of the bot's own view and descends only
    through actions legal in it, choosing by UCB with availability counts. Same parameters
    as :class:`MCTSBot`."""

    algorithm = "ismcts"


# ---- GreedyBot and its heuristics -----------------------------------------------------------

#: ``heuristic(state, seat) -> float``: how good ``state`` (a full state: a determinization) is for ``seat``
Heuristic = Callable[[StateAPI[Any], int], float]


def heuristic(game: Game[Any, Any]) -> Heuristic:
    """The :class:`GreedyBot` heuristic of ``game``: ``f(state, seat) -> float``, the game's
    own :meth:`~mousehole.Game.greedy_value` (each game module defines it beside its rules).
    Raises ``ValueError`` for a game that declares none."""
    if getattr(type(game), "greedy_value", Game.greedy_value) is Game.greedy_value:
        raise ValueError(f"GreedyBot has no heuristic for the game {game.name!r}")
    return game.greedy_value


class GreedyBot(_Seeded):
    """One-ply lookahead with a heuristic per game (:func:`heuristic`, ``docs/bots.md``).

    At every move the bot draws one determinization of its seat's view, plays each legal
    action on a copy of it, and keeps the action whose result the game's heuristic rates
    best for its seat (ties: drawn at random from its own generator)."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self._rng = Rng(derive(self.seed, 2 ** 63))

    def step(self, state: StateAPI[Any]) -> int:
        seat = _check_state(state, "GreedyBot.step")
        value = heuristic(state.game)
        world = state.determinize(seat, self._next_seed())
        best: List[int] = []
        best_v = -math.inf
        for a in state.legal_actions().tolist():
            after = world.clone()
            after.apply_action(a)
            v = value(after, seat)
            if v > best_v:
                best, best_v = [a], v
            elif v == best_v:
                best.append(a)
        return int(best[0] if len(best) == 1 else best[self._rng.below(len(best))])

    def reset(self) -> None:
        super().reset()
        self._rng = Rng(derive(self.seed, 2 ** 63))

    def __repr__(self) -> str:
        return f"GreedyBot(seed={self.seed})"


# --------------------------------------------------------------------------------------
# specs


SPECS = ("random", "greedy", "mcts[:ITERATIONS]", "ismcts[:ITERATIONS]")


def make_bot(spec: str, seed: int = 0) -> Bot:
    """A bot from its spec: ``"random"``, ``"greedy"``, ``"mcts"``, ``"mcts:1000"``,
    ``"ismcts"``, ``"ismcts:500"`` (the number is the iterations per move). Raises
    ``ValueError`` naming the bad spec."""
    if not isinstance(spec, str):
        raise TypeError(f"a bot spec is a str such as 'mcts:1000', not {type(spec).__name__}")
    text = spec.strip().lower()
    name, sep, arg = text.partition(":")
    allowed = ", ".join(repr(s) for s in SPECS)
    if name in ("random", "greedy"):
        if sep:
            raise ValueError(f"bad bot spec {spec!r}: {name!r} takes no parameter (allowed: {allowed})")
        return RandomBot(seed) if name == "random" else GreedyBot(seed)
    if name in ("mcts", "ismcts"):
        iterations: Optional[int] = None
        if sep:
            if not arg.isdigit() or not 1 <= int(arg) <= MAX_ITERATIONS:
                raise ValueError(f"bad bot spec {spec!r}: the iterations after {name + ':'!r} must be an int "
                                 f"from 1 to {MAX_ITERATIONS} (allowed: {allowed})")
            iterations = int(arg)
        cls = MCTSBot if name == "mcts" else ISMCTSBot
        return cls(iterations, seed=seed)
    raise ValueError(f"unknown bot spec {spec!r}; allowed: {allowed}")
