"""Train a masked policy-gradient agent through PettingZoo's AEC API: 2-player Cheese Rescue
against a uniformly random opponent, one ordinary ``env.agent_iter()`` loop per game.

    python examples/pettingzoo_training.py            # about a minute or two on 2 cores
    python examples/pettingzoo_training.py --quick    # a few seconds (the test's configuration)

* Environment: ``mousehole.pettingzoo.env("cheese_rescue", players=2)``. Every game is the
  standard AEC loop: ``for agent in env.agent_iter()``, ``env.last()`` gives the agent's
  observation dictionary (``"observation"`` and ``"action_mask"``), its reward and whether the
  game is over; a finished agent steps ``None``. The learner holds ``player_0`` in even games
  and ``player_1`` in odd ones; the other agent plays a uniformly random legal action read
  from the same mask.
* Policy and learning: those of ``examples/masked_policy_gradient.py`` (imported from it): a
  tanh hidden layer over the flattened observation, a softmax over the legal actions only,
  a value head as the baseline, REINFORCE with Adam and a small entropy bonus. Each of the
  learner's decisions is reinforced by its final reward in that game (+1 win, -1 loss, 0
  when both win), and the policy is updated every ``--batch`` decisions.
* Output: the win rate of the policy against the random opponent on new games before
  training (the untrained policy is uniform over the legal actions, that is, a random player)
  and after, and the learning curve saved as a PNG.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any, List, Optional, Tuple

# The matrices here are small: one BLAS thread is faster than a pool fighting for cores.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from masked_policy_gradient import Policy, masked_softmax, update  # noqa: E402

import mousehole.pettingzoo  # noqa: E402

Decision = Tuple[np.ndarray, np.ndarray, int]  # (flat observation, bool mask, action)


def choose(pol: Policy, obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> int:
    """Sample the policy's action over the legal actions of ``mask``."""
    _, logits, _ = pol.forward(obs[None, :])
    cum = masked_softmax(logits, mask[None, :])[0].cumsum()
    return int(np.searchsorted(cum, rng.random() * cum[-1], side="right"))


def play_game(
    env: Any, seed: int, learner: str, pol: Policy, rng: np.random.Generator, record: Optional[List[Decision]]
) -> float:
    """One game through the AEC loop; returns the learner's final reward. The learner's
    decisions are appended to ``record`` when it is given."""
    env.reset(seed=seed)
    result = 0.0
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        if termination or truncation:
            if agent == learner:
                result = float(reward)
            env.step(None)  # a finished agent steps None (PettingZoo's rule)
            continue
        mask = observation["action_mask"].astype(bool)
        if agent == learner:
            obs = observation["observation"].reshape(-1)
            action = choose(pol, obs, mask, rng)
            if record is not None:
                record.append((obs, mask, action))
        else:
            legal = np.flatnonzero(mask)
            action = int(legal[rng.integers(len(legal))])
        env.step(action)
    return result


def learner_of(game: int) -> str:
    """The learner's agent in game number ``game``: the seats alternate."""
    return mousehole.pettingzoo.agent_name(game % 2)


def evaluate(env: Any, pol: Policy, games: int, first_seed: int, rng: np.random.Generator) -> float:
    """The learner's win rate over ``games`` new games (no learning)."""
    wins = sum(play_game(env, first_seed + k, learner_of(k), pol, rng, None) > 0 for k in range(games))
    return wins / games


def train(env: Any, pol: Policy, args: argparse.Namespace, rng: np.random.Generator) -> List[Tuple[int, float]]:
    """REINFORCE over ``args.games`` games; returns the curve (games so far, win rate of the
    last ``args.curve_every`` games)."""
    batch: List[Tuple[np.ndarray, np.ndarray, int, float]] = []
    curve: List[Tuple[int, float]] = []
    point_wins = 0
    for k in range(args.games):
        record: List[Decision] = []
        result = play_game(env, args.seed * 1_000_000 + k, learner_of(k), pol, rng, record)
        batch.extend((o, m, a, result) for o, m, a in record)
        point_wins += result > 0
        if len(batch) >= args.batch:
            obs = np.stack([d[0] for d in batch])
            mask = np.stack([d[1] for d in batch])
            act = np.array([d[2] for d in batch], dtype=np.int64)
            ret = np.array([d[3] for d in batch], dtype=np.float32)
            update(pol, obs, mask, act, ret, args.lr, args.entropy, 0.5)
            batch = []
        if (k + 1) % args.curve_every == 0:
            curve.append((k + 1, point_wins / args.curve_every))
            point_wins = 0
    return curve


def main(argv: Optional[List[str]] = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=60000, help="training games (the seats alternate)")
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--entropy", type=float, default=0.01)
    ap.add_argument("--batch", type=int, default=1024, help="learner decisions per update")
    ap.add_argument("--curve-every", type=int, default=2000, help="games per point of the curve")
    ap.add_argument("--eval-games", type=int, default=5000, help="evaluation games, before and after")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--quick", action="store_true", help="a tiny configuration that runs in seconds (40 games, 20 evaluation games)"
    )
    ap.add_argument(
        "--figure",
        default=os.path.join(
            os.path.dirname(os.path.abspath(__file__)), "..", "docs", "figures", "pettingzoo_training.png"
        ),
    )
    args = ap.parse_args(argv)
    if args.quick:
        args.games, args.eval_games, args.batch, args.curve_every, args.hidden = 40, 20, 64, 10, 8

    env = mousehole.pettingzoo.env("cheese_rescue", players=2)
    env.reset(seed=args.seed)
    rng = np.random.default_rng(args.seed)
    n_in = int(np.prod(env.observation_space("player_0")["observation"].shape))
    n_actions = int(env.action_space("player_0").n)
    pol = Policy(n_in, args.hidden, n_actions, rng)

    eval_seed = 2_000_000_000 + args.seed * 100_000  # games never seen in training
    before = evaluate(env, pol, args.eval_games, eval_seed, rng)
    print(f"before training: win rate {before:.3f} against the random player ({args.eval_games} games)")
    t0 = time.time()
    curve = train(env, pol, args, rng)
    print(f"training: {args.games} games in {time.time() - t0:.0f} s")
    after = evaluate(env, pol, args.eval_games, eval_seed, rng)
    print(f"after training: win rate {after:.3f} against the random player ({args.eval_games} games)")

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=120)
    if curve:
        ax.plot([c[0] for c in curve], [c[1] for c in curve], label="training games (policy changing)")
    ax.axhline(before, color="gray", linestyle="--", label=f"before training, new games ({before:.2f})")
    ax.axhline(after, color="green", linestyle=":", label=f"after training, new games ({after:.2f})")
    ax.set_xlabel("training games (the learner's seat alternates)")
    ax.set_ylabel("win rate against uniform random")
    ax.set_title("Cheese Rescue, 2 players, through the PettingZoo AEC API")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(args.figure)), exist_ok=True)
    fig.savefig(args.figure, metadata={"Software": None})
    print(f"learning curve saved to {os.path.normpath(args.figure)}")


if __name__ == "__main__":
    main()
