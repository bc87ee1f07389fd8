"""The readings of M's rule text (``mousehole.m.READINGS``, docs/games/m.md "Readings"):
for every value of ``pass_cost`` (M-9), ``stuck_cards`` (M-17), ``draw_timing`` (M-10,
M-16), ``short_payer`` (M-8) and ``chipless_exchange`` (M-9), hand-computed positions where
the readings differ, asserted literally on both engines; the state-dict validation and the
determinization follow the game's reading."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np
import pytest

import mousehole
from mousehole import IllegalMoveError, ParameterError, StateError
from mousehole.m import READINGS, MChooseRow, MPass
from test_m_rules import Deck, _blue_position, _cross, place

Cell = Tuple[int, int]
N_CARDS = 90


def load(engine: str, players: int = 2, **params: Any) -> Any:
    return mousehole.load("m", players=players, engine=engine, **params)


def position(
    game: Any,
    table: Dict[Cell, int],
    hands: Sequence[Sequence[int]],
    pile: List[int],
    *,
    pile_putter: Optional[List[int]] = None,
    chips: Optional[List[int]] = None,
    current: int = 0,
    phase: str = "play",
    end: Optional[str] = None,
) -> Dict[str, Any]:
    """A state dict of ``game`` with these cards; every other card is removed (M-3)."""
    n = game.num_players
    used = set(table.values()) | {c for h in hands for c in h} | set(pile)
    d = game.new_state(seed=0).to_dict()
    d.update(
        table=[[r, c, card] for (r, c), card in sorted(table.items())],
        hands=[sorted(h) for h in hands],
        pile=list(pile),
        pile_putter=pile_putter if pile_putter is not None else [-1] * len(pile),
        removed=[c for c in range(N_CARDS) if c not in used],
        chips=chips if chips is not None else [6] * n,
        taken=[[] for _ in range(n)],
        phase=phase,
        current=-4 if phase == "over" else current,
        placer=-1,
        last=None,
        scoring_row=[],
        passes=0,
        end=end,
        truncated=False,
        history=[],
        log=[],
    )
    return d


def build(engine: str, table: Dict[Cell, int], hands: Sequence[Sequence[int]], pile: List[int], **params: Any) -> Any:
    opts = {k: params.pop(k) for k in ("pile_putter", "chips", "current") if k in params}
    game = load(engine, players=len(hands), **params)
    return game.state_from_dict(position(game, table, hands, pile, **opts))


def determinize_alike(state: Any, p: int, seed: int) -> Dict[str, Any]:
    """``state.determinize`` (compiled: the C determinization) equals the Python path,
    ``determinize_view`` of p's view; returns the world as a dict."""
    a = state.determinize(p, seed).to_dict()
    b = state.game.determinize_view(state.to_dict(for_player=p), seed).to_dict()
    assert a == b
    return a


# ---- the declarations -------------------------------------------------------------------------


def test_readings_are_parameters_with_defaults(engine: str) -> None:
    """Each reading is a keyword parameter; its default is the engine's reading before it was a
    parameter, except draw_timing, whose default became before_scoring in issue 41 (the text
    ties the draw to the laying; docs/games/m.md, Readings)."""
    g = load(engine)
    assert {r.param: g.params[r.param] for r in READINGS} == {
        "pass_cost": "every_pass",
        "stuck_cards": "hands_and_pile",
        "draw_timing": "before_scoring",
        "short_payer": "pays_part",
        "chipless_exchange": "forbidden",
    }
    assert g.num_actions == 327 and g.observation_shape == (96, 8, 8)
    for r in READINGS:
        for v in r.values:  # no reading adds an action or an observation plane
            h = load(engine, **{r.param: v})
            assert h.params[r.param] == v
            assert (h.num_actions, h.observation_shape) == (g.num_actions, g.observation_shape)


@pytest.mark.parametrize("param", ["pass_cost", "stuck_cards", "draw_timing", "short_payer", "chipless_exchange"])
def test_unknown_reading_value_is_refused(param: str) -> None:
    for bad in ("sometimes", "", True, 1, None):
        with pytest.raises(ParameterError, match=param):
            mousehole.load("m", **{param: bad})


