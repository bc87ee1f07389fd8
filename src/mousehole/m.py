"""M (Martin Schlegel, Abacus Spiele 2000), rules M-1 .. M-22.

The rules, restated with their ids, are in ``docs/games/m.md``. 2-6 players lay cards that
match every neighbour (colour, value or symbol), collect chips from the players on their
right, and trigger scorings in which everybody takes cards off the table in turn.

Engine model
------------
* **Cards.** Card ids ``0 .. len(cards) - 1`` index the ``cards`` parameter, a list of
  ``[colour, value, symbol]`` (symbol ``None`` for value-0 cards). DEFAULT (M-1): per colour
  two 0s, then values 10..40 x the four symbols, 18 cards per colour.
* **Coordinates.** The table is unbounded; every cell is ``(row, col)`` relative to the
  *start origin*: the cells of ``start_layout`` (M-4) as given, by DEFAULT
  ``(0,0) (0,2) (1,0) (1,1) (1,2)``. These absolute coordinates never change (they are
  what ``to_dict()["table"]`` shows) and may become negative as the layout drifts.
* **Window.** Actions and observations use an 8 x 8 *window* whose cell ``(0, 0)`` is the
  absolute cell ``(top - 1, left - 1)``, where ``top``/``left`` are the smallest row/column
  holding a card now. Every card lies in window rows/cols 1..6 (M-7) and every cell where a
  card may go lies in the window.
* **Actions** (``H = hand_size``, 4 by DEFAULT; ``num_actions = 64*H + 1 + H + 2 + 64``):

  ====================  =======================  ============================================
  range                 move                     meaning
  ====================  =======================  ============================================
  ``slot*64 + cell``    ``MPlace(slot, r, c)``   lay hand card ``slot`` (hand sorted by id) on
                                                 window cell ``cell = 8*r + c`` (M-6)
  ``64H``               ``MPass()``              pass (M-9), pays a chip if one is left
  ``64H + 1 + slot``    ``MPass(slot)``          pass, pay a chip, put card ``slot`` under the
                                                 pile, draw the top card (M-9)
  ``65H + 1 + v``       ``MChooseRow(v)``        choose the horizontal (0) / vertical (1)
                                                 scoring row when both qualify (M-12)
  ``65H + 3 + cell``    ``MTake(r, c)``          take the card on window cell ``8*r + c``
                                                 (M-13)
  ====================  =======================  ============================================

Every random event happens at setup (M-3 .. M-5): one shuffle of every card id with the
state's :class:`~mousehole.Rng`; the first ``cards_in_play`` ids of the shuffled list are in
play (the rest are removed unseen), the last of them is the top of the pile.

* **Log.** Beside ``history`` (the int actions), the state dict keeps ``log``: per action the
  public facts ``[seat, card, row, col]``: the card laid or taken and its *absolute* cell;
  ``card`` is -1 for a pass or a row choice and -2 for an exchange (M-9: a card went under
  the pile), with ``row = col = 0``. A seat's view (M-22) replaces another seat's placements
  and exchanges in ``history`` by ``None`` (their int names a hand slot); the log keeps
  what everybody saw.
* **Readings.** Where the rule text allows more than one reading, a parameter names the
  reading played (:data:`READINGS`; the default is listed first): ``pass_cost`` (M-9),
  ``stuck_cards`` (M-17), ``draw_timing`` (M-10, M-16), ``short_payer`` (M-8),
  ``chipless_exchange`` (M-9).
* **Readable notation.** ``state.describe(a)`` names cards and absolute cells
  (``place blue 30 square at 2,-1``, ``exchange pink 0``, ``pass``, ``row vertical``,
  ``take green 20 eight at 1,3``); ``state.parse_action(text)`` reads it back, and also the
  slot/window form ``str(move)``.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Dict, List, Optional, Sequence, Set, SupportsIndex, Tuple, Union

import numpy as np
import numpy.typing as npt

from . import _api
from ._api import IllegalMoveError, ParameterError, StateError, expect, int_list, is_int
from ._rng import Rng
from ._values import DeprecatedAlias, exact, shorten

__all__ = [
    "M",
    "READINGS",
    "MMove",
    "ReferenceMState",
    "MPlace",
    "MPass",
    "MChooseRow",
    "MTake",
    "MState",
    "DEFAULT",
    "parse_move",
]

# ---- constants and the DEFAULT data table ------------------------------------------------

W = 8  #: window side (M-7: a 6 x 6 square plus one free cell on each side)
CELLS = W * W
SQUARE = 6  #: M-7
MAX_CARDS = 128
MAX_COLOURS = 8
MAX_SYMBOLS = 8
MAX_VALUES = 8
MAX_HAND = 8
#: the longest colour or symbol name: a move names its card (``place blue 30 square #12 at
#: 2,-1``), and a record holds moves of at most 200 characters (``records.MAX_TEXT``)
MAX_NAME = 32

DEFAULT_COLOURS = ["blue", "green", "pink", "yellow", "orange"]  # M-1
DEFAULT_SYMBOLS = ["square", "triangle", "eight", "circle"]  # M-1 (the fourth is our choice)


def _default_cards() -> List[List[Any]]:
    out: List[List[Any]] = []
    for col in DEFAULT_COLOURS:  # M-1: per colour two 0s, then 4 values x 4 symbols
        out += [[col, 0, None], [col, 0, None]]
        for v in (10, 20, 30, 40):
            for sym in DEFAULT_SYMBOLS:
                out.append([col, v, sym])
    return out


#: Physical data; every entry is a game parameter of the same name.
DEFAULT: Dict[str, Any] = {
    "colours": DEFAULT_COLOURS,
    "symbols": DEFAULT_SYMBOLS,
    "cards": _default_cards(),  # M-1
    "start_layout": [[0, 0], [0, 2], [1, 0], [1, 1], [1, 2]],  # M-4
    "hand_size": 4,  # M-5, M-10
    "chips": 6,  # M-2
    "cards_in_play": {2: 50, 3: 60, 4: 70, 5: 80, 6: 90},  # M-3: 40 + 10 n
}

PLAY, CHOOSE, TAKE, OVER = "play", "choose", "take", "over"
_A_KIND = {"place": "a placement", "pass": "a pass", "exchange": "an exchange", "row": "a row choice", "take": "a take"}
COORD = 2**62  #: bound of absolute coordinates in a state dict (the compiled core keeps int64)
#: a logged cell lies within this many rows and columns of the table's top left card: a game
#: drifts less than 800 cells (the compiled core keeps log cells as int16 offsets)
LOG_REACH = 2**14
MAX_DRAWS = 1000  #: determinization: draws tried before giving up on M-17 (see _determinize)
END_REASONS = ("M-16", "M-17", "M-18", "max_turns")

#: M-9's sentence (and its translation), which two readings rest on: pass_cost and chipless_exchange
_PASSING = (
    "Wie geen kaart kan of wil aanleggen, mag ook passen. Voor zover hij nog fiches heeft, moet hij dan "
    "één fiche aan zijn rechter buurman betalen, maar hij mag daarvoor echter één van zijn handkaarten "
    "onder de trekstapel schuiven en een nieuwe kaart pakken."
)
_PASSING_EN = (
    "Whoever cannot or will not lay a card may also pass. As far as he still has chips, he must then "
    "pay one chip to his right neighbour, but in return he may slide one of his hand cards under the "
    "draw pile and take a new card."
)

#: The open readings of the rule text (docs/games/m.md, "Readings"); each is a parameter.
READINGS: Tuple[_api.Reading, ...] = (
    _api.Reading(
        param="pass_cost",
        values=("every_pass", "exchange_only"),
        meaning=(
            "every pass of a player who has a chip costs one chip, and the exchange is an option of that paid pass",
            "a plain pass is free; only a pass with an exchange costs a chip (a player without chips cannot exchange)",
        ),
        rules=("M-9",),
        source=_PASSING,
        translation=_PASSING_EN,
        why_default="'moet hij dan ... betalen' makes the chip the price of every pass; the exchange is what "
        "the chip buys ('daarvoor'), an option, not the condition of paying.",
    ),
    _api.Reading(
        param="stuck_cards",
        values=("hands_and_pile", "hands"),
        meaning=(
            "the game ends (M-17) when no card in any hand or in the draw pile fits on the table",
            "the game ends (M-17) when no card in any hand fits on the table, whatever the draw pile holds",
        ),
        rules=("M-17",),
        source="Het spel eindigt ook als geen enkele speler meer een kaart kan leggen.",
        translation="The game also ends when no player can lay a card any more.",
        why_default="A pile card still reaches a hand by a draw or an exchange (M-9), so a player can still "
        "lay it later; only when no card in play fits can nobody ever lay a card again. With no "
        "hand card fitting nobody lays, so nobody draws, and an exchange needs a chip: with "
        "chips=0 no pile card can reach a hand, and M-17 looks at the hands only under either "
        "value (unless chipless_exchange='free').",
    ),
    _api.Reading(
        param="draw_timing",
        values=("before_scoring", "after_scoring"),
        meaning=(
            "the placer draws back to a full hand right after laying the card, before its scoring, so the "
            "draw can empty the pile and make that scoring the last one (M-16)",
            "the placer draws back to a full hand after the scoring the placement started (M-10, M-11)",
        ),
        rules=("M-10", "M-11", "M-16"),
        source="Wie een kaart heeft aangelegd, pakt een nieuwe kaart van de trekstapel, zodat hij weer vier "
        "kaarten in de hand heeft. Daarna gaat de linker buurman verder. ... Een waardering wordt "
        "automatisch in gang gezet als na het leggen van een kaart aan twee voorwaarden is voldaan ... "
        "krijgt eventueel nog fiches van zijn rechter buurman ... de linker buurman van de speler die de "
        "waardering in gang zette, zet het spel voort. ... Is de trekstapel opgebruikt, dan wordt nog "
        "doorgespeeld totdat er een volgende waardering wordt uitgevoerd.",
        translation="Whoever has laid a card takes a new card from the draw pile, so that he holds four cards "
        "again. Then the left neighbour continues. ... A scoring is started automatically when, "
        "after a card is laid, two conditions are met ... possibly still gets chips from his right "
        "neighbour ... the left neighbour of the player who started the scoring continues the "
        "game. ... Once the draw pile is used up, play goes on until a next scoring is carried "
        "out.",
        why_default="The only sentence about the draw binds it to the laying ('Wie een kaart heeft aangelegd, "
        "pakt een nieuwe kaart'), and a scoring starts after the laying ('na het leggen van een "
        "kaart'). The scoring section carries the placement's chips into the scoring explicitly "
        "('krijgt eventueel nog fiches van zijn rechter buurman') but names no draw, before or "
        "after, and it ends with its own hand-over to the left neighbour with no draw before it; "
        "so the draw stays where the laying section puts it, right after the card is laid, and a "
        "draw that empties the pile makes that scoring the last ('Is de trekstapel opgebruikt, "
        "dan wordt nog doorgespeeld totdat er een volgende waardering wordt uitgevoerd'). "
        "after_scoring, the default until issue 41, reads 'Daarna gaat de linker buurman verder' "
        "as making the draw the last act before the hand-over, joined to the scoring's hand-over.",
    ),
    _api.Reading(
        param="short_payer",
        values=("pays_part", "skipped"),
        meaning=(
            "a player to the right who has fewer chips than the placer earns pays what he has, and the rest "
            "comes from the next player to the right, and so on",
            "a player to the right who cannot pay the whole amount is skipped and pays nothing: the first one "
            "further to the right who has it all pays it all (when nobody has it all, each pays what he has, "
            "as in pays_part)",
        ),
        rules=("M-8",),
        source="Bezit de rechter buurman niet meer genoeg fiches, dan incasseert men van de volgende rechter "
        "buurman of de daarna volgende spelers. Fiches krijgt men dus altijd, tenzij men alle fiches al "
        "heeft.",
        translation="If the right neighbour no longer has enough chips, one collects from the next right "
        "neighbour or the players after him. So one always gets chips, unless one already has all "
        "the chips.",
        why_default="'niet meer genoeg' (no longer enough) says he has some, and nothing lets him keep them; "
        "'Fiches krijgt men dus altijd, tenzij men alle fiches al heeft' follows ('dus') only if "
        "every chip the others hold can be collected. 'skipped' reads 'incasseert men van de "
        "volgende' as naming who pays instead, but needs a rule the text does not give for when "
        "nobody holds the whole amount (ours: each then pays what he has).",
    ),
    _api.Reading(
        param="chipless_exchange",
        values=("forbidden", "free"),
        meaning=(
            "a passing player without chips may not exchange a card",
            "a passing player without chips may exchange a card for free (he pays nothing; a player with "
            "chips pays as pass_cost says)",
        ),
        rules=("M-9",),
        source=_PASSING,
        translation=_PASSING_EN,
        why_default="'daarvoor' (in return, for it) ties the exchange to the chip paid: who pays nothing gets "
        "nothing in return. 'free' reads 'voor zover hij nog fiches heeft' as limiting only the "
        "payment ('moet hij ... betalen') and 'maar hij mag' as a permission of every passing "
        "player, but then 'daarvoor' points at a payment that was never made.",
    ),
)


# ---- moves -------------------------------------------------------------------------------


class MMove(_api.Move):
    """Base class of M's moves: :class:`MPlace`, :class:`MPass`, :class:`MChooseRow`,
    :class:`MTake`."""

    __slots__ = ()


@dataclasses.dataclass(frozen=True)
class MPlace(MMove):
    """Lay the hand card in ``slot`` (hand sorted by card id) on window cell ``(row, col)``.

    >>> MPlace(1, 2, 3)
    MPlace(slot=1, row=2, col=3)
    >>> str(MPlace(1, 2, 3))
    'place 1@2,3'
    """

    slot: int
    row: int
    col: int

    def __str__(self) -> str:
        return f"place {self.slot}@{self.row},{self.col}"


@dataclasses.dataclass(frozen=True)
class MPass(MMove):
    """Pass (M-9); with ``exchange`` = a hand slot, put that card under the pile and draw.

    >>> str(MPass()), str(MPass(2))
    ('pass', 'pass exchange 2')
    """

    exchange: Optional[int] = None

    def __str__(self) -> str:
        return "pass" if self.exchange is None else f"pass exchange {self.exchange}"


@dataclasses.dataclass(frozen=True)
class MChooseRow(MMove):
    """Choose the scoring row when both lines qualify (M-12): ``vertical`` False/True.

    >>> str(MChooseRow(True))
    'row vertical'
    """

    vertical: bool

    def __str__(self) -> str:
        return "row vertical" if self.vertical else "row horizontal"


@dataclasses.dataclass(frozen=True)
class MTake(MMove):
    """Take the card on window cell ``(row, col)`` during a scoring (M-13).

    >>> str(MTake(3, 4))
    'take 3,4'
    """

    row: int
    col: int

    def __str__(self) -> str:
        return f"take {self.row},{self.col}"


# ---- notation: str(move) and its parser; a state's describe/parse_action ------------------


def parse_move(text: str) -> MMove:
    """Read a move from its ``str`` (the slot/window form; same as ``M.parse_move``).

    >>> parse_move("place 1@2,3"), parse_move("pass exchange 0"), parse_move("take 3,4")
    (MPlace(slot=1, row=2, col=3), MPass(exchange=0), MTake(row=3, col=4))
    """
    if not isinstance(text, str):
        raise TypeError(f"an M move is read from a str, not {type(text).__name__}")
    text = str(exact(text))  # (the str it holds: a subclass's own methods unheard)
    t = text.strip()
    m = re.fullmatch(r"place\s+(\d+)\s*@\s*(\d+)\s*,\s*(\d+)", t)
    if m:
        return MPlace(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    m = re.fullmatch(r"pass(?:\s+exchange\s+(\d+))?", t)
    if m:
        return MPass(None if m.group(1) is None else int(m.group(1)))
    m = re.fullmatch(r"row\s+(horizontal|vertical)", t)
    if m:
        return MChooseRow(m.group(1) == "vertical")
    m = re.fullmatch(r"take\s+(\d+)\s*,\s*(\d+)", t)
    if m:
        return MTake(int(m.group(1)), int(m.group(2)))
    raise ValueError(
        f"not an M move: {shorten(text)} (e.g. 'place 1@2,3', 'pass', 'pass exchange 0', 'row vertical', 'take 3,4')"
    )


# ---- the game ----------------------------------------------------------------------------


def _names(x: Any, what: str, most: int) -> List[str]:
    if (
        not isinstance(x, list)
        or not 1 <= len(x) <= most
        or any(type(v) is not str or not 1 <= len(v) <= MAX_NAME for v in x)
        or len(set(x)) != len(x)
    ):
        raise ParameterError(
            f"m: {what} must be a list of 1..{most} distinct strings of 1..{MAX_NAME} characters, got {shorten(x)}"
        )
    return list(x)


def _int(x: Any, what: str, lo: int, hi: int) -> int:
    return _api.int_param("m", x, what, lo, hi)


def _cards_param(cards: Any, colours: List[str], symbols: List[str]) -> List[List[Any]]:
    """M-1: the ``cards`` parameter, a list of ``[colour, value, symbol]`` (symbol None for
    a value-0 card), as lists."""
    if not isinstance(cards, list) or not 1 <= len(cards) <= MAX_CARDS:
        raise ParameterError(f"m: cards must be a list of 1..{MAX_CARDS} [colour, value, symbol] entries (M-1)")
    norm_cards: List[List[Any]] = []
    for i, c in enumerate(cards):
        if not isinstance(c, list) or len(c) != 3:
            raise ParameterError(f"m: cards[{i}] must be [colour, value, symbol], got {shorten(c)} (M-1)")
        col, val, sym = c
        if type(col) is not str or col not in colours:
            raise ParameterError(f"m: cards[{i}] has colour {shorten(col)}, not one of {shorten(colours)} (M-1)")
        _int(val, f"cards[{i}] value", 0, 10**6)
        if sym is not None and (type(sym) is not str or sym not in symbols):
            raise ParameterError(
                f"m: cards[{i}] has symbol {shorten(sym)}, not None or one of {shorten(symbols)} (M-1)"
            )
        if val == 0 and sym is not None:
            raise ParameterError(f"m: cards[{i}]: value-0 cards have no symbol (M-1)")
        norm_cards.append([col, val, sym])
    return norm_cards


def _layout_param(layout: Any) -> List[Tuple[int, int]]:
    """M-4: the ``start_layout`` parameter, distinct connected cells in a 6 x 6 square (M-7)."""
    if not isinstance(layout, list) or not layout:
        raise ParameterError("m: start_layout must be a non-empty list of [row, col] cells (M-4)")
    cells: List[Tuple[int, int]] = []
    for x in layout:
        if not isinstance(x, list) or len(x) != 2:
            raise ParameterError(f"m: start_layout cell {shorten(x)} must be [row, col] (M-4)")
        cells.append((_int(x[0], "start_layout row", -1000, 1000), _int(x[1], "start_layout col", -1000, 1000)))
    if len(set(cells)) != len(cells):
        raise ParameterError("m: start_layout cells must be distinct (M-4)")
    if not _fits_square(cells):
        raise ParameterError("m: start_layout must fit in a 6 x 6 square (M-4, M-7)")
    if not _connected(set(cells)):
        raise ParameterError("m: start_layout must be orthogonally connected (M-4, M-13)")
    return cells


@_api.register
class M(_api.Game["MState", MMove]):
    """M. Parameters: ``players`` (2-6), ``max_turns`` (actions, default 2000), the
    DEFAULT tables ``colours``, ``symbols``, ``cards``, ``start_layout``, ``hand_size``,
    ``chips`` and ``cards_in_play`` (an int, by DEFAULT 30 + 10 n: 50 .. 90), and the
    readings of the rule text (:data:`READINGS`, docs/games/m.md "Readings"):

    * ``pass_cost`` (M-9): ``"every_pass"`` (default: a player with a chip pays one for
      every pass, the exchange is an option of that paid pass) or ``"exchange_only"`` (a
      plain pass is free, only an exchange costs a chip);
    * ``stuck_cards`` (M-17): ``"hands_and_pile"`` (default: the game ends when no card in a
      hand or in the draw pile fits) or ``"hands"`` (when no card in a hand fits);
    * ``draw_timing`` (M-10, M-16): ``"before_scoring"`` (default since issue 41: the placer
      draws right after laying the card, before its scoring, so a draw that empties the pile
      makes that scoring the last) or ``"after_scoring"`` (the default before: the placer
      draws after the scoring);
    * ``short_payer`` (M-8): ``"pays_part"`` (default: a player to the right with too few
      chips pays what he has, the next ones the rest) or ``"skipped"`` (he pays nothing; the
      first one to the right who has the whole amount pays it all);
    * ``chipless_exchange`` (M-9): ``"forbidden"`` (default: a player without chips passes
      but may not exchange) or ``"free"`` (he may exchange, paying nothing).

    >>> g = M(players=4, engine="python")
    >>> g.num_actions, g.observation_shape
    (327, (112, 8, 8))
    """

    DRAWING = "mousehole.render.m"
    SCORE = "M-20 points: 10 a chip, plus the two colours with the highest card totals, minus the other colours"
    SEARCH_TUNING = {
        "c": 1.0,
        "depth": 4,
        "scale": 20.0,
        "greedy": 0.0,  # StrongBot (docs/bots.md)
        "depth@2": 16,
    }
    INFORMATION = "imperfect"  # the hands and the pile
    ENV_ID = "mousehole/M-v0"

    name = "m"
    title = "M"
    min_players = 2
    max_players = 6
    READINGS = READINGS
    STATE_KEYS = (
        "table",
        "hands",
        "pile",
        "pile_putter",
        "removed",
        "chips",
        "taken",
        "phase",
        "current",
        "placer",
        "last",
        "scoring_row",
        "passes",
        "end",
        "truncated",
        "rng",
        "history",
        "log",
    )
    DEFAULTS = {
        "players": 4,
        "max_turns": 2000,
        "colours": None,
        "symbols": None,
        "cards": None,
        "start_layout": None,
        "hand_size": None,
        "chips": None,
        "cards_in_play": None,
        **{r.param: r.default for r in READINGS},
    }

    # old names, kept until the next minor version (DeprecationWarning)
    H = DeprecatedAlias("hand_size")

    # derived constants, set by _configure
    hand_size: int  # cards a hand holds (M-4)
    n_cards: int
    in_play: int
    start_chips: int
    colour_of: List[int]
    value_of: List[int]
    vindex_of: List[int]
    symbol_of: List[int]
    values: List[int]
    layout: List[Tuple[int, int]]
    A_PASS: int
    A_EXCH: int
    A_ROW: int
    A_TAKE: int
    #: the readings (see READINGS): a pass without an exchange costs a chip (M-9); M-17 looks
    #: at the draw pile too; the placer draws after the scoring (M-10, not the default since
    #: issue 41); a player short of chips is skipped (M-8, not the default); a player without
    #: chips may exchange (M-9, not the default)
    pass_always_pays: bool
    stuck_with_pile: bool
    draw_after_scoring: bool
    skip_short_payer: bool
    free_exchange: bool
    #: M-17 looks at the draw pile: ``stuck_cards="hands_and_pile"`` and a chip in play (with
    #: ``chips=0`` no pile card can ever reach a hand, see ``__init__``)
    pile_in_reach: bool

    # -- facts other modules read (listed in the Game docstring) ---------------------------
    # (max_game_length: the base's max_turns, which counts actions in M)

    def greedy_value(self, state: "MState", seat: int) -> float:
        """The M-20 score as it stands (10 per chip, the two best colours of the taken cards
        added, the others subtracted)."""
        return self._lead([float(s) for s in state.scores()], seat)

    def _end_reason(self, d: Dict[str, Any]) -> str:
        """Why the game ended (M-16, M-17, M-18, or the turn limit), from ``d["end"]``."""
        stuck = "no card left in play" if self.pile_in_reach else "no card in any hand"
        reasons = {
            "M-16": "the draw pile had run out, so that scoring was the last (M-16)",
            "M-17": f"{stuck} fits the table any more (M-17)",
            "M-18": "every seat passed in turn with the draw pile empty (M-18)",
        }
        return reasons.get(str(d["end"])) or super()._end_reason(d)

    def _score_breakdown(self, d: Dict[str, Any]) -> Optional[List[str]]:
        """M-20 per seat: its chips, then its colour totals, best first: the two best added,
        the others taken away (colours it took nothing of left out)."""
        lines = []
        for chips, totals in zip(d["chips"], _colour_totals(self, d["taken"])):
            ranked = sorted(((v, k) for k, v in enumerate(totals)), key=lambda x: -x[0])
            parts = [f"{chips} chip{'' if chips == 1 else 's'} ({10 * chips})"]
            parts += [f"{'+' if i < 2 else '-'} {self.colours[k]} {v}" for i, (v, k) in enumerate(ranked) if v]
            lines.append(f"{' '.join(parts)} = {final_score(chips, totals)} (M-20)")
        return lines

    def _play_help(self, view: Dict[str, Any], p: int) -> str:
        stuck = "no card in a hand or in the draw pile" if self.pile_in_reach else "no card in any hand"
        pass_cost = (
            "a pass costs you a chip if you have one"
            if self.pass_always_pays
            else "a plain pass is free; exchanging costs a chip"
        )
        short = (
            "by the first next one who has them all, when it has too few"
            if self.skip_short_payer
            else "by the next ones when it runs out"
        )
        exchange = "paying (or without chips, for free)" if self.free_exchange else "paying"
        draw = "after" if self.draw_after_scoring else "before"  # draw_timing (M-10)
        return "\n".join(
            [
                f"{self.title}: lay cards that match their neighbours, earn chips, take cards in scorings.",
                "Play goes up the seat numbers; the seat to your right is the one before you.",
                "- Your turn: lay a hand card next to the table, or pass (M-6, M-9). The card must share its",
                "  colour, its value or its symbol with every card it touches (a 0 has no symbol), and all",
                f"  cards must fit in a {SQUARE} x {SQUARE} square (M-7).",
                "- A card touching k cards earns k - 1 chips, paid by the seat to your right",
                f"  ({short}) (M-8).",
                f"- After laying, you draw back up to {self.hand_size} cards, {draw} the scoring your card may "
                "start (M-10).",
                f"- Passing: {pass_cost}; {exchange}, you may put one hand card under the",
                "  draw pile and draw the top one ('exchange ...') (M-9).",
                "- Scoring (M-12 to M-15): when the card you lay makes a line of 5 or 6 cards in a row and",
                "  shares two of colour, value and symbol with a neighbour in that line, the line scores",
                "  (both lines: you choose, 'row horizontal' or 'row vertical'). You take one of its cards,",
                "  then the seat to your right, and so on round the table, while a card can be taken without",
                "  emptying the line or splitting the table; you keep what you take, by colour.",
                "- The end: after a scoring that began with the draw pile empty (M-16), when",
                f"  {stuck} fits (M-17), or when every seat passes in turn with the",
                "  pile empty (M-18).",
                "- Score (M-20): 10 a chip, plus your two best colours, minus your other colours; cards in",
                "  hand count nothing (M-19). The highest score wins; ties share (M-21).",
                "Moves: 'place b30s@2,-1' (the board's short code, or 'place blue 30 square at 2,-1'), 'pass',",
                "'exchange b30s', 'row vertical', 'take g20e@1,3'; row and column are the board's numbers.",
            ]
        )

    def _configure(self, params: Dict[str, Any]) -> Dict[str, Any]:
        n = self.num_players

        def pick(k: str) -> Any:
            return DEFAULT[k] if params[k] is None else params[k]

        colours = _names(pick("colours"), "colours", MAX_COLOURS)
        symbols = _names(pick("symbols"), "symbols", MAX_SYMBOLS)
        norm_cards = _cards_param(pick("cards"), colours, symbols)
        values = sorted({c[1] for c in norm_cards})
        if len(values) > MAX_VALUES:
            raise ParameterError(f"m: at most {MAX_VALUES} distinct card values, got {values}")
        cells = _layout_param(pick("start_layout"))
        hand = _int(pick("hand_size"), "hand_size", 1, MAX_HAND)
        chips = _int(pick("chips"), "chips", 0, 100)
        cip = params["cards_in_play"]
        in_play = _int(DEFAULT["cards_in_play"][n] if cip is None else cip, "cards_in_play", 1, len(norm_cards))
        if in_play < len(cells) + hand * n:
            raise ParameterError(
                f"m: {in_play} cards in play cannot lay the start ({len(cells)}) and deal {hand} to {n} players "
                "(M-3..M-5)"
            )
        self.hand_size = hand
        self.pass_always_pays = params["pass_cost"] == "every_pass"  # M-9
        self.stuck_with_pile = params["stuck_cards"] == "hands_and_pile"  # M-17
        # M-17, every game ends by a rule: when no hand card fits, nobody lays a card, so no
        # card is drawn (M-10); a pile card reaches a hand then only by an exchange (M-9),
        # which needs a chip. Chips pass between players and never leave the game (M-2, M-8,
        # M-9): with chips=0 nobody ever holds one, no pile card can reach a hand and M-17
        # looks at the hands only, whatever stuck_cards says (docs/games/m.md, "Readings");
        # unless chipless_exchange='free', where a seat without chips exchanges too
        self.free_exchange = params["chipless_exchange"] == "free"  # M-9
        self.pile_in_reach = self.stuck_with_pile and (chips > 0 or self.free_exchange)
        self.draw_after_scoring = params["draw_timing"] == "after_scoring"  # M-10, M-16
        self.skip_short_payer = params["short_payer"] == "skipped"  # M-8
        self.n_cards = len(norm_cards)
        self.in_play = in_play
        self.start_chips = chips
        self.colours = colours
        self.symbols = symbols
        self.cards = norm_cards
        self.values = values
        self.colour_of = [colours.index(c[0]) for c in norm_cards]
        self.value_of = [c[1] for c in norm_cards]
        self.vindex_of = [values.index(c[1]) for c in norm_cards]
        self.symbol_of = [-1 if c[2] is None else symbols.index(c[2]) for c in norm_cards]
        self.layout = cells
        self._by_name: Dict[str, List[int]] = {}  # casefolded card name -> ids, ascending
        for i in range(len(norm_cards)):
            self._by_name.setdefault(self.card_name(i).casefold(), []).append(i)
        self.A_PASS = CELLS * hand
        self.A_EXCH = self.A_PASS + 1
        self.A_ROW = self.A_EXCH + hand
        self.A_TAKE = self.A_ROW + 2
        self.num_actions = self.A_TAKE + CELLS
        nc, nv, ns = len(colours), len(values), len(symbols)
        self.card_planes = nc + nv + ns
        # table (occ + attributes), scoring row, choice runs (2), last card, own hand slots,
        # per seat (chips, hand size, colour totals), pile size, own cards in pile, phase (3),
        # seat to move (relative)
        self.num_channels = 1 + self.card_planes + 1 + 2 + 1 + hand * self.card_planes + n * (2 + nc) + 2 + 3 + n
        self.observation_shape = (self.num_channels, W, W)
        return {
            "colours": colours,
            "symbols": symbols,
            "cards": norm_cards,
            "start_layout": [list(c) for c in cells],
            "hand_size": hand,
            "chips": chips,
            "cards_in_play": in_play,
        }

    # -- cards -------------------------------------------------------------------------

    def card_name(self, card: int) -> str:
        """e.g. ``'blue 30 triangle'`` or ``'pink 0'``."""
        col, val, sym = self.cards[card]
        return f"{col} {val}" if sym is None else f"{col} {val} {sym}"

    def matches(self, a: int, b: int) -> int:
        """How many attributes cards ``a`` and ``b`` share (M-6, M-12): colour, value,
        symbol (value-0 cards have no symbol, so never match on it)."""
        k = int(self.colour_of[a] == self.colour_of[b]) + int(self.value_of[a] == self.value_of[b])
        if self.symbol_of[a] >= 0 and self.symbol_of[a] == self.symbol_of[b]:
            k += 1
        return k

    # -- encoding ----------------------------------------------------------------------

    def parse_move(self, text: str) -> MMove:
        """Read a move from its ``str`` (slot/window form, e.g. ``place 1@2,3``,
        ``pass exchange 0``, ``row vertical``, ``take 3,4``); ``parse_move(str(m)) == m`` for
        every move of the action space. Raises ``ValueError`` naming the notation (an
        :class:`IllegalMoveError` for a slot or window cell outside the action space). The
        readable notation with card names and absolute cells needs a state:
        ``state.parse_action(text)``.

        >>> M(engine="python").parse_move("place 1@2,3")
        MPlace(slot=1, row=2, col=3)
        """
        move = parse_move(text)
        self.move_to_action(move)  # slot and cell inside the action space
        return move

    def action_to_move(self, action: SupportsIndex) -> MMove:
        a = _api.check_action_type(action)
        if not 0 <= a < self.num_actions:
            raise IllegalMoveError(f"action {shorten(a)} is out of range 0..{self.num_actions - 1}")
        if a < self.A_PASS:
            slot, cell = divmod(a, CELLS)
            return MPlace(slot, *divmod(cell, W))
        if a == self.A_PASS:
            return MPass()
        if a < self.A_ROW:
            return MPass(a - self.A_EXCH)
        if a < self.A_TAKE:
            return MChooseRow(a == self.A_ROW + 1)
        return MTake(*divmod(a - self.A_TAKE, W))

    def move_to_action(self, move: MMove) -> int:
        def cell(r: int, c: int) -> int:
            if not (is_int(r) and is_int(c) and 0 <= r < W and 0 <= c < W):  # (a bool is not a row)
                raise IllegalMoveError(f"M-7: window cell ({r}, {c}) is off the {W} x {W} window")
            return r * W + c

        def slot(s: int) -> int:
            if not (is_int(s) and 0 <= s < self.hand_size):
                raise IllegalMoveError(f"M-5: hand slot {shorten(s)} is not in 0..{self.hand_size - 1}")
            return s

        if isinstance(move, MPlace):
            return slot(move.slot) * CELLS + cell(move.row, move.col)
        if isinstance(move, MPass):
            return self.A_PASS if move.exchange is None else self.A_EXCH + slot(move.exchange)
        if isinstance(move, MChooseRow):
            return self.A_ROW + int(bool(move.vertical))
        if isinstance(move, MTake):
            return self.A_TAKE + cell(move.row, move.col)
        raise TypeError(f"m takes MPlace, MPass, MChooseRow or MTake moves, not {type(move).__name__}")

    # -- engine-neutral parts ----------------------------------------------------------

    def _action_kind(self, a: int) -> str:
        """``place``, ``pass``, ``exchange``, ``row`` or ``take`` for an int action."""
        if a < self.A_PASS:
            return "place"
        if a == self.A_PASS:
            return "pass"
        if a < self.A_ROW:
            return "exchange"
        return "row" if a < self.A_TAKE else "take"

    def _validate_dict(self, d: Dict[str, Any]) -> None:
        """Accept exactly the states M can reach; each checker names the rules it checks,
        in this order (the first broken rule is the one reported)."""
        cells = self._check_cards(d)
        self._check_scalars(d, cells)
        self._check_phase(d, cells)
        self._check_end(d, cells)
        hist = _ints(d["history"], None, "history", 0, self.num_actions - 1)
        self._check_max_turns(d, hist)
        kinds = self._validate_log(d["log"], hist, cells, d["taken"], d["phase"], d["current"], d["placer"], d["last"])
        self._check_passes_logged(d, kinds)

    def _check_cards(self, d: Dict[str, Any]) -> Dict[Cell, int]:
        """M-1 .. M-5, M-7, M-13 b, M-15: the table, hands, pile, removed and taken cards;
        every card is in exactly one place. Returns the table as ``{cell: card}``."""
        n, N = self.num_players, self.n_cards
        cells = self._check_table(d["table"])
        hands = d["hands"]
        expect(isinstance(hands, list) and len(hands) == n, f"hands must be a list of {n} hands")
        for p, h in enumerate(hands):
            _ints(h, None, f"hands[{p}]", 0, N - 1)
            expect(len(h) <= self.hand_size, f"M-5: hands[{p}] holds more than {self.hand_size} cards")
            expect(h == sorted(h), f"hands[{p}] must be sorted")
        pile = _ints(d["pile"], None, "pile", 0, N - 1)
        _ints(d["pile_putter"], len(pile), "pile_putter", -1, n - 1)
        removed = _ints(d["removed"], None, "removed (M-3)", 0, N - 1)
        # (crafted positions may hold any number of cards out of play; new_state removes
        # exactly len(cards) - cards_in_play, M-3)
        expect(removed == sorted(removed), "removed must be sorted")
        chips = _ints(d["chips"], n, "chips", 0)
        expect(sum(chips) == n * self.start_chips, f"M-2: {sum(chips)} chips in play, expected {n * self.start_chips}")
        taken = d["taken"]
        expect(isinstance(taken, list) and len(taken) == n, f"taken must be a list of {n} lists")
        for p, t in enumerate(taken):
            _ints(t, None, f"taken[{p}]", 0, N - 1)
        every = list(cells.values()) + [c for h in hands for c in h] + pile + removed + [c for t in taken for c in t]
        expect(
            sorted(every) == list(range(N)),
            "M-1/M-3: every card must be exactly once on the table, in a hand, in the pile, removed or taken",
        )
        return cells

    def _check_table(self, table: Any) -> Dict[Cell, int]:
        """M-7, M-13 b: the table's cards, one per cell, in a 6 x 6 square, connected."""
        expect(isinstance(table, list) and len(table) >= 1, "table must be a non-empty list of [row, col, card]")
        cells: Dict[Cell, int] = {}
        for e in table:
            if not isinstance(e, list) or len(e) != 3:
                raise StateError(f"table entry {shorten(e)} must be [row, col, card]")
            _ints(e[:2], 2, "table cell", -COORD, COORD)
            _ints(e[2:], 1, "table card", 0, self.n_cards - 1)
            if (e[0], e[1]) in cells:
                raise StateError(f"table cell ({e[0]}, {e[1]}) appears twice")
            cells[(e[0], e[1])] = e[2]
        expect(table == sorted(table), "table entries must be sorted by (row, col)")
        expect(_fits_square(list(cells)), "M-7: the cards on the table do not fit in a 6 x 6 square")
        expect(_connected(set(cells)), "M-13: the cards on the table are not connected")
        return cells

    def _check_scalars(self, d: Dict[str, Any], cells: Dict[Cell, int]) -> None:
        """The types and ranges of phase, current, placer, passes (M-18), end, truncated,
        last and scoring_row (M-13: its cells hold cards)."""
        n = self.num_players
        phase = d["phase"]
        expect(
            isinstance(phase, str) and phase in (PLAY, CHOOSE, TAKE, OVER),
            f"phase must be one of play, choose, take, over; got {shorten(phase)}",
        )
        cur = d["current"]
        expect(is_int(cur), f"current must be an int seat (or -4 when the game is over), got {shorten(cur)}")
        placer = d["placer"]
        expect(is_int(placer) and -1 <= placer < n, f"placer must be -1 or a seat 0..{n - 1}, got {shorten(placer)}")
        passes = d["passes"]
        expect(is_int(passes) and 0 <= passes <= n, f"passes (M-18) must be an int 0..{n}, got {shorten(passes)}")
        end = d["end"]
        expect(
            end is None or (isinstance(end, str) and end in END_REASONS),
            f"end must be None or one of {', '.join(END_REASONS)}; got {shorten(end)}",
        )
        expect(
            isinstance(d["truncated"], bool) and d["truncated"] == (end == "max_turns"),
            "truncated must be a bool, True exactly when end is 'max_turns'",
        )
        last = d["last"]
        expect(last is None or isinstance(last, list), "last must be None or [row, col]")
        if last is not None:
            _ints(last, 2, "last", -COORD, COORD)
        row = d["scoring_row"]
        expect(isinstance(row, list), "scoring_row must be a list of [row, col]")
        for rc in row:
            _ints(rc, 2, "scoring_row cell", -COORD, COORD)
            expect((rc[0], rc[1]) in cells, f"M-13: scoring row cell {shorten(rc)} holds no card")
        expect(
            row == sorted(row) and len({(rc[0], rc[1]) for rc in row}) == len(row),
            "scoring_row must be sorted, without repeats",
        )

    def _check_phase(self, d: Dict[str, Any], cells: Dict[Cell, int]) -> None:
        """The phase and the seat to move: over (M-16 .. M-18), play, or a scoring (M-12 .. M-14)."""
        n, phase, cur, placer, end = self.num_players, d["phase"], d["current"], d["placer"], d["end"]
        if phase == OVER:
            expect(cur == _api.TERMINAL, "current must be TERMINAL (-4) when the game is over")
            expect(end is not None, "end: a game that is over needs its reason (M-16, M-17, M-18 or max_turns)")
            expect(placer == -1, "placer must be -1 once the game is over")
        else:
            expect(0 <= cur < n, f"current must be a seat 0..{n - 1} while the game goes on, got {cur}")
            expect(end is None, f"end must be None while the game goes on (phase {phase}), got {shorten(end)}")
        if phase == PLAY:
            expect(placer == -1, "placer must be -1 in the play phase (no placement is being scored)")
        if phase in (CHOOSE, TAKE):
            expect(placer >= 0, f"M-12/M-13: the {phase} phase needs the placer (a seat), got placer {placer}")
            expect(d["passes"] == 0, "passes must be 0 during a scoring (M-18: a placement resets the count)")
            expect(d["last"] is not None, f"M-12: the {phase} phase needs the cell of the placed card (last)")
        if phase == CHOOSE:
            self._check_row_choice(d, cells)
        elif phase == TAKE:
            self._check_scoring_row(d, cells)
        else:
            expect(not d["scoring_row"], "scoring_row must be empty outside a scoring")

    def _check_row_choice(self, d: Dict[str, Any], cells: Dict[Cell, int]) -> None:
        """M-12: the placer chooses the row when both lines through the placed card qualify."""
        at = (d["last"][0], d["last"][1])
        expect(at in cells, "M-12: a row choice needs the placed card (last) on the table")
        expect(d["current"] == d["placer"], "M-12: the placer chooses the scoring row (current must be the placer)")
        expect(not d["scoring_row"], "M-12: the scoring row is empty until the placer chooses it")
        expect(
            _qualifies(self, cells, at, 0, 1) and _qualifies(self, cells, at, 1, 0),
            f"M-12: a row choice needs both lines through the placed card at {at} to qualify",
        )

    def _check_scoring_row(self, d: Dict[str, Any], cells: Dict[Cell, int]) -> None:
        """M-12: the scoring row lies on a line through the placed card; M-14: a take is left."""
        row, last = d["scoring_row"], d["last"]
        expect(
            len({rc[0] for rc in row}) == 1
            and row[0][0] == last[0]
            or len({rc[1] for rc in row}) == 1
            and row[0][1] == last[1],
            "M-12: the scoring row must lie on a line through the placed card (last)",
        )
        expect(
            bool(_takeable(set(cells), {(rc[0], rc[1]) for rc in row})),
            "M-14: the scoring row has no legal take (M-13 a: one card stays; b: the table stays "
            "connected), so the scoring is over",
        )

    def _check_end(self, d: Dict[str, Any], cells: Dict[Cell, int]) -> None:
        """The end of the game: M-18 (successive passes with an empty pile), M-16 (the
        pile ran out before a scoring), M-17 (no card fits)."""
        n, passes, end, pile = self.num_players, d["passes"], d["end"], d["pile"]
        if passes:
            expect(not pile, "M-18: passes are only counted while the draw pile is empty")
        if end == "M-18":
            expect(passes == n, f"M-18 ends the game after {n} successive passes: passes must be {n}")
        else:
            expect(passes < n, f"M-18: {n} successive passes with an empty pile end the game (end must be 'M-18')")
        if end == "M-16":
            expect(not pile and passes == 0, "M-16: the game ended after a scoring that began with an empty pile")
        # M-17 looks at the hands and, by default, the draw pile (stuck_cards; not with chips=0)
        in_play = [c for h in d["hands"] for c in h] + (pile if self.pile_in_reach else [])
        where = (
            "in a hand or in the draw pile"
            if self.pile_in_reach
            else "in a hand (stuck_cards='hands')"
            if not self.stuck_with_pile
            else "in a hand (chips=0: no pile card can reach a hand)"
        )
        if d["phase"] == PLAY:
            expect(_any_fits(self, cells, in_play), f"M-17: no card {where} fits on the table, so the game is over")
        if end == "M-17":
            expect(
                not _any_fits(self, cells, in_play),
                f"M-17: the game ended because no card fits, yet a card {where} fits",
            )

    def _check_max_turns(self, d: Dict[str, Any], hist: List[int]) -> None:
        """max_turns: the history is no longer, and a truncated game exactly as long."""
        expect(len(hist) <= self.max_turns, "history is longer than max_turns")
        if d["end"] == "max_turns":
            expect(len(hist) == self.max_turns, "max_turns: a truncated game has exactly max_turns actions")
        elif d["end"] is None:
            expect(len(hist) < self.max_turns, "the game should have been truncated (max_turns)")

    def _check_passes_logged(self, d: Dict[str, Any], kinds: List[str]) -> None:
        """M-18: with the pile empty every pass counts (passes never change the pile's size,
        so it was empty at each of the latest passes); any other action resets the count."""
        if not kinds or d["pile"]:
            return
        passes = d["passes"]
        trailing = len(kinds) - next((i + 1 for i in range(len(kinds) - 1, -1, -1) if kinds[i] != "pass"), 0)
        if trailing < len(kinds):
            expect(
                passes == trailing,
                f"M-18: the log ends with {trailing} pass(es) with an empty pile, so passes must be {trailing}",
            )
        else:
            expect(
                passes >= trailing,
                f"M-18: the log holds {trailing} pass(es) with an empty pile, so passes is at least {trailing}",
            )

    def _validate_log(
        self,
        log: Any,
        hist: List[int],
        cells: Dict[Cell, int],
        taken: List[List[int]],
        phase: str,
        cur: int,
        placer: int,
        last: Optional[List[int]],
    ) -> List[str]:
        """``log`` (public facts of each action) against ``history`` and the state; returns the
        kind of every action."""
        expect(
            isinstance(log, list) and len(log) == len(hist),
            f"log must hold one [seat, card, row, col] entry per history action ({len(hist)})",
        )
        laid: Set[int] = set()
        took: Set[int] = set()
        out_of_hands = set(cells.values()) | {c for t in taken for c in t}
        corner = (min(r for r, _ in cells), min(c for _, c in cells))
        kinds = []
        for i in range(len(hist)):
            a, e = hist[i], log[i]
            if not (type(e) is list and len(e) == 4 and all(type(v) is int and -COORD <= v <= COORD for v in e)):
                expect(
                    isinstance(e, list) and len(e) == 4, f"log[{i}] must be [seat, card, row, col], got {shorten(e)}"
                )
                int_list(e, 4, f"log[{i}]", -COORD, COORD)
            seat, card, r, c = e
            kind = self._action_kind(a)
            kinds.append(kind)
            if not 0 <= seat < self.num_players:
                raise StateError(f"log[{i}]: seat {seat} is not a seat 0..{self.num_players - 1}")
            if kind == "place" or kind == "take":
                self._check_logged_card(
                    i,
                    a,
                    kind,
                    e,
                    corner,
                    out_of_hands if kind == "place" else taken[seat],
                    laid if kind == "place" else took,
                )
            elif card != (-2 if kind == "exchange" else -1) or r != 0 or c != 0:
                code = -2 if kind == "exchange" else -1
                raise StateError(
                    f"log[{i}]: {_A_KIND[kind]} (history[{i}] = {a}) is logged as [seat, {code}, 0, 0], got {e}"
                )
        if log:  # (a crafted position may have no past)
            self._check_log_turn(log, kinds, phase, cur, placer, last)
        return kinds

    def _check_logged_card(
        self, i: int, a: int, kind: str, e: List[int], corner: Cell, where: Any, seen: Set[int]
    ) -> None:
        """M-15: log entry ``i`` of a placement or a take names a card that left a hand once
        and is now ``where`` it must be (on the table or taken, or among the taker's taken
        cards), on a cell near the table."""
        N = self.n_cards
        seat, card, r, c = e
        if not 0 <= card < N:
            raise StateError(f"log[{i}]: {_A_KIND[kind]} (history[{i}] = {a}) names its card 0..{N - 1}, got {card}")
        if abs(r - corner[0]) > LOG_REACH or abs(c - corner[1]) > LOG_REACH:
            raise StateError(
                f"log[{i}]: cell ({r}, {c}) lies more than {LOG_REACH} rows or columns from "
                "the table (a game drifts less than 800)"
            )
        if card in seen or card not in where:
            if kind == "place":  # M-15: a card that left a hand never returns to one
                raise StateError(f"log[{i}]: card {card} was laid, so it is on the table or taken (and laid once)")
            raise StateError(f"log[{i}]: seat {seat} took card {card}, so it is among its taken cards (M-15)")
        seen.add(card)

    def _check_log_turn(
        self, log: List[List[int]], kinds: List[str], phase: str, cur: int, placer: int, last: Optional[List[int]]
    ) -> None:
        """M-11 .. M-13: the latest placement, the placer and the seat to move follow from the log."""
        n = self.num_players
        places = [i for i, k in enumerate(kinds) if k == "place"]
        if places:
            i = places[-1]
            expect(last == log[i][2:], f"last must be the cell of the latest placement (log[{i}])")
        if phase in (CHOOSE, TAKE):
            expect(bool(places), "M-12: a scoring follows a placement, and the log has none")
            i = places[-1]
            after = kinds[i + 1 :]
            expect(log[i][0] == placer, f"the placer must be the seat of the latest placement (log[{i}])")
            expect(
                all(k == "take" for k in after[1:])
                and (not after or after[0] in ("row", "take"))
                and (phase == TAKE or not after),
                "M-12/M-13: after the placement being scored the log may only hold a row choice and takes",
            )
            if phase == TAKE:
                takes = sum(1 for k in after if k == "take")
                expect(
                    cur == (placer - takes) % n,
                    "M-13: the takers go around to the right of the placer; "
                    f"after {takes} takes seat {(placer - takes) % n} must take",
                )
        elif phase == PLAY:
            k, seat = kinds[-1], log[-1][0]
            expect(k != "row", "M-12: a row choice starts a scoring; the phase cannot be play")
            ender = log[places[-1]][0] if k == "take" and places else seat
            expect(
                cur == (ender + 1) % n,
                f"M-11: after the turn of seat {ender} its left neighbour {(ender + 1) % n} plays, not seat {cur}",
            )

    def _redact(self, d: Dict[str, Any], p: int) -> Dict[str, Any]:
        # M-22: other hands, the pile (except the cards p put under it) and the removed cards
        # are hidden; the rng would predict nothing now, but is hidden on principle. Another
        # seat's placement or exchange names a hand slot (hands are sorted by card id, so a
        # slot bounds the other cards' ids): it becomes None, its public facts stay in log.
        d["hands"] = [h if q == p else [None] * len(h) for q, h in enumerate(d["hands"])]
        d["pile"] = [c if w == p else None for c, w in zip(d["pile"], d["pile_putter"])]
        d["removed"] = [None] * len(d["removed"])
        d["rng"] = None
        A_PASS, A_ROW = self.A_PASS, self.A_ROW
        d["history"] = [None if e[0] != p and a < A_ROW and a != A_PASS else a for a, e in zip(d["history"], d["log"])]
        return d

    def _describe_seen(self, before: Dict[str, Any], after: Dict[str, Any], action: Optional[int]) -> str:
        # M-22: the seat's own moves and the public ones (pass, row, take) as describe writes
        # them, read from its own view; another seat's placement or exchange is hidden in
        # the view's history (its int names a hand slot) and told from the public log: the
        # card laid and its cell, or only that a card was exchanged (M-9).
        if action is not None:
            return _describe_in(self, before, action)
        seat, card, row, col = after["log"][-1]
        expect(card >= 0 or card == -2, "M-22: a hidden history entry is a placement or an exchange")
        if card == -2:
            return "exchange a card"
        return f"place {self.card_name(card)} at {row},{col}"

    def _determinize(self, view: Dict[str, Any], p: int, rng: Rng) -> Dict[str, Any]:
        # M-22: everything p cannot see is dealt from the cards p does not see, in a
        # canonical (sorted) order shuffled by rng: the other hands, the pile positions p did
        # not fill, the removed cards. Nothing else of the view changes.
        n, N = self.num_players, self.n_cards
        hands, pile, table, taken = view["hands"], view["pile"], view["table"], view["taken"]
        expect(isinstance(hands, list) and len(hands) == n, f"hands must be a list of {n} hands")
        for x in (pile, table, taken, view["removed"], view["history"], view["log"]):
            expect(isinstance(x, list), "a view holds lists for table, hands, pile, removed, taken, history, log")
        mine = list(hands[p]) + [c for c in pile if c is not None]  # p's cards in play
        seen = [e[2] for e in table] + [c for t in taken for c in t] + mine
        pool = sorted(set(range(N)) - set(seen))
        sizes = [len(h) if q != p else 0 for q, h in enumerate(hands)]
        unknown = [i for i, c in enumerate(pile) if c is None]
        k = sum(sizes) + len(unknown)  # hidden cards in play; the rest of the pool was removed
        expect(
            len(pool) == k + len(view["removed"]),
            f"M-22: the view's hidden cards do not add up to the cards seat {p} cannot see ({len(pool)})",
        )
        # M-17 holds in the world exactly when p saw it hold. A game that ended by M-17 has no
        # card in play that fits: the hidden cards in play are dealt from the pool cards that
        # do not fit (the others were removed). A game in its play phase has a card that
        # fits (else it would be over): when p's own cards do not, a hidden card in play
        # must, so the deal is drawn again until one does (at most MAX_DRAWS times). With
        # stuck_cards='hands' M-17 looks at the hands only: "in play" is then the hands (the
        # first k_fit cards of the deal), and p's cards are its hand; so too with chips=0.
        if not self.pile_in_reach:
            mine = list(hands[p])
            k_fit = sum(sizes)
        else:
            k_fit = k
        fitting: Set[int] = set()
        if view["end"] == "M-17" or view["phase"] == PLAY and not _any_fits(self, _cells(table), mine):
            frontier = _frontier(_cells(table))
            fitting = {c for c in pool if _fits_somewhere(self, frontier, c)}
        if view["end"] == "M-17":
            order = [c for c in pool if c not in fitting]
            rng.shuffle(order)
            order = order[:k_fit] + sorted(fitting) + order[k_fit:]  # (the tail is removed, sorted below)
        else:
            for _ in range(MAX_DRAWS):
                order = list(pool)
                rng.shuffle(order)
                if not fitting or k_fit == 0 or any(c in fitting for c in order[:k_fit]):
                    break  # (with k == 0 no deal can help: the view is refused below)
        deal = iter(order)
        d = dict(view)
        d["hands"] = [list(h) if q == p else sorted(next(deal) for _ in range(len(h))) for q, h in enumerate(hands)]
        d["pile"] = [next(deal) if c is None else c for c in pile]
        d["removed"] = sorted(deal)
        # another seat's placement or exchange: a canonical action of the same kind
        history = []
        for i, (a, e) in enumerate(zip(view["history"], view["log"])):
            if a is None:
                expect(
                    isinstance(e, list) and len(e) == 4 and is_int(e[1]) and (e[1] >= 0 or e[1] == -2),
                    f"log[{i}]: a hidden history action must be a placement or an exchange",
                )
                a = 0 if e[1] >= 0 else self.A_EXCH
            history.append(a)
        d["history"] = history
        d["log"] = [list(e) if isinstance(e, list) else e for e in view["log"]]
        d["rng"] = rng.next64()
        return d

    def _window(self, d: Dict[str, Any]) -> Tuple[int, int]:
        return min(e[0] for e in d["table"]) - 1, min(e[1] for e in d["table"]) - 1

    def _card_planes(self, obs: npt.NDArray[np.float32], ch: int, card: int, where: Any) -> None:
        obs[ch + self.colour_of[card]][where] = 1.0
        obs[ch + len(self.colours) + self.vindex_of[card]][where] = 1.0
        if self.symbol_of[card] >= 0:
            obs[ch + len(self.colours) + len(self.values) + self.symbol_of[card]][where] = 1.0

    def _observation(self, d: Dict[str, Any], p: int) -> npt.NDArray[np.float32]:
        n, nc = self.num_players, len(self.colours)
        obs = np.zeros(self.observation_shape, dtype=np.float32)
        r0, c0 = self._window(d)
        for r, c, card in d["table"]:
            obs[0, r - r0, c - c0] = 1.0
            self._card_planes(obs, 1, card, (r - r0, c - c0))
        ch = 1 + self.card_planes
        for r, c in d["scoring_row"]:
            obs[ch, r - r0, c - c0] = 1.0
        ch += 1
        if d["phase"] == CHOOSE:
            cells = {(e[0], e[1]) for e in d["table"]}
            for k, (dr, dc) in enumerate(((0, 1), (1, 0))):
                for r, c in _run(cells, tuple(d["last"]), dr, dc):
                    obs[ch + k, r - r0, c - c0] = 1.0
        ch += 2
        if d["last"] is not None:
            r, c = d["last"][0] - r0, d["last"][1] - c0
            if 0 <= r < W and 0 <= c < W:
                obs[ch, r, c] = 1.0
        ch += 1
        for s, card in enumerate(d["hands"][p]):
            self._card_planes(obs, ch + s * self.card_planes, card, slice(None))
        ch += self.hand_size * self.card_planes
        totals = _colour_totals(self, d["taken"])
        for k in range(n):
            q = (p + k) % n
            obs[ch] = d["chips"][q] / 10.0
            obs[ch + 1] = len(d["hands"][q])
            for col in range(nc):
                obs[ch + 2 + col] = totals[q][col] / 100.0
            ch += 2 + nc
        obs[ch] = len(d["pile"]) / 10.0
        obs[ch + 1] = sum(1 for w in d["pile_putter"] if w == p)
        ch += 2
        if d["phase"] != OVER:
            obs[ch + (PLAY, CHOOSE, TAKE).index(d["phase"])] = 1.0
            obs[ch + 3 + (d["current"] - p) % n] = 1.0
        return obs

    def _render(self, d: Dict[str, Any]) -> str:
        r0, c0 = self._window(d)
        cells = {(e[0], e[1]): e[2] for e in d["table"]}
        srow = {(r, c) for r, c in d["scoring_row"]}
        width = max(len(self._short(c)) for c in cells.values()) + 2  # room for the '*' and a space
        lines = ["    " + "".join(f"{c0 + c:>{width}}" for c in range(W))]
        for r in range(W):
            row = []
            for c in range(W):
                card = cells.get((r0 + r, c0 + c))
                txt = "." if card is None else self._short(card) + ("*" if (r0 + r, c0 + c) in srow else "")
                row.append(f"{txt:>{width}}")
            lines.append(f"{r0 + r:>4}" + "".join(row))
        cur = d["current"]
        who = f"game over: {self._end_reason(d)}" if d["phase"] == OVER else f"seat {cur} to {d['phase']}"
        lines.append(f"action {len(d['history'])}, {who}; draw pile: {len(d['pile'])} cards")
        totals = _colour_totals(self, d["taken"])
        for p in range(self.num_players):
            hand = ", ".join("?" if c is None else self.card_name(c) for c in d["hands"][p])
            piles = ", ".join(f"{self.colours[k]} {v}" for k, v in enumerate(totals[p]) if v)
            lines.append(f"seat {p}: {d['chips'][p]} chips; hand [{hand}]; taken: {piles or '-'}")
        colours = " ".join(f"{c[:1]}={c}" for c in self.colours)
        symbols = " ".join(f"{s[:1]}={s}" for s in self.symbols)
        lines.append(
            f"board: row and column at the left and on top (moves name them: 'place b30s@2,-1' or "
            f"'place blue 30 square at 2,-1'); a card is colour, value, symbol ({colours}; {symbols})"
            + ("; * marks the scoring row" if srow else "")
        )
        return "\n".join(lines)

    def _short(self, card: int) -> str:
        col, val, sym = self.cards[card]
        return f"{col[0]}{val}{'' if sym is None else sym[0]}"

    def _expand_short(self, t: str) -> str:
        """The board's short codes in casefolded move text written out as card names:
        ``p20s@2,1`` (or ``place p20s@2,1``) is ``place pink 20 square at 2,1``, ``take
        g20e@1,3`` is ``take green 20 eight at 1,3``, ``exchange o0`` is ``exchange orange 0``.
        A code whose initial names no colour or symbol, or more than one (a custom table),
        raises ``ValueError``; other text is returned as it is."""
        m = re.fullmatch(r"(place |take )?([^\W\d_])(\d+)([^\W\d_]?)@(-?\d+) ?, ?(-?\d+)", t)
        e = re.fullmatch(r"exchange ([^\W\d_])(\d+)([^\W\d_]?)", t)
        if m is None and e is None:
            return t
        col, val, sym = m.group(2, 3, 4) if m is not None else e.group(1, 2, 3)  # type: ignore[union-attr]
        name = " ".join(
            [self._initial(col, self.colours, "colour"), val]
            + ([self._initial(sym, self.symbols, "symbol")] if sym else [])
        )
        if e is not None:
            return f"exchange {name}"
        assert m is not None
        return f"{(m.group(1) or 'place ').strip()} {name} at {m.group(5)},{m.group(6)}"

    @staticmethod
    def _initial(letter: str, names: Sequence[str], what: str) -> str:
        hits = [n for n in names if n[:1].casefold() == letter]
        if len(hits) != 1:
            known = ", ".join(f"{n[:1]}={n}" for n in names)
            raise ValueError(
                f"M: {letter!r} is the initial of {'no' if not hits else 'more than one'} {what} "
                f"({known}); write the card's name"
            )
        return hits[0].casefold()

    def _explain_illegal(self, state: _api.StateAPI[Any], action: Any) -> str:
        a = _api.check_action_type(action)
        d = state._to_dict()
        if d["phase"] == OVER:
            return f"the game is over ({d['end']}); action {a} cannot be applied"
        if not 0 <= a < self.num_actions:
            return f"action {shorten(a)} is out of range 0..{self.num_actions - 1}"
        p = d["current"]
        cells = {(e[0], e[1]): e[2] for e in d["table"]}
        r0, c0 = self._window(d)
        mv = self.action_to_move(a)
        if d["phase"] == CHOOSE and not isinstance(mv, MChooseRow):
            return f"M-12: both lines qualify; seat {p} must first choose the scoring row ({mv} is not a row choice)"
        if d["phase"] == TAKE and not isinstance(mv, MTake):
            return f"M-14: a scoring is under way; seat {p} must take a card of the scoring row ({mv} is not a take)"
        if d["phase"] == PLAY and isinstance(mv, (MChooseRow, MTake)):
            return f"M-11: seat {p} must place or pass; no scoring is under way ({mv})"
        if isinstance(mv, MPlace):
            hand = d["hands"][p]
            if mv.slot >= len(hand):
                return f"M-6: seat {p} holds {len(hand)} cards; there is no hand slot {mv.slot}"
            why = _placement_problem(self, cells, hand[mv.slot], (r0 + mv.row, c0 + mv.col))
            return why or f"M-6: {mv} is not allowed"
        if isinstance(mv, MPass):
            if d["chips"][p] == 0 and not self.free_exchange:
                return f"M-9: seat {p} has no chip, so may pass but not exchange (chipless_exchange='forbidden')"
            if not d["pile"]:
                return "M-9: no exchange when the draw pile is empty"
            return f"M-9: seat {p} holds {len(d['hands'][p])} cards; there is no hand slot {mv.exchange}"
        if isinstance(mv, MTake):
            cell = (r0 + mv.row, c0 + mv.col)
            row = {(r, c) for r, c in d["scoring_row"]}
            if cell not in row:
                return f"M-13: window cell ({mv.row}, {mv.col}) holds no card of the scoring row"
            if len(row) == 1:
                return "M-13(a): the last card of the scoring row must stay on the table"
            return f"M-13(b): taking the card at window cell ({mv.row}, {mv.col}) would split the table"
        return f"M-12: the {'vertical' if a == self.A_ROW + 1 else 'horizontal'} row is not a choice now"


