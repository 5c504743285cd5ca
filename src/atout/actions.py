"""The actions a player takes: calls in the auction, announcements, cards.

Each action has a compact ASCII notation used by records and position strings:

============  ==================  ==========================================
action        notation            meaning
============  ==================  ==========================================
Pass          ``P``               pass (« passe »)
Bid           ``90H``, ``80SA``   a contract: value and strain (S H D C SA TA)
Bid (capot)   ``capotH``          capot bid (FFB: above every number)
Bid (bazar)   ``270capotH``       a numbered bid that also promises capot
Coinche       ``X``               coinche / contre
Surcoinche    ``XX``              surcoinche / surcontre
Take          ``takeH``           classique: take with this trump suit
Declare       ``ann:9H-TH-JH``    announcements said with the first card
                                  (``+`` between several, ``ann:-`` none)
Play          ``JH``, ``QH!``     a card; ``!`` says belote / rebelote with it
============  ==================  ==========================================

>>> parse_action("90H"), parse_action("xx"), parse_action("QH!")
(Bid(value=90, strain=1, capot=False), Surcoinche(), Play(card=Card('Q♥'), belote=True))
>>> parse_action("capotSA").notation()
'capotSA'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from atout.announcements import Announcement
from atout.cards import Card, Suit
from atout.errors import NotationError, excerpt
from atout.i18n import LANGUAGES, Message, tr

STRAIN_LETTERS = ("S", "H", "D", "C", "SA", "TA")
_STRAIN_SYMBOL = ("♠", "♥", "♦", "♣", "SA", "TA")


def strain_symbol(strain: int) -> str:
    return _STRAIN_SYMBOL[strain]


def strain_mark(strain: int) -> str | Message:
    """How a bid writes its strain: a suit's symbol, or sans atout / tout atout in the reader's language
    (``SA``, ``NT`` in English)."""
    return _STRAIN_SYMBOL[strain] if strain < 4 else Message(f"common.strain.{STRAIN_LETTERS[strain]}")


def strain_words(strain: int) -> Message:
    """A strain's name, put into words in the reader's language (``cœur``, ``sans atout``)."""
    letter = STRAIN_LETTERS[strain]
    return Message(f"common.suit_name.{letter}" if strain < 4 else f"common.strain_name.{letter}")


def parse_strain(text: str) -> int:
    """``H``, ``♥``, ``cœur``, ``SA``, ``sans atout``, ``NT``, ``TA``, ``all trump`` → 0..5 (the words of
    every language of the catalogue).

    >>> parse_strain("cœur"), parse_strain("sans atout"), parse_strain("NT"), parse_strain("all trump")
    (1, 4, 4, 5)
    """
    key = " ".join(text.strip().lower().replace("-", " ").replace("_", " ").split())
    for strain in (4, 5):
        if key in _strain_words(STRAIN_LETTERS[strain]):
            return strain
    return int(Suit.parse(text))


def _strain_words(letter: str) -> set[str]:
    """What a player may type for sans atout (``SA``) or tout atout (``TA``), in every language."""
    words = {letter.lower()}
    for lang in LANGUAGES:
        words.add(tr(f"common.strain_name.{letter}", lang).lower())
        words.update(tr(f"words.strain_typed.{letter}", lang).split())
    return words


class Action:
    """Base class of every action."""

    __slots__ = ()

    def notation(self) -> str:
        raise NotImplementedError

    def label(self, lang: str | None = None) -> str:
        """The action in words, in ``lang`` (by default the current language)."""
        raise NotImplementedError

    def message(self, lang: str | None = None) -> str:
        """The same as :meth:`label`: an action given to a message is put into words in its reader's language."""
        return self.label(lang)

    def __str__(self) -> str:
        return self.notation()


@dataclass(frozen=True, slots=True)
class Pass(Action):
    def notation(self) -> str:
        return "P"

    def label(self, lang: str | None = None) -> str:
        return tr("words.pass", lang)


@dataclass(frozen=True, slots=True)
class Bid(Action):
    """A bid. ``value`` 0 with ``capot`` is the FFB capot, above every numbered bid."""

    value: int
    strain: int
    capot: bool = False

    def notation(self) -> str:
        number = str(self.value) if self.value else ""
        return f"{number}{'capot' if self.capot else ''}{STRAIN_LETTERS[self.strain]}"

    def label(self, lang: str | None = None) -> str:
        """``90 ♥``, ``capot ♠``, ``100 SA`` (``100 NT`` in English)."""
        parts = [str(self.value)] if self.value else []
        if self.capot:
            parts.append(tr("words.capot", lang))
        mark = strain_mark(self.strain)
        parts.append(mark if isinstance(mark, str) else mark.message(lang))
        return " ".join(parts)

    def rank(self) -> tuple[int, int]:
        """Ordering key: a pure capot is above every number."""
        return (1, 0) if self.capot and not self.value else (0, self.value)


