"""The generated API reference (docs/reference/, mkdocstrings) is one page a module: every
public module of the package has its page, with a ``:::`` block of that module, and the
navigation of mkdocs.yml lists every page and the overview's table links every page."""
from __future__ import annotations

import re
from pathlib import Path

import mousehole
from mousehole import _api

ROOT = Path(__file__).resolve().parents[1]
REF = ROOT / "docs" / "reference"
#: the package's game modules (every registered game of the package has its page)
GAME_MODULES = [m for m in (_api._REGISTRY[n].__module__ for n in mousehole.game_names()) if m.startswith("mousehole.")]
#: the modules a user imports (the command line is documented in docs/api.md)
MODULES = ["mousehole", *GAME_MODULES,
           "mousehole.bots", "mousehole.arena", "mousehole.vector", "mousehole.gymnasium", "mousehole.pettingzoo",
           "mousehole.rllib", "mousehole.openspiel", "mousehole.render", "mousehole.records", "mousehole.replay"]


def test_one_page_a_module() -> None:
    pages = {p.stem: p.read_text(encoding="utf-8") for p in REF.glob("*.md") if p.stem != "index"}
    documented = {}
    for stem, text in pages.items():
        blocks = re.findall(r"^::: ([\w.]+)$", text, flags=re.M)
        assert len(blocks) == 1, (stem, blocks)
        documented[blocks[0]] = stem
    assert sorted(documented) == sorted(MODULES)
    for module, stem in documented.items():
        assert stem == module.rsplit(".", 1)[-1]


def test_the_navigation_and_the_overview_list_every_page() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8").split("\nnav:", 1)[1]
    listed = re.findall(r"reference/(\w+)\.md", nav)
    on_disk = sorted(p.stem for p in REF.glob("*.md"))
    assert sorted(listed) == on_disk and len(set(listed)) == len(listed)
    overview = (REF / "index.md").read_text(encoding="utf-8")
    assert sorted(re.findall(r"\]\((\w+)\.md\)", overview)) == sorted(s for s in on_disk if s != "index")
