"""The wheel matrix as a test (docs/wheels.md).

``[tool.cibuildwheel]`` of pyproject.toml must select exactly CPython 3.9 .. 3.14 on
manylinux and musllinux (x86_64, aarch64), macOS (x86_64, arm64) and Windows (AMD64):
nothing missing, and no PyPy, free-threaded, 32-bit or pre-release build. cibuildwheel
answers ``--print-build-identifiers`` from the configuration alone (no network, no
Docker), so this runs anywhere cibuildwheel installs (Python >= 3.11). It is never
skipped: without cibuildwheel it fails and says how to install it.

It also checks that .github/workflows/wheels.yml gets one job per wheel, each on a runner
of its own architecture (tools/wheel_matrix.py), and that every action it uses is pinned
by commit SHA. This file checks the source tree, not the installed package: the runs
against built wheels (tools/run_wheel_tests.py) leave it out.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from typing import Any, Dict, List, Set

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYTHONS = ["cp39", "cp310", "cp311", "cp312", "cp313", "cp314"]
PLATFORM_TAGS: Dict[str, List[str]] = {
    "linux": ["manylinux_x86_64", "manylinux_aarch64", "musllinux_x86_64", "musllinux_aarch64"],
    "macos": ["macosx_x86_64", "macosx_arm64"],
    "windows": ["win_amd64"],
}
EXPECTED: Dict[str, Set[str]] = {
    platform: {f"{py}-{tag}" for py in PYTHONS for tag in tags} for platform, tags in PLATFORM_TAGS.items()
}
# The runner that builds each kind of wheel natively: its OS and CPU.
RUNNER_KIND = {
    "manylinux_x86_64": ("ubuntu", "x64"),
    "musllinux_x86_64": ("ubuntu", "x64"),
    "manylinux_aarch64": ("ubuntu", "arm"),
    "musllinux_aarch64": ("ubuntu", "arm"),
    "macosx_x86_64": ("macos", "intel"),
    "macosx_arm64": ("macos", "arm"),
    "win_amd64": ("windows", "x64"),
}


def _wheel_matrix() -> Any:
    """tools/wheel_matrix.py as a module, after making sure cibuildwheel is there."""
    if importlib.util.find_spec("cibuildwheel") is None:
        pytest.fail(
            "cibuildwheel is not installed in this environment, so the wheel matrix cannot be "
            "checked. Install it with: python -m pip install 'cibuildwheel>=4.1' (needs Python "
            ">= 3.11; it is in the test extra: pip install '.[test]')",
            pytrace=False,
        )
    spec = importlib.util.spec_from_file_location("wheel_matrix", ROOT / "tools" / "wheel_matrix.py")
    assert spec is not None and spec.loader is not None, "tools/wheel_matrix.py is missing"
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("wheel_matrix", module)
    spec.loader.exec_module(module)
    return module


_CACHE: Dict[str, List[str]] = {}


def _identifiers(platform: str) -> List[str]:
    if platform not in _CACHE:
        _CACHE[platform] = _wheel_matrix().identifiers(platform, ROOT)
    return list(_CACHE[platform])


@pytest.mark.parametrize("platform", sorted(EXPECTED))
def test_cibuildwheel_selects_exactly_the_intended_builds(platform: str) -> None:
    found = _identifiers(platform)
    assert len(found) == len(set(found)), f"duplicate identifiers: {found}"
    missing = sorted(EXPECTED[platform] - set(found))
    extra = sorted(set(found) - EXPECTED[platform])
    assert not missing and not extra, f"{platform}: missing {missing}, unexpected {extra}"


def test_no_pypy_free_threaded_or_other_interpreters() -> None:
    every = [i for platform in EXPECTED for i in _identifiers(platform)]
    assert len(every) == 42
    for identifier in every:
        assert re.fullmatch(r"cp3(9|1[0-4])-[a-z0-9_]+", identifier), identifier


@pytest.mark.parametrize("aarch64", ["native", "qemu"])
def test_workflow_gets_one_job_per_wheel_on_a_matching_runner(aarch64: str) -> None:
    wm = _wheel_matrix()
    wm.identifiers = lambda platform, root=ROOT: _identifiers(platform)  # reuse the answers above
    jobs = wm.matrix(aarch64, ROOT)
    ids = [j["id"] for j in jobs]
    assert sorted(ids) == sorted(set().union(*EXPECTED.values())), "the jobs are not the wheel matrix"
    for j in jobs:
        suffix = str(j["id"]).split("-", 1)[1]
        runner = str(j["runner"])
        os_name, cpu = RUNNER_KIND[suffix]
        assert runner.startswith(os_name), j
        emulated = aarch64 == "qemu" and suffix.endswith("_aarch64")
        assert j["qemu"] is emulated, j
        if emulated:
            assert not runner.endswith("-arm"), j
        elif cpu == "arm":
            assert runner.endswith("-arm") or runner in ("macos-14", "macos-15", "macos-26", "macos-latest"), j
        elif cpu == "intel":
            assert runner.endswith("-intel"), j
        else:
            assert not runner.endswith(("-arm", "-intel")), j
        assert str(j["tag"]) in suffix, j


def test_workflow_actions_are_pinned_by_commit_sha() -> None:
    workflow = ROOT / ".github" / "workflows" / "wheels.yml"
    uses = [
        line.strip() for line in workflow.read_text(encoding="utf-8").splitlines() if re.match(r"\s*(-\s+)?uses:", line)
    ]
    assert uses, "no actions found in wheels.yml"
    for line in uses:
        assert re.fullmatch(r"(-\s+)?uses:\s+[\w.-]+/[\w.-]+@[0-9a-f]{40} # v\d+(\.\d+)*", line), (
            f"not pinned to a full commit SHA with a version comment: {line}"
        )
    text = workflow.read_text(encoding="utf-8")
    assert "pypa/cibuildwheel@" in text and "only: ${{ matrix.id }}" in text
    assert "tools/wheel_proof.sh" in text and "--sdist" in text
