"""Kater Kasimir: one test (at least) per rule id KK-1 .. KK-14 (docs/games/kasimir.md), on both engines."""

from __future__ import annotations

import copy
import pickle
from typing import Any, Dict, List, Optional

import numpy as np
import pytest

import mousehole
from mousehole import CHANCE, TERMINAL, IllegalMoveError, ParameterError
from mousehole._rng import Rng
from mousehole.kasimir import CLOVER, KKMove, KKRoll

CLOVER_FACE = 5  # index of the clover in the DEFAULT die [1, 2, 3, 4, 5, "clover"]


def face(value: int) -> int:
    """Index of a numbered face of the DEFAULT die."""
    return value - 1


def make(
    game: Any,
    track: Dict[int, List[int]],
    pantry: List[int],
    home: Optional[List[int]] = None,
    seat: int = 0,
    roll: Optional[int] = 0,
    first_home: Optional[List[int]] = None,
    rng: int = 1,
) -> Any:
    """A state built from a position: ``track`` maps space -> owners bottom to top."""
    n = game.num_players
    home = home or [0] * n
    fh = first_home if first_home is not None else [-1] * n
    hist_len = max([x + 1 for x in fh] + [0])
    # history is a log of the right form: moves only (pantry + 1), or with explicit chance a
    # face before each move and, when the roll is shown, the face that shows it
    history = [0] * hist_len
    if game.explicit_chance:
        history = [game.num_move_actions, 0] * hist_len + ([game.num_move_actions + roll] if roll is not None else [])
    d = game.new_state(0).to_dict()
    d.update(
        pantry=list(pantry),
        track=[list(track.get(s, [])) for s in range(1, game.track_length + 1)],
        home=list(home),
        first_home=list(fh),
        seat=seat,
        roll=roll,
        rng=rng,
        history=history,
        truncated=False,
    )
    return game.state_from_dict(d)


def load(engine: str, **kw: Any) -> Any:
    return mousehole.load("kasimir", engine=engine, **kw)


def stacks(state: Any) -> Dict[int, List[int]]:
    return {i + 1: st for i, st in enumerate(state.to_dict()["track"]) if st}


def act(state: Any, start: int, dist: int) -> None:
    state.apply(KKMove(start, dist))


# ---- components ------------------------------------------------------------------------


def test_kk1_default_track_and_traps(engine: str) -> None:
    """KK-1: 40 spaces, traps on 3, 6, .., 39; 0 is the pantry and 41 the hole."""
    g = load(engine)
    assert g.track_length == 40 and g.home_pos == 41
    assert g.traps == [3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39]
    s = g.new_state(0)
    assert len(s.to_dict()["track"]) == 40
    # a mouse ending on space 3 is caught (it is a trap); on space 4 it is not
    s = make(g, {}, [4, 4, 4, 4], roll=face(3))
    act(s, 0, 3)
    assert stacks(s) == {3: [0]}
    s2 = make(g, {3: [0]}, [3, 4, 4, 4], seat=0, roll=face(4))
    assert KKMove(0, 4) in s2.legal_moves()
    # KK-1: the trapped mouse on 3 is not a start
    assert all(m.start != 3 for m in s2.legal_moves())


def test_kk1_track_is_a_parameter(engine: str) -> None:
    """KK-1: the track length and the trap spaces can be replaced by the caller."""
    g = load(engine, players=2, track_length=10, traps=[2, 7])
    assert g.params["track_length"] == 10 and g.params["traps"] == [2, 7]
    assert g.num_actions == 11 * 5 + 6
    s = make(g, {}, [4, 4], roll=face(2))
    act(s, 0, 2)  # space 2 is a trap here
    assert stacks(s) == {2: [0]} and s.to_dict()["pantry"] == [3, 4]
    s = make(g, {}, [4, 4], roll=face(3))
    act(s, 0, 3)  # space 3 is plain here
    st = s.to_dict()
    assert st["track"][2] == [0]
    assert s.current_player == 1


