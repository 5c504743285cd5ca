"""Finished games for the history and the replay: their players, and each deal as it was played, in the
visitor's language, built with the live table's serializers (:mod:`atout.web.serialize`)."""

from __future__ import annotations

from pydantic import Field

from atout.actions import Declare, Play
from atout.cards import Card
from atout.errors import RulesError
from atout.record import read_records
from atout.rules import PRESETS, Ruleset
from atout.web import serialize as s
from atout.web.states import SeatKind
from atout.web.store import GameRow
from atout.web.views import deal_result, hand_order
from atout.web.wire import (
    CallView,
    CardView,
    ContractView,
    ResultView,
    SeatView,
    SideView,
    TalkLine,
    TrickView,
    VariantView,
    Wire,
)
from atout.web.workers import AnalysisRow


class ReplayDeal(Wire):
    """A deal of a finished game: every hand as dealt, the auction, the tricks, and its end as the live table
    showed it (:func:`atout.web.views.deal_result`: what each side made, the marks term by term)."""

    number: int
    dealer: int
    hands: list[list[CardView]]
    retourne: CardView | None
    calls: list[CallView]
    contract: ContractView | None
    tricks: list[TrickView]
    result: ResultView


class ReplayGame(Wire):
    id: int
    code: str
    preset: str
    seats: list[SeatView]
    sides: list[SideView]
    scores: dict[str, int]
    winner: int | None
    deals: list[ReplayDeal]
    #: What was said at the table during the game (as text: the page never reads it as HTML).
    talk: list[TalkLine] = Field(default_factory=list)


class AnalysedCard(Wire):
    """A card of a deal and its double-dummy value: what the player's side makes from there with perfect play,
    the best value, what the card cost, and the best cards."""

    trick: int
    seat: int
    card: CardView
    value: int
    best: int
    cost: int
    best_cards: list[CardView]
    choices: int


class GameSide(Wire):
    """A side of a finished game as the history lists it: its name, its players, its score, whether it won."""

    name: str
    players: list[str]
    score: int
    won: bool


class GameSummary(Wire):
    """A finished game as the history lists it: the variant played, and each side."""

    variant: VariantView
    sides: list[GameSide]


def _rules(game: GameRow) -> Ruleset | None:
    """The game's ruleset: its table's (with the host's options), else its preset's; None: a variant this
    version does not know."""
    try:
        return Ruleset.from_json(game.rules)
    except RulesError:
        return Ruleset.preset(game.preset) if game.preset in PRESETS else None


def summary(game: GameRow, lang: str) -> GameSummary | None:
    """How the history lists ``game`` in ``lang`` (None: a variant this version does not know)."""
    rules = _rules(game)
    if rules is None:
        return None
    seats = _seats(game, rules, lang)
    bots = game.bots if any(seat.kind is SeatKind.BOT for seat in seats) else None
    return GameSummary(
        variant=s.variant(rules, bots, lang),
        sides=[
            GameSide(  # with two or three players a side is its player: named as the list names him
                name=side.name if rules.players == 4 else seats[side.side].title,
                players=[seat.title for seat in seats if rules.side_of(seat.seat) == side.side and rules.players == 4],
                score=game.scores.get(str(side.side), 0),
                won=game.winner == side.side,
            )
            for side in s.sides(rules, seats, lang)
        ],
    )


def players(game: GameRow, lang: str) -> list[str]:
    """Each seat's player as the history lists him: a person by name, a bot by its seat and level."""
    rules = _rules(game)
    if rules is None:  # a game of a variant this version does not know: its players' names as kept
        return [str(p["name"] if isinstance(p, dict) else p) for p in game.players]
    return [seat.title for seat in _seats(game, rules, lang)]


def _seats(game: GameRow, rules: Ruleset, lang: str) -> list[SeatView]:
    seats = []
    for number, player in enumerate(game.players):
        if isinstance(player, str):  # games kept before bots were told apart
            player = {"name": player, "bot": False}
        kind = SeatKind.BOT if player["bot"] else SeatKind.HUMAN
        seats.append(s.seat(rules, number, kind, str(player["name"]), lang))
    return seats


def replay(game: GameRow, lang: str) -> ReplayGame:
    """A finished game for the replay page, in ``lang``."""
    rules = Ruleset.preset(game.preset)
    deals = []
    for number, record in enumerate(read_records(game.records)):
        deal = record.replay()
        result = deal.result
        if result is None:  # a deal its record left unfinished (a finished game has none): nothing to replay
            continue
        n = deal.rules.players
        deals.append(
            ReplayDeal(
                number=number,
                dealer=deal.dealer,
                hands=[s.cards(hand_order(deal.initial_hands[seat], deal.strain), lang) for seat in range(n)],
                retourne=s.card(deal.retourne, lang) if deal.retourne is not None else None,
                calls=[s.call(seat, a, lang) for seat, a in deal.actions if not isinstance(a, (Play, Declare))],
                contract=s.contract(deal.contract, deal.rules, lang) if deal.contract is not None else None,
                tricks=[s.trick(t, n, lang) for t in deal.tricks],
                result=deal_result(result, deal, lang),
            )
        )
    seats = _seats(game, rules, lang)
    return ReplayGame(
        id=game.id,
        code=game.code,
        preset=game.preset,
        seats=seats,
        sides=s.sides(rules, seats, lang),
        scores=game.scores,
        winner=game.winner,
        deals=deals,
    )


def analysis(rows: list[AnalysisRow], lang: str) -> list[AnalysedCard]:
    """A deal's analysis as kept (with card codes), for the visitor in ``lang``."""

    def card(code: str) -> CardView:
        return s.card(Card.parse(code), lang)

    return [
        AnalysedCard(
            trick=row["trick"],
            seat=row["seat"],
            card=card(row["card"]),
            value=row["value"],
            best=row["best"],
            cost=row["cost"],
            best_cards=[card(c) for c in row["best_cards"]],
            choices=row["choices"],
        )
        for row in rows
    ]
