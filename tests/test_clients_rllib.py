"""Ray RLlib as a client of the games (``mousehole.rllib``), called the way RLlib's own code calls
an environment, and of the PettingZoo environments through RLlib's PettingZoo wrappers.

- RLlib's own ``check_multiagent_environments`` passes on every game, player count, layout and
  engine with the defaults, through the name registered with Ray Tune too; and on the PettingZoo
  environments (AEC and parallel) through RLlib's ``PettingZooEnv`` and ``ParallelPettingZooEnv``
  with ``illegal_action="lose"``, whose ``render()`` works;
- the environment shows only the agents to act (the seat to move, or every bidder at once in
  Maus au Chocolat's bid phase) with the masks of their own turns, ends with every agent's
  final observation and the game's returns, and replays the same games from the same seeds;
- PPO (the masked module) trains two iterations on every game, on both engines, on a local Ray
  (``ray.init(num_cpus=2)``): the environment raises on any action RLlib sends that was not
  asked for or is not legal (``illegal_action="raise"``), and the module checks every row that
  reaches the loss: its action is legal under its mask (so its agent was asked to act);
  once with an env runner in another process, and once with RLlib's CNN encoder (``"hwc"``);
- the gradient claims of ``docs/environments.md``: a row with an all-zero mask carries no policy
  gradient in MaskablePPO's distribution and in ``MaskedPPOTorchRLModule``, and does carry one
  under additive masking (RLlib's example action-masking module);
- ``docs/rl.md`` shows ``examples/rllib_ppo.py`` character for character, and the example runs.

Marked ``clients``: CI runs them in their own step, after installing CPU-only torch and the
``rllib`` extra. Where Ray RLlib or torch is missing the module is skipped, and says why.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, Iterator, List, Tuple

import numpy as np
import pytest

import mousehole

pytestmark = pytest.mark.clients

WHY = "the 'clients' CI step installs torch (CPU) and the rllib extra (Ray RLlib)"
torch = pytest.importorskip("torch", reason=WHY)
pytest.importorskip("ray.rllib", reason=WHY)

import ray  # noqa: E402
from ray.rllib.algorithms.ppo import PPOConfig  # noqa: E402
from ray.rllib.core.columns import Columns  # noqa: E402
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec  # noqa: E402
from ray.rllib.core.rl_module.rl_module import RLModuleSpec  # noqa: E402
from ray.rllib.env.env_context import EnvContext  # noqa: E402
from ray.rllib.env.wrappers.pettingzoo_env import ParallelPettingZooEnv, PettingZooEnv  # noqa: E402
from ray.rllib.utils.pre_checks.env import check_multiagent_environments  # noqa: E402
from ray.tune.registry import ENV_CREATOR, _global_registry  # noqa: E402

import mousehole.pettingzoo as mp  # noqa: E402
import mousehole.rllib as mr  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "rllib_ppo.py"
GAMES = mousehole.game_names()


@pytest.fixture(autouse=True)
def one_torch_thread() -> Iterator[None]:
    """Keep torch to one thread (the tests share a small machine)."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """A local Ray of two CPUs for this module's training runs; its workers get a fixed hash
    seed (RLlib batches the agents that act at once in the order of a set of their ids)."""
    if not ray.is_initialized():
        ray.init(
            num_cpus=2, include_dashboard=False, log_to_driver=False, runtime_env={"env_vars": {"PYTHONHASHSEED": "0"}}
        )
    yield
    ray.shutdown()


def player_counts(name: str) -> List[int]:
    game = mousehole.load(name)
    return list(range(game.min_players, min(game.max_players, 4) + 1))


# -- RLlib's own checker ------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_rllib_checker_passes_with_the_defaults(name: str, engine: str) -> None:
    """``check_multiagent_environments`` (which steps one unmasked random action for each
    agent observed after ``reset``) on every player count and layout, and on the environment
    the registered name makes from an ``EnvContext``, as an env runner makes it."""
    for players in player_counts(name):
        for layout in mr.LAYOUTS:
            env = mr.MouseholeMultiAgentEnv({"game": name, "players": players, "layout": layout, "engine": engine})
            check_multiagent_environments(env)
    creator = _global_registry.get(ENV_CREATOR, mr.ENV_NAME)
    made = creator(EnvContext({"game": name, "engine": engine}, worker_index=1, num_workers=2))
    assert isinstance(made, mr.MouseholeMultiAgentEnv) and made.game.engine == engine
    check_multiagent_environments(made)


@pytest.mark.parametrize("name", GAMES)
def test_rllib_pettingzoo_wrappers_pass_with_lose(name: str, engine: str) -> None:
    """RLlib's ``PettingZooEnv`` (AEC) and ``ParallelPettingZooEnv`` pass RLlib's checker with
    ``illegal_action="lose"`` (the default "raise" refuses the checker's unmasked action), and
    their ``render()``, which passes ``render_mode`` on as an argument, draws."""
    for wrap, make in ((PettingZooEnv, mp.env), (ParallelPettingZooEnv, mp.parallel_env)):
        check_multiagent_environments(wrap(make(name, players=2, engine=engine, illegal_action="lose")))
        # The default refuses an action outside the mask. Stepped here with a known illegal
        # action, not through the checker, whose unseeded samples may all happen to be legal.
        strict = wrap(make(name, players=2, engine=engine))
        obs, _ = strict.reset(seed=1)
        actions = {a: int(np.flatnonzero(o["action_mask"] == 0)[0]) for a, o in obs.items() if o["action_mask"].any()}
        assert actions, "some agent is asked to act after reset"
        with pytest.raises(mousehole.IllegalMoveError):
            strict.step(actions)
        shown = wrap(make(name, render_mode="ansi", players=2, engine=engine))
        shown.reset(seed=1)
        assert shown.render() == mousehole.render.text(shown.get_sub_environments.game_state, for_player=0)


# -- what the environment shows and does ------------------------------------------------------


def _masked_random(obs: Dict[str, Any], rng: Any) -> Dict[str, int]:
    return {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in obs.items()}


def _turn_mask(state: Any, seat: int) -> Any:
    """Seat ``seat``'s legal actions at its own turn (for a later bidder: after the seats
    before it commit placeholder bids, which cannot change its mask)."""
    probe = state.clone()
    while probe.current_player != seat:
        probe.apply_action(int(probe.legal_actions()[0]))
    return probe.legal_action_mask()


def _play(env: Any, seed: int) -> Tuple[List[Dict[str, int]], Dict[str, float], int]:
    """One game of masked random actions, checking every step; returns the actions sent, the
    final rewards and the number of steps in which several agents were asked."""
    rng = np.random.default_rng(seed)
    obs, infos = env.reset(seed=seed)
    game = env.game
    sim = game.SIMULTANEOUS_ACTIONS
    sent: List[Dict[str, int]] = []
    several = 0
    while True:
        state = env.game_state
        cp = state.current_player
        # who is asked: the seat to move, and in a phase of simultaneous choices every later
        # seat that has not chosen yet (all of them, at the first step of a bid phase)
        asked = sorted(obs, key=lambda a: int(a.split("_")[1]))
        assert asked == env.asked_agents and asked[0] == f"player_{cp}" and set(infos) == set(obs)
        if len(asked) > 1:  # only where the seat to move makes a simultaneous choice
            several += 1
            assert state.legal_action_mask()[sim.start : sim.stop].any()
        for a in asked:
            p = int(a.split("_")[1])
            np.testing.assert_array_equal(obs[a]["action_mask"], _turn_mask(state, p).astype(np.float32))
            np.testing.assert_array_equal(obs[a]["observations"], state.observation(p).reshape(-1))
            assert obs[a]["action_mask"].dtype == np.float32 and obs[a] in env.observation_spaces[a]
        actions = _masked_random(obs, rng)
        sent.append(actions)
        obs, rewards, terms, truncs, infos = env.step(actions)
        if terms["__all__"] or truncs["__all__"]:
            break
        assert set(rewards) == set(obs) and all(r == 0.0 for r in rewards.values())
        assert terms == truncs == dict.fromkeys(obs, False) | {"__all__": False}
    state = env.game_state
    assert state.is_terminal() and env.asked_agents == []
    assert set(obs) == set(rewards) == set(env.possible_agents)
    assert rewards == {f"player_{p}": float(r) for p, r in enumerate(state.returns())}
    assert all(not o["action_mask"].any() for o in obs.values())
    assert terms["__all__"] != bool(state.truncated) and truncs["__all__"] == bool(state.truncated)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(actions)
    return sent, rewards, several


@pytest.mark.parametrize("name", GAMES)
def test_only_the_agents_to_act_are_observed(name: str, engine: str) -> None:
    """Every step observes exactly the agents to act, each with the mask of its own turn and
    its own observation; the applied actions are the ones sent (replayed from the seed); the
    end gives every agent its final observation and the game's returns."""
    for players in player_counts(name):
        env = mr.MouseholeMultiAgentEnv({"game": name, "players": players, "engine": engine})
        several = 0
        for seed in range(2):
            sent, _, n = _play(env, seed)
            several += n
            # each seat's actions, as sent and as the game applied them (bids chosen beside
            # Etienne's swap wait for his bid, MC-16: the order of seats may differ, not a
            # seat's own order)
            chosen: Dict[int, List[int]] = {p: [] for p in range(players)}
            for actions in sent:
                for agent, a in actions.items():
                    chosen[int(agent.split("_")[1])].append(a)
            replay = env.game.new_state(seed)
            applied: Dict[int, List[int]] = {p: [] for p in range(players)}
            for x in env.game_state.history:
                applied[replay.current_player].append(x)
                replay.apply_action(x)
            assert applied == chosen and replay.to_dict() == env.game_state.to_dict()
        if env.game.SIMULTANEOUS_ACTIONS:
            assert several > 0, "no step asked several bidders at once"
        else:
            assert several == 0


