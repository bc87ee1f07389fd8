"""The picture of a position of M: the 8 x 8 window of the table (M-7) with absolute row and
column numbers, the scoring row ringed in gold (M-12), the last card laid ringed in black, the
draw pile (M-22: in a view, how many of its cards the seat put there), and per seat its chips,
hand, taken cards per colour with the colour totals, and score (M-20)."""

from __future__ import annotations

import math
from typing import Any, Dict, List, Optional

from .._api import StateAPI
from ..m import _colour_totals
from ._canvas import INK, MUTED, BaseDrawing, Canvas, Facts, card_back, contrast, footer, header, result_text, seat_box

M_COLOURS = {
    "blue": "#1f63c6",
    "green": "#2e8b3a",
    "pink": "#e0529c",
    "yellow": "#f5cb11",
    "orange": "#f07800",
    "red": "#d32f2f",
    "purple": "#7b1fa2",
    "black": "#2b2b2b",
    "white": "#ffffff",
    "grey": "#8c959f",
    "gray": "#8c959f",
    "brown": "#795548",
    "cyan": "#00acc1",
    "violet": "#8e44ad",
}
M_SPARE = ["#5d4037", "#00897b", "#6d4c41", "#455a64", "#c2185b", "#512da8", "#689f38", "#0288d1"]
SHAPES = ["square", "triangle", "eight", "circle", "diamond", "cross", "star", "hexagon"]


def _colour_hex(name: str, index: int) -> str:
    return M_COLOURS.get(name.lower(), M_SPARE[index % len(M_SPARE)])


def _shape(cv: Canvas, shape: str, cx: float, cy: float, s: float, fill: str) -> None:
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
        cv.poly(
            [
                (cx - k, cy - s),
                (cx + k, cy - s),
                (cx + k, cy - k),
                (cx + s, cy - k),
                (cx + s, cy + k),
                (cx + k, cy + k),
                (cx + k, cy + s),
                (cx - k, cy + s),
                (cx - k, cy + k),
                (cx - s, cy + k),
                (cx - s, cy - k),
                (cx - k, cy - k),
            ],
            fill=fill,
        )
    elif shape == "star":
        pts = []
        for i in range(10):
            a = -math.pi / 2 + i * math.pi / 5
            r = s if i % 2 == 0 else s * 0.45
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
        cv.poly(pts, fill=fill)
    else:  # hexagon
        cv.poly([(cx + s * math.cos(math.pi / 3 * i), cy + s * math.sin(math.pi / 3 * i)) for i in range(6)], fill=fill)


class Drawing(BaseDrawing):
    """The picture of a position of M."""

    C = 50  #: cell size of the table
    PANEL_W = 372
    BADGE = (PANEL_W - 150, 8)

    def __init__(self, state: StateAPI[Any], d: Dict[str, Any], facts: Facts) -> None:
        super().__init__(state, d, facts)
        g = self.g
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

    def card(self, cv: Canvas, x: float, y: float, w: float, h: float, card: Optional[int]) -> None:
        """An M card: its colour as the fill, its value, its symbol (none on a 0)."""
        if card is None:
            card_back(cv, x, y, w, h)
            return
        g = self.g
        fill = self.fills[g.colour_of[card]]
        ink = contrast(fill)
        cv.rect(x, y, w, h, fill=fill, stroke="#1f2328", sw=0.8, rx=min(w, h) * 0.12)
        val = str(g.value_of[card])
        sym = g.symbol_of[card]
        if sym < 0 or h < 24:
            cv.text(x + w / 2, y + h / 2 + h * 0.15, val, size=h * 0.42, fill=ink, anchor="middle", bold=True)
            return
        cv.text(x + w / 2, y + h * 0.43, val, size=h * 0.34, fill=ink, anchor="middle", bold=True)
        _shape(cv, self.shapes[sym], x + w / 2, y + h * 0.71, h * 0.14, ink)

    def draw(self) -> Canvas:
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
        cv = Canvas(panel_x + self.PANEL_W + 12, foot_y + 54)

        seat = self.label
        status = f"{len(d['history'])} actions"
        header(cv, g.title, status, d["view"], seat)
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
                card_back(cv, board_x + 2 * k, py + 2 * k, 40, 46)
        if not pile:
            cv.rect(board_x, py, 40, 46, stroke="#8c959f", dash="4 3", rx=5)
        viewer: Optional[int] = d["view"]
        # M-22: the pile cards the viewer put under the pile are the only ones it knows
        own = (
            0 if viewer is None else sum(1 for c, who in zip(pile, d["pile_putter"]) if who == viewer and c is not None)
        )
        pile_txt = f"draw pile: {len(pile)} card{'s' if len(pile) != 1 else ''}"
        cv.text(board_x + 56, py + 20, pile_txt, size=13, bold=True)
        sub = (
            f"{own} of them put there by {seat(viewer)}"
            if own and viewer is not None
            else "face down"
            if pile
            else "empty"
        )
        cv.text(board_x + 56, py + 38, sub, size=11, fill=MUTED)
        # marks, as the legend says
        lx = board_x + 230
        cv.rect(lx, py + 6, 16, 16, fill="#ffb000", rx=3)
        cv.text(lx + 22, py + 19, "scoring row (M-12)", size=11, fill=MUTED)
        cv.rect(lx, py + 30, 16, 16, stroke=INK, sw=2.5, rx=3)
        cv.text(lx + 22, py + 43, "last card laid", size=11, fill=MUTED)
        # the seats
        totals = _colour_totals(g, d["taken"])
        for p in range(n):
            self.seat_block(cv, panel_x, board_y - 6 + p * seat_h, seat_h - 8, p, totals[p])
        # what happens now, or the result
        legend = (
            "cards: colour, value, symbol (square, triangle, eight, circle; a 0 has none); "
            "score (M-20) = 10 per chip + two best colours - the others"
        )
        footer(cv, foot_y, self.status_line(), f.over, legend)
        return cv

    def status_line(self) -> str:
        """The footer: what happens now, or the result."""
        d, f, n, seat = self.d, self.f, self.n, self.label
        if f.over:
            why = self.g._end_reason(d)
            best = max(f.scores) if f.scores else 0
            return f"Game over, {why}: {result_text(f.winners, n, seat)} with {best} points (M-21)"
        if d["phase"] == "choose":
            return f"{seat(f.current)} chooses which line to score (M-12)"
        if d["phase"] == "take":
            return f"{seat(f.current)} takes a card of the scoring row (M-13, M-14)"
        return f"{seat(f.current)} to play: lay a card next to the table, or pass (M-6, M-9)"

    def seat_block(self, cv: Canvas, x: float, y: float, h: float, p: int, totals: List[int]) -> None:
        g, d, f = self.g, self.d, self.f
        w = self.PANEL_W
        to_move = (not f.over) and f.current == p
        winner = f.over and p in f.winners
        seat_box(cv, x, y, w, h, to_move, winner, self.BADGE)
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
            cv.text(
                tx + gw / 2, y + h - 4, str(totals[g.colour_of[gr[0]]]), size=10, fill=INK, anchor="middle", bold=True
            )
            tx += gw + gap
