"""Speed of the compiled kernels and the double-dummy solver on a frozen corpus.

Prints Markdown tables: for each category of benchmarks/data/solver_corpus.txt
(full deals at trick 1, mid-deal at trick 4, endings at trick 6; normal trump,
sans atout, tout atout) the median and 95th-percentile time, the median nodes and
the nodes per second of the all-cards solve and of the threshold query ("can the
takers reach 80?"); random full-deal rollouts per second; and the first call's
latency in a fresh process, cold (compiling) and warm (loading numba's disk cache).
One core; the solver's table is cleared between positions (a new Solver each). The corpus is
timed in ``--repeat`` rounds (5 by default), one after the other, and each position keeps its
best time, as a shared machine's load comes and goes over minutes; node counts do not vary.

    python benchmarks/bench_solver.py              # a few minutes
    python benchmarks/bench_solver.py --quick      # a fraction of the corpus, once
    python benchmarks/bench_solver.py --corpus-only --repeat 1   # the corpus once, no rollouts, no first call
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from machine import machine_lines

from atout import Deal
from atout.fast import mode_of, rollouts
from atout.solver import Solver

CORPUS = Path(__file__).parent / "data" / "solver_corpus.txt"


def load(limit: int | None) -> dict[str, list[Deal]]:
    groups: dict[str, list[Deal]] = {}
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        category, text = line.split(" ", 1)
        group = groups.setdefault(category, [])
        if limit is None or len(group) < limit:
            group.append(Deal.from_position(text))
    return groups


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))]


def summary(times: list[float], nodes: list[int]) -> tuple[float, float, float, float]:
    """Median and 95th-percentile milliseconds, median nodes, nodes per second."""
    return (
        statistics.median(times) * 1000,
        percentile(times, 0.95) * 1000,
        statistics.median(nodes),
        sum(nodes) / sum(times),
    )


def measure(deals: list[Deal], query: str) -> tuple[list[float], list[int]]:
    """Seconds and nodes of each position's solve (``query`` "all") or threshold query."""
    times, nodes = [], []
    for deal in deals:
        solver = Solver(deal.rules)
        start = time.perf_counter()
        if query == "all":
            count = solver.solve(deal).nodes
        else:
            assert deal.contract is not None
            solver.can_reach(deal, deal.rules.side_of(deal.contract.taker), 80)
            count = solver.nodes
        times.append(time.perf_counter() - start)
        nodes.append(count)
    return times, nodes


def rollout_rate(deals: list[Deal], per_deal: int) -> float:
    total = 0
    start = time.perf_counter()
    for i, deal in enumerate(deals):
        assert deal.contract is not None and deal.turn is not None
        hands = np.array([deal.hand_mask(s) for s in range(4)], np.int64)
        mode = mode_of(deal.contract.strain, deal.rules)
        rollouts(hands, 4, deal.turn, mode, True, True, False, False, per_deal, i)
        total += per_deal
    return total / (time.perf_counter() - start)


FIRST_CALL = """
import time
start = time.perf_counter()
from atout import Deal
from atout.solver import Solver
deal = Deal.from_position({position!r})
Solver(deal.rules).solve(deal)
print(time.perf_counter() - start)
"""


def first_call_latency(position: str) -> tuple[float, float]:
    """Seconds to import atout and solve one ending in a fresh process: without, then with, numba's cache."""
    with tempfile.TemporaryDirectory() as cache:
        env = {"NUMBA_CACHE_DIR": cache, "PATH": "/usr/bin:/bin"}
        script = FIRST_CALL.format(position=position)
        runs = [
            float(
                subprocess.run(
                    [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
                ).stdout
            )
            for _ in range(2)
        ]
    return runs[0], runs[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="at most 10 positions per category, timed once")
    parser.add_argument("--repeat", type=int, default=5, help="rounds over the corpus; each position's best is kept")
    parser.add_argument("--corpus-only", action="store_true", help="the corpus only: no rollouts, no first call")
    args = parser.parse_args()
    repeat = 1 if args.quick else max(1, args.repeat)
    groups = load(10 if args.quick else None)
    warm = next(iter(groups.values()))[0]
    Solver(warm.rules).solve(warm)  # load the compiled code before timing
    best: dict[tuple[str, str], tuple[list[float], list[int]]] = {}
    for _ in range(repeat):
        for category, deals in groups.items():
            for query in ("all", "threshold"):
                times, nodes = measure(deals, query)
                if (category, query) in best:
                    times = [min(a, b) for a, b in zip(times, best[category, query][0], strict=True)]
                best[category, query] = times, nodes
    print("\n".join(machine_lines()))
    print()
    print(
        "| positions | n | all cards: median ms | p95 ms | median nodes | nodes/s "
        "| threshold: median ms | p95 ms | median nodes | nodes/s |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for category, deals in groups.items():
        solve = summary(*best[category, "all"])
        threshold = summary(*best[category, "threshold"])
        print(
            f"| {category} | {len(deals)} | {solve[0]:.2f} | {solve[1]:.2f} | {solve[2]:,.0f} | {solve[3]:,.0f} "
            f"| {threshold[0]:.2f} | {threshold[1]:.2f} | {threshold[2]:,.0f} | {threshold[3]:,.0f} |"
        )
    if args.corpus_only:
        return
    full = [d for c, ds in groups.items() if c.startswith("trick1") for d in ds]
    print()
    print(f"Random full-deal rollouts: {rollout_rate(full, 20_000):,.0f} per second")
    ending = next(ds for c, ds in groups.items() if c.startswith("trick6"))[0].position()
    cold, warm_start = first_call_latency(ending)
    print(
        f"First call (import + one solve) in a fresh process: cold {cold:.1f} s (compiling), "
        f"warm {warm_start:.2f} s (numba's disk cache)"
    )


if __name__ == "__main__":
    main()
