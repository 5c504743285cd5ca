"""Belote contrée scoring (FunBelote, *Belote contrée*): « points faits + annoncés » (the preset), « points
faits » and « points annoncés ». Takers are side 0; hearts are trump."""

import pytest
from rulebook import score

from atout import Contract, Ruleset

CONTREE = Ruleset.preset("contree")
FAITS = CONTREE.replace(scoring="faits")
ANNONCES = CONTREE.replace(scoring="annonces")


def C(value, level=0, capot=False, taker=0):
    return Contract(value, 1, taker, level=level, capot=capot)


# --------------------------------------------------------------------------- points faits + annoncés


def test_points_faits_annonces_is_the_preset():
    """FunBelote's default method is « points faits + points annoncés » (FunBelote, *Belote contrée*)."""
    assert CONTREE.scoring == "faits_annonces"


def test_made_scores_points_plus_contract():
    """Made: the takers score their points + the contract: 110 made on 80 → 190; the defence its points
    (FunBelote, *Belote contrée*, points faits + annoncés)."""
    result = score(CONTREE, C(80), 110)
    assert result.outcome == "made"
    assert result.marks == {0: 190, 1: 50}  # defence 52 → 50


def test_reaching_the_contract_is_enough():
    """Contrée: the takers must reach the contract (« supérieur ou égal »); beating the defence is not asked
    (FunBelote, *Belote contrée*): 81 against 81 on an 80 bid is made."""
    result = score(CONTREE, C(80), 81)
    assert result.outcome == "made"
    assert result.marks == {0: 160, 1: 80}  # 161 → 160, 81 → 80


def test_rounding_never_makes_a_contract():
    """Rounding (1–4 down, 5–9 up) never makes a contract: 89 on a 90 bid fails (FunBelote, *Belote contrée*)."""
    result = score(CONTREE, C(90), 89)
    assert result.outcome == "chute"
    assert result.marks == {0: 0, 1: 250}


def test_rounding_last_digit_5_up_4_down():
    """Points are rounded to the ten below for a last digit 1–4, above for 5–9 (FunBelote, *Belote contrée*)."""
    assert score(CONTREE, C(80), 115).marks == {0: 200, 1: 50}  # 195 → 200, 47 → 50
    assert score(CONTREE, C(80), 114).marks == {0: 190, 1: 50}  # 194 → 190, 48 → 50


def test_belote_counts_toward_the_contract():
    """The belote helps make the contract (FunBelote, *Belote contrée*): 72 + belote 20 on a 90 bid is made."""
    result = score(CONTREE, C(90), 72, belote={0: 20})
    assert result.outcome == "made"
    assert result.marks[0] == 180  # 72 + 20 + 90 = 182 → 180


def test_chute_defence_scores_160_plus_contract():
    """Chute: the takers score 0, the defence 160 + the contract (FunBelote, *Belote contrée*): 100 → 260."""
    result = score(CONTREE, C(100), 80)
    assert result.outcome == "chute"
    assert result.marks == {0: 0, 1: 260}


def test_chute_takers_belote_goes_to_the_defence():
    """Chute: the belote is not imprenable, the defence scores it (FunBelote, *Belote contrée*)."""
    result = score(CONTREE, C(100), 70, belote={0: 20})
    assert result.marks == {0: 0, 1: 280}


def test_made_the_defence_keeps_its_own_belote():
    """Made and not contré, each side marks its own points, the defence's belote included: « Les défenseurs marquent
    le nombre de points qu'ils ont réalisés dans la donne »; the belote, prenable, passes only on a fall: « Elle est
    également marquée par la défense si l'équipe qui a annoncé le contrat chute » (FunBelote, *Belote contrée*).
    110 on 80 → 190; the defence 52 + its belote 20 = 72 → 70."""
    result = score(CONTREE, C(80), 110, belote={1: 20})
    assert result.outcome == "made"
    assert result.marks == {0: 190, 1: 70}


def test_contre_made_takes_the_defence_belote():
    """Contré and made, the takers' side wins the deal and every belote with it (FunBelote, *Belote contrée*:
    « Si le preneur réussit à remplir son contrat, il marque 160 points + les points demandés x 2 »)."""
    result = score(CONTREE, C(90, level=1), 100, belote={1: 20})
    assert result.marks == {0: 360, 1: 0}


