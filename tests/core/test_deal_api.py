"""The Deal API: creation, turns, bad input that changes nothing, copies."""

from __future__ import annotations

import dataclasses
import pickle
import random

import pytest

from atout import Deal, IllegalAction, NotationError, Phase, Ruleset
from atout.actions import Bid, Declare, Play, Take, parse_action
from atout.cards import Card
from atout.errors import RecordError
from atout.i18n import Message

#: The error messages these tests read are the English ones.
pytestmark = pytest.mark.usefixtures("english")

HANDS = ["AKQJT987...", ".AKQJT987..", "..AKQJT987.", "...AKQJT987"]


def test_seeded_deals_are_reproducible_and_differ_by_seed() -> None:
    rules = Ruleset.preset("coinche")
    assert Deal.new(rules, seed=1).position() == Deal.new(rules, seed=1).position()
    assert Deal.new(rules, seed=1).position() != Deal.new(rules, seed=2).position()


def test_player_after_the_dealer_speaks_first() -> None:
    """The auction starts with the player after the dealer (FFB coinche §4.1)."""
    for dealer in range(4):
        assert Deal.new(Ruleset.preset("coinche"), dealer=dealer, seed=0).turn == (dealer + 1) % 4


def test_action_out_of_turn_is_rejected_and_changes_nothing() -> None:
    deal = Deal.from_hands(Ruleset.preset("coinche"), HANDS, dealer=3)
    before = deal.position()
    with pytest.raises(IllegalAction) as err:
        deal.apply("80S", seat=2)
    assert err.value.code == "turn" and err.value.message("fr") == "Ce n'est pas à Sud de jouer mais à Nord"
    assert deal.position() == before


def test_card_during_the_auction_and_bid_during_play() -> None:
    deal = Deal.from_hands(Ruleset.preset("coinche"), HANDS, dealer=3)
    with pytest.raises(IllegalAction, match="not an auction call"):
        deal.apply("AS")
    for call in ["80S", "P", "P", "P"]:
        deal.apply(call)
    deal.apply("ann:-")
    with pytest.raises(IllegalAction, match="auction is over"):
        deal.apply("90H")


def test_the_deal_is_over() -> None:
    deal = Deal.from_hands(Ruleset.preset("coinche"), HANDS, dealer=3)
    for _ in range(4):
        deal.apply("P")
    assert deal.phase is Phase.DONE and deal.result is not None and deal.result.passed_out
    assert deal.legal_actions() == [] and deal.turn is None
    with pytest.raises(IllegalAction, match="over"):
        deal.apply("P")


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        (HANDS[:3], "4 hands"),
        (["AKQJT98...", ".AKQJT987..", "..AKQJT987.", "...AKQJT987"], "7 cards"),
    ],
)
def test_bad_hands(hands: list[str], message: str) -> None:
    with pytest.raises(NotationError, match=message):
        Deal.from_hands(Ruleset.preset("coinche"), hands)


def test_retourne_variants_need_the_retourne_and_stock() -> None:
    rules = Ruleset.preset("classique")
    hands = ["AKQJ7...", ".AKQJ7..", "..AKQJ7.", "...AKQJ7"]
    with pytest.raises(NotationError, match="retourne"):
        Deal.from_hands(rules, hands)
    with pytest.raises(NotationError, match="whole deck"):
        Deal.from_hands(rules, hands, retourne="TS", stock=["9S"])
    with pytest.raises(NotationError, match=r"twice|only the hands"):
        Deal.from_hands(Ruleset.preset("coinche"), HANDS, retourne="TS")


def test_from_deck_deals_in_packets_from_the_dealers_next() -> None:
    """The dealer serves the player after him first, 3 then 2 then 3 cards (FFB coinche §3.4)."""
    rules = Ruleset.preset("coinche")
    deck = list(range(32))
    deal = Deal.from_deck(rules, deck, dealer=3, pattern=(3, 2, 3))
    assert deal.hand(0)[:3] == [Card(0), Card(1), Card(2)]
    assert set(deal.hand(0)) == {Card(c) for c in (0, 1, 2, 12, 13, 20, 21, 22)}
    with pytest.raises(NotationError, match="does not deal"):
        Deal.from_deck(rules, deck, dealer=0, pattern=(3, 3, 3))
    with pytest.raises(NotationError, match="exactly once"):
        Deal.from_deck(rules, [0] * 32, dealer=0)


def test_classique_second_stage_gives_the_taker_the_retourne_and_two_cards() -> None:
    """The taker gets the retourne and 2 cards, the others 3 (Règles de la belote classique, the deal)."""
    rules = Ruleset.preset("classique")
    hands = ["AKQJ7...", ".AKQJ7..", "..AKQJ7.", "...AKQJ7"]
    stock = ["9S", "8S", "9H", "8H", "TH", "9D", "8D", "TD", "9C", "8C", "TC"]
    deal = Deal.from_hands(rules, hands, dealer=3, retourne="TS", stock=stock)
    deal.apply("P")
    deal.apply("takeS")
    assert deal.phase is Phase.PLAY and deal.contract is not None and deal.contract.taker == 1
    assert {c.code for c in deal.hand(1)} == {"AH", "KH", "QH", "JH", "7H", "TS", "8H", "TH"}
    assert {c.code for c in deal.hand(0)} == {"AS", "KS", "QS", "JS", "7S", "9S", "8S", "9H"}
    assert [len(deal.hand(s)) for s in range(4)] == [8, 8, 8, 8]


