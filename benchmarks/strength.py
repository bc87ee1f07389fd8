"""The strength table: the search bots against RandomBot and GreedyBot, every game, 2 and 4 players.

    python benchmarks/strength.py                         # the full table (400 games a line)
    python benchmarks/strength.py --games 8               # a smoke run
    python benchmarks/strength.py --game m --players 2 --workers 2

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
``--players 2 --opponents greedy --games 100 --seed 77 --c 0.5 0.7 1.0 1.4 2.0``.
"""
from __future__ import annotations

import argparse
import concurrent.futures as cf
import datetime
import functools
import json
import os
import sys
import time
from typing import Any, Dict, List, Optional

import mousehole
from mousehole.arena import BotEntry, play
from mousehole.bots import DEFAULT_C, ISMCTSBot, MCTSBot

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import machine  # noqa: E402  (the same machine description as run.py)

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")


def search_bot(kind: str, iterations: int, c: float) -> BotEntry:
    """The spec ``kind:iterations`` at the default ``c``, else a factory with that ``c``."""
    if c == DEFAULT_C:
        return f"{kind}:{iterations}"
    cls = {"mcts": MCTSBot, "ismcts": ISMCTSBot}[kind]
    return functools.partial(cls, iterations, c=c)


def line(game_id: str, players: int, bot: BotEntry, opponent: str, n_games: int, seed: int,
         executor: Optional[cf.Executor], c: float) -> Dict[str, Any]:
    game = mousehole.load(game_id, players=players)
    lineup: List[BotEntry] = [bot] + [opponent] * (players - 1)
    t = time.perf_counter()
    result = play(game, lineup, n_games, seed, executor=executor)
    seconds = time.perf_counter() - t
    me = result.stats[0]
    lo, hi = me.win_interval
    return {"game": game_id, "players": players, "bot": me.name, "c": c, "opponent": opponent, "games": me.games,
            "wins": me.wins, "losses": me.losses, "draws": me.draws, "decided": me.decided,
            "win_rate": me.win_rate, "win_rate_95": [lo, hi], "even_share": 1.0 / players,
            "mean_score": me.mean_score, "seconds": seconds, "seed": seed}


def format_table(rows: List[Dict[str, Any]]) -> str:
    out = ["| game | players | bot | c | opponent | games | decided | wins | win rate | 95% interval |",
           "|---|---:|---|---:|---|---:|---:|---:|---:|---|"]
    for r in rows:
        lo, hi = r["win_rate_95"]
        out.append(f"| {r['game']} | {r['players']} | {r['bot']} | {r['c']} | {r['opponent']} | {r['games']} | "
                   f"{r['decided']} | {r['wins']} | {100 * r['win_rate']:.1f}% | {100 * lo:.1f}-{100 * hi:.1f}% |")
    return "\n".join(out)


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", nargs="*", default=mousehole.game_names(), help="game ids (default: all)")
    ap.add_argument("--players", nargs="*", type=int, default=[2, 4], help="player counts (default: 2 4)")
    ap.add_argument("--bots", nargs="*", default=["mcts", "ismcts"], help="search bots (default: mcts ismcts)")
    ap.add_argument("--opponents", nargs="*", default=["random", "greedy"], help="default: random greedy")
    ap.add_argument("--iterations", type=int, default=1000, help="iterations per move (default 1000)")
    ap.add_argument("--games", type=int, default=400, help="games per line (default 400)")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--workers", type=int, default=1, help="processes (default 1: no pool)")
    ap.add_argument("--c", nargs="*", type=float, default=[DEFAULT_C],
                    help=f"exploration constants, a line each (default {DEFAULT_C})")
    ap.add_argument("--json", metavar="PATH", help="where to write the JSON (default benchmarks/results/)")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error("--games must be at least 1")
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
                            print(f"{game_id} {n}p {r['bot']} (c={c}) vs {opponent}: {r['wins']}/{r['decided']} "
                                  f"({r['seconds']:.0f} s)", file=sys.stderr, flush=True)
    finally:
        if executor is not None:
            executor.shutdown()
    print(format_table(rows))
    results = {"machine": machine(), "iterations": args.iterations, "games_per_line": args.games,
               "seed": args.seed, "workers": args.workers, "rows": rows}
    path = args.json
    if path is None:
        os.makedirs(RESULTS, exist_ok=True)
        suffix = "" if args.games >= 400 else f"-smoke{args.games}"
        path = os.path.join(RESULTS, f"strength-{datetime.date.today().isoformat()}{suffix}.json")
    with open(path, "w") as f:
        json.dump(results, f, indent=2, sort_keys=True)
        f.write("\n")
    print(f"\nwritten to {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
