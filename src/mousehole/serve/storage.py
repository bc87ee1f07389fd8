"""Where served tables live: SQLite (a file in WAL mode, the default) or PostgreSQL (a URL,
for several server processes sharing tables).

Every write goes through one writer thread that owns the connection, and each request's
caller hears of its result only after its transaction committed: an accepted move is on disk
(SQLite ``synchronous=FULL``; PostgreSQL's default ``synchronous_commit``) before anyone is
told of it. With SQLite the requests waiting for the writer are committed together (a
*group commit*: one transaction, each request in a savepoint of its own, one ``COMMIT`` and
so one ``fsync``); with PostgreSQL each request is a transaction of its own (two server
processes then never hold row locks of several tables in one transaction), and a deadlock
or serialization failure is reported as a :class:`Conflict`, which the caller retries.

Tables (the schema, version :data:`SCHEMA_VERSION`):

* ``mh_tables``: one row per table: its spec (JSON), its seeds (secrets, decimal text), its
  status (``open``, ``finished``, ``abandoned``), the log's length ``seq``, the record of
  a game that ended (``mousehole.records`` JSON), and the lease of the process that runs
  its bots;
* ``mh_log``: the accepted entries ``(table_id, seq, seat, action)``; the primary key
  ``(table_id, seq)`` makes two processes that accept a move at the same point conflict,
  and the second one (:class:`Conflict`) reads the log again instead;
* ``mh_tokens``: the SHA-256 of each link's token with its table and seat (-1: spectator);
  the tokens themselves are never stored.

With PostgreSQL each accepted entry also sends ``NOTIFY mousehole_serve`` (delivered at
commit) so that the other server processes catch up at once; a listener thread with a
connection of its own hears them.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import queue
import sqlite3
import threading
import time
import urllib.parse
from typing import Any, Callable, List, Optional, Sequence, Tuple

from .._api import MouseholeError

__all__ = ["Store", "TableRow", "Conflict", "StorageError", "SCHEMA_VERSION", "CHANNEL", "describe_url", "MAX_BATCH"]

SCHEMA_VERSION = 1
#: the PostgreSQL notification channel of entries, new and closed tables
CHANNEL = "mousehole_serve"
#: the most requests committed together
MAX_BATCH = 256

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS mh_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS mh_tables (id TEXT PRIMARY KEY, spec TEXT NOT NULL, seed TEXT NOT NULL, "
    "bot_seed TEXT NOT NULL, status TEXT NOT NULL, created DOUBLE PRECISION NOT NULL, "
    "updated DOUBLE PRECISION NOT NULL, seq INTEGER NOT NULL, record TEXT, lease_owner TEXT, "
    "lease_until DOUBLE PRECISION NOT NULL DEFAULT 0)",
    "CREATE INDEX IF NOT EXISTS mh_tables_status ON mh_tables (status)",
    "CREATE TABLE IF NOT EXISTS mh_log (table_id TEXT NOT NULL, seq INTEGER NOT NULL, seat INTEGER NOT NULL, "
    "action INTEGER NOT NULL, at DOUBLE PRECISION NOT NULL, PRIMARY KEY (table_id, seq))",
    "CREATE TABLE IF NOT EXISTS mh_tokens (hash TEXT PRIMARY KEY, table_id TEXT NOT NULL, seat INTEGER NOT NULL)",
)


#: PostgreSQL's errors that another transaction caused and a retry may not meet again
_RETRY = ("DeadlockDetected", "SerializationFailure", "LockNotAvailable")


class StorageError(MouseholeError):
    """The database could not be reached or refused a request."""


class Conflict(Exception):
    """Another server process wrote this entry (or this id) first, or its transaction
    collided with this one: read again and retry."""


@dataclasses.dataclass(frozen=True)
class TableRow:
    """A row of ``mh_tables`` (without its record)."""

    id: str
    spec: str
    seed: int
    bot_seed: int
    status: str
    created: float
    updated: float
    seq: int


_ROW = "id, spec, seed, bot_seed, status, created, updated, seq"


def _row(r: Sequence[Any]) -> TableRow:
    return TableRow(str(r[0]), str(r[1]), int(r[2]), int(r[3]), str(r[4]), float(r[5]), float(r[6]), int(r[7]))


def describe_url(url: str) -> str:
    """The database URL for messages, without its password."""
    parts = urllib.parse.urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
    return urllib.parse.urlunsplit(parts._replace(netloc=netloc))


class _Db:
    """One connection (owned by one thread) and the SQL dialect of its database."""

    kind = ""
    integrity: Tuple[type, ...] = ()

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        raise NotImplementedError

    def notify(self, payload: str) -> None:
        """Tell the other server processes (delivered at commit; nothing for SQLite)."""

    def close(self) -> None:
        raise NotImplementedError


class _SQLite(_Db):
    kind = "sqlite"
    integrity = (sqlite3.IntegrityError,)

    def __init__(self, path: str) -> None:
        self.conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=30.0)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=FULL")

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self.conn.execute(sql, tuple(params))

    def close(self) -> None:
        self.conn.close()


class _Postgres(_Db):
    kind = "postgresql"

    def __init__(self, url: str) -> None:
        import psycopg

        self.integrity = (psycopg.errors.IntegrityError,)
        self.conn = psycopg.connect(url, autocommit=True, connect_timeout=10)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self.conn.execute(sql.replace("?", "%s"), tuple(params))

    def notify(self, payload: str) -> None:
        self.conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))

    def close(self) -> None:
        self.conn.close()


def _is_postgres(url: str) -> bool:
    return url.startswith(("postgresql://", "postgres://"))


def _connect(url: str) -> _Db:
    if _is_postgres(url):
        try:
            return _Postgres(url)
        except ImportError:
            raise StorageError(
                "a PostgreSQL URL needs psycopg: pip install 'psycopg[binary]' (the serve extra)"
            ) from None
        except Exception as e:  # noqa: BLE001  (psycopg's OperationalError and kin)
            raise StorageError(f"cannot connect to {describe_url(url)}: {str(e).strip()[:200]}") from None
    path = (
        url[len("sqlite:///") :]
        if url.startswith("sqlite:///")
        else url[len("sqlite:") :]
        if url.startswith("sqlite:")
        else url
    )
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise StorageError(f"cannot open the database {path}: the folder {folder} does not exist")
    try:
        return _SQLite(path)
    except sqlite3.Error as e:
        raise StorageError(f"cannot open the database {path}: {e}") from None


_Request = Tuple[Callable[[_Db], Any], "asyncio.Future[Any]"]


class Store:
    """The database of a server: :meth:`open` it, ``await`` its requests from the event loop
    (each runs in the writer thread and resolves after its commit), :meth:`close` it.

    ``on_notify(payload)`` is called on the event loop for each notification of another
    process (PostgreSQL only): ``"<table id> <seq>"`` after an entry, ``"<table id> new"``,
    ``"<table id> closed"``, and ``"*"`` after the listener had to reconnect (something may
    have been missed: read everything again)."""

    def __init__(self, url: str, *, on_notify: Optional[Callable[[str], None]] = None) -> None:
        self.url = url
        self.kind = "postgresql" if _is_postgres(url) else "sqlite"
        self.on_notify = on_notify
        self._q: "queue.Queue[Optional[_Request]]" = queue.Queue()
        self._db: Optional[_Db] = None
        self._writer: Optional[threading.Thread] = None
        self._listener: Optional[threading.Thread] = None
        self._stop = threading.Event()
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self.commits = 0  # transactions committed (a group commit counts once)

    # -- life -------------------------------------------------------------------------

    async def open(self) -> None:
        """Connect, create the schema where it is missing, start the threads."""
        self._loop = asyncio.get_running_loop()
        self._db = await self._loop.run_in_executor(None, _connect, self.url)
        self._writer = threading.Thread(target=self._write_loop, name="mousehole-serve-db", daemon=True)
        self._writer.start()
        await self.call(self._schema)
        if self.kind == "postgresql" and self.on_notify is not None:
            ready = threading.Event()
            self._listener = threading.Thread(
                target=self._listen, args=(ready,), name="mousehole-serve-listen", daemon=True
            )
            self._listener.start()
            await self._loop.run_in_executor(None, ready.wait, 15.0)

    async def close(self) -> None:
        self._stop.set()
        if self._writer is not None:
            self._q.put(None)
            await asyncio.get_running_loop().run_in_executor(None, self._writer.join, 30.0)
        if self._listener is not None:
            await asyncio.get_running_loop().run_in_executor(None, self._listener.join, 5.0)
        if self._db is not None:
            self._db.close()
            self._db = None

    @staticmethod
    def _schema(db: _Db) -> None:
        for sql in _SCHEMA:
            db.execute(sql)
        row = db.execute("SELECT value FROM mh_meta WHERE key = 'schema'").fetchone()
        if row is None:
            db.execute("INSERT INTO mh_meta (key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        elif row[0] != str(SCHEMA_VERSION):
            raise StorageError(
                f"the database holds schema version {row[0]}; this server reads version {SCHEMA_VERSION}"
            )

    # -- the writer thread ------------------------------------------------------------

    def call(self, fn: Callable[[_Db], Any]) -> "asyncio.Future[Any]":
        """Run ``fn(db)`` in the writer thread, in a savepoint of the next transaction; the
        future resolves after the commit (:class:`Conflict` when ``fn`` broke a unique key,
        :class:`StorageError` when the database failed)."""
        assert self._loop is not None, "Store.open() first"
        fut: "asyncio.Future[Any]" = self._loop.create_future()
        self._q.put((fn, fut))
        return fut

    def _write_loop(self) -> None:
        while True:
            item = self._q.get()
            if item is None:
                return
            batch = [item]
            last = False
            # SQLite: group commits (one fsync for many requests). PostgreSQL: one request a
            # transaction, so that two processes never hold row locks of several tables in
            # one transaction (which could deadlock).
            while len(batch) < (MAX_BATCH if self.kind == "sqlite" else 1):
                try:
                    nxt = self._q.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    last = True
                    break
                batch.append(nxt)
            self._run_batch(batch)
            if last:
                return

    def _settle(self, fut: "asyncio.Future[Any]", result: Any, error: Optional[BaseException]) -> None:
        if fut.done():
            return
        if error is not None:
            fut.set_exception(error)
        else:
            fut.set_result(result)

    def _run_batch(self, batch: List[_Request]) -> None:
        results: List[Tuple["asyncio.Future[Any]", Any, Optional[BaseException]]] = []
        try:
            db = self._db if self._db is not None else _connect(self.url)
            self._db = db
            db.execute("BEGIN")
            for fn, fut in batch:
                db.execute("SAVEPOINT mh")
                try:
                    r = fn(db)
                except Exception as e:  # noqa: BLE001  (this request fails; the others go on)
                    db.execute("ROLLBACK TO SAVEPOINT mh")
                    retry = isinstance(e, db.integrity) or type(e).__name__ in _RETRY
                    problem: BaseException = (
                        Conflict(str(e).strip()[:200])
                        if retry
                        else e
                        if isinstance(e, StorageError)
                        else StorageError(f"{type(e).__name__}: {str(e).strip()[:200]}")
                    )
                    results.append((fut, None, problem))
                else:
                    results.append((fut, r, None))
                db.execute("RELEASE SAVEPOINT mh")
            db.execute("COMMIT")
            self.commits += 1
        except Exception as e:  # noqa: BLE001  (the connection broke, the disk is full, ...)
            failed = StorageError(f"the database failed: {type(e).__name__}: {str(e).strip()[:200]}")
            self._drop_connection()
            results = [(fut, None, failed) for _, fut in batch]
        loop = self._loop
        assert loop is not None
        for fut, r, err in results:
            try:
                loop.call_soon_threadsafe(self._settle, fut, r, err)
            except RuntimeError:  # the loop is closed: nobody waits any more
                pass

    def _drop_connection(self) -> None:
        db, self._db = self._db, None
        if db is not None:
            try:
                db.execute("ROLLBACK")
            except Exception:  # noqa: BLE001
                pass
            try:
                db.close()
            except Exception:  # noqa: BLE001
                pass

    # -- the listener thread (PostgreSQL) ----------------------------------------------

    def _listen(self, ready: threading.Event) -> None:
        import psycopg

        first = True
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True, connect_timeout=10) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    ready.set()
                    if not first:
                        self._post("*")
                    first = False
                    while not self._stop.is_set():
                        for n in conn.notifies(timeout=0.5):
                            self._post(n.payload)
            except Exception:  # noqa: BLE001  (the server went away: try again)
                ready.set()
                self._stop.wait(1.0)

    def _post(self, payload: str) -> None:
        loop, fn = self._loop, self.on_notify
        if loop is not None and fn is not None:
            try:
                loop.call_soon_threadsafe(fn, payload)
            except RuntimeError:
                pass

    # -- requests ---------------------------------------------------------------------

    async def create_table(self, row: TableRow, tokens: Sequence[Tuple[str, int]]) -> None:
        """A new table with the hashes of its links' tokens (``(hash, seat)``, seat -1 for the
        spectators)."""

        def fn(db: _Db) -> None:
            db.execute(
                f"INSERT INTO mh_tables ({_ROW}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (row.id, row.spec, str(row.seed), str(row.bot_seed), row.status, row.created, row.updated, row.seq),
            )
            for h, seat in tokens:
                db.execute("INSERT INTO mh_tokens (hash, table_id, seat) VALUES (?, ?, ?)", (h, row.id, seat))
            db.notify(f"{row.id} new")

        await self.call(fn)

    async def append(self, table_id: str, seq: int, seat: int, action: int, at: float) -> None:
        """Entry ``seq`` of a table's log; :class:`Conflict` when the log already has it."""

        def fn(db: _Db) -> None:
            db.execute(
                "INSERT INTO mh_log (table_id, seq, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                (table_id, seq, seat, action, at),
            )
            db.execute("UPDATE mh_tables SET seq = ?, updated = ? WHERE id = ? AND seq < ?", (seq, at, table_id, seq))
            db.notify(f"{table_id} {seq}")

        await self.call(fn)

    async def close_table(
        self, table_id: str, status: str, record: str, at: float, idle_before: Optional[float] = None
    ) -> bool:
        """Mark an open table ``finished`` or ``abandoned`` with its record; False when it
        was not open any more (or, with ``idle_before``, had an entry since then)."""

        def fn(db: _Db) -> bool:
            sql = "UPDATE mh_tables SET status = ?, record = ?, updated = ? WHERE id = ? AND status = 'open'"
            args: List[Any] = [status, record, at, table_id]
            if idle_before is not None:
                sql += " AND updated < ?"
                args.append(idle_before)
            done = bool(db.execute(sql, args).rowcount == 1)
            if done:
                db.notify(f"{table_id} closed")
            return done

        return bool(await self.call(fn))

    async def open_tables(self) -> List[TableRow]:
        return list(
            await self.call(
                lambda db: [
                    _row(r)
                    for r in db.execute(
                        f"SELECT {_ROW} FROM mh_tables WHERE status = 'open' ORDER BY created"
                    ).fetchall()
                ]
            )
        )

    async def table(self, table_id: str) -> Optional[TableRow]:
        def fn(db: _Db) -> Optional[TableRow]:
            r = db.execute(f"SELECT {_ROW} FROM mh_tables WHERE id = ?", (table_id,)).fetchone()
            return None if r is None else _row(r)

        result: Optional[TableRow] = await self.call(fn)
        return result

    async def log(self, table_id: str, after: int = 0) -> List[Tuple[int, int, int]]:
        """The entries ``(seq, seat, action)`` of a table's log after ``after``, in order."""
        return list(
            await self.call(
                lambda db: [
                    (int(a), int(b), int(c))
                    for a, b, c in db.execute(
                        "SELECT seq, seat, action FROM mh_log WHERE table_id = ? AND seq > ? ORDER BY seq",
                        (table_id, after),
                    ).fetchall()
                ]
            )
        )

    async def token(self, token_hash: str) -> Optional[Tuple[str, int]]:
        def fn(db: _Db) -> Optional[Tuple[str, int]]:
            r = db.execute("SELECT table_id, seat FROM mh_tokens WHERE hash = ?", (token_hash,)).fetchone()
            return None if r is None else (str(r[0]), int(r[1]))

        result: Optional[Tuple[str, int]] = await self.call(fn)
        return result

    async def take_lease(self, table_id: str, owner: str, until: float, now: float) -> bool:
        """Whether this process (``owner``) may run the table's bots until ``until``: the
        lease is free, expired or already its own. A SQLite database has one server process
        (the only one that runs bots): the lease is always its own, also right after a
        restart, when the lease of the process before it has not lapsed yet."""
        if self.kind == "sqlite":
            return True

        def fn(db: _Db) -> bool:
            return bool(
                db.execute(
                    "UPDATE mh_tables SET lease_owner = ?, lease_until = ? WHERE id = ? AND status = 'open' AND "
                    "(lease_owner IS NULL OR lease_owner = ? OR lease_until < ?)",
                    (owner, until, table_id, owner, now),
                ).rowcount
                == 1
            )

        return bool(await self.call(fn))

    async def secret(self) -> bytes:
        """The servers' shared secret (random, made once, kept in ``mh_meta``): it signs the
        short-lived replay tickets, so that any server process can check them."""
        fresh = os.urandom(32).hex()

        def fn(db: _Db) -> str:
            row = db.execute("SELECT value FROM mh_meta WHERE key = 'ticket_key'").fetchone()
            if row is not None:
                return str(row[0])
            db.execute("INSERT INTO mh_meta (key, value) VALUES ('ticket_key', ?)", (fresh,))
            return fresh

        try:
            value = await self.call(fn)
        except Conflict:  # another process made it meanwhile
            value = await self.call(fn)
        return bytes.fromhex(str(value))

    async def record(self, table_id: str) -> Optional[str]:
        def fn(db: _Db) -> Optional[str]:
            r = db.execute("SELECT record FROM mh_tables WHERE id = ?", (table_id,)).fetchone()
            return None if r is None or r[0] is None else str(r[0])

        result: Optional[str] = await self.call(fn)
        return result

    async def records(self, *, statuses: Sequence[str] = ("finished",)) -> List[Tuple[str, str]]:
        """``(table id, record)`` of every table whose status is one of ``statuses``."""
        marks = ", ".join("?" for _ in statuses)
        return list(
            await self.call(
                lambda db: [
                    (str(a), str(b))
                    for a, b in db.execute(
                        f"SELECT id, record FROM mh_tables WHERE status IN ({marks})"
                        " AND record IS NOT NULL ORDER BY created",
                        tuple(statuses),
                    ).fetchall()
                ]
            )
        )


def now() -> float:
    return time.time()
