"""The search (``mousehole.bots.search``; compiled ``_search.pyx``, pure-Python twin in bots.py).

* The compiled search and the pure-Python search are the same algorithm with the same random
  numbers: identical root statistics for every game, player count and algorithm (and the
  Python search gives the same on the reference engine).
* Same seed and budget, same result; another seed, another tree; the root's visits add up
  to the iterations; the root's children are exactly the legal actions; the chosen action is
  the most visited (ties: lowest).
* ISMCTS counts availability; chance nodes (Kater Kasimir with explicit chance) get one child
  per outcome, sampled by probability.
* Winning moves are found in positions with a forced win.
* ``time_limit`` is honoured (loosely); bad arguments are refused; the tree's memory is
  freed; Ctrl-C interrupts a long search.
"""

from __future__ import annotations

import math
import signal
import subprocess
import sys
import time
import tracemalloc
from typing import Any, Dict, List, Tuple

import numpy as np
import pytest

import mousehole
from conftest import interruptible
from gamecases import CASES, IDS, random_walk, scale
from mousehole import CHANCE, TERMINAL, bots
from mousehole._rng import Rng, derive

ALGOS = ("open", "mcts", "ismcts")


def _midgame(game: Any, seed: int, steps: int) -> Any:
    """The state after ``steps`` random actions of a seeded game (or the last decision before
    the end), at a seat's turn (chance resolved)."""
    state = game.new_state(seed)
    rng = Rng(derive(seed, 7))
    done = 0
    while True:
        if state.current_player == CHANCE:
            legal = state.legal_actions()
            state.apply_action(int(legal[rng.below(len(legal))]))
            continue
        if done >= steps:
            return state
        before = state.clone()
        legal = state.legal_actions()
        state.apply_action(int(legal[rng.below(len(legal))]))
        done += 1
        if state.is_terminal():
            return before


def _near_end(game: Any, seed: int, before_end: int) -> Any:
    """A seat's decision about ``before_end`` actions before the end of a seeded random game."""
    full = game.new_state(seed)
    for _ in random_walk(full, seed):
        pass
    state = game.new_state(seed)
    for a in full.history[: max(0, len(full.history) - before_end)]:
        state.apply_action(a)
    while state.current_player == CHANCE:
        state.apply_action(int(state.legal_actions()[0]))
    assert state.current_player >= 0
    return state


def _decision(game: Any, seed: int, steps: int) -> Any:
    """``_midgame``; for the reference M (whose random games are long and slow to play) a
    decision some actions before the end, so that rollouts stay short."""
    if game.engine == "python" and game.name == "m":
        return _near_end(game, seed, 6 + steps % 5)
    return _midgame(game, seed, steps)


def _key(r: bots.SearchResult) -> Tuple[Any, ...]:
    return (r.action, r.actions, r.visits, r.values, r.iterations, r.nodes)


# --------------------------------------------------------------------------------------
# one algorithm, two implementations


@pytest.mark.differential
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_compiled_search_equals_the_python_search(case: Tuple[str, Dict[str, Any]]) -> None:
    name, params = case
    game = mousehole.load(name, engine="compiled", **params)
    checked = 0
    for g in range(scale(2)):
        state = _midgame(game, 100 + g, 3 + 7 * g)
        before = state.to_dict()
        for algo in ALGOS:
            c = bots.search(state, algorithm=algo, iterations=48, seed=5 + g)
            p = bots.search(state, algorithm=algo, iterations=48, seed=5 + g, engine="python")
            assert (c.engine, p.engine) == ("compiled", "python")
            assert _key(c) == _key(p), (algo, g)
            checked += 1
        assert state.to_dict() == before, "the search changed the state"
    assert checked > 0


@pytest.mark.differential
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_python_search_on_the_reference_engine_equals_the_compiled_search(case: Tuple[str, Dict[str, Any]]) -> None:
    name, params = case
    ref = mousehole.load(name, engine="python", **params)
    comp = mousehole.load(name, engine="compiled", **params)
    slow = name == "m"  # the reference M's rollouts are long and slow: near the end of a game
    state = _near_end(ref, 200, 12) if slow else _midgame(ref, 200, 5)
    cstate = comp.state_from_dict(state.to_dict())
    iters = 5 if slow else 12
    for algo in ALGOS:
        p = bots.search(state, algorithm=algo, iterations=iters, seed=9, engine="python")
        c = bots.search(cstate, algorithm=algo, iterations=iters, seed=9, engine="compiled")
        assert _key(p) == _key(c), algo
        # a reference state handed to the default search runs on the compiled search
        assert _key(bots.search(state, algorithm=algo, iterations=iters, seed=9)) == _key(c)


