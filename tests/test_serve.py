"""``mousehole serve`` on loopback, driven by WebSocket clients as people would use it: the
lobby's API, whole games of all four games with a bot and a spectator, reconnecting with a
link, Maus au Chocolat's bids in any order (MC-7, MC-27), replay pages, records kept and
exported, idle tables closed, and the pages' security headers."""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
from typing import Any, Dict, List

import aiohttp
import pytest

import mousehole
from mousehole import records
from mousehole.serve.storage import Store
from serve_kit import Client, create, play_out, served

pytestmark = pytest.mark.serve

GAMES = mousehole.game_names()


def _table(game: str, persons: int = 2, bots: List[str] = ("random",), **extra: Any) -> Dict[str, Any]:  # type: ignore[assignment]
    seats: List[Dict[str, Any]] = [{"name": f"person {i}"} for i in range(persons)] + [{"bot": b} for b in bots]
    return {"game": game, "seats": seats, "seconds": 0.05, **extra}


async def _join_all(session: aiohttp.ClientSession, url: str, made: Dict[str, Any]) -> List[Client]:
    return [await Client.join(session, url, made["table"], s["token"]) for s in made["seats"] if s["token"]]


# -- pages and the lobby -------------------------------------------------------------------


def test_pages_api_and_headers(tmp_path: Any) -> None:
    async def main() -> None:
        async with served(str(tmp_path)) as (hub, url), aiohttp.ClientSession() as s:
            pages = [
                ("", "text/html"),
                ("t/abcdefghijkl", "text/html"),
                ("static/client.js", "text/javascript"),
                ("static/lobby.js", "text/javascript"),
                ("static/style.css", "text/css"),
            ]
            for path, kind in pages:
                async with s.get(url + path) as r:
                    assert r.status == 200 and r.content_type == kind, path
                    csp = r.headers["Content-Security-Policy"]
                    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
                    assert r.headers["X-Content-Type-Options"] == "nosniff"
                    assert r.headers["Referrer-Policy"] == "no-referrer"
            for path in ("static/../serve.db", "static/server.py", "t/..%2f", "nothing", "replay/abc"):
                async with s.get(url + path) as r:
                    assert r.status == 404, path
            async with s.get(url + "api/games") as r:
                info = await r.json()
            assert [g["id"] for g in info["games"]] == GAMES
            m = next(g for g in info["games"] if g["id"] == "m")
            assert m["min_players"] == 2 and {r["param"] for r in m["readings"]} == {
                "pass_cost",
                "stuck_cards",
                "draw_timing",
                "short_payer",
                "chipless_exchange",
            }
            assert info["levels"] == ["easy", "medium", "hard"]

    asyncio.run(main())


def test_creating_tables(tmp_path: Any) -> None:
    async def main() -> None:
        async with served(str(tmp_path), create_burst=4, create_every=3600) as (hub, url), aiohttp.ClientSession() as s:
            made = await create(s, url, _table("m", 2, ["hard"]))
            assert [x["token"] is None for x in made["seats"]] == [False, False, True]
            assert made["seats"][2]["bot"] == "strong:0.05s"
            assert made["seats"][0]["link"] == f"/t/{made['table']}#{made['seats'][0]['token']}"
            tokens = [x["token"] for x in made["seats"] if x["token"]] + [made["spectator"]]
            assert len(set(tokens)) == 3 and all(len(t) >= 40 for t in tokens)
            # the database keeps hashes only
            db = open(os.path.join(str(tmp_path), "serve.db"), "rb").read()
            db += b"".join(
                open(os.path.join(str(tmp_path), f), "rb").read()
                for f in os.listdir(str(tmp_path))
                if f.startswith("serve.db-")
            )
            assert not any(t.encode() in db for t in tokens)
            bad = [
                (dict(data=b"{", headers={"Content-Type": "application/json"}), 400, "bad-table"),
                (dict(data=b"[1]", headers={"Content-Type": "application/json"}), 400, "bad-table"),
                (dict(data=json.dumps(_table("m")).encode(), headers={"Content-Type": "text/plain"}), 415, "bad-table"),
                (dict(json=_table("m"), headers={"Origin": "http://evil.example"}), 403, "origin"),
                (
                    dict(data=b'{"game": "' + b"m" * 20000 + b'"}', headers={"Content-Type": "application/json"}),
                    413,
                    None,
                ),
            ]
            for kwargs, status, code in bad:
                async with s.post(url + "api/tables", **kwargs) as r:
                    assert r.status == status, (kwargs.get("headers"), await r.text())
                    if code:
                        assert (await r.json())["error"] == code
            # the burst of four is spent (the good table and the three bodies read count)
            async with s.post(url + "api/tables", json=_table("m")) as r:
                assert r.status == 429 and (await r.json())["error"] == "rate"

    asyncio.run(main())


