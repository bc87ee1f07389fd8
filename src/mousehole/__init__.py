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
    load,
)
from ._rng import Rng
from ._simulate import SimulationResult, SimulationSummary, simulate

# Registration: importing a game module registers it.
from . import cheese_rescue  # noqa: E402,F401  (registers "cheese_rescue")
from . import kasimir  # noqa: E402,F401  (registers "kasimir")
from . import maus_au_chocolat  # noqa: E402,F401  (registers "maus_au_chocolat")
from . import m  # noqa: E402,F401  (registers "m")

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
