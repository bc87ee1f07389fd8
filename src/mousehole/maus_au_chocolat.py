"""Maus au Chocolat (Christian Fiore & Knut Happel, Kosmos 2009), rules MC-1 .. MC-30.

The rules, restated with their ids MC-1 .. MC-30, are in ``docs/games/maus_au_chocolat.md``.
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
* **What the table knows** (MC-26): ``known[q]`` lists the cards everyone saw seat ``q``
  take from the display and that ``q`` still holds (or has just bid, face down). ``pools[c]``
  says which *pool* an unseen card belongs to: ``0`` the cards dealt at the start, ``k > 0``
  the discards shuffled into a new draw pile (MC-6), so that a seat remembers which unseen
  cards can still lie in the pile; every face-up or known card has ``0``.
* **Phases**: ``bid`` (seats commit one at a time, lowest uncommitted seat first),
  ``pick`` (seats in bid order, one action per card taken), ``combine`` (seats in
  helper-rank order), ``discard`` (the hand limit of the seat that just combined; with
  ``hand_limit="standing"`` of the seat whose pick took its hand above 8), ``over``.
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

* **Readings** (parameters; ``MausAuChocolat.READINGS``): ``henri_bonus`` (MC-17,
  ``"always"`` or ``"optional"``: with ``"optional"`` Henri's holder may bid without the +2,
  the actions ``2085 + c``); ``kept_card`` (MC-23, ``"player_chooses"``, the default since
  issue 41, or ``"highest_printed"``: with ``"player_chooses"`` every choice of a set's kept
  cards is a combination action of its own; no new action ids, the patterns already name
  every kept set); ``etienne_swap`` (MC-16, when Etienne's holder may swap: ``"any_decision"``, every
  decision but the hand-limit discards; ``"picks_and_combination"``, not at the bid;
  ``"also_hand_limit"``, also between the hand-limit discards; no new action ids);
  ``tie_break_moment`` (MC-25, MC-15, whose helpers break a tie at the end:
  ``"before_passing"``, those held in the last round; ``"after_passing"``, those the seats
  would hold after the end-of-round pass; it changes only the winners); ``changed_value``
  (MC-18, MC-19: ``"unbounded"``, a value changed by Mathieu or Maurice may leave the printed
  values 3..7; ``"printed_range"``, it must stay within them; no new action ids);
  ``etienne_draw`` (MC-16: ``"always"``, Etienne's discard always draws; ``"optional"``, his
  holder may also discard without drawing, the action ``160 + c`` outside the hand-limit
  discards, while he holds two cards or more); ``hand_limit`` (MC-14: ``"after_combination"``,
  a hand above 8 cards discards down to 8 after its combination step; ``"standing"``, no hand
  ever holds more than 8: the pick that brings a 9th card is followed at once by the picker's
  discards, the actions ``160 + c``, before its bid card joins the display; no new action ids).

Choices where the text is silent are listed in ``docs/games/maus_au_chocolat.md``.
"""

from __future__ import annotations

import dataclasses
import itertools
import warnings
from typing import TYPE_CHECKING, Any, ClassVar, Dict, List, Optional, Sequence, Set, SupportsIndex, Tuple, TypeVar

import numpy as np
import numpy.typing as npt

from . import _api
from ._api import IllegalMoveError, ParameterError, StateError, expect, int_list, is_int
from ._rng import Rng
from ._values import exact, shorten

