"""The generated API reference (docs/reference/, mkdocstrings) is one page a module: every
public module of the package has its page, with a ``:::`` block of that module, and the
navigation of mkdocs.yml lists every page and the overview's table links every page. A game's
page, its line in the navigation and its row of the overview are written from the registry at
build time (``tools/mkdocs_games.py``, a MkDocs hook): the checks read them from there."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Dict

import mousehole
from mousehole import _api
from test_touch_points import tool

ROOT = Path(__file__).resolve().parents[1]
REF = ROOT / "docs" / "reference"
#: the package's game modules (every registered game of the package has its page)
GAME_MODULES = [m for m in (_api._REGISTRY[n].__module__ for n in mousehole.game_names()) if m.startswith("mousehole.")]
#: the modules a user imports (the command line is documented in docs/api.md)
MODULES = [
    "mousehole",
    *GAME_MODULES,
    "mousehole.bots",
    "mousehole.arena",
    "mousehole.vector",
    "mousehole.gymnasium",
    "mousehole.pettingzoo",
    "mousehole.rllib",
    "mousehole.openspiel",
    "mousehole.render",
    "mousehole.records",
    "mousehole.replay",
]


def docs_hook() -> Any:
    """``tools/mkdocs_games.py``, the hook that writes the site's per-game parts."""
    return tool("mkdocs_games")


def _pages() -> Dict[str, str]:
    """The reference pages by stem: those on disk and those the hook writes (one a game)."""
    pages = {p.stem: p.read_text(encoding="utf-8") for p in REF.glob("*.md")}
    for cls in docs_hook().games():
        assert cls.name not in pages, f"docs/reference/{cls.name}.md: the hook writes that page"
        pages[cls.name] = docs_hook().reference_page(cls)
    return pages


def test_one_page_a_module() -> None:
    pages = {stem: text for stem, text in _pages().items() if stem != "index"}
    documented = {}
    for stem, text in pages.items():
        blocks = re.findall(r"^::: ([\w.]+)$", text, flags=re.M)
        assert len(blocks) == 1, (stem, blocks)
        documented[blocks[0]] = stem
    assert sorted(documented) == sorted(MODULES)
    for module, stem in documented.items():
        assert stem == module.rsplit(".", 1)[-1]


def test_the_navigation_and_the_overview_list_every_page() -> None:
    hook = docs_hook()
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8").split("\nnav:", 1)[1]
    listed = re.findall(r"reference/(\w+)\.md", nav) + re.findall(
        r"reference/(\w+)\.md", repr(hook.navigation([{"Games": []}, {"Reference": [{"Games": []}]}]))
    )
    on_disk = sorted(_pages())
    assert sorted(listed) == on_disk and len(set(listed)) == len(listed)
    overview = hook.expand((REF / "index.md").read_text(encoding="utf-8"))
    assert sorted(re.findall(r"\]\((\w+)\.md\)", overview)) == sorted(s for s in on_disk if s != "index")
