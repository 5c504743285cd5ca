"""Player-facing text for a deal: seats, sides, contract, score, analysis, in the player's language.

Every sentence comes from the message catalogue (:mod:`atout.i18n`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from atout.actions import Action, Bid, Coinche, Pass, Surcoinche, Take, strain_words
from atout.auction import Contract
from atout.cards import sorted_for_display
from atout.deal import Deal
from atout.i18n import messages, normalize, plural, tr
from atout.notation import seat_name
from atout.record import side_label
from atout.rules import Ruleset
from atout.scoring import DealScore, ScoreLine

if TYPE_CHECKING:
    from atout.solver.analysis import CardAnalysis


#: The scorings of belote contrée, whose players « contrent » (X) and « surcontrent » (XX) where coinche's coinchent.
CONTREE_SCORINGS = ("faits_annonces", "faits", "annonces")


def doubling(rules: Ruleset) -> str:
    """What a variant calls X: ``contre`` in belote contrée (contrer, contré, surcontré), else ``coinche``
    (coincher, coinché, surcoinché); the catalogue keys its words by it."""
    return "contre" if rules.scoring in CONTREE_SCORINGS else "coinche"


def preset_name(rules: Ruleset, lang: str) -> str:
    """The variant's name in words (« Belote contrée »), or its id when it is none of the presets."""
    key = f"text.preset.{rules.name}"
    return tr(key, lang) if key in messages(normalize(lang)) else rules.name


def side_name(rules: Ruleset, side: int, lang: str) -> str:
    """``Nord–Sud`` / ``North–South`` for a partnership, a seat's name when each plays for himself."""
    if rules.players == 4:
        return tr(f"common.side.{side_label(rules, side)}", lang)
    return seat_name(rules, side, lang)


def bid_words(value: int, strain: int, capot: bool, lang: str) -> str:
    """A bid with its suit's symbol and name: ``90 ♥ (cœur)``, ``capot ♠ (pique)``; without a value nor capot,
    the trump of a taking auction: ``atout cœur``."""
    if not value and not capot:
        return tr("text.trump", lang, strain=strain_words(strain))
    return tr("text.bid", lang, bid=Bid(value, strain, capot).label(lang), strain=strain_words(strain))


def call_words(rules: Ruleset, action: Action, lang: str) -> str:
    """A call as the table hears it: ``passe``, ``90 ♥ (cœur)``, ``coinche`` (contrée: ``contre``), ``prend à cœur``."""
    if isinstance(action, Bid):
        return bid_words(action.value, action.strain, action.capot, lang)
    if isinstance(action, Take):
        return tr("text.take", lang, strain=strain_words(action.suit))
    if isinstance(action, Pass):
        return tr("text.pass", lang)
    if isinstance(action, (Coinche, Surcoinche)):
        return tr(f"text.{doubling(rules)}.{'xx' if isinstance(action, Surcoinche) else 'x'}", lang)
    return action.label(lang)


def contract_text(
    rules: Ruleset, contract: Contract, lang: str, taker: str | None = None, *, standing: bool = False
) -> str:
    """The contract, who took it, who coinched and surcoinched it: « 120 ♥ (cœur) pris par Sud, coinché par Ouest ».

    ``taker`` names the takers (default: the taker's seat; the score keeper gives a side's name);
    ``standing``: the auction is not over (« 120 ♥ (cœur) par Sud »).
    """
    what = bid_words(contract.value, contract.strain, contract.capot, lang)
    key = "text.bid_by" if standing else "text.taken_by"
    text = tr(key, lang, contract=what, taker=taker or seat_name(rules, contract.taker, lang))
    for call, level, seat in (("x", 1, contract.coinched_by), ("xx", 2, contract.surcoinched_by)):
        if contract.level >= level:
            key = f"text.{doubling(rules)}.{call}_done{'_by' if seat is not None else ''}"
            text += tr(key, lang, seat=_seat(rules, seat, lang))
    return text


def _seat(rules: Ruleset, seat: int | None, lang: str) -> str:
    return "" if seat is None else seat_name(rules, seat, lang)


def hand_text(mask: int, strain: int | None, lang: str) -> str:
    """A hand grouped by suit, strongest first: ``V♥ 9♥ A♥  R♠ 10♠ ...``."""
    groups: dict[int, list[str]] = {}
    for card in sorted_for_display(mask, strain):
        groups.setdefault(card.suit, []).append(card.label(lang))
    return "  ".join(" ".join(cards) for cards in groups.values()) or "-"


