"""Hostile game records (issue 22, items 4-6): ``records.loads`` accepts exactly what
``record.schema.json`` allows and refuses everything else with a ``RecordError`` whose
message is one line of under 200 characters, on both engines, whatever the input.

* the schema and the reader agree on a corpus of hand-written and hypothesis-generated
  records (valid ones, and ones with a value replaced, a key dropped or added);
* mutated texts and bytes (cut, spliced, bytes flipped) never raise anything else;
* inputs that could kill an interpreter (nesting 10**6 deep, 20 MB of text, an unclosed
  string of escaped quotes) are read in a child process with a timeout, so that a
  regression fails a test instead of ending the run.

Hypothesis runs are bounded (``max_examples``, no deadline) and deterministic
(``derandomize=True``, no example database).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from functools import lru_cache
from typing import Any, Callable, Dict, List, Tuple

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mousehole
from gamecases import random_walk
from mousehole import records
from mousehole.records import RecordError

ENGINES = mousehole.available_engines()


def bounded(n: int) -> Any:
    """Hypothesis settings: ``n`` examples, no deadline, the same examples every run."""
    return settings(
        max_examples=n, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck)
    )


def strict_validator() -> Any:
    """The shipped schema, reading JSON numbers as Python's json module (and the reader)
    does: ``1.0`` is a float, not an integer."""
    checker = jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", lambda _c, x: type(x) is int)
    cls = jsonschema.validators.extend(jsonschema.Draft202012Validator, type_checker=checker)
    return cls(records.SCHEMA)


VALIDATOR = strict_validator()


@lru_cache(maxsize=None)
def _record_text(name: str, players: int, seed: int, steps: int, from_start: bool) -> str:
    """A record of ``steps`` random actions of a seeded game (the reference engine writes it)."""
    game = mousehole.load(name, players=players, engine="python")
    state = game.new_state(seed)
    start = None
    if from_start:
        for a in random_walk(state.clone(), seed + 1):
            state.apply_action(a)
            if len(state.history) >= 3:
                break
        start = game.state_from_dict(state.to_dict())
        state = start.clone()
    for i, a in enumerate(random_walk(state.clone(), seed)):
        if i >= steps:
            break
        state.apply_action(a)
    return records.dumps(state, start=start, seats=[f"p{i}" for i in range(players)], date=None, event="test")


POOL: List[Tuple[str, int, int, int, bool]] = [
    ("cheese_rescue", 2, 3, 10, False),
    ("kasimir", 2, 4, 8, False),
    ("m", 3, 5, 8, False),
    ("maus_au_chocolat", 3, 6, 10, False),
    ("m", 2, 7, 5, True),
]


def _pool(k: int) -> Dict[str, Any]:
    return json.loads(_record_text(*POOL[k]))  # type: ignore[no-any-return]


def _schema_ok(d: Any) -> bool:
    return bool(VALIDATOR.is_valid(d))


def _reader_ok(d: Any) -> bool:
    """The reader's schema stage (records.loads before the replay) accepts ``d``."""
    try:
        records._check_record(d)
    except RecordError as e:
        _short(e)
        return False
    return True


def _short(e: RecordError) -> str:
    message = str(e)
    assert message and "\n" not in message and "\r" not in message and len(message) < 200, message
    assert message.isprintable(), message
    return message


# --------------------------------------------------------------------------------------
# values and mutations


BOUNDARY_INTS = [
    0,
    1,
    -1,
    2,
    15,
    16,
    17,
    2**31 - 1,
    2**31,
    2**63 - 1,
    2**63,
    -(2**63),
    -(2**63) - 1,
    2**64 - 1,
    2**64,
    10**20,
    1_000_000,
    1_000_001,
    100_000,
]
BOUNDARY_TEXTS = [
    "",
    "x" * 200,
    "x" * 201,
    "y" * 1000,
    "y" * 1001,
    "\x1b[2J",
    "line\nbreak",
    "\x00",
    "\u2028",
    "mousehole.record",
    "m",
    "kasimir",
    "p0",
    "é",
    "🐭",
]
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.sampled_from(BOUNDARY_INTS),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([0.0, 1.0, -1.0, 2.0, 1e19, 1e300]),
    st.text(max_size=6),
    st.sampled_from(BOUNDARY_TEXTS),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)
KEYS = st.one_of(
    st.sampled_from(list(records._KEYS) + list(records._RESULT_KEYS) + ["players", "max_turns", "extra", "engine", ""]),
    st.text(max_size=5),
)


