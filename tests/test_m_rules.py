"""Rules M-1 .. M-22 of M (restated in ``docs/games/m.md``), one or more tests per rule id,
on both engines. Positions are crafted as dicts and loaded with ``game.state_from_dict``.

After the rules, in sections of their own (``# -- notation``, ``# -- observation``, ``# -- the C
game interface``): the cases only this game has of its notation, its observation planes and its
core's ``mh_game_t``, hand-built positions with their expected strings, planes and values
(what every game has is checked by the generic suites over the registry)."""

from __future__ import annotations

import re
from typing import Any, Dict, Iterator, List, Optional, Sequence, Set, Tuple

import numpy as np
import pytest

import mousehole
from gamecases import (
    cgame,
    check_observations_against_reference,
    random_states,
    reference_pairs,
    same_bits,
    scale,
    state_clones,
)
from mousehole import IllegalMoveError, Rng
from mousehole._rng import derive
from mousehole.m import DEFAULT, MChooseRow, MPass, MPlace, MTake, W, final_score, parse_move

Cell = Tuple[int, int]
COLOURS = DEFAULT["colours"]
CARDS = DEFAULT["cards"]


class Deck:
    """Hands out default card ids by description, each id at most once."""

    def __init__(self) -> None:
        self.used: Set[int] = set()

    def __call__(self, colour: str, value: int, symbol: Optional[str] = None) -> int:
        for i, c in enumerate(CARDS):
            if c == [colour, value, symbol] and i not in self.used:
                self.used.add(i)
                return i
        raise KeyError((colour, value, symbol))


def build(
    engine: str,
    table: Dict[Cell, int],
    hands: Sequence[Sequence[int]],
    *,
    pile: Optional[List[int]] = None,
    pile_putter: Optional[List[int]] = None,
    chips: Optional[List[int]] = None,
    taken: Optional[List[List[int]]] = None,
    current: int = 0,
    phase: str = "play",
    placer: int = -1,
    scoring_row: Sequence[Cell] = (),
    last: Optional[Cell] = None,
    end: Optional[str] = None,
    passes: int = 0,
    max_turns: int = 2000,
) -> Any:
    """A state with these cards; every other card is in the pile (when ``pile`` is None)
    or out of play with the removed cards (M-3)."""
    n = len(hands)
    taken = taken or [[] for _ in range(n)]
    used = set(table.values()) | {c for h in hands for c in h} | {c for t in taken for c in t}
    rest = [c for c in range(len(CARDS)) if c not in used and (pile is None or c not in pile)]
    if pile is None:
        pile, removed = rest, []
    else:
        removed = rest
    game = mousehole.load("m", players=n, engine=engine, max_turns=max_turns)
    d = game.new_state(0).to_dict()
    d.update(
        table=[[r, c, card] for (r, c), card in sorted(table.items())],
        hands=[sorted(h) for h in hands],
        pile=list(pile),
        pile_putter=pile_putter if pile_putter is not None else [-1] * len(pile),
        removed=sorted(removed),
        chips=chips if chips is not None else [6] * n,
        taken=taken,
        phase=phase,
        current=-4 if phase == "over" else current,
        placer=placer,
        last=None if last is None else list(last),
        scoring_row=[list(x) for x in sorted(scoring_row)],
        passes=passes,
        end=end,
        truncated=end == "max_turns",
        history=[],
    )
    return game.state_from_dict(d)


def origin(state: Any) -> Cell:
    t = state.to_dict()["table"]
    return min(e[0] for e in t) - 1, min(e[1] for e in t) - 1


def place(state: Any, card: int, r: int, c: int) -> int:
    """The action laying ``card`` (from the current hand) on absolute cell (r, c)."""
    d = state.to_dict()
    slot = d["hands"][d["current"]].index(card)
    r0, c0 = origin(state)
    return state.game.move_to_action(MPlace(slot, r - r0, c - c0))  # type: ignore[no-any-return]


def take(state: Any, r: int, c: int) -> int:
    r0, c0 = origin(state)
    return state.game.move_to_action(MTake(r - r0, c - c0))  # type: ignore[no-any-return]


def table_of(state: Any) -> Dict[Cell, int]:
    return {(r, c): card for r, c, card in state.to_dict()["table"]}


def refused(state: Any, action: int, rule: str) -> None:
    before = state.to_dict()
    assert action not in state.legal_actions()
    with pytest.raises(IllegalMoveError, match=rule):
        state.apply_action(action)
    assert state.to_dict() == before


# ---- components and setup -------------------------------------------------------------------


def test_m1_default_cards(engine: str) -> None:
    """M-1: 90 cards, 18 per colour, two value-0 cards per colour without symbol."""
    g = mousehole.load("m", engine=engine)
    assert len(g.params["cards"]) == 90
    for col in COLOURS:
        mine = [c for c in g.params["cards"] if c[0] == col]
        assert len(mine) == 18
        assert sorted(c[1] for c in mine) == [0, 0] + [10] * 4 + [20] * 4 + [30] * 4 + [40] * 4
        assert all((c[2] is None) == (c[1] == 0) for c in mine)
        assert len({(c[1], c[2]) for c in mine if c[1]}) == 16
    d = Deck()
    # value-0 cards never match on symbol: two zeros of different colours share one attribute
    assert g.matches(d("blue", 0), d("pink", 0)) == 1
    assert g.matches(d("blue", 0), d("green", 0)) == 1
    assert g.matches(0, 1) == 2  # the two blue 0s: colour and value
    assert g.matches(d("blue", 10, "square"), d("blue", 10, "triangle")) == 2


def test_m1_parameters_are_validated() -> None:
    """M-1: the card list is a parameter, checked at load time."""
    with pytest.raises(mousehole.ParameterError, match="M-1"):
        mousehole.load("m", cards=[["purple", 10, "square"]] * 40)
    with pytest.raises(mousehole.ParameterError, match="M-1"):
        mousehole.load("m", cards=[["blue", 0, "square"]] * 40)
    with pytest.raises(mousehole.ParameterError, match="players"):
        mousehole.load("m", players=7)
    with pytest.raises(mousehole.ParameterError, match="M-4"):
        mousehole.load("m", start_layout=[[0, 0], [0, 2]])


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_m2_m3_m5_setup(engine: str, n: int) -> None:
    """M-2: 6 chips each; M-3: 50, 60, .., 90 cards in play for 2..6 players (the list of the
    spec; its formula "40 + 10 n" is a typo for 30 + 10 n), the rest removed; M-5: 4 cards
    each, seat 0 starts."""
    g = mousehole.load("m", players=n, engine=engine)
    s = g.new_state(11)
    d = s.to_dict()
    assert d["chips"] == [6] * n
    assert len(d["removed"]) == 90 - (30 + 10 * n)
    assert all(len(h) == 4 for h in d["hands"])
    assert len(d["table"]) == 5
    assert len(d["pile"]) == 30 + 10 * n - 5 - 4 * n
    assert s.current_player == 0


def test_m2_chip_worth(engine: str) -> None:
    """M-2: a chip is worth 10 points."""
    s = build(engine, {(0, 0): 0}, [[], []], chips=[7, 5])
    assert s.scores() == [70, 50]


def test_m4_m5_deal_order(engine: str) -> None:
    """M-4: the top five cards form the M at the DEFAULT cells; M-5: then seat 0 draws
    four, then seat 1, ..."""
    g = mousehole.load("m", players=3, engine=engine)
    deck = list(range(90))
    Rng(5).shuffle(deck)
    in_play = deck[:60]
    d = g.new_state(5).to_dict()
    start = in_play[::-1][:5]
    cells = [[0, 0], [0, 2], [1, 0], [1, 1], [1, 2]]
    assert sorted(d["table"]) == sorted([rc + [c] for rc, c in zip(cells, start)])
    for p in range(3):
        assert d["hands"][p] == sorted(in_play[::-1][5 + 4 * p : 9 + 4 * p])
    assert d["removed"] == sorted(deck[60:])
    assert d["pile"] == in_play[: 60 - 17]


# ---- M-6 placing -----------------------------------------------------------------------------


def test_m6_fits_by_value(engine: str) -> None:
    """M-6 example: the card may be laid because the value (30) matches."""
    d = Deck()
    a, b = d("blue", 30, "square"), d("green", 30, "triangle")
    s = build(engine, {(0, 0): a}, [[b], []])
    s.apply_action(place(s, b, 0, 1))
    assert table_of(s)[(0, 1)] == b


def test_m6_symbol_one_neighbour_colour_other(engine: str) -> None:
    """M-6 example: symbol (triangle) with the card above, colour (green) with the right one."""
    d = Deck()
    top, right, link = d("pink", 10, "triangle"), d("green", 20, "square"), d("blue", 40, "circle")
    card = d("green", 30, "triangle")
    s = build(engine, {(0, 1): top, (0, 2): link, (1, 2): right}, [[card], []])
    s.apply_action(place(s, card, 1, 1))
    assert table_of(s)[(1, 1)] == card


def test_m6_two_fit_third_does_not(engine: str) -> None:
    """M-6 example: pink matches the top card and eight the right one, but nothing matches
    the bottom card: refused."""
    d = Deck()
    top, right, bottom = d("pink", 10, "square"), d("blue", 20, "eight"), d("green", 40, "circle")
    links = {(0, 2): d("yellow", 10, "circle"), (2, 2): d("yellow", 20, "circle")}
    card = d("pink", 30, "eight")
    s = build(engine, {(0, 1): top, (1, 2): right, (2, 1): bottom, **links}, [[card], []])
    refused(s, place(s, card, 1, 1), r"M-6: card pink 30 eight does not match its neighbour green 40 circle")