# ---- M-9: pass_cost -----------------------------------------------------------------------------


def _pass_position(
    engine: str,
    pass_cost: str,
    chips: Optional[List[int]] = None,
    chipless_exchange: str = "forbidden",
    empty_pile: bool = False,
) -> Tuple[Any, List[int]]:
    d = Deck()
    base = d("blue", 10, "square")
    mine = [d("blue", 20, "square"), d("pink", 30, "eight")]
    theirs = [d("pink", 40, "circle")]
    pile = [d("green", 30, "circle"), d("yellow", 0)]  # bottom first: the yellow 0 is on top
    s = build(
        engine,
        {(0, 0): base},
        [mine, theirs],
        [] if empty_pile else pile,
        pass_cost=pass_cost,
        chips=chips,
        chipless_exchange=chipless_exchange,
    )
    return s, [base] + mine + theirs + pile


@pytest.mark.parametrize("pass_cost, chips_after", [("every_pass", [5, 7]), ("exchange_only", [6, 6])])
def test_m9_plain_pass(engine: str, pass_cost: str, chips_after: List[int]) -> None:
    """M-9: a plain pass costs the passer a chip (to the right neighbour) under
    ``every_pass``, nothing under ``exchange_only``; the same actions are legal either way."""
    s, (base, b20, p30, p40, g30, y0) = _pass_position(engine, pass_cost)
    g = s.game
    assert [int(a) for a in s.legal_actions()][-3:] == [g.A_PASS, g.A_EXCH, g.A_EXCH + 1]
    s.apply(MPass())
    d = s.to_dict()
    assert d["chips"] == chips_after
    assert s.scores() == [10 * c for c in chips_after]
    assert d["hands"] == [sorted([b20, p30]), [p40]] and d["pile"] == [g30, y0]
    assert d["current"] == 1 and d["passes"] == 0
    obs = s.observation(0)  # the chips planes follow (seat 0, then seat 1)
    ch = 1 + g.card_planes + 4 + g.hand_size * g.card_planes
    assert obs[ch, 0, 0] == np.float32(chips_after[0] / 10.0)
    assert obs[ch + 2 + len(g.colours), 0, 0] == np.float32(chips_after[1] / 10.0)


@pytest.mark.parametrize("pass_cost", ["every_pass", "exchange_only"])
def test_m9_exchange_costs_a_chip_in_both_readings(engine: str, pass_cost: str) -> None:
    """M-9: an exchange always costs a chip: the card goes under the pile, the top card is
    drawn."""
    s, (base, b20, p30, p40, g30, y0) = _pass_position(engine, pass_cost)
    slot = sorted([b20, p30]).index(b20)
    s.apply(MPass(slot))
    d = s.to_dict()
    assert d["chips"] == [5, 7]
    assert d["hands"][0] == sorted([p30, y0]) and d["pile"] == [b20, g30] and d["pile_putter"] == [0, -1]


@pytest.mark.parametrize("pass_cost", ["every_pass", "exchange_only"])
def test_m9_without_chips_no_exchange_in_both_readings(engine: str, pass_cost: str) -> None:
    """M-9: a player without chips passes for free and may not exchange, under either reading."""
    s, _ = _pass_position(engine, pass_cost, chips=[0, 12])
    g = s.game
    assert g.A_EXCH not in s.legal_actions() and g.A_PASS in s.legal_actions()
    s.apply(MPass())
    assert s.to_dict()["chips"] == [0, 12]


# ---- M-9: chipless_exchange ---------------------------------------------------------------------


