"""Pictures of positions (``mousehole.render.svg``): valid SVG 1.1, deterministic, the same
on both engines, not blank once rendered (cairosvg), different for different positions, and
a seat's view shows nothing that seat may not see. Every registered game is covered (what a
generic test needs to know about a game comes from its test profile in ``gamecases``); the
tests named for a game check marks only that game's picture has. ``render`` finds a game's
drawing through the module its class declares (``Game.DRAWING``)."""

from __future__ import annotations

import io
import re
import sys
import types
import xml.etree.ElementTree as ET
from typing import Any, Dict, List, Tuple

import numpy as np
import pytest

import mousehole
from gamecases import profile, random_states
from mousehole import render
from mousehole.render import svg

NS = "{http://www.w3.org/2000/svg}"
#: the SVG 1.1 elements the pictures use (anything else is a mistake)
SVG11 = {"svg", "title", "g", "rect", "circle", "ellipse", "line", "polygon", "path", "text"}
GAMES = mousehole.game_names()
BACK = 'fill="#3b4a6b"'  #: the fill of a card back (a card drawn face down)


def at(game: Any, seed: int, steps: int) -> Any:
    """The state after ``steps`` random actions of game ``seed`` (or its end)."""
    for i, s in enumerate(random_states(game, seed)):
        if i == steps:
            return s
    return s


def middle(game: Any, seed: int) -> int:
    """Half the number of actions of the seeded random game ``seed``: a position in play."""
    length = sum(1 for _ in random_states(game, seed)) - 1
    assert length >= 2, (game.name, seed, length)
    return length // 2


def states(name: str, engine: str, **params: Any) -> List[Any]:
    """Start, middle and end of one seeded game (independent copies)."""
    game = mousehole.load(name, engine=engine, **params)
    mid = middle(game, 3)
    out = []
    for i, s in enumerate(random_states(game, 3)):
        if i in (0, mid) or s.is_terminal():
            out.append(s.clone())
    assert len(out) == 3 and not out[1].is_terminal()
    return out


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == NS + "svg"
    assert root.get("version") == "1.1"
    return root


def view_box(root: ET.Element) -> Tuple[float, ...]:
    box = tuple(float(v) for v in (root.get("viewBox") or "").split())
    assert len(box) == 4 and box[:2] == (0.0, 0.0) and box[2] > 0 and box[3] > 0
    return box


def inside(root: ET.Element) -> None:
    """Every shape lies inside the picture, and every text starts inside it."""
    w, h = view_box(root)[2:]
    for el in root.iter():
        tag = el.tag[len(NS) :]
        if tag == "rect":
            x, y = float(el.get("x") or 0), float(el.get("y") or 0)
            assert -0.5 <= x and x + float(el.get("width") or 0) <= w + 0.5, ET.tostring(el)
            assert -0.5 <= y and y + float(el.get("height") or 0) <= h + 0.5, ET.tostring(el)
        elif tag in ("circle", "text"):
            x, y = float(el.get("cx") or el.get("x") or 0), float(el.get("cy") or el.get("y") or 0)
            assert 0 <= x <= w and 0 <= y <= h, ET.tostring(el)


def pixels(text: str, size: int = 320) -> Any:
    import cairosvg  # type: ignore[import-untyped]
    from PIL import Image

    png = cairosvg.svg2png(bytestring=text.encode("ascii"), output_width=size)
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.int16)


@pytest.mark.parametrize("name", GAMES)
def test_valid_svg_every_seat(name: str, engine: str) -> None:
    for s in states(name, engine):
        for p in [None, *range(s.game.num_players)]:
            text = svg(s, for_player=p)
            assert text.isascii()
            root = parse(text)
            w, h = view_box(root)[2:]
            assert (float(root.get("width") or 0), float(root.get("height") or 0)) == (w, h)
            tags = {el.tag[len(NS) :] if el.tag.startswith(NS) else el.tag for el in root.iter()}
            assert tags <= SVG11, tags - SVG11
            inside(root)
            title = root.find(NS + "title")
            assert title is not None and s.game.title in (title.text or "")
            assert "".join(root.itertext()).strip()  # it has text: labels and values


@pytest.mark.parametrize("name", GAMES)
def test_deterministic_and_from_the_dict_only(name: str, engine: str) -> None:
    s = states(name, engine)[1]
    one = svg(s)
    assert svg(s) == one
    assert svg(s.clone()) == one
    assert svg(s.game.state_from_dict(s.to_dict())) == one
    assert s._repr_svg_() == one  # what Jupyter shows


