"""Maus au Chocolat through its C-level interface (``mh_game_t``): what the generic
conformance test (test_cinterface.py) cannot check for this game.

* The C determinization (MC-26) is, byte for byte, the struct that the Python
  determinization of the seat's view loads into, in every phase: face-down bids (MC-7,
  MC-27) and reshuffled pools (MC-6) included, and with every unused slot as ``from_dict``
  leaves it.
* It depends on the view only: two states with the same view for a seat (the second a
  determinization of the first, so different hidden cards) give equal structs.
* It keeps what the seat knows and re-deals what it cannot see.
* ``reset`` on a struct that has played a whole game gives ``new_state``'s struct.
* ``max_legal`` bounds the densest combination steps (nine cards of three candy values,
  every helper, MC-10 .. MC-23).
* ``state.determinize`` (computed in C) completes the history as the Python
  determinization does (this round's hidden bids, hidden combinations).
* The fast paths of the compiled core agree with its listing of the legal actions: the
  combination count and the decoding of one combination that ``simulate`` uses (MC-29, every
  helper, random hands of 4 .. 9 cards, default and unusual decks), and the legality test of
  ``apply_action`` (every action id, every state of random games).
"""

from __future__ import annotations

from typing import Any, Iterator, List, Tuple

import pytest

import mousehole
from gamecases import scale
from mousehole._rng import Rng

pytestmark = pytest.mark.compiled  # deselected (and said) when the compiled engine is not built

NAME = "maus_au_chocolat"


def cgame(state: Any) -> Any:
    from mousehole._cgame import CGame

    return CGame(state)


def walk(game: Any, seed: int) -> Iterator[Tuple[int, Any]]:
    """(step, state) through a seeded random game (the same object, advanced)."""
    s = game.new_state(seed)
    rng = Rng(seed + 77)
    i = 0
    while not s.is_terminal():
        yield i, s
        legal = s.legal_actions()
        s.apply_action(int(legal[rng.below(len(legal))]))
        i += 1


def hidden_bids(d: Any, p: int) -> List[int]:
    """Seats whose bid seat p cannot see (MC-7: face down until all are in)."""
    return [q for q in range(len(d["bids"])) if q != p and d["phase"] == "bid" and d["bids"][q] >= 0]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_mc26_c_determinization_is_the_python_one_struct_for_struct(players: int) -> None:
    """MC-26, MC-6, MC-7: ``determinize`` through the interface equals the struct of
    ``game.determinize_view(view, seed)`` (the Python determinization, loaded by
    ``from_dict``) byte for byte, also with face-down bids and after reshuffles (a higher
    target makes the games of few players long enough to reshuffle)."""
    game = mousehole.load(NAME, players=players, target=80 if players < 4 else 30, engine="compiled")
    checked = with_bids = with_pools = 0
    for g in range(scale(3)):
        for i, state in walk(game, 300 + g):
            if i % 4:
                continue
            d = state.to_dict()
            for p in range(players):
                seed = 1000 * g + 10 * i + p
                c = cgame(state)
                c.determinize(p, seed)
                expected = game.determinize_view(state.to_dict(for_player=p), seed)
                assert c.same_struct(cgame(expected)), (g, i, p)
                checked += 1
                with_bids += bool(hidden_bids(d, p))
                with_pools += max(d["pools"]) > 0
    assert checked > 0 and with_bids > 0 and with_pools > 0


@pytest.mark.parametrize("players", [2, 4, 6])
def test_mc26_c_determinization_depends_on_the_view_only(players: int) -> None:
    """Two states that seat p cannot tell apart (the second re-deals what p cannot see)
    give the same C determinization, though their hidden cards differ."""
    game = mousehole.load(NAME, players=players, engine="compiled")
    differed = 0
    for i, state in walk(game, 41):
        if i % 5:
            continue
        for p in range(players):
            other = state.determinize(p, 9000 + i)
            assert other.to_dict(for_player=p) == state.to_dict(for_player=p)
            differed += other.to_dict() != state.to_dict()
            a, b = cgame(state), cgame(other)
            a.determinize(p, i)
            b.determinize(p, i)
            assert a.same_struct(b), (i, p)
    assert differed > 0


def test_mc26_c_determinization_keeps_what_the_seat_knows_and_redeals_the_rest() -> None:
    """What p sees stays: its hand, the display, the discards, the victory cards, every
    seat's known cards, the hand sizes, the pools. Across seeds the others' unseen cards,
    their face-down bids and the pile change."""
    game = mousehole.load(NAME, players=4, engine="compiled")
    redealt_hands = redealt_bids = redealt_pile = 0
    for i, state in walk(game, 5):
        if i % 3:
            continue
        d = state.to_dict()
        for p in range(4):
            dets = [state.determinize(p, s).to_dict() for s in range(4)]
            for e in dets:
                for key in ("display", "discard", "vp", "known", "pools", "helpers", "row", "order", "phase"):
                    assert e[key] == d[key], key
                assert e["hands"][p] == d["hands"][p]
                assert [len(h) for h in e["hands"]] == [len(h) for h in d["hands"]]
                assert len(e["pile"]) == len(d["pile"])
                for q in range(4):
                    assert set(d["known"][q]) <= set(e["hands"][q]) | {e["bids"][q]}
                    if q == p or q not in hidden_bids(d, p):
                        assert e["bids"][q] == d["bids"][q]
            redealt_hands += len({str([e["hands"][q] for q in range(4) if q != p]) for e in dets}) > 1
            redealt_bids += len({str(e["bids"]) for e in dets}) > 1
            redealt_pile += len({str(e["pile"]) for e in dets}) > 1
    assert redealt_hands > 0 and redealt_bids > 0 and redealt_pile > 0


