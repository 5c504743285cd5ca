"""Announcements (FFB coinche §8): carrés, cent, cinquante, tierce.

A hand's announcements are its best non-overlapping decomposition: a card counts
in one announcement only (§8), the decomposition with the most points wins and,
among equal totals, the one whose best announcement is strongest. Sequences
follow the order 7 8 9 10 J Q K A in one suit; a run longer than five counts as a
cent (and a whole suit of eight as a cent plus a tierce).

>>> from atout.cards import parse_hand
>>> [str(a) for a in best_announcements(parse_hand("JT98.J.J.J"), strain=0)]
['carré de valets', 'tierce 8♠-10♠']
>>> [str(a) for a in best_announcements(parse_hand("AKQJT.987.."), strain=1)]
['cent 10♠-A♠', 'tierce 7♥-9♥']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from atout.cards import Card, Rank
from atout.errors import NotationError
from atout.i18n import Message, tr
from atout.tables import PLAIN_STRENGTH, SANS_ATOUT, TOUT_ATOUT

KINDS = ("tierce", "cinquante", "cent", "carre")
_SEQUENCE_KIND = {3: "tierce", 4: "cinquante", 5: "cent"}
_SEQUENCE_POINTS = {3: 20, 4: 50, 5: 100}
_SEQUENCE_POINTS_BY_KIND = {_SEQUENCE_KIND[length]: points for length, points in _SEQUENCE_POINTS.items()}
#: Ranks whose carré counts (7s and 8s do not, FFB §8).
CARRE_RANKS = (Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)
_ALL_SUITS_OF_RANK = 0x01010101


@dataclass(frozen=True, order=True)
class Announcement:
    """One combination: a carré (``suit`` None) or a sequence of 3 to 5 cards in one suit.

    ``height`` is the top card's rank in sequence order (the carré's rank).
    """

    kind: str
    height: int
    suit: int | None
    cards: int

    @classmethod
    def from_cards(cls, cards: Iterable[int]) -> Announcement:
        """Build from its cards; raises :class:`NotationError` if they form no announcement.

        >>> str(Announcement.from_cards([Card.parse(c) for c in ("9H", "TH", "JH")]))
        'tierce 9♥-V♥'
        """
        cards = sorted(set(int(c) for c in cards))
        mask = sum(1 << c for c in cards)
        ranks = {c & 7 for c in cards}
        suits = {c >> 3 for c in cards}
        if len(cards) == 4 and len(ranks) == 1:
            rank = ranks.pop()
            if rank not in CARRE_RANKS:
                raise NotationError(Message("notation.low_carre"))
            return cls("carre", rank, None, mask)
        if len(suits) == 1 and 3 <= len(cards) <= 5 and cards[-1] - cards[0] == len(cards) - 1:
            return cls(_SEQUENCE_KIND[len(cards)], cards[-1] & 7, suits.pop(), mask)
        names = " ".join(str(Card(c)) for c in cards)
        raise NotationError(Message("notation.not_announcement", cards=names))

    @classmethod
    def parse(cls, text: str) -> Announcement:
        """Parse the cards of an announcement, e.g. ``9H TH JH`` or ``JS JH JD JC``."""
        return cls.from_cards(Card.parse(tok) for tok in text.replace(",", " ").replace("-", " ").split())

    @property
    def length(self) -> int:
        return self.cards.bit_count()

    def card_list(self) -> list[Card]:
        return [Card(c) for c in range(32) if self.cards >> c & 1]

    def points(self, strain: int, values: str = "ffb") -> int:
        """Points of this announcement in a contract of ``strain`` under a value table."""
        if self.kind != "carre":
            return _SEQUENCE_POINTS[self.length]
        return carre_points(self.height, strain, values)

    def label(self, lang: str | None = None) -> str:
        """The announcement in words, in ``lang``: ``tierce 9♥-V♥``, ``carré de valets`` / ``four jacks``.

        >>> a = Announcement.parse("9H TH JH")
        >>> a.label("fr"), a.label("en"), Announcement.parse("JS JH JD JC").label("fr")
        ('tierce 9♥-V♥', 'tierce 9♥-J♥', 'carré de valets')
        """
        if self.kind == "carre":
            return tr(f"words.carre.{Rank(self.height).letter}", lang)
        cards = self.card_list()
        kind = Message(f"words.announcement.{self.kind}")
        return tr("words.sequence", lang, kind=kind, low=cards[0], high=cards[-1])

    def message(self, lang: str | None = None) -> str:
        """The same as :meth:`label`: an announcement given to a message is said in its reader's language."""
        return self.label(lang)

    def notation(self) -> str:
        """The cards in ASCII codes, e.g. ``9H-TH-JH``: the form records use."""
        return "-".join(c.code for c in self.card_list())

    def __str__(self) -> str:
        return self.label()


