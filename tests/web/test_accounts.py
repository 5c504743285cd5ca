"""Accounts, sign-in sessions, CSRF protection and roles, on SQLite and on PostgreSQL.

Signing up stores an argon2id hash (never the password) and signs in at once; the first account, and the one
``atout serve --admin`` names, is an admin. The ``session`` cookie is HttpOnly, SameSite=Lax, and Secure over
HTTPS only. A wrong password and an unknown name are refused alike, and failed sign-ins are limited per address
and per name (429, even with the right password). A form posted without the visitor's CSRF token is refused
(403) and changes nothing. A new password ends the account's other sessions; an expired session signs nobody
in. An admin gives roles; a player cannot. Sign-in follows only a local ``next``; names differing only by case
are one name. No test sleeps: expiry moves a row's date, and the failures' window a clock.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher
from fastapi import FastAPI
from fastapi.responses import HTMLResponse
from fastapi.testclient import TestClient
from harness import LOCAL, fast_settings
from httpx2 import Response
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from atout.cli.main import main
from atout.i18n import tr
from atout.web import schema
from atout.web.accounts import Account, AccountError, Accounts, FailureLimit, clean_name, token_hash
from atout.web.app import create_app
from atout.web.deps import Admin, Csrf, Organiser, SignedIn
from atout.web.routes.accounts import local_path
from atout.web.settings import Settings

PASSWORD = "correct horse battery"
#: Where the test client's cookies live (http.cookiejar names a dotless host so).
DOMAIN = "testserver.local"


# ---------------------------------------------------------------- helpers
def app_for(tmp_path: Path, database_url: str, **changes: Any) -> FastAPI:
    return create_app(fast_settings(tmp_path, database_url=database_url, **changes))


@pytest.fixture
def client(tmp_path: Path, database_url: str) -> Iterator[TestClient]:
    with TestClient(app_for(tmp_path, database_url), follow_redirects=False, client=LOCAL) as made:
        yield made


def accounts_of(client: TestClient) -> Accounts:
    found: Accounts = client.app.state.accounts  # type: ignore[attr-defined]
    return found


def csrf(client: TestClient, path: str = "/signin") -> str:
    """The visitor's CSRF token, as a page's forms carry it (the page sets the cookie the first time)."""
    page = client.get(path)
    assert page.status_code == 200
    found = re.search(r'<input type="hidden" name="csrf" value="([^"]+)">', page.text)
    assert found is not None
    meta = re.search(r'<meta name="csrf" content="([^"]+)">', page.text)
    assert meta is not None and meta[1] == found[1] == client.cookies.get("csrf")
    return found[1]


def post(client: TestClient, path: str, **data: Any) -> Response:
    """Post a form as the visitor's page does: with his CSRF token."""
    return client.post(path, data={"csrf": csrf(client), **data})


def signup(client: TestClient, name: str, password: str = PASSWORD, **extra: Any) -> Response:
    return post(client, "/signup", name=name, password=password, **extra)


def signin(client: TestClient, name: str, password: str = PASSWORD, **extra: Any) -> Response:
    return post(client, "/signin", name=name, password=password, **extra)


def error_of(response: Response) -> str:
    found = re.search(r'<p class="error-text" role="alert">(.*?)</p>', response.text, re.S)
    assert found is not None
    return html.unescape(found[1])


def said(text: str) -> str:
    """A message as a page writes it (escaped as Jinja does: an apostrophe as &#39;)."""
    return html.escape(text).replace("&#x27;", "&#39;")


def session_cookie(response: Response) -> str:
    """The ``session`` cookie's Set-Cookie header of ``response``."""
    found = [h for h in response.headers.get_list("set-cookie") if h.startswith("session=")]
    assert len(found) == 1, response.headers.get_list("set-cookie")
    return found[0]


def session_of(client: TestClient) -> str:
    token = client.cookies.get("session")
    assert token
    return token


