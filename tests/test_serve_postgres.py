"""Several ``mousehole serve`` processes sharing tables through one PostgreSQL database: a game
whose seats, bot and spectator are served by different processes; two processes racing to
accept the same seat's move (exactly one wins); the bots of a killed process taken over by
another; everything resumed by a process started afterwards.

PostgreSQL is a system part (Debian's ``postgresql``): the tests start a throwaway cluster
(``serve_kit.postgres_cluster``) or use ``MOUSEHOLE_TEST_POSTGRES_URL``; without PostgreSQL
they are skipped, unless ``MOUSEHOLE_REQUIRE`` names ``postgres`` (CI), where they fail."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time
from typing import Any, Dict, Iterator, List

import aiohttp
import pytest

from mousehole import records
from serve_kit import Client, ServerProcess, play_out, post_table, postgres_cluster

pytestmark = [pytest.mark.serve, pytest.mark.postgres]


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    with postgres_cluster() as url:
        yield url


def _servers(url: str, k: int) -> List[ServerProcess]:
    return [ServerProcess(url, "--picture-workers", "0", "--lease-grace", "1") for _ in range(k)]


def _stop(servers: List[ServerProcess]) -> None:
    for s in servers:
        if s.proc.poll() is None:
            s.kill(signal.SIGTERM)


def test_seats_on_three_processes_play_one_game(pg_url: str, tmp_path: Any) -> None:
    """Seat 0 on process A, seat 1 on B, the spectator on C, a bot run by whichever process
    holds the table's lease: each move reaches every process (NOTIFY) and every seat, the
    game ends the same for all, and its record is in the database."""
    servers = _servers(pg_url, 3)
    try:
        a, b, c = servers
        t = post_table(
            a.url,
            {
                "game": "maus_au_chocolat",
                "seconds": 0.05,
                "seats": [{"name": "ann"}, {"name": "bob"}, {"bot": "random"}],
            },
        )

        async def main() -> None:
            async with aiohttp.ClientSession() as s:
                ann = await Client.join(s, a.url, t["table"], t["seats"][0]["token"])
                bob = await Client.join(s, b.url, t["table"], t["seats"][1]["token"])
                watcher = await Client.join(s, c.url, t["table"], t["spectator"])
                await play_out([ann, bob], random.Random(1))
                await watcher.until(lambda st: "result" in st)
                assert ann.state["result"] == bob.state["result"] == watcher.state["result"]
                assert ann.state["ply"] == bob.state["ply"] == watcher.state["ply"]
                assert [e["ply"] for e in watcher.events][-1] == watcher.state["ply"]

        asyncio.run(main())
    finally:
        _stop(servers)
    out = os.path.join(str(tmp_path), "records.json")
    done = subprocess.run(
        [sys.executable, "-m", "mousehole", "serve", "--db", pg_url, "--export-records", out],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    kept = {d["meta"]["table"]: d for d in json.load(open(out))}
    assert records.loads(json.dumps(kept[t["table"]])).result["terminal"]


def test_two_processes_race_for_one_move(pg_url: str) -> None:
    """The same seat connected through two processes sends two different moves at once,
    again and again: exactly one of each pair is accepted (the log's key), the other is
    refused with one error frame, and both processes show the same table."""
    servers = _servers(pg_url, 2)
    try:
        a, b = servers
        t = post_table(a.url, {"game": "kasimir", "seats": [{"name": "ann"}, {"name": "bob"}]})

        async def main() -> None:
            async with aiohttp.ClientSession() as s:
                pairs = []  # (no await in a nested comprehension: Python 3.9 and 3.10 refuse it)
                for x in t["seats"]:
                    pairs.append([await Client.join(s, srv.url, t["table"], x["token"]) for srv in (a, b)])
                races = 0
                while races < 8 and "result" not in pairs[0][0].state:
                    seat = next(i for i, p in enumerate(pairs) if p[0].to_act)
                    x, y = pairs[seat]
                    await y.reach(x.state["seq"])
                    seq, turn = x.state["seq"], x.state["turn"]
                    legal = [m[0] for m in x.state["legal"]]
                    await asyncio.gather(x.move(legal[0], turn), y.move(legal[-1], turn))
                    for cl in (x, y):
                        await cl.reach(seq + 1)

                    def errors() -> List[Dict[str, Any]]:
                        return [e for p in pairs for cl in p for e in cl.errors]

                    end = time.monotonic() + 30
                    while len(errors()) < races + 1 and time.monotonic() < end:
                        for cl in (x, y):  # the loser's error frame
                            try:
                                await cl.receive(0.1)
                            except asyncio.TimeoutError:
                                pass
                    await asyncio.sleep(0.2)
                    assert len(errors()) == races + 1
                    assert all(e["code"] in ("stale", "not-your-turn") for e in errors())
                    for p in pairs:
                        for cl in p:
                            await cl.reach(seq + 1)
                    assert x.state["picture"] == y.state["picture"]
                    races += 1
                assert races == 8

        asyncio.run(main())
    finally:
        _stop(servers)


def test_a_killed_process_bots_are_taken_over(pg_url: str) -> None:
    """Process A runs a table's bot; A is killed with SIGKILL; once its lease lapses, B runs
    the bot and the game ends; a process started later resumes the table as it is."""
    servers = _servers(pg_url, 2)
    try:
        a, b = servers
        t = post_table(a.url, {"game": "cheese_rescue", "seconds": 0.05, "seats": [{"name": "ann"}, {"bot": "random"}]})

        async def main() -> None:
            async with aiohttp.ClientSession() as s:
                ann_a = await Client.join(s, a.url, t["table"], t["seats"][0]["token"])
                ann_b = await Client.join(s, b.url, t["table"], t["seats"][0]["token"])
                rng = random.Random(3)
                for _ in range(3):
                    await ann_a.until(lambda st: bool(st["legal"]))
                    seq = ann_a.state["seq"]
                    await ann_a.move(rng.choice(ann_a.state["legal"])[0])
                    await ann_a.reach(seq + 1)
                a.kill(signal.SIGKILL)
                await ann_b.reach(ann_a.state["seq"])
                await play_out([ann_b], rng, timeout=120)
                assert "result" in ann_b.state

        asyncio.run(main())
        late = ServerProcess(pg_url, "--picture-workers", "0")
        servers.append(late)

        async def again() -> None:
            async with aiohttp.ClientSession() as s:
                c = await Client.join(s, late.url, t["table"], t["seats"][0]["token"])
                assert c.state["status"] == "finished" and "result" in c.state

        asyncio.run(again())
    finally:
        _stop(servers)