# ---- helpers (engine-neutral) -------------------------------------------------------------

Cell = Tuple[int, int]
DIRS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def _fits_square(cells: Sequence[Cell]) -> bool:
    """M-7: the cells fit in a 6 x 6 square."""
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    return max(rows) - min(rows) < SQUARE and max(cols) - min(cols) < SQUARE


def _connected(cells: Set[Cell]) -> bool:
    """M-13(b): every cell reachable from any other through orthogonal steps."""
    if not cells:
        return True
    todo = [next(iter(cells))]
    seen = set(todo)
    while todo:
        r, c = todo.pop()
        for dr, dc in DIRS:
            x = (r + dr, c + dc)
            if x in cells and x not in seen:
                seen.add(x)
                todo.append(x)
    return len(seen) == len(cells)


def _phase_problem(d: Dict[str, Any], what: str) -> str:
    """Why ``what`` cannot be played in the phase of state dict ``d`` (not over)."""
    p = d["current"]
    if d["phase"] == CHOOSE:
        return (
            f"M-12: both lines qualify; seat {p} must first choose the scoring row ({shorten(what)} is not a "
            "row choice)"
        )
    if d["phase"] == TAKE:
        return (
            f"M-14: a scoring is under way; seat {p} must take a card of the scoring row ({shorten(what)} is "
            "not a take)"
        )
    return f"M-11: seat {p} must place or pass; no scoring is under way ({shorten(what)})"


