"""VectorGame benchmarks: env-steps per second against the VectorGame targets
(the per-env cost of a step against ``simulate``'s per action; below).

    python benchmarks/bench_vector.py                  # every game, 4 players
    python benchmarks/bench_vector.py --quick          # a smoke run
    python benchmarks/bench_vector.py --games cheese_rescue --json out.json

For every game (compiled engine) and every combination of 1, 64, 256 and 1,024 envs, 1 and 2
threads, with and without observations, it steps a ``VectorGame`` with ``RANDOM`` actions
(each env draws a uniformly random legal action itself, so no Python-side policy is timed)
and reports env-steps per second and nanoseconds per env-step. In the same run it measures:

* ``simulate``'s cost per action (one thread: whole random games, ns / total actions);
* one compiled observation from Python (``state.observation(p, out=buf)``, mid-game states);
* for 1, 64, 256 and 1,024 envs, the observation and the mask written from Python into each env's
  own row of batch arrays (``observation(p, out=obs[i])``, ``legal_action_mask(out=mask[i])``):
  the bytes a step with observations writes, without the vector. Not a target: it shows
  what the rows cost once they no longer fit in the caches (the target's observation is
  timed on one buffer, which stays in the first-level cache);
* for 1, 64, 256 and 1,024 envs, the memory floor: ``benchmarks/limits/rows.c`` (compiled as the
  C loops of ``mousehole bench`` are) sets each env's observation row and mask row, of this
  game's sizes, to zeros in turn, with no game behind it. Any step that writes every byte of
  the documented arrays pays at least that on one thread; where it is over the target with
  observations, no such implementation can meet that target on this machine. Skipped, with
  a note, when no C compiler works;
* the share of an observation row's 64-byte lines that change from one step of an env to its
  next (256 envs, ``RANDOM`` actions): what a step that rewrote only the changed lines would
  still write.

Targets: without observations an env-step costs at most twice ``simulate``'s per-action
cost; with observations at most that plus one compiled observation. ``ratio`` is the measured
cost over the target (1.0 or less meets it). On one env the Python call of ``step`` (a few
microseconds) dominates; the targets are about the per-env cost of large batches. The
machine's other load matters: compare figures of one run, not across runs.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import time
from typing import Any, Dict, List, Optional

import numpy as np

import mousehole
from mousehole.bench import build_c_loops, machine, midgame_states  # machine: as run.py's
from mousehole.vector import RANDOM, VectorGame


def _best(fn: Any, repeat: int) -> float:
    """Best-of-``repeat`` seconds of ``fn()``."""
    best = float("inf")
    for _ in range(repeat):
        gc.disable()
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
        gc.enable()
    return best


def simulate_ns_per_action(game: Any, n_games: int, repeat: int) -> float:
    box: Dict[str, Any] = {}

    def run() -> None:
        box["r"] = mousehole.simulate(game, n_games, seed=3, threads=1)

    dt = _best(run, repeat)
    return dt / float(box["r"].lengths.sum()) * 1e9


def observation_ns(game: Any, n_states: int, inner: int, repeat: int) -> float:
    """ns per ``state.observation(p, out=buf)`` on mid-game states (compiled, from Python),
    always into the same buffer: the target's "one compiled observation"."""
    states = midgame_states(game, n_states, seed=5)
    buf = np.empty(game.observation_shape, dtype=np.float32)

    def run() -> None:
        for _ in range(inner):
            for s in states:
                s.observation(s.current_player, out=buf)

    return _best(run, repeat) / (inner * len(states)) * 1e9


