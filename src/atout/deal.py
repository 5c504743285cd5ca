"""A deal as a state machine: dealing, auction, play, scoring.

Seats are numbered in playing order (seat ``s + 1`` plays after seat ``s``); with
four players seats 0 and 2 are partners against 1 and 3. A deal answers
:meth:`Deal.legal_actions` and :meth:`Deal.apply`; an illegal action raises
:class:`~atout.errors.IllegalAction` with the reason in French and English and
leaves the deal unchanged.

>>> from atout import Deal, Ruleset
>>> deal = Deal.new(Ruleset.preset("coinche"), dealer=3, seed=7)
>>> deal.phase, deal.turn
(<Phase.AUCTION: 'auction'>, 0)
>>> import random
>>> rng = random.Random(7)
>>> while deal.phase is not Phase.DONE:
...     _ = deal.apply(rng.choice(deal.legal_actions()))
>>> deal.result.passed_out or sum(deal.result.card_points.values()) in (162, 252)
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from atout.actions import Action, Declare, Play, parse_action
from atout.announcements import Announcement, Resolution
from atout.auction import Auction, Contract, new_auction
from atout.cardplay import CardPlay, PlayState, Trick, check_state
from atout.cards import ALL_CARDS, Card, cards_of, deck_mask, mask_of, parse_hand
from atout.dealing import DealtCards, complete_retourne, cut, deal_cards, full_deck, gather, shuffled_deck
from atout.errors import IllegalAction, NotationError, excerpt
from atout.events import Called, DealOver, Event, PassedOut, Settled
from atout.i18n import Message
from atout.notation import seat_words
from atout.rules import Ruleset
from atout.scoring import DealFacts, DealScore, score_deal
from atout.tables import PlayMode

if TYPE_CHECKING:
    from atout.observation import Observation


class Phase(StrEnum):
    AUCTION = "auction"
    PLAY = "play"
    DONE = "done"


@dataclass(frozen=True)
class DealResult:
    """The end of a deal: its facts (card points, tricks, belotes, announcements) and its score."""

    passed_out: bool
    facts: DealFacts | None = None
    score: DealScore | None = None
    #: Belotes whose « rebelote » was not said, by side (the older FFB wording's tolerance may count them).
    forgotten_rebelote: dict[int, int] = field(default_factory=dict)

    @property
    def contract(self) -> Contract | None:
        return self.facts.contract if self.facts else None

    @property
    def card_points(self) -> dict[int, int]:
        return dict(self.facts.card_points) if self.facts else {}

    @property
    def tricks(self) -> dict[int, int]:
        return dict(self.facts.tricks or {}) if self.facts else {}

    @property
    def belote(self) -> dict[int, int]:
        return dict(self.facts.belote) if self.facts else {}

    @property
    def announcements(self) -> dict[int, int]:
        return dict(self.facts.announcements) if self.facts else {}

    @property
    def marks(self) -> dict[int, int]:
        return dict(self.score.marks) if self.score else {}


class Deal:
    """One deal of any variant, from the auction to the score.

    The auction is an :class:`~atout.auction.Auction`, the play a :class:`~atout.cardplay.CardPlay`;
    the deal drives them, keeps the actions and scores the end.
    """

    __slots__ = (
        "_cards",
        "_origin",
        "actions",
        "auction",
        "contract",
        "dealer",
        "dealt",
        "pattern",
        "phase",
        "result",
        "rules",
    )

    def __init__(self, rules: Ruleset, dealt: DealtCards, dealer: int, pattern: tuple[int, ...] = ()) -> None:
        if not 0 <= dealer < rules.players:
            raise NotationError(Message("notation.dealer", last=rules.players - 1, value=excerpt(repr(dealer))))
        self.rules = rules
        self.dealer = dealer
        self.dealt = dealt
        self.pattern = pattern
        self.phase = Phase.AUCTION
        self.contract: Contract | None = None
        self.actions: list[tuple[int, Action]] = []
        self.result: DealResult | None = None
        self.auction: Auction = new_auction(rules, dealer, dealt.retourne)
        self._cards: CardPlay | None = None
        #: The state a deal set up mid-play started from (None: dealt, so its whole history is known).
        self._origin: PlayState | None = None

    # ----------------------------------------------------------------- creation
    @classmethod
    def new(
        cls,
        rules: Ruleset,
        dealer: int = 0,
        seed: int | None = None,
        *,
        deck: Sequence[int] | None = None,
        rng: random.Random | None = None,
    ) -> Deal:
        """Shuffle (unless ``deck`` is given, as the traditional deal does), cut and deal.

        ``seed`` makes the deal reproducible; ``rng`` lets a stream of deals share one generator.
        """
        if not 0 <= dealer < rules.players:
            raise NotationError(Message("notation.dealer", last=rules.players - 1, value=excerpt(repr(dealer))))
        rng = rng or random.Random(seed)
        if deck is None:
            cards = shuffled_deck(rng, rules)
        else:
            cards = list(deck)
        patterns = rules.packet_patterns()
        pattern = patterns[0] if len(patterns) == 1 else rng.choice(patterns)
        dealt = deal_cards(rules, cut(cards, rng, rules.cut_min), dealer, pattern, check=deck is not None)
        return cls(rules, dealt, dealer, pattern)

    @classmethod
    def from_deck(
        cls, rules: Ruleset, deck: Sequence[int | str], dealer: int = 0, pattern: Sequence[int] | None = None
    ) -> Deal:
        """Deal a deck given in order (top card first), e.g. to replay a real deal."""
        cards = [Card.parse(c) if isinstance(c, str) else ALL_CARDS[c] for c in deck]
        pattern = tuple(pattern) if pattern else rules.packet_patterns()[0]
        if sum(pattern) != rules.first_stage:
            raise NotationError(
                Message("notation.packets", pattern="-".join(map(str, pattern)), cards=rules.first_stage)
            )
        return cls(rules, deal_cards(rules, cards, dealer % rules.players, pattern), dealer, pattern)

    @classmethod
    def from_hands(
        cls,
        rules: Ruleset,
        hands: Sequence[int | str | Iterable[int]],
        dealer: int = 0,
        *,
        retourne: int | str | None = None,
        stock: Sequence[int | str] = (),
    ) -> Deal:
        """A deal from given hands (by seat); with a retourne, also give it and the stock in dealing order.

        >>> rules = Ruleset.preset("classique")
        >>> deal = Deal.from_hands(rules, ["AKQJ7...", ".AKQJ7..", "..AKQJ7.", "...AKQJ7"], dealer=3,
        ...                        retourne="TS", stock="9S 8S 9H 8H TH 9D 8D TD 9C 8C TC".split())
        >>> deal.legal_actions()
        [Pass(), Take(suit=0)]
        """
        masks = [_hand_mask(h) for h in hands]
        if len(masks) != rules.players:
            raise NotationError(Message("notation.hands", count=rules.players, given=len(masks)))
        size = rules.first_stage
        for seat, mask in enumerate(masks):
            if mask.bit_count() != size:
                raise NotationError(Message("notation.hand_cards", seat=seat, held=mask.bit_count(), size=size))
        ret = Card.parse(retourne) if isinstance(retourne, str) else retourne
        stock_cards = tuple(Card.parse(c) if isinstance(c, str) else Card(c) for c in stock)
        everything = [c for m in masks for c in cards_of(m)] + ([ret] if ret is not None else []) + list(stock_cards)
        total = mask_of(everything)
        if total & ~deck_mask(rules.short_deck):
            raise NotationError(Message("notation.not_in_deck"))
        if rules.auction == "retourne":
            if ret is None:
                raise NotationError(Message("notation.give_retourne"))
            if len(everything) != len(full_deck(rules)):
                raise NotationError(Message("notation.retourne_deck"))
        elif ret is not None or len(everything) != rules.players * rules.hand_size:
            raise NotationError(Message("notation.only_hands"))
        return cls(rules, DealtCards(tuple(masks), ret, stock_cards), dealer % rules.players)

    @classmethod
    def from_position(cls, text: str) -> Deal:
        """A deal from a one-line position string (see :mod:`atout.position`)."""
        from atout.position import deal_from_position

        return deal_from_position(text)

    def position(self) -> str:
        """This moment of the deal as a one-line position string (see :mod:`atout.position`)."""
        from atout.position import position_of

        return position_of(self)

    @classmethod
    def from_state(cls, rules: Ruleset, dealer: int, state: PlayState) -> Deal:
        """A deal starting at a moment of the play (an ending, a puzzle, a solver position).

        Its history before that moment is unknown: ``actions`` starts empty and
        :attr:`has_history` is False. Raises :class:`NotationError` if no deal reaches ``state``.

        >>> from atout.cardplay import PlayState
        >>> rules = Ruleset.preset("coinche", announcements=False)
        >>> hands = (0x1, 0x100, 0x10000, 0x1000000)          # the last trick: a seven each
        >>> state = PlayState(Contract(80, 0, 0), hands, 0, (), (100, 52), (4, 3), (0,) * 4, (0,) * 4)
        >>> deal = Deal.from_state(rules, 3, state)
        >>> for card in ("7S", "7H", "7D", "7C"):
        ...     _ = deal.apply(card)
        >>> deal.result.card_points
        {0: 110, 1: 52}
        """
        check_state(rules, state)
        full = list(state.hands)
        for i, card in enumerate(state.trick):
            full[(state.leader + i) % rules.players] |= 1 << card
        deal = cls(rules, DealtCards(tuple(full), None, state.rest), dealer)
        deal._origin = state
        deal._begin(CardPlay(rules, state))
        return deal

    @property
    def has_history(self) -> bool:
        """Was this deal played from the deal itself (not set up from a state), so that it can be recorded?"""
        return self._origin is None

    @property
    def state(self) -> PlayState:
        """This moment of the play, frozen (see :mod:`atout.position` for its one-line form)."""
        if self._cards is None:
            raise ValueError("the play has not started: no contract")
        return self._cards.state()

    # ------------------------------------------------------------------ queries
    @property
    def turn(self) -> int | None:
        """The seat to act, or None once the deal is over."""
        if self.phase is Phase.PLAY:
            assert self._cards is not None
            return self._cards.turn
        if self.phase is Phase.AUCTION:
            return self.auction.turn
        return None

    @property
    def players(self) -> int:
        return self.rules.players

    def hand(self, seat: int) -> list[Card]:
        """The cards ``seat`` holds now."""
        return cards_of(self.hand_mask(seat))

    def hand_mask(self, seat: int) -> int:
        return self._cards.hands[seat] if self._cards else self.dealt.hands[seat]

    @property
    def strain(self) -> int | None:
        return self.contract.strain if self.contract else None

    @property
    def tricks(self) -> list[Trick]:
        """The tricks completed so far (since the state it was set up from)."""
        return list(self._cards.tricks) if self._cards else []

    @property
    def current_trick(self) -> list[tuple[int, Card]]:
        """The cards of the trick in progress, with their seats."""
        return self._cards.current_trick() if self._cards and self.phase is Phase.PLAY else []

    @property
    def retourne(self) -> Card | None:
        return None if self.dealt.retourne is None else Card(self.dealt.retourne)

    @property
    def bergere(self) -> Card | None:
        """Two players: the last card of the stock, turned face up once the play starts (« la bergère »)."""
        if self.rules.players != 2 or self._cards is None or not self._cards.rest:
            return None
        return Card(self._cards.rest[-1])

    @property
    def initial_hands(self) -> list[int]:
        """The hands as the play started (after a retourne deal's second stage), by seat."""
        return list(self._cards.initial) if self._cards else list(self.dealt.hands)

    @property
    def declarations(self) -> list[tuple[Announcement, ...] | None]:
        """Trick 1's declarations by seat (None: not yet made)."""
        return list(self._cards.declared) if self._cards else []

    def to_declare(self, seat: int) -> tuple[Announcement, ...]:
        """The announcements ``seat`` holds and has still to declare (or not) with its first card."""
        return self._cards.to_declare(seat) if self._cards else ()

    @property
    def belote_said(self) -> list[tuple[int, Card, str]]:
        """The cards played saying belote or rebelote, by seat, with the word said (FFB §7)."""
        return list(self._cards.said) if self._cards else []

    def belote_cards(self, seat: int) -> int:
        """Mask of the cards ``seat`` may still say belote or rebelote with."""
        return self._cards.belote_ok[seat] if self._cards else 0

    @property
    def resolution(self) -> Resolution | None:
        """The announcements' resolution, public from the first card of trick 2 (FFB §8.3)."""
        return self._cards.published_resolution if self._cards else None

    @property
    def trick_number(self) -> int:
        """Tricks completed so far."""
        return self._cards.base_tricks + len(self._cards.tricks) if self._cards else 0

    def tricks_won(self) -> dict[int, int]:
        """Tricks won so far by each side."""
        return {s: self._cards.won[s] if self._cards else 0 for s in self.rules.sides}

    @property
    def must_declare(self) -> bool:
        """The player to move holds announcements and must first declare them (or none)."""
        return self.phase is Phase.PLAY and self._cards is not None and self._cards.must_declare

    def points(self) -> dict[int, int]:
        """Card points won so far by each side (dix de der once the last trick is won)."""
        return {s: self._cards.points[s] if self._cards else 0 for s in self.rules.sides}

    def legal_actions(self) -> list[Action]:
        """Every action the seat in turn may take now."""
        cards = self._cards
        if cards is not None:
            return cards.legal_actions() if self.phase is Phase.PLAY else []
        return self.auction.legal() if self.phase is Phase.AUCTION else []

    def legal_cards(self) -> int:
        """Mask of the cards the seat in turn may play now: the cards among :meth:`legal_actions`,
        without building them. 0 in the auction, while the seat must first declare its
        announcements, and once the deal is over.

        >>> deal = Deal.from_hands(Ruleset.preset("coinche"), ["AKQJT987...", ".AKQJT987..", "..AKQJT987.",
        ...                        "...AKQJT987"], dealer=3)
        >>> for call in ("80H", "P", "P", "P", "ann:-"):
        ...     _ = deal.apply(call)
        >>> deal.legal_cards() == deal.hand_mask(0), Deal.new(deal.rules).legal_cards()
        (True, 0)
        """
        cards = self._cards
        return cards.legal_cards() if cards is not None and self.phase is Phase.PLAY else 0

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now; bots and interfaces only ever get this."""
        from atout.observation import Observation

        return Observation.of(self, seat)

    # ------------------------------------------------------------------ actions
    def apply(self, action: Action | str, seat: int | None = None) -> tuple[Event, ...]:
        """Apply ``action`` (an :class:`Action` or its notation) for the seat in turn, and return what it
        did, as :mod:`events <atout.events>` in order (a call and the contract it settled, a card and the
        trick it won, the deal over...).

        Give ``seat`` to have an action out of turn rejected. Raises
        :class:`IllegalAction` and changes nothing if the action is not legal.
        """
        cards = self._cards
        if type(action) is Play and cards is not None and self.phase is Phase.PLAY:
            turn = (cards.leader + len(cards.trick)) % cards.players
            if seat is not None and seat != turn:
                raise _out_of_turn(self.rules, seat, turn)
            events = cards.play(turn, action)
            self.actions.append((turn, action))
            if len(events) > 1 and cards.finished:  # a trick won: perhaps the last
                return *events, self._finish()
            return events
        if isinstance(action, str):
            action = parse_action(action)
        current = self.turn
        if current is None:
            raise IllegalAction(Message("illegal.over"), code="over")
        turn = current
        if seat is not None and seat != turn:
            raise _out_of_turn(self.rules, seat, turn)
        if cards is not None:
            if type(action) is Play:
                events = cards.play(turn, action)
            elif isinstance(action, Declare):
                events = (cards.declare(turn, action),)
            else:
                raise IllegalAction(Message("illegal.not_a_card", action=action), code="not_a_card")
            self.actions.append((turn, action))
            if cards.finished:
                return *events, self._finish()
            return events
        auction = self.auction
        auction.check(action)
        auction.apply(turn, action)
        self.actions.append((turn, action))
        called = Called(turn, action, auction.standing)
        if not auction.finished:
            return (called,)
        if auction.passed_out:
            self.phase = Phase.DONE
            self.result = DealResult(passed_out=True)
            return called, PassedOut(), DealOver(self.result)
        self._start_play()
        assert self.contract is not None
        return called, Settled(self.contract)

    def _start_play(self) -> None:
        """The auction is over: complete a retourne deal's hands, and the play begins."""
        rules = self.rules
        contract = self.auction.contract
        assert contract is not None
        hands, rest = list(self.dealt.hands), self.dealt.stock
        if rules.auction == "retourne":
            assert self.dealt.retourne is not None
            hands, rest = complete_retourne(rules, hands, self.dealt.retourne, rest, self.dealer, contract.taker)
        state = PlayState.opening(rules, contract, hands, (self.dealer + 1) % rules.players, rest)
        self._begin(CardPlay(rules, state, fresh=True))

    def _begin(self, cards: CardPlay) -> None:
        self.contract = cards.contract
        self._cards = cards
        self.phase = Phase.PLAY
        if cards.finished:
            self._finish()

    def _finish(self) -> DealOver:
        cards = self._cards
        assert cards is not None
        rules = self.rules
        sides = rules.sides
        card_points = {s: cards.points[s] for s in sides}
        tricks = {s: cards.won[s] for s in sides}
        capot = next((s for s in sides if tricks[s] == rules.hand_size), None)
        if capot is not None:
            card_points = {s: (rules.capot_points if s == capot else 0) for s in sides}
        belote = {s: 0 for s in sides}
        forgotten = {s: 0 for s in sides}
        for seat in range(rules.players):
            belote[rules.side_of(seat)] += cards.belotes[seat] * rules.belote_points
            forgotten[rules.side_of(seat)] += cards.forgot[seat]
        resolution = cards.resolution
        announcements = dict(resolution.points) if resolution else {s: 0 for s in sides}
        facts = DealFacts(cards.contract, card_points, belote, announcements, capot, tricks)
        self.result = DealResult(False, facts, score_deal(rules, facts, check=False), forgotten)
        self.phase = Phase.DONE
        return DealOver(self.result)

    # ------------------------------------------------------------ conveniences
    def __repr__(self) -> str:
        """The deal's position string (cards, contract, trick, scores), as :meth:`from_position` reads it.

        >>> Deal.from_hands(Ruleset.preset("coinche"), ["AKQJT987...", ".AKQJT987..", "..AKQJT987.",
        ...                 "...AKQJT987"], dealer=3)
        <Deal coinche E auction AKQJT987.../.AKQJT987../..AKQJT987./...AKQJT987 - - ->
        """
        return f"<Deal {self.position()}>"

    def copy(self) -> Deal:
        """An independent copy (replays the actions on the same cards)."""
        if self._origin is not None:
            twin = Deal.from_state(self.rules, self.dealer, self._origin)
        else:
            twin = Deal(self.rules, self.dealt, self.dealer, self.pattern)
        for seat, action in self.actions:
            twin.apply(action, seat)
        return twin

    def played_piles(self) -> list[list[int]]:
        """Each side's won cards in play order, for the traditional (unshuffled) next deal."""
        piles: list[list[int]] = [[] for _ in self.rules.sides]
        index = {s: i for i, s in enumerate(self.rules.sides)}
        for t in self.tricks:
            piles[index[self.rules.side_of(t.winner)]].extend(t.cards)
        return piles

    def gathered_deck(self) -> list[int]:
        """The deck as the players pick it up after this deal, without shuffling (the online game's coinche)."""
        if self.result is not None and self.result.passed_out:
            held = [c for seat in range(self.rules.players) for c in cards_of(self.dealt.hands[seat])]
            rest = ([self.dealt.retourne] if self.dealt.retourne is not None else []) + list(self.dealt.stock)
            return gather([held], rest)
        stock = self._cards.rest if self._cards else self.dealt.stock
        return gather(self.played_piles(), list(stock))


def _out_of_turn(rules: Ruleset, seat: int, turn: int) -> IllegalAction:
    return IllegalAction(
        Message("illegal.out_of_turn", seat=seat_words(rules, seat), turn=seat_words(rules, turn)), code="turn"
    )


def _hand_mask(hand: int | str | Iterable[int]) -> int:
    if isinstance(hand, str):
        return parse_hand(hand)
    if isinstance(hand, int):
        return hand
    return mask_of(hand)


__all__ = ["Deal", "DealResult", "Phase", "PlayMode", "PlayState", "Trick"]
