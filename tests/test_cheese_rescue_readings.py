"""The readings of Cheese Rescue (``CheeseRescue.READINGS``, docs/games/cheese_rescue.md,
"Readings"): hand-computed positions where the values differ, on both engines, and the
parameter's checks.

``play_area`` (CR-6, CR-8): ``"floating"`` (the N x N square is wherever the cards lie) or
``"centred_on_start"`` (with 2 or 4 players the square is fixed, the start card on its centre
cell; with 3 players it floats). Cells below are ``row * G + col`` on the ``G x G`` grid whose
centre ``(N - 1, N - 1)`` holds the start card.
"""

from __future__ import annotations

import random
from typing import Any, List, Tuple

import numpy as np
import pytest

import mousehole
from mousehole import IllegalMoveError, ParameterError, StateError
from mousehole._rng import derive
from mousehole._simulate import play_random_game
from mousehole.cheese_rescue import CheeseRescue

AREAS = ("floating", "centred_on_start")
CHEESE1 = 3  # the card kind of the value-1 cheese (every seat holds three at the start, CR-2/CR-5)


def lay_cheese1(game: Any, state: Any, cells: List[Tuple[int, int]]) -> None:
    """Each seat in turn lays a value-1 cheese on the next of ``cells`` (CR-7)."""
    for r, c in cells:
        state.apply_action(CHEESE1 * game.num_cells + r * game.grid_size + c)


def test_the_readings_are_declared() -> None:
    """READINGS lists play_area (CR-6, CR-8), default first, and DEFAULTS holds its default."""
    assert [r.param for r in CheeseRescue.READINGS] == ["play_area"]
    reading = CheeseRescue.READINGS[0]
    assert reading.values == AREAS
    assert reading.rules == ("CR-6", "CR-8")
    assert CheeseRescue.DEFAULTS["play_area"] == "floating"


@pytest.mark.parametrize("area", AREAS)
def test_play_area_reaches_params(engine: str, area: str) -> None:
    game = mousehole.load("cheese_rescue", players=2, play_area=area, engine=engine)
    assert game.params["play_area"] == area
    assert mousehole.load("cheese_rescue", engine=engine).params["play_area"] == "floating"
    assert game.new_state(seed=1).to_dict()["params"]["play_area"] == area


@pytest.mark.parametrize("bad", ["centered", "fixed", "", "FLOATING", True, None, 1])
def test_unknown_play_area_raises(engine: str, bad: Any) -> None:
    """A value that is not a reading of CR-6/CR-8 is refused, naming the values and the rules."""
    with pytest.raises(
        ParameterError,
        match=r"play_area must be one of 'floating', 'centred_on_start' "
        r"\(CR-6/CR-8\)",
    ):
        mousehole.load("cheese_rescue", players=2, play_area=bad, engine=engine)