def test_the_server_holds_at_most_max_tables(tmp_path: Any) -> None:
    async def main() -> None:
        async with served(str(tmp_path), max_tables=2) as (hub, url), aiohttp.ClientSession() as s:
            await create(s, url, _table("kasimir"))
            await create(s, url, _table("kasimir"))
            async with s.post(url + "api/tables", json=_table("kasimir")) as r:
                assert r.status == 503 and (await r.json())["error"] == "full"

    asyncio.run(main())


# -- whole games ------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_whole_games_with_a_bot_and_a_spectator(game: str, tmp_path: Any) -> None:
    """Two people and a bot play a game to the end while a spectator watches: every seat and
    the spectator see the same result and why, the record in the database replays the game,
    and each seat's events describe every move of the game."""

    async def main() -> None:
        async with served(str(tmp_path)) as (hub, url), aiohttp.ClientSession() as s:
            made = await create(s, url, _table(game, 2, ["easy"]))
            people = await _join_all(s, url, made)
            spectator = await Client.join(s, url, made["table"], made["spectator"])
            assert [c.welcome["seat"] for c in people] == [0, 1] and spectator.welcome["seat"] is None
            assert spectator.welcome["title"] == hub.tables[made["table"]].game.title
            await play_out(people, random.Random(game))
            await spectator.until(lambda st: "result" in st)
            results = [c.state["result"] for c in people + [spectator]]
            assert all(r == results[0] for r in results)
            assert results[0]["why"] and len(results[0]["lines"]) == 3
            table = hub.tables[made["table"]]
            assert table.status == "finished"
            rec = dict(await hub.store.records())[made["table"]]
            record = records.loads(rec)
            assert record.final_state() == table.state
            assert record.seats == ("person 0", "person 1", "greedy") and record.result["terminal"]
            assert results[0]["scores"] == record.result["scores"]
            plies = len(record.actions)
            for c in people + [spectator]:
                assert [e["ply"] for e in c.events] == list(range(plies - len(c.events) + 1, plies + 1))
                assert c.errors == []
            assert "legal" not in spectator.state

    asyncio.run(main())


def test_a_dropped_seat_gets_its_seat_back_with_its_link(tmp_path: Any) -> None:
    async def main() -> None:
        async with served(str(tmp_path)) as (hub, url), aiohttp.ClientSession() as s:
            made = await create(s, url, _table("cheese_rescue", 2, []))
            a, b = await _join_all(s, url, made)
            first = a if a.to_act else b
            await first.move(first.state["legal"][0][0])
            await first.next_state()
            seen = dict(first.state)
            await first.ws.close()
            again = await Client.join(s, url, made["table"], first.token)
            assert again.welcome["seat"] == first.welcome["seat"]
            for key in ("seq", "ply", "turn", "legal", "picture", "to_act"):
                assert again.state[key] == seen[key], key
            assert [e["text"] for e in again.events] == [e["text"] for e in first.events]
            await play_out([again, b if first is a else a], random.Random(3))
            assert again.state["result"]

    asyncio.run(main())


def test_a_move_counts_once(tmp_path: Any) -> None:
    """A double click (the same move twice) and a move of another turn: the second is refused
    with one error frame (stale, or not your turn), the table moved once."""

    async def main() -> None:
        async with served(str(tmp_path)) as (hub, url), aiohttp.ClientSession() as s:
            made = await create(s, url, _table("m", 3, []))
            clients = await _join_all(s, url, made)
            mover = next(c for c in clients if c.to_act)
            table = hub.tables[made["table"]]
            action, turn = mover.state["legal"][0][0], mover.state["turn"]
            await mover.move(action, turn)
            await mover.move(action, turn)
            assert (await mover.next_error())["code"] in ("stale", "not-your-turn")
            assert table.seq == 1 and len(table.state.history) == 1

    asyncio.run(main())


