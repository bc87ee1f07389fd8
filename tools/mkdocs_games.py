"""The documentation site's per-game parts, written from the registry at build time (a MkDocs
hook, ``hooks:`` in mkdocs.yml), so that a new game needs no edit of the pages that have one
row, one link or one page per game:

* the navigation: every registered game's page (``docs/games/<id>.md``) in the Games
  section, and its reference page in the Reference section;
* the reference page of every game, ``reference/<id>.md`` (its module's Game, State and Move
  classes, as mkdocstrings draws them), written here, never stored;
* the tables and lists a page marks with ``<!-- registry: NAME -->`` on a line of its own:
  NAME is one of :data:`BLOCKS` (the rows of the reference overview, the Gymnasium ids, the
  types of ``docs/typing.md``, the links to the readings, the home page's pictures, a gallery
  section for a game that has none written by hand, and the tables of ``docs/bots.md`` and
  ``docs/api.md``, read from the section "Bots and play" of each game's page).

Only the games of the package are drawn (a game registered from outside it has no page).
``tests/test_touch_points.py`` checks the markers and what they expand to.
"""

from __future__ import annotations

import re
import typing
from pathlib import Path
from typing import Any, Callable, Dict, List

#: the marker a page puts where a block of rows goes
MARKER = re.compile(r"^<!-- registry: ([\w-]+) -->$", flags=re.M)
#: the documentation's folder (``docs_dir``; set from mkdocs.yml when MkDocs runs the hook)
DOCS = Path(__file__).resolve().parent.parent / "docs"
#: the section of a game's page that the tables of ``docs/bots.md`` and ``docs/api.md`` read
BOTS_AND_PLAY = "## Bots and play"
#: its items: the label of each (``- **label** (...): text``)
GREEDY_VALUE, SETTLED = "GreedyBot's value of a seat", "A result is settled when"
#: the Games section of the navigation, and the part of Reference the game pages go in
NAV_GAMES, NAV_REFERENCE, NAV_REFERENCE_GAMES = "Games", "Reference", "Games"


def games() -> List[Any]:
    """The Game classes of the package's registered games, by title."""
    import mousehole
    from mousehole import _api

    found = [_api._REGISTRY[n] for n in mousehole.game_names()]
    return sorted((c for c in found if c.__module__ == f"mousehole.{c.name}"), key=lambda c: c.title.lower())


def types(cls: Any) -> Dict[str, Any]:
    """A game's public types: its State and Move classes (from its ``Game[State, Move]`` base)
    and the Move class's subclasses, in the order the module defines them."""
    import sys

    from mousehole import Game

    base = next(b for b in getattr(cls, "__orig_bases__", ()) if typing.get_origin(b) is Game)
    state, move = typing.get_args(base)
    module = sys.modules[cls.__module__]
    state = getattr(module, state.__forward_arg__ if isinstance(state, typing.ForwardRef) else state.__name__)
    move = getattr(module, move.__forward_arg__ if isinstance(move, typing.ForwardRef) else move.__name__)
    kinds = [
        k
        for k in vars(module).values()
        if isinstance(k, type) and k is not move and issubclass(k, move) and k.__module__ == module.__name__
    ]
    return {"state": state, "move": move, "kinds": kinds}


def reference_page(cls: Any) -> str:
    """The reference page of a game: its module's Game, State and Move classes."""
    t = types(cls)
    members = ", ".join(f'"{n}"' for n in (cls.__name__, t["state"].__name__, t["move"].__name__))
    return (
        f"# {cls.title}: `{cls.__module__}`\n\n::: {cls.__module__}\n    options:\n"
        f"      members: [{members}]\n      inherited_members: true\n"
    )


def _players(cls: Any) -> str:
    return f"{cls.min_players}-{cls.max_players}" if cls.max_players > cls.min_players else f"{cls.min_players}"


def page_item(cls: Any, label: str) -> str:
    """The text of the item ``- **label** (...): text`` of the Bots and play section of the
    game's page (``docs/games/<id>.md``), on one line, without its final full stop."""
    text = (DOCS / "games" / f"{cls.name}.md").read_text(encoding="utf-8")
    if f"\n{BOTS_AND_PLAY}\n" not in text:
        raise ValueError(f"docs/games/{cls.name}.md has no section {BOTS_AND_PLAY!r}")
    section = text.split(f"\n{BOTS_AND_PLAY}\n", 1)[1].split("\n## ", 1)[0]
    for item in re.split(r"\n- ", "\n" + section.strip()):
        m = re.match(rf"\*\*{re.escape(label)}\*\* \([^\n]*?\): (.*)$", " ".join(item.split()))
        if m:
            return m.group(1).removesuffix(".")
    raise ValueError(f"docs/games/{cls.name}.md, {BOTS_AND_PLAY}: no item **{label}**")


