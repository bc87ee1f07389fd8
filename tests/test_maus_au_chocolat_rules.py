"""Maus au Chocolat: one test (at least) per rule id MC-1 .. MC-30, on both engines.

After the rules, in sections of their own (``# -- notation``, ``# -- observation``, ``# -- the C
game interface``): the cases only this game has of its notation, its observation planes and its
core's ``mh_game_t``, hand-built positions with their expected strings, planes and values
(what every game has is checked by the generic suites over the registry)."""

from __future__ import annotations

import itertools
from typing import Any, Dict, FrozenSet, Iterator, List, Optional, Sequence, Set, Tuple

import numpy as np
import pytest

import mousehole
from gamecases import cgame, scale
from mousehole import TERMINAL, IllegalMoveError, ParameterError, StateError
from mousehole._rng import Rng, derive
from mousehole.maus_au_chocolat import (
    AMELIE,
    BID,
    CLAUDE,
    COMBINE,
    DECLINE,
    DISCARD,
    ETIENNE,
    HENRI,
    LILLY,
    MATHIEU,
    MAURICE,
    NUM_ACTIONS,
    NUM_CARDS,
    PATTERNS,
    PICK,
    SWAP,
    MCBid,
    MCCombine,
    MCDecline,
    MCPick,
    MCSwap,
    default_cards,
    parse_move,
)

CARDS = default_cards()
ING = {"eggs": 0, "fruit": 1, "nuts": 2, "chocolate": 3, "sugar": 4}


def cid(ing: str, candy: int, coin: Optional[int] = None, nth: int = 0) -> int:
    """The id of a DEFAULT card by ingredient, candy value and coin value (or the nth)."""
    found = [i for i, c in enumerate(CARDS) if c[0] == ING[ing] and c[1] == candy and (coin is None or c[2] == coin)]
    return found[nth]


def load(engine: str, **kw: Any) -> Any:
    return mousehole.load("maus_au_chocolat", engine=engine, **kw)


def arrange(
    game: Any,
    hands: Dict[int, List[int]],
    *,
    phase: str = "combine",
    helpers: Optional[List[int]] = None,
    display: Optional[List[int]] = None,
    discard: Optional[List[int]] = None,
    vp: Optional[Dict[int, List[int]]] = None,
    pile: Optional[List[int]] = None,
    seat: int = 0,
    etienne_used: bool = False,
    rng: int = 12345,
) -> Any:
    """A state built from a position. Seats not in ``hands`` get 4 spare cards; cards not
    placed anywhere form the draw pile (unless ``pile`` is given; the rest is then
    discarded). In the combine and discard phases (MC-14), ``seat`` is the seat to play."""
    n = game.num_players
    helpers = helpers if helpers is not None else list(range(n))
    vp = vp or {}
    used: Set[int] = set()
    for xs in list(hands.values()) + list(vp.values()) + [display or [], discard or [], pile or []]:
        used |= set(xs)
    free = [c for c in range(80) if c not in used]
    full_hands = []
    for q in range(n):
        if q in hands:
            full_hands.append(sorted(hands[q]))
        else:
            full_hands.append(sorted(free[-4:]))
            del free[-4:]
    if display is None:
        display = free[-(n + 1) :]
        del free[-(n + 1) :]
    disc = list(discard or [])
    if pile is None:
        pile = free
    else:
        disc += free
    d = game.new_state(0).to_dict()
    order: List[int] = []
    turn = 0
    if phase in ("combine", "discard"):
        order = sorted(range(n), key=lambda q: helpers[q])
        turn = order.index(seat)
    d.update(
        round=1,
        phase=phase,
        pile=list(pile),
        display=sorted(display),
        discard=sorted(disc),
        hands=full_hands,
        known=[[] for _ in range(n)],
        pools=[0] * 80,
        bids=[-1] * n,
        vp=[sorted(vp.get(q, [])) for q in range(n)],
        helpers=list(helpers),
        row=[h for h in range(7) if h not in helpers],
        order=order,
        turn=turn,
        picks_left=0,
        etienne_used=etienne_used,
        rng=rng,
        history=[],
        truncated=False,
    )
    return game.state_from_dict(d)


def outcomes(state: Any, cards: Sequence[int]) -> Set[FrozenSet[int]]:
    """The kept-card sets of the legal combination actions laying exactly ``cards``."""
    hand = state.to_dict()["hands"][state.current_player]
    out = set()
    for m in state.legal_moves():
        if isinstance(m, MCCombine) and {hand[i] for i in m.slots} == set(cards):
            out.add(frozenset(hand[i] for i in m.keep))
    return out


def combine(state: Any, cards: Sequence[int], keep: Sequence[int]) -> None:
    hand = state.to_dict()["hands"][state.current_player]
    state.apply(MCCombine(tuple(sorted(hand.index(c) for c in cards)), tuple(sorted(hand.index(c) for c in keep))))


def bid_all(state: Any, cards: Sequence[int]) -> None:
    state.apply_joint([BID + c for c in cards])


# ---- components ------------------------------------------------------------------------


def test_mc1_cards_and_default_coin_table() -> None:
    """MC-1: 80 cards, 16 per ingredient, candy 3x3,3x4,4x5,3x6,3x7, coins by the formula."""
    assert len(CARDS) == 80
    for ing in range(5):
        mine = [c for c in CARDS if c[0] == ing]
        assert len(mine) == 16
        assert sorted(c[1] for c in mine) == [3] * 3 + [4] * 3 + [5] * 4 + [6] * 3 + [7] * 3
    coins = lambda ing, v: [c[2] for c in CARDS if c[0] == ING[ing] and c[1] == v]  # noqa: E731
    # rows of the spec table
    assert [coins("eggs", v) for v in (3, 4, 5, 6, 7)] == [[1, 2, 3], [4, 5, 6], [1, 2, 3, 4], [5, 6, 1], [2, 3, 4]]
    assert [coins("fruit", v) for v in (3, 4, 5, 6, 7)] == [[2, 3, 4], [5, 6, 7], [2, 3, 4, 5], [6, 7, 2], [3, 4, 5]]
    assert [coins("nuts", v) for v in (3, 4, 5, 6, 7)] == [[3, 4, 5], [6, 7, 8], [3, 4, 5, 6], [7, 8, 3], [4, 5, 6]]
    assert coins("chocolate", 6) == [7, 8, 3]
    assert [coins("sugar", v) for v in (3, 4, 5, 6, 7)] == [[1, 2, 3], [4, 1, 2], [3, 4, 1, 2], [3, 4, 1], [2, 3, 4]]


def test_mc1_cards_parameter_is_validated(engine: str) -> None:
    """MC-1: the DEFAULT table may be overridden, but only by 80 valid cards."""
    with pytest.raises(ParameterError, match="MC-1"):
        load(engine, cards=CARDS[:79])
    with pytest.raises(ParameterError, match="MC-1"):
        load(engine, cards=CARDS[:79] + [[5, 3, 1]])
    g = load(engine, cards=[[c[0], c[1], 1] for c in CARDS])
    assert g.params["cards"][0] == [0, 3, 1]


def test_mc2_helper_ranks_order_the_combination_step(engine: str) -> None:
    """MC-2: Etienne 7 > Henri 6 > Mathieu 5 > Maurice 4 > Lilly 3 > Amélie 2 > Claude 1;
    the combination step (MC-10) follows that order."""
    g = load(engine, players=6)
    helpers = [CLAUDE, LILLY, ETIENNE, AMELIE, MATHIEU, HENRI]
    s = arrange(g, {}, helpers=helpers, seat=2)
    seen = []
    while s.to_dict()["round"] == 1 and not s.is_terminal():
        seen.append(s.current_player)
        s.apply(MCDecline())
    assert seen == [2, 5, 4, 1, 3, 0]  # Etienne, Henri, Mathieu, Lilly, Amélie, Claude


# ---- setup -------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_mc3_setup_deals_five_and_lays_n_plus_one(engine: str, players: int) -> None:
    """MC-3: 5 hidden cards each, n + 1 face up, the rest is the draw pile."""
    g = load(engine, players=players)
    d = g.new_state(seed=players).to_dict()
    assert [len(h) for h in d["hands"]] == [5] * players
    assert len(d["display"]) == players + 1
    assert len(d["pile"]) == 80 - 5 * players - players - 1
    assert d["discard"] == [] and d["phase"] == "bid" and d["round"] == 1
    other = g.new_state(seed=players + 100).to_dict()
    assert other["pile"] != d["pile"], "the cards are shuffled"


@pytest.mark.parametrize("players", [2, 4, 6])
def test_mc4_helpers_dealt_and_row(engine: str, players: int) -> None:
    """MC-4: each player one helper at random; the other 7 - n lie in the row."""
    g = load(engine, players=players)
    seen = set()
    for seed in range(12):
        d = g.new_state(seed=seed).to_dict()
        assert len(d["helpers"]) == players and len(d["row"]) == 7 - players
        assert sorted(d["helpers"] + d["row"]) == list(range(7))
        seen.add(tuple(d["helpers"]))
    assert len(seen) > 1, "helpers are dealt at random"


