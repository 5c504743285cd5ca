"""The rules core's objects as the pieces of a message (:mod:`atout.web.wire`), in a recipient's language.

One function per concept (a card, a trick, a contract, a call, an announcement, a seat, a score
line, an event), for the live table, the replays and the history alike: the words come from the
rules core (labels) and the message catalogue, the seat of each card and the side of each seat
from the rules; the page only draws them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal, Protocol

from atout.actions import Action, Bid, Coinche, Declare, Pass, Play, Surcoinche, Take
from atout.announcements import Announcement
from atout.auction import Contract
from atout.cards import Card, Suit
from atout.events import (
    Called,
    CardPlayed,
    DealOver,
    Declared,
    Event,
    Heard,
    PassedOut,
    PublicDeclaration,
    Resolved,
    Settled,
    TrickWon,
)
from atout.i18n import messages, normalize, tr
from atout.match import MatchEntry
from atout.notation import seat_letter
from atout.rules import Ruleset
from atout.scoring import DealScore, ScoreLine
from atout.web import protocol
from atout.web.events import DealStarted, GameSaved, MatchOver, ScoreRead, SeatChanged
from atout.web.guide import rules_section
from atout.web.lobby import changed_options
from atout.web.states import SeatKind
from atout.web.wire import (
    AnnouncementView,
    BeloteView,
    BiddingBox,
    BidValue,
    CallChoice,
    CallKind,
    CallView,
    CardView,
    Choice,
    ContractView,
    HistoryLine,
    Place,
    PlayChoice,
    ScoreLineView,
    SeatCard,
    SeatView,
    SideView,
    StrainChoice,
    TrickView,
    VariantView,
)

_RED = frozenset((Suit.HEARTS, Suit.DIAMONDS))
_COMPASS = "NESW"
_PLACES: tuple[Place, ...] = ("top", "right", "bottom", "left")


# ------------------------------------------------------------------ cards and tricks
@cache
def card(c: Card, lang: str) -> CardView:
    return CardView(
        code=c.code,
        rank=tr(f"common.rank.{c.rank.letter}", lang),
        suit=c.suit.symbol,
        red=c.suit in _RED,
        name=c.name_in(lang),
    )


def cards(found: Iterable[Card], lang: str) -> list[CardView]:
    return [card(c, lang) for c in found]


@cache
def seat_card(seat: int, c: Card, lang: str) -> SeatCard:
    return SeatCard(seat=seat, card=card(c, lang))


class _Trick(Protocol):
    """A completed trick as the rules core gives it (``Trick`` or the ``TrickWon`` event)."""

    @property
    def leader(self) -> int: ...
    @property
    def cards(self) -> tuple[Card, ...]: ...
    @property
    def winner(self) -> int: ...
    @property
    def points(self) -> int: ...
    def seat_of(self, index: int, players: int) -> int: ...


def trick_cards(trick: _Trick, players: int, lang: str) -> list[SeatCard]:
    return [seat_card(trick.seat_of(i, players), c, lang) for i, c in enumerate(trick.cards)]


def trick(trick: _Trick, players: int, lang: str) -> TrickView:
    return TrickView(
        leader=trick.leader, winner=trick.winner, points=trick.points, cards=trick_cards(trick, players, lang)
    )


# ------------------------------------------------------------------ the auction
def contract(c: Contract, rules: Ruleset, lang: str) -> ContractView:
    return ContractView(
        value=c.value,
        strain=c.strain,
        taker=c.taker,
        side=rules.side_of(c.taker),
        level=c.level,
        capot=c.capot,
        label=c.label(lang),
    )


def strain_label(strain: int, lang: str) -> str:
    """A suit's symbol; sans atout and tout atout in words (SA, TA)."""
    return Suit(strain).symbol if strain < 4 else _word(f"common.strain.{('SA', 'TA')[strain - 4]}", lang)


def _value_label(bid: Bid, lang: str) -> str:
    return " ".join([str(bid.value)] * bool(bid.value) + [_word("web.call.capot", lang)] * bid.capot)


