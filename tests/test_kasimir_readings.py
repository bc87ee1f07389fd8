"""Kater Kasimir: the readings of the rule texts (``Kasimir.READINGS``), on both engines.

* ``tie_break`` (KK-13): ``first_home`` (German text), ``first_finished`` and
  ``fewest_turns`` (the French "le plus rapide (à nombre de tours égaux)").
* ``elimination`` (KK-11, KK-13): ``skip_turns`` or ``out_of_game``.
* ``all_eliminated`` (KK-11, KK-13): ``as_elimination`` or ``last_out_wins`` (when every seat
  is eliminated, the seat eliminated last wins).

Each test builds a position where the readings differ (through ``state_from_dict``, with and
without explicit chance) and asserts the legal actions, the end, the winners, the returns and
the extra state keys literally; the C-level interface (returns, rollout, determinization) and
``simulate`` are checked against the reference under every reading.
"""

from __future__ import annotations

import random
from typing import Any, Dict, List, Optional

import numpy as np
import pytest

import mousehole
from mousehole import TERMINAL, ParameterError, StateError
from mousehole.kasimir import KKMove

TIE_BREAKS = ("first_home", "first_finished", "fewest_turns")
ELIMINATIONS = ("skip_turns", "out_of_game")
ALL_ELIMINATED = ("as_elimination", "last_out_wins")


def load(engine: str, **kw: Any) -> Any:
    return mousehole.load("kasimir", engine=engine, **kw)


def build(
    game: Any,
    track: Dict[int, List[int]],
    pantry: List[int],
    home: List[int],
    seat: int,
    roll: int,
    moves: int,
    first_home: List[int],
    last_home: Optional[List[int]] = None,
    rnd: int = 1,
    home_round: Optional[List[int]] = None,
    out_at: Optional[List[int]] = None,
) -> Any:
    """A state from a position. ``moves`` moves were played (each ``pantry + 1``, a move of the
    right form); ``first_home`` / ``last_home`` name moves by their number (0 = the first
    move, -1 = none) and are turned into indices of ``history`` (with explicit chance a die
    face comes before every move, and the seat to move has been shown ``roll``). The keys of
    the game's ``tie_break`` reading are added: ``last_home``, or ``round`` and
    ``home_round``; under ``all_eliminated="last_out_wins"``, ``out_at`` (move numbers like
    ``first_home``, none by default)."""
    ec = game.explicit_chance
    history = [game.num_move_actions, 0] * moves + [game.num_move_actions + roll] if ec else [0] * moves

    def index(k: int) -> int:
        return -1 if k < 0 else (2 * k + 1 if ec else k)

    d = game.new_state(0).to_dict()
    d.update(
        pantry=pantry,
        track=[list(track.get(s, [])) for s in range(1, game.track_length + 1)],
        home=home,
        first_home=[index(k) for k in first_home],
        seat=seat,
        roll=roll,
        rng=5,
        history=history,
        truncated=False,
    )
    tb = game.params["tie_break"]
    if tb == "first_finished":
        d["last_home"] = [index(k) for k in (last_home if last_home is not None else first_home)]
    elif tb == "fewest_turns":
        d["round"] = rnd
        d["home_round"] = home_round if home_round is not None else [1 if h else 0 for h in home]
    if game.params["all_eliminated"] == "last_out_wins":
        d["out_at"] = [index(k) for k in (out_at if out_at is not None else [-1] * game.num_players)]
    return game.state_from_dict(d)


@pytest.fixture(params=[False, True], ids=["rolls", "explicit_chance"])
def explicit(request: Any) -> bool:
    """Both chance modes: every reading works with ``explicit_chance=True`` too."""
    return bool(request.param)


# ---- the declarations --------------------------------------------------------------------


