"""Tournaments (issue 11 item 5): ``mousehole.arena.play`` and ``simulate(..., executor=...)``.

The same seed gives the same tournament whatever runs it (in this process, a process pool,
a real Dask ``LocalCluster`` with worker processes) and however the games are chunked; seats
rotate; every game's seeds derive from (seed, k); the figures and the ratings follow from
the games; bad arguments are refused with errors naming them.

One Dask cluster (two worker processes) serves the whole module.
"""

from __future__ import annotations

import concurrent.futures as cf
import functools
import io
import json
import math
import re
import sys
import threading
import time
from typing import Any, Dict, Iterator, List

import jsonschema
import numpy as np
import pytest

import mousehole
from mousehole import arena, cli, records
from mousehole._rng import Rng, derive
from mousehole._simulate import simulate
from mousehole.arena import ArenaResult, play

COMPILED = mousehole.default_engine() == "compiled"


# --------------------------------------------------------------------------------------
# bots of the tests (top level: picklable by reference for the process pools)


class SeededRandomBot:
    """Uniform over the legal actions, from its seed."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def reset(self) -> None:
        pass

    def step(self, state: Any) -> int:
        legal = state.legal_actions()
        return int(legal[self.rng.below(len(legal))])


class FirstBot:
    """Always the first legal action."""

    def __init__(self, seed: int = 0) -> None:
        pass

    def reset(self) -> None:
        pass

    def step(self, state: Any) -> int:
        return int(state.legal_actions()[0])


@pytest.fixture(scope="module")
def dask_executor() -> Iterator[Any]:
    """A real Dask cluster: two worker processes, one thread each; closed at the end."""
    import distributed

    cluster = distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=":0", silence_logs=40
    )
    client = distributed.Client(cluster)
    try:
        yield client
    finally:
        client.close()
        cluster.close()


@pytest.fixture(scope="module")
def pool() -> Iterator[cf.ProcessPoolExecutor]:
    with cf.ProcessPoolExecutor(2) as ex:
        yield ex


def _game(name: str = "cheese_rescue", players: int = 2, **params: Any) -> Any:
    return mousehole.load(name, players=players, **params)


N_GAMES = 12 if COMPILED else 4


# --------------------------------------------------------------------------------------
# the same results whatever runs the games


def test_same_tournament_in_process_on_a_pool_and_on_dask(pool: Any, dask_executor: Any) -> None:
    game = _game("m", players=3)
    bots = [SeededRandomBot, FirstBot, SeededRandomBot]
    here = play(game, bots, N_GAMES, seed=7, records=True)
    chunked = play(game, bots, N_GAMES, seed=7, records=True, chunk_size=5)
    pooled = play(game, bots, N_GAMES, seed=7, records=True, executor=pool, chunk_size=2)
    dasked = play(game, bots, N_GAMES, seed=7, records=True, executor=dask_executor.get_executor(), chunk_size=3)
    assert here == chunked == pooled == dasked
    assert here.records is not None and len(here.records) == N_GAMES
    assert here.ratings == pooled.ratings == dasked.ratings
    assert here.table(times=False) == dasked.table(times=False)  # (the times depend on the machine)
    other = play(game, bots, N_GAMES, seed=8, records=True)
    assert other.records != here.records, "the seed matters"


def test_bot_specs_travel_to_processes_and_to_dask(pool: Any, dask_executor: Any) -> None:
    game = _game("cheese_rescue", players=2)
    bots = ["mcts:16" if COMPILED else "mcts:4", "random"]
    n = 4 if COMPILED else 2
    here = play(game, bots, n, seed=3, records=True)
    assert here == play(game, bots, n, seed=3, records=True, executor=pool, chunk_size=1)
    assert here == play(game, bots, n, seed=3, records=True, executor=dask_executor.get_executor())


def test_games_depend_only_on_the_seed_and_their_index() -> None:
    game = _game("maus_au_chocolat", players=3)
    bots = [SeededRandomBot, SeededRandomBot, FirstBot]
    long = play(game, bots, 7, seed=11, records=True)
    short = play(game, bots, 4, seed=11, records=True)
    assert long.records is not None and short.records is not None
    assert long.records[:4] == short.records
    assert long.outcomes[:4] == short.outcomes
    for k, rec in enumerate(long.records):
        assert rec["meta"] == {"tournament_seed": 11, "index": k}
        assert rec["seed"] == derive(derive(11, k), 0)
        # game k alone, with the public helper, is the same game
        outcome, state = arena.play_game(game, bots, 11, k)
        assert outcome == long.outcomes[k] and [int(a) for a in state.history] == rec["actions"]


def test_the_bot_at_position_i_gets_seed_derived_from_the_game_and_i() -> None:
    seen: List[Any] = []

    class Spy(FirstBot):
        def __init__(self, seed: int = 0) -> None:
            seen.append(seed)

    game = _game("cheese_rescue", players=2)
    seen.clear()
    play(game, [Spy, FirstBot], 3, seed=5)
    assert seen[0] == 0, "the bots are checked once with seed 0 before the games"
    assert seen[1:] == [derive(derive(5, k), 2) for k in range(3)]
    seen.clear()
    play(game, [FirstBot, Spy], 3, seed=5)
    assert seen[1:] == [derive(derive(5, k), 3) for k in range(3)]


def test_seats_rotate_every_game() -> None:
    game = _game("m", players=3)
    result = play(game, [SeededRandomBot, FirstBot, SeededRandomBot], 6, seed=2, records=True)
    assert result.records is not None
    for k, (g, rec) in enumerate(zip(result.outcomes, result.records)):
        assert g.index == k
        for i in range(3):
            assert g.seating[(i + k) % 3] == i
        assert rec["seats"] == [result.bots[i] for i in g.seating]
    # every bot sat on every seat twice in 6 games
    for i in range(3):
        assert sorted(g.seating.index(i) for g in result.outcomes) == [0, 0, 1, 1, 2, 2]


def test_records_replay_and_are_json() -> None:
    game = _game("kasimir", players=3)
    result = play(game, [SeededRandomBot, FirstBot, SeededRandomBot], 4, seed=9, records=True)
    assert result.records is not None
    text = json.dumps(result.records, allow_nan=False)
    assert json.loads(text) == result.records
    for rec in result.records:
        assert rec["game"] == "kasimir" and rec["params"] == game.params
        jsonschema.validate(rec, records.SCHEMA)
        checked = records.loads(json.dumps(rec))  # replays and verifies every move and the result
        replay = checked.final_state()
        assert replay.is_terminal()
        assert replay.scores() == rec["result"]["scores"] and replay.winners() == rec["result"]["winners"]
        assert replay.returns() == rec["result"]["returns"]
    assert play(game, [SeededRandomBot, FirstBot, SeededRandomBot], 4, seed=9).records is None


def test_chance_nodes_are_drawn_from_the_game_seed() -> None:
    game = mousehole.load("kasimir", players=2, explicit_chance=True)
    bots = [SeededRandomBot, FirstBot]
    a = play(game, bots, 4, seed=1, records=True)
    b = play(game, bots, 4, seed=1, records=True, executor=cf.ThreadPoolExecutor(2), chunk_size=1)
    assert a == b
    assert a.records is not None
    chance_actions = 0
    for rec in a.records:
        state = game.new_state(rec["seed"])
        for action in rec["actions"]:
            if state.is_chance_node():
                assert action in [o for o, _ in state.chance_outcomes()]
                chance_actions += 1
            state.apply_action(action)
    assert chance_actions > 0


def test_chance_draws_follow_the_probabilities() -> None:
    class Node:
        def chance_outcomes(self) -> List[Any]:
            return [(10, 0.25), (20, 0.75)]

    rng = Rng(3)
    n = 20_000
    draws = [arena._chance(Node(), rng) for _ in range(n)]
    assert set(draws) == {10, 20}
    k = draws.count(10)
    assert abs(k - n / 4) < 4 * math.sqrt(n * 0.25 * 0.75)


# --------------------------------------------------------------------------------------
# the figures


def test_figures_follow_from_the_outcomes() -> None:
    game = _game("cheese_rescue", players=2)
    result = play(game, [SeededRandomBot, FirstBot], 30, seed=4)
    assert isinstance(result, ArenaResult)
    assert result.n_games == 30 and result.seed == 4 and result.game == "cheese_rescue"
    assert result.bots == ("SeededRandomBot", "FirstBot")
    decided = [g for g in result.outcomes if 0 < len(g.winners) < 2]
    assert result.decided == len(decided)
    for i, s in enumerate(result.stats):
        assert s.position == i and s.games == 30
        wins = sum(1 for g in decided if g.seating.index(i) in g.winners)
        assert (s.wins, s.losses, s.draws) == (wins, len(decided) - wins, 30 - len(decided))
        scores = [g.scores[g.seating.index(i)] for g in result.outcomes]
        assert s.mean_score == pytest.approx(float(np.mean(scores)))
        lo, hi = s.score_interval or (0.0, 0.0)
        half = 1.959963984540054 * float(np.std(scores, ddof=1)) / math.sqrt(30)
        assert lo == pytest.approx(s.mean_score - half) and hi == pytest.approx(s.mean_score + half)
        assert s.win_rate == pytest.approx(wins / len(decided))
        w_lo, w_hi = s.win_interval
        assert w_lo <= s.win_rate <= w_hi and 0.0 <= w_lo < w_hi <= 1.0
        d = s.to_dict()
        assert d["wins"] == s.wins and d["win_rate_95"] == list(s.win_interval)
    # the two bots' wins are complementary in a two-seat game with one winner
    assert result.stats[0].wins + result.stats[1].wins >= result.decided


def test_wilson_interval_of_a_known_case() -> None:
    s = arena.BotStats(0, "x", 100, 80, 20, 0, 0, 0)
    lo, hi = s.win_interval
    # Wilson 95% for 80/100: (0.7112, 0.8666)
    assert lo == pytest.approx(0.7112, abs=1e-4) and hi == pytest.approx(0.8666, abs=1e-4)
    assert arena.BotStats(0, "x", 1, 0, 0, 1, 3, 9).score_interval is None
    assert arena.BotStats(0, "x", 1, 0, 0, 1, 3, 9).win_interval == (0.0, 1.0)


def test_repeated_names_get_their_position() -> None:
    game = _game("cheese_rescue", players=2)
    result = play(game, [FirstBot, FirstBot], 2, seed=1)
    assert result.bots == ("FirstBot#0", "FirstBot#1")
    assert arena.bot_name(functools.partial(SeededRandomBot)) == "SeededRandomBot()"
    assert arena.bot_name(" mcts:10 ") == "mcts:10"


def test_ratings_rank_the_stronger_bot_first() -> None:
    import openskill  # noqa: F401  (the test extra installs it)

    game = _game("maus_au_chocolat", players=2)
    result = play(game, [SeededRandomBot, FirstBot], 20, seed=1)
    by_wins = sorted(range(2), key=lambda i: -result.stats[i].wins)
    r = result.ratings
    assert [x.name for x in r] == list(result.bots)
    assert r[by_wins[0]].mu > r[by_wins[1]].mu
    assert all(x.sigma < 25 / 3 for x in r)
    assert r[0].ordinal == pytest.approx(r[0].mu - 3 * r[0].sigma)
    table = str(result)
    assert "mu" in table and "ordinal" in table and f"{r[0].mu:.2f}" in table
    doc = result.to_dict()
    assert doc["ratings"][0]["mu"] == r[0].mu
    json.dumps(doc, allow_nan=False)


def test_ratings_without_openskill_name_the_extra(monkeypatch: Any) -> None:
    for module in ("openskill", "openskill.models"):
        monkeypatch.setitem(sys.modules, module, None)  # import -> ImportError
    result = play(_game("cheese_rescue", players=2), [SeededRandomBot, FirstBot], 3, seed=1)
    from mousehole._extras import install_hint

    with pytest.raises(ImportError, match=r"pip install 'openskill>=6' \(the 'arena' extra"):
        _ = result.ratings
    table = str(result)
    assert install_hint("arena") in table and "SeededRandomBot" in table
    assert result.to_dict()["ratings"] is None


def test_the_table_shows_every_bot(capsys: Any) -> None:
    result = play(_game("m", players=2), [SeededRandomBot, FirstBot], 6, seed=3)
    lines = str(result).splitlines()
    assert lines[0].startswith("m: 2 players, ") and "6 games (seats rotated every game)" in lines[0]
    for s in result.stats:
        row = next(x for x in lines if x.split() and x.split()[0] == s.name)
        lo, hi = s.win_interval
        assert row.split()[1:5] == [str(s.wins), str(s.losses), str(s.draws), f"{s.win_rate:.4f}"]
        assert f"{lo:.4f}-{hi:.4f}" in row and f"{s.mean_score:.3f}" in row


# --------------------------------------------------------------------------------------
# progress and interruption


def test_progress_callback_counts_up_to_n() -> None:
    calls: List[Any] = []
    play(_game(), [SeededRandomBot, FirstBot], 7, seed=1, progress=lambda d, n: calls.append((d, n)))
    assert calls[0] == (0, 7) and calls[-1] == (7, 7)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)
    calls.clear()
    with cf.ThreadPoolExecutor(2) as ex:
        play(
            _game(),
            [SeededRandomBot, FirstBot],
            7,
            seed=1,
            executor=ex,
            chunk_size=2,
            progress=lambda d, n: calls.append((d, n)),
        )
    assert calls[0] == (0, 7) and calls[-1] == (7, 7) and len(calls) == 5


def test_progress_true_draws_on_stderr(capsys: Any, monkeypatch: Any) -> None:
    """Without a terminal: a line when the tournament starts, then one every PROGRESS_EVERY
    seconds while it goes on (every report, with 0 seconds)."""
    monkeypatch.setattr(arena, "PROGRESS_EVERY", 0.0)
    play(_game(), [SeededRandomBot, FirstBot], 3, seed=1, progress=True, chunk_size=1)
    out, err = capsys.readouterr()
    label = "cheese_rescue (2p): SeededRandomBot vs FirstBot"
    started, *lines = err.splitlines()
    assert started == f"{label}: 3 games started"
    assert lines == [f"{label}: {k}/3 games ({100 * k / 3:.0f}%)" for k in range(3)]
    assert out == ""


def test_progress_true_on_a_terminal_is_one_line_rewritten(monkeypatch: Any) -> None:
    """On a terminal without rich: the CLI's display, one line rewritten in place and cleared
    at the end (no "started" line)."""

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    for module in ("rich", "rich.console", "rich.progress"):
        monkeypatch.setitem(sys.modules, module, None)  # import -> ImportError
    term = Terminal()
    monkeypatch.setattr(sys, "stderr", term)
    play(_game(), [SeededRandomBot, FirstBot], 3, seed=1, progress=True, chunk_size=1)
    shown = term.getvalue()
    assert "started" not in shown
    assert re.search(r"\rcheese_rescue \(2p\): SeededRandomBot vs FirstBot: 2/3 games \(67%\), [\d,]+ games/s", shown)
    assert shown.endswith("\r\x1b[K")


_started: List[int] = []
_lock = threading.Lock()


class InterruptingBot(FirstBot):
    """Presses Ctrl-C in game 1 (seed-independent: it counts the games it is built for)."""

    def __init__(self, seed: int = 0) -> None:
        with _lock:
            _started.append(seed)
            self.interrupt = len(_started) == 3  # the check (seed 0), game 0, then game 1

    def step(self, state: Any) -> int:
        if self.interrupt:
            raise KeyboardInterrupt
        return super().step(state)


@pytest.mark.parametrize("threads", [0, 1])
def test_ctrl_c_stops_and_cancels_the_games_not_started(threads: int) -> None:
    _started.clear()
    executor = cf.ThreadPoolExecutor(1) if threads else None
    try:
        with pytest.raises(KeyboardInterrupt):
            play(_game(), [InterruptingBot, FirstBot], 1000, seed=1, executor=executor, chunk_size=1)
    finally:
        if executor is not None:
            executor.shutdown(wait=True)
    if executor is None:
        assert len(_started) == 3, "the games after the interrupt were not played"
    else:  # the worker thread may start a game or two before the interrupt is seen
        assert len(_started) < 500, "the games not started were cancelled"


# --------------------------------------------------------------------------------------
# bad arguments


def test_bad_arguments_are_named(pool: Any) -> None:
    game = _game()
    ok = [SeededRandomBot, FirstBot]
    with pytest.raises(ValueError, match="needs 2 bots .* got 3"):
        play(game, ok + [FirstBot], 2)
    with pytest.raises(ValueError, match="needs 2 bots .* got 1"):
        play(game, [FirstBot], 2)
    with pytest.raises(TypeError, match="list of bot specs"):
        play(game, "random", 2)
    for bad in (0, -3):
        with pytest.raises(ValueError, match="n_games must be at least 1"):
            play(game, ok, bad)
    for bad_type in (2.0, True, "3"):
        with pytest.raises(TypeError, match="n_games must be an int"):
            play(game, ok, bad_type)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seed must be an int"):
        play(game, ok, 2, seed=1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not a bot"):
        play(game, [SeededRandomBot(1), FirstBot], 2)
    with pytest.raises(TypeError, match=r"bots\[1\]: expected a bot spec"):
        play(game, [FirstBot, 3], 2)
    with pytest.raises(TypeError, match=r"bots\[0\] \(dict\) made a .* no step"):
        play(game, [dict, FirstBot], 2)
    with pytest.raises(TypeError, match=r"factory\(seed=int\)"):
        play(game, [lambda: FirstBot(), FirstBot], 2)
    with pytest.raises(TypeError, match="cannot be sent to worker processes"):
        play(game, [lambda seed: FirstBot(seed), FirstBot], 2, executor=pool)
    with pytest.raises(TypeError, match="executor must be a concurrent.futures.Executor"):
        play(game, ok, 2, executor=object())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="chunk_size must be an int >= 1"):
        play(game, ok, 2, chunk_size=0)
    with pytest.raises(TypeError, match="progress must be"):
        play(game, ok, 2, progress="yes")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="play needs a Game"):
        play(42, ok, 2)  # type: ignore[arg-type]


def test_a_tournament_in_pieces_equals_one_call(pool: Any) -> None:
    """``start=`` plays a later slice of the same tournament (the same seeds, the same seats);
    ``ArenaResult.combine`` puts the slices back together: outcomes, figures and records
    equal those of one call, whatever the order of the pieces and the executor."""
    game = _game("kasimir", 3)
    bots = ["greedy", "random", "random"]
    whole = play(game, bots, 9, seed=11, records=True)
    a = play(game, bots, 4, seed=11, records=True)
    b = play(game, bots, 5, seed=11, records=True, start=4, executor=pool)
    assert b.start == 4 and [g.index for g in b.outcomes] == [4, 5, 6, 7, 8]
    assert b.outcomes == whole.outcomes[4:] and a.outcomes == whole.outcomes[:4]
    joined = ArenaResult.combine([b, a])
    assert joined.start == 0 and joined.n_games == 9
    assert joined.outcomes == whole.outcomes and joined.records == whole.records
    assert joined.stats == whole.stats and joined.ratings == whole.ratings
    assert joined.table(times=False) == whole.table(times=False)
    assert b.to_dict()["start"] == 4 and "(games 4 to 8)" in b.table()
    # a piece without records: the whole has none
    assert ArenaResult.combine([a, play(game, bots, 5, seed=11, start=4)]).records is None


def test_pieces_that_are_not_one_tournament_are_refused() -> None:
    game = _game("kasimir", 2)
    bots = ["greedy", "random"]
    a = play(game, bots, 2, seed=5)
    with pytest.raises(ValueError, match="games 2 to 2 are missing"):
        ArenaResult.combine([a, play(game, bots, 2, seed=5, start=3)])
    with pytest.raises(ValueError, match="overlap at game 1"):
        ArenaResult.combine([a, play(game, bots, 2, seed=5, start=1)])
    with pytest.raises(ValueError, match="differ in seed"):
        ArenaResult.combine([a, play(game, bots, 2, seed=6, start=2)])
    with pytest.raises(ValueError, match="differ in bots"):
        ArenaResult.combine([a, play(game, ["random", "greedy"], 2, seed=5, start=2)])
    with pytest.raises(ValueError, match="differ in params"):
        ArenaResult.combine([a, play(_game("kasimir", 2, tie_break="fewest_turns"), bots, 2, seed=5, start=2)])
    with pytest.raises(TypeError, match="non-empty list of ArenaResult"):
        ArenaResult.combine([])
    with pytest.raises(TypeError, match="non-empty list of ArenaResult"):
        ArenaResult.combine([a, {"n_games": 2}])  # type: ignore[list-item]
    for bad in (-1, 2**53):
        with pytest.raises(ValueError, match="start .* must be from 0"):
            play(game, bots, 2, start=bad)
    for bad_type in (1.0, "2", None):
        with pytest.raises(TypeError, match="start must be an int"):
            play(game, bots, 2, start=bad_type)  # type: ignore[arg-type]


def test_a_bad_spec_is_named() -> None:
    with pytest.raises(ValueError, match=r"bots\[1\].*'mcts:lots'"):
        play(_game(), ["random", "mcts:lots"], 2)
    with pytest.raises(ValueError, match=r"bots\[0\].*'chess-engine'"):
        play(_game(), ["chess-engine", "random"], 2)


def test_a_misbehaving_bot_is_named() -> None:
    class Illegal(FirstBot):
        def step(self, state: Any) -> int:
            return -1

    class NotInt(FirstBot):
        def step(self, state: Any) -> Any:
            return "dog@1,1"

    class Meddler(FirstBot):
        def step(self, state: Any) -> int:
            a = int(state.legal_actions()[0])
            state.apply_action(a)
            return a

    with pytest.raises(mousehole.IllegalMoveError, match=r"bot 'Illegal' \(seat 0, game 0\) chose an illegal"):
        play(_game(), [Illegal, FirstBot], 1)
    with pytest.raises(TypeError, match=r"bot 'NotInt' \(seat 1, game 0\) returned 'dog@1,1'"):
        play(_game(), [FirstBot, NotInt], 1)
    with pytest.raises(RuntimeError, match="changed the state"):
        play(_game(), [Meddler, FirstBot], 1)


def test_a_game_id_is_loaded_with_its_defaults() -> None:
    result = play("kasimir", [FirstBot] * 4, 2, seed=1)
    assert result.game == "kasimir" and len(result.stats) == 4


# --------------------------------------------------------------------------------------
# simulate on an executor


def _same(a: Any, b: Any) -> bool:
    return all(
        np.array_equal(x, y)
        for x, y in zip((a.scores, a.winners, a.lengths, a.truncated), (b.scores, b.winners, b.lengths, b.truncated))
    )


@pytest.mark.parametrize("name", mousehole.game_names())
def test_simulate_on_a_pool_and_on_dask_equals_the_run_here(name: str, pool: Any, dask_executor: Any) -> None:
    game = mousehole.load(name, players=3)
    n = 3000 if COMPILED else 6
    here = simulate(game, n, seed=6)
    total = simulate(game, n, seed=6, aggregate=True)
    assert _same(here, simulate(game, n, seed=6, executor=pool))
    assert _same(here, simulate(game, n, seed=6, executor=dask_executor.get_executor(), threads=2))
    assert total == simulate(game, n, seed=6, executor=pool, aggregate=True)
    assert total == simulate(game, n, seed=6, executor=dask_executor.get_executor(), aggregate=True)


def test_simulate_on_an_executor_reports_progress_and_checks_it(monkeypatch: Any) -> None:
    import mousehole._simulate as sim

    monkeypatch.setattr(sim, "_PROGRESS_EVERY", 0.0)
    game = _game()
    calls: List[Any] = []
    n = 640 if COMPILED else 64
    with cf.ThreadPoolExecutor(2) as ex:
        r = simulate(game, n, seed=2, executor=ex, progress=lambda d, n: calls.append(d))
        assert _same(r, simulate(game, n, seed=2))
        assert simulate(game, 0, seed=2, executor=ex).n_games == 0
        assert simulate(game, 0, seed=2, executor=ex, aggregate=True).n_games == 0
        with pytest.raises(TypeError, match="executor must be a concurrent.futures.Executor"):
            simulate(game, 10, executor="pool")  # type: ignore[call-overload]
    assert calls[0] == 0 and calls[-1] == n and calls == sorted(set(calls))
    assert len(calls) >= 10, "one report per finished task"


def test_the_arena_command_runs_on_dask(dask_executor: Any, capsys: Any, tmp_path: Any) -> None:
    address = dask_executor.scheduler.address
    path = tmp_path / "dask.json"
    assert (
        cli.main(
            [
                "arena",
                "cheese_rescue",
                "--bots",
                "random,greedy",
                "--games",
                "6",
                "--seed",
                "3",
                "--dask",
                address,
                "--json",
                str(path),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert f"on Dask at {address}" in out
    here = play(_game(), ["random", "greedy"], 6, seed=3)
    assert out.startswith(here.table(times=False))
    doc: Dict[str, Any] = json.loads(path.read_text())
    assert _untimed(doc["bots"]) == _untimed(here.to_dict()["bots"]) and doc["command"] == "arena"


def test_the_module_examples_run() -> None:
    import doctest

    result = doctest.testmod(arena, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


def _untimed(bots: Any) -> Any:
    """The bots' figures without the times (they depend on the machine)."""
    return [{k: v for k, v in b.items() if k not in ("seconds", "seconds_per_move")} for b in bots]


