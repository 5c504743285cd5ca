"""A PettingZoo AEC environment for any ruleset: one agent per seat, ``player_0`` … ``player_{n-1}``.

Each agent's observation is a dict: ``"observation"``, the seat's array (see
:mod:`atout.envs.encoding`), and ``"action_mask"``, 1 for each legal action of the
fixed action space (see :mod:`atout.envs.actions`; all 0 when it is not the seat's
turn). Rewards come at the end of each deal (see :mod:`atout.envs.table`). An illegal
action raises :class:`~atout.errors.AtoutError` naming it and changes nothing (wrap the
environment in PettingZoo's ``TerminateIllegalWrapper`` to end the game instead).

>>> from atout.envs.aec import env
>>> game = env("coinche")
>>> game.reset(seed=7)
>>> for agent in game.agent_iter():
...     obs, reward, termination, truncation, info = game.last()
...     action = None if termination or truncation else int(obs["action_mask"].nonzero()[0][-1])
...     game.step(action)
>>> sorted(game.possible_agents), game.agents
(['player_0', 'player_1', 'player_2', 'player_3'], [])
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator

from atout.envs.table import Table
from atout.rules import Ruleset


def ruleset_of(rules: Ruleset | str) -> Ruleset:
    """A ruleset, or a preset's name."""
    return Ruleset.preset(rules) if isinstance(rules, str) else rules


Observed = dict[str, npt.NDArray[Any]]
RENDER_MODES = ("ansi", "human")


class AtoutAECEnv(AECEnv):
    """The AEC environment; :func:`env` wraps it in PettingZoo's order checks."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "atout_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: Ruleset | str = "coinche",
        *,
        episode: str = "deal",
        reward: str = "marks",
        dealer: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.rules = ruleset_of(rules)
        if render_mode not in (None, *RENDER_MODES):
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        self.render_mode = render_mode
        self.table = Table(self.rules, episode=episode, reward=reward, dealer=dealer)
        layout, size = self.table.layout, self.table.space.size
        self.possible_agents = [f"player_{seat}" for seat in range(self.rules.players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.agents: list[str] = []
        observation = spaces.Dict(
            {
                "observation": spaces.Box(layout.low, layout.high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (size,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        self._no_mask = np.zeros(size, np.int8)
        self._no_mask.flags.writeable = False

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.table.reset(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._rewarded = False
        self._select()

    def _select(self) -> None:
        turn = self.table.turn
        if turn is not None:
            self.agent_selection = self.possible_agents[turn]

    def observe(self, agent: str) -> Observed:
        seat, table = self._seats[agent], self.table
        mask = table.legal_mask() if seat == table.turn else self._no_mask
        return {"observation": table.observe(seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: None is only for agents whose game is over")
        table = self.table
        gained = table.step(action)
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded or gained:
            self._reward(gained)
        if table.over:
            for name in self.agents:
                self.terminations[name] = True
        else:
            self._select()
        if self.render_mode == "human":
            self.render()

    def _reward(self, gained: dict[int, float]) -> None:
        """The rewards of a step (those of the step before are cleared)."""
        for name in self.agents:
            self.rewards[name] = 0.0
        for seat, value in gained.items():
            name = self.possible_agents[seat]
            self.rewards[name] = value
            self._cumulative_rewards[name] += value
        self._rewarded = bool(gained)

    def render(self) -> str | None:
        """The deal seen from above (every hand), as text; printed with ``render_mode="human"``."""
        if self.render_mode is None:
            return None
        text = describe_deal(self.table)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def describe_deal(table: Table) -> str:
    """The dealer, the calls, the contract, the tricks and every hand, one line each."""
    deal = table.deal
    lines = [f"dealer: seat {deal.dealer}, phase: {deal.phase.value}"]
    lines.append("calls: " + " ".join(a.notation() for _, a in deal.actions[: len(deal.auction.calls)]))
    if deal.contract is not None:
        lines.append(f"contract: {deal.contract.label('en')} by seat {deal.contract.taker}")
    for trick in deal.tricks:
        lines.append(f"trick led by seat {trick.leader}: {' '.join(str(c) for c in trick.cards)}")
    if deal.current_trick:
        lines.append("trick in progress: " + " ".join(f"{c}" for _, c in deal.current_trick))
    for seat in range(deal.rules.players):
        lines.append(f"seat {seat}: {' '.join(str(c) for c in deal.hand(seat))}")
    return "\n".join(lines)


def raw_env(rules: Ruleset | str = "coinche", **options: Any) -> AtoutAECEnv:
    """The environment without wrappers (options: ``episode``, ``reward``, ``dealer``, ``render_mode``)."""
    return AtoutAECEnv(rules, **options)


class OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order checks, with ``last``, ``step`` and ``agent_iter`` reaching the environment
    directly once it has been reset (the base class routes each attribute they read through two
    ``__getattr__`` calls, which halves the environment's speed)."""

    def last(self, observe: bool = True) -> tuple[Observed | None, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            return super().last(observe)  # type: ignore[no-any-return]
        return self.env.last(observe)  # type: ignore[no-any-return]

    def step(self, action: int | None) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable:
        if not self._has_reset:
            return super().agent_iter(max_iter)
        return _Agents(self, max_iter)


class _Agents(AECOrderEnforcingIterable):
    def __iter__(self) -> _NextAgent:
        return _NextAgent(self.env, self.max_iter)


class _NextAgent(AECOrderEnforcingIterator):
    def __next__(self) -> str:
        wrapper = self.env
        game = wrapper.env
        if not game.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return game.agent_selection  # type: ignore[no-any-return]


def env(rules: Ruleset | str = "coinche", **options: Any) -> AECEnv:
    """The environment, wrapped in PettingZoo's order checks (the usual entry point)."""
    return OrderEnforcing(raw_env(rules, **options))


__all__ = ["AtoutAECEnv", "OrderEnforcing", "env", "raw_env", "ruleset_of"]
