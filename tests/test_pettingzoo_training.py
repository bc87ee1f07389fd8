"""examples/pettingzoo_training.py, as documented in docs/rl.md ("Training through
PettingZoo"), in its ``--quick`` configuration: it trains through the AEC API, evaluates
before and after, and writes its learning-curve PNG."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "examples" / "pettingzoo_training.py"


def test_pettingzoo_training_example_runs(tmp_path: Path) -> None:
    import matplotlib  # noqa: F401
    import pettingzoo  # noqa: F401  (the test extra installs it on Python >= 3.10)

    fig = tmp_path / "curve.png"
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "--quick", "--figure", str(fig)], capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stdout + out.stderr
    rates = re.findall(
        r"(before|after) training: win rate (\d\.\d{3}) against the random player \(20 games\)", out.stdout
    )
    assert [r[0] for r in rates] == ["before", "after"], out.stdout
    assert all(0.0 <= float(r[1]) <= 1.0 for r in rates)
    assert "training: 40 games in" in out.stdout
    assert fig.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_learner_reward_is_the_game_result() -> None:
    """The reward the example reads from ``env.last()`` when the game is over is the
    learner's return of the game (what REINFORCE is trained on), on either seat."""
    import numpy as np
    import pettingzoo  # noqa: F401  (the test extra installs it on Python >= 3.10)

    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import pettingzoo_training as ex
    finally:
        sys.path.remove(str(SCRIPT.parent))
    import mousehole.pettingzoo

    env = mousehole.pettingzoo.env("cheese_rescue", players=2)
    env.reset(seed=0)
    rng = np.random.default_rng(3)
    n_in = int(np.prod(env.observation_space("player_0")["observation"].shape))
    pol = ex.Policy(n_in, 4, int(env.action_space("player_0").n), rng)
    seen = set()
    for k in range(12):
        record: list = []  # type: ignore[type-arg]
        result = ex.play_game(env, 100 + k, ex.learner_of(k), pol, rng, record)
        seat = k % 2
        assert result == float(env.unwrapped.game_state.returns()[seat])
        assert record and all(m[a] for _, m, a in record)  # every recorded action was legal
        seen.add(result)
    assert len(seen) > 1  # both wins and losses occurred, so the check can fail
