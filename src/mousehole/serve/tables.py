"""A served table: its settings (checked as hostile input), its position, whose decisions are
pending, and what each seat and spectator is shown.

A table's **log** is the list of accepted entries ``(seat, action)`` in the order they were
accepted; entry ``k`` has sequence number ``k + 1``. The position is the game's seeded start
with the log applied: an entry is applied as soon as its seat is to move. Outside Maus au
Chocolat's bids this is at once; a bid (``Game.SIMULTANEOUS_ACTIONS``, MC-7, MC-27) may be
given by any seat that has not bid yet, in any order, and waits, face down, until the seats
before it have bid. So the log alone rebuilds the table (after a restart, in another server
process) and the game's own history is the record.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections import deque
from typing import Any, Deque, Dict, List, Mapping, Optional, Tuple

from .. import game_names, load
from .._api import Game, IllegalMoveError, MouseholeError, ParameterError, StateAPI, is_int
from .._values import ascii_digits
from .views import end_text, public_view, result_lines, seat_twin

__all__ = [
    "Refused",
    "TableSpec",
    "Seat",
    "Table",
    "LEVELS",
    "MAX_NAME",
    "MIN_SECONDS",
    "MAX_SECONDS",
    "DEFAULT_SECONDS",
    "MAX_BOT_ITERATIONS",
    "MAX_EVENTS",
    "MAX_MOVE_TEXT",
    "bot_spec",
]

#: the bot levels of a table (those of ``mousehole play --level``): level -> bot spec
LEVELS: Dict[str, str] = {"easy": "greedy", "medium": "ismcts", "hard": "strong"}
#: a seat's name is 1 to this many characters
MAX_NAME = 32
#: the bots' seconds per move of a table: from MIN_SECONDS to MAX_SECONDS
MIN_SECONDS, MAX_SECONDS = 0.01, 60.0
#: the bots' seconds per move when a table does not say
DEFAULT_SECONDS = 1.0
#: the most iterations a bot spec with an iteration budget may ask for (``mcts:500``)
MAX_BOT_ITERATIONS = 20_000
#: the events (moves described) kept for each seat and for the spectators
MAX_EVENTS = 400
#: the longest move text read (a move in the game's notation)
MAX_MOVE_TEXT = 200
_SPEC_KEYS = {"game", "players", "readings", "seats", "seconds"}
_SEAT_KEYS = {"name", "bot"}


class Refused(MouseholeError):
    """A request or a move that the table refuses: ``code`` (a short word a client can test)
    and a one-line message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _clean_name(x: Any, where: str) -> str:
    if not isinstance(x, str):
        raise Refused("bad-table", f"{where}: a name is a string")
    text = " ".join(x.split())
    if not 1 <= len(text) <= MAX_NAME:
        raise Refused("bad-table", f"{where}: a name is 1 to {MAX_NAME} characters")
    if not text.isprintable():
        raise Refused("bad-table", f"{where}: a name may not hold control or invisible characters")
    return text


def bot_spec(text: Any, seconds: float) -> str:
    """The bot spec a table seat plays with: a level (``easy``, ``medium``, ``hard``: the
    bots of ``mousehole play --level``) or a spec (``random``, ``greedy``, ``mcts``,
    ``ismcts:500``, ``strong:0.5s``, ...). A search bot without a budget thinks ``seconds``
    a move; one with a budget may ask for at most ``seconds`` or :data:`MAX_BOT_ITERATIONS`."""
    from ..bots import SEARCH_SPECS, make_bot, spec_has_budget, spec_with_time

    if not isinstance(text, str) or not 1 <= len(text) <= 40:
        raise Refused("bad-table", "a bot is a level (easy, medium, hard) or a bot spec of at most 40 characters")
    spec = LEVELS.get(text.strip().lower(), text.strip().lower())
    name, _, arg = spec.partition(":")
    if name in SEARCH_SPECS and not spec_has_budget(spec):
        # the table's time; a node budget is kept, and a bad spec stays as it is for make_bot
        # to refuse below (never replaced by a good one)
        spec = spec_with_time(spec, seconds)
    elif name in SEARCH_SPECS and arg.endswith("s"):
        try:
            asked = float(arg[:-1])
        except ValueError:
            asked = math.nan
        if not asked <= seconds:  # (a NaN is refused too, by make_bot below)
            raise Refused("bad-table", f"bot {text!r}: at most the table's {seconds:g} seconds a move")
    elif name in SEARCH_SPECS and ascii_digits(arg) and int(arg) > MAX_BOT_ITERATIONS:
        raise Refused("bad-table", f"bot {text!r}: at most {MAX_BOT_ITERATIONS:,} iterations a move")
    try:
        make_bot(spec, 0)
    except (ValueError, TypeError) as e:
        raise Refused("bad-table", f"bot {text!r}: {str(e)[:160]}") from None
    return spec