@pytest.mark.parametrize("pass_cost", ["every_pass", "exchange_only"])
def test_m9_free_exchange_without_chips(engine: str, pass_cost: str) -> None:
    """M-9, ``chipless_exchange="free"``: a passing player without chips may exchange, for
    free, under either ``pass_cost``: the card goes under the pile, the top card is drawn, no
    chip moves (``"forbidden"`` refuses the same action)."""
    s, (base, b20, p30, p40, g30, y0) = _pass_position(engine, pass_cost, chips=[0, 12], chipless_exchange="free")
    g = s.game
    assert [int(a) for a in s.legal_actions()][-3:] == [g.A_PASS, g.A_EXCH, g.A_EXCH + 1]
    slot = sorted([b20, p30]).index(b20)
    s.apply(MPass(slot))
    d = s.to_dict()
    assert d["chips"] == [0, 12]
    assert d["hands"] == [sorted([p30, y0]), [p40]] and d["pile"] == [b20, g30] and d["pile_putter"] == [0, -1]
    assert d["log"] == [[0, -2, 0, 0]] and d["current"] == 1
    forbidden, _ = _pass_position(engine, pass_cost, chips=[0, 12])
    with pytest.raises(IllegalMoveError, match="M-9: seat 0 has no chip"):
        forbidden.apply(MPass(slot))


@pytest.mark.parametrize("pass_cost, chips_after", [("every_pass", [5, 7]), ("exchange_only", [5, 7])])
def test_m9_free_exchange_reading_leaves_paying_players_alone(
    engine: str, pass_cost: str, chips_after: List[int]
) -> None:
    """M-9, ``chipless_exchange="free"``: a player with chips still pays one for the exchange,
    and pays for a plain pass as ``pass_cost`` says; with an empty pile nobody exchanges."""
    s, (base, b20, p30, p40, g30, y0) = _pass_position(engine, pass_cost, chipless_exchange="free")
    s.apply(MPass(0))
    assert s.to_dict()["chips"] == chips_after
    s, _ = _pass_position(engine, pass_cost, chipless_exchange="free")
    s.apply(MPass())
    assert s.to_dict()["chips"] == ([5, 7] if pass_cost == "every_pass" else [6, 6])
    s, _ = _pass_position(engine, pass_cost, chips=[0, 12], chipless_exchange="free", empty_pile=True)
    assert [int(a) for a in s.legal_actions()][-1] == s.game.A_PASS
    with pytest.raises(IllegalMoveError, match="M-9: no exchange when the draw pile is empty"):
        s.apply(MPass(0))


# ---- M-8: short_payer ------------------------------------------------------------------------------


def _payment(engine: str, short_payer: str, neighbours: int, chips: List[int]) -> List[int]:
    """The chips after seat 0 lays a blue card touching ``neighbours`` blue cards (M-8: it earns
    ``neighbours - 1``; no scoring) with these chips before, under ``short_payer``."""
    table, target, card = _blue_position(neighbours)
    d = Deck()
    pile = [d("pink", 30, "eight"), d("pink", 40, "circle")]
    s = build(engine, table, [[card]] + [[] for _ in chips[1:]], pile, chips=chips, short_payer=short_payer)
    s.apply_action(place(s, card, *target))
    assert s.current_player == 1 and s.to_dict()["hands"][0] == sorted(pile)  # M-10
    after: List[int] = s.to_dict()["chips"]
    assert s.scores() == [10 * c for c in after]
    return after


@pytest.mark.parametrize("short_payer, after", [("pays_part", [13, 5, 0]), ("skipped", [13, 4, 1])])
def test_m8_referee_position(engine: str, short_payer: str, after: List[int]) -> None:
    """M-8, the referee's position: seat 0 lays a card touching three cards and earns 2 chips;
    its right neighbour (seat 2) holds 1. ``pays_part``: seat 2 pays its chip, seat 1 the
    other; ``skipped``: seat 2 pays nothing, seat 1 pays both."""
    assert _payment(engine, short_payer, 3, [11, 6, 1]) == after


