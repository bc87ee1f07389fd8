"""Load benchmark of ``mousehole serve`` (not a timed test): many concurrent tables of
scripted WebSocket clients and bots on this machine.

The server runs in a process of its own (SQLite in a temporary folder, its picture workers,
its bot threads); this process creates the tables through the lobby's API and plays every
person's seat with a scripted client that plays a random legal move as soon as it is told
to (the server saturated: then the time from a move to the updates is mostly the queue of
the other tables' moves) or, with ``--think S``, after 0.5 to 1.5 times S seconds (a
person's pace), while a spectator watches each table. It reports:

* **moves a second**: the entries the tables accepted (people's and bots') over the run;
* **from a move to every seat**: for each person's move, the time from sending it until
  every connection of its table (both people and the spectator) received the state after
  it: p50, p99 and the largest;
* **the event loop's lag**: in the server, a task that asks to wake every 10 ms records how
  late it wakes, while the bots think in their threads: p50, p99 and the largest;
* the server's CPU time, its commits (a group commit counts once) and the bots' moves.

Run: ``python benchmarks/bench_serve.py --tables 200 --seconds 60 --json out.json``
(the recorded runs are in ``docs/serve.md`` and ``benchmarks/results/serve-*.json``).
``--quick`` is a smoke run of a few tables.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import platform
import random
import resource
import statistics
import sys
import tempfile
import time
from typing import Any, Dict, List, Optional

GAMES = ("cheese_rescue", "kasimir", "m", "maus_au_chocolat")


# --------------------------------------------------------------------------------------
# the server process


def _serve(config_kw: Dict[str, Any], conn: Any) -> None:
    """The server's process: start, report the URL, watch the loop's lag until told to
    stop, report the figures."""
    from mousehole.serve.hub import Config
    from mousehole.serve.server import start

    async def main() -> None:
        runner, hub, url = await start(Config(**config_kw), "127.0.0.1", 0)
        lags: List[float] = []
        stop = asyncio.Event()

        async def watch() -> None:
            while not stop.is_set():
                t = time.perf_counter()
                await asyncio.sleep(0.01)
                lags.append(time.perf_counter() - t - 0.01)

        loop = asyncio.get_running_loop()
        loop.add_reader(conn.fileno(), stop.set)
        watcher = asyncio.ensure_future(watch())
        conn.send({"url": url})
        await stop.wait()
        conn.recv()
        watcher.cancel()
        usage = resource.getrusage(resource.RUSAGE_SELF)
        pool: Any = hub.picture_pool
        workers = [p.pid for p in getattr(pool, "_processes", {}).values()] if pool is not None else []
        figures = {
            "lags": lags,
            "cpu": usage.ru_utime + usage.ru_stime,
            "bot_moves": hub.bot_moves,
            "commits": hub.store.commits,
            "tables": len(hub.tables),
            "picture_cpu": sum(_cpu_of(pid) for pid in workers),
        }
        await runner.cleanup()
        conn.send(figures)

    asyncio.run(main())


def _cpu_of(pid: int) -> float:
    """CPU seconds (user + system) of a running process (Linux: /proc)."""
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _cpu_model() -> str:
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.platform()


# --------------------------------------------------------------------------------------
# the clients


class _Seat:
    def __init__(self, ws: Any, table: "_Table", person: bool) -> None:
        self.ws, self.table, self.person = ws, table, person
        self.state: Dict[str, Any] = {}
        self.played = -1


class _Table:
    def __init__(self, game: str) -> None:
        self.game = game
        self.seats: List[_Seat] = []
        self.sent: Dict[int, float] = {}  # seq after the move -> when it was sent
        self.seen: Dict[int, int] = {}  # seq -> connections that have it
        self.top = 0  # the latest seq a connection of the table has
        self.over = False


async def _move(seat: _Seat, turn: int, action: int, wait: float) -> None:
    """Send a scripted person's move after ``wait`` seconds, noting when it left."""
    if wait > 0:
        await asyncio.sleep(wait)
        if seat.table.over or seat.ws.closed:
            return
    seat.table.sent[seat.table.top + 1] = time.perf_counter()
    await seat.ws.send_json({"type": "move", "turn": turn, "action": action})


