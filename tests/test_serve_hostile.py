"""``mousehole serve`` against hostile clients: malformed, illegal, oversized, binary and
too many frames, bad tokens and origins, too many connections; every refused message is
answered by exactly one error frame and changes nothing. And clients that keep every byte
they receive: nothing in it is a secret of the server (seeds, the generator, another seat's
hidden cards), and every frame a seat gets is what its own view makes (the same for a
position dealt anew from that view)."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any, Dict, List, Optional, Set

import aiohttp
import pytest

import mousehole
from mousehole.render import svg
from mousehole.serve import protocol, views
from mousehole.serve.tables import Refused
from serve_kit import Client, create, served

pytestmark = pytest.mark.serve

#: what a state frame may hold, no more
STATE_KEYS = {"type", "seq", "ply", "status", "to_act", "picture", "events", "turn", "queued", "legal", "result"}


def _table(game: str, persons: int = 2, **extra: Any) -> Dict[str, Any]:
    return {"game": game, "seats": [{"name": f"p{i}"} for i in range(persons)], "seconds": 0.05, **extra}


async def _answer(c: Client, frame: Any) -> List[Dict[str, Any]]:
    """Send ``frame``, then a ping: the frames the server sent in between (the answer)."""
    await c.send(frame)
    await c.send({"type": "ping"})
    got = []
    while True:
        msg = await c.receive(10)
        assert msg is not None, f"closed after {frame!r:.80}"
        if msg["type"] == "pong":
            return got
        got.append(msg)


BAD_FRAMES = [
    ("not json", "bad-message"),
    ("[]", "bad-message"),
    ('"move"', "bad-message"),
    ("{}", "bad-message"),
    ('{"type": "fly"}', "bad-message"),
    ('{"type": 5}', "bad-message"),
    ('{"type": "move"}', "bad-message"),
    ('{"type": "move", "turn": 0}', "bad-message"),
    ('{"type": "move", "turn": 0, "action": 1, "text": "x"}', "bad-message"),
    ('{"type": "move", "turn": 0, "action": 1, "seat": 1}', "bad-message"),
    ('{"type": "move", "turn": 0, "text": ""}', "bad-message"),
    ('{"type": "move", "turn": 0, "text": "' + "x" * 201 + '"}', "bad-message"),
    ('{"type": "move", "turn": 0, "text": 7}', "bad-message"),
    ('{"type": "ping", "x": 1}', "bad-message"),
    ("[" * 30 + "]" * 30, "bad-message"),
    ('{"type": "hello", "token": "' + "a" * 43 + '"}', "hello"),
    ('{"type": "move", "turn": 0, "action": 99999999999999999999999999}', "illegal"),
    ('{"type": "move", "turn": 0, "action": -1}', "illegal"),
    ('{"type": "move", "turn": 0, "action": 1.5}', "illegal"),
    ('{"type": "move", "turn": 0, "action": NaN}', "illegal"),
    ('{"type": "move", "turn": 0, "action": "3"}', "illegal"),
    ('{"type": "move", "turn": 0, "action": true}', "illegal"),
    ('{"type": "move", "turn": 0, "action": null}', "illegal"),
    ('{"type": "move", "turn": 0, "text": "seat 9 does \\u202e something"}', "illegal"),
    ('{"type": "move", "turn": 7, "action": 0}', "stale"),
    ('{"type": "move", "turn": -1, "action": 0}', "stale"),
    ('{"type": "move", "turn": 1e308, "action": 0}', "stale"),
    ('{"type": "move", "turn": [0], "action": 0}', "stale"),
]


@pytest.mark.parametrize("game", ["m", "maus_au_chocolat"])
def test_every_bad_frame_gets_one_error_and_changes_nothing(game: str, tmp_path: Any) -> None:
    async def main() -> None:
        async with served(str(tmp_path)) as (hub, url), aiohttp.ClientSession() as s:
            made = await create(s, url, _table(game, 3))
            clients = [await Client.join(s, url, made["table"], x["token"]) for x in made["seats"]]
            spectator = await Client.join(s, url, made["table"], made["spectator"])
            table = hub.tables[made["table"]]
            before = (table.state.clone(), table.seq, list(table.turns))
            mover = next(c for c in clients if c.to_act)
            idle = next((c for c in clients if not c.to_act), None)
            sent = 0
            for frame, code in BAD_FRAMES:
                if sent == protocol.MAX_ERRORS - 1:  # a fresh connection before the error budget ends
                    mover = await Client.join(s, url, made["table"], mover.token)
                    sent = 0
                got = await _answer(mover, frame)
                assert [m["type"] for m in got] == ["error"] and got[0]["code"] == code, (frame, got)
                assert len(got[0]["message"]) < 400
                sent += 1
            if idle is not None:
                got = await _answer(idle, {"type": "move", "turn": 0, "action": mover.state["legal"][0][0]})
                assert [m["code"] for m in got] == ["not-your-turn"]
            got = await _answer(spectator, {"type": "move", "turn": 0, "action": 0})
            assert [m["code"] for m in got] == ["spectator"]
            await mover.ws.send_bytes(b'{"type": "ping"}')
            assert (await mover.next_error())["code"] == "bad-message"
            assert (table.state, table.seq, table.turns) == before
            # the same connections still play
            await mover.move(mover.state["legal"][0][0])
            await mover.reach(1)

    asyncio.run(main())


def test_random_frames_are_refused_one_by_one(tmp_path: Any) -> None:
    """Seeded random mutations of good frames (types, fields, values, cuts); those that would
    be a legal move are left out: each of the others gets exactly one error frame and the
    table does not change."""
    rng = random.Random(42)

    def mutate(good: Dict[str, Any]) -> str:
        msg: Dict[str, Any] = dict(good)
        for _ in range(rng.randint(1, 3)):
            kind = rng.randrange(6)
            key = rng.choice(list(msg) + ["type", "turn", "action", "text", "token", "x" * rng.randint(1, 9)])
            values: List[Any] = [
                None,
                True,
                -1,
                0,
                2**70,
                1e9,
                "",
                "move",
                "hello",
                "\x00",
                "é" * 50,
                [],
                {},
                [1, 2],
                {"a": 1},
                rng.randint(-5, 500),
                "x" * rng.randint(0, 300),
            ]
            if kind <= 2:
                msg[key] = rng.choice(values)
            elif kind == 3:
                msg.pop(key, None)
            elif kind == 4:
                msg = {str(k)[::-1]: v for k, v in msg.items()}
            else:
                text = json.dumps(msg)
                return text[: rng.randrange(len(text) + 1)]
        return json.dumps(msg)

    async def main() -> None:
        async with served(str(tmp_path)) as (hub, url), aiohttp.ClientSession() as s:
            made = await create(s, url, _table("cheese_rescue", 2))
            a, b = [await Client.join(s, url, made["table"], x["token"]) for x in made["seats"]]
            table = hub.tables[made["table"]]
            mover = a if a.to_act else b
            before = (table.state.clone(), table.seq)
            sent = checked = 0
            while checked < 150:
                good = rng.choice(
                    [
                        {"type": "move", "turn": 0, "action": mover.state["legal"][0][0]},
                        {"type": "ping"},
                        {"type": "replay"},
                    ]
                )
                frame = mutate(good)
                try:
                    msg = protocol.parse(frame)
                    if msg["type"] in ("ping", "replay"):
                        continue
                    if msg["type"] == "move":
                        table.check(mover.welcome["seat"], msg["turn"], msg.get("action"), msg.get("text"))
                        continue  # a legal move: not sent
                except Refused:
                    pass
                if sent == protocol.MAX_ERRORS - 1:
                    mover = await Client.join(s, url, made["table"], mover.token)
                    sent = 0
                got = await _answer(mover, frame)
                assert [m["type"] for m in got] == ["error"], (frame, got)
                sent += 1
                checked += 1
            assert (table.state, table.seq) == before

    asyncio.run(main())


def test_too_many_errors_big_frames_and_floods_close_the_connection(tmp_path: Any) -> None:
    async def main() -> None:
        async with served(str(tmp_path)) as (hub, url), aiohttp.ClientSession() as s:
            made = await create(s, url, _table("kasimir", 2))
            token = made["seats"][0]["token"]
            table = hub.tables[made["table"]]
            # the error budget: MAX_ERRORS error frames, then 1008
            c = await Client.join(s, url, made["table"], token)
            for _ in range(protocol.MAX_ERRORS):
                await c.send("nonsense")
            errors = 0
            while (msg := await c.receive(10)) is not None:
                errors += msg["type"] == "error"
            assert errors == protocol.MAX_ERRORS and c.ws.close_code == 1008
            # a frame larger than the limit: 1009, nothing read
            c = await Client.join(s, url, made["table"], token)
            await c.send('{"type": "ping", "pad": "' + "x" * protocol.MAX_MESSAGE_BYTES + '"}')
            assert await c.receive(10) is None and c.ws.close_code == 1009
            # a flood beyond the rate: one error, then 1008
            c = await Client.join(s, url, made["table"], token)
            for _ in range(protocol.BURST + 30):
                await c.send({"type": "ping"})
            kinds = []
            while (msg := await c.receive(10)) is not None:
                kinds.append(msg["type"] if msg["type"] != "error" else msg["code"])
            assert kinds[-1] == "rate" and kinds.count("rate") == 1 and c.ws.close_code == 1008
            assert table.seq == 0
            # the table still plays with a good connection
            c = await Client.join(s, url, made["table"], made["seats"][0]["token"])
            assert c.state["seq"] == 0

    asyncio.run(main())


def test_links_that_are_not_a_seat_are_refused(tmp_path: Any) -> None:
    async def main() -> None:
        async with served(str(tmp_path), hello_seconds=0.5) as (hub, url), aiohttp.ClientSession() as s:
            made = await create(s, url, _table("m", 2))
            other = await create(s, url, _table("m", 2))
            table_id, token0 = made["table"], made["seats"][0]["token"]

            async def refused(hello: Any, table: str = table_id) -> Dict[str, Any]:
                ws = await s.ws_connect(url + f"ws/{table}")
                if hello is not None:
                    await ws.send_str(hello if isinstance(hello, str) else json.dumps(hello))
                msg = await ws.receive(timeout=10)
                assert msg.type == aiohttp.WSMsgType.TEXT
                closing = await ws.receive(timeout=10)
                assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
                assert ws.close_code == 1008
                body: Dict[str, Any] = json.loads(msg.data)
                assert body["type"] == "error"
                return body

            cases = [
                ({"type": "hello", "token": "A" * 43}, "bad-token"),  # unknown here
                ({"type": "hello", "token": "short"}, "bad-token"),  # malformed
                ({"type": "hello", "token": "x" * 101}, "bad-token"),
                ({"type": "hello", "token": other["seats"][0]["token"]}, "bad-token"),  # another table's
                ({"type": "hello", "token": token0, "seat": 1}, "bad-token"),  # another seat's
                ({"type": "ping"}, "hello"),
                ("garbage", "bad-message"),
                (None, "hello"),  # silent
            ]
            for hello, code in cases:
                body = await refused(hello)
                assert body["code"] == code, (hello, body)
            async with s.get(url + "ws/..%2f..") as r:
                assert r.status == 404
            ok = await Client.join(s, url, table_id, token0, seat=0)
            assert ok.welcome["seat"] == 0

    asyncio.run(main())


def test_origins_and_connection_limits(tmp_path: Any) -> None:
    async def main() -> None:
        async with (
            served(str(tmp_path), max_per_ip=3, allow_origins=("https://friends.example",)) as (hub, url),
            aiohttp.ClientSession() as s,
        ):
            made = await create(s, url, _table("kasimir", 2))
            host = url.split("//")[1].rstrip("/")
            with pytest.raises(aiohttp.WSServerHandshakeError) as e:
                await s.ws_connect(url + f"ws/{made['table']}", headers={"Origin": "http://evil.example"})
            assert e.value.status == 403
            with pytest.raises(aiohttp.WSServerHandshakeError):
                await s.ws_connect(url + f"ws/{made['table']}", headers={"Origin": f"http://{host}.evil.example"})
            kept = []
            for origin in (f"http://{host}", "https://friends.example", None):
                ws = await s.ws_connect(url + f"ws/{made['table']}", headers={"Origin": origin} if origin else {})
                kept.append(ws)
            with pytest.raises(aiohttp.WSServerHandshakeError) as e:
                await s.ws_connect(url + f"ws/{made['table']}")
            assert e.value.status == 503
            for ws in kept:
                await ws.close()
            await asyncio.sleep(0.2)
            c = await Client.join(s, url, made["table"], made["seats"][0]["token"])
            assert c.welcome["seat"] == 0

    asyncio.run(main())


# -- nothing hidden leaves the server ----------------------------------------------------------


def _hidden_cards(full: Any, view: Any, key: str = "") -> Set[int]:
    """The cards (ints under hands, pile, bids) that ``full`` holds where ``view`` has None."""
    if isinstance(full, dict):
        out: Set[int] = set()
        for k, v in full.items():
            if k in ("rng", "history", "log", "params"):
                continue
            out |= _hidden_cards(v, view.get(k) if isinstance(view, dict) else None, k if not key else key)
        return out
    if isinstance(full, list):
        out = set()
        for i, v in enumerate(full):
            out |= _hidden_cards(v, view[i] if isinstance(view, list) and i < len(view) else None, key)
        return out
    if view is None and isinstance(full, int) and not isinstance(full, bool) and key in ("hands", "pile", "bids"):
        return {full} if full >= 0 else set()
    return set()


def _hidden_from(full: Dict[str, Any], view: Dict[str, Any]) -> Set[int]:
    """The cards hidden from the owner of ``view``: where its view has None, less the cards
    it knows another hand holds (Maus au Chocolat's ``known``: the cards everyone saw a seat
    take, MC-26)."""
    known = {c for held in view.get("known") or [] for c in held}
    return _hidden_cards(full, view) - known


def _own_cards_after_own_entries(table: Any, seat: int) -> Set[int]:
    """The cards seat ``seat`` holds while its own entries waiting in its queue are played
    (the seats before it in a phase of simultaneous bids laying placeholder bids, MC-27): a
    seat may be told of them (the card an Etienne swap draws, MC-16, names its bids before
    the seats before it have bid), though the table's position has not played them yet."""
    s = table.state.clone()
    queue = list(table.queues[seat])
    own: Set[int] = set()
    for _ in range(10 * (len(queue) + table.n)):
        own |= {c for c in (s.to_dict(for_player=seat).get("hands") or [[]] * table.n)[seat] or [] if c is not None}
        if not queue or s.is_terminal():
            break
        if s.current_player == seat:
            s.apply_action(queue.pop(0))
        elif 0 <= s.current_player < seat:
            s.apply_action(int(s.legal_actions()[0]))  # the lowest legal action is a bid
        else:
            break
    return own


