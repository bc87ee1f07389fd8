"""Hostile input to both engines: state dicts, views and array arguments (hypothesis).

Each suite runs in a child interpreter (:func:`isolated`), because the inputs are exactly the
ones that could kill an interpreter if a check were missing in compiled code: a crash, a
hang (a timeout) or a failed property then shows up as a failing test that names the last
case tried, not as a dead test run. Every run is bounded (``max_examples``, a per-example
deadline, ``derandomize=True``, no example database); ``MOUSEHOLE_HOSTILE_EXAMPLES`` sets
the examples per suite, game and engine (default 60).

* **State dicts**: mutated ``to_dict()`` output of seeded games and whole values replaced by
  hostile ones (deep nesting, long lists, huge ints, floats, numpy scalars and arrays,
  tuples, subclasses, non-str keys), loaded through ``game.state_from_dict`` and through the
  engine's own ``type(state).from_dict``: both must raise ``StateError`` or both accept the
  same state, which round-trips exactly and plays on.
* **Views**: mutated seat views into ``game.determinize_view``: ``StateError`` or a state
  that shows exactly that view.
* **Maus au Chocolat histories**: an accepted ``history`` holds exactly the bids and
  combination steps that ``round``, ``phase``, ``turn`` and ``bids`` say were made.
* **``out=`` arrays** of every dtype, byte order, shape, layout (strided, reversed,
  unaligned, read-only, subclasses) and non-arrays: accepted exactly when the documented
  rule says so, then written in place with the fresh result and nothing outside it;
  otherwise ``TypeError``/``ValueError`` and the array untouched.
* **Seats and actions** of every type: the rule of ``tests/test_validation.py``.
"""

from __future__ import annotations

import array
import collections
import copy
import json
import operator
import os
import signal
import subprocess
import sys
import tempfile
from datetime import timedelta
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mousehole
from conftest import ENGINES

HERE = Path(__file__).resolve().parent
EXAMPLES = int(os.environ.get("MOUSEHOLE_HOSTILE_EXAMPLES", "60"))
TIMEOUT = 900.0  # seconds per child: a hang fails the test
NAMES = mousehole.game_names()


# ---- the isolation -------------------------------------------------------------------------


def isolated(func: str, *args: Any, module: str = "test_hostile_states", timeout: float = TIMEOUT) -> None:
    """Run ``module.func(*args)`` (JSON arguments) in a fresh interpreter with this
    environment (``MOUSEHOLE_PUREPYTHON`` included); fail naming the last case the child
    noted (:func:`note`) when it dies of a signal, hangs past ``timeout`` or exits non-zero."""
    with tempfile.TemporaryDirectory() as tmp:
        last = os.path.join(tmp, "last-case")
        env = dict(os.environ, MOUSEHOLE_HOSTILE_LAST=last, PYTHONFAULTHANDLER="1")
        code = (
            "import importlib, json, sys; sys.path.insert(0, sys.argv[1]); "
            "getattr(importlib.import_module(sys.argv[2]), sys.argv[3])(*json.loads(sys.argv[4]))"
        )
        cmd = [sys.executable, "-c", code, str(HERE), module, func, json.dumps(list(args))]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env, cwd=str(HERE))
        except subprocess.TimeoutExpired:
            pytest.fail(f"{func}{tuple(args)} hung for more than {timeout:.0f} s; last case: {_read(last)}")
        rc = proc.returncode
        if rc != 0:
            how = f"died of {signal.Signals(-rc).name}" if rc < 0 else f"failed (exit status {rc})"
            pytest.fail(
                f"{func}{tuple(args)} {how}; last case: {_read(last)}\n--- child stderr ---\n{proc.stderr[-8000:]}"
            )


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError:
        return "(none noted)"


def note(case: Any) -> None:
    """In a child: record the case about to run (what the parent reports if the child dies)."""
    path = os.environ.get("MOUSEHOLE_HOSTILE_LAST")
    if path:
        try:
            text = repr(case)
        except RecursionError:
            text = f"<a {type(case).__name__} too deep to print>"
        with open(path, "w", encoding="utf-8") as f:
            f.write(text[:4000])