@pytest.mark.differential
def test_sqrt_log_table_matches_libm() -> None:
    """The compiled search tabulates sqrt(log(n)), 1/n and 1/sqrt(n); the Python search
    computes them with math: the same numbers (so the same UCB scores)."""
    from mousehole._search import DEFAULT_C, inv_sqrt, sqrt_log

    for n in [1, 2, 3, 10, 999, 1000, 65535, 65536, 65537, 10**6, 2**32 - 1]:
        assert sqrt_log(n) == math.sqrt(math.log(n)), n
        assert inv_sqrt(n) == (1.0 / n, 1.0 / math.sqrt(n)), n
    assert DEFAULT_C == bots.DEFAULT_C


# --------------------------------------------------------------------------------------
# determinism and root statistics


@pytest.mark.parametrize("name", mousehole.game_names())
@pytest.mark.parametrize("algo", ALGOS)
def test_same_seed_same_result_other_seed_other_tree(name: str, algo: str, engine: str) -> None:
    game = mousehole.load(name, engine=engine, players=2)
    state = _decision(game, 300, 4)
    iters = 60 if engine == "compiled" else 10
    a = bots.search(state, algorithm=algo, iterations=iters, seed=1)
    b = bots.search(state, algorithm=algo, iterations=iters, seed=1)
    assert _key(a) == _key(b)
    others = [bots.search(state, algorithm=algo, iterations=iters, seed=s) for s in range(2, 7)]
    assert any(_key(o)[1:] != _key(a)[1:] for o in others), "the seed changes nothing"


@pytest.mark.parametrize("case", CASES, ids=IDS)
@pytest.mark.parametrize("algo", ALGOS)
def test_root_statistics(case: Tuple[str, Dict[str, Any]], algo: str, engine: str) -> None:
    """The root's children are the legal actions, their visits add up to the iterations,
    the chosen action is the most visited (ties: the lowest action)."""
    name, params = case
    game = mousehole.load(name, engine=engine, **params)
    iters = 40 if engine == "compiled" else 8
    for g in range(scale(2)):
        state = _decision(game, 400 + g, 2 + 9 * g)
        legal = [int(a) for a in state.legal_actions()]
        r = bots.search(state, algorithm=algo, iterations=iters, seed=g)
        assert r.iterations == iters
        assert list(r.actions) == legal
        assert sum(r.visits) == iters
        assert r.action in legal
        top = max(r.visits)
        assert r.action == min(a for a, v in zip(r.actions, r.visits) if v == top)
        assert all(abs(w) <= v + 1e-9 for v, w in zip(r.visits, r.values)), "returns are in [-1, 1]"
        assert r.nodes >= 1 + len(legal)
        counts = r.visit_counts()
        assert counts[r.action] == top and sum(counts.values()) == iters
        assert set(r.mean_values()) == {a for a, v in zip(r.actions, r.visits) if v}


@pytest.mark.parametrize("name", mousehole.game_names())
def test_ismcts_availability_and_root_legality(name: str, engine: str) -> None:
    """ISMCTS lists the root's actions once: they are the seat's own information, the same in
    every determinization (checked here), and each root child is available in every
    iteration (its availability count equals the iterations)."""
    game = mousehole.load(name, engine=engine, players=3)
    iters = 100 if engine == "compiled" else 10
    for g in range(scale(3) if engine == "compiled" else 1):
        state = _decision(game, 500 + g, 1 + 6 * g)
        seat = state.current_player
        legal = state.legal_actions().tolist()
        for k in range(8 if engine == "compiled" else 2):
            assert state.determinize(seat, k).legal_actions().tolist() == legal
        if engine == "compiled":
            from mousehole._search import MODE_ISMCTS
            from mousehole._search import search as csearch

            actions, visits, _values, avail, done, _nodes, tree_bytes = csearch(state, MODE_ISMCTS, iters, None, g, 1.0)
            assert tree_bytes > 0
        else:
            root, done, _nodes = bots._py_search(state, seat, 2, iters, None, g, 1.0)
            assert root.children is not None
            actions = np.array([ch.action for ch in root.children])
            visits = np.array([ch.visits for ch in root.children])
            avail = np.array([ch.avail for ch in root.children])
        assert done == iters and int(visits.sum()) == iters
        assert actions.tolist() == legal
        assert avail.tolist() == [iters] * len(legal)


