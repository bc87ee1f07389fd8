"""M (Martin Schlegel, Abacus Spiele 2000), rules M-1 .. M-22.

Rules: ``shared/rules/m.md`` (summary in ``docs/games/m.md``). 2-6 players lay cards that
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
"""
from __future__ import annotations

import dataclasses
import re
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

import numpy as np
import numpy.typing as npt

from ._api import (
    _PURE,
    TERMINAL,
    Game,
    IllegalMoveError,
    Move,
    ParameterError,
    StateAPI,
    check_action_type,
    expect,
    int_list,
    int_param,
    register,
)
from ._rng import Rng

__all__ = ["M", "MMove", "ReferenceMState", "MPlace", "MPass", "MChooseRow", "MTake", "MState", "DEFAULT", "parse_move"]

# ---- constants and the DEFAULT data table ------------------------------------------------

W = 8  #: window side (M-7: a 6 x 6 square plus one free cell on each side)
CELLS = W * W
SQUARE = 6  #: M-7
MAX_CARDS = 128
MAX_COLOURS = 8
MAX_SYMBOLS = 8
MAX_VALUES = 8
MAX_HAND = 8

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
END_REASONS = ("M-16", "M-17", "M-18", "max_turns")


# ---- moves -------------------------------------------------------------------------------


class MMove(Move):
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


def parse_move(text: str) -> Move:
    """Read a move from its ``str``.

    >>> parse_move("place 1@2,3"), parse_move("pass exchange 0"), parse_move("take 3,4")
    (MPlace(slot=1, row=2, col=3), MPass(exchange=0), MTake(row=3, col=4))
    """
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
    raise ValueError(f"not an M move: {text!r} (e.g. 'place 1@2,3', 'pass', 'pass exchange 0', "
                     "'row vertical', 'take 3,4')")


# ---- the game ----------------------------------------------------------------------------


def _names(x: Any, what: str, most: int) -> List[str]:
    if not isinstance(x, (list, tuple)) or not 1 <= len(x) <= most or any(
        not isinstance(v, str) or not v for v in x
    ) or len(set(x)) != len(x):
        raise ParameterError(f"m: {what} must be a list of 1..{most} distinct non-empty strings, got {x!r}")
    return list(x)


def _int(x: Any, what: str, lo: int, hi: int) -> int:
    return int_param("m", x, what, lo, hi)


