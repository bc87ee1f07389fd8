"""OpenSpiel games for every mousehole game (the ``openspiel`` extra: ``pip install 'open_spiel>=2.0'``,
Python 3.11+).

>>> import pyspiel, mousehole.openspiel                      # doctest: +SKIP
>>> mousehole.openspiel.register()                           # doctest: +SKIP
['mousehole_cheese_rescue', 'mousehole_kasimir', 'mousehole_m', 'mousehole_maus_au_chocolat']
>>> game = pyspiel.load_game("mousehole_m(players=3)")       # doctest: +SKIP

:func:`register` registers each game of :func:`mousehole.game_names` with ``pyspiel`` as the
Python game ``mousehole_<id>``. Its parameters are the game's scalar parameters (``players``,
``max_turns``, and the int, bool and str entries of its DEFAULT table; an int whose default
depends on the player count, such as Cheese Rescue's ``square``, has the default ``-1``,
which means just that; the list-valued tables keep their DEFAULT), plus

* ``engine``: ``"compiled"`` (the default where it is built) or ``"python"``;
* ``rng_seed`` (default -1): the seed of the deals. The games shuffle at setup and draw from
  a hidden pile during play, so they are *sampled stochastic*: each ``new_initial_state()``
  is a new deal, fixed when the state is created, and the hidden order of the pile is part of
  the state. With ``rng_seed=-1`` every state deals from its own fresh 64-bit seed drawn from
  the operating system (``secrets``: different in every process, and one
  state's seed tells nothing about another's); with ``rng_seed`` in ``0 .. 2**31 - 1`` the
  ``k``-th state made deals from ``derive(rng_seed, k)``, reproducible and therefore no
  secret. ``state.mousehole_state().seed`` is the seed a state dealt from (a record of the
  game replays from it);
* Kater Kasimir's ``explicit_chance`` defaults to True here: every roll of the die is a chance
  node whose outcomes ``0..len(die)-1`` are the face indices (*explicit stochastic*).

What each game declares (see ``docs/openspiel.md`` for the reasons):

* dynamics sequential (Maus au Chocolat's simultaneous bids are sequential turns whose bids
  stay hidden until the last one is in, as in the engine);
* information imperfect for Cheese Rescue, M and Maus au Chocolat (hidden hands and pile),
  perfect for Kater Kasimir;
* utility: the returns are ``StateAPI.returns()`` (+1 per winner, -1 per other seat, 0 for
  all when every seat wins, and at 2 players when none does), so zero-sum with 2 players,
  constant-sum ``2 - n`` for Maus au Chocolat with ``n > 2`` players (exactly one winner),
  general-sum otherwise; rewards come at the end only; utilities lie in ``[-1, 1]``;
* ``num_distinct_actions`` is ``game.num_actions``; ``max_game_length`` bounds the decision
  nodes of a game (the engine's ``max_turns``, or the game's own bound where lower);
* observation tensor: exactly ``state.observation(p)`` (shape ``game.observation_shape``);
  observation string: the JSON of seat ``p``'s view ``state.to_dict(for_player=p)`` without
  its parameters and its history;
* information-state string: the JSON of the whole view (history included) followed by
  ``trail=<hex>``, a digest of every view the seat has had since the start of the game (or
  since ``game.from_mousehole(state)``), so that it is perfect recall (it also tells apart,
  say, the order in which a seat drew cards that a single view no longer shows). There is no
  information-state tensor: a fixed-size perfect-recall tensor would need a slot per step for
  every observation.

``state.resample_from_infostate(p, sampler)`` (used by OpenSpiel's ``ISMCTSBot``) is
``state.determinize(p, seed)`` with a seed drawn from ``sampler``: everything seat ``p`` cannot
see is dealt again, consistently with its view.

Games and states pickle: a game as its parameters (``pyspiel.load_game(str(game))``, as
OpenSpiel does for every game: an unpickled ``rng_seed=-1`` game deals from fresh seeds, a
seeded one starts its deals again at ``k = 0``), a state as itself (``state.serialize()``
with its game: same history, same deal and pile, same information-state trails).
"""

from __future__ import annotations

import hashlib
import itertools
import json
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Tuple

import numpy as np

from ._api import (
    _REGISTRY,
    CHANCE,
    ENGINES,
    Game,
    ParameterError,
    StateAPI,
    available_engines,
    default_engine,
    fresh_seed,
    game_names,
    is_int,
    load,
    param_values,
)
from ._extras import install_hint
from ._rng import derive
from ._values import shorten

