"""Thread hammers for tests/test_threads.py, each run in a child process.

``python threadhammer.py SCENARIO JSON_OPTIONS`` runs one scenario: a few Python threads use
one object at once for a bounded time, then every object touched is checked against a
reference replayed in one thread (ordinary states on both engines). A failed check raises
(exit status 1, traceback on stderr); a crash or a hang shows as the child's exit status or
its timeout in the parent, never as a dead test run. On success the child prints one line,
``RESULT {json}``, with the counts the parent asserts on.

Scenarios:

* ``writer``: one thread steps a VectorGame with an int64 actions array that a second thread
  keeps rewriting (RANDOM, stale or fresh legal actions, in-range illegal ones, values out of
  the action space). Every step either raises (ValueError / IllegalMoveError, nothing
  stepped) or applies what its own check saw; every env is then replayed from the applied
  actions and compared with the VectorGame's state.
* ``steppers``: two threads step one VectorGame (RANDOM actions, one with ``observe=False``),
  a third calls ``legal_actions`` and ``reset`` on it. Calls that meet another thread inside
  raise RuntimeError naming the VectorGame; the envs must then equal a replay of the
  successful steps since the last successful reset.
* ``states``: two threads apply random legal actions to one state (an action another thread
  made illegal meanwhile raises IllegalMoveError) while a third clones it and reads its
  dict; every state and clone must equal a replay of its own history on both engines.
* ``search``: two threads search (and step one shared MCTSBot on) a state that a third
  thread keeps playing; every result must equal a single-threaded search of one of the
  positions the state went through while that search ran.
"""

from __future__ import annotations

import json
import pickle
import sys
import threading
import time
from typing import Any, Callable, Dict, List, Sequence, Tuple

import numpy as np

import mousehole
from mousehole._api import CHANCE
from mousehole._rng import derive
from mousehole.vector import RANDOM, VectorGame

#: the errors a step may raise when another thread wrote its actions
STEP_ERRORS = (ValueError,)  # IllegalMoveError is a ValueError


def load(opts: Dict[str, Any]) -> Any:
    """The game of ``opts``: ``game``, ``params`` and ``engine`` (default: the default engine)."""
    kw = dict(opts.get("params", {}))
    if opts.get("engine"):
        kw["engine"] = opts["engine"]
    return mousehole.load(opts["game"], **kw)


def until(seconds: float, min_count: Callable[[], bool], cap: float = 4.0) -> Callable[[], bool]:
    """A loop condition: go on for ``seconds``, then until ``min_count()`` holds, at most
    ``cap * seconds`` in all (so that a loaded machine still sees some contention)."""
    t0 = time.monotonic()

    def go() -> bool:
        el = time.monotonic() - t0
        return el < seconds or (el < cap * seconds and not min_count())

    return go