def test_mc27_determinize_completes_the_history_like_the_python_one() -> None:
    """In the bid phase the others' bids of this round are hidden in the history (MC-27)
    and every combination is hidden (its slots tell the order of a hidden hand): the C path
    writes the drawn bids and the first pattern there, as the Python path does."""
    game = mousehole.load(NAME, players=3, engine="compiled")
    checked = 0
    for i, state in walk(game, 17):
        d = state.to_dict()
        for p in range(3):
            if not hidden_bids(d, p):
                continue
            det = state.determinize(p, i)
            ref = game.determinize_view(state.to_dict(for_player=p), i)
            assert det.history == ref.history
            assert det.to_dict() == ref.to_dict()
            checked += 1
    assert checked > 0


def test_reset_of_a_used_struct_is_new_state() -> None:
    """``reset`` on a struct that played a whole game (stale hand, pile, row and order
    slots) gives exactly ``new_state(seed)``'s struct (MC-3, MC-4)."""
    for players in (2, 5):
        game = mousehole.load(NAME, players=players, engine="compiled")
        state = game.new_state(3)
        for _ in walk(game, 3):
            pass
        c = cgame(state)
        c.rollout(12)
        assert c.current() < -1  # over
        c.reset(21)
        assert c.same_struct(cgame(game.new_state(21)))


def _combine_state(game: Any, hand: List[int], helper: int) -> Any:
    """A combine-phase state where seat 0, to move, holds ``hand`` and ``helper``."""
    n = game.num_players
    rest = [c for c in range(80) if c not in hand]
    helpers = [helper] + [h for h in range(7) if h != helper][: n - 1]
    order = sorted(range(n), key=lambda q: helpers[q])
    d = game.new_state(0).to_dict()
    d.update(
        round=1,
        phase="combine",
        pile=rest[4 * (n - 1) + n + 1 :],
        display=sorted(rest[4 * (n - 1) : 4 * (n - 1) + n + 1]),
        discard=[],
        hands=[sorted(hand)] + [sorted(rest[4 * q : 4 * q + 4]) for q in range(n - 1)],
        known=[[] for _ in range(n)],
        bids=[-1] * n,
        vp=[[] for _ in range(n)],
        helpers=helpers,
        row=[h for h in range(7) if h not in helpers],
        order=order,
        turn=order.index(0),
        picks_left=0,
        etienne_used=False,
        history=[],
        truncated=False,
    )
    return game.state_from_dict(d)


def test_max_legal_bounds_the_densest_combination_steps() -> None:
    """MC-10 .. MC-23: nine cards of candy values 4, 5, 6 (three each, mixed colours) give
    the most combinations; with every helper, the legal actions stay within ``max_legal``."""
    game = mousehole.load(NAME, players=2, engine="compiled")
    cards = game.cards
    want = {4: 3, 5: 3, 6: 3}
    hand = []
    for c in range(80):
        if want.get(cards[c][1], 0) > 0:
            want[cards[c][1]] -= 1
            hand.append(c)
    bound = cgame(game.new_state(0)).dims()["max_legal"]
    most = 0
    for helper in range(7):
        state = _combine_state(game, hand, helper)
        c = cgame(state)
        legal = c.legal()
        assert legal == [int(a) for a in state.legal_actions()]
        most = max(most, len(legal))
    assert 50 < most <= bound < game.num_actions


def _decks() -> List[Any]:
    """The default cards, a deck with every candy value 1 .. 12 (the ends of the value range),
    and a dense two-colour deck of values 5 .. 8 (many sets, four of a kind, one-colour runs)."""
    rng = Rng(5)
    wide = [[rng.below(5), 1 + rng.below(12), rng.below(21)] for _ in range(80)]
    dense = [[rng.below(2), 5 + rng.below(4), rng.below(21)] for _ in range(80)]
    return [None, wide, dense]


@pytest.mark.parametrize("deck", [0, 1, 2])
def test_mc29_combination_count_and_decoding_match_the_listing(deck: int) -> None:
    """MC-10 .. MC-23, MC-29: simulate counts a hand's combinations by candy value and decodes
    only the one it draws; for every helper, the count equals the number of listed
    combination actions and the k-th decoded one is the k-th listed."""
    from mousehole._maus_au_chocolat import _selfcheck_combos

    cards = _decks()[deck]
    game = mousehole.load(NAME, engine="compiled", **({} if cards is None else {"cards": cards}))
    rounds = scale(3000)
    assert _selfcheck_combos(game.new_state(0), 17 + deck, rounds) == rounds


@pytest.mark.parametrize("players", [2, 4, 6])
def test_apply_action_legality_test_matches_the_listing(players: int) -> None:
    """MC-7, MC-9, MC-14, MC-16, MC-10 .. MC-23: ``apply_action`` decides legality without
    listing; at every state of random games (two decks) it accepts exactly the listed actions."""
    from mousehole._maus_au_chocolat import _selfcheck_legal

    checked = 0
    for deck in (None, _decks()[2]):
        game = mousehole.load(NAME, players=players, engine="compiled", **({} if deck is None else {"cards": deck}))
        for g in range(scale(2)):
            for _, state in walk(game, 60 + g):
                assert _selfcheck_legal(state) == len(state.legal_actions())
                checked += 1
    assert checked > 0
