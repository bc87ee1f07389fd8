"""Kater Kasimir moves a person can read and type.

``str(move)`` is exact (``12+5``, ``pantry+3``, ``roll clover #5``) and ``game.parse_move``
reads it back for every action; ``state.describe`` names where the mouse starts, how far it
goes and where it lands (KK-5, KK-7: ``space 38 +5 -> hole``; KK-1: traps by name), or the
face the die shows (KK-3), and ``state.parse_action`` reads that back, for a whole game."""

from __future__ import annotations

from typing import Any, Dict, List

import pytest

import mousehole
from mousehole._rng import Rng
from mousehole.kasimir import CLOVER, KKMove, KKRoll

CONFIGS: List[Dict[str, Any]] = [
    {"players": 4},
    {"players": 2, "explicit_chance": True},
    {
        "players": 3,
        "explicit_chance": True,
        "track_length": 20,
        "traps": [2, 5, 7, 11],
        "die": [1, 1, 6, CLOVER],
        "clover": 3,
    },
]


@pytest.mark.parametrize("params", CONFIGS)
def test_parse_move_round_trips_every_action(params: Dict[str, Any], engine: str) -> None:
    game = mousehole.load("kasimir", engine=engine, **params)
    texts = set()
    for a in range(game.num_actions):
        move = game.action_to_move(a)
        assert game.parse_move(str(move)) == move
        assert game.move_to_action(game.parse_move(str(move))) == a
        assert game.move_to_action(game.parse_move(game.describe_move(move))) == a
        texts.add(str(move))
    assert len(texts) == game.num_actions


def test_describe_names_start_distance_and_landing(engine: str) -> None:
    """KK-1 (traps by name), KK-5 (the distance), KK-7 (the hole), KK-3 (the face)."""
    game = mousehole.load("kasimir", engine=engine)
    s = game.new_state(seed=0)
    assert s.describe(KKMove(0, 3)) == "pantry +3 -> trap 3"
    assert s.describe(KKMove(12, 5)) == "trap 12 +5 -> space 17"
    assert s.describe(KKMove(38, 5)) == "space 38 +5 -> hole"
    assert s.describe(KKMove(40, 1)) == "space 40 +1 -> hole"
    assert s.describe(game.num_move_actions + 5) == "roll clover" and s.describe(KKRoll(2, 3)) == "roll 3"
    dup = mousehole.load("kasimir", engine=engine, die=[1, 1, 6, CLOVER], players=2)
    t = dup.new_state(seed=0)
    assert [t.describe(dup.num_move_actions + i) for i in range(4)] == [
        "roll 1 #0",
        "roll 1 #1",
        "roll 6",
        "roll clover",
    ]
    assert dup.parse_move("roll 1") == KKRoll(0, 1)  # a repeated face without index: the first
    assert dup.parse_move("roll 1 #1") == KKRoll(1, 1)


@pytest.mark.parametrize(
    "text",
    [
        "12+5",
        "12 + 5",
        "pantry+3",
        "space 12 +5",
        "trap 12 +5 -> space 17",
        "12 +5 -> 17",
        "space 38 +5 -> hole",
        "pantry +3 -> trap 3",
        "pantry +3 -> space 3",
    ],
)
def test_parse_move_accepts_both_notations(text: str, engine: str) -> None:
    game = mousehole.load("kasimir", engine=engine)
    move = game.parse_move(text)
    assert isinstance(move, KKMove)
    assert game.describe_move(move) in (
        "trap 12 +5 -> space 17",
        "pantry +3 -> trap 3",
        "space 38 +5 -> hole",
    )


