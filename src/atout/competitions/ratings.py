"""Players' ratings for online play: the Glicko-2 system (Mark Glickman, « Example of the Glicko-2 system »).

A rating is on the public scale: 1500 is a new player, the deviation (RD) is the rating's uncertainty (350 for a
new player, smaller the more he plays) and the volatility is how erratic his results are. Games are gathered
into rating periods: every game of a period is rated from the ratings at the period's start, all at once.

Glickman's worked example: a player rated 1500 with a deviation of 200 beats a 1400 (RD 30) and loses to a 1550
(RD 100) and to a 1700 (RD 300). The paper, which rounds its steps to four decimals, prints 1464.06, 151.52 and
0.05999; carried in full precision, the same steps give 1464.0507, 151.5165 and 0.059996.

>>> games = [Game(Rating(1400, 30), 1), Game(Rating(1550, 100), 0), Game(Rating(1700, 300), 0)]
>>> new = rate(Rating(1500, 200, 0.06), games)
>>> print(f"{new.rating:.4f} {new.deviation:.4f} {new.volatility:.6f}")
1464.0507 151.5165 0.059996

A period without a game only makes the rating less certain:

>>> idle = rate(Rating(1500, 200, 0.06), [])
>>> print(f"{idle.rating:.1f} {idle.deviation:.2f} {idle.volatility}")
1500.0 200.27 0.06

Belote is played in pairs. :func:`rate_partnerships` rates each player against the opposing partnership, seen
as one opponent (:func:`team_rating`):

>>> ratings = {"ann": Rating(1600, 80), "bob": Rating(1500, 120), "cat": Rating(1550, 90), "dan": Rating(1450)}
>>> after = rate_partnerships(ratings, [(("ann", "bob"), ("cat", "dan"), 1.0)])
>>> [round(after[name].rating) for name in ("ann", "bob", "cat", "dan")]
[1611, 1530, 1529, 1317]
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

#: The factor between the public scale and Glicko-2's own (step 2 of the paper).
SCALE = 173.7178
#: A new player's deviation, and the most an idle player's deviation grows to.
MAX_DEVIATION = 350.0
#: The volatility's convergence tolerance (step 5).
EPSILON = 0.000001

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class Rating:
    """A player's Glicko-2 rating on the public scale: rating, deviation (RD) and volatility (σ)."""

    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06

    def __post_init__(self) -> None:
        if not math.isfinite(self.rating):
            raise ValueError(f"a rating must be a finite number, not {self.rating}")
        if not (math.isfinite(self.deviation) and self.deviation >= 0):
            raise ValueError(f"a rating's deviation must be a finite number ≥ 0, not {self.deviation}")
        if not (math.isfinite(self.volatility) and self.volatility > 0):
            raise ValueError(f"a rating's volatility must be a finite number > 0, not {self.volatility}")


@dataclass(frozen=True)
class Game:
    """One game of a rating period, from the rated player's side: the opponent's rating at the period's start,
    and the player's score (1 a win, 0.5 a draw, 0 a loss)."""

    opponent: Rating
    score: float

    def __post_init__(self) -> None:
        _check_score(self.score)


def rate(player: Rating, games: Sequence[Game], tau: float = 0.5) -> Rating:
    """The player's rating after one rating period of ``games`` (Glickman's steps 1 to 8).

    ``tau`` constrains the volatility's change (Glickman advises 0.3 to 1.2). A period without a game only grows
    the deviation (step 6), up to 350 (:data:`MAX_DEVIATION`); a deviation already above stays as it is. The
    deviation after games (step 7), always below the one grown by the new volatility, is held to the same bound.
    """
    _check_tau(tau)
    # Step 2: Glicko-2's scale.
    phi = player.deviation / SCALE
    bound = max(MAX_DEVIATION, player.deviation)
    # Step 3: the estimated variance from the games alone; step 4: the estimated improvement (Δ / v here).
    information = 0.0
    improvement = 0.0
    for game in games:
        g = _g(game.opponent.deviation / SCALE)
        expected = _expected(player.rating, game.opponent.rating, g)
        information += g * g * expected * (1 - expected)
        improvement += g * (game.score - expected)
    if information == 0.0:
        # No game, or only games whose outcome was certain to the last bit: nothing learned but the time passed.
        grown = math.hypot(phi, player.volatility) * SCALE
        return Rating(player.rating, min(grown, bound), player.volatility)
    variance = 1 / information
    delta = variance * improvement
    # Step 5: the new volatility; step 6: the deviation grown by it; step 7: the new deviation and rating.
    volatility = _volatility(phi, player.volatility, variance, delta, tau)
    phi_star = math.hypot(phi, volatility)
    phi_new = 1 / math.sqrt(1 / (phi_star * phi_star) + information)
    # Step 8, back on the public scale: μ' = μ + φ'² Σ g (s - E), so r' = r + 173.7178 φ'² Σ g (s - E).
    rating = player.rating + SCALE * phi_new * phi_new * improvement
    return Rating(rating, min(phi_new * SCALE, bound), volatility)