def greedy_values(page: str) -> str:
    return "\n".join(f"| {c.title} | {page_item(c, GREEDY_VALUE)} |" for c in games())


def settled_results(page: str) -> str:
    return "\n".join(f"| {c.title} | {page_item(c, SETTLED)} |" for c in games())


def reference_rows(page: str) -> str:
    return "\n".join(
        f"| [`{c.__module__}`]({c.name}.md) | {c.title}: its game, state and move classes |" for c in games()
    )


def environment_rows(page: str) -> str:
    return "\n".join(f"| `{c.ENV_ID}` | `{c.name}` |" for c in games() if c.ENV_ID)


def typing_rows(page: str) -> str:
    rows = []
    for c in games():
        t = types(c)
        kinds = ", ".join(f"`{k.__name__}`" for k in t["kinds"])
        rows.append(
            f'| `"{c.name}"` | `{c.__module__}` | `{c.__name__}` | `{t["state"].__name__}` | '
            f"`{t['move'].__name__}`" + (f" ({kinds})" if kinds else "") + " |"
        )
    return "\n".join(rows)


def readings_links(page: str) -> str:
    return "\n".join(f"- [{c.title}](games/{c.name}.md#readings)" for c in games())


def home_pictures(page: str) -> str:
    """The home page's pictures: each game's gallery picture, two a row."""
    cs = games()
    rows = ["| | |", "|---|---|"]
    for i in range(0, len(cs), 2):
        pair = cs[i : i + 2]
        cells = [f'![{c.title}](figures/gallery/{c.name}.svg){{ width="420" }}' for c in pair]
        names = [f"**{c.title}** ({_players(c)} players)" for c in pair]
        if len(pair) == 1:
            cells.append("")
            names.append("")
        rows += ["| " + " | ".join(cells) + " |", "| " + " | ".join(names) + " |"]
    return "\n".join(rows)


def gallery_sections(page: str) -> str:
    """A section of the gallery for every game whose picture the page does not show yet (the
    four games have their own sections, written by hand): its default picture."""
    out = []
    for c in games():
        if f"(figures/gallery/{c.name}.svg)" not in page:
            out.append(
                f"## {c.title}\n\n![{c.title}](figures/gallery/{c.name}.svg)\n\n"
                f"A seeded random game at {c.max_players} players, halfway through (the default picture "
                f"of `tools/make_gallery.py`), drawn by `{c.DRAWING}`.\n"
            )
    return "\n".join(out)


#: what each marker expands to (from the page's Markdown)
BLOCKS: Dict[str, Callable[[str], str]] = {
    "reference-games": reference_rows,
    "environment-ids": environment_rows,
    "typing-games": typing_rows,
    "readings-links": readings_links,
    "home-pictures": home_pictures,
    "gallery-sections": gallery_sections,
    "greedy-values": greedy_values,
    "settled-results": settled_results,
}


def expand(markdown: str) -> str:
    """``markdown`` with every ``<!-- registry: NAME -->`` line replaced by its block; an
    unknown NAME is an error (a typo would otherwise drop a table silently)."""

    def block(m: "re.Match[str]") -> str:
        if m.group(1) not in BLOCKS:
            raise ValueError(f"unknown registry block {m.group(1)!r} (known: {sorted(BLOCKS)})")
        return BLOCKS[m.group(1)](markdown)

    return MARKER.sub(block, markdown)


def navigation(nav: List[Any]) -> List[Any]:
    """``nav`` (mkdocs.yml's) with every game's page first in the Games section and its
    reference page in the Reference section's Games."""

    def section(items: List[Any], title: str) -> List[Any]:
        found = next((e[title] for e in items if isinstance(e, dict) and title in e), None)
        if not isinstance(found, list):
            raise ValueError(f"mkdocs.yml: the navigation has no section {title!r}")
        return found

    section(nav, NAV_GAMES)[:0] = [{c.title: f"games/{c.name}.md"} for c in games()]
    section(section(nav, NAV_REFERENCE), NAV_REFERENCE_GAMES)[:] = [
        {c.__module__: f"reference/{c.name}.md"} for c in games()
    ]
    return nav


# -- the MkDocs hooks ---------------------------------------------------------------------


def on_config(config: Any) -> Any:
    global DOCS
    DOCS = Path(config["docs_dir"])
    config["nav"] = navigation(config["nav"])
    return config


def on_files(files: Any, config: Any) -> Any:
    from mkdocs.structure.files import File

    for c in games():
        files.append(File.generated(config, f"reference/{c.name}.md", content=reference_page(c)))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    return expand(markdown)
