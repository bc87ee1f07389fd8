"""``mousehole.vector.VectorGame``: held, at every step, to a plain Python loop of ordinary
states driven with the documented seeds (observations, rewards, terminations, truncations,
masks, seat to move, game index, final observations), for every game configuration, on both
engines (the compiled backend and the pure-Python one), across several automatic restarts;
identical for any number of threads and any number of envs; bad input rejected with nothing
changed."""

from __future__ import annotations

import os
import time
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np
import numpy.typing as npt
import pytest

import mousehole
from gamecases import CASES, IDS, profile, scale
from mousehole._api import CHANCE
from mousehole._rng import Rng, derive
from mousehole.vector import RANDOM, VectorGame, _chance_pick

# --------------------------------------------------------------------------------------
# the reference: ordinary states, the seeds and draws of the docstring, written out again


def _pick_chance(outcomes: List[Tuple[int, float]], rng: Rng) -> int:
    probs = [p for _, p in outcomes]
    if len(set(probs)) == 1:
        return outcomes[rng.below(len(outcomes))][0]
    u = (rng.next64() >> 11) / 2.0**53
    acc = 0.0
    for a, p in outcomes:
        acc += p
        if u < acc:
            return a
    return outcomes[-1][0]


class RefEnv:
    """One env: game k is new_state(derive(e, 2k)), its draws from Rng(derive(e, 2k + 1))."""

    def __init__(self, game: Any, seed: int, i: int, seats: Sequence[int]) -> None:
        self.game, self.e, self.seats = game, derive(seed, i), set(seats)
        self.k = -1
        self.next_game()

    def next_game(self) -> None:
        while True:
            self.k += 1
            self.state = self.game.new_state(derive(self.e, 2 * self.k))
            self.rng = Rng(derive(self.e, 2 * self.k + 1))
            self.advance()
            if not self.state.is_terminal():
                return

    def advance(self) -> None:
        st = self.state
        while not st.is_terminal():
            cp = st.current_player
            if cp == CHANCE:
                st.apply_action(_pick_chance(st.chance_outcomes(), self.rng))
            elif cp in self.seats:
                return
            else:
                legal = st.legal_actions()
                st.apply_action(int(legal[self.rng.below(len(legal))]))

    def step(self, a: int) -> Dict[str, Any]:
        st = self.state
        seat = st.current_player
        if a == RANDOM:
            legal = st.legal_actions()
            a = int(legal[self.rng.below(len(legal))])
        st.apply_action(a)
        self.advance()
        out: Dict[str, Any] = {"reward": [0.0] * self.game.num_players, "term": False, "trunc": False, "final": None}
        if st.is_terminal():
            out["reward"] = st.returns()
            out["trunc"] = bool(st.truncated)
            out["term"] = not out["trunc"]
            out["final"] = st.observation(seat)
            self.next_game()
        return out


def _check_env(vg: VectorGame, i: int, ref: RefEnv, observe: bool = True) -> None:
    st = ref.state
    assert vg.current_player[i] == st.current_player
    assert vg.game_index[i] == ref.k
    np.testing.assert_array_equal(vg.legal_actions(i), st.legal_actions())
    if observe:
        np.testing.assert_array_equal(vg.action_mask[i], st.legal_action_mask())
        obs = st.observation(st.current_player)
        assert vg.observations[i].tobytes() == obs.tobytes(), f"env {i}: observation"


def _choose(rng: np.random.Generator, refs: List[RefEnv]) -> np.ndarray:
    """Half RANDOM, half a legal action chosen here (so both paths are exercised)."""
    out = []
    for r in refs:
        if rng.random() < 0.5:
            out.append(RANDOM)
        else:
            legal = r.state.legal_actions()
            out.append(int(legal[rng.integers(len(legal))]))
    return np.array(out, dtype=np.int64)


