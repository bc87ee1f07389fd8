"""What the tests of ``mousehole serve`` share: servers on loopback (in this process, or a
``mousehole serve`` subprocess), WebSocket clients that keep every byte they receive, a
throwaway PostgreSQL cluster, and the rule for system parts (Chromium, PostgreSQL): skipped
with the reason where they are missing, failed where ``MOUSEHOLE_REQUIRE`` names them (CI)."""

from __future__ import annotations

import asyncio
import contextlib
import glob
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from typing import Any, AsyncIterator, Dict, Iterator, List, Optional, Tuple

import aiohttp
import pytest

from conftest import REQUIRED  # the system parts a run requires (CI: MOUSEHOLE_REQUIRE)
from mousehole.serve.hub import Config, _Bucket
from mousehole.serve.protocol import BURST, RATE
from mousehole.serve.server import start


def need(part: str, present: bool, reason: str) -> None:
    """Go on when ``part`` is here; else skip with ``reason``, or fail where it is required
    (``part`` is one of conftest's system parts: ``browser``, ``png``, ``postgres``)."""
    if present:
        return
    if part in REQUIRED:
        pytest.fail(f"{reason} (required here: MOUSEHOLE_REQUIRE={','.join(sorted(REQUIRED))})", pytrace=False)
    pytest.skip(reason)


# --------------------------------------------------------------------------------------
# servers


@contextlib.asynccontextmanager
async def served(folder: str, **options: Any) -> AsyncIterator[Tuple[Any, str]]:
    """A server in this process on a free loopback port, with a SQLite file in ``folder``
    unless ``db`` is given: ``(hub, url)``."""
    options.setdefault("db", os.path.join(folder, "serve.db"))
    runner, hub, url = await start(Config(**options), "127.0.0.1", 0)
    try:
        yield hub, url
    finally:
        await runner.cleanup()


class ServerProcess:
    """``python -m mousehole serve`` on a free port, as a child process."""

    def __init__(self, db: str, *args: str) -> None:
        # its log goes to a file (a pipe nobody reads would fill and stop the server)
        self.log = tempfile.NamedTemporaryFile(mode="w+", prefix="mousehole-serve-", suffix=".log")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "mousehole", "serve", "--port", "0", "--db", db, *args],
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
        )
        assert self.proc.stdout is not None
        import select

        ready, _, _ = select.select([self.proc.stdout], [], [], 120.0)
        line = self.proc.stdout.readline() if ready else "(nothing within 120 s)"
        found = re.search(r"(http://\S+/)", line)
        if found is None:
            self.proc.kill()
            raise AssertionError(f"the server did not start: {line!r} {self.stderr()}")
        self.url = found.group(1)

    def stderr(self) -> str:
        """What the server wrote to its standard error (its log) so far."""
        self.log.seek(0)
        return str(self.log.read())

    def kill(self, sig: int = signal.SIGKILL) -> None:
        self.proc.send_signal(sig)
        self.proc.wait(timeout=30)

    def __enter__(self) -> "ServerProcess":
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.proc.poll() is None:
            self.kill()


