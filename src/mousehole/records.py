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

:func:`loads` is a strict reader. It reads a record in three stages, and the first fault
found is a :class:`RecordError` whose message (one line, under 200 characters) says what is
wrong first and where:

1. **the text**: at most :data:`MAX_BYTES` bytes of UTF-8 (no lone surrogate), one JSON
   value in standard JSON (no ``NaN`` or ``Infinity``, no key twice in an object), arrays
   and objects nested at most :data:`MAX_DEPTH` deep, integers of at most 20 digits;
2. **the schema**: exactly what ``record.schema.json`` allows, with its limits
   (:data:`MAX_ACTIONS` actions, :data:`MAX_SEATS` seats, strings of at most
   :data:`MAX_TEXT` or :data:`MAX_STRING` characters, every number from -2**63 to
   2**64 - 1, ``params.max_turns`` at most :data:`MAX_TURNS`, ...), reading JSON numbers
   as Python's :mod:`json` does: ``1.0`` is a float, never an int (JSON Schema's
   ``integer`` also admits ``1.0``; the reader does not);
3. **the replay**: the parameters are the game's (:func:`mousehole.load` accepts them),
   one seat name per seat and one move per action, and every action replayed from the start
   is legal, its readable move is what the record says and the result is the replay's.

:func:`record_of` and :func:`dumps` check what they write the same way, so every record
they make reads back.

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
import re
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Dict, Iterator, List, NoReturn, Optional, Sequence, Tuple, Union

from mousehole import _values
from mousehole._api import _REGISTRY, Game, MouseholeError, StateAPI, available_engines, copy_data, game_names, load
from mousehole._values import MAX_DEPTH, MAX_ITEMS, MAX_KEYS, MAX_NUMBER, MAX_STRING, MAX_TEXT, MAX_TURNS, MIN_NUMBER

__all__ = [
    "FORMAT",
    "VERSION",
    "SCHEMA",
    "Record",
    "RecordError",
    "dumps",
    "loads",
    "record_of",
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_ACTIONS",
    "MAX_ACTION",
    "MAX_SEATS",
    "MAX_TEXT",
    "MAX_STRING",
    "MAX_ITEMS",
    "MAX_KEYS",
    "MAX_TURNS",
    "MIN_NUMBER",
    "MAX_NUMBER",
]

FORMAT = "mousehole.record"
#: the version this module writes (and the only one it reads so far)
VERSION = 1
_KEYS = ("format", "version", "game", "params", "seed", "start", "seats", "actions", "moves", "result", "date", "meta")
_RESULT_KEYS = ("returns", "winners", "scores", "terminal", "truncated")

# The limits of a record (record.schema.json states the same numbers; docs/records.md lists them).
# Those a game's parameters share with mousehole.load come from mousehole._values (docs/api.md,
# Bounds): MAX_DEPTH (the deepest nesting, the record object itself being depth 1), MAX_TEXT
# (a seat name, a move or the date), MAX_STRING (any other string: params, start, meta),
# MAX_ITEMS (an array of params, start and meta), MAX_KEYS (an object's keys), MAX_TURNS (the
# largest params.max_turns) and the range of every number, MIN_NUMBER to MAX_NUMBER.
#: the most bytes of a record's JSON text (UTF-8)
MAX_BYTES = 16 * 2**20
#: the most actions (and moves) of a record
MAX_ACTIONS = MAX_ITEMS
#: the largest action (the games' action spaces are far smaller; legality is the replay's)
MAX_ACTION = 2**31 - 1
#: the most seats (and entries of ``result.returns``, ``winners``, ``scores``)
MAX_SEATS = 16
_RANGE = "-2**63 to 2**64-1"


