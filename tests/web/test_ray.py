"""Bots and analyses on a Ray cluster (``atout serve --bot-backend ray``), as in the arena.

Runs where Ray is installed (CI installs it in a step of its own, with ``ATOUT_REQUIRE_RAY``
set so that a missing Ray fails there instead of skipping).
"""

from __future__ import annotations

import pytest

from atout import Deal, Ruleset
from atout.bots import load_spec
from atout.record import Record
from atout.web.workers import BotPool, BotRequest

pytestmark = [pytest.mark.anyio, pytest.mark.ray]


async def test_bots_decide_and_deals_are_analysed_on_ray(ray_installed: None) -> None:
    pool = BotPool("ray", workers=1)
    await pool.start(levels=())
    try:
        deal = Deal.new(Ruleset.preset("coinche"), dealer=0, seed=4)
        request = BotRequest(load_spec("club"), 1, ("T", 1, 0, deal.turn or 0), deal.observation(deal.turn or 0))
        action = await pool.decide(request)
        assert action in deal.legal_actions() and pool.fallbacks == 0
        while deal.turn is not None:
            deal.apply(deal.legal_actions()[-1])
        rows = await pool.analyse(Record.from_deal(deal).to_text(), 0)
        assert deal.contract is None or len(rows) == 32
    finally:
        await pool.close()
