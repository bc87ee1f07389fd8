"""``state.returns()`` is what ``docs/api.md`` says it is, on both engines: the statement of
the docs, written below as :func:`documented`, checked against every game's seeded games at
every player count and reading that changes how a game can end (``max_turns``, Kater
Kasimir's ``elimination``), and against positions that reach each clause (no winner, every
seat winning, some seats winning, before the end)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any, Dict, List

import pytest

import mousehole
from gamecases import CASES, IDS, random_states

ROOT = Path(__file__).resolve().parents[1]
#: the statement in the table of docs/api.md (the test fails when one changes without the other)
STATEMENT = (
    "a float per seat: 0.0 for every seat before the end; at the end +1.0 for each winner and "
    "-1.0 for each other seat, except 0.0 for every seat when every seat wins or when no seat wins in a "
    "2-player game (a game ends without a winner only in Kater Kasimir with "
    '`elimination="out_of_game"`, its default, every seat eliminated; with 3 or 4 players every seat '
    "then gets -1.0); an end by `max_turns` counts the same"
)


def documented(state: Any) -> List[float]:
    """The returns of ``state`` as docs/api.md states them, from ``winners()`` alone."""
    n = state.game.num_players
    if not state.is_terminal():
        return [0.0] * n
    won = set(state.winners())
    if len(won) == n or (not won and n == 2):
        return [0.0] * n
    return [1.0 if p in won else -1.0 for p in range(n)]


def clause(state: Any) -> str:
    if not state.is_terminal():
        return "before the end"
    won = len(state.winners())
    return "no winner" if won == 0 else "every seat wins" if won == state.game.num_players else "some win"


def test_the_docs_state_it() -> None:
    table = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    assert f"| `returns()` | {STATEMENT} |" in table


def _check_games(name: str, params: Dict[str, Any], engine: str, seeds: range, every: int) -> Counter:
    """Every ``every``-th state and every end of the seeded games: returns() as documented,
    floats; the clauses reached, counted."""
    game = mousehole.load(name, engine=engine, **params)
    reached: Counter = Counter()
    for seed in seeds:
        for i, s in enumerate(random_states(game, seed)):
            if i % every and not s.is_terminal():
                continue
            got = s.returns()
            assert all(type(x) is float for x in got), got
            assert got == documented(s), (name, params, seed, i, s.winners(), got)
            reached[clause(s)] += 1
    return reached


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_returns_of_seeded_games(case: Any, engine: str) -> None:
    name, params = case
    games = 12 if engine == "compiled" else 2
    reached = _check_games(name, params, engine, range(games), 7)
    reached += _check_games(name, {**params, "max_turns": 6}, engine, range(100, 100 + games), 1)  # truncated ends
    assert reached["before the end"] and reached["some win"] + reached["every seat wins"] + reached["no winner"]


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("elimination", ["skip_turns", "out_of_game"])
def test_every_clause_is_reached(elimination: str, players: int, engine: str) -> None:
    """Kater Kasimir at 2 and 3 players ends in each way: a winner, every seat winning (all
    mice caught under ``skip_turns``: 0 each) and, under ``out_of_game``, no winner (0 each at
    2 players, -1 each at 3); the other games reach a shared win of every seat when
    ``max_turns`` stops them at the start (every score 0)."""
    games = 60 if engine == "compiled" else 12
    reached = _check_games("kasimir", {"players": players, "elimination": elimination}, engine, range(games), 50)
    assert reached["some win"]
    if elimination == "skip_turns":
        assert reached["every seat wins"] and not reached["no winner"]
    else:
        assert reached["no winner"]
    for name in ("cheese_rescue", "m"):
        assert _check_games(name, {"players": 3, "max_turns": 1}, engine, range(3), 1)["every seat wins"]
