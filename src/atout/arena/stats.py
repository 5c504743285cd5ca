"""Statistics for the arena: means with confidence intervals, match wins, Elo ratings."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from atout.arena.duplicate import Board
from atout.match import Match
from atout.rules import Ruleset

#: Two-sided 95 % quantiles of Student's t for small samples (normal beyond).
_T95 = {
    1: 12.706,
    2: 4.303,
    3: 3.182,
    4: 2.776,
    5: 2.571,
    6: 2.447,
    7: 2.365,
    8: 2.306,
    9: 2.262,
    10: 2.228,
    15: 2.131,
    20: 2.086,
    30: 2.042,
    60: 2.000,
    120: 1.980,
}


def t95(df: int) -> float:
    """The 97.5 % quantile of Student's t with ``df`` degrees of freedom (interpolated from a table)."""
    if df <= 0:
        return math.inf
    keys = sorted(_T95)
    for key in keys:
        if df <= key:
            return _T95[key]
    return 1.960


@dataclass(frozen=True)
class Estimate:
    """A mean with its 95 % confidence interval."""

    mean: float
    low: float
    high: float
    n: int

    @property
    def significant(self) -> bool:
        """Is zero outside the interval?"""
        return self.low > 0 or self.high < 0

    def __str__(self) -> str:
        return f"{self.mean:+.1f} [{self.low:+.1f}, {self.high:+.1f}] (n={self.n})"


def mean_ci(values: Sequence[float]) -> Estimate:
    """Mean and 95 % confidence interval (Student's t)."""
    n = len(values)
    if n == 0:
        return Estimate(0.0, 0.0, 0.0, 0)
    mean = sum(values) / n
    if n == 1:
        return Estimate(mean, -math.inf, math.inf, 1)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = t95(n - 1) * math.sqrt(var / n)
    return Estimate(mean, mean - half, mean + half, n)


def proportion_ci(wins: float, n: int) -> Estimate:
    """A win rate with its 95 % Wilson interval."""
    if n == 0:
        return Estimate(0.0, 0.0, 1.0, 0)
    p = wins / n
    z = 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return Estimate(p, centre - half, centre + half, n)


def match_wins(rules: Ruleset, boards: Sequence[Board]) -> tuple[float, int]:
    """Bot A's wins and the number of finished matches when the boards, in order, are played as
    matches to the ruleset's target in each orientation (the score keeper's path)."""
    wins = 0.0
    played = 0
    orientations = len(boards[0].plays) if boards else 0
    for o in range(orientations):
        match = Match(rules, first_dealer=boards[0].dealer)
        for board in boards:
            play = board.plays[o]
            match.add_facts(play.facts)
            if match.finished:
                a_sides = {rules.side_of(s) for s in play.a_seats}
                wins += 1.0 if match.winner in a_sides else 0.0
                played += 1
                match = Match(rules, first_dealer=match.dealer)
    return wins, played


def elo(results: dict[tuple[str, str], tuple[float, int]], anchor: str | None = None) -> dict[str, float]:
    """Elo ratings from pairwise (wins of the first, games) results, by Bradley-Terry's maximum
    likelihood (minorise-maximise iterations); the mean rating is 1500 (or ``anchor`` is 1500)."""
    players = sorted({p for pair in results for p in pair})
    strength = dict.fromkeys(players, 1.0)
    wins = dict.fromkeys(players, 0.0)
    for (a, b), (w, n) in results.items():
        wins[a] += w
        wins[b] += n - w
    for _ in range(500):
        new = {}
        for p in players:
            denom = 0.0
            for (a, b), (_, n) in results.items():
                if p in (a, b):
                    other = b if p == a else a
                    denom += n / (strength[p] + strength[other])
            new[p] = max(wins[p], 0.5) / denom if denom else strength[p]
        norm = math.exp(sum(math.log(v) for v in new.values()) / len(new))
        strength = {p: v / norm for p, v in new.items()}
    ratings = {p: 400 * math.log10(v) for p, v in strength.items()}
    shift = 1500 - (ratings[anchor] if anchor else sum(ratings.values()) / len(ratings))
    return {p: round(r + shift, 1) for p, r in ratings.items()}
