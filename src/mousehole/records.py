"""Game records: a versioned JSON format to save, share and replay a game.

A record holds the game id and parameters, where the game started (the seed it was created
from, or a full starting position), every action as an int and as a readable move, the
seats (a person's name or a bot's specification), the result and the date::

    {"format": "mousehole.record", "version": 1, "game": "cheese_rescue",
     "params": {"players": 2, ...}, "seed": 7, "start": null,
     "seats": ["alice", "mcts:1000"], "actions": [37, 12, ...], "moves": ["dog@5,5", ...],
     "result": {"returns": [1.0, -1.0], "winners": [0], "scores": [5, 2],
                "terminal": true, "truncated": false},
     "date": "2026-11-26T10:00:00+00:00", "meta": {}}

Its JSON Schema ships with the package (:data:`SCHEMA`, ``record.schema.json``).
:func:`loads` never trusts a record: it replays every action from the start, and refuses a
record whose action is illegal, whose readable move does not match its action, or whose
stated result differs from the replay's, with a :class:`RecordError` naming the move.

>>> import mousehole
>>> from mousehole import records
>>> game = mousehole.load("cheese_rescue", players=2)
>>> state = game.new_state(seed=7)
>>> for _ in range(3):
...     state.apply_action(state.legal_actions()[0])
>>> text = records.dumps(state, seats=["alice", "bob"], date="2026-11-26")
>>> rec = records.loads(text)
>>> rec.seed, len(rec.actions), rec.final_state() == state
(7, 3, True)
"""
from __future__ import annotations

import datetime
import json
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple

from mousehole._api import Game, MouseholeError, StateAPI, copy_data, load

__all__ = ["FORMAT", "VERSION", "SCHEMA", "Record", "RecordError", "dumps", "loads", "record_of"]

FORMAT = "mousehole.record"
#: the version this module writes (and the only one it reads so far)
VERSION = 1
_KEYS = ("format", "version", "game", "params", "seed", "start", "seats", "actions", "moves",
         "result", "date", "meta")


class RecordError(MouseholeError, ValueError):
    """A record that is malformed, or that does not replay to what it says."""


def _load_schema() -> Dict[str, Any]:
    text = resources.files("mousehole").joinpath("record.schema.json").read_text(encoding="utf-8")
    schema: Dict[str, Any] = json.loads(text)
    return schema


#: The JSON Schema (draft 2020-12) of a record, as shipped in the package.
SCHEMA: Dict[str, Any] = _load_schema()


@dataclass(frozen=True)
class Record:
    """A verified game record (what :func:`loads` returns; :func:`record_of` builds one)."""

    game: str
    params: Dict[str, Any]
    seed: Optional[int]
    start: Optional[Dict[str, Any]]
    seats: Tuple[str, ...]
    actions: Tuple[int, ...]
    moves: Tuple[str, ...]
    result: Dict[str, Any]
    date: Optional[str]
    meta: Dict[str, Any] = field(default_factory=dict)

    def load_game(self, *, engine: Optional[str] = None) -> "Game[Any, Any]":
        """The game of this record (on ``engine``, default: the default engine)."""
        return load(self.game, engine=engine, **self.params)

    def initial_state(self, *, engine: Optional[str] = None) -> Any:
        """The position the record starts from."""
        game = self.load_game(engine=engine)
        if self.start is not None:
            return game.state_from_dict(self.start)
        assert self.seed is not None
        return game.new_state(self.seed)

    def states(self, *, engine: Optional[str] = None) -> Iterator[Any]:
        """The start, then the position after each action (a new object each time)."""
        state = self.initial_state(engine=engine)
        yield state.clone()
        for a in self.actions:
            state.apply_action(a)
            yield state.clone()

    def final_state(self, *, engine: Optional[str] = None) -> Any:
        """The position after the last action."""
        state = self.initial_state(engine=engine)
        for a in self.actions:
            state.apply_action(a)
        return state

    def to_dict(self) -> Dict[str, Any]:
        """The record as JSON data (the format above)."""
        return {"format": FORMAT, "version": VERSION, "game": self.game,
                "params": copy_data(self.params), "seed": self.seed,
                "start": copy_data(self.start), "seats": list(self.seats),
                "actions": list(self.actions), "moves": list(self.moves),
                "result": copy_data(self.result), "date": self.date, "meta": copy_data(self.meta)}

    def dumps(self, *, indent: Optional[int] = None) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)


