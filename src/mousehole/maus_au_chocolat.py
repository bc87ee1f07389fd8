"""Maus au Chocolat (Christian Fiore & Knut Happel, Kosmos 2009), rules MC-1 .. MC-30.

Rules: ``shared/rules/maus_au_chocolat.md`` (summary in ``docs/games/maus_au_chocolat.md``).
2-6 players bid ingredient cards at the same time to choose new cards first, then lay a run
or a set of candy values for victory points, each helped by one animal helper per round.

Implemented: MC-1 .. MC-4 (cards, helpers, setup), MC-5 .. MC-15 (a round: refill, the pile
running out, the bid, the order, the picks, combinations and their scoring, victory points,
the hand limit, passing the helpers), MC-16 .. MC-23 (the seven helpers), MC-24, MC-25 (end
and tie-break), MC-26 (what each seat sees), MC-27 (simultaneous bids, sequential or
joint), MC-28 (card conservation, checked by ``_validate_dict``), MC-29 (the combination
search, compiled) and MC-30 (German text followed).

Engine model
------------
* **Cards** are ids ``0..79``: ``id = 16 * ingredient + k`` where ``k`` is the rank of the
  card among its ingredient's 16 cards sorted by candy value (MC-1). Ingredients (colours):
  ``0 eggs, 1 fruit, 2 nuts, 3 chocolate, 4 sugar``. The ``cards`` parameter (the DEFAULT
  table) gives each id its ``[ingredient, candy, coin]``.
* **Helpers** are ids ``0..6``: ``0 Etienne (rank 7), 1 Henri (6), 2 Mathieu (5),
  3 Maurice (4), 4 Lilly (3), 5 Amélie (2), 6 Claude (1)``; ``rank = 7 - id`` (MC-2).
* **Hands** are kept sorted by card id; a hand *slot* is a position in that sorted hand.
* **Phases**: ``bid`` (seats commit one at a time, lowest uncommitted seat first),
  ``pick`` (seats in bid order, one action per card taken), ``combine`` (seats in
  helper-rank order), ``discard`` (the hand limit of the seat that just combined), ``over``.
* **Actions** (``num_actions = 321 + 1764 = 2085``)::

      0 +   c   bid card c                       (MC-7)
     80 +   c   pick card c from the display     (MC-9)
    160 +   c   discard card c (hand limit)      (MC-14)
    240 +   c   Etienne: swap hand card c        (MC-16)
    320         decline the combination step     (MC-10)
    321 +   i   lay combination pattern i        (MC-10 .. MC-23)

  Pattern ``i`` of :data:`PATTERNS` is ``(slots, keep)``: the hand slots laid (3 or 4 of
  slots 0..8) and the slots kept as victory points (the rest is discarded). Patterns are
  listed by the bit mask of ``slots`` ascending, then by the mask of ``keep`` relative to
  ``slots`` ascending. Several ways to form the same cards with the same result (for
  example two different uses of a helper) are one action.
* **Rounds** count for ``max_turns``: a game that has completed ``max_turns`` rounds
  without anyone reaching the target is truncated (``truncated`` is True).

Choices where the text is silent are listed in ``docs/games/maus_au_chocolat.md``.
"""
from __future__ import annotations

import dataclasses
import itertools
import re
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple, Union

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
    register,
)
from ._rng import Rng

__all__ = [
    "MausAuChocolat",
    "MausAuChocolatState",
    "ReferenceMausAuChocolatState",
    "MCMove",
    "Bid",
    "Pick",
    "Discard",
    "Swap",
    "Decline",
    "Combine",
    "DEFAULT",
    "PATTERNS",
    "INGREDIENTS",
    "HELPERS",
    "combination_actions",
    "default_cards",
]

# ---- constants and the DEFAULT data table ------------------------------------------------

NUM_CARDS = 80
INGREDIENTS = ("eggs", "fruit", "nuts", "chocolate", "sugar")  # MC-1 (colours)
NUM_COLOURS = 5
HELPERS = ("Etienne", "Henri", "Mathieu", "Maurice", "Lilly", "Amélie", "Claude")  # MC-2
ETIENNE, HENRI, MATHIEU, MAURICE, LILLY, AMELIE, CLAUDE = range(7)
NUM_HELPERS = 7
HAND_LIMIT = 8  # MC-14
MAX_SLOTS = 9  # the largest hand at a combination step: 8 - 1 (bid) + 2 (picks)

BID, PICK, DISCARD, SWAP = 0, 80, 160, 240
DECLINE = 320
COMBINE = 321
PHASES = ("bid", "pick", "combine", "discard", "over")

#: Physical data (MC-1, MC-3, MC-24); every entry is a game parameter.
DEFAULT: Dict[str, Any] = {
    "coin_ranges": [[1, 6], [2, 7], [3, 8], [3, 8], [1, 4]],  # MC-1, per ingredient
    "candy_values": [3, 3, 3, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 7, 7, 7],  # MC-1, per ingredient
    "hand_size": 5,  # MC-3
    "target": 30,  # MC-24
}


def default_cards() -> List[List[int]]:
    """The 80 cards of MC-1 as ``[ingredient, candy, coin]`` by card id (the DEFAULT table)."""
    out = []
    for ing, (lo, hi) in enumerate(DEFAULT["coin_ranges"]):
        for k, candy in enumerate(DEFAULT["candy_values"]):
            out.append([ing, candy, lo + k % (hi - lo + 1)])
    return out


def _make_patterns() -> List[Tuple[Tuple[int, ...], Tuple[int, ...]]]:
    pats = []
    for cmask in range(1 << MAX_SLOTS):
        slots = tuple(i for i in range(MAX_SLOTS) if cmask >> i & 1)
        k = len(slots)
        if k not in (3, 4):
            continue
        sizes = (1, 2) if k == 3 else (2, 3)  # MC-12 (three cards), MC-21 (four)
        for krel in range(1, 1 << k):
            if bin(krel).count("1") in sizes:
                pats.append((slots, tuple(slots[j] for j in range(k) if krel >> j & 1)))
    return pats