def _places(d: Dict[str, Any]) -> List[Tuple[Any, Any]]:
    """(container, key) pairs of a record that a mutation may change."""
    out: List[Tuple[Any, Any]] = [(d, k) for k in d]
    for name in ("result", "params", "meta", "start"):
        if isinstance(d.get(name), dict):
            out += [(d[name], k) for k in list(d[name])[:12]]
    for name in ("seats", "actions", "moves"):
        if isinstance(d.get(name), list) and d[name]:
            out += [(d[name], 0), (d[name], len(d[name]) - 1)]
    if isinstance(d.get("result"), dict):
        for name in ("returns", "winners", "scores"):
            if isinstance(d["result"].get(name), list) and d["result"][name]:
                out.append((d["result"][name], 0))
    return out


@st.composite
def mutated_records(draw: Any) -> Dict[str, Any]:
    """A pool record with 0 to 3 values replaced, keys dropped or keys added."""
    d = _pool(draw(st.integers(0, len(POOL) - 1)))
    for _ in range(draw(st.integers(0, 3))):
        places = _places(d)
        container, key = places[draw(st.integers(0, len(places) - 1))]
        how = draw(st.sampled_from(["set", "set", "set", "drop", "add"]))
        if how == "set":
            container[key] = draw(VALUES)
        elif how == "drop":
            if isinstance(container, dict):
                del container[key]
            else:
                container.pop(key)
        elif isinstance(container, dict):
            container[draw(KEYS)] = draw(VALUES)
        else:
            container.append(draw(VALUES))
    return d


# --------------------------------------------------------------------------------------
# the schema and the reader agree


#: hand-written records: (name, edit of a pool record)
CORPUS: List[Tuple[str, Callable[[Dict[str, Any]], Any]]] = [
    ("as written", lambda d: None),
    ("seed 2**64-1", lambda d: d.update(seed=2**64 - 1) if d["seed"] is not None else None),
    ("seed 2**64", lambda d: d.update(seed=2**64, start=None)),
    ("seed 1.0", lambda d: d.update(seed=1.0, start=None)),
    ("seed true", lambda d: d.update(seed=True, start=None)),
    ("seed and start", lambda d: d.update(seed=1, start={})),
    ("neither seed nor start", lambda d: d.update(seed=None, start=None)),
    ("start a list", lambda d: d.update(seed=None, start=[])),
    ("max_turns 10**6", lambda d: d["params"].update(max_turns=10**6)),
    ("max_turns 10**6 + 1", lambda d: d["params"].update(max_turns=10**6 + 1)),
    ("max_turns 0", lambda d: d["params"].update(max_turns=0)),
    ("max_turns '5'", lambda d: d["params"].update(max_turns="5")),
    ("players 16", lambda d: d["params"].update(players=16)),
    ("players 17", lambda d: d["params"].update(players=17)),
    ("params unknown name", lambda d: d["params"].update(wizard=1)),
    ("params a list", lambda d: d.update(params=[])),
    ("terminal 1", lambda d: d["result"].update(terminal=1)),
    ("truncated null", lambda d: d["result"].update(truncated=None)),
    ("result extra key", lambda d: d["result"].update(extra=True)),
    ("result missing key", lambda d: d["result"].pop("returns")),
    ("returns strings", lambda d: d["result"].update(returns=["1"])),
    ("returns 17 items", lambda d: d["result"].update(returns=[0.0] * 17)),
    ("winners 16", lambda d: d["result"].update(winners=[16])),
    ("winners 15", lambda d: d["result"].update(winners=[15])),
    ("scores 1.5", lambda d: d["result"].update(scores=[1.5])),
    ("scores -2**63", lambda d: d["result"].update(scores=[-(2**63)])),
    ("scores -2**63-1", lambda d: d["result"].update(scores=[-(2**63) - 1])),
    ("seats 200 characters", lambda d: d["seats"].__setitem__(0, "s" * 200)),
    ("seats 201 characters", lambda d: d["seats"].__setitem__(0, "s" * 201)),
    ("seats one", lambda d: d.update(seats=["solo"])),
    ("seats 17", lambda d: d.update(seats=["s"] * 17)),
    ("seats a number", lambda d: d["seats"].__setitem__(0, 7)),
    ("seat with control characters", lambda d: d["seats"].__setitem__(0, "\x1b[31m\r\n")),
    ("action 2**31-1", lambda d: d["actions"].__setitem__(0, 2**31 - 1)),
    ("action 2**31", lambda d: d["actions"].__setitem__(0, 2**31)),
    ("action -1", lambda d: d["actions"].__setitem__(0, -1)),
    ("action 3.0", lambda d: d["actions"].__setitem__(0, 3.0)),
    ("action false", lambda d: d["actions"].__setitem__(0, False)),
    ("100,000 actions", lambda d: d.update(actions=[0] * 100_000, moves=["m"] * 100_000)),
    ("100,001 actions", lambda d: d.update(actions=[0] * 100_001, moves=["m"] * 100_000)),
    ("100,001 moves", lambda d: d.update(moves=["m"] * 100_001)),
    ("move 201 characters", lambda d: d["moves"].__setitem__(0, "m" * 201)),
    ("date a number", lambda d: d.update(date=2026)),
    ("date 201 characters", lambda d: d.update(date="d" * 201)),
    ("meta nested data", lambda d: d.update(meta={"a": [1, 2.5, None, True, {"b": "c" * 1000}]})),
    ("meta 1001 characters", lambda d: d.update(meta={"a": "c" * 1001})),
    ("meta key 1001 characters", lambda d: d.update(meta={"k" * 1001: 0})),
    ("meta 1000 keys", lambda d: d.update(meta={str(i): i for i in range(1000)})),
    ("meta 1001 keys", lambda d: d.update(meta={str(i): i for i in range(1001)})),
    ("meta float 1e300", lambda d: d.update(meta={"x": 1e300})),
    ("meta float 1.8e19", lambda d: d.update(meta={"x": 1.8e19})),
    ("meta 100,001 items", lambda d: d.update(meta={"x": [0] * 100_001})),
    ("meta null", lambda d: d.update(meta=None)),
    ("format other", lambda d: d.update(format="mousehole.recording")),
    ("version 1.0", lambda d: d.update(version=1.0)),
    ("version 2", lambda d: d.update(version=2)),
    ("game unknown", lambda d: d.update(game="chess")),
    ("game a number", lambda d: d.update(game=1)),
    ("an extra key", lambda d: d.update(extra=None)),
    ("a missing key", lambda d: d.pop("date")),
]


