"""Cheese Rescue's compiled play-outs (the 8 x 8 window of ``crw_game`` and ``cr_play_random``)
against the state stepped one action at a time: ``simulate``'s games (CR-4, CR-5, CR-7, CR-8,
CR-9, CR-11, CR-12, CR-13, ``max_turns``) and the C interface's rollout from any position."""

from __future__ import annotations

from typing import Any, Dict

import numpy as np
import pytest

import mousehole
from mousehole._rng import Rng
from mousehole._simulate import play_random_game, simulate

pytestmark = pytest.mark.compiled  # deselected (and said) when the compiled engine is not built

NONE = {"dog": 0, "cat": 0, "mouse": 0}
PARAMS = [
    dict(players=2),
    dict(players=3),
    dict(players=4),
    dict(players=2, max_turns=10),
    dict(players=3, max_turns=1),
    dict(players=4, max_turns=47),
    dict(players=4, square=7, max_turns=30),
    dict(players=3, square=3),
    dict(players=2, square=5, cheese_values=[1, 2, 3, 4, 5, 1], initial_draw=3),
    dict(
        players=4,
        square=7,
        cheese_values=[9, 8, 7, 6, 5],
        initial_draw=8,
        animals={"dog": 20, "cat": 20, "mouse": 20},
        removal=NONE,
    ),
    dict(players=3, square=6, initial_draw=0, cheese_values=[1] * 12, animals=NONE, removal=NONE),
    dict(players=2, animals={"dog": 80, "cat": 80, "mouse": 80}, removal=NONE, square=7),
]


@pytest.mark.parametrize("params", PARAMS, ids=[str(p) for p in PARAMS])
def test_simulate_plays_the_stepped_games(params: Dict[str, Any]) -> None:
    game = mousehole.load("cheese_rescue", engine="compiled", **params)
    res = simulate(game, 200, seed=5)
    for i in range(200):
        st = play_random_game(game, 5, i)
        assert res.scores[i].tolist() == st.scores(), i
        assert np.flatnonzero(res.winners[i]).tolist() == sorted(st.winners()), i
        assert int(res.lengths[i]) == len(st.history) and bool(res.truncated[i]) == st.truncated, i


@pytest.mark.parametrize("params", PARAMS, ids=[str(p) for p in PARAMS])
def test_rollout_from_any_position_is_the_stepped_play_out(params: Dict[str, Any]) -> None:
    from mousehole._cgame import CGame

    game = mousehole.load("cheese_rescue", engine="compiled", **params)
    walk = Rng(17)
    for g in range(4):
        state = game.new_state(300 + g)
        depth = 0
        while True:
            c = CGame(state)
            c.rollout(1000 * g + depth)
            stepped, policy = state.clone(), Rng(1000 * g + depth)
            while not stepped.is_terminal():
                legal = stepped.legal_actions()
                stepped.apply_action(int(legal[policy.below(len(legal))]))
            assert c.same_struct(CGame(stepped)), (g, depth)
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply_action(int(legal[walk.below(len(legal))]))
            depth += 1