def _run_against_reference(
    game: Any, n: int, seed: int, seats: Optional[Sequence[int]], threads: int, min_games: int, max_steps: int
) -> int:
    vg = VectorGame(game, n, seed, threads=threads, seats=seats)
    chosen = list(range(game.num_players)) if seats is None else list(seats)
    refs = [RefEnv(game, seed, i, chosen) for i in range(n)]
    obs, info = vg.reset()
    assert obs is vg.observations and info["action_mask"] is vg.action_mask
    for i, r in enumerate(refs):
        _check_env(vg, i, r)
        assert vg.current_player[i] in chosen
    rng = np.random.default_rng(seed)
    ends = 0
    for t in range(max_steps):
        actions = _choose(rng, refs)
        res = vg.step(actions)
        assert res[0] is vg.observations and res[1] is vg.rewards and res[5] is vg.action_mask
        for i, r in enumerate(refs):
            want = r.step(int(actions[i]))
            assert vg.rewards[i].tolist() == want["reward"], (t, i)
            assert (bool(vg.terminated[i]), bool(vg.truncated[i])) == (want["term"], want["trunc"]), (t, i)
            if want["final"] is not None:
                ends += 1
                assert vg.final_observations[i].tobytes() == want["final"].tobytes(), (t, i)
            _check_env(vg, i, r)
        if min(r.k for r in refs) >= min_games:
            break
    assert min(r.k for r in refs) >= min_games, "not enough restarts: raise max_steps"
    return ends


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_vector_game_follows_the_reference_loop(case: Any, engine: str) -> None:
    """Every array at every step, across several restarts, games truncated by max_turns."""
    name, params = case
    game = mousehole.load(name, engine=engine, **dict(params, max_turns=profile(name).short_max_turns))
    ends = _run_against_reference(game, 3, 11, None, 1, scale(3), 2000)
    assert ends >= 3


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_vector_game_whole_games_and_opponent_seats(case: Any, engine: str) -> None:
    """Whole games (ended by the rules), one seat stepped by the caller, the others played
    by the envs' own generators."""
    name, params = case
    game = mousehole.load(name, engine=engine, **params)
    _run_against_reference(game, 2, 5, [game.num_players - 1], 1, 1, 5000)


def test_truncation_and_termination_are_both_reported(engine: str) -> None:
    game = mousehole.load("cheese_rescue", engine=engine, players=2, max_turns=4)
    vg = VectorGame(game, 4, 3)
    vg.reset()
    seen_trunc = 0
    for _ in range(12):
        _, rew, term, trunc, _, _ = vg.step(np.full(4, RANDOM))
        assert not (term & trunc).any()
        seen_trunc += int(trunc.sum())
        assert not term.any()  # 4 placements never end a 2-player game by the rules (CR-11)
    assert seen_trunc >= 8
    game = mousehole.load("kasimir", engine=engine, players=2)
    vg = VectorGame(game, 2, 3)
    vg.reset()
    done = 0
    while done < 2:
        _, rew, term, trunc, _, _ = vg.step(np.full(2, RANDOM))
        assert not trunc.any()
        done += int(term.sum())
        for i in np.flatnonzero(term):
            assert sorted(rew[i].tolist()) in ([-1.0, 1.0], [0.0, 0.0])


@pytest.mark.differential
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_threads_and_num_envs_do_not_change_results(case: Any) -> None:
    """400 envs on 1, 2 and 3 threads (blocks of at least 128 envs: 1, 2 and 3 blocks used),
    the first 3 envs alone, and the first 7 on the pure-Python backend: the same arrays."""
    name, params = case
    short = dict(params, max_turns=profile(name).short_max_turns)
    game = mousehole.load(name, engine="compiled", **short)
    n = 400
    runs = [VectorGame(game, n, 99, threads=t) for t in (1, 2, 3)]
    assert [vg._core.blocks() for vg in runs] == [1, 2, 3]
    assert VectorGame(game, 255, 1, threads=4)._core.blocks() == 1
    small = VectorGame(game, 3, 99)
    py = VectorGame(mousehole.load(name, engine="python", **short), 7, 99)
    for vg in runs + [small, py]:
        vg.reset()
    rng = np.random.default_rng(0)
    # at least 40 steps whatever MOUSEHOLE_TEST_SCALE: the last check needs every env to have
    # finished a game (short max_turns), which fewer steps do not guarantee
    for t in range(max(40, scale(40))):
        acts = np.array(
            [rng.choice(runs[0].legal_actions(i)) if rng.random() < 0.3 else RANDOM for i in range(n)], dtype=np.int64
        )
        results = [vg.step(acts) for vg in runs]
        for res in results[1:]:
            for a, b in zip(results[0], res):
                assert a.tobytes() == b.tobytes(), t
        for part in (small, py):
            k = part.num_envs
            res = part.step(acts[:k])
            for a, b in zip(results[0], res):
                assert a[:k].tobytes() == b.tobytes(), (t, part.backend)
        np.testing.assert_array_equal(runs[0].game_index, runs[2].game_index)
        np.testing.assert_array_equal(runs[0].final_observations, runs[1].final_observations)
    assert runs[0].game_index.min() >= 1


