"""Kater Kasimir: one test (at least) per rule id KK-1 .. KK-14 (docs/games/kasimir.md), on both engines.

After the rules, in sections of their own (``# -- notation``, ``# -- observation``, ``# -- the C
game interface``): the cases only this game has of its notation, its observation planes and its
core's ``mh_game_t``, hand-built positions with their expected strings, planes and values
(what every game has is checked by the generic suites over the registry)."""

from __future__ import annotations

import copy
import pickle
from typing import Any, Dict, Iterator, List, Optional

import numpy as np
import pytest

import mousehole
from gamecases import cgame, check_observations_against_reference, random_states, same_bits, state_clones, write_out
from mousehole import CHANCE, TERMINAL, IllegalMoveError, ParameterError
from mousehole._rng import Rng, derive
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


# -- notation ----------------------------------------------------------------------------------
#
# Kater Kasimir moves a person can read and type.
#
# ``str(move)`` is exact (``12+5``, ``pantry+3``, ``roll clover #5``) and ``game.parse_move``
# reads it back for every action; ``state.describe`` names where the mouse starts, how far it
# goes and where it lands (KK-5, KK-7: ``space 38 +5 -> hole``; KK-1: traps by name), or the
# face the die shows (KK-3), and ``state.parse_action`` reads that back, for a whole game.


