"""``mousehole.bots``: the Bot protocol, the four bots and ``make_bot``.

* Every bot plays legal moves only, never changes the state it is given, and plays whole
  games on both engines (chance nodes resolved by the game loop).
* A bot uses only what its seat may see: its move on a state equals its move on any
  determinization of that state for its seat (same bot seed).
* Same seed, same moves; ``reset()`` starts the seed sequence again; other seeds, other moves.
* ``GreedyBot``'s heuristic per game: it takes a winning final move, avoids a trap, and rates
  positions as documented.
* ``make_bot`` reads the specs and names the bad ones; bad arguments are refused.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Dict, List, Tuple

import pytest

import mousehole
from gamecases import CASES, IDS, NAMES, profile, random_walk, scale
from mousehole import CHANCE, bots
from mousehole._rng import Rng, derive
from mousehole.bots import Bot, GreedyBot, ISMCTSBot, MCTSBot, RandomBot, StrongBot, make_bot


def _factories(engine: str) -> Dict[str, Callable[[int], Any]]:
    """Small bots (the reference engine gets smaller budgets: its search runs in Python)."""
    it = 24 if engine == "compiled" else 4
    return {
        "random": lambda seed: RandomBot(seed),
        "greedy": lambda seed: GreedyBot(seed),
        "mcts": lambda seed: MCTSBot(it, seed=seed),
        "ismcts": lambda seed: ISMCTSBot(it, seed=seed),
        "strong": lambda seed: StrongBot(it, seed=seed),
    }


def _decisions(game: Any, seed: int, every: int) -> Any:
    """Copies of every ``every``-th seat decision of a seeded random game."""
    state = game.new_state(seed)
    k = 0
    for _ in random_walk(state, seed):
        if state.current_player >= 0:
            k += 1
            if k % every == 0:
                yield state.clone()


def _resolve_chance(state: Any, rng: Rng) -> None:
    while state.current_player == CHANCE:
        legal = state.legal_actions()
        state.apply_action(int(legal[rng.below(len(legal))]))


# --------------------------------------------------------------------------------------
# protocol and specs


def test_every_bot_is_a_bot() -> None:
    for bot in (RandomBot(), GreedyBot(), MCTSBot(), ISMCTSBot(), make_bot("mcts:10")):
        assert isinstance(bot, Bot)
    assert not isinstance(object(), Bot)


@pytest.mark.parametrize(
    "spec, cls, iterations",
    [
        ("random", RandomBot, None),
        ("greedy", GreedyBot, None),
        ("mcts", MCTSBot, bots.DEFAULT_ITERATIONS),
        ("mcts:1000", MCTSBot, 1000),
        ("ismcts", ISMCTSBot, bots.DEFAULT_ITERATIONS),
        ("ismcts:500", ISMCTSBot, 500),
    ],
)
def test_make_bot_reads_specs(spec: str, cls: type, iterations: Any) -> None:
    bot = make_bot(spec, seed=7)
    assert type(bot) is cls
    assert bot.seed == 7  # type: ignore[attr-defined]
    if iterations is not None:
        assert bot.iterations == iterations  # type: ignore[attr-defined]
        assert bot.time_limit is None  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "spec",
    [
        "",
        "mcts:",
        "mcts:0",
        "mcts:-3",
        "mcts:1e3",
        "mcts:abc",
        "mcts:10:3",
        "random:3",
        "greedy:1",
        "alphazero",
        "ismcts:99999999999",
    ],
)
def test_make_bot_names_a_bad_spec(spec: str) -> None:
    with pytest.raises(ValueError, match="spec") as err:
        make_bot(spec)
    assert repr(spec) in str(err.value)


def test_make_bot_refuses_a_non_string() -> None:
    with pytest.raises(TypeError, match="spec"):
        make_bot(1000)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "make, error, words",
    [
        (lambda: MCTSBot(0), ValueError, "iterations"),
        (lambda: MCTSBot(2.5), TypeError, "iterations"),  # type: ignore[arg-type]
        (lambda: MCTSBot(time_limit=-1), ValueError, "time_limit"),
        (lambda: ISMCTSBot(c=-1.0), ValueError, "exploration"),
        (lambda: ISMCTSBot(seed="x"), TypeError, "seed"),  # type: ignore[arg-type]
        (lambda: RandomBot(seed=1.5), TypeError, "seed"),  # type: ignore[arg-type]
        (lambda: GreedyBot(seed=None), TypeError, "seed"),  # type: ignore[arg-type]
    ],
)
def test_bad_bot_arguments_are_refused(make: Callable[[], Any], error: type, words: str) -> None:
    with pytest.raises(error, match=words):
        make()


def test_budgets() -> None:
    assert (MCTSBot().iterations, MCTSBot().time_limit) == (bots.DEFAULT_ITERATIONS, None)
    assert (MCTSBot(time_limit=0.5).iterations, MCTSBot(time_limit=0.5).time_limit) == (None, 0.5)
    assert (MCTSBot(50, time_limit=0.5).iterations, MCTSBot(50, time_limit=0.5).time_limit) == (50, 0.5)


@pytest.mark.parametrize("kind", ["random", "greedy", "mcts", "ismcts", "strong"])
def test_bots_refuse_chance_and_terminal_states(kind: str, engine: str) -> None:
    bot = _factories(engine)[kind](0)
    state = mousehole.load("kasimir", engine=engine, players=2, explicit_chance=True).new_state(1)
    with pytest.raises(ValueError, match="chance"):
        bot.step(state)
    for _ in random_walk(state, 2):
        pass
    with pytest.raises(ValueError, match="over"):
        bot.step(state)
    with pytest.raises(TypeError, match="mousehole state"):
        bot.step(state.to_dict())


# --------------------------------------------------------------------------------------
# playing


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_bots_play_whole_games_with_legal_moves_only(case: Tuple[str, Dict[str, Any]], engine: str) -> None:
    """Seats taken by the four bots in turn; every move is legal and ``step`` leaves the state
    as it found it."""
    name, params = case
    game = mousehole.load(name, engine=engine, **params)
    make = _factories(engine)
    kinds = ["strong", "mcts", "ismcts", "greedy", "random"]
    if engine == "python" and profile(name).slow_reference_games:
        kinds = ["greedy", "random"]  # long games: the Python search over them takes minutes
    players = [make[kinds[p % len(kinds)]](p) for p in range(game.num_players)]
    state = game.new_state(11)
    rng = Rng(5)
    moves = 0
    while True:
        _resolve_chance(state, rng)
        if state.is_terminal():
            break
        before = state.to_dict()
        a = players[state.current_player].step(state)
        assert type(a) is int
        assert state.to_dict() == before, "a bot changed the state it was given"
        assert a in state.legal_actions().tolist()
        state.apply_action(a)
        moves += 1
    assert moves > 0


_VIEW_BOTS = ["random", "greedy", "mcts", "ismcts", "strong"]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_bot_sees_only_its_seats_view(case: Tuple[str, Dict[str, Any]], engine: str) -> None:
    """A fresh bot plays the same move on a state and on determinizations of it for the seat to
    move (states that seat cannot tell apart from the true one)."""
    name, params = case
    game = mousehole.load(name, engine=engine, **params)
    make = _factories(engine)
    every = profile(name).bots_every
    budget = scale(3) if engine == "compiled" else 1
    checked = 0
    for state in _decisions(game, 700, every):
        if checked >= budget:
            break
        seat = state.current_player
        worlds = [state.determinize(seat, k) for k in (1, 2, 3)]
        for kind in _VIEW_BOTS:
            if engine == "python" and profile(name).slow_reference_search and kind in ("mcts", "ismcts", "strong"):
                continue  # slow; the compiled run covers it
            want = make[kind](41).step(state)
            for w in worlds:
                assert make[kind](41).step(w) == want, (kind, state.history)
        checked += 1
    assert checked > 0


def test_a_bot_move_does_not_depend_on_hidden_cards() -> None:
    """The same check where the hidden cards differ for certain: a Cheese Rescue position and
    a determinization of it whose pile or opponent hand is not the same."""
    game = mousehole.load("cheese_rescue", players=2)
    state = game.new_state(3)
    for _ in range(3):
        state.apply_action(int(state.legal_actions()[0]))
    seat = state.current_player
    other = next(
        state.determinize(seat, k)
        for k in range(50)
        if state.determinize(seat, k).to_dict()["hands"] != state.to_dict()["hands"]
    )
    assert other.to_dict(for_player=seat) == state.to_dict(for_player=seat)
    it = 200 if "compiled" in mousehole.available_engines() else 30
    for cls in (MCTSBot, ISMCTSBot, StrongBot):
        a, b = cls(it, seed=9), cls(it, seed=9)
        assert a.step(state) == b.step(other)
        assert a.last_search == b.last_search  # the same tree statistics, not only the move
    assert GreedyBot(seed=9).step(state) == GreedyBot(seed=9).step(other)


# --------------------------------------------------------------------------------------
# seeds


@pytest.mark.parametrize("kind", ["random", "greedy", "mcts", "ismcts", "strong"])
def test_same_seed_same_moves_and_reset(kind: str, engine: str) -> None:
    game = mousehole.load("cheese_rescue", engine=engine, players=3)
    states = list(_decisions(game, 800, 4))[:5]
    make = _factories(engine)[kind]
    a, b = make(3), make(3)
    first = [a.step(s) for s in states]
    assert first == [b.step(s) for s in states]
    a.reset()
    assert [a.step(s) for s in states] == first
    # the k-th step has its own seed: the same state twice is searched with two seeds
    others = [[make(seed).step(s) for s in states] for seed in range(4, 10)]
    assert any(o != first for o in others), "the seed changes nothing"


def test_step_seeds_follow_the_documented_sequence(engine: str) -> None:
    """Step ``k`` of a search bot searches with the seed ``derive(seed, k)``."""
    game = mousehole.load("cheese_rescue", engine=engine, players=2)
    state = game.new_state(4)
    bot = MCTSBot(30, seed=12)
    for k in range(3):
        bot.step(state)
        want = bots.search(state, algorithm="mcts", iterations=30, seed=derive(12, k))
        assert bot.last_search == want
    bot.reset()
    assert bot.last_search is None
    bot.step(state)
    assert bot.last_search == bots.search(state, algorithm="mcts", iterations=30, seed=derive(12, 0))


def test_a_reference_state_is_searched_by_the_compiled_search(engine: str) -> None:
    """The same move on either engine's state; with a compiled engine present the search of a
    reference state runs compiled."""
    ref = mousehole.load("maus_au_chocolat", engine=engine, players=3)
    state = ref.new_state(5)
    bot = ISMCTSBot(20, seed=1)
    bot.step(state)
    assert bot.last_search is not None
    compiled = "compiled" in mousehole.available_engines()
    assert bot.last_search.engine == ("compiled" if compiled else "python")
    if compiled:
        other = mousehole.load("maus_au_chocolat", engine="compiled" if engine == "python" else "python", players=3)
        twin = other.state_from_dict(state.to_dict())
        bot2 = ISMCTSBot(20, seed=1)
        assert bot2.step(twin) == bot.last_search.action
        assert bot2.last_search == bot.last_search


# --------------------------------------------------------------------------------------
# GreedyBot's heuristics


def _final_move_puzzle(game: Any) -> Tuple[Any, List[int]]:
    for seed in range(300):
        state = game.new_state(seed)
        rng = Rng(seed)
        while len(state.history) < 23:
            legal = state.legal_actions()
            state.apply_action(int(legal[rng.below(len(legal))]))
        seat = state.current_player
        wins = []
        legal = state.legal_actions().tolist()
        for a in legal:
            after = state.clone()
            after.apply_action(a)
            if after.winners() == [seat]:
                wins.append(a)
        if len(legal) >= 4 and 1 <= len(wins) <= len(legal) // 4:
            return state, wins
    raise AssertionError("no puzzle found")


def test_greedy_takes_a_winning_final_move(engine: str) -> None:
    """Cheese Rescue: the heuristic is the CR-13 ranking of the table as it stands (score, then
    surviving cheeses), so on the last move it finds a win when there is one."""
    game = mousehole.load("cheese_rescue", engine=engine, players=2)
    state, wins = _final_move_puzzle(game)
    for seed in range(3):
        assert GreedyBot(seed).step(state) in wins


def _kasimir_position(engine: str, roll: int) -> Any:
    game = mousehole.load("kasimir", engine=engine, players=2)
    d = game.new_state(1).to_dict()
    d["pantry"] = [2, 3]
    d["track"] = [[] for _ in range(40)]
    d["track"][34], d["track"][36], d["track"][30] = [0], [0], [1]
    d["roll"] = roll
    return game.state_from_dict(d)


def test_greedy_avoids_a_trap(engine: str) -> None:
    """Kater Kasimir, seat 0 rolled 1 (mice on 35 and 37, two in the pantry): 35 -> 36 is
    caught (KK-9); the heuristic loses that mouse's 10 + 35 and the safe moves gain 1."""
    game = mousehole.load("kasimir", engine=engine, players=2)
    state = _kasimir_position(engine, 0)
    for seed in range(4):
        assert str(game.action_to_move(GreedyBot(seed).step(state))) in ("0+1", "37+1")
    value = bots.heuristic(game)
    trapped = state.clone()
    trapped.apply_action(game.move_to_action(game.parse_move("35+1")))
    safe = state.clone()
    safe.apply_action(game.move_to_action(game.parse_move("37+1")))
    assert value(safe, 0) - value(trapped, 0) == 10 + 35 + 1