def _ints(x: Any, n: Optional[int], what: str, lo: int, hi: Optional[int] = None) -> List[int]:
    """``int_list`` with a fast path for the common case (a list of plain ints in range)."""
    top = hi if hi is not None else lo + 2**64
    if type(x) is list and (n is None or len(x) == n) and all(type(v) is int and lo <= v <= top for v in x):
        return x
    return int_list(x, n, what, lo, hi)


def _cells(table: List[List[int]]) -> Dict[Cell, int]:
    return {(e[0], e[1]): e[2] for e in table}


def _frontier(cells: Dict[Cell, int]) -> List[List[int]]:
    """M-6, M-7: for every free cell next to the table that keeps the cards inside a 6 x 6
    square, the cards of its neighbours."""
    top, bottom = min(r for r, _ in cells), max(r for r, _ in cells)
    left, right = min(c for _, c in cells), max(c for _, c in cells)
    out: List[List[int]] = []
    seen: Set[Cell] = set()
    for r, c in cells:
        for dr, dc in DIRS:
            x = (r + dr, c + dc)
            if x in cells or x in seen:
                continue
            seen.add(x)
            if max(bottom, x[0]) - min(top, x[0]) >= SQUARE or max(right, x[1]) - min(left, x[1]) >= SQUARE:
                continue
            out.append([cells[y] for y in ((x[0] + a, x[1] + b) for a, b in DIRS) if y in cells])
    return out


