"""The HTTP and WebSocket server of ``mousehole serve`` (aiohttp).

Routes:

* ``GET /``: the lobby page (create a table, get its links);
* ``GET /t/<table id>``: the table page (the browser client); the link's token is the URL's
  fragment (``#...``), which browsers never send to a server, and goes to the server only
  inside the WebSocket's ``hello``;
* ``GET /static/<file>``: the client's script and style sheet;
* ``GET /api/games``, ``POST /api/tables``: the games a table may have; create a table
  (JSON, see :meth:`TableSpec.parse <mousehole.serve.tables.TableSpec.parse>`);
* ``GET /ws/<table id>``: the WebSocket (:mod:`mousehole.serve.protocol`);
* ``GET /replay/<ticket>``: a seat's replay page (``mousehole.replay``), for a ticket the
  WebSocket gave that seat.

Every response carries a Content-Security-Policy that allows only the server's own scripts
(the replay page: its own inline script, by hash), no framing, and no referrer.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import logging
import re
import urllib.parse
from importlib import resources
from typing import Any, Awaitable, Callable, Dict, Optional, Tuple

from aiohttp import WSMsgType, web

from .. import game_names, load
from .hub import JOIN_EVENTS, Config, Hub, _Bucket
from .protocol import (
    BURST,
    MAX_ERRORS,
    MAX_MESSAGE_BYTES,
    PROTOCOL,
    RATE,
    SEND_SECONDS,
    TABLE_ID_RE,
    error_frame,
    parse,
    seat_of,
)
from .tables import DEFAULT_SECONDS, LEVELS, MAX_SECONDS, MIN_SECONDS, Refused, Table, TableSpec

__all__ = ["make_app", "start", "run", "MAX_BODY_BYTES"]

log = logging.getLogger("mousehole.serve")

#: the largest HTTP request body (a new table's JSON)
MAX_BODY_BYTES = 16 * 1024
_STATIC = {
    "client.js": "text/javascript",
    "lobby.js": "text/javascript",
    "style.css": "text/css",
    "table.html": "text/html",
    "index.html": "text/html",
}
_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
_HUB = web.AppKey("hub", Hub)
_FILES = web.AppKey("files", dict)


def _static_files() -> Dict[str, bytes]:
    folder = resources.files("mousehole.serve").joinpath("static")
    return {name: folder.joinpath(name).read_bytes() for name in _STATIC}


@web.middleware
async def _headers(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    resp = await handler(request)
    resp.headers.setdefault("Content-Security-Policy", _CSP)
    resp.headers["X-Content-Type-Options"] = "nosniff"
    resp.headers["Referrer-Policy"] = "no-referrer"
    resp.headers["X-Frame-Options"] = "DENY"
    resp.headers.setdefault("Cache-Control", "no-store")
    return resp


def _address(request: web.Request) -> str:
    return str(request.remote or "?")


def _origin_ok(request: web.Request, config: Config) -> bool:
    """A request without an Origin (not from a browser) or from the server's own origin (its
    host and port as the browser asked for them), or from an origin allowed by
    ``--allow-origin``. A page elsewhere cannot open a WebSocket or create tables here."""
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    if origin in config.allow_origins:
        return True
    host = urllib.parse.urlsplit(origin).netloc
    return bool(host) and host == request.headers.get("Host")


# --------------------------------------------------------------------------------------
# pages and the lobby's API


async def _file(request: web.Request) -> web.Response:
    name = request.match_info.get("name", "index.html")
    files: Dict[str, bytes] = request.app[_FILES]
    if name not in files:
        raise web.HTTPNotFound()
    return web.Response(
        body=files[name], content_type=_STATIC[name], charset="utf-8", headers={"Cache-Control": "no-cache"}
    )


async def _table_page(request: web.Request) -> web.Response:
    if not TABLE_ID_RE.match(request.match_info["table"]):
        raise web.HTTPNotFound()
    files: Dict[str, bytes] = request.app[_FILES]
    return web.Response(body=files["table.html"], content_type="text/html", charset="utf-8")


def games_info() -> Dict[str, Any]:
    """What the lobby offers: each game with its player counts and readings, the bot
    levels and the bots' seconds per move."""
    games = []
    for name in game_names():
        cls = type(load(name, engine="python"))
        games.append(
            {
                "id": name,
                "title": cls.title,
                "min_players": cls.min_players,
                "max_players": cls.max_players,
                "readings": [
                    {"param": r.param, "values": list(r.values), "default": r.default, "meaning": list(r.meaning)}
                    for r in cls.READINGS
                ],
            }
        )
    return {
        "games": games,
        "levels": list(LEVELS),
        "seconds": {"default": DEFAULT_SECONDS, "min": MIN_SECONDS, "max": MAX_SECONDS},
    }


