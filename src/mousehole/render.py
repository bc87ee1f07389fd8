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

import math
import numbers
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ._api import CHANCE, StateAPI, check_seat

__all__ = ["svg", "text", "rgb_array"]

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
INK = "#1f2328"  #: main text colour
MUTED = "#57606a"  #: secondary text
PAPER = "#ffffff"
PANEL = "#f6f8fa"
BAND = "#24292f"  #: header band
TURN = "#fff3bf"  #: background of the seat to move
SEAT_COLOURS = ["#d32f2f", "#1565c0", "#2e7d32", "#7b1fa2", "#ef6c00", "#00838f"]
LETTERS = "ABCDEF"
BACK = "#3b4a6b"  #: card backs
BACK_LINE = "#8fa3c7"


# ---- small SVG writer -------------------------------------------------------------------


def _num(x: float) -> str:
    """A coordinate written the same way every time (at most 2 decimals, no '-0')."""
    r = round(float(x), 2)
    if r == int(r):
        return str(int(r))
    return f"{r:.2f}".rstrip("0").rstrip(".")


def _esc(s: str) -> str:
    """XML text / attribute escape, non-ASCII as character references."""
    s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    return s.encode("ascii", "xmlcharrefreplace").decode("ascii")


def _text_width(s: str, size: float, bold: bool = False) -> float:
    """A rough width of ``s`` in the sans-serif font (for laying out, never exact)."""
    return len(s) * size * (0.64 if bold else 0.58)


class _Canvas:
    """Collects SVG elements; attributes are written in the order given."""

    def __init__(self, width: float, height: float) -> None:
        self.width = width
        self.height = height
        self.parts: List[str] = []

    def el(self, tag: str, body: Optional[str] = None, **attrs: Any) -> None:
        items = []
        for k, v in attrs.items():
            if v is None:
                continue
            name = k.rstrip("_").replace("_", "-")
            val = _num(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else _esc(str(v))
            items.append(f'{name}="{val}"')
        head = f"<{tag} " + " ".join(items) if items else f"<{tag}"
        self.parts.append(head + ("/>" if body is None else f">{body}</{tag}>"))

    def rect(self, x: float, y: float, w: float, h: float, fill: str = "none", stroke: Optional[str] = None,
             sw: float = 1, rx: float = 0, opacity: Optional[float] = None, dash: Optional[str] = None) -> None:
        self.el("rect", x=x, y=y, width=w, height=h, rx=rx if rx else None, fill=fill, stroke=stroke,
                stroke_width=sw if stroke else None, fill_opacity=opacity, stroke_dasharray=dash)

    def circle(self, cx: float, cy: float, r: float, fill: str = "none", stroke: Optional[str] = None,
               sw: float = 1) -> None:
        self.el("circle", cx=cx, cy=cy, r=r, fill=fill, stroke=stroke, stroke_width=sw if stroke else None)

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str = INK, sw: float = 1,
             cap: Optional[str] = None) -> None:
        self.el("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=stroke, stroke_width=sw, stroke_linecap=cap)

    def poly(self, pts: Sequence[Tuple[float, float]], fill: str = "none", stroke: Optional[str] = None,
             sw: float = 1) -> None:
        self.el("polygon", points=" ".join(f"{_num(x)},{_num(y)}" for x, y in pts), fill=fill, stroke=stroke,
                stroke_width=sw if stroke else None, stroke_linejoin="round" if stroke else None)

    def path(self, d: str, fill: str = "none", stroke: Optional[str] = None, sw: float = 1,
             opacity: Optional[float] = None) -> None:
        self.el("path", d=d, fill=fill, stroke=stroke, stroke_width=sw if stroke else None,
                stroke_linejoin="round" if stroke else None, stroke_linecap="round" if stroke else None,
                stroke_opacity=opacity)

    def text(self, x: float, y: float, s: str, size: float = 12, fill: str = INK, anchor: str = "start",
             bold: bool = False) -> None:
        self.el("text", _esc(s), x=x, y=y, font_size=size, fill=fill,
                text_anchor=None if anchor == "start" else anchor, font_weight="bold" if bold else None)

    def finish(self, title: str, size: Optional[float]) -> str:
        w, h = self.width, self.height
        out_w, out_h = (w, h) if size is None else (size, size * h / w)
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{_num(out_w)}" '
                f'height="{_num(out_h)}" viewBox="0 0 {_num(w)} {_num(h)}">')
        return "".join([
            head, f"<title>{_esc(title)}</title>",
            f'<g font-family="{_esc(FONT)}">',
            f'<rect x="0" y="0" width="{_num(w)}" height="{_num(h)}" fill="{PAPER}"/>',
            *self.parts, "</g></svg>\n",
        ])


def _contrast(fill: str) -> str:
    """Black or white text, whichever reads better on ``fill`` (#rrggbb)."""
    r, g, b = (int(fill[i:i + 2], 16) / 255 for i in (1, 3, 5))

    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else float(((c + 0.055) / 1.055) ** 2.4)

    lum = 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
    return INK if lum > 0.32 else "#ffffff"


def _card_back(cv: _Canvas, x: float, y: float, w: float, h: float) -> None:
    """A face-down card: what a seat's view draws for every card it may not see."""
    rx = min(w, h) * 0.12
    cv.rect(x, y, w, h, fill=BACK, stroke="#1c2333", sw=1, rx=rx)
    m = min(w, h) * 0.14
    cv.rect(x + m, y + m, w - 2 * m, h - 2 * m, stroke=BACK_LINE, sw=1, rx=rx * 0.6)
    cx, cy, s = x + w / 2, y + h / 2, min(w, h) * 0.18
    cv.poly([(cx, cy - s), (cx + s, cy), (cx, cy + s), (cx - s, cy)], fill=BACK_LINE)


def _marker(cv: _Canvas, x: float, y: float, s: float = 6, fill: str = INK) -> None:
    """A right-pointing triangle with its tip at (x + s, y): "this one is to move"."""
    cv.poly([(x, y - s * 0.8), (x + s, y), (x, y + s * 0.8)], fill=fill)


def _seat_box(cv: _Canvas, x: float, y: float, w: float, h: float, to_move: bool, winner: bool,
              badge: Tuple[float, float]) -> None:
    """A seat's panel: yellow for the seat to move (with a marker), green for a winner (with a
    badge at ``badge``, relative to the panel)."""
    cv.rect(x, y, w, h, fill="#dafbe1" if winner else TURN if to_move else PANEL,
            stroke="#2da44e" if winner else "#d0d7de", sw=1.5 if winner else 1, rx=8)
    if to_move:
        _marker(cv, x + 8, y + 16, 7)
    if winner:
        bx, by = x + badge[0], y + badge[1]
        cv.rect(bx, by, 56, 16, fill="#2da44e", rx=8)
        cv.text(bx + 28, by + 11.5, "winner", size=10.5, fill="#ffffff", anchor="middle", bold=True)


def _seats_text(seats: Sequence[int], label: Callable[[int], str]) -> str:
    names = [label(p) for p in seats]
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


def _result_text(winners: Sequence[int], n: int, label: Callable[[int], str]) -> str:
    if not winners:
        return "nobody wins"
    if len(winners) == n and n > 1:
        return "all seats share the win"
    who = _seats_text(winners, label)
    return f"{who} wins" if len(winners) == 1 else f"{who} share the win"