def test_max_turns_truncates_with_final_observations(engine: str) -> None:
    env = mr.MouseholeMultiAgentEnv({"game": "cheese_rescue", "players": 3, "max_turns": 5, "engine": engine})
    obs, _ = env.reset(seed=2)
    rng = np.random.default_rng(0)
    for _ in range(5):
        obs, rewards, terms, truncs, _ = env.step(_masked_random(obs, rng))
    assert truncs == dict.fromkeys(env.possible_agents, True) | {"__all__": True}
    assert terms == dict.fromkeys(env.possible_agents, False) | {"__all__": False}
    assert set(obs) == set(env.possible_agents) and env.game_state.truncated


def test_illegal_actions_lose_or_raise(engine: str) -> None:
    """The default ``"lose"``: -1 for the agent, 0 for the others, every agent's final
    observation, the game unchanged; ``"raise"``: IllegalMoveError, nothing changed; an
    action of an agent not asked, or a missing one, raises whatever the mode."""
    env = mr.MouseholeMultiAgentEnv({"game": "maus_au_chocolat", "players": 3, "engine": engine})
    obs, _ = env.reset(seed=4)
    assert env.asked_agents == ["player_0", "player_1", "player_2"]  # a bid phase
    before = env.game_state.to_dict()
    good = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in obs.items()}
    bad = dict(good, player_1=int(np.flatnonzero(obs["player_1"]["action_mask"] == 0)[0]))
    with pytest.raises(ValueError, match="missing: player_2"):
        env.step({"player_0": good["player_0"], "player_1": good["player_1"]})
    obs, rewards, terms, truncs, infos = env.step(bad)
    assert rewards == {"player_0": 0.0, "player_1": -1.0, "player_2": 0.0}
    assert terms["__all__"] and not truncs["__all__"] and infos["player_1"]["illegal_action"] is True
    assert env.game_state.to_dict() == before and set(obs) == set(env.possible_agents)
    strict = mr.MouseholeMultiAgentEnv(
        {"game": "maus_au_chocolat", "players": 3, "engine": engine, "illegal_action": "raise"}
    )
    strict.reset(seed=4)
    with pytest.raises(mousehole.IllegalMoveError, match=r"^MC-"):
        strict.step(bad)
    assert strict.game_state.to_dict() == before
    cr = mr.MouseholeMultiAgentEnv({"game": "cheese_rescue", "players": 2, "engine": engine})
    obs, _ = cr.reset(seed=1)
    assert list(obs) == ["player_0"]
    with pytest.raises(ValueError, match="not asked to act: player_1"):
        cr.step({"player_0": int(np.flatnonzero(obs["player_0"]["action_mask"])[0]), "player_1": 0})
    with pytest.raises(TypeError, match="dict"):
        cr.step([0])


