"""``VectorGame``: many games of one kind stepped together, for reinforcement learning.

>>> import numpy as np, mousehole
>>> from mousehole.vector import VectorGame, RANDOM
>>> vg = VectorGame(mousehole.load("cheese_rescue", players=2), 8, seed=1)
>>> obs, info = vg.reset()
>>> obs.shape, info["action_mask"].shape
((8, 20, 9, 9), (8, 486))
>>> obs, rewards, terminated, truncated, current, mask = vg.step(np.full(8, RANDOM))

Semantics (identical on both backends; ``docs/rl.md`` has the full contract):

* **Envs and seeds.** Env ``i`` plays a sequence of games ``k = 0, 1, 2, ...``. With
  ``e = derive(seed, i)`` (``docs/rng.md``), game ``k`` of env ``i`` is
  ``game.new_state(derive(e, 2*k))`` and every random choice made inside the env during that
  game (chance outcomes, the other seats' moves, ``RANDOM`` actions) comes from
  ``Rng(derive(e, 2*k + 1))``, in the order the game needs them. So an env's games depend
  only on ``(game, seed, i)`` and the actions given to that env: not on ``num_envs``, on
  ``threads``, or on the other envs.
* **Seats.** ``seats`` (default: all) are the seats whose actions ``step`` takes; every other
  seat plays a uniformly random legal action, ``legal[rng.below(len(legal))]``, as
  ``simulate`` does. Chance nodes (Kater Kasimir with ``explicit_chance=True``) are resolved
  inside: ``below(n)`` when the outcomes are equally likely, otherwise the first outcome
  whose cumulative probability exceeds ``(rng.next64() >> 11) * 2**-53``. After ``reset``
  and after every ``step`` each env waits for one of ``seats`` to move.
* **A step.** ``step(actions)`` applies ``actions[i]`` in env ``i`` for the seat to move
  (``RANDOM`` = -1 asks the env to pick a uniformly random legal action from its own
  generator), then chance and the other seats until one of ``seats`` is to move again or the
  game is over. Every action is checked before any env changes: an illegal one raises
  :class:`mousehole.IllegalMoveError` (a ``ValueError``) naming the env and the action.
* **Ends and restarts.** When env ``i``'s game ends during a step, ``rewards[i]`` holds its
  ``returns()`` (per seat: +1 win, -1 loss, 0 for all when every seat wins; 0 on every other
  step), ``terminated[i]`` is True (or ``truncated[i]`` when ``max_turns`` stopped the game)
  and ``final_observations[i]`` is the finished game's observation for the seat that acted
  in this step. The env has already started its next game (same-step autoreset):
  ``observations[i]``, ``current_player[i]`` and ``action_mask[i]`` are the new game's. A
  game that ends before any of ``seats`` is to move is skipped.
* **Arrays are reused.** ``reset`` and ``step`` return the same numpy arrays every time,
  written in place (``observations`` float32 ``(num_envs, *observation_shape)``, ``rewards``
  float64 ``(num_envs, num_players)``, ``terminated``/``truncated`` bool ``(num_envs,)``,
  ``current_player`` int32 ``(num_envs,)``, ``action_mask`` bool ``(num_envs,
  num_actions)``): copy what you keep. ``step(actions, observe=False)`` skips the
  observations, final observations and masks (left as they were): the fast path when the
  actions do not depend on them (for example ``RANDOM``).

The compiled backend (the default when the game is loaded on the compiled engine) steps the
envs in compiled code without the GIL, ``threads`` at a time in contiguous blocks; the
pure-Python backend (a game on the reference engine, e.g. under ``MOUSEHOLE_PUREPYTHON=1``)
steps ordinary states one env after the other (``threads`` is accepted and has no effect).
Both give the same arrays at every step.

Threads. A VectorGame serves one thread at a time. Any of its methods called while another
thread is inside one (a ``step`` running without the GIL, a ``reset``, ...) raises
``RuntimeError`` naming the VectorGame and changes nothing; it never crashes, hangs or
half-steps an env. ``step`` copies the actions once into memory the caller cannot reach
and checks and applies that copy, so a thread that writes the ``actions`` array during a
step can at worst make that step raise (an illegal or out-of-range value it wrote was
caught by the check) or step with values it wrote (each one checked). The returned arrays
are written in place by every step: a thread that reads them during another thread's step
sees a mix of old and new rows, and writing them changes nothing inside (the seat to move
and the game index are kept privately, and the arrays only receive copies). Copy a row
before searching it then: numpy before 2.2.4 (every Python 3.9 install) counts and then
fills in ``np.nonzero`` / ``np.flatnonzero`` and boolean indexing, and a row that changes
in between makes it write past its result (a corrupted heap).
"""

