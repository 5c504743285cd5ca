"""The pure logic of a competition (« concours »): the draws of each round and the standings; online, the
players' Glicko-2 ratings and the match points of a duplicate challenge.

Standard library only: the web table's concours pages keep the entrants and results, and ask this package
who plays whom and who leads.
"""

from atout.competitions.draw import Round, Side, draw_melee, draw_random, draw_swiss
from atout.competitions.duplicate import ChallengeStanding, challenge_standings, match_points, percentages
from atout.competitions.ratings import Game, Rating, rate, rate_partnerships, rate_period, team_rating
from atout.competitions.standings import Bye, Result, Standing, bye_takers, met_pairs, partner_pairs, standings

__all__ = [
    "Bye",
    "ChallengeStanding",
    "Game",
    "Rating",
    "Result",
    "Round",
    "Side",
    "Standing",
    "bye_takers",
    "challenge_standings",
    "draw_melee",
    "draw_random",
    "draw_swiss",
    "match_points",
    "met_pairs",
    "partner_pairs",
    "percentages",
    "rate",
    "rate_partnerships",
    "rate_period",
    "standings",
    "team_rating",
]