def _card_names(game: Any, cards: Set[int]) -> Set[str]:
    if game.name == "m":
        return {game.card_name(c) for c in cards}
    if game.name == "maus_au_chocolat":
        return {game.card_token(c) for c in cards}
    return set()  # (Cheese Rescue hides counts of animal kinds, Kater Kasimir nothing)


def _check_frame(table: Any, audience: Optional[int], frame: str, r: int, deep: bool) -> None:
    """A frame a client received, against the server's secrets (the seeds, the generator,
    the cards hidden from the audience: none named in its texts) and, when ``deep``,
    against the same frame made from a position dealt anew from the audience's view."""
    state = table.state
    full = state.to_dict()
    for secret in (table.seed, table.bot_seed, full.get("rng")):
        if secret is not None:
            assert str(secret) not in frame and format(int(secret), "x") not in frame
    body = json.loads(frame)
    assert set(body) <= STATE_KEYS
    n = table.n
    texts = [e["text"] for e in body["events"]] + [t for _, t in body.get("legal", [])] + body.get("queued", [])
    if audience is None:
        assert set(body) - {"result"} == STATE_KEYS - {"turn", "queued", "legal", "result"}
        hidden: Set[int] = set()
        for p in range(n):
            hidden |= _hidden_from(full, state.to_dict(for_player=p))
    else:
        hidden = _hidden_from(full, state.to_dict(for_player=audience))
        hidden -= _own_cards_after_own_entries(table, audience)
    names = _card_names(table.game, hidden)
    for text in texts:
        for name in names:
            assert not any(w == name for w in text.replace(",", " ").split()), (name, text)
    if not deep:
        return
    if audience is None:
        other = state.determinize(r % n, r)
        pub = views.public_view([other.to_dict(for_player=p) for p in range(n)])
        assert body["picture"] == views.public_svg(other, pub)
        return
    other = state.determinize(audience, r)
    assert body["picture"] == svg(other, for_player=audience)
    decisions = table.decisions()
    if audience in decisions:
        twin = decisions[audience].determinize(audience, r + 1)
        assert body["legal"] == [[int(a), twin.describe(int(a))] for a in twin.legal_actions()]
    else:
        assert body["legal"] == []


