"""Game records (mousehole.records): every game writes, reads and verifies its records on both
engines; the shipped JSON Schema accepts them; a bad record is refused naming the move."""

from __future__ import annotations

import copy
import json
from typing import Any, Dict

import jsonschema
import pytest

import mousehole
from gamecases import CASES, IDS, random_walk
from mousehole import _api, records
from mousehole.records import RecordError


def schema_of(name: str) -> Dict[str, Any]:
    """The schema a record of game ``name`` is valid under: the shipped one, whose ``game`` enum
    lists the package's games (``record.schema.json``, a touch point of every game of the
    package); for a game registered from outside the package (the test suite's toy game), a
    copy with its id added to that enum and nothing else changed."""
    if name in records.SCHEMA["properties"]["game"]["enum"]:
        return records.SCHEMA
    assert not _api._REGISTRY[name].__module__.startswith("mousehole."), f"{name}: not in record.schema.json"
    schema = copy.deepcopy(records.SCHEMA)
    schema["properties"]["game"]["enum"].append(name)
    return schema


def _played(name: str, params: Dict[str, Any], engine: str, seed: int, steps: int = 10**6) -> Any:
    game = mousehole.load(name, engine=engine, **params)
    state = game.new_state(seed)
    for i, a in enumerate(random_walk(state.clone(), seed)):
        if i >= steps:
            break
        state.apply_action(a)
    return state


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_round_trip_and_schema(case: Any, engine: str) -> None:
    name, params = case
    state = _played(name, params, engine, seed=11)
    assert state.is_terminal()
    assert state.seed == 11
    text = records.dumps(
        state, seats=[f"p{i}" for i in range(state.game.num_players)], date="2026-11-26T10:00:00+00:00", event="test"
    )
    d = json.loads(text)
    jsonschema.validate(d, schema_of(name))
    assert d["actions"] == [int(a) for a in state.history]
    assert d["result"]["returns"] == state.returns()
    rec = records.loads(text, engine=engine)
    assert rec.final_state(engine=engine) == state
    assert rec.meta == {"event": "test"} and rec.seed == 11 and rec.start is None
    assert rec.dumps() == text
    # the other engine reads it the same
    other = "python" if engine == "compiled" else engine
    assert records.loads(text, engine=other).actions == rec.actions


def test_states_remember_their_seed(engine: str) -> None:
    for name in mousehole.game_names():
        game = mousehole.load(name, engine=engine)
        s = game.new_state(2**64 + 5)
        assert s.seed == 5  # seeds are taken modulo 2**64
        s.apply_action(s.legal_actions()[0])
        assert s.clone().seed == 5
        assert game.state_from_dict(s.to_dict()).seed is None
        assert s.determinize(0, 1).seed is None
        with pytest.raises(RecordError, match="seed"):
            records.dumps(game.state_from_dict(s.to_dict()))


def test_record_from_a_starting_position(engine: str) -> None:
    state = _played("m", {"players": 3}, engine, seed=5, steps=20)
    start = state.game.state_from_dict(state.to_dict())  # no seed: a position
    end = start.clone()
    for a in random_walk(end.clone(), 9):
        end.apply_action(a)
    text = records.dumps(end, start=start, date=None)
    d = json.loads(text)
    assert d["seed"] is None and d["start"] == start.to_dict()
    assert len(d["actions"]) == len(end.history) - len(start.history)
    assert records.loads(text, engine=engine).final_state(engine=engine) == end
    with pytest.raises(RecordError, match="prefix"):
        records.dumps(_played("m", {"players": 3}, engine, seed=6), start=start)


def _text(engine: str) -> str:
    state = _played("cheese_rescue", {"players": 2}, engine, seed=3)
    return records.dumps(state, date="2026-11-26")


def test_illegal_action_is_refused_naming_the_move(engine: str) -> None:
    d = json.loads(_text(engine))
    game = mousehole.load("cheese_rescue", players=2, engine=engine)
    s = game.new_state(3)
    for a in d["actions"][:4]:
        s.apply_action(a)
    illegal = next(a for a in range(game.num_actions) if a not in set(s.legal_actions().tolist()))
    d["actions"][4] = illegal
    with pytest.raises(RecordError, match=r"move 5 .*not legal"):
        records.loads(json.dumps(d), engine=engine)


