"""What players type: each language's suit letters, the words, and the letters that must be asked about."""

from __future__ import annotations

import pytest

from atout import Ruleset
from atout.actions import COINCHE, PASS, SURCOINCHE, Bid, Take
from atout.cli.typed import bid_examples, read_call, read_take, read_yes, typed
from atout.errors import NotationError
from atout.i18n import language

COINCHE_SA = Ruleset.preset("coinche", sans_atout=True, tout_atout=True)
FFB = Ruleset.preset("coinche")


@pytest.mark.parametrize(
    ("text", "lang", "bid"),
    [
        ("90P", "fr", Bid(90, 0)),
        ("90C", "fr", Bid(90, 1)),
        ("90K", "fr", Bid(90, 2)),
        ("120T", "fr", Bid(120, 3)),
        ("100 cœur", "fr", Bid(100, 1)),
        ("100 coeur", "fr", Bid(100, 1)),
        ("80 trèfle", "fr", Bid(80, 3)),
        ("capot P", "fr", Bid(0, 0, True)),
        ("90SA", "fr", Bid(90, 4)),
        ("90 sans atout", "fr", Bid(90, 4)),
        ("90 ♦", "fr", Bid(90, 2)),
        ("90S", "en", Bid(90, 0)),
        ("90H", "en", Bid(90, 1)),
        ("90D", "en", Bid(90, 2)),
        ("90C", "en", Bid(90, 3)),
        ("90NT", "en", Bid(90, 4)),
        ("100 hearts", "en", Bid(100, 1)),
        ("90 pique", "en", Bid(90, 0)),
    ],
)
def test_each_language_types_its_own_suit_letters(text: str, lang: str, bid: Bid) -> None:
    reading = read_call(text, lang, COINCHE_SA)
    assert reading.actions == (bid,) and reading.sure


@pytest.mark.parametrize(
    ("text", "lang", "meanings"),
    [
        ("90H", "fr", (Bid(90, 1),)),
        ("90D", "fr", (Bid(90, 2),)),
        ("90S", "fr", (Bid(90, 0), Bid(90, 4))),  # pique, or sans atout?
        ("90K", "en", (Bid(90, 2),)),
        ("90T", "en", (Bid(90, 3),)),
        ("90P", "en", (Bid(90, 0),)),
    ],
)
def test_a_letter_of_the_other_language_is_asked_about(text: str, lang: str, meanings: tuple[Bid, ...]) -> None:
    reading = read_call(text, lang, COINCHE_SA)
    assert reading.actions == meanings and not reading.sure


def test_sans_atout_is_not_offered_where_the_rules_have_none() -> None:
    assert read_call("90S", "fr", FFB).actions == (Bid(90, 0),)
    with pytest.raises(NotationError):
        read_call("90SA", "fr", FFB)
    assert "SA" not in bid_examples(FFB, "fr") and "90SA" in bid_examples(COINCHE_SA, "fr")
    assert bid_examples(FFB, "fr") == "90C, 100 cœur, capot pique"
    assert bid_examples(FFB, "en", 110) == "110H, 120 hearts, capot spades"


def test_calls_and_incomplete_bids() -> None:
    assert read_call("P", "fr", FFB).actions == (PASS,)
    assert read_call("passe", "fr", FFB).actions == (PASS,)
    assert read_call("X", "en", FFB).actions == (COINCHE,)
    assert read_call("xx", "fr", FFB).actions == (SURCOINCHE,)
    with pytest.raises(NotationError) as missing:
        read_call("85", "fr", FFB)
    text = missing.value.message("fr").replace("\u00a0", " ").replace("\u202f", " ")
    assert "« 85 » : il manque la couleur" in text and "les valeurs vont de 80 à 820, de 10 en 10" in text
    with pytest.raises(NotationError) as unknown:
        read_call("bonjour", "en", FFB)
    assert "I do not understand 'bonjour'" in unknown.value.message("en")
    with language("en"):
        assert str(unknown.value) == unknown.value.message("en")  # str() speaks the current language


def test_taking_around_a_retourne() -> None:
    one = [Take(1)]
    assert read_take("prendre", "fr", one).actions == (Take(1),)
    assert read_take("take", "en", one).actions == (Take(1),)
    assert read_take("P", "fr", one).actions == (PASS,)  # a lone P passes, even in French
    others = [Take(0), Take(2), Take(3)]
    assert read_take("T", "fr", others).actions == (Take(3),)  # trèfle, not « take »
    assert read_take("pique", "fr", others).actions == (Take(0),)
    assert read_take("K", "fr", others).actions == (Take(2),)
    assert not read_take("D", "fr", others).sure


def test_yes_no_and_how_to_type() -> None:
    assert read_yes("o", "fr") is True and read_yes("Oui", "fr") is True and read_yes("n", "fr") is False
    assert read_yes("y", "en") is True and read_yes("o", "en") is None
    assert typed(Bid(90, 1), "fr") == "90C" and typed(Bid(90, 1), "en") == "90H"
    assert typed(Bid(0, 0, True), "fr") == "capotP" and typed(Bid(80, 4), "en") == "80NT"


def test_taking_reads_any_suit_and_leaves_the_refusal_to_the_auction() -> None:
    """Second round around a ♥ retourne: « cœur » is read (the auction then says why it is refused) instead of
    « n'est pas une couleur » and a suggestion of P, which passes."""
    others = [Take(0), Take(2), Take(3)]
    assert read_take("coeur", "fr", others).actions == (Take(1),)
    assert read_take("C", "fr", others).actions == (Take(1),)
    with pytest.raises(NotationError) as unknown:
        read_take("bonjour", "fr", others)
    said = unknown.value.message("fr").replace("\u00a0", " ")
    assert "« bonjour »" in said and "P pour passer" in said and "P (pique)" not in said


def test_contrer_and_surcontrer_are_typed_as_x_and_xx() -> None:
    rules = Ruleset.preset("contree")
    assert read_call("contrer", "fr", rules).actions == (COINCHE,)
    assert read_call("Surcontrer", "fr", rules).actions == (SURCOINCHE,)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_bid_the_prompt_gives_as_an_example_reads_as_that_bid(lang: str) -> None:
    for example in bid_examples(COINCHE_SA, lang).split(", "):
        reading = read_call(example, lang, COINCHE_SA)
        assert reading.sure and len(reading.actions) == 1 and isinstance(reading.actions[0], Bid), example
