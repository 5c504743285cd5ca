"""Card, hand and deal notation: every accepted spelling, printing, and clear errors."""

from __future__ import annotations

import pytest

from atout.cards import (
    SHORT_DECK,
    Card,
    Rank,
    Suit,
    cards_of,
    count,
    deck_mask,
    format_hand,
    mask_of,
    parse_hand,
    sorted_for_display,
)
from atout.errors import NotationError
from atout.notation import format_deal_line, parse_deal_line, parse_seat, seat_letter, seat_name
from atout.rules import Ruleset

#: The error messages these tests read are the English ones.
pytestmark = pytest.mark.usefixtures("english")


@pytest.mark.parametrize(
    "text",
    ["J♥", "JH", "jh", "V♥", "VH", "valet de cœur", "Valet de coeur", "jack of hearts", "« valet de cœur »", " J♡ "],
)
def test_jack_of_hearts_spellings(text: str) -> None:
    assert Card.parse(text) == Card.of(Suit.HEARTS, Rank.JACK)


@pytest.mark.parametrize(
    ("text", "rank"),
    [
        ("10S", Rank.TEN),
        ("TS", Rank.TEN),
        ("10♠", Rank.TEN),
        ("dix de pique", Rank.TEN),
        ("AS", Rank.ACE),
        ("RS", Rank.KING),
        ("DS", Rank.QUEEN),
        ("7S", Rank.SEVEN),
        ("as de pique", Rank.ACE),
    ],
)
def test_ranks(text: str, rank: Rank) -> None:
    card = Card.parse(text)
    assert card.rank == rank and card.suit == Suit.SPADES


def test_printing() -> None:
    card = Card.parse("TD")
    assert (str(card), card.code, card.label("fr"), card.name_in("fr"), card.name_in("en"), repr(card)) == (
        "10♦",
        "TD",
        "10♦",
        "dix de carreau",
        "ten of diamonds",
        "Card('10♦')",
    )
    assert Card.parse("QC").label("fr") == "D♣" and Card.parse("QC").label("en") == "Q♣"


def test_cards_are_shared_ints() -> None:
    assert Card(12) is Card.parse("JH") and Card(12) + 1 == 13 and Card.parse("JH").mask == 1 << 12


@pytest.mark.parametrize("bad", ["", "J", "1H", "JX", "11H", "valet de rien", "zz of hearts", "♥J"])
def test_malformed_cards_are_rejected_with_the_input_named(bad: str) -> None:
    with pytest.raises(NotationError) as err:
        Card.parse(bad)
    assert repr(bad.strip()) in str(err.value) or "empty" in str(err.value) or bad.strip() in str(err.value)


def test_card_index_out_of_range() -> None:
    with pytest.raises(NotationError, match=r"0\.\.31"):
        Card(32)


def test_card_parse_needs_text() -> None:
    with pytest.raises(NotationError, match="text"):
        Card.parse(12)  # type: ignore[arg-type]


def test_hand_notation_round_trip() -> None:
    mask = parse_hand("AKJ7.T98.Q.J7")
    assert count(mask) == 10 and format_hand(mask) == "AKJ7.T98.Q.J7"
    assert parse_hand("AKJ7.1098.Q.J7") == mask
    assert parse_hand("J♥ 9♥, A♠") == mask_of([Card.parse("JH"), Card.parse("9H"), Card.parse("AS")])


@pytest.mark.parametrize("bad", ["AK.QJ.T", "AX...", "AK7.T98.Q.J7.9"])
def test_malformed_hands(bad: str) -> None:
    with pytest.raises(NotationError, match="malformed hand"):
        parse_hand(bad)


def test_duplicate_cards_are_rejected() -> None:
    with pytest.raises(NotationError, match="twice"):
        parse_hand("JH JH")


def test_decks() -> None:
    """The 32-card deck, and the 24-card deck without 7s and 8s (three players)."""
    assert count(deck_mask()) == 32 and count(deck_mask(short=True)) == 24 == count(SHORT_DECK)
    assert all(c.rank >= Rank.NINE for c in cards_of(SHORT_DECK))


def test_display_order_puts_trump_first_in_trump_order() -> None:
    hand = parse_hand("AJ9.87.A.")
    assert [str(c) for c in sorted_for_display(hand, strain=1)] == ["8♥", "7♥", "A♠", "J♠", "9♠", "A♦"]
    assert [str(c) for c in sorted_for_display(hand, strain=5)][:3] == ["J♠", "9♠", "A♠"]


def test_suit_and_rank_parsing_errors() -> None:
    with pytest.raises(NotationError, match="unknown suit"):
        Suit.parse("x")
    with pytest.raises(NotationError, match="unknown rank"):
        Rank.parse("1")
    assert Suit.HEARTS.name_in("en") == "hearts" and Rank.KING.name_in("fr") == "roi" and str(Suit.CLUBS) == "♣"
    assert str(Rank.TEN) == "10"


def test_seat_letters_follow_the_direction_of_play() -> None:
    coinche, classique = Ruleset.preset("coinche"), Ruleset.preset("classique")
    assert "".join(seat_letter(coinche, s) for s in range(4)) == "NWSE"
    assert "".join(seat_letter(classique, s) for s in range(4)) == "NESW"
    assert seat_name(coinche, 2, "fr") == "Sud" and seat_name(coinche, 3, "en") == "East"
    assert parse_seat(coinche, "Ouest") == parse_seat(coinche, "W") == parse_seat(coinche, "1") == 1
    for unknown in ("X", "", "  "):
        with pytest.raises(NotationError, match="unknown seat"):
            parse_seat(coinche, unknown)


def test_deal_line_round_trip_and_errors() -> None:
    rules = Ruleset.preset("coinche")
    line = "W:AKQJT987... .AKQJT987.. ..AKQJT987. ...AKQJT987"
    hands = parse_deal_line(rules, line)
    assert hands[1] == parse_hand("AKQJT987...") and format_deal_line(rules, hands, first=1) == line
    with pytest.raises(NotationError, match="expected"):
        parse_deal_line(rules, "AKQ")
    with pytest.raises(NotationError, match="4 players"):
        parse_deal_line(rules, "N:AK... ...")
    with pytest.raises(NotationError, match="two hands"):
        parse_deal_line(rules, "N:A... A... - -")
