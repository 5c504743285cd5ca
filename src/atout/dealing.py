"""Shuffling, cutting and dealing the cards, for every form of the game.

A deck is a list of card indices, top card first. Dealing follows FFB coinche §3:
the player after the dealer is served first, in packets (3-2-3, 3-3-2 or 2-3-3);
the cut leaves at least ``cut_min`` cards in each packet (§3.3). With a retourne
(classique, two and three players) the first stage gives 5 (or 6) cards each,
turns the next card face up, and the rest is dealt once someone takes: the taker
gets the retourne and 2 cards, everyone else 3.

>>> import random
>>> from atout.rules import Ruleset
>>> rules = Ruleset.preset("coinche")
>>> deck = shuffled_deck(random.Random(1), rules)
>>> dealt = deal_cards(rules, cut(deck, random.Random(2), rules.cut_min), dealer=3, pattern=(3, 2, 3))
>>> [h.bit_count() for h in dealt.hands], dealt.retourne
([8, 8, 8, 8], None)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

from atout.cards import deck_mask, iter_cards
from atout.errors import NotationError
from atout.i18n import Message
from atout.rules import Ruleset


class DealtCards(NamedTuple):
    """What the deal put where: hands (masks, by seat), the retourne and the undealt stock."""

    hands: tuple[int, ...]
    retourne: int | None
    stock: tuple[int, ...]


_DECKS = (tuple(iter_cards(deck_mask(False))), tuple(iter_cards(deck_mask(True))))


def full_deck(rules: Ruleset) -> list[int]:
    """The deck in index order (♠7 ... ♣A), without 7s and 8s for a short deck."""
    return list(_DECKS[rules.short_deck])


def shuffled_deck(rng: random.Random, rules: Ruleset) -> list[int]:
    deck = full_deck(rules)
    rng.shuffle(deck)
    return deck


def cut(deck: Sequence[int], rng: random.Random, cut_min: int = 3) -> list[int]:
    """Cut the deck in two at a random place, each packet holding at least ``cut_min`` cards."""
    at = rng.randint(cut_min, len(deck) - cut_min)
    return list(deck[at:]) + list(deck[:at])


def deal_cards(
    rules: Ruleset, deck: Sequence[int], dealer: int, pattern: Sequence[int], *, check: bool = True
) -> DealtCards:
    """Deal ``deck`` (top first): packets in ``pattern`` to each seat from the dealer's next."""
    expected = len(_DECKS[rules.short_deck])
    if check and (len(deck) != expected or sum(1 << c for c in set(deck)) != deck_mask(rules.short_deck)):
        raise NotationError(Message("notation.deck", count=expected))
    players = rules.players
    hands = [0] * players
    top = 0
    for size in pattern:
        for i in range(1, players + 1):
            seat = (dealer + i) % players
            for card in deck[top : top + size]:
                hands[seat] |= 1 << card
            top += size
    if rules.auction == "retourne":
        return DealtCards(tuple(hands), deck[top], tuple(deck[top + 1 :]))
    return DealtCards(tuple(hands), None, tuple(deck[top:]))


def complete_retourne(
    rules: Ruleset, hands: Sequence[int], retourne: int, stock: Sequence[int], dealer: int, taker: int
) -> tuple[list[int], tuple[int, ...]]:
    """Second stage of a retourne deal: the taker gets the retourne and 2 cards, the others 3.

    Returns the full hands and what is left of the stock (unplayed in the two-player form).
    """
    full = list(hands)
    full[taker] |= 1 << retourne
    top = 0
    for i in range(1, rules.players + 1):
        seat = (dealer + i) % rules.players
        size = 2 if seat == taker else 3
        for card in stock[top : top + size]:
            full[seat] |= 1 << card
        top += size
    return full, tuple(stock[top:])


def gather(piles: Sequence[Sequence[int]], rest: Sequence[int] = ()) -> list[int]:
    """The deck rebuilt without shuffling (traditional deal, the online game's coinche).

    ``piles`` are each side's won cards in the order they were played; the last pile
    ends on top. Unplayed cards (``rest``) go to the bottom.
    """
    deck: list[int] = []
    for pile in reversed(piles):
        deck.extend(reversed(pile))
    deck.extend(rest)
    return deck