def test_bids_in_any_order_over_the_wire(tmp_path: Any) -> None:
    """MC-7, MC-27: every seat may bid at once; a later seat's bid waits face down, shown to
    itself only (``queued``); nobody else hears of it until all bids are in."""

    async def main() -> None:
        async with served(str(tmp_path)) as (hub, url), aiohttp.ClientSession() as s:
            made = await create(s, url, _table("maus_au_chocolat", 3, []))
            c0, c1, c2 = await _join_all(s, url, made)
            assert all(c.to_act for c in (c0, c1, c2)) and c0.state["to_act"] == [0, 1, 2]
            bid = c2.state["legal"][0]
            await c2.move(bid[0])
            st = await c2.until(lambda st: st["turn"] == 1)
            assert st["queued"] == [bid[1]] and st["legal"] == [] and st["to_act"] == [0, 1]
            st0 = await c0.until(lambda st: st["to_act"] == [0, 1])
            assert st0["queued"] == [] and st0["events"] == [] and st0["ply"] == 0
            await c0.move(c0.state["legal"][0][0])
            await c1.until(lambda st: st["ply"] == 1)
            await c1.move(c1.state["legal"][0][0])
            for c in (c0, c1, c2):
                st = await c.until(lambda st: st["ply"] == 3)
            assert "bids revealed" in c0.events[-1]["text"] and c2.state["queued"] == []

    asyncio.run(main())


# -- replays, records, idle tables --------------------------------------------------------


def test_replay_pages(tmp_path: Any) -> None:
    async def main() -> None:
        async with served(str(tmp_path)) as (hub, url), aiohttp.ClientSession() as s:
            made = await create(s, url, _table("kasimir", 2, []))
            a, b = await _join_all(s, url, made)
            spectator = await Client.join(s, url, made["table"], made["spectator"])
            mover = a if a.to_act else b
            await mover.move(mover.state["legal"][0][0])
            await mover.next_state()
            await a.send({"type": "replay"})
            msg = await a.receive()
            assert msg is not None and msg["type"] == "replay" and msg["url"].startswith("/replay/")
            async with s.get(url + msg["url"][1:]) as r:
                page = await r.text()
                assert r.status == 200 and page.startswith("<!DOCTYPE html>")
                csp = r.headers["Content-Security-Policy"]
            assert "script-src 'sha256-" in csp and "'unsafe-inline'" not in csp.split("script-src")[1].split(";")[0]
            assert page.count('class="frame"') == 2 and "unfinished game" in page
            table_id, seat, expires, mac = msg["url"][len("/replay/") :].split(".")
            for forged in (
                f"{table_id}.1.{expires}.{mac}",
                f"{table_id}.{seat}.{int(expires) + 9}.{mac}",
                f"{table_id}.{seat}.1.{mac}",
                "x",
            ):
                async with s.get(url + "replay/" + forged) as r:
                    assert r.status == 404, forged
            await spectator.send({"type": "replay"})
            assert (await spectator.next_error())["code"] == "spectator"

    asyncio.run(main())


def test_idle_tables_are_closed_and_kept(tmp_path: Any) -> None:
    async def main() -> None:
        async with (
            served(str(tmp_path), idle_seconds=0.5, sweep_seconds=0.2) as (hub, url),
            aiohttp.ClientSession() as s,
        ):
            made = await create(s, url, _table("cheese_rescue", 2, []))
            a, b = await _join_all(s, url, made)
            st = await a.until(lambda st: st["status"] == "abandoned", timeout=20)
            assert st["to_act"] == [] and st["legal"] == []
            mover = a if a.state["turn"] == 0 and b.state["turn"] == 0 else b
            await mover.move(0, 0)
            assert (await mover.next_error())["code"] == "over"
            kept = dict(await hub.store.records(statuses=("abandoned",)))
            assert records.loads(kept[made["table"]]).result["terminal"] is False
            # a closed table nobody watches leaves memory; its link still shows how it ended
            await a.ws.close()
            await b.ws.close()
            for _ in range(50):
                if made["table"] not in hub.tables:
                    break
                await asyncio.sleep(0.1)
            assert made["table"] not in hub.tables
            again = await Client.join(s, url, made["table"], a.token)
            assert again.state["status"] == "abandoned"

    asyncio.run(main())


