"""mousehole: exact, fast rules engines for four tabletop games.

>>> import mousehole
>>> mousehole.game_names()
['cheese_rescue', 'kasimir', 'm', 'maus_au_chocolat']
>>> game = mousehole.load("cheese_rescue", players=2)
>>> state = game.new_state(seed=7)
>>> state.current_player
0
"""
from __future__ import annotations

from typing import Any

from ._api import (
    CHANCE,
    TERMINAL,
    Game,
    IllegalMoveError,
    MouseholeError,
    Move,
    ParameterError,
    StateAPI,
    StateError,
    available_engines,
    default_engine,
    game_names,
)
from ._rng import Rng
from ._simulate import SimulationResult, SimulationSummary, simulate

# Registration: importing a game module registers it.
from . import cheese_rescue  # noqa: E402,F401  (registers "cheese_rescue")
from . import kasimir  # noqa: E402,F401  (registers "kasimir")
from . import maus_au_chocolat  # noqa: E402,F401  (registers "maus_au_chocolat")
from . import m  # noqa: E402,F401  (registers "m")

# Above the games: the typed load (its overloads name the game classes), and the drawer of
# StateAPI._repr_svg_ (mousehole.render, imported on first use only).
from ._load import load  # noqa: E402
from . import _api  # noqa: E402


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