#: The combination patterns ``(slots, keep)``; action ``321 + i`` lays pattern ``i``.
PATTERNS: List[Tuple[Tuple[int, ...], Tuple[int, ...]]] = _make_patterns()
PATTERN_INDEX: Dict[Tuple[Tuple[int, ...], Tuple[int, ...]], int] = {p: i for i, p in enumerate(PATTERNS)}
NUM_ACTIONS = COMBINE + len(PATTERNS)
_FIRST_OF_SHAPE: Dict[Tuple[int, int], int] = {}
for _i, (_slots, _keep) in enumerate(PATTERNS):
    _FIRST_OF_SHAPE.setdefault((len(_slots), len(_keep)), COMBINE + _i)
#: action -> the first combination action of the same shape (used by determinize)
_CANONICAL: Dict[int, int] = {
    COMBINE + i: _FIRST_OF_SHAPE[(len(sl), len(kp))] for i, (sl, kp) in enumerate(PATTERNS)
}

_DEFAULT_CARDS = default_cards()


def card_name(c: int, cards: Optional[List[List[int]]] = None) -> str:
    """``"fruit5/3c"``: ingredient, candy value, coin value (DEFAULT table unless given)."""
    ing, candy, coin = (cards or _DEFAULT_CARDS)[c]
    return f"{INGREDIENTS[ing]}{candy}/{coin}c"


# ---- moves -------------------------------------------------------------------------------


def _card_arg(text: str) -> int:
    return int(text)


class MCMove(Move):
    """Base class of Maus au Chocolat's moves: :class:`Bid`, :class:`Pick`,
    :class:`Discard`, :class:`Swap`, :class:`Decline`, :class:`Combine`."""

    __slots__ = ()


@dataclasses.dataclass(frozen=True)
class Bid(MCMove):
    """Bid hand card ``card`` (MC-7).

    >>> str(Bid(17))
    'bid 17 (fruit3/3c)'
    >>> Bid.from_str('bid 17')
    Bid(card=17)
    """

    card: int

    def __str__(self) -> str:
        return f"bid {self.card} ({card_name(self.card)})"

    @classmethod
    def from_str(cls, text: str) -> "Bid":
        return _parse(text, cls)  # type: ignore[return-value]


@dataclasses.dataclass(frozen=True)
class Pick(MCMove):
    """Take card ``card`` from the display (MC-9)."""

    card: int

    def __str__(self) -> str:
        return f"pick {self.card} ({card_name(self.card)})"

    @classmethod
    def from_str(cls, text: str) -> "Pick":
        return _parse(text, cls)  # type: ignore[return-value]


@dataclasses.dataclass(frozen=True)
class Discard(MCMove):
    """Discard hand card ``card`` to meet the hand limit (MC-14)."""

    card: int

    def __str__(self) -> str:
        return f"discard {self.card} ({card_name(self.card)})"

    @classmethod
    def from_str(cls, text: str) -> "Discard":
        return _parse(text, cls)  # type: ignore[return-value]


@dataclasses.dataclass(frozen=True)
class Swap(MCMove):
    """Etienne (MC-16): discard hand card ``card`` face up and draw the top of the pile."""

    card: int

    def __str__(self) -> str:
        return f"swap {self.card} ({card_name(self.card)})"

    @classmethod
    def from_str(cls, text: str) -> "Swap":
        return _parse(text, cls)  # type: ignore[return-value]


@dataclasses.dataclass(frozen=True)
class Decline(MCMove):
    """Lay no combination this round (MC-10)."""

    def __str__(self) -> str:
        return "decline"

    @classmethod
    def from_str(cls, text: str) -> "Decline":
        return _parse(text, cls)  # type: ignore[return-value]


@dataclasses.dataclass(frozen=True)
class Combine(MCMove):
    """Lay the cards in hand ``slots`` (positions in the hand sorted by card id) and keep
    the cards in slots ``keep`` as victory points (MC-10 .. MC-23).

    >>> str(Combine((0, 2, 5), (5,)))
    'combine 0,2,5 keep 5'
    >>> Combine.from_str('combine 0,2,5 keep 5')
    Combine(slots=(0, 2, 5), keep=(5,))
    """

    slots: Tuple[int, ...]
    keep: Tuple[int, ...]

    def __str__(self) -> str:
        return f"combine {','.join(map(str, self.slots))} keep {','.join(map(str, self.keep))}"

    @classmethod
    def from_str(cls, text: str) -> "Combine":
        return _parse(text, cls)  # type: ignore[return-value]


MCMove = Union[Bid, Pick, Discard, Swap, Decline, Combine]
_CARD_MOVES = {"bid": Bid, "pick": Pick, "discard": Discard, "swap": Swap}


def _parse(text: str, want: Optional[type] = None) -> Move:
    t = text.strip()
    m = re.fullmatch(r"(bid|pick|discard|swap)\s+(\d+)(\s*\(.*\))?", t)
    mv: Move
    if m:
        mv = _CARD_MOVES[m.group(1)](int(m.group(2)))
    elif t == "decline":
        mv = Decline()
    else:
        m = re.fullmatch(r"combine\s+([\d,\s]+?)\s+keep\s+([\d,\s]+)", t)
        if not m:
            raise ValueError(
                f"not a Maus au Chocolat move: {text!r} "
                "(expected e.g. 'bid 17', 'pick 3', 'discard 40', 'swap 9', 'decline', 'combine 0,2,5 keep 5')"
            )
        slots = tuple(int(x) for x in m.group(1).replace(" ", "").split(",") if x)
        keep = tuple(int(x) for x in m.group(2).replace(" ", "").split(",") if x)
        mv = Combine(slots, keep)
    if want is not None and not isinstance(mv, want):
        raise ValueError(f"{text!r} is a {type(mv).__name__}, not a {want.__name__}")
    return mv


def parse_move(text: str) -> Move:
    """Parse any move's ``str`` form."""
    return _parse(text)


# ---- the combination search (engine-neutral reference) ---------------------------------------


