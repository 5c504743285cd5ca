"""A deal's score, term by term: the lines add up to the marks, each multiplied line shows what it multiplies."""

from __future__ import annotations

import random

import pytest

from atout import Contract, Deal, DealFacts, Ruleset
from atout.rules import PRESETS
from atout.scoring import DealScore, score_deal


def adds_up(score: DealScore) -> None:
    for side, marks in score.marks.items():
        assert sum(line.points for line in score.lines if line.side == side) == marks
    for line in score.lines:
        if line.parts:
            assert sum(part.points for part in line.parts) * line.factor == line.points


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_lines_of_random_deals_add_up_to_the_marks(preset: str) -> None:
    rules = Ruleset.preset(preset)
    for seed in range(30):
        rng = random.Random(seed)
        deal = Deal.new(rules, dealer=seed % rules.players, seed=seed)
        while deal.turn is not None:
            deal.apply(rng.choice(deal.legal_actions()))
        if deal.result is not None and deal.result.score is not None:
            adds_up(deal.result.score)


def test_a_coinched_fall_shows_its_terms_and_its_multiplier() -> None:
    """100 ♥ coinched, takers 60, a belote for the defence: (160 + 20 + 100) × 2 = 560 (FFB coinche §10.1.2)."""
    rules = Ruleset.preset("coinche")
    score = score_deal(rules, DealFacts(Contract(100, 1, 0, 1), {0: 60, 1: 102}, belote={1: 20}))
    (line,) = score.lines
    assert line.side == 1 and line.points == 560 and line.factor == 2
    assert [(p.label("en"), p.points) for p in line.parts] == [
        ("fall", 160),
        ("the defence's belote", 20),
        ("contract", 100),
    ]
    adds_up(score)


def test_the_rounding_is_a_line_of_its_own() -> None:
    """80 ♥ made with 95: 95 + 80 = 175, rounded to 180; the defence's 67 to 70 (FFB coinche §10.2)."""
    rules = Ruleset.preset("coinche")
    score = score_deal(rules, DealFacts.from_takers_points(rules, Contract(80, 1, 0), 95))
    rounding = {line.side: line.points for line in score.lines if line.rounding}
    assert rounding == {0: 5, 1: 3} and score.marks == {0: 180, 1: 70}
    assert [line.label("fr") for line in score.lines if line.rounding] == ["Arrondi", "Arrondi"]