NOTATION_CONFIGS: List[Dict[str, Any]] = [
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


@pytest.mark.parametrize("params", NOTATION_CONFIGS)
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


@pytest.mark.parametrize("params", NOTATION_CONFIGS)
def test_a_written_out_game_reads_back(params: Dict[str, Any], engine: str) -> None:
    """A whole game written with ``describe`` (rolls included, with explicit chance) is read
    back by ``parse_action`` on a fresh state to the same final state."""
    game = mousehole.load("kasimir", engine=engine, **params)

    def str_reads_back(s: Any, a: int, text: str) -> None:
        assert s.parse_action(str(game.action_to_move(a))) == a

    _, written = write_out(game, 11, Rng(2), str_reads_back)
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


# -- observation -------------------------------------------------------------------------------
#
# Kater Kasimir observations and action masks (docs/games/kasimir.md, "Observation").
#
# The compiled engine writes ``observation(p)`` and ``legal_action_mask()`` straight from its C
# struct; the reference engine computes them from the state dictionary
# (``Kasimir._observation``). Checked here: the compiled values equal the reference's bit for
# bit at every step of seeded random games (differential), the documented layout on a position
# set up by hand (KK-1, KK-5, KK-8, KK-9, KK-13), on both engines (a bad ``out`` or seat:
# every game's, ``tests/test_observation.py``).


GAMES = [
    pytest.param(dict(players=2), id="2p"),
    pytest.param(dict(players=3), id="3p"),
    pytest.param(dict(players=4), id="4p"),
    pytest.param(dict(players=4, explicit_chance=True), id="4p-explicit"),
    pytest.param(dict(players=3, explicit_chance=True, max_turns=40), id="3p-explicit-truncated"),
    pytest.param(
        dict(players=2, track_length=12, traps=[2, 5, 11], mice=6, die=[3, "clover", 3], clover=4), id="2p-custom"
    ),
]


#: the readings whose section F ranks by another key (KK-13; test_kasimir_readings.py checks it by hand)
READING_GAMES = [
    pytest.param(dict(players=4, tie_break="fewest_turns"), id="4p-fewest_turns"),
    pytest.param(dict(players=3, tie_break="first_finished", explicit_chance=True), id="3p-first_finished-explicit"),
]


@pytest.mark.differential
@pytest.mark.parametrize("params", GAMES + READING_GAMES)
def test_observation_and_mask_equal_the_reference(engine: str, params: Dict[str, Any]) -> None:
    """At every step, for every seat, ``observation(p)`` (with and without ``out=``) is the
    reference observation of the same state (its ``to_dict()`` loaded into the reference
    engine), bit for bit; ``legal_action_mask()`` is True exactly at ``legal_actions()``."""
    game = mousehole.load("kasimir", engine=engine, **params)
    ref = mousehole.load("kasimir", engine="python", **params)
    n = game.num_players
    steps = 0
    for seed in range(3):
        for s in random_states(game, seed):
            check_observations_against_reference(s, ref, f"seed {seed}, step {len(s.history)}")
            steps += 1
    assert steps > 3 * n  # whole games were played


def sections(game: Any, obs: np.ndarray) -> Dict[str, np.ndarray]:
    """The documented sections A .. F of an observation."""
    n, L, H, F = game.num_players, game.track_length, game.stack_levels, game.num_faces
    sizes = [("A", n * (L + 2)), ("B", L * H * n), ("C", 2 * L), ("D", F), ("E", n + 1), ("F", n)]
    out, c = {}, 0
    for name, k in sizes:
        out[name] = obs[c : c + k]
        c += k
    assert c == obs.shape[0] == game.observation_shape[0]
    return out


@pytest.mark.parametrize("params", GAMES)
def test_observation_follows_the_rules(engine: str, params: Dict[str, Any]) -> None:
    """Facts of every observation along random games, from the rules: each seat's mice sum
    to ``mice`` over pantry, track and hole (KK-2); tower levels are filled from the bottom
    up and agree with section A (KK-8); the traps are the parameter's, a trap is full exactly
    when it holds a mouse (KK-1, KK-9); the roll is one-hot except at a chance node or at the
    end (KK-5); the tie-break section holds 1 / (1 + rank) in the order of the first mouse
    home (KK-13); rotating the seats rotates every section."""
    game = mousehole.load("kasimir", engine=engine, **params)
    n, L, H, m = game.num_players, game.track_length, game.stack_levels, game.mice
    for s in random_states(game, 11):
        d = s.to_dict()
        for p in range(n):
            sec = sections(game, s.observation(p))
            A = sec["A"].reshape(n, L + 2)
            B = sec["B"].reshape(L, H, n)
            assert np.array_equal(A.sum(axis=1), np.full(n, m, dtype=np.float32))  # KK-2
            for k in range(n):
                q = (p + k) % n
                assert A[k, 0] == d["pantry"][q] and A[k, L + 1] == d["home"][q]
            heights = B.sum(axis=2)
            assert np.all(B.sum(axis=2) <= 1)  # one mouse per level
            for i in range(L):
                h = len(d["track"][i])
                assert np.all(heights[i, :h] == 1) and np.all(heights[i, h:] == 0)  # KK-8
                assert np.array_equal(B[i].sum(axis=0), A[:, i + 1])
                for lvl, q in enumerate(d["track"][i]):
                    assert B[i, lvl, (q - p) % n] == 1.0
            C = sec["C"]
            assert [t + 1 for t in np.flatnonzero(C[:L])] == game.traps  # KK-1
            assert [t + 1 for t in np.flatnonzero(C[L:])] == [t for t in game.traps if d["track"][t - 1]]  # KK-9
            if d["roll"] is None:  # KK-5: a chance node or the end
                assert not sec["D"].any()
            else:
                assert np.flatnonzero(sec["D"]).tolist() == [d["roll"]] and sec["D"].sum() == 1.0
            E = sec["E"]
            if d["seat"] == TERMINAL:
                assert not E.any()
            else:
                assert np.flatnonzero(E[:n]).tolist() == [(d["seat"] - p) % n]
                assert E[n] == (1.0 if d["roll"] is None else 0.0)
            home_order = sorted((x, q) for q, x in enumerate(d["first_home"]) if x >= 0)  # KK-13
            want_f = np.zeros(n, dtype=np.float32)
            for rank, (_, q) in enumerate(home_order):
                want_f[(q - p) % n] = np.float32(1.0 / (1 + rank))
            assert same_bits(sec["F"], want_f)
            if p:  # seat p's observation is seat 0's with the seats rotated
                A0 = sections(game, s.observation(0))["A"].reshape(n, L + 2)
                assert np.array_equal(np.roll(A0, -p, axis=0), A)


def test_observation_layout_by_hand(engine: str) -> None:
    """A position set up by hand, its observation written out index by index:
    2 players, track 1..6 with a trap on 3 (KK-1), 3 mice each, die [1, 2, 3].
    Space 2: seat 0's mouse; space 3: seat 1's mouse caught (KK-9) under seat 0's (KK-8);
    seat 0 has a mouse home first (KK-13), seat 1 two mice in the pantry; seat 0 to move with
    the face 2 shown (KK-5)."""
    game = mousehole.load("kasimir", engine=engine, players=2, track_length=6, traps=[3], mice=3, die=[1, 2, 3])
    d = game.new_state(0).to_dict()
    d.update(
        pantry=[0, 2],
        home=[1, 0],
        first_home=[2, -1],
        seat=0,
        roll=1,
        rng=9,
        track=[[], [0], [1, 0], [], [], []],
        history=[2, 2, 2],
        truncated=False,
    )
    s = game.state_from_dict(d)
    assert game.observation_shape == (108,)  # 16 + 72 + 12 + 3 + 3 + 2
    for p, ones, values in [
        # A [k][pos] at k * 8 + pos; B [space - 1][level][k] at 16 + ((space - 1) * 6 + level) * 2 + k;
        # C at 88 (traps) and 94 (full traps); D at 100; E at 103 (seat), 105 (chance); F at 106
        (0, [7, 2, 3, 11, 28, 41, 42, 90, 96, 101, 103, 106], {8: 2.0}),
        (1, [15, 10, 3, 11, 29, 40, 43, 90, 96, 101, 104, 107], {0: 2.0}),
    ]:
        want = np.zeros(108, dtype=np.float32)
        want[ones] = 1.0
        for i, v in values.items():
            want[i] = v
        assert same_bits(s.observation(p), want), np.flatnonzero(s.observation(p) != want)


def test_tie_break_section_ranks_seats(engine: str) -> None:
    """KK-13: section F holds 1.0 for the first seat home, 0.5 for the second, 1/3 ...
    (rounded to float32), at the seats' places relative to the observer."""
    game = mousehole.load("kasimir", engine=engine, players=4, track_length=6, traps=[3], mice=1, die=[1, 2, 3])
    d = game.new_state(0).to_dict()
    d.update(
        pantry=[0, 0, 1, 0],
        home=[1, 1, 0, 1],
        first_home=[4, 0, -1, 2],
        seat=2,
        roll=0,
        rng=3,
        track=[[] for _ in range(6)],
        history=[2, 2, 2, 2, 2],
        truncated=False,
    )
    s = game.state_from_dict(d)
    for p in range(4):
        F = sections(game, s.observation(p))["F"]
        want = np.zeros(4, dtype=np.float32)
        for q, v in [(1, 1.0), (3, 0.5), (0, 1.0 / 3.0)]:
            want[(q - p) % 4] = np.float32(v)
        assert same_bits(F, want)
        assert F[(2 - p) % 4] == 0.0


def test_chance_node_observation_and_mask(engine: str) -> None:
    """KK-5: at a chance node (explicit chance) the roll section is empty, the chance flag is
    set and the mask holds exactly the die faces ``P .. P + len(die) - 1``."""
    game = mousehole.load("kasimir", engine=engine, players=3, explicit_chance=True)
    s = game.new_state(4)
    assert s.is_chance_node()
    mask = s.legal_action_mask()
    assert np.flatnonzero(mask).tolist() == list(range(game.num_move_actions, game.num_move_actions + game.num_faces))
    for p in range(3):
        sec = sections(game, s.observation(p))
        assert not sec["D"].any() and sec["E"][3] == 1.0 and sec["E"][(0 - p) % 3] == 1.0
    s.apply_action(game.num_move_actions + 5)  # the clover
    assert not s.is_chance_node()
    assert np.flatnonzero(s.legal_action_mask()).tolist() == list(range(0, 5))  # pantry + 1 .. 5
    sec = sections(game, s.observation(1))
    assert np.flatnonzero(sec["D"]).tolist() == [5] and sec["E"][3] == 0.0


def test_terminal_mask_is_empty(engine: str) -> None:
    game = mousehole.load("kasimir", engine=engine, players=2, max_turns=3)
    s = None
    for s in random_states(game, 2):  # noqa: B007  (s: the last state, after the loop)
        pass
    assert s is not None and s.is_terminal()
    buf = np.ones(game.num_actions, dtype=np.bool_)
    assert not s.legal_action_mask().any() and not s.legal_action_mask(out=buf).any()
    sec = sections(game, s.observation(0))
    assert not sec["D"].any() and not sec["E"].any()


# -- the C game interface (mh_game_t) ----------------------------------------------------------
#
# Kater Kasimir through its C-level interface (``mh_game_t``): what the generic conformance
# test (test_cinterface.py) cannot check for this game.
#
# * KK-14: every seat sees the whole position; only the generator that rolls the die (KK-5)
#   is hidden. The C determinization keeps the position and the history and draws a new
#   generator, ``Rng(seed).next64()`` as ``Kasimir._determinize`` does; its struct is, byte for
#   byte, the one the reference's determinization of the view loads into (mouse numbering
#   included), and depends on the view alone.
# * ``rollout`` plays simulate's policy from any state, mid-game and at chance nodes too;
#   ``returns`` follows ``StateAPI.returns`` in truncated games; ``max_legal`` bounds, and can
#   be reached by, the legal actions (KK-6) and the chance outcomes (KK-3).
# * The compiled core's own fast calls (``determinize``, ``is_chance_node``, ``apply_action``
#   with a numpy integer, ``new``/``from_dict`` with the cached constants of several games)
#   answer as the shared API does.
#
# Every test of this section is marked pytest.mark.compiled (it needs the compiled engine).


CONFIGS: List[Dict[str, Any]] = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 4, "explicit_chance": True},
    {
        "players": 3,
        "explicit_chance": True,
        "track_length": 20,
        "traps": [2, 5, 7, 11, 13, 17, 19],
        "die": [1, 2, "clover"],
        "clover": 3,
    },
    # the readings (KK-11, KK-13): their extra struct fields go through every C path too
    {"players": 2, "tie_break": "fewest_turns", "elimination": "out_of_game"},
    {"players": 4, "explicit_chance": True, "tie_break": "first_finished"},
    {"players": 3, "tie_break": "fewest_turns", "explicit_chance": True},
]


