"""Cheese Rescue's C-level interface (``mh_game_t``) and its compiled determinization.

What the generic conformance test (test_cinterface.py) cannot check for this game:

* the C determinization (``determinize`` of the interface, and the compiled
  ``state.determinize``) equals, struct for struct, the reference path: the Python
  ``CheeseRescue._determinize`` of seat p's view, loaded into the compiled engine; and equals
  the reference engine's state dict for dict;
* CR-15: it keeps everything p may see (table, history, own hand, the cheese in every hand,
  every hand's size, the pile's size), deals only animals that are hidden from p, changes
  what p cannot see, and depends on p's view alone (two different full states with the same
  view give byte-equal determinizations);
* structs are byte-canonical: a state reached by play and the same state loaded from its
  dict are the same bytes (unused pile and history slots are zero), so that search can copy
  and compare structs;
* ``returns`` of the interface at a truncated end (max_turns), and the bound ``max_legal``;
* seeds and seats are read as the reference reads them (negative, huge and numpy seeds).
"""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Tuple

import numpy as np
import pytest

import mousehole
from mousehole._rng import Rng

pytestmark = pytest.mark.differential  # needs both engines (deselected without the compiled one)

PLAYERS = [2, 3, 4]


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


def _reference_determinization(game: Any, state: Any, p: int, seed: int) -> Any:
    """The Python path: ``CheeseRescue._determinize`` of p's view, validated and loaded into
    ``game``'s engine (what ``StateAPI.determinize`` does on the reference engine)."""
    return game.determinize_view(state.to_dict(for_player=p), seed)


def _animals(d: Dict[str, Any]) -> List[int]:
    """Dogs, cats, mice anywhere: table, hands and pile (CR-1, CR-4)."""
    return [d["table"].count(2 + k) + sum(h[k] for h in d["hands"]) + d["pile"].count(k) for k in range(3)]


@pytest.mark.parametrize("players", PLAYERS)
def test_c_determinize_is_the_python_determinization_of_the_view(players: int) -> None:
    """CR-15: the interface's determinize, the compiled ``state.determinize`` and the Python
    ``_determinize`` of the view (on both engines) give the same state, byte for byte."""
    game = mousehole.load("cheese_rescue", players=players, engine="compiled")
    python = mousehole.load("cheese_rescue", players=players, engine="python")
    checked = 0
    for i, state in enumerate(_states(game, 40 + players)):
        if i % 3:
            continue
        for p in range(players):
            seed = 1000 * i + p
            c = _cgame(state)
            c.determinize(p, seed)
            via_python = _reference_determinization(game, state, p, seed)
            assert c.same_struct(_cgame(via_python)), (i, p)
            assert c.same_struct(_cgame(state.determinize(p, seed))), (i, p)
            ref = _reference_determinization(python, python.state_from_dict(state.to_dict()), p, seed)
            assert ref.to_dict() == via_python.to_dict()
            checked += 1
    assert checked >= players * 8


@pytest.mark.parametrize("players", PLAYERS)
def test_determinize_keeps_what_the_seat_sees_and_redeals_the_rest(players: int) -> None:
    """CR-15: p's view is unchanged (table, history, own hand, cheese in every hand, hand
    sizes, pile size), every animal is still somewhere exactly once (CR-1, CR-4), the other
    seats' animals and the pile are re-dealt (they differ for some seeds), the generator is
    re-seeded, and the original state is left alone."""
    game = mousehole.load("cheese_rescue", players=players, engine="compiled")
    state = list(_states(game, 7))[players * 3]  # some turns in: hands and pile hold animals
    before = state.to_dict()
    totals = _animals(before)
    for p in range(players):
        view = state.to_dict(for_player=p)
        hidden_seen = set()
        for seed in range(40):
            det = state.determinize(p, seed)
            d = det.to_dict()
            assert det.to_dict(for_player=p) == view
            assert d["table"] == before["table"] and d["history"] == before["history"]
            assert d["hands"][p] == before["hands"][p]
            assert _animals(d) == totals
            assert d["rng"] != before["rng"]
            assert game.state_from_dict(d).to_dict() == d  # a valid, playable state
            hidden_seen.add(repr(([h[:3] for q, h in enumerate(d["hands"]) if q != p], d["pile"])))
        assert len(hidden_seen) > 1, "determinize never changed what the seat cannot see"
    assert state.to_dict() == before


