"""End of the game: FFB coinche §10.3; classique (*Règles de la belote classique*: both sides reaching → the
takers win); *Belote bazar* and *Belote face à face* targets; fixed number of deals (FFB §2). Deals are added as
score-keeper facts."""

from rulebook import facts

from atout import Contract, DealFacts, Match, Ruleset

COINCHE = Ruleset.preset("coinche")


def C(value, taker, level=0, capot=False, strain=1):
    return Contract(value, strain, taker, level=level, capot=capot)


def _match(rules, deals):
    match = Match(rules, first_dealer=3)
    for contract, points, options in deals:
        match.add_facts(facts(rules, contract, points, **options))
    return match


def test_first_side_to_reach_the_target_wins():
    """The first side to reach or pass the target wins (FFB coinche §10.3): a capot bid made, 500, ends a game
    to 500."""
    rules = COINCHE.replace(target=500)
    match = _match(rules, [(C(0, 0, capot=True), None, {"capot": "takers"})])
    assert match.scores == {0: 500, 1: 0}
    assert match.finished and match.winner == 0


def test_option_game_end_pass_needs_more_than_the_target():
    """Option game_end='pass': reaching the target exactly is not enough (rules.py doc; bazar's « 501 »)."""
    rules = COINCHE.replace(target=500, game_end="pass")
    match = _match(rules, [(C(0, 0, capot=True), None, {"capot": "takers"})])
    assert not match.finished


def test_no_winner_below_the_target():
    """Below the target the game goes on (FFB coinche §10.3)."""
    rules = COINCHE.replace(target=500)
    match = _match(rules, [(C(80, 0), 100, {})])
    assert match.scores == {0: 180, 1: 60}
    assert not match.finished and match.winner is None


#: Game to 350: side 0 at 300, side 1 at 180 after these two deals.
TO_350 = [
    (C(80, 1), 60, {}),  # side 1 falls: side 0 + 240
    (C(80, 1), 100, {}),
]  # side 1 makes: 180 / 60


def test_both_past_the_target_larger_excess_wins():
    """Both sides pass the target on the same deal: the one with more points beyond it wins (FFB coinche §10.3)."""
    rules = COINCHE.replace(target=350)
    match = _match(rules, [*TO_350, (C(80, 1), 110, {})])  # side 1: 110 + 80 = 190 → 370; side 0: 52 → 350
    assert match.scores == {0: 350, 1: 370}
    assert match.winner == 1


def test_both_past_the_target_tied_one_more_deal():
    """Both past the target with equal scores: one more deal decides (FFB coinche §10.3)."""
    rules = COINCHE.replace(target=350)
    match = _match(rules, [*TO_350, (C(80, 1), 100, {})])
    assert match.scores == {0: 360, 1: 360}
    assert not match.finished
    match.add_facts(facts(rules, C(80, 0), 100))
    assert match.scores == {0: 540, 1: 420}
    assert match.winner == 0


#: Game to 500: side 1 at 480; then side 1 falls on 100♠ with its belote: 20 → 500, only through the belote.
BELOTE_ONLY = [
    (C(80, 0, level=1), 60, {}),  # side 0 coinched falls: side 1 (160 + 80) × 2
    (C(100, 1, strain=0), 70, {"belote": {1: 20}}),
]  # side 1 falls: 20 (belote) / 260


def test_reaching_the_target_only_through_belote_after_a_fall_does_not_win():
    """A side that fell and reaches the target only through its belote has not won yet (FFB coinche §10.3)."""
    rules = COINCHE.replace(target=500)
    match = _match(rules, BELOTE_ONLY)
    assert match.scores == {0: 260, 1: 500}
    assert not match.finished


def test_belote_only_side_wins_after_one_more_trick():
    """... it needs one more trick to win the game (FFB coinche §10.3)."""
    rules = COINCHE.replace(target=500)
    match = _match(rules, BELOTE_ONLY)
    match.add_facts(facts(rules, C(80, 0), 150))  # side 0 makes, 230 → 490; side 1 takes 12 points
    assert match.scores == {0: 490, 1: 510}
    assert match.winner == 1


