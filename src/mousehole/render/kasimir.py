"""The picture of a position of Kater Kasimir: the track as a winding path of numbered spaces
with its traps (the caught mouse framed in black, KK-9), the towers of mice bottom to top by
colour (KK-8; the mice that may move outlined in gold, KK-6), the pantry, the hole (with who got
home first, KK-13) and the die (KK-5). Nothing is hidden (KK-14): a view draws the same."""

from __future__ import annotations

from typing import List, Optional, Tuple

from .._api import CHANCE
from ._canvas import INK, LETTERS, MUTED, PANEL, SEAT_COLOURS, BaseDrawing, Canvas, footer, header, num, result_text

TRAP = "#90a4ae"
GOLD = "#ffb000"  #: the outline of the mice the seat to move may move (KK-6)
SPACE = "#f6ecd4"


class Drawing(BaseDrawing):
    """The picture of a position of Kater Kasimir."""

    CW, CH, PER_ROW, GAP = 54, 92, 10, 16

    def label(self, p: int) -> str:
        return f"seat {p} ({LETTERS[p]})"

    def cell_xy(self, i: int, x0: float, y0: float) -> Tuple[float, float]:
        """Top-left corner of space ``i + 1``: rows of ten, winding (KK-1)."""
        row, k = divmod(i, self.PER_ROW)
        col = k if row % 2 == 0 else self.PER_ROW - 1 - k
        return x0 + col * self.CW, y0 + row * (self.CH + self.GAP)

    def mouse(self, cv: Canvas, x: float, y: float, w: float, h: float, p: int, caught: bool, free: bool) -> None:
        """One mouse of a tower: a bar of its seat's colour (a caught one in a black frame, one
        that may move now in a gold one)."""
        fill = SEAT_COLOURS[p % len(SEAT_COLOURS)]
        if free:
            cv.rect(x - 2.5, y - 2.5, w + 5, h + 5, fill="#fff3bf", stroke=GOLD, sw=2.2, rx=4)
        cv.rect(
            x,
            y,
            w,
            h,
            fill=fill,
            stroke="#111111" if caught else "#ffffff",
            sw=2.2 if caught else 0.8,
            rx=min(3.0, h / 2),
        )
        if h >= 9:
            cv.text(
                x + w / 2,
                y + h / 2 + min(h, 12) * 0.36,
                LETTERS[p],
                size=min(h, 12) * 0.95,
                fill="#ffffff",
                anchor="middle",
                bold=True,
            )

    def draw(self) -> Canvas:
        g, d, f, n = self.g, self.d, self.f, self.n
        L, CW, CH, GAP = g.track_length, self.CW, self.CH, self.GAP
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
        cv = Canvas(x0 + track_w + side + 14, foot_y + 54)
        moves = sum(1 for a in d["history"] if a is None or a < g.num_move_actions)
        header(cv, g.title, f"{moves} moves", d["view"], self.label)
        mover = d["seat"] if not f.over and f.current != CHANCE else -1  # whose free mice are marked
        # the path through the spaces, behind them
        pts = []
        for i in range(L):
            x, y = self.cell_xy(i, x0, y0)
            pts.append((x + CW / 2, y + CH / 2))
        if pts:
            dpath = "M" + " L".join(f"{num(x)} {num(y)}" for x, y in pts)
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
            cv.line(
                end, pts[-1][1], hx + (0 if last_row % 2 == 0 else side - 12), pts[-1][1], stroke="#d7c9a7", sw=CW * 0.3
            )
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
        legend = (
            "towers bottom to top (KK-8); gold: the mice that may move (KK-6); black frame: caught in a trap (KK-9)"
        )
        if f.over:
            homes = d["home"]
            best = max(homes)
            ws = f.winners
            tie = len([p for p in range(n) if homes[p] == best]) > 1 and len(ws) == 1 and best > 0
            why = ", first home" if tie else ""
            line = (
                f"Game over, {g._end_reason(d)}: {result_text(ws, n, self.label)} with {best} "
                f"{'mouse' if best == 1 else 'mice'} home{why} (KK-13)"
            )
        elif f.current == CHANCE:
            line = f"{self.label(d['seat'])} rolls the die (chance)"
        else:
            face = g.faces[d["roll"]]
            dist = "any distance 1-" + str(g.clover) if face == "clover" else f"{face} space{'s' if face != 1 else ''}"
            line = f"{self.label(f.current)} to move one free mouse {dist} (KK-5)"
        footer(cv, foot_y, line, f.over, legend)
        return cv

    def box(
        self,
        cv: Canvas,
        x: float,
        y: float,
        w: float,
        h: float,
        title: str,
        counts: List[int],
        first: Optional[List[int]],
        mover: int,
    ) -> None:
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
            cv.circle(
                x + 14,
                yy + rh / 2,
                min(6.0, rh / 2 - 1),
                fill=SEAT_COLOURS[p % len(SEAT_COLOURS)],
                stroke="#ffffff",
                sw=0.8,
            )
            txt = f"{LETTERS[p]}: {counts[p]}"
            cv.text(x + 25, yy + rh / 2 + 4, txt, size=11, fill=ink, bold=counts[p] > 0)
            if p in rank and rank[p] == 0:
                cv.text(x + w - 6, yy + rh / 2 + 4, "1st", size=10, fill="#ffd33d", anchor="end", bold=True)

    def die_panel(self, cv: Canvas, x: float, y: float, w: float) -> None:
        g, d, f = self.g, self.d, self.f
        cv.rect(x, y, w, max(150, 56 + 26 * len(f.winners)), fill=PANEL, stroke="#d0d7de", rx=10)
        if f.over:
            cv.text(x + w / 2, y + 20, "game over", size=12, anchor="middle", bold=True)
            cv.text(
                x + w / 2, y + 40, "winner" if len(f.winners) == 1 else "winners", size=11, fill=MUTED, anchor="middle"
            )
            for k, p in enumerate(f.winners):
                cv.rect(x + 14, y + 48 + k * 26, w - 28, 22, fill=SEAT_COLOURS[p % len(SEAT_COLOURS)], rx=6)
                cv.text(x + w / 2, y + 64 + k * 26, self.label(p), size=12, fill="#ffffff", anchor="middle", bold=True)
            return
        else:
            seat = d["seat"]
            colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
            cv.text(
                x + w / 2, y + 20, "to move" if f.current != CHANCE else "to roll", size=11, fill=MUTED, anchor="middle"
            )
            cv.rect(x + 14, y + 28, w - 28, 22, fill=colour, rx=6)
            cv.text(x + w / 2, y + 44, self.label(seat), size=12, fill="#ffffff", anchor="middle", bold=True)
        s = 58
        dx, dy = x + (w - s) / 2, y + 62
        cv.rect(dx, dy, s, s, fill="#ffffff", stroke=INK, sw=2, rx=10)
        roll = d["roll"]
        if roll is None:
            cv.text(dx + s / 2, dy + s / 2 + 11, "?", size=30, fill=MUTED, anchor="middle", bold=True)
            cv.text(
                x + w / 2, y + 140, "no roll" if f.over else "not rolled yet", size=10.5, fill=MUTED, anchor="middle"
            )
            return
        face = g.faces[roll]
        if face == "clover":
            cx, cy, r = dx + s / 2, dy + s / 2 - 2, 8.5
            for ax, ay in ((0, -1), (1, 0), (0, 1), (-1, 0)):
                cv.circle(cx + ax * r * 0.95, cy + ay * r * 0.95, r, fill="#2e7d32")
            cv.path(
                f"M{num(cx)} {num(cy)} Q{num(cx + 4)} {num(cy + 14)} {num(cx + 10)} {num(cy + 22)}",
                stroke="#2e7d32",
                sw=2.5,
            )
            cv.text(x + w / 2, y + 140, f"clover: 1 to {g.clover}", size=10.5, anchor="middle")
        elif 1 <= int(face) <= 6:
            pips = {
                1: [(0, 0)],
                2: [(-1, -1), (1, 1)],
                3: [(-1, -1), (0, 0), (1, 1)],
                4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
                5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
                6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
            }[int(face)]
            for px, py in pips:
                cv.circle(dx + s / 2 + px * s * 0.27, dy + s / 2 + py * s * 0.27, 5.2, fill=INK)
            cv.text(x + w / 2, y + 140, f"rolled {face}", size=10.5, anchor="middle")
        else:
            cv.text(dx + s / 2, dy + s / 2 + 10, str(face), size=28, anchor="middle", bold=True)
            cv.text(x + w / 2, y + 140, f"rolled {face}", size=10.5, anchor="middle")
