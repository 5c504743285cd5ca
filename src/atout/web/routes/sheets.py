"""Score sheets on a phone: a concours's table (``/s/{token}``, reached by its QR code) or a game at home
(``/keeper``).

Pages are plain HTML forms (they work on any phone); a small script reloads the page when the sheet
changes on another phone. A table's side is kept by the browser (a cookie for that sheet only), and so is
the browser's own random id (``device``), which tells the marker's phone from the one that confirms.
"""

from __future__ import annotations

import re
import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from atout.actions import strain_symbol, strain_words
from atout.errors import AtoutError
from atout.i18n import Message, tr
from atout.rules import PRESETS, Ruleset
from atout.web.concours import ConcoursService
from atout.web.deps import ConcoursDep, CurrentUser, Lang, Page, SheetsDep, check_csrf
from atout.web.keeper_form import choices, facts_from_form, form_from_facts, is_number
from atout.web.limits import MAX_INT
from atout.web.sheets import Actor, Sheet, Sheets, SheetStatus

router = APIRouter()

Token = Annotated[str, PathParam(min_length=8, max_length=32)]
DealNo = Annotated[int, PathParam(ge=1, le=MAX_INT)]
#: The presets a sheet at home may keep (two sides playing the whole deck).
KEEPER_PRESETS = tuple(p for p in PRESETS if len(Ruleset.preset(p).sides) == 2 and Ruleset.preset(p).whole_deck)
DEVICE_COOKIE = "device"


def side_cookie(token: str) -> str:
    return f"side_{token[:12]}"


#: What a browser's id looks like (:func:`_remember_device` makes them); anything else is no id.
DEVICE = re.compile(r"[A-Za-z0-9_-]{8,32}")


def device_of(request: Request) -> str | None:
    found = request.cookies.get(DEVICE_COOKIE, "")
    return found if DEVICE.fullmatch(found) else None


async def actor_of(request: Request, sheet: Sheet, user: Any, concours: ConcoursService) -> Actor:
    """Who acts on ``sheet``: the concours's organiser, or a side of the table (as his browser says), or the
    keeper of a sheet at home."""
    organiser = False
    if sheet.concours_id is not None and user is not None:
        organiser = user.is_admin or await concours.organises(sheet.concours_id, user.id)
    raw = request.cookies.get(side_cookie(sheet.token))
    side = int(raw) if raw in ("0", "1") else None
    if organiser:
        name = user.name
    elif sheet.in_concours and side is not None:
        name = f"{sheet.names[side]} (table {sheet.table_no})"
    else:
        name = user.name if user is not None else "—"
    return Actor(name, side, device_of(request), organiser)


def _remember_device(request: Request, response: Response) -> None:
    if not device_of(request):
        response.set_cookie(
            DEVICE_COOKIE,
            secrets.token_urlsafe(12),
            max_age=365 * 86400,
            httponly=True,
            samesite="lax",
            secure=request.url.scheme == "https",
        )


async def _render(
    page: Page,
    request: Request,
    sheet: Sheet,
    actor: Actor,
    *,
    status: int = 200,
    error: str | None = None,
    values: dict[str, str] | None = None,
    edit: int | None = None,
) -> HTMLResponse:
    match = sheet.match()
    may_enter = sheet.status == SheetStatus.OPEN and (
        actor.organiser or not sheet.in_concours or (actor.side is not None and sheet.marker in (None, actor.side))
    )
    may_edit = actor.organiser or (
        sheet.status != SheetStatus.CONFIRMED
        and (not sheet.in_concours or (actor.side is not None and actor.side == sheet.marker))
    )
    if edit is not None and values is None and 1 <= edit <= len(sheet.deals):
        values = form_from_facts(sheet.deals[edit - 1])
    response = page(
        "sheet.html",
        status=status,
        sheet=sheet,
        match=match,
        actor=actor,
        offered=choices(sheet.rules),
        strains=strain_labels(sheet.rules, page.lang),
        may_enter=may_enter,
        may_edit=may_edit,
        may_confirm=sheet.in_concours
        and sheet.status == SheetStatus.DONE
        and (actor.organiser or (actor.side is not None and actor.side != sheet.marker)),
        error=error,
        values=values or {},
        edit=edit,
    )
    _remember_device(request, response)
    return response


def strain_labels(rules: Ruleset, lang: str) -> dict[int, str]:
    """Each strain's mark and name (« ♥ cœur », « SA sans atout »)."""
    return {
        s: f"{strain_symbol(s)} {strain_words(s).message(lang)}" if s < 4 else strain_words(s).message(lang)
        for s in rules.strains()
    }


async def _found(sheets: Sheets, token: str) -> Sheet | None:
    return await sheets.get(token)


@router.get("/s/{token}", response_class=HTMLResponse)
async def sheet_page(
    page: Page, request: Request, sheets: SheetsDep, concours: ConcoursDep, user: CurrentUser, token: Token
) -> Response:
    sheet = await _found(sheets, token)
    if sheet is None:
        return page("missing.html", status=404, code=token[:20])
    edit_text = request.query_params.get("edit", "")
    edit = int(edit_text) if is_number(edit_text, 6) else None
    return await _render(page, request, sheet, await actor_of(request, sheet, user, concours), edit=edit)


@router.get("/s/{token}/version")
async def sheet_version(sheets: SheetsDep, token: Token) -> JSONResponse:
    """What a phone compares to know that the sheet changed elsewhere."""
    sheet = await _found(sheets, token)
    if sheet is None:
        return JSONResponse({"detail": "missing"}, status_code=404)
    return JSONResponse({"version": sheet.version}, headers={"Cache-Control": "no-store"})


