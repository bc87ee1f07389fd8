"""M's moves for people (``docs/games/m.md``, "Readable notation"): ``str(move)`` and
``game.parse_move`` round-trip over the whole action space; ``state.describe(a)`` names the
card and its absolute cell, and ``state.parse_action`` reads it back, so that a whole game
written out with ``describe`` replays action by action, on both engines."""

from __future__ import annotations

import re
from typing import Any, List

import pytest

import mousehole
from mousehole import IllegalMoveError
from mousehole._rng import Rng, derive
from mousehole.m import MChooseRow, MPass, MPlace, MTake, W, parse_move
from test_m_rules import Deck, _row_of_four, build, origin, place, take

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
