"""What the search bot's node budgets cost: solver nodes and CPU seconds per search, per kind.

Four search bots (the expert's spec by default, budgets overridable) play whole deals in one
process; for every card and every call that searched, the nodes it spent, the samples it
solved and the processor time it took are recorded. Node counts do not depend on the machine;
the seconds do (processor time, so that other processes on a shared machine count less).
Prints a Markdown table with the machine and the date.

    python benchmarks/bench_budgets.py                                    # the expert, 30 coinche deals
    python benchmarks/bench_budgets.py --nodes-per-card 10000000000 --nodes-per-call 10000000000
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import replace

from machine import machine_lines

from atout import Deal, Ruleset
from atout.actions import Play
from atout.bots import build_agent, load_spec
from atout.bots.search import SearchAgent
from atout.solver import warm_up


def searches(
    spec_name: str, overrides: dict[str, int], rules: Ruleset, deals: int, seed: int
) -> list[dict[str, float]]:
    spec = replace(load_spec(spec_name), **overrides)
    agents = [build_agent(spec, seed=seed * 10 + seat) for seat in range(rules.players)]
    search = [agent.player for agent in agents]  # type: ignore[attr-defined]
    rng = random.Random(seed)
    rows = []
    for i in range(deals):
        deal = Deal.new(rules, dealer=i % rules.players, rng=rng)
        while deal.turn is not None:
            seat = deal.turn
            obs = deal.observation(seat)
            start = time.process_time()
            action = agents[seat].act(obs)
            cpu = time.process_time() - start
            nodes, samples = search[seat].last_search if isinstance(search[seat], SearchAgent) else (0, 0)
            if nodes:
                card = isinstance(action, Play)
                wanted = spec.samples if card else spec.bid_samples
                rows.append(
                    {"card": card, "nodes": nodes, "cut": samples < wanted, "cpu": cpu, "first": len(obs.tricks) == 0}
                )
            deal.apply(action, seat)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", default="expert")
    parser.add_argument("--preset", default="coinche")
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--nodes-per-card", type=int)
    parser.add_argument("--nodes-per-call", type=int)
    args = parser.parse_args()
    overrides = {
        name: value
        for name, value in (("nodes_per_card", args.nodes_per_card), ("nodes_per_call", args.nodes_per_call))
        if value is not None
    }
    warm_up()
    spec = replace(load_spec(args.spec), **overrides)
    rows = searches(args.spec, overrides, Ruleset.preset(args.preset), args.deals, args.seed)
    print("\n".join(machine_lines()))
    print(f"- {spec.name}: {spec.nodes_per_card:,} nodes a card, {spec.nodes_per_call:,} a call; ", end="")
    print(f"{args.preset}, {args.deals} deals, seed {args.seed}")
    print()
    print(
        "| kind | searches | mean nodes | median | max | first trick: mean | cut short | mean CPU | max CPU | nodes/s |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for card, kind in ((True, "card"), (False, "call")):
        mine = [r for r in rows if r["card"] == card]
        if not mine:
            continue
        nodes = [r["nodes"] for r in mine]
        first = [r["nodes"] for r in mine if r["first"]] if card else nodes
        long = [r for r in mine if r["cpu"] > 0.05]
        rate = sum(r["nodes"] for r in long) / sum(r["cpu"] for r in long) if long else 0.0
        print(
            f"| {kind} | {len(mine)} | {statistics.fmean(nodes):,.0f} | {statistics.median(nodes):,.0f} | "
            f"{max(nodes):,} | {statistics.fmean(first):,.0f} | {sum(r['cut'] for r in mine)} | "
            f"{statistics.fmean(r['cpu'] for r in mine):.3f} s | {max(r['cpu'] for r in mine):.2f} s | {rate:,.0f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