def test_export_records_and_replay_them(tmp_path: Any) -> None:
    async def main() -> None:
        async with served(str(tmp_path)) as (hub, url), aiohttp.ClientSession() as s:
            made = await create(s, url, _table("kasimir", 1, ["random"]))
            (a,) = await _join_all(s, url, made)
            await play_out([a], random.Random(1))

    asyncio.run(main())
    out = os.path.join(str(tmp_path), "records.json")
    db = os.path.join(str(tmp_path), "serve.db")
    done = subprocess.run(
        [sys.executable, "-m", "mousehole", "serve", "--db", db, "--export-records", out],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"{out}: 1 records of finished games"
    shown = subprocess.run(
        [sys.executable, "-m", "mousehole", "replay", out, "--index", "0"], capture_output=True, text=True, timeout=120
    )
    assert shown.returncode == 0 and "result: " in shown.stdout


def test_serve_help_and_bad_options(capsys: Any, tmp_path: Any) -> None:
    from mousehole import cli

    with pytest.raises(SystemExit):
        cli.main(["serve", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if a.dest == "command").choices["serve"]
    for action in sub._actions:
        if action.dest != "help":
            assert action.help and "(default: " in action.help and " ".join(action.help.split()) in out
    with pytest.raises(SystemExit) as e:
        cli.main(["serve", "--port", "70000"])
    assert e.value.code == 2
    with pytest.raises(SystemExit) as e:
        cli.main(["serve", "--db", os.path.join(str(tmp_path), "no", "such", "x.db"), "--port", "0"])
    assert e.value.code == 2
    assert "the folder" in capsys.readouterr().err


def test_pictures_in_worker_processes(tmp_path: Any) -> None:
    """With picture workers the pictures are drawn off the event loop, the same bytes."""

    async def main() -> None:
        async with served(str(tmp_path), picture_workers=1) as (hub, url), aiohttp.ClientSession() as s:
            made = await create(s, url, _table("m", 2, []))
            a, b = await _join_all(s, url, made)
            table = hub.tables[made["table"]]
            from mousehole.render import svg

            assert a.state["picture"] == svg(table.state, for_player=0)
            assert b.state["picture"] == svg(table.state, for_player=1)

    asyncio.run(main())


def test_a_store_conflict_is_caught(tmp_path: Any) -> None:
    """Two writers of the same entry (two processes): the second gets Conflict, the log one
    entry."""
    from mousehole.serve.storage import Conflict

    async def main() -> None:
        store = Store(os.path.join(str(tmp_path), "x.db"))
        await store.open()
        try:
            await store.append("t", 1, 0, 5, 1.0)
            with pytest.raises(Conflict):
                await store.append("t", 1, 1, 6, 2.0)
            await asyncio.gather(*(store.append("t", k, 0, k, 3.0) for k in range(2, 40)))
            assert [e[0] for e in await store.log("t")] == list(range(1, 40))
        finally:
            await store.close()

    asyncio.run(main())


def test_one_object_a_table(tmp_path: Any) -> None:
    """A table is one object in a process however it is reached (created here, loaded on a
    notice of another process, found for a link): a second copy would miss the moves made on
    the first, and its connections would stop hearing of them."""

    async def main() -> None:
        async with served(str(tmp_path)) as (hub, url), aiohttp.ClientSession() as s:
            made = await create(s, url, _table("kasimir", 2, []))
            table = hub.tables[made["table"]]
            row = await hub.store.table(made["table"])
            assert row is not None
            assert await hub._load_row(row) is table
            assert await hub.find(made["table"]) is table
            hub._on_notify(f"{made['table']} new")
            await asyncio.sleep(0.2)
            assert hub.tables[made["table"]] is table

    asyncio.run(main())