# ---- a round -----------------------------------------------------------------------------


def play_round_declining(s: Any) -> None:
    """Finish the current round: bid the lowest card, pick the lowest cards, decline, and
    discard the lowest cards."""
    r = s.to_dict()["round"]
    while not s.is_terminal() and s.to_dict()["round"] == r:
        legal = [a for a in s.legal_actions() if not SWAP <= a < DECLINE]
        s.apply_action(int(legal[0]))


def test_mc5_refill_to_n_plus_one(engine: str) -> None:
    """MC-5: from round 2, n cards join the one left over: the display holds n + 1."""
    g = load(engine, players=4)
    s = g.new_state(seed=3)
    play_round_declining(s)
    d = s.to_dict()
    assert d["round"] == 2 and len(d["display"]) == 5


def test_mc6_reshuffle_of_the_discards(engine: str) -> None:
    """MC-6: the empty pile is replaced by the shuffled discard pile; with both empty fewer
    cards are laid."""
    g = load(engine, players=2)
    hands = {
        0: [cid("eggs", 3, 1), cid("eggs", 4, 4), cid("nuts", 6, 7)],
        1: [cid("fruit", 3, 2), cid("sugar", 5, 3), cid("nuts", 7, 4)],
    }
    pile = [cid("sugar", 7, 2)]  # one card: the refill needs two
    s = arrange(g, hands, helpers=[HENRI, MATHIEU], display=[cid("eggs", 7, 2)], pile=pile, seat=0)
    discard_before = s.to_dict()["discard"]
    assert len(discard_before) > 60
    s.apply(MCDecline())
    s.apply(MCDecline())
    d = s.to_dict()
    assert d["round"] == 2
    assert len(d["display"]) == 3  # 1 left + the pile's last card + one from the reshuffle
    assert cid("sugar", 7, 2) in d["display"]
    assert d["discard"] == [], "the discards became the new pile"
    assert len(d["pile"]) == len(discard_before) - 1
    assert d["pile"] != sorted(d["pile"]), "the new pile is shuffled"
    # MC-26: everyone knows which cards the new pile holds: they form pool 1
    assert all(d["pools"][c] == 1 for c in d["pile"])
    assert all(d["pools"][c] == 0 for c in range(80) if c not in d["pile"]), "the card turned up left its pool"
    assert s.to_dict(for_player=1)["unseen_pools"] == [[0] * 3, [0] * 3]
    # both piles empty: fewer cards are laid
    # (seat 0 holds every other card as victory points: a high target lets the game go on)
    g3b = load(engine, players=3, target=1000)
    vp_cards = [c for c in range(80) if c not in (0, 1, 2, 3, 4, 5, 6)]
    s = arrange(
        g3b, {0: [0, 1], 1: [2, 3], 2: [4, 5]}, helpers=[0, 1, 2], display=[6], pile=[], vp={0: vp_cards}, seat=0
    )
    for _ in range(3):
        s.apply(MCDecline())
    d = s.to_dict()
    assert d["round"] == 2 and d["display"] == [6] and d["pile"] == []


def test_mc7_bids_are_hidden_until_all_are_in(engine: str) -> None:
    """MC-7: each seat lays one hand card face down; all are revealed at once."""
    g = load(engine, players=3)
    s = g.new_state(seed=11)
    d = s.to_dict()
    c0 = d["hands"][0][0]
    s.apply_action(BID + c0)
    d = s.to_dict()
    assert c0 not in d["hands"][0] and d["bids"][0] == c0
    assert s.current_player == 1 and d["phase"] == "bid"
    for p in (1, 2):
        view = s.to_dict(for_player=p)
        assert view["bids"][0] is None and view["committed"][0]
        assert BID + c0 not in view["history"]
        assert s.observation(p)[240:320].sum() == 0  # own-bid plane: nothing yet
    assert s.to_dict(for_player=0)["bids"][0] == c0
    s.apply_action(BID + d["hands"][1][0])
    s.apply_action(BID + d["hands"][2][0])
    d = s.to_dict()
    assert d["phase"] == "pick"
    view = s.to_dict(for_player=1)
    assert view["bids"][0] == c0, "revealed to all"
    with pytest.raises(IllegalMoveError, match="MC-7"):
        g.new_state(seed=11).apply_action(BID + d["display"][0])


def test_mc8_order_rule_text_example(engine: str) -> None:
    """MC-8: bids of 3, 5, 5 and 7 coins; the 5s are ordered by helpers 5 (Mathieu) and 3
    (Lilly): D picks first, then B (Mathieu), then C (Lilly), then A."""
    g = load(engine, players=4)
    bids = [cid("eggs", 3, 3), cid("eggs", 4, 5), cid("fruit", 4, 5), cid("fruit", 4, 7)]
    assert [CARDS[c][2] for c in bids] == [3, 5, 5, 7]
    hands = {q: [bids[q], cid("sugar", 3 + q, None, 0)] for q in range(4)}
    s = arrange(g, hands, phase="bid", helpers=[CLAUDE, MATHIEU, LILLY, AMELIE])
    bid_all(s, bids)
    d = s.to_dict()
    assert d["order"] == [3, 1, 2, 0]
    assert s.current_player == 3
    # the same bids with B and C's helpers swapped put C before B
    s = arrange(g, hands, phase="bid", helpers=[CLAUDE, LILLY, MATHIEU, AMELIE])
    bid_all(s, bids)
    assert s.to_dict()["order"] == [3, 2, 1, 0]


def test_mc9_picks_and_bid_cards_join_the_display(engine: str) -> None:
    """MC-9: in order each takes two display cards, then adds the bid card, which the
    players after may take; the last bid card stays for the next round."""
    g = load(engine, players=3)
    bids = [cid("eggs", 3, 1), cid("nuts", 4, 8), cid("fruit", 5, 4)]  # coins 1, 8, 4
    hands = {q: [bids[q], cid("sugar", 3 + q, None, 1)] for q in range(3)}
    s = arrange(g, hands, phase="bid", helpers=[CLAUDE, MATHIEU, LILLY])
    display = s.to_dict()["display"]
    bid_all(s, bids)
    assert s.to_dict()["order"] == [1, 2, 0]
    assert s.current_player == 1 and s.to_dict()["picks_left"] == 2
    assert set(a - PICK for a in s.legal_actions()) == set(display)
    s.apply_action(PICK + display[0])
    assert s.current_player == 1 and s.to_dict()["picks_left"] == 1
    s.apply_action(PICK + display[1])
    d = s.to_dict()
    assert bids[1] in d["display"] and d["bids"][1] == -1 and s.current_player == 2
    assert {display[0], display[1]} <= set(d["hands"][1])
    s.apply_action(PICK + bids[1])  # seat 2 takes seat 1's bid card
    assert bids[1] in s.to_dict()["hands"][2]
    s.apply_action(PICK + display[2])
    s.apply_action(PICK + bids[2])
    s.apply_action(PICK + display[3])
    d = s.to_dict()
    assert d["display"] == [bids[0]], "the last bid card stays"
    assert d["phase"] == "combine"
    with pytest.raises(IllegalMoveError, match="MC-"):
        s.apply_action(PICK + bids[0])


def test_mc10_one_run_or_set_of_three_or_decline(engine: str) -> None:
    """MC-10: one combination of three consecutive or equal candy values, or decline."""
    g = load(engine, players=2)
    run = [cid("eggs", 4), cid("fruit", 5), cid("nuts", 6)]
    bad = [cid("eggs", 3), cid("fruit", 5, None, 1), cid("nuts", 7)]
    s = arrange(g, {0: run + bad + [cid("sugar", 3)]}, helpers=[HENRI, CLAUDE], seat=0)
    assert outcomes(s, run) and not outcomes(s, bad)
    assert DECLINE in s.legal_actions()
    assert not outcomes(s, [cid("eggs", 4), cid("fruit", 5), cid("nuts", 7)])
    combine(s, run, [cid("eggs", 4)])
    assert s.current_player == 1, "one combination per round"
    s2 = arrange(g, {0: bad + [cid("sugar", 3)]}, helpers=[HENRI, CLAUDE], seat=0)
    with pytest.raises(IllegalMoveError, match="MC-10"):
        s2.apply_action(COMBINE + PATTERNS.index(((0, 1, 2), (0,))))


def test_mc11_combination_refused_when_it_would_empty_the_hand(engine: str) -> None:
    """MC-11: after laying a combination the player must still hold a card."""
    g = load(engine, players=2)
    run = [cid("eggs", 4), cid("fruit", 5), cid("nuts", 6)]
    s = arrange(g, {0: run}, helpers=[HENRI, ETIENNE], seat=0)
    assert not outcomes(s, run)
    assert list(s.legal_actions()) == [DECLINE]
    with pytest.raises(IllegalMoveError, match="MC-11"):
        s.apply_action(COMBINE + PATTERNS.index(((0, 1, 2), (0,))))
    s = arrange(g, {0: run + [cid("sugar", 3)]}, helpers=[HENRI, ETIENNE], seat=0)
    assert outcomes(s, run) == {frozenset([cid("eggs", 4)])}


