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
...     deal.apply(rng.choice(deal.legal_actions()))
>>> deal.result.passed_out or sum(deal.result.card_points.values()) in (162, 252)
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import combinations
from typing import TYPE_CHECKING, NamedTuple

from atout.actions import PLAYS as PLAYS_FOR_SNAPSHOT
from atout.actions import Action, Declare, Play, parse_action, plays_of
from atout.announcements import Announcement, Resolution, best_announcements, resolve
from atout.auction import BiddingAuction, Contract, TakingAuction, new_auction
from atout.cards import ALL_CARDS, Card, Rank, cards_of, deck_mask, mask_of, parse_hand
from atout.dealing import DealtCards, complete_retourne, cut, deal_cards, full_deck, gather
from atout.errors import IllegalAction, NotationError
from atout.play import illegal_card, legal_mask
from atout.rules import Ruleset
from atout.scoring import DealFacts, DealScore, score_deal
from atout.tables import SANS_ATOUT, TOUT_ATOUT, PlayMode, play_mode

if TYPE_CHECKING:
    from atout.observation import Observation

_QUEEN_KING = (1 << Rank.QUEEN) | (1 << Rank.KING)


class Phase(StrEnum):
    AUCTION = "auction"
    PLAY = "play"
    DONE = "done"


class Trick(NamedTuple):
    """A completed trick: who led, the cards in play order, who won it and its points."""

    leader: int
    cards: tuple[Card, ...]
    winner: int
    points: int

    def seat_of(self, index: int, players: int) -> int:
        return (self.leader + index) % players


@dataclass(frozen=True)
class DealResult:
    """The end of a deal: the facts (card points, tricks, belotes, announcements) and the score."""

    passed_out: bool
    contract: Contract | None = None
    card_points: dict[int, int] = field(default_factory=dict)
    tricks: dict[int, int] = field(default_factory=dict)
    belote: dict[int, int] = field(default_factory=dict)
    announcements: dict[int, int] = field(default_factory=dict)
    score: DealScore | None = None
    facts: DealFacts | None = None
    #: Belotes whose « rebelote » was not said, by side (the older FFB wording's tolerance may count them).
    forgotten_rebelote: dict[int, int] = field(default_factory=dict)

    @property
    def marks(self) -> dict[int, int]:
        return dict(self.score.marks) if self.score else {}


