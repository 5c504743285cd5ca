"""The finished games' API: a game for its replay, its records, and a deal's double-dummy analysis."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, HTTPException
from fastapi import Path as PathParam
from fastapi.responses import PlainTextResponse

from atout.i18n import tr
from atout.web.actor import talk_line
from atout.web.deps import Address, ChallengesDep, CurrentUser, Lang, LimitsDep, Pool, StoreDep, within
from atout.web.limits import MAX_INT
from atout.web.replay import AnalysedCard, ReplayGame, analysis, replay
from atout.web.routes.pages import GameId
from atout.web.store import GameRow
from atout.web.workers import AnalysisTooLong

router = APIRouter()

#: A deal's number in a game, from 0.
DealNo = Annotated[int, PathParam(ge=0, le=MAX_INT)]


@router.get("/games/{game_id}/records.txt", response_class=PlainTextResponse)
async def records(game_id: GameId, store: StoreDep, challenges: ChallengesDep, user: CurrentUser) -> PlainTextResponse:
    game = await _shown(game_id, store, challenges, user)
    headers = {"Content-Disposition": f'attachment; filename="atout-{game.code}-{game.game_no}.txt"'}
    return PlainTextResponse(game.records, headers=headers)


@router.get("/api/games/{game_id}")
async def game(
    game_id: GameId, store: StoreDep, challenges: ChallengesDep, user: CurrentUser, lang: Lang
) -> ReplayGame:
    found = await _shown(game_id, store, challenges, user)
    talk = [talk_line(line, lang) for line in await store.game_talk(game_id)]
    return replay(found, lang).model_copy(update={"talk": talk})


@router.get("/api/games/{game_id}/deals/{deal_no}/analysis")
async def analyse(
    game_id: GameId,
    deal_no: DealNo,
    store: StoreDep,
    challenges: ChallengesDep,
    user: CurrentUser,
    pool: Pool,
    limits: LimitsDep,
    address: Address,
    lang: Lang,
) -> list[AnalysedCard]:
    """Every card of a deal with its double-dummy value: computed once by a worker (within the pool's time,
    a number of times an hour per address), then kept."""
    game = await _shown(game_id, store, challenges, user)
    rows = await store.analysis(game_id, deal_no)
    if rows is None:
        within(limits.analyses, address, "web.error.too_many_analyses", lang)
        try:
            rows = await pool.analyse(game.records, deal_no)
        except ValueError:
            raise HTTPException(404) from None
        except AnalysisTooLong:
            raise HTTPException(503, tr("web.error.analysis_too_long", lang)) from None
        await store.save_analysis(game_id, deal_no, rows)
    return analysis(rows, lang)


async def _shown(game_id: int, store: StoreDep, challenges: ChallengesDep, user: CurrentUser) -> GameRow:
    """The game, if the viewer may see it (a challenge's stays hidden until he has finished it); 404 otherwise."""
    found = await store.game(game_id)
    if found is None or await challenges.hides(found, user.id if user else None):
        raise HTTPException(404)
    return found
