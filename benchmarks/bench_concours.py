"""A concours of 200 teams on PostgreSQL: 100 tables enter their scores at once from their phones.

Starts a throwaway PostgreSQL cluster (Debian's server, as the tests do) or uses ``--database-url``, then
``atout serve`` on it. Over HTTP, as the pages do: an organiser signs up, creates a concours (``--deals``
deals a round), registers ``--teams`` teams at the desk and draws round 1. Then every table plays at once:
its first phone picks its side and enters each deal (one more while the game is tied) after a pause
(``--pause LOW HIGH`` seconds, at random); the other phone confirms at the end. Each entry is timed from the
phone's request to the standings read back with it (``GET /c/{code}/standings.json``): *a score entered →
the standings updated*. Once every table has confirmed, round 2 is drawn and timed, with the desk's page and
the exports.

Prints the machine, the date and a Markdown table (median, 95th percentile, largest; the CPU the server's
process and the simulated phones used, in cores). Connects to 127.0.0.1 only; stops by itself.

    python benchmarks/bench_concours.py                     # 200 teams, 100 tables, 4 deals, an entry every 5-15 s
    python benchmarks/bench_concours.py --pause 0 2         # a burst: where one server process saturates
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx2
from bench_web import children, cpu_seconds
from machine import machine_lines

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "web"))  # the tests' PostgreSQL cluster and server starter

from harness.postgres import cluster  # noqa: E402
from harness.servers import free_port, start_server  # noqa: E402

PASSWORD = "benchmark-password"


def deal(taker: int, rng: random.Random) -> dict[str, str]:
    """A plausible deal: 80 to 120 in a suit, made or fallen."""
    bid = rng.choice((80, 90, 100, 110, 120))
    points = rng.randint(40, 130)
    return {"taker": str(taker), "bid": str(bid), "strain": str(rng.randrange(4)), "level": "0", "points": str(points)}


async def csrf(client: httpx2.AsyncClient) -> str:
    if "csrf" not in client.cookies:
        await client.get("/signin")
    return str(client.cookies["csrf"])


async def post(client: httpx2.AsyncClient, path: str, data: dict[str, str] | None = None) -> httpx2.Response:
    response = await client.post(path, data={**(data or {}), "csrf": await csrf(client)})
    if response.status_code >= 400:
        said = re.findall(r"role=\"alert\">([^<]*)<", response.text)
        raise RuntimeError(f"{path}: {response.status_code} {said or response.text[:300]}")
    return response


async def prepare(base: str, teams: int, deals: int) -> tuple[str, list[str], httpx2.AsyncClient]:
    """The organiser's concours with its teams and round 1 drawn: its code and the tables' sheets."""
    desk = httpx2.AsyncClient(base_url=base, timeout=60)
    await post(desk, "/signup", {"name": "Organisatrice", "password": PASSWORD})
    form = {"name": "Concours de charge", "rounds": "5", "draw": "swiss", "ranking": "points", "preset": "coinche"}
    created = await post(desk, "/concours", {**form, "end": "deals", "count": str(deals), "open_registration": "on"})
    code = str(created.headers["location"]).rsplit("/", 1)[-1]
    for n in range(1, teams + 1):
        await post(desk, f"/c/{code}/entrants", {"name": f"Équipe {n}", "player1": f"A{n}", "player2": f"B{n}"})
    await post(desk, f"/c/{code}/draw")
    page = (await desk.get(f"/c/{code}")).text
    tokens = list(dict.fromkeys(re.findall(r'href="/s/([\w-]+)"', page)))
    return code, tokens, desk


async def table(
    base: str, code: str, token: str, deals: int, pause: tuple[float, float], rng: random.Random, timings: list[float]
) -> None:
    """One table's two phones: the marker enters every deal, the other confirms; each entry timed."""
    async with (
        httpx2.AsyncClient(base_url=base, timeout=60) as marker,
        httpx2.AsyncClient(base_url=base, timeout=60) as other,
    ):
        await post(marker, f"/s/{token}/side", {"side": "0"})
        await post(other, f"/s/{token}/side", {"side": "1"})
        entered = 0
        while entered < deals or ".done." not in (await marker.get(f"/s/{token}/version")).json()["version"]:
            entered += 1  # past the deals, the game goes on while it is tied (the ruleset's ``tie``)
            await asyncio.sleep(rng.uniform(*pause))
            start = time.perf_counter()
            await post(marker, f"/s/{token}/deals", deal(rng.randrange(2), rng))
            (await marker.get(f"/c/{code}/standings.json")).raise_for_status()
            timings.append(time.perf_counter() - start)
        start = time.perf_counter()
        await post(other, f"/s/{token}/confirm")
        standings = (await other.get(f"/c/{code}/standings.json")).json()
        timings.append(time.perf_counter() - start)
        assert standings["confirmed"] >= 1


