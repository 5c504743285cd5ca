"""Accounts' pages: sign up, sign in and out, one's account (a new password), the admin's list of accounts.

Plain HTML forms: each posts (with the visitor's CSRF token, checked by ``Csrf``), then redirects (303) where
the visitor goes next; a refused input shows the form again with the reason, the name typed kept, and the
status that says why (400, 401, 409, 429, or 503 while the database is unavailable).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from atout.i18n import tr
from atout.web.accounts import (
    NAME_MAX,
    PASSWORD_MAX,
    PASSWORD_MIN,
    ROLES,
    SESSION_COOKIE,
    Account,
    AccountError,
    Accounts,
    clear_session_cookie,
    is_local,
    set_session_cookie,
)
from atout.web.deps import AccountsDep, Address, Admin, Csrf, Page, SignedIn
from atout.web.limits import MAX_INT
from atout.web.store import StoreUnavailable

router = APIRouter()

#: A form's text field (missing: empty, which the account's checks refuse in words).
Text = Annotated[str, Form()]
#: Where to go once signed in: a local path (see :func:`local_path`).
NextQuery = Annotated[str, Query(alias="next", max_length=2000)]
NextField = Annotated[str, Form(alias="next", max_length=2000)]


def local_path(target: str | None) -> str:
    """``target`` if it is a path of this site, else ``/``: it starts with one ``/`` (``//host`` is another
    site), and holds no backslash, space or control character (browsers read ``/\\host`` as ``//host``).

    >>> local_path("/t/K7QM?lang=en"), local_path("//evil.example"), local_path("https://evil.example")
    ('/t/K7QM?lang=en', '/', '/')
    """
    if not target or not target.startswith("/") or target.startswith("//"):
        return "/"
    if "\\" in target or any(ch.isspace() or ord(ch) < 32 or ord(ch) == 127 for ch in target):
        return "/"
    return target


async def _start(request: Request, accounts: Accounts, account: Account, target: str) -> Response:
    """Sign ``account`` in (a new session, ending the browser's previous one) and go to ``target``."""
    old = request.cookies.get(SESSION_COOKIE)
    if old:
        await accounts.end_session(old)
    token = await accounts.start_session(account)
    response = RedirectResponse(local_path(target), 303)
    set_session_cookie(request, response, token, accounts.settings.session_days)
    return response


def _unavailable(page: Page) -> str:
    return tr("web.error.unavailable", page.lang)


@router.get("/signup", response_class=HTMLResponse)
async def signup_form(page: Page, target: NextQuery = "/") -> HTMLResponse:
    return page("signup.html", active="signup", typed="", next=local_path(target), error=None, limits=_limits())


@router.post("/signup", response_class=HTMLResponse)
async def signup(
    request: Request,
    page: Page,
    accounts: AccountsDep,
    address: Address,
    _csrf: Csrf,
    name: Text = "",
    password: Text = "",
    target: NextField = "/",
) -> Response:
    """Create an account, and sign it in at once."""
    try:
        account = await accounts.create(name, password, local=is_local(address))
        return await _start(request, accounts, account, target)
    except AccountError as err:
        status, error = err.status, err.message(page.lang)
    except StoreUnavailable:
        status, error = 503, _unavailable(page)
    typed, back = name.strip(), local_path(target)
    return page("signup.html", status, active="signup", typed=typed, next=back, error=error, limits=_limits())


@router.get("/signin", response_class=HTMLResponse)
async def signin_form(page: Page, target: NextQuery = "/") -> HTMLResponse:
    return page("signin.html", active="signin", typed="", next=local_path(target), error=None)


@router.post("/signin", response_class=HTMLResponse)
async def signin(
    request: Request,
    page: Page,
    accounts: AccountsDep,
    address: Address,
    _csrf: Csrf,
    name: Text = "",
    password: Text = "",
    target: NextField = "/",
) -> Response:
    """Sign in by name and password, within the limits on failed attempts."""
    try:
        account = await accounts.sign_in(name, password, address)
        return await _start(request, accounts, account, target)
    except AccountError as err:
        status, error = err.status, err.message(page.lang)
    except StoreUnavailable:
        status, error = 503, _unavailable(page)
    return page("signin.html", status, active="signin", typed=name.strip(), next=local_path(target), error=error)


@router.post("/signout", response_class=HTMLResponse)
async def signout(request: Request, accounts: AccountsDep, _csrf: Csrf) -> Response:
    """End the browser's session, and go home."""
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        await accounts.end_session(token)
    response = RedirectResponse("/", 303)
    clear_session_cookie(request, response)
    return response


@router.get("/account", response_class=HTMLResponse)
async def account(page: Page, user: SignedIn, changed: Annotated[bool, Query()] = False) -> HTMLResponse:
    return page("account.html", active="account", account=user, changed=changed, error=None, limits=_limits())


@router.post("/account/password", response_class=HTMLResponse)
async def change_password(
    request: Request,
    page: Page,
    accounts: AccountsDep,
    user: SignedIn,
    _csrf: Csrf,
    old: Text = "",
    new: Text = "",
    again: Text = "",
) -> Response:
    """A new password (the current one given again); the account's other sessions end."""
    try:
        if new != again:
            raise AccountError("mismatch")
        await accounts.change_password(user, old, new, keep=request.cookies.get(SESSION_COOKIE))
        return RedirectResponse("/account?changed=true", 303)
    except AccountError as err:
        status, error = err.status, err.message(page.lang)
    except StoreUnavailable:
        status, error = 503, _unavailable(page)
    return page("account.html", status, active="account", account=user, changed=False, error=error, limits=_limits())


@router.get("/admin", response_class=HTMLResponse)
async def admin(page: Page, accounts: AccountsDep, user: Admin) -> HTMLResponse:
    return page("admin.html", active="admin", accounts=await accounts.all(), roles=ROLES, me=user, error=None)


@router.post("/admin/role", response_class=HTMLResponse)
async def set_role(
    page: Page,
    accounts: AccountsDep,
    user: Admin,
    _csrf: Csrf,
    account_id: Annotated[int, Form(ge=1, le=MAX_INT)],
    role: Text = "",
) -> Response:
    """Give an account a role (player, organiser, admin)."""
    try:
        await accounts.set_role(user, account_id, role)
        return RedirectResponse("/admin", 303)
    except AccountError as err:
        status, error = err.status, err.message(page.lang)
    except StoreUnavailable:
        status, error = 503, _unavailable(page)
    listed = await accounts.all() if status != 503 else []
    return page("admin.html", status, active="admin", accounts=listed, roles=ROLES, me=user, error=error)


def _limits() -> dict[str, int]:
    """The bounds the forms tell and enforce in the browser too."""
    return {"name": NAME_MAX, "password_min": PASSWORD_MIN, "password_max": PASSWORD_MAX}