def sequence_points(kind: str) -> int | None:
    """The points of a sequence of this kind (both value tables agree); None for a carré.

    >>> sequence_points("tierce"), sequence_points("carre")
    (20, None)
    """
    return _SEQUENCE_POINTS_BY_KIND.get(kind)


def carre_points(rank: int, strain: int, values: str = "ffb") -> int:
    """A carré's points: J 200, 9 150, others 100 (FFB §8); at sans atout A 200, 10 150 (§11.2).

    The bazar table (*Belote bazar*) gives 9 140 (100 at sans atout) and A 100 (190 at sans atout).
    """
    if values == "bazar":
        if rank == Rank.JACK:
            return 200
        if rank == Rank.NINE:
            return 100 if strain == SANS_ATOUT else 140
        if rank == Rank.ACE:
            return 190 if strain == SANS_ATOUT else 100
        return 100
    if strain == SANS_ATOUT:
        return {Rank.ACE: 200, Rank.TEN: 150}.get(Rank(rank), 100)
    return {Rank.JACK: 200, Rank.NINE: 150}.get(Rank(rank), 100)


def is_trump(a: Announcement, strain: int) -> bool:
    """Is the announcement "in trump" (a sequence in the trump suit; every one at tout atout)?"""
    if a.suit is None:
        return False
    return strain == TOUT_ATOUT or a.suit == strain


def strength(a: Announcement, strain: int, values: str = "ffb", tiebreak: str = "ffb") -> tuple[int, ...]:
    """Sort key: a larger key is a stronger announcement under the tie-break rule.

    FFB §8.3: more points, a carré before a cent of equal points, then the higher
    top card, then the announcement in trump. *Belote bazar*: carré, then 100, 50,
    tierce, then height, then the number of trumps in it. Sequences compare their
    top cards in sequence order (7 … A); carrés of equal value in card order
    (A 10 K Q J 9), as the FFB lists them strongest first (older wording: J, 9, A, 10, K, Q;
    §11.2 at sans atout: A, 10, K, Q, J, 9).
    """
    points = a.points(strain, values)
    trumps = (a.cards & _trump_mask(strain)).bit_count()
    height = PLAIN_STRENGTH[a.height] if a.kind == "carre" else a.height
    if tiebreak == "bazar":
        return (KINDS.index(a.kind), points, height, trumps)
    return (points, a.kind == "carre", height, int(is_trump(a, strain)))


def _trump_mask(strain: int) -> int:
    if strain == TOUT_ATOUT:
        return 0xFFFFFFFF
    if strain == SANS_ATOUT:
        return 0
    return 0xFF << (8 * strain)


@cache
def _suit_sequences(byte: int) -> tuple[tuple[int, int], ...]:
    """Best split of one suit's ranks into sequences: (low rank, length) pairs.

    Maximises the points, then prefers higher sequences.
    """
    segments = [
        (low, length)
        for length in (3, 4, 5)
        for low in range(0, 9 - length)
        if (byte >> low) & ((1 << length) - 1) == (1 << length) - 1
    ]
    best: tuple[int, tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]] = (0, (), ())
    for n in range(1, 3):  # at most two sequences fit in one suit of eight
        for chosen in combinations(segments, n):
            used = 0
            ok = True
            for low, length in chosen:
                bits = ((1 << length) - 1) << low
                if used & bits:
                    ok = False
                    break
                used |= bits
            if not ok:
                continue
            total = sum(_SEQUENCE_POINTS[length] for _, length in chosen)
            ranked = tuple(
                sorted(((_SEQUENCE_POINTS[length], low + length - 1) for low, length in chosen), reverse=True)
            )
            candidate = (total, ranked, tuple(sorted(chosen, reverse=True)))
            if candidate[:2] > best[:2]:
                best = candidate
    return best[2]


