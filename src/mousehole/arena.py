"""``mousehole.arena``: seat-rotated tournaments between bots, in one process, on a process
pool, or on a cluster (``docs/arena.md``).

>>> import mousehole
>>> from mousehole.arena import play
>>> result = play(mousehole.load("cheese_rescue", players=2), ["random", "random"], 4, seed=1)
>>> result.n_games, [s.games for s in result.stats]
(4, [4, 4])

How a tournament is played. ``bots`` holds one entry per *position* of the rotation (as
many as the game has seats). Game ``k`` (``0 <= k < n_games``) rotates the seating by ``k``:
the bot at position ``i`` takes seat ``(i + k) % players``, so with ``n_games`` a multiple
of ``players`` every bot plays every seat equally often. Every random number of game ``k``
comes from ``base = derive(seed, k)`` (``docs/rng.md``):

* the game's own seed (deal, draws, dice): ``derive(base, 0)``;
* the draws at chance nodes (games with explicit chance): ``Rng(derive(base, 1))``;
* the bot at position ``i``: built fresh for the game with seed ``derive(base, 2 + i)``.

A game therefore depends only on ``(game, bots, seed, k)``: the result is the same whatever
the executor (none, a process pool, a Dask cluster) and however the games are cut into
chunks, as long as the bots themselves are deterministic for a seed (a bot with a time
limit is not).

A bot entry is a *spec* string (``"random"``, ``"greedy"``, ``"mcts:1000"``,
``"ismcts:500"``: :func:`mousehole.bots.make_bot`) or a *factory*: a callable
``factory(seed=int) -> Bot`` (a bot class such as ``RandomBot`` is one,
``functools.partial(MCTSBot, 200)`` too). Bots are built where the games are played (in the
worker), so only the entries travel between processes: specs always do; for a process pool
a factory must be picklable (defined at the top level of a module, not a lambda).
"""

from __future__ import annotations

import concurrent.futures as cf
import dataclasses
import functools
import math
import pickle
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Set, Tuple, Union

from ._api import Game, IllegalMoveError, as_int, index_arg, load
from ._extras import install_hint
from ._progress import Progress
from ._rng import Rng, derive, pick_outcome, unit
from ._simulate import _wilson
from ._values import shorten

__all__ = ["play", "ArenaResult", "BotStats", "GameOutcome", "Rating", "BotEntry", "ProgressFn", "bot_name"]

#: ``factory(seed=int) -> Bot``
BotFactory = Callable[..., Any]
#: a bot spec string or a bot factory
BotEntry = Union[str, BotFactory]
#: ``progress(games_done, n_games)``
ProgressFn = Callable[[int, int], Any]

#: the pip extra that brings the ratings' package
EXTRA = "arena"
#: ``n_games`` may not exceed this
MAX_GAMES = 2**53
#: the calling thread wakes up this often while it waits for an executor (seconds)
_POLL = 0.05
#: at most this many tasks are handed to an executor at a time
_IN_FLIGHT = 128
#: ``progress=True``: seconds between two progress lines when stderr is not a terminal
PROGRESS_EVERY = 1.0
#: the z of a 95% interval
_Z95 = 1.959963984540054


# --------------------------------------------------------------------------------------
# results


@dataclasses.dataclass(frozen=True)
class GameOutcome:
    """What one game of a tournament ended with (everything the figures are made from)."""

    #: the game's index ``k`` in the tournament
    index: int
    #: ``seating[s]``: the position (in ``bots``) of the bot that played seat ``s``
    seating: Tuple[int, ...]
    #: per seat, the final score (``state.scores()``)
    scores: Tuple[int, ...]
    #: the seats that won (``state.winners()``)
    winners: Tuple[int, ...]
    #: the number of actions played (chance actions included)
    length: int
    #: True when ``max_turns`` stopped the game
    truncated: bool
    #: per seat, the moves its bot chose (its ``step`` calls)
    moves: Tuple[int, ...] = ()
    #: per seat, the seconds its bot's ``step`` calls took (wall clock, ``time.perf_counter``;
    #: not compared: they depend on the machine)
    seconds: Tuple[float, ...] = dataclasses.field(default=(), compare=False)

    @property
    def decided(self) -> bool:
        """Some seats won and some lost (not when every seat, or no seat, is a winner)."""
        return 0 < len(self.winners) < len(self.seating)