__all__ = ["register", "game_name", "load_game", "parameter_specification", "game_type_info"]

#: OpenSpiel names are ``mousehole_<game id>``
PREFIX = "mousehole_"


# The view keys that hold the history of the game (observation strings leave them out).
_HISTORY_KEYS = ("history", "log")

if TYPE_CHECKING:  # pragma: no cover
    MouseholeGame = Any
    MouseholeState = Any


def _pyspiel() -> Any:
    """``pyspiel``, or an ImportError that names the ``openspiel`` extra."""
    try:
        import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError as exc:
        raise ImportError(
            f"mousehole.openspiel needs OpenSpiel (open_spiel 2.x, Python 3.11 or later): {install_hint('openspiel')}"
        ) from exc
    return pyspiel


def game_name(game_id: str) -> str:
    """The OpenSpiel name of mousehole game ``game_id``: ``mousehole_<game_id>``."""
    if not isinstance(game_id, str) or game_id not in game_names():
        raise ParameterError(f"unknown game {shorten(game_id)}; known games: {', '.join(game_names())}")
    return PREFIX + game_id


# --------------------------------------------------------------------------------------
# parameters and game types (no pyspiel needed to compute them)


#: OpenSpiel's value for "the game's own default" of an int parameter whose default depends on
#: the player count (mousehole's None)
AUTO = -1

#: ``rng_seed`` for "every deal from a fresh seed drawn from the operating system" (the
#: default, as in OpenSpiel's own ``tarok`` and ``negotiation``)
OS_SEED = -1

#: the largest ``rng_seed``: OpenSpiel's int parameters are 32-bit
MAX_RNG_SEED = 2**31 - 1


def parameter_specification(game_id: str) -> Dict[str, Any]:
    """The OpenSpiel parameters of ``mousehole_<game_id>`` with their defaults: the game's
    scalar parameters (an int whose mousehole default is None, i.e. set by the player count,
    has the default ``-1``, which means the same), ``engine`` and ``rng_seed`` (``-1``: a
    fresh seed from the operating system for every deal; Kater Kasimir's ``explicit_chance``
    is True by default here)."""
    game_name(game_id)
    cached = _SPECS.get(game_id)
    if cached is not None:
        return dict(cached)
    cls = _REGISTRY[game_id]
    lo, hi = cls.min_players, cls.max_players
    resolved = [load(game_id, engine="python", players=n).params for n in (lo, hi)]
    spec: Dict[str, Any] = {}
    for k, v in cls.DEFAULTS.items():
        if isinstance(v, (bool, int, float, str)):
            spec[k] = v
        elif v is None and all(is_int(r[k]) for r in resolved):
            spec[k] = AUTO
    spec.update(cls.OPENSPIEL_DEFAULTS)  # e.g. Kater Kasimir's explicit chance
    spec["engine"] = default_engine()
    spec["rng_seed"] = OS_SEED
    _SPECS[game_id] = spec
    return dict(spec)


_SPECS: Dict[str, Dict[str, Any]] = {}


def _split_params(game_id: str, params: Optional[Mapping[str, Any]]) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """(every OpenSpiel parameter with defaults filled in, the mousehole parameters)."""
    spec = parameter_specification(game_id)
    given = dict(params or {})
    unknown = sorted(set(given) - set(spec))
    if unknown:
        raise ParameterError(
            f"{PREFIX}{game_id}: unknown parameter(s) {', '.join(unknown)}; allowed: {', '.join(sorted(spec))}"
        )
    full = dict(spec)
    full.update(given)
    engine = full["engine"]
    if engine not in ENGINES:
        raise ParameterError(f"{PREFIX}{game_id}: engine must be 'compiled' or 'python', got {shorten(engine)}")
    if engine not in available_engines():
        raise ParameterError(
            f"{PREFIX}{game_id}: the {engine} engine is not available here "
            f"(available: {', '.join(available_engines())})"
        )
    seed = full["rng_seed"]
    if not is_int(seed) or not OS_SEED <= seed <= MAX_RNG_SEED:
        raise ParameterError(
            f"{PREFIX}{game_id}: rng_seed must be -1 (a fresh seed from the operating "
            f"system for every deal) or a seed 0..{MAX_RNG_SEED} (OpenSpiel's ints are 32-bit), "
            f"got {shorten(seed)}"
        )
    defaults = _REGISTRY[game_id].DEFAULTS
    mh = {
        k: v
        for k, v in full.items()
        if k not in ("engine", "rng_seed") and not (defaults[k] is None and v == AUTO and is_int(v))
    }
    return full, mh


