"""M microbenchmarks (run by benchmarks/run.py, or alone: ``python benchmarks/bench_m.py [--quick]``).

Reports, on one core:

* ``simulate`` on 2, 4 and 6 players: games per second, actions per second, ns per action,
  mean game length (uniformly random play);
* the reference engine's games per second on 4 players and the compiled/reference speedup
  on whole games;
* ``legal_actions()`` from Python (numpy array included) and the legal-action generation
  inside compiled code, mid-game (4 players, PLAY phase states between actions 30 and 90);
* the connectivity test of M-13(b) for one candidate take, in compiled code, over every card
  of those mid-game tables (a loop inside compiled code, no Python call counted).

The loops inside compiled code come from ``corebench.pyx`` (built on demand by
``corebench.py``, outside the shipped cores); without a compiler they are skipped.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any, Dict, List

import mousehole
from mousehole._rng import Rng, derive

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corebench  # noqa: E402  (beside this file: the loops inside compiled code)


def _sim(game: Any, n: int, seed: int = 7) -> Dict[str, float]:
    best = float("inf")
    res = None
    for _ in range(3):
        t = time.perf_counter()
        res = mousehole.simulate(game, n, seed=seed)
        best = min(best, time.perf_counter() - t)
    assert res is not None
    actions = float(res.lengths.sum())
    return {
        "games_per_s": n / best,
        "actions_per_s": actions / best,
        "ns_per_action": best / actions * 1e9,
        "mean_length": actions / n,
    }


def _mid_game_states(game: Any, n: int) -> List[Any]:
    """PLAY-phase states at a random point between actions 30 and 90 of random games."""
    out: List[Any] = []
    seed = 0
    while len(out) < n:
        s = game.new_state(seed)
        rng = Rng(derive(seed, 1))
        stop = 30 + rng.below(60)
        while not s.is_terminal() and len(s.history) < stop:
            legal = s.legal_actions()
            s.apply_action(int(legal[rng.below(len(legal))]))
        if not s.is_terminal() and s.to_dict()["phase"] == "play":
            out.append(s)
        seed += 1
    return out


def run(quick: bool = False) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    engines = mousehole.available_engines()
    n_fast = 2000 if quick else 50000
    n_ref = 3 if quick else 40
    if "compiled" in engines:
        for players in (4, 2, 6):
            c = _sim(mousehole.load("m", players=players, engine="compiled"), n_fast)
            for k, v in c.items():
                out[f"simulate_{players}p_{k}"] = v
    p = _sim(mousehole.load("m", players=4, engine="python"), n_ref)
    out["reference_4p_games_per_s"] = p["games_per_s"]
    out["reference_4p_mean_length"] = p["mean_length"]
    if "compiled" in engines:
        out["speedup_whole_games_4p"] = out["simulate_4p_games_per_s"] / p["games_per_s"]
        cb = corebench.load_or_note("bench_m")
        game = mousehole.load("m", players=4, engine="compiled")
        states = _mid_game_states(game, 50 if quick else 400)
        reps = 200 if quick else 2000
        # legal_actions() through Python
        t = time.perf_counter()
        for s in states:
            la = s.legal_actions
            for _ in range(reps):
                la()
        out["legal_actions_ns_4p_midgame"] = (time.perf_counter() - t) / (len(states) * reps) * 1e9
        out["legal_actions_mean_count"] = sum(len(s.legal_actions()) for s in states) / len(states)
        if cb is not None:
            # legal-action generation inside compiled code (the C-level interface's ``legal``)
            t = time.perf_counter()
            for s in states:
                cb.legal_generation(s, reps * 10)
            out["legal_generation_compiled_ns_4p_midgame"] = (time.perf_counter() - t) / (len(states) * reps * 10) * 1e9
            # one M-13(b) connectivity test
            tests = 0
            t = time.perf_counter()
            for s in states:
                k, _ = cb.m_connectivity(s, reps * 10)
                tests += k
            out["connectivity_ns_per_candidate"] = (time.perf_counter() - t) / tests * 1e9
        out["mean_table_cards_midgame"] = sum(len(s.to_dict()["table"]) for s in states) / len(states)
    return out


if __name__ == "__main__":
    for k, v in run("--quick" in sys.argv).items():
        print(f"{k:<44}{v:>16,.1f}")