@pytest.mark.parametrize(
    "params, words",
    [
        ({"track_length": 0}, "track_length"),
        ({"track_length": -3}, "track_length"),
        ({"track_length": "40"}, "track_length"),
        ({"traps": [0, 3]}, "KK-1"),
        ({"traps": [41]}, "KK-1"),
        ({"track_length": 10, "traps": [3, 12]}, "KK-1"),
        ({"traps": [3, 3]}, "KK-1"),
        ({"traps": "3,6"}, "traps"),
        ({"die": []}, "KK-3"),
        ({"die": [0, 1]}, "KK-3"),
        ({"die": [1, "joker"]}, "KK-3"),
        ({"clover": 0}, "clover"),
        ({"mice": 0}, "KK-2"),
        ({"explicit_chance": 1}, "explicit_chance"),
        ({"cats": 1}, "unknown"),
    ],
)
def test_kk1_invalid_parameters_are_refused(engine: str, params: Dict[str, Any], words: str) -> None:
    """KK-1, KK-2, KK-3: invalid tracks, dice and mice counts raise ParameterError."""
    with pytest.raises(ParameterError, match=words):
        load(engine, **params)


def test_kk2_four_mice_per_player_are_conserved(engine: str) -> None:
    """KK-2: 4 mice per player, none created or lost, over random games."""
    g = load(engine, players=3)
    for seed in range(20):
        s = g.new_state(seed)
        r = Rng(seed)
        while not s.is_terminal():
            d = s.to_dict()
            for p in range(3):
                on_track = sum(st.count(p) for st in d["track"])
                assert d["pantry"][p] + on_track + d["home"][p] == 4
            legal = s.legal_actions()
            s.apply_action(int(legal[r.below(len(legal))]))
    g6 = load(engine, players=2, mice=6)
    assert g6.new_state(0).to_dict()["pantry"] == [6, 6]


def test_kk3_die_faces_and_probabilities(engine: str) -> None:
    """KK-3: faces 1..5 and a clover, each with probability 1/6; rolls come from the state
    generator, one ``below(6)`` per turn."""
    g = load(engine, explicit_chance=True)
    s = g.new_state(0)
    assert s.current_player == CHANCE
    outs = s.chance_outcomes()
    assert [a for a, _ in outs] == list(range(g.num_move_actions, g.num_move_actions + 6))
    assert all(p == pytest.approx(1 / 6) for _, p in outs)
    assert sum(p for _, p in outs) == pytest.approx(1.0)
    assert [s.describe(a) for a, _ in outs] == ["roll 1", "roll 2", "roll 3", "roll 4", "roll 5", "roll clover"]
    assert str(g.action_to_move(g.num_move_actions + 5)) == "roll clover #5"
    # implicit: the first roll is Rng(seed).below(6)
    for seed in range(30):
        d = load(engine).new_state(seed).to_dict()
        assert d["roll"] == Rng(seed).below(6)
    # a custom die: [2, 2, 6] - duplicate faces are separate chance actions
    g2 = load(engine, die=[2, 2, 6])
    assert g2.max_distance == 6 and g2.num_faces == 3
    s2 = g2.new_state(4)
    roll = s2.to_dict()["roll"]
    step = [2, 2, 6][roll]
    assert [m.distance for m in s2.legal_moves()] == [step]


# ---- setup ------------------------------------------------------------------------------


def test_kk4_setup_and_clockwise_order(engine: str) -> None:
    """KK-4: all mice stacked in the own pantry, seat 0 starts, play goes clockwise."""
    g = load(engine)
    s = g.new_state(11)
    d = s.to_dict()
    assert d["pantry"] == [4, 4, 4, 4] and all(st == [] for st in d["track"]) and d["home"] == [0] * 4
    assert s.current_player == 0
    seats = []
    for _ in range(8):
        seats.append(s.current_player)
        s.apply_action(int(s.legal_actions()[0]))
    assert seats == [0, 1, 2, 3, 0, 1, 2, 3]


# ---- a turn -----------------------------------------------------------------------------


def test_kk5_numbered_roll_moves_exactly_that_far(engine: str) -> None:
    """KK-5: with a numbered roll the mouse moves exactly that many spaces; one mouse only."""
    g = load(engine)
    s = make(g, {10: [0], 20: [1, 0]}, [2, 3, 4, 4], roll=face(4))
    assert [str(m) for m in s.legal_moves()] == ["0+4", "10+4", "20+4"]
    with pytest.raises(IllegalMoveError, match="KK-5"):
        act(s, 10, 3)
    act(s, 10, 4)
    assert stacks(s) == {14: [0], 20: [1, 0]}