# --------------------------------------------------------------------------------------
# chance nodes


def _kasimir_decision(engine: str, players: int = 2) -> Any:
    game = mousehole.load("kasimir", engine=engine, players=players, explicit_chance=True)
    return _midgame(game, 600, 6)


@pytest.mark.parametrize("algo", ALGOS)
def test_chance_nodes_get_one_child_per_outcome_sampled_by_probability(algo: str, engine: str) -> None:
    """Below every player action of Kater Kasimir with explicit chance lies a chance node (the
    next roll): the (pure-Python) tree gives it one child per outcome, and the outcomes are
    visited in proportion to their probabilities. The compiled tree is the same tree (see
    test_compiled_search_equals_the_python_search)."""
    state = _kasimir_decision(engine)
    seat = state.current_player
    iters = 600 if engine == "compiled" else 150
    mode = bots._MODES[algo]
    root, done, _nodes = bots._py_search(state, seat, mode, iters, None, 3, 1.0)
    assert done == iters
    checked = 0
    assert root.children is not None
    for ch in root.children:
        if ch.visits < 40 or ch.children is None:
            continue
        after = state.clone()
        after.apply_action(ch.action)
        assert after.current_player == CHANCE
        outcomes = after.chance_outcomes()
        assert [k.action for k in ch.children] == [a for a, _ in outcomes]
        assert all(k.value == 0.0 for k in ch.children), "no value is kept for chance outcomes"
        n = sum(k.visits for k in ch.children)
        assert n == ch.visits - 1  # every visit but the one that created the node goes on
        # a chi-square test at a generous level (p ~ 1e-4): a broken sampler fails it
        chi2 = sum((k.visits - n * p) ** 2 / (n * p) for k, (_, p) in zip(ch.children, outcomes))
        assert chi2 < 25.0, [k.visits for k in ch.children]
        checked += 1
    assert checked > 0


@pytest.mark.parametrize("algo", ALGOS)
def test_search_refuses_chance_and_terminal_states(algo: str, engine: str) -> None:
    game = mousehole.load("kasimir", engine=engine, players=2, explicit_chance=True)
    state = game.new_state(1)
    assert state.current_player == CHANCE
    with pytest.raises(ValueError, match="chance"):
        bots.search(state, algorithm=algo, iterations=5)
    for _ in random_walk(state, 1):
        pass
    assert state.current_player == TERMINAL
    with pytest.raises(ValueError, match="over"):
        bots.search(state, algorithm=algo, iterations=5)


# --------------------------------------------------------------------------------------
# tactics


def _winning_final_moves(game: Any, seeds: range) -> Tuple[Any, List[int]]:
    """A Cheese Rescue state whose next action is the last of the game, in which only a
    few of the mover's legal actions win (found by trying every action)."""
    for seed in seeds:
        state = game.new_state(seed)
        rng = Rng(seed)
        while len(state.history) < 2 * 12 - 1:
            legal = state.legal_actions()
            state.apply_action(int(legal[rng.below(len(legal))]))
        seat = state.current_player
        legal = [int(a) for a in state.legal_actions()]
        wins = []
        for a in legal:
            after = state.clone()
            after.apply_action(a)
            assert after.is_terminal()
            if after.winners() == [seat]:
                wins.append(a)
        if len(legal) >= 4 and 1 <= len(wins) <= len(legal) // 4:
            return state, wins
    raise AssertionError("no puzzle found")


@pytest.mark.parametrize("algo", ALGOS)
def test_the_winning_final_move_is_found(algo: str, engine: str) -> None:
    game = mousehole.load("cheese_rescue", engine=engine, players=2)
    state, wins = _winning_final_moves(game, range(200))
    legal = state.legal_actions().tolist()
    r = bots.search(state, algorithm=algo, iterations=4 * len(legal), seed=1)
    assert r.action in wins, (r.action, wins)
    # every root child was tried, the winners scored +1 and the others -1 (or 0: a shared win)
    means = r.mean_values()
    assert all(means[a] == 1.0 for a in wins)
    assert all(means[a] < 1.0 for a in legal if a not in wins)


