"""What the routes depend on (FastAPI ``Depends``): the server's parts, the visitor's language and address,
the per-address limits, and the pages' renderer.

:func:`atout.web.app.create_app` puts the parts on ``app.state``; a route names what it needs by type
(``service: Service``), so that it holds no state of its own and a test may give it other parts.
"""

from __future__ import annotations

from importlib import resources
from typing import Annotated, Any

from fastapi import Depends, HTTPException, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from starlette.requests import HTTPConnection

from atout import __version__
from atout.i18n import normalize, tr
from atout.web.limits import AddressLimit
from atout.web.service import TableService
from atout.web.settings import Settings
from atout.web.store import Store
from atout.web.workers import BotPool

TEMPLATES = Jinja2Templates(directory=str(resources.files("atout.web").joinpath("templates")))


def _service(connection: HTTPConnection) -> TableService:
    service: TableService = connection.app.state.service
    return service


def _store(connection: HTTPConnection) -> Store:
    return _service(connection).store


def _pool(connection: HTTPConnection) -> BotPool:
    return _service(connection).pool


def lang_of(request: Request) -> str:
    """The visitor's language: ``?lang=``, else his ``lang`` cookie, else French."""
    return normalize(request.query_params.get("lang") or request.cookies.get("lang") or "fr")


def _address(request: Request) -> str:
    return request.client.host if request.client else "?"


Service = Annotated[TableService, Depends(_service)]
StoreDep = Annotated[Store, Depends(_store)]
Pool = Annotated[BotPool, Depends(_pool)]
Lang = Annotated[str, Depends(lang_of)]
Address = Annotated[str, Depends(_address)]


class Limits:
    """The per-address limits of one app: tables created, analyses computed."""

    def __init__(self, settings: Settings) -> None:
        self.tables = AddressLimit(settings.tables_per_hour)
        self.analyses = AddressLimit(settings.analyses_per_hour)


def _limits(connection: HTTPConnection) -> Limits:
    limits: Limits = connection.app.state.limits
    return limits


LimitsDep = Annotated[Limits, Depends(_limits)]


def within(limit: AddressLimit, address: str, key: str, lang: str) -> None:
    """Count one more for ``address``; past the limit, 429 with the catalogue's ``key`` in ``lang``."""
    if not limit.allow(address):
        raise HTTPException(429, tr(key, lang))


class Renderer:
    """Renders a page in the visitor's language, and remembers a language asked for in the URL."""

    def __init__(self, request: Request) -> None:
        self.request = request
        self.lang = lang_of(request)

    def __call__(self, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        lang = self.lang
        response = TEMPLATES.TemplateResponse(
            self.request,
            name,
            {"lang": lang, "t": lambda key, **v: tr(key, lang, **v), "version": __version__, **context},
            status_code=status,
        )
        if "lang" in self.request.query_params:
            response.set_cookie("lang", lang, max_age=365 * 86400, samesite="lax")
        return response


Page = Annotated[Renderer, Depends(Renderer)]
