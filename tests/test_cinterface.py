"""The C-level game interface (``mh_game_t`` in _common.pxd), held to the Python-facing state.

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
from gamecases import CASES, IDS, random_walk, scale
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
        if len(w) == game.num_players:  # as StateAPI.returns
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
    if name == "cheese_rescue":
        assert _cgame(game.new_state(1)).has_playout


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_random_step_is_a_uniform_pick_of_the_legal_list(case: Any) -> None:
    """``mh_random_step`` (a game's own ``random_step`` where it has one) applies, at every
    decision of seeded games, ``legal[below(n)]`` of the generator it is given, with the same
    draws: the same struct and the same generator state after."""
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
            assert c.random_step(seed) == rng.state, i
            assert c.same_struct(_cgame(expected)), i
            checked += 1
    assert checked > 0
    if name in ("cheese_rescue", "m", "maus_au_chocolat"):
        assert _cgame(game.new_state(1)).has_random_step
