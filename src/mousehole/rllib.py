"""Ray RLlib multi-agent environments for every mousehole game, and a PPO module that masks.

Install (Python 3.10 to 3.13): a torch build first (on a machine without a GPU, PyTorch's
CPU build, e.g. ``pip install torch==2.13.0`` where pip finds a CPU wheel; an unpinned
``pip install torch`` on Linux brings the multi-GB CUDA build), then, from a clone of the
repository, ``pip install --no-build-isolation '.[rllib]'`` (Ray RLlib and PettingZoo).
``import mousehole`` never imports Ray; importing this module does, and registers the
environment with Ray Tune's registry under :data:`ENV_NAME` (``"mousehole"``)::

    import mousehole.rllib
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    config = (PPOConfig()
              .environment("mousehole", env_config={"game": "cheese_rescue", "players": 2})
              .rl_module(rl_module_spec=RLModuleSpec(
                  module_class=mousehole.rllib.MaskedPPOTorchRLModule)))

:class:`MouseholeMultiAgentEnv` follows RLlib's multi-agent convention: after ``reset`` and
every ``step`` it returns observations for **the agents to act next only**: the seat to move,
or in a phase of simultaneous choices (``Game.SIMULTANEOUS_ACTIONS``: Maus au Chocolat's
bids) every seat that has not chosen yet. So every row RLlib trains on is a decision the game
applies: no agent is ever shown an all-zero mask to act on, and no action is ignored. It is
:class:`mousehole.pettingzoo.MouseholeParallelEnv` underneath (pending decisions, bids that
wait behind Etienne's swap, chance, seeding), observed only where RLlib needs it.

* **Configuration** (RLlib's ``env_config``, a dict): ``"game"`` (a name of
  :func:`mousehole.game_names`, required); ``"engine"`` (None, ``"compiled"`` or
  ``"python"``); ``"layout"`` (below); ``"illegal_action"`` (``"lose"``, the default, or
  ``"raise"``); ``"render_mode"`` and ``"render_view"`` (as in the PettingZoo environments);
  every other key is one of the game's keyword parameters, the readings of the rules
  included (``players``, ``max_turns``, ...; ``mousehole.load`` checks them).
* **Agents** ``player_0`` .. ``player_{n-1}`` (seat ``p`` is ``player_p``), all of them in
  ``agents`` for the whole episode.
* **Observations** ``{"observations": ..., "action_mask": ...}`` (the keys RLlib's
  action-masking modules read): ``"observations"`` is the seat's ``state.observation(p)``
  (float32) in the chosen ``layout``, ``"action_mask"`` a float32 0/1 vector of
  ``game.num_actions``, 1 at the agent's legal actions. ``layout="flat"`` (default): one
  vector of ``prod(game.observation_shape)`` values in C order, the input RLlib's default
  MLP encoder takes for every game. ``layout="hwc"``: a 3-D observation (planes first,
  ``(C, H, W)``: Cheese Rescue and M) as ``(H, W, C)``, the layout RLlib's CNN encoder takes
  (it has default filters only for some image sizes: give ``conv_filters`` in the model
  config); any other observation flat.
* **Actions** ``Discrete(game.num_actions)``, from the agents that were observed, and only
  from them: an action of an agent that was not asked raises ``ValueError``, a missing one
  too. An action outside the agent's mask ends the episode with ``illegal_action="lose"``
  (-1 for that agent, 0 for the others, the game state unchanged,
  ``infos[agent]["illegal_action"] = True``; this is what lets RLlib's environment check,
  which steps one unmasked random action, pass) and raises
  :class:`mousehole.IllegalMoveError` with ``"raise"``.
* **Rewards** 0 until the episode ends, then the game's ``returns()`` (+1 per winner, -1 per
  other seat, all 0 when every seat wins). When it ends (by the rules, by ``max_turns``, or
  by an illegal action) every agent gets its final observation (its mask all zero), its
  reward and ``terminateds`` (or, for ``max_turns``, ``truncateds``) True, with ``"__all__"``.
* **Seeds** ``reset(seed=s)`` starts ``game.new_state(s)`` and reseeds the environment's
  generator (chance nodes) with ``s``; ``reset()`` draws the game's seed from it. RLlib seeds
  each env runner's first reset from ``config.debugging(seed=...)``, so a seeded
  configuration replays the same games for the same actions.

:class:`MaskedPPOTorchRLModule` is RLlib's default PPO module (torch) with action masking:
the encoder, policy and value heads see ``"observations"``, and every action outside
``"action_mask"`` gets the logit ``FLOAT_MIN`` by replacement (``masked_fill``), not by
addition, so masked logits carry no gradient (a row whose mask is all zero would carry no
policy gradient at all; the environment never asks such a row for an action). Its
``model_config`` is RLlib's ``DefaultModelConfig`` (``fcnet_hiddens``, ``conv_filters``, ...).
"""

