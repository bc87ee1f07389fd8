"""Maus au Chocolat: the readings of the rule text (``MausAuChocolat.READINGS``), each value on
hand-built positions where the readings differ, on both engines.

``henri_bonus`` (MC-17, MC-8): ``"always"`` (Henri's holder's bid always counts 2 coins more)
or ``"optional"`` (the holder chooses with each bid, face down like the bid: the actions
``BID_PLAIN + c`` bid card ``c`` without the +2).

``kept_card`` (MC-23, MC-12, MC-21): ``"highest_printed"`` (a set keeps its cards of the
highest printed value, the lowest ids among equal ones) or ``"player_chooses"`` (any choice
of a set's kept cards is a combination action of its own); the compiled core's second bank
of shape tables is also checked through its self-checks and the C-level interface.

``etienne_swap`` (MC-16, MC-7, MC-14): when Etienne's holder may swap: ``"any_decision"``
(his bid, picks and combination step), ``"picks_and_combination"`` (not the bid) or
``"also_hand_limit"`` (also between his hand-limit discards); the compiled core's policy
step and legality test are checked between the discards.

``changed_value`` (MC-18, MC-19): ``"unbounded"`` (a value Mathieu lowers or Maurice raises may
leave the printed 3..7) or ``"printed_range"`` (it may not); the compiled core's count, decoders
and legality test are checked against the reference's search.

``etienne_draw`` (MC-16): ``"always"`` (Etienne's discard always draws) or ``"optional"`` (his
holder may also discard without drawing, the action ``DISCARD + c``); the history check tells
those discards from the hand-limit ones.

``hand_limit`` (MC-14): ``"after_combination"`` (a hand above 8 cards discards down to 8 after
its combination step) or ``"standing"`` (the pick that brings a 9th card is followed at once by
the picker's discards); the compiled core's policy step and legality test are checked there.
"""

from __future__ import annotations

import itertools
import random
import re
from typing import Any, Dict, List

import pytest

import mousehole
from mousehole import IllegalMoveError, ParameterError, StateError
from mousehole.maus_au_chocolat import (
    AMELIE,
    BID,
    BID_PLAIN,
    CLAUDE,
    COMBINE,
    DECLINE,
    DISCARD,
    HENRI,
    LILLY,
    MATHIEU,
    MAURICE,
    PATTERNS,
    PICK,
    SWAP,
    MausAuChocolat,
    MCBid,
    MCBidWithoutHenri,
    MCCombine,
    MCDecline,
    _action_kind,
    default_cards,
)

CARDS = default_cards()
ING = {"eggs": 0, "fruit": 1, "nuts": 2, "chocolate": 3, "sugar": 4}


def cid(ing: str, candy: int, coin: int) -> int:
    """The id of the DEFAULT card of that ingredient, candy value and coin value."""
    found = [i for i, c in enumerate(CARDS) if c[0] == ING[ing] and c[1] == candy and c[2] == coin]
    assert len(found) == 1
    return found[0]


# Seat 0 holds Henri and bids eggs4/5c (5 coins, 7 with Henri); seat 1 (Mathieu) bids
# fruit4/6c (6 coins); seat 2 (Lilly) bids eggs3/1c (1 coin).
HENRI_CARD = cid("eggs", 4, 5)
SIX = cid("fruit", 4, 6)
ONE = cid("eggs", 3, 1)
HANDS = {
    0: [HENRI_CARD, cid("nuts", 3, 3), cid("sugar", 3, 1), cid("sugar", 4, 1), cid("chocolate", 7, 4)],
    1: [SIX, cid("nuts", 5, 3), cid("sugar", 5, 3), cid("eggs", 6, 1), cid("fruit", 7, 3)],
    2: [ONE, cid("nuts", 6, 7), cid("sugar", 6, 3), cid("eggs", 7, 2), cid("fruit", 3, 2)],
}


def load(engine: str, **kw: Any) -> Any:
    return mousehole.load("maus_au_chocolat", engine=engine, **kw)


def round_one(game: Any, phase: str, **fields: Any) -> Any:
    """A state of round 1 in ``phase``, set up by hand: ``fields`` (the pile, the display, the
    hands, the helpers, ...) over what every such position here shares: no discard, nothing
    known, no coins in the pools, no bids, no victory points, the row the helpers nobody holds,
    no order yet, the first turn, no pick left, Etienne unused, no history."""
    n = game.num_players
    d: Dict[str, Any] = game.new_state(0).to_dict()
    d.update(
        round=1,
        phase=phase,
        discard=[],
        known=[[] for _ in range(n)],
        pools=[0] * 80,
        bids=[-1] * n,
        vp=[[] for _ in range(n)],
        row=[h for h in range(7) if h not in fields["helpers"]],
        order=[],
        turn=0,
        picks_left=0,
        etienne_used=False,
        history=[],
        truncated=False,
    )
    d.update(fields)
    return game.state_from_dict(d)


def bid_position(game: Any) -> Any:
    """Round 1, bid phase, nobody has bid; 3 players with the hands above, holding Henri,
    Mathieu and Lilly."""
    helpers = [HENRI, MATHIEU, LILLY]
    used = set(sum(HANDS.values(), []))
    free = [c for c in range(80) if c not in used]
    return round_one(
        game,
        "bid",
        pile=free[4:],
        display=sorted(free[:4]),
        hands=[sorted(HANDS[q]) for q in range(3)],
        helpers=list(helpers),
        rng=99,
    )


# ---- every reading ---------------------------------------------------------------------------


@pytest.mark.parametrize("reading", MausAuChocolat.READINGS, ids=lambda r: f"{r.param}-{'-'.join(r.rules)}")
def test_unknown_reading_value_raises(engine: str, reading: Any) -> None:
    """Each reading must be one of its values (the test ids carry its rules: MC-17
    ``henri_bonus``, MC-23 ``kept_card``, MC-16 ``etienne_swap`` and ``etienne_draw``, MC-25
    ``tie_break_moment``, MC-18/MC-19 ``changed_value``, MC-14 ``hand_limit``): an unknown
    string raises ``ParameterError`` naming the parameter and listing the values, and so does
    a value of another type."""
    listed = ", ".join(repr(v) for v in reading.values)
    with pytest.raises(ParameterError, match=re.escape(reading.param) + ".*" + re.escape(listed)):
        load(engine, **{reading.param: "no_such_reading"})
    for bad in (None, True, 1):
        with pytest.raises(ParameterError, match=re.escape(reading.param)):
            load(engine, **{reading.param: bad})


# ---- henri_bonus ------------------------------------------------------------------------


def test_mc17_always_henri_counts_two_more_and_has_no_bid_without_him(engine: str) -> None:
    """MC-17 ``always`` (default): 2085 actions; Henri's holder bids only with the +2, so his
    5 coins (7) beat seat 1's 6."""
    g = load(engine, players=3)
    assert g.params["henri_bonus"] == "always" and g.num_actions == 2085
    s = bid_position(g)
    assert list(s.legal_actions()) == sorted(BID + c for c in HANDS[0])
    with pytest.raises(IllegalMoveError):
        s.apply_action(BID_PLAIN + HENRI_CARD)
    with pytest.raises(IllegalMoveError, match="MC-17"):
        g.move_to_action(MCBidWithoutHenri(HENRI_CARD))
    s.apply_joint([BID + HENRI_CARD, BID + SIX, BID + ONE])
    d = s.to_dict()
    assert d["phase"] == "pick" and d["order"] == [0, 1, 2] and s.current_player == 0


def test_mc17_optional_adds_bids_without_henri_for_his_holder_only(engine: str) -> None:
    """MC-17 ``optional``: 2165 actions; Henri's holder may bid each card with or without
    Henri (``2085 + c``); the other seats bid as before."""
    g = load(engine, players=3, henri_bonus="optional")
    assert g.num_actions == 2165 and g.params["henri_bonus"] == "optional"
    s = bid_position(g)
    hand = sorted(HANDS[0])
    assert list(s.legal_actions()) == [BID + c for c in hand] + [BID_PLAIN + c for c in hand]
    mask = s.legal_action_mask()
    assert mask.shape == (2165,) and mask[BID_PLAIN + HENRI_CARD] and not mask[BID_PLAIN + SIX]
    s.apply_action(BID_PLAIN + HENRI_CARD)
    assert s.current_player == 1
    assert list(s.legal_actions()) == sorted(BID + c for c in HANDS[1])
    with pytest.raises(IllegalMoveError, match="MC-17"):
        s.apply_action(BID_PLAIN + SIX)  # seat 1 holds Mathieu


@pytest.mark.parametrize("with_henri, order", [(True, [0, 1, 2]), (False, [1, 0, 2])])
def test_mc17_optional_the_choice_decides_the_pick_order(engine: str, with_henri: bool, order: List[int]) -> None:
    """MC-8, MC-17 ``optional``: with Henri seat 0's 5 coins count 7 and it picks first;
    without him they count 5 and seat 1's 6 coins go first."""
    g = load(engine, players=3, henri_bonus="optional")
    s = bid_position(g)
    s.apply_action((BID if with_henri else BID_PLAIN) + HENRI_CARD)
    s.apply_action(BID + SIX)
    s.apply_action(BID + ONE)
    d = s.to_dict()
    assert d["phase"] == "pick" and d["order"] == order and s.current_player == order[0]
    again = g.state_from_dict(d)  # the pick phase keeps the order (state dict round trip)
    assert again.to_dict() == d and list(again.legal_actions()) == list(s.legal_actions())


def test_mc17_optional_joint_bids_equal_sequential(engine: str) -> None:
    """MC-27 with MC-17 ``optional``: apply_joint with a bid without Henri is the same game as
    the bids one seat at a time; an entry must end with a bid of either kind."""
    g = load(engine, players=3, henri_bonus="optional")
    a, b = bid_position(g), bid_position(g)
    a.apply_joint([MCBidWithoutHenri(HENRI_CARD), BID + SIX, MCBid(ONE)])
    for x in (BID_PLAIN + HENRI_CARD, BID + SIX, BID + ONE):
        b.apply_action(x)
    assert a.to_dict() == b.to_dict() and a.to_dict()["order"] == [1, 0, 2]
    c = bid_position(g)
    before = c.to_dict()
    with pytest.raises(IllegalMoveError, match="MC-17"):
        c.apply_joint([BID + HENRI_CARD, BID_PLAIN + SIX, BID + ONE])
    assert c.to_dict() == before


