"""mousehole microbenchmarks: one command, every game, both engines, table and JSON.

    python benchmarks/run.py                 # all games, 4 players, default sizes
    python benchmarks/run.py --quick         # a smoke run (CI)
    python benchmarks/run.py --games m --json out.json

Per game it reports, for the compiled engine and the pure-Python reference, measured in the
same run: ns per ``legal_actions()``, ``apply_action()`` and ``clone()`` in mid-game states;
random steps per second from a Python loop (``legal_actions()``, ``random.randrange``,
``apply_action()``); random games per second from ``mousehole.simulate`` (one thread, and
all cores); ns per ``observation(p)`` and ``legal_action_mask()`` (fresh, and into a
preallocated ``out``) and their ratio to ``clone()``; ``to_dict()``, ``state_from_dict()`` and
``determinize_view()``; and the compiled/reference speedups. Game-specific microbenchmarks live in
``benchmarks/bench_<game>.py`` and are run when present (a ``run(quick) -> dict`` function).
"""
from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import os
import platform
import random
import sys
import time
from typing import Any, Callable, Dict, List

import numpy as np

import mousehole
from mousehole._rng import Rng


def best_ns(fn: Callable[[], int], repeat: int) -> float:
    """Best-of-``repeat`` nanoseconds per operation; ``fn`` returns its operation count."""
    best = float("inf")
    for _ in range(repeat):
        gc.disable()
        t = time.perf_counter_ns()
        ops = fn()
        dt = time.perf_counter_ns() - t
        gc.enable()
        best = min(best, dt / ops)
    return best