@pytest.mark.parametrize("short_payer, after", [("pays_part", [15, 9, 0, 0]), ("skipped", [15, 6, 2, 1])])
def test_m8_skipping_goes_on_round_the_table(engine: str, short_payer: str, after: List[int]) -> None:
    """M-8: seat 0 earns 3 chips (four neighbours); seats 3 and 2 to its right hold 1 and 2.
    ``pays_part``: they pay what they have (1 + 2); ``skipped``: both are skipped and seat 1,
    the first with 3 chips, pays them all."""
    assert _payment(engine, short_payer, 4, [12, 9, 2, 1]) == after


@pytest.mark.parametrize("short_payer, after", [("pays_part", [14, 6, 4, 0]), ("skipped", [14, 6, 3, 1])])
def test_m8_the_first_who_has_it_all_pays(engine: str, short_payer: str, after: List[int]) -> None:
    """M-8: seat 0 earns 2 chips (three neighbours); seat 3 holds 1, seats 2 and 1 hold 5 and
    6. ``pays_part``: seat 3 pays 1, seat 2 the other; ``skipped``: seat 3 is skipped and seat
    2, the first to the right who has both, pays both (seat 1 pays nothing)."""
    assert _payment(engine, short_payer, 3, [12, 6, 5, 1]) == after


@pytest.mark.parametrize("short_payer", ["pays_part", "skipped"])
@pytest.mark.parametrize("chips, after", [([14, 2, 2], [17, 1, 0]), ([10, 2, 6], [13, 2, 3]), ([16, 2, 0], [18, 0, 0])])
def test_m8_readings_agree_when_nobody_is_skipped(
    engine: str, short_payer: str, chips: List[int], after: List[int]
) -> None:
    """M-8 under both readings: when nobody holds the whole 3 chips each pays what he has,
    right neighbour first (so the placer gets fewer only when the others hold fewer); when
    the right neighbour holds them, he pays them all."""
    assert _payment(engine, short_payer, 4, chips) == after


# ---- M-17: stuck_cards ----------------------------------------------------------------------------


def _stuck_cards(d: Deck) -> Dict[str, Any]:
    """Blue 10 square on the table; a card that fits next to it (blue 20 triangle) and another
    (blue 30 eight); cards that fit neither it nor the blue 20 triangle; a green 20 circle that
    fits next to the blue 20 (value) only."""
    return dict(
        base=d("blue", 10, "square"),
        fit=d("blue", 20, "triangle"),
        later=d("green", 20, "circle"),
        fit2=d("blue", 30, "eight"),
        nofit=[
            d("pink", 30, "eight"),
            d("pink", 40, "eight"),
            d("green", 30, "circle"),
            d("yellow", 40, "circle"),
            d("orange", 30, "eight"),
            d("pink", 0),
        ],
    )


@pytest.mark.parametrize("stuck_cards, over", [("hands_and_pile", False), ("hands", True)])
def test_m17_placement_leaves_a_fitting_card_only_in_the_pile(engine: str, stuck_cards: str, over: bool) -> None:
    """M-17: seat 0 lays its only fitting card and draws four cards that fit nowhere; the
    green 20 circle at the bottom of the pile still fits. ``hands_and_pile``: the game goes
    on; ``hands``: no player can lay a card from hand, the game is over."""
    c = _stuck_cards(Deck())
    nofit = c["nofit"]
    pile = [c["later"]] + nofit[1:5]  # seat 0 draws the top four, the green 20 stays
    s = build(engine, {(0, 0): c["base"]}, [[c["fit"]], [nofit[0]]], pile, stuck_cards=stuck_cards)
    s.apply_action(place(s, c["fit"], 0, 1))
    d = s.to_dict()
    assert d["hands"] == [sorted(nofit[1:5]), [nofit[0]]] and d["pile"] == [c["later"]]
    assert s.is_terminal() == over
    if over:
        assert d["end"] == "M-17" and d["phase"] == "over" and s.winners() == [0, 1]
        assert len(s.legal_actions()) == 0
    else:
        assert d["end"] is None and s.current_player == 1
        assert [int(a) for a in s.legal_actions()] == [s.game.A_PASS, s.game.A_EXCH]


