"""Griffe extensions for the documentation site (mkdocs.yml loads them for mkdocstrings).

The docstrings are reST (Sphinx style: ``:param x:``, ``:class:`Game```); mkdocstrings reads
their fields but renders their text as Markdown. Two extensions bridge the gap:

* :class:`DoctestFences`: doctest examples (``>>>`` lines and their output) become ``pycon``
  code blocks, so that Markdown renders them as code instead of nested quotes;
* :class:`SphinxRoles`: cross-reference roles (``:class:`StateError```,
  ``:meth:`~mousehole.Game.load```) become code spans of the name they show (``StateError``,
  ``load``), so that no role is printed as literal text.
"""

from __future__ import annotations

import re
from typing import Any, List

import griffe

_PROMPT = re.compile(r"^(\s*)(>>>|\.\.\.)( |$)")
#: a Sphinx cross-reference role: ``:class:`x```, ``:py:meth:`~a.b```, ``:func:`title <target>```
_ROLE = re.compile(r":(?:py:)?(?:class|meth|func|attr|mod|data|exc|obj|const):`(~?)([^`<]+?)(?:\s*<[^`>]+>)?`")


def render_roles(text: str) -> str:
    """``text`` with every cross-reference role written as the code span it shows: the name
    as given, or its last dotted part after ``~`` (Sphinx's rule)."""

    def show(m: "re.Match[str]") -> str:
        name = m.group(2).strip()
        if m.group(1):
            name = name.rsplit(".", 1)[-1]
        return f"``{name}``"

    return _ROLE.sub(show, text)


def fence_doctests(text: str) -> str:
    """``text`` with every run of doctest lines (prompts and the output that follows, up
    to a blank line) wrapped in a fenced ``pycon`` block."""
    out: List[str] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        m = _PROMPT.match(lines[i])
        if not m:
            out.append(lines[i])
            i += 1
            continue
        indent = m.group(1)
        out.append(f"{indent}```pycon")
        while i < len(lines) and lines[i].strip():
            out.append(lines[i])
            i += 1
        out.append(f"{indent}```")
    return "\n".join(out)


class SphinxRoles(griffe.Extension):
    def on_instance(self, *, obj: Any, **kwargs: Any) -> None:
        if obj.docstring is not None and ":`" in obj.docstring.value:
            obj.docstring.value = render_roles(obj.docstring.value)


class DoctestFences(griffe.Extension):
    def on_instance(self, *, obj: Any, **kwargs: Any) -> None:
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_doctests(obj.docstring.value)