def bounded(examples: int) -> Any:
    return settings(
        max_examples=examples,
        deadline=timedelta(seconds=20),
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )


# ---- hostile values ----------------------------------------------------------------------


class Deep:
    """A placeholder for ``depth`` nested lists, made only when the case runs
    (:func:`materialize`), so that hypothesis can print the case."""

    def __init__(self, depth: int) -> None:
        self.depth = depth

    def __repr__(self) -> str:
        return f"Deep({self.depth})"


def materialize(x: Any) -> Any:
    """``x`` with every :class:`Deep` replaced by its nested lists."""
    if isinstance(x, Deep):
        v: Any = 0
        for _ in range(x.depth):
            v = [v]
        return v
    if type(x) is dict:
        return {k: materialize(v) for k, v in x.items()}
    if type(x) is list:
        return [materialize(v) for v in x]
    return x


class PlainList(list):  # type: ignore[type-arg]
    """A list subclass that behaves like a list."""


HOSTILE = st.one_of(
    st.integers(min_value=1, max_value=3000).map(Deep),
    st.integers(min_value=10**4, max_value=2 * 10**5).map(lambda k: [1] * k),
    st.sampled_from([10**100, -(10**100), 2**64, 2**63, -(2**63) - 1, 2**32]),
    st.sampled_from([float("nan"), float("inf"), -0.0, 1.0, 1e308]),
    st.sampled_from([np.int64(1), np.int32(-1), np.uint64(2**64 - 1), np.float32(1.0), np.bool_(True)]),
    st.sampled_from([np.array([1, 2]), np.zeros((2, 2), np.int64), np.array(3), np.array([], np.int64)]),
    st.sampled_from(["", "x" * 10000, "\x00", "\ud800", b"bytes", bytearray(b"ba")]),
    st.sampled_from([None, {}, [], [None], [[]], [-1] * 90, (1, 2), {1: 2}, {"a": [1]}]),
    st.lists(st.integers(min_value=-(2**70), max_value=2**70), max_size=8).map(PlainList),
    st.lists(st.integers(min_value=-1, max_value=90), max_size=8).map(tuple),
    st.dictionaries(st.sampled_from(["a", 1, None]), st.integers(), max_size=3).map(collections.OrderedDict),
)


def _replace(draw: Any, d: Dict[str, Any]) -> Dict[str, Any]:
    """``d`` with one or two values (top-level or one level down) replaced by hostile ones."""
    d = copy.deepcopy(d)
    for _ in range(draw(st.integers(min_value=1, max_value=2))):
        key = draw(st.sampled_from(sorted(d)))
        box = d[key]
        if isinstance(box, list) and box and draw(st.booleans()):
            box[draw(st.integers(min_value=0, max_value=len(box) - 1))] = draw(HOSTILE)
        elif isinstance(box, dict) and box and draw(st.booleans()):
            box[draw(st.sampled_from(sorted(box)))] = draw(HOSTILE)
        elif isinstance(box, list) and draw(st.integers(0, 4)) == 0:
            d[key] = tuple(box)
        else:
            d[key] = draw(HOSTILE)
    if draw(st.integers(0, 9)) == 0:
        d[draw(st.sampled_from([1, None, ("t",), "extra"]))] = 0
    return d


@st.composite
def hostile_dicts(draw: Any, pool: List[Dict[str, Any]]) -> Dict[str, Any]:
    from test_fuzz_state_dicts import mutated  # (the mutation fuzz's strategy)

    if draw(st.booleans()):
        return draw(mutated(pool))  # type: ignore[no-any-return]
    return _replace(draw, draw(st.sampled_from(pool)))


def _games(name: str, engine: str) -> Dict[Any, Any]:
    return {n: mousehole.load(name, engine=engine, players=n) for n in (2, 4)}


def _game_for(games: Dict[Any, Any], d: Any) -> Any:
    params = d.get("params") if isinstance(d, dict) else None
    players = params.get("players") if isinstance(params, dict) else None
    return games[2] if players == 2 and type(players) is int else games[4]


# ---- child suites ---------------------------------------------------------------------------


