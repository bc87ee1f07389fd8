"""The PettingZoo environment (``mousehole.pettingzoo``): PettingZoo's own checkers on every
game, player count and engine, and the environment's own semantics (masks, rewards, seeding,
chance nodes, hidden bids, errors, rendering). Needs PettingZoo (Python 3.10 or later); below
3.10 ``conftest.py`` deselects this file."""
from __future__ import annotations

import subprocess
import sys
import warnings
from typing import Any, Dict, List, Tuple

import numpy as np
import pytest

import mousehole
from gamecases import CASES, IDS



def _mp() -> Any:
    """``mousehole.pettingzoo``, imported when a test runs (not at collection), so that
    this file still collects where PettingZoo is missing and conftest can deselect it."""
    import mousehole.pettingzoo

    return mousehole.pettingzoo

#: the two warnings api_test gives every environment with dict observations (PettingZoo
#: whitelists its own classic environments by name); any other warning fails the test
DICT_OBS_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box",
)


def _make(name: str, params: Dict[str, Any], engine: str, **extra: Any) -> Any:
    return _mp().env(name, engine=engine, **params, **extra)


def _play(env: Any, seed: int, max_steps: int = 100000) -> List[Tuple[str, int]]:
    """Play masked uniform random actions until every agent is done; return (agent, action)."""
    rng = np.random.default_rng(seed)
    out: List[Tuple[str, int]] = []
    for agent in env.agent_iter(max_steps):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        a = int(rng.choice(legal))
        out.append((agent, a))
        env.step(a)
    return out


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pettingzoo_api_test(case: Tuple[str, Dict[str, Any]], engine: str) -> None:
    from pettingzoo.test import api_test

    name, params = case
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for text in DICT_OBS_WARNINGS:
            warnings.filterwarnings("ignore", message=text)
        # whole games (every game here ends within 400 actions), so the end and the dead
        # steps are checked too: one to its natural end, one truncated by max_turns
        api_test(_make(name, params, engine), num_cycles=1000)
        api_test(_make(name, params, engine, max_turns=3), num_cycles=1000)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pettingzoo_seed_test(case: Tuple[str, Dict[str, Any]], engine: str) -> None:
    from pettingzoo.test import seed_test

    name, params = case
    seed_test(lambda: _make(name, params, engine), num_cycles=10)


