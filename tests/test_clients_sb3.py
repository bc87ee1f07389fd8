"""Stable-Baselines3 and sb3-contrib's MaskablePPO as clients of the Gymnasium environments
(mousehole.gymnasium), called the way their own code and documentation call them.

Short runs (a few hundred timesteps): what is asserted is that the environment is used
correctly, not that anything learns (docs/rl.md has the learning example):

- SB3's own ``check_env`` passes on every game;
- ``make_vec_env(env_id, n_envs=2)``, which asks for ``render_mode="rgb_array"``, builds and
  trains; ``gymnasium.make`` environments train too;
- MaskablePPO reads the masks through ``action_masks()``: a wrapper under SB3 checks every
  action against the game's legal actions before the environment applies it;
- the episode returns and lengths SB3's ``Monitor`` records (and the model's episode buffer)
  are the games' own results: the learner's ``returns()[seat]`` and its number of decisions,
  counted again by replaying each finished game's history from its seed.

Marked ``clients``: CI runs them in their own step, after installing CPU-only torch,
stable-baselines3 and sb3-contrib. Where those packages are missing the module is skipped,
and says why.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any, Dict, List, Tuple

import numpy as np
import pytest

from mousehole import render

pytestmark = pytest.mark.clients

WHY = "the 'clients' CI step installs torch (CPU), stable-baselines3 and sb3-contrib"
gymnasium = pytest.importorskip("gymnasium", reason=WHY)
torch = pytest.importorskip("torch", reason=WHY)
pytest.importorskip("stable_baselines3", reason=WHY)
pytest.importorskip("sb3_contrib", reason=WHY)

from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.utils import get_action_masks  # noqa: E402
from stable_baselines3.common.env_checker import check_env  # noqa: E402
from stable_baselines3.common.env_util import make_vec_env  # noqa: E402
from stable_baselines3.common.monitor import Monitor  # noqa: E402

from mousehole.gymnasium import ENV_IDS, MouseholeEnv  # noqa: E402

GAMES = {game: env_id for env_id, game in ENV_IDS.items()}
ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "maskable_ppo_cheese_rescue.py"
#: the PPO settings of every run here: tiny network, one epoch, CPU
PPO_KW: Dict[str, Any] = dict(n_steps=128, batch_size=64, n_epochs=1, device="cpu", policy_kwargs=dict(net_arch=[32]))


@pytest.fixture(autouse=True)
def one_torch_thread() -> Any:
    """Keep torch to one thread (the tests share a small machine)."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


class GameRecorder(gymnasium.Wrapper):  # type: ignore[misc]
    """Sits between SB3 and the environment: checks every action against the legal actions
    of the game before it is applied, and keeps a copy of every finished game."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self.finished: List[Any] = []
        self.actions = 0

    def step(self, action: Any) -> Any:
        base = self.env.unwrapped
        st = base.state
        a = int(action)
        assert st.current_player == base.seat
        assert st.legal_action_mask()[a], f"action {a} is not legal: the mask was not respected"
        self.actions += 1
        out = self.env.step(action)
        assert not out[-1].get("illegal_action", False)
        if out[2] or out[3]:
            self.finished.append(base.state.clone())
        return out


def learner_decisions(final: Any, seat: int) -> int:
    """The learner's number of decisions in a finished game, by replaying its history from
    its seed (and checking the replay reaches the same final state)."""
    st = final.game.new_state(seed=final.seed)
    n = 0
    for a in final.history:
        n += st.current_player == seat
        st.apply_action(a)
    assert st.to_dict() == final.to_dict()
    return n


def assert_monitor_matches_games(monitor: Any, recorder: GameRecorder, seat: int) -> List[Tuple[float, int]]:
    """Monitor's episodes are, in order, the recorder's finished games."""
    assert isinstance(monitor, Monitor)
    games = recorder.finished
    assert len(games) >= 1
    assert monitor.get_episode_rewards() == [float(g.returns()[seat]) for g in games]
    assert monitor.get_episode_lengths() == [learner_decisions(g, seat) for g in games]
    assert all(g.is_terminal() for g in games)
    return list(zip(monitor.get_episode_rewards(), monitor.get_episode_lengths()))


def assert_predict_is_legal(model: Any, vec_env: Any) -> None:
    """The trained model's masked predictions (greedy and sampled) are legal actions."""
    obs = vec_env.reset()
    for deterministic in (True, False):
        masks = get_action_masks(vec_env)
        actions, _ = model.predict(obs, action_masks=masks, deterministic=deterministic)
        assert all(masks[i, int(a)] for i, a in enumerate(actions))
        obs, _, _, _ = vec_env.step(actions)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_sb3_check_env(game: str) -> None:
    """SB3's own checker (it raises on an API error; its warnings, about the unbounded
    observation box, are expected)."""
    for params in ({"players": 2}, {"players": 4}):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            check_env(MouseholeEnv(game, **params))
            check_env(gymnasium.make(GAMES[game], **params))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_maskable_ppo_through_make_vec_env(game: str) -> None:
    """``make_vec_env`` as SB3 calls it (``render_mode="rgb_array"`` asked for, a Monitor in
    every env), the default ``illegal_action``, seat 1 of 3 players; MaskablePPO trains
    on two envs and every episode it records is a game's own result."""
    seat = 1
    vec_env = make_vec_env(
        GAMES[game], n_envs=2, seed=0, wrapper_class=GameRecorder, env_kwargs={"players": 3, "seat": seat}
    )
    assert vec_env.get_attr("render_mode") == ["rgb_array", "rgb_array"]
    model = MaskablePPO("MlpPolicy", vec_env, seed=0, **PPO_KW)
    model.learn(total_timesteps=256 if game != "maus_au_chocolat" else 512)
    episodes = []
    for wrapped in vec_env.envs:
        assert isinstance(wrapped, GameRecorder) and wrapped.actions >= 128
        episodes += assert_monitor_matches_games(wrapped.env, wrapped, seat)
    # what SB3 logs (ep_rew_mean, ep_len_mean) is read from this buffer
    buffer = [(float(e["r"]), int(e["l"])) for e in model.ep_info_buffer]
    assert sorted(buffer) == sorted(episodes)
    assert_predict_is_legal(model, vec_env)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_maskable_ppo_through_gymnasium_make(game: str, engine: str) -> None:
    """An environment from ``gymnasium.make`` handed to MaskablePPO, which wraps it in its
    Monitor and DummyVecEnv; illegal actions would raise (``illegal_action="raise"``)."""
    env = GameRecorder(gymnasium.make(GAMES[game], players=2, engine=engine, illegal_action="raise"))
    model = MaskablePPO("MlpPolicy", env, seed=1, **PPO_KW)
    model.learn(total_timesteps=256 if game != "maus_au_chocolat" else 384)
    vec_env = model.get_env()
    monitor = vec_env.envs[0]
    assert monitor.env is env
    episodes = assert_monitor_matches_games(monitor, env, 0)
    assert sorted((float(e["r"]), int(e["l"])) for e in model.ep_info_buffer) == sorted(episodes)
    assert_predict_is_legal(model, vec_env)