@pytest.mark.parametrize("players", PLAYERS)
def test_c_determinize_depends_on_the_view_only(players: int) -> None:
    """Two different full states with the same view for p (the second dealt from p's view)
    give byte-equal C determinizations for every seed."""
    game = mousehole.load("cheese_rescue", players=players, engine="compiled")
    differed = 0
    for i, state in enumerate(_states(game, 11)):
        if i % 4 or state.is_terminal():
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
    """A state reached by play, the same state loaded from its dict and a fresh reset are
    the same bytes: unused pile slots (drawn cards) and history slots are zero."""
    game = mousehole.load("cheese_rescue", players=players, engine="compiled")
    for state in _states(game, 3):
        loaded = game.state_from_dict(state.to_dict())
        assert _cgame(state).same_struct(_cgame(loaded))
    end = _cgame(state)
    end.reset(3)  # reset over a finished game: its history and pile are cleared
    assert end.same_struct(_cgame(game.new_state(3)))


def test_returns_at_a_truncated_end() -> None:
    """``returns`` of the interface equals ``state.returns()`` when max_turns ends the game
    before the square is full (CR-13 on the table as it is), and before the end (all 0)."""
    game = mousehole.load("cheese_rescue", players=4, max_turns=9, engine="compiled")
    seen = set()
    for seed in range(30):
        for state in _states(game, seed):
            c = _cgame(state)
            assert c.returns() == state.returns()
            if state.is_terminal():
                assert state.truncated
                seen.add(tuple(state.returns()))
    assert len(seen) > 1  # several outcomes, not one constant


@pytest.mark.parametrize("players", PLAYERS)
def test_max_legal_bounds_the_legal_cells(players: int) -> None:
    """CR-7/CR-8: the legal cells lie in the bounding box of the table or on one of its
    sides while that side is shorter than N: at most N * N + 2N cells, which ``dims`` uses."""
    game = mousehole.load("cheese_rescue", players=players, engine="compiled")
    d = _cgame(game.new_state(0)).dims()
    bound = min(game.square_size * game.square_size + 2 * game.square_size, game.num_cells)
    assert d["max_legal"] == game.num_kinds * bound
    most = 0
    for seed in range(20):
        for state in _states(game, seed):
            most = max(most, len(state.legal_cells()))
    assert 0 < most <= bound


def test_determinize_reads_seeds_and_seats_as_the_reference() -> None:
    """Seeds are taken modulo 2**64 whatever their type; bad seats and seeds raise the
    reference's errors and change nothing."""
    game = mousehole.load("cheese_rescue", players=4, engine="compiled")
    state = list(_states(game, 5))[10]
    before = state.to_dict()
    for seed in (-1, 2**64 + 5, 2**70 - 3, np.uint64(2**63 + 1), np.int64(-3), np.int32(9), 0):
        expected = _reference_determinization(game, state, 2, seed)
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
    """``_c_game``/``_c_state`` name this game's interface and this state's struct; an
    action given as numpy int64 (what ``legal_actions`` holds) plays as the same int; Cheese
    Rescue has no chance node."""
    game = mousehole.load("cheese_rescue", players=3, engine="compiled")
    a, b = game.new_state(8), game.new_state(8)
    c = _cgame(a)
    assert c.name == "cheese_rescue"
    assert c.size == _cgame(b).size
    rng = Rng(2)
    while not a.is_terminal():
        assert a.is_chance_node() is False
        legal = a.legal_actions()
        x = legal[rng.below(len(legal))]
        a.apply_action(x)  # numpy int64
        b.apply_action(int(x))
        assert a.to_dict() == b.to_dict()
    assert a.is_chance_node() is False
    with pytest.raises(mousehole.IllegalMoveError):
        a.apply_action(np.int64(0))


def _played_pairs(players: int) -> Iterator[Tuple[Any, Any]]:
    compiled = mousehole.load("cheese_rescue", players=players, engine="compiled")
    python = mousehole.load("cheese_rescue", players=players, engine="python")
    for state in _states(compiled, 21):
        yield state, python.state_from_dict(state.to_dict())


@pytest.mark.parametrize("players", PLAYERS)
def test_legal_actions_match_the_reference(players: int) -> None:
    """The compiled ``legal_actions`` (written straight into the array) equals the
    reference's at every step: sorted, kind-major, only kinds held (CR-7, CR-8)."""
    for c, r in _played_pairs(players):
        la, lr = c.legal_actions(), r.legal_actions()
        assert la.dtype == np.int64 and la.flags.c_contiguous and la.flags.owndata
        np.testing.assert_array_equal(la, lr)
