"""Replays of game records: move by move as text, or as one self-contained HTML page.

The page (:func:`html`) needs no server and no network: every position is an inline SVG
frame (:func:`mousehole.render.svg`), shown one at a time with a slider, previous and next
buttons and the arrow keys (Home and End jump to the start and the end). The last frame
shows the result. ``mousehole replay FILE [--html OUT] [--view SEAT]`` is the command-line
front end.

**Views.** With ``for_player=p`` everything produced is what seat ``p`` saw, and nothing
else: each picture is drawn from ``state.to_dict(for_player=p)``, each move's caption is
:meth:`Game.describe_seen <mousehole._api.Game.describe_seen>` of seat p's views just before
and just after it (so another seat's exchange in M reads ``exchange a card`` and another
seat's bid in Maus au Chocolat ``seat 1 bids face down`` until all bids are revealed), the
header holds only the record's public facts (game, parameters, seat names, date) and the
result line the final result (public once the game is over; ``unfinished game`` otherwise).
The record's own ``moves`` (the full notation) are not read. Every output for seat p is
therefore the same for two games that show seat p the same views at every step; the tests
check this against determinizations.

**Size.** A page grows linearly with the number of moves: each frame (its SVG picture, its
``<div>`` and its caption) takes at most :data:`FRAME_BYTES` (64 KiB; the largest picture
measured in random games is about 40 KB, at the most players of each game), and the page at
most ``head + (moves + 1) * FRAME_BYTES`` bytes, where ``head`` is the fixed part (style,
script, title and header, linear in the record's seat names, date and parameters). A frame
identical to the one before it is not written again. :func:`html` computes this bound
before drawing anything and refuses, with :class:`ReplayTooLargeError`, a record whose page
could exceed ``max_bytes`` (default :data:`MAX_PAGE_BYTES`, 256 MiB: about 4,000 moves), and
a picture larger than its share of :data:`FRAME_BYTES`. Captions are cut to
:data:`MAX_CAPTION` characters and seat names inside them to :data:`MAX_NAME` characters.

**Escaping.** Text output prints record fields (seat names, the date, parameters, moves) and
game text (card and colour names come from parameters): every line goes through
:func:`printable`, which writes control characters (C0, DEL, C1), lone surrogates, bidi and
other invisible format characters, and line or paragraph separators as visible escapes
(``\\x1b``, ``\\u202e``), so nothing in a record can move the cursor, recolour or reorder
the terminal. The HTML page applies the same escapes and then HTML's.
"""

from __future__ import annotations

import html as _html
import json
import unicodedata
from typing import Any, Dict, Iterator, List, Optional, Tuple

from mousehole import render
from mousehole._api import check_seat
from mousehole._values import is_int, shorten
from mousehole.records import Record, RecordError

__all__ = [
    "frames",
    "text_lines",
    "html",
    "printable",
    "page_bound",
    "ReplayTooLargeError",
    "FRAME_BYTES",
    "MAX_PAGE_BYTES",
    "MAX_CAPTION",
    "MAX_NAME",
]

#: the most bytes one frame adds to a page: its SVG picture, its ``<div>`` and its caption
FRAME_BYTES = 64 * 1024
#: the default largest page :func:`html` writes (``max_bytes``)
MAX_PAGE_BYTES = 256 * 2**20
#: the most characters of a caption (after escaping); a longer one is cut and ends in "..."
MAX_CAPTION = 400
#: the most characters of a seat name inside a caption (the header prints the whole name)
MAX_NAME = 32
# a caption takes at most 12 bytes per character in the page (JSON's \\uXXXX pairs for
# characters beyond the BMP), plus its separator; the <div> wrapper at most _DIV bytes
_CAPTION_BYTES = 12 * MAX_CAPTION + 4
_DIV = 96  # '<div class="frame" id="frame-k" hidden>', '</div>', a newline, its index in 'pictures'
#: the most bytes of one frame's SVG picture
MAX_PICTURE_BYTES = FRAME_BYTES - _CAPTION_BYTES - _DIV


class ReplayTooLargeError(RecordError):
    """A replay page that would be larger than allowed (a ``ValueError``)."""