@dataclasses.dataclass(frozen=True)
class BotStats:
    """One bot's figures over a tournament (it plays every game, on a rotating seat).

    Counts are exact integers, so two runs of the same tournament compare equal."""

    #: the bot's position in ``bots``
    position: int
    #: its name: the spec, or the factory's name (``#position`` added when names repeat)
    name: str
    #: games played (every game of the tournament)
    games: int
    #: decided games (see :attr:`GameOutcome.decided`) in which its seat won (a shared win counts)
    wins: int
    #: decided games in which its seat lost
    losses: int
    #: games that were not decided (every seat, or none, won)
    draws: int
    #: the sum of its final scores, and of their squares
    score_sum: int
    score_sq_sum: int
    #: the moves it chose over the tournament (its ``step`` calls)
    moves: int = 0
    #: the seconds its ``step`` calls took in all (wall clock; not compared: machine-dependent)
    seconds: float = dataclasses.field(default=0.0, compare=False)

    @property
    def seconds_per_move(self) -> float:
        """The mean time of one ``step`` (0.0 without moves)."""
        return self.seconds / self.moves if self.moves else 0.0

    @property
    def decided(self) -> int:
        return self.wins + self.losses

    @property
    def win_rate(self) -> float:
        """Wins over decided games (0.0 when no game was decided)."""
        return self.wins / self.decided if self.decided else 0.0

    @property
    def win_interval(self) -> Tuple[float, float]:
        """The 95% Wilson score interval of :attr:`win_rate` (``(0.0, 1.0)`` with no decided game)."""
        return _wilson(self.wins, self.decided, _Z95)

    @property
    def mean_score(self) -> float:
        return self.score_sum / self.games if self.games else 0.0

    @property
    def score_interval(self) -> Optional[Tuple[float, float]]:
        """The 95% interval of :attr:`mean_score` (normal, from the sample variance); None
        below 2 games."""
        n = self.games
        if n < 2:
            return None
        var = max(0, n * self.score_sq_sum - self.score_sum * self.score_sum) / (n * (n - 1))
        half = _Z95 * math.sqrt(var / n)
        return (self.mean_score - half, self.mean_score + half)

    def to_dict(self) -> Dict[str, Any]:
        return {
            "position": self.position,
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "losses": self.losses,
            "draws": self.draws,
            "decided": self.decided,
            "win_rate": self.win_rate,
            "win_rate_95": list(self.win_interval),
            "mean_score": self.mean_score,
            "mean_score_95": None if self.score_interval is None else list(self.score_interval),
            "score_sum": self.score_sum,
            "score_sq_sum": self.score_sq_sum,
            "moves": self.moves,
            "seconds": self.seconds,
            "seconds_per_move": self.seconds_per_move,
        }