async def _run(url: str, args: argparse.Namespace) -> Dict[str, Any]:
    import aiohttp

    rng = random.Random(args.seed)
    latencies: List[float] = []
    tables: List[_Table] = []
    errors = 0
    session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))

    async def create(k: int) -> _Table:
        game = GAMES[k % len(GAMES)]
        seats = [{"name": "a"}, {"name": "b"}, {"bot": args.bot}]
        async with session.post(
            url + "api/tables", json={"game": game, "seats": seats, "seconds": args.bot_seconds}
        ) as r:
            made = await r.json()
            assert r.status == 201, made
        t = _Table(game)
        tokens = [(s["token"], True) for s in made["seats"] if s["token"]] + [(made["spectator"], False)]
        for token, person in tokens:
            ws = await session.ws_connect(url + f"ws/{made['table']}", max_msg_size=0)
            await ws.send_json({"type": "hello", "token": token})
            t.seats.append(_Seat(ws, t, person))
        return t

    async def read(seat: _Seat) -> None:
        nonlocal errors
        t = seat.table
        async for msg in seat.ws:
            body = json.loads(msg.data)
            if body["type"] == "error":
                errors += 1
                continue
            if body["type"] != "state":
                continue
            seat.state = body
            seq = body["seq"]
            t.top = max(t.top, seq)
            t.seen[seq] = t.seen.get(seq, 0) + 1
            if t.seen[seq] == len(t.seats) and seq in t.sent:
                latencies.append(time.perf_counter() - t.sent.pop(seq))
            if "result" in body or body["status"] != "open":
                t.over = True
                return
            if seat.person and body.get("legal") and body["turn"] != seat.played:
                seat.played = body["turn"]
                action = rng.choice(body["legal"])[0]
                if args.think > 0:  # a person's pace: the move leaves after a while
                    asyncio.ensure_future(_move(seat, body["turn"], action, rng.uniform(0.5, 1.5) * args.think))
                else:
                    await _move(seat, body["turn"], action, 0.0)

    t0 = time.perf_counter()
    for k in range(args.tables):
        tables.append(await create(k))
    made_in = time.perf_counter() - t0
    readers = [asyncio.ensure_future(read(s)) for t in tables for s in t.seats]
    start = time.perf_counter()
    done, pending = await asyncio.wait(readers, timeout=args.seconds)
    elapsed = time.perf_counter() - start
    moves = sum(max(s.state.get("seq", 0) for s in t.seats) for t in tables)
    for task in pending:
        task.cancel()
    for t in tables:
        for s in t.seats:
            await s.ws.close()
    await session.close()
    return {
        "latencies": latencies,
        "moves": moves,
        "elapsed": elapsed,
        "finished": sum(t.over for t in tables),
        "errors": errors,
        "create_seconds": made_in,
    }


# --------------------------------------------------------------------------------------
# screenshots (docs/figures/serve/*.png)

#: how many moves the scripted people play before the screenshot of each game
SCREENSHOT_PLIES = {"cheese_rescue": 14, "kasimir": 30, "m": 40, "maus_au_chocolat": 50}