async def _games(request: web.Request) -> web.Response:
    return web.json_response(games_info())


def _json_error(status: int, code: str, message: str) -> web.Response:
    return web.json_response({"error": code, "message": message}, status=status)


async def _create(request: web.Request) -> web.Response:
    hub: Hub = request.app[_HUB]
    if not _origin_ok(request, hub.config):
        return _json_error(403, "origin", "tables are created from this server's own pages")
    if request.content_type != "application/json":
        return _json_error(415, "bad-table", "send the table as application/json")
    if not hub.may_create(_address(request)):
        return _json_error(429, "rate", "too many tables from this address; wait a little")
    try:
        body = await request.read()
        data = json.loads(body.decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError):
        return _json_error(400, "bad-table", "the body is not JSON")
    try:
        spec = TableSpec.parse(data)
        made = await hub.create(spec)
    except Refused as e:
        return _json_error(503 if e.code == "full" else 400, e.code, e.message)
    base = f"/t/{made['table']}"
    for seat in made["seats"]:
        seat["link"] = None if seat["token"] is None else f"{base}#{seat['token']}"
    made["spectator_link"] = f"{base}#{made['spectator']}"
    return web.json_response(made, status=201)


def _script_hashes(page: str) -> str:
    found = re.findall(r"<script>(.*?)</script>", page, flags=re.S)
    return " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(s.encode("utf-8")).digest()).decode() + "'" for s in found
    )


def _replay_html(record_text: str, seat: int) -> str:
    from ..records import loads
    from ..replay import html
    from .tables import REPLAY_MAX_BYTES

    return html(loads(record_text), for_player=seat, max_bytes=REPLAY_MAX_BYTES)


_REPLAY_SLOTS = web.AppKey("replays", asyncio.Semaphore)


async def _replay(request: web.Request) -> web.Response:
    hub: Hub = request.app[_HUB]
    found = hub.read_ticket(request.match_info["ticket"])
    if found is None:
        return web.Response(status=404, text="this replay link has expired: ask the table page for a new one")
    table = await hub.find(found[0])
    if table is None:
        raise web.HTTPNotFound()
    text = table.record_text(date=None)  # (read on the loop: the state is the loop's)
    async with request.app[_REPLAY_SLOTS]:
        try:
            page = await asyncio.get_running_loop().run_in_executor(None, _replay_html, text, found[1])
        except ValueError as e:
            return web.Response(status=413, text=f"no replay page: {str(e)[:200]}")
    csp = (
        f"default-src 'none'; script-src {_script_hashes(page)}; style-src 'unsafe-inline'; img-src data:; "
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    )
    return web.Response(text=page, content_type="text/html", headers={"Content-Security-Policy": csp})


# --------------------------------------------------------------------------------------
# the WebSocket


