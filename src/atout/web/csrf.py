"""Protection against cross-site request forgery: a double-submit cookie.

Each visitor gets a random token in his ``csrf`` cookie (HttpOnly, SameSite=Strict, Secure when the request
came over HTTPS), set by the first page he is shown (:func:`csrf_token`, :func:`remember_csrf`). Every page
carries the same token: in a hidden ``csrf`` field of each of its forms, and in ``<meta name="csrf">`` for its
scripts, which send it in the ``X-CSRF-Token`` header. A state-changing request is taken only if the token it
sends equals its cookie (:func:`csrf_valid`): another site can make a browser send the cookie, but cannot read
it, nor the page, so it cannot send the token too. (SameSite=Strict alone would do in today's browsers; the
token also covers older ones, and a sub-domain that could set cookies cannot guess the token.)

The check itself is the dependency ``Csrf`` of :mod:`atout.web.deps`, which refuses a request that fails it
with 403 and a message in the visitor's language.
"""

from __future__ import annotations

import hmac
import re
import secrets

from starlette.requests import Request
from starlette.responses import Response

#: The cookie, the forms' hidden field and the scripts' header that carry the token.
COOKIE = "csrf"
FIELD = "csrf"
HEADER = "X-CSRF-Token"
#: The cookie's life: a year (it is no secret of the account, only of the browser).
MAX_AGE = 365 * 86400
#: What a token looks like (:func:`secrets.token_urlsafe` of 32 bytes): anything else is replaced.
_SHAPE = re.compile(r"[A-Za-z0-9_-]{32,64}")
#: Methods that change nothing: never checked.
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: Bodies that a form sends (the token is then its ``csrf`` field).
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def csrf_token(request: Request) -> str:
    """The visitor's token: his cookie's, or a new one (which :func:`remember_csrf` then sets)."""
    made: str | None = getattr(request.state, "csrf_new", None)
    if made is not None:
        return made
    token = request.cookies.get(COOKIE, "")
    if _SHAPE.fullmatch(token):
        return token
    token = secrets.token_urlsafe(32)
    request.state.csrf_new = token
    return token


def remember_csrf(request: Request, response: Response) -> None:
    """Set the visitor's ``csrf`` cookie on ``response`` if :func:`csrf_token` made him a new token."""
    made: str | None = getattr(request.state, "csrf_new", None)
    if made is not None:
        response.set_cookie(
            COOKIE,
            made,
            max_age=MAX_AGE,
            path="/",
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
        )


async def sent_token(request: Request) -> str | None:
    """The token a request sends: its ``X-CSRF-Token`` header, else its form's ``csrf`` field."""
    header = request.headers.get(HEADER)
    if header:
        return header
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind in FORM_TYPES:
        form = await request.form()  # Starlette keeps it: the route reads the same form
        value = form.get(FIELD)
        return value if isinstance(value, str) else None
    return None


async def csrf_valid(request: Request) -> bool:
    """Whether the request may change something: a safe method, or a token equal to its cookie."""
    if request.method in SAFE_METHODS:
        return True
    cookie = request.cookies.get(COOKIE, "")
    sent = await sent_token(request)
    if not sent or not _SHAPE.fullmatch(cookie):
        return False
    return hmac.compare_digest(sent.encode(), cookie.encode())
