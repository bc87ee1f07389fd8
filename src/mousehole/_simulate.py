"""``mousehole.simulate``: whole random games, fast, interruptible, in constant memory if asked.

The policy is uniform over ``legal_actions()``. Game ``i`` of a run with seed ``s`` uses the
state seed ``derive(s, 2*i)`` and draws its policy choices from ``Rng(derive(s, 2*i + 1))``
(``docs/rng.md``), so results depend only on ``(game, n_games, seed)``: not on the engine,
nor on the number of threads, nor on how the games are cut into batches.

How a run is driven. The games are played in *batches* of consecutive indices. A batch runs
in compiled code without the GIL (``Core.simulate_chunk``; with the reference engine, a Python
loop) and is sized from the time the previous batch of the same worker took, so that it lasts
about 20 ms (never more than :data:`MAX_BATCH` games). Between batches the driver checks for
Ctrl-C, reports progress and, with ``aggregate=True``, folds the batch into running totals.

* ``threads=1``: the calling thread runs the batches itself; a pending ``KeyboardInterrupt``
  is raised as soon as the batch in progress returns.
* ``threads > 1``: that many worker threads take batches from a shared counter until the
  games run out or a stop flag is set. The calling thread waits in short steps (so that it
  handles signals), reports progress, and on ``KeyboardInterrupt`` (or any error) sets the
  flag, waits for the workers to finish the batch each one is playing, and re-raises.
  (Reference-engine workers look at the flag before every action: one pure-Python game
  can take longer than a batch should.)

With ``aggregate=True`` each worker plays its batches into its own buffers of at most
:data:`MAX_BATCH` rows and folds them into exact integer totals, so memory does not depend
on ``n_games``.

With an ``executor`` (a process pool, a Dask cluster's ``Client.get_executor()``) the run is
cut into about 64 tasks of consecutive games; each task is driven as above in its worker
and sends back its rows or its totals, which the calling thread puts in place as tasks
finish (checking for Ctrl-C and reporting progress in between).
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import math
import threading
import time
from typing import Any, Callable, Dict, List, Literal, Optional, Sequence, Tuple, Union, overload

import numpy as np
import numpy.typing as npt

from ._api import Game, index_arg
from ._rng import Rng, derive
from ._values import int_in

__all__ = [
    "simulate",
    "SimulationResult",
    "SimulationSummary",
    "play_random_game",
    "MAX_BATCH",
    "MAX_GAMES",
    "MAX_THREADS",
]

#: the most games one batch (one compiled call) plays
MAX_BATCH = 16384
#: the time a batch should take, in seconds (the next batch is sized from the last one)
_TARGET = 0.02
#: the calling thread reports progress at least this often (seconds) ...
_PROGRESS_EVERY = 0.2
#: ... and, with worker threads, wakes up this often to handle signals (seconds)
_POLL = 0.05
#: ``n_games`` may not exceed this (far beyond any run that can finish)
MAX_GAMES = 2**53
#: ``threads`` may not exceed this (as ``VectorGame``'s; more threads than cores bring nothing,
#: and each worker holds a batch of rows)
MAX_THREADS = 256

#: ``progress(games_done, n_games)``
ProgressFn = Callable[[int, int], Any]


# --------------------------------------------------------------------------------------
# results


def _ratio(a: int, b: int) -> float:
    """``a / b`` as a float, 0.0 when ``b`` is 0 (an empty run reports zeros, never nan)."""
    return a / b if b else 0.0


def _wilson(k: int, n: int, z: float = 1.96) -> Tuple[float, float]:
    """The Wilson score interval of a proportion ``k / n``; ``(0.0, 1.0)`` for ``n == 0``."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclasses.dataclass(frozen=True)