def use_session(client: TestClient, token: str | None) -> None:
    """Make the client's browser hold this session's cookie (None: no session), its CSRF cookie kept."""
    kept = client.cookies.get("csrf")
    client.cookies.clear()
    if kept:
        client.cookies.set("csrf", kept, domain=DOMAIN)
    if token:
        client.cookies.set("session", token, domain=DOMAIN)


def rows(client: TestClient, table: Any) -> list[dict[str, Any]]:
    async def work(conn: AsyncConnection) -> list[dict[str, Any]]:
        return [dict(row) for row in (await conn.execute(select(table))).mappings()]

    found: list[dict[str, Any]] = client.portal.call(accounts_of(client).store.transaction, work)
    return found


def role_of(client: TestClient, name: str) -> str:
    account = client.portal.call(accounts_of(client).named, name)
    assert account is not None
    return account.role


# ---------------------------------------------------------------- accounts and passwords
def test_the_password_is_stored_as_an_argon2id_hash_and_the_first_account_is_the_admin(client: TestClient) -> None:
    first = signup(client, "Aurélie")
    assert (first.status_code, first.headers["location"]) == (303, "/")
    use_session(client, None)
    assert signup(client, "Bernard", "another password").status_code == 303
    stored = {row["name"]: row for row in rows(client, schema.accounts)}
    assert {name: row["role"] for name, row in stored.items()} == {"Aurélie": "admin", "Bernard": "player"}
    assert stored["Aurélie"]["name_key"] == "aurélie"
    for name, password in (("Aurélie", PASSWORD), ("Bernard", "another password")):
        hashed = stored[name]["password"]
        assert hashed.startswith("$argon2id$") and password not in hashed
        assert PasswordHasher().verify(hashed, password)
    # Only the session token's hash is kept.
    assert token_hash(session_of(client)) in {row["token_hash"] for row in rows(client, schema.sessions)}


def test_the_account_that_serve_admin_names_is_an_admin(tmp_path: Path, database_url: str) -> None:
    with TestClient(app_for(tmp_path, database_url, admin="carol"), follow_redirects=False, client=LOCAL) as client:
        for name in ("Alice", "Bob", "Carol"):
            use_session(client, None)
            assert signup(client, name).status_code == 303
        assert [(a.name, a.role) for a in client.portal.call(accounts_of(client).all)] == [
            ("Alice", "admin"),
            ("Bob", "player"),
            ("Carol", "admin"),
        ]
    # Started again naming an account that exists: it becomes an admin.
    with TestClient(app_for(tmp_path, database_url, admin=" BOB "), follow_redirects=False, client=LOCAL) as client:
        assert role_of(client, "bob") == "admin"


def test_only_an_account_made_on_the_servers_machine_becomes_an_administrator(
    tmp_path: Path, database_url: str
) -> None:
    """A server opened to a hall's network: whoever signs up first from a phone is a player, even under the
    name ``--admin`` gives; the organiser's account, made on the server's machine, is the administrator."""
    app = app_for(tmp_path, database_url, admin="carol")
    with TestClient(app, follow_redirects=False, client=("192.168.1.30", 50000)) as phone:
        for name in ("Mallory", "Carol"):
            use_session(phone, None)
            assert signup(phone, name).status_code == 303
        assert {role_of(phone, "mallory"), role_of(phone, "carol")} == {"player"}
    with TestClient(app, follow_redirects=False, client=LOCAL) as laptop:
        assert signup(laptop, "Martine").status_code == 303
        assert role_of(laptop, "martine") == "player"  # not the first account any more: named by --admin only


def test_atout_serve_admin_reaches_the_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    served: list[Settings] = []
    monkeypatch.setattr("atout.web.server.serve", lambda settings, *_, **__: served.append(settings))
    assert main(["serve", "--data-dir", str(tmp_path), "--admin", "Alice"]) == 0
    assert main(["serve", "--data-dir", str(tmp_path)]) == 0
    assert [s.admin for s in served] == ["Alice", None]