@cache
def _word(key: str, lang: str) -> str:
    """A catalogue's word without values (said often: read once)."""
    return tr(key, lang)


def call_label(action: Action, lang: str) -> str:
    """A call in words: « Passe », « Coinche », « Prendre à cœur », ``80 ♥``, ``capot ♠``."""
    if isinstance(action, Bid):
        return f"{_value_label(action, lang)} {strain_label(action.strain, lang)}"
    if isinstance(action, Take):
        return tr("web.call.take", lang, suit=Suit(action.suit).name_in(lang))
    return tr(f"web.call.{_CALL_KINDS[type(action)]}", lang)


_CALL_KINDS: dict[type[Action], CallKind] = {Pass: "pass", Coinche: "coinche", Surcoinche: "surcoinche", Take: "take"}


def call(seat: int, action: Action, lang: str) -> CallView:
    return CallView(seat=seat, action=action.notation(), label=call_label(action, lang), call=call_kind(action))


def call_kind(action: Action) -> CallKind | Literal["bid"]:
    return "bid" if isinstance(action, Bid) else _CALL_KINDS[type(action)]


def bidding(legal: Sequence[Action], lang: str) -> BiddingBox:
    """A seat's calls at its turn: the values it may bid (lowest first, as the rules core lists the bids), each
    with its bid in every strain bid at all, and the other calls."""
    bids = [a for a in legal if isinstance(a, Bid)]
    strains = sorted({a.strain for a in bids})
    by_value: dict[tuple[int, bool], dict[int, str]] = {}
    for a in bids:
        by_value.setdefault((a.value, a.capot), {})[a.strain] = a.notation()
    values = [
        BidValue(
            label=_value_label(Bid(value, 0, capot), lang),
            capot=capot,
            bids=[actions.get(strain) for strain in strains],
        )
        for (value, capot), actions in by_value.items()
    ]
    calls = [
        CallChoice(action=a.notation(), label=call_label(a, lang), kind=_CALL_KINDS[type(a)])
        for a in legal
        if not isinstance(a, Bid)
    ]
    return BiddingBox(
        strains=[StrainChoice(label=strain_label(strain, lang), red=strain in _RED) for strain in strains],
        values=values,
        calls=calls,
    )


# ------------------------------------------------------------------ the play
def plays(legal: Sequence[Action], belote_word: Callable[[Play], str | None], lang: str) -> list[PlayChoice]:
    """The cards a seat may play now; where it may say belote or rebelote with one, the choice and its word
    (``belote_word``: what the rules core has him say with that card)."""
    sayable = {a.card: a for a in legal if isinstance(a, Play) and a.belote}
    out = []
    for a in legal:
        if isinstance(a, Play) and not a.belote:
            said = sayable.get(a.card)
            word = belote_word(said) if said is not None else None
            choice = Choice(action=said.notation(), label=tr(f"web.table.{word}", lang)) if said and word else None
            out.append(PlayChoice(card=a.card.code, action=a.notation(), belote=choice))
    return out


def declare_choices(legal: Sequence[Action], lang: str) -> list[Choice]:
    return [Choice(action=a.notation(), label=a.label(lang)) for a in legal if isinstance(a, Declare)]


def heard(declaration: PublicDeclaration, lang: str) -> AnnouncementView:
    """An announcement as the others hear it: its nature, and the points the nature tells (FFB §8.2)."""
    return AnnouncementView(
        label=tr(f"common.announcement.{declaration.kind}", lang), points=declaration.points, cards=[]
    )


def announcement(a: Announcement, points: int | None, lang: str, *, shown: bool) -> AnnouncementView:
    """An announcement known whole: by its declarer (its nature) or shown to all (its words and cards)."""
    if not shown:
        return AnnouncementView(label=tr(f"common.announcement.{a.kind}", lang), points=points, cards=[])
    return AnnouncementView(label=a.label(lang), points=points, cards=cards(a.card_list(), lang))


def belote(seat: int, c: Card, word: str, lang: str) -> BeloteView:
    return BeloteView(seat=seat, card=c.code, word=word, label=tr(f"web.table.{word}", lang))