from __future__ import annotations

import os
import threading
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np
import numpy.typing as npt

from ._api import CHANCE, TERMINAL, Game, IllegalMoveError, StateAPI, as_int, index_arg, load
from ._rng import MASK64, Rng, derive, pick_outcome, unit
from ._values import shorten

__all__ = ["VectorGame", "RANDOM", "StepResult"]

#: the action that asks an env for a uniformly random legal action (from its own generator)
RANDOM = -1

#: ``(observations, rewards, terminated, truncated, current_player, action_mask)``
StepResult = Tuple[
    npt.NDArray[np.float32],
    npt.NDArray[np.float64],
    npt.NDArray[np.bool_],
    npt.NDArray[np.bool_],
    npt.NDArray[np.int32],
    npt.NDArray[np.bool_],
]

#: the most envs and threads one VectorGame takes
MAX_ENVS = 1 << 24
MAX_THREADS = 256

#: how many times this process was made by ``fork`` (from the one that imported this
#: module): a VectorGame's worker threads exist only in the process that made it, and this
#: counter, unlike ``os.getpid()``, costs no system call at every step
_forks = 0


def _count_fork() -> None:
    global _forks
    _forks += 1


if hasattr(os, "register_at_fork"):  # POSIX; elsewhere there is no fork
    os.register_at_fork(after_in_child=_count_fork)


def _is_bool(x: Any) -> bool:
    """Whether ``x`` is a bool of Python or numpy (a 0-d bool array included)."""
    return isinstance(x, (bool, np.bool_)) or (isinstance(x, np.ndarray) and x.dtype == np.bool_)


def _chance_pick(outcomes: Sequence[Tuple[int, float]], rng: Rng) -> int:
    """The chance rule of the module docstring (the compiled backend's ``chance_pick``)."""
    n = len(outcomes)
    p0 = outcomes[0][1]
    if all(p == p0 for _, p in outcomes):
        return int(outcomes[rng.below(n)][0])
    return int(outcomes[pick_outcome(outcomes, unit(rng))][0])


