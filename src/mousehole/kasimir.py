"""Kater Kasimir (Rudi Hoffmann, F.X. Schmid), rules KK-1 .. KK-14.

Rules: ``docs/games/kasimir.md`` restates every rule with its id.
2-4 players each bring their mice from the pantry (position 0) along a track of
``track_length`` spaces to the mouse hole (position ``track_length + 1``). A mouse that ends
its move on an empty trap is caught for good (KK-9); a mouse that ends on an occupied space
climbs on top and blocks everything under it (KK-8). Most mice home wins (KK-13).

Engine model
------------
* **Positions.** ``0`` is the pantry, ``1 .. L`` the track (``L = track_length``), ``L + 1``
  the hole. A stack is the list of owners (seats) from bottom to top. A trapped mouse is
  exactly the bottom mouse of a trap space (KK-9: it was caught alone and stays at the
  bottom), so no extra flag is stored.
* **Turns.** At the start of a turn the engine finds the next seat, clockwise, that has a
  free mouse (KK-6); seats without one are skipped automatically (KK-10, KK-11), without a
  roll (the roll would have no effect) and without an action. A seat is therefore never asked
  to move when it cannot. Then the die is rolled: with ``explicit_chance=False`` (default)
  by the state's own generator, ``face = rng.below(len(die))``, one draw per turn, nothing
  else draws from it; with ``explicit_chance=True`` the state stops at a chance node
  (``current_player == CHANCE``) until a chance action names the face. The roll is part of
  the state (``to_dict()["roll"]``, the face index) and is shown before the seat decides.
* **Actions.** ``D = max distance`` (the largest numbered face, or ``clover`` when the die has
  a clover), ``P = (L + 1) * D``.

  - ``start * D + (distance - 1)`` for ``0 <= start <= L``, ``1 <= distance <= D``: move the
    free mouse on space ``start`` (``0`` = the seat's own pantry stack) ``distance`` spaces
    (a :class:`KKMove`);
  - ``P + i``: the die shows face ``i`` (index into ``die``), at chance nodes only
    (a :class:`KKRoll`); each face has probability ``1 / len(die)``.

  ``str(move)`` is exact (``"12+5"``, ``"pantry+3"``, ``"roll clover #5"``) and
  ``game.parse_move`` reads it back; ``state.describe(action)`` is the readable form
  (``"space 12 +5 -> space 17"``, ``"pantry +3 -> trap 3"``, ``"roll clover"``), which
  ``state.parse_action`` reads as well.

  ``num_actions = P + len(die)``; 211 with the DEFAULT track and die.
* **Tie-break.** ``to_dict()["first_home"][p]`` is the index in ``history`` of the action that
  brought seat p's first mouse home (``-1``: none yet).

Readings (``Kasimir.READINGS``, keyword parameters of ``mousehole.load``; the docs page's
"Readings" table quotes the German and French sentences each rests on):

* ``tie_break`` (KK-13): ``"first_home"`` (default, the German text: the tied seat whose
  first mouse reached the hole first), ``"first_finished"`` (the French "le plus rapide": the
  tied seat whose last mouse reached the hole first; the state dict gains ``last_home``, per
  seat the ``history`` index of the move that brought its latest mouse home) or
  ``"fewest_turns"`` (the French "à nombre de tours égaux": the tied seat that brought its last
  mouse home in the fewest turns, counted as rounds of the table with skipped turns included;
  equal counts share; the state dict gains ``round``, the current round from 1, and
  ``home_round``, per seat the round of its latest mouse home, ``0``: none).
* ``elimination`` (KK-11, KK-13): ``"out_of_game"`` (default since issue 41: a seat whose
  mice are all trapped is out of the game and never wins; when every seat is eliminated nobody
  wins) or ``"skip_turns"`` (the default before: such a seat only loses its turns, and tied
  seats with no mouse home share the result).
* ``all_eliminated`` (KK-11, KK-13): ``"as_elimination"`` (default: when every seat is
  eliminated, nobody home, the result is what ``elimination`` says) or ``"last_out_wins"``
  (the seat whose last mouse was caught last wins alone; the state dict gains ``out_at``, per
  seat the ``history`` index of the move that caught its last mouse, ``-1``: none).

Choices where the text is silent (``docs/games/kasimir.md``): skipped turns draw no roll;
``max_turns`` counts moves (not chance actions, not skipped turns); with a clover every
distance 1..clover is a separate action even when several reach the hole.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, ClassVar, Dict, List, Optional, SupportsIndex, Tuple, Union

import numpy as np
import numpy.typing as npt

from . import _api
from ._api import IllegalMoveError, ParameterError, expect, int_list, is_int
from ._rng import Rng
from ._values import DeprecatedAlias, exact, shorten

__all__ = [
    "Kasimir",
    "KasimirMove",
    "KKMove",
    "KKRoll",
    "KasimirState",
    "ReferenceKasimirState",
    "DEFAULT",
    "CLOVER",
    "parse_move",
]

# ---- constants and the DEFAULT data table ------------------------------------------------

#: The clover face of the die (KK-3, KK-5).
CLOVER = "clover"
#: Physical data (KK-1, KK-2, KK-3); every entry is a game parameter.
DEFAULT: Dict[str, Any] = {
    "track_length": 40,  # KK-1: spaces 1 .. 40, the hole is 41
    "traps": [3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39],  # KK-1
    "mice": 4,  # KK-2: mice per player
    "die": [1, 2, 3, 4, 5, CLOVER],  # KK-3
    "clover": 5,  # KK-5: the clover lets the player choose 1 .. clover
}
#: The open readings of the texts (KK-11, KK-13), each a parameter; the default first.
READINGS: Tuple[_api.Reading, ...] = (
    _api.Reading(
        param="tie_break",
        values=("first_home", "first_finished", "fewest_turns"),
        meaning=(
            "Among the tied seats, the one that got a mouse into the hole first wins (the German text).",
            "Among the tied seats, the one whose last mouse reached the hole first (who finished first) wins.",
            "Among the tied seats, the one that brought its last mouse home in the fewest turns of its own "
            "(rounds of the table, skipped turns included) wins; seats with equal turns share the win.",
        ),
        rules=("KK-13",),
        source="Bei Gleichstand gewinnt derjenige, der als erster mit einer Maus im Mauseloch war. "
        "(French: En cas d'égalité, le plus rapide (à nombre de tours égaux), l'emporte.)",
        translation="In a tie, the one who was first to have a mouse in the mouse hole wins. "
        "(French: In a tie, the fastest (at equal numbers of turns) wins.)",
        why_default="The German sentence names exactly what is compared, and it is the reading the engines "
        "followed before this parameter; the French 'fastest' does not say what is timed.",
    ),
    _api.Reading(
        param="elimination",
        values=("out_of_game", "skip_turns"),
        meaning=(
            "A seat whose mice are all trapped is out of the game and never wins; when every seat is "
            "eliminated nobody wins.",
            "A seat whose mice are all trapped only loses its turns; at the end it counts 0 mice home like "
            "anyone else, so when nobody got a mouse home the tied seats share the result.",
        ),
        rules=("KK-11", "KK-13"),
        source="Sind alle vier Mäuse von dir in Fallen gefangen, scheidest du ganz aus dem Spiel aus. "
        "(French: Si toutes tes souris sont tombées dans des pièges, tu es éliminé de la partie.)",
        translation="If all four of your mice are caught in traps, you drop out of the game entirely. "
        "(French: If all your mice have fallen into traps, you are eliminated from the game.)",
        why_default="The sentence is explicit: 'scheidest du ganz aus dem Spiel aus' (you drop out of the game "
        "entirely; French: 'tu es éliminé de la partie'), and a player out of the game does not "
        "win it; where a player only loses turns the text says 'aussetzen' instead. The scoring "
        "sentence's silence about eliminated players is the only argument for skip_turns, the "
        "default until issue 41.",
    ),
    _api.Reading(
        param="all_eliminated",
        values=("as_elimination", "last_out_wins"),
        meaning=(
            "When every seat is eliminated (all mice caught, nobody home), the seats are tied at 0 mice and "
            "end as elimination says: all share (skip_turns) or nobody wins (out_of_game).",
            "When every seat is eliminated, the seat whose last mouse was caught last (the last one still in "
            "the game) wins alone.",
        ),
        rules=("KK-11", "KK-13"),
        source="Sind alle vier Mäuse von dir in Fallen gefangen, scheidest du ganz aus dem Spiel aus. [...] "
        "Es gewinnt, wer schließlich - wenn keine Mäuse mehr unterwegs sind - die meisten Mäuse ins "
        "Mauseloch bringen konnte.",
        translation="If all four of your mice are caught in traps, you drop out of the game entirely. [...] "
        "The winner is the one who in the end - when no mice are on the way any more - could bring "
        "the most mice into the mouse hole.",
        why_default="The winning sentence counts mice in the hole, and nobody has one; no sentence names a winner "
        "among seats that have all dropped out, and this is the reading the engines followed before "
        "this parameter. Outlasting the others is a reading the text allows, not one it states.",
    ),
)
#: ``tie_break`` as the engines' code: 0 first_home, 1 first_finished, 2 fewest_turns
TIE_CODES = {"first_home": 0, "first_finished": 1, "fewest_turns": 2}
#: the state dict key ``all_eliminated="last_out_wins"`` adds (after the tie-break keys): per
#: seat the ``history`` index of the move that caught its last mouse (KK-11), ``-1``: none
OUT_KEYS: Tuple[str, ...] = ("out_at",)
#: the state dict keys each ``tie_break`` adds (after ``first_home``)
TIE_KEYS: Dict[str, Tuple[str, ...]] = {
    "first_home": (),
    "first_finished": ("last_home",),
    "fewest_turns": ("round", "home_round"),
}
#: Limits of the compiled engine (bitboards of 64 positions, 32 mice, small action space).
MAX_TRACK = 60
MAX_MICE = 8
MAX_FACES = 32
MAX_STEP = 64


# ---- moves -------------------------------------------------------------------------------


class KasimirMove(_api.Move):
    """Base class of Kater Kasimir's moves: :class:`KKMove` and :class:`KKRoll`."""

    __slots__ = ()