@pytest.mark.compiled
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_the_cores_loop_and_the_tables_loop_step_alike(case: Any) -> None:
    """Each core runs VectorGame's loop compiled over its own functions (its table's
    ``vector_block``); the same loop through the table (``_use_table_loop``, as for a game
    without the slot) gives the same arrays and the same state structs, step for step,
    observed or not, on 1 and 2 threads."""
    name, params = case
    short = dict(params, max_turns=profile(name).short_max_turns)
    game = mousehole.load(name, engine="compiled", **short)
    for threads in (1, 2):
        own, table = VectorGame(game, 260, 17, threads=threads), VectorGame(game, 260, 17, threads=threads)
        table._core._use_table_loop()
        own.reset()
        table.reset()
        rng = np.random.default_rng(threads)
        for t in range(max(30, scale(30))):
            acts = np.array(
                [rng.choice(own.legal_actions(i)) if rng.random() < 0.3 else RANDOM for i in range(own.num_envs)],
                dtype=np.int64,
            )
            observe = t % 3 != 1
            for a, b in zip(own.step(acts, observe=observe), table.step(acts, observe=observe)):
                assert a.tobytes() == b.tobytes(), (threads, t)
            np.testing.assert_array_equal(own.game_index, table.game_index)
            np.testing.assert_array_equal(own.final_observations, table.final_observations)
        assert all(own._core.state_bytes(i) == table._core.state_bytes(i) for i in range(own.num_envs))
        assert own.game_index.max() >= 1  # restarts were stepped too


@pytest.mark.compiled
@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_worker_threads_refuse_a_forked_child() -> None:
    """After ``fork`` the child has none of the parent's worker threads: stepping a
    VectorGame that uses them raises there (exit code 0 = raised); one without workers (a
    single block) and every VectorGame of the parent go on."""
    game = mousehole.load("kasimir", engine="compiled", players=2)
    big, small = VectorGame(game, 256, 1, threads=2), VectorGame(game, 8, 1, threads=2)
    for vg in (big, small):
        vg.reset()
    acts = np.full(256, RANDOM, dtype=np.int64)
    pid = os.fork()
    if pid == 0:  # the child: report through the exit code only
        code = 3
        try:
            small.step(acts[:8])
            big.step(acts)
            code = 1
        except RuntimeError as e:
            code = 0 if "after fork" in str(e) else 2
        finally:
            os._exit(code)
    deadline = time.monotonic() + 60
    while True:  # (a hung child is killed and fails the test instead of hanging the suite)
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            pytest.fail("the forked child did not finish within 60 s")
        time.sleep(0.01)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    big.step(acts)
    small.step(acts[:8])
    assert big._core.blocks() == 2 and small._core.blocks() == 1


@pytest.mark.compiled
def test_worker_handoff_spinning_and_sleeping() -> None:
    """Steps in quick succession (the workers are still spinning for the next job) and steps
    far apart (they have gone to sleep on their locks): the same arrays as one thread, and
    the core stops its workers cleanly when dropped."""
    game = mousehole.load("cheese_rescue", engine="compiled", players=3, max_turns=12)
    one, two = VectorGame(game, 256, 5, threads=1), VectorGame(game, 256, 5, threads=2)
    assert two._core.blocks() == 2
    for vg in (one, two):
        vg.reset()
    acts = np.full(256, RANDOM, dtype=np.int64)
    for t in range(60):
        if t >= 30:
            time.sleep(0.005)  # far longer than the spin: the hand-off goes through the locks
        a, b = one.step(acts), two.step(acts)
        for x, y in zip(a, b):
            assert x.tobytes() == y.tobytes(), t
    assert two.game_index.min() >= 1
    del two  # joins the worker (a lost wake-up would hang here)


