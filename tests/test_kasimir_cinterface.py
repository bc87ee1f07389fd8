"""Kater Kasimir through its C-level interface (``mh_game_t``): what the generic conformance
test (test_cinterface.py) cannot check for this game.

* KK-14: every seat sees the whole position; only the generator that rolls the die (KK-5)
  is hidden. The C determinization keeps the position and the history and draws a new
  generator, ``Rng(seed).next64()`` as ``Kasimir._determinize`` does; its struct is, byte for
  byte, the one the reference's determinization of the view loads into (mouse numbering
  included), and depends on the view alone.
* ``rollout`` plays simulate's policy from any state, mid-game and at chance nodes too;
  ``returns`` follows ``StateAPI.returns`` in truncated games; ``max_legal`` bounds, and can
  be reached by, the legal actions (KK-6) and the chance outcomes (KK-3).
* The compiled core's own fast calls (``determinize``, ``is_chance_node``, ``apply_action``
  with a numpy integer, ``new``/``from_dict`` with the cached constants of several games)
  answer as the shared API does.
"""

from __future__ import annotations

from typing import Any, Dict, Iterator, List

import numpy as np
import pytest

import mousehole
from mousehole import CHANCE, TERMINAL
from mousehole._rng import Rng, derive

pytestmark = pytest.mark.compiled  # deselected (and said) when the compiled engine is not built

CONFIGS: List[Dict[str, Any]] = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 4, "explicit_chance": True},
    {
        "players": 3,
        "explicit_chance": True,
        "track_length": 20,
        "traps": [2, 5, 7, 11, 13, 17, 19],
        "die": [1, 2, "clover"],
        "clover": 3,
    },
    # the readings (KK-11, KK-13): their extra struct fields go through every C path too
    {"players": 2, "tie_break": "fewest_turns", "elimination": "out_of_game"},
    {"players": 4, "explicit_chance": True, "tie_break": "first_finished"},
    {"players": 3, "tie_break": "fewest_turns", "explicit_chance": True},
]
IDS = [
    "-".join(
        f"{k}={v}"
        for k, v in c.items()
        if k in ("players", "explicit_chance", "track_length", "tie_break", "elimination")
    )
    for c in CONFIGS
]


def cgame(state: Any) -> Any:
    from mousehole._cgame import CGame

    return CGame(state)


def states(game: Any, seed: int, every: int = 3) -> Iterator[Any]:
    """Clones of every ``every``-th state of one seeded random game (the end included)."""
    s = game.new_state(seed)
    rng = Rng(derive(seed, 7))
    i = 0
    while True:
        if i % every == 0 or s.is_terminal():
            yield s.clone()
        if s.is_terminal():
            return
        legal = s.legal_actions()
        s.apply_action(int(legal[rng.below(len(legal))]))
        i += 1


def position(d: Dict[str, Any]) -> Dict[str, Any]:
    """A state dict without its generator (what KK-14 shows every seat)."""
    return {k: v for k, v in d.items() if k != "rng"}


@pytest.mark.parametrize("params", CONFIGS, ids=IDS)
def test_kk14_c_determinize_is_the_reference_determinization_struct_for_struct(params: Dict[str, Any]) -> None:
    """The C determinization of the struct equals, byte for byte, the struct the reference's
    ``Kasimir._determinize`` of p's view loads into (mouse ids and unused slots included),
    and the compiled ``state.determinize`` is that state."""
    game = mousehole.load("kasimir", engine="compiled", **params)
    ref = mousehole.load("kasimir", engine="python", **params)
    checked = 0
    for g in range(2):
        for state in states(game, 300 + g, every=4):
            for p in range(game.num_players):
                seed = 1000 * g + 17 * checked + p
                view = state.to_dict(for_player=p)
                expected = game.determinize_view(view, seed)  # the Python path: dict -> from_dict
                c = cgame(state)
                c.determinize(p, seed)
                assert c.same_struct(cgame(expected)), (state.history, p)
                det = state.determinize(p, seed)  # the compiled core's own C path
                assert type(det) is type(state)
                assert cgame(det).same_struct(c)
                assert det.history == expected.history == state.history
                assert det.to_dict() == expected.to_dict() == ref.determinize_view(view, seed).to_dict()
                checked += 1
    assert checked > 20