@router.post("/s/{token}/side", dependencies=[Depends(check_csrf)])
async def choose_side(
    request: Request, page: Page, sheets: SheetsDep, token: Token, side: Annotated[str, Form()]
) -> Response:
    sheet = await _found(sheets, token)
    if sheet is None or not sheet.in_concours or side not in ("0", "1"):
        return page("missing.html", status=404, code=token[:20])
    response = RedirectResponse(f"/s/{token}", status_code=303)
    response.set_cookie(
        side_cookie(token),
        side,
        max_age=2 * 86400,
        httponly=True,
        samesite="lax",
        path=f"/s/{token}",
        secure=request.url.scheme == "https",
    )
    _remember_device(request, response)
    return response


async def _change(
    page: Page,
    request: Request,
    sheets: Sheets,
    concours: ConcoursService,
    user: Any,
    token: str,
    what: str,
    number: int | None = None,
) -> Response:
    sheet = await _found(sheets, token)
    if sheet is None:
        return page("missing.html", status=404, code=token[:20])
    actor = await actor_of(request, sheet, user, concours)
    form = {k: str(v) for k, v in (await request.form()).items()}
    if sheet.concours_id is not None and not actor.organiser:
        found = await concours.code_and_mode(sheet.concours_id)
        if found is not None and found[1] == "online":  # its table's game fills it: only the organiser corrects
            return page("refused.html", status=409, message=tr("web.online.sheet_played_online", page.lang))
    try:
        if what == "enter":
            await sheets.enter(token, facts_from_form(sheet.rules, form), actor)
        elif what == "correct":
            assert number is not None
            await sheets.correct(token, number, facts_from_form(sheet.rules, form), actor)
        elif what == "undo":
            await sheets.undo(token, actor)
        else:
            await sheets.confirm(token, actor, form.get("version"))
    except AtoutError as err:
        fresh = await _found(sheets, token) or sheet
        edit = number if what == "correct" else None
        return await _render(
            page, request, fresh, actor, status=400, error=err.message(page.lang), values=form, edit=edit
        )
    return RedirectResponse(f"/s/{token}", status_code=303)


@router.post("/s/{token}/deals", dependencies=[Depends(check_csrf)])
async def enter_deal(
    page: Page, request: Request, sheets: SheetsDep, concours: ConcoursDep, user: CurrentUser, token: Token
) -> Response:
    return await _change(page, request, sheets, concours, user, token, "enter")


@router.post("/s/{token}/deals/{number}", dependencies=[Depends(check_csrf)])
async def correct_deal(
    page: Page,
    request: Request,
    sheets: SheetsDep,
    concours: ConcoursDep,
    user: CurrentUser,
    token: Token,
    number: DealNo,
) -> Response:
    return await _change(page, request, sheets, concours, user, token, "correct", number)


@router.post("/s/{token}/undo", dependencies=[Depends(check_csrf)])
async def undo_deal(
    page: Page, request: Request, sheets: SheetsDep, concours: ConcoursDep, user: CurrentUser, token: Token
) -> Response:
    return await _change(page, request, sheets, concours, user, token, "undo")


@router.post("/s/{token}/confirm", dependencies=[Depends(check_csrf)])
async def confirm_sheet(
    page: Page, request: Request, sheets: SheetsDep, concours: ConcoursDep, user: CurrentUser, token: Token
) -> Response:
    return await _change(page, request, sheets, concours, user, token, "confirm")


@router.get("/keeper", response_class=HTMLResponse)
async def keeper(page: Page, sheets: SheetsDep, user: CurrentUser) -> HTMLResponse:
    """A sheet for a game at home: the account's sheets (or this browser's, listed by the page), and a new one."""
    own = await sheets.owned_by(user.id) if user is not None else []
    return page("keeper.html", sheets=own, presets=KEEPER_PRESETS, active="keeper", error=None, values={})


@router.post("/keeper", dependencies=[Depends(check_csrf)])
async def new_sheet(page: Page, request: Request, sheets: SheetsDep, user: CurrentUser, lang: Lang) -> Response:
    form = {k: str(v) for k, v in (await request.form()).items()}
    try:
        rules = keeper_rules(form)
        token = await sheets.create(rules, [form.get("us", ""), form.get("them", "")], user.id if user else None)
    except AtoutError as err:
        own = await sheets.owned_by(user.id) if user is not None else []
        return page(
            "keeper.html",
            status=400,
            sheets=own,
            presets=KEEPER_PRESETS,
            active="keeper",
            error=err.message(lang),
            values=form,
        )
    return RedirectResponse(f"/s/{token}", status_code=303)


def keeper_rules(form: dict[str, str]) -> Ruleset:
    """The ruleset a sheet's form asks for: a preset, its target, and the options every form offers."""
    preset = form.get("preset", "")
    if preset not in KEEPER_PRESETS:
        raise AtoutError(Message("web.keeper.preset"))
    options: dict[str, Any] = {}
    if form.get("sa_ta"):
        options |= {"sans_atout": True, "tout_atout": True}
    if form.get("no_announcements"):
        options["announcements"] = False
    if form.get("belote_prenable"):
        options["belote_imprenable"] = False
    end, count = form.get("end", "target"), form.get("count", "").strip()
    if count:
        if not is_number(count, 6):
            raise AtoutError(Message("web.keeper.bad_count"))
        options |= {"target": 0, "deals": int(count)} if end == "deals" else {"target": int(count)}
    return Ruleset.preset(preset, **options)