#: the corpus on every pool record, the large cases (seconds of jsonschema each) on one
CASES = [
    (name, edit, k)
    for name, edit in CORPUS
    for k in range(len(POOL))
    if k == 0 or not ("100,00" in name or "1000 keys" in name or "1001 keys" in name)
]


@pytest.mark.parametrize("name, edit, k", CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_schema_and_reader_agree_on_the_hand_written_corpus(name: str, edit: Any, k: int) -> None:
    d = _pool(k)
    edit(d)
    assert _schema_ok(d) == _reader_ok(d), name


@pytest.mark.parametrize(
    "name, valid",
    [
        ("as written", True),
        ("seed 2**64", False),
        ("max_turns 10**6", True),
        ("max_turns 10**6 + 1", False),
        ("terminal 1", False),
        ("result extra key", False),
        ("seats 200 characters", True),
        ("seats 201 characters", False),
        ("action 3.0", False),
        ("100,000 actions", True),
        ("100,001 actions", False),
        ("meta 1000 keys", True),
        ("meta 1001 keys", False),
        ("seat with control characters", True),
        ("params unknown name", True),
        ("version 1.0", False),
    ],
)
def test_the_corpus_holds_both_verdicts(name: str, valid: bool) -> None:
    d = _pool(0)
    dict(CORPUS)[name](d)
    assert _schema_ok(d) is valid and _reader_ok(d) is valid


@bounded(200)
@given(mutated_records())
def test_schema_and_reader_agree_on_generated_records(d: Dict[str, Any]) -> None:
    assert _schema_ok(d) == _reader_ok(d)


# --------------------------------------------------------------------------------------
# loads: a Record or one short RecordError, on both engines


def _loads_or_error(text: Any, engine: str) -> Any:
    """The Record, or None after checking the RecordError's message; any other exception
    fails the test."""
    try:
        return records.loads(text, engine=engine)
    except RecordError as e:
        _short(e)
        return None


@pytest.mark.parametrize("engine", ENGINES)
@bounded(80)
@given(d=mutated_records())
def test_loads_of_generated_records(engine: str, d: Dict[str, Any]) -> None:
    text = json.dumps(d, ensure_ascii=False)
    rec = _loads_or_error(text, engine)
    if rec is None:
        return
    # accepted: the schema allows it, and it reads back to the same record
    assert _schema_ok(d)
    assert records.loads(rec.dumps(), engine=engine) == rec
    assert rec.actions == tuple(d["actions"]) and rec.seats == tuple(d["seats"])
    assert rec.result == {k: d["result"][k] for k in records._RESULT_KEYS}


@st.composite
def mutated_bytes(draw: Any) -> bytes:
    """A pool record's UTF-8 text, cut, spliced, with bytes replaced or a key repeated."""
    data = bytearray(_record_text(*POOL[draw(st.integers(0, len(POOL) - 1))]).encode("utf-8"))
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(data)))
        how = draw(st.sampled_from(["cut", "insert", "replace", "repeat key", "truncate"]))
        if how == "cut":
            del data[i : i + draw(st.integers(1, 8))]
        elif how == "insert":
            data[i:i] = draw(
                st.one_of(
                    st.binary(max_size=6),
                    st.sampled_from(
                        [
                            b"[",
                            b"{",
                            b"]",
                            b"}",
                            b",",
                            b'"',
                            b"\\",
                            b"NaN",
                            b"-Infinity",
                            b"1e999",
                            b"\\ud800",
                            b"\xff",
                            b"\xc3",
                            b"\x00",
                            b"[" * 40,
                            b"9" * 30,
                            b".0",
                            b"\xef\xbb\xbf",
                        ]
                    ),
                )
            )
        elif how == "replace" and i < len(data):
            data[i] = draw(st.integers(0, 255))
        elif how == "repeat key":
            data[1:1] = b'"seed": 1, '
        elif how == "truncate":
            del data[i:]
    return bytes(data)


