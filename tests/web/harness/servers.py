"""Real ``atout serve`` processes for the tests, on free ports of 127.0.0.1, and what they leave behind."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

#: A test client's address on the server's own machine (where the first account becomes its administrator).
LOCAL = ("127.0.0.1", 50000)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def missing(what: str, variable: str) -> None:
    """Skip a test for lack of ``what``, or fail it where ``variable`` says it is required."""
    if os.environ.get(variable):
        pytest.fail(f"{what} is required here ({variable} is set) but not installed")
    pytest.skip(f"{what} is not installed")


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
