"""The game configurations the generic suites run over, and a seeded random driver.

Every registered game is covered at every player count it allows; games may add extra
configurations here (for example explicit chance)."""
from __future__ import annotations

import os
from typing import Any, Dict, Iterator, List, Tuple

import numpy as np

import mousehole
from mousehole import _api
from mousehole._rng import Rng, derive

#: extra parameter sets per game for the generic suites
EXTRA: Dict[str, List[Dict[str, Any]]] = {
    "kasimir": [{"players": 4, "explicit_chance": True}, {"players": 2, "explicit_chance": True}],
}


def configs() -> List[Tuple[str, Dict[str, Any]]]:
    out: List[Tuple[str, Dict[str, Any]]] = []
    for name in mousehole.game_names():
        cls = _api._REGISTRY[name]
        for n in range(cls.min_players, cls.max_players + 1):
            out.append((name, {"players": n}))
        out.extend((name, dict(extra)) for extra in EXTRA.get(name, []))
    return out


def config_id(case: Tuple[str, Dict[str, Any]]) -> str:
    name, params = case
    return name + "-" + "-".join(f"{k}={v}" for k, v in sorted(params.items()))


CASES = configs()
IDS = [config_id(c) for c in CASES]


def scale(default: int) -> int:
    """Test sizes scale with MOUSEHOLE_TEST_SCALE (a float, default 1)."""
    return max(1, int(default * float(os.environ.get("MOUSEHOLE_TEST_SCALE", "1"))))


def random_walk(state: Any, seed: int, max_steps: int = 100000) -> Iterator[int]:
    """Play uniformly random legal actions (chance nodes included) until the end, yielding
    each chosen action before it is applied."""
    rng = Rng(derive(seed, 1))
    steps = 0
    while not state.is_terminal() and steps < max_steps:
        legal = state.legal_actions()
        a = int(legal[rng.below(len(legal))])
        yield a
        state.apply_action(a)
        steps += 1


def random_states(game: Any, seed: int) -> Iterator[Any]:
    """Every state of one seeded random game (the same object, one action further each
    time), the start and the end included."""
    s = game.new_state(seed)
    rng = Rng(derive(seed, 5))
    while True:
        yield s
        if s.is_terminal():
            return
        acts = s.legal_actions()
        s.apply_action(int(acts[rng.below(len(acts))]))


def same_bits(a: Any, b: Any) -> bool:
    """Arrays with the same dtype, shape and bytes (NaNs and signed zeros included)."""
    return bool(a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes())


def check_observations_against_reference(s: Any, ref: Any, where: str) -> None:
    """Every seat's observation (new array, ``out=``, numpy seat) and the mask of ``s`` equal
    the reference engine's on the same state; neither call changes the state."""
    game = s.game
    r = ref.state_from_dict(s.to_dict())
    before = s.to_dict()
    obuf = np.empty(game.observation_shape, dtype=np.float32)
    for p in range(game.num_players):
        want = r.observation(p)
        assert want.dtype == np.float32 and want.shape == tuple(game.observation_shape)
        got = s.observation(p)
        assert same_bits(got, want), f"{where}, seat {p}: planes {sorted(set(np.argwhere(got != want)[:, 0]))}"
        obuf.fill(np.nan)  # stale values must be overwritten (zero-filled first)
        assert s.observation(p, out=obuf) is obuf
        assert same_bits(obuf, want), f"{where}, seat {p} (out=)"
        assert same_bits(s.observation(np.int64(p)), want)  # numpy seats, as in check_seat
    want_mask = np.zeros(game.num_actions, dtype=np.bool_)
    want_mask[s.legal_actions()] = True
    mask = s.legal_action_mask()
    assert mask.dtype == np.bool_ and mask.shape == (game.num_actions,)
    assert np.array_equal(mask, want_mask) and np.array_equal(mask, r.legal_action_mask()), where
    mbuf = np.ones(game.num_actions, dtype=np.bool_)
    assert s.legal_action_mask(out=mbuf) is mbuf
    assert np.array_equal(mbuf, want_mask), f"{where} (out=)"
    assert s.to_dict() == before