@dataclasses.dataclass(frozen=True)
class Rating:
    """One bot's openskill (Plackett-Luce) rating after the whole tournament."""

    name: str
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``: a conservative skill estimate (the table's ranking key)."""
        return self.mu - 3.0 * self.sigma


def _ratings(names: Sequence[str], outcomes: Sequence[GameOutcome]) -> Tuple[Rating, ...]:
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise ImportError(f"the ratings table needs the openskill package: {install_hint(EXTRA)}") from None
    model = PlackettLuce()
    ratings = [model.rating(name=n) for n in names]
    for g in outcomes:  # in game order, so the ratings do not depend on how games were run
        teams = [[ratings[i]] for i in g.seating]
        won = set(g.winners)
        ranks = [1.0 if s in won else 2.0 for s in range(len(g.seating))]
        for s, team in enumerate(model.rate(teams, ranks=ranks)):
            ratings[g.seating[s]] = team[0]
    return tuple(Rating(n, float(r.mu), float(r.sigma)) for n, r in zip(names, ratings))


@dataclasses.dataclass(frozen=True)
class ArenaResult:
    """The result of :func:`play`: per-bot figures, the ratings, each game's outcome and,
    when asked for, the game records. ``str(result)`` is the results table."""

    #: the game id, its parameters and the engine the games ran on
    game: str
    params: Dict[str, Any]
    engine: str
    n_games: int
    seed: int
    #: the bots' names, by position
    bots: Tuple[str, ...]
    #: per position, the bot's figures
    stats: Tuple[BotStats, ...]
    #: per game (in order), how it ended
    outcomes: Tuple[GameOutcome, ...]
    #: per game, a JSON-compatible record (``records=True``), else None
    records: Optional[List[Dict[str, Any]]] = None
    #: the index of the first game (``play(..., start=)``): the games are ``start ..
    #: start + n_games - 1``
    start: int = 0

    @classmethod
    def combine(cls, parts: Sequence["ArenaResult"]) -> "ArenaResult":
        """One result from the pieces of a tournament played with ``play(..., start=)``:
        the same game, parameters, engine, bots and seed, games that follow one another
        without a gap or an overlap (in any order here). The result equals that of one call
        playing all the games (given bots that are deterministic for a seed).

        >>> import mousehole
        >>> from mousehole.arena import ArenaResult, play
        >>> g = mousehole.load("kasimir", players=2)
        >>> a = play(g, ["random", "greedy"], 4, seed=3)
        >>> b = play(g, ["random", "greedy"], 4, seed=3, start=4)
        >>> whole = ArenaResult.combine([b, a])
        >>> whole.n_games, whole.outcomes == play(g, ["random", "greedy"], 8, seed=3).outcomes
        (8, True)
        """
        if (
            isinstance(parts, (str, bytes))
            or not isinstance(parts, Sequence)
            or not parts
            or not all(isinstance(r, ArenaResult) for r in parts)
        ):
            raise TypeError("combine needs a non-empty list of ArenaResult")
        pieces = sorted(parts, key=lambda r: r.start)
        first = pieces[0]
        for r in pieces[1:]:
            for what in ("game", "params", "engine", "bots", "seed"):
                if getattr(r, what) != getattr(first, what):
                    raise ValueError(
                        f"combine: the pieces differ in {what} ({getattr(first, what)!r} and "
                        f"{getattr(r, what)!r}): they are not one tournament"
                    )
        at = first.start
        for r in pieces:
            if r.start != at:
                raise ValueError(
                    f"combine: games {at} to {r.start - 1} are missing"
                    if r.start > at
                    else f"combine: the pieces overlap at game {r.start}"
                )
            at += r.n_games
        outcomes = tuple(g for r in pieces for g in r.outcomes)
        recs = None if any(r.records is None for r in pieces) else [x for r in pieces for x in (r.records or [])]
        n = len(outcomes)
        stats = tuple(_bot_stats(i, name, n, outcomes) for i, name in enumerate(first.bots))
        return cls(
            first.game, first.params, first.engine, n, first.seed, first.bots, stats, outcomes, recs, first.start
        )

    @functools.cached_property
    def ratings(self) -> Tuple[Rating, ...]:
        """Per position, the bot's openskill Plackett-Luce rating: every bot starts at
        mu=25, sigma=25/3; the games update them in order, each game ranking its winners
        first and the other seats second (all tied when nobody, or everybody, won).
        Needs openskill (the ``arena`` extra): ImportError otherwise."""
        return _ratings(self.bots, self.outcomes)

    @property
    def decided(self) -> int:
        """The games some seats won and some lost."""
        return sum(1 for g in self.outcomes if g.decided)

    def table(self, *, times: bool = True) -> str:
        """The results table (also ``str(result)``); ``times``: end it with the time each bot
        used (total and per move; the only lines that depend on the machine)."""
        n = self.n_games
        players = len(self.bots)
        head = (
            f"{self.game}: {players} players, {self.engine} engine, seed {self.seed}: "
            f"{n:,} game{'s' if n != 1 else ''} (seats rotated every game), {self.decided:,} decided"
        )
        if self.start:
            head += f" (games {self.start:,} to {self.start + n - 1:,})"
        try:
            ratings: Optional[Tuple[Rating, ...]] = self.ratings
        except ImportError:
            ratings = None
        w = max(4, *(len(b) for b in self.bots))
        cols = (
            f"  {'bot':<{w}}  {'wins':>6}  {'losses':>6}  {'draws':>6}  {'win rate':>8}  {'95% interval':<13}"
            f"  {'mean score':>10}  {'95% interval':<17}"
        )
        if ratings is not None:
            cols += f"  {'mu':>6}  {'sigma':>5}  {'ordinal':>7}"
        rows = [head, cols]
        for i, s in enumerate(self.stats):
            lo, hi = s.win_interval
            si = s.score_interval
            sc = "-" if si is None else f"{si[0]:.2f} to {si[1]:.2f}"
            line = (
                f"  {s.name:<{w}}  {s.wins:>6}  {s.losses:>6}  {s.draws:>6}  {s.win_rate:>8.4f}  "
                f"{lo:.4f}-{hi:.4f}  {s.mean_score:>10.3f}  {sc:<17}"
            )
            if ratings is not None:
                r = ratings[i]
                line += f"  {r.mu:>6.2f}  {r.sigma:>5.2f}  {r.ordinal:>7.2f}"
            rows.append(line.rstrip())
        rows.append("  win rate: wins over decided games, 95% Wilson interval; mean score: 95% normal interval")
        if ratings is None:
            rows.append(f"  ratings: not shown (install openskill: {install_hint(EXTRA)})")
        else:
            rows.append("  ratings: openskill Plackett-Luce (winners ranked first), ordinal = mu - 3 sigma")
        if times:
            rows.append(f"  {'time used':<{w}}  {'moves':>8}  {'seconds':>9}  {'ms/move':>8}")
            for s in self.stats:
                rows.append(f"  {s.name:<{w}}  {s.moves:>8}  {s.seconds:>9.3f}  {1000 * s.seconds_per_move:>8.3f}")
        return "\n".join(rows)

    def __str__(self) -> str:
        return self.table()

    def to_dict(self) -> Dict[str, Any]:
        """The figures as JSON-compatible data (with the ratings when openskill is installed;
        without the per-game outcomes and records)."""
        try:
            ratings: Optional[List[Dict[str, Any]]] = [
                {"name": r.name, "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal} for r in self.ratings
            ]
        except ImportError:
            ratings = None
        return {
            "game": self.game,
            "params": self.params,
            "engine": self.engine,
            "n_games": self.n_games,
            "seed": self.seed,
            "start": self.start,
            "decided": self.decided,
            "bots": [s.to_dict() for s in self.stats],
            "ratings": ratings,
        }


# --------------------------------------------------------------------------------------
# bots


def bot_name(entry: BotEntry) -> str:
    """The name a bot entry goes by in tables and records: the spec itself, or the
    factory's name (a ``functools.partial`` shows its arguments)."""
    if isinstance(entry, str):
        return entry.strip()
    if isinstance(entry, functools.partial):
        args = [repr(a) for a in entry.args] + [f"{k}={v!r}" for k, v in entry.keywords.items()]
        return f"{bot_name(entry.func)}({', '.join(args)})"
    name = getattr(entry, "__name__", None)
    return str(name) if name else type(entry).__name__


def _build(entry: BotEntry, seed: int) -> Any:
    """A fresh bot from a spec or a factory, seeded with ``seed``."""
    if isinstance(entry, str):
        from .bots import make_bot

        return make_bot(entry, seed=seed)
    return entry(seed=seed)


def _check_bots(game: Game[Any, Any], bots: Any, executor: Optional[cf.Executor]) -> Tuple[BotEntry, ...]:
    if isinstance(bots, (str, bytes)) or not isinstance(bots, Sequence):
        raise TypeError("bots must be a list of bot specs or factories, one per seat (e.g. ['mcts:200', 'random'])")
    entries = tuple(bots)
    n = game.num_players
    if len(entries) != n:
        raise ValueError(
            f"bots: {game.name} is played here by {n} players, so it needs {n} bots "
            f"(one per seat of the rotation), got {len(entries)}"
        )
    for i, e in enumerate(entries):
        if not isinstance(e, (str, type)) and hasattr(e, "step"):
            raise TypeError(
                f"bots[{i}]: pass a spec or a factory factory(seed=...) -> Bot, not a bot "
                f"({type(e).__name__}): every game builds its own bots from its seeds"
            )
        if isinstance(e, str):
            try:
                bot = _build(e, 0)
            except ValueError as err:
                raise ValueError(f"bots[{i}]: {err}") from None
        elif callable(e):
            try:
                bot = e(seed=0)
            except TypeError as err:
                raise TypeError(
                    f"bots[{i}] ({bot_name(e)}): a factory is called as factory(seed=int) -> Bot; {err}"
                ) from None
        else:
            raise TypeError(
                f"bots[{i}]: expected a bot spec (str) or a factory factory(seed=...) -> Bot, got {type(e).__name__}"
            )
        if not callable(getattr(bot, "step", None)):
            raise TypeError(f"bots[{i}] ({bot_name(e)}) made a {type(bot).__name__}, which has no step(state) method")
    if isinstance(executor, cf.ProcessPoolExecutor):
        for i, e in enumerate(entries):
            try:
                pickle.dumps(e)
            except Exception as err:  # pickling errors come in many types
                raise TypeError(
                    f"bots[{i}] ({bot_name(e)}) cannot be sent to worker processes ({err}); pass a "
                    "spec string or a factory defined at the top level of a module"
                ) from None
    return entries


def _names(entries: Sequence[BotEntry]) -> Tuple[str, ...]:
    names = [bot_name(e) for e in entries]
    return tuple(f"{x}#{i}" if names.count(x) > 1 else x for i, x in enumerate(names))


# --------------------------------------------------------------------------------------
# playing


def _chance(state: Any, rng: Rng) -> int:
    """An outcome of a chance node drawn from its probabilities with ``rng`` (53-bit uniform)."""
    outcomes = state.chance_outcomes()
    return int(outcomes[pick_outcome(outcomes, unit(rng))][0])


def play_game(
    game: Game[Any, Any], bots: Sequence[BotEntry], seed: int, k: int, names: Optional[Sequence[str]] = None
) -> Tuple[GameOutcome, Any]:
    """Play game ``k`` of a tournament with seed ``seed``; return its outcome and final state.

    The bot at position ``i`` takes seat ``(i + k) % players``; see the module's documentation
    for the seeds."""
    n = game.num_players
    base = derive(seed, k)
    seating = tuple((s - k) % n for s in range(n))
    labels = list(names) if names is not None else [bot_name(b) for b in bots]
    players = [_build(bots[seating[s]], derive(base, 2 + seating[s])) for s in range(n)]
    state = game.new_state(derive(base, 0))
    chance = Rng(derive(base, 1))
    moves = [0] * n
    seconds = [0.0] * n
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(_chance(state, chance))
            continue
        p = state.current_player
        before = len(state.history)
        t0 = time.perf_counter()
        choice = players[p].step(state)
        seconds[p] += time.perf_counter() - t0
        moves[p] += 1
        a = as_int(choice)
        who = f"bot {labels[seating[p]]!r} (seat {p}, game {k})"
        if len(state.history) != before:
            raise RuntimeError(f"{who} changed the state it was given; a bot must only read it")
        if a is None:
            raise TypeError(f"{who} returned {shorten(choice)}, not an int action")
        try:
            state.apply_action(a)
        except IllegalMoveError as e:
            raise IllegalMoveError(f"{who} chose an illegal action: {e}") from None
    outcome = GameOutcome(
        k,
        seating,
        tuple(int(x) for x in state.scores()),
        tuple(int(x) for x in state.winners()),
        len(state.history),
        bool(state.truncated),
        tuple(moves),
        tuple(seconds),
    )
    return outcome, state


def _record(game: Game[Any, Any], names: Sequence[str], seed: int, outcome: GameOutcome, state: Any) -> Dict[str, Any]:
    """Game ``k``'s record in the format of :mod:`mousehole.records` (as JSON data), without
    a date (so that a tournament's records depend only on its seed), with the tournament's
    seed and the game's index in ``meta``."""
    from mousehole.records import record_of

    return record_of(
        state, seats=[names[i] for i in outcome.seating], date=None, tournament_seed=seed, index=outcome.index
    ).to_dict()


def _play_chunk(
    game: Game[Any, Any], bots: Sequence[BotEntry], names: Sequence[str], seed: int, lo: int, hi: int, records: bool
) -> Tuple[List[GameOutcome], Optional[List[Dict[str, Any]]]]:
    """Games ``lo .. hi - 1`` (what one executor task runs)."""
    out: List[GameOutcome] = []
    recs: Optional[List[Dict[str, Any]]] = [] if records else None
    for k in range(lo, hi):
        outcome, state = play_game(game, bots, seed, k, names)
        out.append(outcome)
        if recs is not None:
            recs.append(_record(game, names, seed, outcome, state))
    return out, recs


def _chunks(n: int, size: int) -> List[Tuple[int, int]]:
    return [(lo, min(n, lo + size)) for lo in range(0, n, size)]


def _run(
    game: Game[Any, Any],
    entries: Tuple[BotEntry, ...],
    names: Tuple[str, ...],
    seed: int,
    n: int,
    executor: Optional[cf.Executor],
    chunk_size: int,
    records: bool,
    report: Optional[ProgressFn],
    start: int = 0,
) -> Tuple[List[GameOutcome], Optional[List[Dict[str, Any]]]]:
    """Games ``start .. start + n - 1``, in order (``outcomes[i]`` is game ``start + i``)."""
    outcomes: List[Optional[GameOutcome]] = [None] * n
    recs: Optional[List[Optional[Dict[str, Any]]]] = [None] * n if records else None
    done = 0

    def finished_chunk(lo: int, hi: int, out: List[GameOutcome], rr: Optional[List[Dict[str, Any]]]) -> None:
        nonlocal done
        outcomes[lo:hi] = out
        if recs is not None and rr is not None:
            recs[lo:hi] = rr
        done += hi - lo
        if report is not None:
            report(done, n)

    if report is not None:
        report(0, n)
    if executor is None:
        for lo, hi in _chunks(n, chunk_size):
            finished_chunk(lo, hi, *_play_chunk(game, entries, names, seed, start + lo, start + hi, records))
    else:
        futures: Dict[Any, Tuple[int, int]] = {}
        todo = _chunks(n, chunk_size)[::-1]
        pending: Set[Any] = set()
        try:
            while todo or pending:
                while todo and len(pending) < _IN_FLIGHT:  # a window of tasks: Ctrl-C drops the rest at once
                    lo, hi = todo.pop()
                    f = executor.submit(_play_chunk, game, entries, names, seed, start + lo, start + hi, records)
                    futures[f] = (lo, hi)
                    pending.add(f)
                finished, pending = cf.wait(pending, timeout=_POLL, return_when=cf.FIRST_COMPLETED)
                for f in finished:
                    finished_chunk(*futures[f], *f.result())
        except BaseException:  # Ctrl-C or a failed game: drop the games not started yet
            for f in futures:
                f.cancel()
            raise
    final = [g for g in outcomes if g is not None]
    assert len(final) == n
    return final, (None if recs is None else [r for r in recs if r is not None])


def _default_chunk(n: int, executor: Optional[cf.Executor]) -> int:
    if executor is None:
        return 1
    return max(1, min(256, -(-n // 64)))


def _bot_stats(i: int, name: str, n: int, outcomes: Sequence[GameOutcome]) -> BotStats:
    """The figures of the bot at rotation position ``i`` over the games ``outcomes``."""
    wins = losses = draws = ssum = ssq = moves = 0
    secs = 0.0
    for g in outcomes:
        seat = g.seating.index(i)
        if g.moves:
            moves += g.moves[seat]
            secs += g.seconds[seat]
        sc = g.scores[seat]
        ssum += sc
        ssq += sc * sc
        if not g.decided:
            draws += 1
        elif seat in g.winners:
            wins += 1
        else:
            losses += 1
    return BotStats(i, name, n, wins, losses, draws, ssum, ssq, moves, secs)


def play(
    game: Union[Game[Any, Any], str],
    bots: Sequence[BotEntry],
    n_games: int,
    seed: int = 0,
    *,
    executor: Optional[cf.Executor] = None,
    progress: Union[bool, ProgressFn] = False,
    records: bool = False,
    chunk_size: Optional[int] = None,
    start: int = 0,
) -> ArenaResult:
    """Play ``n_games`` seat-rotated games between ``bots``; return an :class:`ArenaResult`.

    ``game``: a Game from :func:`mousehole.load` (or a game id, loaded with its defaults).
    ``bots``: one entry per seat of the rotation (``len(bots) == game.num_players``), each a
    spec string (``"random"``, ``"mcts:1000"``, ...) or a factory ``factory(seed=int) -> Bot``.
    Game ``k`` seats the bot at position ``i`` on seat ``(i + k) % players``; its seeds derive
    from ``(seed, k)`` only (see the module's documentation).

    ``executor``: any :class:`concurrent.futures.Executor` (a ``ProcessPoolExecutor``,
    ``dask.distributed.Client(...).get_executor()``, ...); the games go to it in chunks of
    ``chunk_size`` consecutive games (default: about 64 chunks, at most 256 games each). It is
    not shut down here. Without one, the games are played here, one after the other. The
    result does not depend on ``executor`` or ``chunk_size``.

    ``progress``: True shows the progress on stderr as ``mousehole arena`` does (on a terminal
    a rich bar, rich installed, or a line rewritten in place; otherwise a line when the
    tournament starts and one every :data:`PROGRESS_EVERY` seconds); a callable is
    called as ``progress(games_done, n_games)`` after every finished chunk (and once with 0).

    ``records``: also keep each game's record (:attr:`ArenaResult.records`): a JSON-compatible
    dict with the game id, its parameters, the game's seed, the bots' names by seat, the
    actions, scores, winners and returns (``game.new_state(seed)`` and the actions replay it).

    Ctrl-C (``KeyboardInterrupt``) stops: the chunks not started are cancelled and the
    interrupt propagates (a chunk already running on a worker finishes there).

    ``start``: play games ``start .. start + n_games - 1`` of the tournament instead of
    ``0 .. n_games - 1``, so that a long tournament can be played in pieces (on other days or
    machines) and put together with :meth:`ArenaResult.combine`: the pieces give the same
    games as one call.
    """
    if isinstance(game, str):
        game = load(game)
    if not isinstance(game, Game):
        raise TypeError(f"play needs a Game from mousehole.load (or a game id), not {type(game).__name__}")
    n = index_arg(n_games, "n_games")
    if not 1 <= n <= MAX_GAMES:
        raise ValueError(f"n_games must be at least 1 (and at most 2**53), got {n}")
    s = index_arg(seed, "seed")
    s &= 0xFFFFFFFFFFFFFFFF
    first = index_arg(start, "start")
    if not 0 <= first <= MAX_GAMES - n:
        raise ValueError(f"start (the first game's index) must be from 0 to 2**53 - n_games, got {first}")
    if executor is not None and not isinstance(executor, cf.Executor):
        raise TypeError(f"executor must be a concurrent.futures.Executor or None, not {type(executor).__name__}")
    if chunk_size is None:
        size = _default_chunk(n, executor)
    else:
        c = as_int(chunk_size)
        if c is None or c < 1:
            raise ValueError(f"chunk_size must be an int >= 1, got {shorten(chunk_size)}")
        size = c
    if not (isinstance(progress, bool) or callable(progress)):
        raise TypeError(
            f"progress must be a bool or a callable progress(games_done, n_games), not {type(progress).__name__}"
        )
    entries = _check_bots(game, bots, executor)
    names = _names(entries)
    if progress is True:
        with Progress(f"{game.name} ({game.num_players}p): {' vs '.join(names)}", n, every=PROGRESS_EVERY) as bar:
            outcomes, recs = _run(game, entries, names, s, n, executor, size, bool(records), bar, first)
    else:
        report = progress if callable(progress) else None
        outcomes, recs = _run(game, entries, names, s, n, executor, size, bool(records), report, first)
    stats = [_bot_stats(i, name, n, outcomes) for i, name in enumerate(names)]
    return ArenaResult(game.name, game.params, game.engine, n, s, names, tuple(stats), tuple(outcomes), recs, first)
