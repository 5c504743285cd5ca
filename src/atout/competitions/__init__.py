"""The pure logic of a competition (« concours »): the draws of each round and the standings.

Standard library only: the web table's concours pages keep the entrants and results, and ask this package
who plays whom and who leads.
"""

from atout.competitions.draw import Round, Side, draw_melee, draw_random, draw_swiss
from atout.competitions.standings import Bye, Result, Standing, bye_takers, met_pairs, partner_pairs, standings

__all__ = [
    "Bye",
    "Result",
    "Round",
    "Side",
    "Standing",
    "bye_takers",
    "draw_melee",
    "draw_random",
    "draw_swiss",
    "met_pairs",
    "partner_pairs",
    "standings",
]
