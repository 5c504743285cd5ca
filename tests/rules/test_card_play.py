"""Card play obligations: FFB coinche §5.1, §5.2, §11.2, §11.3; FunBelote, *Belote contrée*; options
overtrump_partner / must_undertrump; three players (*Belote à trois sans 7 et 8*). Hearts are trump unless
said otherwise.

``legal_cards(hand, trick)`` gives the legal cards of ``hand`` after ``trick`` (cards in play order from the
leader); with four players the partner is the one who played two cards before.
"""

import pytest
from rulebook import PLAIN_HANDS, autoplay, codes, deal_from_hands, hand_codes, legal_cards, play

from atout import Deal, IllegalAction, Ruleset

SANS_ATOUT, TOUT_ATOUT = 4, 5


# --------------------------------------------------------------------------- §5.2, suit contracts


def test_must_follow_suit_led():
    """One must always follow the suit led if one can (FFB coinche §5.2)."""
    legal, rule = legal_cards("AS 7S 9H KD 8C", ["KS"])
    assert legal == {"AS", "7S"}
    assert rule == "follow"


def test_plain_suit_need_not_go_above():
    """Following a plain suit, one need not beat the card holding the trick (FFB coinche §5.2: only trump led
    adds the obligation to go above)."""
    legal, _ = legal_cards("KS 7S 9H KD 8C", ["AS"])
    assert legal == {"KS", "7S"}


def test_must_go_above_when_trump_led():
    """Trump led: a player must go above the highest trump on the table if he can (FFB coinche §5.2)."""
    legal, rule = legal_cards("JH 9H TH 7H AS KD 8C QC", ["AH"])
    assert legal == {"JH", "9H"}
    assert rule == "follow_over"


def test_must_go_above_highest_trump_not_the_first():
    """Trump led: the card to beat is the highest trump on the table, not the one led (FFB coinche §5.2)."""
    legal, _ = legal_cards("JH AH 7H AS KD 8C QC 9D", ["TH", "9H"])
    assert legal == {"JH"}


def test_trump_led_may_play_lower_trump_when_unable_to_go_above():
    """Trump led and no higher trump: any trump (FFB coinche §5.2: « si cela s'avère impossible, on peut jouer
    un atout plus faible »)."""
    legal, _ = legal_cards("9H 7H AS KD 8C QC 9D 8D", ["JH"])
    assert legal == {"9H", "7H"}


def test_trump_led_must_go_above_partner_too():
    """Trump led: go above the highest trump on the table even if it is the partner's (FFB coinche §5.2,
    first rule: no exception for the partner; option overtrump_partner, default True)."""
    legal, _ = legal_cards("JH KH AS KD 8C QC 9D 8D", ["7H", "AH", "8H"])
    assert legal == {"JH"}


#: Seat 0 holds A♥, seat 1 8♥, seat 2 J♥ and 7♥, seat 3 the other hearts; no announcement anywhere.
PARTNER_TRUMP_HANDS = ["AKQ.A.AK.AK", "JT9.8.QJ.QJ", "87.J7.T9.T9", ".KQT9.87.87"]


def test_contree_trump_led_partner_master_frees_from_going_above():
    """Contrée: « Lorsque la couleur demandée est atout, les joueurs doivent monter à l'atout sauf s'ils n'en
    possèdent pas ou que leur équipier est maître du pli » (FunBelote, *Belote contrée*): North leads A♥ and
    holds the trick, South may play 7♥ under it; at the FFB's coinche he must play J♥ (FFB coinche §5.2)."""
    contree = Ruleset.preset("contree")
    assert contree.overtrump_partner is False
    deal = deal_from_hands(PARTNER_TRUMP_HANDS, rules=contree)
    play(deal, "AH", "8H")
    assert codes(a.card for a in deal.legal_actions()) == {"JH", "7H"}
    deal = deal_from_hands(PARTNER_TRUMP_HANDS)
    play(deal, "AH", "8H")
    assert codes(a.card for a in deal.legal_actions()) == {"JH"}


def test_option_overtrump_partner_off_frees_from_going_above_partner():
    """Option overtrump_partner=False: a partner holding the trick frees you from going above (rules.py doc)."""
    legal, _ = legal_cards("JH KH AS KD 8C QC 9D 8D", ["7H", "AH", "8H"], overtrump_partner=False)
    assert legal == {"JH", "KH"}


