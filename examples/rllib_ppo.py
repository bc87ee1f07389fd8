"""PPO on Ray RLlib learns a mousehole game by self-play: one shared policy plays every seat.

    pip install torch==2.13.0     # where pip finds the CPU build; PyTorch's page gives the command
    pip install --no-build-isolation '.[rllib]'   # from the checkout: Ray RLlib and PettingZoo
    python examples/rllib_ppo.py                   # 2-player Cheese Rescue on this machine
    python examples/rllib_ppo.py --address auto --env-runners 16   # on a running Ray cluster

Trains through mousehole.rllib (the environment registered as "mousehole", the masked PPO
module), then plays new games with the trained policy (its most likely legal action) at seat 0
against uniformly random players, and with a uniformly random player there for comparison.
"""

import argparse
import time

import numpy as np
import ray
import torch
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec

import mousehole.rllib  # registers the environment "mousehole" with Ray Tune
from mousehole.rllib import MaskedPPOTorchRLModule, MouseholeMultiAgentEnv


def shared_policy(agent_id, episode, **kwargs):
    return "shared"  # self-play: every seat is played by the same policy


def ppo_config(args):
    env_config = {"game": args.game, "players": args.players}  # and any game parameter
    module = RLModuleSpec(module_class=MaskedPPOTorchRLModule, model_config={"fcnet_hiddens": [256, 256]})
    return (
        PPOConfig()
        .environment("mousehole", env_config=env_config)
        .env_runners(num_env_runners=args.env_runners, num_envs_per_env_runner=1)
        .multi_agent(policies={"shared"}, policy_mapping_fn=shared_policy)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"shared": module}))
        .training(
            train_batch_size_per_learner=args.batch,
            minibatch_size=min(512, args.batch),
            num_epochs=4,
            lr=3e-4,
            gamma=1.0,
            lambda_=0.95,
            entropy_coeff=0.01,
        )
        .debugging(seed=args.seed)
    )


def win_rate(module, args, games, seed):
    """Seat 0 plays ``module``'s most likely legal action (a uniformly random legal action
    when ``module`` is None), every other seat a uniformly random legal action."""
    env = MouseholeMultiAgentEnv({"game": args.game, "players": args.players})
    rng = np.random.default_rng(seed)
    wins = 0
    for game in range(games):
        obs, _ = env.reset(seed=seed + game)
        done = False
        while not done:
            actions = {}
            for agent, o in obs.items():  # the agents to act: one, or every bidder at once
                if agent == "player_0" and module is not None:
                    batch = {Columns.OBS: {k: torch.from_numpy(v[None]) for k, v in o.items()}}
                    with torch.no_grad():
                        logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
                    actions[agent] = int(logits.argmax())  # masked: always a legal action
                else:
                    actions[agent] = int(rng.choice(np.flatnonzero(o["action_mask"])))
            obs, rewards, terminateds, truncateds, _ = env.step(actions)
            done = terminateds["__all__"] or truncateds["__all__"]
        wins += rewards["player_0"] > 0
    return wins / games


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="cheese_rescue", choices=mousehole.game_names())
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--batch", type=int, default=2000, help="env steps per iteration")
    parser.add_argument("--env-runners", type=int, default=2)
    parser.add_argument("--address", default=None, help="a Ray cluster's address (default: start one here)")
    parser.add_argument("--eval-games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    # RLlib batches the agents that act at once (the bids) in the order of a set of their ids:
    # a fixed hash seed in every worker makes a seeded run repeat exactly
    runtime_env = {"env_vars": {"PYTHONHASHSEED": "0"}}
    if args.address:  # a running cluster: the env runners go wherever it has CPUs
        ray.init(address=args.address, runtime_env=runtime_env)
    else:  # a new local Ray, even where another one runs on this machine
        ray.init(address="local", num_cpus=max(2, args.env_runners), runtime_env=runtime_env)
    algo = ppo_config(args).build_algo()
    start = time.time()
    for i in range(1, args.iterations + 1):
        result = algo.train()
        runners = result["env_runners"]
        print(
            f"iteration {i}: {int(runners['num_env_steps_sampled_lifetime']):,} env steps, "
            f"{int(runners['num_episodes_lifetime']):,} games, entropy "
            f"{result['learners']['shared']['entropy']:.2f}"
        )
    print(f"trained in {time.time() - start:.0f} s")
    random_rate = win_rate(None, args, args.eval_games, seed=10**6)
    trained_rate = win_rate(algo.get_module("shared"), args, args.eval_games, seed=10**6)
    print(
        f"win rate at seat 0 over {args.eval_games:,} new games: "
        f"random player {random_rate:.1%}, trained policy {trained_rate:.1%}"
    )
    algo.stop()
    ray.shutdown()


if __name__ == "__main__":
    main()
