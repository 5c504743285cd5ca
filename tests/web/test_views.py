"""What the table and the replay show of a deal's score: every term, its detail, the rounding."""

from __future__ import annotations

import pytest

from atout import Contract, DealFacts, Ruleset
from atout.i18n import Message
from atout.scoring import score_deal
from atout.web.actor import Refused
from atout.web.serialize import score_lines
from atout.web.service import table_rules


def test_a_coinched_fall_shows_what_is_multiplied() -> None:
    """100 ♥ coinched, takers 60, a belote for the defence: (160 + 20 + 100) × 2 = 560 (FFB coinche §10.1.2)."""
    rules = Ruleset.preset("coinche")
    score = score_deal(rules, DealFacts(Contract(100, 1, 0, 1), {0: 60, 1: 102}, belote={1: 20}))
    assert [line.wire() for line in score_lines(score, "fr")] == [
        {
            "side": 1,
            "label": "Chute × 2",
            "points": 560,
            "detail": "(Chute 160 + Belote de la défense 20 + Contrat 100) × 2",
        }
    ]
    assert score_lines(score, "en")[0].detail == "(fall 160 + the defence's belote 20 + contract 100) × 2"


def test_the_rounding_is_a_line_that_makes_the_sheet_add_up() -> None:
    """80 ♥ made with 95: 95 + 80 = 175, rounded to 180; the defence's 67 to 70 (FFB coinche §10.2)."""
    rules = Ruleset.preset("coinche")
    score = score_deal(rules, DealFacts.from_takers_points(rules, Contract(80, 1, 0), 95))
    lines = score_lines(score, "en")
    for side, marks in score.marks.items():
        assert sum(line.points for line in lines if line.side == side) == marks
    assert [line.points for line in lines if line.label == "rounding"] == [5, 3]
    assert all(line.detail == "" for line in lines if line.label == "rounding")


def test_a_refused_ruleset_says_why_in_the_hosts_language() -> None:
    """The rules core's reason, in the language of whoever reads the refusal (not the server's)."""
    with pytest.raises(Refused) as refused:
        table_rules("classique", {"sans_atout": True, "tout_atout": True})
    message = Message(refused.value.key, **refused.value.values)
    assert message.message("fr").startswith("Règles refusées\u00a0: le sans atout et le tout atout demandent")
    assert message.message("en").startswith("Rules refused: sans atout / tout atout need the bidding auction")
