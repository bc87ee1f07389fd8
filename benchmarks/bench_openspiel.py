"""Our MCTS against OpenSpiel's, on the same game and iteration budget: strength and time
per move of both searches.

    python benchmarks/bench_openspiel.py                       # Cheese Rescue, 2 players
    python benchmarks/bench_openspiel.py --game all --games 40 --json openspiel.json
    python benchmarks/bench_openspiel.py --quick               # smoke run

Needs OpenSpiel (the ``openspiel`` extra: ``pip install 'open_spiel>=2.0'``, Python 3.11+). Both sides run plain
UCT with one uniformly random rollout per iteration, the same exploration constant ``c`` and
the same number of iterations per move:

* ours: ``mousehole.bots.MCTSBot(iterations, c=c)`` (compiled search over the C-level game
  interface, one determinization of the seat's view per move);
* OpenSpiel's: ``open_spiel.python.algorithms.mcts.MCTSBot(game, c, iterations,
  RandomRolloutEvaluator(1), solve=False)`` on the registered ``mousehole_<id>`` game
  (``mousehole.openspiel``), given at each move ONE determinization of the seat's view as well
  (``state.determinize(seat, seed)`` wrapped by ``game.from_mousehole``), so that neither side
  sees hidden cards. Its move time includes that determinization, as ours does.

Two measurements:

1. **Speed**: both bots search the same positions (taken from seeded random games, both
   sides alternating, A/B per position); iterations per second of each, and the ratio.
2. **Strength**: ``--games`` games head to head. In game ``i`` our bot takes the seats ``s``
   with ``(s + i)`` even and OpenSpiel's the others, so the seats alternate. Per bot: the
   seats' wins (a shared win counts as a win), mean return, and the win rate among seat-games
   with a 95% Wilson interval; with two players also wins, losses and draws of our bot.

Timings on a shared machine are noisy: compare the two bots within one run only.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import sys
import time
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

import mousehole
from mousehole._rng import Rng, derive


def _need_openspiel() -> Tuple[Any, Any, Any]:
    try:
        import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]
        from open_spiel.python.algorithms import mcts  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError:
        from mousehole._extras import install_hint

        sys.exit(f"bench_openspiel needs OpenSpiel (Python 3.11+): {install_hint('openspiel')}")
    import mousehole.openspiel as mo

    mo.register()
    return pyspiel, mcts, mo


def _wilson(k: int, n: int, z: float = 1.96) -> Tuple[float, float]:
    if n == 0:
        return 0.0, 0.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


class OpenSpielPlayer:
    """OpenSpiel's MCTSBot, playing a mousehole state from one determinization of the
    seat's view per move."""

    def __init__(self, mcts: Any, os_game: Any, iterations: int, c: float, seed: int) -> None:
        self.os_game = os_game
        self.rs = np.random.RandomState(seed & 0xFFFFFFFF)
        self.bot = mcts.MCTSBot(
            os_game, c, iterations, mcts.RandomRolloutEvaluator(1, self.rs), random_state=self.rs, solve=False
        )
        self.seed = seed
        self.calls = 0

    def step(self, state: Any) -> int:
        seat = state.current_player
        det = state.determinize(seat, derive(self.seed, self.calls))
        self.calls += 1
        return int(self.bot.step(self.os_game.from_mousehole(det)))


def _resolve_chance(state: Any, rng: Rng) -> None:
    while state.current_player == mousehole.CHANCE:
        outcomes = state.chance_outcomes()
        x = rng.next64() / 2.0**64
        acc = 0.0
        pick = outcomes[-1][0]
        for a, p in outcomes:
            acc += p
            if x < acc:
                pick = a
                break
        state.apply_action(pick)