class _PyBackend:
    """The pure-Python backend: ordinary states, one env after the other."""

    def __init__(self, vg: "VectorGame") -> None:
        self.vg = vg
        n = vg.num_envs
        self.states: List[StateAPI[Any]] = [vg.game.new_state(0) for _ in range(n)]
        self.rngs: List[Rng] = [Rng(0) for _ in range(n)]
        self.legal: List[List[int]] = [[] for _ in range(n)]
        self.env_seed: List[int] = [0] * n
        self.seat_is_caller = [p in vg.seats for p in range(vg.num_players)]
        #: the seat to move and the game index of each env (the VectorGame's arrays are copies)
        self.seat_now: List[int] = [0] * n
        self.game_k: List[int] = [0] * n
        self.acts: List[int] = [0] * n  # the last step's actions (``applied``)
        self.nsteps = 0
        #: held by the thread inside a method (``_enter``): one thread at a time
        self._busy = threading.Lock()
        self._set_seed(vg.seed)

    def _enter(self, what: str) -> None:
        if not self._busy.acquire(blocking=False):
            raise RuntimeError(
                f"VectorGame.{what}: this VectorGame is in use by another thread (a VectorGame "
                "serves one thread at a time: give each thread its own VectorGame)"
            )

    def blocks(self) -> int:
        return 1

    def _set_seed(self, seed: int) -> None:
        self.env_seed = [derive(seed, i) for i in range(self.vg.num_envs)]

    def _advance(self, i: int) -> None:
        st, rng = self.states[i], self.rngs[i]
        while True:
            c = st.current_player
            if c == TERMINAL:
                return
            if c == CHANCE:
                st.apply_action(_chance_pick(st.chance_outcomes(), rng))
            elif self.seat_is_caller[c]:
                return
            else:
                legal = st.legal_actions()
                st.apply_action(int(legal[rng.below(len(legal))]))

    def _start(self, i: int, k: int) -> None:
        e = self.env_seed[i]
        while True:
            self.states[i] = self.vg.game.new_state(derive(e, 2 * k))
            self.rngs[i] = Rng(derive(e, 2 * k + 1))
            self._advance(i)
            if not self.states[i].is_terminal():
                break
            k += 1
        self.game_k[i] = k

    def _publish(self, i: int, observe: bool) -> None:
        vg, st = self.vg, self.states[i]
        c = st.current_player
        self.legal[i] = [int(a) for a in st.legal_actions()]
        self.seat_now[i] = c
        vg.current_player[i] = c
        vg.game_index[i] = self.game_k[i]
        if observe:
            st.legal_action_mask(out=vg.action_mask[i])
            st.observation(c, out=vg.observations[i])

    def reset(self, seed: Optional[int] = None) -> None:
        self._enter("reset")
        try:
            if seed is not None:
                self._set_seed(seed & MASK64)
            vg = self.vg
            vg.rewards[...] = 0.0
            vg.terminated[...] = False
            vg.truncated[...] = False
            for i in range(vg.num_envs):
                self._start(i, 0)
                self._publish(i, True)
            self.nsteps = 0
        finally:
            self._busy.release()

    def _check(self, actions: List[int]) -> int:
        for i, a in enumerate(actions):
            if a != RANDOM and a not in self.legal[i]:
                return i
        return -1

    def _step(self, actions: List[int], observe: bool) -> None:
        vg = self.vg
        vg.rewards[...] = 0.0
        vg.terminated[...] = False
        vg.truncated[...] = False
        for i, a in enumerate(actions):
            st = self.states[i]
            seat = self.seat_now[i]
            if a == RANDOM:
                a = self.legal[i][self.rngs[i].below(len(self.legal[i]))]
            st.apply_action(a)
            self._advance(i)
            if st.is_terminal():
                vg.rewards[i] = st.returns()
                if st.truncated:
                    vg.truncated[i] = True
                else:
                    vg.terminated[i] = True
                if observe:
                    st.observation(seat, out=vg.final_observations[i])
                self._start(i, self.game_k[i] + 1)
            self._publish(i, observe)

    def check_step(self, actions: Any, observe: bool) -> Any:
        """As ``VectorCore.check_step``: -2 unless ``actions`` is already an int64 array of
        the right shape, -1 once stepped, else ``(env, action, seat, legal)`` of the first
        invalid env (nothing stepped). The actions are read once (``tolist``: a private
        copy) and that copy is checked and applied."""
        if not (type(actions) is np.ndarray and actions.dtype == np.int64 and actions.shape == (self.vg.num_envs,)):
            return -2
        self._enter("step")
        try:
            acts: List[int] = actions.tolist()
            self.acts = acts
            bad = self._check(acts)
            if bad >= 0:
                a = acts[bad]
                legal = self.legal[bad] if 0 <= a < self.vg.num_actions else []
                return (bad, a, self.seat_now[bad], np.array(legal, dtype=np.int64))
            self._step(acts, bool(observe))
            self.nsteps += 1
            return -1
        finally:
            self._busy.release()

    def stepped(self) -> int:
        return self.nsteps

    def _hold(self) -> None:
        self._enter("_hold")

    def _release(self) -> None:
        self._busy.release()

    def applied(self) -> npt.NDArray[np.int64]:
        self._enter("applied")
        try:
            return np.array(self.acts, dtype=np.int64)
        finally:
            self._busy.release()

    def legal_actions(self, i: int) -> npt.NDArray[np.int64]:
        self._enter("legal_actions")
        try:
            return np.array(self.legal[i], dtype=np.int64)
        finally:
            self._busy.release()

    def state(self, i: int) -> StateAPI[Any]:
        return self.states[i].clone()


