"""Information sets: views hold exactly what a seat may know, and determinization depends on
the view and the seed alone.

For every game, player count and engine, at sampled steps of seeded random games and for
every seat ``p``:

* ``game.determinize_view(view, seed)`` works from the view alone (read back from JSON) and
  equals ``state.determinize(p, seed)``;
* the determinized state agrees with the view it came from: its own view for ``p`` is the
  view, and so is its observation for ``p``;
* two states with equal views for ``p`` give equal determinizations and equal observations
  (the second state is itself a determinization, so it differs in everything ``p`` cannot
  see);
* the compiled engine and the reference build the same determinized state.

Game-specific leak checks (for example that M's views never show another seat's hand slot)
live in each game's rule tests.
"""

from __future__ import annotations

import json
from typing import Any, Dict, Tuple

import numpy as np
import pytest

import mousehole
from gamecases import CASES, IDS, profile, random_states, random_walk, scale


def _sampled_states(game: Any, seed: int, every: int) -> Any:
    state = game.new_state(seed=seed)
    step = 0
    yield state
    for _ in random_walk(state, seed=seed):
        step += 1
        if step % every == 0 or state.is_terminal():
            yield state


def _every(game: Any) -> int:
    return profile(game.name).information_every


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_determinization_depends_on_the_view_only(case: Tuple[str, Dict[str, Any]], engine: str) -> None:
    name, params = case
    game = mousehole.load(name, engine=engine, **params)
    n = game.num_players
    checked = 0
    for g in range(scale(2)):
        for state in _sampled_states(game, 4000 + g, _every(game)):
            for p in range(n):
                seed = 31 * checked + p
                view = state.to_dict(for_player=p)
                again = json.loads(json.dumps(view))
                assert again == view, "a view is plain JSON data"
                det = game.determinize_view(again, seed)
                assert det.to_dict() == state.determinize(p, seed).to_dict()
                assert det.to_dict(for_player=p) == view, "a determinization agrees with its view"
                assert np.array_equal(det.observation(p), state.observation(p))
                assert det.current_player == state.current_player
                assert det.is_terminal() == state.is_terminal()
                # Another state with the same view (a determinization of this one, so the
                # hidden parts differ) gives the same determinizations and observations.
                other = state.determinize(p, seed + 1000)
                assert other.to_dict(for_player=p) == view
                assert other.determinize(p, seed).to_dict() == det.to_dict()
                assert np.array_equal(other.observation(p), state.observation(p))
                checked += 1
    assert checked > 0


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_determinization_resamples_hidden_information(case: Tuple[str, Dict[str, Any]], engine: str) -> None:
    """Different seeds give different hidden parts somewhere in a game (a determinize that
    returned the truth, or always the same world, would fail)."""
    name, params = case
    game = mousehole.load(name, engine=engine, **params)
    differs = 0
    for state in _sampled_states(game, 77, _every(game)):
        if state.is_terminal():
            continue
        p = state.current_player if state.current_player >= 0 else 0
        a, b = state.determinize(p, 1).to_dict(), state.determinize(p, 2).to_dict()
        differs += a != b
    assert differs > 0


@pytest.mark.differential
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_engines_determinize_alike(case: Tuple[str, Dict[str, Any]]) -> None:
    name, params = case
    compiled = mousehole.load(name, engine="compiled", **params)
    python = mousehole.load(name, engine="python", **params)
    for state in _sampled_states(compiled, 99, _every(compiled)):
        ref = python.state_from_dict(state.to_dict())
        for p in range(compiled.num_players):
            view = state.to_dict(for_player=p)
            assert ref.to_dict(for_player=p) == view
            assert compiled.determinize_view(view, p).to_dict() == python.determinize_view(view, p).to_dict()


@pytest.mark.parametrize("name", mousehole.game_names())
def test_determinize_view_refuses_what_is_not_a_view(name: str, engine: str) -> None:
    game = mousehole.load(name, engine=engine)
    state = game.new_state(seed=5)
    full = state.to_dict()
    view = state.to_dict(for_player=1)
    with pytest.raises(mousehole.StateError):
        game.determinize_view(full, 0)  # a full state is not a view
    for bad in ([1, 2], None, "view"):
        with pytest.raises(mousehole.StateError):
            game.determinize_view(bad, 0)  # type: ignore[arg-type]
    for seat in (-1, game.num_players, True, "1"):
        broken = dict(view, view=seat)
        with pytest.raises(mousehole.StateError):
            game.determinize_view(broken, 0)
    other = mousehole.load(name, engine=engine, players=2 if game.num_players != 2 else 3)
    with pytest.raises(mousehole.StateError):
        other.determinize_view(view, 0)  # made with other parameters
    with pytest.raises(TypeError):
        game.determinize_view(view, "seed")  # type: ignore[arg-type]
    assert state.to_dict() == full


@pytest.mark.parametrize("name", mousehole.game_names())
def test_determinize_reads_seeds_and_seats_as_the_reference(name: str, engine: str) -> None:
    """Seeds are taken modulo 2**64 whatever their integer type, and a seat is any integer:
    ``state.determinize(p, seed)`` is the reference path (``determinize_view`` of seat p's
    view, loaded into the state's engine) for each; a bad seat or seed raises naming it and
    changes nothing. (The comparison tests the compiled cores' own determinization; on the
    reference engine ``determinize`` is that path, and the refusals are what is tested.)"""
    game = mousehole.load(name, engine=engine, players=mousehole.load(name, engine="python").max_players)
    states = [s.clone() for s in random_states(game, 5) if not s.is_terminal()]
    state = states[len(states) // 2]
    before = state.to_dict()
    for seed in (-1, 2**64 + 5, 2**70 - 3, np.uint64(2**63 + 1), np.int64(-3), np.int32(9), 0):
        expected = game.determinize_view(state.to_dict(for_player=1), seed).to_dict()
        assert state.determinize(1, seed).to_dict() == expected, seed
        assert state.determinize(np.int64(1), seed).to_dict() == expected, seed
    n = game.num_players
    for bad_seat, error in ((n, ValueError), (-1, ValueError), ("1", TypeError), (1.0, TypeError), (True, TypeError)):
        with pytest.raises(error, match="player"):
            state.determinize(bad_seat, 0)
    for bad_seed in (True, "3", 2.5, None):
        with pytest.raises(TypeError, match="seed"):
            state.determinize(0, bad_seed)
    assert state.to_dict() == before
