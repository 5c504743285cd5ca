"""Load on the web table: many concurrent tables, bots and simulated players, over loopback.

Starts ``atout serve`` (bots in worker processes, SQLite in a temporary directory),
opens ``--tables`` tables, each with one simulated player (South) and three bots,
and lets them play for ``--seconds``. A player answers its turn after a human-like
pause (``--think`` seconds on average) with a random legal action, and measures
the time from sending an action to receiving the broadcast of its result. Prints a
Markdown table: actions per second (players' and bots'), the players' latency
(median, 95th and 99th percentile), bots that fell back to the club player's rules,
and the server's CPU time. Stops by itself; connects to 127.0.0.1 only.

    python benchmarks/bench_web.py                          # 200 tables of club bots, 60 s
    python benchmarks/bench_web.py --tables 20 --level expert
    python benchmarks/bench_web.py --tables 20 --seconds 15  # a quick look
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import websockets
from machine import machine_lines

HOST = "127.0.0.1"


def start_server(port: int, data: Path, pace: float, workers: int | None) -> subprocess.Popen[bytes]:
    command = [
        sys.executable,
        "-m",
        "atout",
        "serve",
        "--port",
        str(port),
        "--data-dir",
        str(data),
        "--bot-pace",
        str(pace),
        "--tables-per-hour",
        "100000",
    ]
    if workers:
        command += ["--workers", str(workers)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(600):
        try:
            with urllib.request.urlopen(f"http://{HOST}:{port}/healthz", timeout=1) as response:
                json.load(response)
                return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the server did not start")


def health(port: int) -> dict[str, Any]:
    with urllib.request.urlopen(f"http://{HOST}:{port}/healthz", timeout=5) as response:
        return dict(json.load(response))


def create_table(port: int, level: str) -> dict[str, str]:
    body = json.dumps({"preset": "coinche", "name": "Bench", "bots": level}).encode()
    request = urllib.request.Request(f"http://{HOST}:{port}/api/tables", body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return dict(json.load(response))


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.player_actions = 0
        self.all_actions = 0
        self.errors = 0


async def player(port: int, table: dict[str, str], stop: float, think: float, stats: Stats, seed: int) -> None:
    """One simulated player: starts its table and plays its turns until ``stop``."""
    rng = random.Random(seed)
    async with websockets.connect(f"ws://{HOST}:{port}/ws/{table['code']}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": table["token"]}))
        view = json.loads(await ws.recv())["view"]
        await ws.send(json.dumps({"type": "start"}))
        sent: float | None = None
        while time.monotonic() < stop:
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), max(0.05, stop - time.monotonic())))
            except TimeoutError:
                break
            if message["type"] == "error":
                stats.errors += 1
                sent = None
            if message["type"] != "update":
                continue
            mine = any(
                e.get("seat") == view["you"] and e["kind"] in ("call", "play", "declare") for e in message["events"]
            )
            stats.all_actions += sum(e["kind"] in ("call", "play", "declare") for e in message["events"])
            if mine and sent is not None:
                stats.latencies.append(time.monotonic() - sent)
                sent = None
            view = message["view"]
            deal = view["deal"]
            if deal and deal["phase"] == "done" and view["you"] in view["waiting"]:
                await ws.send(json.dumps({"type": "continue"}))
            elif deal and deal["turn"] == view["you"] and (deal["legal"] or deal["declare"]) and sent is None:
                options = [d["action"] for d in deal["declare"]] or deal["legal"]
                await asyncio.sleep(rng.expovariate(1 / think) if think else 0)  # a person's pause
                choice = "P" if "P" in options and rng.random() < 0.7 else rng.choice(options)
                sent = time.monotonic()
                await ws.send(json.dumps({"type": "act", "action": choice, "id": f"{seed}-{sent}"}))
                stats.player_actions += 1


async def run(port: int, tables: int, seconds: float, think: float, level: str) -> tuple[Stats, float]:
    loop = asyncio.get_running_loop()
    created = await asyncio.gather(*(loop.run_in_executor(None, create_table, port, level) for _ in range(tables)))
    stats = Stats()
    start = time.monotonic()
    stop = start + seconds
    await asyncio.gather(*(player(port, t, stop, think, stats, i) for i, t in enumerate(created)))
    return stats, time.monotonic() - start


def server_cpu(pid: int) -> float:
    """CPU seconds used by the server and its bot workers so far."""
    total = 0.0
    for proc in [pid, *_children(pid)]:
        try:
            fields = Path(f"/proc/{proc}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / 100
        except (OSError, IndexError):
            pass
    return total


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--think", type=float, default=1.0, help="a player's average pause before acting")
    parser.add_argument("--pace", type=float, default=0.9, help="the server's pause between bots' moves")
    parser.add_argument("--level", default="club", choices=("debutant", "club", "expert"))
    parser.add_argument("--workers", type=int, default=None, help="bot worker processes (default: one per core)")
    parser.add_argument("--port", type=int, default=8790)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        server = start_server(args.port, Path(data), args.pace, args.workers)
        try:
            time.sleep(5 if args.level != "expert" else 60)  # let the workers load their kernels
            before = server_cpu(server.pid)
            stats, elapsed = asyncio.run(run(args.port, args.tables, args.seconds, args.think, args.level))
            cpu = server_cpu(server.pid) - before
            fallbacks = health(args.port).get("fallbacks", 0)
        finally:
            server.terminate()
            server.wait(timeout=30)
    lat = sorted(stats.latencies) or [0.0]

    def pct(p: float) -> float:
        return 1000 * lat[min(len(lat) - 1, int(p * len(lat)))]

    print("\n".join(machine_lines()))
    print(
        f"- run: {args.tables} tables ({args.level} bots, pace {args.pace} s), players think {args.think} s "
        f"on average, {elapsed:.0f} s\n"
    )
    print(
        "| tables | bots | actions/s (all) | player actions | latency p50 | p95 | p99 | fallbacks | errors "
        "| server CPU |"
    )
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    print(
        f"| {args.tables} | {args.level} | {stats.all_actions / elapsed:.0f} | {len(stats.latencies)} | "
        f"{statistics.median(lat) * 1000:.1f} ms | {pct(0.95):.1f} ms | {pct(0.99):.1f} ms | {fallbacks} | "
        f"{stats.errors} | {cpu / elapsed:.2f} cores |"
    )


if __name__ == "__main__":
    main()