def test_void_with_partner_master_may_play_anything():
    """Void in the suit led and partner master: any card, a discard or a trump (FFB coinche §5.2)."""
    hand = "9H 7H KD 8D QC 9C 8C 7C"
    legal, rule = legal_cards(hand, ["KS", "AS", "7S"])
    assert legal == hand_codes(hand)
    assert rule == "any"
    legal, _ = legal_cards(hand, ["AS", "7S"])  # the partner led and holds the trick
    assert legal == hand_codes(hand)


def test_void_with_partner_not_master_must_trump():
    """Void in the suit led, partner not master: one must trump if one can (FFB coinche §5.2, « couper »)."""
    legal, rule = legal_cards("9H 7H KD 8D QC 9C 8C 7C", ["AS", "7S", "KS"])
    assert legal == {"9H", "7H"}
    assert rule == "trump"


def test_void_before_partner_has_played_must_trump():
    """Void in the suit led while the partner has not played yet: one must trump (FFB coinche §5.2)."""
    legal, rule = legal_cards("9H 7H KD 8D QC 9C 8C 7C", ["AS"])
    assert legal == {"9H", "7H"}
    assert rule == "trump"


def test_void_without_trump_may_discard_anything():
    """Void in the suit led and without trump: any card (FFB coinche §5.2, « on se défausse »)."""
    hand = "KD 8D QC 9C 8C 7C AD TD"
    legal, rule = legal_cards(hand, ["AS"])
    assert legal == hand_codes(hand)
    assert rule == "any"


def test_must_overtrump_an_opponents_ruff():
    """When cutting, one must go above any trump already on the table (FFB coinche §5.2)."""
    legal, rule = legal_cards("JH 8H KD 8D QC 9C 8C 7C", ["AS", "7S", "TH"])
    assert legal == {"JH"}
    assert rule == "overtrump"


def test_need_not_undertrump_ne_pas_pisser():
    """An opponent has cut and one only holds lower trumps: no need to trump, one may discard (FFB coinche §5.2,
    « on ne pisse pas »)."""
    hand = "8H 7H KD 8D QC 9C 8C 7C"
    legal, rule = legal_cards(hand, ["AS", "7S", "TH"])
    assert legal == hand_codes(hand)
    assert rule == "any"


def test_option_must_undertrump_forces_a_lower_trump():
    """Option must_undertrump=True (pisser): holding only lower trumps, one must still play one (rules.py doc;
    the trois preset)."""
    legal, rule = legal_cards("8H 7H KD 8D QC 9C 8C 7C", ["AS", "7S", "TH"], must_undertrump=True)
    assert legal == {"8H", "7H"}
    assert rule == "undertrump"
    assert Ruleset.preset("trois").must_undertrump is True
    assert Ruleset.preset("coinche").must_undertrump is False


def test_partner_ruffed_holding_only_trumps_may_play_under():
    """Partner master by a ruff and one holds nothing but trumps: no need to go above him (FFB coinche §5.2, last
    rule)."""
    hand = "JH 8H 7H"
    legal, _ = legal_cards(hand, ["AS", "9H", "7S"])
    assert legal == {"JH", "8H", "7H"}


def test_partner_ruffed_may_discard_or_overtrump_but_not_undertrump():
    """Partner master by a ruff, one holds other cards: discard, or trump above him; playing under him is
    allowed only when holding nothing but trumps (FFB coinche §5.2: « le seul cas de figure »)."""
    legal, rule = legal_cards("JH 7H KD 8C", ["AS", "9H", "7S"])
    assert legal == {"JH", "KD", "8C"}
    assert rule == "partner_ruff"


def test_option_undertrump_partner_lets_one_trump_below_a_partners_ruff():
    """Option undertrump_partner: partner master by a ruff, one may also trump below him while holding other
    cards, reading FFB coinche §5.2 literally (« on peut alors jouer n'importe quelle carte [...] On peut
    également jouer atout si bon nous semble »); the colver engine plays so (its documented rules, and the
    differential test tests/test_peers.py). A trump led still asks to go above the partner's."""
    legal, rule = legal_cards("JH 7H KD 8C", ["AS", "9H", "7S"], undertrump_partner=True)
    assert legal == {"JH", "7H", "KD", "8C"}  # without the option: J♥, K♦, 8♣
    assert rule == "any"
    legal, _ = legal_cards("JH KH AS KD 8C QC 9D 8D", ["7H", "AH", "8H"], undertrump_partner=True)
    assert legal == {"JH"}
    colver = Ruleset.preset("contree-colver")
    assert colver.overtrump_partner and colver.undertrump_partner