def test_readings_are_declared_with_their_defaults(engine: str) -> None:
    g = load(engine)
    assert [(r.param, r.values) for r in type(g).READINGS] == [
        ("tie_break", ("first_home", "first_finished", "fewest_turns")),
        ("elimination", ("out_of_game", "skip_turns")),
        ("all_eliminated", ("as_elimination", "last_out_wins")),
    ]
    assert g.params["tie_break"] == "first_home" and g.params["elimination"] == "out_of_game"  # since issue 41
    assert g.params["all_eliminated"] == "as_elimination"
    assert [r.rules for r in type(g).READINGS] == [("KK-13",), ("KK-11", "KK-13"), ("KK-11", "KK-13")]
    # default dictionaries carry none of the readings' extra keys
    assert list(g.new_state(1).to_dict())[3:8] == ["pantry", "track", "home", "first_home", "seat"]


@pytest.mark.parametrize(
    "param, bad",
    [
        ("tie_break", "fastest"),
        ("tie_break", "FIRST_HOME"),
        ("tie_break", 1),
        ("tie_break", None),
        ("elimination", "out"),
        ("elimination", True),
        ("elimination", ["skip_turns"]),
        ("all_eliminated", "last_out"),
        ("all_eliminated", "LAST_OUT_WINS"),
        ("all_eliminated", 0),
    ],
)
def test_unknown_reading_values_are_refused(engine: str, param: str, bad: Any) -> None:
    with pytest.raises(ParameterError, match=param) as e:
        load(engine, **{param: bad})
    assert "KK-13" in str(e.value)


# ---- KK-13: the tie-break ------------------------------------------------------------------


def tie_position(engine: str, tie_break: str, explicit: bool) -> Any:
    """2 players, 4 mice each, 13 moves played, in round 7. Seat 0: 2 mice home (its first
    with move 5, its second with move 12, in round 7), 2 trapped (spaces 3, 6). Seat 1: 1
    mouse home (move 1, round 1), 2 trapped (9, 12), 1 on space 40; it is to move and rolled
    1. Its move takes that mouse home: 2 against 2 and the game ends (KK-12)."""
    g = load(engine, players=2, tie_break=tie_break, explicit_chance=explicit)
    return build(
        g,
        {3: [0], 6: [0], 9: [1], 12: [1], 40: [1]},
        [0, 0],
        [2, 1],
        seat=1,
        roll=0,
        moves=13,
        first_home=[5, 1],
        last_home=[12, 1],
        rnd=7,
        home_round=[7, 1],
    )


@pytest.mark.parametrize(
    "tie_break, winners, returns, f_seen_by_0",
    [
        # German: seat 1 had a mouse home first (move 1 before move 5)
        ("first_home", [1], [-1.0, 1.0], [0.5, 1.0]),
        # French, who finished first: seat 0's last mouse came home with move 12, seat 1's with move 13
        ("first_finished", [0], [1.0, -1.0], [1.0, 0.5]),
        # French, in the fewest turns: both brought their last mouse home in round 7: shared
        ("fewest_turns", [0, 1], [0.0, 0.0], [1.0, 1.0]),
    ],
)
def test_kk13_tie_break_readings_decide_the_same_game_differently(
    engine: str, explicit: bool, tie_break: str, winners: List[int], returns: List[float], f_seen_by_0: List[float]
) -> None:
    """KK-13: one final move, three readings, three results."""
    s = tie_position(engine, tie_break, explicit)
    assert s.legal_actions().tolist() == [40 * 5 + 0]  # KK-6: the mouse on space 40, 1 step
    assert s.winners() == []
    s.apply(KKMove(40, 1))
    assert s.is_terminal() and s.current_player == TERMINAL
    assert s.scores() == [2, 2]
    assert s.winners() == winners
    assert s.returns() == returns
    assert s.observation(0)[-2:].tolist() == f_seen_by_0  # section F: the reading's order
    d = s.to_dict()
    last = 27 if explicit else 13  # the index of the final move in history
    if tie_break == "first_finished":
        assert d["last_home"] == [25 if explicit else 12, last]
    if tie_break == "fewest_turns":
        assert d["round"] == 7 and d["home_round"] == [7, 7]
    # the end is the same position under every reading; only the result differs
    assert d["home"] == [2, 1 + 1] and d["seat"] == TERMINAL


