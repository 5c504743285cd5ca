"""The duplicate challenges' pages: the list (and an organiser's form to create one), a challenge's page (play,
resume, and once finished the ranking and how the field played each deal), and starting to play."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from atout.errors import AtoutError
from atout.i18n import tr
from atout.rules import PRESETS
from atout.web.challenges import DEALS_RANGE, HOURS_RANGE
from atout.web.deps import ChallengesDep, CurrentUser, Lang, Page, SignedIn, check_csrf
from atout.web.guide import rules_section

router = APIRouter()

Code = Annotated[str, PathParam(min_length=4, max_length=16)]


def _create_context(error: str | None = None, values: dict[str, str] | None = None) -> dict[str, Any]:
    return {
        "presets": list(PRESETS),
        "deals_range": DEALS_RANGE,
        "hours_range": HOURS_RANGE,
        "error": error,
        "values": values or {},
        "active": "challenges",
    }


@router.get("/challenges", response_class=HTMLResponse)
async def challenge_list(page: Page, challenges: ChallengesDep, user: CurrentUser) -> Response:
    return await _list_page(page, challenges, user)


async def _list_page(
    page: Page, challenges: ChallengesDep, user: CurrentUser, status: int = 200, **context: Any
) -> HTMLResponse:
    opened, closed = await challenges.listing()
    counts = await challenges.participants([c.id for c in opened + closed])
    mine = await challenges.mine(user.id) if user is not None else {}
    return page(
        "challenges.html",
        status=status,
        opened=opened,
        closed=closed,
        counts=counts,
        mine=mine,
        **(_create_context() | context),
    )


@router.post("/challenges", dependencies=[Depends(check_csrf)])
async def create_challenge(
    page: Page, request: Request, challenges: ChallengesDep, user: SignedIn, lang: Lang
) -> Response:
    form = {k: str(v) for k, v in (await request.form()).items()}
    if not user.is_organiser:
        return await _list_page(page, challenges, user, status=403)
    try:
        deals = int(form.get("deals", ""))
        hours = int(form.get("hours", ""))
    except ValueError:
        error = tr("web.challenge.error.number", lang)
        return await _list_page(page, challenges, user, status=400, **_create_context(error, form))
    if not HOURS_RANGE[0] <= hours <= HOURS_RANGE[1]:
        error = tr("web.challenge.error.hours", lang, low=HOURS_RANGE[0], high=HOURS_RANGE[1])
        return await _list_page(page, challenges, user, status=400, **_create_context(error, form))
    try:
        created = await challenges.create(
            form.get("name", ""),
            form.get("preset", ""),
            deals,
            datetime.now(UTC) + timedelta(hours=hours),
            created_by=user.id,
        )
    except AtoutError as err:
        return await _list_page(page, challenges, user, status=400, **_create_context(err.message(lang), form))
    return RedirectResponse(f"/challenges/{created.code}", status_code=303)


@router.get("/challenges/{code}", response_class=HTMLResponse)
async def challenge_page(page: Page, code: Code, challenges: ChallengesDep, user: CurrentUser) -> Response:
    challenge = await challenges.get(code)
    if challenge is None:
        return page("missing.html", status=404, code=code[:16])
    entry = await challenges.entry(challenge, user.id) if user is not None else None
    shown = not challenge.open() or (entry is not None and entry.finished)
    results = await challenges.results(challenge, user.id if user is not None else None) if shown else None
    game_id = await challenges.game_of(entry) if entry is not None and entry.finished else None
    count = (await challenges.participants([challenge.id])).get(challenge.id, 0)
    return page(
        "challenge.html",
        challenge=challenge,
        entry=entry,
        results=results,
        game_id=game_id,
        count=count,
        rules_link=rules_section(challenge.rules.name),
        active="challenges",
    )


@router.post("/challenges/{code}/play", dependencies=[Depends(check_csrf)])
async def play(page: Page, code: Code, challenges: ChallengesDep, user: SignedIn, lang: Lang) -> Response:
    challenge = await challenges.get(code)
    if challenge is None:
        return page("missing.html", status=404, code=code[:16])
    try:
        table = await challenges.play(challenge, user.id, user.name)
    except AtoutError as err:
        return page("refused.html", status=409, message=err.message(lang))
    return RedirectResponse(f"/t/{table}", status_code=303)
