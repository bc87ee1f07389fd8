"""The Gymnasium environments (mousehole.gymnasium): Gymnasium's own checker, and the
environment's semantics (masks, observations, rewards, seeding, errors, rendering), on both
engines and every game. Needs Python 3.10+ (gymnasium); conftest deselects it below."""

from __future__ import annotations

import subprocess
import sys
import warnings
from typing import Any, Dict, List, Tuple

import numpy as np
import pytest

import mousehole
from gamecases import profile
from test_readings import small_params

if sys.version_info >= (3, 10):  # below, conftest deselects every test of this file
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    from mousehole.gymnasium import ENV_IDS, MouseholeEnv
else:  # pragma: no cover
    ENV_IDS = {}

GAMES = {game: env_id for env_id, game in ENV_IDS.items()}

#: (game, params) the semantic tests cover: two players, the largest table, explicit chance
SEMANTIC: List[Tuple[str, Dict[str, Any]]] = [
    ("cheese_rescue", {"players": 2}),
    ("cheese_rescue", {"players": 4}),
    ("m", {"players": 2}),
    ("m", {"players": 6}),
    ("kasimir", {"players": 2}),
    ("kasimir", {"players": 3, "explicit_chance": True}),
    ("maus_au_chocolat", {"players": 2}),
    ("maus_au_chocolat", {"players": 5}),
]
SEM_IDS = [g + "-" + "-".join(f"{k}={v}" for k, v in sorted(p.items())) for g, p in SEMANTIC]


def test_registered_ids_cover_every_game() -> None:
    assert sorted(GAMES) == mousehole.game_names()
    for env_id in ENV_IDS:
        assert env_id in gymnasium.registry


