"""Every registered game's notation, over the registry (``gamecases.CASES``: each game at every
player count it allows and the extra configurations of its profile), on both engines:

* ``str(move)`` of every action is its own, and ``game.parse_move`` reads it back to the same
  move and action;
* a seeded random game written out with ``state.describe`` reads back through
  ``state.parse_action`` on a fresh state, action by action, to the same final state; at every
  step the legal actions' texts are distinct and each reads back to its action;
* text that is no move of the game is a ``ValueError``, and a move that is not legal in the
  state a ``ValueError`` (an ``IllegalMoveError`` naming the rule), leaving the state as it was.

The strings written for positions built by hand, and each game's own refusals with their
words, are the game's own (``tests/test_<id>_rules.py``, section notation)."""

from __future__ import annotations

from typing import Any, Dict, Tuple

import pytest

import mousehole
from gamecases import CASES, IDS, NAMES, write_out
from mousehole._rng import Rng


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_every_action_round_trips_through_its_str(case: Tuple[str, Dict[str, Any]], engine: str) -> None:
    name, params = case
    game = mousehole.load(name, engine=engine, **params)
    texts = set()
    for a in range(game.num_actions):
        move = game.action_to_move(a)
        text = str(move)
        assert game.parse_move(text) == move, (a, text)
        assert game.move_to_action(game.parse_move(text)) == a, (a, text)
        texts.add(text)
    assert len(texts) == game.num_actions


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_written_out_game_reads_back(case: Tuple[str, Dict[str, Any]], engine: str) -> None:
    name, params = case
    end, written = write_out(mousehole.load(name, engine=engine, **params), 11, Rng(5))
    assert end.is_terminal() and len(written) == len(end.history)


@pytest.mark.parametrize("name", NAMES)
def test_text_that_is_no_move_is_refused(name: str, engine: str) -> None:
    game = mousehole.load(name, engine=engine)
    s = game.new_state(seed=2)
    before = s.to_dict()
    for bad in ("", "   ", "no such move at all", "@@@", "1 2 3 4 5 6 7 8 9"):
        with pytest.raises(ValueError):
            game.parse_move(bad)
        with pytest.raises(ValueError):
            s.parse_action(bad)
    legal = {int(a) for a in s.legal_actions()}
    illegal = [a for a in range(game.num_actions) if a not in legal]
    for a in illegal[:: max(1, len(illegal) // 20)]:
        with pytest.raises(mousehole.IllegalMoveError):
            s.parse_action(str(game.action_to_move(a)))
    assert s.to_dict() == before
