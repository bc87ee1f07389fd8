"""Command line: ``python -m mousehole`` plays seeded random games of every game and prints
a summary (the README's demo).

    python -m mousehole                         # every game, 4 players
    python -m mousehole --games m --players 6 --n-games 20000 --seed 3 --threads 2
    python -m mousehole --show cheese_rescue    # print one random game, move by move
"""
from __future__ import annotations

import argparse
import sys
import time
from typing import List, Optional

from . import available_engines, game_names, load, simulate
from ._rng import Rng


def show(name: str, players: int, seed: int) -> None:
    game = load(name, players=players)
    state = game.new_state(seed=seed)
    rng = Rng(seed)
    print(state, end="\n\n")
    while not state.is_terminal():
        moves = state.legal_moves()
        move = moves[rng.below(len(moves))]
        print(f"seat {state.current_player}: {move}")
        state.apply(move)
    print()
    print(state)
    print(f"scores {state.scores()}, winners {state.winners()}")


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m mousehole", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", nargs="*", default=game_names(), choices=game_names())
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--n-games", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--engine", choices=["compiled", "python"], default=None)
    ap.add_argument("--show", metavar="GAME", choices=game_names(), help="print one random game")
    args = ap.parse_args(argv)
    if args.show:
        show(args.show, args.players, args.seed)
        return 0
    print(f"mousehole: engines available: {', '.join(available_engines())}")
    for name in args.games:
        game = load(name, players=args.players, engine=args.engine)
        n = args.n_games
        if game.engine == "python":
            n = max(1, n // 1000)
            print(f"  (reference engine, thousands of times slower: {n} games instead of {args.n_games})")
        t = time.perf_counter()
        result = simulate(game, n, seed=args.seed, threads=args.threads)
        dt = time.perf_counter() - t
        print(f"{name} ({game.engine}, {args.players} players, seed {args.seed}): {result.summary()}; "
              f"{n / dt:,.0f} games/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