async def _midgame(url: str, game: str, seed: int) -> Dict[str, Any]:
    """A table (two people, a bot) played by scripted people to about the middle of the game."""
    import aiohttp

    rng = random.Random(seed)
    async with aiohttp.ClientSession() as session:
        seats = [{"name": "ann"}, {"name": "bob"}, {"bot": "easy"}]
        async with session.post(url + "api/tables", json={"game": game, "seats": seats, "seconds": 0.2}) as r:
            made: Dict[str, Any] = await r.json()
        wss = []
        for s in made["seats"][:2]:
            ws = await session.ws_connect(url + f"ws/{made['table']}", max_msg_size=0)
            await ws.send_json({"type": "hello", "token": s["token"]})
            wss.append(ws)
        latest: List[Dict[str, Any]] = [{}, {}]

        async def read(i: int) -> None:
            async for msg in wss[i]:
                body = json.loads(msg.data)
                if body["type"] == "state":
                    latest[i] = body

        readers = [asyncio.ensure_future(read(i)) for i in range(2)]
        played = [-1, -1]
        while max(st.get("ply", 0) for st in latest) < SCREENSHOT_PLIES[game]:
            for i in range(2):
                st = latest[i]
                if st.get("legal") and st["turn"] != played[i] and not st.get("result"):
                    played[i] = st["turn"]
                    await wss[i].send_json({"type": "move", "turn": st["turn"], "action": rng.choice(st["legal"])[0]})
            await asyncio.sleep(0.05)
        await asyncio.sleep(1.0)  # (a bot to move thinks; its move shows in the events)
        for task in readers:
            task.cancel()
        for ws in wss:
            await ws.close()
    return made


def _screenshots(folder: str, url: str) -> None:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    os.makedirs(folder, exist_ok=True)
    for game, width, height, name in [(g, 1200, 860, f"{g}.png") for g in GAMES] + [
        ("maus_au_chocolat", 412, 915, "phone.png")
    ]:
        made = asyncio.run(_midgame(url, game, 3))
        opts = webdriver.ChromeOptions()
        opts.binary_location = os.environ.get("MOUSEHOLE_CHROMIUM", "/usr/bin/chromium")
        for arg in (
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            f"--window-size={width},{height}",
        ):
            opts.add_argument(arg)
        driver = webdriver.Chrome(
            service=Service(os.environ.get("MOUSEHOLE_CHROMEDRIVER", "/usr/bin/chromedriver")), options=opts
        )
        try:
            # (headless Chromium's windows are at least 500 pixels wide: a phone's screen is
            # set through the DevTools protocol)
            driver.execute_cdp_cmd(
                "Emulation.setDeviceMetricsOverride",
                {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 500},
            )
            driver.get(url + made["seats"][0]["link"][1:])
            end = time.monotonic() + 30
            while not driver.execute_script(
                "var i = document.getElementById('picture');return i.complete && i.naturalWidth > 0"
            ):
                assert time.monotonic() < end, "the table page did not draw its picture"
                time.sleep(0.1)
            time.sleep(0.5)
            path = os.path.join(folder, name)
            driver.save_screenshot(path)
            _small_png(path)
            print(f"{path}: {game} at {width}x{height}")
        finally:
            driver.quit()


