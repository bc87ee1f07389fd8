"""Game records (mousehole.records): every game writes, reads and verifies its records on both
engines; the shipped JSON Schema accepts them; a bad record is refused naming the move."""
from __future__ import annotations

import json
from typing import Any, Dict

import jsonschema
import pytest

import mousehole
from gamecases import CASES, IDS, random_walk
from mousehole import records
from mousehole.records import RecordError


def _played(name: str, params: Dict[str, Any], engine: str, seed: int, steps: int = 10 ** 6) -> Any:
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
    text = records.dumps(state, seats=[f"p{i}" for i in range(state.game.num_players)],
                         date="2026-11-26T10:00:00+00:00", event="test")
    d = json.loads(text)
    jsonschema.validate(d, records.SCHEMA)
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
        s = game.new_state(2 ** 64 + 5)
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
    with pytest.raises(RecordError, match="result: the record says returns"):
        records.loads(json.dumps(bad), engine=engine)
    bad = dict(d, actions=d["actions"] + [0], moves=d["moves"] + ["x"])
    with pytest.raises(RecordError, match="already over"):
        records.loads(json.dumps(bad), engine=engine)


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(version=2), "version 2 is not supported"),
    (lambda d: d.update(format="pgn"), "not a mousehole record"),
    (lambda d: d.pop("seats"), "missing keys"),
    (lambda d: d.update(extra=1), "unknown keys"),
    (lambda d: d.update(start={}), "exactly one of seed and start"),
    (lambda d: d.update(seats=["a"]), "seats: 1 names for 2 seats"),
    (lambda d: d.update(moves=d["moves"][:-1]), "actions but"),
    (lambda d: d.update(game="chess"), "game 'chess'"),
    (lambda d: d.update(seed=-1), "seed must be"),
])
def test_malformed_records_are_refused(change: Any, message: str, engine: str) -> None:
    d = json.loads(_text(engine))
    change(d)
    with pytest.raises(RecordError, match=message):
        records.loads(json.dumps(d), engine=engine)
    with pytest.raises(RecordError, match="not JSON"):
        records.loads("{", engine=engine)


def test_schema_rejects_what_loads_rejects() -> None:
    d = json.loads(_text("python"))
    for bad in (dict(d, version=2), dict(d, seed=None), dict(d, actions=[-1]), dict(d, extra=1)):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, records.SCHEMA)