IDS = [
    "-".join(
        f"{k}={v}"
        for k, v in c.items()
        if k in ("players", "explicit_chance", "track_length", "tie_break", "elimination")
    )
    for c in CONFIGS
]


def states(game: Any, seed: int, every: int = 3) -> Iterator[Any]:
    """Clones of every ``every``-th state of one seeded random game (the end included)."""
    return state_clones(game, seed, Rng(derive(seed, 7)), every)


def position(d: Dict[str, Any]) -> Dict[str, Any]:
    """A state dict without its generator (what KK-14 shows every seat)."""
    return {k: v for k, v in d.items() if k != "rng"}


@pytest.mark.compiled
@pytest.mark.parametrize("params", CONFIGS, ids=IDS)
def test_kk14_c_determinize_is_the_reference_determinization_struct_for_struct(params: Dict[str, Any]) -> None:
    """The C determinization of the struct equals, byte for byte, the struct the reference's
    ``Kasimir._determinize`` of p's view loads into (mouse ids and unused slots included),
    and the compiled ``state.determinize`` is that state."""
    game = mousehole.load("kasimir", engine="compiled", **params)
    ref = mousehole.load("kasimir", engine="python", **params)
    checked = 0
    for g in range(2):
        for state in states(game, 300 + g, every=4):
            for p in range(game.num_players):
                seed = 1000 * g + 17 * checked + p
                view = state.to_dict(for_player=p)
                expected = game.determinize_view(view, seed)  # the Python path: dict -> from_dict
                c = cgame(state)
                c.determinize(p, seed)
                assert c.same_struct(cgame(expected)), (state.history, p)
                det = state.determinize(p, seed)  # the compiled core's own C path
                assert type(det) is type(state)
                assert cgame(det).same_struct(c)
                assert det.history == expected.history == state.history
                assert det.to_dict() == expected.to_dict() == ref.determinize_view(view, seed).to_dict()
                checked += 1
    assert checked > 20