class SimulationSummary:
    """Aggregates of ``n_games`` random games: ``simulate(..., aggregate=True)`` or
    :meth:`SimulationResult.aggregate`. Its size does not depend on ``n_games``.

    The counters are exact Python integers, so a summary does not depend on ``threads`` or
    batching and two summaries of the same run compare equal. Derived figures are floats
    (tuples, one entry per seat); with 0 games every mean, rate and variance is 0.0.
    """

    #: the number of games
    n_games: int
    #: per seat, the sum of its final scores
    score_sum: Tuple[int, ...]
    #: per seat, the sum of the squares of its final scores
    score_sq_sum: Tuple[int, ...]
    #: per seat, the games it won (a shared win counts for every winner)
    wins: Tuple[int, ...]
    #: ``length_hist[k]``: the games whose history had ``k`` actions, for ``k`` from 0 to
    #: the longest game seen (empty for 0 games)
    length_hist: Tuple[int, ...]
    #: the games that ``max_turns`` stopped
    truncated: int

    @property
    def num_players(self) -> int:
        return len(self.score_sum)

    @property
    def mean_score(self) -> Tuple[float, ...]:
        """Per seat, the mean final score."""
        return tuple(_ratio(s, self.n_games) for s in self.score_sum)

    @property
    def score_var(self) -> Tuple[float, ...]:
        """Per seat, the *population* variance of the final score (divided by ``n_games``),
        computed from the exact sums."""
        n = self.n_games
        return tuple(_ratio(n * q - s * s, n * n) for s, q in zip(self.score_sum, self.score_sq_sum))

    @property
    def score_stderr(self) -> Tuple[float, ...]:
        """Per seat, the standard error of :attr:`mean_score`: the square root of the
        *sample* variance (divided by ``n_games - 1``) over ``n_games``; 0.0 below 2 games."""
        n = self.n_games
        if n < 2:
            return tuple(0.0 for _ in self.score_sum)
        return tuple(math.sqrt((n * q - s * s) / (n * n * (n - 1))) for s, q in zip(self.score_sum, self.score_sq_sum))

    def win_rates(self) -> Tuple[float, ...]:
        """Per seat, the share of games it won (shared wins count for each winner)."""
        return tuple(_ratio(w, self.n_games) for w in self.wins)

    def win_intervals(self, z: float = 1.96) -> Tuple[Tuple[float, float], ...]:
        """Per seat, the Wilson score interval of its win rate (``z=1.96``: 95%);
        ``(0.0, 1.0)`` for 0 games."""
        return tuple(_wilson(w, self.n_games, z) for w in self.wins)

    @property
    def mean_length(self) -> float:
        """The mean number of actions in a game."""
        return _ratio(sum(k * c for k, c in enumerate(self.length_hist)), self.n_games)

    def summary(self) -> str:
        """One line: games, mean length, mean scores, win rates, truncations."""
        if self.n_games == 0:
            return "0 games"
        rates = ", ".join(f"seat {p}: {r:.3f}" for p, r in enumerate(self.win_rates()))
        means = [round(m, 3) for m in self.mean_score]
        return (
            f"{self.n_games} games, mean length {self.mean_length:.2f} actions, "
            f"mean scores {means}, win rates {rates}, truncated {self.truncated}"
        )


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
        """Per seat, the share of games it won (shared wins count for each winner); zeros
        for 0 games."""
        if self.n_games == 0:
            return np.zeros(self.winners.shape[1], dtype=np.float64)
        rates: npt.NDArray[np.float64] = self.winners.mean(axis=0, dtype=np.float64)
        return rates

    def aggregate(self) -> SimulationSummary:
        """The :class:`SimulationSummary` of these games: equal to what
        ``simulate(..., aggregate=True)`` returns for the same game, count and seed."""
        acc = _Totals(self.scores.shape[1])
        acc.add(self.scores, self.winners.view(np.uint8), self.lengths, self.truncated.view(np.uint8), self.n_games)
        return acc.summary()

    def summary(self) -> str:
        """One line: games, mean length, mean scores, win rates, truncations."""
        return self.aggregate().summary()


# --------------------------------------------------------------------------------------
# the reference engine's batch (same contract as the compiled ``Core.simulate_chunk``)


class _Stopped(Exception):
    """A reference-engine batch abandoned because the run was stopped."""


def _play(game: Game[Any, Any], seed: int, index: int, stopped: Optional[Callable[[], bool]]) -> Any:
    state = game.new_state(derive(seed, 2 * index))
    policy = Rng(derive(seed, 2 * index + 1))
    while not state.is_terminal():
        if stopped is not None and stopped():
            raise _Stopped
        legal = state.legal_actions()
        state.apply_action(int(legal[policy.below(len(legal))]))
    return state


def play_random_game(game: Game[Any, Any], seed: int, index: int = 0) -> Any:
    """Play game ``index`` of ``simulate(game, ..., seed)`` in a Python loop; return its state."""
    return _play(game, seed, index, None)


