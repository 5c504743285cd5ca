"""Facts no real deal can give are refused (the score keeper's path: ``DealFacts.check``, ``Match.add_facts``):
announcements no hand can show, belotes there is no king and queen of trump for, card points no set of tricks
holds. Each refusal is given in French and in English and records nothing. Takers are side 0, hearts trump."""

from itertools import combinations

import pytest
from rulebook import facts

from atout import Contract, DealFacts, Match, Ruleset, score_deal
from atout.announcements import Announcement, possible_totals
from atout.cards import deck_mask
from atout.errors import FactsError

COINCHE = Ruleset.preset("coinche")
CONTREE = Ruleset.preset("contree")
TROIS = Ruleset.preset("trois")
DEUX = Ruleset.preset("deux")
HEARTS, SANS_ATOUT, TOUT_ATOUT = 1, 4, 5


def C(value=80, strain=HEARTS, taker=0, level=0, capot=False):
    return Contract(value, strain, taker, level=level, capot=capot)


def refused(rules, deal_facts):
    """The refusal of ``deal_facts``: a Match must refuse them and keep nothing."""
    match = Match(rules)
    with pytest.raises(FactsError) as err:
        match.add_facts(deal_facts)
    assert match.entries == [] and match.scores == {s: 0 for s in rules.sides}
    assert err.value.message("fr") != err.value.message("en")
    return err.value


# --------------------------------------------------------------------------- what hands can show


def _held(hand: int, low_rank: int) -> list[Announcement]:
    """Every carré and every sequence of 3 to 5 cards the hand holds (overlapping ones included)."""
    found = []
    for rank in range(max(2, low_rank), 8):
        bits = 0x01010101 << rank
        if hand & bits == bits:
            found.append(Announcement("carre", rank, None, bits))
    for suit in range(4):
        for length in (3, 4, 5):
            for low in range(low_rank, 9 - length):
                bits = ((1 << length) - 1) << (8 * suit + low)
                if hand & bits == bits:
                    found.append(Announcement.from_cards(c for c in range(32) if bits >> c & 1))
    return found


def _shows(hand: int, low_rank: int) -> set[tuple[Announcement, ...]]:
    """Every set of disjoint announcements the hand can show (FFB §8: a card counts in one only)."""
    held = _held(hand, low_rank)
    out: set[tuple[Announcement, ...]] = set()

    def extend(i: int, used: int, chosen: tuple[Announcement, ...]) -> None:
        if i == len(held):
            out.add(chosen)
            return
        extend(i + 1, used, chosen)
        if not used & held[i].cards:
            extend(i + 1, used | held[i].cards, (*chosen, held[i]))

    extend(0, 0, ())
    return out


TABLES = [(HEARTS, "ffb"), (SANS_ATOUT, "ffb"), (TOUT_ATOUT, "ffb"), (HEARTS, "bazar"), (SANS_ATOUT, "bazar")]


def _points(shown: set[tuple[Announcement, ...]], strain: int, values: str) -> set[int]:
    return {sum(a.points(strain, values) for a in s) for s in shown}


def test_announcement_totals_match_every_hand_of_six_cards():
    """Brute force over every hand of 6 of the 24 cards (no 7s and 8s): the totals the hands can show are
    exactly the computed ones, for every value table (FFB §8, §11.2; *Belote bazar*)."""
    deck = [c for c in range(32) if deck_mask(True) >> c & 1]
    shown: set[tuple[Announcement, ...]] = set()
    for cards in combinations(deck, 6):
        shown |= _shows(sum(1 << c for c in cards), 2)
    for strain, values in TABLES:
        assert _points(shown, strain, values) == possible_totals(strain, values, hand_size=6, short_deck=True)


def test_announcement_totals_match_every_pair_of_four_card_hands():
    """Brute force over every pair of disjoint hands of 4 of the 24 cards: what two partners can show together
    is exactly the computed set (two hands hold different cards, each its own announcements)."""
    deck = [c for c in range(32) if deck_mask(True) >> c & 1]
    hands = [sum(1 << c for c in cards) for cards in combinations(deck, 4)]
    showing = [(hand, [x for x in _shows(hand, 2) if x]) for hand in hands]
    showing = [(hand, shows) for hand, shows in showing if shows]  # a hand showing nothing adds nothing
    shown = {()} | {x for _, shows in showing for x in shows}
    for i, (first, first_shows) in enumerate(showing):
        for second, second_shows in showing[i + 1 :]:
            if not first & second:
                shown |= {a + b for a in first_shows for b in second_shows}
    for strain, values in TABLES:
        assert _points(shown, strain, values) == possible_totals(strain, values, hands=2, hand_size=4, short_deck=True)


