"""PettingZoo environments for every mousehole game (``pip install 'pettingzoo>=1.25'``).

>>> import mousehole.pettingzoo
>>> env = mousehole.pettingzoo.env("cheese_rescue", players=2)   # doctest: +SKIP
>>> env.reset(seed=1)                                             # doctest: +SKIP

:func:`env` is an AEC environment (one agent acts at a time, the game's own turn order);
:func:`parallel_env` is a ``ParallelEnv`` of the same game in which a step asks only the
agents with a pending decision. Both play one game of the chosen id, with its keyword
parameters, on either engine (``engine=`` is passed to :func:`mousehole.load`).

The AEC environment:

* agents are ``player_0`` .. ``player_{n-1}`` (seat ``p`` is ``player_p``); the agent to act
  is always the seat to move of the game (``state.current_player``);
* ``observe(agent)`` is ``{"observation": state.observation(p), "action_mask": mask}``: the
  seat's own observation tensor (float32, ``game.observation_shape``) and an int8 mask of
  ``game.num_actions`` that marks the legal actions for the agent to move and is all zeros
  for every other agent (and for everyone once the game is over);
* ``action_space(agent)`` is ``Discrete(num_actions)``; an action outside it, of a wrong type,
  or forbidden by the rules raises (``TypeError``, ``ValueError``,
  :class:`mousehole.IllegalMoveError`) and leaves the environment unchanged;
* rewards are 0 until the end, then the game's ``returns()`` (+1 per winner, -1 per other
  seat, all 0 when every seat wins); ``terminations`` become True when the game ends by its
  rules, ``truncations`` when ``max_turns`` stopped it (``state.truncated``);
* chance nodes (Kater Kasimir with ``explicit_chance=True``) are resolved inside the
  environment with its own generator, by the probabilities of ``chance_outcomes()``, so the
  agents only ever see decision nodes;
* the bids of Maus au Chocolat, simultaneous in the rules, are sequential turns here; a seat's
  observation never shows a bid that is still face down, so no seat learns another's bid
  before making its own;
* ``reset(seed=s)`` starts ``game.new_state(s)`` and reseeds the environment's generator with
  ``s``; ``reset()`` draws the game's seed from that generator (so a seeded reset followed by
  unseeded ones is reproducible);
* ``illegal_action="raise"`` (default) raises for an action the rules forbid now;
  ``illegal_action="lose"`` (for checkers and trainers that step unmasked actions, such as
  RLlib's environment check) ends the episode instead, as the Gymnasium environment's
  ``"lose"`` and PettingZoo's own board games do: the agent that chose it gets reward -1,
  every other agent 0, every agent ``terminations`` True and an all-zero mask, and
  ``infos[agent]["illegal_action"] = True``; the game state is left as it was (not over by
  its rules);
  ``illegal_action="random"`` (an explicit opt-in, for callers that sample without the mask)
  plays instead a uniformly random legal action drawn from the environment's generator and
  sets ``infos[agent]["illegal_action"] = True`` for that step;
* ``max_cycles=c`` truncates the game after ``c`` *cycles*. A cycle is a run of consecutive
  turns in which no agent acts twice: it ends just before an agent would act a second time.
  Where the turn passes round the table one action per turn (Cheese Rescue always; Kater
  Kasimir while nobody skips a turn; M between scorings) a cycle is one action by every
  agent, so ``c`` cycles are ``c`` actions per agent. The truncated game is left unfinished:
  every agent gets ``truncations`` True and reward 0.

Rendering (both environments): ``render_mode`` is None, ``"human"`` (the text diagram printed
after ``reset`` and every step, and by ``render()``, which returns None), ``"ansi"``
(``render()`` returns the text diagram) or ``"rgb_array"`` (``render()`` returns the picture
of :func:`mousehole.render.svg` as an ``(H, W, 3)`` uint8 array; it needs the ``render``
extra (``pip install 'cairosvg>=2.7' 'pillow>=9'``) and raises an ``ImportError`` naming it when it is
missing). ``render(mode)`` draws once in another of these modes; ``render(None)``, the call
RLlib's PettingZoo wrappers make, is ``render()``. ``render_view`` says whose view is drawn:
``"agent"`` (default) the seat whose decision is pending (see each class), an int ``p`` seat
``p``'s view, ``"full"`` the whole position with every hand. A seat's view is drawn from
``state.to_dict(for_player=p)`` alone (:func:`mousehole.render.text`,
:func:`mousehole.render.rgb_array`), so it shows nothing that seat may not see.

The environments pass PettingZoo's ``api_test``, ``seed_test``, ``render_test`` and
``parallel_api_test`` for every game, player count and engine, and ``max_cycles_test`` where
the turn passes round the table (``tests/test_pettingzoo_env.py``; ``docs/environments.md``
says why not elsewhere); with ``illegal_action="lose"`` they pass RLlib's
``check_multiagent_environments`` through RLlib's ``PettingZooEnv`` and ``ParallelPettingZooEnv``
(``tests/test_clients_rllib.py``; :mod:`mousehole.rllib` is RLlib's own environment).
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Set, Tuple, Union

import numpy as np
import numpy.typing as npt

from ._extras import install_hint

try:
    import gymnasium  # type: ignore[import-untyped, import-not-found, unused-ignore]
    import pettingzoo  # type: ignore[import-untyped, import-not-found, unused-ignore]
except ImportError as exc:  # pragma: no cover - exercised in a subprocess by the tests
    raise ImportError(
        f"mousehole.pettingzoo needs PettingZoo (Python 3.10 or later): {install_hint('pettingzoo')}"
    ) from exc

from . import render as _render
from ._api import CHANCE, TERMINAL, Game, IllegalMoveError, StateAPI, check_seat, index_arg, load
from ._values import exact, shorten, word

__all__ = ["MouseholeAECEnv", "MouseholeParallelEnv", "env", "parallel_env", "agent_name", "RENDER_MODES"]

_AECEnv: Any = pettingzoo.AECEnv
_ParallelEnv: Any = pettingzoo.ParallelEnv

_ILLEGAL_MODES = ("raise", "lose", "random")
#: the render modes of both environments
RENDER_MODES = ("human", "ansi", "rgb_array")
RenderView = Union[str, int]


def agent_name(seat: int) -> str:
    """The agent id of ``seat``: ``player_<seat>``."""
    return f"player_{seat}"


def env(game_id: str, render_mode: Optional[str] = None, **options: Any) -> "MouseholeAECEnv":
    """A PettingZoo AEC environment playing ``mousehole.load(game_id, engine=engine,
    **params)``; ``render_mode`` is None, ``"human"``, ``"ansi"`` or ``"rgb_array"``; the
    keyword-only ``options`` are those of :class:`MouseholeAECEnv`: ``engine``, ``max_cycles``
    None (no limit) or a positive int, ``illegal_action`` ``"raise"``, ``"lose"`` or
    ``"random"``, ``render_view`` ``"agent"``, a seat or ``"full"`` (see the module docstring),
    and the game's parameters."""
    return MouseholeAECEnv(game_id, render_mode, **options)


