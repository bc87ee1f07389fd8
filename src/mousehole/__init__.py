"""mousehole: exact, fast rules engines for four tabletop games.

>>> import mousehole
>>> "cheese_rescue" in mousehole.game_names()   # every registered game's id
True
>>> game = mousehole.load("cheese_rescue", players=2)
>>> state = game.new_state(seed=7)
>>> state.current_player
0
"""

from __future__ import annotations

from typing import Any

from . import _api
from ._api import (
    CHANCE,
    TERMINAL,
    Game,
    IllegalMoveError,
    MouseholeError,
    Move,
    ParameterError,
    Reading,
    StateAPI,
    StateError,
    available_engines,
    default_engine,
    game_names,
)

# The typed load sits above the games: importing it imports, and so registers, the four game
# modules (mousehole.cheese_rescue, .kasimir, .m, .maus_au_chocolat); _api below them imports
# none of them. StateAPI._repr_svg_ reaches mousehole.render through _api.svg_drawer, set
# here (render is imported on first use only).
from ._load import load
from ._rng import Rng
from ._simulate import SimulationResult, SimulationSummary, simulate


def _svg(state: StateAPI[Any]) -> str:
    from .render import svg

    return svg(state)


_api.svg_drawer = _svg

__version__ = "0.1.0"

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Game",
    "IllegalMoveError",
    "MouseholeError",
    "Move",
    "ParameterError",
    "Reading",
    "Rng",
    "SimulationResult",
    "SimulationSummary",
    "StateAPI",
    "StateError",
    "available_engines",
    "default_engine",
    "game_names",
    "load",
    "simulate",
    "__version__",
]