def test_mc17_optional_choice_stays_hidden_until_the_reveal(engine: str) -> None:
    """MC-7, MC-26: until every bid is in, the others cannot tell whether Henri's holder bid
    with or without him (views, observations, describe, determinization); at the reveal it is
    public."""
    g = load(engine, players=3, henri_bonus="optional")
    plain, full = bid_position(g), bid_position(g)
    plain.apply_action(BID_PLAIN + HENRI_CARD)
    full.apply_action(BID + HENRI_CARD)
    for p in (1, 2):
        vp, vf = plain.to_dict(for_player=p), full.to_dict(for_player=p)
        assert vp == vf and vp["history"] == [None] and vp["bids"] == [None, -1, -1]
        assert (plain.observation(p) == full.observation(p)).all()
        assert plain.determinize(p, 5).to_dict() == full.determinize(p, 5).to_dict()
    assert plain.to_dict(for_player=0)["history"] == [BID_PLAIN + HENRI_CARD]
    assert plain.determinize(0, 5).to_dict()["history"] == [BID_PLAIN + HENRI_CARD]
    # a determinization for another seat draws both choices (the card too), from the seed only
    kinds = {plain.determinize(1, seed).to_dict()["history"][0] >= BID_PLAIN for seed in range(40)}
    assert kinds == {True, False}
    before = plain.to_dict(for_player=1)
    plain.apply_action(BID + SIX)
    after = plain.to_dict(for_player=1)
    assert g.describe_seen(before, after) == "seat 1 bids fruit4/6c"
    before = after
    plain.apply_action(BID + ONE)
    after = plain.to_dict(for_player=1)
    assert after["history"][0] == BID_PLAIN + HENRI_CARD  # revealed
    assert g.describe_seen(before, after) == (
        "seat 2 bids face down; bids revealed: seat 0 eggs4/5c without Henri, seat 1 fruit4/6c, seat 2 eggs3/1c"
    )


def test_mc17_optional_notation(engine: str) -> None:
    """MC-17 notation: ``bid 3 (eggs4/5c) without Henri`` and ``seat 0 bids eggs4/5c without
    Henri`` read back to the action 2085 + card."""
    g = load(engine, players=3, henri_bonus="optional")
    s = bid_position(g)
    a = BID_PLAIN + HENRI_CARD
    mv = g.action_to_move(a)
    assert mv == MCBidWithoutHenri(HENRI_CARD) and g.move_to_action(mv) == a
    assert str(mv) == f"bid {HENRI_CARD} (eggs4/5c) without Henri"
    assert g.parse_move(str(mv)) == mv and g.parse_move("bid eggs4/5c without henri") == mv
    assert s.describe(a) == "seat 0 bids eggs4/5c without Henri"
    assert s.parse_action(s.describe(a)) == a and s.parse_action("bid eggs4/5c") == BID + HENRI_CARD


def test_mc17_state_dicts_check_bids_without_henri(engine: str) -> None:
    """MC-17 in ``state_from_dict``: a bid without Henri is only Henri's holder's and only in
    a game with ``henri_bonus="optional"``; a face-down one survives the round trip and is
    applied at the reveal."""
    g = load(engine, players=3, henri_bonus="optional")
    s = bid_position(g)
    s.apply_action(BID_PLAIN + HENRI_CARD)
    d = s.to_dict()
    t = g.state_from_dict(d)
    t.apply_action(BID + SIX)
    t.apply_action(BID + ONE)
    assert t.to_dict()["order"] == [1, 0, 2]
    bad = dict(d, helpers=[MATHIEU, HENRI, LILLY])
    with pytest.raises(StateError, match="MC-17"):
        g.state_from_dict(bad)
    with pytest.raises(StateError, match="history"):
        load(engine, players=3).state_from_dict(dict(d, params=load(engine, players=3).params))


def test_mc17_history_check_follows_henri_through_the_rounds(engine: str) -> None:
    """MC-17, MC-15: the history check knows who held Henri in every earlier round (helpers
    pass on each round); a whole game with bids without Henri loads at every step."""
    g = load(engine, players=4, henri_bonus="optional")
    s = g.new_state(seed=11)
    plain_rounds = set()
    rng = random.Random(3)
    while not s.is_terminal():
        legal = list(s.legal_actions())
        a = max(legal) if legal[-1] >= BID_PLAIN and rng.random() < 0.7 else rng.choice(legal)
        if a >= BID_PLAIN:
            plain_rounds.add(s.to_dict()["round"])
        s.apply_action(a)
        if s.to_dict()["phase"] == "bid":
            assert g.state_from_dict(s.to_dict()).to_dict() == s.to_dict()
    assert len(plain_rounds) >= 3
    d = s.to_dict()
    assert g.state_from_dict(d).to_dict() == d
    hist = list(d["history"])
    # the seat after (or before) a bid without Henri in its round, which did not hold Henri, bids
    # without him instead
    i, j = next(
        (i, j)
        for i, a in enumerate(hist)
        if a >= BID_PLAIN
        for j in (i + 1, i - 1)
        if 0 <= j < len(hist) and hist[j] < 80
    )
    hist[i], hist[j] = hist[i] - BID_PLAIN + BID, hist[j] - BID + BID_PLAIN
    with pytest.raises(StateError, match="MC-17"):
        g.state_from_dict(dict(d, history=hist))


# ---- kept_card ----------------------------------------------------------------------------


def combine_position(game: Any, hand: List[int], helper: int) -> Any:
    """Round 1, combination phase, seat 0 to play with ``hand`` and ``helper``; seat 1 holds
    a helper of lower rank and four other cards; the pile holds the rest."""
    other = next(h for h in range(helper + 1, 7)) if helper < 6 else 5
    rest = [c for c in range(80) if c not in hand]
    order = [0, 1] if helper < other else [1, 0]
    return round_one(
        game,
        "combine",
        pile=rest[7:],
        display=rest[:3],
        hands=[sorted(hand), sorted(rest[3:7])],
        helpers=[helper, other],
        order=order,
        turn=order.index(0),
        rng=5,
    )


def moves(state: Any) -> List[Any]:
    return [state.game.action_to_move(int(a)) for a in state.legal_actions()]


# a mixed set of three 5s (eggs5/1c, fruit5/2c, nuts5/3c: slots 0, 1, 2) and sugar3/1c (slot 3)
MIXED_FIVES = [cid("eggs", 5, 1), cid("fruit", 5, 2), cid("nuts", 5, 3), cid("sugar", 3, 1)]
# one colour: eggs4/4c, eggs5/1c, eggs5/2c (slots 0, 1, 2) and sugar3/1c (slot 3)
EGGS_455 = [cid("eggs", 4, 4), cid("eggs", 5, 1), cid("eggs", 5, 2), cid("sugar", 3, 1)]


def test_mc23_the_reading_keeps_the_action_space_and_observation(engine: str) -> None:
    """MC-23: ``player_chooses`` (the default since issue 41) adds no action id to
    ``highest_printed`` (the patterns already name every kept set) and leaves the
    observation's shape as it is."""
    chooser, old = load(engine, players=3), load(engine, players=3, kept_card="highest_printed")
    assert chooser.params["kept_card"] == "player_chooses" and old.params["kept_card"] == "highest_printed"
    assert chooser == load(engine, players=3, kept_card="player_chooses")
    assert old.num_actions == chooser.num_actions == 2085
    assert old.observation_shape == chooser.observation_shape == (80 * 13 + 12 * 3 + 58,)


def test_mc12_mc23_mixed_set_keeps_one_card_of_the_players_choice(engine: str) -> None:
    """MC-12, MC-23: three 5s of different ingredients keep one card. ``highest_printed``:
    all print 5, so the lowest card id (slot 0); ``player_chooses``: any of the three."""
    s = combine_position(load(engine, players=2, kept_card="highest_printed"), MIXED_FIVES, LILLY)
    assert moves(s) == [MCDecline(), MCCombine((0, 1, 2), (0,))]
    s = combine_position(load(engine, players=2), MIXED_FIVES, LILLY)  # (the default: player_chooses)
    assert moves(s) == [MCDecline(), MCCombine((0, 1, 2), (0,)), MCCombine((0, 1, 2), (1,)), MCCombine((0, 1, 2), (2,))]
    s.apply(MCCombine((0, 1, 2), (2,)))  # keep nuts5/3c; eggs5/1c and fruit5/2c are discarded
    d = s.to_dict()
    assert d["vp"][0] == [cid("nuts", 5, 3)] and s.scores()[0] == 5
    assert d["discard"] == [cid("eggs", 5, 1), cid("fruit", 5, 2)]


@pytest.mark.parametrize(
    "kept_card, legal",
    [
        ("highest_printed", [((0, 1, 2), (1,)), ((0, 1, 2), (2,)), ((0, 1, 2), (1, 2))]),
        (
            "player_chooses",
            [((0, 1, 2), (1,)), ((0, 1, 2), (0, 1)), ((0, 1, 2), (2,)), ((0, 1, 2), (0, 2)), ((0, 1, 2), (1, 2))],
        ),
    ],
)
def test_mc19_mc23_maurice_one_colour_set_under_each_reading(engine: str, kept_card: str, legal: List[Any]) -> None:
    """MC-19, MC-23: eggs 4, 5, 5 with Maurice. Raising a 5 makes the one-colour run 4-5-6
    (keep the raised card, slot 1 or 2); raising the 4 makes the one-colour set 5-5-5, which
    keeps two cards: ``highest_printed`` the two printed 5s (slots 1, 2); ``player_chooses``
    any two, also the raised 4, which scores its printed 4 (Maurice's text). (sugar3/1c, slot
    3, makes runs with these cards too; those are the same under both readings.)"""
    s = combine_position(load(engine, players=2, kept_card=kept_card), EGGS_455, MAURICE)
    laid_455 = [m for m in moves(s) if isinstance(m, MCCombine) and m.slots == (0, 1, 2)]
    assert laid_455 == [MCCombine(a, b) for a, b in legal]


@pytest.mark.parametrize(
    "kept_card, keep, score, vp, discard",
    [
        ("highest_printed", (1, 2), 10, ["eggs5/1c", "eggs5/2c"], ["eggs4/4c"]),
        ("player_chooses", (0, 1), 9, ["eggs4/4c", "eggs5/1c"], ["eggs5/2c"]),
    ],
)
def test_mc13_mc23_the_choice_changes_the_score_and_the_discard_pile(
    engine: str, kept_card: str, keep: Any, score: int, vp: List[str], discard: List[str]
) -> None:
    """MC-13, MC-23: laying eggs 4, 5, 5 as Maurice's set and keeping two cards: the default
    keeps both 5s (10 points, the 4 to the discard pile); a player who chooses may keep the 4
    and a 5 (9 points: the printed 4 counts), so a 5 goes to the discard pile instead (where a
    reshuffle can bring it back, MC-6). The choice of the default reading is illegal there."""
    g = load(engine, players=2, kept_card=kept_card)
    s = combine_position(g, EGGS_455, MAURICE)
    s.apply(MCCombine((0, 1, 2), keep))
    d = s.to_dict()
    assert s.scores() == [score, 0]
    assert [g.card_name(c) for c in d["vp"][0]] == vp and [g.card_name(c) for c in d["discard"]] == discard
    assert d["hands"][0] == [cid("sugar", 3, 1)]
    if kept_card == "highest_printed":
        t = combine_position(g, EGGS_455, MAURICE)
        before = t.to_dict()
        with pytest.raises(IllegalMoveError, match="MC-12/MC-23"):
            t.apply(MCCombine((0, 1, 2), (0, 1)))
        assert t.to_dict() == before