def _header(cv: _Canvas, title: str, status: str, view: Optional[int], label: Callable[[int], str]) -> None:
    """The dark band on top: the game, the move count, whose view this is."""
    cv.rect(0, 0, cv.width, 34, fill=BAND)
    cv.text(14, 23, title, size=17, fill="#ffffff", bold=True)
    cv.text(14 + _text_width(title, 17, True) + 14, 22, status, size=12, fill="#d0d7de")
    if view is not None:
        tag = f"{label(view)}'s view: hidden cards face down"
        w = _text_width(tag, 11.5) + 18
        cv.rect(cv.width - w - 10, 7, w, 20, fill="#ffd33d", rx=10)
        cv.text(cv.width - w / 2 - 10, 21, tag, size=11.5, fill=INK, anchor="middle", bold=False)


def _footer(cv: _Canvas, y: float, line: str, over: bool, legend: str) -> None:
    """The band at the bottom: what happens now (or the result, green, at the end) and a
    legend of the picture's marks."""
    cv.rect(0, y, cv.width, cv.height - y, fill="#dafbe1" if over else PANEL)
    cv.line(0, y, cv.width, y, stroke="#d0d7de")
    cv.text(14, y + 21, line, size=14 if over else 13, bold=over, fill=INK)
    cv.text(14, y + 41, legend, size=11, fill=MUTED)


class _Facts:
    """What the picture needs beyond the dict: the seat to move, the scores (each game's
    score is public), the winners. For a view they come from a state built from the view
    alone (its determinization with seed 0), so nothing hidden can reach the picture."""

    def __init__(self, state: StateAPI[Any], view: Optional[Dict[str, Any]]) -> None:
        basis = state if view is None else state.game.determinize_view(view, 0)
        self.current = int(basis.current_player)
        self.over = bool(basis.is_terminal())
        self.scores = [int(x) for x in basis.scores()]
        self.winners = [int(x) for x in basis.winners()] if self.over else []
        self.truncated = bool(basis.truncated)


# ---- M ----------------------------------------------------------------------------------

M_COLOURS = {
    "blue": "#1f63c6", "green": "#2e8b3a", "pink": "#e0529c", "yellow": "#f5cb11", "orange": "#f07800",
    "red": "#d32f2f", "purple": "#7b1fa2", "black": "#2b2b2b", "white": "#ffffff", "grey": "#8c959f",
    "gray": "#8c959f", "brown": "#795548", "cyan": "#00acc1", "violet": "#8e44ad",
}
M_SPARE = ["#5d4037", "#00897b", "#6d4c41", "#455a64", "#c2185b", "#512da8", "#689f38", "#0288d1"]
SHAPES = ["square", "triangle", "eight", "circle", "diamond", "cross", "star", "hexagon"]


def _colour_hex(name: str, index: int) -> str:
    return M_COLOURS.get(name.lower(), M_SPARE[index % len(M_SPARE)])


def _shape(cv: _Canvas, shape: str, cx: float, cy: float, s: float, fill: str) -> None:
    """One of the symbols of M (M-1), ``s`` its half size."""
    if shape == "square":
        k = s * 0.85
        cv.rect(cx - k, cy - k, 2 * k, 2 * k, fill=fill)
    elif shape == "triangle":
        cv.poly([(cx, cy - s), (cx + s * 1.1, cy + s * 0.85), (cx - s * 1.1, cy + s * 0.85)], fill=fill)
    elif shape == "eight":
        r = s * 0.46
        cv.circle(cx, cy - r, r, stroke=fill, sw=s * 0.32)
        cv.circle(cx, cy + r, r, stroke=fill, sw=s * 0.32)
    elif shape == "circle":
        cv.circle(cx, cy, s * 0.95, fill=fill)
    elif shape == "diamond":
        cv.poly([(cx, cy - s), (cx + s, cy), (cx, cy + s), (cx - s, cy)], fill=fill)
    elif shape == "cross":
        k = s * 0.34
        cv.poly([(cx - k, cy - s), (cx + k, cy - s), (cx + k, cy - k), (cx + s, cy - k), (cx + s, cy + k),
                 (cx + k, cy + k), (cx + k, cy + s), (cx - k, cy + s), (cx - k, cy + k), (cx - s, cy + k),
                 (cx - s, cy - k), (cx - k, cy - k)], fill=fill)
    elif shape == "star":
        pts = []
        for i in range(10):
            a = -math.pi / 2 + i * math.pi / 5
            r = s if i % 2 == 0 else s * 0.45
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
        cv.poly(pts, fill=fill)
    else:  # hexagon
        cv.poly([(cx + s * math.cos(math.pi / 3 * i), cy + s * math.sin(math.pi / 3 * i)) for i in range(6)],
                fill=fill)