def _suit_announcements() -> tuple[tuple[tuple[Announcement, ...], ...], ...]:
    """For each suit and 8-bit pattern of it, the sequences of its best split."""
    return tuple(
        tuple(
            tuple(
                Announcement(_SEQUENCE_KIND[length], low + length - 1, suit, ((1 << length) - 1) << (8 * suit + low))
                for low, length in _suit_sequences(byte)
            )
            for byte in range(256)
        )
        for suit in range(4)
    )


_SUIT_ANNOUNCEMENTS = _suit_announcements()
_CARRE_RANK_BITS = sum(1 << r for r in CARRE_RANKS)


def best_announcements(hand: int, strain: int, values: str = "ffb", tiebreak: str = "ffb") -> tuple[Announcement, ...]:
    """The hand's best non-overlapping announcements, strongest first."""
    in_all_suits = hand & (hand >> 8) & (hand >> 16) & (hand >> 24) & _CARRE_RANK_BITS
    table = _SUIT_ANNOUNCEMENTS
    if not in_all_suits:
        found = (
            *table[0][hand & 255],
            *table[1][hand >> 8 & 255],
            *table[2][hand >> 16 & 255],
            *table[3][hand >> 24 & 255],
        )
        if len(found) < 2:
            return found
        return tuple(sorted(found, key=lambda a: strength(a, strain, values, tiebreak), reverse=True))
    carres = [r for r in CARRE_RANKS if in_all_suits >> r & 1]
    best: tuple[tuple[int, ...], tuple[Announcement, ...]] | None = None
    for n in range(len(carres) + 1):
        for used in combinations(carres, n):
            rest = hand
            chosen = []
            for rank in used:
                bits = _ALL_SUITS_OF_RANK << rank
                rest &= ~bits
                chosen.append(Announcement("carre", rank, None, bits))
            for suit in range(4):
                chosen.extend(table[suit][(rest >> (8 * suit)) & 255])
            chosen.sort(key=lambda a: strength(a, strain, values, tiebreak), reverse=True)
            total = sum(a.points(strain, values) for a in chosen)
            key = (total, *(k for a in chosen for k in strength(a, strain, values, tiebreak)))
            if best is None or key > best[0]:
                best = (key, tuple(chosen))
    assert best is not None
    return best[1]


@dataclass(frozen=True)
class Resolution:
    """The outcome of comparing the sides' announcements (FFB §8.3, §8.4).

    ``points`` gives each side what it scores from announcements (renonce included);
    ``winner`` is the side whose announcements count (None: nobody, or a tie);
    ``shown`` the announcements whose cards become public, by seat.
    """

    winner: int | None
    points: dict[int, int]
    shown: dict[int, tuple[Announcement, ...]]
    renonce: dict[int, tuple[Announcement, ...]]


def resolve(
    declared: Sequence[tuple[Announcement, ...]],
    hands: Sequence[int],
    side_of: Sequence[int],
    order: Sequence[int],
    strain: int,
    values: str = "ffb",
    tiebreak: str = "ffb",
) -> Resolution:
    """Decide which side's announcements count.

    ``declared`` and ``hands`` (the hands the play started with) are by seat;
    ``side_of`` maps a seat to its side; ``order`` lists the seats in the order
    they show, from the leader of trick 2 (the bazar tie-break prefers the first to show). A side whose
    best announcement wins must show them all; if it cannot show one (renonce,
    FFB §8.4), every point it announced goes to the opponents and the remaining
    sides' announcements are compared again.
    """
    sides = sorted(set(side_of))
    points = {side: 0 for side in sides}
    shown: dict[int, tuple[Announcement, ...]] = {}
    renonce: dict[int, tuple[Announcement, ...]] = {}
    excluded: set[int] = set()
    while True:
        winner = _best_side(declared, side_of, order, strain, values, tiebreak, excluded)
        if winner is None:
            return Resolution(None, points, shown, renonce)
        seats = [s for s in range(len(declared)) if side_of[s] == winner and declared[s]]
        false = {s: tuple(a for a in declared[s] if a.cards & hands[s] != a.cards) for s in seats}
        announced = sum(a.points(strain, values) for s in seats for a in declared[s])
        if not any(false.values()):
            for s in seats:
                shown[s] = declared[s]
            points[winner] += announced
            return Resolution(winner, points, shown, renonce)
        renonce.update({s: f for s, f in false.items() if f})
        others = [side for side in sides if side != winner]
        share, extra = divmod(announced, len(others))
        for i, side in enumerate(others):
            points[side] += share + (1 if i < extra else 0)
        excluded.add(winner)


