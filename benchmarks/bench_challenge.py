"""A duplicate challenge played by 500 participants in an hour, on PostgreSQL.

Starts a throwaway PostgreSQL cluster (Debian's server, as the tests do) or uses ``--database-url``, then
``atout serve`` on it (bots in worker processes, their pace the server's default: a challenge's table plays
them at the fast pace). An organiser creates a challenge of ``--deals`` deals; ``--participants``
participants arrive at random over ``--window`` seconds (3600: an hour). Each one, as the pages do, signs
up, starts the challenge (``POST /challenges/CODE/play``), takes his seat's token from his table's page and
plays his deals over the table's WebSocket: a person's pause before each action (``--think`` seconds on
average), a random choice among those his view offers. Each action is timed from sending it to the update
that carries it; a participant's sign-up and start, and the challenge's page with its ranking and the
field's view of each deal once everyone has finished (read by a participant who finished), are timed too.

Prints the machine, the date and a Markdown table (median, 95th percentile, largest; the CPU the server's
process, its bot workers, PostgreSQL and the simulated participants used, in cores). Connects to 127.0.0.1
only; stops by itself.

    python benchmarks/bench_challenge.py                              # 500 participants over an hour
    python benchmarks/bench_challenge.py --window 600 --think 1       # the same participants, 6 times as dense
    python benchmarks/bench_challenge.py --participants 20 --window 30 --deals 2   # a quick look
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx2
import websockets
from bench_concours import database, post, process_cpu
from bench_web import children, cpu_seconds
from machine import machine_lines

from atout.web.client import ClientView, actions

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "web"))  # the tests' server starter

from harness.servers import free_port, start_server  # noqa: E402

PASSWORD = "benchmark-password"


@dataclass
class Stats:
    actions: list[float] = field(default_factory=list)
    signups: list[float] = field(default_factory=list)
    starts: list[float] = field(default_factory=list)
    #: Every action the participants saw played at their tables (theirs and the bots').
    played: int = 0
    errors: int = 0
    finished: int = 0


Run = Callable[[argparse.Namespace, str, int, int | None], Awaitable[dict[str, object]]]


def served(args: argparse.Namespace, run: Run) -> dict[str, object]:
    """``run(args, base URL, server's pid, PostgreSQL's pid)`` against ``atout serve`` on PostgreSQL (the
    benchmark's own throwaway cluster, or ``--database-url``), bots in worker processes at the default pace."""
    with database(args.database_url) as (url, postgres), tempfile.TemporaryDirectory() as data:
        port = free_port()
        options = ("--database-url", url, "--daily-challenge", "none", "--tables-per-hour", "100000")
        server = start_server(Path(data), port, 0.9, "process", *options)
        try:
            return asyncio.run(run(args, f"http://127.0.0.1:{port}", server.pid, postgres))
        finally:
            server.terminate()
            server.wait(timeout=30)


def ms(values: list[float], p: float | None = None) -> str:
    """The median of timings (or their ``p`` quantile), in milliseconds."""
    values = sorted(values)
    value = values[min(len(values) - 1, int(p * len(values)))] if p is not None else statistics.median(values)
    return f"{1000 * value:.1f} ms"


class Usage:
    """The CPU the server's process, its bot workers, PostgreSQL and this process use from now on, in cores."""

    def __init__(self, server: int, postgres: int | None) -> None:
        self.server, self.postgres, self.workers = server, postgres, children(server)
        self.start = time.perf_counter()
        self.before = cpu_seconds([server]), cpu_seconds(self.workers), time.process_time()
        self.database = process_cpu(postgres)

    def cores(self) -> tuple[float, float, float, float]:
        """The server's, its workers', PostgreSQL's and this process's, since it was made."""
        spent = time.perf_counter() - self.start
        database = sum(v - self.database.get(pid, 0.0) for pid, v in process_cpu(self.postgres).items())
        return (
            (cpu_seconds([self.server]) - self.before[0]) / spent,
            (cpu_seconds(self.workers) - self.before[1]) / spent,
            database / spent,
            (time.process_time() - self.before[2]) / spent,
        )


async def participant(base: str, code: str, number: int, args: argparse.Namespace, stats: Stats) -> None:
    """One participant: arrives, signs up, starts the challenge and plays it to its end."""
    rng = random.Random(args.seed * 100_003 + number)
    await asyncio.sleep(rng.uniform(0, args.window))
    async with httpx2.AsyncClient(base_url=base, timeout=120) as client:
        start = time.perf_counter()
        await post(client, "/signup", {"name": f"Joueur {number}", "password": PASSWORD})
        stats.signups.append(time.perf_counter() - start)
        start = time.perf_counter()
        started = await client.post(f"/challenges/{code}/play", data={"csrf": client.cookies["csrf"]})
        table = str(started.headers["location"]).rsplit("/", 1)[-1]
        page = (await client.get(f"/t/{table}")).text
        stats.starts.append(time.perf_counter() - start)
        token = re.search(r'data-token="([^"]+)"', page)
        assert token is not None, "no seat token on the table's page"
        await play(base, table, token[1], rng, args.think, stats)
        stats.finished += 1


async def play(base: str, table: str, token: str, rng: random.Random, think: float, stats: Stats) -> None:
    """Play a challenge's table over its WebSocket until its game is saved."""
    client = ClientView()
    url = base.replace("http://", "ws://") + f"/ws/{table}"
    async with websockets.connect(url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent: float | None = None
        asked = 0
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 600))
            client.receive(message)
            if message["type"] == "error":
                stats.errors += 1
                sent = None
                continue
            if message["type"] not in ("update", "snapshot", "resume"):
                continue
            view = client.view
            you = view["you"]
            events = message.get("events", [])
            stats.played += sum(e["kind"] in ("call", "play", "declare") for e in events)
            if sent is not None and any(e["kind"] in ("call", "play", "declare") and e["seat"] == you for e in events):
                stats.actions.append(time.perf_counter() - sent)
                sent = None
            if view["status"] == "finished":
                return
            deal = view["deal"]
            if deal and deal["phase"] == "done" and you in view["waiting"]:
                await ws.send(json.dumps({"type": "continue"}))
                continue
            offered = actions(view)
            if deal and deal["turn"] == you and offered and sent is None and asked != message["version"]:
                asked = message["version"]
                options = [d["action"] for d in deal["declare"]] or offered
                await asyncio.sleep(rng.expovariate(1 / think) if think else 0)
                choice = "P" if "P" in options and rng.random() < 0.6 else rng.choice(options)
                sent = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": choice, "id": f"a{sent}"}))


