"""The API every game of mousehole shares, written once (``docs/api.md``).

A game module defines

* a :class:`Game` subclass: parameter defaults and validation, derived constants, the
  action encoding (``action_to_move`` / ``move_to_action``), and the engine-neutral parts
  written once in Python: ``_validate_dict``, ``_redact``, ``_determinize``, ``_observation``,
  ``_render`` and ``_explain_illegal``;
* one State class per engine (the pure-Python reference and the compiled core), each
  implementing the small *engine protocol* listed in :class:`StateAPI`.

:class:`StateAPI` then supplies everything else (moves, ``apply``, returns, ``to_dict`` with
views, determinization, copy, pickle, equality) identically for both engines.
"""

from __future__ import annotations

import copy as _copy
import functools
import importlib
import marshal
import os
import secrets as _secrets
from dataclasses import dataclass
from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    ClassVar,
    Dict,
    Generic,
    List,
    Mapping,
    Optional,
    Sequence,
    SupportsIndex,
    Tuple,
    Type,
    TypeVar,
    Union,
    cast,
)

import numpy as np
import numpy.typing as npt

from ._rng import Rng
from ._values import MAX_TURNS, as_int, clip, exact, index_arg, is_int, plain_value, shorten

# Layers: this module imports no game module and no drawing (not even for typing). The game
# modules build on it; ``mousehole._load`` (the typed ``load``) and the package's
# ``__init__`` sit above the games and wire in what needs them (``StateAPI._repr_svg_``'s
# drawer, :data:`svg_drawer`).

__all__ = [
    "CHANCE",
    "TERMINAL",
    "MouseholeError",
    "IllegalMoveError",
    "StateError",
    "ParameterError",
    "Game",
    "StateAPI",
    "GameState",
    "Move",
    "Reading",
    "register",
    "unregister",
    "load",
    "game_names",
    "available_engines",
    "default_engine",
    "check_seat",
    "check_action_type",
    "index_arg",
    "is_int",
    "as_int",
    "fresh_seed",
]

#: :meth:`Game.end_reason` of a game the turn limit (``max_turns``) stopped
TURN_LIMIT_REASON = "the turn limit (max_turns) stopped the game"

#: ``current_player`` at a chance node (OpenSpiel's value).
CHANCE = -1
#: ``current_player`` once the game is over (OpenSpiel's value).
TERMINAL = -4


class MouseholeError(Exception):
    """Base class of every error mousehole raises on purpose."""


class IllegalMoveError(MouseholeError, ValueError):
    """An action or move that the rules do not allow in this state (state unchanged)."""


class StateError(MouseholeError, ValueError):
    """A malformed state dictionary (``game.state_from_dict``)."""


class ParameterError(MouseholeError, ValueError):
    """An unknown or invalid game parameter (``mousehole.load``)."""


class Move:
    """Base class of the typed moves of every game (frozen dataclasses in each module)."""

    __slots__ = ()


#: the Move type of a game (``CRMove``, ``MMove``, ``KasimirMove``, ``MCMove``)
MoveT = TypeVar("MoveT", bound=Move)
#: the public State type of a game (``CheeseRescueState``, ``MState``, ...)
StateT = TypeVar("StateT", bound="StateAPI[Any]")
_S = TypeVar("_S", bound="StateAPI[Any]")


# --------------------------------------------------------------------------------------
# engine selection (msgpack style: decided once, at import)

_PURE = os.environ.get("MOUSEHOLE_PUREPYTHON", "") not in ("", "0")


def compiled_state_class(module: str, core: str, reference: type, game: str) -> Any:
    """The public state class of a game's compiled engine, or None (``MOUSEHOLE_PUREPYTHON``,
    or a build without extensions): ``Compiled<reference's name>``, the core class ``core``
    of module ``mousehole.<module>`` with the game's reference class ``reference`` after it
    (the core's compiled methods first, the shared API for the rest), adopted by the core
    once (no GC tracking, fast method calls: ``StateCore._adopt_public_class``). ``game``:
    the game's name for the docstring ("an M", "a Cheese Rescue")."""
    if _PURE:
        return None
    try:
        mod = importlib.import_module(f"mousehole.{module}")
    except ImportError:  # pragma: no cover - a build without extensions
        return None
    base = getattr(mod, core)
    name = "Compiled" + reference.__name__
    cls = type(
        name,
        (base, reference),
        {
            "__slots__": (),
            "__doc__": f"{game} state on the compiled engine (same API as the reference).",
            "__module__": reference.__module__,
            "__qualname__": name,
        },
    )
    base._adopt_public_class(cls)
    return cls


@dataclass(frozen=True)
class Reading:
    """One open reading of a rule text, a keyword parameter of the game (``Game.READINGS``).

    ``param`` is the parameter's name, ``values`` the defensible readings (strings, the
    default first), ``meaning`` what each value means (one short sentence per value, same
    order), ``rules`` the rule ids it concerns, ``source`` the sentence of the original text
    it rests on (in the original language), ``translation`` that sentence in English, and
    ``why_default`` why the default was chosen. ``mousehole rules GAME`` prints them and the
    game's docs page has the same table.

    >>> r = Reading("tie_break", ("first", "shared"), ("the first seat wins", "a shared win"),
    ...             ("X-1",), "Wie zuerst ...", "Who first ...", "the German text")
    >>> r.default
    'first'
    """

    param: str
    values: Tuple[str, ...]
    meaning: Tuple[str, ...]
    rules: Tuple[str, ...]
    source: str
    translation: str
    why_default: str

    def __post_init__(self) -> None:
        if not (
            self.param.isidentifier()
            and len(self.values) >= 2
            and len(self.values) == len(self.meaning)
            and len(set(self.values)) == len(self.values)
            and all(isinstance(v, str) for v in self.values)
        ):
            raise ValueError(
                f"malformed Reading {self.param!r}: needs an identifier, two or more distinct "
                "string values and one meaning per value"
            )

    @property
    def default(self) -> str:
        """The default value (the reading the engines followed before it was a parameter)."""
        return self.values[0]

    def check(self, game: str, value: Any) -> str:
        """``value`` (a ``str``, or a numpy str or str subclass: read as the exact ``str`` it
        holds) if it is one of :attr:`values`, else a :class:`ParameterError` naming them."""
        text = exact(value)
        if type(text) is not str or text not in self.values:
            raise ParameterError(
                f"{game}: {self.param} must be one of {', '.join(map(repr, self.values))} "
                f"({'/'.join(self.rules)}), got {shorten(value)}"
            )
        return text


#: the engines a game can run on, by their names: the compiled cores and the pure-Python reference
ENGINES = ("compiled", "python")


def default_engine() -> str:
    """``"compiled"`` when the extension modules import, else ``"python"``."""
    return "compiled" if "compiled" in available_engines() else "python"


_COMPILED_OK: Optional[bool] = None


def available_engines() -> List[str]:
    """The engines this installation offers: ``["compiled", "python"]`` or ``["python"]``.

    The compiled engine is unavailable when ``MOUSEHOLE_PUREPYTHON=1`` is set or when the
    extension modules were not built (loading a game whose own extension is missing with
    ``engine="compiled"`` raises :class:`ParameterError`).
    """
    global _COMPILED_OK
    if _COMPILED_OK is None:
        if _PURE:
            _COMPILED_OK = False
        else:
            _COMPILED_OK = any(g.compiled_state() is not None for g in _REGISTRY.values())
    return list(ENGINES) if _COMPILED_OK else ["python"]


# --------------------------------------------------------------------------------------
# small validators shared by the games