@register
class M(Game["MState", MMove]):
    """M. Parameters: ``players`` (2-6), ``max_turns`` (actions, default 2000) and the
    DEFAULT tables ``colours``, ``symbols``, ``cards``, ``start_layout``, ``hand_size``,
    ``chips`` and ``cards_in_play`` (an int, by DEFAULT 30 + 10 n: 50 .. 90).

    >>> g = M(players=4, engine="python")
    >>> g.num_actions, g.observation_shape
    (327, (112, 8, 8))
    """

    name = "m"
    title = "M"
    min_players = 2
    max_players = 6
    STATE_KEYS = ('table', 'hands', 'pile', 'pile_putter', 'removed', 'chips', 'taken', 'phase', 'current', 'placer', 'last', 'scoring_row', 'passes', 'end', 'truncated', 'rng', 'history')
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
    }

    # derived constants, set by _configure
    H: int
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

    def _configure(self, params: Dict[str, Any]) -> Dict[str, Any]:
        n = self.num_players

        def pick(k: str) -> Any:
            return DEFAULT[k] if params[k] is None else params[k]

        colours = _names(pick("colours"), "colours", MAX_COLOURS)
        symbols = _names(pick("symbols"), "symbols", MAX_SYMBOLS)
        cards = pick("cards")
        if not isinstance(cards, (list, tuple)) or not 1 <= len(cards) <= MAX_CARDS:
            raise ParameterError(f"m: cards must be a list of 1..{MAX_CARDS} [colour, value, symbol] entries (M-1)")
        norm_cards: List[List[Any]] = []
        for i, c in enumerate(cards):
            if not isinstance(c, (list, tuple)) or len(c) != 3:
                raise ParameterError(f"m: cards[{i}] must be [colour, value, symbol], got {c!r} (M-1)")
            col, val, sym = c
            if col not in colours:
                raise ParameterError(f"m: cards[{i}] has colour {col!r}, not one of {colours} (M-1)")
            _int(val, f"cards[{i}] value", 0, 10**6)
            if sym is not None and sym not in symbols:
                raise ParameterError(f"m: cards[{i}] has symbol {sym!r}, not None or one of {symbols} (M-1)")
            if val == 0 and sym is not None:
                raise ParameterError(f"m: cards[{i}]: value-0 cards have no symbol (M-1)")
            norm_cards.append([col, val, sym])
        values = sorted({c[1] for c in norm_cards})
        if len(values) > MAX_VALUES:
            raise ParameterError(f"m: at most {MAX_VALUES} distinct card values, got {values}")
        layout = pick("start_layout")
        if not isinstance(layout, (list, tuple)) or not layout:
            raise ParameterError("m: start_layout must be a non-empty list of [row, col] cells (M-4)")
        cells: List[Tuple[int, int]] = []
        for x in layout:
            if not isinstance(x, (list, tuple)) or len(x) != 2:
                raise ParameterError(f"m: start_layout cell {x!r} must be [row, col] (M-4)")
            cells.append((_int(x[0], "start_layout row", -1000, 1000), _int(x[1], "start_layout col", -1000, 1000)))
        if len(set(cells)) != len(cells):
            raise ParameterError("m: start_layout cells must be distinct (M-4)")
        if not _fits_square(cells):
            raise ParameterError("m: start_layout must fit in a 6 x 6 square (M-4, M-7)")
        if not _connected(set(cells)):
            raise ParameterError("m: start_layout must be orthogonally connected (M-4, M-13)")
        hand = _int(pick("hand_size"), "hand_size", 1, MAX_HAND)
        chips = _int(pick("chips"), "chips", 0, 100)
        cip = params["cards_in_play"]
        in_play = _int(DEFAULT["cards_in_play"][n] if cip is None else cip, "cards_in_play", 1, len(norm_cards))
        if in_play < len(cells) + hand * n:
            raise ParameterError(
                f"m: {in_play} cards in play cannot lay the start ({len(cells)}) and deal {hand} to {n} players (M-3..M-5)"
            )
        self.H = hand
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
            "players": n,
            "max_turns": self.max_turns,
            "colours": colours,
            "symbols": symbols,
            "cards": norm_cards,
            "start_layout": [list(c) for c in cells],
            "hand_size": hand,
            "chips": chips,
            "cards_in_play": in_play,
        }

    @classmethod
    def python_state(cls) -> Any:
        return ReferenceMState

    @classmethod
    def compiled_state(cls) -> Any:
        return _CompiledState

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

    def action_to_move(self, action: int) -> Move:
        a = check_action_type(action)
        if not 0 <= a < self.num_actions:
            raise IllegalMoveError(f"action {a} is out of range 0..{self.num_actions - 1}")
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

    def move_to_action(self, move: Move) -> int:
        def cell(r: int, c: int) -> int:
            if not (isinstance(r, int) and isinstance(c, int) and 0 <= r < W and 0 <= c < W):
                raise IllegalMoveError(f"M-7: window cell ({r}, {c}) is off the {W} x {W} window")
            return r * W + c

        def slot(s: int) -> int:
            if not (isinstance(s, int) and not isinstance(s, bool) and 0 <= s < self.H):
                raise IllegalMoveError(f"M-5: hand slot {s!r} is not in 0..{self.H - 1}")
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

    def _validate_dict(self, d: Dict[str, Any]) -> None:
        n, N = self.num_players, self.n_cards
        table = d["table"]
        expect(isinstance(table, list) and len(table) >= 1, "table must be a non-empty list of [row, col, card]")
        cells: Dict[Tuple[int, int], int] = {}
        for e in table:
            expect(isinstance(e, list) and len(e) == 3, f"table entry {e!r} must be [row, col, card]")
            int_list(e[:2], 2, "table cell", -(2**62), 2**62)
            int_list(e[2:], 1, "table card", 0, N - 1)
            expect((e[0], e[1]) not in cells, f"table cell ({e[0]}, {e[1]}) appears twice")
            cells[(e[0], e[1])] = e[2]
        expect(table == sorted(table), "table entries must be sorted by (row, col)")
        expect(_fits_square(list(cells)), "M-7: the cards on the table do not fit in a 6 x 6 square")
        expect(_connected(set(cells)), "M-13: the cards on the table are not connected")
        hands = d["hands"]
        expect(isinstance(hands, list) and len(hands) == n, f"hands must be a list of {n} hands")
        for p, h in enumerate(hands):
            int_list(h, None, f"hands[{p}]", 0, N - 1)
            expect(len(h) <= self.H, f"M-5: hands[{p}] holds more than {self.H} cards")
            expect(h == sorted(h), f"hands[{p}] must be sorted")
        pile = int_list(d["pile"], None, "pile", 0, N - 1)
        putter = int_list(d["pile_putter"], len(pile), "pile_putter", -1, n - 1)
        removed = int_list(d["removed"], None, "removed (M-3)", 0, N - 1)
        # (crafted positions may hold any number of cards out of play; new_state removes
        # exactly len(cards) - cards_in_play, M-3)
        expect(removed == sorted(removed), "removed must be sorted")
        chips = int_list(d["chips"], n, "chips", 0)
        expect(sum(chips) == n * self.start_chips, f"M-2: {sum(chips)} chips in play, expected {n * self.start_chips}")
        taken = d["taken"]
        expect(isinstance(taken, list) and len(taken) == n, f"taken must be a list of {n} lists")
        for p, t in enumerate(taken):
            int_list(t, None, f"taken[{p}]", 0, N - 1)
        every = list(cells.values()) + [c for h in hands for c in h] + pile + removed + [c for t in taken for c in t]
        expect(sorted(every) == list(range(N)), "M-1/M-3: every card must be exactly once on the table, in a hand, "
               "in the pile, removed or taken")
        phase = d["phase"]
        expect(phase in (PLAY, CHOOSE, TAKE, OVER), f"phase must be one of play, choose, take, over; got {phase!r}")
        cur = d["current"]
        if phase == OVER:
            expect(cur == TERMINAL, "current must be TERMINAL (-4) when the game is over")
        else:
            expect(isinstance(cur, int) and not isinstance(cur, bool) and 0 <= cur < n, f"current must be a seat 0..{n - 1}")
        placer = d["placer"]
        expect(isinstance(placer, int) and not isinstance(placer, bool) and -1 <= placer < n, "placer must be -1 or a seat")
        last = d["last"]
        expect(last is None or (isinstance(last, list) and len(last) == 2), "last must be None or [row, col]")
        if last is not None:
            int_list(last, 2, "last", -(2**62), 2**62)
        row = d["scoring_row"]
        expect(isinstance(row, list), "scoring_row must be a list of [row, col]")
        for rc in row:
            expect(isinstance(rc, list) and len(rc) == 2 and (rc[0], rc[1]) in cells,
                   f"M-13: scoring row cell {rc!r} holds no card")
        expect(row == sorted(row), "scoring_row must be sorted")
        if phase == TAKE:
            expect(len(row) >= 1 and 0 <= placer, "M-13: a scoring needs its row and placer")
        elif phase == CHOOSE:
            expect(last is not None and tuple(last) in cells and placer == cur and not row,
                   "M-12: a row choice needs the placed card and the placer to move")
        else:
            expect(not row, "scoring_row must be empty outside a scoring")
        int_list([d["passes"]], 1, "passes", 0, n)
        end = d["end"]
        expect(end is None or end in END_REASONS, f"end must be None or one of {END_REASONS}")
        expect((end is None) == (phase != OVER), "end and phase disagree")
        expect(isinstance(d["truncated"], bool) and d["truncated"] == (end == "max_turns"), "truncated flag is inconsistent")
        expect(isinstance(d["rng"], int) and not isinstance(d["rng"], bool) and 0 <= d["rng"] < 2**64,
               "rng must be a 64-bit unsigned int")
        hist = int_list(d["history"], None, "history", 0, self.num_actions - 1)
        expect(len(hist) <= self.max_turns, "history is longer than max_turns")
        if end is None:
            expect(len(hist) < self.max_turns, "the game should have been truncated (max_turns)")

    def _redact(self, d: Dict[str, Any], p: int) -> Dict[str, Any]:
        # M-22: other hands, the pile (except the cards p put under it) and the removed cards
        # are hidden; the rng would predict nothing now, but is hidden on principle.
        d["hands"] = [h if q == p else [None] * len(h) for q, h in enumerate(d["hands"])]
        d["pile"] = [c if w == p else None for c, w in zip(d["pile"], d["pile_putter"])]
        d["removed"] = [None] * len(d["removed"])
        d["rng"] = None
        return d

    def _resample(self, d: Dict[str, Any], p: int, rng: Rng) -> None:
        # M-22: re-deal every card p cannot see: other hands, the pile cards p did not put
        # there, and the removed cards; sizes and p's own pile cards stay where they are.
        pool: List[int] = []
        for q, h in enumerate(d["hands"]):
            if q != p:
                pool += h
        pool += [c for c, w in zip(d["pile"], d["pile_putter"]) if w != p]
        pool += d["removed"]
        rng.shuffle(pool)
        for q in range(self.num_players):
            if q != p:
                k = len(d["hands"][q])
                d["hands"][q] = sorted(pool[:k])
                del pool[:k]
        for i, w in enumerate(d["pile_putter"]):
            if w != p:
                d["pile"][i] = pool.pop(0)
        d["removed"] = sorted(pool)
        d["rng"] = rng.next64()

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
        ch += self.H * self.card_planes
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
        width = max(len(self._short(c)) for c in cells.values()) + 1
        lines = [f"window origin (row, col) = ({r0}, {c0}); cards: colour initial, value, symbol initial"]
        lines.append("    " + "".join(f"{c:>{width}}" for c in range(W)))
        for r in range(W):
            row = []
            for c in range(W):
                card = cells.get((r0 + r, c0 + c))
                txt = "." if card is None else self._short(card) + ("*" if (r0 + r, c0 + c) in srow else "")
                row.append(f"{txt:>{width}}")
            lines.append(f"{r:>4}" + "".join(row))
        cur = d["current"]
        who = f"game over ({d['end']})" if d["phase"] == OVER else f"seat {cur} to {d['phase']}"
        lines.append(f"action {len(d['history'])}, {who}; draw pile: {len(d['pile'])} cards")
        totals = _colour_totals(self, d["taken"])
        for p in range(self.num_players):
            hand = ", ".join("?" if c is None else self.card_name(c) for c in d["hands"][p])
            piles = ", ".join(f"{self.colours[k]} {v}" for k, v in enumerate(totals[p]) if v)
            lines.append(f"seat {p}: {d['chips'][p]} chips; hand [{hand}]; taken: {piles or '-'}")
        return "\n".join(lines)

    def _short(self, card: int) -> str:
        col, val, sym = self.cards[card]
        return f"{col[0]}{val}{'' if sym is None else sym[0]}"

    def _explain_illegal(self, state: StateAPI, action: Any) -> str:
        a = check_action_type(action)
        d = state._to_dict()
        if d["phase"] == OVER:
            return f"the game is over ({d['end']}); action {a} cannot be applied"
        if not 0 <= a < self.num_actions:
            return f"action {a} is out of range 0..{self.num_actions - 1}"
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
            if d["chips"][p] == 0:
                return f"M-9: seat {p} has no chip, so may pass but not exchange"
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
            return (f"M-6: card {game.card_name(card)} does not match its neighbour "
                    f"{game.card_name(cells[x])} at {x}")
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