def midgame_states(game: Any, count: int, seed: int) -> List[Any]:
    """``count`` states, each halfway through a seeded random game (non-terminal)."""
    out = []
    rng = Rng(seed)
    i = 0
    while len(out) < count:
        s = game.new_state(seed=seed + i)
        trace = []
        while not s.is_terminal():
            trace.append(s.clone())
            legal = s.legal_actions()
            s.apply_action(int(legal[rng.below(len(legal))]))
        out.append(trace[len(trace) // 2])
        i += 1
    return out


def bench_engine(name: str, engine: str, players: int, quick: bool) -> Dict[str, float]:
    game = mousehole.load(name, players=players, engine=engine)
    fast = engine == "compiled"
    n_states = 50 if quick else 200
    reps = 3 if quick else 7
    inner = (20 if fast else 2) if quick else (200 if fast else 5)
    states = midgame_states(game, n_states, seed=1)
    actions = [int(s.legal_actions()[0]) for s in states]
    r: Dict[str, float] = {}

    def legal() -> int:
        for _ in range(inner):
            for s in states:
                s.legal_actions()
        return inner * len(states)

    def clone() -> int:
        for _ in range(inner):
            for s in states:
                s.clone()
        return inner * len(states)

    def apply() -> int:
        # a fresh copy of every state (made outside the timed region) takes one action
        total = 0
        best = float("inf")
        for _ in range(inner):
            copies = [s.clone() for s in states]
            t = time.perf_counter_ns()
            for s, a in zip(copies, actions):
                s.apply_action(a)
            best = min(best, time.perf_counter_ns() - t)
            total += len(states)
        apply.best = best / len(states)  # type: ignore[attr-defined]
        return total

    r["legal_actions_ns"] = best_ns(legal, reps)
    r["clone_ns"] = best_ns(clone, reps)
    best_ns(apply, reps)
    r["apply_action_ns"] = apply.best  # type: ignore[attr-defined]

    # observations and masks (for RL loops), fresh and into a preallocated array
    obs_buf = np.empty(game.observation_shape, dtype=np.float32)
    mask_buf = np.empty(game.num_actions, dtype=np.bool_)
    seats = [max(s.current_player, 0) for s in states]
    few = max(1, inner // 4) if fast else 1

    def per_state(fn: Callable[[Any, int], Any], times: int) -> Callable[[], int]:
        def run() -> int:
            for _ in range(times):
                for s, p in zip(states, seats):
                    fn(s, p)
            return times * len(states)
        return run

    r["observation_ns"] = best_ns(per_state(lambda s, p: s.observation(p), inner), reps)
    r["observation_out_ns"] = best_ns(per_state(lambda s, p: s.observation(p, out=obs_buf), inner), reps)
    r["legal_action_mask_ns"] = best_ns(per_state(lambda s, p: s.legal_action_mask(), inner), reps)
    r["legal_action_mask_out_ns"] = best_ns(per_state(lambda s, p: s.legal_action_mask(out=mask_buf), inner), reps)
    r["observation_per_clone"] = r["observation_ns"] / r["clone_ns"]
    # whole-state conversions and determinization (exact and fully validated)
    dicts = [s.to_dict() for s in states]
    views = [s.to_dict(for_player=p) for s, p in zip(states, seats)]
    r["to_dict_ns"] = best_ns(per_state(lambda s, p: s.to_dict(), few), reps)
    r["state_from_dict_ns"] = best_ns(lambda: sum(1 for d in dicts if game.state_from_dict(d)), reps)
    r["determinize_view_ns"] = best_ns(lambda: sum(1 for v in views if game.determinize_view(v, 1)), reps)

    # random steps per second from a plain Python loop
    n_games = (20 if fast else 2) if quick else (400 if fast else 6)
    randrange = random.randrange
    random.seed(1)
    steps = 0
    t = time.perf_counter()
    for i in range(n_games):
        s = game.new_state(seed=i)
        while not s.is_terminal():
            legal_a = s.legal_actions()
            s.apply_action(legal_a[randrange(len(legal_a))])
            steps += 1
    r["python_loop_steps_per_s"] = steps / (time.perf_counter() - t)

    # whole random games through simulate
    n_sim = (200 if fast else 2) if quick else (50000 if fast else 20)
    t = time.perf_counter()
    res = mousehole.simulate(game, n_sim, seed=7)
    dt = time.perf_counter() - t
    r["simulate_games_per_s"] = n_sim / dt
    r["simulate_actions_per_s"] = float(res.lengths.sum()) / dt
    r["mean_game_length"] = float(res.lengths.mean())
    if fast:
        threads = os.cpu_count() or 1
        t = time.perf_counter()
        mousehole.simulate(game, n_sim * 2, seed=7, threads=threads)
        r[f"simulate_games_per_s_{threads}_threads"] = 2 * n_sim / (time.perf_counter() - t)
    return r


def run_extra(name: str, quick: bool) -> Dict[str, Any]:
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), f"bench_{name}.py")
    if not os.path.exists(path):
        return {}
    spec = importlib.util.spec_from_file_location(f"bench_{name}", path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return dict(mod.run(quick))


def machine() -> Dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "mousehole": mousehole.__version__,
        "engines": mousehole.available_engines(),
    }


def main(argv: List[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", nargs="*", default=mousehole.game_names(), help="game ids (default: all)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--quick", action="store_true", help="small sizes: a smoke run")
    ap.add_argument("--json", metavar="PATH", help="also write the results as JSON to PATH")
    args = ap.parse_args(argv)
    engines = mousehole.available_engines()
    results: Dict[str, Any] = {"machine": machine(), "quick": args.quick, "players": args.players, "games": {}}
    for name in args.games:
        entry: Dict[str, Any] = {}
        for engine in engines:
            print(f"[{name}: {engine}]", file=sys.stderr, flush=True)
            entry[engine] = bench_engine(name, engine, args.players, args.quick)
        if "compiled" in entry:
            c, p = entry["compiled"], entry["python"]
            entry["speedup"] = {
                "whole_games": c["simulate_games_per_s"] / p["simulate_games_per_s"],
                "python_loop": c["python_loop_steps_per_s"] / p["python_loop_steps_per_s"],
                "apply_action": p["apply_action_ns"] / c["apply_action_ns"],
                "legal_actions": p["legal_actions_ns"] / c["legal_actions_ns"],
            }
        extra = run_extra(name, args.quick)
        if extra:
            entry["extra"] = extra
        results["games"][name] = entry
    print(format_table(results))
    text = json.dumps(results, indent=2, sort_keys=True)
    print(text)
    if args.json:
        with open(args.json, "w") as f:
            f.write(text + "\n")
    return 0


def format_table(results: Dict[str, Any]) -> str:
    m = results["machine"]
    lines = [
        f"mousehole {m['mousehole']} on {m['cpu']} ({m['cores']} cores), Python {m['python']}, "
        f"{results['players']} players{' (quick)' if results['quick'] else ''}",
        "",
        f"{'game':<18}{'engine':<10}{'legal ns':>10}{'apply ns':>10}{'clone ns':>10}"
        f"{'loop steps/s':>14}{'sim games/s':>13}{'sim actions/s':>15}{'mean len':>9}"
        f"{'obs ns':>10}{'obs/clone':>10}{'mask ns':>9}{'to_dict us':>11}{'det us':>9}",
    ]
    for name, entry in results["games"].items():
        for engine in ("compiled", "python"):
            if engine not in entry:
                continue
            r = entry[engine]
            lines.append(
                f"{name:<18}{engine:<10}{r['legal_actions_ns']:>10.0f}{r['apply_action_ns']:>10.0f}"
                f"{r['clone_ns']:>10.0f}{r['python_loop_steps_per_s']:>14,.0f}{r['simulate_games_per_s']:>13,.0f}"
                f"{r['simulate_actions_per_s']:>15,.0f}{r['mean_game_length']:>9.1f}"
                f"{r['observation_ns']:>10.0f}{r['observation_per_clone']:>10.1f}{r['legal_action_mask_ns']:>9.0f}"
                f"{r['to_dict_ns'] / 1000:>11.1f}{r['determinize_view_ns'] / 1000:>9.1f}"
            )
        if "speedup" in entry:
            s = entry["speedup"]
            lines.append(
                f"{'':<18}{'speedup':<10}{s['legal_actions']:>9.0f}x{s['apply_action']:>9.0f}x{'':>10}"
                f"{s['python_loop']:>13.0f}x{s['whole_games']:>12.0f}x"
            )
        for key, val in entry.get("extra", {}).items():
            lines.append(f"{'':<18}{key}: {val:,.1f}" if isinstance(val, (int, float)) else f"{'':<18}{key}: {val}")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