@pytest.mark.parametrize("engine", ENGINES)
@bounded(150)
@given(data=mutated_bytes())
def test_loads_of_mutated_bytes(engine: str, data: bytes) -> None:
    rec = _loads_or_error(data, engine)
    if rec is not None:
        assert _schema_ok(json.loads(data.decode("utf-8")))
        assert records.loads(rec.dumps(), engine=engine) == rec
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return
    # the same verdict on the text as on its bytes
    again = _loads_or_error(text, engine)
    assert (again is None) == (rec is None)


def test_nesting_up_to_the_limit_is_read_and_beyond_it_refused() -> None:
    d = _pool(1)
    deep: Any = 1
    for _ in range(records.MAX_DEPTH - 2):  # the record is depth 1, meta depth 2
        deep = [deep]
    d["meta"] = {"deep": deep}
    assert records.loads(json.dumps(d), engine="python").meta == d["meta"]
    assert _schema_ok(d)
    d["meta"] = {"deep": [deep]}
    with pytest.raises(RecordError, match=r"^nested too deeply: arrays and objects at most 32 deep, got 33$"):
        records.loads(json.dumps(d), engine="python")
    with pytest.raises(RecordError, match=r"^meta\.deep" + r"\[0\]" * 30 + r": nested too deeply"):
        records._check_record(d)  # the data check says the same where the text is not seen


# --------------------------------------------------------------------------------------
# inputs that could kill an interpreter: in a child process, with a timeout


_CHILD = """
import sys
from mousehole import records
data = open(sys.argv[1], "rb").read()
for kind in ("bytes", "text"):
    if kind == "text":
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            break
    try:
        records.loads(data, engine="python")
    except records.RecordError as e:
        print(kind, "RecordError", str(e))
    else:
        print(kind, "accepted")
"""


def _in_child(tmp_path: Any, payload: bytes) -> List[str]:
    path = tmp_path / "payload.json"
    path.write_bytes(payload)
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, PYTHONIOENCODING="utf-8"),
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr[-2000:]
    return done.stdout.splitlines()


@pytest.mark.parametrize(
    "payload, message",
    [
        (b"[" * 1_000_000 + b"]" * 1_000_000, "nested too deeply: arrays and objects at most 32 deep, got 1000000"),
        (b'{"a":' * 300_000 + b"0" + b"}" * 300_000, "nested too deeply"),
        (b"[" * 1_000_000, "nested too deeply"),
        (b'["' + b'\\"[' * 3_000_000, "not JSON: Unterminated string starting at"),
        (b" " * (20 * 2**20), "too large: a record is at most 16,777,216 bytes, got 20,971,520"),
        (b"[" + b"9" * 1_000_000 + b"]", "integer with more than 20 digits"),
        (b"[1" + b"0" * 400 + b"e-400]", None),  # a long float literal is fine JSON; not a record
        (b"\x00" * 1_000_000, "not JSON: Expecting value (line 1, column 1)"),
        (b"\xff" * 1_000, "not UTF-8 text: byte 0xff at offset 0"),
    ],
    ids=[
        "deep-arrays",
        "deep-objects",
        "unclosed-arrays",
        "unterminated-string",
        "20-MiB-of-spaces",
        "million-digit-integer",
        "long-float",
        "nul-bytes",
        "not-utf8",
    ],
)
# (short ids: a payload as its own id would put megabytes into PYTEST_CURRENT_TEST, which the
# child process inherits: "Argument list too long")
def test_extreme_inputs_in_a_child_process(tmp_path: Any, payload: bytes, message: Any) -> None:
    lines = _in_child(tmp_path, payload)
    assert lines and all(line.split(" ", 2)[1] == "RecordError" for line in lines), lines
    for line in lines:
        assert len(line.split(" ", 2)[2]) < 200
        if message is not None:
            assert line.split(" ", 2)[2].startswith(message), line
