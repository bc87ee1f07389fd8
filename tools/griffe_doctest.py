"""A griffe extension for the documentation site: doctest examples in reST docstrings
(``>>>`` lines and their output) become ``pycon`` code blocks, so that Markdown renders them
as code instead of nested quotes (mkdocs.yml loads it for mkdocstrings)."""
from __future__ import annotations

import re
from typing import Any, List

import griffe

_PROMPT = re.compile(r"^(\s*)(>>>|\.\.\.)( |$)")


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


class DoctestFences(griffe.Extension):
    def on_instance(self, *, obj: Any, **kwargs: Any) -> None:
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_doctests(obj.docstring.value)
