"""Cards, suits, ranks, card sets and their notation.

A card is a small integer ``suit * 8 + rank`` (0..31) and a set of cards is a
32-bit mask with bit ``card`` set. The public API speaks :class:`Card` objects
(which *are* those integers) and notation strings.

>>> Card.parse("J♥")
Card('J♥')
>>> Card.parse("valet de cœur") == Card.parse("JH") == Card.parse("V♥")
True
>>> str(Card.parse("10S")), Card.parse("TS").code
('10♠', 'TS')
>>> format_hand(parse_hand("AKJ7.T98.Q.J7"))
'AKJ7.T98.Q.J7'
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Iterator
from enum import IntEnum
from functools import cache

from atout.errors import NotationError, excerpt
from atout.i18n import LANGUAGES, Message, messages, tr


class Suit(IntEnum):
    """The four suits, in the order used by hand notation (♠ ♥ ♦ ♣)."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def symbol(self) -> str:
        return "♠♥♦♣"[self]

    @property
    def letter(self) -> str:
        return "SHDC"[self]

    def name_in(self, lang: str | None = None) -> str:
        """The suit's name in ``lang``: ``pique`` / ``spades``."""
        return tr(f"common.suit_name.{self.letter}", lang)

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse ``♥``, ``H``, ``hearts``, ``cœur``, ``coeur``...

        >>> Suit.parse("cœur"), Suit.parse("s")
        (<Suit.HEARTS: 1>, <Suit.SPADES: 0>)
        """
        found = _suit_words().get(fold(text))
        if found is not None:
            return found
        raise NotationError(Message("notation.suit", text=excerpt(text)))

    def __str__(self) -> str:
        return self.symbol


class Rank(IntEnum):
    """Ranks in sequence order (7 8 9 10 J Q K A), the order of announcements."""

    SEVEN = 0
    EIGHT = 1
    NINE = 2
    TEN = 3
    JACK = 4
    QUEEN = 5
    KING = 6
    ACE = 7

    @property
    def label(self) -> str:
        """The rank as printed on a card: ``7`` ... ``10``, ``J``, ``Q``, ``K``, ``A``."""
        return _RANK_LABELS[self]

    @property
    def letter(self) -> str:
        """One-character label (``T`` for the ten), used in hand notation."""
        return "789TJQKA"[self]

    def name_in(self, lang: str | None = None) -> str:
        """The rank's name in ``lang``: ``valet`` / ``jack``."""
        return tr(f"common.rank_name.{self.letter}", lang)

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Parse ``J``, ``V``, ``10``, ``T``, ``valet``, ``jack``...

        >>> Rank.parse("V"), Rank.parse("10")
        (<Rank.JACK: 4>, <Rank.TEN: 3>)
        """
        found = _rank_words().get(fold(text))
        if found is not None:
            return found
        raise NotationError(Message("notation.rank", text=excerpt(text)))

    def __str__(self) -> str:
        return self.label


_RANK_LABELS = ("7", "8", "9", "10", "J", "Q", "K", "A")


def fold(text: str) -> str:
    """Lower-case, strip accents and the ligature œ, so 'Cœur' == 'coeur'."""
    text = text.strip().lower().replace("œ", "oe")
    text = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in text if not unicodedata.combining(ch))


@cache
def _suit_words() -> dict[str, Suit]:
    """Everything a player may type for a suit: its symbol, letter and the words of every language."""
    words: dict[str, Suit] = {}
    for suit in Suit:
        typed = [suit.symbol, suit.letter]
        for lang in LANGUAGES:
            typed.extend(tr(f"words.suit_typed.{suit.letter}", lang).split())
        for word in typed:
            words[fold(word)] = suit
    # The outline symbols some keyboards produce.
    for outline, suit in zip("♤♡♢♧", Suit, strict=True):
        words[outline] = suit
    return words


@cache
def _name_separators() -> tuple[str, ...]:
    """What joins a rank and a suit in a card's full name, in every language (`` de ``, `` of ``)."""
    separators = set()
    for lang in LANGUAGES:
        template = messages(lang)["common.card_name"]
        separators.add(fold(template.partition("{rank}")[2].partition("{suit}")[0]).join("  "))
    return tuple(sorted(separators))


