"""A first check that every preset plays whole random deals."""

import random

import pytest

from atout import Deal, Phase, Ruleset
from atout.rules import PRESETS


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_random_deals_finish(preset: str) -> None:
    rules = Ruleset.preset(preset)
    rng = random.Random(11)
    for i in range(50):
        deal = Deal.new(rules, dealer=i % rules.players, seed=i)
        while deal.phase is not Phase.DONE:
            deal.apply(rng.choice(deal.legal_actions()))
        assert deal.result is not None