def check_seat(game: "Game[Any, Any]", p: Any, what: str = "seat") -> int:
    """Return ``p`` as an int seat of ``game``: ``TypeError`` unless it is an integer
    (:func:`index_arg`: not a bool, not a float), ``ValueError`` outside ``0..n-1``."""
    seat = index_arg(p, what)
    if not 0 <= seat < game.num_players:
        raise ValueError(f"{what} {shorten(seat)} is out of range: this game has seats 0..{game.num_players - 1}")
    return seat


def settled_by_bounds(
    low: Sequence[Any], high: Sequence[Any], p: int, *, lost: Callable[[int], str], won: str
) -> Optional[Tuple[bool, str]]:
    """:meth:`Game._settled` from every seat's least and most final standing (``low[q] <=
    high[q]``: scores, or tuples that rank a score and then a tie-break): seat ``p`` has lost
    once another seat ``q``'s least ranks above ``p``'s most (``(False, lost(q))``, the first
    such ``q``), and has won once its least ranks above every other seat's most (``(True,
    won)``); else ``None``. Equal bounds stay open: a tie may still go either way."""
    for q in range(len(low)):
        if q != p and low[q] > high[p]:
            return False, lost(q)
    if all(high[q] < low[p] for q in range(len(low)) if q != p):
        return True, won
    return None


_ValueFn = TypeVar("_ValueFn", bound=Callable[..., float])


def _seat_checked(fn: _ValueFn) -> _ValueFn:
    """``fn(self, state, seat)`` (a game's :meth:`Game.greedy_value` or
    :meth:`Game.search_value`) with ``seat`` checked by :func:`check_seat` first: a bool or a
    seat outside ``0..n-1`` is refused by name, never read as another seat or an IndexError."""

    @functools.wraps(fn)
    def checked(self: "Game[Any, Any]", state: Any, seat: Any) -> float:
        return fn(self, state, check_seat(self, seat))

    checked.__dict__["_seat_checked"] = True
    return cast(_ValueFn, checked)


def int_param(game: str, x: Any, what: str, lo: int, hi: int) -> int:
    """Return parameter ``x`` (an int or a numpy integer, not a bool) as an int in
    ``[lo, hi]`` or raise :class:`ParameterError` (quoting ``x`` through
    :func:`~mousehole._values.shorten`). Every integer parameter of every game is read
    through it, with its documented range."""
    v = as_int(x)
    if v is None or v < lo or v > hi:
        raise ParameterError(f"{game}: {what} must be an int from {lo} to {hi:,}, got {shorten(x)}")
    return v


def param_values(game: str, params: Mapping[str, Any]) -> Dict[str, Any]:
    """Every value of ``params`` as plain data (:func:`mousehole._values.plain_value`), or
    the :class:`ParameterError` that names the parameter: the one rule every value from
    outside goes through before a game reads it."""

    def refuse(message: str) -> ParameterError:
        return ParameterError(message)

    return {k: plain_value(v, f"{game}: {k}", refuse) for k, v in params.items()}


def copy_data(x: Any) -> Any:
    """A deep copy of plain data (dicts, lists and tuples of scalars), several times faster
    than ``copy.deepcopy``. What is not exactly such data is copied as the plain data it
    holds: a numpy scalar or a subclass of ``str``, ``int`` or ``float`` as the exact
    built-in value (:func:`mousehole._values.exact`), a subclass of ``dict``, ``list`` or
    ``tuple`` as the built-in container (read through the built-in type, never through the
    subclass's methods); anything else falls back to ``copy.deepcopy``. So what a state
    dict's checks see is what the engine builds from."""
    t = type(x)
    if t is dict:
        return {k: v if type(v) in _SCALARS else copy_data(v) for k, v in x.items()}
    if t is list:
        return [v if type(v) in _SCALARS else copy_data(v) for v in x]
    if t is tuple:
        return tuple(v if type(v) in _SCALARS else copy_data(v) for v in x)
    if t in _SCALARS:
        return x
    y = exact(x)  # a numpy scalar or a str/int/float subclass: the plain value it holds
    if y is not x:
        return y
    if isinstance(x, dict):  # subclasses, read as the built-in type
        return {k: copy_data(v) for k, v in dict.items(x)}
    if isinstance(x, list):
        return [copy_data(v) for v in list.__iter__(x)]
    if isinstance(x, tuple):
        return tuple(copy_data(v) for v in tuple.__iter__(x))
    return _copy.deepcopy(x)


_SCALARS = frozenset((int, str, float, bool, type(None)))


_A = TypeVar("_A", bound="npt.NDArray[Any]")


def check_out(out: Optional[_A], shape: Tuple[int, ...], dtype: Any, what: str) -> Optional[_A]:
    """None, or ``out`` checked to be a writable C-contiguous numpy array of ``shape`` and
    native ``dtype``: ``TypeError`` for another type or dtype (a byte-swapped dtype is named
    as such), ``ValueError`` for another shape, a non-contiguous or a read-only array. The
    compiled cores take the same arrays (an unaligned one through a copy)."""
    if out is None:
        return None
    want = np.dtype(dtype)
    if not isinstance(out, np.ndarray):
        raise TypeError(
            f"{what} must be a numpy array, not {type(out).__name__} (a writable C-contiguous "
            f"{want.name} array of shape {tuple(shape)})"
        )
    got = out.dtype
    if got != want:
        if got.newbyteorder("=") == want or got.newbyteorder("S") == want:
            order = "big-endian" if got.byteorder == ">" else "little-endian"
            raise TypeError(
                f"{what} is {order} {want.name} ({got.str}); {what} must have dtype {want.name} in native byte order"
            )
        raise TypeError(f"{what} must have dtype {want.name}, not {got.name} ({got.str})")
    if tuple(out.shape) != tuple(shape):
        raise ValueError(f"{what} must have shape {tuple(shape)}, not {tuple(out.shape)}")
    if not out.flags.c_contiguous:
        raise ValueError(
            f"{what} must be a writable C-contiguous array; this one is not C-contiguous (a strided or transposed view)"
        )
    if not out.flags.writeable:
        raise ValueError(f"{what} must be a writable C-contiguous array; this one is read-only")
    return out


def check_action_type(a: Any) -> int:
    """Return ``a`` as a Python int (:func:`index_arg`'s rule), or raise ``TypeError`` for a
    non-integer, a bool or a float: the message of the compiled cores' ``apply_action``."""
    if type(a) is int:
        return a
    return index_arg(a, "an action", " (or use state.apply(move))")


# --------------------------------------------------------------------------------------
# games


