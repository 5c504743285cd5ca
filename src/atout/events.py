"""What an action did: the events :meth:`Deal.apply <atout.deal.Deal.apply>` returns.

Each action yields its events in order: a call (:class:`Called`, with the auction's standing after
it), then the end of the auction (:class:`Settled` or :class:`PassedOut`); a declaration
(:class:`Declared`); a card (:class:`CardPlayed`, with the word said with it), then, where the
card did it, the announcements' resolution at the first card of trick 2 (:class:`Resolved`,
FFB §8.3), the trick won (:class:`TrickWon`) and the deal over (:class:`DealOver`). The rules core
computes each of these once; interfaces, records and environments translate them.

An event names only what the table sees, except :class:`Declared`, whose announcements only
their declarer knows whole: the others hear their nature (:class:`Heard`, FFB §8.2), which
:meth:`Event.seen_by` gives them.

>>> from atout import Deal, Ruleset
>>> deal = Deal.from_hands(Ruleset.preset("coinche"), ["AKQJT987...", ".AKQJT987..", "..AKQJT987.",
...                        "...AKQJT987"], dealer=3)
>>> deal.apply("80S")
(Called(seat=0, call=80S),)
>>> [deal.apply("P") for _ in range(3)][-1]
(Called(seat=3, call=P), Settled(contract=80 ♠ by 0))
>>> declared = deal.apply(deal.legal_actions()[0])
>>> declared, declared[0].seen_by(1)
((Declared(seat=0, announcements=ann:TS-JS-QS-KS-AS+7S-8S-9S),), Heard(seat=0, kinds=cent+tierce))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from atout.actions import Action, Declare
from atout.announcements import Announcement, sequence_points
from atout.auction import Contract
from atout.cards import Card

if TYPE_CHECKING:
    from atout.deal import DealResult


class Event:
    """One thing an action did."""

    __slots__ = ()

    def seen_by(self, seat: int | None) -> Event:
        """This event as ``seat`` perceives it (None: a spectator); most events are the same for all."""
        return self


def _contract(c: Contract) -> str:
    return f"{c.label('en')} by {c.taker}"


@dataclass(frozen=True, slots=True)
class Called(Event):
    """A call of the auction, and the auction's standing after it: its highest bid as a contract
    (the bidder as taker, coinche level and who coinched), or None while nothing is bid or taken."""

    seat: int
    call: Action
    standing: Contract | None = None

    def __repr__(self) -> str:
        return f"Called(seat={self.seat}, call={self.call.notation()})"


@dataclass(frozen=True, slots=True)
class Settled(Event):
    """The auction is over: the contract the deal is played in."""

    contract: Contract

    def __repr__(self) -> str:
        return f"Settled(contract={_contract(self.contract)})"


@dataclass(frozen=True, slots=True)
class PassedOut(Event):
    """Nobody bid (or took): the deal is void, with no score."""


@dataclass(frozen=True, slots=True)
class PublicDeclaration:
    """An announcement as the other players hear it in trick 1: its nature (tierce, cinquante, cent, carré),
    not its height, suit or cards. FFB §8.2: « chacun des joueurs annonce simplement la nature de son ou ses
    annonce(s) »; a carré's value would tell its rank, so it is not said.

    >>> PublicDeclaration("cinquante").points, PublicDeclaration("carre").points is None
    (50, True)
    """

    kind: str

    @property
    def points(self) -> int | None:
        """The points its nature tells: a sequence's; None for a carré, whose value depends on its rank."""
        return sequence_points(self.kind)


@dataclass(frozen=True, slots=True)
class Heard(Event):
    """A declaration as the other seats hear it: the nature of each announcement (FFB §8.2)."""

    seat: int
    declarations: tuple[PublicDeclaration, ...]

    def __repr__(self) -> str:
        kinds = "+".join(d.kind for d in self.declarations) or "-"
        return f"Heard(seat={self.seat}, kinds={kinds})"


@dataclass(frozen=True, slots=True)
class Declared(Event):
    """A player's announcements, declared with his first card (none: he declares nothing)."""

    seat: int
    announcements: tuple[Announcement, ...]

    def seen_by(self, seat: int | None) -> Event:
        if seat == self.seat:
            return self
        return Heard(self.seat, tuple(PublicDeclaration(a.kind) for a in self.announcements))

    def __repr__(self) -> str:
        return f"Declared(seat={self.seat}, announcements={Declare(self.announcements).notation()})"


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """A card played by ``seat``; ``word`` is « belote » or « rebelote » when said with it (FFB §7)."""

    seat: int
    card: Card
    word: str | None = None

    def __repr__(self) -> str:
        said = f", word={self.word}" if self.word else ""
        return f"CardPlayed(seat={self.seat}, card={self.card.code}{said})"


@dataclass(frozen=True, slots=True)
class Resolved(Event):
    """The announcements resolved, at the first card of trick 2 (FFB §8.3): the side whose announcements
    count (None: nobody's, or a tie), what each side scores for them (a renonce's points included,
    §8.4), and the announcements shown, by seat: the cards that become public."""

    winner: int | None
    points: Mapping[int, int]
    shown: Mapping[int, tuple[Announcement, ...]]

    def __repr__(self) -> str:
        return f"Resolved(winner={self.winner}, points={dict(self.points)})"


@dataclass(frozen=True, slots=True)
class TrickWon(Event):
    """A trick complete: its number (1 for the first), who led, its cards in play order, who won it, its card
    points, and the dix de der it adds when it is the last (FFB §9.1)."""

    number: int
    leader: int
    cards: tuple[Card, ...]
    winner: int
    points: int
    dix_de_der: int = 0

    @property
    def total(self) -> int:
        """What the trick brings its winner's side: its card points and its dix de der."""
        return self.points + self.dix_de_der

    def seat_of(self, index: int, players: int) -> int:
        """The seat that played the trick's ``index``-th card."""
        return (self.leader + index) % players

    def __repr__(self) -> str:
        cards = "-".join(c.code for c in self.cards)
        return f"TrickWon(number={self.number}, winner={self.winner}, cards={cards}, total={self.total})"


@dataclass(frozen=True, slots=True)
class DealOver(Event):
    """The deal is over: its facts and score (a passed-out deal's result says so)."""

    result: DealResult

    def __repr__(self) -> str:
        marks = "passed out" if self.result.passed_out else dict(self.result.marks)
        return f"DealOver({marks})"


__all__ = [
    "Called",
    "CardPlayed",
    "DealOver",
    "Declared",
    "Event",
    "Heard",
    "PassedOut",
    "PublicDeclaration",
    "Resolved",
    "Settled",
    "TrickWon",
]