def _fits_somewhere(game: M, frontier: List[List[int]], card: int) -> bool:
    """M-6: does ``card`` match every neighbour of some cell of the frontier?"""
    return any(all(game.matches(card, b) for b in nbrs) for nbrs in frontier)


def _any_fits(game: M, cells: Dict[Cell, int], cards: Sequence[int]) -> bool:
    """M-17: can any of ``cards`` be laid somewhere on this table?"""
    if not cards:
        return False
    frontier = _frontier(cells)
    return any(_fits_somewhere(game, frontier, c) for c in cards)


def _qualifies(game: M, cells: Dict[Cell, int], at: Cell, dr: int, dc: int) -> bool:
    """M-12: the run through ``at`` along (dr, dc) has 5 or 6 cards and the card on ``at``
    shares two attributes with one of its neighbours in that run."""
    run = _run(cells, at, dr, dc)
    if len(run) not in (5, 6):
        return False
    card = cells[at]
    for x in ((at[0] - dr, at[1] - dc), (at[0] + dr, at[1] + dc)):
        if x in cells and game.matches(card, cells[x]) >= 2:
            return True
    return False


def _takeable(cells: Set[Cell], row: Set[Cell]) -> List[Cell]:
    """M-13: the cells of the scoring row whose card may be taken (a: one card of the row
    stays; b: the table stays connected)."""
    if len(row) < 2:
        return []
    rest = set(cells)
    out = []
    for x in row:
        rest.discard(x)
        if _connected(rest):
            out.append(x)
        rest.add(x)
    return out