class VectorGame:
    """``num_envs`` games of ``game`` stepped together (see the module docstring).

    ``VectorGame(game, num_envs, seed, *, threads=1, seats=None)``: ``game`` is a
    :class:`mousehole.Game` (from :func:`mousehole.load`; a game id string loads the game
    with its defaults), ``seed`` any int (taken modulo 2**64), ``threads`` the number of
    threads stepping the envs (compiled backend; each thread's block holds at least 128
    envs, so fewer envs use fewer threads), ``seats`` the seats whose actions :meth:`step`
    takes (default: every seat).
    """

    def __init__(
        self, game: Any, num_envs: int, seed: int, *, threads: int = 1, seats: Optional[Sequence[int]] = None
    ) -> None:
        if isinstance(game, str):
            game = load(game)
        if not isinstance(game, Game):
            raise TypeError(
                f"game must be a mousehole Game (mousehole.load(...)) or a game id, not {type(game).__name__}"
            )
        self.game: Game[Any, Any] = game
        n = index_arg(num_envs, "num_envs")
        if not 1 <= n <= MAX_ENVS:
            raise ValueError(f"num_envs must be in 1..{MAX_ENVS}, got {n}")
        s = index_arg(seed, "seed")
        t = index_arg(threads, "threads")
        if not 1 <= t <= MAX_THREADS:
            raise ValueError(f"threads must be in 1..{MAX_THREADS}, got {t}")
        players = game.num_players
        if seats is None:
            chosen: Tuple[int, ...] = tuple(range(players))
        else:
            if isinstance(seats, (str, bytes)) or not isinstance(seats, Sequence):
                raise TypeError("seats must be None or a sequence of seats")
            picked = []
            for x in seats:
                p = as_int(x)
                if p is None:
                    raise TypeError(f"seats: {shorten(x)} is not an int")
                if not 0 <= p < players:
                    raise ValueError(f"seats: {p} is not a seat of a {players}-player game (0..{players - 1})")
                picked.append(p)
            if not picked:
                raise ValueError("seats must name at least one seat")
            chosen = tuple(sorted(set(picked)))
        self.num_envs: int = n
        self.seed: int = s & MASK64
        self.threads: int = t
        self.seats: Tuple[int, ...] = chosen
        self.num_players: int = players
        self.num_actions: int = game.num_actions
        self.observation_shape: Tuple[int, ...] = tuple(game.observation_shape)
        shape = (n,) + self.observation_shape
        #: observations of the seat to move, ``(num_envs, *observation_shape)`` float32
        self.observations: npt.NDArray[np.float32] = np.zeros(shape, dtype=np.float32)
        #: where a game ended in the last step: its observation for the seat that acted
        self.final_observations: npt.NDArray[np.float32] = np.zeros(shape, dtype=np.float32)
        #: returns of the games that ended in the last step (0 elsewhere), per seat
        self.rewards: npt.NDArray[np.float64] = np.zeros((n, players), dtype=np.float64)
        self.terminated: npt.NDArray[np.bool_] = np.zeros(n, dtype=np.bool_)
        self.truncated: npt.NDArray[np.bool_] = np.zeros(n, dtype=np.bool_)
        #: the seat to move in each env (always one of ``seats``)
        self.current_player: npt.NDArray[np.int32] = np.zeros(n, dtype=np.int32)
        #: the legal actions of the seat to move
        self.action_mask: npt.NDArray[np.bool_] = np.zeros((n, game.num_actions), dtype=np.bool_)
        #: the index ``k`` of each env's current game
        self.game_index: npt.NDArray[np.int64] = np.zeros(n, dtype=np.int64)
        self._reset_done = False
        self._core: Any
        if game.engine == "compiled":
            from ._vector import VectorCore

            size = int(np.prod(self.observation_shape))
            self._core = VectorCore(
                game.new_state(0),
                n,
                self.seed,
                t,
                chosen,
                self.observations.reshape(n, size),
                self.final_observations.reshape(n, size),
                self.rewards,
                self.terminated.view(np.uint8),
                self.truncated.view(np.uint8),
                self.current_player,
                self.action_mask.view(np.uint8),
                self.game_index,
            )
            self.backend = "compiled"
        else:
            self._core = _PyBackend(self)
            self.backend = "python"
        #: worker threads run this VectorGame's blocks (threads > 1 and enough envs)
        self._workers: bool = self.backend == "compiled" and self._core.blocks() > 1
        self._forks = _forks
        self._result: StepResult = (
            self.observations,
            self.rewards,
            self.terminated,
            self.truncated,
            self.current_player,
            self.action_mask,
        )

    def __repr__(self) -> str:
        return (
            f"VectorGame({self.game!r}, num_envs={self.num_envs}, seed={self.seed}, "
            f"threads={self.threads}, seats={list(self.seats)}, backend={self.backend!r})"
        )

    def _check_process(self) -> None:
        if self._workers and _forks != self._forks:
            raise RuntimeError(
                "this VectorGame's worker threads belong to the parent process: make a new VectorGame after fork"
            )

    def reset(self, seed: Optional[int] = None) -> Tuple[npt.NDArray[np.float32], Dict[str, Any]]:
        """Every env starts its game 0 (with a new ``seed`` if given). Returns
        ``(observations, {"current_player": ..., "action_mask": ...})`` (reused arrays)."""
        self._check_process()
        new_seed: Optional[int] = None
        if seed is not None:
            s = index_arg(seed, "seed", " or None")
            new_seed = s & MASK64
        self._core.reset(new_seed)  # (RuntimeError, nothing changed, while another thread steps)
        if new_seed is not None:
            self.seed = new_seed
        self._reset_done = True
        return self.observations, {"current_player": self.current_player, "action_mask": self.action_mask}

    def _actions(self, actions: Any) -> npt.NDArray[np.int64]:
        if (
            type(actions) is np.ndarray
            and actions.dtype == np.int64
            and actions.shape == (self.num_envs,)
            and actions.flags.c_contiguous
        ):
            return actions  # the fast path: nothing to convert
        if isinstance(actions, (list, tuple)):
            # one snapshot of the elements, checked and converted (a bool is not an action,
            # though numpy would read True as 1)
            items = list(actions)
            for i, x in enumerate(items):
                if type(x) is not int and _is_bool(x):
                    raise TypeError(f"actions: env {i}: {x!r} is a bool, not an action (an int)")
            arr = np.asarray(items)
        else:
            arr = np.asarray(actions)
        if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
            raise TypeError(f"actions must be integers, got dtype {arr.dtype}")
        if arr.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), got {arr.shape}")
        if arr.dtype != np.int64:
            if arr.dtype.kind == "u" and arr.size and int(arr.max()) > np.iinfo(np.int64).max:
                raise ValueError("actions: a value exceeds the action space")
            arr = arr.astype(np.int64)
        return np.ascontiguousarray(arr)

    def step(self, actions: Any, *, observe: bool = True) -> StepResult:
        """Apply one action per env (see the module docstring); returns ``(observations,
        rewards, terminated, truncated, current_player, action_mask)``, the same arrays
        every time. ``observe=False`` leaves observations and masks unwritten."""
        if not self._reset_done:
            raise RuntimeError("call reset() before step()")
        if self._workers and _forks != self._forks:
            self._check_process()
        # one call checks and steps an int64 array as it is; anything else is converted
        # (and validated) first
        # one call copies, checks and steps an int64 array as it is; anything else is
        # converted (and validated) first. A rejection names the value the check saw (in the
        # core's private copy), not the caller's array as it may be now.
        bad = self._core.check_step(actions, observe)
        if bad == -1:
            return self._result
        if bad == -2:
            actions = np.array(self._actions(actions), dtype=np.int64)  # aligned, C order
            bad = self._core.check_step(actions, observe)
            if bad == -1:
                return self._result
            if bad == -2:  # pragma: no cover - a fresh int64 array is always accepted
                raise TypeError("actions: could not be converted to an int64 array")
        i, a, seat, legal = bad
        if not (a == RANDOM or 0 <= a < self.num_actions):
            raise ValueError(
                f"env {i}: action {a} is outside the action space "
                f"0..{self.num_actions - 1} (or RANDOM = -1); no env was stepped"
            )
        raise IllegalMoveError(
            f"env {i}: action {a} is not legal for seat {seat} (legal: {legal.tolist()}); no env was stepped"
        )

    def legal_actions(self, i: int) -> npt.NDArray[np.int64]:
        """Env ``i``'s legal actions now (ascending int64; valid with ``observe=False`` too).
        ``TypeError`` unless ``i`` is an int (not a bool or a float), ``IndexError`` outside
        ``0..num_envs-1``."""
        j = index_arg(i, "legal_actions: the env index")
        if not 0 <= j < self.num_envs:
            raise IndexError(f"env {j} is out of range 0..{self.num_envs - 1}")
        if not self._reset_done:
            raise RuntimeError("call reset() first")
        out: npt.NDArray[np.int64] = self._core.legal_actions(j)
        return out
