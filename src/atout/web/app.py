"""The web application: pages, a small JSON API and the table's WebSocket.

:func:`create_app` builds the FastAPI app for some :class:`~atout.web.settings.Settings`;
``atout serve`` runs it on uvicorn. Pages are rendered on the server (Jinja2,
autoescaped) in the visitor's language (French unless a ``lang`` cookie or
``?lang=en`` says otherwise); the table page is a thin client that renders the
views the server sends and sends actions back. Static assets ship in the package.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import defaultdict, deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from typing import Annotated, Any

from fastapi import FastAPI, HTTPException, Query, Request, WebSocket, WebSocketDisconnect
from fastapi import Path as PathParam
from fastapi.exception_handlers import request_validation_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, Field

from atout import __version__
from atout.i18n import normalize, section, tr
from atout.rules import PRESETS
from atout.web.actor import Act, Command, Connect, Disconnect, Refused
from atout.web.limits import MAX_INT, RequestLimits
from atout.web.pages import game_data, player_labels, reference_html, rules_html
from atout.web.protocol import Act as ActMessage
from atout.web.protocol import BadMessage, Hello, RateLimit, Simple, parse_message
from atout.web.protocol import Lang as LangMessage
from atout.web.service import HOST_OPTIONS, TABLE_LEVELS, TableService
from atout.web.settings import Settings
from atout.web.store import Store, StoreUnavailable
from atout.web.tokens import format_code, normalize_code
from atout.web.workers import BotPool

log = logging.getLogger("atout.web")
_PACKAGE = resources.files("atout.web")
#: Messages queued for one client before it counts as gone (it reconnects and gets a snapshot).
OUTBOX = 512
#: Seconds a new WebSocket has to say hello.
HELLO_TIMEOUT = 10.0
#: Messages refused for flooding before the connection is closed.
FLOOD_LIMIT = 50

#: A finished game's id in a path (the database's ids are 32-bit integers).
GameId = Annotated[int, PathParam(ge=1, le=MAX_INT)]
#: A deal's number in a game, from 0.
DealNo = Annotated[int, PathParam(ge=0, le=MAX_INT)]
#: A page of the list of finished games, from 0.
PageNo = Annotated[int, Query(ge=0, le=MAX_INT)]


class NewTable(BaseModel):
    preset: str = Field(max_length=32)
    options: dict[str, bool | int | str] = Field(default_factory=dict, max_length=len(HOST_OPTIONS))
    bots: str = Field(default="club", max_length=32)
    seat: int | None = None
    name: str = Field(max_length=64)


class SitDown(BaseModel):
    seat: int
    name: str = Field(max_length=64)
    token: str | None = Field(default=None, max_length=512)


class WsConnection:
    """One browser's WebSocket: an outbox the actor fills and a task that writes it."""

    def __init__(self, websocket: WebSocket, player: str | None, lang: str) -> None:
        self.websocket = websocket
        self.player = player
        self.lang = lang
        self.outbox: asyncio.Queue[dict[str, Any] | int] = asyncio.Queue(OUTBOX)

    def send(self, message: dict[str, Any]) -> None:
        try:
            self.outbox.put_nowait(message)
        except asyncio.QueueFull:  # a client that cannot keep up reconnects and gets a snapshot
            self.close(4008)

    def close(self, code: int) -> None:
        while True:
            try:
                self.outbox.put_nowait(code)
                return
            except asyncio.QueueFull:
                self.outbox.get_nowait()

    async def write(self) -> None:
        while True:
            message = await self.outbox.get()
            if isinstance(message, int):
                await self.websocket.close(message)
                return
            await self.websocket.send_text(json.dumps(message, ensure_ascii=False, separators=(",", ":")))


async def receive_text(websocket: WebSocket) -> str | None:
    """The client's next message: its text, or None for a binary one (the protocol has none).

    Raises :class:`WebSocketDisconnect` when the client has gone.
    """
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    return text if isinstance(text, str) else None


class CreationLimit:
    """Tables each client address may create per hour."""

    def __init__(self, per_hour: int) -> None:
        self.per_hour = per_hour
        self.times: dict[str, deque[float]] = defaultdict(deque)

    def allow(self, client: str) -> bool:
        now = time.monotonic()
        times = self.times[client]
        while times and times[0] < now - 3600:
            times.popleft()
        if len(times) >= self.per_hour:
            return False
        times.append(now)
        return True