def _run(cells: Any, at: Cell, dr: int, dc: int) -> List[Cell]:
    """The unbroken run of occupied cells through ``at`` along direction (dr, dc) (M-12a)."""
    r, c = at
    while (r - dr, c - dc) in cells:
        r, c = r - dr, c - dc
    out = []
    while (r, c) in cells:
        out.append((r, c))
        r, c = r + dr, c + dc
    return out


def _placement_problem(game: M, cells: Dict[Cell, int], card: int, at: Cell) -> Optional[str]:
    """None if ``card`` may be laid on ``at`` (M-6, M-7), else the rule it breaks."""
    if at in cells:
        return f"M-6: cell {at} is already occupied"
    nbrs = [(at[0] + dr, at[1] + dc) for dr, dc in DIRS if (at[0] + dr, at[1] + dc) in cells]
    if not nbrs:
        return f"M-6: cell {at} is not adjacent to a card on the table"
    for x in nbrs:  # M-6: every neighbour shares at least one attribute
        if game.matches(card, cells[x]) == 0:
            return f"M-6: card {game.card_name(card)} does not match its neighbour {game.card_name(cells[x])} at {x}"
    if not _fits_square(list(cells) + [at]):
        return f"M-7: a card at {at} would not fit in the 6 x 6 square"
    return None


