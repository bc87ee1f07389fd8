"""Every registered game of the package has every touch point ``docs/adding_a_game.md``
lists: a test here fails, naming the game and the file, when one is missing. The list is
what each of the four games has; the guide lists these and only these (its numbered
steps), and :func:`test_the_guide_lists_every_touch_point` holds the two together.

The checks read the checkout (the tests run from one: ``tests/test_lint.py``) and the
installed package. What is written from the registry needs no file of the game and is not a
touch point: the typing cases (``tests/test_typing.py`` appends every game's), the site's
navigation, reference page and per-game rows (``tools/mkdocs_games.py``, checked here by
:func:`test_the_site_shows_every_game`), a default gallery picture (``tools/make_gallery.py``)
and the benchmark size (``bench.sim_games``). A game registered from outside the package (the
test suite's toy game, ``tests/toygame.py``) has none of the package's files and is not
checked here."""

from __future__ import annotations

import importlib
import importlib.util
import json
import re
from pathlib import Path
from typing import Any, Callable, List

import pytest

import gamecases
import mousehole
from mousehole import _api, bench

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
#: the package's games: those registered by a module of the package
GAMES = [n for n in mousehole.game_names() if _api._REGISTRY[n].__module__.startswith("mousehole.")]
#: the sections every game's page has (``docs/games/<id>.md``)
PAGE_SECTIONS = (
    "## A position",
    "## Bots and play",
    "## Action encoding",
    "## Observation",
    "## State dictionary",
    "## Engine model",
    "## Readings",
)
#: the per-game test files (``tests/test_<id>_<concern>.py``): the rules (with the game's own
#: cases of its notation, observation and C interface) and every value of every reading
TEST_CONCERNS = ("rules", "readings")


#: the files the checks read, while :func:`test_the_guide_lists_every_touch_point` records them
_SEEN: List[Path] = []


def _read(path: Path) -> str:
    assert path.is_file(), f"missing: {path.relative_to(ROOT)}"
    _SEEN.append(path)
    return path.read_text(encoding="utf-8")


def _table_rows(text: str, header: str) -> List[str]:
    """The rows of the Markdown table whose header line starts with ``header``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append(line)
    return rows


def _cls(name: str) -> Any:
    return _api._REGISTRY[name]


def tool(name: str) -> Any:
    """The module ``tools/<name>.py``."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


# -- the touch points, in the order of docs/adding_a_game.md -----------------------------------
# Each takes a game id and fails naming what is missing.


def module(name: str) -> None:
    """1. The rules and the reference engine: ``src/mousehole/<id>.py``."""
    assert _cls(name).__module__ == f"mousehole.{name}", f"{name}: its Game class lives in {_cls(name).__module__}"
    _read(ROOT / "src" / "mousehole" / f"{name}.py")


def load_overload(name: str) -> None:
    """3. The typed ``load``: an overload in ``src/mousehole/_load.py``."""
    text = _read(ROOT / "src" / "mousehole" / "_load.py")
    cls = _cls(name).__name__
    assert re.search(rf'def load\(name: Literal\["{name}"\].*\) -> {cls}: \.\.\.', text), (
        f"{name}: no overload load(name: Literal['{name}'], ...) -> {cls} in src/mousehole/_load.py"
    )


def record_schema(name: str) -> None:
    """3. The record schema's ``game`` enum (``src/mousehole/record.schema.json``)."""
    schema = json.loads(_read(ROOT / "src" / "mousehole" / "record.schema.json"))
    assert name in schema["properties"]["game"]["enum"], f"{name}: not in the game enum of record.schema.json"


def compiled_core(name: str) -> None:
    """4. The compiled core ``cengine/mousehole/_<id>.pyx`` (its struct in ``_<id>.pxd``),
    built where the compiled engine is, and its stub ``src/mousehole/_<id>.pyi``."""
    for path in (
        ROOT / "cengine" / "mousehole" / f"_{name}.pyx",
        ROOT / "cengine" / "mousehole" / f"_{name}.pxd",
        ROOT / "src" / "mousehole" / f"_{name}.pyi",
    ):
        _read(path)
    if "compiled" in mousehole.available_engines():
        assert _cls(name).compiled_state() is not None, f"{name}: compiled_state() is None in a compiled build"


