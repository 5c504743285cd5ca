"""The pieces of what the server sends, as typed models: cards, calls, contracts, tricks, announcements,
seats, score lines, and the views of a table they make up.

Each piece carries what the page shows, in the recipient's language (labels), with the seat of
each card and the side of each seat, so that the page derives no rule and parses no notation: a
card's ``code`` and a choice's ``action`` are identifiers it sends back, never text it reads.
:mod:`atout.web.serialize` builds the pieces from the rules core's objects (one function per
concept, for the live table, the replays and the history alike); :mod:`atout.web.views` puts a
table's view together; :mod:`atout.web.protocol` wraps views and events into messages.

Models are dumped with ``exclude_unset``: a full view sets every field (they have no defaults), and
a view's changes (:data:`DealChanges`, :data:`ViewChanges`) set only the fields that changed.
"""

from __future__ import annotations

from typing import Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, create_model

from atout.web.states import SeatKind, TableStatus

#: A call that is not a bid, as the bidding box and the events name it.
CallKind = Literal["pass", "coinche", "surcoinche", "take"]
#: Where a seat is drawn on the recipient's screen (his own seat at the bottom).
Place = Literal["top", "right", "bottom", "left"]


class Wire(BaseModel):
    """A piece of a message: immutable, and nothing but its fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    def wire(self) -> dict[str, Any]:
        """As sent: JSON types, the fields that were set."""
        return self.model_dump(mode="json", exclude_unset=True)


class CardView(Wire):
    """A card: ``code`` identifies it (``JH``); the rest is how it is drawn and read aloud."""

    code: str
    #: The rank as printed on the card, in the recipient's language (``V``, ``10``).
    rank: str
    #: The suit's symbol (``♥``).
    suit: str
    red: bool
    #: Its name for screen readers (« valet de cœur »).
    name: str


class SeatCard(Wire):
    """A card and the seat that played it."""

    seat: int
    card: CardView


class TrickView(Wire):
    """A completed trick: who led, who won it, its card points, its cards with their seats."""

    leader: int
    winner: int
    points: int
    cards: list[SeatCard]


class ContractView(Wire):
    value: int
    strain: int
    taker: int
    #: The takers' side.
    side: int
    #: 0 plain, 1 coinched, 2 surcoinched.
    level: int
    capot: bool
    #: As players say it: ``90 ♥``, ``capot ♠ coinché``.
    label: str


class CallView(Wire):
    """A call of the auction: its seat, its notation and its words (« Passe », ``80 ♥``), and what it is."""

    seat: int
    action: str
    label: str
    call: CallKind | Literal["bid"]


class AnnouncementView(Wire):
    """An announcement as its recipient may know it: its words, its points where they are known (a carré
    heard is not), and its cards once shown (none while only heard)."""

    label: str
    points: int | None
    cards: list[CardView]


class BeloteView(Wire):
    """A card played saying belote or rebelote: the seat, the card's code, the word and how it is written."""

    seat: int
    card: str
    word: str
    label: str


class ScoreLineView(Wire):
    """One term of a deal's score for one side; ``detail`` says what a sum or a product adds up."""

    side: int
    label: str
    points: int
    detail: str


class SideView(Wire):
    side: int
    name: str


class SeatView(Wire):
    """A seat: where it is drawn for the recipient, its side, who sits there and how to name him."""

    seat: int
    letter: str
    place: Place
    side: int
    kind: SeatKind
    #: The seat's name (« Ouest »).
    seat_name: str
    #: Who sits there as the table shows him: a person by his name, a bot or an open seat by the seat's name.
    name: str
    #: Who sits there as a list shows him: a person by his name, a bot by its seat and level (« Ouest · robot club »).
    title: str
    #: What he is, if not a person: « robot club », « Place libre ».
    tag: str
    connected: bool
    #: A bot plays for this person while he is away.
    replaced: bool


class VariantView(Wire):
    """The variant a table plays, as players name it: its name, what differs from it (the host's options, the
    target, the bots' level: « sans annonces · en 2 000 points · robots expert »), where its rules are."""

    name: str
    details: str
    #: Its section of the rules page (``/rules#coinche``).
    link: str


class RulesView(Wire):
    variant: VariantView
    preset: str
    players: int
    target: int
    deals: int
    auction: str
    sans_atout: bool
    tout_atout: bool
    announcements: bool
    coinche: bool


class HistoryLine(Wire):
    """One deal of the match on the score sheet."""

    number: int
    dealer: int
    #: The contract's label, or None for a deal nobody bid.
    contract: str | None
    taker: int | None
    outcome: str
    marks: dict[str, int]
    totals: dict[str, int]


class MatchView(Wire):
    scores: dict[str, int]
    target: int
    deals: int
    #: Points in litige, carried to the next deal.
    held: int
    finished: bool
    winner: int | None
    history: list[HistoryLine]


class ResultView(Wire):
    """A deal's end: its outcome, what each side made when the marks are not simply that, the marks
    term by term, and every hand as dealt (public once every card has been played)."""

    passed_out: bool
    outcome: str
    #: What each side made (card points, belote, announcements): empty when the marks are just that.
    made: list[ScoreLineView]
    made_totals: dict[str, int]
    lines: list[ScoreLineView]
    marks: dict[str, int]
    held: int
    hands: dict[str, list[CardView]]


