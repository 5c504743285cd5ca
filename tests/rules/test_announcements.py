"""Announcements: FFB coinche §8 (values, declaration, resolution, ties, renonce), §11.2 (sans atout carrés),
§11.3; FunBelote, *Belote contrée*; *Belote bazar*."""

import pytest
from rulebook import PLAIN_HANDS, autoplay, deal_from_hands, play

from atout import Announcement, Declare, IllegalAction, NotationError, Ruleset, best_announcements, parse_hand
from atout.announcements import carre_points, resolve

SPADES, HEARTS, DIAMONDS, CLUBS, SANS_ATOUT, TOUT_ATOUT = range(6)
FOUR = [0, 1, 0, 1]  # side of each seat with four players


def A(text):
    return Announcement.parse(text)


def _resolve(declared_by_seat, strain=HEARTS, hands=None, order=None, values="ffb", tiebreak="ffb"):
    """Resolve announcements declared by seat (list of lists of strings); hands default to holding them."""
    declared = [tuple(A(t) for t in d) for d in declared_by_seat]
    if hands is None:
        hands = [sum(a.cards for a in d) for d in declared]
    order = order if order is not None else [s for s in range(len(declared)) if declared[s]]
    return resolve(declared, hands, FOUR, order, strain, values, tiebreak)


# --------------------------------------------------------------------------- values


def test_tierce_is_worth_20():
    """Three cards in sequence in one suit: a tierce, 20 points (FFB coinche §8)."""
    assert A("9H TH JH").kind == "tierce"
    assert A("9H TH JH").points(SPADES) == 20


def test_cinquante_is_worth_50():
    """Four cards in sequence in one suit: a cinquante, 50 points (FFB coinche §8)."""
    assert A("TD JD QD KD").kind == "cinquante"
    assert A("TD JD QD KD").points(SPADES) == 50


def test_cent_is_five_in_sequence_worth_100():
    """Five cards in sequence in one suit: a cent, 100 points (FFB coinche §8)."""
    assert A("7C 8C 9C TC JC").kind == "cent"
    assert A("7C 8C 9C TC JC").points(SPADES) == 100


def test_sequence_order_is_7_8_9_10_j_q_k_a():
    """Sequences follow the order 7 8 9 10 J Q K A, whatever the trump (FFB coinche §8)."""
    assert A("TS JS QS").kind == "tierce"
    assert A("QS KS AS").height == A("QS KS AS").card_list()[-1].rank
    for not_a_sequence in ("KS AS 7S", "9S JS QS", "JS 9S AS"):
        with pytest.raises(NotationError):
            A(not_a_sequence)
    # J 9 A is the trump order, not a sequence: a hand J♥ 9♥ A♥ holds no announcement.
    assert best_announcements(parse_hand("JH 9H AH 7S 9D KD 8C TC"), HEARTS) == ()


@pytest.mark.parametrize(("rank", "points"), [("J", 200), ("9", 150), ("A", 100), ("T", 100), ("K", 100), ("Q", 100)])
def test_carre_values(rank, points):
    """Carrés: J 200, 9 150, A 10 K Q 100 (FFB coinche §8)."""
    carre = A(" ".join(rank + s for s in "SHDC"))
    assert carre.points(HEARTS) == points


def test_carres_of_7_and_8_count_nothing():
    """Carrés of 7s and 8s count nothing (FFB coinche §8)."""
    for rank in "78":
        with pytest.raises(NotationError):
            A(" ".join(rank + s for s in "SHDC"))
        hand = parse_hand(" ".join(rank + s for s in "SHDC") + " AS KH JD 9C")
        assert best_announcements(hand, HEARTS) == ()


@pytest.mark.parametrize(("rank", "points"), [("A", 200), ("T", 150), ("K", 100), ("Q", 100), ("J", 100), ("9", 100)])
def test_sans_atout_carre_values(rank, points):
    """Sans atout carrés: A 200, 10 150, K Q J 9 100 (FFB coinche §11.2)."""
    assert A(" ".join(rank + s for s in "SHDC")).points(SANS_ATOUT) == points


