"""The options that make the contree-colver preset: defence_keeps_belote and capot_bonus (with the
contrée scorings, and the FFB and classique scorings for the belote), and the preset's marks.

The source of the preset is colver's documented rules (its README: « points faits + points demandés »,
coinche ×2 and surcoinche ×3 on the contract only, nothing rounded, a fall marking 162 + the contract)
and its engine, to which tests/test_peers.py holds atout over thousands of deals. Takers are side 0;
hearts are trump."""

import pytest
from rulebook import score

from atout import Contract, RulesError, Ruleset

COLVER = Ruleset.preset("contree-colver")
CONTREE = Ruleset.preset("contree")


def C(value, level=0, capot=False, taker=0):
    return Contract(value, 1, taker, level=level, capot=capot)


def test_made_marks_points_plus_contract_unrounded():
    """colver: « points faits + points demandés », nothing rounded: 85 on 80 marks 165, the defence 77."""
    assert score(COLVER, C(80), 85).marks == {0: 165, 1: 77}


def test_fall_marks_162_plus_contract():
    """colver: a fall marks 162 + the contract to the defence (not the 160 of Contrée)."""
    assert score(COLVER, C(120), 100).marks == {0: 0, 1: 282}


def test_coinche_and_surcoinche_multiply_the_contract_only():
    """colver: coinche ×2 and surcoinche ×3 apply to the contract only; the winner marks 162 besides."""
    assert score(COLVER, C(100, level=1), 120).marks == {0: 362, 1: 0}
    assert score(COLVER, C(100, level=2), 120).marks == {0: 462, 1: 0}
    assert score(COLVER, C(100, level=2), 90).marks == {0: 0, 1: 462}


def test_defence_keeps_its_belote_on_a_contract_made_and_not_coinched():
    """Option defence_keeps_belote (colver's engine; Contrée: the belote « est également marquée par la
    défense si l'équipe qui a annoncé le contrat chute »): on a made, uncoinched contract each side marks
    its own belote; a fall or a coinche gives every belote to the winner."""
    assert score(COLVER, C(80), 100, belote={1: 20}).marks == {0: 180, 1: 82}
    taken = CONTREE.replace(defence_keeps_belote=False)
    assert score(taken, C(80), 100, belote={1: 20}).marks == {0: 200, 1: 60}  # off: the winner takes it
    assert score(COLVER, C(120), 70, belote={0: 20}).marks == {0: 0, 1: 302}
    assert score(COLVER, C(100, level=1), 120, belote={1: 20}).marks == {0: 382, 1: 0}


def test_defence_keeps_belote_in_the_ffb_and_classique_scorings():
    """The option holds in every scoring that knows a prenable belote: FFB §10.1 and classique (the defence's
    belote stays with it on a made contract that was not coinched)."""
    ffb = Ruleset.preset("coinche", announcements=False, belote_imprenable=False)
    assert score(ffb, C(80), 100, belote={1: 20}).marks == {0: 200, 1: 60}
    assert score(ffb.replace(defence_keeps_belote=True), C(80), 100, belote={1: 20}).marks == {0: 180, 1: 80}
    classique = Ruleset.preset("classique", belote_imprenable=False)
    facts = {"belote": {1: 20}}
    assert score(classique, Contract(0, 1, 0), 100, **facts).marks == {0: 120, 1: 62}
    assert score(classique.replace(defence_keeps_belote=True), Contract(0, 1, 0), 100, **facts).marks == {0: 100, 1: 82}


def test_only_the_takers_capot_counts():
    """Option capot_bonus = "takers" (colver's engine): the takers' capot marks its 252 card points, coinched
    or not (in place of the 162); the defence's capot is a plain fall, 162 + the contract. Contrée's own
    reading (« Le capot non demandé vaut 250 points + le contrat », by either side) is "uncoinched"."""
    assert score(COLVER, C(80), capot="takers").marks == {0: 332, 1: 0}
    assert score(COLVER, C(80, level=1), capot="takers").marks == {0: 412, 1: 0}
    assert score(COLVER, C(80), capot="defence").marks == {0: 0, 1: 242}
    assert score(CONTREE, C(80), capot="defence").marks == {0: 0, 1: 330}
    faits = COLVER.replace(scoring="faits")
    assert score(faits, C(80, level=1), capot="takers").marks == {0: 504, 1: 0}
    assert score(faits, C(80), capot="defence").marks == {0: 0, 1: 162}


def test_a_bid_capot_is_a_contract_of_250():
    """colver: capot is bid above 160 and counts as a contract of 250 (no flat prime): made 252 + 250, failed
    162 + 250 to the defence, ×2 or ×3 on the 250 when coinched or surcoinched."""
    assert score(COLVER, C(0, capot=True), capot="takers").marks == {0: 502, 1: 0}
    assert score(COLVER, C(0, capot=True), 150).marks == {0: 0, 1: 412}
    assert score(COLVER, C(0, level=1, capot=True), capot="takers").marks == {0: 752, 1: 0}
    assert score(COLVER, C(0, level=2, capot=True), 150, belote={0: 20}).marks == {0: 0, 1: 932}


@pytest.mark.usefixtures("english")
@pytest.mark.parametrize("scoring", ["ffb", "annonces", "classique"])
def test_capot_bonus_is_for_the_contree_scorings(scoring):
    """capot_bonus says how the contrée scorings count a capot; the others have their own rules."""
    with pytest.raises(RulesError, match="contrée scorings only"):
        Ruleset.preset("contree", scoring=scoring, capot_bonus="takers")
