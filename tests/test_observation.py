"""What every registered game's ``observation(player, out=None)`` and
``legal_action_mask(out=None)`` take, over the registry (``gamecases.NAMES``), on both engines:

* ``out``, when given, is a writable C-contiguous numpy array of the right dtype and shape
  (float32 of ``observation_shape``, bool of ``(num_actions,)``): anything else is a
  ``TypeError`` (not an array, another dtype, another byte order) or a ``ValueError`` (another
  shape, strided, Fortran order, read-only) naming ``out`` and what is wrong, the same as the
  reference engine's, and neither ``out`` nor the state is touched; an unaligned array, or a
  C-contiguous slice of a larger one, is written like any other, and nothing around it;
* a seat is an integer 0..n-1 of any integer type (numpy's too), by position or keyword: a
  non-integer (a bool too) is a ``TypeError``, another integer a ``ValueError`` naming the
  seats, before ``out`` is touched.

The planes themselves, of positions built by hand, and the compiled values against the
reference's at every step of seeded games are each game's own (``tests/test_<id>_rules.py``,
section observation; ``tests/test_differential.py``)."""

from __future__ import annotations

from typing import Any, List, Tuple

import numpy as np
import pytest

import mousehole
from gamecases import NAMES, random_states, same_bits

#: (name, make an out, the error type, words of its message) for every kind of bad ``out``
BadOut = Tuple[str, Any, type, str]