def _max_game_length(g: Game[Any, Any]) -> int:
    """An upper bound on the decision nodes (actions of the seats) of one game: the game's
    own :meth:`~mousehole.Game.max_game_length`."""
    return g.max_game_length()


def _chance_faces(g: Game[Any, Any]) -> Optional[Tuple[int, int]]:
    """(first chance action, number of outcomes) when the game has explicit chance nodes
    (:meth:`~mousehole.Game.chance_actions`)."""
    r = g.chance_actions()
    if len(r) == 0:
        return None
    return r.start, len(r)


def game_type_info(game_id: str, params: Optional[Mapping[str, Any]] = None) -> Dict[str, Any]:
    """What ``mousehole_<game_id>`` with ``params`` declares to OpenSpiel, as plain values:
    ``chance_mode``, ``information``, ``utility`` (OpenSpiel's enum names), ``utility_sum``,
    ``min_utility``, ``max_utility``, ``num_distinct_actions``, ``max_chance_outcomes``,
    ``max_game_length``, ``num_players``, ``observation_shape``."""
    _, mh = _split_params(game_id, params)
    return _type_info(load(game_id, engine="python", **mh))


def _type_info(g: Game[Any, Any]) -> Dict[str, Any]:
    n = g.num_players
    chance = _chance_faces(g)
    if chance is not None:
        chance_mode = "EXPLICIT_STOCHASTIC"
    else:
        # Cheese Rescue, M and Maus au Chocolat shuffle at setup and draw from a hidden pile;
        # Kater Kasimir without explicit chance rolls the die inside the state.
        chance_mode = "SAMPLED_STOCHASTIC"
    information = "PERFECT_INFORMATION" if g.INFORMATION == "perfect" else "IMPERFECT_INFORMATION"
    # returns(): +1 per winner, -1 per other seat, 0 for all when every seat wins and, at 2
    # players, when none does (Kater Kasimir, every seat eliminated), so two seats always sum
    # to 0; a game with exactly one winner (Maus au Chocolat, MC-25) has n seats sum to
    # 1 - (n - 1) = 2 - n.
    utility_sum: Optional[float]
    if n == 2:
        utility, utility_sum = "ZERO_SUM", 0.0
    elif g.SINGLE_WINNER:
        utility, utility_sum = "CONSTANT_SUM", float(2 - n)
    else:
        utility, utility_sum = "GENERAL_SUM", None
    return {
        "chance_mode": chance_mode,
        "information": information,
        "utility": utility,
        "utility_sum": utility_sum,
        "min_utility": -1.0,
        "max_utility": 1.0,
        "num_distinct_actions": g.num_actions,
        "max_chance_outcomes": 0 if chance is None else chance[1],
        "max_game_length": _max_game_length(g),
        "num_players": n,
        "observation_shape": tuple(g.observation_shape),
    }


# --------------------------------------------------------------------------------------
# the Python side of an OpenSpiel state (no pyspiel needed)


def _view_bytes(view: Dict[str, Any], drop: Tuple[str, ...]) -> bytes:
    return json.dumps({k: v for k, v in view.items() if k not in drop}, sort_keys=True, separators=(",", ":")).encode()


def _fold(digest: bytes, view: Dict[str, Any]) -> bytes:
    """The trail digest extended by one view (without parameters and history)."""
    return hashlib.blake2b(digest + _view_bytes(view, ("params",) + _HISTORY_KEYS), digest_size=16).digest()


