"""Random play, in the spirit of OpenSpiel's random-simulation tests: every preset and option
combination plays whole deals without breaking an invariant (tests/conformance.py), and matches end.

Two kinds of runs: a fixed grid of rulesets worth covering every time, and hypothesis searching
rulesets, decks and choices of action, so that a failure shrinks to a small readable case.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atout import Deal, Match, Phase, Ruleset
from atout.rules import PRESETS
from conformance import check_finished, check_step, max_actions, play_random_deal
from strategies import decks, rulesets

#: Options worth flipping for each preset: each line is one ruleset of the grid.
VARIATIONS: dict[str, list[dict[str, object]]] = {
    "coinche": [
        {},
        {"sans_atout": True, "tout_atout": True},
        {"sans_atout": True, "tout_atout": True, "ta_values": "funbelote", "overtrump_partner": False},
        {"must_undertrump": True, "belote_imprenable": False},
        {"announcements": False, "rounding": "none", "litige": "off", "tie": "made"},
        {"surcoinche_multiplier": 3, "multiplier_scope": "contract", "chute_points": 162},
        {"min_bid": 82, "max_bid": 250, "capot_bid": False},
        {"traditional_deal": True, "packets": "any", "cut_min": 5},
        {"must_beat_defence": False, "litige": "next_winner"},
        {"undertrump_partner": True, "belote_imprenable": False, "defence_keeps_belote": True},
    ],
    "contree": [
        {},
        {"scoring": "faits"},
        {"scoring": "annonces"},
        {"capot_prime": 0, "announcements": True, "belote_imprenable": True},
        {"sans_atout": False, "tout_atout": False, "must_undertrump": True},
    ],
    "contree-colver": [
        {},
        {"sans_atout": True, "tout_atout": True, "must_undertrump": True},
        {"scoring": "faits", "capot_prime": 500, "defence_keeps_belote": False},
    ],
    "classique": [
        {},
        {"rounding": "dizaines"},
        {"announcements": False, "belote_imprenable": False, "litige": "off"},
        {"packets": "2-3", "must_undertrump": True, "overtrump_partner": False},
    ],
    "bazar": [
        {},
        {"announcement_values": "ffb", "announcement_tiebreak": "ffb"},
        {"sans_atout": False, "tout_atout": True, "capot_bid_min": 0},
    ],
    "deux": [{}, {"announcements": False}, {"belote": False, "must_undertrump": True}],
    "trois": [{}, {"three_player_goal": "each", "must_undertrump": False}, {"announcements": False}],
}

GRID = [(preset, options) for preset in PRESETS for options in VARIATIONS[preset]]


def test_grid_covers_every_preset() -> None:
    assert {preset for preset, _ in GRID} == set(PRESETS)


@pytest.mark.parametrize(("preset", "options"), GRID, ids=[f"{p}-{i}" for i, (p, _) in enumerate(GRID)])
def test_the_grid_keeps_every_invariant(preset: str, options: dict[str, object]) -> None:
    """Random deals of each ruleset of the grid keep every invariant, checked at every step."""
    rules = Ruleset.preset(preset, **options)
    for seed in range(12):
        play_random_deal(rules, seed=1000 * seed + 7, dealer=seed)


@settings(max_examples=120, derandomize=True, deadline=None)
@given(data=st.data(), rules=rulesets())
def test_any_ruleset_deck_and_play_keep_every_invariant(data: st.DataObject, rules: Ruleset) -> None:
    """Any valid ruleset, any deck, any sequence of legal actions: a legal action always exists, the
    observation agrees with the deal, positions and records round-trip, illegal cards are refused and
    change nothing, the deal ends, and its totals, cards and score are consistent."""
    deck = data.draw(decks(rules), label="deck")
    dealer = data.draw(st.integers(0, rules.players - 1), label="dealer")
    deal = Deal.from_deck(rules, deck, dealer)
    rng = random.Random(0)
    for _ in range(max_actions(rules)):
        if deal.phase is Phase.DONE:
            break
        legal = deal.legal_actions()
        assert legal and len(set(legal)) == len(legal)
        check_step(deal, legal, rng)
        deal.apply(legal[data.draw(st.integers(0, len(legal) - 1), label="action")])
    assert deal.phase is Phase.DONE, "the deal does not terminate"
    check_finished(deal)


@settings(max_examples=40, derandomize=True, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 2**31))
def test_same_seed_same_deal(preset: str, seed: int) -> None:
    rules = Ruleset.preset(preset)
    assert Deal.new(rules, seed=seed).position() == Deal.new(rules, seed=seed).position()


@settings(max_examples=20, derandomize=True, deadline=None)
@given(rules=rulesets(), seed=st.integers(0, 2**31))
def test_matches_end_with_a_winner_past_the_target(rules: Ruleset, seed: int) -> None:
    """A match played at random ends, and its winner has reached the target (FFB coinche §10.3)."""
    rules = rules.replace(target=min(rules.target or 400, 400), deals=0)
    match = Match(rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(300):
        if match.finished:
            break
        deal = match.new_deal()
        while deal.turn is not None:
            deal.apply(rng.choice(deal.legal_actions()))
        match.record(deal)
    assert match.finished and match.winner is not None
    assert match.scores[match.winner] >= rules.target
    assert max(match.scores.values()) == match.scores[match.winner] or rules.both_past == "takers"