def test_wrong_move_text_and_wrong_result_are_refused(engine: str) -> None:
    d = json.loads(_text(engine))
    bad = dict(d, moves=list(d["moves"]))
    bad["moves"][2] = "nonsense"
    with pytest.raises(RecordError, match="move 3: action"):
        records.loads(json.dumps(bad), engine=engine)
    bad = dict(d, result=dict(d["result"], returns=[-x for x in d["result"]["returns"]]))
    with pytest.raises(RecordError, match=r"^result\.returns: the record says \["):
        records.loads(json.dumps(bad), engine=engine)
    bad = dict(d, actions=d["actions"] + [0], moves=d["moves"] + ["x"])
    with pytest.raises(RecordError, match="already over"):
        records.loads(json.dumps(bad), engine=engine)


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d.update(version=2), "version: record version 2 is not supported"),
        (lambda d: d.update(format="pgn"), "format: not a mousehole record"),
        (lambda d: d.pop("seats"), "missing key seats"),
        (lambda d: d.update(extra=1), "unknown key 'extra'"),
        (lambda d: d.update(start={}), "seed, start: exactly one of them"),
        (lambda d: d.update(seats=["a"]), "seats: must hold 2 to 16 items, got 1"),
        (lambda d: d.update(seats=["a", "b", "c"]), "seats: 3 names for 2 seats"),
        (lambda d: d.update(moves=d["moves"][:-1]), "moves: 24 actions but 23 moves"),
        (lambda d: d.update(game="chess"), "game: unknown game id 'chess'; allowed: cheese_rescue, kasimir, m, "),
        (lambda d: d.update(seed=-1), "seed: must be from 0 to 2\\*\\*64-1, got -1"),
    ],
)
def test_malformed_records_are_refused(change: Any, message: str, engine: str) -> None:
    d = json.loads(_text(engine))
    assert len(d["actions"]) == 24
    change(d)
    with pytest.raises(RecordError, match="^" + message):
        records.loads(json.dumps(d), engine=engine)
    with pytest.raises(RecordError, match="^not JSON: "):
        records.loads("{", engine=engine)


def test_schema_rejects_what_loads_rejects() -> None:
    d = json.loads(_text("python"))
    for bad in (dict(d, version=2), dict(d, seed=None), dict(d, actions=[-1]), dict(d, extra=1)):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, records.SCHEMA)


# --------------------------------------------------------------------------------------
# the strict reader (issue 22): what the schema does not allow is refused, with a short
# message that says what is wrong first


def _bad(text: Any, engine: str = "python") -> str:
    """The RecordError message ``records.loads(text)`` raises (the test fails if it accepts)."""
    with pytest.raises(RecordError) as info:
        records.loads(text, engine=engine)
    message = str(info.value)
    assert "\n" not in message and len(message) < 200, message
    return message


@pytest.mark.parametrize(
    "edit, start",
    [
        (lambda d: d["result"].update(extra=1), "result: unknown key 'extra'"),
        (lambda d: d["result"].update(terminal=1), "result.terminal: must be true or false, got an integer (1)"),
        (lambda d: d["result"].update(truncated="false"), "result.truncated: must be true or false, got a string"),
        (lambda d: d["result"].pop("scores"), "result: missing key scores"),
        (lambda d: d["result"].update(winners=[0.0]), "result.winners[0]: must be an integer, got a number (0.0)"),
        (lambda d: d["result"].update(winners=[True]), "result.winners[0]: must be an integer, got a boolean (true)"),
        (lambda d: d["params"].update(max_turns=10**1000), "integer with more than 20 digits"),
        (
            lambda d: d["params"].update(max_turns=2_000_000),
            "params.max_turns: must be from 1 to 1,000,000, got 2000000",
        ),
        (lambda d: d["params"].update(max_turns=True), "params.max_turns: must be an integer, got a boolean"),
        (lambda d: d["params"].update(players=2.0), "params.players: must be an integer, got a number"),
        (lambda d: d.update(actions=[1.0] + d["actions"][1:]), "actions[0]: must be an integer, got a number (1.0)"),
        (lambda d: d.update(actions=[True] + d["actions"][1:]), "actions[0]: must be an integer, got a boolean"),
        (lambda d: d.update(actions=d["actions"][:-1] + [-1]), "actions[23]: must be from 0 to 2**31-1, got -1"),
        (
            lambda d: d.update(actions=[0] * 100_001, moves=["x"] * 100_001),
            "actions: too many items (100,001, at most 100,000)",
        ),
        (lambda d: d.update(seats=["x" * 201, "b"]), "seats[0]: string too long (201 characters, at most 200)"),
        (lambda d: d.update(seed=2**64), "seed: must be from 0 to 2**64-1, got 18446744073709551616"),
        (lambda d: d.update(seed=1.0), "seed: must be an integer, got a number"),
        (lambda d: d.update(date=7), "date: must be a string or null, got an integer"),
        (lambda d: d.update(meta={"x": 2**64}), "meta.x: number out of range (18446744073709551616; allowed"),
        (lambda d: d.update(meta={"k" * 1001: 1}), "meta key 'kkkk"),
        (lambda d: d.update(meta={"s": "x" * 1001}), "meta.s: string too long (1,001 characters, at most 1,000)"),
        (lambda d: d.update(meta={"a": list(range(100_001))}), "meta.a: array too long (100,001 items"),
        (lambda d: d.update(meta=[]), "meta: must be an object, got an array"),
        (lambda d: d.update(version=True), "version: must be an integer, got a boolean"),
        (lambda d: d.update(version=1.0), "version: must be an integer, got a number"),
    ],
)
def test_what_the_schema_does_not_allow_is_refused(edit: Any, start: str) -> None:
    d = json.loads(_text("python"))
    edit(d)
    assert _bad(json.dumps(d)).startswith(start)
    assert not strict_validator().is_valid(d)  # the schema refuses it too


