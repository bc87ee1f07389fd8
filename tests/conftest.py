"""Test configuration: every test that takes the ``engine`` fixture runs on each engine.

The suite runs against the *installed* package (``pip install .``), not ``src/``.
``MOUSEHOLE_PUREPYTHON=1`` runs it on the reference engine alone; the differential tests,
which need both engines, are then deselected (reported as such, not skipped). Below
Python 3.11, where cibuildwheel does not install, the wheel-matrix tests are deselected.

**System parts.** A few tests need a part of the system that the README's test command does
not install (``PARTS``: Chromium for the replay page's browser tests, marker ``browser``; the
cairo library for the PNG checks, marker ``png``). Where it is missing they are skipped, the
reason (what to install) in the test summary; ``MOUSEHOLE_REQUIRE=browser,png,postgres`` (CI sets it,
``.ci/run``) turns each such skip into a failure, so that CI never passes without them.

**Ctrl-C.** The tests that interrupt a child process (marker ``sigint``) start it with
:func:`interruptible`, which gives the child SIGINT's default disposition whatever the suite
inherited: started from a background job, ``nohup`` or any runner that ignores SIGINT, a
child would otherwise inherit the ignored signal, Python would install no handler, and the
interrupt would never arrive.
"""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import pytest

import mousehole

#: ``MOUSEHOLE_TEST_TOY_GAME=1``: register the test suite's toy game (``tests/toygame.py``)
#: before any test module reads the registry, so that every generic suite covers it too
#: (``tests/test_toy_game.py`` runs them so, on the reference engine)
TOY_GAME = os.environ.get("MOUSEHOLE_TEST_TOY_GAME", "") not in ("", "0")
if TOY_GAME:
    import toygame

    toygame.register()
ENGINES = mousehole.available_engines()
#: tests of the optional environments, whose packages (gymnasium, pettingzoo) need Python 3.10+
NEEDS_310 = {
    "test_gymnasium_env.py",
    "test_pettingzoo_env.py",
    "test_pettingzoo_training.py",
    "test_clients_sb3.py",
    "test_clients_supersuit.py",
}
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
        importlib.util.find_spec(m) is not None for m in ("torch", "stable_baselines3", "sb3_contrib", "supersuit")
    )


if not _have_clients():
    collect_ignore += CLIENT_FILES
PURE = os.environ.get("MOUSEHOLE_PUREPYTHON", "") not in ("", "0")

# -- system parts the README's set-up does not install ---------------------------------------

#: the browser the replay page's tests drive (Debian's chromium and chromium-driver packages)
CHROMIUM = os.environ.get("MOUSEHOLE_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("MOUSEHOLE_CHROMEDRIVER", "/usr/bin/chromedriver")


def _have_chromium() -> bool:
    return os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)


def _have_postgres() -> bool:
    """PostgreSQL's server programs, on PATH or where Debian puts them."""
    import glob
    import shutil

    return all(shutil.which(name) or glob.glob(f"/usr/lib/postgresql/*/bin/{name}") for name in ("initdb", "pg_ctl"))


def _have_cairo() -> bool:
    """CairoSVG (with Pillow) imports: cairocffi raises OSError where the system cairo
    library is missing."""
    try:
        import cairosvg  # noqa: F401
        import PIL.Image  # noqa: F401
    except (ImportError, OSError):
        return False
    return True


#: marker -> (check, what it needs and how to install it)
PARTS: Dict[str, Tuple[Callable[[], bool], str]] = {
    "browser": (
        _have_chromium,
        f"needs Chromium ({CHROMIUM}) and its driver ({CHROMEDRIVER}): "
        "apt-get install chromium chromium-driver (Debian)",
    ),
    "png": (_have_cairo, "needs CairoSVG and the system cairo library: apt-get install libcairo2 (Debian)"),
    "postgres": (_have_postgres, "needs PostgreSQL's initdb and pg_ctl: apt-get install postgresql (Debian)"),
}
#: the parts whose tests must run here (a missing part fails them): MOUSEHOLE_REQUIRE=browser,png,postgres
REQUIRED = {p.strip() for p in os.environ.get("MOUSEHOLE_REQUIRE", "").split(",") if p.strip()}
_available: Dict[str, bool] = {}


def part_available(part: str) -> bool:
    if part not in _available:
        _available[part] = PARTS[part][0]()
    return _available[part]


def need(part: str) -> None:
    """Skip the calling test where the system part ``part`` is missing (the reason says what
    to install), or fail it when ``MOUSEHOLE_REQUIRE`` names the part."""
    if part_available(part):
        return
    why = PARTS[part][1]
    if part in REQUIRED:
        pytest.fail(f"{why} (required here: MOUSEHOLE_REQUIRE={','.join(sorted(REQUIRED))})", pytrace=False)
    pytest.skip(why)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: Any) -> None:
    for part in PARTS:
        if item.get_closest_marker(part):
            need(part)


# -- Ctrl-C: children with SIGINT's default disposition -------------------------------------

#: run first in the child: SIGINT back to its default (and unblocked), then exec the command,
#: whose Python then installs its own handler (the KeyboardInterrupt one) as usual
_DEFAULT_SIGINT = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT}); "
    "os.execv(sys.argv[1], sys.argv[1:])"
)


def interruptible(argv: Sequence[str], **kwargs: Any) -> "subprocess.Popen[Any]":
    """``subprocess.Popen(argv, **kwargs)``, the child starting with SIGINT's default
    disposition (not blocked), whatever this process inherited: a Ctrl-C test sets up the
    signal handling it relies on. (A small Python runs first and executes ``argv`` in its
    place: the same process, so ``send_signal`` reaches the command; no ``preexec_fn``,
    which is unsafe in a process with threads.)"""
    exe: Optional[str] = argv[0] if os.path.isabs(argv[0]) else None
    if exe is None:
        import shutil

        exe = shutil.which(argv[0])
        if exe is None:
            raise FileNotFoundError(argv[0])
    return subprocess.Popen([sys.executable, "-I", "-S", "-c", _DEFAULT_SIGINT, exe, *argv[1:]], **kwargs)


def pytest_report_header(config: Any) -> str:
    note = ""
    if "test_openspiel.py" in collect_ignore:
        note += "; OpenSpiel tests not collected (open_spiel needs Python >= 3.11)"
    if CLIENT_FILES[0] in collect_ignore:
        note += (
            "; RL client tests not collected (pip install torch==2.13.0, then "
            "pip install --no-build-isolation '.[clients]' to run them; CI does, in a step of its own)"
        )
    head = f"mousehole {mousehole.__version__} from {os.path.dirname(mousehole.__file__)}; engines: {ENGINES}{note}"
    for part in PARTS:
        if not part_available(part):
            what = "fail (MOUSEHOLE_REQUIRE)" if part in REQUIRED else "are skipped"
            head += f"\nno {part}: the tests marked {part} {what}: {PARTS[part][1]}"
    return head


def pytest_sessionstart(session: Any) -> None:
    unknown = REQUIRED - set(PARTS)
    if unknown:
        raise pytest.UsageError(
            f"MOUSEHOLE_REQUIRE names no system part: {', '.join(sorted(unknown))} (the parts: {', '.join(PARTS)})"
        )
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
            (
                (item.get_closest_marker("differential") or item.get_closest_marker("compiled"))
                and "compiled" not in ENGINES
            )
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