def test_kk5_clover_chooses_one_to_five(engine: str) -> None:
    """KK-5: the clover lets the player choose any distance from 1 to 5."""
    g = load(engine)
    s = make(g, {7: [0]}, [0, 4, 4, 4], home=[3, 0, 0, 0], first_home=[0, -1, -1, -1], roll=CLOVER_FACE)
    assert [str(m) for m in s.legal_moves()] == ["7+1", "7+2", "7+3", "7+4", "7+5"]
    act(s, 7, 5)
    assert stacks(s) == {12: [0]}
    g3 = load(engine, clover=3)
    s3 = make(g3, {7: [0]}, [0, 4, 4, 4], home=[3, 0, 0, 0], first_home=[0, -1, -1, -1], roll=CLOVER_FACE)
    assert [m.distance for m in s3.legal_moves()] == [1, 2, 3]
    with pytest.raises(IllegalMoveError, match="KK-5"):
        act(s3, 7, 4)


def test_kk5_roll_is_shown_before_the_decision(engine: str) -> None:
    """KK-5: the roll is in the state (and its text) before the seat moves."""
    g = load(engine)
    s = g.new_state(2)
    d = s.to_dict()
    assert d["roll"] is not None and s.current_player == 0
    assert f"rolled {g.faces[d['roll']]}" in str(s)
    obs = s.observation(1)
    off = 4 * 42 + 40 * 16 * 4 + 80
    assert obs[off + d["roll"]] == 1.0


def test_kk6_only_the_top_mouse_moves_alone(engine: str) -> None:
    """KK-6: in a tower only the top mouse is free; it moves alone, those under it stay."""
    g = load(engine)
    # space 8: seat 1 (bottom), seat 0, seat 1 (top)
    s = make(g, {8: [1, 0, 1]}, [3, 2, 4, 4], seat=0, roll=face(2))
    assert [m.start for m in s.legal_moves()] == [0]  # seat 0's mouse on 8 is blocked
    with pytest.raises(IllegalMoveError, match="KK-6"):
        act(s, 8, 2)
    s = make(g, {8: [1, 0, 1]}, [3, 2, 4, 4], seat=1, roll=face(2))
    assert [m.start for m in s.legal_moves()] == [0, 8]
    act(s, 8, 2)
    assert stacks(s) == {8: [1, 0], 10: [1]}
    # the pantry stack is one start: one move per roll whatever its size
    s = make(g, {}, [4, 4, 4, 4], roll=face(1))
    assert [str(m) for m in s.legal_moves()] == ["0+1"]
    act(s, 0, 1)
    assert s.to_dict()["pantry"] == [3, 4, 4, 4]


def test_kk7_traps_passed_safely_and_overshoot_into_the_hole(engine: str) -> None:
    """KK-7: every space counts; passing over traps is safe; 41 or beyond is the hole."""
    g = load(engine)
    s = make(g, {2: [0], 38: [0]}, [2, 4, 4, 4], roll=face(5))
    act(s, 2, 5)  # over the empty traps 3 and 6, to 7
    assert stacks(s)[7] == [0] and 3 not in stacks(s) and 6 not in stacks(s)
    s = make(g, {2: [0], 38: [0]}, [2, 4, 4, 4], roll=face(5))
    act(s, 38, 5)  # 38 + 5 = 43: in the hole, two steps lost
    assert s.to_dict()["home"] == [1, 0, 0, 0] and 38 not in stacks(s)
    s = make(g, {40: [0]}, [3, 4, 4, 4], roll=face(1))
    act(s, 40, 1)  # exactly 41
    assert s.scores() == [1, 0, 0, 0]


def test_kk8_landing_on_a_tower(engine: str) -> None:
    """KK-8: a mouse ending on an occupied space goes on top and blocks those under it."""
    g = load(engine, players=2)
    s = make(g, {10: [1, 1], 7: [0]}, [3, 2], seat=0, roll=face(3))
    act(s, 7, 3)
    assert stacks(s) == {10: [1, 1, 0]}
    assert s.current_player == 1
    # seat 1 has both of its track mice blocked: only the pantry
    assert {m.start for m in s.legal_moves()} == {0}
    # towers grow without limit
    g4 = load(engine)
    s = make(g4, {5: [1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2]}, [4, 0, 0, 1], seat=0, roll=face(5))
    act(s, 0, 5)
    assert stacks(s)[5] == [1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 0]


