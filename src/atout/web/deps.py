"""What the routes depend on (FastAPI ``Depends``): the server's parts, the visitor's language and address,
the per-address limits, the pages' renderer, and who is signed in.

:func:`atout.web.app.create_app` puts the parts on ``app.state``; a route names what it needs by type
(``service: Service``), so that it holds no state of its own and a test may give it other parts.

Accounts (:mod:`atout.web.accounts`): ``CurrentUser`` is the signed-in :class:`~atout.web.accounts.Account` or
None; ``SignedIn``, ``Organiser`` and ``Admin`` are an account that must be signed in (else a page's route
redirects to ``/signin?next=...``, an API's answers 401) and have that role (else 403). ``Csrf`` checks that a
state-changing request carries the visitor's CSRF token (:mod:`atout.web.csrf`; else 403): every POST route
names it. A page's route (``response_class=HTMLResponse``) is refused with a page (:class:`Refusal`), an API's
with JSON. For example::

    @router.post("/concours", response_class=HTMLResponse)
    async def create(page: Page, organiser: Organiser, _csrf: Csrf, name: Annotated[str, Form()] = "") -> Response:
        ...
"""

from __future__ import annotations

from importlib import resources
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import Depends, HTTPException, Request
from fastapi.responses import HTMLResponse
from fastapi.routing import APIRoute
from fastapi.templating import Jinja2Templates
from starlette.requests import HTTPConnection

from atout import __version__
from atout.i18n import normalize, tr
from atout.web.accounts import SESSION_COOKIE, Account, Accounts, clear_session_cookie
from atout.web.challenges import ChallengeService
from atout.web.concours import ConcoursService
from atout.web.csrf import csrf_token, csrf_valid, remember_csrf
from atout.web.limits import AddressLimit
from atout.web.ratings import Ratings
from atout.web.service import TableService
from atout.web.settings import Settings
from atout.web.sheets import Sheets
from atout.web.store import Store, StoreUnavailable
from atout.web.tournament import Tournament
from atout.web.workers import BotPool

TEMPLATES = Jinja2Templates(directory=str(resources.files("atout.web").joinpath("templates")))


def signed(points: int) -> str:
    """Points with their sign, as a score sheet writes them: +90, −3, 0."""
    return f"+{points}" if points > 0 else f"−{-points}" if points < 0 else "0"


def wins(count: float, lang: str = "fr") -> str:
    """Wins, a draw counting a half: « 2,5 » in French, "2.5" in English."""
    text = str(int(count)) if float(count).is_integer() else f"{float(count):.1f}"
    return text.replace(".", ",") if lang == "fr" else text


def percent(value: float, lang: str = "fr") -> str:
    """A percentage to one decimal: « 62,5 % » (a non-breaking space) in French, "62.5%" in English."""
    text = f"{value:.1f}"
    return text.replace(".", ",") + "\u00a0%" if lang == "fr" else text + "%"


TEMPLATES.env.filters |= {"signed": signed, "wins": wins, "percent": percent}


async def _service(connection: HTTPConnection) -> TableService:
    service: TableService = connection.app.state.service
    return service


async def _store(connection: HTTPConnection) -> Store:
    service: TableService = connection.app.state.service
    return service.store


async def _pool(connection: HTTPConnection) -> BotPool:
    service: TableService = connection.app.state.service
    return service.pool


def lang_of(request: Request) -> str:
    """The visitor's language: ``?lang=``, else his ``lang`` cookie, else French."""
    return normalize(request.query_params.get("lang") or request.cookies.get("lang") or "fr")


async def _address(request: Request) -> str:
    return request.client.host if request.client else "?"


Service = Annotated[TableService, Depends(_service)]
StoreDep = Annotated[Store, Depends(_store)]
Pool = Annotated[BotPool, Depends(_pool)]


async def _lang(request: Request) -> str:
    return lang_of(request)


Lang = Annotated[str, Depends(_lang)]
Address = Annotated[str, Depends(_address)]


class Limits:
    """The per-address limits of one app: tables created, analyses computed, registrations by a concours's link."""

    def __init__(self, settings: Settings) -> None:
        self.tables = AddressLimit(settings.tables_per_hour)
        self.analyses = AddressLimit(settings.analyses_per_hour)
        self.registrations = AddressLimit(settings.registrations_per_hour)


async def _limits(connection: HTTPConnection) -> Limits:
    limits: Limits = connection.app.state.limits
    return limits


LimitsDep = Annotated[Limits, Depends(_limits)]


def within(limit: AddressLimit, address: str, key: str, lang: str) -> None:
    """Count one more for ``address``; past the limit, 429 with the catalogue's ``key`` in ``lang``."""
    if not limit.allow(address):
        raise HTTPException(429, tr(key, lang))


async def _accounts(connection: HTTPConnection) -> Accounts:
    accounts: Accounts = connection.app.state.accounts
    return accounts


AccountsDep = Annotated[Accounts, Depends(_accounts)]


async def _concours(connection: HTTPConnection) -> ConcoursService:
    service: ConcoursService = connection.app.state.concours
    return service


