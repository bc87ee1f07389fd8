"""Every budget of a bot bounded, the same wherever it enters (issue 39).

* The node budget (``nodes=``, spec part ``:nodes=N``): the tree stops growing there and the
  search goes on in it; the compiled and the pure-Python search still give the same
  statistics when the budget binds (tiny budgets, every game and algorithm); the compiled
  tree's memory stays within 32 bytes a node of the budget; the default applies everywhere.
* The caps of time and iterations are one pair of constants (``bots.MAX_SECONDS``,
  ``bots.MAX_ITERATIONS``): the bot classes, ``search``, ``make_bot(time=...)``, specs and
  the command line's ``--time`` take the cap and refuse what is over it.
* A bot with one legal action plays it without a search, and its seed sequence goes on as if
  it had searched (seeded games are unchanged).
* Bot specs have one strict grammar: no spaces, no capitals, ASCII digits only.
* ``Game.greedy_value`` / ``search_value`` check their seat with ``check_seat``.
"""

from __future__ import annotations

import argparse
import tracemalloc
from typing import Any, Callable, Dict, Iterator, List, Tuple

import numpy as np
import pytest

import mousehole
from gamecases import CASES, IDS, random_walk
from mousehole import CHANCE, bots, cli
from mousehole._rng import Rng, derive
from mousehole.bots import GreedyBot, ISMCTSBot, MCTSBot, RandomBot, StrongBot, make_bot

ALGOS = ("open", "mcts", "ismcts")


def _key(r: bots.SearchResult) -> Tuple[Any, ...]:
    return (r.action, r.actions, r.visits, r.values, r.iterations, r.nodes)


def _positions(game: Any, seed: int, count: int) -> Iterator[Any]:
    """Copies of ``count`` seat decisions with at least two legal actions, spread over a
    seeded random game."""
    state = game.new_state(seed)
    found = 0
    k = 0
    for _ in random_walk(state, seed):
        if state.current_player >= 0 and len(state.legal_actions()) > 1:
            k += 1
            if k % 3 == 1:
                yield state.clone()
                found += 1
                if found == count:
                    return


def _forced(game: Any) -> Any:
    """The first seat decision with one legal action in the seeded random games of ``game``."""
    for seed in range(200):
        state = game.new_state(seed)
        for _ in random_walk(state, seed):
            if state.current_player >= 0 and len(state.legal_actions()) == 1:
                return state.clone()
    raise AssertionError(f"no forced position in 200 random games of {game!r}")


# --------------------------------------------------------------------------------------
# the node budget


@pytest.mark.differential
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_binding_node_budget_gives_the_same_search_on_both_engines(case: Tuple[str, Dict[str, Any]]) -> None:
    """Tiny budgets on both searches (compiled and pure-Python): the same statistics, the
    tree within its budget (its root's children aside), all the iterations asked for run;
    and the budget binds (a smaller tree than without it)."""
    name, params = case
    game = mousehole.load(name, engine="compiled", **params)
    bound = 0
    for state in _positions(game, 40, 2):
        legal = len(state.legal_actions())
        for algo in ALGOS:
            free = bots.search(state, algorithm=algo, iterations=60, seed=3)
            for nodes in (1, 30, 120):
                c = bots.search(state, algorithm=algo, iterations=60, seed=3, nodes=nodes)
                p = bots.search(state, algorithm=algo, iterations=60, seed=3, nodes=nodes, engine="python")
                assert (c.engine, p.engine) == ("compiled", "python")
                assert _key(c) == _key(p), (algo, nodes)
                assert c.iterations == 60 and sum(c.visits) == 60
                assert c.nodes <= max(nodes, 1 + legal)
                bound += c.nodes < free.nodes
        tune = bots.game_tuning(game)
        for nodes in (1, 40):
            c = bots._strong_search(state.clone(), state.current_player, tune, 40, None, 8, 1, nodes=nodes)
            p = bots._strong_search(
                state.clone(), state.current_player, tune, 40, None, 8, 1, engine="python", nodes=nodes
            )
            assert (c.action, c.actions, c.visits, c.iterations, c.nodes) == (
                p.action,
                p.actions,
                p.visits,
                p.iterations,
                p.nodes,
            )
            assert c.values == pytest.approx(p.values, abs=1e-9)
            assert c.nodes <= max(nodes, 1 + legal)
    assert bound > 0, "no budget was small enough to bind"