@dataclass(frozen=True, slots=True)
class Coinche(Action):
    def notation(self) -> str:
        return "X"

    def label(self, lang: str | None = None) -> str:
        return tr("words.coinche", lang)


@dataclass(frozen=True, slots=True)
class Surcoinche(Action):
    def notation(self) -> str:
        return "XX"

    def label(self, lang: str | None = None) -> str:
        return tr("words.surcoinche", lang)


@dataclass(frozen=True, slots=True)
class Take(Action):
    """Classique: take with ``suit`` as trump (the retourne's suit in the first round)."""

    suit: int

    def notation(self) -> str:
        return "take" + STRAIN_LETTERS[self.suit]

    def label(self, lang: str | None = None) -> str:
        return tr("words.take", lang, suit=strain_words(self.suit))


@dataclass(frozen=True, slots=True)
class Declare(Action):
    """The announcements a player says with his first card (empty: none)."""

    announcements: tuple[Announcement, ...] = ()

    def notation(self) -> str:
        if not self.announcements:
            return "ann:-"
        return "ann:" + "+".join(a.notation() for a in self.announcements)

    def label(self, lang: str | None = None) -> str:
        if not self.announcements:
            return tr("words.no_announcement", lang)
        return ", ".join(a.label(lang) for a in self.announcements)


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play a card; ``belote`` says « belote » (first of K/Q of trump) or « rebelote »."""

    card: Card
    belote: bool = False

    def notation(self) -> str:
        return self.card.code + ("!" if self.belote else "")

    def label(self, lang: str | None = None) -> str:
        return tr("words.with_belote", lang, card=self.card) if self.belote else self.card.label(lang)


PASS = Pass()
COINCHE = Coinche()
SURCOINCHE = Surcoinche()
#: Shared Play actions, by card index, without and with belote.
PLAYS: tuple[Play, ...] = tuple(Play(Card(c)) for c in range(32))
PLAYS_BELOTE: tuple[Play, ...] = tuple(Play(Card(c), True) for c in range(32))


def _plays_by_byte(table: tuple[Play, ...]) -> tuple[tuple[tuple[Play, ...], ...], ...]:
    """For each suit and each 8-bit pattern of it, the Play actions of those cards."""
    return tuple(
        tuple(tuple(table[8 * suit + r] for r in range(8) if byte >> r & 1) for byte in range(256)) for suit in range(4)
    )


#: ``PLAYS_BY_SUIT_BYTE[suit][byte]``: the plays of a suit's cards given as an 8-bit mask.
PLAYS_BY_SUIT_BYTE = _plays_by_byte(PLAYS)
PLAYS_BELOTE_BY_SUIT_BYTE = _plays_by_byte(PLAYS_BELOTE)


def plays_of(mask: int, belote: bool = False) -> list[Action]:
    """The Play actions of the cards of ``mask``, in card order."""
    table = PLAYS_BELOTE_BY_SUIT_BYTE if belote else PLAYS_BY_SUIT_BYTE
    return [*table[0][mask & 255], *table[1][mask >> 8 & 255], *table[2][mask >> 16 & 255], *table[3][mask >> 24 & 255]]


_BID_RE = re.compile(r"^(\d+)?\s*(capot)?\s*(sa|ta|nt|s|h|d|c|♠|♥|♦|♣)$", re.IGNORECASE)


def parse_action(text: str) -> Action:
    """Parse one action in record notation (see the module's table); French words accepted."""
    raw = text.strip()
    low = raw.lower()
    if low in ("p", "pass", "passe", "-"):
        return PASS
    if low in ("x", "coinche", "contre", "double"):
        return COINCHE
    if low in ("xx", "surcoinche", "surcontre", "redouble"):
        return SURCOINCHE
    if low.startswith("take") or low.startswith("prend"):
        suit = raw[4:] if low.startswith("take") else raw.split(maxsplit=1)[-1] if " " in raw else raw[6:]
        try:
            return Take(int(Suit.parse(suit.strip().removeprefix("à").strip())))
        except NotationError:
            raise NotationError(Message("notation.take", text=excerpt(text))) from None
    if low.startswith("ann:"):
        body = raw[4:].strip()
        if body in ("", "-"):
            return Declare(())
        try:
            return Declare(tuple(Announcement.parse(part) for part in body.split("+")))
        except NotationError as err:
            raise NotationError(Message("notation.announcement", text=excerpt(text), reason=err)) from None
    belote = raw.endswith("!")
    try:
        card = Card.parse(raw.rstrip("!"))
    except NotationError:
        card = None
    if card is not None:
        return PLAYS_BELOTE[card] if belote else PLAYS[card]
    match = _BID_RE.match(raw.replace(" ", ""))
    if match and (match.group(1) or match.group(2)):
        value = int(match.group(1) or 0)
        return Bid(value, parse_strain(match.group(3)), bool(match.group(2)))
    raise NotationError(Message("notation.action", text=excerpt(text)))