@pytest.mark.png
def test_make_vec_env_renders_the_learners_view() -> None:
    """SB3's DummyVecEnv collects each env's ``rgb_array`` picture: the learner's view."""
    vec_env = make_vec_env(GAMES["cheese_rescue"], n_envs=2, seed=3, env_kwargs={"players": 2})
    vec_env.reset()
    images = vec_env.get_images()
    assert len(images) == 2
    for img, wrapped in zip(images, vec_env.envs):
        assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
        np.testing.assert_array_equal(img, render.rgb_array(wrapped.unwrapped.state, for_player=0))
    assert vec_env.render().ndim == 3  # the tiled picture


def test_docs_show_the_example_as_it_is() -> None:
    """docs/rl.md shows examples/maskable_ppo_cheese_rescue.py whole, character for character."""
    doc = (ROOT / "docs" / "rl.md").read_text(encoding="utf-8")
    shown = re.search(r"<!-- maskable-ppo-example -->\n```python\n(.*?)```\n", doc, re.S)
    assert shown is not None, "docs/rl.md lost the example's code block"
    assert shown.group(1) == EXAMPLE.read_text(encoding="utf-8")


def test_example_runs_as_written(tmp_path: Path) -> None:
    """The docs' example, run as a user would (from another directory), in a tiny
    configuration: it trains, evaluates both players on new games and saves its figure."""
    pytest.importorskip("matplotlib", reason="the example plots with matplotlib (the test extra)")
    figure = tmp_path / "curve.png"
    env = {**os.environ, "OMP_NUM_THREADS": "1", "MPLBACKEND": "Agg"}
    out = subprocess.run(
        [sys.executable, str(EXAMPLE), "--timesteps", "512", "--eval-games", "6", "--figure", str(figure)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    trained = re.search(r"^trained on ([\d,]+) decisions \(([\d,]+) games\) in \d+ s$", out.stdout, re.M)
    assert trained is not None, out.stdout
    # one rollout of 16 envs x 128 steps at least; a Cheese Rescue game is ~12 decisions
    assert int(trained.group(1).replace(",", "")) == 2048 and int(trained.group(2).replace(",", "")) > 16 * 5
    rates = re.search(
        r"^win rate over 6 new games: random player ([\d.]+)%, trained policy ([\d.]+)%$", out.stdout, re.M
    )
    assert rates is not None, out.stdout
    for r in rates.groups():
        assert float(r) * 6 / 100 == pytest.approx(round(float(r) * 6 / 100), abs=0.01)  # k of 6 games
    assert figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
