"""Replays of game records: move by move as text, or as one self-contained HTML page.

The page (:func:`html`) needs no server and no network: every position is an inline SVG
frame (:func:`mousehole.render.svg`), shown one at a time with a slider, previous and next
buttons and the arrow keys (Home and End jump to the start and the end). The last frame
shows the result. ``mousehole replay FILE [--html OUT]`` is the command-line front end.
"""
from __future__ import annotations

import html as _html
import json
from typing import Any, Iterator, List, Optional

from mousehole.records import Record

__all__ = ["frames", "text_lines", "html"]


def _who(state: Any, seats: "tuple[str, ...]") -> str:
    p = state.current_player
    if p < 0:
        return "chance"
    return f"seat {p} ({seats[p]})"


def frames(record: Record, *, engine: Optional[str] = None) -> Iterator["tuple[int, str, Any]"]:
    """``(k, caption, state)`` for the start (k = 0) and after each move k = 1, 2, ..."""
    state = record.initial_state(engine=engine)
    yield 0, "start", state.clone()
    for k, (a, move) in enumerate(zip(record.actions, record.moves), 1):
        who = _who(state, record.seats)
        state.apply_action(a)
        yield k, f"{k}. {who}: {move}", state.clone()


def _result_line(record: Record) -> str:
    r = record.result
    if not r["terminal"]:
        return "unfinished game"
    names = [f"seat {p} ({record.seats[p]})" for p in r["winners"]]
    end = "truncated at the turn limit; " if r["truncated"] else ""
    won = ("won: " + ", ".join(names)) if names else "nobody won"
    return f"{end}{won}; scores {r['scores']}; returns {r['returns']}"


def _diagram(state: Any, for_player: Optional[int]) -> str:
    if for_player is None:
        return str(state)
    return state.game._render(state.to_dict(for_player=for_player))  # type: ignore[no-any-return]


def text_lines(record: Record, *, diagrams: bool = False, for_player: Optional[int] = None,
               engine: Optional[str] = None) -> Iterator[str]:
    """The game as text: a header, one line per move (with the position after it when
    ``diagrams``), the final position and the result; the positions as seat ``for_player``
    saw them when given (the moves themselves are the record's: a record is not a view)."""
    yield f"{record.game} {record.params}"
    yield "seats: " + ", ".join(f"{p}: {s}" for p, s in enumerate(record.seats))
    if record.date:
        yield f"date: {record.date}"
    last: Any = None
    for k, caption, state in frames(record, engine=engine):
        if k and not diagrams:
            yield caption
        elif diagrams:
            yield caption
            yield _diagram(state, for_player)
        last = state
    if not diagrams:
        yield _diagram(last, for_player)
    yield "result: " + _result_line(record)


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 1rem; color: #222; background: #fafafa; }
h1 { font-size: 1.2rem; margin: 0 0 .5rem; }
#controls { display: flex; gap: .5rem; align-items: center; margin: .5rem 0; }
#slider { flex: 1; }
#caption { font-weight: 600; min-height: 1.5em; }
.frame svg { max-width: 100%; height: auto; }
#result { margin-top: .5rem; }
"""

_SCRIPT = """
(function () {
  var frames = document.querySelectorAll('.frame');
  var captions = JSON.parse(document.getElementById('captions').textContent);
  var slider = document.getElementById('slider');
  var caption = document.getElementById('caption');
  var result = document.getElementById('result');
  var current = 0;
  function show(k) {
    k = Math.max(0, Math.min(frames.length - 1, k));
    frames[current].hidden = true;
    frames[k].hidden = false;
    current = k;
    slider.value = String(k);
    caption.textContent = captions[k];
    result.hidden = (k !== frames.length - 1);
    document.getElementById('prev').disabled = (k === 0);
    document.getElementById('next').disabled = (k === frames.length - 1);
  }
  document.getElementById('prev').addEventListener('click', function () { show(current - 1); });
  document.getElementById('next').addEventListener('click', function () { show(current + 1); });
  slider.addEventListener('input', function () { show(parseInt(slider.value, 10)); });
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowLeft') { show(current - 1); e.preventDefault(); }
    else if (e.key === 'ArrowRight') { show(current + 1); e.preventDefault(); }
    else if (e.key === 'Home') { show(0); e.preventDefault(); }
    else if (e.key === 'End') { show(frames.length - 1); e.preventDefault(); }
  });
  show(0);
})();
"""


def html(record: Record, *, for_player: Optional[int] = None, size: Optional[int] = None,
         engine: Optional[str] = None) -> str:
    """One self-contained HTML page replaying ``record`` (each position drawn whole, or as
    seat ``for_player`` saw it)."""
    from mousehole.render import svg

    captions: List[str] = []
    divs: List[str] = []
    for k, caption, state in frames(record, engine=engine):
        captions.append(caption)
        picture = svg(state, for_player=for_player, size=size)
        divs.append(f'<div class="frame" id="frame-{k}" hidden>{picture}</div>')
    title = f"mousehole replay: {record.game}, " + " vs ".join(record.seats)
    last = len(divs) - 1
    # JSON inside <script> must not close the element: escape "<" (and so "</script>").
    caption_json = json.dumps(captions).replace("<", "\\u003c")
    return "".join([
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
        f"<title>{_html.escape(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n",
        f"<h1>{_html.escape(title)}</h1>\n",
        f"<div>{_html.escape(record.game)} {_html.escape(json.dumps(record.params))}"
        + (f" &middot; {_html.escape(record.date)}" if record.date else "") + "</div>\n",
        '<div id="controls">'
        '<button id="prev" type="button" title="previous (left arrow)">&#9664; previous</button>'
        f'<input id="slider" type="range" min="0" max="{last}" value="0" aria-label="move">'
        '<button id="next" type="button" title="next (right arrow)">next &#9654;</button>'
        "</div>\n",
        '<div id="caption"></div>\n',
        "\n".join(divs),
        f'\n<div id="result" hidden>Result: {_html.escape(_result_line(record))}</div>\n',
        f'<script type="application/json" id="captions">{caption_json}</script>\n',
        f"<script>{_SCRIPT}</script>\n</body>\n</html>\n",
    ])
