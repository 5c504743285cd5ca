"""Seat names and one-line deals (PBN-like).

Seats are numbered in playing order; their letters depend on the direction of
play so that a table drawn with North at the top is right. Counter-clockwise
(FFB): N W S E; clockwise: N E S W. Three players: N W S / N E S; two: N S.
With four players N/S (seats 0, 2) play against E/W (seats 1, 3).

A deal on one line gives the first seat's letter, then every hand in playing
order: ``N:AKJ7.T98.Q.J7 ...``; each hand lists ♠.♥.♦.♣ high to low.

>>> from atout.rules import Ruleset
>>> rules = Ruleset.preset("coinche")
>>> [seat_letter(rules, s) for s in range(4)]
['N', 'W', 'S', 'E']
>>> hands = parse_deal_line(rules, "S:AKQJT987... .AKQJT987.. ..AKQJT987. ...AKQJT987")
>>> format_deal_line(rules, hands, first=2) == "S:AKQJT987... .AKQJT987.. ..AKQJT987. ...AKQJT987"
True
"""

from __future__ import annotations

from collections.abc import Sequence

from atout.cards import format_hand, parse_hand
from atout.errors import NotationError, excerpt
from atout.i18n import LANGUAGES, Message, tr
from atout.rules import Ruleset

_LETTERS = {
    (4, "counterclockwise"): "NWSE",
    (4, "clockwise"): "NESW",
    (3, "counterclockwise"): "NWS",
    (3, "clockwise"): "NES",
    (2, "counterclockwise"): "NS",
    (2, "clockwise"): "NS",
}


def seat_letters(rules: Ruleset) -> str:
    return _LETTERS[(rules.players, rules.direction)]


def seat_letter(rules: Ruleset, seat: int) -> str:
    return seat_letters(rules)[seat]


def seat_words(rules: Ruleset, seat: int) -> Message:
    """A seat's name, put into words in the reader's language (``Sud`` / ``South``)."""
    return Message(f"common.seat.{seat_letter(rules, seat)}")


def seat_name(rules: Ruleset, seat: int, lang: str | None = None) -> str:
    """``Sud`` / ``South``..., in ``lang`` (by default the current language)."""
    return seat_words(rules, seat).message(lang)


def parse_seat(rules: Ruleset, text: str) -> int:
    """A seat from its number, its letter, or its name or initial in any language (``O`` for Ouest).

    >>> coinche = Ruleset.preset("coinche")
    >>> parse_seat(coinche, "Ouest"), parse_seat(coinche, "o"), parse_seat(coinche, "W"), parse_seat(coinche, "1")
    (1, 1, 1, 1)
    """
    raw = text.strip()
    if raw.isdigit() and int(raw) < rules.players:
        return int(raw)
    key = raw.lower()
    letters = seat_letters(rules)
    for seat, letter in enumerate(letters):
        names = {letter.lower(), *(tr(f"common.seat.{letter}", lang).lower() for lang in LANGUAGES)}
        if key and (key in names or key in {name[0] for name in names}):
            return seat
    raise NotationError(
        Message("notation.seat", text=excerpt(text), letters=", ".join(letters), last=rules.players - 1)
    )


def format_deal_line(rules: Ruleset, hands: Sequence[int], first: int = 0) -> str:
    """Every hand on one line, from seat ``first`` in playing order."""
    n = rules.players
    parts = [format_hand(hands[(first + i) % n]) for i in range(n)]
    return f"{seat_letter(rules, first)}:" + " ".join(parts)


def parse_deal_line(rules: Ruleset, text: str) -> list[int]:
    """Hands by seat from a deal line ``X:hand hand ...`` (a hand may be ``-`` if unknown/empty)."""
    raw = text.strip()
    if ":" not in raw:
        raise NotationError(Message("notation.deal", text=excerpt(text)))
    head, _, body = raw.partition(":")
    first = parse_seat(rules, head)
    parts = body.split()
    if len(parts) != rules.players:
        raise NotationError(Message("notation.deal_hands", hands=len(parts), players=rules.players))
    hands = [0] * rules.players
    seen = 0
    for i, part in enumerate(parts):
        mask = parse_hand(part)
        if mask & seen:
            raise NotationError(Message("notation.deal_twice"))
        seen |= mask
        hands[(first + i) % rules.players] = mask
    return hands