# ------------------------------------------------------------------ score
def score_lines(score: DealScore, lang: str) -> list[ScoreLineView]:
    """Each term of the score (the rounding included), so that the lines add up to the marks; a term that
    sums or multiplies others says how (``detail``: ``(Chute 160 + Contrat 100) × 2``)."""
    return [
        ScoreLineView(side=line.side, label=line.label(lang), points=line.points, detail=_detail(line, lang))
        for line in score.lines
    ]


def _detail(line: ScoreLine, lang: str) -> str:
    terms = " + ".join(f"{part.label(lang)} {part.points}" for part in line.parts)
    if line.factor > 1:
        return f"({terms}) × {line.factor}" if len(line.parts) > 1 else f"{terms} × {line.factor}"
    return terms if len(line.parts) > 1 else ""


def made_lines(made: Mapping[str, Mapping[int, int]], lang: str) -> list[ScoreLineView]:
    """What each side made, by the catalogue key of its kind (card points, belote, announcements): the kinds
    someone scored."""
    return [
        ScoreLineView(side=side, label=tr(key, lang), points=points, detail="")
        for key, by_side in made.items()
        if any(by_side.values())
        for side, points in by_side.items()
    ]


def outcome(code: str | None, lang: str) -> str:
    """How a deal went, in words: made, fallen, litige, or (None) passed out."""
    return tr(f"web.outcome.{code or 'passed'}", lang)


def by_side(values: Mapping[int, int]) -> dict[str, int]:
    return {str(k): v for k, v in values.items()}


def history_line(number: int, entry: MatchEntry, lang: str) -> HistoryLine:
    """A deal of the match on the score sheet: its contract, how it went, the marks and the running score."""
    facts, score = entry.facts, entry.score
    return HistoryLine(
        number=number,
        dealer=entry.dealer,
        contract=facts.contract.label(lang) if facts else None,
        taker=facts.contract.taker if facts else None,
        outcome=outcome(score.outcome if score else None, lang),
        marks=by_side(entry.marks),
        totals=by_side(entry.totals),
    )


# ------------------------------------------------------------------ seats and sides
def sides(rules: Ruleset, seats: Sequence[SeatView], lang: str) -> list[SideView]:
    """The sides that score: North–South and East–West with four players; each player with two or three,
    named as the table names him (a person by his name, a bot by its seat)."""
    if rules.players == 4:
        return [SideView(side=side, name=_word(f"common.side.{('NS', 'EW')[side]}", lang)) for side in rules.sides]
    return [SideView(side=side, name=seats[side].name) for side in rules.sides]


def place(rules: Ruleset, seat: int, viewer: int | None) -> Place:
    """Where ``seat`` is drawn for ``viewer`` (a spectator sits South): his own seat at the bottom."""
    mine = _COMPASS.index(seat_letter(rules, viewer) if viewer is not None else "S")
    return _PLACES[(_COMPASS.index(seat_letter(rules, seat)) - mine + 6) % 4]


def seat(
    rules: Ruleset,
    number: int,
    kind: SeatKind,
    name: str,
    lang: str,
    *,
    viewer: int | None = None,
    connected: bool = False,
    replaced: bool = False,
) -> SeatView:
    """A seat as ``viewer`` sees it; ``name`` is a person's name, or a bot's level."""
    letter = seat_letter(rules, number)
    seat_name = tr(f"common.seat.{letter}", lang)
    shown, title, tag = seat_name, seat_name, tr("web.table.open_seat", lang)
    if kind is SeatKind.HUMAN:
        shown, title, tag = name, name, ""
    elif kind is SeatKind.BOT:
        level = tr(f"web.level.{name}", lang)
        title, tag = (
            tr("web.table.bot_seat", lang, seat=seat_name, level=level),
            tr("web.table.bot_name", lang, level=level),
        )
    return SeatView(
        seat=number,
        letter=letter,
        place=place(rules, number, viewer),
        side=rules.side_of(number),
        kind=kind,
        seat_name=seat_name,
        name=shown,
        title=title,
        tag=tag,
        connected=connected,
        replaced=replaced,
    )


