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
from conftest import need
from gamecases import CASES, IDS, NAMES, profile
from test_readings import small_params


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
    assert "pip install 'pettingzoo>=1.25' (the 'pettingzoo' extra" in out.stdout
    assert "pip install --no-build-isolation '.[pettingzoo]'" in out.stdout


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
        assert env.metadata["render_modes"] == ["human", "ansi", "rgb_array"]
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
def test_observations_masks_and_rewards_follow_the_game(case: Tuple[str, Dict[str, Any]], engine: str) -> None:
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


@pytest.mark.parametrize("name", NAMES)
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
            rolls.extend(state.history[before + 1 :])
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
        _mp().env("m", render_mode="rgb")
    with pytest.raises(ValueError, match="render_view"):
        _mp().env("m", render_view="seat")
    with pytest.raises(ValueError, match="render_view"):
        _mp().parallel_env("m", players=3, render_view=3)
    with pytest.raises(TypeError, match="render_view"):
        _mp().env("m", render_view=1.0)


def test_render_shows_the_agent_to_act_by_default(engine: str, capsys: Any) -> None:
    """render() draws the view of the agent to act (nothing it may not see: the same text
    for two states that agent cannot tell apart), a chosen seat's view, or with
    render_view="full" the whole position; "human" prints the diagram and returns None."""
    from mousehole import render

    for name in mousehole.game_names():
        env = _mp().env(name, render_mode="ansi", engine=engine, players=3)
        env.reset(seed=5)
        state = env.game_state
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
        seat = state.current_player
        text = env.render()
        assert isinstance(text, str) and text == render.text(state, for_player=seat)
        assert env.game_state.to_dict() == state.to_dict()  # rendering changed nothing
        full = _mp().env(name, render_mode="ansi", engine=engine, players=3, render_view="full")
        full.reset(seed=5)
        full.step(state.history[0])
        assert full.render() == str(state)
        fixed = _mp().env(name, render_mode="ansi", engine=engine, players=3, render_view=2)
        fixed.reset(seed=5)
        assert fixed.render() == render.text(fixed.game_state, for_player=2)
        if not profile(name).perfect_information:  # hidden information: the agent's view differs from the whole
            assert text != str(state)
            other = state.determinize(seat, seed=99)
            assert other.to_dict() != state.to_dict()
            env._state = other  # a position the agent to act cannot tell from this one
            assert env.render() == text
        human = _mp().env(name, render_mode="human", engine=engine, players=3)
        capsys.readouterr()
        human.reset(seed=5)
        assert capsys.readouterr().out == render.text(human.game_state, for_player=0) + "\n"
        assert human.render() is None
        assert capsys.readouterr().out == render.text(human.game_state, for_player=0) + "\n"
        quiet = _mp().env(name, engine=engine)
        quiet.reset(seed=5)
        with pytest.warns(UserWarning, match="render_mode"):
            assert quiet.render() is None


@pytest.mark.png
def test_render_rgb_array(engine: str) -> None:
    """ "rgb_array" is the picture of mousehole.render.svg for the agent's view, H x W x 3 uint8."""
    from mousehole import render

    env = _mp().env("maus_au_chocolat", render_mode="rgb_array", engine=engine, players=2)
    env.reset(seed=3)
    img = env.render()
    assert isinstance(img, np.ndarray) and img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    np.testing.assert_array_equal(img, render.rgb_array(env.game_state, for_player=0))
    assert not np.array_equal(img, render.rgb_array(env.game_state))  # not the whole position
    penv = _mp().parallel_env("m", render_mode="rgb_array", engine=engine, players=2, render_view="full")
    penv.reset(seed=3)
    np.testing.assert_array_equal(penv.render(), render.rgb_array(penv.game_state))


