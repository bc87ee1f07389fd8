"""Test configuration: every test that takes the ``engine`` fixture runs on each engine.

The suite runs against the *installed* package (``pip install .``), not ``src/``.
``MOUSEHOLE_PUREPYTHON=1`` runs it on the reference engine alone; the differential tests,
which need both engines, are then deselected (reported as such, not skipped). Below
Python 3.11, where cibuildwheel does not install, the wheel-matrix tests are deselected.
"""
from __future__ import annotations

import os
import sys
from typing import Any, List

import pytest

import mousehole

ENGINES = mousehole.available_engines()
#: tests of the optional environments, whose packages (gymnasium, pettingzoo) need Python 3.10+
NEEDS_310 = {"test_gymnasium_env.py", "test_pettingzoo_env.py", "test_pettingzoo_training.py",
             "test_clients_sb3.py", "test_clients_supersuit.py"}
#: open_spiel has wheels for CPython >= 3.11 only: below, its test module is not collected
#: (it imports pyspiel at the top), and the report header says so.
collect_ignore = ["test_openspiel.py"] if sys.version_info < (3, 11) else []
#: the RL clients (Stable-Baselines3, sb3-contrib, SuperSuit) need torch, which the ``test``
#: extra does not install (PyPI's default torch is a multi-GB CUDA build): CI installs a CPU
#: torch and the ``clients`` extra in a step of its own and runs these files there. Without
#: those packages they are not collected, and the report header says so.
CLIENT_FILES = ["test_clients_sb3.py", "test_clients_supersuit.py"]


def _have_clients() -> bool:
    import importlib.util

    return sys.version_info >= (3, 10) and all(
        importlib.util.find_spec(m) is not None
        for m in ("torch", "stable_baselines3", "sb3_contrib", "supersuit"))


if not _have_clients():
    collect_ignore += CLIENT_FILES
PURE = os.environ.get("MOUSEHOLE_PUREPYTHON", "") not in ("", "0")


def pytest_report_header(config: Any) -> str:
    note = ""
    if "test_openspiel.py" in collect_ignore:
        note += "; OpenSpiel tests not collected (open_spiel needs Python >= 3.11)"
    if CLIENT_FILES[0] in collect_ignore:
        note += ("; RL client tests not collected (pip install torch==2.13.0 "
                 "'mousehole[clients]' to run them; CI does, in a step of its own)")
    return f"mousehole {mousehole.__version__} from {os.path.dirname(mousehole.__file__)}; engines: {ENGINES}{note}"


def pytest_sessionstart(session: Any) -> None:
    if not PURE and "compiled" not in ENGINES:
        raise pytest.UsageError(
            "the compiled engine did not import; build the package (pip install .) "
            "or set MOUSEHOLE_PUREPYTHON=1 to test the reference engine alone"
        )


def pytest_collection_modifyitems(config: Any, items: List[Any]) -> None:
    """Deselect (and say so) what cannot run here: the differential tests without the
    compiled engine, the wheel-matrix tests below Python 3.11 (cibuildwheel needs 3.11),
    the Ctrl-C tests on Windows, the gymnasium/pettingzoo and Dask tests below Python 3.10."""
    keep, drop = [], []
    for item in items:
        cannot = (
            ((item.get_closest_marker("differential") or item.get_closest_marker("compiled"))
             and "compiled" not in ENGINES)
            or (item.path.name == "test_wheel_matrix.py" and sys.version_info < (3, 11))
            or (item.get_closest_marker("sigint") and sys.platform == "win32")
            or (item.path.name in NEEDS_310 and sys.version_info < (3, 10))
            # dask's last release for 3.9 (2024.8) fails to hand results back from its
            # workers here: the Dask tests (and the extra) need Python >= 3.10
            or ("dask_executor" in getattr(item, "fixturenames", ()) and sys.version_info < (3, 10))
        )
        (drop if cannot else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


@pytest.fixture(params=ENGINES)
def engine(request: Any) -> str:
    """Each engine this installation has: "compiled" and "python"."""
    return str(request.param)