from __future__ import annotations

import math
from typing import Any, Dict, List, Mapping, Optional, Tuple

import numpy as np
import numpy.typing as npt

from ._extras import install_hint

try:
    # (the ignores matter only where Ray is missing or untyped, e.g. a type check without the extra)
    import gymnasium  # type: ignore[import-untyped, import-not-found, unused-ignore]
    from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import (  # type: ignore[import-untyped, import-not-found, unused-ignore] # noqa: E501
        DefaultPPOTorchRLModule,
    )
    from ray.rllib.core.columns import Columns  # type: ignore[import-untyped, import-not-found, unused-ignore]
    from ray.rllib.env.multi_agent_env import MultiAgentEnv  # type: ignore[import-untyped, import-not-found, unused-ignore]
    from ray.rllib.utils.framework import try_import_torch  # type: ignore[import-untyped, import-not-found, unused-ignore]
    from ray.rllib.utils.torch_utils import FLOAT_MIN  # type: ignore[import-untyped, import-not-found, unused-ignore]
    from ray.tune.registry import register_env  # type: ignore[import-untyped, import-not-found, unused-ignore]
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "mousehole.rllib needs Ray RLlib and PettingZoo (Python 3.10 to 3.13) and torch: install a "
        f"torch build first (the CPU one on a machine without a GPU), then {install_hint('rllib')}"
    ) from exc

from ._api import Game, StateAPI
from ._values import exact, shorten, word
from .pettingzoo import MouseholeParallelEnv

#: RLlib's classes, typed Any here whether or not a type checker sees Ray's own annotations
_MultiAgentEnv: Any = MultiAgentEnv
_DefaultPPOTorchRLModule: Any = DefaultPPOTorchRLModule

torch, _nn = try_import_torch()
if torch is None:  # pragma: no cover - exercised only without torch
    raise ImportError(
        "mousehole.rllib needs torch: install a torch build (the CPU one on a machine "
        "without a GPU), e.g. pip install torch==2.13.0 where pip finds the CPU wheel"
    )

__all__ = [
    "ENV_NAME",
    "LAYOUTS",
    "ILLEGAL_MODES",
    "MouseholeMultiAgentEnv",
    "MaskedPPOTorchRLModule",
    "env_creator",
    "register",
]

#: the name :func:`register` gives the environment in Ray Tune's registry (done on import)
ENV_NAME = "mousehole"
#: the observation layouts (see the module docstring)
LAYOUTS = ("flat", "hwc")
#: what an action outside the agent's mask does
ILLEGAL_MODES = ("lose", "raise")
#: the keys of ``env_config`` that are not game parameters
ENV_KEYS = ("game", "engine", "layout", "illegal_action", "render_mode", "render_view")


