"""Pictures of positions: :func:`svg` draws any state of any game as an SVG 1.1 image.

>>> import mousehole
>>> from mousehole.render import svg
>>> state = mousehole.load("kasimir", players=2).new_state(seed=1)
>>> picture = svg(state, size=400)
>>> picture.startswith("<svg ")
True

The picture is drawn from the state's dictionary only (``state.to_dict()``, or
``state.to_dict(for_player=p)`` for seat ``p``'s view), so both engines draw the same bytes
and a seat's view cannot show what the seat may not see: in a view, every card hidden from
the seat is drawn face down (its back), and two states with the same view for that seat
draw the same picture. Scores, the seat to move and the winners come from a state built
from that dictionary alone (for a view: ``game.determinize_view(view, 0)``; every score of
the four games is public, so it is the state's own).

The output is deterministic (same state, same bytes), plain ASCII (other characters are
written as XML character references) and uses no external resource: shapes and text in
the DejaVu Sans / Verdana / Arial / sans-serif fonts. Every picture of one game with one set
of parameters has the same size, so the frames of a game line up.

Each game is drawn by its own module of this package, named by the game's
``Game.DRAWING`` (``mousehole.render.m``, ``mousehole.render.cheese_rescue``,
``mousehole.render.kasimir``, ``mousehole.render.maus_au_chocolat``) and imported on first
use; its class ``Drawing`` draws on the shared canvas of ``mousehole.render._canvas``.

Layout (per game, see ``docs/gallery.md``):

* **M**: the 8 x 8 window of the table (absolute row/column numbers on the edges; cards
  with their colour, value and symbol; the scoring row ringed in gold, the last card laid
  ringed in black), the draw pile, and per seat its chips, hand, taken cards per colour
  (with the colour totals) and score (M-20).
* **Cheese Rescue**: the square around the cards (cells where no card may go any more,
  CR-8, are hatched), animals by kind, cheese coloured by its owner with its value; per
  seat the hand (animals hidden from a view as face-down cards) and score (CR-13); at the
  end the cards removed by CR-12 are crossed out.
* **Kater Kasimir**: the track as a winding path of numbered spaces with its traps (the
  caught mouse framed in black), the towers of mice bottom to top by colour, the pantry,
  the hole (with who got home first, KK-13) and the die.
* **Maus au Chocolat**: the display, the draw and discard piles, the helper row, and per
  seat its helper, victory points, hand (face down for the others in a view), bid (face
  down until the reveal) and victory-point cards.
"""

from __future__ import annotations

import importlib
import math
import numbers
from typing import Any, Dict, Optional, Tuple

import numpy as np

from .._api import Game, StateAPI, check_seat
from .._values import shorten
from ._canvas import Facts

__all__ = ["svg", "text", "rgb_array", "MIN_SIZE", "MAX_SIZE"]

#: the smallest ``size`` (width in pixels) of :func:`svg` and :func:`rgb_array`
MIN_SIZE = 16
#: the largest ``size`` (width in pixels) of :func:`svg` and :func:`rgb_array`; a picture
#: :func:`rgb_array` rasterizes is at most this many pixels high too (4,096 x 4,096 pixels
#: are 48 MiB of RGB, 64 MiB in cairo)
MAX_SIZE = 4096

# the ``Drawing`` class of each drawing module imported so far, by module name
_DRAWINGS: Dict[str, Any] = {}


def _drawing(game: Game[Any, Any]) -> Any:
    """The ``Drawing`` class of ``game``: the one of the module its class names in
    ``Game.DRAWING``, imported on first use."""
    name = type(game).DRAWING
    if not isinstance(name, str) or not name:
        raise ValueError(
            f"no picture for the game {game.name!r}: its class declares no DRAWING module "
            f"(the dotted name of its drawing module), got {name!r}"
        )
    found = _DRAWINGS.get(name)
    if found is None:  # the import system serializes imports; two threads store the same class
        found = getattr(importlib.import_module(name), "Drawing", None)
        if found is None:
            raise ValueError(f"no picture for the game {game.name!r}: its DRAWING module {name!r} has no class Drawing")
        _DRAWINGS[name] = found
    return found


def _check_size(size: Any) -> Optional[float]:
    """``size`` as a float from :data:`MIN_SIZE` to :data:`MAX_SIZE` (None: the picture's
    own size); ``TypeError`` for what is not a real number (a bool, a str), ``ValueError``
    outside the range (NaN, infinities, 1e-300, 2**64)."""
    if size is None:
        return None
    if isinstance(size, (bool, np.bool_)) or not isinstance(size, numbers.Real):
        raise TypeError(
            f"size must be a number of pixels (the picture's width) from {MIN_SIZE} to {MAX_SIZE:,}, "
            f"not {type(size).__name__}"
        )
    try:
        s = float(size)
    except (OverflowError, ValueError):  # (an int or a Fraction beyond any double)
        s = math.inf
    if not MIN_SIZE <= s <= MAX_SIZE:  # (NaN fails too)
        raise ValueError(
            f"size must be a number of pixels (the picture's width) from {MIN_SIZE} to {MAX_SIZE:,}, "
            f"got {shorten(size)}"
        )
    return s


