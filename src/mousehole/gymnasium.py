"""Gymnasium single-agent environments for every mousehole game.

Importing this module registers ``mousehole/CheeseRescue-v0``, ``mousehole/M-v0``,
``mousehole/Kasimir-v0`` and ``mousehole/MausAuChocolat-v0``::

    import gymnasium
    import mousehole.gymnasium  # registers the environments

    env = gymnasium.make("mousehole/M-v0", players=2)
    obs, info = env.reset(seed=0)
    action = env.action_space.sample(mask=info["action_mask"])
    obs, reward, terminated, truncated, info = env.step(action)

The learner plays one seat (``seat``); every other seat is played by an opponent: a
uniformly random legal action drawn from the environment's ``np_random`` by default, or any
object with ``step(state) -> int`` (one for all other seats, or one per other seat in
seat order). Chance nodes (Kater Kasimir with ``explicit_chance=True``) are resolved inside
with the environment's generator, drawn with the game's own outcome probabilities.

Observations are the learner's ``state.observation(seat)`` (float32, shape
``game.observation_shape``); actions are the game's int actions (``Discrete(num_actions)``);
``info["action_mask"]`` is an int8 array (1 at the legal actions), directly usable as
``action_space.sample(mask=...)``. The reward is 0 before the end and the learner's
``returns()[seat]`` (+1 win, -1 loss, 0 when every seat wins) at the end. ``terminated``
is True when the game ended by its rules, ``truncated`` when ``max_turns`` stopped it.

Rendering (``render_mode``): ``"ansi"`` returns the text diagram, ``"human"`` prints it
(after ``reset`` and every ``step``, as Gymnasium's human mode does), ``"rgb_array"`` returns
the picture of :func:`mousehole.render.svg` as an ``(H, W, 3)`` uint8 array (needs the
``render`` extra, CairoSVG and Pillow, and the system cairo library: ``pip install
'cairosvg>=2.7' 'pillow>=9'``). ``metadata["render_modes"]`` lists ``"rgb_array"`` only
where it works (decided when this module is imported), so Gymnasium's ``check_env`` passes
with or without it; an environment still builds in ``"rgb_array"`` mode without it (so
Stable-Baselines3's ``make_vec_env``, which asks for that mode, works; Gymnasium warns that
the mode is not listed), and ``render()`` then raises an ``ImportError`` saying what to
install.
What is drawn is the learner's view by default (``render_view="seat"``:
:func:`mousehole.render.text` / :func:`~mousehole.render.rgb_array` with
``for_player=seat``, nothing the learner may not see); ``render_view="full"`` draws the
whole position, every hand included.

An illegal action ends the episode as a loss for the learner with the default
``illegal_action="lose"`` (``terminated``, reward -1, ``info["illegal_action"] = True``, the
game state unchanged), as PettingZoo's classic board games do; this is what lets
Gymnasium's ``check_env``, which steps with unmasked random actions, pass. With
``illegal_action="raise"`` it raises :class:`mousehole.IllegalMoveError` instead (the state is
unchanged and the episode goes on).

:class:`MouseholeVectorEnv` is a Gymnasium *vector* environment over
:class:`mousehole.vector.VectorGame` (``num_envs`` games stepped together in compiled code):
the learner plays ``seat`` in every sub-environment against uniformly random opponents; it
autoresets in the same step (``metadata["autoreset_mode"] == AutoresetMode.SAME_STEP``).
``gymnasium.make_vec("mousehole/CheeseRescue-v0", num_envs=64, vectorization_mode="vector_entry_point")``
makes one.

``gymnasium`` is an optional dependency, the ``gymnasium`` extra (Python 3.10+): ``pip install
'gymnasium>=1.0'``. ``import mousehole`` never imports it.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence, Tuple

import numpy as np
import numpy.typing as npt

from ._extras import can_rasterize, install_hint

try:
    # (the ignores matter only where gymnasium is missing, e.g. a type check on Python 3.9)
    import gymnasium  # type: ignore[import-not-found, unused-ignore]
    from gymnasium import spaces  # type: ignore[import-not-found, unused-ignore]
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        f"mousehole.gymnasium needs the gymnasium package (Python 3.10 or later): {install_hint('gymnasium')}"
    ) from exc

from ._api import _REGISTRY, CHANCE, TERMINAL, Game, IllegalMoveError, StateAPI, check_seat, game_names, index_arg, load
from ._values import shorten, word

__all__ = [
    "ENV_IDS",
    "RENDER_MODES",
    "AVAILABLE_RENDER_MODES",
    "RENDER_VIEWS",
    "MouseholeEnv",
    "MouseholeVectorEnv",
    "RandomOpponent",
]

#: Gymnasium id -> mousehole game id, for every game that declares one (``Game.ENV_ID``)
ENV_IDS: Dict[str, str] = {_REGISTRY[g].ENV_ID: g for g in game_names() if _REGISTRY[g].ENV_ID}

_ILLEGAL_MODES = ("raise", "lose")
#: the render modes :class:`MouseholeEnv` accepts
RENDER_MODES = ("human", "ansi", "rgb_array")
#: the render modes it can draw here, its ``metadata["render_modes"]``: ``"rgb_array"`` only
#: with the ``render`` extra and the system cairo library (``mousehole._extras.can_rasterize``)
AVAILABLE_RENDER_MODES = tuple(m for m in RENDER_MODES if m != "rgb_array" or can_rasterize())
#: what ``render()`` draws: the learner's view (``"seat"``) or the whole position (``"full"``)
RENDER_VIEWS = ("seat", "full")


class RandomOpponent:
    """Plays a uniformly random legal action, drawn from a numpy ``Generator``."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def step(self, state: StateAPI[Any]) -> int:
        legal = state.legal_actions()
        return int(legal[int(self.rng.integers(len(legal)))])