class Game(Generic[StateT, MoveT]):
    """A game with its parameters fixed; makes states (``new_state``) for one engine.

    Use :func:`mousehole.load` rather than the constructor. Each game subclasses
    ``Game[ItsState, ItsMove]``, so that a type checker knows what ``new_state()`` returns
    and which moves ``state.apply`` accepts.

    **Facts.** Each game class declares what the modules around the games need to know about
    it, so that no module outside the game's own files tests a game id (the way
    python-chess's variant classes carry their facts). Every fact has a default here, which
    a game overrides where it differs:

    ``INFORMATION`` (class attribute, ``"imperfect"``)
        ``"perfect"`` when every seat sees the whole position (hidden future chance events,
        such as the next roll of a die, aside), else ``"imperfect"``; OpenSpiel's
        information type (:mod:`mousehole.openspiel`).
    ``SINGLE_WINNER`` (``False``)
        True when every finished game has exactly one winner: :meth:`StateAPI.returns` then
        sum to ``2 - n``, a constant-sum game for OpenSpiel. (Every game has at least one
        winner, so two seats are always zero-sum.)
    ``ENV_ID`` (``""``)
        The Gymnasium id registered for the game by :mod:`mousehole.gymnasium` (such as
        ``"mousehole/M-v0"``); ``""``: none (``MouseholeEnv(game_id)`` works all the same).
    ``DRAWING`` (``""``)
        The dotted name of the module that draws the game (its class ``Drawing``), imported
        by :mod:`mousehole.render` on first use.
    ``OPENSPIEL_DEFAULTS`` (``{}``)
        Parameter defaults that differ when the game is loaded through OpenSpiel (Kater
        Kasimir's ``explicit_chance`` is True there).
    ``SIMULTANEOUS_ACTIONS`` (``range(0)``)
        The actions the seats choose at the same time, each hidden from the others until
        all are in, though the engine takes them in turn (Maus au Chocolat's bids): the
        parallel PettingZoo environment asks every seat for one of these at once. A seat's
        choice among them may depend on its own hand only.
    :meth:`max_game_length` (``max_turns``)
        An upper bound on the decision nodes (actions of the seats) of one game.
    :meth:`chance_actions` (``range(0)``)
        The actions that are the outcomes of an explicit chance node, where the game has
        them (:meth:`StateAPI.chance_outcomes`).
    :meth:`greedy_value` (none)
        ``GreedyBot``'s heuristic (:mod:`mousehole.bots`): how good a full state is for a
        seat.
    :meth:`end_reason` (the turn limit, or ``"the game is over"``)
        Why a finished game ended, in words with the rule id (``mousehole play``'s end
        screen, the pictures' footers).
    :meth:`score_breakdown` (each seat's score alone)
        One line per seat showing how its score is made up, read from public facts only.
    :meth:`settled` (never before the end)
        Whether a seat's result can no longer change, read from that seat's view only
        (``mousehole play`` stops asking and playing then).
    :meth:`play_help` (``""``)
        The game's rules in a few lines, in the project's words with their ids: what the
        ``help`` command of ``mousehole play`` prints.

    ``docs/adding_a_game.md`` lists every place a new game touches.
    """

    #: registry id, e.g. ``"cheese_rescue"``
    name: ClassVar[str] = ""
    #: full display name
    title: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    #: every parameter with its default (``players`` and ``max_turns`` included)
    DEFAULTS: ClassVar[Dict[str, Any]] = {}
    #: the keys of a full state dict besides ``game``, ``params`` and ``view``
    STATE_KEYS: ClassVar[Tuple[str, ...]] = ()
    #: the dotted name of the module that draws this game (its class ``Drawing``), imported
    #: by :mod:`mousehole.render` on first use
    DRAWING: ClassVar[str] = ""
    #: ``"perfect"`` or ``"imperfect"`` information (see the class docstring, Facts)
    INFORMATION: ClassVar[str] = "imperfect"
    #: True when every finished game has exactly one winner
    SINGLE_WINNER: ClassVar[bool] = False
    #: the Gymnasium environment id, ``""`` for none
    ENV_ID: ClassVar[str] = ""
    #: parameter defaults that differ under OpenSpiel
    OPENSPIEL_DEFAULTS: ClassVar[Mapping[str, Any]] = {}
    #: the actions the seats choose simultaneously (hidden until all are in)
    SIMULTANEOUS_ACTIONS: ClassVar[range] = range(0)
    #: ``StrongBot``'s constants for this game (``c``, ``depth``, ``scale``, ``greedy``;
    #: ``mousehole.bots.StrongTuning``), tuned against GreedyBot; the bots' defaults otherwise
    SEARCH_TUNING: ClassVar[Mapping[str, float]] = {}
    #: what a score (``state.scores()``) counts in this game, one short phrase (``mousehole
    #: simulate``'s legend, the docs)
    SCORE: ClassVar[str] = ""
    #: the open readings of the rule texts, each a parameter (its default in ``DEFAULTS`` is
    #: ``reading.default``); checked before ``_configure`` and kept in :attr:`params`
    READINGS: ClassVar[Tuple[Reading, ...]] = ()
    #: the reference State class and the compiled one (None where missing), set by
    #: :meth:`_bind_states` at the end of the game's module
    _STATE_CLASSES: ClassVar[Tuple[Any, Any]] = (None, None)

    num_players: int
    """The number of seats (the ``players`` parameter)."""
    num_actions: int
    """The size of the fixed action space: every action is an int in ``[0, num_actions)``
    (each game's docs page has its encoding)."""
    observation_shape: Tuple[int, ...]
    """The shape of ``state.observation(p)`` (float32)."""
    max_turns: int
    """The turn limit that truncates a game (what it counts is the game's own; see its docs)."""

    def __init__(self, *, engine: Optional[str] = None, **params: Any) -> None:
        if any(type(k) is not str for k in params):  # (str subclasses as names: the str they hold)
            params = {exact(k): v for k, v in params.items()}
        unknown = sorted(set(params) - set(self.DEFAULTS))
        if unknown:
            shown = ", ".join(shorten(k, 40)[1:-1] if k.isidentifier() else shorten(k, 40) for k in unknown[:5])
            more = f" and {len(unknown) - 5:,} more" if len(unknown) > 5 else ""
            raise ParameterError(
                f"{self.name}: unknown parameter(s) {shown}{more}; allowed: {', '.join(sorted(self.DEFAULTS))}"
            )
        full = {k: _copy.deepcopy(v) for k, v in self.DEFAULTS.items()}
        full.update(param_values(self.name, params))
        self._explicit = sorted(params)
        players = full["players"]
        self.num_players = int_param(self.name, players, "players", self.min_players, self.max_players)
        self.max_turns = int_param(self.name, full["max_turns"], "max_turns", 1, MAX_TURNS)
        for r in self.READINGS:
            full[r.param] = r.check(self.name, full[r.param])
        configured: Dict[str, Any] = {"players": self.num_players, "max_turns": self.max_turns}
        configured.update(self._configure(full))
        configured.update({r.param: full[r.param] for r in self.READINGS})
        self._params = configured
        if engine is None:
            engine = default_engine()
        engine = exact(engine)  # (a numpy str as the str it holds; a str subclass's own == unheard)
        if type(engine) is not str or engine not in ENGINES:
            raise ParameterError(f"engine must be 'compiled' or 'python', got {shorten(engine)}")
        if engine == "compiled":
            cls = self.compiled_state() if not _PURE else None
            if cls is None:
                why = "MOUSEHOLE_PUREPYTHON is set" if _PURE else "the extension modules are not built"
                raise ParameterError(f"the compiled engine is not available ({why}); use engine='python'")
        else:
            cls = self.python_state()
        self.engine: str = engine
        self._state_cls: Any = cls
        if engine == "compiled":
            # ``new_state`` in one compiled call: the same checks and the same state as the
            # method below, without its Python frame (the per-call cost ``mousehole bench`` measures)
            setattr(self, "new_state", cls._new_state_function(self))  # noqa: B010  (mypy: a method)

    # -- to be provided by each game -------------------------------------------------------

    def _configure(self, params: Dict[str, Any]) -> Dict[str, Any]:
        """Validate ``params`` (defaults filled in), set derived attributes, return them
        (``players`` and ``max_turns``, checked before, come first without being returned)."""
        raise NotImplementedError

    @classmethod
    def python_state(cls) -> Any:
        """The reference (pure-Python) State class."""
        if cls._STATE_CLASSES[0] is None:
            raise NotImplementedError
        return cls._STATE_CLASSES[0]

    @classmethod
    def compiled_state(cls) -> Any:
        """The compiled State class, or None where the extension is missing."""
        return cls._STATE_CLASSES[1]

    @classmethod
    def _bind_states(cls, reference: type, compiled: Any) -> None:
        """Name the game's State classes (:meth:`python_state`, :meth:`compiled_state`):
        called once at the end of the game's module, where both are defined."""
        cls._STATE_CLASSES = (reference, compiled)

    def action_to_move(self, action: SupportsIndex) -> MoveT:
        """The Move object of int ``action`` (any action of the fixed action space)."""
        raise NotImplementedError

    def move_to_action(self, move: MoveT) -> int:
        """The int action of ``move``."""
        raise NotImplementedError

    def _action(self, action: Union[MoveT, SupportsIndex]) -> int:
        """``action``, an int or a Move, as an int action: a Move through
        :meth:`move_to_action`, anything else by :func:`check_action_type`'s rule (every
        method that takes either: ``describe``, ``joint_actions``, ...)."""
        return self.move_to_action(action) if isinstance(action, Move) else check_action_type(action)

    def parse_move(self, text: str) -> MoveT:
        """Read a Move from its ``str`` (``game.parse_move(str(m)) == m``); raises
        ``ValueError`` naming the notation when ``text`` is not a move of this game."""
        raise NotImplementedError

    def _determinize(self, view: Dict[str, Any], p: int, rng: Rng) -> Dict[str, Any]:
        """A full state dict built from seat ``p``'s view ``view`` (a deep copy the method
        may change) and ``rng`` alone: everything the view hides is drawn from ``rng``,
        consistently with the view."""
        raise NotImplementedError

    def _validate_dict(self, d: Dict[str, Any]) -> None:
        raise NotImplementedError

    def _redact(self, d: Dict[str, Any], p: int) -> Dict[str, Any]:
        raise NotImplementedError

    def _observation(self, d: Dict[str, Any], p: int) -> npt.NDArray[np.float32]:
        raise NotImplementedError

    def _render(self, d: Dict[str, Any]) -> str:
        raise NotImplementedError

    def _explain_illegal(self, state: "StateAPI[Any]", action: int) -> str:
        raise NotImplementedError

    # -- facts (see the class docstring; each game overrides what differs) ----------------

    def max_game_length(self) -> int:
        """An upper bound on the decision nodes (actions of the seats, chance nodes not
        counted) of one game with these parameters: ``max_turns`` unless the game
        overrides it (where ``max_turns`` counts something else, or the rules end a game
        sooner)."""
        return self.max_turns

    def chance_actions(self) -> range:
        """The actions that are outcomes of an explicit chance node
        (:meth:`StateAPI.chance_outcomes` lists some of them), the same at every chance
        node; ``range(0)`` when the game has no explicit chance node (chance then happens
        inside the state, from its own generator)."""
        return range(0)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in ("greedy_value", "search_value"):  # (a game's own: its seat checked first)
            fn = cls.__dict__.get(name)
            if callable(fn) and not getattr(fn, "_seat_checked", False):
                setattr(cls, name, _seat_checked(fn))

    def greedy_value(self, state: StateT, seat: int) -> float:
        """``GreedyBot``'s heuristic (:func:`mousehole.bots.heuristic`): how good full state
        ``state`` (a determinization) is for ``seat``, higher is better. A game without one
        raises ``NotImplementedError``. ``seat`` is checked (``TypeError`` for a bool,
        ``ValueError`` outside ``0..n-1``) in every game: a game's own ``greedy_value`` and
        ``search_value`` are wrapped when its class is made (``__init_subclass__``; this
        default's ``search_value`` asks the game's ``greedy_value``)."""
        raise NotImplementedError(f"{self.name} declares no greedy_value")

    def search_value(self, state: StateT, seat: int) -> float:
        """``StrongBot``'s evaluation at the end of a play-out, as the compiled core's
        ``evaluate`` computes it (the pure-Python search uses this one): by default
        :meth:`greedy_value`; a game whose core evaluates otherwise overrides it beside its
        rules."""
        return self.greedy_value(state, seat)

    def end_reason(self, state: StateT) -> str:
        """Why the finished game ``state`` ended, in words with the rule id (for M, ``"no
        card left in play fits the table any more (M-17)"``), or that the turn limit
        (``max_turns``) stopped it. Everything it reads is public. Raises ``ValueError``
        when the game is not over, ``TypeError`` for a state of another game."""
        self._own(state, "end_reason")
        if not state.is_terminal():
            raise ValueError(f"{self.name}: end_reason: the game is not over")
        return self._end_reason(state.to_dict())

    def _end_reason(self, d: Dict[str, Any]) -> str:
        """:meth:`end_reason` from a finished game's dict (whole or a view: what it reads is
        public); the drawing modules read it too. A game overrides it, calling this one
        for a truncated game."""
        return TURN_LIMIT_REASON if d["truncated"] else "the game is over"

    def score_breakdown(self, state: StateT) -> List[str]:
        """One line per seat: how its score (``state.scores()``, as it stands now) is made
        up, ending in ``= score``, with the rule ids (M: ``"2 chips (20) + blue 70 + pink 40 -
        green 30 = 100 (M-20)"``). Everything it reads is public, so every seat may see it
        (each game's scores are public). A game without a breakdown gives each score alone."""
        self._own(state, "score_breakdown")
        lines = self._score_breakdown(state.to_dict())
        if lines is None:
            return [f"score {s}" for s in state.scores()]
        return lines

    def _score_breakdown(self, d: Dict[str, Any]) -> Optional[List[str]]:
        """:meth:`score_breakdown` from a state dict (reading only its public parts); None:
        no breakdown."""
        return None

    def settled(self, state: StateT, seat: int) -> Optional[Tuple[bool, str]]:
        """Whether the result of ``seat`` can no longer change, whatever anyone plays from
        now on: ``None`` while it may; ``(True, why)`` when the seat is sure to be among the
        winners, ``(False, why)`` when it cannot be any more, ``why`` saying so in words with
        the rule ids. At the end of the game it is the result itself.

        It reads nothing but the seat's view (``state.to_dict(for_player=seat)``), so it
        tells the seat nothing it cannot see, and it is sound rather than complete: each game
        declares it where the rules bound the scores still to come (``docs/api.md``,
        Command line, says what it means per game), and says ``None`` where they do not.
        Raises ``ValueError`` for a seat out of range."""
        self._own(state, "settled")
        p = check_seat(self, seat, "seat")
        if state.is_terminal():
            won = p in state.winners()
            return won, "the game is over"
        return self._settled(state.to_dict(for_player=p), p)

    def _settled(self, view: Dict[str, Any], p: int) -> Optional[Tuple[bool, str]]:
        """:meth:`settled` before the end, from seat ``p``'s view alone."""
        return None

    def skipped_seats(self, mover: int, seat: int) -> Tuple[int, ...]:
        """The seats whose turns passed without a move between a move of ``mover`` and the
        next turn, ``seat``'s, in the order they were skipped: what ``mousehole play``
        announces. The default is none (in M, Cheese Rescue and Maus au Chocolat every seat
        that is due acts); Kater Kasimir skips a seat without a free mouse (KK-10, KK-11)."""
        return ()

    def play_help(self, state: StateT, seat: int) -> str:
        """The game's rules in a few lines, in the project's own words with the rule ids, as
        seat ``seat`` needs them now (what its moves look like, the rules that are easy to
        miss, the order of play where it changes): what ``mousehole play`` prints for
        ``help``. It reads nothing but the seat's view. ``""`` for a game that declares none."""
        self._own(state, "play_help")
        p = check_seat(self, seat, "seat")
        return self._play_help(state.to_dict(for_player=p), p)

    def _play_help(self, view: Dict[str, Any], p: int) -> str:
        """:meth:`play_help` from seat ``p``'s view."""
        return ""

    def _own(self, state: Any, what: str) -> None:
        """A ``TypeError`` unless ``state`` is a state of this game."""
        if not isinstance(state, StateAPI) or state.game != self:
            raise TypeError(f"{self.name}: {what} takes a state of this game, not {type(state).__name__}")

    @staticmethod
    def _lead(values: Sequence[float], seat: int) -> float:
        """``values[seat]`` minus the best of the other seats' values (for
        :meth:`greedy_value`)."""
        others = [v for p, v in enumerate(values) if p != seat]
        return values[seat] - (max(others) if others else 0.0)

    def _describe_seen(self, before: Dict[str, Any], after: Dict[str, Any], action: Optional[int]) -> str:
        """The move between two consecutive views of one seat in the game's notation, from
        the two views alone; ``action`` is ``after["history"][-1]`` (None where the view
        hides it). Games without hidden moves describe the action itself; M and Maus au
        Chocolat override this."""
        if action is None:
            raise StateError(f"{self.name}: a view of this game never hides a move")
        return str(self.action_to_move(action))

    def describe_seen(self, before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
        """The move that leads from view ``before`` to view ``after`` (two views of the same
        seat, ``state.to_dict(for_player=p)`` just before and just after one action), as that
        seat saw it: what :meth:`StateAPI.describe` writes when the seat may know all of the
        move, the public part of it otherwise (another seat's exchange in M is ``exchange a
        card``, another seat's bid in Maus au Chocolat is ``seat 1 bids face down``). It
        reads nothing but the two views, so every state that shows the seat these two views
        gets the same text. Raises :class:`StateError` when they are not such views."""
        for name, v in (("before", before), ("after", after)):
            expect(
                isinstance(v, Mapping)
                and v.get("game") == self.name
                and is_int(v.get("view"))
                and isinstance(v.get("history"), list),
                f"describe_seen: {name} must be a view of {self.name} (state.to_dict(for_player=p))",
            )
        expect(
            before["view"] == after["view"],
            f"describe_seen: the views are of seats {before['view']} and {after['view']}, not of one seat",
        )
        expect(
            len(after["history"]) == len(before["history"]) + 1,
            "describe_seen: the views must be one action apart (after's history one entry longer)",
        )
        action = after["history"][-1]
        expect(
            action is None or (is_int(action) and 0 <= action < self.num_actions),
            f"describe_seen: the last history entry of after is not an action: {shorten(action)}",
        )
        try:
            return self._describe_seen(dict(before), dict(after), action)  # (read, never changed)
        except StateError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            raise _malformed(self.name, "describe_seen: malformed view", e) from None

    # -- shared ----------------------------------------------------------------------------

    @property
    def params(self) -> Dict[str, Any]:
        """Every parameter, defaults filled in (a copy)."""
        # Every state dict carries the parameters: copied from a marshal blob, which is
        # several times faster than copying the nested lists (M's card table) in Python.
        blob = self.__dict__.get("_params_blob")
        if blob is None:
            try:
                blob = marshal.dumps(self._params)
            except ValueError:  # a value marshal cannot write: copy it the slow way
                return copy_data(self._params)  # type: ignore[no-any-return]
            self.__dict__["_params_blob"] = blob
        return marshal.loads(blob)  # type: ignore[no-any-return]

    def new_state(self, seed: Optional[SupportsIndex] = None) -> StateT:
        """The initial state; every random event of the game comes from ``seed`` (an int or a
        numpy integer, taken modulo 2**64): the same seed deals the same game, on either
        engine. Without a seed (or with None) the seed is a fresh 64-bit number from the
        operating system (:func:`fresh_seed`). Either way ``state.seed`` reports it, and
        ``new_state(seed=state.seed)`` is the same game again (records replay from it).

        In a game with hidden cards the seed is a secret: whoever knows or guesses it knows
        every hidden card, and the generator is not cryptographic (``docs/api.md``, "Seeds
        are secrets"). A small or predictable seed is for tests and experiments."""
        if type(seed) is int and 0 <= seed <= 0xFFFFFFFFFFFFFFFF:  # the common case, fast
            return self._state_cls.new(self, seed)  # type: ignore[no-any-return]
        if seed is None:
            return self._state_cls.new(self, fresh_seed())  # type: ignore[no-any-return]
        return self._state_cls.new(self, _seed(seed))  # type: ignore[no-any-return]

    def _check_header(self, d: Any, *, view: bool) -> None:
        """The parts of a state dict (or of a view, ``view=True``) every game shares: a
        dict with exactly the game's keys, this game's id and parameters. Any value is
        refused with :class:`StateError`, also one that cannot be compared or printed (a
        numpy array as the game id, a structure nested too deep)."""
        try:
            self._check_header_fields(d, view=view)
        except StateError:
            raise
        except (TypeError, ValueError, KeyError, IndexError, AttributeError, RecursionError) as e:
            raise _malformed(self.name, "malformed state dict", e) from None

    def _check_header_fields(self, d: Any, *, view: bool) -> None:
        if not isinstance(d, dict):
            raise StateError(f"a state dict must be a dict, not {type(d).__name__}")
        for k in d:
            if type(k) is not str:
                raise StateError(f"{self.name}: state dict keys are strings; got key {shorten(k)}")
        missing = [k for k in ("game", "params", "view") if k not in d]
        if missing:
            raise StateError(f"a state dict needs the keys game, params and view; missing: {', '.join(missing)}")
        if d["game"] != self.name:
            raise StateError(f"this dict is not a {self.name} state (game={shorten(d['game'])})")
        if d["params"] != self._params:
            raise StateError(f"{self.name}: the dict was made with other game parameters (key 'params')")
        if view:
            seat = as_int(d["view"])
            if seat is None or not 0 <= seat < self.num_players:
                raise StateError(
                    f"{self.name}: 'view' must be the seat 0..{self.num_players - 1} the view "
                    f"belongs to, got {shorten(d['view'])}"
                )
        elif d["view"] is not None:
            raise StateError(
                f"this is seat {shorten(d['view'])}'s redacted view, not a full state; use "
                "game.determinize_view(view, seed)"
            )
        if not view and self.STATE_KEYS:
            expected = set(self.STATE_KEYS) | {"game", "params", "view"}
            unknown = sorted(set(d) - expected)
            if unknown:
                raise StateError(
                    f"{self.name}: unknown key(s) {', '.join(map(repr, unknown))} in the state dict; "
                    f"allowed: {', '.join(sorted(expected))}"
                )
            missing = [k for k in self.STATE_KEYS if k not in d]
            if missing:
                raise StateError(f"{self.name}: the state dict is missing the key(s) {', '.join(map(repr, missing))}")
        if "rng" in d and not view:
            r = d["rng"]
            if not (type(r) is int and 0 <= r < 2**64):
                raise StateError(
                    f"{self.name}: 'rng' must be a 64-bit unsigned int (the generator state), got {shorten(r)}"
                )

    def state_from_dict(self, d: Mapping[str, Any]) -> StateT:
        """Rebuild a state from ``state.to_dict()`` (exact round trip); checks everything.

        Raises :class:`StateError` naming the key or the rule when ``d`` is not a state
        this game can reach: unknown or missing keys, wrong types (a bool is not an int),
        broken invariants, or a game that is not over but offers no action."""
        return self._load(d, owned=False)

    def _load(self, d: Mapping[str, Any], *, owned: bool, cls: Any = None) -> StateT:
        """``state_from_dict``; ``owned``: ``d`` was built here and nobody else holds it, so
        the engine may take it without a defensive copy (otherwise the copy is made first,
        and what is checked is what is built: another thread may change ``d``). ``cls``:
        the state class to build (its ``from_dict``), else the game's. The copy is made
        before any check, as plain data (:func:`copy_data`): the header is checked on it too."""
        if not owned and isinstance(d, dict):
            try:
                d = copy_data(d)
            except (KeyError, TypeError, ValueError, IndexError, AttributeError, RecursionError) as e:
                raise _malformed(self.name, "malformed state dict", e) from None
        self._check_header(d, view=False)
        assert isinstance(d, dict)
        try:
            self._validate_dict(d)
        except StateError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError, RecursionError) as e:
            raise _malformed(self.name, "malformed state dict", e) from None
        make = self._state_cls if cls is None else cls
        state = make._from_valid_dict(self, d)  # the engine's constructor, for a checked dict
        _check_playable(self, state)
        return state  # type: ignore[no-any-return]

    def determinize_view(self, view: Mapping[str, Any], seed: SupportsIndex) -> StateT:
        """A full state built from seat ``p``'s view alone (``view = state.to_dict(for_player=p)``,
        for example read back from JSON): everything the view hides is drawn from ``seed``,
        consistently with everything the view shows. The result depends on ``view`` and
        ``seed`` only, its own view for ``p`` equals ``view``, and
        ``state.determinize(p, seed)`` is exactly this.

        Raises :class:`StateError` when ``view`` is not a view of this game."""
        self._check_header(view, view=True)
        assert isinstance(view, dict)
        p = int(view["view"])
        s = _seed(seed)
        try:
            full = self._determinize(copy_data(view), p, Rng(s))
        except StateError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError, RecursionError) as e:
            raise _malformed(self.name, "malformed view", e) from None
        full["view"] = None
        state = self._load(full, owned=True)  # ``full`` is our own copy of the view
        try:  # (a view holding other objects than plain data, e.g. numpy arrays, compares badly)
            same = bool(state.to_dict(for_player=p) == view)
        except (TypeError, ValueError) as e:
            raise _malformed(self.name, "malformed view", e) from None
        if not same:
            raise StateError(
                f"{self.name}: the view is not consistent: no state of this game shows seat {p} exactly this view"
            )
        return state

    def _header(self) -> Dict[str, Any]:
        return {"game": self.name, "params": self.params, "view": None}

    def __repr__(self) -> str:
        shown = ["players"] + [k for k in self._explicit if k != "players"]
        args = "".join(f", {k}={self._params[k]!r}" for k in shown)
        return f"mousehole.load({self.name!r}{args}, engine={self.engine!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return (self.name, self.engine, self._params) == (other.name, other.engine, other._params)

    def __hash__(self) -> int:
        return hash((self.name, self.engine, repr(sorted(self._params.items()))))

    def __reduce__(self) -> Any:
        return (_load_game, (self.name, self._params, self.engine))


