"""M observations and action masks (docs/games/m.md, "Observation").

The compiled engine writes ``observation(p)`` and ``legal_action_mask()`` straight from its C
struct; the reference engine computes them from the state dictionary (``M._observation``).
Checked here: the compiled values equal the reference's bit for bit at every step of seeded
random games and in the rare positions (a row choice, M-12; the last placed cell outside the
window after takes), the documented layout against the rules (M-1, M-2, M-9, M-12, M-13,
M-15, M-22) on both engines, the ``out=`` arguments, and the errors for a bad ``out`` or a bad
seat (the messages of ``_api.check_out`` / ``_api.check_seat``), which leave ``out`` as it was.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Tuple

import numpy as np
import pytest

import mousehole
from gamecases import check_observations_against_reference, random_states, same_bits
from mousehole._api import check_out, check_seat

W = 8

GAMES = [
    pytest.param(dict(players=2), id="2p"),
    pytest.param(dict(players=3), id="3p"),
    pytest.param(dict(players=4), id="4p"),
    pytest.param(dict(players=6), id="6p"),
    pytest.param(dict(players=4, max_turns=30), id="4p-truncated"),
    pytest.param(dict(players=3, hand_size=6, chips=2, cards_in_play=70), id="3p-hand6-chips2"),
    pytest.param(
        dict(
            players=2,
            colours=["red", "blue", "white"],
            symbols=["star", "moon"],
            cards=[[c, v, s] for c in ("red", "blue", "white") for v in (5, 15, 25) for s in ("star", "moon")]
            + [[c, 0, None] for c in ("red", "blue", "white")],
            start_layout=[[0, 0], [0, 1], [1, 1]],
            hand_size=3,
            cards_in_play=21,
        ),
        id="2p-custom-cards",
    ),
]


@pytest.mark.differential
@pytest.mark.parametrize("params", GAMES)
def test_observation_and_mask_equal_the_reference(engine: str, params: Dict[str, Any]) -> None:
    """At every step of seeded random games, for every seat, ``observation(p)`` (with and
    without ``out=``) is the reference observation of the same state (its ``to_dict()``
    loaded into the reference engine), bit for bit; ``legal_action_mask()`` is True exactly
    at ``legal_actions()``."""
    game = mousehole.load("m", engine=engine, **params)
    ref = mousehole.load("m", engine="python", **params)
    steps, ends = 0, 0
    for seed in range(2):
        for s in random_states(game, seed):
            check_observations_against_reference(s, ref, f"seed {seed}, step {len(s.history)}")
            steps += 1
        ends += 1
    assert steps > 10 * game.num_players and ends == 2  # whole games were played


def last_outside_window(d: Dict[str, Any]) -> bool:
    r0, c0 = min(e[0] for e in d["table"]) - 1, min(e[1] for e in d["table"]) - 1
    return d["last"] is not None and not (0 <= d["last"][0] - r0 < W and 0 <= d["last"][1] - c0 < W)


@pytest.mark.differential
@pytest.mark.parametrize("players", [3, 4])
def test_rare_positions_equal_the_reference(players: int) -> None:
    """The positions random games seldom reach, searched for with the compiled engine and
    compared with the reference: a row choice (M-12, the two run planes) and a last placed
    cell that the takes left outside the window (M-13: the last-cell plane stays empty)."""
    game = mousehole.load("m", players=players, engine="compiled")
    ref = mousehole.load("m", players=players, engine="python")
    found = {"choose": 0, "last outside": 0}
    for seed in range(400):
        for s in random_states(game, seed):
            d = s.to_dict()
            kind = "choose" if d["phase"] == "choose" else "last outside" if last_outside_window(d) else None
            if kind is not None and found[kind] < 3:
                found[kind] += 1
                check_observations_against_reference(s, ref, f"{kind}: seed {seed}, step {len(s.history)}")
        if min(found.values()) >= 3:
            break
    assert found == {"choose": 3, "last outside": 3}


# ---- the layout, from the rules --------------------------------------------------------------


def sections(game: Any, obs: np.ndarray) -> Dict[str, np.ndarray]:
    """The documented sections of an observation, each (channels, 8, 8)."""
    n, H, F, nc = game.num_players, game.hand_size, game.card_planes, len(game.colours)
    sizes = [
        ("occ", 1),
        ("attr", F),
        ("srow", 1),
        ("runs", 2),
        ("last", 1),
        ("hand", H * F),
        ("seats", n * (2 + nc)),
        ("pile", 2),
        ("phase", 3),
        ("turn", n),
    ]
    out, c = {}, 0
    for name, k in sizes:
        out[name] = obs[c : c + k]
        c += k
    assert c == obs.shape[0] == game.observation_shape[0] == game.num_channels
    return out


def plane(cells: List[Tuple[int, int]]) -> np.ndarray:
    out = np.zeros((W, W), dtype=np.float32)
    for r, c in cells:
        out[r, c] = 1.0
    return out


def attributes(game: Any, card: int) -> List[int]:
    """The attribute planes of a card: colour, nc + value, nc + nv + symbol (M-1)."""
    nc, nv = len(game.colours), len(game.values)
    out = [game.colour_of[card], nc + game.vindex_of[card]]
    if game.symbol_of[card] >= 0:
        out.append(nc + nv + game.symbol_of[card])
    return out


def check_layout(game: Any, d: Dict[str, Any], p: int, obs: np.ndarray) -> None:
    n, nc, F = game.num_players, len(game.colours), game.card_planes
    assert obs.dtype == np.float32 and obs.shape == tuple(game.observation_shape)
    sec = sections(game, obs)
    r0, c0 = min(e[0] for e in d["table"]) - 1, min(e[1] for e in d["table"]) - 1
    win = {(r - r0, c - c0): card for r, c, card in d["table"]}
    assert all(1 <= r <= 6 and 1 <= c <= 6 for r, c in win)  # M-7: inside the 6 x 6 square
    assert np.array_equal(sec["occ"][0], plane(list(win)))
    want_attr = np.zeros((F, W, W), dtype=np.float32)
    for (r, c), card in win.items():
        want_attr[attributes(game, card), r, c] = 1.0  # M-1: a 0 has no symbol
    assert np.array_equal(sec["attr"], want_attr)
    assert np.array_equal(sec["srow"][0], plane([(r - r0, c - c0) for r, c in d["scoring_row"]]))  # M-13
    if d["phase"] == "choose":  # M-12: both lines through the new card qualify
        lr, lc = d["last"][0] - r0, d["last"][1] - c0
        for k, axis in enumerate((0, 1)):
            run = np.argwhere(sec["runs"][k] == 1.0)
            assert 5 <= len(run) <= 6 and sec["runs"][k].sum() == len(run)
            assert np.all(run[:, axis] == (lr, lc)[axis])  # one row (k = 0) or one column (k = 1)
            assert [lr, lc] in run.tolist() and all(tuple(x) in win for x in run)
            along = sorted(run[:, 1 - axis])
            assert along == list(range(along[0], along[0] + len(along)))  # unbroken
    else:
        assert not sec["runs"].any()
    if d["last"] is None or last_outside_window(d):
        assert not sec["last"].any()
    else:
        assert np.array_equal(sec["last"][0], plane([(d["last"][0] - r0, d["last"][1] - c0)]))
    hand = sec["hand"].reshape(game.hand_size, F, W, W)
    for slot in range(game.hand_size):  # M-22: the own hand, as constant planes
        want = np.zeros((F, W, W), dtype=np.float32)
        if slot < len(d["hands"][p]):
            want[attributes(game, d["hands"][p][slot])] = 1.0
        assert np.array_equal(hand[slot], want)
    seats = sec["seats"].reshape(n, 2 + nc, W, W)
    for k in range(n):  # relative to p: chips (M-2), hand size, colour totals (M-15)
        q = (p + k) % n
        totals = [0] * nc
        for card in d["taken"][q]:
            totals[game.colour_of[card]] += game.value_of[card]
        want_vals = [d["chips"][q] / 10.0, len(d["hands"][q])] + [t / 100.0 for t in totals]
        for j, v in enumerate(want_vals):
            assert np.all(seats[k, j] == np.float32(v))
    assert np.all(sec["pile"][0] == np.float32(len(d["pile"]) / 10.0))
    assert np.all(sec["pile"][1] == sum(1 for w in d["pile_putter"] if w == p))  # M-9, M-22
    if d["phase"] == "over":
        assert not sec["phase"].any() and not sec["turn"].any()
    else:
        assert np.all(sec["phase"].sum(axis=0) == 1.0)
        assert np.all(sec["phase"][["play", "choose", "take"].index(d["phase"])] == 1.0)
        assert np.all(sec["turn"].sum(axis=0) == 1.0)
        assert np.all(sec["turn"][(d["current"] - p) % n] == 1.0)


@pytest.mark.parametrize("params", [GAMES[2], GAMES[5], GAMES[6]])
def test_observation_follows_the_rules(engine: str, params: Dict[str, Any]) -> None:
    """Every observation along a random game agrees with the documented layout, derived
    from the state dict by the rules: the table and its card attributes (M-1, M-7), the
    scoring row (M-13), the row-choice runs (M-12), the last cell, the own hand and nothing
    of the others' (M-22), the seats' chips, hand sizes and colour totals from p leftwards
    (M-2, M-15), the pile, the own cards under it (M-9), the phase and the seat to move."""
    game = mousehole.load("m", engine=engine, **params)
    for s in random_states(game, 3):
        d = s.to_dict()
        for p in range(game.num_players):
            check_layout(game, d, p, s.observation(p))


def cross_position(engine: str) -> Any:
    """A row choice set up by hand (3 players, default cards): seat 0 has laid blue 30
    square on (4, 4), which ends the row 4 (cols 0..4) and the column 4 (rows 0..4), 5 cards
    each, with two matches next to it in both: blue 10 square on (4, 3), blue 20 square on
    (3, 4) (M-12). Seat 1 has taken yellow 40 square and pink 40 circle (M-15); seat 2 holds
    green 10 eight and orange 0 and slid one card under the 20-card pile (M-9)."""
    game = mousehole.load("m", players=3, engine=engine)
    ids: Dict[Tuple[str, int, Any], List[int]] = {}
    for i, c in enumerate(game.cards):
        ids.setdefault((c[0], c[1], c[2]), []).append(i)
    used: List[int] = []

    def card(colour: str, value: int, symbol: Any = None) -> int:
        c = ids[(colour, value, symbol)].pop(0)
        used.append(c)
        return c

    table = {
        (4, 0): card("pink", 10, "circle"),
        (4, 1): card("yellow", 20, "circle"),
        (4, 2): card("blue", 40, "circle"),
        (4, 3): card("blue", 10, "square"),
        (0, 4): card("pink", 20, "eight"),
        (1, 4): card("yellow", 30, "eight"),
        (2, 4): card("green", 20, "eight"),
        (3, 4): card("blue", 20, "square"),
        (4, 4): card("blue", 30, "square"),
    }
    hands = [[card("orange", 10, "square")], [card("pink", 0)], [card("green", 10, "eight"), card("orange", 0)]]
    taken: List[List[int]] = [[], [card("yellow", 40, "square"), card("pink", 40, "circle")], []]
    pile = [c for c in range(len(game.cards)) if c not in used][:20]
    d = game.new_state(0).to_dict()
    d.update(
        table=[[r, c, x] for (r, c), x in sorted(table.items())],
        hands=[sorted(h) for h in hands],
        pile=pile,
        pile_putter=[2] + [-1] * 19,
        removed=sorted(c for c in range(len(game.cards)) if c not in used and c not in pile),
        chips=[7, 5, 6],
        taken=taken,
        phase="choose",
        current=0,
        placer=0,
        last=[4, 4],
        scoring_row=[],
        passes=0,
        end=None,
        truncated=False,
        history=[],
        log=[],
    )
    return game.state_from_dict(d)


def test_row_choice_position_by_hand(engine: str) -> None:
    """The row choice of ``cross_position``, written out plane by plane for seat 2. The
    window origin is (-1, -1): table cell (r, c) is window cell (r + 1, c + 1). Default cards:
    colours blue, green, pink, yellow, orange; values 0, 10, 20, 30, 40; symbols square,
    triangle, eight, circle: attribute planes 0..4, 5..9, 10..13 (M-1)."""
    s = cross_position(engine)
    game = s.game
    assert game.observation_shape == (1 + 14 + 4 + 4 * 14 + 3 * 7 + 2 + 3 + 3, 8, 8) == (104, 8, 8)
    obs = s.observation(2)
    sec = sections(game, obs)
    row = [(5, c) for c in range(1, 6)]
    col = [(r, 5) for r in range(1, 6)]
    assert np.array_equal(sec["occ"][0], plane(row + col[:-1]))
    assert np.array_equal(sec["runs"][0], plane(row)) and np.array_equal(sec["runs"][1], plane(col))  # M-12
    assert np.array_equal(sec["last"][0], plane([(5, 5)]))
    assert not sec["srow"].any()  # no scoring row before the choice
    assert [int(k) for k in np.flatnonzero(sec["attr"][:, 5, 5])] == [0, 8, 10]  # blue 30 square
    assert [int(k) for k in np.flatnonzero(sec["attr"][:, 1, 5])] == [2, 7, 12]  # pink 20 eight
    hand = sec["hand"].reshape(4, 14, W, W)  # M-22: seat 2's own cards, as whole planes
    assert [int(k) for k in np.flatnonzero(hand[0].any(axis=(1, 2)))] == [1, 6, 12]  # green 10 eight
    assert [int(k) for k in np.flatnonzero(hand[1].any(axis=(1, 2)))] == [4, 5]  # orange 0: no symbol
    assert np.all(hand[0][[1, 6, 12]] == 1.0) and np.all(hand[1][[4, 5]] == 1.0) and not hand[2:].any()
    seats = sec["seats"].reshape(3, 7, W, W)
    assert np.all(seats == seats[:, :, :1, :1])  # constant planes
    # k = 0 is seat 2, then its left neighbours seat 0 and seat 1; chips / 10, hand size,
    # colour totals / 100 (blue, green, pink, yellow, orange): seat 1 took pink 40, yellow 40
    assert same_bits(
        seats[:, :, 0, 0],
        np.array([[0.6, 2, 0, 0, 0, 0, 0], [0.7, 1, 0, 0, 0, 0, 0], [0.5, 1, 0, 0, 0.4, 0.4, 0]], dtype=np.float32),
    )
    assert np.all(sec["pile"][0] == np.float32(2.0)) and np.all(sec["pile"][1] == 1.0)  # M-9
    assert not sections(game, s.observation(0))["pile"][1].any()  # seat 0 slid nothing under
    assert np.all(sec["phase"][1] == 1.0) and not sec["phase"][[0, 2]].any()
    assert np.all(sec["turn"][1] == 1.0) and not sec["turn"][[0, 2]].any()  # seat 0 is p + 1
    check_layout(game, s.to_dict(), 2, obs)
    assert np.flatnonzero(s.legal_action_mask()).tolist() == [game.A_ROW, game.A_ROW + 1]


# ---- bad arguments ------------------------------------------------------------------------------


def bad_observation_outs(shape: Tuple[int, ...]) -> List[Tuple[str, Callable[[], Any]]]:
    def read_only() -> np.ndarray:
        a = np.zeros(shape, dtype=np.float32)
        a.flags.writeable = False
        return a

    return [
        ("list", lambda: np.zeros(shape, dtype=np.float32).tolist()),
        ("float64", lambda: np.zeros(shape, dtype=np.float64)),
        ("float16", lambda: np.zeros(shape, dtype=np.float16)),
        ("big-endian float32", lambda: np.zeros(shape, dtype=">f4")),
        ("flat", lambda: np.zeros(int(np.prod(shape)), dtype=np.float32)),
        ("one plane short", lambda: np.zeros((shape[0] - 1,) + shape[1:], dtype=np.float32)),
        ("strided", lambda: np.zeros(shape[:2] + (2 * shape[2],), dtype=np.float32)[:, :, ::2]),
        ("fortran order", lambda: np.asfortranarray(np.zeros(shape, dtype=np.float32))),
        ("read-only", read_only),
    ]


def bad_mask_outs(size: int) -> List[Tuple[str, Callable[[], Any]]]:
    def read_only() -> np.ndarray:
        a = np.zeros(size, dtype=np.bool_)
        a.flags.writeable = False
        return a

    return [
        ("tuple", lambda: (False,) * size),
        ("uint8", lambda: np.zeros(size, dtype=np.uint8)),
        ("float32", lambda: np.zeros(size, dtype=np.float32)),
        ("short", lambda: np.zeros(size - 1, dtype=np.bool_)),
        ("2-d", lambda: np.zeros((1, size), dtype=np.bool_)),
        ("strided", lambda: np.zeros(2 * size, dtype=np.bool_)[::2]),
        ("read-only", read_only),
    ]


def expected_error(out: Any, shape: Tuple[int, ...], dtype: Any) -> BaseException:
    """The error ``_api.check_out`` raises for ``out`` (the contract of both engines)."""
    try:
        check_out(out, shape, dtype, "out")
    except (TypeError, ValueError) as e:
        return e
    raise AssertionError(f"check_out accepted {out!r}")


def snapshot(out: Any) -> Any:
    return out.copy() if isinstance(out, np.ndarray) else out


def unchanged(out: Any, before: Any) -> bool:
    if isinstance(out, np.ndarray):
        return same_bits(out, before)
    return bool(out == before)


def test_bad_observation_out_raises_and_leaves_it(engine: str) -> None:
    """A bad ``out`` raises ``_api.check_out``'s TypeError (not an array, wrong dtype or byte
    order) or ValueError (shape, layout, read-only), naming what is wrong; nothing is written."""
    game = mousehole.load("m", players=4, engine=engine)
    s = game.new_state(5)
    shape = tuple(game.observation_shape)
    for name, make in bad_observation_outs(shape):
        out = make()
        if isinstance(out, np.ndarray) and out.flags.writeable:
            out[...] = 7  # a value an observation never holds everywhere
        before = snapshot(out)
        want = expected_error(out, shape, np.float32)
        with pytest.raises(type(want)) as info:
            s.observation(1, out=out)
        assert str(info.value) == str(want), name
        assert "out" in str(info.value)
        assert unchanged(out, before), name
    good = np.zeros(shape, dtype=np.float32)
    assert s.observation(1, out=good) is good


def test_bad_mask_out_raises_and_leaves_it(engine: str) -> None:
    """As for observations: a bad ``out`` of ``legal_action_mask`` raises the error of
    ``_api.check_out`` and is not written."""
    game = mousehole.load("m", players=3, engine=engine)
    s = game.new_state(8)
    size = game.num_actions
    for name, make in bad_mask_outs(size):
        out = make()
        if isinstance(out, np.ndarray) and out.flags.writeable:
            out[...] = 1
        before = snapshot(out)
        want = expected_error(out, (size,), np.bool_)
        with pytest.raises(type(want)) as info:
            s.legal_action_mask(out=out)
        assert str(info.value) == str(want), name
        assert unchanged(out, before), name


@pytest.mark.parametrize(
    "seat", ["0", 1.0, None, [1], -1, 4, 2**80, -(2**80), np.int64(-1), np.int64(4), np.uint64(2**63)]
)
def test_bad_seat_raises(engine: str, seat: Any) -> None:
    """A seat that is not an int raises TypeError, one outside 0..n-1 ValueError, with the
    message of ``_api.check_seat``."""
    game = mousehole.load("m", players=4, engine=engine)
    s = game.new_state(2)
    try:
        check_seat(game, seat, "player")
    except (TypeError, ValueError) as e:
        want: BaseException = e
    else:
        raise AssertionError(f"check_seat accepted {seat!r}")
    buf = np.full(game.observation_shape, 3.0, dtype=np.float32)
    with pytest.raises(type(want)) as info:
        s.observation(seat, out=buf)
    assert str(info.value) == str(want)
    assert np.all(buf == 3.0)


def test_integer_seats_of_any_kind(engine: str) -> None:
    """Seats may be any integer (``operator.index``), as for the rest of the API: a numpy
    int32 or uint8 seat gives the int seat's observation."""
    game = mousehole.load("m", players=4, engine=engine)
    s = game.new_state(2)
    for p in range(4):
        want = s.observation(p)
        for seat in (np.int32(p), np.uint8(p), np.int64(p)):
            assert same_bits(s.observation(seat), want)