def _result(state: "StateAPI[Any]") -> Dict[str, Any]:
    return {"returns": [float(x) for x in state.returns()], "winners": [int(p) for p in state.winners()],
            "scores": [int(x) for x in state.scores()], "terminal": bool(state.is_terminal()),
            "truncated": bool(state.truncated)}


def record_of(state: "StateAPI[Any]", *, seats: Optional[Sequence[str]] = None,
              start: Optional["StateAPI[Any]"] = None, date: Optional[str] = "now",
              **meta: Any) -> Record:
    """The record of the game that led to ``state``.

    The game starts from the seed ``state`` was created from (``state.seed``), or from
    ``start``, an earlier position of the same game (the record then holds ``start`` in full
    and the actions played since). ``seats`` names who played each seat (default
    ``"seat 0"``, ...); ``date`` is an ISO 8601 text, ``"now"`` (the default: the current
    UTC time) or None (no date, e.g. for records that must not depend on when they were
    made); ``meta`` is any extra JSON-compatible data (an event, a round, ...)."""
    game = state.game
    n = game.num_players
    history = [int(a) for a in state.history]
    if start is not None:
        if start.game != game:
            raise RecordError(f"start is a position of {start.game!r}, not of {game!r}")
        prefix = [int(a) for a in start.history]
        if history[:len(prefix)] != prefix:
            raise RecordError("start is not an earlier position of this game (its history is not a prefix)")
        begin: Any = start.clone()
        seed: Optional[int] = None
        start_dict: Optional[Dict[str, Any]] = start.to_dict()
        actions = history[len(prefix):]
    else:
        seed = getattr(state, "seed", None)
        if seed is None:
            raise RecordError("this state does not know the seed it was created from "
                              "(it was loaded from a dict or determinized): pass start=")
        begin = game.new_state(seed)
        start_dict = None
        actions = history
    if seats is None:
        seats = [f"seat {p}" for p in range(n)]
    seats = [str(s) for s in seats]
    if len(seats) != n:
        raise RecordError(f"seats: {len(seats)} names for {n} seats")
    moves: List[str] = []
    for k, a in enumerate(actions, 1):
        moves.append(begin.describe(a))
        begin.apply_action(a)
    if begin != state:
        raise RecordError("the state's history does not replay to the state from its start")
    if date == "now":
        date = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    json.dumps(meta)  # JSON-compatible, or TypeError now rather than at dumps
    return Record(game=game.name, params=copy_data(game.params), seed=seed, start=start_dict,
                  seats=tuple(seats), actions=tuple(actions), moves=tuple(moves),
                  result=_result(state), date=date, meta=dict(meta))


def dumps(state: "StateAPI[Any]", *, seats: Optional[Sequence[str]] = None,
          start: Optional["StateAPI[Any]"] = None, date: Optional[str] = "now",
          indent: Optional[int] = None, **meta: Any) -> str:
    """The record of the game that led to ``state``, as JSON text (see :func:`record_of`)."""
    return record_of(state, seats=seats, start=start, date=date, **meta).dumps(indent=indent)


def _expect(cond: bool, msg: str) -> None:
    if not cond:
        raise RecordError(msg)


