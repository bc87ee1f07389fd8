"""What a served table shows each seat and each spectator, built from views alone.

* A **seat** ``p`` sees ``state.to_dict(for_player=p)``: its picture is
  :func:`mousehole.render.svg` of that view, the moves of the others are
  :meth:`Game.describe_seen <mousehole._api.Game.describe_seen>` of its views before and
  after each move, and its legal moves are read from a state dealt from its view alone
  (:func:`seat_twin`: ``game.determinize_view``), so even an error message about an
  illegal move cannot name a card the seat may not see.
* A **spectator** sees the *public view* (:func:`public_view`): the parts on which every
  seat's view agrees, everything else ``None``. What is in it, every seat sees; so a
  spectator knows less than any seat. Its picture is drawn by the game's own drawing with
  every hand face down (:func:`public_svg`), and the moves are described from two public
  views as from a seat's.

Nothing here reads the seed or the generator: the whole state's dict is never built.
"""

from __future__ import annotations

import functools
import json
from typing import Any, Dict, List, Mapping, Optional, Sequence

from .._api import Game, StateAPI

__all__ = ["public_view", "public_svg", "draw_picture", "seat_twin", "end_text", "END_TEXTS"]


def _common(values: Sequence[Any]) -> Any:
    """The value every item of ``values`` agrees on, part by part (lists and dicts of the
    same shape are compared item by item); ``None`` wherever they differ."""
    first = values[0]
    kind = type(first)
    if any(type(v) is not kind for v in values):
        return None
    if kind is dict:
        keys = list(first)
        if any(list(v) != keys for v in values):
            return None
        return {k: _common([v[k] for v in values]) for k in keys}
    if kind is list:
        if any(len(v) != len(first) for v in values):
            return None
        return [_common([v[i] for v in values]) for i in range(len(first))]
    return first if all(v == first for v in values) else None


def public_view(views: Sequence[Mapping[str, Any]]) -> Dict[str, Any]:
    """The public view of a position from the views of all its seats (``views[p] ==
    state.to_dict(for_player=p)``): every part on which all views agree, ``None`` where they
    differ. Its ``"view"`` is the number of seats (no seat: every hand is someone else's).

    >>> import mousehole
    >>> state = mousehole.load("m", players=3).new_state(seed=1)
    >>> pub = public_view([state.to_dict(for_player=p) for p in range(3)])
    >>> pub["hands"][0], pub["view"]
    ([None, None, None, None], 3)
    """
    if not views:
        raise ValueError("public_view needs the views of every seat")
    d: Dict[str, Any] = _common([dict(v) for v in views])
    d["view"] = len(views)
    return d


def public_svg(state: StateAPI[Any], public: Mapping[str, Any]) -> str:
    """The picture of the public view ``public`` of ``state`` (:func:`public_view`), drawn
    by the game's own drawing as the view of a seat that holds no card: every hand face
    down, the seat to move, the scores and the winners from ``state`` (all four games make
    them public, so any state with the same public view gives the same picture: a state
    dealt from one seat's view does). The header says "spectator's view"."""
    from ..render import _drawing
    from ..render._canvas import Facts

    base: Any = _drawing(state.game)
    n = state.game.num_players

    class _Public(base):  # type: ignore[misc]
        def label(self, p: int) -> str:
            return "spectator" if p == n else str(base.label(self, p))

    cv = _Public(state, dict(public), Facts(state, None)).draw()
    return str(cv.finish(f"{state.game.title}: the public view", None))


@functools.lru_cache(maxsize=64)
def _game(name: str, params: str, engine: Optional[str]) -> Game[Any, Any]:
    from .. import load

    return load(name, engine=engine, **json.loads(params))


def draw_picture(
    name: str, params: str, engine: Optional[str], view: Dict[str, Any], seat_view: Optional[Dict[str, Any]] = None
) -> str:
    """The picture of a seat's view (``view``; ``seat_view`` None), or of the public view
    (``view``, with ``seat_view`` any seat's view for the public facts: the seat to move,
    the scores, the winners). It reads nothing but views, so it runs as well in a worker
    process (the server draws there, off its event loop): the game is loaded from its id
    and parameters (JSON text), and the state drawn from is dealt from a view alone."""
    from ..render import svg

    game = _game(name, params, engine)
    if seat_view is None:
        return svg(seat_twin(game, view), for_player=int(view["view"]))
    return public_svg(seat_twin(game, seat_view), view)


def seat_twin(game: Game[Any, Any], view: Mapping[str, Any]) -> StateAPI[Any]:
    """A state dealt from seat ``view["view"]``'s view alone (``game.determinize_view(view,
    0)``): what the seat may do there, and every message about it, is the same as in the
    real position, and cannot depend on anything else."""
    twin: StateAPI[Any] = game.determinize_view(view, 0)
    return twin


# --------------------------------------------------------------------------------------
# why a game ended (the rule, in words), from the public view


def _m_end(pub: Mapping[str, Any]) -> str:
    return {
        "M-16": "a scoring started with the draw pile empty, and the game ended when it was complete (M-16)",
        "M-17": "no card still in play could be placed on the table any more (M-17)",
        "M-18": "the draw pile was empty and every player passed in turn (M-18)",
    }.get(str(pub.get("end")), "the game reached its end")


#: why a finished game ended, per game id: a sentence, or a function of the public view
END_TEXTS: Dict[str, Any] = {
    "m": _m_end,
    "cheese_rescue": "the square is full: every player has laid all their cards (CR-11); each scores "
    "the cheese of their colour still on the table (CR-13)",
    "kasimir": "no mouse is still on the way: every mouse is home or trapped (KK-12); most mice in the "
    "hole wins (KK-13)",
    "maus_au_chocolat": "a player reached the target of victory points after a round's combinations "
    "(MC-24); most victory points wins (MC-25)",
}


def end_text(game: Game[Any, Any], pub: Mapping[str, Any], *, truncated: bool) -> str:
    """Why the game of public view ``pub`` ended, in words with the rule id."""
    if truncated:
        return f"the game was stopped at its turn limit (max_turns={game.params.get('max_turns')})"
    how = END_TEXTS.get(game.name)
    if how is None:
        return "the game reached its end"
    return str(how(pub) if callable(how) else how)


def result_lines(scores: Sequence[int], winners: Sequence[int], labels: Sequence[str]) -> List[str]:
    """``["seat 0 (ann): 12 (winner)", ...]``: every seat's score, the winners marked."""
    return [f"{labels[p]}: {scores[p]}" + (" (winner)" if p in winners else "") for p in range(len(labels))]


def who(p: Optional[int], labels: Sequence[str]) -> str:
    return "chance" if p is None or p < 0 else labels[p]