def parallel_env(game_id: str, render_mode: Optional[str] = None, **options: Any) -> "MouseholeParallelEnv":
    """A PettingZoo parallel environment in which a step asks only the agents with a
    pending decision (see :class:`MouseholeParallelEnv`); the arguments are those of
    :func:`env`, except that ``max_cycles`` counts parallel steps."""
    return MouseholeParallelEnv(game_id, render_mode, **options)


def _illegal_mode(illegal_action: Any) -> str:
    """``illegal_action`` as the exact str it holds, one of ``_ILLEGAL_MODES``."""
    mode = word(illegal_action, _ILLEGAL_MODES)
    if mode is None:
        raise ValueError(f"illegal_action must be 'raise', 'lose' or 'random', got {shorten(illegal_action)}")
    return mode


def _mode_option(render_mode: Any) -> Optional[str]:
    """``render_mode`` as None or the exact str it holds, one of ``RENDER_MODES``."""
    mode = None if render_mode is None else word(render_mode, RENDER_MODES)
    if render_mode is not None and mode is None:
        raise ValueError(f"render_mode must be None, 'human', 'ansi' or 'rgb_array', got {shorten(render_mode)}")
    return mode


def _check_options(max_cycles: Any, illegal_action: Any) -> Optional[int]:
    _illegal_mode(illegal_action)
    if max_cycles is None:
        return None
    c = index_arg(max_cycles, "max_cycles", " or None")
    if c < 1:
        raise ValueError(f"max_cycles must be at least 1, got {c}")
    return c


