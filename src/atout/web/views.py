"""What the server sends one recipient: a view of the table built from the rules core's observation.

A seat's view is built from ``deal.observation(seat)`` and nothing else of the deal
in play: its own hand and legal actions, and what is public (the calls, the cards
played, the belotes said, the announcements heard and shown, the scores). A
spectator's view is the public part alone. The only other thing read from the
deal is every hand as dealt, once the deal is over and every card has been played
(a deal nobody bid shows none). So no message can carry a card of another hand
before the table has seen it; the tests check every message of many games.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from atout.actions import Declare
from atout.cards import sorted_for_display
from atout.deal import Phase
from atout.i18n import tr
from atout.notation import seat_letter
from atout.observation import Observation
from atout.rules import Ruleset
from atout.scoring import DealScore, ScoreLine
from atout.web.game import TableGame, contract_data

View = dict[str, Any]


@dataclass(frozen=True)
class SeatState:
    """A seat as everyone sees it: who sits there and whether a bot plays for an absent player."""

    seat: int
    kind: str  # "open", "human" or "bot"
    name: str
    connected: bool = False
    #: A bot plays for this human while he is away.
    replaced: bool = False


def table_view(
    code: str,
    status: str,
    version: int,
    rules: Ruleset,
    seats: list[SeatState],
    game: TableGame | None,
    seat: int | None,
    lang: str,
    *,
    host: bool = False,
    may_start: bool = False,
    waiting: list[int] | None = None,
) -> View:
    """The view of ``seat`` (None: a spectator) in ``lang``."""
    view: View = {
        "code": code,
        "status": status,
        "version": version,
        "you": seat,
        "host": host,
        "may_start": may_start,
        "rules": {
            "preset": rules.name,
            "players": rules.players,
            "target": rules.target,
            "deals": rules.deals,
            "auction": rules.auction,
            "sans_atout": rules.sans_atout,
            "tout_atout": rules.tout_atout,
            "announcements": rules.announcements,
            "coinche": rules.coinche,
        },
        "seats": [
            {
                "seat": s.seat,
                "letter": seat_letter(rules, s.seat),
                "kind": s.kind,
                "name": s.name,
                "connected": s.connected,
                "replaced": s.replaced,
            }
            for s in seats
        ],
        "waiting": waiting or [],
        "match": None,
        "deal": None,
    }
    if game is not None:
        view["match"] = _match(game, lang)
        view["deal"] = _deal(game, seat, lang)
    return view


_RED_SUITS = frozenset((1, 2))  # hearts and diamonds


def hand_order(mask: int, strain: int | None) -> list[str]:
    """The cards of ``mask`` as a player holds them: trump first, then red and black suits in turn, each
    suit strongest first.

    >>> from atout.cards import parse_hand
    >>> hand_order(parse_hand("A.K.Q.J"), None), hand_order(parse_hand("A.K.Q.J"), 0)
    (['KH', 'AS', 'QD', 'JC'], ['AS', 'KH', 'JC', 'QD'])
    """
    cards = sorted_for_display(mask, strain)
    suits = list(dict.fromkeys(c >> 3 for c in cards))
    order = suits[:1] if strain is not None and strain < 4 and suits and suits[0] == strain else []
    rest = [s for s in suits if s not in order]
    while rest:
        if order:
            red = order[-1] not in _RED_SUITS
        else:  # start with the colour that has more suits, so that the colours can alternate
            red = 2 * sum(s in _RED_SUITS for s in rest) >= len(rest)
        suit = next((s for s in rest if (s in _RED_SUITS) == red), rest[0])
        order.append(suit)
        rest.remove(suit)
    return [c.code for suit in order for c in cards if c >> 3 == suit]


def _side_name(game: TableGame, side: int, lang: str) -> str:
    rules = game.rules
    if rules.players == 4:
        return tr(f"common.side.{'NS' if side == 0 else 'EW'}", lang)
    return tr(f"common.seat.{seat_letter(rules, side)}", lang)


def _match(game: TableGame, lang: str) -> View:
    match, rules = game.match, game.rules
    history = []
    for e in match.entries:
        contract = e.facts.contract.label(lang) if e.facts else None
        history.append(
            {
                "dealer": e.dealer,
                "contract": contract,
                "taker": e.facts.contract.taker if e.facts else None,
                "outcome": e.score.outcome if e.score else "passed",
                "marks": _by_side(e.marks),
                "totals": _by_side(e.totals),
            }
        )
    return {
        "sides": [{"side": s, "name": _side_name(game, s, lang)} for s in rules.sides],
        "scores": _by_side(match.scores),
        "target": rules.target,
        "deals": rules.deals,
        "held": match.held,
        "finished": match.finished,
        "winner": match.winner,
        "history": history,
    }


def _by_side(values: dict[int, int]) -> dict[str, int]:
    return {str(k): v for k, v in values.items()}


def _deal(game: TableGame, seat: int | None, lang: str) -> View:
    deal = game.deal
    obs = deal.observation(0 if seat is None else seat)
    rules = game.rules
    played = {s: 0 for s in range(rules.players)}
    for t in obs.tricks:
        for i in range(len(t.cards)):
            played[t.seat_of(i, rules.players)] += 1
    for s, _ in obs.trick:
        played[s] += 1
    size = rules.hand_size if obs.contract is not None else rules.first_stage
    view: View = {
        "number": game.deal_no + 1,
        "dealer": obs.dealer,
        "phase": obs.phase.value,
        "turn": obs.turn,
        "counts": [size - played[s] for s in range(rules.players)],
        "retourne": obs.retourne.code if obs.retourne is not None else None,
        "bergere": obs.bergere.code if obs.bergere is not None else None,
        "calls": [{"seat": s, "action": a.notation(), "label": a.label(lang)} for s, a in obs.calls],
        "contract": _contract(obs, lang),
        "trick": [{"seat": s, "card": c.code} for s, c in obs.trick],
        "last_trick": _last_trick(obs),
        "tricks": len(obs.tricks),
        "tricks_won": _tricks_won(obs),
        "belote": _belotes(obs),
        "heard": _heard(obs, seat, lang),
        "shown": {
            str(s): [{"label": a.label(lang), "cards": [c.code for c in a.card_list()]} for a in anns]
            for s, anns in obs.shown.items()
        },
        "announcement_winner": obs.announcement_winner,
        "result": _result(game, obs, lang) if obs.phase is Phase.DONE else None,
        "hand": [],
        "legal": [],
        "declare": [],
    }
    if seat is not None:
        strain = obs.contract.strain if obs.contract else None
        view["hand"] = hand_order(obs.hand, strain)
        legal = obs.legal_actions()
        view["legal"] = [a.notation() for a in legal if not isinstance(a, Declare)]
        view["declare"] = [{"action": a.notation(), "label": a.label(lang)} for a in legal if isinstance(a, Declare)]
        view["declared"] = [a.label(lang) for a in obs.declared] if obs.declared else []
    return view


def _contract(obs: Observation, lang: str) -> View | None:
    if obs.contract is None:
        return None
    c = obs.contract
    return {
        "value": c.value,
        "strain": c.strain,
        "taker": c.taker,
        "level": c.level,
        "capot": c.capot,
        "label": c.label(lang),
    }


def _last_trick(obs: Observation) -> View | None:
    if not obs.tricks:
        return None
    t = obs.tricks[-1]
    n = obs.rules.players
    return {
        "leader": t.leader,
        "winner": t.winner,
        "points": t.points,
        "cards": [{"seat": t.seat_of(i, n), "card": c.code} for i, c in enumerate(t.cards)],
    }


def _tricks_won(obs: Observation) -> dict[str, int]:
    won = {s: 0 for s in obs.rules.sides}
    for t in obs.tricks:
        won[obs.rules.side_of(t.winner)] += 1
    return _by_side(won)


def _belotes(obs: Observation) -> list[View]:
    out = []
    suits_said: set[tuple[int, int]] = set()
    for s, card in obs.belote_said:
        key = (s, card >> 3)
        out.append({"seat": s, "card": card.code, "word": "rebelote" if key in suits_said else "belote"})
        suits_said.add(key)
    return out


def _heard(obs: Observation, seat: int | None, lang: str) -> dict[str, list[View]]:
    """Announcements as the table heard them (their nature, FFB §8.2; points only where the nature tells them),
    the viewer's own in full."""
    heard: dict[str, list[View]] = {}
    for s, declared in obs.heard.items():
        if declared:
            heard[str(s)] = [
                {"kind": d.kind, "points": d.points, "label": tr(f"common.announcement.{d.kind}", lang)}
                for d in declared
            ]
    if obs.declared and obs.contract is not None:
        strain, values = obs.contract.strain, obs.rules.announcement_values
        heard[str(obs.seat)] = [
            {"kind": a.kind, "points": a.points(strain, values), "label": tr(f"common.announcement.{a.kind}", lang)}
            for a in obs.declared
        ]
    return heard