def drawing(name: str) -> None:
    """5. The drawing ``src/mousehole/render/<id>.py`` (class ``Drawing``), named by ``DRAWING``."""
    from mousehole.render._canvas import BaseDrawing

    assert _cls(name).DRAWING == f"mousehole.render.{name}", f"{name}: DRAWING is {_cls(name).DRAWING!r}"
    _read(ROOT / "src" / "mousehole" / "render" / f"{name}.py")
    found = getattr(importlib.import_module(_cls(name).DRAWING), "Drawing", None)
    assert isinstance(found, type) and issubclass(found, BaseDrawing), f"{name}: no Drawing class"


def profile(name: str) -> None:
    """6. The test profile in ``tests/gamecases.py``."""
    assert name in gamecases.PROFILES, f"{name}: no Profile in tests/gamecases.py (PROFILES)"
    assert f'"{name}": Profile(' in _read(ROOT / "tests" / "gamecases.py")


def own_tests(name: str) -> None:
    """6. The game's own test files, ``tests/test_<id>_<concern>.py``."""
    for concern in TEST_CONCERNS:
        _read(ROOT / "tests" / f"test_{name}_{concern}.py")


def docs_page(name: str) -> None:
    """7. ``docs/games/<id>.md`` with its sections (the action encoding, the observation, the
    state dictionary, the readings, ...), its Bots and play section with the two items the
    tables of ``docs/bots.md`` and ``docs/api.md`` read (GreedyBot's value of a seat, when a
    result is settled); the site's navigation lists it from the registry."""
    text = _read(DOCS / "games" / f"{name}.md")
    headings = set(re.findall(r"^## .*$", text, flags=re.M))
    missing = [s for s in PAGE_SECTIONS if s not in headings]
    assert not missing, f"{name}: docs/games/{name}.md lacks {missing}"
    hook = tool("mkdocs_games")
    for label in (hook.GREEDY_VALUE, hook.SETTLED):
        assert len(hook.page_item(_cls(name), label)) > 20, f"{name}: docs/games/{name}.md, {label}: too short"


def user_docs(name: str) -> None:
    """7. ``README.md``'s table of games, the one table with a row per game written by hand
    (the site's are written from the registry)."""
    rows = _table_rows(_read(ROOT / "README.md"), "| game id |")
    assert any(r.startswith(f"| `{name}` |") for r in rows), f"{name}: no row | `{name}` |... in README.md"


def readings_table(name: str) -> None:
    """7. The game's readings (``READINGS``): ``docs/readings.md`` holds their measured effects
    (``benchmarks/readings.py`` writes the rows; the link to its page's readings is written from
    the registry)."""
    assert _cls(name).READINGS, f"{name}: declares no reading"
    rows = _table_rows(_read(DOCS / "readings.md"), "| game | players |")
    assert any(r.startswith(f"| {name} | ") for r in rows), f"{name}: no row in the readings table of docs/readings.md"


def gallery(name: str) -> None:
    """8. The gallery picture ``docs/figures/gallery/<id>.svg``, written by
    ``tools/make_gallery.py`` (its entry in ``FIGURES``, or else the default picture) and kept
    up to date by ``tests/test_render.py``; the site shows it from the registry."""
    figures = tool("make_gallery").figures()
    assert figures.get(f"{name}.svg", ("",))[0] == name, f"{name}: tools/make_gallery.py draws no {name}.svg"
    assert "<svg" in _read(DOCS / "figures" / "gallery" / f"{name}.svg"), f"{name}: {name}.svg is no SVG"


TOUCH_POINTS: List[Callable[[str], None]] = [
    module,
    load_overload,
    record_schema,
    compiled_core,
    drawing,
    profile,
    own_tests,
    docs_page,
    user_docs,
    readings_table,
    gallery,
]


@pytest.mark.parametrize("point", TOUCH_POINTS, ids=[p.__name__ for p in TOUCH_POINTS])
@pytest.mark.parametrize("name", GAMES)
def test_every_game_has_every_touch_point(name: str, point: Callable[[str], None]) -> None:
    point(name)


def test_the_tables_name_no_other_game() -> None:
    """The per-game tables list registered games only (a removed or renamed game leaves no
    stale entry)."""
    names = set(GAMES)
    assert set(gamecases.PROFILES) <= names, sorted(set(gamecases.PROFILES) - names)
    assert set(bench.SIM_GAMES) <= names and set(bench.C_LOOPS) <= names
    schema = json.loads(_read(ROOT / "src" / "mousehole" / "record.schema.json"))
    assert sorted(schema["properties"]["game"]["enum"]) == sorted(names)


