"""A masked policy-gradient agent (REINFORCE with a learned baseline) in plain numpy that
learns to beat a uniformly random opponent at 2-player Cheese Rescue.

    python examples/masked_policy_gradient.py                 # a few minutes on 2 cores
    python examples/masked_policy_gradient.py --games 2000 --envs 64 --eval-games 500

* Environment: two ``mousehole.vector.VectorGame`` batches, one where the learner holds
  seat 0 and one where it holds seat 1 (``seats=[s]``); the other seat plays a uniformly
  random legal action inside the batch, so one ``step`` is one decision of the learner.
* Policy: a one-hidden-layer network over the flattened observation; the softmax runs over
  the legal actions only (the others get probability 0, from ``action_mask``).
* Learning: REINFORCE. Every decision of a game is pushed towards or away from the action
  taken by the game's result (+1 win, -1 loss, 0 when both win), minus a baseline: a value
  head on the same hidden layer that learns to predict the result. Adam, a small entropy
  bonus.
* Output: the learning curve (win rate against games played, beside the random player's
  win rate) saved as a PNG, and a final evaluation of the trained policy on new games.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any, Dict, List, Tuple

# The matrices here are small: one BLAS thread each is faster than a pool fighting for cores.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

import mousehole  # noqa: E402
from mousehole.vector import RANDOM, VectorGame  # noqa: E402


class Policy:
    """obs -> tanh hidden layer -> (action logits, value)."""

    def __init__(self, n_in: int, n_hidden: int, n_actions: int, rng: np.random.Generator) -> None:
        self.p: Dict[str, np.ndarray] = {
            "W1": rng.normal(0, 1 / np.sqrt(n_in), (n_in, n_hidden)).astype(np.float32),
            "b1": np.zeros(n_hidden, np.float32),
            "Wp": np.zeros((n_hidden, n_actions), np.float32),  # uniform over legal at first
            "bp": np.zeros(n_actions, np.float32),
            "Wv": np.zeros((n_hidden, 1), np.float32),
            "bv": np.zeros(1, np.float32),
        }
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.t = 0

    def forward(self, x: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        h = np.tanh(x @ self.p["W1"] + self.p["b1"])
        logits = h @ self.p["Wp"] + self.p["bp"]
        value = (h @ self.p["Wv"] + self.p["bv"])[:, 0]
        return h, logits, value

    def adam(self, grads: Dict[str, np.ndarray], lr: float) -> None:
        self.t += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            mh = self.m[k] / (1 - 0.9**self.t)
            vh = self.v[k] / (1 - 0.999**self.t)
            self.p[k] -= (lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)


def masked_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Probabilities over the legal actions only (exactly 0 elsewhere)."""
    z = np.where(mask, logits, -np.inf)
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    out: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return out