#: a game of each title (Maus au Chocolat at 3: its bids are face down until all are in)
NO_SECRET = [("m", 2), ("maus_au_chocolat", 3), ("cheese_rescue", 2), ("kasimir", 2)]


def test_the_no_secret_cases_cover_every_game() -> None:
    assert {game for game, _ in NO_SECRET} == set(mousehole.game_names())


@pytest.mark.parametrize("game, players", NO_SECRET)
def test_no_secret_leaves_the_server(game: str, players: int, tmp_path: Any) -> None:
    """Every seat and a spectator keep every frame they receive through a whole game; after
    each move, when all have the new state, each one's latest frame is checked: no seed, no
    generator state, no key but the protocol's, no card hidden from the audience named; and
    every tenth move and at the end, the picture and the legal moves exactly what the
    audience's own view gives in a position where everything hidden from it was dealt
    anew."""

    async def main() -> None:
        async with served(str(tmp_path)) as (hub, url), aiohttp.ClientSession() as s:
            made = await create(s, url, _table(game, players))
            seats = [await Client.join(s, url, made["table"], x["token"]) for x in made["seats"]]
            spectator = await Client.join(s, url, made["table"], made["spectator"])
            table = hub.tables[made["table"]]
            rng = random.Random(game)
            step = 0
            while True:
                for c in seats + [spectator]:
                    await c.reach(table.seq)
                    _check_frame(table, c.welcome["seat"], c.frames[-1], step + 7, step % 10 == 0 or table.over)
                if table.over:
                    break
                mover = rng.choice([c for c in seats if c.to_act])
                seq = table.seq
                await mover.move(rng.choice(mover.state["legal"])[0])
                await mover.reach(seq + 1)
                step += 1
            total = sum(len(f) for c in seats + [spectator] for f in c.frames)
            assert total > 0 and all(not c.errors for c in seats)

    asyncio.run(main())
