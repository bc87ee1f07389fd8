"""One way of validating seats, indices, actions and ``out=`` arrays across the API
(``docs/api.md``, Errors), on both engines.

* A seat, an env index or an action is accepted when it is an ``int`` or a numpy integer
  (anything ``operator.index`` takes), never a bool (``True``, ``np.True_``) and never a
  float (not even ``1.0``): ``TypeError`` naming the parameter and the type. A seat out of
  range is a ``ValueError``, an action out of range an ``IllegalMoveError`` (a
  ``ValueError``), an env index out of range an ``IndexError``.
* An ``out=`` array of another type or dtype is a ``TypeError`` (a byte-swapped float32 is
  named as such), of another shape, strided or read-only a ``ValueError``; nothing is
  written into a refused array, and the state never changes on an error.

The hypothesis suite over the same arguments, run in child processes, is
``tests/test_hostile_states.py``.
"""

from __future__ import annotations

import operator
import re
from decimal import Decimal
from fractions import Fraction
from typing import Any, Callable, Dict, List, Tuple

import numpy as np
import pytest

import mousehole
from mousehole import bots, render
from mousehole.vector import VectorGame

NAMES = mousehole.game_names()


class Index:
    """Not an int, but an integer by ``__index__`` (accepted like an int)."""

    def __init__(self, v: int) -> None:
        self.v = v

    def __index__(self) -> int:
        return self.v


#: (value, the type name the error must give)
NOT_INTEGERS: List[Tuple[Any, str]] = [
    (True, "bool"),
    (False, "bool"),
    (np.True_, "bool"),
    (np.False_, "bool"),
    (1.0, "float"),
    (0.0, "float"),
    (np.float64(1.0), "float64"),
    (np.float32(0.0), "float32"),
    ("1", "str"),
    (b"1", "bytes"),
    (1 + 0j, "complex"),
    (Fraction(1), "Fraction"),
    (Decimal(1), "Decimal"),
    ([1], "list"),
    ((1,), "tuple"),
    (np.array([1]), "ndarray"),
    (object(), "object"),
]
#: equal to 1 and accepted wherever 1 is
ONES: List[Any] = [
    np.int8(1),
    np.int16(1),
    np.int32(1),
    np.int64(1),
    np.uint8(1),
    np.uint16(1),
    np.uint32(1),
    np.uint64(1),
    np.intp(1),
    Index(1),
]