def _colour_totals(game: M, taken: List[List[int]]) -> List[List[int]]:
    out = []
    for t in taken:
        tot = [0] * len(game.colours)
        for c in t:
            tot[game.colour_of[c]] += game.value_of[c]
        out.append(tot)
    return out


def final_score(chips: int, totals: Sequence[int]) -> int:
    """M-20: 10 x chips + the two best colour totals - every other colour total.

    >>> final_score(5, [70, 30, 40, 0, 0])
    130
    """
    s = sorted(totals, reverse=True)
    return 10 * chips + sum(s[:2]) - sum(s[2:])


# ---- the pure-Python reference engine ------------------------------------------------------


class MState(_api.GameState[M, MMove]):
    """The public type of a M state, on either engine: what ``M.new_state()``
    returns and what annotations should name. The reference engine
    (``ReferenceMState``) and the compiled one both derive from it.

    Besides the shared API it reads and writes moves in a notation for people that names
    cards and *absolute* cells (those of ``to_dict()["table"]``, which never shift):
    ``place blue 30 square at 2,-1``, ``exchange pink 0``, ``pass``, ``row vertical``,
    ``take green 20 eight at 1,3``. When a hand holds two cards of the same name (the two
    0s of a colour), the notation adds the card id to the one that is not the lowest:
    ``exchange pink 0 #37``.
    """

    __slots__ = ()

    def describe(self, action: Union[MMove, SupportsIndex], *, for_player: Optional[SupportsIndex] = None) -> str:
        """``action`` in the readable notation, as the seat to move would play it now;
        :meth:`parse_action` reads it back. Raises :class:`IllegalMoveError` when the action
        names no card here (an empty hand slot, an empty cell, the game is over). With
        ``for_player``: the move as that seat sees it (:meth:`M.describe_seen`): another
        seat's exchange is ``exchange a card`` (M-9, M-22), its placement names the card
        without the ``#id`` that would tell what else its hand holds."""
        if for_player is not None:
            return self._describe_for(action, for_player)
        g = self.game
        a = g._action(action)
        g.action_to_move(a)  # a ValueError for what is not an action of this game
        d = self._to_dict() if a < g.A_PASS or g.A_PASS < a < g.A_ROW or a >= g.A_TAKE else {}
        if d and d["phase"] == OVER:
            raise self._illegal(a)
        return _describe_in(g, d, a)

    def parse_action(self, text: str) -> int:
        """The int action that ``text`` names in this state: the readable notation of
        :meth:`describe` (card names, absolute cells) or the slot/window form ``str(move)``.
        Raises ``ValueError`` for text in neither notation and :class:`IllegalMoveError`
        (naming the rule) for a move that is not legal here."""
        if not isinstance(text, str):
            raise TypeError(f"an M move is read from a str, not {type(text).__name__}")
        text = str(exact(text))  # (the str it holds: a subclass's own methods unheard)
        g = self.game
        t = g._expand_short(" ".join(text.split()).casefold())
        place = re.fullmatch(r"place (.+?) at (-?\d+) ?, ?(-?\d+)", t)
        exch = re.fullmatch(r"exchange (.+)", t)
        take = re.fullmatch(r"take (?:(.+?) )?at (-?\d+) ?, ?(-?\d+)", t)
        if not (place or exch or take):
            try:
                move = g.parse_move(t)
            except IllegalMoveError:
                raise
            except ValueError:
                raise ValueError(
                    f"not an M move: {shorten(text)} (e.g. 'place blue 30 square at 2,-1' or in the board's short "
                    "codes 'b30s@2,-1', 'exchange pink 0', 'pass', 'row vertical', 'take green 20 eight at 1,3' "
                    "or 'take g20e@1,3', or the slot/window form 'place 1@2,3')"
                ) from None
            return self._legal_or_raise(g.move_to_action(move))
        d = self._to_dict()
        if d["phase"] == OVER:
            raise IllegalMoveError(f"the game is over ({d['end']}); {shorten(t)} cannot be played")
        p = d["current"]
        r0, c0 = g._window(d)
        if take:
            if d["phase"] != TAKE:
                raise IllegalMoveError(_phase_problem(d, t))
            at = (int(take.group(2)), int(take.group(3)))
            card = _cells(d["table"]).get(at)
            if take.group(1) is not None:
                want = self._cards_named(take.group(1))
                if card not in want:
                    on = "no card" if card is None else g.card_name(card)
                    raise IllegalMoveError(f"M-13: cell {at[0]},{at[1]} holds {on}, not {take.group(1)}")
            wr, wc = at[0] - r0, at[1] - c0
            if card is None or not (0 <= wr < W and 0 <= wc < W):
                raise IllegalMoveError(f"M-13: cell {at[0]},{at[1]} holds no card of the scoring row")
            return self._legal_or_raise(g.A_TAKE + wr * W + wc)
        if d["phase"] != PLAY:
            raise IllegalMoveError(_phase_problem(d, t))
        hand = d["hands"][p]
        m = place or exch
        assert m is not None
        wanted = self._cards_named(m.group(1))
        mine = [c for c in hand if c in wanted]
        if not mine:
            raise IllegalMoveError(f"{'M-6' if place else 'M-9'}: seat {p} holds no {m.group(1)}")
        slot = hand.index(mine[0])  # the two 0s of a colour are alike: the first of the name
        if exch:
            return self._legal_or_raise(g.A_EXCH + slot)
        at = (int(m.group(2)), int(m.group(3)))
        wr, wc = at[0] - r0, at[1] - c0
        if not (0 <= wr < W and 0 <= wc < W):
            why = _placement_problem(g, _cells(d["table"]), mine[0], at)
            raise IllegalMoveError(why or f"M-7: cell {at[0]},{at[1]} is off the table")
        return self._legal_or_raise(slot * CELLS + wr * W + wc)

    def _legal_or_raise(self, a: int) -> int:
        if a not in set(int(x) for x in self.legal_actions()):
            raise self._illegal(a)
        return a

    def _cards_named(self, text: str) -> List[int]:
        """The card ids named ``text`` (``blue 30 square``, ``pink 0``, ``pink 0 #37``,
        any case); ValueError when no card of the game has that name."""
        g = self.game
        m = re.fullmatch(r"(.+?) ?#(\d+)", text)
        name = (m.group(1) if m else text).casefold()
        ids = g._by_name.get(name)
        if not ids:
            raise ValueError(
                f"not a card of this game: {shorten(text)} (cards are named like 'blue 30 square' or 'pink 0')"
            )
        if m:
            if int(m.group(2)) not in ids:
                raise ValueError(f"card #{m.group(2)} is not a {name}")
            return [int(m.group(2))]
        return ids