@pytest.mark.parametrize("params", CONFIGS, ids=IDS)
def test_kk14_c_determinize_depends_on_the_view_only(params: Dict[str, Any]) -> None:
    """Three states with p's view (the played one, its reload from its dict, which numbers the
    mice otherwise, and another seat's determinization of it, with another generator) give
    the same C determinization, byte for byte."""
    game = mousehole.load("kasimir", engine="compiled", **params)
    renumbered = 0
    for state in states(game, 77, every=5):
        reloaded = game.state_from_dict(state.to_dict())
        if not cgame(state).same_struct(cgame(reloaded)):
            renumbered += 1  # the same position, other bytes: the mice left the pantry in another order
        for p in range(game.num_players):
            q = (p + 1) % game.num_players
            other = state.determinize(q, 999)
            assert other.to_dict(for_player=p) == state.to_dict(for_player=p)
            assert other.to_dict()["rng"] != state.to_dict()["rng"]
            outs = []
            for s in (state, reloaded, other):
                c = cgame(s)
                c.determinize(p, 4242)
                outs.append(c)
            assert outs[0].same_struct(outs[1]) and outs[0].same_struct(outs[2]), (state.history, p)
    assert renumbered > 0, "no state whose struct differs from its reload: the check above proves nothing"


@pytest.mark.parametrize("params", CONFIGS, ids=IDS)
def test_kk14_determinize_keeps_the_position_and_redraws_the_rolls(params: Dict[str, Any]) -> None:
    """KK-14: the position, the roll shown and the history stay; the generator is
    ``Rng(seed).next64()``; the state itself is not changed; and with the die rolled by the
    state (KK-5) different seeds give different future rolls."""
    game = mousehole.load("kasimir", engine="compiled", **params)
    for state in states(game, 5, every=7):
        before = state.to_dict()
        for p in range(game.num_players):
            for seed in (0, 1, 2**64 - 1):
                det = state.determinize(p, seed)
                d = det.to_dict()
                assert position(d) == position(before)
                assert d["rng"] == derive(seed, 0)
        assert state.to_dict() == before
    # the rolls after the next move differ between determinizations
    state = game.new_state(11)
    rolls = set()
    for seed in range(24):
        det = state.determinize(0, seed)
        while det.current_player == CHANCE:  # explicit chance: the roll is a chance action
            det.apply_action(int(det.legal_actions()[0]))
        det.apply_action(int(det.legal_actions()[0]))
        if game.explicit_chance:
            rolls.add(det.to_dict()["rng"])  # nothing rolls by itself: only the generator differs
        else:
            rolls.add(det.to_dict()["roll"])
    assert len(rolls) > 1