def midgame(name: str, engine: str) -> Any:
    """A state halfway through a seeded random game of ``name`` at its largest player count."""
    game = mousehole.load(name, engine=engine, players=mousehole.load(name, engine="python").max_players)
    states = [s for s in random_states(game, 7) if not s.is_terminal()]
    return states[len(states) // 2]


def reference_of(state: Any) -> Any:
    """The reference engine's state with ``state``'s dict."""
    return mousehole.load(state.game.name, engine="python", **state.game.params).state_from_dict(state.to_dict())


def bad_outs(shape: Tuple[int, ...], dtype: Any) -> List[BadOut]:
    """Every way an ``out`` of ``shape`` and ``dtype`` can be wrong (``check_out``'s contract)."""
    others = (np.float64, np.float16, np.int32) if np.dtype(dtype) == np.float32 else (np.uint8, np.float32, np.int64)
    read_only = np.zeros(shape, dtype=dtype)
    read_only.flags.writeable = False
    want = f"out must have shape {shape}"
    bads: List[BadOut] = [
        ("list", np.zeros(shape, dtype=dtype).tolist(), TypeError, "out must be a numpy array, not list"),
        ("tuple", tuple(np.zeros(shape, dtype=dtype).tolist()), TypeError, "out must be a numpy array, not tuple"),
        ("scalar", 0.0, TypeError, "out must be a numpy array, not float"),
    ]
    bads += [
        (
            f"dtype {np.dtype(other).name}",
            np.zeros(shape, dtype=other),
            TypeError,
            f"out must have dtype {np.dtype(dtype).name}",
        )
        for other in others
    ]
    bads += [
        ("one short", np.zeros((shape[0] - 1,) + shape[1:], dtype=dtype), ValueError, want),
        ("one long", np.zeros((shape[0] + 1,) + shape[1:], dtype=dtype), ValueError, want),
        ("an axis more", np.zeros((1,) + shape, dtype=dtype), ValueError, want),
        ("strided", np.zeros(shape[:-1] + (2 * shape[-1],), dtype=dtype)[..., ::2], ValueError, "C-contiguous"),
        ("read-only", read_only, ValueError, "writable C-contiguous"),
    ]
    if len(shape) > 1:
        bads.append(("flat", np.zeros(int(np.prod(shape)), dtype=dtype), ValueError, want))
        bads.append(("fortran order", np.asfortranarray(np.zeros(shape, dtype=dtype)), ValueError, "C-contiguous"))
    if np.dtype(dtype).itemsize > 1:  # (a one-byte type has no byte order)
        swapped = np.zeros(shape, dtype=np.dtype(dtype).newbyteorder())
        bads.append(("byte-swapped", swapped, TypeError, "in native byte order"))
    return bads


def raised(call: Any) -> Tuple[type, str]:
    try:
        call()
    except (TypeError, ValueError) as e:
        return type(e), str(e)
    raise AssertionError("no error raised")


def check_refused(state: Any, call: Any, bads: List[BadOut], fill: Any) -> None:
    """Each bad ``out`` is refused by ``call(state, out)`` as the reference refuses it, with
    the error named, and neither ``out`` nor the state is written."""
    ref, before = reference_of(state), state.to_dict()
    for what, out, error, words in bads:
        if isinstance(out, np.ndarray) and out.flags.writeable:
            out[...] = fill  # (a value every element of a result never holds)
        copy = np.array(out, copy=True)
        got = raised(lambda: call(state, out))  # noqa: B023  (called at once)
        assert got[0] is error and words in got[1], (what, got)
        assert got == raised(lambda: call(ref, out)), what  # noqa: B023
        assert np.array_equal(np.asarray(out), copy), f"{what}: a refused out was written"
    assert state.to_dict() == before


@pytest.mark.parametrize("name", NAMES)
def test_a_bad_observation_out_is_refused_untouched(name: str, engine: str) -> None:
    s = midgame(name, engine)
    bads = bad_outs(tuple(s.game.observation_shape), np.float32)
    check_refused(s, lambda st, out: st.observation(1, out=out), bads, 7.0)


@pytest.mark.parametrize("name", NAMES)
def test_a_bad_mask_out_is_refused_untouched(name: str, engine: str) -> None:
    s = midgame(name, engine)
    bads = bad_outs((s.game.num_actions,), np.bool_)
    check_refused(s, lambda st, out: st.legal_action_mask(out=out), bads, True)


@pytest.mark.parametrize("name", NAMES)
def test_an_unaligned_or_sliced_out_is_written(name: str, engine: str) -> None:
    """An unaligned array, or a C-contiguous slice of a larger one, is a valid ``out``: the
    values land in it, and nothing around a slice is written."""
    s = midgame(name, engine)
    shape, size = tuple(s.game.observation_shape), int(np.prod(s.game.observation_shape))
    raw = np.zeros(4 * size + 1, dtype=np.uint8)
    out = raw[1:].view(np.float32).reshape(shape)
    assert not out.flags.aligned and out.flags.c_contiguous and out.flags.writeable
    out[...] = np.nan
    assert s.observation(1, out=out) is out
    assert same_bits(np.ascontiguousarray(out), s.observation(1))
    big = np.full((shape[0] + 3,) + shape[1:], 7.0, dtype=np.float32)
    part = big[1 : 1 + shape[0]]
    assert s.observation(0, out=part) is part and same_bits(part, s.observation(0))
    assert (big[:1] == 7.0).all() and (big[1 + shape[0] :] == 7.0).all()
    n = s.game.num_actions
    bigm = np.ones(n + 6, dtype=np.bool_)
    mask = bigm[3 : 3 + n]
    assert s.legal_action_mask(out=mask) is mask
    assert np.flatnonzero(mask).tolist() == [int(a) for a in s.legal_actions()]
    assert bigm[:3].all() and bigm[3 + n :].all()


def bad_seats(n: int) -> List[Tuple[Any, type, str]]:
    """(seat, error type, words of the message) for a game of ``n`` seats."""
    seats = rf"this game has seats 0\.\.{n - 1}"
    return [
        ("1", TypeError, "player must be an int, not str"),
        (1.0, TypeError, "player must be an int, not float"),
        (None, TypeError, "player must be an int, not NoneType"),
        ([1], TypeError, "player must be an int, not list"),
        (True, TypeError, "player must be an int, not bool"),
        (np.bool_(False), TypeError, "player must be an int, not bool"),
        (n, ValueError, rf"player {n} is out of range: {seats}"),
        (-1, ValueError, rf"player -1 is out of range: {seats}"),
        (2**70, ValueError, rf"player {2**70} is out of range: {seats}"),
        (-(2**80), ValueError, "out of range"),
        (np.int64(n), ValueError, rf"player {n} is out of range"),
        (np.int64(-5), ValueError, "player -5 is out of range"),
        (np.uint64(2**63), ValueError, "out of range"),
    ]


@pytest.mark.parametrize("name", NAMES)
def test_a_bad_seat_is_refused_before_out_is_touched(name: str, engine: str) -> None:
    s = midgame(name, engine)
    ref, before = reference_of(s), s.to_dict()
    buf = np.full(s.game.observation_shape, 3.0, dtype=np.float32)
    for seat, error, words in bad_seats(s.game.num_players):
        with pytest.raises(error, match=words):
            s.observation(seat)
        got = raised(lambda: s.observation(seat, out=buf))  # noqa: B023  (called at once)
        assert got[0] is error and got == raised(lambda: ref.observation(seat)), (seat, got)  # noqa: B023
        assert (buf == 3.0).all(), f"seat {seat!r}: out was written"
    assert s.to_dict() == before


@pytest.mark.parametrize("name", NAMES)
def test_a_seat_is_any_integer_by_position_or_keyword(name: str, engine: str) -> None:
    s = midgame(name, engine)
    for p in range(s.game.num_players):
        want = s.observation(p)
        for seat in (np.int8(p), np.uint8(p), np.int32(p), np.int64(p), np.uint64(p)):
            assert same_bits(s.observation(seat), want), (p, type(seat))
        buf = np.empty(s.game.observation_shape, dtype=np.float32)
        assert s.observation(player=np.int64(p), out=buf) is buf and same_bits(buf, want)
    mask = np.empty(s.game.num_actions, dtype=np.bool_)
    assert s.legal_action_mask(out=mask) is mask and np.array_equal(mask, s.legal_action_mask())
