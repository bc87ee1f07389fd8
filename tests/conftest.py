"""Test configuration: every test that takes the ``engine`` fixture runs on each engine.

The suite runs against the *installed* package (``pip install .``), not ``src/``.
``MOUSEHOLE_PUREPYTHON=1`` runs it on the reference engine alone; the differential tests,
which need both engines, are then deselected (reported as such, not skipped).
"""
from __future__ import annotations

import os
from typing import Any, List

import pytest

import mousehole

ENGINES = mousehole.available_engines()
PURE = os.environ.get("MOUSEHOLE_PUREPYTHON", "") not in ("", "0")


def pytest_report_header(config: Any) -> str:
    return f"mousehole {mousehole.__version__} from {os.path.dirname(mousehole.__file__)}; engines: {ENGINES}"


def pytest_sessionstart(session: Any) -> None:
    if not PURE and "compiled" not in ENGINES:
        raise pytest.UsageError(
            "the compiled engine did not import; build the package (pip install .) "
            "or set MOUSEHOLE_PUREPYTHON=1 to test the reference engine alone"
        )


def pytest_collection_modifyitems(config: Any, items: List[Any]) -> None:
    if "compiled" in ENGINES:
        return
    keep, drop = [], []
    for item in items:
        (drop if item.get_closest_marker("differential") else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


@pytest.fixture(params=ENGINES)
def engine(request: Any) -> str:
    """Each engine this installation has: "compiled" and "python"."""
    return str(request.param)