def post_table(url: str, table: Dict[str, Any]) -> Dict[str, Any]:
    """Create a table by the lobby's API (blocking)."""
    req = urllib.request.Request(
        url + "api/tables", data=json.dumps(table).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(req, timeout=30) as resp:
        made: Dict[str, Any] = json.loads(resp.read())
    return made


async def create(session: aiohttp.ClientSession, url: str, table: Dict[str, Any]) -> Dict[str, Any]:
    async with session.post(url + "api/tables", json=table) as r:
        body: Dict[str, Any] = await r.json()
        assert r.status == 201, body
        return body


# --------------------------------------------------------------------------------------
# clients


class Client:
    """A WebSocket client of one link that keeps every frame it receives (``frames``, the
    exact text) and the latest ``state``."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, token: str) -> None:
        self.ws = ws
        self.token = token
        self.frames: List[str] = []
        self.welcome: Dict[str, Any] = {}
        self.state: Dict[str, Any] = {}
        self.errors: List[Dict[str, Any]] = []
        self.events: List[Dict[str, Any]] = []
        self.closed = False
        # moves are paced within the server's rate (a person's client never comes near it; a
        # scripted one playing a whole game at once would be cut off as too fast)
        self._pace = _Bucket(BURST // 2, 1.0 / (RATE * 0.9))

    @classmethod
    async def join(cls, session: aiohttp.ClientSession, url: str, table: str, token: str, **hello: Any) -> "Client":
        ws = await session.ws_connect(url + f"ws/{table}")
        c = cls(ws, token)
        await ws.send_json({"type": "hello", "token": token, **hello})
        msg = await c.receive()
        assert msg is not None and msg["type"] == "welcome", msg
        c.welcome = msg
        await c.next_state()
        return c

    async def receive(self, timeout: float = 60.0) -> Optional[Dict[str, Any]]:
        """The next frame (None once the connection is closed)."""
        msg = await self.ws.receive(timeout=timeout)
        if msg.type != aiohttp.WSMsgType.TEXT:
            self.closed = True
            return None
        self.frames.append(msg.data)
        body: Dict[str, Any] = json.loads(msg.data)
        if body["type"] == "state":
            self.state = body
            seen = {e["n"] for e in self.events}
            self.events += [e for e in body["events"] if e["n"] not in seen]
        elif body["type"] == "error":
            self.errors.append(body)
        elif body["type"] == "welcome":
            self.welcome = body
        return body

    async def next_state(self, timeout: float = 60.0) -> Dict[str, Any]:
        while True:
            msg = await self.receive(timeout)
            assert msg is not None, "the connection closed"
            if msg["type"] == "state":
                return msg

    async def next_error(self, timeout: float = 30.0) -> Dict[str, Any]:
        """Read frames until the next error frame."""
        count = len(self.errors)
        while len(self.errors) == count:
            msg = await self.receive(timeout)
            assert msg is not None, "the connection closed"
        return self.errors[-1]

    async def until(self, pred: Any, timeout: float = 120.0) -> Dict[str, Any]:
        """Read frames until the latest state satisfies ``pred``."""
        end = time.monotonic() + timeout
        while not (self.state and pred(self.state)):
            await self.next_state(max(0.1, end - time.monotonic()))
        return self.state

    async def reach(self, seq: int, timeout: float = 120.0) -> Dict[str, Any]:
        """Read frames until the latest state's ``seq`` is at least ``seq``."""
        return await self.until(lambda st: st["seq"] >= seq, timeout)

    async def send(self, msg: Any) -> None:
        await self.ws.send_str(msg if isinstance(msg, str) else json.dumps(msg))

    async def move(self, action: int, turn: Optional[int] = None) -> None:
        """Send a move, waiting first if it would go beyond 90% of the server's rate."""
        while not self._pace.take():
            await asyncio.sleep(self._pace.every)
        await self.send({"type": "move", "turn": self.state["turn"] if turn is None else turn, "action": action})

    @property
    def to_act(self) -> bool:
        return bool(self.state.get("legal"))


async def play_out(clients: List[Client], rng: random.Random, *, timeout: float = 300.0, choose: Any = None) -> None:
    """Play the clients' seats to the end: each seat, when it has legal moves, plays one
    (``choose(client)`` or a random one) once per turn; every client reads until it sees the
    result."""
    end = time.monotonic() + timeout

    async def seat(c: Client) -> None:
        played = -1
        while not c.state.get("result") and c.state.get("status") == "open":
            if c.to_act and c.state["turn"] != played:
                played = c.state["turn"]
                action = choose(c) if choose is not None else rng.choice(c.state["legal"])[0]
                await c.move(action)
            await c.next_state(max(0.1, end - time.monotonic()))

    await asyncio.gather(*(seat(c) for c in clients))


# --------------------------------------------------------------------------------------
# PostgreSQL


def _pg_bin(name: str) -> Optional[str]:
    found = shutil.which(name)
    if found:
        return found
    for path in sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True):
        return path
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def postgres_cluster() -> Iterator[str]:
    """A PostgreSQL URL: ``MOUSEHOLE_TEST_POSTGRES_URL`` when set (a server CI started), else
    a throwaway cluster (initdb into a temporary folder, started on a free loopback port,
    removed afterwards; as the ``postgres`` user when this runs as root)."""
    given = os.environ.get("MOUSEHOLE_TEST_POSTGRES_URL")
    if given:
        yield given
        return
    initdb, pg_ctl = _pg_bin("initdb"), _pg_bin("pg_ctl")
    need(
        "postgres", bool(initdb and pg_ctl), "needs PostgreSQL's initdb and pg_ctl (Debian: apt-get install postgresql)"
    )
    assert initdb is not None and pg_ctl is not None
    folder = tempfile.mkdtemp(prefix="mousehole-pg-")
    preexec = None
    if os.geteuid() == 0:  # PostgreSQL will not run as root: as the postgres user
        import pwd

        try:
            user = pwd.getpwnam("postgres")
        except KeyError:
            need("postgres", False, "runs as root and there is no postgres user to start PostgreSQL as")
            raise
        os.chown(folder, user.pw_uid, user.pw_gid)

        def preexec() -> None:
            os.setgid(user.pw_gid)
            os.setuid(user.pw_uid)

    data = os.path.join(folder, "data")
    port = _free_port()
    env = dict(os.environ, LC_ALL="C")
    subprocess.run(
        [initdb, "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8"],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        preexec_fn=preexec,
        env=env,
        timeout=120,
    )
    opts = f"-c listen_addresses=127.0.0.1 -p {port} -k {folder} -c fsync=off -c max_connections=50"
    subprocess.run(
        [pg_ctl, "-D", data, "-o", opts, "-l", os.path.join(folder, "log"), "-w", "-t", "60", "start"],
        check=True,
        stdout=subprocess.DEVNULL,
        preexec_fn=preexec,
        env=env,
        timeout=120,
    )
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            [pg_ctl, "-D", data, "-m", "immediate", "-w", "stop"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=preexec,
            env=env,
            timeout=60,
        )
        shutil.rmtree(folder, ignore_errors=True)
