"""The auction: FFB coinche §4.1 and §11.1; FunBelote, *Belote contrée*; classique's two rounds (*Règles de la
belote classique*, the online game's classique); *Belote bazar*'s capot. With dealer 3, seat 0 speaks first;
seats 0 and 2 are partners against 1 and 3.
"""

import pytest
from rulebook import PLAIN_HANDS, call, score

from atout import Contract, Deal, IllegalAction, Match, Phase, Ruleset, parse_action
from atout.announcements import possible_totals
from atout.auction import BiddingAuction, TakingAuction
from atout.record import Record

COINCHE = Ruleset.preset("coinche")


def _auction(rules=COINCHE, dealer=3, *calls):
    auction = BiddingAuction(rules, dealer)
    call(auction, *calls)
    return auction


def _refused(auction, text):
    return _refused_error(auction, text).code


def _refused_error(auction, text):
    with pytest.raises(IllegalAction) as err:
        auction.check(parse_action(text))
    return err.value


def _legal(auction):
    return {a.notation() for a in auction.legal()}


# --------------------------------------------------------------------------- FFB §4.1


def test_auction_starts_with_player_after_dealer():
    """The players speak in turn starting with the player after the dealer (FFB coinche §4.1)."""
    assert BiddingAuction(COINCHE, 3).turn == 0
    assert BiddingAuction(COINCHE, 1).turn == 2
    assert Deal.from_hands(COINCHE, PLAIN_HANDS, dealer=2).turn == 3


def test_minimum_bid_is_80():
    """A bid is 80 at least (FFB coinche §4.1)."""
    auction = _auction()
    assert _refused(auction, "70H") == "bad_bid"
    assert "80H" in _legal(auction)
    assert min(a.value for a in auction.legal() if hasattr(a, "value") and a.value) == 80


def test_bid_is_a_multiple_of_10():
    """A bid is a multiple of 10 (FFB coinche §4.1)."""
    auction = _auction()
    assert _refused(auction, "85H") == "bad_bid"
    assert _refused(auction, "92S") == "bad_bid"


def test_bid_must_be_above_previous_bid():
    """A bid must be higher than the previous bid; a change of suit alone is not higher (FFB coinche §4.1)."""
    auction = _auction(COINCHE, 3, "90H")
    assert _refused(auction, "90S") == "bid_too_low"
    assert _refused(auction, "80C") == "bid_too_low"
    call(auction, "100S")
    assert auction.best_seat == 1


def test_player_who_passed_may_bid_later():
    """A player who passed may bid later if he gets the chance (FFB coinche §4.1)."""
    auction = _auction(COINCHE, 3, "P", "80H", "P", "P")
    assert auction.turn == 0
    call(auction, "90S")
    assert (auction.best_seat, auction.best.value) == (0, 90)


def test_capot_may_be_bid_at_any_time():
    """Capot may be bid at any time, as an opening or over any bid (FFB coinche §4.1)."""
    assert "capotH" in _legal(_auction())
    auction = _auction(COINCHE, 3, "80H", "160S")
    assert "capotD" in _legal(auction)
    call(auction, "capotD")
    assert auction.best.capot


def test_nothing_above_capot_opponents_may_only_pass_or_coinche():
    """Nothing is above a capot: the opponents may only pass or coinche (FFB coinche §4.1)."""
    auction = _auction(COINCHE, 3, "capotH")
    assert _legal(auction) == {"P", "X"}
    assert _refused(auction, "160S") == "bid_too_low"
    assert _refused(auction, "capotS") == "bid_too_low"


def test_coinche_only_on_opponents_bid():
    """One may only coinche an opponents' bid (FFB coinche §4.1)."""
    assert _refused(_auction(), "X") == "bad_coinche"
    auction = _auction(COINCHE, 3, "80H", "P")
    assert _refused(auction, "X") == "bad_coinche"  # seat 2 would coinche his partner
    call(auction, "P")
    assert "X" in _legal(auction)


def test_coinche_only_in_ones_turn():
    """One may only coinche when it is one's turn to speak, never « à la volée » (FFB coinche §4.1)."""
    deal = Deal.from_hands(COINCHE, PLAIN_HANDS, dealer=3)
    deal.apply("80H")
    with pytest.raises(IllegalAction) as err:
        deal.apply("X", seat=3)
    assert err.value.code == "turn"
    deal.apply("X", seat=1)
    assert deal.auction.level == 1


