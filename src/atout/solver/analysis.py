"""The double-dummy analyser: what each card of a played deal cost.

For every card played, the solver gives the value of the card played (the card
points the player's side takes from there on under perfect play, with every hand
visible), the best value among the legal cards, and the difference: the cost of
the card. A card with a cost is a mistake (double-dummy: against perfect play).

>>> from atout import Deal, Ruleset
>>> hands = ["AKQJT987...", ".AKQJT987..", "..AKQJT987.", "...AKQJT987"]   # a suit each
>>> deal = Deal.from_hands(Ruleset.preset("coinche", announcements=False), hands, dealer=3)
>>> for call in ["80S", "P", "P", "P", "7S", "7H", "7D", "7C"]:
...     _ = deal.apply(call)
>>> first = analyse(deal)[0]            # North led 7♠ and will take every trick whatever he leads
>>> str(first.card), first.value, first.best, first.cost
('7♠', 252, 252, 0)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from atout.actions import Play
from atout.cards import Card
from atout.deal import Deal, Phase
from atout.errors import AtoutError
from atout.solver import Solver


@dataclass(frozen=True)
class CardAnalysis:
    """One card played: its double-dummy value, the best value, and what it cost."""

    trick: int
    seat: int
    card: Card
    value: int
    best: int
    best_cards: tuple[Card, ...]
    #: Legal cards the player had (a card with only one choice cannot be a mistake).
    choices: int

    @property
    def cost(self) -> int:
        return self.best - self.value

    @property
    def mistake(self) -> bool:
        return self.cost > 0


def analyse_actions(deal: Deal, solver: Solver | None = None) -> Iterator[CardAnalysis]:
    """Replay ``deal``'s actions and analyse each card played, in order."""
    if not deal.has_history:
        raise AtoutError("a deal set up from a position has no history to analyse")
    solver = solver or Solver(deal.rules)
    replay = Deal(deal.rules, deal.dealt, deal.dealer, deal.pattern)
    for seat, action in deal.actions:
        if isinstance(action, Play) and replay.phase is Phase.PLAY and not replay.must_declare:
            solution = solver.solve(replay)
            value = solution.values[action.card]
            best = solution.value
            best_cards = tuple(c for c, v in solution.values.items() if v == best)
            yield CardAnalysis(
                replay.trick_number + 1, seat, action.card, value, best, best_cards, len(solution.values)
            )
        replay.apply(action, seat)


def analyse(deal: Deal, solver: Solver | None = None) -> list[CardAnalysis]:
    """Every card of a played deal with its double-dummy value, the best value and its cost."""
    return list(analyse_actions(deal, solver))