def _forced_win_in_two(game: Any, seeds: range) -> Tuple[Any, List[int]]:
    """A Cheese Rescue state two actions from the end (the mover, then the other seat): the
    mover's actions after which every reply loses for the other seat, when those are few."""
    for seed in seeds:
        state = game.new_state(seed)
        rng = Rng(derive(seed, 1))
        while len(state.history) < 2 * 12 - 2:
            legal = state.legal_actions()
            state.apply_action(int(legal[rng.below(len(legal))]))
        seat = state.current_player
        legal = [int(a) for a in state.legal_actions()]
        forced = []
        for a in legal:
            after = state.clone()
            after.apply_action(a)
            ok = True
            for b in after.legal_actions().tolist():
                end = after.clone()
                end.apply_action(b)
                if end.winners() != [seat]:
                    ok = False
                    break
            if ok:
                forced.append(a)
        if len(legal) >= 6 and 1 <= len(forced) <= len(legal) // 5:
            return state, forced
    raise AssertionError("no puzzle found")


def test_a_forced_win_in_two_is_found_by_open_search(engine: str) -> None:
    """UCT on the full state (``open``) finds a move after which every reply loses."""
    game = mousehole.load("cheese_rescue", engine=engine, players=2)
    state, forced = _forced_win_in_two(game, range(300))
    iters = 3000 if engine == "compiled" else 1500
    r = bots.search(state, algorithm="open", iterations=iters, seed=2)
    assert r.action in forced, (r.action, forced, r.visit_counts())


def test_the_search_avoids_a_trap(engine: str) -> None:
    """Kater Kasimir, seat 0 rolled 1: its mouse on 35 would be caught on the trap 36 (KK-9),
    the one on 37 and the pantry mouse move safely; every algorithm avoids the trap."""
    game = mousehole.load("kasimir", engine=engine, players=2)
    d = game.new_state(1).to_dict()
    d["pantry"] = [2, 3]
    d["track"] = [[] for _ in range(40)]
    d["track"][34], d["track"][36], d["track"][30] = [0], [0], [1]
    d["roll"] = 0
    state = game.state_from_dict(d)
    trap = game.move_to_action(game.parse_move("35+1"))
    assert trap in state.legal_actions().tolist()
    for algo in ALGOS:
        r = bots.search(state, algorithm=algo, iterations=600 if engine == "compiled" else 120, seed=4)
        assert r.action != trap, algo


# --------------------------------------------------------------------------------------
# budgets, arguments, memory, Ctrl-C


@pytest.mark.parametrize("algo", ALGOS)
def test_time_limit_is_honoured(algo: str, engine: str) -> None:
    game = mousehole.load("m" if engine == "compiled" else "cheese_rescue", engine=engine, players=4)
    state = game.new_state(3)
    t = time.perf_counter()
    r = bots.search(state, algorithm=algo, time_limit=0.25, seed=1)
    took = time.perf_counter() - t
    assert r.iterations >= 1 and sum(r.visits) == r.iterations
    assert 0.25 <= took < 3.0, took  # generous: a loaded machine
    # with both budgets, whichever runs out first
    r = bots.search(state, algorithm=algo, iterations=3, time_limit=30.0, seed=1)
    assert r.iterations == 3


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        ({"iterations": 0}, ValueError, "iterations"),
        ({"iterations": -5}, ValueError, "iterations"),
        ({"iterations": 2**31}, ValueError, "iterations"),
        ({"iterations": 1.5}, TypeError, "iterations"),
        ({"iterations": True}, TypeError, "iterations"),
        ({"iterations": "100"}, TypeError, "iterations"),
        ({"time_limit": 0}, ValueError, "time_limit"),
        ({"time_limit": -1.0}, ValueError, "time_limit"),
        ({"time_limit": float("nan")}, ValueError, "time_limit"),
        ({"time_limit": float("inf")}, ValueError, "time_limit"),
        ({"time_limit": "1"}, TypeError, "time_limit"),
        ({"c": -0.1}, ValueError, "exploration"),
        ({"c": float("nan")}, ValueError, "exploration"),
        ({"c": "big"}, TypeError, "exploration"),
        ({"seed": 1.0}, TypeError, "seed"),
        ({"seed": None}, TypeError, "seed"),
        ({"algorithm": "minimax"}, ValueError, "algorithm"),
        ({"engine": "gpu"}, ValueError, "engine"),
    ],
)
def test_bad_arguments_are_refused(kwargs: Dict[str, Any], error: type, words: str, engine: str) -> None:
    state = mousehole.load("cheese_rescue", engine=engine, players=2).new_state(1)
    before = state.to_dict()
    with pytest.raises(error, match=words):
        bots.search(state, **kwargs)
    assert state.to_dict() == before
    with pytest.raises(TypeError, match="mousehole state"):
        bots.search(before)  # type: ignore[arg-type]