@pytest.mark.parametrize(
    "row,cards,kept",
    [
        ("run, not all one colour", [("eggs", 4), ("fruit", 5), ("nuts", 6)], [("eggs", 4)]),
        ("run, all one colour", [("nuts", 4), ("nuts", 5), ("nuts", 6)], [("nuts", 6)]),
        ("set, not all one colour", [("eggs", 5), ("fruit", 5), ("nuts", 5)], 1),
        ("set, all one colour", [("nuts", 5, 0), ("nuts", 5, 1), ("nuts", 5, 2)], 2),
    ],
)
def test_mc12_scoring_table(engine: str, row: str, cards: List[Any], kept: Any) -> None:
    """MC-12: every row of the table (with a helper that changes nothing: Henri). A run keeps
    the card the table names; a set keeps ``kept`` cards of the player's choice (the default
    reading of ``kept_card``, MC-23: every choice is legal)."""
    g = load(engine, players=2)
    ids = [cid(c[0], c[1], None, c[2] if len(c) > 2 else 0) for c in cards]
    s = arrange(g, {0: ids + [cid("sugar", 3)]}, helpers=[HENRI, ETIENNE], seat=0)
    outs = outcomes(s, ids)
    if isinstance(kept, int):
        assert outs == {frozenset(k) for k in itertools.combinations(ids, kept)}, row
    else:
        assert outs == {frozenset(cid(c[0], c[1]) for c in kept)}, row
    keep = min(outs, key=sorted)
    combine(s, ids, sorted(keep))
    d = s.to_dict()
    assert d["vp"][0] == sorted(keep)
    assert set(ids) - set(keep) <= set(d["discard"]), "the others go face up to the discard pile"
    assert d["hands"][0] == [cid("sugar", 3)]


def test_mc13_victory_points_are_printed_candy_values(engine: str) -> None:
    """MC-13: a seat's score is the sum of the printed candy values of its kept cards."""
    g = load(engine, players=2)
    vp = [cid("eggs", 7), cid("nuts", 5), cid("sugar", 3, 2)]
    s = arrange(g, {}, helpers=[HENRI, ETIENNE], vp={1: vp}, seat=0)
    assert s.scores() == [0, 15]
    assert s.observation(1)[5 * 80 + vp[0]] == 1.0  # own victory-card plane


def test_mc14_hand_limit_after_the_combination_step(engine: str) -> None:
    """MC-14: more than 8 cards after one's combination step: discard down to 8."""
    g = load(engine, players=2)
    hand = (
        [cid("eggs", 3, None, i) for i in range(3)]
        + [cid("fruit", 3, None, i) for i in range(3)]
        + [cid("nuts", 7, None, i) for i in range(3)]
    )
    s = arrange(g, {0: hand}, helpers=[HENRI, CLAUDE], seat=0)
    s.apply(MCDecline())
    assert s.current_player == 0 and s.to_dict()["phase"] == "discard"
    assert sorted(s.legal_actions()) == [DISCARD + c for c in hand]
    with pytest.raises(IllegalMoveError, match="MC-"):
        s.apply_action(DECLINE)
    s.apply_action(DISCARD + hand[4])
    d = s.to_dict()
    assert len(d["hands"][0]) == 8 and hand[4] in d["discard"]
    assert s.current_player == 1 and d["phase"] == "combine"
    # with a combination first, 9 - 3 = 6 cards: no discard
    s = arrange(g, {0: hand}, helpers=[HENRI, CLAUDE], seat=0)
    combine(s, hand[:3], hand[:2])  # a one-colour set keeps two
    assert s.current_player == 1 and s.to_dict()["phase"] == "combine"


@pytest.mark.parametrize("players", [2, 3, 5])
def test_mc15_helpers_are_passed_left_through_the_row(engine: str, players: int) -> None:
    """MC-15: each seat passes to the left (seat q -> q + 1); seat 0 puts its helper at the
    right end of the row; seat 1 takes the leftmost card of the row."""
    g = load(engine, players=players)
    s = g.new_state(seed=5 + players)
    before = s.to_dict()
    play_round_declining(s)
    after = s.to_dict()
    h, row = before["helpers"], before["row"]
    assert after["row"] == row[1:] + [h[0]]
    assert after["helpers"][1] == row[0]
    assert after["helpers"][0] == h[players - 1]
    for q in range(2, players):
        assert after["helpers"][q] == h[q - 1]


# ---- the helpers -------------------------------------------------------------------------


def test_mc16_etienne_swaps_once_per_round_at_any_decision(engine: str) -> None:
    """MC-16: before bidding, a pick or the combination step the holder may discard a card
    face up and draw the top of the pile; once per round."""
    g = load(engine, players=2)
    for step in ("bid", "pick", "combine"):
        s = g.new_state(seed=21)
        d = s.to_dict()
        if d["helpers"][0] != ETIENNE:
            other = d["helpers"][1] if d["helpers"][1] != ETIENNE else HENRI
            d["row"] = [h for h in range(7) if h not in (ETIENNE, other)]
            d["helpers"] = [ETIENNE, other]
            s = g.state_from_dict(d)
        while s.to_dict()["phase"] != step or s.current_player != 0:
            legal = [a for a in s.legal_actions() if not SWAP <= a < DECLINE]
            s.apply_action(int(legal[0]))
        d = s.to_dict()
        hand = d["hands"][0]
        assert [a for a in s.legal_actions() if SWAP <= a < DECLINE] == [SWAP + c for c in hand]
        top = d["pile"][-1]
        s.apply_action(SWAP + hand[0])
        d2 = s.to_dict()
        assert hand[0] in d2["discard"] and top in d2["hands"][0] and hand[0] not in d2["hands"][0]
        assert len(d2["hands"][0]) == len(hand) and d2["etienne_used"]
        assert s.current_player == 0 and d2["phase"] == step, "the same decision follows"
        assert not any(SWAP <= a < DECLINE for a in s.legal_actions()), "once per round"
        with pytest.raises(IllegalMoveError, match="MC-16"):
            s.apply_action(SWAP + d2["hands"][0][0])
    s = g.new_state(seed=21)
    not_etienne = next(q for q in range(2) if s.to_dict()["helpers"][q] != ETIENNE)
    while s.current_player != not_etienne:
        s.apply_action(int(s.legal_actions()[0]))
    with pytest.raises(IllegalMoveError, match="MC-16"):
        s.apply_action(SWAP + s.to_dict()["hands"][not_etienne][0])


def test_mc17_henri_adds_two_coins(engine: str) -> None:
    """MC-17 / MC-8: Henri's +2 puts a 5-coin bid before a 6-coin bid (and wins a tie of
    7 against a lower rank... here against Etienne, who outranks him)."""
    g = load(engine, players=3)
    bids = [cid("eggs", 4, 5), cid("eggs", 4, 6), cid("sugar", 3, 1)]
    hands = {q: [bids[q], cid("sugar", 7, None, q)] for q in range(3)}
    s = arrange(g, hands, phase="bid", helpers=[HENRI, LILLY, CLAUDE])
    bid_all(s, bids)
    assert s.to_dict()["order"] == [0, 1, 2]  # 5 + 2 = 7 > 6
    s = arrange(g, hands, phase="bid", helpers=[LILLY, HENRI, CLAUDE])
    bid_all(s, bids)
    assert s.to_dict()["order"] == [1, 0, 2]
    bids2 = [cid("eggs", 4, 5), cid("fruit", 4, 7), cid("sugar", 3, 1)]
    hands2 = {q: [bids2[q], cid("sugar", 7, None, q)] for q in range(3)}
    s = arrange(g, hands2, phase="bid", helpers=[HENRI, ETIENNE, CLAUDE])
    bid_all(s, bids2)
    assert s.to_dict()["order"] == [1, 0, 2]  # 7 = 7: Etienne (7) outranks Henri (6)


def test_mc18_mathieu_counts_one_card_one_lower(engine: str) -> None:
    """MC-18: with Mathieu, 4-6-6 becomes the run 4-5-6; without, it is nothing."""
    g = load(engine, players=2)
    cards = [cid("eggs", 4), cid("fruit", 6), cid("nuts", 6)]
    s = arrange(g, {0: cards + [cid("sugar", 3)]}, helpers=[MATHIEU, ETIENNE], seat=0)
    assert outcomes(s, cards) == {frozenset([cid("eggs", 4)])}  # mixed run: the lowest
    s = arrange(g, {0: cards + [cid("sugar", 3)]}, helpers=[MAURICE, ETIENNE], seat=0)
    assert outcomes(s, cards) == set()
    s = arrange(g, {0: cards + [cid("sugar", 3)]}, helpers=[HENRI, ETIENNE], seat=0)
    assert outcomes(s, cards) == set()