def test_greedy_blocks_an_opponent_mouse(engine: str) -> None:
    """Landing on the other seat's mouse blocks it (KK-8): the heuristic counts 3 less for a
    blocked mouse, so of two moves with the same progress the bot takes the one that blocks
    (and it does not bring a pantry mouse onto the trap 3)."""
    game = mousehole.load("kasimir", engine=engine, players=2)
    d = game.new_state(1).to_dict()
    d["pantry"] = [2, 3]
    d["track"] = [[] for _ in range(40)]
    d["track"][9], d["track"][19], d["track"][22] = [0], [0], [1]  # seat 0 on 10 and 20, seat 1 on 23
    d["roll"] = 2  # a 3: 10 -> 13 or 20 -> 23 (onto seat 1's mouse), or the pantry -> 3 (a trap)
    state = game.state_from_dict(d)
    for seed in range(4):
        move = str(game.action_to_move(GreedyBot(seed).step(state)))
        assert move == "20+3", move


def test_m_heuristic_is_the_score_lead(engine: str) -> None:
    game = mousehole.load("m", engine=engine, players=3)
    value = bots.heuristic(game)
    for state in list(_decisions(game, 900, 17))[:4]:
        sc = state.scores()
        for p in range(3):
            assert value(state, p) == sc[p] - max(sc[q] for q in range(3) if q != p)


