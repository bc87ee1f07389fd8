"""The code style the project holds itself to: ``ruff check`` with the configuration in
``pyproject.toml`` (pycodestyle, pyflakes, bugbear, import order and a complexity limit of 15
per function) finds nothing in the package, the tools or the benchmarks."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_finds_nothing() -> None:
    assert (ROOT / "pyproject.toml").is_file(), f"no pyproject.toml in {ROOT}: the lint runs on a checkout"
    proc = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise",
                           "src/mousehole", "tools", "benchmarks"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
