#!/usr/bin/env python3
"""Run mousehole's test suite against the *installed* package, on both engines.

    python tools/run_wheel_tests.py [--tests DIR] [--engines compiled,pure] [--parallel]
                                    [--markers EXPR] [-- PYTEST_ARGS...]

Used by cibuildwheel's test-command (every wheel of the matrix) and by
tools/wheel_proof.sh. It runs pytest from a fresh empty directory, so that nothing
but the installed package can be imported as ``mousehole``, and checks that first:

1. ``import mousehole`` resolves outside the source tree, and every game loads with
   ``engine="compiled"`` (a wheel without one of its extension modules fails here);
2. ``pytest TESTS`` with the compiled engine (the default);
3. ``pytest TESTS -m "not typing"`` with ``MOUSEHOLE_PUREPYTHON=1`` (the reference engine
   alone, as in the README's test command; the tests' conftest deselects the differential
   tests there).

``--markers EXPR`` selects tests by marker in both sessions (pytest ``-m``; the pure
session adds ``and not typing``), e.g. ``--markers "not differential"`` for a quick run.
``--parallel`` runs the two engines' sessions at the same time (each is single-threaded),
which halves the wall time on a machine with two or more cores; their output is printed
one after the other when both are done.

The tests of the source tree, not of the installed package, are left out
(``SOURCE_ONLY_TESTS``): test_wheel_matrix.py (the build configuration, with
cibuildwheel), test_lint.py (ruff over the sources) and test_touch_points.py (every
game's files in the checkout). A run that collects no
test at all fails. Standard library only; runs on Python >= 3.9 and on Windows.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import IO, Dict, List, Sequence

ROOT = Path(__file__).resolve().parents[1]
SOURCE_ONLY_TESTS = ["test_wheel_matrix.py", "test_lint.py", "test_touch_points.py"]

PROBE = """
import os, sys
import mousehole
where = os.path.dirname(os.path.abspath(mousehole.__file__))
print("mousehole", mousehole.__version__, "from", where)
print("engines", mousehole.available_engines())
forbidden = [os.path.abspath(p) for p in sys.argv[1:]]
for bad in forbidden:
    where, bad = os.path.normcase(where), os.path.normcase(bad)
    if where.startswith(bad + os.sep) or where == bad:
        sys.exit(f"mousehole was imported from the source tree ({where}), not from the installed wheel")
if os.environ.get("MOUSEHOLE_PUREPYTHON", "") in ("", "0"):
    if "compiled" not in mousehole.available_engines():
        sys.exit("the compiled engine is not available in the installed package")
    for game in mousehole.game_names():
        mousehole.load(game, engine="compiled")   # raises if this game's extension is missing
    print("compiled engine loads for", mousehole.game_names())
"""


def engine_env(engine: str) -> Dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    env.pop("MOUSEHOLE_PUREPYTHON", None)
    if engine == "pure":
        env["MOUSEHOLE_PUREPYTHON"] = "1"
    return env


def pytest_command(engine: str, tests: Path, cwd: str, markers: str, extra: Sequence[str]) -> List[str]:
    cmd = [
        sys.executable,
        "-m",
        "pytest",
        str(tests),
        "-p",
        "no:cacheprovider",
        f"--basetemp={Path(cwd).parent / ('tmp-' + engine)}",
    ]
    cmd += [f"--ignore={tests / name}" for name in SOURCE_ONLY_TESTS]
    if engine == "pure":
        markers = f"({markers}) and not typing" if markers else "not typing"
    if markers:
        cmd += ["-m", markers]
    return cmd + list(extra)


def session(
    engine: str, tests: Path, cwd: str, forbidden: List[str], markers: str, extra: Sequence[str], out: IO[str]
) -> int:
    """Probe the installed package, then run pytest; everything goes to ``out``."""
    env = engine_env(engine)
    for cmd in ([sys.executable, "-c", PROBE, *forbidden], pytest_command(engine, tests, cwd, markers, extra)):
        shown = cmd if cmd[1] != "-c" else [cmd[0], "-c", "<probe: import mousehole>", *cmd[3:]]
        print("$", " ".join(shown), file=out, flush=True)
        rc = subprocess.call(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
        if rc == 5:
            print("error: pytest collected no test", file=out, flush=True)
        if rc != 0:
            return rc
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--tests", type=Path, default=ROOT / "tests", help="the tests directory (default: ./tests of this checkout)"
    )
    ap.add_argument("--engines", default="compiled,pure", help="comma-separated: compiled, pure (default: both)")
    ap.add_argument("--parallel", action="store_true", help="run the engines' sessions at the same time")
    ap.add_argument("--markers", default="", help='pytest -m expression for both sessions, e.g. "not differential"')
    ap.add_argument("pytest_args", nargs="*", help="extra pytest arguments (after --)")
    args = ap.parse_args(argv)

    tests = args.tests.resolve()
    if not (tests / "conftest.py").is_file():
        print(f"error: {tests} is not mousehole's tests directory (no conftest.py)", file=sys.stderr)
        return 2
    engines = [e.strip() for e in args.engines.split(",") if e.strip()]
    for e in engines:
        if e not in ("compiled", "pure"):
            ap.error(f"unknown engine {e!r}")
    # Places `mousehole` must not be imported from: the src/ dirs next to the tests and this script.
    forbidden = sorted({str(tests.parent / "src"), str(ROOT / "src")})

    results: Dict[str, int] = {}
    times: Dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="mousehole-test-cwd-") as cwd:
        run_dir = Path(cwd) / "run"  # the empty working directory of every session
        run_dir.mkdir()
        logs = {e: Path(cwd) / f"{e}.log" for e in engines}

        def one(engine: str) -> None:
            start = time.monotonic()
            if args.parallel:
                with open(logs[engine], "w", encoding="utf-8") as out:
                    results[engine] = session(
                        engine, tests, str(run_dir), forbidden, args.markers, args.pytest_args, out
                    )
            else:
                print(f"\n=== installed mousehole, {engine} engine ===", flush=True)
                results[engine] = session(
                    engine, tests, str(run_dir), forbidden, args.markers, args.pytest_args, sys.stdout
                )
            times[engine] = time.monotonic() - start

        if args.parallel:
            threads = [threading.Thread(target=one, args=(e,)) for e in engines]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            for e in engines:
                print(f"\n=== installed mousehole, {e} engine ===", flush=True)
                print(logs[e].read_text(encoding="utf-8", errors="replace"), end="", flush=True)
        else:
            for e in engines:
                one(e)

    print()
    for e in engines:
        rc = results.get(e, 1)
        verdict = "passed" if rc == 0 else f"FAILED (exit {rc})"
        print(f"=== {e} engine: {verdict} in {times.get(e, 0.0):.1f} s", flush=True)
    failed = [e for e in engines if results.get(e, 1) != 0]
    if failed:
        print(f"test suite failed on: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
