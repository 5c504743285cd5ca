"""Observations hold exactly what one seat may know."""

from __future__ import annotations

import random

from atout import Deal, Ruleset
from atout.observation import Observation

HANDS = ["AKQJT987...", ".AKQJT987..", "..AKQJT987.", "...AKQJT987"]


def test_observation_holds_the_own_hand_only() -> None:
    deal = Deal.new(Ruleset.preset("coinche"), seed=1)
    obs = deal.observation(2)
    assert obs.hand == deal.hand_mask(2)
    fields = vars(obs) if hasattr(obs, "__dict__") else {}
    others = [deal.hand_mask(s) for s in (0, 1, 3)]
    assert not any(value in others for value in fields.values() if isinstance(value, int) and value > 255)
    assert obs.unseen == sum(deal.hand_mask(s) for s in (0, 1, 3))


def test_permuting_hidden_cards_does_not_change_the_observation() -> None:
    """Swapping the other seats' hands leaves seat 0's observation unchanged."""
    rules = Ruleset.preset("coinche")
    a = Deal.from_hands(rules, HANDS, dealer=3)
    b = Deal.from_hands(rules, [HANDS[0], HANDS[3], HANDS[1], HANDS[2]], dealer=3)
    assert a.observation(0) == b.observation(0)
    assert a.observation(1) != b.observation(1)


def test_announcements_are_heard_then_shown_at_trick_two() -> None:
    """Declared with the first card as a kind; the winner's cards shown at trick 2 (FFB coinche §8.2-8.3)."""
    deal = Deal.from_hands(Ruleset.preset("coinche"), HANDS, dealer=3)
    for call in ["80S", "P", "P", "P"]:
        deal.apply(call)
    north = deal.observation(0)
    assert north.to_declare and north.legal_actions() == deal.legal_actions()
    deal.apply("ann:" + "+".join(a.notation() for a in north.to_declare))
    west = deal.observation(1)
    assert [h.kind for h in west.heard[0]] == ["cent", "tierce"] and west.shown == {}
    for action in ["AS", "ann:-", "AH", "ann:-", "AD", "ann:-", "AC"]:
        deal.apply(action)
    assert deal.observation(1).shown == {}  # resolved, but shown only at the first card of trick 2
    deal.apply("KS")
    shown = deal.observation(1).shown
    assert list(shown) == [0] and {a.kind for a in shown[0]} == {"cent", "tierce"}
    assert deal.observation(1).announcement_winner == 0


def test_a_declared_carre_tells_its_nature_not_its_rank() -> None:
    """In trick 1 a declaration tells the others its nature only: « Lors du premier pli, chacun des joueurs annonce
    simplement la nature de son ou ses annonce(s) » (FFB coinche §8.2). South's carré of jacks (200) and carré of
    queens (100) sound the same to West, whose observation is equal in both deals; cards come at trick 2 (§8.3)."""
    rules = Ruleset.preset("coinche")
    west_hand, east_hand = "A8.A7.A8.79", "K.K.K9T.KTA"
    observations = []
    for high, low in (("J", "Q"), ("Q", "J")):
        hands = [f"{high}7.{high}8.{high}7.{high}8", west_hand, f"{low}9T.{low}9T.{low}.{low}", east_hand]
        deal = Deal.from_hands(rules, hands, dealer=3)
        for action in ["80D", "P", "P", "P"]:
            deal.apply(action)
        declare = deal.legal_actions()[0]
        assert [a.kind for a in declare.announcements] == ["carre"]  # type: ignore[attr-defined]
        deal.apply(declare)
        deal.apply("7S")
        west = deal.observation(1)
        assert [(h.kind, h.points) for h in west.heard[0]] == [("carre", None)]
        observations.append(west)
    assert observations[0] == observations[1]


def test_classique_retourne_is_public_during_the_auction() -> None:
    rules = Ruleset.preset("classique")
    deal = Deal.new(rules, seed=3)
    obs = deal.observation(1)
    assert obs.retourne == deal.retourne and not obs.unseen >> obs.retourne & 1


def test_observation_legal_actions_match_the_deal_all_along() -> None:
    for preset in ("coinche", "trois", "deux", "contree"):
        rules = Ruleset.preset(preset)
        rng = random.Random(4)
        deal = Deal.new(rules, seed=4)
        while deal.turn is not None:
            seat = deal.turn
            assert deal.observation(seat).legal_actions() == deal.legal_actions()
            other = (seat + 1) % rules.players
            assert deal.observation(other).legal_actions() == []
            deal.apply(rng.choice(deal.legal_actions()))
        final = deal.observation(0)
        assert isinstance(final, Observation) and final.result is deal.result and final.legal_actions() == []


def test_two_player_bergere_is_public() -> None:
    rules = Ruleset.preset("deux")
    rng = random.Random(2)
    for seed in range(20):
        deal = Deal.new(rules, seed=seed)
        while deal.phase.value == "auction":
            deal.apply(rng.choice(deal.legal_actions()))
        if deal.phase.value == "play":
            obs = deal.observation(0)
            assert obs.bergere is not None and not obs.unseen >> obs.bergere & 1
            return
    raise AssertionError("no deal was taken")
