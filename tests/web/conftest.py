"""Fixtures of the web table's tests: a real PostgreSQL server on loopback, a real browser.

The PostgreSQL server is Debian's (``apt-get install postgresql``): a throwaway
cluster in a temporary directory, started for the session on a free port of
127.0.0.1 and removed after. Where the server or Chromium is missing the tests
that need them are skipped, unless ``ATOUT_REQUIRE_POSTGRES`` or
``ATOUT_REQUIRE_BROWSER`` is set (CI sets both, so there they fail instead).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from glob import glob
from pathlib import Path

import pytest


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _missing(what: str, variable: str) -> None:
    if os.environ.get(variable):
        pytest.fail(f"{what} is required here ({variable} is set) but not installed")
    pytest.skip(f"{what} is not installed")


@dataclass
class PostgresServer:
    """A PostgreSQL cluster of the tests' own, on 127.0.0.1."""

    bindir: Path
    base: Path
    port: int

    @property
    def data(self) -> Path:
        return self.base / "data"

    def _run(self, *command: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        subprocess.run([*prefix, *command], check=True, capture_output=True, timeout=120)

    def start(self) -> None:
        options = f"-p {self.port} -k {self.base} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(
            str(self.bindir / "pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.base / "log"),
            "-w",
            "start",
        )

    def stop(self) -> None:
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+asyncpg://atout@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        name = "t_" + uuid.uuid4().hex[:12]
        prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        subprocess.run(
            [*prefix, str(self.bindir / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "atout", name],
            check=True,
            capture_output=True,
            timeout=60,
        )
        return self.url(name)


def _postgres(base: Path) -> PostgresServer:
    found = sorted(glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if not found:
        _missing("PostgreSQL", "ATOUT_REQUIRE_POSTGRES")
    server = PostgresServer(Path(found[-1]).parent, base, free_port())
    if os.geteuid() == 0:
        shutil.chown(base, "postgres", "postgres")
    server._run(
        str(server.bindir / "initdb"), "-D", str(server.data), "-A", "trust", "-U", "atout", "--no-sync", "-E", "UTF8"
    )
    server.start()
    return server


@contextmanager
def _cluster() -> Iterator[PostgresServer]:
    # Not under pytest's temporary directory: the postgres user must be able to reach it.
    base = Path(tempfile.mkdtemp(prefix="atout-pg-"))
    try:
        server = _postgres(base)
        yield server
        with suppress(subprocess.CalledProcessError):  # a test may have left it stopped
            server.stop()
    finally:
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """One PostgreSQL server for the session."""
    with _cluster() as server:
        yield server


@pytest.fixture
def own_postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL server of one test's own (that test stops and restarts it)."""
    with _cluster() as server:
        yield server


@pytest.fixture(scope="session")
def chromium() -> str:
    path = shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(path).exists():
        _missing("Chromium", "ATOUT_REQUIRE_BROWSER")
    return path