def child_state_dicts(name: str, engine: str, examples: int) -> None:
    from test_fuzz_state_dicts import _exercise, _pool

    games = _games(name, engine)
    pool = _pool(name, engine)
    cls = type(games[4].new_state(0))

    @bounded(examples)
    @given(hostile_dicts(pool))
    def run(case: Dict[str, Any]) -> None:
        note(case)
        d = materialize(case)
        game = _game_for(games, d)
        outcomes = []
        for load in (game.state_from_dict, lambda x: cls.from_dict(game, x)):
            try:
                outcomes.append(load(d))
            except mousehole.StateError as e:
                assert str(e)
                outcomes.append(None)
        a, b = outcomes
        assert (a is None) == (b is None), "state_from_dict and the engine's from_dict disagree"
        if a is not None:
            assert a == b
            _exercise(game, a, d)

    run()


def child_views(name: str, engine: str, examples: int) -> None:
    from test_fuzz_state_dicts import _pool

    games = _games(name, engine)
    views: List[Dict[str, Any]] = []
    for d in _pool(name, engine)[::3]:
        state = _game_for(games, d).state_from_dict(d)
        views += [state.to_dict(for_player=p) for p in range(state.game.num_players)]

    @bounded(examples)
    @given(hostile_dicts(views), st.integers(min_value=0, max_value=2**64 - 1))
    def run(case: Dict[str, Any], seed: int) -> None:
        note(case)
        view = materialize(case)
        game = _game_for(games, view)
        try:
            state = game.determinize_view(view, seed)
        except mousehole.StateError as e:
            assert str(e)
            return
        assert state.to_dict(for_player=view["view"]) == view, "an accepted view must be the view it gives"
        assert state == game.state_from_dict(state.to_dict())

    run()


def child_mc_history(engine: str, examples: int) -> None:
    """MC-7, MC-10, MC-27: an accepted history holds exactly the bids and combination steps
    that the position says were made (or is empty: a position set up directly)."""
    from mousehole.maus_au_chocolat import BID, COMBINE, DECLINE, NUM_CARDS, PICK
    from test_fuzz_state_dicts import _pool

    games = _games("maus_au_chocolat", engine)
    pool = _pool("maus_au_chocolat", engine)
    actions = st.one_of(
        st.integers(min_value=0, max_value=2084), st.sampled_from([BID, PICK - 1, PICK, DECLINE, COMBINE, 2084])
    )

    @st.composite
    def histories(draw: Any) -> Tuple[Dict[str, Any], List[int]]:
        d = draw(st.sampled_from(pool))
        h = list(d["history"])
        op = draw(st.sampled_from(["random", "edit", "edit", "repeat", "zeros", "other"]))
        if op == "random":
            h = draw(st.lists(actions, max_size=60))
        elif op == "edit" and h:
            i = draw(st.integers(0, len(h) - 1))
            j = draw(st.integers(i, len(h)))
            kind = draw(st.sampled_from(["drop", "dup", "set", "insert"]))
            if kind == "drop":
                del h[i:j]
            elif kind == "dup":
                h[i:i] = h[i:j]
            elif kind == "set":
                h[i] = draw(actions)
            else:
                h.insert(i, draw(actions))
        elif op == "repeat":
            h = h + h
        elif op == "zeros":
            h = [0] * draw(st.sampled_from([1, 4, 5, 1000, 10**6]))
        else:
            h = list(draw(st.sampled_from(pool))["history"])
        return d, h

    @bounded(examples)
    @given(histories())
    def run(case: Tuple[Dict[str, Any], List[int]]) -> None:
        d, h = case
        note((d["round"], d["phase"], len(h), h[:50]))
        game = _game_for(games, d)
        try:
            state = game.state_from_dict(dict(d, history=h))
        except mousehole.StateError:
            return
        if not h:
            return
        n, rnd, phase, turn = game.num_players, d["round"], d["phase"], d["turn"]
        committed = sum(1 for b in d["bids"] if b >= 0)
        if phase == "over":
            bids, steps = rnd * n, rnd * n
        else:
            bids = (rnd - 1) * n + (committed if phase == "bid" else n)
            steps = (rnd - 1) * n + {"bid": 0, "pick": 0, "combine": turn, "discard": turn + 1}[phase]
        assert sum(1 for a in h if BID <= a < BID + NUM_CARDS) == bids, "bids in history != bids made"
        assert sum(1 for a in h if a >= DECLINE) == steps, "combination steps in history != steps made"
        assert state.history == h

    run()


