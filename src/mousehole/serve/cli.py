"""The ``mousehole serve`` command (its options and what it runs)."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any, Callable, List

from .hub import IDLE_SECONDS, LEASE_GRACE, Config

__all__ = ["add_parser", "run"]

#: ``--port`` and the limits' ranges
MAX_PORT = 65535
#: ``--picture-workers`` by default: drawing a picture takes 7-12 ms, the server's largest cost
PICTURE_WORKERS = 2
_LIMIT = 1_000_000
#: the limits given as a count from 1, each defaulting to the ``Config`` field of its name:
#: the option, its largest value, what it counts
_LIMITS = (
    ("--max-tables", _LIMIT, "most open tables"),
    ("--max-connections", _LIMIT, "most WebSocket connections at once"),
    ("--max-per-ip", _LIMIT, "most WebSocket connections from one address"),
    ("--bot-threads", 256, "threads the bots think in"),
)


def _ranged(lo: int, hi: int) -> Any:
    from ..cli import _ranged as ranged

    return ranged(lo, hi)


def _seconds_in(lo: float, hi: float) -> Callable[[str], float]:
    """A seconds argument, a number from ``lo`` to ``hi`` (the number read as ``mousehole
    play --pause`` reads it: at most 40 characters)."""
    from ..cli import _real_text, _shown

    def check(text: str) -> float:
        v = _real_text(text)
        if not lo <= v <= hi:  # (False for a NaN)
            raise argparse.ArgumentTypeError(
                f"expected seconds from {lo:,.10g} to {hi:,.10g}, got {_shown(repr(text), 60)}"
            )
        return v

    return check


#: ``--idle``: from a second to a year
_seconds = _seconds_in(1.0, 365 * 86400.0)
#: ``--lease-grace``: from half a second to an hour
_grace = _seconds_in(0.5, 3600.0)


def add_parser(sub: Any) -> argparse.ArgumentParser:
    from ..cli import _add_engine_option, _add_file_option

    p: argparse.ArgumentParser = sub.add_parser(
        "serve",
        help="serve tables in the browser: friends play from their own devices, bots in the other seats",
        description="Serve the four games at tables in the browser (needs the serve extra: pip install "
        "--no-build-isolation '.[serve]' from a clone). Open the printed address, create a table "
        "(game, players, readings, bots and their level) and send each person their seat's link: "
        "each sees only their own view. Every move is committed to the database before anyone "
        "hears of it; a restarted server resumes every table. Ctrl-C stops it (docs/serve.md).",
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on; 0.0.0.0 lets other devices of the network in (default: 127.0.0.1)",
    )
    p.add_argument(
        "--port",
        type=_ranged(0, MAX_PORT),
        default=8000,
        metavar="PORT",
        help="port to listen on, 0 for any free one (default: 8000)",
    )
    p.add_argument(
        "--db",
        default="mousehole-serve.db",
        metavar="URL",
        help="the database: a SQLite file, or a PostgreSQL URL (postgresql://user@host/db) that "
        "several server processes share (default: mousehole-serve.db in this folder)",
    )
    _add_engine_option(p, "engine of the tables (default: the fastest available here)")
    p.add_argument(
        "--allow-origin",
        action="append",
        default=None,
        metavar="ORIGIN",
        help="an origin (https://example.org) whose pages may open WebSockets here besides the "
        "server's own, e.g. behind a proxy; repeat for several (default: none)",
    )
    p.add_argument(
        "--idle",
        type=_seconds,
        default=IDLE_SECONDS,
        metavar="SECONDS",
        help=f"close an open table after this many seconds without a move, keeping its record "
        f"(default: {IDLE_SECONDS:.0f}, a day)",
    )
    for flag, hi, what in _LIMITS:
        default = getattr(Config, flag[2:].replace("-", "_"))
        p.add_argument(flag, type=_ranged(1, hi), default=default, metavar="N", help=f"{what} (default: {default})")
    p.add_argument(
        "--picture-workers",
        type=_ranged(0, 64),
        default=PICTURE_WORKERS,
        metavar="N",
        help="worker processes that draw the pictures, off the event loop; 0 draws them in the "
        f"server's own process (default: {PICTURE_WORKERS})",
    )
    p.add_argument(
        "--lease-grace",
        type=_grace,
        default=LEASE_GRACE,
        metavar="SECONDS",
        help="with PostgreSQL: another server process takes over a table's bots this many seconds "
        f"after twice their time a move has passed without a move (default: {LEASE_GRACE:g})",
    )
    _add_file_option(
        p,
        "--export-records",
        "write the records of the finished games in the database to FILE (a JSON list "
        "that 'mousehole replay FILE --index K' reads) and exit",
    )
    return p


def _config(args: argparse.Namespace) -> Config:
    return Config(
        db=args.db,
        engine=args.engine,
        max_tables=args.max_tables,
        idle_seconds=args.idle,
        max_connections=args.max_connections,
        max_per_ip=args.max_per_ip,
        bot_threads=args.bot_threads,
        allow_origins=tuple(args.allow_origin or ()),
        picture_workers=args.picture_workers,
        lease_grace=args.lease_grace,
    )


async def _export(config: Config, path: str) -> int:
    from .storage import Store

    store = Store(config.db)
    await store.open()
    try:
        rows = await store.records()
    finally:
        await store.close()
    docs: List[Any] = [json.loads(text) for _, text in rows]
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(json.dumps(docs, ensure_ascii=False) + "\n")
    print(f"{path}: {len(docs)} records of finished games")
    return 0


def run(args: argparse.Namespace) -> int:
    from ..cli import UsageError

    try:
        from . import server
    except ImportError as e:
        raise UsageError(
            f"serve needs the serve extra (aiohttp): pip install --no-build-isolation '.[serve]' from a clone ({e})"
        ) from None
    from .storage import StorageError, describe_url

    config = _config(args)
    try:
        if args.export_records is not None:
            return asyncio.run(_export(config, args.export_records))

        import logging

        logging.basicConfig(
            level=logging.INFO, stream=sys.stderr, format="%(asctime)s mousehole serve %(levelname)s: %(message)s"
        )

        def ready(url: str) -> None:
            print(f"mousehole serve: {url} (database {describe_url(config.db)}); Ctrl-C stops", flush=True)

        server.run(config, args.host, args.port, ready=ready)
    except StorageError as e:
        raise UsageError(f"argument --db: {e}") from None
    except OSError as e:
        sys.stderr.write(f"mousehole serve: error: {e.strerror or e}\n")
        return 1
    return 0
