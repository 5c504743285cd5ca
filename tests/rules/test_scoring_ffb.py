"""FFB coinche scoring: §4.2, §9 (dix de der, capot), §10.1.1 (made), §10.1.2 (chute), §10.1.3 (litige),
§10.2 (rounding). Takers are side 0 (seat 0) unless said otherwise; hearts are trump."""

import pytest
from rulebook import autoplay, deal_from_hands, facts, score

from atout import Contract, Match, Ruleset

COINCHE = Ruleset.preset("coinche")


def C(value, level=0, capot=False, taker=0, strain=1):
    return Contract(value, strain, taker, level=level, capot=capot)


# --------------------------------------------------------------------------- §9


def test_capot_last_trick_worth_100_total_252():
    """Capot: one side takes all eight tricks, the dix de der is worth 100, 252 in all (FFB coinche §9.2)."""
    hands = [".AKQJT987..", "..AKQJT987.", "AKQJT987...", "...AKQJT987"]
    deal = deal_from_hands(hands)
    autoplay(deal)
    assert deal.result.tricks == {0: 8, 1: 0}
    assert deal.result.card_points == {0: 252, 1: 0}


def test_capot_deal_scores_252_announcements_belote_and_contract():
    """A capot made on an 80 bid: 252 + both partners' announcements (cent + tierce each, the trump cent wins
    the resolution) + belote + 80 (FFB coinche §8.3, §9.2, §10.1.1, §10.2)."""
    hands = [".AKQJT987..", "..AKQJT987.", "AKQJT987...", "...AKQJT987"]
    deal = deal_from_hands(hands)
    autoplay(deal)
    assert deal.result.announcements == {0: 240, 1: 0}
    assert deal.result.belote == {0: 20, 1: 0}
    assert deal.result.score.outcome == "made"
    assert deal.result.marks == {0: 590, 1: 0}  # 252 + 240 + 20 + 80 = 592 → 590


def test_capot_bid_deal_scores_252_plus_250():
    """A capot bid and made in play: 252 + announcements 240 + belote 20 + 250 = 762 → 760 (FFB coinche §9.2,
    §10.1.1, §10.2)."""
    hands = [".AKQJT987..", "..AKQJT987.", "AKQJT987...", "...AKQJT987"]
    deal = deal_from_hands(hands, ("capotH", "P", "P", "P"))
    autoplay(deal)
    assert deal.result.score.outcome == "made"
    assert deal.result.marks == {0: 760, 1: 0}


def test_coinched_capot_deal():
    """A coinched 80 made with a capot in play: (250 + 240 + 20 + 80) × 2 = 1180 (FFB coinche §10.1.1)."""
    hands = [".AKQJT987..", "..AKQJT987.", "AKQJT987...", "...AKQJT987"]
    deal = deal_from_hands(hands, ("80H", "X", "P", "P", "P"))
    assert deal.contract.level == 1
    autoplay(deal)
    assert deal.result.marks == {0: 1180, 1: 0}


def test_dix_de_der_from_facts_total_162():
    """Without capot the card points of both sides total 162 with the dix de der (FFB coinche §9.1)."""
    f = facts(COINCHE, C(80), 100)
    assert f.card_points == {0: 100, 1: 62}


# --------------------------------------------------------------------------- §10.1.1 made


def test_made_takers_score_total_plus_contract_defence_its_total():
    """Made: the takers score their total + the contract, the defence its total (FFB coinche §10.1.1):
    95 on 80 → 175 → 180, and 67 → 70."""
    result = score(COINCHE, C(80), 95)
    assert result.outcome == "made"
    assert result.marks == {0: 180, 1: 70}


def test_totals_include_belote_and_announcements():
    """Each side's total is its card points + belote + announcements (FFB coinche §4.2, §10.1)."""
    result = score(COINCHE, C(100), 85, announcements={0: 20})
    assert result.outcome == "made"
    assert result.totals == {0: 105, 1: 77}
    assert result.marks == {0: 210, 1: 80}  # 105 + 100 = 205 → 210


def test_takers_must_reach_the_bid():
    """The takers must reach or pass the bid (FFB coinche §4.2, §10.1.1)."""
    assert score(COINCHE, C(100), 100).outcome == "made"
    assert score(COINCHE, C(100), 99).outcome == "chute"


def test_takers_must_score_more_than_the_defence():
    """The takers must also score more than the defence (FFB coinche §4.2, §10.1.1): 80 on an 80 bid against
    82 fails."""
    result = score(COINCHE, C(80), 80)
    assert result.outcome == "chute"
    assert result.marks == {0: 0, 1: 240}


def test_capot_made_without_bid_scores_252_plus_contract():
    """A capot made on a numbered bid: 252 + the contract (FFB coinche §9.2, §10.1.1)."""
    assert score(COINCHE, C(80), capot="takers").marks == {0: 330, 1: 0}  # 332 → 330