def test_coinche_freezes_the_contract():
    """A coinche freezes the contract: no more bids (FFB coinche §4.1)."""
    auction = _auction(COINCHE, 3, "80H", "X")
    assert _refused(auction, "90S") == "frozen"
    assert _refused(auction, "capotS") == "frozen"
    assert all(a.notation() in ("P", "XX") for a in auction.legal())


def test_surcoinche_only_by_coinched_side():
    """Only the coinched side may surcoinche (FFB coinche §4.1)."""
    auction = _auction(COINCHE, 3, "80H", "X", "P")
    assert _refused(auction, "XX") == "bad_surcoinche"
    assert "XX" not in _legal(auction)
    call(auction, "P")
    assert "XX" in _legal(auction)  # the taker himself


def test_surcoinche_ends_auction_at_once():
    """A surcoinche ends the auction at once; the contract is surcoinched (FFB coinche §4.1)."""
    auction = _auction(COINCHE, 3, "80H", "X", "XX")
    assert auction.finished
    assert auction.contract == Contract(80, 1, 0, level=2)


def test_three_passes_after_a_bid_end_auction():
    """The auction ends when the three players after a bid pass (FFB coinche §4.1)."""
    auction = _auction(COINCHE, 3, "P", "90D", "P", "P")
    assert not auction.finished
    call(auction, "P")
    assert auction.finished
    assert auction.contract == Contract(90, 2, 1, level=0)


def test_three_passes_after_a_coinche_end_auction():
    """The auction ends when the three players after a coinche pass (FFB coinche §4.1)."""
    auction = _auction(COINCHE, 3, "80H", "X", "P", "P")
    assert not auction.finished
    call(auction, "P")
    assert auction.finished
    assert auction.contract == Contract(80, 1, 0, level=1)


def test_four_passes_end_deal_without_score():
    """Four passes: the deal ends without any score (FFB coinche §4.1)."""
    deal = Deal.from_hands(COINCHE, PLAIN_HANDS, dealer=3)
    for _ in range(4):
        deal.apply("P")
    assert deal.phase is Phase.DONE
    assert deal.result.passed_out
    assert deal.result.score is None


def test_four_passes_next_seat_deals():
    """After four passes the next player deals (FFB coinche §4.1, §3.1)."""
    match = Match(COINCHE, first_dealer=2, seed=1)
    deal = match.new_deal()
    for _ in range(4):
        deal.apply("P")
    match.record(deal)
    assert match.dealer == 3
    assert match.scores == {0: 0, 1: 0}


def test_illegal_call_is_refused_and_changes_nothing():
    """An illegal call is refused with its reason in French and English and leaves the deal unchanged
    (FFB coinche §4.1; deal.py contract)."""
    deal = Deal.from_hands(COINCHE, PLAIN_HANDS, dealer=3)
    deal.apply("90H")
    before = (deal.turn, deal.legal_actions(), len(deal.actions), deal.phase)
    with pytest.raises(IllegalAction) as err:
        deal.apply("80S")
    assert err.value.code == "bid_too_low"
    assert "90" in err.value.message("fr") and "90" in err.value.message("en")
    assert err.value.message("fr") != err.value.message("en")
    for bad in ("85S", "XX", "takeH", "JH"):
        with pytest.raises(IllegalAction):
            deal.apply(bad)
    assert (deal.turn, deal.legal_actions(), len(deal.actions), deal.phase) == before


def test_sans_atout_and_tout_atout_bids_only_with_the_option():
    """Sans atout and tout atout may be bid only in the §11 variant (FFB coinche §11.1)."""
    assert _refused(_auction(), "80SA") == "bad_strain"
    assert _refused(_auction(), "80TA") == "bad_strain"
    rules = COINCHE.replace(sans_atout=True, tout_atout=True)
    auction = _auction(rules, 3, "80SA")
    call(auction, "90TA")
    assert auction.best.strain == 5


