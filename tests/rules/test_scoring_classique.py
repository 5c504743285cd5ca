"""Belote classique scoring (*Règles de la belote classique*, the online game's classique, *Décompte en
dizaines*), *Belote bazar* and three players (*Belote à trois sans 7 et 8*). Takers are side 0 (seat 0); hearts
are trump. A classique contract has no value: Contract(0, ...)."""

import pytest
from rulebook import facts, score

from atout import Contract, DealFacts, Match, Ruleset, score_deal

CLASSIQUE = Ruleset.preset("classique")
LITIGE = CLASSIQUE.replace(litige="next_winner")
DIZAINES = LITIGE.replace(rounding="dizaines")
BAZAR = Ruleset.preset("bazar")


def T(taker=0, level=0):
    return Contract(0, 1, taker, level=level)


def test_takers_with_82_make_each_side_scores_its_points():
    """The takers make their contract with 82 or more: each side scores its points (*Règles de la belote classique*)."""
    result = score(CLASSIQUE, T(), 82)
    assert result.outcome == "made"
    assert result.marks == {0: 82, 1: 80}


def test_takers_under_82_score_0_defence_162():
    """Fewer than 82: the takers score 0, the defence 162 (*Règles de la belote classique*)."""
    result = score(CLASSIQUE, T(), 80)
    assert result.outcome == "chute"
    assert result.marks == {0: 0, 1: 162}


def test_takers_must_score_more_than_the_defence():
    """The takers must score more than the defence, announcements included; if not, the defence takes all
    the points (the online game's classique): 85 against 77 + a cinquante fails → 162 + 50."""
    result = score(CLASSIQUE, T(), 85, announcements={1: 50})
    assert result.outcome == "chute"
    assert result.marks == {0: 0, 1: 212}


def test_goal_counts_belote_and_announcements_or_card_points_only():
    """What the takers must beat: the preset counts belote and announcements, as the online game's classique (« L'équipe
    qui a remporté l'atout doit gagner plus de points que l'équipe adverse ») and *Ma première belote* (« Chaque équipe
    additionne les points contenus dans ses plis et y ajoute ceux de ses annonces »); goal_points = "cards" reads
    *Règles de la belote classique*'s « plus de la moitié des points, c'est-à-dire 82 points ou plus » as card points,
    the belote a bonus apart. 85 against 77 + a cinquante: a fall, or made on card points; 75 + belote against 87:
    made, or a fall on card points."""
    cards = CLASSIQUE.replace(goal_points="cards")
    assert CLASSIQUE.goal_points == "total"
    assert score(CLASSIQUE, T(), 85, announcements={1: 50}).outcome == "chute"
    made = score(cards, T(), 85, announcements={1: 50})
    assert made.outcome == "made" and made.marks == {0: 85, 1: 127}
    assert score(CLASSIQUE, T(), 75, belote={0: 20}).outcome == "made"
    fell = score(cards, T(), 75, belote={0: 20})
    assert fell.outcome == "chute" and fell.marks == {0: 20, 1: 162}


def test_fall_gives_the_takers_announcements_to_the_defence():
    """On a fall the defence scores every point, the takers' announcements too (the online game's classique: « tous les
    points gagnés lors de ce tour seront remportés par l'équipe adverse »): 162 + 20."""
    result = score(CLASSIQUE, T(), 70, announcements={0: 20})
    assert result.outcome == "chute"
    assert result.marks == {0: 0, 1: 182}


def test_belote_kept_by_its_owner_on_a_fall():
    """The belote, 20 points, stays with its holder even when his side falls (*Règles de la belote classique*: « il fait
    remporter un bonus de 20 points à son équipe »)."""
    result = score(CLASSIQUE, T(), 60, belote={0: 20})
    assert result.outcome == "chute"
    assert result.marks == {0: 20, 1: 162}


def test_capot_scores_250():
    """A side that takes every trick scores 250 (*Règles de la belote classique*)."""
    assert score(CLASSIQUE, T(), capot="takers").marks == {0: 250, 1: 0}
    assert score(CLASSIQUE, T(), capot="defence").marks == {0: 0, 1: 250}


def test_81_81_is_a_fall_in_both_classique_texts():
    """81–81 is a fall, not a litige: « Si l'équipe attaquante fait moins de 82 points, elle marque 0 et l'équipe
    adverse marque 162 points » (*Règles de la belote classique*); « L'équipe qui a remporté l'atout doit gagner
    plus de points que l'équipe adverse. Si ce n'est pas le cas, tous les points gagnés lors de ce tour seront
    remportés par l'équipe adverse » (the online game's classique)."""
    assert CLASSIQUE.litige == "off"
    result = score(CLASSIQUE, T(), 81)
    assert result.outcome == "chute"
    assert result.marks == {0: 0, 1: 162}
    assert result.held == 0


@pytest.mark.parametrize("preset", ["deux", "trois"])
def test_two_and_three_players_follow_classique_without_litige(preset):
    """The two- and three-player forms follow classique: no litige, an equal split is a fall (« Si l'équipe
    attaquante fait moins de 82 points, elle marque 0 et l'équipe adverse marque 162 points », *Règles de la
    belote classique*; *Belote face à face* and *Belote à trois sans 7 et 8* score as classique)."""
    rules = Ruleset.preset(preset)
    assert (rules.litige, rules.tie) == ("off", "chute")


def test_litige_81_81_defence_scores_81_takers_points_wait():
    """Litige, a common house rule (option litige='next_winner', off in the preset): at 81–81 the defence scores
    81, the takers' 81 wait for the next deal's winner."""
    result = score(LITIGE, T(), 81)
    assert result.outcome == "litige"
    assert result.marks == {0: 0, 1: 81}
    assert result.held == 81


