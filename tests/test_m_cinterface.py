"""M through its C-level interface (``mh_game_t``) and its compiled determinization.

What the generic conformance test (test_cinterface.py) cannot check for this game:

* M-22: the C determinization (``determinize`` of the interface, and the compiled
  ``state.determinize``) is, byte for byte, the struct that the Python ``M._determinize`` of
  seat p's view loads into, in the cases its M-17 logic tells apart (a game over by M-17,
  a play phase where p's own cards fit nowhere, cards p slid under the pile by M-9);
* it keeps everything p may see, re-deals what p cannot see, and depends on p's view alone
  (two different full states with the same view give byte-equal determinizations);
* the deal's deferred shuffle steps (taken as the pile's bottom is drawn, or all at once when
  the dict is read) give the reference engine's game, draw for draw;
* structs are canonical: a state reached by play (its dict read) and the same state loaded
  from its dict are the same bytes (the cached masks, the pile's ring buffer and every free
  slot included), and ``reset`` over a finished game gives ``new_state``'s bytes;
* ``rollout`` from any state (mid-game, loaded) plays the action model of ``simulate``: the
  action at index ``below(n)`` of the legal list, drawn from the policy generator;
* ``returns`` at a truncated end, the bound ``max_legal``, seeds and seats read as the
  reference reads them, and the call fast paths (numpy actions, ``is_chance_node``, seeds
  kept by clones).
"""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Tuple

import numpy as np
import pytest

import mousehole
from gamecases import scale
from mousehole._rng import Rng

pytestmark = pytest.mark.compiled  # deselected (and said) when the compiled engine is not built

PLAYERS = [2, 4, 6]


def _cgame(state: Any) -> Any:
    from mousehole._cgame import CGame

    return CGame(state)


def _states(game: Any, seed: int) -> Iterator[Any]:
    """Every state of one seeded random game (copies), the start and the end included."""
    s = game.new_state(seed)
    rng = Rng(seed + 7)
    while True:
        yield s.clone()
        if s.is_terminal():
            return
        legal = s.legal_actions()
        s.apply_action(int(legal[rng.below(len(legal))]))


def _python_determinization(game: Any, state: Any, p: int, seed: int) -> Any:
    """The Python path: ``M._determinize`` of p's view, validated and loaded into ``game``'s
    engine (what ``StateAPI.determinize`` does on the reference engine)."""
    return game.determinize_view(state.to_dict(for_player=p), seed)


def _check_determinization(game: Any, python: Any, state: Any, p: int, seed: int) -> None:
    """The interface's determinize, the compiled ``state.determinize`` and the Python
    determinization of the view (on both engines) give the same state, byte for byte."""
    c = _cgame(state)
    c.determinize(p, seed)
    via_python = _python_determinization(game, state, p, seed)
    assert c.same_struct(_cgame(via_python)), (p, seed)
    compiled = state.determinize(p, seed)
    assert c.same_struct(_cgame(compiled)), (p, seed)
    assert compiled.to_dict() == via_python.to_dict()
    ref = _python_determinization(python, python.state_from_dict(state.to_dict()), p, seed)
    assert ref.to_dict() == via_python.to_dict()


def _fits(game: Any, d: Dict[str, Any], cards: List[int]) -> bool:
    """M-17 as the reference reads it: can one of ``cards`` be laid on the table of ``d``?"""
    from mousehole.m import _any_fits, _cells

    return bool(_any_fits(game, _cells(d["table"]), cards))


@pytest.mark.parametrize("players", PLAYERS)
def test_c_determinize_is_the_python_determinization_of_the_view(players: int) -> None:
    """M-22: along random games, for every seat, the three paths agree byte for byte."""
    game = mousehole.load("m", players=players, engine="compiled")
    python = mousehole.load("m", players=players, engine="python")
    checked = 0
    for g in range(scale(2)):
        for i, state in enumerate(_states(game, 40 + 10 * g + players)):
            if i % 7:
                continue
            for p in range(players):
                _check_determinization(game, python, state, p, 1000 * i + p)
                checked += 1
    assert checked >= players * 10