def fresh_seed() -> int:
    """A fresh 64-bit seed from the operating system's random source (``secrets``): what
    ``game.new_state()`` deals from when given no seed. Nobody can guess it, so the hidden
    cards it deals stay hidden as long as the seed itself does."""
    return _secrets.randbits(64)


def _seed(seed: Any) -> int:
    """A seed (any int, numpy integers too; not a bool) as a 64-bit unsigned int."""
    if type(seed) is int:  # the common case, first (new_state's cost)
        return seed & 0xFFFFFFFFFFFFFFFF
    return index_arg(seed, "a seed") & 0xFFFFFFFFFFFFFFFF


def load_state_as(cls: Any, game: Any, d: Any) -> Any:
    """``cls.from_dict(game, d)`` of an engine's state class ``cls`` (or a subclass): ``d``
    checked exactly as ``game.state_from_dict(d)`` checks it (:class:`StateError`), then
    built by ``cls._from_valid_dict``; ``TypeError`` when ``game`` is not a game of ``cls``."""
    core = next((k for k in getattr(cls, "__mro__", ()) if "_from_valid_dict" in vars(k)), None)
    ok = (
        isinstance(game, Game)
        and core is not None
        and any(c is not None and issubclass(c, core) for c in (game.python_state(), game.compiled_state()))
    )
    if not ok:
        raise TypeError(
            f"{getattr(cls, '__name__', cls)}.from_dict: game must be a mousehole Game of this "
            f"core's game (mousehole.load(...)), not {type(game).__name__}"
        )
    return game._load(d, owned=False, cls=cls)