async def timed(action: object) -> float:
    start = time.perf_counter()
    await action  # type: ignore[misc]
    return time.perf_counter() - start


async def run(args: argparse.Namespace, base: str, server: int, postgres: int | None) -> dict[str, list[float]]:
    code, tokens, desk = await prepare(base, args.teams, args.deals)
    rng = random.Random(args.seed)
    entries: list[float] = []
    start = time.perf_counter()
    cpu = cpu_seconds([server]), cpu_seconds([os.getpid()])
    database_before = process_cpu(postgres)
    pause = (args.pause[0], args.pause[1])
    await asyncio.gather(
        *(table(base, code, t, args.deals, pause, random.Random(rng.random()), entries) for t in tokens)
    )
    played = time.perf_counter() - start
    server_cpu = (cpu_seconds([server]) - cpu[0]) / played
    phones_cpu = (cpu_seconds([os.getpid()]) - cpu[1]) / played
    database_cpu = sum(v - database_before.get(pid, 0.0) for pid, v in process_cpu(postgres).items()) / played
    draw = await timed(post(desk, f"/c/{code}/draw"))
    pages = [await timed(desk.get(f"/c/{code}")) for _ in range(5)]
    exports = [await timed(desk.get(f"/c/{code}/export.json")) for _ in range(3)]
    await desk.aclose()
    return {
        "entries": entries,
        "played": [played],
        "tables": [len(tokens)],
        "draw": [draw],
        "desk": pages,
        "export": exports,
        "cpu": [server_cpu, phones_cpu, database_cpu],
    }


@contextmanager
def database(url: str | None) -> Iterator[tuple[str, int | None]]:
    """The database's URL, and its server's main process when it is the benchmark's own cluster."""
    if url:
        yield url, None
        return
    with cluster() as server:
        database = server.new_database()
        yield database, int((server.data / "postmaster.pid").read_text().split()[0])


def process_cpu(root: int | None) -> dict[int, float]:
    """CPU seconds used so far by ``root`` and its children (PostgreSQL's connections), by process."""
    if root is None:
        return {}
    return {pid: cpu_seconds([pid]) for pid in (root, *children(root))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=200)
    parser.add_argument("--deals", type=int, default=4, help="deals a round")
    parser.add_argument(
        "--pause", type=float, nargs=2, default=(5.0, 15.0), help="seconds between two entries of a table (at random)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", help="an existing database (default: a throwaway PostgreSQL cluster)")
    args = parser.parse_args()
    with database(args.database_url) as (url, postgres), tempfile.TemporaryDirectory() as data:
        port = free_port()
        server = start_server(Path(data), port, 0.0, "thread", "--database-url", url)
        try:
            found = asyncio.run(run(args, f"http://127.0.0.1:{port}", server.pid, postgres))
        finally:
            server.terminate()
            server.wait(timeout=30)
    lat = sorted(found["entries"])

    def ms(values: list[float], p: float | None = None) -> str:
        values = sorted(values)
        value = values[min(len(values) - 1, int(p * len(values)))] if p is not None else statistics.median(values)
        return f"{1000 * value:.1f} ms"

    print("\n".join(machine_lines()))
    print(
        f"- run: {args.teams} teams, {found['tables'][0]} tables at once, {args.deals} deals each, an entry every "
        f"{args.pause[0]:g}–{args.pause[1]:g} s a table; PostgreSQL; server and phones on this machine\n"
    )
    played, (server_cpu, phones_cpu, database_cpu) = found["played"][0], found["cpu"]
    print(
        "| entries | entries/s | entry → standings p50 | p95 | max | server process | PostgreSQL | phones "
        "| draw of round 2 | desk page | export |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    print(
        f"| {len(lat)} | {len(lat) / played:.1f} | {ms(lat)} | {ms(lat, 0.95)} | {1000 * lat[-1]:.1f} ms "
        f"| {server_cpu:.2f} cores | {database_cpu:.2f} cores | {phones_cpu:.2f} cores | {ms(found['draw'])} "
        f"| {ms(found['desk'])} | {ms(found['export'])} |"
    )


if __name__ == "__main__":
    main()