@dataclasses.dataclass(frozen=True)
class Seat:
    """A seat of a table: a person (``bot`` None) or a bot (its spec as played)."""

    name: str
    bot: Optional[str] = None

    @property
    def label(self) -> str:
        return self.name


@dataclasses.dataclass(frozen=True)
class TableSpec:
    """What a table is: the game and its parameters (the player count and readings), the
    seats, and the bots' seconds per move."""

    game: str
    params: Dict[str, Any]
    seats: Tuple[Seat, ...]
    seconds: float

    def to_json(self) -> Dict[str, Any]:
        return {
            "game": self.game,
            "params": dict(self.params),
            "seconds": self.seconds,
            "seats": [{"name": s.name, "bot": s.bot} for s in self.seats],
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "TableSpec":
        """A spec as :meth:`to_json` wrote it (read back from the database)."""
        return cls(
            game=str(d["game"]),
            params=dict(d["params"]),
            seconds=float(d["seconds"]),
            seats=tuple(Seat(str(s["name"]), None if s["bot"] is None else str(s["bot"])) for s in d["seats"]),
        )

    @classmethod
    def parse(cls, d: Any) -> "TableSpec":
        """A spec from a request (hostile input): ``{"game": "m", "players": 3, "readings":
        {"pass_cost": "exchange_only"}, "seats": [{"name": "ann"}, {"bot": "hard"}, ...],
        "seconds": 1.0}``. ``players`` defaults to the number of seats, ``readings`` to the
        game's defaults (only the game's readings may be set), ``seconds`` to
        :data:`DEFAULT_SECONDS`; every seat is a person (``name``) or a bot (``bot``, with an
        optional ``name``). Raises :class:`Refused` naming what is wrong."""
        if not isinstance(d, dict):
            raise Refused("bad-table", "a table is a JSON object")
        unknown = sorted(set(d) - _SPEC_KEYS)
        if unknown:
            raise Refused(
                "bad-table", f"unknown field {str(unknown[0])[:40]!r}; allowed: {', '.join(sorted(_SPEC_KEYS))}"
            )
        game = d.get("game")
        if not isinstance(game, str) or game not in game_names():
            raise Refused("bad-table", f"game must be one of {', '.join(game_names())}")
        seconds = d.get("seconds", DEFAULT_SECONDS)
        if (
            isinstance(seconds, bool)
            or not isinstance(seconds, (int, float))
            or not MIN_SECONDS <= seconds <= MAX_SECONDS
        ):
            raise Refused(
                "bad-table", f"seconds (the bots' time a move) must be a number from {MIN_SECONDS:g} to {MAX_SECONDS:g}"
            )
        seconds = float(seconds)
        seats_in = d.get("seats")
        cls_ = type(load(game, engine="python"))
        if not isinstance(seats_in, list) or not cls_.min_players <= len(seats_in) <= cls_.max_players:
            raise Refused(
                "bad-table", f"seats must be a list of {cls_.min_players} to {cls_.max_players} seats for {game}"
            )
        players = d.get("players", len(seats_in))
        if not is_int(players) or players != len(seats_in):
            raise Refused("bad-table", "players must be the number of seats")
        seats = tuple(cls._seat(s, i, seconds) for i, s in enumerate(seats_in))
        if all(s.bot is not None for s in seats):
            raise Refused("bad-table", "a table needs at least one person")
        params = cls._readings(cls_, d.get("readings", {}))
        params["players"] = int(players)
        try:
            load(game, engine="python", **params)
        except (ParameterError, ValueError, TypeError) as e:
            raise Refused("bad-table", str(e)[:200]) from None
        return cls(game=game, params=params, seats=seats, seconds=seconds)

    @staticmethod
    def _seat(s: Any, i: int, seconds: float) -> Seat:
        if not isinstance(s, dict) or set(s) - _SEAT_KEYS:
            raise Refused("bad-table", f'seat {i}: a seat is {{"name": ...}} or {{"bot": ..., "name": ...}}')
        if "bot" in s:
            spec = bot_spec(s["bot"], seconds)
            name = _clean_name(s["name"], f"seat {i}") if "name" in s else f"bot {str(s['bot']).strip().lower()}"
            return Seat(name, spec)
        return Seat(_clean_name(s.get("name", f"seat {i}"), f"seat {i}"))

    @staticmethod
    def _readings(cls_: Any, readings: Any) -> Dict[str, Any]:
        if not isinstance(readings, dict):
            raise Refused("bad-table", "readings must be an object {parameter: value}")
        allowed = {r.param: r for r in cls_.READINGS}
        out: Dict[str, Any] = {}
        for k, v in readings.items():
            r = allowed.get(k)
            if r is None:
                names = ", ".join(sorted(allowed)) or "none"
                raise Refused("bad-table", f"unknown reading {str(k)[:40]!r}; this game's readings: {names}")
            if not isinstance(v, str) or v not in r.values:
                raise Refused("bad-table", f"reading {k} must be one of {', '.join(r.values)}")
            out[k] = v
        return out


Event = Dict[str, Any]


class Table:
    """One table in memory: the position (``state``, the whole one: it never leaves the
    server), the log's length (``seq``), the entries waiting for their seat's turn
    (``queues``), each seat's entry count (``turns``: a move carries the count it was chosen
    at, so a double click or a stale page is refused), and the moves described for each
    seat and for the spectators."""

    def __init__(
        self, table_id: str, spec: TableSpec, seed: int, bot_seed: int, *, created: float, engine: Optional[str] = None
    ) -> None:
        self.id = table_id
        self.spec = spec
        self.seed = seed
        self.bot_seed = bot_seed
        self.created = created
        self.updated = created
        self.status = "open"  # "open", "finished" or "abandoned"
        self.game: Game[Any, Any] = load(spec.game, engine=engine, **spec.params)
        self.n = self.game.num_players
        self.state: StateAPI[Any] = self.game.new_state(seed)
        self.seq = 0
        self.queues: List[List[int]] = [[] for _ in range(self.n)]
        self.queued_text: List[List[str]] = [[] for _ in range(self.n)]  # as the seat's legal list wrote them
        self.turns = [0] * self.n
        # the moves described, per audience: seats 0..n-1, spectators n
        self.logs: List[Deque[Event]] = [deque(maxlen=MAX_EVENTS) for _ in range(self.n + 1)]
        self.log_count = 0
        self.labels = [f"seat {p} ({s.name})" for p, s in enumerate(spec.seats)]
        self.views: List[Dict[str, Any]] = []
        self._refresh_views()
        self._decisions: Optional[Dict[int, StateAPI[Any]]] = None
        self._twins: Dict[int, StateAPI[Any]] = {}
        self._snap: Dict[int, Dict[str, Any]] = {}

    # -- decisions --------------------------------------------------------------------

    def _refresh_views(self) -> None:
        seats = [self.state.to_dict(for_player=p) for p in range(self.n)]
        self.views = seats + [public_view(seats)]
        self._decisions = None
        self._twins = {}
        self._snap = {}

    def set_status(self, status: str) -> None:
        """``open``, ``finished`` (the record is kept) or ``abandoned`` (closed while idle)."""
        self.status = status
        self._decisions = None
        self._twins = {}
        self._snap = {}

    @property
    def over(self) -> bool:
        return bool(self.state.is_terminal())

    def decisions(self) -> Dict[int, StateAPI[Any]]:
        """The seats with a decision to make, each with the position it decides in: the seat
        to move, and in a phase of simultaneous choices (a Maus au Chocolat bid) every later
        seat that has not chosen yet, in a copy where the seats before it have laid
        placeholder bids (its choices depend on its own cards only) and its own entries
        waiting in its queue are applied (a seat is done once its bid is in)."""
        if self._decisions is not None:
            return self._decisions
        s = self.state
        out: Dict[int, StateAPI[Any]] = {}
        if self.status == "open" and not s.is_terminal() and s.current_player >= 0:
            cp = int(s.current_player)
            out[cp] = s
            sim = self.game.SIMULTANEOUS_ACTIONS
            if len(sim) and s.legal_action_mask()[sim.start : sim.stop].any():
                probe: Optional[StateAPI[Any]] = None
                for q in range(cp + 1, self.n):
                    if probe is None:
                        probe = s.clone()
                    while 0 <= probe.current_player < q:
                        probe.apply_action(int(probe.legal_actions()[0]))  # the lowest legal action is a bid
                    mine = probe.clone()
                    for a in self.queues[q]:
                        mine.apply_action(a)
                    # still to choose in this phase (a swap of Etienne's holder comes before
                    # the bid, MC-16); a seat whose bid is in is done, even where the phase
                    # after the bids begins with it
                    if mine.current_player == q and mine.legal_action_mask()[sim.start : sim.stop].any():
                        out[q] = mine
        self._decisions = out
        return out

    def twin(self, seat: int) -> StateAPI[Any]:
        """The position seat ``seat`` decides in, dealt again from its own view (its legal
        moves and their messages come from here)."""
        t = self._twins.get(seat)
        if t is None:
            dec = self.decisions()[seat]
            t = seat_twin(self.game, dec.to_dict(for_player=seat))
            self._twins[seat] = t
        return t

    def check(self, seat: Optional[int], turn: Any, action: Any = None, text: Any = None) -> int:
        """The action seat ``seat`` asks to play (an int ``action`` or a ``text`` in the game's
        notation) at its entry count ``turn``, or :class:`Refused`: the game is over, it is not
        the seat's turn, ``turn`` is not its current count (``stale``), or the move is not
        legal (with the rule it breaks)."""
        if seat is None:
            raise Refused("spectator", "a spectator cannot move")
        if self.status != "open" or self.over:
            raise Refused("over", "the game is over")
        decisions = self.decisions()
        if seat not in decisions:
            waiting = ", ".join(self.labels[p] for p in sorted(decisions))
            raise Refused("not-your-turn", f"it is not your turn (waiting for {waiting})")
        if not is_int(turn) or turn != self.turns[seat]:
            raise Refused(
                "stale",
                f"this move was chosen at your move {turn!r:.20}; you are at move "
                f"{self.turns[seat]} (the table changed: choose again)",
            )
        twin = self.twin(seat)
        if text is not None:
            try:
                return int(twin.parse_action(text))
            except (ValueError, TypeError, NotImplementedError) as e:
                raise Refused("illegal", f"{str(e)[:300]}") from None
        if not is_int(action) or not 0 <= action < self.game.num_actions:
            raise Refused("illegal", f"an action is an int from 0 to {self.game.num_actions - 1}")
        if action not in set(int(a) for a in twin.legal_actions()):
            try:
                twin.clone().apply_action(action)
            except IllegalMoveError as e:
                raise Refused("illegal", str(e)[:300]) from None
            raise Refused("illegal", f"action {action} is not legal now")  # pragma: no cover
        return int(action)

    # -- the log ----------------------------------------------------------------------

    def apply_entry(self, seat: int, action: int) -> None:
        """Apply the next entry of the log (checked by :meth:`check`, or read back from the
        database): it waits in its seat's queue until the seat is to move."""
        text = self.twin(seat).describe(int(action)) if seat in self.decisions() else str(int(action))
        self.queues[seat].append(int(action))
        self.queued_text[seat].append(text)
        self.turns[seat] += 1
        self.seq += 1
        s = self.state
        while not s.is_terminal() and s.current_player >= 0 and self.queues[s.current_player]:
            mover = int(s.current_player)
            a = self.queues[mover].pop(0)
            self.queued_text[mover].pop(0)
            s.apply_action(a)
            before = self.views
            self._refresh_views()
            self._describe(mover, before)
        self._decisions = None
        self._twins = {}
        self._snap = {}

    def _describe(self, mover: int, before: List[Dict[str, Any]]) -> None:
        ply = len(self.state.history)
        self.log_count += 1
        for audience in range(self.n + 1):
            text = self.game.describe_seen(before[audience], self.views[audience])
            self.logs[audience].append(
                {"n": self.log_count, "ply": ply, "seat": mover, "text": f"{self.labels[mover]}: {text}"}
            )

    # -- what is shown ----------------------------------------------------------------

    def events_since(self, audience: int, last: int) -> List[Event]:
        """The audience's events after event number ``last``."""
        return [e for e in self.logs[audience] if e["n"] > last]

    def picture_args(self, audience: int) -> Tuple[Any, ...]:
        """The arguments of :func:`~mousehole.serve.views.draw_picture` for ``audience``'s
        picture now: views only (the server may send them to a worker process)."""
        params = json.dumps(self.game.params, sort_keys=True)
        if audience < self.n:
            return (self.spec.game, params, self.game.engine, self.views[audience], None)
        return (self.spec.game, params, self.game.engine, self.views[self.n], self.views[0])

    def snapshot(self, audience: int) -> Dict[str, Any]:
        """What ``audience`` (a seat, or :attr:`n` for the spectators) is shown now, without
        the events and the picture (:meth:`picture_args`): the seats to act, the audience's
        legal moves when it is to act, its entries waiting face down, and the result at the
        end."""
        snap = self._snap.setdefault(audience, {})
        body = snap.get("body")
        if body is None:
            decisions = self.decisions()
            body = {"seq": self.seq, "ply": len(self.state.history), "status": self.status, "to_act": sorted(decisions)}
            if audience < self.n:
                body["turn"] = self.turns[audience]
                body["queued"] = list(self.queued_text[audience])
                if audience in decisions:
                    twin = self.twin(audience)
                    body["legal"] = [[int(a), twin.describe(int(a))] for a in twin.legal_actions()]
                else:
                    body["legal"] = []
            if self.over:
                body["result"] = self.result()
            snap["body"] = body
        return dict(body)

    def result(self) -> Dict[str, Any]:
        """The end: every seat's score, the winners, why the game ended (public once over)."""
        s = self.state
        scores = [int(x) for x in s.scores()]
        winners = [int(p) for p in s.winners()]
        return {
            "scores": scores,
            "winners": winners,
            "why": end_text(self.game, self.views[self.n], truncated=bool(s.truncated)),
            "lines": result_lines(scores, winners, self.labels),
        }

    def record_text(self, *, date: Optional[str] = "now") -> str:
        """The game so far as a record (``mousehole.records``: the existing format; it holds
        the seed, so it stays on the server)."""
        from ..records import dumps

        names = [s.bot if s.bot is not None else s.name for s in self.spec.seats]
        return dumps(self.state, seats=names, date=date, table=self.id)

    def replay_page(self, seat: int) -> str:
        """The replay page of the game so far as seat ``seat`` saw it (``mousehole.replay``)."""
        from ..records import loads
        from ..replay import html

        rec = loads(self.record_text(date=None))
        return html(rec, for_player=seat, max_bytes=REPLAY_MAX_BYTES)


#: the largest replay page a table serves (a game of a few thousand moves)
REPLAY_MAX_BYTES = 64 * 2**20