def test_maus_au_chocolat_heuristic_counts_points_and_hand(engine: str) -> None:
    game = mousehole.load("maus_au_chocolat", engine=engine, players=2)
    value = bots.heuristic(game)
    cards = game.params["cards"]
    for state in list(_decisions(game, 901, 13))[:4]:
        d = state.to_dict()
        sc = state.scores()
        for p in range(2):
            hand = sum(cards[c][1] for c in d["hands"][p])
            assert value(state, p) == pytest.approx(sc[p] - sc[1 - p] + 0.05 * hand)


def test_heuristic_of_an_unknown_game() -> None:
    class Fake:
        name = "chess"

    with pytest.raises(ValueError, match="chess"):
        bots.heuristic(Fake())  # type: ignore[arg-type]


def test_greedy_uses_its_view_only(engine: str) -> None:
    """GreedyBot evaluates on a determinization of its view, never on the true state: with
    the true state's hidden cards replaced (another determinization), the same move."""
    game = mousehole.load("m", engine=engine, players=2)
    for state in list(_decisions(game, 902, 19))[:3]:
        seat = state.current_player
        for k in range(3):
            assert GreedyBot(5).step(state) == GreedyBot(5).step(state.determinize(seat, 100 + k))


def test_a_bot_of_your_own_plays_in_the_arena_loop() -> None:
    """The protocol is all a bot needs (docs/bots.md's example): a first-legal-action bot
    plays a whole game against the library's bots."""

    class FirstLegal:
        def step(self, state: Any) -> int:
            return int(state.legal_actions()[0])

        def reset(self) -> None:
            pass

    assert isinstance(FirstLegal(), Bot)
    game = mousehole.load("cheese_rescue", players=2)
    state = game.new_state(1)
    seats: List[Bot] = [FirstLegal(), RandomBot(3)]
    while not state.is_terminal():
        state.apply_action(seats[state.current_player].step(state))
    assert state.is_terminal()


