"""``mousehole serve`` killed with SIGKILL mid-game and started again on the same SQLite file:
every table resumes at the last move anyone was told of (a move is committed before it is
announced), the seats get their seats back with their links, a bot that was thinking plays
on, and the games end and are kept as records."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
from typing import Any, Dict, List

import aiohttp
import pytest

from mousehole import records
from serve_kit import Client, ServerProcess, play_out, post_table

pytestmark = [
    pytest.mark.serve,
    pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL: POSIX systems only (Windows has no signals)"),
]

TABLES = [
    {"game": "m", "seats": [{"name": "ann"}, {"name": "bob"}], "seconds": 0.05},
    {"game": "maus_au_chocolat", "seats": [{"name": "ann"}, {"name": "bob"}, {"name": "cy"}], "seconds": 0.05},
    {"game": "cheese_rescue", "seats": [{"name": "ann"}, {"bot": "mcts:0.3s"}], "seconds": 0.3},
]


async def _play_some(clients: List[Client], rng: random.Random, moves: int) -> None:
    """``moves`` moves of random seats, each waited for (announced to the mover)."""
    for _ in range(moves):
        movers = [c for c in clients if c.to_act]
        if not movers:
            await asyncio.wait_for(asyncio.shield(clients[0].next_state()), 30)
            continue
        c = rng.choice(movers)
        seq = c.state["seq"]
        await c.move(rng.choice(c.state["legal"])[0])
        await c.reach(seq + 1)
        for other in clients:
            await other.reach(c.state["seq"])


def test_sigkill_and_restart_resume_every_table(tmp_path: Any) -> None:
    db = os.path.join(str(tmp_path), "serve.db")
    rng = random.Random(7)
    acked: Dict[str, Dict[str, Any]] = {}
    made: List[Dict[str, Any]] = []

    async def before_kill(url: str) -> None:
        async with aiohttp.ClientSession() as s:
            for spec in TABLES:
                made.append(await _post(s, url, spec))
            for t in made:
                clients = [await Client.join(s, url, t["table"], x["token"]) for x in t["seats"] if x["token"]]
                await _play_some(clients, rng, 6)
                for c in clients:
                    acked[c.token] = dict(c.state)
            # the bot table: a person's move, announced; the bot starts thinking and is killed
            bot_table = made[2]
            c = await Client.join(s, url, bot_table["table"], bot_table["seats"][0]["token"])
            if not c.to_act:
                await c.until(lambda st: bool(st["legal"]), timeout=60)
            turn = c.state["turn"]
            await c.move(c.state["legal"][0][0])
            await c.until(lambda st: st["turn"] == turn + 1)
            acked[c.token] = dict(c.state)

    with ServerProcess(db) as first:
        asyncio.run(before_kill(first.url))
        first.kill(signal.SIGKILL)
        assert first.proc.returncode == -signal.SIGKILL

    async def after_restart(url: str) -> None:
        async with aiohttp.ClientSession() as s:
            for t in made:
                clients = [await Client.join(s, url, t["table"], x["token"]) for x in t["seats"] if x["token"]]
                for c in clients:
                    was = acked[c.token]
                    assert c.state["seq"] >= was["seq"]
                    if c.state["seq"] == was["seq"]:  # nothing after the last announced move
                        for key in ("ply", "turn", "legal", "picture", "to_act", "queued"):
                            assert c.state[key] == was[key], (t["table"], key)
                await play_out(clients, rng, timeout=240)
                assert all("result" in c.state for c in clients)

    with ServerProcess(db) as second:
        asyncio.run(after_restart(second.url))
        second.kill(signal.SIGTERM)
    out = os.path.join(str(tmp_path), "r.json")
    done = subprocess.run(
        [sys.executable, "-m", "mousehole", "serve", "--db", db, "--export-records", out],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    docs = json.load(open(out))
    assert len(docs) == 3
    for doc in docs:
        rec = records.loads(json.dumps(doc))
        assert rec.result["terminal"] and rec.meta["table"] in {t["table"] for t in made}


async def _post(s: aiohttp.ClientSession, url: str, spec: Dict[str, Any]) -> Dict[str, Any]:
    async with s.post(url + "api/tables", json=spec) as r:
        body: Dict[str, Any] = await r.json()
        assert r.status == 201, body
        return body


async def _stream_moves(url: str, t: Dict[str, Any], rng: random.Random, kill: Any) -> int:
    """Both seats move as fast as the server answers until ``kill()`` (a timer it starts)
    ends the server: the highest ``seq`` any seat was told of. Where the stream stops first
    (the game over, or a reply slower than the timeout on a loaded machine), the timer
    still fires before this returns (the loop that runs it ends with this coroutine)."""
    told = 0
    async with aiohttp.ClientSession() as s:
        cs = [await Client.join(s, url, t["table"], x["token"]) for x in t["seats"]]
        timer = kill()
        try:
            while True:
                mover = next(c for c in cs if c.to_act)
                seq = mover.state["seq"]
                await mover.move(rng.choice(mover.state["legal"])[0])
                for c in cs:
                    await c.reach(seq + 1, timeout=10)
                    told = max(told, c.state["seq"])
        except (AssertionError, aiohttp.ClientError, asyncio.TimeoutError, StopIteration):
            pass
        loop = asyncio.get_running_loop()
        while loop.time() < timer.when() + 0.1:
            await asyncio.sleep(0.05)
        return told


async def _resume(url: str, t: Dict[str, Any], rng: random.Random, told: int) -> None:
    async with aiohttp.ClientSession() as s:
        cs = [await Client.join(s, url, t["table"], x["token"]) for x in t["seats"]]
        assert cs[0].state["seq"] >= told
        await play_out(cs, rng)


def test_killed_while_moves_stream_in(tmp_path: Any) -> None:
    """Two seats move as fast as the server answers; the server is killed at a random
    moment (between a commit and its announcement too). After the restart the table holds
    at least every move anyone was told of, and plays on to the end."""
    db = os.path.join(str(tmp_path), "serve.db")
    rng = random.Random(5)
    for kill_after in (0.3, 1.0):
        with ServerProcess(db) as server:
            t = post_table(server.url, {"game": "kasimir", "seats": [{"name": "a"}, {"name": "b"}]})
            proc = server.proc

            def kill(after: float = kill_after, proc: Any = proc) -> asyncio.TimerHandle:
                return asyncio.get_running_loop().call_later(after, proc.send_signal, signal.SIGKILL)

            told = asyncio.run(_stream_moves(server.url, t, rng, kill))
            proc.wait(timeout=30)
            assert proc.returncode == -signal.SIGKILL
        assert told > 0
        with ServerProcess(db) as server:
            asyncio.run(_resume(server.url, t, rng, told))
            server.kill(signal.SIGTERM)