def test_mc19_maurice_counts_one_card_one_higher(engine: str) -> None:
    """MC-19: with Maurice, 4-4-6 becomes 4-5-6 (the Dutch "decreased" is read as
    increased, MC-30); with Mathieu it is nothing."""
    g = load(engine, players=2)
    cards = [cid("eggs", 4), cid("fruit", 4), cid("nuts", 6)]
    s = arrange(g, {0: cards + [cid("sugar", 3)]}, helpers=[MAURICE, ETIENNE], seat=0)
    # either 4 may be raised to 5: the other 4 is kept (lowest of a mixed run)
    assert outcomes(s, cards) == {frozenset([cid("eggs", 4)]), frozenset([cid("fruit", 4)])}
    s = arrange(g, {0: cards + [cid("sugar", 3)]}, helpers=[MATHIEU, ETIENNE], seat=0)
    assert outcomes(s, cards) == set()


def test_mc20_lilly_keeps_the_highest_of_a_mixed_run(engine: str) -> None:
    """MC-20: a mixed run is scored like a one-colour run with Lilly."""
    g = load(engine, players=2)
    cards = [cid("eggs", 4), cid("fruit", 5), cid("nuts", 6)]
    s = arrange(g, {0: cards + [cid("sugar", 3)]}, helpers=[LILLY, ETIENNE], seat=0)
    assert outcomes(s, cards) == {frozenset([cid("nuts", 6)])}
    hand = s.to_dict()["hands"][0]
    m = MCCombine(tuple(hand.index(c) for c in sorted(cards)), (hand.index(cid("nuts", 6)),))
    assert s.describe(m) == "seat 0 combines eggs4/4c fruit5/2c nuts6/7c, keeps nuts6/7c"
    combine(s, cards, [cid("nuts", 6)])
    assert s.scores()[0] == 6


@pytest.mark.parametrize(
    "cards,kept",
    [
        ([("nuts", 4), ("nuts", 5), ("nuts", 6), ("nuts", 7)], [("nuts", 7), ("nuts", 4)]),  # one-colour run
        ([("eggs", 3), ("fruit", 4), ("nuts", 5), ("sugar", 6)], [("eggs", 3), ("fruit", 4)]),  # mixed run
        ([("eggs", 5), ("fruit", 5), ("nuts", 5), ("sugar", 5)], 2),  # mixed set of four
        ([("nuts", 5, 0), ("nuts", 5, 1), ("nuts", 5, 2), ("nuts", 5, 3)], 3),  # one-colour set of four
    ],
)
def test_mc21_amelie_examples(engine: str, cards: List[Any], kept: Any) -> None:
    """MC-21: Amélie's four-card combinations keep one more card: the lowest still there (a
    run); among four equal values the player chooses (the default of ``kept_card``, MC-23)."""
    g = load(engine, players=2)
    ids = [cid(c[0], c[1], None, c[2] if len(c) > 2 else 0) for c in cards]
    hand = ids + [cid("chocolate", 3)]
    s = arrange(g, {0: hand}, helpers=[AMELIE, ETIENNE], seat=0)
    outs = outcomes(s, ids)
    if isinstance(kept, int):
        assert outs == {frozenset(k) for k in itertools.combinations(ids, kept)}
    else:
        assert outs == {frozenset(cid(c[0], c[1]) for c in kept)}
    keep = min(outs, key=sorted)
    combine(s, ids, sorted(keep))
    assert s.to_dict()["vp"][0] == sorted(keep)
    # without Amélie four cards are not a combination
    s = arrange(g, {0: hand}, helpers=[HENRI, ETIENNE], seat=0)
    assert not outcomes(s, ids)
    with pytest.raises(IllegalMoveError, match="MC-21"):
        s.apply_action(COMBINE + PATTERNS.index(((0, 1, 2, 3), (0, 1))))
    # Amélie's holder may still lay three
    s = arrange(g, {0: hand}, helpers=[AMELIE, ETIENNE], seat=0)
    assert outcomes(s, ids[:3])


def test_mc22_claude_changes_one_colour(engine: str) -> None:
    """MC-22: Claude makes 4(nuts) 5(nuts) 6(eggs) a one-colour run (keep the highest),
    and may also leave it mixed (keep the lowest)."""
    g = load(engine, players=2)
    cards = [cid("nuts", 4), cid("nuts", 5), cid("eggs", 6)]
    s = arrange(g, {0: cards + [cid("sugar", 3)]}, helpers=[CLAUDE, ETIENNE], seat=0)
    assert outcomes(s, cards) == {frozenset([cid("eggs", 6)]), frozenset([cid("nuts", 4)])}
    s = arrange(g, {0: cards + [cid("sugar", 3)]}, helpers=[HENRI, ETIENNE], seat=0)
    assert outcomes(s, cards) == {frozenset([cid("nuts", 4)])}
    # three colours: Claude cannot make one colour of them
    three = [cid("nuts", 4), cid("fruit", 5), cid("eggs", 6)]
    s = arrange(g, {0: three + [cid("sugar", 3)]}, helpers=[CLAUDE, ETIENNE], seat=0)
    assert outcomes(s, three) == {frozenset([cid("nuts", 4)])}


def test_mc23_modified_values_decide_printed_values_score(engine: str) -> None:
    """MC-23 under ``kept_card="highest_printed"`` (the engine keeps a set's highest printed
    cards; the default, the player's choice, is in test_maus_au_chocolat_readings.py):
    Mathieu makes 5-5-6 a mixed set of 5s (lower the 6: the kept card is the highest
    printed, the 6, and it scores its printed 6) or the run 4-5-6 (lower a 5: the lowest, the
    lowered 5, is kept)."""
    g = load(engine, players=2, kept_card="highest_printed")
    cards = [cid("eggs", 5), cid("fruit", 5), cid("nuts", 6)]
    s = arrange(g, {0: cards + [cid("sugar", 3)]}, helpers=[MATHIEU, ETIENNE], seat=0)
    assert outcomes(s, cards) == {
        frozenset([cid("nuts", 6)]),
        frozenset([cid("eggs", 5)]),
        frozenset([cid("fruit", 5)]),
    }
    combine(s, cards, [cid("nuts", 6)])
    assert s.scores()[0] == 6
    # Maurice: 6-7-7 of nuts: raise the 6 -> a one-colour set of 7s (keep two 7s), or
    # raise a 7 -> the one-colour run 6-7-8 (keep the highest: the raised 7)
    one = [cid("nuts", 6), cid("nuts", 7, None, 0), cid("nuts", 7, None, 1)]
    s = arrange(g, {0: one + [cid("sugar", 3)]}, helpers=[MAURICE, ETIENNE], seat=0)
    assert outcomes(s, one) == {frozenset(one[1:]), frozenset(one[1:2]), frozenset(one[2:])}
    # Maurice on 5-6-6 (mixed): raise the 5 -> set of 6s keeps the highest printed (a 6),
    # or raise a 6 -> run 5-6-7 keeps the lowest (the 5)
    mixed = [cid("eggs", 5), cid("fruit", 6), cid("nuts", 6)]
    s = arrange(g, {0: mixed + [cid("sugar", 3)]}, helpers=[MAURICE, ETIENNE], seat=0)
    assert outcomes(s, mixed) == {frozenset([cid("fruit", 6)]), frozenset([cid("eggs", 5)])}
    combine(s, mixed, [cid("eggs", 5)])
    assert s.scores()[0] == 5


# ---- end of the game ---------------------------------------------------------------------


def test_mc24_the_round_is_finished_after_30_points(engine: str) -> None:
    """MC-24: reaching 30 ends the game with that round; later seats still combine."""
    g = load(engine, players=3)
    vp0 = [cid("eggs", 7, None, i) for i in range(3)] + [cid("fruit", 7, None, i) for i in range(1)]  # 28
    run = [cid("nuts", 4), cid("nuts", 5), cid("nuts", 6)]
    s = arrange(g, {0: run + [cid("sugar", 3)]}, helpers=[ETIENNE, HENRI, CLAUDE], vp={0: vp0}, seat=0)
    assert s.scores()[0] == 28
    combine(s, run, [cid("nuts", 6)])
    assert s.scores()[0] == 34 and not s.is_terminal()
    assert s.current_player == 1, "later seats still take their combination step"
    s.apply(MCDecline())
    s.apply(MCDecline())
    assert s.is_terminal() and s.current_player == TERMINAL and not s.truncated
    assert s.winners() == [0]
    with pytest.raises(IllegalMoveError, match="MC-24"):
        s.apply_action(DECLINE)
    # below the target the game goes on
    s = arrange(g, {0: run + [cid("sugar", 3)]}, helpers=[ETIENNE, HENRI, CLAUDE], vp={0: vp0[:3]}, seat=0)
    combine(s, run, [cid("nuts", 6)])
    s.apply(MCDecline())
    s.apply(MCDecline())
    assert not s.is_terminal() and s.to_dict()["round"] == 2


