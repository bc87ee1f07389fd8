"""The code style the project holds itself to: ``ruff check`` with the configuration in
``pyproject.toml`` (pycodestyle, pyflakes, bugbear, import order and a complexity limit of 15
per function) finds nothing in the package, the tools, the benchmarks or the tests, and
``ruff format`` (the layout of every Python file: ruff's formatter, lines of 120) would change
none of them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _ruff(*args: str) -> None:
    """Run ``ruff ARGS`` on the checkout; it must find nothing."""
    assert (ROOT / "pyproject.toml").is_file(), f"no pyproject.toml in {ROOT}: the lint runs on a checkout"
    proc = subprocess.run([sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ruff_finds_nothing() -> None:
    _ruff("check", "--no-cache", "--output-format", "concise", "src/mousehole", "tools", "benchmarks", "tests")


def test_ruff_format_would_change_nothing() -> None:
    """Every Python file of the package, the tools, the benchmarks, the tests, the examples and
    ``setup.py`` is laid out as ``ruff format`` lays it out (run ``ruff format .`` after an
    edit); ruff is pinned to one minor version in the ``test`` and ``dev`` extras, so the
    layout does not move under the check."""
    _ruff("format", "--check", "--no-cache", "src/mousehole", "tools", "benchmarks", "tests", "examples", "setup.py")


def _extras() -> dict:
    """pyproject.toml's extras (``tomllib`` from Python 3.11, else a line reader of the
    table, which holds one ``name = [...]`` list a line or a bracketed block)."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    try:
        import tomllib
    except ImportError:
        import ast
        import re

        block = text.split("[project.optional-dependencies]", 1)[1].split("\n[", 1)[0]
        block = re.sub(r"#.*", "", block)
        out = {}
        for name, body in re.findall(r"^(\w+) = (\[.*?\])[ \t]*$", block, flags=re.M | re.S):
            out[name] = ast.literal_eval(body)
        return out
    return dict(tomllib.loads(text)["project"]["optional-dependencies"])


def test_extras_install_only_what_they_are_for() -> None:
    """``[arena]`` is the ratings alone (openskill), the executors are ``[dask]`` and
    ``[ray]``; the test extra has every runtime dependency the suite exercises."""
    extras = _extras()
    names = {k: sorted(r.split(";")[0].split(">")[0].split("[")[0].strip() for r in v) for k, v in extras.items()}
    assert names["arena"] == ["openskill"]
    assert names["dask"] == ["dask"] and names["ray"] == ["ray"]
    for extra in ("arena", "dask", "cli", "render", "pettingzoo", "gymnasium", "openspiel"):
        assert set(names[extra]) <= set(names["test"]), extra


def test_site_links_the_repository_and_shows_each_game() -> None:
    """The documentation site: a repository link, the development notes out of the
    navigation, the changelog in it, and a picture of every game of the package on the home
    page (written there by the site's hook, ``tools/mkdocs_games.py``)."""
    conf = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert "\nrepo_url: https://" in conf
    nav = conf.split("\nnav:", 1)[1]
    assert "notes.md" not in nav and "changelog.md" in nav and "readings.md" in nav
    from test_touch_points import tool

    hook = tool("mkdocs_games")  # the home page's pictures are written from the registry
    home = hook.expand((ROOT / "docs" / "index.md").read_text(encoding="utf-8"))
    for game in (cls.name for cls in hook.games()):
        assert f"(figures/gallery/{game}.svg)" in home, game
        assert (ROOT / "docs" / "figures" / "gallery" / f"{game}.svg").is_file()
    quick = home.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    assert not any(line.strip().startswith("pip install mousehole") for line in quick.splitlines()), (
        "the Quick start must not tell people to install a release that does not exist yet"
    )