@pytest.mark.parametrize("name", GAMES)
def test_the_site_shows_every_game(name: str) -> None:
    """What the site's hook (``tools/mkdocs_games.py``) writes from the registry covers the
    game: its page in the navigation, its reference page, its rows in the pages that mark a
    block for them (each marker present), its picture on the home page and in the gallery;
    and the benchmark plays it (``bench.sim_games``)."""
    hook, cls = tool("mkdocs_games"), _cls(name)
    assert cls in hook.games()
    nav = repr(hook.navigation([{"Games": []}, {"Reference": [{"Games": []}]}]))
    assert f"'games/{name}.md'" in nav and f"'reference/{name}.md'" in nav, nav
    assert f"::: mousehole.{name}\n" in hook.reference_page(cls)
    assert cls.ENV_ID, f"{name}: no ENV_ID (its Gymnasium id)"
    pages = {
        "reference/index.md": f"[`mousehole.{name}`]({name}.md)",
        "environments.md": f"| `{cls.ENV_ID}` | `{name}` |",
        "typing.md": f'| `"{name}"` | `mousehole.{name}` | `{cls.__name__}` |',
        "readings.md": f"](games/{name}.md#readings)",
        "index.md": f"(figures/gallery/{name}.svg)",
        "gallery.md": f"(figures/gallery/{name}.svg)",
        "bots.md": f"| {cls.title} | {hook.page_item(cls, hook.GREEDY_VALUE)} |",
        "api.md": f"| {cls.title} | {hook.page_item(cls, hook.SETTLED)} |",
    }
    for page, want in pages.items():
        text = _read(DOCS / page)
        assert hook.MARKER.search(text), f"docs/{page}: no <!-- registry: ... --> marker"
        assert want in hook.expand(text), f"{name}: docs/{page} (after the hook) lacks {want}"
    assert bench.sim_games(name) > 0


def test_a_game_without_entries_is_benchmarked_and_drawn(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without an entry in ``SIM_GAMES`` a game plays ``SIM_GAMES_DEFAULT`` games a round;
    without one in ``FIGURES`` its picture is a seeded random game at its largest player
    count, stopped at half the length of the same game played to its end."""
    monkeypatch.setattr(bench, "SIM_GAMES", {})
    assert all(bench.sim_games(name) == bench.SIM_GAMES_DEFAULT for name in GAMES)
    gallery_tool = tool("make_gallery")
    monkeypatch.setattr(gallery_tool, "FIGURES", {})
    figures = gallery_tool.figures()
    assert sorted(figures) == sorted(f"{name}.svg" for name in GAMES)
    name = "cheese_rescue" if "cheese_rescue" in GAMES else GAMES[0]
    game_id, params, seed, stop, view = figures[f"{name}.svg"]
    game = mousehole.load(name, **params)
    assert game_id == name and params == {"players": game.max_players} and view is None
    end = gallery_tool.play(game, seed, lambda s, k: False)
    half = gallery_tool.play(game, seed, stop)
    assert end.is_terminal() and len(half.history) == len(end.history) // 2 > 0


def test_the_site_hook_refuses_an_unknown_block() -> None:
    with pytest.raises(ValueError, match="unknown registry block"):
        tool("mkdocs_games").expand("<!-- registry: no-such-block -->\n")


def test_the_guide_lists_every_touch_point() -> None:
    """``docs/adding_a_game.md``'s table is exactly the files the touch points read for a game
    of the package (recorded while they run, the game's id written ``example``), each under
    the check that reads it, and the guide states their number."""
    guide = _read(DOCS / "adding_a_game.md")
    table = _table_rows(guide, "| # | file |")
    listed = [(row.split("|")[2].strip().strip("`"), row.split("|")[3].strip().strip("`")) for row in table]
    assert [row.split("|")[1].strip() for row in table] == [str(i) for i in range(1, len(table) + 1)]
    name = GAMES[0]
    read = []
    for point in TOUCH_POINTS:
        _SEEN.clear()
        point(name)
        for path in dict.fromkeys(_SEEN):
            read.append((re.sub(rf"(?<![a-z]){name}(?![a-z])", "example", str(path.relative_to(ROOT))), point.__name__))
    assert sorted(listed) == sorted(read), (sorted(set(listed) - set(read)), sorted(set(read) - set(listed)))
    assert f"**{len(table)} files**" in guide, f"the guide does not say **{len(table)} files**"
