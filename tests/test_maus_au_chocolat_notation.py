"""Maus au Chocolat: moves a person can read and type.

* ``game.parse_move(str(move)) == move`` for every action of the action space;
* ``state.describe(a)`` writes a legal action with card names and ``state.parse_action``
  reads it back (and ``str(move)`` too), over whole games on both engines;
* bad text raises ``ValueError`` naming the notation; a move that is not legal here raises
  ``IllegalMoveError`` naming the rule.
"""

from __future__ import annotations

from typing import Any, List

import pytest

import mousehole
from gamecases import scale
from mousehole import IllegalMoveError
from mousehole._rng import Rng
from mousehole.maus_au_chocolat import (
    AMELIE,
    BID,
    COMBINE,
    DECLINE,
    DISCARD,
    MCBid,
    MCCombine,
    MCDecline,
    MCPick,
    MCSwap,
    default_cards,
    parse_move,
)


def load(engine: str, players: int = 4, **kw: Any) -> Any:
    return mousehole.load("maus_au_chocolat", engine=engine, players=players, **kw)


def test_every_action_round_trips_through_its_str(engine: str) -> None:
    g = load(engine)
    for a in range(g.num_actions):
        m = g.action_to_move(a)
        assert g.parse_move(str(m)) == m, a
        assert parse_move(str(m)) == m
        assert type(m).from_str(str(m)) == m
        assert g.move_to_action(g.parse_move(str(m))) == a


def test_card_moves_by_name() -> None:
    g = load("python")
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
    g = load("python")
    with pytest.raises(ValueError) as e:
        g.parse_move(text)
    assert not isinstance(e.value, IllegalMoveError)
    assert str(e.value) and "invalid literal" not in str(e.value)
    with pytest.raises(TypeError):
        g.parse_move(17)  # type: ignore[arg-type]


def _games(engine: str) -> Any:
    for players in (2, 4, 6):
        g = load(engine, players)
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
    g = load(engine, players=2)
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
    g = load(engine, players=3)
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
        g = load(engine, players=2, cards=cards)
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
    g = load(engine, players=2)
    cards = default_cards()
    eggs = [c for c in range(80) if cards[c][0] == 0]
    run = [next(c for c in eggs if cards[c][1] == v) for v in (3, 4, 5, 6)]
    d = g.new_state(seed=0).to_dict()
    spare = [c for c in range(80) if c not in run]
    hands = [sorted(run + [spare[0]]), spare[1:5]]
    display = spare[5:6]
    rest = spare[6:]
    d.update(
        phase="combine",
        hands=hands,
        display=display,
        pile=rest,
        discard=[],
        known=[[], []],
        vp=[[], []],
        bids=[-1, -1],
        helpers=[AMELIE, 6],
        row=[0, 1, 2, 3, 4],
        order=[0, 1],
        turn=0,
        picks_left=0,
        etienne_used=False,
        history=[],
        pools=[0] * 80,
    )
    s = g.state_from_dict(d)
    four = [int(a) for a in s.legal_actions() if a >= COMBINE and len(g.action_to_move(a).slots) == 4]
    assert four
    for a in four:
        assert s.parse_action(s.describe(a)) == a


def test_discards_read_back(engine: str) -> None:
    """MC-14: the hand-limit discards, written out and read back."""
    g = load(engine, players=2)
    d = g.new_state(seed=0).to_dict()
    hand = list(range(9))
    d.update(
        phase="discard",
        hands=[hand, [9, 10, 11]],
        display=[12],
        pile=list(range(13, 80)),
        discard=[],
        known=[[], []],
        vp=[[], []],
        bids=[-1, -1],
        helpers=[1, 6],
        row=[0, 2, 3, 4, 5],
        order=[0, 1],
        turn=0,
        picks_left=0,
        etienne_used=False,
        history=[],
        pools=[0] * 80,
    )
    s = g.state_from_dict(d)
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