@pytest.mark.compiled
@pytest.mark.parametrize("params", CONFIGS, ids=IDS)
def test_kk14_c_determinize_depends_on_the_view_only(params: Dict[str, Any]) -> None:
    """Three states with p's view (the played one, its reload from its dict, which numbers the
    mice otherwise, and another seat's determinization of it, with another generator) give
    the same C determinization, byte for byte."""
    game = mousehole.load("kasimir", engine="compiled", **params)
    renumbered = 0
    for state in states(game, 77, every=5):
        reloaded = game.state_from_dict(state.to_dict())
        if not cgame(state).same_struct(cgame(reloaded)):
            renumbered += 1  # the same position, other bytes: the mice left the pantry in another order
        for p in range(game.num_players):
            q = (p + 1) % game.num_players
            other = state.determinize(q, 999)
            assert other.to_dict(for_player=p) == state.to_dict(for_player=p)
            assert other.to_dict()["rng"] != state.to_dict()["rng"]
            outs = []
            for s in (state, reloaded, other):
                c = cgame(s)
                c.determinize(p, 4242)
                outs.append(c)
            assert outs[0].same_struct(outs[1]) and outs[0].same_struct(outs[2]), (state.history, p)
    assert renumbered > 0, "no state whose struct differs from its reload: the check above proves nothing"


