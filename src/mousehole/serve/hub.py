"""The tables of a server process: creating them, seating links, accepting moves (durable
before anyone hears of them), running the bots off the event loop, catching up with the
other processes that share the database, and closing idle tables.

A move is accepted in four steps, under the table's lock: the table checks it
(:meth:`Table.check <mousehole.serve.tables.Table.check>`); the entry is committed to the
database (:meth:`Store.append <mousehole.serve.storage.Store.append>`); it is applied to the
position in memory; only then are the table's connections woken, each to send its seat's
(or the spectators') new snapshot. When another process wrote that entry first
(:class:`~mousehole.serve.storage.Conflict`), the table reads the log again and checks the
move once more.

Bots think in a thread pool (the compiled search releases the GIL), each move from a state
dealt from its seat's view alone, within the table's seconds per move. With several server
processes, the process holding a table's *lease* (a row in the database, renewed at every
bot move, lapsing :data:`LEASE_GRACE` seconds after the bot's time) runs its bots; when it
dies, another takes over after the lease lapses.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import hashlib
import hmac
import json
import logging
import secrets
import time
from typing import Any, Callable, Dict, List, Optional, Set, Tuple

from .._rng import derive
from .._values import ascii_digits
from .protocol import HELLO_SECONDS
from .storage import Conflict, StorageError, Store, TableRow
from .tables import Refused, Table, TableSpec
from .views import draw_picture

__all__ = ["Hub", "Config", "token_hash", "LEASE_GRACE", "IDLE_SECONDS", "TICKET_SECONDS"]

log = logging.getLogger("mousehole.serve")

#: an open table without an accepted move for this long is closed as abandoned (seconds)
IDLE_SECONDS = 24 * 3600.0
#: a bot's lease lapses this many seconds after twice its time per move
LEASE_GRACE = 15.0
#: a replay ticket is good for this many seconds
TICKET_SECONDS = 120.0
#: the events a (re)joining connection is sent first
JOIN_EVENTS = 60


def token_hash(token: str) -> str:
    """What the database keeps of a link's token: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclasses.dataclass
class Config:
    """A server's settings (``mousehole serve``'s options)."""

    db: str = "mousehole-serve.db"
    engine: Optional[str] = None
    #: the most open tables (a create beyond it is refused)
    max_tables: int = 1000
    #: close an open table after this many seconds without an accepted move
    idle_seconds: float = IDLE_SECONDS
    #: how often the sweep (idle tables, lapsed bot leases, unloading) runs, seconds
    sweep_seconds: float = 5.0
    #: threads the bots think in
    bot_threads: int = 2
    #: the most WebSocket connections at once, and from one address
    max_connections: int = 2000
    max_per_ip: int = 64
    #: tables one address may create: a burst, then one every ``create_every`` seconds
    create_burst: int = 20
    create_every: float = 10.0
    #: origins allowed to open WebSockets besides the server's own (``https://example.org``)
    allow_origins: Tuple[str, ...] = ()
    #: worker processes that draw the pictures (0: draw them on the event loop). An embedding
    #: program starts no processes unless it asks; ``mousehole serve`` asks for
    #: ``serve.cli.PICTURE_WORKERS`` (2), since a picture is the server's largest cost
    picture_workers: int = 0
    #: a bot lease lapses this many seconds after twice the bot's time (PostgreSQL: then
    #: another process may run the table's bots)
    lease_grace: float = LEASE_GRACE
    #: seconds a new WebSocket has to say hello
    hello_seconds: float = HELLO_SECONDS


class _Bucket:
    """A token bucket: ``burst`` at once, then one every ``every`` seconds."""

    def __init__(self, burst: float, every: float) -> None:
        self.burst, self.every = float(burst), float(every)
        self.level = float(burst)
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        if self.every > 0:
            self.level = min(self.burst, self.level + (now - self.at) / self.every)
        self.at = now
        if self.level >= 1.0:
            self.level -= 1.0
            return True
        return False


def _think(table: Table, view: Dict[str, Any], spec: str, seed: int) -> int:
    """A bot's move (in a worker thread): from a state dealt from its seat's view alone."""
    from ..bots import make_bot

    state = table.game.determinize_view(view, seed)
    return int(make_bot(spec, seed).step(state))


