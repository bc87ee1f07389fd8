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
``time_limit``, whose iteration count depends on the machine). A bot whose seat has one legal
action plays it without a search; that step still counts (``RandomBot`` still draws), so the
moves of a seeded game do not depend on it.

Budgets. A search is bounded by iterations (at most :data:`MAX_ITERATIONS`) and/or time (at
most :data:`MAX_SECONDS` a move) and always by a node budget (``nodes``, default
:data:`DEFAULT_NODES`): there its tree stops growing and the search goes on in it. These
caps are the same for the bot classes, :func:`search`, :func:`make_bot` and its specs and
the command line (``docs/bots.md``).

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
import re
import threading
import time
from typing import (  # (runtime_checkable: isinstance checks)
    Any,
    Callable,
    Dict,
    List,
    Mapping,
    Optional,
    Protocol,
    Sequence,
    Tuple,
    runtime_checkable,
)

import numpy as np

from ._api import CHANCE, ENGINES, TERMINAL, Game, ParameterError, StateAPI, available_engines, index_arg, load
from ._rng import Rng, derive, pick_outcome, unit
from ._values import int_in, shorten, word

__all__ = [
    "Bot",
    "RandomBot",
    "GreedyBot",
    "MCTSBot",
    "ISMCTSBot",
    "StrongBot",
    "StrongTuning",
    "game_tuning",
    "SearchResult",
    "search",
    "make_bot",
    "heuristic",
    "DEFAULT_C",
    "DEFAULT_ITERATIONS",
    "DEFAULT_NODES",
    "MAX_ITERATIONS",
    "MAX_SECONDS",
    "MAX_NODES",
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
# The bounds of a search's budget, the same wherever a budget enters (the bot classes,
# search(), make_bot and its specs, the command line's --time and specs): defined here only.
#: the most iterations one search may be asked for (the tree's visit counts are 32-bit)
MAX_ITERATIONS = 2**31 - 1
#: the longest time one move's search may be given (seconds): a day
MAX_SECONDS = 86400.0
#: the node budget of a search when none is given: the tree stops growing at this many nodes
#: (32 bytes each in the compiled search: 128 MB; about 200 bytes in the pure-Python one)
DEFAULT_NODES = 4_000_000
#: the largest node budget (the compiled tree indexes its nodes with 32-bit ints)
MAX_NODES = 2**31 - 1


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
    v = index_arg(seed, "seed")
    return v & 0xFFFFFFFFFFFFFFFF


def _real(x: Any, what: str) -> float:
    """``x`` as a float when it is a real number (an int, a float, a numpy number; not a bool)."""
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Real):
        raise TypeError(f"{what} must be a number, not {type(x).__name__}")
    return float(x)


def _check_iterations(
    iterations: Any, time_limit: Any, what: str = "time_limit"
) -> Tuple[Optional[int], Optional[float]]:
    """``(iterations, time_limit)`` checked; ``iterations`` defaults to
    :data:`DEFAULT_ITERATIONS` when neither is given (``what``: the time's name in errors)."""
    limit: Optional[float] = None
    if time_limit is not None:
        limit = _real(time_limit, f"{what} (seconds)")
        if not 0.0 < limit <= MAX_SECONDS:  # (False for a NaN)
            raise ValueError(
                f"{what} must be a number of seconds above 0 and at most {MAX_SECONDS:g}, got {shorten(time_limit)}"
            )
    if iterations is None:
        return (DEFAULT_ITERATIONS if limit is None else None), limit
    return int_in(iterations, "iterations", 1, MAX_ITERATIONS), limit


def _check_budget(iterations: Any, time: Any, time_limit: Any) -> Tuple[Optional[int], Optional[float]]:
    """``(iterations, seconds)`` from ``iterations`` and ``time`` (seconds per move) or its
    alias ``time_limit`` (not both)."""
    if time is not None and time_limit is not None:
        raise ValueError("give time or time_limit (the same budget, seconds per move), not both")
    if time is not None:
        return _check_iterations(iterations, time, "time")
    return _check_iterations(iterations, time_limit, "time_limit")


def _check_nodes(nodes: Any) -> int:
    """The node budget: :data:`DEFAULT_NODES` for None, else an int from 1 to :data:`MAX_NODES`."""
    if nodes is None:
        return DEFAULT_NODES
    return int_in(nodes, "nodes (the node budget)", 1, MAX_NODES)


def _check_c(c: Any) -> float:
    v = _real(c, "c (the exploration constant)")
    if not (v >= 0.0 and math.isfinite(v)):
        raise ValueError(f"c (the exploration constant) must be a finite number >= 0, got {shorten(c)}")
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
    #: ``"compiled"`` (``_search.pyx``) or ``"python"`` (the pure-Python search); ``"none"``
    #: for a bot's move that needed no search (one legal action: no iterations, no nodes)
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


