"""Search speed: MCTS and ISMCTS iterations per second against ``simulate``'s games per second.

    python benchmarks/bench_search.py                       # every game, 2 and 4 players
    python benchmarks/bench_search.py --quick               # a smoke run
    python benchmarks/bench_search.py --games m --players 4 --json out.json

One search iteration plays the tree part (copies, selections, an expansion) and then a
random rollout to the end of the game with ``simulate``'s action model, so a search from the
start of a game costs at most one ``simulate`` game plus the tree's overhead. For every game
and player count this script measures, in the same run and alternating (A, B, C, A, B, C,
...), so that a busy machine slows all three alike:

* ``simulate``: games per second (one thread) from new states;
* ``mcts`` / ``ismcts``: iterations per second of ``mousehole.bots.search`` with
  ``iterations=1000`` (the strength table's budget) from the start of seeded games
  (``algorithm="mcts"``: UCT on one determinization; ``"ismcts"``: a fresh determinization
  every iteration);

and reports the median of the rounds and the ratio ``iterations/s / games/s`` (target:
at least 0.7, i.e. the tree costs at most 30%). JSON like ``benchmarks/run.py``. It also
times the compiled determinization an ISMCTS iteration starts with (``determinize_ns``:
the C interface's ``determinize`` for the seat to move, called from Python on first
positions and on positions halfway through seeded random games; target 2 us or less).

Rates are measured in CPU time of the calling thread (``time.thread_time``: both run there,
``simulate`` with one thread, the search without the GIL but in the same thread), so that
other processes on a shared machine distort them less; the wall-clock rates are in the JSON
too (on a quiet machine the two agree). OpenBLAS is kept to one thread (its idle threads
would otherwise spin on the second core).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy is imported
from typing import Any, Dict, List, Optional

import mousehole
from mousehole import bots
from mousehole.bench import machine, midgame_states  # noqa: E402  (machine: as run.py's)

#: the search's speed goal: its iterations per second over simulate's games per second
TARGET = 0.7


def determinize_ns(game: Any, n_games: int, repeat: int) -> float:
    """ns per compiled determinization for the seat to move (``mh_game_t.determinize``
    through ``mousehole._cgame.CGame``, so one Python call included), on the first positions
    of ``n_games`` seeded games and on ``n_games`` positions halfway through seeded random
    games (``mousehole.bench.midgame_states``; the goal: 2 us or less)."""
    from mousehole._cgame import CGame

    states = [game.new_state(seed) for seed in range(n_games)] + midgame_states(game, n_games, seed=3)
    cores = [(CGame(s), s.current_player) for s in states]
    inner = 200
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        for r in range(inner):
            for i, (core, seat) in enumerate(cores):
                core.determinize(seat, r * len(cores) + i)
        best = min(best, time.perf_counter() - t)
    return best / (inner * len(cores)) * 1e9


def bench(name: str, players: int, iterations: int, searches: int, rounds: int, sim_seconds: float) -> Dict[str, Any]:
    game = mousehole.load(name, players=players, engine="compiled")
    roots = [game.new_state(1000 + k) for k in range(searches)]
    # simulate's batch size for about ``sim_seconds`` per round, from a first short run
    t = time.perf_counter()
    mousehole.simulate(game, 200, seed=1)
    per_game = (time.perf_counter() - t) / 200
    sim_games = max(200, int(sim_seconds / max(per_game, 1e-9)))
    rates: Dict[str, List[float]] = {"simulate": [], "mcts": [], "ismcts": []}
    wall: Dict[str, List[float]] = {"simulate": [], "mcts": [], "ismcts": []}
    for r in range(rounds):
        t, w = time.thread_time(), time.perf_counter()
        mousehole.simulate(game, sim_games, seed=r, threads=1)
        rates["simulate"].append(sim_games / (time.thread_time() - t))
        wall["simulate"].append(sim_games / (time.perf_counter() - w))
        for algo in ("mcts", "ismcts"):
            done = 0
            t, w = time.thread_time(), time.perf_counter()
            for k, root in enumerate(roots):
                done += bots.search(root, algorithm=algo, iterations=iterations, seed=r * searches + k).iterations
            rates[algo].append(done / (time.thread_time() - t))
            wall[algo].append(done / (time.perf_counter() - w))
    med = {k: statistics.median(v) for k, v in rates.items()}
    out: Dict[str, Any] = {
        "simulate_games_per_s": med["simulate"],
        "mcts_iterations_per_s": med["mcts"],
        "ismcts_iterations_per_s": med["ismcts"],
        "mcts_ratio": med["mcts"] / med["simulate"],
        "ismcts_ratio": med["ismcts"] / med["simulate"],
        "rounds_cpu": rates,
        "wall_per_s": {k: statistics.median(v) for k, v in wall.items()},
        "rounds_wall": wall,
        "mean_game_length": float(mousehole.simulate(game, 500, seed=99).lengths.mean()),
        "determinize_ns": determinize_ns(game, 20 if rounds > 2 else 4, 5 if rounds > 2 else 2),
    }
    return out


def format_table(results: Dict[str, Any]) -> str:
    m = results["machine"]
    lines = [
        f"search speed (CPU time), {results['iterations']} iterations per search"
        f"{' (quick)' if results['quick'] else ''}; {m['cpu']}, {m['cores']} cores, Python {m['python']}",
        "",
        "| game | players | simulate games/s | MCTS iterations/s | ratio | ISMCTS iterations/s | ratio |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, per in results["games"].items():
        for players, e in per.items():
            lines.append(
                f"| {name} | {players} | {e['simulate_games_per_s']:,.0f} | {e['mcts_iterations_per_s']:,.0f} | "
                f"{e['mcts_ratio']:.2f} | {e['ismcts_iterations_per_s']:,.0f} | {e['ismcts_ratio']:.2f} |"
            )
    lines.append("")
    lines.append(f"ratio: iterations per second over simulate's games per second (target >= {TARGET})")
    lines.append("")
    lines.append(
        "compiled determinization for the seat to move, ns per call from Python (target <= 2,000): "
        + ", ".join(
            f"{name} {players}p {e['determinize_ns']:.0f}"
            for name, per in results["games"].items()
            for players, e in per.items()
        )
    )
    return "\n".join(lines)


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", nargs="*", default=mousehole.game_names(), help="game ids (default: all)")
    ap.add_argument("--players", nargs="*", type=int, default=[2, 4], help="player counts (default: 2 4)")
    ap.add_argument("--iterations", type=int, default=1000, help="iterations per search (default 1000)")
    ap.add_argument("--searches", type=int, default=20, help="searches per round (default 20)")
    ap.add_argument("--rounds", type=int, default=5, help="alternating rounds, the median is reported (default 5)")
    ap.add_argument("--quick", action="store_true", help="small sizes: a smoke run")
    ap.add_argument("--json", metavar="PATH", help="also write the results as JSON to PATH")
    args = ap.parse_args(argv)
    if "compiled" not in mousehole.available_engines():
        print("bench_search: the compiled engine is not available", file=sys.stderr)
        return 2
    searches, rounds, sim_seconds = (3, 2, 0.05) if args.quick else (args.searches, args.rounds, 0.3)
    results: Dict[str, Any] = {
        "machine": machine(),
        "quick": args.quick,
        "iterations": args.iterations,
        "target_ratio": TARGET,
        "games": {},
    }
    for name in args.games:
        results["games"][name] = {}
        for n in args.players:
            results["games"][name][str(n)] = bench(name, n, args.iterations, searches, rounds, sim_seconds)
            print(f"{name} {n}p done", file=sys.stderr, flush=True)
    print(format_table(results))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2, sort_keys=True)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