def _describe_in(g: M, d: Dict[str, Any], a: int) -> str:
    """Action ``a`` in the readable notation (:meth:`MState.describe`), from the state dict
    or the view ``d`` of the seat to move (only its own hand is read; ``d`` may be empty
    for a pass or a row choice)."""
    mv = g.action_to_move(a)
    if isinstance(mv, MPass) and mv.exchange is None:
        return "pass"
    if isinstance(mv, MChooseRow):
        return str(mv)
    r0, c0 = g._window(d)
    if isinstance(mv, MTake):
        at = (r0 + mv.row, c0 + mv.col)
        card = _cells(d["table"]).get(at)
        if card is None:
            raise IllegalMoveError(f"M-13: window cell ({mv.row}, {mv.col}) = cell {at[0]},{at[1]} holds no card")
        return f"take {g.card_name(card)} at {at[0]},{at[1]}"
    hand = d["hands"][d["current"]]
    if isinstance(mv, MPlace):
        slot = mv.slot
    else:
        assert isinstance(mv, MPass) and mv.exchange is not None
        slot = mv.exchange
    if slot >= len(hand):
        raise IllegalMoveError(f"M-5: seat {d['current']} holds {len(hand)} cards; there is no hand slot {slot}")
    name = g.card_name(hand[slot])
    if any(g.card_name(c) == name for c in hand[:slot]):  # not the first of its name: say which
        name += f" #{hand[slot]}"
    if isinstance(mv, MPlace):
        return f"place {name} at {r0 + mv.row},{c0 + mv.col}"
    return f"exchange {name}"