def _check_playable(game: "Game[Any, Any]", state: "StateAPI[Any]") -> None:
    """Refuse a loaded state the game cannot go on from: a terminal flag that disagrees
    with the seat to move, or a game that is not over but offers no action."""
    cp = state.current_player
    n = game.num_players
    if state.is_terminal():
        if cp != TERMINAL:
            raise StateError(f"{game.name}: the state is terminal but names seat {cp} to move")
        return
    if cp == CHANCE:
        if not state.chance_outcomes():
            raise StateError(f"{game.name}: the state waits for chance but has no chance outcome")
        return
    if not 0 <= cp < n:
        raise StateError(f"{game.name}: the seat to move ({cp}) is not a seat 0..{n - 1}")
    if len(state.legal_actions()) == 0:
        raise StateError(
            f"{game.name}: the game is not over, yet seat {cp} has no legal action (no reachable state is like this)"
        )


def _load_game(name: str, params: Dict[str, Any], engine: str) -> "Game[Any, Any]":
    return load(name, engine=engine, **params)


_REGISTRY: Dict[str, Type["Game[Any, Any]"]] = {}
_G = TypeVar("_G", bound="Type[Game[Any, Any]]")


def register(cls: _G) -> _G:
    """Class decorator: make a Game subclass loadable by its ``name`` (each game module
    decorates its Game class; ``docs/adding_a_game.md``). A game defined elsewhere (a test's
    toy game, a game of your own) may be registered with it too, and removed again with
    :func:`unregister`. Raises ``ValueError`` when ``cls`` is not a Game subclass with a
    non-empty ``name``, or when that id already belongs to another class.

    >>> from mousehole import _api
    >>> class Solitaire(_api.Game):
    ...     name = "doc_solitaire"
    >>> _api.register(Solitaire) is Solitaire and "doc_solitaire" in _api.game_names()
    True
    >>> _api.unregister("doc_solitaire") is Solitaire, "doc_solitaire" in _api.game_names()
    (True, False)
    """
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        raise ValueError(f"register takes a Game subclass, not {shorten(cls)}")
    name = cls.name
    if type(name) is not str or not name:
        raise ValueError(f"{cls.__name__}: a registered game needs a non-empty str id (its class attribute name)")
    known = _REGISTRY.get(name)
    if known is not None and known is not cls:
        raise ValueError(f"the game id {name!r} is taken by {known.__module__}.{known.__qualname__}")
    _REGISTRY[name] = cls
    return cls