@pytest.mark.differential
@pytest.mark.parametrize("name", GAMES)
def test_both_engines_draw_the_same(name: str) -> None:
    for a, b in zip(states(name, "compiled"), states(name, "python")):
        assert a.to_dict() == b.to_dict()
        for p in [None, *range(a.game.num_players)]:
            assert svg(a, for_player=p) == svg(b, for_player=p)


@pytest.mark.parametrize("name", GAMES)
def test_size_scales_the_picture(name: str, engine: str) -> None:
    s = states(name, engine)[0]
    big = parse(svg(s))
    small = parse(svg(s, size=200))
    w, h = view_box(big)[2:]
    assert view_box(small) == view_box(big)
    assert float(small.get("width") or 0) == 200
    assert float(small.get("height") or 0) == pytest.approx(200 * h / w, abs=0.01)
    assert parse(svg(s, size=np.float64(640.5))).get("width") == "640.5"


@pytest.mark.png
@pytest.mark.parametrize("name", GAMES)
def test_png_is_not_blank_and_positions_differ(name: str) -> None:
    game = mousehole.load(name)
    a = at(game, 9, middle(game, 9))
    b = a.clone()
    b.apply_action(int(b.legal_actions()[0]))
    start = game.new_state(9)
    pa, pb, ps = pixels(svg(a)), pixels(svg(b)), pixels(svg(start))
    for px in (pa, pb, ps):
        assert px.std() > 20  # not blank: dark text, coloured cards, light background
        common = np.unique(px.reshape(-1, 3), axis=0, return_counts=True)[1].max()
        assert common < 0.9 * px.shape[0] * px.shape[1]
    assert pa.shape == pb.shape == ps.shape  # every picture of a game has one size
    assert np.abs(pa - pb).sum() > 0  # one action later, the picture changed
    assert np.abs(pa - ps).sum() > 0


def without_view_label(text: str) -> str:
    """A picture without its title and the header's "seat p's view" label."""
    text = re.sub(r"<title>.*?</title>", "", text)
    return re.sub(r'<rect [^>]*fill="#ffd33d"[^>]*/><text [^>]*>[^<]*view[^<]*</text>', "", text)


@pytest.mark.parametrize("name", GAMES)
def test_a_view_shows_only_what_the_seat_sees(name: str, engine: str) -> None:
    """M-22, CR-15, MC-26: the picture of seat p's view is the same for every state with
    that view (the state and its determinizations for p), and draws hidden cards face down.
    KK-14: in a game of perfect information the view draws exactly the whole picture (only
    the label differs)."""
    perfect = profile(name).perfect_information
    changed = 0
    for s in states(name, engine):
        full = svg(s)
        for p in range(s.game.num_players):
            mine = svg(s, for_player=p)
            assert without_view_label(mine) != mine  # the header says whose view it is
            assert mine.count(BACK) >= full.count(BACK)
            if perfect:
                assert without_view_label(mine) == without_view_label(full)
            for seed in (1, 2):
                other = s.determinize(p, seed)
                assert svg(other, for_player=p) == mine
                if svg(other) != full:  # the worlds differ in something the whole picture shows
                    changed += 1
                    assert mine.count(BACK) > full.count(BACK)  # ... which the view hides
    if perfect:
        assert changed == 0
    else:
        assert changed  # the check above did compare worlds that differ in hidden cards


def test_maus_au_chocolat_hidden_bid(engine: str) -> None:
    """MC-7, MC-26, MC-27: a committed bid is face down for the others until the reveal."""
    game = mousehole.load("maus_au_chocolat", engine=engine)
    s = game.new_state(4)
    bids = [a for a in s.legal_actions() if a < 80]
    one, two = s.clone(), s.clone()
    one.apply_action(int(bids[0]))
    two.apply_action(int(bids[1]))
    assert svg(one) != svg(two)
    assert svg(one, for_player=1) == svg(two, for_player=1)
    assert svg(one, for_player=0) != svg(two, for_player=0)  # seat 0 sees its own bid
    # the card left seat 0's hidden hand and lies face down as its bid: as many backs as before
    assert svg(one, for_player=1).count(BACK) == svg(s, for_player=1).count(BACK)
    # ... while the whole picture and seat 0's view draw the bid face up (no new back)
    assert svg(one).count(BACK) == svg(s).count(BACK)
    assert svg(one, for_player=0).count(BACK) == svg(s, for_player=0).count(BACK)