def create_app(settings: Settings | None = None) -> FastAPI:
    """The web app for ``settings`` (defaults: SQLite in the user's data directory, bots in processes)."""
    settings = settings or Settings()
    store = Store(settings.url())
    pool = BotPool(settings.bot_backend, settings.bot_workers)
    service = TableService(store, pool, settings)
    limit = CreationLimit(settings.tables_per_hour)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await store.open()
        await pool.start()
        await service.start()
        try:
            yield
        finally:
            await service.close()
            await pool.close()
            await store.close()

    app = FastAPI(title="atout", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.service = service
    app.state.settings = settings
    app.add_middleware(RequestLimits)
    app.mount("/static", StaticFiles(directory=str(_PACKAGE.joinpath("static"))), name="static")
    templates = Jinja2Templates(directory=str(_PACKAGE.joinpath("templates")))

    def lang_of(request: Request) -> str:
        return normalize(request.query_params.get("lang") or request.cookies.get("lang") or "fr")

    def page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        lang = lang_of(request)
        response = templates.TemplateResponse(
            request,
            name,
            {"lang": lang, "t": lambda key, **v: tr(key, lang, **v), "version": __version__, **context},
            status_code=status,
        )
        if "lang" in request.query_params:
            response.set_cookie("lang", lang, max_age=365 * 86400, samesite="lax")
        return response

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> Response:
        """A path or query that does not fit the route: a page for a page's route, JSON (422) otherwise."""
        route = request.scope.get("route")
        if isinstance(route, APIRoute) and route.response_class is HTMLResponse:
            return page(request, "invalid.html", status=422)
        return await request_validation_exception_handler(request, exc)

    # ------------------------------------------------------------------ pages
    @app.get("/", response_class=HTMLResponse)
    async def home(request: Request) -> HTMLResponse:
        return page(request, "home.html", presets=list(PRESETS), levels=TABLE_LEVELS)

    @app.get("/t/{code}", response_class=HTMLResponse)
    async def table_page(request: Request, code: str) -> Response:
        actor = await service.actor(code)
        if actor is None:
            return page(request, "missing.html", status=404, code=code[:20])
        if code != actor.code:
            return RedirectResponse(f"/t/{actor.code}")
        return page(
            request,
            "table.html",
            code=actor.code,
            pretty=format_code(actor.code),
            rules=actor.rules,
            info=actor.public_info(),
        )

    @app.get("/games", response_class=HTMLResponse)
    async def games_page(request: Request, page_no: PageNo = 0) -> HTMLResponse:
        games = await store.games(limit=30, offset=page_no * 30)
        lang = lang_of(request)
        rows = [(g, player_labels(g, lang)) for g in games]
        return page(request, "games.html", games=rows, page_no=page_no, presets=list(PRESETS))

    @app.get("/games/{game_id}", response_class=HTMLResponse)
    async def game_page(request: Request, game_id: GameId) -> HTMLResponse:
        game = await store.game(game_id)
        if game is None:
            return page(request, "missing.html", status=404, code=str(game_id))
        return page(request, "game.html", game=game, players=player_labels(game, lang_of(request)))

    @app.get("/games/{game_id}/records.txt", response_class=PlainTextResponse)
    async def game_records(game_id: GameId) -> PlainTextResponse:
        game = await store.game(game_id)
        if game is None:
            raise HTTPException(404)
        headers = {"Content-Disposition": f'attachment; filename="atout-{game.code}-{game.game_no}.txt"'}
        return PlainTextResponse(game.records, headers=headers)

    @app.get("/rules", response_class=HTMLResponse)
    async def rules_page(request: Request) -> HTMLResponse:
        return page(request, "rules.html", body=rules_html(lang_of(request)), reference=False)

    @app.get("/rules/reference", response_class=HTMLResponse)
    async def rules_reference(request: Request) -> HTMLResponse:
        return page(request, "rules.html", body=reference_html(), reference=True)

    @app.get("/healthz")
    async def health() -> dict[str, Any]:
        return {"ok": True, "tables": len(service.actors), "fallbacks": pool.fallbacks, "version": __version__}

    @app.get("/i18n/{lang}.json")
    async def messages(lang: str) -> JSONResponse:
        code = normalize(lang)
        return JSONResponse(
            {**section("common.", code), **section("web.", code)}, headers={"Cache-Control": "max-age=3600"}
        )

    # -------------------------------------------------------------------- API
    @app.post("/api/tables")
    async def create_table(request: Request, body: NewTable) -> dict[str, str]:
        lang = lang_of(request)
        client = request.client.host if request.client else "?"
        if not limit.allow(client):
            raise HTTPException(429, tr("web.error.too_many_tables", lang))
        try:
            code, token = await service.create(body.preset, dict(body.options), body.bots, body.seat, body.name)
        except Refused as refusal:
            raise HTTPException(400, tr(refusal.key, lang, **refusal.values)) from None
        except StoreUnavailable:
            raise HTTPException(503, tr("web.error.unavailable", lang)) from None
        return {"code": code, "token": token, "url": f"/t/{code}"}

    @app.get("/api/tables/{code}")
    async def table_info(code: str) -> dict[str, Any]:
        actor = await service.actor(code)
        if actor is None:
            raise HTTPException(404)
        return actor.public_info()

    @app.post("/api/tables/{code}/seats")
    async def sit(request: Request, code: str, body: SitDown) -> dict[str, str]:
        lang = lang_of(request)
        code = normalize_code(code)
        try:
            token = await service.sit(code, body.seat, body.name, service.player(body.token, code))
        except Refused as refusal:
            raise HTTPException(
                409 if refusal.key == "web.error.seat_taken" else 400, tr(refusal.key, lang, **refusal.values)
            ) from None
        return {"token": token}

    @app.get("/api/games/{game_id}")
    async def game_json(game_id: GameId) -> dict[str, Any]:
        game = await store.game(game_id)
        if game is None:
            raise HTTPException(404)
        return game_data(game)

    @app.get("/api/games/{game_id}/deals/{deal_no}/analysis")
    async def analysis(game_id: GameId, deal_no: DealNo) -> Any:
        found = await store.analysis(game_id, deal_no)
        if found is not None:
            return found
        game = await store.game(game_id)
        if game is None:
            raise HTTPException(404)
        try:
            data = await pool.analyse(game.records, deal_no)
        except ValueError:
            raise HTTPException(404) from None
        await store.save_analysis(game_id, deal_no, data)
        return data

    # -------------------------------------------------------------- WebSocket
    @app.websocket("/ws/{code}")
    async def table_socket(websocket: WebSocket, code: str) -> None:
        await websocket.accept()
        actor = await service.actor(code)
        if actor is None:
            await websocket.close(4404)
            return
        try:
            text = await asyncio.wait_for(receive_text(websocket), HELLO_TIMEOUT)
            if text is None:
                raise BadMessage("binary message")
            hello = parse_message(text)
        except (TimeoutError, BadMessage, WebSocketDisconnect):
            await websocket.close(4400)
            return
        if not isinstance(hello, Hello):
            await websocket.close(4400)
            return
        conn = WsConnection(websocket, service.player(hello.token, actor.code), hello.lang)
        writer = asyncio.create_task(conn.write())
        actor.submit(Connect(conn, hello.epoch, hello.version))
        loop = asyncio.get_running_loop()
        rate = RateLimit(loop.time())
        refused = 0
        try:
            while not writer.done():
                text = await receive_text(websocket)
                if not rate.allow(loop.time()):
                    refused += 1
                    conn.send({"type": "error", "code": "flood", "message": tr("web.error.flood", conn.lang)})
                    if refused > FLOOD_LIMIT:
                        conn.close(1008)
                    continue
                try:
                    if text is None:
                        raise BadMessage("binary message")
                    message = parse_message(text)
                except BadMessage:
                    conn.send({"type": "error", "code": "malformed", "message": tr("web.error.malformed", conn.lang)})
                    continue
                if isinstance(message, ActMessage):
                    actor.submit(Act(conn, message.action, message.id))
                elif isinstance(message, LangMessage):
                    actor.submit(Command(conn, "lang", message.lang))
                elif isinstance(message, Simple) and message.type == "ping":
                    conn.send({"type": "pong"})
                elif isinstance(message, Simple):
                    actor.submit(Command(conn, message.type))
        except WebSocketDisconnect:
            pass
        except RuntimeError:  # the socket was closed by the server side
            pass
        finally:
            actor.submit(Disconnect(conn))
            writer.cancel()

    return app