def test_import_mousehole_does_not_import_gymnasium() -> None:
    code = "import sys, mousehole; print('gymnasium' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_missing_gymnasium_says_how_to_install() -> None:
    code = (
        "import sys; sys.modules['gymnasium'] = None\n"
        "try:\n    import mousehole.gymnasium\nexcept ImportError as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "pip install 'gymnasium>=1.0' (the 'gymnasium' extra" in out.stdout
    assert "pip install --no-build-isolation '.[gymnasium]'" in out.stdout


@pytest.mark.parametrize("game", sorted(GAMES))
def test_gymnasium_check_env(game: str, engine: str) -> None:
    """Gymnasium's own checker, on the unwrapped env and on gymnasium.make's wrapped one.
    The checker steps with actions drawn from the whole action space (one of them drawn
    before a reset), so it runs with illegal_action="lose"."""
    for params in ({"players": 2}, {"players": 4}):
        env = gymnasium.make(GAMES[game], engine=engine, **params)  # default arguments
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            # (the render modes are checked by test_check_env_render_modes: the rgb_array
            # one needs the system cairo library, which the wheel runners lack)
            check_env(env.unwrapped, skip_render_check=True)
            check_env(env, skip_render_check=True)
        env.close()


@pytest.mark.png
@pytest.mark.parametrize("game", sorted(GAMES))
def test_check_env_render_modes(game: str, engine: str, capsys: Any) -> None:
    """Gymnasium's checker with its render checks: through the spec it makes the environment
    in each declared render mode, resets it and checks what ``render()`` returns (None for
    "human", a str for "ansi", an (H, W, 3) uint8 array for "rgb_array"); any warning of
    those checks fails the test."""
    env = gymnasium.make(GAMES[game], players=2, engine=engine)
    assert env.metadata["render_modes"] == ["human", "ansi", "rgb_array"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env)
    bad = [str(w.message) for w in caught if "render" in str(w.message).lower()]
    assert bad == []
    assert capsys.readouterr().out.strip()  # "human" printed the diagram


#: run in a child Python before ``import mousehole.gymnasium``: the render extra missing
#: (CairoSVG does not import), or the system cairo library missing (it does not load)
_NO_CAIRO = {
    "extra": "import sys; sys.modules['cairosvg'] = None\n",
    "library": (
        "import ctypes, ctypes.util\n"
        "_cdll, _find = ctypes.CDLL, ctypes.util.find_library\n"
        "def cdll(name, *a, **k):\n"
        "    if 'cairo' in str(name):\n"
        "        raise OSError(f'{name}: cannot open shared object file')\n"
        "    return _cdll(name, *a, **k)\n"
        "ctypes.CDLL = cdll\n"
        "ctypes.util.find_library = lambda name: None if 'cairo' in name else _find(name)\n"
    ),
}
_CHECK_WITHOUT_CAIRO = """
import warnings
import gymnasium
from gymnasium.utils.env_checker import check_env
import mousehole
import mousehole.gymnasium as mg
print(mg.MouseholeEnv.metadata["render_modes"])
for env_id in sorted(mg.ENV_IDS):
    for engine in mousehole.available_engines():
        env = gymnasium.make(env_id, players=2, engine=engine)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            check_env(env)  # with its render checks: each mode of metadata["render_modes"]
        bad = [str(w.message) for w in caught if "render" in str(w.message).lower()]
        assert bad == [], bad
print("check_env passed")
"""


@pytest.mark.parametrize("missing", sorted(_NO_CAIRO))
def test_check_env_without_cairo(missing: str) -> None:
    """Without the render extra, or without the system cairo library, the environments do not
    declare "rgb_array" (which they cannot draw) and Gymnasium's checker passes with its
    render checks, on every game and engine."""
    out = subprocess.run(
        [sys.executable, "-c", _NO_CAIRO[missing] + _CHECK_WITHOUT_CAIRO], capture_output=True, text=True, timeout=600
    )
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.splitlines()  # (the "human" mode prints its diagrams in between)
    assert lines[0] == "['human', 'ansi']" and lines[-1] == "check_env passed"


def test_declared_render_modes_match_what_draws() -> None:
    """Here, whatever is installed: "rgb_array" is declared exactly when CairoSVG imports and
    draws (the probe, which does not import it, agrees with the import)."""
    from mousehole import render
    from mousehole._extras import can_rasterize
    from mousehole.gymnasium import AVAILABLE_RENDER_MODES, RENDER_MODES

    try:
        img = render.rgb_array(mousehole.load("m", players=2).new_state(1))
        draws = img.ndim == 3
    except ImportError:
        draws = False
    assert can_rasterize() is draws
    assert MouseholeEnv.metadata["render_modes"] == list(AVAILABLE_RENDER_MODES)
    assert AVAILABLE_RENDER_MODES == (RENDER_MODES if draws else ("human", "ansi"))


def _masked_episode(env: MouseholeEnv, seed: int) -> List[Any]:
    """Play one episode with a masked uniform-random learner; check every step's data
    against the game state; return the trajectory."""
    obs, info = env.reset(seed=seed)
    env.action_space.seed(seed)
    trace: List[Any] = [obs.copy()]
    st = env.state
    assert st is not None
    while True:
        assert st.current_player == env.seat
        np.testing.assert_array_equal(info["action_mask"].astype(bool), st.legal_action_mask())
        assert info["action_mask"].dtype == np.int8
        np.testing.assert_array_equal(obs, st.observation(env.seat))
        assert obs in env.observation_space
        a = env.action_space.sample(mask=info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(a)
        trace.append((int(a), obs.copy(), reward, terminated, truncated))
        if terminated or truncated:
            assert st.is_terminal()
            assert truncated == st.truncated and terminated == (not st.truncated)
            assert reward == st.returns()[env.seat]
            assert not info["action_mask"].any()
            np.testing.assert_array_equal(obs, st.observation(env.seat))
            trace.append(list(st.history))
            return trace
        assert reward == 0.0
        assert not st.is_terminal()


@pytest.mark.parametrize("game,params", SEMANTIC, ids=SEM_IDS)
def test_episode_masks_observations_rewards(game: str, params: Dict[str, Any], engine: str) -> None:
    n = params["players"]
    rewards = set()
    for seat in sorted({0, n - 1}):
        env = MouseholeEnv(game, seat=seat, engine=engine, **params)
        for seed in range(3):
            trace = _masked_episode(env, seed)
            rewards.add(trace[-2][2])
    assert rewards <= {-1.0, 0.0, 1.0}


@pytest.mark.parametrize("game,params", SEMANTIC, ids=SEM_IDS)
def test_same_seed_same_episode(game: str, params: Dict[str, Any], engine: str) -> None:
    env = MouseholeEnv(game, seat=params["players"] - 1, engine=engine, **params)
    first = _masked_episode(env, 11)
    _masked_episode(env, 12)
    again = _masked_episode(env, 11)
    assert len(first) == len(again)
    np.testing.assert_array_equal(first[0], again[0])
    for x, y in zip(first[1:-1], again[1:-1]):
        assert x[0] == y[0] and x[2:] == y[2:]
        np.testing.assert_array_equal(x[1], y[1])
    assert first[-1] == again[-1]
    other = _masked_episode(MouseholeEnv(game, seat=params["players"] - 1, engine=engine, **params), 12)
    assert other[-1] != first[-1]


@pytest.mark.differential
@pytest.mark.parametrize("game", sorted(GAMES))
def test_engines_give_the_same_episode(game: str) -> None:
    a = _masked_episode(MouseholeEnv(game, engine="compiled", players=3), 5)
    b = _masked_episode(MouseholeEnv(game, engine="python", players=3), 5)
    assert a[-1] == b[-1]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_illegal_action_raises_and_leaves_state(game: str, engine: str) -> None:
    env = MouseholeEnv(game, engine=engine, players=2, illegal_action="raise")
    obs, info = env.reset(seed=3)
    st = env.state
    assert st is not None
    before = st.to_dict()
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(mousehole.IllegalMoveError, match=r"^[A-Z]+-\d+"):
        env.step(bad)
    assert st.to_dict() == before
    with pytest.raises(TypeError):
        env.step("north")
    assert st.to_dict() == before
    # the episode goes on after the error
    good = int(np.flatnonzero(info["action_mask"])[0])
    env.step(good)
    assert st.to_dict() != before


def test_illegal_action_lose_mode(engine: str) -> None:
    env = MouseholeEnv("m", engine=engine, players=2)  # the default: an illegal action loses
    obs, info = env.reset(seed=1)
    st = env.state
    assert st is not None
    before = st.to_dict()
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs2, reward, terminated, truncated, info2 = env.step(bad)
    assert (reward, terminated, truncated, info2["illegal_action"]) == (-1.0, True, False, True)
    assert not info2["action_mask"].any()
    assert st.to_dict() == before
    with pytest.raises(RuntimeError, match="reset"):
        env.step(int(np.flatnonzero(info["action_mask"])[0]))


def test_truncation_by_max_turns(engine: str) -> None:
    env = gymnasium.make("mousehole/M-v0", players=2, max_turns=4, engine=engine)
    obs, info = env.reset(seed=0)
    steps = 0
    while True:
        obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        steps += 1
        if terminated or truncated:
            break
    assert truncated and not terminated
    st = env.unwrapped.state
    assert st.truncated and reward == st.returns()[0]
    assert steps <= 4


def test_render_ansi_shows_the_learners_view(engine: str) -> None:
    """``render()`` draws what the learner's seat may see by default: the text of
    ``mousehole.render.text(state, for_player=seat)``, the same for every state with the same
    view of that seat (a determinized copy), and never another seat's hand;
    ``render_view="full"`` shows the whole position, ``str(state)``."""
    from mousehole import render

    env = gymnasium.make("mousehole/CheeseRescue-v0", players=2, seat=1, render_mode="ansi", engine=engine)
    full = gymnasium.make(
        "mousehole/CheeseRescue-v0", players=2, seat=1, render_mode="ansi", render_view="full", engine=engine
    )
    env.reset(seed=4)
    full.reset(seed=4)
    st = env.unwrapped.state
    assert st.to_dict() == full.unwrapped.state.to_dict()
    text = env.render()
    assert isinstance(text, str) and text == render.text(st, for_player=1)
    assert full.render() == str(st)
    assert text != str(st)  # the opponent's hand is hidden in the learner's view
    # determinized copies (the hidden cards re-dealt) render the same for the learner, while
    # the whole position changes with them
    changed = 0
    for s in range(8):
        other = st.determinize(1, seed=s)
        env.unwrapped.state = full.unwrapped.state = other
        assert env.render() == text
        changed += full.render() != str(st)
    assert changed >= 1
    quiet = MouseholeEnv("cheese_rescue", players=2, engine=engine)
    quiet.reset(seed=4)
    assert quiet.render() is None


@pytest.mark.parametrize("game", sorted(GAMES))
def test_render_hides_what_the_seat_cannot_see(game: str, engine: str) -> None:
    """For every game, at every learner decision of an episode, the default rendering is a
    function of the learner's view alone: a determinized copy of the state renders the same."""
    from mousehole import render

    env = MouseholeEnv(game, players=3, seat=2, render_mode="ansi", engine=engine)
    obs, info = env.reset(seed=8)
    st = env.state
    assert st is not None
    rng = np.random.default_rng(8)
    for t in range(12):
        text = env.render()
        assert text == render.text(st, for_player=2)
        env.state = st.determinize(2, seed=t)
        assert env.render() == text
        env.state = st
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if terminated or truncated:
            break


def test_render_human_prints(engine: str, capsys: Any) -> None:
    from mousehole import render

    env = MouseholeEnv("m", players=2, render_mode="human", engine=engine)
    obs, info = env.reset(seed=2)
    first = capsys.readouterr().out
    st = env.state
    assert st is not None
    assert first == render.text(st, for_player=0) + "\n"
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    second = capsys.readouterr().out
    assert second == render.text(st, for_player=0) + "\n" and second != first
    assert env.render() is None
    assert capsys.readouterr().out == second


@pytest.mark.png
def test_render_rgb_array(engine: str) -> None:
    """``"rgb_array"``: an (H, W, 3) uint8 picture of the learner's view (the same picture for
    a determinized state), the whole position with ``render_view="full"``."""
    from mousehole import render

    env = gymnasium.make("mousehole/MausAuChocolat-v0", players=3, render_mode="rgb_array", engine=engine)
    env.reset(seed=1)
    st = env.unwrapped.state
    img = env.render()
    assert isinstance(img, np.ndarray) and img.dtype == np.uint8
    assert img.ndim == 3 and img.shape[2] == 3 and img.shape[0] > 100 and img.shape[1] > 100
    np.testing.assert_array_equal(img, render.rgb_array(st, for_player=0))
    env.unwrapped.state = st.determinize(0, seed=3)
    np.testing.assert_array_equal(env.render(), img)
    full = MouseholeEnv("maus_au_chocolat", players=3, render_mode="rgb_array", render_view="full", engine=engine)
    full.reset(seed=1)
    assert full.state is not None and full.state.to_dict() == st.to_dict()
    whole = full.render()
    np.testing.assert_array_equal(whole, render.rgb_array(st))
    assert whole.shape != img.shape or (whole != img).any()


def test_rgb_array_without_the_render_extra(monkeypatch: Any) -> None:
    """Without CairoSVG the environment still builds in "rgb_array" mode (SB3's make_vec_env
    asks for it) and steps; ``render()`` raises an ImportError naming the extra."""
    import sys as _sys

    monkeypatch.setitem(_sys.modules, "cairosvg", None)
    env = gymnasium.make("mousehole/Kasimir-v0", players=2, render_mode="rgb_array")
    obs, info = env.reset(seed=0)
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    with pytest.raises(ImportError, match=r"pip install 'cairosvg>=2\.7' 'pillow>=9'"):
        env.render()


def test_render_arguments() -> None:
    with pytest.raises(ValueError, match="render_mode must be None, 'human', 'ansi' or 'rgb_array'"):
        MouseholeEnv("cheese_rescue", render_mode="rgb")
    with pytest.raises(ValueError, match="render_view must be 'seat'.*or 'full'"):
        MouseholeEnv("cheese_rescue", render_mode="ansi", render_view="all")
    with pytest.raises(RuntimeError, match=r"MouseholeEnv\.render\(\) was called before reset\(\)"):
        MouseholeEnv("cheese_rescue", render_mode="ansi").render()


def test_calls_before_reset_name_the_call() -> None:
    env = MouseholeEnv("kasimir", players=2)
    with pytest.raises(RuntimeError, match=r"MouseholeEnv\.action_masks\(\) was called before reset\(\)"):
        env.action_masks()
    with pytest.raises(RuntimeError, match=r"MouseholeEnv\.step\(\) was called before reset\(\)"):
        env.step(0)
    venv = gymnasium.make_vec("mousehole/Kasimir-v0", num_envs=2, vectorization_mode="vector_entry_point", players=2)
    with pytest.raises(RuntimeError, match=r"MouseholeVectorEnv\.action_masks\(\) was called before reset\(\)"):
        venv.unwrapped.action_masks()
    with pytest.raises(RuntimeError, match=r"MouseholeVectorEnv\.step\(\) was called before reset\(\)"):
        venv.step(np.zeros(2, dtype=np.int64))
    venv.reset(seed=0)
    assert venv.unwrapped.action_masks().shape == (2, venv.unwrapped.game.num_actions)


class Recorder:
    """An opponent that records the seats it is asked to play and plays the lowest action."""

    def __init__(self) -> None:
        self.seats: List[int] = []

    def step(self, state: Any) -> int:
        self.seats.append(int(state.current_player))
        return int(state.legal_actions()[0])


@pytest.mark.parametrize("game", sorted(GAMES))
def test_custom_opponents(game: str, engine: str) -> None:
    one = Recorder()
    env = MouseholeEnv(game, seat=1, opponents=one, players=3, engine=engine)
    _masked_episode(env, 2)
    assert one.seats and set(one.seats) <= {0, 2}
    per = [Recorder(), Recorder()]
    env = MouseholeEnv(game, seat=0, opponents=per, players=3, engine=engine)
    _masked_episode(env, 2)
    assert set(per[0].seats) == {1} and set(per[1].seats) == {2}


def test_bad_opponent_action_is_named(engine: str) -> None:
    class Cheat:
        def step(self, state: Any) -> int:
            return int(np.flatnonzero(~state.legal_action_mask())[0])

    env = MouseholeEnv("m", players=2, opponents=Cheat(), engine=engine)
    obs, info = env.reset(seed=0)
    with pytest.raises(mousehole.IllegalMoveError, match="opponent at seat 1"):
        env.step(int(np.flatnonzero(info["action_mask"])[0]))


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="seat"):
        MouseholeEnv("m", seat=2, players=2)
    with pytest.raises(ValueError, match="one per other seat"):
        MouseholeEnv("m", players=3, opponents=[Recorder()])
    with pytest.raises(TypeError, match="opponents"):
        MouseholeEnv("m", players=2, opponents=42)
    with pytest.raises(ValueError, match="illegal_action"):
        MouseholeEnv("m", illegal_action="ignore")
    with pytest.raises(mousehole.ParameterError):
        gymnasium.make("mousehole/Kasimir-v0", players=7)
    with pytest.raises(RuntimeError, match="reset"):
        MouseholeEnv("m").step(0)


def test_make_forwards_parameters(engine: str) -> None:
    env = gymnasium.make("mousehole/MausAuChocolat-v0", players=np.int64(3), seat=2, engine=engine)
    inner = env.unwrapped
    assert isinstance(inner, MouseholeEnv)
    assert inner.game == mousehole.load("maus_au_chocolat", players=3, engine=engine)
    assert inner.seat == 2
    assert env.observation_space.shape == inner.game.observation_shape
    assert env.observation_space.dtype == np.float32
    assert env.action_space.n == inner.game.num_actions


# -- the vector environment (MouseholeVectorEnv over VectorGame) -----------------------------


def _make_vec(game: str, num_envs: int, engine: str, **kw: Any) -> Any:
    return gymnasium.make_vec(
        GAMES[game], num_envs=num_envs, vectorization_mode="vector_entry_point", engine=engine, **kw
    )


@pytest.mark.parametrize("game,params", SEMANTIC, ids=SEM_IDS)
def test_vector_env_follows_the_reference_loop(game: str, params: Dict[str, Any], engine: str) -> None:
    """Through ``gymnasium.make_vec`` and Gymnasium's own ``RecordEpisodeStatistics`` vector
    wrapper: the batched spaces are ``batch_space`` of the single ones, every observation is in
    the space and equals the learner's observation in a plain loop of ordinary states with the
    documented seeds (tests/test_vector.py's reference), masks sample only legal actions,
    rewards are the learner's returns, final observations and episode statistics match."""
    from gymnasium.vector.utils import batch_space
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    from test_vector import RefEnv

    n, seat, seed = 3, params["players"] - 1, 17
    envs = RecordEpisodeStatistics(_make_vec(game, n, engine, seat=seat, **params))
    base = envs.unwrapped
    assert base.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    assert envs.observation_space == batch_space(base.single_observation_space, n)
    assert envs.action_space == batch_space(base.single_action_space, n)
    refs = [RefEnv(base.game, seed, i, [seat]) for i in range(n)]
    obs, info = envs.reset(seed=seed)
    envs.action_space.seed(seed)
    lengths = np.zeros(n, dtype=np.int64)
    finished = 0
    for _ in range(scale_steps(game)):
        assert envs.observation_space.contains(obs)
        for i, r in enumerate(refs):
            assert r.state.current_player == seat
            np.testing.assert_array_equal(obs[i], r.state.observation(seat))
            np.testing.assert_array_equal(np.flatnonzero(info["action_mask"][i]), r.state.legal_actions())
        actions = envs.action_space.sample(mask=tuple(info["action_mask"]))
        obs, rewards, term, trunc, info = envs.step(actions)
        lengths += 1
        for i, r in enumerate(refs):
            want = r.step(int(actions[i]))
            assert rewards[i] == want["reward"][seat]
            assert (term[i], trunc[i]) == (want["term"], want["trunc"])
            if want["final"] is not None:
                finished += 1
                assert info["_final_obs"][i]
                np.testing.assert_array_equal(info["final_obs"][i], want["final"])
                assert info["episode"]["r"][i] == want["reward"][seat]
                assert info["episode"]["l"][i] == lengths[i]
                lengths[i] = 0
            elif "final_obs" in info:
                assert info["final_obs"][i] is None and not info["_final_obs"][i]
    assert finished >= 1
    envs.close()


def scale_steps(game: str) -> int:
    """Steps enough for at least one whole game in some sub-environment."""
    return profile(game).episode_steps


def test_vector_env_same_seed_same_run(engine: str) -> None:
    from gymnasium.utils.env_checker import data_equivalence

    runs = []
    for _ in range(2):
        envs = _make_vec("kasimir", 4, engine, players=2, explicit_chance=True)
        envs.action_space.seed(3)
        out = [envs.reset(seed=5)]
        for _ in range(30):
            a = envs.action_space.sample(mask=tuple(out[-1][-1]["action_mask"]))
            res = envs.step(a)
            out.append(tuple(x.copy() if isinstance(x, np.ndarray) else x for x in res))
        out.append(envs.reset())  # unseeded: drawn from np_random, itself seeded by seed=5
        runs.append([tuple(x.copy() if isinstance(x, np.ndarray) else x for x in o) for o in out])
    assert data_equivalence(runs[0], runs[1], exact=True)


def test_vector_env_threads_and_errors(engine: str) -> None:
    a = _make_vec("m", 5, engine, players=3)
    b = _make_vec("m", 5, engine, players=3, threads=2)
    oa, ia = a.reset(seed=1)
    ob, ib = b.reset(seed=1)
    np.testing.assert_array_equal(oa, ob)
    before = oa.copy()
    legal = np.flatnonzero(ia["action_mask"][3])
    bad = np.array([int(np.flatnonzero(ia["action_mask"][i])[0]) for i in range(5)])
    bad[3] = next(x for x in range(a.unwrapped.game.num_actions) if x not in legal)
    with pytest.raises(mousehole.IllegalMoveError, match="env 3"):
        a.step(bad)
    np.testing.assert_array_equal(a.reset(seed=1)[0], before)
    with pytest.raises(ValueError, match="seat"):
        _make_vec("m", 2, engine, players=3, seat=3)
    with pytest.raises(ValueError, match="num_envs"):
        _make_vec("m", 0, engine, players=3)


# -- parity with Gymnasium's SyncVectorEnv ---------------------------------------------------


if sys.version_info >= (3, 10):

    class VectorSeededEnv(MouseholeEnv):
        """MouseholeEnv whose games and draws follow VectorGame's documented seeds for env
        ``index`` (docs/rl.md, "Seeds"; tests/test_vector.py's RefEnv): game ``k`` starts as
        ``new_state(derive(e, 2k))`` and the other seats and chance draw from
        ``Rng(derive(e, 2k + 1))``, ``e = derive(seed, index)``, skipping a game that ends
        before the learner moves. Everything else (step, info, rewards) is MouseholeEnv's own,
        so a SyncVectorEnv of these plays, step for step, the games MouseholeVectorEnv plays.
        SyncVectorEnv.reset(seed=s) gives sub-environment i the seed s + i."""

        def __init__(self, game_id: str, *, index: int, **kw: Any) -> None:
            super().__init__(game_id, **kw)
            self.index = index
            self._e = 0
            self._k = -1

        def reset(self, *, seed: Any = None, options: Any = None) -> Any:
            from mousehole._rng import Rng, derive

            if seed is not None:
                self._e, self._k = derive(seed - self.index, self.index), -1
            while True:
                self._k += 1
                self.state = self.game.new_state(seed=derive(self._e, 2 * self._k))
                self._rng = Rng(derive(self._e, 2 * self._k + 1))
                self._done = False
                self._advance()
                if not self.state.is_terminal():
                    return self._obs(), self._info()

        def _advance(self) -> None:
            from mousehole.vector import _chance_pick

            st = self.state
            assert st is not None
            while not st.is_terminal() and st.current_player != self.seat:
                if st.current_player == mousehole.CHANCE:
                    st.apply_action(_chance_pick(st.chance_outcomes(), self._rng))
                else:
                    legal = st.legal_actions()
                    st.apply_action(int(legal[self._rng.below(len(legal))]))


def _assert_same(a: Any, b: Any, path: str = "") -> None:
    """``a`` and ``b`` equal field for field: same types, dict keys, array dtypes and shapes."""
    assert type(a) is type(b), f"{path}: {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, dict):
        assert sorted(a) == sorted(b), f"{path}: keys {sorted(a)} != {sorted(b)}"
        for k in a:
            _assert_same(a[k], b[k], f"{path}[{k!r}]")
    elif isinstance(a, (tuple, list)):
        assert len(a) == len(b), f"{path}: length"
        for i, (x, y) in enumerate(zip(a, b)):
            _assert_same(x, y, f"{path}[{i}]")
    elif isinstance(a, np.ndarray):
        assert (a.dtype, a.shape) == (b.dtype, b.shape), f"{path}: {a.dtype}{a.shape} != {b.dtype}{b.shape}"
        if a.dtype == object:
            for i, (x, y) in enumerate(zip(a, b)):
                _assert_same(x, y, f"{path}[{i}]")
        else:
            np.testing.assert_array_equal(a, b, err_msg=path)
    else:
        assert a == b, f"{path}: {a!r} != {b!r}"


#: SEMANTIC, with M at 3 players instead of 6, and M truncated by max_turns (to keep time)
PARITY = [(g, p) for g, p in SEMANTIC if g != "m"] + [("m", {"players": 2}), ("m", {"players": 3, "max_turns": 24})]
PARITY_IDS = [g + "-" + "-".join(f"{k}={v}" for k, v in sorted(p.items())) for g, p in PARITY]


@pytest.mark.parametrize("game,params", PARITY, ids=PARITY_IDS)
def test_vector_env_matches_sync_vector_env(game: str, params: Dict[str, Any], engine: str) -> None:
    """MouseholeVectorEnv and Gymnasium's SyncVectorEnv (same-step autoreset) of MouseholeEnv,
    stepped side by side with the same seed and actions, return the same observations,
    rewards, terminations, truncations and infos, field for field: ``action_mask`` and its
    ``_action_mask``, and where a game ends ``final_obs``, ``final_info`` (the finished game's
    last info) and their masks. Runs until four games have ended."""
    from gymnasium.vector import AutoresetMode, SyncVectorEnv

    n, seat, seed = 3, params["players"] - 1, 23
    ours = _make_vec(game, n, engine, seat=seat, **params)
    sync = SyncVectorEnv(
        [lambda i=i: VectorSeededEnv(game, index=i, seat=seat, engine=engine, **params) for i in range(n)],
        autoreset_mode=AutoresetMode.SAME_STEP,
    )
    assert ours.metadata["autoreset_mode"] == sync.metadata["autoreset_mode"]
    assert ours.observation_space == sync.observation_space
    assert ours.action_space == sync.action_space
    a, b = ours.reset(seed=seed), sync.reset(seed=seed)
    _assert_same(a, b, "reset")
    ours.action_space.seed(seed)
    ended = truncated = 0
    for t in range(scale_steps(game)):
        actions = ours.action_space.sample(mask=tuple(a[-1]["action_mask"]))
        a, b = ours.step(actions), sync.step(actions.copy())
        _assert_same(a, b, f"step {t}")
        if "final_info" in a[-1]:
            ended += int(a[-1]["_final_info"].sum())
            truncated += int(a[3].sum())
            assert not a[-1]["final_info"]["action_mask"].any()
            if ended >= 4:
                break
    assert ended >= 1  # some game ended, so final_obs and final_info were compared
    assert truncated >= 1 or "max_turns" not in params
    ours.close()
    sync.close()


@pytest.mark.parametrize("game, params", small_params())
def test_readings_reach_the_environment(game: str, params: Dict[str, Any]) -> None:
    """Gymnasium's checker on an environment made with a reading, whose game has it (on the
    session's default engine: the readings' engines are compared in test_readings)."""
    engine = mousehole.default_engine()
    env = gymnasium.make(GAMES[game], engine=engine, **params)
    assert all(env.unwrapped.game.params[k] == v for k, v in params.items())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped, skip_render_check=True)
    env.close()