def test_mc25_tie_break_by_helper_rank(engine: str) -> None:
    """MC-25: most points wins; a tie goes to the higher helper held at the end."""
    g = load(engine, players=3)
    vp1 = [cid("eggs", 7, None, i) for i in range(3)] + [cid("fruit", 7, None, 0)]  # 28
    vp2 = [cid("nuts", 7, None, i) for i in range(3)] + [cid("chocolate", 7, None, 0)]  # 28
    # seats 1 and 2 each lay a mixed run 3-4-5 and keep the 3: both reach 31
    lay = {
        1: [cid("fruit", 3), cid("sugar", 4), cid("nuts", 5)],
        2: [cid("chocolate", 3), cid("eggs", 4), cid("fruit", 5)],
    }
    hands = {1: lay[1] + [cid("sugar", 6)], 2: lay[2] + [cid("eggs", 6)]}

    def play_out(s: Any) -> None:
        while not s.is_terminal():
            q = s.current_player
            if q == 0:
                s.apply(MCDecline())
            else:
                combine(s, lay[q], [lay[q][0]])

    s = arrange(g, hands, helpers=[ETIENNE, CLAUDE, MAURICE], vp={1: vp1, 2: vp2}, seat=0)
    play_out(s)
    assert s.is_terminal() and s.scores()[1] == s.scores()[2] == 31
    assert s.winners() == [2], "Maurice (4) outranks Claude (1)"
    assert s.returns() == [-1.0, -1.0, 1.0]
    s = arrange(g, hands, helpers=[ETIENNE, MAURICE, CLAUDE], vp={1: vp1, 2: vp2}, seat=0)
    play_out(s)
    assert s.scores()[1] == s.scores()[2] == 31
    assert s.winners() == [1]


def test_max_turns_truncates_runaway_games(engine: str) -> None:
    """max_turns (rounds): a game where everyone always declines is truncated."""
    g = load(engine, players=4, max_turns=5)
    s = g.new_state(seed=2)
    while not s.is_terminal():
        legal = [a for a in s.legal_actions() if a < COMBINE and not SWAP <= a < DECLINE]
        s.apply_action(int(legal[0]))
    assert s.truncated and s.to_dict()["round"] == 5 and s.winners()


# ---- what each player sees ---------------------------------------------------------------


def test_mc26_hidden_information(engine: str) -> None:
    """MC-26: others' hands, unrevealed bids, the pile order and the generator are hidden;
    determinize keeps what the seat has seen."""
    g = load(engine, players=4)
    s = g.new_state(seed=8)
    s.apply_action(BID + s.to_dict()["hands"][0][0])
    for _ in range(3):
        s.apply_action(int(s.legal_actions()[0]))
    s.apply_action(int(s.legal_actions()[0]))  # a pick: now public knowledge
    full = s.to_dict()
    picker = full["order"][0]
    p = (picker + 1) % 4
    view = s.to_dict(for_player=p)
    assert view["pile"] is None and view["rng"] is None and view["pile_size"] == len(full["pile"])
    assert all(view["hands"][q] is None for q in range(4) if q != p)
    assert view["hand_sizes"] == [len(h) for h in full["hands"]]
    assert view["known"][picker] == full["known"][picker] and len(full["known"][picker]) == 1
    for seed in range(5):
        det = s.determinize(p, seed)
        dd = det.to_dict()
        assert dd["hands"][p] == full["hands"][p]
        assert dd["display"] == full["display"] and dd["discard"] == full["discard"] and dd["vp"] == full["vp"]
        assert dd["bids"] == full["bids"], "revealed bids are kept"
        assert set(full["known"][picker]) <= set(dd["hands"][picker]), "seen picks stay in the picker's hand"
        assert [len(h) for h in dd["hands"]] == [len(h) for h in full["hands"]]
        assert det.to_dict(for_player=p) == view
    assert any(s.determinize(p, seed).to_dict()["hands"] != full["hands"] for seed in range(5))
    # unrevealed bids are re-dealt by determinize
    s = g.new_state(seed=9)
    s.apply_action(int(s.legal_actions()[0]))
    s.apply_action(int(s.legal_actions()[0]))
    bid0 = s.to_dict()["bids"][0]
    assert any(s.determinize(2, seed).to_dict()["bids"][0] != bid0 for seed in range(6))
    assert all(s.determinize(0, seed).to_dict()["bids"][0] == bid0 for seed in range(3))
    # combination actions name hand slots (the card order of a hidden hand): views hide them
    s = g.new_state(seed=10)
    while not any(a >= COMBINE for a in s.history):
        legal = s.legal_actions()
        s.apply_action(int(legal[-1]))
    view = s.to_dict(for_player=1)
    assert all(a is None or a < COMBINE for a in view["history"])
    assert len(view["history"]) == len(s.history)
    det = s.determinize(1, 3)
    for a, b in zip(det.history, s.history):
        if b >= COMBINE:
            assert a == COMBINE, "a hidden combination becomes the first pattern"
        else:
            assert a == b or b < PICK


def test_mc27_sequential_and_joint_bids_give_the_same_game(engine: str) -> None:
    """MC-27: bids committed one seat at a time (current_player = the next seat to commit)
    and state.apply_joint(actions) give the same game."""
    for players in (2, 4, 6):
        g = load(engine, players=players)
        for seed in range(3):
            a, b = g.new_state(seed=seed), g.new_state(seed=seed)
            for _ in range(4):  # a few rounds
                if a.is_terminal():
                    break
                joint = []
                for q in range(players):
                    assert a.current_player == q and a.to_dict()["phase"] == "bid"
                    bid = [x for x in a.legal_actions() if x < PICK][-1]
                    joint.append(int(bid))
                    a.apply_action(int(bid))
                b.apply_joint(joint)
                assert a.to_dict() == b.to_dict()
                play_round_declining(a)
                play_round_declining(b)
                assert a.to_dict() == b.to_dict()
    g = load(engine, players=3)
    s = g.new_state(seed=1)
    before = s.to_dict()
    with pytest.raises(IllegalMoveError, match="MC-7"):
        s.apply_joint([BID + before["hands"][0][0], BID + before["hands"][0][1], BID + before["hands"][2][0]])
    assert s.to_dict() == before, "a rejected joint action leaves the state unchanged"
    with pytest.raises(ValueError, match="MC-27"):
        s.apply_joint([BID + before["hands"][0][0]])
    s.apply_action(BID + before["hands"][0][0])
    with pytest.raises(IllegalMoveError, match="MC-27"):
        s.apply_joint([BID + h[0] for h in before["hands"]])
    # Etienne's holder may swap inside its joint entry
    d = before
    e = d["helpers"].index(ETIENNE) if ETIENNE in d["helpers"] else None
    if e is not None:
        s = g.new_state(seed=1)
        entries: List[Any] = [BID + h[0] for h in d["hands"]]
        entries[e] = [SWAP + d["hands"][e][-1], BID + d["hands"][e][0]]
        s.apply_joint(entries)
        assert s.to_dict()["phase"] == "pick"


def test_mc28_card_conservation_on_every_step(engine: str) -> None:
    """MC-28: pile + display + hands + bids + victory cards + discards hold the 80 cards."""
    from mousehole._rng import Rng

    for players in (2, 4, 6):
        g = load(engine, players=players)
        for seed in range(3):
            s = g.new_state(seed=seed)
            rng = Rng(seed + 50)
            while not s.is_terminal():
                d = s.to_dict()
                allc = (
                    d["pile"]
                    + d["display"]
                    + d["discard"]
                    + [b for b in d["bids"] if b >= 0]
                    + sum(d["hands"], [])
                    + sum(d["vp"], [])
                )
                assert sorted(allc) == list(range(80))
                legal = s.legal_actions()
                s.apply_action(int(legal[rng.below(len(legal))]))
    s = g.new_state(seed=0)
    d = s.to_dict()
    d["pile"] = d["pile"][:-1]
    with pytest.raises(StateError, match="MC-28"):
        g.state_from_dict(d)


def test_mc29_combination_search_matches_the_reference(engine: str) -> None:
    """MC-29: the (compiled) combination search gives exactly the reference's actions on
    random hands of 4 to 9 cards with every helper."""
    from mousehole._rng import Rng
    from mousehole.maus_au_chocolat import combination_actions

    g = load(engine, players=2)
    rng = Rng(29)
    for trial in range(150):
        size = 4 + trial % 6
        deck = list(range(80))
        rng.shuffle(deck)
        hand = sorted(deck[:size])
        helper = trial % 7
        others = [h for h in range(7) if h != helper]
        s = arrange(g, {0: hand}, helpers=[helper, others[0]], seat=0)
        got = [int(a) for a in s.legal_actions() if a > DECLINE]
        assert got == combination_actions(hand, CARDS, helper)
    # a 9-card hand of 3-4-5s has many combinations, each once
    hand = sorted(
        [cid("eggs", 3, None, i) for i in range(3)]
        + [cid("eggs", 4, None, i) for i in range(3)]
        + [cid("eggs", 5, None, i) for i in range(3)]
    )
    s = arrange(g, {0: hand}, helpers=[MATHIEU, ETIENNE], seat=0)
    acts = [int(a) for a in s.legal_actions() if a > DECLINE]
    assert len(acts) == len(set(acts)) > 20