class RecordError(MouseholeError, ValueError):
    """A record that is malformed, or that does not replay to what it says. The message is
    one line of under 200 characters that starts with what is wrong."""


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
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "params": copy_data(self.params),
            "seed": self.seed,
            "start": copy_data(self.start),
            "seats": list(self.seats),
            "actions": list(self.actions),
            "moves": list(self.moves),
            "result": copy_data(self.result),
            "date": self.date,
            "meta": copy_data(self.meta),
        }

    def dumps(self, *, indent: Optional[int] = None) -> str:
        """The record as JSON text (what :func:`loads` reads)."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)


def _result(state: "StateAPI[Any]") -> Dict[str, Any]:
    return {
        "returns": [float(x) for x in state.returns()],
        "winners": [int(p) for p in state.winners()],
        "scores": [int(x) for x in state.scores()],
        "terminal": bool(state.is_terminal()),
        "truncated": bool(state.truncated),
    }


def record_of(
    state: "StateAPI[Any]",
    *,
    seats: Optional[Sequence[str]] = None,
    start: Optional["StateAPI[Any]"] = None,
    date: Optional[str] = "now",
    **meta: Any,
) -> Record:
    """The record of the game that led to ``state``.

    The game starts from the seed ``state`` was created from (``state.seed``), or from
    ``start``, an earlier position of the same game (the record then holds ``start`` in full
    and the actions played since). ``seats`` names who played each seat (default
    ``"seat 0"``, ...); ``date`` is an ISO 8601 text, ``"now"`` (the default: the current
    UTC time) or None (no date, e.g. for records that must not depend on when they were
    made); ``meta`` is any extra JSON-compatible data (an event, a round, ...).

    The record is checked as :func:`loads` checks a record's text and schema (its limits
    included): a :class:`RecordError` says what would not read back."""
    game = state.game
    n = game.num_players
    history = [int(a) for a in state.history]
    if start is not None:
        if start.game != game:
            raise RecordError(_clip(f"start is a position of {start.game!r}, not of {game!r}"))
        prefix = [int(a) for a in start.history]
        if history[: len(prefix)] != prefix:
            raise RecordError("start is not an earlier position of this game (its history is not a prefix)")
        begin: Any = start.clone()
        seed: Optional[int] = None
        start_dict: Optional[Dict[str, Any]] = start.to_dict()
        actions = history[len(prefix) :]
    else:
        seed = getattr(state, "seed", None)
        if seed is None:
            raise RecordError(
                "this state does not know the seed it was created from "
                "(it was loaded from a dict or determinized): pass start="
            )
        begin = game.new_state(seed)
        start_dict = None
        actions = history
    if len(actions) > MAX_ACTIONS:
        raise RecordError(f"actions: too many ({len(actions):,}; a record holds at most {MAX_ACTIONS:,})")
    names = _seat_names(seats, n)
    moves: List[str] = []
    for a in actions:
        moves.append(begin.describe(a))
        begin.apply_action(a)
    if begin != state:
        raise RecordError("the state's history does not replay to the state from its start")
    if date == "now":
        date = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    try:
        json.dumps(meta, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as e:
        raise RecordError(_clip(f"meta: not JSON data: {e}")) from None
    rec = Record(
        game=game.name,
        params=copy_data(game.params),
        seed=seed,
        start=start_dict,
        seats=tuple(names),
        actions=tuple(actions),
        moves=tuple(moves),
        result=_result(state),
        date=date,
        meta=dict(meta),
    )
    # What is written must read back: the schema's checks (and its limits) as loads makes
    # them, on the data as JSON gives it back (tuples as lists), then the size of the text.
    _check_record(json.loads(json.dumps(rec.to_dict())))
    size = len(rec.dumps().encode("utf-8"))
    if size > MAX_BYTES:
        _fail(f"too large: a record is at most {MAX_BYTES:,} bytes, this one would be {size:,}")
    return rec


def _seat_names(seats: Any, n: int) -> List[str]:
    """``seats`` (None: ``"seat 0"``, ...) as ``n`` seat names, each an exact ``str`` (a numpy
    str or a str subclass is read as the str it holds; a bool, a number or a str given for
    the whole list is refused, not turned into names)."""
    if seats is None:
        return [f"seat {p}" for p in range(n)]
    if isinstance(seats, (str, bytes, bytearray)) or not isinstance(seats, (list, tuple)):
        raise RecordError(
            _clip(f"seats: a list of {n} seat names (str), not {type(seats).__name__} {_values.shorten(seats, 40)}")
        )
    if len(seats) != n:
        raise RecordError(f"seats: {len(seats)} names for {n} seats")
    names = [_values.exact(s) for s in seats]
    for p, name in enumerate(names):
        if type(name) is not str:
            raise RecordError(
                _clip(
                    f"seats[{p}]: a seat name is a str, not {type(seats[p]).__name__} ({_values.shorten(seats[p], 40)})"
                )
            )
    return names


def dumps(
    state: "StateAPI[Any]",
    *,
    seats: Optional[Sequence[str]] = None,
    start: Optional["StateAPI[Any]"] = None,
    date: Optional[str] = "now",
    indent: Optional[int] = None,
    **meta: Any,
) -> str:
    """The record of the game that led to ``state``, as JSON text (see :func:`record_of`)."""
    return record_of(state, seats=seats, start=start, date=date, **meta).dumps(indent=indent)


# --------------------------------------------------------------------------------------
# messages


def _clip(text: str, limit: int = 199) -> str:
    """``text`` on one line of at most ``limit`` characters (control characters escaped)."""
    return _values.clip(text, limit)


def _show(x: Any, limit: int = 40) -> str:
    """A short, one-line picture of a value for a message (JSON's spelling of null, true,
    false and of the arrays and objects a record holds; :func:`mousehole._values.shorten`
    for anything else)."""
    if x is None or isinstance(x, bool):
        return json.dumps(x)
    if isinstance(x, (dict, list)):
        try:
            text = json.dumps(x, ensure_ascii=True, default=repr)
        except (ValueError, RecursionError):  # (a value no record holds: too deep, a cycle)
            return _values.shorten(x, limit)
        return _clip(text, limit)
    return _values.shorten(x, limit)


def _kind(x: Any) -> str:
    """The JSON name of a value's type."""
    if x is None:
        return "null"
    return {
        bool: "a boolean",
        int: "an integer",
        float: "a number",
        str: "a string",
        list: "an array",
        dict: "an object",
    }.get(type(x), type(x).__name__)