def test_m_scoring_row_and_last_card(engine: str) -> None:
    """M-12: the cards of the scoring row are ringed in gold; the last card laid in black."""
    game = mousehole.load("m", engine=engine)
    found = None
    for s in random_states(game, 21):
        if s.to_dict()["phase"] == "take":
            found = s.clone()
            break
    assert found is not None
    d = found.to_dict()
    text = svg(found)
    gold = text.count('fill="#ffb000"') - 1  # minus the legend's swatch
    assert gold == len(d["scoring_row"]) > 0
    on_table = {(r, c) for r, c, _ in d["table"]}
    last = 1 if d["last"] is not None and tuple(d["last"]) in on_table else 0
    assert text.count('stroke="#1f2328" stroke-width="2.5"') == last + 1  # + the legend's


def cr12_removed(game: Any, table: List[int]) -> int:
    """CR-12 written again: cats next to dogs, then mice next to cats left, then cheese next
    to mice left."""
    G = game.grid_size
    t = list(table)
    gone = 0

    def near(i: int, code: int) -> bool:
        r, c = divmod(i, G)
        return any(
            0 <= r + dr < G and 0 <= c + dc < G and t[(r + dr) * G + c + dc] == code
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
        )

    for victim, hunter in ((3, 2), (4, 3), (5, 4)):
        doomed = [i for i, x in enumerate(t) if (x >= 5 if victim == 5 else x == victim) and near(i, hunter)]
        for i in doomed:
            t[i] = 0
        gone += len(doomed)
    return gone


def test_cheese_rescue_end_crosses_out_removed_cards(engine: str) -> None:
    """CR-12: at the end every removed card is crossed out (two red strokes); never before."""
    game = mousehole.load("cheese_rescue", engine=engine)
    for seed in (1, 2, 3):
        end = at(game, seed, 10**6)
        assert end.is_terminal()
        n = cr12_removed(game, end.to_dict()["table"])
        assert n > 0
        assert svg(end).count('stroke="#cf222e"') == 2 * n + 2  # + the legend's cross
        mid = at(game, seed, middle(game, seed))
        assert not mid.is_terminal()
        assert 'stroke="#cf222e"' not in svg(mid)


def test_kasimir_caught_mice_framed(engine: str) -> None:
    """KK-9: the caught mouse of each full trap is framed in black; free mice are not."""
    game = mousehole.load("kasimir", engine=engine)
    caught = 0
    for i, s in enumerate(random_states(game, 5)):
        if i % 10:
            continue
        d = s.to_dict()
        full = sum(1 for i, t in enumerate(d["track"]) if t and game.is_trap[i + 1])
        assert svg(s).count('stroke="#111111"') == full
        caught += full
    assert caught > 0  # some trap did catch a mouse


def result_line(text: str) -> str:
    """The footer's line at the end of a game (the one text that starts with "Game over")."""
    lines = [el.text or "" for el in parse(text).iter(NS + "text") if (el.text or "").startswith("Game over")]
    assert len(lines) == 1, lines
    return lines[0]


@pytest.mark.parametrize("name", GAMES)
def test_result_is_shown(name: str, engine: str) -> None:
    """At the end the picture names the winners (M-21, CR-13, KK-13, MC-25): the footer's
    line names them and no other seat, and the winners are marked, with a badge on each
    winner's panel or, in a picture without seat panels, in one panel of winners."""
    game = mousehole.load(name, engine=engine)
    for seed in (2, 4):
        end = at(game, seed, 10**6)
        assert end.is_terminal()
        winners = [int(p) for p in end.winners()]
        n = game.num_players
        for p in (None, *range(n)):
            text = svg(end, for_player=p)
            line = result_line(text)
            if len(winners) == n and n > 1:
                assert "all seats share the win" in line
            else:
                assert ("wins" in line) == (len(winners) == 1) and ("share" in line) == (len(winners) > 1)
                for q in range(n):
                    assert (re.search(rf"\bseat {q}\b", line) is not None) == (q in winners), (line, q)
            badges = text.count(">winner<")
            if badges != len(winners):  # one panel of winners: "winner", or "winners" for several
                assert (badges, ">winners<" in text) == ((1, False) if len(winners) == 1 else (0, True)), text
        mid = at(game, seed, middle(game, seed))
        assert "Game over" not in svg(mid)


