"""Computer players: one agent interface, bots built from TOML specs.

>>> from atout import Deal, Ruleset
>>> from atout.bots import build_agent, play_deal
>>> agents = [build_agent("club", seed=s) for s in range(4)]
>>> deal = play_deal(Deal.new(Ruleset.preset("coinche"), seed=3), agents)
>>> deal.result is not None
True
"""

from atout.bots.base import Agent, RandomAgent, play_deal
from atout.bots.heuristic import HeuristicAgent
from atout.bots.specs import LEVELS, BotSpec, build_agent, load_spec

__all__ = ["LEVELS", "Agent", "BotSpec", "HeuristicAgent", "RandomAgent", "build_agent", "load_spec", "play_deal"]
