"""Fixtures of the web table's tests: a real PostgreSQL server on loopback, a real browser (the helpers are in
the :mod:`harness` package). Where the server or Chromium is missing the tests that need them are skipped,
unless ``ATOUT_REQUIRE_POSTGRES`` or ``ATOUT_REQUIRE_BROWSER`` is set (CI sets both, so there they fail
instead).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from harness.postgres import PostgresServer, cluster
from harness.servers import missing


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """One PostgreSQL server for the session."""
    with cluster() as server:
        yield server


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