def test_a_weak_hash_is_made_again_at_the_next_sign_in(client: TestClient) -> None:
    accounts = accounts_of(client)
    strong = accounts.hasher
    accounts.hasher = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    client.portal.call(accounts.create, "Alice", PASSWORD)
    accounts.hasher = strong
    weak = rows(client, schema.accounts)[0]["password"]
    assert strong.check_needs_rehash(weak)
    assert signin(client, "alice").status_code == 303
    remade = rows(client, schema.accounts)[0]["password"]
    assert remade != weak and not strong.check_needs_rehash(remade) and strong.verify(remade, PASSWORD)


def test_names_differing_only_by_case_are_one_name_and_bad_input_is_said(client: TestClient) -> None:
    assert signup(client, "Alice").status_code == 303
    use_session(client, None)
    again = signup(client, "  ALICE ")
    assert again.status_code == 409 and error_of(again) == tr("web.account.name_taken", "fr")
    assert 'value="ALICE"' in again.text  # the name typed is kept
    assert "session" not in client.cookies
    english = client.post("/signup?lang=en", data={"csrf": csrf(client), "name": "alice", "password": PASSWORD})
    assert english.status_code == 409 and error_of(english) == tr("web.account.name_taken", "en")
    for name, password, key in (
        ("   ", PASSWORD, "name_empty"),
        ("x" * 33, PASSWORD, "name_long"),
        ("a\u0007b", PASSWORD, "name_control"),
        ("Bob", "short", "password_short"),
        ("Bob", "x" * 201, "password_long"),
    ):
        refused = signup(client, name, password)
        values = {"max": 32} if key == "name_long" else {"min": 8} if key == "password_short" else {"max": 200}
        assert refused.status_code == 400 and error_of(refused) == tr(f"web.account.{key}", "en", **values)
    assert [row["name"] for row in rows(client, schema.accounts)] == ["Alice"]


def test_clean_name_keeps_letters_and_refuses_separators() -> None:
    assert clean_name(" Jean-Édouard ") == "Jean-Édouard"
    for bad in ("a\u2028b", "a\u200bb", "a\nb"):
        with pytest.raises(AccountError):
            clean_name(bad)


# ---------------------------------------------------------------- sessions
def test_signing_up_and_in_sets_an_httponly_lax_session_cookie(client: TestClient) -> None:
    made = signup(client, "Alice")
    cookie = session_cookie(made).lower()
    assert "httponly" in cookie and "samesite=lax" in cookie and "path=/" in cookie and "secure" not in cookie
    assert f"max-age={30 * 86400}" in cookie
    home = client.get("/")
    assert 'href="/account"' in home.text and ">Alice</a>" in home.text and 'action="/signout"' in home.text
    signed = signin(client, "alice")  # any case
    assert signed.status_code == 303 and "httponly" in session_cookie(signed).lower()
    assert client.get("/account").status_code == 200
    out = post(client, "/signout")
    assert (out.status_code, out.headers["location"]) == (303, "/")
    assert "session" not in client.cookies and rows(client, schema.sessions) == []
    assert ">Se connecter</a>" in client.get("/").text


def test_over_https_the_cookies_are_secure(tmp_path: Path, database_url: str) -> None:
    app = app_for(tmp_path, database_url)
    with TestClient(app, base_url="https://testserver", follow_redirects=False, client=LOCAL) as client:
        page = client.get("/signup")
        csrf_cookie = page.headers["set-cookie"].lower()
        assert csrf_cookie.startswith("csrf=") and "secure" in csrf_cookie and "samesite=strict" in csrf_cookie
        cookie = session_cookie(signup(client, "Alice")).lower()
        assert "secure" in cookie and "httponly" in cookie and "samesite=lax" in cookie
        assert client.get("/account").status_code == 200