def test_c_determinize_in_the_cases_of_m17() -> None:
    """M-17 and M-22: a game that ended by M-17 deals only non-fitting cards into hands and
    pile; a play phase where the seat's own cards fit nowhere redraws until a hidden card in
    play fits; cards the seat slid under the pile (M-9) stay where they are. Each case is met
    and the C determinization equals the Python one there."""
    game = mousehole.load("m", players=3, engine="compiled")
    python = mousehole.load("m", players=3, engine="python")
    met = {"over by M-17": 0, "own cards fit nowhere": 0, "own cards under the pile": 0}
    for seed in range(scale(40)):
        for i, state in enumerate(_states(game, 300 + seed)):
            d = state.to_dict()
            for p in range(3):
                mine = d["hands"][p] + [c for c, w in zip(d["pile"], d["pile_putter"]) if w == p]
                cases = []
                if d["end"] == "M-17":
                    cases.append("over by M-17")
                if d["phase"] == "play" and not _fits(python, d, mine):
                    cases.append("own cards fit nowhere")
                if p in d["pile_putter"] and i % 3 == 0:
                    cases.append("own cards under the pile")
                for case in cases:
                    if met[case] < 12:
                        met[case] += 1
                        _check_determinization(game, python, state, p, 77 * i + p)
                if "over by M-17" in cases:
                    det = state.determinize(p, i).to_dict()
                    in_play = [c for h in det["hands"] for c in h] + det["pile"]
                    assert not _fits(python, det, in_play)
                if "own cards fit nowhere" in cases:
                    det = state.determinize(p, i).to_dict()
                    assert _fits(python, det, [c for h in det["hands"] for c in h] + det["pile"])
    assert all(met.values()), met


@pytest.mark.parametrize("players", PLAYERS)
def test_determinize_keeps_what_the_seat_sees_and_redeals_the_rest(players: int) -> None:
    """M-22: p's view is unchanged (table, scoring row, own hand, every hand's size, the
    pile's size and p's own cards in it, taken cards, chips, log); every card is still
    somewhere exactly once (M-1, M-3); the other hands, the pile and the removed cards are
    re-dealt (they differ for some seeds); the generator is re-seeded; the result remembers
    no seed; the original state is left alone."""
    game = mousehole.load("m", players=players, engine="compiled")
    state = list(_states(game, 7))[12 * players]
    before = state.to_dict()
    assert not state.is_terminal()
    for p in range(players):
        view = state.to_dict(for_player=p)
        hidden_seen = set()
        for seed in range(30):
            det = state.determinize(p, seed)
            d = det.to_dict()
            assert det.to_dict(for_player=p) == view
            for key in ("table", "scoring_row", "taken", "chips", "log", "phase", "current", "pile_putter"):
                assert d[key] == before[key], key
            assert d["hands"][p] == before["hands"][p]
            assert [len(h) for h in d["hands"]] == [len(h) for h in before["hands"]]
            assert [c for c, w in zip(d["pile"], d["pile_putter"]) if w == p] == [
                c for c, w in zip(before["pile"], before["pile_putter"]) if w == p
            ]
            every = (
                [e[2] for e in d["table"]]
                + [c for h in d["hands"] for c in h]
                + d["pile"]
                + d["removed"]
                + [c for t in d["taken"] for c in t]
            )
            assert sorted(every) == list(range(game.n_cards))
            assert d["rng"] != before["rng"]
            assert det.seed is None
            assert game.state_from_dict(d).to_dict() == d  # a valid, playable state
            hidden_seen.add(repr(([h for q, h in enumerate(d["hands"]) if q != p], d["pile"], d["removed"])))
        assert len(hidden_seen) > 1, "determinize never changed what the seat cannot see"
    assert state.to_dict() == before


@pytest.mark.parametrize("players", PLAYERS)
def test_c_determinize_depends_on_the_view_only(players: int) -> None:
    """M-22: two different full states with the same view for p (the second dealt from p's
    view) give byte-equal C determinizations for every seed."""
    game = mousehole.load("m", players=players, engine="compiled")
    differed = 0
    for i, state in enumerate(_states(game, 11)):
        if i % 9:
            continue
        for p in range(players):
            other = game.determinize_view(state.to_dict(for_player=p), 555 + i)
            assert other.to_dict(for_player=p) == state.to_dict(for_player=p)
            differed += other.to_dict() != state.to_dict()
            for seed in (0, 1, 2**63 + 5):
                a, b = _cgame(state), _cgame(other)
                a.determinize(p, seed)
                b.determinize(p, seed)
                assert a.same_struct(b), (i, p, seed)
    assert differed > 0, "no pair of different states with the same view was built"


