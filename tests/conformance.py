"""Invariants every deal of every ruleset must satisfy, checked while playing it at random.

Used by the random-play conformance test (every preset and option combination)
and by the hypothesis property tests.
"""

from __future__ import annotations

import random

from atout import Deal, IllegalAction, Phase, Ruleset
from atout.actions import PLAYS, Action
from atout.auction import new_auction
from atout.cards import deck_mask
from atout.record import Record
from atout.scoring import score_deal
from atout.tables import play_mode


def max_actions(rules: Ruleset) -> int:
    """The most actions a deal can take: every bid of the ladder, each followed by passes, a coinche and a
    surcoinche; then one declaration and one card a trick for each player."""
    calls = len(new_auction(rules, 0, 0).legal())
    return rules.players * (calls + 3) + rules.players * (rules.hand_size + 1)


def first_card(seed: int = 12) -> Deal:
    """A coinche deal taken at 80 hearts by North, with everyone's announcements waived: North to
    lead the first card."""
    deal = Deal.new(Ruleset.preset("coinche"), dealer=0, seed=seed)
    for call in ("80H", "P", "P", "P"):
        deal.apply(call)
    while deal.must_declare:
        deal.apply("ann:-")
    return deal


def play_random_deal(rules: Ruleset, seed: int, *, dealer: int = 0, check_every_step: bool = True) -> Deal:
    """Play one deal with uniformly random legal actions, checking the invariants on the way."""
    rng = random.Random(seed)
    deal = Deal.new(rules, dealer=dealer % rules.players, seed=seed)
    steps = 0
    while deal.phase is not Phase.DONE:
        legal = deal.legal_actions()
        assert legal, f"no legal action in {deal.position()}"
        assert len(set(legal)) == len(legal), "duplicate legal actions"
        if check_every_step:
            check_step(deal, legal, rng)
        deal.apply(rng.choice(legal))
        steps += 1
        assert steps <= max_actions(rules), "the deal does not terminate"
    check_finished(deal)
    return deal


def check_step(deal: Deal, legal: list[Action], rng: random.Random) -> None:
    seat = deal.turn
    assert seat is not None
    obs = deal.observation(seat)
    assert obs.legal_actions() == legal, "the observation's legal actions differ from the deal's"
    text = deal.position()
    assert Deal.from_position(text).position() == text, "position string does not round-trip"
    if deal.phase is Phase.PLAY and not obs.to_declare:
        illegal = [PLAYS[c] for c in range(32) if PLAYS[c] not in legal]
        if illegal:
            try:
                deal.apply(rng.choice(illegal))
            except IllegalAction as err:
                assert err.message("fr") and err.message("en") and err.code
            else:
                raise AssertionError("an illegal card was accepted")
            assert deal.position() == text, "an illegal action changed the deal"


def check_finished(deal: Deal) -> None:
    rules = deal.rules
    result = deal.result
    assert result is not None
    record = Record.from_deal(deal)
    text = record.to_text()
    assert Record.from_text(text).to_text() == text
    assert Record.from_json(record.to_json()).to_json() == record.to_json()
    if result.passed_out:
        return
    assert deal.contract is not None and result.score is not None and result.facts is not None
    played = [c for t in deal.tricks for c in t.cards]
    assert len(played) == len(set(played)) == rules.players * rules.hand_size, "each card is played once"
    initial = 0
    for hand in deal.initial_hands:
        initial |= hand
    assert sum(1 << c for c in played) == initial
    assert initial & ~deck_mask(rules.short_deck) == 0
    assert sum(result.tricks.values()) == rules.hand_size
    total = sum(result.card_points.values())
    if result.score.capot is not None:
        assert total == rules.capot_points
    else:
        mode = play_mode(deal.contract.strain, rules.ta_values)
        in_play = sum(mode.points[c] for c in played)
        assert total == in_play + 10
        if rules.players * rules.hand_size == (24 if rules.short_deck else 32):
            assert total == 162
    assert score_deal(rules, result.facts) == result.score, "the score is not a function of the facts"
    assert all(v >= 0 for v in result.score.marks.values())
    if result.score.outcome == "made":
        takers = result.score.takers
        assert result.score.totals[takers] >= deal.contract.value


def played(preset: str = "coinche", seed: int = 3) -> Deal:
    """A deal of ``preset`` played to its end with random legal actions (seat 1 deals)."""
    return play_random_deal(Ruleset.preset(preset), seed, dealer=1, check_every_step=False)


def plain(text: str) -> str:
    """The text with French typography's no-break spaces as plain ones (test_i18n checks the typography)."""
    return text.replace("\u00a0", " ").replace("\u202f", " ")
