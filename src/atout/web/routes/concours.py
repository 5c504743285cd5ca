"""A concours's pages: the organiser's list and desk, registration by link, the projector's standings, the
printed sheets and table cards, the exports and the log of changes; online (:mod:`atout.web.tournament`), a
player's call to his table, and the desk's pause and reseating.

Only the concours's organiser (or an administrator) sees the desk and changes the concours; anyone with
its link may register (while registration is open; online, signed in) and read the standings.
"""

from __future__ import annotations

import csv
import io
import json
import re
import socket
from collections.abc import Awaitable, Callable
from contextlib import suppress
from functools import lru_cache
from typing import Annotated, Any

import segno
from fastapi import APIRouter, Depends, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from atout.errors import AtoutError
from atout.i18n import Message, tr
from atout.notation import seat_letters
from atout.scoring import DealFacts
from atout.web.concours import BOT_LEVELS, DRAWS, MAX_ABSENT_DELAY, MAX_ROUNDS, MODES, RANKINGS, Board
from atout.web.deps import Address, ConcoursDep, CurrentUser, Lang, LimitsDep, Page, TournamentDep, check_csrf
from atout.web.keeper_form import is_number
from atout.web.limits import MAX_INT
from atout.web.routes.sheets import KEEPER_PRESETS, keeper_rules

router = APIRouter()

Code = Annotated[str, PathParam(min_length=4, max_length=16)]
Number = Annotated[int, PathParam(ge=1, le=MAX_INT)]
SeatNumber = Annotated[int, PathParam(ge=0, le=3)]
#: The absent delay as the form takes it: minutes, with at most two decimals (« 0,5 »: 30 seconds).
_MINUTES = re.compile(r"\d{1,2}(?:[.,]\d{1,2})?")
#: The log's changes of an online concours, and their words in the catalogue.
_ONLINE_WHATS = {"online.result": "log_result", "online.pause": "log_pause", "online.reseat": "log_reseat"}


def _organises(board: Board, user: Any) -> bool:
    return user is not None and (user.is_admin or user.id == board.concours.organiser_id)


def _forbidden(page: Page) -> HTMLResponse:
    return page("refused.html", status=403, message=tr("web.concours.forbidden_text", page.lang))


async def _form(request: Request) -> dict[str, str]:
    return {k: str(v) for k, v in (await request.form()).items()}


@lru_cache(maxsize=2048)
def _qr(url: str) -> bytes:
    """A QR code of ``url``, as an SVG image."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=4, border=2, dark="#14281d", xmldecl=False)
    return out.getvalue()


def spreadsheet_safe(text: str) -> str:
    """A name as a CSV cell a spreadsheet shows as text: one that begins like a formula (=, +, -, @, a tab or
    a return) gets an apostrophe first, so that a name registered by link never runs as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def lan_address() -> str | None:
    """This machine's address on its network (that of the interface a packet to the outside would leave by;
    nothing is sent), or None without a network."""
    with suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("10.255.255.255", 1))
        return str(probe.getsockname()[0])
    return None


def network_url(request: Request, path: str) -> str | None:
    """Where the phones reach ``path`` when the organiser opened the desk by « localhost » (which a phone cannot
    open: the QR codes would lead nowhere); None when the desk's own address will do."""
    if request.url.hostname not in ("localhost", "127.0.0.1", "::1"):
        return None
    found = lan_address()
    port = f":{request.url.port}" if request.url.port else ""
    return f"http://{found}{port}{path}" if found and not found.startswith("127.") else ""


def sheet_url(request: Request, token: str) -> str:
    return str(request.base_url).rstrip("/") + f"/s/{token}"


@router.get("/concours", response_class=HTMLResponse)
async def concours_list(page: Page, service: ConcoursDep, user: CurrentUser, request: Request) -> Response:
    if user is None:
        return RedirectResponse("/signin?next=/concours", status_code=303)
    if not user.is_organiser:
        return page("concours_list.html", status=403, mine=[], refused=True, **_create_context())
    return page("concours_list.html", mine=await service.of_organiser(user.id), refused=False, **_create_context())


def _create_context(error: str | None = None, values: dict[str, str] | None = None) -> dict[str, Any]:
    return {
        "presets": KEEPER_PRESETS,
        "draws": DRAWS,
        "modes": MODES,
        "bot_levels": BOT_LEVELS,
        "rankings": RANKINGS,
        "max_rounds": MAX_ROUNDS,
        "error": error,
        "values": values or {},
        "active": "concours",
    }


