"""What a client may send is limited before the server reads it: request heads, bodies, WebSocket messages.

Most tests speak to a real ``atout serve`` process over raw sockets, so that what is
checked is what uvicorn is configured with (the h11 parser and its head limit, the
WebSocket message limit) and what reaches the app: an unfinished head past the limit
is refused without waiting for its end; a body announced too long is refused without
being sent; a body sent in chunks is refused as soon as it passes the limit, without
waiting for its end; a binary WebSocket frame is refused like a malformed message,
with a close frame at the hello. The server logs no traceback for any of them.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets
from fastapi.testclient import TestClient
from harness import fast_settings
from harness.servers import free_port, start_server
from starlette.websockets import WebSocketDisconnect

from atout.i18n import tr
from atout.web.app import create_app
from atout.web.limits import MAX_BODY, MAX_HEAD, MAX_WS_MESSAGE

pytestmark = pytest.mark.anyio
#: Seconds to wait for an answer that should come at once (a server that waits for more data never gives one).
ANSWER = 10.0


@pytest.fixture(scope="module")
def port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """A real ``atout serve``; once the module's tests are done, its log must hold no traceback."""
    number = free_port()
    process = start_server(tmp_path_factory.mktemp("limits"), number)
    try:
        yield number
    finally:
        process.terminate()
        try:
            _, log = process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            _, log = process.communicate()
    assert b"Traceback" not in log, log.decode(errors="replace")


async def exchange(port: int, data: bytes) -> tuple[int, bytes]:
    """Send ``data`` on a new connection and read the server's answer to its end: its status and body.

    The client never sends more than the server reads before answering, so that the server
    closes cleanly (a socket closed with unread bytes is reset and may lose the answer).
    """
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(data)
        await writer.drain()
        answer = await asyncio.wait_for(reader.read(), ANSWER)
    finally:
        writer.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


def chunked(body: bytes, size: int = 4096) -> bytes:
    return b"".join(b"%x\r\n%s\r\n" % (len(body[i : i + size]), body[i : i + size]) for i in range(0, len(body), size))


async def test_an_unfinished_head_past_the_limit_is_refused_without_waiting_for_its_end(port: int) -> None:
    head = b"GET /healthz HTTP/1.1\r\nHost: atout\r\nX-Padding: " + b"a" * (MAX_HEAD + 1024)  # and no end
    status, body = await exchange(port, head)
    assert status == 400 and body == b"Invalid HTTP request received."
    assert (await exchange(port, b"GET /healthz HTTP/1.1\r\nHost: atout\r\nConnection: close\r\n\r\n"))[0] == 200


async def test_a_body_announced_too_long_is_refused_before_it_is_sent(port: int) -> None:
    head = (
        b"POST /api/tables?lang=en HTTP/1.1\r\nHost: atout\r\nContent-Type: application/json\r\n"
        b"Content-Length: 5000000\r\n\r\n"
    )
    status, body = await exchange(port, head)  # the 5 MB are never sent: the answer comes without them
    assert status == 413 and json.loads(body)["detail"] == tr("web.error.too_large", "en", limit=MAX_BODY)


async def test_a_body_in_chunks_is_refused_as_soon_as_it_passes_the_limit(port: int) -> None:
    head = (
        b"POST /api/tables HTTP/1.1\r\nHost: atout\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
    )
    status, body = await exchange(port, head + chunked(b" " * (MAX_BODY + 1)))  # and no last chunk
    assert status == 413 and json.loads(body)["detail"] == tr("web.error.too_large", "fr", limit=MAX_BODY)


async def test_a_body_in_chunks_within_the_limit_reaches_the_app(port: int) -> None:
    new_table = json.dumps({"preset": "coinche", "name": "Alice"}).encode()
    head = (
        b"POST /api/tables HTTP/1.1\r\nHost: atout\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    )
    status, body = await exchange(port, head + chunked(new_table, 7) + b"0\r\n\r\n")
    assert status == 200 and json.loads(body)["url"].startswith("/t/")


async def new_table(port: int) -> dict[str, str]:
    head = b"POST /api/tables HTTP/1.1\r\nHost: atout\r\nContent-Type: application/json\r\nConnection: close\r\n"
    body = json.dumps({"preset": "coinche", "name": "Alice"}).encode()
    status, answer = await exchange(port, head + b"Content-Length: %d\r\n\r\n" % len(body) + body)
    assert status == 200
    return dict(json.loads(answer))


async def until(ws: websockets.ClientConnection, test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The next message that passes ``test``."""
    while not test(message := json.loads(await asyncio.wait_for(ws.recv(), ANSWER))):
        pass
    return dict(message)


async def test_a_websocket_message_past_the_limit_closes_the_connection(port: int) -> None:
    table = await new_table(port)
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/{table['code']}", max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": table["token"]}))
        assert json.loads(await asyncio.wait_for(ws.recv(), ANSWER))["type"] == "snapshot"
        await ws.send("x" * (MAX_WS_MESSAGE + 1))
        await ws.send(json.dumps({"type": "ping"}))
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:
                assert json.loads(await asyncio.wait_for(ws.recv(), ANSWER))["type"] != "pong"
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


async def test_binary_frames_are_refused_like_malformed_messages(port: int) -> None:
    table = await new_table(port)
    hello = json.dumps({"type": "hello", "token": table["token"]})
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/{table['code']}") as ws:
        await ws.send(hello.encode())  # a binary hello: closed, with a close frame
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(ws.recv(), ANSWER)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4400
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/{table['code']}") as ws:
        await ws.send(hello)
        assert json.loads(await asyncio.wait_for(ws.recv(), ANSWER))["type"] == "snapshot"
        await ws.send(json.dumps({"type": "ping"}).encode())
        error = await until(ws, lambda m: m["type"] in ("error", "pong"))
        assert error["type"] == "error" and error["code"] == "malformed"
        await ws.send(json.dumps({"type": "ping"}))
        assert (await until(ws, lambda m: m["type"] in ("error", "pong")))["type"] == "pong"


def test_a_whole_head_past_the_limit_is_refused_before_the_app(tmp_path: Path) -> None:
    """A head that arrives whole in one read escapes h11's limit (on unfinished heads): the app's guard refuses it."""
    with TestClient(create_app(fast_settings(tmp_path))) as client:
        big = {"X-Padding": "a" * 100_000}
        refused = client.get("/healthz", headers=big)
        assert refused.status_code == 431 and refused.json()["detail"] == tr(
            "web.error.too_large", "fr", limit=MAX_HEAD
        )
        assert client.get("/api/games/1?lang=en", headers=big).json()["detail"].startswith("Request too long")
        table = client.post("/api/tables", json={"preset": "coinche", "name": "Alice"}).json()
        with pytest.raises(WebSocketDisconnect), client.websocket_connect(f"/ws/{table['code']}", headers=big):
            pass
        assert client.get("/healthz", headers={"X-Padding": "a" * (MAX_HEAD // 2)}).status_code == 200
        assert len(client.app.state.service.actors) == 0  # type: ignore[attr-defined]  # the table was not loaded
