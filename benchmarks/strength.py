"""The strength tables: the strong bot by time per move, the rating ladder, and (with
``--iterations``) the search bots at a fixed iteration count.

    python benchmarks/strength.py --time 0.1 --games 400 --workers 2   # issue 26's tables
    python benchmarks/strength.py --time 0.02 --games 40 --ladder-games 20 --workers 2
    python benchmarks/strength.py --iterations 1000 --games 400        # issue 11's table (below)

By time (the default, ``--time SECONDS`` per move, 0.1 unless given). For every game and
player count (``--players``, default 2 4), seats rotated game by game:

* ``strong:Ts`` against ``greedy`` (2 players: one against one; 4 players: one against
  three; an even share is 50% and 25%);
* at 2 players, ``strong:Ts`` against ``ismcts:Ts``, the best search bot before it, at the
  same time per move;
* for Kater Kasimir (a dice race) the ceiling: ``OracleBot`` (UCT on the state as it is,
  which holds the generator that rolls the dice: it sees every future roll) against
  ``greedy`` at the same time per move.

With ``--ceilings`` it plays only the other ceiling, a run of its own: at 2 players in every
game, ``OracleBot`` against ``ismcts:Ts`` at the same time per move (what seeing every hidden
card, the pile's order and the future dice is worth against the best fair search before the
strong bot: the ceiling of the target "60% against ismcts"), and no ladder.

Then the ladder (``--ladder-games`` games per pair, 0 to leave it out): a round robin at 2
players between ``random``, ``greedy``, ``mcts:Ts``, ``ismcts:Ts`` and ``strong:Ts``, every
pair playing as many games, and per game the openskill Plackett-Luce rating of every spec
(every game of the round robin rated in a fixed order: pair by pair, game by game), with mu,
sigma and the interval mu +- 2 sigma. ``--ladder-time`` gives the search bots of the ladder
their own time (default ``--time``).

In parts (a run longer than one sitting): ``--part K/N`` plays the K-th of N slices of the
games of every line and every ladder pair (games ``(K-1)*G//N`` to ``K*G//N - 1`` of a line of
G games, through ``mousehole.arena.play(..., start=)``: the same games as in one run) and keeps
each slice's outcomes in its JSON; ``--merge PART.json ...`` puts the N parts back together
(``ArenaResult.combine``: the figures and the ladder's ratings of one run) and writes the
whole run's JSON and tables:

    python benchmarks/strength.py --time 0.1 --games 400 --workers 2 --part 1/4 --json p1.json
    ...                                                           (parts 2, 3, 4: other sittings)
    python benchmarks/strength.py --merge p1.json p2.json p3.json p4.json --json whole.json

Every line prints as it finishes (progress on stderr); the markdown tables print at the end
and the JSON (every row, the ratings, the tuning of the strong bot, the arguments and the
machine) goes to ``benchmarks/results/strength-time-<date>.json`` (or ``--json PATH``).

By iterations (``--iterations N``): issue 11's table, below.

For every game, player count, search bot (``mcts:1000``, ``ismcts:1000``) and opponent
(``random``, ``greedy``) it plays ``--games`` games with ``mousehole.arena.play``: the search
bot against ``players - 1`` copies of the opponent, seats rotated game by game (game ``k``
puts the search bot on seat ``k % players``, so use a multiple of the player count), every
seed derived from ``--seed`` (the table is reproducible, whatever ``--workers``).

A line reports the search bot's wins and losses among the *decided* games (some seats won
and some lost; a game every seat wins, or none, is a draw) and its win rate over those, with
the 95% Wilson interval. At 4 players the search bot is one seat against three: an even
share is 25%.

It prints the table in markdown and writes the JSON to
``benchmarks/results/strength-<date>.json`` (or ``--json PATH``).

``--c 0.5 1.0 2.0`` adds a line per exploration constant (the bots are then built from
factories ``functools.partial(MCTSBot, iterations, c=...)``): the sweep of docs/bots.md is
``--iterations 1000 --players 2 --opponents greedy --games 100 --seed 77 --c 0.5 0.7 1.0 1.4 2.0``.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import dataclasses
import datetime
import functools
import json
import os
import sys
import time
from typing import Any, Dict, List, Optional, Tuple

import mousehole
from mousehole.arena import ArenaResult, BotEntry, GameOutcome, play
from mousehole.bots import DEFAULT_C, STRONG_TUNING, ISMCTSBot, MCTSBot, search

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import machine  # noqa: E402  (the same machine description as run.py)

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")


def search_bot(kind: str, iterations: int, c: float) -> BotEntry:
    """The spec ``kind:iterations`` at the default ``c``, else a factory with that ``c``."""
    if c == DEFAULT_C:
        return f"{kind}:{iterations}"
    cls = {"mcts": MCTSBot, "ismcts": ISMCTSBot}[kind]
    return functools.partial(cls, iterations, c=c)


def line(
    game_id: str,
    players: int,
    bot: BotEntry,
    opponent: str,
    n_games: int,
    seed: int,
    executor: Optional[cf.Executor],
    c: float,
) -> Dict[str, Any]:
    game = mousehole.load(game_id, players=players)
    lineup: List[BotEntry] = [bot] + [opponent] * (players - 1)
    t = time.perf_counter()
    result = play(game, lineup, n_games, seed, executor=executor)
    seconds = time.perf_counter() - t
    me = result.stats[0]
    lo, hi = me.win_interval
    return {
        "game": game_id,
        "players": players,
        "bot": me.name,
        "c": c,
        "opponent": opponent,
        "games": me.games,
        "wins": me.wins,
        "losses": me.losses,
        "draws": me.draws,
        "decided": me.decided,
        "win_rate": me.win_rate,
        "win_rate_95": [lo, hi],
        "even_share": 1.0 / players,
        "mean_score": me.mean_score,
        "seconds": seconds,
        "seed": seed,
    }


class OracleBot:
    """The ceiling of a dice race: UCT on the state exactly as it is (``search(...,
    algorithm="open")``), whose generator rolls the dice, so the bot knows every future roll
    (not the other seats' moves); in a card game it sees every hand and the pile's order.
    Not a fair player: a measuring stick."""

    def __init__(self, seed: int = 0, time: float = 0.1) -> None:
        self.seed = seed
        self.time = time
        self.calls = 0

    def step(self, state: Any) -> int:
        t0 = time.perf_counter()
        self.calls += 1
        limit = max(1e-4, self.time - (time.perf_counter() - t0))
        return search(state, algorithm="open", time=limit, iterations=None, seed=self.seed + self.calls).action

    def reset(self) -> None:
        self.calls = 0


Part = Tuple[int, int]  # (K, N): the K-th (from 1) of N slices of every line's games


def part_slice(n_games: int, part: Optional[Part]) -> Tuple[int, int]:
    """The games ``(start, count)`` of ``part`` among ``n_games`` (all of them without one)."""
    if part is None:
        return 0, n_games
    k, n = part
    lo, hi = (k - 1) * n_games // n, k * n_games // n
    return lo, hi - lo


def piece(result: ArenaResult) -> Dict[str, Any]:
    """What a part keeps of a line: enough to rebuild its :class:`ArenaResult`."""
    return {
        "game": result.game,
        "params": result.params,
        "engine": result.engine,
        "seed": result.seed,
        "bots": list(result.bots),
        "start": result.start,
        "n_games": result.n_games,
        "outcomes": [dataclasses.asdict(g) for g in result.outcomes],
    }


def unpiece(d: Dict[str, Any]) -> ArenaResult:
    """The :class:`ArenaResult` of a kept slice (its figures recomputed from its outcomes)."""
    outcomes = tuple(
        GameOutcome(
            int(g["index"]),
            tuple(g["seating"]),
            tuple(g["scores"]),
            tuple(g["winners"]),
            int(g["length"]),
            bool(g["truncated"]),
            tuple(g["moves"]),
            tuple(float(x) for x in g["seconds"]),
        )
        for g in d["outcomes"]
    )
    bare = ArenaResult(
        d["game"],
        d["params"],
        d["engine"],
        int(d["n_games"]),
        int(d["seed"]),
        tuple(d["bots"]),
        (),
        outcomes,
        None,
        int(d["start"]),
    )
    return ArenaResult.combine([bare])


def timed_row(what: str, result: ArenaResult, seconds: float, seed: int) -> Dict[str, Any]:
    """A line of the time table from its result."""
    me = result.stats[0]
    lo, hi = me.win_interval
    opp = result.stats[1]
    return {
        "what": what,
        "game": result.game,
        "players": len(result.bots),
        "bot": me.name,
        "opponent": opp.name.split("#")[0],
        "games": me.games,
        "wins": me.wins,
        "losses": me.losses,
        "draws": me.draws,
        "decided": me.decided,
        "win_rate": me.win_rate,
        "win_rate_95": [lo, hi],
        "even_share": 1.0 / len(result.bots),
        "mean_score": me.mean_score,
        "bot_seconds_per_move": me.seconds_per_move,
        "opponent_seconds_per_move": opp.seconds_per_move,
        "seconds": seconds,
        "seed": seed,
    }


def timed_line(
    game_id: str,
    players: int,
    bot: BotEntry,
    opponent: BotEntry,
    n_games: int,
    seed: int,
    executor: Optional[cf.Executor],
    what: str,
    part: Optional[Part] = None,
) -> Dict[str, Any]:
    """One line of the time table: ``bot`` on one seat, ``opponent`` on the others (with
    ``part``, its slice of the games, kept as ``row["piece"]``)."""
    game = mousehole.load(game_id, players=players)
    start, count = part_slice(n_games, part)
    t = time.perf_counter()
    result = play(game, [bot] + [opponent] * (players - 1), count, seed, executor=executor, start=start)
    row = timed_row(what, result, time.perf_counter() - t, seed)
    if part is not None:
        row["piece"] = piece(result)
    return row


def format_time_table(rows: List[Dict[str, Any]]) -> str:
    out = [
        "| game | players | bot | opponent | games | decided | wins | win rate | 95% interval | even share | "
        "bot ms/move |",
        "|---|---:|---|---|---:|---:|---:|---:|---|---:|---:|",
    ]
    for r in rows:
        lo, hi = r["win_rate_95"]
        out.append(
            f"| {r['game']} | {r['players']} | {r['bot']} | {r['opponent']} | {r['games']} | {r['decided']} | "
            f"{r['wins']} | {100 * r['win_rate']:.1f}% | {100 * lo:.1f}-{100 * hi:.1f}% | "
            f"{100 * r['even_share']:.0f}% | {1000 * r['bot_seconds_per_move']:.1f} |"
        )
    return "\n".join(out)


def ladder(
    game_id: str,
    specs: List[BotEntry],
    n_games: int,
    seed: int,
    executor: Optional[cf.Executor],
    part: Optional[Part] = None,
) -> Dict[str, Any]:
    """The round robin of one game at 2 players and its openskill ratings (with ``part``, its
    slice of every pair's games, each kept as ``pair["piece"]``)."""
    game = mousehole.load(game_id, players=2)
    names = [s if isinstance(s, str) else type(s).__name__ for s in specs]
    start, count = part_slice(n_games, part)
    results: List[Tuple[Tuple[int, int], ArenaResult, float]] = []
    for i in range(len(specs)):
        for j in range(i + 1, len(specs)):
            t = time.perf_counter()
            result = play(game, [specs[i], specs[j]], count, derive_pair(seed, i, j), executor=executor, start=start)
            results.append(((i, j), result, time.perf_counter() - t))
            a, b = result.stats
            print(
                f"  ladder {game_id}: {names[i]} {a.wins} - {b.wins} {names[j]} ({a.draws} draws, "
                f"{time.perf_counter() - t:.0f} s)",
                file=sys.stderr,
                flush=True,
            )
    out = ladder_of(game_id, names, results)
    if part is not None:
        for p, (_, result, _) in zip(out["pairs"], results):
            p["piece"] = piece(result)
    return out


def ladder_of(
    game_id: str, names: List[str], results: List[Tuple[Tuple[int, int], ArenaResult, float]]
) -> Dict[str, Any]:
    """The ladder's table from the pairs' results (pair by pair, in the round robin's order)."""
    from openskill.models import PlackettLuce

    pairs = []
    games: List[Tuple[Tuple[int, int], GameOutcome]] = []
    for (i, j), result, seconds in results:
        a, b = result.stats
        pairs.append(
            {
                "bots": [names[i], names[j]],
                "pair": [i, j],
                "games": result.n_games,
                "wins": [a.wins, b.wins],
                "draws": a.draws,
                "seconds_per_move": [a.seconds_per_move, b.seconds_per_move],
                "seconds": seconds,
            }
        )
        games.extend(((i, j), g) for g in result.outcomes)
    n_games = results[0][1].n_games if results else 0
    model = PlackettLuce()
    ratings = [model.rating(name=n) for n in names]
    for (i, j), g in games:  # pair by pair, game by game: a fixed order
        who = [(i, j)[pos] for pos in g.seating]  # the spec on each seat
        won = set(g.winners)
        ranks = [1.0 if s in won else 2.0 for s in range(2)]
        new = model.rate([[ratings[k]] for k in who], ranks=ranks)
        for s, team in enumerate(new):
            ratings[who[s]] = team[0]
    rated = [
        {
            "bot": n,
            "mu": float(r.mu),
            "sigma": float(r.sigma),
            "low": float(r.mu - 2 * r.sigma),
            "high": float(r.mu + 2 * r.sigma),
        }
        for n, r in zip(names, ratings)
    ]
    rated.sort(key=lambda x: -x["mu"])
    return {"game": game_id, "players": 2, "games_per_pair": n_games, "names": names, "pairs": pairs, "ratings": rated}


def derive_pair(seed: int, i: int, j: int) -> int:
    from mousehole._rng import derive

    return derive(derive(seed, 1000 + i), j)


def format_ladder(ladders: List[Dict[str, Any]]) -> str:
    out = ["| game | rank | bot | mu | sigma | mu - 2 sigma .. mu + 2 sigma |", "|---|---:|---|---:|---:|---|"]
    for lad in ladders:
        for k, r in enumerate(lad["ratings"], start=1):
            out.append(
                f"| {lad['game']} | {k} | {r['bot']} | {r['mu']:.2f} | {r['sigma']:.2f} | "
                f"{r['low']:.2f} .. {r['high']:.2f} |"
            )
    return "\n".join(out)


def _part(text: str) -> Part:
    """``--part K/N``: 1 <= K <= N."""
    try:
        k, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected K/N (e.g. 2/4), got {text!r}") from None
    if not 1 <= k <= n:
        raise argparse.ArgumentTypeError(f"expected 1 <= K <= N in K/N, got {text!r}")
    return k, n


def main_time(args: argparse.Namespace, argv: Optional[List[str]] = None) -> int:
    t = args.time
    executor: Optional[cf.Executor] = cf.ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    strong, ismcts = f"strong:{t!r}s", f"ismcts:{t!r}s"
    rows: List[Dict[str, Any]] = []
    ladders: List[Dict[str, Any]] = []
    start = time.perf_counter()

    def done(row: Dict[str, Any]) -> None:
        rows.append(row)
        print(
            f"{row['what']}: {row['game']} {row['players']}p {row['bot']} vs {row['opponent']}: "
            f"{row['wins']}/{row['decided']} ({100 * row['win_rate']:.1f}%, {row['seconds']:.0f} s, "
            f"{time.perf_counter() - start:.0f} s in all)",
            file=sys.stderr,
            flush=True,
        )

    try:
        oracle = functools.partial(OracleBot, time=t)
        if args.ceilings:  # the oracle against ismcts alone: no other line, no ladder
            for game_id in args.game:
                done(
                    timed_line(
                        game_id,
                        2,
                        oracle,
                        ismcts,
                        args.games,
                        args.seed,
                        executor,
                        "oracle vs ismcts (ceiling)",
                        args.part,
                    )
                )
        else:
            for game_id in args.game:
                for n in args.players:
                    done(
                        timed_line(
                            game_id, n, strong, "greedy", args.games, args.seed, executor, "strong vs greedy", args.part
                        )
                    )
                    if n == 2:
                        done(
                            timed_line(
                                game_id,
                                n,
                                strong,
                                ismcts,
                                args.games,
                                args.seed,
                                executor,
                                "strong vs ismcts",
                                args.part,
                            )
                        )
                    if game_id == "kasimir" and not args.no_oracle:
                        done(
                            timed_line(
                                game_id,
                                n,
                                oracle,
                                "greedy",
                                args.games,
                                args.seed,
                                executor,
                                "oracle vs greedy (ceiling)",
                                args.part,
                            )
                        )
            if args.ladder_games > 0:
                lt = args.ladder_time if args.ladder_time is not None else t
                specs: List[BotEntry] = ["random", "greedy", f"mcts:{lt!r}s", f"ismcts:{lt!r}s", f"strong:{lt!r}s"]
                for game_id in args.game:
                    ladders.append(ladder(game_id, specs, args.ladder_games, args.seed, executor, args.part))
    finally:
        if executor is not None:
            executor.shutdown()
    results = {
        "kind": "strength-time",
        "machine": machine(),
        "time_per_move": t,
        "games_per_line": args.games,
        "ladder_games_per_pair": args.ladder_games,
        "ladder_time": args.ladder_time,
        "seed": args.seed,
        "workers": args.workers,
        "argv": sys.argv[1:] if argv is None else argv,
        "seconds": time.perf_counter() - start,
        "strong_tuning": {g: dataclasses.asdict(v) for g, v in STRONG_TUNING.items()},
        "search_tuning": {g: dict(cls.SEARCH_TUNING) for g, cls in _registry().items()},
        "part": None if args.part is None else list(args.part),
        "rows": rows,
        "ladders": ladders,
    }
    if args.ceilings:  # (only then: the parts of a run before the option have no such key)
        results["ceilings"] = True
    suffix = "-ceilings" if args.ceilings else ""
    if args.part is not None:
        suffix += f"-part{args.part[0]}of{args.part[1]}"
    return write_time_results(results, args.json, suffix)


def _registry() -> Dict[str, Any]:
    from mousehole._api import _REGISTRY

    return dict(_REGISTRY)


def write_time_results(results: Dict[str, Any], path: Optional[str], suffix: str) -> int:
    """Print the tables of a run (or a part, or merged parts) and write its JSON."""
    print(format_time_table(results["rows"]))
    if results["ladders"]:
        print()
        print(format_ladder(results["ladders"]))
    return write_json(results, path, f"strength-time-{datetime.date.today().isoformat()}{suffix}.json")


def write_json(results: Dict[str, Any], path: Optional[str], default_name: str) -> int:
    """Write a run's JSON to ``path`` (default: ``default_name`` in benchmarks/results)."""
    if path is None:
        os.makedirs(RESULTS, exist_ok=True)
        path = os.path.join(RESULTS, default_name)
    with open(path, "w") as f:
        json.dump(results, f, indent=2, sort_keys=True)
        f.write("\n")
    print(f"\nwritten to {path}", file=sys.stderr)
    return 0


#: the arguments a part's run must share with the others to be merged with them
_SAME = (
    "kind",
    "time_per_move",
    "games_per_line",
    "ladder_games_per_pair",
    "ladder_time",
    "seed",
    "strong_tuning",
    "search_tuning",
    "ceilings",
)


def merge_parts(paths: List[str], out: Optional[str]) -> int:
    """``--merge``: the whole run from the JSON of its parts (every part of 1..N exactly once,
    run with the same arguments and the same bots' constants)."""
    parts = []
    for p in paths:
        with open(p) as f:
            parts.append(json.load(f))
    for p, d in zip(paths, parts):
        if d.get("kind") != "strength-time" or not d.get("part"):
            raise SystemExit(f"--merge: {p} is not a part of a strength run by time (run with --part K/N)")
    n = parts[0]["part"][1]
    got = sorted(d["part"][0] for d in parts)
    if got != list(range(1, n + 1)) or any(d["part"][1] != n for d in parts):
        raise SystemExit(f"--merge: expected parts 1 to {n} of {n} once each, got {[d['part'] for d in parts]}")
    for key in _SAME:
        values = {json.dumps(d.get(key), sort_keys=True) for d in parts}
        if len(values) > 1:
            raise SystemExit(f"--merge: the parts differ in {key}: they are not one run")
    parts.sort(key=lambda d: d["part"][0])
    first = parts[0]
    rows = []
    for i, row in enumerate(first["rows"]):
        same = [d["rows"][i] for d in parts]
        whole = ArenaResult.combine([unpiece(r["piece"]) for r in same])
        rows.append(timed_row(row["what"], whole, sum(r["seconds"] for r in same), row["seed"]))
    ladders = []
    for i, lad in enumerate(first["ladders"]):
        results = []
        for j, pair in enumerate(lad["pairs"]):
            same = [d["ladders"][i]["pairs"][j] for d in parts]
            whole = ArenaResult.combine([unpiece(p["piece"]) for p in same])
            results.append(((pair["pair"][0], pair["pair"][1]), whole, sum(p["seconds"] for p in same)))
        ladders.append(ladder_of(lad["game"], lad["names"], results))
    merged = {k: first[k] for k in _SAME if k in first}
    merged.update(
        {
            "machine": [d["machine"] for d in parts],
            "workers": [d["workers"] for d in parts],
            "argv": [d["argv"] for d in parts],
            "seconds": sum(d["seconds"] for d in parts),
            "parts": [os.path.basename(p) for p in paths],
            "part": None,
            "rows": rows,
            "ladders": ladders,
        }
    )
    return write_time_results(merged, out, "")


def format_table(rows: List[Dict[str, Any]]) -> str:
    out = [
        "| game | players | bot | c | opponent | games | decided | wins | win rate | 95% interval |",
        "|---|---:|---|---:|---|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        lo, hi = r["win_rate_95"]
        out.append(
            f"| {r['game']} | {r['players']} | {r['bot']} | {r['c']} | {r['opponent']} | {r['games']} | "
            f"{r['decided']} | {r['wins']} | {100 * r['win_rate']:.1f}% | {100 * lo:.1f}-{100 * hi:.1f}% |"
        )
    return "\n".join(out)


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", nargs="*", default=mousehole.game_names(), help="game ids (default: all)")
    ap.add_argument("--players", nargs="*", type=int, default=[2, 4], help="player counts (default: 2 4)")
    ap.add_argument("--bots", nargs="*", default=["mcts", "ismcts"], help="search bots (default: mcts ismcts)")
    ap.add_argument("--opponents", nargs="*", default=["random", "greedy"], help="default: random greedy")
    ap.add_argument(
        "--iterations",
        type=int,
        default=None,
        help="issue 11's table: the search bots at this many iterations per move (default: by time)",
    )
    ap.add_argument("--time", type=float, default=0.1, help="seconds per move of the time tables (default 0.1)")
    ap.add_argument("--ladder-games", type=int, default=20, help="games per pair of the ladder (default 20; 0: none)")
    ap.add_argument("--ladder-time", type=float, default=None, help="seconds per move in the ladder (default --time)")
    ap.add_argument("--no-oracle", action="store_true", help="leave out Kater Kasimir's oracle lines")
    ap.add_argument(
        "--ceilings",
        action="store_true",
        help="by time: only OracleBot against ismcts at 2 players in every game (no other line, no ladder)",
    )
    ap.add_argument("--games", type=int, default=400, help="games per line (default 400)")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--workers", type=int, default=1, help="processes (default 1: no pool)")
    ap.add_argument(
        "--c",
        nargs="*",
        type=float,
        default=[DEFAULT_C],
        help=f"exploration constants, a line each (default {DEFAULT_C})",
    )
    ap.add_argument("--json", metavar="PATH", help="where to write the JSON (default benchmarks/results/)")
    ap.add_argument(
        "--part",
        metavar="K/N",
        type=_part,
        default=None,
        help="by time: play the K-th of N slices of every line's games (then --merge the N parts)",
    )
    ap.add_argument(
        "--merge",
        nargs="+",
        metavar="PART.json",
        default=None,
        help="put the parts of a run by time back together (and write the whole run's JSON)",
    )
    args = ap.parse_args(argv)
    if args.merge is not None:
        return merge_parts(args.merge, args.json)
    if args.games < 1:
        ap.error("--games must be at least 1")
    if not 0 < args.time <= 3600 or (args.ladder_time is not None and not 0 < args.ladder_time <= 3600):
        ap.error("--time and --ladder-time must be above 0 and at most 3600 seconds")
    if args.ladder_games < 0:
        ap.error("--ladder-games must be at least 0")
    if args.iterations is None:
        return main_time(args, argv)
    if args.part is not None or args.ceilings:
        ap.error("--part and --ceilings are for the run by time (without --iterations)")
    executor: Optional[cf.Executor] = cf.ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    rows: List[Dict[str, Any]] = []
    try:
        for game_id in args.game:
            for n in args.players:
                for bot in args.bots:
                    for c in args.c:
                        entry = search_bot(bot, args.iterations, c)
                        for opponent in args.opponents:
                            rows.append(line(game_id, n, entry, opponent, args.games, args.seed, executor, c))
                            r = rows[-1]
                            print(
                                f"{game_id} {n}p {r['bot']} (c={c}) vs {opponent}: {r['wins']}/{r['decided']} "
                                f"({r['seconds']:.0f} s)",
                                file=sys.stderr,
                                flush=True,
                            )
    finally:
        if executor is not None:
            executor.shutdown()
    print(format_table(rows))
    results = {
        "machine": machine(),
        "iterations": args.iterations,
        "games_per_line": args.games,
        "seed": args.seed,
        "workers": args.workers,
        "rows": rows,
    }
    suffix = "" if args.games >= 400 else f"-smoke{args.games}"
    return write_json(results, args.json, f"strength-{datetime.date.today().isoformat()}{suffix}.json")


if __name__ == "__main__":
    sys.exit(main())