class MouseholeEnv(gymnasium.Env[npt.NDArray[np.float32], Any]):  # type: ignore[misc, unused-ignore]
    """One mousehole game as a single-agent Gymnasium environment.

    ``MouseholeEnv(game_id, *, seat=0, opponents=None, render_mode=None,
    render_view="seat", engine=None, illegal_action="lose", **params)``: ``game_id`` is a
    name of :func:`mousehole.game_names`, ``params`` the game's keyword parameters
    (``players``, ``max_turns``, ...) and ``engine`` is forwarded to :func:`mousehole.load`.
    ``render_mode`` is None, ``"human"``, ``"ansi"`` or ``"rgb_array"``
    (``metadata["render_modes"]`` lists the modes that can draw here: ``"rgb_array"`` needs
    the ``render`` extra); ``render_view`` is ``"seat"`` (the learner's view, the default) or
    ``"full"`` (the whole position).
    """

    metadata: Dict[str, Any] = {"render_modes": list(AVAILABLE_RENDER_MODES), "render_fps": 4}

    def __init__(
        self,
        game_id: str,
        *,
        seat: int = 0,
        opponents: Any = None,
        render_mode: Optional[str] = None,
        render_view: str = "seat",
        engine: Optional[str] = None,
        illegal_action: str = "lose",
        **params: Any,
    ) -> None:
        super().__init__()
        self.game: Game[Any, Any] = load(game_id, engine=engine, **params)
        self.seat: int = check_seat(self.game, seat)  # (the API's one rule for a seat)
        # (each option read as the exact str it holds: docs/api.md, Bounds)
        mode = None if render_mode is None else word(render_mode, RENDER_MODES)
        if render_mode is not None and mode is None:
            raise ValueError(f"render_mode must be None, 'human', 'ansi' or 'rgb_array', got {shorten(render_mode)}")
        self.render_mode = mode
        view = word(render_view, RENDER_VIEWS)
        if view is None:
            raise ValueError(
                f"render_view must be 'seat' (the learner's view) or 'full' "
                f"(the whole position), got {shorten(render_view)}"
            )
        self.render_view: str = view
        illegal = word(illegal_action, _ILLEGAL_MODES)
        if illegal is None:
            raise ValueError(f"illegal_action must be 'raise' or 'lose', got {shorten(illegal_action)}")
        self.illegal_action = illegal
        self._custom: Optional[Dict[int, Any]] = self._check_opponents(opponents)
        self.observation_space = spaces.Box(
            low=-np.inf, high=np.inf, shape=tuple(self.game.observation_shape), dtype=np.float32
        )
        self.action_space = spaces.Discrete(self.game.num_actions)
        self.state: Optional[StateAPI[Any]] = None
        self._done = True

    def _check_opponents(self, opponents: Any) -> Optional[Dict[int, Any]]:
        """None (uniform random), one object for every other seat, or a sequence of one
        object per other seat in seat order; each must have a callable ``step``."""
        others = [p for p in range(self.game.num_players) if p != self.seat]
        if opponents is None:
            return None
        if callable(getattr(opponents, "step", None)):
            return {p: opponents for p in others}
        if isinstance(opponents, (str, bytes)) or not isinstance(opponents, Sequence):
            raise TypeError(
                "opponents must be None, an object with step(state) -> int, "
                "or a sequence of such objects (one per other seat)"
            )
        if len(opponents) != len(others):
            raise ValueError(
                f"opponents: expected one per other seat ({len(others)}: seats {others}), got {len(opponents)}"
            )
        for i, o in enumerate(opponents):
            if not callable(getattr(o, "step", None)):
                raise TypeError(f"opponents[{i}] has no step(state) -> int method")
        return dict(zip(others, opponents))

    # -- internals ------------------------------------------------------------------------

    def _state(self, call: str) -> StateAPI[Any]:
        if self.state is None:
            raise RuntimeError(f"MouseholeEnv.{call}() was called before reset(): call reset() first")
        return self.state

    def _advance(self) -> None:
        """Play chance and opponents until the learner is to move or the game ends."""
        st = self._state("step")
        while True:
            cp = st.current_player
            if cp == TERMINAL or cp == self.seat:
                return
            if cp == CHANCE:
                outcomes = st.chance_outcomes()
                probs = np.array([pr for _, pr in outcomes], dtype=np.float64)
                i = int(self.np_random.choice(len(outcomes), p=probs / probs.sum()))
                st.apply_action(outcomes[i][0])
            elif self._custom is None:
                legal = st.legal_actions()
                st.apply_action(int(legal[int(self.np_random.integers(len(legal)))]))
            else:
                a = self._custom[cp].step(st.clone())
                try:
                    st.apply_action(a)
                except IllegalMoveError as e:
                    raise IllegalMoveError(f"the opponent at seat {cp} chose action {a!r}: {e}") from e

    def _obs(self) -> npt.NDArray[np.float32]:
        return self._state("step").observation(self.seat)

    def _info(self, call: str = "step") -> Dict[str, Any]:
        st = self._state(call)
        if st.current_player == self.seat:
            mask = st.legal_action_mask().astype(np.int8)
        else:
            mask = np.zeros(self.game.num_actions, dtype=np.int8)
        return {"action_mask": mask}

    # -- Gymnasium API --------------------------------------------------------------------

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[npt.NDArray[np.float32], Dict[str, Any]]:
        """A new game (its seed drawn from ``np_random``), played by the opponents until the
        learner is to move; returns the learner's observation and ``{"action_mask": ...}``."""
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**63 - 1))
        self.state = self.game.new_state(seed=game_seed)
        self._done = False
        self._advance()
        if self.state.is_terminal():  # pragma: no cover - no game ends before the learner acts
            self._done = True
        if self.render_mode == "human":
            self.render()
        return self._obs(), self._info()

    def step(self, action: Any) -> Tuple[npt.NDArray[np.float32], float, bool, bool, Dict[str, Any]]:
        """Apply the learner's ``action``, then the opponents' until the learner is to move
        again or the game ends. Raises :class:`mousehole.IllegalMoveError` for an illegal
        action (state unchanged) when ``illegal_action="raise"``."""
        st = self._state("step")
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        a = index_arg(action, "an action")
        try:
            st.apply_action(a)
        except IllegalMoveError:
            if self.illegal_action == "raise":
                raise
            self._done = True
            info = self._info()
            info["action_mask"][:] = 0
            info["illegal_action"] = True
            return self._obs(), -1.0, True, False, info
        self._advance()
        reward = 0.0
        terminated = truncated = False
        if st.is_terminal():
            self._done = True
            reward = float(st.returns()[self.seat])
            truncated = bool(st.truncated)
            terminated = not truncated
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, terminated, truncated, self._info()

    def render(self) -> Any:
        """Draw the current position as ``render_mode`` says (see the module docstring):
        ``"ansi"``: the text diagram (``str``); ``"human"``: the text diagram printed to
        standard output, returns None; ``"rgb_array"``: an ``(H, W, 3)`` uint8 picture
        (``ImportError`` naming the ``render`` extra when it is missing); None without a
        render mode. With ``render_view="seat"`` (default) it is what the learner's seat may
        see, with ``"full"`` the whole position."""
        if self.render_mode is None:
            return None
        from . import render as _render

        st = self._state("render")
        seat = self.seat if self.render_view == "seat" else None
        if self.render_mode == "rgb_array":
            return _render.rgb_array(st, for_player=seat)
        diagram = _render.text(st, for_player=seat)
        if self.render_mode == "human":
            print(diagram, flush=True)
            return None
        return diagram

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal-action mask now (bool; all False when it is not to move),
        the method ``sb3_contrib``'s ``MaskablePPO`` calls."""
        return self._info("action_masks")["action_mask"].astype(np.bool_)  # type: ignore[no-any-return]


