"""The installed package is typed: ``mypy --strict`` passes on it, and the hand-written stubs
of the compiled modules match what the extensions really define (``mypy.stubtest``)."""
from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import pytest

import mousehole
from mousehole import _api

pytestmark = pytest.mark.typing

COMPILED_MODULES = sorted(f"mousehole._{name}" for name in _api._REGISTRY)


def _run(args: list, tmp: str) -> subprocess.CompletedProcess:
    # run in an empty directory, so that the installed package is what gets checked
    with open(os.path.join(tmp, "mypy.ini"), "w") as f:
        f.write("[mypy]\npython_version = 3.10\n")
    env = dict(os.environ, MYPYPATH="")
    return subprocess.run([sys.executable, "-m", *args], capture_output=True,
                          text=True, cwd=tmp, env=env)


def test_package_ships_stubs_and_py_typed() -> None:
    pkg = os.path.dirname(mousehole.__file__)
    assert os.path.exists(os.path.join(pkg, "py.typed"))
    for mod in COMPILED_MODULES:
        assert os.path.exists(os.path.join(pkg, mod.split(".")[1] + ".pyi")), mod


def test_mypy_strict(tmp_path: Any) -> None:
    r = _run(["mypy", "--strict", "--no-incremental", "--config-file", "mypy.ini", "-p", "mousehole"], str(tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.parametrize("module", COMPILED_MODULES)
def test_stubs_match_the_compiled_module(module: str, tmp_path: Any) -> None:
    r = _run(["mypy.stubtest", "--mypy-config-file", "mypy.ini", module], str(tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr
