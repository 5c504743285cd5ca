"""Accounts: people with a name, a password and a role, and their sign-in sessions.

* A name is 1 to :data:`NAME_MAX` characters (spaces around it dropped, no control characters); two names
  never differ only by case (the ``name_key`` column holds the name case-folded, and is unique).
* A password is :data:`PASSWORD_MIN` to :data:`PASSWORD_MAX` characters, stored as an argon2id hash
  (argon2-cffi's defaults; a hash made with weaker parameters is remade at the next sign-in). Hashing runs
  in a thread: it takes tens of milliseconds, which the server's event loop must not wait for.
* Roles: ``player`` (everyone), ``organiser`` (may run a concours), ``admin`` (also gives roles). The first
  account is an admin, and so is the account named by ``atout serve --admin NAME`` (:attr:`Settings.admin`).
* A session is a random token (:func:`secrets.token_urlsafe`, 32 bytes) that the browser keeps in its
  ``session`` cookie; the database holds only its SHA-256, so a copy of the database signs nobody in. A
  session lasts :attr:`Settings.session_days`; an expired one is deleted when it is next presented.
* The ``session`` cookie (:func:`set_session_cookie`) is HttpOnly (no script reads it), SameSite=Lax (sent when
  one follows a link to the site, not with another site's forms), Path=/, and lives as long as the session. It
  is Secure only when the request arrived over HTTPS (``request.url.scheme``, which ``atout serve --proxied``
  takes from the reverse proxy): a club hall's server on a plain-HTTP local network must still sign people
  in, and a browser drops a Secure cookie set over HTTP.
* Failed sign-ins are limited per client address and per name (:class:`FailureLimit`): past
  :attr:`Settings.signin_attempts` failures in :data:`SIGNIN_WINDOW` seconds, sign-in is refused (429), even
  with the right password. A success does not count.

Errors are :class:`AccountError` (an :class:`~atout.errors.AtoutError` with a catalogue message
``web.account.*`` and the HTTP status a route answers with).
"""

from __future__ import annotations

import asyncio
import hashlib
import ipaddress
import secrets
import time
import unicodedata
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal, cast

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import RowMapping, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection
from starlette.requests import Request
from starlette.responses import Response

from atout.errors import AtoutError
from atout.i18n import Message
from atout.web import schema
from atout.web.settings import Settings
from atout.web.store import Store

Role = Literal["player", "organiser", "admin"]
#: The roles, from the least to the most trusted.
ROLES: tuple[Role, ...] = ("player", "organiser", "admin")
#: Longest name (the ``accounts.name`` column's length), and a password's bounds, in characters.
NAME_MAX = 32
PASSWORD_MIN = 8
PASSWORD_MAX = 200
#: Seconds over which failed sign-ins are counted.
SIGNIN_WINDOW = 15 * 60
#: The browser's cookie that holds a session's token.
SESSION_COOKIE = "session"


class AccountError(AtoutError):
    """An account's input or action refused: a ``web.account.*`` message, and the HTTP status to answer."""

    def __init__(self, key: str, status: int = 400, **values: object) -> None:
        super().__init__(Message(f"web.account.{key}", **values))
        self.status = status


@dataclass(frozen=True)
class Account:
    """Someone who signed up: his id, his name as he wrote it, and his role."""

    id: int
    name: str
    role: Role

    @property
    def is_organiser(self) -> bool:
        """May run a concours: an organiser or an admin."""
        return self.role in ("organiser", "admin")

    @property
    def is_admin(self) -> bool:
        """May give roles."""
        return self.role == "admin"


def clean_name(name: str) -> str:
    """``name`` without the spaces around it, or an :class:`AccountError` saying what is wrong with it.

    >>> clean_name("  Aurélie ")
    'Aurélie'
    >>> clean_name("a\\tb")
    Traceback (most recent call last):
    ...
    atout.web.accounts.AccountError: Un nom ne peut pas contenir de caractères de contrôle.
    """
    name = name.strip()
    if not name:
        raise AccountError("name_empty")
    if len(name) > NAME_MAX or len(name.casefold()) > NAME_MAX:
        raise AccountError("name_long", max=NAME_MAX)
    # Control, format, unassigned and private characters, and line or paragraph separators.
    if any(unicodedata.category(ch)[0] == "C" or unicodedata.category(ch) in ("Zl", "Zp") for ch in name):
        raise AccountError("name_control")
    return name