def svg(state: StateAPI[Any], *, for_player: Optional[int] = None, size: Optional[float] = None) -> str:
    """The position of ``state`` as an SVG 1.1 document (a ``str``).

    ``for_player``: draw seat ``for_player``'s view (``state.to_dict(for_player=...)``):
    every card that seat may not see is drawn face down. ``size``: the width in pixels
    (the height keeps the picture's proportions), from :data:`MIN_SIZE` to
    :data:`MAX_SIZE`; by default the picture's own size.
    Raises ``TypeError`` for a state that is not a mousehole state or a ``size`` that is
    not a number, ``ValueError`` for a seat out of range or a ``size`` outside its range.
    """
    return _picture(state, for_player, size)[0]


def _picture(state: StateAPI[Any], for_player: Optional[int], size: Optional[float]) -> Tuple[str, float, float]:
    """:func:`svg`'s document, with its width and height in pixels."""
    if not isinstance(state, StateAPI):
        raise TypeError(f"svg() draws a mousehole state, not {type(state).__name__}")
    px = _check_size(size)
    seat = None if for_player is None else check_seat(state.game, for_player, "for_player")
    d = state.to_dict(for_player=seat)
    drawer = _drawing(state.game)
    facts = Facts(state, d if seat is not None else None)
    cv = drawer(state, d, facts).draw()
    title = f"{state.game.title}: {'the whole position' if seat is None else f'the view of seat {seat}'}"
    width = float(cv.width) if px is None else px
    return str(cv.finish(title, px)), width, width * float(cv.height) / float(cv.width)


def text(state: StateAPI[Any], *, for_player: Optional[int] = None) -> str:
    """The position of ``state`` as the text diagram (``str(state)``), or as seat
    ``for_player`` sees it: drawn from ``state.to_dict(for_player=...)`` alone, so two states
    with the same view for that seat give the same text and nothing hidden from the seat
    appears. Raises ``TypeError`` for a non-mousehole state, ``ValueError`` for a bad seat.

    >>> import mousehole
    >>> state = mousehole.load("m", players=3).new_state(seed=1)
    >>> text(state, for_player=0) == text(state.determinize(0, seed=5), for_player=0)
    True
    """
    if not isinstance(state, StateAPI):
        raise TypeError(f"text() draws a mousehole state, not {type(state).__name__}")
    if for_player is None:
        return str(state)
    seat = check_seat(state.game, for_player, "for_player")
    return state.game._render(state.to_dict(for_player=seat))


def rgb_array(state: StateAPI[Any], *, for_player: Optional[int] = None, size: Optional[float] = None) -> Any:
    """The picture of :func:`svg` rasterized: a ``numpy.uint8`` array of shape
    ``(height, width, 3)`` (RGB, on white). Needs the ``render`` extra
    (CairoSVG and Pillow: ``pip install 'cairosvg>=2.7' 'pillow>=9'``) and the system cairo
    library; raises ``ImportError`` saying what to install when they are missing. ``size`` as
    for :func:`svg` (:data:`MIN_SIZE` to :data:`MAX_SIZE`); a picture that would be more than
    :data:`MAX_SIZE` pixels high at that width is refused with ``ValueError`` before
    anything is rasterized."""
    import io

    try:
        import cairosvg  # type: ignore[import-untyped]
        from PIL import Image
    except (ImportError, OSError) as e:  # OSError: cairocffi without the cairo library
        from .._extras import install_hint

        raise ImportError(
            "mousehole.render.rgb_array needs CairoSVG, Pillow and the system cairo library: "
            f"{install_hint('render')}, and cairo (Debian: apt-get install libcairo2): {e}"
        ) from e
    picture, width, height = _picture(state, for_player, size)
    if round(height) > MAX_SIZE:
        raise ValueError(
            f"rgb_array: the picture would be {round(width):,} x {round(height):,} pixels; at most "
            f"{MAX_SIZE:,} pixels high (give a smaller size)"
        )
    png = cairosvg.svg2png(bytestring=picture.encode("ascii"), background_color="white")
    with Image.open(io.BytesIO(png)) as im:
        arr = np.asarray(im.convert("RGB"), dtype=np.uint8)
    return np.ascontiguousarray(arr)
