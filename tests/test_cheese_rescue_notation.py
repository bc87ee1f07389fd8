"""Cheese Rescue moves a person can read and type: ``str(move)`` names the card and an
absolute grid cell (``cat@6,7``), ``game.parse_move`` reads it back, ``state.describe`` and
``state.parse_action`` write and read a whole game (CR-7: a card from the hand on a cell)."""

from __future__ import annotations

from typing import List

import pytest

import mousehole
from mousehole._rng import Rng
from mousehole.cheese_rescue import CRMove


@pytest.mark.parametrize("players", [2, 3, 4])
def test_parse_move_round_trips_every_action(players: int, engine: str) -> None:
    game = mousehole.load("cheese_rescue", players=players, engine=engine)
    seen = set()
    for a in range(game.num_actions):
        move = game.action_to_move(a)
        text = str(move)
        assert game.parse_move(text) == move
        assert game.move_to_action(game.parse_move(text)) == a
        assert game.parse_move(f"  {move.card} @ {move.row} , {move.col} ") == move  # spaces are allowed
        seen.add(text)
    assert len(seen) == game.num_actions


@pytest.mark.parametrize(
    "text, words",
    [
        ("", "not a Cheese Rescue move"),
        ("cat", "not a Cheese Rescue move"),
        ("cat@6", "not a Cheese Rescue move"),
        ("lion@6,7", "not a Cheese Rescue move"),
        ("cat@-1,7", "not a Cheese Rescue move"),
        ("cheese4@6,7", "CR-1/CR-2: no card 'cheese4'"),
        ("cat@13,0", "CR-8"),
        ("cat@0,13", "CR-8"),
    ],
)
def test_parse_move_refuses_bad_text(text: str, words: str, engine: str) -> None:
    game = mousehole.load("cheese_rescue", players=4, engine=engine)  # a 13 x 13 grid
    with pytest.raises(ValueError, match=words):
        game.parse_move(text)
    with pytest.raises(ValueError, match="cat@6,7"):
        game.parse_move(7)  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_written_out_game_reads_back(players: int, engine: str) -> None:
    """A whole game written with ``describe`` is read back by ``parse_action`` on a fresh
    state, step by step, to the same final state; an illegal move is refused by name."""
    game = mousehole.load("cheese_rescue", players=players, engine=engine)
    s = game.new_state(seed=players)
    rng = Rng(5)
    written: List[str] = []
    while not s.is_terminal():
        legal = [int(a) for a in s.legal_actions()]
        texts = [s.describe(a) for a in legal]
        assert len(set(texts)) == len(texts)
        for a, t in zip(legal, texts):
            assert s.parse_action(t) == a
            assert t == str(game.action_to_move(a)) and s.describe(game.action_to_move(a)) == t
        a = legal[rng.below(len(legal))]
        written.append(s.describe(a))
        s.apply_action(a)
    replay = game.new_state(seed=players)
    for t in written:
        replay.apply_action(replay.parse_action(t))
    assert replay.to_dict() == s.to_dict()
    assert len(written) == game.cells_to_fill


def test_parse_action_refuses_a_move_that_is_not_legal_now(engine: str) -> None:
    game = mousehole.load("cheese_rescue", players=2, engine=engine)
    s = game.new_state(seed=8)
    before = s.to_dict()
    c = game.square_size - 1
    with pytest.raises(mousehole.IllegalMoveError, match="CR-7"):
        s.parse_action(f"cheese1@{c - 2},{c}")  # not next to a card
    missing = [k for k in range(3) if before["hands"][0][k] == 0][0]
    with pytest.raises(mousehole.IllegalMoveError, match="CR-7: seat 0 holds no"):
        s.parse_action(str(CRMove(game.kind_name(missing), c - 1, c)))
    with pytest.raises(ValueError, match="not a Cheese Rescue move"):
        s.parse_action("put the cat next to the dog")
    assert s.to_dict() == before


def test_module_parse_move_reads_every_str_and_refuses_non_text(engine: str) -> None:
    """The module's ``parse_move`` (the notation's one home, as in every game) reads
    ``str(move)`` of every action back, as ``CRMove.from_str`` and the game's ``parse_move``
    do, and refuses what is not text or not a move."""
    from mousehole.cheese_rescue import parse_move

    game = mousehole.load("cheese_rescue", players=4, engine=engine)
    for a in range(game.num_actions):
        move = game.action_to_move(a)
        assert parse_move(str(move)) == move == CRMove.from_str(str(move)) == game.parse_move(str(move))
    with pytest.raises(TypeError, match="from a str, not int"):
        parse_move(7)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not a Cheese Rescue move"):
        parse_move("cat@6")


def test_move_to_action_refuses_a_bool_or_a_float_for_a_cell() -> None:
    """CR-8: a move's row and column are ints; a bool read as 1 and a float gave a float
    action before issue 40's one integer check."""
    g = mousehole.load("cheese_rescue", engine="python")
    good = g.move_to_action(CRMove("cat", 1, 2))
    assert type(good) is int
    for move in (CRMove("cat", True, 2), CRMove("cat", 1, False), CRMove("cat", 1.0, 2), CRMove("cat", 1, 2.0)):
        with pytest.raises(mousehole.IllegalMoveError, match=r"CR-8: cell \("):
            g.move_to_action(move)
