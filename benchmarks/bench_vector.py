"""Steps per second of the batched simulator (atout.envs.vector) against PettingZoo's and the rules core's.

Every action is drawn uniformly among the legal ones, on one core, in one process, each measurement of a
round run in turn so that the machine's swings hit all alike (rates are the medians over the rounds):

* ``core``: the rules core alone (``Deal.new``, ``legal_actions``, ``apply``);
* ``pettingzoo``: the AEC environment as a user drives it (``agent_iter``, ``last``, ``step``), ``env()``
  then ``raw_env()`` (as in bench_envs.py);
* ``vector B``: ``VectorTable(num_envs=B, copy=False)``: ``sample_actions()`` then ``step()``; each step
  writes the acting seat's observation and the masks of B deals (the arrays a learner reads).

The last columns estimate the memory each step moves: the acting seat's observation read from the
simulator's arrays and written out, the four seats' arrays each action writes into, the mask and the
deal's row; and the rate it would allow at the machine's memory bandwidth, measured here with a NumPy copy
of an array of the simulator's size.

    python benchmarks/bench_vector.py                          # a minute or two
    python benchmarks/bench_vector.py --presets contree --rounds 2   # a quick look
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from functools import partial

import numpy as np
from bench_envs import core, pettingzoo
from machine import machine_lines

from atout import Ruleset
from atout.envs.encoding import layout_of
from atout.envs.vector import VectorTable


def vector(rules: Ruleset, envs: int, steps: int, seed: int) -> int:
    table = VectorTable(rules, num_envs=envs, copy=False)
    table.reset(seed=seed)
    for _ in range(steps // envs):
        table.step(table.sample_actions())
    return steps // envs * envs


def timed(run: Callable[[], int]) -> float:
    start = time.perf_counter()
    steps = run()
    return steps / (time.perf_counter() - start)


def bandwidth(size: int) -> float:
    """Bytes per second a NumPy copy of ``size`` bytes moves (read and write), the best of five."""
    source = np.ones(size // 4, np.float32)
    target = np.empty_like(source)
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        np.copyto(target, source)
        best = min(best, time.perf_counter() - start)
    return 2 * size / best


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--presets", default="contree,contree-colver")
    parser.add_argument("--deals", type=int, default=300, help="deals per round for the core and PettingZoo")
    parser.add_argument("--steps", type=int, default=600_000, help="steps per round for the simulator")
    parser.add_argument("--sizes", default="1,64,256,1024,4096", help="the numbers of deals stepped together")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print("\n".join(machine_lines()))
    print()
    print("| preset | environment | steps/s | vs pettingzoo | bytes a step | memory-bound steps/s |")
    print("|---|---|---:|---:|---:|---:|")
    for name in args.presets.split(","):
        rules = Ruleset.preset(name)
        VectorTable(rules, num_envs=1).reset(seed=0)  # compiled before the clock runs
        runs: dict[str, Callable[[], int]] = {
            "core": partial(core, rules, args.deals, 1),
            "pettingzoo": partial(pettingzoo, rules, args.deals, 1),
            "pettingzoo raw_env": partial(pettingzoo, rules, args.deals, 1, raw=True),
        }
        for size in sizes:
            runs[f"vector {size}"] = partial(vector, rules, size, max(args.steps, 100 * size), 1)
        rates: dict[str, list[float]] = {key: [] for key in runs}
        for _ in range(args.rounds):
            for key, run in runs.items():
                rates[key].append(timed(run))
        size = layout_of(rules).size * 4
        # The observation read and written out, the four seats' arrays (a cache line each) and the mask.
        moved = 2 * size + 4 * 64 + 2 * VectorTable(rules, num_envs=1).single_action_space.n + 8 * 50
        limit = bandwidth(max(sizes) * 5 * size) / moved
        base = statistics.median(rates["pettingzoo"])
        for key, values in rates.items():
            rate = statistics.median(values)
            extra = f"{moved:,} | {limit:,.0f}" if key.startswith("vector") else " | "
            print(f"| {name} | {key} | {rate:,.0f} | {rate / base:.1f}× | {extra} |")


if __name__ == "__main__":
    main()