@pytest.mark.parametrize("stuck_cards, over", [("hands_and_pile", False), ("hands", True)])
def test_m17_exchange_of_the_last_fitting_hand_card(engine: str, stuck_cards: str, over: bool) -> None:
    """M-17 after an exchange (M-9): seat 0 slides its only fitting card under the pile and
    draws one that fits nowhere. ``hands``: the game ends at once; ``hands_and_pile``: the
    card in the pile still fits, the game goes on."""
    c = _stuck_cards(Deck())
    nofit = c["nofit"]
    hand = sorted([c["fit"], nofit[0]])
    s = build(engine, {(0, 0): c["base"]}, [hand, [nofit[1]]], [nofit[2]], stuck_cards=stuck_cards)
    s.apply(MPass(hand.index(c["fit"])))
    d = s.to_dict()
    assert d["hands"][0] == sorted([nofit[0], nofit[2]]) and d["pile"] == [c["fit"]]
    assert d["chips"] == [5, 7]
    assert s.is_terminal() == over
    assert d["end"] == ("M-17" if over else None)


def test_m17_validation_follows_the_reading(engine: str) -> None:
    """M-17 in ``state_from_dict``: a play phase in which only a pile card fits is a position
    of ``hands_and_pile`` but not of ``hands``; a game over by M-17 with a fitting pile card
    is one of ``hands`` but not of ``hands_and_pile``."""
    c = _stuck_cards(Deck())
    nofit = c["nofit"]
    table = {(0, 0): c["base"]}
    hands = [[nofit[0]], [nofit[1]]]
    for reading, playing_ok in (("hands_and_pile", True), ("hands", False)):
        g = load(engine, stuck_cards=reading)
        playing = position(g, table, hands, [c["fit"]])
        ended = position(g, table, hands, [c["fit"]], phase="over", end="M-17")
        if playing_ok:
            assert g.state_from_dict(playing).current_player == 0
            with pytest.raises(StateError, match="M-17"):
                g.state_from_dict(ended)
        else:
            with pytest.raises(StateError, match="M-17"):
                g.state_from_dict(playing)
            assert g.state_from_dict(ended).is_terminal()


def _fits(game: Any, table: Dict[Cell, int], card: int) -> bool:
    probe = position(game, table, [[card], []], [])
    try:
        game.state_from_dict(probe)  # M-17: a play phase is valid only when a card fits
    except StateError:
        return False
    return True


def test_m17_determinization_keeps_the_hands_reading(engine: str) -> None:
    """M-22 with M-17: seat 1 fits nothing from its hand, but slid a fitting card (blue 30
    eight) under the pile. Under ``hands_and_pile`` that card keeps the game going, so seat
    0's hidden hand may be dealt a card that fits nowhere; under ``hands`` a hidden hand card
    must fit, so every world gives seat 0 a card that fits. Both engines deal the same worlds."""
    c = _stuck_cards(Deck())
    nofit = c["nofit"]
    table = {(0, 0): c["base"]}
    mine_in_pile = c["fit2"]
    worlds: Dict[str, List[int]] = {}
    for reading in ("hands_and_pile", "hands"):
        s = build(
            engine,
            table,
            [[c["fit"]], [nofit[0]]],
            [mine_in_pile, nofit[1]],
            stuck_cards=reading,
            pile_putter=[1, -1],
            current=1,
        )
        worlds[reading] = []
        for seed in range(12):
            d = determinize_alike(s, 1, seed)
            assert d["hands"][1] == [nofit[0]] and d["pile"][0] == mine_in_pile
            worlds[reading].append(d["hands"][0][0])
    g = load(engine)
    assert _fits(g, table, c["fit"]) and _fits(g, table, mine_in_pile) and not _fits(g, table, nofit[0])
    assert all(_fits(g, table, card) for card in worlds["hands"])
    assert not all(_fits(g, table, card) for card in worlds["hands_and_pile"])


