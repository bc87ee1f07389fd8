"""Mutation fuzz of ``game.state_from_dict`` (hypothesis).

States are taken from seeded random games of every game; hypothesis then mutates their
``to_dict()`` output one or more times (replace a value anywhere in the nested data with an
int, a bool, None, a string, a float or a list; drop or duplicate a list entry; drop a key;
add an unknown key) and loads the result. The only acceptable outcomes:

* :class:`mousehole.StateError` (nothing else: no ``TypeError``, no ``IndexError``, no crash
  of the compiled engine: each game and engine runs in a child interpreter, so that a crash
  fails the test and names the dict), or
* a state that is exactly the dict that was loaded (``to_dict()`` round trip), whose seat to
  move has a legal action unless the game is over, and on which the whole API still works
  (one legal action applied, views, observations, clone).

The run is bounded (``MOUSEHOLE_FUZZ_EXAMPLES`` examples per game and engine, 150 by
default, about ten seconds per game); ``MOUSEHOLE_FUZZ_EXAMPLES=20000`` is the long run
documented in ``docs/api.md``.
"""

from __future__ import annotations

import copy
import json
import os
from datetime import timedelta
from typing import Any, Dict, List, Optional

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import mousehole  # noqa: E402
from gamecases import random_walk  # noqa: E402
from test_hostile_states import isolated  # noqa: E402

EXAMPLES = int(os.environ.get("MOUSEHOLE_FUZZ_EXAMPLES", "150"))

_POOLS: Dict[Any, List[Dict[str, Any]]] = {}


def _pool(name: str, engine: str, params: Optional[Dict[str, Any]] = None) -> List[Dict[str, Any]]:
    """Full state dicts from a few random games: start, middle, end (of games with ``params``
    besides the player count, e.g. a reading; at 2 and 4 players, or at ``params``' count)."""
    extra = {k: v for k, v in (params or {}).items() if k != "players"}
    key = (name, engine, json.dumps(params, sort_keys=True))
    if key not in _POOLS:
        out: List[Dict[str, Any]] = []
        for players in [params["players"]] if params and "players" in params else (2, 4):
            game = mousehole.load(name, engine=engine, players=players, **extra)
            for seed in range(3):
                state = game.new_state(seed=seed)
                out.append(state.to_dict())
                for i, _ in enumerate(random_walk(state, seed=seed)):
                    if i % 17 == 5:
                        out.append(state.to_dict())
                out.append(state.to_dict())
        _POOLS[key] = out
    return _POOLS[key]


VALUES = st.one_of(
    st.integers(min_value=-3, max_value=130),
    st.sampled_from([2**31, 2**63, 2**64, -(2**63) - 1, 10**30]),
    st.booleans(),
    st.none(),
    st.sampled_from(["", "x", "play", "bid", "over", "M-16"]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.lists(st.integers(min_value=-2, max_value=100), max_size=6),
)


def _containers(d: Any, path: tuple = ()) -> List[tuple]:
    """Paths to every dict and list inside ``d`` (the root included)."""
    out = [path]
    if isinstance(d, dict):
        for k, v in d.items():
            if isinstance(v, (dict, list)):
                out += _containers(v, path + (k,))
    elif isinstance(d, list):
        for i, v in enumerate(d):
            if isinstance(v, (dict, list)):
                out += _containers(v, path + (i,))
    return out


def _at(d: Any, path: tuple) -> Any:
    for k in path:
        d = d[k]
    return d


@st.composite
def mutated(draw: Any, pool: List[Dict[str, Any]]) -> Dict[str, Any]:
    d = copy.deepcopy(draw(st.sampled_from(pool)))
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        paths = _containers(d)
        path = draw(st.sampled_from(paths))
        box = _at(d, path)
        if isinstance(box, dict):
            keys = sorted(box, key=str)
            op = draw(st.sampled_from(["set", "set", "set", "drop", "add"] if keys else ["add"]))
            if op == "add":
                box[draw(st.sampled_from(["extra", "seed", "Hands", 3]))] = draw(VALUES)
            else:
                k = draw(st.sampled_from(keys))
                if op == "drop":
                    del box[k]
                else:
                    box[k] = draw(VALUES)
        else:
            op = draw(st.sampled_from(["set", "set", "drop", "dup", "append", "swap"] if box else ["append"]))
            if op == "append":
                box.append(draw(VALUES))
                continue
            i = draw(st.integers(min_value=0, max_value=len(box) - 1))
            if op == "set":
                box[i] = draw(VALUES)
            elif op == "drop":
                del box[i]
            elif op == "dup":
                box.insert(i, copy.deepcopy(box[i]))
            else:
                j = draw(st.integers(min_value=0, max_value=len(box) - 1))
                box[i], box[j] = box[j], box[i]
    return d


def _exercise(game: Any, state: Any, d: Dict[str, Any]) -> None:
    assert state.to_dict() == d, "an accepted dict must round-trip exactly"
    if not state.is_terminal():
        if state.is_chance_node():
            assert state.chance_outcomes()
        else:
            assert len(state.legal_actions()) > 0, "an accepted state that is not over must offer an action"
    for p in range(game.num_players):
        obs = state.observation(p)
        assert obs.shape == game.observation_shape and np.isfinite(obs).all()
        state.to_dict(for_player=p)
    str(state)
    state.scores()
    clone = state.clone()
    assert clone == state
    legal = clone.legal_actions()
    if len(legal):
        clone.apply_action(int(legal[len(legal) // 2]))
        clone.to_dict()


def child_fuzz(name: str, engine: str, examples: int, params_json: str = "{}") -> None:
    """The fuzz run of one game and engine (in a child interpreter: :func:`isolated`), with
    the game parameters ``params_json`` besides the player count (e.g. a reading)."""
    from test_hostile_states import note

    params = json.loads(params_json)
    extra = {k: v for k, v in params.items() if k != "players"}
    game2 = mousehole.load(name, engine=engine, **dict(extra, players=params.get("players", 2)))
    game4 = mousehole.load(name, engine=engine, **dict(extra, players=params.get("players", 4)))
    pool = _pool(name, engine, params or None)

    @settings(
        max_examples=examples,
        deadline=timedelta(seconds=20),
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(mutated(pool))
    def run(d: Dict[str, Any]) -> None:
        note(d)
        players = d.get("params", {}).get("players") if isinstance(d.get("params"), dict) else None
        game = game2 if players == 2 else game4
        try:
            state = game.state_from_dict(d)
        except mousehole.StateError as e:
            assert str(e)
            return
        _exercise(game, state, d)

    run()


@pytest.mark.parametrize("name", mousehole.game_names())
def test_state_from_dict_refuses_or_accepts_a_playable_state(name: str, engine: str) -> None:
    """In a child interpreter: a crash of the compiled engine on a mutated dict fails this
    test (naming the dict) instead of ending the test run."""
    isolated("child_fuzz", name, engine, EXAMPLES, module="test_fuzz_state_dicts")
