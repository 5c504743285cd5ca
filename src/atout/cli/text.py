"""Player-facing text for a deal: hands, contract, score, in French or English."""

from __future__ import annotations

from atout.cards import sorted_for_display
from atout.deal import Deal
from atout.notation import seat_name
from atout.record import side_label
from atout.scoring import DealScore
from atout.solver.analysis import CardAnalysis

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


def deal_summary(deal: Deal, lang: str = "fr", hands: bool = True) -> str:
    """A short report of a finished deal (with every hand as dealt, unless ``hands`` is false)."""
    rules = deal.rules
    out = []
    if hands:
        for seat in range(rules.players):
            out.append(f"{seat_name(rules, seat, lang):>6}: {hand_text(deal.initial_hands[seat], deal.strain, lang)}")
    result = deal.result
    if result is None:
        return "\n".join(out)
    if result.passed_out or result.score is None:
        out.append(OUTCOMES[lang]["passed"])
        return "\n".join(out)
    contract = deal.contract
    assert contract is not None
    by = "par" if lang == "fr" else "by"
    out.append(
        f"{'Contrat' if lang == 'fr' else 'Contract'}: {contract.label(lang)} {by} "
        f"{seat_name(rules, contract.taker, lang)} — {OUTCOMES[lang][result.score.outcome]}"
    )
    points = ", ".join(f"{side_name(deal, s, lang)} {v}" for s, v in result.card_points.items())
    out.append(f"{'Points des plis' if lang == 'fr' else 'Card points'}: {points}")
    out.extend(score_lines(deal, result.score, lang))
    return "\n".join(out)


def analysis_lines(deal: Deal, analysis: list[CardAnalysis], lang: str = "fr") -> list[str]:
    """One line per card played: value, best value, cost; then each side's total cost."""
    fr = lang == "fr"
    head = (
        ("Pli", "Joueur", "Carte", "Valeur", "Meilleure", "Coût", "Meilleures cartes")
        if fr
        else ("Trick", "Seat", "Card", "Value", "Best", "Cost", "Best cards")
    )
    lines = ["{:>5}  {:<6}  {:<5}  {:>6}  {:>9}  {:>4}  {}".format(*head)]
    lost: dict[int, int] = {}
    for a in analysis:
        best = " ".join(c.label(lang) for c in a.best_cards)
        mark = ("  ← erreur" if fr else "  ← mistake") if a.mistake else ""
        lines.append(
            f"{a.trick:>5}  {seat_name(deal.rules, a.seat, lang):<6}  {a.card.label(lang):<5}  "
            f"{a.value:>6}  {a.best:>9}  {a.cost:>4}  {best}{mark}"
        )
        side = deal.rules.side_of(a.seat)
        lost[side] = lost.get(side, 0) + a.cost
    for side, points in sorted(lost.items()):
        word = "points perdus" if fr else "points lost"
        mistakes = sum(1 for a in analysis if a.mistake and deal.rules.side_of(a.seat) == side)
        errors = "erreur(s)" if fr else "mistake(s)"
        lines.append(f"{side_name(deal, side, lang)}: {points} {word}, {mistakes} {errors}")
    return lines