def score_lines(score: DealScore, lang: str) -> list[View]:
    """Each term of the score (the rounding included), so that the lines add up to the marks; a term that
    sums or multiplies others says how (``detail``: ``(chute 160 + contrat 100) × 2``)."""
    return [
        {"side": line.side, "label": line.label(lang), "points": line.points, "detail": _detail(line, lang)}
        for line in score.lines
    ]


def _detail(line: ScoreLine, lang: str) -> str:
    terms = " + ".join(f"{part.label(lang)} {part.points}" for part in line.parts)
    if line.factor > 1:
        return f"({terms}) × {line.factor}" if len(line.parts) > 1 else f"{terms} × {line.factor}"
    return terms if len(line.parts) > 1 else ""


def _result(game: TableGame, obs: Observation, lang: str) -> View:
    result = obs.result
    assert result is not None
    if result.passed_out or result.score is None:
        return {"passed_out": True}
    score = result.score
    deal = game.deal
    # Every card of a played deal has been seen by the end: the hands as dealt are public now.
    hands = {str(s): hand_order(deal.initial_hands[s], deal.strain) for s in range(game.rules.players)}
    return {
        "passed_out": False,
        "outcome": score.outcome,
        "takers": score.takers,
        "card_points": _by_side(result.card_points),
        "belote": _by_side(result.belote),
        "announcements": _by_side(result.announcements),
        "totals": _by_side(score.totals),
        "lines": score_lines(score, lang),
        "marks": _by_side(score.marks),
        "held": score.held,
        "hands": hands,
        "contract": contract_data(deal),
    }
