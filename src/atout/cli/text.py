"""Player-facing text for a deal: hands, contract, score, in French or English."""

from __future__ import annotations

from atout.cards import sorted_for_display
from atout.deal import Deal
from atout.notation import seat_name
from atout.record import side_label
from atout.scoring import DealScore

OUTCOMES = {
    "fr": {"made": "contrat réussi", "chute": "contrat chuté", "litige": "litige", "passed": "tout le monde passe"},
    "en": {"made": "contract made", "chute": "contract failed", "litige": "tie (litige)", "passed": "all passed"},
}


def hand_text(mask: int, strain: int | None = None, lang: str = "fr") -> str:
    """A hand grouped by suit, strongest first: ``V♥ 9♥ A♥  R♠ 10♠ ...``."""
    groups: dict[int, list[str]] = {}
    for card in sorted_for_display(mask, strain):
        groups.setdefault(card >> 3, []).append(card.label(lang))
    return "  ".join(" ".join(cards) for cards in groups.values()) or "-"


def side_name(deal_or_rules: Deal, side: int, lang: str = "fr") -> str:
    rules = deal_or_rules.rules
    if rules.players == 4:
        return side_label(rules, side)
    return seat_name(rules, side, lang)


def score_lines(deal: Deal, score: DealScore, lang: str = "fr") -> list[str]:
    """The score of a deal, term by term, then the marks."""
    lines = []
    for line in score.lines:
        lines.append(f"  {side_name(deal, line.side, lang)}: {line.label(lang)} {line.points:+d}")
    marks = ", ".join(f"{side_name(deal, s, lang)} {v}" for s, v in score.marks.items())
    word = "Marques" if lang == "fr" else "Marks"
    lines.append(f"  {word}: {marks}")
    if score.held:
        held = "points en litige" if lang == "fr" else "points held (litige)"
        lines.append(f"  {score.held} {held}")
    return lines


def deal_summary(deal: Deal, lang: str = "fr") -> str:
    """A short report of a finished deal."""
    rules = deal.rules
    out = []
    hands = deal.initial_hands
    for seat in range(rules.players):
        out.append(f"{seat_name(rules, seat, lang):>6}: {hand_text(hands[seat], deal.strain, lang)}")
    result = deal.result
    if result is None:
        return "\n".join(out)
    if result.passed_out or result.score is None:
        out.append(OUTCOMES[lang]["passed"])
        return "\n".join(out)
    contract = deal.contract
    assert contract is not None
    by = "par" if lang == "fr" else "by"
    out.append(f"{'Contrat' if lang == 'fr' else 'Contract'}: {contract.label(lang)} {by} "
               f"{seat_name(rules, contract.taker, lang)} — {OUTCOMES[lang][result.score.outcome]}")
    points = ", ".join(f"{side_name(deal, s, lang)} {v}" for s, v in result.card_points.items())
    out.append(f"{'Points des plis' if lang == 'fr' else 'Card points'}: {points}")
    out.extend(score_lines(deal, result.score, lang))
    return "\n".join(out)