def test_mc21_mc23_amelie_four_of_a_kind(engine: str) -> None:
    """MC-21, MC-23: Amélie's holder with four 5s of four ingredients (slots 0..3) and
    sugar3/1c. A set of four keeps two cards, a set of three one. ``highest_printed``: the
    lowest ids (all print 5): 4 three-card sets and one four-card set; ``player_chooses``: any
    one of three (4 x 3) and any two of four (6)."""
    fives = [cid("eggs", 5, 1), cid("fruit", 5, 2), cid("nuts", 5, 3), cid("chocolate", 5, 4), cid("sugar", 3, 1)]
    s = combine_position(load(engine, players=2, kept_card="highest_printed"), fives, AMELIE)
    assert moves(s) == [
        MCDecline(),
        MCCombine((0, 1, 2), (0,)),
        MCCombine((0, 1, 3), (0,)),
        MCCombine((0, 2, 3), (0,)),
        MCCombine((1, 2, 3), (1,)),
        MCCombine((0, 1, 2, 3), (0, 1)),
    ]
    s = combine_position(load(engine, players=2), fives, AMELIE)  # (the default: player_chooses)
    got = moves(s)
    four = [m for m in got if isinstance(m, MCCombine) and len(m.slots) == 4]
    assert four == [MCCombine((0, 1, 2, 3), k) for k in [(0, 1), (0, 2), (1, 2), (0, 3), (1, 3), (2, 3)]]
    three = [m for m in got if isinstance(m, MCCombine) and len(m.slots) == 3]
    assert three == [MCCombine(sl, (x,)) for sl in [(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)] for x in sl]
    s.apply(MCCombine((0, 1, 2, 3), (2, 3)))  # keep nuts5/3c and chocolate5/4c
    assert s.scores()[0] == 10 and s.to_dict()["discard"] == [cid("eggs", 5, 1), cid("fruit", 5, 2)]


def test_mc22_mc23_claude_set_of_two_colours(engine: str) -> None:
    """MC-22, MC-23: eggs5/1c, eggs5/2c, fruit5/2c with Claude: a mixed set (keep one) or,
    with the fruit counted as eggs, a one-colour set (keep two). ``highest_printed``: the
    lowest ids; ``player_chooses``: every one and every two of the three."""
    hand = [cid("eggs", 5, 1), cid("eggs", 5, 2), cid("fruit", 5, 2), cid("sugar", 3, 1)]
    s = combine_position(load(engine, players=2, kept_card="highest_printed"), hand, CLAUDE)
    assert moves(s) == [MCDecline(), MCCombine((0, 1, 2), (0,)), MCCombine((0, 1, 2), (0, 1))]
    s = combine_position(load(engine, players=2), hand, CLAUDE)  # (the default: player_chooses)
    assert moves(s) == [MCDecline()] + [MCCombine((0, 1, 2), k) for k in [(0,), (1,), (0, 1), (2,), (0, 2), (1, 2)]]


def test_mc23_runs_keep_what_the_text_names_under_both_readings(engine: str) -> None:
    """MC-12, MC-23: a run's kept card is named by the text (the lowest of a mixed run), so
    the reading changes nothing there: eggs3/1c, fruit4/5c, nuts5/3c keep the 3."""
    hand = [cid("eggs", 3, 1), cid("fruit", 4, 5), cid("nuts", 5, 3), cid("sugar", 7, 2)]
    for kept_card in ("highest_printed", "player_chooses"):
        s = combine_position(load(engine, players=2, kept_card=kept_card), hand, HENRI)
        assert moves(s) == [MCDecline(), MCCombine((0, 1, 2), (0,))]


def test_mc23_state_dicts_carry_the_reading(engine: str) -> None:
    """MC-23 in ``state_from_dict``: a state of a ``player_chooses`` game (after a choice
    ``highest_printed`` forbids) round-trips in its game and is refused by a
    ``highest_printed`` game (its ``params`` differ)."""
    g = load(engine, players=2, kept_card="player_chooses")
    s = combine_position(g, EGGS_455, MAURICE)
    s.apply(MCCombine((0, 1, 2), (0, 1)))
    d = dict(s.to_dict(), history=[])  # (a position set up by hand: no history before it)
    assert d["params"]["kept_card"] == "player_chooses"
    assert g.state_from_dict(d).to_dict() == d
    with pytest.raises(StateError, match="params"):
        load(engine, players=2, kept_card="highest_printed").state_from_dict(d)


def test_mc23_views_and_determinization_hide_the_choice_as_any_combination(engine: str) -> None:
    """MC-26 with MC-23: the kept and discarded cards are face up; the combination itself is
    hidden in the views' history like every combination, and a determinization for the other
    seat keeps what it saw."""
    g = load(engine, players=2, kept_card="player_chooses")
    s = combine_position(g, EGGS_455, MAURICE)
    s.apply(MCCombine((0, 1, 2), (0, 1)))
    assert s.to_dict(for_player=1)["history"] == [None]
    s = g.state_from_dict(dict(s.to_dict(), history=[]))  # (set up by hand: no history before it)
    v = s.to_dict(for_player=1)
    assert v["vp"][0] == [cid("eggs", 4, 4), cid("eggs", 5, 1)] and v["discard"] == [cid("eggs", 5, 2)]
    t = s.determinize(1, 3)
    assert t.to_dict(for_player=1) == v and t.game.params["kept_card"] == "player_chooses"
    assert (t.observation(1) == s.observation(1)).all()


def test_mc23_whole_games_differ_and_engines_agree(engine: str) -> None:
    """MC-23: seeded random games with ``player_chooses`` (the default) reach choices
    ``highest_printed`` does not have (legal lists of the same positions differ), and end."""
    g = load(engine, players=3)
    d0 = load(engine, players=3, kept_card="highest_printed")
    rng = random.Random(7)
    s = g.new_state(seed=21)
    extra = 0
    while not s.is_terminal():
        legal = list(s.legal_actions())
        dd = s.to_dict()
        if dd["phase"] == "combine":  # the same position in a highest_printed game
            other = d0.state_from_dict(dict(dd, params=d0.params))
            base = set(int(a) for a in other.legal_actions())
            assert base <= set(legal)
            extra += len(set(legal) - base)
        s.apply_action(rng.choice(legal))
    assert extra > 0 and (max(s.scores()) >= 30 or s.truncated)


@pytest.mark.compiled
def test_mc23_c_interface_lists_every_choice_within_max_legal() -> None:
    """MC-21, MC-23 through the C-level interface (bots, ``VectorGame``): a deck of 80 eggs 5s
    and Amélie's holder with nine of them. ``highest_printed``: 84 three-card and 126
    four-card sets, one kept set each (211 with the decline); ``player_chooses``: a one-colour
    set of three keeps any two (3 ways), of four any three (4 ways): 1 + 252 + 504 = 757
    actions, within the interface's ``max_legal`` for that reading."""
    from mousehole._cgame import CGame

    deck = [[0, 5, 3]] * 80
    for kept_card, count in (("highest_printed", 211), ("player_chooses", 757)):
        g = mousehole.load("maus_au_chocolat", engine="compiled", players=2, cards=deck, kept_card=kept_card)
        s = combine_position(g, list(range(9)), AMELIE)
        c = CGame(s)
        assert c.legal() == [int(a) for a in s.legal_actions()]
        assert len(c.legal()) == count <= c.dims()["max_legal"]
        assert int(s.legal_action_mask().sum()) == count


@pytest.mark.compiled
@pytest.mark.parametrize("deck", [0, 1])
def test_mc23_compiled_count_decoding_and_legality_test_use_the_reading(deck: int) -> None:
    """MC-23, MC-29 on the compiled core with ``player_chooses``: simulate's combination count
    and decoding agree with the listing for every helper (random hands), the listing equals
    the reference's ``combination_actions``, and ``apply_action``'s legality test accepts
    exactly the listed actions in seeded games."""
    from mousehole._maus_au_chocolat import _selfcheck_combos, _selfcheck_legal
    from mousehole.maus_au_chocolat import combination_actions

    cards = None if deck == 0 else [[i % 2, 5 + (i * 7) % 3, i % 9] for i in range(80)]
    kw: Dict[str, Any] = {} if cards is None else {"cards": cards}
    g = mousehole.load("maus_au_chocolat", engine="compiled", players=2, kept_card="player_chooses", **kw)
    assert _selfcheck_combos(g.new_state(0), 31 + deck, 1500) == 1500
    rng = random.Random(deck)
    for helper in range(7):
        hand = sorted(rng.sample(range(80), 6))
        s = combine_position(g, hand, helper)
        assert s.combination_actions(0) == combination_actions(hand, g.cards, helper, kept_card="player_chooses")
    s = g.new_state(seed=4)
    while not s.is_terminal():
        assert _selfcheck_legal(s) == len(s.legal_actions())
        s.apply_action(rng.choice(list(s.legal_actions())))


def test_mc23_reference_search_rejects_an_unknown_reading() -> None:
    """MC-23: the reference's ``combination_actions`` names the reading's values."""
    from mousehole.maus_au_chocolat import combination_actions

    with pytest.raises(ValueError, match="MC-23: kept_card"):
        combination_actions(MIXED_FIVES, CARDS, LILLY, kept_card="any")


# ---- etienne_swap -------------------------------------------------------------------------
#
# Seat 0 holds Etienne, seat 1 Mathieu (2 players; Etienne first in the combination order).
# At each kind of decision of Etienne's holder the swaps are ``SWAP + c`` for each hand card
# c, legal or not by the reading:
#
# ==========================  ===  ====  ===========  ========================
# etienne_swap                bid  pick  combination  hand-limit discards
# ==========================  ===  ====  ===========  ========================
# ``any_decision`` (default)  yes  yes   yes          no
# ``picks_and_combination``   no   yes   yes          no
# ``also_hand_limit``         yes  yes   yes          yes
# ==========================  ===  ====  ===========  ========================