def test_capot_takes_the_defences_announcements():
    """A capot made by the takers, bid or not, takes the defence's announcements (FFB coinche §10.1.1, « cas
    particulier »)."""
    result = score(COINCHE, C(80), capot="takers", announcements={1: 50})
    assert result.marks == {0: 380, 1: 0}  # 252 + 50 + 80 = 382 → 380
    result = score(COINCHE, C(0, capot=True), capot="takers", announcements={1: 20})
    assert result.marks == {0: 520, 1: 0}  # 252 + 20 + 250 = 522 → 520


def test_capot_bid_made_scores_250_as_contract():
    """A capot bid is worth 250 as a contract (FFB coinche §10.1.1): 252 + 250 = 502 → 500."""
    result = score(COINCHE, C(0, capot=True), capot="takers")
    assert result.outcome == "made"
    assert result.marks == {0: 500, 1: 0}


def test_coinched_made():
    """Coinched and made: the takers score (160 + their announcements + their belote + the contract) × 2, the
    defence nothing (FFB coinche §10.1.1): 100 coinched, tierce and belote → (160 + 20 + 20 + 100) × 2 = 600."""
    result = score(COINCHE, C(100, level=1), 110, announcements={0: 20}, belote={0: 20})
    assert result.outcome == "made"
    assert result.marks == {0: 600, 1: 0}


def test_coinched_made_takes_the_defences_announcements():
    """Coinched and made: the defence's announcements change hands (FFB coinche §10.1.1):
    (160 + 50 + 100) × 2 = 620."""
    result = score(COINCHE, C(100, level=1), 125, announcements={1: 50})
    assert result.outcome == "made"
    assert result.marks == {0: 620, 1: 0}


def test_surcoinched_made_times_four():
    """Surcoinched and made: × 4 (FFB coinche §4.1, §10.1.1): (160 + 100) × 4 = 1040."""
    result = score(COINCHE, C(100, level=2), 120)
    assert result.marks == {0: 1040, 1: 0}


def test_coinched_capot_counts_250_instead_of_160():
    """Coinched, the takers count 250 instead of 160 when they make a capot, even not bid
    (FFB coinche §10.1.1): (250 + 100) × 2 = 700; a coinched capot bid (250 + 250) × 2 = 1000."""
    assert score(COINCHE, C(100, level=1), capot="takers").marks == {0: 700, 1: 0}
    assert score(COINCHE, C(0, level=1, capot=True), capot="takers").marks == {0: 1000, 1: 0}


def test_option_surcoinche_multiplier():
    """Option surcoinche_multiplier (× 3 in some clubs): (160 + 100) × 3 = 780."""
    rules = COINCHE.replace(surcoinche_multiplier=3)
    assert score(rules, C(100, level=2), 120).marks == {0: 780, 1: 0}


# --------------------------------------------------------------------------- §10.1.2 chute


def test_chute_defence_scores_160_plus_contract():
    """Chute: the takers score nothing, the defence 160 + the contract (FFB coinche §10.1.2): 100 → 260."""
    result = score(COINCHE, C(100), 90)
    assert result.outcome == "chute"
    assert result.marks == {0: 0, 1: 260}


def test_chute_defence_takes_both_sides_announcements_and_its_belote():
    """Chute: the defence adds its announcements, its belote and the takers' announcements (FFB coinche
    §10.1.2): 160 + 20 (takers' tierce) + 20 (belote) + 100 = 300."""
    result = score(COINCHE, C(100), 70, announcements={0: 20}, belote={1: 20})
    assert result.outcome == "chute"
    assert result.marks == {0: 0, 1: 300}


def test_chute_of_a_capot_bid_gives_250_as_contract():
    """Chute of a capot bid: the defence scores 160 + 250 (FFB coinche §10.1.2)."""
    result = score(COINCHE, C(0, capot=True), 150)
    assert result.outcome == "chute"
    assert result.marks == {0: 0, 1: 410}


def test_capot_by_the_defence_is_a_chute():
    """The defence takes every trick: the takers fail, the defence scores 160 + the contract
    (FFB coinche §10.1.2)."""
    result = score(COINCHE, C(80), capot="defence")
    assert result.outcome == "chute"
    assert result.marks == {0: 0, 1: 240}


def test_coinched_chute_doubles():
    """Coinched chute: the defence doubles its points (FFB coinche §10.1.2): (160 + 100) × 2 = 520."""
    assert score(COINCHE, C(100, level=1), 90).marks == {0: 0, 1: 520}


def test_surcoinched_chute_quadruples():
    """Surcoinched chute: the defence quadruples its points (FFB coinche §10.1.2): (160 + 100) × 4 = 1040;
    with a cinquante of the defence (160 + 50 + 100) × 4 = 1240."""
    assert score(COINCHE, C(100, level=2), 90).marks == {0: 0, 1: 1040}
    assert score(COINCHE, C(100, level=2), 90, announcements={1: 50}).marks == {0: 0, 1: 1240}


