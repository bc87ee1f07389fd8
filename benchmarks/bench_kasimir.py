"""Kater Kasimir microbenchmarks (run by benchmarks/run.py, or alone:
``python benchmarks/bench_kasimir.py [--quick]``).

Reports, on one core: ``simulate`` games per second and ns per action on the DEFAULT track
(4 and 2 players, implicit and explicit chance), the reference engine's games per second on
the same games, and the compiled/reference speedup on whole games.
"""

from __future__ import annotations

import sys
import time
from typing import Any, Dict

import mousehole


def _sim(game: Any, n: int, seed: int = 7) -> Dict[str, float]:
    best = float("inf")
    res = None
    for _rep in range(3):
        t = time.perf_counter()
        res = mousehole.simulate(game, n, seed=seed)
        best = min(best, time.perf_counter() - t)
    assert res is not None
    actions = float(res.lengths.sum())
    return {"games_per_s": n / best, "ns_per_action": best / actions * 1e9, "mean_length": actions / n}


def run(quick: bool = False) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    n_fast = 2000 if quick else 200000
    n_ref = 5 if quick else 200
    engines = mousehole.available_engines()
    for players in (4, 2):
        for ec in (False, True):
            tag = f"{players}p{'_explicit' if ec else ''}"
            if "compiled" in engines:
                c = _sim(mousehole.load("kasimir", players=players, explicit_chance=ec, engine="compiled"), n_fast)
                out[f"simulate_{tag}_games_per_s"] = c["games_per_s"]
                out[f"simulate_{tag}_ns_per_action"] = c["ns_per_action"]
            if players == 4 and not ec:
                p = _sim(mousehole.load("kasimir", players=4, engine="python"), n_ref)
                out["reference_4p_games_per_s"] = p["games_per_s"]
                out["mean_game_length_4p"] = p["mean_length"]
                if "compiled" in engines:
                    out["speedup_whole_games_4p"] = out["simulate_4p_games_per_s"] / p["games_per_s"]
    return out


if __name__ == "__main__":
    for k, v in run("--quick" in sys.argv).items():
        print(f"{k:<36}{v:>16,.1f}")