def test_m6_zero_has_no_symbol_and_needs_a_neighbour(engine: str) -> None:
    """M-6: value-0 cards match on colour or value only; the cell must touch a card."""
    d = Deck()
    a = d("blue", 0)
    zero, other = d("pink", 0), d("green", 10, "square")
    s = build(engine, {(0, 0): a}, [[zero, other], []])
    s.apply_action(place(s, zero, 0, 1))  # 0 matches 0
    s2 = build(engine, {(0, 0): a}, [[other], []])
    refused(s2, place(s2, other, 0, 1), "M-6")
    refused(s2, place(s2, other, 0, 3), "M-6: cell .* not adjacent")


# ---- M-7 play area ---------------------------------------------------------------------------


def test_m7_six_by_six(engine: str) -> None:
    """M-7: no card outside the 6 x 6 square of the cards on the table."""
    d = Deck()
    row = {(0, c): d("blue", 10 * (1 + c % 4), ["square", "triangle"][c // 4]) for c in range(6)}
    card = d("blue", 40, "eight")
    s = build(engine, row, [[card], []])
    refused(s, place(s, card, 0, 6), "M-7")
    refused(s, place(s, card, 0, -1), "M-7")
    s.apply_action(place(s, card, 1, 0))


def test_m7_square_floats_and_shrinks(engine: str) -> None:
    """M-7: the square is the bounding box now; it shrinks when a scoring takes cards, and
    the layout may drift to negative coordinates."""
    d = Deck()
    row = {(0, c): d("blue", 10 * (1 + c % 4), ["square", "triangle"][c // 4]) for c in range(6)}
    row[(1, 5)] = d("green", 10, "circle")
    card = d("blue", 40, "eight")
    s = build(
        engine,
        row,
        [[], [card]],
        phase="take",
        current=0,
        placer=0,
        last=(0, 5),
        scoring_row=[(0, c) for c in range(6)],
    )
    for col in range(5):  # only the left end can go each time (M-13 b)
        assert list(s.legal_actions()) == [take(s, 0, col)]
        s.apply_action(take(s, 0, col))
    assert set(table_of(s)) == {(0, 5), (1, 5)}
    assert s.current_player == 1
    s.apply_action(place(s, card, 0, 6))  # was outside the square before the scoring
    assert origin(s) == (-1, 4)


# ---- M-8 chips -------------------------------------------------------------------------------


def _blue_position(k: int) -> Tuple[Dict[Cell, int], Cell, int]:
    """A position where one blue card touches k blue cards at the returned cell."""
    d = Deck()
    cells = {
        1: [(0, 0)],
        2: [(0, 0), (0, 1), (1, 1)],
        3: [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2)],
        4: [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)],
    }[k]
    target = {1: (0, 1), 2: (1, 0), 3: (1, 1), 4: (1, 1)}[k]
    syms = ["square", "triangle", "eight", "circle"]
    table = {x: d("blue", 10 + 10 * (i % 4), syms[i // 4]) for i, x in enumerate(cells)}
    return table, target, d("blue", 40, "eight")


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_m8_chips_per_neighbour(engine: str, k: int) -> None:
    """M-8: 0/1/2/3 chips for 1/2/3/4 neighbours, paid by the right neighbour (seat 3)."""
    table, target, card = _blue_position(k)
    s = build(engine, table, [[card], [], [], []])
    s.apply_action(place(s, card, *target))
    assert s.to_dict()["chips"] == [6 + k - 1, 6, 6, 6 - (k - 1)]


def test_m8_next_player_pays_when_right_neighbour_runs_out(engine: str) -> None:
    """M-8: the right neighbour has one chip; the rest comes from the next to the right."""
    table, target, card = _blue_position(4)
    s = build(engine, table, [[], [], [], [card]], current=3, chips=[6, 11, 1, 6])
    s.apply_action(place(s, card, *target))
    assert s.to_dict()["chips"] == [6, 9, 0, 9]  # seat 2 paid 1, seat 1 paid 2


def test_m8_placer_gets_fewer_when_nobody_has_chips(engine: str) -> None:
    """M-8: never paid by the placer; with nobody else holding chips the placer gets fewer."""
    table, target, card = _blue_position(4)
    s = build(engine, table, [[card], [], []], chips=[16, 2, 0])
    s.apply_action(place(s, card, *target))
    assert s.to_dict()["chips"] == [18, 0, 0]


# ---- M-9 passing -----------------------------------------------------------------------------


def test_m9_pass_pays_right_neighbour(engine: str) -> None:
    """M-9: a pass costs one chip, paid to the right neighbour; no exchange."""
    d = Deck()
    s = build(engine, {(0, 0): d("blue", 10, "square")}, [[d("blue", 20, "square")], [], []])
    s.apply(MPass())
    assert s.to_dict()["chips"] == [5, 6, 7]
    assert s.current_player == 1


def test_m9_pass_with_exchange(engine: str) -> None:
    """M-9: the passing player puts a hand card under the pile and draws the top card."""
    d = Deck()
    mine = [d("blue", 20, "square"), d("pink", 30, "eight")]
    s = build(engine, {(0, 0): d("blue", 10, "square")}, [mine, []])
    pile = s.to_dict()["pile"]
    s.apply(MPass(1))  # slot 1 = the pink card (hands are sorted by id)
    after = s.to_dict()
    assert after["chips"] == [5, 7]
    assert after["pile"][0] == mine[1] and after["pile_putter"][0] == 0
    assert after["pile"][1:] == pile[:-1]
    assert after["hands"][0] == sorted([mine[0], pile[-1]])


def test_m9_no_chip_no_exchange(engine: str) -> None:
    """M-9: without chips a player passes for free and may not exchange; no exchange when
    the pile is empty."""
    d = Deck()
    card = d("blue", 20, "square")
    s = build(engine, {(0, 0): d("blue", 10, "square")}, [[card], []], chips=[0, 12])
    assert s.game.move_to_action(MPass(0)) not in s.legal_actions()
    refused(s, s.game.move_to_action(MPass(0)), "M-9")
    s.apply(MPass())
    assert s.to_dict()["chips"] == [0, 12]
    s2 = build(engine, {(0, 0): d("blue", 10, "triangle")}, [[card], [d("blue", 30, "eight")]], pile=[])
    refused(s2, s2.game.move_to_action(MPass(0)), "M-9: no exchange when the draw pile is empty")


# ---- M-10 / M-11 drawing and turn order ------------------------------------------------------


def test_m10_m11_draw_and_next_player(engine: str) -> None:
    """M-10: after placing, draw back up to 4 from the top; M-11: the left neighbour plays."""
    d = Deck()
    hand = [d("blue", 20, "square"), d("pink", 30, "eight"), d("pink", 40, "eight"), d("green", 0)]
    s = build(engine, {(0, 0): d("blue", 10, "square")}, [[], [], hand], current=2)
    pile = s.to_dict()["pile"]
    s.apply_action(place(s, hand[0], 0, 1))
    after = s.to_dict()
    assert after["hands"][2] == sorted(hand[1:] + [pile[-1]])
    assert after["pile"] == pile[:-1]
    assert s.current_player == 0


def test_m10_no_draw_from_empty_pile(engine: str) -> None:
    """M-10: the hand is not refilled once the pile is empty."""
    d = Deck()
    hand = [d("blue", 20, "square"), d("pink", 30, "eight")]
    s = build(engine, {(0, 0): d("blue", 10, "square")}, [hand, [d("blue", 30, "eight")]], pile=[])
    s.apply_action(place(s, hand[0], 0, 1))
    assert s.to_dict()["hands"][0] == [hand[1]]


# ---- M-12 .. M-15 scoring --------------------------------------------------------------------


def _row_of_four(d: Deck) -> Dict[Cell, int]:
    return {
        (0, 0): d("pink", 10, "circle"),
        (0, 1): d("yellow", 20, "circle"),
        (0, 2): d("green", 30, "circle"),
        (0, 3): d("blue", 10, "square"),
    }


def test_m12_fifth_card_with_two_matches_scores(engine: str) -> None:
    """M-12: the fifth card of a row, sharing colour and symbol with its neighbour, triggers
    a scoring; the placer takes first."""
    d = Deck()
    table = _row_of_four(d)
    card = d("blue", 20, "square")
    s = build(engine, table, [[card], []])
    s.apply_action(place(s, card, 0, 4))
    dd = s.to_dict()
    assert dd["phase"] == "take" and s.current_player == 0
    assert dd["scoring_row"] == [[0, c] for c in range(5)]
    assert sorted(s.legal_actions()) == sorted([take(s, 0, 0), take(s, 0, 4)])


def test_m12_one_match_or_short_run_does_not_score(engine: str) -> None:
    """M-12: one shared attribute is not enough; four cards in a row are not enough."""
    d = Deck()
    table = _row_of_four(d)
    card = d("blue", 20, "triangle")  # only blue with its neighbour
    s = build(engine, table, [[card], []])
    s.apply_action(place(s, card, 0, 4))
    assert s.to_dict()["phase"] == "play" and s.current_player == 1
    d2 = Deck()
    short = {(0, 0): d2("pink", 10, "circle"), (0, 1): d2("yellow", 20, "circle"), (0, 2): d2("blue", 10, "square")}
    card2 = d2("blue", 20, "square")
    s2 = build(engine, short, [[card2], []])
    s2.apply_action(place(s2, card2, 0, 3))
    assert s2.to_dict()["phase"] == "play"


def test_m12_two_match_with_the_other_neighbour_in_the_run(engine: str) -> None:
    """M-12(b): the two matches may be with either neighbour inside the run; two matches
    with a neighbour outside the run (the other line) do not count."""
    d = Deck()
    table = {
        (0, 0): d("pink", 10, "circle"),
        (0, 1): d("yellow", 20, "circle"),
        (0, 3): d("blue", 10, "square"),
        (0, 4): d("green", 40, "square"),
        (1, 1): d("pink", 0),
        (1, 2): d("yellow", 30, "triangle"),
        (1, 3): d("pink", 0),
    }
    card = d("yellow", 20, "square")  # two matches (colour, value) with (0, 1) on the left
    s = build(engine, table, [[card], []])
    s.apply_action(place(s, card, 0, 2))
    assert s.to_dict()["phase"] == "take"
    d4 = Deck()
    other = {
        (0, 0): d4("pink", 10, "circle"),
        (0, 1): d4("orange", 40, "eight"),
        (0, 3): d4("blue", 40, "square"),
        (0, 4): d4("green", 40, "square"),
        (1, 1): d4("pink", 0),
        (1, 2): d4("yellow", 40, "triangle"),
        (1, 3): d4("pink", 0),
    }
    card4 = d4("yellow", 40, "circle")  # two matches only with (1, 2), below: not in the row
    s4 = build(engine, other, [[card4], []])
    s4.apply_action(place(s4, card4, 0, 2))
    assert s4.to_dict()["phase"] == "play"


def _cross(d: Deck) -> Dict[Cell, int]:
    return {
        (4, 0): d("pink", 10, "circle"),
        (4, 1): d("yellow", 20, "circle"),
        (4, 2): d("green", 30, "circle"),
        (4, 3): d("blue", 10, "square"),
        (0, 4): d("pink", 20, "eight"),
        (1, 4): d("yellow", 30, "eight"),
        (2, 4): d("green", 40, "eight"),
        (3, 4): d("blue", 20, "square"),
        (3, 3): d("orange", 0),
    }


def test_m12_both_lines_placer_chooses(engine: str) -> None:
    """M-12: when both lines qualify, the placer chooses one; only that one is scored."""
    d = Deck()
    table = _cross(d)
    card = d("blue", 30, "square")
    for vertical in (False, True):
        s = build(engine, table, [[card], [], []])
        s.apply_action(place(s, card, 4, 4))
        assert s.to_dict()["phase"] == "choose" and s.current_player == 0
        assert [type(m) for m in s.legal_moves()] == [MChooseRow, MChooseRow]
        refused(s, take(s, 4, 0), "M-12")
        s.apply(MChooseRow(vertical))
        cells = [[r, 4] for r in range(5)] if vertical else [[4, c] for c in range(5)]
        assert s.to_dict()["scoring_row"] == cells
        assert s.current_player == 0


def test_m13_takes_go_to_the_right(engine: str) -> None:
    """M-13: the placer takes first, then the right neighbour, then onward to the right."""
    d = Deck()
    table = _row_of_four(d)
    card = d("blue", 20, "square")
    s = build(engine, table, [[], [], [card]], current=2)
    s.apply_action(place(s, card, 0, 4))
    order = []
    while s.to_dict()["phase"] == "take":
        order.append(s.current_player)
        s.apply_action(int(s.legal_actions()[0]))
    assert order == [2, 1, 0, 2]
    assert [len(t) for t in s.to_dict()["taken"]] == [1, 1, 2]  # seat 2 took several


def test_m13_take_refused_when_it_splits_the_table(engine: str) -> None:
    """M-13(b): a card whose removal disconnects the table may not be taken."""
    d = Deck()
    table = _row_of_four(d)
    table[(1, 1)] = d("orange", 0)
    card = d("blue", 20, "square")
    s = build(engine, table, [[card], []])
    s.apply_action(place(s, card, 0, 4))
    refused(s, take(s, 0, 2), r"M-13\(b\)")
    refused(s, take(s, 0, 1), r"M-13\(b\)")  # would cut off the card at (1, 1)
    refused(s, take(s, 1, 1), "M-13: .* no card of the scoring row")
    assert sorted(s.legal_actions()) == sorted([take(s, 0, 0), take(s, 0, 4)])


def test_m13_one_card_of_the_row_stays(engine: str) -> None:
    """M-13(a): the last card of the scoring row stays; the new card may be taken."""
    d = Deck()
    table = _row_of_four(d)
    card = d("blue", 20, "square")
    s = build(engine, table, [[card], []])
    s.apply_action(place(s, card, 0, 4))
    s.apply_action(take(s, 0, 4))  # the card just placed
    assert card in s.to_dict()["taken"][0]
    for col in range(3):
        s.apply_action(take(s, 0, col))
    dd = s.to_dict()
    assert dd["phase"] == "play" and [e[:2] for e in dd["table"]] == [[0, 3]]


def test_m14_scoring_ends_when_no_take_is_legal(engine: str) -> None:
    """M-14: the scoring ends as soon as no legal take exists, even with several cards of
    the row left (here the pendants at (-1, 1) and (1, 3) pin the remaining three)."""
    d = Deck()
    table = _row_of_four(d)
    table[(-1, 1)] = d("orange", 0)
    table[(1, 3)] = d("orange", 10, "eight")
    card = d("blue", 20, "square")
    s = build(engine, table, [[card], [], []])
    s.apply_action(place(s, card, 0, 4))
    assert sorted(s.legal_actions()) == sorted([take(s, 0, 0), take(s, 0, 4)])
    s.apply_action(take(s, 0, 0))
    assert s.current_player == 2
    assert list(s.legal_actions()) == [take(s, 0, 4)]
    s.apply_action(take(s, 0, 4))
    dd = s.to_dict()
    assert dd["phase"] == "play" and dd["scoring_row"] == [] and s.current_player == 1
    assert {(0, 1), (0, 2), (0, 3)} <= set(table_of(s))


def test_m14_taking_is_compulsory(engine: str) -> None:
    """M-14: while a legal take exists the taker has no other action (no pass)."""
    d = Deck()
    table = _row_of_four(d)
    card, spare = d("blue", 20, "square"), d("blue", 40, "square")
    s = build(engine, table, [[card, spare], []])
    s.apply_action(place(s, card, 0, 4))
    assert all(isinstance(m, MTake) for m in s.legal_moves())
    refused(s, s.game.move_to_action(MPass()), "M-14")
    refused(s, place(s, spare, 1, 0), "M-14")


def test_m15_taken_cards_per_player(engine: str) -> None:
    """M-15: taken cards are kept by the player who took them (and count for them, M-20)."""
    d = Deck()
    table = _row_of_four(d)
    card = d("blue", 20, "square")
    s = build(engine, table, [[card], []])
    s.apply_action(place(s, card, 0, 4))
    s.apply_action(take(s, 0, 4))
    s.apply_action(take(s, 0, 0))
    taken = s.to_dict()["taken"]
    assert taken == [[card], [table[(0, 0)]]]
    assert s.scores() == [60 + 20, 60 + 10]


# ---- M-16 .. M-18 end of the game ------------------------------------------------------------


def test_m16_scoring_with_empty_pile_ends_the_game(engine: str) -> None:
    """M-16: a scoring that starts while the pile is empty is the last event of the game."""
    d = Deck()
    table = _row_of_four(d)
    card, other = d("blue", 20, "square"), d("blue", 40, "circle")
    s = build(engine, table, [[card], [other]], pile=[])
    s.apply_action(place(s, card, 0, 4))
    while not s.is_terminal():
        assert s.to_dict()["phase"] == "take"
        s.apply_action(int(s.legal_actions()[0]))
    assert s.to_dict()["end"] == "M-16" and len(s.to_dict()["table"]) == 1
    # with cards in the pile the game goes on after the scoring
    s2 = build(engine, table, [[card], [other]])
    s2.apply_action(place(s2, card, 0, 4))
    for _ in range(4):
        s2.apply_action(int(s2.legal_actions()[0]))
    assert not s2.is_terminal() and s2.current_player == 1


def test_m17_nobody_can_place(engine: str) -> None:
    """M-17: after a turn in which no card of any hand or the pile fits anywhere, the game
    ends; cards still able to fit (even in the pile) keep it going."""
    d = Deck()
    base, mine, theirs = d("blue", 10, "square"), d("blue", 20, "triangle"), d("pink", 30, "eight")
    s = build(engine, {(0, 0): base}, [[mine], [theirs]], pile=[])
    s.apply_action(place(s, mine, 0, 1))
    assert s.is_terminal() and s.to_dict()["end"] == "M-17"
    assert s.winners() == [0, 1]
    fits = d("green", 20, "circle")  # value 20 fits next to the blue 20
    s2 = build(engine, {(0, 0): base}, [[mine], [theirs]], pile=[fits])
    s2.apply_action(place(s2, mine, 0, 1))
    assert not s2.is_terminal()


def test_m17_full_square(engine: str) -> None:
    """M-17: the common case, a full 6 x 6 table (the pile still holds cards)."""
    d = Deck()
    left, up = d("orange", 10, "square"), d("orange", 20, "triangle")
    last = d("orange", 30, "eight")  # shares the colour only with both neighbours
    table: Dict[Cell, int] = {(5, 4): left, (4, 5): up}
    free = iter(c for c in range(90) if c not in d.used)
    for r in range(6):
        for c in range(6):
            if (r, c) not in table and (r, c) != (5, 5):
                table[(r, c)] = next(free)
    s = build(engine, table, [[last], []])
    assert list(s.legal_actions())[0] == place(s, last, 5, 5)
    s.apply_action(place(s, last, 5, 5))
    dd = s.to_dict()
    assert dd["end"] == "M-17" and len(dd["pile"]) > 0 and len(dd["table"]) == 36


def test_m18_all_pass_with_empty_pile(engine: str) -> None:
    """M-18: with the pile empty, n successive passes end the game."""
    d = Deck()
    base = d("blue", 10, "square")
    hands = [[d("blue", 20, "square")], [d("blue", 30, "square")], [d("blue", 40, "square")]]
    s = build(engine, {(0, 0): base}, hands, pile=[])
    s.apply(MPass())
    s.apply(MPass())
    assert not s.is_terminal()
    s.apply(MPass())
    assert s.to_dict()["end"] == "M-18"
    s2 = build(engine, {(0, 0): base}, hands, pile=[])
    s2.apply(MPass())
    s2.apply(MPass())
    s2.apply_action(place(s2, hands[2][0], 0, 1))
    s2.apply(MPass())
    s2.apply(MPass())
    assert not s2.is_terminal()


def test_max_turns_truncates(engine: str) -> None:
    """Termination: max_turns actions truncate a game."""
    g = mousehole.load("m", players=2, engine=engine, max_turns=7)
    s = g.new_state(3)
    for _ in range(7):
        s.apply(MPass())
    assert s.is_terminal() and s.truncated and s.to_dict()["end"] == "max_turns"
    assert len(s.winners()) >= 1


# ---- M-19 .. M-21 scores -------------------------------------------------------------------


def test_m19_hand_cards_do_not_count(engine: str) -> None:
    """M-19: hand cards at the end are not scored."""
    d = Deck()
    base = d("blue", 10, "square")
    s1 = build(
        engine,
        {(0, 0): base},
        [[d("blue", 40, "eight"), d("pink", 40, "eight")], []],
        phase="over",
        end="M-18",
        pile=[],
        passes=2,
    )
    s2 = build(engine, {(0, 0): base}, [[], []], phase="over", end="M-18", pile=[], passes=2)
    assert s1.scores() == s2.scores() == [60, 60]


def test_m20_score_example(engine: str) -> None:
    """M-20: blue 70, pink 40, green 30, 5 chips: 50 + 70 + 40 - 30 = 130."""
    d = Deck()
    taken = [
        [d("blue", 30, "square"), d("blue", 40, "square"), d("pink", 40, "eight"), d("green", 30, "circle")],
        [d("yellow", 10, "square"), d("yellow", 20, "square"), d("green", 0)],
    ]
    s = build(engine, {(0, 0): d("blue", 10, "circle")}, [[], []], chips=[5, 7], taken=taken)
    assert s.scores() == [130, 70 + 30]
    assert final_score(5, [70, 30, 40, 0, 0]) == 130


def test_m21_ties_are_shared(engine: str) -> None:
    """M-21: the highest score wins; equal highest scores share the win."""
    d = Deck()
    taken = [[d("blue", 30, "square")], [d("pink", 30, "square")], [d("pink", 10, "square")]]
    s = build(
        engine,
        {(0, 0): d("blue", 10, "circle")},
        [[], [], []],
        taken=taken,
        phase="over",
        end="M-18",
        pile=[],
        passes=3,
    )
    assert s.winners() == [0, 1]
    assert s.returns() == [1.0, 1.0, -1.0]
    live = build(engine, {(0, 0): Deck()("blue", 10, "circle")}, [[], [], []])
    assert live.winners() == []


# ---- M-22 hidden information -------------------------------------------------------------------


def test_m22_views_hide_hands_pile_and_removed(engine: str) -> None:
    """M-22: a seat sees its own hand, not the others', the pile or the removed cards."""
    g = mousehole.load("m", players=3, engine=engine)
    s = g.new_state(9)
    full = s.to_dict()
    v = s.to_dict(for_player=1)
    assert v["hands"][1] == full["hands"][1]
    assert v["hands"][0] == [None] * 4 and v["hands"][2] == [None] * 4
    assert v["pile"] == [None] * len(full["pile"])
    assert v["removed"] == [None] * len(full["removed"])
    assert v["rng"] is None
    assert v["table"] == full["table"] and v["chips"] == full["chips"]
    d2 = s.determinize(1, 123).to_dict(for_player=1)
    assert d2 == v


def test_m22_putter_remembers_the_card_under_the_pile(engine: str) -> None:
    """M-22: a card put under the pile (M-9) stays known to its putter, and determinize
    keeps it at the bottom for that seat only."""
    d = Deck()
    mine = [d("blue", 20, "square"), d("pink", 30, "eight")]
    s = build(engine, {(0, 0): d("blue", 10, "square")}, [mine, [d("green", 10, "eight")]])
    s.apply(MPass(1))
    assert s.to_dict(for_player=0)["pile"][0] == mine[1]
    assert s.to_dict(for_player=1)["pile"][0] is None
    kept = {s.determinize(0, seed).to_dict()["pile"][0] for seed in range(10)}
    assert kept == {mine[1]}
    moved = {s.determinize(1, seed).to_dict()["pile"][0] for seed in range(10)}
    assert len(moved) > 1
    # observation shows the own hand only
    o0 = s.observation(0)
    s3 = s.determinize(0, 5)
    assert (s3.observation(0) == o0).all()


def _walk(game: Any, seed: int) -> Any:
    """Yield the states of a seeded random game (the same object, after each action)."""
    s = game.new_state(seed)
    rng = Rng(seed * 7 + 1)
    yield s
    while not s.is_terminal():
        legal = s.legal_actions()
        s.apply_action(int(legal[rng.below(len(legal))]))
        yield s


def _kind(game: Any, a: int) -> str:
    return game._action_kind(a)  # type: ignore[no-any-return]


@pytest.mark.parametrize("players", [2, 4, 6])
def test_m22_views_never_show_another_seats_cards(engine: str, players: int) -> None:
    """M-22 (a): a view holds no card id of another seat's hand, of the pile (except the
    putter's own cards) or of the removed cards, anywhere; another seat's placements and
    exchanges appear in ``history`` as None (their int names a hand slot), with their public
    facts in ``log``: the card laid and its absolute cell, or that a card went under the pile."""
    g = mousehole.load("m", players=players, engine=engine)
    hidden_slots = 0
    for seed in range(2):
        for s in _walk(g, 50 + seed):
            full = s.to_dict()
            for p in range(players):
                v = s.to_dict(for_player=p)
                secret = {c for q, h in enumerate(full["hands"]) if q != p for c in h}
                secret |= {c for c, w in zip(full["pile"], full["pile_putter"]) if w != p}
                secret |= set(full["removed"])
                assert all(x is None for q, h in enumerate(v["hands"]) if q != p for x in h)
                assert v["hands"][p] == full["hands"][p]
                assert [c for c in v["pile"] if c is not None] == [
                    c for c, w in zip(full["pile"], full["pile_putter"]) if w == p
                ]
                assert v["removed"] == [None] * len(full["removed"]) and v["rng"] is None
                shown = {e[2] for e in v["table"]} | {c for t in v["taken"] for c in t}
                shown |= {e[1] for e in v["log"]} | {c for c in v["pile"] if c is not None}
                assert not shown & secret
                assert v["log"] == full["log"]
                for a, va, e in zip(full["history"], v["history"], full["log"]):
                    if e[0] != p and _kind(g, a) in ("place", "exchange"):
                        assert va is None
                        hidden_slots += 1
                    else:
                        assert va == a
    assert hidden_slots > 0


def test_m22_log_records_the_public_facts(engine: str) -> None:
    """The log: a placement is [seat, card, row, col] with the absolute cell of the table, a
    take the same for the card taken, a pass or a row choice [seat, -1, 0, 0] and an
    exchange [seat, -2, 0, 0]."""
    d = Deck()
    table = _row_of_four(d)
    table = {(r + 3, c - 9): x for (r, c), x in table.items()}
    card, spare = d("blue", 20, "square"), d("pink", 40, "eight")
    s = build(engine, table, [[card, spare], [d("green", 0)]])
    s.apply_action(place(s, card, 3, -5))
    s.apply_action(take(s, 3, -9))
    s.apply_action(take(s, 3, -5))
    while s.to_dict()["phase"] == "take":
        s.apply_action(int(s.legal_actions()[0]))
    s.apply(MPass(0))  # seat 1 (after the scoring placer 0's left neighbour) exchanges
    s.apply(MPass())
    log = s.to_dict()["log"]
    assert log[0] == [0, card, 3, -5]
    assert log[1] == [0, table[(3, -9)], 3, -9]
    assert log[2] == [1, card, 3, -5]
    assert log[-2:] == [[1, -2, 0, 0], [0, -1, 0, 0]]
    v = s.to_dict(for_player=1)
    assert v["history"][0] is None and v["history"][1:3] == s.history[1:3]
    assert v["history"][-2:] == s.history[-2:]  # seat 1's own exchange, seat 0's pass
    assert s.to_dict(for_player=0)["history"][-2] is None  # seat 1's exchange, seen by 0


def test_m22_seed_901_no_slot_information(engine: str) -> None:
    """M-22 (b), the example of issue 9: seed 901, 4 players; seat 0 lays its slot-3 card
    (card 64) on window cell (0, 1). Seat 1's view shows the card and its cell, not the slot
    (which told that seat 0's three other cards have ids below 64), and determinizations
    follow the public facts only: seat 0's hand is dealt from every card seat 1 cannot see."""
    g = mousehole.load("m", players=4, engine=engine)
    s = g.new_state(901)
    assert s.to_dict()["hands"][0] == [19, 25, 39, 64]
    s.apply(MPlace(3, 0, 1))
    v = s.to_dict(for_player=1)
    assert v["history"] == [None]
    assert v["log"] == [[0, 64, -1, 0]]  # window (0, 1) of origin (-1, -1): absolute (-1, 0)
    assert [-1, 0, 64] in v["table"]
    # another world with the same view gives the same determinizations
    other = s.determinize(1, 12345)
    assert other.to_dict(for_player=1) == v and other.to_dict()["hands"][0] != s.to_dict()["hands"][0]
    high = 0
    for seed in range(200):
        det = s.determinize(1, seed)
        dd = det.to_dict()
        assert dd == other.determinize(1, seed).to_dict()
        assert dd["history"] == [0] and dd["log"] == v["log"]
        assert dd["hands"][1] == v["hands"][1]
        high += sum(1 for c in dd["hands"][0] if c > 64) >= 2
    # with the slot leak, seat 0 held at most one card above 64 in every world; dealt from
    # the 80 unseen cards (24 of them above 64) two or more are above 64 about 1 time in 4
    assert 25 <= high <= 90


def test_m22_observation_equal_for_equal_views(engine: str) -> None:
    """M-22 (c): observation(p) depends on p's view only: states with equal views (the
    second differs in everything p cannot see) have equal observations for p."""
    g = mousehole.load("m", players=3, engine=engine)
    checked = 0
    for i, s in enumerate(_walk(g, 3)):
        if i % 5:
            continue
        for p in range(3):
            other = s.determinize(p, i)
            assert other.to_dict(for_player=p) == s.to_dict(for_player=p)
            assert (other.observation(p) == s.observation(p)).all()
            checked += other.to_dict() != s.to_dict()
    assert checked > 0


def test_m22_m17_holds_in_the_world_as_in_the_view(engine: str) -> None:
    """M-17 and determinization: in the play phase some card in play fits, so when the
    seat's own cards do not, the hidden cards must (seat 1's card here); after an M-17 end
    no card in play fits, so no hidden card in play may (the fitting ones were removed)."""
    d = Deck()
    base, unfit, fits = d("blue", 10, "square"), d("pink", 30, "eight"), d("green", 10, "circle")
    s = build(engine, {(0, 0): base}, [[unfit], [fits]], pile=[])
    g = s.game
    for seed in range(30):
        hand1 = s.determinize(0, seed).to_dict()["hands"][1]
        assert g.matches(hand1[0], base) > 0
    over = build(engine, {(0, 0): base}, [[unfit], [d("pink", 20, "eight")]], pile=[], phase="over", end="M-17")
    for seed in range(30):
        hand1 = over.determinize(0, seed).to_dict()["hands"][1]
        assert g.matches(hand1[0], base) == 0


# ---- encoding ----------------------------------------------------------------------------------


def test_moves_round_trip() -> None:
    g = mousehole.load("m", engine="python")
    for a in range(g.num_actions):
        m = g.action_to_move(a)
        assert g.move_to_action(m) == a
        assert parse_move(str(m)) == m
        assert eval(repr(m)) == m
    assert g.num_actions == 4 * 64 + 1 + 4 + 2 + 64


def test_far_coordinates_do_not_overflow(engine: str) -> None:
    """M-7 (floating square): absolute coordinates are unbounded; the engines keep the table
    in a window that follows the cards, so a layout far from the start works the same."""
    d = Deck()
    far = 10**15
    table = _row_of_four(d)
    card = d("blue", 20, "square")
    s = build(engine, {(r - far, c + far): x for (r, c), x in table.items()}, [[card], []])
    s.apply_action(place(s, card, -far, 4 + far))
    assert s.to_dict()["scoring_row"] == [[-far, c + far] for c in range(5)]
    s.apply_action(take(s, -far, far))
    assert origin(s) == (-far - 1, far)
    assert table_of(s)[(-far, 4 + far)] == card
    d = s.to_dict()
    assert d["log"] == [[0, card, -far, 4 + far], [0, table[(0, 0)], -far, far]]
    again = s.game.state_from_dict(d)
    assert again.to_dict() == d and again.clone().to_dict() == d


# -- notation ----------------------------------------------------------------------------------
#
# M's moves for people (``docs/games/m.md``, "Readable notation"): ``str(move)`` and
# ``game.parse_move`` round-trip over the whole action space; ``state.describe(a)`` names the
# card and its absolute cell, and ``state.parse_action`` reads it back, so that a whole game
# written out with ``describe`` replays action by action, on both engines.


READABLE = re.compile(r"place .+ at -?\d+,-?\d+|exchange .+|pass|row (horizontal|vertical)|take .+ at -?\d+,-?\d+")


def test_parse_move_round_trips_every_action() -> None:
    """``game.parse_move(str(m)) == m`` for every action (also the module alias)."""
    for hand in (1, 4, 8):
        g = mousehole.load("m", engine="python", hand_size=hand, players=2)
        for a in range(g.num_actions):
            m = g.action_to_move(a)
            assert g.parse_move(str(m)) == m
            assert parse_move(str(m)) == m
            assert g.move_to_action(g.parse_move(str(m))) == a


def test_move_to_action_refuses_a_bool_for_a_number() -> None:
    """M-5/M-7: a move's slot, row and column are ints; a bool is never one (it read as row
    1 of the window before issue 40's one integer check)."""
    g = mousehole.load("m", engine="python", players=2)
    assert g.move_to_action(MPlace(0, 1, 2)) == 1 * W + 2 and g.move_to_action(MTake(1, 2)) == g.A_TAKE + 1 * W + 2
    for move in (MPlace(0, True, 2), MPlace(0, 2, False), MTake(True, 2), MTake(1, 2.0)):
        with pytest.raises(IllegalMoveError, match="M-7: window cell"):
            g.move_to_action(move)
    with pytest.raises(IllegalMoveError, match="M-5: hand slot True"):
        g.move_to_action(MPlace(True, 1, 2))


def test_parse_move_refuses_bad_text() -> None:
    g = mousehole.load("m", engine="python")
    for bad in ("", "place", "place 1@2", "take 3", "row diagonal", "pass exchange", "blue 30 square"):
        with pytest.raises(ValueError, match="not an M move"):
            g.parse_move(bad)
    with pytest.raises(IllegalMoveError, match="M-5"):
        g.parse_move("place 4@1,1")  # hand_size 4: slots 0..3
    with pytest.raises(IllegalMoveError, match="M-7"):
        g.parse_move("take 8,0")  # the window is 8 x 8
    with pytest.raises(TypeError):
        g.parse_move(3)  # type: ignore[arg-type]


def _replay(game: Any, seed: int) -> None:
    """Play a seeded random game; write each action with describe, check it reads back
    (and that the slot/window form does too); then replay the text from the start."""
    state = game.new_state(seed)
    rng = Rng(derive(seed, 5))
    texts: List[str] = []
    actions: List[int] = []
    while not state.is_terminal():
        legal = [int(x) for x in state.legal_actions()]
        a = legal[rng.below(len(legal))]
        text = state.describe(a)
        assert READABLE.fullmatch(text), text
        assert state.parse_action(text) == a
        assert state.parse_action(str(game.action_to_move(a))) == a
        assert state.describe(game.action_to_move(a)) == text
        texts.append(text)
        actions.append(a)
        state.apply_action(a)
    again = game.new_state(seed)
    for text, a in zip(texts, actions):
        assert again.parse_action(text) == a
        again.apply_action(again.parse_action(text))
    assert again.to_dict() == state.to_dict()


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_a_written_out_game_reads_back(engine: str, players: int) -> None:
    """A whole game written with ``describe`` replays with ``parse_action``."""
    game = mousehole.load("m", players=players, engine=engine)
    for seed in range(3):
        _replay(game, 100 * players + seed)


def test_describe_names_the_card_and_the_absolute_cell(engine: str) -> None:
    """Placements and takes name the card and the cell of ``to_dict()["table"]``, which
    does not depend on the window (here the table lies at negative coordinates)."""
    d = Deck()
    table = {(r - 7, c - 3): x for (r, c), x in _row_of_four(d).items()}
    card = d("blue", 20, "square")
    s = build(engine, table, [[card], []])
    a = place(s, card, -7, 1)
    assert s.describe(a) == "place blue 20 square at -7,1"
    assert s.parse_action("place blue 20 square at -7,1") == a
    assert s.parse_action("  Place  BLUE 20 square   at -7 , 1 ") == a  # spacing and case
    s.apply_action(a)
    assert s.to_dict()["phase"] == "take"
    with pytest.raises(IllegalMoveError, match="M-14: a scoring is under way"):
        s.parse_action("place blue 20 square at -6,1")
    t = take(s, -7, -3)
    assert s.describe(t) == "take pink 10 circle at -7,-3"
    assert s.describe(MTake(*divmod(t - s.game.A_TAKE, 8))) == "take pink 10 circle at -7,-3"
    assert s.parse_action("take pink 10 circle at -7,-3") == t
    assert s.parse_action("take at -7,-3") == t  # the card name is optional for a take
    r0, c0 = origin(s)
    assert s.parse_action(f"take {-7 - r0},{-3 - c0}") == t  # the window form
    with pytest.raises(IllegalMoveError, match="M-13: cell -7,-3 holds pink 10 circle, not blue 20 square"):
        s.parse_action("take blue 20 square at -7,-3")


def test_exchange_and_the_two_zeros(engine: str) -> None:
    """``exchange <card>``; the two 0s of a colour have one name, so the second one in a
    hand carries its id (``#id``) and each reads back to its own action."""
    d = Deck()
    z1, z2, other = d("pink", 0), d("pink", 0), d("green", 30, "eight")
    assert other < z1 < z2  # the hand is sorted by id: green 30 eight, pink 0, pink 0
    s = build(engine, {(0, 0): d("pink", 10, "square")}, [[z1, z2, other], []])
    g = s.game
    assert s.describe(MPass(0)) == "exchange green 30 eight"
    assert s.describe(MPass(1)) == "exchange pink 0"
    assert s.describe(MPass(2)) == f"exchange pink 0 #{z2}"
    assert s.describe(MPass()) == "pass"
    assert s.parse_action("exchange pink 0") == g.A_EXCH + 1
    assert s.parse_action(f"exchange pink 0 #{z2}") == g.A_EXCH + 2
    assert s.parse_action(f"exchange pink 0 #{z1}") == g.A_EXCH + 1
    assert s.parse_action("pass") == g.A_PASS
    assert s.parse_action("pass exchange 2") == g.A_EXCH + 2
    assert s.describe(MPlace(2, 1, 2)) == f"place pink 0 #{z2} at 0,1"
    assert s.parse_action(f"place pink 0 #{z2} at 0,1") == g.move_to_action(MPlace(2, 1, 2))
    assert s.parse_action("place pink 0 at 0,1") == g.move_to_action(MPlace(1, 1, 2))
    with pytest.raises(ValueError, match="not a pink 0"):
        s.parse_action(f"exchange pink 0 #{other}")


def test_row_choice_reads_back(engine: str) -> None:
    from test_m_rules import _cross

    d = Deck()
    card = d("blue", 30, "square")
    s = build(engine, _cross(d), [[card], [], []])
    s.apply_action(place(s, card, 4, 4))
    for vertical in (False, True):
        a = s.game.move_to_action(MChooseRow(vertical))
        text = s.describe(a)
        assert text == ("row vertical" if vertical else "row horizontal")
        assert s.parse_action(text) == a


def test_bad_text_and_illegal_moves_are_refused(engine: str) -> None:
    """Unknown text raises ValueError naming the notation; a move that is not legal here
    raises IllegalMoveError naming the rule; the state never changes."""
    d = Deck()
    base, mine, other = d("blue", 10, "square"), d("blue", 20, "triangle"), d("pink", 30, "eight")
    s = build(engine, {(0, 0): base}, [[mine, other], []], chips=[0, 12])
    before = s.to_dict()
    with pytest.raises(ValueError, match="not an M move"):
        s.parse_action("fly to the moon")
    with pytest.raises(ValueError, match="not a card of this game"):
        s.parse_action("place purple 30 square at 0,1")
    with pytest.raises(IllegalMoveError, match="M-6: seat 0 holds no blue 40 circle"):
        s.parse_action("place blue 40 circle at 0,1")
    with pytest.raises(IllegalMoveError, match="M-6: card pink 30 eight does not match"):
        s.parse_action("place pink 30 eight at 0,1")
    with pytest.raises(IllegalMoveError, match="not adjacent"):
        s.parse_action("place blue 20 triangle at 0,2")
    with pytest.raises(IllegalMoveError, match="not adjacent"):
        s.parse_action("place blue 20 triangle at 40,-30")  # far off the window
    with pytest.raises(IllegalMoveError, match="M-9: seat 0 has no chip"):
        s.parse_action("exchange blue 20 triangle")
    with pytest.raises(
        IllegalMoveError, match="M-11: seat 0 must place or pass; no scoring is under way .'take at 0,0'"
    ):
        s.parse_action("take at 0,0")
    with pytest.raises(IllegalMoveError, match="M-11: seat 0 must place or pass"):
        s.parse_action("row vertical")
    with pytest.raises(IllegalMoveError, match="M-5"):
        s.describe(MPlace(2, 1, 2))  # seat 0 holds two cards
    with pytest.raises(TypeError):
        s.parse_action(None)
    assert s.to_dict() == before
    assert s.describe(place(s, mine, 0, 1)) == "place blue 20 triangle at 0,1"
    s.apply_action(s.parse_action("place blue 20 triangle at 0,1"))
    assert s.to_dict()["table"] == [[0, 0, base], [0, 1, mine]]


def test_describe_after_the_end(engine: str) -> None:
    g = mousehole.load("m", players=2, engine=engine, max_turns=3)
    s = g.new_state(1)
    for _ in range(3):
        s.apply_action(s.parse_action("pass"))
    assert s.is_terminal()
    assert s.describe(g.A_PASS) == "pass"
    with pytest.raises(IllegalMoveError, match="over"):
        s.describe(0)
    with pytest.raises(IllegalMoveError, match="over"):
        s.parse_action("exchange blue 0")


def test_board_short_codes_are_moves(engine: str) -> None:
    """The text board names cards by short codes (``p20s``) and cells by absolute row and
    column: ``p20s@r,c`` (also after ``place``/``take``) and ``exchange o0`` read as the
    moves they name; an initial that names no colour is a ValueError naming the initials.
    The board ends with its legend, and a scoring row is marked by ``*`` without running two
    cells together."""
    s = mousehole.load("m", engine=engine).new_state(seed=3)
    for a in s.legal_actions()[:6]:
        text = s.describe(int(a))  # 'place yellow 20 square at -1,0'
        if not text.startswith("place "):
            continue
        name, cell = text[len("place ") :].split(" at ")
        code = s.game._short(s.game._by_name[name.casefold()][0])
        assert s.parse_action(f"{code}@{cell}") == int(a) == s.parse_action(f"place {code}@{cell}")
    with pytest.raises(ValueError, match="initial of no colour"):
        s.parse_action("x20s@1,1")
    board = str(s)
    assert board.splitlines()[-1].startswith("board: row and column") and "b=blue" in board
    assert "action window" not in board


# -- observation -------------------------------------------------------------------------------
#
# M observations and action masks (docs/games/m.md, "Observation").
#
# The compiled engine writes ``observation(p)`` and ``legal_action_mask()`` straight from its C
# struct; the reference engine computes them from the state dictionary (``M._observation``).
# Checked here: the compiled values equal the reference's bit for bit at every step of seeded
# random games and in the rare positions (a row choice, M-12; the last placed cell outside the
# window after takes), the documented layout against the rules (M-1, M-2, M-9, M-12, M-13,
# M-15, M-22) on both engines and the ``out=`` arguments (a bad ``out`` or seat: every game's,
# ``tests/test_observation.py``).


SIDE = 8


GAMES = [
    pytest.param(dict(players=2), id="2p"),
    pytest.param(dict(players=3), id="3p"),
    pytest.param(dict(players=4), id="4p"),
    pytest.param(dict(players=6), id="6p"),
    pytest.param(dict(players=4, max_turns=30), id="4p-truncated"),
    pytest.param(dict(players=3, hand_size=6, chips=2, cards_in_play=70), id="3p-hand6-chips2"),
    pytest.param(
        dict(
            players=2,
            colours=["red", "blue", "white"],
            symbols=["star", "moon"],
            cards=[[c, v, s] for c in ("red", "blue", "white") for v in (5, 15, 25) for s in ("star", "moon")]
            + [[c, 0, None] for c in ("red", "blue", "white")],
            start_layout=[[0, 0], [0, 1], [1, 1]],
            hand_size=3,
            cards_in_play=21,
        ),
        id="2p-custom-cards",
    ),
]


@pytest.mark.differential
@pytest.mark.parametrize("params", GAMES)
def test_observation_and_mask_equal_the_reference(engine: str, params: Dict[str, Any]) -> None:
    """At every step of seeded random games, for every seat, ``observation(p)`` (with and
    without ``out=``) is the reference observation of the same state (its ``to_dict()``
    loaded into the reference engine), bit for bit; ``legal_action_mask()`` is True exactly
    at ``legal_actions()``."""
    game = mousehole.load("m", engine=engine, **params)
    ref = mousehole.load("m", engine="python", **params)
    steps, ends = 0, 0
    for seed in range(2):
        for s in random_states(game, seed):
            check_observations_against_reference(s, ref, f"seed {seed}, step {len(s.history)}")
            steps += 1
        ends += 1
    assert steps > 10 * game.num_players and ends == 2  # whole games were played


def last_outside_window(d: Dict[str, Any]) -> bool:
    r0, c0 = min(e[0] for e in d["table"]) - 1, min(e[1] for e in d["table"]) - 1
    return d["last"] is not None and not (0 <= d["last"][0] - r0 < SIDE and 0 <= d["last"][1] - c0 < SIDE)


@pytest.mark.differential
@pytest.mark.parametrize("players", [3, 4])
def test_rare_positions_equal_the_reference(players: int) -> None:
    """The positions random games seldom reach, searched for with the compiled engine and
    compared with the reference: a row choice (M-12, the two run planes) and a last placed
    cell that the takes left outside the window (M-13: the last-cell plane stays empty)."""
    game = mousehole.load("m", players=players, engine="compiled")
    ref = mousehole.load("m", players=players, engine="python")
    found = {"choose": 0, "last outside": 0}
    for seed in range(400):
        for s in random_states(game, seed):
            d = s.to_dict()
            kind = "choose" if d["phase"] == "choose" else "last outside" if last_outside_window(d) else None
            if kind is not None and found[kind] < 3:
                found[kind] += 1
                check_observations_against_reference(s, ref, f"{kind}: seed {seed}, step {len(s.history)}")
        if min(found.values()) >= 3:
            break
    assert found == {"choose": 3, "last outside": 3}


def sections(game: Any, obs: np.ndarray) -> Dict[str, np.ndarray]:
    """The documented sections of an observation, each (channels, 8, 8)."""
    n, H, F, nc = game.num_players, game.hand_size, game.card_planes, len(game.colours)
    sizes = [
        ("occ", 1),
        ("attr", F),
        ("srow", 1),
        ("runs", 2),
        ("last", 1),
        ("hand", H * F),
        ("seats", n * (2 + nc)),
        ("pile", 2),
        ("phase", 3),
        ("turn", n),
    ]
    out, c = {}, 0
    for name, k in sizes:
        out[name] = obs[c : c + k]
        c += k
    assert c == obs.shape[0] == game.observation_shape[0] == game.num_channels
    return out


def plane(cells: List[Tuple[int, int]]) -> np.ndarray:
    out = np.zeros((SIDE, SIDE), dtype=np.float32)
    for r, c in cells:
        out[r, c] = 1.0
    return out


def attributes(game: Any, card: int) -> List[int]:
    """The attribute planes of a card: colour, nc + value, nc + nv + symbol (M-1)."""
    nc, nv = len(game.colours), len(game.values)
    out = [game.colour_of[card], nc + game.vindex_of[card]]
    if game.symbol_of[card] >= 0:
        out.append(nc + nv + game.symbol_of[card])
    return out


def check_layout(game: Any, d: Dict[str, Any], p: int, obs: np.ndarray) -> None:
    n, nc, F = game.num_players, len(game.colours), game.card_planes
    assert obs.dtype == np.float32 and obs.shape == tuple(game.observation_shape)
    sec = sections(game, obs)
    r0, c0 = min(e[0] for e in d["table"]) - 1, min(e[1] for e in d["table"]) - 1
    win = {(r - r0, c - c0): card for r, c, card in d["table"]}
    assert all(1 <= r <= 6 and 1 <= c <= 6 for r, c in win)  # M-7: inside the 6 x 6 square
    assert np.array_equal(sec["occ"][0], plane(list(win)))
    want_attr = np.zeros((F, SIDE, SIDE), dtype=np.float32)
    for (r, c), card in win.items():
        want_attr[attributes(game, card), r, c] = 1.0  # M-1: a 0 has no symbol
    assert np.array_equal(sec["attr"], want_attr)
    assert np.array_equal(sec["srow"][0], plane([(r - r0, c - c0) for r, c in d["scoring_row"]]))  # M-13
    if d["phase"] == "choose":  # M-12: both lines through the new card qualify
        lr, lc = d["last"][0] - r0, d["last"][1] - c0
        for k, axis in enumerate((0, 1)):
            run = np.argwhere(sec["runs"][k] == 1.0)
            assert 5 <= len(run) <= 6 and sec["runs"][k].sum() == len(run)
            assert np.all(run[:, axis] == (lr, lc)[axis])  # one row (k = 0) or one column (k = 1)
            assert [lr, lc] in run.tolist() and all(tuple(x) in win for x in run)
            along = sorted(run[:, 1 - axis])
            assert along == list(range(along[0], along[0] + len(along)))  # unbroken
    else:
        assert not sec["runs"].any()
    if d["last"] is None or last_outside_window(d):
        assert not sec["last"].any()
    else:
        assert np.array_equal(sec["last"][0], plane([(d["last"][0] - r0, d["last"][1] - c0)]))
    hand = sec["hand"].reshape(game.hand_size, F, SIDE, SIDE)
    for slot in range(game.hand_size):  # M-22: the own hand, as constant planes
        want = np.zeros((F, SIDE, SIDE), dtype=np.float32)
        if slot < len(d["hands"][p]):
            want[attributes(game, d["hands"][p][slot])] = 1.0
        assert np.array_equal(hand[slot], want)
    seats = sec["seats"].reshape(n, 2 + nc, SIDE, SIDE)
    for k in range(n):  # relative to p: chips (M-2), hand size, colour totals (M-15)
        q = (p + k) % n
        totals = [0] * nc
        for card in d["taken"][q]:
            totals[game.colour_of[card]] += game.value_of[card]
        want_vals = [d["chips"][q] / 10.0, len(d["hands"][q])] + [t / 100.0 for t in totals]
        for j, v in enumerate(want_vals):
            assert np.all(seats[k, j] == np.float32(v))
    assert np.all(sec["pile"][0] == np.float32(len(d["pile"]) / 10.0))
    assert np.all(sec["pile"][1] == sum(1 for w in d["pile_putter"] if w == p))  # M-9, M-22
    if d["phase"] == "over":
        assert not sec["phase"].any() and not sec["turn"].any()
    else:
        assert np.all(sec["phase"].sum(axis=0) == 1.0)
        assert np.all(sec["phase"][["play", "choose", "take"].index(d["phase"])] == 1.0)
        assert np.all(sec["turn"].sum(axis=0) == 1.0)
        assert np.all(sec["turn"][(d["current"] - p) % n] == 1.0)


@pytest.mark.parametrize("params", [GAMES[2], GAMES[5], GAMES[6]])
def test_observation_follows_the_rules(engine: str, params: Dict[str, Any]) -> None:
    """Every observation along a random game agrees with the documented layout, derived
    from the state dict by the rules: the table and its card attributes (M-1, M-7), the
    scoring row (M-13), the row-choice runs (M-12), the last cell, the own hand and nothing
    of the others' (M-22), the seats' chips, hand sizes and colour totals from p leftwards
    (M-2, M-15), the pile, the own cards under it (M-9), the phase and the seat to move."""
    game = mousehole.load("m", engine=engine, **params)
    for s in random_states(game, 3):
        d = s.to_dict()
        for p in range(game.num_players):
            check_layout(game, d, p, s.observation(p))


def cross_position(engine: str) -> Any:
    """A row choice set up by hand (3 players, default cards): seat 0 has laid blue 30
    square on (4, 4), which ends the row 4 (cols 0..4) and the column 4 (rows 0..4), 5 cards
    each, with two matches next to it in both: blue 10 square on (4, 3), blue 20 square on
    (3, 4) (M-12). Seat 1 has taken yellow 40 square and pink 40 circle (M-15); seat 2 holds
    green 10 eight and orange 0 and slid one card under the 20-card pile (M-9)."""
    game = mousehole.load("m", players=3, engine=engine)
    ids: Dict[Tuple[str, int, Any], List[int]] = {}
    for i, c in enumerate(game.cards):
        ids.setdefault((c[0], c[1], c[2]), []).append(i)
    used: List[int] = []

    def card(colour: str, value: int, symbol: Any = None) -> int:
        c = ids[(colour, value, symbol)].pop(0)
        used.append(c)
        return c

    table = {
        (4, 0): card("pink", 10, "circle"),
        (4, 1): card("yellow", 20, "circle"),
        (4, 2): card("blue", 40, "circle"),
        (4, 3): card("blue", 10, "square"),
        (0, 4): card("pink", 20, "eight"),
        (1, 4): card("yellow", 30, "eight"),
        (2, 4): card("green", 20, "eight"),
        (3, 4): card("blue", 20, "square"),
        (4, 4): card("blue", 30, "square"),
    }
    hands = [[card("orange", 10, "square")], [card("pink", 0)], [card("green", 10, "eight"), card("orange", 0)]]
    taken: List[List[int]] = [[], [card("yellow", 40, "square"), card("pink", 40, "circle")], []]
    pile = [c for c in range(len(game.cards)) if c not in used][:20]
    d = game.new_state(0).to_dict()
    d.update(
        table=[[r, c, x] for (r, c), x in sorted(table.items())],
        hands=[sorted(h) for h in hands],
        pile=pile,
        pile_putter=[2] + [-1] * 19,
        removed=sorted(c for c in range(len(game.cards)) if c not in used and c not in pile),
        chips=[7, 5, 6],
        taken=taken,
        phase="choose",
        current=0,
        placer=0,
        last=[4, 4],
        scoring_row=[],
        passes=0,
        end=None,
        truncated=False,
        history=[],
        log=[],
    )
    return game.state_from_dict(d)


def test_row_choice_position_by_hand(engine: str) -> None:
    """The row choice of ``cross_position``, written out plane by plane for seat 2. The
    window origin is (-1, -1): table cell (r, c) is window cell (r + 1, c + 1). Default cards:
    colours blue, green, pink, yellow, orange; values 0, 10, 20, 30, 40; symbols square,
    triangle, eight, circle: attribute planes 0..4, 5..9, 10..13 (M-1)."""
    s = cross_position(engine)
    game = s.game
    assert game.observation_shape == (1 + 14 + 4 + 4 * 14 + 3 * 7 + 2 + 3 + 3, 8, 8) == (104, 8, 8)
    obs = s.observation(2)
    sec = sections(game, obs)
    row = [(5, c) for c in range(1, 6)]
    col = [(r, 5) for r in range(1, 6)]
    assert np.array_equal(sec["occ"][0], plane(row + col[:-1]))
    assert np.array_equal(sec["runs"][0], plane(row)) and np.array_equal(sec["runs"][1], plane(col))  # M-12
    assert np.array_equal(sec["last"][0], plane([(5, 5)]))
    assert not sec["srow"].any()  # no scoring row before the choice
    assert [int(k) for k in np.flatnonzero(sec["attr"][:, 5, 5])] == [0, 8, 10]  # blue 30 square
    assert [int(k) for k in np.flatnonzero(sec["attr"][:, 1, 5])] == [2, 7, 12]  # pink 20 eight
    hand = sec["hand"].reshape(4, 14, SIDE, SIDE)  # M-22: seat 2's own cards, as whole planes
    assert [int(k) for k in np.flatnonzero(hand[0].any(axis=(1, 2)))] == [1, 6, 12]  # green 10 eight
    assert [int(k) for k in np.flatnonzero(hand[1].any(axis=(1, 2)))] == [4, 5]  # orange 0: no symbol
    assert np.all(hand[0][[1, 6, 12]] == 1.0) and np.all(hand[1][[4, 5]] == 1.0) and not hand[2:].any()
    seats = sec["seats"].reshape(3, 7, SIDE, SIDE)
    assert np.all(seats == seats[:, :, :1, :1])  # constant planes
    # k = 0 is seat 2, then its left neighbours seat 0 and seat 1; chips / 10, hand size,
    # colour totals / 100 (blue, green, pink, yellow, orange): seat 1 took pink 40, yellow 40
    assert same_bits(
        seats[:, :, 0, 0],
        np.array([[0.6, 2, 0, 0, 0, 0, 0], [0.7, 1, 0, 0, 0, 0, 0], [0.5, 1, 0, 0, 0.4, 0.4, 0]], dtype=np.float32),
    )
    assert np.all(sec["pile"][0] == np.float32(2.0)) and np.all(sec["pile"][1] == 1.0)  # M-9
    assert not sections(game, s.observation(0))["pile"][1].any()  # seat 0 slid nothing under
    assert np.all(sec["phase"][1] == 1.0) and not sec["phase"][[0, 2]].any()
    assert np.all(sec["turn"][1] == 1.0) and not sec["turn"][[0, 2]].any()  # seat 0 is p + 1
    check_layout(game, s.to_dict(), 2, obs)
    assert np.flatnonzero(s.legal_action_mask()).tolist() == [game.A_ROW, game.A_ROW + 1]


# -- the C game interface (mh_game_t) ----------------------------------------------------------
#
# M through its C-level interface (``mh_game_t``) and its compiled determinization.
#
# What the generic conformance test (test_cinterface.py) cannot check for this game:
#
# * M-22: the C determinization (``determinize`` of the interface, and the compiled
#   ``state.determinize``) is, byte for byte, the struct that the Python ``M._determinize`` of
#   seat p's view loads into, in the cases its M-17 logic tells apart (a game over by M-17,
#   a play phase where p's own cards fit nowhere, cards p slid under the pile by M-9);
# * it keeps everything p may see and re-deals what p cannot see (that it depends on p's view
#   alone: every game's, ``tests/test_cinterface.py``);
# * the deal's deferred shuffle steps (taken as the pile's bottom is drawn, or all at once when
#   the dict is read) give the reference engine's game, draw for draw;
# * structs are canonical: a state reached by play (its dict read) and the same state loaded
#   from its dict are the same bytes (the cached masks, the pile's ring buffer and every free
#   slot included), and ``reset`` over a finished game gives ``new_state``'s bytes;
# * ``rollout`` from any state (mid-game, loaded) plays the action model of ``simulate``: the
#   action at index ``below(n)`` of the legal list, drawn from the policy generator;
# * ``returns`` at a truncated end, the bound ``max_legal``, and the call fast paths (numpy
#   actions, ``is_chance_node``, seeds kept by clones). (Seeds and seats of ``determinize``:
#   every game's, ``tests/test_information.py``.)
#
# Every test of this section is marked pytest.mark.compiled (it needs the compiled engine).


PLAYERS = [2, 4, 6]


def _states(game: Any, seed: int) -> Iterator[Any]:
    """Every state of one seeded random game (copies), the start and the end included."""
    return state_clones(game, seed, Rng(seed + 7))


def _python_determinization(game: Any, state: Any, p: int, seed: int) -> Any:
    """The Python path: ``M._determinize`` of p's view, validated and loaded into ``game``'s
    engine (what ``StateAPI.determinize`` does on the reference engine)."""
    return game.determinize_view(state.to_dict(for_player=p), seed)


def _check_determinization(game: Any, python: Any, state: Any, p: int, seed: int) -> None:
    """The interface's determinize, the compiled ``state.determinize`` and the Python
    determinization of the view (on both engines) give the same state, byte for byte."""
    c = cgame(state)
    c.determinize(p, seed)
    via_python = _python_determinization(game, state, p, seed)
    assert c.same_struct(cgame(via_python)), (p, seed)
    compiled = state.determinize(p, seed)
    assert c.same_struct(cgame(compiled)), (p, seed)
    assert compiled.to_dict() == via_python.to_dict()
    ref = _python_determinization(python, python.state_from_dict(state.to_dict()), p, seed)
    assert ref.to_dict() == via_python.to_dict()


def _fits(game: Any, d: Dict[str, Any], cards: List[int]) -> bool:
    """M-17 as the reference reads it: can one of ``cards`` be laid on the table of ``d``?"""
    from mousehole.m import _any_fits, _cells

    return bool(_any_fits(game, _cells(d["table"]), cards))


@pytest.mark.compiled
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


@pytest.mark.compiled
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


@pytest.mark.compiled
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


@pytest.mark.compiled
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
            assert cgame(state).same_struct(cgame(loaded)), len(state.history)
        end = cgame(state)
        end.reset(3 + g)
        assert end.same_struct(cgame(game.new_state(3 + g)))


@pytest.mark.compiled
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
        assert not cgame(fresh).same_struct(cgame(loaded))
        assert cgame(settled).same_struct(cgame(loaded))
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
        assert cgame(early).same_struct(cgame(s))


@pytest.mark.compiled
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
            c = cgame(start)
            c.rollout(900 + i)
            s = start.clone()
            rng = Rng(900 + i)
            while not s.is_terminal():
                legal = s.legal_actions()
                s.apply_action(int(legal[rng.below(len(legal))]))
            assert c.same_struct(cgame(s)), i
            assert c.returns() == s.returns()
    assert "play" in phases


@pytest.mark.compiled
def test_returns_at_a_truncated_end() -> None:
    """``returns`` of the interface equals ``state.returns()`` at every step of games cut by
    max_turns (M-20 and M-21 on the cards taken so far), and is all 0 before the end."""
    game = mousehole.load("m", players=4, max_turns=40, engine="compiled")
    seen = set()
    for seed in range(scale(20)):
        for state in _states(game, seed):
            c = cgame(state)
            assert c.returns() == state.returns()
            if state.is_terminal():
                assert state.truncated == (state.to_dict()["end"] == "max_turns")
                seen.add(tuple(state.returns()))
            else:
                assert c.returns() == [0.0] * 4
    assert len(seen) > 1  # several outcomes, not one constant


@pytest.mark.compiled
@pytest.mark.parametrize("players", PLAYERS)
def test_max_legal_bounds_the_legal_actions(players: int) -> None:
    """``max_legal`` (64 cells per hand slot, the pass and the exchanges: M-6, M-9) bounds
    the legal actions of every phase, and is below the action space."""
    game = mousehole.load("m", players=players, engine="compiled")
    d = cgame(game.new_state(0)).dims()
    assert d["max_legal"] == 65 * game.hand_size + 1 < game.num_actions
    most = 0
    for seed in range(scale(10)):
        for state in _states(game, seed):
            most = max(most, len(state.legal_actions()))
    assert 0 < most <= d["max_legal"]


@pytest.mark.compiled
def test_interface_capsules_and_call_fast_paths() -> None:
    """``_c_game``/``_c_state`` name this game's interface and this state's struct; an action
    given as numpy int64 (what ``legal_actions`` holds) plays as the same int; M has no chance
    node (every random event is at setup, M-3 .. M-5); clones keep the seed of new_state,
    states loaded from a dict have none."""
    game = mousehole.load("m", players=3, engine="compiled")
    a, b = game.new_state(8), game.new_state(8)
    c = cgame(a)
    assert c.name == "m"
    assert c.size == cgame(b).size
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
    assert c.same_struct(cgame(a))
    with pytest.raises(mousehole.IllegalMoveError):
        a.apply_action(np.int64(0))


@pytest.mark.compiled
@pytest.mark.parametrize("players", PLAYERS)
def test_cached_masks_give_the_reference_legal_actions(players: int) -> None:
    """The legal actions and mask, read from the masks cached in the struct (M-6, M-7, M-9,
    M-12, M-13), equal the reference's at every step, through the Python API and through the
    interface."""
    for c, r in reference_pairs("m", players, 21):
        la, lr = c.legal_actions(), r.legal_actions()
        assert la.dtype == np.int64 and la.flags.c_contiguous
        np.testing.assert_array_equal(la, lr)
        np.testing.assert_array_equal(c.legal_action_mask(), r.legal_action_mask())
        assert cgame(c).legal() == [int(a) for a in lr]