def test_a_wrong_password_and_an_unknown_name_are_refused_alike(client: TestClient) -> None:
    signup(client, "Alice")
    use_session(client, None)
    wrong, unknown = signin(client, "Alice", "not the password"), signin(client, "Nobody")
    assert wrong.status_code == unknown.status_code == 401
    assert error_of(wrong) == error_of(unknown) == tr("web.account.wrong", "fr")
    assert 'value="Alice"' in wrong.text and "session" not in client.cookies


def test_failed_sign_ins_are_limited_per_address(client: TestClient) -> None:
    """Ten failures from one address, on any names: the eleventh attempt is refused, even with the right
    password; a success does not count; another address may still sign in."""
    signup(client, "Alice")
    use_session(client, None)
    for i in range(9):
        assert signin(client, f"name{i}", "wrong password").status_code == 401
    assert signin(client, "Alice").status_code == 303  # a success does not count
    assert signin(client, "Alice", "wrong password").status_code == 401  # the tenth failure
    refused = signin(client, "Alice")
    assert refused.status_code == 429 and error_of(refused) == tr("web.account.too_many", "fr")
    accounts = accounts_of(client)
    assert client.portal.call(accounts.sign_in, "Alice", PASSWORD, "192.0.2.1") == Account(1, "Alice", "admin")
    # Fifteen minutes after the failures, the address may try again.
    later = accounts.by_address.clock() + 15 * 60 + 1
    accounts.by_address.clock = lambda: later
    assert signin(client, "Alice").status_code == 303


def test_failed_sign_ins_are_limited_per_name(client: TestClient) -> None:
    signup(client, "Alice")
    use_session(client, None)
    accounts = accounts_of(client)
    for i in range(10):
        with pytest.raises(AccountError) as refused:
            client.portal.call(accounts.sign_in, "ALICE", "wrong password", f"198.51.100.{i}")
        assert refused.value.status == 401
    with pytest.raises(AccountError) as refused:
        client.portal.call(accounts.sign_in, "alice", PASSWORD, "203.0.113.1")
    assert refused.value.status == 429
    assert signin(client, "Alice").status_code == 429  # from this address too, which never failed
    assert signin(client, "Bob", "wrong password").status_code == 401  # another name is still counted alone


def test_failure_limit_slides() -> None:
    now = [0.0]
    limit = FailureLimit(2, window=60, clock=lambda: now[0])
    limit.fail("a")
    now[0] = 30
    limit.fail("a")
    assert limit.blocked("a") and not limit.blocked("b")
    now[0] = 61  # the first failure is past the window
    assert not limit.blocked("a")
    now[0] = 91
    assert not limit.blocked("a") and limit.failures == {}


def test_a_new_password_ends_the_other_sessions(client: TestClient) -> None:
    signup(client, "Alice")
    other = session_of(client)
    use_session(client, None)
    signin(client, "Alice")
    mine = session_of(client)
    wrong = post(client, "/account/password", old="not it at all", new="new password", again="new password")
    assert wrong.status_code == 400 and error_of(wrong) == tr("web.account.wrong_password", "fr")
    mismatch = post(client, "/account/password", old=PASSWORD, new="new password", again="new passwort")
    assert mismatch.status_code == 400 and error_of(mismatch) == tr("web.account.mismatch", "fr")
    assert len(rows(client, schema.sessions)) == 2  # nothing changed
    done = post(client, "/account/password", old=PASSWORD, new="new password", again="new password")
    assert (done.status_code, done.headers["location"]) == (303, "/account?changed=true")
    assert tr("web.account.password_changed", "fr") in client.get("/account?changed=true").text
    assert [row["token_hash"] for row in rows(client, schema.sessions)] == [token_hash(mine)]
    use_session(client, other)
    assert client.get("/account").headers["location"] == "/signin?next=/account"
    use_session(client, None)
    assert signin(client, "Alice").status_code == 401
    assert signin(client, "Alice", "new password").status_code == 303