def test_observe_false_changes_nothing_but_the_observations(engine: str) -> None:
    game = mousehole.load("kasimir", engine=engine, players=3, explicit_chance=True, max_turns=10)
    a, b = VectorGame(game, 4, 8), VectorGame(game, 4, 8)
    a.reset()
    b.reset()
    stale = b.observations.copy()
    for _ in range(30):
        acts = np.full(4, RANDOM)
        ra = a.step(acts)
        rb = b.step(acts, observe=False)
        for k in (1, 2, 3, 4):
            np.testing.assert_array_equal(ra[k], rb[k])
        for i in range(4):
            np.testing.assert_array_equal(a.legal_actions(i), b.legal_actions(i))
        np.testing.assert_array_equal(b.observations, stale)  # not written
    a.step(np.full(4, RANDOM))
    b.step(np.full(4, RANDOM))
    np.testing.assert_array_equal(a.observations, b.observations)
    np.testing.assert_array_equal(a.action_mask, b.action_mask)


def test_reset_with_a_seed_replays(engine: str) -> None:
    game = mousehole.load("m", engine=engine, players=2)
    vg = VectorGame(game, 3, 1)
    first = vg.reset()[0].copy()
    vg.step(np.full(3, RANDOM))
    other = vg.reset(seed=2)[0].copy()
    assert vg.seed == 2
    again = vg.reset(seed=1)[0]
    np.testing.assert_array_equal(first, again)
    assert not np.array_equal(first, other)
    assert (vg.game_index == 0).all()


# --------------------------------------------------------------------------------------
# bad input


def test_bad_arguments(engine: str) -> None:
    game = mousehole.load("cheese_rescue", engine=engine, players=2)
    with pytest.raises(TypeError, match="game"):
        VectorGame(object(), 2, 0)
    with pytest.raises(ValueError, match="num_envs"):
        VectorGame(game, 0, 0)
    with pytest.raises(TypeError, match="num_envs"):
        VectorGame(game, 2.0, 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="num_envs"):
        VectorGame(game, True, 0)
    with pytest.raises(TypeError, match="seed"):
        VectorGame(game, 2, "1")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="threads"):
        VectorGame(game, 2, 0, threads=0)
    with pytest.raises(ValueError, match="seats"):
        VectorGame(game, 2, 0, seats=[2])
    with pytest.raises(ValueError, match="seats"):
        VectorGame(game, 2, 0, seats=[])
    with pytest.raises(TypeError, match="seats"):
        VectorGame(game, 2, 0, seats=0)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        VectorGame(game, 2, 0, 2)  # type: ignore[misc]  # threads is keyword-only
    vg = VectorGame(game, 2, 0)
    with pytest.raises(RuntimeError, match="reset"):
        vg.step([RANDOM, RANDOM])
    with pytest.raises(TypeError, match="seed"):
        vg.reset(seed=1.5)  # type: ignore[arg-type]
    assert VectorGame("kasimir", 1, np.int64(3)).seed == 3
    assert VectorGame(game, 1, -1).seed == 2**64 - 1


def test_bad_actions_change_nothing(engine: str) -> None:
    game = mousehole.load("kasimir", engine=engine, players=2, explicit_chance=True)
    vg, twin = VectorGame(game, 3, 4), VectorGame(game, 3, 4)
    vg.reset()
    twin.reset()
    for _ in range(5):
        vg.step(np.full(3, RANDOM))
        twin.step(np.full(3, RANDOM))
    before = [
        x.copy()
        for x in (
            vg.observations,
            vg.rewards,
            vg.terminated,
            vg.truncated,
            vg.current_player,
            vg.action_mask,
            vg.game_index,
        )
    ]
    legal = vg.legal_actions(2)
    illegal = next(a for a in range(game.num_actions) if a not in legal)
    with pytest.raises(mousehole.IllegalMoveError, match=f"env 2: action {illegal} is not legal"):
        vg.step([RANDOM, RANDOM, illegal])
    with pytest.raises(ValueError, match="env 1: action 9999 is outside the action space"):
        vg.step([RANDOM, 9999, RANDOM])
    with pytest.raises(ValueError, match="env 0: action -2"):
        vg.step([-2, RANDOM, RANDOM])
    with pytest.raises(ValueError, match="shape"):
        vg.step([RANDOM, RANDOM])
    with pytest.raises(TypeError, match="integers"):
        vg.step([0.0, 1.0, 2.0])
    with pytest.raises(TypeError, match="integers"):
        vg.step(np.array([True, False, True]))
    for x, y in zip(
        before,
        (vg.observations, vg.rewards, vg.terminated, vg.truncated, vg.current_player, vg.action_mask, vg.game_index),
    ):
        np.testing.assert_array_equal(x, y)
    for _ in range(5):  # and the envs go on exactly as the twin that saw no bad input
        a = vg.step(np.array([RANDOM] * 3, dtype=np.int32))
        b = twin.step(np.full(3, RANDOM, dtype=np.int16))
        for u, v in zip(a, b):
            np.testing.assert_array_equal(u, v)
    with pytest.raises(IndexError):
        vg.legal_actions(3)