def test_mc30_sets_allowed_as_in_the_german_text(engine: str) -> None:
    """MC-30: the German text (sets and runs) is followed, not the Dutch "only runs"."""
    g = load(engine, players=2)
    triple = [cid("eggs", 6), cid("fruit", 6), cid("sugar", 6)]
    s = arrange(g, {0: triple + [cid("sugar", 3)]}, helpers=[HENRI, ETIENNE], seat=0)
    assert outcomes(s, triple) == {frozenset([c]) for c in triple}  # (the player's choice: MC-23)


# ---- moves, encoding, errors -------------------------------------------------------------


def test_moves_round_trip_and_errors(engine: str) -> None:
    g = load(engine)
    assert g.num_actions == 2085 and len(PATTERNS) == 1764
    for a in (0, 79, 80, 165, 250, DECLINE, COMBINE, g.num_actions - 1):
        m = g.action_to_move(a)
        assert g.move_to_action(m) == a
        assert type(m).from_str(str(m)) == m
    assert str(MCBid(17)) == "bid 17 (fruit3/3c)"
    with pytest.raises(IllegalMoveError):
        g.move_to_action(MCCombine((0, 1), (0,)))
    with pytest.raises(TypeError):
        g.move_to_action("bid 3")  # type: ignore[arg-type]
    s = g.new_state(seed=0)
    with pytest.raises(IllegalMoveError, match="MC-7"):
        s.apply_action(PICK + s.to_dict()["display"][0])
    assert "round 1" in str(s)
    assert np.asarray(s.observation(0)).shape == g.observation_shape


# -- notation ----------------------------------------------------------------------------------
#
# Maus au Chocolat: moves a person can read and type.
#
# * ``game.parse_move(str(move)) == move`` for every action of the action space;
# * ``state.describe(a)`` writes a legal action with card names and ``state.parse_action``
#   reads it back (and ``str(move)`` too), over whole games on both engines;
# * bad text raises ``ValueError`` naming the notation; a move that is not legal here raises
#   ``IllegalMoveError`` naming the rule.


def load_game(engine: str, players: int = 4, **kw: Any) -> Any:
    return mousehole.load("maus_au_chocolat", engine=engine, players=players, **kw)


def test_every_action_round_trips_through_its_str(engine: str) -> None:
    g = load_game(engine)
    for a in range(g.num_actions):
        m = g.action_to_move(a)
        assert g.parse_move(str(m)) == m, a
        assert parse_move(str(m)) == m
        assert type(m).from_str(str(m)) == m
        assert g.move_to_action(g.parse_move(str(m))) == a


def test_card_moves_by_name() -> None:
    g = load_game("python")
    for c in range(80):
        name = g.card_name(c)
        assert g.card_token(c) == name, "DEFAULT card names are unique"
        assert g.parse_move(f"pick {name}") == MCPick(c)
        assert g.parse_move(f"Bid {name.upper()}") == MCBid(c)
        assert g.parse_move(f"swap {name}#{c}") == MCSwap(c)
    assert g.parse_move("  decline ") == MCDecline()
    assert g.parse_move("combine 0, 2, 5 keep 5") == MCCombine((0, 2, 5), (5,))


@pytest.mark.parametrize(
    "text",
    [
        "",
        "bid",
        "bid 17 18",
        "bid 80",
        "bid -1",
        "bid fruit9/3c",
        "pick fruit3/3c#18",
        "bid 17 (eggs3/1c)",
        "decline now",
        "combine 0,1,2",
        "combine eggs3/1c keep eggs3/1c",
        "seat",
        "play 3",
        "17",
        # digits of other scripts: str.isdigit() is true of them, int() refuses "²" and reads "٣" as 3
        "combine \u00b2 keep 1",
        "bid \u0663",
        "bid 17 (\u00b2)",
        "pick fruit3/3c#\u00b2",
        "combine 0 keep \u0661",
    ],
)
def test_bad_text_raises_value_error_naming_the_notation(text: str) -> None:
    g = load_game("python")
    with pytest.raises(ValueError) as e:
        g.parse_move(text)
    assert not isinstance(e.value, IllegalMoveError)
    assert str(e.value) and "invalid literal" not in str(e.value)
    with pytest.raises(TypeError):
        g.parse_move(17)  # type: ignore[arg-type]


def _games(engine: str) -> Any:
    for players in (2, 4, 6):
        g = load_game(engine, players)
        for seed in range(scale(2)):
            yield g, seed


def test_a_whole_game_written_with_describe_reads_back(engine: str) -> None:
    """Every action of random games, written with describe and with str(move), is read
    back by parse_action as the same action; the written game replays to the same end."""
    kinds = set()
    for g, seed in _games(engine):
        s = g.new_state(seed=seed)
        rng = Rng(seed + 40)
        written: List[str] = []
        while not s.is_terminal():
            legal = s.legal_actions()
            a = int(legal[rng.below(len(legal))])
            text = s.describe(a)
            assert text.startswith(f"seat {s.current_player} ")
            assert s.parse_action(text) == a
            assert s.parse_action(text.split(" ", 2)[2]) == a, "the seat part is optional"
            assert s.parse_action(str(g.action_to_move(a))) == a
            kinds.add(type(g.action_to_move(a)).__name__)
            written.append(text)
            s.apply_action(a)
        replay = g.new_state(seed=seed)
        for text in written:
            replay.apply_action(replay.parse_action(text))
        assert replay == s
    assert kinds == {"MCBid", "MCPick", "MCSwap", "MCDecline", "MCCombine"}  # discards: test_discards_read_back


def test_describe_examples_and_combinations_by_name(engine: str) -> None:
    g = load_game(engine, players=2)
    s = g.new_state(seed=3)
    hand = s.to_dict()["hands"][0]
    assert s.describe(BID + hand[0]) == f"seat 0 bids {g.card_name(hand[0])}"
    assert s.describe(MCBid(hand[0])) == s.describe(BID + hand[0])
    assert s.parse_action(f"bid {g.card_name(hand[0])}") == BID + hand[0]
    # play to a combination step with a combination on offer, then type it by card names
    rng = Rng(5)
    while not any(a > DECLINE for a in s.legal_actions()):
        legal = s.legal_actions()
        s.apply_action(int(legal[rng.below(len(legal))]))
    p = s.current_player
    hand = s.to_dict()["hands"][p]
    for a in [int(x) for x in s.legal_actions() if x > DECLINE]:
        m = g.action_to_move(a)
        laid = " ".join(g.card_name(hand[i]) for i in reversed(m.slots))  # any order
        kept = " ".join(g.card_name(hand[i]) for i in m.keep)
        assert s.parse_action(f"combine {laid} keep {kept}") == a
        assert (
            s.describe(a) == f"seat {p} combines " + " ".join(g.card_name(hand[i]) for i in m.slots) + ", keeps " + kept
        )
    assert s.describe(DECLINE) == f"seat {p} declines"


def test_parse_action_refuses_what_is_not_legal_here(engine: str) -> None:
    g = load_game(engine, players=3)
    s = g.new_state(seed=4)
    d = s.to_dict()
    before = s.to_dict()
    other = d["hands"][1][0]
    with pytest.raises(IllegalMoveError, match="MC-7"):
        s.parse_action(f"bid {g.card_name(other)}")  # seat 1's card
    with pytest.raises(IllegalMoveError, match="seat 1"):
        s.parse_action(f"seat 1 bids {g.card_name(other)}")  # not seat 1's turn
    with pytest.raises(IllegalMoveError):
        s.parse_action("decline")
    with pytest.raises(IllegalMoveError, match="MC-7"):
        s.parse_action(f"pick {g.card_name(d['display'][0])}")
    with pytest.raises(ValueError):
        s.parse_action("seat x bids 3")
    with pytest.raises(ValueError):
        s.parse_action("hello")
    with pytest.raises(ValueError, match="'seat' is followed by the seat number"):
        s.parse_action("seat \u0660 bids 3")  # an Arabic-Indic zero is not seat 0
    with pytest.raises(ValueError, match="not a card name"):
        s.parse_action(f"combine \u00b2 {g.card_name(d['hands'][0][0])} keep \u00b2")
    with pytest.raises(IllegalMoveError):
        s.parse_action(
            f"combine {g.card_name(d['hands'][0][0])} {g.card_name(other)} {g.card_name(d['hands'][0][1])} "
            f"keep {g.card_name(other)}"
        )
    assert s.to_dict() == before


