"""Real server processes: one killed with SIGKILL mid-deal and started again loses nothing, and its bot
workers end with it; one stopped gracefully ends its workers; one behind a proxy sees the players' addresses.

The server runs as ``atout serve`` would for a host (SQLite in its data directory);
a player plays part of a deal over a real WebSocket; the process is killed without
warning; a new process on the same data directory serves the table exactly where
it was, and the game goes on.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import websockets
from harness.servers import free_port, gone, post, start_server, workers_of

from atout.web.client import ClientView
from atout.web.client import actions as legal_actions

pytestmark = pytest.mark.anyio


async def play(port: int, code: str, token: str, actions: int, rng: random.Random) -> dict[str, Any]:
    """Connect, play ``actions`` of this seat's actions (starting the game if needed, going on at once
    after each deal) and more if needed to stop mid-deal; the view where it stopped."""
    client = ClientView()

    async def receive() -> dict[str, Any]:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 30))
        client.receive(message)
        return message

    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/{code}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        await receive()
        view = client.view
        if view["status"] == "lobby":
            await ws.send(json.dumps({"type": "start"}))
        done = 0
        while True:
            if view["you"] in view["waiting"]:  # a deal is over: go on at once, as a player clicking on
                await ws.send(json.dumps({"type": "continue"}))
            deal = view["deal"]
            legal = legal_actions(view)
            if deal and deal["turn"] == view["you"] and legal:
                if done >= actions and (deal["calls"] or not actions):  # stop mid-deal, after some calls
                    return view
                options = [d["action"] for d in deal["declare"]] or legal
                choice = "P" if "P" in options and rng.random() < 0.7 else rng.choice(options)
                await ws.send(json.dumps({"type": "act", "action": choice, "id": f"{rng.random()}"}))
                done += 1
            message = await receive()
            while message.get("type") != "update" or message["version"] < view["version"]:
                message = await receive()
            view = client.view


async def test_a_server_killed_mid_deal_comes_back_exactly_where_it_was(tmp_path: Path) -> None:
    """With the default bot backend: the bots think in worker processes, which end with the server."""
    port = free_port()
    server = start_server(tmp_path, port, 0.0, "process")
    try:
        table = post(port, "/api/tables", {"preset": "coinche", "name": "Alice"})
        before = await play(port, table["code"], table["token"], 12, random.Random(3))
        workers = workers_of(server.pid)
        assert workers  # the bots played in worker processes
        os.kill(server.pid, signal.SIGKILL)
        server.wait()
        assert gone(workers), f"workers {workers} outlived their server"
        server = start_server(tmp_path, port)
        after = await play(port, table["code"], table["token"], 0, random.Random(4))
        for view in (before, after):
            view.pop("version")
        assert after == before and after["deal"]["calls"]
        later = await play(port, table["code"], table["token"], 6, random.Random(5))
        assert later["deal"] != before["deal"]
    finally:
        server.kill()
        server.wait()


def test_a_server_stopped_gracefully_ends_its_workers(tmp_path: Path) -> None:
    port = free_port()
    server = start_server(tmp_path, port, 0.0, "process")
    try:
        workers = workers_of(server.pid)
        assert workers
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)  # uvicorn stops, then ends with the signal's own status
        assert server.stderr is not None and b"Application shutdown complete" in server.stderr.read()
        assert gone(workers), f"workers {workers} outlived their server"
    finally:
        server.kill()
        server.wait()


def test_behind_a_proxy_the_forwarded_address_is_the_clients(tmp_path: Path) -> None:
    """``--proxied`` trusts the X-Forwarded-For of a proxy on this host: the limit on creating tables is
    counted per player's address. Without it the header is ignored (anyone could forge it)."""
    body = {"preset": "coinche", "name": "Alice"}
    for proxied in (True, False):
        port = free_port()
        options = ["--tables-per-hour", "1", *(["--proxied"] if proxied else [])]
        server = start_server(tmp_path / str(proxied), port, 0.0, "thread", *options)
        try:
            post(port, "/api/tables", body, **{"X-Forwarded-For": "203.0.113.7", "X-Forwarded-Proto": "https"})
            codes = []
            for address in ("203.0.113.7", "198.51.100.9"):
                try:
                    post(port, "/api/tables", body, **{"X-Forwarded-For": address})
                    codes.append(200)
                except urllib.error.HTTPError as err:
                    codes.append(err.code)
            assert codes == ([429, 200] if proxied else [429, 429])
        finally:
            server.kill()
            server.wait()
