"""The WebSocket protocol of ``mousehole serve`` (version :data:`PROTOCOL`): JSON text frames.

A client opens ``/ws/<table id>`` and sends, within :data:`HELLO_SECONDS`::

    {"type": "hello", "token": "<the token of its link>"}

(``"seat": k`` may be added: a token that is not seat k's is then refused). The server
answers ``welcome`` (the table's public facts and the client's seat, ``null`` for a
spectator) and a first ``state``; after that a ``state`` follows every change. Then the
client may send::

    {"type": "move", "turn": 4, "action": 37}       # an action of its legal list
    {"type": "move", "turn": 4, "text": "dog@3,4"}  # or a move in the game's notation
    {"type": "replay"}                               # a ticket for its replay page
    {"type": "ping"}                                 # answered by {"type": "pong"}

``turn`` is the ``turn`` of the last ``state``: the seat's own move count, so that a move
chosen on an old picture (a double click, a stale page) is refused, not played elsewhere.

A ``state`` frame holds ``seq`` (the table's log length), ``ply`` (the game's moves
applied), ``status`` (``open``, ``finished``, ``abandoned``), ``to_act`` (the seats with a
decision to make), ``picture`` (SVG of the audience's view), ``events`` (the moves not sent
before, described as the audience saw them), and for a seat ``turn``, ``legal`` (``[[action,
text], ...]`` when it is to act), ``queued`` (its bids waiting face down), and at the end
``result`` (scores, winners, why the game ended).

Every message the server refuses is answered by exactly one ``{"type": "error", "code":
..., "message": ...}`` and changes nothing: a frame that is not JSON, not an object, of an
unknown type or with unknown fields (``bad-message``), a binary frame, a move that is not the
seat's to make (``not-your-turn``, ``spectator``, ``over``), chosen at another turn
(``stale``) or illegal (``illegal``, naming the rule). A connection is closed (code 1008)
after :data:`MAX_ERRORS` errors, when it sends faster than :data:`RATE` messages a second
(beyond a burst of :data:`BURST`), or without a good ``hello``; a frame larger than
:data:`MAX_MESSAGE_BYTES` closes it with code 1009.
"""

from __future__ import annotations

import json
import re
from typing import Any, Dict, Optional

from .._values import is_int
from .tables import MAX_MOVE_TEXT, Refused

__all__ = [
    "PROTOCOL",
    "MAX_MESSAGE_BYTES",
    "RATE",
    "BURST",
    "MAX_ERRORS",
    "HELLO_SECONDS",
    "parse",
    "error_frame",
    "TOKEN_RE",
    "TABLE_ID_RE",
    "SEND_SECONDS",
]

PROTOCOL = 1
#: the largest frame a client may send (bytes); larger ones close the connection (1009)
MAX_MESSAGE_BYTES = 4096
#: messages a second a connection may send, beyond a first burst of BURST
RATE = 10.0
BURST = 40
#: errors a connection may cause before it is closed
MAX_ERRORS = 20
#: seconds a new connection has to say hello (``Config.hello_seconds``)
HELLO_SECONDS = 10.0
#: seconds a frame may take to leave before the connection is dropped (a client that reads
#: nothing cannot hold the server's memory: it is sent only the latest state)
SEND_SECONDS = 20.0
#: what a token looks like (``secrets.token_urlsafe(32)``)
TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{20,100}\Z")
#: what a table id looks like (``secrets.token_urlsafe(9)``)
TABLE_ID_RE = re.compile(r"[A-Za-z0-9_-]{8,40}\Z")

_FIELDS = {
    "hello": ({"token"}, {"seat", "protocol"}),
    "move": ({"turn"}, {"action", "text"}),
    "replay": (set(), set()),
    "ping": (set(), set()),
}


def _bad(message: str) -> Refused:
    return Refused("bad-message", message)


def parse(text: str) -> Dict[str, Any]:
    """A client's frame as a checked dict, or :class:`Refused` (``bad-message``)."""
    if len(text) > MAX_MESSAGE_BYTES:
        raise _bad(f"a message is at most {MAX_MESSAGE_BYTES} bytes")
    if text.count("[") + text.count("{") > 8:
        raise _bad("a message is a flat JSON object")
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError):
        raise _bad("a message is a JSON object") from None
    if not isinstance(msg, dict):
        raise _bad("a message is a JSON object")
    kind = msg.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise _bad(f"unknown message type; allowed: {', '.join(sorted(_FIELDS))}")
    need, may = _FIELDS[kind]
    keys = set(msg) - {"type"}
    if not need <= keys or keys - need - may:
        fields = ", ".join(sorted(need | may)) or "none"
        raise _bad(
            f"a {kind} message has the fields {fields}" + (f" ({', '.join(sorted(need))} required)" if need else "")
        )
    if kind == "hello":
        token = msg["token"]
        if not isinstance(token, str) or not TOKEN_RE.match(token):
            raise Refused("bad-token", "this link's token is malformed")
        seat = msg.get("seat")
        if seat is not None and not is_int(seat):
            raise _bad("seat is an int")
    if kind == "move":
        if ("action" in msg) == ("text" in msg):
            raise _bad("a move has an action or a text (one of them)")
        if "text" in msg and (not isinstance(msg["text"], str) or not 1 <= len(msg["text"]) <= MAX_MOVE_TEXT):
            raise _bad(f"a move's text is 1 to {MAX_MOVE_TEXT} characters")
    return msg


def error_frame(code: str, message: str) -> str:
    return json.dumps({"type": "error", "code": code, "message": message})


def seat_of(msg: Dict[str, Any]) -> Optional[int]:
    seat = msg.get("seat")
    return None if seat is None else int(seat)