class _MDraw:
    C = 50  #: cell size of the table
    PANEL_W = 372
    BADGE = (PANEL_W - 150, 8)

    def __init__(self, state: StateAPI[Any], d: Dict[str, Any], facts: _Facts) -> None:
        g: Any = state.game
        self.g = g
        self.d = d
        self.f = facts
        self.n = g.num_players
        self.fills = [_colour_hex(c, i) for i, c in enumerate(g.colours)]
        # a symbol named like a shape is drawn as that shape; other names take the shapes
        # that no symbol of the game is named after, in order
        used = {s.lower() for s in g.symbols if s.lower() in SHAPES}
        spare = [s for s in SHAPES if s not in used] or ["circle"]
        self.shapes: List[str] = []
        k = 0
        for s in g.symbols:
            if s.lower() in SHAPES:
                self.shapes.append(s.lower())
            else:
                self.shapes.append(spare[k % len(spare)])
                k += 1

    def card(self, cv: _Canvas, x: float, y: float, w: float, h: float, card: Optional[int]) -> None:
        """An M card: its colour as the fill, its value, its symbol (none on a 0)."""
        if card is None:
            _card_back(cv, x, y, w, h)
            return
        g = self.g
        fill = self.fills[g.colour_of[card]]
        ink = _contrast(fill)
        cv.rect(x, y, w, h, fill=fill, stroke="#1f2328", sw=0.8, rx=min(w, h) * 0.12)
        val = str(g.value_of[card])
        sym = g.symbol_of[card]
        if sym < 0 or h < 24:
            cv.text(x + w / 2, y + h / 2 + h * 0.15, val, size=h * 0.42, fill=ink, anchor="middle", bold=True)
            return
        cv.text(x + w / 2, y + h * 0.43, val, size=h * 0.34, fill=ink, anchor="middle", bold=True)
        _shape(cv, self.shapes[sym], x + w / 2, y + h * 0.71, h * 0.14, ink)

    def draw(self) -> _Canvas:
        g, d, f, n, C = self.g, self.d, self.f, self.n, self.C
        cells = {(e[0], e[1]): e[2] for e in d["table"]}
        top = min((r for r, _ in cells), default=0)
        left = min((c for _, c in cells), default=0)
        r0, c0 = top - 1, left - 1  # the action window (M-7): 8 x 8 from (top - 1, left - 1)
        seat_h = 112
        board_x, board_y = 40, 62
        board = 8 * C
        panel_x = board_x + board + 26
        body_h = max(board + 110, n * seat_h + 8)
        foot_y = board_y + body_h + 6
        cv = _Canvas(panel_x + self.PANEL_W + 12, foot_y + 54)

        def seat(p: int) -> str:
            return f"seat {p}"

        status = f"{len(d['history'])} actions"
        _header(cv, g.title, status, d["view"], seat)
        # the table: the window's cells, absolute coordinates on the edges
        cv.rect(board_x - 4, board_y - 4, board + 8, board + 8, fill="#e9f0e4", stroke="#b7c4b0", rx=8)
        for i in range(8):
            cv.text(board_x + i * C + C / 2, board_y - 10, str(c0 + i), size=11, fill=MUTED, anchor="middle")
            cv.text(board_x - 10, board_y + i * C + C / 2 + 4, str(r0 + i), size=11, fill=MUTED, anchor="end")
        srow = {(r, c) for r, c in d["scoring_row"]}
        last = tuple(d["last"]) if d["last"] is not None else None
        for r in range(8):
            for c in range(8):
                x, y = board_x + c * C, board_y + r * C
                at = (r0 + r, c0 + c)
                if at in cells:
                    if at in srow:  # M-12: the scoring row, ringed in gold
                        cv.rect(x + 0.5, y + 0.5, C - 1, C - 1, fill="#ffb000", rx=8)
                    self.card(cv, x + 4, y + 4, C - 8, C - 8, cells[at])
                    if at == last:
                        cv.rect(x + 2, y + 2, C - 4, C - 4, stroke=INK, sw=2.5, rx=7)
                else:
                    cv.rect(x + 4, y + 4, C - 8, C - 8, fill="#f7faf5", stroke="#c9d4c4", sw=1, rx=5, dash="3 3")
        # draw pile, under the table
        py = board_y + board + 22
        pile = d["pile"]
        for k in range(min(3, max(1, len(pile)))):
            if pile:
                _card_back(cv, board_x + 2 * k, py + 2 * k, 40, 46)
        if not pile:
            cv.rect(board_x, py, 40, 46, stroke="#8c959f", dash="4 3", rx=5)
        viewer: Optional[int] = d["view"]
        # M-22: the pile cards the viewer put under the pile are the only ones it knows
        own = 0 if viewer is None else sum(1 for c, who in zip(pile, d["pile_putter"])
                                           if who == viewer and c is not None)
        pile_txt = f"draw pile: {len(pile)} card{'s' if len(pile) != 1 else ''}"
        cv.text(board_x + 56, py + 20, pile_txt, size=13, bold=True)
        sub = f"{own} of them put there by {seat(viewer)}" if own and viewer is not None else \
            "face down" if pile else "empty"
        cv.text(board_x + 56, py + 38, sub, size=11, fill=MUTED)
        # marks, as the legend says
        lx = board_x + 230
        cv.rect(lx, py + 6, 16, 16, fill="#ffb000", rx=3)
        cv.text(lx + 22, py + 19, "scoring row (M-12)", size=11, fill=MUTED)
        cv.rect(lx, py + 30, 16, 16, stroke=INK, sw=2.5, rx=3)
        cv.text(lx + 22, py + 43, "last card laid", size=11, fill=MUTED)
        # the seats
        totals = [[0] * len(g.colours) for _ in range(n)]
        for p in range(n):
            for c in d["taken"][p]:
                totals[p][g.colour_of[c]] += g.value_of[c]
        for p in range(n):
            self.seat_block(cv, panel_x, board_y - 6 + p * seat_h, seat_h - 8, p, totals[p])
        # what happens now, or the result
        legend = ("cards: colour, value, symbol (square, triangle, eight, circle; a 0 has none); "
                  "score (M-20) = 10 per chip + two best colours - the others")
        if f.over:
            reasons = {"M-16": "M-16, the last scoring", "M-17": "M-17, no card fits any more",
                       "M-18": "M-18, everybody passed", "max_turns": "stopped at max_turns"}
            why = reasons.get(str(d["end"]), str(d["end"]))
            best = max(f.scores) if f.scores else 0
            line = f"Game over ({why}): {_result_text(f.winners, n, seat)} with {best} points (M-21)"
        elif d["phase"] == "choose":
            line = f"{seat(f.current)} chooses which line to score (M-12)"
        elif d["phase"] == "take":
            line = f"{seat(f.current)} takes a card of the scoring row (M-13, M-14)"
        else:
            line = f"{seat(f.current)} to play: lay a card next to the table, or pass (M-6, M-9)"
        _footer(cv, foot_y, line, f.over, legend)
        return cv

    def seat_block(self, cv: _Canvas, x: float, y: float, h: float, p: int, totals: List[int]) -> None:
        g, d, f = self.g, self.d, self.f
        w = self.PANEL_W
        to_move = (not f.over) and f.current == p
        winner = f.over and p in f.winners
        _seat_box(cv, x, y, w, h, to_move, winner, self.BADGE)
        cv.text(x + 20, y + 21, f"seat {p}", size=14, bold=True)
        chips = d["chips"][p]
        cx = x + 92
        cv.circle(cx, y + 16, 7, fill="#f2c94c", stroke="#9a7b0a", sw=1.2)
        cv.circle(cx, y + 16, 3.2, stroke="#9a7b0a", sw=1)
        cv.text(cx + 12, y + 21, f"{chips} chip{'s' if chips != 1 else ''}", size=12)
        cv.text(x + w - 10, y + 21, f"score {f.scores[p]}", size=13, bold=True, anchor="end")
        # hand
        hand = d["hands"][p]
        cv.text(x + 10, y + 50, "hand", size=10, fill=MUTED)
        hx = x + 46
        for i, c in enumerate(hand):
            self.card(cv, hx + i * 33, y + 30, 29, 34, c)
        if not hand:
            cv.text(hx, y + 50, "empty", size=11, fill=MUTED)
        # taken cards, one overlapping group per colour, with the colour's total (M-15, M-20)
        cv.text(x + 10, y + 86, "taken", size=10, fill=MUTED)
        groups = [[c for c in d["taken"][p] if g.colour_of[c] == k] for k in range(len(g.colours))]
        groups = [sorted(gr, key=lambda c: (g.value_of[c], c)) for gr in groups if gr]
        tx, avail, cw, gap = x + 46, w - 56, 20, 8
        count = sum(len(gr) for gr in groups)
        if count == 0:
            cv.text(tx, y + 86, "none yet", size=11, fill=MUTED)
            return
        step = cw + 2.0
        need = sum(cw + step * (len(gr) - 1) for gr in groups) + gap * (len(groups) - 1)
        if need > avail and count > len(groups):
            step = max(3.0, (avail - gap * (len(groups) - 1) - cw * len(groups)) / (count - len(groups)))
        for gr in groups:
            for i, c in enumerate(gr):
                self.card(cv, tx + i * step, y + 70, cw, 22, c)
            gw = cw + step * (len(gr) - 1)
            cv.text(tx + gw / 2, y + h - 4, str(totals[g.colour_of[gr[0]]]), size=10, fill=INK, anchor="middle",
                    bold=True)
            tx += gw + gap


# ---- Cheese Rescue ----------------------------------------------------------------------

CR_ANIMALS = (("dog", "#8d5a2b"), ("cat", "#37474f"), ("mouse", "#9aa5b1"))  # CR-1
CHEESE = "#ffd54f"