def test_kk13_state_keys_follow_the_reading(engine: str) -> None:
    """KK-13: each reading's dictionary has exactly the keys it needs, after ``first_home``,
    and refuses the others'."""
    keys = {tb: list(load(engine, tie_break=tb).new_state(3).to_dict()) for tb in TIE_BREAKS}
    base = ["game", "params", "view", "pantry", "track", "home", "first_home"]
    tail = ["seat", "roll", "rng", "history", "truncated"]
    assert keys["first_home"] == base + tail
    assert keys["first_finished"] == base + ["last_home"] + tail
    assert keys["fewest_turns"] == base + ["round", "home_round"] + tail
    d = load(engine, tie_break="fewest_turns").new_state(3).to_dict()
    assert d["round"] == 1 and d["home_round"] == [0, 0, 0, 0]
    default = load(engine)
    with pytest.raises(StateError, match="unknown key"):
        default.state_from_dict({**default.new_state(3).to_dict(), "last_home": [-1] * 4})
    ff = load(engine, tie_break="first_finished")
    d = ff.new_state(3).to_dict()
    del d["last_home"]
    with pytest.raises(StateError, match="missing the key"):
        ff.state_from_dict(d)


@pytest.mark.parametrize(
    "tie_break, change, words",
    [
        ("first_finished", lambda d: d.update(last_home=[-1, 1]), "last_home[0] = -1 disagrees with home[0] = 2"),
        ("first_finished", lambda d: d.update(last_home=[5, 1]), "do not fit home[0] = 2"),
        ("first_finished", lambda d: d.update(last_home=[12, 5]), "do not fit home[1] = 1"),
        ("first_finished", lambda d: d.update(last_home=[1, 1]), "do not fit"),
        ("first_finished", lambda d: d.update(last_home=[13, 1]), "outside -1..12"),
        ("first_finished", lambda d: d.update(last_home=[12.0, 1]), "must hold ints"),
        ("fewest_turns", lambda d: d.update(round=0), "round must be an int from 1"),
        ("fewest_turns", lambda d: d.update(round=6), "round must be an int from 1"),  # 13 moves need 7 rounds
        ("fewest_turns", lambda d: d.update(round=15), "round must be an int from 1"),
        ("fewest_turns", lambda d: d.update(round=True), "round must be an int"),
        ("fewest_turns", lambda d: d.update(home_round=[8, 1]), "outside 0..7"),
        ("fewest_turns", lambda d: d.update(home_round=[7, 0]), "home_round[1] = 0 disagrees with home[1] = 1"),
    ],
)
def test_kk13_malformed_tie_records_are_refused(engine: str, tie_break: str, change: Any, words: str) -> None:
    s = tie_position(engine, tie_break, False)
    d = s.to_dict()
    change(d)
    with pytest.raises(StateError, match="KK-13") as e:
        s.game.state_from_dict(d)
    assert words in str(e.value)


def test_kk13_two_seats_cannot_share_the_move_of_a_mouse_home(engine: str) -> None:
    g = load(engine, players=2, tie_break="first_finished")
    with pytest.raises(StateError, match="same action"):  # seat 1's first mouse is seat 0's last one
        build(
            g,
            {3: [0], 6: [0], 9: [1], 12: [1], 40: [1]},
            [0, 0],
            [2, 1],
            seat=1,
            roll=0,
            moves=13,
            first_home=[5, 12],
            last_home=[12, 12],
        )