def test_rgb_array_without_the_render_extra_names_it() -> None:
    code = (
        "import sys; sys.modules['cairosvg'] = None\n"
        "import mousehole.pettingzoo as mp\n"
        "env = mp.env('m', render_mode='rgb_array', players=2); env.reset(seed=1)\n"
        "try:\n    env.render()\n"
        "except ImportError as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "pip install 'cairosvg>=2.7' 'pillow>=9' (the 'render' extra" in out.stdout


@pytest.mark.parametrize("name", NAMES)
def test_pettingzoo_render_test(name: str, engine: str) -> None:
    """PettingZoo's render_test, called as its own code calls it (``env_fn(render_mode=...)``
    for "human" and then each of ``metadata["render_modes"]``), on the AEC environment and on
    the parallel one converted by ``parallel_to_aec``."""
    from pettingzoo.test import render_test
    from pettingzoo.utils.conversions import parallel_to_aec

    if "rgb_array" in _mp().RENDER_MODES:
        need("png")  # (skipped, or failed where MOUSEHOLE_REQUIRE names png, without cairo)
    render_test(lambda render_mode=None: _mp().env(name, render_mode=render_mode, engine=engine, players=2))
    if profile(name).simultaneous_choices:  # (simultaneous bids) several agents to act in one step
        render_test(
            lambda render_mode=None: parallel_to_aec(
                _mp().parallel_env(name, render_mode=render_mode, engine=engine, players=3)
            )
        )


# -- max_cycles, illegal_action="random" and the parallel environment ------------------------

#: the configurations where the turn passes round the table one action per turn for at least
#: the first cycles (so PettingZoo's max_cycles_test, which counts actions per agent, applies)
ROTATING = [c for c in CASES if profile(c[0]).rotating_turns]
ROT_IDS = [i for c, i in zip(CASES, IDS) if profile(c[0]).rotating_turns]


def _module(name: str, params: Dict[str, Any], engine: str) -> Any:
    """A module-like object with ``env(max_cycles=...)`` and ``parallel_env(max_cycles=...)``,
    what ``max_cycles_test`` calls (it samples actions without the mask, hence the explicit
    opt-in ``illegal_action="random"``)."""
    import functools
    import types

    return types.SimpleNamespace(
        env=functools.partial(_mp().env, name, engine=engine, illegal_action="random", **params),
        parallel_env=functools.partial(_mp().parallel_env, name, engine=engine, illegal_action="random", **params),
    )


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


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pettingzoo_parallel_seed_test(case: Tuple[str, Dict[str, Any]], engine: str) -> None:
    """parallel_seed_test samples every action without the mask: with the explicit opt-in
    illegal_action="random" the substitutions themselves come from the seeded generator."""
    from pettingzoo.test import parallel_seed_test

    name, params = case
    parallel_seed_test(
        lambda: _mp().parallel_env(name, engine=engine, illegal_action="random", **params), num_cycles=10
    )


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
    with pytest.raises(ValueError, match="illegal_action must be 'raise', 'lose' or 'random'"):
        _make("m", {"players": 2}, engine, illegal_action="forfeit")
    with pytest.raises(ValueError, match="max_cycles"):
        _make("m", {"players": 2}, engine, max_cycles=0)
    with pytest.raises(TypeError, match="max_cycles"):
        _mp().parallel_env("m", engine=engine, players=2, max_cycles="4")


# -- the parallel environment: only pending decisions, never a substitution -------------------


def _masked_choice(rng: Any, obs: Dict[str, Any], agents: List[str]) -> Dict[str, Any]:
    """A masked random action for each agent with a decision; garbage for the others
    (which the environment must ignore)."""
    junk: List[Any] = [None, "x", -5, 10**9, 1.5, 0]
    out: Dict[str, Any] = {}
    for a in agents:
        legal = np.flatnonzero(obs[a]["action_mask"])
        out[a] = int(rng.choice(legal)) if len(legal) else junk[int(rng.integers(len(junk)))]
    return out


def _is_bid_phase(state: Any) -> bool:
    return state.game.name == "maus_au_chocolat" and state.to_dict()["phase"] == "bid"


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_parallel_step_applies_exactly_the_chosen_actions(case: Tuple[str, Dict[str, Any]], engine: str) -> None:
    """Every step: the agents with a pending decision are exactly those with a non-zero mask
    and ``to_act``; outside a Maus au Chocolat bid phase that is the seat to move alone, in a
    bid phase every seat still to bid, each with the exact mask of its own turn. The step
    applies exactly their actions (read back from the game's history: who played what),
    ignores the others' (junk included), and the game ends with the returns as rewards."""
    name, params = case
    penv = _mp().parallel_env(name, engine=engine, **params)
    aec = _make(name, params, engine)
    for seed in range(2):
        obs, infos = penv.reset(seed=seed)
        aec.reset(seed=seed)
        state = penv.game_state
        rng = np.random.default_rng(seed)
        waiting: Dict[int, int] = {}
        simultaneous = 0
        while penv.agents:
            pending = [a for a in penv.agents if obs[a]["action_mask"].any()]
            assert pending == penv.pending_agents == [a for a in penv.agents if infos[a]["to_act"]]
            seats = [int(a.split("_")[1]) for a in pending]
            if _is_bid_phase(state):
                n = state.game.num_players
                assert seats == [q for q in range(state.current_player, n) if q not in waiting]
                simultaneous += len(seats) > 1
            else:
                assert seats == [state.current_player] and not waiting
            actions = _masked_choice(rng, obs, penv.agents)
            masks = {int(a.split("_")[1]): obs[a]["action_mask"].copy() for a in pending}
            chosen = {int(a.split("_")[1]): actions[a] for a in pending}
            waiting.update(chosen)
            before, n0 = state.clone(), len(state.history)
            obs, rew, term, trunc, infos = penv.step(actions)
            acted = set()
            for x in state.history[n0:]:
                p = before.current_player
                if p >= 0:
                    assert waiting.pop(p) == x  # the agent's own choice, nothing else
                    if p in masks:
                        np.testing.assert_array_equal(masks[p].astype(bool), before.legal_action_mask())
                    acted.add(p)
                before.apply_action(x)
                aec_agent = aec.agent_selection
                if p >= 0:
                    assert aec_agent == f"player_{p}"
                    aec.step(x)
            assert acted and all(infos[f"player_{p}"]["acted"] == (p in acted) for p in range(len(infos)))
            assert not any(i.get("illegal_action") for i in infos.values())
            assert aec.game_state.to_dict() == state.to_dict()  # the AEC env, given the same, agrees
        assert not waiting and state.is_terminal()
        assert rew == {f"player_{p}": r for p, r in enumerate(state.returns())}
        assert all(term.values()) != state.truncated and all(trunc.values()) == state.truncated
        if profile(name).simultaneous_choices:
            assert simultaneous > 0
    with pytest.raises(RuntimeError, match="reset"):
        penv.step({})


def _etienne_swap_position(engine: str, players: int) -> Tuple[Any, int, Dict[str, Any]]:
    """A seeded Maus au Chocolat parallel env at a bid step where Etienne's holder, not the
    last seat, may swap; returns (env, holder seat, observations)."""
    for seed in range(200):
        penv = _mp().parallel_env("maus_au_chocolat", engine=engine, players=players)
        obs, _ = penv.reset(seed=seed)
        helpers = penv.game_state.to_dict()["helpers"]
        if 0 not in helpers:  # helper 0 is Etienne
            continue
        h = helpers.index(0)
        if h < players - 1 and obs[f"player_{h}"]["action_mask"][240:320].any():
            return penv, h, obs
    raise AssertionError("no seed gives Etienne to a seat that can swap")


@pytest.mark.parametrize("players", [3, 4])
def test_parallel_bids_wait_behind_etienne_swap(players: int, engine: str) -> None:
    """Etienne's holder swaps (MC-16, before bidding) in the simultaneous bid step: the seats
    before him commit, the seats after him have chosen and wait (no mask, not asked again),
    he alone is asked for his bid next, and then every waiting bid is played as chosen."""
    penv, h, obs = _etienne_swap_position(engine, players)
    state = penv.game_state
    assert penv.pending_agents == [f"player_{q}" for q in range(players)]
    actions = {a: int(np.flatnonzero(obs[a]["action_mask"][:80])[0]) for a in penv.agents}
    swap = 240 + int(np.flatnonzero(obs[f"player_{h}"]["action_mask"][240:320])[0])
    actions[f"player_{h}"] = swap
    n0 = len(state.history)
    obs, _, _, _, infos = penv.step(actions)
    assert state.history[n0:] == [actions[f"player_{q}"] for q in range(h)] + [swap]
    assert [infos[f"player_{q}"]["acted"] for q in range(players)] == [q <= h for q in range(players)]
    assert penv.pending_agents == [f"player_{h}"]
    assert [infos[f"player_{q}"]["to_act"] for q in range(players)] == [q == h for q in range(players)]
    assert not obs[f"player_{h}"]["action_mask"][240:320].any()  # the swap is used
    bid = int(np.flatnonzero(obs[f"player_{h}"]["action_mask"])[0])
    n1 = len(state.history)
    obs, _, _, _, infos = penv.step({f"player_{h}": bid})  # the others may be left out
    assert state.history[n1:] == [bid] + [actions[f"player_{q}"] for q in range(h + 1, players)]
    assert [infos[f"player_{q}"]["acted"] for q in range(players)] == [q >= h for q in range(players)]
    assert not _is_bid_phase(state)


def test_parallel_rejects_bad_actions_and_changes_nothing(engine: str) -> None:
    """By default nothing is replaced: an action outside a pending agent's mask raises
    IllegalMoveError with the rule's message, as do wrong types and ranges, before anything
    is applied; "random" (explicit) replaces it and says so."""
    penv = _mp().parallel_env("maus_au_chocolat", engine=engine, players=3)
    obs, _ = penv.reset(seed=4)
    state = penv.game_state
    before = state.to_dict()
    good = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in penv.agents}
    bad = dict(good, player_2=int(np.flatnonzero(obs["player_2"]["action_mask"] == 0)[0]))
    with pytest.raises(mousehole.IllegalMoveError, match=r"^MC-.*player_2's action \d+ is not in its action mask"):
        penv.step(bad)
    with pytest.raises(ValueError, match="outside the action space"):
        penv.step(dict(good, player_1=penv.game.num_actions))
    with pytest.raises(TypeError, match="player_0 has a pending decision"):
        penv.step(dict(good, player_0=None))
    with pytest.raises(ValueError, match="missing: player_1"):
        penv.step({"player_0": good["player_0"], "player_2": good["player_2"]})
    with pytest.raises(ValueError, match="not live"):
        penv.step(dict(good, player_9=0))
    with pytest.raises(TypeError, match="dict"):
        penv.step([0, 0, 0])
    assert state.to_dict() == before and penv.steps == 0
    cr = _mp().parallel_env("cheese_rescue", engine=engine, players=2)
    obs, _ = cr.reset(seed=2)
    illegal = int(np.flatnonzero(obs["player_0"]["action_mask"] == 0)[0])
    with pytest.raises(mousehole.IllegalMoveError, match=r"^CR-"):
        cr.step({"player_0": illegal, "player_1": 0})
    lenient = _mp().parallel_env("cheese_rescue", engine=engine, players=2, illegal_action="random")
    obs, _ = lenient.reset(seed=2)
    _, _, _, _, infos = lenient.step({"player_0": illegal, "player_1": illegal})
    played = lenient.game_state.history[-1]
    assert played != illegal and obs["player_0"]["action_mask"][played]
    assert infos["player_0"]["illegal_action"] is True and "illegal_action" not in infos["player_1"]
    assert infos["player_0"]["acted"] and not infos["player_1"]["acted"]


def test_parallel_max_cycles_counts_steps(engine: str) -> None:
    """max_cycles=c truncates the parallel game after c steps, unfinished, reward 0."""
    for name in mousehole.game_names():
        penv = _mp().parallel_env(name, engine=engine, players=3, max_cycles=7)
        obs, _ = penv.reset(seed=1)
        rng = np.random.default_rng(1)
        steps = 0
        while penv.agents:
            obs, rew, term, trunc, _ = penv.step(_masked_choice(rng, obs, penv.agents))
            steps += 1
        assert steps == 7 == penv.steps and all(trunc.values()) and not any(term.values())
        assert set(rew.values()) == {0.0} and not penv.game_state.is_terminal()


def test_conversions_keep_the_guarantee(engine: str) -> None:
    """PettingZoo's conversions: aec_to_parallel refuses the AEC env (turns are not cycles:
    is_parallelizable is False); turn_based_aec_to_parallel applies only the selected agent's
    action and raises on an illegal one (the AEC default); parallel_to_aec passes api_test,
    and an AEC loop over it with masked actions plays exactly the chosen actions; converting
    back gives the same parallel env."""
    from pettingzoo.test import api_test
    from pettingzoo.utils.conversions import aec_to_parallel, parallel_to_aec, turn_based_aec_to_parallel

    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(_mp().env("m", engine=engine, players=2))

    tb = turn_based_aec_to_parallel(_mp().env("kasimir", engine=engine, players=3))
    obs, _ = tb.reset(seed=3)
    state = tb.unwrapped.game_state
    rng = np.random.default_rng(3)
    while tb.agents:
        to_move = tb.unwrapped.agent_selection
        actions = _masked_choice(rng, obs, tb.agents)
        n0 = len(state.history)
        obs, *_ = tb.step(actions)
        assert state.history[n0] == actions[to_move]
    tb.reset(seed=3)
    to_move = tb.unwrapped.agent_selection
    illegal = int(np.flatnonzero(tb.unwrapped.observe(to_move)["action_mask"] == 0)[0])
    with pytest.raises(mousehole.IllegalMoveError):
        tb.step({a: illegal for a in tb.agents})

    penv = _mp().parallel_env("maus_au_chocolat", engine=engine, players=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for text in DICT_OBS_WARNINGS:
            warnings.filterwarnings("ignore", message=text)
        api_test(parallel_to_aec(penv), num_cycles=1000)
    aec = parallel_to_aec(penv)
    assert aec_to_parallel(aec) is penv
    aec.reset(seed=8)
    state = penv.game_state
    rng = np.random.default_rng(8)
    chosen: Dict[int, int] = {}
    played: List[int] = []
    replay = state.clone()
    for agent in aec.agent_iter(5000):
        obs, _, term, trunc, _ = aec.last()
        if term or trunc:
            aec.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        a = int(rng.choice(legal)) if len(legal) else 0
        if len(legal):
            chosen[int(agent.split("_")[1])] = a
        n0 = len(state.history)
        aec.step(a)
        for x in state.history[n0:]:
            assert chosen.pop(replay.current_player) == x
            replay.apply_action(x)
            played.append(x)
    assert state.is_terminal() and played == state.history and not chosen


@pytest.mark.parametrize("name, params", small_params())
def test_readings_pass_pettingzoo_api_test(name: str, params: Dict[str, Any]) -> None:
    """PettingZoo's own api_test on environments made with a reading (whole games; on the
    session's default engine: the readings' engines are compared in test_readings)."""
    engine = mousehole.default_engine()
    from pettingzoo.test import api_test

    env = _make(name, params, engine)
    assert all(env.unwrapped.game.params[k] == v for k, v in params.items())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for text in DICT_OBS_WARNINGS:
            warnings.filterwarnings("ignore", message=text)
        api_test(env, num_cycles=1000)


# -- illegal_action="lose" and render(mode): the checkers and wrappers of other trainers -------


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_illegal_action_lose_ends_the_episode(case: Tuple[str, Dict[str, Any]], engine: str) -> None:
    """AEC, ``illegal_action="lose"``: an action outside the mask ends the episode (-1 for the
    agent that chose it, 0 for every other agent, all terminated with an all-zero mask, the
    chooser's info flagged) and leaves the game state as it was; each agent then steps None
    and leaves. Legal actions play exactly as under the default; an int outside the action
    space still raises."""
    name, params = case
    env = _make(name, params, engine, illegal_action="lose")
    ref = _make(name, params, engine)
    env.reset(seed=3)
    ref.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(4):  # a few legal actions first: the same game as under "raise"
        a = int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])))
        env.step(a)
        ref.step(a)
    assert env.game_state.history == ref.game_state.history and env.rewards == ref.rewards
    with pytest.raises(ValueError, match="outside the action space"):
        env.step(env.game.num_actions)
    agent = env.agent_selection
    state = env.game_state
    before = state.to_dict()
    bad = int(np.flatnonzero(~state.legal_action_mask())[0])
    env.step(bad)
    assert state.to_dict() == before and not state.is_terminal()
    assert env.rewards == {a: (-1.0 if a == agent else 0.0) for a in env.possible_agents}
    assert env.infos == {a: ({"illegal_action": True} if a == agent else {}) for a in env.possible_agents}
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert not any(env.observe(a)["action_mask"].any() for a in env.possible_agents)
    finals = {}
    for a in env.agent_iter(len(env.possible_agents) + 1):
        _, reward, term, trunc, _ = env.last()
        assert term and not trunc
        finals[a] = reward
        env.step(None)
    assert finals == {a: (-1.0 if a == agent else 0.0) for a in env.possible_agents}
    assert env.agents == []
    env.reset(seed=3)  # a new episode starts afresh
    assert env.observe(env.agent_selection)["action_mask"].any() and not any(env.terminations.values())


