"""Fingerprints of the engines' observable behaviour, to prove a refactoring changed nothing.

Run it before and after a change (on the same machine, with the same Python) and compare the
lines: every line is ``<what> <game> <players> <engine> <sha256 prefix>``.

For every game, player count and engine it plays seeded games in which every move is chosen
by a seeded generator among the legal actions, and hashes, position after position: the
state dict, each seat's view and observation, ``str(state)``, ``describe`` of the move played
(as the mover and as every other seat sees it), the record of the finished game, a
determinization of every seat's final view, and the returns. ``--simulate N`` also hashes
``simulate(game, N, seed=1)`` (the compiled engine; ``aggregate=True``), the figure the readings
issue compares over 100,000 games per player count.

``--fast-paths`` adds what the compiled fast paths produce, so that a rewrite of the cores
can be shown to change nothing outside the struct steps either: ``simulate``'s whole result
arrays (scores, winners, lengths, truncation) for every combination of the readings;
``VectorGame`` on both backends (``RANDOM`` actions and actions drawn from the returned masks,
with and without observations, every returned array of every step); the search's moves and
root statistics (MCTS, ISMCTS and the strong bot, fixed iterations, seeded positions, both
engines); and the pictures (``render.svg`` of every seat's view and the spectator's).

    python tools/behaviour_hash.py                 # both engines, 12 games a line
    python tools/behaviour_hash.py --games 40 --simulate 100000 --engine compiled
    python tools/behaviour_hash.py --game kasimir   # one game
    python tools/behaviour_hash.py --without-readings   # params without the readings' defaults
    python tools/behaviour_hash.py --fast-paths --games 4   # plus simulate, VectorGame, search, pictures
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from typing import Any, Dict, List

import numpy as np

import mousehole
from mousehole import records

#: with ``--without-readings``: the parameter names whose default values are left out of the
#: ``params`` of hashed dicts and records (the readings, which became parameters after the
#: baseline of the readings issue was taken; their defaults play exactly the old games)
DROP: Dict[str, Any] = {}


def _strip(x: Any) -> Any:
    if DROP and isinstance(x, dict) and isinstance(x.get("params"), dict):
        params = {k: v for k, v in x["params"].items() if not (k in DROP and DROP[k] == v)}
        return dict(x, params=params)
    return x


def _feed(h: "hashlib._Hash", x: Any) -> None:
    x = _strip(x)
    if isinstance(x, np.ndarray):
        h.update(str(x.dtype).encode() + str(x.shape).encode() + x.tobytes())
    else:
        h.update(json.dumps(x, sort_keys=True, default=repr).encode())
    h.update(b"\x00")


def play_hashes(name: str, players: int, engine: str, games: int) -> List[str]:
    game = mousehole.load(name, players=players, engine=engine)
    kinds = ("dicts", "views", "observations", "text", "describe", "records", "determinize", "returns")
    hs = {k: hashlib.sha256() for k in kinds}
    for g in range(games):
        rng = random.Random(1000 * players + g)
        state = game.new_state(seed=g)
        n = 0
        while not state.is_terminal() and n < 400:
            _feed(hs["dicts"], state.to_dict())
            if n % 5 == 0:
                for p in range(game.num_players):
                    _feed(hs["views"], state.to_dict(for_player=p))
                    _feed(hs["observations"], state.observation(p))
                _feed(hs["text"], str(state))
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                a = outcomes[rng.randrange(len(outcomes))][0]
            else:
                legal = list(state.legal_actions())
                a = legal[rng.randrange(len(legal))]
            _feed(hs["describe"], state.describe(a))
            if n % 3 == 0:
                for p in range(game.num_players):
                    _feed(hs["describe"], state.describe(a, for_player=p))
            state.apply(a)
            n += 1
        _feed(hs["dicts"], state.to_dict())
        _feed(hs["text"], str(state))
        _feed(hs["returns"], [state.returns(), list(state.scores()), list(state.winners()), state.is_terminal()])
        rec = json.loads(records.dumps(state))
        rec.pop("date", None)
        _feed(hs["records"], rec)
        for p in range(game.num_players):
            view = state.to_dict(for_player=p)
            _feed(hs["determinize"], game.determinize_view(view, seed=g).to_dict())
    return [f"{k:<12} {name:<16} {players} {engine:<8} {h.hexdigest()[:16]}" for k, h in hs.items()]


def _reading_params(name: str) -> List[Dict[str, Any]]:
    """Every combination of the game's readings (one dict of parameters each; the defaults first)."""
    import itertools

    readings = type(mousehole.load(name, engine="python")).READINGS
    combos: List[Dict[str, Any]] = []
    for values in itertools.product(*[r.values for r in readings]):
        combos.append({r.param: v for r, v in zip(readings, values)})
    return combos or [{}]


def simulate_hashes(name: str, players: int, n: int) -> List[str]:
    """``simulate``'s whole result arrays, every reading combination and two turn limits."""
    h = hashlib.sha256()
    for params in _reading_params(name):
        for max_turns in (None, 40):
            extra = dict(params) if max_turns is None else dict(params, max_turns=max_turns)
            game = mousehole.load(name, players=players, engine="compiled", **extra)
            r = mousehole.simulate(game, n, seed=3)
            for x in (r.scores, r.winners, r.lengths, r.truncated):
                _feed(h, np.asarray(x))
    return [f"{'sim-arrays':<12} {name:<16} {players} {'compiled':<8} {h.hexdigest()[:16]}"]