def test_bad_configurations_are_named() -> None:
    with pytest.raises(ValueError, match="'game'"):
        mr.MouseholeMultiAgentEnv({})
    with pytest.raises(ValueError, match="'layout'"):
        mr.MouseholeMultiAgentEnv({"game": "m", "layout": "chw"})
    with pytest.raises(ValueError, match="'illegal_action'"):
        mr.MouseholeMultiAgentEnv({"game": "m", "illegal_action": "random"})
    with pytest.raises(TypeError, match="env_config"):
        mr.MouseholeMultiAgentEnv(["m"])  # type: ignore[arg-type]
    with pytest.raises((TypeError, ValueError), match="colour"):
        mr.MouseholeMultiAgentEnv({"game": "m", "colour": "red"})
    with pytest.raises(ValueError, match="players"):
        mr.MouseholeMultiAgentEnv({"game": "kasimir", "players": 9})
    env = mr.MouseholeMultiAgentEnv({"game": "m"})
    with pytest.raises(RuntimeError, match="reset"):
        env.step({})


@pytest.mark.parametrize("name", GAMES)
def test_readings_are_env_config(name: str) -> None:
    """Every reading of the rules (``Game.READINGS``), at each of its other values, is a key
    of ``env_config``: the environment plays that game, and passes RLlib's checker."""
    readings = mousehole.load(name).READINGS
    assert readings, f"{name} has no reading to pass"
    for reading in readings:
        for value in reading.values[1:]:
            env = mr.MouseholeMultiAgentEnv({"game": name, "players": 3, reading.param: value})
            assert env.game.params[reading.param] == value
            check_multiagent_environments(env)
            _play(env, 1)