def test_coinche_bids_have_no_ceiling_but_what_a_side_can_score():
    """« L'enchère doit être de 80 au minimum, doit être un multiple de 10 et doit être supérieure à l'enchère
    précédente » and « Le nombre de points comprend les points remportés lors des plis, les points de la belote
    éventuelle ainsi que les points des annonces éventuelles » (FFB coinche §4.1, §4.2): no maximum, so 170
    and 200 are bids. The ceiling is the most a side can total, which no higher bid could ever reach: a capot's
    252, a belote 20 and the 550 of announcements two hands can show at most (carrés of jacks and nines, two
    more carrés)."""
    auction = _auction(COINCHE, 3, "160S")
    assert {"170H", "200S", "820C"} <= _legal(auction)
    call(auction, "200H")
    assert auction.best.value == 200
    assert max(possible_totals(1, hands=2)) == 550
    assert COINCHE.most_points == 252 + 20 + 550 and COINCHE.highest_bid == 820
    assert _refused(_auction(), "830H") == "bad_bid"
    tout_atout = COINCHE.replace(sans_atout=True, tout_atout=True)
    assert tout_atout.highest_bid == 880  # four belotes at tout atout: 252 + 80 + 550
    assert COINCHE.replace(announcements=False).highest_bid == 270


def test_the_ceiling_is_what_a_side_can_score_in_the_bid_strain():
    """The most a side can total depends on the strain: no belote at sans atout (« Il n'y a pas de
    Belote/Rebelote possibles », FFB coinche §11.2), up to four at tout atout (« il peut y avoir jusqu'à 4
    Belotes », §11.3), one in a suit (§7). So 830 in a suit or 810 sans atout can never be made, while 880 tout
    atout can."""
    rules = COINCHE.replace(sans_atout=True, tout_atout=True)
    assert [rules.highest_bid_in(strain) for strain in (0, 1, 2, 3, 4, 5)] == [820, 820, 820, 820, 800, 880]
    legal = _legal(_auction(rules))
    assert {"820H", "800SA", "880TA"} <= legal
    assert not {"830H", "810SA", "890TA"} & legal
    err = _refused_error(_auction(rules), "810SA")
    assert err.code == "bad_bid" and err.message("en") == "invalid bid: 80 to 800 in NT in steps of 10"


def test_bids_above_160_are_recorded_and_refereed():
    """A 250 contract (announcements count toward it, FFB §4.2) round-trips through the record formats."""
    deal = Deal.from_hands(COINCHE, PLAIN_HANDS, dealer=3)
    for text in ("250H", "P", "P", "P"):
        deal.apply(text)
    while deal.turn is not None:
        deal.apply(deal.legal_actions()[0])
    record = Record.from_deal(deal)
    text = record.to_text()
    assert "250H P P P" in text and '[Contract "250H N"]' in text
    assert Record.from_text(text).replay().contract == Contract(250, 1, 0)
    assert Record.from_json(record.to_json()).replay().contract == Contract(250, 1, 0)


def test_contree_bids_from_80_to_160_and_capot():
    """Contrée: « un contrat de 80 à 160, ou bien annoncer un capot », in steps of 10; SA and TA allowed
    (FunBelote, *Belote contrée*)."""
    rules = Ruleset.preset("contree")
    auction = _auction(rules)
    legal = _legal(auction)
    assert {"80H", "160H", "capotH", "80SA", "160TA"} <= legal
    assert _refused(auction, "170H") == "bad_bid"


def test_option_minimum_bid_82():
    """Option min_bid=82 (some clubs; the online game's coinche « commencent à 82 »): 80 is refused, 82 then
    90... allowed (rules.py doc)."""
    auction = _auction(COINCHE.replace(min_bid=82))
    assert _refused(auction, "80H") == "bad_bid"
    call(auction, "82H")
    assert "90H" in _legal(auction)


# --------------------------------------------------------------------------- classique: two rounds

CLASSIQUE = Ruleset.preset("classique")


def test_classique_first_round_takes_only_the_retourne_suit():
    """Classique, first round: from the player after the dealer, take the retourne's suit or pass
    (*Règles de la belote classique*; the online game's classique)."""
    auction = TakingAuction(CLASSIQUE, 3, retourne=parse_action("TS").card)
    assert auction.turn == 0
    assert _legal(auction) == {"P", "takeS"}
    assert _refused(auction, "takeH") == "first_round"