def test_m17_determinization_after_the_end(engine: str) -> None:
    """M-22 with M-17 over: the game of the placement test above, ended by ``hands``; every
    world seat 1 can imagine keeps the other hand unable to fit, and both engines agree."""
    c = _stuck_cards(Deck())
    nofit = c["nofit"]
    pile = [c["later"]] + nofit[1:5]
    s = build(engine, {(0, 0): c["base"]}, [[c["fit"]], [nofit[0]]], pile, stuck_cards="hands")
    s.apply_action(place(s, c["fit"], 0, 1))
    assert s.to_dict()["end"] == "M-17"
    for seed in range(6):
        d = determinize_alike(s, 1, seed)
        assert d["end"] == "M-17" and len(d["hands"][0]) == 4


# ---- M-17 without chips: every game ends by a rule ----------------------------------------------


@pytest.mark.parametrize("chips, over", [(0, True), (1, False)])
def test_m17_no_chip_leaves_the_pile_out_of_reach(engine: str, chips: int, over: bool) -> None:
    """M-17 under the default ``hands_and_pile`` when nobody can exchange: seat 0 lays its only
    fitting card and draws four that fit nowhere; the green 20 circle left in the pile fits.
    With a chip in play (``chips=1``) seat 1 may exchange (M-9) and the card can reach a hand:
    the game goes on. With ``chips=0`` nobody ever holds a chip (chips pass between players,
    M-8, M-9), so no card is laid, drawn or exchanged again: the game ends by M-17 instead of
    passing on to ``max_turns``."""
    c = _stuck_cards(Deck())
    nofit = c["nofit"]
    pile = [c["later"]] + nofit[1:5]
    g = load(engine, chips=chips)
    s = g.state_from_dict(position(g, {(0, 0): c["base"]}, [[c["fit"]], [nofit[0]]], pile, chips=[chips, chips]))
    assert s.game.stuck_with_pile and s.game.pile_in_reach == (chips > 0)
    s.apply_action(place(s, c["fit"], 0, 1))
    d = s.to_dict()
    assert d["hands"] == [sorted(nofit[1:5]), [nofit[0]]] and d["pile"] == [c["later"]]
    assert d["chips"] == [chips, chips]
    assert s.is_terminal() == over and not s.truncated
    if over:
        assert d["end"] == "M-17" and d["phase"] == "over" and s.current_player == mousehole.TERMINAL
        assert s.winners() == [0, 1] and len(s.legal_actions()) == 0
        for seed in range(4):  # M-22: the worlds of seat 1 keep the game over by M-17
            w = determinize_alike(s, 1, seed)
            assert w["end"] == "M-17" and w["hands"][1] == [nofit[0]]
    else:
        assert d["end"] is None and s.current_player == 1
        assert [int(a) for a in s.legal_actions()] == [s.game.A_PASS, s.game.A_EXCH]


@pytest.mark.parametrize("chipless_exchange, over", [("forbidden", True), ("free", False)])
def test_m17_no_chip_free_exchange_keeps_the_pile_in_reach(engine: str, chipless_exchange: str, over: bool) -> None:
    """M-17 with ``chips=0``: under ``chipless_exchange="free"`` a seat without chips may
    exchange (M-9), so the green 20 circle left in the pile can still reach a hand and the
    game goes on (seat 1: pass or exchange its card); under ``"forbidden"`` M-17 ends it."""
    c = _stuck_cards(Deck())
    nofit = c["nofit"]
    pile = [c["later"]] + nofit[1:5]
    g = load(engine, chips=0, chipless_exchange=chipless_exchange)
    s = g.state_from_dict(position(g, {(0, 0): c["base"]}, [[c["fit"]], [nofit[0]]], pile, chips=[0, 0]))
    assert s.game.pile_in_reach == (not over)
    s.apply_action(place(s, c["fit"], 0, 1))
    assert s.to_dict()["pile"] == [c["later"]] and s.is_terminal() == over
    if over:
        assert s.to_dict()["end"] == "M-17"
    else:
        assert s.current_player == 1 and [int(a) for a in s.legal_actions()] == [g.A_PASS, g.A_EXCH]
        s.apply(MPass(0))  # seat 1 draws the green 20 circle, for free
        d = s.to_dict()
        assert d["hands"][1] == [c["later"]] and d["chips"] == [0, 0] and not s.is_terminal()
        assert [int(a) for a in s.legal_actions()] == [g.A_PASS] + [g.A_EXCH + i for i in range(4)]  # seat 0
    hands = [[nofit[0]], [nofit[1]]]  # validation: only a pile card fits
    d = position(g, {(0, 0): c["base"]}, hands, [c["fit"]], chips=[0, 0])
    if over:
        with pytest.raises(StateError, match="M-17"):
            g.state_from_dict(d)
    else:
        assert not g.state_from_dict(d).is_terminal()