@pytest.mark.parametrize("players", PLAYERS)
def test_structs_are_canonical(players: int) -> None:
    """A state reached by play, once its dict is read (which takes the deal's deferred
    shuffle steps), and the same state loaded from its dict are the same bytes at every step:
    the cached masks (M-6, M-7, M-13), the pile's ring buffer (M-9: its bottom moves with the
    exchanges of the history), the free hand and pile slots; ``reset`` over a finished game
    gives the bytes of ``new_state``."""
    game = mousehole.load("m", players=players, engine="compiled")
    for g in range(scale(3)):
        for state in _states(game, 3 + g):
            # the core's own read (``to_dict`` reads a clone, so that another thread cannot
            # tear it, and leaves the state's pending shuffle steps pending)
            loaded = game.state_from_dict(state._to_dict())
            assert _cgame(state).same_struct(_cgame(loaded)), len(state.history)
        end = _cgame(state)
        end.reset(3 + g)
        assert end.same_struct(_cgame(game.new_state(3 + g)))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_deferred_shuffle_deals_the_reference_game(players: int) -> None:
    """M-3 to M-5 and the M-9/M-10 draws: the compiled deal leaves the shuffle's steps for
    the pile's undrawn bottom until a card is drawn from there or the dict is read. Played
    with no dict read in between, a compiled game is the reference engine's game: the same
    legal actions at every step, and at the end the same dict (pile order, removed cards,
    generator). Reading the dict mid-game (the rest of the steps taken at once) changes
    nothing that follows."""
    # (the core's own dict read, ``_to_dict``, settles a state; ``to_dict`` reads a clone)
    game = mousehole.load("m", players=players, engine="compiled")
    python = mousehole.load("m", players=players, engine="python")
    for g in range(scale(4)):
        seed = 40 + 13 * g + players
        fresh = game.new_state(seed)
        settled = fresh.clone()
        loaded = game.state_from_dict(settled._to_dict())
        # the deferral is real: the fresh struct has steps left, the settled one none
        assert not _cgame(fresh).same_struct(_cgame(loaded))
        assert _cgame(settled).same_struct(_cgame(loaded))
        s, ref, rng = fresh, python.new_state(seed), Rng(seed + 5)
        early = None
        while not ref.is_terminal():
            legal = s.legal_actions().tolist()
            assert legal == ref.legal_actions().tolist(), len(ref.history)
            a = legal[rng.below(len(legal))]
            s.apply_action(a)
            ref.apply_action(a)
            if len(ref.history) == 9:
                early = s.clone()
                early._to_dict()  # settles the clone here: the rest of the game must not change
        assert s.is_terminal()
        assert s._to_dict() == ref.to_dict()
        assert early is not None
        for a in ref.history[9:]:
            early.apply_action(a)
        assert early._to_dict() == ref.to_dict()
        assert _cgame(early).same_struct(_cgame(s))


@pytest.mark.parametrize("players", PLAYERS)
def test_rollout_plays_the_action_model_of_simulate(players: int) -> None:
    """From any state (mid-game, in a scoring, loaded from a dict), ``rollout(policy)`` ends
    where stepping through the Python API ends when each action is the one at index
    ``below(n)`` of the ``n`` legal actions, drawn from ``Rng(policy)``."""
    game = mousehole.load("m", players=players, engine="compiled")
    phases = set()
    for i, state in enumerate(_states(game, 5)):
        if i % 6 or state.is_terminal():
            continue
        phases.add(state.to_dict()["phase"])
        for start in (state, game.state_from_dict(state.to_dict())):
            c = _cgame(start)
            c.rollout(900 + i)
            s = start.clone()
            rng = Rng(900 + i)
            while not s.is_terminal():
                legal = s.legal_actions()
                s.apply_action(int(legal[rng.below(len(legal))]))
            assert c.same_struct(_cgame(s)), i
            assert c.returns() == s.returns()
    assert "play" in phases