def test_kk13_fewest_turns_counts_skipped_turns(engine: str, explicit: bool) -> None:
    """KK-10, KK-13: a round starts whenever the turn passes seat 0, also when seat 0 has no
    free mouse and is skipped; a mouse home is stamped with the round it came home in.

    3 players in round 4 (9 moves). Seat 0: 4 mice trapped (eliminated, KK-11). Seat 1: a
    mouse on space 1 and 3 trapped. Seat 2: a mouse on 40, 3 trapped, to move. The die has
    the one face 1 (KK-3, a parameter), so every roll is known."""
    g = load(engine, players=3, tie_break="fewest_turns", explicit_chance=explicit, die=[1])
    s = build(
        g,
        {3: [0], 6: [0], 9: [0], 12: [0], 15: [1], 18: [1], 21: [1], 24: [2], 27: [2], 30: [2], 1: [1], 40: [2]},
        [0, 0, 0],
        [0, 0, 0],
        seat=2,
        roll=0,
        moves=9,
        first_home=[-1, -1, -1],
        rnd=4,
    )
    s.apply(KKMove(40, 1))  # seat 2's mouse home, in round 4
    if explicit:
        s.apply_action(g.num_move_actions + 0)  # seat 1 rolls a 1
    d = s.to_dict()
    assert d["home_round"] == [0, 0, 4] and d["home"] == [0, 0, 1]
    assert d["seat"] == 1 and d["round"] == 5  # seat 0 skipped (eliminated): its turn in round 5 counted
    assert s.legal_actions().tolist() == [1]  # KKMove(1, 1): D = 1
    s.apply(KKMove(1, 1))  # space 2: plain
    if explicit:
        s.apply_action(g.num_move_actions + 0)
    d = s.to_dict()
    assert d["seat"] == 1 and d["round"] == 6  # seat 2 (all home or trapped) and seat 0 skipped


# ---- KK-11: elimination --------------------------------------------------------------------


def all_trapped_position(
    engine: str, elimination: str, explicit: bool, tie_break: str = "first_home", all_eliminated: str = "as_elimination"
) -> Any:
    """2 players. Seat 0: 4 mice trapped (6, 9, 12, 15), its last one by move 20. Seat 1: 3
    trapped (18, 21, 24) and one on space 2, to move with a 1: into the empty trap 3 (KK-10: it
    must)."""
    g = load(
        engine,
        players=2,
        elimination=elimination,
        explicit_chance=explicit,
        tie_break=tie_break,
        all_eliminated=all_eliminated,
    )
    return build(
        g,
        {6: [0], 9: [0], 12: [0], 15: [0], 18: [1], 21: [1], 24: [1], 2: [1]},
        [0, 0],
        [0, 0],
        seat=1,
        roll=0,
        moves=30,
        first_home=[-1, -1],
        rnd=16,
        out_at=[20, -1],
    )


@pytest.mark.parametrize("tie_break", TIE_BREAKS)
@pytest.mark.parametrize(
    "elimination, winners, returns",
    [
        ("skip_turns", [0, 1], [0.0, 0.0]),  # both have 0 mice home: a shared result
        ("out_of_game", [], [0.0, 0.0]),  # both eliminated: nobody wins (all alike: 0 each, a zero sum)
    ],
)
def test_kk11_everybody_eliminated(
    engine: str, explicit: bool, tie_break: str, elimination: str, winners: List[int], returns: List[float]
) -> None:
    s = all_trapped_position(engine, elimination, explicit, tie_break)
    assert s.legal_actions().tolist() == [2 * 5 + 0]
    s.apply(KKMove(2, 1))
    assert s.is_terminal() and not s.truncated
    assert s.to_dict()["track"][2] == [1]  # KK-9: caught on trap 3
    assert s.scores() == [0, 0]
    assert s.winners() == winners
    assert s.returns() == returns


@pytest.mark.parametrize(
    "elimination, winners, returns",
    [
        ("skip_turns", [0, 1], [0.0, 0.0]),
        ("out_of_game", [1], [-1.0, 1.0]),  # only seat 1 still has a mouse on the way
    ],
)
@pytest.mark.parametrize("all_eliminated", ALL_ELIMINATED)
def test_kk11_truncated_game_with_an_eliminated_seat(
    engine: str, explicit: bool, elimination: str, winners: List[int], returns: List[float], all_eliminated: str
) -> None:
    """``max_turns`` ends the game with nobody home: seat 0 is eliminated, seat 1 is not (so
    ``all_eliminated`` has nothing to decide)."""
    g = load(
        engine, players=2, elimination=elimination, explicit_chance=explicit, max_turns=5, all_eliminated=all_eliminated
    )
    s = build(
        g,
        {6: [0], 9: [0], 12: [0], 15: [0], 18: [1], 21: [1], 24: [1], 1: [1]},
        [0, 0],
        [0, 0],
        seat=1,
        roll=0,
        moves=4,
        first_home=[-1, -1],
        out_at=[2, -1],
    )
    s.apply(KKMove(1, 1))
    assert s.is_terminal() and s.truncated
    assert s.winners() == winners and s.returns() == returns