@dataclasses.dataclass(frozen=True)
class KKMove(KasimirMove):
    """Move the free mouse on space ``start`` (0 = the mover's own pantry stack) forward by
    ``distance`` spaces.

    >>> KKMove(0, 3)
    KKMove(start=0, distance=3)
    >>> str(KKMove(12, 5))
    '12+5'
    >>> KKMove.from_str("pantry+2")
    KKMove(start=0, distance=2)
    """

    start: int
    distance: int

    def __str__(self) -> str:
        return f"{self.start}+{self.distance}"

    @classmethod
    def from_str(cls, text: str) -> "KKMove":
        m = re.fullmatch(r"\s*(\d{1,9}|pantry)\s*\+\s*(\d{1,9})\s*", text)  # (9 digits: far past any track)
        if not m:
            raise ValueError(f"not a Kater Kasimir move: {shorten(text)} (expected e.g. '12+5' or 'pantry+3')")
        start = 0 if m.group(1) == "pantry" else int(m.group(1))
        return cls(start, int(m.group(2)))


@dataclasses.dataclass(frozen=True)
class KKRoll(KasimirMove):
    """A chance outcome: the die shows face number ``index`` of the ``die`` parameter
    (``face`` is its value, an int or ``"clover"``).

    ``str`` names the face and, after ``#``, its index (a die may repeat a face, and each
    face index is its own chance action); ``state.describe`` drops the index where the face
    is unique.

    >>> KKRoll(5, "clover")
    KKRoll(index=5, face='clover')
    >>> str(KKRoll(2, 3))
    'roll 3 #2'
    >>> KKRoll.from_str("roll 3 #2")
    KKRoll(index=2, face=3)
    """

    index: int
    face: Union[int, str]

    def __str__(self) -> str:
        return f"roll {self.face} #{self.index}"

    @classmethod
    def from_str(cls, text: str) -> "KKRoll":
        m = re.fullmatch(r"\s*roll\s+(\d{1,9}|clover)\s*#\s*(\d{1,9})\s*", text)
        if not m:
            raise ValueError(f"not a Kater Kasimir roll: {shorten(text)} (expected e.g. 'roll 3 #2')")
        face: Union[int, str] = CLOVER if m.group(1) == CLOVER else int(m.group(1))
        return cls(int(m.group(2)), face)


# ---- notation: str(move) and its parser ----------------------------------------------------


def parse_move(text: str) -> KasimirMove:
    """Read a move from its ``str``: ``start+distance`` (:class:`KKMove`) or ``roll face
    #index`` (:class:`KKRoll`), for any track and die (the game's ``parse_move`` also reads
    :meth:`Kasimir.describe_move`'s words and checks the move fits its track and die).
    Raises ``ValueError`` naming the notation (``TypeError`` for what is not a str).

    >>> parse_move("pantry+2"), parse_move("roll clover #5")
    (KKMove(start=0, distance=2), KKRoll(index=5, face='clover'))
    """
    if not isinstance(text, str):
        raise TypeError(f"a Kater Kasimir move is read from a str, not {type(text).__name__}")
    text = str(exact(text))  # (the str it holds: a subclass's own methods unheard)
    if text.strip().startswith("roll"):
        return KKRoll.from_str(text)
    return KKMove.from_str(text)


# ---- the game ----------------------------------------------------------------------------


