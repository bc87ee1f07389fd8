"""Cheese Rescue: ``state_from_dict`` accepts exactly the states a game can reach.

The history must lay, seat by seat and each time on a legal cell (CR-7, CR-8), exactly the
cards on the table (CR-10); every card must be somewhere (CR-1, CR-2, CR-4); the pile and
every hand must have the sizes that the deal and the draws give them (CR-5, CR-9). Anything
else, and every wrong type (a bool is not an int), is a ``StateError`` naming the key or the
rule, on both engines."""

from __future__ import annotations

import copy
from typing import Any, Callable, Dict, List

import pytest

import mousehole
from mousehole._rng import Rng


def midgame(game: Any, seed: int = 3, steps: int = 6) -> Dict[str, Any]:
    s = game.new_state(seed=seed)
    rng = Rng(seed)
    for _ in range(steps):
        legal = s.legal_actions()
        s.apply_action(int(legal[rng.below(len(legal))]))
    return s.to_dict()


def first_animal(hand: List[int]) -> int:
    return [k for k in range(3) if hand[k]][0]


def move_animal_between_hands(d: Dict[str, Any]) -> None:
    k = first_animal(d["hands"][0])
    d["hands"][0][k] -= 1
    d["hands"][1][k] += 1


def draw_one_more(d: Dict[str, Any]) -> None:
    d["hands"][0][d["pile"].pop()] += 1


def swap_two_history_entries(d: Dict[str, Any]) -> None:
    d["history"][0], d["history"][1] = d["history"][1], d["history"][0]


def change_a_laid_kind(d: Dict[str, Any], game: Any) -> None:
    """history[0] says another animal than the table shows on its cell."""
    kind, cell = divmod(d["history"][0], game.num_cells)
    d["history"][0] = ((kind + 1) % 3) * game.num_cells + cell


CHANGES: List[Any] = [
    (lambda d, g: d["table"].__setitem__(0, True), "table must hold ints"),
    (lambda d, g: d["table"].__setitem__(0, 2.0), "table must hold ints"),
    (lambda d, g: d["hands"][0].__setitem__(3, True), "hands\\[0\\] must hold ints"),
    (lambda d, g: d["hands"].__setitem__(1, None), "hands\\[1\\] must be a list"),
    (lambda d, g: d["pile"].__setitem__(0, False), "pile must hold ints"),
    (lambda d, g: d["pile"].__setitem__(0, 3), "pile holds 3"),
    (lambda d, g: d["history"].__setitem__(0, True), "history must hold ints"),
    (lambda d, g: d.update(truncated=0), "truncated must be a bool"),
    (lambda d, g: d.update(truncated=True), "truncated must be true exactly"),
    (lambda d, g: d["table"].__setitem__(g.center, 0), "CR-3"),
    (lambda d, g: swap_two_history_entries(d), "CR-10: history\\[0\\]|CR-7"),
    (lambda d, g: change_a_laid_kind(d, g), "CR-10: history\\[0\\] .* is not the card the table shows"),
    (lambda d, g: d["history"].pop(), "CR-10: the table holds cards that no action"),
    (lambda d, g: d["history"].append(d["history"][-1]), "CR-7: history\\[6\\] .* already taken"),
    (lambda d, g: d["pile"].__setitem__(-1, (d["pile"][-1] + 1) % 3), "CR-4"),
    (lambda d, g: d["hands"][0].__setitem__(3, d["hands"][0][3] + 1), "CR-2: seat 0 has"),
    (lambda d, g: draw_one_more(d), "CR-9: after 6 cards laid the pile holds"),
    (lambda d, g: move_animal_between_hands(d), "CR-5/CR-9: seat 0 must hold"),
]


@pytest.mark.parametrize("change, rule", CHANGES)
def test_an_unreachable_dict_is_refused_by_name(
    change: Callable[[Dict[str, Any], Any], None], rule: str, engine: str
) -> None:
    game = mousehole.load("cheese_rescue", players=2, engine=engine)
    d = midgame(game)
    game.state_from_dict(d)
    e = copy.deepcopy(d)
    change(e, game)
    assert repr(e) != repr(d)  # (0 == False: compare the text)
    with pytest.raises(mousehole.StateError, match=rule):
        game.state_from_dict(e)


