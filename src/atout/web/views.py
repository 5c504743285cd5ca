"""What the server sends one recipient: a view of the table built from the rules core's observation, and at
each update what changed of it.

A seat's view is built from ``deal.observation(seat)`` and nothing else of the deal in play: its own
hand and what it may do, and what is public (the calls, the cards played, the belotes said, the
announcements heard and shown, the scores). A spectator's view is the public part alone. The only
other things read from the deal are every hand as dealt, once the deal is over and every card has
been played (a deal nobody bid shows none), and the word a belote card would be said with (the rules
core tells it by playing the card on a copy). So no message can carry a card of another hand before
the table has seen it; the tests check every message of many games.

A view is built field by field (:class:`_Deal`), so that an update builds only the fields its events
changed (:func:`changes`): the events say what changed, and a new deal sends all of it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from atout.actions import Action
from atout.cards import Card, sorted_for_display
from atout.deal import Deal, DealResult, Phase
from atout.events import (
    Called,
    CardPlayed,
    DealOver,
    Declared,
    Event,
    PassedOut,
    PublicDeclaration,
    Resolved,
    Settled,
    TrickWon,
)
from atout.observation import Observation
from atout.rules import Ruleset
from atout.web import serialize as s
from atout.web.events import DealStarted, GameSaved, MatchOver, ScoreRead, SeatChanged
from atout.web.game import TableGame
from atout.web.states import SeatKind, TableStatus
from atout.web.wire import (
    AnnouncementView,
    BeloteView,
    BiddingBox,
    CallView,
    CardView,
    Choice,
    ContractView,
    DealChanges,
    DealView,
    MatchView,
    PlayChoice,
    ResultView,
    RulesView,
    SeatCard,
    SeatView,
    TableView,
    TrickView,
    ViewChanges,
)


@dataclass(frozen=True)
class SeatState:
    """A seat as everyone sees it: who sits there and whether a bot plays for an absent player."""

    seat: int
    kind: SeatKind
    #: A person's name, or a bot's level.
    name: str
    connected: bool = False
    #: A bot plays for this person while he is away.
    replaced: bool = False


@dataclass(frozen=True)
class TableState:
    """A table as its actor holds it at one moment: what every view of it is built from."""

    code: str
    status: TableStatus
    version: int
    rules: Ruleset
    seats: Sequence[SeatState]
    waiting: Sequence[int]
    game: TableGame | None
    #: The bots' level: of the seats left open at the start, and of the players replaced (always told: any seat
    #: may come to a bot).
    bots: str = "club"


@dataclass(frozen=True)
class Viewer:
    """Who receives a view: his seat (None: a spectator), his language, and whether he hosts or may start."""

    seat: int | None
    lang: str
    host: bool = False
    may_start: bool = False


def table_view(table: TableState, viewer: Viewer) -> TableView:
    """The whole view of ``viewer``."""
    fields = {name: build(table, viewer) for name, build in _TABLE_FIELDS.items()}
    deal = _Deal(table.game, table.rules, viewer).view() if table.game is not None else None
    return TableView(code=table.code, version=table.version, host=viewer.host, deal=deal, **fields)


def changes(table: TableState, viewer: Viewer, events: Sequence[Event]) -> ViewChanges:
    """What ``events`` changed of ``viewer``'s view: the fields they touch, built anew (all of them for a new
    deal, maybe of a new game)."""
    table_fields: set[str] = set()
    deal_fields: set[str] = set()
    for event in events:
        if isinstance(event, DealStarted):
            table_fields.update(_TABLE_FIELDS)
            deal_fields.update(DealView.model_fields)
        table_fields.update(_TABLE_CHANGES.get(type(event), ()))
        deal_fields.update(_DEAL_CHANGES.get(type(event), ()))
        if isinstance(event, CardPlayed) and event.seat == viewer.seat:
            deal_fields.add("hand")
        if isinstance(event, (Called, Declared, CardPlayed)) and viewer.seat is not None:
            deal_fields.update(_CHOICES)
    fields: dict[str, Any] = {name: _TABLE_FIELDS[name](table, viewer) for name in table_fields}
    if deal_fields and table.game is not None:
        fields["deal"] = _Deal(table.game, table.rules, viewer).changes(deal_fields)
    return ViewChanges(**fields)


def _seats(table: TableState, viewer: Viewer) -> list[SeatView]:
    return [
        s.seat(
            table.rules,
            state.seat,
            state.kind,
            state.name,
            viewer.lang,
            viewer=viewer.seat,
            connected=state.connected,
            replaced=state.replaced,
        )
        for state in table.seats
    ]


def _rules(table: TableState, viewer: Viewer) -> RulesView:
    rules = table.rules
    return RulesView(
        variant=s.variant(rules, table.bots, viewer.lang),
        preset=rules.name,
        players=rules.players,
        target=rules.target,
        deals=rules.deals,
        auction=rules.auction,
        sans_atout=rules.sans_atout,
        tout_atout=rules.tout_atout,
        announcements=rules.announcements,
        coinche=rules.coinche,
    )


def _match(table: TableState, viewer: Viewer) -> MatchView | None:
    if table.game is None:
        return None
    match, rules, lang = table.game.match, table.rules, viewer.lang
    return MatchView(
        scores=s.by_side(match.scores),
        target=rules.target,
        deals=rules.deals,
        held=match.held,
        finished=table.game.finished,  # a challenge's game ends after its deals, a winner or not
        winner=match.winner,
        history=[s.history_line(n, entry, lang) for n, entry in enumerate(match.entries, 1)],
    )


#: The table's fields besides the deal, and how each is built for a viewer.
_TABLE_FIELDS: dict[str, Callable[[TableState, Viewer], Any]] = {
    "status": lambda table, viewer: table.status,
    "you": lambda table, viewer: viewer.seat,
    "may_start": lambda table, viewer: viewer.may_start,
    "rules": _rules,
    "sides": lambda table, viewer: s.sides(table.rules, _seats(table, viewer), viewer.lang),
    "seats": _seats,
    "waiting": lambda table, viewer: list(table.waiting),
    "match": _match,
}
#: The table's fields each event changes.
_TABLE_CHANGES: dict[type[Event], tuple[str, ...]] = {
    SeatChanged: ("seats", "sides", "you", "may_start"),
    ScoreRead: ("waiting",),
    DealOver: ("match", "waiting"),
    MatchOver: ("match",),
    GameSaved: ("status", "waiting"),
}
#: The deal's fields each event of the rules core changes.
_DEAL_CHANGES: dict[type[Event], tuple[str, ...]] = {
    Called: ("turn", "calls"),
    Settled: ("phase", "turn", "contract", "counts", "hand", "retourne", "bergere"),
    PassedOut: ("phase", "turn", "result"),
    Declared: ("turn", "heard", "declared"),
    CardPlayed: ("turn", "trick", "counts", "belote"),
    Resolved: ("shown", "announcement_winner"),
    TrickWon: ("trick", "last_trick", "tricks", "tricks_won"),
    DealOver: ("phase", "turn", "result"),
}
#: What a seated viewer may do: changed by every action (the turn moves).
_CHOICES = ("plays", "bidding", "declare")

_RED_SUITS = frozenset((1, 2))  # hearts and diamonds


def hand_order(mask: int, strain: int | None) -> list[Card]:
    """The cards of ``mask`` as a player holds them: trump first, then red and black suits in turn, each
    suit strongest first.

    >>> from atout.cards import parse_hand
    >>> hand = parse_hand("A.K.Q.J")
    >>> [c.code for c in hand_order(hand, None)], [c.code for c in hand_order(hand, 0)]
    (['KH', 'AS', 'QD', 'JC'], ['AS', 'KH', 'JC', 'QD'])
    """
    cards = sorted_for_display(mask, strain)
    suits = list(dict.fromkeys(c >> 3 for c in cards))
    order = suits[:1] if strain is not None and strain < 4 and suits and suits[0] == strain else []
    rest = [suit for suit in suits if suit not in order]
    while rest:
        if order:
            red = order[-1] not in _RED_SUITS
        else:  # start with the colour that has more suits, so that the colours can alternate
            red = 2 * sum(suit in _RED_SUITS for suit in rest) >= len(rest)
        suit = next((x for x in rest if (x in _RED_SUITS) == red), rest[0])
        order.append(suit)
        rest.remove(suit)
    return [c for suit in order for c in cards if c >> 3 == suit]


def deal_result(result: DealResult, deal: Deal, lang: str) -> ResultView:
    """A deal's end, for the live table and the replay alike: its outcome; what each side made (card points,
    belote, announcements) when the marks are not simply that (a fall, a coinche, a litige); the marks term by
    term; and every hand as dealt (public once every card has been played)."""
    if result.passed_out or result.score is None:
        return ResultView(
            passed_out=True,
            outcome=s.outcome(None, lang),
            made=[],
            made_totals={},
            lines=[],
            marks={},
            held=0,
            hands={},
        )
    score, contract = result.score, result.contract
    made = {
        "web.table.card_points": result.card_points,
        "web.table.belote_points": result.belote,
        "web.table.announcement_points": result.announcements,
    }
    hands = {
        str(seat): s.cards(hand_order(deal.initial_hands[seat], deal.strain), lang)
        for seat in range(deal.rules.players)
    }
    plain = score.outcome == "made" and contract is not None and not contract.level
    return ResultView(
        passed_out=False,
        outcome=s.outcome(score.outcome, lang),
        made=[] if plain else s.made_lines(made, lang),
        made_totals=s.by_side(score.totals),
        lines=s.score_lines(score, lang),
        marks=s.by_side(score.marks),
        held=score.held,
        hands=hands,
    )


class _Deal:
    """The deal in play as one viewer may know it, field by field."""

    def __init__(self, game: TableGame, rules: Ruleset, viewer: Viewer) -> None:
        self.game = game
        self.rules = rules
        self.viewer = viewer
        self.lang = viewer.lang
        self.obs: Observation = game.deal.observation(0 if viewer.seat is None else viewer.seat)

    def view(self) -> DealView:
        return DealView(**{name: getattr(self, name) for name in DealView.model_fields})

    def changes(self, fields: set[str]) -> DealChanges:
        return DealChanges(**{name: getattr(self, name) for name in fields})

    @property
    def seated(self) -> bool:
        return self.viewer.seat is not None

    # ------------------------------------------------------------ public
    @property
    def number(self) -> int:
        return self.game.deal_no + 1

    @property
    def dealer(self) -> int:
        return self.obs.dealer

    @property
    def phase(self) -> str:
        return self.obs.phase.value

    @property
    def turn(self) -> int | None:
        return self.obs.turn

    @property
    def counts(self) -> list[int]:
        """Cards left in each hand: those dealt, less one a trick and the one in the trick in progress."""
        obs, rules = self.obs, self.rules
        size = (rules.hand_size if obs.contract is not None else rules.first_stage) - len(obs.tricks)
        playing = {seat for seat, _ in obs.trick}
        return [size - (seat in playing) for seat in range(rules.players)]

    @property
    def retourne(self) -> CardView | None:
        return s.card(self.obs.retourne, self.lang) if self.obs.retourne is not None else None

    @property
    def bergere(self) -> CardView | None:
        return s.card(self.obs.bergere, self.lang) if self.obs.bergere is not None else None

    @property
    def calls(self) -> list[CallView]:
        return [s.call(seat, action, self.lang) for seat, action in self.obs.calls]

    @property
    def contract(self) -> ContractView | None:
        c = self.obs.contract
        return s.contract(c, self.rules, self.lang) if c is not None else None

    @property
    def trick(self) -> list[SeatCard]:
        return [s.seat_card(seat, c, self.lang) for seat, c in self.obs.trick]

    @property
    def last_trick(self) -> TrickView | None:
        return s.trick(self.obs.tricks[-1], self.rules.players, self.lang) if self.obs.tricks else None

    @property
    def tricks(self) -> int:
        return len(self.obs.tricks)

    @property
    def tricks_won(self) -> dict[str, int]:
        won = {side: 0 for side in self.rules.sides}
        for t in self.obs.tricks:
            won[self.rules.side_of(t.winner)] += 1
        return s.by_side(won)

    @property
    def belote(self) -> list[BeloteView]:
        return [s.belote(seat, c, word, self.lang) for seat, c, word in self.obs.belote_said]

    @property
    def heard(self) -> dict[str, list[AnnouncementView]]:
        """Announcements as the table heard them (their nature, FFB §8.2), the viewer's own in full."""
        obs, lang = self.obs, self.lang
        heard = {str(seat): [s.heard(d, lang) for d in declared] for seat, declared in obs.heard.items() if declared}
        if obs.declared and obs.contract is not None:
            if self.seated:
                values = self.rules.announcement_values
                heard[str(obs.seat)] = [
                    s.announcement(a, a.points(obs.contract.strain, values), lang, shown=False) for a in obs.declared
                ]
            else:  # a spectator hears seat 0's as the others do
                heard[str(obs.seat)] = [s.heard(PublicDeclaration(a.kind), lang) for a in obs.declared]
        return dict(sorted(heard.items()))

    @property
    def shown(self) -> dict[str, list[AnnouncementView]]:
        strain = self.obs.contract.strain if self.obs.contract is not None else None
        return {
            str(seat): [
                s.announcement(a, s.announcement_points(a, self.rules, strain), self.lang, shown=True) for a in anns
            ]
            for seat, anns in self.obs.shown.items()
        }

    @property
    def announcement_winner(self) -> int | None:
        return self.obs.announcement_winner

    @cached_property
    def result(self) -> ResultView | None:
        result = self.obs.result
        if self.obs.phase is not Phase.DONE or result is None:
            return None
        return deal_result(result, self.game.deal, self.lang)

    # ------------------------------------------------------------ the viewer's own
    @cached_property
    def _legal(self) -> list[Action]:
        return self.obs.legal_actions() if self.seated else []

    @property
    def hand(self) -> list[CardView]:
        if not self.seated:
            return []
        strain = self.obs.contract.strain if self.obs.contract else None
        return s.cards(hand_order(self.obs.hand, strain), self.lang)

    @property
    def plays(self) -> list[PlayChoice]:
        if self.obs.phase is not Phase.PLAY:
            return []
        seat = self.obs.seat
        return s.plays(self._legal, lambda play: self.game.belote_word(seat, play), self.lang)

    @property
    def bidding(self) -> BiddingBox | None:
        if self.obs.phase is not Phase.AUCTION or not self._legal:
            return None
        return s.bidding(self._legal, self.lang)

    @property
    def declare(self) -> list[Choice]:
        return s.declare_choices(self._legal, self.lang)

    @property
    def declared(self) -> list[str]:
        return [a.label(self.lang) for a in self.obs.declared] if self.seated and self.obs.declared else []