def test_kk9_trap_catches_exactly_one_mouse(engine: str) -> None:
    """KK-9: an empty trap catches the mouse; a second mouse lands on top, safe, and moves
    on later; the trapped one never moves again."""
    g = load(engine, players=2)
    s = make(g, {}, [4, 4], seat=0, roll=face(3))
    act(s, 0, 3)  # caught on 3
    assert stacks(s) == {3: [0]}
    assert s.current_player == 1
    s = make(g, {3: [0]}, [3, 4], seat=1, roll=face(3))
    act(s, 0, 3)  # seat 1 lands on the full trap: safe, on top
    assert stacks(s) == {3: [0, 1]}
    s = make(g, {3: [0, 1]}, [3, 3], seat=1, roll=face(2))
    assert 3 in [m.start for m in s.legal_moves()]
    act(s, 3, 2)  # the mouse on the full trap moves on
    assert stacks(s) == {3: [0], 5: [1]}
    # the trapped mouse is never free again, even alone on top
    s = make(g, {3: [0]}, [3, 4], seat=0, roll=face(1))
    assert [m.start for m in s.legal_moves()] == [0]
    with pytest.raises(IllegalMoveError, match="KK-9"):
        act(s, 3, 1)
    # the text diagram shows the trapped mouse in brackets at the bottom of the tower
    s = make(g, {3: [0, 1, 0]}, [2, 3], seat=0, roll=face(1))
    assert "3T [A] B A" in str(s)


def test_kk10_forced_move_into_a_trap(engine: str) -> None:
    """KK-10: with one free mouse the player must move it even into a trap."""
    g = load(engine, players=2)
    # seat 0: pantry empty, one mouse blocked on 10, one home, one free on 4; roll 2 -> 6 (trap)
    s = make(g, {10: [0, 1], 4: [0]}, [0, 3], home=[2, 0], first_home=[0, -1], seat=0, roll=face(2))
    assert [str(m) for m in s.legal_moves()] == ["4+2"]
    act(s, 4, 2)
    assert stacks(s)[6] == [0]  # caught
    assert s.current_player == 1


def test_kk10_blocked_player_skips(engine: str) -> None:
    """KK-10: a player without a free mouse skips the turn; play goes on with the next seat."""
    g = load(engine, players=3)
    # seat 1's only mice: under seat 0's and seat 2's, pantry empty
    s = make(g, {12: [1, 1, 0], 20: [1, 2], 25: [1, 0]}, [2, 0, 3], seat=0, roll=face(1))
    act(s, 0, 1)
    assert s.current_player == 2  # seat 1 skipped
    assert s.to_dict()["seat"] == 2
    # the same in explicit-chance mode: the chance node is seat 2's
    ge = load(engine, players=3, explicit_chance=True)
    s = make(ge, {12: [1, 1, 0], 20: [1, 2], 25: [1, 0]}, [2, 0, 3], seat=0, roll=face(1))
    act(s, 0, 1)
    assert s.current_player == CHANCE and s.to_dict()["seat"] == 2
    # a blocked seat can never be the one to move
    d = s.to_dict()
    d["seat"] = 1
    with pytest.raises(mousehole.StateError, match="KK-10"):
        ge.state_from_dict(d)


def test_kk11_eliminated_player_is_skipped(engine: str) -> None:
    """KK-11: a player whose mice are all trapped is out; their turns are skipped."""
    g = load(engine, players=3, mice=2)
    # seat 1: one mouse trapped on 3, the other free on 4; roll 2 sends it into trap 6
    s = make(g, {3: [1], 4: [1], 10: [0]}, [0, 0, 2], home=[1, 0, 0], first_home=[0, -1, -1], seat=1, roll=face(2))
    act(s, 4, 2)
    d = s.to_dict()
    assert d["track"][5] == [1]  # caught on 6: seat 1 is out
    seen = []
    r = Rng(3)
    while not s.is_terminal():
        seen.append(s.current_player)
        legal = s.legal_actions()
        s.apply_action(int(legal[r.below(len(legal))]))
    assert 1 not in seen and seen
    assert s.scores()[1] == 0 and 1 not in s.winners()