@pytest.mark.parametrize("size", [0, -3, float("nan"), float("inf")])
def test_bad_size(size: Any) -> None:
    s = mousehole.load("kasimir").new_state(1)
    with pytest.raises(ValueError, match="size"):
        svg(s, size=size)


@pytest.mark.parametrize("size", ["300", True, [300]])
def test_size_of_a_wrong_type(size: Any) -> None:
    s = mousehole.load("kasimir").new_state(1)
    with pytest.raises(TypeError, match="size"):
        svg(s, size=size)


def test_bad_seat_and_bad_state() -> None:
    s = mousehole.load("m", players=3).new_state(1)
    before = s.to_dict()
    with pytest.raises(ValueError, match="for_player 3 is out of range"):
        svg(s, for_player=3)
    with pytest.raises(ValueError, match="for_player"):
        svg(s, for_player=-1)
    with pytest.raises(TypeError, match="for_player"):
        svg(s, for_player="0")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="mousehole state"):
        svg(before)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        svg(s, None)  # type: ignore[call-arg]  # the options are keyword-only
    assert s.to_dict() == before  # nothing changed


def test_every_configuration_draws() -> None:
    """Every player count and a few custom parameters draw a valid picture of one size."""
    extra: List[Tuple[str, Dict[str, Any]]] = [
        ("kasimir", {"players": 3, "track_length": 23, "traps": [4, 8, 20], "die": [1, 2, 7, "clover"], "clover": 3}),
        ("kasimir", {"players": 2, "explicit_chance": True}),
        ("kasimir", {"players": 2, "track_length": 8, "traps": [3]}),
        ("m", {"players": 2, "hand_size": 8}),
        ("cheese_rescue", {"players": 4, "cheese_values": [1, 2, 3, 4, 5, 5]}),
        ("kasimir", {"players": 4, "track_length": 60, "mice": 8, "traps": list(range(2, 60, 2))}),
        ("maus_au_chocolat", {"players": 6, "hand_size": 8}),
    ]
    cases = [
        (n, {"players": k})
        for n in GAMES
        for k in range(mousehole.load(n).min_players, mousehole.load(n).max_players + 1)
    ]
    cases += [(n, dict(params)) for n in GAMES for params in profile(n).extra_configs]
    for name, params in cases + extra:
        game = mousehole.load(name, **params)
        boxes = set()
        for i, s in enumerate(random_states(game, 8)):
            if i % 25 == 0 or s.is_terminal():
                for p in (None, game.num_players - 1):
                    root = parse(svg(s, for_player=p))
                    inside(root)
                    boxes.add(view_box(root))
        assert len(boxes) == 1, (name, params, boxes)


def test_kasimir_marks_the_mice_that_may_move(engine: str) -> None:
    """KK-6, KK-10: the mice outlined in gold are exactly the starts of the legal moves (the
    pantry stack counts once); none at a chance node or at the end."""
    for params in ({"players": 4}, {"players": 2, "explicit_chance": True}):
        game = mousehole.load("kasimir", engine=engine, **params)
        marked = 0
        for i, s in enumerate(random_states(game, 6)):
            if i % 9 and not s.is_terminal():
                continue
            text = svg(s)
            if s.is_terminal() or s.is_chance_node():
                assert 'stroke="#ffb000"' not in text
                continue
            starts = {m.start for m in s.legal_moves()}
            assert text.count('stroke="#ffb000"') == len(starts)
            marked += len(starts)
        assert marked > 0


def test_doctest() -> None:
    import doctest

    import mousehole.render

    result = doctest.testmod(mousehole.render)
    assert result.attempted > 0 and result.failed == 0