@pytest.mark.parametrize("name", GAMES)
def test_layouts(name: str) -> None:
    """``"flat"``: the observation in C order; ``"hwc"``: a planes-first board as (H, W, C),
    anything else flat; the spaces say so."""
    flat = mr.MouseholeMultiAgentEnv({"game": name, "players": 3})
    hwc = mr.MouseholeMultiAgentEnv({"game": name, "players": 3, "layout": "hwc"})
    a, _ = flat.reset(seed=5)
    b, _ = hwc.reset(seed=5)
    state = flat.game_state
    agent = next(iter(a))
    seat = int(agent.split("_")[1])
    native = state.observation(seat)
    np.testing.assert_array_equal(a[agent]["observations"], native.reshape(-1))
    expected = native.transpose(1, 2, 0) if native.ndim == 3 else native.reshape(-1)
    np.testing.assert_array_equal(b[agent]["observations"], expected)
    assert hwc.observation_spaces[agent]["observations"].shape == expected.shape
    assert b[agent]["observations"].flags.c_contiguous


@pytest.mark.parametrize("name", GAMES)
def test_seeds_replay_the_same_games(name: str, engine: str) -> None:
    """``reset(seed=s)`` then unseeded resets: the same games for the same actions (Kater
    Kasimir with explicit chance, whose rolls come from the environment's generator)."""
    params = {"explicit_chance": True} if name == "kasimir" else {}

    def run() -> List[Any]:
        env = mr.MouseholeMultiAgentEnv({"game": name, "players": 3, "engine": engine, **params})
        rng = np.random.default_rng(7)
        out: List[Any] = []
        for seed in (11, None, None):
            obs, _ = env.reset(seed=seed)
            done = False
            while not done:
                actions = _masked_random(obs, rng)
                obs, rewards, terms, truncs, _ = env.step(actions)
                done = terms["__all__"] or truncs["__all__"]
            out.append((list(env.game_state.history), rewards))
        return out

    first, second = run(), run()
    assert first == second and first[1] != first[2]


# -- PPO on a local Ray ---------------------------------------------------------------------


class AuditedModule(mr.MaskedPPOTorchRLModule):
    """The masked module, counting what reaches the loss: every row of every training batch,
    with its loss mask (False for the bootstrap step RLlib appends to each episode)."""

    rows: List[Dict[str, int]] = []

    def _forward_train(self, batch: Dict[str, Any], **kwargs: Any) -> Dict[str, Any]:
        mask = batch[Columns.OBS]["action_mask"]
        actions = batch[Columns.ACTIONS].long()
        valid = batch.get(Columns.LOSS_MASK)
        valid = torch.ones_like(actions, dtype=torch.bool) if valid is None else valid.bool()
        legal = mask.gather(1, actions[:, None])[:, 0] > 0
        AuditedModule.rows.append(
            {
                "rows": len(actions),
                "in_loss": int(valid.sum()),
                "illegal_in_loss": int((valid & ~legal).sum()),
                "zero_mask_in_loss": int((valid & (mask.sum(1) == 0)).sum()),
            }
        )
        out = super()._forward_train(batch, **kwargs)
        logits = out[Columns.ACTION_DIST_INPUTS]
        assert bool((logits[mask == 0] == mr.FLOAT_MIN).all()), "a masked logit survived"
        return out


