"""The standings of a concours: a pure function of the results.

A table's result is each side's final total. The side with more points wins; equal points are a draw, half a
win each. An exempt side (a bye) has played and won, scoring the mean points scored per side at that round's
tables (rounded half up) and conceding the mean conceded, which is the same figure. « À la mêlée », the entrants
are the players, and each player of a side gets that side's figures.

Two rounds of four teams, worked by hand. Round 1: team 1 beats team 2 by 1010 to 740, teams 3 and 4 draw at
1020. Round 2: team 3 beats team 1 by 1000 to 980, team 2 beats team 4 by 1100 to 600. Team 3 has 2020 points
and 1½ wins, team 1 1990 points (1740 conceded) and 1 win, team 2 1840 points and 1 win, team 4 1620 points
and ½ win.

>>> results = [
...     Result(1, ((1,), (2,)), (1010, 740)),
...     Result(1, ((3,), (4,)), (1020, 1020)),
...     Result(2, ((1,), (3,)), (980, 1000)),
...     Result(2, ((2,), (4,)), (1100, 600)),
... ]
>>> for s in standings([1, 2, 3, 4], results):
...     print(s.rank, s.entrant, s.points, s.against, s.difference, s.wins)
1 3 2020 2000 20 3/2
2 1 1990 1740 250 1
3 2 1840 1610 230 1
4 4 1620 2120 -500 1/2

Ranked by wins, teams 1 and 2 both have one win: team 1's 1990 points come first.

>>> [(s.rank, s.entrant) for s in standings([1, 2, 3, 4], results, ranking="wins")]
[(1, 3), (2, 1), (3, 2), (4, 4)]

A fifth team, exempt in round 2, scores the mean of that round's sides: (980 + 1000 + 1100 + 600) / 4 = 920.

>>> five = standings([1, 2, 3, 4, 5], results, [Bye(2, (5,))])
>>> [(s.entrant, s.played, s.points, s.against, s.wins, s.byes) for s in five if s.entrant == 5]
[(5, 1, 920, 920, Fraction(1, 1), 1)]
>>> sorted(tuple(sorted(pair)) for pair in met_pairs(results))
[(1, 2), (1, 3), (2, 4), (3, 4)]
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from atout.competitions.draw import Side


@dataclass(frozen=True)
class Result:
    """A table's final totals: ``points[i]`` is what ``sides[i]`` scored (the game's total marks)."""

    round_no: int
    sides: tuple[Side, Side]
    points: tuple[int, int]


@dataclass(frozen=True)
class Bye:
    """A side exempt from a round."""

    round_no: int
    side: Side


@dataclass(frozen=True)
class Standing:
    """One entrant's line: its rank (shared by equals), tables played (byes included), wins (a draw counts
    half), points scored and conceded, byes."""

    entrant: int
    rank: int
    played: int
    wins: Fraction
    points: int
    against: int
    byes: int

    @property
    def difference(self) -> int:
        """Points scored less points conceded."""
        return self.points - self.against


@dataclass
class _Tally:
    played: int = 0
    wins: Fraction = Fraction(0)
    points: int = 0
    against: int = 0
    byes: int = 0

    def add(self, scored: int, conceded: int, win: Fraction) -> None:
        self.played += 1
        self.wins += win
        self.points += scored
        self.against += conceded


def standings(
    entrants: Sequence[int],
    results: Sequence[Result],
    byes: Sequence[Bye] = (),
    ranking: Literal["points", "wins"] = "points",
) -> list[Standing]:
    """Every entrant's standing, best first.

    ``ranking="points"`` orders by points scored, then point difference, then wins; ``ranking="wins"`` by wins,
    then points scored, then difference. Entrants equal on all three share a rank (1, 2, 2, 4) and are listed by
    entrant id.
    """
    if ranking not in ("points", "wins"):
        raise ValueError(f"ranking must be 'points' or 'wins', not {ranking!r}")
    tallies = _tallies(entrants, results, byes)

    def key(tally: _Tally) -> tuple[int, int, int]:
        """The criteria in order, each counted in whole numbers (wins in halves), the larger the better."""
        half_wins, points, difference = int(tally.wins * 2), tally.points, tally.points - tally.against
        return (half_wins, points, difference) if ranking == "wins" else (points, difference, half_wins)

    keys = {entrant: key(tally) for entrant, tally in tallies.items()}
    order = sorted(tallies, key=lambda entrant: (tuple(-value for value in keys[entrant]), entrant))
    lines: list[Standing] = []
    for position, entrant in enumerate(order):
        tied = bool(lines) and keys[lines[-1].entrant] == keys[entrant]
        rank = lines[-1].rank if tied else position + 1
        tally = tallies[entrant]
        lines.append(Standing(entrant, rank, tally.played, tally.wins, tally.points, tally.against, tally.byes))
    return lines


def met_pairs(results: Sequence[Result]) -> set[frozenset[int]]:
    """The pairs of entrants that faced each other: every entrant of one side with every one of the other."""
    return {frozenset((a, b)) for result in results for a in result.sides[0] for b in result.sides[1]}


def partner_pairs(results: Sequence[Result]) -> set[frozenset[int]]:
    """The pairs of players that played on the same side (sides of two players only)."""
    return {frozenset(side) for result in results for side in result.sides if len(side) == 2}


def bye_takers(byes: Sequence[Bye]) -> set[int]:
    """The entrants that have been exempt."""
    return {entrant for bye in byes for entrant in bye.side}


def _tallies(entrants: Sequence[int], results: Sequence[Result], byes: Sequence[Bye]) -> dict[int, _Tally]:
    repeated = sorted(entrant for entrant, times in Counter(entrants).items() if times > 1)
    if repeated:
        raise ValueError(f"duplicate entrants in the standings: {', '.join(map(str, repeated))}")
    tallies = {entrant: _Tally() for entrant in entrants}
    for result in results:
        for mine, theirs in ((0, 1), (1, 0)):
            scored, conceded = result.points[mine], result.points[theirs]
            win = Fraction(1) if scored > conceded else Fraction(1, 2) if scored == conceded else Fraction(0)
            for entrant in _members(result.sides[mine], tallies, result.round_no):
                tallies[entrant].add(scored, conceded, win)
    for bye in byes:
        mean = _mean_points(results, bye.round_no)
        for entrant in _members(bye.side, tallies, bye.round_no):
            tallies[entrant].add(mean, mean, Fraction(1))
            tallies[entrant].byes += 1
    return tallies


def _members(side: Side, tallies: dict[int, _Tally], round_no: int) -> Side:
    unknown = [entrant for entrant in side if entrant not in tallies]
    if unknown:
        raise ValueError(f"round {round_no} names entrants not in the field: {', '.join(map(str, unknown))}")
    return side


def _mean_points(results: Sequence[Result], round_no: int) -> int:
    """The mean points per side at the round's tables, rounded half up (conceded: the same mean); 0 if none."""
    totals = [points for result in results if result.round_no == round_no for points in result.points]
    if not totals:
        return 0
    return math.floor(Fraction(sum(totals), len(totals)) + Fraction(1, 2))
