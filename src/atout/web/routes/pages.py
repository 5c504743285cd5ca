"""The pages: home, a table, the history and a game's replay, the rules; the pages' messages; the health check."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from atout import __version__
from atout.i18n import normalize, section, tr
from atout.rules import PRESETS
from atout.web.deps import ChallengesDep, ConcoursDep, CurrentUser, Lang, Page, Pool, Renderer, Service, StoreDep
from atout.web.guide import reference_html, rules_html
from atout.web.limits import MAX_INT
from atout.web.replay import players, summary
from atout.web.service import TABLE_LEVELS, TARGET_RANGE
from atout.web.tokens import account_player, format_code

router = APIRouter()

#: A finished game's id in a path (the database's ids are 32-bit integers).
GameId = Annotated[int, PathParam(ge=1, le=MAX_INT)]
#: A page of the list of finished games, from 0.
PageNo = Annotated[int, Query(ge=0, le=MAX_INT)]
#: Finished games listed on a page.
GAMES_PER_PAGE = 30


@router.get("/", response_class=HTMLResponse)
async def home(page: Page) -> HTMLResponse:
    return page("home.html", presets=list(PRESETS), levels=TABLE_LEVELS, target_range=TARGET_RANGE)


@router.get("/t/{code}", response_class=HTMLResponse)
async def table(
    page: Page, service: Service, challenges: ChallengesDep, concours: ConcoursDep, user: CurrentUser, code: str
) -> Response:
    actor = await service.actor(code)
    if actor is None:
        return page("missing.html", status=404, code=code[:20])
    if code != actor.code:
        return RedirectResponse(f"/t/{actor.code}")
    # An account's seat (a competition's, a rated table's): the page takes its token from here.
    seated = user is not None and any(s.player == account_player(user.id) for s in actor.seats)
    token = service.token(actor.code, account_player(user.id)) if seated and user is not None else ""
    back, back_label = "", ""  # a competition's table: where its game's end leads
    if actor.row.challenge_id is not None:
        back = f"/challenges/{await challenges.code_of(actor.row.challenge_id)}#ranking"
        back_label = tr("web.challenge.back", page.lang)
    elif actor.row.concours_id is not None and (found := await concours.code_and_mode(actor.row.concours_id)):
        back, back_label = f"/c/{found[0]}/play", tr("web.online.back", page.lang)
    return page(
        "table.html",
        code=actor.code,
        pretty=format_code(actor.code),
        seat_token=token,
        back=back,
        back_label=back_label,
    )


@router.get("/games", response_class=HTMLResponse)
async def games(page: Page, store: StoreDep, lang: Lang, page_no: PageNo = 0) -> HTMLResponse:
    found = await store.games(limit=GAMES_PER_PAGE, offset=page_no * GAMES_PER_PAGE)
    rows = [(g, players(g, lang), summary(g, lang)) for g in found]
    return page("games.html", games=rows, page_no=page_no, presets=list(PRESETS), per_page=GAMES_PER_PAGE)


@router.get("/games/{game_id}", response_class=HTMLResponse)
async def game(
    page: Page, store: StoreDep, challenges: ChallengesDep, user: CurrentUser, lang: Lang, game_id: GameId
) -> HTMLResponse:
    found = await store.game(game_id)
    if found is None or await challenges.hides(found, user.id if user else None):
        return page("missing.html", status=404, code=str(game_id))
    return page("game.html", game=found, players=players(found, lang), summary=summary(found, lang))


@router.get("/rules", response_class=HTMLResponse)
async def rules(page: Page, lang: Lang) -> HTMLResponse:
    return page("rules.html", body=rules_html(lang), reference=False)


@router.get("/rules/reference", response_class=HTMLResponse)
async def reference(page: Page) -> HTMLResponse:
    return page("rules.html", body=reference_html(), reference=True)


@router.get("/i18n/{lang}.json")
async def messages(lang: str) -> JSONResponse:
    """The catalogue's words a page uses (``common.*`` and ``web.*``) in ``lang``."""
    code = normalize(lang)
    return JSONResponse(
        {**section("common.", code), **section("web.", code)}, headers={"Cache-Control": "max-age=3600"}
    )


@router.get("/healthz")
async def health(service: Service, pool: Pool) -> dict[str, Any]:
    return {"ok": True, "tables": len(service.actors), "fallbacks": pool.fallbacks, "version": __version__}


def invalid(request: Request) -> HTMLResponse:
    """The page for an address whose number does not fit its route."""
    return Renderer(request)("invalid.html", status=422)