class MouseholeVectorEnv(gymnasium.vector.VectorEnv):  # type: ignore[misc, unused-ignore]
    """``num_envs`` games of one kind as a Gymnasium vector environment, stepped together by
    :class:`mousehole.vector.VectorGame` (compiled, without the GIL, ``threads`` at a time).

    ``MouseholeVectorEnv(game_id, num_envs=1, *, seat=0, threads=1, engine=None, **params)``.
    In every sub-environment the learner plays ``seat``; the other seats play uniformly
    random legal actions drawn inside (the envs' own generators, see ``VectorGame``), and
    chance nodes are resolved inside too.

    * ``single_observation_space``: float32 ``Box`` of ``game.observation_shape`` (the
      learner's observation); ``single_action_space``: ``Discrete(num_actions)``;
      ``observation_space`` and ``action_space`` (a ``MultiDiscrete``) are their batches
      (``gymnasium.vector.utils.batch_space``).
    * ``info["action_mask"]``: int8 ``(num_envs, num_actions)``, 1 at the learner's legal
      actions, after ``reset`` and every ``step``; ``action_space.sample(mask=tuple(m))``
      takes it as is.
    * Rewards: the learner's ``returns()[seat]`` in the step where its game ends (+1, -1, or
      0 when every seat wins), 0 otherwise. ``terminations``/``truncations`` as in
      ``VectorGame`` (``truncations`` when ``max_turns`` stopped the game).
    * Autoreset: same step (``AutoresetMode.SAME_STEP``): a sub-environment whose game ends
      returns the *next* game's first observation; the finished game's observation of the
      learner is in ``info["final_obs"]`` (an object array, None elsewhere; the mask
      ``info["_final_obs"]``), and the finished game's last info in ``info["final_info"]``
      (``{"action_mask": ..., "_action_mask": ...}``: the int8 masks, all 0 as
      :class:`MouseholeEnv`'s last step gives them, marked where a game ended) with
      ``info["_final_info"]``: field for field what Gymnasium's ``SyncVectorEnv`` of
      :class:`MouseholeEnv` returns in that mode (tested side by side).
    * Seeding: ``reset(seed=s)`` gives ``VectorGame`` the seed ``s`` (sub-environment ``i``'s
      games then depend only on ``s``, ``i`` and the actions); ``reset()`` without a seed
      draws one from ``np_random``.
    * An illegal action (or one outside the action space) raises ``ValueError``
      (:class:`mousehole.IllegalMoveError` for an illegal one) naming the sub-environment;
      no sub-environment is stepped. Actions are read as given: mask them.
    * The arrays returned are reused from step to step (copy what you keep).
    * ``step()`` and ``action_masks()`` before the first ``reset()`` raise ``RuntimeError``
      naming the call.
    """

    metadata: Dict[str, Any] = {"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        game_id: str,
        num_envs: int = 1,
        *,
        seat: int = 0,
        threads: int = 1,
        engine: Optional[str] = None,
        **params: Any,
    ) -> None:
        from .vector import VectorGame

        super().__init__()
        self.game: Game[Any, Any] = load(game_id, engine=engine, **params)
        self.seat: int = check_seat(self.game, seat)  # (the API's one rule for a seat)
        self.vector = VectorGame(self.game, num_envs, 0, threads=threads, seats=[self.seat])
        self.num_envs = self.vector.num_envs
        self.single_observation_space = spaces.Box(
            low=-np.inf, high=np.inf, shape=tuple(self.game.observation_shape), dtype=np.float32
        )
        self.single_action_space = spaces.Discrete(self.game.num_actions)
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, self.num_envs)
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, self.num_envs)
        self._rewards = np.zeros(self.num_envs, dtype=np.float64)
        self._all = np.ones(self.num_envs, dtype=np.bool_)
        self._reset_done = False

    def _check_reset(self, call: str) -> None:
        if not self._reset_done:
            raise RuntimeError(f"MouseholeVectorEnv.{call}() was called before reset(): call reset() first")

    def _info(self) -> Dict[str, Any]:
        return {"action_mask": self.vector.action_mask.view(np.int8), "_action_mask": self._all}

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[npt.NDArray[np.float32], Dict[str, Any]]:
        """Every sub-environment starts a new game (see the class docstring for seeds);
        ``options`` is accepted and ignored."""
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(0, 2**63 - 1))
        obs, _ = self.vector.reset(seed)
        self._reset_done = True
        return obs, self._info()

    def step(
        self, actions: Any
    ) -> Tuple[
        npt.NDArray[np.float32], npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_], Dict[str, Any]
    ]:
        """One learner action per sub-environment, then the opponents' until the learner
        is to move again (in a new game where one ended)."""
        self._check_reset("step")
        obs, rewards, term, trunc, _, _ = self.vector.step(actions)
        np.copyto(self._rewards, rewards[:, self.seat])
        info = self._info()
        done = term | trunc
        if done.any():
            final = np.full(self.num_envs, None, dtype=object)
            for i in np.flatnonzero(done):
                final[i] = self.vector.final_observations[i].copy()
            info["final_obs"] = final
            info["_final_obs"] = done
            # a finished game's last info, as MouseholeEnv.step gives it: an all-0 mask
            info["final_info"] = {
                "action_mask": np.zeros((self.num_envs, self.game.num_actions), dtype=np.int8),
                "_action_mask": done.copy(),
            }
            info["_final_info"] = done.copy()
        return obs, self._rewards, term, trunc, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal-action masks now, ``(num_envs, num_actions)`` bool (the
        array ``VectorGame`` rewrites at every step)."""
        self._check_reset("action_masks")
        return self.vector.action_mask


def _register() -> None:
    for env_id, game_id in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="mousehole.gymnasium:MouseholeEnv",
                vector_entry_point="mousehole.gymnasium:MouseholeVectorEnv",
                kwargs={"game_id": game_id},
            )


_register()
