"""The shared canvas of :mod:`mousehole.render`: a small SVG writer, the palette, and the
parts every game's picture has (the header band, the footer band, a seat's panel, card
backs), plus :class:`Facts` (what a picture needs beyond the state dict) and
:class:`BaseDrawing` (what each game's ``Drawing`` class builds on).

Each game draws itself in its own module of this package (``mousehole.render.<game>``, named
by the game's ``Game.DRAWING``), whose class ``Drawing(state, d, facts)`` returns a
:class:`Canvas` from ``draw()``.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from .._api import StateAPI

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


def num(x: float) -> str:
    """A coordinate written the same way every time (at most 2 decimals, no '-0')."""
    r = round(float(x), 2)
    if r == int(r):
        return str(int(r))
    return f"{r:.2f}".rstrip("0").rstrip(".")


def esc(s: str) -> str:
    """XML text / attribute escape, non-ASCII as character references."""
    s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    return s.encode("ascii", "xmlcharrefreplace").decode("ascii")


def text_width(s: str, size: float, bold: bool = False) -> float:
    """A rough width of ``s`` in the sans-serif font (for laying out, never exact)."""
    return len(s) * size * (0.64 if bold else 0.58)


class Canvas:
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
            val = num(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else esc(str(v))
            items.append(f'{name}="{val}"')
        head = f"<{tag} " + " ".join(items) if items else f"<{tag}"
        self.parts.append(head + ("/>" if body is None else f">{body}</{tag}>"))

    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        fill: str = "none",
        stroke: Optional[str] = None,
        sw: float = 1,
        rx: float = 0,
        opacity: Optional[float] = None,
        dash: Optional[str] = None,
    ) -> None:
        self.el(
            "rect",
            x=x,
            y=y,
            width=w,
            height=h,
            rx=rx if rx else None,
            fill=fill,
            stroke=stroke,
            stroke_width=sw if stroke else None,
            fill_opacity=opacity,
            stroke_dasharray=dash,
        )

    def circle(
        self, cx: float, cy: float, r: float, fill: str = "none", stroke: Optional[str] = None, sw: float = 1
    ) -> None:
        self.el("circle", cx=cx, cy=cy, r=r, fill=fill, stroke=stroke, stroke_width=sw if stroke else None)

    def line(
        self, x1: float, y1: float, x2: float, y2: float, stroke: str = INK, sw: float = 1, cap: Optional[str] = None
    ) -> None:
        self.el("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=stroke, stroke_width=sw, stroke_linecap=cap)

    def poly(
        self, pts: Sequence[Tuple[float, float]], fill: str = "none", stroke: Optional[str] = None, sw: float = 1
    ) -> None:
        self.el(
            "polygon",
            points=" ".join(f"{num(x)},{num(y)}" for x, y in pts),
            fill=fill,
            stroke=stroke,
            stroke_width=sw if stroke else None,
            stroke_linejoin="round" if stroke else None,
        )

    def path(
        self, d: str, fill: str = "none", stroke: Optional[str] = None, sw: float = 1, opacity: Optional[float] = None
    ) -> None:
        self.el(
            "path",
            d=d,
            fill=fill,
            stroke=stroke,
            stroke_width=sw if stroke else None,
            stroke_linejoin="round" if stroke else None,
            stroke_linecap="round" if stroke else None,
            stroke_opacity=opacity,
        )

    def text(
        self, x: float, y: float, s: str, size: float = 12, fill: str = INK, anchor: str = "start", bold: bool = False
    ) -> None:
        self.el(
            "text",
            esc(s),
            x=x,
            y=y,
            font_size=size,
            fill=fill,
            text_anchor=None if anchor == "start" else anchor,
            font_weight="bold" if bold else None,
        )

    def finish(self, title: str, size: Optional[float]) -> str:
        w, h = self.width, self.height
        out_w, out_h = (w, h) if size is None else (size, size * h / w)
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{num(out_w)}" '
            f'height="{num(out_h)}" viewBox="0 0 {num(w)} {num(h)}">'
        )
        return "".join(
            [
                head,
                f"<title>{esc(title)}</title>",
                f'<g font-family="{esc(FONT)}">',
                f'<rect x="0" y="0" width="{num(w)}" height="{num(h)}" fill="{PAPER}"/>',
                *self.parts,
                "</g></svg>\n",
            ]
        )


def contrast(fill: str) -> str:
    """Black or white text, whichever reads better on ``fill`` (#rrggbb)."""
    r, g, b = (int(fill[i : i + 2], 16) / 255 for i in (1, 3, 5))

    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else float(((c + 0.055) / 1.055) ** 2.4)

    lum = 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
    return INK if lum > 0.32 else "#ffffff"


def card_back(cv: Canvas, x: float, y: float, w: float, h: float) -> None:
    """A face-down card: what a seat's view draws for every card it may not see."""
    rx = min(w, h) * 0.12
    cv.rect(x, y, w, h, fill=BACK, stroke="#1c2333", sw=1, rx=rx)
    m = min(w, h) * 0.14
    cv.rect(x + m, y + m, w - 2 * m, h - 2 * m, stroke=BACK_LINE, sw=1, rx=rx * 0.6)
    cx, cy, s = x + w / 2, y + h / 2, min(w, h) * 0.18
    cv.poly([(cx, cy - s), (cx + s, cy), (cx, cy + s), (cx - s, cy)], fill=BACK_LINE)


def marker(cv: Canvas, x: float, y: float, s: float = 6, fill: str = INK) -> None:
    """A right-pointing triangle with its tip at (x + s, y): "this one is to move"."""
    cv.poly([(x, y - s * 0.8), (x + s, y), (x, y + s * 0.8)], fill=fill)


def seat_box(
    cv: Canvas, x: float, y: float, w: float, h: float, to_move: bool, winner: bool, badge: Tuple[float, float]
) -> None:
    """A seat's panel: yellow for the seat to move (with a marker), green for a winner (with a
    badge at ``badge``, relative to the panel)."""
    cv.rect(
        x,
        y,
        w,
        h,
        fill="#dafbe1" if winner else TURN if to_move else PANEL,
        stroke="#2da44e" if winner else "#d0d7de",
        sw=1.5 if winner else 1,
        rx=8,
    )
    if to_move:
        marker(cv, x + 8, y + 16, 7)
    if winner:
        bx, by = x + badge[0], y + badge[1]
        cv.rect(bx, by, 56, 16, fill="#2da44e", rx=8)
        cv.text(bx + 28, by + 11.5, "winner", size=10.5, fill="#ffffff", anchor="middle", bold=True)


def seats_text(seats: Sequence[int], label: Callable[[int], str]) -> str:
    names = [label(p) for p in seats]
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


def result_text(winners: Sequence[int], n: int, label: Callable[[int], str]) -> str:
    if not winners:
        return "nobody wins"
    if len(winners) == n and n > 1:
        return "all seats share the win"
    who = seats_text(winners, label)
    return f"{who} wins" if len(winners) == 1 else f"{who} share the win"


def header(cv: Canvas, title: str, status: str, view: Optional[int], label: Callable[[int], str]) -> None:
    """The dark band on top: the game, the move count, whose view this is."""
    cv.rect(0, 0, cv.width, 34, fill=BAND)
    cv.text(14, 23, title, size=17, fill="#ffffff", bold=True)
    cv.text(14 + text_width(title, 17, True) + 14, 22, status, size=12, fill="#d0d7de")
    if view is not None:
        tag = f"{label(view)}'s view: hidden cards face down"
        w = text_width(tag, 11.5) + 18
        cv.rect(cv.width - w - 10, 7, w, 20, fill="#ffd33d", rx=10)
        cv.text(cv.width - w / 2 - 10, 21, tag, size=11.5, fill=INK, anchor="middle", bold=False)


def footer(cv: Canvas, y: float, line: str, over: bool, legend: str) -> None:
    """The band at the bottom: what happens now (or the result, green, at the end) and a
    legend of the picture's marks."""
    cv.rect(0, y, cv.width, cv.height - y, fill="#dafbe1" if over else PANEL)
    cv.line(0, y, cv.width, y, stroke="#d0d7de")
    size = 14.0 if over else 13.0
    size = min(size, size * (cv.width - 28) / max(1.0, text_width(line, size, over)))  # a long line: smaller
    cv.text(14, y + 21, line, size=round(size, 1), bold=over, fill=INK)
    cv.text(14, y + 41, legend, size=11, fill=MUTED)


class Facts:
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


class BaseDrawing:
    """What every game's ``Drawing`` class starts from: the game ``g``, the state dict ``d``
    being drawn (the whole one or a seat's view), the :class:`Facts` ``f`` and the number of
    seats ``n``. A subclass draws the picture in :meth:`draw`."""

    def __init__(self, state: StateAPI[Any], d: Dict[str, Any], facts: Facts) -> None:
        g: Any = state.game
        self.g = g
        self.d = d
        self.f = facts
        self.n: int = g.num_players

    def label(self, p: int) -> str:
        """How the picture names seat ``p``."""
        return f"seat {p}"

    def draw(self) -> Canvas:
        """The picture, on a new canvas."""
        raise NotImplementedError