class _Shared:
    """What every state of one OpenSpiel game shares: the mousehole game, where the deal
    seeds come from and the chance mapping. Never copied (``deepcopy`` returns it).

    ``next_seed()`` is the seed of the next new initial state: a fresh one from the
    operating system when ``rng_seed`` is None, else ``derive(rng_seed, k)`` for the
    ``k``-th state made (``k`` counts every new initial state, OpenSpiel's own throwaway ones
    included, so the same calls give the same deals)."""

    __slots__ = ("game", "rng_seed", "_counter", "chance", "n")

    def __init__(self, game: Game[Any, Any], rng_seed: Optional[int]) -> None:
        self.game = game
        self.rng_seed = rng_seed
        self._counter = itertools.count()  # next() on it is atomic: no two states share a k
        self.chance = _chance_faces(game)
        self.n = game.num_players

    def next_seed(self) -> int:
        k = next(self._counter)
        if self.rng_seed is None:
            return fresh_seed()
        return derive(self.rng_seed, k)

    def __deepcopy__(self, memo: Dict[int, Any]) -> "_Shared":
        return self

    def __reduce__(self) -> Any:
        # Pickled with a state (OpenSpiel's ``serialize`` pickles a state's attributes): the
        # game alone, never where the deals come from; a pickled state is always dealt.
        return (_Shared, (self.game, None))


class _Trail:
    """Seat ``p``'s record of what it saw: ``digest`` folds its view after each of the first
    ``steps`` actions since the core's base (and at the base itself; None: not folded yet);
    ``cursor`` is the engine state after those actions. Immutable: never changed in place,
    so copies of a state share it."""

    __slots__ = ("steps", "digest", "cursor")

    def __init__(self, steps: int, digest: Optional[bytes], cursor: StateAPI[Any]) -> None:
        self.steps = steps
        self.digest = digest
        self.cursor = cursor

    def __deepcopy__(self, memo: Dict[int, Any]) -> "_Trail":
        return self

    def __reduce__(self) -> Any:
        return (_Trail, (self.steps, self.digest, self.cursor))


class _Core:
    """The engine state of an OpenSpiel state and the seats' trails (``base``: the engine's
    history length where the trails start).

    A new initial state takes the seed of its deal when it is made (``seed``), so that no two
    states share a deal whatever is called on them first, and deals it on first use: OpenSpiel's
    ``Clone`` makes a fresh initial state and overwrites it, and its tensor-shape queries
    observe one and throw it away; those cost a seed, not a deal."""

    __slots__ = ("shared", "_s", "seed", "base", "trails")

    def __init__(
        self,
        shared: _Shared,
        s: Optional[StateAPI[Any]] = None,
        base: int = 0,
        trails: Optional[Tuple[_Trail, ...]] = None,
        seed: Optional[int] = None,
    ) -> None:
        self.shared = shared
        self._s = s
        self.seed = seed
        self.base = base
        self.trails: Tuple[_Trail, ...] = () if trails is None else trails
        if s is not None and trails is None:
            self._start_trails(s)

    def _start_trails(self, s: StateAPI[Any]) -> None:
        start = _Trail(0, None, s.clone())
        self.base = len(s.history)
        self.trails = (start,) * self.shared.n

    @property
    def s(self) -> StateAPI[Any]:
        """The engine state (dealt on first use)."""
        s = self._s
        if s is None:
            assert self.seed is not None
            s = self.shared.game.new_state(self.seed)
            self._s = s
            self._start_trails(s)
        return s

    def __deepcopy__(self, memo: Dict[int, Any]) -> "_Core":
        if self._s is None:  # a copy of an untouched state gets the same deal
            return _Core(self.shared, seed=self.seed)
        return _Core(self.shared, self._s.clone(), self.base, self.trails)

    def __reduce__(self) -> Any:
        return (_Core, (self.shared, self.s, self.base, self.trails))

    def trail(self, p: int) -> _Trail:
        """Seat ``p``'s trail brought up to the current state (replaying the actions since
        its cursor on a copy of the cursor)."""
        s = self.s
        t = self.trails[p]
        hist = s.history
        m = len(hist) - self.base
        if t.digest is not None and t.steps == m:
            return t
        cur = t.cursor
        digest = t.digest
        if digest is None:
            digest = _fold(b"", cur.to_dict(for_player=p))
        if t.steps < m:
            cur = cur.clone()
            for a in hist[self.base + t.steps : self.base + m]:
                cur.apply_action(a)
                digest = _fold(digest, cur.to_dict(for_player=p))
        t = _Trail(m, digest, cur)
        trails = list(self.trails)
        trails[p] = t
        self.trails = tuple(trails)
        return t


def observation_string(s: StateAPI[Any], p: int) -> str:
    """Seat ``p``'s observation string of mousehole state ``s``: the JSON of its view without
    the parameters and the history."""
    return _view_bytes(s.to_dict(for_player=p), ("params",) + _HISTORY_KEYS).decode()


# --------------------------------------------------------------------------------------
# the pyspiel classes (built on first use)