def test_m17_no_chip_validation(engine: str) -> None:
    """``state_from_dict`` with ``chips=0``: only a pile card fits, so the play phase is no
    position of the game (M-17 has ended it), and an M-17 end with that card in the pile is."""
    c = _stuck_cards(Deck())
    nofit = c["nofit"]
    table = {(0, 0): c["base"]}
    hands = [[nofit[0]], [nofit[1]]]
    g = load(engine, chips=0)
    with pytest.raises(StateError, match=r"M-17: no card in a hand \(chips=0"):
        g.state_from_dict(position(g, table, hands, [c["fit"]], chips=[0, 0]))
    assert g.state_from_dict(
        position(g, table, hands, [c["fit"]], chips=[0, 0], phase="over", end="M-17")
    ).is_terminal()


def test_m17_no_chip_games_end_by_a_rule(engine: str) -> None:
    """``simulate`` (compiled: the C loop, the same blocks as ``random_step`` and the
    play-outs) and random walks through ``apply_action`` under ``chips=0``: no game reaches
    ``max_turns`` (about a third did before, passing on with a fitting card in the pile),
    some end by M-17, and the compiled games equal the reference engine's."""
    from mousehole._rng import Rng

    game = load(engine, players=3, chips=0)
    r = mousehole.simulate(game, 12, seed=5)
    assert not r.truncated.any()
    if engine == "compiled":
        ref = mousehole.simulate(load("python", players=3, chips=0), 12, seed=5)
        assert np.array_equal(r.scores, ref.scores) and np.array_equal(r.lengths, ref.lengths)
    ends = set()
    for i in range(12):
        s = game.new_state(i)
        rng = Rng(i)
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply_action(int(legal[rng.below(len(legal))]))
        assert not s.truncated
        ends.add(s.to_dict()["end"])
    assert "M-17" in ends


# ---- M-10, M-16: draw_timing ----------------------------------------------------------------------


def _scoring_position(engine: str, draw_timing: str) -> Tuple[Any, int, int]:
    """A row of four; seat 0's blue 20 square makes it five with two matches (M-12); one card
    (pink 0) in the pile; seat 1's blue 40 circle fits every card of the row."""
    d = Deck()
    table = {
        (0, 0): d("pink", 10, "circle"),
        (0, 1): d("yellow", 20, "circle"),
        (0, 2): d("green", 30, "circle"),
        (0, 3): d("blue", 10, "square"),
    }
    card, other, last = d("blue", 20, "square"), d("blue", 40, "circle"), d("pink", 0)
    s = build(engine, table, [[card], [other]], [last], draw_timing=draw_timing)
    s.apply_action(place(s, card, 0, 4))
    return s, other, last


def test_m10_draw_after_the_scoring(engine: str) -> None:
    """M-10 ``after_scoring``: during the scoring the placer's hand is short and the pile
    holds its card; the placer draws it when the scoring ends, and play goes on (M-16 does not
    apply: the pile was not empty when the scoring began)."""
    s, other, last = _scoring_position(engine, "after_scoring")
    d = s.to_dict()
    assert d["phase"] == "take" and d["hands"] == [[], [other]] and d["pile"] == [last]
    assert s.observation(1)[1 + s.game.card_planes + 4 + s.game.hand_size * s.game.card_planes + 2 + 5 + 1, 0, 0] == 0.0
    while s.to_dict()["phase"] == "take":
        s.apply_action(int(s.legal_actions()[0]))
    d = s.to_dict()
    assert d["end"] is None and d["hands"] == [[last], [other]] and d["pile"] == []
    assert s.current_player == 1 and len(d["table"]) == 1