def test_tout_atout_carre_values_unchanged():
    """Tout atout: carrés keep their order and values, J 200, 9 150 (FFB coinche §11.3)."""
    assert A("JS JH JD JC").points(TOUT_ATOUT) == 200
    assert A("9S 9H 9D 9C").points(TOUT_ATOUT) == 150
    assert A("AS AH AD AC").points(TOUT_ATOUT) == 100


def test_a_card_counts_in_one_announcement_only():
    """A card counts in one announcement only (FFB coinche §8): the carré of jacks and a tierce without J♠."""
    best = best_announcements(parse_hand("JT98.J.J.J"), SPADES)
    assert [(a.kind, a.points(SPADES)) for a in best] == [("carre", 200), ("tierce", 20)]
    assert sum(a.cards for a in best) == parse_hand("JT98.J.J.J")
    # 7 8 9 10 holds a cinquante and two tierces: only one of them counts (*Belote bazar*).
    assert [a.kind for a in best_announcements(parse_hand("T987...AK"), HEARTS)] == ["cinquante"]


def test_declaring_overlapping_announcements_is_refused():
    """A declaration using one card in two announcements is refused (FFB coinche §8)."""
    deal = deal_from_hands(["JT98.J7.J.J", "AKQ7.AKQ.A.", ".T98.KQT9.7", "..87.AKQT98"])
    with pytest.raises(IllegalAction) as err:
        deal.apply("ann:JS-JH-JD-JC+9S-TS-JS")
    assert err.value.code == "overlap"
    deal.apply("ann:JS-JH-JD-JC+8S-9S-TS")


# --------------------------------------------------------------------------- resolution §8.3


def test_carre_of_100_beats_a_cent():
    """A carré worth 100 beats a cent (FFB coinche §8)."""
    result = _resolve([["QS QH QD QC"], ["7D 8D 9D TD JD"], [], []])
    assert result.winner == 0
    assert result.points == {0: 100, 1: 0}


def test_higher_announcement_wins():
    """Only the side holding the highest announcement scores (FFB coinche §8.3)."""
    result = _resolve([["7S 8S 9S"], ["7D 8D 9D TD"], [], []])
    assert result.winner == 1
    assert result.points == {0: 0, 1: 50}


def test_equal_announcements_higher_card_wins():
    """Equal announcements: the one with the highest card wins: a tierce to the ace beats a tierce to the queen
    (FFB coinche §8.3)."""
    result = _resolve([["TS JS QS"], ["QD KD AD"], [], []])
    assert result.winner == 1
    assert result.points == {0: 0, 1: 20}


def test_equal_height_announcement_in_trump_wins():
    """Equal announcements of equal height: the one in trump wins (FFB coinche §8.3)."""
    result = _resolve([["JS QS KS"], ["JH QH KH"], [], []], strain=HEARTS)
    assert result.winner == 1
    result = _resolve([["JS QS KS"], ["JH QH KH"], [], []], strain=SPADES)
    assert result.winner == 0


def test_still_tied_nobody_scores_even_lower_announcements():
    """Still tied after height and trump: no announcement counts for anybody, not even lower ones
    (FFB coinche §8.3)."""
    result = _resolve([["QS KS AS", "7D 8D 9D"], ["QC KC AC"], [], []], strain=HEARTS)
    assert result.winner is None
    assert result.points == {0: 0, 1: 0}


def test_winning_side_scores_all_its_announcements():
    """The winning side scores all its announcements, including ones lower than the opponents' best, its
    partner's too (FFB coinche §8.3)."""
    result = _resolve([["9S TS JS QS"], ["7D 8D 9D TD"], ["7C 8C 9C"], []], strain=HEARTS)
    assert result.winner == 0
    assert result.points == {0: 70, 1: 0}


