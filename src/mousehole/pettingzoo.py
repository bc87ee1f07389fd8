"""PettingZoo AEC environments for every mousehole game (``pip install 'mousehole[pettingzoo]'``).

>>> import mousehole.pettingzoo
>>> env = mousehole.pettingzoo.env("cheese_rescue", players=2)   # doctest: +SKIP
>>> env.reset(seed=1)                                             # doctest: +SKIP

The environment plays one game of the chosen id, with its keyword parameters, on either
engine (``engine=`` is passed to :func:`mousehole.load`):

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
* ``render_mode="ansi"`` makes ``render()`` return the text diagram ``str(state)``;
* ``illegal_action="raise"`` (default) raises for an action the rules forbid now;
  ``illegal_action="random"`` plays instead a uniformly random legal action drawn from the
  environment's generator and sets ``infos[agent]["illegal_action"] = True`` for that step
  (for callers that sample without the mask);
* ``max_cycles=c`` truncates the game after ``c`` *cycles*. A cycle is a run of consecutive
  turns in which no agent acts twice: it ends just before an agent would act a second time.
  Where the turn passes round the table one action per turn (Cheese Rescue always; Kater
  Kasimir while nobody skips a turn; M between scorings) a cycle is one action by every
  agent, so ``c`` cycles are ``c`` actions per agent. The truncated game is left unfinished:
  every agent gets ``truncations`` True and reward 0.

:func:`parallel_env` gives the same game as a PettingZoo ``ParallelEnv`` in which one
``step`` is one cycle (see :class:`MouseholeParallelEnv`).

The environments pass PettingZoo's ``api_test``, ``seed_test`` and ``parallel_api_test`` for
every game, player count and engine, and ``max_cycles_test`` where the turn passes round the
table (``tests/test_pettingzoo_env.py``; ``docs/environments.md`` says why not elsewhere).
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Set, Tuple

import numpy as np
import numpy.typing as npt

try:
    import gymnasium  # type: ignore[import-untyped, import-not-found, unused-ignore]
    import pettingzoo  # type: ignore[import-untyped, import-not-found, unused-ignore]
except ImportError as exc:  # pragma: no cover - exercised in a subprocess by the tests
    raise ImportError(
        "mousehole.pettingzoo needs PettingZoo (Python 3.10 or later): "
        "pip install 'mousehole[pettingzoo]'"
    ) from exc

from ._api import CHANCE, TERMINAL, Game, StateAPI, as_int, load

__all__ = ["MouseholeAECEnv", "MouseholeParallelEnv", "env", "parallel_env", "agent_name"]

_AECEnv: Any = pettingzoo.AECEnv
_ParallelEnv: Any = pettingzoo.ParallelEnv

_ILLEGAL_MODES = ("raise", "random")


def agent_name(seat: int) -> str:
    """The agent id of ``seat``: ``player_<seat>``."""
    return f"player_{seat}"


def env(game_id: str, render_mode: Optional[str] = None, *, engine: Optional[str] = None,
        max_cycles: Optional[int] = None, illegal_action: str = "raise",
        **params: Any) -> "MouseholeAECEnv":
    """A PettingZoo AEC environment playing ``mousehole.load(game_id, engine=engine,
    **params)``; ``render_mode`` is None or ``"ansi"``; ``max_cycles`` None (no limit) or a
    positive int; ``illegal_action`` ``"raise"`` or ``"random"``."""
    return MouseholeAECEnv(game_id, render_mode, engine=engine, max_cycles=max_cycles,
                           illegal_action=illegal_action, **params)


def parallel_env(game_id: str, render_mode: Optional[str] = None, *, engine: Optional[str] = None,
                 max_cycles: Optional[int] = None, illegal_action: str = "random",
                 **params: Any) -> "MouseholeParallelEnv":
    """A PettingZoo parallel environment in which one step is one cycle of the game (see
    :class:`MouseholeParallelEnv`); the arguments are those of :func:`env`, except that
    ``illegal_action`` defaults to ``"random"``."""
    return MouseholeParallelEnv(game_id, render_mode, engine=engine, max_cycles=max_cycles,
                                illegal_action=illegal_action, **params)


def _check_options(max_cycles: Any, illegal_action: Any) -> Optional[int]:
    if illegal_action not in _ILLEGAL_MODES:
        raise ValueError(f"illegal_action must be 'raise' or 'random', got {illegal_action!r}")
    if max_cycles is None:
        return None
    c = as_int(max_cycles)
    if c is None:
        raise TypeError(f"max_cycles must be None or an int, not {type(max_cycles).__name__}")
    if c < 1:
        raise ValueError(f"max_cycles must be at least 1, got {c}")
    return c


class MouseholeAECEnv(_AECEnv):  # type: ignore[misc]
    """One mousehole game as a PettingZoo ``AECEnv`` (see the module docstring)."""

    metadata: Dict[str, Any] = {"render_modes": ["ansi"], "name": "mousehole_v0",
                                "is_parallelizable": False}

    def __init__(self, game_id: str, render_mode: Optional[str] = None, *,
                 engine: Optional[str] = None, max_cycles: Optional[int] = None,
                 illegal_action: str = "raise", **params: Any) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.max_cycles: Optional[int] = _check_options(max_cycles, illegal_action)
        self.illegal_action: str = illegal_action
        #: cycles completed in this game, and the seats that acted in the current one
        self.cycles = 0
        self._acted: Set[int] = set()
        self.game: Game[Any, Any] = load(game_id, engine=engine, **params)
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"mousehole_{game_id}_v0")
        n = self.game.num_players
        self.possible_agents: List[str] = [agent_name(p) for p in range(n)]
        self.agents: List[str] = []
        self._seat: Dict[str, int] = {a: p for p, a in enumerate(self.possible_agents)}
        self.action_spaces: Dict[str, Any] = {
            a: gymnasium.spaces.Discrete(self.game.num_actions) for a in self.possible_agents
        }
        self.observation_spaces: Dict[str, Any] = {
            a: gymnasium.spaces.Dict({
                # Values are finite; their ranges are documented per game (docs/games/).
                "observation": gymnasium.spaces.Box(
                    low=-np.inf, high=np.inf, shape=tuple(self.game.observation_shape),
                    dtype=np.float32),
                "action_mask": gymnasium.spaces.Box(
                    low=0, high=1, shape=(self.game.num_actions,), dtype=np.int8),
            })
            for a in self.possible_agents
        }
        self.rewards: Dict[str, float] = {}
        self._cumulative_rewards: Dict[str, float] = {}
        self.terminations: Dict[str, bool] = {}
        self.truncations: Dict[str, bool] = {}
        self.infos: Dict[str, Dict[str, Any]] = {}
        self._state: Optional[StateAPI[Any]] = None
        self._rng = np.random.default_rng()

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
        if seed is not None:
            game_seed = as_int(seed)
            if game_seed is None:
                raise TypeError(f"seed must be an int or None, not {type(seed).__name__}")
            self._rng = np.random.default_rng(game_seed & 0xFFFFFFFFFFFFFFFF)
        else:
            game_seed = int(self._rng.integers(0, 2**63))
        self._state = self.game.new_state(game_seed)
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
        """``agent``'s observation and action mask (zeros unless it is to move)."""
        p = self._seat[self._agent(agent)]
        state = self.game_state
        if state.current_player == p:
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
        a = as_int(action)
        if a is None:
            raise TypeError(f"an action must be an int, not {type(action).__name__}")
        if not 0 <= a < self.game.num_actions:
            raise ValueError(f"action {a} is outside the action space 0..{self.game.num_actions - 1}")
        substituted = False
        if self.illegal_action == "random" and not state.legal_action_mask()[a]:
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

    def render(self) -> Optional[str]:
        """The text diagram of the game (``render_mode="ansi"``); None without a mode."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; use render_mode='ansi'")
            return None
        return str(self.game_state)

    def close(self) -> None:
        """Nothing to release."""

    # -- helpers -----------------------------------------------------------------------

    def _agent(self, agent: Any) -> str:
        if agent not in self._seat:
            raise ValueError(f"unknown agent {agent!r}; agents are {', '.join(self.possible_agents)}")
        return str(agent)

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


class MouseholeParallelEnv(_ParallelEnv):  # type: ignore[misc]
    """One mousehole game as a PettingZoo ``ParallelEnv``: one ``step`` is one *cycle*.

    Agents, spaces, observations, rewards, seeding, chance and rendering are those of
    :class:`MouseholeAECEnv` (which this class drives: ``aec_env``). ``step(actions)`` takes
    an action from every live agent, then plays the turns of one cycle in the game's own
    order (a cycle ends just before an agent would act a second time, or when the game
    ends), each agent's action at its turn; the actions of agents whose turn did not come
    in this cycle are not used (``infos[agent]["acted"]`` says which were). An agent decides
    on the observation at the start of the cycle, before the earlier turns of the cycle are
    played, so its action may have become illegal: with the default ``illegal_action="random"``
    a uniformly random legal action is played instead (``infos[agent]["illegal_action"]``);
    with ``"raise"`` the step raises and the turns already played in the cycle stay played.
    ``max_cycles=c`` truncates the game after ``c`` steps. Where the turn passes round the
    table one action per turn (Cheese Rescue), every step is one action of every agent, in
    seat order from the seat to move.
    """

    metadata: Dict[str, Any] = {"render_modes": ["ansi"], "name": "mousehole_v0"}

    def __init__(self, game_id: str, render_mode: Optional[str] = None, *,
                 engine: Optional[str] = None, max_cycles: Optional[int] = None,
                 illegal_action: str = "random", **params: Any) -> None:
        super().__init__()
        self.aec_env = MouseholeAECEnv(game_id, render_mode, engine=engine, max_cycles=max_cycles,
                                       illegal_action=illegal_action, **params)
        self.game = self.aec_env.game
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"mousehole_{game_id}_v0")
        self.possible_agents: List[str] = list(self.aec_env.possible_agents)
        self.agents: List[str] = []
        self.observation_spaces = self.aec_env.observation_spaces
        self.action_spaces = self.aec_env.action_spaces

    @property
    def max_cycles(self) -> Optional[int]:
        """The cycle limit (None: the game's own end only); settable."""
        return self.aec_env.max_cycles

    @max_cycles.setter
    def max_cycles(self, value: Optional[int]) -> None:
        self.aec_env.max_cycles = _check_options(value, self.aec_env.illegal_action)

    @property
    def game_state(self) -> StateAPI[Any]:
        return self.aec_env.game_state

    def observation_space(self, agent: str) -> Any:
        return self.aec_env.observation_space(agent)

    def action_space(self, agent: str) -> Any:
        return self.aec_env.action_space(agent)

    def _observations(self) -> Dict[str, Dict[str, npt.NDArray[Any]]]:
        return {a: self.aec_env.observe(a) for a in self.agents}

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
              ) -> Tuple[Dict[str, Any], Dict[str, Dict[str, Any]]]:
        """As :meth:`MouseholeAECEnv.reset`; returns every agent's observation and info."""
        self.aec_env.reset(seed=seed, options=options)
        self.agents = list(self.aec_env.agents)
        return self._observations(), {a: {} for a in self.agents}

    def step(self, actions: Dict[str, Any]) -> Tuple[Dict[str, Any], Dict[str, float], Dict[str, bool],
                                                     Dict[str, bool], Dict[str, Dict[str, Any]]]:
        """Play one cycle (see the class docstring)."""
        aec = self.aec_env
        if not self.agents:
            raise RuntimeError("the game is over: call reset()")
        missing = [a for a in self.agents if a not in actions]
        if missing:
            raise ValueError(f"step needs an action from every live agent; missing: {', '.join(missing)}")
        unknown = [a for a in actions if a not in self.agents]
        if unknown:
            raise ValueError(f"actions for agents that are not live: {', '.join(map(str, unknown))}")
        infos: Dict[str, Dict[str, Any]] = {a: {"acted": False} for a in self.agents}
        start = aec.cycles
        while True:
            agent = aec.agent_selection
            if aec.terminations[agent] or aec.truncations[agent]:
                break
            aec.step(actions[agent])
            infos[agent]["acted"] = True
            infos[agent].update(aec.infos.get(agent, {}))
            if aec.cycles != start:
                break
        rewards = {a: float(aec.rewards[a]) for a in self.agents}
        terms = {a: bool(aec.terminations[a]) for a in self.agents}
        truncs = {a: bool(aec.truncations[a]) for a in self.agents}
        obs = self._observations()
        if all(terms[a] or truncs[a] for a in self.agents):
            self.agents = []
        return obs, rewards, terms, truncs, infos

    def render(self) -> Optional[str]:
        out: Optional[str] = self.aec_env.render()
        return out

    def close(self) -> None:
        """Nothing to release."""