__all__ = [
    "MausAuChocolat",
    "MausAuChocolatState",
    "ReferenceMausAuChocolatState",
    "MCMove",
    "MCBid",
    "MCBidWithoutHenri",
    "MCPick",
    "MCDiscard",
    "MCSwap",
    "MCDecline",
    "MCCombine",
    "DEFAULT",
    "PATTERNS",
    "INGREDIENTS",
    "HELPERS",
    "combination_actions",
    "default_cards",
    "parse_move",
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
MAX_ROUNDS = 10**9  # rounds are counted in 32 bits by the compiled engine

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
#: ``henri_bonus="optional"`` (MC-17) adds the actions ``BID_PLAIN + c``: Henri's holder bids
#: card ``c`` without Henri's +2 (the action space grows to ``NUM_ACTIONS + 80``)
BID_PLAIN = NUM_ACTIONS
#: the values of the reading ``kept_card`` (MC-23), the default first: the player chooses
#: which of a set's cards it keeps (the default since issue 41), or the engine keeps a set's
#: cards of the highest printed value (the default before)
KEPT_CARD_VALUES = ("player_chooses", "highest_printed")
#: the values of the reading ``etienne_swap`` (MC-16), the default first, and the phases in
#: which Etienne's holder may swap under each: at every decision but the hand-limit
#: discards; only at his picks and his combination step (not the simultaneous bid); at every
#: decision including the hand-limit discards after his combination step
#: the values of the reading ``tie_break_moment`` (MC-25, MC-15), the default first: a tie at
#: the end goes to the higher helper held in the last round, or to the higher helper each seat
#: holds once the helpers of that round are passed on
TIE_BREAK_MOMENT_VALUES = ("before_passing", "after_passing")
ETIENNE_SWAP_PHASES: Dict[str, Tuple[str, ...]] = {
    "any_decision": ("bid", "pick", "combine"),
    "picks_and_combination": ("pick", "combine"),
    "also_hand_limit": ("bid", "pick", "combine", "discard"),
}
ETIENNE_SWAP_VALUES = tuple(ETIENNE_SWAP_PHASES)
#: the values of the reading ``changed_value`` (MC-18, MC-19), the default first: a candy value
#: changed by Mathieu or Maurice may leave the printed values (a 3 lowered counts 2, a 7 raised
#: counts 8), or must stay within them (the lowest to the highest candy value of the game's
#: cards: 3..7 in MC-1)
CHANGED_VALUE_VALUES = ("unbounded", "printed_range")
#: the values of the reading ``etienne_draw`` (MC-16), the default first: Etienne's discard
#: always draws the top card of the pile (the swap), or his holder may also discard without
#: drawing (the action ``DISCARD + c`` outside the hand-limit discards)
ETIENNE_DRAW_VALUES = ("always", "optional")
#: the values of the reading ``hand_limit`` (MC-14), the default first: a hand above 8 cards
#: discards down to 8 after its combination step, or the limit stands at every moment (the
#: pick that brings a 9th card is followed at once by the picker's discards)
HAND_LIMIT_VALUES = ("after_combination", "standing")

_DEFAULT_CARDS = default_cards()

#: MC-16's sentences, the source of two readings (``etienne_swap``, ``etienne_draw``)
_ETIENNE_TEXT = (
    "Etienne, das Eichhörnchen: Der Spieler darf eine seiner Zutatenkarten abwerfen und offen auf "
    "den Ablagestapel legen. Dafür darf er die oberste Karte des Nachziehstapels auf die Hand "
    "nehmen. Dies kann jederzeit während seines Zuges geschehen."
)
_ETIENNE_TRANSLATION = (
    "Etienne the squirrel: the player may discard one of his ingredient cards face up on the "
    "discard pile. For it he may take the top card of the draw pile into his hand. This can "
    "happen at any time during his turn."
)


def card_name(c: int, cards: Optional[List[List[int]]] = None) -> str:
    """``"fruit5/3c"``: ingredient, candy value, coin value (DEFAULT table unless given)."""
    ing, candy, coin = (cards or _DEFAULT_CARDS)[c]
    return f"{INGREDIENTS[ing]}{candy}/{coin}c"


# ---- moves -------------------------------------------------------------------------------


_MoveKind = TypeVar("_MoveKind", bound="MCMove")


class MCMove(_api.Move):
    """Base class of Maus au Chocolat's moves: :class:`MCBid`, :class:`MCPick`,
    :class:`MCDiscard`, :class:`MCSwap`, :class:`MCDecline`, :class:`MCCombine`."""

    __slots__ = ()

    @classmethod
    def from_str(cls: type[_MoveKind], text: str) -> _MoveKind:
        """The move of ``str(move)`` (or a card move by name); ``ValueError`` for text that is
        not a move of this class."""
        return _parse(text, cls)  # type: ignore[return-value]


@dataclasses.dataclass(frozen=True)
class _MCCardMove(MCMove):
    """A move of one card, ``card`` (an id of the card table): ``str`` is the verb, the id,
    the card's name in brackets, and what the move's kind adds after them."""

    card: int

    _VERB: ClassVar[str] = ""
    _AFTER: ClassVar[str] = ""

    def __str__(self) -> str:
        return f"{self._VERB} {self.card} ({card_name(self.card)}){self._AFTER}"


@dataclasses.dataclass(frozen=True)
class MCBid(_MCCardMove):
    """Bid hand card ``card`` (MC-7).

    >>> str(MCBid(17))
    'bid 17 (fruit3/3c)'
    >>> MCBid.from_str('bid 17')
    MCBid(card=17)
    """

    _VERB = "bid"


@dataclasses.dataclass(frozen=True)
class MCBidWithoutHenri(_MCCardMove):
    """Henri's holder bids hand card ``card`` without Henri's +2 coins (MC-17; only in a game
    with ``henri_bonus="optional"``).

    >>> str(MCBidWithoutHenri(17))
    'bid 17 (fruit3/3c) without Henri'
    >>> MCBidWithoutHenri.from_str('bid 17 without henri')
    MCBidWithoutHenri(card=17)
    """

    _VERB = "bid"
    _AFTER = " without Henri"


@dataclasses.dataclass(frozen=True)
class MCPick(_MCCardMove):
    """Take card ``card`` from the display (MC-9)."""

    _VERB = "pick"


@dataclasses.dataclass(frozen=True)
class MCDiscard(_MCCardMove):
    """Discard hand card ``card`` to meet the hand limit (MC-14)."""

    _VERB = "discard"


@dataclasses.dataclass(frozen=True)
class MCSwap(_MCCardMove):
    """Etienne (MC-16): discard hand card ``card`` face up and draw the top of the pile."""

    _VERB = "swap"


@dataclasses.dataclass(frozen=True)
class MCDecline(MCMove):
    """Lay no combination this round (MC-10)."""

    def __str__(self) -> str:
        return "decline"


@dataclasses.dataclass(frozen=True)
class MCCombine(MCMove):
    """Lay the cards in hand ``slots`` (positions in the hand sorted by card id) and keep
    the cards in slots ``keep`` as victory points (MC-10 .. MC-23).

    >>> str(MCCombine((0, 2, 5), (5,)))
    'combine 0,2,5 keep 5'
    >>> MCCombine.from_str('combine 0,2,5 keep 5')
    MCCombine(slots=(0, 2, 5), keep=(5,))
    """

    slots: Tuple[int, ...]
    keep: Tuple[int, ...]

    def __str__(self) -> str:
        return f"combine {','.join(map(str, self.slots))} keep {','.join(map(str, self.keep))}"


#: the names the move classes had before every game named them ``<game prefix><kind>``;
#: they still work, with a ``DeprecationWarning``
_RENAMED = {
    "Bid": "MCBid",
    "Pick": "MCPick",
    "Discard": "MCDiscard",
    "Swap": "MCSwap",
    "Decline": "MCDecline",
    "Combine": "MCCombine",
}

if TYPE_CHECKING:  # the type checker sees the aliases as the classes they name
    Bid, Pick, Discard, Swap, Decline, Combine = MCBid, MCPick, MCDiscard, MCSwap, MCDecline, MCCombine
else:

    def __getattr__(name: str) -> Any:
        """The deprecated move names (``Bid`` is :class:`MCBid`, ...), with a warning."""
        new = _RENAMED.get(name)
        if new is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        warnings.warn(f"{__name__}.{name} is deprecated: use {new}", DeprecationWarning, stacklevel=2)
        return globals()[new]


# ---- notation: str(move) and the parser of every move; a state's describe/parse_action --------

_CARD_MOVES: Dict[str, Any] = {"bid": MCBid, "pick": MCPick, "discard": MCDiscard, "swap": MCSwap}
#: the verbs of the notation; ``describe`` writes the third-person forms
_VERBS = {
    "bid": "bid",
    "bids": "bid",
    "pick": "pick",
    "picks": "pick",
    "discard": "discard",
    "discards": "discard",
    "swap": "swap",
    "swaps": "swap",
    "decline": "decline",
    "declines": "decline",
    "combine": "combine",
    "combines": "combine",
}
_NOTATION = (
    "Maus au Chocolat moves read 'bid 17', 'bid fruit3/3c', 'bid 17 without Henri', 'pick 3', 'discard 40', 'swap 9', "
    "'decline', 'combine 0,2,5 keep 5' (hand slots) or, in a state, "
    "'combine eggs4/4c fruit5/3c nuts6/7c keep eggs4/4c' (card names)"
)


def _names(cards: List[List[int]]) -> Dict[str, List[int]]:
    """card name -> the ids of that name in a card table."""
    out: Dict[str, List[int]] = {}
    for c in range(len(cards)):
        out.setdefault(card_name(c, cards), []).append(c)
    return out


_DEFAULT_NAMES = _names(_DEFAULT_CARDS)


def _number(tok: str) -> bool:
    """Whether ``tok`` is a number in ASCII digits (``str.isdigit`` is true of "²" and "٣",
    which ``int`` refuses or reads as 3)."""
    return tok.isascii() and tok.isdigit()


def _tokens(text: Any) -> List[str]:
    if not isinstance(text, str):
        raise TypeError(f"a move is written as a str, not {type(text).__name__}")
    plain: str = str(exact(text))  # (the str it holds: a subclass's own methods unheard)
    return plain.lower().replace(",", " ").split()


def _card_token(
    tok: str, cards: List[List[int]], names: Dict[str, List[int]], among: Optional[Sequence[int]] = None
) -> int:
    """The card id a token names: ``17``, ``fruit3/3c`` or ``fruit3/3c#17``; a bare name is
    looked up among ``among`` (a hand, the display) first, then in the whole table."""
    if _number(tok):
        c = int(tok)
        if c >= NUM_CARDS:
            raise ValueError(f"MC-1: card ids are 0..{NUM_CARDS - 1}, got {shorten(tok)}")
        return c
    name, _, ident = tok.partition("#")
    if ident:
        if not _number(ident) or int(ident) >= NUM_CARDS or card_name(int(ident), cards) != name:
            raise ValueError(f"{shorten(tok)} is not a card: after the name, '#' gives that card's id")
        return int(ident)
    ids = names.get(name)
    if not ids:
        raise ValueError(
            f"{shorten(tok)} is not a card name (written like 'fruit3/3c': ingredient, candy value, coins); {_NOTATION}"
        )
    if among is not None:
        here = [c for c in ids if c in among]
        if len(here) == 1:
            return here[0]
        if here:
            ids = here
    if len(ids) > 1:
        raise ValueError(f"{shorten(tok)} names the cards {ids}: write {tok}#id")
    return ids[0]


def _parse_tokens(
    toks: List[str],
    text: str,
    cards: List[List[int]],
    names: Dict[str, List[int]],
    among: Optional[Sequence[int]] = None,
) -> MCMove:
    """The move of the stateless notation (``str(move)``, or a card move by name; a name is
    looked up among ``among`` first when given)."""
    if not toks or toks[0] not in _VERBS:
        raise ValueError(f"not a Maus au Chocolat move: {shorten(text)}; {_NOTATION}")
    verb = _VERBS[toks[0]]
    args = toks[1:]
    kind: Any = _CARD_MOVES.get(verb)
    if verb == "bid" and args[-2:] == ["without", "henri"]:  # MC-17 (henri_bonus="optional")
        args = args[:-2]
        kind = MCBidWithoutHenri
    if verb == "decline":
        if args:
            raise ValueError(f"'decline' takes nothing after it, got {shorten(text)}")
        return MCDecline()
    if verb == "combine":
        if "keep" not in args and "keeps" not in args:
            raise ValueError(f"a combination names its kept cards after 'keep': {shorten(text)}; {_NOTATION}")
        k = args.index("keep") if "keep" in args else args.index("keeps")
        laid, kept = args[:k], args[k + 1 :]
        if not all(_number(t) for t in laid + kept) or not laid or not kept:
            raise ValueError(
                f"without a state, a combination names hand slots ('combine 0,2,5 keep 5'), "
                f"got {shorten(text)}; use state.parse_action for card names"
            )
        return MCCombine(tuple(int(t) for t in laid), tuple(int(t) for t in kept))
    if len(args) == 2 and args[1].startswith("(") and args[1].endswith(")") and _number(args[0]):
        # the str form 'bid 17 (fruit3/3c)': the name must be the card's
        c = _card_token(args[0], cards, names)
        given = args[1][1:-1]
        if given not in (card_name(c, cards), card_name(c, _DEFAULT_CARDS)):
            raise ValueError(f"{shorten(text)}: card {c} is {card_name(c, cards)}, not {given}")
        return kind(c)  # type: ignore[no-any-return]
    if len(args) != 1:
        raise ValueError(f"'{verb}' takes one card (an id or a name like 'fruit3/3c'), got {shorten(text)}")
    return kind(_card_token(args[0], cards, names, among))  # type: ignore[no-any-return]


def _parse(text: str, want: Optional[type] = None) -> MCMove:
    mv = _parse_tokens(_tokens(text), text, _DEFAULT_CARDS, _DEFAULT_NAMES)
    if want is not None and not isinstance(mv, want):
        raise ValueError(f"{shorten(text)} is a {type(mv).__name__}, not a {want.__name__}")
    return mv


def parse_move(text: str) -> MCMove:
    """Parse any move's ``str`` form (card names by the DEFAULT table); raises ``ValueError``
    naming the notation. ``game.parse_move`` is the same with the game's card table.

    >>> parse_move('bid 17 (fruit3/3c)'), parse_move('pick eggs4/4c'), parse_move('decline')
    (MCBid(card=17), MCPick(card=3), MCDecline())
    """
    return _parse(text)


# ---- the combination search (engine-neutral reference) ---------------------------------------


def _kept(
    mv: Sequence[int], pv: Sequence[int], one_colour: bool, k: int, lilly: bool, choose: bool = False
) -> List[Tuple[int, ...]]:
    """The kept sets (relative indices) of a combination with modified values ``mv`` and
    printed values ``pv`` (cards in slot order): none when it is neither a run nor a set.
    ``choose`` (``kept_card="player_chooses"``, MC-23): a set gives every choice of its
    kept cards, not only the highest printed."""
    if len(set(mv)) == 1:  # a set (MC-10)
        m = (2 if one_colour else 1) + (1 if k == 4 else 0)  # MC-12, MC-21
        if choose:  # MC-12: "darf der Spieler eine dieser Karten ... beiseitelegen"
            return list(itertools.combinations(range(k), m))
        # MC-23: among equal modified values keep the highest printed (then the lowest slot)
        order = sorted(range(k), key=lambda r: (-pv[r], r))
        return [tuple(sorted(order[:m]))]
    s = sorted(mv)
    if all(s[i + 1] == s[i] + 1 for i in range(k - 1)):  # a run (MC-10)
        lo = min(range(k), key=lambda r: mv[r])
        hi = max(range(k), key=lambda r: mv[r])
        first = hi if (one_colour or lilly) else lo  # MC-12, MC-20
        kept = [first]
        if k == 4:  # MC-21: the extra card is the lowest one still available
            kept.append(min((r for r in range(k) if r != first), key=lambda r: mv[r]))
        return [tuple(sorted(kept))]
    return []


def combination_outcomes(
    cards: Sequence[int],
    table: List[List[int]],
    helper: int,
    *,
    kept_card: str = "player_chooses",
    changed_value: str = "unbounded",
) -> Set[Tuple[int, ...]]:
    """Every kept set (relative indices) reachable by laying ``cards`` with ``helper``
    (``kept_card``: the reading of MC-23, ``"highest_printed"`` or ``"player_chooses"``;
    ``changed_value``: the reading of MC-18/MC-19, ``"unbounded"`` or ``"printed_range"``)."""
    choose = _kept_choice(kept_card)
    lo, hi = _change_range(changed_value, table)
    k = len(cards)
    pv = [table[c][1] for c in cards]
    col = [table[c][0] for c in cards]
    value_variants = [list(pv)]
    if helper in (MATHIEU, MAURICE):  # MC-18, MC-19: one card counts 1 lower / higher
        d = -1 if helper == MATHIEU else 1
        for j in range(k):
            if not lo <= pv[j] + d <= hi:  # changed_value="printed_range": not past the printed values
                continue
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
            out.update(_kept(mv, pv, len(set(cv)) == 1, k, helper == LILLY, choose))
    return out


def combination_actions(
    hand: Sequence[int],
    table: List[List[int]],
    helper: int,
    *,
    kept_card: str = "player_chooses",
    changed_value: str = "unbounded",
) -> List[int]:
    """The combination actions legal for a hand (sorted by card id) held with ``helper``:
    every distinct (cards, kept cards) outcome once (MC-10, MC-11, MC-12, MC-18 .. MC-23).
    ``kept_card`` is the reading of MC-23 (``MausAuChocolat.READINGS``): with
    ``"player_chooses"`` a set may keep any of its cards; ``changed_value`` the reading of
    MC-18/MC-19: with ``"printed_range"`` Mathieu's or Maurice's change must stay within the
    table's candy values."""
    acts = []
    sizes = (3, 4) if helper == AMELIE else (3,)  # MC-21
    for k in sizes:
        if len(hand) - k < 1:  # MC-11: at least one card must stay in the hand
            continue
        for slots in itertools.combinations(range(len(hand)), k):
            for kept in combination_outcomes(
                [hand[i] for i in slots], table, helper, kept_card=kept_card, changed_value=changed_value
            ):
                acts.append(COMBINE + PATTERN_INDEX[(slots, tuple(slots[r] for r in kept))])
    return sorted(acts)


def _change_range(changed_value: str, table: List[List[int]]) -> Tuple[float, float]:
    """``changed_value`` (MC-18, MC-19) as the engines use it: the lowest and the highest value
    a changed card may count (the table's candy values with ``"printed_range"``, no bound with
    ``"unbounded"``); ``ValueError`` for another value."""
    if changed_value not in CHANGED_VALUE_VALUES:
        raise ValueError(
            f"MC-18/MC-19: changed_value must be one of "
            f"{', '.join(map(repr, CHANGED_VALUE_VALUES))}, got {shorten(changed_value)}"
        )
    if changed_value == "unbounded":
        return float("-inf"), float("inf")
    return min(c[1] for c in table), max(c[1] for c in table)


def _kept_choice(kept_card: str) -> bool:
    """``kept_card`` (MC-23) as the engines use it: whether the player chooses a set's kept
    cards; ``ValueError`` for another value."""
    if kept_card not in KEPT_CARD_VALUES:
        raise ValueError(
            f"MC-23: kept_card must be one of {', '.join(map(repr, KEPT_CARD_VALUES))}, got {shorten(kept_card)}"
        )
    return kept_card == "player_chooses"


# ---- the game ----------------------------------------------------------------------------


@_api.register
class MausAuChocolat(_api.Game["MausAuChocolatState", "MCMove"]):
    """Maus au Chocolat. Parameters: ``players`` (2-6, default 4), ``max_turns`` (rounds,
    default 200), ``target`` (victory points that end the game, MC-24, default 30),
    ``hand_size`` (MC-3, 1..8, default 5) and ``cards`` (the 80 cards as
    ``[ingredient 0..4, candy 1..12, coin 0..20]``; default the MC-1 table).

    Readings of the rule text (:attr:`READINGS`; the docs' Readings table):

    * ``henri_bonus`` (MC-17): ``"always"`` (default: Henri's holder's bid always counts 2
      coins more) or ``"optional"`` (the holder chooses with each bid, face down: the
      actions ``BID_PLAIN + c`` = 2085 + c, :class:`MCBidWithoutHenri`, bid card ``c``
      without the +2; ``num_actions`` becomes 2165).
    * ``kept_card`` (MC-23, MC-12, MC-21): ``"player_chooses"`` (default: the player chooses
      which cards of a set to keep, „darf ... eine dieser Karten": every choice is a
      combination action, ``num_actions`` stays 2085) or ``"highest_printed"`` (the default
      before issue 41: a set keeps its cards of the highest printed candy value, the lowest
      card ids among equal ones). Runs keep the cards the text names under both readings.
    * ``etienne_swap`` (MC-16): when Etienne's holder may swap (once per round):
      ``"any_decision"`` (default: before his bid, before each pick, before his combination
      step; not while discarding for the hand limit), ``"picks_and_combination"`` (only at
      his picks and his combination step, not at the simultaneous bid) or
      ``"also_hand_limit"`` (also between his hand-limit discards, MC-14). No new action ids.
    * ``tie_break_moment`` (MC-25, MC-15): whose helpers break a tie at the end:
      ``"before_passing"`` (default: the helpers held in the last round) or
      ``"after_passing"`` (the helpers each seat would hold after that round's pass). Only
      the winners change.
    * ``changed_value`` (MC-18, MC-19): ``"unbounded"`` (default: the value Mathieu lowers or
      Maurice raises may leave the printed candy values, so a 3 lowered counts 2 and a 7
      raised counts 8) or ``"printed_range"`` (the changed value must be one the game's cards
      print, 3..7 in MC-1: no 3 lowered, no 7 raised). No new action ids.
    * ``etienne_draw`` (MC-16): ``"always"`` (default: Etienne's discard always draws the top
      card, the swap ``SWAP + c``) or ``"optional"`` (at a decision where he may swap, other
      than the hand-limit discards, his holder may also discard card ``c`` without drawing:
      the action ``DISCARD + c``, :class:`MCDiscard`, once a round in place of the swap, while
      he holds at least two cards). No new action ids.
    * ``hand_limit`` (MC-14): ``"after_combination"`` (default: a hand above 8 cards discards
      down to 8 right after its combination step, so a hand of 9 may lay a combination of its
      9th card) or ``"standing"`` (no hand ever holds more than 8: the pick that brings a 9th
      card, only a seat's second pick can, is followed at once by that seat's discards down
      to 8, ``DISCARD + c`` in the phase ``"discard"``, before its bid card joins the display
      and before the next pick; Etienne's swap between them as ``etienne_swap`` says). No new
      action ids.

    >>> g = MausAuChocolat(players=4, engine="python")
    >>> g.num_actions
    2085
    """

    DRAWING = "mousehole.render.maus_au_chocolat"
    SCORE = "victory points: the printed candy values of the cards the seat kept (MC-13)"
    SEARCH_TUNING = {
        "c": 1.0,
        "depth": -1,
        "scale": 3.0,
        "greedy": 0.0,  # StrongBot (docs/bots.md)
        "depth@2": 300,
        "greedy@2": 0.5,
    }
    INFORMATION = "imperfect"  # MC-26: the hands, the bids until all are in, the pile
    SINGLE_WINNER = True  # MC-25
    ENV_ID = "mousehole/MausAuChocolat-v0"
    SIMULTANEOUS_ACTIONS = range(BID, PICK)  # MC-7: the bids, face down until all are in

    name = "maus_au_chocolat"
    title = "Maus au Chocolat"
    min_players = 2
    max_players = 6
    STATE_KEYS = (
        "round",
        "phase",
        "pile",
        "display",
        "discard",
        "hands",
        "known",
        "pools",
        "bids",
        "vp",
        "helpers",
        "row",
        "order",
        "turn",
        "picks_left",
        "etienne_used",
        "rng",
        "history",
        "truncated",
    )
    READINGS = (
        _api.Reading(
            param="henri_bonus",
            values=("always", "optional"),
            meaning=(
                "Henri's holder's bid card always counts 2 coins more.",
                "Henri's holder chooses with each bid, face down like the bid, whether its card counts 2 coins more.",
            ),
            rules=("MC-17", "MC-8"),
            source=(
                "Mit jeder der Helferkarten kann eine besondere Aktion einmal pro Runde genutzt werden. "
                "[...] Henri, der Hamster: Der Hamster erhöht die Anzahl der Schokotaler der "
                "ausgespielten Karte um 2."
            ),
            translation=(
                "With each of the helper cards a special action can be used once per round. [...] "
                "Henri the hamster: the hamster raises the number of chocolate coins of the card "
                "played by 2."
            ),
            why_default=(
                "Henri's own sentence states the +2 as a fact, without the 'darf' (may) of the other "
                "helpers; 'kann' in the general sentence is read as 'is available'."
            ),
        ),
        _api.Reading(
            param="kept_card",
            values=KEPT_CARD_VALUES,
            meaning=(
                "The player chooses which cards of a set to keep; every choice is its own combination action.",
                "A set keeps its cards of the highest printed candy value (equal ones: the lowest card id).",
            ),
            rules=("MC-23", "MC-12", "MC-21"),
            source=(
                "Bei einem Drilling, der aus verschiedenen Zutaten besteht, darf der Spieler eine dieser "
                "Karten als Siegpunkte offen neben sich beiseitelegen. [...] Bei einem einfarbigem Drilling "
                "behält der Spieler sogar zwei Karten als Siegpunkte, die übrige kommt auf den Ablagestapel."
            ),
            translation=(
                "With a set made of different ingredients the player may put one of these cards aside "
                "face up as victory points. [...] With a set of one colour the player even keeps two "
                "cards as victory points; the remaining one goes to the discard pile."
            ),
            why_default=(
                "'darf der Spieler eine dieser Karten' gives the choice to the player (the player "
                "may lay aside one of these cards), and where the text fixes the card it names it (a "
                "run keeps 'die niedrigste' or 'die höchste'); the set's sentences name none. Keeping "
                "the highest printed value (the default until issue 41, still 'highest_printed') is "
                "a choice the text does not make: it takes away which card goes to the discard pile "
                "and, after Mathieu or Maurice, which printed value scores."
            ),
        ),
        _api.Reading(
            param="etienne_swap",
            values=ETIENNE_SWAP_VALUES,
            meaning=(
                "Etienne's holder may swap at any of his decisions of the round (his bid, each pick, his "
                "combination step), not while discarding for the hand limit.",
                "Etienne's holder may swap only at his picks and at his combination step, not at the simultaneous bid.",
                "Etienne's holder may swap at any of his decisions, also between his hand-limit discards "
                "after his combination step.",
            ),
            rules=("MC-16", "MC-7", "MC-14"),
            source=_ETIENNE_TEXT,
            translation=_ETIENNE_TRANSLATION,
            why_default=(
                "The leaflet defines no 'Zug' (turn) of a player; 'jederzeit' (at any time) is read "
                "as every decision the holder makes in the round, and the hand-limit discards are "
                "read as a forced clean-up („muss er die überzähligen abwerfen“), not a decision of "
                "his turn."
            ),
        ),
        _api.Reading(
            param="tie_break_moment",
            values=TIE_BREAK_MOMENT_VALUES,
            meaning=(
                "A tie at the end goes to the seat holding the higher-ranked helper in the last round, "
                "before the helpers are passed on.",
                "A tie at the end goes to the seat that would hold the higher-ranked helper once the last "
                "round's helpers are passed on (each seat's left neighbour's helper; seat 1 the row's "
                "leftmost).",
            ),
            rules=("MC-25", "MC-15", "MC-24"),
            source=(
                "Danach gibt jeder Spieler seine Helferkarte an den linken Nachbarn weiter. [...] Das "
                "Spiel endet, wenn ein Spieler Zutatenkarten mit 30 oder mehr Siegpunkten offen vor sich "
                "ausgelegt hat. Die Runde wird zu Ende gespielt. Es gewinnt der Spieler, der dann die "
                "meisten Siegpunkte hat. Bei einem Gleichstand gewinnt der Spieler, der zu diesem "
                "Zeitpunkt die Helferkarte mit der höheren Zahl vorweisen kann."
            ),
            translation=(
                "Then every player passes his helper card to his left neighbour. [...] The game "
                "ends when a player has laid out ingredient cards worth 30 or more victory points "
                "in front of him. The round is played to its end. The player who then has the most "
                "victory points wins. In a tie the player who at that moment can show the helper "
                "card with the higher number wins."
            ),
            why_default=(
                "'Zu diesem Zeitpunkt' (at that moment) is the moment of 'dann' (then), when the "
                "points are counted; the pass („Danach gibt jeder Spieler ...“) hands the helpers "
                "on for the next round, which never comes, so the helpers are those of the round "
                "just played. Counting the pass as the last act of the round played 'zu Ende' (to "
                "its end) is the other reading."
            ),
        ),
        _api.Reading(
            param="changed_value",
            values=CHANGED_VALUE_VALUES,
            meaning=(
                "A candy value changed by Mathieu or Maurice may leave the printed values (a 3 lowered "
                "counts 2, a 7 raised counts 8).",
                "A candy value changed by Mathieu or Maurice must stay within the printed values (3..7: "
                "a 3 cannot be lowered, a 7 cannot be raised).",
            ),
            rules=("MC-18", "MC-19", "MC-1", "MC-23"),
            source=(
                "Jeweils 16 Karten pro Zutat mit den Naschwerten 3 bis 7. [...] Mathieu, der Mistkäfer: "
                "Der Spieler darf den Naschwert einer Karte um 1 verringern, um damit eine Kombination "
                "ausulegen. Erhält der Spieler die Karte, deren Wert er verringert hat, als Siegpunkte, "
                "zählt trotzdem der aufgedruckte Wert für die Ermittlung der Siegpunkte. Maurice, der "
                "Maulwurf: Der Spieler darf den Naschwert einer Karte um 1 erhöhen, um damit eine "
                "Kombination ausulegen."
            ),
            translation=(
                "16 cards of each ingredient with the candy values 3 to 7. [...] Mathieu the dung "
                "beetle: the player may lower the candy value of one card by 1 to lay out a "
                "combination with it. If the player gets the card whose value he lowered as victory "
                "points, the printed value still counts for the victory points. Maurice the mole: "
                "the player may raise the candy value of one card by 1 to lay out a combination "
                "with it."
            ),
            why_default=(
                "The powers' sentences set no bound: 'einer Karte' is any card, a run is "
                "'aufeinanderfolgende' values and 2-3-4 or 6-7-8 follow each other, and the changed "
                "value never scores ('zählt trotzdem der aufgedruckte Wert'), so no 2 or 8 ever "
                "reaches the points. 'Naschwerten 3 bis 7' describes the printed cards, not the "
                "values a power may count; reading it as a bound ('printed_range') is the other "
                "reading."
            ),
        ),
        _api.Reading(
            param="etienne_draw",
            values=ETIENNE_DRAW_VALUES,
            meaning=(
                "Etienne's discard always draws the top card of the draw pile (the swap).",
                "Etienne's holder may also discard a card without drawing (the discard action, at a decision "
                "where he may swap, other than the hand-limit discards, while he holds two cards or more).",
            ),
            rules=("MC-16", "MC-6"),
            source=_ETIENNE_TEXT,
            translation=_ETIENNE_TRANSLATION,
            why_default=(
                "'Dafür' (for it, in return) makes the draw the gain of the discard: one special "
                "action ('eine besondere Aktion', used 'einmal pro Runde') whose 'darf' grants the "
                "power as every helper's sentence does. The draw's own 'darf' read as a second, "
                "separate choice is the other reading ('optional')."
            ),
        ),
        _api.Reading(
            param="hand_limit",
            values=HAND_LIMIT_VALUES,
            meaning=(
                "A hand above 8 cards discards down to 8 right after its combination step (a hand of 9 "
                "may lay a combination of its 9th card).",
                "No hand ever holds more than 8 cards: the pick that brings a 9th card is followed at once "
                "by the picker's discards down to 8, before its bid card joins the display and before the "
                "next pick.",
            ),
            rules=("MC-14", "MC-9", "MC-10"),
            source=(
                "Nach dem Ausspielen seiner Kombination muss der Spieler allerdings noch mindestens eine "
                "eigene Handkarte besitzen, ansonsten ist das Ausspielen einer Kombination nicht erlaubt! "
                "Allerdings darf auch kein Spieler mehr als 8 Zutatenkarten auf der Hand halten. Besitzt "
                "ein Spieler mehr als 8 Zutatenkarten, muss er die überzähligen abwerfen, sie kommen auf "
                "den Ablagestapel."
            ),
            translation=(
                "After laying his combination the player must still hold at least one card of his "
                "own, otherwise laying a combination is not allowed! But no player may hold more "
                "than 8 ingredient cards in his hand either. A player who holds more than 8 "
                "ingredient cards must discard the surplus ones; they go to the discard pile."
            ),
            why_default=(
                "The sentences stand in the combination paragraph, after the picks and before "
                "'Danach gibt jeder Spieler seine Helferkarte ... weiter', and 'Allerdings ... auch' "
                "pairs the limit with the bound of 'Nach dem Ausspielen seiner Kombination' (at least "
                "one card): the two bound the hand after the combination step; the picking text, "
                "where a 9th card arrives, names no limit. 'Darf kein Spieler ... halten' names no "
                "moment, which is the other reading ('standing'); the text does not favour it, so "
                "the default stays."
            ),
        ),
    )
    DEFAULTS = {
        "players": 4,
        "max_turns": 200,
        "target": None,
        "hand_size": None,
        "cards": None,
        "henri_bonus": "always",
        "kept_card": "player_chooses",
        "etienne_swap": "any_decision",
        "tie_break_moment": "before_passing",
        "changed_value": "unbounded",
        "etienne_draw": "always",
        "hand_limit": "after_combination",
    }

    cards: List[List[int]]
    _names: Dict[str, List[int]]
    target: int
    hand_size: int
    #: MC-17: Henri's holder may bid without the +2 (``henri_bonus="optional"``)
    henri_optional: bool
    #: MC-23: the player chooses the kept cards of a set (``kept_card="player_chooses"``)
    kept_choice: bool
    #: MC-16: the phases in which Etienne's holder may swap (the reading ``etienne_swap``)
    etienne_phases: Tuple[str, ...]
    #: the same as a bit set of phase indices (``PHASES``), for the compiled engine
    etienne_phase_mask: int
    #: MC-25: a tie at the end goes by the helpers after the last pass (``tie_break_moment=
    #: "after_passing"``)
    tie_after_pass: bool
    #: MC-18, MC-19: the lowest and the highest value Mathieu's or Maurice's change may give
    #: (``changed_value="printed_range"``: the table's candy values; 0 and 13, no bound, else)
    change_lo: int
    change_hi: int
    #: MC-16: Etienne's holder may discard without drawing (``etienne_draw="optional"``)
    etienne_discards: bool
    #: MC-14: the hand limit stands at every moment: a pick that brings a 9th card is followed
    #: at once by the picker's discards (``hand_limit="standing"``)
    limit_standing: bool

    # -- facts other modules read (listed in the Game docstring) ---------------------------

    def max_game_length(self) -> int:
        """``max_turns`` counts rounds. A round: n bids, at most 2n picks, one Etienne swap,
        n combination steps and one hand-limit discard per seat (a hand holds at most 9
        cards at its combination step)."""
        return self.max_turns * (5 * self.num_players + 1)

    def greedy_value(self, state: "MausAuChocolatState", seat: int) -> float:
        """Victory points (MC-13), plus 0.05 per candy point held in the hand (cards held
        are future combinations, so the bot bids its lowest candy and picks its
        highest)."""
        d = state.to_dict()
        cards = d["params"]["cards"]
        vp = [float(s) for s in state.scores()]
        hand = d["hands"][seat] or []
        return self._lead(vp, seat) + 0.05 * float(sum(cards[c][1] for c in hand))

    def search_value(self, state: "MausAuChocolatState", seat: int) -> float:
        """``StrongBot``'s evaluation, as the core's ``evaluate``: per seat its victory points
        (MC-13) plus 0.05 per candy point in ITS hand (every seat's hand, where
        :meth:`greedy_value` counts the rated seat's alone), the seat's minus the best
        other's."""
        d = state.to_dict()
        cards = d["params"]["cards"]
        vals = [
            float(v) + 0.05 * float(sum(cards[c][1] for c in (hand or [])))
            for v, hand in zip(state.scores(), d["hands"])
        ]
        return self._lead(vals, seat)

    def _end_reason(self, d: Dict[str, Any]) -> str:
        if d["truncated"]:
            return super()._end_reason(d)
        return f"a seat reached {self.target} victory points, so that round was the last (MC-24)"

    def _score_breakdown(self, d: Dict[str, Any]) -> Optional[List[str]]:
        """MC-13 per seat: the cards it kept, and the helper whose rank breaks a tie (MC-25; the
        one it holds, or after the pass with ``tie_break_moment="after_passing"``)."""
        lines = []
        tie = _tie_helpers(d["helpers"], d["row"], self.tie_after_pass)
        when = " after the pass" if self.tie_after_pass else ""
        for q, vp in enumerate(d["vp"]):
            kept = " + ".join(self.card_name(c) for c in vp) or "no card kept"
            h = tie[q]
            lines.append(
                f"{kept} = {_score(vp, self.cards)} VP (MC-13); helper{when} {HELPERS[h]}, rank "
                f"{NUM_HELPERS - h} (a tie goes to the higher rank, MC-25)"
            )
        return lines

    def _settled(self, view: Dict[str, Any], p: int) -> Optional[Tuple[bool, str]]:
        """Victory points never go down (MC-12). Once the round is known to be the last (at
        its combination steps a seat has the target, MC-24, or it is the round ``max_turns``
        ends), a seat whose combination step is over keeps its points, and one still to come
        gains at most one combination (the most cards a pattern keeps, at the highest candy
        value); the helpers, and so the tie-break, stay as they are until the game ends
        (MC-15, MC-25). Seat ``p`` has lost once another seat is sure to rank above it, and
        has won once it is sure to rank above every other seat."""
        if view["phase"] not in ("combine", "discard") or self._picking(view):
            return None
        n, vp = self.num_players, [_score(v, self.cards) for v in view["vp"]]
        if max(vp) < self.target and view["round"] < min(self.max_turns, MAX_ROUNDS):
            return None
        order, turn = view["order"], view["turn"]
        to_come = set(order[turn + (1 if view["phase"] == "discard" else 0) :])
        gain = max(len(keep) for _, keep in PATTERNS) * max(c[1] for c in self.cards)
        # MC-25: the higher rank (the lower helper id) wins a tie (the helpers of tie_break_moment)
        rank = [-h for h in _tie_helpers(view["helpers"], view["row"], self.tie_after_pass)]
        low = [(vp[q], rank[q]) for q in range(n)]
        high = [(vp[q] + (gain if q in to_come else 0), rank[q]) for q in range(n)]
        last = (
            "a seat has reached the target, so this round is the last (MC-24)"
            if max(vp) >= self.target
            else "this round is the last (max_turns)"
        )
        return _api.settled_by_bounds(
            low,
            high,
            p,
            lost=lambda q: (
                f"{last}, and seat {q}'s {vp[q]} victory points rank above all seat {p} can still "
                f"reach ({high[p][0]}; ties by helper rank, MC-25)"
            ),
            won=f"{last}, and no other seat can still reach seat {p}'s {vp[p]} victory points (MC-25)",
        )

    def _play_help(self, view: Dict[str, Any], p: int) -> str:
        henri = (
            "Henri: your bid counts 2 coins more, if you choose ('bid X' or 'bid X without Henri')"
            if self.henri_optional
            else "Henri: your bid card always counts 2 coins more"
        )
        when = {
            ("bid", "pick", "combine"): "at your bid, a pick or your combination step",
            ("pick", "combine"): "at a pick or your combination step",
            ("bid", "pick", "combine", "discard"): "at your bid, a pick, your combination step or a hand-limit discard",
        }.get(tuple(self.etienne_phases), "at one of your decisions")
        kept = (
            "you choose which of a set's cards to keep"
            if self.kept_choice
            else "a set keeps its cards of the highest printed value"
        )
        limit = (
            [
                "  No hand ever holds more than 8 cards: a pick that brings a 9th card is followed at once",
                "  by discards down to 8 ('discard X'), before the next pick (MC-14).",
            ]
            if self.limit_standing
            else ["  Over 8 cards in hand after that, discard down to 8 (MC-14)."]
        )
        lines = [
            f"{self.title}: bid for cards, take them, lay runs and sets; kept cards are victory points (VP).",
            "A round (MC-5 to MC-15):",
            "- Bid: everyone lays one hand card face down, shown when all are in (MC-7). The most coins",
            "  (the 'c' of a card: eggs5/1c bids 1) picks first; ties go to the higher helper (MC-8).",
            "- Pick: in that order each seat takes two display cards, then its bid card goes into the",
            "  display for the seats after it (MC-9).",
            "- Combine: in helper order, highest rank first, each seat may lay one combination of three",
            "  cards, a run (4-5-6) or a set (5-5-5) of candy values, keeping a card in hand, or decline",
            "  (MC-10, MC-11). It keeps: a mixed run its lowest card, a run of one ingredient its highest,",
            "  a mixed set one card, a set of one ingredient two; the rest is discarded (MC-12);",
            f"  {kept} (MC-23).",
            *limit,
            "- Then each helper passes one seat on (seat 0's to the helper row, whose first goes to seat 1)",
            "  (MC-15).",
            "Helpers, by rank; each power once a round (MC-16 to MC-22):",
            "  7 Etienne: discard a hand card and draw the top card of the draw pile ('swap X'),",
            f"    {when}.",
            f"  6 {henri}.",
            "  5 Mathieu: one card of your combination counts 1 lower.",
            "  4 Maurice: one card of your combination counts 1 higher.",
            "  3 Lilly: a mixed run keeps its highest card, like a run of one ingredient.",
            "  2 Amélie: your combination may have four cards, and keeps one card more (the lowest left).",
            "  1 Claude: one card of your combination counts as another ingredient.",
            f"The end: after the round in which a seat reaches {self.target} VP; the most VP wins, a tie goes to",
            "the higher helper (MC-24, MC-25).",
            f"You hold {HELPERS[view['helpers'][p]]} (rank {NUM_HELPERS - view['helpers'][p]}) this round.",
            "Moves: 'bid eggs5/1c', 'pick nuts7/6c', 'swap eggs5/1c', 'decline', 'discard sugar3/1c',",
            "'combine eggs4/6c eggs5/4c eggs6/5c keep eggs6/5c', or as 'moves' lists them.",
        ]
        return "\n".join(lines)

    def _configure(self, params: Dict[str, Any]) -> Dict[str, Any]:
        n = self.num_players
        cards = default_cards() if params["cards"] is None else params["cards"]
        if not isinstance(cards, (list, tuple)) or len(cards) != NUM_CARDS:
            raise ParameterError(
                f"maus_au_chocolat: cards must be a list of {NUM_CARDS} [ingredient, candy, coin] (MC-1)"
            )
        out_cards = []
        for i, c in enumerate(cards):
            if (
                not isinstance(c, (list, tuple))
                or len(c) != 3
                or not all(is_int(x) for x in c)
                or not 0 <= c[0] < NUM_COLOURS
                or not 1 <= c[1] <= 12
                or not 0 <= c[2] <= 20
            ):
                raise ParameterError(
                    f"maus_au_chocolat: cards[{i}] must be [ingredient 0..4, candy 1..12, coin 0..20], "
                    f"got {shorten(c)} (MC-1)"
                )
            out_cards.append([int(c[0]), int(c[1]), int(c[2])])
        target = DEFAULT["target"] if params["target"] is None else params["target"]
        target = _api.int_param("maus_au_chocolat", target, "target (MC-24)", 1, 1000)
        hs = DEFAULT["hand_size"] if params["hand_size"] is None else params["hand_size"]
        hs = _api.int_param("maus_au_chocolat", hs, "hand_size (MC-3)", 1, HAND_LIMIT)
        if n * hs + n + 1 > NUM_CARDS:  # pragma: no cover - impossible with 6 players
            raise ParameterError("maus_au_chocolat: not enough cards to deal")
        self.cards = out_cards
        self._names = _names(out_cards)
        self.target = target
        self.hand_size = hs
        self.henri_optional = params["henri_bonus"] == "optional"  # MC-17 (validated by Game)
        self.kept_choice = params["kept_card"] == "player_chooses"  # MC-23 (validated by Game)
        self.etienne_phases = ETIENNE_SWAP_PHASES[params["etienne_swap"]]  # MC-16 (validated by Game)
        self.etienne_phase_mask = sum(1 << PHASES.index(ph) for ph in self.etienne_phases)
        self.tie_after_pass = params["tie_break_moment"] == "after_passing"  # MC-25 (validated by Game)
        in_range = params["changed_value"] == "printed_range"  # MC-18, MC-19 (validated by Game)
        self.change_lo = min(c[1] for c in out_cards) if in_range else 0
        self.change_hi = max(c[1] for c in out_cards) if in_range else 13
        self.etienne_discards = params["etienne_draw"] == "optional"  # MC-16 (validated by Game)
        self.limit_standing = params["hand_limit"] == "standing"  # MC-14 (validated by Game)
        self.num_actions = NUM_ACTIONS + (NUM_CARDS if self.henri_optional else 0)
        # observation layout (docs): 4 card planes, 3 card planes per seat, then scalars
        self.obs_card_planes = 4 + 3 * n
        self.observation_shape = (self.obs_card_planes * NUM_CARDS + 4 * n + 7 * n + 49 + 1 + 5 + n + 3,)
        return {
            "target": target,
            "hand_size": hs,
            "cards": [list(c) for c in out_cards],
        }

    # -- encoding ----------------------------------------------------------------------

    def card_name(self, c: int) -> str:
        return card_name(c, self.cards)

    def card_token(self, c: int) -> str:
        """How the readable notation writes card ``c``: its name (``fruit3/3c``), with
        ``#id`` added when the game's card table gives another card the same name."""
        name = card_name(c, self.cards)
        return name if len(self._card_names()[name]) == 1 else f"{name}#{c}"

    def _card_names(self) -> Dict[str, List[int]]:
        return self._names

    def parse_move(self, text: str) -> MCMove:
        """Read a move written as ``str(move)`` (``'bid 17 (fruit3/3c)'``, ``'decline'``,
        ``'combine 0,2,5 keep 5'``) or a card move by card name (``'pick eggs4/4c'``, names of
        this game's card table). Raises ``ValueError`` naming the notation; combinations by
        card name need a state: ``state.parse_action``.

        >>> MausAuChocolat(engine="python").parse_move("bid fruit3/3c")
        MCBid(card=17)
        """
        return _parse_tokens(_tokens(text), text, self.cards, self._card_names())

    def action_to_move(self, action: SupportsIndex) -> MCMove:
        a = _api.check_action_type(action)
        if not 0 <= a < self.num_actions:
            raise IllegalMoveError(f"action {shorten(a)} is out of range 0..{self.num_actions - 1}")
        if a < DECLINE:
            return (MCBid, MCPick, MCDiscard, MCSwap)[a // NUM_CARDS](a % NUM_CARDS)
        if a == DECLINE:
            return MCDecline()
        if a >= BID_PLAIN:  # MC-17: only in the action space of henri_bonus="optional"
            return MCBidWithoutHenri(a - BID_PLAIN)
        slots, keep = PATTERNS[a - COMBINE]
        return MCCombine(slots, keep)

    def move_to_action(self, move: _api.Move) -> int:
        if isinstance(move, (MCBid, MCPick, MCDiscard, MCSwap)):
            c = move.card
            if not is_int(c) or not 0 <= c < NUM_CARDS:
                raise IllegalMoveError(f"MC-1: card ids are 0..{NUM_CARDS - 1}, got {shorten(c)}")
            base = {MCBid: BID, MCPick: PICK, MCDiscard: DISCARD, MCSwap: SWAP}[type(move)]
            return base + c
        if isinstance(move, MCDecline):
            return DECLINE
        if isinstance(move, MCBidWithoutHenri):
            c = move.card
            if not is_int(c) or not 0 <= c < NUM_CARDS:
                raise IllegalMoveError(f"MC-1: card ids are 0..{NUM_CARDS - 1}, got {shorten(c)}")
            if not self.henri_optional:
                raise IllegalMoveError(f"MC-17: {move}: Henri's +2 always applies in this game (henri_bonus='always')")
            return BID_PLAIN + c
        if isinstance(move, MCCombine):
            key = (tuple(move.slots), tuple(move.keep))
            if key not in PATTERN_INDEX:
                raise IllegalMoveError(
                    f"MC-10/MC-12: {move} is not a combination pattern (3 or 4 distinct ascending slots 0..8, "
                    "keeping 1-2 of three or 2-3 of four)"
                )
            return COMBINE + PATTERN_INDEX[key]
        raise TypeError(
            f"maus_au_chocolat takes MCBid/MCBidWithoutHenri/MCPick/MCDiscard/MCSwap/MCDecline/MCCombine moves, "
            f"not {type(move).__name__}"
        )

    # -- engine-neutral parts ----------------------------------------------------------

    def _validate_dict(self, d: Dict[str, Any]) -> None:
        """Refuse (StateError naming the key or the rule) every dict that is not a state of
        this game: wrong types anywhere (a bool is not an int), broken card conservation
        (MC-28), or a phase whose seat, order, picks and hands do not fit together. Each
        checker names the rules it checks; they run in this order (the first broken rule is
        the one reported)."""
        self._check_types(d)
        self._check_cards(d)
        self._check_what_is_seen(d)
        scores = [_score(v, self.cards) for v in d["vp"]]
        self._check_turn_order(d, scores)
        phase, picking = d["phase"], self._picking(d)
        if phase == "bid":
            self._check_bid_phase(d)
        elif picking:
            self._check_pick_phase(d)
        else:
            expect(
                all(b < 0 for b in d["bids"]),
                "MC-9: bid cards lie on the table only in the bid and pick phases"
                + (" (MC-14: a discard phase during the picks is hand_limit='standing')" if phase == "discard" else ""),
            )
        if phase in ("combine", "discard") and not picking:
            self._check_combine_phase(d, scores)
        self._check_game_end(d, scores)
        _check_history(
            d,
            d["history"],
            self.num_players,
            self.etienne_phases,  # the log against the position
            self.etienne_discards,
            self.limit_standing,
        )
        _check_display_kept(d, d["history"], picking)

    def _picking(self, d: Dict[str, Any]) -> bool:
        """Whether the position (a state dict or a view) is in the picks (MC-9): the pick phase,
        or with ``hand_limit="standing"`` (MC-14) the discards that follow a pick (the only
        discards of that reading: no hand reaches a combination step above 8 cards)."""
        return d["phase"] == "pick" or (d["phase"] == "discard" and self.limit_standing)

    def _check_types(self, d: Dict[str, Any]) -> None:
        """The type and range of every key (a bool is not an int); MC-6: pools stay below
        ``2 * round``."""
        n = self.num_players
        rnd = d["round"]
        last = min(self.max_turns, MAX_ROUNDS)
        # (each message is built only when it is raised: these run on every load)
        if not (is_int(rnd) and 1 <= rnd <= last):
            raise StateError(f"'round' must be an int from 1 to {last} (max_turns), got {shorten(rnd)}")
        phase = d["phase"]
        if not (isinstance(phase, str) and phase in PHASES):
            raise StateError(f"'phase' must be one of {', '.join(PHASES)}, got {shorten(phase)}")
        for key in ("pile", "display", "discard"):
            int_list(d[key], None, f"'{key}'", 0, NUM_CARDS - 1)
        for key in ("hands", "known", "vp"):
            expect(isinstance(d[key], list) and len(d[key]) == n, f"'{key}' must be a list of {n} lists (one per seat)")
        for key in ("hands", "known", "vp"):
            for q, h in enumerate(d[key]):
                int_list(h, None, f"'{key}'[{q}]", 0, NUM_CARDS - 1)
        # MC-6: a round reshuffles at most twice (Etienne's draw, the refill), and each
        # reshuffle numbers its pool one above the highest: pools stay below 2 * round
        int_list(d["pools"], NUM_CARDS, "'pools' (MC-6: at most two reshuffles a round)", 0, 2 * rnd)
        int_list(d["bids"], n, "'bids'", -1, NUM_CARDS - 1)
        int_list(d["helpers"], n, "'helpers'", 0, NUM_HELPERS - 1)
        int_list(d["row"], NUM_HELPERS - n, "'row'", 0, NUM_HELPERS - 1)
        int_list(d["order"], None, "'order'", 0, n - 1)
        for key in ("turn", "picks_left"):
            if not is_int(d[key]):
                raise StateError(f"'{key}' must be an int, got {shorten(d[key])}")
        for key in ("etienne_used", "truncated"):
            if not isinstance(d[key], bool):
                raise StateError(f"'{key}' must be True or False, got {shorten(d[key])}")
        int_list(d["history"], None, "'history'", 0, self.num_actions - 1)

    def _check_cards(self, d: Dict[str, Any]) -> None:
        """MC-28: each card is in exactly one place; MC-5/MC-9: the display's size; MC-4:
        each helper is once with a seat or in the row."""
        n, display, bids = self.num_players, d["display"], d["bids"]
        for name, xs in [("'display'", display), ("'discard'", d["discard"])] + [
            (f"'{key}'[{q}]", d[key][q]) for key in ("hands", "known", "vp") for q in range(n)
        ]:
            expect(xs == sorted(set(xs)), f"{name} must be sorted ascending without repeats")
        everything = (
            d["pile"] + display + d["discard"] + [b for b in bids if b >= 0] + sum(d["hands"], []) + sum(d["vp"], [])
        )
        expect(
            sorted(everything) == list(range(NUM_CARDS)),
            f"MC-28: the pile, display, discard, hands, bids and victory cards must hold each of the "
            f"{NUM_CARDS} cards exactly once (they hold {len(everything)} entries)",
        )
        expect(len(display) <= n + 1, f"MC-5/MC-9: the display holds at most n + 1 = {n + 1} cards, not {len(display)}")
        expect(
            sorted(d["helpers"] + d["row"]) == list(range(NUM_HELPERS)),
            "MC-4: 'helpers' and 'row' must hold the 7 helpers once each",
        )

    def _check_what_is_seen(self, d: Dict[str, Any]) -> None:
        """MC-26: the known cards are in their seat's hand (or its bid); MC-26, MC-6: only
        unseen cards belong to a pool, and the pile is the newest pool."""
        bidding, bids, pools = d["phase"] == "bid", d["bids"], d["pools"]
        for q in range(self.num_players):
            mine = d["hands"][q] + ([bids[q]] if bidding and bids[q] >= 0 else [])
            expect(
                set(d["known"][q]) <= set(mine),
                f"MC-26: 'known'[{q}] lists cards seen entering seat {q}'s hand; it must be part of 'hands'[{q}]"
                + (" (or the bid just laid)" if bidding else ""),
            )
        seen = (
            d["display"]
            + d["discard"]
            + sum(d["vp"], [])
            + sum(d["known"], [])
            + ([] if bidding else [b for b in bids if b >= 0])
        )
        for c in seen:
            expect(pools[c] == 0, f"MC-26: 'pools'[{c}] must be 0: card {c} is face up or known")
        top = max(pools)
        for c in d["pile"]:
            expect(
                pools[c] == top,
                f"MC-6: the draw pile holds only the newest pool of unseen cards ('pools'[{c}] "
                f"is {pools[c]}, not {top})",
            )

    def _check_turn_order(self, d: Dict[str, Any], scores: List[int]) -> None:
        """MC-16: Etienne's swap; the order of play and its turn; MC-9: picks only in the
        pick phase; MC-24: nobody has reached the target while bids and picks go on."""
        n, phase, order, turn, picks_left = self.num_players, d["phase"], d["order"], d["turn"], d["picks_left"]
        expect(
            not d["etienne_used"] or ETIENNE in d["helpers"], "MC-16: 'etienne_used' is set but nobody holds Etienne"
        )
        if phase in ("bid", "over"):
            expect(
                order == [] and turn == 0 and picks_left == 0,
                f"'order' must be [] and 'turn', 'picks_left' 0 in the {phase} phase",
            )
        else:
            expect(sorted(order) == list(range(n)), "'order' must list every seat once")
            expect(0 <= turn < n, f"'turn' must index 'order' (0..{n - 1}), got {turn}")
        if phase != "pick":
            expect(picks_left == 0, "MC-9: 'picks_left' is 0 outside the pick phase")
        if phase == "bid" or self._picking(d):
            expect(
                max(scores) < self.target,
                f"MC-24: a seat has {max(scores)} victory points (target {self.target}): the game ended with its round",
            )

    def _check_bid_phase(self, d: Dict[str, Any]) -> None:
        """MC-7, MC-27: bids committed in seat order and not yet revealed; MC-7/MC-14: hand
        sizes; MC-16: Etienne's holder swaps at most once, before its own bid."""
        n, bids, hands, history, helpers = self.num_players, d["bids"], d["hands"], d["history"], d["helpers"]
        committed = [b >= 0 for b in bids]
        k = committed.count(True)
        expect(k < n, "MC-7: the bids are revealed as soon as the last one is in; 'phase' cannot be bid")
        expect(
            committed == [True] * k + [False] * (n - k),
            "MC-27: seats commit their bids in seat order (the lowest seat without a bid is to move)",
        )
        for q in range(n):
            lo, hi = (0, HAND_LIMIT - 1) if committed[q] else (1, HAND_LIMIT)
            expect(
                lo <= len(hands[q]) <= hi,
                f"MC-7/MC-14: seat {q} holds {len(hands[q])} cards in the bid phase ({lo}..{hi} possible)",
            )
        bid_at, swap_at = _bid_phase_actions(history)
        first = bid_at[0] if bid_at else len(history)
        if (
            self.etienne_discards
            and d["etienne_used"]
            and not swap_at
            and helpers[0] == ETIENNE
            and first > 0
            and DISCARD <= (history[first - 1] or 0) < SWAP
        ):
            swap_at = [first - 1]  # MC-16: seat 0's discard without a draw before its bid
        expect(
            [_bid_card(history[i]) for i in bid_at] == bids[:k],
            "MC-27: 'history' must end with this round's bids ('bids'), in seat order",
        )
        for q, i in enumerate(bid_at):
            expect(
                history[i] < BID_PLAIN or helpers[q] == HENRI,
                f"MC-17: seat {q} bids without Henri ('history'[{i}]) but holds {HELPERS[helpers[q]]}",
            )
        expect(
            len(swap_at) == int(d["etienne_used"]),
            "MC-16: 'etienne_used' must say whether this round's bid actions in 'history' hold a swap",
        )
        if swap_at:
            expect(
                "bid" in self.etienne_phases,
                f"MC-16: with etienne_swap={self.params['etienne_swap']!r} Etienne's holder does not swap "
                "at the bid ('history' ends with a swap among this round's bids)",
            )
            before = sum(1 for i in bid_at if i < swap_at[0])
            expect(helpers.index(ETIENNE) == before, "MC-16: only Etienne's holder swaps, before its own bid")

    def _check_pick_phase(self, d: Dict[str, Any]) -> None:
        """MC-9: one or two picks from the display, by the seats with a bid on the table;
        MC-8: in the order of their bids' coins; MC-9/MC-14: hand sizes (with
        ``hand_limit="standing"`` a seat that has picked holds at most 8, and the discard phase
        is the picker's, above 8 cards, its bid card still on the table)."""
        order, turn, picks_left, bids, hands = d["order"], d["turn"], d["picks_left"], d["bids"], d["hands"]
        if d["phase"] == "discard":  # MC-14 (hand_limit="standing"; 'picks_left' is 0: checked before)
            expect(
                len(hands[order[turn]]) > HAND_LIMIT, f"MC-14: the discard phase is for a hand above {HAND_LIMIT} cards"
            )
        else:
            expect(
                1 <= picks_left <= min(2, len(d["display"])),
                f"MC-9: the picker takes 1 or 2 cards that lie in the display; 'picks_left' is {picks_left}",
            )
        for i, q in enumerate(order):
            expect(
                (bids[q] >= 0) == (i >= turn),
                "MC-9: the seats still to pick (order[turn:]) and only they have a bid card on the table",
            )
        rest = order[turn:]
        offs = [False]
        if self.henri_optional:  # MC-17: with or without Henri, as this round's bid in 'history' says
            acts = [a for a in d["history"] if _bid_card(a) >= 0][-self.num_players :]
            h = d["helpers"].index(HENRI) if HENRI in d["helpers"] else -1
            offs = (
                [acts[h] >= BID_PLAIN] if h >= 0 and len(acts) == self.num_players else [False, True]
            )  # a position set up without its history: either
        expect(
            any(
                rest == sorted(rest, key=lambda q: _bid_key(bids[q], d["helpers"][q], self.cards, off)) for off in offs
            ),
            "MC-8: the seats still to pick must follow the coins of their bids (Henri +2), ties by helper rank",
        )
        done = HAND_LIMIT if self.limit_standing else MAX_SLOTS  # MC-14: after its picks
        for i, q in enumerate(order):
            room = MAX_SLOTS - picks_left if i == turn else MAX_SLOTS - 2 if i > turn else done
            expect(len(hands[q]) <= room, f"MC-9/MC-14: seat {q} holds {len(hands[q])} cards; at most {room} here")

    def _check_combine_phase(self, d: Dict[str, Any], scores: List[int]) -> None:
        """MC-10: combinations in helper-rank order; MC-14: hand limits and the discard
        phase; MC-24: nobody reached the target before its combination step."""
        order, turn, phase, hands = d["order"], d["turn"], d["phase"], d["hands"]
        expect(order == _helper_order(d["helpers"]), "MC-10: the combination order follows the helper ranks")
        for i, q in enumerate(order):
            done = i < turn or (i == turn and phase == "discard")
            limit = HAND_LIMIT if i < turn or self.limit_standing else MAX_SLOTS  # (MC-14, hand_limit)
            expect(len(hands[q]) <= limit, f"MC-14: seat {q} holds {len(hands[q])} cards (at most {limit} here)")
            expect(
                done or scores[q] < self.target,
                f"MC-24: seat {q} reached the target before its combination step: the game would be over",
            )
        if phase == "discard":
            expect(
                len(hands[order[turn]]) > HAND_LIMIT, f"MC-14: the discard phase is for a hand above {HAND_LIMIT} cards"
            )

    def _check_game_end(self, d: Dict[str, Any], scores: List[int]) -> None:
        """MC-24: the game is over once a seat reaches the target (or max_turns rounds are
        played: truncated); MC-14: hand limits at the end."""
        if d["phase"] != "over":
            expect(not d["truncated"], "'truncated' is only set when the game is over")
            return
        for q in range(self.num_players):
            hand = d["hands"][q]
            expect(len(hand) <= HAND_LIMIT, f"MC-14: seat {q} holds {len(hand)} cards at the end")
        if d["truncated"]:
            expect(
                d["round"] == min(self.max_turns, MAX_ROUNDS) and max(scores) < self.target,
                "'truncated' means max_turns rounds were played without anyone reaching the target (MC-24)",
            )
        else:
            expect(max(scores) >= self.target, f"MC-24: the game is over only once a seat has {self.target} points")

    def _redact(self, d: Dict[str, Any], p: int) -> Dict[str, Any]:
        """Seat ``p``'s view (MC-26): what the table saw and p's own cards, nothing more."""
        n = self.num_players
        bidding = d["phase"] == "bid"
        hands, known, bids, pools = d["hands"], d["known"], d["bids"], d["pools"]
        d["hand_sizes"] = [len(h) for h in hands]
        d["committed"] = [b >= 0 for b in bids]
        # the pools of each seat's unseen cards (its hidden bid included: which card it bid
        # stays hidden, also when it was a known card, which 'known' keeps listing)
        d["unseen_pools"] = [
            sorted(pools[c] for c in hands[q] + ([bids[q]] if bidding and bids[q] >= 0 else []) if c not in known[q])
            for q in range(n)
        ]
        d["hands"] = [h if q == p else None for q, h in enumerate(hands)]
        history = d["history"]
        if bidding:  # MC-7, MC-27: the others' bids (and their actions) stay face down
            bid_at, _ = _bid_phase_actions(history)
            for q, i in enumerate(bid_at):
                if q != p:
                    history[i] = None
            d["bids"] = [b if q == p or b < 0 else None for q, b in enumerate(bids)]
        # A combination action names hand slots, and slots tell the card-id order inside a
        # hidden hand: history shows None for every combination (the laid and kept cards
        # are face up in the victory cards and the discard pile).
        d["history"] = [None if a is not None and COMBINE <= a < BID_PLAIN else a for a in history]
        d["pile_size"] = len(d["pile"])
        d["pile"] = None
        d["rng"] = None
        return d

    def _describe_seen(self, before: Dict[str, Any], after: Dict[str, Any], action: Optional[int]) -> str:
        """MC-26 in words: the step between two views of seat ``before["view"]``."""
        p, n = before["view"], self.num_players
        phase = before["phase"]
        expect(phase in PHASES[:4], f"MC-26: no move is made in phase {shorten(phase)}")
        mover = before["committed"].index(False) if phase == "bid" else before["order"][before["turn"]]
        if phase == "bid" and (action is None or _bid_card(action) >= 0) and mover != p:
            text = f"seat {mover} bids face down"  # MC-7: face down until all are in
        elif action is not None:
            mv = self.action_to_move(action)
            expect(not isinstance(mv, MCCombine), "MC-26: a view hides every combination in its history")
            text = _describe_card_move(self, mover, mv)
        else:  # a combination (its int names hand slots): the cards it laid face up (MC-12)
            expect(phase == "combine", "MC-26: a view hides only bids and combinations")
            kept = _minus(after["vp"][mover], before["vp"][mover])
            if mover == p:
                laid: Optional[List[int]] = _minus(before["hands"][p], after["hands"][p])
            elif set(before["discard"]) <= set(after["discard"]):
                laid = sorted(kept + _minus(after["discard"], before["discard"]))
            else:  # MC-6: the round's refill shuffled the discards (these too) into a new pile
                laid = None
            keeps = " ".join(self.card_token(c) for c in kept)
            if laid is None:
                count = before["hand_sizes"][mover] - after["hand_sizes"][mover]
                text = f"seat {mover} combines {count} cards, keeps {keeps} (the others were reshuffled into the pile)"
            else:
                text = f"seat {mover} combines {' '.join(self.card_token(c) for c in laid)}, keeps {keeps}"
        if phase == "bid" and after["phase"] != "bid":  # MC-7: all bids revealed at once
            bid_at, _ = _bid_phase_actions(after["history"], n)
            shown = [after["history"][i] for i in bid_at]
            expect(len(shown) == n and all(a is not None for a in shown), "MC-7: the revealed bids are in the history")
            text += "; bids revealed: " + ", ".join(
                f"seat {q} {self.card_token(_bid_card(a))}" + (" without Henri" if a >= BID_PLAIN else "")
                for q, a in enumerate(shown)
            )
        return text

    def _determinize(self, view: Dict[str, Any], p: int, rng: Rng) -> Dict[str, Any]:
        """A full state from seat ``p``'s view alone (MC-26): the cards p cannot see are
        grouped by pool, each group (sorted) shuffled and dealt: to each other seat as many
        cards of each pool as it holds unseen, one card of each hidden bidder's cards becomes
        its bid, the rest of the newest pool is the pile. Hidden history entries become
        ``BID + card`` (a bid) or the first combination pattern. With ``henri_bonus="optional"``
        a hidden bid of Henri's holder is made without Henri when a draw of ``rng.below(2)``
        (right after its card is drawn) gives 1 (MC-17: nobody else knows)."""
        n = self.num_players
        d = dict(view)
        for key in ("hand_sizes", "committed", "unseen_pools", "pile_size"):
            del d[key]
        bids, hands, known, pools = d["bids"], d["hands"], d["known"], d["pools"]
        plain = [False] * n
        expect(
            isinstance(pools, list) and len(pools) == NUM_CARDS, "'pools' must list the pool of each of the 80 cards"
        )
        visible: Set[int] = set(d["display"]) | set(d["discard"]) | set(hands[p])
        for q in range(n):
            visible |= set(d["vp"][q])
            if q != p:
                visible |= set(known[q])
            if bids[q] is not None and bids[q] >= 0:
                visible.add(bids[q])
        groups: Dict[int, List[int]] = {}
        for c in range(NUM_CARDS):
            if c not in visible:
                groups.setdefault(pools[c], []).append(c)
        for t in sorted(groups):
            rng.shuffle(groups[t])
        for q in range(n):
            if q == p:
                continue
            drawn = [groups[t].pop() for t in sorted(view["unseen_pools"][q])]
            mine = sorted(list(known[q]) + drawn)
            if bids[q] is None:  # a hidden bid: one of the seat's cards
                expect(len(mine) > 0, f"view: seat {q} has a hidden bid but no card")
                bids[q] = mine.pop(rng.below(len(mine)))
                if self.henri_optional and d["helpers"][q] == HENRI:  # MC-17: with or without Henri
                    plain[q] = rng.below(2) == 1
            hands[q] = mine
        top = max(pools)
        expect(
            all(not cs for t, cs in groups.items() if t != top),
            "view: unseen cards of an older pool are left over, but the pile is the newest pool (MC-6)",
        )
        d["pile"] = groups.get(top, [])
        history = list(d["history"])
        if d["phase"] == "bid":
            k = sum(1 for b in bids if b >= 0)
            bid_at, _ = _bid_phase_actions(history, k)
            for q, i in enumerate(bid_at):
                if history[i] is None:
                    history[i] = (BID_PLAIN if plain[q] else BID) + bids[q]
        d["history"] = [COMBINE if a is None else a for a in history]
        d["rng"] = rng.next64()
        return d

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
        """The text diagram of a full state dict, or of seat ``p``'s view
        (``state.to_dict(for_player=p)``, MC-26) under a first line naming the seat: the
        view shows the pile by its size, another seat's hand as the cards the table saw it
        take (``known``) and a ``?`` per card it holds unseen, and a face-down bid as ``?``
        (MC-7); while that bid is face down, the known cards may be in the hand or be the bid."""
        n = self.num_players
        cards = self.cards
        seat = d.get("view")

        def name(c: int) -> str:
            return card_name(c, cards)

        if seat is not None and d["phase"] == "bid":  # a view hides the others' bids (MC-27)
            cur = d["committed"].index(False)
        else:
            cur = _current(d, n)
        who = "game over" if cur == _api.TERMINAL else f"seat {cur} to play"
        pile = len(d["pile"]) if seat is None else d["pile_size"]
        lines = (
            []
            if seat is None
            else [f"seat {seat}'s view: '?' is a card it cannot see (the other hands and face-down bids, MC-26)"]
        )
        lines += [
            f"round {d['round']}, phase {d['phase']}, {who}; draw pile {pile}, discard {len(d['discard'])}",
            "display: " + (" ".join(name(c) for c in d["display"]) or "-"),
            "helper row: "
            + " ".join(HELPERS[h] for h in d["row"])
            + ("; Etienne used this round (MC-16)" if d["etienne_used"] else ""),
        ]
        if d["phase"] in ("pick", "combine", "discard"):  # whose turn comes when (MC-8, MC-10)
            now = {"pick": f"picking, {d['picks_left']} left", "combine": "now", "discard": "discarding"}[d["phase"]]
            marks = [
                f"{q} (done)" if i < d["turn"] else f"{q} ({now})" if i == d["turn"] else str(q)
                for i, q in enumerate(d["order"])
            ]
            what = "pick order (MC-8)" if self._picking(d) else "combination order (MC-10)"  # (MC-14, hand_limit)
            lines.append(f"{what}: seats " + ", ".join(marks))
        for q in range(n):
            bid = d["bids"][q]
            hand = d["hands"][q]
            if hand is None:  # MC-26: another seat's hand in a view
                known = d["known"][q]
                if bid is None:  # MC-7: its bid lies face down, maybe one of the known cards
                    shown = ["?"] * d["hand_sizes"][q]
                    extra = "; bid ?" + (
                        "; known among hand and bid: " + " ".join(name(c) for c in known) if known else ""
                    )
                else:
                    shown = [name(c) for c in known] + ["?"] * (d["hand_sizes"][q] - len(known))
                    extra = f"; bid {name(bid)}" if bid >= 0 else ""
            else:
                shown = [name(c) for c in hand]
                extra = f"; bid {name(bid)}" if bid >= 0 else ""
            lines.append(
                f"seat {q} [{HELPERS[d['helpers'][q]]}] {_score(d['vp'][q], cards)} VP: hand " + " ".join(shown) + extra
            )
        lines.append(
            "legend: a card is ingredient, candy value and coins: eggs5/1c scores 5 kept as a victory "
            "point (MC-13) and bids 1 coin (MC-8); [Henri] the seat's helper (MC-2); the first to "
            f"{self.target} VP ends the game with that round (MC-24)"
        )
        return "\n".join(lines)

    def _explain_illegal(self, state: _api.StateAPI[Any], action: Any) -> str:
        a = _api.check_action_type(action)
        d = state._to_dict()
        n = self.num_players
        if d["phase"] == "over":
            return f"MC-24: the game is over; action {a} cannot be applied"
        if not 0 <= a < self.num_actions:
            return f"action {shorten(a)} is out of range 0..{self.num_actions - 1}"
        p = _current(d, n)
        phase = d["phase"]
        c = a % NUM_CARDS
        if SWAP <= a < DECLINE:
            return self._why_no_swap(d, p, c)
        if a >= BID_PLAIN:  # MC-17
            if phase != "bid":
                return f"MC-7: a bid without Henri is made in the bid phase; the phase is {phase}"
            if d["helpers"][p] != HENRI:
                return f"MC-17: only Henri's holder may bid without Henri; seat {p} holds {HELPERS[d['helpers'][p]]}"
            return f"MC-7: seat {p} does not hold card {c} ({self.card_name(c)})"
        want = {
            "bid": "MC-7: every seat bids one hand card now",
            "pick": "MC-9: the picker takes cards from the display now",
            "combine": "MC-10: the current seat lays a combination or declines now",
            "discard": "MC-14: the current seat discards down to 8 cards now",
        }[phase]
        if a < PICK:
            if phase != "bid":
                return f"{want}, not a bid"
            return f"MC-7: seat {p} does not hold card {c} ({self.card_name(c)})"
        if a < DISCARD:
            if phase != "pick":
                return f"{want}, not a pick"
            return f"MC-9: card {c} ({self.card_name(c)}) is not in the display"
        if a < SWAP:
            return self._why_no_discard(d, p, c, want)
        if phase != "combine":
            return f"{want}, not a combination step"
        assert a > DECLINE  # decline is always legal in the combine phase
        return self._why_no_combination(d, p, a)

    def _why_no_discard(self, d: Dict[str, Any], p: int, c: int, want: str) -> str:
        """MC-14, MC-16: why seat ``p`` may not discard card ``c`` now (``want``: what the
        phase asks for)."""
        phase = d["phase"]
        if phase != "discard" and self.etienne_discards and d["helpers"][p] == ETIENNE:  # MC-16
            if not d["etienne_used"] and phase in self.etienne_phases and len(d["hands"][p]) < 2:
                return "MC-16: Etienne's holder discards without a draw only while he holds two cards or more"
            return self._why_no_swap(d, p, c)
        if phase != "discard":
            return f"{want}, not a discard (MC-14 applies only above {HAND_LIMIT} cards)"
        return f"MC-14: seat {p} does not hold card {c} ({self.card_name(c)})"

    def _why_no_swap(self, d: Dict[str, Any], p: int, c: int) -> str:
        """MC-16: why seat ``p`` may not swap card ``c`` now."""
        if d["helpers"][p] != ETIENNE:
            return f"MC-16: only Etienne's holder may swap; seat {p} holds {HELPERS[d['helpers'][p]]}"
        if d["etienne_used"]:
            return "MC-16: Etienne's swap was already used this round"
        if d["phase"] not in self.etienne_phases:
            if self.params["etienne_swap"] == "any_decision":
                return (
                    "MC-16: Etienne swaps before bidding, before a pick or before the combination step, "
                    "not while discarding"
                )
            when = {
                "picks_and_combination": "before a pick or before the combination step",
                "also_hand_limit": "at any decision",
            }[self.params["etienne_swap"]]
            return (
                f"MC-16: with etienne_swap={self.params['etienne_swap']!r} Etienne swaps {when}, "
                f"not in the {d['phase']} phase"
            )
        return f"MC-16: seat {p} does not hold card {c} ({self.card_name(c)})"

    def _why_no_combination(self, d: Dict[str, Any], p: int, a: int) -> str:
        """MC-10 .. MC-23: why seat ``p`` may not lay combination action ``a`` now."""
        hand = d["hands"][p]
        slots, keep = PATTERNS[a - COMBINE]
        helper = d["helpers"][p]
        if max(slots) >= len(hand):
            return f"MC-10: seat {p} holds only {len(hand)} cards (slots 0..{len(hand) - 1})"
        if len(slots) == 4 and helper != AMELIE:
            return "MC-21: only Amélie's holder may lay four cards"
        if len(hand) - len(slots) < 1:
            return "MC-11: after laying a combination the player must still hold at least one card"
        cards = [hand[i] for i in slots]
        outs = combination_outcomes(
            cards, self.cards, helper, kept_card=self.params["kept_card"], changed_value=self.params["changed_value"]
        )
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
        return _api.TERMINAL
    if d["phase"] == "bid":
        return min(q for q in range(n) if d["bids"][q] < 0)
    return int(d["order"][d["turn"]])


def _bid_phase_actions(history: Sequence[Optional[int]], k: Optional[int] = None) -> Tuple[List[int], List[int]]:
    """During a bid phase: the positions in ``history`` of this round's bids (seat 0's first;
    ``None`` stands for a hidden bid in a view) and of its Etienne swap: the actions after
    the last pick, discard or combination step. A discard right after a bid is Etienne's
    discard without a draw (MC-16, ``etienne_draw="optional"``), counted with the swaps; one
    before seat 0's bid cannot be told from the last round's hand-limit discard here
    (``_check_bid_phase`` decides by ``etienne_used``). With ``k`` (a view, where ``None`` may
    also be an earlier combination) the scan stops after ``k`` bids."""
    bid_at: List[int] = []
    swap_at: List[int] = []
    i = len(history)
    while i > 0 and (k is None or len(bid_at) < k):
        a = history[i - 1]
        if a is None or _bid_card(a) >= 0:
            bid_at.append(i - 1)
        elif SWAP <= a < DECLINE or (
            DISCARD <= a < SWAP and i > 1 and (history[i - 2] is None or _bid_card(history[i - 2]) >= 0)
        ):
            swap_at.append(i - 1)
        else:
            break
        i -= 1
    bid_at.reverse()
    swap_at.reverse()
    return bid_at, swap_at


def _check_history(
    d: Dict[str, Any],
    history: List[int],
    n: int,
    swap_phases: Tuple[str, ...] = ETIENNE_SWAP_PHASES["any_decision"],
    etienne_discards: bool = False,
    limit_standing: bool = False,
) -> None:
    """``history`` (the actions since ``new_state``) against the position (StateError).

    An empty history is a position set up directly (the position keys are authoritative), in
    round 1 only: a later round follows rounds that the history holds. Otherwise the history
    must read as the rounds that led here: each round is n bids in
    seat order (MC-7, MC-27), then the picks (at most two per seat, each card once: MC-9),
    then one combination step or decline per seat (MC-10), each followed by its hand-limit
    discards (at most ``MAX_SLOTS - HAND_LIMIT``: MC-14), with at most one Etienne swap
    (MC-16) in a phase of ``swap_phases`` (the reading ``etienne_swap``: a swap in the bid
    stage is a bid-phase swap; a swap followed by a hand-limit discard, or ending the history
    of a discard phase, is a swap between the discards; with ``etienne_discards``, the reading
    etienne_draw="optional", a discard that follows no combination step or hand-limit discard,
    or one more than MC-14 allows after one, is Etienne's discard without a draw, counted as
    the round's swap). With ``limit_standing`` (the reading hand_limit="standing") the
    hand-limit discard follows a pick instead (at most one: 8 - 1 bid + 2 picks), never a
    combination step; there a discard right after a pick may also be Etienne's discard
    without a draw (at the next pick or at his combination step: the history cannot tell),
    which ``etienne_used`` then says. It must hold exactly the ``round - 1`` rounds
    played before this one (all ``round`` once the game is over) and then exactly this
    round's progress: the committed bids, the bid cards still on the table, the seats that
    have combined, and the swap that ``etienne_used`` records."""
    if not history:
        expect(
            d["round"] == 1,
            f"'history' is empty (a position set up directly), but a position of round "
            f"{d['round']} follows {d['round'] - 1} rounds that 'history' must hold",
        )
        return
    phase, rnd = d["phase"], d["round"]
    done = 0  # complete rounds
    last_swaps = 0  # the swaps of the last complete round
    stage = "bid"  # bid, pick, combine, end (after the n-th combination step)
    bids: List[int] = []
    picks: Set[int] = set()
    combined = swaps = discards = 0
    prev = ""
    # MC-16 (etienne_draw="optional"): the round opened right after a hand-limit discard, which
    # may have been seat 0's discard without a draw at its bid (the history cannot tell)
    opened_after_discard = last_opened_after_discard = False
    # MC-14 (hand_limit): the action the hand-limit discards follow; with "standing" and
    # etienne_draw="optional" a discard after a pick that may have been Etienne's (this round's,
    # the last complete round's)
    after = "pick" if limit_standing else "combine"
    maybe_etienne = last_maybe_etienne = False
    for i, a in enumerate(history):
        kind = _action_kind(a)
        dswap = _is_discard_swap(history, i, phase)  # MC-16, MC-14: a swap between the discards
        edisc = (
            kind == "discard"
            and etienne_discards  # MC-16: Etienne's discard without a draw
            and (prev not in (after, "discard") or discards >= MAX_SLOTS - HAND_LIMIT)
        )
        if stage == "end" and (kind != "discard" or edisc) and not dswap:  # the round is over: this opens the next
            done, last_swaps, last_opened_after_discard = done + 1, swaps, opened_after_discard
            last_maybe_etienne, maybe_etienne = maybe_etienne, False
            opened_after_discard = etienne_discards and prev == "discard" and not edisc
            stage, bids, picks, combined, swaps, discards, prev = "bid", [], set(), 0, 0, 0, ""
        where = f"'history'[{i}] = {a}"
        if kind == "bid":
            expect(
                stage == "bid",
                f"MC-7: {where} is a bid, but the round's {n} bids are in (a round is "
                "the bids, the picks, then the combination steps)",
            )
            card = _bid_card(a)
            expect(card not in bids, f"MC-7: {where} bids card {card} a second time in one round")
            _check_bid_without_henri(d, where, a, len(bids), done + 1)  # MC-17
            bids.append(card)
            if len(bids) == n:
                stage = "pick"
        elif kind == "pick":
            expect(
                stage == "pick",
                f"MC-9: {where} is a pick, but picks come after the round's {n} bids and before its combination steps",
            )
            expect(a - PICK not in picks, f"MC-9: {where} picks card {a - PICK} a second time in one round")
            picks.add(a - PICK)
            expect(len(picks) <= 2 * n, f"MC-9: {where}: {n} seats pick at most {2 * n} cards a round")
            discards = 0
        elif kind == "swap" or edisc:
            _check_swap(where, n, stage, swap_phases, prev, swaps, dswap, after)
            swaps += 1
        elif kind == "combine":
            expect(
                stage in ("pick", "combine"),
                f"MC-10: {where} is a combination step, but they follow the round's {n} bids",
            )
            combined += 1
            discards = 0
            stage = "combine" if combined < n else "end"
        else:  # discard
            expect(
                prev in (after, "discard"),
                f"MC-14: {where} is a hand-limit discard, which only follows "
                + ("a pick (hand_limit='standing')" if limit_standing else "a combination step"),
            )
            maybe_etienne |= etienne_discards and limit_standing and swaps == 0
            discards += 1
            expect(
                discards <= MAX_SLOTS - HAND_LIMIT,
                f"MC-14: {where}: a hand holds at most {MAX_SLOTS} cards at its combination step, so at "
                f"most {MAX_SLOTS - HAND_LIMIT} discard follows it",
            )
        prev = prev if dswap else "swap" if edisc else kind  # (after a swap between the discards, they go on)
    if stage == "end" and phase != "discard":  # the history ends with a complete round
        done, last_swaps, last_opened_after_discard = done + 1, swaps, opened_after_discard
        last_maybe_etienne, maybe_etienne = maybe_etienne, False
        opened_after_discard = etienne_discards and prev == "discard"  # (this round has no action yet)
        stage, bids, combined, swaps = "bid", [], 0, 0
        picks = set()
    if phase == "over":
        expect(
            done == rnd and stage == "bid" and not bids and not swaps,
            f"MC-24: a finished game's 'history' holds its {rnd} rounds exactly "
            f"(it holds {done} complete rounds and {len(bids)} more bids)",
        )
        expect(
            d["etienne_used"] == (last_swaps == 1)
            or _seat0_discard(d, last_swaps, last_opened_after_discard, swap_phases)
            or (last_maybe_etienne and bool(d["etienne_used"])),
            "MC-16: 'etienne_used' must say whether the last round's actions in 'history' hold a swap",
        )
        return
    expect(
        done == rnd - 1,
        f"'history' must hold the {rnd - 1} rounds played before round {rnd} ('round'), "
        f"then this round's actions; it holds {done} complete rounds",
    )
    expect(
        d["etienne_used"] == (swaps == 1)
        or _seat0_discard(d, swaps, opened_after_discard, swap_phases)
        or (maybe_etienne and bool(d["etienne_used"])),
        "MC-16: 'etienne_used' must say whether this round's actions in 'history' hold a swap",
    )
    committed = [b for b in d["bids"] if b >= 0]
    if phase == "bid":
        expect(
            stage == "bid" and len(bids) == len(committed),
            f"MC-27: this round's part of 'history' must hold the {len(committed)} committed bids and no more",
        )
        return
    expect(len(bids) == n, f"MC-7: in the {phase} phase this round's part of 'history' holds all {n} bids")
    _check_round_progress(d, bids, picks, combined, prev, limit_standing)


def _check_round_progress(
    d: Dict[str, Any], bids: List[int], picks: Set[int], combined: int, prev: str, limit_standing: bool
) -> None:
    """After the bids (``_check_history``): this round's ``bids``, ``picks``, ``combined``
    steps and last action kind ``prev`` in ``history`` against the phase and its ``turn``
    (MC-9, MC-10, MC-14; ``limit_standing``: the discard phase follows a pick)."""
    phase, turn = d["phase"], d["turn"]
    if phase == "discard" and limit_standing:  # MC-14 (hand_limit="standing"): right after a pick
        expect(
            prev in ("pick", "discard"),
            f"MC-14: the discard phase follows seat {d['order'][turn]}'s "
            "pick that took its hand above 8 cards (hand_limit='standing')",
        )
    if phase == "pick" or (phase == "discard" and limit_standing):
        expect(combined == 0, "MC-10: no combination step before the picks are over")
        for q, b in enumerate(d["bids"]):
            expect(
                b < 0 or b == bids[q],
                f"MC-9: seat {q}'s bid card on the table ({b}) is not its bid of this round in 'history' ({bids[q]})",
            )
        expect(
            len(picks) <= 2 * turn + 2 - d["picks_left"],
            f"MC-9: 'history' holds {len(picks)} picks this round; {turn} seats have picked and the "
            f"picker has {d['picks_left']} of at most 2 left",
        )
    elif phase == "combine":
        expect(
            combined == turn,
            f"MC-10: 'turn' {turn} says {turn} seats have combined this round; "
            f"'history' holds {combined} combination steps",
        )
    else:  # discard
        expect(
            combined == turn + 1 and prev in ("combine", "discard"),
            f"MC-14: the discard phase follows seat {d['order'][turn]}'s combination step, the "
            f"{turn + 1}. of the round; 'history' holds {combined}",
        )


def _check_display_kept(d: Dict[str, Any], history: List[int], picking: bool = False) -> None:
    """MC-9, MC-5: the display keeps every card laid in it until a pick takes it. Each round
    every seat lays its bid card in the display after its picks (the refill only adds cards,
    and no other action takes one out), so every bid card of ``history`` that no later pick
    took is in ``display`` now. ``history`` (already checked for its form) names every bid
    and every pick: a history that is not this position's, such as another deal's, fails
    here. What a view hides of ``history`` (this round's bids before the reveal, the
    combinations) plays no part, so determinized states pass too. ``picking``: the position is
    in the picks (the pick phase, or the discards after a pick with hand_limit="standing",
    the picker's bid card still on the table)."""
    kept: Set[int] = set()  # the cards laid in the display by the rounds whose picks are over
    bids: List[int] = []  # this round's bid cards, in seat order
    picks: Set[int] = set()  # this round's picks
    over = True  # this round's picks are over (its bid cards laid); True before the first
    for a in history:  # (the kinds of _action_kind, compared inline: this runs on every load)
        if a < PICK or a >= BID_PLAIN:  # a bid
            if over:  # the first bid of a round
                bids, picks, over = [], set(), False
            bids.append(a - BID if a < PICK else a - BID_PLAIN)
        elif a < DISCARD:
            picks.add(a - PICK)
        elif a >= DECLINE and not over:  # a combination step: the picks are over, every bid card laid
            kept = (kept | set(bids)) - picks
            over = True
    phase = d["phase"]
    if not over and picking:  # the seats that have picked laid their bid cards
        kept = (kept | {bids[q] for q in d["order"][: d["turn"]]}) - picks
    elif not over and phase in ("combine", "discard"):
        kept = (kept | set(bids)) - picks
    missing = sorted(kept - set(d["display"]))
    expect(
        not missing,
        f"MC-9, MC-5: card {missing[0] if missing else 0} was laid in the display as a bid card "
        "in 'history' and no pick took it since, so it must be in 'display'",
    )


def _seat0_discard(d: Dict[str, Any], swaps: int, opened_after_discard: bool, swap_phases: Tuple[str, ...]) -> bool:
    """MC-16 (etienne_draw="optional"): whether a round whose actions hold no swap may still
    have used Etienne: it opened right after a discard, which ``etienne_used`` then says was
    seat 0's discard without a draw at its bid (seat 0 holds Etienne in that round: the
    helpers are not passed after it; the reading etienne_swap lets him act at the bid), not the
    last round's hand-limit discard."""
    return (
        opened_after_discard
        and swaps == 0
        and bool(d["etienne_used"])
        and d["helpers"][0] == ETIENNE
        and "bid" in swap_phases
    )


def _is_discard_swap(history: List[int], i: int, phase: str) -> bool:
    """Whether ``history[i]`` is a swap made between hand-limit discards (MC-14): a swap keeps
    the seat and the phase, so it was when a discard follows it, or when it ends the history
    of a discard phase."""
    if _action_kind(history[i]) != "swap":
        return False
    return _action_kind(history[i + 1]) == "discard" if i + 1 < len(history) else phase == "discard"


def _check_swap(
    where: str,
    n: int,
    stage: str,
    swap_phases: Tuple[str, ...],
    prev: str,
    swaps: int,
    between_discards: bool,
    after: str = "combine",
) -> None:
    """MC-16: an Etienne swap in ``history`` (at ``where``): once a round, and only in the
    phases of the reading ``etienne_swap`` (``swap_phases``): a swap in the bid ``stage`` is
    made at the bid; one ``between_discards`` (MC-14) must follow a combination step (``after``:
    a pick with hand_limit="standing")."""
    expect(swaps == 0, f"MC-16: {where} is a second Etienne swap in one round")
    if not between_discards:
        expect(
            stage != "bid" or "bid" in swap_phases,
            f"MC-16: {where} is an Etienne swap at the bid (before the round's {n} bids are in), which "
            "the reading etienne_swap of this game does not allow",
        )
        return
    expect(
        "discard" in swap_phases,
        f"MC-16: {where} is an Etienne swap while discarding for the hand limit (MC-14), which the "
        "reading etienne_swap of this game does not allow",
    )
    expect(
        prev in (after, "discard"),
        f"MC-14: {where} is a swap between hand-limit discards, which only "
        f"follow a {'pick' if after == 'pick' else 'combination step'}",
    )


def _bid_key(bid: int, helper: int, cards: List[List[int]], henri_off: bool = False) -> Tuple[int, int]:
    """MC-8: the sort key of a bid: coins of the bid card (+2 for Henri, MC-17, unless his
    holder bid without him), highest first; ties: higher helper rank (lower helper id) first."""
    return (-(cards[bid][2] + (2 if helper == HENRI and not henri_off else 0)), helper)


def _pick_order(
    bids: Sequence[int], helpers: Sequence[int], cards: List[List[int]], henri_off: bool = False
) -> List[int]:
    """MC-8: the pick order of the revealed bids (``henri_off``: Henri's holder bid without
    him, MC-17)."""
    return sorted(range(len(bids)), key=lambda q: _bid_key(bids[q], helpers[q], cards, henri_off))


def _bid_card(a: Optional[int]) -> int:
    """The card of a bid action (``BID + c``, or ``BID_PLAIN + c`` without Henri: MC-17);
    -1 for any other action."""
    if a is None:
        return -1
    if BID <= a < PICK:
        return a - BID
    return a - BID_PLAIN if BID_PLAIN <= a < BID_PLAIN + NUM_CARDS else -1


def _action_kind(a: int) -> str:
    """``"bid"`` (with or without Henri, MC-17), ``"pick"``, ``"discard"``, ``"swap"`` or
    ``"combine"`` (a combination or the decline)."""
    if a < PICK or a >= BID_PLAIN:
        return "bid"
    return "pick" if a < DISCARD else "discard" if a < SWAP else "swap" if a < DECLINE else "combine"


def _check_bid_without_henri(d: Dict[str, Any], where: str, a: int, seat: int, r: int) -> None:
    """MC-17: when the bid ``a`` at ``where`` (``history``), seat ``seat``'s in round ``r``,
    is a bid without Henri, that seat must have held Henri then."""
    if a < BID_PLAIN:
        return
    held = _helpers_in_round(d, r)[seat]
    expect(
        held == HENRI,
        f"MC-17: {where} is seat {seat}'s bid without Henri, but seat {seat} holds {HELPERS[held]} in round {r}",
    )


def _helpers_in_round(d: Dict[str, Any], r: int) -> List[int]:
    """The helper each seat held in round ``r`` of the game whose position ``d`` is: the
    helpers now, passed back (MC-15) once per round since. Passing moves the seven helpers
    along one cycle of seven places (seats 1 .. n-1, seat 0, the row, seat 1 again), so it
    repeats every seven rounds. A finished game did not pass after its last round."""
    helpers, row = list(d["helpers"]), list(d["row"])
    n = len(helpers)
    for _ in range((d["round"] - r) % 7):
        old = [0] * n  # the inverse of MC-15's passing (see _next_combiner)
        old[0] = row[-1]
        old[1 : n - 1] = helpers[2:n]
        old[n - 1] = helpers[0]
        row = [helpers[1]] + row[:-1]
        helpers = old
    return helpers


def _tie_helpers(helpers: Sequence[int], row: Sequence[int], after_pass: bool) -> List[int]:
    """MC-25: the helper whose rank breaks a tie for each seat: the one held now, or with
    ``after_pass`` (``tie_break_moment="after_passing"``) the one the seat would hold after
    MC-15's pass: the helper of the seat on its right (seat 0 takes seat n-1's), seat 1 the
    row's leftmost."""
    if not after_pass:
        return list(helpers)
    n = len(helpers)
    return [helpers[n - 1], row[0]] + [helpers[q - 1] for q in range(2, n)]


def _winners(vp: Sequence[Sequence[int]], helpers: Sequence[int], cards: List[List[int]]) -> List[int]:
    """MC-25: most victory points; tie-break: the higher rank of ``helpers`` (the helpers of
    the reading ``tie_break_moment``: :func:`_tie_helpers`)."""
    key = [(_score(vp[q], cards), -helpers[q]) for q in range(len(vp))]
    best = max(key)
    return [q for q in range(len(vp)) if key[q] == best]


def _describe_card_move(g: "MausAuChocolat", p: int, mv: MCMove) -> str:
    """A move other than a combination by seat ``p``, in the words of ``describe``."""
    if isinstance(mv, MCDecline):
        return f"seat {p} declines"
    if isinstance(mv, MCBidWithoutHenri):  # MC-17
        return f"seat {p} bids {g.card_token(mv.card)} without Henri"
    assert isinstance(mv, (MCBid, MCPick, MCDiscard, MCSwap))
    verb = {MCBid: "bids", MCPick: "picks", MCDiscard: "discards", MCSwap: "swaps"}[type(mv)]
    return f"seat {p} {verb} {g.card_token(mv.card)}" + (" (Etienne)" if isinstance(mv, MCSwap) else "")


def _minus(a: Sequence[int], b: Sequence[int]) -> List[int]:
    """The cards of ``a`` not in ``b`` (sorted)."""
    rest = list(b)
    out = []
    for c in a:
        if c in rest:
            rest.remove(c)
        else:
            out.append(c)
    return sorted(out)


# ---- the pure-Python reference engine ------------------------------------------------------


class MausAuChocolatState(_api.GameState[MausAuChocolat, MCMove]):
    """The public type of a Maus au Chocolat state, on either engine: what ``MausAuChocolat.new_state()``
    returns and what annotations should name. The reference engine
    (``ReferenceMausAuChocolatState``) and the compiled one both derive from it."""

    __slots__ = ()

    def describe(self, action: Any, *, for_player: Optional[SupportsIndex] = None) -> str:
        """``action`` (an int or a Move) in words, as the seat to move plays it now, with
        card names: ``"seat 2 bids fruit3/3c"``, ``"seat 1 swaps eggs5/4c (Etienne)"``,
        ``"seat 0 combines eggs4/4c fruit5/2c nuts6/7c, keeps nuts6/7c"``.
        :meth:`parse_action` reads it back. An action that names slots beyond the hand, or
        any action once the game is over, is written as ``str(move)``. With ``for_player``:
        the move as that seat sees it (:meth:`MausAuChocolat.describe_seen`): another
        seat's bid is ``"seat 2 bids face down"`` until all bids are revealed (MC-7, MC-26)."""
        if for_player is not None:
            return self._describe_for(action, for_player)
        g = self.game
        a = g._action(action)
        mv = g.action_to_move(a)
        p = self.current_player
        if p == _api.TERMINAL:
            return str(mv)
        if isinstance(mv, MCCombine):
            hand = self._to_dict()["hands"][p]
            if max(mv.slots) >= len(hand):
                return str(mv)
            laid = " ".join(g.card_token(hand[i]) for i in mv.slots)
            kept = " ".join(g.card_token(hand[i]) for i in mv.keep)
            return f"seat {p} combines {laid}, keeps {kept}"
        return _describe_card_move(g, p, mv)

    def parse_action(self, text: str) -> int:
        """The int action that ``text`` names in this state: what :meth:`describe` writes
        (``"seat 0 combines eggs4/4c fruit5/2c nuts6/7c, keeps nuts6/7c"``, the seat part
        optional), a move by card names (``"pick eggs4/4c"``, ``"combine eggs4/4c fruit5/2c
        nuts6/7c keep nuts6/7c"``) or ``str(move)`` (``"bid 17"``, ``"combine 0,2,5 keep 5"``).
        Raises ``ValueError`` for text that is not a move, :class:`IllegalMoveError` for a
        move that is not legal here."""
        g = self.game
        toks = _tokens(text)
        p = self.current_player
        if toks[:1] == ["seat"]:
            if len(toks) < 2 or not _number(toks[1]):
                raise ValueError(f"{shorten(text)}: 'seat' is followed by the seat number; {_NOTATION}")
            if int(toks[1]) != p:
                now = "the game is over" if p == _api.TERMINAL else f"seat {p} is to move"
                raise IllegalMoveError(f"{shorten(text)} is a move of seat {toks[1]}, but {now}")
            toks = toks[2:]
        toks = [t for t in toks if t != "(etienne)"]
        if p == _api.TERMINAL:
            _parse_tokens(toks, text, g.cards, g._card_names())  # a ValueError for what is not a move
            raise IllegalMoveError(f"MC-24: the game is over; {shorten(text)} cannot be played")
        d = self._to_dict()
        hand = d["hands"][p]
        verb = _VERBS.get(toks[0]) if toks else None
        args = toks[1:]
        mv: MCMove
        if verb == "combine" and any(not _number(t) for t in args if t not in ("keep", "keeps")):
            if "keep" not in args and "keeps" not in args:
                raise ValueError(f"a combination names its kept cards after 'keep': {shorten(text)}; {_NOTATION}")
            k = args.index("keep") if "keep" in args else args.index("keeps")
            names = g._card_names()
            laid = [_card_token(t, g.cards, names, hand) for t in args[:k]]
            kept = [_card_token(t, g.cards, names, hand) for t in args[k + 1 :]]
            for c in laid:
                if c not in hand:
                    raise IllegalMoveError(f"MC-10: seat {p} does not hold {g.card_token(c)}")
            if len(set(laid)) != len(laid) or not set(kept) <= set(laid) or len(set(kept)) != len(kept):
                raise IllegalMoveError(f"MC-12: {shorten(text)}: the kept cards are some of the laid cards, each once")
            mv = MCCombine(tuple(sorted(hand.index(c) for c in laid)), tuple(sorted(hand.index(c) for c in kept)))
        else:
            zone = d["display"] if verb == "pick" else hand
            mv = _parse_tokens(toks, text, g.cards, g._card_names(), zone)
        a = int(g.move_to_action(mv))
        if a not in self.legal_actions():
            raise self._illegal(a)
        return a

    def apply_joint(self, actions: Sequence[Any]) -> None:
        """Commit every seat's bid at once (MC-27). ``actions[q]`` is seat ``q``'s bid
        action (or a list of its actions ending with the bid, e.g. ``[swap, bid]`` for
        Etienne's holder). Equivalent to applying them one seat at a time in seat order;
        all are checked first and the state is unchanged if any is illegal."""
        n = self.game.num_players
        if isinstance(actions, (str, bytes)) or not isinstance(actions, Sequence):
            raise TypeError("apply_joint takes a sequence of one bid (or list of actions) per seat")
        if len(actions) != n:
            raise ValueError(f"MC-27: apply_joint needs one entry per seat ({n}), got {len(actions)}")
        d = self._to_dict()
        if d["phase"] != "bid" or any(b >= 0 for b in d["bids"]):
            raise IllegalMoveError(
                "MC-27: joint bids are made at the start of a bid phase, before any seat has committed"
            )
        seq: List[int] = []
        for q, x in enumerate(actions):
            xs = list(x) if isinstance(x, (list, tuple)) else [x]
            xs = [self.game._action(m) for m in xs]
            if not xs or _bid_card(xs[-1]) < 0:
                raise IllegalMoveError(
                    f"MC-7: seat {q}'s entry must end with a bid action (0..79"
                    + (
                        f" or {BID_PLAIN}..{BID_PLAIN + NUM_CARDS - 1} without Henri"
                        if self.game.henri_optional
                        else ""
                    )
                    + f"), got {shorten(x)}"
                )
            seq += xs
        trial = self.clone()
        for a in seq:
            trial.apply_action(a)
        for a in seq:
            self.apply_action(a)


class ReferenceMausAuChocolatState(MausAuChocolatState):
    """A Maus au Chocolat state (pure-Python reference engine), written from the spec."""

    __slots__ = ("_seed0", "game", *MausAuChocolat.STATE_KEYS)

    game: MausAuChocolat
    round: int
    phase: str
    pile: List[int]
    display: List[int]
    discard: List[int]
    hands: List[List[int]]
    known: List[List[int]]
    pools: List[int]
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
        s = ReferenceMausAuChocolatState._reference(game, seed, [], seed)
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
        s.pools = [0] * NUM_CARDS  # MC-26: every unseen card is in the first pool
        s.bids = [-1] * n
        s.vp = [[] for _ in range(n)]
        s.round = 1
        s.phase = "bid"
        s.order = []
        s.turn = 0
        s.picks_left = 0
        s.etienne_used = False
        s.truncated = False
        return s

    @staticmethod
    def _from_valid_dict(game: MausAuChocolat, d: Dict[str, Any]) -> "ReferenceMausAuChocolatState":
        s = ReferenceMausAuChocolatState._reference(game, d["rng"], list(d["history"]), None)
        for k in ("round", "phase", "turn", "picks_left", "etienne_used", "truncated"):
            setattr(s, k, d[k])
        for k in ("pile", "display", "discard", "pools", "bids", "helpers", "row", "order"):
            setattr(s, k, list(d[k]))
        for k in ("hands", "known", "vp"):
            setattr(s, k, [list(h) for h in d[k]])
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
            pools=list(self.pools),
            bids=list(self.bids),
            vp=[list(h) for h in self.vp],
            helpers=list(self.helpers),
            row=list(self.row),
            order=list(self.order),
            turn=self.turn,
            picks_left=self.picks_left,
            etienne_used=self.etienne_used,
            **self._closing_fields(),
        )
        return d

    # -- queries -----------------------------------------------------------------------

    @property
    def current_player(self) -> int:
        if self.phase == "over":
            return _api.TERMINAL
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
        return _winners(self.vp, _tie_helpers(self.helpers, self.row, self.game.tie_after_pass), self.game.cards)

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
        if self.helpers[p] == ETIENNE and not self.etienne_used and self.phase in self.game.etienne_phases:
            if self.game.etienne_discards and self.phase != "discard" and len(hand) >= 2:
                acts += [DISCARD + c for c in hand]  # MC-16 (etienne_draw="optional"): no draw
            acts += [SWAP + c for c in hand]  # MC-16: once per round, at the decisions of etienne_swap
        if self.phase == "combine":
            acts.append(DECLINE)  # MC-10
            acts += combination_actions(
                hand,
                self.game.cards,
                self.helpers[p],
                kept_card=self.game.params["kept_card"],
                changed_value=self.game.params["changed_value"],
            )
        if self.phase == "bid" and self.game.henri_optional and self.helpers[p] == HENRI:
            acts += [BID_PLAIN + c for c in hand]  # MC-17: a bid without Henri's +2
        return acts

    # -- moves -------------------------------------------------------------------------

    def apply_action(self, action: SupportsIndex) -> None:
        a = _api.check_action_type(action)
        if a not in self._legal():
            raise self._illegal(a)
        p = self.current_player
        if SWAP <= a < DECLINE:
            self._swap(p, a - SWAP)
        elif a < PICK:
            self._bid(p, a - BID)
        elif a >= BID_PLAIN:  # MC-17: without Henri's +2
            self._bid(p, a - BID_PLAIN, henri_off=True)
        elif a < DISCARD:
            self._pick(p, a - PICK)
        elif a < SWAP and self.phase != "discard":  # MC-16 (etienne_draw="optional")
            self._swap(p, a - DISCARD, draw=False)
        elif a < SWAP:
            self._discard_for_limit(p, a - DISCARD)
        elif a == DECLINE:
            self._after_combination(p)
        else:
            self._combine(p, a - COMBINE)
        self.history.append(a)

    def _draw(self) -> Optional[int]:
        """MC-6: the top card of the pile; an empty pile is first replaced by the shuffled
        discards (taken in card id order), which form a new pool of unseen cards (MC-26);
        None when both are empty. The caller places the card (a card laid face up leaves
        its pool)."""
        if not self.pile:
            if not self.discard:
                return None
            self.pile = sorted(self.discard)
            self.discard = []
            self.rng.shuffle(self.pile)
            pool = max(self.pools) + 1
            for c in self.pile:
                self.pools[c] = pool
        return self.pile.pop()

    def _take_from_hand(self, p: int, c: int) -> None:
        """Card c leaves seat p's hand face up (MC-12, MC-14, MC-16)."""
        self.hands[p].remove(c)
        if c in self.known[p]:
            self.known[p].remove(c)
        self.pools[c] = 0

    def _swap(self, p: int, c: int, draw: bool = True) -> None:
        # MC-16: discard face up, then draw the top card (MC-6 may reshuffle the discards);
        # with etienne_draw="optional" the draw may be left out
        self.etienne_used = True
        self._take_from_hand(p, c)
        self.discard = sorted(self.discard + [c])
        if not draw:
            return
        new = self._draw()
        assert new is not None  # the discard pile holds at least c
        self.hands[p] = sorted(self.hands[p] + [new])

    def _bid(self, p: int, c: int, henri_off: bool = False) -> None:
        self.hands[p].remove(c)  # MC-7: laid face down (a known card stays in known[p])
        self.bids[p] = c
        if all(b >= 0 for b in self.bids):  # MC-7: all revealed at once
            for q, b in enumerate(self.bids):
                self.pools[b] = 0
                if b in self.known[q]:
                    self.known[q].remove(b)
            if HENRI in self.helpers and self.helpers.index(HENRI) != p:  # MC-17: as Henri's holder bid
                bid_at, _ = _bid_phase_actions(self.history)
                henri_off = self.history[bid_at[self.helpers.index(HENRI)]] >= BID_PLAIN
            elif HENRI not in self.helpers:
                henri_off = False
            self.order = _pick_order(self.bids, self.helpers, self.game.cards, henri_off)  # MC-8
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
        if self.game.limit_standing and len(self.hands[p]) > HAND_LIMIT:
            self.phase = "discard"  # MC-14 (hand_limit="standing"): at once, before the bid card goes in
        elif self.picks_left == 0:
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
        if len(self.hands[p]) > HAND_LIMIT:
            return
        if not self.game.limit_standing:
            self._next_combiner()
            return
        self.phase = "pick"  # MC-14 (hand_limit="standing"): the picks go on
        if self.picks_left == 0:
            self._end_pick_turn()
            self._start_pick_turn()

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
        if self.round >= min(g.max_turns, MAX_ROUNDS):  # max_turns (rounds) truncates
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
            self.pools[c] = 0
            self.display.append(c)
        self.display.sort()
        self.phase = "bid"


# ---- the compiled engine (cengine/mousehole/_maus_au_chocolat.pyx) ---------------------------

_CompiledState: Any = _api.compiled_state_class(
    "_maus_au_chocolat", "MausAuChocolatCore", MausAuChocolatState, "A Maus au Chocolat"
)
MausAuChocolat._bind_states(ReferenceMausAuChocolatState, _CompiledState)