def test_played_deal_honours_undertrump_partner():
    """The deal referees with the option (FFB coinche §5.2 read literally): seat 0 leads A♠, seat 1 ruffs with
    A♥, seat 2 follows; seat 3, void in spades with 9♥ above his partner's ruff, two lower trumps and other
    cards, may play a lower trump only with undertrump_partner."""
    hands = ["AKQT.J.AK.A", ".A7.QJT.KQT", "J987.KQ.9.J", ".T98.87.987"]
    discards = {"8D", "7D", "9C", "8C", "7C"}
    for option, legal in ((False, discards | {"9H"}), (True, discards | {"9H", "TH", "8H"})):
        rules = Ruleset.preset("coinche", announcements=False, undertrump_partner=option)
        deal = deal_from_hands(hands, rules=rules)
        play(deal, "AS", "AH", "7S")
        assert codes(a.card for a in deal.legal_actions()) == legal


# --------------------------------------------------------------------------- §11 sans atout / tout atout


def test_sans_atout_follow_suit_no_need_to_go_above():
    """Sans atout: follow the suit led, with no obligation to beat (FFB coinche §11.2, §5.2)."""
    legal, _ = legal_cards("KS 7S AH 9D", ["AS"], strain=SANS_ATOUT)
    assert legal == {"KS", "7S"}


def test_sans_atout_void_plays_anything():
    """Sans atout: void in the suit led, any card: there is no trump to cut with (FFB coinche §11.2)."""
    legal, rule = legal_cards("AH 9D JC 7C", ["AS", "7S"], strain=SANS_ATOUT)
    assert legal == {"AH", "9D", "JC", "7C"}
    assert rule == "any"


def test_tout_atout_must_go_above_card_holding_trick():
    """Tout atout: one must always go above the card holding the trick when one can (FFB coinche §11.3)."""
    legal, rule = legal_cards("JS AS 7S KD", ["TS", "8S"], strain=TOUT_ATOUT)
    assert legal == {"JS", "AS"}
    assert rule == "follow_over"


def test_tout_atout_must_go_above_partner_too():
    """Tout atout: « toujours obligé de monter sur la carte qui tient », the partner's card included
    (FFB coinche §11.3)."""
    legal, _ = legal_cards("JS AS 7S KD", ["7S", "9S", "8S"], strain=TOUT_ATOUT)
    assert legal == {"JS"}


def test_tout_atout_unable_to_go_above_plays_any_of_suit():
    """Tout atout: unable to go above, any card of the suit led (FFB coinche §11.3)."""
    legal, _ = legal_cards("9S 7S KD", ["JS"], strain=TOUT_ATOUT)
    assert legal == {"9S", "7S"}


def test_tout_atout_void_plays_anything():
    """Tout atout: void in the suit led, any card: it is impossible to cut (FFB coinche §11.3)."""
    legal, rule = legal_cards("JH 9D 7C", ["7S"], strain=TOUT_ATOUT)
    assert legal == {"JH", "9D", "7C"}
    assert rule == "any"


# --------------------------------------------------------------------------- played deals

#: Seat 2 is void in spades; hearts trump; no announcement, no belote anywhere.
VOID_HANDS = ["AK9.7.A9.A9", "Q87.A.K7.K7", ".KJ9.QT.QT8", "JT.QT8.J8.J"]


def test_player_after_dealer_leads_first_trick():
    """The player after the dealer leads the first trick (FFB coinche §5.1)."""
    deal = deal_from_hands(PLAIN_HANDS, ("P", "80H", "P", "P", "P"), dealer=1)
    assert deal.turn == 2


def test_trick_winner_leads_next_trick():
    """The winner of a trick leads the next one (FFB coinche §5.1)."""
    deal = deal_from_hands(VOID_HANDS)
    play(deal, "9S", "QS", "JH", "JS")
    assert deal.tricks[0].winner == 2
    assert deal.turn == 2