def test_kk12_game_ends_when_no_mouse_is_on_the_way(engine: str) -> None:
    """KK-12: the game ends exactly when every mouse is home or trapped."""
    g = load(engine, players=2, mice=2)
    s = make(g, {3: [1], 6: [0], 40: [1]}, [0, 0], home=[1, 0], first_home=[0, -1], seat=1, roll=face(1))
    assert not s.is_terminal()
    act(s, 40, 1)
    assert s.is_terminal() and s.current_player == TERMINAL
    assert s.legal_actions().size == 0
    with pytest.raises(IllegalMoveError, match="KK-12"):
        s.apply_action(0)
    # one mouse still on the way (blocked under a trapped... no: on top of a full trap): not over
    s = make(g, {3: [1, 0], 6: [0], 40: [1]}, [0, 0], seat=1, roll=face(1))
    act(s, 40, 1)
    assert not s.is_terminal() and s.current_player == 0
    # random games always end, without truncation, within the move bound
    for seed in range(10):
        st = mousehole.simulate(load(engine), 1, seed)
        assert not st.truncated[0] and st.lengths[0] <= 16 * 41


def test_kk13_most_mice_home_wins(engine: str) -> None:
    """KK-13: the seat with most mice in the hole wins."""
    g = load(engine, players=2, mice=2)
    s = make(g, {3: [0], 40: [0]}, [0, 0], home=[0, 2], first_home=[-1, 0], seat=0, roll=face(1))
    act(s, 40, 1)
    assert s.is_terminal() and s.scores() == [1, 2] and s.winners() == [1]
    assert s.returns() == [-1.0, 1.0]


def test_kk13_tie_break_first_mouse_home(engine: str) -> None:
    """KK-13 tie-break: among tied seats the one whose first mouse got home first wins."""
    g = load(engine, players=3, mice=2)
    # seat 0 got its first mouse home at history index 3; seat 1 gets one home now, later
    s = make(
        g,
        {3: [0], 6: [1], 9: [2], 12: [2], 38: [1]},
        [0, 0, 0],
        home=[1, 0, 0],
        first_home=[3, -1, -1],
        seat=1,
        roll=face(5),
    )
    act(s, 38, 5)  # seat 1's first mouse home now, later than seat 0's
    assert s.is_terminal() and s.scores() == [1, 1, 0]
    assert s.winners() == [0]
    s = make(
        g,
        {3: [0], 6: [1], 9: [2], 12: [2], 38: [0]},
        [0, 0, 0],
        home=[0, 1, 0],
        first_home=[-1, 3, -1],
        seat=0,
        roll=face(5),
    )
    act(s, 38, 5)
    assert s.scores() == [1, 1, 0] and s.winners() == [1]


def test_kk13_tie_without_any_mouse_home_is_shared(engine: str) -> None:
    """KK-13: tied seats without any mouse home share the result under
    ``elimination="skip_turns"``; by default (``out_of_game``, KK-11) they are all out of the
    game and nobody wins."""
    for elimination, winners in (("skip_turns", [0, 1]), ("out_of_game", [])):
        g = load(engine, players=2, mice=2, elimination=elimination)
        s = make(g, {3: [0], 6: [1], 9: [0], 11: [1]}, [0, 0], seat=1, roll=face(1))
        act(s, 11, 1)  # into trap 12: every mouse is trapped
        assert s.is_terminal() and s.scores() == [0, 0]
        assert s.winners() == winners
        assert s.returns() == [0.0, 0.0]


def test_kk14_everything_public_only_rng_hidden(engine: str) -> None:
    """KK-14: views drop only the generator; determinize only re-seeds it."""
    g = load(engine)
    s = g.new_state(5)
    r = Rng(9)
    for _ in range(40):
        legal = s.legal_actions()
        s.apply_action(int(legal[r.below(len(legal))]))
    full = s.to_dict()
    for p in range(4):
        v = s.to_dict(for_player=p)
        assert v["rng"] is None and v["view"] == p
        for k in full:
            if k not in ("rng", "view"):
                assert v[k] == full[k]
        det = s.determinize(p, 123)
        dd = det.to_dict()
        assert {k: x for k, x in dd.items() if k != "rng"} == {k: x for k, x in full.items() if k != "rng"}
        assert dd["rng"] != full["rng"]
        assert np.array_equal(det.observation(p), s.observation(p))
    # observations differ between seats only by rotation: every seat sees all the mice
    o0 = s.observation(0)
    assert o0[: 4 * 42].sum() == 16