def search(
    state: StateAPI[Any],
    *,
    algorithm: str = "mcts",
    iterations: Optional[int] = None,
    time: Optional[float] = None,
    time_limit: Optional[float] = None,
    seed: int = 0,
    c: float = DEFAULT_C,
    engine: Optional[str] = None,
    nodes: Optional[int] = None,
) -> SearchResult:
    """Search ``state`` (a seat to move) and return the chosen action with the root's
    statistics (``docs/bots.md``).

    ``algorithm``: ``"mcts"`` (UCT on one determinization of the seat's view), ``"ismcts"``
    (single-observer information-set MCTS: a fresh determinization every iteration) or
    ``"open"`` (UCT on the state as it is, hidden information included: for analysis and
    tests, not a fair player). ``iterations`` and/or ``time`` (seconds; ``time_limit`` is
    its alias, at most :data:`MAX_SECONDS`) bound the search (``iterations`` defaults to
    :data:`DEFAULT_ITERATIONS` when neither is given; with both, whichever runs out first).
    ``nodes`` is the node budget (default :data:`DEFAULT_NODES`): the tree stops growing
    there and the search goes on in it (``docs/bots.md``). ``engine``: ``"compiled"``,
    ``"python"`` or None (compiled when available). The state is not changed: the search
    works on a copy taken first (see *Threads* in the module docstring)."""
    if isinstance(state, StateAPI):
        state = state.clone()  # what is checked below is what is searched
    n, limit = _check_budget(iterations, time, time_limit)
    if n is None and limit is None:  # pragma: no cover - _check_budget gives one of them
        raise ValueError("search: no budget")
    return _search(
        state, algorithm=algorithm, iterations=n, time_limit=limit, seed=seed, c=c, engine=engine, nodes=nodes
    )


def _search(
    state: StateAPI[Any],
    *,
    algorithm: str,
    iterations: Optional[int],
    time_limit: Optional[float],
    seed: int,
    c: float,
    engine: Optional[str],
    nodes: Optional[int],
) -> SearchResult:
    """``search`` of a state no other thread can reach (a private copy)."""
    seat = _check_state(state, "search")
    mode = word(algorithm, tuple(_MODES))  # (the exact str: docs/api.md, Bounds)
    if mode is None:
        raise ValueError(f"search: algorithm must be one of {', '.join(ALGORITHMS)}, got {shorten(algorithm)}")
    n, limit = _check_iterations(iterations, time_limit)
    room = _check_nodes(nodes)
    s = _check_seed(seed)
    cc = _check_c(c)
    if engine is not None:
        given, engine = engine, word(engine, ENGINES)
        if engine is None:
            raise ValueError(f"search: engine must be 'compiled', 'python' or None, got {shorten(given)}")
    legal: List[int] = state.legal_actions().tolist()  # (an int64 array: Python ints)
    target = None if engine == "python" else _compiled_twin(state)
    if target is None and engine == "compiled":
        raise ValueError(
            f"search: the compiled search is not available for {state.game.name} here "
            "(no compiled engine or search extension, or the game's interface is missing)"
        )
    if target is not None:
        csearch = _compiled_search()
        actions, visits, values, _avail, done, made, _bytes = csearch(target, _MODES[mode], n, limit, s, cc, nodes=room)
        acts = tuple(actions.tolist())  # (numpy's tolist gives Python ints and floats)
        vis = tuple(visits.tolist())
        return SearchResult(
            _choose(acts, vis, legal), acts, vis, tuple(values.tolist()), int(done), int(made), mode, "compiled"
        )
    root, done, made = _py_search(state, seat, _MODES[mode], n, limit, s, cc, max_nodes=room)
    kids = root.children or []
    acts = tuple(ch.action for ch in kids)
    vis = tuple(ch.visits for ch in kids)
    return SearchResult(
        _choose(acts, vis, legal), acts, vis, tuple(ch.value for ch in kids), done, made, mode, "python"
    )


# ---- the pure-Python search: the same algorithm and random numbers as _search.pyx -----------


class _Node:
    __slots__ = ("value", "visits", "avail", "action", "children", "keys", "cap")

    def __init__(self, action: int) -> None:
        self.value = 0.0
        self.visits = 0
        self.avail = 0
        self.action = action
        self.children: Optional[List[_Node]] = None
        self.keys: List[int] = []
        self.cap = 0  # the slots of its block of children in _search.pyx's array


class _Room:
    """The node budget of a search, counted as ``_search.pyx`` fills its array: ``used``
    slots (the root; a block of ``n`` slots per first expansion; a block of ``total + total //
    2`` slots when an ISMCTS node's children outgrow their block) of at most ``limit``."""

    __slots__ = ("used", "limit")

    def __init__(self, limit: int) -> None:
        self.used = 1
        self.limit = limit

    def take(self, slots: int, root: bool) -> bool:
        """Take ``slots`` for the children of a node (the root's: always); False (nothing
        taken) when they would pass the budget."""
        if not root and self.used + slots > self.limit:
            return False
        self.used += slots
        return True


def _sqrtlog(n: int) -> float:
    return math.sqrt(math.log(n)) if n > 0 else 0.0


def _score(ch: _Node, k: float) -> float:
    """``score_of`` of _search.pyx: ``value * (1 / n) + k * (1 / sqrt(n))``."""
    n = ch.visits
    return ch.value * (1.0 / n) + k * (1.0 / math.sqrt(n))


