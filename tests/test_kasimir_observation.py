"""Kater Kasimir observations and action masks (docs/games/kasimir.md, "Observation").

The compiled engine writes ``observation(p)`` and ``legal_action_mask()`` straight from its C
struct; the reference engine computes them from the state dictionary
(``Kasimir._observation``). Checked here: the compiled values equal the reference's bit for
bit at every step of seeded random games (differential), the documented layout on a position
set up by hand (KK-1, KK-5, KK-8, KK-9, KK-13), the ``out=`` arguments and the errors for a
bad ``out`` or a bad seat, on both engines.
"""

from __future__ import annotations

from typing import Any, Dict, List

import numpy as np
import pytest

import mousehole
from gamecases import check_observations_against_reference, random_states, same_bits
from mousehole import TERMINAL

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


def bad_outs(shape: int, dtype: Any) -> List[Any]:
    """(out, error type, words of the message) for every kind of bad ``out``."""
    ro = np.zeros(shape, dtype=dtype)
    ro.flags.writeable = False
    other = np.float64 if dtype == np.bool_ else np.bool_
    return [
        pytest.param([0] * shape, TypeError, "out must be a numpy array, not list", id="list"),
        pytest.param(np.zeros(shape, dtype=other), TypeError, "out must have dtype", id="dtype"),
        pytest.param(np.zeros(shape, dtype=np.int32), TypeError, "out must have dtype", id="int32"),
        pytest.param(
            np.zeros(shape, dtype=np.dtype(dtype).newbyteorder()), TypeError, "out must have dtype", id="byteorder"
        )
        if dtype != np.bool_
        else pytest.param(np.zeros(shape, dtype=np.uint8), TypeError, "out must have dtype", id="uint8"),
        pytest.param(np.zeros(shape + 1, dtype=dtype), ValueError, f"out must have shape ({shape},)", id="long"),
        pytest.param(np.zeros((1, shape), dtype=dtype), ValueError, f"out must have shape ({shape},)", id="2d"),
        pytest.param(np.zeros(2 * shape, dtype=dtype)[::2], ValueError, "writable C-contiguous", id="strided"),
        pytest.param(ro, ValueError, "writable C-contiguous", id="readonly"),
    ]


OBS_SIZE = mousehole.load("kasimir", engine="python").observation_shape[0]  # the 4-player DEFAULT game
NUM_ACTIONS = mousehole.load("kasimir", engine="python").num_actions


def midgame(engine: str) -> Any:
    game = mousehole.load("kasimir", engine=engine)
    for i, s in enumerate(random_states(game, 7)):
        if i == 40:
            return s
    raise AssertionError("the game ended early")  # pragma: no cover


@pytest.mark.parametrize("out,error,words", bad_outs(OBS_SIZE, np.float32))
def test_bad_observation_out_is_refused_untouched(engine: str, out: Any, error: type, words: str) -> None:
    s = midgame(engine)
    before = s.to_dict()
    if isinstance(out, np.ndarray) and out.flags.writeable:
        out[...] = 7
    copy = np.array(out, copy=True)
    with pytest.raises(error, match=words.replace("(", r"\(").replace(")", r"\)")):
        s.observation(1, out=out)
    assert np.array_equal(np.asarray(out), copy)  # nothing written
    assert s.to_dict() == before


@pytest.mark.parametrize("out,error,words", bad_outs(NUM_ACTIONS, np.bool_))
def test_bad_mask_out_is_refused_untouched(engine: str, out: Any, error: type, words: str) -> None:
    s = midgame(engine)
    before = s.to_dict()
    if isinstance(out, np.ndarray) and out.flags.writeable:
        out[...] = True
    copy = np.array(out, copy=True)
    with pytest.raises(error, match=words.replace("(", r"\(").replace(")", r"\)")):
        s.legal_action_mask(out=out)
    assert np.array_equal(np.asarray(out), copy)
    assert s.to_dict() == before


def test_unaligned_out_is_written(engine: str) -> None:
    """An unaligned but otherwise fitting float32 array is a valid ``out`` (as for the
    reference's ``check_out``): it is filled like any other."""
    s = midgame(engine)
    raw = np.zeros(OBS_SIZE * 4 + 1, dtype=np.uint8)
    out = raw[1:].view(np.float32)
    assert not out.flags.aligned and out.flags.c_contiguous and out.flags.writeable
    out[...] = np.nan
    assert s.observation(2, out=out) is out
    assert same_bits(np.ascontiguousarray(out), s.observation(2))


@pytest.mark.parametrize(
    "seat,error,words",
    [
        ("1", TypeError, "player must be an int, not str"),
        (1.0, TypeError, "player must be an int, not float"),
        (None, TypeError, "player must be an int, not NoneType"),
        (4, ValueError, r"player 4 is out of range: this game has seats 0..3"),
        (-1, ValueError, r"player -1 is out of range: this game has seats 0..3"),
        (2**70, ValueError, f"player {2**70} is out of range"),
        (np.int64(9), ValueError, "player 9 is out of range"),
    ],
)
def test_bad_seat_is_refused(engine: str, seat: Any, error: type, words: str) -> None:
    s = midgame(engine)
    out = np.full(OBS_SIZE, 7.0, dtype=np.float32)
    with pytest.raises(error, match=words):
        s.observation(seat)
    with pytest.raises(error, match=words):
        s.observation(seat, out=out)
    assert np.all(out == 7.0)


def test_keywords_and_seat_types(engine: str) -> None:
    """``observation(player=..., out=...)`` by keyword, any integer seat type."""
    s = midgame(engine)
    want = s.observation(3)
    buf = np.empty(OBS_SIZE, dtype=np.float32)
    assert s.observation(player=3, out=buf) is buf and same_bits(buf, want)
    assert same_bits(s.observation(np.int8(3)), want) and same_bits(s.observation(np.uint64(3)), want)
    mask = np.empty(NUM_ACTIONS, dtype=np.bool_)
    assert s.legal_action_mask(out=mask) is mask and np.array_equal(mask, s.legal_action_mask())
