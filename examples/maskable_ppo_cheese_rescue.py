"""MaskablePPO (sb3-contrib) learns 2-player Cheese Rescue against a uniformly random player.

    pip install 'gymnasium>=1.0' stable-baselines3 sb3-contrib matplotlib
    python examples/maskable_ppo_cheese_rescue.py

Trains seat 0 through Stable-Baselines3's make_vec_env, plays new games with the trained
policy and with a uniformly random one, and saves the learning curve.
"""

import argparse
import time

import numpy as np
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.evaluation import evaluate_policy
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.env_util import make_vec_env

import mousehole.gymnasium  # noqa: F401  (registers mousehole/CheeseRescue-v0)

ENV_ID = "mousehole/CheeseRescue-v0"
GAME = {"players": 2, "seat": 0}  # the learner is seat 0; seat 1 plays random legal actions


class Games(BaseCallback):
    """Keeps (timestep, result) of every training game: +1 win, -1 loss, 0 shared win."""

    def __init__(self):
        super().__init__()
        self.results = []

    def _on_step(self):
        for info in self.locals["infos"]:
            if "episode" in info:  # SB3's Monitor adds it when a game ends
                self.results.append((self.num_timesteps, info["episode"]["r"]))
        return True


def win_rate(model, games, seed):
    """The share of `games` new games won, `model` choosing its most likely legal action
    (None: a uniformly random legal action)."""
    env = make_vec_env(ENV_ID, n_envs=1, seed=seed, env_kwargs=GAME)
    if model is None:
        rng, won, obs = np.random.default_rng(seed), 0, env.reset()
        for _ in range(games):
            done = [False]
            while not done[0]:
                mask = env.env_method("action_masks")[0]
                obs, reward, done, info = env.step([rng.choice(np.flatnonzero(mask))])
            won += reward[0] == 1
        return won / games
    results, _ = evaluate_policy(
        model, env, n_eval_episodes=games, deterministic=True, return_episode_rewards=True, warn=False
    )
    return float(np.mean(np.array(results) == 1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timesteps", type=int, default=300_000)
    parser.add_argument("--eval-games", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--figure", default="docs/figures/maskable_ppo_cheese_rescue.png")
    args = parser.parse_args()

    env = make_vec_env(ENV_ID, n_envs=16, seed=args.seed, env_kwargs=GAME)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=128,
        batch_size=512,
        n_epochs=4,
        learning_rate=1e-3,
        gamma=1.0,
        ent_coef=0.01,
        seed=args.seed,
        policy_kwargs={"net_arch": [128, 128]},
        device="cpu",
    )
    games = Games()
    start = time.perf_counter()
    model.learn(total_timesteps=args.timesteps, callback=games)
    print(
        f"trained on {model.num_timesteps:,} decisions ({len(games.results):,} games) "
        f"in {time.perf_counter() - start:.0f} s"
    )

    seed = args.seed + 1_000_000  # new games, never seen in training
    random_rate = win_rate(None, args.eval_games, seed)
    trained_rate = win_rate(model, args.eval_games, seed)
    print(
        f"win rate over {args.eval_games:,} new games: random player {random_rate:.1%}, "
        f"trained policy {trained_rate:.1%}"
    )

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps, results = np.array(games.results).T
    window = max(1, len(results) // 40)
    n = len(results) // window * window
    won = (results[:n] == 1).reshape(-1, window).mean(axis=1)
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(steps[window - 1 : n : window], won, label=f"training games (mean of {window})")
    ax.axhline(random_rate, color="grey", linestyle="--", label="uniformly random player")
    ax.axhline(trained_rate, color="green", linestyle=":", label="trained policy, new games")
    ax.set_xlabel("learner decisions (timesteps)")
    ax.set_ylabel("win rate against a random player")
    ax.set_title("MaskablePPO learning 2-player Cheese Rescue (seat 0)")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(args.figure, dpi=100)
    print(f"learning curve saved to {args.figure}")


if __name__ == "__main__":
    main()