def sides_text(rules: Ruleset, values: dict[int, int], lang: str) -> str:
    """``Nord–Sud 180, Est–Ouest 70``."""
    return ", ".join(f"{side_name(rules, s, lang)} {v}" for s, v in values.items())


def score_line(rules: Ruleset, line: ScoreLine, lang: str) -> str:
    """One term of a score; a sum shows its terms, multiplied or not:
    ``Chute × 2 : (chute 160 + contrat 100) × 2 = +520``, ``Points : points des plis 105 + annonces 20 = +125``."""
    side = side_name(rules, line.side, lang)
    parts = " + ".join(f"{part.label(lang)} {part.points}" for part in line.parts)
    values = {"side": side, "what": line.label(lang), "parts": parts, "points": signed(line.points)}
    if line.factor > 1:
        return tr("text.product", lang, factor=line.factor, **values)
    return tr("text.sum" if len(line.parts) > 1 else "text.term", lang, **values)


def signed(points: int) -> str:
    """``+20``, ``−4`` (a true minus sign)."""
    return f"{points:+d}".replace("-", "−")


def score_lines(rules: Ruleset, score: DealScore, lang: str) -> list[str]:
    """The score of a deal, term by term (they add up to the marks), then the marks."""
    lines = [score_line(rules, line, lang) for line in score.lines]
    lines.append(tr("text.marks", lang, marks=sides_text(rules, score.marks, lang)))
    if score.held:
        lines.append(tr("text.held", lang, points=score.held))
    return lines


def deal_summary(deal: Deal, lang: str, hands: bool = True) -> str:
    """A short report of a deal (with every hand as dealt, unless ``hands`` is false); an unfinished
    deal says so."""
    rules = deal.rules
    out = []
    if hands:
        width = max(len(seat_name(rules, s, lang)) for s in range(rules.players))
        for seat in range(rules.players):
            name = seat_name(rules, seat, lang)
            out.append(
                tr(
                    "text.hand",
                    lang,
                    seat=name.rjust(width),
                    hand=hand_text(deal.initial_hands[seat], deal.strain, lang),
                )
            )
    result = deal.result
    if result is None:
        played = sum(len(t.cards) for t in deal.tricks) + len(deal.current_trick)
        out.append(tr("text.unfinished", lang, played=plural("text.cards_played", played, lang)))
        return "\n".join(out)
    if result.passed_out or result.score is None:
        out.append(tr("text.outcome.passed", lang))
        return "\n".join(out)
    contract = deal.contract
    assert contract is not None
    outcome = tr(f"text.outcome.{result.score.outcome}", lang)
    out.append(tr("text.contract", lang, contract=contract_text(rules, contract, lang), outcome=outcome))
    out.append(tr("text.card_points", lang, points=sides_text(rules, result.card_points, lang)))
    out.extend("  " + line for line in score_lines(rules, result.score, lang))
    return "\n".join(out)


def analysis_lines(deal: Deal, analysis: list[CardAnalysis], lang: str) -> list[str]:
    """The columns' heads, one line per card played (value, best value, cost), then each side's total
    (``text.analysis.legend`` says what the columns mean)."""
    rules = deal.rules
    lines = []
    head = [tr(f"text.analysis.{c}", lang) for c in ("trick", "seat", "card", "value", "best", "cost", "best_cards")]
    lines.append("{:>5}  {:<6}  {:<5}  {:>6}  {:>9}  {:>4}  {}".format(*head))
    lost: dict[int, int] = {}
    mistakes: dict[int, int] = {}
    for a in analysis:
        best = " ".join(c.label(lang) for c in a.best_cards)
        mark = tr("text.analysis.mistake", lang) if a.mistake else ""
        lines.append(
            f"{a.trick:>5}  {seat_name(rules, a.seat, lang):<6}  {a.card.label(lang):<5}  "
            f"{a.value:>6}  {a.best:>9}  {a.cost:>4}  {best}{mark}"
        )
        side = rules.side_of(a.seat)
        lost[side] = lost.get(side, 0) + a.cost
        mistakes[side] = mistakes.get(side, 0) + a.mistake
    for side, points in sorted(lost.items()):
        lines.append(
            tr(
                "text.analysis.total",
                lang,
                side=side_name(rules, side, lang),
                points=plural("text.points_lost", points, lang),
                mistakes=plural("text.mistakes", mistakes[side], lang),
            )
        )
    return lines
