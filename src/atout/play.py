"""Card play: which cards are legal, and why another card is not (FFB coinche §5.2, §11).

:func:`legal_mask` is the one place the play obligations live; the deal, the
observations and the compiled kernels' differential tests all use it.

Normal contracts (a trump suit), FFB §5.2:

* follow the suit led if you can; when trump is led, also go above the highest
  trump on the table if you can (also above a partner's, unless the option
  ``overtrump_partner`` is off);
* void in the suit led with your partner holding the trick: play anything; but if
  he holds it with a trump and you choose to trump while holding other cards, go
  above his trump (FFB: underruffing him is only allowed holding nothing but trumps),
  unless ``undertrump_partner`` lets you trump below him;
* void otherwise: trump, above any trump on the table; holding only lower trumps
  than an opponent's, you may discard (« ne pas pisser ») unless ``must_undertrump``.

Sans atout (§11.2): follow suit, else anything. Tout atout (§11.3): follow suit and
beat the card holding the trick if you can, else anything.

>>> from atout.cards import parse_hand, Card, cards_of
>>> from atout.tables import play_mode
>>> hearts = play_mode(1)
>>> hand = parse_hand("A7.9.K.8")                   # A♠ 7♠ 9♥ K♦ 8♣
>>> led = Card.parse("KS")                           # an opponent led K♠ and holds the trick
>>> mask, rule = legal_mask(hand, led, led, False, hearts, True, False, False)
>>> [str(c) for c in cards_of(mask)], rule
(['7♠', 'A♠'], 'follow')
"""

from __future__ import annotations

from collections.abc import Sequence

from atout.cards import SUIT_MASKS, Card
from atout.errors import IllegalAction
from atout.i18n import Message
from atout.tables import SANS_ATOUT, TOUT_ATOUT, PlayMode

#: Constraint codes returned with a legal mask; they name the rule in force.
ANY, FOLLOW, FOLLOW_OVER, TRUMP, OVERTRUMP, UNDERTRUMP, PARTNER_RUFF = (
    "any",
    "follow",
    "follow_over",
    "trump",
    "overtrump",
    "undertrump",
    "partner_ruff",
)


def legal_mask(
    hand: int,
    led: int,
    winner: int,
    partner_winning: bool,
    mode: PlayMode,
    overtrump_partner: bool,
    must_undertrump: bool,
    undertrump_partner: bool,
) -> tuple[int, str]:
    """The legal cards of ``hand`` and the rule that constrains them.

    ``led`` is the first card of the trick (-1 when leading), ``winner`` the card
    currently holding it and ``partner_winning`` whether the player's partner holds it;
    the three flags are the ruleset's options of those names.
    """
    if led < 0:
        return hand, ANY
    strain = mode.strain
    follow = hand & SUIT_MASKS[led >> 3]
    if strain == TOUT_ATOUT:
        if not follow:
            return hand, ANY
        if partner_winning and not overtrump_partner:
            return follow, FOLLOW
        higher = follow & mode.above[winner]
        return (higher, FOLLOW_OVER) if higher else (follow, FOLLOW)
    if strain == SANS_ATOUT:
        return (follow, FOLLOW) if follow else (hand, ANY)
    if follow:
        if led >> 3 != strain or (partner_winning and not overtrump_partner):
            return follow, FOLLOW
        higher = follow & mode.above[winner]
        return (higher, FOLLOW_OVER) if higher else (follow, FOLLOW)
    trump_mask = mode.trump_mask
    trumps = hand & trump_mask
    if not trumps:
        return hand, ANY
    winner_is_trump = trump_mask >> winner & 1
    if partner_winning:
        if not overtrump_partner or undertrump_partner or not winner_is_trump or hand == trumps:
            return hand, ANY
        higher = trumps & mode.above[winner]
        return (hand & ~trump_mask) | (higher or trumps), PARTNER_RUFF
    if winner_is_trump:
        higher = trumps & mode.above[winner]
        if higher:
            return higher, OVERTRUMP
        return (trumps, UNDERTRUMP) if must_undertrump else (hand, ANY)
    return trumps, TRUMP


def illegal_card(card: int, hand: int, rule: str, led: int) -> IllegalAction:
    """The error for playing ``card`` against ``rule`` (the code :func:`legal_mask` gave)."""
    if not hand >> card & 1:
        return IllegalAction(Message("illegal.not_in_hand", card=Card(card)), code="not_in_hand")
    if rule == FOLLOW:
        suit = Message(f"common.suit_name.{Card(led).suit.letter}")
        return IllegalAction(Message("illegal.follow", suit=suit), code=rule)
    known = (FOLLOW_OVER, TRUMP, OVERTRUMP, UNDERTRUMP, PARTNER_RUFF)
    return IllegalAction(Message(f"illegal.{rule}" if rule in known else "illegal.card"), code=rule)


def trick_winner_index(cards: Sequence[int], mode: PlayMode) -> int:
    """Index in ``cards`` (in play order) of the card that wins the trick."""
    best = 0
    for i in range(1, len(cards)):
        if mode.beats(cards[i], cards[best]):
            best = i
    return best


def trick_points(cards: Sequence[int], mode: PlayMode) -> int:
    points = mode.points
    return sum(points[c] for c in cards)


__all__ = ["illegal_card", "legal_mask", "trick_points", "trick_winner_index"]
