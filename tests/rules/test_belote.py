"""Belote and rebelote: FFB coinche §7, §4.2, §10.1.2, §11.2, §11.3; FunBelote, *Belote contrée*."""

import pytest
from rulebook import autoplay, deal_from_hands, play, play_out_saying, score

from atout import Contract, Deal, IllegalAction, Ruleset

COINCHE = Ruleset.preset("coinche")

#: Seat 0 holds K♥ and Q♥; no tierce or carré anywhere.
BELOTE_HANDS = ["97.KQ.KJ.AQ", "T8.J8.AQ.97", "KJ.AT.97.T8", "AQ.97.T8.KJ"]


def test_belote_said_on_both_cards_scores_20():
    """King and queen of trump in one hand, « belote » then « rebelote » said: 20 points (FFB coinche §7)."""
    deal = deal_from_hands(BELOTE_HANDS)
    autoplay(deal, say_belote=True)
    assert deal.result.belote == {0: 20, 1: 0}


def test_belote_never_said_counts_nothing():
    """Belote not said: it does not count (FFB coinche §7)."""
    deal = deal_from_hands(BELOTE_HANDS)
    autoplay(deal, say_belote=False)
    assert deal.result.belote == {0: 0, 1: 0}


def test_rebelote_omitted_counts_nothing():
    """« Belote » said but « rebelote » omitted: the belote does not count (FFB coinche §7: « en cas d'omission
    d'un de ces deux termes, la belote n'est pas prise en compte »)."""
    deal = deal_from_hands(BELOTE_HANDS)
    assert play_out_saying(deal, "first") == []
    assert deal.result.belote == {0: 0, 1: 0}


def test_rebelote_without_belote_counts_nothing():
    """« Rebelote » said without « belote » on the first card: no bonus (FFB coinche §7; FFB, older wording: « si un
    joueur annonce rebelote sans avoir préalablement annoncé la belote, le bonus n'est pas accordé »)."""
    deal = deal_from_hands(BELOTE_HANDS)
    assert play_out_saying(deal, "second") == ["belote"]  # « rebelote » on the second card is refused
    assert deal.result.belote == {0: 0, 1: 0}


def test_belote_and_rebelote_said_in_either_order():
    """Belote is said on the first of the two cards, whichever it is, rebelote on the second (FFB coinche §7)."""
    deal = deal_from_hands(BELOTE_HANDS)
    assert play_out_saying(deal, "both") == []  # the queen comes first
    assert deal.result.belote == {0: 20, 1: 0}
    deal = deal_from_hands(BELOTE_HANDS)
    play(deal, "KH!", "JH", "TH", "7H")  # the king first; trump led, seat 1 must go above it
    autoplay(deal, say_belote=True)
    assert deal.result.belote == {0: 20, 1: 0}


def test_belote_needs_king_and_queen_in_one_hand():
    """Belote is the king and the queen of trump held by one player (FFB coinche §7)."""
    hands = ["97.K8.KJ.AQ", "T8.JQ.AQ.97", "KJ.AT.97.T8", "AQ.97.T8.KJ"]  # K♥ seat 0, Q♥ seat 1
    deal = deal_from_hands(hands)
    with pytest.raises(IllegalAction) as err:
        deal.apply("KH!")
    assert err.value.code == "belote"
    autoplay(deal, say_belote=True)
    assert deal.result.belote == {0: 0, 1: 0}


def test_belote_imprenable_kept_on_a_chute():
    """A belote said properly is imprenable: its side scores it even when the contract fails
    (FFB coinche §7, §10.1.2)."""
    result = score(COINCHE, Contract(120, 1, 0), 80, belote={0: 20})
    assert result.outcome == "chute"
    assert result.marks == {0: 20, 1: 280}


def test_belote_imprenable_kept_by_defence_against_coinched_contract_made():
    """Coinched contract made: the defence scores nothing but its belote (FFB coinche §10.1.1)."""
    result = score(COINCHE, Contract(100, 1, 0, level=1), 120, belote={1: 20})
    assert result.outcome == "made"
    assert result.marks == {0: 520, 1: 20}


def test_belote_counts_toward_the_contract():
    """The belote counts in the takers' total for the contract (FFB coinche §4.2)."""
    assert score(COINCHE, Contract(80, 1, 0), 75).outcome == "chute"
    assert score(COINCHE, Contract(80, 1, 0), 75, belote={0: 20}).outcome == "made"


def test_contree_belote_is_prenable():
    """Contrée: the belote is not imprenable: the defence scores it when the takers fail (FunBelote, *Belote
    contrée*)."""
    rules = Ruleset.preset("contree")
    result = score(rules, Contract(100, 1, 0), 70, belote={0: 20})
    assert result.outcome == "chute"
    assert result.marks == {0: 0, 1: 280}


def test_up_to_four_belotes_at_tout_atout():
    """Tout atout: up to four belotes, one per suit, 80 points (FFB coinche §11.3)."""
    rules = COINCHE.replace(tout_atout=True)
    hands = ["KQ.KQ.KQ.KQ", "AJ.T9.87.AJ", "T9.87.AJ.T9", "87.AJ.T9.87"]
    deal = deal_from_hands(hands, ("80TA", "P", "P", "P"), rules=rules)
    autoplay(deal, say_belote=True)
    assert deal.result.belote == {0: 80, 1: 0}


def test_no_belote_at_sans_atout():
    """Sans atout: no belote (FFB coinche §11.2)."""
    rules = COINCHE.replace(sans_atout=True)
    deal = deal_from_hands(BELOTE_HANDS, ("80SA", "P", "P", "P"), rules=rules)
    with pytest.raises(IllegalAction) as err:
        deal.apply("7S!")
    assert err.value.code == "belote"
    assert not any(getattr(a, "belote", False) for a in deal.legal_actions())
    autoplay(deal, say_belote=True)
    assert deal.result.belote == {0: 0, 1: 0}


def test_belote_tolerance_forgotten_rebelote_counts_once_per_side_and_match():
    """Option belote_tolerance (FFB, *Règles de la coinche*, older wording): a forgotten « rebelote » is
    tolerated once per side and per game; the second time it does not count."""
    import dataclasses

    from atout import Match
    from atout.scoring import score_deal

    rules = COINCHE.replace(belote_tolerance=True)
    match = Match(rules, first_dealer=3)
    first = Deal.from_hands(rules, BELOTE_HANDS, dealer=3)
    play(first, "80H", "P", "P", "P")
    play_out_saying(first, "first")
    assert first.result.belote == {0: 0, 1: 0}
    tolerated = score_deal(rules, dataclasses.replace(first.result.facts, belote={0: 20, 1: 0})).marks
    match.record(first)
    assert match.scores == tolerated
    second = Deal.from_hands(rules, BELOTE_HANDS, dealer=0)
    play(second, "P", "80H", "P", "P", "P")  # seat 2 takes for side 0; seat 0 holds the belote again
    play_out_saying(second, "first")
    match.record(second)
    assert match.scores == {s: tolerated[s] + second.result.marks[s] for s in (0, 1)}


def test_belote_tolerance_does_not_cover_a_forgotten_belote():
    """The tolerance is for a forgotten « rebelote » only: rebelote without belote gets nothing (FFB, older wording)."""
    from atout import Match

    rules = COINCHE.replace(belote_tolerance=True)
    match = Match(rules, first_dealer=3)
    deal = Deal.from_hands(rules, BELOTE_HANDS, dealer=3)
    play(deal, "80H", "P", "P", "P")
    play_out_saying(deal, "second")
    match.record(deal)
    assert match.scores == deal.result.marks