class Hub:
    """The tables of one server process (see the module's docstring). ``listeners`` are
    called with a table after every change it went through (the server wakes the table's
    connections)."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.store = Store(config.db, on_notify=self._on_notify)
        self.tables: Dict[str, Table] = {}
        self.locks: Dict[str, asyncio.Lock] = {}
        self.watchers: Dict[str, Set[Any]] = {}
        self.listeners: List[Callable[[Table], None]] = []
        self.owner = secrets.token_hex(8)
        self.bot_pool = concurrent.futures.ThreadPoolExecutor(
            max(1, config.bot_threads), thread_name_prefix="mousehole-bot"
        )
        self._thinking: Dict[Tuple[str, int], "asyncio.Future[Any]"] = {}
        self._tasks: Set["asyncio.Future[Any]"] = set()
        self._sweeper: Optional["asyncio.Task[None]"] = None
        self._creators: Dict[str, _Bucket] = {}
        self._secret = b""
        self.bot_moves = 0
        self.stopping = False
        self.picture_pool: Optional[concurrent.futures.ProcessPoolExecutor] = None
        self._pictures: Dict[str, Tuple[int, Dict[int, "asyncio.Future[str]"]]] = {}

    # -- life -------------------------------------------------------------------------

    async def start(self) -> None:
        """Open the database, load every open table (replaying its log), start the bots and
        the sweep."""
        if self.config.picture_workers > 0:
            self.picture_pool = self._picture_pool()
        await self.store.open()
        self._secret = await self.store.secret()
        for row in await self.store.open_tables():
            await self._load_row(row)
        self._sweeper = asyncio.ensure_future(self._sweep_loop())
        for table in list(self.tables.values()):
            self._schedule_bots(table)

    async def stop(self) -> None:
        self.stopping = True
        if self._sweeper is not None:
            self._sweeper.cancel()
        for task in list(self._thinking.values()) + list(self._tasks):
            task.cancel()
        self.bot_pool.shutdown(wait=False, cancel_futures=True)
        if self.picture_pool is not None:
            self.picture_pool.shutdown(wait=False, cancel_futures=True)
        await self.store.close()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def lock(self, table_id: str) -> asyncio.Lock:
        lk = self.locks.get(table_id)
        if lk is None:
            lk = self.locks[table_id] = asyncio.Lock()
        return lk

    # -- loading ----------------------------------------------------------------------

    async def _load_row(self, row: TableRow) -> Optional[Table]:
        """The table of a database row, its log replayed (None when the log does not replay:
        the table is left as it is and logged)."""
        try:
            spec = TableSpec.from_json(json.loads(row.spec))
            table = Table(row.id, spec, row.seed, row.bot_seed, created=row.created, engine=self.config.engine)
            for seq, seat, action in await self.store.log(row.id):
                if seq != table.seq + 1:
                    raise ValueError(f"entry {seq} follows entry {table.seq}")
                table.apply_entry(seat, action)
        except StorageError:
            raise
        except Exception as e:  # noqa: BLE001  (a row this server cannot read: keep the others going)
            log.error("table %s: cannot be replayed from the database: %s: %s", row.id, type(e).__name__, e)
            return None
        existing = self.tables.get(row.id)
        if existing is not None:  # one object a table: every connection and move uses the same
            return existing
        table.set_status(row.status)
        table.updated = row.updated
        self.tables[row.id] = table
        if table.status == "open" and table.over:  # the end was committed, not the record
            await self._finish(table)
        return table

    async def find(self, table_id: str) -> Optional[Table]:
        """The table ``table_id``: in memory, or loaded from the database (finished and
        abandoned tables too, to show how they ended)."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        async with self.lock(table_id):
            table = self.tables.get(table_id)
            if table is None:
                row = await self.store.table(table_id)
                if row is not None:
                    table = await self._load_row(row)
        return table

    # -- creating and joining -----------------------------------------------------------

    def may_create(self, address: str) -> bool:
        """Whether ``address`` may create a table now (its bucket is not empty)."""
        bucket = self._creators.get(address)
        if bucket is None:
            if len(self._creators) > 10_000:
                self._creators.clear()
            bucket = self._creators[address] = _Bucket(self.config.create_burst, self.config.create_every)
        return bucket.take()

    async def create(self, spec: TableSpec) -> Dict[str, Any]:
        """A new table: ``{"table": id, "seats": [{"seat", "name", "bot", "token"}],
        "spectator": token}``; a person's seat has a token, a bot's none. The tokens are
        returned once and kept only as hashes."""
        if sum(1 for t in self.tables.values() if t.status == "open") >= self.config.max_tables:
            raise Refused("full", f"this server holds its most open tables ({self.config.max_tables}); try later")
        now = time.time()
        table_id = secrets.token_urlsafe(9)
        table = Table(
            table_id, spec, secrets.randbits(64), secrets.randbits(64), created=now, engine=self.config.engine
        )
        seats: List[Dict[str, Any]] = []
        hashes: List[Tuple[str, int]] = []
        for p, seat in enumerate(spec.seats):
            token = None if seat.bot is not None else secrets.token_urlsafe(32)
            if token is not None:
                hashes.append((token_hash(token), p))
            seats.append({"seat": p, "name": seat.name, "bot": seat.bot, "token": token})
        spectator = secrets.token_urlsafe(32)
        hashes.append((token_hash(spectator), -1))
        row = TableRow(table_id, json.dumps(spec.to_json()), table.seed, table.bot_seed, "open", now, now, 0)
        async with self.lock(table_id):  # (this process's notice of the new table waits for it)
            await self.store.create_table(row, hashes)
            self.tables[table_id] = table
        self._schedule_bots(table)
        return {"table": table_id, "seats": seats, "spectator": spectator}

    async def join(self, table_id: str, token: str) -> Tuple[Table, Optional[int]]:
        """The table and seat (None: a spectator) of a link's token, or :class:`Refused`: a
        token unknown here, or one of another table."""
        found = await self.store.token(token_hash(token))
        if found is None or not hmac.compare_digest(found[0], table_id):
            raise Refused("bad-token", "this link is not a seat or spectator link of this table")
        table = await self.find(table_id)
        if table is None:
            raise Refused("bad-token", "this table is not on this server")
        return table, (None if found[1] < 0 else found[1])

    # -- moves ------------------------------------------------------------------------

    async def move(self, table: Table, seat: Optional[int], turn: Any, *, action: Any = None, text: Any = None) -> None:
        """Accept seat ``seat``'s move (see the module's docstring), or raise
        :class:`Refused` with the table unchanged (but for the entries of other processes it
        read meanwhile: those are announced either way)."""
        seq = table.seq
        try:
            async with self.lock(table.id):
                for _ in range(4):
                    a = table.check(seat, turn, action, text)
                    assert seat is not None  # (check refuses spectators)
                    at = time.time()
                    try:
                        await self.store.append(table.id, table.seq + 1, seat, a, at)
                    except Conflict:  # another process wrote this entry: read the log, check again
                        await self._catch_up(table)
                        continue
                    except StorageError as e:
                        log.error("table %s: %s", table.id, e)
                        raise Refused("storage", "the server could not store the move; try again") from None
                    table.apply_entry(seat, a)
                    table.updated = at
                    break
                else:
                    raise Refused("busy", "the table is busy; try again")
                if table.over:
                    await self._finish(table)
        finally:
            if table.seq != seq:
                self._changed(table)

    async def _catch_up(self, table: Table) -> bool:
        """Apply the log's entries this process has not seen (the lock held); True when
        there were some."""
        rows = await self.store.log(table.id, table.seq)
        for seq, seat, action in rows:
            if seq != table.seq + 1:
                break
            table.apply_entry(seat, action)
            table.updated = time.time()
        return bool(rows)

    async def _finish(self, table: Table) -> None:
        """Keep the record of a game that ended (the lock held)."""
        try:
            await self.store.close_table(table.id, "finished", table.record_text(), time.time())
        except StorageError as e:  # the next start finishes it (the end is in the log)
            log.error("table %s: the record was not stored: %s", table.id, e)
            return
        table.set_status("finished")

    def _changed(self, table: Table) -> None:
        for fn in self.listeners:
            fn(table)
        self._schedule_bots(table)

    # -- pictures ---------------------------------------------------------------------

    def _picture_pool(self) -> concurrent.futures.ProcessPoolExecutor:
        import multiprocessing

        return concurrent.futures.ProcessPoolExecutor(
            self.config.picture_workers, mp_context=multiprocessing.get_context("spawn")
        )

    async def picture(self, table: Table, audience: int) -> str:
        """``audience``'s picture of the table now (SVG), drawn once per change of the table
        (in a worker process when there are some: drawing is a server's largest cost)."""
        entry = self._pictures.get(table.id)
        if entry is None or entry[0] != table.seq:
            entry = self._pictures[table.id] = (table.seq, {})
        fut = entry[1].get(audience)
        if fut is None:
            args = table.picture_args(audience)
            if self.picture_pool is None:
                fut = asyncio.get_running_loop().create_future()
                fut.set_result(draw_picture(*args))
            else:
                try:
                    fut = asyncio.wrap_future(self.picture_pool.submit(draw_picture, *args))
                except concurrent.futures.BrokenExecutor:  # a worker died: a new pool
                    self.picture_pool = self._picture_pool()
                    fut = asyncio.wrap_future(self.picture_pool.submit(draw_picture, *args))
            entry[1][audience] = fut
        return str(await asyncio.shield(fut))

    # -- bots -------------------------------------------------------------------------

    def _schedule_bots(self, table: Table) -> None:
        if self.stopping or table.status != "open" or table.over:
            return
        for seat in table.decisions():
            if table.spec.seats[seat].bot is None or (table.id, seat) in self._thinking:
                continue
            self._thinking[(table.id, seat)] = asyncio.ensure_future(self._bot_turn(table, seat))

    async def _bot_turn(self, table: Table, seat: int) -> None:
        key = (table.id, seat)
        try:
            seconds = table.spec.seconds
            now = time.time()
            until = now + 2 * seconds + self.config.lease_grace
            if not await self.store.take_lease(table.id, self.owner, until, now):
                return  # another process runs this table's bots (the sweep looks again)
            decisions = table.decisions()
            if seat not in decisions or table.status != "open":
                return
            turn = table.turns[seat]
            view = decisions[seat].to_dict(for_player=seat)
            spec = str(table.spec.seats[seat].bot)
            seed = derive(derive(table.bot_seed, seat), turn)
            loop = asyncio.get_running_loop()
            action = await loop.run_in_executor(self.bot_pool, _think, table, view, spec, seed)
            self.bot_moves += 1
            try:
                await self.move(table, seat, turn, action=action)
            except Refused as e:  # the table moved on meanwhile (another process): think again
                log.info("table %s: seat %d's bot move was refused: %s", table.id, seat, e.message)
        except asyncio.CancelledError:
            raise
        except StorageError as e:
            log.error("table %s: bot of seat %d: %s", table.id, seat, e)
        except Exception:  # noqa: BLE001  (a bot that failed: log it, the sweep tries again)
            log.exception("table %s: bot of seat %d failed", table.id, seat)
        finally:
            if self._thinking.get(key) is asyncio.current_task():
                del self._thinking[key]
        if not self.stopping:
            self._schedule_bots(table)

    # -- other processes --------------------------------------------------------------

    def _on_notify(self, payload: str) -> None:
        table_id, _, what = payload.partition(" ")
        if payload == "*":
            self._spawn(self._sync_all())
        elif what == "new":
            if table_id not in self.tables:
                self._spawn(self.find(table_id))
        elif table_id in self.tables:
            self._spawn(self._sync(table_id))

    async def _sync(self, table_id: str) -> None:
        table = self.tables.get(table_id)
        if table is None:
            return
        async with self.lock(table_id):
            moved = await self._catch_up(table)
            row = await self.store.table(table_id)
            closed = row is not None and row.status != table.status
            if closed and row is not None:
                table.set_status(row.status)
        if moved or closed:
            self._changed(table)

    async def _sync_all(self) -> None:
        for row in await self.store.open_tables():
            if row.id not in self.tables:
                await self.find(row.id)
        for table_id in list(self.tables):
            await self._sync(table_id)

    # -- the sweep --------------------------------------------------------------------

    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(self.config.sweep_seconds)
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001
                log.exception("the sweep failed")

    async def sweep(self) -> None:
        """Close the idle tables (abandoned, their record kept), unload closed tables nobody
        watches, and start the bots whose lease has lapsed elsewhere."""
        now = time.time()
        for table in list(self.tables.values()):
            if table.status == "open" and now - table.updated > self.config.idle_seconds:
                async with self.lock(table.id):
                    done = await self.store.close_table(
                        table.id, "abandoned", table.record_text(), now, idle_before=now - self.config.idle_seconds
                    )
                    if done:
                        table.set_status("abandoned")
                if done:
                    log.info("table %s: closed after %.0f s without a move", table.id, now - table.updated)
                    self._changed(table)
                else:
                    await self._sync(table.id)
            if table.status != "open" and not self.watchers.get(table.id):
                self.tables.pop(table.id, None)
                self.locks.pop(table.id, None)
                self._pictures.pop(table.id, None)
            elif table.status == "open":
                self._schedule_bots(table)

    # -- replay tickets ---------------------------------------------------------------

    def ticket(self, table: Table, seat: int) -> str:
        """A ticket for seat ``seat``'s replay page of ``table``, good for
        :data:`TICKET_SECONDS` in any process of this database (signed with its secret)."""
        expires = int(time.time() + TICKET_SECONDS)
        body = f"{table.id}.{seat}.{expires}"
        mac = hmac.new(self._secret, body.encode(), hashlib.sha256).hexdigest()[:32]
        return f"{body}.{mac}"

    def read_ticket(self, ticket: str) -> Optional[Tuple[str, int]]:
        """``(table id, seat)`` of a good ticket, None for anything else."""
        parts = ticket.split(".")
        if len(parts) != 4 or len(ticket) > 120:
            return None
        table_id, seat, expires, mac = parts
        body = f"{table_id}.{seat}.{expires}"
        good = hmac.new(self._secret, body.encode(), hashlib.sha256).hexdigest()[:32]
        digits = ascii_digits(seat) and ascii_digits(expires)
        if not hmac.compare_digest(good, mac) or not digits:
            return None
        if int(expires) < time.time():
            return None
        return table_id, int(seat)
