"""Card order and card points for each play mode, as flat tables indexed by card.

A *strain* is what a contract is played in: a trump suit (0..3 = ♠ ♥ ♦ ♣),
sans atout (4) or tout atout (5). For each strain a :class:`PlayMode` gives the
points of every card, a strength used to compare two cards of one suit, and
for every card the mask of the cards of its suit that beat it.

The values come from FFB coinche §6 (trump and plain), §11.2 (sans atout) and
§11.3 (tout atout); FunBelote's tout-atout values are the ``"funbelote"`` table.

>>> mode = play_mode(1)            # hearts are trump
>>> mode.points[12], mode.points[4]  # J♥ (trump) and J♠ (plain)
(20, 2)
>>> sum(play_mode(4).points), sum(play_mode(5).points), sum(play_mode(5, "funbelote").points)
(152, 152, 152)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

SANS_ATOUT = 4
TOUT_ATOUT = 5
#: What the last trick adds to its winner's card points: the « dix de der » (FFB §9.1).
DIX_DE_DER = 10

#: Ranks (sequence indices 7=0 ... A=7) from strongest to weakest.
PLAIN_ORDER = (7, 3, 6, 5, 4, 2, 1, 0)  # A 10 K Q J 9 8 7
TRUMP_ORDER = (4, 2, 7, 3, 6, 5, 1, 0)  # J 9 A 10 K Q 8 7

#: Points by rank index (7 8 9 10 J Q K A).
PLAIN_POINTS = (0, 0, 0, 10, 2, 3, 4, 11)
TRUMP_POINTS = (0, 0, 14, 10, 20, 3, 4, 11)
SANS_ATOUT_POINTS = (0, 0, 0, 10, 2, 3, 4, 19)
TOUT_ATOUT_POINTS = {
    "ffb": (0, 0, 9, 5, 13, 2, 3, 6),
    "funbelote": (0, 0, 9, 5, 14, 1, 3, 6),
}


def _strengths(order: tuple[int, ...]) -> tuple[int, ...]:
    strength = [0] * 8
    for position, rank in enumerate(order):
        strength[rank] = 7 - position
    return tuple(strength)


PLAIN_STRENGTH = _strengths(PLAIN_ORDER)
TRUMP_STRENGTH = _strengths(TRUMP_ORDER)


@dataclass(frozen=True)
class PlayMode:
    """Everything card play needs to know about one strain."""

    strain: int
    #: Mask of the trump cards: one suit, none (sans atout) or all (tout atout).
    trump_mask: int
    #: Points of each card (index 0..31).
    points: tuple[int, ...]
    #: Strength of each card within its suit; trumps of a trump suit get 8 more.
    strength: tuple[int, ...]
    #: For each card, the mask of the cards of its suit that beat it.
    above: tuple[int, ...]

    def beats(self, card: int, winner: int) -> bool:
        """Does ``card`` beat the card currently holding the trick?"""
        if card >> 3 == winner >> 3:
            return self.strength[card] > self.strength[winner]
        return bool(self.trump_mask >> card & 1) and not self.trump_mask >> winner & 1


@cache
def play_mode(strain: int, ta_values: str = "ffb") -> PlayMode:
    """The tables for a strain (0..3 trump suit, 4 sans atout, 5 tout atout)."""
    if strain not in range(6):
        raise ValueError(f"strain must be 0..5, not {strain!r}")
    points = [0] * 32
    strength = [0] * 32
    for card in range(32):
        suit, rank = card >> 3, card & 7
        if strain == SANS_ATOUT:
            points[card], strength[card] = SANS_ATOUT_POINTS[rank], PLAIN_STRENGTH[rank]
        elif strain == TOUT_ATOUT:
            points[card], strength[card] = TOUT_ATOUT_POINTS[ta_values][rank], TRUMP_STRENGTH[rank]
        elif suit == strain:
            points[card], strength[card] = TRUMP_POINTS[rank], 8 + TRUMP_STRENGTH[rank]
        else:
            points[card], strength[card] = PLAIN_POINTS[rank], PLAIN_STRENGTH[rank]
    above = []
    for card in range(32):
        base = card & ~7
        above.append(sum(1 << (base + r) for r in range(8) if strength[base + r] > strength[card]))
    if strain == SANS_ATOUT:
        trump_mask = 0
    elif strain == TOUT_ATOUT:
        trump_mask = 0xFFFFFFFF
    else:
        trump_mask = 0xFF << (8 * strain)
    return PlayMode(strain, trump_mask, tuple(points), tuple(strength), tuple(above))


def display_order(strain: int | None) -> list[int]:
    """Card indices grouped by suit, trump suit first, each suit strongest first."""
    suits = list(range(4))
    if strain is not None and strain < 4:
        suits.remove(strain)
        suits.insert(0, strain)
    out: list[int] = []
    for suit in suits:
        trump_order = strain in (TOUT_ATOUT, suit)
        out.extend(suit * 8 + r for r in (TRUMP_ORDER if trump_order else PLAIN_ORDER))
    return out
