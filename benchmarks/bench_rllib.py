"""What Ray RLlib costs and buys: actions per second through ``mousehole.rllib`` against
``VectorGame`` alone.

    python benchmarks/bench_rllib.py                        # Cheese Rescue, 2 players
    python benchmarks/bench_rllib.py --games all --json rllib.json
    python benchmarks/bench_rllib.py --quick                # a smoke run

Needs Ray RLlib and torch (``mousehole.rllib``: a CPU torch, then ``pip install
--no-build-isolation '.[rllib]'`` from the checkout). For each game (compiled engine), every
figure counts actions (agent steps: one decision of one seat; a step of RLlib's environment in
a Maus au Chocolat bid phase carries one action per bidder) per second of wall time:

* **VectorGame**: ``VectorGame(game, n, seed, seats=every seat)`` stepped with ``RANDOM``
  actions (each env draws a uniformly random legal action itself: no policy), with
  observations, one thread, for 1 and 256 envs: the library's own batched stepping;
* **env alone**: ``MouseholeMultiAgentEnv`` stepped in a Python loop, each asked agent given a
  uniformly random legal action drawn with numpy (no policy, no RLlib): what the environment
  itself costs, observations and masks included;
* **RLlib sampling**: a PPO algorithm of the docs' example (``MaskedPPOTorchRLModule``,
  ``fcnet_hiddens=[256, 256]``, one shared policy), its env runners sampling ``--steps`` env
  steps each with exploration (the module's forward pass for every step, RLlib's connectors
  and episodes): on the driver's own env runner (0 remote env runners) and on 1 and 2
  remote env runners sampling in parallel (the figure is their total);
* **PPO training**: ``algo.train()`` with a train batch of ``--batch`` env steps (sampling,
  then 4 epochs of minibatches of 512 on the driver's learner), with 1 and 2 remote env
  runners: actions sampled per second of a whole iteration.

Every timed figure is the median of ``--repeats`` runs. The machine's other load matters
(env runners, the learner and the driver share its cores): compare figures of one run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from typing import Any, Callable, Dict, List, Optional

import numpy as np

import mousehole
from mousehole.bench import machine
from mousehole.vector import RANDOM, VectorGame


def _median_rate(fn: Callable[[], int], repeats: int) -> float:
    """Median of ``repeats`` runs of (count returned by ``fn``) / (its wall time)."""
    rates = []
    for _ in range(repeats):
        t = time.perf_counter()
        n = fn()
        rates.append(n / (time.perf_counter() - t))
    return statistics.median(rates)


def vector_rate(game: Any, num_envs: int, steps: int, repeats: int) -> float:
    """Actions per second of ``VectorGame`` with observations, ``RANDOM`` actions, 1 thread."""
    vg = VectorGame(game, num_envs, 1, threads=1, seats=list(range(game.num_players)))
    vg.reset()
    actions = np.full(num_envs, RANDOM, dtype=np.int64)
    rounds = max(1, steps // num_envs)

    def run() -> int:
        for _ in range(rounds):
            vg.step(actions)
        return rounds * num_envs

    return _median_rate(run, repeats)


def env_alone_rate(name: str, players: int, steps: int, repeats: int) -> float:
    """Actions per second of ``MouseholeMultiAgentEnv`` stepped in Python with random legal
    actions."""
    from mousehole.rllib import MouseholeMultiAgentEnv

    env = MouseholeMultiAgentEnv({"game": name, "players": players})
    rng = np.random.default_rng(0)
    box = {"obs": env.reset(seed=0)[0]}

    def run() -> int:
        actions_done = 0
        env_steps = 0
        obs = box["obs"]
        while env_steps < steps:
            actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in obs.items()}
            obs, _, terms, truncs, _ = env.step(actions)
            actions_done += len(actions)
            env_steps += 1
            if terms["__all__"] or truncs["__all__"]:
                obs, _ = env.reset()
        box["obs"] = obs
        return actions_done

    return _median_rate(run, repeats)


def _config(name: str, players: int, runners: int, batch: int) -> Any:
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from mousehole.rllib import ENV_NAME, MaskedPPOTorchRLModule

    module = RLModuleSpec(module_class=MaskedPPOTorchRLModule, model_config={"fcnet_hiddens": [256, 256]})
    return (
        PPOConfig()
        .environment(ENV_NAME, env_config={"game": name, "players": players})
        # no timeout: on a busy machine a sample of the train batch may take minutes
        .env_runners(num_env_runners=runners, num_envs_per_env_runner=1, sample_timeout_s=None)
        .learners(num_learners=0)
        .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, episode, **kw: "shared")
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"shared": module}))
        .training(train_batch_size_per_learner=batch, minibatch_size=min(512, batch), num_epochs=4)
        .debugging(seed=0)
    )


def _sample(env_runner: Any, steps: int) -> int:
    """Sample ``steps`` env steps on one env runner; the actions (agent steps) taken."""
    episodes = env_runner.sample(num_timesteps=steps, explore=True)
    return int(sum(e.agent_steps() for e in episodes))


def rllib_rates(
    name: str, players: int, runners: int, steps: int, batch: int, iterations: int, repeats: int
) -> Dict[str, float]:
    """Actions per second of RLlib's sampling on ``runners`` env runners (0: the driver's own)
    and, with remote env runners, of whole PPO iterations."""
    algo = _config(name, players, runners, batch).build_algo()
    try:
        group = algo.env_runner_group
        if runners == 0:

            def run() -> int:
                return _sample(algo.env_runner, steps)
        else:

            def run() -> int:
                return sum(group.foreach_env_runner(lambda er: _sample(er, steps), local_env_runner=False))

        run()  # warm-up: the first episodes, the first forward passes
        out = {"sample": _median_rate(run, repeats)}
        if runners and iterations:
            rates = []
            before = 0.0
            for _ in range(iterations + 1):  # the first iteration warms up and is not counted
                t = time.perf_counter()
                result = algo.train()
                dt = time.perf_counter() - t
                total = float(sum(result["env_runners"]["num_agent_steps_sampled_lifetime"].values()))
                rates.append((total - before) / dt)
                before = total
            out["train"] = statistics.median(rates[1:])
        return out
    finally:
        algo.stop()


def run_game(name: str, players: int, args: Any) -> Dict[str, Any]:
    game = mousehole.load(name, players=players)
    row: Dict[str, Any] = {"game": name, "players": players}
    for n in (1, 256):
        row[f"vector_{n}"] = vector_rate(game, n, args.steps * (1 if n == 1 else 16), args.repeats)
    row["env_alone"] = env_alone_rate(name, players, args.steps, args.repeats)
    for runners in args.runners:
        rates = rllib_rates(name, players, runners, args.steps, args.batch, args.iterations, args.repeats)
        row[f"rllib_{runners}_sample"] = rates["sample"]
        if "train" in rates:
            row[f"rllib_{runners}_train"] = rates["train"]
    return row


def _fmt(x: Optional[float]) -> str:
    if x is None:
        return "-"
    return f"{x / 1e6:.2f} M" if x >= 1e6 else f"{x:,.0f}"


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default="cheese_rescue", help="comma-separated game ids, or all")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--steps", type=int, default=1000, help="env steps per timed sample (default 1000)")
    ap.add_argument("--batch", type=int, default=2000, help="PPO's train batch in env steps (default 2000)")
    ap.add_argument("--iterations", type=int, default=2, help="PPO iterations timed (default 2, after one warm-up)")
    ap.add_argument("--runners", default="0,1,2", help="numbers of remote env runners (default 0,1,2)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="a smoke run (tiny sizes)")
    ap.add_argument("--json", default=None, help="write the figures here")
    args = ap.parse_args(argv)
    args.runners = [int(r) for r in args.runners.split(",")]
    if args.quick:
        args.steps, args.batch, args.iterations, args.repeats = 64, 128, 1, 1
    names = mousehole.game_names() if args.games == "all" else args.games.split(",")

    import ray
    import torch

    ray.init(num_cpus=max(2, max(args.runners)), include_dashboard=False, log_to_driver=False)
    info = {
        "machine": machine(),
        "python": platform.python_version(),
        "ray": ray.__version__,
        "torch": torch.__version__,
        "torch_threads": torch.get_num_threads(),
        "argv": sys.argv[1:],
    }
    print(f"# {info['machine']}; Python {info['python']}, Ray {info['ray']}, torch {info['torch']}")
    load = [os.getloadavg()[0]]
    rows = [run_game(name, args.players, args) for name in names]
    load.append(os.getloadavg()[0])
    info["load_average_1min_before_after"] = load
    print(f"# load average (1 min) before and after: {load[0]:.1f}, {load[1]:.1f}")
    ray.shutdown()
    header = (
        ["game", "VectorGame 1 env", "VectorGame 256 envs", "env alone"]
        + [f"RLlib sampling, {r} runner{'s' if r != 1 else ''}" for r in args.runners]
        + [f"PPO, {r} runner{'s' if r != 1 else ''}" for r in args.runners if r]
    )
    print("actions per second (median of repeats)")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        cells = [
            f"{row['game']} ({row['players']}p)",
            _fmt(row["vector_1"]),
            _fmt(row["vector_256"]),
            _fmt(row["env_alone"]),
        ]
        cells += [_fmt(row.get(f"rllib_{r}_sample")) for r in args.runners]
        cells += [_fmt(row.get(f"rllib_{r}_train")) for r in args.runners if r]
        print("| " + " | ".join(cells) + " |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"info": info, "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