def run_threads(targets: Sequence[Callable[[], None]]) -> None:
    """Run each target on its own thread, all starting together (a barrier: otherwise one
    thread may finish its work before the next has started, on a slow start-up such as
    CPython 3.9's); re-raise the first error one of them raised."""
    errors: List[BaseException] = []
    start = threading.Barrier(len(targets))

    def wrap(f: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            try:
                start.wait()
                f()
            except BaseException as e:  # reported by the main thread
                errors.append(e)

        return run

    ts = [threading.Thread(target=wrap(f)) for f in targets]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    if errors:
        raise errors[0]


# --------------------------------------------------------------------------------------
# the reference env: test_vector's (the documented seeds and draws of mousehole.vector,
# written out again); this script runs with the tests' folder first on sys.path

from test_vector import RefEnv  # noqa: E402


def check_vector(
    vg: VectorGame, seed: int, steps: List[np.ndarray], python_envs: Sequence[int], observed: bool
) -> None:
    """Replay every env of ``vg`` from ``seed`` with the actions of ``steps`` (one array per
    successful step since the last reset) and compare: the seat to move, the game index and
    the legal actions with the VectorGame's; on the compiled backend the env's whole state
    struct with the replayed compiled state's, and for the envs in ``python_envs`` the
    replayed state's dict with the same replay on the pure-Python engine (the reference);
    with ``observed`` (the last call wrote them) the observation and the mask too."""
    game = vg.game
    py_game = mousehole.load(game.name, engine="python", **game.params)
    compiled = vg.backend == "compiled"
    if compiled:
        from mousehole._cgame import CGame
    for i in range(vg.num_envs):
        ref = RefEnv(game, seed, i, vg.seats)
        for acts in steps:
            ref.step(int(acts[i]))
        st = ref.state
        assert vg.current_player[i] == st.current_player, f"env {i}: seat to move"
        assert vg.game_index[i] == ref.k, f"env {i}: game index"
        np.testing.assert_array_equal(vg.legal_actions(i), st.legal_actions(), err_msg=f"env {i}")
        if observed:
            np.testing.assert_array_equal(vg.action_mask[i], st.legal_action_mask(), err_msg=f"env {i}")
            assert vg.observations[i].tobytes() == st.observation(st.current_player).tobytes(), f"env {i}"
        if compiled:
            assert vg._core.state_bytes(i) == CGame(st).struct_bytes(), f"env {i}: state struct"
        if i in python_envs and game.engine != "python":
            py = py_game.new_state(derive(derive(seed, i), 2 * ref.k))
            for a in st.history:
                py.apply_action(int(a))
            assert py.to_dict() == st.to_dict(), f"env {i}: the reference engine disagrees"


def python_sample(n: int, spec: Any) -> List[int]:
    """The envs replayed on the pure-Python engine: all, or ``spec`` spread over every block."""
    if spec == "all" or spec >= n:
        return list(range(n))
    return sorted({(n - 1) * j // max(1, spec - 1) for j in range(spec)})


# --------------------------------------------------------------------------------------
# scenarios


def writer(opts: Dict[str, Any]) -> Dict[str, Any]:
    game = load(opts)
    n, seed = opts["n"], opts["seed"]
    vg = VectorGame(game, n, seed, threads=opts.get("threads", 1), seats=opts.get("seats"))
    vg.reset()
    acts = np.full(n, RANDOM, dtype=np.int64)
    steps: List[np.ndarray] = []
    counts = {"stepped": 0, "rejected": 0, "writes": 0, "chosen_applied": 0}
    done = threading.Event()
    go = until(opts["seconds"], lambda: counts["stepped"] > 0 and counts["rejected"] > 0)

    pace = opts["seconds"] / opts["max_steps"] / 2  # the writer runs in between

    def stepper() -> None:
        try:
            while go() and counts["stepped"] < opts["max_steps"]:
                time.sleep(pace)
                try:
                    vg.step(acts, observe=counts["stepped"] % 2 == 0)
                except STEP_ERRORS as e:
                    assert "no env was stepped" in str(e), str(e)
                    counts["rejected"] += 1
                    continue
                got = vg._core.applied()  # only this thread steps: the copy this step applied
                steps.append(got)
                counts["stepped"] += 1
                counts["chosen_applied"] += int((got >= 0).sum())
        finally:
            done.set()

    def scribbler() -> None:
        rng = np.random.default_rng(seed)
        big = [game.num_actions, 10**9, 2**62, 2**63 - 1]
        while not done.is_set():
            op = rng.random()
            j = int(rng.integers(n))
            if op < 0.3:
                acts[:] = RANDOM
            elif op < 0.75:  # a legal action of env j as the (maybe stale) mask shows it
                # (a copy first: numpy before 2.2.4, Python 3.9's last, counts a row and then
                # fills its nonzero indices, and a step writing the row meanwhile made it
                # write past its result: heap corruption, seen at exit, not mousehole's)
                legal = np.flatnonzero(vg.action_mask[j].copy())
                if len(legal):
                    acts[j] = legal[rng.integers(len(legal))]
            elif op < 0.85:
                acts[j] = rng.integers(game.num_actions)  # in range, mostly illegal
            elif op < 0.93:
                acts[j] = big[int(rng.integers(len(big)))]
            else:
                acts[j] = -int(rng.integers(2, 1 << 40))
            counts["writes"] += 1
            if rng.random() < 0.01:
                time.sleep(0)  # let the stepper in now and then, after any kind of write

    run_threads([stepper, scribbler])
    check_vector(
        vg, seed, steps, python_sample(n, opts.get("python_envs", "all")), observed=(counts["stepped"] - 1) % 2 == 0
    )
    return counts


def steppers(opts: Dict[str, Any]) -> Dict[str, Any]:
    game = load(opts)
    n = opts["n"]
    seeds = [opts["seed"], opts["seed"] + 1]
    vg = VectorGame(game, n, seeds[0], threads=opts.get("threads", 1))
    vg.reset()
    lock = threading.Lock()
    counts = {"stepped": 0, "busy": 0, "resets": 0, "other": 0}
    go = until(opts["seconds"], lambda: counts["busy"] > 0 and counts["resets"] > 0)

    def busy(e: RuntimeError, what: str) -> None:
        msg = str(e)
        assert "VectorGame" in msg and "another thread" in msg and what in msg, msg
        with lock:
            counts["busy"] += 1

    def stepper(observe: bool) -> Callable[[], None]:
        def run() -> None:
            acts = np.full(n, RANDOM, dtype=np.int64)
            while go() and counts["stepped"] < opts["max_steps"]:
                try:
                    vg.step(acts, observe=observe)
                except RuntimeError as e:
                    busy(e, "step")
                else:
                    with lock:
                        counts["stepped"] += 1
                time.sleep(0.0003)  # room for the third thread now and then

        return run

    def other() -> None:
        k = 0
        while go() and counts["stepped"] < opts["max_steps"]:
            k += 1
            try:
                if k % 50 == 0:
                    vg.reset(seed=seeds[(k // 50) % 2])
                    counts["resets"] += 1
                else:
                    vg.legal_actions(k % n)
                    counts["other"] += 1
            except RuntimeError as e:
                busy(e, "reset" if k % 50 == 0 else "legal_actions")
            time.sleep(0.0005)

    run_threads([stepper(True), stepper(False), other])
    # every thread has stopped; which call wrote the observations last is not known here,
    # so one more observed step (single-threaded) writes them
    vg.step(np.full(n, RANDOM, dtype=np.int64))
    k = vg._core.stepped()
    check_vector(
        vg,
        vg.seed,
        [np.full(n, RANDOM, dtype=np.int64)] * k,
        python_sample(n, opts.get("python_envs", "all")),
        observed=True,
    )
    counts["since_reset"] = k
    return counts


def _play_random(st: Any, rng: np.random.Generator, pause: float = 0.0) -> bool:
    """One random legal action (chance outcomes included); False when another thread made
    it illegal first (the state is then unchanged). With probability ``pause`` the thread
    lets the others run between listing the actions and applying one."""
    legal = st.legal_actions()
    if len(legal) == 0:
        return True
    if pause and rng.random() < pause:
        time.sleep(0.0002)  # a real sleep: sleep(0) may hand the GIL straight back (3.9)
    try:
        st.apply_action(int(legal[rng.integers(len(legal))]))
    except mousehole.IllegalMoveError:
        return False
    return True


def _replay(game: Any, seed: int, history: Sequence[int]) -> Any:
    st = game.new_state(seed)
    for a in history:
        st.apply_action(int(a))
    return st


def states(opts: Dict[str, Any]) -> Dict[str, Any]:
    params = opts.get("params", {})
    game = load(opts)
    py_game = mousehole.load(opts["game"], engine="python", **params)
    box: List[Any] = []
    seeds: List[int] = []
    finished: List[Tuple[int, Any]] = []
    clones: List[Tuple[int, Any, Dict[str, Any]]] = []
    lock = threading.Lock()
    counts = {"applied": 0, "conflicts": 0, "clones": 0, "games": 0}

    def contended() -> bool:
        return counts["conflicts"] > 0 and counts["clones"] > 0

    going = until(opts["seconds"], contended)

    def go() -> bool:  # (a bounded number of games: each is replayed twice afterwards; more
        # only while the threads have not yet met, at most four times as many)
        most = opts.get("max_games", 3)
        return going() and (counts["games"] <= most or (counts["games"] <= 4 * most and not contended()))

    def fresh() -> None:
        seeds.append(opts["seed"] + len(seeds))
        box.append(game.new_state(seeds[-1]))
        counts["games"] += 1

    fresh()

    def applier(k: int) -> Callable[[], None]:
        def run() -> None:
            rng = np.random.default_rng([opts["seed"], k])
            while go():
                g = len(box) - 1
                st = box[g]
                if st.is_terminal():
                    with lock:
                        if len(box) - 1 == g:  # nobody replaced it yet
                            finished.append((seeds[g], st))
                            fresh()
                    continue
                ok = _play_random(st, rng, 0.3)
                with lock:
                    counts["applied" if ok else "conflicts"] += 1

        return run

    def cloner() -> None:
        k = 0
        while go():
            g = len(box) - 1
            st = box[g]
            k += 1
            # a clone, a pickle round trip or the dict of the state others are playing on:
            # each must be one whole position of that game (checked afterwards)
            c = st.clone() if k % 3 else pickle.loads(pickle.dumps(st))
            d = c.to_dict() if k % 2 else st.to_dict()
            with lock:
                counts["clones"] += 1
                if len(clones) < opts.get("keep_clones", 12):
                    clones.append((seeds[g], c, d))
            time.sleep(0.005)

    run_threads([applier(0), applier(1), cloner])
    finished.append((seeds[len(box) - 1], box[-1]))
    for seed, st in finished + [(s, c) for s, c, _ in clones]:
        h = [int(a) for a in st.history]
        ref = _replay(game, seed, h)
        assert ref.to_dict() == st.to_dict(), f"seed {seed}: the state differs from a replay of its history"
        assert _replay(py_game, seed, h).to_dict() == st.to_dict(), f"seed {seed}: the reference engine disagrees"
    for seed, _c, d in clones:  # a dict read while the others applied: one whole position
        assert d == _replay(game, seed, d["history"]).to_dict(), f"seed {seed}: a torn state dict"
    return counts


def search(opts: Dict[str, Any]) -> Dict[str, Any]:
    from mousehole import bots

    game = load(opts)
    st = game.new_state(opts["seed"])
    seed = opts["seed"]
    bot = bots.MCTSBot(opts["iterations"], seed=seed)
    results: List[Tuple[int, int, str, int, Any]] = []  # (lo, hi, algorithm, seed, result)
    bot_results: List[Tuple[int, int, int]] = []
    lock = threading.Lock()
    counts = {"searches": 0, "bot_steps": 0, "applied": 0}
    go = until(opts["seconds"], lambda: counts["searches"] > 0 and counts["applied"] > 0)
    moves_left = [opts["moves"]]

    def searcher(k: int) -> Callable[[], None]:
        def run() -> None:
            j = 0
            while go():
                j += 1
                lo = len(st.history)
                if st.is_terminal() or st.current_player == CHANCE:
                    time.sleep(0.001)
                    continue
                alg = ("mcts", "ismcts")[j % 2]
                s = k * 1000003 + j
                try:
                    res = bots.search(st, algorithm=alg, iterations=opts["iterations"], seed=s)
                except ValueError:  # the game ended (or reached chance) under us
                    continue
                hi = len(st.history)
                with lock:
                    results.append((lo, hi, alg, s, res))
                    counts["searches"] += 1
                if j % 3 == 0:
                    try:
                        lo = len(st.history)
                        a = bot.step(st)
                        hi = len(st.history)
                    except ValueError:
                        continue
                    with lock:
                        bot_results.append((lo, hi, a))
                        counts["bot_steps"] += 1

        return run

    def player() -> None:
        rng = np.random.default_rng(seed)
        while go() and moves_left[0] > 0 and not st.is_terminal():
            if _play_random(st, rng):
                counts["applied"] += 1
                moves_left[0] -= 1
            time.sleep(0.002)

    run_threads([searcher(1), searcher(2), player])
    _check_searches(game, seed, [int(a) for a in st.history], results, bot_results, opts["iterations"])
    assert bot._calls == counts["bot_steps"], (bot._calls, counts["bot_steps"])
    return counts


def _check_searches(
    game: Any,
    seed: int,
    history: List[int],
    results: List[Tuple[int, int, str, int, Any]],
    bot_results: List[Tuple[int, int, int]],
    iterations: int,
) -> None:
    """Every search run by :func:`search`'s threads equals a single-threaded search of a
    position the state went through meanwhile; every bot move was legal in one of them."""
    from mousehole import bots

    prefixes: Dict[int, Any] = {}

    def at(p: int) -> Any:
        if p not in prefixes:
            prefixes[p] = _replay(game, seed, history[:p])
        return prefixes[p]

    for lo, hi, alg, s, res in results:
        ok = False
        for p in range(lo, hi + 1):
            pos = at(p)
            if pos.is_terminal() or pos.current_player == CHANCE:
                continue
            one = bots.search(pos, algorithm=alg, iterations=iterations, seed=s)
            if one == res:
                ok = True
                break
        assert ok, f"a search ({alg}, seed {s}) run during moves {lo}..{hi} matches none of those positions"
    for lo, hi, a in bot_results:
        assert any(not at(p).is_terminal() and a in at(p).legal_actions().tolist() for p in range(lo, hi + 1)), (
            f"the bot chose {a}, legal in none of moves {lo}..{hi}"
        )


SCENARIOS = {"writer": writer, "steppers": steppers, "states": states, "search": search}

if __name__ == "__main__":
    options = json.loads(sys.argv[1 + 1])
    # switch threads every few microseconds (default 5 ms): many more interleavings per second
    sys.setswitchinterval(options.get("switch_interval", 1e-5))
    out = SCENARIOS[sys.argv[1]](options)
    out["engine"] = load(options).engine
    print("RESULT " + json.dumps(out))
