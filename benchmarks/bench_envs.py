"""Throughput of the research environments against the bare rules core, per preset.

Prints a Markdown table: steps (actions) and full deals per second, every action chosen
uniformly among the legal ones, for

* ``core``: the rules core alone (``Deal.new``, ``legal_actions``, ``apply``), as in
  bench_rules.py;
* ``core + arrays``: the same, plus at each step a copy of an observation-sized array and
  the nonzero entries of a mask-sized int8 array: what handing out a fresh observation and
  mask costs at the least, a floor for the driver and PettingZoo;
* ``table``: the environments' driver: the acting seat's observation array, the action
  mask and the step, without any API around them;
* ``pettingzoo``: the AEC environment as a user drives it (``agent_iter``, ``last``,
  ``step``), the choice drawn from the observation's mask; wrapped as ``env()`` gives it
  (with its order checks), then bare (``raw_env()``);
* ``gymnasium``: one seat against three random bots (the bots read ``deal.observation``
  at each of their decisions); ``core + bots`` is the same game in the core alone, the
  most any environment with these bots can reach (steps count the bots' actions too);
* ``openspiel``: random play of the game's states (the chance nodes that deal the cards
  included), ``legal_actions`` and ``apply_action`` only, then with the acting player's
  information-state tensor at each decision;
* ``openspiel floor``: a Python OpenSpiel game that does nothing but replay recorded
  deals of the preset (the same chance nodes, the same lists of legal actions, a tensor
  of the same size), driven by the same loop: the cost of OpenSpiel's API alone.

Environments are seeded once, at their first reset, as a training loop does. Every
measurement of a preset runs once in each round, in turn, so that the machine's swings
hit all alike, each on deals of its own (an environment replaying the deals another one
has just played would find their masks in the driver's caches); "vs core" is the median
over the rounds of the rate over the same round's core rate, and the rates are medians
too. One process, one core.

    python benchmarks/bench_envs.py                # a few minutes
    python benchmarks/bench_envs.py --deals 200 --rounds 3 --presets coinche   # a quick look
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import pyspiel
from machine import machine_lines

from atout import Deal, Phase, Ruleset
from atout.bots import build_agent
from atout.envs import aec, spiel
from atout.envs.gym_env import AtoutEnv
from atout.envs.table import Table
from atout.rules import PRESETS

Run = Callable[[Ruleset, int, int], int]


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


def core_arrays(rules: Ruleset, deals: int, seed: int) -> int:
    rng = random.Random(seed)
    driver = Table(rules)
    observation = np.zeros(driver.layout.size, np.float32)
    mask = np.zeros(driver.space.size, np.int8)
    mask[:8] = 1
    steps = 0
    for i in range(deals):
        deal = Deal.new(rules, dealer=i % rules.players, rng=rng)
        while deal.phase is not Phase.DONE:
            observation.copy()
            mask.nonzero()
            legal = deal.legal_actions()
            deal.apply(legal[int(rng.random() * len(legal))])
            steps += 1
    return steps


def table(rules: Ruleset, deals: int, seed: int) -> int:
    rng = random.Random(seed)
    driver = Table(rules)
    driver.reset(seed)
    steps = 0
    for i in range(deals):
        if i:
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
        env.reset(seed=None if i else seed)
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
    bots = [build_agent("random", seed=seed + s) for s in range(rules.players)]
    steps = 0
    for i in range(deals):
        deal = Deal.new(rules, dealer=i % rules.players, rng=rng)
        while deal.turn is not None:
            seat = deal.turn
            if seat == 0:
                legal = deal.legal_actions()
                deal.apply(legal[int(rng.random() * len(legal))])
            else:
                deal.apply(bots[seat].act(deal.observation(seat)))
            steps += 1
    return steps


def gymnasium(rules: Ruleset, deals: int, seed: int) -> int:
    rng = random.Random(seed)
    env = AtoutEnv(rules, opponents="random")
    steps = 0
    for i in range(deals):
        _, info = env.reset(seed=None if i else seed)
        done = False
        while not done:
            legal = info["action_mask"].nonzero()[0]
            _, _, done, _, info = env.step(legal[int(rng.random() * len(legal))])
        steps += len(env.table.deal.actions)
    return steps


def openspiel(rules: Ruleset, deals: int, seed: int, tensors: bool = False, name: str = "python_atout") -> int:
    game = pyspiel.load_game(name, {"preset": rules.name})
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


# ------------------------------------------------------------------ the floor of OpenSpiel's API
FLOOR_TYPE = pyspiel.GameType(
    short_name="python_atout_floor",
    long_name="atout's deals replayed, doing nothing else",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"preset": "coinche"},
)
#: By preset: recorded deals, each the list of legal actions at each of its decisions.
FLOOR_DEALS: dict[str, list[list[list[int]]]] = {}


class FloorGame(pyspiel.Game):  # type: ignore[misc]
    """Replays recorded deals: the deck dealt card by card, then each decision's legal actions."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = params or {"preset": "coinche"}
        setup = spiel.setup_of(params)
        self.preset = setup.rules.name
        self.deck = len(setup.deck)
        self.size = setup.layout.size
        self.players = setup.rules.players
        self.outcomes = [[(c, 1.0 / (self.deck - k)) for c in range(k, self.deck)] for k in range(self.deck)]
        self.next_deal = 0
        info = pyspiel.GameInfo(
            num_distinct_actions=setup.space.size,
            max_chance_outcomes=32,
            num_players=setup.rules.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=400,
        )
        super().__init__(FLOOR_TYPE, info, params)

    def new_initial_state(self) -> FloorState:
        recorded = FLOOR_DEALS[self.preset]
        self.next_deal += 1
        return FloorState(self, recorded[self.next_deal % len(recorded)])

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> FloorObserver:
        return FloorObserver(self.size)


