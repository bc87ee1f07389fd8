"""The C-level game interface (``mh_game_t`` in _cgame.pxd), held to the Python-facing state.

Search and batched stepping see a compiled game only through this interface, so every game
must give, through it, exactly what its state gives through the Python API: the same
initial state for a seed, seat to move, legal actions, chance outcomes, returns,
observations and masks at every step of seeded random games, and a determinization equal,
struct for struct, to ``state.determinize(p, seed)``. The probe ``mousehole._cgame.CGame``
drives the interface on a copy of the state's struct.
"""

from __future__ import annotations

from typing import Any, Iterator, Tuple

import numpy as np
import pytest

import mousehole
from gamecases import CASES, IDS, profile, random_states, random_walk, scale
from mousehole._api import CHANCE, TERMINAL

pytestmark = pytest.mark.compiled  # deselected (and said) when the compiled engine is not built


def _cgame(state: Any) -> Any:
    from mousehole._cgame import CGame

    return CGame(state)


def _check_same(state: Any, c: Any) -> None:
    """Everything the interface says about ``c`` equals what ``state`` says."""
    game = state.game
    cur = state.current_player
    assert c.current() == cur
    if cur == CHANCE:
        assert c.legal() == []
        assert c.chance() == [(int(a), float(p)) for a, p in state.chance_outcomes()]
    else:
        assert c.legal() == [int(a) for a in state.legal_actions()]
        assert c.chance() == []
    np.testing.assert_array_equal(c.mask(), state.legal_action_mask())
    assert c.returns() == state.returns()
    assert c.truncated() == state.truncated
    for p in range(game.num_players):
        np.testing.assert_array_equal(c.observe(p), state.observation(p).reshape(-1))