def test_contre_made_160_plus_contract_doubled():
    """Contré and made: the takers score 160 + the contract × 2 (FunBelote, *Belote contrée*): 90 → 160 + 180 = 340."""
    result = score(CONTREE, C(90, level=1), 100)
    assert result.outcome == "made"
    assert result.marks == {0: 340, 1: 0}


def test_contre_chute_160_plus_contract_doubled():
    """Contré and failed: the defence scores 160 + the contract × 2 (FunBelote, *Belote contrée*): 90 → 340."""
    result = score(CONTREE, C(90, level=1), 80)
    assert result.outcome == "chute"
    assert result.marks == {0: 0, 1: 340}


def test_surcontre_160_plus_contract_times_four():
    """Surcontré: 160 + the contract × 4 to the side that wins the deal (FunBelote, *Belote contrée*):
    90 → 520."""
    assert score(CONTREE, C(90, level=2), 100).marks == {0: 520, 1: 0}
    assert score(CONTREE, C(90, level=2), 80).marks == {0: 0, 1: 520}


def test_capot_not_bid_250_plus_contract():
    """A capot not bid is worth 250 + the contract (FunBelote, *Belote contrée*): 80 → 330."""
    result = score(CONTREE, C(80), capot="takers")
    assert result.outcome == "made"
    assert result.marks == {0: 330, 1: 0}


def test_capot_bid_made_500():
    """A capot bid and made is worth 500 (FunBelote, *Belote contrée*)."""
    result = score(CONTREE, C(0, capot=True), capot="takers")
    assert result.outcome == "made"
    assert result.marks == {0: 500, 1: 0}


def test_capot_bid_failed_500_to_defence():
    """A capot bid and failed is worth 500 to the defence (FunBelote, *Belote contrée*)."""
    result = score(CONTREE, C(0, capot=True), 150)
    assert result.outcome == "chute"
    assert result.marks == {0: 0, 1: 500}


def test_capot_bid_failed_loses_the_belote():
    """The side that bids a capot and fails loses its belote (FunBelote, *Belote contrée*; it goes to the side
    winning the deal, docs/rules.md)."""
    result = score(CONTREE, C(0, capot=True), 150, belote={0: 20})
    assert result.marks == {0: 0, 1: 520}


def test_capot_side_keeps_its_belote():
    """The side making its capot keeps its belote (FunBelote, *Belote contrée*)."""
    result = score(CONTREE, C(0, capot=True), capot="takers", belote={0: 20})
    assert result.marks == {0: 520, 1: 0}


# --------------------------------------------------------------------------- points faits


def test_faits_made_each_side_scores_its_points():
    """Points faits, made: each side scores the points it made (FunBelote, *Belote contrée*, points faits)."""
    result = score(FAITS, C(80), 110)
    assert result.outcome == "made"
    assert result.marks == {0: 110, 1: 50}


def test_faits_chute_defence_scores_160():
    """Points faits, chute: the takers score 0, the defence 160 (FunBelote, *Belote contrée*, points faits)."""
    result = score(FAITS, C(100), 80)
    assert result.marks == {0: 0, 1: 160}


@pytest.mark.parametrize(
    ("level", "belote", "expected"), [(1, {}, 320), (2, {}, 640), (1, {0: 20}, 340), (2, {0: 20}, 660)]
)
def test_faits_contre_320_surcontre_640(level, belote, expected):
    """Points faits: contre 320, surcontre 640; with the belote 340 and 660 (FunBelote, *Belote contrée*,
    points faits)."""
    result = score(FAITS, C(100, level=level), 110, belote=belote)
    assert result.outcome == "made"
    assert result.marks == {0: expected, 1: 0}


def test_faits_capot_250_not_bid_500_bid():
    """Points faits: a capot not bid is worth 250, a capot bid 500 (FunBelote, *Belote contrée*, points faits)."""
    assert score(FAITS, C(80), capot="takers").marks == {0: 250, 1: 0}
    assert score(FAITS, C(0, capot=True), capot="takers").marks == {0: 500, 1: 0}


# --------------------------------------------------------------------------- points annoncés


def test_annonces_made_scores_the_contract_only():
    """Points annoncés, made: the takers score the contract only, the defence 0 (FunBelote, *Belote contrée*,
    points annoncés)."""
    result = score(ANNONCES, C(90), 130)
    assert result.outcome == "made"
    assert result.marks == {0: 90, 1: 0}


def test_annonces_chute_defence_scores_160():
    """Points annoncés, chute: the defence scores 160 (FunBelote, *Belote contrée*, points annoncés)."""
    assert score(ANNONCES, C(90), 80).marks == {0: 0, 1: 160}