def test_custom_card_tables_with_equal_names() -> None:
    """With a card table where names repeat, the notation adds '#id' and stays exact."""
    cards = default_cards()
    cards[1] = list(cards[0])  # cards 0 and 1 now read the same
    for engine in mousehole.available_engines():
        g = load_game(engine, players=2, cards=cards)
        assert g.card_token(0) == g.card_name(0) + "#0" and g.card_token(1).endswith("#1")
        assert g.card_token(2) == g.card_name(2)
        with pytest.raises(ValueError, match="#id"):
            g.parse_move(f"pick {g.card_name(0)}")
        assert g.parse_move(f"pick {g.card_name(0)}#1") == MCPick(1)
        for seed in range(scale(3)):
            s = g.new_state(seed=seed)
            rng = Rng(seed)
            while not s.is_terminal():
                legal = s.legal_actions()
                a = int(legal[rng.below(len(legal))])
                assert s.parse_action(s.describe(a)) == a
                s.apply_action(a)


def test_amelie_four_card_combinations_read_back(engine: str) -> None:
    """MC-21: a four-card combination written out and read back."""
    g = load_game(engine, players=2)
    cards = default_cards()
    eggs = [c for c in range(80) if cards[c][0] == 0]
    run = [next(c for c in eggs if cards[c][1] == v) for v in (3, 4, 5, 6)]
    spare = [c for c in range(80) if c not in run]
    hands = {0: run + [spare[0]], 1: spare[1:5]}
    s = arrange(g, hands, display=spare[5:6], pile=spare[6:], helpers=[AMELIE, 6])
    four = [int(a) for a in s.legal_actions() if a >= COMBINE and len(g.action_to_move(a).slots) == 4]
    assert four
    for a in four:
        assert s.parse_action(s.describe(a)) == a


def test_discards_read_back(engine: str) -> None:
    """MC-14: the hand-limit discards, written out and read back."""
    g = load_game(engine, players=2)
    hand = list(range(9))
    s = arrange(g, {0: hand, 1: [9, 10, 11]}, phase="discard", display=[12], pile=list(range(13, 80)), helpers=[1, 6])
    assert [int(a) for a in s.legal_actions()] == [DISCARD + c for c in hand]
    for c in hand:
        assert s.describe(DISCARD + c) == f"seat 0 discards {g.card_name(c)}"
        assert s.parse_action(s.describe(DISCARD + c)) == DISCARD + c
        assert s.parse_action(f"discard {c}") == DISCARD + c


@pytest.mark.parametrize(
    "old,new",
    [
        ("Bid", MCBid),
        ("Pick", MCPick),
        ("Discard", "MCDiscard"),
        ("Swap", MCSwap),
        ("Decline", MCDecline),
        ("Combine", MCCombine),
    ],
)
def test_old_move_names_are_deprecated_aliases(old: str, new: Any) -> None:
    """The move classes follow ``<game prefix><kind>`` (``MCBid``, ...); the old names still
    give the same class, with a DeprecationWarning naming the new one; unknown names are
    still an AttributeError. A move's repr evaluates back to it under the new name."""
    import mousehole.maus_au_chocolat as mc

    cls = getattr(mc, new) if isinstance(new, str) else new
    with pytest.warns(DeprecationWarning, match=f"maus_au_chocolat.{old} is deprecated: use {cls.__name__}"):
        assert getattr(mc, old) is cls
    assert old not in mc.__all__ and cls.__name__ in mc.__all__
    move = cls() if cls is MCDecline else cls((0, 2, 5), (5,)) if cls is MCCombine else cls(17)
    assert eval(repr(move), vars(mc)) == move and repr(move).startswith(cls.__name__ + "(")
    with pytest.raises(AttributeError, match="has no attribute 'Bids'"):
        mc.Bids  # noqa: B018


# -- observation -------------------------------------------------------------------------------
#
# Maus au Chocolat observations and legal-action masks written by the compiled core.
#
# The compiled engine writes ``observation(p)`` and ``legal_action_mask()`` straight from its
# C struct. At every step of seeded random games they must equal the reference engine's bit
# for bit, for every seat, with or without a caller's ``out`` array: what a seat sees (MC-26:
# hands hidden but for the cards everyone saw taken, MC-7: bids face down until all are
# revealed together) and the legal actions (MC-7, MC-9, MC-10 .. MC-23, MC-14, MC-16). (Bad
# seats and bad ``out`` arrays: every game's, ``tests/test_observation.py``.)


#: parameter sets: every player count; a target and a max_turns whose quotients are not
#: exact in float32 (score / 7, round / 3, the latter also truncating games: phase "over");
#: a small hand; the largest max_turns (mousehole._values.MAX_TURNS: round / max_turns is
#: small, and never 0); a card table of its own (other candy values and coins).
OWN_CARDS = [[c % 5, 1 + (7 * c) % 12, (3 * c) % 21] for c in range(NUM_CARDS)]


CONFIGS: List[Dict[str, Any]] = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 5},
    {"players": 6},
    {"players": 3, "target": 7, "max_turns": 3},
    {"players": 4, "hand_size": 2, "target": 11},
    {"players": 2, "max_turns": 10**6},
    {"players": 4, "cards": OWN_CARDS, "target": 13},
]


CONFIG_IDS = ["-".join(f"{k}={'own' if k == 'cards' else v}" for k, v in sorted(c.items())) for c in CONFIGS]


def _bits(a: Any) -> bytes:
    """The raw bytes of an array (equal bytes: no 0.0 / -0.0 or NaN slack)."""
    return bytes(np.ascontiguousarray(a).tobytes())


def _walk(game: Any, seed: int, decline: bool = False) -> Iterator[Any]:
    """The states of one seeded random game, the terminal one included. With ``decline``
    every seat declines to combine (hands grow past the limit: MC-14 discards)."""
    state = game.new_state(seed)
    rng = Rng(derive(seed, 17))
    while True:
        yield state
        if state.is_terminal():
            return
        legal = state.legal_actions()
        if decline and DECLINE in legal:
            state.apply_action(DECLINE)
        else:
            state.apply_action(int(legal[rng.below(len(legal))]))


def _mask_of(legal: Any) -> Any:
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    mask[legal] = True
    return mask


@pytest.mark.differential
@pytest.mark.parametrize("params", CONFIGS, ids=CONFIG_IDS)
def test_compiled_observation_and_mask_equal_the_reference(params: Dict[str, Any]) -> None:
    """MC-26 / MC-7 and the legal actions: at every step of seeded random games, every
    seat's compiled observation (fresh, or written into a dirty ``out``) has the bits of the
    reference observation of the same state, and the compiled mask (fresh, or into a dirty
    ``out``) is the reference's and marks exactly ``legal_actions()``. Neither call changes
    the state."""
    gc = mousehole.load("maus_au_chocolat", engine="compiled", **params)
    gp = mousehole.load("maus_au_chocolat", engine="python", **params)
    n = gc.num_players
    obuf = np.empty(gc.observation_shape, dtype=np.float32)
    mbuf = np.empty(NUM_ACTIONS, dtype=np.bool_)
    phases: Set[str] = set()
    for seed in range(scale(3)):
        for c in _walk(gc, 500 + seed):
            d = c.to_dict()
            phases.add(d["phase"])
            ref = gp.state_from_dict(d)
            for p in range(n):
                want = ref.observation(p)
                got = c.observation(p)
                assert got.dtype == np.float32 and got.shape == gc.observation_shape
                assert _bits(got) == _bits(want), (seed, d["phase"], p, np.flatnonzero(got != want))
                obuf.fill(np.nan)
                assert c.observation(p, out=obuf) is obuf
                assert _bits(obuf) == _bits(want)
            legal = c.legal_actions()
            want_mask = _mask_of(legal)
            assert list(legal) == list(ref.legal_actions())
            got_mask = c.legal_action_mask()
            assert got_mask.dtype == np.bool_ and got_mask.shape == (NUM_ACTIONS,)
            assert _bits(got_mask) == _bits(want_mask) == _bits(ref.legal_action_mask())
            mbuf.fill(True)
            assert c.legal_action_mask(out=mbuf) is mbuf
            assert _bits(mbuf) == _bits(want_mask)
            assert c.to_dict() == d
    # the walks went through every phase but the rare hand-limit discards, the end included
    assert {"bid", "pick", "combine", "over"} <= phases


@pytest.mark.differential
@pytest.mark.parametrize("players", [2, 4])
def test_compiled_observation_and_mask_in_hand_limit_discards(players: int) -> None:
    """MC-14: when every seat declines to combine, hands pass the limit of eight and their
    holders discard; through those phases (and the reshuffles of MC-6 they cause) the
    compiled observation and mask equal the reference's."""
    gc = mousehole.load("maus_au_chocolat", engine="compiled", players=players, max_turns=40)
    gp = mousehole.load("maus_au_chocolat", engine="python", players=players, max_turns=40)
    discards = 0
    for c in _walk(gc, 77, decline=True):
        d = c.to_dict()
        discards += d["phase"] == "discard"
        ref = gp.state_from_dict(d)
        for p in range(players):
            assert _bits(c.observation(p)) == _bits(ref.observation(p))
        assert _bits(c.legal_action_mask()) == _bits(_mask_of(ref.legal_actions()))
    assert discards > 5