def test_played_deal_partner_master_frees_from_trumping():
    """In a deal, void with the partner master: every card is legal (FFB coinche §5.2)."""
    deal = deal_from_hands(VOID_HANDS)
    play(deal, "AS", "7S")
    assert deal.turn == 2
    assert codes(a.card for a in deal.legal_actions()) == hand_codes(VOID_HANDS[2])


def test_played_deal_opponent_master_forces_a_trump():
    """In a deal, void with an opponent master: a trump must be played; a discard is refused with code 'trump'
    (FFB coinche §5.2)."""
    deal = deal_from_hands(VOID_HANDS)
    play(deal, "9S", "QS")
    assert codes(a.card for a in deal.legal_actions()) == {"KH", "JH", "9H"}
    with pytest.raises(IllegalAction) as err:
        deal.apply("QD")
    assert err.value.code == "trump"


def test_illegal_card_is_refused_with_french_and_english_reasons():
    """A card against §5.2 is refused with its reason in French and in English (FFB coinche §5.2; errors.py)."""
    deal = deal_from_hands(VOID_HANDS)
    play(deal, "AS")
    with pytest.raises(IllegalAction) as err:
        deal.apply("AH")
    assert err.value.code == "follow"
    assert "pique" in err.value.message("fr")
    assert "spades" in err.value.message("en")
    assert err.value.message("fr") != err.value.message("en")


def test_illegal_card_leaves_deal_unchanged():
    """An illegal card changes nothing: same turn, same hand, same trick, same legal actions (deal.py contract)."""
    deal = deal_from_hands(VOID_HANDS)
    play(deal, "AS")
    before = (deal.turn, deal.hand(1), deal.current_trick, deal.legal_actions(), len(deal.actions))
    for bad in ("AH", "AS", "JS"):
        with pytest.raises(IllegalAction):
            deal.apply(bad)
    assert (deal.turn, deal.hand(1), deal.current_trick, deal.legal_actions(), len(deal.actions)) == before
    play(deal, "7S")
    assert deal.turn == 2


def test_card_not_in_hand_is_refused():
    """Only a card one holds may be played (FFB coinche §5.1; code 'not_in_hand')."""
    deal = deal_from_hands(VOID_HANDS)
    with pytest.raises(IllegalAction) as err:
        deal.apply("KH")
    assert err.value.code == "not_in_hand"


def test_card_out_of_turn_is_refused():
    """Each plays in turn (FFB coinche §5.1): a card for another seat is refused with code 'turn'."""
    deal = deal_from_hands(VOID_HANDS)
    with pytest.raises(IllegalAction) as err:
        deal.apply("QS", seat=1)
    assert err.value.code == "turn"
    assert deal.turn == 0


# --------------------------------------------------------------------------- three players

#: Trois, dealer 2: seat 0 takes hearts (retourne 9♥) and leads A♠; seat 2 has no spade.
TROIS_FIRST_STAGE = ["AJ9..A.K", "KQT.K.Q.", ".AJT.KJ."]
TROIS_STOCK = ["QH", "TD", "9D", "AC", "JC", "QC", "TC", "9C"]


def test_three_players_have_no_partner():
    """Three players each play for himself: with seat 0 holding the trick, seat 2 (void) must still trump
    (*Belote à trois sans 7 et 8*)."""
    deal = Deal.from_hands(Ruleset.preset("trois"), TROIS_FIRST_STAGE, dealer=2, retourne="9H", stock=TROIS_STOCK)
    play(deal, "takeH")
    play(deal, "AS", "TS")
    assert deal.turn == 2
    assert codes(a.card for a in deal.legal_actions()) == {"AH", "JH", "TH"}


def test_three_player_deal_plays_out():
    """Three players: 24 cards, 8 tricks of 3 cards, 162 points with the dix de der (*Belote à trois
    sans 7 et 8*)."""
    deal = Deal.from_hands(Ruleset.preset("trois"), TROIS_FIRST_STAGE, dealer=2, retourne="9H", stock=TROIS_STOCK)
    play(deal, "takeH")
    autoplay(deal)
    assert len(deal.tricks) == 8
    assert all(len(t.cards) == 3 for t in deal.tricks)
    assert sum(deal.result.card_points.values()) in (162, Ruleset.preset("trois").capot_points)
