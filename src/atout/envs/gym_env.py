"""A Gymnasium environment for one seat; atout's bots, built from specs, hold the others.

The observation is the seat's array (see :mod:`atout.envs.encoding`); the legal actions
come as ``info["action_mask"]`` and from :meth:`AtoutEnv.action_masks` (the method
sb3-contrib's ``MaskablePPO`` calls). An illegal action ends the episode with
``illegal_reward`` (by default the worst a deal can give: minus a bound of one side's
marks, or -1 with ``reward="win"``), so that agents without masks still learn.

>>> from atout.envs.gym_env import AtoutEnv
>>> game = AtoutEnv("coinche", opponents="random")
>>> obs, info = game.reset(seed=3)
>>> obs.shape, int(info["action_mask"].sum()) > 1
((1932,), True)
>>> done = False
>>> while not done:
...     action = int(info["action_mask"].nonzero()[0][0])
...     obs, reward, done, truncated, info = game.step(action)
>>> isinstance(reward, float)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from atout.bots import Agent, BotSpec, build_agent, load_spec
from atout.envs.aec import describe_deal, ruleset_of
from atout.envs.encoding import FloatArray
from atout.envs.table import Table, deal_bound
from atout.errors import AtoutError
from atout.rules import Ruleset

Spec = str | Path | dict[str, Any] | BotSpec


class AtoutEnv(gymnasium.Env[FloatArray, np.int64]):
    """One seat of a deal (or a match) against bots.

    ``seat`` is the learner's seat (seats are in playing order; with four players its
    partner is ``seat + 2``). ``partner`` and ``opponents`` are bot specs (a level name
    such as ``"club"``, a TOML file, a dict, or a :class:`~atout.bots.BotSpec`);
    ``opponents`` may list one spec per opponent, in playing order from the learner.
    The partner defaults to the opponents' spec. The bots are built at the first reset
    and at each ``reset(seed=…)``, seeded from it, and play on from one episode to the next.
    """

    def __init__(
        self,
        rules: Ruleset | str = "coinche",
        *,
        seat: int = 0,
        partner: Spec | None = None,
        opponents: Spec | Sequence[Spec] = "club",
        episode: str = "deal",
        reward: str = "marks",
        dealer: int | None = None,
        illegal_reward: float | None = None,
        render_mode: str | None = None,
    ) -> None:
        self.rules = ruleset_of(rules)
        n = self.rules.players
        if not (isinstance(seat, int) and 0 <= seat < n):
            raise AtoutError(f"seat must be 0..{n - 1}, not {seat!r}")
        if partner is not None and n != 4:
            raise AtoutError(f"a partner needs four players; these rules have {n}")
        if render_mode not in (None, "ansi"):
            raise AtoutError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.metadata = {"render_modes": ["ansi"]}
        self.render_mode = render_mode
        self.seat = seat
        self.table = Table(self.rules, episode=episode, reward=reward, dealer=dealer)
        others = [(seat + k) % n for k in range(1, n)]
        listed = [opponents] if isinstance(opponents, (str, Path, dict, BotSpec)) else list(opponents)
        opposing = [s for s in others if self.rules.side_of(s) != self.rules.side_of(seat)]
        if len(listed) not in (1, len(opposing)):
            raise AtoutError(f"give one opponent spec, or one per opponent ({len(opposing)}), not {len(listed)}")
        self.specs: dict[int, BotSpec] = {}
        for i, s in enumerate(opposing):
            self.specs[s] = load_spec(listed[i if len(listed) > 1 else 0])
        for s in others:
            if s not in self.specs:
                self.specs[s] = load_spec(partner if partner is not None else listed[0])
        self.illegal_reward = (
            illegal_reward
            if illegal_reward is not None
            else (-1.0 if reward == "win" else -float(deal_bound(self.rules)))
        )
        layout = self.table.layout
        self.observation_space = spaces.Box(layout.low, layout.high, dtype=np.float32)
        self.action_space = spaces.Discrete(self.table.space.size)
        self.bots: dict[int, Agent] = {}
        self._no_mask = np.zeros(self.table.space.size, np.int8)
        self._no_mask.flags.writeable = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[FloatArray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None or not self.bots:  # the table and the bots seeded afresh, then going on
            self.table.reset(int(self.np_random.integers(1 << 62)))
            self.bots = {
                s: build_agent(spec, seed=int(self.np_random.integers(1 << 31))) for s, spec in self.specs.items()
            }
        else:
            self.table.reset()
        self._play_bots()
        return self.table.observe(self.seat), self._info()

    def step(self, action: int | np.int64) -> tuple[FloatArray, float, bool, bool, dict[str, Any]]:
        if self.table.over:
            raise AtoutError("the episode is over: reset the environment")
        index = int(action)
        if not (0 <= index < self.table.space.size and self.table.legal_mask()[index]):
            info = self._info()
            info["illegal_action"] = True
            self.table.over = True
            return self.table.observe(self.seat), self.illegal_reward, True, False, info
        reward = self.table.step(index).get(self.seat, 0.0)
        reward += self._play_bots()
        return self.table.observe(self.seat), reward, self.table.over, False, self._info()

    def _play_bots(self) -> float:
        """Let the bots act until the learner's turn or the end; the learner's rewards meanwhile."""
        table, total = self.table, 0.0
        seat = table.turn
        while seat is not None and seat != self.seat:
            action = self.bots[seat].act(table.deal.observation(seat))
            total += table.apply(action).get(self.seat, 0.0)
            seat = table.turn
        return total

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask().copy()}

    def _mask(self) -> npt.NDArray[np.int8]:
        """The learner's legal actions now (int8, read-only; all 0 once the episode is over)."""
        return self._no_mask if self.table.over else self.table.legal_mask()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the learner now, as booleans (all False once the episode is over)."""
        return self._mask().astype(bool)

    def render(self) -> str | None:
        return describe_deal(self.table) if self.render_mode == "ansi" else None


__all__ = ["AtoutEnv"]
