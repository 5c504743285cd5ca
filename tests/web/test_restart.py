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
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import websockets

from conftest import free_port

pytestmark = pytest.mark.anyio


def start_server(
    data: Path, port: int, bot_pace: float = 0.0, backend: str = "thread", *options: str
) -> subprocess.Popen[bytes]:
    """``atout serve`` on a data directory, once it answers."""
    command = [sys.executable, "-m", "atout", "serve", "--data-dir", str(data), "--port", str(port)]
    command += ["--bot-backend", backend, "--workers", "1", "--bot-pace", str(bot_pace), *options]
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


def post(port: int, path: str, body: dict[str, Any], **headers: str) -> dict[str, Any]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", json.dumps(body).encode(), {"Content-Type": "application/json", **headers}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return dict(json.load(response))


async def play(port: int, code: str, token: str, actions: int, rng: random.Random) -> dict[str, Any]:
    """Connect, play ``actions`` of this seat's actions (starting the game if needed, going on at once
    after each deal) and more if needed to stop mid-deal; the view where it stopped."""
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/{code}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        view = json.loads(await ws.recv())["view"]
        if view["status"] == "lobby":
            await ws.send(json.dumps({"type": "start"}))
        done = 0
        while True:
            if view["you"] in view["waiting"]:  # a deal is over: go on at once, as a player clicking on
                await ws.send(json.dumps({"type": "continue"}))
            deal = view["deal"]
            if deal and deal["turn"] == view["you"] and (deal["legal"] or deal["declare"]):
                if done >= actions and (deal["calls"] or not actions):  # stop mid-deal, after some calls
                    return view
                options = [d["action"] for d in deal["declare"]] or deal["legal"]
                choice = "P" if "P" in options and rng.random() < 0.7 else rng.choice(options)
                await ws.send(json.dumps({"type": "act", "action": choice, "id": f"{rng.random()}"}))
                done += 1
            message = json.loads(await asyncio.wait_for(ws.recv(), 30))
            while message.get("type") != "update" or message["version"] < view["version"]:
                message = json.loads(await asyncio.wait_for(ws.recv(), 30))
            view = message["view"]


def workers_of(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (the bot workers of a server)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def gone(pids: set[int], within: float = 10.0) -> bool:
    """Whether every process of ``pids`` has ended (a zombie counts as ended) within ``within`` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        alive = set()
        for pid in pids:
            try:
                if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                    alive.add(pid)
            except OSError:
                pass
        if not alive:
            return True
        time.sleep(0.1)  # waiting for other processes to exit, not for time to pass in a test
    return False


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