def _small_png(path: str) -> None:
    """The screenshot in 128 colours (a quarter of its size; the pages have few colours),
    where Pillow is installed."""
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as im:
        small = im.convert("RGB").quantize(colors=128, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    small.save(path, optimize=True)


def _pct(xs: List[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=200, help="concurrent tables (default: 200)")
    p.add_argument("--seconds", type=float, default=60.0, help="length of the run (default: 60)")
    p.add_argument("--bot", default="medium", help="the bot of each table's third seat (default: medium, ismcts)")
    p.add_argument("--bot-seconds", type=float, default=0.05, help="the bots' seconds a move (default: 0.05)")
    p.add_argument("--bot-threads", type=int, default=2, help="the server's bot threads (default: 2)")
    p.add_argument("--picture-workers", type=int, default=2, help="the server's picture workers (default: 2)")
    p.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="the scripted people's mean seconds before a move (0.5 to 1.5 times it, at random); "
        "0 moves at once and keeps the server saturated (default: 0)",
    )
    p.add_argument("--seed", type=int, default=1, help="seed of the clients' moves (default: 1)")
    p.add_argument("--json", default=None, help="also write the figures to this file (default: none)")
    p.add_argument("--quick", action="store_true", help="a smoke run: 8 tables for 5 seconds")
    p.add_argument(
        "--screenshots",
        default=None,
        metavar="FOLDER",
        help="instead of the load run: a screenshot of each game at the table (headless Chromium) "
        "into FOLDER (docs/figures/serve)",
    )
    args = p.parse_args(argv)
    if args.quick:
        args.tables, args.seconds = 8, 5.0
    load_before = os.getloadavg()
    folder = tempfile.mkdtemp(prefix="mousehole-bench-serve-")
    config = {
        "db": os.path.join(folder, "serve.db"),
        "max_tables": args.tables + 10,
        "max_connections": 4 * args.tables + 100,
        "max_per_ip": 4 * args.tables + 100,
        "create_burst": args.tables + 10,
        "bot_threads": args.bot_threads,
        "picture_workers": args.picture_workers,
    }
    ctx = multiprocessing.get_context("spawn")
    parent, child = ctx.Pipe()
    proc = ctx.Process(target=_serve, args=(config, child))
    proc.start()
    url = parent.recv()["url"]
    if args.screenshots:
        try:
            _screenshots(args.screenshots, url)
        finally:
            parent.send("stop")
            parent.recv()
            proc.join(30)
        return 0
    before = resource.getrusage(resource.RUSAGE_SELF)
    try:
        got = asyncio.run(_run(url, args))
    finally:
        parent.send("stop")
        server = parent.recv()
        proc.join(30)
    after = resource.getrusage(resource.RUSAGE_SELF)
    lat = got["latencies"]
    lags = server["lags"]
    report = {
        "machine": f"{_cpu_model()}, {os.cpu_count()} cores",
        "load_average_before": [round(x, 2) for x in load_before],
        "python": sys.version.split()[0],
        "tables": args.tables,
        "seconds": round(got["elapsed"], 2),
        "think": args.think,
        "bot": args.bot,
        "bot_seconds": args.bot_seconds,
        "bot_threads": args.bot_threads,
        "picture_workers": args.picture_workers,
        "finished_games": got["finished"],
        "errors": got["errors"],
        "moves": got["moves"],
        "moves_per_second": round(got["moves"] / got["elapsed"], 1),
        "bot_moves": server["bot_moves"],
        "commits": server["commits"],
        "update_ms": {
            "n": len(lat),
            "p50": round(1000 * _pct(lat, 0.5), 1),
            "p99": round(1000 * _pct(lat, 0.99), 1),
            "max": round(1000 * max(lat), 1) if lat else None,
        },
        "loop_lag_ms": {
            "n": len(lags),
            "p50": round(1000 * _pct(lags, 0.5), 2),
            "p99": round(1000 * _pct(lags, 0.99), 2),
            "max": round(1000 * max(lags), 1) if lags else None,
            "mean": round(1000 * statistics.fmean(lags), 2) if lags else None,
        },
        "server_cpu_seconds": round(server["cpu"], 1),
        "picture_workers_cpu_seconds": round(server["picture_cpu"], 1),
        "clients_cpu_seconds": round(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, 1),
        "create_seconds": round(got["create_seconds"], 2),
    }
    pace = f"people moving after {args.think:g} s on average" if args.think > 0 else "people moving at once"
    print(
        f"mousehole serve under load: {args.tables} tables (2 scripted people, a bot {args.bot} at "
        f"{args.bot_seconds:g} s a move, a spectator each; {pace}), {report['seconds']} s on {report['machine']}"
    )
    print(
        f"  moves: {report['moves']:,} ({report['moves_per_second']} a second; {report['bot_moves']:,} by bots; "
        f"{report['commits']:,} commits); games finished: {report['finished_games']}; errors: {report['errors']}"
    )
    u = report["update_ms"]
    print(
        f"  from a person's move to every seat's update: p50 {u['p50']} ms, p99 {u['p99']} ms, "
        f"max {u['max']} ms ({u['n']:,} moves)"
    )
    g = report["loop_lag_ms"]
    print(f"  event loop lag while bots think: p50 {g['p50']} ms, p99 {g['p99']} ms, max {g['max']} ms")
    print(
        f"  CPU: server {report['server_cpu_seconds']} s, "
        f"its picture workers {report['picture_workers_cpu_seconds']} s, "
        f"clients {report['clients_cpu_seconds']} s; load average before the run {report['load_average_before']}"
    )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(report, fh, indent=2)
            fh.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