_CLASSES: Optional[Tuple[Any, Any]] = None


class _Observer:
    """OpenSpiel's Python observer protocol (``tensor``, ``dict``, ``set_from``,
    ``string_from``): the observation (tensor and string) or the information state
    (string only)."""

    def __init__(self, shape: Tuple[int, ...], info_state: bool) -> None:
        self.info_state = info_state
        self.tensor: Optional[np.ndarray[Any, Any]]
        if info_state:
            self.tensor = None
            self.dict: Dict[str, Any] = {}
        else:
            self.tensor = np.zeros(int(np.prod(shape)), dtype=np.float32)
            self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: Any, player: int) -> None:
        if self.tensor is not None:
            state._core.s.observation(player, out=self.dict["observation"])

    def string_from(self, state: Any, player: int) -> str:
        core = state._core
        if not self.info_state:
            return observation_string(core.s, player)
        s = core.s
        t = core.trail(player)
        assert t.digest is not None
        view = _view_bytes(s.to_dict(for_player=player), ("params",)).decode()
        return f"{view} trail={t.digest.hex()}"


def _define_game(pyspiel: Any, state_cls: Any) -> Any:
    """The class ``MouseholeGame``, a ``pyspiel.Game`` whose states are ``state_cls``."""
    GT = pyspiel.GameType

    class MouseholeGame(pyspiel.Game):  # type: ignore[misc, name-defined, valid-type, unused-ignore]
        """A mousehole game as an OpenSpiel Python game (``pyspiel.load_game("mousehole_m")``)."""

        def __init__(self, game_id: str, params: Optional[Mapping[str, Any]] = None) -> None:
            full, mh = _split_params(game_id, params)
            g = load(game_id, engine=full["engine"], **mh)
            info = _type_info(g)
            gtype = GT(
                short_name=PREFIX + game_id,
                long_name=f"mousehole {g.title}",
                dynamics=GT.Dynamics.SEQUENTIAL,
                chance_mode=getattr(GT.ChanceMode, info["chance_mode"]),
                information=getattr(GT.Information, info["information"]),
                utility=getattr(GT.Utility, info["utility"]),
                reward_model=GT.RewardModel.TERMINAL,
                max_num_players=type(g).max_players,
                min_num_players=type(g).min_players,
                provides_information_state_string=True,
                provides_information_state_tensor=False,
                provides_observation_string=True,
                provides_observation_tensor=True,
                parameter_specification=parameter_specification(game_id),
            )
            ginfo = pyspiel.GameInfo(
                num_distinct_actions=info["num_distinct_actions"],
                max_chance_outcomes=info["max_chance_outcomes"],
                num_players=info["num_players"],
                min_utility=info["min_utility"],
                max_utility=info["max_utility"],
                utility_sum=info["utility_sum"],
                max_game_length=info["max_game_length"],
            )
            super().__init__(gtype, ginfo, full)
            self._game_id = game_id
            rng_seed = int(full["rng_seed"])
            self._shared = _Shared(g, None if rng_seed == OS_SEED else rng_seed)
            self._max_chance_nodes = info["max_game_length"] if info["max_chance_outcomes"] else 0

        @property
        def mousehole_game(self) -> Game[Any, Any]:
            """The mousehole game behind this OpenSpiel game."""
            return self._shared.game

        def new_initial_state(self, *args: Any) -> Any:
            """A new deal: its seed is taken now (a fresh one from the operating system, or
            the next one derived from ``rng_seed``), the cards are dealt on first use."""
            if args:
                raise ValueError(
                    f"{self.get_type().short_name}: new_initial_state takes no argument "
                    "(use game.from_mousehole(state) to start from a given position)"
                )
            shared = self._shared
            return state_cls(self, _Core(shared, seed=shared.next_seed()))

        def from_mousehole(self, state: StateAPI[Any]) -> Any:
            """An OpenSpiel state holding a copy of mousehole state ``state`` (of this game and
            engine). Its OpenSpiel ``history()`` starts empty and the seats' information-state
            trails start at this position."""
            if not isinstance(state, StateAPI) or state.game != self._shared.game:
                raise ValueError(f"from_mousehole needs a state of {self._shared.game!r}, got {state!r}")
            return state_cls(self, _Core(self._shared, state.clone()))

        def max_chance_nodes_in_history(self) -> int:
            return int(self._max_chance_nodes)

        def __reduce__(self) -> Any:
            """Pickled as its parameters (``pyspiel.load_game(str(game))``, as OpenSpiel
            pickles every game): a game with ``rng_seed=-1`` deals from fresh seeds when
            unpickled, a seeded one starts its deals again at ``k = 0``."""
            return (_unpickle_game, (self._game_id, dict(self.get_parameters())))

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
            if isinstance(iig_obs_type, dict):  # OpenSpiel calls f(params) without a type
                iig_obs_type, params = None, iig_obs_type
            if params:
                raise ValueError(f"observation parameters are not supported; passed {params}")
            if iig_obs_type is None:
                info_state = False
            else:
                if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
                    raise ValueError(
                        "mousehole games observe for one seat: public_info=True and private_info=SINGLE_PLAYER only"
                    )
                info_state = bool(iig_obs_type.perfect_recall)
            return _Observer(tuple(self._shared.game.observation_shape), info_state)

    return MouseholeGame


