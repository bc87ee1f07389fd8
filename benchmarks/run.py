"""mousehole microbenchmarks: a thin wrapper over ``mousehole bench`` (``mousehole.bench``)
that adds the game-specific microbenchmarks of this folder.

    python benchmarks/run.py                 # all games, both engines, every player count
    python benchmarks/run.py --quick         # a smoke run (CI)
    python benchmarks/run.py --games m --players 4 --json out.json

The options and the JSON are those of ``mousehole bench`` (``docs/benchmarks.md``): per game
and engine, ns per call from Python in mid-game states (``clone``, ``apply_action`` with an
int and a numpy integer, ``is_chance_node``, ``current_player``, ``new_state``,
``legal_actions``, observations, masks, conversions), the Python loop, ``simulate``, the
ratio of ``simulate`` to the plain-C loops of ``benchmarks/limits/`` with their fingerprint
check, and the threads measurement. The JSON keeps the keys of the earlier results in
``benchmarks/results/`` (``games/<game>/<engine>/<figure>``), so ``--compare`` reads them.
Game-specific microbenchmarks live in ``benchmarks/bench_<game>.py`` and run when present
(a ``run(quick) -> dict`` function); their figures go under ``games/<game>/extra``.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from typing import Any, Dict, List, Optional

from mousehole import bench
from mousehole.bench import machine  # noqa: F401  (bench_search.py imports it from here)


def run_extra(name: str, quick: bool) -> Dict[str, Any]:
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), f"bench_{name}.py")
    if not os.path.exists(path):
        return {}
    spec = importlib.util.spec_from_file_location(f"bench_{name}", path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return dict(mod.run(quick))


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(
        prog="benchmarks/run.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    bench.add_arguments(ap)
    ap.add_argument(
        "--no-extra",
        dest="no_extra",
        action="store_true",
        default=False,
        help="skip the game-specific microbenchmarks of benchmarks/bench_<game>.py (default: off)",
    )
    args = ap.parse_args(argv)
    return bench.run(args, extra=None if args.no_extra else run_extra)


if __name__ == "__main__":
    sys.exit(main())
