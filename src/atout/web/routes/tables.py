"""The tables' API: create a table, read what anyone may know of one, take a seat.

A signed-in visitor (his session's cookie) sits in his account's seat; a rated table is created by one only, and
only accounts sit there (:mod:`atout.web.ratings`)."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, Field

from atout.i18n import tr
from atout.web.actor import Refused
from atout.web.csrf import csrf_valid
from atout.web.deps import Address, CurrentUser, Lang, LimitsDep, Service, within
from atout.web.service import HOST_OPTIONS
from atout.web.store import StoreUnavailable
from atout.web.tokens import normalize_code
from atout.web.wire import TableInfo, Wire

router = APIRouter(prefix="/api/tables")


class NewTable(BaseModel):
    preset: str = Field(max_length=32)
    options: dict[str, bool | int | str] = Field(default_factory=dict, max_length=len(HOST_OPTIONS))
    bots: str = Field(default="club", max_length=32)
    seat: int | None = None
    name: str = Field(max_length=64)
    #: Reached by its link only: never listed in the lobby.
    private: bool = False
    #: The bots' pace: slow, normal or fast (a multiple of the server's ``--bot-pace``).
    pace: Literal["slow", "normal", "fast"] = "normal"
    #: A practice table: hints on demand, and each card's cost after each deal.
    practice: bool = False
    #: A rated table: only signed-in accounts sit there, and its games change their ratings (the creator must be
    #: signed in, and send his CSRF token: ``X-CSRF-Token``).
    rated: bool = False


class TableCreated(Wire):
    """A new table: its code, its creator's seat token, and its page."""

    code: str
    token: str
    url: str


class SitDown(BaseModel):
    seat: int
    name: str = Field(max_length=64)
    token: str | None = Field(default=None, max_length=512)


class SeatToken(Wire):
    token: str


@router.post("")
async def create(
    request: Request,
    body: NewTable,
    service: Service,
    limits: LimitsDep,
    address: Address,
    lang: Lang,
    user: CurrentUser,
) -> TableCreated:
    if body.rated and user is None:
        raise HTTPException(401, tr("web.ratings.error_sign_in_to_create", lang))
    if body.rated and not await csrf_valid(request):
        raise HTTPException(403, tr("web.account.csrf", lang))
    within(limits.tables, address, "web.error.too_many_tables", lang)
    try:
        code, token = await service.create(
            body.preset,
            dict(body.options),
            body.bots,
            body.seat,
            body.name,
            private=body.private,
            pace=body.pace,
            practice=body.practice,
            rated=body.rated,
            account=user,
        )
    except Refused as refusal:
        raise HTTPException(400, tr(refusal.key, lang, **refusal.values)) from None
    except StoreUnavailable:
        raise HTTPException(503, tr("web.error.unavailable", lang)) from None
    return TableCreated(code=code, token=token, url=f"/t/{code}")


@router.get("/{code}")
async def info(code: str, service: Service) -> TableInfo:
    actor = await service.actor(code)
    if actor is None:
        raise HTTPException(404)
    return actor.public_info()


@router.post("/{code}/seats")
async def sit(code: str, body: SitDown, service: Service, lang: Lang, user: CurrentUser) -> SeatToken:
    code = normalize_code(code)
    try:
        token = await service.sit(code, body.seat, body.name, service.player(body.token, code), user)
    except Refused as refusal:
        status = 409 if refusal.key == "web.error.seat_taken" else 400
        raise HTTPException(status, tr(refusal.key, lang, **refusal.values)) from None
    except StoreUnavailable:
        raise HTTPException(503, tr("web.error.unavailable", lang)) from None
    return SeatToken(token=token)