def _chance_outcomes(core: _Core) -> List[Tuple[int, float]]:
    """``MouseholeState.chance_outcomes``: the engine's, numbered from 0 for OpenSpiel."""
    chance = core.shared.chance
    outcomes = core.s.chance_outcomes()
    if chance is None:
        return [(int(a), float(p)) for a, p in outcomes]
    return [(int(a) - chance[0], float(p)) for a, p in outcomes]


def _action_text(core: _Core, player: int, action: int) -> str:
    """``MouseholeState._action_to_string``: the move in words where the seat to move
    plays it, else its notation."""
    g = core.shared.game
    a = int(action)
    chance = core.shared.chance
    if player == CHANCE and chance is not None:
        a += chance[0]
    if player == core.s.current_player:
        try:
            return core.s.describe(a)
        except (ValueError, TypeError, IndexError):
            pass
    return str(g.action_to_move(a))


def _define_state(pyspiel: Any) -> Any:
    """The class ``MouseholeState``, a ``pyspiel.State``."""

    class MouseholeState(pyspiel.State):  # type: ignore[misc, name-defined, valid-type, unused-ignore]
        """An OpenSpiel state around a mousehole state (``state.mousehole_state()``)."""

        def __init__(self, game: Any, core: _Core) -> None:
            super().__init__(game)
            self._core = core

        # -- OpenSpiel's Python state protocol ------------------------------------------

        def current_player(self) -> int:
            return int(self._core.s.current_player)  # CHANCE (-1) / TERMINAL (-4) as OpenSpiel

        def _legal_actions(self, player: int) -> List[int]:
            return self._core.s.legal_actions().tolist()  # type: ignore[no-any-return]

        def chance_outcomes(self) -> List[Tuple[int, float]]:
            return _chance_outcomes(self._core)

        def _apply_action(self, action: int) -> None:
            core = self._core
            s = core.s
            chance = core.shared.chance
            if chance is not None and s.current_player == CHANCE:
                s.apply_action(chance[0] + int(action))
            else:
                s.apply_action(action)

        def _action_to_string(self, player: int, action: int) -> str:
            return _action_text(self._core, player, action)

        def is_terminal(self) -> bool:
            return bool(self._core.s.is_terminal())

        def returns(self) -> List[float]:
            return [float(r) for r in self._core.s.returns()]

        def __str__(self) -> str:
            return str(self._core.s)

        def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> Any:
            """A state that seat ``player_id`` cannot tell from this one: ``determinize`` with
            a seed drawn from ``probability_sampler`` (a callable giving numbers in [0, 1)).
            The seat's information-state string is unchanged; the OpenSpiel ``history()`` is
            this state's (OpenSpiel's bookkeeping, not the sampled world's)."""
            core = self._core
            p = int(player_id)
            t = core.trail(p)
            hi = int(float(probability_sampler()) * 2.0**32) & 0xFFFFFFFF
            lo = int(float(probability_sampler()) * 2.0**32) & 0xFFFFFFFF
            det = core.s.determinize(p, (hi << 32) | lo)
            new = self.clone()
            fresh = _Trail(0, None, det.clone())
            trails = tuple(_Trail(0, t.digest, fresh.cursor) if q == p else fresh for q in range(core.shared.n))
            new._core = _Core(core.shared, det, len(det.history), trails)
            return new

        # -- mousehole extras ----------------------------------------------------------

        def mousehole_state(self) -> StateAPI[Any]:
            """A copy of the mousehole state behind this OpenSpiel state (its ``seed`` is the
            seed this deal came from)."""
            return self._core.s.clone()

        def __reduce__(self) -> Any:
            """Pickled as its game and ``serialize()`` (the OpenSpiel history and move number,
            and the engine state with the seats' information-state trails): the copy has the
            same history, deal, hidden pile and generator state, and plays on identically."""
            return (_unpickle_state, (self.get_game(), self.serialize()))

    return MouseholeState