def test_parallel_illegal_action_lose_ends_the_episode(engine: str) -> None:
    """Parallel, ``illegal_action="lose"``: nothing of the step is applied (not even the legal
    bids); -1 for every agent whose action was outside its mask, 0 for the others, all
    terminated with all-zero masks; then the game is over for the environment."""
    penv = _mp().parallel_env("maus_au_chocolat", engine=engine, players=3, illegal_action="lose")
    for offenders in (["player_2"], ["player_0", "player_1"]):
        obs, _ = penv.reset(seed=4)
        state = penv.game_state
        assert penv.pending_agents == ["player_0", "player_1", "player_2"]  # a bid phase
        before = state.to_dict()
        actions = {a: int(np.flatnonzero(obs[a]["action_mask"] == (a not in offenders))[0]) for a in penv.agents}
        obs, rewards, terms, truncs, infos = penv.step(actions)
        assert state.to_dict() == before
        assert rewards == {a: (-1.0 if a in offenders else 0.0) for a in penv.possible_agents}
        assert all(terms.values()) and not any(truncs.values())
        for a in penv.possible_agents:
            assert infos[a].get("illegal_action", False) == (a in offenders)
            assert infos[a]["acted"] is False and infos[a]["to_act"] is False
            assert not obs[a]["action_mask"].any()
        assert penv.agents == [] and penv.pending_agents == []
        with pytest.raises(RuntimeError, match="reset"):
            penv.step(actions)
    lenient = _mp().parallel_env("cheese_rescue", engine=engine, players=2, illegal_action="lose")
    strict = _mp().parallel_env("cheese_rescue", engine=engine, players=2)
    rng = np.random.default_rng(0)
    obs, _ = lenient.reset(seed=9)
    strict.reset(seed=9)
    while lenient.agents:  # with legal actions, "lose" plays exactly as the default
        actions = {
            a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in obs.items() if o["action_mask"].any()
        }
        obs, rewards, terms, truncs, infos = lenient.step(actions)
        assert strict.step(actions)[1:] == (rewards, terms, truncs, infos)
    assert lenient.game_state.history == strict.game_state.history and lenient.game_state.is_terminal()


def test_render_takes_a_mode_argument(engine: str) -> None:
    """``render(mode)``: None is ``render()`` in ``render_mode`` (RLlib's PettingZoo wrappers
    call ``render(self.render_mode)``, None), a mode draws once in that mode, anything else
    raises ValueError naming the argument."""
    from mousehole import render

    for make in (_mp().env, _mp().parallel_env):
        shown = make("kasimir", render_mode="ansi", engine=engine, players=2)
        shown.reset(seed=1)
        text = render.text(shown.game_state, for_player=0)
        assert shown.render(None) == shown.render() == shown.render("ansi") == text
        quiet = make("kasimir", engine=engine, players=2)
        quiet.reset(seed=1)
        assert quiet.render("ansi") == text
        for bad in ("video", 1, ["ansi"]):
            with pytest.raises(ValueError, match=r"render\(mode\)"):
                quiet.render(bad)
        with pytest.warns(UserWarning, match="render_mode"):
            assert quiet.render(None) is None