@router.post("/concours", dependencies=[Depends(check_csrf)])
async def create_concours(
    page: Page, request: Request, service: ConcoursDep, user: CurrentUser, lang: Lang
) -> Response:
    if user is None or not user.is_organiser:
        return page("concours_list.html", status=403, mine=[], refused=True, **_create_context())
    form = await _form(request)
    try:
        rules = keeper_rules(form)
        rounds = form.get("rounds", "")
        if not is_number(rounds, 3):
            raise AtoutError(Message("web.concours.rounds", most=MAX_ROUNDS))
        delay = form.get("absent_delay", "").strip() or "5"
        if not _MINUTES.fullmatch(delay):
            raise AtoutError(Message("web.online.bad_delay", most=MAX_ABSENT_DELAY // 60))
        code = await service.create(
            user.id,
            user.name,
            form.get("name", ""),
            rules,
            int(rounds),
            form.get("draw", ""),
            form.get("ranking", ""),
            open_registration=bool(form.get("open_registration")),
            mode=form.get("mode", "cards"),
            absent_delay=round(float(delay.replace(",", ".")) * 60),
            bots=form.get("bots", "club"),
        )
    except AtoutError as err:
        mine = await service.of_organiser(user.id)
        return page(
            "concours_list.html", status=400, mine=mine, refused=False, **_create_context(err.message(lang), form)
        )
    return RedirectResponse(f"/c/{code}", status_code=303)


async def _desk(
    page: Page,
    request: Request,
    board: Board,
    user: Any,
    tournament: TournamentDep,
    *,
    status: int = 200,
    error: str | None = None,
    values: dict[str, str] | None = None,
) -> HTMLResponse:
    current = board.round(board.concours.round_no)
    online = await tournament.round_tables(board) if board.concours.online else []
    return page(
        "concours_desk.html",
        network_url=network_url(request, f"/c/{board.concours.code}"),
        status=status,
        board=board,
        current=current,
        standings=board.standings(),
        organiser=_organises(board, user),
        join_url=str(request.base_url).rstrip("/") + f"/c/{board.concours.code}/join",
        online_tables=online,
        delay=minutes_text(board.concours.absent_delay, page.lang),
        letters=seat_letters(board.concours.rules),
        error=error,
        values=values or {},
        active="concours",
    )


@router.get("/c/{code}", response_class=HTMLResponse)
async def desk(
    page: Page, request: Request, service: ConcoursDep, tournament: TournamentDep, user: CurrentUser, code: Code
) -> Response:
    board = await service.board(code)
    if board is None:
        return page("missing.html", status=404, code=code[:20])
    if not _organises(board, user):
        return RedirectResponse(f"/c/{board.concours.code}/join", status_code=303)
    if board.concours.online and await tournament.seat_round(code):  # a draw the server stopped in the middle of
        board = await service.board(code) or board
    return await _desk(page, request, board, user, tournament)


#: A change an organiser makes at the desk: to the concours's board, with the form sent and his name.
Change = Callable[[Board, dict[str, str], str], Awaitable[None]]


class DeskChange:
    """What every change at the desk needs (the page, the request, the concours, the tournament, the organiser
    and his language), and how it goes: only by the concours's organiser; the desk again, with the error, when
    the change is refused; the desk's page after it."""

    def __init__(
        self,
        page: Page,
        request: Request,
        service: ConcoursDep,
        tournament: TournamentDep,
        user: CurrentUser,
        lang: Lang,
    ) -> None:
        self.page, self.request, self.service, self.tournament = page, request, service, tournament
        self.user, self.lang = user, lang

    async def __call__(self, code: str, change: Change) -> Response:
        page, user = self.page, self.user
        board = await self.service.board(code)
        if board is None:
            return page("missing.html", status=404, code=code[:20])
        if user is None or not _organises(board, user):
            return _forbidden(page)
        form = await _form(self.request)
        try:
            await change(board, form, user.name)
        except AtoutError as err:
            fresh = await self.service.board(code) or board
            error = err.message(self.lang)
            return await _desk(page, self.request, fresh, user, self.tournament, status=400, error=error, values=form)
        return RedirectResponse(f"/c/{board.concours.code}", status_code=303)


Desk = Annotated[DeskChange, Depends()]


@router.post("/c/{code}/entrants", dependencies=[Depends(check_csrf)])
async def register_at_desk(desk: Desk, code: Code) -> Response:
    async def change(board: Board, form: dict[str, str], who: str) -> None:
        players = [form.get("player1", ""), form.get("player2", "")]
        await desk.tournament.register(board.concours.code, form.get("name", ""), players, who, desk=True)

    return await desk(code, change)


@router.post("/c/{code}/entrants/{number}/withdraw", dependencies=[Depends(check_csrf)])
async def withdraw(desk: Desk, code: Code, number: Number) -> Response:
    async def change(board: Board, form: dict[str, str], who: str) -> None:
        await desk.service.withdraw(board.concours.code, number, who)

    return await desk(code, change)


@router.post("/c/{code}/registration", dependencies=[Depends(check_csrf)])
async def registration(desk: Desk, code: Code) -> Response:
    async def change(board: Board, form: dict[str, str], who: str) -> None:
        await desk.service.set_registration(board.concours.code, form.get("open") == "1", who)

    return await desk(code, change)


@router.post("/c/{code}/draw", dependencies=[Depends(check_csrf)])
async def draw(desk: Desk, code: Code) -> Response:
    async def change(board: Board, form: dict[str, str], who: str) -> None:
        await desk.tournament.draw(board.concours.code, who)

    return await desk(code, change)


@router.post("/c/{code}/pause", dependencies=[Depends(check_csrf)])
async def pause(desk: Desk, code: Code) -> Response:
    """Online: pause the round's tables (``paused=1``) or let them go on."""

    async def change(board: Board, form: dict[str, str], who: str) -> None:
        await desk.tournament.pause(board.concours.code, form.get("paused") == "1", who)

    return await desk(code, change)


@router.post("/c/{code}/tables/{table_no}/seats/{seat}", dependencies=[Depends(check_csrf)])
async def reseat(desk: Desk, code: Code, table_no: Number, seat: SeatNumber) -> Response:
    """Online: put another account (``name``) or, without a name, a bot in a seat of the round's table."""

    async def change(board: Board, form: dict[str, str], who: str) -> None:
        await desk.tournament.reseat(board.concours.code, table_no, seat, form.get("name", ""), who)

    return await desk(code, change)


def _mine(board: Board, user: Any) -> Any:
    """The signed-in player's entrant in an online concours (None: not registered, or not signed in)."""
    if user is None:
        return None
    return next((e for e in board.entrants if user.id in e.accounts and not e.withdrawn), None)


@router.get("/c/{code}/join", response_class=HTMLResponse)
async def join_page(page: Page, service: ConcoursDep, user: CurrentUser, code: Code) -> Response:
    board = await service.board(code)
    if board is None:
        return page("missing.html", status=404, code=code[:20])
    return page("concours_join.html", board=board, error=None, values={}, registered=_mine(board, user))


@router.post("/c/{code}/join", dependencies=[Depends(check_csrf)])
async def join(
    page: Page,
    request: Request,
    service: ConcoursDep,
    tournament: TournamentDep,
    limits: LimitsDep,
    address: Address,
    user: CurrentUser,
    lang: Lang,
    code: Code,
) -> Response:
    board = await service.board(code)
    if board is None:
        return page("missing.html", status=404, code=code[:20])
    form = await _form(request)
    if not limits.registrations.allow(address):
        error = tr("web.concours.too_many", lang)
        return page("concours_join.html", status=429, board=board, error=error, values=form, registered=None)
    try:
        players = [form.get("player1", ""), form.get("player2", "")]
        who = user.name if user is not None and board.concours.online else form.get("name", "")[:40] or "?"
        entrant = await tournament.register(
            board.concours.code, form.get("name", ""), players, who, desk=False, account=user
        )
    except AtoutError as err:
        return page(
            "concours_join.html", status=400, board=board, error=err.message(lang), values=form, registered=None
        )
    fresh = await service.board(code) or board
    return page("concours_join.html", board=fresh, error=None, values={}, registered=entrant)


@router.get("/c/{code}/play", response_class=HTMLResponse)
async def play_page(
    page: Page, service: ConcoursDep, tournament: TournamentDep, user: CurrentUser, code: Code
) -> Response:
    """A player's page of an online concours: his table in the round in play, called as it is drawn."""
    board = await service.board(code)
    if board is None:
        return page("missing.html", status=404, code=code[:20])
    if user is None:
        return RedirectResponse(f"/signin?next=/c/{board.concours.code}/play", status_code=303)
    call = await tournament.call(board, user.id)
    return page("concours_play.html", board=board, call=call, data=call.data(board), active="concours")


@router.get("/c/{code}/play.json")
async def play_json(
    service: ConcoursDep, tournament: TournamentDep, user: CurrentUser, lang: Lang, code: Code
) -> Response:
    """The signed-in player's call, for his page's script (asked every few seconds)."""
    board = await service.board(code)
    if board is None:
        return JSONResponse({"detail": tr("web.concours.missing", lang)}, status_code=404)
    if user is None:
        return JSONResponse({"detail": tr("web.account.signed_out", lang)}, status_code=401)
    call = await tournament.call(board, user.id)
    return JSONResponse(call.data(board), headers={"Cache-Control": "no-store"})


def _standings_data(board: Board) -> dict[str, Any]:
    c = board.concours
    current = board.round(c.round_no)
    rows = [
        {
            "rank": s.rank,
            "number": board.entrant(s.entrant).number,
            "name": board.entrant(s.entrant).name,
            "players": board.entrant(s.entrant).players,
            "played": s.played,
            "wins": float(s.wins),
            "points": s.points,
            "against": s.against,
            "difference": s.difference,
        }
        for s in board.standings()
    ]
    return {
        "code": c.code,
        "name": c.name,
        "round": c.round_no,
        "rounds": c.rounds,
        "ranking": c.ranking,
        "finished": board.finished,
        "tables": sum(1 for t in current if t.sides[1]),
        "confirmed": sum(1 for t in current if t.sides[1] and t.confirmed),
        "standings": rows,
    }


@router.get("/c/{code}/standings", response_class=HTMLResponse)
async def projector(page: Page, service: ConcoursDep, lang: Lang, code: Code) -> Response:
    board = await service.board(code)
    if board is None:
        return page("missing.html", status=404, code=code[:20])
    return page("concours_projector.html", board=board, data=_standings_data(board))


@router.get("/c/{code}/standings.json")
async def standings_json(service: ConcoursDep, lang: Lang, code: Code) -> Response:
    body = await service.standings_summary(code, lambda board: json.dumps(_standings_data(board), ensure_ascii=False))
    if body is None:
        return JSONResponse({"detail": tr("web.concours.missing", lang)}, status_code=404)
    return Response(body, media_type="application/json", headers={"Cache-Control": "no-store"})


@router.get("/c/{code}/standings.csv")
async def standings_csv(service: ConcoursDep, lang: Lang, code: Code) -> Response:
    board = await service.board(code)
    if board is None:
        return JSONResponse({"detail": tr("web.concours.missing", lang)}, status_code=404)
    out = io.StringIO()
    writer = csv.writer(out)
    columns = ("rank", "number", "name", "players", "played", "wins", "points", "against", "difference")
    writer.writerow([tr(f"web.concours.col.{c}", lang) for c in columns])
    for row in _standings_data(board)["standings"]:
        cells = {**row, "players": " & ".join(row["players"])}
        writer.writerow([spreadsheet_safe(cells[c]) if c in ("name", "players") else cells[c] for c in columns])
    name = f"concours-{board.concours.code}-standings.csv"
    return Response(
        out.getvalue(),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@router.get("/c/{code}/export.json")
async def export(service: ConcoursDep, lang: Lang, user: CurrentUser, code: Code) -> Response:
    """Everything recorded: the settings, the entrants, every table's deals and totals, the standings, the log."""
    board = await service.board(code)
    if board is None:
        return JSONResponse({"detail": tr("web.concours.missing", lang)}, status_code=404)
    if not _organises(board, user):
        return JSONResponse({"detail": tr("web.concours.forbidden_text", lang)}, status_code=403)
    c = board.concours
    deals = await service.deals(c.id)
    data = {
        "concours": {
            "code": c.code,
            "name": c.name,
            "rules": json.loads(c.rules.to_json()),
            "rounds": c.rounds,
            "draw": c.draw,
            "ranking": c.ranking,
            "created_at": c.created_at.isoformat(),
        },
        "entrants": [
            {"number": e.number, "name": e.name, "players": e.players, "withdrawn": e.withdrawn} for e in board.entrants
        ],
        "tables": [
            {
                "round": t.round_no,
                "table": t.table_no,
                "sides": [[board.entrant(i).number for i in side] for side in t.sides],
                "names": t.names,
                "status": str(t.status),
                "totals": list(t.totals),
                "deals": deals.get(t.token, []),
            }
            for t in board.tables
        ],
        "standings": _standings_data(board)["standings"],
        "changes": [
            {"at": ch.at.isoformat(), "who": ch.who, "what": ch.what, "before": ch.before, "after": ch.after}
            for ch in await service.changes(c.id)
        ],
    }
    name = f"concours-{c.code}.json"
    return Response(
        json.dumps(data, ensure_ascii=False, indent=1),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@router.get("/c/{code}/print", response_class=HTMLResponse)
async def print_sheets(page: Page, request: Request, service: ConcoursDep, user: CurrentUser, code: Code) -> Response:
    board = await service.board(code)
    if board is None:
        return page("missing.html", status=404, code=code[:20])
    if not _organises(board, user):
        return _forbidden(page)
    current = [t for t in board.round(board.concours.round_no) if t.sides[1]]
    urls = {t.token: sheet_url(request, t.token) for t in current}
    rules = board.concours.rules
    lines = rules.deals or 12
    return page("concours_print.html", board=board, current=current, urls=urls, lines=lines, rules=rules)


@router.get("/s/{token}/qr.svg")
async def qr_code(request: Request, token: Annotated[str, PathParam(min_length=8, max_length=32)]) -> Response:
    """The QR code that takes a phone to a sheet (its link, on the address the organiser reached the server by)."""
    return Response(
        _qr(sheet_url(request, token)), media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"}
    )


@router.get("/c/{code}/changes", response_class=HTMLResponse)
async def changes(page: Page, service: ConcoursDep, user: CurrentUser, code: Code) -> Response:
    board = await service.board(code)
    if board is None:
        return page("missing.html", status=404, code=code[:20])
    if not _organises(board, user):
        return _forbidden(page)
    found = await service.changes(board.concours.id)
    rows = [(c, what_key(c.what), described(c.before, page.lang), described(c.after, page.lang)) for c in found]
    return page("concours_changes.html", board=board, changes=rows, active="concours")


def minutes_text(seconds: int, lang: str) -> str:
    """Seconds as the minutes the form takes: « 0,5 » in French, "0.5" in English, "5" for whole minutes."""
    text = f"{seconds / 60:.2f}".rstrip("0").rstrip(".")
    return text.replace(".", ",") if lang == "fr" else text


def what_key(what: str) -> str:
    """The catalogue's key of a logged change's kind."""
    online = _ONLINE_WHATS.get(what)
    return f"web.online.{online}" if online else f"web.concours.what.{what}"


def described(value: Any, lang: str) -> str:
    """A logged value as the organiser reads it: a deal's facts as its contract and points (« donne 2 : 90 ♥
    coinché, preneurs côté 1, 100 points »), a confirmed game's totals, an entrant; anything else as JSON."""
    if value is None:
        return ""
    if isinstance(value, dict) and "deal" in value:
        facts = value.get("facts")
        if facts is None:
            return tr("web.concours.log.thrown_in", lang, deal=value["deal"])
        deal = DealFacts.from_dict(facts)
        side = deal.contract.taker % 2
        points = (
            tr("web.concours.log.capot", lang)
            if deal.capot is not None
            else tr("web.concours.log.points", lang, points=deal.card_points.get(side, 0))
        )
        contract = deal.contract.label(lang)
        return tr("web.concours.log.deal", lang, deal=value["deal"], contract=contract, side=side + 1, points=points)
    if isinstance(value, dict) and "totals" in value:
        return " – ".join(str(t) for t in value["totals"])
    if isinstance(value, dict) and "seat" in value and "table" in value:
        name = tr("web.online.bot", lang) if value.get("bot") else value.get("name", "")
        return tr("web.online.log_seat", lang, table=value["table"], seat=value["seat"] + 1, name=name)
    if isinstance(value, dict) and "number" in value and "name" in value:
        return f"{value['number']}. {value['name']}"
    return json.dumps(value, ensure_ascii=False)