# ---- moves, encoding, robustness ----------------------------------------------------------


def test_action_encoding_round_trip(engine: str) -> None:
    """Action = start * D + distance - 1; chance faces at P + i (docs/games/kasimir.md)."""
    g = load(engine)
    assert g.max_distance == 5 and g.num_move_actions == 205 and g.num_actions == 211
    for a in range(g.num_actions):
        m = g.action_to_move(a)
        assert g.move_to_action(m) == a
        assert eval(repr(m), {"KKMove": KKMove, "KKRoll": KKRoll}) == m
    assert g.move_to_action(KKMove(12, 3)) == 62
    assert g.action_to_move(g.num_move_actions + 5) == KKRoll(5, CLOVER)
    assert KKMove.from_str(str(KKMove(33, 4))) == KKMove(33, 4)
    with pytest.raises(IllegalMoveError, match="KK-1"):
        g.move_to_action(KKMove(41, 1))
    with pytest.raises(ValueError):
        KKMove.from_str("hole")


def test_illegal_input_leaves_state_unchanged(engine: str) -> None:
    g = load(engine)
    s = make(g, {8: [1, 0]}, [3, 3, 4, 4], roll=face(2))
    before = s.to_dict()
    for bad in [-1, g.num_actions, 8 * 5 + 2, 5 * 5 + 1, 0 * 5 + 2, g.num_move_actions]:
        with pytest.raises(IllegalMoveError):
            s.apply_action(bad)
        assert s.to_dict() == before
    with pytest.raises(TypeError):
        s.apply_action("3")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        s.apply_action(1.0)  # type: ignore[arg-type]
    assert s.to_dict() == before
    with pytest.raises(IllegalMoveError, match="KK-6: seat 0 has no mouse"):
        make(g, {8: [0]}, [0, 4, 4, 4], home=[3, 0, 0, 0], first_home=[0, -1, -1, -1], roll=0).apply_action(0)


def test_clone_pickle_copy_round_trips(engine: str) -> None:
    g = load(engine, explicit_chance=True)
    s = g.new_state(8)
    r = Rng(1)
    for _ in range(50):
        c = s.clone()
        assert c == s and pickle.loads(pickle.dumps(s)) == s and copy.deepcopy(s) == s
        assert g.state_from_dict(s.to_dict()) == s
        legal = s.legal_actions()
        s.apply_action(int(legal[r.below(len(legal))]))
        assert c != s


@pytest.mark.parametrize(
    "change, rule",
    [
        (lambda d: d.update(pantry=[4, 4, 4, 5]), "pantry"),
        (lambda d: d["track"][4].append(1), "KK-2"),
        (lambda d: d.update(home=[1, 0, 0, 0], pantry=[3, 4, 4, 4]), "KK-13"),
        (lambda d: d.update(seat=TERMINAL, roll=None), "KK-12"),
        (lambda d: d.update(roll=None), "KK-5"),
        (lambda d: d.update(roll=6), "roll"),
        (lambda d: d.update(roll=True), "roll"),
        (lambda d: d.update(seat=7), "KK-12"),
        (lambda d: d["track"].pop(), "track"),
        (lambda d: d["track"][0].append(4), "track"),
        (lambda d: d.update(rng=-1), "rng"),
    ],
)
def test_malformed_state_dicts_are_refused(engine: str, change: Any, rule: str) -> None:
    """Dicts that break KK-2 (mice conserved), KK-5, KK-12, KK-13 or the layout are refused."""
    g = load(engine)
    s = g.new_state(1)
    d = s.to_dict()
    change(d)
    with pytest.raises(mousehole.StateError, match=rule):
        g.state_from_dict(d)
    assert s.to_dict()["pantry"] == [4, 4, 4, 4]


