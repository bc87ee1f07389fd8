"""Cheese Rescue observations and legal-action masks written by the compiled core.

The compiled engine writes ``observation(p)`` and ``legal_action_mask()`` straight from its
C struct; they must equal the reference engine's, bit for bit, at every step (CR-15: what a
seat sees; CR-7/CR-8: the legal actions), with or without a caller's ``out`` array. Bad
seats and bad ``out`` arrays raise the same errors on both engines and change nothing.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Iterator, List, Tuple

import numpy as np
import pytest

import mousehole
from gamecases import scale
from mousehole._api import TERMINAL
from mousehole._rng import Rng, derive
from mousehole.cheese_rescue import CAT_CODE, CHEESE_CODE, DOG_CODE, MOUSE_CODE, START

#: player counts and parameter sets: the defaults, and cheese values whose ratios to the
#: highest one are not exact in float32 (2/7, 3/7), five cheese kinds, another square.
CONFIGS: List[Dict[str, Any]] = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 2, "cheese_values": [2, 3, 7]},
    {"players": 3, "cheese_values": [1, 2, 3, 5, 7]},
    {"players": 4, "cheese_values": [2, 3, 7], "max_turns": 30},
    {"players": 4, "square": 5},
]
CONFIG_IDS = ["-".join(f"{k}={v}" for k, v in sorted(c.items())) for c in CONFIGS]


def _bits(a: Any) -> Any:
    """The raw bits of a float32 array (equal bits: no -0.0 / 0.0 or NaN slack)."""
    return np.ascontiguousarray(a).view(np.uint32)


def _walk(game: Any, seed: int) -> Iterator[Any]:
    """The states of one seeded random game, the terminal one included."""
    state = game.new_state(seed)
    rng = Rng(derive(seed, 31))
    while True:
        yield state
        if state.is_terminal():
            return
        legal = state.legal_actions()
        state.apply_action(int(legal[rng.below(len(legal))]))


def _mask_of(game: Any, legal: Any) -> Any:
    mask = np.zeros(game.num_actions, dtype=np.bool_)
    mask[legal] = True
    return mask


# ---- the compiled core against the reference ------------------------------------------------


@pytest.mark.differential
@pytest.mark.parametrize("params", CONFIGS, ids=CONFIG_IDS)
def test_compiled_observation_and_mask_equal_the_reference(params: Dict[str, Any]) -> None:
    """CR-15 / CR-7 / CR-8: at every step of seeded random games, every seat's compiled
    observation (fresh, or into a dirty ``out``) has the reference's bits, and the compiled
    mask (fresh, or into a dirty ``out``) is the reference's and marks exactly the legal
    actions."""
    gc = mousehole.load("cheese_rescue", engine="compiled", **params)
    gp = mousehole.load("cheese_rescue", engine="python", **params)
    n = gc.num_players
    obuf = np.empty(gc.observation_shape, dtype=np.float32)
    mbuf = np.empty(gc.num_actions, dtype=np.bool_)
    steps = 0
    for seed in range(scale(6)):
        for c in _walk(gc, 1000 + seed):
            ref = gp.state_from_dict(c.to_dict())
            before = c.to_dict()
            for p in range(n):
                want = ref.observation(p)
                got = c.observation(p)
                assert got.dtype == np.float32 and got.shape == gc.observation_shape
                assert got.flags.c_contiguous and got.flags.writeable
                assert np.array_equal(_bits(got), _bits(want)), f"seed {seed}, step {len(c.history)}, seat {p}"
                obuf.fill(np.nan)  # whatever was in out is overwritten, zeros included
                assert c.observation(p, out=obuf) is obuf
                assert np.array_equal(_bits(obuf), _bits(want)), f"seed {seed}, step {len(c.history)}, seat {p} (out=)"
            want_mask = ref.legal_action_mask()
            assert np.array_equal(want_mask, _mask_of(gp, ref.legal_actions()))
            got_mask = c.legal_action_mask()
            assert got_mask.dtype == np.bool_ and got_mask.shape == (gc.num_actions,)
            assert np.array_equal(got_mask, want_mask)
            assert np.array_equal(np.flatnonzero(got_mask), c.legal_actions())
            mbuf.fill(True)
            assert c.legal_action_mask(out=mbuf) is mbuf
            assert np.array_equal(mbuf, want_mask)
            assert c.to_dict() == before, "observation and mask leave the state unchanged"
            steps += 1
    assert steps > scale(6) * 10


@pytest.mark.differential
def test_errors_are_the_reference_errors() -> None:
    """A bad seat or a bad ``out`` gives the same exception type and message on both engines
    (the shared checks ``check_seat`` / ``check_out``)."""
    gc = mousehole.load("cheese_rescue", players=3, engine="compiled")
    gp = mousehole.load("cheese_rescue", players=3, engine="python")
    c, r = gc.new_state(4), gp.new_state(4)
    shape = gc.observation_shape
    bad_seats: List[Any] = ["1", 1.0, None, -1, 3, 2**70, -(2**70), np.int64(3), np.int64(-1), np.uint8(7)]
    bad_obs_out: List[Any] = [
        [0.0] * 4,
        np.zeros(shape, dtype=np.float64),
        np.zeros(shape, dtype=">f4"),
        np.zeros(shape[1:], dtype=np.float32),
        np.zeros((shape[0] + 1,) + shape[1:], dtype=np.float32),
        np.zeros(shape, dtype=np.float32, order="F"),
        np.zeros(shape[:2] + (2 * shape[2],), dtype=np.float32)[:, :, ::2],
        np.frombuffer(bytes(4 * int(np.prod(shape))), dtype=np.float32).reshape(shape),
    ]
    bad_mask_out: List[Any] = [
        (True,) * gc.num_actions,
        np.zeros(gc.num_actions, dtype=np.uint8),
        np.zeros(gc.num_actions + 1, dtype=np.bool_),
        np.zeros((1, gc.num_actions), dtype=np.bool_),
        np.zeros(2 * gc.num_actions, dtype=np.bool_)[::2],
        np.frombuffer(bytes(gc.num_actions), dtype=np.bool_),
    ]
    calls: List[Tuple[str, str, Any]] = []
    calls += [(f"seat {x!r}", "seat", x) for x in bad_seats]
    calls += [(f"obs out #{i}", "obs", o) for i, o in enumerate(bad_obs_out)]
    calls += [(f"mask out #{i}", "mask", o) for i, o in enumerate(bad_mask_out)]
    for what, kind, arg in calls:
        errors = []
        for s in (c, r):
            with pytest.raises((TypeError, ValueError)) as info:
                if kind == "seat":
                    s.observation(arg)
                elif kind == "obs":
                    s.observation(0, out=arg)
                else:
                    s.legal_action_mask(out=arg)
            errors.append((type(info.value), str(info.value)))
        assert errors[0] == errors[1], what


# ---- both engines -----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_observation_layout(engine: str, players: int) -> None:
    """The documented layout, plane by plane, computed here from the state dict: table
    planes, cheese of each relative seat scaled by the highest value (CR-2), own animals,
    animal and cheese counts per hand (public, CR-15), pile size (CR-9), seat to play."""
    g = mousehole.load("cheese_rescue", players=players, engine=engine)
    n, G, K = g.num_players, g.grid_size, g.num_cheese_kinds
    top = max(g.cheese_kind_values)
    for seed in range(scale(2)):
        for s in _walk(g, 500 + seed):
            d = s.to_dict()
            table = np.array(d["table"]).reshape(G, G)
            for p in range(n):
                obs = s.observation(p)
                assert obs.shape == (4 + n + 3 + n + n * K + 1 + n, G, G)
                for plane, code in enumerate((START, DOG_CODE, CAT_CODE, MOUSE_CODE)):
                    assert np.array_equal(obs[plane], (table == code).astype(np.float32))
                for k in range(n):
                    q = (p + k) % n
                    want = np.zeros((G, G), dtype=np.float32)
                    for ck in range(K):
                        want[table == CHEESE_CODE + q * K + ck] = np.float32(g.cheese_kind_values[ck] / top)
                    assert np.array_equal(obs[4 + k], want)
                c = 4 + n
                for k in range(3):
                    assert (obs[c + k] == d["hands"][p][k]).all()
                c += 3
                for k in range(n):
                    assert (obs[c + k] == sum(d["hands"][(p + k) % n][:3])).all()
                c += n
                for k in range(n):
                    for ck in range(K):
                        assert (obs[c + k * K + ck] == d["hands"][(p + k) % n][3 + ck]).all()
                c += n * K
                assert (obs[c] == len(d["pile"])).all()
                c += 1
                cur = s.current_player
                for k in range(n):
                    on = cur != TERMINAL and (cur - p) % n == k
                    assert (obs[c + k] == (1.0 if on else 0.0)).all()


def test_mask_is_the_legal_actions(engine: str) -> None:
    """CR-7, CR-8: the mask is True exactly at ``legal_actions()``, at every step and at the
    end (all False), fresh or written into ``out``."""
    g = mousehole.load("cheese_rescue", players=4, engine=engine)
    buf = np.ones(g.num_actions, dtype=np.bool_)
    for seed in range(scale(3)):
        for s in _walk(g, 700 + seed):
            want = _mask_of(g, s.legal_actions())
            assert np.array_equal(s.legal_action_mask(), want)
            buf.fill(True)
            assert s.legal_action_mask(out=buf) is buf
            assert np.array_equal(buf, want)
            if s.is_terminal():
                assert not buf.any()


@pytest.mark.parametrize(
    "make_out",
    [
        lambda shape: [[0.0] * shape[-1]] * shape[0],
        lambda shape: np.full(shape, 7.0, dtype=np.float64),
        lambda shape: np.full(shape, 7.0, dtype=">f4"),
        lambda shape: np.full(shape[::-1], 7.0, dtype=np.float32),
        lambda shape: np.full((shape[0] - 1,) + shape[1:], 7.0, dtype=np.float32),
        lambda shape: np.full(shape, 7.0, dtype=np.float32, order="F"),
        lambda shape: np.full(shape[:2] + (2 * shape[2],), 7.0, dtype=np.float32)[:, :, ::2],
        lambda shape: np.full(shape, 7.0, dtype=np.float32),  # made read-only below
    ],
    ids=["list", "float64", "big-endian", "transposed-shape", "too-few-planes", "fortran", "strided", "read-only"],
)
def test_bad_observation_out(engine: str, make_out: Callable[[Tuple[int, ...]], Any]) -> None:
    """A bad ``out`` raises TypeError (not an array, wrong dtype) or ValueError (wrong
    shape, not C-contiguous, read-only) naming what is wrong; ``out`` and the state are
    left as they were."""
    g = mousehole.load("cheese_rescue", players=4, engine=engine)
    s = g.new_state(3)
    s.apply_action(int(s.legal_actions()[0]))
    out = make_out(g.observation_shape)
    if (
        isinstance(out, np.ndarray)
        and out.flags.c_contiguous
        and out.shape == g.observation_shape
        and out.dtype == np.float32
    ):
        out.flags.writeable = False
    before, snapshot = s.to_dict(), (np.array(out, copy=True) if isinstance(out, np.ndarray) else list(out))
    with pytest.raises((TypeError, ValueError)) as info:
        s.observation(1, out=out)
    msg = str(info.value)
    if not isinstance(out, np.ndarray):
        assert info.type is TypeError and "numpy array" in msg
    elif out.dtype != np.float32:
        assert info.type is TypeError and "dtype float32" in msg
    elif out.shape != g.observation_shape:
        assert info.type is ValueError and "shape" in msg and str(g.observation_shape) in msg
    else:
        assert info.type is ValueError and "writable C-contiguous" in msg
    if isinstance(out, np.ndarray):
        assert np.array_equal(out, snapshot), "a refused out is not written"
    else:
        assert out == snapshot
    assert s.to_dict() == before


@pytest.mark.parametrize(
    "make_out",
    [
        lambda n: [False] * n,
        lambda n: np.ones(n, dtype=np.uint8),
        lambda n: np.ones(n, dtype=np.int64),
        lambda n: np.ones(n - 1, dtype=np.bool_),
        lambda n: np.ones((n, 1), dtype=np.bool_),
        lambda n: np.ones(2 * n, dtype=np.bool_)[::2],
        lambda n: np.ones(n, dtype=np.bool_),  # made read-only below
    ],
    ids=["list", "uint8", "int64", "short", "2d", "strided", "read-only"],
)
def test_bad_mask_out(engine: str, make_out: Callable[[int], Any]) -> None:
    """The same checks for ``legal_action_mask(out=...)`` (bool, shape ``(num_actions,)``)."""
    g = mousehole.load("cheese_rescue", players=2, engine=engine)
    s = g.new_state(8)
    out = make_out(g.num_actions)
    if (
        isinstance(out, np.ndarray)
        and out.flags.c_contiguous
        and out.shape == (g.num_actions,)
        and out.dtype == np.bool_
    ):
        out.flags.writeable = False
    before, snapshot = s.to_dict(), (np.array(out, copy=True) if isinstance(out, np.ndarray) else list(out))
    with pytest.raises((TypeError, ValueError)) as info:
        s.legal_action_mask(out=out)
    msg = str(info.value)
    if not isinstance(out, np.ndarray):
        assert info.type is TypeError and "numpy array" in msg
    elif out.dtype != np.bool_:
        assert info.type is TypeError and "dtype bool" in msg
    elif out.shape != (g.num_actions,):
        assert info.type is ValueError and "shape" in msg
    else:
        assert info.type is ValueError and "writable C-contiguous" in msg
    if isinstance(out, np.ndarray):
        assert np.array_equal(out, snapshot), "a refused out is not written"
    else:
        assert out == snapshot
    assert s.to_dict() == before


def test_seats(engine: str) -> None:
    """``observation(p)`` takes an int seat 0..n-1 (numpy integers too): TypeError for a
    non-integer, ValueError naming the range otherwise; a failing call changes nothing."""
    g = mousehole.load("cheese_rescue", players=3, engine=engine)
    s = g.new_state(2)
    s.apply_action(int(s.legal_actions()[-1]))
    for good in (1, np.int64(1), np.int32(1), np.uint8(1)):
        assert np.array_equal(_bits(s.observation(good)), _bits(s.observation(1)))
    assert not np.array_equal(s.observation(0), s.observation(1))
    before = s.to_dict()
    not_ints: List[Any] = ["0", 0.0, None, [0]]
    for bad in not_ints:
        with pytest.raises(TypeError, match="player must be an int"):
            s.observation(bad)
    for bad in (-1, 3, 2**63, 2**80, -(2**80), np.int64(3), np.int64(-5), np.uint64(2**64 - 1)):
        with pytest.raises(ValueError, match=r"out of range: this game has seats 0\.\.2"):
            s.observation(bad)
    buf = np.full(g.observation_shape, 5.0, dtype=np.float32)
    with pytest.raises(ValueError):
        s.observation(3, out=buf)
    assert (buf == 5.0).all(), "a bad seat is refused before out is touched"
    assert s.to_dict() == before