@cache
def _rank_words() -> dict[str, Rank]:
    """Everything a player may type for a rank: its label and letter, and the words of every language."""
    words: dict[str, Rank] = {}
    for rank in Rank:
        typed = [rank.label, rank.letter]
        for lang in LANGUAGES:
            typed.append(tr(f"common.rank.{rank.letter}", lang))
            typed.extend(tr(f"words.rank_typed.{rank.letter}", lang).split())
        for word in typed:
            words[fold(word)] = rank
    return words


class Card(int):
    """One card, an ``int`` in 0..31 (``suit * 8 + rank``); instances are shared.

    >>> c = Card.of(Suit.HEARTS, Rank.JACK)
    >>> c.suit, c.rank, int(c), c.mask
    (<Suit.HEARTS: 1>, <Rank.JACK: 4>, 12, 4096)
    >>> c.name_in("fr"), c.name_in("en")
    ('valet de cœur', 'jack of hearts')
    """

    __slots__ = ()

    def __new__(cls, index: int) -> Card:
        try:
            return _CARDS[index]
        except (IndexError, TypeError):
            raise NotationError(Message("notation.card_index", index=excerpt(repr(index)))) from None

    @classmethod
    def of(cls, suit: Suit | int, rank: Rank | int) -> Card:
        return _CARDS[suit * 8 + rank]

    @property
    def suit(self) -> Suit:
        return Suit(self >> 3)

    @property
    def rank(self) -> Rank:
        return Rank(self & 7)

    @property
    def mask(self) -> int:
        return 1 << self

    @property
    def code(self) -> str:
        """Two-character ASCII code, e.g. ``JH``, ``TS``."""
        return self.rank.letter + self.suit.letter

    def name_in(self, lang: str | None = None) -> str:
        """Full name in ``lang``: ``valet de cœur`` or ``jack of hearts``."""
        return tr("common.card_name", lang, rank=self.rank.name_in(lang), suit=self.suit.name_in(lang))

    def label(self, lang: str | None = None) -> str:
        """Short label with a suit symbol, in ``lang``: ``V♥`` in French, ``J♥`` in English.

        >>> Card.parse("JH").label("fr"), Card.parse("JH").label("en")
        ('V♥', 'J♥')
        """
        return tr("words.card", lang, rank=Message(f"common.rank.{self.rank.letter}"), suit=self.suit.symbol)

    def message(self, lang: str | None = None) -> str:
        """The same as :meth:`label`: a card given to a message is written in its reader's language."""
        return self.label(lang)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card in any accepted notation.

        Accepted: ``J♥``, ``JH``, ``10H``/``TH``, French ``V♥``/``RC`` letters with a
        symbol or English letter, and words (« valet de cœur », "jack of hearts").

        >>> Card.parse("as de pique"), Card.parse("ten of clubs"), Card.parse("10♦")
        (Card('A♠'), Card('10♣'), Card('10♦'))
        """
        if not isinstance(text, str):
            raise NotationError(Message("notation.card_text", kind=type(text).__name__))
        raw = text.strip().strip("«»\"'").strip()
        if not raw:
            raise NotationError(Message("notation.empty_card"))
        folded = fold(raw)
        for sep in _name_separators():
            if sep in folded:
                rank_word, _, suit_word = folded.partition(sep)
                try:
                    return cls.of(Suit.parse(suit_word), Rank.parse(rank_word))
                except NotationError:
                    raise NotationError(Message("notation.card", text=excerpt(text))) from None
        if len(raw) < 2:
            raise NotationError(Message("notation.card", text=excerpt(text)))
        try:
            return cls.of(Suit.parse(raw[-1]), Rank.parse(raw[:-1]))
        except NotationError:
            raise NotationError(Message("notation.card", text=excerpt(text))) from None

    def __str__(self) -> str:
        return _RANK_LABELS[self & 7] + "♠♥♦♣"[self >> 3]

    def __repr__(self) -> str:
        return f"Card('{self}')"

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))


_CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(32))

#: All 32 cards.
ALL_CARDS: tuple[Card, ...] = _CARDS
FULL_DECK = 0xFFFFFFFF
#: The 24-card deck used by three players: no 7s and no 8s.
SHORT_DECK = sum(1 << c for c in range(32) if (c & 7) >= Rank.NINE)
SUIT_MASKS: tuple[int, int, int, int] = (0xFF, 0xFF00, 0xFF0000, 0xFF000000)


def deck_mask(short: bool = False) -> int:
    """The mask of the 32-card deck, or of the 24-card deck without 7s and 8s."""
    return SHORT_DECK if short else FULL_DECK


def mask_of(cards: Iterable[int]) -> int:
    """The mask holding these cards. Raises on a duplicate card."""
    mask = 0
    for card in cards:
        bit = 1 << card
        if mask & bit:
            raise NotationError(Message("notation.twice", card=str(Card(card))))
        mask |= bit
    return mask


def cards_of(mask: int) -> list[Card]:
    """The cards of a mask, in index order (♠7 first).

    >>> cards_of(0b101)
    [Card('7♠'), Card('9♠')]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(_CARDS[low.bit_length() - 1])
        mask ^= low
    return out