def test_carre_of_tens_beats_carre_of_kings():
    """Two carrés of 100: the higher card wins; the FFB lists the carrés strongest first J, 9, A, 10, K, Q
    (FFB, older wording; the FFB's table A, 10, K, Q) and a 10 is above a K in both card orders (FFB coinche
    §8, §8.3, §6).
    docs/rules.md chooses the sequence order 7 … A between carrés of 100 instead: the sources are not silent."""
    result = _resolve([["KS KH KD KC"], ["TS TH TD TC"], [], []], strain=HEARTS)
    assert result.winner == 1
    result = _resolve([["TS TH TD TC"], ["QS QH QD QC"], [], []], strain=HEARTS)
    assert result.winner == 0


def test_carre_of_jacks_beats_carre_of_nines_beats_carre_of_aces():
    """Carrés rank by value: J (200) above 9 (150) above A (100) (FFB coinche §8)."""
    assert _resolve([["9S 9H 9D 9C"], ["JS JH JD JC"], [], []]).winner == 1
    assert _resolve([["9S 9H 9D 9C"], ["AS AH AD AC"], [], []]).winner == 0


def test_sans_atout_carre_of_aces_beats_carre_of_jacks():
    """Sans atout: the carré of aces (200) is the highest, the jacks are worth 100 (FFB coinche §11.2)."""
    result = _resolve([["JS JH JD JC"], ["AS AH AD AC"], [], []], strain=SANS_ATOUT)
    assert result.winner == 1
    assert result.points == {0: 0, 1: 200}


def test_renonce_gives_the_announcement_to_the_opponents():
    """An announcement a player cannot show goes to the opponents (FFB coinche §8.4): the faulty side's
    announced points are marked by the opponents, whose own announcements then count too."""
    hands = [parse_hand("7S 8S TS AH 7D 8D 8C 9C"), parse_hand("JD QD KD 9H 7H 7C TC JC"), 0, 0]
    result = _resolve([["7S 8S 9S TS"], ["JD QD KD"], [], []], hands=hands)
    assert result.points == {0: 0, 1: 50 + 20}
    assert 0 in result.renonce and result.winner == 1


# --------------------------------------------------------------------------- in a deal

#: Seat 0 holds a tierce Q-K-A♣; nobody else holds an announcement; hearts trump.
TIERCE_HANDS = ["97.T8.K.AKQ", "T8.KJ.AQ.97", "KJ.AQ.97.T8", "AQ.97.JT8.J"]


def test_holder_must_declare_with_first_card():
    """Announcements are declared when playing one's first card (FFB coinche §8.2): a holder must declare
    (possibly none) before his first card."""
    deal = deal_from_hands(TIERCE_HANDS)
    assert all(isinstance(a, Declare) for a in deal.legal_actions())
    with pytest.raises(IllegalAction) as err:
        deal.apply("7S")
    assert err.value.code == "declare_first"


def test_announcements_only_with_the_first_card():
    """Announcements are made during the first trick only, with one's first card (FFB coinche §8.2)."""
    deal = deal_from_hands(TIERCE_HANDS)
    play(deal, "ann:-", "7S", "8S", "JS", "AS")
    assert deal.turn == 3
    with pytest.raises(IllegalAction) as err:
        deal.apply("ann:-")  # seat 3 has played: it is trick 2
    assert err.value.code == "late_announcement"


def test_resolution_at_first_card_of_second_trick():
    """The announcements are resolved when the first card of trick 2 has been played (FFB coinche §8.3)."""
    deal = deal_from_hands(TIERCE_HANDS)
    play(deal, "ann:QC-KC-AC", "7S", "8S", "JS", "AS")
    assert len(deal.tricks) == 1
    assert deal.resolution is None
    play(deal, "QS")
    assert deal.resolution is not None
    assert deal.resolution.winner == 0
    assert deal.resolution.points == {0: 20, 1: 0}


