"""Install hints. mousehole is not on a package index yet, so every message and page that
says how to install an extra names the extra's requirements (``pip install 'gymnasium>=1.0'``,
nothing compiled) or the install from a clone (``pip install --no-build-isolation
'.[gymnasium]'``), never the package's name with the extra in brackets, which an index does
not have yet. The messages of the package
all come from one helper, ``mousehole._extras.install_hint``; the docs' table of extras
(docs/index.md) lists each extra of ``pyproject.toml`` with its requirements."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Dict, List

import pytest
from packaging.requirements import Requirement

from mousehole._extras import install_hint, requirements
from test_lint import _extras

ROOT = Path(__file__).resolve().parents[1]
INDEX = "mousehole" + "["  # (written in two parts, so that this file does not match itself)
#: what the repository's texts are, for the search below (the development notes are the
#: lead's record of what was, and are left out)
TEXTS = [
    "README.md",
    "docs/**/*.md",
    "src/mousehole/**/*.py",
    "examples/**/*.py",
    "benchmarks/**/*.py",
    "tools/**/*",
    "tests/**/*.py",
    ".ci/run",
    ".github/**/*.yml",
    "pyproject.toml",
    "setup.py",
]


def _reqs(listed: List[str]) -> List[Requirement]:
    return [Requirement(r.split(";")[0]) for r in listed]


def test_each_hint_names_the_extras_requirements() -> None:
    extras = _extras()
    assert extras, "no extras read from pyproject.toml"
    for extra, listed in extras.items():
        hint = install_hint(extra)
        assert _reqs(requirements(extra)) == _reqs(listed), extra
        named = re.match(
            r"pip install (.+?) \(the '(\w+)' extra of mousehole; in a clone of mousehole: "
            r"pip install --no-build-isolation '\.\[(\w+)\]'\)$",
            hint,
        )
        assert named, hint
        assert _reqs(shlex.split(named.group(1))) == _reqs(listed)
        assert named.group(2) == named.group(3) == extra


def test_no_text_tells_to_install_from_an_index() -> None:
    """Every mention of the package's name with an extra in brackets says that it works only
    once mousehole is released."""
    bad = []
    seen = 0
    for pattern in TEXTS:
        for path in sorted(ROOT.glob(pattern)):
            if not path.is_file() or path.name == "notes.md" or path.suffix in (".png", ".svg", ".json"):
                continue
            seen += 1
            for i, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
                if INDEX in line and not re.search(r"finds nothing|only once mousehole is on PyPI", line):
                    bad.append(f"{path.relative_to(ROOT)}:{i}: {line.strip()}")
    assert seen > 100
    assert bad == []


def test_the_docs_list_every_extra_with_its_requirements() -> None:
    text = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    table = text.split("<!-- extras -->\n", 1)[1].split("\n\n", 1)[0]
    rows: Dict[str, str] = {}
    for line in table.splitlines()[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0].strip("`")] = cells[-1].strip("`")
    extras = _extras()
    assert sorted(rows) == sorted(extras)
    for extra, how in rows.items():
        if how == f"pip install --no-build-isolation '.[{extra}]'":
            continue
        args = shlex.split(how)
        assert args[:2] == ["pip", "install"], how
        assert _reqs(args[2:]) == _reqs(extras[extra]), extra


@pytest.mark.parametrize(
    "code, extra",
    [
        (
            "import sys; sys.modules['distributed'] = None\nfrom mousehole.cli import main\n"
            "sys.exit(main(['arena', 'm', '--bots', 'random,random', '--games', '2', '--dask', 'tcp://127.0.0.1:1']))",
            "dask",
        ),
        (
            "import sys; sys.modules['cairosvg'] = None\nimport mousehole\nfrom mousehole import render\n"
            "render.rgb_array(mousehole.load('m').new_state(1))",
            "render",
        ),
        (
            "import sys; sys.modules['openskill'] = None\nimport mousehole\nfrom mousehole import arena\n"
            "print(arena.play(mousehole.load('m', players=2), ['random', 'random'], 2, seed=1))",
            "arena",
        ),
    ],
)
def test_messages_use_the_hint(code: str, extra: str) -> None:
    """The command line's --dask, the pictures' pixels and the arena's table (the adapters'
    ImportErrors are checked in their own test files)."""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert install_hint(extra) in out.stdout + out.stderr, out.stdout + out.stderr