def _check_render(game: Game[Any, Any], render_mode: Any, render_view: Any) -> RenderView:
    """Check ``render_mode`` and ``render_view``; return the view ("agent", "full" or a seat)."""
    _mode_option(render_mode)
    if isinstance(render_view, str):
        view = word(render_view, ("agent", "full"))
        if view is None:
            raise ValueError(
                f"render_view must be 'agent' (the seat whose decision is pending), "
                f"'full' (the whole position) or a seat, got {shorten(render_view)}"
            )
        return view
    return check_seat(game, render_view, "render_view")


def _render_mode(render_mode: Optional[str], mode: Any) -> Optional[str]:
    """The mode ``render(mode)`` draws in: ``mode`` when one is given, else the environment's
    ``render_mode`` (RLlib's PettingZoo wrappers call ``render(self.render_mode)``, None
    unless set on the wrapper)."""
    if mode is None:
        return render_mode
    chosen = word(mode, RENDER_MODES)
    if chosen is None:
        raise ValueError(
            f"render(mode): mode must be None (the environment's render_mode), 'human', "
            f"'ansi' or 'rgb_array', got {shorten(mode)}"
        )
    return chosen


def _draw(state: StateAPI[Any], render_mode: Optional[str], seat: Optional[int]) -> Any:
    """``state`` drawn for ``render_mode`` as ``seat`` sees it (the whole position for None)."""
    if render_mode is None:
        gymnasium.logger.warn("render() called without a render_mode; use render_mode='ansi', 'human' or 'rgb_array'")
        return None
    if render_mode == "rgb_array":
        return _render.rgb_array(state, for_player=seat)
    diagram = _render.text(state, for_player=seat)
    if render_mode == "ansi":
        return diagram
    print(diagram)
    return None


class _Env:
    """The options both environments take, checked alike and in one order (the cycle limit
    and the illegal-action mode, then the game, then the render mode and view); each
    environment loads its game (:meth:`_load`) and sets up the rest (:meth:`_setup`)."""

    metadata: Dict[str, Any]

    def __init__(
        self,
        game_id: str,
        render_mode: Optional[str] = None,
        *,
        engine: Optional[str] = None,
        max_cycles: Optional[int] = None,
        illegal_action: str = "raise",
        render_view: RenderView = "agent",
        **params: Any,
    ) -> None:
        super().__init__()
        cycles = _check_options(max_cycles, illegal_action)
        self.illegal_action: str = _illegal_mode(illegal_action)
        self.game: Game[Any, Any] = self._load(game_id, engine, params)
        self.render_view: RenderView = _check_render(self.game, render_mode, render_view)
        self.render_mode = _mode_option(render_mode)
        self.metadata = dict(self.metadata, name=f"mousehole_{self.game.name}_v0")
        self._setup(cycles)

    def _load(self, game_id: str, engine: Optional[str], params: Dict[str, Any]) -> Game[Any, Any]:
        raise NotImplementedError

    def _setup(self, max_cycles: Optional[int]) -> None:
        raise NotImplementedError


