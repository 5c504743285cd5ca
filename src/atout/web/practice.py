"""Practice tables: the club bot's hint for a seat, with its reason, and the cost of each card a player played.

A hint is what the terminal's ``?`` gives (:meth:`atout.session.Session.hint`: a bot's
``act`` on the seat's own observation), asked of the club bot through the table's bot
pool, with the reason a club player would give (:func:`atout.bots.reasons.reason`, from the
same observation), never from the deal.
"""

from __future__ import annotations

from atout.actions import Action, Declare, Play
from atout.web import serialize

#: The bot whose choice a hint gives.
HINT_BOT = "club"


def label(action: Action, lang: str) -> str:
    """An action in words: a card's name (« valet de cœur »), an announcement, a call (« 80 ♥ », « Passe »)."""
    if isinstance(action, Play):
        return action.card.name_in(lang)
    if isinstance(action, Declare):
        return action.label(lang)
    return serialize.call_label(action, lang)