def _check_shape(d: Mapping[str, Any]) -> None:
    """The structure of a record (what the JSON Schema says), with a message per fault."""
    _expect(isinstance(d, dict), "a record is a JSON object")
    _expect(d.get("format") == FORMAT, f"not a mousehole record (format must be {FORMAT!r})")
    version = d.get("version")
    _expect(isinstance(version, int) and not isinstance(version, bool), "version must be an int")
    _expect(version == VERSION, f"record version {version} is not supported (this mousehole reads {VERSION})")
    unknown = sorted(set(d) - set(_KEYS))
    _expect(not unknown, f"unknown keys {unknown}")
    missing = [k for k in _KEYS if k not in d]
    _expect(not missing, f"missing keys {missing}")
    _expect(isinstance(d["game"], str), "game must be a string")
    _expect(isinstance(d["params"], dict), "params must be an object")
    seed, start = d["seed"], d["start"]
    _expect((seed is None) != (start is None), "exactly one of seed and start must be given")
    _expect(seed is None or (isinstance(seed, int) and not isinstance(seed, bool) and 0 <= seed < 2 ** 64),
            "seed must be an int in [0, 2**64)")
    _expect(start is None or isinstance(start, dict), "start must be a state object")
    for key in ("seats", "actions", "moves"):
        _expect(isinstance(d[key], list), f"{key} must be a list")
    _expect(all(isinstance(s, str) for s in d["seats"]), "seats must be strings")
    _expect(all(isinstance(a, int) and not isinstance(a, bool) for a in d["actions"]), "actions must be ints")
    _expect(all(isinstance(m, str) for m in d["moves"]), "moves must be strings")
    _expect(len(d["moves"]) == len(d["actions"]),
            f"{len(d['actions'])} actions but {len(d['moves'])} moves")
    _expect(isinstance(d["result"], dict), "result must be an object")
    _expect(d["date"] is None or isinstance(d["date"], str), "date must be a string or null")
    _expect(isinstance(d["meta"], dict), "meta must be an object")


def loads(text: str, *, engine: Optional[str] = None) -> Record:
    """Read a record and verify it by replaying it (on ``engine``): a RecordError names
    what is wrong, and for a bad move its number (1 for the first action)."""
    try:
        d = json.loads(text)
    except ValueError as e:
        raise RecordError(f"not JSON: {e}") from None
    _check_shape(d)
    try:
        game = load(d["game"], engine=engine, **d["params"])
    except (MouseholeError, ValueError, TypeError) as e:
        raise RecordError(f"game {d['game']!r} with params {d['params']}: {e}") from None
    _expect(len(d["seats"]) == game.num_players,
            f"seats: {len(d['seats'])} names for {game.num_players} seats")
    try:
        state: Any = game.state_from_dict(d["start"]) if d["start"] is not None else game.new_state(d["seed"])
    except MouseholeError as e:
        raise RecordError(f"start: {e}") from None
    for k, (a, move) in enumerate(zip(d["actions"], d["moves"]), 1):
        if state.is_terminal():
            raise RecordError(f"move {k} ({move!r}): the game was already over")
        legal = state.legal_actions()
        if not (0 <= a < game.num_actions) or a not in set(int(x) for x in legal):
            raise RecordError(f"move {k} ({move!r}): action {a} is not legal here")
        said = state.describe(a)
        _expect(said == move, f"move {k}: action {a} is {said!r}, but the record says {move!r}")
        state.apply_action(a)
    replayed = _result(state)
    stated = d["result"]
    for key in ("returns", "winners", "scores", "terminal", "truncated"):
        _expect(key in stated, f"result: missing {key!r}")
        _expect(stated[key] == replayed[key],
                f"result: the record says {key} {stated[key]}, the replay after move "
                f"{len(d['actions'])} gives {replayed[key]}")
    return Record(game=d["game"], params=dict(game.params), seed=d["seed"], start=d["start"],
                  seats=tuple(d["seats"]), actions=tuple(d["actions"]), moves=tuple(d["moves"]),
                  result=replayed, date=d["date"], meta=d["meta"])