@_api.register
class Kasimir(_api.Game["KasimirState", "KasimirMove"]):
    """Kater Kasimir. Parameters: ``players`` (2-4), ``max_turns`` (moves before truncation),
    ``explicit_chance`` (stop at die rolls), the DEFAULT table entries ``track_length``,
    ``traps``, ``mice``, ``die``, ``clover``, and the readings (:data:`READINGS`):
    ``tie_break`` (KK-13: ``"first_home"``, ``"first_finished"`` or ``"fewest_turns"``),
    ``elimination`` (KK-11: ``"out_of_game"`` or ``"skip_turns"``) and ``all_eliminated``
    (KK-11, KK-13: ``"as_elimination"`` or ``"last_out_wins"``).

    >>> g = Kasimir(players=4, engine="python")
    >>> g.num_actions, g.observation_shape
    (211, (2823,))
    """

    DRAWING = "mousehole.render.kasimir"
    SCORE = "the mice the seat brought into the hole, 0 to 4 (KK-13)"
    SEARCH_TUNING = {
        "c": 1.0,
        "depth": 1000,
        "scale": 15.0,
        "greedy": 1.0,  # StrongBot (docs/bots.md)
        "depth@2": 3,
        "greedy@2": 0.0,
    }  # 3-4 players: greedy play-outs to the end
    INFORMATION = "perfect"  # nothing hidden but the next roll of the die
    ENV_ID = "mousehole/Kasimir-v0"
    OPENSPIEL_DEFAULTS = {"explicit_chance": True}  # every roll a chance node of OpenSpiel's

    name = "kasimir"
    title = "Kater Kasimir"
    min_players = 2
    max_players = 4
    STATE_KEYS: ClassVar[Tuple[str, ...]] = (
        "pantry",
        "track",
        "home",
        "first_home",
        "seat",
        "roll",
        "rng",
        "history",
        "truncated",
    )
    DEFAULTS = {
        "players": 4,
        "max_turns": 1000,
        "explicit_chance": False,
        "track_length": DEFAULT["track_length"],
        "traps": DEFAULT["traps"],
        "mice": DEFAULT["mice"],
        "die": DEFAULT["die"],
        "clover": DEFAULT["clover"],
        "tie_break": READINGS[0].default,
        "elimination": READINGS[1].default,
        "all_eliminated": READINGS[2].default,
    }
    READINGS = READINGS

    # old names, kept until the next minor version (DeprecationWarning)
    L = DeprecatedAlias("track_length")
    D = DeprecatedAlias("max_distance")
    P = DeprecatedAlias("num_move_actions")

    # derived constants, set by _configure
    track_length: int  # spaces of the track
    home_pos: int
    traps: List[int]
    is_trap: List[bool]
    mice: int
    faces: List[Union[int, str]]
    face_steps: List[int]  # 0 for the clover, else the distance
    clover: int
    max_distance: int  # the longest move (a step of the die or the clover's reach)
    num_move_actions: int  # move actions: the die faces' actions start here (P + i)
    num_faces: int
    explicit_chance: bool
    tie_break: str  # the KK-13 reading
    tie: int  # TIE_CODES[tie_break]
    elim_out: bool  # KK-11 reading "out_of_game"
    last_out: bool  # KK-11, KK-13 reading all_eliminated="last_out_wins"

    # -- facts other modules read (listed in the Game docstring) ---------------------------

    def max_game_length(self) -> int:
        """Every move takes a mouse at least one space on."""
        p = self._params
        return min(self.max_turns, self.num_players * int(p["mice"]) * (int(p["track_length"]) + 1))

    def chance_actions(self) -> range:
        """With ``explicit_chance``: one action per face of the die, the last ``len(die)``
        actions."""
        if self._params["explicit_chance"]:
            faces = len(self._params["die"])
            return range(self.num_actions - faces, self.num_actions)
        return range(0)

    def greedy_value(self, state: "KasimirState", seat: int) -> float:
        """Per seat, 100 per mouse home; 10 per mouse still able to get there (in the
        pantry or on the track) plus the space it stands on (its progress), 3 less when
        another mouse stands on it (blocked, KK-8); nothing for a caught mouse (KK-9: the
        bottom mouse of a trap space)."""
        d = state.to_dict()
        traps = set(d["params"]["traps"])
        n = state.game.num_players
        value = [100.0 * h + 10.0 * k for h, k in zip(d["home"], d["pantry"])]
        for space, stack in enumerate(d["track"], start=1):
            for i, owner in enumerate(stack):
                if i == 0 and space in traps:
                    continue  # caught for good
                value[owner] += 10.0 + space - (3.0 if i < len(stack) - 1 else 0.0)
        return self._lead(value[:n], seat)

    def _mice_left(self, d: Dict[str, Any]) -> Tuple[List[int], List[int]]:
        """Per seat, its mice caught in a trap (KK-9: the bottom mouse of a trap space) and
        its mice still on the way (in the pantry or on the track, not caught, KK-12)."""
        n = self.num_players
        caught, way = [0] * n, list(d["pantry"][:n])
        for space, stack in enumerate(d["track"], start=1):
            for i, q in enumerate(stack):
                if i == 0 and self.is_trap[space]:
                    caught[q] += 1
                else:
                    way[q] += 1
        return caught, way

    def _end_reason(self, d: Dict[str, Any]) -> str:
        if d["truncated"]:
            return super()._end_reason(d)
        return "no mouse is on the way any more: each one is home or caught in a trap (KK-12)"

    def _tie_words(self) -> str:
        return {
            0: "the seat whose first mouse got home first",
            1: "the seat whose last mouse got home first",
            2: "the seat that brought its last mouse home in the fewest rounds",
        }[self.tie]

    def _score_breakdown(self, d: Dict[str, Any]) -> Optional[List[str]]:
        """KK-13 per seat: its mice home (with what the tie-break compares), caught and on the way."""
        caught, way = self._mice_left(d)
        lines = []
        for q, home in enumerate(d["home"]):
            if self.tie == 2:
                r = d["home_round"][q]
                when = f", the last in round {r}" if r > 0 else ""
            else:
                i = d["last_home" if self.tie == 1 else "first_home"][q]
                when = f", the {'last' if self.tie == 1 else 'first'} at action {i + 1}" if i >= 0 else ""
            if self.last_out and d["out_at"][q] >= 0:  # KK-11, all_eliminated="last_out_wins"
                when += f", out at action {d['out_at'][q] + 1}"
            lines.append(
                f"{home} {'mouse' if home == 1 else 'mice'} home{when}; {caught[q]} caught, {way[q]} on "
                f"the way = {home} (KK-13)"
            )
        return lines

    def _settled(self, view: Dict[str, Any], p: int) -> Optional[Tuple[bool, str]]:
        """Mice home never leave it and a caught mouse never moves again (KK-9), so a seat
        ends with at least its mice home and at most those plus its mice on the way: seat
        ``p`` has lost once another seat already has more mice home than ``p`` can reach
        (or, under ``elimination="out_of_game"`` or ``all_eliminated="last_out_wins"``, once all
        of its mice are caught, KK-11: a seat caught while another still has a mouse on the way
        is not the last one out),
        and has won once it has more mice home than any other seat can reach (KK-13). Ties
        are left open: the tie-break may still change."""
        caught, way = self._mice_left(view)
        home = view["home"]
        if (self.elim_out or self.last_out) and caught[p] == self.mice:
            return False, f"all of seat {p}'s mice are caught: it is out of the game (KK-11)"
        return _api.settled_by_bounds(
            home,
            [h + w for h, w in zip(home, way)],
            p,
            lost=lambda q: (
                f"seat {q} has {home[q]} mice home, more than seat {p} can still get there "
                f"({home[p]} home, {way[p]} on the way) (KK-13)"
            ),
            won=f"seat {p} has {home[p]} mice home, more than any other seat can still get there (KK-13)",
        )

    def _play_help(self, view: Dict[str, Any], p: int) -> str:
        clover = f"the clover: any distance from 1 to {self.clover}" if CLOVER in self.faces else ""
        faces = ", ".join(str(f) for f in self.faces)
        out = (
            "a seat whose mice are all caught is out of the game and cannot win"
            if self.elim_out
            else "a seat whose mice are all caught only loses its turns"
        )
        if self.last_out:
            out += "; when every seat is out, the last one out wins"
        return "\n".join(
            [
                f"{self.title}: bring your {self.mice} mice from the pantry along the track into the hole.",
                f"- Your turn: the die is rolled for you (faces {faces}); move one of your free",
                "  mice that many spaces on (KK-5)" + (f"; {clover}." if clover else "."),
                "  You must move when you can, even into a trap; a seat without a free mouse skips its turn",
                "  (KK-10).",
                "- A mouse is free when it is not caught, not home, and no mouse stands on it; your pantry",
                "  stack moves one mouse at a time (KK-6).",
                "- A mouse that stops on other mice climbs on top and blocks them until it leaves (KK-8).",
                "- A mouse that stops exactly on an empty trap is caught there for good; the trap is then",
                "  full and mice stop on it safely (KK-9). Passing over a trap is safe, and the hole needs",
                f"  no exact roll (KK-7). The traps: spaces {', '.join(map(str, self.traps))} (KK-1).",
                f"- {out[0].upper()}{out[1:]} (KK-11).",
                "- The end: no mouse is on the way any more (KK-12). Most mice home wins; a tie goes to",
                f"  {self._tie_words()} (KK-13).",
                "Moves: '12+5' (the mouse on space 12 moves 5), 'pantry+3', or as 'moves' lists them",
                "('space 12 +5 -> space 17').",
            ]
        )

    def _configure(self, params: Dict[str, Any]) -> Dict[str, Any]:
        L = _api.int_param("kasimir", params["track_length"], "track_length (KK-1: number of spaces)", 1, MAX_TRACK)
        traps = params["traps"]
        if not isinstance(traps, (list, tuple)):
            raise ParameterError(f"kasimir: traps must be a list of space numbers 1..{L}, got {shorten(traps)}")
        for t in traps:
            if isinstance(t, bool) or not isinstance(t, int) or not 1 <= t <= L:
                raise ParameterError(
                    f"kasimir: KK-1: traps holds {shorten(t)}, not a space of the track (spaces are 1..{L})"
                )
        if len(set(traps)) != len(traps):
            raise ParameterError(f"kasimir: KK-1: traps must not repeat a space, got {shorten(list(traps))}")
        mice = _api.int_param("kasimir", params["mice"], "mice (KK-2: mice per player)", 1, MAX_MICE)
        die = params["die"]
        if not isinstance(die, (list, tuple)) or not 1 <= len(die) <= MAX_FACES:
            raise ParameterError(f"kasimir: KK-3: die must be a list of 1 to {MAX_FACES} faces, got {shorten(die)}")
        for f in die:
            if f != CLOVER and (isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= MAX_STEP):
                raise ParameterError(
                    f"kasimir: KK-3: die face {shorten(f)} must be an int from 1 to {MAX_STEP} or {CLOVER!r}"
                )
        clover = _api.int_param(
            "kasimir", params["clover"], "clover (KK-5: the clover's largest distance)", 1, MAX_STEP
        )
        ec = params["explicit_chance"]
        if not isinstance(ec, bool):
            raise ParameterError(f"kasimir: explicit_chance must be a bool, got {shorten(ec)}")
        self.track_length = L
        self.home_pos = L + 1
        self.traps = sorted(traps)
        self.is_trap = [False] * (L + 2)
        for t in traps:
            self.is_trap[t] = True
        self.mice = mice
        self.faces = list(die)
        self.face_steps = [0 if f == CLOVER else int(f) for f in die]
        self.clover = clover
        self.max_distance = max([s for s in self.face_steps if s] + ([clover] if CLOVER in die else []))
        self.num_move_actions = (L + 1) * self.max_distance
        self.num_faces = len(die)
        self.num_actions = self.num_move_actions + self.num_faces
        self.explicit_chance = ec
        self.tie_break = params["tie_break"]  # checked by Game.__init__ (READINGS)
        self.tie = TIE_CODES[self.tie_break]
        self.elim_out = params["elimination"] == "out_of_game"
        self.last_out = params["all_eliminated"] == "last_out_wins"
        if self.tie or self.last_out:  # the keys these readings need, after first_home (default dicts unchanged)
            i = Kasimir.STATE_KEYS.index("first_home") + 1
            self.STATE_KEYS = (  # type: ignore[misc]  # this game's keys (a class default otherwise)
                Kasimir.STATE_KEYS[:i]
                + TIE_KEYS[self.tie_break]
                + (OUT_KEYS if self.last_out else ())
                + Kasimir.STATE_KEYS[i:]
            )
        n = self.num_players
        self.stack_levels = n * mice
        self.observation_shape = (n * (L + 2) + L * self.stack_levels * n + 2 * L + self.num_faces + n + 1 + n,)
        return {
            "explicit_chance": ec,
            "track_length": L,
            "traps": list(self.traps),
            "mice": mice,
            "die": list(die),
            "clover": clover,
        }

    # -- encoding ----------------------------------------------------------------------

    def action_to_move(self, action: SupportsIndex) -> Union[KKMove, KKRoll]:
        a = _api.check_action_type(action)
        if not 0 <= a < self.num_actions:
            raise IllegalMoveError(f"action {shorten(a)} is out of range 0..{self.num_actions - 1}")
        if a >= self.num_move_actions:
            return KKRoll(a - self.num_move_actions, self.faces[a - self.num_move_actions])
        start, d = divmod(a, self.max_distance)
        return KKMove(start, d + 1)

    def move_to_action(self, move: _api.Move) -> int:
        if isinstance(move, KKRoll):
            if not (is_int(move.index) and 0 <= move.index < self.num_faces) or self.faces[move.index] != move.face:
                raise IllegalMoveError(
                    f"KK-3: the die has no face {shorten(move.face)} at index {move.index}; faces: {self.faces}"
                )
            return self.num_move_actions + move.index
        if not isinstance(move, KKMove):
            raise TypeError(f"kasimir takes KKMove or KKRoll moves, not {type(move).__name__}")
        if not (is_int(move.start) and 0 <= move.start <= self.track_length):
            raise IllegalMoveError(
                f"KK-1: a move starts in the pantry (0) or on a space 1..{self.track_length}, not {move.start}"
            )
        if not (is_int(move.distance) and 1 <= move.distance <= self.max_distance):
            raise IllegalMoveError(f"KK-5: a move goes 1..{self.max_distance} spaces, not {move.distance}")
        return move.start * self.max_distance + move.distance - 1

    def roll_distances(self, face_index: int) -> List[int]:
        """The distances face ``face_index`` allows (KK-5): its number, or 1..clover."""
        s = self.face_steps[face_index]
        return [s] if s else list(range(1, self.clover + 1))

    # -- readable notation -------------------------------------------------------------

    def position_name(self, pos: int) -> str:
        """``pantry`` (0), ``space N`` (a plain space), ``trap N`` (KK-1), ``hole`` (L + 1 or
        beyond, KK-7)."""
        if pos <= 0:
            return "pantry"
        if pos > self.track_length:
            return "hole"
        return f"trap {pos}" if self.is_trap[pos] else f"space {pos}"

    def skipped_seats(self, mover: int, seat: int) -> Tuple[int, ...]:
        """KK-10, KK-11: the turn goes clockwise, one seat a move; the seats passed over
        between ``mover``'s move and ``seat``'s turn had no free mouse (all of them when
        ``seat`` is ``mover`` again).

        >>> import mousehole
        >>> mousehole.load("kasimir", players=4).skipped_seats(3, 2)
        (0, 1)
        """
        n = self.num_players
        gap = (seat - mover) % n or n
        return tuple((mover + k) % n for k in range(1, gap))

    def describe_move(self, move: KasimirMove) -> str:
        """The readable text of ``move``: where the mouse starts, how far it goes and where it
        ends (``"space 12 +5 -> space 17"``, ``"pantry +3 -> trap 3"``,
        ``"space 38 +5 -> hole"``), or the face a roll shows (``"roll clover"``; with the
        face index, ``"roll 1 #1"``, when the die has that face more than once)."""
        self.move_to_action(move)  # a move of this game
        if isinstance(move, KKRoll):
            if self.faces.count(move.face) == 1:
                return f"roll {move.face}"
            return str(move)
        assert isinstance(move, KKMove)
        return f"{self.position_name(move.start)} +{move.distance} -> {self.position_name(move.start + move.distance)}"

    def _describe_seen(self, before: Dict[str, Any], after: Dict[str, Any], action: Optional[int]) -> str:
        # KK-14: every move and roll is public: a view hides none of them
        expect(action is not None, "KK-14: a view of Kater Kasimir hides no move")
        assert action is not None
        return self.describe_move(self.action_to_move(action))

    def parse_move(self, text: str) -> KasimirMove:
        """Read a move written as ``str(move)`` (``"12+5"``, ``"pantry+3"``,
        ``"roll clover #5"``) or as :meth:`describe_move` writes it
        (``"space 12 +5 -> space 17"``, ``"roll clover"``); ``game.parse_move(str(m)) == m``.
        Raises ``ValueError`` naming the notation, or what does not fit this game's track
        and die."""
        if not isinstance(text, str):
            raise ValueError(
                f"a Kater Kasimir move is written as text like '12+5' or 'roll 3', not {type(text).__name__}"
            )
        text = str(exact(text))  # (the str it holds: a subclass's own methods unheard)
        where = r"(pantry|hole|\d{1,9}|(?:space|trap)\s+\d{1,9})"
        m = re.fullmatch(r"\s*roll\s+(\d{1,9}|clover)\s*(?:#\s*(\d{1,9})\s*)?", text)
        if m:
            face: Union[int, str] = CLOVER if m.group(1) == CLOVER else int(m.group(1))
            if m.group(2) is not None:
                roll = KKRoll(int(m.group(2)), face)
                if not (0 <= roll.index < self.num_faces and self.faces[roll.index] == face):
                    raise ValueError(
                        f"KK-3: {shorten(text.strip())}: face #{roll.index} of the die {self.faces} is not "
                        f"{shorten(face)}"
                    )
                return roll
            if face not in self.faces:
                raise ValueError(f"KK-3: {shorten(text.strip())}: the die {self.faces} has no face {shorten(face)}")
            return KKRoll(self.faces.index(face), face)  # a repeated face: its first index
        m = re.fullmatch(rf"\s*{where}\s*\+\s*(\d{{1,9}})\s*(?:->\s*{where}\s*)?", text)
        if not m:
            raise ValueError(
                f"not a Kater Kasimir move: {shorten(text)} (expected e.g. '12+5', 'pantry+3', "
                "'space 12 +5 -> space 17', 'roll 3' or 'roll clover #5')"
            )
        start = self._read_position(m.group(1), text)
        move = KKMove(start, int(m.group(2)))
        self.move_to_action(move)  # KK-1, KK-5: a start on the track and a distance the die allows
        if m.group(3) is not None:
            end = self._read_position(m.group(3), text)
            target = min(start + move.distance, self.home_pos)
            if end != target:
                raise ValueError(
                    f"KK-7: {shorten(text.strip())}: {move.distance} spaces from the "
                    f"{self.position_name(start)} lead to the {self.position_name(target)}, "
                    f"not to the {self.position_name(end)}"
                )
        return move

    def _read_position(self, word: str, text: str) -> int:
        """A position named in the notation: pantry, hole, N, space N or trap N."""
        word = " ".join(word.split())
        if word == "pantry":
            return 0
        if word == "hole":
            return self.home_pos
        kind, _, num = word.rpartition(" ")
        pos = int(num)
        if pos == 0 and not kind:
            return 0  # "0+3" (str of KKMove): the pantry
        if not 1 <= pos <= self.track_length:
            raise ValueError(
                f"KK-1: {shorten(text.strip())}: {pos} is not a space of the track (1..{self.track_length})"
            )
        if kind == "trap" and not self.is_trap[pos]:
            raise ValueError(f"KK-1: {shorten(text.strip())}: space {pos} is not a trap (traps: {self.traps})")
        return pos

    # -- engine-neutral parts ----------------------------------------------------------

    def _validate_dict(self, d: Dict[str, Any]) -> None:
        """Accept a position the rules allow with a history of the right form.

        The position keys (``pantry``, ``track``, ``home``, ``first_home``, ``seat``,
        ``roll``) are authoritative, so that a position can be set up directly; ``history``
        is the log of the actions. Checked: types and ranges (a bool is not an int), KK-2
        conservation, the form of the history (chance actions only with explicit chance, one
        before each move; each distance one the die allows: KK-3, KK-5), the tie-break record
        (KK-13), ``max_turns`` and the turn: the end exactly when no mouse is on the way
        (KK-12), otherwise a seat with a free mouse (KK-10) and the roll it has been shown."""
        n, L, m, P = self.num_players, self.track_length, self.mice, self.num_move_actions
        # -- types and ranges
        pantry = int_list(d["pantry"], n, "pantry", 0, m)
        home = int_list(d["home"], n, "home", 0, m)
        track = d["track"]
        expect(isinstance(track, list) and len(track) == L, f"track must be a list of {L} stacks (spaces 1..{L})")
        for i, st in enumerate(track):
            int_list(st, None, f"track[{i}] (space {i + 1})", 0, n - 1)
        history = int_list(d["history"], None, "history", 0, self.num_actions - 1)
        fh = int_list(d["first_home"], n, "first_home", -1, max(len(history) - 1, -1))
        expect(type(d["truncated"]) is bool, f"truncated must be a bool, not {shorten(d['truncated'])}")
        roll = d["roll"]
        expect(
            roll is None or (is_int(roll) and 0 <= roll < self.num_faces),
            f"roll must be None or a face index 0..{self.num_faces - 1} of the die, not {shorten(roll)}",
        )
        seat = d["seat"]
        expect(
            is_int(seat), f"seat must be an int (a seat, or {_api.TERMINAL} once the game is over), not {shorten(seat)}"
        )
        # -- KK-2: every mouse is somewhere
        count = [pantry[p] + home[p] for p in range(n)]
        for st in track:
            for q in st:
                count[q] += 1
        for p in range(n):
            expect(
                count[p] == m, f"KK-2: seat {p} has {count[p]} mice in the pantry, on the track and home; it has {m}"
            )
        # -- KK-3, KK-5: the form of the history
        any_face = sorted({x for f in range(self.num_faces) for x in self.roll_distances(f)})
        for i, a in enumerate(history):
            if self.explicit_chance:
                expect(
                    (a >= P) == (i % 2 == 0),
                    f"KK-5: history[{i}] = {a}: with explicit chance every turn is "
                    "a die face (an action >= P) followed by a move",
                )
                if a < P:
                    face = history[i - 1] - P
                    expect(
                        a % self.max_distance + 1 in self.roll_distances(face),
                        f"KK-5: history[{i}] moves {a % self.max_distance + 1} spaces after the die showed "
                        f"{self.faces[face]!r}",
                    )
            else:
                expect(
                    a < P,
                    f"KK-5: history[{i}] = {a} is a die face, but without explicit chance the "
                    "state rolls itself and history holds moves only",
                )
                step = a % self.max_distance + 1
                expect(
                    step in any_face,
                    f"KK-3: history[{i}] moves {step} spaces, which no face of the die {self.faces} allows",
                )
        moves = sum(1 for a in history if a < P)
        expect(moves <= self.max_turns, f"history holds {moves} moves, more than max_turns={self.max_turns}")
        # -- KK-13: the tie-break record
        for p in range(n):
            expect(
                (fh[p] >= 0) == (home[p] > 0), f"KK-13: first_home[{p}] = {fh[p]} disagrees with home[{p}] = {home[p]}"
            )
            if fh[p] >= 0:
                expect(history[fh[p]] < P, f"KK-13: first_home[{p}] points at history[{fh[p]}], a die face, not a move")
        got = [x for x in fh if x >= 0]
        expect(
            len(set(got)) == len(got), "KK-13: two seats cannot reach the hole with the same action (key 'first_home')"
        )
        self._validate_tie_record(d, home, fh, history, moves)  # KK-13 under tie_break
        if self.last_out:  # KK-11 under all_eliminated="last_out_wins"
            self._validate_out_record(d, track, history)
        # -- KK-10, KK-12: the turn
        on_way = (
            sum(pantry)
            + sum(len(st) for st in track)
            - sum(1 for i, st in enumerate(track) if st and self.is_trap[i + 1])
        )
        over = on_way == 0
        expect(
            d["truncated"] == (not over and moves >= self.max_turns),
            f"truncated must be true exactly when max_turns={self.max_turns} moves ended a game with mice on the way",
        )
        if over or d["truncated"]:
            expect(
                seat == _api.TERMINAL and roll is None, f"KK-12: a finished game has seat {_api.TERMINAL} and no roll"
            )
            expect(
                not (self.explicit_chance and history and history[-1] >= P),
                "KK-12: a game ends with a move, not with a die face",
            )
        else:
            expect(0 <= seat < n, f"KK-12: {on_way} mice are still on the way, so seat must be 0..{n - 1}, not {seat}")
            expect(_can_move(self, pantry, track, seat), f"KK-10: seat {seat} has no free mouse and cannot be to move")
            if self.explicit_chance:
                shown = history[-1] - P if history and history[-1] >= P else None
                expect(
                    roll == shown,
                    f"KK-5: with explicit chance the roll is the die face that history ends with "
                    f"({shown!r}: None when the seat has yet to roll), not {shorten(roll)}",
                )
            else:
                expect(roll is not None, "KK-5: without explicit chance the roll is always shown")

    def _validate_tie_record(
        self, d: Dict[str, Any], home: List[int], fh: List[int], history: List[int], moves: int
    ) -> None:
        """KK-13: the keys the ``tie_break`` reading adds (``TIE_KEYS``), checked against
        ``home``, ``first_home`` and the history: ``last_home`` (``first_finished``) set exactly
        for the seats with a mouse home, at a move, the first one for one mouse home and a
        later one for more, never one move for two seats; ``round`` (``fewest_turns``) from 1
        to the moves + 1 with at most ``players`` moves a round, ``home_round`` set (``> 0``)
        exactly for the seats with a mouse home and at most ``round``."""
        n, P = self.num_players, self.num_move_actions
        if self.tie == 1:  # tie_break="first_finished": the move of each seat's latest mouse home
            lh = int_list(d["last_home"], n, "KK-13: last_home", -1, max(len(history) - 1, -1))
            for p in range(n):
                expect(
                    (lh[p] >= 0) == (home[p] > 0),
                    f"KK-13: last_home[{p}] = {lh[p]} disagrees with home[{p}] = {home[p]}",
                )
                if lh[p] >= 0:
                    expect(
                        history[lh[p]] < P, f"KK-13: last_home[{p}] points at history[{lh[p]}], a die face, not a move"
                    )
                    expect(
                        (lh[p] == fh[p]) == (home[p] == 1) and lh[p] >= fh[p],
                        f"KK-13: last_home[{p}] = {lh[p]} and first_home[{p}] = {fh[p]} do not fit "
                        f"home[{p}] = {home[p]} (the same move for one mouse home, a later one for more)",
                    )
            for p in range(n):
                for q in range(p + 1, n):
                    expect(
                        not ({fh[p], lh[p]} & {fh[q], lh[q]}) or home[p] == 0 or home[q] == 0,
                        f"KK-13: seats {p} and {q} cannot reach the hole with the same action "
                        "(keys 'first_home', 'last_home')",
                    )
        elif self.tie == 2:  # tie_break="fewest_turns": the round now and of each seat's latest mouse home
            rnd = d["round"]
            expect(
                type(rnd) is int and 1 <= rnd <= moves + 1 and moves <= n * rnd,
                f"KK-13: round must be an int from 1 to the moves + 1 ({moves + 1}), with at most {n} moves "
                f"a round ({moves} moves so far), not {shorten(rnd)}",
            )
            hr = int_list(d["home_round"], n, "KK-13: home_round", 0, rnd)
            for p in range(n):
                expect(
                    (hr[p] > 0) == (home[p] > 0),
                    f"KK-13: home_round[{p}] = {hr[p]} disagrees with home[{p}] = {home[p]}",
                )

    def _validate_out_record(self, d: Dict[str, Any], track: List[List[int]], history: List[int]) -> None:
        """KK-11: ``out_at`` (``all_eliminated="last_out_wins"``) is set exactly for the seats
        whose mice are all caught, at a move, never one move for two seats (a move catches one
        mouse)."""
        n, P = self.num_players, self.num_move_actions
        oa = int_list(d["out_at"], n, "KK-11: out_at", -1, max(len(history) - 1, -1))
        out = _eliminated(self, track)
        for p in range(n):
            expect(
                (oa[p] >= 0) == out[p],
                f"KK-11: out_at[{p}] = {oa[p]} disagrees with the track: seat {p}'s mice are "
                f"{'all' if out[p] else 'not all'} caught",
            )
            if oa[p] >= 0:
                expect(history[oa[p]] < P, f"KK-11: out_at[{p}] points at history[{oa[p]}], a die face, not a move")
        got = [x for x in oa if x >= 0]
        expect(len(set(got)) == len(got), "KK-11: one move cannot catch the last mice of two seats (key 'out_at')")

    def _redact(self, d: Dict[str, Any], p: int) -> Dict[str, Any]:
        # KK-14: everything is public except the generator (it predicts future rolls).
        d["rng"] = None
        return d

    def _determinize(self, view: Dict[str, Any], p: int, rng: Rng) -> Dict[str, Any]:
        # KK-14: nothing is hidden but the future rolls: only the generator is drawn anew.
        view["rng"] = rng.next64()
        return view

    def _observation(self, d: Dict[str, Any], p: int) -> npt.NDArray[np.float32]:
        n, L, H = self.num_players, self.track_length, self.stack_levels
        obs = np.zeros(self.observation_shape, dtype=np.float32)
        c = 0
        rel = [(p + k) % n for k in range(n)]
        # A: mice of each seat (relative to p) at each position 0 .. L+1
        for k, q in enumerate(rel):
            obs[c + k * (L + 2)] = d["pantry"][q]
            obs[c + k * (L + 2) + L + 1] = d["home"][q]
        for i, st in enumerate(d["track"]):
            for q in st:
                obs[c + ((q - p) % n) * (L + 2) + i + 1] += 1.0
        c += n * (L + 2)
        # B: stacks, bottom first: [space][level][relative owner]
        for i, st in enumerate(d["track"]):
            for h, q in enumerate(st):
                obs[c + (i * H + h) * n + (q - p) % n] = 1.0
        c += L * H * n
        # C: trap spaces, full traps
        for t in self.traps:
            obs[c + t - 1] = 1.0
            if d["track"][t - 1]:
                obs[c + L + t - 1] = 1.0
        c += 2 * L
        # D: the roll (one-hot face index)
        if d["roll"] is not None:
            obs[c + d["roll"]] = 1.0
        c += self.num_faces
        # E: the seat to move (relative), then the chance flag
        if d["seat"] != _api.TERMINAL:
            obs[c + (d["seat"] - p) % n] = 1.0
            if d["roll"] is None:
                obs[c + n] = 1.0
        c += n + 1
        # F: tie-break order (by the tie_break reading): 1 / (1 + rank) for seats with a mouse
        # home, rank = the seats strictly ahead (equal keys share a rank)
        keys = _tie_keys(self, d)
        for q, x in enumerate(keys):
            if x >= 0:
                r = sum(1 for y in keys if 0 <= y < x)
                obs[c + (q - p) % n] = 1.0 / (1 + r)
        return obs

    def _render(self, d: Dict[str, Any]) -> str:
        n, L = self.num_players, self.track_length
        strip = []
        for i, st in enumerate(d["track"]):
            trap = self.is_trap[i + 1]
            if not st:
                strip.append("o" if trap else ".")
            elif trap and len(st) == 1:
                strip.append("abcd"[st[0]])  # a trapped mouse alone: lower case
            else:
                strip.append("ABCD"[st[-1]])
        ruler = "".join(str((i // 10) % 10) if i % 10 == 0 else " " for i in range(1, L + 1))
        lines = [
            "pantry " + " ".join(f"{'ABCD'[q]}:{d['pantry'][q]}" for q in range(n)),
            "       " + ruler.rstrip(),
            "track  " + "".join(strip),
        ]
        for i, st in enumerate(d["track"]):
            if st:
                s = i + 1
                cells = ["ABCD"[q] for q in st]
                if self.is_trap[s]:
                    cells[0] = f"[{cells[0]}]"  # KK-9: the trapped mouse, at the bottom
                lines.append(f"{s:>5}{'T' if self.is_trap[s] else ' '} " + " ".join(cells))
        lines.append("hole   " + " ".join(f"{'ABCD'[q]}:{d['home'][q]}" for q in range(n)))
        seat, roll = d["seat"], d["roll"]
        if seat == _api.TERMINAL:
            who = "game over" + (" (truncated)" if d["truncated"] else "")
        elif roll is None:
            who = f"seat {seat} ({'ABCD'[seat]}) to roll (chance node)"
        else:
            who = f"seat {seat} ({'ABCD'[seat]}) to move, rolled {self.faces[roll]}"
        lines.append(f"{len(d['history'])} actions; {who}")
        big, small = f"A-{'ABCD'[n - 1]}", f"a-{'abcd'[n - 1]}"  # (2 to 4 seats)
        lines.append(
            f"legend: {big} the mice of seats 0-{n - 1} (pantry, hole: how many are there); track: . a "
            f"space, o an empty trap, a letter the top mouse of a space, {small} a mouse caught alone in "
            "its trap; then each space with mice, its tower bottom to top (T a trap, [X] the caught mouse)"
        )
        return "\n".join(lines)

    def _explain_illegal(self, state: _api.StateAPI[Any], action: Any) -> str:
        a = _api.check_action_type(action)
        if state.is_terminal():
            return f"KK-12: the game is over; action {a} cannot be applied"
        if not 0 <= a < self.num_actions:
            return f"action {shorten(a)} is out of range 0..{self.num_actions - 1}"
        d = state._to_dict()
        p, roll = d["seat"], d["roll"]
        if roll is None:
            if a < self.num_move_actions:
                return (
                    f"KK-5: seat {p} must roll first: this is a chance node, apply a die face "
                    f"{self.num_move_actions}..{self.num_actions - 1}"
                )
            return f"KK-3: action {a} is not a face of the die"  # pragma: no cover - every face is legal
        if a >= self.num_move_actions:
            return f"KK-5: the die already shows {self.faces[roll]}; seat {p} must move a mouse"
        start, dist = divmod(a, self.max_distance)
        dist += 1
        if start == 0:
            if d["pantry"][p] == 0:
                return f"KK-6: seat {p} has no mouse left in the pantry"
        else:
            st = d["track"][start - 1]
            if not st:
                return f"KK-6: there is no mouse on space {start}"
            if st[-1] != p:
                return f"KK-6: the top mouse on space {start} belongs to seat {st[-1]}, not seat {p}"
            if len(st) == 1 and self.is_trap[start]:
                return f"KK-9: seat {p}'s mouse on space {start} is trapped for the rest of the game"
        allowed = self.roll_distances(roll)
        if dist not in allowed:
            if self.face_steps[roll]:
                return f"KK-5: seat {p} rolled {self.faces[roll]} and must move exactly {allowed[0]} spaces, not {dist}"
            return f"KK-5: the clover allows 1 to {self.clover} spaces, not {dist}"
        return f"action {a} is not legal here"  # pragma: no cover


# ---- helpers (engine-neutral) -------------------------------------------------------------


def _free_starts(game: Kasimir, pantry: List[int], track: List[List[int]], p: int) -> List[int]:
    """KK-6: the start spaces of seat p's free mice, ascending (0 = the pantry stack)."""
    out = [0] if pantry[p] else []
    for i, st in enumerate(track):
        # the top mouse is free unless it is the trapped one (alone, on a trap space)
        if st and st[-1] == p and not (len(st) == 1 and game.is_trap[i + 1]):
            out.append(i + 1)
    return out


def _can_move(game: Kasimir, pantry: List[int], track: List[List[int]], p: int) -> bool:
    return bool(_free_starts(game, pantry, track, p))


def winners_from(
    home: List[int], keys: List[int], out: Optional[List[bool]] = None, out_at: Optional[List[int]] = None
) -> List[int]:
    """KK-13: most mice home; tie-break: the smallest key (``_tie_keys``: by default the
    history index of the first mouse home), equal keys share; tied seats without any mouse
    home share, except the seats ``out`` marks as eliminated (KK-11, ``elimination=
    "out_of_game"``). With ``out_at`` (``all_eliminated="last_out_wins"``: per seat the
    history index of the move that caught its last mouse, -1: not eliminated), when every
    seat is eliminated the one eliminated last wins alone (KK-11)."""
    best = max(home)
    tied = [p for p, h in enumerate(home) if h == best]
    if best == 0:
        if out_at is not None and min(out_at) >= 0:  # every seat out: the last one out wins
            return [out_at.index(max(out_at))]
        return [p for p in tied if not out[p]] if out is not None else tied
    if len(tied) == 1:
        return tied
    first = min(keys[p] for p in tied)
    return [p for p in tied if keys[p] == first]


def _tie_keys(game: Kasimir, d: Dict[str, Any]) -> List[int]:
    """KK-13: each seat's tie-break key under the ``tie_break`` reading (smaller is better),
    ``-1`` for a seat with no mouse home: the history index of its first mouse home
    (``first_home``), of its latest one (``first_finished``), or the round of its latest one
    (``fewest_turns``)."""
    if game.tie == 1:
        return list(d["last_home"])
    if game.tie == 2:
        return [r if r > 0 else -1 for r in d["home_round"]]
    return list(d["first_home"])


def _eliminated(game: Kasimir, track: List[List[int]]) -> List[bool]:
    """KK-11: per seat, whether all its mice are trapped (the bottom mouse of a trap space)."""
    trapped = [0] * game.num_players
    for i, st in enumerate(track):
        if st and game.is_trap[i + 1]:
            trapped[st[0]] += 1
    return [t == game.mice for t in trapped]


# ---- the pure-Python reference engine ------------------------------------------------------


class KasimirState(_api.GameState[Kasimir, KasimirMove]):
    """The public type of a Kater Kasimir state, on either engine: what ``Kasimir.new_state()``
    returns and what annotations should name. The reference engine
    (``ReferenceKasimirState``) and the compiled one both derive from it."""

    __slots__ = ()

    def returns(self) -> List[float]:
        """+1 for each winner and -1 for each other seat at the end (KK-13); 0 for all before
        the end and when every seat wins. When nobody wins (``elimination="out_of_game"``,
        every seat eliminated, KK-11) every seat has lost: -1 each with 3 or 4 players, but 0
        each with 2, whose returns sum to 0 (zero-sum: two seats that lose alike end even)."""
        n = self.game.num_players
        if n == 2 and self.is_terminal() and not self.winners():
            return [0.0, 0.0]
        return super().returns()

    def describe(self, action: Union[KasimirMove, SupportsIndex], *, for_player: Optional[SupportsIndex] = None) -> str:
        """``action`` (an int or a move) as a person reads it: ``"space 12 +5 -> space 17"``,
        ``"pantry +3 -> trap 3"``, ``"space 38 +5 -> hole"`` or ``"roll clover"``
        (``Kasimir.describe_move``); :meth:`parse_action` reads it back. ``for_player``
        gives the same text (KK-14: no move is hidden), for a legal action."""
        if for_player is not None:
            return self._describe_for(action, for_player)
        g = self.game
        a = g._action(action)
        return g.describe_move(g.action_to_move(a))


class ReferenceKasimirState(KasimirState):
    """A Kater Kasimir state (pure-Python reference engine), written straight from the rules
    (``docs/games/kasimir.md``)."""

    __slots__ = (
        "_seed0",
        "game",
        "pantry",
        "track",
        "home",
        "first_home",
        "last_home",
        "home_round",
        "round",
        "out_at",
        "seat",
        "roll",
        "rng",
        "history",
        "truncated",
    )

    game: Kasimir
    pantry: List[int]  # mice of each seat still in the pantry (one stack each, KK-4)
    track: List[List[int]]  # track[s - 1]: owners of the mice on space s, bottom to top
    home: List[int]  # mice of each seat in the hole
    first_home: List[int]  # index in history of each seat's first mouse home, -1: none
    # kept by the tie_break reading that needs them (KK-13), fixed at their start values otherwise:
    last_home: List[int]  # "first_finished": index in history of each seat's latest mouse home, -1: none
    home_round: List[int]  # "fewest_turns": the round of each seat's latest mouse home, 0: none
    round: int  # "fewest_turns": the round of the table, from 1 (every seat has one turn a round)
    out_at: List[int]  # all_eliminated="last_out_wins": index in history of the move that caught each seat's last mouse
    seat: int  # seat to move (or to roll, at a chance node); TERMINAL at the end
    roll: Optional[int]  # face index shown by the die; None at a chance node / the end
    rng: Rng
    history: List[int]
    truncated: bool

    @staticmethod
    def new(game: Kasimir, seed: int) -> "ReferenceKasimirState":
        s = ReferenceKasimirState._reference(game, seed, [], seed)
        s.pantry = [game.mice] * game.num_players  # KK-2, KK-4: every mouse in its pantry stack
        s.track = [[] for _ in range(game.track_length)]
        s.home = [0] * game.num_players
        s.first_home = [-1] * game.num_players
        s.last_home = [-1] * game.num_players
        s.home_round = [0] * game.num_players
        s.round = 1
        s.out_at = [-1] * game.num_players
        s.truncated = False
        s.seat = 0  # KK-4: seat 0 starts
        s.roll = None
        s._roll_die()
        return s

    @staticmethod
    def _from_valid_dict(game: Kasimir, d: Dict[str, Any]) -> "ReferenceKasimirState":
        s = ReferenceKasimirState._reference(game, d["rng"], list(d["history"]), None)
        s.pantry = list(d["pantry"])
        s.track = [list(st) for st in d["track"]]
        s.home = list(d["home"])
        s.first_home = list(d["first_home"])
        s.last_home = list(d["last_home"]) if game.tie == 1 else [-1] * game.num_players
        s.home_round = list(d["home_round"]) if game.tie == 2 else [0] * game.num_players
        s.round = d["round"] if game.tie == 2 else 1
        s.out_at = list(d["out_at"]) if game.last_out else [-1] * game.num_players
        s.seat = d["seat"]
        s.roll = d["roll"]
        s.truncated = d["truncated"]
        return s

    def _to_dict(self) -> Dict[str, Any]:
        g = self.game
        d = g._header()
        d.update(
            pantry=list(self.pantry),
            track=[list(st) for st in self.track],
            home=list(self.home),
            first_home=list(self.first_home),
        )
        if g.tie == 1:  # tie_break="first_finished"
            d["last_home"] = list(self.last_home)
        elif g.tie == 2:  # tie_break="fewest_turns"
            d.update(round=self.round, home_round=list(self.home_round))
        if g.last_out:  # all_eliminated="last_out_wins"
            d["out_at"] = list(self.out_at)
        d.update(
            seat=self.seat,
            roll=self.roll,
            **self._closing_fields(),
        )
        return d

    # -- turn structure --------------------------------------------------------------

    def _roll_die(self) -> None:
        """KK-5: the turn's roll: drawn now, or left to a chance action (explicit chance)."""
        if not self.game.explicit_chance:
            self.roll = self.rng.below(self.game.num_faces)

    @property
    def current_player(self) -> int:
        if self.seat == _api.TERMINAL:
            return _api.TERMINAL
        return _api.CHANCE if self.roll is None else self.seat

    def is_terminal(self) -> bool:
        return self.seat == _api.TERMINAL

    def on_the_way(self) -> int:
        """Mice neither home nor trapped (KK-12)."""
        g = self.game
        trapped = sum(1 for i, st in enumerate(self.track) if st and g.is_trap[i + 1])
        return sum(self.pantry) + sum(len(st) for st in self.track) - trapped

    def free_starts(self, p: SupportsIndex) -> List[int]:
        """KK-6: start spaces of seat p's free mice, ascending (0 = the pantry stack);
        ``TypeError`` / ``ValueError`` for what is not a seat (``check_seat``)."""
        return _free_starts(self.game, self.pantry, self.track, _api.check_seat(self.game, p, "p"))

    def chance_outcomes(self) -> List[Tuple[int, float]]:
        """KK-3: every face is equally likely; ``[(P + i, 1/len(die)), ...]`` at a chance node."""
        if self.current_player != _api.CHANCE:
            return []
        g = self.game
        return [(g.num_move_actions + i, 1.0 / g.num_faces) for i in range(g.num_faces)]

    def legal_actions(self) -> npt.NDArray[np.int64]:
        g = self.game
        cp = self.current_player
        if cp == _api.TERMINAL:
            return np.zeros(0, dtype=np.int64)
        if cp == _api.CHANCE:
            return np.arange(g.num_move_actions, g.num_move_actions + g.num_faces, dtype=np.int64)
        assert self.roll is not None
        dists = g.roll_distances(self.roll)  # KK-5
        acts = [
            s * g.max_distance + d - 1 for s in _free_starts(g, self.pantry, self.track, cp) for d in dists
        ]  # KK-6, KK-10
        return np.array(acts, dtype=np.int64)

    def apply_action(self, action: SupportsIndex) -> None:
        a = _api.check_action_type(action)
        g = self.game
        cp = self.current_player
        if cp == _api.TERMINAL or not 0 <= a < g.num_actions:
            raise self._illegal(a)
        if cp == _api.CHANCE:
            if a < g.num_move_actions:
                raise self._illegal(a)
            self.roll = a - g.num_move_actions  # KK-5: the die shows this face
            self.history.append(a)
            return
        if a >= g.num_move_actions:
            raise self._illegal(a)
        assert self.roll is not None
        start, dist = divmod(a, g.max_distance)
        dist += 1
        if start not in _free_starts(g, self.pantry, self.track, cp) or dist not in g.roll_distances(self.roll):
            raise self._illegal(a)
        self.history.append(a)
        self._move(cp, start, dist)
        self._next_turn(cp)

    def _move(self, p: int, start: int, dist: int) -> None:
        g = self.game
        # KK-6: only the top (moving) mouse leaves; the mice under it stay
        if start == 0:
            self.pantry[p] -= 1
        else:
            self.track[start - 1].pop()
        target = start + dist  # KK-7: every space counts one step, traps are passed safely
        if target >= g.home_pos:  # KK-7: no exact roll needed, extra steps are lost
            self.home[p] += 1
            if self.first_home[p] < 0:  # KK-13: remember who got a mouse home first
                self.first_home[p] = len(self.history) - 1
            if g.tie == 1:  # KK-13, tie_break="first_finished": and who got the latest one home when
                self.last_home[p] = len(self.history) - 1
            elif g.tie == 2:  # KK-13, tie_break="fewest_turns": in which round
                self.home_round[p] = self.round
            return
        # KK-9: an empty trap catches the mouse (it stays, alone, at the bottom);
        # KK-8: otherwise (plain space, or a trap already full) it goes on top of the stack
        caught = g.is_trap[target] and not self.track[target - 1]
        self.track[target - 1].append(p)
        if caught and g.last_out and _eliminated(g, self.track)[p]:  # KK-11: the seat's last mouse caught
            self.out_at[p] = len(self.history) - 1

    def _next_turn(self, p: int) -> None:
        g = self.game
        self.roll = None
        if self.on_the_way() == 0:  # KK-12: every mouse is home or trapped
            self.seat = _api.TERMINAL
            return
        if sum(1 for x in self.history if x < g.num_move_actions) >= g.max_turns:
            self.truncated = True
            self.seat = _api.TERMINAL
            return
        # KK-10, KK-11: seats without a free mouse (blocked, trapped or home) are skipped;
        # some seat has one, since the top mouse of any stack of a mouse on the way is free.
        # Passing seat 0 (playing or skipping) starts a new round of the table.
        q = (p + 1) % g.num_players  # clockwise
        if q == 0 and g.tie == 2:
            self.round += 1
        while not _free_starts(g, self.pantry, self.track, q):
            q = (q + 1) % g.num_players
            if q == 0 and g.tie == 2:
                self.round += 1
        self.seat = q
        self._roll_die()

    # -- results -----------------------------------------------------------------------

    def scores(self) -> List[int]:
        """KK-13: mice in the hole per seat (defined before the end too)."""
        return list(self.home)

    def winners(self) -> List[int]:
        """KK-13: most mice home; tie-break by the ``tie_break`` reading (default: the first
        mouse home); tied seats with none share, eliminated ones excepted under
        ``elimination="out_of_game"`` (KK-11)."""
        if not self.is_terminal():
            return []
        g = self.game
        out = _eliminated(g, self.track) if g.elim_out else None
        return winners_from(self.home, _tie_keys(g, self._tie_record()), out, self.out_at if g.last_out else None)

    def _tie_record(self) -> Dict[str, Any]:
        return {"first_home": self.first_home, "last_home": self.last_home, "home_round": self.home_round}


# ---- the compiled engine (cengine/mousehole/_kasimir.pyx) -----------------------------------

_CompiledState: Any = _api.compiled_state_class("_kasimir", "KasimirCore", KasimirState, "A Kater Kasimir")
Kasimir._bind_states(ReferenceKasimirState, _CompiledState)