class MState(StateAPI[MMove]):
    """The public type of a M state, on either engine: what ``M.new_state()``
    returns and what annotations should name. The reference engine
    (``ReferenceMState``) and the compiled one both derive from it."""

    __slots__ = ()

    game: M


class ReferenceMState(MState):
    """An M state (pure-Python reference engine), written straight from the spec."""

    __slots__ = ("game", "table", "hands", "pile", "pile_putter", "removed", "chips", "taken", "phase",
                 "current", "placer", "last", "scoring_row", "passes", "end", "rng", "history")

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

    @staticmethod
    def new(game: M, seed: int) -> "ReferenceMState":
        s = ReferenceMState.__new__(ReferenceMState)
        s.game = game
        s.rng = Rng(seed)
        deck = list(range(game.n_cards))
        s.rng.shuffle(deck)  # M-3, M-4: one shuffle decides everything
        s.removed = sorted(deck[game.in_play:])  # M-3: removed unseen
        s.pile = deck[: game.in_play]  # top of the pile = last
        s.pile_putter = [-1] * len(s.pile)
        s.table = {}
        for cell in game.layout:  # M-4: the start cards, need not match
            s.table[cell] = s._pop()
        s.hands = [[] for _ in range(game.num_players)]
        for p in range(game.num_players):  # M-5: seat 0 draws first
            for _ in range(game.H):
                s.hands[p].append(s._pop())
            s.hands[p].sort()
        s.chips = [game.start_chips] * game.num_players  # M-2, M-5
        s.taken = [[] for _ in range(game.num_players)]
        s.phase, s.current, s.placer, s.last = PLAY, 0, -1, None  # M-5: seat 0 starts
        s.scoring_row = set()
        s.passes = 0
        s.end = None
        s.history = []
        s._check_stuck()
        return s

    @staticmethod
    def from_dict(game: M, d: Dict[str, Any]) -> "ReferenceMState":
        s = ReferenceMState.__new__(ReferenceMState)
        s.game = game
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
        s.rng = Rng(d["rng"])
        s.history = list(d["history"])
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
        return TERMINAL if self.phase == OVER else self.current

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
        if len(self.scoring_row) < 2:  # M-13(a): one card of the row must stay
            return []
        rest = set(self.table)
        out = []
        for x in self.scoring_row:
            rest.discard(x)
            if _connected(rest):  # M-13(b)
                out.append(x)
            rest.add(x)
        return out

    def qualifies(self, at: Cell, dr: int, dc: int) -> bool:
        """M-12: the run through ``at`` along (dr, dc) has 5 or 6 cards and the new card
        shares two attributes with one of its neighbours in that run."""
        run = _run(self.table, at, dr, dc)
        if len(run) not in (5, 6):
            return False
        card = self.table[at]
        for x in ((at[0] - dr, at[1] - dc), (at[0] + dr, at[1] + dc)):
            if x in self.table and self.game.matches(card, self.table[x]) >= 2:
                return True
        return False

    def any_placement(self) -> bool:
        """M-17: can any card still in play (hands, pile) be laid anywhere?"""
        r0, c0 = self._window()
        free = [(r0 + r, c0 + c) for r in range(W) for c in range(W) if (r0 + r, c0 + c) not in self.table]
        for card in [c for h in self.hands for c in h] + self.pile:
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
            if self.chips[p] > 0 and self.pile:  # M-9: the exchange
                acts += [g.A_EXCH + slot for slot in range(len(self.hands[p]))]
        elif self.phase == CHOOSE:
            acts = [g.A_ROW, g.A_ROW + 1]  # M-12
        elif self.phase == TAKE:
            r0, c0 = self._window()
            acts = sorted(g.A_TAKE + (r - r0) * W + (c - c0) for r, c in self.legal_takes())
        return np.array(acts, dtype=np.int64)

    def apply_action(self, action: int) -> None:
        a = check_action_type(action)
        if self.phase == OVER or not 0 <= a < self.game.num_actions or a not in self.legal_actions():
            raise self._illegal(a)
        g = self.game
        p = self.current
        self.history.append(a)
        if a < g.A_PASS:
            slot, cell = divmod(a, CELLS)
            r0, c0 = self._window()
            self._place(p, self.hands[p][slot], (r0 + cell // W, c0 + cell % W))
        elif a < g.A_ROW:
            self._pass(p, None if a == g.A_PASS else a - g.A_EXCH)
        elif a < g.A_TAKE:
            assert self.last is not None
            self._start_scoring(self.last, (0, 1) if a == g.A_ROW else (1, 0))
        else:
            r0, c0 = self._window()
            cell = a - g.A_TAKE
            self._take(p, (r0 + cell // W, c0 + cell % W))
        if self.phase != OVER and len(self.history) >= g.max_turns:
            self._finish("max_turns")

    def _place(self, p: int, card: int, at: Cell) -> None:
        self.hands[p].remove(card)
        self.table[at] = card  # M-6
        self.last = at
        self.placer = p
        self.passes = 0
        # M-8: k - 1 chips, from the right neighbour onwards, never from the placer
        need = sum(1 for dr, dc in DIRS if (at[0] + dr, at[1] + dc) in self.table) - 1
        for k in range(1, self.game.num_players):
            if need == 0:
                break
            q = self._right(p, k)
            pay = min(need, self.chips[q])
            self.chips[q] -= pay
            self.chips[p] += pay
            need -= pay
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
        if not self.pile:  # M-16: the pile was empty when the scoring started: game over
            self._finish("M-16")
        else:
            self._end_turn()

    def _pass(self, p: int, slot: Optional[int]) -> None:
        if self.chips[p] > 0:  # M-9: a chip to the right neighbour
            self.chips[p] -= 1
            self.chips[self._right(p)] += 1
            if slot is not None:  # M-9: one hand card under the pile, draw the top card
                card = self.hands[p].pop(slot)
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
        while len(self.hands[p]) < self.game.H and self.pile:  # M-10
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
        self.phase, self.end, self.current, self.placer = OVER, reason, TERMINAL, -1
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

_CompiledState: Any = None
if not _PURE:
    try:
        from ._m import MCore
    except ImportError:  # pragma: no cover - a build without extensions
        pass
    else:

        class CompiledMState(MCore, MState):
            """An M state on the compiled engine (same API as the reference)."""

            __slots__ = ()

        _CompiledState = CompiledMState
