"""The agent interface, the random agent, and playing a deal with agents.

An agent receives an :class:`~atout.observation.Observation` (never the deal) and
returns one of its legal actions: a call in the auction, announcements, a card
(with belote when it says it). Agents are built from specs by
:func:`atout.bots.build_agent`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from atout.actions import Action
from atout.deal import Deal
from atout.errors import AtoutError
from atout.i18n import Message
from atout.observation import Observation


class Agent(Protocol):
    """Anything that chooses an action from an observation."""

    name: str

    def act(self, obs: Observation) -> Action:
        """One of ``obs.legal_actions()``."""
        ...


class RandomAgent:
    """Chooses uniformly among the legal actions."""

    def __init__(self, name: str = "random", seed: int | None = None) -> None:
        self.name = name
        self.rng = random.Random(seed)

    def act(self, obs: Observation) -> Action:
        return self.rng.choice(obs.legal_actions())


def play_deal(deal: Deal, agents: Sequence[Agent]) -> Deal:
    """Let ``agents`` (one per seat) play ``deal`` to its end; each sees only its observation."""
    if len(agents) != deal.rules.players:
        raise AtoutError(Message("bots.agents", players=deal.rules.players, count=len(agents)))
    while deal.turn is not None:
        seat = deal.turn
        action = agents[seat].act(deal.observation(seat))
        deal.apply(action, seat)
    return deal