def _merge(node: _Node, acts: Sequence[int], room: _Room, root: bool) -> Tuple[List[_Node], int]:
    """Every listed action (ascending) made a child of ``node``; returns the child of each
    and the number of children created. When the new children would pass the node budget
    (``room``; ``root``: ``node`` is the root, whose children are always made) none is made
    and the children returned are those the listed actions already have (``merge`` of
    _search.pyx)."""
    if node.children is None:
        if not room.take(len(acts), root):
            return [], 0
        node.children = [_Node(a) for a in acts]
        node.keys = list(acts)
        node.cap = len(acts)
        return list(node.children), len(acts)
    index = {a: i for i, a in enumerate(node.keys)}
    missing = [a for a in acts if a not in index]
    if missing:
        total = len(node.keys) + len(missing)
        if total > node.cap:  # a larger block of total + total // 2 slots
            if not room.take(total + total // 2, root):
                return [node.children[index[a]] for a in acts if a in index], 0
            node.cap = total + total // 2
        merged = sorted(
            [(ch.action, ch) for ch in node.children] + [(a, _Node(a)) for a in missing], key=lambda t: t[0]
        )
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


def _chance_child(node: _Node, work: StateAPI[Any], rs: Rng, mode: int, room: _Room) -> Tuple[Optional[_Node], int]:
    """At a chance node of the search: the child of an outcome drawn by its probability from
    ``rs`` (None when the node budget leaves it without one), and the number of nodes made."""
    outs = work.chance_outcomes()
    acts = [int(a) for a, _ in outs]
    made = 0
    if node.children is None or mode >= 2:
        made += _merge(node, acts, room, False)[1]
    k = pick_outcome(outs, unit(rs))
    child = _find(node, acts[k]) if node.children is not None else None
    if child is None:
        made += _merge(node, acts, room, False)[1]
        child = _find(node, acts[k]) if node.children is not None else None
    return child, made


def _seat_child(
    node: _Node, work: StateAPI[Any], mode: int, rs: Rng, c: float, room: _Room, root: bool
) -> Tuple[Optional[_Node], int]:
    """At a seat's node of the search (not the ISMCTS root once listed): the child the
    selection takes (None when the node budget leaves the node no child to take), and the
    number of nodes made."""
    if mode >= 2:  # ISMCTS: among the children legal in this determinization
        compat, made = _merge(node, [int(a) for a in work.legal_actions()], room, root)
        return (_select(node, compat, rs, c) if compat else None), made
    made = 0
    if node.children is None:
        made = _merge(node, [int(a) for a in work.legal_actions()], room, root)[1]
    return (_select(node, None, rs, c) if node.children is not None else None), made


def _py_lead(state: StateAPI[Any], seat: int, value: Heuristic) -> float:
    """``greedy_step``'s rating of a position for ``seat``: the game's result when it is over,
    else the heuristic (the seat's value minus the best other seat's)."""
    if state.is_terminal():
        return 1e9 * float(state.returns()[seat])
    return float(value(state, seat))


def _strong_value(game: Game[Any, Any]) -> Heuristic:
    """The evaluation of the pure-Python strong search: the one the compiled core gives
    (``mh_game_t.evaluate``), the game's :meth:`~mousehole.Game.search_value`."""
    heuristic(game)  # (a game without a greedy_value: the ValueError naming it)
    return game.search_value


def _py_strong_playout(
    work: StateAPI[Any], policy: Rng, depth: int, scale: float, greedy: float, value: Heuristic
) -> List[float]:
    """``strong_playout`` of _search.pyx over the Python API (the evaluation: ``value``,
    :func:`_strong_value`); returns the returns per seat."""
    steps = 0
    n = work.game.num_players
    while True:
        if work.is_terminal():
            return [float(x) for x in work.returns()]
        if steps >= depth:
            break
        cur = work.current_player
        if cur == CHANCE:
            outs = work.chance_outcomes()
            work.apply_action(int(outs[pick_outcome(outs, unit(policy))][0]))
        elif greedy > 0.0 and unit(policy) < greedy:
            best, best_v, ties = -1, -math.inf, 0
            for a in work.legal_actions().tolist():
                after = work.clone()
                after.apply_action(a)
                v = _py_lead(after, cur, value)
                if v > best_v:
                    best, best_v, ties = a, v, 1
                elif v == best_v:  # ties drawn at random, as greedy_step's
                    ties += 1
                    if policy.below(ties) == 0:
                        best = a
            work.apply_action(best)
        else:
            legal = work.legal_actions()
            work.apply_action(int(legal[policy.below(len(legal))]))
        steps += 1
    return [math.tanh(float(value(work, p)) / scale) for p in range(n)]


def _py_search(
    state: StateAPI[Any],
    seat: int,
    mode: int,
    iterations: Optional[int],
    time_limit: Optional[float],
    seed: int,
    c: float,
    strong: Optional[Tuple[int, float, float]] = None,
    max_nodes: int = MAX_NODES,
) -> Tuple[_Node, int, int]:
    """The pure-Python twin of ``_search.search``: ``(root, iterations_done, nodes)``.
    ``strong``: ``(depth, scale, greedy)`` of the strong search (``mode`` 3, the ISMCTS tree);
    ``max_nodes``: the node budget (:class:`_Room`)."""
    value = _strong_value(state.game) if strong is not None and strong[0] >= 0 else None
    det_base = derive(seed, 1)
    rs = Rng(derive(seed, 2))
    roll_base = derive(seed, 3)
    base = state.determinize(seat, det_base) if mode == 1 else state
    root = _Node(-1)
    root_compat: Optional[List[_Node]] = None
    room = _Room(max_nodes)
    nodes = 1
    done = 0
    t0 = time.perf_counter()
    while iterations is None or done < iterations:
        work = state.determinize(seat, derive(det_base, done)) if mode >= 2 else base.clone()
        node = root
        path: List[Tuple[_Node, int]] = [(root, -2)]
        while True:
            cur = work.current_player
            if cur == TERMINAL:
                break
            found: Optional[_Node]
            if cur == CHANCE:
                found, made = _chance_child(node, work, rs, mode, room)
                nodes += made
            elif mode >= 2 and node is root and root_compat is not None:
                found = _select(node, root_compat, rs, c)  # the seat's own legal actions: listed once
            else:
                found, made = _seat_child(node, work, mode, rs, c, room, node is root)
                nodes += made
                if mode >= 2 and node is root:
                    root_compat = list(root.children or ())
            if found is None:  # the tree is at its node budget here: play out from this node
                break
            child = found
            work.apply_action(child.action)
            path.append((child, cur))
            node = child
            if child.visits == 0:
                break
        ret: Sequence[float]
        if work.is_terminal():
            ret = work.returns()
        elif value is not None and strong is not None:
            ret = _py_strong_playout(work, Rng(derive(roll_base, done)), strong[0], strong[1], strong[2], value)
        else:
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


#: the least time a search is given (seconds), however little of a move's budget is left
_MIN_SEARCH = 1e-4


def _remaining(budget: Optional[float], t0: float) -> Optional[float]:
    """What is left of ``budget`` seconds counted from ``t0`` (at least :data:`_MIN_SEARCH`:
    one iteration always runs), or None without a budget."""
    if budget is None:
        return None
    return max(_MIN_SEARCH, budget - (time.perf_counter() - t0))


def _budget_text(iterations: Optional[int], seconds: Optional[float], nodes: int) -> str:
    parts = [] if iterations is None else [str(iterations)]
    if seconds is not None:
        parts.append(f"time={seconds}")
    if nodes != DEFAULT_NODES:
        parts.append(f"nodes={nodes}")
    return "".join(p + ", " for p in parts)


def _forced(state: StateAPI[Any]) -> Optional[int]:
    """The one legal action of the seat to move, or None when it has a choice."""
    legal = state.legal_actions()
    return int(legal[0]) if len(legal) == 1 else None


class RandomBot:
    """Uniform over the legal actions, from its own generator (``Rng(seed)``)."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = _check_seed(seed)
        self._rng = Rng(self.seed)

    def step(self, state: StateAPI[Any]) -> int:
        _check_state(state, "RandomBot.step")
        legal = state.legal_actions()
        # (one legal action: the draw below(1) still happens, so the stream is the same
        # whether or not a move was forced)
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


class _SearchBot(_Seeded):
    """A search bot: a budget per move (``iterations`` and/or ``time``, :func:`_check_budget`;
    the node budget ``nodes``, :func:`_check_nodes`), the root statistics of its last move in
    ``last_search``; ``step`` searches a private copy of the state with :meth:`_search_move`,
    unless the seat has one legal action: that one is played at once, without a search (the
    step still counts, so the next step's seed is the one it would have been)."""

    #: the ``SearchResult.algorithm`` of its searches
    algorithm = ""

    def __init__(
        self,
        seed: int,
        iterations: Optional[int],
        time: Optional[float],
        time_limit: Optional[float],
        nodes: Optional[int],
    ) -> None:
        super().__init__(seed)
        self.iterations, self.time = _check_budget(iterations, time, time_limit)
        self.nodes = _check_nodes(nodes)
        self.last_search: Optional[SearchResult] = None

    @property
    def time_limit(self) -> Optional[float]:
        """The alias of :attr:`time` (seconds per move, or None)."""
        return self.time

    def step(self, state: StateAPI[Any]) -> int:
        t0 = time.perf_counter()
        if isinstance(state, StateAPI):
            state = state.clone()  # checked and searched alike, whatever other threads do
        seat = _check_state(state, f"{type(self).__name__}.step")
        only = _forced(state)
        if only is not None:
            self._next_seed()
            self.last_search = SearchResult(only, (only,), (0,), (0.0,), 0, 0, self.algorithm, "none")
            return only
        res = self._search_move(state, seat, _remaining(self.time, t0))
        self.last_search = res
        return res.action

    def _search_move(self, state: StateAPI[Any], seat: int, time_left: Optional[float]) -> SearchResult:
        raise NotImplementedError

    def reset(self) -> None:
        super().reset()
        self.last_search = None


class MCTSBot(_SearchBot):
    """UCT Monte Carlo tree search with random rollouts (``simulate``'s action model).

    At every move the bot draws ONE determinization of its seat's view (hidden cards
    re-dealt, the state's generator re-seeded: for a game without hidden cards, such as
    Kater Kasimir, only the hidden future, the dice, differs) and searches it as a game of
    perfect information. ``iterations`` (default 1000 when no time is given) and/or ``time``
    (seconds per move, at most :data:`MAX_SECONDS`, counted from the call of ``step``;
    ``time_limit`` is its alias) bound the search; ``nodes`` is its node budget (default
    :data:`DEFAULT_NODES`: the tree stops growing there, the search goes on in it); ``c`` is
    the exploration constant. With one legal action the bot plays it without a search. The
    root statistics of the last move are in ``last_search``."""

    algorithm = "mcts"

    def __init__(
        self,
        iterations: Optional[int] = None,
        *,
        time: Optional[float] = None,
        time_limit: Optional[float] = None,
        seed: int = 0,
        c: float = DEFAULT_C,
        nodes: Optional[int] = None,
    ) -> None:
        super().__init__(seed, iterations, time, time_limit, nodes)
        self.c = _check_c(c)

    def _search_move(self, state: StateAPI[Any], seat: int, time_left: Optional[float]) -> SearchResult:
        return _search(
            state,
            algorithm=self.algorithm,
            iterations=self.iterations,
            time_limit=time_left,
            seed=self._next_seed(),
            c=self.c,
            engine=None,
            nodes=self.nodes,
        )

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}({_budget_text(self.iterations, self.time, self.nodes)}seed={self.seed}, c={self.c})"
        )


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
    best for its seat (ties: drawn at random from its own generator). With one legal action
    it plays that one at once (no determinization; the step still counts, so the later
    steps' seeds and moves are the same)."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self._rng = Rng(derive(self.seed, 2**63))

    def step(self, state: StateAPI[Any]) -> int:
        seat = _check_state(state, "GreedyBot.step")
        value = heuristic(state.game)
        only = _forced(state)
        if only is not None:  # nothing to rate (the step counts: the next seed is unchanged)
            self._next_seed()
            return only
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
        self._rng = Rng(derive(self.seed, 2**63))

    def __repr__(self) -> str:
        return f"GreedyBot(seed={self.seed})"


# ---- StrongBot -------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class StrongTuning:
    """The constants of :class:`StrongBot` for one game (``docs/bots.md``)."""

    #: the exploration constant of the UCB rule
    c: float
    #: play-out actions before the evaluation ends the play-out (-1: play to the end)
    depth: int
    #: a play-out's returns are ``tanh(lead / scale)`` (``lead``: the seat's value minus the best other's)
    scale: float
    #: the chance that a play-out action is the one-ply greedy one (else uniformly random)
    greedy: float


def game_tuning(game: Game[Any, Any]) -> StrongTuning:
    """:class:`StrongBot`'s constants for ``game``: its class's ``SEARCH_TUNING`` (tuned against
    GreedyBot and ISMCTS: ``docs/bots.md``), :data:`DEFAULT_TUNING` for what it leaves out. A
    key ``"NAME@P"`` (e.g. ``"greedy@2"``) overrides ``NAME`` in games of ``P`` players."""
    return _tuning_of(type(game).SEARCH_TUNING, game.num_players)


def _tuning_of(values: Mapping[str, float], players: Optional[int] = None) -> StrongTuning:
    d = DEFAULT_TUNING

    def get(name: str, default: float) -> float:
        return values.get(f"{name}@{players}", values.get(name, default))

    return StrongTuning(
        c=float(get("c", d.c)),
        depth=int(get("depth", d.depth)),
        scale=float(get("scale", d.scale)),
        greedy=float(get("greedy", d.greedy)),
    )


def __getattr__(name: str) -> Any:
    """``STRONG_TUNING``: every registered game's constants by game id (a new dict each time;
    without the per-player-count overrides of :func:`game_tuning`)."""
    if name == "STRONG_TUNING":
        from ._api import _REGISTRY

        return {gid: _tuning_of(cls.SEARCH_TUNING) for gid, cls in _REGISTRY.items()}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: the constants of a game whose class declares none (``Game.SEARCH_TUNING``)
DEFAULT_TUNING = StrongTuning(c=DEFAULT_C, depth=-1, scale=1.0, greedy=0.0)
#: the most threads a StrongBot may search on
MAX_THREADS = 256


def _shares(total: int, k: int) -> List[int]:
    """``total`` split into ``k`` shares as even as can be (the first ones one larger)."""
    return [total // k + (1 if t < total % k else 0) for t in range(k)]


def _strong_search(
    state: StateAPI[Any],
    seat: int,
    tune: StrongTuning,
    iterations: Optional[int],
    limit: Optional[float],
    seed: int,
    threads: int,
    engine: Optional[str] = None,
    nodes: int = DEFAULT_NODES,
) -> SearchResult:
    """The search of :meth:`StrongBot.step` on a private copy ``state``: ``threads`` root-parallel
    searches (thread ``t`` seeded ``derive(seed, t)``, or ``seed`` alone with one thread, each
    with its share of ``iterations`` and of the node budget ``nodes`` (at least 1) and the
    whole of ``limit``), their root statistics added. ``engine``: as in :func:`search`
    (``"python"`` forces the pure-Python search)."""
    legal: List[int] = state.legal_actions().tolist()
    target = None if engine == "python" else _compiled_twin(state)
    k = threads
    if iterations is not None:
        k = max(1, min(k, iterations))
    seeds = [seed] if k == 1 else [derive(seed, t) for t in range(k)]
    shares: List[Optional[int]] = [None] * k if iterations is None else list(_shares(iterations, k))
    rooms = [max(1, r) for r in _shares(nodes, k)]
    out: List[Any] = [None] * k
    errors: List[BaseException] = []
    strong = (tune.depth, tune.scale, tune.greedy)

    def run(t: int) -> None:
        try:
            if target is not None:
                a, v, w, _av, done, made, _b = _compiled_search()(
                    target, 3, shares[t], limit, seeds[t], tune.c, tune.depth, tune.scale, tune.greedy, nodes=rooms[t]
                )
                out[t] = (a.tolist(), v.tolist(), w.tolist(), int(done), int(made))
            else:
                root, done, made = _py_search(
                    state if k == 1 else state.clone(),
                    seat,
                    3,
                    shares[t],
                    limit,
                    seeds[t],
                    tune.c,
                    strong,
                    max_nodes=rooms[t],
                )
                kids = root.children or []
                out[t] = ([ch.action for ch in kids], [ch.visits for ch in kids], [ch.value for ch in kids], done, made)
        except BaseException as e:  # re-raised in the calling thread
            errors.append(e)

    if k == 1:
        run(0)
    else:
        workers = [threading.Thread(target=run, args=(t,), daemon=True) for t in range(k)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
    if errors:
        raise errors[0]
    visits: Dict[int, int] = {}
    values: Dict[int, float] = {}
    done_all = nodes_all = 0
    for acts, vis, vals, done, made in out:
        for a, n, w in zip(acts, vis, vals):
            visits[a] = visits.get(a, 0) + n
            values[a] = values.get(a, 0.0) + w
        done_all += done
        nodes_all += made
    acts_t = tuple(sorted(visits))
    vis_t = tuple(visits[a] for a in acts_t)
    return SearchResult(
        _choose(acts_t, vis_t, legal),
        acts_t,
        vis_t,
        tuple(values[a] for a in acts_t),
        done_all,
        nodes_all,
        "strong",
        "compiled" if target is not None else "python",
    )


class StrongBot(_SearchBot):
    """The strongest bot here (``docs/bots.md``): information-set MCTS (a fresh
    determinization of the seat's view every iteration, so hidden cards and future dice are
    averaged over) whose play-outs are short and end in the game's evaluation: at most
    ``depth`` actions (each, with chance ``greedy``, the one-ply greedy action, else a random
    one), then ``tanh(lead / scale)`` per seat, where ``lead`` is the seat's value minus the
    best other seat's (the game's :meth:`~mousehole.Game.greedy_value` heuristic). Kater
    Kasimir's die is averaged over like a chance node of expectimax: every iteration rolls
    other dice (with ``explicit_chance=True`` they are chance nodes of the tree, sampled by
    their probabilities).

    ``iterations`` (default 1000 when no time is given) and/or ``time`` (seconds per move, at
    most :data:`MAX_SECONDS`, counted from the call of ``step``; ``time_limit`` is its alias)
    bound each move; ``nodes`` is the node budget (default :data:`DEFAULT_NODES`, shared
    among the threads: the trees stop growing there and the search goes on in them). With
    one legal action the bot plays it without a search. ``threads`` runs that many searches
    at once (root parallelism: compiled searches run without the GIL; thread ``t`` uses the
    seed ``derive(seed_of_the_step, t)``, ``iterations / threads`` iterations and ``nodes /
    threads`` nodes) and adds up their root statistics. ``c``, ``depth``,
    ``scale`` and ``greedy`` override the game's constants (:data:`STRONG_TUNING`).

    A greedy play-out step draws its ties (actions rated alike) at random. Compiled games give
    the search a C-level evaluation (``mh_game_t.evaluate``); without the compiled engine the
    same algorithm runs in Python with the same evaluation (the game's ``search_value``:
    ``greedy_value``, but in Maus au Chocolat every seat's hand counted, as its core does),
    much more slowly."""

    algorithm = "strong"

    def __init__(
        self,
        iterations: Optional[int] = None,
        *,
        time: Optional[float] = None,
        time_limit: Optional[float] = None,
        seed: int = 0,
        threads: int = 1,
        c: Optional[float] = None,
        depth: Optional[int] = None,
        scale: Optional[float] = None,
        greedy: Optional[float] = None,
        nodes: Optional[int] = None,
    ) -> None:
        super().__init__(seed, iterations, time, time_limit, nodes)
        t = int_in(threads, "threads", 1, MAX_THREADS)
        self.threads = t
        self.c = None if c is None else _check_c(c)
        self.depth: Optional[int] = None
        if depth is not None:
            d = index_arg(depth, "depth")
            if not -1 <= d <= 10_000:
                raise ValueError(
                    f"depth (play-out actions before the evaluation; -1: to the end) must be from -1 to 10000, got {d}"
                )
            self.depth = d
        self.scale: Optional[float] = None
        if scale is not None:
            sc = _real(scale, "scale")
            if not (sc > 0.0 and math.isfinite(sc)):
                raise ValueError(f"scale must be a positive, finite number, got {shorten(scale)}")
            self.scale = sc
        self.greedy: Optional[float] = None
        if greedy is not None:
            g = _real(greedy, "greedy (a probability)")
            if not 0.0 <= g <= 1.0:
                raise ValueError(f"greedy (a probability) must be from 0 to 1, got {shorten(greedy)}")
            self.greedy = g

    def tuning(self, game: Game[Any, Any]) -> StrongTuning:
        """The constants this bot plays ``game`` with: the game's (:data:`STRONG_TUNING`)
        with this bot's overrides."""
        base = game_tuning(game)
        return StrongTuning(
            c=base.c if self.c is None else self.c,
            depth=base.depth if self.depth is None else self.depth,
            scale=base.scale if self.scale is None else self.scale,
            greedy=base.greedy if self.greedy is None else self.greedy,
        )

    def _search_move(self, state: StateAPI[Any], seat: int, time_left: Optional[float]) -> SearchResult:
        return _strong_search(
            state,
            seat,
            self.tuning(state.game),
            self.iterations,
            time_left,
            self._next_seed(),
            self.threads,
            nodes=self.nodes,
        )

    def __repr__(self) -> str:
        extra = "".join(
            f", {k}={getattr(self, k)}" for k in ("c", "depth", "scale", "greedy") if getattr(self, k) is not None
        )
        return (
            f"StrongBot({_budget_text(self.iterations, self.time, self.nodes)}seed={self.seed}, "
            f"threads={self.threads}{extra})"
        )


# --------------------------------------------------------------------------------------
# specs


SPECS = (
    "random",
    "greedy",
    "mcts[:ITERATIONS|:SECONDSs][:nodes=NODES]",
    "ismcts[:ITERATIONS|:SECONDSs][:nodes=NODES]",
    "strong[:ITERATIONS|:SECONDSs][:nodes=NODES]",
)
#: the spec names of the search bots (they take a budget)
SEARCH_SPECS = ("mcts", "ismcts", "strong")
#: the longest time per move a spec may ask for (seconds): :data:`MAX_SECONDS`, as everywhere
MAX_SPEC_SECONDS = MAX_SECONDS
#: a count in a spec (iterations, nodes): ASCII digits
_COUNT = re.compile(r"[0-9]+")
#: seconds in a spec: an ASCII decimal number, optionally with a lowercase exponent (``repr`` of a float)
_SECONDS = re.compile(r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:e[-+]?[0-9]+)?")
#: the longest spec quoted whole in an error message
_SHOWN = 60


@dataclasses.dataclass(frozen=True)
class _Spec:
    """A parsed bot spec (:func:`_parse_spec`)."""

    name: str
    iterations: Optional[int] = None
    seconds: Optional[float] = None
    nodes: Optional[int] = None


def _parse_spec(spec: str) -> _Spec:
    """``spec`` read by the one grammar of bot specs (``docs/bots.md``)::

        spec   = "random" | "greedy" | search [":" budget] [":nodes=" count]
        search = "mcts" | "ismcts" | "strong"
        budget = count | seconds "s"            (iterations, or seconds per move)

    with ``count`` ASCII digits and ``seconds`` an ASCII decimal number (``0.1``, ``.5``,
    ``1e-05``), nothing else: no spaces, no capitals, no other digits. ``ValueError`` quoting
    the spec (its first characters when it is long) and saying what is wrong."""
    if not isinstance(spec, str):
        raise TypeError(f"a bot spec is a str such as 'mcts:1000', not {type(spec).__name__}")
    shown = repr(spec) if len(spec) <= _SHOWN else repr(spec[:_SHOWN]) + f"... ({len(spec)} characters)"
    allowed = ", ".join(repr(s) for s in SPECS)
    if any(ch.isspace() for ch in spec):
        raise ValueError(
            f"bad bot spec {shown}: a spec is written without spaces, e.g. 'mcts:1000' (allowed: {allowed})"
        )
    if not spec.isascii():
        raise ValueError(
            f"bad bot spec {shown}: a spec is written in ASCII: letters a-z, digits 0-9 and ':.=', "
            f"e.g. 'mcts:1000' (allowed: {allowed})"
        )
    name, *parts = spec.split(":")
    if name not in ("random", "greedy") + SEARCH_SPECS:
        hint = (
            f" (specs are lowercase: {name.lower()!r})" if name.lower() in ("random", "greedy") + SEARCH_SPECS else ""
        )
        raise ValueError(f"unknown bot spec {shown}{hint}; allowed: {allowed}")
    if name in ("random", "greedy"):
        if parts:
            raise ValueError(f"bad bot spec {shown}: {name!r} takes no parameter (allowed: {allowed})")
        return _Spec(name)
    out = _Spec(name)
    if parts and parts[-1].startswith("nodes="):
        count = parts.pop()[len("nodes=") :]
        if not _COUNT.fullmatch(count) or not 1 <= int(count) <= MAX_NODES:
            raise ValueError(
                f"bad bot spec {shown}: the node budget after 'nodes=' must be an int from 1 to "
                f"{MAX_NODES} in digits 0-9, e.g. {name}:nodes=100000 (allowed: {allowed})"
            )
        out = dataclasses.replace(out, nodes=int(count))
    if len(parts) > 1 or any(p.startswith("nodes=") for p in parts):
        raise ValueError(
            f"bad bot spec {shown}: after {name!r} come at most a budget (':1000' iterations or "
            f"':0.5s' seconds) and then a node budget (':nodes=100000'), e.g. {name}:0.5s:nodes=100000 "
            f"(allowed: {allowed})"
        )
    if parts:
        arg = parts[0]
        if arg.endswith("s"):
            num = arg[:-1]
            seconds = float(num) if _SECONDS.fullmatch(num) else math.nan
            if not 0.0 < seconds <= MAX_SECONDS:  # (False for a NaN)
                raise ValueError(
                    f"bad bot spec {shown}: the time after {name + ':'!r} must be a number of seconds "
                    f"above 0 and at most {MAX_SECONDS:g}, followed by 's', e.g. {name}:0.1s "
                    f"(allowed: {allowed})"
                )
            return dataclasses.replace(out, seconds=seconds)
        if not _COUNT.fullmatch(arg) or not 1 <= int(arg) <= MAX_ITERATIONS:
            raise ValueError(
                f"bad bot spec {shown}: the iterations after {name + ':'!r} must be an int "
                f"from 1 to {MAX_ITERATIONS} in digits 0-9, or a time such as {name}:0.1s "
                f"(allowed: {allowed})"
            )
        return dataclasses.replace(out, iterations=int(arg))
    return out


def spec_has_budget(spec: str) -> bool:
    """Whether a search bot's spec names its budget (``"mcts:500"``, ``"strong:0.1s"``); False
    for ``"mcts"``, ``"mcts:nodes=1000"``, the bots without a search and a bad spec."""
    try:
        parsed = _parse_spec(spec)
    except (TypeError, ValueError):
        return False
    return parsed.iterations is not None or parsed.seconds is not None


def spec_with_time(spec: str, seconds: float) -> str:
    """``spec`` with ``seconds`` per move when it names a search bot without a budget
    (``"mcts"`` becomes ``"mcts:0.5s"``, ``"strong:nodes=1000"`` ``"strong:0.5s:nodes=1000"``);
    any other spec (a bad one too) as it is. ``seconds`` is checked as ``make_bot`` checks it."""
    try:
        parsed = _parse_spec(spec)
    except (TypeError, ValueError):
        return spec
    if parsed.name not in SEARCH_SPECS or parsed.iterations is not None or parsed.seconds is not None:
        return spec
    _check_iterations(None, seconds, "time")
    return f"{parsed.name}:{float(seconds)!r}s{spec[len(parsed.name) :]}"


def make_bot(spec: str, seed: int = 0, *, time: Optional[float] = None) -> Bot:
    """A bot from its spec: ``"random"``, ``"greedy"``, ``"mcts"``, ``"mcts:1000"`` (iterations
    per move), ``"mcts:0.1s"`` (seconds per move, at most :data:`MAX_SECONDS`), ``"ismcts"``,
    ``"ismcts:500"``, ``"ismcts:0.05s"``, ``"strong"``, ``"strong:5000"``, ``"strong:0.1s"``,
    each search bot optionally followed by its node budget, ``"mcts:1000:nodes=100000"``,
    ``"strong:nodes=100000"`` (default :data:`DEFAULT_NODES`). ``time``: the seconds per move
    of a search bot whose spec gives no budget (without it such a bot runs
    :data:`DEFAULT_ITERATIONS`; at most :data:`MAX_SECONDS`, as everywhere). The grammar is
    strict (:func:`_parse_spec`: lowercase ASCII, no spaces). Raises ``ValueError`` naming the
    bad spec."""
    parsed = _parse_spec(spec)
    if parsed.name == "random":
        return RandomBot(seed)
    if parsed.name == "greedy":
        return GreedyBot(seed)
    seconds = parsed.seconds
    if parsed.iterations is None and seconds is None and time is not None:
        seconds = time
    if parsed.name == "strong":
        return StrongBot(parsed.iterations, time=seconds, seed=seed, nodes=parsed.nodes)
    cls = MCTSBot if parsed.name == "mcts" else ISMCTSBot
    return cls(parsed.iterations, time=seconds, seed=seed, nodes=parsed.nodes)