#: dtypes an ``out`` array may come in
DTYPES = ["float32", ">f4", "<f4", "float64", "float16", "int32", "uint8", "bool", "object", "complex64", "int8"]
LAYOUTS = ["c", "c", "strided", "reversed", "unaligned", "readonly", "fortran", "masked", "slice"]


def _make_out(kind: str, dtype: str, shape: Tuple[int, ...], layout: str) -> Tuple[Any, Optional[Any]]:
    """An ``out`` candidate and the buffer it lives in (to check nothing outside it is written)."""
    dt = np.dtype(dtype)
    if kind == "list":
        return [0.0] * int(np.prod(shape)), None
    if kind == "bytearray":
        return bytearray(int(np.prod(shape)) * dt.itemsize), None
    if kind == "array.array":
        return array.array("f", [0.0] * int(np.prod(shape))), None
    if kind == "memoryview":
        return memoryview(bytearray(int(np.prod(shape)) * 4)).cast("B"), None
    size = int(np.prod(shape)) if shape else 1
    if layout == "unaligned":
        buf = np.full(size * dt.itemsize + 1 + 16, 0xAB, np.uint8)
        arr = buf[1 + 8 : 1 + 8 + size * dt.itemsize].view(dt) if dt.kind != "O" else np.empty(size, dt)
        return arr.reshape(shape), buf
    if layout == "strided" and shape:
        host = np.ones(shape[:-1] + (shape[-1] * 2,), dt)
        return host[..., ::2], host
    if layout == "reversed" and shape:
        host = np.ones(shape, dt)
        return host[..., ::-1], host
    if layout == "fortran":
        return np.asfortranarray(np.ones(shape, dt)), None
    if layout == "masked":
        return np.ones(shape, dt).view(np.ma.MaskedArray), None
    if layout == "slice":
        host = np.ones((3,) + shape, dt)
        return host[1], host
    arr = np.ones(shape, dt)
    if layout == "readonly":
        arr.flags.writeable = False
    return arr, None


def _accepted(out: Any, shape: Tuple[int, ...], dtype: Any) -> bool:
    """The documented rule (docs/api.md, Errors)."""
    return (
        isinstance(out, np.ndarray)
        and out.dtype == np.dtype(dtype)
        and out.dtype.isnative
        and out.shape == shape
        and out.flags.c_contiguous
        and out.flags.writeable
    )


def _snapshot(x: Any) -> Any:
    if isinstance(x, np.ndarray):
        return x.tobytes() if x.dtype != object else list(x.ravel())
    if isinstance(x, (bytearray, array.array)):
        return bytes(x)
    if isinstance(x, memoryview):
        return x.tobytes()
    return copy.copy(x)