_BIDI_AND_INVISIBLE = ("Cc", "Cf", "Cs", "Co", "Zl", "Zp")


def printable(text: str) -> str:
    """``text`` with every character that could act on a terminal or reorder text written
    as a visible escape: control characters (C0, DEL, C1) as ``\\xNN``, lone
    surrogates, bidi controls and other format characters, private-use characters and the
    line and paragraph separators as ``\\uNNNN`` (``\\UNNNNNNNN`` beyond the BMP). Every
    other character, backslashes included, is kept as it is.

    >>> printable("ann\\x1b[31m\\r")
    'ann\\\\x1b[31m\\\\x0d'
    """
    if not isinstance(text, str):
        raise TypeError(f"printable() takes a str, not {type(text).__name__}")
    if text.isascii() and text.isprintable():
        return text
    out = []
    for ch in text:
        o = ord(ch)
        if o < 0x80 and (o >= 0x20 and o != 0x7F):
            out.append(ch)
        elif unicodedata.category(ch) in _BIDI_AND_INVISIBLE:
            out.append(f"\\x{o:02x}" if o < 0x100 else f"\\u{o:04x}" if o < 0x10000 else f"\\U{o:08x}")
        else:
            out.append(ch)
    return "".join(out)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _seat_label(record: Record, p: int) -> str:
    return f"seat {p} ({_cut(printable(record.seats[p]), MAX_NAME)})"


def _who(state: Any, record: Record) -> str:
    p = state.current_player
    if p < 0:
        return "chance"
    return _seat_label(record, p)


def _check_view(record: Record, for_player: Optional[int], engine: Optional[str]) -> Optional[int]:
    if for_player is None:
        return None
    return check_seat(record.load_game(engine=engine), for_player, "for_player")


def frames(
    record: Record, *, for_player: Optional[int] = None, engine: Optional[str] = None
) -> Iterator[Tuple[int, str, Any]]:
    """``(k, caption, state)`` for the start (k = 0) and after each move k = 1, 2, ...

    The caption of move k is ``"k. seat q (name): <move>"``, the move in the record's
    notation, or with ``for_player=p`` as seat p saw it (:meth:`Game.describe_seen
    <mousehole._api.Game.describe_seen>` of p's views before and after it; the record's
    ``moves`` are not read). Captions are :func:`printable` and at most :data:`MAX_CAPTION`
    characters. ``state`` is the full position (a record holds everything): draw it with
    ``for_player`` to show a view."""
    p = _check_view(record, for_player, engine)
    states = record.states(engine=engine)
    prev = next(states)
    yield 0, "start", prev
    before = prev.to_dict(for_player=p) if p is not None else None
    for k, state in enumerate(states, 1):
        who = _who(prev, record)
        if p is None:
            move = record.moves[k - 1]
        else:
            after = state.to_dict(for_player=p)
            move = state.game.describe_seen(before, after)
            before = after
        yield k, _cut(printable(f"{k}. {who}: {move}"), MAX_CAPTION), state
        prev = state


def _result_line(record: Record) -> str:
    r = record.result
    if not r["terminal"]:
        return "unfinished game"
    names = [_seat_label(record, p) for p in r["winners"]]
    end = "truncated at the turn limit; " if r["truncated"] else ""
    won = ("won: " + ", ".join(names)) if names else "nobody won"
    return f"{end}{won}; scores {r['scores']}; returns {r['returns']}"


def _diagram(state: Any, for_player: Optional[int]) -> List[str]:
    diagram = render.text(state, for_player=for_player)
    return [printable(line) for line in diagram.split("\n")]


def _changed_params(record: Record) -> Dict[str, Any]:
    """The record's parameters that differ from the game's defaults at its player count."""
    from mousehole import load

    players = record.params.get("players")
    try:
        defaults = load(record.game, engine="python", players=players).params
    except Exception:  # noqa: BLE001  (a record whose player count alone does not load: show all)
        return dict(record.params)
    return {k: v for k, v in record.params.items() if defaults.get(k) != v}


