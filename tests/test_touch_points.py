"""Every registered game of the package has every touch point ``docs/adding_a_game.md``
lists: a test here fails, naming the game and the file, when one is missing. The list is
what each of the four games has; the guide lists these and only these (its numbered
steps), and :func:`test_the_guide_lists_every_touch_point` holds the two together.

The checks read the checkout (the tests run from one: ``tests/test_lint.py``) and the
installed package. A game registered from outside the package (the test suite's toy game,
``tests/toygame.py``) has none of the package's files and is not checked here."""
from __future__ import annotations

import importlib
import json
import re
from pathlib import Path
from typing import Any, Callable, Dict, List

import pytest

import gamecases
import mousehole
from mousehole import _api, bench

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
#: the package's games: those registered by a module of the package
GAMES = [n for n in mousehole.game_names() if _api._REGISTRY[n].__module__.startswith("mousehole.")]
#: the sections every game's page has (``docs/games/<id>.md``)
PAGE_SECTIONS = ("## A position", "## Action encoding", "## Observation", "## State dictionary", "## Engine model",
                 "## Readings")
#: the per-game test files (``tests/test_<id>_<concern>.py``)
TEST_CONCERNS = ("rules", "notation", "observation", "cinterface", "readings")


def _read(path: Path) -> str:
    assert path.is_file(), f"missing: {path.relative_to(ROOT)}"
    return path.read_text(encoding="utf-8")


def _table_rows(text: str, header: str) -> List[str]:
    """The rows of the Markdown table whose header line starts with ``header``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append(line)
    return rows


def _cls(name: str) -> Any:
    return _api._REGISTRY[name]


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
    assert re.search(rf'def load\(name: Literal\["{name}"\].*\) -> {cls}: \.\.\.', text), \
        f"{name}: no overload load(name: Literal['{name}'], ...) -> {cls} in src/mousehole/_load.py"


def record_schema(name: str) -> None:
    """3. The record schema's ``game`` enum (``src/mousehole/record.schema.json``)."""
    schema = json.loads(_read(ROOT / "src" / "mousehole" / "record.schema.json"))
    assert name in schema["properties"]["game"]["enum"], f"{name}: not in the game enum of record.schema.json"


def compiled_core(name: str) -> None:
    """4. The compiled core ``cengine/mousehole/_<id>.pyx`` (its struct in ``_<id>.pxd``),
    built where the compiled engine is, and its stub ``src/mousehole/_<id>.pyi``."""
    for path in (ROOT / "cengine" / "mousehole" / f"_{name}.pyx", ROOT / "cengine" / "mousehole" / f"_{name}.pxd",
                 ROOT / "src" / "mousehole" / f"_{name}.pyi"):
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


def own_tests(name: str) -> None:
    """6. The game's own test files, ``tests/test_<id>_<concern>.py``."""
    for concern in TEST_CONCERNS:
        _read(ROOT / "tests" / f"test_{name}_{concern}.py")


def docs_page(name: str) -> None:
    """7. ``docs/games/<id>.md`` with its sections (the action encoding, the observation, the
    state dictionary, the readings, ...) and its line in the Games section of ``mkdocs.yml``."""
    text = _read(DOCS / "games" / f"{name}.md")
    headings = set(re.findall(r"^## .*$", text, flags=re.M))
    missing = [s for s in PAGE_SECTIONS if s not in headings]
    assert not missing, f"{name}: docs/games/{name}.md lacks {missing}"
    nav = _read(ROOT / "mkdocs.yml").split("\nnav:", 1)[1]
    assert f": games/{name}.md" in nav, f"{name}: docs/games/{name}.md is not in the nav of mkdocs.yml"


def reference_page(name: str) -> None:
    """7. ``docs/reference/<id>.md`` (a ``::: mousehole.<id>`` block; its nav line and its row
    in ``docs/reference/index.md`` are held by ``tests/test_docs_reference.py``)."""
    text = _read(DOCS / "reference" / f"{name}.md")
    assert f"::: mousehole.{name}\n" in text, f"{name}: docs/reference/{name}.md has no ::: mousehole.{name} block"


