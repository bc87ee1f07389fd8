"""The typed :func:`mousehole.load`: above the game modules (the package imports it after
them), so that ``mousehole._api`` below them imports none of them, not even for typing.

Each game adds one overload here (``docs/adding_a_game.md``); the registry lookup itself is
``mousehole._api.load``.
"""

from __future__ import annotations

from typing import Any, Literal, Optional, overload

from . import _api
from ._api import Game
from .cheese_rescue import CheeseRescue
from .kasimir import Kasimir
from .m import M
from .maus_au_chocolat import MausAuChocolat

__all__ = ["load"]


@overload
def load(name: Literal["cheese_rescue"], *, engine: Optional[str] = None, **params: Any) -> CheeseRescue: ...
@overload
def load(name: Literal["kasimir"], *, engine: Optional[str] = None, **params: Any) -> Kasimir: ...
@overload
def load(name: Literal["m"], *, engine: Optional[str] = None, **params: Any) -> M: ...
@overload
def load(name: Literal["maus_au_chocolat"], *, engine: Optional[str] = None, **params: Any) -> MausAuChocolat: ...
@overload
def load(name: str, *, engine: Optional[str] = None, **params: Any) -> Game[Any, Any]: ...


def load(name: str, *, engine: Optional[str] = None, **params: Any) -> Game[Any, Any]:
    """Load game ``name`` with keyword parameters (every one has a default).

    The return type follows the game id for a type checker: ``load("m")`` is an
    :class:`~mousehole.m.M`, whose ``new_state()`` is an :class:`~mousehole.m.MState`.

    >>> import mousehole
    >>> g = mousehole.load("cheese_rescue", players=2, engine="python")
    >>> g.num_players, g.engine
    (2, 'python')
    """
    return _api.load(name, engine=engine, **params)