class Choice(Wire):
    """Something the recipient may do: the action to send and its words."""

    action: str
    label: str


class StrainChoice(Wire):
    """A strain of the bidding box: its symbol (or SA, TA) and colour."""

    label: str
    red: bool


class BidValue(Wire):
    """A value the recipient may bid, and its bids: the action of each of the box's strains (None where that
    strain may not be bid at this value)."""

    #: How the value is written (``80``, ``capot``, ``250 capot``): one label per value.
    label: str
    capot: bool
    bids: list[str | None]


#: A call other than a bid.
class CallChoice(Wire):
    """A call other than a bid: pass, coinche, surcoinche, or (classique) take."""

    action: str
    label: str
    kind: CallKind


class BiddingBox(Wire):
    """The recipient's calls at his turn of the auction: the values he may bid (lowest first) with a bid for
    each strain, and the other calls."""

    strains: list[StrainChoice]
    values: list[BidValue]
    calls: list[CallChoice]


class PlayChoice(Wire):
    """A card the recipient may play now, and the choice of saying belote (or rebelote) with it."""

    card: str
    action: str
    belote: Choice | None


class DealView(Wire):
    """The deal in play as one seat (or a spectator) may know it."""

    number: int
    dealer: int
    phase: str
    turn: int | None
    #: Cards left in each hand.
    counts: list[int]
    retourne: CardView | None
    bergere: CardView | None
    calls: list[CallView]
    contract: ContractView | None
    trick: list[SeatCard]
    last_trick: TrickView | None
    tricks: int
    tricks_won: dict[str, int]
    belote: list[BeloteView]
    #: Announcements as the table heard them, by seat (the recipient's own in full).
    heard: dict[str, list[AnnouncementView]]
    #: Announcements shown at the resolution, by seat.
    shown: dict[str, list[AnnouncementView]]
    #: The side whose announcements count, once resolved.
    announcement_winner: int | None
    result: ResultView | None
    #: The recipient's own: his hand as he holds it, and what he may do now.
    hand: list[CardView]
    plays: list[PlayChoice]
    bidding: BiddingBox | None
    declare: list[Choice]
    declared: list[str]


class TableView(Wire):
    """Everything one recipient sees of a table."""

    code: str
    status: TableStatus
    version: int
    you: int | None
    host: bool
    may_start: bool
    rules: RulesView
    #: The sides that score (two with four players, one per player with two or three).
    sides: list[SideView]
    seats: list[SeatView]
    #: Seats whose players have not yet said they have read the deal's score.
    waiting: list[int]
    match: MatchView | None
    deal: DealView | None


class SeatInfo(Wire):
    seat: int
    kind: SeatKind
    #: A person's name, or a bot's level.
    name: str


class TableInfo(Wire):
    """What anyone may know of a table before joining it (``GET /api/tables/CODE``)."""

    code: str
    status: TableStatus
    preset: str
    players: int
    seats: list[SeatInfo]


class LobbySeat(Wire):
    """A seat of a listed table: its letter (``N``: the page names it), who holds it (``kind``) and a
    person's name (empty for a bot or an open seat)."""

    seat: int
    letter: str
    kind: SeatKind
    name: str
    #: A seated account's rating in the table's variant, rounded (absent: a guest, or no rated game yet), and
    #: whether it is provisional (its deviation above 110).
    rating: int | None = None
    provisional: bool | None = None


class LobbyTable(Wire):
    """A table listed in the lobby, in no language: the page puts it into words from the catalogue."""

    code: str
    status: TableStatus
    #: The preset's key (the catalogue's ``web.preset.KEY`` names it).
    preset: str
    #: The host's options that differ from the preset, one key each (``web.lobby.option.KEY``).
    options: list[str]
    target: int
    #: The bots' level (``web.level.KEY``).
    bots: str
    seats: list[LobbySeat]
    #: A practice table (hints, each card's cost).
    practice: bool = False
    #: A rated table: its games between accounts change their ratings.
    rated: bool = False


class TalkLine(Wire):
    """A line said at the table: a quick message (``quick``: its key) in the recipient's language, or free text
    as it was typed (the page shows it as text, never as HTML)."""

    id: int
    #: The speaker's seat; None for a spectator.
    seat: int | None
    #: The speaker's name when he said it (a spectator: « Spectateur »).
    name: str
    #: The speaker's handle at the table, for muting him (no secret: not his seat token's player id).
    who: str
    quick: str | None
    text: str
    #: When it was said (ISO 8601, UTC).
    at: str


def partial(model: type[Wire], **overrides: Any) -> type[Wire]:
    """``model`` with every field optional: what changed of it (the fields set), the others unsaid."""
    fields: dict[str, Any] = {
        field: (Optional[overrides.get(field, info.annotation)], None)  # noqa: UP045  (a type built at run time)
        for field, info in model.model_fields.items()
    }
    changes: type[Wire] = create_model(f"{model.__name__}Fields", __base__=Wire, **fields)
    return changes


class DealChanges(partial(DealView)):  # type: ignore[misc]  # its fields are DealView's, made optional
    """What changed of a deal's view (a new deal sets every field)."""


class ViewChanges(partial(TableView, deal=DealChanges)):  # type: ignore[misc]
    """What changed of a table's view."""