@pytest.mark.compiled
@pytest.mark.parametrize("params", CONFIGS, ids=IDS)
def test_kk14_determinize_keeps_the_position_and_redraws_the_rolls(params: Dict[str, Any]) -> None:
    """KK-14: the position, the roll shown and the history stay; the generator is
    ``Rng(seed).next64()``; the state itself is not changed; and with the die rolled by the
    state (KK-5) different seeds give different future rolls."""
    game = mousehole.load("kasimir", engine="compiled", **params)
    for state in states(game, 5, every=7):
        before = state.to_dict()
        for p in range(game.num_players):
            for seed in (0, 1, 2**64 - 1):
                det = state.determinize(p, seed)
                d = det.to_dict()
                assert position(d) == position(before)
                assert d["rng"] == derive(seed, 0)
        assert state.to_dict() == before
    # the rolls after the next move differ between determinizations
    state = game.new_state(11)
    rolls = set()
    for seed in range(24):
        det = state.determinize(0, seed)
        while det.current_player == CHANCE:  # explicit chance: the roll is a chance action
            det.apply_action(int(det.legal_actions()[0]))
        det.apply_action(int(det.legal_actions()[0]))
        if game.explicit_chance:
            rolls.add(det.to_dict()["rng"])  # nothing rolls by itself: only the generator differs
        else:
            rolls.add(det.to_dict()["roll"])
    assert len(rolls) > 1