def test_returns_at_a_truncated_end() -> None:
    """``returns`` of the interface equals ``state.returns()`` at every step of games cut by
    max_turns (M-20 and M-21 on the cards taken so far), and is all 0 before the end."""
    game = mousehole.load("m", players=4, max_turns=40, engine="compiled")
    seen = set()
    for seed in range(scale(20)):
        for state in _states(game, seed):
            c = _cgame(state)
            assert c.returns() == state.returns()
            if state.is_terminal():
                assert state.truncated == (state.to_dict()["end"] == "max_turns")
                seen.add(tuple(state.returns()))
            else:
                assert c.returns() == [0.0] * 4
    assert len(seen) > 1  # several outcomes, not one constant


@pytest.mark.parametrize("players", PLAYERS)
def test_max_legal_bounds_the_legal_actions(players: int) -> None:
    """``max_legal`` (64 cells per hand slot, the pass and the exchanges: M-6, M-9) bounds
    the legal actions of every phase, and is below the action space."""
    game = mousehole.load("m", players=players, engine="compiled")
    d = _cgame(game.new_state(0)).dims()
    assert d["max_legal"] == 65 * game.hand_size + 1 < game.num_actions
    most = 0
    for seed in range(scale(10)):
        for state in _states(game, seed):
            most = max(most, len(state.legal_actions()))
    assert 0 < most <= d["max_legal"]


def test_determinize_reads_seeds_and_seats_as_the_reference() -> None:
    """Seeds are taken modulo 2**64 whatever their type; bad seats and seeds raise the
    reference's errors and change nothing."""
    game = mousehole.load("m", players=4, engine="compiled")
    state = list(_states(game, 5))[30]
    before = state.to_dict()
    for seed in (-1, 2**64 + 5, 2**70 - 3, np.uint64(2**63 + 1), np.int64(-3), np.int32(9), 0):
        expected = _python_determinization(game, state, 2, seed)
        assert state.determinize(2, seed).to_dict() == expected.to_dict(), seed
        assert state.determinize(np.int64(2), seed).to_dict() == expected.to_dict(), seed
    for bad_seat, error in ((4, ValueError), (-1, ValueError), ("1", TypeError), (1.0, TypeError)):
        with pytest.raises(error, match="player"):
            state.determinize(bad_seat, 0)
    for bad_seed in (True, "3", 2.5, None):
        with pytest.raises(TypeError, match="seed"):
            state.determinize(0, bad_seed)
    assert state.to_dict() == before


def test_interface_capsules_and_call_fast_paths() -> None:
    """``_c_game``/``_c_state`` name this game's interface and this state's struct; an action
    given as numpy int64 (what ``legal_actions`` holds) plays as the same int; M has no chance
    node (every random event is at setup, M-3 .. M-5); clones keep the seed of new_state,
    states loaded from a dict have none."""
    game = mousehole.load("m", players=3, engine="compiled")
    a, b = game.new_state(8), game.new_state(8)
    c = _cgame(a)
    assert c.name == "m"
    assert c.size == _cgame(b).size
    assert a.seed == 8 and a.clone().seed == 8
    assert game.state_from_dict(a.to_dict()).seed is None
    rng = Rng(2)
    while not a.is_terminal():
        assert a.is_chance_node() is False
        assert c.chance() == []
        legal = a.legal_actions()
        x = legal[rng.below(len(legal))]
        a.apply_action(x)  # numpy int64
        b.apply_action(int(x))
        c.apply(int(x))
        assert a.to_dict() == b.to_dict()
    assert a.is_chance_node() is False
    assert c.same_struct(_cgame(a))
    with pytest.raises(mousehole.IllegalMoveError):
        a.apply_action(np.int64(0))


def _played_pairs(players: int) -> Iterator[Tuple[Any, Any]]:
    compiled = mousehole.load("m", players=players, engine="compiled")
    python = mousehole.load("m", players=players, engine="python")
    for state in _states(compiled, 21):
        yield state, python.state_from_dict(state.to_dict())


@pytest.mark.parametrize("players", PLAYERS)
def test_cached_masks_give_the_reference_legal_actions(players: int) -> None:
    """The legal actions and mask, read from the masks cached in the struct (M-6, M-7, M-9,
    M-12, M-13), equal the reference's at every step, through the Python API and through the
    interface."""
    for c, r in _played_pairs(players):
        la, lr = c.legal_actions(), r.legal_actions()
        assert la.dtype == np.int64 and la.flags.c_contiguous
        np.testing.assert_array_equal(la, lr)
        np.testing.assert_array_equal(c.legal_action_mask(), r.legal_action_mask())
        assert _cgame(c).legal() == [int(a) for a in lr]