def unregister(name: str) -> "Type[Game[Any, Any]]":
    """Remove game ``name`` from the registry (what :func:`register` added) and return its
    class: :func:`load` and :func:`game_names` no longer know it. Raises
    :class:`ParameterError` for an id that is not registered."""
    if not isinstance(name, str) or name not in _REGISTRY:
        raise ParameterError(f"unknown game {shorten(name)}; known games: {', '.join(game_names())}")
    return _REGISTRY.pop(name)


def game_names() -> List[str]:
    """The ids of every registered game, sorted."""
    return sorted(_REGISTRY)


def load(name: str, *, engine: Optional[str] = None, **params: Any) -> "Game[Any, Any]":
    """Load game ``name`` with keyword parameters (every one has a default): the registry
    lookup behind :func:`mousehole.load`, which adds the per-game return types (its
    overloads live above the games, in ``mousehole._load``, so that this module imports
    none of them). Modules that take a game id as a ``str`` may call this one.

    >>> from mousehole import _api
    >>> _api.load("cheese_rescue", players=2, engine="python").num_players
    2
    """
    if not isinstance(name, str):
        raise ParameterError(f"a game id is a str, not {type(name).__name__}; known games: {', '.join(game_names())}")
    name = exact(name)
    if name not in _REGISTRY:
        raise ParameterError(f"unknown game {shorten(name)}; known games: {', '.join(game_names())}")
    return _REGISTRY[name](engine=engine, **params)


