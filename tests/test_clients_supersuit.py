"""The parallel PettingZoo environment through the real SuperSuit-to-Stable-Baselines3 pipeline
(``supersuit.pettingzoo_env_to_vec_env_v1`` + ``concat_vec_envs_v1(base_class=
"stable_baselines3")``): over 10,000 parallel steps of every game no action is ever replaced,
every applied action is the one its agent chose, legal under the mask that agent saw, and the
masks handed out are exactly the legal actions at the agent's turn; and sb3-contrib's
``MaskablePPO`` learns through the same stack with the masks (the no-op agents' all-zero
masks included) without a single substitution.

The audit below watches the environment from outside: before each step it copies the game,
then replays the actions the step appended to ``game_state.history`` to learn which seat played
each (chance outcomes skipped), and compares them with what the agents chose.

Needs SuperSuit, Stable-Baselines3 and sb3-contrib (the ``clients`` extra, after a CPU torch: CI installs them where
they install); without them the tests say so and skip."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

import numpy as np
import pytest

ss = pytest.importorskip("supersuit", reason="SuperSuit is not installed (the clients extra installs it)")
pytest.importorskip("stable_baselines3", reason="Stable-Baselines3 is not installed")
pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed")

from pettingzoo.utils import BaseParallelWrapper  # noqa: E402
from stable_baselines3.common.vec_env import VecEnvWrapper  # noqa: E402

import mousehole.pettingzoo as mp  # noqa: E402

#: the configurations the issue measured (Cheese Rescue at 4 players, Kater Kasimir at 2, M at
#: 3, Maus au Chocolat at 2), and others for the learner
PIPELINE = [
    ("cheese_rescue", {"players": 4}),
    ("kasimir", {"players": 2}),
    ("m", {"players": 3}),
    ("maus_au_chocolat", {"players": 2}),
    ("maus_au_chocolat", {"players": 4}),
]
LEARNER = [
    ("cheese_rescue", {"players": 2}),
    ("kasimir", {"players": 3, "explicit_chance": True}),
    ("m", {"players": 2}),
    ("maus_au_chocolat", {"players": 3}),
]


class Audit(BaseParallelWrapper):  # type: ignore[misc]
    """A pass-through ParallelEnv wrapper that counts, from outside the environment, what
    each step really applied against what the agents chose under the masks they saw."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self.counts: Dict[str, int] = dict.fromkeys(
            (
                "steps",
                "decisions",
                "applied",
                "substituted",
                "outside_mask",
                "mask_wrong",
                "dropped",
                "deferred",
                "simultaneous",
                "noop_entries",
                "flagged",
            ),
            0,
        )
        self._seen: Dict[str, Any] = {}
        self._owed: Dict[int, Tuple[int, Any, int]] = {}

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> Any:
        self.counts["dropped"] += len(self._owed)  # a decision left unplayed at the end
        self._owed = {}
        obs, infos = self.env.reset(seed=seed, options=options)
        self._seen = {a: o["action_mask"].copy() for a, o in obs.items()}
        return obs, infos

    def step(self, actions: Dict[str, Any]) -> Any:
        penv = self.env.unwrapped
        state = penv.game_state
        before, n0 = state.clone(), len(state.history)
        deciding = [a for a, m in self._seen.items() if m.any()]
        self.counts["decisions"] += len(deciding)
        self.counts["simultaneous"] += len(deciding) > 1
        self.counts["noop_entries"] += sum(1 for a in actions if a not in deciding)
        for a in deciding:
            p = int(a.split("_")[1])
            self.counts["dropped"] += p in self._owed
            self._owed[p] = (int(actions[a]), self._seen[a], self.counts["steps"])
        obs, rew, term, trunc, infos = self.env.step(actions)
        for x in state.history[n0:]:
            p = before.current_player
            if p >= 0:
                self.counts["applied"] += 1
                owed = self._owed.pop(p, None)
                if owed is None or owed[0] != x:
                    self.counts["substituted"] += 1
                if owed is None or not owed[1][x]:
                    self.counts["outside_mask"] += 1
                if owed is None or not np.array_equal(owed[1].astype(bool), before.legal_action_mask()):
                    self.counts["mask_wrong"] += 1
                if owed is not None and owed[2] != self.counts["steps"]:
                    self.counts["deferred"] += 1
            before.apply_action(x)
        self.counts["flagged"] += sum(1 for i in infos.values() if i.get("illegal_action"))
        self.counts["steps"] += 1
        self._seen = {a: o["action_mask"].copy() for a, o in obs.items()}
        return obs, rew, term, trunc, infos


def _stack(name: str, params: Dict[str, Any], engine: str, seed: int) -> Tuple[Any, Any]:
    """The SuperSuit pipeline over an audited parallel env: (SB3 VecEnv, the audit inside it).
    The env is reset with ``seed`` before SuperSuit copies it, so the run is reproducible
    (SuperSuit's own seeding path does not reach SB3: ``ConcatVecEnv`` has no ``seed``)."""
    penv = mp.parallel_env(name, engine=engine, **params)
    penv.reset(seed=seed)
    venv = ss.pettingzoo_env_to_vec_env_v1(Audit(penv))
    venv = ss.concat_vec_envs_v1(venv, 1, num_cpus=0, base_class="stable_baselines3")
    audit = venv.venv.vec_envs[0].par_env  # SuperSuit's copy of the wrapped env
    assert isinstance(audit, Audit)
    return venv, audit