def check_password(password: str) -> None:
    """Refuse a password shorter than :data:`PASSWORD_MIN` or longer than :data:`PASSWORD_MAX` characters."""
    if len(password) < PASSWORD_MIN:
        raise AccountError("password_short", min=PASSWORD_MIN)
    if len(password) > PASSWORD_MAX:
        raise AccountError("password_long", max=PASSWORD_MAX)


def token_hash(token: str) -> str:
    """What the database keeps of a session's token: its SHA-256, in hexadecimal."""
    return hashlib.sha256(token.encode()).hexdigest()


def set_session_cookie(request: Request, response: Response, token: str, days: int) -> None:
    """Keep the session ``token`` in the browser for ``days`` (Secure only over HTTPS: see above)."""
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=days * 86400,
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


def clear_session_cookie(request: Request, response: Response) -> None:
    """Make the browser forget its session's cookie."""
    response.delete_cookie(
        SESSION_COOKIE, path="/", httponly=True, samesite="lax", secure=request.url.scheme == "https"
    )


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)  # SQLite keeps no time zone: all are UTC


def _account(row: RowMapping) -> Account:
    return Account(id=int(row["id"]), name=str(row["name"]), role=cast(Role, row["role"]))


_COLUMNS = (schema.accounts.c.id, schema.accounts.c.name, schema.accounts.c.role)