def _ppo(
    env_config: Dict[str, Any],
    *,
    runners: int = 0,
    module: Any = AuditedModule,
    model_config: Any = None,
    check_env: bool = True,
) -> Any:
    """A tiny PPO configuration: one shared policy for every seat, 128 env steps an iteration."""
    spec = RLModuleSpec(module_class=module, model_config=model_config or {"fcnet_hiddens": [16]})
    return (
        PPOConfig()
        .environment(mr.ENV_NAME, env_config=env_config, disable_env_checking=not check_env)
        .env_runners(num_env_runners=runners, num_cpus_per_env_runner=1)
        .learners(num_learners=0)
        .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, episode, **kw: "shared")
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"shared": spec}))
        .training(train_batch_size_per_learner=128, minibatch_size=64, num_epochs=1)
        .debugging(seed=0)
    )


def _train(config: Any, iterations: int) -> List[Dict[str, Any]]:
    algo = config.build_algo()
    try:
        return [algo.train() for _ in range(iterations)]
    finally:
        algo.stop()


def _assert_clean_loss(results: List[Dict[str, Any]]) -> None:
    rows = AuditedModule.rows
    assert rows, "no training batch reached the module"
    assert sum(r["in_loss"] for r in rows) >= 64 * len(results)
    assert sum(r["illegal_in_loss"] for r in rows) == 0
    assert sum(r["zero_mask_in_loss"] for r in rows) == 0
    for r in results:
        assert np.isfinite(r["learners"]["shared"]["total_loss"])


@pytest.mark.parametrize("name", GAMES)
def test_ppo_trains_with_no_ignored_action_in_the_loss(name: str, engine: str, local_ray: None) -> None:
    """Two PPO iterations on every game (3 players), with ``illegal_action="raise"``: an
    action RLlib sent that was not asked for or not legal would raise in the environment
    (RLlib's checker, which steps an unmasked action, is left out of this run; the test above
    runs it on the defaults). No row in the loss has an illegal action or an all-zero mask."""
    AuditedModule.rows = []
    config = _ppo({"game": name, "players": 3, "engine": engine, "illegal_action": "raise"}, check_env=False)
    results = _train(config, 2)
    _assert_clean_loss(results)
    runners = results[-1]["env_runners"]
    assert runners["num_env_steps_sampled_lifetime"] >= 256
    steps = runners["num_agent_steps_sampled_lifetime"]
    assert set(steps) == {"player_0", "player_1", "player_2"} and all(v > 0 for v in steps.values())


def test_ppo_with_an_env_runner_in_another_process(local_ray: None) -> None:
    """The defaults as a user writes them (RLlib's checker on, the environment made by name in
    a remote env runner, which imports mousehole there): Maus au Chocolat, whose bids ask
    several agents at once; a seeded configuration samples the same games twice."""
    config = _ppo({"game": "maus_au_chocolat", "players": 3}, runners=1, module=mr.MaskedPPOTorchRLModule)
    first, second = _train(config, 1)[0], _train(config, 1)[0]
    assert first["env_runners"]["num_env_steps_sampled_lifetime"] >= 128
    assert (
        first["env_runners"]["num_agent_steps_sampled_lifetime"]
        == second["env_runners"]["num_agent_steps_sampled_lifetime"]
    )
    assert first["learners"]["shared"]["total_loss"] == second["learners"]["shared"]["total_loss"]


def test_ppo_with_rllibs_cnn_encoder(local_ray: None) -> None:
    """``layout="hwc"``: Cheese Rescue's boards go through RLlib's CNN encoder, with the
    ``conv_filters`` of docs/rl.md (RLlib has no default for a 9 x 9 board)."""
    AuditedModule.rows = []
    config = _ppo(
        {"game": "cheese_rescue", "players": 2, "layout": "hwc"},
        model_config={"conv_filters": [[32, [3, 3], 1], [32, [3, 3], 1]], "fcnet_hiddens": [16]},
    )
    results = _train(config, 1)
    _assert_clean_loss(results)