def test_classique_second_round_names_another_suit():
    """Classique, second round (everybody passed): name another suit than the retourne's, or pass
    (*Règles de la belote classique*; the online game's classique)."""
    auction = TakingAuction(CLASSIQUE, 3, retourne=parse_action("TS").card)
    call(auction, "P", "P", "P", "P")
    assert auction.turn == 0
    assert _legal(auction) == {"P", "takeH", "takeD", "takeC"}
    assert _refused(auction, "takeS") == "second_round"
    call(auction, "P", "takeD")
    assert auction.contract == Contract(0, 2, 1)


def test_classique_has_no_bidding_capot_or_coinche():
    """Classique: one takes or passes, nothing else: no numbers, no capot bid, no coinche (*Règles de la belote
    classique*)."""
    auction = TakingAuction(CLASSIQUE, 3, retourne=parse_action("TS").card)
    for text in ("80S", "capotS", "X"):
        with pytest.raises(IllegalAction):
            auction.check(parse_action(text))


def test_classique_nobody_takes_redeal():
    """Classique: nobody takes in either round, the cards are dealt again (*Règles de la belote classique*)."""
    auction = TakingAuction(CLASSIQUE, 3, retourne=parse_action("TS").card)
    call(auction, *["P"] * 8)
    assert auction.finished and auction.passed_out


# --------------------------------------------------------------------------- bazar capot

BAZAR = Ruleset.preset("bazar")


def test_bazar_capot_announced_only_above_25():
    """Bazar: only a bid above 25 (250 points) may announce capot (*Belote bazar*)."""
    auction = _auction(BAZAR)
    assert _refused(auction, "250capotH") == "bad_bid"
    call(auction, "260capotH")
    assert auction.best.capot and auction.best.value == 260


def test_bazar_after_a_capot_the_other_side_may_only_bid_capot():
    """Bazar: once a side has bid capot in a suit, the other side may not bid a suit without capot (*Belote bazar*)."""
    auction = _auction(BAZAR, 3, "260capotH")
    assert _refused(auction, "270S") == "capot_only"
    assert "270capotS" in _legal(auction)
    assert not any(a.notation() == "270S" for a in auction.legal())


def test_bazar_capot_contract_fails_without_capot():
    """Bazar: a side that announced capot and reaches its number without taking every trick fails
    (*Belote bazar*)."""
    # 152 + a cent and a tierce = 272: the number is reached, but not every trick.
    result = score(BAZAR, Contract(260, 1, 0, capot=True), 152, announcements={0: 120})
    assert result.outcome == "chute"
    made = score(BAZAR, Contract(260, 1, 0, capot=True), capot="takers", announcements={0: 120})
    assert made.outcome == "made"


def test_the_coinche_ceiling_can_be_made():
    """The 820 ceiling is reached, not only bounded (FFB §4.2, §8, §9): North holds the jacks and nines
    (carrés of 200 and 150), South the kings and queens (two carrés of 100 and the belote); East and West,
    throwing their aces and tens where they are void, take no trick, and 820♥ is made with 252 + 20 + 550."""
    deal = Deal.from_hands(COINCHE, ["J9.J9.J9.J9", "AT87.A8.87.", "KQ.KQ.KQ.KQ", ".T7.AT.AT87"], dealer=3)
    for text in ("820H", "P", "P", "P"):
        deal.apply(text)
    tricks = "JH AH QH TH  9H 8H KH 7H  JS 8S KS AD  QS TD 9S 7S  KD AC JD 8D  QD TC 9D 7D  KC 8C JC AS  QC 7C 9C TS"
    for card in tricks.split():
        if deal.must_declare:
            deal.apply(deal.legal_actions()[0])  # every announcement held
        deal.apply(max((a for a in deal.legal_actions() if a.notation().startswith(card)), key=lambda a: a.belote))
    assert deal.result.tricks == {0: 8, 1: 0}
    assert (deal.result.card_points[0], deal.result.belote[0], deal.result.announcements[0]) == (252, 20, 550)
    assert deal.result.score.outcome == "made"