class _CRDraw:
    C = 46
    PANEL_W = 330
    BADGE = (PANEL_W - 186, 8)

    def __init__(self, state: StateAPI[Any], d: Dict[str, Any], facts: _Facts) -> None:
        g: Any = state.game
        self.g = g
        self.d = d
        self.f = facts
        self.n = self.g.num_players

    def label(self, p: int) -> str:
        return f"seat {p} ({LETTERS[p]})"

    def animal(self, cv: _Canvas, x: float, y: float, s: float, kind: int) -> None:
        """An animal card (CR-1): its kind's colour, a little head and its name."""
        name, fill = CR_ANIMALS[kind]
        cv.rect(x, y, s, s, fill=fill, stroke="#1f2328", sw=0.8, rx=s * 0.12)
        ink = _contrast(fill)
        cx, cy, r = x + s / 2, y + s * 0.42, s * 0.2
        if kind == 0:  # dog: round head, long ears
            cv.el("ellipse", cx=cx - r * 0.95, cy=cy + r * 0.2, rx=r * 0.38, ry=r * 0.75, fill=ink)
            cv.el("ellipse", cx=cx + r * 0.95, cy=cy + r * 0.2, rx=r * 0.38, ry=r * 0.75, fill=ink)
            cv.circle(cx, cy, r * 0.8, fill=ink)
        elif kind == 1:  # cat: pointed ears
            cv.poly([(cx - r * 0.9, cy - r * 0.2), (cx - r * 0.75, cy - r * 1.25), (cx - r * 0.1, cy - r * 0.6)],
                    fill=ink)
            cv.poly([(cx + r * 0.9, cy - r * 0.2), (cx + r * 0.75, cy - r * 1.25), (cx + r * 0.1, cy - r * 0.6)],
                    fill=ink)
            cv.circle(cx, cy, r * 0.85, fill=ink)
        else:  # mouse: big round ears
            cv.circle(cx - r * 0.8, cy - r * 0.6, r * 0.55, fill=ink)
            cv.circle(cx + r * 0.8, cy - r * 0.6, r * 0.55, fill=ink)
            cv.circle(cx, cy + r * 0.1, r * 0.7, fill=ink)
        if s >= 30:
            cv.text(cx, y + s - s * 0.12, name, size=s * 0.22, fill=ink, anchor="middle", bold=True)

    def cheese(self, cv: _Canvas, x: float, y: float, s: float, owner: int, value: int) -> None:
        """A cheese card (CR-2): its owner's colour, a cheese wedge, its value."""
        fill = SEAT_COLOURS[owner % len(SEAT_COLOURS)]
        cv.rect(x, y, s, s, fill=fill, stroke="#1f2328", sw=0.8, rx=s * 0.12)
        wx, wy = x + s * 0.1, y + s * 0.12
        cv.poly([(wx, wy + s * 0.3), (wx + s * 0.36, wy), (wx + s * 0.36, wy + s * 0.3)], fill=CHEESE,
                stroke="#b8860b", sw=0.6)
        cv.text(x + s * 0.62, y + s * 0.66, str(value), size=s * 0.5, fill="#ffffff", anchor="middle", bold=True)
        if s >= 30:
            cv.text(x + s * 0.25, y + s * 0.88, LETTERS[owner], size=s * 0.22, fill="#ffffff", anchor="middle",
                    bold=True)

    def start(self, cv: _Canvas, x: float, y: float, s: float) -> None:
        """The start card (CR-3)."""
        cv.rect(x, y, s, s, fill="#fff8e1", stroke="#b8860b", sw=1.2, rx=s * 0.12)
        cx, cy, r = x + s / 2, y + s * 0.42, s * 0.24
        pts = []
        for i in range(10):
            a = -math.pi / 2 + i * math.pi / 5
            rr = r if i % 2 == 0 else r * 0.45
            pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
        cv.poly(pts, fill="#f9a825")
        cv.text(cx, y + s * 0.88, "start", size=s * 0.2, fill="#7a5c00", anchor="middle", bold=True)

    def code(self, cv: _Canvas, x: float, y: float, s: float, code: int) -> None:
        if code == 1:
            self.start(cv, x, y, s)
        elif 2 <= code <= 4:
            self.animal(cv, x, y, s, code - 2)
        else:
            owner, ck = divmod(code - 5, self.g.K)
            self.cheese(cv, x, y, s, owner, self.g.cheese_kind_values[ck])

    def window(self) -> Tuple[int, int, int]:
        """The drawn part of the grid: a square of N + 2 cells (the floating square of CR-8
        and a free cell on each side) around the cards, inside the grid."""
        table = self.d["table"]
        G: int = self.g.G
        N: int = self.g.N
        W = min(G, N + 2)
        occ = [i for i, c in enumerate(table) if c]
        if not occ:
            mid = (G - W) // 2
            return mid, mid, W
        rows = [i // G for i in occ]
        cols = [i % G for i in occ]

        def start(lo: int, hi: int) -> int:
            s = lo - 1 - (W - (hi - lo + 3)) // 2
            return max(0, min(G - W, s))

        return start(min(rows), max(rows)), start(min(cols), max(cols)), W

    def draw(self) -> _Canvas:
        from .cheese_rescue import final_table

        g, d, f, n, C = self.g, self.d, self.f, self.n, self.C
        G, N = g.G, g.N
        table = d["table"]
        r0, c0, W = self.window()
        bx, by = 44, 64
        board = W * C
        seat_h = 104
        panel_x = bx + board + 26
        body_h = max(board + 74, n * seat_h + 56)
        foot_y = by + body_h
        cv = _Canvas(panel_x + self.PANEL_W + 12, foot_y + 54)
        _header(cv, g.title, f"{len(d['history'])} of {g.cells_to_fill} cards laid", d["view"], self.label)
        occ = [i for i, c in enumerate(table) if c]
        top, bottom = min((i // G for i in occ), default=0), max((i // G for i in occ), default=0)
        left, right = min((i % G for i in occ), default=0), max((i % G for i in occ), default=0)
        cv.rect(bx - 4, by - 4, board + 8, board + 8, fill="#f1ece2", stroke="#c9bfa9", rx=8)
        for i in range(W):
            cv.text(bx + i * C + C / 2, by - 10, str(c0 + i), size=11, fill=MUTED, anchor="middle")
            cv.text(bx - 10, by + i * C + C / 2 + 4, str(r0 + i), size=11, fill=MUTED, anchor="end")
        gone = set()
        if f.over:  # CR-12: what the dogs, cats and mice remove at the end
            after = final_table(g, table)
            gone = {i for i in occ if after[i] != table[i]}
        for r in range(W):
            for c in range(W):
                x, y = bx + c * C, by + r * C
                cell = (r0 + r) * G + (c0 + c)
                code = table[cell]
                if code:
                    self.code(cv, x + 3, y + 3, C - 6, code)
                    if cell in gone:
                        cv.rect(x + 3, y + 3, C - 6, C - 6, fill="#ffffff", opacity=0.55, rx=5)
                        cv.line(x + 8, y + 8, x + C - 8, y + C - 8, stroke="#cf222e", sw=4, cap="round")
                        cv.line(x + C - 8, y + 8, x + 8, y + C - 8, stroke="#cf222e", sw=4, cap="round")
                    continue
                rr, cc = r0 + r, c0 + c
                inside = max(bottom, rr) - min(top, rr) < N and max(right, cc) - min(left, cc) < N
                if inside or not occ:  # CR-8: a card may still go here as far as the square goes
                    cv.rect(x + 3, y + 3, C - 6, C - 6, fill="#fbf9f4", stroke="#d6ccb5", rx=5, dash="3 3")
                else:
                    cv.rect(x + 3, y + 3, C - 6, C - 6, fill="#e4ddd0", rx=5)
                    cv.line(x + 10, y + C - 10, x + C - 10, y + 10, stroke="#cfc5b2", sw=1.2)
        # pile and legend under the board
        py = by + board + 18
        pile = d["pile_size"] if d["view"] is not None else len(d["pile"])
        if pile:
            for k in range(min(3, pile)):
                _card_back(cv, bx + 2 * k, py + 2 * k, 34, 34)
        else:
            cv.rect(bx, py, 34, 34, stroke="#8c959f", dash="4 3", rx=5)
        cv.text(bx + 48, py + 16, f"draw pile: {pile} card{'s' if pile != 1 else ''}", size=13, bold=True)
        cv.text(bx + 48, py + 33, "animals, face down", size=11, fill=MUTED)
        lx = bx + 210
        cv.rect(lx, py + 2, 14, 14, fill="#e4ddd0", rx=3)
        cv.text(lx + 20, py + 14, "no card may go here (CR-8)", size=11, fill=MUTED)
        if f.over:
            cv.line(lx + 2, py + 22, lx + 13, py + 33, stroke="#cf222e", sw=2.5, cap="round")
            cv.line(lx + 13, py + 22, lx + 2, py + 33, stroke="#cf222e", sw=2.5, cap="round")
            cv.text(lx + 20, py + 33, "removed at the end (CR-12)", size=11, fill=MUTED)
        # seats
        for p in range(n):
            self.seat_block(cv, panel_x, by - 6 + p * seat_h, seat_h - 8, p)
        legend = ("dogs chase cats, cats catch mice, mice eat cheese (CR-12); "
                  "cheese: the owner's colour and letter, and its value")
        if f.over:
            best = max(f.scores)
            trunc = " (stopped at max_turns)" if f.truncated else ""
            line = f"Game over{trunc}: {_result_text(f.winners, n, self.label)} with {best} (CR-13)"
        else:
            line = f"{self.label(f.current)} to play: lay a card next to one on the table (CR-7, CR-8)"
        _footer(cv, foot_y, line, f.over, legend)
        return cv

    def seat_block(self, cv: _Canvas, x: float, y: float, h: float, p: int) -> None:
        g, d, f = self.g, self.d, self.f
        w = self.PANEL_W
        to_move = (not f.over) and f.current == p
        winner = f.over and p in f.winners
        _seat_box(cv, x, y, w, h, to_move, winner, self.BADGE)
        colour = SEAT_COLOURS[p % len(SEAT_COLOURS)]
        cv.rect(x + 20, y + 8, 16, 16, fill=colour, rx=3)
        cv.text(x + 28, y + 20.5, LETTERS[p], size=11, fill="#ffffff", anchor="middle", bold=True)
        cv.text(x + 42, y + 21, f"seat {p}", size=14, bold=True)
        what = "final score" if f.over else "score now"
        cv.text(x + w - 10, y + 21, f"{what} {f.scores[p]}", size=13, bold=True, anchor="end")
        hand = d["hands"][p]
        s = 26
        hx, hy = x + 10, y + 34
        # animals (CR-15: hidden from the others in a view)
        if hand[0] is None:
            hidden = d["hand_sizes"][p] - sum(hand[3:])
            for k in range(min(hidden, 5)):
                _card_back(cv, hx + k * 9, hy, s, s)
            cv.text(hx + min(hidden, 5) * 9 + s + 4, hy + 17,
                    f"{hidden} animal{'s' if hidden != 1 else ''}" if hidden else "no animal", size=11, fill=MUTED)
            ax = hx + 150
        else:
            ax = hx
            for k in range(3):
                self.animal(cv, ax, hy, s, k)
                cv.text(ax + s + 3, hy + 18, f"x{hand[k]}", size=12, bold=True)
                ax += s + 24
            ax = hx + 150
        cv.text(hx, hy + s + 18, "cheese in hand", size=10, fill=MUTED)
        cx = hx + 84
        step = min(48.0, (w - 104 - 45) / max(1, g.K - 1))
        for k in range(g.K):
            self.cheese(cv, cx, hy + s + 5, 20, p, g.cheese_kind_values[k])
            cv.text(cx + 23, hy + s + 20, f"x{hand[3 + k]}", size=11, bold=True)
            cx += step
        if hand[0] is not None:
            total = sum(hand)
            cv.text(x + w - 10, hy + 18, f"{total} cards in hand", size=11, fill=MUTED, anchor="end")
        else:
            cv.text(x + w - 10, hy + 18, f"{d['hand_sizes'][p]} cards in hand", size=11, fill=MUTED, anchor="end")


# ---- Kater Kasimir -----------------------------------------------------------------------

TRAP = "#90a4ae"
GOLD = "#ffb000"  #: the outline of the mice the seat to move may move (KK-6)
SPACE = "#f6ecd4"


class _KKDraw:
    CW, CH, PER_ROW, GAP = 54, 92, 10, 16

    def __init__(self, state: StateAPI[Any], d: Dict[str, Any], facts: _Facts) -> None:
        g: Any = state.game
        self.g = g
        self.d = d
        self.f = facts
        self.n = self.g.num_players

    def label(self, p: int) -> str:
        return f"seat {p} ({LETTERS[p]})"

    def cell_xy(self, i: int, x0: float, y0: float) -> Tuple[float, float]:
        """Top-left corner of space ``i + 1``: rows of ten, winding (KK-1)."""
        row, k = divmod(i, self.PER_ROW)
        col = k if row % 2 == 0 else self.PER_ROW - 1 - k
        return x0 + col * self.CW, y0 + row * (self.CH + self.GAP)

    def mouse(self, cv: _Canvas, x: float, y: float, w: float, h: float, p: int, caught: bool, free: bool) -> None:
        """One mouse of a tower: a bar of its seat's colour (a caught one in a black frame, one
        that may move now in a gold one)."""
        fill = SEAT_COLOURS[p % len(SEAT_COLOURS)]
        if free:
            cv.rect(x - 2.5, y - 2.5, w + 5, h + 5, fill="#fff3bf", stroke=GOLD, sw=2.2, rx=4)
        cv.rect(x, y, w, h, fill=fill, stroke="#111111" if caught else "#ffffff", sw=2.2 if caught else 0.8,
                rx=min(3.0, h / 2))
        if h >= 9:
            cv.text(x + w / 2, y + h / 2 + min(h, 12) * 0.36, LETTERS[p], size=min(h, 12) * 0.95, fill="#ffffff",
                    anchor="middle", bold=True)

    def draw(self) -> _Canvas:
        g, d, f, n = self.g, self.d, self.f, self.n
        L, CW, CH, GAP = g.L, self.CW, self.CH, self.GAP
        rows = (L + self.PER_ROW - 1) // self.PER_ROW
        side = 118
        x0, y0 = side + 14, 64
        track_w = self.PER_ROW * CW
        track_h = rows * CH + (rows - 1) * GAP
        # the die panel (up to 160 high) sits in the right column, below the hole when the
        # track is one row long (the hole is then on the right of that row)
        die_y = y0 + (CH + 12 if rows == 1 else 0)
        body_h = max(track_h, die_y - y0 + 164)
        foot_y = y0 + body_h + 20
        cv = _Canvas(x0 + track_w + side + 14, foot_y + 54)
        moves = sum(1 for a in d["history"] if a is None or a < g.P)
        _header(cv, g.title, f"{moves} moves", d["view"], self.label)
        mover = d["seat"] if not f.over and f.current != CHANCE else -1  # whose free mice are marked
        # the path through the spaces, behind them
        pts = []
        for i in range(L):
            x, y = self.cell_xy(i, x0, y0)
            pts.append((x + CW / 2, y + CH / 2))
        if pts:
            dpath = "M" + " L".join(f"{_num(x)} {_num(y)}" for x, y in pts)
            cv.path(dpath, stroke="#d7c9a7", sw=CW * 0.62)
        # pantry (position 0) before space 1, hole (L + 1) after space L
        px, py = x0 - side, y0
        self.box(cv, px, py, side - 12, CH, "pantry", d["pantry"], None, mover)
        if pts:
            lx, ly = self.cell_xy(L - 1, x0, y0)
            last_row = (L - 1) // self.PER_ROW
            hx = x0 + track_w + 12 if last_row % 2 == 0 else x0 - side
            hy = ly
            cv.line(pts[0][0] - CW / 2, pts[0][1], px + side - 12, pts[0][1], stroke="#d7c9a7", sw=CW * 0.3)
            end = lx + CW if last_row % 2 == 0 else lx
            cv.line(end, pts[-1][1], hx + (0 if last_row % 2 == 0 else side - 12), pts[-1][1], stroke="#d7c9a7",
                    sw=CW * 0.3)
        else:
            hx, hy = x0, y0
        self.box(cv, hx, hy, side - 12, CH, "hole", d["home"], d["first_home"], -1)
        # the spaces and their towers (KK-8, KK-9)
        for i in range(L):
            s = i + 1
            x, y = self.cell_xy(i, x0, y0)
            trap = g.is_trap[s]
            cv.rect(x + 2, y + 2, CW - 4, CH - 4, fill=TRAP if trap else SPACE, stroke="#8d7b57", sw=1, rx=6)
            cv.text(x + 6, y + 14, str(s), size=10, fill=INK if trap else MUTED, bold=trap)
            tower = d["track"][i]
            if trap:  # a trap: an open can at the bottom of the space
                cv.rect(x + 6, y + CH - 20, CW - 12, 14, fill="#546e7a", rx=2)
                cv.el("ellipse", cx=x + CW / 2, cy=y + CH - 20, rx=(CW - 12) / 2, ry=3.2, fill="#37474f")
                if not tower:
                    cv.text(x + CW - 6, y + 14, "trap", size=8.5, fill=INK, anchor="end")
            if tower:
                avail = CH - 24 - 6
                bh = min(12.0, avail / len(tower))
                for k, q in enumerate(tower):
                    by_ = y + CH - 8 - (k + 1) * bh
                    caught = trap and k == 0  # KK-9: the bottom mouse of a trap is the caught one
                    free = k == len(tower) - 1 and q == mover and not caught  # KK-6
                    self.mouse(cv, x + 8, by_ + 0.6, CW - 16, bh - 1.2, q, caught, free)
                if len(tower) > 1:
                    cv.text(x + CW - 6, y + 14, f"{len(tower)}", size=9.5, fill=INK, anchor="end", bold=True)
        # the die and whose turn (KK-5)
        rx_ = x0 + track_w + 12
        self.die_panel(cv, rx_, die_y, side - 12)
        legend = ("towers bottom to top (KK-8); gold: the mice that may move (KK-6); "
                  "black frame: caught in a trap (KK-9)")
        if f.over:
            trunc = " (stopped at max_turns)" if f.truncated else ""
            homes = d["home"]
            best = max(homes)
            ws = f.winners
            tie = len([p for p in range(n) if homes[p] == best]) > 1 and len(ws) == 1 and best > 0
            why = ", first home" if tie else ""
            line = (f"Game over{trunc}: {_result_text(ws, n, self.label)} with {best} "
                    f"{'mouse' if best == 1 else 'mice'} home{why} (KK-13)")
        elif f.current == CHANCE:
            line = f"{self.label(d['seat'])} rolls the die (chance)"
        else:
            face = g.faces[d["roll"]]
            dist = "any distance 1-" + str(g.clover) if face == "clover" else f"{face} space{'s' if face != 1 else ''}"
            line = f"{self.label(f.current)} to move one free mouse {dist} (KK-5)"
        _footer(cv, foot_y, line, f.over, legend)
        return cv

    def box(self, cv: _Canvas, x: float, y: float, w: float, h: float, title: str, counts: List[int],
            first: Optional[List[int]], mover: int) -> None:
        """The pantry or the hole: the mice of each seat there (in the pantry, the stack of the
        seat to move ringed in gold: its top mouse may move, KK-6)."""
        n = self.n
        cv.rect(x, y, w, h, fill="#efe6cf" if title == "pantry" else "#3e2723", stroke="#8d7b57", rx=10)
        ink = INK if title == "pantry" else "#ffffff"
        cv.text(x + w / 2, y + 15, title, size=12, fill=ink, anchor="middle", bold=True)
        order = []
        if first is not None:
            order = sorted((first[p], p) for p in range(n) if first[p] >= 0)
        rank = {p: r for r, (_, p) in enumerate(order)}
        rh = min(17.0, (h - 22) / n)
        for p in range(n):
            yy = y + 22 + p * rh
            if p == mover and counts[p] > 0:
                cv.circle(x + 14, yy + rh / 2, min(6.0, rh / 2 - 1) + 2.5, fill="#fff3bf", stroke=GOLD, sw=2.2)
            cv.circle(x + 14, yy + rh / 2, min(6.0, rh / 2 - 1), fill=SEAT_COLOURS[p % len(SEAT_COLOURS)],
                      stroke="#ffffff", sw=0.8)
            txt = f"{LETTERS[p]}: {counts[p]}"
            cv.text(x + 25, yy + rh / 2 + 4, txt, size=11, fill=ink, bold=counts[p] > 0)
            if p in rank and rank[p] == 0:
                cv.text(x + w - 6, yy + rh / 2 + 4, "1st", size=10, fill="#ffd33d", anchor="end", bold=True)

    def die_panel(self, cv: _Canvas, x: float, y: float, w: float) -> None:
        g, d, f = self.g, self.d, self.f
        cv.rect(x, y, w, max(150, 56 + 26 * len(f.winners)), fill=PANEL, stroke="#d0d7de", rx=10)
        if f.over:
            cv.text(x + w / 2, y + 20, "game over", size=12, anchor="middle", bold=True)
            cv.text(x + w / 2, y + 40, "winner" if len(f.winners) == 1 else "winners", size=11, fill=MUTED,
                    anchor="middle")
            for k, p in enumerate(f.winners):
                cv.rect(x + 14, y + 48 + k * 26, w - 28, 22, fill=SEAT_COLOURS[p % len(SEAT_COLOURS)], rx=6)
                cv.text(x + w / 2, y + 64 + k * 26, self.label(p), size=12, fill="#ffffff", anchor="middle",
                        bold=True)
            return
        else:
            seat = d["seat"]
            colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
            cv.text(x + w / 2, y + 20, "to move" if f.current != CHANCE else "to roll", size=11, fill=MUTED,
                    anchor="middle")
            cv.rect(x + 14, y + 28, w - 28, 22, fill=colour, rx=6)
            cv.text(x + w / 2, y + 44, self.label(seat), size=12, fill="#ffffff", anchor="middle", bold=True)
        s = 58
        dx, dy = x + (w - s) / 2, y + 62
        cv.rect(dx, dy, s, s, fill="#ffffff", stroke=INK, sw=2, rx=10)
        roll = d["roll"]
        if roll is None:
            cv.text(dx + s / 2, dy + s / 2 + 11, "?", size=30, fill=MUTED, anchor="middle", bold=True)
            cv.text(x + w / 2, y + 140, "no roll" if f.over else "not rolled yet", size=10.5, fill=MUTED,
                    anchor="middle")
            return
        face = g.faces[roll]
        if face == "clover":
            cx, cy, r = dx + s / 2, dy + s / 2 - 2, 8.5
            for ax, ay in ((0, -1), (1, 0), (0, 1), (-1, 0)):
                cv.circle(cx + ax * r * 0.95, cy + ay * r * 0.95, r, fill="#2e7d32")
            cv.path(f"M{_num(cx)} {_num(cy)} Q{_num(cx + 4)} {_num(cy + 14)} {_num(cx + 10)} {_num(cy + 22)}",
                    stroke="#2e7d32", sw=2.5)
            cv.text(x + w / 2, y + 140, f"clover: 1 to {g.clover}", size=10.5, anchor="middle")
        elif 1 <= int(face) <= 6:
            pips = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
                    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
                    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}[int(face)]
            for px, py in pips:
                cv.circle(dx + s / 2 + px * s * 0.27, dy + s / 2 + py * s * 0.27, 5.2, fill=INK)
            cv.text(x + w / 2, y + 140, f"rolled {face}", size=10.5, anchor="middle")
        else:
            cv.text(dx + s / 2, dy + s / 2 + 10, str(face), size=28, anchor="middle", bold=True)
            cv.text(x + w / 2, y + 140, f"rolled {face}", size=10.5, anchor="middle")


# ---- Maus au Chocolat ----------------------------------------------------------------------

MC_FILLS = ["#f7d038", "#d7263d", "#4c9a2a", "#6b3e26", "#ffffff"]  # MC-1: eggs, fruit, nuts, chocolate, sugar
MC_NAMES = ["eggs", "fruit", "nuts", "choc.", "sugar"]
HELPER_NAMES = ("Etienne", "Henri", "Mathieu", "Maurice", "Lilly", "Amélie", "Claude")  # MC-2


class _MCDraw:
    CW, CH = 40, 56  #: a card in a hand or the display
    SEAT_H = 86
    BADGE = (92, 54)

    def __init__(self, state: StateAPI[Any], d: Dict[str, Any], facts: _Facts) -> None:
        g: Any = state.game
        self.g = g
        self.d = d
        self.f = facts
        self.n = self.g.num_players

    def label(self, p: int) -> str:
        return f"seat {p}"

    def card(self, cv: _Canvas, x: float, y: float, w: float, h: float, c: Optional[int]) -> None:
        """An ingredient card (MC-1): ingredient colour, candy value big, coins in a gold disc."""
        if c is None:
            _card_back(cv, x, y, w, h)
            return
        ing, candy, coin = self.g.cards[c]
        fill = MC_FILLS[ing % len(MC_FILLS)]
        ink = _contrast(fill)
        cv.rect(x, y, w, h, fill=fill, stroke="#1f2328", sw=0.9, rx=min(w, h) * 0.12)
        if h >= 40:
            cv.text(x + w / 2, y + h * 0.62, str(candy), size=h * 0.36, fill=ink, anchor="middle", bold=True)
            r = w * 0.17
            cv.circle(x + r + 3, y + r + 3, r, fill="#f2c94c", stroke="#8a6d00", sw=0.8)
            cv.text(x + r + 3, y + r + 3 + r * 0.5, str(coin), size=r * 1.35, fill=INK, anchor="middle", bold=True)
            cv.text(x + w / 2, y + h - 5, MC_NAMES[ing % len(MC_NAMES)], size=min(9.0, w * 0.23), fill=ink,
                    anchor="middle")
        else:
            cv.text(x + w / 2, y + h * 0.68, str(candy), size=h * 0.5, fill=ink, anchor="middle", bold=True)

    def helper(self, cv: _Canvas, x: float, y: float, w: float, h: int, hid: int) -> None:
        """A helper (MC-2): name and rank (rank = 7 - id)."""
        cv.rect(x, y, w, h, fill="#fff8c5", stroke="#9a6700", sw=1, rx=6)
        cv.text(x + w / 2, y + h * 0.45, HELPER_NAMES[hid], size=11, anchor="middle", bold=True)
        cv.text(x + w / 2, y + h * 0.82, f"rank {7 - hid}", size=9.5, fill=MUTED, anchor="middle")

    def draw(self) -> _Canvas:
        g, d, f, n = self.g, self.d, self.f, self.n
        CW, CH = self.CW, self.CH
        view = d["view"]
        width = 880
        top_y = 50
        seats_y = top_y + 102
        foot_y = seats_y + n * self.SEAT_H + 8
        cv = _Canvas(width, foot_y + 54)
        phase = "game over" if d["phase"] == "over" else f"{d['phase']} phase"
        _header(cv, g.title, f"round {d['round']}, {phase}", view, self.label)
        # display (MC-3, MC-5, MC-9)
        cv.text(14, top_y + 12, "display", size=11, fill=MUTED, bold=True)
        x = 14
        for i in range(n + 1):
            if i < len(d["display"]):
                self.card(cv, x, top_y + 20, CW + 4, CH + 6, d["display"][i])
            else:
                cv.rect(x, top_y + 20, CW + 4, CH + 6, stroke="#8c959f", dash="4 3", rx=5)
            x += CW + 10
        x += 8
        # piles (MC-6): the pile is face down, the discards face up (count only)
        pile = d["pile_size"] if view is not None else len(d["pile"])
        cv.text(x, top_y + 12, "draw pile", size=11, fill=MUTED, bold=True)
        if pile:
            for k in range(min(3, pile)):
                _card_back(cv, x + 2 * k, top_y + 20 + 2 * k, CW, CH)
        else:
            cv.rect(x, top_y + 20, CW, CH, stroke="#8c959f", dash="4 3", rx=5)
        cv.text(x + CW + 12, top_y + 52, str(pile), size=16, bold=True)
        x += CW + 48
        cv.text(x, top_y + 12, "discards", size=11, fill=MUTED, bold=True)
        disc = d["discard"]
        if disc:  # face up, but kept in no particular order: a plain stack
            for k in range(min(3, len(disc))):
                cv.rect(x + 2 * k, top_y + 20 + 2 * k, CW, CH, fill="#ffffff", stroke="#57606a", rx=5)
            cv.text(x + CW / 2 + 4, top_y + 20 + CH / 2 + 6, "face up", size=8, fill=MUTED, anchor="middle")
        else:
            cv.rect(x, top_y + 20, CW, CH, stroke="#8c959f", dash="4 3", rx=5)
        cv.text(x + CW + 12, top_y + 52, str(len(disc)), size=16, bold=True)
        x += CW + 48
        # helper row (MC-4, MC-15), left to right
        cv.text(x, top_y + 12, "helper row (left to right)", size=11, fill=MUTED, bold=True)
        for k, hid in enumerate(d["row"]):
            self.helper(cv, x + k * 80, top_y + 26, 74, 38, hid)
        info = []
        if d["phase"] == "pick":
            info.append("pick order: " + ", ".join(str(q) for q in d["order"]))
            info.append(f"picks left: {d['picks_left']}")
        elif d["phase"] in ("combine", "discard"):
            info.append("helper order: " + ", ".join(str(q) for q in d["order"]))
        if d["etienne_used"]:
            info.append("Etienne used")
        cv.text(x, top_y + 84, "; ".join(info), size=11, fill=MUTED)
        # seats
        for p in range(n):
            self.seat_block(cv, 8, seats_y + p * self.SEAT_H, width - 16, self.SEAT_H - 8, p)
        legend = ("cards: candy value (big), coins (gold disc), ingredient; "
                  "VP = candy values of the cards kept (MC-13); first to 30 ends the game (MC-24)")
        if f.over:
            trunc = " (stopped at max_turns)" if f.truncated else ""
            best = max(f.scores)
            line = f"Game over{trunc}: {_result_text(f.winners, n, self.label)} with {best} VP (MC-25)"
        else:
            what = {"bid": "bids a card, face down (MC-7)", "pick": "takes a card from the display (MC-9)",
                    "combine": "lays a combination or declines (MC-10)",
                    "discard": "discards down to 8 cards (MC-14)"}.get(d["phase"], "plays")
            line = f"{self.label(f.current)} {what}"
        _footer(cv, foot_y, line, f.over, legend)
        return cv

    def seat_block(self, cv: _Canvas, x: float, y: float, w: float, h: float, p: int) -> None:
        d, f = self.d, self.f
        view = d["view"]
        to_move = (not f.over) and f.current == p
        winner = f.over and p in f.winners
        _seat_box(cv, x, y, w, h, to_move, winner, self.BADGE)
        cv.text(x + 20, y + 21, f"seat {p}", size=14, bold=True)
        cv.text(x + 20, y + 44, f"{f.scores[p]} VP", size=18, bold=True)
        if view == p:  # the seat whose view this is
            cv.rect(x + 20, y + 54, 34, 16, fill="#ffd33d", rx=8)
            cv.text(x + 37, y + 65.5, "you", size=10.5, anchor="middle", bold=True)
        self.helper(cv, x + 82, y + 8, 74, 38, d["helpers"][p])
        # hand (MC-26: only its owner sees it)
        hx = x + 172
        hand = d["hands"][p]
        size = d["hand_sizes"][p] if hand is None else len(hand)
        cards: List[Optional[int]]
        if hand is not None:
            cards = list(hand)
        else:  # MC-26: the cards everyone saw this seat take stay face up, the rest face down
            known = d["known"][p] if d["bids"][p] is not None and len(d["known"][p]) <= size else []
            cards = list(known) + [None] * (size - len(known))
        cv.text(hx, y + 12, f"hand ({size})", size=10, fill=MUTED)
        step = min(self.CW + 3.0, (9 * 43.0) / max(1, len(cards)))
        for i, c in enumerate(cards):
            self.card(cv, hx + i * step, y + 17, self.CW, self.CH, c)
        # bid (MC-7: face down until every seat has bid)
        bx = hx + 9 * 43 + 14
        cv.text(bx, y + 12, "bid", size=10, fill=MUTED)
        bid = d["bids"][p]
        if bid is None:
            _card_back(cv, bx, y + 17, self.CW, self.CH)
        elif bid >= 0:
            self.card(cv, bx, y + 17, self.CW, self.CH, bid)
        else:
            cv.rect(bx, y + 17, self.CW, self.CH, stroke="#8c959f", dash="4 3", rx=5)
        # victory-point cards (MC-12, MC-13)
        vx = bx + self.CW + 16
        vp = d["vp"][p]
        cv.text(vx, y + 12, f"victory cards ({len(vp)})", size=10, fill=MUTED)
        avail = x + w - 8 - vx
        vw, vh = 24, 34
        vstep = min(vw + 2.0, (avail - vw) / max(1, len(vp) - 1)) if len(vp) > 1 else 0.0
        for i, c in enumerate(vp):
            self.card(cv, vx + i * vstep, y + 26, vw, vh, c)


# ---- entry point ----------------------------------------------------------------------------

_DRAWERS: Dict[str, Any] = {"m": _MDraw, "cheese_rescue": _CRDraw, "kasimir": _KKDraw,
                            "maus_au_chocolat": _MCDraw}


def _check_size(size: Any) -> Optional[float]:
    if size is None:
        return None
    if isinstance(size, bool) or not isinstance(size, numbers.Real):
        raise TypeError(f"size must be a positive number of pixels (the picture's width), not {type(size).__name__}")
    s = float(size)
    if not math.isfinite(s) or s <= 0:
        raise ValueError(f"size must be a positive number of pixels (the picture's width), got {size!r}")
    return s


def svg(state: StateAPI[Any], *, for_player: Optional[int] = None, size: Optional[float] = None) -> str:
    """The position of ``state`` as an SVG 1.1 document (a ``str``).

    ``for_player``: draw seat ``for_player``'s view (``state.to_dict(for_player=...)``):
    every card that seat may not see is drawn face down. ``size``: the width in pixels
    (the height keeps the picture's proportions); by default the picture's own size.
    Raises ``TypeError`` for a state that is not a mousehole state or a ``size`` that is
    not a number, ``ValueError`` for a seat out of range or a ``size`` that is not > 0.
    """
    if not isinstance(state, StateAPI):
        raise TypeError(f"svg() draws a mousehole state, not {type(state).__name__}")
    px = _check_size(size)
    seat = None if for_player is None else check_seat(state.game, for_player, "for_player")
    d = state.to_dict(for_player=seat)
    drawer = _DRAWERS.get(d["game"])
    if drawer is None:  # pragma: no cover - every registered game has a drawer
        raise ValueError(f"no picture for the game {d['game']!r}")
    facts = _Facts(state, d if seat is not None else None)
    cv = drawer(state, d, facts).draw()
    title = f"{state.game.title}: {'the whole position' if seat is None else f'the view of seat {seat}'}"
    return str(cv.finish(title, px))



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


def rgb_array(state: StateAPI[Any], *, for_player: Optional[int] = None,
              size: Optional[float] = None) -> Any:
    """The picture of :func:`svg` rasterized: a ``numpy.uint8`` array of shape
    ``(height, width, 3)`` (RGB, on white). Needs the ``render`` extra
    (``pip install 'mousehole[render]'``: CairoSVG and Pillow, and the system cairo
    library); raises ``ImportError`` naming the extra when they are missing."""
    import io

    import numpy as np

    try:
        import cairosvg  # type: ignore[import-untyped]
        from PIL import Image
    except (ImportError, OSError) as e:  # OSError: cairocffi without the cairo library
        raise ImportError("mousehole.render.rgb_array needs the 'render' extra: "
                          "pip install 'mousehole[render]' (CairoSVG, Pillow and the system "
                          f"cairo library): {e}") from e
    picture = svg(state, for_player=for_player, size=size)
    png = cairosvg.svg2png(bytestring=picture.encode("ascii"), background_color="white")
    with Image.open(io.BytesIO(png)) as im:
        arr = np.asarray(im.convert("RGB"), dtype=np.uint8)
    return np.ascontiguousarray(arr)