_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,30}\Z")


def _key(at: str, k: str) -> str:
    """The path of key ``k`` inside ``at``."""
    return f"{at}.{k}" if _IDENT.match(k) else f"{at}[{_show(k, 24)}]"


def _fail(message: str) -> NoReturn:
    raise RecordError(_clip(message))


# --------------------------------------------------------------------------------------
# stage 1: the text


def _parse(
    data: Union[str, bytes, bytearray],
    *,
    max_bytes: int = MAX_BYTES,
    max_depth: int = MAX_DEPTH,
    what: str = "a record",
) -> Any:
    """Stage 1: JSON ``data`` (text, or UTF-8 bytes) as Python data, or a RecordError
    (:func:`mousehole._values.read_json`, which ``mousehole bench --compare`` reads with too)."""
    return _values.read_json(data, max_bytes=max_bytes, max_depth=max_depth, what=what, error=RecordError)


# --------------------------------------------------------------------------------------
# stage 2: the schema


_SURROGATE = re.compile("[\ud800-\udfff]")


def _check_string(s: str, at: str, limit: int) -> None:
    if len(s) > limit:
        _fail(f"{at}: string too long ({len(s):,} characters, at most {limit:,})")
    if not s.isascii() and _SURROGATE.search(s):
        _fail(f"{at}: lone surrogate in a string (not Unicode text)")


def _check_number(x: Union[int, float], at: str) -> None:
    if not (MIN_NUMBER <= x <= MAX_NUMBER):  # NaN fails too
        _fail(f"{at}: number out of range ({_show(x, 24)}; allowed {_RANGE})")


