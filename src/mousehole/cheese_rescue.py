"""Cheese Rescue (Éric Plotton & David Paput, Djeco), rules CR-1 .. CR-15.

Rules: ``docs/games/cheese_rescue.md`` restates every rule with its id.
2-4 players lay cards into a floating square; at the end dogs scare off adjacent cats, the
remaining cats chase adjacent mice, the remaining mice eat adjacent cheese, and each player
scores the cheese of their own set still on the table.

Engine model
------------
* **Grid.** The table is a fixed ``G x G`` grid, ``G = 2N - 1`` where ``N`` is the square
  size of CR-6, with the start card (or, with 3 players, the first card) on the centre cell
  ``(N - 1, N - 1)``. Every card of a game lies within ``N - 1`` cells of it (CR-8), so the
  grid holds every reachable layout.
* **Card kinds.** ``0 dog, 1 cat, 2 mouse``, then one kind per distinct cheese value,
  ascending (``3 = cheese1, 4 = cheese2, 5 = cheese3`` by DEFAULT). A hand is a count per kind.
* **Actions.** ``action = kind * G * G + row * G + col``: lay a card of ``kind`` at
  ``(row, col)``. ``num_actions = (3 + K) * G * G`` (``K`` cheese kinds).
* **Table codes** (``to_dict()["table"]``, row-major): 0 empty (``EMPTY``), 1 start card
  (``START``), 2 dog (``DOG_CODE``), 3 cat (``CAT_CODE``), 4 mouse (``MOUSE_CODE``),
  ``5 + owner * K + cheese_kind`` for a cheese (``CHEESE_CODE + ...``).

Choices where the text is silent (``docs/games/cheese_rescue.md``): with 3 players the first
card goes on the centre cell (the layout is translation invariant, so nothing is lost).

Readings (``READINGS``, keyword parameters of ``mousehole.load``; ``docs/games/cheese_rescue.md``,
"Readings"): ``play_area`` (CR-6, CR-8): ``"floating"`` (default; the square is wherever the
cards lie) or ``"centred_on_start"`` (with 2 or 4 players the square is fixed, the start card on
its centre cell).
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Dict, List, Optional, Set, SupportsIndex, Tuple

import numpy as np
import numpy.typing as npt

from . import _api
from ._api import IllegalMoveError, ParameterError, expect, int_list, is_int
from ._rng import Rng
from ._values import DeprecatedAlias, exact, shorten

__all__ = [
    "CheeseRescue",
    "CRMove",
    "CheeseRescueState",
    "ReferenceCheeseRescueState",
    "DEFAULT",
    "READINGS",
    "parse_move",
]

# ---- constants and the DEFAULT data table ------------------------------------------------

ANIMALS = ("dog", "cat", "mouse")  #: the card kinds 0, 1, 2; kind ``3 + i`` is the i-th cheese value

#: The table codes of ``to_dict()["table"]`` (plain ints): an empty cell, the start card
#: (CR-3), the animals, and from CHEESE_CODE on the cheese cards. The animal of kind ``k``
#: has code ``DOG_CODE + k``; the cheese of kind ``i`` laid by seat ``owner`` has code
#: ``CHEESE_CODE + owner * K + i`` (``K`` cheese kinds).
EMPTY, START, DOG_CODE, CAT_CODE, MOUSE_CODE, CHEESE_CODE = range(6)
#: Physical data (CR-1, CR-2, CR-4, CR-6); every entry is a game parameter.
DEFAULT: Dict[str, Any] = {
    "animals": {"dog": 6, "cat": 12, "mouse": 18},  # CR-1 (DEFAULT split)
    "removal": {  # CR-4, by player count
        2: {"dog": 3, "cat": 6, "mouse": 9},
        3: {"dog": 2, "cat": 3, "mouse": 4},
        4: {"dog": 0, "cat": 0, "mouse": 0},
    },
    "cheese_values": [1, 1, 1, 2, 2, 3],  # CR-2
    "square": {2: 5, 3: 6, 4: 7},  # CR-6
    "initial_draw": 2,  # CR-5
}
MAX_CHEESE_KINDS = 5
MAX_SQUARE = 8

#: The open readings of the rule text (docs/games/cheese_rescue.md, "Readings"); each is a
#: parameter. (The order of the removals, CR-12, and the tie-break, CR-13, are not: see the
#: docs page, "Choices where the text is unclear".)
READINGS: Tuple[_api.Reading, ...] = (
    _api.Reading(
        param="play_area",
        values=("floating", "centred_on_start"),
        meaning=(
            "the N x N square is wherever the cards lie: their bounding box may not grow larger than it",
            "with 2 or 4 players the N x N square is fixed, the start card on its centre cell; with 3 players "
            "(no start card) it floats",
        ),
        rules=("CR-6", "CR-8"),
        source='Dans une partie à 2 ou 4 joueurs, la carte "départ" est posée au centre de la table. ... '
        "La carte posée ne doit pas sortir de la surface de jeu. La surface de jeu est délimitée ainsi : "
        "A 2 joueurs : un carré de 5 cartes par 5 ... A 4 joueurs : un carré de 7 cartes par 7 / "
        "Het speelvlak mag het volgende aantal kaarten niet overschrijden: Bij 2 spelers: een vierkant "
        "van 5 bij 5 kaarten",
        translation='In a game with 2 or 4 players, the "start" card is placed in the centre of the table. ... '
        "The card laid must not go outside the play area. The play area is delimited as follows: "
        "with 2 players, a square of 5 cards by 5 ... with 4 players, a square of 7 cards by 7 / "
        "The play area may not exceed the following number of cards: with 2 players, a square of "
        "5 by 5 cards",
        why_default="Neither text says where the square lies, and the Dutch gives it as a size the play area "
        "may not exceed; the 3-player game, which has no start card, can only be played with a "
        "floating square. The odd squares (5, 7) of the games with a start card are what suggests "
        "it marks a fixed centre.",
    ),
)


# ---- moves -------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class CRMove(_api.Move):
    """Lay a ``card`` (``"dog"``, ``"cat"``, ``"mouse"`` or ``"cheese<value>"``) at grid
    cell ``(row, col)``.

    >>> CRMove("cat", 6, 7)
    CRMove(card='cat', row=6, col=7)
    >>> str(CRMove("cheese3", 5, 6))
    'cheese3@5,6'
    >>> CRMove.from_str("cheese3@5,6")
    CRMove(card='cheese3', row=5, col=6)
    """

    card: str
    row: int
    col: int

    def __str__(self) -> str:
        return f"{self.card}@{self.row},{self.col}"

    @classmethod
    def from_str(cls, text: str) -> "CRMove":
        return parse_move(text)


# ---- notation: str(move) and its parser ----------------------------------------------------


def parse_move(text: str) -> CRMove:
    """Read a move from its ``str``, ``card@row,col`` (any card name, any cell: the game's
    ``parse_move`` also checks that its game has them). Raises ``ValueError`` naming the
    notation (``TypeError`` for what is not a str).

    >>> parse_move("cheese3@5,6")
    CRMove(card='cheese3', row=5, col=6)
    """
    if not isinstance(text, str):
        raise TypeError(f"a Cheese Rescue move is read from a str, not {type(text).__name__}")
    text = str(exact(text))  # (the str it holds: a subclass's own methods unheard)
    m = re.fullmatch(r"\s*(dog|cat|mouse|cheese\d+)\s*@\s*(\d+)\s*,\s*(\d+)\s*", text)
    if not m:
        raise ValueError(f"not a Cheese Rescue move: {shorten(text)} (expected e.g. 'cat@6,7')")
    return CRMove(m.group(1), int(m.group(2)), int(m.group(3)))


# ---- the game ----------------------------------------------------------------------------


def _counts(x: Any, what: str) -> Dict[str, int]:
    if not isinstance(x, dict) or set(x) != set(ANIMALS):
        raise ParameterError(f"cheese_rescue: {what} must be a dict with keys dog, cat, mouse; got {shorten(x)}")
    return {k: _api.int_param("cheese_rescue", x[k], f"{what}[{k!r}]", 0, 80) for k in ANIMALS}


@_api.register
class CheeseRescue(_api.Game["CheeseRescueState", CRMove]):
    """Cheese Rescue. Parameters: ``players`` (2-4), ``max_turns``, the DEFAULT tables
    ``animals``, ``removal`` (for this player count), ``cheese_values``, ``square``,
    ``initial_draw``, and the reading ``play_area`` (CR-6, CR-8; :data:`READINGS`):
    ``"floating"`` (default) or ``"centred_on_start"`` (with 2 or 4 players the square is fixed,
    the start card on its centre cell, and needs an odd ``square``; with 3 players it floats).

    >>> g = CheeseRescue(players=4, engine="python")
    >>> g.num_actions, g.observation_shape
    (1014, (32, 13, 13))
    """

    DRAWING = "mousehole.render.cheese_rescue"
    SCORE = "the values of the seat's own cheese cards still on the table after the removals (CR-12, CR-13)"
    SEARCH_TUNING = {"c": 0.7, "depth": -1, "scale": 10.0, "greedy": 0.0}  # StrongBot (docs/bots.md)
    INFORMATION = "imperfect"  # CR-15: the animals in the hands, the pile
    ENV_ID = "mousehole/CheeseRescue-v0"

    name = "cheese_rescue"
    title = "Cheese Rescue"
    min_players = 2
    max_players = 4
    STATE_KEYS = ("table", "hands", "pile", "rng", "history", "truncated")
    READINGS = READINGS
    DEFAULTS = {
        "players": 4,
        "max_turns": 1000,
        "animals": None,
        "removal": None,
        "cheese_values": None,
        "square": None,
        "initial_draw": None,
        "play_area": READINGS[0].default,
    }

    # old names, kept until the next minor version (DeprecationWarning)
    N = DeprecatedAlias("square_size")
    G = DeprecatedAlias("grid_size")
    C = DeprecatedAlias("num_cells")
    K = DeprecatedAlias("num_cheese_kinds")

    # derived constants, set by _configure
    square_size: int  # the side of the largest square the cards may fill (CR-8)
    grid_size: int  # the side of the grid the table lies on (2 * square_size - 1)
    num_cells: int  # cells of the grid (grid_size ** 2)
    num_cheese_kinds: int  # kinds of cheese card
    center: int
    uses_start: bool
    cheese_kind_values: List[int]
    cheese_counts: List[int]
    pile_counts: List[int]
    cells_to_fill: int
    fixed_area: bool
    area_lo: int
    area_hi: int

    # -- facts other modules read (listed in the Game docstring) ---------------------------

    def max_game_length(self) -> int:
        """One card is laid per action until the square is full."""
        return min(self.max_turns, int(self.cells_to_fill))

    def greedy_value(self, state: "CheeseRescueState", seat: int) -> float:
        """The score race if the game ended now (CR-12 removal applied to the table as it
        is, CR-13 scores), with the surviving-cheese count as the tie-break."""
        scores = state.scores()
        counts = state.cheese_counts()  # type: ignore[attr-defined]  # (both engines define it)
        return self._lead([10.0 * s + k for s, k in zip(scores, counts)], seat)

    def _end_reason(self, d: Dict[str, Any]) -> str:
        if d["truncated"]:
            return super()._end_reason(d)
        return f"the {self.square_size} x {self.square_size} square is full (CR-11)"

    def _cheese(self, code: int) -> Tuple[int, int]:
        """The owner and the value of a cheese card's table code."""
        owner, ck = divmod(code - CHEESE_CODE, self.num_cheese_kinds)
        return owner, self.cheese_kind_values[ck]

    def _score_breakdown(self, d: Dict[str, Any]) -> Optional[List[str]]:
        """CR-12, CR-13 per seat: its cheese cards left after the removals, with their cells,
        and those the mice eat."""
        table, G = d["table"], self.grid_size
        after = final_table(self, table)
        kept: List[List[str]] = [[] for _ in range(self.num_players)]
        eaten: List[List[str]] = [[] for _ in range(self.num_players)]
        total = [0] * self.num_players
        for i, code in enumerate(table):
            if code >= CHEESE_CODE:
                owner, value = self._cheese(code)
                where = f"{self._cell_text(code)}@{i // G},{i % G}"
                if after[i] == code:
                    kept[owner].append(where)
                    total[owner] += value
                else:
                    eaten[owner].append(where)
        lines = []
        for q in range(self.num_players):
            left = " + ".join(kept[q]) if kept[q] else "no cheese left"
            gone = f"; eaten: {', '.join(eaten[q])}" if eaten[q] else ""
            lines.append(
                f"{left} = {total[q]} ({len(kept[q])} cheese card{'' if len(kept[q]) == 1 else 's'} "
                f"left{gone}) (CR-12, CR-13)"
            )
        return lines

    def _open_cells(self, table: List[int]) -> Set[int]:
        """The empty cells a card may still go to, as far as the square goes (CR-8; with a
        fixed square, ``play_area``, only those inside it): every card lies within one
        N x N square, so a cell outside every square that holds the cards laid stays empty."""
        G, N = self.grid_size, self.square_size
        occ = [i for i, c in enumerate(table) if c]
        if not occ:
            return {i for i in range(G * G) if self._in_area(i // G, i % G)}
        top, bottom = min(i // G for i in occ), max(i // G for i in occ)
        left, right = min(i % G for i in occ), max(i % G for i in occ)
        out = set()
        for i, c in enumerate(table):
            r, col = divmod(i, G)
            if (
                not c
                and max(bottom, r) - min(top, r) < N
                and max(right, col) - min(left, col) < N
                and self._in_area(r, col)
            ):
                out.add(i)
        return out

    def _settled(self, view: Dict[str, Any], p: int) -> Optional[Tuple[bool, str]]:
        """CR-12 on what is sure: a card not yet laid may be any card, on any cell a card may
        still go to (:meth:`_open_cells`), so a cat next to a dog is gone, a cat is sure to
        stay when no dog and no open cell touches it, a mouse is gone next to a cat sure to
        stay, and so on to the cheese. A seat's final score is then at least the cheese sure
        to stay and at most the cheese not sure to go plus the best cheese still in its hand
        (public, CR-15), one card for each turn it still has: seat ``p`` has lost once another
        seat's least is more than ``p``'s most, and has won once its least is more than every
        other seat's most (CR-13). Equal bounds are left open (the tie-break, the cheese cards
        left, may decide)."""
        table, G, n = view["table"], self.grid_size, self.num_players
        open_ = self._open_cells(table)
        yes, maybe = 1, 2  # (0: sure to go)

        def status(i: int, hunter: Dict[int, int], hunter_code: int) -> int:
            near = _neighbours(i, G)
            if any(table[j] == hunter_code and hunter.get(j, yes) == yes for j in near):
                return 0
            if any(j in open_ or (table[j] == hunter_code and hunter.get(j) == maybe) for j in near):
                return maybe
            return yes

        dogs: Dict[int, int] = {}
        cats = {i: status(i, dogs, DOG_CODE) for i, c in enumerate(table) if c == CAT_CODE}
        mice = {i: status(i, cats, CAT_CODE) for i, c in enumerate(table) if c == MOUSE_CODE}
        low, high = [0] * n, [0] * n
        for i, code in enumerate(table):
            if code >= CHEESE_CODE:
                owner, value = self._cheese(code)
                st = status(i, mice, MOUSE_CODE)
                low[owner] += value if st == yes else 0
                high[owner] += value if st else 0
        placed, end = len(view["history"]), min(self.cells_to_fill, self.max_turns)
        for q in range(n):  # the best cheese in its hand, one card a turn it still has (CR-7, CR-11)
            turns = sum(1 for t in range(placed, end) if t % n == q)
            held = sorted(
                (v for k, v in zip(view["hands"][q][3:], self.cheese_kind_values) for _ in range(k)), reverse=True
            )
            high[q] += sum(held[:turns])
        return _api.settled_by_bounds(
            low,
            high,
            p,
            lost=lambda q: (
                f"seat {q} keeps at least {low[q]} points of cheese whatever is laid, more than "
                f"the {high[p]} seat {p} can still reach (CR-12, CR-13)"
            ),
            won=f"seat {p} keeps at least {low[p]} points of cheese whatever is laid, more than any "
            "other seat can still reach (CR-12, CR-13)",
        )

    def _play_help(self, view: Dict[str, Any], p: int) -> str:
        N = self.square_size
        square = (
            f"the {N} x {N} square centred on the start card"
            if self.fixed_area
            else f"one {N} x {N} square, wherever the cards lie"
        )
        start = "the start card S" if self.uses_start else "the first card (laid anywhere)"
        return "\n".join(
            [
                f"{self.title}: lay cards into a square; at the end dogs, cats and mice clear the table, and",
                "your cheese that is left scores.",
                f"- Your turn: lay one hand card on an empty cell next to a card on the table, {start}",
                f"  included (CR-7); all cards must fit in {square}",
                "  (CR-8: '.' marks the cells a card may still go to). Then you draw a card while the pile",
                "  lasts (CR-9).",
                "- The end: the square is full (CR-11). Then, in this order: every cat next to a dog goes,",
                "  then every mouse next to a cat that is left, then every cheese next to a mouse that is",
                "  left; dogs and the start card stay and remove nothing else (CR-12).",
                "- Score: the values of your own cheese left on the table; a tie goes to more cheese cards",
                "  left, then it is shared (CR-13).",
                "- You see your own animals; of the others, their cheese and how many animals they hold (CR-15).",
                "Moves: 'dog@3,4', 'cat@3,4', 'mouse@3,4', 'cheese2@3,4': the card, then row,column as the",
                "board numbers them.",
            ]
        )

    def _configure(self, params: Dict[str, Any]) -> Dict[str, Any]:
        n = self.num_players
        animals = _counts(DEFAULT["animals"] if params["animals"] is None else params["animals"], "animals")
        removal = _counts(DEFAULT["removal"][n] if params["removal"] is None else params["removal"], "removal")
        cv = DEFAULT["cheese_values"] if params["cheese_values"] is None else params["cheese_values"]
        if (
            not isinstance(cv, (list, tuple))
            or not cv
            or len(cv) > 30
            or any(not is_int(v) or not 1 <= v <= 99 for v in cv)
        ):
            raise ParameterError(
                f"cheese_rescue: cheese_values must be a list of 1 to 30 ints 1..99, got {shorten(cv)}"
            )
        square = DEFAULT["square"][n] if params["square"] is None else params["square"]
        square = _api.int_param("cheese_rescue", square, "square", 2, MAX_SQUARE)
        draw = DEFAULT["initial_draw"] if params["initial_draw"] is None else params["initial_draw"]
        draw = _api.int_param("cheese_rescue", draw, "initial_draw", 0, 8)
        kinds = sorted(set(cv))
        if len(kinds) > MAX_CHEESE_KINDS:
            raise ParameterError(f"cheese_rescue: at most {MAX_CHEESE_KINDS} distinct cheese values, got {kinds}")
        pile = [animals[k] - removal[k] for k in ANIMALS]
        if min(pile) < 0:
            raise ParameterError(f"cheese_rescue: removal {removal} exceeds the animals {animals} (CR-4)")
        if sum(pile) < draw * n:
            raise ParameterError(f"cheese_rescue: {sum(pile)} animals cannot deal {draw} to each of {n} players (CR-5)")
        self.uses_start = n in (2, 4)  # CR-3, CR-14
        cells = square * square - (1 if self.uses_start else 0)
        if cells % n:
            raise ParameterError(f"cheese_rescue: {cells} cells to fill cannot be shared by {n} players (CR-11)")
        per_player = cells // n
        supply = len(cv) + draw + (sum(pile) - draw * n) // n
        if supply < per_player:
            raise ParameterError(
                f"cheese_rescue: each player must lay {per_player} cards but may hold only {supply} (CR-11)"
            )
        # CR-6, CR-8 (reading play_area): the rows and columns of the grid a card may lie in;
        # the whole grid when the square floats (the bounding box is checked on its own). A
        # square with a start card is odd (an even one leaves an odd number of cells, which no
        # 2 or 4 players share: refused above), so the start card has a centre cell to lie on.
        self.fixed_area = params["play_area"] == "centred_on_start" and self.uses_start
        half = (square - 1) // 2 if self.fixed_area else square - 1
        self.area_lo = (square - 1) - half
        self.area_hi = (square - 1) + half
        self.square_size = square
        self.grid_size = 2 * square - 1
        self.num_cells = self.grid_size * self.grid_size
        self.num_cheese_kinds = len(kinds)
        self.center = (square - 1) * self.grid_size + (square - 1)
        self.cheese_kind_values = kinds
        self.cheese_counts = [cv.count(v) for v in kinds]
        self.pile_counts = pile
        self.initial_draw = draw
        self.cells_to_fill = cells
        self.num_kinds = 3 + self.num_cheese_kinds
        self.num_actions = self.num_kinds * self.num_cells
        self.num_channels = 4 + n + 3 + n + n * self.num_cheese_kinds + 1 + n
        self.observation_shape = (self.num_channels, self.grid_size, self.grid_size)
        return {
            "animals": animals,
            "removal": removal,
            "cheese_values": list(cv),
            "square": square,
            "initial_draw": draw,
        }

    # -- encoding ----------------------------------------------------------------------

    def kind_name(self, kind: int) -> str:
        return ANIMALS[kind] if kind < 3 else f"cheese{self.cheese_kind_values[kind - 3]}"

    def action_to_move(self, action: SupportsIndex) -> CRMove:
        a = _api.check_action_type(action)
        if not 0 <= a < self.num_actions:
            raise IllegalMoveError(f"action {shorten(a)} is out of range 0..{self.num_actions - 1}")
        kind, cell = divmod(a, self.num_cells)
        return CRMove(self.kind_name(kind), *divmod(cell, self.grid_size))

    def move_to_action(self, move: _api.Move) -> int:
        if not isinstance(move, CRMove):
            raise TypeError(f"cheese_rescue takes CRMove moves, not {type(move).__name__}")
        names = [self.kind_name(k) for k in range(self.num_kinds)]
        if move.card not in names:
            raise IllegalMoveError(f"CR-1/CR-2: no card {shorten(move.card)} in this game; cards: {', '.join(names)}")
        side = self.grid_size
        if not (is_int(move.row) and is_int(move.col) and 0 <= move.row < side and 0 <= move.col < side):
            raise IllegalMoveError(f"CR-8: cell ({move.row}, {move.col}) is off the {side} x {side} grid")
        return names.index(move.card) * self.num_cells + move.row * self.grid_size + move.col

    def parse_move(self, text: str) -> CRMove:
        """Read a move in the notation of ``str(move)``: ``card@row,col`` with an absolute
        grid cell, e.g. ``cat@6,7`` or ``cheese3@5,6`` (``game.parse_move(str(m)) == m``).
        Raises ``ValueError`` naming the notation, or the card or cell this game lacks."""
        if not isinstance(text, str):
            raise ValueError(f"a Cheese Rescue move is written as text like 'cat@6,7', not {type(text).__name__}")
        text = str(exact(text))  # (the str it holds: a subclass's own methods unheard)
        move = parse_move(text)
        self.move_to_action(move)  # CR-1/CR-2: a card of this game; CR-8: a cell of the grid
        return move

    # -- engine-neutral parts ----------------------------------------------------------

    def _cheese_code(self, owner: int, ck: int) -> int:
        return CHEESE_CODE + owner * self.num_cheese_kinds + ck

    def _in_area(self, r: int, c: int) -> bool:
        """CR-8 with ``play_area='centred_on_start'``: the cell lies in the fixed square (always
        true when the square floats)."""
        return self.area_lo <= r <= self.area_hi and self.area_lo <= c <= self.area_hi

    def _validate_dict(self, d: Dict[str, Any]) -> None:
        """Accept exactly the states a game can reach: the history lays, in turn and each
        time on a legal cell, exactly the cards on the table; every card is somewhere; every
        hand and the pile have the sizes the deal and the draws give them."""
        n, G, K, C = self.num_players, self.grid_size, self.num_cheese_kinds, self.num_cells
        # -- types and ranges (a bool is not an int)
        table = int_list(d["table"], C, "table", 0, CHEESE_CODE - 1 + n * K)
        hands = d["hands"]
        expect(isinstance(hands, list) and len(hands) == n, f"hands must be a list of {n} hands (one per seat)")
        for p, h in enumerate(hands):
            int_list(h, self.num_kinds, f"hands[{p}]", 0, 255)
        pile = int_list(d["pile"], None, "pile", 0, 2)
        history = int_list(d["history"], None, "history", 0, self.num_actions - 1)
        expect(type(d["truncated"]) is bool, f"truncated must be a bool, not {shorten(d['truncated'])}")
        placed = len(history)
        expect(
            placed <= self.cells_to_fill,
            f"CR-11: history has {placed} actions, but only {self.cells_to_fill} cards are laid in a game",
        )
        expect(placed <= self.max_turns, f"history has {placed} actions, more than max_turns={self.max_turns}")
        # -- CR-3, CR-6: the start card
        start_cells = [i for i, c in enumerate(table) if c == START]
        expect(
            start_cells == ([self.center] if self.uses_start else []),
            f"CR-3: the start card lies on the centre cell {divmod(self.center, G)} with 2 or 4 players "
            "and is not used with 3 (key 'table')",
        )
        # -- CR-7, CR-8: the history lays exactly the cards on the table, seat by seat, each on
        #    a legal cell of the moment
        laid = [EMPTY] * C
        if self.uses_start:
            laid[self.center] = START
        box = [self.square_size - 1] * 4 if self.uses_start else []  # rmin, rmax, cmin, cmax
        for i, a in enumerate(history):
            q = i % n
            kind, cell = divmod(a, C)
            r, c = divmod(cell, G)
            code = DOG_CODE + kind if kind < 3 else self._cheese_code(q, kind - 3)
            where = f"history[{i}] (seat {q}: {self.kind_name(kind)}@{r},{c})"
            expect(laid[cell] == EMPTY, f"CR-7: {where} lays a card on a cell that is already taken")
            if box:
                expect(
                    any(laid[x] != EMPTY for x in _neighbours(cell, G)),
                    f"CR-7: {where} is not next to a card laid before it",
                )
                box = [min(box[0], r), max(box[1], r), min(box[2], c), max(box[3], c)]
                expect(
                    box[1] - box[0] < self.square_size and box[3] - box[2] < self.square_size,
                    f"CR-8: {where} leaves the {self.square_size} x {self.square_size} square",
                )
                expect(
                    self._in_area(r, c),
                    f"CR-8: {where} leaves the {self.square_size} x {self.square_size} square "
                    "centred on "
                    "the start card (play_area='centred_on_start')",
                )
            else:
                expect(
                    cell == self.center,
                    f"CR-7: {where}: the first card lies on the centre cell "
                    f"{divmod(self.center, G)} (the engine's 3-player start)",
                )
                box = [r, r, c, c]
            expect(table[cell] == code, f"CR-10: {where} is not the card the table shows on that cell")
            laid[cell] = code
        expect(laid == table, "CR-10: the table holds cards that no action of the history laid (key 'table')")
        # -- CR-1, CR-2, CR-4: every card is somewhere
        for k in range(3):
            n_k = table.count(DOG_CODE + k) + sum(h[k] for h in hands) + pile.count(k)
            expect(
                n_k == self.pile_counts[k],
                f"CR-4: {n_k} {ANIMALS[k]}s on the table, in the hands and in the pile; the game has "
                f"{self.pile_counts[k]}",
            )
        for p in range(n):
            for ck in range(K):
                n_c = table.count(self._cheese_code(p, ck)) + hands[p][3 + ck]
                expect(
                    n_c == self.cheese_counts[ck],
                    f"CR-2: seat {p} has {n_c} {self.kind_name(3 + ck)} cards on the table and in hand, "
                    f"not {self.cheese_counts[ck]}",
                )
        # -- CR-5, CR-9: sizes of the pile and of each hand after the deal and the draws, and
        #    no seat laid more animals than it had received by then
        after_deal = sum(self.pile_counts) - n * self.initial_draw
        expect(
            len(pile) == max(0, after_deal - placed),
            f"CR-9: after {placed} cards laid the pile holds {max(0, after_deal - placed)} cards, not {len(pile)}",
        )
        received = [self.initial_draw] * n
        animals_laid = [0] * n
        plays = [0] * n
        for i, a in enumerate(history):
            q = i % n
            plays[q] += 1
            if a // C < 3:
                animals_laid[q] += 1
                expect(
                    animals_laid[q] <= received[q],
                    f"CR-7: history[{i}]: seat {q} lays its animal number {animals_laid[q]} but has drawn only "
                    f"{received[q]} animals by then",
                )
            if i < after_deal:
                received[q] += 1
        for p in range(n):
            size = sum(self.cheese_counts) + received[p] - plays[p]
            expect(
                sum(hands[p]) == size,
                f"CR-5/CR-9: seat {p} must hold {size} cards after its {plays[p]} turns, "
                f"holds {sum(hands[p])} (key 'hands')",
            )
        terminal = placed == self.cells_to_fill or placed >= self.max_turns
        expect(
            d["truncated"] == (terminal and placed < self.cells_to_fill),
            "truncated must be true exactly when max_turns ended the game before the square was full",
        )

    def _redact(self, d: Dict[str, Any], p: int) -> Dict[str, Any]:
        # CR-15: the animals in the other seats' hands, the pile (its order, and so the
        # animals it holds) and the generator are hidden; everything else is public.
        d["hand_sizes"] = [sum(h) for h in d["hands"]]
        d["hands"] = [h if q == p else [None, None, None] + h[3:] for q, h in enumerate(d["hands"])]
        d["pile_size"] = len(d["pile"])
        d["pile"] = None
        d["rng"] = None
        return d

    def _determinize(self, view: Dict[str, Any], p: int, rng: Rng) -> Dict[str, Any]:
        # CR-15: the hidden animals are the game's animals minus those on the table and in
        # p's hand (all public to p). They are listed in a canonical (sorted) order, shuffled
        # with rng, dealt to the other hands by their public sizes, and the rest is the pile.
        n = self.num_players
        table = int_list(view["table"], self.num_cells, "table", 0, CHEESE_CODE - 1 + n * self.num_cheese_kinds)
        hands = view["hands"]
        expect(isinstance(hands, list) and len(hands) == n, f"hands must be a list of {n} hands")
        own = int_list(hands[p], self.num_kinds, f"hands[{p}]", 0, 255)
        sizes = int_list(view.get("hand_sizes"), n, "hand_sizes", 0, 255)
        pile_size = int_list([view.get("pile_size")], 1, "pile_size", 0, 255)[0]
        hidden = [self.pile_counts[k] - table.count(DOG_CODE + k) - own[k] for k in range(3)]
        expect(min(hidden) >= 0, "CR-15: the view shows more animals than the game has")
        animals = [0] * n
        for q in range(n):
            if q != p:
                expect(
                    isinstance(hands[q], list) and len(hands[q]) == self.num_kinds,
                    f"hands[{q}] must be a list of {self.num_kinds} entries",
                )
                cheese = int_list(hands[q][3:], self.num_cheese_kinds, f"hands[{q}] (cheese)", 0, 255)
                animals[q] = sizes[q] - sum(cheese)
                expect(animals[q] >= 0, f"CR-15: hand_sizes[{q}] is smaller than seat {q}'s cheese in hand")
        expect(
            sum(animals) + pile_size == sum(hidden),
            f"CR-15: {sum(hidden)} animals are hidden from seat {p}, but the other hands and the pile "
            f"hold {sum(animals) + pile_size}",
        )
        pool = [k for k in range(3) for _ in range(hidden[k])]
        rng.shuffle(pool)
        for q in range(n):
            if q != p:
                hand = [0, 0, 0] + list(hands[q][3:])
                for _ in range(animals[q]):
                    hand[pool.pop()] += 1
                hands[q] = hand
        view["pile"] = pool
        view["rng"] = rng.next64()
        del view["hand_sizes"], view["pile_size"]
        return view

    def _observation(self, d: Dict[str, Any], p: int) -> npt.NDArray[np.float32]:
        n, G, K = self.num_players, self.grid_size, self.num_cheese_kinds
        obs = np.zeros(self.observation_shape, dtype=np.float32)
        table = np.asarray(d["table"]).reshape(G, G)
        obs[0] = table == START
        obs[1] = table == DOG_CODE
        obs[2] = table == CAT_CODE
        obs[3] = table == MOUSE_CODE
        top = float(max(self.cheese_kind_values))
        for k in range(n):
            q = (p + k) % n
            for ck in range(K):
                obs[4 + k][table == self._cheese_code(q, ck)] = self.cheese_kind_values[ck] / top
        c = 4 + n
        hand = d["hands"][p]
        for k in range(3):
            obs[c + k] = hand[k]
        c += 3
        for k in range(n):
            obs[c + k] = sum(d["hands"][(p + k) % n][:3])
        c += n
        for k in range(n):
            for ck in range(K):
                obs[c + k * K + ck] = d["hands"][(p + k) % n][3 + ck]
        c += n * K
        obs[c] = len(d["pile"])
        c += 1
        cur = _current(self, d)
        if cur != _api.TERMINAL:
            obs[c + (cur - p) % n] = 1.0
        return obs

    def _render(self, d: Dict[str, Any]) -> str:
        """The text diagram of a full state dict, or of seat ``p``'s view
        (``state.to_dict(for_player=p)``, CR-15): the view draws the same table, the pile
        by its size and, for every other seat, its cheese cards and the number of animals it
        holds (which animals is hidden from ``p``), under a first line naming the seat."""
        G, n = self.grid_size, self.num_players
        table = d["table"]
        seat = d.get("view")
        occupied = [i for i, c in enumerate(table) if c]
        open_ = self._open_cells(table)
        if occupied:  # the cards and the cells next to them a card may still go to (CR-7, CR-8)
            near = {j for i in occupied for j in _neighbours(i, G)} & open_
            r0, r1 = min(i // G for i in [*occupied, *near]), max(i // G for i in [*occupied, *near])
            c0, c1 = min(i % G for i in [*occupied, *near]), max(i % G for i in [*occupied, *near])
        else:
            r0 = r1 = c0 = c1 = self.square_size - 1
        lines = (
            []
            if seat is None
            else [
                f"seat {seat} ({'ABCD'[seat]})'s view: the other seats' animals and the draw pile's cards are "
                "hidden (CR-15)"
            ]
        )
        lines.append("    " + "".join(f"{c:>4}" for c in range(c0, c1 + 1)))
        for r in range(r0, r1 + 1):
            cells = [table[r * G + c] or (EMPTY if r * G + c in open_ else -1) for c in range(c0, c1 + 1)]
            lines.append(f"{r:>4}" + "".join(f"{self._cell_text(code):>4}" for code in cells).rstrip())
        cur = _current(self, d)
        who = "game over" if cur == _api.TERMINAL else f"seat {cur} to play"
        pile = len(d["pile"]) if seat is None else d["pile_size"]
        lines.append(f"turn {len(d['history'])}, {who}; draw pile: {pile} cards")
        for p in range(n):
            h = d["hands"][p]
            held = [f"{h[k]} {self.kind_name(k)}" for k in range(self.num_kinds) if h[k]]
            if h[0] is None:  # CR-15: another seat's animals in a view: only their number
                hidden = d["hand_sizes"][p] - sum(h[3:])
                held[:0] = [f"{hidden} hidden animal{'s' if hidden != 1 else ''}"] if hidden else []
            lines.append(f"seat {p} ({'ABCD'[p]}): " + ", ".join(held))
        last = "ABCD"[n - 1]
        lines.append(
            ("legend: S the start card, " if self.uses_start else "legend: ")
            + f"D dog, C cat, M mouse; A{self.cheese_kind_values[0]} a cheese card of seat 0 (A) worth "
            f"{self.cheese_kind_values[0]} (A-{last}: seats 0-{n - 1}); . an empty cell a card may still "
            "go to (CR-8)"
        )
        return "\n".join(lines)

    def _cell_text(self, code: int) -> str:
        """A table code as the board shows it; -1: an empty cell no card may go to any more."""
        if code < 0:
            return ""
        if code < CHEESE_CODE:
            return ".SDCM"[code]
        owner, ck = divmod(code - CHEESE_CODE, self.num_cheese_kinds)
        return f"{'ABCD'[owner]}{self.cheese_kind_values[ck]}"

    def _explain_illegal(self, state: _api.StateAPI[Any], action: Any) -> str:
        a = _api.check_action_type(action)
        if state.is_terminal():
            return f"the game is over (CR-11); action {a} cannot be applied"
        if not 0 <= a < self.num_actions:
            return f"action {shorten(a)} is out of range 0..{self.num_actions - 1}"
        d = state._to_dict()
        p = _current(self, d)
        kind, cell = divmod(a, self.num_cells)
        r, c = divmod(cell, self.grid_size)
        if d["hands"][p][kind] == 0:
            return f"CR-7: seat {p} holds no {self.kind_name(kind)} card"
        if d["table"][cell] != EMPTY:
            return f"CR-7: cell ({r}, {c}) is already occupied"
        if not any(d["table"]):
            mid = self.square_size - 1
            return f"CR-7: the first card goes on the centre cell ({mid}, {mid}) (docs: 3-player start)"
        if not any(d["table"][x] for x in _neighbours(cell, self.grid_size)):
            return f"CR-7: cell ({r}, {c}) is not adjacent to a card on the table"
        if not self._in_area(r, c):
            return (
                f"CR-8: cell ({r}, {c}) is outside the {self.square_size} x {self.square_size} square centred on "
                "the start card "
                f"(play_area='centred_on_start')"
            )
        return f"CR-8: a card at ({r}, {c}) would not fit in the {self.square_size} x {self.square_size} square"


# ---- helpers (engine-neutral) -------------------------------------------------------------


def _current(game: CheeseRescue, d: Dict[str, Any]) -> int:
    placed = len(d["history"])
    if placed >= game.cells_to_fill or placed >= game.max_turns:
        return _api.TERMINAL
    return placed % game.num_players


def _neighbours(cell: int, G: int) -> List[int]:
    r, c = divmod(cell, G)
    out = []
    if r > 0:
        out.append(cell - G)
    if r < G - 1:
        out.append(cell + G)
    if c > 0:
        out.append(cell - 1)
    if c < G - 1:
        out.append(cell + 1)
    return out


def final_table(game: CheeseRescue, table: List[int]) -> List[int]:
    """The table after the three removal steps of CR-12 (removed cells become EMPTY).

    Each step looks only at the cards that survived the steps before it."""
    G = game.grid_size
    t = list(table)

    def remove(victim: Any, hunter: int) -> None:
        doomed = [i for i, code in enumerate(t) if victim(code) and any(t[j] == hunter for j in _neighbours(i, G))]
        for i in doomed:
            t[i] = EMPTY

    remove(lambda code: code == CAT_CODE, DOG_CODE)  # CR-12.1: every cat next to a dog
    remove(lambda code: code == MOUSE_CODE, CAT_CODE)  # CR-12.2: every mouse next to a remaining cat
    remove(lambda code: code >= CHEESE_CODE, MOUSE_CODE)  # CR-12.3: every cheese next to a remaining mouse
    return t


# ---- the pure-Python reference engine ------------------------------------------------------


class CheeseRescueState(_api.GameState[CheeseRescue, CRMove]):
    """The public type of a Cheese Rescue state, on either engine: what ``CheeseRescue.new_state()``
    returns and what annotations should name. The reference engine
    (``ReferenceCheeseRescueState``) and the compiled one both derive from it."""

    __slots__ = ()


class ReferenceCheeseRescueState(CheeseRescueState):
    """A Cheese Rescue state (pure-Python reference engine), written straight from the rules
    (``docs/games/cheese_rescue.md``)."""

    __slots__ = ("_seed0", "game", *CheeseRescue.STATE_KEYS)

    game: CheeseRescue
    table: List[int]
    hands: List[List[int]]
    pile: List[int]
    rng: Rng
    history: List[int]
    truncated: bool

    @staticmethod
    def new(game: CheeseRescue, seed: int) -> "ReferenceCheeseRescueState":
        s = ReferenceCheeseRescueState._reference(game, seed, [], seed)
        s.table = [EMPTY] * game.num_cells
        if game.uses_start:  # CR-3, CR-6: the start card lies on the table
            s.table[game.center] = START
        s.pile = [k for k in range(3) for _ in range(game.pile_counts[k])]  # CR-4
        s.rng.shuffle(s.pile)
        s.hands = [[0, 0, 0] + list(game.cheese_counts) for _ in range(game.num_players)]  # CR-5
        for p in range(game.num_players):  # CR-5: seat 0 draws first
            for _ in range(game.initial_draw):
                s.hands[p][s.pile.pop()] += 1
        s.truncated = False
        return s

    @staticmethod
    def _from_valid_dict(game: CheeseRescue, d: Dict[str, Any]) -> "ReferenceCheeseRescueState":
        s = ReferenceCheeseRescueState._reference(game, d["rng"], list(d["history"]), None)
        s.table = list(d["table"])
        s.hands = [list(h) for h in d["hands"]]
        s.pile = list(d["pile"])
        s.truncated = d["truncated"]
        return s

    def _to_dict(self) -> Dict[str, Any]:
        d = self.game._header()
        d.update(
            table=list(self.table),
            hands=[list(h) for h in self.hands],
            pile=list(self.pile),
            **self._closing_fields(),
        )
        return d

    @property
    def current_player(self) -> int:
        placed = len(self.history)
        if placed >= self.game.cells_to_fill or self.truncated:  # CR-11
            return _api.TERMINAL
        return placed % self.game.num_players  # CR-7: seat 0 starts, clockwise

    def is_terminal(self) -> bool:
        return self.current_player == _api.TERMINAL

    def legal_cells(self) -> List[int]:
        """Empty cells where a card may go now (CR-7, CR-8), ascending."""
        g = self.game
        occupied = [i for i, c in enumerate(self.table) if c != EMPTY]
        if not occupied:  # CR-7: with 3 players the first card goes anywhere: the centre
            return [g.center]
        cells = []
        for i in range(g.num_cells):
            if self.table[i] != EMPTY:
                continue
            if not any(self.table[j] != EMPTY for j in _neighbours(i, g.grid_size)):  # CR-7
                continue
            if g.fixed_area and not g._in_area(i // g.grid_size, i % g.grid_size):  # CR-8, play_area='centred_on_start'
                continue
            rows = [x // g.grid_size for x in occupied + [i]]
            cols = [x % g.grid_size for x in occupied + [i]]
            if max(rows) - min(rows) < g.square_size and max(cols) - min(cols) < g.square_size:  # CR-8
                cells.append(i)
        return cells

    def legal_actions(self) -> npt.NDArray[np.int64]:
        if self.is_terminal():
            return np.zeros(0, dtype=np.int64)
        hand = self.hands[self.current_player]
        cells = self.legal_cells()
        acts = [k * self.game.num_cells + c for k in range(self.game.num_kinds) if hand[k] for c in cells]
        return np.array(acts, dtype=np.int64)

    def apply_action(self, action: SupportsIndex) -> None:
        a = _api.check_action_type(action)
        if self.is_terminal() or not 0 <= a < self.game.num_actions:
            raise self._illegal(a)
        p = self.current_player
        kind, cell = divmod(a, self.game.num_cells)
        if self.hands[p][kind] == 0 or cell not in self.legal_cells():
            raise self._illegal(a)
        self.hands[p][kind] -= 1
        self.table[cell] = DOG_CODE + kind if kind < 3 else self.game._cheese_code(p, kind - 3)
        if self.pile:  # CR-9
            self.hands[p][self.pile.pop()] += 1
        self.history.append(a)
        if len(self.history) >= self.game.max_turns and len(self.history) < self.game.cells_to_fill:
            self.truncated = True

    def scores(self) -> List[int]:
        """CR-13: the values of each seat's cheese still on the table after CR-12 (applied to
        the table as it is now, so it is defined before the end too)."""
        g = self.game
        out = [0] * g.num_players
        for code in final_table(g, self.table):
            if code >= CHEESE_CODE:
                owner, ck = divmod(code - CHEESE_CODE, g.num_cheese_kinds)
                out[owner] += g.cheese_kind_values[ck]
        return out

    def cheese_counts(self) -> List[int]:
        """CR-13 tie-break: the number of each seat's cheese cards left after CR-12."""
        g = self.game
        out = [0] * g.num_players
        for code in final_table(g, self.table):
            if code >= CHEESE_CODE:
                out[(code - CHEESE_CODE) // g.num_cheese_kinds] += 1
        return out

    def winners(self) -> List[int]:
        """CR-13: highest score; tie-break more own cheese cards; still tied: shared."""
        if not self.is_terminal():
            return []
        key = list(zip(self.scores(), self.cheese_counts()))
        best = max(key)
        return [p for p, k in enumerate(key) if k == best]


# ---- the compiled engine (cengine/mousehole/_cheese_rescue.pyx) ---------------------------

_CompiledState: Any = _api.compiled_state_class(
    "_cheese_rescue", "CheeseRescueCore", CheeseRescueState, "A Cheese Rescue"
)
CheeseRescue._bind_states(ReferenceCheeseRescueState, _CompiledState)