def test_kk11_elimination_does_not_touch_a_game_with_mice_home(engine: str) -> None:
    """With a mouse home somewhere, an eliminated seat has lost under both readings."""
    for elimination in ELIMINATIONS:
        g = load(engine, players=2, elimination=elimination)
        s = build(
            g,
            {6: [0], 9: [0], 12: [0], 15: [0], 18: [1], 21: [1], 40: [1]},
            [0, 0],
            [0, 1],
            seat=1,
            roll=0,
            moves=10,
            first_home=[-1, 4],
        )
        s.apply(KKMove(40, 1))
        assert s.winners() == [1] and s.returns() == [-1.0, 1.0]


# ---- KK-11, KK-13: when every seat is eliminated ------------------------------------------------


@pytest.mark.parametrize("elimination", ELIMINATIONS)
@pytest.mark.parametrize(
    "all_eliminated, winners, returns",
    [
        ("as_elimination", None, None),  # as elimination says (test_kk11_everybody_eliminated)
        ("last_out_wins", [1], [-1.0, 1.0]),  # seat 1's last mouse was caught last (move 30, seat 0's by move 20)
    ],
)
def test_kk11_all_eliminated_two_players(
    engine: str,
    explicit: bool,
    elimination: str,
    all_eliminated: str,
    winners: Optional[List[int]],
    returns: Optional[List[float]],
) -> None:
    s = all_trapped_position(engine, elimination, explicit, all_eliminated=all_eliminated)
    s.apply(KKMove(2, 1))
    assert s.is_terminal() and s.scores() == [0, 0]
    if winners is None:  # the result of elimination alone
        winners = [0, 1] if elimination == "skip_turns" else []
        returns = [0.0, 0.0]
        assert "out_at" not in s.to_dict()
    else:
        assert s.to_dict()["out_at"] == ([41, 61] if explicit else [20, 30])
    assert s.winners() == winners
    assert s.returns() == returns


def three_out_position(engine: str, elimination: str, all_eliminated: str, explicit: bool) -> Any:
    """3 players, 40 moves played, nobody home. Seat 0: 4 mice caught (3, 6, 9, 12), its last
    by move 12; seat 2: 4 caught (15, 18, 21, 24), its last by move 25; seat 1: 3 caught (27, 30,
    33) and one on space 35, to move with a 1 into the empty trap 36 (KK-10: it must)."""
    g = load(engine, players=3, elimination=elimination, all_eliminated=all_eliminated, explicit_chance=explicit)
    track = {t: [0] for t in (3, 6, 9, 12)}
    track.update({t: [2] for t in (15, 18, 21, 24)})
    track.update({t: [1] for t in (27, 30, 33)})
    track[35] = [1]
    return build(
        g, track, [0, 0, 0], [0, 0, 0], seat=1, roll=0, moves=40, first_home=[-1, -1, -1], rnd=14, out_at=[12, -1, 25]
    )


@pytest.mark.parametrize(
    "elimination, all_eliminated, winners, returns",
    [
        ("skip_turns", "as_elimination", [0, 1, 2], [0.0, 0.0, 0.0]),  # three seats tied at 0 mice home: they share
        ("out_of_game", "as_elimination", [], [-1.0, -1.0, -1.0]),  # all out: nobody wins, every seat has lost
        # seat 1 out last (move 40), seat 2 (move 25) and seat 0 (move 12) before it
        ("skip_turns", "last_out_wins", [1], [-1.0, 1.0, -1.0]),
        ("out_of_game", "last_out_wins", [1], [-1.0, 1.0, -1.0]),
    ],
)
def test_kk11_all_eliminated_three_players(
    engine: str, explicit: bool, elimination: str, all_eliminated: str, winners: List[int], returns: List[float]
) -> None:
    s = three_out_position(engine, elimination, all_eliminated, explicit)
    assert s.legal_actions().tolist() == [35 * 5 + 0]
    assert s.winners() == [] and s.returns() == [0.0, 0.0, 0.0]
    s.apply(KKMove(35, 1))
    assert s.is_terminal() and not s.truncated and s.to_dict()["track"][35] == [1]  # KK-9: caught on 36
    assert s.winners() == winners
    assert s.returns() == returns
    if all_eliminated == "last_out_wins":
        assert s.to_dict()["out_at"] == ([25, 81, 51] if explicit else [12, 40, 25])


