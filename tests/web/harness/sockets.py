"""A test client's WebSocket read with a bound (Starlette's own ``receive`` waits for ever), and the view its
messages build, as the page keeps it."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from pydantic import TypeAdapter
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from atout.web.client import ClientView, actions
from atout.web.protocol import ServerMessage
from harness.tables import WAIT

SERVER_MESSAGES: TypeAdapter[Any] = TypeAdapter(ServerMessage)


class Session:
    """One WebSocket of Starlette's test client, speaking the table's protocol."""

    def __init__(self, ws: WebSocketTestSession) -> None:
        self.ws = ws
        self.client = ClientView()

    @property
    def view(self) -> dict[str, Any]:
        return self.client.view

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send_json(message)

    def receive(self, timeout: float = WAIT) -> dict[str, Any]:
        """The next message (at most ``timeout`` seconds away); :class:`WebSocketDisconnect` if it is a close."""

        async def read() -> Any:  # on the test client's event loop (asyncio)
            return await asyncio.wait_for(self.ws._send_rx.receive(), timeout)  # receive() itself has no bound

        raw = self.ws.portal.call(read)
        if raw["type"] == "websocket.close":
            raise WebSocketDisconnect(code=raw.get("code", 1000), reason=raw.get("reason", ""))
        SERVER_MESSAGES.validate_json(raw["text"])  # what was sent is a message of the protocol
        message: dict[str, Any] = json.loads(raw["text"])
        self.client.receive(message)
        return message

    def until(self, test: Callable[[dict[str, Any]], bool], limit: int = 500) -> dict[str, Any]:
        """Read messages until one passes ``test`` (the view is up to date with it)."""
        for _ in range(limit):
            message = self.receive()
            if test(message):
                return message
        raise AssertionError("no such message")

    def hello(self, token: str | None = None, **extra: Any) -> dict[str, Any]:
        self.send({"type": "hello", "token": token, **extra})
        return self.receive()

    def my_turn(self) -> bool:
        """Whether the view asks something of this seat now."""
        deal = self.view.get("deal")
        return bool(deal and deal["turn"] == self.view["you"] and actions(self.view))
