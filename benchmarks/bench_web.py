"""Load on the web table: many concurrent tables, bots and simulated players, over loopback.

Starts ``atout serve`` (bots in worker processes, SQLite in a temporary directory), opens
``--tables`` tables, each with one simulated player (South) and three bots, starts them all, and
once they have played ``--warmup`` seconds, measures for ``--seconds``. A player answers its turn
after a person's pause (``--think`` seconds on average) with a random action its view offers, and
times each of its actions from sending it to receiving the update that carries it (the broadcast).
The server paces its bots (``--pace``, 0.9 s by default as for people; 0 plays them as fast as
they think).

Prints a Markdown table: actions per second (players' and bots'), the bytes of an update (mean and
largest) and of a snapshot, the players' latency (median, 95th percentile, largest), bots that fell
back to the club player's rules, errors, and the CPU time of the server's process (its event loop
and its threads), of its bot workers and of the simulated players (one process, on the same
machine), in cores. Beside the games, the room's traffic: ``--lobby`` home pages follow the list of
open tables (``/ws/lobby``: messages and bytes they receive), and each player talks (``--chat``: a
quick message or a line of text every so many seconds on average). Stops by itself; connects to
127.0.0.1 only.

    python benchmarks/bench_web.py                                    # 1,000 tables at the bots' pace
    python benchmarks/bench_web.py --seconds 30 --pace 0 --think 0    # as fast as it goes: where it saturates
    python benchmarks/bench_web.py --tables 200 --level expert        # the bots' searches take the cores
    python benchmarks/bench_web.py --lobby 200 --chat 30              # with the room's traffic beside
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets
from machine import machine_lines

from atout.web.client import ClientView, actions

HOST = "127.0.0.1"


def start_server(port: int, data: Path, pace: float, workers: int | None) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "atout", "serve", "--port", str(port), "--data-dir", str(data)]
    command += ["--bot-pace", str(pace), "--tables-per-hour", "100000"]
    if workers:
        command += ["--workers", str(workers)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            health(port)
            return process
        except OSError:
            time.sleep(0.1)  # waiting for the server to listen
    process.kill()
    raise SystemExit("the server did not start")


def health(port: int) -> dict[str, Any]:
    with urllib.request.urlopen(f"http://{HOST}:{port}/healthz", timeout=5) as response:
        return dict(json.load(response))


def create_table(port: int, level: str) -> dict[str, str]:
    body = json.dumps({"preset": "coinche", "name": "Bench", "bots": level}).encode()
    request = urllib.request.Request(f"http://{HOST}:{port}/api/tables", body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return dict(json.load(response))


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    update_bytes: list[int] = field(default_factory=list)
    snapshot_bytes: list[int] = field(default_factory=list)
    actions: int = 0
    errors: int = 0
    said: int = 0
    refused: int = 0
    lobby_messages: int = 0
    lobby_bytes: int = 0
    #: The largest list a home page received on connecting (bytes).
    lobby_list: int = 0


QUICK = ("well_played", "thanks", "sorry", "hurry", "bravo_partner")
#: The codes of talk refused by the table (the rate limit), which the players' talk may meet by chance.
TALK_REFUSALS = ("too_fast",)


async def talker(ws: Any, every: float, measured: float, stop: float, stats: Stats, rng: random.Random) -> None:
    """A player's talk: a quick message, or now and then a line of text, every ``every`` seconds on average."""
    while True:
        await asyncio.sleep(rng.expovariate(1 / every))
        if time.monotonic() >= stop:
            return
        said = {"quick": rng.choice(QUICK)} if rng.random() < 0.7 else {"text": "On y va, partenaire !"}
        await ws.send(json.dumps({"type": "say", **said}))
        stats.said += time.monotonic() >= measured


