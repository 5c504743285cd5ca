"""atout: the rules of the French belote family, computer players and tools.

>>> from atout import Deal, Ruleset
>>> deal = Deal.new(Ruleset.preset("coinche"), dealer=0, seed=1)
>>> deal.phase.value, len(deal.legal_actions()) > 1
('auction', True)
"""

from atout.actions import (
    COINCHE,
    PASS,
    SURCOINCHE,
    Action,
    Bid,
    Coinche,
    Declare,
    Pass,
    Play,
    Surcoinche,
    Take,
    parse_action,
)
from atout.announcements import Announcement, best_announcements
from atout.auction import Contract
from atout.cards import Card, Rank, Suit, cards_of, format_hand, parse_hand
from atout.deal import Deal, DealResult, Phase, Trick
from atout.errors import AtoutError, FactsError, IllegalAction, NotationError, RecordError, RulesError
from atout.match import Match
from atout.observation import Observation
from atout.rules import PRESETS, Ruleset
from atout.scoring import DealFacts, DealScore, score_deal


def __getattr__(name: str) -> str:
    """``atout.__version__``, read from the installed package's metadata (pyproject.toml holds it)."""
    if name != "__version__":
        raise AttributeError(f"module 'atout' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("atout")
    except PackageNotFoundError:  # a source tree that was never installed
        return "0+unknown"


__all__ = [
    "COINCHE",
    "PASS",
    "PRESETS",
    "SURCOINCHE",
    "Action",
    "Announcement",
    "AtoutError",
    "Bid",
    "Card",
    "Coinche",
    "Contract",
    "Deal",
    "DealFacts",
    "DealResult",
    "DealScore",
    "Declare",
    "FactsError",
    "IllegalAction",
    "Match",
    "NotationError",
    "Observation",
    "Pass",
    "Phase",
    "Play",
    "Rank",
    "RecordError",
    "RulesError",
    "Ruleset",
    "Suit",
    "Surcoinche",
    "Take",
    "Trick",
    "__version__",
    "best_announcements",
    "cards_of",
    "format_hand",
    "parse_action",
    "parse_hand",
    "score_deal",
]
