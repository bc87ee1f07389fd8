"""The picture of a position of Cheese Rescue: the square around the cards (cells where no card
may go any more, CR-8, hatched), animals by kind, cheese in its owner's colour with its value;
per seat its hand (in a view, the other seats' animals face down, CR-15) and score (CR-13); at
the end the cards removed by CR-12 crossed out."""

from __future__ import annotations

import math
from typing import Tuple

from ..cheese_rescue import final_table
from ._canvas import (
    LETTERS,
    MUTED,
    SEAT_COLOURS,
    BaseDrawing,
    Canvas,
    card_back,
    contrast,
    footer,
    header,
    result_text,
    seat_box,
)

CR_ANIMALS = (("dog", "#8d5a2b"), ("cat", "#37474f"), ("mouse", "#9aa5b1"))  # CR-1
CHEESE = "#ffd54f"


class Drawing(BaseDrawing):
    """The picture of a position of Cheese Rescue."""

    C = 46
    PANEL_W = 330
    BADGE = (PANEL_W - 186, 8)

    def label(self, p: int) -> str:
        return f"seat {p} ({LETTERS[p]})"

    def animal(self, cv: Canvas, x: float, y: float, s: float, kind: int) -> None:
        """An animal card (CR-1): its kind's colour, a little head and its name."""
        name, fill = CR_ANIMALS[kind]
        cv.rect(x, y, s, s, fill=fill, stroke="#1f2328", sw=0.8, rx=s * 0.12)
        ink = contrast(fill)
        cx, cy, r = x + s / 2, y + s * 0.42, s * 0.2
        if kind == 0:  # dog: round head, long ears
            cv.el("ellipse", cx=cx - r * 0.95, cy=cy + r * 0.2, rx=r * 0.38, ry=r * 0.75, fill=ink)
            cv.el("ellipse", cx=cx + r * 0.95, cy=cy + r * 0.2, rx=r * 0.38, ry=r * 0.75, fill=ink)
            cv.circle(cx, cy, r * 0.8, fill=ink)
        elif kind == 1:  # cat: pointed ears
            cv.poly(
                [(cx - r * 0.9, cy - r * 0.2), (cx - r * 0.75, cy - r * 1.25), (cx - r * 0.1, cy - r * 0.6)], fill=ink
            )
            cv.poly(
                [(cx + r * 0.9, cy - r * 0.2), (cx + r * 0.75, cy - r * 1.25), (cx + r * 0.1, cy - r * 0.6)], fill=ink
            )
            cv.circle(cx, cy, r * 0.85, fill=ink)
        else:  # mouse: big round ears
            cv.circle(cx - r * 0.8, cy - r * 0.6, r * 0.55, fill=ink)
            cv.circle(cx + r * 0.8, cy - r * 0.6, r * 0.55, fill=ink)
            cv.circle(cx, cy + r * 0.1, r * 0.7, fill=ink)
        if s >= 30:
            cv.text(cx, y + s - s * 0.12, name, size=s * 0.22, fill=ink, anchor="middle", bold=True)

    def cheese(self, cv: Canvas, x: float, y: float, s: float, owner: int, value: int) -> None:
        """A cheese card (CR-2): its owner's colour, a cheese wedge, its value."""
        fill = SEAT_COLOURS[owner % len(SEAT_COLOURS)]
        cv.rect(x, y, s, s, fill=fill, stroke="#1f2328", sw=0.8, rx=s * 0.12)
        wx, wy = x + s * 0.1, y + s * 0.12
        cv.poly(
            [(wx, wy + s * 0.3), (wx + s * 0.36, wy), (wx + s * 0.36, wy + s * 0.3)],
            fill=CHEESE,
            stroke="#b8860b",
            sw=0.6,
        )
        cv.text(x + s * 0.62, y + s * 0.66, str(value), size=s * 0.5, fill="#ffffff", anchor="middle", bold=True)
        if s >= 30:
            cv.text(
                x + s * 0.25, y + s * 0.88, LETTERS[owner], size=s * 0.22, fill="#ffffff", anchor="middle", bold=True
            )

    def start(self, cv: Canvas, x: float, y: float, s: float) -> None:
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

    def code(self, cv: Canvas, x: float, y: float, s: float, code: int) -> None:
        if code == 1:
            self.start(cv, x, y, s)
        elif 2 <= code <= 4:
            self.animal(cv, x, y, s, code - 2)
        else:
            owner, ck = divmod(code - 5, self.g.num_cheese_kinds)
            self.cheese(cv, x, y, s, owner, self.g.cheese_kind_values[ck])

    def window(self) -> Tuple[int, int, int]:
        """The drawn part of the grid: a square of N + 2 cells (the floating square of CR-8
        and a free cell on each side) around the cards, inside the grid."""
        table = self.d["table"]
        G: int = self.g.grid_size
        N: int = self.g.square_size
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

    def draw(self) -> Canvas:
        g, d, f, n, C = self.g, self.d, self.f, self.n, self.C
        G = g.grid_size
        table = d["table"]
        r0, c0, W = self.window()
        bx, by = 44, 64
        board = W * C
        seat_h = 104
        panel_x = bx + board + 26
        body_h = max(board + 74, n * seat_h + 56)
        foot_y = by + body_h
        cv = Canvas(panel_x + self.PANEL_W + 12, foot_y + 54)
        header(cv, g.title, f"{len(d['history'])} of {g.cells_to_fill} cards laid", d["view"], self.label)
        occ = [i for i, c in enumerate(table) if c]
        open_ = g._open_cells(table)
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
                if cell in open_:  # CR-8: a card may still go here as far as the square goes
                    cv.rect(x + 3, y + 3, C - 6, C - 6, fill="#fbf9f4", stroke="#d6ccb5", rx=5, dash="3 3")
                else:
                    cv.rect(x + 3, y + 3, C - 6, C - 6, fill="#e4ddd0", rx=5)
                    cv.line(x + 10, y + C - 10, x + C - 10, y + 10, stroke="#cfc5b2", sw=1.2)
        # pile and legend under the board
        py = by + board + 18
        pile = d["pile_size"] if d["view"] is not None else len(d["pile"])
        if pile:
            for k in range(min(3, pile)):
                card_back(cv, bx + 2 * k, py + 2 * k, 34, 34)
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
        legend = (
            "dogs chase cats, cats catch mice, mice eat cheese (CR-12); "
            "cheese: the owner's colour and letter, and its value"
        )
        if f.over:
            best = max(f.scores)
            line = f"Game over, {g._end_reason(d)}: {result_text(f.winners, n, self.label)} with {best} (CR-13)"
        else:
            line = f"{self.label(f.current)} to play: lay a card next to one on the table (CR-7, CR-8)"
        footer(cv, foot_y, line, f.over, legend)
        return cv

    def seat_block(self, cv: Canvas, x: float, y: float, h: float, p: int) -> None:
        g, d, f = self.g, self.d, self.f
        w = self.PANEL_W
        to_move = (not f.over) and f.current == p
        winner = f.over and p in f.winners
        seat_box(cv, x, y, w, h, to_move, winner, self.BADGE)
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
                card_back(cv, hx + k * 9, hy, s, s)
            cv.text(
                hx + min(hidden, 5) * 9 + s + 4,
                hy + 17,
                f"{hidden} animal{'s' if hidden != 1 else ''}" if hidden else "no animal",
                size=11,
                fill=MUTED,
            )
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
        step = min(48.0, (w - 104 - 45) / max(1, g.num_cheese_kinds - 1))
        for k in range(g.num_cheese_kinds):
            self.cheese(cv, cx, hy + s + 5, 20, p, g.cheese_kind_values[k])
            cv.text(cx + 23, hy + s + 20, f"x{hand[3 + k]}", size=11, bold=True)
            cx += step
        if hand[0] is not None:
            total = sum(hand)
            cv.text(x + w - 10, hy + 18, f"{total} cards in hand", size=11, fill=MUTED, anchor="end")
        else:
            cv.text(x + w - 10, hy + 18, f"{d['hand_sizes'][p]} cards in hand", size=11, fill=MUTED, anchor="end")
