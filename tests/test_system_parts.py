"""The tests that need a system part the README's test command does not install (conftest's
``PARTS``: Chromium for the marker ``browser``, the cairo library for ``png``) are skipped
where it is missing, with what to install in the test summary, and fail instead where
``MOUSEHOLE_REQUIRE`` names the part (as CI does). Checked on a part made missing in a child
pytest run, whatever this machine has: Chromium by pointing ``MOUSEHOLE_CHROMIUM`` at no
file, cairo by a ``sitecustomize`` that makes CairoSVG fail to import (as cairocffi does
without the library)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional

import pytest

HERE = Path(__file__).resolve().parent
#: a sitecustomize for the child: ``import cairosvg`` raises what cairocffi raises without
#: the library
_NO_CAIRO = """
import importlib.abc, sys

class _NoCairo(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "cairocffi" or name == "cairosvg" or name.startswith(("cairocffi.", "cairosvg.")):
            raise OSError('no library called "cairo-2" was found')
        return None

sys.meta_path.insert(0, _NoCairo())
"""


def _pytest(args: List[str], tmp_path: Path, require: Optional[str], env_more: Dict[str, str]) -> Any:
    env = {k: v for k, v in os.environ.items() if k not in ("MOUSEHOLE_REQUIRE", "PYTEST_ADDOPTS")}
    env.update(env_more)
    if require is not None:
        env["MOUSEHOLE_REQUIRE"] = require
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "-rs", *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=600,
    )


CASES = {
    "browser": (
        ["-m", "browser", str(HERE / "test_replay.py")],
        {"MOUSEHOLE_CHROMIUM": "/nonexistent/chromium"},
        4,
        r"needs Chromium \(/nonexistent/chromium\) and its driver "
        r".*apt-get install chromium chromium-driver",
    ),
    "png": (
        ["-m", "png", str(HERE / "test_render.py")],
        {"PYTHONPATH": "{site}"},
        4,
        r"needs CairoSVG and the system cairo library: apt-get install libcairo2",
    ),
}


@pytest.mark.parametrize("part", sorted(CASES))
def test_a_missing_part_skips_its_tests_with_the_reason(part: str, tmp_path: Path) -> None:
    args, env, n, why = CASES[part]
    (tmp_path / "sitecustomize.py").write_text(_NO_CAIRO)
    env = {k: v.format(site=tmp_path) for k, v in env.items()}
    out = _pytest(args, tmp_path, None, env)
    assert out.returncode == 0, out.stdout + out.stderr
    assert re.search(rf"\b{n} skipped\b", out.stdout) and " passed" not in out.stdout, out.stdout
    assert re.search(rf"SKIPPED \[{n}\] .*{why}", out.stdout), out.stdout
    assert re.search(rf"no {part}: the tests marked {part} are skipped: {why}", out.stdout), out.stdout


@pytest.mark.parametrize("part", sorted(CASES))
def test_a_required_part_fails_its_tests(part: str, tmp_path: Path) -> None:
    args, env, n, why = CASES[part]
    (tmp_path / "sitecustomize.py").write_text(_NO_CAIRO)
    env = {k: v.format(site=tmp_path) for k, v in env.items()}
    out = _pytest(args, tmp_path, f"{part},{'png' if part == 'browser' else 'browser'}", env)
    assert out.returncode == 1, out.stdout + out.stderr
    assert re.search(rf"\b{n} errors?\b", out.stdout) and "skipped" not in out.stdout, out.stdout
    assert re.search(
        rf"ERROR at setup of .*\n{why} \(Debian\) \(required here: MOUSEHOLE_REQUIRE=browser,png\)", out.stdout
    ), out.stdout


def test_an_unknown_part_is_refused(tmp_path: Path) -> None:
    out = _pytest(["-m", "browser", str(HERE / "test_replay.py")], tmp_path, "browser,chromium", {})
    assert out.returncode == 4, out.stdout + out.stderr
    assert "MOUSEHOLE_REQUIRE names no system part: chromium (the parts: browser, png, postgres)" in out.stderr