ETIENNE_AT = {
    "any_decision": ("bid", "pick", "combine"),
    "picks_and_combination": ("pick", "combine"),
    "also_hand_limit": ("bid", "pick", "combine", "discard"),
}
E_VALUES = list(ETIENNE_AT)
# seat 0's eight cards (the last one its bid)
E_HAND = [
    cid("eggs", 3, 1),
    cid("fruit", 3, 2),
    cid("eggs", 5, 1),
    cid("fruit", 5, 2),
    cid("eggs", 7, 2),
    cid("fruit", 7, 3),
    cid("sugar", 7, 2),
    cid("nuts", 4, 8),
]
E_BID = cid("nuts", 4, 8)  # 8 coins: seat 0 picks first
E_OTHER = [cid("sugar", 3, 1), cid("sugar", 5, 3), cid("sugar", 6, 3), cid("chocolate", 3, 3), cid("chocolate", 6, 8)]
E_OTHER_BID = cid("sugar", 3, 1)  # 1 coin
E_DISPLAY = [cid("nuts", 6, 7), cid("nuts", 7, 4), cid("chocolate", 7, 4)]


def etienne_round(game: Any) -> Any:
    """Round 1, bid phase, no history: seat 0 (Etienne) holds :data:`E_HAND`, seat 1
    (Mathieu) :data:`E_OTHER`, the display :data:`E_DISPLAY`; the pile the other cards in id
    order (its top, drawn first, is the highest id left: sugar7/4c, card 79)."""
    used = set(E_HAND + E_OTHER + E_DISPLAY)
    return round_one(
        game,
        "bid",
        pile=[c for c in range(80) if c not in used],
        display=sorted(E_DISPLAY),
        hands=[sorted(E_HAND), sorted(E_OTHER)],
        helpers=[0, MATHIEU],
        row=[1, 3, 4, 5, 6],
        rng=17,
    )


def swaps(cards: List[int]) -> List[int]:
    return [SWAP + c for c in sorted(cards)]


@pytest.mark.parametrize("value", E_VALUES)
def test_mc16_the_reading_keeps_the_action_space_and_observation(engine: str, value: str) -> None:
    """MC-16: every value uses the swap actions 240 + c that exist already: 2085 actions, the
    same observation shape; ``any_decision`` is the default."""
    g = load(engine, players=2, etienne_swap=value)
    assert g.params["etienne_swap"] == value and load(engine).params["etienne_swap"] == "any_decision"
    assert g.num_actions == 2085 and g.observation_shape == (80 * 10 + 12 * 2 + 58,)


@pytest.mark.parametrize("value", E_VALUES)
def test_mc16_legal_actions_of_etienne_at_each_kind_of_decision(engine: str, value: str) -> None:
    """MC-16, MC-7, MC-9, MC-10, MC-14: Etienne's holder (seat 0) through one round, never
    swapping: at his bid, his two picks, his combination step (nine cards, no run or set:
    only the decline) and his hand-limit discard, the legal actions are literally the
    decision's own plus the swaps of his hand where the reading allows them."""
    g = load(engine, players=2, etienne_swap=value)
    at = ETIENNE_AT[value]
    s = etienne_round(g)
    hand = sorted(E_HAND)
    assert list(s.legal_actions()) == [BID + c for c in hand] + (swaps(hand) if "bid" in at else [])
    s.apply_action(BID + E_BID)
    s.apply_action(BID + E_OTHER_BID)  # seat 1 (Mathieu): never a swap
    hand.remove(E_BID)
    assert s.to_dict()["order"] == [0, 1] and s.current_player == 0
    display = sorted(E_DISPLAY)
    assert list(s.legal_actions()) == [PICK + c for c in display] + swaps(hand)  # first pick
    s.apply_action(PICK + display[0])
    hand = sorted(hand + [display[0]])
    assert list(s.legal_actions()) == [PICK + c for c in display[1:]] + swaps(hand)  # second pick
    s.apply_action(PICK + display[1])
    hand = sorted(hand + [display[1]])
    s.apply_action(PICK + display[2])  # seat 1 takes the last two: display[2] and seat 0's bid
    s.apply_action(PICK + E_BID)
    d = s.to_dict()
    assert d["phase"] == "combine" and s.current_player == 0 and d["hands"][0] == hand and len(hand) == 9
    legal = [int(a) for a in s.legal_actions()]  # the combination step: swaps, decline, combinations
    assert [a for a in legal if a < COMBINE] == swaps(hand) + [DECLINE] and len(legal) > len(hand) + 1
    s.apply_action(DECLINE)
    assert s.to_dict()["phase"] == "discard" and s.current_player == 0  # MC-14: nine cards
    assert list(s.legal_actions()) == [DISCARD + c for c in hand] + (swaps(hand) if "discard" in at else [])
    mask = s.legal_action_mask()
    assert mask[SWAP + hand[0]] == ("discard" in at) and int(mask.sum()) == len(s.legal_actions())


def test_mc16_no_swap_at_the_bid_when_only_picks_and_combination(engine: str) -> None:
    """MC-16 ``picks_and_combination``, MC-27: the bid is not the holder's turn: a swap there
    is refused (sequential and joint, the state unchanged) naming the reading; at the first
    pick the same swap is legal and draws the pile's top card."""
    g = load(engine, players=2, etienne_swap="picks_and_combination")
    s = etienne_round(g)
    before = s.to_dict()
    with pytest.raises(IllegalMoveError, match="MC-16.*picks_and_combination"):
        s.apply_action(SWAP + E_HAND[0])
    with pytest.raises(IllegalMoveError, match="MC-16"):
        s.apply_joint([[SWAP + E_HAND[0], BID + E_BID], BID + E_OTHER_BID])
    assert s.to_dict() == before
    s.apply_joint([BID + E_BID, BID + E_OTHER_BID])
    top = s.to_dict()["pile"][-1]
    s.apply_action(SWAP + E_HAND[0])
    d = s.to_dict()
    assert d["etienne_used"] and d["discard"] == [E_HAND[0]] and top in d["hands"][0]
    assert d["phase"] == "pick" and s.current_player == 0
    assert list(s.legal_actions()) == [PICK + c for c in sorted(E_DISPLAY)]  # once per round


@pytest.mark.parametrize("value", ["any_decision", "picks_and_combination"])
def test_mc16_no_swap_between_the_hand_limit_discards(engine: str, value: str) -> None:
    """MC-16, MC-14 ``any_decision`` / ``picks_and_combination``: discarding down to 8 is
    not a decision of Etienne's: a swap there is refused naming MC-16, the state unchanged."""
    g = load(engine, players=2, etienne_swap=value)
    s = to_discard_phase(g)
    before = s.to_dict()
    with pytest.raises(IllegalMoveError, match="MC-16"):
        s.apply_action(SWAP + before["hands"][0][0])
    assert s.to_dict() == before


def to_discard_phase(game: Any) -> Any:
    """:func:`etienne_round` played to seat 0's hand-limit discards (nine cards, no swap)."""
    s = etienne_round(game)
    display = sorted(E_DISPLAY)
    for a in (
        BID + E_BID,
        BID + E_OTHER_BID,
        PICK + display[0],
        PICK + display[1],
        PICK + display[2],
        PICK + E_BID,
        DECLINE,
    ):
        s.apply_action(a)
    assert s.to_dict()["phase"] == "discard"
    return s


def test_mc16_also_hand_limit_swaps_between_the_discards(engine: str) -> None:
    """MC-16 ``also_hand_limit``, MC-14, MC-6: at his discards Etienne's holder may swap: the
    card goes face up to the discard pile, the pile's top card (sugar7/4c, id 79) into the
    hand; he still holds nine cards and goes on discarding (no second swap), and the eighth
    card ends his step. Views, describe, determinization and the state dict follow."""
    g = load(engine, players=2, etienne_swap="also_hand_limit")
    s = to_discard_phase(g)
    hand = s.to_dict()["hands"][0]
    gone = cid("eggs", 3, 1)
    a = SWAP + gone
    assert s.describe(a) == "seat 0 swaps eggs3/1c (Etienne)" and s.parse_action(s.describe(a)) == a
    before1 = s.to_dict(for_player=1)
    s.apply_action(a)
    d = s.to_dict()
    assert CARDS[79] == [4, 7, 4] and 79 not in hand
    assert d["hands"][0] == sorted([c for c in hand if c != gone] + [79])
    assert d["discard"] == [gone] and d["etienne_used"] and d["phase"] == "discard"
    assert s.current_player == 0 and list(s.legal_actions()) == [DISCARD + c for c in d["hands"][0]]
    assert g.state_from_dict(d).to_dict() == d  # the history ends with a swap among the discards
    v = s.to_dict(for_player=1)
    assert v["hands"][0] is None and v["history"][-1] == a and v["discard"] == [gone]
    assert g.describe_seen(before1, v) == "seat 0 swaps eggs3/1c (Etienne)"
    t = s.determinize(1, 9)
    assert t.to_dict(for_player=1) == v and list(t.legal_actions()) == [DISCARD + c for c in t.to_dict()["hands"][0]]
    s.apply_action(DISCARD + 79)
    d = s.to_dict()
    assert d["phase"] == "combine" and s.current_player == 1 and len(d["hands"][0]) == 8
    assert d["discard"] == sorted([gone, 79])
    assert g.state_from_dict(d).to_dict() == d


def test_mc16_state_dicts_refuse_a_swap_the_reading_forbids(engine: str) -> None:
    """MC-16 in ``state_from_dict``: a history with a swap between the hand-limit discards
    loads only with ``also_hand_limit``; one with a swap at the bid loads only with
    ``any_decision`` or ``also_hand_limit`` (in the bid phase itself, and rounds later)."""
    wide = load(engine, players=2, etienne_swap="also_hand_limit")
    s = to_discard_phase(wide)
    s.apply_action(SWAP + cid("eggs", 3, 1))
    mid = s.to_dict()  # the history ends with the swap
    s.apply_action(DISCARD + 79)
    after = s.to_dict()  # the swap is followed by a discard
    for value in ("any_decision", "picks_and_combination"):
        g = load(engine, players=2, etienne_swap=value)
        for d in (mid, after):
            with pytest.raises(StateError, match="MC-16.*hand limit"):
                g.state_from_dict(dict(d, params=g.params))
    for value in ("any_decision", "also_hand_limit"):
        g = load(engine, players=2, etienne_swap=value)
        s = etienne_round(g)
        s.apply_action(SWAP + E_HAND[0])
        s.apply_action(BID + E_BID)
        in_bid = s.to_dict()
        s.apply_action(BID + E_OTHER_BID)
        in_pick = s.to_dict()
        for d in (in_bid, in_pick):
            assert g.state_from_dict(d).to_dict() == d
        narrow = load(engine, players=2, etienne_swap="picks_and_combination")
        for d in (in_bid, in_pick):
            with pytest.raises(StateError, match="MC-16"):
                narrow.state_from_dict(dict(d, params=narrow.params))