def _best_side(
    declared: Sequence[tuple[Announcement, ...]],
    side_of: Sequence[int],
    order: Sequence[int],
    strain: int,
    values: str,
    tiebreak: str,
    excluded: set[int],
) -> int | None:
    """The side holding the strictly best announcement (None: nobody declared, or a tie)."""
    best: dict[int, tuple[int, ...]] = {}
    for position, seat in enumerate(order):
        side = side_of[seat]
        if side in excluded:
            continue
        for a in declared[seat]:
            key = strength(a, strain, values, tiebreak)
            if tiebreak == "bazar":
                key = (*key, -position)
            if side not in best or key > best[side]:
                best[side] = key
    if not best:
        return None
    ranked = sorted(best.items(), key=lambda item: item[1], reverse=True)
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        return None
    return ranked[0][0]


@cache
def possible_totals(
    strain: int, values: str = "ffb", *, hands: int = 1, hand_size: int = 8, short_deck: bool = False
) -> frozenset[int]:
    """Every announcement total that ``hands`` hands of ``hand_size`` cards can show together.

    The announcements shown are pairwise disjoint (a card counts in one announcement
    only, FFB §8, and no card is in two hands) and each hand's fit in its cards; a hand
    may show any part of what it holds. Values follow the ``values`` table at ``strain``.
    One hand of eight cards, then a side of two (three tierces need nine cards):

    >>> sorted(possible_totals(1))
    [0, 20, 40, 50, 70, 100, 120, 150, 170, 200, 220, 250, 300, 350]
    >>> 60 in possible_totals(1), 60 in possible_totals(1, hands=2), max(possible_totals(1, hands=2))
    (False, True, 550)
    """
    ranks = frozenset(range(2 if short_deck else 0, 8))
    carre_ranks = [r for r in CARRE_RANKS if r in ranks]
    room = hands * hand_size
    totals = set()
    for count in range(len(carre_ranks) + 1):
        for used in combinations(carre_ranks, count):
            carres = sum(carre_points(r, strain, values) for r in used)
            in_one_suit = _runs(ranks - set(used))  # the same in every suit: a carré takes a rank of each
            lengths: set[tuple[int, ...]] = {()}
            for _ in range(4):
                lengths = {
                    tuple(sorted(a + b)) for a in lengths for b in in_one_suit if 4 * count + sum(a) + sum(b) <= room
                }
            for runs in lengths:
                if _fits((4,) * count + runs, hands, hand_size):
                    totals.add(carres + sum(_SEQUENCE_POINTS[n] for n in runs))
    return frozenset(totals)


@cache
def _runs(ranks: frozenset[int]) -> frozenset[tuple[int, ...]]:
    """The lengths of every set of disjoint sequences (3 to 5 cards) within these ranks of one suit."""
    found: set[tuple[int, ...]] = set()

    def extend(low: int, lengths: tuple[int, ...]) -> None:
        found.add(tuple(sorted(lengths)))
        for start in range(low, 8):
            for n in (3, 4, 5):
                if all(r in ranks for r in range(start, start + n)):
                    extend(start + n, (*lengths, n))

    extend(0, ())
    return frozenset(found)


def _fits(sizes: tuple[int, ...], hands: int, hand_size: int) -> bool:
    """Can groups of these sizes be shared out among ``hands`` hands of ``hand_size`` cards?"""
    loads = [0] * hands

    def place(i: int, ordered: list[int]) -> bool:
        if i == len(ordered):
            return True
        tried = set()
        for h in range(hands):
            if loads[h] in tried or loads[h] + ordered[i] > hand_size:
                continue
            tried.add(loads[h])
            loads[h] += ordered[i]
            if place(i + 1, ordered):
                return True
            loads[h] -= ordered[i]
        return False

    return place(0, sorted(sizes, reverse=True))
