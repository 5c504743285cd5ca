"""How far the takers' real card points fall short of double dummy, on recorded games.

Replays the boards of an arena results file to the first card of each deal played and solves it
double dummy: the card points (dix de der and capot included) the taking side would make with
every card known to everyone. Its real card points minus that value, averaged over the deals
with a 95 % interval, by the bot whose side took (A or B) and by the contract's level: what a
bidder that values its contracts double dummy should expect to lose to real play.

    python benchmarks/dd_shortfall.py RESULTS.jsonl --workers 2
"""

from __future__ import annotations

import argparse
import multiprocessing
from pathlib import Path
from typing import Any

from machine import machine_lines

from atout import Deal, Phase, Ruleset
from atout.arena.run import read_results
from atout.arena.stats import mean_ci
from atout.solver import Solver

Row = dict[str, Any]


def shortfalls(args: tuple[Ruleset, Row]) -> list[Row]:
    """The takers' real card points minus their double-dummy value, for each deal of one board."""
    rules, record = args
    solver = Solver(rules)
    rows = []
    for play in record["plays"]:
        facts = play["facts"]
        if facts is None:
            continue
        deal = Deal.new(rules, dealer=record["dealer"], seed=record["seed"])
        for note in play["actions"].split():
            if deal.phase is Phase.PLAY and not deal.must_declare:
                break
            deal.apply(note)
        contract = deal.contract
        assert contract is not None
        side = rules.side_of(contract.taker)
        real = rules.capot_points if facts["capot"] == side else facts["card_points"][str(side)]
        level = "capot" if contract.capot else "120 and up" if contract.value >= 120 else "below 120"
        rows.append({"bot": play["takers"].upper(), "level": level, "short": real - solver.value(deal, side=side)})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", type=Path, help="an arena results file (JSON lines)")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    records = read_results(args.results)
    rules = Ruleset.from_dict(records[0]["rules"])
    jobs = [(rules, r) for r in records if r.get("type") == "board"]
    with multiprocessing.Pool(args.workers) as pool:
        rows = [row for board in pool.imap(shortfalls, jobs) for row in board]
    names = {side.upper(): records[0][side]["name"] for side in ("a", "b")}
    print(f"Takers' card points minus double dummy on {args.results.name} ({rules.name}), {len(jobs)} boards")
    print()
    print("\n".join(machine_lines()))
    print()
    print("| takers | contracts | deals | real minus double dummy [95 % CI] |")
    print("|---|---|---:|---:|")
    for bot in ("A", "B"):
        for level in ("all", "below 120", "120 and up", "capot"):
            values = [r["short"] for r in rows if r["bot"] == bot and level in ("all", r["level"])]
            if len(values) > 1:
                ci = mean_ci(values)
                interval = f"{ci.mean:+.1f} [{ci.low:+.1f}, {ci.high:+.1f}]"
                print(f"| {bot}: {names[bot]} | {level} | {len(values)} | {interval} |")


if __name__ == "__main__":
    main()
