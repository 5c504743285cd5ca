"""The double-dummy analyser and the `atout analyse` command."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from atout import AtoutError, Deal, Ruleset
from atout.cli import main
from atout.record import Record
from atout.solver.analysis import analyse


def played_deal(seed: int = 21) -> Deal:
    rules = Ruleset.preset("coinche")
    deal = Deal.new(rules, dealer=0, seed=seed)
    for call in ("100H", "P", "P", "P"):
        deal.apply(call)
    rng = random.Random(seed)
    while deal.turn is not None:
        deal.apply(rng.choice(deal.legal_actions()))
    return deal


def test_every_card_is_analysed_with_a_cost_of_zero_or_more() -> None:
    deal = played_deal()
    analysis = analyse(deal)
    assert len(analysis) == 32
    assert [a.card for a in analysis] == [c for t in deal.tricks for c in t.cards]
    for a in analysis:
        assert 0 <= a.value <= a.best and a.cost == a.best - a.value
        assert a.card in a.best_cards or a.mistake
        assert a.choices >= 1
    assert any(a.mistake for a in analysis)  # random play makes mistakes


def test_the_last_cards_cannot_be_mistakes() -> None:
    for a in analyse(played_deal(22))[-4:]:
        assert a.choices == 1 and a.cost == 0


def test_positions_without_history_are_refused() -> None:
    deal = Deal.from_position("coinche N play A7.../.A7../..A7./...A7 80S@N N:- 108,0 6,0 -;0,0,0,0 =0,0 -")
    with pytest.raises(AtoutError, match="history"):
        analyse(deal)


def test_analyse_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deal = played_deal()
    path = tmp_path / "deal.txt"
    path.write_text(Record.from_deal(deal).to_text(), encoding="utf-8")
    assert main(["analyse", str(path), "--lang", "en"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Value: the card points") and out[1].startswith("Best:")  # the columns explained
    assert out[2].split()[:3] == ["Trick", "Seat", "Card"]
    assert len(out) == 2 + 1 + 32 + 2
    mistakes = sum(1 for a in analyse(deal) if a.mistake)
    assert sum("mistake" in line and "←" in line for line in out) == mistakes
    assert main(["analyse", str(tmp_path / "missing.txt")]) == 2
