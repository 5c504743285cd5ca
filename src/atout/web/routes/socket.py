"""The tables' WebSocket: a browser's connection to one table's actor, in the typed protocol."""

from __future__ import annotations

import asyncio
from typing import Generic, TypeVar

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import BaseModel

from atout.i18n import tr
from atout.web.actor import Act, Command, Connect, Disconnect, SetTalk, Speak
from atout.web.deps import Service
from atout.web.protocol import Act as ActMessage
from atout.web.protocol import BadMessage, ErrorMessage, Hello, Outgoing, Pong, RateLimit, Say, Simple, parse_message
from atout.web.protocol import Lang as LangMessage
from atout.web.protocol import SetTalk as SetTalkMessage

router = APIRouter()

M = TypeVar("M", bound=BaseModel)

#: Messages queued for one client before it counts as gone (it reconnects and gets a snapshot).
OUTBOX = 512
#: Seconds a new WebSocket has to say hello.
HELLO_TIMEOUT = 10.0
#: Messages refused for flooding before the connection is closed.
FLOOD_LIMIT = 50


class Outbox(Generic[M]):
    """One page's WebSocket: an outbox its server side fills (never blocking) and a task that writes it."""

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket
        self.outbox: asyncio.Queue[M | int] = asyncio.Queue(OUTBOX)

    def send(self, message: M) -> None:
        try:
            self.outbox.put_nowait(message)
        except asyncio.QueueFull:  # a page that cannot keep up reconnects and starts anew
            self.close(4008)

    def close(self, code: int) -> None:
        while True:
            try:
                self.outbox.put_nowait(code)
                return
            except asyncio.QueueFull:
                self.outbox.get_nowait()

    async def write(self) -> None:
        while True:
            message = await self.outbox.get()
            if isinstance(message, int):
                await self.websocket.close(message)
                return
            await self.websocket.send_text(message.model_dump_json(exclude_unset=True))


class WsConnection(Outbox[Outgoing]):
    """One browser's WebSocket at a table: the actor fills its outbox (a client that cannot keep up reconnects
    and gets a snapshot)."""

    def __init__(self, websocket: WebSocket, player: str | None, lang: str) -> None:
        super().__init__(websocket)
        self.player = player
        self.lang = lang


async def receive_text(websocket: WebSocket) -> str | None:
    """The client's next message: its text, or None for a binary one (the protocol has none).

    Raises :class:`WebSocketDisconnect` when the client has gone.
    """
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    return text if isinstance(text, str) else None


def _error(conn: WsConnection, code: str) -> ErrorMessage:
    return ErrorMessage(code=code, message=tr(f"web.error.{code}", conn.lang))


@router.websocket("/ws/{code}")
async def table_socket(websocket: WebSocket, code: str, service: Service) -> None:
    await websocket.accept()
    actor = await service.actor(code)
    if actor is None:
        await websocket.close(4404)
        return
    try:
        text = await asyncio.wait_for(receive_text(websocket), HELLO_TIMEOUT)
        if text is None:
            raise BadMessage("binary message")
        hello = parse_message(text)
    except (TimeoutError, BadMessage, WebSocketDisconnect):
        await websocket.close(4400)
        return
    if not isinstance(hello, Hello):
        await websocket.close(4400)
        return
    conn = WsConnection(websocket, service.player(hello.token, actor.code), hello.lang)
    writer = asyncio.create_task(conn.write())
    actor.submit(Connect(conn, hello.epoch, hello.version))
    loop = asyncio.get_running_loop()
    rate = RateLimit(loop.time())
    refused = 0
    try:
        while not writer.done():
            text = await receive_text(websocket)
            if not rate.allow(loop.time()):
                refused += 1
                conn.send(_error(conn, "flood"))
                if refused > FLOOD_LIMIT:
                    conn.close(1008)
                continue
            try:
                if text is None:
                    raise BadMessage("binary message")
                message = parse_message(text)
            except BadMessage:
                conn.send(_error(conn, "malformed"))
                continue
            if isinstance(message, ActMessage):
                actor.submit(Act(conn, message.action, message.id))
            elif isinstance(message, Say):
                actor.submit(Speak(conn, message.quick, message.text))
            elif isinstance(message, SetTalkMessage):
                actor.submit(SetTalk(conn, message.free_text, message.spectators))
            elif isinstance(message, LangMessage):
                actor.submit(Command(conn, "lang", message.lang))
            elif isinstance(message, Simple) and message.type == "ping":
                conn.send(Pong())
            elif isinstance(message, Simple):
                actor.submit(Command(conn, message.type))
    except WebSocketDisconnect:
        pass
    except RuntimeError:  # the socket was closed by the server side
        pass
    finally:
        actor.submit(Disconnect(conn))
        writer.cancel()
