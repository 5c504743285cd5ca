"""What one seat may know: its hand and everything public. Bots only ever see this.

An :class:`Observation` holds the seat's own cards and private choices, the
auction, the retourne, the tricks played (so the last trick too), the belotes
said, the announcements as declared (their nature only, FFB §8.2; their cards once
shown at the resolution, FFB §8.3) and the score once the deal is over. Its
:meth:`~Observation.legal_actions` are computed from that alone and always equal
the deal's.

>>> from atout import Deal, Ruleset
>>> deal = Deal.new(Ruleset.preset("coinche"), seed=3)
>>> obs = deal.observation(deal.turn)
>>> obs.legal_actions() == deal.legal_actions()
True
>>> obs.hand.bit_count(), obs.seat, obs.phase.value
(8, 1, 'auction')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from atout.actions import Action, plays_of
from atout.announcements import Announcement
from atout.auction import Contract, new_auction
from atout.cardplay import declare_options
from atout.cards import Card, deck_mask, format_hand
from atout.events import PublicDeclaration
from atout.notation import seat_letter
from atout.play import legal_mask, trick_winner_index
from atout.rules import Ruleset
from atout.tables import play_mode

if TYPE_CHECKING:
    from atout.deal import Deal, DealResult, Phase, Trick


@dataclass(frozen=True, repr=False)
class Observation:
    """Everything ``seat`` may know at one moment of a deal."""

    rules: Ruleset
    seat: int
    dealer: int
    phase: Phase
    turn: int | None
    hand: int
    #: The seat's hand when the play started (its first-stage hand before that).
    initial_hand: int
    retourne: Card | None
    #: Two players: the last card of the stock, turned face up (« la bergère »).
    bergere: Card | None
    calls: tuple[tuple[int, Action], ...]
    contract: Contract | None
    tricks: tuple[Trick, ...]
    trick: tuple[tuple[int, Card], ...]
    #: Cards played saying « belote » or « rebelote », by seat, in order, with the word said.
    belote_said: tuple[tuple[int, Card, str], ...]
    #: Announcements declared by the other seats, as heard (their nature).
    heard: dict[int, tuple[PublicDeclaration, ...]]
    #: Announcements whose cards were shown at the resolution, by seat.
    shown: dict[int, tuple[Announcement, ...]]
    #: The seat's own declaration (None while not yet made).
    declared: tuple[Announcement, ...] | None
    #: The seat's own best announcements, when it still has to declare them.
    to_declare: tuple[Announcement, ...]
    #: Cards the seat may still say belote/rebelote with.
    belote_ok: int
    announcement_winner: int | None
    result: DealResult | None = None

    @classmethod
    def of(cls, deal: Deal, seat: int) -> Observation:
        from atout.deal import Phase

        rules = deal.rules
        if not 0 <= seat < rules.players:
            raise ValueError(f"seat must be 0..{rules.players - 1}, not {seat!r}")
        playing = deal.phase is not Phase.AUCTION and deal.contract is not None
        heard: dict[int, tuple[PublicDeclaration, ...]] = {}
        shown: dict[int, tuple[Announcement, ...]] = {}
        declared = None
        to_declare: tuple[Announcement, ...] = ()
        belote_said: list[tuple[int, Card, str]] = []
        belote_ok = 0
        winner = None
        if playing:
            for other, announced in enumerate(deal.declarations):
                if other == seat:
                    declared = announced
                elif announced:
                    heard[other] = tuple(PublicDeclaration(a.kind) for a in announced)
            if deal.resolution is not None:
                shown = {s: a for s, a in deal.resolution.shown.items() if a}
                winner = deal.resolution.winner
            to_declare = deal.to_declare(seat)
            belote_said = deal.belote_said
            belote_ok = deal.belote_cards(seat)
        calls = tuple(deal.actions[: len(deal.auction.calls)])
        retourne = deal.retourne
        bergere = deal.bergere
        hand = deal.hand_mask(seat)
        initial = deal.initial_hands[seat]
        return cls(
            rules,
            seat,
            deal.dealer,
            deal.phase,
            deal.turn,
            hand,
            initial,
            retourne,
            bergere,
            calls,
            deal.contract,
            tuple(deal.tricks),
            tuple(deal.current_trick),
            tuple(belote_said),
            heard,
            shown,
            declared,
            to_declare,
            belote_ok,
            winner,
            deal.result,
        )

    def __repr__(self) -> str:
        """The seat's view in cards, not masks.

        >>> from atout import Deal, Ruleset
        >>> deal = Deal.from_hands(Ruleset.preset("coinche"), ["AKQJT987...", ".AKQJT987..", "..AKQJT987.",
        ...                        "...AKQJT987"], dealer=3)
        >>> deal.apply("90H")
        (Called(seat=0, call=90H),)
        >>> deal.observation(1)
        <Observation coinche seat W, auction, turn W, hand .AKQJT987.., calls N:90H>
        """
        rules = self.rules
        parts = [f"{rules.name} seat {seat_letter(rules, self.seat)}", self.phase.value]
        if self.turn is not None:
            parts.append(f"turn {seat_letter(rules, self.turn)}")
        parts.append(f"hand {format_hand(self.hand)}")
        if self.calls:
            parts.append("calls " + " ".join(f"{seat_letter(rules, s)}:{a.notation()}" for s, a in self.calls))
        if self.contract is not None:
            parts.append(f"contract {self.contract.label('en')} by {seat_letter(rules, self.contract.taker)}")
        if self.tricks:
            parts.append(f"{len(self.tricks)} tricks played")
        if self.trick:
            parts.append("trick " + " ".join(f"{seat_letter(rules, s)}:{c.code}" for s, c in self.trick))
        return f"<Observation {', '.join(parts)}>"

    # ---------------------------------------------------------------- queries
    @property
    def played(self) -> int:
        """Mask of every card played so far."""
        mask = 0
        for t in self.tricks:
            for c in t.cards:
                mask |= 1 << c
        for _, c in self.trick:
            mask |= 1 << c
        return mask

    @property
    def unseen(self) -> int:
        """Cards this seat has not seen: not in its hand, not played, not shown, not the retourne it knows."""
        mask = deck_mask(self.rules.short_deck) & ~self.hand & ~self.played
        for announced in self.shown.values():
            for a in announced:
                mask &= ~a.cards
        if self.bergere is not None:
            mask &= ~(1 << self.bergere)
        if self.retourne is not None and self.phase.value == "auction":
            mask &= ~(1 << self.retourne)
        return mask

    def legal_actions(self) -> list[Action]:
        """The seat's legal actions, computed from the observation alone (empty if not its turn)."""
        if self.turn != self.seat:
            return []
        if self.phase.value == "auction":
            auction = new_auction(self.rules, self.dealer, self.retourne)
            for s, action in self.calls:
                auction.apply(s, action)
            return auction.legal()
        if self.phase.value != "play" or self.contract is None:
            return []
        if self.to_declare:
            return declare_options(self.to_declare)
        mode = play_mode(self.contract.strain, self.rules.ta_values)
        if self.trick:
            led = self.trick[0][1]
            win_index = trick_winner_index([c for _, c in self.trick], mode)
            partner = self.trick[win_index][0] == self.rules.partner_of(self.seat)
            mask, _ = legal_mask(
                self.hand,
                led,
                self.trick[win_index][1],
                partner,
                mode,
                self.rules.overtrump_partner,
                self.rules.must_undertrump,
                self.rules.undertrump_partner,
            )
        else:
            mask = self.hand
        out: list[Action] = plays_of(mask)
        out.extend(plays_of(mask & self.belote_ok, True))
        return out


__all__ = ["Observation", "PublicDeclaration"]