def _positions(game: Any, base: int) -> Iterator[Tuple[int, int, Any]]:
    """``(g, i, state)`` at every position of ``scale(2)`` seeded random games (game ``g``
    from seed ``base + g``, ``i`` actions played; the end of each game included). ``state``
    is the game being played: look, do not change it."""
    for g in range(scale(2)):
        state = game.new_state(base + g)
        for i, a in enumerate(random_walk(state.clone(), base + g)):
            yield g, i, state
            state.apply_action(a)
        yield g, len(state.history), state


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_dims(case: Any) -> None:
    name, params = case
    game = mousehole.load(name, engine="compiled", **params)
    c = _cgame(game.new_state(1))
    d = c.dims()
    assert c.name == name
    assert d["players"] == game.num_players
    assert d["num_actions"] == game.num_actions
    assert d["obs_size"] == int(np.prod(game.observation_shape))
    assert d["max_legal"] >= 1


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_interface_follows_the_state_through_random_games(case: Any) -> None:
    name, params = case
    game = mousehole.load(name, engine="compiled", **params)
    max_legal = _cgame(game.new_state(0)).dims()["max_legal"]
    for g in range(scale(3)):
        seed = 1000 + g
        state = game.new_state(seed)
        c = _cgame(state)
        fresh = c.copy()
        fresh.reset(seed)
        assert fresh.same_struct(c), "reset(seed) differs from new_state(seed)"
        for a in random_walk(state.clone(), seed):
            _check_same(state, c)
            assert len(c.legal()) + len(c.chance()) <= max_legal
            c.apply(a)
            state.apply_action(a)
        _check_same(state, c)
        assert c.current() == TERMINAL
        assert _cgame(state).same_struct(c)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_determinize_equals_the_python_determinization(case: Any) -> None:
    name, params = case
    game = mousehole.load(name, engine="compiled", **params)
    checked = 0
    for _, i, state in _positions(game, 2000):
        if i % 5 == 0 and state.current_player >= 0:
            for p in range(game.num_players):
                seed = 31 * i + p
                c = _cgame(state)
                c.determinize(p, seed)
                expected = game.determinize_view(state.to_dict(for_player=p), seed)
                assert c.same_struct(_cgame(expected)), (i, p)
                _check_same(expected, c)
                checked += 1
    assert checked > 0


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_rollout_plays_simulates_games(case: Any) -> None:
    """``reset`` then ``rollout`` with simulate's seeds plays simulate's game ``i``: the same
    winners (hence returns), whoever wins."""
    from mousehole._rng import derive

    name, params = case
    game = mousehole.load(name, engine="compiled", **params)
    n, seed = scale(6), 99
    res = mousehole.simulate(game, n, seed=seed)
    c = _cgame(game.new_state(0))
    for i in range(n):
        c.reset(derive(seed, 2 * i))
        c.rollout(derive(seed, 2 * i + 1))
        assert c.current() == TERMINAL
        w = set(int(p) for p in np.flatnonzero(res.winners[i]))
        # as StateAPI.returns (docs/api.md): 0 each when every seat wins, and when none does at 2 players
        if len(w) == game.num_players or (not w and game.num_players == 2):
            expected = [0.0] * game.num_players
        else:
            expected = [1.0 if p in w else -1.0 for p in range(game.num_players)]
        assert c.returns() == expected, i


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_playout_equals_rollout_then_returns(case: Any) -> None:
    """``mh_playout`` (a game's own ``playout`` where it has one: Cheese Rescue plays on its
    8 x 8 window) gives, from every position of seeded games, the returns of ``rollout`` then
    ``returns`` with the same policy seed: the same draws, the same game."""
    name, params = case
    game = mousehole.load(name, engine="compiled", **params)
    checked = ends = 0
    for g, i, state in _positions(game, 3000):
        if state.is_terminal():  # nothing left to play: the returns themselves
            assert _cgame(state).playout(1) == state.returns()
            ends += 1
        elif state.current_player >= 0:
            policy = 7919 * i + g
            pair = _cgame(state)
            pair.rollout(policy)
            one = _cgame(state)
            assert one.playout(policy) == pair.returns(), i
            checked += 1
    assert checked > 0 and ends == scale(2)
    if name in ("cheese_rescue", "kasimir", "maus_au_chocolat"):
        assert _cgame(game.new_state(1)).has_playout


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_random_step_is_a_uniform_pick_of_the_legal_list(case: Any) -> None:
    """``mh_random_step`` (a game's own ``random_step`` where it has one) applies, at every
    decision of seeded games, ``legal[below(n)]`` of the generator it is given, with the same
    draws: the same struct and the same generator state after; it returns the seat to move
    after the action (``current``: a seat, chance or the end)."""
    from mousehole._rng import Rng

    name, params = case
    game = mousehole.load(name, engine="compiled", **params)
    checked = 0
    for g, i, state in _positions(game, 4000):
        if state.current_player >= 0:
            seed = 104729 * i + g
            rng = Rng(seed)
            legal = state.legal_actions()
            expected = state.clone()
            expected.apply_action(int(legal[rng.below(len(legal))]))
            c = _cgame(state)
            after, seat = c.random_step(seed)
            assert after == rng.state, i
            assert c.same_struct(_cgame(expected)), i
            assert seat == expected.current_player == c.current(), i
            checked += 1
    assert checked > 0
    assert _cgame(game.new_state(1)).has_random_step  # every game has its own
    assert _cgame(game.new_state(1)).has_vector_block  # VectorGame's loop over its functions


# ---- the CPython allocator and GC tricks can be switched off (_pyalloc.pxd) ------------------

_PLAY = r"""
import gc, hashlib, json, sys
import mousehole
from mousehole._rng import Rng, derive

out = []
for name, params in json.loads(sys.argv[1]):
    game = mousehole.load(name, engine="compiled", **params)
    h = hashlib.sha256()
    tracked = []
    for g in range(3):
        state = game.new_state(40 + g)
        tracked.append(gc.is_tracked(state))
        rng = Rng(derive(40 + g, 1))
        while not state.is_terminal():
            legal = state.legal_actions()
            a = legal[rng.below(len(legal))] if len(legal) else state.chance_outcomes()[0][0]
            h.update(state.observation(max(state.current_player, 0)).tobytes())
            state = state.clone()
            state.apply_action(a)
        h.update(json.dumps([state.to_dict(), state.returns(), state.determinize(0, 9).to_dict()]).encode())
    sim = mousehole.simulate(game, 20, seed=3)
    h.update(sim.scores.tobytes() + sim.lengths.tobytes())
    redeclared = any(type(v).__name__ == "method_descriptor" for v in vars(type(state)).values())
    out.append([name, h.hexdigest(), tracked, redeclared])
print(json.dumps(out))
"""