def test_cr7_cr8_the_history_lays_each_card_on_a_legal_cell(engine: str) -> None:
    """CR-7: each card next to a card laid before it, the 3-player first card on the centre;
    CR-8: inside the square; CR-7/CR-13: each seat lays its own cheese in turn."""
    game = mousehole.load("cheese_rescue", players=2, engine=engine)  # 5 x 5, start at (4, 4)
    G, C, c = game.grid_size, game.num_cells, game.square_size - 1
    d = game.new_state(seed=0).to_dict()
    DOG = 0

    def laid(cells: List[Any]) -> Dict[str, Any]:
        """Only the table and the history (checked before the cards and the hands)."""
        e = copy.deepcopy(d)
        for kind, r, col in cells:
            owner = len(e["history"]) % 2
            e["table"][r * G + col] = 2 + kind if kind < 3 else 5 + owner * game.num_cheese_kinds + kind - 3
            e["history"].append(kind * C + r * G + col)
        return e

    # the second dog is two cells away from the start card when it is laid
    e = laid([(DOG, c, c + 2), (DOG, c, c + 1)])
    with pytest.raises(mousehole.StateError, match="CR-7: history\\[0\\] .* is not next to a card laid before it"):
        game.state_from_dict(e)
    # six in a row: the sixth leaves the 5 x 5 square
    e = laid([(DOG, c, c + 1), (DOG, c, c + 2), (DOG, c, c + 3), (DOG, c, c + 4), (DOG, c, c - 1)])
    with pytest.raises(mousehole.StateError, match="CR-8: history\\[4\\] .* leaves the 5 x 5 square"):
        game.state_from_dict(e)
    # seat 1's cheese laid at seat 0's turn
    e = laid([(DOG, c, c + 1)])
    e["table"][(c + 1) * G + c] = 5 + 1 * game.num_cheese_kinds + 0
    e["history"].append(3 * C + (c + 1) * G + c)
    e["history"][0], e["history"][1] = e["history"][1], e["history"][0]
    with pytest.raises(mousehole.StateError, match="CR-10: history\\[0\\] \\(seat 0: cheese1"):
        game.state_from_dict(e)
    # 3 players: the first card lies on the centre cell
    g3 = mousehole.load("cheese_rescue", players=3, engine=engine)
    d3 = g3.new_state(seed=0).to_dict()
    x = g3.center + 1
    d3["table"][x] = 2
    d3["history"] = [x]
    with pytest.raises(mousehole.StateError, match="CR-7: history\\[0\\] .* the first card lies on the centre"):
        g3.state_from_dict(d3)


def test_cr5_an_animal_is_laid_only_once_it_was_drawn(engine: str) -> None:
    """CR-5, CR-9: with no initial draw, a seat holds no animal before its first draw, so its
    first card is a cheese; a history whose first card is a dog cannot happen."""
    game = mousehole.load("cheese_rescue", players=2, initial_draw=0, engine=engine)
    d = game.new_state(seed=1).to_dict()
    assert all(h[:3] == [0, 0, 0] for h in d["hands"])
    cell = game.center - game.grid_size
    d["table"][cell] = 2
    d["history"] = [0 * game.num_cells + cell]
    d["pile"].remove(0)  # the dog on the table came from somewhere
    with pytest.raises(
        mousehole.StateError, match="CR-7: history\\[0\\]: seat 0 lays its animal number 1 but has drawn only 0"
    ):
        game.state_from_dict(d)
    s = game.new_state(seed=1)
    s.apply_action(int(s.legal_actions()[0]))  # a cheese: the only cards seat 0 holds
    assert s.history[0] // game.num_cells >= 3
    assert game.state_from_dict(s.to_dict()) == s


def test_max_turns_bounds_the_history(engine: str) -> None:
    game = mousehole.load("cheese_rescue", players=2, max_turns=4, engine=engine)
    full = mousehole.load("cheese_rescue", players=2, engine=engine)
    d = midgame(full, steps=6)
    d["params"] = game.params
    d["truncated"] = True
    with pytest.raises(mousehole.StateError, match="history has 6 actions, more than max_turns=4"):
        game.state_from_dict(d)


def test_every_reached_state_loads(engine: str) -> None:
    """The checks accept every state of random games, hands and piles included."""
    for players in (2, 3, 4):
        game = mousehole.load("cheese_rescue", players=players, engine=engine)
        s = game.new_state(seed=players)
        rng = Rng(players)
        while True:
            assert game.state_from_dict(s.to_dict()) == s
            if s.is_terminal():
                break
            legal = s.legal_actions()
            s.apply_action(int(legal[rng.below(len(legal))]))