class MouseholeMultiAgentEnv(_MultiAgentEnv):  # type: ignore[misc]
    """One mousehole game as an RLlib ``MultiAgentEnv`` that observes only the agents to act
    (see the module docstring). ``config`` is RLlib's ``env_config``: ``{"game": id,
    ...}`` with the options of :data:`ENV_KEYS` and the game's keyword parameters."""

    metadata: Dict[str, Any] = {"render_modes": ["human", "ansi", "rgb_array"], "render_fps": 4}

    def __init__(self, config: Optional[Mapping[str, Any]] = None) -> None:
        super().__init__()
        if config is None:
            config = {}
        if not isinstance(config, Mapping):
            raise TypeError(f"env_config must be a dict, not {type(config).__name__}")
        params = dict(config)
        given = params.pop("game", None)
        game_id = exact(given)
        if type(game_id) is not str:
            raise ValueError(
                f"env_config needs 'game', a game id string (one of mousehole.game_names()), got {shorten(given)}"
            )
        given = params.pop("layout", "flat")
        layout = word(given, LAYOUTS)
        if layout is None:
            raise ValueError(f"env_config's 'layout' must be 'flat' or 'hwc', got {shorten(given)}")
        given = params.pop("illegal_action", "lose")
        illegal = word(given, ILLEGAL_MODES)
        if illegal is None:
            raise ValueError(f"env_config's 'illegal_action' must be 'lose' or 'raise', got {shorten(given)}")
        self.layout: str = layout
        self.illegal_action: str = illegal
        #: the PettingZoo parallel environment that plays the game
        self.par_env = MouseholeParallelEnv(
            game_id,
            params.pop("render_mode", None),
            engine=params.pop("engine", None),
            illegal_action=illegal,
            render_view=params.pop("render_view", "agent"),
            **params,
        )
        self.render_mode: Optional[str] = self.par_env.render_mode  # (as the environment checked it)
        self.game: Game[Any, Any] = self.par_env.game
        self.possible_agents: List[str] = list(self.par_env.possible_agents)
        self.agents: List[str] = list(self.possible_agents)
        self._seats: Dict[str, int] = {a: p for p, a in enumerate(self.possible_agents)}
        shape = tuple(self.game.observation_shape)
        self._hwc = layout == "hwc" and len(shape) == 3
        obs_shape = (shape[1], shape[2], shape[0]) if self._hwc else (math.prod(shape),)
        n = self.game.num_actions
        space = gymnasium.spaces.Dict(
            {
                # values are finite; their ranges are documented per game (docs/games/)
                "observations": gymnasium.spaces.Box(low=-np.inf, high=np.inf, shape=obs_shape, dtype=np.float32),
                "action_mask": gymnasium.spaces.Box(low=0.0, high=1.0, shape=(n,), dtype=np.float32),
            }
        )
        self.observation_spaces: Dict[str, Any] = dict.fromkeys(self.possible_agents, space)
        self.action_spaces: Dict[str, Any] = {a: gymnasium.spaces.Discrete(n) for a in self.possible_agents}
        self._zero_mask = np.zeros(n, dtype=np.float32)
        self._asked: List[str] = []
        self._over = True

    @property
    def game_state(self) -> StateAPI[Any]:
        """The game's current state (the environment's own object: clone it to keep it)."""
        return self.par_env.game_state

    @property
    def asked_agents(self) -> List[str]:
        """The agents observed by the last ``reset`` or ``step`` that are to act now (in seat
        order); empty once the episode is over."""
        return list(self._asked)

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        """A new game (see the module docstring for seeds); the observations and infos of the
        agents to act first."""
        infos = self.par_env._start(seed, options)
        self._asked = self.par_env.pending_agents
        if not self._asked:
            raise RuntimeError("the game ended before its first decision: there is no agent to observe")
        self._over = False
        if self.render_mode == "human":
            self.par_env.render()
        return self._observe(self._asked), {a: infos[a] for a in self._asked}

    def step(
        self, action_dict: Mapping[str, Any]
    ) -> Tuple[Dict[str, Any], Dict[str, float], Dict[str, bool], Dict[str, bool], Dict[str, Any]]:
        """Apply the actions of the agents observed last (see the module docstring)."""
        if self._over:
            raise RuntimeError("the episode is over (or was never started): call reset()")
        if not isinstance(action_dict, Mapping):
            raise TypeError(f"step takes a dict of actions by agent, not {type(action_dict).__name__}")
        unasked = [str(a) for a in action_dict if a not in self._asked]
        if unasked:
            raise ValueError(
                f"actions of agents that were not asked to act: {', '.join(unasked)} (asked: {', '.join(self._asked)})"
            )
        rewards, terms, truncs, infos, ended = self.par_env._apply(action_dict)
        if ended:
            self.par_env.agents = []
            self._over = True
            self._asked = []
            shown = list(self.possible_agents)
            terminateds: Dict[str, bool] = dict(terms, __all__=all(terms.values()))
            truncateds: Dict[str, bool] = dict(truncs, __all__=all(truncs.values()))
        else:
            self._asked = self.par_env.pending_agents
            shown = self._asked
            terminateds = dict.fromkeys(shown, False)
            terminateds["__all__"] = False
            truncateds = dict(terminateds)
        if self.render_mode == "human":
            self.par_env.render()
        return (
            self._observe(shown),
            {a: rewards[a] for a in shown},
            terminateds,
            truncateds,
            {a: infos[a] for a in shown},
        )

    def render(self) -> Any:
        """The position drawn as ``render_mode`` says (see :mod:`mousehole.pettingzoo`)."""
        return self.par_env.render()

    def close(self) -> None:
        """Nothing to release."""

    def _observe(self, agents: List[str]) -> Dict[str, Dict[str, npt.NDArray[np.float32]]]:
        """The observations of ``agents``: each one's own view and mask (zeros unless it is
        to act)."""
        state = self.par_env.game_state
        pending = self.par_env._pending
        out: Dict[str, Dict[str, npt.NDArray[np.float32]]] = {}
        for a in agents:
            p = self._seats[a]
            obs = state.observation(p)
            obs = obs.transpose(1, 2, 0).copy() if self._hwc else obs.reshape(-1)
            mask = pending.get(p)
            out[a] = {
                "observations": obs,
                "action_mask": self._zero_mask.copy() if mask is None else mask.astype(np.float32),
            }
        return out


