"""Differential tests: the compiled engine and the pure-Python reference play the same seeded
random games and must agree at every step: legal actions, the whole state (to_dict: table,
hands, pile, generator, history), observations, scores and winners; and ``simulate`` must
return identical arrays on both engines."""

from __future__ import annotations

from typing import Any, Dict, Tuple

import numpy as np
import pytest

import mousehole
from gamecases import CASES, IDS, scale
from mousehole._rng import Rng, derive

pytestmark = pytest.mark.differential


def _pair(case: Tuple[str, Dict[str, Any]]) -> Tuple[Any, Any]:
    name, params = case
    return mousehole.load(name, engine="compiled", **params), mousehole.load(name, engine="python", **params)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_engines_agree_step_by_step(case: Tuple[str, Dict[str, Any]]) -> None:
    gc, gp = _pair(case)
    n = gc.num_players
    for g in range(scale(40)):
        c, p = gc.new_state(seed=g), gp.new_state(seed=g)
        rng = Rng(derive(g, 77))
        steps = 0
        while True:
            assert c.to_dict() == p.to_dict(), f"game {g}, step {steps}: states differ"
            assert c.current_player == p.current_player
            lc, lp = c.legal_actions(), p.legal_actions()
            assert np.array_equal(lc, lp), f"game {g}, step {steps}: legal actions differ"
            assert c.scores() == p.scores()
            if steps % 7 == 0 or c.is_terminal():
                for seat in range(n):
                    assert np.array_equal(c.observation(seat), p.observation(seat))
                    assert c.to_dict(for_player=seat) == p.to_dict(for_player=seat)
                assert c.determinize(0, steps).to_dict() == p.determinize(0, steps).to_dict()
            if c.is_terminal():
                break
            a = int(lc[rng.below(len(lc))])
            c.apply_action(a)
            p.apply_action(a)
            steps += 1
        assert p.is_terminal()
        assert c.winners() == p.winners() and c.returns() == p.returns()
        assert c.truncated == p.truncated
        assert c.history == p.history


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_simulate_agrees(case: Tuple[str, Dict[str, Any]]) -> None:
    gc, gp = _pair(case)
    n = scale(60)
    rc = mousehole.simulate(gc, n, seed=2026)
    rp = mousehole.simulate(gp, n, seed=2026)
    for field in ("scores", "winners", "lengths", "truncated"):
        assert np.array_equal(getattr(rc, field), getattr(rp, field)), field
    r4 = mousehole.simulate(gc, 4 * n, seed=2026, threads=2)
    assert np.array_equal(r4.scores[:n], rc.scores), "results depend only on the seed, not on threads"