@pytest.mark.differential
def test_observation_at_the_largest_max_turns() -> None:
    """round / max_turns at the largest max_turns (10**6, the bound load shares with
    records; issue 39: above it load refuses, so round / max_turns is always a quotient of
    two exact doubles) is the last value of the observation, on both engines alike."""
    m = 10**6
    for engine in ("compiled", "python"):
        with pytest.raises(mousehole.ParameterError, match="max_turns must be an int from 1 to 1,000,000"):
            mousehole.load("maus_au_chocolat", engine=engine, players=2, max_turns=2**60 + 3)
    rounds = set()
    for engine in ("compiled", "python"):
        g = mousehole.load("maus_au_chocolat", engine=engine, players=2, max_turns=m)
        for s in _walk(g, 4):
            r = s.to_dict()["round"]
            rounds.add(r)
            last = s.observation(1)[-1]
            assert last == np.float32(r / m) and last != 0.0
    assert len(rounds) > 2


@pytest.mark.differential
def test_compiled_mask_and_observation_in_a_crowded_combination_phase() -> None:
    """MC-10 .. MC-23, MC-16: in combination steps with at least eight legal actions
    (declining, Etienne's swaps, many combinations) the compiled mask marks exactly the
    reference's legal actions and every seat's observation equals the reference's."""
    gc = mousehole.load("maus_au_chocolat", engine="compiled", players=3)
    gp = mousehole.load("maus_au_chocolat", engine="python", players=3)
    found = 0
    for seed in range(60):
        for c in _walk(gc, seed):
            d = c.to_dict()
            if d["phase"] != "combine" or len(c.legal_actions()) < 8:
                continue
            ref = gp.state_from_dict(d)
            assert _bits(c.legal_action_mask()) == _bits(_mask_of(ref.legal_actions()))
            for p in range(3):
                assert _bits(c.observation(p)) == _bits(ref.observation(p))
            found += 1
        if found >= 20:
            break
    assert found >= 20


def test_observation_depends_only_on_the_view(engine: str) -> None:
    """MC-26, MC-7: seat p's observation is a function of its view: a determinization for p
    (everything p cannot see re-dealt) gives p the same observation, bit for bit."""
    g = mousehole.load("maus_au_chocolat", engine=engine, players=4)
    checked = 0
    for seed in range(scale(2)):
        for i, s in enumerate(_walk(g, 900 + seed)):
            if i % 7:
                continue
            for p in range(4):
                other = s.determinize(p, seed * 1000 + i)
                assert _bits(other.observation(p)) == _bits(s.observation(p))
                checked += 1
    assert checked > 40


def test_observation_layout_of_an_early_bid_phase(engine: str) -> None:
    """The documented layout, checked from the state dict: own hand and display planes,
    nobody's bid shown to another seat before the reveal (MC-7), seat p's own face-down bid
    on its own plane, hand sizes / 8, has-a-bid and to-move flags, the bid phase one-hot."""
    g = mousehole.load("maus_au_chocolat", engine=engine, players=4)
    s = g.new_state(12)
    s.apply_action(int(s.legal_actions()[-1]))  # seat 0 bids (or Etienne swaps)
    while s.current_player == 0:
        s.apply_action(int(s.legal_actions()[0]))
    d = s.to_dict()
    assert d["phase"] == "bid" and d["bids"][0] >= 0
    n, C = 4, NUM_CARDS * (4 + 3 * 4)
    for p in range(n):
        obs = s.observation(p)
        planes = obs[:C].reshape(4 + 3 * n, NUM_CARDS)
        assert list(np.flatnonzero(planes[0])) == d["hands"][p]
        assert list(np.flatnonzero(planes[1])) == d["display"]
        assert list(np.flatnonzero(planes[3])) == ([d["bids"][p]] if p == 0 else [])
        for k in range(n):
            assert not planes[4 + 3 * k].any()  # MC-7: not revealed yet
            q = (p + k) % n
            assert obs[C + k] == np.float32(len(d["hands"][q]) / 8)
            assert obs[C + 2 * n + k] == (1.0 if q == 0 else 0.0)
            assert obs[C + 3 * n + k] == (1.0 if q == 1 else 0.0)
            assert obs[C + 4 * n + 7 * k + d["helpers"][q]] == 1.0
        tail = C + 11 * n + 49
        assert obs[tail] == np.float32(len(d["pile"]) / NUM_CARDS)
        assert list(obs[tail + 1 : tail + 6]) == [1.0, 0.0, 0.0, 0.0, 0.0]


def test_known_bid_stays_known_until_the_reveal(engine: str) -> None:
    """MC-9 / MC-7: a card taken from the display is known to all while held; bid face down
    it stays on its holder's known plane (for every seat) until the bids are revealed, and
    then shows on the revealed-bid plane instead."""
    g = mousehole.load("maus_au_chocolat", engine=engine, players=3)
    n, C = 3, NUM_CARDS * (4 + 3 * 3)
    for seed in range(200):
        s = g.new_state(seed)
        rng = Rng(derive(seed, 5))
        while not s.is_terminal():
            d = s.to_dict()
            p = s.current_player
            if d["phase"] == "bid" and p == 0 and d["known"][0] and all(b < 0 for b in d["bids"]):
                card = d["known"][0][0]
                s.apply_action(BID + card)
                for q in range(n):
                    k = (0 - q) % n
                    planes = s.observation(q)[:C].reshape(4 + 3 * n, NUM_CARDS)
                    assert planes[6 + 3 * k, card] == 1.0
                    assert planes[4 + 3 * k, card] == 0.0
                while s.to_dict()["phase"] == "bid":
                    legal = s.legal_actions()
                    s.apply_action(int(legal[rng.below(len(legal))]))
                d = s.to_dict()
                if d["bids"][0] == card:  # still on the table after the reveal
                    for q in range(n):
                        k = (0 - q) % n
                        planes = s.observation(q)[:C].reshape(4 + 3 * n, NUM_CARDS)
                        assert planes[6 + 3 * k, card] == 0.0
                        assert planes[4 + 3 * k, card] == 1.0
                    return
                break
            legal = s.legal_actions()
            s.apply_action(int(legal[rng.below(len(legal))]))
    pytest.fail("no seeded game had seat 0 bid a known card")


# -- the C game interface (mh_game_t) ----------------------------------------------------------
#
# Maus au Chocolat through its C-level interface (``mh_game_t``): what the generic
# conformance test (test_cinterface.py) cannot check for this game.
#
# * The C determinization (MC-26) is, byte for byte, the struct that the Python
#   determinization of the seat's view loads into, in every phase: face-down bids (MC-7,
#   MC-27) and reshuffled pools (MC-6) included, and with every unused slot as ``from_dict``
#   leaves it.
# * (It depends on the view only: every game's, ``tests/test_cinterface.py``.)
# * It keeps what the seat knows and re-deals what it cannot see.
# * ``reset`` on a struct that has played a whole game gives ``new_state``'s struct.
# * ``max_legal`` bounds the densest combination steps (nine cards of three candy values,
#   every helper, MC-10 .. MC-23).
# * ``state.determinize`` (computed in C) completes the history as the Python
#   determinization does (this round's hidden bids, hidden combinations).
# * The fast paths of the compiled core agree with its listing of the legal actions: the
#   combination count and the decoding of one combination that ``simulate`` uses (MC-29, every
#   helper, random hands of 4 .. 9 cards, default and unusual decks), and the legality test of
#   ``apply_action`` (every action id, every state of random games).
#
# Every test of this section is marked pytest.mark.compiled (it needs the compiled engine).


NAME = "maus_au_chocolat"


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


@pytest.mark.compiled
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


@pytest.mark.compiled
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


@pytest.mark.compiled
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


@pytest.mark.compiled
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


@pytest.mark.compiled
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


@pytest.mark.compiled
@pytest.mark.parametrize("kept_card", ["player_chooses", "highest_printed"])
@pytest.mark.parametrize("deck", [0, 1, 2])
def test_mc29_combination_count_and_decoding_match_the_listing(deck: int, kept_card: str) -> None:
    """MC-10 .. MC-23, MC-29: simulate counts a hand's combinations by candy value (tables
    for each reading of MC-23's kept cards) and decodes only the one it draws; for every
    helper, the count equals the enumeration of the subsets and the number of listed
    combination actions, and the k-th decoded one is the k-th listed."""
    from mousehole._maus_au_chocolat import _selfcheck_combos

    cards = _decks()[deck]
    game = mousehole.load(NAME, engine="compiled", kept_card=kept_card, **({} if cards is None else {"cards": cards}))
    rounds = scale(3000)
    assert _selfcheck_combos(game.new_state(0), 17 + deck, rounds) == rounds


@pytest.mark.compiled
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
