"""``mousehole.simulate``: whole random games, fast.

The policy is uniform over ``legal_actions()``. Game ``i`` of a run with seed ``s`` uses the
state seed ``derive(s, 2*i)`` and draws its policy choices from ``Rng(derive(s, 2*i + 1))``
(``docs/rng.md``), so results depend only on ``(game, n_games, seed)``: not on the engine,
nor on the number of threads.
"""
from __future__ import annotations

import dataclasses
import operator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Tuple

import numpy as np
import numpy.typing as npt

from ._api import Game
from ._rng import Rng, derive

__all__ = ["simulate", "SimulationResult", "play_random_game"]


@dataclasses.dataclass(frozen=True)
class SimulationResult:
    """The outcome of ``n_games`` random games, one row per game."""

    #: ``(n_games, num_players)`` final scores (``state.scores()``)
    scores: npt.NDArray[np.int64]
    #: ``(n_games, num_players)`` True where the seat is among the winners
    winners: npt.NDArray[np.bool_]
    #: ``(n_games,)`` number of actions in each game's history
    lengths: npt.NDArray[np.int64]
    #: ``(n_games,)`` True where ``max_turns`` stopped the game
    truncated: npt.NDArray[np.bool_]

    @property
    def n_games(self) -> int:
        return int(self.lengths.shape[0])

    def win_rates(self) -> npt.NDArray[np.float64]:
        """Per seat, the share of games it won (shared wins count for each winner)."""
        return self.winners.mean(axis=0)  # type: ignore[no-any-return]

    def summary(self) -> str:
        rates = ", ".join(f"seat {p}: {r:.3f}" for p, r in enumerate(self.win_rates()))
        return (
            f"{self.n_games} games, mean length {self.lengths.mean():.2f} actions, "
            f"mean scores {np.round(self.scores.mean(axis=0), 3).tolist()}, win rates {rates}, "
            f"truncated {int(self.truncated.sum())}"
        )


def play_random_game(game: Game, seed: int, index: int = 0) -> Any:
    """Play game ``index`` of ``simulate(game, ..., seed)`` in a Python loop; return its state."""
    state = game.new_state(derive(seed, 2 * index))
    policy = Rng(derive(seed, 2 * index + 1))
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(int(legal[policy.below(len(legal))]))
    return state


def _allocate(n: int, players: int) -> Tuple[Any, Any, Any, Any]:
    return (
        np.zeros((n, players), dtype=np.int64),
        np.zeros((n, players), dtype=np.bool_),
        np.zeros(n, dtype=np.int64),
        np.zeros(n, dtype=np.bool_),
    )


def _run_compiled(game: Game, seed: int, scores: Any, winners: Any, lengths: Any, truncated: Any,
                  threads: int) -> None:
    """Split the games into ``threads`` contiguous chunks; each chunk runs in compiled code
    without the GIL (``Core.simulate_chunk``). Each game's seeds depend only on its index."""
    chunk = game._state_cls.simulate_chunk
    n = lengths.shape[0]
    w, t = winners.view(np.uint8), truncated.view(np.uint8)
    if threads <= 1 or n < 2 * threads:
        chunk(game, seed, 0, n, scores, w, lengths, t)
        return
    bounds = [n * i // threads for i in range(threads + 1)]
    with ThreadPoolExecutor(threads) as pool:
        jobs = [pool.submit(chunk, game, seed, bounds[i], bounds[i + 1], scores, w, lengths, t) for i in range(threads)]
        for job in jobs:
            job.result()


def simulate(game: Game, n_games: int, seed: int = 0, *, threads: int = 1) -> SimulationResult:
    """Play ``n_games`` uniformly random games of ``game`` and return their results.

    With the compiled engine the games run inside compiled code without the GIL; ``threads``
    splits them over that many threads. With the reference engine they run in a Python loop.

    >>> import mousehole
    >>> r = mousehole.simulate(mousehole.load("cheese_rescue", players=2), 10, seed=1)
    >>> r.scores.shape, int(r.lengths[0])
    ((10, 2), 24)
    """
    if not isinstance(game, Game):
        raise TypeError(f"simulate needs a Game from mousehole.load, not {type(game).__name__}")
    n = operator.index(n_games)
    if n < 0:
        raise ValueError(f"n_games must be >= 0, got {n}")
    t = operator.index(threads)
    if t < 1:
        raise ValueError(f"threads must be >= 1, got {t}")
    s = operator.index(seed) & 0xFFFFFFFFFFFFFFFF
    scores, winners, lengths, truncated = _allocate(n, game.num_players)
    if game.engine == "compiled":
        _run_compiled(game, s, scores, winners, lengths, truncated, t)
    else:
        for i in range(n):
            st = play_random_game(game, s, i)
            scores[i] = st.scores()
            winners[i, st.winners()] = True
            lengths[i] = len(st.history)
            truncated[i] = st.truncated
    return SimulationResult(scores, winners, lengths, truncated)