def _kept(mv: Sequence[int], pv: Sequence[int], one_colour: bool, k: int, lilly: bool) -> Optional[Tuple[int, ...]]:
    """Relative indices kept for a combination with modified values ``mv`` and printed
    values ``pv`` (cards in slot order), or None when it is neither a run nor a set."""
    if len(set(mv)) == 1:  # a set (MC-10)
        m = (2 if one_colour else 1) + (1 if k == 4 else 0)  # MC-12, MC-21
        # MC-23: among equal modified values keep the highest printed (then the lowest slot)
        order = sorted(range(k), key=lambda r: (-pv[r], r))
        return tuple(sorted(order[:m]))
    s = sorted(mv)
    if all(s[i + 1] == s[i] + 1 for i in range(k - 1)):  # a run (MC-10)
        lo = min(range(k), key=lambda r: mv[r])
        hi = max(range(k), key=lambda r: mv[r])
        first = hi if (one_colour or lilly) else lo  # MC-12, MC-20
        kept = [first]
        if k == 4:  # MC-21: the extra card is the lowest one still available
            kept.append(min((r for r in range(k) if r != first), key=lambda r: mv[r]))
        return tuple(sorted(kept))
    return None


def combination_outcomes(cards: Sequence[int], table: List[List[int]], helper: int) -> Set[Tuple[int, ...]]:
    """Every kept set (relative indices) reachable by laying ``cards`` with ``helper``."""
    k = len(cards)
    pv = [table[c][1] for c in cards]
    col = [table[c][0] for c in cards]
    value_variants = [list(pv)]
    if helper in (MATHIEU, MAURICE):  # MC-18, MC-19: one card counts 1 lower / higher
        d = -1 if helper == MATHIEU else 1
        for j in range(k):
            v = list(pv)
            v[j] += d
            value_variants.append(v)
    colour_variants = [col]
    if helper == CLAUDE:  # MC-22: one card counts as another colour
        for j in range(k):
            for x in range(NUM_COLOURS):
                if x != col[j]:
                    c2 = list(col)
                    c2[j] = x
                    colour_variants.append(c2)
    out = set()
    for mv in value_variants:
        for cv in colour_variants:
            kept = _kept(mv, pv, len(set(cv)) == 1, k, helper == LILLY)
            if kept is not None:
                out.add(kept)
    return out


def combination_actions(hand: Sequence[int], table: List[List[int]], helper: int) -> List[int]:
    """The combination actions legal for a hand (sorted by card id) held with ``helper``:
    every distinct (cards, kept cards) outcome once (MC-10, MC-11, MC-12, MC-18 .. MC-23)."""
    acts = []
    sizes = (3, 4) if helper == AMELIE else (3,)  # MC-21
    for k in sizes:
        if len(hand) - k < 1:  # MC-11: at least one card must stay in the hand
            continue
        for slots in itertools.combinations(range(len(hand)), k):
            for kept in combination_outcomes([hand[i] for i in slots], table, helper):
                acts.append(COMBINE + PATTERN_INDEX[(slots, tuple(slots[r] for r in kept))])
    return sorted(acts)


# ---- the game ----------------------------------------------------------------------------


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


