"""Dealing: FFB coinche §3 (dealer, cut, packets); classique's two stages (*Règles de la belote classique*, the
online game's classique); two and three players (*Belote face à face*, *Belote à trois sans 7 et 8*)."""

import random

import pytest

from atout import Card, Deal, Match, Ruleset, cards_of
from atout.dealing import complete_retourne, cut, deal_cards, full_deck

COINCHE = Ruleset.preset("coinche")


@pytest.mark.parametrize("pattern", [(3, 2, 3), (3, 3, 2), (2, 3, 3)])
def test_packets_of_the_deal(pattern):
    """Eight cards each in packets 3-2-3, 3-3-2 or 2-3-3, starting with the player after the dealer
    (FFB coinche §3.4)."""
    deck = list(range(32))
    dealt = deal_cards(COINCHE, deck, dealer=3, pattern=pattern)
    expected = [0, 0, 0, 0]
    top = 0
    for size in pattern:
        for seat in (0, 1, 2, 3):  # the dealer (3) is served last
            for card in deck[top : top + size]:
                expected[seat] |= 1 << card
            top += size
    assert list(dealt.hands) == expected
    assert all(h.bit_count() == 8 for h in dealt.hands)


def test_packet_patterns_allowed():
    """The three packet patterns of the FFB, and only those (FFB coinche §3.4)."""
    assert set(COINCHE.replace(packets="any").packet_patterns()) == {(3, 2, 3), (3, 3, 2), (2, 3, 3)}
    assert COINCHE.packet_patterns() == ((3, 2, 3),)


def test_player_after_dealer_is_served_first():
    """The dealer starts with the player after him (FFB coinche §3.4): the top three cards go to seat d+1."""
    deck = [Card.parse(c) for c in ("AS", "TS", "KS")] + [
        c for c in full_deck(COINCHE) if Card(c).code not in ("AS", "TS", "KS")
    ]
    for dealer in range(4):
        deal = Deal.from_deck(COINCHE, deck, dealer=dealer, pattern=(3, 2, 3))
        first = (dealer + 1) % 4
        assert {"AS", "TS", "KS"} <= {c.code for c in deal.hand(first)}


def test_cut_leaves_at_least_three_cards_in_each_packet():
    """The cut leaves at least 3 cards in each packet (FFB coinche §3.3)."""
    deck = list(range(32))
    seen = set()
    for seed in range(300):
        out = cut(deck, random.Random(seed), COINCHE.cut_min)
        at = 32 - out.index(0)  # cards moved from the top to the bottom
        assert 3 <= at <= 29
        assert sorted(out) == deck
        seen.add(at)
    assert {3, 29} <= seen
    assert COINCHE.cut_min == 3


def test_every_deal_gives_each_player_eight_cards_of_one_deck():
    """A shuffled deal gives 8 cards to each of the four players, the 32 cards once each (FFB coinche §2, §3)."""
    for seed in range(5):
        deal = Deal.new(COINCHE, dealer=seed % 4, seed=seed)
        masks = [deal.hand_mask(s) for s in range(4)]
        assert [m.bit_count() for m in masks] == [8, 8, 8, 8]
        assert masks[0] | masks[1] | masks[2] | masks[3] == 0xFFFFFFFF


def test_dealer_passes_to_next_seat():
    """The next deal is dealt by the next player (FFB coinche §3.1)."""
    match = Match(COINCHE, first_dealer=1, seed=3)
    assert match.dealer == 1
    match.add_facts(None)
    assert match.dealer == 2
    match.add_facts(None)
    match.add_facts(None)
    assert match.dealer == 0


# --------------------------------------------------------------------------- retourne deals

CLASSIQUE = Ruleset.preset("classique")
CLASSIQUE_HANDS = ["AKQJ7...", ".AKQJ7..", "..AKQJ7.", "...AKQJ7"]
CLASSIQUE_STOCK = ["9S", "8S", "9H", "8H", "TH", "9D", "8D", "TD", "9C", "8C", "TC"]


def test_classique_first_stage_five_cards_and_a_retourne():
    """Classique: 5 cards each (3 then 2), then the next card is turned face up (*Règles de la belote classique*)."""
    deck = list(range(32))
    dealt = deal_cards(CLASSIQUE, deck, dealer=3, pattern=(3, 2))
    assert [h.bit_count() for h in dealt.hands] == [5, 5, 5, 5]
    assert dealt.hands[0] == sum(1 << c for c in (0, 1, 2, 12, 13))
    assert dealt.retourne == 20
    assert len(dealt.stock) == 11


def test_classique_taker_gets_retourne_and_two_cards_others_three():
    """Classique: the taker gets the retourne and 2 more cards, every other player 3 (*Règles de la belote
    classique*)."""
    deal = Deal.from_hands(CLASSIQUE, CLASSIQUE_HANDS, dealer=3, retourne="TS", stock=CLASSIQUE_STOCK)
    deal.apply("P")
    deal.apply("takeS")  # seat 1 takes
    hands = [{c.code for c in deal.hand(s)} for s in range(4)]
    assert [len(h) for h in hands] == [8, 8, 8, 8]
    # Dealt from the player after the dealer: seat 0 three cards, seat 1 (taker) two, seats 2 and 3 three.
    assert {"9S", "8S", "9H"} <= hands[0]
    assert {"TS", "8H", "TH"} <= hands[1]
    assert {"9D", "8D", "TD"} <= hands[2]
    assert {"9C", "8C", "TC"} <= hands[3]


def test_complete_retourne_serves_from_player_after_dealer():
    """Second stage: the rest is dealt from the player after the dealer, 2 to the taker, 3 to the others
    (*Règles de la belote classique*)."""
    hands = [0, 0, 0, 0]
    stock = list(range(11))
    full, rest = complete_retourne(CLASSIQUE, hands, 31, stock, dealer=1, taker=3)
    assert [sorted(int(c) for c in cards_of(m)) for m in full] == [[5, 6, 7], [8, 9, 10], [0, 1, 2], [3, 4, 31]]
    assert rest == ()


def test_trois_uses_24_cards_and_gives_eight_each():
    """Three players: 24 cards without 7s and 8s, 5 each and a retourne, then 8 each after the taking
    (*Belote à trois sans 7 et 8*)."""
    rules = Ruleset.preset("trois")
    deal = Deal.new(rules, dealer=0, seed=4)
    assert [deal.hand_mask(s).bit_count() for s in range(3)] == [5, 5, 5]
    everything = [c for s in range(3) for c in deal.hand(s)] + [deal.retourne]
    assert all(c.rank.label not in ("7", "8") for c in everything)
    deal.apply("take" + "SHDC"[deal.retourne.suit])
    assert [deal.hand_mask(s).bit_count() for s in range(3)] == [8, 8, 8]


def test_deux_six_cards_then_nine():
    """Two players: 6 cards each (3 + 3) and a retourne, then 9 each once someone takes (*Belote face à face*;
    common practice)."""
    rules = Ruleset.preset("deux")
    deal = Deal.new(rules, dealer=1, seed=9)
    assert [deal.hand_mask(s).bit_count() for s in range(2)] == [6, 6]
    legal = [a.notation() for a in deal.legal_actions()]
    deal.apply(next(a for a in legal if a.startswith("take")))
    assert [deal.hand_mask(s).bit_count() for s in range(2)] == [9, 9]