def test_determinize_arguments_are_checked_as_the_shared_api_checks_them() -> None:
    game = mousehole.load("kasimir", engine="compiled", players=3)
    state = game.new_state(4)
    state.apply_action(int(state.legal_actions()[0]))
    before = state.to_dict()
    base = state.determinize(1, 12).to_dict()
    assert state.determinize(np.int64(1), np.uint64(12)).to_dict() == base
    assert state.determinize(1, 12 + 2**64).to_dict() == base  # seeds are taken modulo 2**64
    assert state.determinize(2, -1).to_dict()["rng"] == derive(2**64 - 1, 0)
    with pytest.raises(ValueError, match="player 3 is out of range"):
        state.determinize(3, 0)
    with pytest.raises(ValueError, match="out of range"):
        state.determinize(-1, 0)
    with pytest.raises(TypeError, match="player must be an int"):
        state.determinize(1.0, 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seed must be an int"):
        state.determinize(1, True)
    with pytest.raises(TypeError, match="seed must be an int"):
        state.determinize(1, 2.5)  # type: ignore[arg-type]
    assert state.to_dict() == before


@pytest.mark.parametrize("params", CONFIGS, ids=IDS)
def test_rollout_from_any_state_plays_the_simulate_policy(params: Dict[str, Any]) -> None:
    """From mid-game states and chance nodes, ``rollout(policy)`` ends in the struct the
    Python loop of ``simulate`` (uniform over ``legal_actions()``, drawn from ``policy``)
    reaches from the same state."""
    game = mousehole.load("kasimir", engine="compiled", **params)
    checked = 0
    for state in states(game, 21, every=9):
        seed = 555 + checked
        c = cgame(state)
        c.rollout(seed)
        s = state.clone()
        policy = Rng(seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply_action(int(legal[policy.below(len(legal))]))
        assert c.current() == TERMINAL
        assert c.same_struct(cgame(s))
        assert c.returns() == s.returns()
        checked += 1
    assert checked > 3


@pytest.mark.parametrize("max_turns", [1, 6, 40, 90])
def test_returns_of_truncated_games(max_turns: int) -> None:
    """``returns`` through the interface equals ``StateAPI.returns()`` when ``max_turns`` ends
    the game (KK-13 on the mice home so far; 0 for all when every seat ties at none)."""
    seen = set()
    for explicit in (False, True):
        game = mousehole.load("kasimir", engine="compiled", players=3, max_turns=max_turns, explicit_chance=explicit)
        for seed in range(12):
            state = game.new_state(seed)
            c = cgame(state)
            c.rollout(derive(seed, 3))
            s = state.clone()
            policy = Rng(derive(seed, 3))
            while not s.is_terminal():
                legal = s.legal_actions()
                s.apply_action(int(legal[policy.below(len(legal))]))
            assert c.returns() == s.returns()
            assert s.truncated or max_turns == 90  # a game of 3 seats may end within 90 moves
            if s.truncated:
                seen.add(tuple(s.returns()))
    if max_turns == 1:
        assert seen == {(0.0, 0.0, 0.0)}  # nobody home: every seat ties
    if max_turns == 90:
        assert any(1.0 in r for r in seen)  # truncated with somebody home: winners and losers


@pytest.mark.parametrize(
    "params, reached",
    [
        ({"players": 2, "mice": 1, "die": ["clover"], "clover": 5}, True),  # one mouse, 5 distances
        (
            {"players": 2, "mice": 1, "die": [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6], "explicit_chance": True},
            True,
        ),  # 12 faces
        (
            {
                "players": 4,
                "mice": 8,
                "die": [1, 2, "clover"],
                "clover": 4,
                "track_length": 30,
                "traps": [10, 20],
                "explicit_chance": True,
            },
            False,
        ),
    ],
)
def test_max_legal_bounds_the_actions_and_outcomes(params: Dict[str, Any], reached: bool) -> None:
    """KK-6: at most ``mice`` free starts (the pantry counts while it holds a mouse) with at
    most ``D`` distances each; KK-3: one chance outcome per face."""
    game = mousehole.load("kasimir", engine="compiled", **params)
    bound = cgame(game.new_state(0)).dims()["max_legal"]
    assert bound == max(game.mice * game.max_distance, game.num_faces)
    most = 0
    for seed in range(6):
        for state in states(game, seed, every=1):
            c = cgame(state)
            most = max(most, len(c.legal()), len(c.chance()))
    assert most <= bound
    if reached:
        assert most == bound


@pytest.mark.parametrize("params", CONFIGS, ids=IDS)
def test_core_fast_calls_answer_as_the_shared_api(params: Dict[str, Any]) -> None:
    """``is_chance_node`` (compiled on the core) is ``current_player == CHANCE``; a numpy
    integer applies as the same int does; a clone keeps its own history."""
    game = mousehole.load("kasimir", engine="compiled", **params)
    chance = 0
    for state in states(game, 8, every=1):
        assert state.is_chance_node() is (state.current_player == CHANCE)
        chance += state.is_chance_node()
        if state.is_terminal():
            continue
        for a in state.legal_actions()[:3]:
            x, y = state.clone(), state.clone()
            x.apply_action(a)  # numpy.int64, as legal_actions() holds it
            y.apply_action(int(a))
            assert cgame(x).same_struct(cgame(y)) and x.history == y.history == state.history + [int(a)]
            for other in (np.int32(a), np.uint16(a)):
                z = state.clone()
                z.apply_action(other)
                assert z.history == x.history
    assert (chance > 0) == bool(game.explicit_chance)


def test_new_and_from_dict_with_several_games_keep_each_games_constants() -> None:
    """States of several games made in turn each get their own game's constants (the core
    caches the last game's), and equal the reference's."""
    params: List[Dict[str, Any]] = [
        {"players": 2},
        {"players": 4, "explicit_chance": True},
        {"players": 3, "track_length": 12, "traps": [4], "mice": 2},
    ]
    games = [mousehole.load("kasimir", engine="compiled", **p) for p in params]
    refs = [mousehole.load("kasimir", engine="python", **p) for p in params]
    for rnd in range(3):
        for g, r in zip(games, refs):
            s = g.new_state(rnd)
            assert cgame(s).dims()["players"] == g.num_players
            assert s.to_dict() == r.new_state(rnd).to_dict()
            c = cgame(s)
            c.reset(rnd)
            assert c.same_struct(cgame(s))
            t = g.state_from_dict(r.new_state(rnd + 1).to_dict())
            assert t.to_dict() == r.new_state(rnd + 1).to_dict()
            assert [int(a) for a in t.legal_actions()] == [int(a) for a in r.new_state(rnd + 1).legal_actions()]