@pytest.mark.parametrize(
    "text, words",
    [
        ("", "not a Kater Kasimir move"),
        ("mouse 12", "not a Kater Kasimir move"),
        ("12-5", "not a Kater Kasimir move"),
        ("roll", "not a Kater Kasimir move"),
        ("roll 7", "KK-3: 'roll 7': the die"),
        ("roll 3 #4", "KK-3: 'roll 3 #4': face #4"),
        ("roll 3 #9", "KK-3"),
        ("12+6", "KK-5"),
        ("12+0", "KK-5"),
        ("41+1", "KK-1"),
        ("hole+1", "KK-1"),
        ("trap 13 +2", "KK-1: 'trap 13 \\+2': space 13 is not a trap"),
        ("space 0 +2", "KK-1"),
        (
            "space 12 +5 -> space 18",
            "KK-7: 'space 12 \\+5 -> space 18': 5 spaces from the trap 12 lead to the space 17",
        ),
        ("space 38 +2 -> hole", "KK-7"),
        ("space 38 +5 -> space 41", "KK-1"),
    ],
)
def test_parse_move_refuses_bad_text(text: str, words: str, engine: str) -> None:
    game = mousehole.load("kasimir", engine=engine)
    with pytest.raises(ValueError, match=words):
        game.parse_move(text)
    with pytest.raises(ValueError, match="12\\+5"):
        game.parse_move(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("params", CONFIGS)
def test_a_written_out_game_reads_back(params: Dict[str, Any], engine: str) -> None:
    """A whole game written with ``describe`` (rolls included, with explicit chance) is read
    back by ``parse_action`` on a fresh state to the same final state."""
    game = mousehole.load("kasimir", engine=engine, **params)
    s = game.new_state(seed=11)
    rng = Rng(2)
    written: List[str] = []
    while not s.is_terminal():
        legal = [int(a) for a in s.legal_actions()]
        texts = [s.describe(a) for a in legal]
        assert len(set(texts)) == len(texts), texts
        for a, t in zip(legal, texts):
            assert s.parse_action(t) == a
            assert s.parse_action(str(game.action_to_move(a))) == a
        a = legal[rng.below(len(legal))]
        written.append(s.describe(a))
        s.apply_action(a)
    replay = game.new_state(seed=11)
    for t in written:
        replay.apply_action(replay.parse_action(t))
    assert replay.to_dict() == s.to_dict()
    assert any("->" in t for t in written)
    assert any(t.startswith("roll") for t in written) == bool(params.get("explicit_chance"))


def test_parse_action_refuses_what_is_not_legal_now(engine: str) -> None:
    game = mousehole.load("kasimir", engine=engine, explicit_chance=True)
    s = game.new_state(seed=3)
    before = s.to_dict()
    with pytest.raises(mousehole.IllegalMoveError, match="KK-5: seat 0 must roll first"):
        s.parse_action("pantry +1 -> space 1")
    s.apply_action(s.parse_action("roll 2"))
    with pytest.raises(mousehole.IllegalMoveError, match="KK-5: the die already shows 2"):
        s.parse_action("roll 4")
    with pytest.raises(mousehole.IllegalMoveError, match="KK-5: seat 0 rolled 2 and must move exactly 2"):
        s.parse_action("pantry +1")
    with pytest.raises(mousehole.IllegalMoveError, match="KK-6: there is no mouse on space 5"):
        s.parse_action("space 5 +2 -> space 7")
    assert s.parse_action("pantry +2 -> space 2") == game.move_to_action(KKMove(0, 2))
    assert s.to_dict()["history"] == before["history"] + [game.num_move_actions + 1]


def test_module_parse_move_reads_every_str_and_refuses_non_text(engine: str) -> None:
    """The module's ``parse_move`` (the notation's one home, as in every game) reads
    ``str(move)`` of every action back (moves and die rolls), as the game's ``parse_move``
    does, and refuses what is not text or not a move."""
    from mousehole.kasimir import parse_move

    game = mousehole.load("kasimir", players=3, engine=engine, explicit_chance=True)
    for a in range(game.num_actions):
        move = game.action_to_move(a)
        assert parse_move(str(move)) == move == game.parse_move(str(move))
    assert isinstance(parse_move(" roll clover #5"), KKRoll) and isinstance(parse_move("pantry+2"), KKMove)
    with pytest.raises(TypeError, match="from a str, not int"):
        parse_move(12)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not a Kater Kasimir roll"):
        parse_move("roll 3")
    with pytest.raises(ValueError, match="not a Kater Kasimir move"):
        parse_move("12-5")


def test_move_to_action_refuses_a_bool_or_a_float_for_a_number() -> None:
    """KK-1/KK-3/KK-5: a move's start, distance and a roll's face index are ints; a bool read
    as 1 and a float gave a float action before issue 40's one integer check."""
    g = mousehole.load("kasimir", engine="python")
    assert type(g.move_to_action(KKMove(1, 2))) is int
    for move, rule in (
        (KKMove(True, 2), "KK-1"),
        (KKMove(1.0, 2), "KK-1"),
        (KKMove(1, True), "KK-5"),
        (KKMove(1, 2.0), "KK-5"),
    ):
        with pytest.raises(mousehole.IllegalMoveError, match=rule):
            g.move_to_action(move)
    face = g.faces[1]
    assert g.move_to_action(KKRoll(1, face)) == g.num_move_actions + 1
    for index in (True, 1.0):
        with pytest.raises(mousehole.IllegalMoveError, match="KK-3"):
            g.move_to_action(KKRoll(index, face))