def batch_rows_ns(game: Any, envs: int, calls: int, repeat: int) -> float:
    """ns per env of what a step with observations writes, done from Python: for each of
    ``envs`` mid-game states, ``observation(p, out=obs[i])`` and ``legal_action_mask(out=
    mask[i])`` into that env's own row of batch arrays shaped as ``VectorGame``'s. Not a
    target: the same writes as the vector's (plus two Python calls per env), so that the
    figure shows what the rows' size costs once they no longer fit in the caches."""
    states = midgame_states(game, envs, seed=5)
    seats = [s.current_player for s in states]
    obs = np.zeros((envs,) + tuple(game.observation_shape), dtype=np.float32)
    mask = np.zeros((envs, game.num_actions), dtype=np.bool_)
    rounds = max(1, calls // envs)

    def run() -> None:
        for _ in range(rounds):
            for i, s in enumerate(states):
                s.observation(seats[i], out=obs[i])
                s.legal_action_mask(out=mask[i])

    run()
    return _best(run, repeat) / (rounds * envs) * 1e9


def row_floor_ns(exe: str, game: Any, envs: int, writes: int) -> float:
    """CPU ns per env of ``rows.c``: zeroing one env's observation row (float32,
    ``game.observation_shape``) and mask row (``game.num_actions`` bytes) after another,
    ``writes`` env-rows per round, best of 5 rounds."""
    obs_bytes = 4 * int(np.prod(game.observation_shape))
    passes = max(1, writes // envs)
    res = subprocess.run(
        [exe, str(obs_bytes), str(game.num_actions), str(envs), str(passes)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    if res.returncode != 0:
        raise RuntimeError(f"{exe} failed ({res.returncode}): {res.stderr.strip()}")
    return float(json.loads(res.stdout)["ns_per_env"])


def changed_line_share(game: Any, envs: int, steps: int) -> float:
    """The share of each observation row's 64-byte lines whose bytes differ from the same env's
    row one step before (``envs`` envs, ``RANDOM`` actions, averaged over ``steps`` steps after
    30 of warm-up): what a step that rewrote only the changed lines would still write."""
    vg = VectorGame(game, envs, 1)
    vg.reset()
    actions = np.full(envs, RANDOM, dtype=np.int64)
    for _ in range(30):
        vg.step(actions, observe=True)
    width = 4 * int(np.prod(game.observation_shape))
    lines = -(-width // 64)
    prev = vg.step(actions, observe=True)[0].reshape(envs, -1).view(np.uint8).copy()
    shares = []
    for _ in range(steps):
        cur = vg.step(actions, observe=True)[0].reshape(envs, -1).view(np.uint8)
        diff = np.zeros((envs, lines * 64), dtype=np.bool_)
        diff[:, :width] = prev != cur
        shares.append(float(diff.reshape(envs, lines, 64).any(axis=2).mean()))
        prev = cur.copy()
    return float(np.mean(shares))


def env_step_ns(game: Any, envs: int, threads: int, observe: bool, env_steps: int, repeat: int) -> float:
    vg = VectorGame(game, envs, 1, threads=threads)
    vg.reset()
    actions = np.full(envs, RANDOM, dtype=np.int64)
    steps = max(3, env_steps // envs)
    for _ in range(min(steps, 50)):  # warm up (and leave the opening positions)
        vg.step(actions, observe=observe)

    def run() -> None:
        for _ in range(steps):
            vg.step(actions, observe=observe)

    return _best(run, repeat) / (steps * envs) * 1e9


def bench_game(name: str, players: int, quick: bool, rows_exe: Optional[str] = None) -> Dict[str, Any]:
    game = mousehole.load(name, players=players, engine="compiled")
    repeat = 2 if quick else 5
    sim = simulate_ns_per_action(game, 50 if quick else 1000, repeat)
    obs = observation_ns(game, 10 if quick else 50, 5 if quick else 50, repeat)
    out: Dict[str, Any] = {
        "simulate_ns_per_action": sim,
        "observation_ns": obs,
        "target_ns_without_observations": 2 * sim,
        "target_ns_with_observations": 2 * sim + obs,
        "runs": [],
    }
    budget = 20_000 if quick else 1_000_000  # env-steps per timing
    out["changed_line_share"] = changed_line_share(game, 64 if quick else 256, 5 if quick else 20)
    out["batch_rows_ns"] = {}
    out["row_floor_ns"] = {}
    for envs in (1, 64, 256, 1024):  # 256 and 1,024: the sizes of the targets
        out["batch_rows_ns"][str(envs)] = batch_rows_ns(game, envs, 2_000 if quick else 50_000, repeat)
        if rows_exe is not None:
            out["row_floor_ns"][str(envs)] = row_floor_ns(rows_exe, game, envs, 4_000 if quick else 400_000)
        for threads in (1, 2):
            for observe in (False, True):
                n_steps = budget if envs > 1 else budget // 20
                ns = env_step_ns(game, envs, threads, observe, n_steps, repeat)
                target = out["target_ns_with_observations" if observe else "target_ns_without_observations"]
                out["runs"].append(
                    {
                        "envs": envs,
                        "threads": threads,
                        "observe": observe,
                        "ns_per_env_step": ns,
                        "env_steps_per_s": 1e9 / ns,
                        "ratio_to_target": ns / target,
                    }
                )
    return out


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", nargs="*", default=mousehole.game_names(), help="game ids (default: all)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--quick", action="store_true", help="small sizes: a smoke run")
    ap.add_argument("--json", metavar="PATH", help="also write the results as JSON to PATH")
    args = ap.parse_args(argv)
    if "compiled" not in mousehole.available_engines():
        print("bench_vector: the compiled engine is not available", file=sys.stderr)
        return 1
    exes, note = build_c_loops(
        os.path.join(os.path.dirname(os.path.abspath(__file__)), "limits"), sources={"rows": "rows.c"}
    )
    rows_exe = exes.get("rows")
    if rows_exe is None:
        print(f"bench_vector: the memory floor is skipped ({note})")
    results: Dict[str, Any] = {
        "machine": machine(),
        "players": args.players,
        "quick": args.quick,
        "row_floor_build": note,
        "games": {},
    }
    for name in args.games:
        r = bench_game(name, args.players, args.quick, rows_exe)
        results["games"][name] = r
        print(
            f"{name} ({args.players} players): simulate {r['simulate_ns_per_action']:.0f} ns/action, "
            f"observation {r['observation_ns']:.0f} ns; targets {r['target_ns_without_observations']:.0f} ns "
            f"without, {r['target_ns_with_observations']:.0f} ns with observations"
        )
        print(f"  {'envs':>5} {'threads':>7} {'obs':>4} {'env-steps/s':>12} {'ns/env-step':>12} {'ratio':>6}")
        for run in r["runs"]:
            print(
                f"  {run['envs']:>5} {run['threads']:>7} {'yes' if run['observe'] else 'no':>4} "
                f"{run['env_steps_per_s']:>12,.0f} {run['ns_per_env_step']:>12.0f} {run['ratio_to_target']:>6.2f}"
            )
        print(
            "  observation + mask into each env's own row, from Python (ns per env): "
            + ", ".join(f"{k} envs {v:.0f}" for k, v in r["batch_rows_ns"].items())
        )
        if r["row_floor_ns"]:
            target = r["target_ns_with_observations"]
            print(
                "  memory floor, zeroing each env's rows in C on one thread (ns per env, over the target "
                "with observations): "
                + ", ".join(f"{k} envs {v:.0f} ({v / target:.2f})" for k, v in r["row_floor_ns"].items())
            )
        print(
            f"  share of an observation row's 64-byte lines changed since the env's last step: "
            f"{r['changed_line_share']:.3f}"
        )
    if args.json:
        with open(args.json, "w") as f:
            f.write(json.dumps(results, indent=2, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