def _check_int(x: Any, at: str, lo: int, hi: int, hi_text: str = "") -> int:
    if not _values.is_int(x):  # (parsed JSON: exactly an int)
        _fail(f"{at}: must be an integer, got {_kind(x)} ({_show(x, 24)})")
    if not lo <= x <= hi:
        _fail(f"{at}: must be from {lo} to {hi_text or hi}, got {_show(x, 24)}")
    return int(x)


def _check_data(value: Any, at: str, depth: int) -> None:
    """Any JSON data within the limits (the schema's ``data``), ``value`` being at nesting
    ``depth``; iterative, so no input can exhaust the stack."""
    stack: List[Tuple[Any, str, int]] = [(value, at, depth)]
    while stack:
        x, where, level = stack.pop()
        t = type(x)
        if x is None or t is bool:
            continue
        if t is int or t is float:
            _check_number(x, where)
        elif t is str:
            _check_string(x, where, MAX_STRING)
        elif t is list or t is dict:
            if level > MAX_DEPTH:
                _fail(f"{where}: nested too deeply (arrays and objects at most {MAX_DEPTH} deep)")
            if t is list:
                _push_items(stack, x, where, level)
            else:
                _push_values(stack, x, where, level)
        else:
            _fail(f"{where}: {type(x).__name__} is not JSON data")


def _push_items(stack: List[Tuple[Any, str, int]], x: List[Any], where: str, level: int) -> None:
    """``_check_data`` of an array: its ints checked here, its other items pushed."""
    if len(x) > MAX_ITEMS:
        _fail(f"{where}: array too long ({len(x):,} items, at most {MAX_ITEMS:,})")
    for i, v in enumerate(x):
        tv = type(v)
        if tv is int:  # (the common case, checked here: a start's history)
            if not MIN_NUMBER <= v <= MAX_NUMBER:
                _check_number(v, f"{where}[{i}]")
        elif v is not None and tv is not bool:
            stack.append((v, f"{where}[{i}]", level + 1))


def _push_values(stack: List[Tuple[Any, str, int]], x: Dict[Any, Any], where: str, level: int) -> None:
    """``_check_data`` of an object: its keys checked here, its values pushed."""
    if len(x) > MAX_KEYS:
        _fail(f"{where}: object too large ({len(x):,} keys, at most {MAX_KEYS:,})")
    for k, v in x.items():
        if type(k) is not str:
            _fail(f"{where}: key {_show(k, 24)} is not a string")
        _check_string(k, f"{where} key {_show(k, 24)}", MAX_STRING)
        stack.append((v, _key(where, k), level + 1))


def _check_object(x: Any, at: str) -> Dict[str, Any]:
    if type(x) is not dict:
        _fail(f"{at}: must be an object, got {_kind(x)}")
    _check_data(x, at, 2)
    return x


def _check_texts(xs: Any, at: str, lo: int, hi: int) -> List[str]:
    """A list of ``lo`` to ``hi`` strings of at most MAX_TEXT characters."""
    if type(xs) is not list:
        _fail(f"{at}: must be an array, got {_kind(xs)}")
    if not lo <= len(xs) <= hi:
        _fail(f"{at}: must hold {lo} to {hi:,} items, got {len(xs):,}")
    for i, s in enumerate(xs):
        if type(s) is not str:
            _fail(f"{at}[{i}]: must be a string, got {_kind(s)}")
        _check_string(s, f"{at}[{i}]", MAX_TEXT)
    return xs


def _check_ints(xs: Any, at: str, lo: int, hi: int, hi_text: str, most: int) -> List[int]:
    if type(xs) is not list:
        _fail(f"{at}: must be an array, got {_kind(xs)}")
    if len(xs) > most:
        _fail(f"{at}: too many items ({len(xs):,}, at most {most:,})")
    for i, x in enumerate(xs):
        if type(x) is not int or not lo <= x <= hi:  # (the common case, without a call)
            _check_int(x, f"{at}[{i}]", lo, hi, hi_text)
    return xs


