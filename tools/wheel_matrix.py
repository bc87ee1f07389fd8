#!/usr/bin/env python3
"""The GitHub Actions job matrix of .github/workflows/wheels.yml, from pyproject.toml.

    python tools/wheel_matrix.py [--aarch64 native|qemu] [--github-output]

Asks cibuildwheel (``--print-build-identifiers``) which wheels ``[tool.cibuildwheel]``
selects on each platform, and gives each identifier the runner that builds and tests it
natively: one job per wheel. Prints ``{"include": [{"id", "runner", "tag", "qemu"}, ...]}``;
with ``--github-output`` it appends ``include=<json list>`` to ``$GITHUB_OUTPUT``.

``--aarch64 qemu`` builds the Linux aarch64 wheels on x86_64 runners under QEMU emulation
(for accounts without arm runners; several times slower). An identifier that no runner
can build is an error, so a build added to pyproject.toml cannot be silently left out.
Needs cibuildwheel (Python >= 3.11).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

ROOT = Path(__file__).resolve().parents[1]
PLATFORMS = ("linux", "macos", "windows")

# platform-tag suffix of the identifier -> (runner, wheel platform tag prefix)
RUNNERS: Dict[str, Tuple[str, str]] = {
    "manylinux_x86_64": ("ubuntu-24.04", "manylinux"),
    "musllinux_x86_64": ("ubuntu-24.04", "musllinux"),
    "manylinux_aarch64": ("ubuntu-24.04-arm", "manylinux"),
    "musllinux_aarch64": ("ubuntu-24.04-arm", "musllinux"),
    "macosx_x86_64": ("macos-15-intel", "macosx"),
    "macosx_arm64": ("macos-15", "macosx"),
    "win_amd64": ("windows-2025", "win_amd64"),
}
QEMU_RUNNER = "ubuntu-24.04"


def clean_env() -> Dict[str, str]:
    """The environment without CIBW_* settings, so that only pyproject.toml decides."""
    return {k: v for k, v in os.environ.items() if not k.startswith("CIBW_")}


def identifiers(platform: str, root: Path = ROOT) -> List[str]:
    """What ``cibuildwheel --print-build-identifiers --platform PLATFORM`` lists for ``root``."""
    out = subprocess.run(
        [sys.executable, "-m", "cibuildwheel", "--print-build-identifiers", "--platform", platform, str(root)],
        cwd=root,
        env=clean_env(),
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        raise RuntimeError(
            f"cibuildwheel --print-build-identifiers --platform {platform} failed "
            f"(exit {out.returncode}):\n{out.stdout}{out.stderr}"
        )
    return [line.strip() for line in out.stdout.splitlines() if line.strip()]


def job(identifier: str, aarch64: str = "native") -> Optional[Dict[str, object]]:
    suffix = identifier.split("-", 1)[1]
    if suffix not in RUNNERS:
        return None
    runner, tag = RUNNERS[suffix]
    qemu = suffix.endswith("_aarch64") and aarch64 == "qemu"
    return {"id": identifier, "runner": QEMU_RUNNER if qemu else runner, "tag": tag, "qemu": qemu}


def matrix(aarch64: str = "native", root: Path = ROOT) -> List[Dict[str, object]]:
    jobs, orphans = [], []
    for platform in PLATFORMS:
        for identifier in identifiers(platform, root):
            j = job(identifier, aarch64)
            (jobs.append(j) if j else orphans.append(identifier))
    if orphans:
        raise RuntimeError(f"no runner for {orphans}: add them to RUNNERS in tools/wheel_matrix.py")
    return jobs


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--aarch64", choices=["native", "qemu"], default="native")
    ap.add_argument("--github-output", action="store_true", help="append include=<json> to $GITHUB_OUTPUT")
    args = ap.parse_args(argv)
    jobs = matrix(args.aarch64)
    print(json.dumps({"include": jobs}, indent=1))
    print(f"{len(jobs)} wheel jobs", file=sys.stderr)
    if args.github_output:
        with open(os.environ["GITHUB_OUTPUT"], "a", encoding="utf-8") as f:
            f.write(f"include={json.dumps(jobs)}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