def _params_line(record: Record) -> str:
    """``parameters: the defaults`` or the ones that differ (a table shortened)."""
    changed = _changed_params(record)
    if not changed:
        return "parameters: the defaults"
    shown = []
    for k, v in changed.items():
        text = json.dumps(v, ensure_ascii=False)
        shown.append(f"{k}={text if len(text) <= 60 else text[:57] + '...'}")
    return "parameters besides the defaults: " + ", ".join(shown)


def _title(record: Record) -> str:
    from mousehole._api import _REGISTRY

    cls = _REGISTRY.get(record.game)
    name = cls.title if cls is not None else record.game
    return f"{name}, {len(record.seats)} players"


def _header(record: Record) -> List[str]:
    lines = [
        printable(f"{_title(record)} ({record.game})"),
        printable(_params_line(record)),
        printable("seats: " + ", ".join(f"{p}: {s}" for p, s in enumerate(record.seats))),
    ]
    if record.date:
        lines.append(printable(f"date: {record.date}"))
    return lines


def text_lines(
    record: Record, *, diagrams: bool = False, for_player: Optional[int] = None, engine: Optional[str] = None
) -> Iterator[str]:
    """The game as text, one line at a time: a header (game and parameters, seats, date),
    one line per move (with the position after it when ``diagrams``), the final position
    and the result. With ``for_player`` every line is what that seat saw (the moves as
    :func:`frames` writes them, the positions drawn from its view). Every line is
    :func:`printable`: no control character of a record reaches the terminal."""
    p = _check_view(record, for_player, engine)
    yield from _header(record)
    last: Any = None
    for k, caption, state in frames(record, for_player=p, engine=engine):
        if k or diagrams:
            yield caption
        if diagrams:
            yield from _diagram(state, p)
        last = state
    if not diagrams:
        yield from _diagram(last, p)
    yield "result: " + _result_line(record)


_STYLE = """
details pre { white-space: pre-wrap; word-break: break-all; font-size: 0.8em; }
body { font-family: system-ui, sans-serif; margin: 1rem; color: #222; background: #fafafa; }
h1 { font-size: 1.2rem; margin: 0 0 .5rem; overflow-wrap: anywhere; }
#controls { display: flex; gap: .5rem; align-items: center; margin: .5rem 0; }
#slider { flex: 1; }
#caption { font-weight: 600; min-height: 1.5em; }
.frame svg { max-width: 100%; height: auto; }
#result { margin-top: .5rem; }
"""

# ``pictures[k]`` is the index of the <div> that shows frame k (a frame equal to the one
# before it reuses that frame's <div>)
_SCRIPT = """
(function () {
  var divs = document.querySelectorAll('.frame');
  var data = JSON.parse(document.getElementById('captions').textContent);
  var captions = data.captions, pictures = data.pictures, last = captions.length - 1;
  var slider = document.getElementById('slider');
  var caption = document.getElementById('caption');
  var result = document.getElementById('result');
  var current = 0, shown = 0;
  function show(k) {
    k = Math.max(0, Math.min(last, k));
    divs[shown].hidden = true;
    shown = pictures[k];
    divs[shown].hidden = false;
    current = k;
    slider.value = String(k);
    caption.textContent = captions[k];
    result.hidden = (k !== last);
    document.getElementById('prev').disabled = (k === 0);
    document.getElementById('next').disabled = (k === last);
  }
  document.getElementById('prev').addEventListener('click', function () { show(current - 1); });
  document.getElementById('next').addEventListener('click', function () { show(current + 1); });
  slider.addEventListener('input', function () { show(parseInt(slider.value, 10)); });
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowLeft') { show(current - 1); e.preventDefault(); }
    else if (e.key === 'ArrowRight') { show(current + 1); e.preventDefault(); }
    else if (e.key === 'Home') { show(0); e.preventDefault(); }
    else if (e.key === 'End') { show(last); e.preventDefault(); }
  });
  show(0);
})();
"""


def _esc(text: str) -> str:
    """Record text for the page: visible escapes first, then HTML's."""
    return _html.escape(printable(text))