def _check_record(d: Any) -> None:
    """Stage 2: exactly what ``record.schema.json`` allows (parsed JSON ``d``), with a
    message per fault."""
    if type(d) is not dict:
        _fail(f"not a record: a record is a JSON object, got {_kind(d)}")
    _check_format(d)
    _check_game(d)
    _check_texts(d["seats"], "seats", 2, MAX_SEATS)
    _check_ints(d["actions"], "actions", 0, MAX_ACTION, "2**31-1", MAX_ACTIONS)
    _check_texts(d["moves"], "moves", 0, MAX_ACTIONS)
    _check_result(d["result"])
    date = d["date"]
    if date is not None:
        if type(date) is not str:
            _fail(f"date: must be a string or null, got {_kind(date)}")
        _check_string(date, "date", MAX_TEXT)
    _check_object(d["meta"], "meta")


def _check_format(d: Dict[str, Any]) -> None:
    """A record's format, version and keys."""
    fmt = d.get("format")
    if fmt != FORMAT or type(fmt) is not str:
        _fail(f"format: not a mousehole record (format must be {FORMAT!r}, got {_show(fmt, 30)})")
    version = d.get("version")
    if type(version) is not int:
        _fail(f"version: must be an integer, got {_kind(version)}")
    if version != VERSION:
        _fail(f"version: record version {_show(version, 24)} is not supported (this mousehole reads {VERSION})")
    unknown = [k for k in d if k not in _KEYS]
    if unknown:
        _fail(
            f"unknown key{'s' if len(unknown) > 1 else ''} {', '.join(_show(k, 30) for k in unknown[:3])}"
            f"{', ...' if len(unknown) > 3 else ''}; a record has {', '.join(_KEYS)}"
        )
    missing = [k for k in _KEYS if k not in d]
    if missing:
        _fail(f"missing key{'s' if len(missing) > 1 else ''} {', '.join(missing)}")


def _check_game(d: Dict[str, Any]) -> None:
    """A record's game, parameters and seed or start position."""
    game = d["game"]
    if type(game) is not str:
        _fail(f"game: must be a string, got {_kind(game)}")
    if game not in _REGISTRY:
        _fail(f"game: unknown game id {_show(game, 30)}; allowed: {', '.join(game_names())}")
    params = _check_object(d["params"], "params")
    if "players" in params:
        _check_int(params["players"], "params.players", 2, MAX_SEATS)
    if "max_turns" in params:
        _check_int(params["max_turns"], "params.max_turns", 1, MAX_TURNS, f"{MAX_TURNS:,}")
    seed, start = d["seed"], d["start"]
    if (seed is None) == (start is None):
        _fail("seed, start: exactly one of them must be given (the other null)")
    if seed is not None:
        _check_int(seed, "seed", 0, MAX_NUMBER, "2**64-1")
    else:
        _check_object(start, "start")


def _check_result(result: Any) -> None:
    """A record's result."""
    if type(result) is not dict:
        _fail(f"result: must be an object, got {_kind(result)}")
    unknown = [k for k in result if k not in _RESULT_KEYS]
    if unknown:
        _fail(f"result: unknown key {_show(unknown[0], 30)}; a result has {', '.join(_RESULT_KEYS)}")
    missing = [k for k in _RESULT_KEYS if k not in result]
    if missing:
        _fail(f"result: missing key{'s' if len(missing) > 1 else ''} {', '.join(missing)}")
    returns = result["returns"]
    if type(returns) is not list:
        _fail(f"result.returns: must be an array, got {_kind(returns)}")
    if len(returns) > MAX_SEATS:
        _fail(f"result.returns: too many items ({len(returns):,}, at most {MAX_SEATS})")
    for i, x in enumerate(returns):
        if type(x) is not int and type(x) is not float:
            _fail(f"result.returns[{i}]: must be a number, got {_kind(x)}")
        _check_number(x, f"result.returns[{i}]")
    _check_ints(result["winners"], "result.winners", 0, MAX_SEATS - 1, "", MAX_SEATS)
    _check_ints(result["scores"], "result.scores", MIN_NUMBER, MAX_NUMBER, "2**64-1", MAX_SEATS)
    for key in ("terminal", "truncated"):
        if type(result[key]) is not bool:
            _fail(f"result.{key}: must be true or false, got {_kind(result[key])} ({_show(result[key], 24)})")