def sample(probs: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    cum = probs.cumsum(axis=1)
    u = rng.random(len(probs)) * cum[:, -1]
    out: np.ndarray = (cum > u[:, None]).argmax(axis=1)  # the first action whose cumulative mass exceeds u
    return out


def update(
    pol: Policy,
    obs: np.ndarray,
    mask: np.ndarray,
    act: np.ndarray,
    ret: np.ndarray,
    lr: float,
    entropy_coef: float,
    value_coef: float,
) -> None:
    """One REINFORCE step with a learned baseline on a batch of decisions."""
    n = len(obs)
    h, logits, value = pol.forward(obs)
    probs = masked_softmax(logits, mask)
    adv = ret - value
    # d(-log pi(a))/d logits = p - onehot(a), weighted by the advantage
    g_logits = probs.copy()
    g_logits[np.arange(n), act] -= 1.0
    g_logits *= adv[:, None]
    # entropy bonus: d(-H)/d logits = p * (log p + H), on the legal actions
    logp = np.where(mask, np.log(np.where(probs > 0, probs, 1.0)), 0.0)
    ent = -(probs * logp).sum(axis=1, keepdims=True)
    g_logits += entropy_coef * probs * (logp + ent)
    g_logits /= n
    g_value = (value_coef * (value - ret) / n)[:, None]
    grads = {"Wp": h.T @ g_logits, "bp": g_logits.sum(0), "Wv": h.T @ g_value, "bv": g_value.sum(0)}
    g_h = (g_logits @ pol.p["Wp"].T + g_value @ pol.p["Wv"].T) * (1 - h * h)
    grads["W1"] = obs.T @ g_h
    grads["b1"] = g_h.sum(0)
    pol.adam({k: v.astype(np.float32) for k, v in grads.items()}, lr)


class Episodes:
    """The learner's decisions in one batch of envs, kept per step, cut into whole games."""

    def __init__(self, n: int) -> None:
        self.steps: List[Tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # (obs, mask, action)
        self.first = 0  # index of self.steps[0]
        self.start = np.zeros(n, dtype=np.int64)  # the step at which each env's game began
        self.done: List[Tuple[np.ndarray, int, int, np.ndarray]] = []  # (envs, start, stop, result)

    def add(self, obs: np.ndarray, mask: np.ndarray, act: np.ndarray) -> None:
        self.steps.append((obs.copy(), mask.copy(), act.copy()))

    def finish(self, envs: np.ndarray, results: np.ndarray) -> None:
        """``envs`` finished their games with the last step added."""
        stop = self.first + len(self.steps)
        for start in np.unique(self.start[envs]):
            sel = envs[self.start[envs] == start]
            self.done.append((sel, int(start), stop, results[self.start[envs] == start]))
        self.start[envs] = stop

    def decisions(self) -> int:
        return sum(len(e) * (b - a) for e, a, b, _ in self.done)

    def take(self) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Every decision of the finished games, with its game's result; forget them."""
        obs, mask, act, ret = [], [], [], []
        for envs, a, b, res in self.done:
            for k in range(a, b):
                o, m, x = self.steps[k - self.first]
                obs.append(o[envs])
                mask.append(m[envs])
                act.append(x[envs])
                ret.append(res)
        self.done = []
        keep = int(self.start.min())  # steps before every unfinished game's start are done with
        del self.steps[: keep - self.first]
        self.first = keep
        return np.concatenate(obs), np.concatenate(mask), np.concatenate(act), np.concatenate(ret)


def play(
    pol: Policy,
    vgs: List[VectorGame],
    rng: np.random.Generator,
    games: int,
    train: bool,
    args: argparse.Namespace,
    curve: List[Tuple[int, float]],
) -> float:
    """Play about ``games`` games in each batch (learning from them when ``train``); returns
    the learner's win rate. Appends (games so far, win rate since the last point) to ``curve``."""
    wins = played = 0
    for vg in vgs:
        vg.reset()
    eps = [Episodes(vg.num_envs) for vg in vgs]
    point_wins = point_games = 0
    while played < games * len(vgs):
        for vg, ep in zip(vgs, eps):
            seat = vg.seats[0]
            obs = vg.observations.reshape(vg.num_envs, -1)
            mask = vg.action_mask
            _, logits, _ = pol.forward(obs)
            act = sample(masked_softmax(logits, mask), rng)
            if train:
                ep.add(obs, mask, act)
            _, rewards, term, trunc, _, _ = vg.step(act)
            ended = np.flatnonzero(term | trunc)
            if len(ended):
                res = rewards[ended, seat].astype(np.float32)
                won = int((res > 0).sum())
                wins += won
                point_wins += won
                played += len(ended)
                point_games += len(ended)
                if train:
                    ep.finish(ended, res)
        if train and sum(ep.decisions() for ep in eps) >= args.batch:
            parts = [ep.take() for ep in eps]
            o, m, a, r = (np.concatenate([p[k] for p in parts]) for k in range(4))
            update(pol, o, m, a, r, args.lr, args.entropy, 0.5)
        if point_games >= args.curve_every:
            curve.append((played, point_wins / point_games))
            point_wins = point_games = 0
    return wins / played


def random_win_rate(game: "mousehole.Game[Any, Any]", games: int, seed: int) -> float:
    """The win rate of a uniformly random player (both seats), for comparison."""
    wins = played = 0
    for seat in (0, 1):
        vg = VectorGame(game, 256, seed + seat, seats=[seat])
        vg.reset()
        while played < games * (seat + 1):
            _, rewards, term, trunc, _, _ = vg.step(np.full(256, RANDOM), observe=False)
            done = term | trunc
            wins += int((rewards[done, seat] > 0).sum())
            played += int(done.sum())
    return wins / played


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=30000, help="training games per seat")
    ap.add_argument("--envs", type=int, default=256, help="envs per seat")
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--entropy", type=float, default=0.01)
    ap.add_argument("--batch", type=int, default=4096, help="decisions per update")
    ap.add_argument("--curve-every", type=int, default=2000, help="games per point of the curve")
    ap.add_argument("--eval-games", type=int, default=5000, help="evaluation games per seat")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument(
        "--figure",
        default=os.path.join(
            os.path.dirname(os.path.abspath(__file__)), "..", "docs", "figures", "masked_policy_gradient.png"
        ),
    )
    args = ap.parse_args()

    game = mousehole.load("cheese_rescue", players=2)
    rng = np.random.default_rng(args.seed)
    n_in = int(np.prod(game.observation_shape))
    pol = Policy(n_in, args.hidden, game.num_actions, rng)
    train = [VectorGame(game, args.envs, args.seed * 2 + s, seats=[s], threads=args.threads) for s in (0, 1)]

    t0 = time.time()
    base = random_win_rate(game, args.eval_games, 10_000 + args.seed)
    print(f"uniform random player: win rate {base:.3f}")
    curve: List[Tuple[int, float]] = []
    train_rate = play(pol, train, rng, args.games, True, args, curve)
    print(f"training: {2 * args.games} games in {time.time() - t0:.0f} s, win rate while learning {train_rate:.3f}")
    test = [VectorGame(game, args.envs, 20_000 + args.seed * 2 + s, seats=[s], threads=args.threads) for s in (0, 1)]
    final = play(pol, test, rng, args.eval_games, False, args, [])
    print(f"trained policy on {2 * args.eval_games} new games: win rate {final:.3f} (random player: {base:.3f})")

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=120)
    if curve:
        ax.plot([c[0] for c in curve], [c[1] for c in curve], label="masked REINFORCE (training games)")
    ax.axhline(base, color="gray", linestyle="--", label=f"uniform random ({base:.2f})")
    ax.axhline(final, color="green", linestyle=":", label=f"trained policy, new games ({final:.2f})")
    ax.set_xlabel("games played (both seats)")
    ax.set_ylabel("win rate against uniform random")
    ax.set_title("Cheese Rescue, 2 players")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(args.figure)), exist_ok=True)
    fig.savefig(args.figure)
    print(f"learning curve saved to {os.path.normpath(args.figure)}")


if __name__ == "__main__":
    main()
