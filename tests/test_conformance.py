"""The generic conformance suite: every registered game, every player count, each engine.

Random games are played to the end; at every step the API's promises are checked
(docs/api.md): legal actions, mask and moves agree; clone, copy, pickle and to_dict
round trips are equal; observations and views leak nothing hidden; determinization agrees
with everything the seat has seen; bad input raises a clear error and leaves the state as it
was."""

from __future__ import annotations

import copy
import importlib
import json
import pickle
import re
from typing import Any, Dict, Tuple

import numpy as np
import pytest

import mousehole
from gamecases import CASES, IDS, may_end_without_winner, random_walk, scale

RULE_ID = re.compile(r"\b[A-Z]{1,2}-\d+\b")


def _load(case: Tuple[str, Dict[str, Any]], engine: str) -> Any:
    name, params = case
    return mousehole.load(name, engine=engine, **params)


def check_moves(game: Any, state: Any) -> None:
    legal = state.legal_actions()
    assert legal.dtype == np.int64 and legal.ndim == 1
    assert list(legal) == sorted(set(int(a) for a in legal)), "legal_actions must be sorted and unique"
    assert all(0 <= a < game.num_actions for a in legal)
    mask = state.legal_action_mask()
    assert mask.dtype == np.bool_ and mask.shape == (game.num_actions,)
    assert np.array_equal(np.flatnonzero(mask), legal)
    moves = state.legal_moves()
    assert len(moves) == len(legal)
    module = importlib.import_module(type(game).__module__)
    for a, m in zip(legal, moves):
        assert isinstance(m, mousehole.Move)
        assert game.move_to_action(m) == a
        assert game.action_to_move(int(a)) == m
        assert eval(repr(m), vars(module)) == m  # eval-able repr
        assert str(m)
    if state.is_terminal():
        assert len(legal) == 0
    else:
        assert len(legal) > 0, "a non-terminal state must offer an action"


def check_copies(game: Any, state: Any) -> None:
    d = state.to_dict()
    json.dumps(d)  # plain data
    for other in (
        state.clone(),
        copy.copy(state),
        copy.deepcopy(state),
        pickle.loads(pickle.dumps(state)),
        game.state_from_dict(d),
    ):
        assert type(other) is type(state)
        assert other == state
        assert other.to_dict() == d
        assert list(other.history) == list(state.history)
        assert np.array_equal(other.legal_actions(), state.legal_actions())
    assert pickle.loads(pickle.dumps(game)) == game


def check_views(game: Any, state: Any, seed: int) -> None:
    n = game.num_players
    full = state.to_dict()
    for p in range(n):
        obs = state.observation(p)
        assert obs.dtype == np.float32 and obs.shape == game.observation_shape
        assert np.isfinite(obs).all()
        view = state.to_dict(for_player=p)
        assert view["view"] == p
        assert view.get("rng") is None, "the generator state predicts hidden events and must not be shown"
        json.dumps(view)
        # A determinization is indistinguishable for p: same view, same observation, and it is
        # a full, valid state (state_from_dict checked it).
        det = state.determinize(p, seed + p)
        assert det.to_dict(for_player=p) == view
        assert np.array_equal(det.observation(p), obs)
        assert det.current_player == state.current_player
        assert np.array_equal(det.legal_actions(), state.legal_actions()) or state.current_player != p
    assert state.to_dict() == full, "views must not change the state"


def check_bad_input(game: Any, state: Any) -> None:
    before = state.to_dict()
    legal = set(int(a) for a in state.legal_actions())
    illegal = next((a for a in range(game.num_actions) if a not in legal), None)
    bad: list = [game.num_actions, -1]
    if illegal is not None:
        bad.append(illegal)
    for a in bad:
        with pytest.raises(mousehole.IllegalMoveError) as err:
            state.apply_action(a)
        msg = str(err.value)
        assert msg
        if 0 <= a < game.num_actions and not state.is_terminal():
            assert RULE_ID.search(msg), f"the error must name the rule broken: {msg!r}"
        assert state.to_dict() == before
    for a in ("3", 2.5, None, [1], True):
        with pytest.raises(TypeError):
            state.apply_action(a)
        assert state.to_dict() == before
    for p in (-1, game.num_players, 99):
        with pytest.raises(ValueError):
            state.observation(p)
        with pytest.raises(ValueError):
            state.to_dict(for_player=p)
        with pytest.raises(ValueError):
            state.determinize(p, 0)
    assert state.to_dict() == before