async def _ratings(connection: HTTPConnection) -> Ratings:
    ratings: Ratings = connection.app.state.ratings
    return ratings


async def _sheets(connection: HTTPConnection) -> Sheets:
    sheets: Sheets = connection.app.state.sheets
    return sheets


async def _challenges(connection: HTTPConnection) -> ChallengeService:
    challenges: ChallengeService = connection.app.state.challenges
    return challenges


ChallengesDep = Annotated[ChallengeService, Depends(_challenges)]


async def _tournament(connection: HTTPConnection) -> Tournament:
    tournament: Tournament = connection.app.state.tournament
    return tournament


ConcoursDep = Annotated[ConcoursService, Depends(_concours)]
TournamentDep = Annotated[Tournament, Depends(_tournament)]
SheetsDep = Annotated[Sheets, Depends(_sheets)]
RatingsDep = Annotated[Ratings, Depends(_ratings)]


async def current_user(connection: HTTPConnection) -> Account | None:
    """The account signed in by the request's (or the WebSocket's) ``session`` cookie, or None."""
    token = connection.cookies.get(SESSION_COOKIE)
    if not token:
        return None
    try:
        user = await (await _accounts(connection)).by_session(token)
    except StoreUnavailable:  # no telling: keep the cookie
        return None
    connection.state.user = user  # for a page rendered outside the route (a refusal)
    connection.state.stale_session = user is None
    return user


CurrentUser = Annotated[Account | None, Depends(current_user)]


class Refusal(HTTPException):
    """A request refused, with the catalogue's ``key`` in the visitor's language: the app answers a page's route
    (``response_class=HTMLResponse``) with a page (or follows ``location``), any other with JSON."""

    def __init__(self, request: Request, status: int, key: str, location: str | None = None) -> None:
        super().__init__(status, tr(key, lang_of(request)), {"Location": location} if location else None)
        self.key = key
        self.location = location


def _signin_path(request: Request) -> str:
    if request.method != "GET":
        return "/signin"
    here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return f"/signin?next={quote(here, safe='/')}"


async def signed_in(request: Request, user: CurrentUser) -> Account:
    """The signed-in account; nobody: a page's route redirects to ``/signin?next=<this page>`` (303), an API 401."""
    if user is None:
        raise Refusal(request, 303 if page_route(request) else 401, "web.account.signed_out", _signin_path(request))
    return user


SignedIn = Annotated[Account, Depends(signed_in)]


async def organiser(request: Request, user: SignedIn) -> Account:
    """The signed-in account, an organiser or an admin (else 403)."""
    if not user.is_organiser:
        raise Refusal(request, 403, "web.account.not_organiser")
    return user


async def admin(request: Request, user: SignedIn) -> Account:
    """The signed-in account, an admin (else 403)."""
    if not user.is_admin:
        raise Refusal(request, 403, "web.account.not_admin")
    return user


Organiser = Annotated[Account, Depends(organiser)]
Admin = Annotated[Account, Depends(admin)]


async def check_csrf(request: Request) -> str:
    """Refuse (403) a state-changing request whose ``csrf`` form field or ``X-CSRF-Token`` header is not the
    visitor's ``csrf`` cookie; the token, when it is."""
    if not await csrf_valid(request):
        raise Refusal(request, 403, "web.account.csrf")
    return csrf_token(request)


Csrf = Annotated[str, Depends(check_csrf)]


def page_route(request: Request) -> bool:
    """Whether a refusal should be a page: the route answers with one (``response_class=HTMLResponse``), or
    a browser asks for one (a form posted, a link followed); a script's request gets JSON."""
    route = request.scope.get("route")
    if isinstance(route, APIRoute) and route.response_class is HTMLResponse:
        return True
    return "text/html" in request.headers.get("accept", "")


class Renderer:
    """Renders a page in the visitor's language, and remembers a language asked for in the URL.

    Every template sees ``lang``, ``t`` (the catalogue), ``version``, ``user`` (the signed-in account or None)
    and ``csrf`` (the token its forms send back); the visitor's ``csrf`` cookie is set when he has none.
    """

    def __init__(self, request: Request, user: CurrentUser = None) -> None:
        self.request = request
        self.lang = lang_of(request)
        self.user: Account | None = user if user is not None else getattr(request.state, "user", None)

    def __call__(self, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        lang = self.lang
        request = self.request
        response = TEMPLATES.TemplateResponse(
            request,
            name,
            {
                "lang": lang,
                "t": lambda key, **v: tr(key, lang, **v),
                "version": __version__,
                "user": self.user,
                "csrf": csrf_token(request),
                **context,
            },
            status_code=status,
        )
        if "lang" in request.query_params:
            response.set_cookie("lang", lang, max_age=365 * 86400, samesite="lax")
        remember_csrf(request, response)
        if getattr(request.state, "stale_session", False):  # an expired or unknown session: forget it
            clear_session_cookie(request, response)
        return response


async def _renderer(request: Request, user: CurrentUser = None) -> Renderer:
    return Renderer(request, user)


Page = Annotated[Renderer, Depends(_renderer)]