def _positions(game: Any, count: int, seed: int) -> List[Any]:
    """Mid-game positions (a seat to move) from seeded random games."""
    out = []
    k = 0
    while len(out) < count:
        s = game.new_state(derive(seed, k))
        rng = Rng(derive(seed, 1000 + k))
        k += 1
        states = []
        while True:
            _resolve_chance(s, rng)
            if s.is_terminal():
                break
            states.append(s.clone())
            acts = s.legal_actions()
            s.apply_action(int(acts[rng.below(len(acts))]))
        mids = [
            st
            for st in states[len(states) // 4 : max(len(states) // 4 + 1, len(states) // 2)]
            if len(st.legal_actions()) > 1
        ]
        if mids:
            out.append(mids[rng.below(len(mids))])
    return out


def speed(game_id: str, players: int, iterations: int, c: float, positions: int, seed: int) -> Dict[str, Any]:
    from mousehole.bots import MCTSBot

    pyspiel, mcts, mo = _need_openspiel()
    os_game = mo.load_game(game_id, players=players, engine="compiled")
    game = os_game.mousehole_game
    ours_t = theirs_t = 0.0
    todo = _positions(game, positions + 1, seed)
    MCTSBot(iterations, c=c).step(todo[0])  # warm up both (imports, first calls)
    OpenSpielPlayer(mcts, os_game, iterations, c, 0).step(todo[0])
    for i, pos in enumerate(todo[1:]):
        ours = MCTSBot(iterations, seed=derive(seed, 2 * i), c=c)
        theirs = OpenSpielPlayer(mcts, os_game, iterations, c, derive(seed, 2 * i + 1))
        order = [("ours", ours), ("theirs", theirs)]
        if i % 2:
            order.reverse()  # A/B alternated
        for who, bot in order:
            t = time.perf_counter()
            bot.step(pos)
            dt = time.perf_counter() - t
            if who == "ours":
                ours_t += dt
            else:
                theirs_t += dt
    n = positions * iterations
    return {
        "positions": positions,
        "iterations_per_move": iterations,
        "ours_iterations_per_s": n / ours_t,
        "openspiel_iterations_per_s": n / theirs_t,
        "speed_ratio": theirs_t / ours_t,
    }


def head_to_head(
    game_id: str, players: int, iterations: int, c: float, games: int, seed: int, progress: bool = True
) -> Dict[str, Any]:
    from mousehole.bots import MCTSBot

    pyspiel, mcts, mo = _need_openspiel()
    os_game = mo.load_game(game_id, players=players, engine="compiled")
    game = os_game.mousehole_game
    stats = {
        side: {"seat_games": 0, "wins": 0, "return_sum": 0.0, "moves": 0, "time": 0.0} for side in ("ours", "openspiel")
    }
    wins = losses = draws = 0
    for i in range(games):
        side = ["ours" if (s + i) % 2 == 0 else "openspiel" for s in range(players)]
        bots: List[Any] = [
            MCTSBot(iterations, seed=derive(seed, 100 * i + s), c=c)
            if side[s] == "ours"
            else OpenSpielPlayer(mcts, os_game, iterations, c, derive(seed, 100 * i + s))
            for s in range(players)
        ]
        state = game.new_state(derive(seed, 10**6 + i))
        rng = Rng(derive(seed, 2 * 10**6 + i))
        while True:
            _resolve_chance(state, rng)
            if state.is_terminal():
                break
            p = state.current_player
            t = time.perf_counter()
            a = bots[p].step(state)
            stats[side[p]]["time"] += time.perf_counter() - t
            stats[side[p]]["moves"] += 1
            state.apply_action(a)
        r = state.returns()
        winners = set(state.winners())
        for s in range(players):
            st = stats[side[s]]
            st["seat_games"] += 1
            st["wins"] += int(s in winners)
            st["return_sum"] += r[s]
        if players == 2:
            mine = r[side.index("ours")]
            wins, losses, draws = wins + (mine > 0), losses + (mine < 0), draws + (mine == 0)
        if progress:
            print(f"\r  {game_id}: game {i + 1}/{games}", end="", file=sys.stderr, flush=True)
    if progress:
        print(file=sys.stderr)
    out: Dict[str, Any] = {"games": games}
    for side, st in stats.items():
        n = st["seat_games"]
        lo, hi = _wilson(st["wins"], n)
        out[side] = {
            "seat_games": n,
            "wins": st["wins"],
            "win_rate": st["wins"] / n if n else 0.0,
            "win_rate_95": [lo, hi],
            "mean_return": st["return_sum"] / n if n else 0.0,
            "seconds_per_move": st["time"] / max(1, st["moves"]),
        }
    if players == 2:
        lo, hi = _wilson(wins, wins + losses)
        out["ours_vs_openspiel"] = {
            "wins": wins,
            "losses": losses,
            "draws": draws,
            "win_rate_decided": wins / (wins + losses) if wins + losses else 0.0,
            "win_rate_decided_95": [lo, hi],
        }
    return out


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--game", default="cheese_rescue", help="a game id or 'all' (default cheese_rescue)")
    ap.add_argument("--players", type=int, default=2, help="player count (default 2)")
    ap.add_argument("--iterations", type=int, default=1000, help="iterations per move, both bots (default 1000)")
    ap.add_argument("--games", type=int, default=40, help="head-to-head games per game id (default 40)")
    ap.add_argument("--positions", type=int, default=10, help="positions for the speed test (default 10)")
    ap.add_argument("--c", type=float, default=None, help="exploration constant, both bots (default: ours)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", default=None, help="write the results to this file")
    ap.add_argument("--quick", action="store_true", help="smoke run: 20 iterations, 2 games, 2 positions")
    args = ap.parse_args(argv)
    from mousehole.bots import DEFAULT_C

    _need_openspiel()
    if "compiled" not in mousehole.available_engines():
        sys.exit("bench_openspiel compares against our compiled search: build the extensions first")
    c = DEFAULT_C if args.c is None else args.c
    if args.quick:
        args.iterations, args.games, args.positions = 20, 2, 2
    ids = mousehole.game_names() if args.game == "all" else [args.game]
    results: Dict[str, Any] = {
        "machine": platform.platform(),
        "python": platform.python_version(),
        "players": args.players,
        "iterations": args.iterations,
        "c": c,
        "seed": args.seed,
        "games": {},
    }
    for game_id in ids:
        sp = speed(game_id, args.players, args.iterations, c, args.positions, args.seed)
        h2h = head_to_head(game_id, args.players, args.iterations, c, args.games, args.seed)
        results["games"][game_id] = {"speed": sp, "head_to_head": h2h}
        print(f"{game_id}, {args.players} players, {args.iterations} iterations per move, c = {c}")
        print(
            f"  iterations/s   ours {sp['ours_iterations_per_s']:>10,.0f}   OpenSpiel "
            f"{sp['openspiel_iterations_per_s']:>10,.0f}   ours/OpenSpiel x{sp['speed_ratio']:.1f}"
        )
        for side in ("ours", "openspiel"):
            st = h2h[side]
            lo, hi = st["win_rate_95"]
            print(
                f"  {side:<10} seat wins {st['wins']:>4}/{st['seat_games']:<4} "
                f"win rate {st['win_rate']:.3f} [{lo:.3f}, {hi:.3f}]  mean return {st['mean_return']:+.3f}  "
                f"{st['seconds_per_move'] * 1000:.1f} ms/move"
            )
        if "ours_vs_openspiel" in h2h:
            v = h2h["ours_vs_openspiel"]
            lo, hi = v["win_rate_decided_95"]
            print(
                f"  ours vs OpenSpiel: {v['wins']} wins, {v['losses']} losses, {v['draws']} draws; "
                f"{v['win_rate_decided']:.3f} of decided games [{lo:.3f}, {hi:.3f}]"
            )
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