def test_kk11_out_at_is_recorded_when_a_seat_goes_out_during_the_game(engine: str, explicit: bool) -> None:
    """Seat 0's last mouse (space 2, a 1 to roll) falls into trap 3 while seat 1 still has mice
    in the pantry: ``out_at[0]`` is that move, the game goes on with seat 1, and seat 0's result
    is settled (it can no longer be the last one out)."""
    for all_eliminated in ALL_ELIMINATED:
        g = load(engine, players=2, elimination="skip_turns", all_eliminated=all_eliminated, explicit_chance=explicit)
        s = build(g, {6: [0], 9: [0], 12: [0], 2: [0]}, [0, 4], [0, 0], seat=0, roll=0, moves=7, first_home=[-1, -1])
        s.apply(KKMove(2, 1))
        assert not s.is_terminal() and s.to_dict()["seat"] == 1
        d = s.to_dict()
        if all_eliminated == "last_out_wins":
            assert d["out_at"] == ([15, -1] if explicit else [7, -1])
            assert g.settled(s, 0) is not None and g.settled(s, 0)[0] is False
        else:
            assert "out_at" not in d
            assert g.settled(s, 0) is None  # skip_turns: it may still share a result of nobody home


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d["out_at"].__setitem__(1, 3), r"KK-11: out_at\[1\] = 3 disagrees with the track"),
        (lambda d: d["out_at"].__setitem__(0, -1), r"KK-11: out_at\[0\] = -1 disagrees with the track"),
        (lambda d: d["out_at"].__setitem__(0, 99), "out_at"),
        (lambda d: d["out_at"].__setitem__(0, "20"), "out_at"),
        (lambda d: d.pop("out_at"), "out_at"),
    ],
)
def test_kk11_out_at_is_checked(engine: str, change: Any, message: str) -> None:
    s = all_trapped_position(engine, "out_of_game", False, all_eliminated="last_out_wins")
    d = s.to_dict()
    assert d["out_at"] == [20, -1]
    change(d)
    with pytest.raises(StateError, match=message):
        s.game.state_from_dict(d)


def test_kk11_out_at_must_point_at_a_move_of_its_own(engine: str) -> None:
    """With explicit chance ``out_at`` must name a move, not a die face; two seats cannot go out
    with one move."""
    s = three_out_position(engine, "out_of_game", "last_out_wins", True)
    g, d = s.game, s.to_dict()
    d["out_at"][0] = 24  # history[24] is a die face
    with pytest.raises(StateError, match=r"out_at\[0\] points at history\[24\], a die face"):
        g.state_from_dict(d)
    d["out_at"][0] = 51
    with pytest.raises(StateError, match="one move cannot catch the last mice of two seats"):
        g.state_from_dict(d)


# ---- every engine path plays the reading -----------------------------------------------------


READING_PARAMS = [{"tie_break": tb, "elimination": el} for tb in TIE_BREAKS for el in ELIMINATIONS] + [
    {"tie_break": tb, "elimination": el, "all_eliminated": "last_out_wins"}
    for tb in ("first_home", "fewest_turns")
    for el in ELIMINATIONS
]
READING_IDS = ["-".join(p.values()) for p in READING_PARAMS]