def test_an_expired_session_signs_nobody_in(client: TestClient) -> None:
    signup(client, "Alice")
    token = session_of(client)
    assert client.get("/account").status_code == 200

    async def expire(conn: AsyncConnection) -> None:
        past = datetime.now(UTC) - timedelta(seconds=1)
        await conn.execute(update(schema.sessions).values(expires_at=past))

    client.portal.call(accounts_of(client).store.transaction, expire)
    away = client.get("/account")
    assert (away.status_code, away.headers["location"]) == (303, "/signin?next=/account")
    assert rows(client, schema.sessions) == []  # deleted when presented
    use_session(client, token)
    home = client.get("/")
    assert ">Se connecter</a>" in home.text and ">Alice</a>" not in home.text
    assert "max-age=0" in session_cookie(home).lower()  # the browser forgets it
    assert client.portal.call(accounts_of(client).by_session, token) is None


def test_sessions_last_the_settings_days(tmp_path: Path, database_url: str) -> None:
    with TestClient(app_for(tmp_path, database_url, session_days=2), follow_redirects=False, client=LOCAL) as client:
        assert f"max-age={2 * 86400}" in session_cookie(signup(client, "Alice")).lower()
        (row,) = rows(client, schema.sessions)
        lasts = row["expires_at"] - row["created_at"]
        assert lasts == timedelta(days=2)


# ---------------------------------------------------------------- CSRF
def test_a_post_without_the_csrf_token_is_refused_and_changes_nothing(client: TestClient) -> None:
    token = csrf(client, "/signup")
    for data in ({}, {"csrf": "x" * 43}, {"csrf": ""}):
        refused = client.post("/signup", data={"name": "Alice", "password": PASSWORD, **data})
        assert refused.status_code == 403 and said(tr("web.account.csrf", "fr")) in refused.text
    english = client.post("/signup?lang=en", data={"name": "Alice", "password": PASSWORD})
    assert english.status_code == 403 and said(tr("web.account.csrf", "en")) in english.text
    # The right token in a form, but no cookie (another site's form cannot read it, nor send it): refused.
    client.cookies.clear()
    assert client.post("/signup", data={"name": "Alice", "password": PASSWORD, "csrf": token}).status_code == 403
    assert rows(client, schema.accounts) == []
    client.cookies.clear()
    client.cookies.set("csrf", token, domain=DOMAIN)
    # A script sends it in the X-CSRF-Token header.
    made = client.post("/signup", data={"name": "Alice", "password": PASSWORD}, headers={"X-CSRF-Token": token})
    assert made.status_code == 303
    for path, data in (
        ("/signout", {}),
        ("/account/password", {"old": PASSWORD, "new": "new password", "again": "new password"}),
        ("/admin/role", {"account_id": "1", "role": "player"}),
        ("/signin", {"name": "Alice", "password": PASSWORD}),
    ):
        assert client.post(path, data=data).status_code == 403, path
    assert [(row["name"], row["role"]) for row in rows(client, schema.accounts)] == [("Alice", "admin")]
    assert client.get("/account").status_code == 200  # still signed in, with the same password
    assert len(rows(client, schema.sessions)) == 1


# ---------------------------------------------------------------- roles
def test_an_admin_gives_roles_and_a_player_cannot(client: TestClient) -> None:
    signup(client, "Alice")
    alice = session_of(client)
    use_session(client, None)
    signup(client, "Bob")
    bob = session_of(client)
    bob_id = client.portal.call(accounts_of(client).named, "bob").id
    # Bob, a player: no admin page, no roles.
    assert client.get("/admin").status_code == 403
    refused = post(client, "/admin/role", account_id=str(bob_id), role="admin")
    assert refused.status_code == 403 and said(tr("web.account.not_admin", "fr")) in refused.text
    assert role_of(client, "bob") == "player"
    # Alice, the admin: she sees every account and makes Bob an organiser.
    use_session(client, alice)
    page = client.get("/admin")
    assert page.status_code == 200 and "Bob" in page.text and 'name="role"' in page.text
    given = post(client, "/admin/role", account_id=str(bob_id), role="organiser")
    assert (given.status_code, given.headers["location"]) == (303, "/admin")
    assert role_of(client, "bob") == "organiser"
    for account_id, role, key in ((bob_id, "king", "bad_role"), (1, "player", "own_admin")):
        wrong = post(client, "/admin/role", account_id=str(account_id), role=role)
        assert wrong.status_code == 400 and error_of(wrong) == tr(f"web.account.{key}", "fr")
    assert post(client, "/admin/role", account_id="999", role="player").status_code == 404
    assert role_of(client, "alice") == "admin"
    # Bob, an organiser now, still gives no roles.
    use_session(client, bob)
    assert client.get("/admin").status_code == 403
    assert client.get("/account").status_code == 200