def test_coinched_chute_takers_keep_their_belote():
    """Coinched chute: the takers keep their imprenable belote (FFB coinche §7, §10.1.2)."""
    result = score(COINCHE, C(120, level=1), 80, belote={0: 20})
    assert result.marks == {0: 20, 1: 560}


# --------------------------------------------------------------------------- §10.1.3 litige


def test_litige_defence_scores_its_points_takers_points_held():
    """Litige: equal totals (81-81): the defence scores its points, the takers' points are held for the next
    contract (FFB coinche §10.1.3, with §10.2 rounding: 81 → 80)."""
    result = score(COINCHE, C(80), 81)
    assert result.outcome == "litige"
    assert result.marks == {0: 0, 1: 80}
    assert result.held == 80


def test_litige_91_91_with_belote():
    """Litige 91-91 (a belote in play) (FFB coinche §10.1.3)."""
    result = score(COINCHE, C(90), 71, belote={0: 20})
    assert result.outcome == "litige"
    assert result.marks == {0: 0, 1: 90}
    assert result.held == 90


def test_litige_points_go_to_the_side_making_the_next_contract():
    """The held points go to the side that makes the next deal's contract (FFB coinche §10.1.3)."""
    match = Match(COINCHE, first_dealer=3)
    match.add_facts(facts(COINCHE, C(80), 81))
    assert match.scores == {0: 0, 1: 80}
    assert match.held == 80
    match.add_facts(facts(COINCHE, C(80, taker=1), 95))  # side 1 takes and makes: 180 / 70
    assert match.scores == {0: 70, 1: 80 + 180 + 80}
    assert match.held == 0


@pytest.mark.parametrize(("tie", "outcome"), [("chute", "chute"), ("made", "made")])
def test_without_litige_the_tie_rule_decides(tie, outcome):
    """Without the litige rule the organiser says whether equal totals fail or make (FFB coinche §10.1.3)."""
    rules = COINCHE.replace(litige="off", tie=tie)
    assert score(rules, C(80), 81).outcome == outcome


# --------------------------------------------------------------------------- §10.2 rounding


def test_rounding_85_to_90_and_84_to_80():
    """Marks are rounded to the nearest ten: 85 → 90, 84 → 80 (FFB coinche §10.2)."""
    assert (COINCHE.round_marks(85), COINCHE.round_marks(84)) == (90, 80)
    result = score(COINCHE, C(80), 77, belote={0: 20})  # defence 85
    assert result.marks[1] == 90
    result = score(COINCHE, C(80), 78, belote={0: 20})  # defence 84
    assert result.marks[1] == 80


def test_rounding_never_makes_a_contract():
    """Rounding never turns a chute into a made contract: 89 on a 90 bid fails (FFB coinche §10.2)."""
    result = score(COINCHE, C(90), 89)
    assert result.outcome == "chute"
    assert result.marks == {0: 0, 1: 250}


# --------------------------------------------------------------------------- options (rules.py docs)


def test_option_chute_points_162():
    """Option chute_points=162 (some clubs): a fall gives the defence 162 + the contract."""
    assert score(COINCHE.replace(chute_points=162), C(100), 90).marks == {0: 0, 1: 260}
    assert score(COINCHE.replace(chute_points=162, rounding="none"), C(100), 90).marks == {0: 0, 1: 262}


def test_option_multiplier_on_the_contract_only():
    """Option multiplier_scope='contract': the coinche multiplies the contract only (a club variant): 160 + 100 × 2."""
    rules = COINCHE.replace(multiplier_scope="contract")
    assert score(rules, C(100, level=1), 90).marks == {0: 0, 1: 360}


def test_option_reaching_the_bid_is_enough():
    """Option must_beat_defence=False: reaching the bid is enough (rules.py doc; contrée)."""
    rules = COINCHE.replace(must_beat_defence=False)
    assert score(rules, C(80), 80).outcome == "made"


def test_option_prenable_belote_goes_to_the_defence_on_a_fall():
    """Option belote_imprenable=False: the takers' belote goes to the defence when they fall (rules.py doc)."""
    rules = COINCHE.replace(belote_imprenable=False)
    assert score(rules, C(120), 80, belote={0: 20}).marks == {0: 0, 1: 300}


def test_option_no_rounding():
    """Option rounding='none': marks are not rounded (rules.py doc)."""
    assert score(COINCHE.replace(rounding="none"), C(80), 95).marks == {0: 175, 1: 67}


def test_bad_options_are_refused():
    """An unknown option or a value out of its range raises RulesError (rules.py)."""
    from atout import RulesError

    for options in ({"foo": 1}, {"rounding": "up"}, {"target": -5}, {"players": 5}, {"must_undertrump": "yes"}):
        with pytest.raises(RulesError):
            COINCHE.replace(**options)
    with pytest.raises(RulesError):
        Ruleset.preset("belote")
