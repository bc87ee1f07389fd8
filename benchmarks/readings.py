"""What each reading of the rules changes: random games and ISMCTS games per reading.

    python benchmarks/readings.py                                  # the full study (hours on 2 cores)
    python benchmarks/readings.py --games 20000 --bot-games 40     # a smoke run
    python benchmarks/readings.py --game kasimir --players 2 4 --dask tcp://10.0.0.5:8786
    python benchmarks/readings.py --bot-players 2 4   # ISMCTS games at 2 and 4 players only
    python benchmarks/readings.py --defaults-only      # the default games only, every player count
    python benchmarks/readings.py --game m --reading short_payer   # the baselines and one reading

For every game, every reading (``Game.READINGS``) and every player count it plays, beside the
game with its default parameters (the baseline, one per player count) and with each other
value of the reading (all other parameters at their defaults):

* ``--games`` uniformly random games with ``mousehole.simulate`` (1,000,000 by default), and
* ``--bot-games`` games (2,000 by default) in which every seat is an ``ISMCTSBot`` of
  ``--iterations`` iterations a move (seats are alike, so the first seat's share measures the
  seat order, not a bot),

and reports for each: the first seat's win rate (a shared win counts as a win) with its 95%
Wilson interval, the mean game length in actions with its 95% interval, the share of games
truncated by ``max_turns``, the mean number of winners per game (1.0: never a shared win)
and, where the game's state records why it ended (M's ``end``), the share of each reason
(among the bot games, and among ``--end-sample`` random games played from Python).

The work runs on a Dask ``LocalCluster`` (``--workers`` processes, one thread each) through
``simulate``'s and this script's executor: ``--dask ADDRESS`` sends the same calls to a
running cluster instead, ``--workers 0`` runs everything in this process. The JSON goes to
``benchmarks/results/readings-<date>-<machine>.json`` (or ``--json PATH``); the markdown
table is printed; ``python tools/bench_charts.py`` draws the chart of docs/readings.md from
the JSON. Every seed derives from ``--seed``: the figures do not depend on the executor.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import datetime
import json
import math
import os
import re
import sys
import time
from collections import Counter
from typing import Any, Dict, List, Optional, Sequence, Tuple

import mousehole
from mousehole import _api
from mousehole._rng import Rng, derive
from mousehole.bench import machine

HERE = os.path.dirname(os.path.abspath(__file__))

#: Wilson's interval at 95%
Z = 1.96


def wilson(k: float, n: int) -> Tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + Z * Z / n
    c = (p + Z * Z / (2 * n)) / d
    h = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def configs(
    names: Sequence[str],
    players: Optional[Sequence[int]],
    *,
    readings: Optional[Sequence[str]] = None,
) -> List[Dict[str, Any]]:
    """The study's lines: per game and player count the baseline, then every other value of
    every reading (only the readings named in ``readings``, when given, beside the baselines:
    none gives the baselines alone)."""
    out: List[Dict[str, Any]] = []
    for name in names:
        cls = _api._REGISTRY[name]
        counts = [
            n
            for n in (players or range(cls.min_players, cls.max_players + 1))
            if cls.min_players <= n <= cls.max_players
        ]
        for n in counts:
            out.append({"game": name, "players": n, "param": None, "value": None})
            for r in cls.READINGS:
                if readings is not None and r.param not in readings:
                    continue
                for v in r.values[1:]:
                    out.append({"game": name, "players": n, "param": r.param, "value": v})
    return out


def load(line: Dict[str, Any]) -> Any:
    params: Dict[str, Any] = {"players": line["players"]}
    if line["param"] is not None:
        params[line["param"]] = line["value"]
    # the compiled engine (the reference where it is not built, e.g. MOUSEHOLE_PUREPYTHON=1)
    return mousehole.load(line["game"], engine=mousehole.default_engine(), **params)


def _end(state: Any) -> str:
    if state.truncated:
        return "truncated"
    d = state.to_dict()
    end = d.get("end")
    return str(end) if end else "rules"


def bot_chunk(line: Dict[str, Any], seed: int, start: int, count: int, iterations: int) -> List[List[Any]]:
    """Games ``start .. start + count - 1`` of ISMCTS bots on every seat: per game (first seat
    won, length, winners, truncated, end reason)."""
    from mousehole.bots import ISMCTSBot

    game = load(line)
    out: List[List[Any]] = []
    for k in range(start, start + count):
        base = derive(seed, k)
        bots = [ISMCTSBot(iterations, seed=derive(base, 2 + s)) for s in range(game.num_players)]
        state = game.new_state(derive(base, 0))
        chance = Rng(derive(base, 1))
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(int(outcomes[chance.below(len(outcomes))][0]))
                continue
            state.apply_action(int(bots[state.current_player].step(state)))
        winners = state.winners()
        out.append([0 in winners, len(state.history), len(winners), bool(state.truncated), _end(state)])
    return out


def end_chunk(line: Dict[str, Any], seed: int, start: int, count: int) -> List[str]:
    """The end reasons of random games ``start .. start + count - 1`` played from Python."""
    game = load(line)
    out: List[str] = []
    for k in range(start, start + count):
        state = game.new_state(derive(seed, k))
        rng = Rng(derive(seed, 10**9 + k))
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(int(legal[rng.below(len(legal))]))
        out.append(_end(state))
    return out


def _length_interval(hist: Sequence[int], n: int) -> Tuple[float, float, float]:
    mean = sum(k * c for k, c in enumerate(hist)) / n
    var = sum(c * (k - mean) ** 2 for k, c in enumerate(hist)) / max(1, n - 1)
    h = Z * math.sqrt(var / n)
    return mean, mean - h, mean + h


def _chunks(n: int, size: int) -> List[Tuple[int, int]]:
    return [(s, min(size, n - s)) for s in range(0, n, size)]


def _has_end_reason(line: Dict[str, Any]) -> bool:
    return "end" in load(line).new_state(seed=0).to_dict()


def study_line(line: Dict[str, Any], args: argparse.Namespace, executor: Optional[cf.Executor]) -> Dict[str, Any]:
    game = load(line)
    seed = derive(args.seed, hash_line(line))
    t0 = time.perf_counter()
    s = mousehole.simulate(game, args.games, seed=seed, aggregate=True, executor=executor)
    n = s.n_games
    mean, lo, hi = _length_interval(s.length_hist, n)
    random_part: Dict[str, Any] = {
        "games": n,
        "first_seat_win_rate": s.wins[0] / n,
        "first_seat_win_95": list(wilson(s.wins[0], n)),
        "mean_length": mean,
        "mean_length_95": [lo, hi],
        "truncated": s.truncated / n,
        "winners_per_game": sum(s.wins) / n,
        "seconds": time.perf_counter() - t0,
    }
    ends = _has_end_reason(line)
    if ends and args.end_sample:
        reasons: Counter[str] = Counter()
        for part in _map(executor, end_chunk, [(line, seed, a, c) for a, c in _chunks(args.end_sample, 500)]):
            reasons.update(part)
        random_part["end_sample"] = args.end_sample
        random_part["ends"] = {k: v / args.end_sample for k, v in sorted(reasons.items())}
    out: Dict[str, Any] = dict(line, random=random_part)
    if args.bot_games and (args.bot_players is None or line["players"] in args.bot_players):
        t0 = time.perf_counter()
        rows: List[List[Any]] = []
        jobs = [(line, seed, a, c, args.iterations) for a, c in _chunks(args.bot_games, args.chunk)]
        for part in _map(executor, bot_chunk, jobs):
            rows.extend(part)
        m = len(rows)
        wins = sum(1 for r in rows if r[0])
        lengths = [r[1] for r in rows]
        mean_b = sum(lengths) / m
        var_b = sum((x - mean_b) ** 2 for x in lengths) / max(1, m - 1)
        h = Z * math.sqrt(var_b / m)
        bot: Dict[str, Any] = {
            "games": m,
            "iterations": args.iterations,
            "first_seat_win_rate": wins / m,
            "first_seat_win_95": list(wilson(wins, m)),
            "mean_length": mean_b,
            "mean_length_95": [mean_b - h, mean_b + h],
            "truncated": sum(1 for r in rows if r[3]) / m,
            "winners_per_game": sum(r[2] for r in rows) / m,
            "seconds": time.perf_counter() - t0,
        }
        if ends:
            reasons = Counter(r[4] for r in rows)
            bot["ends"] = {k: v / m for k, v in sorted(reasons.items())}
        out["ismcts"] = bot
    return out


def hash_line(line: Dict[str, Any]) -> int:
    """A stable number for a line's game and player count: its seeds do not depend on which other
    lines run, and every reading of one game and player count plays from the same seeds (common
    random numbers: the differences between readings are measured more sharply)."""
    text = f"{line['game']}|{line['players']}".encode()
    h = 1469598103934665603
    for b in text:
        h = ((h ^ b) * 1099511628211) % 2**64
    return h


def _map(executor: Optional[cf.Executor], fn: Any, jobs: List[Tuple[Any, ...]]) -> List[Any]:
    if executor is None:
        return [fn(*j) for j in jobs]
    futures = [executor.submit(fn, *j) for j in jobs]
    return [f.result() for f in futures]


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def markdown(results: List[Dict[str, Any]]) -> str:
    head = (
        "| game | players | reading | random: first seat wins % (95%) | length | truncated % | winners/game "
        "| ISMCTS: first seat wins % (95%) | length | winners/game | ends (ISMCTS) |"
    )
    rows = [head, "|" + "---|" * 11]
    for r in results:
        reading = "default" if r["param"] is None else f"`{r['param']}={r['value']}`"
        a = r["random"]
        cells = [
            r["game"],
            str(r["players"]),
            reading,
            f"{_pct(a['first_seat_win_rate'])} ({_pct(a['first_seat_win_95'][0])}-{_pct(a['first_seat_win_95'][1])})",
            f"{a['mean_length']:.1f} ± {a['mean_length_95'][1] - a['mean_length']:.1f}",
            f"{_pct(a['truncated'])}",
            f"{a['winners_per_game']:.3f}",
        ]
        b = r.get("ismcts")
        if b:
            cells += [
                f"{_pct(b['first_seat_win_rate'])} ({_pct(b['first_seat_win_95'][0])}-"
                f"{_pct(b['first_seat_win_95'][1])})",
                f"{b['mean_length']:.1f} ± {b['mean_length_95'][1] - b['mean_length']:.1f}",
                f"{b['winners_per_game']:.3f}",
                ", ".join(f"{k} {_pct(v)}%" for k, v in b.get("ends", {}).items()) or "-",
            ]
        else:
            cells += ["-", "-", "-", "-"]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


def _executor(args: argparse.Namespace) -> Tuple[Optional[cf.Executor], Any, Any]:
    if args.workers == 0 and args.dask is None:
        return None, None, None
    from dask.distributed import Client, LocalCluster

    if args.dask is not None:
        client = Client(args.dask)
        return client.get_executor(), client, None
    cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None)
    client = Client(cluster)
    return client.get_executor(), client, cluster


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(
        prog="benchmarks/readings.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--game", action="append", choices=mousehole.game_names(), help="only this game (repeatable)")
    ap.add_argument("--players", type=int, nargs="+", default=None, help="player counts (default: all)")
    ap.add_argument("--games", type=int, default=1_000_000, help="random games a line (default 1,000,000)")
    ap.add_argument("--bot-games", type=int, default=2000, help="ISMCTS games a line (default 2,000; 0: none)")
    ap.add_argument("--iterations", type=int, default=30, help="ISMCTS iterations a move (default 30)")
    ap.add_argument(
        "--bot-players",
        type=int,
        nargs="+",
        default=None,
        help="player counts of the ISMCTS games (default: every count of the random games)",
    )
    ap.add_argument(
        "--end-sample",
        type=int,
        default=10_000,
        help="random games played from Python for the end reasons (default 10,000)",
    )
    ap.add_argument(
        "--defaults-only",
        action="store_true",
        help="only the games with every parameter at its default (e.g. the truncated share of bot games "
        "at every player count)",
    )
    ap.add_argument(
        "--reading",
        action="append",
        default=None,
        metavar="PARAM",
        help="only this reading's lines beside the baselines (repeatable; e.g. a reading added "
        "after a recorded run: the baselines replay the same seeds)",
    )
    ap.add_argument("--chunk", type=int, default=25, help="ISMCTS games a task (default 25)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="LocalCluster worker processes (default: one a core; 0: this process)",
    )
    ap.add_argument("--dask", default=None, metavar="ADDRESS", help="a running Dask scheduler instead")
    ap.add_argument("--json", default=None, metavar="PATH")
    args = ap.parse_args(argv)
    games = args.game or mousehole.game_names()
    if args.reading:
        known = {r.param for g in games for r in _api._REGISTRY[g].READINGS}
        unknown = sorted(set(args.reading) - known)
        if unknown:
            ap.error(
                f"--reading {', '.join(unknown)}: no such reading of {', '.join(games)} "
                f"(known: {', '.join(sorted(known))})"
            )
    lines = configs(games, args.players, readings=[] if args.defaults_only else args.reading)
    executor, client, cluster = _executor(args)
    results: List[Dict[str, Any]] = []
    start = time.perf_counter()
    try:
        for i, line in enumerate(lines, 1):
            r = study_line(line, args, executor)
            results.append(r)
            what = "default" if line["param"] is None else f"{line['param']}={line['value']}"
            print(
                f"[{i}/{len(lines)}] {line['game']} {line['players']}p {what}: {time.perf_counter() - start:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
    info = machine()
    doc = {
        "kind": "readings",
        "machine": info,
        "date": datetime.date.today().isoformat(),
        "settings": {
            k: getattr(args, k)
            for k in (
                "games",
                "bot_games",
                "bot_players",
                "iterations",
                "end_sample",
                "seed",
                "workers",
                "defaults_only",
                "reading",
            )
        },
        "executor": "dask " + (args.dask or f"LocalCluster({args.workers} processes)") if executor else "none",
        "seconds": time.perf_counter() - start,
        "results": results,
    }
    path = args.json
    if path is None:
        cpu = re.sub(r"[^a-z0-9]+", "-", str(info.get("cpu", "cpu")).lower()).strip("-")[:24]
        path = os.path.join(HERE, "results", f"readings-{doc['date']}-{cpu}.json")
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(doc, fh, indent=1)
        fh.write("\n")
    print(markdown(results))
    print(f"\nwritten to {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