def test_belote_only_side_without_a_trick_still_waits():
    """... and without a trick it has still not won (FFB coinche §10.3): the opponents' capot puts them past
    the target first."""
    rules = COINCHE.replace(target=500)
    match = _match(rules, BELOTE_ONLY)
    match.add_facts(facts(rules, C(80, 0), capot="takers"))  # side 0: 332 → 330 → 590; side 1 nothing
    assert match.scores == {0: 590, 1: 500}
    assert match.winner == 0


def test_option_fixed_number_of_deals():
    """The game may also end after a fixed number of deals (FFB coinche §2): the higher score wins."""
    rules = COINCHE.replace(target=0, deals=2)
    match = _match(rules, [(C(80, 0), 100, {})])
    assert not match.finished
    match.add_facts(facts(rules, C(80, 1), 90))
    assert match.scores == {0: 250, 1: 230}
    assert match.winner == 0


def test_void_deal_counts_as_a_deal_for_the_dealer_only():
    """Four passes: no points, and the next seat deals (FFB coinche §4.1, §3.1)."""
    match = Match(COINCHE, first_dealer=3)
    match.add_facts(None)
    assert match.scores == {0: 0, 1: 0}
    assert match.dealer == 0


# --------------------------------------------------------------------------- classique

CLASSIQUE = Ruleset.preset("classique", target=500)

#: Classique game to 500: side 0 at 440, side 1 at 458 after these deals.
CLASSIQUE_DEALS = [
    (C(0, 0), None, {"capot": "takers"}),  # 250 / 0
    (C(0, 1), 150, {}),  # 12 / 150
    (C(0, 1), 150, {}),  # 12 / 150
    (C(0, 1), 90, {}),  # 72 / 90
    (C(0, 0), 94, {}),
]  # 94 / 68


def test_classique_both_reach_the_target_takers_win():
    """Classique: both sides reach the target on the same deal: the takers win (*Règles de la belote classique*)."""
    match = _match(CLASSIQUE, CLASSIQUE_DEALS)
    assert match.scores == {0: 440, 1: 458}
    match.add_facts(facts(CLASSIQUE, C(0, 0), 82))
    assert match.scores == {0: 522, 1: 538}
    assert match.winner == 0


def test_classique_first_to_reach_wins():
    """Classique: the first side to reach the target (500, 1000 or 1500) wins (*Règles de la belote classique*)."""
    match = _match(CLASSIQUE, CLASSIQUE_DEALS[:4])
    assert match.scores == {0: 346, 1: 390}
    match.add_facts(facts(CLASSIQUE, C(0, 1), None, capot="takers"))
    assert match.winner == 1


# --------------------------------------------------------------------------- bazar, face à face


def test_bazar_game_to_501():
    """Bazar: the first side to reach at least 501 wins (*Belote bazar*)."""
    rules = Ruleset.preset("bazar")
    match = Match(rules, first_dealer=3)
    match.add_facts(facts(rules, C(80, 0), capot="takers"))
    match.add_facts(facts(rules, C(80, 0), capot="takers"))
    assert match.scores[0] == 500
    assert not match.finished
    match.add_facts(facts(rules, C(80, 0), 82))
    assert match.winner == 0


def test_face_a_face_game_to_101():
    """Face à face (two players): the game is won at 101 instead of 501 (*Belote face à face*: « il faut
    marquer au minimum 101 points pour remporter la partie a la place de 501 »). Only 18 of the 32 cards are
    played, so each side's card points are given."""
    rules = Ruleset.preset("deux")
    assert rules.target == 101
    match = Match(rules, first_dealer=1)
    match.add_facts(DealFacts(C(0, 0), {0: 100, 1: 40}))
    assert match.scores == {0: 100, 1: 40}
    assert not match.finished
    match.add_facts(DealFacts(C(0, 0), {0: 250, 1: 0}, capot=0))
    assert match.scores == {0: 350, 1: 40}
    assert match.winner == 0
