"""Speed of the pure-Python rules core, per preset.

Prints a Markdown table: random full deals per second (deal, auction, play and
scoring, every action chosen uniformly among the legal ones) and legal-action
generations per second (``Deal.legal_actions()`` on positions met in random play,
the per-position cache cleared before each call). One process, one core.

    python benchmarks/bench_rules.py            # about a minute
    python benchmarks/bench_rules.py --deals 500 --repeat 1   # a quick look
"""

from __future__ import annotations

import argparse
import random
import time

from machine import machine_lines

from atout import Deal, Phase, Ruleset
from atout.rules import PRESETS


def random_deals_per_second(rules: Ruleset, deals: int, seed: int) -> float:
    rng = random.Random(seed)
    start = time.perf_counter()
    for i in range(deals):
        deal = Deal.new(rules, dealer=i % rules.players, rng=rng)
        while deal.phase is not Phase.DONE:
            legal = deal.legal_actions()
            deal.apply(legal[int(rng.random() * len(legal))])
    return deals / (time.perf_counter() - start)


def positions(rules: Ruleset, count: int, seed: int) -> list[Deal]:
    """Deals stopped at random moments of random play (auction and play)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        deal = Deal.new(rules, dealer=len(out) % rules.players, rng=rng)
        stop = rng.randrange(40)
        for _ in range(stop):
            if deal.phase is Phase.DONE:
                break
            legal = deal.legal_actions()
            deal.apply(legal[int(rng.random() * len(legal))])
        if deal.phase is not Phase.DONE:
            out.append(deal)
    return out


def legal_generations_per_second(rules: Ruleset, count: int, seed: int, rounds: int = 20) -> float:
    deals = positions(rules, count, seed)
    start = time.perf_counter()
    for _ in range(rounds):
        for deal in deals:
            if deal._cards is not None:
                deal._cards._legal = None  # measure the generation, not the play's cache
            deal.legal_actions()
    return rounds * len(deals) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4000, help="random deals per preset and repetition")
    parser.add_argument("--repeat", type=int, default=3, help="repetitions; the best is reported")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--deals-only", action="store_true", help="time the random deals only (any version of atout)")
    parser.add_argument("--presets", nargs="+", choices=sorted(PRESETS), default=list(PRESETS), metavar="PRESET")
    args = parser.parse_args()
    print("\n".join(machine_lines()))
    print()
    print("| preset | random full deals/s | legal-action generations/s |")
    print("|---|---:|---:|")
    for name in args.presets:
        rules = Ruleset.preset(name)
        deals = max(random_deals_per_second(rules, args.deals, args.seed + r) for r in range(args.repeat))
        if args.deals_only:
            print(f"| {name} | {deals:,.0f} | |")
            continue
        legal = max(legal_generations_per_second(rules, 2000, args.seed + r) for r in range(args.repeat))
        print(f"| {name} | {deals:,.0f} | {legal:,.0f} |")


if __name__ == "__main__":
    main()
