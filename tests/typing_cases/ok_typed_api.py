"""A user's script written against mousehole's typed API.

tests/test_typing.py checks it with ``mypy --strict`` and with basedpyright in strict mode
(both must report nothing), and runs it: every ``assert_type`` below is what a type checker
infers, and the calls are real, so the script also works on either engine.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Sequence, TypeVar

import numpy as np
import numpy.typing as npt
from typing_extensions import assert_type

import mousehole
from mousehole import Game, Move, StateAPI
from mousehole.cheese_rescue import CheeseRescue, CheeseRescueState, CRMove
from mousehole.kasimir import Kasimir, KasimirMove, KasimirState
from mousehole.m import M, MMove, MState
from mousehole.maus_au_chocolat import MausAuChocolat, MausAuChocolatState, MCMove

S = TypeVar("S", bound=StateAPI[Any])


# -- code generic over every game: StateAPI[Any] and Game[S, Any] -------------------------


def play(state: StateAPI[Any], steps: int) -> int:
    """Play the first legal action (or chance outcome) up to ``steps`` times."""
    done = 0
    while done < steps and not state.is_terminal():
        if state.is_chance_node():
            action, _probability = state.chance_outcomes()[0]
            state.apply(action)
        else:
            actions: npt.NDArray[np.int64] = state.legal_actions()
            state.apply_action(actions[0])  # a numpy integer is an action
        done += 1
    return done


def replay(game: Game[S, Any], seed: int, actions: Sequence[int]) -> S:
    """A new state of ``game`` after ``actions``: the state type follows the game."""
    state = game.new_state(seed)
    for a in actions:
        state.apply(a)
    return state


def seats_view(state: StateAPI[Any], seat: int) -> Dict[str, Any]:
    """What ``seat`` may see, through JSON and back."""
    view: Dict[str, Any] = json.loads(json.dumps(state.to_dict(for_player=seat)))
    return view


# -- M ------------------------------------------------------------------------------------


def check_m() -> MState:
    game = mousehole.load("m", players=3)
    assert_type(game, M)
    state = game.new_state(seed=11)
    assert_type(state, MState)
    moves = state.legal_moves()
    assert_type(moves, List[MMove])
    first: MMove = moves[0]
    assert game.parse_move(str(first)) == first
    assert_type(game.parse_move(str(first)), MMove)
    assert_type(game.action_to_move(game.move_to_action(first)), MMove)
    text: str = state.describe(first)
    assert state.parse_action(text) == game.move_to_action(first)
    state.apply(first)
    state.apply(int(state.legal_actions()[0]))
    assert_type(state.clone(), MState)
    assert_type(state.determinize(0, seed=5), MState)
    assert_type(game.state_from_dict(state.to_dict()), MState)
    assert_type(game.determinize_view(seats_view(state, 1), seed=5), MState)
    assert state.determinize(1, seed=5) == game.determinize_view(seats_view(state, 1), seed=5)
    assert_type(replay(game, 11, list(state.history)), MState)
    return state


# -- Cheese Rescue ------------------------------------------------------------------------


def check_cheese_rescue() -> CheeseRescueState:
    game = mousehole.load("cheese_rescue", players=2)
    assert_type(game, CheeseRescue)
    state = game.new_state(seed=3)
    assert_type(state, CheeseRescueState)
    moves = state.legal_moves()
    assert_type(moves, List[CRMove])
    move = moves[0]
    assert game.parse_move(str(move)) == move
    state.apply(move)
    state.apply(CRMove.from_str(str(state.legal_moves()[0])))
    actions = state.legal_actions()
    assert_type(actions, npt.NDArray[np.int64])
    assert_type(game.action_to_move(actions[0]), CRMove)  # numpy integers are actions
    assert state.parse_action(state.describe(actions[0])) == actions[0]
    state.apply(actions[0])
    assert_type(state.clone(), CheeseRescueState)
    assert_type(state.determinize(1, 7), CheeseRescueState)
    assert_type(game.state_from_dict(state.to_dict()), CheeseRescueState)
    assert_type(game.determinize_view(seats_view(state, 0), 7), CheeseRescueState)
    mask: npt.NDArray[np.bool_] = state.legal_action_mask()
    assert mask.sum() == len(state.legal_actions())
    return state


# -- Kater Kasimir ------------------------------------------------------------------------


def check_kasimir() -> KasimirState:
    game = mousehole.load("kasimir", players=np.int64(3))  # numpy integers are parameters too
    assert_type(game, Kasimir)
    state = game.new_state(seed=np.int64(9))
    assert_type(state, KasimirState)
    moves = state.legal_moves()
    assert_type(moves, List[KasimirMove])
    move: KasimirMove = game.action_to_move(int(state.legal_actions()[0]))
    assert move == moves[0]
    state.apply(move)
    play(state, 10)
    assert_type(state.clone(), KasimirState)
    assert_type(state.determinize(2, 1), KasimirState)
    assert_type(game.state_from_dict(state.to_dict()), KasimirState)
    assert_type(game.determinize_view(seats_view(state, 2), 1), KasimirState)
    return state


# -- Maus au Chocolat ---------------------------------------------------------------------


def check_maus_au_chocolat() -> MausAuChocolatState:
    game = mousehole.load("maus_au_chocolat")
    assert_type(game, MausAuChocolat)
    state = game.new_state(seed=4)
    assert_type(state, MausAuChocolatState)
    moves = state.legal_moves()
    assert_type(moves, List[MCMove])
    state.apply(moves[-1])
    assert isinstance(moves[-1], Move)
    play(state, 5)
    assert_type(state.clone(), MausAuChocolatState)
    assert_type(state.determinize(0, 2), MausAuChocolatState)
    assert_type(game.state_from_dict(state.to_dict()), MausAuChocolatState)
    assert_type(game.determinize_view(seats_view(state, 1), 2), MausAuChocolatState)
    return state


# -- a game chosen at run time: the general Game[Any, Any] --------------------------------


def check_any_game(name: str) -> int:
    game = mousehole.load(name)
    assert_type(game, Game[Any, Any])
    state: StateAPI[Any] = game.new_state(seed=1)
    return play(state, 20)


def main() -> None:
    states: List[StateAPI[Any]] = [check_m(), check_cheese_rescue(), check_kasimir(), check_maus_au_chocolat()]
    for state in states:
        returns: List[float] = state.returns()
        assert len(returns) == state.game.num_players
    for name in mousehole.game_names():
        assert check_any_game(name) > 0


if __name__ == "__main__":
    main()
    print("ok")