def test_cr8_two_players_centred_square_stops_two_cells_from_the_start(engine: str) -> None:
    """CR-8, 2 players (N = 5, G = 9, start card on (4, 4)): after cheeses on (4, 5) and
    (4, 6) the floating square still takes (4, 7) (columns 4..7 are four wide), the square
    centred on the start card (rows and columns 2..6) does not."""
    cells = {}
    for area in AREAS:
        game = mousehole.load("cheese_rescue", players=2, play_area=area, engine=engine)
        st = game.new_state(seed=5)
        lay_cheese1(game, st, [(4, 5), (4, 6)])
        cells[area] = list(st.legal_cells())
        legal = st.legal_actions()
        assert [a - CHEESE1 * game.num_cells for a in legal if a // game.num_cells == CHEESE1] == cells[area]
        hand = st.to_dict()["hands"][0]
        assert legal.tolist() == [k * game.num_cells + x for k in range(game.num_kinds) if hand[k] for x in cells[area]]
        assert np.flatnonzero(st.legal_action_mask()).tolist() == legal.tolist()
    # (3,4) (3,5) (3,6) (4,3) (4,7) (5,4) (5,5) (5,6)
    assert cells["floating"] == [31, 32, 33, 39, 43, 49, 50, 51]
    assert cells["centred_on_start"] == [31, 32, 33, 39, 49, 50, 51]


def test_cr8_four_players_centred_square_stops_three_cells_from_the_start(engine: str) -> None:
    """CR-8, 4 players (N = 7, G = 13, start card on (6, 6)): after cheeses on (6, 7), (6, 8)
    and (6, 9), seat 3 may lay on (6, 10) only when the square floats (the centred square is
    rows and columns 3..9)."""
    cells = {}
    for area in AREAS:
        game = mousehole.load("cheese_rescue", players=4, play_area=area, engine=engine)
        st = game.new_state(seed=2)
        lay_cheese1(game, st, [(6, 7), (6, 8), (6, 9)])
        assert st.current_player == 3
        cells[area] = list(st.legal_cells())
    # (5,6) (5,7) (5,8) (5,9) (6,5) (6,10) (7,6) (7,7) (7,8) (7,9)
    assert cells["floating"] == [71, 72, 73, 74, 83, 88, 97, 98, 99, 100]
    assert cells["centred_on_start"] == [71, 72, 73, 74, 83, 97, 98, 99, 100]


def test_cr8_centred_refuses_a_card_outside_the_square(engine: str) -> None:
    """CR-8: laying on (4, 7) with 2 players is legal when the square floats; when it is
    centred on the start card the move raises IllegalMoveError naming CR-8 and the reading,
    and the state is unchanged."""
    action = CHEESE1 * 81 + 4 * 9 + 7
    floating = mousehole.load("cheese_rescue", players=2, engine=engine)
    st = floating.new_state(seed=5)
    lay_cheese1(floating, st, [(4, 5), (4, 6)])
    st.apply_action(action)
    assert st.to_dict()["table"][43] != 0

    centred = mousehole.load("cheese_rescue", players=2, play_area="centred_on_start", engine=engine)
    st = centred.new_state(seed=5)
    lay_cheese1(centred, st, [(4, 5), (4, 6)])
    before = st.to_dict()
    with pytest.raises(
        IllegalMoveError,
        match=r"CR-8: cell \(4, 7\) is outside the 5 x 5 square centred on "
        r"the start card",
    ):
        st.apply_action(action)
    assert st.to_dict() == before
    with pytest.raises(IllegalMoveError, match="CR-8"):
        st.apply(centred.action_to_move(action))
    assert st.to_dict() == before


def test_cr8_centred_refuses_a_state_outside_the_square(engine: str) -> None:
    """CR-8: a state dict whose history leaves the centred square does not load into a game
    whose square is centred on the start card (StateError naming CR-8); it loads when the
    square floats."""
    floating = mousehole.load("cheese_rescue", players=2, engine=engine)
    st = floating.new_state(seed=5)
    lay_cheese1(floating, st, [(4, 5), (4, 6), (4, 7)])
    d = st.to_dict()
    assert floating.state_from_dict(d).to_dict() == d
    centred = mousehole.load("cheese_rescue", players=2, play_area="centred_on_start", engine=engine)
    d["params"] = dict(d["params"], play_area="centred_on_start")
    with pytest.raises(StateError, match=r"CR-8: history\[2\] .*centred on the start card"):
        centred.state_from_dict(d)


@pytest.mark.parametrize("players, lo, hi", [(2, 2, 6), (4, 3, 9)])
def test_cr11_centred_games_fill_exactly_the_centred_square(engine: str, players: int, lo: int, hi: int) -> None:
    """CR-8, CR-11: with the square centred on the start card, seeded random games end with
    every cell of rows and columns lo..hi filled and no card elsewhere."""
    game = mousehole.load("cheese_rescue", players=players, play_area="centred_on_start", engine=engine)
    want = sorted(r * game.grid_size + c for r in range(lo, hi + 1) for c in range(lo, hi + 1))
    for seed in range(3):
        rng = random.Random(seed)
        st = game.new_state(seed=seed)
        while not st.is_terminal():
            st.apply_action(int(rng.choice(st.legal_actions().tolist())))
        table = st.to_dict()["table"]
        assert [i for i, code in enumerate(table) if code] == want
        assert len(st.history) == (hi - lo + 1) ** 2 - 1 and not st.truncated


def test_cr6_three_players_centred_is_floating(engine: str) -> None:
    """CR-3, CR-6: with 3 players there is no start card, so the square floats under both
    values: seeded games have the same legal actions at every step."""
    games = [mousehole.load("cheese_rescue", players=3, play_area=a, engine=engine) for a in AREAS]
    for seed in range(2):
        rng = random.Random(seed)
        states = [g.new_state(seed=seed) for g in games]
        while not states[0].is_terminal():
            legal = states[0].legal_actions()
            assert np.array_equal(states[1].legal_actions(), legal)
            a = int(rng.choice(legal.tolist()))
            for s in states:
                s.apply_action(a)
        assert states[1].is_terminal() and states[1].scores() == states[0].scores()


@pytest.mark.compiled
@pytest.mark.parametrize("players", [2, 4])
def test_centred_simulate_and_c_interface_agree_with_the_reference(players: int) -> None:
    """The compiled play-outs with a fixed square (CR-8): simulate's games are those the
    reference plays with the same draws, VectorGame steps the same legal actions as the
    reference, and the compiled search (its play-outs and determinizations) chooses as the
    reference search."""
    from mousehole.bots import search
    from mousehole.vector import VectorGame

    kw = dict(players=players, play_area="centred_on_start")
    comp = mousehole.load("cheese_rescue", engine="compiled", **kw)
    ref = mousehole.load("cheese_rescue", engine="python", **kw)
    res = mousehole.simulate(comp, 6, seed=9)
    for i in range(6):
        st = play_random_game(ref, 9, i)
        assert res.scores[i].tolist() == st.scores()
        assert res.winners[i].nonzero()[0].tolist() == st.winners()
        assert int(res.lengths[i]) == len(st.history)

    vg = VectorGame(comp, 2, seed=4)
    vg.reset(seed=4)
    refs = [ref.new_state(seed=derive(derive(4, i), 0)) for i in range(2)]
    rng = random.Random(1)
    for _ in range(comp.cells_to_fill - 1):
        acts = []
        for i, st in enumerate(refs):
            assert vg.action_mask[i].nonzero()[0].tolist() == st.legal_actions().tolist()
            acts.append(int(rng.choice(st.legal_actions().tolist())))
            st.apply_action(acts[-1])
        vg.step(np.array(acts))

    st = comp.new_state(seed=4)  # the last six cards to lay, the square nearly full
    while len(st.history) < comp.cells_to_fill - 6:
        st.apply_action(int(rng.choice(st.legal_actions().tolist())))
    twin = ref.state_from_dict(st.to_dict())
    for algorithm in ("mcts", "ismcts"):
        a = search(st, algorithm=algorithm, iterations=100, seed=3, engine="compiled")
        b = search(twin, algorithm=algorithm, iterations=100, seed=3, engine="python")
        assert a.action == b.action and list(a.visits) == list(b.visits)