@pytest.mark.parametrize("value", E_VALUES)
def test_mc16_whole_games_swap_only_where_the_reading_allows(engine: str, value: str) -> None:
    """MC-16 over seeded random games (3 players) that prefer a swap in a discard phase:
    every swap offered lies in a phase of the reading, the histories load in their game, and
    the readings that allow it do swap at bids and between discards (``also_hand_limit``:
    seat hands start at 8 cards so that discards come often; ``kept_card="highest_printed"``,
    whose fewer combination actions make a random seat decline often enough to reach 9
    cards: under the default, random seats combine so often that no hand exceeds 8)."""
    g = load(engine, players=3, etienne_swap=value, hand_size=8, kept_card="highest_printed")
    seen = set()
    for seed in range(12):
        s = g.new_state(seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            phase = s.to_dict()["phase"]
            legal = [int(a) for a in s.legal_actions()]
            sw = [a for a in legal if SWAP <= a < DECLINE]
            if sw:
                seen.add(phase)
            # keep Etienne for the discards: no swap elsewhere while one may come there
            pool = sw if phase == "discard" and sw else [a for a in legal if not SWAP <= a < DECLINE] or legal
            s.apply_action(rng.choice(pool))
        d = s.to_dict()
        assert g.state_from_dict(d).to_dict() == d
    assert seen == set(ETIENNE_AT[value])


@pytest.mark.compiled
def test_mc16_compiled_random_step_and_legality_test_between_the_discards() -> None:
    """MC-16 ``also_hand_limit`` on the compiled core: simulate's policy step
    (``mh_random_step``) in the discard phase picks ``legal[below(n)]`` of the listing (the
    discards, then the swaps) with the same draws, and ``apply_action``'s legality test
    accepts exactly the listed actions; under the default the same position lists no swap."""
    from mousehole._cgame import CGame
    from mousehole._maus_au_chocolat import _selfcheck_legal
    from mousehole._rng import Rng

    for value, count in (("also_hand_limit", 18), ("any_decision", 9)):
        g = mousehole.load("maus_au_chocolat", engine="compiled", players=2, etienne_swap=value)
        s = to_discard_phase(g)
        assert _selfcheck_legal(s) == count == len(s.legal_actions())
        c = CGame(s)
        assert c.legal() == [int(a) for a in s.legal_actions()] and len(c.legal()) <= c.dims()["max_legal"]
        kinds = set()
        for seed in range(40):
            rng = Rng(seed)
            legal = s.legal_actions()
            want = s.clone()
            a = int(legal[rng.below(len(legal))])
            want.apply_action(a)
            kinds.add(a >= SWAP)
            step = CGame(s)
            after, seat = step.random_step(seed)
            assert after == rng.state
            assert seat == want.current_player
            assert step.same_struct(CGame(want)), seed
        assert kinds == ({False, True} if value == "also_hand_limit" else {False})


# ---- tie_break_moment ------------------------------------------------------------------------

T_VALUES = ["before_passing", "after_passing"]
FIVES = {
    ing: [
        cid(ing, 5, coin) for coin in range(1, 9) if any(c[0] == ING[ing] and c[1] == 5 and c[2] == coin for c in CARDS)
    ]
    for ing in ING
}


def tie_position(game: Any, helpers: List[int], vp: List[List[int]], sets: Dict[int, List[int]]) -> Any:
    """The first round's combination phase, the first seat in helper order to play; seat q
    holds ``vp[q]`` as victory points and, if ``q`` is in ``sets``, the three cards
    ``sets[q]`` and one more, else four other cards; the helpers ``helpers``, the row the
    others in id order (its leftmost is the lowest id not held)."""
    n = len(helpers)
    used = set(sum(vp, [])) | set(sum(sets.values(), []))
    free = [c for c in range(80) if c not in used and CARDS[c][1] != 5]
    hands = []
    for q in range(n):
        hands.append(sorted(sets[q] + [free.pop()]) if q in sets else sorted(free.pop() for _ in range(4)))
    rest = [c for c in range(80) if c not in used and c not in sum(hands, [])]
    order = sorted(range(n), key=lambda q: helpers[q])  # MC-10: helper rank order
    return round_one(
        game,
        "combine",
        pile=rest[1:],
        display=[rest[0]],
        hands=hands,
        vp=[sorted(v) for v in vp],
        helpers=list(helpers),
        order=order,
        rng=5,
    )


def play_to_the_end(s: Any, sets: Dict[int, List[int]]) -> Any:
    """Each seat of ``sets`` lays those three cards (the first legal combination that keeps
    one of them and nothing else: a mixed set keeps one card, MC-12); every other seat
    declines."""
    while not s.is_terminal():
        p = s.current_player
        chosen = MCDecline()
        if p in sets:
            hand = s.to_dict()["hands"][p]
            for mv in moves(s):
                if isinstance(mv, MCCombine) and sorted(hand[i] for i in mv.slots) == sorted(sets[p]):
                    chosen = mv
                    break
            else:
                raise AssertionError(f"seat {p} cannot lay {sets[p]}")
        s.apply(chosen)
    return s


def test_mc25_the_reading_keeps_the_action_space_and_observation(engine: str) -> None:
    """MC-25: ``after_passing`` changes no move: the same action space and observation."""
    default, after = load(engine, players=3), load(engine, players=3, tie_break_moment="after_passing")
    assert default.params["tie_break_moment"] == "before_passing"
    assert after.params["tie_break_moment"] == "after_passing"
    assert default.num_actions == after.num_actions == 2085
    assert default.observation_shape == after.observation_shape


# 3 seats: seat 0 Etienne (rank 7), seat 1 Henri (6), seat 2 Mathieu (5); the row Maurice,
# Lilly, Amélie, Claude. Seats 0 and 2 hold 25 (five 5s each) and lay a mixed set of 5s,
# which keeps one 5 (MC-12): a tie at 30. Before the pass seat 0's Etienne wins the tie;
# after it seat 0 would hold seat 2's Mathieu (5), seat 1 the row's Maurice (4) and seat 2
# seat 1's Henri (6): seat 2 wins.
# 2 seats: seat 0 Henri, seat 1 Etienne, tied at 30 the same way: before the pass seat 1
# wins; after it seat 0 would hold Etienne and seat 1 the row's leftmost, Mathieu: seat 0.
VP_A = FIVES["eggs"] + FIVES["fruit"][:1]
VP_B = FIVES["nuts"] + FIVES["chocolate"][:1]
SET_A = FIVES["fruit"][1:3] + FIVES["sugar"][:1]
SET_B = FIVES["chocolate"][1:3] + FIVES["sugar"][1:2]
TIES = [
    ([0, 1, 2], [VP_A, [], VP_B], {0: SET_A, 2: SET_B}, {"before_passing": [0], "after_passing": [2]}),
    ([1, 0], [VP_A, VP_B], {0: SET_A, 1: SET_B}, {"before_passing": [1], "after_passing": [0]}),
]


@pytest.mark.parametrize("value", T_VALUES)
@pytest.mark.parametrize("case", [0, 1], ids=["3-players", "2-players"])
def test_mc25_mc15_a_tie_goes_by_the_helpers_of_the_reading(engine: str, value: str, case: int) -> None:
    """MC-24, MC-25, MC-15: a round ends with two seats tied at 30; the winner is the seat
    with the higher helper held in that round (``before_passing``) or after that round's
    pass (``after_passing``). The helpers themselves are not passed after the last round."""
    helpers, vp, sets, want = TIES[case]
    g = load(engine, players=len(helpers), tie_break_moment=value)
    s = play_to_the_end(tie_position(g, helpers, vp, sets), sets)
    assert s.scores()[0] == 30 and s.scores()[-1] == 30 and not s.truncated
    assert s.to_dict()["helpers"] == helpers
    assert s.winners() == want[value]
    assert list(s.returns()) == [1.0 if q in want[value] else -1.0 for q in range(len(helpers))]


def test_mc25_without_a_tie_the_reading_changes_nothing(engine: str) -> None:
    """MC-25: when seat 2 declines, seat 0 wins with 30 against 25 under both readings (the
    tie-break only breaks ties)."""
    helpers, vp, sets, _ = TIES[0]
    for value in T_VALUES:
        s = tie_position(load(engine, players=3, tie_break_moment=value), helpers, vp, sets)
        s = play_to_the_end(s, {0: sets[0]})
        assert s.scores() == [30, 0, 25] and s.winners() == [0]


def test_mc25_the_score_breakdown_names_the_tie_helper(engine: str) -> None:
    """MC-25 in ``describe``'s end: the helper shown per seat is the one that breaks a tie
    under the reading."""
    helpers, vp, sets, _ = TIES[0]
    for value, shown in (("before_passing", "helper Etienne"), ("after_passing", "helper after the pass Mathieu")):
        g = load(engine, players=3, tie_break_moment=value)
        s = play_to_the_end(tie_position(g, helpers, vp, sets), sets)
        lines = g._score_breakdown(s.to_dict())
        assert lines is not None and shown in lines[0]


def test_mc25_whole_games_play_alike_and_only_the_winners_differ(engine: str) -> None:
    """MC-25: seeded random games under both readings make the same moves and scores; the
    winners differ exactly in the games that end in a tie of the top score whose two helper
    orders disagree."""
    differed = 0
    for seed in range(40):
        ends = []
        for value in T_VALUES:
            g = load(engine, players=2, tie_break_moment=value, target=8)
            s = g.new_state(seed=seed)
            r = random.Random(seed)
            while not s.is_terminal():
                legal = list(s.legal_actions())
                s.apply_action(r.choice(legal))
            ends.append((s.to_dict(), s.winners()))
        (d0, w0), (d1, w1) = ends
        assert {k: v for k, v in d0.items() if k != "params"} == {k: v for k, v in d1.items() if k != "params"}
        sc = [sum(CARDS[c][1] for c in v) for v in d0["vp"]]
        if sc[0] != sc[1]:
            assert w0 == w1
        else:
            passed = [d0["helpers"][1], d0["row"][0]]
            assert w0 == [min(range(2), key=lambda q: d0["helpers"][q])]
            assert w1 == [min(range(2), key=lambda q: passed[q])]
            differed += w0 != w1
    assert differed > 0


# ---- changed_value ---------------------------------------------------------------------------
#
# Seat 0 holds Mathieu and eggs3/1c, eggs3/2c, eggs4/4c (slots 0, 1, 2, one colour) and
# sugar7/2c (slot 3). Lowering a 3 to 2 makes the one-colour run 2-3-4, which keeps its
# highest card, the 4 (slot 2); lowering the 4 makes the one-colour set 3-3-3, which keeps two
# cards. Under "printed_range" a 3 cannot be lowered (no card prints a 2): the run is gone.
# Maurice's mirror: eggs6/5c, eggs7/2c, eggs7/3c (slots 0, 1, 2) and sugar3/1c: raising a 7 to
# 8 makes the run 6-7-8 keeping that 7 (slot 1 or 2); raising the 6 the set 7-7-7.
C_VALUES = ["unbounded", "printed_range"]
MATHIEU_334 = [cid("eggs", 3, 1), cid("eggs", 3, 2), cid("eggs", 4, 4), cid("sugar", 7, 2)]
MAURICE_677 = [cid("eggs", 6, 5), cid("eggs", 7, 2), cid("eggs", 7, 3), cid("sugar", 3, 1)]
SET_KEEPS = [MCCombine((0, 1, 2), (0, 1)), MCCombine((0, 1, 2), (0, 2)), MCCombine((0, 1, 2), (1, 2))]
CHANGED = {  # (helper, kept_card) -> the legal moves under each reading, in action order
    (MATHIEU, "player_chooses"): {
        "unbounded": [MCDecline(), SET_KEEPS[0], MCCombine((0, 1, 2), (2,))] + SET_KEEPS[1:],
        "printed_range": [MCDecline()] + SET_KEEPS,
    },
    (MATHIEU, "highest_printed"): {
        "unbounded": [MCDecline(), MCCombine((0, 1, 2), (2,)), MCCombine((0, 1, 2), (0, 2))],
        "printed_range": [MCDecline(), MCCombine((0, 1, 2), (0, 2))],
    },
    (MAURICE, "player_chooses"): {
        "unbounded": [MCDecline(), MCCombine((0, 1, 2), (1,)), SET_KEEPS[0], MCCombine((0, 1, 2), (2,))]
        + SET_KEEPS[1:],
        "printed_range": [MCDecline()] + SET_KEEPS,
    },
    (MAURICE, "highest_printed"): {
        "unbounded": [
            MCDecline(),
            MCCombine((0, 1, 2), (1,)),
            MCCombine((0, 1, 2), (2,)),
            MCCombine((0, 1, 2), (1, 2)),
        ],
        "printed_range": [MCDecline(), MCCombine((0, 1, 2), (1, 2))],
    },
}


def changed_position(game: Any, helper: int) -> Any:
    return combine_position(game, MATHIEU_334 if helper == MATHIEU else MAURICE_677, helper)


def test_mc18_the_reading_keeps_the_action_space_and_observation(engine: str) -> None:
    """MC-18, MC-19: ``printed_range`` only removes combinations: the same action space and
    observation; the default is ``unbounded``."""
    default, bounded = load(engine, players=3), load(engine, players=3, changed_value="printed_range")
    assert default.params["changed_value"] == "unbounded"
    assert bounded.params["changed_value"] == "printed_range"
    assert default.num_actions == bounded.num_actions == 2085
    assert default.observation_shape == bounded.observation_shape


@pytest.mark.parametrize("value", C_VALUES)
@pytest.mark.parametrize("kept_card", ["player_chooses", "highest_printed"])
@pytest.mark.parametrize("helper", [MATHIEU, MAURICE], ids=["mathieu", "maurice"])
def test_mc18_mc19_a_change_past_the_printed_values(engine: str, helper: int, kept_card: str, value: str) -> None:
    """MC-18 (Mathieu: 3-3-4 of one colour) and MC-19 (Maurice: 6-7-7): the run through a 2
    (or an 8) is a legal combination keeping the 4 (or the raised 7) under ``unbounded``, and
    is not under ``printed_range``; the sets every reading allows stay (MC-12, MC-23)."""
    g = load(engine, players=2, kept_card=kept_card, changed_value=value)
    s = changed_position(g, helper)
    assert s.current_player == 0
    assert moves(s) == CHANGED[(helper, kept_card)][value]
    if value == "printed_range":
        with pytest.raises(IllegalMoveError):
            s.apply(MCCombine((0, 1, 2), (2,)))


@pytest.mark.parametrize("value", C_VALUES)
def test_mc18_mc13_the_run_through_a_two_scores_the_printed_four(engine: str, value: str) -> None:
    """MC-18, MC-13: under ``unbounded`` Mathieu's run 2-3-4 keeps eggs4/4c (4 points: the
    printed value) and discards both 3s; ``printed_range`` refuses it, and the set 3-3-3
    (the 4 lowered) keeping the 4 and a 3 is legal under both (7 points)."""
    g = load(engine, players=2, changed_value=value)
    s = changed_position(g, MATHIEU)
    if value == "unbounded":
        s.apply(MCCombine((0, 1, 2), (2,)))
        d = s.to_dict()
        assert d["vp"][0] == [MATHIEU_334[2]] and s.scores()[0] == 4
        assert sorted(d["discard"]) == MATHIEU_334[:2] and d["hands"][0] == [MATHIEU_334[3]]
    else:
        assert MCCombine((0, 1, 2), (2,)) not in moves(s)
    s = changed_position(g, MATHIEU)
    s.apply(MCCombine((0, 1, 2), (0, 2)))
    assert s.scores()[0] == 7 and s.to_dict()["vp"][0] == [MATHIEU_334[0], MATHIEU_334[2]]


def test_mc18_the_range_is_the_game_tables(engine: str) -> None:
    """MC-18, MC-19, MC-1 with a card table of candy values 4..6 only: under
    ``printed_range`` Mathieu cannot lower a 4 (4-4-5 of one colour: no run 3-4-5, only the
    set), Maurice cannot raise a 6 (5-6-6: no run 5-6-7); under ``unbounded`` both runs are
    legal."""
    table = [[i // 16, 4 + (i % 16) % 3, 1] for i in range(80)]  # ids 0, 3: candy 4; 1: 5; 2, 5: 6
    # Mathieu: eggs 4, 5, 4 (slots 0..2) and fruit4: the run 3-4-5 keeps the 5 (slot 1).
    # Maurice: eggs 5, 6, 6 and fruit4: the run 5-6-7 keeps the raised 6 (slot 1 or 2).
    for helper, hand, runs in (
        (MATHIEU, [0, 1, 3, 16], {MCCombine((0, 1, 2), (1,))}),
        (MAURICE, [1, 2, 5, 16], {MCCombine((0, 1, 2), (1,)), MCCombine((0, 1, 2), (2,))}),
    ):
        legal = {}
        for value in C_VALUES:
            g = load(engine, players=2, cards=table, changed_value=value)
            legal[value] = moves(combine_position(g, hand, helper))
        assert set(legal["unbounded"]) - set(legal["printed_range"]) == runs
        assert set(legal["printed_range"]) < set(legal["unbounded"])


def test_mc18_reference_search_rejects_an_unknown_reading() -> None:
    """MC-18, MC-19: the reference's ``combination_actions`` names the reading's values."""
    from mousehole.maus_au_chocolat import combination_actions

    with pytest.raises(ValueError, match="MC-18/MC-19: changed_value"):
        combination_actions(MATHIEU_334, CARDS, MATHIEU, changed_value="clamp")


@pytest.mark.compiled
@pytest.mark.parametrize("kept_card", ["player_chooses", "highest_printed"])
def test_mc18_compiled_count_decoding_and_legality_test_use_the_reading(kept_card: str) -> None:
    """MC-18, MC-19, MC-29 on the compiled core with ``printed_range``: simulate's count and
    decoding agree with the listing (random hands, every helper), the listing equals the
    reference's ``combination_actions`` for Mathieu's and Maurice's hands, and
    ``apply_action``'s legality test accepts exactly the listed actions in seeded games."""
    from mousehole._maus_au_chocolat import _selfcheck_combos, _selfcheck_legal
    from mousehole.maus_au_chocolat import combination_actions

    g = mousehole.load(
        "maus_au_chocolat", engine="compiled", players=2, kept_card=kept_card, changed_value="printed_range"
    )
    assert _selfcheck_combos(g.new_state(0), 41, 1500) == 1500
    rng = random.Random(7)
    differ = 0
    for _ in range(300):
        helper = rng.choice([MATHIEU, MAURICE])
        hand = sorted(rng.sample(range(80), rng.randint(4, 9)))
        s = combine_position(g, hand, helper)
        want = combination_actions(hand, g.cards, helper, kept_card=kept_card, changed_value="printed_range")
        assert s.combination_actions(0) == want
        differ += want != combination_actions(hand, g.cards, helper, kept_card=kept_card)
    assert differ > 0
    for seed in range(3):
        s = g.new_state(seed=seed)
        while not s.is_terminal():
            assert _selfcheck_legal(s) == len(s.legal_actions())
            s.apply_action(rng.choice(list(s.legal_actions())))


# ---- etienne_draw ----------------------------------------------------------------------------
#
# The round of ``etienne_round``: seat 0 (Etienne) may swap at its bid, picks and combination
# step. With ``etienne_draw="optional"`` it may also discard a card without drawing, the action
# ``DISCARD + c``, at each of those decisions; never among the hand-limit discards, where
# ``DISCARD + c`` is the hand-limit discard itself.
D_VALUES = ["always", "optional"]


def nodraw(cards: List[int]) -> List[int]:
    return [DISCARD + c for c in sorted(cards)]


@pytest.mark.parametrize(
    "param, default, value",
    [("etienne_draw", "always", "optional"), ("hand_limit", "after_combination", "standing")],
    ids=["etienne_draw-MC-16", "hand_limit-MC-14"],
)
def test_mc16_mc14_discard_readings_keep_the_action_space_and_observation(
    engine: str, param: str, default: str, value: str
) -> None:
    """MC-16 ``etienne_draw="optional"`` and MC-14 ``hand_limit="standing"`` reuse the discard
    actions 160 + c: 2085 actions, the same observation shape; ``always`` and
    ``after_combination`` are the defaults."""
    g = load(engine, players=2, **{param: value})
    assert load(engine).params[param] == default and g.params[param] == value
    assert g.num_actions == load(engine, players=2).num_actions == 2085
    assert g.observation_shape == load(engine, players=2).observation_shape


@pytest.mark.parametrize("value", D_VALUES)
def test_mc16_discards_without_a_draw_at_each_decision(engine: str, value: str) -> None:
    """MC-16 at the bid, a pick and the combination step of Etienne's holder: ``always``
    lists its bids or picks, then its swaps (then the decline and the combinations);
    ``optional`` also its discards without a draw, ``160 + c`` for each hand card, before the
    swaps."""
    g = load(engine, players=2, etienne_draw=value)
    extra = (lambda cards: nodraw(cards)) if value == "optional" else (lambda cards: [])
    s = etienne_round(g)
    assert list(s.legal_actions()) == [BID + c for c in sorted(E_HAND)] + extra(E_HAND) + swaps(E_HAND)
    s.apply_joint([BID + E_BID, BID + E_OTHER_BID])
    hand = sorted(set(E_HAND) - {E_BID})
    assert list(s.legal_actions()) == [PICK + c for c in sorted(E_DISPLAY)] + extra(hand) + swaps(hand)
    display = sorted(E_DISPLAY)
    for a in (PICK + display[0], PICK + display[1], PICK + display[2], PICK + E_BID):
        s.apply_action(a)
    hand = s.to_dict()["hands"][0]
    assert s.current_player == 0 and s.to_dict()["phase"] == "combine" and len(hand) == 9
    legal = list(s.legal_actions())
    assert legal[: legal.index(DECLINE)] == extra(hand) + swaps(hand)


@pytest.mark.parametrize("value", D_VALUES)
def test_mc16_a_discard_without_a_draw_at_a_pick(engine: str, value: str) -> None:
    """MC-16 ``optional``: at its first pick seat 0 discards eggs3/1c without drawing: the card
    lies face up on the discard pile, the hand holds one card less, the pile keeps its top
    card, the power is used (no swap and no second discard: only the picks are left), and
    seat 0 still picks. ``always``: the same action is refused, the state unchanged."""
    g = load(engine, players=2, etienne_draw=value)
    s = etienne_round(g)
    s.apply_joint([BID + E_BID, BID + E_OTHER_BID])
    before = s.to_dict()
    card = E_HAND[0]
    if value == "always":
        with pytest.raises(IllegalMoveError):
            s.apply_action(DISCARD + card)
        assert s.to_dict() == before
        return
    s.apply_action(DISCARD + card)
    d = s.to_dict()
    assert d["discard"] == [card] and d["hands"][0] == sorted(set(before["hands"][0]) - {card})
    assert d["pile"] == before["pile"] and d["etienne_used"] and d["phase"] == "pick"
    assert s.current_player == 0 and list(s.legal_actions()) == [PICK + c for c in sorted(E_DISPLAY)]
    assert s.scores() == [0, 0]


@pytest.mark.parametrize("swap_value", ["any_decision", "also_hand_limit"])
def test_mc16_no_discard_without_a_draw_among_the_hand_limit_discards(engine: str, swap_value: str) -> None:
    """MC-16, MC-14: among the hand-limit discards ``DISCARD + c`` is the hand-limit discard:
    the legal actions are those of ``always`` (the discards, and with ``also_hand_limit`` the
    swaps), and a discard there leaves the power unused."""
    for value in D_VALUES:
        s = to_discard_phase(load(engine, players=2, etienne_draw=value, etienne_swap=swap_value))
        hand = s.to_dict()["hands"][0]
        assert list(s.legal_actions()) == nodraw(hand) + (swaps(hand) if swap_value == "also_hand_limit" else [])
        s.apply_action(DISCARD + hand[0])
        d = s.to_dict()
        assert not d["etienne_used"] and len(d["hands"][0]) == 8 and d["phase"] == "combine"


def test_mc16_no_discard_without_a_draw_of_the_last_card(engine: str) -> None:
    """MC-16 ``optional``: a holder of one card may swap it but not discard it without a draw
    (it needs a card to bid): at its bid with one card the legal actions are that bid and that
    swap; the discard is refused naming MC-16."""
    g = load(engine, players=2, etienne_draw="optional")
    d = etienne_round(g).to_dict()
    keep = E_HAND[0]
    d["pile"] = sorted(d["pile"] + [c for c in E_HAND if c != keep])
    d["hands"][0] = [keep]
    s = g.state_from_dict(d)
    assert list(s.legal_actions()) == [BID + keep, SWAP + keep]
    with pytest.raises(IllegalMoveError, match="MC-16"):
        s.apply_action(DISCARD + keep)


def test_mc16_whole_games_with_discards_without_a_draw_reload(engine: str) -> None:
    """MC-16 ``optional`` in seeded random games (2 and 3 players): discards without a draw
    happen, at most one Etienne action a round, and every position reloads from its dict
    and from each seat's view (the history check tells Etienne's discards from the hand-limit
    ones, also seat 0's before its bid right after the last round's last combination step,
    by ``etienne_used``)."""
    used = boundary = 0
    for players in (2, 3):
        g = load(engine, players=players, etienne_draw="optional")
        for seed in range(25):
            s = g.new_state(seed=seed)
            rng = random.Random(seed)
            while not s.is_terminal():
                d = s.to_dict()
                g.state_from_dict(d)
                for q in range(players):
                    s.determinize(q, seed)
                hist = d["history"]
                if (
                    d["phase"] == "bid"
                    and d["etienne_used"]
                    and d["helpers"][0] == 0
                    and len(hist) > 1
                    and DISCARD <= hist[-1] < SWAP
                    and hist[-2] >= DECLINE
                ):
                    boundary += 1
                a = int(rng.choice(list(s.legal_actions())))
                if DISCARD <= a < SWAP and d["phase"] != "discard":
                    used += 1
                    assert not d["etienne_used"] and d["helpers"][s.current_player] == 0
                s.apply_action(a)
    assert used > 0 and boundary > 0


@pytest.mark.compiled
def test_mc16_etienne_draw_compiled_policy_and_legality_test() -> None:
    """MC-16 ``optional`` on the compiled core: ``apply_action``'s legality test accepts
    exactly the listed actions, and the C-level interface (bots, ``VectorGame``) lists the
    same within its ``max_legal``. (simulate's policy against the reference's:
    ``tests/test_readings.py::test_engines_agree``.)"""
    from mousehole._cgame import CGame
    from mousehole._maus_au_chocolat import _selfcheck_legal

    g = mousehole.load("maus_au_chocolat", engine="compiled", players=3, etienne_draw="optional")
    rng = random.Random(3)
    for seed in range(3):
        s = g.new_state(seed=seed)
        while not s.is_terminal():
            c = CGame(s)
            assert _selfcheck_legal(s) == len(s.legal_actions()) <= c.dims()["max_legal"]
            assert c.legal() == [int(a) for a in s.legal_actions()]
            s.apply_action(rng.choice(list(s.legal_actions())))


def test_mc16_state_dicts_refuse_a_discard_without_a_draw_the_reading_forbids(engine: str) -> None:
    """MC-16: seat 0 (Etienne) discards eggs3/1c without a draw at its bid, then bids; the
    dict reloads under ``optional``; under ``always`` the discard is no Etienne action, so
    ``etienne_used`` names a swap the history lacks, and under ``optional`` with
    ``etienne_swap="picks_and_combination"`` Etienne acts at no bid: both refuse it."""
    g = load(engine, players=2, etienne_draw="optional")
    s = etienne_round(g)
    s.apply_action(DISCARD + E_HAND[0])
    s.apply_action(BID + E_BID)
    d = s.to_dict()
    assert d["history"] == [DISCARD + E_HAND[0], BID + E_BID] and d["etienne_used"]
    assert g.state_from_dict(d).to_dict() == d
    bid_reading = {"etienne_draw": "optional", "etienne_swap": "picks_and_combination"}
    for other, match in (({}, "MC-16: 'etienne_used'"), (bid_reading, "MC-16.*etienne_swap")):
        g2 = load(engine, players=2, **other)
        with pytest.raises(StateError, match=match):
            g2.state_from_dict(dict(d, params=g2.params))


# ---- hand_limit ----------------------------------------------------------------------------
#
# In :func:`etienne_round` seat 0 (Etienne) holds eight cards, bids one and picks first: its
# second pick, nuts7/4c after nuts6/7c, brings a 9th card. ``after_combination`` (default):
# the picks go on (seat 1 takes the last two cards) and seat 0 lays its combination with nine
# cards, then discards down to 8. ``standing``: right after that pick seat 0 discards down to
# 8 (``DISCARD + c``, the phase ``discard``, its bid card still on the table), then seat 1
# picks, and seat 0's combination step sees eight cards.

H_VALUES = ["after_combination", "standing"]
H_DISPLAY = sorted(E_DISPLAY)  # nuts6/7c, nuts7/4c, chocolate7/4c
H_NINE = sorted(set(E_HAND) - {E_BID} | {H_DISPLAY[0], H_DISPLAY[1]})  # seat 0 after its picks
H_SIX = cid("nuts", 6, 7)  # seat 0's only 6: standing, it discards it
H_SEVENS = [cid("eggs", 7, 2), cid("fruit", 7, 3), cid("sugar", 7, 2), cid("nuts", 7, 4)]
H_FIVES = [cid("eggs", 5, 1), cid("fruit", 5, 2)]


def at_the_ninth_card(game: Any) -> Any:
    """:func:`etienne_round` played to seat 0's second pick (its 9th card)."""
    s = etienne_round(game)
    for a in (BID + E_BID, BID + E_OTHER_BID, PICK + H_DISPLAY[0], PICK + H_DISPLAY[1]):
        s.apply_action(a)
    assert s.to_dict()["hands"][0] == H_NINE and len(H_NINE) == 9
    return s


@pytest.mark.parametrize("swap_value", ["any_decision", "also_hand_limit"])
@pytest.mark.parametrize("value", H_VALUES)
def test_mc14_the_ninth_card_at_a_pick(engine: str, value: str, swap_value: str) -> None:
    """MC-14, MC-9: the moment seat 0's second pick brings its 9th card. ``after_combination``:
    seat 1 picks next (the last display card and seat 0's bid card). ``standing``: seat 0
    discards at once, its bid card still on the table (the legal actions: its nine discards,
    and the swaps only with ``etienne_swap="also_hand_limit"``, MC-16); the discard of
    nuts6/7c goes face up to the discard pile, seat 0's bid card joins the display, then
    seat 1 picks. The view and the dict show the phase ``discard`` in the pick order."""
    g = load(engine, players=2, hand_limit=value, etienne_swap=swap_value)
    s = at_the_ninth_card(g)
    d = s.to_dict()
    next_picks = [PICK + c for c in sorted([H_DISPLAY[2], E_BID])]
    if value == "after_combination":
        assert d["phase"] == "pick" and s.current_player == 1 and d["bids"] == [-1, E_OTHER_BID]
        assert list(s.legal_actions()) == next_picks
        return
    assert d["phase"] == "discard" and s.current_player == 0 and d["order"] == [0, 1] and d["turn"] == 0
    assert d["picks_left"] == 0 and d["bids"] == [E_BID, E_OTHER_BID] and d["display"] == [H_DISPLAY[2]]
    assert list(s.legal_actions()) == nodraw(H_NINE) + (swaps(H_NINE) if swap_value == "also_hand_limit" else [])
    v = s.to_dict(for_player=1)
    assert v["phase"] == "discard" and v["hands"][0] is None and v["hand_sizes"] == [9, 4]
    assert "pick order (MC-8): seats 0 (discarding), 1" in str(s)
    assert g.state_from_dict(d).to_dict() == d
    assert s.describe(DISCARD + H_SIX) == "seat 0 discards nuts6/7c"
    s.apply_action(DISCARD + H_SIX)
    d = s.to_dict()
    assert d["phase"] == "pick" and s.current_player == 1 and d["hands"][0] == [c for c in H_NINE if c != H_SIX]
    assert d["discard"] == [H_SIX] and d["display"] == sorted([H_DISPLAY[2], E_BID]) and d["bids"] == [-1, E_OTHER_BID]
    assert list(s.legal_actions()) == next_picks and not d["etienne_used"]
    assert g.state_from_dict(d).to_dict() == d


@pytest.mark.parametrize("value", H_VALUES)
def test_mc14_mc10_the_combination_step_that_differs(engine: str, value: str) -> None:
    """MC-14, MC-10, MC-12: seat 0's combination step after the picks. ``after_combination``:
    nine cards, so besides the four sets of three of its 7s (a mixed set keeps any one card:
    12 actions) it may lay the eight mixed runs 5-6-7 through nuts6/7c (each keeps its 5);
    after declining it discards down to 8. ``standing``: it discarded nuts6/7c at its pick, so
    eight cards and only the sets; after declining seat 1's step follows."""
    g = load(engine, players=2, hand_limit=value)
    s = at_the_ninth_card(g)
    if value == "standing":
        s.apply_action(DISCARD + H_SIX)
    s.apply_action(PICK + H_DISPLAY[2])  # seat 1 takes the last two cards
    s.apply_action(PICK + E_BID)
    d = s.to_dict()
    hand = d["hands"][0]
    assert d["phase"] == "combine" and s.current_player == 0
    assert hand == (H_NINE if value == "after_combination" else [c for c in H_NINE if c != H_SIX])
    legal = [int(a) for a in s.legal_actions()]
    assert legal[: len(hand) + 1] == swaps(hand) + [DECLINE]  # (Etienne's swaps, MC-16)
    laid = [frozenset(hand[i] for i in PATTERNS[a - COMBINE][0]) for a in legal if a > DECLINE]
    sets = {frozenset(t) for t in itertools.combinations(H_SEVENS, 3)}
    runs = {frozenset((five, H_SIX, seven)) for five in H_FIVES for seven in H_SEVENS}
    if value == "after_combination":
        assert set(laid) == sets | runs and len(laid) == 4 * 3 + 8
    else:
        assert set(laid) == sets and len(laid) == 4 * 3
    s.apply_action(DECLINE)
    d = s.to_dict()
    if value == "after_combination":
        assert d["phase"] == "discard" and s.current_player == 0
        assert list(s.legal_actions()) == nodraw(H_NINE)
    else:
        assert d["phase"] == "combine" and s.current_player == 1 and len(d["hands"][0]) == 8


def test_mc14_mc16_standing_swap_between_the_discards(engine: str) -> None:
    """MC-14 ``standing`` with MC-16 ``also_hand_limit``: at the discard after its pick
    Etienne's holder swaps eggs3/1c for the pile's top (sugar7/4c, id 79), still holds nine
    cards and only discards (once a round); the dicts with the history ending in the swap and
    after the discard reload under that reading and are refused under
    ``etienne_swap="any_decision"`` (no swap between hand-limit discards) and under
    ``hand_limit="after_combination"`` (no discard phase during the picks)."""
    g = load(engine, players=2, hand_limit="standing", etienne_swap="also_hand_limit")
    s = at_the_ninth_card(g)
    gone = cid("eggs", 3, 1)
    s.apply_action(SWAP + gone)
    mid = s.to_dict()
    hand = sorted([c for c in H_NINE if c != gone] + [79])
    assert mid["phase"] == "discard" and mid["hands"][0] == hand and mid["etienne_used"]
    assert s.current_player == 0 and list(s.legal_actions()) == nodraw(hand)
    s.apply_action(DISCARD + 79)
    after = s.to_dict()
    assert after["phase"] == "pick" and s.current_player == 1 and after["discard"] == [gone, 79]
    for d in (mid, after):
        assert g.state_from_dict(d).to_dict() == d
        narrow = load(engine, players=2, hand_limit="standing")
        with pytest.raises(StateError, match="MC-16.*hand limit"):
            narrow.state_from_dict(dict(d, params=narrow.params))
    for d in (mid, after):
        default = load(engine, players=2, etienne_swap="also_hand_limit")
        with pytest.raises(StateError, match="MC-14"):
            default.state_from_dict(dict(d, params=default.params))


def test_mc14_state_dicts_follow_the_reading(engine: str) -> None:
    """MC-14 in ``state_from_dict``: the discard phase during the picks loads only under
    ``standing``; under ``standing`` a hand of nine at a combination step, a discard phase
    whose picker holds 8 cards, and a hand-limit discard after a combination step in the
    history are refused, naming MC-14."""
    std = load(engine, players=2, hand_limit="standing")
    default = load(engine, players=2)
    s = at_the_ninth_card(std)
    d = s.to_dict()
    assert std.state_from_dict(d).to_dict() == d
    with pytest.raises(StateError, match="MC-14"):
        default.state_from_dict(dict(d, params=default.params))
    short = dict(d, hands=[d["hands"][0][1:], d["hands"][1]], discard=[d["hands"][0][0]], history=[])
    with pytest.raises(StateError, match="MC-14: the discard phase is for a hand above 8"):
        std.state_from_dict(short)
    t = at_the_ninth_card(default)  # the default game: nine cards at the combination step
    for a in (PICK + H_DISPLAY[2], PICK + E_BID):
        t.apply_action(a)
    nine = t.to_dict()
    assert nine["phase"] == "combine" and len(nine["hands"][0]) == 9
    with pytest.raises(StateError, match="MC-14"):
        std.state_from_dict(dict(nine, params=std.params))
    t.apply_action(DECLINE)
    t.apply_action(DISCARD + H_SIX)  # the default's discard after the combination step
    after = t.to_dict()
    assert default.state_from_dict(after).to_dict() == after
    with pytest.raises(StateError, match="MC-14"):
        std.state_from_dict(dict(after, params=std.params))


@pytest.mark.parametrize("players", [2, 3])
def test_mc14_whole_standing_games_never_combine_above_eight_and_reload(engine: str, players: int) -> None:
    """MC-14 ``standing`` in seeded random games (hands dealt at 8, so that 9th cards come
    often; ``etienne_swap="also_hand_limit"`` and ``etienne_draw="optional"``, so that swaps
    between those discards and Etienne's discards without a draw right after a pick come
    too; in the even seeds Etienne's holder keeps his power for those discards): every discard
    phase has the picker's bid card on the table and follows a pick, no hand reaches a
    combination step above 8 cards, no hand ever holds more than 9, and every position
    reloads from its dict and is determinized for every seat."""
    g = load(
        engine,
        players=players,
        hand_limit="standing",
        hand_size=8,
        etienne_swap="also_hand_limit",
        etienne_draw="optional",
    )
    limit_discards = swaps_between = after_pick = 0
    for seed in range(10):
        s = g.new_state(seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            d = s.to_dict()
            assert g.state_from_dict(d).to_dict() == d
            for q in range(players):
                s.determinize(q, seed)
            assert max(len(h) for h in d["hands"]) <= 9
            p = s.current_player
            if d["phase"] == "combine":
                assert len(d["hands"][p]) <= 8
            if d["phase"] == "discard":
                assert d["bids"][p] >= 0 and d["picks_left"] == 0 and len(d["hands"][p]) == 9
                assert _action_kind(d["history"][-1]) in ("pick", "swap")
            legal = [int(a) for a in s.legal_actions()]
            etienne = [a for a in legal if SWAP <= a < DECLINE or (DISCARD <= a < SWAP and d["phase"] != "discard")]
            if seed % 2 == 0:  # keep Etienne for the discards
                legal = etienne if d["phase"] == "discard" and etienne else [a for a in legal if a not in etienne]
            a = rng.choice(legal)
            limit_discards += d["phase"] == "discard" and DISCARD <= a < SWAP
            swaps_between += d["phase"] == "discard" and SWAP <= a < DECLINE
            # Etienne's discard without a draw right after a pick: the history reads it as MC-14's
            after_pick += a in etienne and a < SWAP and bool(d["history"]) and _action_kind(d["history"][-1]) == "pick"
            s.apply_action(a)
        d = s.to_dict()
        assert g.state_from_dict(d).to_dict() == d
    assert limit_discards > 0 and swaps_between > 0 and after_pick > 0


@pytest.mark.compiled
def test_mc14_compiled_random_step_and_legality_test_at_the_ninth_card() -> None:
    """MC-14 ``standing`` on the compiled core: at the discard after the pick, simulate's
    policy step (``mh_random_step``) picks ``legal[below(n)]`` of the listing (the discards,
    then with ``also_hand_limit`` the swaps) with the same draws and reaches the same struct
    as ``apply_action``, whose legality test accepts exactly the listed actions."""
    from mousehole._cgame import CGame
    from mousehole._maus_au_chocolat import _selfcheck_legal
    from mousehole._rng import Rng

    for swap_value, count in (("also_hand_limit", 18), ("any_decision", 9)):
        g = mousehole.load(
            "maus_au_chocolat", engine="compiled", players=2, hand_limit="standing", etienne_swap=swap_value
        )
        s = at_the_ninth_card(g)
        assert _selfcheck_legal(s) == count == len(s.legal_actions())
        assert CGame(s).legal() == [int(a) for a in s.legal_actions()]
        phases = set()
        for seed in range(40):
            rng = Rng(seed)
            legal = s.legal_actions()
            want = s.clone()
            want.apply_action(int(legal[rng.below(len(legal))]))
            phases.add(want.to_dict()["phase"])
            step = CGame(s)
            after, seat = step.random_step(seed)
            assert after == rng.state and seat == want.current_player
            assert step.same_struct(CGame(want)), seed
        assert phases == ({"pick", "discard"} if swap_value == "also_hand_limit" else {"pick"})


@pytest.mark.compiled
def test_mc14_standing_simulate_agrees_with_the_reference() -> None:
    """MC-14 ``standing`` in ``simulate`` (the compiled core's whole-game loop, which writes
    the round out: the discards after the picks are a block of their own there) against the
    reference engine's simulate, with hands dealt at 8 and ``kept_card="highest_printed"`` so
    that random seats often decline and 9th cards come (with 5 cards and the default, only
    about 1-3% of random games see one): the same scores, winners and lengths, which differ from
    ``after_combination``'s."""
    kw: Dict[str, Any] = dict(players=3, hand_size=8, kept_card="highest_printed")
    got = {}
    for value in H_VALUES:
        r = [mousehole.simulate(load(e, hand_limit=value, **kw), 12, seed=1) for e in ("compiled", "python")]
        for x, y in ((r[0].scores, r[1].scores), (r[0].winners, r[1].winners), (r[0].lengths, r[1].lengths)):
            assert (x == y).all(), value
        got[value] = list(r[0].lengths)
    assert got["standing"] != got["after_combination"]