def iter_cards(mask: int) -> Iterator[Card]:
    while mask:
        low = mask & -mask
        yield _CARDS[low.bit_length() - 1]
        mask ^= low


def count(mask: int) -> int:
    return mask.bit_count()


def format_hand(mask: int) -> str:
    """PBN-like hand notation: suits ♠.♥.♦.♣ separated by dots, ranks high to low.

    >>> format_hand(mask_of(Card.parse(c) for c in ["JH", "9H", "AS", "7C"]))
    'A.J9..7'
    """
    parts = []
    for suit in range(4):
        byte = (mask >> (8 * suit)) & 0xFF
        parts.append("".join("789TJQKA"[r] for r in range(7, -1, -1) if byte >> r & 1))
    return ".".join(parts)


def parse_hand(text: str) -> int:
    """Parse a hand: PBN-like ``AKJ7.T98.Q.J7`` or a list of cards ``J♥ 9♥ A♠``.

    >>> cards_of(parse_hand("J♥ 9♥,A♠"))
    [Card('A♠'), Card('9♥'), Card('J♥')]
    >>> parse_hand("-") == parse_hand("...") == 0
    True
    """
    raw = text.strip()
    if raw in ("-", ""):
        return 0
    if "." in raw and not any(ch in raw for ch in " ,"):
        suits = raw.split(".")
        if len(suits) != 4:
            raise NotationError(Message("notation.hand_suits", text=excerpt(text)))
        cards = []
        for suit, ranks in enumerate(suits):
            ranks = ranks.replace("10", "T")
            for ch in ranks:
                try:
                    cards.append(Card.of(suit, Rank.parse(ch)))
                except NotationError:
                    raise NotationError(Message("notation.hand_rank", text=excerpt(text), rank=ch)) from None
        return mask_of(cards)
    return mask_of(Card.parse(tok) for tok in raw.replace(",", " ").split())


def sorted_for_display(mask: int, strain: int | None = None) -> list[Card]:
    """Cards grouped by suit (trump first) and ranked strongest first for ``strain``.

    ``strain`` is a trump suit index 0..3, 4 for sans atout or 5 for tout atout.

    >>> sorted_for_display(parse_hand("A97.J.8."), strain=0)
    [Card('9♠'), Card('A♠'), Card('7♠'), Card('J♥'), Card('8♦')]
    """
    from atout.tables import display_order  # tables does not import cards

    return [_CARDS[c] for c in display_order(strain) if mask >> c & 1]