def _play_in_child(no_fast_alloc: bool) -> Any:
    import json
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "MOUSEHOLE_NO_FAST_ALLOC"}
    if no_fast_alloc:
        env["MOUSEHOLE_NO_FAST_ALLOC"] = "1"
    cases = json.dumps([[name, params] for name, params in CASES])
    res = subprocess.run([sys.executable, "-c", _PLAY, cases], env=env, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


def test_no_fast_alloc_switches_the_tricks_off_and_plays_the_same_games() -> None:
    """``MOUSEHOLE_NO_FAST_ALLOC=1`` (read at import) leaves the public state classes ordinary
    subclasses (GC-tracked, no re-declared core methods); seeded games, observations,
    determinizations and ``simulate`` give the same results as with the tricks on."""
    fast = _play_in_child(False)
    plain = _play_in_child(True)
    assert [r[0] for r in fast] == [r[0] for r in plain] == [name for name, _ in CASES]
    for (name, h_fast, tracked_fast, redecl_fast), (_, h_plain, tracked_plain, redecl_plain) in zip(fast, plain):
        assert h_fast == h_plain, name
        assert tracked_fast == [False] * 3 and redecl_fast, name  # the tricks, by default
        assert tracked_plain == [True] * 3 and not redecl_plain, name  # switched off


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_c_determinize_depends_on_the_view_only(case: Any) -> None:
    """Two states that seat p cannot tell apart (a state of a seeded game and its
    determinization for p, which re-deals what p cannot see and draws another generator) give
    byte-equal C determinizations for p for every seed, though their hidden parts differ (the
    information sets of M-22, CR-15, KK-14, MC-26)."""
    name, params = case
    game = mousehole.load(name, engine="compiled", **params)
    every = profile(name).information_every
    differed = 0
    for i, state in enumerate(random_states(game, 11)):
        if i % every or state.is_terminal():
            continue
        for p in range(game.num_players):
            other = game.determinize_view(state.to_dict(for_player=p), 555 + i)
            assert other.to_dict(for_player=p) == state.to_dict(for_player=p)
            differed += other.to_dict() != state.to_dict()
            for seed in (0, 1, 2**63 + 5):
                a, b = _cgame(state), _cgame(other)
                a.determinize(p, seed)
                b.determinize(p, seed)
                assert a.same_struct(b), (i, p, seed)
    assert differed > 0, "no pair of different states with the same view was built"


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_copies_outlive_the_game_and_the_state_they_came_from(case: Any) -> None:
    """A clone, a ``CGame`` probe and a ``VectorGame`` hold what their structs point at (M's
    states point at their game's constants, a block each state object keeps alive): with the
    game and the state they came from dropped and the freed memory written over, each plays
    on exactly as the same copies of a game that is still alive."""
    import gc

    from mousehole.vector import RANDOM, VectorGame

    name, params = case

    def copies() -> Tuple[Any, Any, Any]:
        game = mousehole.load(name, engine="compiled", **params)
        state = game.new_state(5)
        for _, a in zip(range(7), random_walk(state.clone(), 5)):
            state.apply_action(a)
        vg = VectorGame(game, 3, 11, threads=1)
        vg.reset()
        return state.clone(), _cgame(state), vg

    def play(clone: Any, c: Any, vg: Any) -> Tuple[Any, ...]:
        moves = list(random_walk(clone, 9))
        c.rollout(13)
        acts = np.full(3, RANDOM, dtype=np.int64)
        steps = [vg.step(acts) for _ in range(40)]
        return (
            moves,
            clone.returns(),
            c.returns(),
            [tuple(np.asarray(x).tobytes() for x in r if isinstance(x, np.ndarray)) for r in steps],
        )

    orphans = copies()  # the game and the state are gone once copies() returns
    gc.collect()
    # other games of the same core take the constants cache, and freed blocks are reused
    # and written over
    others = [mousehole.load(name, engine="compiled", players=p) for p in (3, 2, 4)]
    junk = [bytes([0xA5]) * 2300 for _ in range(2000)]
    expected = play(*copies())
    assert play(*orphans) == expected
    del others, junk