async def run(args: argparse.Namespace, base: str, server: int, postgres: int | None) -> dict[str, object]:
    async with httpx2.AsyncClient(base_url=base, timeout=120) as organiser:
        await post(organiser, "/signup", {"name": "Organisatrice", "password": PASSWORD})
        form = {"name": "Défi de charge", "preset": "coinche", "deals": str(args.deals), "bots": "club", "hours": "24"}
        created = await post(organiser, "/challenges", form)
        code = str(created.headers["location"]).rsplit("/", 1)[-1]
    stats = Stats()
    usage = Usage(server, postgres)
    start = time.perf_counter()
    await asyncio.gather(*(participant(base, code, n, args, stats) for n in range(1, args.participants + 1)))
    played = time.perf_counter() - start
    used = usage.cores()
    async with httpx2.AsyncClient(base_url=base, timeout=120) as last:
        await post(last, "/signin", {"name": f"Joueur {args.participants}", "password": PASSWORD})
        pages = []
        for _ in range(5):
            begin = time.perf_counter()
            page = await last.get(f"/challenges/{code}")
            pages.append(time.perf_counter() - begin)
        ranked = page.text.split('id="field"')[0].count("<tr") - 1  # the ranking's rows, less its head
    return {"stats": stats, "played": played, "cpu": used, "pages": pages, "ranked": ranked}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--participants", type=int, default=500)
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--window", type=float, default=3600.0, help="seconds over which the participants arrive")
    parser.add_argument("--think", type=float, default=3.0, help="a participant's mean pause before an action (s)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", help="an existing database (default: a throwaway PostgreSQL cluster)")
    args = parser.parse_args()
    found = served(args, run)
    stats = found["stats"]
    assert isinstance(stats, Stats)

    played = float(found["played"])  # type: ignore[arg-type]
    server_cpu, workers_cpu, database_cpu, players_cpu = found["cpu"]  # type: ignore[misc]
    print("\n".join(machine_lines()))
    print(
        f"- run: {args.participants} participants arriving over {args.window:g} s, {args.deals} deals each, "
        f"a pause of {args.think:g} s on average before each action; club bots at the fast pace; PostgreSQL; "
        f"server, bots and participants on this machine; {played:.0f} s in all\n"
    )
    print(
        "| finished | their actions | all actions/s (bots too) | action → update p50 | p95 | max | errors "
        "| sign-up p50 | start p50 "
        "| ranking page p50 | server | bot workers | PostgreSQL | participants |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    print(
        f"| {stats.finished} | {len(stats.actions)} | {stats.played / played:.1f} | {ms(stats.actions)} "
        f"| {ms(stats.actions, 0.95)} | {1000 * max(stats.actions):.0f} ms | {stats.errors} | {ms(stats.signups)} "
        f"| {ms(stats.starts)} | {ms(found['pages'])} ({found['ranked']} ranked) "  # type: ignore[arg-type]
        f"| {server_cpu:.2f} cores | {workers_cpu:.2f} cores | {database_cpu:.2f} cores | {players_cpu:.2f} cores |"
    )


if __name__ == "__main__":
    main()