async def lobby(port: int, measured: float, stop: float, stats: Stats) -> None:
    """A home page following the list of open tables until ``stop``, counting what it receives from ``measured``;
    it opens in the middle of the warm-up, once the tables are listed (their players connected)."""
    await asyncio.sleep(max(0.0, (measured - time.monotonic()) / 2))
    async with websockets.connect(f"ws://{HOST}:{port}/ws/lobby", max_size=2**24) as ws:
        stats.lobby_list = max(stats.lobby_list, len(await asyncio.wait_for(ws.recv(), stop - time.monotonic())))
        while (left := stop - time.monotonic()) > 0:
            try:
                text = await asyncio.wait_for(ws.recv(), left)
            except TimeoutError:
                break
            if time.monotonic() >= measured:
                stats.lobby_messages += 1
                stats.lobby_bytes += len(text)


async def player(
    port: int, table: dict[str, str], measured: float, stop: float, args: argparse.Namespace, stats: Stats, seed: int
) -> None:
    """One simulated player: starts its table and plays its turns until ``stop``, counting from ``measured``."""
    rng = random.Random(seed)
    think = args.think
    client = ClientView()
    async with websockets.connect(f"ws://{HOST}:{port}/ws/{table['code']}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": table["token"]}))
        await ws.send(json.dumps({"type": "start"}))
        if args.chat:
            chat = asyncio.create_task(talker(ws, args.chat, measured, stop, stats, random.Random(-seed - 1)))
        sent: float | None = None
        asked = 0  # the version at which this seat was last asked to act (one action per question)
        while time.monotonic() < stop:
            try:
                text = await asyncio.wait_for(ws.recv(), max(0.05, stop - time.monotonic()))
            except TimeoutError:
                break
            if not isinstance(text, str):  # the protocol's messages are text
                continue
            message = json.loads(text)
            client.receive(message)
            kind = message["type"]
            counted = time.monotonic() >= measured
            if kind == "error" and message["code"] in TALK_REFUSALS:
                stats.refused += 1  # talk the table refused (too fast): not an error of the game
            elif kind == "error":
                stats.errors += 1
                sent = None
            elif kind == "snapshot":
                stats.snapshot_bytes.append(len(text.encode()))
            if kind != "update":
                continue
            you = client.view["you"]
            acts = [e for e in message["events"] if e["kind"] in ("call", "play", "declare")]
            if counted:
                stats.update_bytes.append(len(text.encode()))
                stats.actions += len(acts)
            if sent is not None and any(e["seat"] == you for e in acts):
                if counted:
                    stats.latencies.append(time.monotonic() - sent)
                sent = None
            view = client.view
            deal = view["deal"]
            if deal and deal["phase"] == "done" and you in view["waiting"]:
                await ws.send(json.dumps({"type": "continue"}))
                continue
            offered = actions(view)
            if deal and deal["turn"] == you and offered and sent is None and asked != message["version"]:
                asked = message["version"]
                options = [d["action"] for d in deal["declare"]] or offered
                if think:
                    await asyncio.sleep(rng.expovariate(1 / think))  # a person's pause
                choice = "P" if "P" in options and rng.random() < 0.7 else rng.choice(options)
                sent = time.monotonic()
                await ws.send(json.dumps({"type": "act", "action": choice, "id": f"{seed}-{sent}"}))
        if args.chat:
            chat.cancel()


async def run(args: argparse.Namespace, server: int) -> tuple[Stats, list[float], list[float]]:
    """Create the tables and start them all; measure ``args.seconds`` once ``args.warmup`` seconds have passed.
    The statistics, and the CPU seconds used (server's loop, its workers, the players) when measuring starts
    and when it stops."""
    loop = asyncio.get_running_loop()
    created = await asyncio.gather(
        *(loop.run_in_executor(None, create_table, args.port, args.level) for _ in range(args.tables))
    )
    stats = Stats()
    measured = time.monotonic() + args.warmup
    stop = measured + args.seconds
    workers = children(server)
    before: list[float] = []
    loop.call_later(args.warmup, lambda: before.extend(cpu_now(server, workers)))
    await asyncio.gather(
        *(player(args.port, t, measured, stop, args, stats, i) for i, t in enumerate(created)),
        *(lobby(args.port, measured, stop, stats) for _ in range(args.lobby)),
    )
    return stats, before, cpu_now(server, workers)


