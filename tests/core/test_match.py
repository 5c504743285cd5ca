"""Matches: dealer rotation, litige carried over, undo and edit, tolerance, traditional deal."""

from __future__ import annotations

import random
import statistics

import pytest

from atout import AtoutError, Contract, Deal, DealFacts, Match, Ruleset

#: The error messages these tests read are the English ones.
pytestmark = pytest.mark.usefixtures("english")

HANDS = ["AKQJT987...", ".AKQJT987..", "..AKQJT987.", "...AKQJT987"]


def facts(rules: Ruleset, value: int, taker: int, points: int, **kw: object) -> DealFacts:
    return DealFacts.from_takers_points(rules, Contract(value, 1, taker), points, **kw)  # type: ignore[arg-type]


def test_dealer_moves_on_after_every_deal_even_a_void_one() -> None:
    """The next dealer is the next seat, also after four passes (FFB coinche §3.1, §4.1)."""
    rules = Ruleset.preset("coinche")
    match = Match(rules, first_dealer=2)
    deal = match.new_deal()
    assert deal.dealer == 2
    for _ in range(4):
        deal.apply("P")
    match.record(deal)
    assert match.dealer == 3 and match.scores == {0: 0, 1: 0}
    match.add_facts(None)
    assert match.dealer == 0


def test_litige_points_go_to_the_next_made_contract() -> None:
    """81-81: the defence scores 81 now, the takers' 81 go to whoever makes the next contract (FFB §10.1.3)."""
    rules = Ruleset.preset("coinche", rounding="none")
    match = Match(rules)
    entry = match.add_facts(facts(rules, 80, 0, 81))
    assert entry.score is not None and entry.score.outcome == "litige"
    assert match.scores == {0: 0, 1: 81} and match.held == 81
    match.add_facts(facts(rules, 80, 1, 50))  # a fall: nobody made a contract, the 81 wait
    assert match.held == 81
    match.add_facts(facts(rules, 80, 1, 100))  # East-West make it
    assert match.held == 0 and match.scores[1] == 81 + (100 + 80) + 81


def test_classique_litige_goes_to_the_next_deals_winner() -> None:
    rules = Ruleset.preset("classique", litige="next_winner")
    match = Match(rules)
    match.add_facts(DealFacts.from_takers_points(rules, Contract(0, 1, 0), 81))
    assert match.held == 81
    match.add_facts(DealFacts.from_takers_points(rules, Contract(0, 1, 0), 60))  # a fall: defence wins
    assert match.held == 0 and match.scores == {0: 0, 1: 81 + 162 + 81}


def test_undo_and_edit_the_last_deal() -> None:
    rules = Ruleset.preset("coinche")
    match = Match(rules)
    match.add_facts(facts(rules, 80, 0, 100))
    first = match.scores
    match.add_facts(facts(rules, 90, 1, 120))
    match.undo()
    assert match.scores == first and match.dealer == 1
    match.add_facts(facts(rules, 90, 1, 120))
    match.replace_last(facts(rules, 90, 1, 40))
    assert match.entries[-1].score is not None and match.entries[-1].score.outcome == "chute"
    with pytest.raises(AtoutError):
        match.replace_last(DealFacts(Contract(80, 1, 7), {0: 81, 1: 81}))
    assert match.entries[-1].score is not None and match.entries[-1].score.outcome == "chute"
    with pytest.raises(AtoutError, match="no deal"):
        Match(rules).undo()


def test_fixed_number_of_deals_and_one_more_on_a_tie() -> None:
    rules = Ruleset.preset("coinche", deals=2, rounding="none")
    match = Match(rules)
    match.add_facts(facts(rules, 80, 0, 100))  # NS 180, EW 62
    match.add_facts(facts(rules, 80, 1, 100))  # EW 180, NS 62: tied at 242
    assert not match.finished
    match.add_facts(facts(rules, 80, 0, 100))
    assert match.winner == 0


#: North holds K♠ Q♠ (spades will be trump) and leads; the deck is split exactly.
TOLERANCE_HANDS = ["KQ.AKQ.AK.A", "AJT9.JT9.Q.", "87.87.JT98.", "..7.KQJT987"]


def test_belote_tolerance_counts_a_forgotten_rebelote_once_per_side() -> None:
    """FFB, *Règles de la coinche*, older wording: a forgotten « rebelote » is tolerated once per side and match."""
    strict = Ruleset.preset("coinche", rounding="none")
    scores = {}
    for rules in (strict, strict.replace(belote_tolerance=True)):
        match = Match(rules, first_dealer=3)
        deal = Deal.from_hands(rules, TOLERANCE_HANDS, dealer=3)
        _play_forgetting_rebelote(deal)
        assert deal.result is not None and deal.result.forgotten_rebelote == {0: 1, 1: 0}
        match.record(deal)
        scores[rules.belote_tolerance] = match.scores
    assert scores[True][0] == scores[False][0] + 20