def test_gallery_is_up_to_date() -> None:
    """docs/figures/gallery holds what tools/make_gallery.py writes now."""
    import importlib.util
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    spec = importlib.util.spec_from_file_location("make_gallery", root / "tools" / "make_gallery.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    for name, text in tool.pictures().items():
        path = root / "docs" / "figures" / "gallery" / name
        assert path.read_bytes() == text.encode("ascii"), f"{name} is out of date: run python tools/make_gallery.py"
        parse(text)


# ---- the drawing each game declares, and the text diagram ---------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_each_game_declares_its_drawing(name: str) -> None:
    """``Game.DRAWING`` names an importable module with one class ``Drawing`` built on the
    shared canvas: what :func:`svg` draws the game with."""
    import importlib

    from mousehole.render._canvas import BaseDrawing

    cls = type(mousehole.load(name))
    module = importlib.import_module(cls.DRAWING)
    assert issubclass(module.Drawing, BaseDrawing)
    assert render._drawing(mousehole.load(name)) is module.Drawing


def test_svg_draws_with_the_declared_module(monkeypatch: pytest.MonkeyPatch) -> None:
    """The drawing is found through ``Game.DRAWING`` alone (not the game id): point it
    elsewhere and that module draws."""
    from mousehole.render._canvas import BaseDrawing, Canvas

    class Drawing(BaseDrawing):
        def draw(self) -> Canvas:
            cv = Canvas(100, 50)
            cv.text(10, 20, f"stand-in for {self.g.name}, {self.n} seats, to move {self.f.current}")
            return cv

    fake = types.ModuleType("mousehole_test_stand_in_drawing")
    fake.Drawing = Drawing  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, fake.__name__, fake)
    s = mousehole.load("kasimir", players=3).new_state(1)
    real = svg(s)
    monkeypatch.setattr(type(s.game), "DRAWING", fake.__name__)
    text = svg(s)
    assert text != real and ">stand-in for kasimir, 3 seats, to move 0<" in text
    assert 'viewBox="0 0 100 50"' in text


@pytest.mark.parametrize(
    "declared,message",
    [("", "declares no DRAWING"), (None, "declares no DRAWING"), ("mousehole.render._canvas", "has no class Drawing")],
)
def test_a_game_without_a_drawing(monkeypatch: pytest.MonkeyPatch, declared: Any, message: str) -> None:
    """A game class that declares no drawing module, or one without ``Drawing``: a
    ``ValueError`` naming the game, and the state is unchanged."""
    s = mousehole.load("m", players=2).new_state(1)
    before = s.to_dict()
    monkeypatch.setattr(type(s.game), "DRAWING", declared)
    with pytest.raises(ValueError, match=f"no picture for the game 'm'.*{message}"):
        svg(s)
    assert s.to_dict() == before


@pytest.mark.parametrize("name", GAMES)
def test_text_is_the_diagram_of_the_view(name: str, engine: str) -> None:
    """``render.text``: ``str(state)`` for the whole position; for seat p the diagram of p's
    view alone (the same for p's determinizations). In a game of perfect information (KK-14)
    the view's diagram is always the whole one; in the others it differs from it (checked
    somewhere in the game)."""
    perfect = profile(name).perfect_information
    differ = 0
    for s in states(name, engine):
        assert render.text(s) == str(s) == s.game._render(s.to_dict())
        for p in range(s.game.num_players):
            mine = render.text(s, for_player=p)
            assert mine == s.game._render(s.to_dict(for_player=p))
            assert render.text(s.determinize(p, 7), for_player=p) == mine
            if perfect:
                assert mine == str(s)
            differ += mine != str(s)
    assert perfect or differ


def test_text_bad_seat_and_bad_state() -> None:
    s = mousehole.load("cheese_rescue", players=2).new_state(1)
    with pytest.raises(ValueError, match="for_player 2 is out of range"):
        render.text(s, for_player=2)
    with pytest.raises(TypeError, match="for_player"):
        render.text(s, for_player=True)
    with pytest.raises(TypeError, match="mousehole state"):
        render.text(s.to_dict())  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        render.text(s, 0)  # type: ignore[call-arg]  # the option is keyword-only


def test_cheese_rescue_picture_marks_only_the_fixed_square(engine: str) -> None:
    """With ``play_area="centred_on_start"`` (CR-6, CR-8) the picture marks as open only the
    cells of the fixed square: fewer than the floating square leaves open at the start, and
    exactly the 5 x 5 square less the start card with 2 players."""

    def open_cells(**params: Any) -> int:
        g = mousehole.load("cheese_rescue", players=2, engine=engine, **params)
        return render.svg(g.new_state(seed=1)).count('fill="#fbf9f4"')

    assert open_cells(play_area="centred_on_start") == 5 * 5 - 1
    assert open_cells() > 5 * 5 - 1