# ---- the time each bot used (issue 26) ---------------------------------------------------------


class _SlowBot:
    """Plays the first legal action after sleeping ``delay`` seconds."""

    delay = 0.002

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def step(self, state: Any) -> int:
        time.sleep(self.delay)
        return int(state.legal_actions()[0])

    def reset(self) -> None:
        pass


def test_the_arena_records_the_time_each_bot_used() -> None:
    game = _game("cheese_rescue", players=2)
    result = play(game, [_SlowBot, FirstBot], 2, seed=5)
    slow, first = result.stats
    for g in result.outcomes:
        assert len(g.moves) == len(g.seconds) == 2 and sum(g.moves) > 0
    # every choice of a bot is a move of its seat (cheese rescue has no chance node)
    assert slow.moves + first.moves == sum(g.length for g in result.outcomes)
    assert slow.moves == sum(g.moves[g.seating.index(0)] for g in result.outcomes) > 0
    assert slow.seconds >= slow.moves * _SlowBot.delay  # it slept that long in its steps
    assert first.seconds < slow.seconds
    assert slow.seconds_per_move == pytest.approx(slow.seconds / slow.moves)
    doc = result.to_dict()["bots"][0]
    assert (doc["moves"], doc["seconds"], doc["seconds_per_move"]) == (slow.moves, slow.seconds, slow.seconds_per_move)
    table = result.table()
    assert table.startswith(result.table(times=False) + "\n")
    tail = table.splitlines()[-2:]
    assert tail[0].split()[0] == "_SlowBot" and tail[0].split()[1:] == [
        str(slow.moves),
        f"{slow.seconds:.3f}",
        f"{1000 * slow.seconds_per_move:.3f}",
    ]
    assert "time used" in table and "ms/move" in table