# --------------------------------------------------------------------------------------
# stage 3: the replay


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


#: what loading a game or a start position may raise on bad data (all turned into RecordError)
_BAD_DATA = (MouseholeError, ValueError, TypeError, KeyError, IndexError, OverflowError, AttributeError)


def _replay(d: Dict[str, Any], engine: Optional[str]) -> Record:
    name: str = d["game"]
    params: Dict[str, Any] = d["params"]
    allowed = _REGISTRY[name].DEFAULTS
    unknown = [k for k in params if k not in allowed]
    if unknown:
        _fail(f"params: unknown parameter {_show(unknown[0], 30)} of {name}; allowed: {', '.join(sorted(allowed))}")
    try:
        game = load(name, engine=engine, **params)
    except _BAD_DATA as e:
        _fail(f"params: {_first_line(e)}")
    n = game.num_players
    if len(d["seats"]) != n:
        _fail(f"seats: {len(d['seats'])} names for {n} seats")
    actions: List[int] = d["actions"]
    moves: List[str] = d["moves"]
    if len(moves) != len(actions):
        _fail(f"moves: {len(actions):,} actions but {len(moves):,} moves")
    try:
        state: Any = game.state_from_dict(d["start"]) if d["start"] is not None else game.new_state(d["seed"])
    except _BAD_DATA as e:
        _fail(f"start: {_first_line(e)}")
    num_actions = game.num_actions
    for k, (a, move) in enumerate(zip(actions, moves), 1):
        if state.is_terminal():
            _fail(f"move {k} ({_show(move)}): the game was already over")
        if a >= num_actions or not state.legal_action_mask()[a]:
            _fail(f"move {k} ({_show(move)}): action {a} is not legal here")
        said = state.describe(a)
        if said != move:
            _fail(f"move {k}: action {a} is {_show(said)}, but the record says {_show(move)}")
        try:
            state.apply_action(a)
        except _BAD_DATA as e:  # (legal_action_mask said it is legal: never seen)
            _fail(f"move {k} ({_show(move)}): {_first_line(e)}")
    replayed = _result(state)
    stated = d["result"]
    for key in _RESULT_KEYS:
        if stated[key] != replayed[key]:
            _fail(
                f"result.{key}: the record says {_show(stated[key])}, the replay after move "
                f"{len(actions)} gives {_show(replayed[key])}"
            )
    return Record(
        game=name,
        params=dict(game.params),
        seed=d["seed"],
        start=d["start"],
        seats=tuple(d["seats"]),
        actions=tuple(actions),
        moves=tuple(moves),
        result=replayed,
        date=d["date"],
        meta=d["meta"],
    )


def loads(text: Union[str, bytes, bytearray], *, engine: Optional[str] = None) -> Record:
    """Read a record (JSON text, or its UTF-8 bytes) and verify it by replaying it (on
    ``engine``). A :class:`RecordError` (one line, under 200 characters) says what is wrong
    first: the text (too large, not UTF-8, not JSON, a key twice, nested too deeply), the
    schema (the key and what it must be), or the replay (for a bad move, its number, 1 for
    the first action). ``TypeError`` if ``text`` is neither str nor bytes."""
    if engine is not None and engine not in available_engines():
        load(game_names()[0], engine=engine)  # the ParameterError that says why
    d = _parse(text)
    _check_record(d)
    return _replay(d, engine)