def cpu_now(server: int, workers: list[int]) -> list[float]:
    return [cpu_seconds([server]), cpu_seconds(workers), time.process_time()]


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop where it is installed (as uvicorn's server uses it): the players cost less."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def cpu_seconds(pids: list[int]) -> float:
    """CPU seconds the processes ``pids`` have used so far."""
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError):
            pass
    return total


def children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to measure")
    parser.add_argument("--warmup", type=float, default=15.0, help="seconds of play before measuring")
    parser.add_argument("--think", type=float, default=1.0, help="a player's average pause before acting")
    parser.add_argument("--pace", type=float, default=0.9, help="the server's pause between bots' moves")
    parser.add_argument("--level", default="club", choices=("debutant", "club", "expert"))
    parser.add_argument("--workers", type=int, default=None, help="bot worker processes (default: one per core)")
    parser.add_argument("--port", type=int, default=8790)
    parser.add_argument("--lobby", type=int, default=0, help="home pages following the list of open tables")
    parser.add_argument("--chat", type=float, default=0.0, help="each player talks every so many seconds on average")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        server = start_server(args.port, Path(data), args.pace, args.workers)
        try:
            time.sleep(5 if args.level != "expert" else 60)  # let the workers load their kernels
            with asyncio.Runner(loop_factory=loop_factory()) as runner:  # the players on uvloop where installed
                stats, before, after = runner.run(run(args, server.pid))
            fallbacks = health(args.port).get("fallbacks", 0)
        finally:
            server.terminate()
            server.wait(timeout=30)
    elapsed = args.seconds
    server_cpu, workers_cpu, client_cpu = ((a - b) / elapsed for a, b in zip(after, before, strict=True))
    lat = sorted(stats.latencies) or [0.0]
    sizes = stats.update_bytes or [0]

    def ms(p: float) -> str:
        return f"{1000 * lat[min(len(lat) - 1, int(p * len(lat)))]:.1f} ms"

    print("\n".join(machine_lines()))
    print(
        f"- run: {args.tables} tables ({args.level} bots, pace {args.pace} s), players think {args.think} s "
        f"on average, measured {elapsed:.0f} s after {args.warmup:.0f} s; {args.lobby} home pages on the lobby, "
        f"players talking every {args.chat:g} s on average (0: silent)\n"
    )
    print(
        "| tables | pace | actions/s | player actions | update bytes (mean, max) | snapshot bytes "
        "| latency p50 | p95 | max | fallbacks | errors | server process | workers | players |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    print(
        f"| {args.tables} | {args.pace} s | {stats.actions / elapsed:.0f} | {len(stats.latencies)} "
        f"| {statistics.mean(sizes):.0f}, {max(sizes)} | {statistics.mean(stats.snapshot_bytes or [0]):.0f} "
        f"| {ms(0.5)} | {ms(0.95)} | {1000 * lat[-1]:.1f} ms | {fallbacks} | {stats.errors} "
        f"| {server_cpu:.2f} cores | {workers_cpu:.2f} cores | {client_cpu:.2f} cores |"
    )
    if args.lobby or args.chat:
        print("\n| lines said/s | refused | lobby pages | list bytes | lobby messages/s a page | bytes/s a page |")
        print("|---:|---:|---:|---:|---:|---:|")
        pages = max(1, args.lobby)
        print(
            f"| {stats.said / elapsed:.1f} | {stats.refused} | {args.lobby} | {stats.lobby_list} "
            f"| {stats.lobby_messages / pages / elapsed:.2f} | {stats.lobby_bytes / pages / elapsed:.0f} |"
        )


if __name__ == "__main__":
    main()