@pytest.mark.parametrize(
    "edit, start",
    [
        (
            lambda d: d["params"].update(engine="python"),
            "params: unknown parameter 'engine' of cheese_rescue; allowed: "
            "animals, cheese_values, initial_draw, max_turns, play_area, players, ",
        ),
        (lambda d: d["params"].update(square=1), "params: cheese_rescue: square must be"),
        (lambda d: d["params"].update(players=5), "params: cheese_rescue: players must be an int from 2 to 4, got 5"),
        (lambda d: d.update(actions=d["actions"][:-1] + [2**31 - 1]), "move 24 ("),
        (lambda d: d["result"].update(winners=[0, 1, 1]), "result.winners: the record says [0, 1, 1], the replay"),
    ],
)
def test_what_the_replay_refuses_the_schema_allows(edit: Any, start: str) -> None:
    """The schema is the format; the game's parameters, the moves and the result are the
    replay's to check."""
    d = json.loads(_text("python"))
    edit(d)
    assert _bad(json.dumps(d)).startswith(start)
    assert strict_validator().is_valid(d)


def strict_validator() -> Any:
    """A validator of the shipped schema that reads JSON numbers as Python's json module
    does (and as records.loads does): ``1.0`` is a float, not an integer. (JSON Schema's
    own ``integer`` admits ``1.0``; docs/records.md says so.)"""
    checker = jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", lambda _checker, x: type(x) is int)
    cls = jsonschema.validators.extend(jsonschema.Draft202012Validator, type_checker=checker)
    return cls(records.SCHEMA)


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(records.SCHEMA)
    d = json.loads(_text("python"))
    assert strict_validator().is_valid(d)
    assert jsonschema.Draft202012Validator(records.SCHEMA).is_valid(dict(d, seed=7.0))  # JSON Schema's integer
    assert not strict_validator().is_valid(dict(d, seed=7.0))


