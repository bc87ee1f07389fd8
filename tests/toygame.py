"""A fifth game written in the test suite, the way ``docs/adding_a_game.md`` says to write
one: Nim for 2 to 4 seats, with a pure-Python engine only. ``tests/test_toy_game.py``
registers it (:func:`mousehole._api.register`), runs the generic suites over it and
unregisters it (:func:`mousehole._api.unregister`); nothing in the package names it.

The rules, each with its id:

* N-1: three piles of counters: one counter on the first, 18 to 21 dealt at random on each of
  the others (so that a game lasts at least 19 moves, more than PettingZoo's cycle tests play
  at 4 seats, and a move is illegal from the start: 2 from the first pile).
* N-2: the seats move in turn, seat 0 first, then 1, 2, ... and round again.
* N-3: a move takes 1 or 2 counters from one pile that has at least that many.
* N-4: the seat that takes the last counter wins alone (under the reading
  ``last_counter="loses"``, every other seat wins); a seat's score is the counters it took.
* N-5: after ``max_turns`` moves the game stops (truncated): every seat shares the win.

The action of taking ``k`` counters from pile ``i`` is ``2 * i + k - 1`` (6 actions). A
seat sees the whole position (Nim hides nothing); the dealing generator's state is the one
secret (it is kept in the state dict and redacted from every view).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Dict, List, Optional, SupportsIndex, Tuple

import numpy as np
import numpy.typing as npt

from mousehole import _api
from mousehole._api import IllegalMoveError, expect, int_list
from mousehole._rng import Rng
from mousehole.render._canvas import BaseDrawing, Canvas, footer, header, result_text

#: the game id (never one of the package's games)
NAME = "toy_nim"
PILES, FEWEST, MOST, TAKE = 3, 18, 21, 2
#: the one open reading of the (made-up) rule text: who the last counter makes the winner
READINGS = (
    _api.Reading(
        "last_counter",
        ("wins", "loses"),
        (
            "the seat that takes the last counter wins alone",
            "the seat that takes the last counter loses: every other seat wins",
        ),
        ("N-4",),
        "Wer den letzten Stein nimmt, entscheidet das Spiel.",
        "Whoever takes the last counter decides the game.",
        "the common game (the other is misère Nim)",
    ),
)


@dataclasses.dataclass(frozen=True)
class NimTake(_api.Move):
    """Take ``count`` counters (1 or 2) from pile ``pile`` (0 to 2), N-3."""

    pile: int
    count: int

    def __str__(self) -> str:
        return f"take {self.count} from pile {self.pile}"


class Nim(_api.Game["NimState", NimTake]):
    """Nim (the module docstring has the rules)."""

    name = NAME
    title = "Toy Nim"
    min_players = 2
    max_players = 4
    DEFAULTS = {"players": 4, "max_turns": 60, "last_counter": READINGS[0].default}
    READINGS = READINGS
    STATE_KEYS = ("piles", "taken", "seat", "rng", "history", "truncated")
    DRAWING = __name__  # the Drawing class below
    INFORMATION = "perfect"
    SCORE = "counters taken"

    def _configure(self, params: Dict[str, Any]) -> Dict[str, Any]:
        self.num_actions = PILES * TAKE
        self.observation_shape = (PILES + 1, MOST + 1)
        return params

    @classmethod
    def python_state(cls) -> Any:
        return NimState

    @classmethod
    def compiled_state(cls) -> Any:
        return None  # (a test-suite game: the reference engine only)

    def action_to_move(self, action: SupportsIndex) -> NimTake:
        a = _api.check_action_type(action)
        if not 0 <= a < self.num_actions:
            raise IllegalMoveError(f"action {a} is out of range 0..{self.num_actions - 1}")
        return NimTake(a // TAKE, a % TAKE + 1)

    def move_to_action(self, move: NimTake) -> int:
        if not isinstance(move, NimTake) or not (0 <= move.pile < PILES and 1 <= move.count <= TAKE):
            raise ValueError(f"{self.name}: not a move of this game: {move!r}")
        return TAKE * move.pile + move.count - 1

    def parse_move(self, text: str) -> NimTake:
        words = str(text).split()
        if (
            len(words) != 5
            or words[0] != "take"
            or words[2:4] != ["from", "pile"]
            or not (words[1].isdigit() and words[4].isdigit())
        ):
            raise ValueError(f"{self.name}: a move is written 'take K from pile I', not {text[:40]!r}")
        move = NimTake(int(words[4]), int(words[1]))
        self.move_to_action(move)
        return move

    def _validate_dict(self, d: Dict[str, Any]) -> None:
        n = self.num_players
        piles = int_list(d["piles"], PILES, "piles", 0, MOST)
        int_list(d["taken"], n, "taken", 0, PILES * MOST)
        history = int_list(d["history"], None, "history", 0, self.num_actions - 1)
        expect(type(d["seat"]) is int and 0 <= d["seat"] < n, f"seat must be a seat 0..{n - 1}")
        expect(type(d["truncated"]) is bool, "truncated must be a bool")
        expect(len(history) <= self.max_turns, "the history is longer than max_turns (N-5)")
        over = sum(piles) == 0
        expect(
            d["truncated"] == (len(history) == self.max_turns and not over),
            "truncated must say whether max_turns stopped the game (N-5)",
        )
        expect(sum(d["taken"]) == sum(a % TAKE + 1 for a in history), "taken must add up to the history (N-4)")

    def _redact(self, d: Dict[str, Any], p: int) -> Dict[str, Any]:
        d["rng"] = None  # (the only secret: the generator state)
        return d

    def _determinize(self, view: Dict[str, Any], p: int, rng: Rng) -> Dict[str, Any]:
        view["rng"] = rng.next64()
        return view

    def _observation(self, d: Dict[str, Any], p: int) -> npt.NDArray[np.float32]:
        obs = np.zeros(self.observation_shape, dtype=np.float32)
        for i, size in enumerate(d["piles"]):
            obs[i, size] = 1.0
        obs[PILES, (d["seat"] - p) % self.num_players] = 1.0  # the seat to move, relative to p
        return obs

    def _render(self, d: Dict[str, Any]) -> str:
        rows = [f"pile {i}: {'|' * size} ({size})" for i, size in enumerate(d["piles"])]
        rows.append(f"taken: {d['taken']}, seat {d['seat']} {'moved last' if sum(d['piles']) == 0 else 'to move'}")
        rows.append("legend: | a counter (N-1)")
        return "\n".join(rows)

    def _explain_illegal(self, state: _api.StateAPI[Any], action: Any) -> str:
        a = _api.check_action_type(action)
        if state.is_terminal():
            return f"{self.name}: the game is over (N-4, N-5): no move is legal"
        if not 0 <= a < self.num_actions:
            return f"{self.name}: action {a} is out of range: actions are 0..{self.num_actions - 1} (N-3)"
        move = self.action_to_move(a)
        return f"{self.name}: {move}: pile {move.pile} holds fewer than {move.count} counters (N-3)"

    def greedy_value(self, state: "NimState", seat: int) -> float:
        return float(state.scores()[seat])

    def _score_breakdown(self, d: Dict[str, Any]) -> Optional[List[str]]:
        return [f"{t} counters taken = {t} (N-4)" for t in d["taken"]]

    def _play_help(self, view: Dict[str, Any], p: int) -> str:
        last = "wins alone" if self.params["last_counter"] == "wins" else "loses (every other seat wins)"
        return "\n".join(
            [
                f"{self.title}: three piles: 1, then 18 to 21 counters (N-1); seats move in turn (N-2).",
                "A move takes 1 or 2 counters from one pile that has that many (N-3).",
                f"The seat that takes the last counter {last} (N-4).",
                f"After max_turns ({self.max_turns}) moves every seat shares the win (N-5).",
            ]
        )


def _winners(d: Dict[str, Any], n: int, last_counter: str) -> List[int]:
    if d["truncated"]:
        return list(range(n))  # N-5
    if sum(d["piles"]) > 0:
        return []
    if last_counter == "wins":
        return [d["seat"]]  # N-4: the seat that took the last counter
    return [p for p in range(n) if p != d["seat"]]  # N-4, last_counter="loses"


class NimState(_api.StateAPI[NimTake]):
    """The reference (and only) engine of :class:`Nim`: the state dict itself."""

    __slots__ = ("_game", "_d", "_seed0")

    @staticmethod
    def new(game: Nim, seed: int) -> "NimState":
        rng = Rng(seed)
        piles = [1] + [FEWEST + rng.below(MOST - FEWEST + 1) for _ in range(PILES - 1)]  # N-1
        d = {
            "piles": piles,
            "taken": [0] * game.num_players,
            "seat": 0,
            "rng": rng.state,
            "history": [],
            "truncated": False,
        }
        s = NimState._from_valid_dict(game, d)
        s._seed0 = seed
        return s

    @classmethod
    def _from_valid_dict(cls, game: Any, d: Dict[str, Any]) -> "NimState":
        s = cls.__new__(cls)
        s._game = game
        s._d = {k: (list(d[k]) if isinstance(d[k], list) else d[k]) for k in Nim.STATE_KEYS}
        s._seed0 = None
        return s

    @property
    def game(self) -> Nim:
        return self._game  # type: ignore[no-any-return]

    @property
    def history(self) -> List[int]:
        return list(self._d["history"])

    @property
    def truncated(self) -> bool:
        return bool(self._d["truncated"])

    def is_terminal(self) -> bool:
        return bool(self._d["truncated"] or sum(self._d["piles"]) == 0)

    @property
    def current_player(self) -> int:
        return _api.TERMINAL if self.is_terminal() else int(self._d["seat"])

    def legal_actions(self) -> npt.NDArray[np.int64]:
        if self.is_terminal():
            return np.zeros(0, dtype=np.int64)
        return np.array(
            [TAKE * i + k - 1 for i, size in enumerate(self._d["piles"]) for k in range(1, min(TAKE, size) + 1)],
            dtype=np.int64,
        )

    def apply_action(self, action: SupportsIndex) -> None:
        a = _api.check_action_type(action)
        if a not in set(self.legal_actions().tolist()):
            raise self._illegal(a)
        d, n = self._d, self.game.num_players
        pile, count = a // TAKE, a % TAKE + 1
        d["piles"][pile] -= count  # N-3
        d["taken"][d["seat"]] += count
        d["history"].append(a)
        if sum(d["piles"]) > 0:
            d["seat"] = (d["seat"] + 1) % n  # N-2
            d["truncated"] = len(d["history"]) >= self.game.max_turns  # N-5

    def scores(self) -> List[int]:
        return list(self._d["taken"])

    def winners(self) -> List[int]:
        return _winners(self._d, self.game.num_players, self.game.params["last_counter"])

    def _to_dict(self) -> Dict[str, Any]:
        d = self.game._header()
        d.update({k: (list(v) if isinstance(v, list) else v) for k, v in self._d.items()})
        return d


class Drawing(BaseDrawing):
    """The picture of a position: a row of counters per pile, the seats' takings."""

    def draw(self) -> Canvas:
        d, f = self.d, self.f
        cv = Canvas(420, 120 + 30 * PILES)
        header(cv, self.g.title, f"{len(d['history'])} moves", d["view"], self.label)
        if f.over and f.winners:  # one panel of winners (N-4)
            cv.text(300, 60, "winner" if len(f.winners) == 1 else "winners", size=12, bold=True)
            cv.text(300, 78, ", ".join(self.label(p) for p in f.winners), size=12)
        for i, size in enumerate(d["piles"]):
            y = 60 + 30 * i
            cv.text(12, y + 14, f"pile {i}", size=12)
            for k in range(size):
                cv.rect(70 + 16 * k, y, 14, 14, fill="#ffb000", rx=7)
        if f.over:
            line = (
                f"Game over, {self.g._end_reason(d)}: {result_text(f.winners, self.n, self.label)} with "
                f"{max(f.scores)} counters (N-4)"
            )
        else:
            line = f"{self.label(f.current)} to move: take 1 or 2 counters from one pile (N-3)"
        cv.text(
            12,
            56 + 30 * PILES,
            "taken: " + ", ".join(f"{self.label(p)} {t}" for p, t in enumerate(d["taken"])),
            size=11,
        )
        footer(cv, 70 + 30 * PILES, line, f.over, "a disc: a counter (N-1)")
        return cv


#: the test profile of the game (``tests/gamecases.py``), added while it is registered
PROFILE_FIELDS: Dict[str, Any] = {
    "perfect_information": True,
    "rotating_turns": True,
    "short_max_turns": 3,
    "episode_steps": 40,
    "rule_prefix": "N",
    "bots_every": 2,
    "information_every": 1,
    "legend_words": ("| a counter (N-1)",),
}


def register() -> None:
    """Register the game and its test profile (the steps of ``docs/adding_a_game.md`` a test
    game can take: the Game class with its facts, the registry, the profile)."""
    _api.register(Nim)
    import gamecases  # (after the registry has the game: its CASES are read on import)

    gamecases.PROFILES[NAME] = gamecases.Profile(**PROFILE_FIELDS)


def unregister() -> Optional[Tuple[type, Any]]:
    """Undo :func:`register`; returns what was removed."""
    import gamecases

    return _api.unregister(NAME), gamecases.PROFILES.pop(NAME, None)