def _state(name: str, engine: str, seed: int = 3, **params: Any) -> Any:
    game = mousehole.load(name, engine=engine, **params)
    state = game.new_state(seed)
    for _ in range(5):  # a few moves in: views differ between seats
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(int(legal[len(legal) // 2]))
    return state


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.dtype == b.dtype and np.array_equal(a, b)
    if hasattr(a, "to_dict") and hasattr(a, "game"):
        return bool(a.to_dict() == b.to_dict())
    return bool(a == b)


# ---- seats -------------------------------------------------------------------------------

SeatCall = Callable[[Any, Any], Any]
SEAT_METHODS: Dict[str, Tuple[str, SeatCall]] = {
    "observation": ("player", lambda s, p: s.observation(p)),
    "observation(out=)": ("player", lambda s, p: s.observation(p, out=np.zeros(s.game.observation_shape, np.float32))),
    "to_dict(for_player=)": ("for_player", lambda s, p: s.to_dict(for_player=p)),
    "determinize": ("player", lambda s, p: s.determinize(p, 7)),
    "render.svg": ("for_player", lambda s, p: render.svg(s, for_player=p)),
    "render.text": ("for_player", lambda s, p: render.text(s, for_player=p)),
}


@pytest.mark.parametrize("method", sorted(SEAT_METHODS))
@pytest.mark.parametrize("name", NAMES)
def test_a_seat_is_an_int_never_a_bool_or_a_float(name: str, engine: str, method: str) -> None:
    what, call = SEAT_METHODS[method]
    state = _state(name, engine)
    before = state.to_dict()
    one = call(state, 1)
    for bad, tname in NOT_INTEGERS:
        with pytest.raises(TypeError, match=f"{what} must be an int, not {tname}"):
            call(state, bad)
    n = state.game.num_players
    for bad in (-1, n, n + 100, 2**64, -(2**64), np.int64(-1), np.uint64(2**63), Index(n)):
        with pytest.raises(
            ValueError, match=f"{what} {operator.index(bad)} is out of range: this game has seats 0..{n - 1}"
        ):
            call(state, bad)
    for good in ONES:
        assert _same(call(state, good), one), (method, type(good).__name__)
    assert state.to_dict() == before, "a refused seat changed the state"


def _per_game_seat_rule(call: Callable[[Any], Any], what: str, n: int) -> None:
    one = call(1)
    for bad, tname in NOT_INTEGERS:
        with pytest.raises(TypeError, match=f"{what} must be an int, not {tname}"):
            call(bad)
    for bad in (-1, n, 2**70):
        with pytest.raises(ValueError, match=f"{what} {bad} is out of range"):
            call(bad)
    for good in ONES:
        assert call(good) == one


def test_kasimir_free_starts_takes_a_seat(engine: str) -> None:
    """KK-6: ``free_starts(p)`` took ``1.0`` and ``True`` as seat 1 on the compiled engine
    (Cython's int conversion), and the reference read ``free_starts(-1)`` as the last seat."""
    state = _state("kasimir", engine)
    _per_game_seat_rule(state.free_starts, "p", state.game.num_players)


@pytest.mark.compiled
def test_maus_au_chocolat_combination_actions_takes_a_seat() -> None:
    """MC-29: the compiled ``combination_actions(seat)`` took ``1.0`` and ``True`` as seat 1."""
    state = _state("maus_au_chocolat", "compiled")
    _per_game_seat_rule(state.combination_actions, "seat", state.game.num_players)


# ---- actions -----------------------------------------------------------------------------

ACTION_MESSAGE = "an action must be an int \\(or use state.apply\\(move\\)\\), not "
#: ``state.apply(text)``: a move in the notation is read with ``parse_action``
APPLY_TEXT_MESSAGE = "apply takes a Move or an int action, not the text .*state\\.parse_action"


@pytest.mark.parametrize("name", NAMES)
def test_an_action_is_an_int_never_a_bool_or_a_float(name: str, engine: str) -> None:
    state = _state(name, engine)
    game = state.game
    before = state.to_dict()
    legal = int(state.legal_actions()[0])
    calls: Dict[str, Callable[[Any], Any]] = {
        "apply_action": lambda a: state.apply_action(a),
        "apply": lambda a: state.apply(a),
        "describe": lambda a: state.describe(a),
        "action_to_move": lambda a: game.action_to_move(a),
    }
    for label, call in calls.items():
        for bad, tname in NOT_INTEGERS:
            pattern = APPLY_TEXT_MESSAGE if label == "apply" and isinstance(bad, str) else ACTION_MESSAGE + tname
            with pytest.raises(TypeError, match=pattern):
                call(bad)
            assert state.to_dict() == before, (label, bad)
        for bad in (-1, game.num_actions, 2**64, -(2**70), np.int64(-5), np.uint64(2**64 - 1)):
            with pytest.raises(mousehole.IllegalMoveError, match=f"action {int(bad)} is out of range"):
                call(bad)
            assert state.to_dict() == before, (label, bad)
    ref = state.clone()
    ref.apply_action(legal)
    for a in (np.int64(legal), np.int32(legal), np.uint16(legal), Index(legal)):  # the same action
        assert game.action_to_move(a) == game.action_to_move(legal)
        assert state.describe(a) == state.describe(legal)
        for how in ("apply_action", "apply"):
            twin = state.clone()
            getattr(twin, how)(a)
            assert twin == ref, (how, type(a).__name__)


def test_an_action_at_a_chance_node_follows_the_same_rule(engine: str) -> None:
    state = mousehole.load("kasimir", engine=engine, explicit_chance=True).new_state(2)
    assert state.is_chance_node()
    before = state.to_dict()
    face = state.chance_outcomes()[0][0]
    for bad, tname in NOT_INTEGERS:
        with pytest.raises(TypeError, match=ACTION_MESSAGE + tname):
            state.apply_action(bad)
    with pytest.raises(TypeError, match=ACTION_MESSAGE + "float"):
        state.apply_action(float(face))
    assert state.to_dict() == before
    state.apply_action(np.uint8(face))
    assert state.history == [face]


def test_apply_joint_checks_every_entry_first(engine: str) -> None:
    """MC-27: ``apply_joint`` refuses a bool or a float among the bids and changes nothing."""
    state = mousehole.load("maus_au_chocolat", engine=engine, players=3).new_state(4)
    d = state.to_dict()
    bids = [mousehole.maus_au_chocolat.BID + h[0] for h in d["hands"]]
    for bad, tname in [(True, "bool"), (float(bids[1]), "float"), (np.float32(bids[1]), "float32"), ("x", "str")]:
        with pytest.raises(TypeError, match=ACTION_MESSAGE + tname):
            state.apply_joint([bids[0], bad, bids[2]])
        assert state.to_dict() == d
    with pytest.raises(TypeError):
        state.apply_joint(np.array(bids))  # not a sequence of entries
    state.apply_joint([np.int64(bids[0]), np.uint8(bids[1]), bids[2]])
    assert state.history == bids


# ---- out= arrays -------------------------------------------------------------------------


def _bad_out_arrays(shape: Tuple[int, ...], dtype: Any) -> List[Tuple[Any, type, str]]:
    """(array, error type, what the message must say) for an ``out`` of ``shape``/``dtype``."""
    want = np.dtype(dtype).name
    size = int(np.prod(shape))
    ro = np.zeros(shape, dtype)
    ro.flags.writeable = False
    strided = np.zeros(shape[:-1] + (shape[-1] * 2,), dtype)[..., ::2]  # the right shape, not contiguous
    cases: List[Tuple[Any, type, str]] = [
        (np.zeros(shape, np.float64), TypeError, f"out must have dtype {want}, not float64"),
        (np.zeros(shape, np.int32), TypeError, f"out must have dtype {want}, not int32"),
        (np.zeros(shape, object), TypeError, f"out must have dtype {want}, not object"),
        (np.zeros(shape[:-1] + (shape[-1] + 1,), dtype), ValueError, "out must have shape"),
        (np.zeros((size,) if len(shape) > 1 else (1, size), dtype), ValueError, "out must have shape"),
        (np.zeros((), dtype), ValueError, "out must have shape"),
        (ro, ValueError, "out must be a writable C-contiguous array; this one is read-only"),
        (strided, ValueError, "out must be a writable C-contiguous array; this one is not C-contiguous"),
        (
            [0] * size,
            TypeError,
            re.escape(f"out must be a numpy array, not list (a writable C-contiguous {want} array of shape {shape})"),
        ),
        (bytearray(size * 4), TypeError, "out must be a numpy array"),
        (memoryview(bytearray(size * 4)), TypeError, "out must be a numpy array"),
    ]
    if np.dtype(dtype) == np.float32:
        swapped = np.zeros(shape, np.dtype(np.float32).newbyteorder("S"))
        order = "big-endian" if swapped.dtype.byteorder == ">" else "little-endian"
        cases.append(
            (
                swapped,
                TypeError,
                f"out is {order} float32 \\({swapped.dtype.str}\\); out must have dtype float32 in native byte order",
            )
        )
    else:
        cases.append((np.zeros(shape, np.uint8), TypeError, "out must have dtype bool, not uint8"))
    return cases


@pytest.mark.parametrize("name", NAMES)
def test_a_bad_out_array_is_named_and_not_written(name: str, engine: str) -> None:
    state = _state(name, engine)
    game = state.game
    before = state.to_dict()
    targets = [
        ("observation", tuple(game.observation_shape), np.float32, lambda out: state.observation(1, out=out)),
        ("legal_action_mask", (game.num_actions,), np.bool_, lambda out: state.legal_action_mask(out=out)),
    ]
    for label, shape, dtype, call in targets:
        for out, err, msg in _bad_out_arrays(shape, dtype):
            if isinstance(out, np.ndarray) and out.flags.writeable:
                out[...] = 1  # a sentinel: a refused array keeps it
            was = bytes(out) if not isinstance(out, (np.ndarray, list)) else None
            with pytest.raises(err, match=msg):
                call(out)
            if isinstance(out, np.ndarray) and out.flags.writeable:
                assert (out == 1).all(), f"{label}: a refused out array was written ({out.dtype}, {out.shape})"
            elif was is not None:
                assert bytes(out) == was
            assert state.to_dict() == before
        # the array accepted: any C-contiguous native one, a slice of a bigger one too
        host = np.ones((3,) + shape, dtype)
        got = call(host[1])
        fresh = state.observation(1) if label == "observation" else state.legal_action_mask()
        assert np.shares_memory(got, host) and np.array_equal(host[1], fresh)
        assert (host[0] == 1).all() and (host[2] == 1).all(), f"{label} wrote outside its out array"


def test_a_big_endian_out_array_is_named_as_such(engine: str) -> None:
    """Issue 22 quoted ``out must have dtype float32, not float32`` for a ``>f4`` array."""
    state = mousehole.load("m", engine=engine).new_state(1)
    out = np.zeros(state.game.observation_shape, ">f4")
    with pytest.raises(TypeError) as info:
        state.observation(0, out=out)
    if np.little_endian:
        assert str(info.value) == "out is big-endian float32 (>f4); out must have dtype float32 in native byte order"
    assert "not float32" not in str(info.value)


# ---- indices and numeric arguments of the layers above the engines -------------------------


@pytest.mark.parametrize("name", ["m", "kasimir"])
def test_vector_env_index(name: str, engine: str) -> None:
    """``VectorGame.legal_actions(i)``: ``legal_actions(1.0)`` raised ``IndexError``."""
    vg = VectorGame(mousehole.load(name, engine=engine, players=2), 3, 5)
    vg.reset()
    one = vg.legal_actions(1)
    for bad, tname in NOT_INTEGERS:
        with pytest.raises(TypeError, match=f"env index must be an int, not {tname}"):
            vg.legal_actions(bad)
    for bad in (-1, 3, 2**64):
        with pytest.raises(IndexError, match=f"env {bad} is out of range 0..2"):
            vg.legal_actions(bad)
    for good in ONES:
        if not isinstance(good, Index):
            np.testing.assert_array_equal(vg.legal_actions(good), one)


def test_vector_game_arguments(engine: str) -> None:
    game = mousehole.load("cheese_rescue", engine=engine, players=2)
    for key, call in {
        "num_envs": lambda v: VectorGame(game, v, 1),
        "seed": lambda v: VectorGame(game, 2, v),
        "threads": lambda v: VectorGame(game, 2, 1, threads=v),
    }.items():
        for bad, tname in NOT_INTEGERS:
            with pytest.raises(TypeError, match=f"{key} must be an int, not {tname}"):
                call(bad)
        call(np.int64(2))
    for bad in (0, -1, 2**64):
        with pytest.raises(ValueError, match="num_envs must be in"):
            VectorGame(game, bad, 1)
    for bad, _tname in NOT_INTEGERS[:8]:
        with pytest.raises(TypeError, match="seats"):
            VectorGame(game, 2, 1, seats=[0, bad])
    with pytest.raises(ValueError, match="seats"):
        VectorGame(game, 2, 1, seats=[2])


def test_simulate_arguments(engine: str) -> None:
    game = mousehole.load("kasimir", engine=engine, players=2)
    for key, call in {
        "n_games": lambda v: mousehole.simulate(game, v, 1),
        "seed": lambda v: mousehole.simulate(game, 2, v),
        "threads": lambda v: mousehole.simulate(game, 2, 1, threads=v),
    }.items():
        for bad, tname in NOT_INTEGERS:
            with pytest.raises(TypeError, match=f"{key} must be an int, not {tname}"):
                call(bad)
    with pytest.raises(ValueError, match="n_games"):
        mousehole.simulate(game, -1, 1)
    with pytest.raises(ValueError, match="threads"):
        mousehole.simulate(game, 2, 1, threads=0)
    a = mousehole.simulate(game, np.int16(3), np.uint64(9), threads=np.int8(1))
    b = mousehole.simulate(game, 3, 9, threads=1)
    np.testing.assert_array_equal(a.scores, b.scores)


def test_bot_arguments(engine: str) -> None:
    state = _state("cheese_rescue", engine)
    for make in (
        bots.RandomBot,
        bots.GreedyBot,
        lambda seed: bots.MCTSBot(iterations=4, seed=seed),
        lambda seed: bots.ISMCTSBot(iterations=4, seed=seed),
    ):
        for bad, tname in NOT_INTEGERS:
            with pytest.raises(TypeError, match=f"seed must be an int, not {tname}"):
                make(bad)
        bot = make(np.uint32(5))
        for bad in (state.to_dict(), state.game, 3, None):
            with pytest.raises(TypeError, match="expected a mousehole state"):
                bot.step(bad)
        before = state.to_dict()
        assert int(bot.step(state)) in set(state.legal_actions().tolist())
        assert state.to_dict() == before
    for bad, tname in NOT_INTEGERS:
        with pytest.raises(TypeError, match=f"iterations must be an int, not {tname}"):
            bots.MCTSBot(iterations=bad)