@pytest.mark.compiled
def test_determinize_arguments_are_checked_as_the_shared_api_checks_them() -> None:
    game = mousehole.load("kasimir", engine="compiled", players=3)
    state = game.new_state(4)
    state.apply_action(int(state.legal_actions()[0]))
    before = state.to_dict()
    base = state.determinize(1, 12).to_dict()
    assert state.determinize(np.int64(1), np.uint64(12)).to_dict() == base
    assert state.determinize(1, 12 + 2**64).to_dict() == base  # seeds are taken modulo 2**64
    assert state.determinize(2, -1).to_dict()["rng"] == derive(2**64 - 1, 0)
    with pytest.raises(ValueError, match="player 3 is out of range"):
        state.determinize(3, 0)
    with pytest.raises(ValueError, match="out of range"):
        state.determinize(-1, 0)
    with pytest.raises(TypeError, match="player must be an int"):
        state.determinize(1.0, 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seed must be an int"):
        state.determinize(1, True)
    with pytest.raises(TypeError, match="seed must be an int"):
        state.determinize(1, 2.5)  # type: ignore[arg-type]
    assert state.to_dict() == before


@pytest.mark.compiled
@pytest.mark.parametrize("params", CONFIGS, ids=IDS)
def test_rollout_from_any_state_plays_the_simulate_policy(params: Dict[str, Any]) -> None:
    """From mid-game states and chance nodes, ``rollout(policy)`` ends in the struct the
    Python loop of ``simulate`` (uniform over ``legal_actions()``, drawn from ``policy``)
    reaches from the same state."""
    game = mousehole.load("kasimir", engine="compiled", **params)
    checked = 0
    for state in states(game, 21, every=9):
        seed = 555 + checked
        c = cgame(state)
        c.rollout(seed)
        s = state.clone()
        policy = Rng(seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply_action(int(legal[policy.below(len(legal))]))
        assert c.current() == TERMINAL
        assert c.same_struct(cgame(s))
        assert c.returns() == s.returns()
        checked += 1
    assert checked > 3


@pytest.mark.compiled
@pytest.mark.parametrize("max_turns", [1, 6, 40, 90])
def test_returns_of_truncated_games(max_turns: int) -> None:
    """``returns`` through the interface equals ``StateAPI.returns()`` when ``max_turns`` ends
    the game (KK-13 on the mice home so far; 0 for all when every seat ties at none)."""
    seen = set()
    for explicit in (False, True):
        game = mousehole.load("kasimir", engine="compiled", players=3, max_turns=max_turns, explicit_chance=explicit)
        for seed in range(12):
            state = game.new_state(seed)
            c = cgame(state)
            c.rollout(derive(seed, 3))
            s = state.clone()
            policy = Rng(derive(seed, 3))
            while not s.is_terminal():
                legal = s.legal_actions()
                s.apply_action(int(legal[policy.below(len(legal))]))
            assert c.returns() == s.returns()
            assert s.truncated or max_turns == 90  # a game of 3 seats may end within 90 moves
            if s.truncated:
                seen.add(tuple(s.returns()))
    if max_turns == 1:
        assert seen == {(0.0, 0.0, 0.0)}  # nobody home: every seat ties
    if max_turns == 90:
        assert any(1.0 in r for r in seen)  # truncated with somebody home: winners and losers


@pytest.mark.compiled
@pytest.mark.parametrize(
    "params, reached",
    [
        ({"players": 2, "mice": 1, "die": ["clover"], "clover": 5}, True),  # one mouse, 5 distances
        (
            {"players": 2, "mice": 1, "die": [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6], "explicit_chance": True},
            True,
        ),  # 12 faces
        (
            {
                "players": 4,
                "mice": 8,
                "die": [1, 2, "clover"],
                "clover": 4,
                "track_length": 30,
                "traps": [10, 20],
                "explicit_chance": True,
            },
            False,
        ),
    ],
)
def test_max_legal_bounds_the_actions_and_outcomes(params: Dict[str, Any], reached: bool) -> None:
    """KK-6: at most ``mice`` free starts (the pantry counts while it holds a mouse) with at
    most ``D`` distances each; KK-3: one chance outcome per face."""
    game = mousehole.load("kasimir", engine="compiled", **params)
    bound = cgame(game.new_state(0)).dims()["max_legal"]
    assert bound == max(game.mice * game.max_distance, game.num_faces)
    most = 0
    for seed in range(6):
        for state in states(game, seed, every=1):
            c = cgame(state)
            most = max(most, len(c.legal()), len(c.chance()))
    assert most <= bound
    if reached:
        assert most == bound


@pytest.mark.compiled
@pytest.mark.parametrize("params", CONFIGS, ids=IDS)
def test_core_fast_calls_answer_as_the_shared_api(params: Dict[str, Any]) -> None:
    """``is_chance_node`` (compiled on the core) is ``current_player == CHANCE``; a numpy
    integer applies as the same int does; a clone keeps its own history."""
    game = mousehole.load("kasimir", engine="compiled", **params)
    chance = 0
    for state in states(game, 8, every=1):
        assert state.is_chance_node() is (state.current_player == CHANCE)
        chance += state.is_chance_node()
        if state.is_terminal():
            continue
        for a in state.legal_actions()[:3]:
            x, y = state.clone(), state.clone()
            x.apply_action(a)  # numpy.int64, as legal_actions() holds it
            y.apply_action(int(a))
            assert cgame(x).same_struct(cgame(y)) and x.history == y.history == state.history + [int(a)]
            for other in (np.int32(a), np.uint16(a)):
                z = state.clone()
                z.apply_action(other)
                assert z.history == x.history
    assert (chance > 0) == bool(game.explicit_chance)


@pytest.mark.compiled
def test_new_and_from_dict_with_several_games_keep_each_games_constants() -> None:
    """States of several games made in turn each get their own game's constants (the core
    caches the last game's), and equal the reference's."""
    params: List[Dict[str, Any]] = [
        {"players": 2},
        {"players": 4, "explicit_chance": True},
        {"players": 3, "track_length": 12, "traps": [4], "mice": 2},
    ]
    games = [mousehole.load("kasimir", engine="compiled", **p) for p in params]
    refs = [mousehole.load("kasimir", engine="python", **p) for p in params]
    for rnd in range(3):
        for g, r in zip(games, refs):
            s = g.new_state(rnd)
            assert cgame(s).dims()["players"] == g.num_players
            assert s.to_dict() == r.new_state(rnd).to_dict()
            c = cgame(s)
            c.reset(rnd)
            assert c.same_struct(cgame(s))
            t = g.state_from_dict(r.new_state(rnd + 1).to_dict())
            assert t.to_dict() == r.new_state(rnd + 1).to_dict()
            assert [int(a) for a in t.legal_actions()] == [int(a) for a in r.new_state(rnd + 1).legal_actions()]