class MouseholeAECEnv(_Env, _AECEnv):  # type: ignore[misc]
    """One mousehole game as a PettingZoo ``AECEnv`` (see the module docstring).

    ``render_view="agent"`` draws the view of ``agent_selection`` (the seat to move; at the
    end, the agent whose final step is due)."""

    metadata: Dict[str, Any] = {
        "render_modes": list(RENDER_MODES),
        "render_fps": 4,
        "name": "mousehole_v0",
        "is_parallelizable": False,
    }

    def _load(self, game_id: str, engine: Optional[str], params: Dict[str, Any]) -> Game[Any, Any]:
        return load(game_id, engine=engine, **params)

    def _setup(self, max_cycles: Optional[int]) -> None:
        self.max_cycles: Optional[int] = max_cycles
        #: cycles completed in this game, and the seats that acted in the current one
        self.cycles = 0
        self._acted: Set[int] = set()
        n = self.game.num_players
        self.possible_agents: List[str] = [agent_name(p) for p in range(n)]
        self.agents: List[str] = []
        self._seat: Dict[str, int] = {a: p for p, a in enumerate(self.possible_agents)}
        self.action_spaces: Dict[str, Any] = {
            a: gymnasium.spaces.Discrete(self.game.num_actions) for a in self.possible_agents
        }
        self.observation_spaces: Dict[str, Any] = {
            a: gymnasium.spaces.Dict(
                {
                    # Values are finite; their ranges are documented per game (docs/games/).
                    "observation": gymnasium.spaces.Box(
                        low=-np.inf, high=np.inf, shape=tuple(self.game.observation_shape), dtype=np.float32
                    ),
                    "action_mask": gymnasium.spaces.Box(low=0, high=1, shape=(self.game.num_actions,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.rewards: Dict[str, float] = {}
        self._cumulative_rewards: Dict[str, float] = {}
        self.terminations: Dict[str, bool] = {}
        self.truncations: Dict[str, bool] = {}
        self.infos: Dict[str, Dict[str, Any]] = {}
        self._state: Optional[StateAPI[Any]] = None
        self._rng = np.random.default_rng()
        #: the episode ended on an illegal action (``illegal_action="lose"``)
        self._lost = False

    # -- spaces ------------------------------------------------------------------------

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[self._agent(agent)]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[self._agent(agent)]

    # -- the game ----------------------------------------------------------------------

    @property
    def game_state(self) -> StateAPI[Any]:
        """The game's current state (the environment's own object: clone it to keep it)."""
        if self._state is None:
            raise RuntimeError("call reset() before using the environment")
        return self._state

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        """Start a new game: ``game.new_state(seed)`` (a seed drawn from the environment's
        generator when ``seed`` is None); ``options`` is accepted and ignored."""
        self._new_game(seed)
        if self.render_mode == "human":
            self.render()

    def _new_game(self, seed: Optional[int]) -> None:
        if seed is not None:
            game_seed = index_arg(seed, "seed", " or None")
            self._rng = np.random.default_rng(game_seed & 0xFFFFFFFFFFFFFFFF)
        else:
            game_seed = int(self._rng.integers(0, 2**63))
        self._state = self.game.new_state(game_seed)
        self._lost = False
        self._resolve_chance()
        self.cycles = 0
        self._acted = set()
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        if self._state.is_terminal():  # a game over before its first move (not in any DEFAULT)
            self.agent_selection = self.possible_agents[0]
            self._finish()
            self._accumulate_rewards()
        else:
            self._select()

    def observe(self, agent: str) -> Dict[str, npt.NDArray[Any]]:
        """``agent``'s observation and action mask (zeros unless it is to move and the
        episode goes on)."""
        p = self._seat[self._agent(agent)]
        state = self.game_state
        if state.current_player == p and not self._lost:
            mask = state.legal_action_mask().view(np.int8)
        else:
            mask = np.zeros(self.game.num_actions, dtype=np.int8)
        return {"observation": state.observation(p), "action_mask": mask}

    def step(self, action: Any) -> None:
        """Play ``action`` (an int of the action space) for ``agent_selection``; a finished
        agent steps with ``None`` (PettingZoo's dead step)."""
        state = self.game_state
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise TypeError(f"{agent} is to move: its action must be an int, not None")
        a = index_arg(action, "an action")
        if not 0 <= a < self.game.num_actions:
            raise ValueError(f"action {a} is outside the action space 0..{self.game.num_actions - 1}")
        substituted = False
        if self.illegal_action != "raise" and not state.legal_action_mask()[a]:
            if self.illegal_action == "lose":
                self._lose({agent})
                return
            legal = state.legal_actions()
            a = int(legal[int(self._rng.integers(len(legal)))])
            substituted = True
        seat = self._seat[agent]
        state.apply_action(a)  # IllegalMoveError (naming the rule) leaves everything unchanged
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        for other in self.infos:
            self.infos[other] = {}
        if substituted:
            self.infos[agent] = {"illegal_action": True}
        self._acted.add(seat)
        self._resolve_chance()
        if state.is_terminal():
            self._finish()
        else:
            self._select()
            if state.current_player in self._acted:  # the next turn starts a new cycle
                self.cycles += 1
                self._acted = set()
                if self.max_cycles is not None and self.cycles >= self.max_cycles:
                    for other in self.agents:
                        self.truncations[other] = True
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _lose(self, offenders: Set[str]) -> None:
        """``illegal_action="lose"``: the episode ends, -1 for ``offenders`` and 0 for every
        other agent, the game state unchanged (see the module docstring)."""
        self._lost = True
        for other in self.agents:
            self.rewards[other] = -1.0 if other in offenders else 0.0
            self.terminations[other] = True
            self.infos[other] = {"illegal_action": True} if other in offenders else {}
        self._cumulative_rewards[self.agent_selection] = 0.0
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self, mode: Optional[str] = None) -> Any:
        """The position drawn as ``mode`` (None: ``render_mode``) says, from
        ``render_view``'s view (see the module docstring); None (with a warning) without a
        render mode."""
        state = self.game_state
        view = self.render_view
        seat = None if view == "full" else (self._seat[self.agent_selection] if view == "agent" else int(view))
        return _draw(state, _render_mode(self.render_mode, mode), seat)

    def close(self) -> None:
        """Nothing to release."""

    # -- helpers -----------------------------------------------------------------------

    def _agent(self, agent: Any) -> str:
        name = exact(agent)  # (a numpy str as the str it holds; a str subclass's own == unheard)
        if type(name) is not str or name not in self._seat:
            raise ValueError(f"unknown agent {shorten(agent)}; agents are {', '.join(self.possible_agents)}")
        return str(name)

    def _resolve_chance(self) -> None:
        """Play chance nodes with the environment's generator, by their probabilities."""
        state = self.game_state
        while state.current_player == CHANCE:
            outcomes = state.chance_outcomes()
            probs = np.array([pr for _, pr in outcomes], dtype=np.float64)
            i = int(self._rng.choice(len(outcomes), p=probs / probs.sum()))
            state.apply_action(outcomes[i][0])

    def _select(self) -> None:
        cp = self.game_state.current_player
        assert cp >= 0, cp
        self.agent_selection = self.possible_agents[cp]

    def _finish(self) -> None:
        """The game is over: every agent gets its return and is done."""
        state = self.game_state
        assert state.current_player == TERMINAL
        truncated = bool(state.truncated)
        for a, r in zip(self.possible_agents, state.returns()):
            if a in self.agents:
                self.rewards[a] = float(r)
                self.terminations[a] = not truncated
                self.truncations[a] = truncated


class MouseholeParallelEnv(_Env, _ParallelEnv):  # type: ignore[misc]
    """One mousehole game as a PettingZoo ``ParallelEnv`` that never substitutes an action.

    **Pending decisions.** After ``reset`` and every ``step``, each live agent either has a
    pending decision or not. Outside the bids of Maus au Chocolat exactly one agent has one,
    the seat to move; in a Maus au Chocolat bid phase every seat that has not yet chosen its
    bid has one (the bid is simultaneous, MC-7 and MC-27), so all bidders are asked in the
    same step. An agent with a pending decision gets its legal-action mask (for a bidder:
    the mask it will have at its own turn, which the other bids cannot change) and
    ``infos[agent]["to_act"] = True``; every other agent gets an all-zero mask and
    ``infos[agent]["to_act"] = False``.

    **step(actions)** takes an action from every agent with a pending decision (a missing
    one raises ``ValueError``) and applies exactly those, each one the action its agent chose
    under the mask it was given. The entry of an agent without a pending decision is
    ignored whatever it is (it may be left out): that agent's step is a no-op, as in
    PettingZoo's turn-based parallel environments. All actions are checked before any is
    applied: a wrong type raises ``TypeError``, an int outside the action space
    ``ValueError``, an action outside the agent's mask :class:`mousehole.IllegalMoveError`
    (naming the rule); the environment is then unchanged. ``illegal_action="random"`` is an
    explicit opt-in for callers that sample without the mask: an action outside the mask is
    replaced by a uniformly random action of the mask, drawn from the environment's
    generator, and ``infos[agent]["illegal_action"] = True`` says so. Nothing is replaced
    by default. ``illegal_action="lose"`` (for checkers and trainers that step unmasked
    actions) applies nothing and ends the episode: -1 for every agent whose action was
    outside its mask (``infos[agent]["illegal_action"] = True``), 0 for the others, every
    agent terminated with an all-zero mask.

    The chosen bids are committed in seat order, as the game's sequential form needs (MC-27).
    When Etienne's holder chooses his swap (MC-16, "before bidding"), his bid is still to come:
    the bids of the seats after him wait, already chosen, and are applied right after his bid
    in the next step (in which he alone is asked). ``infos[agent]["acted"]`` is True for the
    agents whose chosen action was applied in this step.

    ``max_cycles=c`` truncates the game after ``c`` parallel steps (PettingZoo's meaning for
    parallel environments; a step that leaves bids waiting is not counted as the last one).
    Spaces, observations, rewards, seeding and chance are those of :class:`MouseholeAECEnv`
    (which this class drives: ``aec_env``). ``render_view="agent"`` draws the view of the
    seat to move (the lowest seat with a pending decision) and, once the game is over, of
    the seat that acted last.
    """

    metadata: Dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 4, "name": "mousehole_v0"}

    def _load(self, game_id: str, engine: Optional[str], params: Dict[str, Any]) -> Game[Any, Any]:
        self.aec_env = MouseholeAECEnv(game_id, None, engine=engine, **params)
        return self.aec_env.game

    def _setup(self, max_cycles: Optional[int]) -> None:
        self._max_cycles = max_cycles
        self.possible_agents: List[str] = list(self.aec_env.possible_agents)
        self.agents: List[str] = []
        self.observation_spaces = self.aec_env.observation_spaces
        self.action_spaces = self.aec_env.action_spaces
        #: parallel steps taken in this game
        self.steps = 0
        #: the actions the seats choose at once (Maus au Chocolat's bids), Game.SIMULTANEOUS_ACTIONS
        self._simultaneous = self.game.SIMULTANEOUS_ACTIONS
        self._pending: Dict[int, npt.NDArray[np.int8]] = {}
        self._waiting: Dict[int, int] = {}  # seat -> chosen bid waiting behind Etienne's swap
        self._last_seat = 0

    @property
    def max_cycles(self) -> Optional[int]:
        """The limit on parallel steps (None: the game's own end only); settable."""
        return self._max_cycles

    @max_cycles.setter
    def max_cycles(self, value: Optional[int]) -> None:
        self._max_cycles = _check_options(value, self.illegal_action)

    @property
    def game_state(self) -> StateAPI[Any]:
        """The game's current state (the environment's own object: clone it to keep it)."""
        return self.aec_env.game_state

    @property
    def pending_agents(self) -> List[str]:
        """The agents with a pending decision (their actions are the ones the next step
        applies), in seat order."""
        return [agent_name(p) for p in sorted(self._pending)]

    def observation_space(self, agent: str) -> Any:
        return self.aec_env.observation_space(agent)

    def action_space(self, agent: str) -> Any:
        return self.aec_env.action_space(agent)

    def reset(
        self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Dict[str, Any], Dict[str, Dict[str, Any]]]:
        """As :meth:`MouseholeAECEnv.reset`; returns every agent's observation and info."""
        infos = self._start(seed, options)
        obs = self._observations()
        if self.render_mode == "human":
            self.render()
        return obs, infos

    def _start(self, seed: Optional[int], options: Optional[Dict[str, Any]]) -> Dict[str, Dict[str, Any]]:
        """The work of :meth:`reset` but the observations and the drawing; returns the infos."""
        self.aec_env.reset(seed=seed, options=options)
        self.steps = 0
        self._waiting = {}
        self._last_seat = 0
        state = self.game_state
        self.agents = [] if state.is_terminal() else list(self.possible_agents)
        self._pending = self._decisions()
        return {a: {"to_act": self._seat(a) in self._pending} for a in self.possible_agents}

    def step(
        self, actions: Mapping[str, Any]
    ) -> Tuple[Dict[str, Any], Dict[str, float], Dict[str, bool], Dict[str, bool], Dict[str, Dict[str, Any]]]:
        """Apply the actions of the agents with a pending decision (see the class docstring)."""
        rewards, terms, truncs, infos, ended = self._apply(actions)
        obs = self._observations()
        if ended:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return obs, rewards, terms, truncs, infos

    def _apply(
        self, actions: Mapping[str, Any]
    ) -> Tuple[Dict[str, float], Dict[str, bool], Dict[str, bool], Dict[str, Dict[str, Any]], bool]:
        """The work of :meth:`step` but the observations: check and apply ``actions``, then
        find the next pending decisions; returns the rewards, terminations, truncations and
        infos of the live agents, and whether the episode ended (the caller then empties
        ``agents``). ``mousehole.rllib`` steps through it, observing only the agents it asks."""
        if not self.agents:
            raise RuntimeError("the game is over: call reset()")
        chosen, infos = self._check_actions(actions)
        state = self.game_state
        if any(info.get("illegal_action") for info in infos.values()) and self.illegal_action == "lose":
            return self._lose(infos)
        aec = self.aec_env
        self._waiting.update(chosen)
        while not state.is_terminal() and state.current_player in self._waiting:
            p = state.current_player
            aec.step(self._waiting.pop(p))  # raises only if a mask was wrong (a bug)
            infos[agent_name(p)]["acted"] = True
            self._last_seat = p
        self.steps += 1
        over = state.is_terminal()
        cut = not over and not self._waiting and self._max_cycles is not None and self.steps >= self._max_cycles
        returns = state.returns() if over else [0.0] * self.game.num_players
        truncated = over and bool(state.truncated)
        rewards = {a: float(returns[self._seat(a)]) for a in self.agents}
        terms = {a: over and not truncated for a in self.agents}
        truncs = {a: truncated or cut for a in self.agents}
        if over or cut:
            self._pending = {}
            self._waiting = {}
        else:
            self._pending = self._decisions()
        for name in self.agents:
            infos[name]["to_act"] = self._seat(name) in self._pending
        return rewards, terms, truncs, infos, over or cut

    def _check_actions(self, actions: Mapping[str, Any]) -> Tuple[Dict[int, int], Dict[str, Dict[str, Any]]]:
        """Every pending agent's action, checked before anything is applied: the action of
        each seat to apply (after ``"random"``'s replacement) and the step's infos (with
        ``"illegal_action"`` where an action was outside its mask and not raised)."""
        if not isinstance(actions, Mapping):
            raise TypeError(f"step takes a dict of actions by agent, not {type(actions).__name__}")
        unknown = [a for a in actions if a not in self.agents]
        if unknown:
            raise ValueError(f"actions for agents that are not live: {', '.join(map(str, unknown))}")
        missing = [agent_name(p) for p in sorted(self._pending) if agent_name(p) not in actions]
        if missing:
            raise ValueError(
                f"step needs an action from every agent with a pending decision; missing: {', '.join(missing)}"
            )
        infos: Dict[str, Dict[str, Any]] = {a: {"acted": False} for a in self.agents}
        chosen: Dict[int, int] = {}
        for p in sorted(self._pending):
            agent, mask = agent_name(p), self._pending[p]
            action = actions[agent]
            a = index_arg(action, f"{agent} has a pending decision: its action")
            if not 0 <= a < self.game.num_actions:
                raise ValueError(f"{agent}'s action {a} is outside the action space 0..{self.game.num_actions - 1}")
            if not mask[a]:
                if self.illegal_action == "raise":
                    raise self._illegal(p, a)
                infos[agent]["illegal_action"] = True
                if self.illegal_action == "random":
                    legal = np.flatnonzero(mask)
                    a = int(legal[int(self.aec_env._rng.integers(len(legal)))])
            chosen[p] = a
        return chosen, infos

    def _lose(
        self, infos: Dict[str, Dict[str, Any]]
    ) -> Tuple[Dict[str, float], Dict[str, bool], Dict[str, bool], Dict[str, Dict[str, Any]], bool]:
        """``illegal_action="lose"``: nothing is applied; the episode ends with -1 for each
        agent whose action was outside its mask and 0 for the others."""
        self._pending = {}
        self._waiting = {}
        self.steps += 1
        rewards = {a: -1.0 if infos[a].get("illegal_action") else 0.0 for a in self.agents}
        for name in self.agents:
            infos[name]["to_act"] = False
        return rewards, dict.fromkeys(self.agents, True), dict.fromkeys(self.agents, False), infos, True

    def render(self, mode: Optional[str] = None) -> Any:
        """The position drawn as ``mode`` (None: ``render_mode``) says, from
        ``render_view``'s view (see the class docstring); None (with a warning) without a
        render mode."""
        state = self.game_state
        view = self.render_view
        if view == "full":
            seat: Optional[int] = None
        elif view == "agent":
            seat = min(self._pending) if self._pending else self._last_seat
        else:
            seat = int(view)
        return _draw(state, _render_mode(self.render_mode, mode), seat)

    def close(self) -> None:
        """Nothing to release."""

    # -- helpers -----------------------------------------------------------------------

    @staticmethod
    def _seat(agent: str) -> int:
        return int(agent[len("player_") :])

    def _observations(self) -> Dict[str, Dict[str, npt.NDArray[Any]]]:
        state = self.game_state
        zeros = np.zeros(self.game.num_actions, dtype=np.int8)
        out: Dict[str, Dict[str, npt.NDArray[Any]]] = {}
        for p, a in enumerate(self.possible_agents):
            if a in self.agents:
                mask = self._pending.get(p)
                out[a] = {
                    "observation": state.observation(p),
                    "action_mask": zeros.copy() if mask is None else mask.copy(),
                }
        return out

    def _decisions(self) -> Dict[int, npt.NDArray[np.int8]]:
        """The seats with a pending decision and the mask of each: the seat to move, and in
        a phase of simultaneous choices (``Game.SIMULTANEOUS_ACTIONS``: a Maus au Chocolat
        bid phase) every later seat whose bid is not chosen yet, with the
        mask it will have at its own turn (found on a copy in which the seats before it
        commit placeholder bids; a seat's bids and swap depend on its own hand only)."""
        state = self.game_state
        if state.is_terminal():
            return {}
        cp = state.current_player
        mask = state.legal_action_mask()
        out = {cp: mask.view(np.int8)}
        sim = self._simultaneous
        if len(sim) and mask[sim.start : sim.stop].any():  # a phase of simultaneous choices (bids)
            probe: Optional[StateAPI[Any]] = None
            for q in range(cp + 1, self.game.num_players):
                if q in self._waiting:
                    continue
                if probe is None:
                    probe = state.clone()
                while probe.current_player < q:
                    legal = probe.legal_actions()
                    probe.apply_action(int(legal[0]))  # the lowest legal action is a bid
                out[q] = probe.legal_action_mask().view(np.int8)
        return out

    def _turn_of(self, p: int) -> StateAPI[Any]:
        """A copy of the game at seat ``p``'s turn (for a bidder after the seat to move)."""
        probe = self.game_state.clone()
        while probe.current_player != p:
            probe.apply_action(int(probe.legal_actions()[0]))
        return probe

    def _illegal(self, p: int, a: int) -> IllegalMoveError:
        """The error for seat ``p``'s action ``a``, outside its mask: the rules' own message."""
        try:
            self._turn_of(p).apply_action(a)
        except IllegalMoveError as e:
            return IllegalMoveError(f"{e} ({agent_name(p)}'s action {a} is not in its action mask)")
        return IllegalMoveError(f"{agent_name(p)}'s action {a} is not in its action mask")  # pragma: no cover
