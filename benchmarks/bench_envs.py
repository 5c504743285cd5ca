"""Throughput of the research environments against the bare rules core, per preset.

Prints a Markdown table: steps (actions) and full deals per second, every action chosen
uniformly among the legal ones, for

* ``core``: the rules core alone (``Deal.new``, ``legal_actions``, ``apply``), as in
  bench_rules.py;
* ``table``: the environments' driver: the acting seat's observation array, the action
  mask and the step, without any API around them;
* ``pettingzoo``: the AEC environment as a user drives it (``agent_iter``, ``last``,
  ``step``), the choice drawn from the observation's mask; wrapped as ``env()`` gives it
  (PettingZoo's order checks), then bare (``raw_env()``);
* ``core + bots``, ``gymnasium``: one seat against three random bots (bots see
  ``deal.observation``), in the core alone and through the Gymnasium environment;
* ``openspiel``: random play of the game's states (the 32 chance nodes of the deal
  included), ``legal_actions`` and ``apply_action`` only, then with the acting
  player's information-state tensor at each decision.

"vs core" is the rate over the matching core rate (``core``, or ``core + bots`` for
Gymnasium). One process, one core; each figure is the best of ``--repeat`` runs.

    python benchmarks/bench_envs.py                # a few minutes
    python benchmarks/bench_envs.py --deals 200 --repeat 1 --presets coinche   # a quick look
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from functools import partial

from machine import machine_lines

from atout import Deal, Phase, Ruleset
from atout.bots import RandomAgent
from atout.envs import aec, spiel
from atout.envs.gym_env import AtoutEnv
from atout.envs.table import Table
from atout.rules import PRESETS


def core(rules: Ruleset, deals: int, seed: int) -> int:
    rng = random.Random(seed)
    steps = 0
    for i in range(deals):
        deal = Deal.new(rules, dealer=i % rules.players, rng=rng)
        while deal.phase is not Phase.DONE:
            legal = deal.legal_actions()
            deal.apply(legal[int(rng.random() * len(legal))])
            steps += 1
    return steps


def table(rules: Ruleset, deals: int, seed: int) -> int:
    rng = random.Random(seed)
    driver = Table(rules)
    driver.reset(seed)
    steps = 0
    for _ in range(deals):
        driver.reset()
        while not driver.over:
            driver.observe(driver.turn)  # type: ignore[arg-type]
            legal = driver.legal_mask().nonzero()[0]
            driver.step(legal[int(rng.random() * len(legal))])
            steps += 1
    return steps


def pettingzoo(rules: Ruleset, deals: int, seed: int, raw: bool = False) -> int:
    rng = random.Random(seed)
    env = aec.raw_env(rules) if raw else aec.env(rules)
    steps = 0
    for i in range(deals):
        env.reset(seed=seed + i)
        for _ in env.agent_iter():
            obs, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            env.step(legal[int(rng.random() * len(legal))])
            steps += 1
    return steps


def core_bots(rules: Ruleset, deals: int, seed: int) -> int:
    rng = random.Random(seed)
    bots = [RandomAgent(seed=seed + s) for s in range(rules.players)]
    steps = 0
    for i in range(deals):
        deal = Deal.new(rules, dealer=i % rules.players, rng=rng)
        while deal.turn is not None:
            seat = deal.turn
            if seat == 0:
                legal = deal.legal_actions()
                deal.apply(legal[int(rng.random() * len(legal))])
                steps += 1
            else:
                deal.apply(bots[seat].act(deal.observation(seat)))
    return steps


def gymnasium(rules: Ruleset, deals: int, seed: int) -> int:
    rng = random.Random(seed)
    env = AtoutEnv(rules, opponents="random")
    steps = 0
    for i in range(deals):
        _, info = env.reset(seed=seed + i)
        done = False
        while not done:
            legal = info["action_mask"].nonzero()[0]
            _, _, done, _, info = env.step(legal[int(rng.random() * len(legal))])
            steps += 1
    return steps


def openspiel(rules: Ruleset, deals: int, seed: int, tensors: bool = False) -> int:
    import pyspiel

    game = pyspiel.load_game("python_atout", {"preset": rules.name})
    rng = random.Random(seed)
    steps = 0
    for _ in range(deals):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
                continue
            if tensors:
                state.information_state_tensor()
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
            steps += 1
    return steps


def measure(run: Callable[[Ruleset, int, int], int], rules: Ruleset, deals: int, seed: int) -> tuple[float, float]:
    """Steps per second and deals per second of one run."""
    start = time.perf_counter()
    steps = run(rules, deals, seed)
    seconds = time.perf_counter() - start
    return steps / seconds, deals / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000, help="deals per measurement (a tenth for OpenSpiel)")
    parser.add_argument("--repeat", type=int, default=3, help="rounds of every measurement; the best is reported")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--presets", nargs="*", default=list(PRESETS))
    args = parser.parse_args()
    assert spiel.GAME_TYPE.short_name == "python_atout"  # registered on import
    runs: list[tuple[str, Callable[[Ruleset, int, int], int], int, str]] = [
        ("core", core, args.deals, "core"),
        ("table", table, args.deals, "core"),
        ("pettingzoo", pettingzoo, args.deals, "core"),
        ("pettingzoo raw_env", partial(pettingzoo, raw=True), args.deals, "core"),
        ("core + bots", core_bots, args.deals, "core + bots"),
        ("gymnasium", gymnasium, args.deals, "core + bots"),
        ("openspiel", openspiel, max(1, args.deals // 10), "core"),
        ("openspiel + tensors", partial(openspiel, tensors=True), max(1, args.deals // 10), "core"),
    ]
    print("\n".join(machine_lines()))
    print()
    print("| preset | environment | steps/s | deals/s | vs core |")
    print("|---|---|---:|---:|---:|")
    for name in args.presets:
        rules = Ruleset.preset(name)
        best: dict[str, tuple[float, float]] = {}
        for r in range(args.repeat):  # rounds of every run, so that the machine's swings hit all alike
            for label, run, deals, _ in runs:
                best[label] = max(best.get(label, (0.0, 0.0)), measure(run, rules, deals, args.seed + r))
        for label, _, _, reference in runs:
            steps, deals = best[label]
            print(f"| {name} | {label} | {steps:,.0f} | {deals:,.0f} | {deals / best[reference][1]:.0%} |")


if __name__ == "__main__":
    main()
