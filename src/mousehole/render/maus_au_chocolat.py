"""The picture of a position of Maus au Chocolat: the display, the draw and discard piles, the
helper row (MC-4), and per seat its helper, victory points, hand (MC-26: face down for the
others in a view, but for the cards everyone saw it take), bid (MC-7: face down until the
reveal) and victory-point cards (MC-12, MC-13)."""

from __future__ import annotations

from typing import List, Optional

from ._canvas import INK, MUTED, BaseDrawing, Canvas, card_back, contrast, footer, header, result_text, seat_box

MC_FILLS = ["#f7d038", "#d7263d", "#4c9a2a", "#6b3e26", "#ffffff"]  # MC-1: eggs, fruit, nuts, chocolate, sugar
MC_NAMES = ["eggs", "fruit", "nuts", "choc.", "sugar"]
HELPER_NAMES = ("Etienne", "Henri", "Mathieu", "Maurice", "Lilly", "Amélie", "Claude")  # MC-2


class Drawing(BaseDrawing):
    """The picture of a position of Maus au Chocolat."""

    CW, CH = 40, 56  #: a card in a hand or the display
    SEAT_H = 86
    BADGE = (92, 54)

    def card(self, cv: Canvas, x: float, y: float, w: float, h: float, c: Optional[int]) -> None:
        """An ingredient card (MC-1): ingredient colour, candy value big, coins in a gold disc."""
        if c is None:
            card_back(cv, x, y, w, h)
            return
        ing, candy, coin = self.g.cards[c]
        fill = MC_FILLS[ing % len(MC_FILLS)]
        ink = contrast(fill)
        cv.rect(x, y, w, h, fill=fill, stroke="#1f2328", sw=0.9, rx=min(w, h) * 0.12)
        if h >= 40:
            cv.text(x + w / 2, y + h * 0.62, str(candy), size=h * 0.36, fill=ink, anchor="middle", bold=True)
            r = w * 0.17
            cv.circle(x + r + 3, y + r + 3, r, fill="#f2c94c", stroke="#8a6d00", sw=0.8)
            cv.text(x + r + 3, y + r + 3 + r * 0.5, str(coin), size=r * 1.35, fill=INK, anchor="middle", bold=True)
            cv.text(
                x + w / 2, y + h - 5, MC_NAMES[ing % len(MC_NAMES)], size=min(9.0, w * 0.23), fill=ink, anchor="middle"
            )
        else:
            cv.text(x + w / 2, y + h * 0.68, str(candy), size=h * 0.5, fill=ink, anchor="middle", bold=True)

    def helper(self, cv: Canvas, x: float, y: float, w: float, h: int, hid: int) -> None:
        """A helper (MC-2): name and rank (rank = 7 - id)."""
        cv.rect(x, y, w, h, fill="#fff8c5", stroke="#9a6700", sw=1, rx=6)
        cv.text(x + w / 2, y + h * 0.45, HELPER_NAMES[hid], size=11, anchor="middle", bold=True)
        cv.text(x + w / 2, y + h * 0.82, f"rank {7 - hid}", size=9.5, fill=MUTED, anchor="middle")

    def draw(self) -> Canvas:
        g, d, f, n = self.g, self.d, self.f, self.n
        CW, CH = self.CW, self.CH
        view = d["view"]
        width = 880
        top_y = 50
        seats_y = top_y + 102
        foot_y = seats_y + n * self.SEAT_H + 8
        cv = Canvas(width, foot_y + 54)
        phase = "game over" if d["phase"] == "over" else f"{d['phase']} phase"
        header(cv, g.title, f"round {d['round']}, {phase}", view, self.label)
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
                card_back(cv, x + 2 * k, top_y + 20 + 2 * k, CW, CH)
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
        if d["phase"] == "pick" or (d["phase"] == "discard" and g.limit_standing):  # (MC-14, hand_limit)
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
        legend = (
            "cards: candy value (big), coins (gold disc), ingredient; "
            "VP = candy values of the cards kept (MC-13); first to 30 ends the game (MC-24)"
        )
        if f.over:
            best = max(f.scores)
            line = f"Game over, {g._end_reason(d)}: {result_text(f.winners, n, self.label)} with {best} VP (MC-25)"
        else:
            what = {
                "bid": "bids a card, face down (MC-7)",
                "pick": "takes a card from the display (MC-9)",
                "combine": "lays a combination or declines (MC-10)",
                "discard": "discards down to 8 cards (MC-14)",
            }.get(d["phase"], "plays")
            line = f"{self.label(f.current)} {what}"
        footer(cv, foot_y, line, f.over, legend)
        return cv

    def seat_block(self, cv: Canvas, x: float, y: float, w: float, h: float, p: int) -> None:
        d, f = self.d, self.f
        view = d["view"]
        to_move = (not f.over) and f.current == p
        winner = f.over and p in f.winners
        seat_box(cv, x, y, w, h, to_move, winner, self.BADGE)
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
            card_back(cv, bx, y + 17, self.CW, self.CH)
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