def test_numpy_arguments_are_accepted(engine: str) -> None:
    state = mousehole.load("cheese_rescue", engine=engine, players=2).new_state(1)
    a = bots.search(state, iterations=np.int64(20), seed=np.uint32(3), c=np.float32(0.5))
    b = bots.search(state, iterations=20, seed=3, c=float(np.float32(0.5)))
    assert _key(a) == _key(b)


def test_compiled_search_is_refused_where_it_is_missing(engine: str, monkeypatch: Any) -> None:
    """``engine="compiled"`` without a compiled search for the game (no compiled engine, or a
    core without the C-level interface) is an error, not a silent fallback."""
    state = mousehole.load("cheese_rescue", engine=engine, players=2).new_state(1)
    monkeypatch.setattr(bots, "_compiled_twin", lambda s: None)
    with pytest.raises(ValueError, match="not available"):
        bots.search(state, iterations=5, engine="compiled")
    assert bots.search(state, iterations=5).engine == "python"


@pytest.mark.parametrize("algo", ALGOS)
def test_tree_memory_is_freed(algo: str, engine: str) -> None:
    """The compiled tree lives in C memory (PyMem_RawMalloc, which tracemalloc sees; the
    Python search's nodes are Python objects): a search's peak holds the tree, and nothing is
    left once it returns, however many searches run."""
    game = mousehole.load("m" if engine == "compiled" else "cheese_rescue", engine=engine, players=4)
    state = game.new_state(2)
    iters = 3000 if engine == "compiled" else 15
    bots.search(state, algorithm=algo, iterations=5, seed=0)  # warm up (imports, caches)
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        r = bots.search(state, algorithm=algo, iterations=iters, seed=0)
        peak = tracemalloc.get_traced_memory()[1]
        assert peak - base > 30 * r.nodes, "the tree is not in traced memory"
        for s in range(10 if engine == "compiled" else 2):
            bots.search(state, algorithm=algo, iterations=iters, seed=s)
        left = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    assert left < 64 * 1024, left  # Python objects of the results only, no tree


_CHILD = r"""
import sys, time
import mousehole
from mousehole import bots
state = mousehole.load("cheese_rescue", players=4).new_state(1)
print("started", flush=True)
try:
    bots.search(state, algorithm=sys.argv[1], iterations=2**31 - 1, seed=1)
except KeyboardInterrupt:
    print("interrupted", time.monotonic(), flush=True)
    raise
"""


@pytest.mark.sigint
@pytest.mark.parametrize("algo", ["mcts", "ismcts"])
def test_ctrl_c_interrupts_a_search(algo: str) -> None:
    """The compiled iterations run without the GIL in batches of about 20 ms, and Ctrl-C is
    checked between batches (the Python search is interrupted like any Python loop): a search
    of 2**31 - 1 iterations stops at once (bound 2 s for a loaded machine)."""
    child = interruptible(
        [sys.executable, "-c", _CHILD, algo], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "started"
        time.sleep(0.5)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert out.startswith("interrupted"), (out, err)
    assert float(out.split()[1]) - sent < 2.0
    assert err.rstrip().endswith("KeyboardInterrupt"), err


# --------------------------------------------------------------------------------------
# the strong search and the time budget in C (issue 26)


@pytest.mark.compiled
def test_compiled_strong_mode_checks_its_play_out_arguments() -> None:
    from mousehole._search import MODE_STRONG, has_evaluate
    from mousehole._search import search as csearch

    state = mousehole.load("kasimir", engine="compiled", players=2).new_state(1)
    assert has_evaluate(state)
    out = csearch(state, MODE_STRONG, 50, None, 1, 1.0, 4, 30.0, 0.5)
    assert out[4] == 50 and int(out[1].sum()) == 50
    for depth, weight, greedy, words in (
        (4, 0.0, 0.0, "scale"),
        (4, float("inf"), 0.0, "scale"),
        (4, 1.0, 1.5, "greedy"),
        (4, 1.0, float("nan"), "greedy"),
    ):
        with pytest.raises(ValueError, match=words):
            csearch(state, MODE_STRONG, 10, None, 1, 1.0, depth, weight, greedy)
    with pytest.raises(ValueError, match="unknown mode"):
        csearch(state, 4, 10, None, 1, 1.0)
