"""Thread safety (design: "every compiled object either works when two threads use it at once
or raises RuntimeError naming itself; what a method checked is what it applies").

Each hammer runs in a child process (``threadhammer.py``, which documents the scenarios)
with a timeout, so that a crash or a hang fails the test instead of killing the run: two or
more threads use one VectorGame, state or bot for about a second, then the child checks
every object against a reference replayed in one thread (ordinary states, and the
pure-Python engine). The in-process tests below pin the single-threaded parts of the same
guarantees (bools refused, the output arrays never read back, a rejection names the value
that was checked)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
from typing import Any, Dict, List

import numpy as np
import pytest

import mousehole
from gamecases import NAMES, profile
from mousehole import _api
from mousehole.vector import RANDOM, VectorGame

HAMMER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "threadhammer.py")
#: the most a child may take (hammer about 1-2 s, then the replays; a loaded CI machine)
TIMEOUT = 120
#: one game of each title for the compiled-state tests (3 players where the game allows them;
#: chance events as chance nodes where a parameter makes them so, as Kater Kasimir's rolls)
STATE_GAMES = [(g, {"players": min(3, _api._REGISTRY[g].max_players), **profile(g).explicit_chance}) for g in NAMES]


def hammer(scenario: str, **opts: Any) -> Dict[str, Any]:
    """Run one scenario in a child process; its counts (the child checked everything)."""
    try:
        res = subprocess.run(
            [sys.executable, HAMMER, scenario, json.dumps(opts)], capture_output=True, text=True, timeout=TIMEOUT
        )
    except subprocess.TimeoutExpired as e:  # a hang (or a deadlock) in the child
        pytest.fail(f"{scenario} {opts}: no answer within {TIMEOUT} s (hung?)\n{e.stderr!r}")
    assert res.returncode == 0, (
        f"{scenario} {opts}: exit status {res.returncode} (-11 / 139: a crash)\n{res.stdout}\n{res.stderr}"
    )
    lines = [ln for ln in res.stdout.splitlines() if ln.startswith("RESULT ")]
    assert lines, res.stdout + res.stderr
    out: Dict[str, Any] = json.loads(lines[-1][len("RESULT ") :])
    assert out["engine"] == opts["engine"]
    return out


def _size(engine: str, compiled: int, python: int) -> int:
    return compiled if engine == "compiled" else python


# --------------------------------------------------------------------------------------
# VectorGame


@pytest.mark.parametrize("game, params", [("m", {"players": 4}), ("kasimir", {"players": 2, "explicit_chance": True})])
def test_a_writer_on_the_actions_array_never_reaches_the_envs(engine: str, game: str, params: Dict[str, Any]) -> None:
    """While one thread steps, another rewrites its actions array (RANDOM, stale and fresh
    legal actions, in-range illegal ones, values outside the action space): every step
    either raises (nothing stepped) or applies exactly the copy it checked, and every env
    equals a replay of those copies (the issue: one value crashed the interpreter, an
    in-range illegal one corrupted thousands of games)."""
    n = _size(engine, 256, 6)
    out = hammer(
        "writer",
        game=game,
        params=params,
        engine=engine,
        n=n,
        seed=5,
        threads=2,
        seconds=1.5,
        max_steps=40,
        python_envs=4 if game == "m" else "all",
    )
    assert out["stepped"] > 0 and out["rejected"] > 0, out  # both outcomes were seen
    assert out["chosen_applied"] > 0, out  # some values the writer chose were applied


def test_two_threads_stepping_one_vector_game_are_refused_not_crashed(engine: str) -> None:
    """Two threads step one VectorGame and a third resets it and asks for legal actions: a
    call that meets another thread inside raises RuntimeError naming the VectorGame (the
    issue: 3 of 4 runs crashed, 1 hung), and the envs equal a replay of the steps that
    were done since the last reset."""
    n = _size(engine, 384, 6)
    out = hammer(
        "steppers",
        game="cheese_rescue",
        params={"players": 3, "max_turns": 12},
        engine=engine,
        n=n,
        seed=7,
        threads=3,
        seconds=1.5,
        max_steps=400,
        python_envs=6,
    )
    assert out["busy"] > 0 and out["stepped"] > 0 and out["since_reset"] > 0, out


# --------------------------------------------------------------------------------------
# states and search (compiled objects; the pure-Python reference states are plain Python
# objects without any such guarantee)


@pytest.mark.compiled
@pytest.mark.parametrize("game, params", STATE_GAMES)
def test_compiled_states_shared_by_threads_stay_whole(game: str, params: Dict[str, Any]) -> None:
    """Two threads apply random legal actions to one compiled state while a third clones,
    pickles and reads it: every state, clone and dict equals a replay of its own history
    (on the compiled and the reference engine); an action that another thread made illegal
    meanwhile raised IllegalMoveError and changed nothing."""
    out = hammer("states", game=game, params=params, engine="compiled", seed=11, seconds=1.0, max_games=3)
    assert out["applied"] > 0 and out["clones"] > 0 and out["conflicts"] > 0, out


@pytest.mark.compiled
@pytest.mark.parametrize("game, params", STATE_GAMES)
def test_a_refusal_explained_after_another_thread_moved_names_no_rule(game: str, params: Dict[str, Any]) -> None:
    """The race the hammer above met once in Maus au Chocolat: a compiled ``apply_action``
    refuses an action, another thread applies one before the explanation is written, and in
    the state as it is now the refused action is legal (there, ``DECLINE`` in the combine
    phase, which the explanation asserted could not happen). Pinned without threads: the
    error built for an action legal in the state says that the state changed meanwhile; the
    error for an illegal one names the same rule as the game's explanation; neither changes
    the state. Every decision of two seeded games."""
    g = mousehole.load(game, engine="compiled", **params)
    rng = np.random.default_rng(5)
    for seed in (1, 2):
        st = g.new_state(seed)
        steps = 0
        while not st.is_terminal() and steps < 400:
            legal = st.legal_actions()
            before = st.to_dict()
            a = int(legal[rng.integers(len(legal))])
            err = st._illegal(a)
            assert isinstance(err, mousehole.IllegalMoveError)
            assert f"action {a} was not legal when it was applied; another thread changed" in str(err)
            bad = next((b for b in rng.permutation(g.num_actions) if b not in legal), None)
            if bad is not None:
                assert str(st._illegal(int(bad))) == g._explain_illegal(st.clone(), int(bad))
            assert st.to_dict() == before
            st.apply_action(a)
            steps += 1
        assert steps > 0


@pytest.mark.compiled
@pytest.mark.parametrize("game", ["cheese_rescue", "maus_au_chocolat"])
def test_searches_and_a_bot_shared_by_threads(game: str) -> None:
    """Two threads search (MCTS and ISMCTS) and step one shared MCTSBot on a state that a
    third thread keeps playing: every result equals a single-threaded search of a position
    the state went through during that search, and the bot drew one seed per step."""
    out = hammer(
        "search", game=game, params={"players": 3}, engine="compiled", seed=3, seconds=1.5, iterations=60, moves=40
    )
    assert out["searches"] > 0 and out["bot_steps"] > 0 and out["applied"] > 0, out


# --------------------------------------------------------------------------------------
# in process: what the hammers rely on


def test_a_bool_is_not_an_action(engine: str) -> None:
    """numpy reads True as 1: ``step([True, ...])`` used to play action 1."""
    game = mousehole.load("kasimir", engine=engine, players=2)
    vg, twin = VectorGame(game, 3, 1), VectorGame(game, 3, 1)
    vg.reset()
    twin.reset()
    for bad in ([RANDOM, True, RANDOM], (np.True_, RANDOM, RANDOM), [RANDOM, RANDOM, np.array(False)]):
        with pytest.raises(TypeError, match="bool"):
            vg.step(bad)
    with pytest.raises(TypeError, match="integers"):
        vg.step(np.array([True, False, True]))
    for _ in range(4):  # nothing was stepped
        for u, v in zip(vg.step([RANDOM] * 3), twin.step(np.full(3, RANDOM))):
            np.testing.assert_array_equal(u, v)


def test_writing_the_output_arrays_changes_nothing_inside(engine: str) -> None:
    """``current_player`` and ``game_index`` are copies of what the envs keep: overwriting
    them (another thread, or a careless caller) changes neither the seat whose final
    observation is written nor the seeds of the next games."""
    game = mousehole.load("cheese_rescue", engine=engine, players=3, max_turns=6)
    vg, twin = VectorGame(game, 4, 9), VectorGame(game, 4, 9)
    vg.reset()
    twin.reset()
    ends = 0
    for _ in range(12):
        vg.current_player[:] = (twin.current_player + 1) % 3  # a wrong seat, still a seat
        vg.game_index[:] = 1 << 40
        a = vg.step(np.full(4, RANDOM))
        b = twin.step(np.full(4, RANDOM))
        ends += int(b[2].sum() + b[3].sum())
        for u, v in zip(a, b):
            np.testing.assert_array_equal(u, v)
        np.testing.assert_array_equal(vg.final_observations, twin.final_observations)
        np.testing.assert_array_equal(vg.game_index, twin.game_index)
    assert ends > 0  # games ended and restarted along the way


def test_a_rejection_names_what_was_checked(engine: str) -> None:
    """The error of a refused step names the value the check saw (the private copy), and
    ``applied()`` shows that copy."""
    game = mousehole.load("kasimir", engine=engine, players=2)
    vg = VectorGame(game, 2, 3)
    vg.reset()
    legal = vg.legal_actions(1)
    illegal = next(a for a in range(game.num_actions) if a not in legal)
    acts = np.array([RANDOM, illegal], dtype=np.int64)
    msg = f"env 1: action {illegal} is not legal for seat {vg.current_player[1]} (legal: {legal.tolist()})"
    with pytest.raises(mousehole.IllegalMoveError, match=re.escape(msg)):
        vg.step(acts)
    np.testing.assert_array_equal(vg._core.applied(), acts)
    assert vg._core.stepped() == 0
    acts[1] = legal[0]
    vg.step(acts)
    assert vg._core.stepped() == 1
    np.testing.assert_array_equal(vg._core.applied(), acts)
    vg.reset()
    assert vg._core.stepped() == 0


def test_a_busy_vector_game_names_itself(engine: str) -> None:
    """A call made while another thread is inside raises RuntimeError naming the VectorGame
    and the method; nothing is changed and the VectorGame works on afterwards. (Made
    deterministic by a thread that holds the core's guard, as a method would.)"""
    game = mousehole.load("kasimir", engine=engine, players=2)
    vg, twin = VectorGame(game, 2, 3), VectorGame(game, 2, 3)
    vg.reset()
    twin.reset()
    inside, release = threading.Event(), threading.Event()

    def holder() -> None:
        vg._core._hold()
        inside.set()
        release.wait(30)
        vg._core._release()

    t = threading.Thread(target=holder)
    t.start()
    try:
        assert inside.wait(30)
        for call, what in (
            (lambda: vg.step(np.full(2, RANDOM)), "step"),
            (lambda: vg.reset(), "reset"),
            (lambda: vg.reset(seed=5), "reset"),
            (lambda: vg.legal_actions(0), "legal_actions"),
        ):
            with pytest.raises(RuntimeError, match=rf"VectorGame\.{what}: this VectorGame is in use by another thread"):
                call()
    finally:
        release.set()
        t.join()
    assert vg.seed == 3  # the refused reset(seed=5) changed nothing
    for _ in range(3):
        for u, v in zip(vg.step(np.full(2, RANDOM)), twin.step(np.full(2, RANDOM))):
            np.testing.assert_array_equal(u, v)


@pytest.mark.compiled
def test_the_compiled_search_checks_its_own_arguments() -> None:
    """``_search.search`` is reachable without ``mousehole.bots``: a NaN or infinite ``c``
    (every score NaN: no child chosen, an index of -1 read) or a NaN time limit (never
    reached) is refused there too, before any iteration runs."""
    from mousehole._search import MODE_MCTS, search

    st = mousehole.load("cheese_rescue", engine="compiled", players=2).new_state(1)
    bad: List[Dict[str, Any]] = [
        dict(c=float("nan")),
        dict(c=float("inf")),
        dict(c=-1.0),
        dict(iterations=0),
        dict(iterations=True),
        dict(iterations=None, time_limit=float("nan")),
        dict(iterations=None, time_limit=-1.0),
    ]
    for kw in bad:
        a: Dict[str, Any] = dict(iterations=20, time_limit=None, c=1.0)
        a.update(kw)
        with pytest.raises(ValueError, match="search: "):
            search(st, MODE_MCTS, a["iterations"], a["time_limit"], 1, a["c"])
    assert search(st, MODE_MCTS, 20, None, 1, 1.0)[4] == 20