@pytest.mark.parametrize("preset", ["coinche", "contree", "classique", "bazar", "deux", "trois"])
def test_legal_cards_are_the_cards_of_the_legal_actions(preset: str) -> None:
    """``legal_cards()`` is the mask of the cards among ``legal_actions()`` at every step: 0 in the
    auction, while the seat must declare its announcements, and once the deal is over."""
    rules = Ruleset.preset(preset)
    rng = random.Random(3)
    declaring = 0
    for i in range(30):
        deal = Deal.new(rules, dealer=i % rules.players, rng=rng)
        while True:
            legal = deal.legal_actions()
            cards = 0
            for action in legal:
                if isinstance(action, Play):
                    cards |= 1 << action.card
            assert deal.legal_cards() == cards
            declaring += deal.must_declare
            if not legal:
                break
            deal.apply(rng.choice(legal))
        assert deal.phase is Phase.DONE
    assert declaring or not rules.announcements


def test_copy_is_independent() -> None:
    deal = Deal.new(Ruleset.preset("coinche"), seed=5)
    deal.apply("P")
    twin = deal.copy()
    twin.apply("80H")
    assert len(deal.actions) == 1 and len(twin.actions) == 2


@pytest.mark.parametrize("preset", ["coinche", "contree", "classique", "bazar", "deux", "trois"])
def test_a_deal_started_from_its_state_plays_on_the_same(preset: str) -> None:
    """``Deal.from_state(deal.state)`` at any moment of the play answers the same legal actions and ends
    with the same result as the deal itself, and a copy of it replays from that state."""
    rules = Ruleset.preset(preset)
    rng = random.Random(11)
    for i in range(40):
        deal = Deal.new(rules, dealer=i % rules.players, rng=rng)
        while deal.phase is Phase.AUCTION:
            deal.apply(rng.choice(deal.legal_actions()))
        if deal.phase is Phase.DONE:
            continue
        for _ in range(rng.randrange(rules.players * rules.hand_size)):
            deal.apply(rng.choice(deal.legal_actions()))
        twin = Deal.from_state(rules, deal.dealer, deal.state)
        assert not twin.has_history and deal.has_history
        assert twin.state == deal.state and twin.position() == deal.position()
        while deal.phase is not Phase.DONE:
            assert twin.legal_actions() == deal.legal_actions()
            action = rng.choice(deal.legal_actions())
            deal.apply(action)
            twin.apply(action)
            assert twin.copy().state == twin.state or twin.phase is Phase.DONE
        assert deal.result is not None and twin.result is not None
        assert twin.result.marks == deal.result.marks and twin.result.facts == deal.result.facts


def test_a_state_no_deal_reaches_is_refused() -> None:
    rules = Ruleset.preset("coinche", announcements=False)
    state = Deal.from_hands(rules, HANDS, dealer=3)
    for call in ("80S", "P", "P", "P"):
        state.apply(call)
    good = state.state
    with pytest.raises(NotationError, match="twice"):
        Deal.from_state(rules, 3, dataclasses.replace(good, hands=(good.hands[0],) * 4))
    with pytest.raises(NotationError, match="by side"):
        Deal.from_state(rules, 3, dataclasses.replace(good, points=(0, 0, 0)))


def test_actions_parse_and_print() -> None:
    for text, action in [
        ("90H", Bid(90, 1)),
        ("capotSA", Bid(0, 4, True)),
        ("270capotH", Bid(270, 1, True)),
        ("takeD", Take(2)),
        ("QH!", Play(Card.parse("QH"), True)),
        ("ann:-", Declare(())),
    ]:
        assert parse_action(text) == action and action.notation() == text
    assert parse_action("passe").notation() == "P" and parse_action("contre").notation() == "X"
    assert parse_action("surcontre").notation() == "XX" and parse_action("100 ♥") == Bid(100, 1)
    assert parse_action("80 sa") == Bid(80, 4) and parse_action("10H") == Play(Card.parse("10H"))
    with pytest.raises(NotationError, match="unknown action"):
        parse_action("hello")
    with pytest.raises(NotationError, match="announcement"):
        parse_action("ann:7H-9H")
    with pytest.raises(NotationError, match="take"):
        parse_action("takeZ")


def test_labels_in_both_languages() -> None:
    assert parse_action("P").label("fr") == "passe" and parse_action("P").label("en") == "pass"
    assert parse_action("90H").label() == "90 ♥" and parse_action("capotS").label() == "capot ♠"
    assert parse_action("takeH").label("fr") == "prend à cœur"
    assert parse_action("QH!").label("fr") == "D♥ (belote)"
    assert parse_action("ann:9H-TH-JH").label("fr") == "tierce 9♥-V♥"


def test_an_error_crosses_a_process_boundary_whole() -> None:
    """A worker process (the arena's, the web table's bots) sends its error to its parent pickled:
    both languages, the code and a record's line come back."""
    deal = Deal.new(Ruleset.preset("coinche"), dealer=0, seed=1)
    with pytest.raises(IllegalAction) as err:
        deal.apply("7S", seat=0)  # out of turn: the auction is on
    back = pickle.loads(pickle.dumps(err.value))
    assert type(back) is IllegalAction and back.code == err.value.code
    assert (back.message("fr"), back.message("en")) == (err.value.message("fr"), err.value.message("en"))
    record = RecordError(Message("errors.missing"), line=3)
    record_back = pickle.loads(pickle.dumps(record))
    assert record_back.line == 3 and record_back.message("en") == record.message("en")