class _PythonChunk:
    """The reference engine's batch, with the contract of the compiled
    ``Core.simulate_chunk``: play games ``lo .. hi - 1``, game ``i`` into row ``i - lo``. A worker
    thread's batch checks the run's stop flag before every action (a pure-Python game can
    take longer than the half second a Ctrl-C may wait) and is abandoned when it is set."""

    def __init__(self, stopped: Optional[Callable[[], bool]]) -> None:
        self.stopped = stopped

    def __call__(
        self, game: Game[Any, Any], seed: int, lo: int, hi: int, scores: Any, winners: Any, lengths: Any, truncated: Any
    ) -> None:
        for i in range(lo, hi):
            st = _play(game, seed, i, self.stopped)
            r = i - lo
            scores[r] = st.scores()
            winners[r] = 0
            winners[r, st.winners()] = 1
            lengths[r] = len(st.history)
            truncated[r] = st.truncated


# --------------------------------------------------------------------------------------
# constant-memory batches


class _Totals:
    """Running exact totals of a run (constant size)."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.n = 0
        self.score_sum = [0] * players
        self.score_sq_sum = [0] * players
        self.wins = [0] * players
        self.hist: npt.NDArray[np.int64] = np.zeros(0, dtype=np.int64)
        self.truncated = 0

    def add(
        self,
        scores: npt.NDArray[np.int64],
        winners: npt.NDArray[np.uint8],
        lengths: npt.NDArray[np.int64],
        truncated: npt.NDArray[np.uint8],
        k: int,
    ) -> None:
        """Fold in the first ``k`` rows of the arrays."""
        if k == 0:
            return
        s = scores[:k]
        for p, (a, b, w) in enumerate(
            zip(s.sum(axis=0).tolist(), (s * s).sum(axis=0).tolist(), winners[:k].sum(axis=0, dtype=np.int64).tolist())
        ):
            self.score_sum[p] += a
            self.score_sq_sum[p] += b
            self.wins[p] += w
        counts = np.bincount(lengths[:k])
        if counts.shape[0] > self.hist.shape[0]:
            counts[: self.hist.shape[0]] += self.hist
            self.hist = counts.astype(np.int64)
        else:
            self.hist[: counts.shape[0]] += counts
        self.truncated += int(truncated[:k].sum(dtype=np.int64))
        self.n += k

    def merge(self, other: "_Totals") -> None:
        for p in range(self.players):
            self.score_sum[p] += other.score_sum[p]
            self.score_sq_sum[p] += other.score_sq_sum[p]
            self.wins[p] += other.wins[p]
        if other.hist.shape[0] > self.hist.shape[0]:
            self.hist, other_hist = other.hist.copy(), self.hist
        else:
            other_hist = other.hist
        self.hist[: other_hist.shape[0]] += other_hist
        self.truncated += other.truncated
        self.n += other.n

    def summary(self) -> SimulationSummary:
        return SimulationSummary(
            n_games=self.n,
            score_sum=tuple(self.score_sum),
            score_sq_sum=tuple(self.score_sq_sum),
            wins=tuple(self.wins),
            length_hist=tuple(int(c) for c in self.hist.tolist()),
            truncated=self.truncated,
        )


# --------------------------------------------------------------------------------------
# the driver


class _Work:
    """The games still to hand out (indices ``start .. n - 1``), the games done, and the stop
    flag (shared by workers)."""

    def __init__(self, n: int, start: int = 0) -> None:
        self.n = n
        self.next = start
        self.done = 0
        self.lock = threading.Lock()
        self.stop = False

    def take(self, size: int) -> Optional[Tuple[int, int]]:
        with self.lock:
            if self.stop or self.next >= self.n:
                return None
            lo = self.next
            self.next = min(self.n, lo + size)
            return lo, self.next

    def finish(self, k: int) -> None:
        with self.lock:
            self.done += k


def _next_size(size: int, played: int, seconds: float) -> int:
    """The next batch size: aim at ``_TARGET`` seconds from the last batch's pace, growing at
    most fourfold and shrinking at most to a quarter per step."""
    if seconds <= 0.0:
        want = 4 * size
    else:
        want = int(played * _TARGET / seconds)
    return max(1, min(MAX_BATCH, 4 * size, max(want, size // 4)))


class _Worker:
    """Plays batches for one thread: into the result arrays, or (``aggregate``) into its own
    fixed-size buffers that are folded into its own totals after every batch."""

    def __init__(
        self,
        game: Game[Any, Any],
        seed: int,
        work: _Work,
        out: Optional[Sequence[Any]],
        rows: int,
        threaded: bool,
        offset: int = 0,
    ) -> None:
        self.game = game
        self.seed = seed
        self.work = work
        self.out = out
        #: game ``i`` goes to row ``i - offset`` of ``out``
        self.offset = offset
        self.size = 1
        self.chunk: Callable[..., None] = (
            game._state_cls.simulate_chunk
            if game.engine == "compiled"
            else _PythonChunk(self._stopped if threaded else None)
        )
        self.totals: Optional[_Totals] = None
        if out is None:
            p = game.num_players
            self.totals = _Totals(p)
            self.buf = (
                np.zeros((rows, p), dtype=np.int64),
                np.zeros((rows, p), dtype=np.uint8),
                np.zeros(rows, dtype=np.int64),
                np.zeros(rows, dtype=np.uint8),
            )
        self.error: Optional[BaseException] = None

    def _stopped(self) -> bool:
        return self.work.stop

    def step(self) -> bool:
        """Play one batch; False when there is nothing left to do (or the run stopped)."""
        got = self.work.take(self.size)
        if got is None:
            return False
        lo, hi = got
        t = time.perf_counter()
        if self.totals is None:
            assert self.out is not None
            self.chunk(self.game, self.seed, lo, hi, *(a[lo - self.offset : hi - self.offset] for a in self.out))
        else:
            self.chunk(self.game, self.seed, lo, hi, *self.buf)
            self.totals.add(*self.buf, hi - lo)
        self.size = _next_size(self.size, hi - lo, time.perf_counter() - t)
        self.work.finish(hi - lo)
        return True

    def run(self) -> None:
        """Thread body: batches until done or stopped; an error stops every worker."""
        try:
            while self.step():
                pass
        except _Stopped:
            pass
        except BaseException as e:  # reported by the calling thread
            self.error = e
            self.work.stop = True


class _Reporter:
    """Calls ``progress`` from the calling thread: forced, or when ``_PROGRESS_EVERY`` has
    passed; never twice with the same count."""

    def __init__(self, progress: Optional[ProgressFn], n: int) -> None:
        self.progress = progress
        self.n = n
        self.last_count = -1
        self.last_time = time.monotonic()

    def __call__(self, done: int, force: bool = False) -> None:
        if self.progress is None or done == self.last_count:
            return
        now = time.monotonic()
        if force or now - self.last_time >= _PROGRESS_EVERY:
            self.last_count, self.last_time = done, now
            self.progress(done, self.n)


def _drive(workers: List[_Worker], work: _Work, report: _Reporter) -> None:
    """Run the workers to the end (see the module docstring); re-raise the first error."""
    if len(workers) == 1:
        w = workers[0]
        try:
            while w.step():
                report(work.done)
        except KeyboardInterrupt:
            report(work.done, force=True)
            raise
        return
    threads = [
        threading.Thread(target=w.run, name=f"mousehole-simulate-{i}", daemon=True) for i, w in enumerate(workers)
    ]

    def stop() -> None:  # each worker ends its current batch (at most ~20 ms) and returns
        work.stop = True
        for t in threads:
            if t.ident is not None:
                t.join()

    try:
        for t in threads:
            t.start()
        for t in threads:
            while t.is_alive():
                t.join(_POLL)  # short waits: the calling thread handles signals in between
                report(work.done)
    except KeyboardInterrupt:
        stop()
        report(work.done, force=True)
        raise
    finally:
        stop()
    for w in workers:
        if w.error is not None:
            raise w.error


# --------------------------------------------------------------------------------------
# runs on an executor (a process pool, a Dask cluster, ...)

#: a run on an executor is cut into about this many tasks
_EXECUTOR_TASKS = 64

_Rows = Tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_], npt.NDArray[np.int64], npt.NDArray[np.bool_]]


def _simulate_range(
    game: Game[Any, Any], seed: int, lo: int, hi: int, threads: int, aggregate: bool
) -> Union[_Totals, _Rows]:
    """One executor task: games ``lo .. hi - 1`` of the run with seed ``seed``, played here
    on ``threads`` threads; their totals (``aggregate``) or their rows."""
    n = hi - lo
    work = _Work(hi, start=lo)
    report = _Reporter(None, n)
    k = min(threads, max(1, n))
    if aggregate:
        workers = [_Worker(game, seed, work, None, min(n, MAX_BATCH), k > 1) for _ in range(k)]
        _drive(workers, work, report)
        totals = _Totals(game.num_players)
        for w in workers:
            assert w.totals is not None
            totals.merge(w.totals)
        return totals
    rows: _Rows = (
        np.zeros((n, game.num_players), dtype=np.int64),
        np.zeros((n, game.num_players), dtype=np.bool_),
        np.zeros(n, dtype=np.int64),
        np.zeros(n, dtype=np.bool_),
    )
    out = (rows[0], rows[1].view(np.uint8), rows[2], rows[3].view(np.uint8))
    _drive([_Worker(game, seed, work, out, 0, k > 1, offset=lo) for _ in range(k)], work, report)
    return rows


def _on_executor(
    executor: Any, game: Game[Any, Any], seed: int, n: int, threads: int, aggregate: bool, report: _Reporter
) -> Union[SimulationResult, SimulationSummary]:
    """``simulate`` with its games cut into tasks of consecutive games, run by ``executor``.
    Ctrl-C (or a failed task) cancels the tasks not started and propagates."""
    players = game.num_players
    size = max(1, -(-n // _EXECUTOR_TASKS))
    totals = _Totals(players)
    m = 0 if aggregate else n
    rows: _Rows = (
        np.zeros((m, players), dtype=np.int64),
        np.zeros((m, players), dtype=np.bool_),
        np.zeros(m, dtype=np.int64),
        np.zeros(m, dtype=np.bool_),
    )
    futures: Dict[Any, Tuple[int, int]] = {}
    done = 0
    try:
        for lo in range(0, n, size):
            hi = min(n, lo + size)
            futures[executor.submit(_simulate_range, game, seed, lo, hi, threads, aggregate)] = (lo, hi)
        pending = set(futures)
        while pending:
            finished, pending = concurrent.futures.wait(
                pending, timeout=_POLL, return_when=concurrent.futures.FIRST_COMPLETED
            )
            for f in finished:
                lo, hi = futures[f]
                part = f.result()
                if aggregate:
                    assert isinstance(part, _Totals)
                    totals.merge(part)
                else:
                    assert isinstance(part, tuple)
                    for whole, piece in zip(rows, part):
                        whole[lo:hi] = piece
                done += hi - lo
                report(done)
    except BaseException:
        for f in futures:
            f.cancel()
        report(done, force=True)
        raise
    report(n, force=True)
    if aggregate:
        return totals.summary()
    return SimulationResult(*rows)


# --------------------------------------------------------------------------------------
# the entry point


@overload
def simulate(
    game: Game[Any, Any],
    n_games: int,
    seed: int = ...,
    *,
    threads: int = ...,
    progress: Optional[ProgressFn] = ...,
    aggregate: Literal[False] = ...,
    executor: Optional[concurrent.futures.Executor] = ...,
) -> SimulationResult: ...
@overload
def simulate(
    game: Game[Any, Any],
    n_games: int,
    seed: int = ...,
    *,
    threads: int = ...,
    progress: Optional[ProgressFn] = ...,
    aggregate: Literal[True],
    executor: Optional[concurrent.futures.Executor] = ...,
) -> SimulationSummary: ...
@overload
def simulate(
    game: Game[Any, Any],
    n_games: int,
    seed: int = ...,
    *,
    threads: int = ...,
    progress: Optional[ProgressFn] = ...,
    aggregate: bool = ...,
    executor: Optional[concurrent.futures.Executor] = ...,
) -> Union[SimulationResult, SimulationSummary]: ...


def simulate(
    game: Game[Any, Any],
    n_games: int,
    seed: int = 0,
    *,
    threads: int = 1,
    progress: Optional[ProgressFn] = None,
    aggregate: bool = False,
    executor: Optional[concurrent.futures.Executor] = None,
) -> Union[SimulationResult, SimulationSummary]:
    """Play ``n_games`` uniformly random games of ``game``; return their results.

    With the compiled engine the games run inside compiled code without the GIL and
    ``threads`` (1 to :data:`MAX_THREADS`, 256) plays them on that many threads. With the
    reference engine they run in a Python loop (``threads`` is honoured but brings no
    speed: the loop holds the GIL).

    ``aggregate=False`` (default) returns a :class:`SimulationResult`: one row per game, so
    memory grows with ``n_games`` (about 10 bytes per seat and game, plus 9 per game).
    ``aggregate=True`` returns a :class:`SimulationSummary` (per seat score sums and sums of
    squares, wins; the histogram of game lengths; truncations), computed in memory that does
    not depend on ``n_games``; it equals ``simulate(...).aggregate()`` exactly.

    ``progress``, if given, is called as ``progress(games_done, n_games)`` from the calling
    thread: once at the start (``games_done == 0``), then at least every 0.2 seconds while
    games finish, and once with ``games_done == n_games`` at the end; the counts increase
    strictly. If the run is interrupted, it is called once more with the games completed
    before ``KeyboardInterrupt`` propagates.

    Ctrl-C (``KeyboardInterrupt``) stops a run within a batch (about 20 ms of work): the
    games are played in short batches and signals are handled between them (see the
    module's documentation). Results are the same whatever ``threads`` and batch sizes.

    ``executor``: any :class:`concurrent.futures.Executor` (a ``ProcessPoolExecutor``, or
    ``dask.distributed.Client(...).get_executor()`` for a cluster) for runs larger than one
    process: the games are cut into about 64 tasks of consecutive games, each task plays its
    games in a worker (on ``threads`` threads there) and sends back its rows, or its totals
    with ``aggregate=True``; the results are exactly those of the in-process run. The
    executor is not shut down. ``progress`` is then reported as tasks finish; Ctrl-C cancels
    the tasks not started (those already running finish in their workers) and propagates.

    >>> import mousehole
    >>> r = mousehole.simulate(mousehole.load("cheese_rescue", players=2), 10, seed=1)
    >>> r.scores.shape, int(r.lengths[0])
    ((10, 2), 24)
    >>> s = mousehole.simulate(mousehole.load("cheese_rescue", players=2), 10, seed=1, aggregate=True)
    >>> s == r.aggregate(), s.n_games, s.length_hist[24] >= 1
    (True, 10, True)
    """
    if not isinstance(game, Game):
        raise TypeError(f"simulate needs a Game from mousehole.load, not {type(game).__name__}")
    n = int_in(n_games, "n_games", 0, MAX_GAMES, "2**53")
    t = int_in(threads, "threads", 1, MAX_THREADS)
    s = index_arg(seed, "seed") & 0xFFFFFFFFFFFFFFFF
    if progress is not None and not callable(progress):
        raise TypeError(
            f"progress must be a callable progress(games_done, n_games) or None, not {type(progress).__name__}"
        )
    if not isinstance(aggregate, (bool, np.bool_)):
        raise TypeError(f"aggregate must be a bool, not {type(aggregate).__name__}")
    if executor is not None and not isinstance(executor, concurrent.futures.Executor):
        raise TypeError(f"executor must be a concurrent.futures.Executor or None, not {type(executor).__name__}")

    players = game.num_players
    work = _Work(n)
    report = _Reporter(progress, n)
    report(0, force=True)
    if executor is not None:
        return _on_executor(executor, game, s, n, t, bool(aggregate), report)
    k = min(t, max(1, n))
    if aggregate:
        rows = min(n, MAX_BATCH)
        workers = [_Worker(game, s, work, None, rows, k > 1) for _ in range(k)]
        _drive(workers, work, report)
        report(n, force=True)
        totals = _Totals(players)
        for w in workers:
            assert w.totals is not None
            totals.merge(w.totals)
        return totals.summary()
    scores = np.zeros((n, players), dtype=np.int64)
    winners = np.zeros((n, players), dtype=np.bool_)
    lengths = np.zeros(n, dtype=np.int64)
    truncated = np.zeros(n, dtype=np.bool_)
    out = (scores, winners.view(np.uint8), lengths, truncated.view(np.uint8))
    workers = [_Worker(game, s, work, out, 0, k > 1) for _ in range(k)]
    _drive(workers, work, report)
    report(n, force=True)
    return SimulationResult(scores, winners, lengths, truncated)
