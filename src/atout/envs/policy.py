"""Any policy over the environments' observations as an atout agent, and its arena evaluation.

A policy is a callable taking a seat's observation array and its action mask (as the
environments give them) and returning an action index. :class:`PolicyAgent` turns it
into an agent (the interface of :mod:`atout.bots`), so it plays in the arena, in
``play_deal`` and at the terminal like any bot; :func:`evaluate` runs it on duplicate
boards against a bot spec and returns the arena's result (score difference per deal
with its confidence interval, match wins).

>>> import numpy as np
>>> from atout import Ruleset
>>> def last_legal(observation, mask):
...     return int(np.flatnonzero(mask)[-1])
>>> result = evaluate(last_legal, Ruleset.preset("coinche"), opponent="random", deals=2)
>>> result.a, result.b, result.diff.n
('policy', 'random', 2)
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from atout.actions import Action
from atout.arena import PairResult, run_pair
from atout.bots import Agent, BotSpec, build_agent, load_spec
from atout.envs.actions import action_space_of
from atout.envs.encoding import FloatArray, encode
from atout.errors import AtoutError
from atout.observation import Observation
from atout.rules import Ruleset

#: observation array, action mask (int8) → action index.
Policy = Callable[[FloatArray, npt.NDArray[np.int8]], int]


class PolicyAgent:
    """A policy as an agent: it sees the same arrays as in the environments.

    In a ruleset with a retourne, the ``dealt_hand`` section holds the hand the agent
    saw in the auction; an agent that never spoke in the auction (someone took before
    its turn) sees its hand at the start of the play there instead.
    """

    def __init__(self, policy: Policy, rules: Ruleset, name: str = "policy") -> None:
        self.name = name
        self.policy = policy
        self.space = action_space_of(rules)
        self._dealt: tuple[tuple[int, int | None], int] | None = None

    def act(self, obs: Observation) -> Action:
        deal_key = (obs.dealer, obs.retourne)
        if obs.phase.value == "auction":
            self._dealt = (deal_key, obs.hand)
        dealt = self._dealt[1] if self._dealt is not None and self._dealt[0] == deal_key else obs.initial_hand
        legal = {self.space.index(a, obs.to_declare): a for a in obs.legal_actions()}
        mask = np.zeros(self.space.size, np.int8)
        mask[list(legal)] = 1
        index = int(self.policy(encode(obs, dealt), mask))
        if index not in legal:
            raise AtoutError(f"the policy {self.name!r} chose action {index}, which is not legal now")
        return legal[index]


class PolicyMaker:
    """Builds a :class:`PolicyAgent` for the spec named ``name``, and bots for the other specs."""

    def __init__(self, policy: Policy, rules: Ruleset, name: str) -> None:
        self.policy, self.rules, self.name = policy, rules, name

    def __call__(self, spec: BotSpec, seed: int) -> Agent:
        if spec.name == self.name:
            return PolicyAgent(self.policy, self.rules, self.name)
        return build_agent(spec, seed=seed)


def evaluate(
    policy: Policy,
    rules: Ruleset,
    opponent: str | BotSpec = "club",
    deals: int = 100,
    seed: int = 0,
    name: str = "policy",
    workers: int = 1,
) -> PairResult:
    """The policy (as bot A) against ``opponent`` (bot B) on ``deals`` duplicate boards.

    With ``workers`` > 1 the boards are played in worker processes, so the policy must pickle.
    """
    spec_b = load_spec(opponent)
    if spec_b.name == name:
        raise AtoutError(f"the policy and its opponent need different names (both are {name!r})")
    spec_a = BotSpec(name)  # a placeholder naming the policy in the results
    return run_pair(rules, spec_a, spec_b, deals, seed, workers=workers, make_agent=PolicyMaker(policy, rules, name))


__all__ = ["Policy", "PolicyAgent", "PolicyMaker", "evaluate"]