# --------------------------------------------------------------------------------------
# states


class StateAPI(Generic[MoveT]):
    """What every State offers beyond the engine protocol.

    Engine protocol (implemented per engine): ``game``, ``current_player``,
    ``legal_actions()``, ``apply_action(a)``, ``clone()``, ``is_terminal()``, ``truncated``,
    ``scores()``, ``winners()``, ``history``, ``_to_dict()`` and the static constructors
    ``new(game, seed)`` and ``_from_valid_dict(game, d)`` (trusted: a dict that
    ``game._validate_dict`` accepted). The public ``from_dict(game, d)`` checks ``d`` first.
    """

    __slots__ = ()

    # -- engine protocol (declared for type checkers; each engine implements it) --------
    if TYPE_CHECKING:  # pragma: no cover

        @property
        def game(self) -> "Game[Any, MoveT]":
            """The game this state belongs to (read-only: a property of the compiled cores;
            each game's public State type narrows it to its own Game class)."""

        @property
        def history(self) -> List[int]:
            """The actions applied since ``new_state`` (chance outcomes included where the
            game has explicit chance nodes), oldest first; a new list each time."""

        @property
        def truncated(self) -> bool:
            """True when the game ended because it reached ``max_turns`` rather than by
            its rules (:meth:`is_terminal` is then True too)."""

        @property
        def current_player(self) -> int:
            """The seat to move (0 .. ``num_players - 1``), :data:`CHANCE` at a chance
            node, :data:`TERMINAL` once the game is over."""

        def legal_actions(self) -> npt.NDArray[np.int64]:
            """The legal actions of the seat to move, a new sorted numpy ``int64`` array
            (the outcomes at a chance node; empty once the game is over)."""

        def apply_action(self, action: SupportsIndex) -> None:
            """Play ``action`` (an int of the action space, numpy integers too): the fast
            path of :meth:`apply`. Raises :class:`IllegalMoveError` naming the rule when the
            action is not legal here, ``TypeError`` for a non-integer; the state is then
            unchanged."""

        @classmethod
        def _from_valid_dict(cls, game: Any, d: Dict[str, Any]) -> Any: ...

        def is_terminal(self) -> bool:
            """True once the game is over (by its rules or by ``max_turns``)."""

        def scores(self) -> List[int]:
            """Every seat's score as the rules count it, defined at any moment (the score of
            the position so far before the end): each game's docs say what a score is."""

        def winners(self) -> List[int]:
            """The seats that won (several for a shared win), ascending; empty before the
            end."""

        def _to_dict(self) -> Dict[str, Any]: ...

    @property
    def seed(self) -> Optional[int]:
        """The seed this state's game was created from (``game.new_state(seed)``, modulo
        2**64, or the fresh one ``game.new_state()`` drew from the operating system), kept by
        clones and pickles: what a game record starts from (:mod:`mousehole.records`). None
        for a state loaded from a dict or determinized. A secret in the games with hidden
        cards: it tells every card still hidden."""
        return self._seed0

    @classmethod
    def from_dict(cls, game: Any, d: Mapping[str, Any]) -> Any:
        """A state of this class built from state dict ``d``, checked first exactly as
        ``game.state_from_dict(d)`` checks it (:class:`StateError`; ``TypeError`` for a game
        of another kind). The compiled cores define the same."""
        return load_state_as(cls, game, d)

    # -- what every reference engine's constructors and state dict share ----------------

    @classmethod
    def _reference(cls: Type[_S], game: Any, rng: int, history: List[int], seed: Optional[int]) -> _S:
        """A reference engine's state, for its ``new`` (``rng`` = ``seed``, no history) and
        its ``_from_valid_dict`` (the dict's ``rng`` and ``history``, no seed), its own fields
        still to set: ``game``, the random stream at ``rng``, ``history`` and the seed kept
        (:attr:`seed`)."""
        s = cls.__new__(cls)
        w: Any = s  # (the slots are the reference class's own)
        w.game = game
        w.rng = Rng(rng)
        w.history = history
        w._seed0 = seed
        return s

    def _closing_fields(self) -> Dict[str, Any]:
        """The last fields of a reference state's dict: ``rng``, ``history``, ``truncated``."""
        s: Any = self
        return {"rng": s.rng.state, "history": list(s.history), "truncated": s.truncated}

    def _set_seed(self, seed: Optional[int]) -> None:
        self._seed0 = seed  # type: ignore[misc]  # a slot of each reference state class

    def clone(self: _S) -> _S:
        """An independent copy (the reference engines copy through the state dict; the
        compiled cores override this with a struct copy)."""
        c = type(self)._from_valid_dict(self.game, self._to_dict())
        c._set_seed(self.seed)
        return c  # type: ignore[no-any-return]

    # -- moves -------------------------------------------------------------------------

    def legal_action_mask(self, out: Optional[npt.NDArray[np.bool_]] = None) -> npt.NDArray[np.bool_]:
        """Boolean mask of length ``game.num_actions``, True at the legal actions; written
        into ``out`` (a C-contiguous bool array of that length) when given."""
        mask = check_out(out, (self.game.num_actions,), np.bool_, "out")
        if mask is None:
            mask = np.zeros(self.game.num_actions, dtype=np.bool_)
        else:
            mask[...] = False
        mask[self.legal_actions()] = True
        return mask

    def legal_moves(self) -> List[MoveT]:
        """The legal actions as typed Move objects, in the same order."""
        to_move = self.game.action_to_move
        return [to_move(int(a)) for a in self.legal_actions()]

    def apply(self, move: Union[MoveT, SupportsIndex]) -> None:
        """Apply a Move object or an int action (numpy integers too); raises
        :class:`IllegalMoveError`."""
        if isinstance(move, Move):
            self.apply_action(self.game.move_to_action(move))
        elif isinstance(move, str):
            raise TypeError(
                f"apply takes a Move or an int action, not the text {move[:40]!r}: read a move "
                f"written in the game's notation with state.parse_action(text) (e.g. "
                f"state.apply_action(state.parse_action({move[:40]!r})))"
            )
        else:
            self.apply_action(check_action_type(move))

    def describe(self, action: Union[MoveT, SupportsIndex], *, for_player: Optional[SupportsIndex] = None) -> str:
        """``action`` (an int or a Move) in the game's readable notation, as the seat to
        move would play it now; :meth:`parse_action` reads it back. With ``for_player``:
        the move as that seat sees it when it is played (:meth:`Game.describe_seen` of the
        seat's views before and after it; the action must be legal here)."""
        if for_player is not None:
            return self._describe_for(action, for_player)
        a = self.game._action(action)
        return str(self.game.action_to_move(a))

    def _describe_for(self, action: Union[MoveT, SupportsIndex], for_player: SupportsIndex) -> str:
        """``describe(action, for_player=p)``: play ``action`` on a copy and describe the
        step from seat p's two views alone (raises :class:`IllegalMoveError` when the action
        is not legal here)."""
        p = check_seat(self.game, for_player, "for_player")
        a = self.game._action(action)
        after = self.clone()
        after.apply_action(a)
        return self.game.describe_seen(self.to_dict(for_player=p), after.to_dict(for_player=p))

    def parse_action(self, text: str) -> int:
        """The int action that ``text`` names in this state: the readable notation of
        :meth:`describe`, or the ``str`` of a Move. Raises ``ValueError`` (an
        :class:`IllegalMoveError` when the move is not legal here)."""
        a = self.game.move_to_action(self.game.parse_move(text))
        if a not in set(int(x) for x in self.legal_actions()):
            raise self._illegal(a)
        return int(a)

    def is_chance_node(self) -> bool:
        return bool(self.current_player == CHANCE)

    def chance_outcomes(self) -> List[Tuple[int, float]]:
        """``[(action, probability), ...]`` at a chance node; [] elsewhere."""
        return []

    def returns(self) -> List[float]:
        """+1 for each winner and -1 for each other seat at the end (0 for all when every
        seat wins); all 0.0 before the end."""
        n = self.game.num_players
        if not self.is_terminal():
            return [0.0] * n
        w = set(self.winners())
        if len(w) == n:
            return [0.0] * n
        return [1.0 if p in w else -1.0 for p in range(n)]

    def _illegal(self, action: Any) -> IllegalMoveError:
        """The error for an illegal int action, with the rule it breaks.

        A compiled core explains on a clone, one struct copy that no other thread can
        interrupt (the GIL is held throughout). Another thread may apply an action to this
        state between the check that refused ``action`` and this explanation, which reads the
        state field by field in Python. When ``action`` is legal in the clone, the state
        changed in between, and the message says so: there is no rule to name."""
        if self.game.engine != "compiled":
            return IllegalMoveError(self.game._explain_illegal(self, action))
        snap = self.clone()
        a = check_action_type(action)
        if 0 <= a < self.game.num_actions and a in snap.legal_actions():
            return IllegalMoveError(
                f"action {a} was not legal when it was applied; another thread changed the "
                "state meanwhile (it is legal in the state as it is now)"
            )
        return IllegalMoveError(self.game._explain_illegal(snap, a))

    # -- views -------------------------------------------------------------------------

    def _whole_dict(self) -> Dict[str, Any]:
        """``_to_dict()`` of one moment. A compiled core reads its dict field by field, and
        Python code runs in between (the header), where another thread may apply an action:
        the dict could mix two positions. So it is read from a clone, one struct copy that
        no other thread can interrupt (the GIL is held throughout)."""
        if self.game.engine == "compiled":
            return self.clone()._to_dict()
        return self._to_dict()

    def to_dict(self, *, for_player: Optional[SupportsIndex] = None) -> Dict[str, Any]:
        """The whole state as plain data (JSON-compatible), or seat ``for_player``'s view
        of it, in which everything that seat may not see is removed."""
        d = self._whole_dict()
        if for_player is not None:
            p = check_seat(self.game, for_player, "for_player")
            d = self.game._redact(d, p)
            d["view"] = p
        return d

    def observation(
        self, player: SupportsIndex, out: Optional[npt.NDArray[np.float32]] = None
    ) -> npt.NDArray[np.float32]:
        """Seat ``player``'s observation tensor, of shape ``game.observation_shape``;
        written into ``out`` (a C-contiguous float32 array of that shape) when given."""
        p = check_seat(self.game, player, "player")
        target = check_out(out, tuple(self.game.observation_shape), np.float32, "out")
        obs = self.game._observation(self._to_dict(), p)
        if target is None:
            return obs
        target[...] = obs
        return target

    def determinize(self: _S, player: SupportsIndex, seed: SupportsIndex) -> _S:
        """A full state that seat ``player`` cannot tell apart from this one: everything the
        seat cannot see is re-dealt at random (from ``seed``), consistently with what it has
        seen; the new state's own generator is re-seeded too. It depends only on the seat's
        view and ``seed``: it is ``game.determinize_view(state.to_dict(for_player=player), seed)``."""
        p = check_seat(self.game, player, "player")
        return self.game.determinize_view(self.to_dict(for_player=p), seed)  # type: ignore[no-any-return]

    def __str__(self) -> str:
        return self.game._render(self._whole_dict())

    def _repr_svg_(self) -> str:
        """The position as SVG (Jupyter shows it): :func:`mousehole.render.svg`, reached
        through :data:`svg_drawer`."""
        return svg_drawer(self)

    def __repr__(self) -> str:
        cp = self.current_player
        who = "terminal" if cp == TERMINAL else "chance" if cp == CHANCE else f"seat {cp} to play"
        return f"<{type(self).__name__} of {self.game!r}: {len(self.history)} actions, {who}>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, StateAPI):
            return NotImplemented
        return bool(self.game == other.game and self._whole_dict() == other._whole_dict())

    __hash__ = None  # type: ignore[assignment]

    def __copy__(self) -> Any:
        return self.clone()

    def __deepcopy__(self, memo: Dict[int, Any]) -> Any:
        return self.clone()

    def __reduce__(self) -> Any:
        return (_state_from_dict, (self.game, self._whole_dict(), self.seed))