@pytest.mark.differential
@pytest.mark.parametrize("name, players", [("m", 2), ("m", 4), ("maus_au_chocolat", 2), ("maus_au_chocolat", 4)])
def test_a_full_ismcts_tree_chooses_among_the_children_it_has(name: str, players: int) -> None:
    """In ISMCTS a determinization brings actions a node has not seen; at the budget the node
    chooses among the children it has that are legal now, or ends the descent when none is
    (the positions and budgets here reach both cases): both engines alike."""
    game = mousehole.load(name, engine="compiled", players=players)
    for seed in range(2):
        state = game.new_state(seed)
        for _ in range(3 + 5 * seed):
            legal = state.legal_actions()
            state.apply_action(int(legal[len(legal) // 2]))
        for nodes in (30, 80, 300):
            c = bots.search(state, algorithm="ismcts", iterations=150, seed=4, nodes=nodes)
            p = bots.search(state, algorithm="ismcts", iterations=150, seed=4, nodes=nodes, engine="python")
            assert _key(c) == _key(p), (seed, nodes)


@pytest.mark.compiled
@pytest.mark.parametrize("algo", ALGOS)
def test_the_compiled_tree_stays_within_its_node_budget(algo: str) -> None:
    """The compiled tree's array never grows past 32 bytes a node of the budget (1,024 nodes
    at least), however long the search runs: the bytes it reports and what tracemalloc sees
    (its memory comes from PyMem_RawMalloc) stay there, where a search without that budget
    takes many times more."""
    from mousehole import _search

    game = mousehole.load("cheese_rescue", players=2)
    state = game.new_state(5)
    mode = bots._MODES[algo]
    budget = 5000
    for iterations in (2000, 20000):
        *_, done, live, tree_bytes = _search.search(state, mode, iterations, None, 1, 1.0, nodes=budget)
        assert done == iterations and live <= budget and tree_bytes <= 32 * budget
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        bots.search(state, algorithm=algo, iterations=20000, seed=1, nodes=budget)
        bounded = tracemalloc.get_traced_memory()[1] - base
        tracemalloc.reset_peak()
        free = bots.search(state, algorithm=algo, iterations=20000, seed=1, nodes=bots.MAX_NODES)
        unbounded = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    assert free.nodes > 4 * budget
    assert bounded < 32 * budget + 64 * 1024 < unbounded


def _late(game: Any, seed: int, before_end: int) -> Any:
    """A seat's decision with a choice about ``before_end`` actions before the end of a
    seeded random game (short play-outs: a quick search on the reference engine)."""
    full = game.new_state(seed)
    for _ in random_walk(full, seed):
        pass
    state = game.new_state(seed)
    for a in full.history[: len(full.history) - before_end]:
        state.apply_action(a)
    while state.current_player < 0 or len(state.legal_actions()) < 2:
        state.apply_action(int(state.legal_actions()[0]))
    return state


def test_the_pure_python_tree_stays_within_its_node_budget() -> None:
    game = mousehole.load("kasimir", engine="python", players=2)
    state = _late(game, 5, 30)
    budget = len(state.legal_actions()) + 10
    for algo in ALGOS:
        free = bots.search(state, algorithm=algo, iterations=100, seed=2, engine="python")
        r = bots.search(state, algorithm=algo, iterations=100, seed=2, nodes=budget, engine="python")
        assert r.iterations == 100 and r.nodes <= budget < free.nodes


def test_the_default_node_budget_applies_to_every_search(engine: str, monkeypatch: Any) -> None:
    """Without ``nodes``, ``search`` and every search bot take :data:`bots.DEFAULT_NODES`
    (here made small to see it bind)."""
    assert bots.DEFAULT_NODES * 32 <= 256 * 10**6  # a small machine's budget (docs/bots.md)
    game = mousehole.load("kasimir", engine=engine, players=2)
    state = _late(game, 6, 30)
    legal = len(state.legal_actions())
    it = 400 if engine == "compiled" else 60
    free = bots.search(state, iterations=it, seed=1)
    monkeypatch.setattr(bots, "DEFAULT_NODES", 40)
    small = bots.search(state, iterations=it, seed=1)
    assert small.nodes <= max(40, 1 + legal) < free.nodes
    assert small == bots.search(state, iterations=it, seed=1, nodes=40)
    for bot in (MCTSBot(it, seed=1), ISMCTSBot(it, seed=1), StrongBot(it, seed=1), make_bot(f"strong:{it}")):
        assert bot.nodes == 40  # type: ignore[attr-defined]
        bot.step(state)
        assert bot.last_search is not None and bot.last_search.nodes <= max(40, 1 + legal)  # type: ignore


def test_bots_and_specs_carry_their_node_budget(engine: str) -> None:
    state = mousehole.load("kasimir", engine=engine, players=2).new_state(2)
    legal = len(state.legal_actions())
    it = 200 if engine == "compiled" else 40
    for bot in (
        MCTSBot(it, nodes=20, seed=3),
        ISMCTSBot(it, nodes=20, seed=3),
        StrongBot(it, nodes=20, seed=3),
        make_bot(f"mcts:{it}:nodes=20", seed=3),
        make_bot(f"strong:{it}:nodes=20", seed=3),
    ):
        assert bot.nodes == 20  # type: ignore[attr-defined]
        assert "nodes=20" in repr(bot)
        assert eval(repr(bot), vars(bots)).nodes == 20
        bot.step(state)
        assert bot.last_search.nodes <= max(20, 1 + legal)  # type: ignore[attr-defined]
    assert "nodes" not in repr(MCTSBot(10))  # the default is not repeated
    spec = make_bot("ismcts:nodes=77")
    assert (spec.iterations, spec.time, spec.nodes) == (bots.DEFAULT_ITERATIONS, None, 77)  # type: ignore
    timed = make_bot("strong:0.5s:nodes=9")
    assert (timed.iterations, timed.time, timed.nodes) == (None, 0.5, 9)  # type: ignore[attr-defined]


def test_strong_threads_share_the_node_budget() -> None:
    """Root parallelism: each of K threads grows its tree to its share of the budget, so the
    trees together stay within it."""
    game = mousehole.load("kasimir", players=2)
    state = game.new_state(0)  # (a choice of 5 moves)
    legal = len(state.legal_actions())
    it, share = (300, 60) if "compiled" in mousehole.available_engines() else (60, 12)
    bot = StrongBot(it, seed=1, threads=3, nodes=3 * share)
    bot.step(state)
    assert bot.last_search is not None and bot.last_search.nodes <= 3 * max(share, 1 + legal)
    parts = [
        bots._strong_search(
            state.clone(),
            state.current_player,
            bot.tuning(game),
            it // 3,
            None,
            derive(derive(1, 0), t),
            1,
            nodes=share,
        )
        for t in range(3)
    ]
    assert bot.last_search.visits == tuple(sum(p.visits[i] for p in parts) for i in range(len(parts[0].visits)))
    assert sum(p.nodes for p in parts) == bot.last_search.nodes
    free = bots._strong_search(
        state.clone(), state.current_player, bot.tuning(game), it // 3, None, derive(derive(1, 0), 0), 1
    )
    assert parts[0].nodes < free.nodes  # (the shares bind)


@pytest.mark.parametrize(
    "nodes, error",
    [(0, ValueError), (-1, ValueError), (2**31, ValueError), (1.5, TypeError), (True, TypeError), ("100", TypeError)],
)
def test_bad_node_budgets_are_refused(nodes: Any, error: type, engine: str) -> None:
    state = mousehole.load("cheese_rescue", engine=engine, players=2).new_state(1)
    for make in (
        lambda: bots.search(state, iterations=5, nodes=nodes),
        lambda: MCTSBot(5, nodes=nodes),
        lambda: ISMCTSBot(nodes=nodes),
        lambda: StrongBot(nodes=nodes),
    ):
        with pytest.raises(error, match="nodes"):
            make()
    assert bots.search(state, iterations=5, nodes=np.int64(50)).nodes <= 50 + len(state.legal_actions())


@pytest.mark.compiled
def test_the_compiled_search_checks_its_node_budget() -> None:
    from mousehole import _search

    state = mousehole.load("cheese_rescue", players=2).new_state(1)
    for bad in (0, -5, 2**31, 1.5, True, None):
        with pytest.raises(ValueError, match="nodes"):
            _search.search(state, 1, 5, None, 1, 1.0, nodes=bad)


# --------------------------------------------------------------------------------------
# one pair of caps for time and iterations


def test_the_caps_are_defined_once() -> None:
    assert bots.MAX_SECONDS == 86400.0 and bots.MAX_ITERATIONS == 2**31 - 1
    assert cli.MAX_MOVE_SECONDS is bots.MAX_SECONDS and bots.MAX_SPEC_SECONDS is bots.MAX_SECONDS


def test_the_time_cap_is_the_same_everywhere(engine: str) -> None:
    """A day per move is accepted by every entry, a little more refused by every one: the bot
    classes, ``search``, ``make_bot(time=...)`` (no cap there before), specs and ``--time``."""
    over = np.nextafter(bots.MAX_SECONDS, np.inf)
    state = mousehole.load("cheese_rescue", engine=engine, players=2).new_state(1)
    makers: List[Callable[[float], Any]] = [
        lambda t: MCTSBot(time=t),
        lambda t: ISMCTSBot(time_limit=t),
        lambda t: StrongBot(time=t),
        lambda t: make_bot("mcts", time=t),
        lambda t: make_bot("strong:nodes=10", time=t),
        lambda t: bots.search(state, iterations=3, time=t),
        lambda t: bots.search(state, iterations=3, time_limit=t),
        lambda t: make_bot(f"ismcts:{t!r}s"),
        lambda t: cli._seconds_arg(repr(t)),
    ]
    for make in makers:
        make(bots.MAX_SECONDS)
        with pytest.raises((ValueError, argparse.ArgumentTypeError), match="86400"):
            make(float(over))
    for t in (1e9, float("inf")):
        with pytest.raises(ValueError, match="at most 86400"):
            make_bot("strong", time=t)


def test_the_iteration_cap_is_the_same_everywhere() -> None:
    top = bots.MAX_ITERATIONS
    assert MCTSBot(top).iterations == top and make_bot(f"strong:{top}").iterations == top  # type: ignore
    for make in (lambda: MCTSBot(top + 1), lambda: StrongBot(top + 1), lambda: make_bot(f"mcts:{top + 1}")):
        with pytest.raises(ValueError, match=str(top)):
            make()


# --------------------------------------------------------------------------------------
# one legal action: no search


def _no_search(monkeypatch: Any) -> None:
    """Make every search and every heuristic raise: a bot that needs none never calls one."""

    def boom(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a search (or a heuristic) ran for a forced move")

    monkeypatch.setattr(bots, "_search", boom)
    monkeypatch.setattr(bots, "_strong_search", boom)
    monkeypatch.setattr(bots, "_py_search", boom)
    for name in mousehole.game_names():
        cls = type(mousehole.load(name, engine="python"))
        monkeypatch.setattr(cls, "greedy_value", boom)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_forced_move_is_played_without_a_search(
    case: Tuple[str, Dict[str, Any]], engine: str, monkeypatch: Any
) -> None:
    """Every bot kind, even with the largest budgets, returns the one legal action of a forced
    position at once: no search, no determinization, no heuristic."""
    name, params = case
    game = mousehole.load(name, engine=engine, **params)
    state = _forced(game)
    only = int(state.legal_actions()[0])
    _no_search(monkeypatch)
    big = bots.MAX_ITERATIONS
    for bot in (
        RandomBot(1),
        GreedyBot(1),
        MCTSBot(big, time=bots.MAX_SECONDS, seed=1),
        ISMCTSBot(big, seed=1),
        StrongBot(big, time=bots.MAX_SECONDS, seed=1, threads=4),
        make_bot("strong:86400s"),
    ):
        before = state.to_dict()
        assert bot.step(state) == only
        assert state.to_dict() == before
        last = getattr(bot, "last_search", None)
        if isinstance(bot, (MCTSBot, StrongBot)):
            assert last == bots.SearchResult(only, (only,), (0,), (0.0,), 0, 0, bot.algorithm, "none")


def test_a_forced_move_keeps_the_seed_sequence(engine: str) -> None:
    """A forced move still counts as a step: the next step's seed is ``derive(seed, k)`` as
    before, so a seeded bot's moves after it are those it would have played (and RandomBot
    still draws its number: its stream is the same)."""
    game = mousehole.load("kasimir", engine=engine, players=2)
    forced = _forced(game)
    state = next(_positions(game, 12, 1))
    legal = state.legal_actions().tolist()
    it = 40 if engine == "compiled" else 8
    bot = MCTSBot(it, seed=5)
    bot.step(forced)
    bot.step(state)
    assert bot.last_search == bots.search(state, algorithm="mcts", iterations=it, seed=derive(5, 1))
    strong = StrongBot(it, seed=5)
    strong.step(forced)
    strong.step(state)
    want = bots._strong_search(state.clone(), state.current_player, strong.tuning(game), it, None, derive(5, 1), 1)
    assert strong.last_search == want
    greedy, fresh = GreedyBot(seed=5), GreedyBot(seed=5)
    greedy.step(forced)
    fresh._calls = 1  # (as if its first step had been taken)
    assert greedy.step(state) == fresh.step(state)
    rnd = RandomBot(seed=5)
    rng = Rng(5)
    rng.below(1)
    rnd.step(forced)
    assert rnd.step(state) == legal[rng.below(len(legal))]


def test_a_seeded_game_with_forced_moves_is_unchanged(monkeypatch: Any) -> None:
    """A whole seeded Kater Kasimir game (many forced moves) is the same move for move as one
    in which the bots search their forced moves too (the behaviour before): only the time and
    ``last_search`` differ."""
    game = mousehole.load("kasimir", players=2)

    def play() -> List[int]:
        state = game.new_state(21)
        seats = [StrongBot(30, seed=1), GreedyBot(seed=2)]
        rng = Rng(3)
        while not state.is_terminal():
            if state.current_player == CHANCE:
                legal = state.legal_actions()
                state.apply_action(int(legal[rng.below(len(legal))]))
            else:
                state.apply_action(seats[state.current_player].step(state))
        return list(state.history)

    now = play()
    monkeypatch.setattr(bots, "_forced", lambda state: None)
    assert play() == now


# --------------------------------------------------------------------------------------
# one strict grammar for specs


@pytest.mark.parametrize(
    "spec",
    [
        "mcts:\u0663",
        "mcts:\uff11\uff10",
        "ismcts:\u0661\u0660s",
        "strong:nodes=\u0663",  # other digits
        "MCTS",
        "Mcts:10",
        "strong:0.5S",
        "Random",
        "mcts:1E3s",
        "mcts:NODES=5",
        "mcts:10:Nodes=5",  # capitals
        " mcts",
        "mcts ",
        "mcts:10 ",
        "mcts: 10",
        "mcts :10",
        "mcts:\t10",
        "random\n",
        "mcts:10:nodes= 5",  # spaces
        "mcts:1_000",
        "mcts:+10",
        "mcts:0.5e",
        "mcts:nodes=",
        "mcts:nodes=0",
        "mcts:nodes=2147483648",
        "mcts:nodes=5:10",
        "mcts:10:nodes=5:nodes=6",
        "mcts:nodes=1.5",
        "random:nodes=5",
        "mcts:10:0.5s",
    ],
)
def test_make_bot_refuses_what_the_grammar_does_not_allow(spec: str) -> None:
    with pytest.raises(ValueError, match="spec") as err:
        make_bot(spec)
    assert repr(spec) in str(err.value)
    assert not bots.spec_has_budget(spec)


def test_the_errors_say_what_is_wrong() -> None:
    with pytest.raises(ValueError, match="lowercase: 'mcts'"):
        make_bot("MCTS:10")
    with pytest.raises(ValueError, match="without spaces"):
        make_bot("mcts:10 ")
    with pytest.raises(ValueError, match="digits 0-9"):
        make_bot("mcts:\u0663")
    with pytest.raises(ValueError, match="node budget"):
        make_bot("mcts:nodes=3x")
    with pytest.raises(ValueError) as err:
        make_bot("x" * 1_000_000)
    assert len(str(err.value)) < 600 and "1000000 characters" in str(err.value)


@pytest.mark.parametrize(
    "spec, want",
    [
        ("mcts:10", (10, None, bots.DEFAULT_NODES)),
        ("mcts:0010", (10, None, bots.DEFAULT_NODES)),
        ("ismcts:.5s", (None, 0.5, bots.DEFAULT_NODES)),
        ("strong:1e-05s", (None, 1e-05, bots.DEFAULT_NODES)),
        ("mcts:10:nodes=500", (10, None, 500)),
        ("strong:0.5s:nodes=1000", (None, 0.5, 1000)),
        ("ismcts:nodes=77", (bots.DEFAULT_ITERATIONS, None, 77)),
    ],
)
def test_make_bot_reads_the_grammar(spec: str, want: Tuple[Any, ...]) -> None:
    bot = make_bot(spec)
    assert (bot.iterations, bot.time, bot.nodes) == want  # type: ignore[attr-defined]


def test_time_is_added_to_the_specs_without_a_budget() -> None:
    """``--time`` (``cli._timed``, through ``bots.spec_with_time``) gives seconds to the
    search specs without a budget, node budget kept; bad specs are left for the check that
    names them."""
    specs = ["mcts", "strong:nodes=5", "ismcts:30", "mcts:1s:nodes=5", "greedy", "MCTS", "mcts "]
    assert cli._timed(specs, 0.5) == [
        "mcts:0.5s",
        "strong:0.5s:nodes=5",
        "ismcts:30",
        "mcts:1s:nodes=5",
        "greedy",
        "MCTS",
        "mcts ",
    ]
    assert cli._timed(["mcts"], 1e-05) == ["mcts:1e-05s"] and make_bot("mcts:1e-05s").time == 1e-05  # type: ignore
    assert [bots.spec_has_budget(s) for s in specs] == [False, False, True, True, False, False, False]


def test_the_command_line_takes_node_budgets_and_refuses_bad_specs(capsys: Any) -> None:
    status = cli.main(
        [
            "arena",
            "kasimir",
            "--bots",
            "mcts:20:nodes=30,strong:nodes=40",
            "--time",
            "0.001",
            "--games",
            "1",
            "--seed",
            "3",
        ]
    )
    assert status == 0
    for bad in ("MCTS:20,random", "mcts:\u0663,random", "mcts:20:nodes=0,random"):
        with pytest.raises(SystemExit):
            cli.main(["arena", "kasimir", "--bots", bad, "--games", "1"])
        assert "spec" in capsys.readouterr().err


# --------------------------------------------------------------------------------------
# the games' values check their seat


@pytest.mark.parametrize("name", mousehole.game_names())
def test_greedy_and_search_values_check_the_seat(name: str, engine: str) -> None:
    game = mousehole.load(name, engine=engine, players=3)
    state = game.new_state(4)
    for value in (game.greedy_value, game.search_value):
        assert value(state, np.int64(1)) == value(state, 1)
        for seat in (True, False, np.bool_(True), 1.0, "0", None):
            with pytest.raises(TypeError, match="seat must be an int"):
                value(state, seat)
        for seat in (-1, -3, 3, 99, 2**70):
            with pytest.raises(ValueError, match=f"seat {seat} is out of range: this game has seats 0..2"):
                value(state, seat)
    assert bots.heuristic(game) == game.greedy_value
