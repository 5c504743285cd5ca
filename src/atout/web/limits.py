"""Limits on what a client may send, enforced before the server reads it.

* A request's head (request line and headers, :data:`MAX_HEAD`) is limited twice:
  uvicorn's h11 parser stops buffering an unfinished head past the limit
  (``h11_max_incomplete_event_size``: answered 400, the connection closed), and
  :class:`RequestLimits` refuses a head that arrived whole in one read but is
  still over the limit (431 for a request; a WebSocket is refused, 403), before
  the app sees it.
* A request's body is limited by :class:`RequestLimits`, an ASGI middleware in
  front of the app (:data:`MAX_BODY`): a ``Content-Length`` over the limit is
  answered 413 at once, without reading the body; a body sent in chunks (no
  ``Content-Length``) is counted as it arrives and refused the same way as soon as
  it passes the limit, before the app reads any of it.
* A WebSocket message is limited by uvicorn (:data:`MAX_WS_MESSAGE`: ``ws_max_size``);
  a longer one closes the connection (code 1009). The protocol itself refuses a
  message over :data:`~atout.web.protocol.MAX_MESSAGE` characters.
* An integer in a path or a query is bounded by :data:`MAX_INT` (the database's
  32-bit integers); past it the answer is 422.
* What costs the server work is limited per client address and hour (:class:`AddressLimit`):
  creating tables, and analysing deals.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict, deque

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from atout.i18n import normalize, tr
from atout.web.protocol import MAX_MESSAGE

#: Longest request head (request line and headers), in bytes.
MAX_HEAD = 16 * 1024
#: Longest request body, in bytes (the largest the API takes, a new table, is well under 2 KB).
MAX_BODY = 16 * 1024
#: Longest WebSocket message, in bytes: the protocol's longest message in UTF-8.
MAX_WS_MESSAGE = 4 * MAX_MESSAGE
#: Largest integer a path or a query may carry: ids and numbers are 32-bit integers in the database.
MAX_INT = 2**31 - 1


def head_size(scope: Scope) -> int:
    """About the size in bytes of a request's head as it was sent: its request line and headers."""
    line = len(scope.get("method", "GET")) + len(scope.get("raw_path") or b"") + len(scope["query_string"]) + 12
    return line + sum(len(name) + len(value) + 4 for name, value in scope["headers"]) + 2


class RequestLimits:
    """ASGI middleware: refuse a request whose head is over ``max_head`` bytes (431) or whose body is
    over ``max_body`` bytes (413), before the app reads it; a WebSocket with too long a head is refused.

    (FastAPI's own ``max_body_size`` counts the bytes only as a route reads them: a route that
    does not read its body would run before the 413. Here nothing of the app runs.)
    """

    def __init__(self, app: ASGIApp, max_head: int = MAX_HEAD, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.max_head = max_head
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and head_size(scope) > self.max_head:
            await receive()  # websocket.connect
            await send({"type": "websocket.close", "code": 1009})  # before the handshake: HTTP 403
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if head_size(scope) > self.max_head:
            await self._refuse(scope, send, 431, self.max_head)
            return
        headers = {k.lower(): v for k, v in scope["headers"]}
        length = headers.get(b"content-length")
        if length is not None:
            if not length.strip().isdigit() or int(length) > self.max_body:
                await self._refuse(scope, send, 413, self.max_body)
                return
            await self.app(scope, receive, send)
            return
        if b"transfer-encoding" not in headers:  # no body at all
            await self.app(scope, receive, send)
            return
        # A body in chunks: read it here, counting, and hand it to the app only if it is small enough.
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                await self._refuse(scope, send, 413, self.max_body)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    @staticmethod
    async def _refuse(scope: Scope, send: Send, status: int, limit: int) -> None:
        """Answer ``status`` with the reason in the visitor's language, and close the connection."""
        request = Request(scope)
        lang = normalize(request.query_params.get("lang") or request.cookies.get("lang") or "fr")
        content = json.dumps({"detail": tr("web.error.too_large", lang, limit=limit)}, ensure_ascii=False)
        body = content.encode()
        headers: list[tuple[bytes, bytes]] = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),  # the rest of the body is never read
        ]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})


class AddressLimit:
    """How many times each client address may do something per hour (create a table, have a deal analysed)."""

    def __init__(self, per_hour: int) -> None:
        self.per_hour = per_hour
        self.times: dict[str, deque[float]] = defaultdict(deque)

    def allow(self, client: str) -> bool:
        now = time.monotonic()
        times = self.times[client]
        while times and times[0] < now - 3600:
            times.popleft()
        if len(times) >= self.per_hour:
            return False
        times.append(now)
        return True
