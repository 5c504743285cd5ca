"""The lobby's WebSocket: the tables listed on the home page, then what changes in the list.

The page says nothing but, now and then, ``ping``; anything else closes the socket (4400), and so does a
flood (1008). A page too slow to read its messages is disconnected (4008) and reconnects for a new list.
"""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from atout.web.deps import Service
from atout.web.protocol import BadMessage, LobbyChange, LobbySnapshot, Pong, RateLimit, Simple, parse_message
from atout.web.routes.socket import Outbox, receive_text

router = APIRouter()

LobbyOutgoing = LobbySnapshot | LobbyChange | Pong


class LobbyConnection(Outbox[LobbyOutgoing]):
    """One home page's WebSocket: the lobby fills its outbox (a page that cannot keep up reconnects and gets the
    list anew)."""


@router.websocket("/ws/lobby")
async def lobby_socket(websocket: WebSocket, service: Service) -> None:
    await websocket.accept()
    conn = LobbyConnection(websocket)
    conn.send(service.lobby.join(conn))
    writer = asyncio.create_task(conn.write())
    loop = asyncio.get_running_loop()
    rate = RateLimit(loop.time())
    try:
        while not writer.done():
            text = await receive_text(websocket)
            if not rate.allow(loop.time()):
                conn.close(1008)
                continue
            try:
                message = parse_message(text) if text is not None else None
            except BadMessage:
                message = None
            if isinstance(message, Simple) and message.type == "ping":
                conn.send(Pong())
            else:
                conn.close(4400)
    except (WebSocketDisconnect, RuntimeError):  # the page left, or the socket was closed on our side
        pass
    finally:
        service.lobby.leave(conn)
        writer.cancel()