@pytest.mark.parametrize(("next_taker", "next_points", "winner_gets"), [(1, 100, 1), (0, 70, 1), (0, 100, 0)])
def test_litige_points_go_to_next_deals_winner(next_taker, next_points, winner_gets):
    """Litige option: the held 81 go to the side that wins the next deal, made or by the takers' fall."""
    match = Match(LITIGE, first_dealer=3)
    match.add_facts(facts(LITIGE, T(), 81))
    next_facts = facts(LITIGE, T(next_taker), next_points)
    match.add_facts(next_facts)
    plain = score_deal(LITIGE, next_facts).marks
    expected = {0: plain[0], 1: 81 + plain[1]}
    expected[winner_gets] += 81
    assert match.scores == expected
    assert match.held == 0


# --------------------------------------------------------------------------- Décompte en dizaines
# The count gives the defence « 80 points des 160 » when the takers have 80 (75 to 80+), not 160: the 80/80 split
# is read as a litige, so the count is tested with the litige option on.


@pytest.mark.parametrize(
    ("takers", "marks"),
    [
        (98, {0: 100, 1: 60}),  # 64 → 6, the other 10
        (105, {0: 100, 1: 60}),  # 105 → 10, the other 6
        (106, {0: 110, 1: 50}),
    ],
)  # 106 → 11, the other 5
def test_dizaines_examples(takers, marks):
    """Décompte en dizaines: 7, 8, 9 round up, the other side gets the rest of 160: 64 → 6/10, 105 → 10/6,
    106 → 11/5, shown as marks 60/100, 100/60, 110/50 (*Décompte en dizaines*)."""
    result = score(DIZAINES, T(), takers)
    assert result.outcome == "made"
    assert result.marks == marks


def test_dizaines_fall_gives_160():
    """Décompte en dizaines: a fall gives the defence the whole 16 (160) (*Décompte en dizaines*)."""
    result = score(DIZAINES, T(), 60)
    assert result.outcome == "chute"
    assert result.marks == {0: 0, 1: 160}


@pytest.mark.parametrize("takers", [75, 76, 80])
def test_dizaines_takers_with_80_give_the_defence_8_of_16(takers):
    """Décompte en dizaines, special case: takers with 80 points (75 to 80+) → the defence gets 80 of the 160
    (*Décompte en dizaines*, « cas particulier »)."""
    result = score(DIZAINES, T(), takers)
    assert result.marks[1] == 80


# --------------------------------------------------------------------------- Belote bazar


def test_bazar_fall_gives_162_to_the_other_side():
    """Bazar: the takers must make at least 82 and their bid, else 162 go to the other side (*Belote bazar*)."""
    result = score(BAZAR, Contract(80, 1, 0), 81)
    assert result.outcome == "chute"
    assert result.marks == {0: 0, 1: 162}
    result = score(BAZAR, Contract(120, 1, 0), 110)
    assert result.outcome == "chute"
    assert result.marks == {0: 0, 1: 162}


def test_bazar_fall_with_every_trick_gives_162_not_250():
    """Bazar: a fall gives the other side 162, even when the takers won every trick (their capot's 250 does not
    pass to the defence): « pour "remplir" le contrat l'équipe qui "prend" le contrat doit marquer au moins 82
    points, sinon 162 points sont attribués à l'équipe adverse » (*Belote bazar*). 30 ♥ bid, capot without the
    capot announced: 250 < 300."""
    result = score(BAZAR, Contract(300, 1, 0), capot="takers")
    assert result.outcome == "chute"
    assert result.marks == {0: 0, 1: 162}
    with_tierce = score(BAZAR, Contract(300, 1, 0), capot="takers", announcements={0: 20})
    assert with_tierce.marks == {0: 0, 1: 182}


def test_bazar_announcements_count_toward_the_bid():
    """Bazar: announcements count toward the contract: « 12 de cœur » with a tierce (2) needs 100 in cards
    (*Belote bazar*)."""
    assert score(BAZAR, Contract(120, 1, 0), 100, announcements={0: 20}).outcome == "made"
    assert score(BAZAR, Contract(120, 1, 0), 99, announcements={0: 20}).outcome == "chute"


def test_bazar_contre_doubles_surcontre_quadruples():
    """Bazar: a contre doubles the points of the side that wins, a surcontre quadruples the takers' points
    (*Belote bazar*)."""
    assert score(BAZAR, Contract(100, 1, 0, level=1), 110).marks == {0: 220, 1: 52}
    assert score(BAZAR, Contract(100, 1, 0, level=1), 90).marks == {0: 0, 1: 324}
    assert score(BAZAR, Contract(100, 1, 0, level=2), 110).marks == {0: 440, 1: 52}


# --------------------------------------------------------------------------- three players

TROIS = Ruleset.preset("trois")


def test_three_players_taker_must_beat_the_two_others_together():
    """Three players: by default the taker must score more than the two others together (the sources differ;
    docs/rules.md, three_player_goal 'half')."""
    made = score_deal(TROIS, DealFacts(Contract(0, 1, 0), {0: 90, 1: 40, 2: 32}))
    assert made.outcome == "made"
    assert made.marks == {0: 90, 1: 40, 2: 32}
    fell = score_deal(TROIS, DealFacts(Contract(0, 1, 0), {0: 80, 1: 50, 2: 32}))
    assert fell.outcome == "chute"
    assert fell.marks[0] == 0
    assert sum(fell.marks.values()) == 162


def test_three_players_option_beat_each_opponent():
    """Option three_player_goal='each': the taker need only beat each of the two others (rules.py doc)."""
    rules = TROIS.replace(three_player_goal="each")
    assert score_deal(rules, DealFacts(Contract(0, 1, 0), {0: 70, 1: 50, 2: 42})).outcome == "made"