def test_import_mousehole_does_not_import_pettingzoo() -> None:
    code = "import sys, mousehole; print('pettingzoo' in sys.modules, 'gymnasium' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_missing_pettingzoo_says_how_to_install() -> None:
    code = (
        "import sys; sys.modules['pettingzoo'] = None\n"
        "try:\n    import mousehole.pettingzoo\n"
        "except ImportError as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "pip install 'mousehole[pettingzoo]'" in out.stdout


def test_spaces_and_metadata(engine: str) -> None:
    for name in mousehole.game_names():
        env = _mp().env(name, engine=engine, players=2)
        game = mousehole.load(name, engine=engine, players=2)
        assert env.possible_agents == ["player_0", "player_1"]
        for agent in env.possible_agents:
            assert env.action_space(agent).n == game.num_actions
            space = env.observation_space(agent)
            assert space["observation"].shape == tuple(game.observation_shape)
            assert space["observation"].dtype == np.float32
            assert space["action_mask"].shape == (game.num_actions,)
        assert env.metadata["name"] == f"mousehole_{name}_v0"
        assert env.metadata["render_modes"] == ["ansi"]
        assert env.metadata["is_parallelizable"] is False
        assert env.game.engine == engine


def _checked_episode(env: Any, seed: int) -> List[float]:
    """Play one masked random game, checking every step; return the game's returns."""
    env.reset(seed=seed)
    state = env.game_state
    rng = np.random.default_rng(seed + 1)
    n = env.game.num_players
    while not state.is_terminal():
        seat = state.current_player
        assert seat >= 0 and env.agent_selection == f"player_{seat}"
        for p, agent in enumerate(env.possible_agents):
            obs = env.observe(agent)
            assert obs["action_mask"].dtype == np.int8
            np.testing.assert_array_equal(obs["observation"], state.observation(p))
            if p == seat:
                np.testing.assert_array_equal(np.flatnonzero(obs["action_mask"]), state.legal_actions())
            else:
                assert not obs["action_mask"].any()
        assert all(r == 0 for r in env.rewards.values())
        _, cum, term, trunc, _ = env.last()
        assert (cum, term, trunc) == (0, False, False)
        legal = state.legal_actions()
        env.step(int(legal[rng.integers(len(legal))]))
    returns: List[float] = state.returns()
    assert env.rewards == {f"player_{p}": returns[p] for p in range(n)}
    done = []
    for _ in range(n):
        _, cum, term, trunc, _ = env.last()
        agent = env.agent_selection
        assert cum == returns[env.possible_agents.index(agent)]
        assert term and not trunc
        assert not env.observe(agent)["action_mask"].any()
        env.step(None)
        done.append(agent)
    assert env.agents == [] and sorted(done) == sorted(env.possible_agents)
    return returns


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_observations_masks_and_rewards_follow_the_game(case: Tuple[str, Dict[str, Any]],
                                                       engine: str) -> None:
    """At every step: the agent to act is the seat to move (never a chance node), each
    agent's observation is the game's, the mask is the legal actions for the agent to move
    and zeros for the others, rewards are 0; at the end, rewards are the game's returns
    (games are played until one has a winner and a loser, so a zero reward cannot pass)."""
    name, params = case
    env = _make(name, params, engine)
    for seed in range(3, 23):
        if any(r != 0 for r in _checked_episode(env, seed)):
            return
    raise AssertionError("20 random games all ended with every seat winning")


def test_truncation_by_max_turns(engine: str) -> None:
    for name in mousehole.game_names():
        env = _mp().env(name, engine=engine, players=2, max_turns=1)
        env.reset(seed=0)
        _play_live(env, seed=1)
        state = env.game_state
        assert state.truncated
        assert all(env.truncations.values()) and not any(env.terminations.values())
        assert env.rewards == {f"player_{p}": r for p, r in enumerate(state.returns())}


def _play_live(env: Any, seed: int) -> None:
    rng = np.random.default_rng(seed)
    while not env.game_state.is_terminal():
        legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
        env.step(int(rng.choice(legal)))


@pytest.mark.parametrize("name", ["cheese_rescue", "kasimir", "m", "maus_au_chocolat"])
def test_seeding_gives_identical_episodes(name: str, engine: str) -> None:
    e1, e2 = _mp().env(name, engine=engine), _mp().env(name, engine=engine)
    e1.reset(seed=11)
    e2.reset(seed=11)
    assert e1.game_state == e2.game_state == e1.game.new_state(11)
    assert _play(e1, 5) == _play(e2, 5)
    assert e1.game_state.history == e2.game_state.history
    # unseeded resets after a seeded one follow the environment's generator
    e1.reset()
    e2.reset()
    assert e1.game_state == e2.game_state
    e1.reset(seed=12)
    assert e1.game_state != e2.game_state


def test_chance_nodes_are_resolved_inside(engine: str) -> None:
    """Kater Kasimir with explicit chance: agents never see a chance node; the rolls come
    from the environment's generator, reproducibly, and use every face."""
    histories = []
    for seed in (1, 1, 2):
        env = _mp().env("kasimir", engine=engine, players=2, explicit_chance=True)
        env.reset(seed=seed)
        state = env.game_state
        rolls: List[int] = []
        while not state.is_terminal():
            assert state.current_player >= 0
            before = len(state.history)
            legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
            env.step(int(legal[0]))
            rolls.extend(state.history[before + 1:])
        faces = {a for a, _ in env.game.new_state(0).chance_outcomes()}
        assert rolls and set(rolls) <= faces
        histories.append(list(state.history))
    assert histories[0] == histories[1] != histories[2]
    assert len(set(histories[0]) & faces) == len(faces)


def test_chance_uses_the_outcome_probabilities(engine: str) -> None:
    """Rolls follow chance_outcomes(): about 1/6 per face over many reset rolls."""
    env = _mp().env("kasimir", engine=engine, players=2, explicit_chance=True)
    counts: Dict[int, int] = {}
    env.reset(seed=0)
    for _ in range(600):
        env.reset()
        roll = env.game_state.history[0]
        counts[roll] = counts.get(roll, 0) + 1
    outcomes = env.game.new_state(0).chance_outcomes()
    assert set(counts) == {a for a, _ in outcomes}
    for a, pr in outcomes:
        assert abs(counts[a] / 600 - pr) < 0.06


def test_maus_au_chocolat_bids_are_sequential_and_hidden(engine: str) -> None:
    """Seat 1's observation at its bid turn is the same whatever seat 0 bid."""
    env = _mp().env("maus_au_chocolat", engine=engine, players=3)
    env.reset(seed=7)
    assert env.agent_selection == "player_0"
    bids = np.flatnonzero(env.observe("player_0")["action_mask"])
    assert len(bids) > 1
    seen = []
    for bid in bids:
        env.reset(seed=7)
        env.step(int(bid))
        assert env.agent_selection == "player_1"
        seen.append({a: env.observe(a) for a in ("player_1", "player_2")})
    for other in seen[1:]:
        for agent in ("player_1", "player_2"):
            np.testing.assert_array_equal(other[agent]["observation"], seen[0][agent]["observation"])
            np.testing.assert_array_equal(other[agent]["action_mask"], seen[0][agent]["action_mask"])
    # while seat 0's own observation does show its bid
    env.reset(seed=7)
    env.step(int(bids[0]))
    a = env.observe("player_0")["observation"]
    env.reset(seed=7)
    env.step(int(bids[1]))
    assert not np.array_equal(a, env.observe("player_0")["observation"])


def test_bad_actions_raise_and_change_nothing(engine: str) -> None:
    env = _mp().env("cheese_rescue", engine=engine, players=2)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env.reset(seed=2)
    before = env.game_state.clone()
    agent = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    with pytest.raises(mousehole.IllegalMoveError, match=r"^CR-"):
        env.step(illegal)
    with pytest.raises(ValueError, match="outside the action space"):
        env.step(env.game.num_actions)
    with pytest.raises(ValueError, match="outside the action space"):
        env.step(-1)
    with pytest.raises(TypeError, match="not str"):
        env.step("1")
    with pytest.raises(TypeError, match="not float"):
        env.step(1.0)
    with pytest.raises(TypeError, match="not None"):
        env.step(None)
    with pytest.raises(ValueError, match="unknown agent"):
        env.observe("player_7")
    assert env.game_state == before and env.agent_selection == agent
    legal = int(np.flatnonzero(env.observe(agent)["action_mask"])[0])
    env.step(np.int32(legal))
    assert env.game_state.history == before.history + [legal]
    with pytest.raises(ValueError, match="render_mode"):
        _mp().env("m", render_mode="human")


def test_render(engine: str) -> None:
    for name in mousehole.game_names():
        env = _mp().env(name, render_mode="ansi", engine=engine)
        env.reset(seed=5)
        text = env.render()
        assert isinstance(text, str) and text == str(env.game_state) and text
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
        assert env.render() == str(env.game_state) != text
        quiet = _mp().env(name, engine=engine)
        quiet.reset(seed=5)
        with pytest.warns(UserWarning, match="render_mode"):
            assert quiet.render() is None


# -- max_cycles, illegal_action="random" and the parallel environment ------------------------

#: the configurations where the turn passes round the table one action per turn for at least
#: the first cycles (so PettingZoo's max_cycles_test, which counts actions per agent, applies)
ROTATING = [c for c in CASES if c[0] in ("cheese_rescue", "kasimir")]
ROT_IDS = [i for c, i in zip(CASES, IDS) if c[0] in ("cheese_rescue", "kasimir")]


def _module(name: str, params: Dict[str, Any], engine: str) -> Any:
    """A module-like object with ``env(max_cycles=...)`` and ``parallel_env(max_cycles=...)``,
    what ``max_cycles_test`` calls (it samples actions without the mask, hence "random")."""
    import functools
    import types

    return types.SimpleNamespace(
        env=functools.partial(_mp().env, name, engine=engine, illegal_action="random", **params),
        parallel_env=functools.partial(_mp().parallel_env, name, engine=engine, **params))


@pytest.mark.parametrize("case", ROTATING, ids=ROT_IDS)
def test_pettingzoo_max_cycles_test(case: Tuple[str, Dict[str, Any]], engine: str) -> None:
    from pettingzoo.test import max_cycles_test

    name, params = case
    for _ in range(3):  # the test resets without a seed: a few different games
        max_cycles_test(_module(name, params, engine))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pettingzoo_parallel_api_test(case: Tuple[str, Dict[str, Any]], engine: str) -> None:
    from pettingzoo.test import parallel_api_test

    name, params = case
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        parallel_api_test(_mp().parallel_env(name, engine=engine, **params), num_cycles=1000)
        parallel_api_test(_mp().parallel_env(name, engine=engine, max_turns=3, **params), num_cycles=1000)


def _cycle_ends(seats: List[int]) -> List[int]:
    """The documented rule: a cycle ends just before a seat would act a second time. Returns
    the number of actions played at the end of each completed cycle."""
    ends, acted = [], set()
    for k, p in enumerate(seats):
        if p in acted:
            ends.append(k)
            acted = set()
        acted.add(p)
    return ends


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_max_cycles_truncates_after_that_many_cycles(case: Tuple[str, Dict[str, Any]], engine: str) -> None:
    """For every game (rotating or not), the AEC environment stops exactly where the cycle
    rule says: the seats that acted, cut into cycles, give ``max_cycles`` whole cycles."""
    name, params = case
    free = _make(name, params, engine)
    for seed in range(3):
        c = 2 + seed
        env = _make(name, params, engine, max_cycles=c)
        env.reset(seed=seed)
        free.reset(seed=seed)
        rng = np.random.default_rng(seed)
        seats: List[int] = []
        while True:
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                break
            legal = np.flatnonzero(obs["action_mask"])
            a = int(rng.choice(legal))
            seats.append(env.game_state.current_player)
            env.step(a)
            free.step(a)
        state = env.game_state
        assert not state.is_terminal() and trunc and not term
        assert all(env.truncations.values()) and not any(env.terminations.values())
        assert all(r == 0 for r in env.rewards.values())
        seats.append(state.current_player)  # the turn the truncation cut off
        ends = _cycle_ends(seats)
        assert len(ends) >= c and ends[c - 1] == len(seats) - 1, (seats, ends)
        assert env.cycles == c
        assert free.game_state.to_dict() == state.to_dict()  # the same game, without the limit
        for _ in range(len(env.agents)):  # every agent leaves with its dead step
            env.step(None)
        assert env.agents == []


def test_illegal_action_random_plays_a_legal_action(engine: str) -> None:
    env = _make("cheese_rescue", {"players": 3}, engine, illegal_action="random")
    ref = _make("cheese_rescue", {"players": 3}, engine)
    env.reset(seed=4)
    ref.reset(seed=4)
    state = env.game_state
    legal = set(state.legal_actions().tolist())
    bad = next(a for a in range(env.game.num_actions) if a not in legal)
    agent = env.agent_selection
    env.step(bad)
    played = state.history[-1]
    assert played in legal and env.infos[agent] == {"illegal_action": True}
    ref.step(int(next(iter(sorted(legal)))))
    assert env.infos[env.agent_selection] == {}
    with pytest.raises(ValueError, match="outside the action space"):
        env.step(env.game.num_actions)
    with pytest.raises(mousehole.IllegalMoveError):
        ref.step(bad)
    with pytest.raises(ValueError, match="illegal_action"):
        _make("m", {"players": 2}, engine, illegal_action="lose")
    with pytest.raises(ValueError, match="max_cycles"):
        _make("m", {"players": 2}, engine, max_cycles=0)
    with pytest.raises(TypeError, match="max_cycles"):
        _mp().parallel_env("m", engine=engine, players=2, max_cycles="4")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_parallel_step_is_one_action_per_agent_in_cheese_rescue(players: int, engine: str) -> None:
    """Cheese Rescue passes the turn round the table: a parallel step plays every agent's
    action once, in seat order from the seat to move; a legal action is played as given."""
    penv = _mp().parallel_env("cheese_rescue", engine=engine, players=players)
    aec = _make("cheese_rescue", {"players": players}, engine)
    obs, infos = penv.reset(seed=9)
    aec.reset(seed=9)
    rng = np.random.default_rng(9)
    steps = 0
    while penv.agents:
        state = penv.game_state
        first = state.current_player
        assert penv.observation_space("player_0") is penv.observation_space("player_0")
        # the seat to move decides with its mask; the others act blind (their masks are 0)
        actions = {a: int(rng.integers(penv.game.num_actions)) for a in penv.agents}
        legal = np.flatnonzero(obs[f"player_{first}"]["action_mask"])
        actions[f"player_{first}"] = int(rng.choice(legal))
        n_before = len(state.history)
        obs, rew, term, trunc, infos = penv.step(actions)
        played = state.history[n_before:]
        order = [(first + k) % players for k in range(len(played))]
        assert played[0] == actions[f"player_{first}"]
        assert len(played) == players or state.is_terminal()
        for p, a in zip(order, played):
            agent = f"player_{p}"
            assert infos[agent]["acted"]
            assert infos[agent].get("illegal_action", False) == (a != actions[agent])
            aec.step(a)  # the AEC environment, given what was played, is in the same state
        assert aec.game_state.to_dict() == state.to_dict()
        steps += 1
    assert state.is_terminal() and all(term.values())
    assert rew == {f"player_{p}": r for p, r in enumerate(state.returns())}
    with pytest.raises(RuntimeError, match="reset"):
        penv.step({})
    penv.reset(seed=1)
    with pytest.raises(ValueError, match="missing"):
        penv.step({"player_0": 0})