def child_out_arrays(name: str, engine: str, examples: int) -> None:
    game = mousehole.load(name, engine=engine, players=3 if name != "m" else 2)
    states = []
    s = game.new_state(11)
    for i, _ in enumerate(iter(lambda: s.is_terminal(), True)):
        if i % 7 == 0:
            states.append(s.clone())
        legal = s.legal_actions()
        s.apply_action(int(legal[(i * 31) % len(legal)]))
    states.append(s)
    obs_shape = tuple(game.observation_shape)
    shapes = st.sampled_from(["exact", "exact", "exact", "flat", "longer", "scalar", "empty", "extra-axis"])

    def shape_of(which: str, exact: Tuple[int, ...]) -> Tuple[int, ...]:
        size = int(np.prod(exact))
        return {
            "exact": exact,
            "flat": (size,) if len(exact) > 1 else (1, size),
            "longer": exact[:-1] + (exact[-1] + 1,),
            "scalar": (),
            "empty": (0,),
            "extra-axis": (1,) + exact,
        }[which]

    @bounded(examples)
    @given(
        st.integers(0, len(states) - 1),
        st.integers(0, game.num_players - 1),
        st.booleans(),
        st.sampled_from(["ndarray"] * 6 + ["list", "bytearray", "array.array", "memoryview"]),
        st.sampled_from(DTYPES),
        shapes,
        st.sampled_from(LAYOUTS),
    )
    def run(i: int, p: int, mask: bool, kind: str, dtype: str, which: str, layout: str) -> None:
        state = states[i]
        want_shape, want_dtype = ((game.num_actions,), np.bool_) if mask else (obs_shape, np.float32)
        shape = shape_of(which, want_shape)
        note((i, p, mask, kind, dtype, shape, layout))
        out, host = _make_out(kind, dtype, shape, layout)
        before_out = _snapshot(out)
        before_host = _snapshot(host) if host is not None else None
        before = state.to_dict()
        call: Callable[[], Any] = (
            (lambda: state.legal_action_mask(out=out)) if mask else (lambda: state.observation(p, out=out))
        )
        fresh = state.legal_action_mask() if mask else state.observation(p)
        if _accepted(out, want_shape, want_dtype):
            got = call()
            assert got is out, "an accepted out array is the array returned"
            assert np.asarray(out).tobytes() == fresh.tobytes(), "out holds another result than a fresh call"
            if layout == "unaligned":  # the bytes around it are untouched
                assert host is not None and before_host is not None
                end = 9 + out.nbytes
                assert host[:9].tobytes() == before_host[:9] and host[end:].tobytes() == before_host[end:]
            elif layout == "slice":  # the neighbouring rows are untouched
                assert host is not None
                assert host[0].tobytes() == np.ones_like(host[0]).tobytes()
                assert host[2].tobytes() == np.ones_like(host[2]).tobytes()
        else:
            with pytest.raises((TypeError, ValueError)) as info:
                call()
            assert "out" in str(info.value), f"the error does not name out: {info.value}"
            assert _snapshot(out) == before_out, "a refused out array was written"
            if host is not None:
                assert _snapshot(host) == before_host
        assert state.to_dict() == before

    run()


def _is_integer(x: Any) -> bool:
    if isinstance(x, (bool, np.bool_)):
        return False
    try:
        operator.index(x)
    except TypeError:
        return False
    return True


class Index:
    def __init__(self, v: int) -> None:
        self.v = v

    def __index__(self) -> int:
        return self.v

    def __repr__(self) -> str:
        return f"Index({self.v})"


NP_INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


def _np_int(draw: Any) -> Any:
    t = draw(st.sampled_from(NP_INTS))
    info = np.iinfo(t)
    return t(draw(st.integers(min_value=max(int(info.min), -5), max_value=min(int(info.max), 3000))))