def _play_forgetting_rebelote(deal: Deal) -> None:
    """North takes in spades, says belote with the king, forgets rebelote with the queen."""
    for call in ("80S", "P", "P", "P"):
        deal.apply(call)
    rng = random.Random(0)
    while deal.turn is not None:
        legal = deal.legal_actions()
        by_code = {a.notation(): a for a in legal}
        if deal.turn == 0 and "KS!" in by_code:
            deal.apply(by_code["KS!"])
        elif deal.turn == 0 and "QS" in by_code:
            deal.apply(by_code["QS"])
        else:
            deal.apply(rng.choice([a for a in legal if not a.notation().endswith("!")]))


def test_record_checks_rules_and_dealer() -> None:
    match = Match(Ruleset.preset("coinche"))
    other = Deal.new(Ruleset.preset("contree"), dealer=0, seed=1)
    for _ in range(4):
        other.apply("P")
    with pytest.raises(AtoutError, match="other rules"):
        match.record(other)
    wrong = Deal.new(Ruleset.preset("coinche"), dealer=1, seed=1)
    for _ in range(4):
        wrong.apply("P")
    with pytest.raises(AtoutError, match="dealt by seat 1"):
        match.record(wrong)
    unfinished = match.new_deal()
    with pytest.raises(AtoutError, match="finished"):
        match.record(unfinished)


def _shape_stats(traditional: bool, deals: int = 150) -> tuple[float, float]:
    rules = Ruleset.preset("coinche", traditional_deal=traditional, deals=1000)
    match = Match(rules, seed=1)
    rng = random.Random(1)
    voids, longest = [], []
    for _ in range(deals):
        deal = match.new_deal()
        for hand in deal.dealt.hands:
            lengths = [((hand >> (8 * s)) & 255).bit_count() for s in range(4)]
            voids.append(lengths.count(0))
            longest.append(max(lengths))
        while deal.turn is not None:
            deal.apply(rng.choice(deal.legal_actions()))
        match.record(deal)
    return statistics.mean(voids), statistics.mean(longest)


def test_traditional_deal_gives_more_voids_and_longer_suits() -> None:
    """Gathering the tricks and cutting without shuffling (the online game's coinche) skews the hands."""
    shuffled = _shape_stats(False)
    traditional = _shape_stats(True)
    assert traditional[0] > shuffled[0] + 0.08
    assert traditional[1] > shuffled[1] + 0.08


def _after_a_deal_nobody_took(rules: Ruleset) -> tuple[Match, Deal, Deal]:
    match = Match(rules, seed=5)
    passed = match.new_deal()
    while passed.turn is not None:
        passed.apply("P")
    assert passed.result is not None and passed.result.passed_out
    match.record(passed)
    return match, passed, match.new_deal()


def test_classique_deal_nobody_took_is_recut_not_shuffled() -> None:
    """Classique: nobody takes in the second round → « les joueurs rendent leurs cartes, on recoupe et on
    redistribue » (*Règles de la belote classique*): the next dealer cuts the cards given back and deals them,
    unshuffled (redeal = "recut"); FFB coinche shuffles before every deal (§3: « Le mélange du jeu est obligatoire
    avant chaque distribution »)."""
    classique = Ruleset.preset("classique")
    assert classique.redeal == "recut" and Ruleset.preset("coinche").redeal == "shuffle"
    for rules, recut in ((classique, True), (classique.replace(redeal="shuffle"), False)):
        match, passed, following = _after_a_deal_nobody_took(rules)
        assert following.dealer == (passed.dealer + 1) % rules.players
        seed = match.deal_seed(1)
        given_back = Deal.new(rules, dealer=following.dealer, seed=seed, deck=passed.gathered_deck())
        shuffled = Deal.new(rules, dealer=following.dealer, seed=seed)
        assert following.dealt == (given_back.dealt if recut else shuffled.dealt)
        assert given_back.dealt != shuffled.dealt


def test_deal_facts_round_trip_and_reject_corrupt_data() -> None:
    facts = DealFacts(Contract(100, 2, 1, level=2), {0: 60, 1: 102}, {1: 20}, {0: 50}, None, {0: 3, 1: 5})
    assert DealFacts.from_dict(facts.to_dict()) == facts
    broken = facts.to_dict()
    broken["card_points"] = {"0": "many"}
    with pytest.raises(AtoutError, match="facts are corrupt"):
        DealFacts.from_dict(broken)
    with pytest.raises(AtoutError, match="facts are corrupt"):
        DealFacts.from_dict({"card_points": {}})