@register
class MausAuChocolat(Game["MausAuChocolatState", "MCMove"]):
    """Maus au Chocolat. Parameters: ``players`` (2-6, default 4), ``max_turns`` (rounds,
    default 200), ``target`` (victory points that end the game, MC-24, default 30),
    ``hand_size`` (MC-3, 1..8, default 5) and ``cards`` (the 80 cards as
    ``[ingredient 0..4, candy 1..12, coin 0..20]``; default the MC-1 table).

    >>> g = MausAuChocolat(players=4, engine="python")
    >>> g.num_actions
    2085
    """

    name = "maus_au_chocolat"
    title = "Maus au Chocolat"
    min_players = 2
    max_players = 6
    STATE_KEYS = ('round', 'phase', 'pile', 'display', 'discard', 'hands', 'known', 'bids', 'vp', 'helpers', 'row', 'order', 'turn', 'picks_left', 'etienne_used', 'rng', 'history', 'truncated')
    DEFAULTS = {"players": 4, "max_turns": 200, "target": None, "hand_size": None, "cards": None}

    cards: List[List[int]]
    target: int
    hand_size: int

    def _configure(self, params: Dict[str, Any]) -> Dict[str, Any]:
        n = self.num_players
        cards = default_cards() if params["cards"] is None else params["cards"]
        if not isinstance(cards, (list, tuple)) or len(cards) != NUM_CARDS:
            raise ParameterError(f"maus_au_chocolat: cards must be a list of {NUM_CARDS} [ingredient, candy, coin] (MC-1)")
        out_cards = []
        for i, c in enumerate(cards):
            if (
                not isinstance(c, (list, tuple))
                or len(c) != 3
                or not all(_is_int(x) for x in c)
                or not 0 <= c[0] < NUM_COLOURS
                or not 1 <= c[1] <= 12
                or not 0 <= c[2] <= 20
            ):
                raise ParameterError(
                    f"maus_au_chocolat: cards[{i}] must be [ingredient 0..4, candy 1..12, coin 0..20], got {c!r} (MC-1)"
                )
            out_cards.append([int(c[0]), int(c[1]), int(c[2])])
        target = DEFAULT["target"] if params["target"] is None else params["target"]
        if not _is_int(target) or not 1 <= target <= 1000:
            raise ParameterError(f"maus_au_chocolat: target must be an int from 1 to 1000, got {target!r} (MC-24)")
        hs = DEFAULT["hand_size"] if params["hand_size"] is None else params["hand_size"]
        if not _is_int(hs) or not 1 <= hs <= HAND_LIMIT:
            raise ParameterError(f"maus_au_chocolat: hand_size must be an int from 1 to {HAND_LIMIT}, got {hs!r} (MC-3)")
        if n * hs + n + 1 > NUM_CARDS:  # pragma: no cover - impossible with 6 players
            raise ParameterError("maus_au_chocolat: not enough cards to deal")
        self.cards = out_cards
        self.target = target
        self.hand_size = hs
        self.num_actions = NUM_ACTIONS
        # observation layout (docs): 4 card planes, 3 card planes per seat, then scalars
        self.obs_card_planes = 4 + 3 * n
        self.observation_shape = (self.obs_card_planes * NUM_CARDS + 4 * n + 7 * n + 49 + 1 + 5 + n + 3,)
        return {
            "players": n,
            "max_turns": self.max_turns,
            "target": target,
            "hand_size": hs,
            "cards": [list(c) for c in out_cards],
        }

    @classmethod
    def python_state(cls) -> Any:
        return ReferenceMausAuChocolatState

    @classmethod
    def compiled_state(cls) -> Any:
        return _CompiledState

    # -- encoding ----------------------------------------------------------------------

    def card_name(self, c: int) -> str:
        return card_name(c, self.cards)

    def action_to_move(self, action: int) -> Move:
        a = check_action_type(action)
        if not 0 <= a < self.num_actions:
            raise IllegalMoveError(f"action {a} is out of range 0..{self.num_actions - 1}")
        if a < DECLINE:
            return (Bid, Pick, Discard, Swap)[a // NUM_CARDS](a % NUM_CARDS)
        if a == DECLINE:
            return Decline()
        slots, keep = PATTERNS[a - COMBINE]
        return Combine(slots, keep)

    def move_to_action(self, move: Move) -> int:
        if isinstance(move, (Bid, Pick, Discard, Swap)):
            c = move.card
            if not _is_int(c) or not 0 <= c < NUM_CARDS:
                raise IllegalMoveError(f"MC-1: card ids are 0..{NUM_CARDS - 1}, got {c!r}")
            base = {Bid: BID, Pick: PICK, Discard: DISCARD, Swap: SWAP}[type(move)]
            return base + c
        if isinstance(move, Decline):
            return DECLINE
        if isinstance(move, Combine):
            key = (tuple(move.slots), tuple(move.keep))
            if key not in PATTERN_INDEX:
                raise IllegalMoveError(
                    f"MC-10/MC-12: {move} is not a combination pattern (3 or 4 distinct ascending slots 0..8, "
                    "keeping 1-2 of three or 2-3 of four)"
                )
            return COMBINE + PATTERN_INDEX[key]
        raise TypeError(f"maus_au_chocolat takes Bid/Pick/Discard/Swap/Decline/Combine moves, not {type(move).__name__}")

    # -- engine-neutral parts ----------------------------------------------------------

    def _validate_dict(self, d: Dict[str, Any]) -> None:
        n = self.num_players
        expect(_is_int(d["round"]) and 1 <= d["round"] <= self.max_turns, "round must be an int in 1..max_turns")
        expect(d["phase"] in PHASES, f"phase must be one of {PHASES}")
        phase = PHASES.index(d["phase"])
        pile = int_list(d["pile"], None, "pile", 0, NUM_CARDS - 1)
        display = int_list(d["display"], None, "display", 0, NUM_CARDS - 1)
        discard = int_list(d["discard"], None, "discard", 0, NUM_CARDS - 1)
        for key in ("hands", "known", "vp"):
            expect(isinstance(d[key], list) and len(d[key]) == n, f"{key} must be a list of {n} lists")
        hands = [int_list(h, None, f"hands[{p}]", 0, NUM_CARDS - 1) for p, h in enumerate(d["hands"])]
        known = [int_list(h, None, f"known[{p}]", 0, NUM_CARDS - 1) for p, h in enumerate(d["known"])]
        vp = [int_list(h, None, f"vp[{p}]", 0, NUM_CARDS - 1) for p, h in enumerate(d["vp"])]
        bids = int_list(d["bids"], n, "bids", -1, NUM_CARDS - 1)
        for name, xs in [("display", display), ("discard", discard)] + [
            (f"hands[{p}]", h) for p, h in enumerate(hands)
        ] + [(f"known[{p}]", h) for p, h in enumerate(known)] + [(f"vp[{p}]", h) for p, h in enumerate(vp)]:
            expect(xs == sorted(set(xs)), f"{name} must be sorted ascending without repeats")
        everything = pile + display + discard + [b for b in bids if b >= 0] + sum(hands, []) + sum(vp, [])
        expect(
            sorted(everything) == list(range(NUM_CARDS)),
            f"MC-28: the pile, display, discard, hands, bids and victory cards must hold each of the "
            f"{NUM_CARDS} cards exactly once (they hold {len(everything)} entries)",
        )
        for p in range(n):
            expect(set(known[p]) <= set(hands[p]), f"known[{p}] must be part of hands[{p}]")
            expect(len(hands[p]) <= MAX_SLOTS, f"MC-14: hands[{p}] holds more than {MAX_SLOTS} cards")
        helpers = int_list(d["helpers"], n, "helpers", 0, NUM_HELPERS - 1)
        row = int_list(d["row"], NUM_HELPERS - n, "row", 0, NUM_HELPERS - 1)
        expect(sorted(helpers + row) == list(range(NUM_HELPERS)), "MC-4: helpers and row must hold the 7 helpers once each")
        order = int_list(d["order"], None, "order", 0, n - 1)
        turn, picks_left = d["turn"], d["picks_left"]
        expect(_is_int(turn) and _is_int(picks_left), "turn and picks_left must be ints")
        expect(isinstance(d["etienne_used"], bool) and isinstance(d["truncated"], bool), "flags must be bools")
        int_list(d["history"], None, "history", 0, self.num_actions - 1)
        expect(isinstance(d["rng"], int) and 0 <= d["rng"] < 2**64, "rng must be a 64-bit unsigned int")
        if phase in (0, 4):
            expect(order == [] and turn == 0 and picks_left == 0, "order/turn/picks_left must be empty outside pick/combine")
        else:
            expect(sorted(order) == list(range(n)), "order must list every seat once")
            expect(0 <= turn < n, "turn out of range")
        if phase == 1:
            expect(0 <= picks_left <= 2 and picks_left <= len(display), "MC-9: picks_left out of range")
            expect(picks_left > 0, "MC-9: the picker must have a pick left")
            for i, q in enumerate(order):
                expect((bids[q] >= 0) == (i >= turn), "MC-9: bids lie before the seats still to pick")
        else:
            expect(picks_left == 0, "picks_left must be 0 outside the pick phase")
        if phase == 0:
            expect(any(b < 0 for b in bids), "MC-7: a bid phase with every bid in is revealed")
        elif phase != 1:
            expect(all(b < 0 for b in bids), "bids only lie on the table during bid and pick")
        if phase == 3:
            expect(len(hands[order[turn]]) > HAND_LIMIT, "MC-14: discard phase with a hand within the limit")
        if phase in (2, 3):
            expect(order == _helper_order(helpers), "MC-10: combination order must follow the helper ranks")
        if phase == 4:
            expect(
                d["truncated"] or max(_score(vp[p], self.cards) for p in range(n)) >= self.target,
                "MC-24: the game is over without a winner's target",
            )
        else:
            expect(not d["truncated"], "truncated is only set when the game is over")

    def _redact(self, d: Dict[str, Any], p: int) -> Dict[str, Any]:
        # MC-26: others' hands (except the cards they took from the display), others' bids
        # before the reveal, the pile order and the generator are hidden.
        n = self.num_players
        d["hand_sizes"] = [len(h) for h in d["hands"]]
        d["hands"] = [h if q == p else None for q, h in enumerate(d["hands"])]
        if d["phase"] == "bid":
            hidden = _bid_history_positions(d, n)
            d["committed"] = [b >= 0 for b in d["bids"]]
            d["bids"] = [b if q == p or b < 0 else None for q, b in enumerate(d["bids"])]
            for q, i in hidden.items():
                if q != p:
                    d["history"][i] = None
        # A combination action names hand slots, and slots tell the card-id order inside a
        # hidden hand: history shows None for every combination (the laid and kept cards
        # themselves are public in the discard pile and the victory cards).
        d["history"] = [None if a is not None and a >= COMBINE else a for a in d["history"]]
        d["pile_size"] = len(d["pile"])
        d["pile"] = None
        d["rng"] = None
        return d

    def _resample(self, d: Dict[str, Any], p: int, rng: Rng) -> None:
        # MC-26: re-deal what seat p cannot see: the pile order, the cards of the other
        # hands that nobody saw enter them, and the other seats' unrevealed bids.
        n = self.num_players
        in_bid = d["phase"] == "bid"
        hidden_bids = [q for q in range(n) if q != p and in_bid and d["bids"][q] >= 0]
        pool = list(d["pile"])
        unknown = [0] * n
        for q in range(n):
            if q != p:
                secret = [c for c in d["hands"][q] if c not in d["known"][q]]
                unknown[q] = len(secret)
                pool += secret
        pool += [d["bids"][q] for q in hidden_bids]
        pool.sort()
        rng.shuffle(pool)
        for q in range(n):
            if q != p:
                d["hands"][q] = sorted(d["known"][q] + [pool.pop() for _ in range(unknown[q])])
        if hidden_bids:
            where = _bid_history_positions(d, n)
            for q in hidden_bids:
                d["bids"][q] = pool.pop()
                d["history"][where[q]] = BID + d["bids"][q]
        d["pile"] = pool
        # combinations in history become the first pattern of the same shape (their slots
        # would tell the card order of hands that were re-dealt; views show them as None)
        d["history"] = [_CANONICAL[a] if a >= COMBINE else a for a in d["history"]]
        d["rng"] = rng.next64()

    def _observation(self, d: Dict[str, Any], p: int) -> npt.NDArray[np.float32]:
        n = self.num_players
        obs = np.zeros(self.observation_shape, dtype=np.float32)
        planes = obs[: self.obs_card_planes * NUM_CARDS].reshape(self.obs_card_planes, NUM_CARDS)
        planes[0, d["hands"][p]] = 1.0
        planes[1, d["display"]] = 1.0
        planes[2, d["discard"]] = 1.0
        if d["bids"][p] >= 0:
            planes[3, d["bids"][p]] = 1.0
        revealed = d["phase"] != "bid"
        for k in range(n):
            q = (p + k) % n
            if revealed and d["bids"][q] >= 0:
                planes[4 + 3 * k, d["bids"][q]] = 1.0
            planes[5 + 3 * k, d["vp"][q]] = 1.0
            planes[6 + 3 * k, d["known"][q]] = 1.0
        i = self.obs_card_planes * NUM_CARDS
        cur = _current(d, n)
        for k in range(n):
            q = (p + k) % n
            obs[i + k] = len(d["hands"][q]) / HAND_LIMIT
            obs[i + n + k] = _score(d["vp"][q], self.cards) / self.target
            obs[i + 2 * n + k] = 1.0 if d["bids"][q] >= 0 else 0.0
            obs[i + 3 * n + k] = 1.0 if cur == q else 0.0
            obs[i + 4 * n + 7 * k + d["helpers"][q]] = 1.0
        i += 4 * n + 7 * n
        for j, h in enumerate(d["row"]):
            obs[i + 7 * j + h] = 1.0
        i += 49
        obs[i] = len(d["pile"]) / NUM_CARDS
        obs[i + 1 + PHASES.index(d["phase"])] = 1.0
        i += 6
        for k in range(n):
            if d["order"]:  # place of each seat in the current pick or combination order
                obs[i + k] = (d["order"].index((p + k) % n) + 1) / n
        i += n
        obs[i] = 1.0 if d["etienne_used"] else 0.0
        obs[i + 1] = d["picks_left"] / 2.0
        obs[i + 2] = d["round"] / self.max_turns
        return obs

    def _render(self, d: Dict[str, Any]) -> str:
        n = self.num_players
        cards = self.cards

        def name(c: int) -> str:
            return card_name(c, cards)

        cur = _current(d, n)
        who = "game over" if cur == TERMINAL else f"seat {cur} to play"
        lines = [
            f"round {d['round']}, phase {d['phase']}, {who}; draw pile {len(d['pile'])}, discard {len(d['discard'])}",
            "display: " + (" ".join(name(c) for c in d["display"]) or "-"),
            "helper row: " + " ".join(HELPERS[h] for h in d["row"]),
        ]
        for q in range(n):
            bid = d["bids"][q]
            lines.append(
                f"seat {q} [{HELPERS[d['helpers'][q]]}] {_score(d['vp'][q], cards)} VP: hand "
                + " ".join(name(c) for c in d["hands"][q])
                + (f"; bid {name(bid)}" if bid >= 0 else "")
            )
        return "\n".join(lines)

    def _explain_illegal(self, state: StateAPI, action: Any) -> str:
        a = check_action_type(action)
        d = state._to_dict()
        n = self.num_players
        if d["phase"] == "over":
            return f"MC-24: the game is over; action {a} cannot be applied"
        if not 0 <= a < self.num_actions:
            return f"action {a} is out of range 0..{self.num_actions - 1}"
        p = _current(d, n)
        phase = d["phase"]
        hand = d["hands"][p]
        c = a % NUM_CARDS
        if SWAP <= a < DECLINE:
            if d["helpers"][p] != ETIENNE:
                return f"MC-16: only Etienne's holder may swap; seat {p} holds {HELPERS[d['helpers'][p]]}"
            if d["etienne_used"]:
                return "MC-16: Etienne's swap was already used this round"
            if phase == "discard":
                return "MC-16: Etienne swaps before bidding, before a pick or before the combination step, not while discarding"
            return f"MC-16: seat {p} does not hold card {c} ({self.card_name(c)})"
        want = {"bid": "MC-7: every seat bids one hand card now", "pick": "MC-9: the picker takes cards from the display now",
                "combine": "MC-10: the current seat lays a combination or declines now",
                "discard": "MC-14: the current seat discards down to 8 cards now"}[phase]
        if a < PICK:
            if phase != "bid":
                return f"{want}, not a bid"
            return f"MC-7: seat {p} does not hold card {c} ({self.card_name(c)})"
        if a < DISCARD:
            if phase != "pick":
                return f"{want}, not a pick"
            return f"MC-9: card {c} ({self.card_name(c)}) is not in the display"
        if a < SWAP:
            if phase != "discard":
                return f"{want}, not a discard (MC-14 applies only above {HAND_LIMIT} cards)"
            return f"MC-14: seat {p} does not hold card {c} ({self.card_name(c)})"
        if phase != "combine":
            return f"{want}, not a combination step"
        assert a > DECLINE  # decline is always legal in the combine phase
        slots, keep = PATTERNS[a - COMBINE]
        helper = d["helpers"][p]
        if max(slots) >= len(hand):
            return f"MC-10: seat {p} holds only {len(hand)} cards (slots 0..{len(hand) - 1})"
        if len(slots) == 4 and helper != AMELIE:
            return "MC-21: only Amélie's holder may lay four cards"
        if len(hand) - len(slots) < 1:
            return "MC-11: after laying a combination the player must still hold at least one card"
        cards = [hand[i] for i in slots]
        outs = combination_outcomes(cards, self.cards, helper)
        shown = ", ".join(self.card_name(x) for x in cards)
        if not outs:
            return f"MC-10: {shown} is neither a run nor a set (with {HELPERS[helper]})"
        allowed = " or ".join("[" + ", ".join(self.card_name(cards[r]) for r in o) + "]" for o in sorted(outs))
        return f"MC-12/MC-23: laying {shown} with {HELPERS[helper]} keeps {allowed}, not the slots {keep}"


# ---- helpers (engine-neutral) -------------------------------------------------------------


def _score(vp: Sequence[int], cards: List[List[int]]) -> int:
    return sum(cards[c][1] for c in vp)  # MC-13: printed candy values


def _helper_order(helpers: Sequence[int]) -> List[int]:
    """MC-10: seats by helper rank, highest first (helper id ascending)."""
    return sorted(range(len(helpers)), key=lambda q: helpers[q])


def _current(d: Dict[str, Any], n: int) -> int:
    if d["phase"] == "over":
        return TERMINAL
    if d["phase"] == "bid":
        return min(q for q in range(n) if d["bids"][q] < 0)
    return int(d["order"][d["turn"]])


def _bid_history_positions(d: Dict[str, Any], n: int) -> Dict[int, int]:
    """During the bid phase: seat -> index in history of its (hidden) bid this round."""
    hist = d["history"]
    i = len(hist)
    bids = []
    while i > 0 and hist[i - 1] is not None and (hist[i - 1] < PICK or SWAP <= hist[i - 1] < DECLINE):
        i -= 1
        if hist[i] < PICK:
            bids.append(i)
    bids.reverse()
    seats = [q for q in range(n) if d["bids"][q] is None or d["bids"][q] >= 0]
    return dict(zip(seats, bids))


def _pick_order(bids: Sequence[int], helpers: Sequence[int], cards: List[List[int]]) -> List[int]:
    """MC-8: by coins of the bid card (+2 for Henri, MC-17), highest first; ties: higher
    helper rank (lower helper id) first."""
    def key(q: int) -> Tuple[int, int]:
        coins = cards[bids[q]][2] + (2 if helpers[q] == HENRI else 0)
        return (-coins, helpers[q])

    return sorted(range(len(bids)), key=key)


def _winners(vp: Sequence[Sequence[int]], helpers: Sequence[int], cards: List[List[int]]) -> List[int]:
    """MC-25: most victory points; tie-break: higher helper rank held now."""
    key = [(_score(vp[q], cards), -helpers[q]) for q in range(len(vp))]
    best = max(key)
    return [q for q in range(len(vp)) if key[q] == best]


class _JointMixin:
    """``apply_joint`` (MC-27) and ``describe``, shared by both engines."""

    __slots__ = ()

    def describe(self, action: Any) -> str:
        """A legal action in words with the current player's cards, e.g.
        ``"seat 2 combines eggs4/4c fruit5/3c nuts6/6c, keeps eggs4/4c"``."""
        st: Any = self
        g = st.game
        mv = action if isinstance(action, Move) else g.action_to_move(check_action_type(action))
        p = st.current_player
        if p == TERMINAL:
            return f"the game is over (MC-24); {mv} cannot be played"
        if isinstance(mv, Combine):
            hand = st._to_dict()["hands"][p]
            if max(mv.slots) >= len(hand):
                return f"seat {p} holds only {len(hand)} cards: {mv} (MC-10)"
            laid = " ".join(g.card_name(hand[i]) for i in mv.slots)
            kept = " ".join(g.card_name(hand[i]) for i in mv.keep)
            return f"seat {p} combines {laid}, keeps {kept}"
        if isinstance(mv, Decline):
            return f"seat {p} declines"
        verb = {Bid: "bids", Pick: "picks", Discard: "discards", Swap: "swaps (Etienne)"}[type(mv)]
        return f"seat {p} {verb} {g.card_name(mv.card)}"  # type: ignore[union-attr]

    def apply_joint(self, actions: Sequence[Any]) -> None:
        """Commit every seat's bid at once (MC-27). ``actions[q]`` is seat ``q``'s bid
        action (or a list of its actions ending with the bid, e.g. ``[swap, bid]`` for
        Etienne's holder). Equivalent to applying them one seat at a time in seat order;
        all are checked first and the state is unchanged if any is illegal."""
        st: Any = self
        n = st.game.num_players
        if isinstance(actions, (str, bytes)) or not isinstance(actions, Sequence):
            raise TypeError("apply_joint takes a sequence of one bid (or list of actions) per seat")
        if len(actions) != n:
            raise ValueError(f"MC-27: apply_joint needs one entry per seat ({n}), got {len(actions)}")
        d = st._to_dict()
        if d["phase"] != "bid" or any(b >= 0 for b in d["bids"]):
            raise IllegalMoveError("MC-27: joint bids are made at the start of a bid phase, before any seat has committed")
        seq: List[int] = []
        for q, x in enumerate(actions):
            xs = list(x) if isinstance(x, (list, tuple)) else [x]
            xs = [st.game.move_to_action(m) if isinstance(m, Move) else check_action_type(m) for m in xs]
            if not xs or not BID <= xs[-1] < PICK:
                raise IllegalMoveError(f"MC-7: seat {q}'s entry must end with a bid action (0..79), got {x!r}")
            seq += xs
        trial = st.clone()
        for a in seq:
            trial.apply_action(a)
        for a in seq:
            st.apply_action(a)


# ---- the pure-Python reference engine ------------------------------------------------------


class MausAuChocolatState(_JointMixin, StateAPI[MCMove]):
    """The public type of a Maus au Chocolat state, on either engine: what ``MausAuChocolat.new_state()``
    returns and what annotations should name. The reference engine
    (``ReferenceMausAuChocolatState``) and the compiled one both derive from it."""

    __slots__ = ()

    game: MausAuChocolat


class ReferenceMausAuChocolatState(MausAuChocolatState):
    """A Maus au Chocolat state (pure-Python reference engine), written from the spec."""

    __slots__ = (
        "game", "round", "phase", "pile", "display", "discard", "hands", "known", "bids", "vp",
        "helpers", "row", "order", "turn", "picks_left", "etienne_used", "rng", "history", "truncated",
    )

    game: MausAuChocolat
    round: int
    phase: str
    pile: List[int]
    display: List[int]
    discard: List[int]
    hands: List[List[int]]
    known: List[List[int]]
    bids: List[int]
    vp: List[List[int]]
    helpers: List[int]
    row: List[int]
    order: List[int]
    turn: int
    picks_left: int
    etienne_used: bool
    rng: Rng
    history: List[int]
    truncated: bool

    @staticmethod
    def new(game: MausAuChocolat, seed: int) -> "ReferenceMausAuChocolatState":
        n = game.num_players
        s = ReferenceMausAuChocolatState.__new__(ReferenceMausAuChocolatState)
        s.game = game
        s.rng = Rng(seed)
        s.pile = list(range(NUM_CARDS))  # MC-3: shuffle the 80 cards
        s.rng.shuffle(s.pile)
        s.hands = [[] for _ in range(n)]
        for _ in range(game.hand_size):  # MC-3: deal round the table, seat 0 first
            for q in range(n):
                s.hands[q].append(s.pile.pop())
        for h in s.hands:
            h.sort()
        s.display = sorted(s.pile.pop() for _ in range(n + 1))  # MC-3: n + 1 face up
        s.discard = []
        helpers = list(range(NUM_HELPERS))  # MC-4
        s.rng.shuffle(helpers)
        s.helpers = helpers[:n]
        s.row = helpers[n:]
        s.known = [[] for _ in range(n)]
        s.bids = [-1] * n
        s.vp = [[] for _ in range(n)]
        s.round = 1
        s.phase = "bid"
        s.order = []
        s.turn = 0
        s.picks_left = 0
        s.etienne_used = False
        s.history = []
        s.truncated = False
        return s

    @staticmethod
    def from_dict(game: MausAuChocolat, d: Dict[str, Any]) -> "ReferenceMausAuChocolatState":
        s = ReferenceMausAuChocolatState.__new__(ReferenceMausAuChocolatState)
        s.game = game
        for k in ("round", "phase", "turn", "picks_left", "etienne_used", "truncated"):
            setattr(s, k, d[k])
        for k in ("pile", "display", "discard", "bids", "helpers", "row", "order", "history"):
            setattr(s, k, list(d[k]))
        for k in ("hands", "known", "vp"):
            setattr(s, k, [list(h) for h in d[k]])
        s.rng = Rng(d["rng"])
        return s

    def _to_dict(self) -> Dict[str, Any]:
        d = self.game._header()
        d.update(
            round=self.round,
            phase=self.phase,
            pile=list(self.pile),
            display=list(self.display),
            discard=list(self.discard),
            hands=[list(h) for h in self.hands],
            known=[list(h) for h in self.known],
            bids=list(self.bids),
            vp=[list(h) for h in self.vp],
            helpers=list(self.helpers),
            row=list(self.row),
            order=list(self.order),
            turn=self.turn,
            picks_left=self.picks_left,
            etienne_used=self.etienne_used,
            rng=self.rng.state,
            history=list(self.history),
            truncated=self.truncated,
        )
        return d


    # -- queries -----------------------------------------------------------------------

    @property
    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        if self.phase == "bid":  # MC-27: the next seat to commit its bid
            return self.bids.index(-1)
        return self.order[self.turn]

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def scores(self) -> List[int]:
        """MC-13: the printed candy values of each seat's victory cards."""
        return [_score(v, self.game.cards) for v in self.vp]

    def winners(self) -> List[int]:
        if not self.is_terminal():
            return []
        return _winners(self.vp, self.helpers, self.game.cards)

    def legal_actions(self) -> npt.NDArray[np.int64]:
        return np.array(self._legal(), dtype=np.int64)

    def _legal(self) -> List[int]:
        if self.phase == "over":
            return []
        p = self.current_player
        hand = self.hands[p]
        acts: List[int] = []
        if self.phase == "bid":
            acts += [BID + c for c in hand]  # MC-7
        elif self.phase == "pick":
            acts += [PICK + c for c in self.display]  # MC-9
        elif self.phase == "discard":
            acts += [DISCARD + c for c in hand]  # MC-14
        if self.phase != "discard" and self.helpers[p] == ETIENNE and not self.etienne_used:
            acts += [SWAP + c for c in hand]  # MC-16: once per round, at any decision
        if self.phase == "combine":
            acts.append(DECLINE)  # MC-10
            acts += combination_actions(hand, self.game.cards, self.helpers[p])
        return acts

    # -- moves -------------------------------------------------------------------------

    def apply_action(self, action: int) -> None:
        a = check_action_type(action)
        if a not in self._legal():
            raise self._illegal(a)
        p = self.current_player
        if SWAP <= a < DECLINE:
            self._swap(p, a - SWAP)
        elif a < PICK:
            self._bid(p, a - BID)
        elif a < DISCARD:
            self._pick(p, a - PICK)
        elif a < SWAP:
            self._discard_for_limit(p, a - DISCARD)
        elif a == DECLINE:
            self._after_combination(p)
        else:
            self._combine(p, a - COMBINE)
        self.history.append(a)

    def _draw(self) -> Optional[int]:
        """MC-6: the top card of the pile; an empty pile is first replaced by the shuffled
        discards (taken in card id order); None when both are empty."""
        if not self.pile:
            if not self.discard:
                return None
            self.pile = sorted(self.discard)
            self.discard = []
            self.rng.shuffle(self.pile)
        return self.pile.pop()

    def _take_from_hand(self, p: int, c: int) -> None:
        self.hands[p].remove(c)
        if c in self.known[p]:
            self.known[p].remove(c)

    def _swap(self, p: int, c: int) -> None:
        # MC-16: discard face up, then draw the top card (MC-6 may reshuffle the discards)
        self.etienne_used = True
        self._take_from_hand(p, c)
        self.discard = sorted(self.discard + [c])
        new = self._draw()
        assert new is not None  # the discard pile holds at least c
        self.hands[p] = sorted(self.hands[p] + [new])

    def _bid(self, p: int, c: int) -> None:
        self._take_from_hand(p, c)  # MC-7: laid face down
        self.bids[p] = c
        if all(b >= 0 for b in self.bids):  # MC-7: all revealed at once
            self.order = _pick_order(self.bids, self.helpers, self.game.cards)  # MC-8
            self.phase = "pick"
            self.turn = 0
            self._start_pick_turn()

    def _start_pick_turn(self) -> None:
        # MC-9: the picker takes two cards (fewer only when the display runs short); a
        # picker with nothing to take just adds the bid card. After the last picker the
        # combination steps follow in helper-rank order (MC-10).
        while self.turn < len(self.order):
            self.picks_left = min(2, len(self.display))
            if self.picks_left:
                return
            self._end_pick_turn()
        self.picks_left = 0
        self.phase = "combine"
        self.order = _helper_order(self.helpers)
        self.turn = 0

    def _end_pick_turn(self) -> None:
        q = self.order[self.turn]
        self.display = sorted(self.display + [self.bids[q]])  # MC-9: the bid joins the display
        self.bids[q] = -1
        self.turn += 1

    def _pick(self, p: int, c: int) -> None:
        self.display.remove(c)
        self.hands[p] = sorted(self.hands[p] + [c])
        self.known[p] = sorted(self.known[p] + [c])  # everyone saw it taken
        self.picks_left -= 1
        if self.picks_left == 0:
            self._end_pick_turn()
            self._start_pick_turn()

    def _combine(self, p: int, idx: int) -> None:
        slots, keep = PATTERNS[idx]
        hand = self.hands[p]
        laid = [hand[i] for i in slots]
        kept = [hand[i] for i in keep]
        for c in laid:
            self._take_from_hand(p, c)
        self.vp[p] = sorted(self.vp[p] + kept)  # MC-12: kept cards face up in front
        self.discard = sorted(self.discard + [c for c in laid if c not in kept])
        self._after_combination(p)

    def _after_combination(self, p: int) -> None:
        if len(self.hands[p]) > HAND_LIMIT:  # MC-14
            self.phase = "discard"
        else:
            self._next_combiner()

    def _discard_for_limit(self, p: int, c: int) -> None:
        self._take_from_hand(p, c)
        self.discard = sorted(self.discard + [c])
        if len(self.hands[p]) <= HAND_LIMIT:
            self._next_combiner()

    def _next_combiner(self) -> None:
        self.phase = "combine"
        self.turn += 1
        if self.turn < len(self.order):
            return
        g = self.game
        n = g.num_players
        self.order = []
        self.turn = 0
        if max(self.scores()) >= g.target:  # MC-24: the game ends with this round
            self.phase = "over"
            return
        if self.round >= g.max_turns:  # max_turns (rounds) truncates
            self.phase = "over"
            self.truncated = True
            return
        # MC-15: pass helpers to the left; seat 0 -> right end of the row; seat 1 <- leftmost
        old = list(self.helpers)
        self.row.append(old[0])
        self.helpers[1] = self.row.pop(0)
        for q in range(2, n):
            self.helpers[q] = old[q - 1]
        self.helpers[0] = old[n - 1]
        self.round += 1
        self.etienne_used = False
        for _ in range(n):  # MC-5: n new cards next to the one left over
            c = self._draw()
            if c is None:  # MC-6: both piles empty: fewer cards are laid
                break
            self.display.append(c)
        self.display.sort()
        self.phase = "bid"


# ---- the compiled engine (cengine/mousehole/_maus_au_chocolat.pyx) ---------------------------

_CompiledState: Any = None
if not _PURE:
    try:
        from ._maus_au_chocolat import MausAuChocolatCore
    except ImportError:  # pragma: no cover - a build without extensions
        pass
    else:

        class CompiledMausAuChocolatState(MausAuChocolatCore, MausAuChocolatState):
            """A Maus au Chocolat state on the compiled engine (same API as the reference)."""

            __slots__ = ()

        _CompiledState = CompiledMausAuChocolatState