def _classes() -> Tuple[Any, Any]:
    """(MouseholeGame, MouseholeState), subclasses of ``pyspiel.Game`` / ``pyspiel.State``."""
    global _CLASSES
    if _CLASSES is not None:
        return _CLASSES
    pyspiel = _pyspiel()
    MouseholeState = _define_state(pyspiel)
    MouseholeGame = _define_game(pyspiel, MouseholeState)
    MouseholeGame.__module__ = MouseholeState.__module__ = __name__
    MouseholeGame.__qualname__ = "MouseholeGame"
    MouseholeState.__qualname__ = "MouseholeState"
    _CLASSES = (MouseholeGame, MouseholeState)
    return _CLASSES


def __getattr__(name: str) -> Any:
    """``mousehole.openspiel.MouseholeGame`` / ``MouseholeState`` and the per-game classes
    (``MOpenSpielGame``, ...; imports pyspiel)."""
    if name == "MouseholeGame":
        return _classes()[0]
    if name == "MouseholeState":
        return _classes()[1]
    for game_id in game_names():
        if name == _class_name(game_id):
            return _game_class(game_id)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _unpickle_game(game_id: str, params: Dict[str, Any]) -> Any:
    return load_game(game_id, **params)


def _unpickle_state(game: Any, text: str) -> Any:
    state = game.deserialize_state(text)
    state._core.shared = game._shared  # the unpickled game's, not the stand-in pickled with it
    return state


def _class_name(game_id: str) -> str:
    return "".join(w.capitalize() for w in game_id.split("_")) + "OpenSpielGame"


def _game_class(game_id: str) -> Any:
    """The ``pyspiel.Game`` subclass of one game: pyspiel calls it with the parameters of
    ``load_game``. (A class, not a closure or a callable instance: pyspiel keeps the
    creator in a C++ static, and releasing anything else at interpreter exit crashes.)"""
    cls = _GAME_CLASSES.get(game_id)
    if cls is None:
        base = _classes()[0]

        def __init__(self: Any, params: Optional[Mapping[str, Any]] = None) -> None:
            base.__init__(self, game_id, params)

        name = _class_name(game_id)
        cls = type(
            name,
            (base,),
            {
                "__init__": __init__,
                "__module__": __name__,
                "__qualname__": name,
                "__doc__": f"``mousehole_{game_id}`` for OpenSpiel.",
            },
        )
        _GAME_CLASSES[game_id] = cls
    return cls


_GAME_CLASSES: Dict[str, Any] = {}
_REGISTERED: List[str] = []


def register() -> List[str]:
    """Register every mousehole game with ``pyspiel`` (as ``mousehole_<id>``) and return the
    names; calling it again does nothing more. Raises ImportError when OpenSpiel is missing."""
    pyspiel = _pyspiel()
    known = set(pyspiel.registered_names())
    for game_id in game_names():
        name = PREFIX + game_id
        if name in known or name in _REGISTERED:
            continue
        cls = _game_class(game_id)
        pyspiel.register_game(cls().get_type(), cls)
        _REGISTERED.append(name)
    return [PREFIX + g for g in game_names()]


def load_game(game_id: str, **params: Any) -> Any:
    """``pyspiel.load_game("mousehole_<game_id>", params)`` after :func:`register`.

    >>> game = mousehole.openspiel.load_game("m", players=3, engine="python")  # doctest: +SKIP
    """
    name = game_name(game_id)
    pyspiel = _pyspiel()
    register()
    # Every value checked in mousehole's terms first (ParameterError), as load checks it:
    # numpy scalars as Python values, the names, engine and rng_seed, then the game's own
    # ranges, all of them inside OpenSpiel's 32-bit ints. pybind11 would answer a value it
    # cannot convert with a bare RuntimeError.
    given = param_values(name, params)
    full, mh = _split_params(game_id, given)
    load(game_id, engine=full["engine"], **mh)
    return pyspiel.load_game(name, given)
