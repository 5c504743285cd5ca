"""Order and points of the cards: FFB coinche §6, §9.1, §11.2, §11.3; FunBelote, *Sans atout / tout atout*."""

import random

import pytest

from atout import Card, Deal, Phase, Ruleset
from atout.play import trick_winner_index
from atout.tables import play_mode

HEARTS, SANS_ATOUT, TOUT_ATOUT = 1, 4, 5


def _strongest_first(strain: int, suit: str, ta_values: str = "ffb") -> list[str]:
    """The eight cards of ``suit`` sorted by what beats what in ``strain``."""
    mode = play_mode(strain, ta_values)
    cards = [Card.parse(r + suit) for r in "789TJQKA"]
    # A card beats another of its suit iff it is stronger: count how many each one beats.
    return [c.code[0] for c in sorted(cards, key=lambda c: -sum(mode.beats(c, o) for o in cards if o != c))]


def _points(strain: int, suit: str, ta_values: str = "ffb") -> dict[str, int]:
    mode = play_mode(strain, ta_values)
    return {r: mode.points[Card.parse(r + suit)] for r in "789TJQKA"}


def test_trump_order_is_j_9_a_10_k_q_8_7():
    """Trump order, strongest first: J 9 A 10 K Q 8 7 (FFB coinche §6)."""
    assert _strongest_first(HEARTS, "H") == list("J9ATKQ87")


def test_trump_points():
    """Trump points: J 20, 9 14, A 11, 10 10, K 4, Q 3, 8 and 7 nothing (FFB coinche §6)."""
    assert _points(HEARTS, "H") == {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}


def test_plain_order_is_a_10_k_q_j_9_8_7():
    """Plain suit order, strongest first: A 10 K Q J 9 8 7 (FFB coinche §6)."""
    assert _strongest_first(HEARTS, "S") == list("ATKQJ987")


def test_plain_points():
    """Plain suit points: A 11, 10 10, K 4, Q 3, J 2, 9 8 7 nothing (FFB coinche §6)."""
    assert _points(HEARTS, "C") == {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}


def test_cards_total_152_in_every_strain():
    """The 32 cards are worth 152 points in a suit contract, at sans atout and at tout atout (FFB §6, §9.1, §11)."""
    totals = {strain: sum(play_mode(strain).points) for strain in range(6)}
    assert totals == {0: 152, 1: 152, 2: 152, 3: 152, 4: 152, 5: 152}


def test_lowest_trump_beats_a_plain_ace():
    """The trick goes to the highest trump, else to the highest card of the suit led (FFB coinche §5.1)."""
    mode = play_mode(HEARTS)
    trick = [Card.parse(c) for c in ("AS", "TS", "7H", "KS")]
    assert trick_winner_index(trick, mode) == 2


def test_card_of_another_plain_suit_never_wins():
    """A card neither of the suit led nor trump cannot win the trick (FFB coinche §5.1)."""
    mode = play_mode(HEARTS)
    trick = [Card.parse(c) for c in ("7S", "AD", "AC", "8S")]
    assert trick_winner_index(trick, mode) == 3


def test_sans_atout_order_and_points():
    """Sans atout: no trump, order A 10 K Q J 9 8 7, A 19, 10 10, K 4, Q 3, J 2, 9 8 7 nothing (FFB §11.2;
    the J is worth 2 as in the FFB's older wording and FunBelote's, the 0 the FFB prints does not total 152)."""
    assert _strongest_first(SANS_ATOUT, "D") == list("ATKQJ987")
    assert _points(SANS_ATOUT, "D") == {"A": 19, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}


def test_sans_atout_no_card_can_cut():
    """Sans atout: there is no trump, so it is impossible to cut (FFB coinche §11.2)."""
    mode = play_mode(SANS_ATOUT)
    for suit in "SHDC":
        trick = [Card.parse("7" + suit)] + [Card.parse("J" + s) for s in "SHDC" if s != suit]
        assert trick_winner_index(trick, mode) == 0


def test_tout_atout_order_and_ffb_points():
    """Tout atout: every suit in trump order J 9 A 10 K Q 8 7, J 13, 9 9, A 6, 10 5, K 3, Q 2 (FFB coinche §11.3)."""
    for suit in "SHDC":
        assert _strongest_first(TOUT_ATOUT, suit) == list("J9ATKQ87")
        assert _points(TOUT_ATOUT, suit) == {"J": 13, "9": 9, "A": 6, "T": 5, "K": 3, "Q": 2, "8": 0, "7": 0}


def test_tout_atout_funbelote_points():
    """FunBelote's tout atout values: J 14, 9 9, A 6, 10 5, K 3, Q 1, still 152 in all (FunBelote, *Sans atout /
    tout atout*; ta_values)."""
    assert _points(TOUT_ATOUT, "H", "funbelote") == {"J": 14, "9": 9, "A": 6, "T": 5, "K": 3, "Q": 1, "8": 0, "7": 0}
    assert sum(play_mode(TOUT_ATOUT, "funbelote").points) == 152
    rules = Ruleset.preset("coinche", tout_atout=True, ta_values="funbelote")
    assert play_mode(5, rules.ta_values).points[Card.parse("QS")] == 1


def test_tout_atout_no_card_can_cut():
    """Tout atout: every suit is trump yet nobody can cut: only the suit led wins (FFB coinche §11.3)."""
    mode = play_mode(TOUT_ATOUT)
    trick = [Card.parse(c) for c in ("7S", "JH", "JD", "8S")]
    assert trick_winner_index(trick, mode) == 3


@pytest.mark.parametrize("preset", ["coinche", "contree", "classique"])
def test_deal_card_points_total_162_with_dix_de_der(preset):
    """A played deal's card points total 162 with the dix de der (252 when one side takes every trick with
    the FFB capot value; classique and contrée count a capot 250) (FFB coinche §9.1, §9.2)."""
    rules = Ruleset.preset(preset)
    rng = random.Random(2024)
    played = 0
    for seed in range(6):
        deal = Deal.new(rules, dealer=seed % 4, seed=seed)
        while deal.phase is not Phase.DONE:
            deal.apply(rng.choice(deal.legal_actions()))
        if deal.result.passed_out:
            continue
        played += 1
        total = sum(deal.result.card_points.values())
        if deal.result.facts.capot is None:
            assert total == 162
            last = deal.tricks[-1]
            assert sum(t.points for t in deal.tricks) == 152
            assert deal.result.card_points[rules.side_of(last.winner)] >= 10
        else:
            assert total == rules.capot_points
    assert played >= 3
