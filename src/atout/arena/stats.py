"""Statistics for the arena: means with confidence intervals, match win rates, Elo ratings.

Student's t quantiles come from SciPy. A match win rate's interval is a bootstrap over the
boards, because the two seatings of a board belong to two different matches: their results
are not independent, and neither are the boards of one match.

>>> round(t_quantile(0.975, 10), 4)  # the 95 % two-sided value of the tables
2.2281
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from atout.arena.duplicate import Board
from atout.errors import AtoutError
from atout.i18n import Message
from atout.match import Match
from atout.rules import Ruleset

#: Resamples of the boards behind a match win rate's interval, and the seed that draws them.
RESAMPLES = 10_000
BOOTSTRAP_SEED = 0
#: Fewer blocks of boards than this give no interval for a win rate (it is [0, 1]).
MIN_BLOCKS = 5
#: Elo fitting stops when no strength moves by more than this factor's logarithm.
ELO_TOLERANCE = 1e-12
ELO_MAX_ITERATIONS = 100_000


def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (infinite without any)."""
    if df <= 0:
        return math.inf
    from scipy.stats import t as student  # here only: SciPy is the arena's extra (atout[arena])

    return float(student.ppf(p, df))


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
    """Mean and 95 % confidence interval (Student's t).

    >>> print(mean_ci([1.0, 2.0, 3.0, 4.0]))
    +2.5 [+0.4, +4.6] (n=4)
    """
    n = len(values)
    if n == 0:
        return Estimate(0.0, 0.0, 0.0, 0)
    mean = sum(values) / n
    if n == 1:
        return Estimate(mean, -math.inf, math.inf, 1)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = t_quantile(0.975, n - 1) * math.sqrt(var / n)
    return Estimate(mean, mean - half, mean + half, n)


@dataclass(frozen=True)
class MatchPlayed:
    """A match of one seating: the boards it took (``first`` to ``last``, by position in the
    run) and bot A's result (1 won, 0 lost)."""

    seating: int
    first: int
    last: int
    won: float


def matches_played(rules: Ruleset, boards: Sequence[Board]) -> list[MatchPlayed]:
    """The matches bot A finished when the boards, in order, are played as matches to the
    ruleset's target in each seating (the score keeper's path); an unfinished last one is left out."""
    played = []
    seatings = len(boards[0].plays) if boards else 0
    for seating in range(seatings):
        match = Match(rules, first_dealer=boards[0].dealer)
        first = 0
        for position, board in enumerate(boards):
            play = board.plays[seating]
            match.add_facts(play.facts)
            if match.finished:
                a_sides = {rules.side_of(s) for s in play.a_seats}
                played.append(MatchPlayed(seating, first, position, 1.0 if match.winner in a_sides else 0.0))
                match = Match(rules, first_dealer=match.dealer)
                first = position + 1
    return played


def win_rate_ci(matches: Sequence[MatchPlayed], boards: int) -> Estimate:
    """Bot A's share of the matches won, with a 95 % interval from a bootstrap over the boards.

    Each match is counted at the board that finished it, in whatever seating. The boards are
    resampled in blocks as long as the longest match (a circular block bootstrap, :data:`RESAMPLES`
    times from :data:`BOOTSTRAP_SEED`): the matches of one seating, made of different boards, are
    drawn independently, while those of the other seatings that shared their boards mostly come
    along in the same block. The interval holds the middle 95 % of the resampled win rates. With
    fewer than :data:`MIN_BLOCKS` blocks there is no interval: it is [0, 1].

    >>> played = [MatchPlayed(0, 2 * i, 2 * i + 1, float(i % 2)) for i in range(10)]
    >>> played += [MatchPlayed(1, 2 * i, 2 * i + 1, float(i % 2 == 0)) for i in range(10)]
    >>> win_rate_ci(played, 20)  # every board won in one seating, lost in the other
    Estimate(mean=0.5, low=0.5, high=0.5, n=20)
    """
    if not matches:
        return Estimate(0.0, 0.0, 1.0, 0)
    won = np.zeros(boards)
    count = np.zeros(boards)
    for match in matches:
        won[match.last] += match.won
        count[match.last] += 1
    rate = float(won.sum() / count.sum())
    block = max(match.last - match.first + 1 for match in matches)
    blocks = -(-boards // block)
    if blocks < MIN_BLOCKS:
        return Estimate(rate, 0.0, 1.0, len(matches))
    # Circular blocks: the sum over the block starting at s is prefix[s + length] - prefix[s].
    starts = np.random.default_rng(BOOTSTRAP_SEED).integers(0, boards, size=(RESAMPLES, blocks))
    lengths = np.full(blocks, block)
    lengths[-1] = boards - block * (blocks - 1)
    sums = []
    for values in (won, count):
        prefix = np.concatenate(([0.0], np.cumsum(np.concatenate((values, values)))))
        sums.append((prefix[starts + lengths] - prefix[starts]).sum(axis=1))
    rates = sums[0] / np.maximum(sums[1], 1e-300)
    low, high = np.percentile(rates, [2.5, 97.5])
    return Estimate(rate, float(low), float(high), len(matches))


def elo(results: dict[tuple[str, str], tuple[float, int]]) -> dict[str, float]:
    """Elo ratings from pairwise (wins of the first, games) results, by Bradley-Terry's maximum
    likelihood (minorise-maximise iterations, to convergence); the mean rating is 1500.

    Each pair counts one drawn game more than it played: a weak prior that keeps every rating
    finite when a bot won or lost all its games.

    >>> elo({("a", "b"): (74.5, 100)})  # 75 to 26 with the drawn game: 400 log10(75 / 26) apart
    {'a': 1592.0, 'b': 1408.0}
    """
    players = sorted({p for pair in results for p in pair})
    games = {pair: n + 1 for pair, (_, n) in results.items()}
    wins = dict.fromkeys(players, 0.0)
    for (a, b), (w, n) in results.items():
        wins[a] += w + 0.5
        wins[b] += n - w + 0.5
    strength = dict.fromkeys(players, 1.0)
    for _ in range(ELO_MAX_ITERATIONS):
        new = {}
        for p in players:
            denom = sum(n / (strength[a] + strength[b]) for (a, b), n in games.items() if p in (a, b))
            new[p] = wins[p] / denom
        norm = math.exp(sum(math.log(v) for v in new.values()) / len(new))
        new = {p: v / norm for p, v in new.items()}
        moved = max(abs(math.log(new[p] / strength[p])) for p in players)
        strength = new
        if moved < ELO_TOLERANCE:
            break
    else:
        raise AtoutError(Message("arena.elo", n=ELO_MAX_ITERATIONS))
    ratings = {p: 400 * math.log10(v) for p, v in strength.items()}
    shift = 1500 - sum(ratings.values()) / len(ratings)
    return {p: round(r + shift, 1) for p, r in ratings.items()}