@pytest.mark.compiled
@pytest.mark.parametrize("params", READING_PARAMS, ids=READING_IDS)
def test_engines_agree_under_every_reading(params: Dict[str, Any], explicit: bool) -> None:
    """Both engines step by step (dicts, legal actions, observations, results) over seeded
    random games of 2 and 4 players, with and without explicit chance; ``simulate`` gives the
    same arrays on both engines."""
    results = set()
    for n in (2, 4):
        kw = dict(params, players=n, explicit_chance=explicit)
        gc, gp = load("compiled", **kw), load("python", **kw)
        for seed in range(6):
            sc, sp = gc.new_state(seed), gp.new_state(seed)
            rng = random.Random(seed)
            while True:
                dc = sc.to_dict()
                assert dc == sp.to_dict()
                assert gc.state_from_dict(dc).to_dict() == dc
                for p in range(n):
                    assert np.array_equal(sc.observation(p), sp.observation(p))
                if sc.is_terminal():
                    break
                legal = sc.legal_actions()
                assert legal.tolist() == sp.legal_actions().tolist()
                a = int(legal[rng.randrange(len(legal))])
                sc.apply_action(a)
                sp.apply_action(a)
            assert sc.winners() == sp.winners() and sc.returns() == sp.returns()
            results.add(tuple(sc.winners()))
        rc, rp = mousehole.simulate(gc, 30, seed=9), mousehole.simulate(gp, 30, seed=9)
        for k in ("scores", "winners", "lengths", "truncated"):
            assert np.array_equal(getattr(rc, k), getattr(rp, k)), k
    assert len(results) > 1


@pytest.mark.compiled
@pytest.mark.parametrize("params", READING_PARAMS, ids=READING_IDS)
def test_c_interface_returns_rollout_and_determinize_follow_the_reading(params: Dict[str, Any]) -> None:
    """The C-level interface (bots, ``VectorGame``) on the hand-made ends above and on random
    games: ``returns`` equals ``StateAPI.returns``, a rollout ends as the Python loop does, and
    the C determinization is, byte for byte, the reference's of the view."""
    from mousehole._cgame import CGame
    from mousehole._rng import Rng, derive

    for explicit in (False, True):
        ends = [
            tie_position("compiled", params["tie_break"], explicit),
            all_trapped_position(
                "compiled",
                params["elimination"],
                explicit,
                params["tie_break"],
                params.get("all_eliminated", "as_elimination"),
            ),
            three_out_position(
                "compiled", params["elimination"], params.get("all_eliminated", "as_elimination"), explicit
            ),
        ]
        for s in ends:
            s.apply(s.legal_moves()[0])
            assert CGame(s).returns() == s.returns()
        game = load("compiled", players=2, explicit_chance=explicit, **params)
        ref = load("python", players=2, explicit_chance=explicit, **params)
        seen = set()
        for seed in range(8):
            s = game.new_state(seed)
            c = CGame(s.clone())
            c.rollout(derive(seed, 3))  # simulate's policy, from the start
            policy = Rng(derive(seed, 3))
            while not s.is_terminal():
                p = len(s.history) % 2
                view = s.to_dict(for_player=p)
                cc = CGame(s.clone())
                cc.determinize(p, seed)
                assert cc.same_struct(CGame(game.determinize_view(view, seed)))
                assert s.determinize(p, seed).to_dict() == ref.determinize_view(view, seed).to_dict()
                legal = s.legal_actions()
                s.apply_action(int(legal[policy.below(len(legal))]))
            assert c.returns() == s.returns() == CGame(s).returns()
            seen.add(tuple(s.returns()))
        assert len(seen) > 1


def test_the_readings_reach_simulate_and_the_winners_differ() -> None:
    """The readings change results in random play: over the same seeded games, tie-breaks pick
    other winners and ``out_of_game`` leaves games without any (KK-11, KK-13)."""

    def winners(n: int, **kw: Any) -> Any:
        return mousehole.simulate(mousehole.load("kasimir", players=n, **kw), 400, seed=1).winners

    base4 = winners(4)
    assert (winners(4, tie_break="fewest_turns") != base4).any()
    base2 = winners(2, elimination="skip_turns")
    out2 = winners(2)  # elimination="out_of_game", the default since issue 41
    shared = base2.sum(axis=1) == 2  # everybody eliminated, a shared result under skip_turns
    assert shared.any() and (out2[shared] == 0).all() and (out2[~shared] == base2[~shared]).all()
    # everybody eliminated: one winner, the last one out
    last2 = winners(2, elimination="skip_turns", all_eliminated="last_out_wins")
    assert (last2[shared].sum(axis=1) == 1).all() and (last2[~shared] == base2[~shared]).all()