def test_known_announcement_totals_of_eight_cards():
    """Eight cards: at most two tierces (three need nine cards), so no 60; the most is a carré of jacks and one
    of nines, 350; a side of two hands goes to 550 (carrés of J and 9, then two of 100) (FFB §8)."""
    one = possible_totals(HEARTS)
    assert sorted(one) == [0, 20, 40, 50, 70, 100, 120, 150, 170, 200, 220, 250, 300, 350]
    side = possible_totals(HEARTS, hands=2)
    assert 60 in side and 130 not in side and max(side) == 550
    assert 10 not in side and 30 not in side


# --------------------------------------------------------------------------- announcements


@pytest.mark.parametrize("value", [10, 30, 55, 130, 560])
def test_announcements_no_side_can_show_are_refused(value):
    """A side's announcements are sums of tierces (20), cinquantes (50), cents (100) and carrés (100, 150, 200)
    its sixteen cards can hold (FFB §8): 10, 30, 55, 130 or 560 cannot be shown, for the takers or the
    defence."""
    for side in (0, 1):
        err = refused(COINCHE, DealFacts(C(), {0: 100, 1: 62}, announcements={side: value}))
        assert err.code == "announcements"
        assert "16 cartes" in err.message("fr")


def test_the_refusal_names_the_nearest_possible_totals():
    """130 cannot be shown by two hands (a cent and a tierce are 120, a cent and two tierces 140, FFB §8): the
    refusal says which totals are near, in French and in English."""
    err = refused(COINCHE, DealFacts(C(), {0: 100, 1: 62}, announcements={1: 130}))
    assert "120 ou 140" in err.message("fr") and "120 or 140" in err.message("en")
    assert err.message("fr").startswith("La défense")


def test_one_player_cannot_show_three_tierces():
    """Three players, each a side of one hand of eight: three tierces (60) need nine cards (*Belote à trois sans
    7 et 8*; FFB §8)."""
    refused(TROIS, DealFacts(C(0), {0: 100, 1: 32, 2: 30}, announcements={0: 60}))
    assert score_deal(TROIS, DealFacts(C(0), {0: 100, 1: 32, 2: 30}, announcements={0: 40})).outcome == "made"


def test_only_one_side_scores_announcements():
    """« Les annonces d'un seul camp peuvent être prises en compte » (FFB §8.3)."""
    err = refused(COINCHE, DealFacts(C(), {0: 100, 1: 62}, announcements={0: 50, 1: 20}))
    assert "un seul camp" in err.message("fr")


def test_announcements_in_a_ruleset_without_them_are_refused():
    """Contrée: « la seule annonce à faire pendant le jeu est la belote rebelote » (FunBelote, *Belote
    contrée*)."""
    err = refused(CONTREE, DealFacts(C(), {0: 100, 1: 62}, announcements={0: 20}))
    assert err.code == "no_announcements"


def test_sans_atout_carres_follow_their_own_table():
    """At sans atout a carré of aces is worth 200 and one of tens 150 (FFB §11.2): 350 is one hand's most."""
    rules = COINCHE.replace(sans_atout=True)
    assert score_deal(rules, DealFacts(C(strain=SANS_ATOUT), {0: 100, 1: 62}, announcements={0: 350}))
    refused(rules, DealFacts(C(strain=SANS_ATOUT), {0: 100, 1: 62}, announcements={0: 560}))


# --------------------------------------------------------------------------- belote


def test_belote_for_both_sides_at_a_trump_suit_is_refused():
    """One king and one queen of trump: « Lorsqu'un joueur détient ensemble le roi et la dame d'atout, on dit
    qu'il a la belote » (FFB §7): one belote at most in a suit contract."""
    err = refused(COINCHE, DealFacts(C(), {0: 100, 1: 62}, belote={0: 20, 1: 20}))
    assert err.code == "belote" and "roi" in err.message("fr")
    refused(COINCHE, DealFacts(C(), {0: 100, 1: 62}, belote={0: 40}))


def test_tout_atout_allows_four_belotes_one_per_suit():
    """Tout atout: « il peut y avoir jusqu'à 4 Belotes, pour un total de 80 points » (FFB §11.3), held by either
    side; a fifth is refused."""
    two_sides = DealFacts(C(strain=TOUT_ATOUT), {0: 100, 1: 62}, belote={0: 40, 1: 40})
    assert score_deal(CONTREE, two_sides).outcome == "made"
    refused(CONTREE, DealFacts(C(strain=TOUT_ATOUT), {0: 100, 1: 62}, belote={0: 60, 1: 40}))


