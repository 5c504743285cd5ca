"""Fixtures of the web table's tests: a real PostgreSQL server on loopback, a real browser (the helpers are in
the :mod:`harness` package). Where the server or Chromium is missing the tests that need them are skipped,
unless ``ATOUT_REQUIRE_POSTGRES`` or ``ATOUT_REQUIRE_BROWSER`` is set (CI sets both, so there they fail
instead).
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from harness import fast_settings, finished_game
from harness.browser import ARGS
from harness.postgres import PostgresServer, cluster
from harness.servers import free_port, missing, start_server
from playwright.sync_api import Browser, sync_playwright


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """One PostgreSQL server for the session."""
    with cluster() as server:
        yield server


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database on each of the two servers the store supports: SQLite, and the session's PostgreSQL."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'web.sqlite3'}"
    else:
        server: PostgresServer = request.getfixturevalue("postgres")
        yield server.new_database()


@pytest.fixture
def own_postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL server of one test's own (that test stops and restarts it)."""
    with cluster() as server:
        yield server


@pytest.fixture(scope="session")
def chromium() -> str:
    path = shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(path).exists():
        missing("Chromium", "ATOUT_REQUIRE_BROWSER")
    return path


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real server (bots at a fast pace) whose history holds one finished game (game 1); its address."""
    port = free_port()
    data = tmp_path_factory.mktemp("web")
    with ThreadPoolExecutor(1) as thread:  # Playwright's own loop may be running in this thread
        thread.submit(asyncio.run, finished_game(fast_settings(data))).result()
    process = start_server(data, port, bot_pace=0.05)
    yield f"http://127.0.0.1:{port}"
    process.kill()
    process.wait()


@pytest.fixture(scope="module")
def browser(chromium: str) -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium, args=ARGS)
        yield launched
        launched.close()