class _Conn:
    """One WebSocket: its table and seat once it said hello, its rate and errors, and a
    writer task that sends the latest state whenever the table changed."""

    def __init__(self, ws: web.WebSocketResponse, address: str, hub: Hub) -> None:
        self.ws = ws
        self.hub = hub
        self.address = address
        self.table: Optional[Table] = None
        self.seat: Optional[int] = None
        self.audience = 0
        self.bucket = _Bucket(BURST, 1.0 / RATE)
        self.errors = 0
        self.wake = asyncio.Event()
        self.last_event = 0
        self.sent: Tuple[int, str] = (-1, "")
        self.send_lock = asyncio.Lock()
        self.writer: Optional["asyncio.Task[None]"] = None

    async def send(self, text: str) -> None:
        async with self.send_lock:
            await asyncio.wait_for(self.ws.send_str(text), SEND_SECONDS)

    async def error(self, code: str, message: str) -> None:
        """One error frame; the connection is closed after MAX_ERRORS of them."""
        self.errors += 1
        await self.send(error_frame(code, message))
        if self.errors >= MAX_ERRORS:
            await self.ws.close(code=1008, message=b"too many errors")

    async def frame(self) -> Optional[str]:
        """The state frame to send now, or None when nothing changed since the last one.
        Everything but the picture is read at once (one moment of the table); the picture
        of that moment is awaited last."""
        table = self.table
        assert table is not None
        events = table.events_since(self.audience, self.last_event)
        key = (table.seq, table.status)
        if key == self.sent and not events:
            return None
        body = table.snapshot(self.audience)
        body["type"] = "state"
        body["events"] = events
        self.sent = key
        if events:
            self.last_event = events[-1]["n"]
        try:
            body["picture"] = await self.hub.picture(table, self.audience)
        except Exception:  # noqa: BLE001  (no picture this time; the moves still go out)
            log.exception("table %s: the picture of audience %d failed", table.id, self.audience)
            body["picture"] = ""
        return json.dumps(body)

    async def write_loop(self) -> None:
        try:
            while not self.ws.closed:
                text = await self.frame()
                if text is not None:
                    await self.send(text)
                await self.wake.wait()
                self.wake.clear()
        except (asyncio.TimeoutError, ConnectionError, RuntimeError):
            await self.ws.close(code=1008, message=b"too slow")


class _Server:
    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.conns: Dict[str, int] = {}
        self.total = 0
        hub.listeners.append(self._changed)

    def _changed(self, table: Table) -> None:
        for conn in self.hub.watchers.get(table.id, ()):
            conn.wake.set()

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        hub, config = self.hub, self.hub.config
        table_id = request.match_info["table"]
        if not TABLE_ID_RE.match(table_id):
            raise web.HTTPNotFound()
        if not _origin_ok(request, config):
            return web.Response(status=403, text="WebSocket from another origin refused")
        address = _address(request)
        if self.total >= config.max_connections or self.conns.get(address, 0) >= config.max_per_ip:
            return web.Response(status=503, text="too many connections")
        ws = web.WebSocketResponse(max_msg_size=MAX_MESSAGE_BYTES, heartbeat=30.0, compress=False)
        await ws.prepare(request)
        conn = _Conn(ws, address, hub)
        self.total += 1
        self.conns[address] = self.conns.get(address, 0) + 1
        try:
            if await self._hello(conn, table_id):
                await self._serve(conn)
        except (ConnectionError, asyncio.TimeoutError, RuntimeError):
            pass
        finally:
            self.total -= 1
            self.conns[address] -= 1
            if not self.conns[address]:
                del self.conns[address]
            if conn.table is not None:
                watchers = hub.watchers.get(conn.table.id)
                if watchers is not None:
                    watchers.discard(conn)
                    if not watchers:
                        del hub.watchers[conn.table.id]
            if conn.writer is not None:
                conn.writer.cancel()
            await ws.close()
        return ws

    async def _hello(self, conn: _Conn, table_id: str) -> bool:
        try:
            msg = await conn.ws.receive(timeout=self.hub.config.hello_seconds)
        except asyncio.TimeoutError:
            await conn.send(error_frame("hello", f"say hello within {self.hub.config.hello_seconds:g} seconds"))
            await conn.ws.close(code=1008, message=b"no hello")
            return False
        if msg.type != WSMsgType.TEXT:
            if msg.type == WSMsgType.BINARY:
                await conn.send(error_frame("bad-message", "the first message is a hello (JSON text)"))
                await conn.ws.close(code=1008, message=b"no hello")
            return False
        try:
            hello = parse(str(msg.data))
            if hello["type"] != "hello":
                raise Refused("hello", "the first message is a hello")
            table, seat = await self.hub.join(table_id, hello["token"])
            asked = seat_of(hello)
            if asked is not None and asked != seat:
                raise Refused("bad-token", "this link is not that seat's")
        except Refused as e:
            await conn.send(error_frame(e.code, e.message))
            await conn.ws.close(code=1008, message=b"refused")
            return False
        conn.table, conn.seat = table, seat
        conn.audience = table.n if seat is None else seat
        conn.last_event = max(0, table.log_count - JOIN_EVENTS)
        self.hub.watchers.setdefault(table.id, set()).add(conn)
        spec = table.spec
        await conn.send(
            json.dumps(
                {
                    "type": "welcome",
                    "protocol": PROTOCOL,
                    "table": table.id,
                    "game": spec.game,
                    "title": table.game.title,
                    "players": table.n,
                    "seat": seat,
                    "seconds": spec.seconds,
                    "readings": {r.param: table.game.params[r.param] for r in type(table.game).READINGS},
                    "seats": [{"name": s.name, "bot": s.bot} for s in spec.seats],
                    "labels": table.labels,
                }
            )
        )
        conn.writer = asyncio.ensure_future(conn.write_loop())
        return True

    async def _serve(self, conn: _Conn) -> None:
        ws = conn.ws
        async for msg in ws:
            if not conn.bucket.take():
                await conn.send(error_frame("rate", f"at most {RATE:g} messages a second"))
                await ws.close(code=1008, message=b"too fast")
                return
            if msg.type == WSMsgType.TEXT:
                await self._message(conn, str(msg.data))
            elif msg.type == WSMsgType.BINARY:
                await conn.error("bad-message", "messages are JSON text frames")
            else:  # an error (a frame too large: aiohttp closes with 1009)
                return

    async def _message(self, conn: _Conn, text: str) -> None:
        table = conn.table
        assert table is not None
        try:
            msg = parse(text)
            kind = msg["type"]
            if kind == "move":
                await self.hub.move(table, conn.seat, msg["turn"], action=msg.get("action"), text=msg.get("text"))
            elif kind == "ping":
                await conn.send('{"type": "pong"}')
            elif kind == "replay":
                if conn.seat is None:
                    raise Refused("spectator", "a replay shows a seat's view: open it from a seat's link")
                await conn.send(json.dumps({"type": "replay", "url": f"/replay/{self.hub.ticket(table, conn.seat)}"}))
            else:
                raise Refused("hello", "already said hello")
        except Refused as e:
            await conn.error(e.code, e.message)