def _check_clean(counts: Dict[str, int], what: str) -> None:
    assert counts["applied"] > 0 and counts["decisions"] >= counts["applied"] - counts["deferred"], (what, counts)
    for key in ("substituted", "outside_mask", "mask_wrong", "dropped", "flagged"):
        assert counts[key] == 0, (what, key, counts)


#: SuperSuit's SB3VecEnvWrapper does not set render_mode the way SB3's VecEnv expects
pytestmark = [
    pytest.mark.clients,
    pytest.mark.filterwarnings("ignore:The `render_mode` attribute is not defined:UserWarning"),
]


@pytest.mark.parametrize("case", PIPELINE, ids=[f"{n}-{p['players']}p" for n, p in PIPELINE])
def test_supersuit_sb3_pipeline_never_substitutes(case: Tuple[str, Dict[str, Any]], engine: str) -> None:
    """10,000 parallel steps (1,000 on the reference engine, which is slower) through the
    SB3 VecEnv interface of SuperSuit's stack, a masked random policy choosing from the masks
    in the observations, every agent's entry sent as SuperSuit sends it (the no-op agents'
    too): nothing is replaced, dropped or played outside its mask, and the masks are exact."""
    name, params = case
    venv, audit = _stack(name, params, engine, seed=3)
    n = venv.num_envs
    assert n == params["players"]
    obs = venv.reset()
    rng = np.random.default_rng(5)
    episodes = 0
    steps = 10_000 if engine == "compiled" else 1_000
    for _ in range(steps):
        masks = obs["action_mask"]
        assert masks.shape == (n, venv.action_space.n) and masks.dtype == np.int8
        acts = np.array(
            [rng.choice(np.flatnonzero(m)) if m.any() else rng.integers(venv.action_space.n) for m in masks]
        )
        venv.step_async(acts)
        obs, rewards, dones, infos = venv.step_wait()
        episodes += int(dones.all())
        assert dones.all() or not dones.any()  # every agent ends together
    counts = audit.counts
    _check_clean(counts, name)
    assert counts["steps"] == steps and episodes >= 2
    assert counts["noop_entries"] > 0  # the agents without a decision were sent actions, ignored
    if name == "maus_au_chocolat":
        assert counts["simultaneous"] > 0  # bids asked of every bidder at once
        if engine == "compiled":
            assert counts["deferred"] > 0  # bids that waited behind Etienne's swap (MC-16)
    else:
        assert counts["simultaneous"] == 0 and counts["decisions"] == counts["applied"]


class MaskFromObs(VecEnvWrapper):  # type: ignore[misc]
    """SB3 glue for MaskablePPO: the Dict observation's ``"observation"`` goes to the
    policy, its ``"action_mask"`` is served as ``action_masks`` (what sb3-contrib asks a
    VecEnv for through ``env_method``)."""

    def __init__(self, venv: Any) -> None:
        super().__init__(venv, observation_space=venv.observation_space["observation"])
        self.masks: Optional[np.ndarray] = None

    def reset(self) -> Any:
        return self._split(self.venv.reset())

    def step_wait(self) -> Any:
        obs, rewards, dones, infos = self.venv.step_wait()
        for info in infos:
            if "terminal_observation" in info:
                info["terminal_observation"] = info["terminal_observation"]["observation"]
        return self._split(obs), rewards, dones, infos

    def _split(self, obs: Dict[str, np.ndarray]) -> np.ndarray:
        self.masks = obs["action_mask"].astype(bool)
        return obs["observation"]

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> List[Any]:
        if method_name == "action_masks":
            assert self.masks is not None
            return list(self.masks)
        return list(self.venv.env_method(method_name, *args, indices=indices, **kwargs))

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == "action_masks" or bool(self.venv.has_attr(attr_name))


@pytest.mark.parametrize("case", LEARNER, ids=[f"{n}-{p['players']}p" for n, p in LEARNER])
def test_maskable_ppo_trains_through_supersuit_without_substitution(
    case: Tuple[str, Dict[str, Any]], engine: str
) -> None:
    """sb3-contrib's MaskablePPO (self-play: one shared policy for every seat) learns for
    two rollouts through SuperSuit's SB3 stack; the audit finds every applied action chosen by
    the learner under its mask, none replaced. The agents without a decision have all-zero
    masks: MaskablePPO then samples from equal logits, and the ignored action carries no
    policy gradient (every logit is the same constant)."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.utils import set_random_seed

    name, params = case
    venv, audit = _stack(name, params, engine, seed=11)
    venv = MaskFromObs(venv)
    set_random_seed(0)
    n_steps = 256 if engine == "compiled" else 64
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        n_steps=n_steps,
        batch_size=n_steps,
        n_epochs=1,
        seed=None,
        device="cpu",
        policy_kwargs={"net_arch": [16]},
        verbose=0,
    )
    model.learn(total_timesteps=2 * n_steps * venv.num_envs)
    counts = audit.counts
    _check_clean(counts, name)
    assert counts["steps"] == 2 * n_steps and model.num_timesteps == 2 * n_steps * venv.num_envs
    if name != "maus_au_chocolat":
        assert counts["decisions"] == counts["applied"] == counts["steps"]