@pytest.mark.parametrize(
    "change, rule",
    [
        (lambda d: d.update(seat=True), "seat must be an int"),
        (lambda d: d.update(seat=0.0), "seat must be an int"),
        (lambda d: d.update(roll=1.0), "roll must be None or a face index"),
        (lambda d: d.update(truncated=0), "truncated must be a bool"),
        (lambda d: d["history"].__setitem__(0, True), "history must hold ints"),
        (lambda d: d["first_home"].__setitem__(1, False), "first_home must hold ints"),
        (lambda d: d["pantry"].__setitem__(0, True), "pantry must hold ints"),
        (lambda d: d["history"].append(205), "KK-5: history\\[.*\\] = 205 is a die face"),
        (lambda d: d.update(history=[]), "first_home holds"),
        (lambda d: d.update(seat=TERMINAL, roll=None, truncated=True), "truncated must be true exactly"),
    ],
)
def test_malformed_state_dicts_name_the_key_or_rule(engine: str, change: Any, rule: str) -> None:
    """Wrong types (a bool or a float is not an int) and a history of the wrong form (KK-5:
    without explicit chance it holds moves only) are refused with the key or the rule."""
    g = load(engine, players=2, traps=[10, 20])  # few traps: mice get home
    s = g.new_state(4)
    while not s.is_terminal() and max(s.to_dict()["first_home"]) < 0:
        s.apply_action(int(s.legal_actions()[-1]))  # the mouse furthest ahead, furthest
    assert not s.is_terminal() and max(s.to_dict()["first_home"]) >= 0
    d = s.to_dict()
    change(d)
    with pytest.raises(mousehole.StateError, match=rule):
        g.state_from_dict(d)


def test_history_distances_follow_the_die(engine: str) -> None:
    """KK-3, KK-5: every move of the history goes a distance some face of the die allows."""
    g = load(engine, players=2, die=[2, 4])
    s = g.new_state(1)
    s.apply_action(int(s.legal_actions()[0]))
    d = s.to_dict()
    assert d["history"][0] % g.max_distance + 1 in (2, 4)
    d["history"][0] = 0  # pantry + 1: no face shows 1
    with pytest.raises(mousehole.StateError, match="KK-3: history\\[0\\] moves 1 spaces"):
        g.state_from_dict(d)


def test_max_turns_bounds_the_history(engine: str) -> None:
    g = load(engine, players=2, max_turns=3)
    s = g.new_state(2)
    for _ in range(2):
        s.apply_action(int(s.legal_actions()[0]))
    d = s.to_dict()
    d["history"] += [d["history"][-1]] * 2
    with pytest.raises(mousehole.StateError, match="more than max_turns=3"):
        g.state_from_dict(d)


def test_explicit_chance_history_and_roll_agree(engine: str) -> None:
    """KK-5 with explicit chance: every move follows the face of its turn, at the distance
    that face allows; the roll shown is the face history ends with (None before the roll);
    a game ends with a move (KK-12)."""
    g = load(engine, players=2, explicit_chance=True)
    s = g.new_state(6)
    s.apply_action(g.num_move_actions + 2)  # roll 3
    s.apply_action(int(s.legal_actions()[0]))  # seat 0 moves 3
    s.apply_action(g.num_move_actions + 5)  # seat 1 rolls the clover
    d = s.to_dict()
    assert d["roll"] == 5 and d["history"][-1] == g.num_move_actions + 5
    g.state_from_dict(d)
    bad = []
    e = copy.deepcopy(d)
    e["roll"] = 4  # not the face history ends with
    bad.append((e, "KK-5: with explicit chance the roll is the die face that history ends with"))
    e = copy.deepcopy(d)
    e["roll"] = None
    bad.append((e, "KK-5: with explicit chance the roll"))
    e = copy.deepcopy(d)
    e["history"] = [d["history"][1], d["history"][0], d["history"][2]]  # the move before its roll
    bad.append((e, "KK-5: history\\[0\\] = .*every turn is a die face"))
    e = copy.deepcopy(d)
    e["history"][0] = g.num_move_actions + 0  # the die showed 1, the move went 3
    bad.append((e, "KK-5: history\\[1\\] moves 3 spaces after the die showed 1"))
    for e, rule in bad:
        with pytest.raises(mousehole.StateError, match=rule):
            g.state_from_dict(e)
    # a finished game: the last action is a move
    f = g.new_state(6)
    rng = Rng(6)
    while not f.is_terminal():
        legal = f.legal_actions()
        f.apply_action(int(legal[rng.below(len(legal))]))
    e = f.to_dict()
    assert e["history"][-1] < g.num_move_actions
    g.state_from_dict(e)
    e["history"].append(g.num_move_actions)
    with pytest.raises(mousehole.StateError, match="KK-12: a game ends with a move"):
        g.state_from_dict(e)