# --------------------------------------------------------------------------------------
# the application


def make_app(hub: Hub) -> web.Application:
    """The aiohttp application of a hub (started and stopped with the application)."""
    app = web.Application(client_max_size=MAX_BODY_BYTES, middlewares=[_headers])
    app[_HUB] = hub
    app[_FILES] = _static_files()
    app[_REPLAY_SLOTS] = asyncio.Semaphore(2)
    server = _Server(hub)
    app.router.add_get("/", _file)
    app.router.add_get("/static/{name}", _file)
    app.router.add_get("/t/{table}", _table_page)
    app.router.add_get("/api/games", _games)
    app.router.add_post("/api/tables", _create)
    app.router.add_get("/ws/{table}", server.websocket)
    app.router.add_get("/replay/{ticket}", _replay)
    app.router.add_get("/healthz", _ok)
    app.router.add_get("/favicon.ico", _no_icon)

    async def on_startup(app: web.Application) -> None:
        await hub.start()

    async def on_cleanup(app: web.Application) -> None:
        await hub.stop()

    app.on_startup.append(on_startup)
    app.on_cleanup.append(on_cleanup)
    return app


async def _no_icon(request: web.Request) -> web.Response:
    return web.Response(status=204)


async def _ok(request: web.Request) -> web.Response:
    return web.Response(text="ok")


async def start(config: Config, host: str = "127.0.0.1", port: int = 8000) -> Tuple[web.AppRunner, Hub, str]:
    """Start a server on the running loop: ``(runner, hub, url)``; ``await
    runner.cleanup()`` stops it. ``port=0`` takes a free port (the URL names it)."""
    hub = Hub(config)
    app = make_app(hub)
    runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=2.0)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    server: Any = site._server
    bound = server.sockets[0].getsockname()[1] if server is not None and server.sockets else port
    shown = f"[{host}]" if ":" in host else host
    return runner, hub, f"http://{shown}:{bound}/"


def run(config: Config, host: str, port: int, *, ready: Optional[Callable[[str], None]] = None) -> None:
    """Serve until SIGINT or SIGTERM (the tables are in the database: nothing is lost)."""
    import signal

    async def main() -> None:
        runner, hub, url = await start(config, host, port)
        if ready is not None:
            ready(url)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                loop.add_signal_handler(sig, stop.set)
            except (NotImplementedError, RuntimeError):  # (Windows)
                pass
        try:
            await stop.wait()
        finally:
            await runner.cleanup()

    asyncio.run(main())
