"""The web application: pages, a small JSON API and the tables' WebSocket.

:func:`create_app` builds the FastAPI app for some :class:`~atout.web.settings.Settings`: its parts
(the store, the bot pool, the tables' service, the per-address limits) on ``app.state``, where the
routes find them through their dependencies (:mod:`atout.web.deps`), and one router per area
(:mod:`atout.web.routes`). ``atout serve`` runs it on uvicorn. Pages are rendered on the server
(Jinja2, autoescaped) in the visitor's language (French unless a ``lang`` cookie or ``?lang=en``
says otherwise); the table page is a thin client that draws the views the server sends and sends
actions back. Static assets ship in the package.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from datetime import datetime
from importlib import resources

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler, request_validation_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles

from atout import __version__
from atout.web.accounts import Accounts
from atout.web.challenges import ChallengeService
from atout.web.concours import ConcoursService
from atout.web.deps import Limits, Refusal, Renderer, page_route
from atout.web.limits import RequestLimits
from atout.web.ratings import RatingListener, Ratings
from atout.web.routes import accounts, challenges, concours, games, lobby, pages, ratings, sheets, socket, tables
from atout.web.service import TableService
from atout.web.settings import Settings
from atout.web.sheets import Sheets
from atout.web.store import Store
from atout.web.tournament import Tournament
from atout.web.workers import BotPool

#: The app's routers, one per area (the lobby's socket before the tables', whose path would take it).
ROUTERS = (
    pages.router,
    accounts.router,
    concours.router,
    challenges.router,
    sheets.router,
    ratings.router,
    tables.router,
    games.router,
    lobby.router,
    socket.router,
)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The web app for ``settings`` (defaults: SQLite in the user's data directory, bots in processes)."""
    settings = settings or Settings()
    store = Store(settings.url())
    pool = BotPool(settings.bot_backend, settings.bot_workers, settings.analysis_time)
    service = TableService(store, pool, settings)
    people = Accounts(store, settings)
    rated = Ratings(store)
    rated.attach(service.lobby)
    service.listeners.append(RatingListener(rated))
    challenges_ = ChallengeService(store, service)
    service.listeners.append(challenges_)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await store.open()
        if settings.admin:
            await people.promote_named_admin(settings.admin)
        await pool.start()
        await service.start()
        daily = None
        if settings.daily_challenge:
            await challenges_.ensure_daily(datetime.now().date(), settings.daily_challenge, settings.daily_deals)
            run = challenges_.run_daily(settings.daily_challenge, settings.daily_deals)
            daily = asyncio.create_task(run, name="atout daily challenge")
        try:
            yield
        finally:
            if daily is not None:
                daily.cancel()
                with suppress(asyncio.CancelledError):
                    await daily
            await service.close()
            await pool.close()
            await store.close()

    app = FastAPI(title="atout", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.service = service
    app.state.limits = Limits(settings)
    app.state.accounts = people
    app.state.concours = ConcoursService(store)
    app.state.tournament = Tournament(app.state.concours, service, people)
    service.listeners.append(app.state.tournament)  # a tournament's table records its result by itself
    app.state.challenges = challenges_
    app.state.sheets = Sheets(store)
    app.state.ratings = rated
    app.add_middleware(RequestLimits)
    app.add_exception_handler(RequestValidationError, _invalid_request)
    app.add_exception_handler(Refusal, _refused)
    app.mount("/static", StaticFiles(directory=str(resources.files("atout.web").joinpath("static"))), name="static")
    for router in ROUTERS:
        app.include_router(router)
    return app


async def _invalid_request(request: Request, exc: Exception) -> Response:
    """A path or query that does not fit the route: a page for a page's route, JSON (422) otherwise."""
    route = request.scope.get("route")
    if isinstance(route, APIRoute) and route.response_class is HTMLResponse:
        return pages.invalid(request)
    assert isinstance(exc, RequestValidationError)
    return await request_validation_exception_handler(request, exc)


async def _refused(request: Request, exc: Exception) -> Response:
    """A request refused (not signed in, not allowed, no CSRF token): a page's route gets a page, or is
    redirected (to sign in); any other route, JSON."""
    assert isinstance(exc, Refusal)
    if not page_route(request):
        return await http_exception_handler(request, exc)
    if exc.location:
        return RedirectResponse(exc.location, exc.status_code)
    return Renderer(request)("refused.html", status=exc.status_code, message=exc.detail)