def _odd_layouts(actions: npt.NDArray[np.int64]) -> List[Any]:
    """``actions`` as arrays that the one-call path of ``step`` does not take as they are
    (strided, byte-swapped, unaligned, read-only, unsigned, ``longlong``) and a list."""
    strided = np.repeat(actions, 2)[::2]
    swapped = actions.astype(actions.dtype.newbyteorder())
    raw = np.zeros(actions.size * 8 + 1, dtype=np.uint8)[1:].view(np.int64)
    raw[:] = actions
    frozen = actions.copy()
    frozen.flags.writeable = False
    out: List[Any] = [strided, swapped, raw, frozen, actions.astype(np.longlong), actions.tolist()]
    if (actions >= 0).all():
        out.append(actions.astype(np.uint64))
    return out


def test_actions_in_any_integer_layout_step_alike(engine: str) -> None:
    """Whatever the layout of an integer array of actions, ``step`` does what it does with
    a plain int64 array; a bad action in such an array is refused the same way."""
    game = mousehole.load("cheese_rescue", engine=engine, players=2)
    vg, twin = VectorGame(game, 3, 11), VectorGame(game, 3, 11)
    vg.reset()
    twin.reset()
    rng = np.random.default_rng(3)
    for t in range(12):
        acts = np.array([rng.choice(twin.legal_actions(i)) for i in range(3)], dtype=np.int64)
        layout = _odd_layouts(acts)[t % 7 if (acts >= 0).all() else t % 6]
        a, b = vg.step(layout), twin.step(acts)
        for u, v in zip(a, b):
            np.testing.assert_array_equal(u, v)
    legal = vg.legal_actions(1)
    illegal = next(x for x in range(game.num_actions) if x not in legal)
    for layout in _odd_layouts(np.array([RANDOM, illegal, RANDOM], dtype=np.int64)):
        with pytest.raises(mousehole.IllegalMoveError, match=f"env 1: action {illegal}"):
            vg.step(layout)
    np.testing.assert_array_equal(vg.game_index, twin.game_index)


def test_chance_rule_for_unequal_probabilities() -> None:
    """No game has unequal chance outcomes today; the rule is checked on its own: u is the
    top 53 bits of next64 scaled to [0, 1), the first cumulative probability above u wins."""
    outcomes = [(3, 0.25), (5, 0.5), (9, 0.25)]
    for seed in range(200):
        a, b = Rng(seed), Rng(seed)
        u = (b.next64() >> 11) / 2.0**53
        want = 3 if u < 0.25 else 5 if u < 0.75 else 9
        assert _chance_pick(outcomes, a) == want
        assert a.state == b.state
    equal = [(7, 0.5), (8, 0.5)]
    for seed in range(50):
        a, b = Rng(seed), Rng(seed)
        assert _chance_pick(equal, a) == [7, 8][b.below(2)]


def test_every_seat_to_move_is_a_callers_seat(engine: str) -> None:
    game = mousehole.load("maus_au_chocolat", engine=engine, players=3, max_turns=2)
    vg = VectorGame(game, 4, 6, seats=[1])
    vg.reset()
    for _ in range(60):
        _, rew, term, trunc, cur, _ = vg.step(np.full(4, RANDOM))
        assert (cur == 1).all()
        assert (rew[~(term | trunc)] == 0).all()


def test_masked_policy_gradient_example_runs(tmp_path: Any) -> None:
    """examples/masked_policy_gradient.py, as documented in docs/rl.md, in a tiny
    configuration: it trains, evaluates and writes its learning-curve PNG."""
    import os
    import subprocess
    import sys

    script = os.path.join(os.path.dirname(__file__), "..", "examples", "masked_policy_gradient.py")
    fig = tmp_path / "curve.png"
    out = subprocess.run(
        [
            sys.executable,
            script,
            "--games",
            "24",
            "--envs",
            "8",
            "--eval-games",
            "16",
            "--batch",
            "64",
            "--curve-every",
            "8",
            "--hidden",
            "8",
            "--figure",
            str(fig),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "trained policy on 32 new games: win rate" in out.stdout
    assert fig.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