class FloorState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: FloorGame, decisions: list[list[int]]) -> None:
        super().__init__(game)
        self.game, self.decisions, self.dealt, self.done = game, decisions, 0, 0

    def current_player(self) -> int:
        if self.dealt < self.game.deck:
            return int(pyspiel.PlayerId.CHANCE)
        if self.done == len(self.decisions):
            return int(pyspiel.PlayerId.TERMINAL)
        return self.done % self.game.players

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.game.outcomes[self.dealt]

    def _legal_actions(self, player: int) -> list[int]:
        return self.decisions[self.done]

    def _apply_action(self, action: int) -> None:
        if self.dealt < self.game.deck:
            self.dealt += 1
        else:
            self.done += 1

    def _action_to_string(self, player: int, action: int) -> str:
        return str(action)

    def is_terminal(self) -> bool:
        return self.done == len(self.decisions)

    def returns(self) -> list[float]:
        return [0.0] * self.game.players

    def __str__(self) -> str:
        return f"{self.dealt} {self.done}"


class FloorObserver:
    def __init__(self, size: int) -> None:
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: FloorState, player: int) -> None:
        pass

    def string_from(self, state: FloorState, player: int) -> str:
        return ""


pyspiel.register_game(FLOOR_TYPE, FloorGame)


def record(rules: Ruleset, deals: int, seed: int) -> list[list[list[int]]]:
    """Random deals of ``rules``: the legal actions at each decision."""
    rng = random.Random(seed)
    driver = Table(rules)
    driver.reset(seed)
    out = []
    for i in range(deals):
        if i:
            driver.reset()
        decisions = []
        while not driver.over:
            legal = [int(a) for a in driver.legal_mask().nonzero()[0]]
            decisions.append(legal)
            driver.step(legal[int(rng.random() * len(legal))])
        out.append(decisions)
    return out


# ------------------------------------------------------------------ measuring
RUNS: list[tuple[str, Run]] = [
    ("core", core),
    ("core + arrays", core_arrays),
    ("table", table),
    ("pettingzoo", pettingzoo),
    ("pettingzoo raw_env", partial(pettingzoo, raw=True)),
    ("core + bots", core_bots),
    ("gymnasium", gymnasium),
    ("openspiel", openspiel),
    ("openspiel floor", partial(openspiel, name="python_atout_floor")),
    ("openspiel + tensors", partial(openspiel, tensors=True)),
    ("openspiel floor + tensors", partial(openspiel, tensors=True, name="python_atout_floor")),
]


def measure(run: Run, rules: Ruleset, deals: int, seed: int) -> tuple[float, float]:
    """Steps per second and deals per second of one run, in the process's CPU time (the time
    the machine gave it: the other processes of a shared machine do not count)."""
    start = time.process_time()
    steps = run(rules, deals, seed)
    seconds = time.process_time() - start
    return steps / seconds, deals / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=400, help="deals per measurement")
    parser.add_argument("--rounds", type=int, default=7, help="rounds of every measurement; medians are reported")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--presets", nargs="*", default=list(PRESETS))
    parser.add_argument("--only", nargs="*", help="measure only these environments (core always)")
    args = parser.parse_args()
    runs = [(label, run) for label, run in RUNS if not args.only or label == "core" or label in args.only]
    print("\n".join(machine_lines()))
    print()
    print("| preset | environment | steps/s | deals/s | vs core |")
    print("|---|---|---:|---:|---:|")
    for name in args.presets:
        rules = Ruleset.preset(name)
        FLOOR_DEALS[name] = record(rules, args.deals, args.seed)
        rates: dict[str, list[tuple[float, float]]] = {label: [] for label, _ in runs}
        ratios: dict[str, list[float]] = {label: [] for label, _ in runs}
        for r in range(args.rounds):
            for k, (label, run) in enumerate(runs):
                rates[label].append(measure(run, rules, args.deals, args.seed + r * len(runs) + k))
                ratios[label].append(rates[label][-1][1] / rates["core"][-1][1])
        for label, _ in runs:
            steps = statistics.median(s for s, _ in rates[label])
            deals = statistics.median(d for _, d in rates[label])
            print(f"| {name} | {label} | {steps:,.0f} | {deals:,.0f} | {statistics.median(ratios[label]):.0%} |")


if __name__ == "__main__":
    main()