def env_creator(env_config: Optional[Mapping[str, Any]] = None) -> MouseholeMultiAgentEnv:
    """The environment creator registered under :data:`ENV_NAME`."""
    return MouseholeMultiAgentEnv(env_config)


def register(name: str = ENV_NAME) -> None:
    """Register :class:`MouseholeMultiAgentEnv` with Ray Tune's registry as ``name`` (done
    for ``"mousehole"`` on import; RLlib's ``config.environment(name, env_config=...)``
    then makes it, in every env runner)."""
    register_env(name, env_creator)


class MaskedPPOTorchRLModule(_DefaultPPOTorchRLModule):  # type: ignore[misc]
    """RLlib's default PPO module (torch) over ``"observations"``, its action logits masked by
    ``"action_mask"`` (see the module docstring). It takes the environment's ``Dict``
    observation space; use it as ``RLModuleSpec(module_class=MaskedPPOTorchRLModule,
    model_config={...})``."""

    def __init__(self, *, observation_space: Any = None, action_space: Any = None, **kwargs: Any) -> None:
        spaces = getattr(observation_space, "spaces", None)
        if not isinstance(observation_space, gymnasium.spaces.Dict) or set(spaces or ()) != {
            "observations",
            "action_mask",
        }:
            raise ValueError(
                "MaskedPPOTorchRLModule needs a Dict observation space with the keys "
                f"'observations' and 'action_mask', got {observation_space!r}"
            )
        # the networks are built for the observations alone; the module keeps the whole space
        self._space_with_mask = observation_space
        super().__init__(observation_space=observation_space["observations"], action_space=action_space, **kwargs)

    def setup(self) -> None:
        super().setup()
        self.observation_space = self._space_with_mask

    def _forward(self, batch: Dict[str, Any], **kwargs: Any) -> Dict[str, Any]:
        mask, inner = _split(batch)
        return _masked(super()._forward(inner, **kwargs), mask)

    def _forward_train(self, batch: Dict[str, Any], **kwargs: Any) -> Dict[str, Any]:
        mask, inner = _split(batch)
        return _masked(super()._forward_train(inner, **kwargs), mask)

    def compute_values(self, batch: Dict[str, Any], embeddings: Optional[Any] = None) -> Any:
        if embeddings is None:
            batch = _split(batch)[1]
        return super().compute_values(batch, embeddings)


def _split(batch: Dict[str, Any]) -> Tuple[Any, Dict[str, Any]]:
    """The batch's action mask, and a shallow copy of the batch whose observations are the
    ``"observations"`` alone (the batch itself is left as it is)."""
    obs = batch[Columns.OBS]
    if not isinstance(obs, Mapping) or "observations" not in obs or "action_mask" not in obs:
        raise ValueError(
            "MaskedPPOTorchRLModule: the batch's observations must be a dict with 'observations' and 'action_mask'"
        )
    inner = dict(batch)
    inner[Columns.OBS] = obs["observations"]
    return obs["action_mask"], inner


def _masked(out: Dict[str, Any], mask: Any) -> Dict[str, Any]:
    """``out`` with every action logit outside ``mask`` replaced by ``FLOAT_MIN``."""
    logits = out[Columns.ACTION_DIST_INPUTS]
    out[Columns.ACTION_DIST_INPUTS] = logits.masked_fill(mask <= 0, FLOAT_MIN)
    return out


register()