class ReferenceMState(MState):
    """An M state (pure-Python reference engine), written straight from the spec."""

    #: the state keys, less ``truncated`` (a property: ``end == "max_turns"``)
    __slots__ = ("_seed0", "game", *(k for k in M.STATE_KEYS if k != "truncated"))

    game: M
    table: Dict[Cell, int]  # absolute cell -> card
    hands: List[List[int]]  # sorted by card id
    pile: List[int]  # bottom first, top last
    pile_putter: List[int]  # per pile card: the seat that put it under (M-9), or -1
    removed: List[int]
    chips: List[int]
    taken: List[List[int]]
    phase: str
    current: int
    placer: int
    last: Optional[Cell]
    scoring_row: Set[Cell]
    passes: int
    end: Optional[str]
    rng: Rng
    history: List[int]
    log: List[List[int]]  # per action: [seat, card, row, col] (see the module docstring)

    @staticmethod
    def new(game: M, seed: int) -> "ReferenceMState":
        s = ReferenceMState._reference(game, seed, [], seed)
        deck = list(range(game.n_cards))
        s.rng.shuffle(deck)  # M-3, M-4: one shuffle decides everything
        s.removed = sorted(deck[game.in_play :])  # M-3: removed unseen
        s.pile = deck[: game.in_play]  # top of the pile = last
        s.pile_putter = [-1] * len(s.pile)
        s.table = {}
        for cell in game.layout:  # M-4: the start cards, need not match
            s.table[cell] = s._pop()
        s.hands = [[] for _ in range(game.num_players)]
        for p in range(game.num_players):  # M-5: seat 0 draws first
            for _ in range(game.hand_size):
                s.hands[p].append(s._pop())
            s.hands[p].sort()
        s.chips = [game.start_chips] * game.num_players  # M-2, M-5
        s.taken = [[] for _ in range(game.num_players)]
        s.phase, s.current, s.placer, s.last = PLAY, 0, -1, None  # M-5: seat 0 starts
        s.scoring_row = set()
        s.passes = 0
        s.end = None
        s.log = []
        s._check_stuck()
        return s

    @staticmethod
    def _from_valid_dict(game: M, d: Dict[str, Any]) -> "ReferenceMState":
        s = ReferenceMState._reference(game, d["rng"], list(d["history"]), None)
        s.table = {(r, c): card for r, c, card in d["table"]}
        s.hands = [list(h) for h in d["hands"]]
        s.pile = list(d["pile"])
        s.pile_putter = list(d["pile_putter"])
        s.removed = list(d["removed"])
        s.chips = list(d["chips"])
        s.taken = [list(t) for t in d["taken"]]
        s.phase = d["phase"]
        s.current = d["current"]
        s.placer = d["placer"]
        s.last = None if d["last"] is None else (d["last"][0], d["last"][1])
        s.scoring_row = {(r, c) for r, c in d["scoring_row"]}
        s.passes = d["passes"]
        s.end = d["end"]
        s.log = [list(e) for e in d["log"]]
        return s

    def _to_dict(self) -> Dict[str, Any]:
        d = self.game._header()
        d.update(
            table=[[r, c, card] for (r, c), card in sorted(self.table.items())],
            hands=[list(h) for h in self.hands],
            pile=list(self.pile),
            pile_putter=list(self.pile_putter),
            removed=list(self.removed),
            chips=list(self.chips),
            taken=[list(t) for t in self.taken],
            phase=self.phase,
            current=self.current,
            placer=self.placer,
            last=None if self.last is None else list(self.last),
            scoring_row=[list(x) for x in sorted(self.scoring_row)],
            passes=self.passes,
            end=self.end,
            truncated=self.end == "max_turns",
            rng=self.rng.state,
            history=list(self.history),
            log=[list(e) for e in self.log],
        )
        return d

    # -- small helpers --------------------------------------------------------------------

    def _pop(self) -> int:
        self.pile_putter.pop()
        return self.pile.pop()

    def _window(self) -> Cell:
        return min(r for r, _ in self.table) - 1, min(c for _, c in self.table) - 1

    def _right(self, p: int, k: int = 1) -> int:
        """The k-th player to the right of p (M-8, M-13): the previous seats."""
        return (p - k) % self.game.num_players

    @property
    def current_player(self) -> int:
        return _api.TERMINAL if self.phase == OVER else self.current

    @property
    def truncated(self) -> bool:
        return self.end == "max_turns"

    def is_terminal(self) -> bool:
        return self.phase == OVER

    # -- rules ------------------------------------------------------------------------------

    def can_place(self, card: int, at: Cell) -> bool:
        return _placement_problem(self.game, self.table, card, at) is None

    def legal_takes(self) -> List[Cell]:
        """Cards of the scoring row that may be taken now (M-13 a, b), any order."""
        return _takeable(set(self.table), self.scoring_row)

    def qualifies(self, at: Cell, dr: int, dc: int) -> bool:
        """M-12: the run through ``at`` along (dr, dc) has 5 or 6 cards and the new card
        shares two attributes with one of its neighbours in that run."""
        return _qualifies(self.game, self.table, at, dr, dc)

    def any_placement(self) -> bool:
        """M-17: can any card still in play (hands, and the pile unless stuck_cards='hands')
        be laid anywhere? The pile counts only while a seat holds a chip: a pile card reaches
        a hand without a placement only by an exchange, which costs a chip (M-9), or under
        chipless_exchange='free' always (a seat without chips exchanges too)."""
        r0, c0 = self._window()
        free = [(r0 + r, c0 + c) for r in range(W) for c in range(W) if (r0 + r, c0 + c) not in self.table]
        reach = self.game.stuck_with_pile and (self.game.free_exchange or any(self.chips))
        for card in [c for h in self.hands for c in h] + (self.pile if reach else []):
            if any(self.can_place(card, x) for x in free):
                return True
        return False

    def legal_actions(self) -> npt.NDArray[np.int64]:
        g = self.game
        acts: List[int] = []
        if self.phase == PLAY:
            p = self.current
            r0, c0 = self._window()
            for slot, card in enumerate(self.hands[p]):  # M-6
                for cell in range(CELLS):
                    if self.can_place(card, (r0 + cell // W, c0 + cell % W)):
                        acts.append(slot * CELLS + cell)
            acts.append(g.A_PASS)  # M-9: passing is always allowed
            if (self.chips[p] > 0 or g.free_exchange) and self.pile:  # M-9: the exchange (chipless_exchange)
                acts += [g.A_EXCH + slot for slot in range(len(self.hands[p]))]
        elif self.phase == CHOOSE:
            acts = [g.A_ROW, g.A_ROW + 1]  # M-12
        elif self.phase == TAKE:
            r0, c0 = self._window()
            acts = sorted(g.A_TAKE + (r - r0) * W + (c - c0) for r, c in self.legal_takes())
        return np.array(acts, dtype=np.int64)

    def apply_action(self, action: SupportsIndex) -> None:
        a = _api.check_action_type(action)
        if self.phase == OVER or not 0 <= a < self.game.num_actions or a not in self.legal_actions():
            raise self._illegal(a)
        g = self.game
        p = self.current
        self.history.append(a)
        if a < g.A_PASS:
            slot, cell = divmod(a, CELLS)
            r0, c0 = self._window()
            at = (r0 + cell // W, c0 + cell % W)
            self.log.append([p, self.hands[p][slot], at[0], at[1]])  # public: the card and its cell
            self._place(p, self.hands[p][slot], at)
        elif a < g.A_ROW:
            self.log.append([p, -1 if a == g.A_PASS else -2, 0, 0])  # -2: a card went under the pile
            self._pass(p, None if a == g.A_PASS else a - g.A_EXCH)
        elif a < g.A_TAKE:
            assert self.last is not None
            self.log.append([p, -1, 0, 0])
            self._start_scoring(self.last, (0, 1) if a == g.A_ROW else (1, 0))
        else:
            r0, c0 = self._window()
            cell = a - g.A_TAKE
            at = (r0 + cell // W, c0 + cell % W)
            self.log.append([p, self.table[at], at[0], at[1]])
            self._take(p, at)
        if self.phase != OVER and len(self.history) >= g.max_turns:
            self._finish("max_turns")

    def _place(self, p: int, card: int, at: Cell) -> None:
        self.hands[p].remove(card)
        self.table[at] = card  # M-6
        self.last = at
        self.placer = p
        self.passes = 0
        self._collect_chips(p, sum(1 for dr, dc in DIRS if (at[0] + dr, at[1] + dc) in self.table) - 1)
        if not self.game.draw_after_scoring:  # M-10 (draw_timing): the draw comes first
            while len(self.hands[p]) < self.game.hand_size and self.pile:
                self.hands[p].append(self._pop())
            self.hands[p].sort()
        # M-12: which lines qualify
        h = self.qualifies(at, 0, 1)
        v = self.qualifies(at, 1, 0)
        if h and v:
            self.phase = CHOOSE  # the placer chooses (a decision of the placer)
            self.current = p
        elif h or v:
            self._start_scoring(at, (0, 1) if h else (1, 0))
        else:
            self._end_turn()

    def _collect_chips(self, p: int, need: int) -> None:
        """M-8: the placer p earns ``need`` chips, from the right neighbour onwards, never from
        p. By default each pays what he has and the next ones the rest; with
        ``short_payer="skipped"`` the first of them who has the whole amount pays it all, and
        only when nobody has it do they pay in part (the placer gets fewer only when the
        others hold fewer)."""
        payers = [self._right(p, k) for k in range(1, self.game.num_players)]
        whole = [q for q in payers if self.chips[q] >= need]
        if self.game.skip_short_payer and whole:
            payers = whole[:1]
        for q in payers:
            pay = min(need, self.chips[q])
            self.chips[q] -= pay
            self.chips[p] += pay
            need -= pay

    def _start_scoring(self, at: Cell, d: Cell) -> None:
        self.scoring_row = set(_run(self.table, at, d[0], d[1]))
        self.phase = TAKE
        self.current = self.placer  # M-13: the placer takes first
        self._continue_scoring()

    def _take(self, p: int, at: Cell) -> None:
        card = self.table.pop(at)
        self.scoring_row.discard(at)
        self.taken[p].append(card)  # M-15
        self.current = self._right(p)  # M-13: then the next player to the right
        self._continue_scoring()

    def _continue_scoring(self) -> None:
        if self.legal_takes():  # M-14: taking is compulsory while possible
            return
        self.scoring_row = set()
        # M-16: the pile was empty when the scoring started (it cannot change during one;
        # with draw_timing='before_scoring' the placer has drawn already): game over
        if not self.pile:
            self._finish("M-16")
        else:
            self._end_turn()

    def _pass(self, p: int, slot: Optional[int]) -> None:
        # M-9: a chip to the right neighbour (pass_cost: for every pass, or for an exchange)
        if self.chips[p] > 0 and (slot is not None or self.game.pass_always_pays):
            self.chips[p] -= 1
            self.chips[self._right(p)] += 1
        if slot is not None:  # M-9: one hand card under the pile, draw the top card (legal_actions:
            card = self.hands[p].pop(slot)  # with a chip, or without one under chipless_exchange='free')
            self.pile.insert(0, card)
            self.pile_putter.insert(0, p)
            self.hands[p].append(self._pop())
            self.hands[p].sort()
        self.passes = self.passes + 1 if not self.pile else 0
        self.placer = -1
        self.current = (p + 1) % self.game.num_players  # the left neighbour plays next
        if self.passes >= self.game.num_players:  # M-18
            self._finish("M-18")
            return
        self._check_stuck()

    def _end_turn(self) -> None:
        p = self.placer
        while len(self.hands[p]) < self.game.hand_size and self.pile:  # M-10
            self.hands[p].append(self._pop())
        self.hands[p].sort()
        self.phase = PLAY
        self.current = (p + 1) % self.game.num_players  # M-11
        self.placer = -1
        self._check_stuck()

    def _check_stuck(self) -> None:
        if not self.any_placement():  # M-17
            self._finish("M-17")

    def _finish(self, reason: str) -> None:
        self.phase, self.end, self.current, self.placer = OVER, reason, _api.TERMINAL, -1
        self.scoring_row = set()

    # -- results ----------------------------------------------------------------------------

    def scores(self) -> List[int]:
        """M-20 (defined at any time; hand cards never count, M-19)."""
        totals = _colour_totals(self.game, self.taken)
        return [final_score(self.chips[p], totals[p]) for p in range(self.game.num_players)]

    def winners(self) -> List[int]:
        """M-21: the highest score wins; ties are shared."""
        if self.phase != OVER:
            return []
        s = self.scores()
        return [p for p in range(self.game.num_players) if s[p] == max(s)]


# ---- the compiled engine (cengine/mousehole/_m.pyx) ----------------------------------------

_CompiledState: Any = _api.compiled_state_class("_m", "MGameCore", MState, "An M")
M._bind_states(ReferenceMState, _CompiledState)
