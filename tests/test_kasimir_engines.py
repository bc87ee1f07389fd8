"""Kater Kasimir: the die as explicit chance (KK-3, KK-5), both engines, and truncation."""

from __future__ import annotations

from typing import Any, Dict, List

import numpy as np
import pytest

import mousehole
from mousehole import CHANCE, TERMINAL, IllegalMoveError
from mousehole._rng import Rng, derive
from mousehole._simulate import play_random_game

CUSTOM: Dict[str, Any] = {
    "players": 3,
    "track_length": 20,
    "traps": [2, 5, 7, 11, 13, 17, 19],
    "die": [1, 2, "clover"],
    "clover": 3,
}


def position(d: Dict[str, Any]) -> Any:
    return (d["pantry"], d["track"], d["home"], d["seat"], d["roll"], d["truncated"])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_kk5_explicit_faces_reproduce_the_implicit_game(engine: str, players: int) -> None:
    """KK-5: feeding the implicit game's rolls as chance actions gives the same game."""
    gi = mousehole.load("kasimir", players=players, engine=engine)
    ge = mousehole.load("kasimir", players=players, explicit_chance=True, engine=engine)
    for seed in range(15):
        si, se = gi.new_state(seed), ge.new_state(seed)
        policy = Rng(derive(seed, 3))
        while not si.is_terminal():
            assert se.current_player == CHANCE
            assert se.to_dict()["seat"] == si.current_player
            se.apply_action(ge.num_move_actions + si.to_dict()["roll"])
            assert position(se.to_dict()) == position(si.to_dict())
            legal = si.legal_actions()
            assert np.array_equal(legal, se.legal_actions())
            a = int(legal[policy.below(len(legal))])
            si.apply_action(a)
            se.apply_action(a)
        assert se.is_terminal()
        assert position(se.to_dict()) == position(si.to_dict())
        assert se.scores() == si.scores() and se.winners() == si.winners()
        assert [a for a in se.history if a < ge.num_move_actions] == si.history


def test_kk3_implicit_rolls_are_one_below_per_turn(engine: str) -> None:
    """KK-3, KK-5: the implicit roll of each turn is the next ``rng.below(len(die))`` of the
    state's generator, seeded by ``new_state(seed)``; nothing else draws from it."""
    g = mousehole.load("kasimir", engine=engine, **CUSTOM)
    for seed in range(10):
        s = g.new_state(seed)
        ref = Rng(seed)
        policy = Rng(seed + 100)
        while not s.is_terminal():
            assert s.to_dict()["roll"] == ref.below(3)
            assert s.to_dict()["rng"] == ref.state
            legal = s.legal_actions()
            s.apply_action(int(legal[policy.below(len(legal))]))


def test_kk5_chance_node_interface(engine: str) -> None:
    """KK-5: at a chance node the legal actions are the faces; a move is refused."""
    g = mousehole.load("kasimir", explicit_chance=True, engine=engine)
    s = g.new_state(3)
    assert s.is_chance_node() and s.current_player == CHANCE
    assert s.legal_actions().tolist() == [a for a, _ in s.chance_outcomes()]
    assert s.legal_moves()[5] == g.action_to_move(g.num_move_actions + 5)
    before = s.to_dict()
    with pytest.raises(IllegalMoveError, match="KK-5"):
        s.apply_action(0)
    assert s.to_dict() == before
    assert "to roll" in str(s)
    s.apply_action(g.num_move_actions + 2)  # roll 3
    assert s.current_player == 0 and s.chance_outcomes() == []
    assert s.legal_actions().tolist() == [2]
    with pytest.raises(IllegalMoveError, match="KK-5"):
        s.apply_action(g.num_move_actions + 1)
    # the generator is never used with explicit chance (determinize re-seeds it anyway)
    assert s.to_dict()["rng"] == 3


@pytest.mark.differential
@pytest.mark.parametrize("params", [CUSTOM, {"players": 4}, {"players": 2, "die": [1, 1, 6, "clover"]}])
def test_kk3_engines_agree_with_explicit_chance(params: Dict[str, Any]) -> None:
    """KK-3: with explicit_chance=True both engines agree step by step, chance nodes included."""
    gc = mousehole.load("kasimir", explicit_chance=True, engine="compiled", **params)
    gp = mousehole.load("kasimir", explicit_chance=True, engine="python", **params)
    for seed in range(60):
        c, p = gc.new_state(seed), gp.new_state(seed)
        rng = Rng(derive(seed, 9))
        chance_nodes = 0
        while True:
            assert c.to_dict() == p.to_dict()
            assert c.current_player == p.current_player
            assert c.chance_outcomes() == p.chance_outcomes()
            lc = c.legal_actions()
            assert np.array_equal(lc, p.legal_actions())
            assert np.array_equal(c.legal_action_mask(), p.legal_action_mask())
            assert np.array_equal(c.observation(0), p.observation(0))
            assert str(c) == str(p)
            if c.is_terminal():
                break
            chance_nodes += c.current_player == CHANCE
            a = int(lc[rng.below(len(lc))])
            c.apply_action(a)
            p.apply_action(a)
        assert chance_nodes > 0
        assert c.winners() == p.winners() and c.history == p.history
    rc = mousehole.simulate(gc, 200, seed=5)
    rp = mousehole.simulate(gp, 200, seed=5)
    for field in ("scores", "winners", "lengths", "truncated"):
        assert np.array_equal(getattr(rc, field), getattr(rp, field))


def test_kk5_simulate_with_explicit_chance_picks_faces_by_policy(engine: str) -> None:
    """KK-5 in simulate: chance nodes are legal_actions() like any other node; the uniform
    policy picks the face (each face index has probability 1/len(die), so it is the die)."""
    g = mousehole.load("kasimir", explicit_chance=True, engine=engine, **CUSTOM)
    r = mousehole.simulate(g, 30, seed=11)
    for i in range(30):
        st = play_random_game(g, 11, i)
        assert r.lengths[i] == len(st.history)
        assert r.scores[i].tolist() == st.scores()
        assert sorted(np.flatnonzero(r.winners[i]).tolist()) == st.winners()
        moves = [a for a in st.history if a < g.num_move_actions]
        assert len(st.history) == 2 * len(moves)  # one roll per move, no roll for a skip


def test_kk12_max_turns_truncates_on_moves(engine: str) -> None:
    """KK-12 with ``max_turns``: truncation after that many moves (chance actions and
    skipped turns do not count); the winner is decided on the position reached (KK-13)."""
    for ec in (False, True):
        g = mousehole.load("kasimir", max_turns=12, explicit_chance=ec, engine=engine)
        s = g.new_state(4)
        rng = Rng(1)
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply_action(int(legal[rng.below(len(legal))]))
        moves: List[int] = [a for a in s.history if a < g.num_move_actions]
        assert len(moves) == 12 and s.truncated and s.current_player == TERMINAL
        assert s.winners() != []
        r = mousehole.simulate(g, 20, seed=3)
        assert r.truncated.all()