def vector_hashes(name: str, players: int, engine: str, steps: int) -> List[str]:
    """Every array ``VectorGame`` returns, ``RANDOM`` and masked-random actions, with and
    without observations, all seats and one seat learning."""
    from mousehole.vector import RANDOM, VectorGame

    game = mousehole.load(name, players=players, engine=engine)
    h = hashlib.sha256()
    for seats in (None, [0]):
        for mode in ("random", "masked"):
            for observe in (True, False):
                vg = VectorGame(game, 16, seed=5, seats=seats)
                obs, info = vg.reset()
                _feed(h, obs)
                _feed(h, info["action_mask"])
                rng = np.random.default_rng(11)
                mask = info["action_mask"].copy()
                for _ in range(steps):
                    if mode == "random":
                        acts = np.full(16, RANDOM)
                    else:
                        acts = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
                    out = vg.step(acts, observe=observe or mode == "masked")
                    for x in out:
                        _feed(h, np.asarray(x))
                    mask = np.asarray(out[5]).copy()
    return [f"{'vector':<12} {name:<16} {players} {engine:<8} {h.hexdigest()[:16]}"]


def search_hashes(name: str, players: int, engine: str, positions: int) -> List[str]:
    """The search's chosen move and root statistics (MCTS, ISMCTS, the strong bot's search) on
    seeded positions reached by seeded random play, with fixed iterations."""
    from mousehole import bots

    game = mousehole.load(name, players=players, engine=engine)
    h = hashlib.sha256()
    for k in range(positions):
        state = game.new_state(seed=100 + k)
        rng = random.Random(k)
        for _ in range(rng.randrange(0, 25)):
            if state.is_terminal():
                break
            if state.is_chance_node():
                outs = state.chance_outcomes()
                state.apply(outs[rng.randrange(len(outs))][0])
            else:
                legal = list(state.legal_actions())
                state.apply(legal[rng.randrange(len(legal))])
        while state.is_chance_node():
            state.apply(state.chance_outcomes()[0][0])
        if state.is_terminal():
            continue
        for algorithm in ("mcts", "ismcts"):
            r = bots.search(state, algorithm=algorithm, iterations=60, seed=k, engine=engine)
            _feed(h, [r.action, list(r.actions), list(r.visits), [round(v, 9) for v in r.values]])
        bot = bots.StrongBot(60, seed=k)
        _feed(h, int(bot.step(state)) if engine == "compiled" or k < 2 else None)
    return [f"{'search':<12} {name:<16} {players} {engine:<8} {h.hexdigest()[:16]}"]


def picture_hashes(name: str, players: int, engine: str, games: int) -> List[str]:
    """``render.svg`` of every seat's view and the spectator's, every few positions."""
    from mousehole import render

    game = mousehole.load(name, players=players, engine=engine)
    h = hashlib.sha256()
    for g in range(games):
        rng = random.Random(7 * players + g)
        state = game.new_state(seed=50 + g)
        n = 0
        while not state.is_terminal() and n < 400:
            if n % 7 == 0:
                _feed(h, render.svg(state))
                for p in range(game.num_players):
                    _feed(h, render.svg(state, for_player=p))
            if state.is_chance_node():
                outs = state.chance_outcomes()
                state.apply(outs[rng.randrange(len(outs))][0])
            else:
                legal = list(state.legal_actions())
                state.apply(legal[rng.randrange(len(legal))])
            n += 1
        _feed(h, render.svg(state))
    return [f"{'pictures':<12} {name:<16} {players} {engine:<8} {h.hexdigest()[:16]}"]


def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--simulate", type=int, default=0, metavar="N")
    ap.add_argument("--engine", choices=["compiled", "python", "both"], default="both")
    ap.add_argument(
        "--game",
        action="append",
        choices=mousehole.game_names(),
        help="only this game (repeat for several; default: every game)",
    )
    ap.add_argument(
        "--without-readings",
        action="store_true",
        help="leave the readings (Game.READINGS) at their default values out of the params of "
        "hashed dicts and records, to compare with hashes taken before they existed",
    )
    ap.add_argument(
        "--fast-paths",
        action="store_true",
        help="also hash simulate's arrays (every reading combination), VectorGame, the search and the pictures",
    )
    args = ap.parse_args(argv)
    if args.without_readings:
        for name in mousehole.game_names():
            for r in type(mousehole.load(name, engine="python")).READINGS:
                DROP[r.param] = r.default
    engines = ["compiled", "python"] if args.engine == "both" else [args.engine]
    engines = [e for e in engines if e in mousehole.available_engines()]
    for name in args.game or mousehole.game_names():
        cls = type(mousehole.load(name, engine="python"))
        for players in range(cls.min_players, cls.max_players + 1):
            for engine in engines:
                for line in play_hashes(name, players, engine, args.games):
                    print(line, flush=True)
            if args.fast_paths:
                for engine in engines:
                    for line in (
                        vector_hashes(name, players, engine, 60)
                        + search_hashes(name, players, engine, 4)
                        + picture_hashes(name, players, engine, 2)
                    ):
                        print(line, flush=True)
                if "compiled" in engines:
                    for line in simulate_hashes(name, players, 300):
                        print(line, flush=True)
            if args.simulate and "compiled" in mousehole.available_engines():
                s = mousehole.simulate(
                    mousehole.load(name, players=players, engine="compiled"), args.simulate, seed=1, aggregate=True
                )
                h = hashlib.sha256()
                _feed(h, repr(s))
                print(f"{'simulate':<12} {name:<16} {players} {'compiled':<8} {h.hexdigest()[:16]}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