class Deal:
    """One deal of any variant, from the auction to the score."""

    __slots__ = (
        "_base_tricks",
        "_belote_cards",
        "_belote_ok",
        "_belote_said",
        "_belotes",
        "_best",
        "_decl_open",
        "_declared",
        "_first_decl_order",
        "_forgot",
        "_hands",
        "_initial",
        "_leader",
        "_legal",
        "_mode",
        "_n",
        "_over_partner",
        "_points",
        "_published",
        "_resolution",
        "_retourne_taken",
        "_side",
        "_stock",
        "_trick",
        "_tricks",
        "_undertrump",
        "_win_card",
        "_win_pos",
        "_won",
        "actions",
        "auction",
        "contract",
        "dealer",
        "dealt",
        "from_snapshot_",
        "pattern",
        "phase",
        "result",
        "rules",
    )

    def __init__(self, rules: Ruleset, dealt: DealtCards, dealer: int, pattern: tuple[int, ...] = ()) -> None:
        if not 0 <= dealer < rules.players:
            raise NotationError(f"dealer must be a seat 0..{rules.players - 1}, not {dealer!r}")
        self.rules = rules
        self.dealer = dealer
        self.dealt = dealt
        self.pattern = pattern
        self.phase = Phase.AUCTION
        self.contract: Contract | None = None
        self.actions: list[tuple[int, Action]] = []
        self.result: DealResult | None = None
        n = rules.players
        self._n = n
        self._hands = list(dealt.hands)
        self._initial: list[int] = []
        self._side = [rules.side_of(s) for s in range(n)]
        self._stock = dealt.stock
        self._retourne_taken = False
        self._over_partner = rules.overtrump_partner
        self._undertrump = rules.must_undertrump
        self._legal: tuple[int, str] | None = None
        self._resolution: Resolution | None = None
        self._decl_open = False
        self._published = False
        self._base_tricks = 0
        # Play state, so that a deal nobody bid answers every query too.
        self._tricks: list[Trick] = []
        self._trick: list[int] = []
        self._leader = (dealer + 1) % n
        self._points = [0] * n
        self._won = [0] * n
        self._belote_ok = [0] * n
        self._belotes = [0] * n
        self._declared: list[tuple[Announcement, ...] | None] = [None] * n
        self.from_snapshot_ = False
        self._best: list[tuple[Announcement, ...]] = []
        self.auction: BiddingAuction | TakingAuction = new_auction(rules, dealer, dealt.retourne)

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
            raise NotationError(f"dealer must be a seat 0..{rules.players - 1}, not {dealer!r}")
        rng = rng or random.Random(seed)
        if deck is None:
            cards = full_deck(rules)
            rng.shuffle(cards)
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
            raise NotationError(f"packet pattern {pattern} does not deal {rules.first_stage} cards each")
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
            raise NotationError(f"{rules.players} hands are needed, not {len(masks)}")
        size = rules.first_stage
        for seat, mask in enumerate(masks):
            if mask.bit_count() != size:
                raise NotationError(f"hand of seat {seat} has {mask.bit_count()} cards, not {size}")
        ret = Card.parse(retourne) if isinstance(retourne, str) else retourne
        stock_cards = tuple(Card.parse(c) if isinstance(c, str) else Card(c) for c in stock)
        everything = [c for m in masks for c in cards_of(m)] + ([ret] if ret is not None else []) + list(stock_cards)
        total = mask_of(everything)
        if total & ~deck_mask(rules.short_deck):
            raise NotationError("a card is not in this ruleset's deck")
        if rules.auction == "retourne":
            if ret is None:
                raise NotationError("this ruleset turns a retourne: give retourne= and the stock")
            if len(everything) != len(full_deck(rules)):
                raise NotationError("hands, retourne and stock must hold the whole deck")
        elif ret is not None or len(everything) != rules.players * rules.hand_size:
            raise NotationError("give only the hands (the whole deck) for this ruleset")
        return cls(rules, DealtCards(tuple(masks), ret, stock_cards), dealer % rules.players)

    @classmethod
    def from_position(cls, text: str) -> Deal:
        """A deal from a one-line position string (see :mod:`atout.position`)."""
        from atout.position import deal_from_position

        deal = deal_from_position(text)
        assert isinstance(deal, Deal)
        return deal

    def position(self) -> str:
        """This moment of the deal as a one-line position string (see :mod:`atout.position`)."""
        from atout.position import position_of

        return position_of(self)

    @classmethod
    def from_snapshot(
        cls,
        rules: Ruleset,
        dealer: int,
        contract: Contract,
        hands: Sequence[int],
        leader: int,
        trick: Sequence[int],
        points: Sequence[int],
        won: Sequence[int],
        belote_ok: Sequence[int],
        belotes: Sequence[int],
        declared: Sequence[tuple[Announcement, ...] | None] | None,
        resolved: dict[int, int] | None,
        rest: Sequence[int] = (),
    ) -> Deal:
        """A deal starting in the middle of the play (a puzzle, an ending, a solver position).

        ``points``, ``won`` are by side; ``hands`` are the cards still held (the
        current trick's cards excluded); ``declared`` gives trick 1's declarations
        (None: not yet), ``resolved`` the announcement points once trick 1 is over.
        Its history before the snapshot is unknown: ``actions`` starts empty.
        """
        n = rules.players
        done = sum(won)
        if not 0 <= done <= rules.hand_size:
            raise NotationError(f"{done} tricks won: a deal has {rules.hand_size}")
        if not 0 <= contract.taker < n or not 0 <= leader < n:
            raise NotationError("taker and leader must be seats of the table")
        if contract.strain not in rules.strains() and not (rules.auction == "retourne" and contract.strain < 4):
            raise NotationError("the contract's strain is not allowed by these rules")
        full = list(hands)
        seen = 0
        for i, card in enumerate(trick):
            seat = (leader + i) % n
            full[seat] |= 1 << card
        for mask in full:
            if mask & seen:
                raise NotationError("a card appears twice in the position")
            seen |= mask
        if len(trick) >= n:
            raise NotationError("the current trick is already complete")
        if done == rules.hand_size and (trick or seen):
            raise NotationError("every trick is won but cards are still in play")
        for seat in range(n):
            if full[seat].bit_count() != rules.hand_size - done:
                raise NotationError(
                    f"seat {seat} holds {full[seat].bit_count()} cards; after {done} tricks each "
                    f"seat holds {rules.hand_size - done} before playing to the trick"
                )
        deal = cls(rules, DealtCards(tuple(full), None, tuple(rest)), dealer)
        deal.from_snapshot_ = True
        deal._start_play(contract)
        deal._base_tricks = done
        deal._leader = leader
        deal._belote_cards = [0] * n
        deal._belote_ok = [0] * n
        if rules.announcements:
            if declared is not None:
                if len(declared) != n or done:
                    raise NotationError("declarations are only given during trick 1, one per seat")
            else:
                deal._decl_open = False
                deal._best = [()] * n
        if declared is not None and rules.announcements:
            played = {(leader + i) % n for i in range(len(trick))}
            if any(declared[s] is None for s in played):
                raise NotationError("a seat that played to trick 1 has declared its announcements")
            deal._declared = list(declared)
            deal._first_decl_order = [s for s in ((leader + i) % n for i in range(n)) if declared[s] is not None]
        for card in trick:
            deal._play((deal._leader + len(deal._trick)) % n, PLAYS_FOR_SNAPSHOT[card])
        deal.actions.clear()
        sides = rules.sides
        if len(points) != len(sides) or len(won) != len(sides) or len(belotes) != n or len(belote_ok) != n:
            raise NotationError("points and tricks are given by side, belotes by seat")
        deal._points = [0] * n
        deal._won = [0] * n
        for side, value, count in zip(sides, points, won, strict=True):
            deal._points[side], deal._won[side] = value, count
        deal._belotes = list(belotes)
        deal._belote_ok = list(belote_ok)
        deal._belote_cards = list(belote_ok)
        deal._belote_said = [0] * n
        for seat, mask in enumerate(belote_ok):
            if mask & ~deal._hands[seat]:
                raise NotationError("belote may only be said with cards the seat still holds")
            for suit in range(4):
                pair = _QUEEN_KING << (8 * suit)
                if (mask & pair).bit_count() == 1:
                    deal._belote_said[seat] |= pair & ~mask
        if resolved is not None:
            deal._resolution = Resolution(
                max(resolved, key=lambda s: resolved[s]) if any(resolved.values()) else None, dict(resolved), {}, {}
            )
            deal._published = done > 1 or bool(trick)
        deal._legal = None
        if done == rules.hand_size:
            deal._finish()
        return deal

    # ------------------------------------------------------------------ queries
    @property
    def turn(self) -> int | None:
        """The seat to act, or None once the deal is over."""
        if self.phase is Phase.PLAY:
            return (self._leader + len(self._trick)) % self._n
        if self.phase is Phase.AUCTION:
            return self.auction.turn
        return None

    @property
    def players(self) -> int:
        return self._n

    def hand(self, seat: int) -> list[Card]:
        """The cards ``seat`` holds now."""
        return cards_of(self._hands[seat])

    def hand_mask(self, seat: int) -> int:
        return self._hands[seat]

    @property
    def strain(self) -> int | None:
        return self.contract.strain if self.contract else None

    @property
    def tricks(self) -> list[Trick]:
        return list(self._tricks) if self.phase is not Phase.AUCTION else []

    @property
    def current_trick(self) -> list[tuple[int, Card]]:
        """The cards of the trick in progress, with their seats."""
        if self.phase is not Phase.PLAY:
            return []
        return [((self._leader + i) % self._n, Card(c)) for i, c in enumerate(self._trick)]

    @property
    def retourne(self) -> Card | None:
        return None if self.dealt.retourne is None else Card(self.dealt.retourne)

    @property
    def initial_hands(self) -> list[int]:
        """The hands as the play started (after a retourne deal's second stage), by seat."""
        return list(self._initial) if self._initial else list(self.dealt.hands)

    @property
    def declarations(self) -> list[tuple[Announcement, ...] | None]:
        return list(self._declared) if self.phase is not Phase.AUCTION else []

    @property
    def resolution(self) -> Resolution | None:
        """The announcements' resolution, public from the first card of trick 2 (FFB §8.3)."""
        return self._resolution if self._published else None

    @property
    def trick_number(self) -> int:
        """Tricks completed so far."""
        return self._base_tricks + len(self._tricks) if self.phase is not Phase.AUCTION else 0

    def tricks_won(self) -> dict[int, int]:
        """Tricks won so far by each side."""
        if self.phase is Phase.AUCTION:
            return {s: 0 for s in self.rules.sides}
        return {s: self._won[s] for s in self.rules.sides}

    @property
    def must_declare(self) -> bool:
        """The player to move holds announcements and must first declare them (or none)."""
        if self.phase is not Phase.PLAY or not self._decl_open:
            return False
        seat = (self._leader + len(self._trick)) % self._n
        return self._declared[seat] is None and bool(self._best[seat])

    def points(self) -> dict[int, int]:
        """Card points won so far by each side (dix de der once the last trick is won)."""
        if self.phase is Phase.AUCTION:
            return {s: 0 for s in self.rules.sides}
        return {s: self._points[s] for s in self.rules.sides}

    def legal_actions(self) -> list[Action]:
        """Every action the seat in turn may take now."""
        if self.phase is Phase.PLAY:
            seat = (self._leader + len(self._trick)) % self._n
            if self._decl_open and self._declared[seat] is None and self._best[seat]:
                return _declare_options(self._best[seat])
            mask = (self._legal or self._compute_legal())[0]
            belote = mask & self._belote_ok[seat]
            out: list[Action] = plays_of(mask)
            if belote:
                out.extend(plays_of(belote, True))
            return out
        if self.phase is Phase.AUCTION:
            return self.auction.legal()
        return []

    def _compute_legal(self) -> tuple[int, str]:
        trick = self._trick
        seat = (self._leader + len(trick)) % self._n
        if trick:
            partner = self._n == 4 and len(trick) >= 2 and self._win_pos == len(trick) - 2
            legal = legal_mask(
                self._hands[seat],
                trick[0],
                self._win_card,
                partner,
                self._mode,
                self._over_partner,
                self._undertrump,
                self.rules.undertrump_partner,
            )
        else:
            legal = (self._hands[seat], "any")
        self._legal = legal
        return legal

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now; bots and interfaces only ever get this."""
        from atout.observation import Observation

        return Observation.of(self, seat)

    # ------------------------------------------------------------------ actions
    def apply(self, action: Action | str, seat: int | None = None) -> None:
        """Apply ``action`` (an :class:`Action` or its notation) for the seat in turn.

        Give ``seat`` to have an action out of turn rejected. Raises
        :class:`IllegalAction` and changes nothing if the action is not legal.
        """
        if type(action) is Play and self.phase is Phase.PLAY:
            turn = (self._leader + len(self._trick)) % self._n
            if seat is not None and seat != turn:
                raise _out_of_turn(seat, turn)
            self._play(turn, action)
            return
        if isinstance(action, str):
            action = parse_action(action)
        current = self.turn
        if current is None:
            raise IllegalAction("La donne est terminée", "the deal is over", code="over")
        turn = current
        if seat is not None and seat != turn:
            raise _out_of_turn(seat, turn)
        if self.phase is Phase.PLAY:
            if type(action) is Play:
                self._play(turn, action)
            elif isinstance(action, Declare):
                self._declare(turn, action)
            else:
                raise IllegalAction(
                    f"Les enchères sont finies : jouez une carte (pas {action.label('fr')})",
                    f"the auction is over: play a card (not {action.label('en')})",
                    code="not_a_card",
                )
            return
        auction = self.auction
        auction.check(action)
        auction.apply(turn, action)
        self.actions.append((turn, action))
        if auction.finished:
            if auction.passed_out:
                self.phase = Phase.DONE
                self.result = DealResult(passed_out=True)
            else:
                self._start_play()

    def _start_play(self, contract: Contract | None = None) -> None:
        rules = self.rules
        contract = contract or self.auction.contract
        assert contract is not None
        self.contract = contract
        if isinstance(self.auction, TakingAuction) and self.auction.finished:
            assert self.dealt.retourne is not None
            self._hands, self._stock = complete_retourne(
                rules, self._hands, self.dealt.retourne, self.dealt.stock, self.dealer, contract.taker
            )
            self._retourne_taken = True
        n = self._n
        strain = contract.strain
        self._mode: PlayMode = play_mode(strain, rules.ta_values)
        self._initial = list(self._hands)
        self._trick = []
        self._leader = (self.dealer + 1) % n
        self._win_card = -1
        self._win_pos = 0
        self._points = [0] * n
        self._won = [0] * n
        self._tricks = []
        belote_suits: Iterable[int] = ()
        if rules.belote and strain != SANS_ATOUT:
            belote_suits = range(4) if strain == TOUT_ATOUT else (strain,)
        self._belote_cards = [0] * n
        for seat in range(n):
            for suit in belote_suits:
                pair = _QUEEN_KING << (8 * suit)
                if self._hands[seat] & pair == pair:
                    self._belote_cards[seat] |= pair
        self._belote_ok = list(self._belote_cards)
        self._belote_said = [0] * n
        self._belotes = [0] * n
        self._forgot = [0] * n
        self._declared = [None] * n
        self._first_decl_order: list[int] = []
        if rules.announcements:
            values, tiebreak = rules.announcement_values, rules.announcement_tiebreak
            self._best = [best_announcements(h, strain, values, tiebreak) for h in self._hands]
        else:
            self._best = []
        self._decl_open = bool(self._best)
        self._legal = None
        self.phase = Phase.PLAY

    def _declare(self, seat: int, action: Declare) -> None:
        if not self.rules.announcements:
            raise IllegalAction(
                "Cette variante se joue sans annonces", "this variant has no announcements", code="no_announcements"
            )
        if not self._decl_open and self.rules.announcements:
            raise IllegalAction(
                "Les annonces se font avec sa première carte, une seule fois",
                "announcements are made once, with one's first card",
                code="late_announcement",
            )
        if self._declared[seat] is not None:
            raise IllegalAction(
                "Les annonces se font avec sa première carte, une seule fois",
                "announcements are made once, with one's first card",
                code="late_announcement",
            )
        used = 0
        for a in action.announcements:
            if used & a.cards:
                raise IllegalAction(
                    "Une carte ne compte que dans une seule annonce",
                    "a card counts in one announcement only",
                    code="overlap",
                )
            used |= a.cards
        self._declared[seat] = action.announcements
        self._first_decl_order.append(seat)
        self.actions.append((seat, action))

    def _play(self, seat: int, action: Play) -> None:
        card = action.card
        if self._decl_open and self._declared[seat] is None and self._best[seat]:
            raise IllegalAction(
                "Annoncez d'abord (ou dites que vous n'annoncez rien)",
                "declare your announcements first (or declare none)",
                code="declare_first",
            )
        mask, rule = self._legal or self._compute_legal()
        trick = self._trick
        if not mask >> card & 1:
            raise illegal_card(card, self._hands[seat], rule, trick[0] if trick else -1)
        bit = 1 << card
        if self._belote_cards[seat] & bit:
            self._say_belote(seat, card, action.belote)
        elif action.belote:
            raise IllegalAction(
                f"On ne dit belote qu'avec le roi ou la dame d'atout, tenus ensemble (pas le {card.french()})",
                f"belote is said only with the king or queen of trump held together (not {card})",
                code="belote",
            )
        self.actions.append((seat, action))
        self._hands[seat] ^= bit
        self._legal = None
        if self._decl_open and self._declared[seat] is None:
            self._declared[seat] = ()
            self._first_decl_order.append(seat)
        trick.append(card)
        if len(trick) == 1:
            self._win_card = card
            self._win_pos = 0
            if self._resolution is not None and not self._published:
                self._published = True
        else:
            win = self._win_card
            mode = self._mode
            if (
                mode.strength[card] > mode.strength[win]
                if card >> 3 == win >> 3
                else mode.trump_mask >> card & 1 and not mode.trump_mask >> win & 1
            ):
                self._win_card = card
                self._win_pos = len(trick) - 1
        if len(trick) == self._n:
            self._finish_trick()

    def _say_belote(self, seat: int, card: int, said: bool) -> None:
        """Belote on the first of K/Q of trump, rebelote on the second (FFB §7); checked before any change."""
        bit = 1 << card
        other = bit ^ (_QUEEN_KING << (card & ~7))
        if said:
            if not self._belote_ok[seat] & bit:
                raise IllegalAction(
                    "La rebelote ne compte que si la belote a été annoncée",
                    "rebelote only counts after belote was said",
                    code="belote",
                )
            if self._belote_said[seat] & other:
                self._belotes[seat] += 1
            self._belote_said[seat] |= bit
        else:
            if self._belote_said[seat] & other:
                self._forgot[seat] += 1
            self._belote_ok[seat] &= ~other
        self._belote_ok[seat] &= ~bit

    def _resolve_announcements(self) -> None:
        declared = [d or () for d in self._declared]
        self._resolution = resolve(
            declared,
            self._initial,
            self._side,
            self._first_decl_order,
            self.contract.strain if self.contract else 0,
            self.rules.announcement_values,
            self.rules.announcement_tiebreak,
        )

    def _finish_trick(self) -> None:
        trick = self._trick
        winner = (self._leader + self._win_pos) % self._n
        points = self._mode.points
        value = 0
        for c in trick:
            value += points[c]
        side = self._side[winner]
        self._tricks.append(Trick(self._leader, tuple([ALL_CARDS[c] for c in trick]), winner, value))
        self._points[side] += value
        self._won[side] += 1
        self._trick = []
        self._leader = winner
        if self._decl_open:
            self._decl_open = False
            self._resolve_announcements()
        if self._base_tricks + len(self._tricks) == self.rules.hand_size:
            self._points[side] += 10
            self._finish()

    def _finish(self) -> None:
        rules = self.rules
        contract = self.contract
        assert contract is not None
        sides = rules.sides
        card_points = {s: self._points[s] for s in sides}
        tricks = {s: self._won[s] for s in sides}
        capot = next((s for s in sides if tricks[s] == rules.hand_size), None)
        if capot is not None:
            card_points = {s: (rules.capot_points if s == capot else 0) for s in sides}
        belote = {s: 0 for s in sides}
        for seat in range(self._n):
            belote[self._side[seat]] += self._belotes[seat] * rules.belote_points
        self._published = self._resolution is not None
        announcements = dict(self._resolution.points) if self._resolution else {s: 0 for s in sides}
        facts = DealFacts(contract, card_points, belote, announcements, capot, tricks)
        score = score_deal(rules, facts, check=False)
        forgotten = {s: 0 for s in sides}
        for seat in range(self._n):
            forgotten[self._side[seat]] += self._forgot[seat]
        self.result = DealResult(False, contract, card_points, tricks, belote, announcements, score, facts, forgotten)
        self.phase = Phase.DONE

    # ------------------------------------------------------------ conveniences
    def copy(self) -> Deal:
        """An independent copy (replays the actions on the same cards)."""
        twin = Deal(self.rules, self.dealt, self.dealer, self.pattern)
        for seat, action in self.actions:
            twin.apply(action, seat)
        return twin

    def played_piles(self) -> list[list[int]]:
        """Each side's won cards in play order, for the traditional (unshuffled) next deal."""
        piles: list[list[int]] = [[] for _ in self.rules.sides]
        index = {s: i for i, s in enumerate(self.rules.sides)}
        for t in self._tricks if self.phase is not Phase.AUCTION else []:
            piles[index[self._side[t.winner]]].extend(t.cards)
        return piles

    def gathered_deck(self) -> list[int]:
        """The deck as the players pick it up after this deal, without shuffling (the online game's coinche)."""
        if self.result is not None and self.result.passed_out:
            held = [c for seat in range(self._n) for c in cards_of(self._hands[seat])]
            rest = ([self.dealt.retourne] if self.dealt.retourne is not None else []) + list(self._stock)
            return gather([held], rest)
        return gather(self.played_piles(), list(self._stock))

    def seat_name(self, seat: int) -> str:
        from atout.notation import seat_letter

        return seat_letter(self.rules, seat)


def _out_of_turn(seat: int, turn: int) -> IllegalAction:
    return IllegalAction(
        f"Ce n'est pas au siège {seat} de jouer mais au siège {turn}",
        f"it is not seat {seat}'s turn but seat {turn}'s",
        code="turn",
    )


def _hand_mask(hand: int | str | Iterable[int]) -> int:
    if isinstance(hand, str):
        return parse_hand(hand)
    if isinstance(hand, int):
        return hand
    return mask_of(hand)


_DECLARE_CACHE: dict[tuple[Announcement, ...], list[Action]] = {}


def _declare_options(best: tuple[Announcement, ...]) -> list[Action]:
    """Declare all of one's announcements, any part of them, or none."""
    options = _DECLARE_CACHE.get(best)
    if options is None:
        options = [Declare(tuple(sub)) for size in range(len(best), -1, -1) for sub in combinations(best, size)]
        _DECLARE_CACHE[best] = options
    return list(options)


__all__ = ["Deal", "DealResult", "Phase", "PlayMode", "Trick"]