def _page_parts(record: Record, last: int, data_json: str = "") -> Tuple[str, str]:
    """The page before the frames and after them (``data_json``: the captions' JSON)."""
    title = f"mousehole replay: {record.game}, " + " vs ".join(record.seats)
    head = "".join(
        [
            '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n',
            f"<title>{_esc(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n",
            f"<h1>{_esc(title)}</h1>\n",
            f'<div id="about">{_esc(_title(record))} &middot; seats: '
            + ", ".join(f"{p}: {_esc(s)}" for p, s in enumerate(record.seats))
            + (f" &middot; {_esc(record.date)}" if record.date else "")
            + "</div>\n",
            f"<details><summary>{_esc(_params_line(record))}</summary>"
            f"<pre>{_esc(json.dumps(record.params, ensure_ascii=False))}</pre></details>\n",
            '<div id="controls">'
            '<button id="prev" type="button" title="previous (left arrow)">&#9664; previous</button>'
            f'<input id="slider" type="range" min="0" max="{last}" value="0" aria-label="move">'
            '<button id="next" type="button" title="next (right arrow)">next &#9654;</button>'
            "</div>\n",
            '<div id="caption"></div>\n',
        ]
    )
    tail = "".join(
        [
            f'\n<div id="result" hidden>Result: {_esc(_result_line(record))}</div>\n',
            f'<script type="application/json" id="captions">{data_json}</script>\n',
            f"<script>{_SCRIPT}</script>\n</body>\n</html>\n",
        ]
    )
    return head, tail


def page_bound(record: Record) -> int:
    """The most bytes (UTF-8) :func:`html` can write for ``record``: the fixed part of the
    page plus :data:`FRAME_BYTES` per frame (the start and one per move)."""
    head, tail = _page_parts(record, len(record.actions), '{"captions": [], "pictures": []}')
    return len(head.encode("utf-8")) + len(tail.encode("utf-8")) + (len(record.actions) + 1) * FRAME_BYTES


def html(
    record: Record,
    *,
    for_player: Optional[int] = None,
    size: Optional[float] = None,
    engine: Optional[str] = None,
    max_bytes: int = MAX_PAGE_BYTES,
) -> str:
    """One self-contained HTML page replaying ``record``: each position drawn whole, or as
    seat ``for_player`` saw it, with the captions of :func:`frames`.

    Raises :class:`ReplayTooLargeError` (before drawing anything) when :func:`page_bound`
    exceeds ``max_bytes``, and when a picture is larger than :data:`MAX_PICTURE_BYTES`
    (a game whose parameters make its pictures that large)."""
    if not is_int(max_bytes) or max_bytes <= 0:
        raise ValueError(f"max_bytes must be a positive int, got {shorten(max_bytes)}")
    p = _check_view(record, for_player, engine)
    bound = page_bound(record)
    if bound > max_bytes:
        raise ReplayTooLargeError(
            f"replay page: {len(record.actions):,} moves could take {bound:,} bytes "
            f"({FRAME_BYTES:,} per frame), more than max_bytes={max_bytes:,}"
        )
    captions: List[str] = []
    pictures: List[int] = []
    divs: List[str] = []
    previous: Optional[str] = None
    for k, caption, state in frames(record, for_player=p, engine=engine):
        captions.append(caption)
        picture = render.svg(state, for_player=p, size=size)
        if picture != previous:
            if len(picture.encode("utf-8")) > MAX_PICTURE_BYTES:
                raise ReplayTooLargeError(
                    f"replay page: the picture of frame {k} takes {len(picture.encode('utf-8')):,} bytes, "
                    f"more than the {MAX_PICTURE_BYTES:,} a frame may use"
                )
            divs.append(f'<div class="frame" id="frame-{k}" hidden>{picture}</div>')
            previous = picture
        pictures.append(len(divs) - 1)
    data: Dict[str, Any] = {"captions": captions, "pictures": pictures}
    # JSON inside <script> must not close the element: escape "<" (and so "</script>");
    # ensure_ascii writes every other character as \\uXXXX, U+2028 and U+2029 included.
    data_json = json.dumps(data, ensure_ascii=True).replace("<", "\\u003c")
    head, tail = _page_parts(record, len(captions) - 1, data_json)
    return head + "\n".join(divs) + tail