def rate_period(
    ratings: Mapping[K, Rating], results: Sequence[tuple[K, K, float]], tau: float = 0.5
) -> dict[K, Rating]:
    """Everyone's new rating after a rating period of games between the players of ``ratings``.

    Each result is ``(a, b, score of a)``; ``b`` scores the rest of 1. Every player is rated from the ratings at
    the period's start, whatever the order of the results; a player without a game gets only the deviation's
    growth. The players come out in the order of ``ratings``.

    >>> two = {"ann": Rating(1500, 200), "bob": Rating(1500, 200)}
    >>> after = rate_period(two, [("ann", "bob", 1.0)])
    >>> print(f"{after['ann'].rating:.2f} {after['bob'].rating:.2f}")
    1578.80 1421.20
    """
    games: dict[K, list[Game]] = {player: [] for player in ratings}
    for number, (a, b, score) in enumerate(results, 1):
        _check_players(ratings, (a, b), number)
        _check_score(score)
        games[a].append(Game(ratings[b], score))
        games[b].append(Game(ratings[a], 1 - score))
    return {player: rate(rating, games[player], tau) for player, rating in ratings.items()}


def team_rating(a: Rating, b: Rating) -> Rating:
    """A partnership seen as one opponent: its players' mean rating, deviation √((da² + db²) / 2) and mean
    volatility.

    This is the convention for rating a player against a partnership: Glicko-2 rates one player against
    another, and belote's four players are two partnerships.

    >>> team = team_rating(Rating(1600, 50, 0.05), Rating(1400, 150, 0.07))
    >>> print(f"{team.rating} {team.deviation:.2f} {team.volatility:.2f}")
    1500.0 111.80 0.06
    """
    deviation = math.sqrt((a.deviation * a.deviation + b.deviation * b.deviation) / 2)
    return Rating((a.rating + b.rating) / 2, deviation, (a.volatility + b.volatility) / 2)


def rate_partnerships(
    ratings: Mapping[K, Rating],
    results: Sequence[tuple[tuple[K, K], tuple[K, K], float]],
    tau: float = 0.5,
) -> dict[K, Rating]:
    """Everyone's new rating after a rating period of games between partnerships.

    Each result is ``((a1, a2), (b1, b2), score of a1 and a2)``; ``b1`` and ``b2`` score the rest of 1. Each
    player is rated, as in :func:`rate_period`, against the opposing partnership's :func:`team_rating` at the
    period's start: his partner's rating does not enter his own update, so two partners with the same rating
    move by the same amount, and a strong partner neither shields a weak one nor is dragged down by him. A
    player without a game gets only the deviation's growth.
    """
    games: dict[K, list[Game]] = {player: [] for player in ratings}
    for number, (ours, theirs, score) in enumerate(results, 1):
        _check_players(ratings, (*ours, *theirs), number)
        _check_score(score)
        for side, other, scored in ((ours, theirs, score), (theirs, ours, 1 - score)):
            opponent = team_rating(ratings[other[0]], ratings[other[1]])
            for player in side:
                games[player].append(Game(opponent, scored))
    return {player: rate(rating, games[player], tau) for player, rating in ratings.items()}


# The steps' formulas.


def _g(phi: float) -> float:
    """How much an opponent's result weighs, given his deviation φ (step 3)."""
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _expected(rating: float, opponent: float, g: float) -> float:
    """The expected score E(μ, μj, φj) against an opponent (step 3), computed without overflow."""
    x = g * (rating - opponent) / SCALE
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    z = math.exp(x)
    return z / (1 + z)


def _volatility(phi: float, sigma: float, variance: float, delta: float, tau: float) -> float:
    """The new volatility σ' (step 5): the root of f by the Illinois algorithm, to within ε."""
    start = math.log(sigma * sigma)
    base = phi * phi + variance

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - base - ex) / (2 * (base + ex) ** 2) - (x - start) / (tau * tau)

    # Glickman's A and B: the ends of a bracket around the root, f's signs opposite at them.
    x_a = start
    if delta * delta > base:
        x_b = math.log(delta * delta - base)
    else:
        k = 1
        while f(start - k * tau) < 0:
            k += 1
        x_b = start - k * tau
    f_a, f_b = f(x_a), f(x_b)
    while abs(x_b - x_a) > EPSILON:
        x_c = x_a + (x_a - x_b) * f_a / (f_b - f_a)
        f_c = f(x_c)
        if f_c * f_b <= 0:
            x_a, f_a = x_b, f_b
        else:
            f_a /= 2
        x_b, f_b = x_c, f_c
    return math.exp(x_a / 2)


# Checks.


def _check_score(score: float) -> None:
    if not 0 <= score <= 1:
        raise ValueError(f"a score must lie between 0 (a loss) and 1 (a win), not {score}")


def _check_tau(tau: float) -> None:
    if not (math.isfinite(tau) and tau > 0):
        raise ValueError(f"tau must be a finite number > 0, not {tau}")


def _check_players(ratings: Mapping[K, Rating], players: tuple[K, ...], number: int) -> None:
    unknown = [player for player in players if player not in ratings]
    if unknown:
        raise ValueError(f"result {number} names players without a rating: {', '.join(map(str, unknown))}")
    if len(set(players)) < len(players):
        raise ValueError(f"result {number} names a player twice: {', '.join(map(str, players))}")