def test_the_role_dependencies_guard_pages_and_apis(tmp_path: Path, database_url: str) -> None:
    """What another area's routes use: ``SignedIn``, ``Organiser``, ``Admin`` (a page redirects to sign in,
    an API answers 401; a role missing is 403) and ``Csrf``."""
    app = app_for(tmp_path, database_url)

    @app.get("/organise", response_class=HTMLResponse)
    async def organise(user: Organiser) -> str:
        return f"<p>{user.name}</p>"

    @app.get("/api/organise")
    async def organise_api(user: Organiser) -> dict[str, str]:
        return {"name": user.name}

    @app.get("/api/me")
    async def me(user: SignedIn) -> dict[str, str]:
        return {"name": user.name}

    @app.post("/api/admin")
    async def admin_api(user: Admin, token: Csrf) -> dict[str, bool]:
        return {"ok": bool(token)}

    with TestClient(app, follow_redirects=False, client=LOCAL) as client:
        away = client.get("/organise?x=1")
        assert (away.status_code, away.headers["location"]) == (303, "/signin?next=/organise%3Fx%3D1")
        assert client.get("/api/me").json() == {"detail": tr("web.account.signed_out", "fr")}
        assert client.get("/api/me").status_code == 401
        signup(client, "Alice")
        use_session(client, None)
        signup(client, "Bob")
        refused = client.get("/organise")
        assert refused.status_code == 403 and said(tr("web.account.not_organiser", "fr")) in refused.text
        assert client.get("/api/organise?lang=en").json() == {"detail": tr("web.account.not_organiser", "en")}
        assert client.get("/api/me").json() == {"name": "Bob"}
        token = csrf(client)
        use_session(client, None)
        signin(client, "Alice")
        assert client.get("/organise").text == "<p>Alice</p>"
        assert client.post("/api/admin").status_code == 403
        assert client.post("/api/admin", headers={"X-CSRF-Token": token}).json() == {"ok": True}


# ---------------------------------------------------------------- where to go next
def test_sign_in_follows_only_a_local_next(client: TestClient) -> None:
    signup(client, "Alice")
    for target, where in (
        ("/games?page_no=1", "/games?page_no=1"),
        ("//evil.example", "/"),
        ("https://evil.example/", "/"),
        ("/\\evil.example", "/"),
        ("/\t/evil.example", "/"),
        ("", "/"),
    ):
        assert signin(client, "Alice", next=target).headers["location"] == where, target
    assert 'name="next" value="/"' in client.get("/signin?next=//evil.example").text
    assert 'name="next" value="/games"' in client.get("/signin?next=/games").text
    assert signup(client, "Bob", next="//evil.example").headers["location"] == "/"
    assert local_path("/c/AB12") == "/c/AB12"


def test_the_pages_speak_the_visitors_language(client: TestClient) -> None:
    french, english = client.get("/signin"), client.get("/signin?lang=en")
    assert "<h1>Connexion</h1>" in french.text and "<h1>Sign in</h1>" in english.text
    assert '<html lang="en">' in english.text and "Create an account" in client.get("/signup").text
    signup(client, "Alice")
    account = client.get("/account")
    assert "Role: Administrator" in account.text and 'href="/admin"' in account.text
    assert ">Sign out</button>" in client.get("/").text