def test_m16_draw_before_the_scoring_makes_it_the_last(engine: str) -> None:
    """M-10/M-16 ``before_scoring``: the placer draws the last pile card right after laying;
    the scoring then starts with an empty pile, so the game ends with it (M-16)."""
    s, other, last = _scoring_position(engine, "before_scoring")
    d = s.to_dict()
    assert d["phase"] == "take" and d["hands"] == [[last], [other]] and d["pile"] == []
    # seat 1 sees seat 0's hand size (1) in its observation; the pile is empty
    g = s.game
    seat_block = 1 + g.card_planes + 4 + g.hand_size * g.card_planes
    obs = s.observation(1)
    assert obs[seat_block + 2 + 5 + 1, 0, 0] == 1.0  # seat 0 (to the left of seat 1): hand size
    assert obs[seat_block + 2 * (2 + 5), 0, 0] == 0.0  # pile size
    assert s.to_dict(for_player=1)["hands"] == [[None], [other]]
    while not s.is_terminal():
        assert s.to_dict()["phase"] == "take"
        s.apply_action(int(s.legal_actions()[0]))
    d = s.to_dict()
    assert d["end"] == "M-16" and d["hands"] == [[last], [other]] and len(d["table"]) == 1


@pytest.mark.parametrize("draw_timing, drawn", [("after_scoring", False), ("before_scoring", True)])
def test_m10_draw_timing_at_a_row_choice(engine: str, draw_timing: str, drawn: bool) -> None:
    """M-10/M-12: when both lines qualify, the placer chooses the row having drawn the whole
    pile already (``before_scoring``) or still holding one card (``after_scoring``)."""
    d = Deck()
    table = _cross(d)  # both lines through (4, 4) qualify
    card, keep = d("blue", 30, "square"), d("orange", 40, "circle")
    bottom, top = d("pink", 0), d("blue", 40, "triangle")
    s = build(engine, table, [[card, keep], [d("green", 0)], [d("yellow", 0)]], [bottom, top], draw_timing=draw_timing)
    s.apply_action(place(s, card, 4, 4))
    dd = s.to_dict()
    assert dd["phase"] == "choose"
    assert dd["hands"][0] == (sorted([keep, top, bottom]) if drawn else [keep])  # M-10: up to 4 cards
    assert len(dd["pile"]) == (0 if drawn else 2)
    for p in range(3):  # the views and the determinization keep what each seat saw
        w = determinize_alike(s, p, 7)
        assert [len(h) for h in w["hands"]] == [len(h) for h in dd["hands"]]
    s.apply(MChooseRow(True))
    assert s.to_dict()["phase"] == "take"


# ---- the compiled loop follows the readings ---------------------------------------------------------


@pytest.mark.parametrize("param, value", [(r.param, v) for r in READINGS for v in r.values[1:]])
def test_simulate_plays_the_reading(engine: str, param: str, value: str) -> None:
    """``simulate`` (compiled: the C loop) plays the game's reading: its first games equal
    those of the reference engine's ``simulate`` under the same reading, and the games
    differ from the default's somewhere."""
    base = load(engine, players=3)
    game = load(engine, players=3, **{param: value})
    a = mousehole.simulate(game, 3, seed=17)  # (seed 17: each reading changes a game of the three)
    b = mousehole.simulate(base, 3, seed=17)
    assert not (np.array_equal(a.scores, b.scores) and np.array_equal(a.lengths, b.lengths))
    if engine == "compiled":
        ref = mousehole.simulate(load("python", players=3, **{param: value}), 3, seed=17)
        assert np.array_equal(a.scores, ref.scores) and np.array_equal(a.lengths, ref.lengths)