@pytest.mark.parametrize(
    "text, start",
    [
        ('{"a": 1, "a": 2}', "duplicate key 'a' in an object"),
        ('{"format": "mousehole.record", "meta": {"x": 1, "x": 1}}', "duplicate key 'x' in an object"),
        ("[NaN]", "NaN is not a JSON number"),
        ("[Infinity]", "Infinity is not a JSON number"),
        ("[-Infinity]", "-Infinity is not a JSON number"),
        ("[1e999]", "number too large for a double ('1e999')"),
        ("[" + "9" * 5000 + "]", "integer with more than 20 digits"),
        ("[" * 33 + "]" * 33, "nested too deeply: arrays and objects at most 32 deep, got 33"),
        ('{"a":' * 100_000 + "1" + "}" * 100_000, "nested too deeply: arrays and objects at most 32 deep, got 100000"),
        ("", "not JSON: Expecting value (line 1, column 1)"),
        ("\ufeff{}", "not JSON: Unexpected UTF-8 BOM"),
        ('{"a": "\udc80"}', "not UTF-8 text: lone surrogate U+DC80 at character 7"),
        (b'{"a": "\xe9"}', "not UTF-8 text: byte 0xe9 at offset 7"),
        (b"\x00\xff\xfe\x01", "not UTF-8 text: byte 0xff at offset 1"),
        (b"\x00\x01\x02", "not JSON: Expecting value (line 1, column 1)"),
        ("[1]", "not a record: a record is a JSON object, got an array"),
        ("null", "not a record: a record is a JSON object, got null"),
        (" " * (records.MAX_BYTES + 1), "too large: a record is at most 16,777,216 bytes"),
        ("\u00e9" * (records.MAX_BYTES // 2 + 1), "too large: a record is at most 16,777,216 bytes, got 16,777,218"),
    ],
)
def test_what_is_not_json_within_the_limits_is_refused(text: Any, start: str) -> None:
    assert _bad(text).startswith(start)


def test_a_lone_surrogate_written_as_an_escape_is_refused() -> None:
    """JSON Schema sees strings, not their encoding: a lone surrogate is a text rule."""
    d = json.loads(_text("python"))
    d["seats"][0] = "\udc80"
    text = json.dumps(d)  # ensure_ascii: written as the escape \udc80
    assert "\\udc80" in text
    assert _bad(text).startswith("seats[0]: lone surrogate in a string")
    d["seats"][0] = "ok"
    d["meta"] = {"deep": [["\ud800x"]]}
    assert _bad(json.dumps(d)).startswith("meta.deep[0][0]: lone surrogate in a string")


def test_a_json_string_that_does_not_end_is_refused_quickly() -> None:
    """An unclosed string full of escaped quotes: the nesting scan stays linear."""
    message = _bad('["' + '\\"[' * 2_000_000)
    assert message.startswith("not JSON: Unterminated string")


def test_game_and_params_errors_are_short_and_name_the_key() -> None:
    d = json.loads(_text("python"))
    long_game = dict(d, game="chess" * 1000)
    assert _bad(json.dumps(long_game)).startswith("game: unknown game id 'chesschess")
    m = json.loads(records.dumps(mousehole.load("m", players=3, engine="python").new_state(2), date=None))
    m["params"]["cards"] = [["red", 99, "star"]] * 90  # a table that goes on for KBs
    assert len(json.dumps(m["params"])) > 2000
    assert _bad(json.dumps(m)).startswith("params: m: ")
    m["params"]["cards"] = "x" * 1000
    assert _bad(json.dumps(m)).startswith("params: m: ")


def test_loads_takes_utf8_bytes_and_refuses_other_types(engine: str) -> None:
    text = _text(engine)
    assert records.loads(text.encode("utf-8"), engine=engine) == records.loads(text, engine=engine)
    with pytest.raises(TypeError, match="a record is JSON text"):
        records.loads(json.loads(text), engine=engine)  # type: ignore[arg-type]
    with pytest.raises(mousehole.ParameterError):
        records.loads(text, engine="fast")


def test_control_characters_in_names_read_back_and_what_is_written_reads_back(engine: str) -> None:
    state = _played("kasimir", {"players": 2}, engine, seed=4, steps=6)
    text = records.dumps(state, seats=["\x1b[31mred\x1b[0m", "tab\there"], date=None, note="line\nbreak")
    assert records.loads(text, engine=engine).seats == ("\x1b[31mred\x1b[0m", "tab\there")
    with pytest.raises(RecordError, match=r"^seats\[0\]: string too long"):
        records.dumps(state, seats=["x" * 201, "b"])
    with pytest.raises(RecordError, match=r"^seats\[1\]: lone surrogate"):
        records.dumps(state, seats=["a", "\udcff"])
    with pytest.raises(RecordError, match=r"^meta: not JSON data"):
        records.dumps(state, when=float("nan"))
    with pytest.raises(RecordError, match=r"^meta\.big: number out of range"):
        records.dumps(state, big=10**30)


def test_max_turns_has_one_bound_in_load_and_in_records() -> None:
    """Issue 39: ``load`` refuses what a record cannot hold (it accepted max_turns above
    records.MAX_TURNS, and a record of such a game failed only when written); at the bound,
    a game records and reads back."""
    with pytest.raises(mousehole.ParameterError, match=r"max_turns must be an int from 1 to 1,000,000, got 1000001"):
        mousehole.load("kasimir", players=2, engine="python", max_turns=records.MAX_TURNS + 1)
    state = mousehole.load("kasimir", players=2, engine="python", max_turns=records.MAX_TURNS).new_state(1)
    state.apply_action(int(state.legal_actions()[0]))
    assert records.loads(records.dumps(state)).final_state(engine="python") == state


def test_the_schema_states_the_module_limits() -> None:
    s = records.SCHEMA
    props = s["properties"]
    assert props["game"]["enum"] == mousehole.game_names()
    assert props["actions"]["maxItems"] == props["moves"]["maxItems"] == records.MAX_ACTIONS
    assert props["actions"]["items"]["maximum"] == records.MAX_ACTION
    assert props["seats"]["maxItems"] == records.MAX_SEATS
    assert props["seats"]["items"]["maxLength"] == props["moves"]["items"]["maxLength"] == records.MAX_TEXT
    assert props["date"]["maxLength"] == records.MAX_TEXT
    assert props["params"]["properties"]["max_turns"]["maximum"] == records.MAX_TURNS
    assert props["params"]["properties"]["players"]["maximum"] == records.MAX_SEATS
    data = s["$defs"]["data"]
    assert (data["minimum"], data["maximum"]) == (records.MIN_NUMBER, records.MAX_NUMBER)
    assert data["maxLength"] == data["propertyNames"]["maxLength"] == records.MAX_STRING
    assert data["maxItems"] == records.MAX_ITEMS and data["maxProperties"] == records.MAX_KEYS
    assert props["seed"]["oneOf"][0]["maximum"] == records.MAX_NUMBER
    assert "16 MiB" in s["description"] and records.MAX_BYTES == 16 * 2**20
    assert "32 deep" in s["description"] and records.MAX_DEPTH == 32