def test_factories_for_the_arena() -> None:
    """``functools.partial(MCTSBot, 50)`` is a factory ``factory(seed=...)``."""
    make = functools.partial(MCTSBot, 50)
    bot = make(seed=4)
    assert (bot.iterations, bot.seed) == (50, 4)


def test_the_examples_of_the_docs_run() -> None:
    """Every Python block of docs/bots.md runs as written (without a compiled engine, with
    search budgets cut to 3 iterations: the pure-Python search is slow)."""
    import pathlib
    import re

    doc = pathlib.Path(__file__).resolve().parents[1] / "docs" / "bots.md"
    blocks = re.findall(r"```python\n(.*?)```", doc.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 2
    for i, code in enumerate(blocks):
        if "compiled" not in mousehole.available_engines():
            code = re.sub(r"(MCTSBot|ISMCTSBot)\(\d+", r"\1(3", code)
        exec(compile(code, f"docs/bots.md block {i}", "exec"), {"__name__": "docs_bots_example"})


@pytest.mark.parametrize(
    "actions, visits, legal, chosen",
    [
        ((3, 5, 9), (4, 7, 7), [3, 5, 9], 5),  # the children are the legal actions: first best
        ((3, 5, 9), (0, 0, 0), [3, 5, 9], 3),  # nothing visited: the lowest
        ((3, 5, 9), (4, 7, 9), [3, 5], 5),  # the most visited child is not legal here
        ((3, 5, 9), (4, 7, 9), [1, 3, 5, 9], 9),  # a legal action the root never listed
        ((3, 5), (4, 7), [1, 2], 1),  # no legal child: the lowest legal action
        ((), (), [4, 6], 4),
    ],
)
def test_the_chosen_move_is_the_most_visited_legal_child(
    actions: Tuple[int, ...], visits: Tuple[int, ...], legal: List[int], chosen: int
) -> None:
    from mousehole.bots import _choose

    assert _choose(actions, visits, legal) == chosen


# --------------------------------------------------------------------------------------
# time budgets and specs (issue 26)


@pytest.mark.parametrize(
    "spec, cls, iterations, seconds",
    [
        ("mcts:0.1s", MCTSBot, None, 0.1),
        ("ismcts:2.5s", ISMCTSBot, None, 2.5),
        ("ismcts:.05s", ISMCTSBot, None, 0.05),
        ("strong", StrongBot, bots.DEFAULT_ITERATIONS, None),
        ("strong:300", StrongBot, 300, None),
        ("strong:0.02s", StrongBot, None, 0.02),
    ],
)
def test_make_bot_reads_time_specs(spec: str, cls: type, iterations: Any, seconds: Any) -> None:
    bot = make_bot(spec, seed=4)
    assert type(bot) is cls
    assert (bot.iterations, bot.time, bot.time_limit) == (iterations, seconds, seconds)  # type: ignore[attr-defined]
    assert bot.seed == 4  # type: ignore[attr-defined]


def test_make_bot_time_applies_to_search_bots_without_a_budget() -> None:
    for spec, cls in (("mcts", MCTSBot), ("ismcts", ISMCTSBot), ("strong", StrongBot)):
        bot = make_bot(spec, time=0.25)
        assert type(bot) is cls and (bot.iterations, bot.time) == (None, 0.25)  # type: ignore[attr-defined]
    assert (make_bot("mcts:40", time=0.25).iterations, make_bot("mcts:40", time=0.25).time) == (40, None)  # type: ignore
    assert make_bot("strong:1s", time=0.25).time == 1.0  # type: ignore[attr-defined]
    assert type(make_bot("greedy", time=0.25)) is GreedyBot
    assert [bots.spec_has_budget(s) for s in ("mcts", "mcts:5", "strong:0.1s", "greedy", "random")] == [
        False,
        True,
        True,
        False,
        False,
    ]


@pytest.mark.parametrize(
    "spec",
    [
        "mcts:0s",
        "mcts:-1s",
        "mcts:s",
        "mcts:nans",
        "mcts:infs",
        "strong:1e9s",
        "strong:0",
        "strong:x",
        "strong:0.1",
        "ismcts:1_0s",
        "strong:0.1s:2",
    ],
)
def test_make_bot_names_a_bad_time_spec(spec: str) -> None:
    with pytest.raises(ValueError, match="spec") as err:
        make_bot(spec)
    assert repr(spec) in str(err.value)


@pytest.mark.parametrize(
    "make, error, words",
    [
        (lambda: MCTSBot(time=0), ValueError, "time must be"),
        (lambda: MCTSBot(time=float("nan")), ValueError, "time must be"),
        (lambda: ISMCTSBot(time="1"), TypeError, "time"),  # type: ignore[arg-type]
        (lambda: MCTSBot(time=1.0, time_limit=1.0), ValueError, "not both"),
        (lambda: StrongBot(time=-1.0), ValueError, "time must be"),
        (lambda: StrongBot(0), ValueError, "iterations"),
        (lambda: StrongBot(threads=0), ValueError, "threads"),
        (lambda: StrongBot(threads=1.5), TypeError, "threads"),  # type: ignore[arg-type]
        (lambda: StrongBot(depth=-2), ValueError, "depth"),
        (lambda: StrongBot(depth="3"), TypeError, "depth"),  # type: ignore[arg-type]
        (lambda: StrongBot(scale=0.0), ValueError, "scale"),
        (lambda: StrongBot(greedy=1.5), ValueError, "greedy"),
        (lambda: StrongBot(c=-1.0), ValueError, "exploration"),
        (lambda: StrongBot(seed=None), TypeError, "seed"),  # type: ignore[arg-type]
    ],
)
def test_bad_time_and_strong_arguments_are_refused(make: Callable[[], Any], error: type, words: str) -> None:
    with pytest.raises(error, match=words):
        make()


def test_time_and_time_limit_are_one_budget() -> None:
    for cls in (MCTSBot, ISMCTSBot, StrongBot):
        assert (cls(time=0.5).iterations, cls(time=0.5).time) == (None, 0.5)  # type: ignore[attr-defined]
        assert cls(time_limit=0.5).time == 0.5 == cls(time_limit=0.5).time_limit  # type: ignore[attr-defined]
        assert (cls(50, time=0.5).iterations, cls(50, time=0.5).time) == (50, 0.5)  # type: ignore[attr-defined]
    assert "time=0.5" in repr(MCTSBot(time=0.5)) and "time=0.5" in repr(StrongBot(time=0.5, threads=2))


@pytest.mark.parametrize("kind", ["mcts", "ismcts", "strong"])
def test_more_time_runs_more_iterations_and_a_tiny_budget_still_moves(kind: str, engine: str) -> None:
    """The search stops on its time: a budget 20 times larger runs more iterations (not a
    speed check: the same search given more time), and a budget far below one iteration
    still returns a legal move after one iteration at least."""
    state = mousehole.load("kasimir", engine=engine, players=2).new_state(0)  # (a choice of 5 moves)
    short, long_ = (0.005, 0.1) if engine == "compiled" else (0.01, 0.2)
    a = make_bot(f"{kind}:{short}s", seed=1)
    b = make_bot(f"{kind}:{long_}s", seed=1)
    a.step(state)
    b.step(state)
    n_short = a.last_search.iterations  # type: ignore[attr-defined]
    n_long = b.last_search.iterations  # type: ignore[attr-defined]
    assert 1 <= n_short < n_long
    tiny = make_bot(f"{kind}:0.000001s", seed=1)
    move = tiny.step(state)
    assert move in state.legal_actions().tolist() and tiny.last_search.iterations >= 1  # type: ignore[attr-defined]


def test_search_takes_time_as_the_alias_of_time_limit(engine: str) -> None:
    state = mousehole.load("cheese_rescue", engine=engine, players=2).new_state(2)
    r = bots.search(state, algorithm="mcts", iterations=5, time=30.0, seed=3)
    assert r.iterations == 5 and r == bots.search(state, algorithm="mcts", iterations=5, time_limit=30.0, seed=3)
    with pytest.raises(ValueError, match="not both"):
        bots.search(state, time=1.0, time_limit=1.0)
    with pytest.raises(ValueError, match="time must be"):
        bots.search(state, time=-1.0)


# --------------------------------------------------------------------------------------
# StrongBot (issue 26)


def test_strong_bot_is_deterministic_with_iterations_and_threads(engine: str) -> None:
    game = mousehole.load("m", engine=engine, players=3)
    states = list(_decisions(game, 900, 5))[:3]
    it = 60 if engine == "compiled" else 6
    for threads in (1, 3):
        a, b = StrongBot(it, seed=5, threads=threads), StrongBot(it, seed=5, threads=threads)
        for s in states:
            assert a.step(s) == b.step(s)
            assert a.last_search == b.last_search and a.last_search is not None
            assert a.last_search.iterations == it and sum(a.last_search.visits) == it
            assert a.last_search.algorithm == "strong"
    # three threads: three searches with the seeds derive(step seed, t), their statistics added
    bot = StrongBot(it, seed=5, threads=3)
    bot.step(states[0])
    parts = [
        bots._strong_search(
            states[0].clone(), states[0].current_player, bot.tuning(game), it // 3, None, derive(derive(5, 0), t), 1
        )
        for t in range(3)
    ]
    assert bot.last_search is not None
    assert bot.last_search.visits == tuple(sum(p.visits[i] for p in parts) for i in range(len(parts[0].visits)))


@pytest.mark.compiled
@pytest.mark.parametrize("name", NAMES)
def test_strong_search_in_python_equals_the_compiled_one(name: str) -> None:
    """The pure-Python strong search (the fallback) is the same algorithm with the same
    random numbers: its statistics equal the compiled search's, with each game's own
    constants (Kater Kasimir, M: the evaluation is ``greedy_value``; Maus au Chocolat: greedy
    play-out steps and its core's evaluation, mirrored by ``MausAuChocolat.search_value``; Cheese
    Rescue's play-outs run to the end)."""
    from mousehole import _search

    game = mousehole.load(name, players=2)
    assert _search.has_evaluate(game.new_state(1))
    bot = StrongBot(20, seed=2)
    _same_strong_search(game, bot.tuning(game), 1000, 3, 40, 77)


def test_strong_bot_evaluation_changes_the_search() -> None:
    """The tuned play-outs are in use: a search with the game's depth differs from the same
    search playing out to the end (depth -1), and greedy play-out steps change it again."""
    state = mousehole.load("kasimir", players=2).new_state(0)  # (a choice of 5 moves)
    it = 300 if "compiled" in mousehole.available_engines() else 20
    runs = []
    for kw in ({}, {"depth": -1}, {"greedy": 1.0}, {"greedy": 0.0}):
        bot = StrongBot(it, seed=3, **kw)  # type: ignore[arg-type]
        bot.step(state)
        assert bot.last_search is not None
        runs.append(bot.last_search.values)
    assert runs[0] != runs[1] and runs[2] != runs[3]


def test_strong_greedy_play_out_step_draws_its_ties_at_random() -> None:
    """A greedy play-out step breaks ties among equally rated actions at random (from the
    play-out's generator), not always by the lowest action: at the start of Cheese Rescue
    the seat's best cheese card rates the same on each of the four cells next to the start
    card (CR-7), and one greedy step from different play-out seeds lays it on several of them."""
    game = mousehole.load("cheese_rescue", players=2, engine="python")
    state = game.new_state(3)
    legal = state.legal_actions().tolist()
    firsts = set()
    for k in range(12):
        work = state.clone()
        bots._py_strong_playout(work, Rng(derive(9, k)), 1, 10.0, 1.0, game.greedy_value)
        assert len(work.history) == len(state.history) + 1
        firsts.add(int(work.history[-1]))
    assert firsts <= set(legal) and len(firsts) >= 3  # (one action, the lowest tied, before)


def test_search_tuning_overrides_a_constant_per_player_count() -> None:
    """A ``SEARCH_TUNING`` key ``NAME@P`` replaces ``NAME`` in games of ``P`` players only
    (``bots.game_tuning``); the other player counts keep ``NAME``, and what a game leaves
    out is ``DEFAULT_TUNING``'s."""
    values = {"c": 0.5, "depth": -1, "greedy": 0.0, "depth@2": 12, "greedy@2": 0.25, "c@3": 2.0}
    assert bots._tuning_of(values, 2) == bots.StrongTuning(
        c=0.5, depth=12, scale=bots.DEFAULT_TUNING.scale, greedy=0.25
    )
    assert bots._tuning_of(values, 3) == bots.StrongTuning(c=2.0, depth=-1, scale=bots.DEFAULT_TUNING.scale, greedy=0.0)
    assert (
        bots._tuning_of(values, 4)
        == bots._tuning_of(values)
        == bots.StrongTuning(c=0.5, depth=-1, scale=bots.DEFAULT_TUNING.scale, greedy=0.0)
    )
    game = mousehole.load("maus_au_chocolat", players=2)
    overrides = {k.split("@")[0] for k in type(game).SEARCH_TUNING if k.endswith("@2")}
    assert overrides and bots.game_tuning(game) == bots._tuning_of(type(game).SEARCH_TUNING, 2)
    assert bots.game_tuning(game) != bots._tuning_of(type(game).SEARCH_TUNING, 4)


@pytest.mark.compiled
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("players", [2, 4])
def test_strong_search_with_greedy_play_outs_in_python_equals_the_compiled_one(name: str, players: int) -> None:
    """With greedy play-out steps (ties drawn at random from the play-out's generator) and
    play-outs ended by the evaluation, the pure-Python strong search still equals the
    compiled one, draw for draw (Maus au Chocolat's evaluation counts every seat's hand, as
    its core's ``evaluate`` does, not ``greedy_value``'s own hand alone)."""
    game = mousehole.load(name, players=players)
    _same_strong_search(game, bots.StrongTuning(c=1.0, depth=6, scale=10.0, greedy=0.5), 1001, 4, 30, 78, states=2)


def _same_strong_search(
    game: Any, tune: Any, seed: int, every: int, iterations: int, search_seed: int, *, states: int = 3
) -> None:
    """The compiled and the pure-Python strong search give the same statistics on the first
    ``states`` decisions of a seeded game (``_decisions(game, seed, every)``)."""
    checked = 0
    for state in list(_decisions(game, seed, every))[:states]:
        seat = state.current_player
        c = bots._strong_search(state, seat, tune, iterations, None, search_seed, 1)
        p = bots._strong_search(state, seat, tune, iterations, None, search_seed, 1, engine="python")
        assert (c.engine, p.engine) == ("compiled", "python")
        assert (c.action, c.actions, c.visits, c.iterations) == (p.action, p.actions, p.visits, p.iterations)
        assert c.values == pytest.approx(p.values, abs=1e-9)
        checked += 1
    assert checked == states


def _reading_games() -> List[Tuple[str, str, str]]:
    out = []
    for name in mousehole.game_names():
        for r in type(mousehole.load(name, engine="python")).READINGS:
            for v in r.values:
                out.append((name, r.param, v))
    return out


@pytest.mark.parametrize("name, param, value", _reading_games())
def test_strong_bot_plays_every_reading(name: str, param: str, value: str, engine: str) -> None:
    """Under every reading of the rules (``Game.READINGS``), the strong bot's moves are legal
    and leave the state as it was, at 2 and 4 players (a few seeded positions each)."""
    it = 30 if engine == "compiled" else 3
    for players in (2, 4):
        game = mousehole.load(name, engine=engine, players=players, **{param: value})
        bot = StrongBot(it, seed=1)
        positions = list(_decisions(game, 1200 + players, 7))[: 2 if engine == "compiled" else 1]
        assert positions
        for state in positions:
            before = state.to_dict()
            a = bot.step(state)
            assert a in state.legal_actions().tolist()
            assert state.to_dict() == before