ARGS = st.one_of(
    st.integers(min_value=-5, max_value=3000),
    st.integers(min_value=-(2**80), max_value=2**80),
    st.composite(lambda draw: _np_int(draw))(),
    st.booleans(),
    st.sampled_from([np.True_, np.False_]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([np.float64(1.0), np.float32(0.0), 1.0, 0.0]),
    st.text(max_size=3),
    st.none(),
    st.integers(-2, 5).map(Index),
    st.sampled_from([Fraction(1), Decimal(1), 1 + 0j, [1], (0,), np.array([1]), np.array(2), np.array(1.0), b"1"]),
)


def child_seats_and_actions(name: str, engine: str, examples: int) -> None:
    from mousehole import render

    game = mousehole.load(name, engine=engine, players=3)
    states = []
    s = game.new_state(5)
    while not s.is_terminal() and len(states) < 12:
        states.append(s.clone())
        legal = s.legal_actions()
        s.apply_action(int(legal[len(states) * 7 % len(legal)]))
    n = game.num_players
    seat_calls: Dict[str, Tuple[str, Callable[[Any, Any], Any]]] = {
        "observation": ("player", lambda st_, p: st_.observation(p)),
        "to_dict": ("for_player", lambda st_, p: st_.to_dict(for_player=p)),
        "determinize": ("player", lambda st_, p: st_.determinize(p, 3)),
        "svg": ("for_player", lambda st_, p: render.svg(st_, for_player=p)),
    }

    @bounded(examples)
    @given(
        st.integers(0, len(states) - 1),
        st.sampled_from(sorted(seat_calls) + ["apply_action", "apply", "action_to_move", "describe"]),
        ARGS,
    )
    def run(i: int, method: str, x: Any) -> None:
        state = states[i].clone()
        note((i, method, x))
        before = state.to_dict()
        if method in seat_calls:
            what, call = seat_calls[method]
            if x is None and what == "for_player":  # no seat: the full state (an allowed value)
                call(state, x)
            elif not _is_integer(x):
                with pytest.raises(TypeError, match=f"{what} must be an int, not {type(x).__name__}"):
                    call(state, x)
            elif not 0 <= operator.index(x) < n:
                with pytest.raises(ValueError, match=f"{what} .* is out of range"):
                    call(state, x)
            else:
                got, want = call(state, x), call(state, operator.index(x))
                if isinstance(got, np.ndarray):
                    assert got.tobytes() == want.tobytes()
                elif hasattr(got, "to_dict"):
                    assert got.to_dict() == want.to_dict()
                else:
                    assert got == want
            assert state.to_dict() == before
            return
        calls = {
            "apply_action": state.apply_action,
            "apply": state.apply,
            "action_to_move": game.action_to_move,
            "describe": state.describe,
        }
        call1 = calls[method]
        if not _is_integer(x):
            text = method == "apply" and isinstance(x, str)  # a move in the notation: parse_action
            with pytest.raises(TypeError, match="state.parse_action" if text else "an action must be an int"):
                call1(x)
            assert state.to_dict() == before
            return
        a = operator.index(x)
        legal = set(int(v) for v in state.legal_actions())
        if not 0 <= a < game.num_actions:
            with pytest.raises(mousehole.IllegalMoveError, match="out of range"):
                call1(x)
        elif method in ("apply_action", "apply") and a not in legal:
            with pytest.raises(mousehole.IllegalMoveError):
                call1(x)
        elif method == "describe" and a not in legal:  # written as played now: it may not be
            try:
                call1(x)
            except mousehole.IllegalMoveError:
                pass
        else:
            call1(x)
            if method in ("apply_action", "apply"):
                ref = states[i].clone()
                ref.apply_action(a)
                assert state == ref
                return
        assert state.to_dict() == before

    run()


# ---- the tests (parents) ----------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_hostile_state_dicts(name: str, engine: str) -> None:
    isolated("child_state_dicts", name, engine, EXAMPLES)


@pytest.mark.parametrize("name", NAMES)
def test_hostile_views(name: str, engine: str) -> None:
    isolated("child_views", name, engine, EXAMPLES)


def test_maus_au_chocolat_history_matches_the_position(engine: str) -> None:
    isolated("child_mc_history", engine, 2 * EXAMPLES)


@pytest.mark.parametrize("name", NAMES)
def test_out_arrays(name: str, engine: str) -> None:
    isolated("child_out_arrays", name, engine, 2 * EXAMPLES)


@pytest.mark.parametrize("name", NAMES)
def test_seats_and_actions(name: str, engine: str) -> None:
    isolated("child_seats_and_actions", name, engine, 2 * EXAMPLES)


# ---- deterministic cases (in process: pure-Python checks) ---------------------------------------


def _mc_position(engine: str, rnd: int, seed: int = 1) -> Dict[str, Any]:
    game = mousehole.load("maus_au_chocolat", engine=engine)
    state = game.new_state(seed)
    k = 0
    while state.to_dict()["round"] < rnd or state.to_dict()["phase"] != "pick" or state.to_dict()["turn"] < 1:
        legal = state.legal_actions()
        state.apply_action(int(legal[k % len(legal)]))
        k += 1
    return state.to_dict()


def test_maus_au_chocolat_refuses_a_history_the_position_did_not_play(engine: str) -> None:
    """Issue 22: a round-3 position loaded with a history of 1,000,000 zeros. The history
    must read as the rounds played (MC-7 bids, MC-9 picks, MC-10 steps, MC-14 discards,
    MC-16 one swap a round), and hold exactly ``round - 1`` of them plus this round's part."""
    game = mousehole.load("maus_au_chocolat", engine=engine)
    d = _mc_position(engine, 3)
    assert game.state_from_dict(d).history == d["history"]
    h = d["history"]
    cases = {
        "MC-7": [0] * 1_000_000,
        "rounds played": _drop_last_round(h),
        "MC-9": h + [h[-1]],
        "MC-16": _two_swaps(h),
    }
    for rule, bad in cases.items():
        with pytest.raises(mousehole.StateError, match=rule):
            game.state_from_dict(dict(d, history=bad))
    # issue 39: an empty history is a position set up directly, which is one of round 1; a
    # round-3 position follows two rounds that its history holds
    with pytest.raises(mousehole.StateError, match="follows 2 rounds that 'history' must hold"):
        game.state_from_dict(dict(d, history=[]))


def _drop_last_round(h: List[int]) -> List[int]:
    """``h`` without its first round (up to the first action after its combination steps
    and their discards)."""
    from mousehole.maus_au_chocolat import DECLINE, PICK

    i = 0
    while h[i] < DECLINE:
        i += 1
    while h[i] >= DECLINE or PICK * 2 <= h[i] < PICK * 3:  # steps and their discards
        i += 1
    return h[i:]


def _two_swaps(h: List[int]) -> List[int]:
    from mousehole.maus_au_chocolat import SWAP

    return h[:1] + [SWAP + 1, SWAP + 2] + h[1:]


@pytest.mark.parametrize("name", NAMES)
def test_the_engine_from_dict_checks_like_state_from_dict(name: str) -> None:
    """``type(state).from_dict(game, d)`` built a compiled struct from an unchecked dict
    (a heap corruption for a 500-card pile); it now checks ``d`` as ``state_from_dict``
    does, on both engines, and refuses a game of another kind. In a child: a regression
    may crash."""
    isolated("child_engine_from_dict", name)


def child_engine_from_dict(name: str) -> None:
    for engine in ENGINES:
        game = mousehole.load(name, engine=engine)
        state = game.new_state(2)
        cls = type(state)
        d = state.to_dict()
        assert cls.from_dict(game, d) == state
        for key, value in d.items():
            if key in ("game", "params", "view"):
                continue
            bad = [10**6] * 500 if isinstance(value, list) else 2**64 if type(value) is int else [value]
            note((engine, key))
            try:
                cls.from_dict(game, dict(d, **{key: bad}))
            except mousehole.StateError:
                continue
            raise AssertionError(f"{engine}: {key}={str(bad)[:40]} was accepted")
        other = mousehole.load("kasimir" if name != "kasimir" else "m", engine=engine)
        with pytest.raises(TypeError, match="from_dict: game must be"):
            cls.from_dict(other, d)
        with pytest.raises(TypeError, match="from_dict: game must be"):
            cls.from_dict("m", d)


def test_unaligned_out_arrays_get_the_right_values() -> None:
    """An unaligned float32 ``out`` (a view into a byte buffer at an odd offset) passes the
    documented checks; the Cheese Rescue core wrote its plane fills through the C library's
    wide stores into it and left wrong values. In a child: a regression may crash."""
    isolated("child_unaligned")


def child_unaligned() -> None:
    for engine in ENGINES:
        for name in NAMES:
            game = mousehole.load(name, engine=engine)
            state = game.new_state(2)
            for _ in range(6):
                legal = state.legal_actions()
                state.apply_action(int(legal[len(legal) // 3]))
            size = int(np.prod(game.observation_shape))
            buf = bytearray(size * 4 + 9)
            out = np.frombuffer(buf, dtype=np.float32, offset=1, count=size).reshape(game.observation_shape)
            assert not out.flags.aligned and out.flags.writeable
            for p in range(game.num_players):
                note((engine, name, p))
                got = state.observation(p, out=out)
                assert got is out
                assert out.tobytes() == state.observation(p).tobytes(), (engine, name, p)
                assert buf[0] == 0 and bytes(buf[1 + size * 4 :]) == bytes(8)
