"""Random-play conformance: every preset and every option combination plays whole deals
without breaking an invariant (in the spirit of OpenSpiel's random-simulation tests)."""

from __future__ import annotations

import pytest

from atout import Ruleset
from atout.rules import PRESETS
from conformance import play_random_deal

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
def test_random_play_conformance(preset: str, options: dict[str, object]) -> None:
    """Random deals of the ruleset keep every invariant of tests/conformance.py."""
    rules = Ruleset.preset(preset, **options)
    for seed in range(12):
        play_random_deal(rules, seed=1000 * seed + 7, dealer=seed)
