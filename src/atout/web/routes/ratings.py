"""The ratings' pages: a player's profile (``/players/NAME``) and a variant's ladder (``/ladder``), with the bots'
ratings from the arena beside it (:mod:`atout.web.bot_ratings`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import HTMLResponse

from atout.rules import PRESETS
from atout.web.bot_ratings import BOT_RATINGS, LEVELS
from atout.web.deps import Page, RatingsDep
from atout.web.limits import MAX_INT
from atout.web.ratings import PROVISIONAL

router = APIRouter()

#: Rows of the ladder a page shows, of the established and of the provisional ratings each.
LADDER_PAGE = 50
#: The variant a ladder shows when none is asked for.
DEFAULT_VARIANT = "coinche"

PageNo = Annotated[int, Query(ge=0, le=MAX_INT)]


@router.get("/ladder", response_class=HTMLResponse)
async def ladder(page: Page, ratings: RatingsDep, variant: str = DEFAULT_VARIANT, page_no: PageNo = 0) -> HTMLResponse:
    if variant not in PRESETS:
        variant = DEFAULT_VARIANT
    offset = page_no * LADDER_PAGE
    established = await ratings.ladder(variant, limit=LADDER_PAGE, offset=offset)
    provisional = await ratings.ladder(variant, provisional=True, limit=LADDER_PAGE, offset=offset)
    counts = await ratings.counts(variant)
    return page(
        "ladder.html",
        active="ladder",
        variant=variant,
        variants=list(PRESETS),
        established=established,
        provisional=provisional,
        first_rank=offset + 1,
        page_no=page_no,
        more=any(offset + LADDER_PAGE < n for n in counts),
        counts=counts,
        bots=BOT_RATINGS.get(variant),
        levels=LEVELS,
        threshold=round(PROVISIONAL),
    )


@router.get("/players/{name}", response_class=HTMLResponse)
async def profile(page: Page, ratings: RatingsDep, name: str) -> HTMLResponse:
    found = await ratings.account_named(name[:64])
    if found is None:
        return page("profile.html", status=404, active="ladder", player=name[:64], ratings=None, threshold=0)
    account_id, written = found
    return page(
        "profile.html",
        active="ladder",
        player=written,
        ratings=await ratings.of_account(account_id),
        threshold=round(PROVISIONAL),
    )
