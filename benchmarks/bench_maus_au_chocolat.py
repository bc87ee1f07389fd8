"""Maus au Chocolat microbenchmarks: the combination search (MC-29) and whole games.

    python benchmarks/bench_maus_au_chocolat.py [--quick]

Reports, for 9-card hands (the largest a combination step sees) with each of the seven
helpers: ns per enumeration of every distinct legal combination in compiled code (a loop
inside compiled code, ``corebench.pyx``, built on demand outside the shipped cores, so no
Python call overhead is counted), averaged over random hands (and the worst of them) and
for a dense worst case (nine cards of candy values 4-5-6), and the same through the pure-Python
reference. Also: 4-player random games per second and actions per second from
``mousehole.simulate`` on one thread, the mean game length, and the speedup of the compiled
engine over the reference on whole games. ``run(quick)`` is called by ``benchmarks/run.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any, Dict, List

import mousehole
from mousehole._rng import Rng
from mousehole.maus_au_chocolat import HELPERS, combination_actions

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corebench  # noqa: E402  (beside this file: the loops inside compiled code)

HAND = 9


def _state_with_hand(game: Any, hand: List[int], helper: int) -> Any:
    """A combine-phase state where seat 0 holds ``hand`` and ``helper``."""
    n = game.num_players
    d = game.new_state(0).to_dict()
    rest = [c for c in range(80) if c not in hand]
    helpers = [helper] + [h for h in range(7) if h != helper][: n - 1]
    hands = [sorted(hand)] + [sorted(rest[4 * q : 4 * q + 4]) for q in range(n - 1)]
    rest = rest[4 * (n - 1) :]
    d.update(
        round=1,
        phase="combine",
        pile=rest[n + 1 :],
        display=sorted(rest[: n + 1]),
        discard=[],
        hands=hands,
        known=[[] for _ in range(n)],
        bids=[-1] * n,
        vp=[[] for _ in range(n)],
        helpers=helpers,
        row=[h for h in range(7) if h not in helpers],
        order=sorted(range(n), key=lambda q: helpers[q]),
        turn=sorted(range(n), key=lambda q: helpers[q]).index(0),
        picks_left=0,
        etienne_used=False,
        history=[],
        truncated=False,
    )
    return game.state_from_dict(d)


def _hands(count: int, seed: int) -> List[List[int]]:
    rng = Rng(seed)
    out = []
    for _ in range(count):
        deck = list(range(80))
        rng.shuffle(deck)
        out.append(sorted(deck[:HAND]))
    return out


def _dense_hand(game: Any) -> List[int]:
    cards = game.cards
    want = {4: 3, 5: 3, 6: 3}
    hand = []
    for c in range(80):
        if want.get(cards[c][1], 0) > 0:
            hand.append(c)
            want[cards[c][1]] -= 1
    return sorted(hand)


def run(quick: bool = False) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    game = mousehole.load("maus_au_chocolat", players=4)
    n_hands = 20 if quick else 100
    repeat = 200 if quick else 1000
    hands = _hands(n_hands, 5)
    cb = corebench.load_or_note("bench_maus_au_chocolat") if game.engine == "compiled" else None
    if cb is not None:
        bench_combos = cb.mc_combinations

        def timed(st: Any) -> "tuple[float, int]":
            # best of 5, in thread CPU time: robust on a shared machine
            best = float("inf")
            found = 0
            for _ in range(5):
                t = time.thread_time_ns()
                found = bench_combos(st, 0, repeat)
                best = min(best, (time.thread_time_ns() - t) / repeat)
            return best, found

        for h, name in enumerate(HELPERS):
            total_ns = 0.0
            count = 0
            worst = 0.0
            for hand in hands:
                ns, found = timed(_state_with_hand(game, hand, h))
                total_ns += ns
                count += found
                worst = max(worst, ns)
            dense_ns, dense = timed(_state_with_hand(game, _dense_hand(game), h))
            out[f"combos_ns_worst_random9_{name}"] = round(worst, 1)
            out[f"combos_ns_random9_{name}"] = round(total_ns / len(hands), 1)
            out[f"combos_ns_dense9_{name}"] = round(dense_ns, 1)
            out[f"combos_count_dense9_{name}"] = dense
            out[f"combos_mean_count_random9_{name}"] = round(count / len(hands), 2)
    # the pure-Python reference search on the same hands (Amélie: the most subsets)
    py_hands = hands[: (5 if quick else 40)]
    t = time.perf_counter_ns()
    for hand in py_hands:
        combination_actions(hand, game.cards, 5)
    out["combos_ns_random9_python_Amélie"] = round((time.perf_counter_ns() - t) / len(py_hands), 1)
    # whole games
    n_games = 200 if quick else 20000
    if game.engine == "compiled":
        mousehole.simulate(game, 10, seed=0)
        t = time.perf_counter()
        r = mousehole.simulate(game, n_games, seed=1)
        dt = time.perf_counter() - t
        out["simulate_games_per_s"] = round(n_games / dt, 1)
        out["simulate_actions_per_s"] = round(float(r.lengths.sum()) / dt, 1)
        out["mean_game_length_actions"] = round(float(r.lengths.mean()), 2)
        ref = mousehole.load("maus_au_chocolat", players=4, engine="python")
        n_ref = 3 if quick else 30
        t = time.perf_counter()
        mousehole.simulate(ref, n_ref, seed=1)
        ref_rate = n_ref / (time.perf_counter() - t)
        out["reference_games_per_s"] = round(ref_rate, 2)
        out["speedup_whole_games"] = round(out["simulate_games_per_s"] / ref_rate, 1)
    return out


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    print(json.dumps(run(args.quick), indent=1, ensure_ascii=False))
