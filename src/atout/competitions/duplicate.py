"""The match points of a duplicate challenge (« défi en duplicate »).

Every participant plays the same deals, in the same seat, with bots at the other seats; his result on a deal is
his side's score on it. On each deal he is compared with every other participant who played it, by bridge's
matchpoint convention: 2 match points for each one he beat, 1 for each tie, 0 for each one who beat him. With
n participants on a deal, the top is 2·(n − 1) and the deal's match points sum to n·(n − 1).

Three participants, two deals, worked by hand. Deal 1: A scores 120, B and C 80 each: A beats both (4), B and
C tie with each other (1 each). Deal 2: A 0, B 160, C 90: B beats both (4), C beats A (2), A none (0). The top
of each deal is 4, so 8 in all: B has 5 match points (62.5 %), A 4 (50 %), C 3 (37.5 %).

>>> match_points({"A": 120, "B": 80, "C": 80})
{'A': 4.0, 'B': 1.0, 'C': 1.0}
>>> percentages({"A": 0, "B": 160, "C": 90})
{'A': 0.0, 'B': 100.0, 'C': 50.0}
>>> results = {1: {"A": 120, "B": 80, "C": 80}, 2: {"A": 0, "B": 160, "C": 90}}
>>> for s in challenge_standings(results):
...     print(s.rank, s.participant, s.deals, s.match_points, s.percentage, s.points)
1 B 2 5.0 62.5 240
2 A 2 4.0 50.0 120
3 C 2 3.0 37.5 170
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Generic, TypeVar

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class ChallengeStanding(Generic[K]):
    """One participant's line: his rank (shared by equals), the deals he played, his match points over them,
    their percentage of the top he could have had on those deals, and his total points on them."""

    participant: K
    rank: int
    deals: int
    match_points: float
    percentage: float
    points: int


def match_points(scores: Mapping[K, int]) -> dict[K, float]:
    """Each participant's match points on one deal: 2 for each other participant he beat, 1 for each tie, 0 for
    each loss (bridge's matchpoint convention), so the top is 2·(n − 1)."""
    return {participant: float(points) for participant, points in _match_points(scores).items()}


def percentages(scores: Mapping[K, int]) -> dict[K, float]:
    """Each participant's match points on one deal as a percentage of the top, 2·(n − 1); a lone participant,
    compared with nobody, gets 50.0.

    >>> percentages({"A": 100})
    {'A': 50.0}
    """
    top = 2 * (len(scores) - 1)
    if top == 0:
        return {participant: 50.0 for participant in scores}
    return {participant: _percent(Fraction(points, top)) for participant, points in _match_points(scores).items()}


def challenge_standings(results: Mapping[int, Mapping[K, int]]) -> list[ChallengeStanding[K]]:
    """Every participant's standing in a challenge, best first, from ``results`` by deal number, then by
    participant, of his score on that deal.

    A participant's match points are summed over the deals he played, each deal compared only among those who
    played it. His percentage is those match points over the top he could have had on the same deals, so that a
    participant who has not played every deal yet compares with the others (one who played only deals alone,
    compared with nobody, has 50.0). The ranking is by percentage, then total points; participants equal on both
    share a rank (1, 2, 2, 4) and are listed by participant (by ``str()`` where participants do not compare).

    D played deal 1 only, among four (top 6): he beat B and C, lost to A, so 4 match points, 66.67 %. On deal 1
    A has 6, B and C 1 each; on deal 2 (three players, top 4) as above.

    >>> late = {1: {"A": 120, "B": 80, "C": 80, "D": 100}, 2: {"A": 0, "B": 160, "C": 90}}
    >>> [(s.rank, s.participant, s.match_points, round(s.percentage, 2)) for s in challenge_standings(late)]
    [(1, 'D', 4.0, 66.67), (2, 'A', 6.0, 60.0), (3, 'B', 5.0, 50.0), (4, 'C', 3.0, 30.0)]
    """
    earned: Counter[K] = Counter()
    tops: Counter[K] = Counter()
    deals: Counter[K] = Counter()
    points: Counter[K] = Counter()
    for scores in results.values():
        top = 2 * (len(scores) - 1)
        for participant, won in _match_points(scores).items():
            earned[participant] += won
            tops[participant] += top
            deals[participant] += 1
            points[participant] += scores[participant]
    shares = {
        participant: Fraction(earned[participant], tops[participant]) if tops[participant] else Fraction(1, 2)
        for participant in deals
    }
    keys = {participant: (shares[participant], points[participant]) for participant in deals}
    order = sorted(_sorted(deals), key=lambda participant: keys[participant], reverse=True)
    lines: list[ChallengeStanding[K]] = []
    for position, participant in enumerate(order):
        tied = bool(lines) and keys[lines[-1].participant] == keys[participant]
        rank = lines[-1].rank if tied else position + 1
        lines.append(
            ChallengeStanding(
                participant,
                rank,
                deals[participant],
                float(earned[participant]),
                _percent(shares[participant]),
                points[participant],
            )
        )
    return lines


def _match_points(scores: Mapping[K, int]) -> dict[K, int]:
    """The match points of one deal, in whole numbers: 2 per participant beaten, 1 per other participant tied."""
    below = 0
    beaten: dict[int, int] = {}
    tally = Counter(scores.values())
    for score in sorted(tally):
        beaten[score] = 2 * below + (tally[score] - 1)
        below += tally[score]
    return {participant: beaten[score] for participant, score in scores.items()}


def _percent(share: Fraction) -> float:
    return float(share * 100)


def _sorted(participants: Iterable[K]) -> list[K]:
    """The participants in their own order, or by ``str()`` where they do not compare."""
    items: list[Any] = list(participants)
    try:
        return sorted(items)
    except TypeError:
        return sorted(items, key=str)