def test_ppo_with_rllibs_own_action_masking_module(local_ray: None) -> None:
    """RLlib's example action-masking module (additive masking) trains on this environment
    too: it reads the same observation keys, and every row has legal actions."""
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    results = _train(_ppo({"game": "kasimir", "players": 2}, module=ActionMaskingTorchRLModule), 1)
    assert results[0]["env_runners"]["num_env_steps_sampled_lifetime"] >= 128
    assert np.isfinite(results[0]["learners"]["shared"]["total_loss"])


# -- the gradient of a row with an all-zero mask ------------------------------------------------


def _logit_grad(masked_logits: Any, logits: Any, action: int) -> Any:
    """The gradient of a PPO-like policy term (the log-probability of ``action`` plus the
    entropy) with respect to the unmasked logits."""
    dist = torch.distributions.Categorical(logits=masked_logits)
    (dist.log_prob(torch.tensor([action])) + dist.entropy()).sum().backward()
    return logits.grad


def test_all_zero_mask_rows_carry_no_policy_gradient_here() -> None:
    """The claim of docs/environments.md, scoped: with a row whose mask is all zero (an agent
    not to act, as SuperSuit's stack steps it), MaskablePPO's distribution and
    ``MaskedPPOTorchRLModule``'s masking (replacement) give the logits no gradient; additive
    masking (RLlib's example action-masking module: ``logits + clamp(log(mask), FLOAT_MIN)``)
    does give them one."""
    sb3_masking = pytest.importorskip("sb3_contrib.common.maskable.distributions", reason=WHY)
    zero = torch.zeros(1, 6)
    logits = torch.randn(1, 6, requires_grad=True)
    replaced = mr._masked({Columns.ACTION_DIST_INPUTS: logits}, zero)[Columns.ACTION_DIST_INPUTS]
    assert not _logit_grad(replaced, logits, 2).any()
    logits = torch.randn(1, 6, requires_grad=True)
    added = logits + torch.clamp(torch.log(zero), min=mr.FLOAT_MIN)
    assert _logit_grad(added, logits, 2).abs().sum() > 0
    logits = torch.randn(1, 6, requires_grad=True)
    dist = sb3_masking.MaskableCategorical(logits=logits, masks=np.zeros((1, 6), dtype=bool))
    (dist.log_prob(torch.tensor([2])) + dist.entropy()).sum().backward()
    assert not logits.grad.any()
    # and with a mask that has legal actions, only those logits move
    logits = torch.randn(1, 6, requires_grad=True)
    mask = torch.tensor([[0.0, 1.0, 1.0, 0.0, 0.0, 1.0]])
    replaced = mr._masked({Columns.ACTION_DIST_INPUTS: logits}, mask)[Columns.ACTION_DIST_INPUTS]
    grad = _logit_grad(replaced, logits, 2)
    assert not grad[mask == 0].any() and grad[mask == 1].abs().sum() > 0


# -- the docs' example ---------------------------------------------------------------------------


def test_docs_show_the_example_as_it_is() -> None:
    """docs/rl.md shows examples/rllib_ppo.py whole, character for character."""
    doc = (ROOT / "docs" / "rl.md").read_text(encoding="utf-8")
    shown = re.search(r"<!-- rllib-example -->\n```python\n(.*?)```\n", doc, re.S)
    assert shown is not None, "docs/rl.md lost the RLlib example's code block"
    assert shown.group(1) == EXAMPLE.read_text(encoding="utf-8")


def test_example_runs_as_written(tmp_path: Path) -> None:
    """The docs' example, run as a user would (from another directory, its own local Ray), in
    a tiny configuration: it trains, then plays new games with both players."""
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    out = subprocess.run(
        [
            sys.executable,
            str(EXAMPLE),
            "--iterations",
            "1",
            "--batch",
            "128",
            "--env-runners",
            "1",
            "--eval-games",
            "4",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    first = re.search(r"^iteration 1: ([\d,]+) env steps, ([\d,]+) games, entropy [\d.]+$", out.stdout, re.M)
    assert first is not None, out.stdout
    assert int(first.group(1).replace(",", "")) >= 128
    rates = re.search(
        r"^win rate at seat 0 over 4 new games: random player (\d+\.\d)%, "
        r"trained policy (\d+\.\d)%$",
        out.stdout,
        re.M,
    )
    assert rates is not None, out.stdout
    for r in rates.groups():
        assert float(r) in (0.0, 25.0, 50.0, 75.0, 100.0)  # k of 4 games