def user_docs(name: str) -> None:
    """7. The tables of the user docs that have a row per game: ``README.md``'s games,
    ``docs/bots.md``'s GreedyBot values, ``docs/environments.md``'s ids, ``docs/typing.md``'s
    types, ``docs/api.md``'s settled results."""
    cls = _cls(name)
    rows: Dict[str, Callable[[], List[str]]] = {
        "README.md": lambda: _table_rows(_read(ROOT / "README.md"), "| game id |"),
        "docs/bots.md": lambda: _table_rows(_read(DOCS / "bots.md"), "| game | a seat's value |"),
        "docs/environments.md": lambda: _table_rows(_read(DOCS / "environments.md"), "| id | game |"),
        "docs/typing.md": lambda: _table_rows(_read(DOCS / "typing.md"), "| game id |"),
        "docs/api.md": lambda: _table_rows(_read(DOCS / "api.md"), "| game | your result is settled when |"),
    }
    want = {"README.md": f"| `{name}` |", "docs/bots.md": f"| {cls.title} |",
            "docs/environments.md": f"| `{cls.ENV_ID}` | `{name}` |", "docs/typing.md": f'| `"{name}"` |',
            "docs/api.md": f"| {cls.title} |"}
    for where, read in rows.items():
        assert any(r.startswith(want[where]) for r in read()), f"{name}: no row {want[where]}... in {where}"
    assert cls.ENV_ID, f"{name}: no ENV_ID (its Gymnasium id)"


def typing_case(name: str) -> None:
    """3. The typing cases both type checkers run (``tests/test_typing.py``): a typed use in
    ``tests/typing_cases/ok_typed_api.py``, a ``reveal_type`` of the State type ``load``
    gives in ``tests/typing_cases/bad_typed_api.py``."""
    text = _read(ROOT / "tests" / "typing_cases" / "ok_typed_api.py")
    assert f"from mousehole.{name} import " in text, f"{name}: no case in tests/typing_cases/ok_typed_api.py"
    bad = _read(ROOT / "tests" / "typing_cases" / "bad_typed_api.py")
    assert f'mousehole.load("{name}")' in bad and f"# reveal: mousehole.{name}." in bad, \
        f"{name}: no reveal_type case in tests/typing_cases/bad_typed_api.py"


def readings_table(name: str) -> None:
    """7. The game's readings (``READINGS``): ``docs/readings.md`` links the section of its page
    that has them and holds their measured effects (``benchmarks/readings.py`` writes the rows)."""
    assert _cls(name).READINGS, f"{name}: declares no reading"
    assert f"](games/{name}.md#readings)" in _read(DOCS / "readings.md"), \
        f"{name}: docs/readings.md does not link its readings"
    rows = _table_rows(_read(DOCS / "readings.md"), "| game | players |")
    assert any(r.startswith(f"| {name} | ") for r in rows), f"{name}: no row in the readings table of docs/readings.md"


def gallery(name: str) -> None:
    """8. The gallery picture: an entry ``<id>.svg`` in ``tools/make_gallery.py`` (which writes
    ``docs/figures/gallery/<id>.svg``, kept up to date by ``tests/test_render.py``), its
    section in ``docs/gallery.md`` and its place on the home page (``docs/index.md``)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_gallery", ROOT / "tools" / "make_gallery.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    assert tool.FIGURES.get(f"{name}.svg", ("",))[0] == name, f"{name}: no {name}.svg in tools/make_gallery.py"
    assert (DOCS / "figures" / "gallery" / f"{name}.svg").is_file(), f"{name}: no docs/figures/gallery/{name}.svg"
    assert f"(figures/gallery/{name}.svg)" in _read(DOCS / "gallery.md"), f"{name}: not in docs/gallery.md"
    assert f"(figures/gallery/{name}.svg)" in _read(DOCS / "index.md"), f"{name}: not on docs/index.md"


def benchmark(name: str) -> None:
    """9. The benchmark entry: the game's simulation size in ``SIM_GAMES``
    (``src/mousehole/bench.py``)."""
    assert name in bench.SIM_GAMES, f"{name}: no entry in SIM_GAMES (src/mousehole/bench.py)"


TOUCH_POINTS: List[Callable[[str], None]] = [module, load_overload, typing_case, record_schema, compiled_core,
                                             drawing, profile, own_tests, docs_page, reference_page, user_docs,
                                             readings_table, gallery, benchmark]


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


def test_the_guide_lists_every_touch_point() -> None:
    """``docs/adding_a_game.md`` names every file a touch point checks, and every check is
    listed there: the guide's table of files is this test's list."""
    guide = _read(DOCS / "adding_a_game.md")
    table = _table_rows(guide, "| # | file |")
    checks = {row.split("|")[3].strip().strip("`") for row in table}
    assert checks == {p.__name__ for p in TOUCH_POINTS}, (sorted(checks), sorted(p.__name__ for p in TOUCH_POINTS))
    files = [row.split("|")[2].strip() for row in table]
    assert len(files) == len(set(files)) and all(f.startswith("`") for f in files)


