"""Seconds per decision of the shipped bot levels, per preset.

Four bots of one level play whole deals (one process, one core); every decision is
timed from the observation to the action and counted as a call (the auction) or a card
(the play, announcements and belote included). Forced decisions (one legal action) are
counted too: they are part of what a player waits for. Prints a Markdown table of the
mean, median, 99th percentile and maximum, with the goals of issue 4 (heuristic: 1 ms a
decision; expert: 1 s a card).

    python benchmarks/bench_bots.py                    # heuristic and expert, about 15 minutes
    python benchmarks/bench_bots.py --levels expert --deals 5 --presets coinche   # a quick look
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time

from machine import machine_lines

from atout import Deal, Ruleset
from atout.actions import Bid, Coinche, Pass, Surcoinche, Take
from atout.bots import build_agent
from atout.solver import warm_up

GOALS = {("heuristic", "call"): 0.001, ("heuristic", "card"): 0.001, ("expert", "card"): 1.0}


def decision_times(level: str, rules: Ruleset, deals: int, seed: int) -> dict[str, list[float]]:
    agents = [build_agent(level, seed=seed * 10 + seat) for seat in range(rules.players)]
    rng = random.Random(seed)
    times: dict[str, list[float]] = {"call": [], "card": []}
    for i in range(deals):
        deal = Deal.new(rules, dealer=i % rules.players, rng=rng)
        while deal.turn is not None:
            seat = deal.turn
            start = time.perf_counter()
            action = agents[seat].act(deal.observation(seat))
            elapsed = time.perf_counter() - start
            times["call" if isinstance(action, (Pass, Bid, Coinche, Surcoinche, Take)) else "card"].append(elapsed)
            deal.apply(action, seat)
    return times


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def judge(values: list[float], goal: float) -> str:
    if max(values) <= goal:
        return "met"
    return "met at p99" if percentile(values, 0.99) <= goal else "not met"


def seconds(value: float) -> str:
    return f"{value * 1000:.3f} ms" if value < 0.1 else f"{value:.2f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", nargs="+", default=["heuristic", "expert"])
    parser.add_argument("--presets", nargs="+", default=["coinche", "classique"])
    parser.add_argument(
        "--deals",
        type=int,
        default=0,
        help="deals per level and preset (default: 400 for heuristic, 40 for the search levels)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--no-freeze",
        action="store_true",
        help="leave start-up objects to the garbage collector (one ~80 ms pause appears)",
    )
    args = parser.parse_args()
    warm_up()
    if not args.no_freeze:
        gc.freeze()  # as `atout play` does after start-up: no collection rescans the imported modules
    print("\n".join(machine_lines()))
    print()
    print("| level | preset | kind | decisions | mean | median | p99 | max | goal |")
    print("|---|---|---|---:|---:|---:|---:|---:|---|")
    for level in args.levels:
        for preset in args.presets:
            deals = args.deals or (400 if level in ("random", "debutant", "club", "heuristic") else 40)
            times = decision_times(level, Ruleset.preset(preset), deals, args.seed)
            for kind, values in times.items():
                goal = GOALS.get((level, kind))
                verdict = "" if goal is None else f"≤ {seconds(goal)}: {judge(values, goal)}"
                print(
                    f"| {level} | {preset} | {kind} | {len(values)} | {seconds(statistics.fmean(values))} | "
                    f"{seconds(statistics.median(values))} | {seconds(percentile(values, 0.99))} | "
                    f"{seconds(max(values))} | {verdict} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