def check_malformed_dicts(game: Any, state: Any) -> None:
    d = state.to_dict()
    for key in d:
        broken = dict(d)
        del broken[key]
        with pytest.raises(mousehole.StateError):
            game.state_from_dict(broken)
        if key == "view":
            continue
        broken = dict(d)
        broken[key] = "garbage"
        with pytest.raises(mousehole.StateError):
            game.state_from_dict(broken)
    with pytest.raises(mousehole.StateError):
        game.state_from_dict(state.to_dict(for_player=0))
    with pytest.raises(mousehole.StateError):
        game.state_from_dict([1, 2, 3])  # type: ignore[arg-type]
    assert state.to_dict() == d


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_random_games_keep_every_promise(case: Tuple[str, Dict[str, Any]], engine: str) -> None:
    game = _load(case, engine)
    assert game.engine == engine
    for g in range(scale(2)):
        state = game.new_state(seed=1000 + g)
        steps = 0
        changed = 0
        for a in random_walk(state, seed=g):
            if steps < 120 or steps % 10 == 0:
                check_moves(game, state)
                check_copies(game, state)
                check_views(game, state, seed=steps)
                clone = state.clone()
                clone.apply_action(a)  # the clone is independent of the original
                assert len(clone.history) == len(state.history) + 1
                changed += (
                    state.determinize(state.current_player if state.current_player >= 0 else 0, steps).to_dict()
                    != state.to_dict()
                )
            if steps % 15 == 0:
                check_bad_input(game, state)
            steps += 1
        assert state.is_terminal(), "every game ends (max_turns included)"
        assert changed > 0, "determinize must re-sample something"
        check_moves(game, state)
        check_copies(game, state)
        check_views(game, state, seed=7)
        check_bad_input(game, state)
        check_malformed_dicts(game, state)
        n = game.num_players
        scores, winners, returns = state.scores(), state.winners(), state.returns()
        assert len(scores) == n and all(isinstance(x, int) for x in scores)
        assert (winners or may_end_without_winner(game)) and set(winners) <= set(range(n))
        assert winners or scores == [0] * n, "a game without a winner is one in which nobody scored"
        assert len(returns) == n
        assert (sorted(p for p in range(n) if returns[p] > 0) == sorted(winners)) or len(winners) == n


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_start_state_and_parameters(case: Tuple[str, Dict[str, Any]], engine: str) -> None:
    name, params = case
    game = _load(case, engine)
    assert game.name == name and name in mousehole.game_names()
    assert game.num_players == params["players"]
    assert set(game.params) == set(type(game).DEFAULTS)
    assert isinstance(game.num_actions, int) and game.num_actions > 0
    assert eval(repr(game), {"mousehole": mousehole}) == game
    a, b = game.new_state(seed=5), game.new_state(seed=5)
    assert a == b, "the same seed gives the same game"
    assert a.history == [] and not a.is_terminal()
    assert a.returns() == [0.0] * game.num_players and a.winners() == []
    assert str(a)
    check_malformed_dicts(game, a)
    with pytest.raises(mousehole.ParameterError):
        mousehole.load(name, engine=engine, no_such_parameter=1)
    with pytest.raises(mousehole.ParameterError):
        mousehole.load(name, engine=engine, players=type(game).max_players + 1)
    with pytest.raises(mousehole.ParameterError):
        mousehole.load(name, engine=engine, players=type(game).min_players - 1)
    with pytest.raises(mousehole.ParameterError):
        mousehole.load(name, engine=engine, max_turns=0)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_simulate(case: Tuple[str, Dict[str, Any]], engine: str) -> None:
    game = _load(case, engine)
    n = scale(4)
    r = mousehole.simulate(game, n, seed=3)
    assert r.scores.shape == (n, game.num_players) and r.winners.shape == (n, game.num_players)
    none = ~r.winners.any(axis=1)
    assert not none.any() or may_end_without_winner(game), "every finished game has a winner"
    assert (r.scores[none] == 0).all(), "a game without a winner is one in which nobody scored"
    again = mousehole.simulate(game, n, seed=3, threads=2)
    assert np.array_equal(r.scores, again.scores) and np.array_equal(r.lengths, again.lengths)
    assert np.array_equal(r.winners, again.winners)
    from mousehole._simulate import play_random_game

    last = play_random_game(game, 3, n - 1)
    assert list(r.scores[-1]) == last.scores() and r.lengths[-1] == len(last.history)