#: a game's own Game class (``GameState``'s first parameter)
GameT = TypeVar("GameT", bound="Game[Any, Any]")


class GameState(StateAPI[MoveT], Generic[GameT, MoveT]):
    """The base of a game's public State type (``MState``, ``KasimirState``, ...): a
    :class:`StateAPI` whose ``game`` is typed as the game's own class, so that
    ``state.game.<a parameter>`` type-checks. The game's reference engine and its compiled
    core both derive from that type."""

    __slots__ = ()

    if TYPE_CHECKING:  # read-only, as on the compiled cores

        @property
        def game(self) -> GameT: ...


def _no_drawer(state: StateAPI[Any]) -> str:
    raise RuntimeError("mousehole.render is not wired in (import mousehole, not mousehole._api alone)")


#: ``StateAPI._repr_svg_``'s drawer, ``f(state) -> str``: :func:`mousehole.render.svg`, set by
#: the package's ``__init__`` (this module, below the games and the drawings, imports neither)
svg_drawer: Callable[[StateAPI[Any]], str] = _no_drawer


def _state_from_dict(game: "Game[Any, Any]", d: Dict[str, Any], seed: Optional[int] = None) -> Any:
    state = game.state_from_dict(d)
    state._set_seed(seed)
    return state


# --------------------------------------------------------------------------------------
# helpers for the game modules


def _malformed(game: str, what: str, e: BaseException) -> StateError:
    """The StateError for a dict or view that made a check raise ``e`` (its message cut to
    one line of at most 200 characters)."""
    return StateError(f"{game}: {what}: {type(e).__name__}: {clip(str(e), 200)}")


def expect(cond: bool, msg: str) -> None:
    """Raise :class:`StateError` with ``msg`` unless ``cond`` (dict validation)."""
    if not cond:
        raise StateError(msg)


def int_list(x: Any, n: Optional[int], what: str, lo: int = 0, hi: Optional[int] = None) -> List[int]:
    """Check that ``x`` is a list of ints (of length ``n`` if given) in ``[lo, hi]``."""
    expect(isinstance(x, list), f"{what} must be a list")
    if n is not None:
        expect(len(x) == n, f"{what} must have {n} entries, has {len(x)}")
    # fast path: every entry exactly an int, all in range (the common, valid case)
    if all(type(v) is int for v in x) and (not x or (min(x) >= lo and (hi is None or max(x) <= hi))):
        return x  # type: ignore[no-any-return]
    for v in x:
        expect(type(v) is int, f"{what} must hold ints, holds {shorten(v)}")
        expect(v >= lo and (hi is None or v <= hi), f"{what} holds {shorten(v)}, outside {lo}..{hi}")
    return x  # type: ignore[no-any-return]