# ------------------------------------------------------------------ events
def event(happened: Event, viewer: int | None, rules: Ruleset, strain: int | None, lang: str) -> protocol.Event:
    """An event as ``viewer`` (None: a spectator) perceives it (the rules core's ``seen_by``), in ``lang``;
    ``strain``: the deal's trump then (what a declarer's own announcements are worth)."""
    seen = happened.seen_by(viewer)
    players = rules.players
    match seen:
        case Called(seat_no, action):
            return protocol.CallEvent(
                seat=seat_no, action=action.notation(), label=call_label(action, lang), call=call_kind(action)
            )
        case Settled(settled):
            return protocol.ContractEvent(contract=contract(settled, rules, lang))
        case PassedOut():
            return protocol.PassedOutEvent()
        case Declared(seat_no, announced):
            known = [announcement(a, announcement_points(a, rules, strain), lang, shown=False) for a in announced]
            return protocol.DeclareEvent(seat=seat_no, announcements=known)
        case Heard(seat_no, declarations):
            return protocol.DeclareEvent(seat=seat_no, announcements=[heard(d, lang) for d in declarations])
        case CardPlayed(seat_no, played, word):
            said = tr(f"web.table.{word}", lang) if word else None
            return protocol.PlayEvent(seat=seat_no, card=card(played, lang), word=word, said=said)
        case Resolved(winner, points, shown):
            return protocol.ShownEvent(
                winner=winner,
                points=by_side(points),
                shown={
                    str(s): [announcement(a, announcement_points(a, rules, strain), lang, shown=True) for a in anns]
                    for s, anns in shown.items()
                },
            )
        case TrickWon():
            return protocol.TrickEvent(
                number=seen.number,
                leader=seen.leader,
                winner=seen.winner,
                points=seen.points,
                cards=trick_cards(seen, players, lang),
                dix_de_der=seen.dix_de_der,
            )
        case DealOver():
            return protocol.DealEndEvent()
        case DealStarted(number, dealer):
            return protocol.DealStartEvent(number=number, dealer=dealer)
        case MatchOver(winner):
            return protocol.MatchEndEvent(winner=winner)
        case SeatChanged(seat_no):
            return protocol.SeatEvent(seat=seat_no)
        case ScoreRead():
            return protocol.WaitingEvent()
        case GameSaved():
            return protocol.SavedEvent()
    raise TypeError(f"no message for {happened!r}")


def announcement_points(a: Announcement, rules: Ruleset, strain: int | None) -> int | None:
    """What an announcement is worth in a contract of ``strain`` (None before the contract is known)."""
    return a.points(strain, rules.announcement_values) if strain is not None else None


@dataclass(frozen=True)
class Points:
    """A number of points in a message, written as the reader's language groups digits (« 100 000 », "100,000")."""

    value: int

    def message(self, lang: str | None = None) -> str:
        grouped = f"{self.value:,}"
        return grouped.replace(",", "\u202f") if normalize(lang) == "fr" else grouped


def variant(rules: Ruleset, bots: str | None, lang: str) -> VariantView:
    """The variant ``rules`` plays, for the table, the lobby's readers and the history: its name (its preset's),
    the host's options that differ from the preset, the target (or the number of deals), the bots' level
    (``bots``; None: no bot played)."""
    words = messages(lang)
    keys = [f"web.lobby.option.{key}" for key in changed_options(rules)]
    details = [words[key] for key in keys if key in words]
    if rules.deals:  # a fixed number of deals (a challenge's, a concours's round), not a target
        details.append(tr("web.lobby.list.deals", lang, count=rules.deals))
    else:
        details.append(tr("web.lobby.list.target", lang, points=Points(rules.target)))
    if bots is not None:
        details.append(tr("web.lobby.list.bots", lang, level=tr(f"web.level.{bots}", lang)))
    name = f"web.preset.{rules.name}"
    return VariantView(name=words.get(name, rules.name), details=" · ".join(details), link=rules_section(rules.name))