class FailureLimit:
    """At most ``limit`` failures per key (a client address, a name) within ``window`` seconds (sliding)."""

    def __init__(self, limit: int, window: float = SIGNIN_WINDOW, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self.failures: dict[str, deque[float]] = {}

    def _recent(self, key: str) -> deque[float] | None:
        times = self.failures.get(key)
        if times is None:
            return None
        since = self.clock() - self.window
        while times and times[0] <= since:
            times.popleft()
        if not times:
            del self.failures[key]
            return None
        return times

    def blocked(self, key: str) -> bool:
        """Whether ``key`` has used up its failures in the window."""
        times = self._recent(key)
        return times is not None and len(times) >= self.limit

    def fail(self, key: str) -> None:
        """Count one failure for ``key``."""
        if len(self.failures) > 10_000:  # many keys tried once: forget those past the window
            for old in list(self.failures):
                self._recent(old)
        self.failures.setdefault(key, deque()).append(self.clock())


def is_local(address: str) -> bool:
    """Whether a client's address is the server's own machine (a loopback address)."""
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


class Accounts:
    """The accounts and sessions stored in a :class:`~atout.web.store.Store`.

    ``clock`` gives the time sessions are dated by (a test may move it); ``hasher`` hashes passwords.
    """

    def __init__(
        self,
        store: Store,
        settings: Settings,
        clock: Callable[[], datetime] = _now,
        hasher: PasswordHasher | None = None,
    ) -> None:
        self.store = store
        self.settings = settings
        self.clock = clock
        self.hasher = hasher or PasswordHasher()
        self.by_address = FailureLimit(settings.signin_attempts)
        self.by_name = FailureLimit(settings.signin_attempts)
        self._dummy: str | None = None

    # ------------------------------------------------------------ passwords
    async def _hash(self, password: str) -> str:
        return await asyncio.to_thread(self.hasher.hash, password)

    async def _verify(self, stored: str, password: str) -> bool:
        def verify() -> bool:
            try:
                return self.hasher.verify(stored, password)
            except (VerificationError, InvalidHashError):
                return False

        return await asyncio.to_thread(verify)

    async def _dummy_hash(self) -> str:
        """A hash no password matches, verified for an unknown name so that it takes as long as a known one."""
        if self._dummy is None:
            self._dummy = await self._hash(secrets.token_urlsafe(24))
        return self._dummy

    # ------------------------------------------------------------ accounts
    async def create(self, name: str, password: str, *, local: bool = True) -> Account:
        """A new account: a player; an admin if it is the first, or the one :attr:`Settings.admin` names, and it is
        created from the server's own machine (``local``: a server opened to a hall's network must not make
        whoever signs up first its administrator)."""
        name = clean_name(name)
        check_password(password)
        key = name.casefold()
        hashed = await self._hash(password)
        admin_key = self.settings.admin.strip().casefold() if self.settings.admin else None

        async def work(conn: AsyncConnection) -> Account:
            taken = await conn.execute(select(schema.accounts.c.id).where(schema.accounts.c.name_key == key))
            if taken.first() is not None:
                raise AccountError("name_taken", 409)
            count = (await conn.execute(select(func.count()).select_from(schema.accounts))).scalar_one()
            role: Role = "admin" if local and (count == 0 or key == admin_key) else "player"
            result = await conn.execute(
                insert(schema.accounts).values(
                    name=name, name_key=key, password=hashed, role=role, created_at=self.clock()
                )
            )
            key_of = result.inserted_primary_key
            assert key_of is not None
            return Account(id=int(key_of[0]), name=name, role=role)

        try:
            return await self.store.transaction(work)
        except IntegrityError:  # the same name, signed up at the same moment
            raise AccountError("name_taken", 409) from None

    async def get(self, account_id: int) -> Account | None:
        """The account with this id, if any."""

        async def work(conn: AsyncConnection) -> Account | None:
            row = (await conn.execute(select(*_COLUMNS).where(schema.accounts.c.id == account_id))).mappings().first()
            return None if row is None else _account(row)

        return await self.store.transaction(work)

    async def named(self, name: str) -> Account | None:
        """The account with this name (whatever its case), if any."""
        key = name.strip().casefold()

        async def work(conn: AsyncConnection) -> Account | None:
            query = select(*_COLUMNS).where(schema.accounts.c.name_key == key)
            row = (await conn.execute(query)).mappings().first()
            return None if row is None else _account(row)

        return await self.store.transaction(work)

    async def all(self) -> list[Account]:
        """Every account, the oldest first."""

        async def work(conn: AsyncConnection) -> list[Account]:
            rows = await conn.execute(select(*_COLUMNS).order_by(schema.accounts.c.id))
            return [_account(row) for row in rows.mappings()]

        return await self.store.transaction(work)

    async def _password_row(self, conn: AsyncConnection, column: Any, value: object) -> RowMapping | None:
        query = select(*_COLUMNS, schema.accounts.c.password).where(column == value)
        return (await conn.execute(query)).mappings().first()

    async def _rehash(self, account_id: int, stored: str, password: str) -> None:
        if self.hasher.check_needs_rehash(stored):
            hashed = await self._hash(password)

            async def work(conn: AsyncConnection) -> None:
                values = {"password": hashed}
                await conn.execute(update(schema.accounts).where(schema.accounts.c.id == account_id).values(values))

            await self.store.transaction(work)

    async def authenticate(self, name: str, password: str) -> Account | None:
        """The account if ``password`` is its password; None otherwise (an unknown name takes as long)."""
        key = name.strip().casefold()

        async def work(conn: AsyncConnection) -> RowMapping | None:
            return await self._password_row(conn, schema.accounts.c.name_key, key)

        row = await self.store.transaction(work) if key and len(key) <= NAME_MAX else None
        if row is None:
            await self._verify(await self._dummy_hash(), password)
            return None
        if not await self._verify(row["password"], password):
            return None
        await self._rehash(int(row["id"]), row["password"], password)
        return _account(row)

    async def sign_in(self, name: str, password: str, address: str) -> Account:
        """:meth:`authenticate`, within the limits on failed sign-ins of ``address`` and of the name.

        Raises :class:`AccountError`: 429 past the limits (even with the right password), 401 for a wrong
        name or password (the same message for both).
        """
        key = name.strip().casefold()
        if self.by_address.blocked(address) or self.by_name.blocked(key):
            raise AccountError("too_many", 429)
        account = await self.authenticate(name, password)
        if account is None:
            self.by_address.fail(address)
            self.by_name.fail(key)
            raise AccountError("wrong", 401)
        return account

    async def change_password(self, account: Account, old: str, new: str, keep: str | None = None) -> None:
        """Change ``account``'s password if ``old`` is the current one, and end its sessions but ``keep``'s."""
        check_password(new)

        async def stored(conn: AsyncConnection) -> RowMapping | None:
            return await self._password_row(conn, schema.accounts.c.id, account.id)

        row = await self.store.transaction(stored)
        if row is None:
            raise AccountError("no_such_account", 404)
        if not await self._verify(row["password"], old):
            raise AccountError("wrong_password", 400)
        hashed = await self._hash(new)
        kept = token_hash(keep) if keep else ""

        async def work(conn: AsyncConnection) -> None:
            accounts, sessions = schema.accounts, schema.sessions
            await conn.execute(update(accounts).where(accounts.c.id == account.id).values(password=hashed))
            others = (sessions.c.account_id == account.id) & (sessions.c.token_hash != kept)
            await conn.execute(delete(sessions).where(others))

        await self.store.transaction(work)

    async def set_role(self, admin: Account, account_id: int, role: str) -> Account:
        """Give ``role`` to the account ``account_id``: only an admin may, and not take his own admin role."""
        if not admin.is_admin:
            raise AccountError("admin_only", 403)
        if role not in ROLES:
            raise AccountError("bad_role")
        if account_id == admin.id and role != "admin":
            raise AccountError("own_admin")
        given: Role = role

        async def work(conn: AsyncConnection) -> Account:
            # The admin must still be one (another admin may have taken the role away since he signed in).
            still = await conn.execute(select(schema.accounts.c.role).where(schema.accounts.c.id == admin.id))
            if still.scalar() != "admin":
                raise AccountError("admin_only", 403)
            query = update(schema.accounts).where(schema.accounts.c.id == account_id).values(role=given)
            if (await conn.execute(query)).rowcount == 0:
                raise AccountError("no_such_account", 404)
            row = (await conn.execute(select(*_COLUMNS).where(schema.accounts.c.id == account_id))).mappings().one()
            return _account(row)

        return await self.store.transaction(work)

    async def promote_named_admin(self, name: str) -> Account | None:
        """Make the account named ``name`` (whatever its case) an admin, if it exists (``atout serve --admin``)."""
        key = name.strip().casefold()

        async def work(conn: AsyncConnection) -> None:
            await conn.execute(update(schema.accounts).where(schema.accounts.c.name_key == key).values(role="admin"))

        await self.store.transaction(work)
        return await self.named(name)

    # ------------------------------------------------------------ sessions
    async def start_session(self, account: Account) -> str:
        """A new session for ``account``: its token, for the browser's cookie (the database keeps its hash)."""
        token = secrets.token_urlsafe(32)
        now = self.clock()
        expires = now + timedelta(days=self.settings.session_days)

        async def work(conn: AsyncConnection) -> None:
            sessions = schema.sessions
            # The account's expired sessions go: nobody can present them any more.
            await conn.execute(
                delete(sessions).where((sessions.c.account_id == account.id) & (sessions.c.expires_at < now))
            )
            await conn.execute(
                insert(sessions).values(
                    token_hash=token_hash(token), account_id=account.id, created_at=now, expires_at=expires
                )
            )

        await self.store.transaction(work)
        return token

    async def by_session(self, token: str) -> Account | None:
        """The account signed in with ``token``; None for an unknown or expired session (which is deleted)."""
        if not token or len(token) > 128:
            return None
        hashed = token_hash(token)
        now = self.clock()

        async def work(conn: AsyncConnection) -> Account | None:
            sessions = schema.sessions
            query = (
                select(*_COLUMNS, sessions.c.expires_at)
                .join(sessions, sessions.c.account_id == schema.accounts.c.id)
                .where(sessions.c.token_hash == hashed)
            )
            row = (await conn.execute(query)).mappings().first()
            if row is None:
                return None
            if _aware(row["expires_at"]) <= now:
                await conn.execute(delete(sessions).where(sessions.c.token_hash == hashed))
                return None
            return _account(row)

        return await self.store.transaction(work)

    async def end_session(self, token: str) -> None:
        """Sign out the session ``token`` (nothing if there is none)."""
        hashed = token_hash(token)

        async def work(conn: AsyncConnection) -> None:
            await conn.execute(delete(schema.sessions).where(schema.sessions.c.token_hash == hashed))

        await self.store.transaction(work)
