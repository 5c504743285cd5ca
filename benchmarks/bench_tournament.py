"""An online tournament of 50 tables on PostgreSQL: people and bots play a round at web tables, the results land
in the standings by themselves.

Starts a throwaway PostgreSQL cluster (Debian's server, as the tests do) or uses ``--database-url``, then
``atout serve`` on it (bots in worker processes, their pace the server's default: a tournament's table plays them
at the fast pace). Over HTTP, as the pages do: an organiser creates an online concours (``--deals`` deals a
round, club bots, a bot for a player absent ``--absent`` minutes), ``--people`` teams of two accounts sign up and
are registered at the desk, the other teams of ``--teams`` are bots; round 1 is drawn (its web tables created).
Each person opens his call page (``play.json``), takes his seat's token from his table's page and plays over
the table's WebSocket: a person's pause before each action (``--think`` seconds on average), a random choice
among those his view offers; the bots' tables play alone. Each person's action is timed from sending it to the
update that carries it. The round is timed from the draw to the standings with every table's result
(``standings.json``, polled every second), then round 2 is drawn and timed, with the desk's page.

Prints the machine, the date and a Markdown table (median, 95th percentile, largest; the CPU the server's
process, its bot workers, PostgreSQL and the simulated people used, in cores). Connects to 127.0.0.1 only.

    python benchmarks/bench_tournament.py                       # 100 teams (50 tables), 20 of them people
    python benchmarks/bench_tournament.py --teams 8 --people 2 --deals 1    # a quick look
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import sys
import time
from pathlib import Path

import httpx2
from bench_challenge import Stats, Usage, ms, play, served
from bench_concours import post
from machine import machine_lines

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "web"))  # the tests' server starter


PASSWORD = "benchmark-password"


async def person(base: str, code: str, name: str, think: float, seed: int, stats: Stats) -> None:
    """A person called to his table: he finds it on his call page and plays it to its end."""
    async with httpx2.AsyncClient(base_url=base, timeout=120) as client:
        await post(client, "/signin", {"name": name, "password": PASSWORD})
        call = (await client.get(f"/c/{code}/play.json")).json()
        table = call["table"]["code"]
        token = re.search(r'data-token="([^"]+)"', (await client.get(f"/t/{table}")).text)
        assert token is not None, "no seat token on the table's page"
        await play(base, table, token[1], random.Random(seed), think, stats)
        stats.finished += 1


async def run(args: argparse.Namespace, base: str, server: int, postgres: int | None) -> dict[str, object]:
    desk = httpx2.AsyncClient(base_url=base, timeout=120)
    await post(desk, "/signup", {"name": "Organisatrice", "password": PASSWORD})  # the first: the administrator
    people = [(f"A{n}", f"B{n}") for n in range(1, args.people + 1)]
    for pair in people:
        for name in pair:
            async with httpx2.AsyncClient(base_url=base, timeout=120) as client:
                await post(client, "/signup", {"name": name, "password": PASSWORD})
    form = {"name": "Tournoi de charge", "rounds": "3", "draw": "random", "ranking": "points", "preset": "coinche"}
    form |= {"end": "deals", "count": str(args.deals), "mode": "online", "absent_delay": str(args.absent)}
    created = await post(desk, "/concours", {**form, "bots": "club"})
    code = str(created.headers["location"]).rsplit("/", 1)[-1]
    for n in range(1, args.teams + 1):
        a, b = people[n - 1] if n <= len(people) else ("", "")
        await post(desk, f"/c/{code}/entrants", {"name": f"Équipe {n}", "player1": a, "player2": b})
    stats = Stats()
    usage = Usage(server, postgres)
    start = time.perf_counter()
    await post(desk, f"/c/{code}/draw")
    drawn = time.perf_counter() - start
    tables = args.teams // 2
    rng = random.Random(args.seed)
    players = [person(base, code, name, args.think, rng.randrange(1 << 30), stats) for pair in people for name in pair]
    everyone = asyncio.gather(*players)
    standings: list[float] = []
    while True:
        begin = time.perf_counter()
        board = (await desk.get(f"/c/{code}/standings.json")).json()
        standings.append(time.perf_counter() - begin)
        if board["confirmed"] >= tables:
            break
        await asyncio.sleep(1.0)
    played = time.perf_counter() - start
    await everyone
    used = usage.cores()
    pages = []
    for _ in range(5):
        begin = time.perf_counter()
        (await desk.get(f"/c/{code}")).raise_for_status()
        pages.append(time.perf_counter() - begin)
    begin = time.perf_counter()
    await post(desk, f"/c/{code}/draw")
    second = time.perf_counter() - begin
    await desk.aclose()
    return {
        "stats": stats,
        "played": played,
        "draw": drawn,
        "second": second,
        "standings": standings,
        "pages": pages,
        "cpu": used,
        "tables": tables,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=100)
    parser.add_argument("--people", type=int, default=20, help="teams of two people (the others are bots)")
    parser.add_argument("--deals", type=int, default=4, help="deals a round")
    parser.add_argument("--absent", default="1", help="minutes before a bot plays for an absent player")
    parser.add_argument("--think", type=float, default=2.0, help="a person's mean pause before an action (s)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", help="an existing database (default: a throwaway PostgreSQL cluster)")
    args = parser.parse_args()
    found = served(args, run)
    stats = found["stats"]
    assert isinstance(stats, Stats)

    played = float(found["played"])  # type: ignore[arg-type]
    server_cpu, workers_cpu, database_cpu, people_cpu = found["cpu"]  # type: ignore[misc]
    print("\n".join(machine_lines()))
    print(
        f"- run: {args.teams} teams at {found['tables']} tables, {args.people} teams of two people (the rest bots), "
        f"{args.deals} deals a round, club bots at the fast pace, a pause of {args.think:g} s on average before a "
        "person's action; PostgreSQL; server, bots and people on this machine\n"
    )
    print(
        "| tables | draw (tables created) | round: draw → all results in the standings "
        "| actions/s at the people's tables | person's action → update p50 | p95 | max | errors "
        "| standings.json p50 | desk page p50 | draw of round 2 | server | bot workers | PostgreSQL | people |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    print(
        f"| {found['tables']} | {1000 * float(found['draw']):.0f} ms | {played:.0f} s "  # type: ignore[arg-type]
        f"| {stats.played / played:.1f} | {ms(stats.actions)} | {ms(stats.actions, 0.95)} "
        f"| {1000 * max(stats.actions):.0f} ms | {stats.errors} | {ms(found['standings'])} "  # type: ignore[arg-type]
        f"| {ms(found['pages'])} | {1000 * float(found['second']):.0f} ms "  # type: ignore[arg-type]
        f"| {server_cpu:.2f} cores | {workers_cpu:.2f} cores | {database_cpu:.2f} cores | {people_cpu:.2f} cores |"
    )


if __name__ == "__main__":
    main()