def test_no_belote_at_sans_atout():
    """« Il n'y a pas de Belote/Rebelote possibles » at sans atout (FFB §11.2)."""
    err = refused(CONTREE, DealFacts(C(strain=SANS_ATOUT), {0: 100, 1: 62}, belote={1: 20}))
    assert "sans atout" in err.message("fr")


# --------------------------------------------------------------------------- card points


def test_a_capot_side_has_the_capot_points_and_the_others_none():
    """« En cas de capot [...] le dix de der vaut 100 points, portant ainsi le total à 252 points » (FFB §9)."""
    refused(COINCHE, DealFacts(C(), {0: 250, 1: 0}, capot=0))
    refused(COINCHE, DealFacts(C(), {0: 252, 1: 10}, capot=0))
    assert score_deal(COINCHE, DealFacts(C(), {0: 252, 1: 0}, capot=0)).outcome == "made"


def test_a_side_that_took_no_trick_has_no_card_points():
    """Card points are « le nombre de points contenus dans les plis réalisés par son équipe » (FFB §10): no
    trick, no points; every trick is a capot (§9); a deal has eight tricks."""
    refused(COINCHE, DealFacts(C(), {0: 140, 1: 22}, tricks={0: 8, 1: 0}))
    refused(COINCHE, DealFacts(C(), {0: 162, 1: 0}, tricks={0: 8, 1: 0}))  # every trick: a capot
    refused(COINCHE, DealFacts(C(), {0: 152, 1: 10}, tricks={0: 7, 1: 0}))  # seven tricks of eight


@pytest.mark.parametrize("points", [{0: 1, 1: 161}, {0: 100, 1: 50}, {0: 170, 1: 0}])
def test_card_points_no_deal_can_give_are_refused(points):
    """The cards and the dix de der make 162 (FFB §9); no card is worth 1 point, so neither 1 nor 161 can be
    taken; more than 162 needs a capot."""
    assert refused(COINCHE, DealFacts(C(), points)).code == "card_points"


def test_two_players_play_eighteen_cards():
    """Face à face: 18 of the 32 cards are played, so the two sides' points need not make 162 (*Belote face à
    face*: « une main se compose de 9 cartes »), but the dix de der goes to someone."""
    assert score_deal(DEUX, DealFacts(C(0), {0: 60, 1: 40})).outcome == "made"
    refused(DEUX, DealFacts(C(0), {0: 5, 1: 0}))


@pytest.mark.parametrize(
    ("points", "why"),
    [({0: 100, 1: 62}, "28 to 156"), ({0: 20, 1: 0}, "28 to 156"), ({0: 162, 1: 0}, "worth 162")],
)
def test_two_players_points_are_what_eighteen_cards_can_hold(points, why):
    """Face à face (« une main se compose de 9 cartes »): the 18 cards played hold 18 to 146 points in a suit
    contract, 28 to 156 with the dix de der; a whole deck's 162 cannot be taken."""
    err = refused(DEUX, DealFacts(C(0), points))
    assert err.code == "card_points"
    assert why in err.message("en")


def test_takers_points_alone_are_refused_with_two_players():
    """*Belote face à face*: « une main se compose de 9 cartes », so 18 of the 32 cards are played and the
    defence's points are not 162 minus the takers': refuse the takers' points alone."""
    with pytest.raises(FactsError) as err:
        facts(DEUX, C(0), 100)
    assert "18" in err.value.message("fr") and "18 of the 32" in err.value.message("en")


# --------------------------------------------------------------------------- the contract


def test_a_bid_the_ruleset_does_not_have_is_refused():
    """Contrée bids go « de 80 à 160 » (FunBelote, *Belote contrée*); the FFB sets no ceiling (§4.1)."""
    assert refused(CONTREE, DealFacts(C(170), {0: 162, 1: 0})).code == "bad_bid"
    assert score_deal(COINCHE, DealFacts(C(170), {0: 152, 1: 10}, announcements={0: 50})).outcome == "made"
    assert refused(COINCHE, DealFacts(C(85), {0: 100, 1: 62})).code == "bad_bid"


def test_a_stored_sheet_opens_even_with_facts_an_older_atout_accepted():
    """Facts stored before these checks existed still replay (only their form is checked again)."""
    old = DealFacts(C(), {0: 100, 1: 62}, announcements={0: 50, 1: 20})
    match = Match(COINCHE)
    match.add_facts(old, stored=True)
    assert match.scores == {0: 100 + 50 + 80, 1: 60 + 20}