def test_declared_announcements_score_in_the_deal():
    """The winning side's announcements count in its total (FFB coinche §8.3, §10.1)."""
    deal = deal_from_hands(TIERCE_HANDS)
    autoplay(deal, declare=True)
    assert deal.result.announcements == {0: 20, 1: 0}
    deal = deal_from_hands(TIERCE_HANDS)
    autoplay(deal, declare=False)
    assert deal.result.announcements == {0: 0, 1: 0}


def test_contree_has_no_announcement_but_belote():
    """Contrée: the only announcement is belote/rebelote (FunBelote, *Belote contrée*)."""
    rules = Ruleset.preset("contree")
    deal = deal_from_hands(TIERCE_HANDS, rules=rules)
    assert not any(isinstance(a, Declare) for a in deal.legal_actions())
    with pytest.raises(IllegalAction) as err:
        deal.apply("ann:QC-KC-AC")
    assert err.value.code == "no_announcements"
    autoplay(deal)
    assert deal.result.announcements == {0: 0, 1: 0}


def test_plain_hands_have_no_announcement():
    """(Fixture check) The plain test hands hold no announcement (FFB coinche §8)."""
    for hand in PLAIN_HANDS:
        assert best_announcements(parse_hand(hand), HEARTS) == ()


# --------------------------------------------------------------------------- Belote bazar


def test_bazar_announcement_values():
    """Bazar values, in tens: tierce 2, 50 5, 100 10, carré J 20, 9 14 (10 at SA), A 10 (19 at SA), K Q 10 10
    (*Belote bazar*)."""
    assert A("9H TH JH").points(HEARTS, "bazar") == 20
    assert A("9H TH JH QH").points(HEARTS, "bazar") == 50
    assert A("9H TH JH QH KH").points(HEARTS, "bazar") == 100
    assert carre_points(4, HEARTS, "bazar") == 200  # J
    assert carre_points(2, HEARTS, "bazar") == 140  # 9
    assert carre_points(2, SANS_ATOUT, "bazar") == 100
    assert carre_points(7, HEARTS, "bazar") == 100  # A
    assert carre_points(7, SANS_ATOUT, "bazar") == 190
    for rank in (3, 5, 6):  # 10 Q K
        assert carre_points(rank, HEARTS, "bazar") == 100


def test_bazar_equal_announcements_first_to_show_wins():
    """Bazar: equal announcements of equal height without trump: the first to show wins (*Belote bazar*)."""
    result = _resolve(
        [["JS QS KS"], ["JD QD KD"], [], []], strain=HEARTS, order=[1, 0], values="bazar", tiebreak="bazar"
    )
    assert result.winner == 1
    result = _resolve(
        [["JS QS KS"], ["JD QD KD"], [], []], strain=HEARTS, order=[0, 1], values="bazar", tiebreak="bazar"
    )
    assert result.winner == 0


def test_bazar_equal_announcements_go_to_the_first_to_play_in_trick_2():
    """Bazar: of equal announcements, the one shown first wins, and each player shows his before his card of trick 2:
    « il doit la montrer aux autres joueurs avant de jouer de nouveau », « celui qui a l'occasion de montrer sa
    combinaison en premier passera » (*Belote bazar*). South declares his tierce first, in trick 1, but West wins
    trick 1, so West shows first and his side's tierce counts."""
    hands = ["7JQK.79.7.7", "8.8T.JQK.QA", "9TA.JQ.8.89", ".KA.9TA.TJK"]
    deal = deal_from_hands(hands, rules=Ruleset.preset("bazar"))
    play(deal, "ann:JS-QS-KS", "7C", "ann:JD-QD-KD", "AC", "8C", "TC")
    assert deal.turn == 1
    play(deal, "8S")
    assert deal.resolution is not None and deal.resolution.winner == 1
    assert deal.resolution.points == {0: 0, 1: 20}


def test_bazar_equal_height_more_trumps_wins():
    """Bazar: equal height, the combination with more trumps wins (*Belote bazar*)."""
    result = _resolve(
        [["JS QS KS"], ["JH QH KH"], [], []], strain=HEARTS, order=[0, 1], values="bazar", tiebreak="bazar"
    )
    assert result.winner == 1
