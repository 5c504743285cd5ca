"""A real server process, killed with SIGKILL mid-deal and started again, loses nothing.

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
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import websockets

from conftest import free_port

pytestmark = pytest.mark.anyio


def start_server(data: Path, port: int, bot_pace: float = 0.0) -> subprocess.Popen[bytes]:
    """``atout serve`` on a data directory, once it answers."""
    command = [sys.executable, "-m", "atout", "serve", "--data-dir", str(data), "--port", str(port)]
    command += ["--bot-backend", "thread", "--workers", "1", "--bot-pace", str(bot_pace)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as response:
                if json.load(response)["ok"]:
                    return process
        except OSError:
            if process.poll() is not None:
                raise AssertionError(process.stderr.read().decode() if process.stderr else "server died") from None
            time.sleep(0.1)  # waiting for another process to start listening, not for time to pass in a test
    raise AssertionError("the server did not start")


def post(port: int, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return dict(json.load(response))


async def play(port: int, code: str, token: str, actions: int, rng: random.Random) -> dict[str, Any]:
    """Connect, play ``actions`` of this seat's actions (starting the game if needed); the last view."""
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/{code}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        view = json.loads(await ws.recv())["view"]
        if view["status"] == "lobby":
            await ws.send(json.dumps({"type": "start"}))
        done = 0
        while True:
            deal = view["deal"]
            if deal and deal["turn"] == view["you"] and (deal["legal"] or deal["declare"]):
                if done == actions:
                    return view
                options = [d["action"] for d in deal["declare"]] or deal["legal"]
                choice = "P" if "P" in options and rng.random() < 0.7 else rng.choice(options)
                await ws.send(json.dumps({"type": "act", "action": choice, "id": f"{rng.random()}"}))
                done += 1
            message = json.loads(await asyncio.wait_for(ws.recv(), 30))
            while message.get("type") != "update" or message["version"] < view["version"]:
                message = json.loads(await asyncio.wait_for(ws.recv(), 30))
            view = message["view"]


async def test_a_server_killed_mid_deal_comes_back_exactly_where_it_was(tmp_path: Path) -> None:
    port = free_port()
    server = start_server(tmp_path, port)
    try:
        table = post(port, "/api/tables", {"preset": "coinche", "name": "Alice"})
        before = await play(port, table["code"], table["token"], 12, random.Random(3))
        os.kill(server.pid, signal.SIGKILL)
        server.wait()
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