def test_annonces_contre_doubles_surcontre_quadruples():
    """Points annoncés: contre = contract × 2, surcontre × 4 to the side winning the deal: 90 → 180 and 360;
    120 contré → 240 (FunBelote, *Belote contrée*, points annoncés)."""
    assert score(ANNONCES, C(90, level=1), 100).marks == {0: 180, 1: 0}
    assert score(ANNONCES, C(90, level=2), 100).marks == {0: 360, 1: 0}
    assert score(ANNONCES, C(120, level=1), 100).marks == {0: 0, 1: 240}


def test_annonces_capot_not_bid_adds_nothing():
    """Points annoncés: a capot not bid brings nothing more than the contract (FunBelote, *Belote contrée*)."""
    assert score(ANNONCES, C(90), capot="takers").marks == {0: 90, 1: 0}


def test_annonces_capot_bid_250_contre_500():
    """Points annoncés: a capot bid and made is worth 250, contré 500 (FunBelote, *Belote contrée*, points annoncés)."""
    assert score(ANNONCES, C(0, capot=True), capot="takers").marks == {0: 250, 1: 0}
    assert score(ANNONCES, C(0, level=1, capot=True), capot="takers").marks == {0: 500, 1: 0}


def test_capot_bid_contre_doubles_the_500():
    """A capot bid and contré: 500 × 2 to the side winning the deal (FunBelote, *Belote contrée*: the text's figure
    is lost; docs/rules.md choice)."""
    assert score(CONTREE, C(0, level=1, capot=True), capot="takers").marks == {0: 1000, 1: 0}
    assert score(CONTREE, C(0, level=2, capot=True), 150).marks == {0: 0, 1: 2000}


def test_annonces_belote_helps_reach_the_bid_but_is_not_marked():
    """Points annoncés: the belote helps reach the bid but is not marked (FunBelote, *Belote contrée*;
    docs/rules.md choice)."""
    result = score(ANNONCES, C(90), 72, belote={0: 20})
    assert result.outcome == "made"
    assert result.marks == {0: 90, 1: 0}


def test_annonces_capot_bid_marks_250_without_the_belote():
    """Points annoncés: « capot demandé et réalisé vaut 250, capot contré vaut 500 »; the method marks the
    contract alone, so a belote does not make it 270, nor a failed capot's 250 to the defence (FunBelote,
    *Belote contrée*)."""
    assert score(ANNONCES, C(0, capot=True), capot="takers", belote={0: 20}).marks == {0: 250, 1: 0}
    assert score(ANNONCES, C(0, level=1, capot=True), capot="takers", belote={0: 20}).marks == {0: 500, 1: 0}
    assert score(ANNONCES, C(0, capot=True), 150, belote={0: 20}).marks == {0: 0, 1: 250}


# --------------------------------------------------------------------------- a capot made by the defence


def test_faits_annonces_defence_capot_250_plus_contract():
    """« Le capot non demandé vaut 250 points + le contrat », whichever side makes it (FunBelote, *Belote
    contrée*, points faits + annoncés; docs/rules.md choice): the defence's capot on 80 → 330, not the fall's
    160 + 80."""
    result = score(CONTREE, C(80), capot="defence")
    assert result.outcome == "chute"
    assert result.marks == {0: 0, 1: 330}


def test_faits_defence_capot_250():
    """Points faits: « Le capot non demandé vaut 250 », whichever side makes it (FunBelote, *Belote contrée*;
    docs/rules.md choice): 250 for the defence, not the fall's 160."""
    assert score(FAITS, C(80), capot="defence").marks == {0: 0, 1: 250}


def test_annonces_defence_capot_is_a_fall():
    """Points annoncés: « Le capot non demandé ne rapporte rien de plus que le contrat »: the defence's capot
    scores the fall's 160 (FunBelote, *Belote contrée*; docs/rules.md choice)."""
    assert score(ANNONCES, C(80), capot="defence").marks == {0: 0, 1: 160}


@pytest.mark.parametrize(("rules", "marks"), [(CONTREE, 160 + 80 * 2), (FAITS, 320), (ANNONCES, 160)])
def test_contre_defence_capot_scores_the_contre(rules, marks):
    """Contré, the defence's capot scores what the contre gives the side that wins the deal: the text gives its
    values whole (FunBelote, *Belote contrée*; docs/rules.md choice)."""
    assert score(rules, C(80, level=1), capot="defence").marks == {0: 0, 1: marks}
